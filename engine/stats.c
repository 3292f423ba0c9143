/* SPDX-License-Identifier: MIT */
/* The Wilson score interval (see stats.h). */
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
