/* SPDX-License-Identifier: MIT */
/* Tests of worker/worker_retry: exponential growth, the cap and the jitter range. */
#include <CUnit/CUnit.h>
#include <stdint.h>

#include "worker_retry.h"

static void test_growth_and_cap(void)
{
    /* rnd = 0 gives the lower bound d/2, rnd = d/2 the upper bound d */
    CU_ASSERT_EQUAL(worker_retry_delay(1000, 60000, 1, 0), 500);
    CU_ASSERT_EQUAL(worker_retry_delay(1000, 60000, 1, 500), 1000);
    CU_ASSERT_EQUAL(worker_retry_delay(1000, 60000, 2, 1000), 2000);
    CU_ASSERT_EQUAL(worker_retry_delay(1000, 60000, 3, 0), 2000);
    CU_ASSERT_EQUAL(worker_retry_delay(1000, 60000, 7, 30000), 60000); /* 64 s capped at 60 */
    CU_ASSERT_EQUAL(worker_retry_delay(1000, 60000, 40, 0), 30000);    /* no overflow */
}

static void test_jitter_range(void)
{
    for (uint64_t r = 0; r < 5000; r += 37) {
        long d = worker_retry_delay(1000, 60000, 3, r * 2654435761u);
        CU_ASSERT(d >= 2000 && d <= 4000);
    }
    CU_ASSERT_NOT_EQUAL(worker_retry_random() | worker_retry_random(), 0);
}

static CU_TestInfo retry_tests[] = {
    {"exponential growth and cap", test_growth_and_cap},
    {"jitter stays within [d/2, d]", test_jitter_range},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_worker_retry_suites[] = {
    {"worker_retry", NULL, NULL, NULL, NULL, retry_tests},
    CU_SUITE_INFO_NULL,
};
