/* SPDX-License-Identifier: MIT */
/* Statistics for Monte-Carlo results: the Wilson score interval of a binomial proportion.
 * Pure functions of their arguments; no allocation, no state. */
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

#endif
