/* SPDX-License-Identifier: MIT */
/* Wilson score intervals against values computed independently (roots of the quadratic
 * (p - k/n)^2 = z^2 p (1 - p) / n, in 50-digit decimal arithmetic). */
#include <CUnit/CUnit.h>

#include "stats.h"

#include "sk_banned.h"

static void check(uint64_t k, uint64_t n, double want_lo, double want_hi)
{
    double lo = -1, hi = -1;
    CU_ASSERT_EQUAL_FATAL(stats_wilson(k, n, STATS_Z95, &lo, &hi), SK_OK);
    CU_ASSERT_DOUBLE_EQUAL(lo, want_lo, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hi, want_hi, 1e-12);
}

static void test_wilson_values(void)
{
    check(50, 100, 0.40383153036599562, 0.59616846963400438);
    check(913, 1000, 0.89391351894330651, 0.92892557854762503);
    check(98920, 100000, 0.98854032279430548, 0.98982209381634323);
    check(1080, 100000, 0.010177906183656748, 0.011459677205694498);
    check(1, 1, 0.20654931437723742, 1);
}

static void test_wilson_edges(void)
{
    double lo = -1, hi = -1;

    /* k = 0 and k = n give exact 0 and 1 bounds and a non-empty interval. */
    CU_ASSERT_EQUAL(stats_wilson(0, 10, STATS_Z95, &lo, &hi), SK_OK);
    CU_ASSERT_EQUAL(lo, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 0.2775327998628892, 1e-12);
    CU_ASSERT_EQUAL(stats_wilson(10, 10, STATS_Z95, &lo, &hi), SK_OK);
    CU_ASSERT_DOUBLE_EQUAL(lo, 0.72246720013711074, 1e-12);
    CU_ASSERT_EQUAL(hi, 1.0);
    CU_ASSERT_EQUAL(stats_wilson(0, 1000000, STATS_Z95, &lo, &hi), SK_OK);
    CU_ASSERT_EQUAL(lo, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 3.8414440639449411e-06, 1e-15);
    /* Invalid input leaves the outputs alone. */
    lo = hi = -1;
    CU_ASSERT_EQUAL(stats_wilson(0, 0, STATS_Z95, &lo, &hi), SK_EINVAL);
    CU_ASSERT_EQUAL(stats_wilson(11, 10, STATS_Z95, &lo, &hi), SK_EINVAL);
    CU_ASSERT_EQUAL(stats_wilson(1, 10, 0.0, &lo, &hi), SK_EINVAL);
    CU_ASSERT_EQUAL(lo, -1.0);
    CU_ASSERT_EQUAL(hi, -1.0);
}

/* Means of bounded scores: values from the formulas by hand (python3), the bounds kept in
 * [0, max], one score, and sums no n scores could have. */
static void test_mean_interval(void)
{
    double m = -1, lo = -1, hi = -1;
    /* 0, 100, 100, 50 of at most 100: the upper bound is cut at 100 */
    CU_ASSERT_EQUAL(stats_mean_ci(250, 22500, 4, STATS_Z95, 100, &m, &lo, &hi), SK_OK);
    CU_ASSERT_DOUBLE_EQUAL(m, 62.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(lo, 15.586933774380697, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(hi, 100, 0);
    /* 59, 57, 5, 5, 40, 20, 16, 0, 188, 200 of at most 511 */
    CU_ASSERT_EQUAL(stats_mean_ci(590, 84380, 10, STATS_Z95, 511, &m, &lo, &hi), SK_OK);
    CU_ASSERT_DOUBLE_EQUAL(m, 59.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(lo, 13.002281005611238, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(hi, 104.99771899438876, 1e-9);
    /* all equal: no spread */
    CU_ASSERT_EQUAL(stats_mean_ci(700, 70000, 7, STATS_Z95, 100, &m, &lo, &hi), SK_OK);
    CU_ASSERT_DOUBLE_EQUAL(lo, 100, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(hi, 100, 1e-9);
    /* one score: the whole range */
    CU_ASSERT_EQUAL(stats_mean_ci(40, 1600, 1, STATS_Z95, 511, &m, &lo, &hi), SK_OK);
    CU_ASSERT_DOUBLE_EQUAL(m, 40, 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 511, 0);
    CU_ASSERT_EQUAL(stats_mean_ci(0, 0, 0, STATS_Z95, 100, &m, &lo, &hi), SK_EINVAL);
    CU_ASSERT_EQUAL(stats_mean_ci(301, 0, 3, STATS_Z95, 100, &m, &lo, &hi), SK_EINVAL);
    CU_ASSERT_EQUAL(stats_mean_ci(1, 1, 3, 0, 100, &m, &lo, &hi), SK_EINVAL);
}

static CU_TestInfo stats_tests[] = {
    {"mean interval of bounded scores", test_mean_interval},
    {"wilson interval values", test_wilson_values},
    {"wilson interval edges and errors", test_wilson_edges},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_stats_suites[] = {
    {"stats", NULL, NULL, NULL, NULL, stats_tests},
    CU_SUITE_INFO_NULL,
};
