/* SPDX-License-Identifier: MIT */
/* Failure tests against the real servers: a worker killed with SIGKILL mid-job (the job
 * still succeeds once, with both attempts recorded; or fails when attempts run out), a
 * worker stopped with SIGTERM mid-job (exits 0 and the job is given back), a job of slow
 * games (kept past its lease by one worker, canceled within two seconds), Redis stopped
 * and restarted empty with jobs queued (every job completes), PostgreSQL briefly down
 * (503 problem+json, then recovery without a restart), the migration runner (applied
 * once under concurrency, a changed file refused), and a worker whose engine cannot be set
 * up (it refuses to start). Short leases come from the config. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "db_migrate.h"
#include "it_support.h"
#include "queue.h"
#include "sk_mem.h"
#include "sk_time.h"

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

/* A stack with a short lease and fast maintenance, chunks of about 100 ms. */
static int fast_stack(struct it_stack *s, const char *name)
{
    return it_fast_stack_init(s, name, it_games_for_ms(100));
}

static void count_entry(const char *job_id, void *arg)
{
    (void)job_id;
    ++*(int *)arg;
}

static int stream_entries(const struct it_stack *s)
{
    struct queue *q = NULL;
    int n = -1;
    if (queue_new(it_env("SKIRMISH_REDIS_URL"), s->prefix, &q) == SK_OK) {
        n = 0;
        if (queue_scan(q, count_entry, &n))
            n = -1;
    }
    queue_free(q);
    return n;
}

static void test_kill9_worker(void)
{
    struct it_stack s;
    char id[37];
    char path[128];
    char n[16];
    char sql[128];
    struct it_resp r;
    const char *doc;
    json_t *job, *got, *want;
    long games = it_games_for_ms(3000);
    long at_kill;

    CU_ASSERT_FATAL(fast_stack(&s, "kill9") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    doc = it_battle_doc(games, 99);
    CU_ASSERT_FATAL(it_submit(&s, doc, id) == 0);
    CU_ASSERT_FATAL(it_wait_progress(&s, id, 60000) == 0);
    it_worker_signal(&s, 0, SIGKILL, 1); /* mid-job, no cleanup at all */
    /* the killed attempt left a checkpoint with its last progress report */
    snprintf(sql, sizeof(sql), "SELECT checkpoint_done FROM jobs WHERE id = '%s'", id);
    CU_ASSERT_EQUAL(it_sql(&s, sql, n, sizeof(n)), 0);
    at_kill = strtol(n, NULL, 10);
    CU_ASSERT(at_kill > 0 && at_kill < games);
    CU_ASSERT_FATAL(it_worker_start(&s, 1) == 0);
    job = it_wait_status(&s, id, NULL, 120000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "succeeded");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 2);
    /* the job resource says where the second attempt started */
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(json_object_get(job, "progress"), "resumed_from")),
        at_kill);
    json_decref(job);
    /* resume: the second attempt started at that checkpoint, so it played fewer games than
     * the job has, and the counts below still equal an uninterrupted run's */
    snprintf(sql, sizeof(sql), "SELECT resumed_from FROM jobs WHERE id = '%s'", id);
    CU_ASSERT_EQUAL(it_sql(&s, sql, n, sizeof(n)), 0);
    CU_ASSERT_EQUAL(strtol(n, NULL, 10), at_kill);
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
    got = it_resp_json(&r);
    want = it_engine_result(doc);
    CU_ASSERT_TRUE(it_same_result(got, want));
    json_decref(got);
    json_decref(want);
    it_resp_free(&r);
    CU_ASSERT_EQUAL(it_sql(&s, "SELECT count(*) FROM jobs WHERE result IS NOT NULL", n, sizeof(n)),
                    0);
    CU_ASSERT_STRING_EQUAL(n, "1");
    CU_ASSERT_EQUAL(stream_entries(&s), 0); /* acknowledged and deleted */
    it_stack_stop(&s);
}

static void test_attempts_exhausted(void)
{
    struct it_stack s;
    char id[37];
    json_t *job;

    CU_ASSERT_FATAL(fast_stack(&s, "exhaust") == 0);
    s.env[s.n_env++] = "SKIRMISH_MAX_ATTEMPTS=1";
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(it_games_for_ms(3000), 5), id) == 0);
    CU_ASSERT_FATAL(it_wait_progress(&s, id, 60000) == 0);
    it_worker_signal(&s, 0, SIGKILL, 1);
    CU_ASSERT_FATAL(it_worker_start(&s, 1) == 0);
    job = it_wait_status(&s, id, NULL, 60000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "failed");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 1);
    CU_ASSERT_STRING_EQUAL(str(job, "error"), "failed after 1 attempts: the worker running it "
                                              "stopped (lease expired)");
    /* the attempt's own error, next to its worker (the one killed) */
    CU_ASSERT_EQUAL(json_array_size(json_object_get(job, "errors")), 1);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(json_object_get(job, "errors"), 0)),
                           "the worker running it stopped (lease expired)");
    CU_ASSERT_EQUAL(json_array_size(json_object_get(job, "workers")), 1);
    json_decref(job);
    it_stack_stop(&s);
}

static void test_sigterm_gives_back(void)
{
    struct it_stack s;
    char id[37];
    json_t *job;

    CU_ASSERT_FATAL(fast_stack(&s, "sigterm") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(it_games_for_ms(3000), 6), id) == 0);
    CU_ASSERT_FATAL(it_wait_progress(&s, id, 60000) == 0);
    CU_ASSERT_EQUAL(it_worker_signal(&s, 0, SIGTERM, 1), 0); /* exit status 0 */
    job = it_job(&s, id);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "queued");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 0);
    json_decref(job);
    CU_ASSERT_FATAL(it_worker_start(&s, 1) == 0);
    job = it_wait_status(&s, id, NULL, 120000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "succeeded");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 1);
    json_decref(job);
    it_stack_stop(&s);
}

static void test_redis_restart(void)
{
    struct it_stack s;
    char ids[6][37];
    struct it_resp r;

    CU_ASSERT_FATAL(fast_stack(&s, "redis") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    for (int i = 0; i < 3; i++) /* in the stream, no worker yet */
        CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(200, i), ids[i]) == 0);
    CU_ASSERT_FATAL(it_services("redis-stop") == 0); /* no AOF: the stream is lost */
    for (int i = 3; i < 6; i++) /* accepted: the row is committed, XADD fails */
        CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(200, i), ids[i]) == 0);
    CU_ASSERT_FATAL(it_http(&s, "GET", "/readyz", NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 503);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "\"redis\":\"unreachable\""));
    it_resp_free(&r);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0); /* starts while Redis is down */
    it_sleep_ms(1000);
    CU_ASSERT_TRUE(it_alive(s.workers[0]));
    CU_ASSERT_FATAL(it_services("redis-start") == 0);
    for (int i = 0; i < 6; i++) {
        json_t *job = it_wait_status(&s, ids[i], NULL, 60000);
        CU_ASSERT_STRING_EQUAL(str(job, "status"), "succeeded");
        json_decref(job);
    }
    CU_ASSERT_TRUE(it_alive(s.workers[0]));
    CU_ASSERT_TRUE(it_alive(s.api));
    it_stack_stop(&s);
}

static void test_postgres_down(void)
{
    struct it_stack s;
    char id[37];
    char ra[16] = "";
    char ct[64] = "";
    struct it_resp r;
    const char *doc = it_battle_doc(200, 3);
    json_t *job;
    int ready = 0;

    CU_ASSERT_FATAL(fast_stack(&s, "pgdown") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_services("pg-stop") == 0);
    CU_ASSERT_FATAL(it_http(&s, "POST", "/v1/jobs", "application/json", doc, strlen(doc), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 503);
    it_resp_header(&r, "Content-Type", ct, sizeof(ct));
    it_resp_header(&r, "Retry-After", ra, sizeof(ra));
    CU_ASSERT_STRING_EQUAL(ct, "application/problem+json");
    CU_ASSERT_STRING_EQUAL(ra, "1");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "\"status\":503"));
    it_resp_free(&r);
    CU_ASSERT_FATAL(it_http(&s, "GET", "/v1/jobs", NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 503);
    it_resp_free(&r);
    CU_ASSERT_FATAL(it_http(&s, "GET", "/readyz", NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 503);
    it_resp_free(&r);
    it_sleep_ms(500);
    CU_ASSERT_FATAL(it_services("pg-start") == 0);
    for (int i = 0; i < 300 && !ready; i++) {
        if (it_http(&s, "GET", "/readyz", NULL, NULL, 0, &r) == 0) {
            ready = r.status == 200;
            it_resp_free(&r);
        }
        if (!ready)
            it_sleep_ms(100);
    }
    CU_ASSERT_TRUE_FATAL(ready);
    CU_ASSERT_FATAL(it_submit(&s, doc, id) == 0); /* same processes, no restart */
    job = it_wait_status(&s, id, NULL, 60000);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "succeeded");
    json_decref(job);
    CU_ASSERT_TRUE(it_alive(s.api));
    CU_ASSERT_TRUE(it_alive(s.workers[0]));
    it_stack_stop(&s);
}

static void test_migrations(void)
{
    struct it_stack s;
    pid_t p[3];
    char n[16];
    char expect[16];

    CU_ASSERT_FATAL(it_stack_init(&s, "migrate") == 0);
    for (int i = 0; i < 3; i++) /* concurrent runners: the advisory lock serialises them */
        p[i] = it_api_command(&s, "migrate");
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(it_wait_exit(p[i]), 0);
    snprintf(expect, sizeof(expect), "%zu", db_migrate_count);
    CU_ASSERT_EQUAL(it_sql(&s, "SELECT count(*) FROM schema_migrations", n, sizeof(n)), 0);
    CU_ASSERT_STRING_EQUAL(n, expect);
    CU_ASSERT_EQUAL(it_wait_exit(it_api_command(&s, "migrate")), 0); /* idempotent */
    CU_ASSERT_EQUAL(it_sql(&s, "SELECT count(*) FROM schema_migrations", n, sizeof(n)), 0);
    CU_ASSERT_STRING_EQUAL(n, expect);
    /* an applied migration whose file changed stops the service */
    CU_ASSERT_EQUAL(
        it_sql(&s, "UPDATE schema_migrations SET checksum = '0' WHERE version = 1", NULL, 0), 0);
    CU_ASSERT_EQUAL(it_wait_exit(it_api_command(&s, "migrate")), 1);
    it_stack_stop(&s);
}

/* 1 when the log file of `s`'s process `who` contains `needle`. */
static int log_has(const struct it_stack *s, const char *who, const char *needle)
{
    char path[1024];
    char buf[65536];
    size_t n;
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s-%s.log", it_env("SKIRMISH_TEST_DIR"), s->name, who);
    f = fopen(path, "r");
    if (!f)
        return 0;
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

/* A worker whose engine cannot be set up (an unreadable cards file) refuses to start and
 * names the file, instead of claiming jobs and failing each of them as invalid; the job
 * waits, untouched, for a worker that can run it. */
static void test_misconfigured_worker_refuses_to_start(void)
{
    static const char *const bad = "SKIRMISH_CARDS_FILE=/nonexistent/skirmish-cards.json";
    struct it_stack s;
    char id[37];
    int status = -1, exited = 0;
    json_t *job;

    CU_ASSERT_FATAL(fast_stack(&s, "badcards") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(2000, 3), id) == 0);
    s.env[s.n_env++] = bad;
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    for (int i = 0; i < 100 && !exited; i++) {
        exited = waitpid(s.workers[0], &status, WNOHANG) == s.workers[0];
        if (!exited)
            it_sleep_ms(100);
    }
    if (!exited) { /* still running after 10 s: it took the job */
        CU_FAIL("the misconfigured worker did not exit");
        it_worker_signal(&s, 0, SIGKILL, 1);
    }
    CU_ASSERT_TRUE(exited && WIFEXITED(status) && WEXITSTATUS(status) == 1);
    s.workers[0] = 0;
    CU_ASSERT_TRUE(log_has(&s, "worker0", "event=start_failed reason=engine"));
    CU_ASSERT_TRUE(log_has(&s, "worker0", "/nonexistent/skirmish-cards.json"));
    it_sleep_ms(300);
    job = it_job(&s, id);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "queued");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 0);
    json_decref(job);
    s.n_env--; /* a well configured worker takes it */
    CU_ASSERT_FATAL(it_worker_start(&s, 1) == 0);
    job = it_wait_status(&s, id, "succeeded", 30000);
    CU_ASSERT_PTR_NOT_NULL(job);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 1);
    json_decref(job);
    it_stack_stop(&s);
}

/* A battle of slow games: flexible play, both sides healing and armoured, up to 200 turns
 * (tens of milliseconds a game under the sanitizers), `games` of them (static buffer). */
static const char *slow_doc(long games, long seed)
{
    static char doc[1024];
    snprintf(doc, sizeof(doc),
             "{\"kind\":\"battle\",\"seed\":%ld,\"params\":{\"games\":%ld,\"turn_limit\":200,"
             "\"attacker\":{\"commander\":\"Iron Warden\",\"play\":\"flexible\",\"deck\":["
             "{\"card\":\"Anvil\",\"count\":4},{\"card\":\"Medic Drone\",\"count\":3},"
             "{\"card\":\"Bulwark Knight\",\"count\":3}]},"
             "\"defender\":{\"commander\":\"Iron Warden\",\"deck\":[{\"card\":\"Anvil\","
             "\"count\":4},{\"card\":\"Medic Drone\",\"count\":3},{\"card\":\"Mending Spire\","
             "\"count\":3}]}}}",
             seed, games);
    return doc;
}

/* Issue 46: units do not bound time. A job of slow games whose first chunk asks a million
 * of them (SKIRMISH_CHUNK_UNITS) still reports progress every SKIRMISH_CHUNK_MS, which
 * renews its lease: run for longer than the lease (2 s here) with a second worker waiting,
 * it is never taken over (one attempt, one worker). A cancel is then seen within a chunk:
 * the job is canceled in well under two seconds, keeps the games it played, and the
 * worker takes the next job at once. */
static void test_cancel_slow_games(void)
{
    struct it_stack s;
    char id[37], next[37], path[128];
    struct it_resp r;
    json_t *job = NULL, *res;
    long long waited = -1;
    int ok;

    CU_ASSERT_FATAL(it_fast_stack_init(&s, "slowcancel", 1000000) == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 1) == 0);
    CU_ASSERT_FATAL(it_submit(&s, slow_doc(1000000, 7), id) == 0);
    /* before issue 46 the first progress came after the whole first chunk: hours here; on
     * failure the processes are stopped below, not left to play them */
    ok = it_wait_progress(&s, id, 10000) == 0;
    CU_ASSERT_TRUE(ok);
    if (!ok)
        goto out;
    it_sleep_ms(3000); /* past the lease */
    job = it_cancel_wait(&s, id, 10000, &waited);
    CU_ASSERT_PTR_NOT_NULL(job);
    if (!job)
        goto out;
    CU_ASSERT(waited < 2000);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 1);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(job, "workers")), 1);
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
    res = it_resp_json(&r);
    CU_ASSERT_TRUE(json_is_true(json_object_get(res, "partial")));
    CU_ASSERT(json_integer_value(json_object_get(res, "games")) > 0);
    json_decref(res);
    it_resp_free(&r);
    json_decref(job);
    /* the worker is free again */
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(200, 8), next) == 0);
    job = it_wait_status(&s, next, "succeeded", 10000);
    CU_ASSERT_PTR_NOT_NULL(job);
out:
    json_decref(job);
    it_stack_stop(&s);
}

static CU_TestInfo failure_tests[] = {
    {"kill -9 of a worker mid-job: resumes from the last chunk, succeeds once with the "
     "uninterrupted counts, 2 attempts",
     test_kill9_worker},
    {"kill -9 with attempts exhausted: failed with the error kept", test_attempts_exhausted},
    {"SIGTERM mid-job: exit 0, job given back and completed", test_sigterm_gives_back},
    {"slow games: progress keeps the lease past its length, a cancel ends the job within "
     "two seconds, the worker takes the next job",
     test_cancel_slow_games},
    {"migrations: once under concurrency, changed file refused", test_migrations},
    {"a worker with an unreadable cards file refuses to start",
     test_misconfigured_worker_refuses_to_start},
    CU_TEST_INFO_NULL,
};

/* These stop the shared servers, so ctest runs their suite alone (RUN_SERIAL,
 * tests/CMakeLists.txt). */
static CU_TestInfo outage_tests[] = {
    {"Redis stopped and restarted empty: every job completes", test_redis_restart},
    {"PostgreSQL briefly down: 503, then recovery", test_postgres_down},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_failures_suites[] = {
    {"failures", setup, NULL, NULL, NULL, failure_tests},
    {"failures_outage", setup, NULL, NULL, NULL, outage_tests},
    CU_SUITE_INFO_NULL,
};
