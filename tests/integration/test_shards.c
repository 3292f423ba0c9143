/* SPDX-License-Identifier: MIT */
/* Shards against the real servers (docs/operations.md, "Shards"): a battle job over
 * SKIRMISH_SHARD_UNITS is split into shard rows that two workers run at once, and its
 * result is exactly the one an unsplit run gives (same seed; compared with the engine run
 * in-process); its progress is the sum of its shards' and it is listed alone; a cancel
 * stops every shard and keeps the merged partial counts; a shard whose worker is killed
 * (kill -9) is retried alone, resuming from its last chunk, while the others keep their
 * one attempt; and a shard that runs out of attempts fails its job, with the rest stopped. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "it_support.h"
#include "sk_mem.h"

static char shard_env[64];

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

/* A stack whose jobs of `games` games are split into 4 shards, with chunks of about 50 ms,
 * a short lease and fast maintenance. */
static int shard_stack(struct it_stack *s, const char *name, long games)
{
    if (it_fast_stack_init(s, name, it_games_for_ms(50)))
        return -1;
    snprintf(shard_env, sizeof(shard_env), "SKIRMISH_SHARD_UNITS=%ld", (games + 3) / 4);
    s->env[s->n_env++] = shard_env;
    s->env[s->n_env++] = "SKIRMISH_CHUNK_MS=100";
    return 0;
}

/* The first column of `sql` with every "%s" in it replaced by job `id`, as a number. */
static long sql_num(const struct it_stack *s, const char *sql, const char *id)
{
    char text[512];
    char out[64] = "";
    size_t n = 0;

    for (const char *p = sql; *p && n + 40 < sizeof(text); p++) {
        if (p[0] == '%' && p[1] == 's') {
            n += (size_t)snprintf(text + n, sizeof(text) - n, "%s", id);
            p++;
        } else {
            text[n++] = *p;
        }
    }
    text[n] = '\0';
    if (it_sql(s, text, out, sizeof(out)))
        return -1;
    return strtol(out, NULL, 10);
}

/* The job's result equals the engine's in-process run of the same document. */
static void check_result(const struct it_stack *s, const char *id, const char *doc)
{
    char path[128];
    struct it_resp r;
    json_t *got, *want;

    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    CU_ASSERT_FATAL(it_http(s, "GET", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    got = it_resp_json(&r);
    want = it_engine_result(doc);
    CU_ASSERT_TRUE(it_same_result(got, want));
    json_decref(got);
    json_decref(want);
    it_resp_free(&r);
}

static void test_split_merges_exactly(void)
{
    struct it_stack s;
    struct it_resp r;
    char id[37];
    /* shards of about 1 s each: at 0.5 s, one worker took all four under a loaded ctest */
    long games = it_games_for_ms(4000);
    const char *doc = it_battle_doc(games, 4242);
    long seen_mid = 0;
    json_t *job, *list;

    CU_ASSERT_FATAL(shard_stack(&s, "shards", games) == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 1) == 0);
    CU_ASSERT_FATAL(it_wait_workers(&s, 2, 60000) == 0); /* both workers read the stream */
    CU_ASSERT_FATAL(it_submit(&s, doc, id) == 0);
    /* progress: the job itself never runs, its shards' progress is its own */
    for (int i = 0; i < 400; i++) {
        json_int_t done;
        job = it_job(&s, id);
        done = json_integer_value(json_object_get(json_object_get(job, "progress"), "done"));
        if (strcmp(str(job, "status"), "running") == 0 && done > 0 && done < games)
            seen_mid = done;
        json_decref(job);
        if (seen_mid)
            break;
        it_sleep_ms(10);
    }
    CU_ASSERT(seen_mid > 0);
    job = it_wait_status(&s, id, NULL, 120000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "succeeded");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(job, "progress"), "done")),
                    games);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "shards")), 4);
    json_decref(job);
    check_result(&s, id, doc);
    CU_ASSERT_EQUAL(sql_num(&s, "SELECT shards FROM jobs WHERE id = '%s'", id), 4);
    CU_ASSERT_EQUAL(sql_num(&s,
                            "SELECT count(*) FROM jobs WHERE parent_id = '%s'"
                            " AND status = 'succeeded' AND attempts = 1",
                            id),
                    4);
    CU_ASSERT_EQUAL(sql_num(&s, "SELECT sum(progress_total) FROM jobs WHERE parent_id = '%s'", id),
                    games);
    /* run at once by both workers */
    CU_ASSERT_EQUAL(sql_num(&s,
                            "SELECT count(DISTINCT attempt_workers[1]) FROM jobs"
                            " WHERE parent_id = '%s'",
                            id),
                    2);
    /* listed alone: shards are not jobs of their own */
    CU_ASSERT_FATAL(it_http(&s, "GET", "/v1/jobs", NULL, NULL, 0, &r) == 0);
    list = it_resp_json(&r);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(list, "items")), 1);
    json_decref(list);
    it_resp_free(&r);
    it_stack_stop(&s);
}

static void test_cancel_stops_every_shard(void)
{
    struct it_stack s;
    struct it_resp r;
    char id[37];
    char path[128];
    long games = it_games_for_ms(16000);
    json_t *job, *res;

    CU_ASSERT_FATAL(shard_stack(&s, "shardcancel", games) == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 1) == 0);
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(games, 7), id) == 0);
    CU_ASSERT_FATAL(it_wait_progress(&s, id, 60000) == 0);
    snprintf(path, sizeof(path), "/v1/jobs/%s:cancel", id);
    CU_ASSERT_FATAL(it_http(&s, "POST", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202);
    it_resp_free(&r);
    job = it_wait_status(&s, id, NULL, 60000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "canceled");
    json_decref(job);
    /* every shard ended: the two that ran at their next chunk, the queued ones at once */
    CU_ASSERT_EQUAL(sql_num(&s,
                            "SELECT count(*) FROM jobs WHERE parent_id = '%s'"
                            " AND status IN ('queued', 'running')",
                            id),
                    0);
    CU_ASSERT(sql_num(&s,
                      "SELECT count(*) FROM jobs WHERE parent_id = '%s' AND status = 'canceled'",
                      id) >= 3);
    /* the merged partial counts of what was played */
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
    res = it_resp_json(&r);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT_TRUE(json_is_true(json_object_get(res, "partial")));
    CU_ASSERT(json_integer_value(json_object_get(res, "games")) > 0);
    CU_ASSERT(json_integer_value(json_object_get(res, "games")) < games);
    json_decref(res);
    it_resp_free(&r);
    it_stack_stop(&s);
}

/* Waits until worker0 runs a shard of `id`; 0 when it does. */
static int wait_worker0_shard(const struct it_stack *s, const char *id)
{
    for (int i = 0; i < 3000; i++) {
        if (sql_num(s,
                    "SELECT count(*) FROM jobs WHERE parent_id = '%s' AND status = 'running'"
                    " AND lease_owner LIKE 'worker0/%' AND progress_done > 0",
                    id) == 1)
            return 0;
        it_sleep_ms(10);
    }
    return -1;
}

static void test_killed_shard_retried_alone(void)
{
    struct it_stack s;
    char id[37];
    long games = it_games_for_ms(6000);
    const char *doc = it_battle_doc(games, 99);
    json_t *job;

    CU_ASSERT_FATAL(shard_stack(&s, "shardkill", games) == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 1) == 0);
    CU_ASSERT_FATAL(it_submit(&s, doc, id) == 0);
    CU_ASSERT_FATAL(wait_worker0_shard(&s, id) == 0);
    it_worker_signal(&s, 0, SIGKILL, 1); /* mid-shard, no cleanup at all */
    job = it_wait_status(&s, id, NULL, 120000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "succeeded");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 1);
    json_decref(job);
    check_result(&s, id, doc);
    /* the killed shard alone ran twice, resumed past its start; the others once */
    CU_ASSERT_EQUAL(sql_num(&s,
                            "SELECT count(*) FROM jobs WHERE parent_id = '%s' AND attempts = 2"
                            " AND attempt_workers[1] = 'worker0' AND resumed_from > 0",
                            id),
                    1);
    CU_ASSERT_EQUAL(
        sql_num(&s, "SELECT count(*) FROM jobs WHERE parent_id = '%s' AND attempts = 1", id), 3);
    CU_ASSERT_EQUAL(sql_num(&s, "SELECT count(*) FROM jobs WHERE result IS NOT NULL", id), 1);
    it_stack_stop(&s);
}

static void test_failed_shard_fails_the_job(void)
{
    struct it_stack s;
    char id[37];
    long games = it_games_for_ms(6000);
    json_t *job;

    CU_ASSERT_FATAL(shard_stack(&s, "shardfail", games) == 0);
    s.env[s.n_env++] = "SKIRMISH_MAX_ATTEMPTS=1";
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 1) == 0);
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(games, 5), id) == 0);
    CU_ASSERT_FATAL(wait_worker0_shard(&s, id) == 0);
    it_worker_signal(&s, 0, SIGKILL, 1);
    job = it_wait_status(&s, id, NULL, 60000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "failed");
    {
        /* the error names the shard that failed, by its range */
        char want[64];
        long first = sql_num(&s,
                             "SELECT unit_first FROM jobs WHERE parent_id = '%s'"
                             " AND status = 'failed'",
                             id);
        snprintf(want, sizeof(want), " of 4 (units %ld..", first);
        CU_ASSERT_PTR_NOT_NULL(strstr(str(job, "error"), want));
        CU_ASSERT_PTR_NOT_NULL(strstr(str(job, "error"), "lease expired"));
    }
    json_decref(job);
    CU_ASSERT_EQUAL(
        sql_num(&s, "SELECT count(*) FROM jobs WHERE parent_id = '%s' AND status = 'failed'", id),
        1);
    CU_ASSERT_EQUAL(sql_num(&s,
                            "SELECT count(*) FROM jobs WHERE parent_id = '%s'"
                            " AND status IN ('queued', 'running')",
                            id),
                    0);
    it_stack_stop(&s);
}

static CU_TestInfo shard_tests[] = {
    {"a split job's result equals an unsplit run's; progress is the shards' sum",
     test_split_merges_exactly},
    {"a cancel stops every shard and keeps the merged partial counts",
     test_cancel_stops_every_shard},
    {"a shard whose worker is killed is retried alone, resuming", test_killed_shard_retried_alone},
    {"a shard out of attempts fails its job and stops the others", test_failed_shard_fails_the_job},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_shards_suites[] = {
    {"shards", setup, NULL, NULL, NULL, shard_tests},
    CU_SUITE_INFO_NULL,
};
