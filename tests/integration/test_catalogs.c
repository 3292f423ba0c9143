/* SPDX-License-Identifier: MIT */
/* Catalogs pinned per job, through the API and real workers (docs/cards.md): a worker
 * started without the game's cards next to one with them never fails a real-deck job (it
 * leaves each to the other, uncounted), and fails one that no live worker can run only
 * after SKIRMISH_CATALOG_WAIT_S, naming the catalog; /v1/stats shows each worker's
 * catalogs and how many have the API's. A catalog store refreshed under a running API and
 * worker: new jobs use the new catalog, a job retried after the refresh gives the
 * numbers it gave before. Stores are links to ../shared/data/tu. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "it_support.h"
#include "sk_mem.h"
#include "sk_test_cards.h"

static char dir_env[4200];

static int setup(void)
{
    sk_mem_init_json();
    snprintf(dir_env, sizeof(dir_env), "SKIRMISH_CARDS_DIR=%s", SK_TEST_TU_DIR);
    return 0;
}

static const char *str(const json_t *j, const char *k)
{
    const char *v = json_string_value(json_object_get(j, k));
    return v ? v : "";
}

static json_t *get_json(const struct it_stack *s, const char *path)
{
    struct it_resp r;
    json_t *doc = NULL;

    if (it_http(s, "GET", path, NULL, NULL, 0, &r) != 0)
        return NULL;
    CU_ASSERT_EQUAL(r.status, 200);
    if (r.status == 200)
        doc = it_resp_json(&r);
    it_resp_free(&r);
    return doc;
}

#define REAL_JOB                                                                                   \
    "{\"kind\": \"battle\", \"seed\": 11, \"params\": {\"games\": 2000,"                           \
    " \"attacker\": \"Octane-1, Bazooka Marine#3, Rally Infantry#3, Barrage Tank#2, Grunt#2\","    \
    " \"defender\": {\"deck\": \"Malika-1, Dread Panzer#2, Trap Setter, Invasion Blockade,"        \
    " Combat Specialist#3\", \"play\": \"ordered\"}}}"

/* The catalogs section of GET /v1/stats once `want` workers list the API's catalog. */
static json_t *stats_when(const struct it_stack *s, long want, long timeout_ms)
{
    for (long t = 0; t < timeout_ms; t += 100) {
        json_t *st = get_json(s, "/v1/stats");
        if (json_integer_value(
                json_object_get(json_object_get(st, "catalog"), "workers_with_it")) == want &&
            json_array_size(json_object_get(st, "workers")) >= 1)
            return st;
        json_decref(st);
        it_sleep_ms(100);
    }
    return NULL;
}

static void test_worker_without_the_catalog(void)
{
    struct it_stack s;
    char ids[4][37], id[37];
    json_t *st, *job;
    size_t i;
    json_t *w;
    int without = 0;

    CU_ASSERT_FATAL(it_stack_init(&s, "catalog_workers") == 0);
    /* A job left by a worker without its catalog waits a second, then the reconciler offers
     * it again: every 300 ms here, not every 2 s (the default), or the four jobs took 11 s
     * to reach the worker with the cards. Workers stopped with SIGTERM leave their
     * XREADGROUP within 200 ms. */
    s.env[s.n_env++] = "SKIRMISH_RECONCILE_MS=300";
    s.env[s.n_env++] = "SKIRMISH_RECONCILE_AGE_MS=500";
    s.env[s.n_env++] = "SKIRMISH_BLOCK_MS=200";
    s.env[s.n_env++] = dir_env; /* the API has the game's cards */
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    s.n_env--; /* worker 0 does not */
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    for (int k = 0; k < 4; k++)
        CU_ASSERT_FATAL(it_submit(&s, REAL_JOB, ids[k]) == 0);
    /* two seconds with only that worker: every job left queued, none failed or counted */
    st = stats_when(&s, 0, 10000);
    CU_ASSERT_PTR_NOT_NULL(st);
    json_decref(st);
    it_sleep_ms(2000);
    for (int k = 0; k < 4; k++) {
        job = it_job(&s, ids[k]);
        CU_ASSERT_STRING_NOT_EQUAL(str(job, "status"), "failed");
        CU_ASSERT_STRING_NOT_EQUAL(str(job, "status"), "succeeded");
        json_decref(job);
    }
    /* a worker with the cards joins: it runs them all, each in one counted attempt */
    s.env[s.n_env++] = dir_env;
    CU_ASSERT_FATAL(it_worker_start(&s, 1) == 0);
    for (int k = 0; k < 4; k++) {
        job = it_wait_status(&s, ids[k], "succeeded", 120000);
        CU_ASSERT_PTR_NOT_NULL(job);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 1);
        json_decref(job);
    }
    /* the stats name each worker's catalogs and count those with the API's */
    st = stats_when(&s, 1, 10000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL(strncmp(str(json_object_get(st, "catalog"), "current"), "fnv1a64:", 8), 0);
    json_array_foreach(json_object_get(st, "workers"), i, w)
    {
        const char *first = json_string_value(json_array_get(json_object_get(w, "catalogs"), 0));
        CU_ASSERT_PTR_NOT_NULL(first);
        without += first && strcmp(first, str(json_object_get(st, "catalog"), "current")) != 0;
    }
    CU_ASSERT_EQUAL(without, 1);
    json_decref(st);

    /* only the worker without the cards, told to wait no longer: the job fails, naming it */
    CU_ASSERT_EQUAL(it_worker_signal(&s, 1, SIGTERM, 1), 0); /* drops its heartbeat */
    CU_ASSERT_EQUAL(it_worker_signal(&s, 0, SIGTERM, 1), 0);
    s.n_env--;
    s.env[s.n_env++] = "SKIRMISH_CATALOG_WAIT_S=0";
    CU_ASSERT_FATAL(it_worker_start(&s, 2) == 0);
    CU_ASSERT_FATAL(it_submit(&s, REAL_JOB, id) == 0);
    job = it_wait_status(&s, id, "failed", 30000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_PTR_NOT_NULL(strstr(str(job, "error"), "card catalog fnv1a64:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(str(job, "error"), "not loaded by any live worker"));
    json_decref(job);
    it_stack_stop(&s);
}

/* The result `id` as GET /v1/jobs/{id}/result serves it. */
static json_t *result_of(const struct it_stack *s, const char *id)
{
    char path[128];
    json_t *job = it_wait_status(s, id, "succeeded", 120000);
    CU_ASSERT_PTR_NOT_NULL(job);
    json_decref(job);
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    return job ? get_json(s, path) : NULL;
}

static void test_retry_after_refresh(void)
{
    struct it_stack s;
    char store[1024], env[1100], ha[32], hb[32], first[37], second[37], retried[37], path[128];
    json_t *ra, *rb, *again, *page = NULL;
    struct it_resp r;

    snprintf(store, sizeof(store), "%s/catalog-store-%d", it_env("SKIRMISH_TEST_DIR"),
             (int)getpid());
    sk_test_cards_remove(store);
    sk_test_cards_install(store, "a", '3', ha);
    snprintf(env, sizeof(env), "SKIRMISH_CARDS_DIR=%s", store);
    CU_ASSERT_FATAL(it_stack_init(&s, "catalog_refresh") == 0);
    s.env[s.n_env++] = env;
    s.env[s.n_env++] = "SKIRMISH_CATALOG_CHECK_MS=200";
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_submit(&s, REAL_JOB, first) == 0);
    ra = result_of(&s, first);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ra);
    CU_ASSERT_STRING_EQUAL(str(json_object_get(ra, "catalog"), "hash"), ha);

    /* a refresh in which Bazooka Marine hits twice as hard; the API serves it soon (it
     * reads the new files first: 10 s were too few once, at a load average of 13) */
    sk_test_cards_install(store, "b", '6', hb);
    for (int t = 0; t < 600; t++) {
        json_decref(page);
        page = get_json(&s, "/v1/cards?limit=1");
        if (strcmp(str(page, "catalog"), hb) == 0)
            break;
        it_sleep_ms(100);
    }
    CU_ASSERT_STRING_EQUAL(str(page, "catalog"), hb);
    json_decref(page);
    CU_ASSERT_FATAL(it_submit(&s, REAL_JOB, second) == 0);
    rb = result_of(&s, second);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rb);
    CU_ASSERT_STRING_EQUAL(str(json_object_get(rb, "catalog"), "hash"), hb);
    CU_ASSERT_FALSE(it_same_result(ra, rb));

    /* the first job again: its catalog, its numbers */
    snprintf(path, sizeof(path), "/v1/jobs/%s:retry", first);
    CU_ASSERT_FATAL(it_http(&s, "POST", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202); /* a new job of the same document */
    page = it_resp_json(&r);
    snprintf(retried, sizeof(retried), "%s", str(page, "id"));
    json_decref(page);
    it_resp_free(&r);
    again = result_of(&s, retried);
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    CU_ASSERT_STRING_EQUAL(str(json_object_get(again, "catalog"), "hash"), ha);
    CU_ASSERT_TRUE(it_same_result(ra, again));
    json_decref(ra);
    json_decref(rb);
    json_decref(again);
    it_stack_stop(&s);
    sk_test_cards_remove(store);
}

static CU_TestInfo catalog_tests[] = {
    {"a worker without a job's catalog leaves it to one that has it, then fails it",
     test_worker_without_the_catalog},
    {"a job retried after a catalog refresh gives the same numbers", test_retry_after_refresh},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_catalogs_suites[] = {
    {"catalogs", setup, NULL, NULL, NULL, catalog_tests},
    CU_SUITE_INFO_NULL,
};
