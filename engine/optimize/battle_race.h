/* SPDX-License-Identifier: MIT */
/* The sequential racing test of the deck optimiser (battle_opt): a candidate deck and the
 * incumbent play the same games (common random numbers: game i of both draws from (seed,
 * i)), and after each batch the paired differences say whether the candidate is
 * significantly better (promote it), clearly not better (drop it), or not yet known (play
 * another batch, up to a bound). A game's score is the objective's plus a tie-break far
 * smaller (battle_opt_play.h); the race keeps the objective's differences apart too, since
 * only the objective may promote a candidate before the bound (below). Pure arithmetic on
 * the differences; plain data. */
#ifndef BATTLE_RACE_H
#define BATTLE_RACE_H

#include <stdint.h>

/* One-sided z a candidate's mean difference must clear, in standard errors, to be
 * promoted: 2.576 (0.5% one-sided per look). The test looks after every batch, so its
 * overall false-promotion rate is higher than one look's; the final fresh evaluation
 * (battle_opt) reports the deck on games no decision saw. */
#define BATTLE_RACE_Z_BETTER 2.5758293035489004
/* A candidate whose mean difference plus this many standard errors is at or below zero
 * is dropped: it is more likely worse than better, and racing it on would spend games on a
 * deck that can no longer be shown better at a useful rate. Half a standard error: most
 * moves are no better, and a search that drops them sooner tries more moves for its
 * budget (on the issue-47 problems, 1.0 ended 0.2 points lower on average). */
#define BATTLE_RACE_Z_DROP 0.5

/* The paired differences d_i = candidate score - incumbent score of game i (tie-break
 * included), and o_i, the same of the objective's scores alone, summed in game order (so
 * the sums, and the verdicts, do not depend on how games were split). */
struct battle_race {
    uint64_t n;
    double sum;
    double sumsq;
    double osum;
    double osumsq;
};

enum battle_race_verdict {
    BATTLE_RACE_GO_ON = 0, /* play another batch */
    BATTLE_RACE_BETTER,    /* promote the candidate */
    BATTLE_RACE_DROP,      /* clearly not better, or the bound reached without proof */
};

/** Adds the differences of one paired game: `d` with the tie-break, `o` the objective's. */
void battle_race_add(struct battle_race *r, double d, double o);

/** The mean difference, tie-break included (0 when n is 0). */
double battle_race_mean(const struct battle_race *r);

/** The standard error of the mean difference: the sample standard deviation over
 * sqrt(n) (0 when n < 2). */
double battle_race_se(const struct battle_race *r);

/**
 * The verdict after the games added so far, with at most `max_n` games per candidate.
 * The standard error judged by is at least unit / n, `unit` being the smallest difference
 * one game can make (> 0): the spread of n differences of which one game went the other
 * way. So a batch whose differences are all equal (zero variance, say every game the same
 * for both decks) is never judged on its spread of 0: all zero goes on to more games, and
 * is dropped only at max_n.
 *
 * BETTER when the objective's mean difference clears Z_BETTER of its standard errors; DROP
 * when the mean with the tie-break plus Z_DROP of its standard errors is at or below zero;
 * else GO_ON until max_n, where the tie-break may decide: BETTER when the objective's mean
 * is not below zero and the mean with the tie-break clears Z_BETTER, else DROP. So a deck
 * is never taken on the tie-break from a few games that say nothing of the objective (near
 * a ceiling, both decks winning every game of a batch, the one that wins sooner cleared
 * the test in 64 games, and the search walked to decks that won sooner and lost more: on
 * two issue-47 problems near 100% that ended 0.3 and 0.9 point lower), only
 * from a whole race whose objective is not worse. With fewer than 2 games (no spread to
 * judge by), GO_ON unless max_n is reached.
 */
enum battle_race_verdict battle_race_decide(const struct battle_race *r, uint64_t max_n,
                                            double unit);

/**
 * The two-sided 95% normal interval of the mean of `n` values whose sum is `sum` and sum of
 * squares `sumsq`, clamped to [lo_cap, hi_cap]: [*lo, *hi]. With n < 2 the interval is
 * the caps.
 */
void battle_race_ci95(uint64_t n, double sum, double sumsq, double lo_cap, double hi_cap,
                      double *lo, double *hi);

#endif
