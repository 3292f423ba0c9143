/* SPDX-License-Identifier: MIT */
/* Battle jobs through job.h: every examples/ document decodes, the fuzz corpus replays
 * without crashes, decoding and running survive allocation failures, the result document
 * has its documented shape, and results do not depend on how a run is split. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "job.h"
#include "sk_cores.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* Calls fn(path, name) for every *.json file of `dir`, in name order; returns the count. */
static int for_each_json(const char *dir, void (*fn)(const char *path, const char *name))
{
    struct dirent **list = NULL;
    int n = scandir(dir, &list, NULL, alphasort);
    int count = 0;

    CU_ASSERT_FATAL(n >= 0);
    for (int i = 0; i < n; i++) {
        const char *name = list[i]->d_name;
        size_t len = strlen(name);
        if (len > 5 && strcmp(name + len - 5, ".json") == 0) {
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", dir, name);
            fn(path, name);
            count++;
        }
        free(list[i]);
    }
    free(list);
    return count;
}

static void decode_example(const char *path, const char *name)
{
    json_error_t jerr;
    json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    struct sk_verr_list errs;
    struct job *job = NULL;

    if (!doc)
        fprintf(stderr, "\n%s: %s\n", name, jerr.text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(job_decode(doc, &job, &errs), SK_OK);
    for (size_t i = 0; i < errs.n; i++)
        fprintf(stderr, "\n%s: %s: %s\n", name, errs.items[i].pointer, errs.items[i].message);
    if (job) {
        /* Examples pin their seed so their output is reproducible. */
        CU_ASSERT_EQUAL(job_seed(job), (uint64_t)json_integer_value(json_object_get(doc, "seed")));
        CU_ASSERT(job_total(job) > 0);
    }
    job_free(job);
    sk_verr_list_release(&errs);
    json_decref(doc);
}

static void test_examples_decode(void)
{
    CU_ASSERT(for_each_json(SK_SOURCE_DIR "/examples", decode_example) >= 5);
}

/* Corpus files: ok_* must decode, bad_* must be rejected with at least one error; any
 * other file (a fuzzer find) only has to be handled without a crash or a leak. Files that
 * are not JSON at all exercise nothing past the parser but stay as regression inputs. */
static void replay_corpus_file(const char *path, const char *name)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long len;
    json_t *doc = NULL;
    json_error_t jerr;
    struct sk_verr_list errs;
    struct job *job = NULL;
    enum sk_err rc;

    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = sk_malloc((size_t)len + 1);
    CU_ASSERT_FATAL(fread(buf, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    doc = json_loadb(buf, (size_t)len, JSON_REJECT_DUPLICATES, &jerr);
    sk_free(buf);
    if (!doc) {
        CU_ASSERT(strncmp(name, "ok_", 3) != 0);
        return;
    }
    sk_verr_list_init(&errs);
    rc = job_decode(doc, &job, &errs);
    if (strncmp(name, "ok_", 3) == 0) {
        if (rc)
            fprintf(stderr, "\n%s: %s\n", name, errs.n ? errs.items[0].message : sk_err_str(rc));
        CU_ASSERT_EQUAL(rc, SK_OK);
    } else if (strncmp(name, "bad_", 4) == 0) {
        if (rc != SK_EINVAL)
            fprintf(stderr, "\n%s: accepted\n", name);
        CU_ASSERT_EQUAL(rc, SK_EINVAL);
        CU_ASSERT(errs.n > 0);
    }
    CU_ASSERT(rc == SK_OK || rc == SK_EINVAL);
    CU_ASSERT_EQUAL(rc == SK_OK, job != NULL);
    job_free(job);
    sk_verr_list_release(&errs);
    json_decref(doc);
}

static void test_fuzz_corpus_replay(void)
{
    CU_ASSERT(for_each_json(SK_SOURCE_DIR "/tests/data/fuzz/job", replay_corpus_file) >= 10);
}

static json_t *load_example(const char *name)
{
    char path[4096];
    json_error_t jerr;
    json_t *doc;

    snprintf(path, sizeof(path), "%s/examples/%s", SK_SOURCE_DIR, name);
    doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    return doc;
}

static struct job *decode_doc(json_t *doc)
{
    struct sk_verr_list errs;
    struct job *job = NULL;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(job_decode(doc, &job, &errs), SK_OK);
    sk_verr_list_release(&errs);
    return job;
}

/* Runs `job` to completion in steps of `step` games on `threads` threads. */
static json_t *run_job(const struct job *job, uint64_t step, int threads, const char *device)
{
    struct engine_opts eo = {.device = device};
    struct job_run_opts opts = {.threads = threads};
    struct engine *eng = NULL;
    struct job_run *run = NULL;
    json_t *res = NULL;
    char err[256] = "";
    uint64_t done = 0, prev = 0;

    CU_ASSERT_EQUAL_FATAL(engine_new(&eo, &eng, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(job_run_result(run, &res), SK_ECONFLICT); /* not complete yet */
    while (done < job_total(job)) {
        CU_ASSERT_EQUAL_FATAL(job_run_step(run, step, &done), SK_OK);
        CU_ASSERT_FATAL(done > prev && (step == 0 || done - prev <= step));
        prev = done;
    }
    CU_ASSERT_STRING_EQUAL(job_run_error(run), "");
    CU_ASSERT_EQUAL_FATAL(job_run_result(run, &res), SK_OK);
    job_run_free(run);
    engine_free(eng);
    return res;
}

/* The result without the fields that measure the machine rather than the games. */
static json_t *outcome(json_t *res)
{
    json_t *o = json_deep_copy(res);
    json_object_del(o, "elapsed_ms");
    json_object_del(o, "games_per_second");
    json_object_del(o, "threads");
    return o;
}

/* 1 when results a and b have the same outcome (the machine's fields aside). */
static int same_outcome(json_t *a, json_t *b)
{
    json_t *oa = outcome(a), *ob = outcome(b);
    int same = json_equal(oa, ob);
    json_decref(oa);
    json_decref(ob);
    return same;
}

static void test_result_document(void)
{
    json_t *doc = load_example("battle_reference_1.json");
    json_t *res, *hist, *ci;
    struct job *job;
    json_int_t games, wins, stalls, losses, sum = 0;
    const char *rates[][3] = {{"win_rate", "win_rate_ci95", "wins"},
                              {"stall_rate", "stall_rate_ci95", "stalls"},
                              {"loss_rate", "loss_rate_ci95", "losses"}};

    json_object_set_new(json_object_get(doc, "params"), "games", json_integer(3000));
    job = decode_doc(doc);
    res = run_job(job, 0, 2, "cpu"); /* the OpenCL result: test_battle_job_cl.c */
    games = json_integer_value(json_object_get(res, "games"));
    wins = json_integer_value(json_object_get(res, "wins"));
    stalls = json_integer_value(json_object_get(res, "stalls"));
    losses = json_integer_value(json_object_get(res, "losses"));
    CU_ASSERT_EQUAL(games, 3000);
    CU_ASSERT_EQUAL(wins + stalls + losses, 3000);
    /* always present; no real game comes near the work bound */
    CU_ASSERT_TRUE(json_is_integer(json_object_get(res, "games_bounded")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "games_bounded")), 0);
    for (int r = 0; r < 3; r++) {
        double rate = json_real_value(json_object_get(res, rates[r][0]));
        json_int_t k = json_integer_value(json_object_get(res, rates[r][2]));
        ci = json_object_get(res, rates[r][1]);
        CU_ASSERT_DOUBLE_EQUAL(rate, (double)k / 3000.0, 1e-15);
        CU_ASSERT_EQUAL_FATAL(json_array_size(ci), 2);
        CU_ASSERT(json_real_value(json_array_get(ci, 0)) <= rate);
        CU_ASSERT(json_real_value(json_array_get(ci, 1)) >= rate);
    }
    /* the default scoring: 100 points a win */
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(res, "scoring")), "win");
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(res, "points")),
                           100.0 * (double)wins / 3000.0, 1e-9);
    ci = json_object_get(res, "points_ci95");
    CU_ASSERT_EQUAL_FATAL(json_array_size(ci), 2);
    CU_ASSERT(json_real_value(json_array_get(ci, 0)) <
              json_real_value(json_object_get(res, "points")));
    CU_ASSERT(json_real_value(json_array_get(ci, 1)) >
              json_real_value(json_object_get(res, "points")));
    hist = json_object_get(json_object_get(res, "turns"), "histogram");
    CU_ASSERT_EQUAL_FATAL(json_array_size(hist), 50); /* turn_limit */
    for (size_t t = 0; t < json_array_size(hist); t++)
        sum += json_integer_value(json_array_get(hist, t));
    CU_ASSERT_EQUAL(sum, 3000);
    CU_ASSERT(json_real_value(json_object_get(json_object_get(res, "turns"), "mean")) >= 1.0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "seed")), 1);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(res, "backend")), "cpu");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "threads")), 2);
    CU_ASSERT(json_is_real(json_object_get(res, "elapsed_ms")));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(res, "kind")), "battle");
    CU_ASSERT_STRING_EQUAL(json_object_iter_key(json_object_iter(res)), "kind"); /* first */
    /* the catalog the names meant: the built-in one here */
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(json_object_get(res, "catalog"), "name")), "built-in");
    CU_ASSERT_EQUAL(
        strncmp(json_string_value(json_object_get(json_object_get(res, "catalog"), "hash")),
                "fnv1a64:", 8),
        0);
    CU_ASSERT_EQUAL(json_object_size(res), 22);
    json_decref(res);
    job_free(job);
    json_decref(doc);
}

/* Games that reach the work bound (BATTLE_SIM_WORK_LIMIT, 262,144) are stalls and the
 * result counts them: units with Flurry 99 each own turn and nothing that can hurt make
 * 99 extra actions a unit a turn, 2,970 a turn once the 30 cards of a side are out (turn
 * 60: 92,070 in all), past the bound on turn 118 of 200. The same job with Flurry 1 plays
 * its 200 turns, none bounded. The job is a macro, with Flurry's value as its one
 * conversion: a literal, so that the compiler checks the format in every build type. */
#define BOUNDED_JOB                                                                                \
    "{\"kind\": \"battle\", \"seed\": 3, \"params\": {\"games\": 6, \"turn_limit\": 200,"          \
    " \"cards\": [{\"name\": \"Whirl\", \"type\": \"assault\", \"attack\": 0, \"health\": 9,"      \
    " \"delay\": 0, \"skills\": [{\"name\": \"flurry\", \"x\": %d, \"c\": 1}]},"                   \
    " {\"name\": \"Keeper\", \"type\": \"commander\", \"health\": 50, \"skills\": []}],"           \
    " \"attacker\": {\"commander\": \"Keeper\","                                                   \
    " \"deck\": [{\"card\": \"Whirl\", \"count\": 30}]},"                                          \
    " \"defender\": {\"commander\": \"Keeper\","                                                   \
    " \"deck\": [{\"card\": \"Whirl\", \"count\": 30}]}}}"

static void test_bounded_games(void)
{
    static const int flurry[2] = {99, 1};

    for (int k = 0; k < 2; k++) {
        char buf[1024];
        json_error_t jerr;
        json_t *doc, *res, *hist;
        struct job *job;
        snprintf(buf, sizeof(buf), BOUNDED_JOB, flurry[k]);
        doc = json_loads(buf, 0, &jerr);
        CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
        job = decode_doc(doc);
        res = run_job(job, 0, 2, "cpu");
        CU_ASSERT_PTR_NOT_NULL_FATAL(res);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "stalls")), 6);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "games_bounded")), k ? 0 : 6);
        hist = json_object_get(json_object_get(res, "turns"), "histogram");
        CU_ASSERT_EQUAL(json_integer_value(json_array_get(hist, 199)), k ? 6 : 0);
        CU_ASSERT_EQUAL(json_integer_value(json_array_get(hist, 117)), k ? 0 : 6);
        json_decref(res);
        job_free(job);
        json_decref(doc);
    }
}

/* Counts are the same for one step on one thread and for odd steps on three. */
/* A weighted list of defenders: each deck plays the job's games with the results it has
 * alone; the rates are the weighted mixture, inside their interval; a split into steps
 * that cross decks changes nothing; bad lists are 422s at the list's pointers. */
static void test_weighted_defenders(void)
{
    static const char *const single[2] = {
        "{\"kind\":\"battle\",\"seed\":5,\"params\":{\"games\":2000,"
        "\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\","
        "\"count\":5}]},\"defender\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":"
        "\"Brute\",\"count\":4}]}}}",
        "{\"kind\":\"battle\",\"seed\":5,\"params\":{\"games\":2000,"
        "\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\","
        "\"count\":5}]},\"defender\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":"
        "\"Grunt\",\"count\":5}]}}}"};
    static const char mixed[] =
        "{\"kind\":\"battle\",\"seed\":5,\"params\":{\"games\":2000,"
        "\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\","
        "\"count\":5}]},\"defender\":["
        "{\"deck\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Brute\","
        "\"count\":4}]},\"weight\":1},"
        "{\"deck\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\","
        "\"count\":5}]},\"weight\":3}]}}";
    json_t *alone[2], *res, *res2, *defs;
    double want = 0;
    json_error_t jerr;
    json_t *doc;
    struct job *job;

    for (int k = 0; k < 2; k++) {
        doc = json_loads(single[k], 0, &jerr);
        CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
        job = decode_doc(doc);
        alone[k] = run_job(job, 0, 1, "cpu");
        job_free(job);
        json_decref(doc);
    }
    doc = json_loads(mixed, 0, &jerr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    job = decode_doc(doc);
    CU_ASSERT_EQUAL(job_total(job), 4000);
    res = run_job(job, 0, 1, "cpu");
    res2 = run_job(job, 1500, 2, "cpu"); /* steps that cross from one deck to the next */
    defs = json_object_get(res, "defenders");
    CU_ASSERT_EQUAL_FATAL(json_array_size(defs), 2);
    for (int k = 0; k < 2; k++) {
        const json_t *d = json_array_get(defs, (size_t)k);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "wins")),
                        json_integer_value(json_object_get(alone[k], "wins")));
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "games")), 2000);
        want += (k ? 0.75 : 0.25) * json_real_value(json_object_get(alone[k], "win_rate"));
    }
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "games")), 4000);
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(res, "win_rate")), want, 1e-12);
    CU_ASSERT(json_real_value(json_array_get(json_object_get(res, "win_rate_ci95"), 0)) <= want);
    CU_ASSERT(json_real_value(json_array_get(json_object_get(res, "win_rate_ci95"), 1)) >= want);
    CU_ASSERT_TRUE(same_outcome(res, res2));
    json_decref(res);
    json_decref(res2);
    json_decref(alone[0]);
    json_decref(alone[1]);
    job_free(job);
    json_decref(doc);

    /* bad lists */
    {
        static const struct {
            const char *defender;
            const char *pointer;
        } bad[] = {
            {"[]", "/params/defender"},
            {"[{\"deck\":{\"commander\":\"Test Commander\",\"deck\":[]}}]",
             "/params/defender/0/weight"},
            {"[{\"deck\":{\"commander\":\"Test Commander\",\"deck\":[]},\"weight\":1},"
             "{\"deck\":{\"commander\":\"Grunt\",\"deck\":[]},\"weight\":1}]",
             "/params/defender/1/deck/commander"},
        };
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            char text[1024];
            struct sk_verr_list errs;
            struct job *j = NULL;
            int found = 0;
            snprintf(text, sizeof(text),
                     "{\"kind\":\"battle\",\"params\":{\"attacker\":{\"commander\":"
                     "\"Test Commander\",\"deck\":[]},\"defender\":%s}}",
                     bad[i].defender);
            doc = json_loads(text, 0, &jerr);
            CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
            sk_verr_list_init(&errs);
            CU_ASSERT_EQUAL(job_decode(doc, &j, &errs), SK_EINVAL);
            for (size_t e = 0; e < errs.n; e++)
                found |= strcmp(errs.items[e].pointer, bad[i].pointer) == 0;
            if (!found)
                for (size_t e = 0; e < errs.n; e++)
                    fprintf(stderr, "case %zu: %s: %s\n", i, errs.items[e].pointer,
                            errs.items[e].message);
            CU_ASSERT_TRUE(found);
            sk_verr_list_release(&errs);
            json_decref(doc);
        }
    }
}

static void test_split_independence(void)
{
    json_t *doc = load_example("battle_seed_state.json");
    struct job *job;
    json_t *a, *b;

    json_object_set_new(json_object_get(doc, "params"), "games", json_integer(1000));
    job = decode_doc(doc);
    a = run_job(job, 0, 1, NULL);
    b = run_job(job, 333, 3, NULL);
    CU_ASSERT_TRUE(same_outcome(a, b));
    json_decref(a);
    json_decref(b);
    job_free(job);
    json_decref(doc);
}

static void test_run_options(void)
{
    json_t *doc = load_example("battle_reference_2.json");
    struct job *job = decode_doc(doc);
    struct engine_opts eo = {.device = "gpu0"};
    struct job_run_opts opts = {0};
    struct engine *eng = NULL;
    struct job_run *run = NULL;
    char err[256] = "";

    CU_ASSERT_EQUAL(engine_new(&eo, &eng, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_PTR_NULL(eng);
    CU_ASSERT_STRING_EQUAL(err, "device \"gpu0\": no OpenCL device matches \"gpu0\"");
    eo.device = "cpu";
    CU_ASSERT_EQUAL_FATAL(engine_new(&eo, &eng, err, sizeof(err)), SK_OK);
    opts.threads = -1;
    CU_ASSERT_EQUAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NULL(run);
    CU_ASSERT_STRING_EQUAL(err, "threads must be 0 (the idle cores) or more, not -1");
    /* 0: the cores idle at each step, at least one, at most the process's cores; the
     * result says the most a step used. */
    opts.threads = 0;
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_OK);
    {
        uint64_t done = 0;
        json_t *res = NULL;
        json_int_t t;
        while (done < job_total(job))
            CU_ASSERT_EQUAL_FATAL(job_run_step(run, 0, &done), SK_OK);
        CU_ASSERT_EQUAL_FATAL(job_run_result(run, &res), SK_OK);
        t = json_integer_value(json_object_get(res, "threads"));
        CU_ASSERT_TRUE(t >= 1 && t <= sk_cores_online());
        json_decref(res);
    }
    job_run_free(run);
    engine_free(eng);
    job_free(job);
    json_decref(doc);
}

/* job_decode, job_run_new, job_run_step and job_run_result under a failing Nth
 * allocation: each returns SK_ENOMEM (never a validation error) until all succeed; ASan
 * checks that nothing leaks on any path. */
static void test_allocation_failures(void)
{
    json_t *doc = load_example("battle_seed_state.json");
    struct engine_opts eo = {.device = "cpu"};
    struct engine *eng = NULL;
    char why[256];
    int ok = 0;

    /* jansson allocates through the same hook, so building the result fails too. */
    sk_mem_init_json();
    /* The engine is set up once per process, before any job: not under the failures. */
    CU_ASSERT_EQUAL_FATAL(engine_new(&eo, &eng, why, sizeof(why)), SK_OK);
    json_object_set_new(json_object_get(doc, "params"), "games", json_integer(50));
    for (long n = 0; n < 5000 && !ok; n++) {
        struct sk_verr_list errs;
        struct job *job = NULL;
        struct job_run *run = NULL;
        struct job_run_opts opts = {.threads = 2};
        json_t *res = NULL;
        char err[256];
        uint64_t done = 0;
        enum sk_err rc;

        sk_verr_list_init(&errs);
        sk_mem_fail_after(n);
        rc = job_decode(doc, &job, &errs);
        if (!rc)
            rc = job_run_new(eng, job, &opts, &run, err, sizeof(err));
        while (!rc && done < job_total(job))
            rc = job_run_step(run, 20, &done);
        if (!rc)
            rc = job_run_result(run, &res);
        sk_mem_fail_after(-1);
        CU_ASSERT(rc == SK_OK || rc == SK_ENOMEM);
        CU_ASSERT_EQUAL(errs.n, 0);
        ok = rc == SK_OK;
        json_decref(res);
        job_run_free(run);
        job_free(job);
        sk_verr_list_release(&errs);
    }
    CU_ASSERT_TRUE(ok);
    engine_free(eng);
    json_decref(doc);
}

static CU_TestInfo battle_job_tests[] = {
    {"every example decodes", test_examples_decode},
    {"weighted defenders", test_weighted_defenders},
    {"fuzz corpus replay", test_fuzz_corpus_replay},
    {"result document", test_result_document},
    {"games that reach the work bound", test_bounded_games},
    {"results do not depend on steps or threads", test_split_independence},
    {"run options", test_run_options},
    {"allocation failures", test_allocation_failures},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_job_suites[] = {
    {"battle_job", NULL, NULL, NULL, NULL, battle_job_tests},
    CU_SUITE_INFO_NULL,
};
