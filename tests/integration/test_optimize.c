/* SPDX-License-Identifier: MIT */
/* Optimize jobs against the real servers: a worker killed with SIGKILL mid-optimisation
 * (the next attempt resumes from the last checkpoint and finds the very deck an
 * uninterrupted run of the engine finds); three workers find the same deck as one run; a cancel
 * while running keeps the best deck so far as a partial result; an infeasible constraint set is
 * refused with a 422 naming the field, leaving no row, and so is a fund on the built-in cards
 * or out of range; on the game's cards, a search limited to two factions ends with a deck and
 * moves of theirs only, a starting deck outside them is a 422 at the constraint, and a search
 * with a fund ends within it, its upgrades listed. With units spread across workers: three workers
 * share them and the deck is the in-process run's, with no unit row left; a worker computing units
 * and then the coordinator killed, and the job resumed from its checkpoint ends with that same
 * deck; a cancel keeps the best deck and leaves no unit running, and one made in the middle of a
 * call of units ends the job within a chunk's time. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "it_support.h"
#include "sk_mem.h"
#include "sk_time.h"

static char doc_text[2048];

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

/* An optimisation of `games` search games (at least 1,000) and `eval_games` evaluation
 * games a deck, against a weighted pair of decks (static buffer). */
static const char *opt_doc_eval(long games, long eval_games, long seed)
{
    snprintf(doc_text, sizeof(doc_text),
             "{\"kind\":\"optimize\",\"seed\":%ld,\"params\":{"
             "\"attacker\":\"Test Commander, Grunt#3, Plated Grunt#3, Barricade#2\","
             "\"defender\":[{\"deck\":\"Hex Mistress, Grunt#4\",\"weight\":2},"
             "{\"deck\":\"Iron Warden, Grunt#6, Brute#2\",\"weight\":1}],"
             "\"pool\":[{\"card\":\"Chainslicer\",\"count\":3},{\"card\":\"Lead Dozer\","
             "\"count\":2},{\"card\":\"Bloodfang\",\"count\":3},{\"card\":\"Iron Warden\"}],"
             "\"constraints\":{\"deck_size\":{\"min\":6,\"max\":10},\"commander\":\"owned\"},"
             "\"budget\":{\"games\":%ld},\"eval_games\":%ld}}",
             seed, games < 1000 ? 1000 : games, eval_games);
    return doc_text;
}

/* An optimisation of about `games` search games against a weighted pair of decks. */
static const char *opt_doc(long games, long seed)
{
    return opt_doc_eval(games, 2000, seed);
}

/* An optimisation of about `units` units in all: opt_doc's 8,000 evaluation games (2,000
 * per deck of two, against two defender decks) and the rest as its search budget. */
static const char *opt_units_doc(long units, long seed)
{
    return opt_doc(units > 9000 ? units - 8000 : 1000, seed);
}

/* Units of opt_units_doc's optimisation in about `ms` ms. Optimisations play on the host
 * engine, battles on the OpenCL device: under ASan a battle's games are about 20 times
 * faster, and chunks sized on them took longer than the lease (seen twice under ASan, the
 * second time in CI: every attempt of a job lost its lease at its first chunk). */
static long opt_units_for_ms(long ms)
{
    return it_units_for_ms(opt_units_doc, ms);
}

/* A stack with a short lease and fast maintenance, chunks of about 100 ms of an
 * optimisation's work. */
static int fast_stack(struct it_stack *s, const char *name)
{
    return it_fast_stack_init(s, name, opt_units_for_ms(100));
}

static void test_kill9_resumes(void)
{
    struct it_stack s;
    char id[37], path[128], n[32], sql[128];
    struct it_resp r;
    const char *doc;
    json_t *job, *got, *want, *detail;
    long at_kill;

    CU_ASSERT_FATAL(fast_stack(&s, "optkill") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    doc = opt_units_doc(opt_units_for_ms(3000), 31);
    CU_ASSERT_FATAL(it_submit(&s, doc, id) == 0);
    CU_ASSERT_FATAL(it_wait_progress(&s, id, 60000) == 0);
    /* watchers see the search: its best deck so far and its counters */
    job = it_job(&s, id);
    detail = json_object_get(json_object_get(job, "progress"), "detail");
    CU_ASSERT_STRING_EQUAL(str(detail, "phase"), "search");
    /* a deck string led by its commander: the start's, or the pool's Iron Warden */
    CU_ASSERT(strstr(str(detail, "best"), "Test Commander, ") == str(detail, "best") ||
              strstr(str(detail, "best"), "Iron Warden, ") == str(detail, "best"));
    CU_ASSERT(json_integer_value(json_object_get(detail, "games")) > 0);
    json_decref(job);
    it_worker_signal(&s, 0, SIGKILL, 1);
    snprintf(sql, sizeof(sql), "SELECT checkpoint_done FROM jobs WHERE id = '%s'", id);
    CU_ASSERT_EQUAL(it_sql(&s, sql, n, sizeof(n)), 0);
    at_kill = strtol(n, NULL, 10);
    CU_ASSERT(at_kill > 0);
    /* the attempt that resumes runs on three threads, which play candidates ahead: the
     * deck is still the one-thread search's */
    s.env[s.n_env++] = "SKIRMISH_ENGINE_THREADS=3";
    CU_ASSERT_FATAL(it_worker_start(&s, 1) == 0);
    job = it_wait_status(&s, id, NULL, 120000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "succeeded");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 2);
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(json_object_get(job, "progress"), "resumed_from")),
        at_kill);
    json_decref(job);
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
    got = it_resp_json(&r);
    CU_ASSERT_STRING_EQUAL(str(got, "kind"), "optimize");
    /* the same deck, moves and scores as one uninterrupted run in this process */
    want = it_engine_result(doc);
    CU_ASSERT_TRUE(it_same_result(got, want));
    if (!it_same_result(got, want)) {
        char *a = json_dumps(got, JSON_COMPACT), *b = json_dumps(want, JSON_COMPACT);
        fprintf(stderr, "\nworker: %s\nengine: %s\n", a, b);
        free(a);
        free(b);
    }
    json_decref(got);
    json_decref(want);
    it_resp_free(&r);
    it_stack_stop(&s);
}

/* Three workers (of one, two and three engine threads) take two copies of one
 * optimisation (and a battle between them): each ends with the deck, moves and scores of
 * one run in this process, whichever worker ran it. */
static void test_three_workers_same_deck(void)
{
    struct it_stack s;
    char ids[2][37], battle[37], path[128];
    struct it_resp r;
    const char *doc;
    json_t *want, *job;

    CU_ASSERT_FATAL(fast_stack(&s, "opt3") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    /* one, two and three engine threads: whichever runs a copy, the same result */
    for (int i = 0; i < 3; i++) {
        static const char *const threads[] = {
            "SKIRMISH_ENGINE_THREADS=1", "SKIRMISH_ENGINE_THREADS=2", "SKIRMISH_ENGINE_THREADS=3"};
        s.env[s.n_env++] = threads[i];
        CU_ASSERT_FATAL(it_worker_start(&s, i) == 0);
    }
    doc = opt_units_doc(opt_units_for_ms(2000), 33);
    want = it_engine_result(doc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    CU_ASSERT_FATAL(it_submit(&s, doc, ids[0]) == 0);
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(it_games_for_ms(300), 3), battle) == 0);
    CU_ASSERT_FATAL(it_submit(&s, opt_units_doc(opt_units_for_ms(2000), 33), ids[1]) == 0);
    for (int i = 0; i < 2; i++) {
        json_t *got;
        job = it_wait_status(&s, ids[i], NULL, 120000);
        CU_ASSERT_PTR_NOT_NULL_FATAL(job);
        CU_ASSERT_STRING_EQUAL(str(job, "status"), "succeeded");
        if (strcmp(str(job, "status"), "succeeded") != 0) {
            /* what the job says, for a failure that shows only on a loaded machine */
            char *dump = json_dumps(job, JSON_COMPACT);
            fprintf(stderr, "three workers: job %d ended %s\n", i, dump ? dump : "?");
            free(dump);
        }
        json_decref(job);
        snprintf(path, sizeof(path), "/v1/jobs/%s/result", ids[i]);
        CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
        got = it_resp_json(&r);
        CU_ASSERT_TRUE(it_same_result(got, want));
        json_decref(got);
        it_resp_free(&r);
    }
    json_decref(want);
    job = it_wait_status(&s, battle, NULL, 60000);
    json_decref(job);
    it_stack_stop(&s);
}

/* Cancels running job `id` and checks that it ends canceled with a partial result: the best
 * deck so far and the moves accepted. */
static void cancel_keeps_best(const struct it_stack *s, const char *id)
{
    char path[128];
    struct it_resp r;
    json_t *job, *res;

    snprintf(path, sizeof(path), "/v1/jobs/%s:cancel", id);
    CU_ASSERT_FATAL(it_http(s, "POST", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202);
    it_resp_free(&r);
    job = it_wait_status(s, id, NULL, 30000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "canceled");
    json_decref(job);
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    CU_ASSERT_FATAL(it_http(s, "GET", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    res = it_resp_json(&r);
    CU_ASSERT(json_is_true(json_object_get(res, "partial")));
    /* a deck string led by one of the job's commanders ("commander": "owned": the search
     * may have taken the pool's Iron Warden, which wins the same games sooner) */
    {
        const char *deck = str(json_object_get(res, "best"), "deck");
        CU_ASSERT(strncmp(deck, "Test Commander, ", 16) == 0 ||
                  strncmp(deck, "Iron Warden, ", 13) == 0);
    }
    CU_ASSERT(json_is_array(json_object_get(res, "moves")));
    json_decref(res);
    it_resp_free(&r);
}

static void test_cancel_keeps_best(void)
{
    struct it_stack s;
    char id[37];

    CU_ASSERT_FATAL(fast_stack(&s, "optcancel") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_submit(&s, opt_units_doc(opt_units_for_ms(20000), 32), id) == 0);
    CU_ASSERT_FATAL(it_wait_progress(&s, id, 60000) == 0);
    cancel_keeps_best(&s, id);
    it_stack_stop(&s);
}

/* ===== Units spread across workers (docs/optimize.md, "Spread across workers") ===== */

/* Lines of worker `i`'s log telling a unit of job `id` it computed for another worker. */
static int units_by(const struct it_stack *s, int i, const char *id)
{
    char path[512], line[1024], parent[64];
    FILE *f;
    int n = 0;

    snprintf(path, sizeof(path), "%s/%s-worker%d.log", it_env("SKIRMISH_TEST_DIR"), s->name, i);
    snprintf(parent, sizeof(parent), "parent=%s", id);
    f = fopen(path, "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f))
        n += strstr(line, "event=unit_succeeded") && strstr(line, parent);
    fclose(f);
    return n;
}

/* The worker (index) that holds job `id` now, from its attempts' workers; -1 when none. */
static int coordinator(const struct it_stack *s, const char *id)
{
    json_t *job = it_job(s, id);
    json_t *ws = json_object_get(job, "workers");
    const char *name = json_string_value(json_array_get(ws, json_array_size(ws) - 1));
    int i = name && strncmp(name, "worker", 6) == 0 ? atoi(name + 6) : -1;
    json_decref(job);
    return i;
}

/* A stack whose optimisations hand out units of 64 games: every race batch of the test's
 * documents (64 games of two decks against two defender decks) is four units. Chunks of
 * 1,500 games (a few race batches) keep a checkpoint close behind the search. */
static int spread_stack(struct it_stack *s, const char *name)
{
    if (fast_stack(s, name))
        return -1;
    s->env[s->n_env++] = "SKIRMISH_OPT_UNIT_GAMES=64";
    s->env[s->n_env++] = "SKIRMISH_CHUNK_UNITS=1500";
    s->env[s->n_env++] = "SKIRMISH_CHUNK_MS=0";
    return 0;
}

/* The result of job `id` is the one run in this process finds. */
static void same_as_engine(const struct it_stack *s, const char *id, const char *doc)
{
    char path[128];
    struct it_resp r;
    json_t *got, *want = it_engine_result(doc);

    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    CU_ASSERT_FATAL(it_http(s, "GET", path, NULL, NULL, 0, &r) == 0);
    got = it_resp_json(&r);
    CU_ASSERT_TRUE(it_same_result(got, want));
    json_decref(got);
    json_decref(want);
    it_resp_free(&r);
}

/* One optimisation on three workers: the other two compute some of its units, the deck is
 * the one run in this process finds, and no unit row outlives the job. */
static void test_spread_three_workers(void)
{
    struct it_stack s;
    char id[37], sql[160], n[32];
    const char *doc;
    json_t *job;
    int coord, others = 0;

    CU_ASSERT_FATAL(spread_stack(&s, "optspread") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    for (int i = 0; i < 3; i++)
        CU_ASSERT_FATAL(it_worker_start(&s, i) == 0);
    doc = opt_doc(6000, 35);
    CU_ASSERT_FATAL(it_submit(&s, doc, id) == 0);
    job = it_wait_status(&s, id, NULL, 120000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "succeeded");
    json_decref(job);
    coord = coordinator(&s, id);
    CU_ASSERT(coord >= 0 && coord < 3);
    /* A unit worker writes its result to the store before it logs it, so the job may have
     * ended before the log says so (CI on a loaded machine read none once, 2026-12-08):
     * the count gets up to 5 s. */
    for (int t = 0; others == 0 && t <= 5000; t += 50) {
        if (t)
            it_sleep_ms(50);
        for (int i = 0; i < 3; i++)
            if (i != coord)
                others += units_by(&s, i, id);
    }
    CU_ASSERT(others > 0);
    same_as_engine(&s, id, doc);
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM jobs WHERE parent_id = '%s'", id);
    CU_ASSERT_EQUAL(it_sql(&s, sql, n, sizeof(n)), 0);
    CU_ASSERT_STRING_EQUAL(n, "0");
    it_stack_stop(&s);
}

/* Waits until a worker other than the coordinator has computed a unit of job `id`; returns
 * the coordinator's index, or -1 after `ms`. */
static int wait_spread(const struct it_stack *s, const char *id, long ms)
{
    for (long t = 0; t < ms; t += 50) {
        int coord = coordinator(s, id);
        for (int i = 0; coord >= 0 && i < IT_MAX_WORKERS; i++)
            if (i != coord && s->workers[i] > 0 && units_by(s, i, id) > 0)
                return coord;
        it_sleep_ms(50);
    }
    return -1;
}

/* Waits until job `id` has a checkpoint; returns its games done, or 0 after `ms`. */
static long wait_checkpoint(const struct it_stack *s, const char *id, long ms)
{
    char sql[128], n[32];

    snprintf(sql, sizeof(sql), "SELECT checkpoint_done FROM jobs WHERE id = '%s'", id);
    for (long t = 0; t < ms; t += 50) {
        long done = it_sql(s, sql, n, sizeof(n)) == 0 ? strtol(n, NULL, 10) : 0;
        if (done > 0)
            return done;
        it_sleep_ms(50);
    }
    return 0;
}

/* A worker computing units is killed, then the coordinator itself: another worker takes
 * the job over from its last checkpoint (the units it inserts again are the same rows), and the
 * deck, moves and scores are those of one uninterrupted run in this process. */
static void test_spread_crashes(void)
{
    struct it_stack s;
    char id[37];
    const char *doc;
    json_t *job;
    int coord, victim;

    CU_ASSERT_FATAL(spread_stack(&s, "optspreadkill") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    for (int i = 0; i < 3; i++)
        CU_ASSERT_FATAL(it_worker_start(&s, i) == 0);
    doc = opt_doc(40000, 36);
    CU_ASSERT_FATAL(it_submit(&s, doc, id) == 0);
    coord = wait_spread(&s, id, 60000);
    CU_ASSERT_FATAL(coord >= 0);
    victim = coord == 0 ? 1 : 0;
    it_worker_signal(&s, victim, SIGKILL, 1);
    /* the coordinator goes on with the third worker and writes a checkpoint; then it dies
     * too (waiting for the checkpoint, not a fixed time: under ASan the first one comes late) */
    CU_ASSERT_FATAL(wait_checkpoint(&s, id, 60000) > 0);
    job = it_job(&s, id);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "running");
    json_decref(job);
    it_worker_signal(&s, coord, SIGKILL, 1);
    CU_ASSERT_FATAL(it_worker_start(&s, 3) == 0);
    job = it_wait_status(&s, id, NULL, 120000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_STRING_EQUAL(str(job, "status"), "succeeded");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 2);
    /* the second attempt went on from the first one's last checkpoint */
    CU_ASSERT(
        json_integer_value(json_object_get(json_object_get(job, "progress"), "resumed_from")) > 0);
    json_decref(job);
    same_as_engine(&s, id, doc);
    it_stack_stop(&s);
}

/* A cancel while units are out: the job ends canceled with the best deck so far, and no
 * unit row is left behind. */
static void test_spread_cancel(void)
{
    struct it_stack s;
    char id[37], sql[160], n[32];

    CU_ASSERT_FATAL(spread_stack(&s, "optspreadcancel") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    for (int i = 0; i < 2; i++)
        CU_ASSERT_FATAL(it_worker_start(&s, i) == 0);
    CU_ASSERT_FATAL(it_submit(&s, opt_doc(2000000, 37), id) == 0);
    CU_ASSERT_FATAL(wait_spread(&s, id, 60000) >= 0);
    cancel_keeps_best(&s, id);
    snprintf(sql, sizeof(sql),
             "SELECT count(*) FROM jobs WHERE parent_id = '%s' AND status IN ('queued', 'running')",
             id);
    CU_ASSERT_EQUAL(it_sql(&s, sql, n, sizeof(n)), 0);
    CU_ASSERT_STRING_EQUAL(n, "0");
    it_stack_stop(&s);
}

/* An optimisation whose search is short (1,000 games) and whose evaluation is long:
 * `eval_games` games a deck (static buffer). */
static const char *eval_doc(long eval_games, long seed)
{
    return opt_doc_eval(1000, eval_games, seed);
}

/* Submits `doc` on `s` (its id into `id`), waits for it to succeed and returns its result
 * (the caller frees it), or NULL after a failed assertion. */
static json_t *succeeded_result(const struct it_stack *s, const char *doc, char *id)
{
    char path[96];
    struct it_resp r;
    json_t *job, *res;

    if (it_submit(s, doc, id) != 0) {
        CU_FAIL("submit");
        return NULL;
    }
    job = it_wait_status(s, id, NULL, 120000);
    CU_ASSERT_PTR_NOT_NULL(job);
    CU_ASSERT_STRING_EQUAL(job ? str(job, "status") : "", "succeeded");
    json_decref(job);
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    if (it_http(s, "GET", path, NULL, NULL, 0, &r) != 0) {
        CU_FAIL("GET result");
        return NULL;
    }
    res = it_resp_json(&r);
    it_resp_free(&r);
    return res;
}

/* Lines of worker `i`'s log that hold `needle`. */
static int log_count(const struct it_stack *s, int i, const char *needle)
{
    char path[512], line[1024];
    FILE *f;
    int n = 0;

    snprintf(path, sizeof(path), "%s/%s-worker%d.log", it_env("SKIRMISH_TEST_DIR"), s->name, i);
    f = fopen(path, "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f))
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

/* log_count once it reaches `want` or `ms` have passed: a worker writes a job's end to the
 * store before it logs it, so a test that saw the end may read the log a moment early (the
 * cancel test below failed so once, 2026-12-06). */
static int log_count_wait(const struct it_stack *s, int i, const char *needle, int want, int ms)
{
    int n = log_count(s, i, needle);
    for (int t = 0; n < want && t < ms; t += 50) {
        it_sleep_ms(50);
        n = log_count(s, i, needle);
    }
    return n;
}

/* A cancel in the middle of a call of units: one worker alone computes the call's 100
 * units (about 6 s of this build's games, up to eval_games' limit: a fixed size ended before the
 * cancel in a Release build, and the cancel was then read outside the call); between them it renews
 * its lease, which reads the cancel, so the job ends canceled within about a chunk's time
 * (SKIRMISH_CHUNK_MS), not at the end of the call, with no unit row left. */
static void test_cancel_inside_units(void)
{
    static char unit_env[64];
    struct it_stack s;
    char id[37], sql[160], n[32];
    json_t *job = NULL;
    long long waited;
    long eval = opt_units_for_ms(6000);
    int out = 0;

    eval = eval < 200000 ? 200000 : eval > 1000000 ? 1000000 : eval; /* the field's limits */
    CU_ASSERT_FATAL(it_fast_stack_init(&s, "optunitcancel", 1000000) == 0);
    snprintf(unit_env, sizeof(unit_env), "SKIRMISH_OPT_UNIT_GAMES=%ld", eval / 100);
    s.env[s.n_env++] = unit_env;
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_submit(&s, eval_doc(eval, 41), id) == 0);
    snprintf(sql, sizeof(sql),
             "SELECT count(*) FROM jobs WHERE parent_id = '%s' AND unit_key IS NOT NULL", id);
    for (int t = 0; t < 600 && !out; t++) { /* a call's units are out */
        out = it_sql(&s, sql, n, sizeof(n)) == 0 && strtol(n, NULL, 10) > 0;
        if (!out)
            it_sleep_ms(50);
    }
    CU_ASSERT_TRUE(out);
    if (!out)
        goto done;
    it_sleep_ms(300);
    job = it_cancel_wait(&s, id, 30000, &waited);
    CU_ASSERT_PTR_NOT_NULL(job);
    CU_ASSERT(waited < 2000);
    /* ended once by its worker; whether the cancel was read between two units
     * (event=units_canceled) or at the step's deadline is a matter of timing (both seen) */
    snprintf(sql, sizeof(sql), "event=job_canceled job_id=%s", id);
    CU_ASSERT_EQUAL(log_count_wait(&s, 0, sql, 1, 5000), 1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(job, "attempts")), 1);
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM jobs WHERE parent_id = '%s'", id);
    CU_ASSERT_EQUAL(it_sql(&s, sql, n, sizeof(n)), 0);
    CU_ASSERT_STRING_EQUAL(n, "0");
done:
    json_decref(job);
    it_stack_stop(&s);
}

static void test_infeasible_422(void)
{
    static const char doc[] =
        "{\"kind\":\"optimize\",\"params\":{"
        "\"attacker\":\"Test Commander, Grunt#3, Plated Grunt#3, Barricade#2\","
        "\"defender\":\"Hex Mistress, Grunt#4\",\"pool\":[{\"card\":\"Chainslicer\"}],"
        "\"constraints\":{\"deck_size\":{\"min\":9,\"max\":12}}}}";
    struct it_stack s;
    struct it_resp r;
    char ct[128] = "", rows[16];
    json_t *p;

    CU_ASSERT_FATAL(it_stack_init(&s, "optbad") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_http(&s, "POST", "/v1/jobs", "application/json", doc, strlen(doc), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 422);
    it_resp_header(&r, "Content-Type", ct, sizeof(ct));
    CU_ASSERT_STRING_EQUAL(ct, "application/problem+json");
    p = it_resp_json(&r);
    CU_ASSERT_STRING_EQUAL(str(json_array_get(json_object_get(p, "errors"), 0), "pointer"),
                           "/params/constraints/deck_size");
    json_decref(p);
    it_resp_free(&r);
    /* a fund on the built-in cards would buy nothing: refused, not ignored; and a fund is a
     * whole number of SP */
    for (int k = 0; k < 2; k++) {
        static const char *const funds[] = {
            "{\"kind\":\"optimize\",\"params\":{"
            "\"attacker\":\"Test Commander, Grunt#3, Plated Grunt#3, Barricade#2\","
            "\"defender\":\"Hex Mistress, Grunt#4\",\"pool\":[{\"card\":\"Chainslicer\"}],"
            "\"fund\":500}}",
            "{\"kind\":\"optimize\",\"params\":{"
            "\"attacker\":\"Test Commander, Grunt#3, Plated Grunt#3, Barricade#2\","
            "\"defender\":\"Hex Mistress, Grunt#4\",\"pool\":[{\"card\":\"Chainslicer\"}],"
            "\"fund\":-5}}"};
        CU_ASSERT_FATAL(it_http(&s, "POST", "/v1/jobs", "application/json", funds[k],
                                strlen(funds[k]), &r) == 0);
        CU_ASSERT_EQUAL(r.status, 422);
        it_resp_header(&r, "Content-Type", ct, sizeof(ct));
        CU_ASSERT_STRING_EQUAL(ct, "application/problem+json");
        p = it_resp_json(&r);
        CU_ASSERT_STRING_EQUAL(str(json_array_get(json_object_get(p, "errors"), 0), "pointer"),
                               "/params/fund");
        json_decref(p);
        it_resp_free(&r);
    }
    CU_ASSERT_EQUAL(it_sql(&s, "SELECT count(*) FROM jobs", rows, sizeof(rows)), 0);
    CU_ASSERT_STRING_EQUAL(rows, "0");
    it_stack_stop(&s);
}

/* The faction of the game's card named exactly `name`, from GET /v1/cards ("" when none). */
static void card_faction(const struct it_stack *s, const char *name, char *out, size_t len)
{
    char path[256];
    size_t k = 0, i;
    struct it_resp r;
    json_t *page, *e;

    k += (size_t)snprintf(path, sizeof(path), "/v1/cards?name=");
    for (const char *c = name; *c && k + 4 < sizeof(path); c++)
        k += (size_t)(*c == ' ' ? snprintf(path + k, sizeof(path) - k, "%%20")
                                : snprintf(path + k, sizeof(path) - k, "%c", *c));
    snprintf(out, len, "%s", "");
    if (it_http(s, "GET", path, NULL, NULL, 0, &r) != 0)
        return;
    page = it_resp_json(&r);
    json_array_foreach(json_object_get(page, "items"), i, e) if (strcmp(str(e, "name"), name) == 0)
        snprintf(out, len, "%s", str(e, "faction"));
    json_decref(page);
    it_resp_free(&r);
}

/* 1 when `name` is a bloodthirsty or righteous card of the game. */
static int in_factions(const struct it_stack *s, const char *name)
{
    char f[32];
    card_faction(s, name, f, sizeof(f));
    if (strcmp(f, "bloodthirsty") != 0 && strcmp(f, "righteous") != 0)
        fprintf(stderr, "\n%s: faction '%s'\n", name, f);
    return strcmp(f, "bloodthirsty") == 0 || strcmp(f, "righteous") == 0;
}

static void test_factions_game_cards(void)
{
    static const char doc[] =
        "{\"kind\":\"optimize\",\"seed\":4,\"params\":{"
        "\"attacker\":\"Emrys, Messiah, Cerebellum, Aciviper, Sterling Eagle\","
        "\"defender\":\"Zorbo the One, Launcher, Carbine\","
        "\"pool\":[{\"card\":\"Carbine\",\"count\":3},{\"card\":\"Pariah\",\"count\":3},"
        "{\"card\":\"Launcher\"},{\"card\":\"Predator\",\"count\":2},{\"card\":\"The Divine\"},"
        "{\"card\":\"Gravedigger\",\"count\":2},{\"card\":\"Hive Soldier\",\"count\":2},"
        "{\"card\":\"Selfless Soldier\",\"count\":2},{\"card\":\"Ardent Apostle\"}],"
        "\"constraints\":{\"deck_size\":{\"min\":3,\"max\":8},"
        "\"factions\":[\"bloodthirsty\",\"righteous\"]},"
        "\"budget\":{\"games\":10000},\"race\":{\"batch\":32,\"max_games\":512},"
        "\"eval_games\":500}}";
    static const char bad[] =
        "{\"kind\":\"optimize\",\"params\":{"
        "\"attacker\":\"Emrys, Messiah, Cerebellum, Carbine\","
        "\"defender\":\"Zorbo the One, Launcher, Carbine\",\"pool\":[{\"card\":\"Gravedigger\"}],"
        "\"constraints\":{\"factions\":[\"bloodthirsty\",\"righteous\"]}}}";
    static const char fund[] =
        "{\"kind\":\"optimize\",\"seed\":3,\"params\":{"
        "\"attacker\":\"Octane-1, Hive Soldier-1, Hive Soldier-1, Wings of Fear-1, "
        "Wings of Fear-1\",\"defender\":\"Octane, Hive Soldier-3#2, Wings of Fear-3#2\","
        "\"pool\":[{\"card\":\"Gravedigger-1\"}],\"constraints\":{\"commander\":\"owned\"},"
        "\"fund\":600,\"budget\":{\"games\":5000},\"eval_games\":500}}";
    static char dir_env[4200];
    struct it_stack s;
    char id[37], rows[16];
    struct it_resp r;
    json_t *res, *e, *p;
    size_t i;

    snprintf(dir_env, sizeof(dir_env), "SKIRMISH_CARDS_DIR=%s/../shared/data/tu", SK_SOURCE_DIR);
    CU_ASSERT_FATAL(it_stack_init(&s, "optfactions") == 0);
    s.env[s.n_env++] = dir_env;
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    /* a starting deck with a raider card: refused at the constraint, nothing stored */
    CU_ASSERT_FATAL(it_http(&s, "POST", "/v1/jobs", "application/json", bad, strlen(bad), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 422);
    p = it_resp_json(&r);
    CU_ASSERT_STRING_EQUAL(str(json_array_get(json_object_get(p, "errors"), 0), "pointer"),
                           "/params/constraints/factions");
    json_decref(p);
    it_resp_free(&r);
    CU_ASSERT_EQUAL(it_sql(&s, "SELECT count(*) FROM jobs", rows, sizeof(rows)), 0);
    CU_ASSERT_STRING_EQUAL(rows, "0");
    /* the search: half its pool is of other factions, none of which may come in */
    res = succeeded_result(&s, doc, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    /* this seed's search takes four swaps (the engine's own run says so) */
    CU_ASSERT(json_integer_value(json_object_get(res, "moves_accepted")) >= 1);
    json_array_foreach(
        json_object_get(json_object_get(json_object_get(res, "best"), "list"), "deck"), i, e)
        CU_ASSERT(in_factions(&s, str(e, "card")));
    json_array_foreach(json_object_get(res, "moves"), i,
                       e) if (json_is_string(json_object_get(e, "card")))
        CU_ASSERT(in_factions(&s, str(e, "card")));
    json_decref(res);
    /* a fund: the deck found is built from level-1 cards within 600 SP, its upgrades listed
     * (the response is recorded and checked against the OpenAPI document) */
    res = succeeded_result(&s, fund, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    e = json_object_get(res, "fund");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "fund")), 600);
    CU_ASSERT(json_integer_value(json_object_get(e, "spent")) <= 600);
    CU_ASSERT(json_is_array(json_object_get(e, "upgrades")));
    json_decref(res);
    it_stack_stop(&s);
}

static CU_TestInfo optimize_tests[] = {
    {"kill -9 mid-optimisation: resumes from the checkpoint, the same deck as one run",
     test_kill9_resumes},
    {"three workers: the same deck as one run in-process, whichever runs it",
     test_three_workers_same_deck},
    {"cancel while running keeps the best deck so far", test_cancel_keeps_best},
    {"infeasible constraints: 422 naming the field, nothing stored", test_infeasible_422},
    {"factions on the game's cards: a start outside refused, the search stays within; a fund",
     test_factions_game_cards},
    CU_TEST_INFO_NULL,
};

/* Units spread across workers: a suite of their own, run beside the one above. */
static CU_TestInfo unit_tests[] = {
    {"units spread: three workers compute them, the same deck, no unit row left",
     test_spread_three_workers},
    {"units spread: a unit worker and then the coordinator killed, the same deck",
     test_spread_crashes},
    {"units spread: a cancel keeps the best deck, leaves no unit running", test_spread_cancel},
    {"units: a cancel in the middle of a call ends the job within a chunk's time",
     test_cancel_inside_units},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_optimize_suites[] = {
    {"optimize", setup, NULL, NULL, NULL, optimize_tests},
    {"optimize_units", setup, NULL, NULL, NULL, unit_tests},
    CU_SUITE_INFO_NULL,
};
