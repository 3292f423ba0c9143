/* SPDX-License-Identifier: MIT */
/* Checkpoints (job_run_save, job_run_restore): a run stopped after any number of units and
 * restored into a new run of the same job ends with exactly the result of a run that never
 * stopped, for battle jobs (one defender and a weighted list, stopped inside a deck and at
 * a deck's end) and board jobs; a checkpoint of another job, a damaged or shortened one,
 * or counts that cannot be are refused and leave the new run at zero. Steps with a
 * deadline (job_run_step_until) end early, soon after it, and where they end changes no
 * result. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "job.h"
#include "sk_buf.h"
#include "sk_mem.h"
#include "sk_time.h"

#include "sk_banned.h"

#define MIXED                                                                                      \
    "{\"kind\":\"battle\",\"seed\":%d,\"params\":{\"games\":%d,"                                   \
    "\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\","                \
    "\"count\":5}]},\"defender\":["                                                                \
    "{\"deck\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Brute\","                   \
    "\"count\":4}]},\"weight\":1},"                                                                \
    "{\"deck\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\","                   \
    "\"count\":5}]},\"weight\":3}]}}"

static struct engine *eng;

static int setup(void)
{
    struct engine_opts eo = {.device = "cpu"};
    char err[256];
    sk_mem_init_json();
    return engine_new(&eo, &eng, err, sizeof(err)) != SK_OK;
}

static int teardown(void)
{
    engine_free(eng);
    return 0;
}

static struct job *decode_text(const char *text)
{
    json_t *doc = json_loads(text, 0, NULL);
    struct sk_verr_list errs;
    struct job *job = NULL;

    sk_verr_list_init(&errs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_EQUAL(job_decode(doc, &job, &errs), SK_OK);
    sk_verr_list_release(&errs);
    json_decref(doc);
    return job;
}

static struct job *decode_file(const char *name)
{
    char path[512];
    json_t *doc;
    struct sk_verr_list errs;
    struct job *job = NULL;

    snprintf(path, sizeof(path), "%s/examples/%s", SK_SOURCE_DIR, name);
    doc = json_load_file(path, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(job_decode(doc, &job, &errs), SK_OK);
    sk_verr_list_release(&errs);
    json_decref(doc);
    return job;
}

static struct job_run *new_run(const struct job *job)
{
    static const struct job_run_opts opts = {.threads = 1};
    struct job_run *run = NULL;
    char err[256];

    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_OK);
    return run;
}

/* The result of `run` stepped to its end `step` units at a time, without the fields that
 * measure the machine (time, speed). */
static json_t *finish(struct job_run *run, const struct job *job, uint64_t step)
{
    uint64_t done = 0;
    json_t *res = NULL;

    do {
        CU_ASSERT_EQUAL_FATAL(job_run_step(run, step, &done), SK_OK);
    } while (done < job_total(job));
    CU_ASSERT_EQUAL_FATAL(job_run_result(run, &res), SK_OK);
    json_object_del(res, "elapsed_ms");
    json_object_del(res, "games_per_second");
    return res;
}

/* Runs `job` whole, then stopped after `cut` units, saved, restored into a new run and
 * finished: both results must be the same. */
static void check_cut(const struct job *job, uint64_t cut)
{
    struct job_run *whole = new_run(job), *first = new_run(job), *second = new_run(job);
    json_t *want = finish(whole, job, 0), *got;
    struct sk_buf ckpt;
    uint64_t done = 0, at = 0;

    sk_buf_init(&ckpt, 0);
    CU_ASSERT_EQUAL_FATAL(job_run_step(first, cut, &done), SK_OK);
    CU_ASSERT_EQUAL(done, cut);
    CU_ASSERT_EQUAL_FATAL(job_run_save(first, &ckpt), SK_OK);
    CU_ASSERT_EQUAL_FATAL(job_run_restore(second, ckpt.p, ckpt.len, &at), SK_OK);
    CU_ASSERT_EQUAL(at, cut);
    got = finish(second, job, 7);
    CU_ASSERT_TRUE(json_equal(want, got));
    if (!json_equal(want, got))
        fprintf(stderr, "\ncut at %llu differs\n", (unsigned long long)cut);
    json_decref(want);
    json_decref(got);
    sk_buf_release(&ckpt);
    job_run_free(whole);
    job_run_free(first);
    job_run_free(second);
}

static void test_battle_resumes(void)
{
    struct job *job =
        decode_text("{\"kind\":\"battle\",\"seed\":11,\"params\":{\"games\":1000,"
                    "\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{"
                    "\"card\":\"Grunt\",\"count\":5}]},\"defender\":{\"commander\":"
                    "\"Test Commander\",\"deck\":[{\"card\":\"Brute\",\"count\":4}]}}}");
    check_cut(job, 1);
    check_cut(job, 333);
    check_cut(job, 999);
    job_free(job);
}

static void test_weighted_battle_resumes(void)
{
    char text[1024];
    struct job *job;

    snprintf(text, sizeof(text), MIXED, 3, 500);
    job = decode_text(text);
    CU_ASSERT_EQUAL(job_total(job), 1000);
    check_cut(job, 250); /* inside the first deck */
    check_cut(job, 500); /* at its end */
    check_cut(job, 777); /* inside the second */
    job_free(job);
}

static void test_board_resumes(void)
{
    struct job *job = decode_file("board_two_turns.json");
    check_cut(job, 1);
    job_free(job);
}

/* A run restored from a checkpoint that is refused is left at zero and still runs whole. */
static void check_refused(const struct job *job, const void *data, size_t len)
{
    struct job_run *run = new_run(job);
    uint64_t at = 12345;
    json_t *res;

    CU_ASSERT_EQUAL(job_run_restore(run, data, len, &at), SK_EINVAL);
    CU_ASSERT_EQUAL(at, 12345);
    res = finish(run, job, 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "games")), (json_int_t)job_total(job));
    json_decref(res);
    job_run_free(run);
}

static void test_foreign_or_damaged_refused(void)
{
    char text[1024];
    struct job *job, *other_seed, *other_size, *board;
    struct job_run *run;
    struct sk_buf ckpt;
    uint64_t done = 0;
    unsigned char *bad;

    snprintf(text, sizeof(text), MIXED, 3, 200);
    job = decode_text(text);
    snprintf(text, sizeof(text), MIXED, 4, 200);
    other_seed = decode_text(text);
    snprintf(text, sizeof(text), MIXED, 3, 300);
    other_size = decode_text(text);
    board = decode_file("board_two_turns.json");
    run = new_run(job);
    sk_buf_init(&ckpt, 0);
    CU_ASSERT_EQUAL_FATAL(job_run_step(run, 250, &done), SK_OK);
    CU_ASSERT_EQUAL_FATAL(job_run_save(run, &ckpt), SK_OK);
    check_refused(other_seed, ckpt.p, ckpt.len);
    check_refused(other_size, ckpt.p, ckpt.len);
    {
        struct job_run *b = new_run(board);
        uint64_t at = 0;
        CU_ASSERT_EQUAL(job_run_restore(b, ckpt.p, ckpt.len, &at), SK_EINVAL);
        job_run_free(b);
    }
    check_refused(job, ckpt.p, ckpt.len - 1); /* shortened */
    check_refused(job, ckpt.p, 10);
    bad = sk_malloc(ckpt.len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
    memcpy(bad, ckpt.p, ckpt.len);
    bad[4] ^= 1; /* the format version */
    check_refused(job, bad, ckpt.len);
    memcpy(bad, ckpt.p, ckpt.len);
    /* the first deck's wins (after the header, the first unit, the units done and the
     * time, then "games") */
    bad[40 + 8 + 8 + 8 + 8] ^= 1;
    check_refused(job, bad, ckpt.len);
    sk_free(bad);
    sk_buf_release(&ckpt);
    job_run_free(run);
    job_free(job);
    job_free(other_seed);
    job_free(other_size);
    job_free(board);
}

/* Shards: runs of ranges that cover every unit once, merged in any order, give the
 * result of one run of the whole job; a shard resumed from its own checkpoint too, but not
 * from another shard's. */
static void check_shards(const struct job *job, const uint64_t *cuts, int n)
{
    struct job_run *whole = new_run(job), *merged = new_run(job);
    json_t *want = finish(whole, job, 0), *got = NULL;
    uint64_t done = 0;

    CU_ASSERT_TRUE(job_shardable(job));
    for (int i = n - 1; i >= 0; i--) { /* last range first: the order does not matter */
        uint64_t a = i ? cuts[i - 1] : 0, b = cuts[i];
        struct job_run *shard = new_run(job), *again = new_run(job);
        struct sk_buf mid, end;
        uint64_t at = 0;

        sk_buf_init(&mid, 0);
        sk_buf_init(&end, 0);
        CU_ASSERT_EQUAL_FATAL(job_run_seek(shard, a), SK_OK);
        CU_ASSERT_EQUAL_FATAL(job_run_step(shard, (b - a) / 2 ? (b - a) / 2 : 1, &done), SK_OK);
        CU_ASSERT_EQUAL_FATAL(job_run_save(shard, &mid), SK_OK);
        /* resumed halfway: only a run that starts where the shard does takes it */
        if (a > 0)
            CU_ASSERT_EQUAL(job_run_restore(again, mid.p, mid.len, &at), SK_EINVAL);
        CU_ASSERT_EQUAL_FATAL(job_run_seek(again, a), SK_OK);
        CU_ASSERT_EQUAL_FATAL(job_run_restore(again, mid.p, mid.len, &at), SK_OK);
        while (at < b)
            CU_ASSERT_EQUAL_FATAL(job_run_step(again, b - at, &at), SK_OK);
        CU_ASSERT_EQUAL(at, b);
        CU_ASSERT_EQUAL_FATAL(job_run_save(again, &end), SK_OK);
        CU_ASSERT_EQUAL_FATAL(job_run_merge(merged, end.p, end.len), SK_OK);
        sk_buf_release(&mid);
        sk_buf_release(&end);
        job_run_free(shard);
        job_run_free(again);
    }
    CU_ASSERT_EQUAL_FATAL(job_run_result(merged, &got), SK_OK);
    json_object_del(got, "elapsed_ms");
    json_object_del(got, "games_per_second");
    CU_ASSERT_TRUE(json_equal(want, got));
    json_decref(want);
    json_decref(got);
    job_run_free(whole);
    job_run_free(merged);
}

static void test_shards_merge(void)
{
    static const uint64_t one[] = {1000};
    static const uint64_t three[] = {1, 400, 1000};
    static const uint64_t mixed[] = {300, 500, 501, 1000};
    char text[1024];
    struct job *job =
        decode_text("{\"kind\":\"battle\",\"seed\":11,\"params\":{\"games\":1000,"
                    "\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{"
                    "\"card\":\"Grunt\",\"count\":5}]},\"defender\":{\"commander\":"
                    "\"Test Commander\",\"deck\":[{\"card\":\"Brute\",\"count\":4}]}}}");
    struct job *board = decode_file("board_two_turns.json");
    struct job_run *run = new_run(board);

    check_shards(job, one, 1);
    check_shards(job, three, 3);
    job_free(job);
    snprintf(text, sizeof(text), MIXED, 3, 500);
    job = decode_text(text);
    check_shards(job, mixed, 4); /* ranges inside, across and at the end of the decks */
    CU_ASSERT_FALSE(job_shardable(board));
    CU_ASSERT_EQUAL(job_run_seek(run, 1), SK_ECONFLICT);
    job_run_free(run);
    run = new_run(job);
    CU_ASSERT_EQUAL(job_run_seek(run, 1001), SK_EINVAL);
    job_run_free(run);
    job_free(job);
    job_free(board);
}

/* ===== Steps with a deadline (job_run_step_until) ===== */

/* A run of `job` on `threads` threads stepped to its end with a deadline already past:
 * every step does at least one unit and stops at its first piece; the result (machine
 * fields removed) and the number of steps taken in *steps. Halfway, the run is saved and
 * finished from its checkpoint in a new run, as a worker taking over would. */
static json_t *finish_past_deadline(const struct job *job, int threads, uint64_t *steps)
{
    struct job_run_opts opts = {.threads = threads};
    struct job_run *run = NULL, *next = NULL;
    struct sk_buf ckpt;
    uint64_t done = 0, total = job_total(job);
    json_t *res = NULL;
    char err[256];
    int moved = 0;

    *steps = 0;
    sk_buf_init(&ckpt, 0);
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_OK);
    while (done < total) {
        uint64_t before = done;
        CU_ASSERT_EQUAL_FATAL(job_run_step_until(run, 0, 1, &done), SK_OK);
        CU_ASSERT_FATAL(done > before); /* progress, however late */
        ++*steps;
        if (!moved && done >= total / 2 && done < total) {
            uint64_t at = 0;
            moved = 1;
            CU_ASSERT_EQUAL_FATAL(job_run_save(run, &ckpt), SK_OK);
            CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &next, err, sizeof(err)), SK_OK);
            CU_ASSERT_EQUAL_FATAL(job_run_restore(next, ckpt.p, ckpt.len, &at), SK_OK);
            CU_ASSERT_EQUAL(at, done);
            job_run_free(run);
            run = next;
        }
    }
    CU_ASSERT_EQUAL(done, total);
    CU_ASSERT_EQUAL_FATAL(job_run_result(run, &res), SK_OK);
    json_object_del(res, "elapsed_ms");
    json_object_del(res, "games_per_second");
    json_object_del(res, "threads");
    sk_buf_release(&ckpt);
    job_run_free(run);
    return res;
}

/* Many steps cut by a deadline give, bit for bit, the result of one step: a battle with a
 * weighted list of decks (steps end inside and between decks) on one and on three threads,
 * and a board. */
static void test_deadline_steps_same_result(void)
{
    char text[1024];
    struct job *battle, *board;
    struct job_run *run;
    json_t *want, *got;
    uint64_t steps = 0;

    snprintf(text, sizeof(text), MIXED, 5, 150);
    battle = decode_text(text);
    board = decode_file("board_two_turns.json");
    run = new_run(battle);
    want = finish(run, battle, 0);
    job_run_free(run);
    json_object_del(want, "threads");
    for (int threads = 1; threads <= 3; threads += 2) {
        got = finish_past_deadline(battle, threads, &steps);
        CU_ASSERT_TRUE(json_equal(want, got));
        /* one game a step on one thread; at most one per thread on three */
        CU_ASSERT(threads == 1 ? steps == job_total(battle) : steps >= job_total(battle) / 3);
        json_decref(got);
    }
    json_decref(want);
    run = new_run(board);
    want = finish(run, board, 0);
    job_run_free(run);
    got = finish_past_deadline(board, 1, &steps);
    CU_ASSERT_TRUE(json_equal(want, got));
    CU_ASSERT_EQUAL(steps, job_total(board)); /* a turn a step */
    json_decref(want);
    json_decref(got);
    job_free(battle);
    job_free(board);
}

/* Slow games (flexible play, both sides healing and armoured, up to 200 turns: tens of
 * milliseconds a game here) asked all at once: a step with a deadline 100 ms away returns
 * soon after it with some of them played, where the step without one would play them all. */
static void test_deadline_ends_slow_step(void)
{
    struct job *job = decode_text(
        "{\"kind\":\"battle\",\"seed\":5,\"params\":{\"games\":100000,\"turn_limit\":200,"
        "\"attacker\":{\"commander\":\"Iron Warden\",\"play\":\"flexible\",\"deck\":["
        "{\"card\":\"Anvil\",\"count\":4},{\"card\":\"Medic Drone\",\"count\":3},"
        "{\"card\":\"Bulwark Knight\",\"count\":3}]},"
        "\"defender\":{\"commander\":\"Iron Warden\",\"deck\":[{\"card\":\"Anvil\",\"count\":4},"
        "{\"card\":\"Medic Drone\",\"count\":3},{\"card\":\"Mending Spire\",\"count\":3}]}}}");
    struct job_run_opts opts = {.threads = 2};
    struct job_run *run = NULL;
    char err[256];
    uint64_t done = 0;
    int64_t t0;
    json_t *part = NULL;

    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_OK);
    t0 = sk_time_mono_ms();
    CU_ASSERT_EQUAL(job_run_step_until(run, 0, t0 + 100, &done), SK_OK);
    /* 100 ms and one game per thread at most; a loaded machine gets a second more */
    CU_ASSERT(sk_time_mono_ms() - t0 < 1100);
    CU_ASSERT(done >= 1 && done < job_total(job));
    /* what it played is a result of its own (a canceled job keeps it) */
    CU_ASSERT_EQUAL(job_run_partial_result(run, &part), SK_OK);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(part, "games")), (json_int_t)done);
    json_decref(part);
    job_run_free(run);
    job_free(job);
}

/* The admission's cost probe (job_cost_estimate) spends about its budget of CPU: each step
 * ends at the budget's remainder. Before, a step that began just under the budget ran a
 * whole budget more, and a 20 ms probe of a 100,000-game job spent 38 ms of the API's CPU.
 * The bound holds on a loaded machine too: the steps end by the wall clock, which runs at
 * least as fast as the thread's CPU clock. */
static void test_cost_probe_keeps_its_budget(void)
{
    char text[1024];
    struct job *job;
    struct job_cost cost;
    char err[256] = "";
    const long budget_ms = 40;
    int64_t t0, spent_ns;

    snprintf(text, sizeof(text), MIXED, 9, 50000000);
    job = decode_text(text);
    t0 = sk_time_thread_cpu_ns();
    CU_ASSERT_EQUAL_FATAL(job_cost_estimate(eng, job, budget_ms, &cost, err, sizeof(err)), SK_OK);
    spent_ns = sk_time_thread_cpu_ns() - t0;
    CU_ASSERT(cost.sampled >= 1 && cost.sampled < job_total(job));
    CU_ASSERT(cost.per_unit_s > 0 && cost.cpu_s > cost.per_unit_s * (double)job_total(job) * 0.99);
    /* the sample's CPU: the budget, at most a game and the clock's millisecond more (the
     * games here take microseconds: 10 ms is a wide margin, and half a budget too little) */
    CU_ASSERT((double)spent_ns * 1e-9 - cost.setup_s <= (double)(budget_ms + 10) * 1e-3);
    if ((double)spent_ns * 1e-9 - cost.setup_s > (double)(budget_ms + 10) * 1e-3)
        fprintf(stderr, "\n    a %ld ms probe spent %.1f ms on %llu games\n", budget_ms,
                ((double)spent_ns * 1e-9 - cost.setup_s) * 1e3, (unsigned long long)cost.sampled);
    job_free(job);
}

static CU_TestInfo deadline_tests[] = {
    {"steps cut by a deadline give the result of one step", test_deadline_steps_same_result},
    {"a step with a deadline returns soon after it, however slow the games",
     test_deadline_ends_slow_step},
    {"the cost probe spends its budget, not twice it", test_cost_probe_keeps_its_budget},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo tests[] = {
    {"shards of a battle merge into the result of one run", test_shards_merge},
    {"a battle run resumed from its checkpoint ends as one never stopped", test_battle_resumes},
    {"a weighted battle resumes inside and between decks", test_weighted_battle_resumes},
    {"a board run resumes from its checkpoint", test_board_resumes},
    {"a checkpoint of another job or a damaged one is refused", test_foreign_or_damaged_refused},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_job_resume_suites[] = {
    {"job_resume", setup, teardown, NULL, NULL, tests},
    {"job_deadline", setup, teardown, NULL, NULL, deadline_tests},
    CU_SUITE_INFO_NULL,
};
