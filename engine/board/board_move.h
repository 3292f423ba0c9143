/* SPDX-License-Identifier: MIT */
/* The two-pass movement pipeline of seeds 000/001: pass I (checking, overstacking) and
 * pass II (pairwise voting rounds, unstacking with exit/move/enter effects, bounce-backs,
 * moonwalks, removal from the game), plus the order helpers forced movement uses. Who
 * writes which order when (phases 2-4) is board_turn's business. */
#ifndef BOARD_MOVE_H
#define BOARD_MOVE_H

#include "board_model.h"

/* Ownership: every function borrows `st`. board_move_run allocates only scratch arrays. */

/* Movement-order sequence numbers for orders written by spells on groups the player did
 * not order: after every issued order, in the order they were written. */
#define BOARD_FORCED_SEQ 1000000

/** Direction deltas, in the rules' order: up, right, down, left. */
extern const int board_move_dir[4][2];

/**
 * Orders group gi one square in a uniformly random legal direction (playable, enterable),
 * drawing from the turn's stream; with none, cancels its order. Logs an "order" event
 * naming spell definition `def`. `forced_seq` numbers an order the player had not issued.
 */
void board_move_random_direction(struct board_state *st, int gi, int def, int *forced_seq);

/** Sets gi's order to (r, c) (forced movement), logging an "order" event. */
void board_move_force(struct board_state *st, int gi, int r, int c, int def, int *forced_seq);

/**
 * Places group gi, now at (r, c), on the nearest empty, unoccupied square it can enter
 * (Euclidean distance between centres; ties: lower row, then lower column). With
 * `effects`, applies on-exit (r, c), on-move and on-enter effects, as a moonwalk. Removes
 * the group from the game when no square qualifies. Returns 1 if placed, 0 if removed.
 */
int board_move_place(struct board_state *st, int gi, int effects);

/** Runs pass I and pass II over the orders the groups hold (has_order, orow, ocol). */
enum sk_err board_move_run(struct board_state *st);

#endif
