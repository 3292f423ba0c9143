/* SPDX-License-Identifier: MIT */
/* The Wilson score interval and the interval of a mean (see stats.h). */
#include "stats.h"

#include <math.h>

#include "sk_banned.h"

enum sk_err stats_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi)
{
    double nn, p, z2, denom, center, half, l, h;

    if (n == 0 || k > n || !(z > 0))
        return SK_EINVAL;
    nn = (double)n;
    p = (double)k / nn;
    z2 = z * z;
    denom = 1.0 + z2 / nn;
    center = (p + z2 / (2.0 * nn)) / denom;
    half = z / denom * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn));
    l = center - half;
    h = center + half;
    /* At k = 0 (k = n) the bound is 0 (1) analytically; rounding would leave +-1e-17. */
    if (k == 0 || l < 0)
        l = 0;
    if (k == n || h > 1)
        h = 1;
    *lo = l;
    *hi = h;
    return SK_OK;
}

void stats_normal_ci(uint64_t n, double sum, double sumsq, double z, double lo_cap, double hi_cap,
                     double *lo, double *hi)
{
    double mean, var, half;

    if (n < 2) {
        *lo = lo_cap;
        *hi = hi_cap;
        return;
    }
    mean = sum / (double)n;
    /* never negative: rounding may leave the difference a hair below zero */
    var = (sumsq - sum * sum / (double)n) / (double)(n - 1);
    half = var > 0 ? z * sqrt(var / (double)n) : 0;
    *lo = mean - half < lo_cap ? lo_cap : mean - half;
    *hi = mean + half > hi_cap ? hi_cap : mean + half;
}

enum sk_err stats_mean_ci(uint64_t sum, uint64_t sq, uint64_t n, double z, double max, double *mean,
                          double *lo, double *hi)
{
    if (n == 0 || !(z > 0) || !(max >= 0) || (double)sum > max * (double)n ||
        (double)sq > max * max * (double)n)
        return SK_EINVAL;
    *mean = (double)sum / (double)n;
    stats_normal_ci(n, (double)sum, (double)sq, z, 0, max, lo, hi);
    return SK_OK;
}
