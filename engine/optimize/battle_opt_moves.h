/* SPDX-License-Identifier: MIT */
/* The deck optimiser's moves, as the peer's climb makes them: swap a card for another the
 * pool holds, add one, remove one, change the commander for an owned one, and for decks
 * played in order move a card to another position. The moves of a deck the job's
 * constraints allow are tried in sweeps: each once, in a random order (from the search's
 * own random stream, so the same seed tries the same moves). With a fund
 * (battle_opt_fund.h), a move that brings a card in takes it at the highest level the fund
 * pays for, and is tried only when the deck it makes is built from the owned cards within
 * the fund. Plain data and pure functions. */
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

/* A sweep: every move of one deck, each once, in a random order, as the peer's climb tries
 * every move of its deck before it looks at the deck again. The moves of a deck are numbered
 * (battle_opt_moves.c lays the numbers out: swaps, adds, removes, commanders, reorders); a
 * Feistel network keyed from the search's random stream permutes the numbers, so the order
 * is random and the sweep holds no list: plain data, saved in checkpoints as it is. Numbers
 * that name no move the constraints allow, or a move another number of the sweep already
 * names (a copy of a card the sweep swaps or removes at an earlier position, for a deck
 * played at random), are passed over. */
struct opt_sweep {
    int live;       /* 1 while the sweep has numbers left */
    int bits;       /* the network permutes 0 .. 2^bits - 1 (bits even, 2^bits >= n) */
    uint64_t n;     /* the deck's move numbers */
    uint64_t next;  /* numbers of 0 .. 2^bits - 1 taken so far */
    uint64_t found; /* moves the sweep has given */
    uint32_t key[4];
};

/** The move type's name ("swap", "add", "remove", "commander", "reorder"; static). */
const char *battle_opt_move_name(enum opt_move_type t);

/** Starts a sweep `s` of the moves of `d` (its order drawn from `r`, advanced). */
void battle_opt_sweep_start(const struct opt_job *job, const struct opt_deck *d, struct rng *r,
                            struct opt_sweep *s);

/**
 * The sweep's next move of `d` (the deck it was started on) into `m`: 1, or 0 when the
 * sweep has given every move (`s->live` is then 0; `s->found` 0 means `d` has none).
 */
int battle_opt_sweep_next(const struct opt_job *job, const struct opt_deck *d, struct opt_sweep *s,
                          struct opt_move *m);

/** Writes into `out` deck `d` after move `m` (one of a sweep of `d`). */
void battle_opt_apply(const struct opt_deck *d, const struct opt_move *m, struct opt_deck *out);

/** 1 when some move of the job's algorithm applies to `d`, else 0. */
int battle_opt_any_move(const struct opt_job *job, const struct opt_deck *d);

#endif
