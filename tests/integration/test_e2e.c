/* SPDX-License-Identifier: MIT */
/* End-to-end tests against the real servers of scripts/test.sh: a battle job submitted
 * over HTTP runs in a skirmish-worker and its stored result equals the engine's own;
 * listing with filters and cursor pagination; cancelling queued and running jobs; and
 * at least twenty bad requests, each with its status, problem type and pointer, leaving
 * no row and no stream entry behind. Each test has its own database and key prefix. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "it_support.h"
#include "queue.h"
#include "sk_mem.h"

static int setup(void)
{
    sk_mem_init_json();
    return 0;
}

static const char *str(const json_t *j, const char *k)
{
    const char *v = json_string_value(json_object_get(j, k));
    return v ? v : "";
}

static void test_submit_succeeds(void)
{
    struct it_stack s;
    struct it_resp r;
    char id[37];
    char path[128];
    char loc[128];
    const char *doc;
    json_t *job = NULL;
    json_t *got = NULL;
    json_t *want = NULL;

    CU_ASSERT_FATAL(it_stack_init(&s, "submit") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    doc = it_battle_doc(500, 42);
    CU_ASSERT_FATAL(it_http(&s, "POST", "/v1/jobs", "application/json", doc, strlen(doc), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202);
    job = it_resp_json(&r);
    snprintf(id, sizeof(id), "%s", str(job, "id"));
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    CU_ASSERT_EQUAL(it_resp_header(&r, "Location", loc, sizeof(loc)), 0);
    CU_ASSERT_STRING_EQUAL(loc, path);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "queued");
    CU_ASSERT_STRING_EQUAL(str(job, "kind"), "battle");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "seed")), 42);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(job, "progress"), "total")),
                    500);
    json_decref(job);
    it_resp_free(&r);

    job = it_wait_status(&s, id, "succeeded", 60000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(job, "progress"), "done")),
                    500);
    CU_ASSERT(json_is_string(json_object_get(job, "started_at")));
    CU_ASSERT(json_is_string(json_object_get(job, "finished_at")));
    CU_ASSERT(json_is_null(json_object_get(job, "error")));
    /* fault 3: the job names the worker of its one attempt */
    CU_ASSERT_EQUAL(json_array_size(json_object_get(job, "workers")), 1);
    CU_ASSERT(json_string_length(json_array_get(json_object_get(job, "workers"), 0)) > 0);
    json_decref(job);

    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    got = it_resp_json(&r);
    want = it_engine_result(doc);
    CU_ASSERT_PTR_NOT_NULL(want);
    CU_ASSERT_TRUE(it_same_result(got, want)); /* same seed, same result as in-process */
    json_decref(want);
    /* Fault: the worker wrote floats with 17 significant digits and `skirmish run` with 12,
     * so the two documents of one job disagreed in the last digits of every interval. One
     * formatting: every number reads back as the very same double. */
    want = it_cli_result(doc);
    CU_ASSERT_PTR_NOT_NULL(want);
    CU_ASSERT_TRUE(it_same_result(got, want));
    json_decref(got);
    json_decref(want);
    it_resp_free(&r);

    /* a job without a seed gets one drawn, recorded, and stored in the request */
    {
        char seed_s[32];
        char sql[256];
        char id2[37];
        const char *noseed = "{\"kind\":\"battle\",\"params\":{\"games\":10,"
                             "\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[]},"
                             "\"defender\":{\"commander\":\"Test Commander\",\"deck\":[]}}}";
        CU_ASSERT_FATAL(it_submit(&s, noseed, id2) == 0);
        job = it_job(&s, id2);
        snprintf(sql, sizeof(sql), "SELECT (request->>'seed') FROM jobs WHERE id = '%s'", id2);
        CU_ASSERT_EQUAL(it_sql(&s, sql, seed_s, sizeof(seed_s)), 0);
        char expect[32];
        snprintf(expect, sizeof(expect), "%lld",
                 (long long)json_integer_value(json_object_get(job, "seed")));
        CU_ASSERT_STRING_EQUAL(seed_s, expect);
        json_decref(job);
    }
    /* both programs stop cleanly on SIGTERM (and, under ASan, without leaks) */
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    CU_ASSERT_EQUAL(it_worker_signal(&s, 0, SIGTERM, 1), 0);
    it_stack_stop(&s);
}

static void test_list_pagination(void)
{
    struct it_stack s;
    char ids[7][37];
    char seen[7][37];
    size_t n_seen = 0;
    char path[512];
    char cursor[256] = "";
    int pages = 0;

    CU_ASSERT_FATAL(it_stack_init(&s, "list") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0); /* no worker: every job stays queued */
    for (int i = 0; i < 7; i++)
        CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(10, i), ids[i]) == 0);
    do {
        struct it_resp r;
        json_t *page;
        json_t *items;
        snprintf(path, sizeof(path), "/v1/jobs?limit=3%s%s", cursor[0] ? "&cursor=" : "", cursor);
        CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
        CU_ASSERT_EQUAL_FATAL(r.status, 200);
        page = it_resp_json(&r);
        items = json_object_get(page, "items");
        CU_ASSERT_EQUAL(json_array_size(items), pages < 2 ? 3 : 1);
        for (size_t i = 0; i < json_array_size(items) && n_seen < 7; i++)
            snprintf(seen[n_seen++], 37, "%s", str(json_array_get(items, i), "id"));
        if (json_is_string(json_object_get(page, "next_cursor")))
            snprintf(cursor, sizeof(cursor), "%s", str(page, "next_cursor"));
        else
            cursor[0] = '\0';
        json_decref(page);
        it_resp_free(&r);
        pages++;
    } while (cursor[0] && pages < 5);
    CU_ASSERT_EQUAL(pages, 3);
    CU_ASSERT_EQUAL_FATAL(n_seen, 7);
    for (int i = 0; i < 7; i++) /* newest first, each exactly once */
        CU_ASSERT_STRING_EQUAL(seen[i], ids[6 - i]);

    {
        /* filters and a cursor together: status + kind, 4 then 3 */
        struct it_resp r;
        json_t *page;
        char next[512];
        CU_ASSERT_FATAL(it_http(&s, "GET", "/v1/jobs?status=queued&kind=battle&limit=4", NULL, NULL,
                                0, &r) == 0);
        page = it_resp_json(&r);
        CU_ASSERT_EQUAL(json_array_size(json_object_get(page, "items")), 4);
        snprintf(next, sizeof(next), "/v1/jobs?status=queued&kind=battle&limit=4&cursor=%s",
                 str(page, "next_cursor"));
        json_decref(page);
        it_resp_free(&r);
        CU_ASSERT_FATAL(it_http(&s, "GET", next, NULL, NULL, 0, &r) == 0);
        page = it_resp_json(&r);
        CU_ASSERT_EQUAL(json_array_size(json_object_get(page, "items")), 3);
        CU_ASSERT_STRING_EQUAL(str(json_array_get(json_object_get(page, "items"), 2), "id"),
                               ids[0]);
        CU_ASSERT_TRUE(json_is_null(json_object_get(page, "next_cursor")));
        json_decref(page);
        it_resp_free(&r);
    }
    {
        const char *queries[] = {"/v1/jobs?status=queued&limit=100", "/v1/jobs?status=succeeded",
                                 "/v1/jobs?kind=battle", "/v1/jobs?kind=board&status=queued"};
        const size_t expect[] = {7, 0, 7, 0};
        for (int q = 0; q < 4; q++) {
            struct it_resp r;
            json_t *page;
            CU_ASSERT_FATAL(it_http(&s, "GET", queries[q], NULL, NULL, 0, &r) == 0);
            page = it_resp_json(&r);
            CU_ASSERT_EQUAL(json_array_size(json_object_get(page, "items")), expect[q]);
            json_decref(page);
            it_resp_free(&r);
        }
    }
    it_stack_stop(&s);
}

static void test_cancel(void)
{
    struct it_stack s;
    struct it_resp r;
    char id[37];
    char path[128];
    char chunk[64];
    json_t *job;
    long games = it_games_for_ms(8000);

    CU_ASSERT_FATAL(it_stack_init(&s, "cancel") == 0);
    snprintf(chunk, sizeof(chunk), "SKIRMISH_CHUNK_UNITS=%ld", it_games_for_ms(100));
    s.env[s.n_env++] = chunk;
    CU_ASSERT_FATAL(it_api_start(&s) == 0);

    /* queued -> canceled at once */
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(10, 1), id) == 0);
    job = it_job(&s, id); /* read while queued: must not be cached (only final jobs are) */
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "queued");
    json_decref(job);
    snprintf(path, sizeof(path), "/v1/jobs/%s:cancel", id);
    CU_ASSERT_FATAL(it_http(&s, "POST", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202);
    job = it_resp_json(&r);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "canceled");
    json_decref(job);
    it_resp_free(&r);
    CU_ASSERT_FATAL(it_http(&s, "POST", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 409); /* final */
    it_resp_free(&r);
    for (int i = 0; i < 2; i++) { /* from PostgreSQL, then from the final-job cache */
        job = it_job(&s, id);
        CU_ASSERT_STRING_EQUAL(str(job, "status"), "canceled");
        json_decref(job);
    }
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 409);
    it_resp_free(&r);
    CU_ASSERT_FATAL(it_http(&s, "POST", "/v1/jobs/00000000-0000-4000-8000-000000000000:cancel",
                            NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 404);
    it_resp_free(&r);

    /* the worker drops the canceled job's entry without running it */
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);

    /* running -> canceled at the next chunk */
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(games, 2), id) == 0);
    CU_ASSERT_FATAL(it_wait_progress(&s, id, 60000) == 0);
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 409); /* running: no result yet */
    it_resp_free(&r);
    snprintf(path, sizeof(path), "/v1/jobs/%s:cancel", id);
    CU_ASSERT_FATAL(it_http(&s, "POST", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202);
    job = it_resp_json(&r);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "running");
    CU_ASSERT_TRUE(json_is_true(json_object_get(job, "cancel_requested")));
    json_decref(job);
    it_resp_free(&r);
    job = it_wait_status(&s, id, NULL, 30000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "canceled");
    CU_ASSERT(json_integer_value(json_object_get(json_object_get(job, "progress"), "done")) <
              games);
    json_decref(job);
    it_stack_stop(&s);
}

struct bad_case {
    const char *method;
    const char *path;
    const char *ct;
    const char *body;
    int status;
    const char *type;    /* problem type */
    const char *pointer; /* first error pointer (422) or parameter (400 query), or NULL */
};

#define ATT                                                                                        \
    "\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\",\"count\":5}]}"
#define DEF                                                                                        \
    "\"defender\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Brute\",\"count\":4}]}"
#define J "application/json"

static const struct bad_case bad[] = {
    {"POST", "/v1/jobs", "text/plain", "{}", 415, "/problems/unsupported-media-type", NULL},
    {"POST", "/v1/jobs", NULL, "{}", 415, "/problems/unsupported-media-type", NULL},
    {"POST", "/v1/jobs", "application/xml", "<job/>", 415, "/problems/unsupported-media-type",
     NULL},
    {"POST", "/v1/jobs", J, "", 400, "/problems/malformed-json", NULL},
    {"POST", "/v1/jobs", J, "{\"kind\":", 400, "/problems/malformed-json", NULL},
    {"POST", "/v1/jobs", J, "{\"kind\":\"battle\"} x", 400, "/problems/malformed-json", NULL},
    {"POST", "/v1/jobs", J, "{\"kind\":\"battle\",\"kind\":\"board\"}", 400,
     "/problems/malformed-json", NULL},
    {"POST", "/v1/jobs", J, "[1,2]", 422, "/problems/validation-error", ""},
    {"POST", "/v1/jobs", J, "{\"params\":{" ATT "," DEF "}}", 422, "/problems/validation-error",
     "/kind"},
    {"POST", "/v1/jobs", J, "{\"kind\":\"chess\",\"params\":{}}", 422, "/problems/validation-error",
     "/kind"},
    {"POST", "/v1/jobs", J, "{\"kind\":\"battle\",\"seed\":-1,\"params\":{" ATT "," DEF "}}", 422,
     "/problems/validation-error", "/seed"},
    {"POST", "/v1/jobs", J, "{\"kind\":\"battle\",\"seed\":\"7\",\"params\":{" ATT "," DEF "}}",
     422, "/problems/validation-error", "/seed"},
    {"POST", "/v1/jobs", J, "{\"kind\":\"battle\",\"priority\":1,\"params\":{" ATT "," DEF "}}",
     422, "/problems/validation-error", "/priority"},
    {"POST", "/v1/jobs", J, "{\"kind\":\"battle\"}", 422, "/problems/validation-error", "/params"},
    {"POST", "/v1/jobs", J, "{\"kind\":\"battle\",\"params\":[]}", 422,
     "/problems/validation-error", "/params"},
    {"POST", "/v1/jobs", J, "{\"kind\":\"battle\",\"params\":{\"games\":0," ATT "," DEF "}}", 422,
     "/problems/validation-error", "/params/games"},
    {"POST", "/v1/jobs", J,
     "{\"kind\":\"battle\",\"params\":{\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{"
     "\"card\":\"Chainslicr\"}]}," DEF "}}",
     422, "/problems/validation-error", "/params/attacker/deck/0/card"},
    {"POST", "/v1/jobs", J,
     "{\"kind\":\"battle\",\"params\":{\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{"
     "\"card\":\"Grunt\",\"count\":51}]}," DEF "}}",
     422, "/problems/validation-error", "/params/attacker/deck/0/count"},
    {"GET", "/v1/jobs?limit=0", NULL, NULL, 400, "/problems/invalid-query", "limit"},
    {"GET", "/v1/jobs?limit=101", NULL, NULL, 400, "/problems/invalid-query", "limit"},
    {"GET", "/v1/jobs?status=done", NULL, NULL, 400, "/problems/invalid-query", "status"},
    {"GET", "/v1/jobs?kind=chess", NULL, NULL, 400, "/problems/invalid-query", "kind"},
    {"GET", "/v1/jobs?cursor=zzzz", NULL, NULL, 400, "/problems/invalid-query", "cursor"},
    {"GET", "/v1/jobs/42", NULL, NULL, 404, "/problems/job-not-found", NULL},
    {"GET", "/v1/jobs/00000000-0000-4000-8000-000000000000", NULL, NULL, 404,
     "/problems/job-not-found", NULL},
    {"GET", "/v1/jobs/00000000-0000-4000-8000-000000000000/result", NULL, NULL, 404,
     "/problems/job-not-found", NULL},
    {"DELETE", "/v1/jobs", NULL, NULL, 405, "about:blank", NULL},
    {"GET", "/v1/nothing", NULL, NULL, 404, "about:blank", NULL},
};

static void count_entry(const char *job_id, void *arg)
{
    (void)job_id;
    ++*(int *)arg;
}

static void test_bad_requests(void)
{
    struct it_stack s;
    char rows[32];
    struct queue *q = NULL;
    int entries = 0;
    char *big;
    size_t big_len = 1048576 + 10;
    struct it_resp r;

    CU_ASSERT_FATAL(it_stack_init(&s, "bad") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const struct bad_case *c = &bad[i];
        json_t *p;
        char ct[128] = "";
        CU_ASSERT_FATAL(it_http(&s, c->method, c->path, c->ct, c->body,
                                c->body ? strlen(c->body) : 0, &r) == 0);
        p = it_resp_json(&r);
        if (r.status != c->status || strcmp(str(p, "type"), c->type) != 0)
            fprintf(stderr, "bad request %zu: %s %s -> %d %s\n", i, c->method, c->path, r.status,
                    r.body);
        CU_ASSERT_EQUAL(r.status, c->status);
        CU_ASSERT_STRING_EQUAL(str(p, "type"), c->type);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(p, "status")), c->status);
        it_resp_header(&r, "Content-Type", ct, sizeof(ct));
        CU_ASSERT_STRING_EQUAL(ct, "application/problem+json");
        if (c->pointer) {
            json_t *e = json_array_get(json_object_get(p, "errors"), 0);
            const char *key = c->status == 422 ? "pointer" : "parameter";
            CU_ASSERT_STRING_EQUAL(str(e, key), c->pointer);
        }
        if (c->status == 400 && strcmp(c->type, "/problems/malformed-json") == 0)
            CU_ASSERT(json_is_integer(json_object_get(p, "line")) &&
                      json_is_integer(json_object_get(p, "column")));
        json_decref(p);
        it_resp_free(&r);
    }
    /* a body over the limit */
    big = sk_malloc(big_len + 1);
    CU_ASSERT_FATAL(big != NULL);
    memset(big, ' ', big_len);
    big[0] = '{';
    big[big_len - 1] = '}';
    big[big_len] = '\0';
    CU_ASSERT_FATAL(it_http(&s, "POST", "/v1/jobs", J, big, big_len, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 413);
    it_resp_free(&r);
    sk_free(big);

    /* no side effect: no row, no stream entry */
    CU_ASSERT_EQUAL(it_sql(&s, "SELECT count(*) FROM jobs", rows, sizeof(rows)), 0);
    CU_ASSERT_STRING_EQUAL(rows, "0");
    CU_ASSERT_FATAL(queue_new(it_env("SKIRMISH_REDIS_URL"), s.prefix, &q) == SK_OK);
    CU_ASSERT_EQUAL(queue_scan(q, count_entry, &entries), SK_OK);
    CU_ASSERT_EQUAL(entries, 0);
    queue_free(q);
    it_stack_stop(&s);
}

static CU_TestInfo e2e_tests[] = {
    {"submit -> succeeded with the engine's result", test_submit_succeeds},
    {"list: filters and cursor pagination", test_list_pagination},
    {"cancel queued and running jobs", test_cancel},
    {"bad requests: status, type, pointer, no side effect", test_bad_requests},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_e2e_suites[] = {
    {"e2e", setup, NULL, NULL, NULL, e2e_tests},
    CU_SUITE_INFO_NULL,
};
