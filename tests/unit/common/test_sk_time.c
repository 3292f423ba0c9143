/* SPDX-License-Identifier: MIT */
/* Tests of sk_time: the clock never goes back, and its three units agree. */
#include <CUnit/CUnit.h>
#include <stdint.h>
#include <time.h>

#include "sk_time.h"

#include "sk_banned.h"

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    /* a signal may cut it short: sleep on for what is left */
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static void test_monotonic(void)
{
    int64_t ns = sk_time_mono_ns(), ms = sk_time_mono_ms();
    double s = sk_time_mono_s();
    int back = 0;

    CU_ASSERT(ns > 0);
    CU_ASSERT(ms >= 0);
    CU_ASSERT(s > 0.0);
    for (int i = 0; i < 100000; i++) {
        int64_t ns2 = sk_time_mono_ns(), ms2 = sk_time_mono_ms();
        double s2 = sk_time_mono_s();
        back += ns2 < ns || ms2 < ms || s2 < s;
        ns = ns2;
        ms = ms2;
        s = s2;
    }
    CU_ASSERT_EQUAL(back, 0);
}

/* Readings taken in the order ns, ms, s, ns lie between the two ns readings in every unit:
 * ms is the nanoseconds truncated, s the nanoseconds divided (within double rounding). */
static void test_units_agree(void)
{
    for (int i = 0; i < 1000; i++) {
        int64_t ns0 = sk_time_mono_ns();
        int64_t ms = sk_time_mono_ms();
        double s = sk_time_mono_s();
        int64_t ns1 = sk_time_mono_ns();

        CU_ASSERT(ms >= ns0 / 1000000 && ms <= ns1 / 1000000);
        CU_ASSERT(s >= (double)ns0 / 1e9 - 1e-6 && s <= (double)ns1 / 1e9 + 1e-6);
        if (ms < ns0 / 1000000 || ms > ns1 / 1000000)
            break; /* one failure says it; a thousand would not say more */
    }
}

/* A measured pause reads the same in every unit: at least what was slept, and the
 * millisecond and second clocks no more than the nanosecond clock around them. */
static void test_elapsed(void)
{
    int64_t ns0 = sk_time_mono_ns(), ms0 = sk_time_mono_ms();
    double s0 = sk_time_mono_s();
    int64_t ns1, ms1;
    double s1;

    sleep_ms(50);
    s1 = sk_time_mono_s();
    ms1 = sk_time_mono_ms();
    ns1 = sk_time_mono_ns();
    CU_ASSERT(ns1 - ns0 >= 50000000);
    CU_ASSERT(ms1 - ms0 >= 50);
    CU_ASSERT(s1 - s0 >= 0.050 - 1e-6);
    /* truncation to whole milliseconds can gain at most one on the nanosecond span */
    CU_ASSERT(ms1 - ms0 <= (ns1 - ns0) / 1000000 + 1);
    CU_ASSERT(s1 - s0 <= (double)(ns1 - ns0) / 1e9 + 1e-6);
    /* a unit slip (ms read as s, or ns as ms) would be off by a factor of 1000 */
    CU_ASSERT(ms1 - ms0 < 50000);
    CU_ASSERT(s1 - s0 < 50.0);
}

static CU_TestInfo time_tests[] = {
    {"never goes back", test_monotonic},
    {"ns, ms and s agree", test_units_agree},
    {"a pause reads the same in every unit", test_elapsed},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sk_time_suites[] = {
    {"sk_time", NULL, NULL, NULL, NULL, time_tests},
    CU_SUITE_INFO_NULL,
};
