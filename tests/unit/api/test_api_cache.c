/* SPDX-License-Identifier: MIT */
/* Tests of api/api_cache: hits return copies, misses on other ids and on an empty or
 * absent cache, a colliding id replaces the slot, and the size stays bounded; request
 * threads sharing the cache and the HTTP metrics (the ThreadSanitizer build's case). */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "api_cache.h"
#include "api_metrics.h"
#include "sk_buf.h"
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

/* What the request threads of one API process share: the final-job cache and the HTTP
 * metrics. Run under ThreadSanitizer by make test (build-tsan), this is where a missing
 * lock shows. */
struct shared {
    struct api_cache *cache;
    struct api_metrics *metrics;
    int thread;
    int hits;
};

static void *request_thread(void *arg)
{
    struct shared *sh = arg;
    char id[40];
    char *json = NULL;
    for (int i = 0; i < 2000; i++) {
        snprintf(id, sizeof(id), "aaaaaaaa-0000-4000-8000-%012d", i % 50);
        if (api_cache_get(sh->cache, id, &json)) {
            sh->hits++;
            sk_free(json);
            json = NULL;
        } else {
            api_cache_put(sh->cache, id, "{\"status\":\"succeeded\"}");
        }
        api_metrics_observe(sh->metrics, "/v1/jobs/{id}", "GET", i % 7 ? 200 : 304, 0.001);
        if (i % 500 == 0) {
            struct sk_buf b;
            sk_buf_init(&b, 0);
            api_metrics_render(sh->metrics, &b);
            sk_buf_release(&b);
        }
    }
    return NULL;
}

static void test_threads_share(void)
{
    enum { N = 4 };
    pthread_t t[N];
    struct shared sh[N];
    struct api_cache *c = NULL;
    struct api_metrics *m = NULL;
    struct sk_buf b;
    int hits = 0;

    CU_ASSERT_EQUAL_FATAL(api_cache_new(64, &c), SK_OK);
    CU_ASSERT_EQUAL_FATAL(api_metrics_new(&m), SK_OK);
    for (int i = 0; i < N; i++) {
        sh[i] = (struct shared){c, m, i, 0};
        CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, request_thread, &sh[i]), 0);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        hits += sh[i].hits;
    }
    CU_ASSERT(hits > 0);
    sk_buf_init(&b, 0);
    api_metrics_render(m, &b);
    /* every observation counted exactly once: 4 x 2000, of which 200 and 304 */
    CU_ASSERT_PTR_NOT_NULL(strstr(b.p, "method=\"GET\",status=\"304\"} 1144\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(b.p, "method=\"GET\",status=\"200\"} 6856\n"));
    sk_buf_release(&b);
    api_metrics_free(m);
    api_cache_free(c);
}

static CU_TestInfo cache_tests[] = {
    {"get and put", test_get_put},
    {"bounded, never crossed", test_bounded},
    {"request threads share the cache and the metrics", test_threads_share},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_cache_suites[] = {
    {"api_cache", NULL, NULL, NULL, NULL, cache_tests},
    CU_SUITE_INFO_NULL,
};
