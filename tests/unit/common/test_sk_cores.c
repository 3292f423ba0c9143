/* SPDX-License-Identifier: MIT */
/* Tests of sk_cores: the idle cores read from /proc/loadavg's runnable count, bounded by
 * the cores this process may use, and the live values within those bounds. */
#include <CUnit/CUnit.h>

#include "sk_cores.h"

#include "sk_banned.h"

static void test_idle_from_loadavg(void)
{
    /* Only the reader runnable: every core is idle. */
    CU_ASSERT_EQUAL(sk_cores_idle_from("0.20 0.18 0.12 1/80 11206\n", 16), 16);
    /* Three others runnable (another worker's job on three threads): 13 of 16 left. */
    CU_ASSERT_EQUAL(sk_cores_idle_from("3.01 2.50 1.00 4/80 11206\n", 16), 13);
    /* As many others as cores, or more: one core still, so the job moves on. */
    CU_ASSERT_EQUAL(sk_cores_idle_from("2.00 2.00 2.00 3/95 2160\n", 2), 1);
    CU_ASSERT_EQUAL(sk_cores_idle_from("9.00 9.00 9.00 40/95 2160\n", 2), 1);
    /* The load averages do not count, only the moment's runnable threads. */
    CU_ASSERT_EQUAL(sk_cores_idle_from("12.00 12.00 12.00 1/95 2160\n", 4), 4);
    /* Unreadable text, or a count that cannot be (no runnable reader): every core. */
    CU_ASSERT_EQUAL(sk_cores_idle_from("", 8), 8);
    CU_ASSERT_EQUAL(sk_cores_idle_from("0.20 0.18 0.12 x/80 1\n", 8), 8);
    CU_ASSERT_EQUAL(sk_cores_idle_from("0.20 0.18 0.12 0/80 1\n", 8), 8);
    /* A nonsense core count still gives one. */
    CU_ASSERT_EQUAL(sk_cores_idle_from("0.20 0.18 0.12 1/80 1\n", 0), 1);
}

static void test_live_bounds(void)
{
    int online = sk_cores_online();
    int idle = sk_cores_idle();

    CU_ASSERT_TRUE(online >= 1);
    CU_ASSERT_TRUE(idle >= 1);
    CU_ASSERT_TRUE(idle <= online);
}

static CU_TestInfo cores_tests[] = {
    {"idle cores from /proc/loadavg", test_idle_from_loadavg},
    {"live values within bounds", test_live_bounds},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sk_cores_suites[] = {
    {"sk_cores", NULL, NULL, NULL, NULL, cores_tests},
    CU_SUITE_INFO_NULL,
};
