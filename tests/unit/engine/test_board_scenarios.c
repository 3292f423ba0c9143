/* SPDX-License-Identifier: MIT */
/* The board scenarios of tests/data/board/: each file states a full job (initial state,
 * orders, casts), the exact final state and the exact events of the listed types. They
 * run through the public board_job path. The "about" text of each file says what rule it
 * pins (docs/rules/board.md lists them). A failing file is named on stderr. */
#include <CUnit/CUnit.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "board_test_util.h"
#include "sk_test_main.h"

#include "sk_banned.h"

static void run_scenario(const char *name)
{
    char rel[160];
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

/* The seed documents' worked scenarios (s<N>_...) and the rule scenarios: every file of
 * tests/data/board, found by globbing, so a new scenario is a new file and nothing else. */
static void run_matching(int seeds)
{
    char pattern[1024];
    glob_t g;
    int ran = 0;

    snprintf(pattern, sizeof(pattern), "%s", sk_test_data("board/*.json"));
    CU_ASSERT_EQUAL_FATAL(glob(pattern, 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *base = strrchr(g.gl_pathv[i], '/') + 1;
        char name[128];
        int is_seed = base[0] == 's' && base[1] >= '0' && base[1] <= '9';
        size_t n = strlen(base) - strlen(".json");
        if (is_seed != seeds || n >= sizeof(name))
            continue;
        memcpy(name, base, n);
        name[n] = '\0';
        run_scenario(name);
        ran++;
    }
    globfree(&g);
    CU_ASSERT(ran >= (seeds ? 10 : 18)); /* the files are there: a bad path runs nothing */
}

static void test_seed_scenarios(void)
{
    run_matching(1);
}

static void test_rule_scenarios(void)
{
    run_matching(0);
}

static CU_TestInfo scenario_tests[] = {
    {"every seed scenario of tests/data/board", test_seed_scenarios},
    {"every rule scenario of tests/data/board", test_rule_scenarios},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_board_scenarios_suites[] = {
    {"board_scenarios", NULL, NULL, NULL, NULL, scenario_tests},
    CU_SUITE_INFO_NULL,
};
