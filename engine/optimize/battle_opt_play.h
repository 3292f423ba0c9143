/* SPDX-License-Identifier: MIT */
/* Playing an optimisation's games (battle_opt): a deck prepared against every defender
 * deck, and segments of such decks' games played on a pool of threads, each game's score
 * summed over the defender decks. A call with enough games may hand them out as units
 * (docs/optimize.md, "Spread across workers"): a unit names its decks and game ranges, so
 * any process holding the job's document computes it (battle_opt_unit_run), and its result
 * is each game's score per defender deck. A game's score depends only on the job, the deck
 * and the game number: where a unit was computed never changes what the search sees. */
#ifndef BATTLE_OPT_PLAY_H
#define BATTLE_OPT_PLAY_H

#include <stddef.h>
#include <stdint.h>

#include "battle_device.h"
#include "battle_opt_job.h"
#include "sk_err.h"

struct battle_plan;
struct battle_pool;
struct job_spread;
struct sk_buf;

/* The most games (times defender decks) of one unit, and so of one unit's result: the
 * bound a unit's bytes are checked against before anything is allocated for it. */
#define OPT_UNIT_ITEMS_MAX (1ULL << 22)
/* The least games (times defender decks) of one call played on the OpenCL device when the
 * process has one; smaller calls stay on the CPU threads (battle_device.h says why). */
#define OPT_DEVICE_ITEMS BATTLE_DEVICE_MIN_GAMES
/* Candidates whose first race batch is played ahead, together, on a run of several
 * threads (battle_opt, "Playing ahead"), and so the most segments of one call: theirs,
 * the current candidate's and the incumbent's. */
#define OPT_AHEAD_MAX    16
#define OPT_SEGMENTS_MAX (2 + OPT_AHEAD_MAX)
/* The most units one call hands out: a call bigger than this many units makes bigger
 * units. */
#define OPT_UNITS_MAX 64

/* The weight of a game's tie-break in a race's score. A race compares decks as the peer's
 * results do, lexicographically: the objective's score, then a win before a stall before a
 * loss, then a faster win or a later loss (the tie-break, 0 .. 1 a game). Its weight is so
 * small that all the tie-breaks of the longest race (OPT_RACE_MAX_MAX games: 1e-4 at most)
 * weigh less than a hundredth of a point of one game: a race's mean is decided by the
 * objective whenever the objective differs, and by the tie-break when it does not (near a
 * ceiling, both decks winning every game). A power of two, far above a double's rounding
 * of a score (2^-52 of it). The final evaluation scores the objective alone. */
#define OPT_TIE_WEIGHT (1.0 / 1073741824.0)
/* The least tie-break difference of one game that means something: a turn sooner or later
 * moves a game's tie-break by 1/765 of its range; this is a little less. */
#define OPT_TIE_STEP (OPT_TIE_WEIGHT / 1024.0)

/* Games [first, first + n) of `deck` (prepared as `plans`, one per defender deck), each
 * game's score (the weighted sum over the defender decks, in search units; with `tie`, plus
 * OPT_TIE_WEIGHT times its tie-break) into out[], and, when `obj` is not NULL, the
 * objective's score alone into obj[]. */
struct opt_segment {
    const struct opt_deck *deck;
    struct battle_plan *const *plans;
    uint64_t first, n;
    double *out;
    int tie;     /* 1: a race's score (with the tie-break); 0: the objective's alone */
    double *obj; /* NULL, or n entries */
};

/* Where a run's games are played: its threads (borrowed; NULL plays on the caller) and,
 * when the worker spreads work (job_run_opts.spread, borrowed; NULL = never), other
 * processes too. */
struct opt_player {
    const struct opt_job *job;
    struct battle_pool *pool;
    const struct job_spread *spread;
    int *device; /* set to 1 once this process played some of the run's games on its OpenCL
                    device (NULL: not kept) */
};

/** Frees the plans of a deck (BATTLE_DEFENDERS_MAX entries) and sets them NULL. */
void battle_opt_plans_free(struct battle_plan **plans);

/**
 * Prepares deck `d` against every defender deck into plans[] (empty on entry): the job's
 * battle params with `d` as the attacker, decoded as a battle job. SK_EINVAL (with `err`)
 * when the deck does not decode or prepare (a catalog card a battle refuses), SK_ENOMEM.
 */
enum sk_err battle_opt_plans(const struct opt_job *job, const struct opt_deck *d,
                             struct battle_plan **plans, char *err, size_t errlen);

/** 1 when `d` is a deck of the job's cards (a commander, then up to BATTLE_DECK_MAX other
 * cards). */
int battle_opt_deck_fits(const struct opt_job *job, const struct opt_deck *d);

/**
 * Plays the segments (at most OPT_SEGMENTS_MAX): here, or, when the player spreads and the games
 * reach two units, as units through the spread. Each game's score is summed over the defender decks
 * in deck order, so the scores depend on neither the threads nor where units ran. SK_ENOMEM;
 * SK_EINVAL or another error of the spread's (with `err`).
 */
enum sk_err battle_opt_play(const struct opt_player *p, const struct opt_segment *segs, int nseg,
                            char *err, size_t errlen);

/**
 * Computes a unit (`spec`, `len` bytes, as battle_opt_play handed it out) of `job` on
 * `pool` (NULL: the caller's thread): its result's bytes go to `out` (the caller's,
 * sk_buf_init'ed). SK_EINVAL with `err` when the bytes are not a unit of this job (another
 * job, damaged, beyond OPT_UNIT_ITEMS_MAX, a deck that does not prepare); SK_ENOMEM.
 */
enum sk_err battle_opt_unit_run(const struct opt_job *job, struct battle_pool *pool,
                                const void *spec, size_t len, struct sk_buf *out, char *err,
                                size_t errlen);

#endif
