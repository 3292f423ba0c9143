/* SPDX-License-Identifier: MIT */
/* The table of job kinds as the rest of the product sees it (job.h): listable in order,
 * each name known and unique, the per-kind facts that the API's metrics, the workers'
 * games-per-second figures and `skirmish run --games` read instead of naming kinds; and the
 * OpenAPI document's enums of kinds (which the dashboard's kind filter lists) follow it. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <stdarg.h>
#include <string.h>

#include "job.h"

#include "sk_banned.h"

static void test_listable(void)
{
    size_t n = job_kind_count();
    CU_ASSERT_FATAL(n >= 3);
    for (size_t i = 0; i < n; i++) {
        const char *name = job_kind_at(i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(name);
        CU_ASSERT(job_kind_known(name));
        CU_ASSERT_PTR_NOT_NULL(strstr(job_kind_names(), name));
        for (size_t j = 0; j < i; j++)
            CU_ASSERT_STRING_NOT_EQUAL(job_kind_at(j), name);
    }
    CU_ASSERT_PTR_NULL(job_kind_at(n));
    CU_ASSERT_FALSE(job_kind_known("no such kind"));
}

static void test_facts(void)
{
    /* a battle's and an optimisation's units are games, a board's are turns */
    CU_ASSERT_TRUE(job_kind_units_are_games("battle"));
    CU_ASSERT_TRUE(job_kind_units_are_games("optimize"));
    CU_ASSERT_FALSE(job_kind_units_are_games("board"));
    CU_ASSERT_FALSE(job_kind_units_are_games("no such kind"));
    CU_ASSERT_STRING_EQUAL(job_kind_games_param("battle"), "games");
    CU_ASSERT_PTR_NULL(job_kind_games_param("board"));
    CU_ASSERT_PTR_NULL(job_kind_games_param("optimize")); /* its games are a budget */
    CU_ASSERT_PTR_NULL(job_kind_games_param("no such kind"));
}

/* 1 when `e` is a JSON array of exactly the table's kinds, in its order. */
static int same_kinds(const json_t *e)
{
    if (!json_is_array(e) || json_array_size(e) != job_kind_count())
        return 0;
    for (size_t i = 0; i < job_kind_count(); i++)
        if (!json_is_string(json_array_get(e, i)) ||
            strcmp(json_string_value(json_array_get(e, i)), job_kind_at(i)) != 0)
            return 0;
    return 1;
}

/* The member of `j` reached through the NULL-terminated keys, or NULL (borrowed). */
static json_t *member(json_t *j, ...)
{
    va_list ap;
    va_start(ap, j);
    for (const char *k = va_arg(ap, const char *); k && j; k = va_arg(ap, const char *))
        j = json_object_get(j, k);
    va_end(ap);
    return j;
}

static void test_openapi_enums(void)
{
    json_t *doc = json_load_file(SK_SOURCE_DIR "/openapi/openapi.json", 0, NULL);
    const char *const lists[][2] = {{"/v1/jobs", "get"}, {"/v1/jobs:cancel", "post"}};
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_TRUE(same_kinds(
        member(doc, "components", "schemas", "Job", "properties", "kind", "enum", NULL)));
    /* the ?kind= filters of the job list and of the bulk cancel */
    for (size_t l = 0; l < 2; l++) {
        json_t *params = member(doc, "paths", lists[l][0], lists[l][1], "parameters", NULL);
        json_t *p;
        size_t i;
        int seen = 0;
        json_array_foreach(params, i, p)
        {
            const char *name = json_string_value(json_object_get(p, "name"));
            if (name && strcmp(name, "kind") == 0) {
                seen = 1;
                CU_ASSERT_TRUE(same_kinds(member(p, "schema", "enum", NULL)));
            }
        }
        CU_ASSERT_TRUE(seen);
    }
    json_decref(doc);
}

static CU_TestInfo tests[] = {
    {"the kinds are listable, known and unique", test_listable},
    {"what each kind's units are, and which takes --games", test_facts},
    {"the OpenAPI document's enums of kinds are the table's", test_openapi_enums},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_job_kinds_suites[] = {
    {"job_kinds", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
