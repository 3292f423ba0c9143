/* SPDX-License-Identifier: MIT */
/* Statistics for Monte-Carlo results: the Wilson score interval of a binomial proportion,
 * and the normal interval of a mean of bounded scores. Pure functions of their arguments; no
 * allocation, no state. */
#ifndef STATS_H
#define STATS_H

#include <stdint.h>

#include "sk_err.h"

/* The two-sided 95% quantile of the standard normal distribution. */
#define STATS_Z95 1.959963984540054

/**
 * Computes the Wilson score interval of `k` successes in `n` trials for quantile `z`
 * (STATS_Z95 for 95%). Unlike the normal approximation it stays inside [0, 1] and is not
 * empty at k = 0 or k = n, which Monte-Carlo runs hit often (a loss rate of 0). Writes
 * *lo and *hi (both in [0, 1]; lo is exactly 0 when k = 0, hi exactly 1 when k = n) and
 * returns SK_OK; SK_EINVAL when n = 0, k > n or z <= 0.
 */
enum sk_err stats_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi);

/**
 * The normal interval of the mean of `n` values whose sum is `sum` and sum of squares
 * `sumsq`, for quantile `z`: mean -+ z * s / sqrt(n), s the sample standard deviation,
 * clamped to [lo_cap, hi_cap]. With n < 2 there is no spread to measure and the interval
 * is the caps. Writes *lo and *hi.
 */
void stats_normal_ci(uint64_t n, double sum, double sumsq, double z, double lo_cap, double hi_cap,
                     double *lo, double *hi);

/**
 * The mean of `n` scores in [0, max] whose sum is `sum` and sum of squares `sq`, and its
 * interval for quantile `z`: mean -+ z * s / sqrt(n), s the sample standard deviation,
 * kept inside [0, max]. The scores of a Monte-Carlo run are bounded and n is large, where
 * the normal approximation holds; with one score there is no deviation to measure and the
 * interval is the whole [0, max]. Writes *mean, *lo, *hi and returns SK_OK; SK_EINVAL when
 * n = 0, z <= 0, or the sums cannot be those of n such scores.
 */
enum sk_err stats_mean_ci(uint64_t sum, uint64_t sq, uint64_t n, double z, double max, double *mean,
                          double *lo, double *hi);

#endif
