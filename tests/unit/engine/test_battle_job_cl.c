/* SPDX-License-Identifier: MIT */
/* The engine's choice of backend for battle jobs: OpenCL by default when a device exists (the
 * result records backend, platform, device and launch geometry, and the counts equal the CPU
 * backend's), "cpu" by option or SKIRMISH_DEVICE, an unknown named device is an error, and
 * with no OpenCL platform the job falls back to the CPU backend (in a child process whose
 * ICD loader sees an empty vendor folder); a job with flexible play runs on the CPU backend
 * whatever the device. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "battle_cl.h"
#include "battle_device.h"
#include "cl_testlib.h"
#include "engine.h"
#include "job.h"
#include "sk_mem.h"
#include "sk_verr.h"

#include "sk_banned.h"

/* Reference matchup 2 of rules/battle.md, 30,000 games, from the built-in catalog. */
static const char *const PARAMS =
    "{\"games\": 30000, \"attacker\": {\"commander\": \"Test Commander\", \"deck\": ["
    "{\"card\": \"Plated Grunt\", \"count\": 3}, {\"card\": \"Strike Grunt\", \"count\": 3},"
    "{\"card\": \"Spiked Grunt\", \"count\": 2}, {\"card\": \"Barricade\", \"count\": 2}]},"
    "\"defender\": {\"commander\": \"Test Commander\", \"deck\": ["
    "{\"card\": \"Grunt\", \"count\": 4}, {\"card\": \"Brute\", \"count\": 4},"
    "{\"card\": \"Strike Tower\", \"count\": 2}]}}";

/* The program comes from the run's cache (SKIRMISH_CL_CACHE, kept with the build by
 * scripts/test.sh): these tests are about the choice of backend, not the cache, which
 * test_battle_cl.c's device suite tests from an empty folder. */
static int suite_init(void)
{
    sk_mem_init_json();
    unsetenv(BATTLE_CL_ENV_DEVICE);
    return 0;
}

/* The same matchup, 200 games, the attacker playing flexibly. */
static const char *const FLEX_PARAMS =
    "{\"games\": 200, \"attacker\": {\"commander\": \"Test Commander\", \"play\": \"flexible\","
    "\"deck\": [{\"card\": \"Plated Grunt\", \"count\": 3}, {\"card\": \"Strike Grunt\", "
    "\"count\": 3},"
    "{\"card\": \"Spiked Grunt\", \"count\": 2}, {\"card\": \"Barricade\", \"count\": 2}]},"
    "\"defender\": {\"commander\": \"Test Commander\", \"deck\": ["
    "{\"card\": \"Grunt\", \"count\": 4}, {\"card\": \"Brute\", \"count\": 4},"
    "{\"card\": \"Strike Tower\", \"count\": 2}]}}";

static struct job *decode_params(const char *text)
{
    json_error_t jerr;
    json_t *params = json_loads(text, 0, &jerr);
    json_t *doc = json_pack("{s:s, s:i, s:o}", "kind", "battle", "seed", 7, "params", params);
    struct sk_verr_list errs;
    struct job *job = NULL;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(job_decode(doc, &job, &errs), SK_OK);
    CU_ASSERT_EQUAL(errs.n, 0);
    sk_verr_list_release(&errs);
    json_decref(doc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    return job;
}

static struct job *decode(void)
{
    return decode_params(PARAMS);
}

/* PARAMS with `games` games. */
static struct job *decode_games(json_int_t games)
{
    json_t *params = json_loads(PARAMS, 0, NULL);
    struct job *job;
    char *text;

    CU_ASSERT_PTR_NOT_NULL_FATAL(params);
    json_object_set_new(params, "games", json_integer(games));
    text = json_dumps(params, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    job = decode_params(text);
    sk_free(text);
    json_decref(params);
    return job;
}

/* Runs the job's `games` games on an engine opened with `device` in steps of 7,000 games;
 * returns the result (caller decrefs). */
/* Runs the job's `games` games on `eng` in steps of 7,000 games, on 2 CPU threads where
 * it plays on the CPU; returns the result (caller decrefs). */
static json_t *run_on(struct engine *eng, const struct job *job, uint64_t games)
{
    struct job_run_opts o = {.threads = 2};
    struct job_run *r = NULL;
    char err[1024] = "";
    uint64_t done = 0;
    json_t *res = NULL;

    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &o, &r, err, sizeof(err)), SK_OK);
    while (done < games)
        CU_ASSERT_EQUAL_FATAL(job_run_step(r, 7000, &done), SK_OK);
    CU_ASSERT_EQUAL(done, games);
    CU_ASSERT_EQUAL(job_run_result(r, &res), SK_OK);
    job_run_free(r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    return res;
}

static json_t *run_games(const struct job *job, const char *device, uint64_t games)
{
    struct engine_opts eo = {.device = device};
    struct engine *eng = NULL;
    char err[1024] = "";
    json_t *res;

    CU_ASSERT_EQUAL_FATAL(engine_new(&eo, &eng, err, sizeof(err)), SK_OK);
    res = run_on(eng, job, games);
    engine_free(eng);
    return res;
}

static json_t *run(const struct job *job, const char *device)
{
    return run_games(job, device, 30000);
}

static const char *str(const json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? s : "";
}

/* Without a GPU (this host has PoCL, a CPU device) nothing named means the CPU backend;
 * PoCL named plays the same games. */
static void test_cpu_by_default_opencl_when_named_agrees(void)
{
    struct job *job = decode();
    json_t *dflt = run(job, NULL); /* no option, SKIRMISH_DEVICE unset: the default */
    json_t *dev = run(job, "portable");
    json_t *cpu = run(job, "cpu");
    const char *keys[] = {"games", "wins", "stalls", "losses", "seed"};

    CU_ASSERT_STRING_EQUAL(str(dflt, "backend"), "cpu");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(dflt, "threads")), 2);
    CU_ASSERT_TRUE(json_equal(json_object_get(dflt, "turns"), json_object_get(cpu, "turns")));
    json_decref(dflt);

    CU_ASSERT_STRING_EQUAL(str(dev, "backend"), "opencl");
    CU_ASSERT_PTR_NOT_NULL(strstr(str(dev, "platform"), "Portable Computing Language"));
    CU_ASSERT_TRUE(strlen(str(dev, "device")) > 0);
    CU_ASSERT_TRUE(json_integer_value(json_object_get(dev, "work_group")) > 0);
    CU_ASSERT_TRUE(json_integer_value(json_object_get(dev, "games_per_launch")) > 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(dev, "games_per_item")), 1); /* PoCL */
    /* The driver's memory figures of the kernel (PoCL keeps a game on its stack: private
     * memory may read 0 there, but the fields are always present on OpenCL runs). */
    CU_ASSERT_TRUE(json_is_integer(json_object_get(dev, "private_mem_bytes")));
    CU_ASSERT_TRUE(json_is_integer(json_object_get(dev, "local_mem_bytes")));
    CU_ASSERT_PTR_NULL(json_object_get(cpu, "private_mem_bytes"));
    CU_ASSERT_PTR_NULL(json_object_get(dev, "threads"));
    CU_ASSERT_STRING_EQUAL(str(cpu, "backend"), "cpu");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(cpu, "threads")), 2);
    CU_ASSERT_PTR_NULL(json_object_get(cpu, "device"));
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        CU_ASSERT_TRUE(json_equal(json_object_get(dev, keys[i]), json_object_get(cpu, keys[i])));
    CU_ASSERT_TRUE(json_equal(json_object_get(dev, "turns"), json_object_get(cpu, "turns")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(dev, "games")), 30000);
    json_decref(dev);
    json_decref(cpu);
    job_free(job);
}

/* A job with flexible play runs on the CPU backend whatever the device (battle_job.c,
 * run_device: a GPU plays a flexible game thousands of times slower than a core), with the
 * same games: its result says so. */
static void test_flexible_plays_on_cpu(void)
{
    struct job *job = decode_params(FLEX_PARAMS);
    json_t *dev = run_games(job, "portable", 200); /* PoCL named */
    json_t *cpu = run_games(job, "cpu", 200);
    const char *keys[] = {"games", "wins", "stalls", "losses", "turns"};

    CU_ASSERT_STRING_EQUAL(str(dev, "backend"), "cpu");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(dev, "threads")), 2);
    CU_ASSERT_PTR_NULL(json_object_get(dev, "device"));
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        CU_ASSERT_TRUE(json_equal(json_object_get(dev, keys[i]), json_object_get(cpu, keys[i])));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(dev, "games")), 200);
    json_decref(dev);
    json_decref(cpu);
    job_free(job);
}

/* A job of fewer than BATTLE_DEVICE_MIN_GAMES games plays on the CPU threads even on a
 * named device (a launch's set-up costs more than its games), with the same games; one of
 * that many plays on the device. */
static void test_small_job_plays_on_cpu(void)
{
    struct job *job = decode_games(BATTLE_DEVICE_MIN_GAMES - 1);
    struct job *job_big = decode_games(BATTLE_DEVICE_MIN_GAMES);
    json_t *small = run_games(job, "portable", BATTLE_DEVICE_MIN_GAMES - 1);
    json_t *cpu = run_games(job, "cpu", BATTLE_DEVICE_MIN_GAMES - 1);
    json_t *big = run_games(job_big, "portable", BATTLE_DEVICE_MIN_GAMES);
    const char *keys[] = {"games", "wins", "stalls", "losses", "turns"};

    CU_ASSERT_STRING_EQUAL(str(small, "backend"), "cpu");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(small, "threads")), 2);
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        CU_ASSERT_TRUE(json_equal(json_object_get(small, keys[i]), json_object_get(cpu, keys[i])));
    CU_ASSERT_STRING_EQUAL(str(big, "backend"), "opencl");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(big, "games")), BATTLE_DEVICE_MIN_GAMES);
    json_decref(small);
    json_decref(cpu);
    json_decref(big);
    job_free(job);
    job_free(job_big);
}

static void test_environment_selects(void)
{
    struct job *job = decode();
    json_t *res;

    setenv(BATTLE_CL_ENV_DEVICE, "CPU", 1);
    res = run(job, NULL);
    CU_ASSERT_STRING_EQUAL(str(res, "backend"), "cpu");
    json_decref(res);
    setenv(BATTLE_CL_ENV_DEVICE, "portable", 1);
    res = run(job, NULL);
    CU_ASSERT_STRING_EQUAL(str(res, "backend"), "opencl");
    json_decref(res);
    /* The engine option wins over the environment. */
    res = run(job, "cpu");
    CU_ASSERT_STRING_EQUAL(str(res, "backend"), "cpu");
    json_decref(res);
    unsetenv(BATTLE_CL_ENV_DEVICE);
    job_free(job);
}

static void test_named_device_must_exist(void)
{
    struct engine_opts o = {.device = "no-such-gpu"};
    struct engine *eng = NULL;
    char err[1024] = "";

    CU_ASSERT_EQUAL(engine_new(&o, &eng, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_PTR_NULL(eng);
    CU_ASSERT_STRING_EQUAL(err, "device \"no-such-gpu\": no OpenCL device matches \"no-such-gpu\"");
    o.device = "42";
    CU_ASSERT_EQUAL(engine_new(&o, &eng, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_PTR_NULL(eng);
}

#define CHILD_ENV "SK_TEST_JOB_NO_PLATFORM"

static void test_no_platform_falls_back(void)
{
    if (getenv(CHILD_ENV)) {
        /* Child: no platform, nothing named: the CPU backend, and the job completes. */
        struct job *job = decode();
        json_t *res = run(job, NULL);
        CU_ASSERT_STRING_EQUAL(str(res, "backend"), "cpu");
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "games")), 30000);
        json_decref(res);
        job_free(job);
        return;
    }
    cl_test_run_without_platform("battle_job_cl_no_platform", CHILD_ENV);
}

/* An optimisation on an engine with the OpenCL device plays its calls of 4,096 games or
 * more there (its final evaluation: 2 decks x 2 defender decks x 3,000 games) and ends with
 * the deck, moves and scores the CPU gives; only its backend says where it played. */
static void test_optimize_on_the_device(void)
{
    static const char doc_text[] =
        "{\"kind\":\"optimize\",\"seed\":12,\"params\":{"
        "\"attacker\":\"Test Commander, Grunt#3, Plated Grunt#3, Barricade#2\","
        "\"defender\":[{\"deck\":\"Hex Mistress, Grunt#4\",\"weight\":2},"
        "{\"deck\":\"Iron Warden, Grunt#6, Brute#2\",\"weight\":1}],"
        "\"pool\":[{\"card\":\"Chainslicer\",\"count\":3},{\"card\":\"Lead Dozer\"}],"
        "\"budget\":{\"games\":5000},\"eval_games\":3000}}";
    json_t *results[2];
    for (int i = 0; i < 2; i++) {
        struct engine_opts eo = {.device = i ? "cpu" : "portable"};
        struct job_run_opts o = {.threads = 2};
        struct engine *eng = NULL;
        struct job *job = NULL;
        struct job_run *r = NULL;
        struct sk_verr_list errs;
        json_t *doc = json_loads(doc_text, 0, NULL);
        char err[1024] = "";
        uint64_t done = 0;

        sk_verr_list_init(&errs);
        CU_ASSERT_EQUAL_FATAL(job_decode(doc, &job, &errs), SK_OK);
        CU_ASSERT_EQUAL_FATAL(engine_new(&eo, &eng, err, sizeof(err)), SK_OK);
        CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &o, &r, err, sizeof(err)), SK_OK);
        while (done < job_total(job))
            CU_ASSERT_EQUAL_FATAL(job_run_step(r, 0, &done), SK_OK);
        CU_ASSERT_EQUAL(job_run_result(r, &results[i]), SK_OK);
        job_run_free(r);
        engine_free(eng);
        job_free(job);
        json_decref(doc);
        sk_verr_list_release(&errs);
    }
    CU_ASSERT_STRING_EQUAL(str(results[0], "backend"), "opencl");
    CU_ASSERT_STRING_EQUAL(str(results[1], "backend"), "cpu");
    for (int i = 0; i < 2; i++) {
        json_object_del(results[i], "backend");
        json_object_del(results[i], "elapsed_ms");
    }
    CU_ASSERT_TRUE(json_equal(results[0], results[1]));
    json_decref(results[0]);
    json_decref(results[1]);
}

/* What job_prepare reported (collect). */
struct reports {
    int programs, cpu;
    struct job_program last;
    char features[256];
    char cpu_why[128];
};

static void collect(void *arg, const struct job_program *p, const char *cpu_why)
{
    struct reports *r = arg;
    if (!p) {
        r->cpu++;
        snprintf(r->cpu_why, sizeof(r->cpu_why), "%s", cpu_why);
        return;
    }
    r->programs++;
    r->last = *p;
    snprintf(r->features, sizeof(r->features), "%s", p->features);
    r->last.features = r->features;
}

/* job_prepare (`skirmish prebuild`) builds or loads a job's program whatever its size, says
 * it holds it the second time, and a run then plays on it; a flexible deck is reported as
 * the CPU's; an engine without a device has nothing to build, a board job nothing ahead. */
static void test_prepare_builds_ahead(void)
{
    struct engine_opts eo = {.device = "portable"}, cpu = {.device = "cpu"};
    struct engine *eng = NULL, *eng_cpu = NULL;
    struct job *job = decode_games(100), *flex = decode_params(FLEX_PARAMS), *board = NULL;
    json_t *doc = json_load_file(SK_SOURCE_DIR "/examples/board_two_turns.json", 0, NULL);
    struct sk_verr_list errs;
    struct reports r = {0};
    struct job_run_opts o = {0};
    struct job_run *run = NULL;
    json_t *res = NULL;
    char err[1024] = "";
    uint64_t done = 0;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(engine_new(&eo, &eng, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(job_prepare(eng, job, collect, &r, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(r.programs, 1);
    CU_ASSERT(r.last.state == JOB_PROGRAM_BUILT || r.last.state == JOB_PROGRAM_CACHED);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.features, "-DBATTLE_K_LANES="));
    CU_ASSERT(r.last.seconds > 0 && r.last.private_mem > 0);
    CU_ASSERT_EQUAL(job_prepare(eng, job, collect, &r, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(r.programs, 2);
    CU_ASSERT_EQUAL(r.last.state, JOB_PROGRAM_HELD);
    CU_ASSERT_EQUAL(r.last.seconds, 0);
    job_free(job);
    /* the same plan with games enough for the device plays on the program built above */
    job = decode_games(5000);
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &o, &run, err, sizeof(err)), SK_OK);
    while (done < job_total(job))
        CU_ASSERT_EQUAL_FATAL(job_run_step(run, 0, &done), SK_OK);
    CU_ASSERT_EQUAL_FATAL(job_run_result(run, &res), SK_OK);
    CU_ASSERT_STRING_EQUAL(str(res, "program"), "specialised");
    CU_ASSERT_STRING_EQUAL(str(res, "backend"), "opencl");
    json_decref(res);
    job_run_free(run);
    CU_ASSERT_EQUAL(job_prepare(eng, flex, collect, &r, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(r.cpu, 1);
    CU_ASSERT_STRING_EQUAL(r.cpu_why, "flexible play");
    CU_ASSERT_EQUAL(r.programs, 2);
    CU_ASSERT_EQUAL_FATAL(job_decode(doc, &board, &errs), SK_OK);
    CU_ASSERT_EQUAL(job_prepare(eng, board, collect, &r, err, sizeof(err)), SK_ECONFLICT);
    CU_ASSERT_EQUAL_FATAL(engine_new(&cpu, &eng_cpu, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(job_prepare(eng_cpu, job, collect, &r, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "no OpenCL device"));
    CU_ASSERT_EQUAL(r.programs, 2);
    engine_free(eng_cpu);
    engine_free(eng);
    job_free(job);
    job_free(flex);
    job_free(board);
    json_decref(doc);
    sk_verr_list_release(&errs);
}

static CU_TestInfo job_tests[] = {
    {"cpu by default without a GPU, opencl when named, same counts",
     test_cpu_by_default_opencl_when_named_agrees},
    {"flexible play on the CPU backend whatever the device", test_flexible_plays_on_cpu},
    {"a job under BATTLE_DEVICE_MIN_GAMES on the CPU threads", test_small_job_plays_on_cpu},
    {"SKIRMISH_DEVICE and the engine option", test_environment_selects},
    {"a named device must exist", test_named_device_must_exist},
    {"an optimisation's bigger calls on the device: the CPU's deck", test_optimize_on_the_device},
    {"job_prepare builds a job's program ahead, and its runs play on it",
     test_prepare_builds_ahead},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo no_platform_tests[] = {
    {"no OpenCL platform: cpu fallback", test_no_platform_falls_back},
    CU_TEST_INFO_NULL,
};

/* ===== device_async: the program builds while jobs play on the CPU ===== */

static struct cl_test_cache async_cache;

/* An empty program cache and PoCL's own kernel cache off (read when its platform starts,
 * which in this suite's process is after this), so that the build takes seconds, about 30
 * here, and the first job surely plays while it does. */
static int async_init(void)
{
    suite_init();
    setenv("POCL_KERNEL_CACHE", "0", 1);
    return cl_test_cache_enter(&async_cache, "/tmp/skirmish-cl-async.XXXXXX");
}

static int async_clean(void)
{
    unsetenv("POCL_KERNEL_CACHE");
    return cl_test_cache_leave(&async_cache);
}

/* The worker's engine (device_async): engine_new returns with the device open and no
 * program; a job's first step starts the build of its plan's program and the job plays on
 * the CPU threads meanwhile, and once the build is done on the device, on that specialised
 * program, with the same counts. */
static void test_async_build(void)
{
    struct engine_opts eo = {.device = "portable", .device_async = 1};
    struct job *job = decode_games(BATTLE_DEVICE_MIN_GAMES + 1000);
    const char *keys[] = {"games", "wins", "stalls", "losses", "turns"};
    struct engine *eng = NULL;
    struct engine_info info;
    json_t *during, *after;
    const struct timespec tenth = {0, 100000000};
    char err[1024] = "";
    int waited = 0;

    CU_ASSERT_EQUAL_FATAL(engine_new(&eo, &eng, err, sizeof(err)), SK_OK);
    engine_describe(eng, &info);
    CU_ASSERT_STRING_EQUAL(info.backend, "opencl");
    CU_ASSERT_EQUAL(info.building, 0);
    during = run_on(eng, job, BATTLE_DEVICE_MIN_GAMES + 1000);
    CU_ASSERT_STRING_EQUAL(str(during, "backend"), "cpu");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(during, "threads")), 2);
    engine_describe(eng, &info);
    CU_ASSERT_EQUAL(info.building, 1);
    /* A build from source on PoCL takes about 30 s here; 10 minutes is the suite's bound. */
    for (engine_describe(eng, &info); info.building && waited < 6000; waited++) {
        nanosleep(&tenth, NULL);
        engine_describe(eng, &info);
    }
    CU_ASSERT_EQUAL_FATAL(info.building, 0);
    after = run_on(eng, job, BATTLE_DEVICE_MIN_GAMES + 1000);
    CU_ASSERT_STRING_EQUAL(str(after, "backend"), "opencl");
    CU_ASSERT_STRING_EQUAL(str(after, "program"), "specialised");
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        CU_ASSERT_TRUE(
            json_equal(json_object_get(during, keys[i]), json_object_get(after, keys[i])));
    json_decref(during);
    json_decref(after);
    engine_free(eng);
    job_free(job);
}

static CU_TestInfo async_tests[] = {
    {"device_async: CPU while the program builds, then the device", test_async_build},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_job_cl_suites[] = {
    {"battle_job_cl", suite_init, NULL, NULL, NULL, job_tests},
    {"battle_job_cl_async", async_init, async_clean, NULL, NULL, async_tests},
    {"battle_job_cl_no_platform", suite_init, NULL, NULL, NULL, no_platform_tests},
    CU_SUITE_INFO_NULL,
};
