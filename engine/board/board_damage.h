/* SPDX-License-Identifier: MIT */
/* The damage and death pipelines of seed 003: Apply Damage (G1-G3), Takes Damage (D1-D4),
 * one attack (A1-A7) and minion death (E1-E4, rules/board.md). Choosing who attacks whom
 * is board_combat's business. */
#ifndef BOARD_DAMAGE_H
#define BOARD_DAMAGE_H

#include "board_model.h"

/* Ownership: every function borrows `st`; minions are named by group and minion index. */

/**
 * Apply Damage: `quantity` magical damage from spell definition `def` to minion (gi, mi),
 * no attacker. Returns the Takes Damage result, or -1 when G1 halted (dead or removed).
 */
int board_damage_apply(struct board_state *st, int gi, int mi, int quantity, int def);

/**
 * Takes Damage for victim (vg, vm) with optional attacker (ag, am; -1 for none).
 * `ignores_armor`/`magical` are the damage modifiers. Returns an enum board_result; the
 * caller handles a killed result (G3/A6) unless the victim is already buried.
 */
int board_damage_take(struct board_state *st, int vg, int vm, int ag, int am, int quantity,
                      int ignores_armor, int magical);

/**
 * Minion death (E1-E4) of (gi, mi); `kg, km` the killer for a "kills" death, -1 for
 * "dies". No-op if the minion is already buried.
 */
void board_damage_death(struct board_state *st, int gi, int mi, int kg, int km);

/**
 * One attack (A1-A7) by (ag, am) on (vg, vm) in combat round `round`. Returns the Takes
 * Damage result, or -1 when A1 skipped it.
 */
int board_damage_attack(struct board_state *st, int ag, int am, int vg, int vm, int round);

/** The attack's damage quantity before spell effects (A2 round and nation modifiers). */
int board_damage_base(const struct board_minion *m, int round);

#endif
