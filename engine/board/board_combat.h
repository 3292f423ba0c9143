/* SPDX-License-Identifier: MIT */
/* Combat under the defaults of rules/board.md: which hostile neighbours fight, in what
 * order, and a fight's rounds (armor and attack resets, basher pairing, wise and random
 * targeting, retaliation, alternation by precedence). Each attack runs A1-A7
 * (board_events_attack). Levels and misses are not modelled. */
#ifndef BOARD_COMBAT_H
#define BOARD_COMBAT_H

#include "board_model.h"

/* Ownership: both functions borrow `st`. */

/** Fights one fight between groups a and b; returns the rounds fought. */
int board_combat_fight(struct board_state *st, int a, int b);

/** Finds every pair of hostile orthogonal neighbours and fights each once, in order. */
enum sk_err board_combat_run(struct board_state *st);

#endif
