/* SPDX-License-Identifier: MIT */
/* Chunk sizing: the first chunk and fixed chunks are SKIRMISH_CHUNK_UNITS, later chunks aim
 * at the target duration from the rate of the chunk before, growing at most 16-fold a step
 * and never below the minimum. */
#include <CUnit/CUnit.h>
#include <stdint.h>

#include "worker_chunk.h"

static void test_first_and_fixed(void)
{
    CU_ASSERT_EQUAL(worker_chunk_next(10000, 250, 0, 0), 10000);   /* nothing timed yet */
    CU_ASSERT_EQUAL(worker_chunk_next(10000, 0, 10000, 9), 10000); /* target 0: fixed */
    CU_ASSERT_EQUAL(worker_chunk_next(0, 0, 0, 0), 1);             /* at least one unit */
}

static void test_aims_at_the_target(void)
{
    /* 10,000 units took 100 ms: 250 ms is 25,000 units */
    CU_ASSERT_EQUAL(worker_chunk_next(10000, 250, 10000, 100), 25000);
    /* a slow chunk: 20,000 units took 1,000 ms, but never below the minimum */
    CU_ASSERT_EQUAL(worker_chunk_next(10000, 250, 20000, 1000), 10000);
    /* 10,000 units in 9 ms would want 277,777: capped at 16 times the chunk before */
    CU_ASSERT_EQUAL(worker_chunk_next(10000, 250, 10000, 9), 160000);
    /* then from 160,000 units in 150 ms: 266,666 */
    CU_ASSERT_EQUAL(worker_chunk_next(10000, 250, 160000, 150), 266666);
    /* faster than the clock can tell */
    CU_ASSERT_EQUAL(worker_chunk_next(10, 250, 100, 0), 1600);
}

static void test_no_overflow(void)
{
    CU_ASSERT_EQUAL(worker_chunk_next(1, 60000, UINT64_MAX / 2, 0), UINT64_MAX);
    CU_ASSERT_EQUAL(worker_chunk_next(1, 60000, UINT64_MAX / 2, 1), UINT64_MAX);
}

static CU_TestInfo chunk_tests[] = {
    {"first chunk and fixed chunks", test_first_and_fixed},
    {"later chunks aim at the target duration", test_aims_at_the_target},
    {"no overflow", test_no_overflow},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_worker_chunk_suites[] = {
    {"worker_chunk", NULL, NULL, NULL, NULL, chunk_tests},
    CU_SUITE_INFO_NULL,
};
