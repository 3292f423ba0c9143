/* SPDX-License-Identifier: MIT */
/* Tests of api/api_cache: hits return copies, misses on other ids and on an empty or
 * absent cache, a colliding id replaces the slot, and the size stays bounded. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "api_cache.h"
#include "sk_mem.h"

static void test_get_put(void)
{
    struct api_cache *c = NULL;
    char *json = NULL;
    const char *a = "aaaaaaaa-0000-4000-8000-000000000001";
    const char *b = "aaaaaaaa-0000-4000-8000-000000000002";

    CU_ASSERT_FALSE(api_cache_get(NULL, a, &json)); /* no cache: always a miss */
    api_cache_put(NULL, a, "{}");
    CU_ASSERT_EQUAL_FATAL(api_cache_new(1, &c), SK_OK);
    CU_ASSERT_FALSE(api_cache_get(c, a, &json));
    api_cache_put(c, a, "{\"status\":\"succeeded\"}");
    CU_ASSERT_TRUE_FATAL(api_cache_get(c, a, &json));
    CU_ASSERT_STRING_EQUAL(json, "{\"status\":\"succeeded\"}");
    sk_free(json);
    json = NULL;
    CU_ASSERT_FALSE(api_cache_get(c, b, &json));
    CU_ASSERT_PTR_NULL(json);
    api_cache_free(c);
}

static void test_bounded(void)
{
    struct api_cache *c = NULL;
    char id[40];
    char *json = NULL;
    int hits = 0;

    CU_ASSERT_EQUAL_FATAL(api_cache_new(64, &c), SK_OK);
    for (int i = 0; i < 1000; i++) {
        snprintf(id, sizeof(id), "00000000-0000-4000-8000-%012d", i);
        api_cache_put(c, id, id);
    }
    for (int i = 0; i < 1000; i++) {
        snprintf(id, sizeof(id), "00000000-0000-4000-8000-%012d", i);
        if (api_cache_get(c, id, &json)) {
            CU_ASSERT_STRING_EQUAL(json, id); /* never another id's resource */
            sk_free(json);
            hits++;
        }
    }
    CU_ASSERT(hits > 0 && hits <= 64);
    api_cache_free(c);
}

static CU_TestInfo cache_tests[] = {
    {"get and put", test_get_put},
    {"bounded, never crossed", test_bounded},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_cache_suites[] = {
    {"api_cache", NULL, NULL, NULL, NULL, cache_tests},
    CU_SUITE_INFO_NULL,
};
