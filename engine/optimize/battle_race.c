/* SPDX-License-Identifier: MIT */
/* The optimiser's racing test (see battle_race.h). */
#include "battle_race.h"

#include <math.h>

#include "stats.h"

#include "sk_banned.h"

void battle_race_add(struct battle_race *r, double d, double o)
{
    r->n++;
    r->sum += d;
    r->sumsq += d * d;
    r->osum += o;
    r->osumsq += o * o;
}

double battle_race_mean(const struct battle_race *r)
{
    return r->n ? r->sum / (double)r->n : 0.0;
}

/* The sample variance of n values from their sum and sum of squares; never negative
 * (rounding may make the difference a hair below zero). */
static double variance(uint64_t n, double sum, double sumsq)
{
    double v;

    if (n < 2)
        return 0.0;
    v = (sumsq - sum * sum / (double)n) / (double)(n - 1);
    return v > 0 ? v : 0.0;
}

double battle_race_se(const struct battle_race *r)
{
    return r->n < 2 ? 0.0 : sqrt(variance(r->n, r->sum, r->sumsq) / (double)r->n);
}

enum battle_race_verdict battle_race_decide(const struct battle_race *r, uint64_t max_n,
                                            double unit)
{
    double mean, se, omean, ose, floor_se;

    if (r->n < 2) /* no spread yet: one game proves nothing */
        return r->n >= max_n && max_n > 0 ? BATTLE_RACE_DROP : BATTLE_RACE_GO_ON;
    mean = battle_race_mean(r);
    se = battle_race_se(r);
    omean = r->osum / (double)r->n;
    ose = sqrt(variance(r->n, r->osum, r->osumsq) / (double)r->n);
    /* A sample with no spread is no proof of none: near a ceiling both decks win every game
     * of a batch, and a spread of 0 dropped (or promoted) a candidate on nothing. */
    floor_se = unit / (double)r->n;
    se = se > floor_se ? se : floor_se;
    ose = ose > floor_se ? ose : floor_se;
    if (omean - BATTLE_RACE_Z_BETTER * ose > 0)
        return BATTLE_RACE_BETTER;
    if (mean + BATTLE_RACE_Z_DROP * se <= 0)
        return BATTLE_RACE_DROP;
    if (r->n < max_n)
        return BATTLE_RACE_GO_ON;
    return omean >= 0 && mean - BATTLE_RACE_Z_BETTER * se > 0 ? BATTLE_RACE_BETTER
                                                              : BATTLE_RACE_DROP;
}

void battle_race_ci95(uint64_t n, double sum, double sumsq, double lo_cap, double hi_cap,
                      double *lo, double *hi)
{
    stats_normal_ci(n, sum, sumsq, STATS_Z95, lo_cap, hi_cap, lo, hi);
}
