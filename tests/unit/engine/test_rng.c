/* SPDX-License-Identifier: MIT */
/* Known-answer tests of Philox4x32-10 (vectors from the Random123 distribution's
 * kat_vectors) and properties of the game streams. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "rng.h"

#include "sk_banned.h"

static void check_kat(const clc_u32 ctr[4], const clc_u32 key[2], const clc_u32 want[4])
{
    clc_u32 out[4];
    rng_philox4x32_10(ctr, key, out);
    CU_ASSERT_EQUAL(out[0], want[0]);
    CU_ASSERT_EQUAL(out[1], want[1]);
    CU_ASSERT_EQUAL(out[2], want[2]);
    CU_ASSERT_EQUAL(out[3], want[3]);
#ifdef RNG_PHILOX_SSE2
    rng_philox4x32_10_sse2(ctr, key, out);
    CU_ASSERT_EQUAL(out[0], want[0]);
    CU_ASSERT_EQUAL(out[1], want[1]);
    CU_ASSERT_EQUAL(out[2], want[2]);
    CU_ASSERT_EQUAL(out[3], want[3]);
#endif
}

/* The host's SSE2 copy (what rng_next runs on x86-64) gives the words of the reference
 * copy (what a kernel runs) for every counter and key: 200,000 drawn at random. */
static void test_philox_copies_agree(void)
{
#ifdef RNG_PHILOX_SSE2
    struct rng r;
    int bad = 0;
    rng_init(&r, 0x5eed, 3);
    for (int i = 0; i < 200000; i++) {
        clc_u32 ctr[4], key[2], a[4], b[4];
        for (int j = 0; j < 4; j++)
            ctr[j] = rng_next(&r);
        key[0] = rng_next(&r);
        key[1] = rng_next(&r);
        rng_philox4x32_10(ctr, key, a);
        rng_philox4x32_10_sse2(ctr, key, b);
        bad += memcmp(a, b, sizeof(a)) != 0;
    }
    CU_ASSERT_EQUAL(bad, 0);
#else
    CU_PASS("no SSE2 on this host: rng_next runs the reference copy");
#endif
}

static void test_philox_kat(void)
{
    const clc_u32 c0[4] = {0, 0, 0, 0}, k0[2] = {0, 0};
    const clc_u32 w0[4] = {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u};
    const clc_u32 c1[4] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};
    const clc_u32 k1[2] = {0xffffffffu, 0xffffffffu};
    const clc_u32 w1[4] = {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu};
    const clc_u32 c2[4] = {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u};
    const clc_u32 k2[2] = {0xa4093822u, 0x299f31d0u};
    const clc_u32 w2[4] = {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u};
    check_kat(c0, k0, w0);
    check_kat(c1, k1, w1);
    check_kat(c2, k2, w2);
}

static void test_stream_is_addressed_by_game(void)
{
    struct rng a, b, c;
    clc_u32 xa[9], xb[9];
    int differ = 0;
    rng_init(&a, 42, 7);
    rng_init(&b, 42, 7);
    rng_init(&c, 42, 8);
    for (int i = 0; i < 9; i++) {
        xa[i] = rng_next(&a);
        xb[i] = rng_next(&b);
        differ |= rng_next(&c) != xa[i];
    }
    CU_ASSERT_EQUAL(memcmp(xa, xb, sizeof(xa)), 0);
    CU_ASSERT_TRUE(differ);
    /* The first block of game 7 is philox(ctr = {7, 0, 0, 0}, key = {42, 0}). */
    {
        const clc_u32 ctr[4] = {7, 0, 0, 0}, key[2] = {42, 0};
        clc_u32 out[4];
        rng_philox4x32_10(ctr, key, out);
        CU_ASSERT_EQUAL(out[0], xa[0]);
        CU_ASSERT_EQUAL(out[3], xa[3]);
    }
}

static void test_below_is_in_range_and_spread(void)
{
    struct rng r;
    unsigned hist[5] = {0};
    rng_init(&r, 1, 0);
    for (int i = 0; i < 50000; i++) {
        clc_u32 v = rng_below(&r, 5);
        CU_ASSERT_FATAL(v < 5);
        hist[v]++;
    }
    for (int i = 0; i < 5; i++) /* 10000 expected each; 5 sigma is about 450 */
        CU_ASSERT_TRUE(hist[i] > 9500 && hist[i] < 10500);
}

static CU_TestInfo rng_tests[] = {
    {"philox4x32-10 known answers", test_philox_kat},
    {"philox4x32-10: the SSE2 copy is the reference", test_philox_copies_agree},
    {"stream addressed by (seed, game)", test_stream_is_addressed_by_game},
    {"rng_below range and spread", test_below_is_in_range_and_spread},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_rng_suites[] = {
    {"rng", NULL, NULL, NULL, NULL, rng_tests},
    CU_SUITE_INFO_NULL,
};
