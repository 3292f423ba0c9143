/* SPDX-License-Identifier: MIT */
/* The CPU backend (battle_cpu.c): statistical oracles against the peer's figures for the
 * two reference matchups of rules/battle.md, and determinism of counts over thread
 * counts and chunkings. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "battle_cpu.h"
#include "battle_testlib.h"

#include "sk_banned.h"

#define ORACLE_GAMES 200000u

/* Plays ORACLE_GAMES of reference matchup `which` and checks win/stall/loss against the
 * peer's percentages, within +-0.25 percentage points (about 4 standard errors). */
static void check_oracle(int which, double win, double stall, double loss)
{
    struct tb b;
    struct battle_plan *plan;
    struct battle_counts c;
    uint64_t turns = 0;
    tb_ref_matchup(&b, which);
    b.spec.seed = 0x5eed0000u + (unsigned)which;
    b.spec.games = ORACLE_GAMES;
    plan = tb_plan(&b);
    memset(&c, 0, sizeof(c));
    CU_ASSERT_EQUAL_FATAL(battle_cpu_run(plan, 0, ORACLE_GAMES, 0, &c), SK_OK);
    CU_ASSERT_EQUAL(c.games, ORACLE_GAMES);
    CU_ASSERT_EQUAL(c.wins + c.stalls + c.losses, ORACLE_GAMES);
    for (int t = 0; t <= BATTLE_TURN_LIMIT_MAX; t++)
        turns += c.turns[t];
    CU_ASSERT_EQUAL(turns, ORACLE_GAMES);
    CU_ASSERT_TRUE(c.turns[50] >= c.stalls); /* stalls count at the turn limit */
    printf("\n    matchup %d: win %.3f stall %.3f loss %.3f (peer %.2f / %.2f / %.2f) ", which + 1,
           100.0 * (double)c.wins / ORACLE_GAMES, 100.0 * (double)c.stalls / ORACLE_GAMES,
           100.0 * (double)c.losses / ORACLE_GAMES, win, stall, loss);
    CU_ASSERT_DOUBLE_EQUAL(100.0 * (double)c.wins / ORACLE_GAMES, win, 0.25);
    CU_ASSERT_DOUBLE_EQUAL(100.0 * (double)c.stalls / ORACLE_GAMES, stall, 0.25);
    CU_ASSERT_DOUBLE_EQUAL(100.0 * (double)c.losses / ORACLE_GAMES, loss, 0.25);
    battle_plan_free(plan);
}

static void test_oracle_matchup1(void)
{
    check_oracle(0, 98.92, 1.08, 0.00);
}

static void test_oracle_matchup2(void)
{
    check_oracle(1, 91.29, 8.58, 0.13);
}

static void test_same_counts_any_threads_and_chunks(void)
{
    struct tb b;
    struct battle_plan *plan;
    struct battle_counts one, two, three, chunked;
    const uint64_t n = 20000;
    tb_ref_matchup(&b, 1);
    b.spec.seed = 42;
    plan = tb_plan(&b);
    memset(&one, 0, sizeof(one));
    memset(&two, 0, sizeof(two));
    memset(&three, 0, sizeof(three));
    memset(&chunked, 0, sizeof(chunked));
    CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, n, 1, &one), SK_OK);
    CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, n, 2, &two), SK_OK);
    CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, n, 3, &three), SK_OK);
    CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, 7, 2, &chunked), SK_OK);
    CU_ASSERT_EQUAL(battle_cpu_run(plan, 7, 12000, 3, &chunked), SK_OK);
    CU_ASSERT_EQUAL(battle_cpu_run(plan, 12007, 0, 2, &chunked), SK_OK);
    CU_ASSERT_EQUAL(battle_cpu_run(plan, 12007, n - 12007, 0, &chunked), SK_OK);
    CU_ASSERT_EQUAL(one.games, n);
    CU_ASSERT_EQUAL(memcmp(&one, &two, sizeof(one)), 0);
    CU_ASSERT_EQUAL(memcmp(&one, &three, sizeof(one)), 0);
    CU_ASSERT_EQUAL(memcmp(&one, &chunked, sizeof(one)), 0);
    battle_plan_free(plan);
}

/* A different seed gives different games; the same (seed, game) the same game. */
static void test_play_one_matches_run(void)
{
    struct tb b;
    struct battle_plan *plan, *other;
    struct battle_counts run, single;
    struct battle_game_result r;
    int differ = 0;
    tb_ref_matchup(&b, 1);
    b.spec.seed = 7;
    plan = tb_plan(&b);
    b.spec.seed = 8;
    other = tb_plan(&b);
    memset(&run, 0, sizeof(run));
    memset(&single, 0, sizeof(single));
    CU_ASSERT_EQUAL(battle_cpu_run(plan, 100, 300, 2, &run), SK_OK);
    for (uint64_t g = 100; g < 400; g++) {
        struct battle_game_result o;
        battle_cpu_play_one(plan, g, &r);
        battle_cpu_count(&single, &r);
        battle_cpu_play_one(other, g, &o);
        differ += o.outcome != r.outcome || o.turn != r.turn;
    }
    CU_ASSERT_EQUAL(memcmp(&run, &single, sizeof(run)), 0);
    CU_ASSERT_TRUE(differ > 0);
    battle_plan_free(plan);
    battle_plan_free(other);
}

static void test_counts_add(void)
{
    struct battle_counts a, c;
    struct battle_game_result r = {BATTLE_SIM_LOSS, 12, 0, 0, 0};
    memset(&a, 0, sizeof(a));
    memset(&c, 0, sizeof(c));
    battle_cpu_count(&c, &r);
    r.outcome = BATTLE_SIM_STALL;
    r.turn = 50;
    battle_cpu_count(&c, &r);
    r.outcome = BATTLE_SIM_WIN;
    r.turn = 3;
    r.points = 100;
    battle_cpu_count(&c, &r);
    r.points = 7;
    r.outcome = BATTLE_SIM_STALL;
    r.turn = 7;
    r.bounded = 1;
    battle_cpu_count(&c, &r);
    battle_counts_add(&a, &c);
    battle_counts_add(&a, &c);
    CU_ASSERT_EQUAL(a.games, 8);
    CU_ASSERT_EQUAL(a.wins, 2);
    CU_ASSERT_EQUAL(a.stalls, 4);
    CU_ASSERT_EQUAL(a.bounded, 2);
    CU_ASSERT_EQUAL(a.losses, 2);
    CU_ASSERT_EQUAL(a.turns_sum, 2 * (12 + 50 + 3 + 7));
    CU_ASSERT_EQUAL(a.turns[7], 2);
    CU_ASSERT_EQUAL(a.turns[12], 2);
    CU_ASSERT_EQUAL(a.turns[50], 2);
    CU_ASSERT_EQUAL(a.turns[3], 2);
    CU_ASSERT_EQUAL(a.points_sum, 2 * (100 + 7));
    CU_ASSERT_EQUAL(a.points_sq, 2 * (100 * 100 + 7 * 7));
}

/* A call with a deadline plays a prefix of its range, at least one game, and counts exactly
 * those games: with the deadline already past, on one thread one game, on four at most one
 * a thread; without one, the whole range. */
static void test_deadline_plays_a_prefix(void)
{
    struct tb b;
    struct battle_plan *plan;
    struct battle_counts got, want;
    const uint64_t first = 1000, n = 5000;
    uint64_t played = 0;

    tb_ref_matchup(&b, 0);
    plan = tb_plan(&b);
    for (int threads = 1; threads <= 4; threads += 3) {
        memset(&got, 0, sizeof(got));
        memset(&want, 0, sizeof(want));
        CU_ASSERT_EQUAL_FATAL(battle_cpu_run_until(plan, first, n, threads, 1, &got, &played),
                              SK_OK);
        CU_ASSERT(played >= 1 && played <= (uint64_t)threads);
        CU_ASSERT_EQUAL_FATAL(battle_cpu_run(plan, first, played, 1, &want), SK_OK);
        CU_ASSERT_EQUAL(memcmp(&got, &want, sizeof(got)), 0);
    }
    memset(&got, 0, sizeof(got));
    memset(&want, 0, sizeof(want));
    CU_ASSERT_EQUAL(battle_cpu_run_until(plan, first, n, 2, 0, &got, &played), SK_OK);
    CU_ASSERT_EQUAL(played, n);
    CU_ASSERT_EQUAL(battle_cpu_run(plan, first, n, 3, &want), SK_OK);
    CU_ASSERT_EQUAL(memcmp(&got, &want, sizeof(got)), 0);
    CU_ASSERT_EQUAL(battle_cpu_run_until(plan, first, 0, 2, 1, &got, &played), SK_OK);
    CU_ASSERT_EQUAL(played, 0);
    battle_plan_free(plan);
}

static CU_TestInfo cpu_tests[] = {
    {"oracle: matchup 1 within 0.25 points of the peer", test_oracle_matchup1},
    {"oracle: matchup 2 within 0.25 points of the peer", test_oracle_matchup2},
    {"same counts for 1, 2, 3 threads and any chunking", test_same_counts_any_threads_and_chunks},
    {"play_one matches run; seeds differ", test_play_one_matches_run},
    {"counting and battle_counts_add", test_counts_add},
    {"a deadline plays a prefix of the range, at least one game", test_deadline_plays_a_prefix},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_cpu_suites[] = {
    {"battle_cpu", NULL, NULL, NULL, NULL, cpu_tests},
    CU_SUITE_INFO_NULL,
};
