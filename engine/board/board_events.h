/* SPDX-License-Identifier: MIT */
/* Events and what they set off: the event model of seed 002 and the damage and death
 * pipelines of seed 003 (rules/board.md). An event applied to a minion checks the spells on
 * it (its group's and its own, oldest to youngest), then bubbles to its square (square,
 * structure and terrain spells), then to the globe; an event on a group goes to each
 * minion. Runs the answering effects' actions and answers the static queries (maximum
 * armor, entering, joining, enchantments). Apply Damage (G1-G3), Takes Damage (D1-D4), one
 * attack (A1-A7) and minion death (E1-E4) are sequences of such events.
 *
 * Why one module: the two are one recursion. The pipelines fire events at each step, and
 * the actions that answer them deal damage and kill (Vengeance, Deflection, a damage
 * effect, "kill victim"), which enters the pipelines again. As two modules each needed the
 * other; there is no part both need that could sit below them, and passing the pipelines
 * into the event code as function pointers would only hide the same recursion behind a
 * parameter that every caller of an event (movement, combat, turns) would have to supply.
 *
 * Player-applied events and cast-time effects live in board_turn; choosing who attacks whom
 * is board_combat's business. */
#ifndef BOARD_EVENTS_H
#define BOARD_EVENTS_H

#include "board_model.h"
#include "board_spells.h"

/* Ownership: every function borrows `st` and `ctx`; nothing is allocated here. Minions are
 * named by group and minion index. */

/* ===== Events (seed 002) ===== */

/* One event in flight. Group/minion indices are -1 when absent. */
struct board_ctx {
    enum board_point point;
    int vg, vm;   /* the victim, or the minion the event is applied to */
    int ag, am;   /* the attacker */
    int row, col; /* the square level the event bubbles to (-1: skip the square level) */
    int quantity; /* damage quantity, in and out */
    int magical, ignores_armor;
    int cancelled; /* receive_no_damage answered: stop and return bounced */
    int forbid;    /* a query was refused (join, enter) */
    int armor_add; /* stats query */
};

/** A context for `point` at minion (vg, vm), bubbling to that minion's square. */
struct board_ctx board_events_ctx(const struct board_state *st, enum board_point point, int vg,
                                  int vm);

/**
 * Applies ctx->point to the host minion (the victim for attacked/before/after armor, the
 * attacker for attacking/hits/damages, else (vg, vm)) and bubbles it up. Effects may kill
 * minions and write the log. Stops early when an effect cancels the damage.
 */
void board_events_minion(struct board_state *st, struct board_ctx *ctx);

/** Applies `point` to each living minion of group gi, bubbling to square (row, col). */
void board_events_group(struct board_state *st, enum board_point point, int gi, int row, int col);

/**
 * Asks query `point` (can move, can exit, can join, ...) of each living minion of group gi
 * in order, bubbling to square (row, col); returns 1 at the first minion whose answer
 * forbids it (later minions are not asked), else 0.
 */
int board_events_group_forbids(struct board_state *st, enum board_point point, int gi, int row,
                               int col);
/** Maximum armor of a minion: its own plus "stats" effects. */
int board_events_max_armor(struct board_state *st, int gi, int mi);
/** 1 if the minion has an enchantment (a live spell on it or its group); 0 if buried. */
int board_events_enchanted(const struct board_state *st, int gi, int mi);
/** 1 if every living minion of gi may enter (r, c): playable, terrain, Terrain-Bind. */
int board_events_can_enter(struct board_state *st, int gi, int r, int c);
/** 1 if groups a and b may join (rules/board.md "Hostility and joining"). */
int board_events_can_join(struct board_state *st, int a, int b);

/** Logs an "effect" event for spell instance `sp` doing `action` at a minion/group. */
void board_events_log_effect(struct board_state *st, const struct board_spell *sp, int action,
                             const char *at, int value);

/* ===== Damage and death (seed 003) ===== */

/**
 * Apply Damage: `quantity` magical damage from spell definition `def` to minion (gi, mi),
 * no attacker. Returns the Takes Damage result, or -1 when G1 halted (dead or removed).
 */
int board_events_apply_damage(struct board_state *st, int gi, int mi, int quantity, int def);

/**
 * Takes Damage for victim (vg, vm) with optional attacker (ag, am; -1 for none).
 * `ignores_armor`/`magical` are the damage modifiers. Returns an enum board_result; the
 * caller handles a killed result (G3/A6) unless the victim is already buried.
 */
int board_events_take_damage(struct board_state *st, int vg, int vm, int ag, int am, int quantity,
                             int ignores_armor, int magical);

/**
 * Minion death (E1-E4) of (gi, mi); `kg, km` the killer for a "kills" death, -1 for
 * "dies". No-op if the minion is already buried.
 */
void board_events_death(struct board_state *st, int gi, int mi, int kg, int km);

/**
 * One attack (A1-A7) by (ag, am) on (vg, vm) in combat round `round`. Returns the Takes
 * Damage result, or -1 when A1 skipped it.
 */
int board_events_attack(struct board_state *st, int ag, int am, int vg, int vm, int round);

/** The attack's damage quantity before spell effects (A2 round and nation modifiers). */
int board_events_attack_base(const struct board_minion *m, int round);

#endif
