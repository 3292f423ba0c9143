/* SPDX-License-Identifier: MIT */
/* The board scenarios of tests/data/board/: each file states a full job (initial state,
 * orders, casts), the exact final state and the exact events of the listed types. They
 * run through the public board_job path. The "about" text of each file says what rule it
 * pins (docs/rules/board.md lists them). */
#include <CUnit/CUnit.h>
#include <stdlib.h>

#include "board_test_util.h"
#include "sk_test_main.h"

#include "sk_banned.h"

static void run_scenario(const char *name)
{
    char rel[128];
    json_t *doc, *job, *expect, *res, *got;
    size_t i;
    json_t *e;

    snprintf(rel, sizeof(rel), "board/%s.json", name);
    doc = json_load_file(sk_test_data(rel), 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    job = json_object_get(doc, "job");
    expect = json_object_get(doc, "expect");
    res = bt_run_json(json_object_get(job, "params"),
                      (uint64_t)json_integer_value(json_object_get(job, "seed")));
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    if (!json_equal(json_object_get(res, "state"), json_object_get(expect, "state"))) {
        char *s = json_dumps(json_object_get(res, "state"), JSON_COMPACT);
        fprintf(stderr, "%s: final state differs: %s\n", name, s);
        sk_free(s);
        CU_FAIL("final state");
    }
    got = json_array();
    json_array_foreach(json_object_get(res, "events"), i, e)
    {
        size_t k;
        json_t *t;
        json_array_foreach(json_object_get(expect, "event_types"), k, t)
        {
            if (json_equal(t, json_object_get(e, "type")))
                json_array_append(got, e);
        }
    }
    if (!json_equal(got, json_object_get(expect, "events"))) {
        char *s = json_dumps(got, JSON_COMPACT);
        fprintf(stderr, "%s: events differ: %s\n", name, s);
        sk_free(s);
        CU_FAIL("events");
    }
    json_decref(got);
    json_decref(res);
    json_decref(doc);
}

#define SCENARIO(n)                                                                                \
    static void test_##n(void)                                                                     \
    {                                                                                              \
        run_scenario(#n);                                                                          \
    }
SCENARIO(s1_moonwalk)
SCENARIO(s2_flying_leap)
SCENARIO(s5_khobai)
SCENARIO(s6_fred)
SCENARIO(s6_fred_reversed)
SCENARIO(s7_fred_bard)
SCENARIO(s8_zero_point)
SCENARIO(s9_armor_reset)
SCENARIO(s12_squander)
SCENARIO(s13_leave)
SCENARIO(vote_stationary)
SCENARIO(vote_initiative)
SCENARIO(vote_neutral_rank)
SCENARIO(vote_larger)
SCENARIO(vote_sequence)
SCENARIO(vote_interleave)
SCENARIO(neutral_groups)
SCENARIO(computer_forced)
SCENARIO(terrain_entry)
SCENARIO(removal)
SCENARIO(player_event_order)
SCENARIO(before_movement)
SCENARIO(pass1_checks)
SCENARIO(walk_effects)
SCENARIO(death_effects)
SCENARIO(despond_calm)

#define T(n)                                                                                       \
    {                                                                                              \
#n, test_##n                                                                               \
    }
static CU_TestInfo seed_tests[] = {T(s1_moonwalk),   T(s2_flying_leap),   T(s5_khobai),
                                   T(s6_fred),       T(s6_fred_reversed), T(s7_fred_bard),
                                   T(s8_zero_point), T(s9_armor_reset),   T(s12_squander),
                                   T(s13_leave),     CU_TEST_INFO_NULL};
static CU_TestInfo rule_tests[] = {T(vote_stationary), T(vote_initiative),    T(vote_neutral_rank),
                                   T(vote_larger),     T(vote_sequence),      T(vote_interleave),
                                   T(neutral_groups),  T(computer_forced),    T(terrain_entry),
                                   T(removal),         T(player_event_order), T(before_movement),
                                   T(pass1_checks),    T(walk_effects),       T(death_effects),
                                   T(despond_calm),    CU_TEST_INFO_NULL};
#undef T

CU_SuiteInfo test_board_scenarios_suites[] = {
    {"board_seed_scenarios", NULL, NULL, NULL, NULL, seed_tests},
    {"board_rule_scenarios", NULL, NULL, NULL, NULL, rule_tests},
    CU_SUITE_INFO_NULL};
