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

enum sk_err stats_mean_ci(uint64_t sum, uint64_t sq, uint64_t n, double z, double max, double *mean,
                          double *lo, double *hi)
{
    double nn, m, var, half;

    if (n == 0 || !(z > 0) || !(max >= 0) || (double)sum > max * (double)n ||
        (double)sq > max * max * (double)n)
        return SK_EINVAL;
    nn = (double)n;
    m = (double)sum / nn;
    *mean = m;
    if (n == 1) {
        *lo = 0;
        *hi = max;
        return SK_OK;
    }
    /* The sums are exact integers; in long double the difference keeps its precision. */
    var = (double)(((long double)sq - (long double)sum * (long double)sum / (long double)n) /
                   (long double)(n - 1));
    half = var > 0 ? z * sqrt(var / nn) : 0;
    *lo = m - half < 0 ? 0 : m - half;
    *hi = m + half > max ? max : m + half;
    return SK_OK;
}
