/* SPDX-License-Identifier: MIT */
/* The deck optimiser's moves, as the peer's climb makes them: swap a card for another the
 * pool holds, add one, remove one, change the commander for an owned one, and for decks
 * played in order move a card to another position. A move is drawn at random (from the
 * search's own random stream, so the same seed draws the same moves) among those the
 * job's constraints allow. With a fund (battle_opt_fund.h), a move that brings a card in
 * takes it at the highest level the fund pays for, and is drawn only when the deck it makes
 * is built from the owned cards within the fund. Plain data and pure functions. */
#ifndef BATTLE_OPT_MOVES_H
#define BATTLE_OPT_MOVES_H

#include "battle_opt_job.h"
#include "rng.h"

enum opt_move_type {
    OPT_MOVE_SWAP = 0,
    OPT_MOVE_ADD,
    OPT_MOVE_REMOVE,
    OPT_MOVE_COMMANDER,
    OPT_MOVE_REORDER,
    OPT_MOVE__COUNT
};

/* One move. Positions are deck positions (0 = first card). */
struct opt_move {
    int type; /* enum opt_move_type */
    int pos;  /* swap, remove, reorder: the card's position; add: where the new card goes */
    int to;   /* reorder: the position the card ends at */
    int card; /* swap, add: the card coming in; commander: the new commander; reorder: the
                 card moved; remove: -1 */
    int old;  /* swap, remove: the card leaving; commander: the old commander; reorder: the
                 card at `to` before; add: -1 */
};

/** The move type's name ("swap", "add", "remove", "commander", "reorder"; static). */
const char *battle_opt_move_name(enum opt_move_type t);

/**
 * Draws a move the constraints allow for `d` from `r` (advanced). Returns 1 with `m` set,
 * or 0 when several draws found none (the deck may still have one: the caller draws again
 * later, and battle_opt_any_move says for sure).
 */
int battle_opt_draw(const struct opt_job *job, const struct opt_deck *d, struct rng *r,
                    struct opt_move *m);

/** Writes into `out` deck `d` after move `m` (one battle_opt_draw gave for `d`). */
void battle_opt_apply(const struct opt_deck *d, const struct opt_move *m, struct opt_deck *out);

/** 1 when some move of the job's algorithm applies to `d`, else 0. */
int battle_opt_any_move(const struct opt_job *job, const struct opt_deck *d);

#endif
