/* SPDX-License-Identifier: MIT */
/* The event model of seed 002: an event applied to a minion checks the spells on it (its
 * group's and its own, oldest to youngest), then bubbles to its square (square, structure
 * and terrain spells), then to the globe; an event on a group goes to each minion. Runs
 * the answering effects' actions and answers the static queries (maximum armor, entering,
 * joining, enchantments). Player-applied events and cast-time effects live in board_turn. */
#ifndef BOARD_EVENTS_H
#define BOARD_EVENTS_H

#include "board_model.h"
#include "board_spells.h"

/* Ownership: every function borrows `st` and `ctx`; nothing is allocated here. */

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

#endif
