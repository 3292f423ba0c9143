/* SPDX-License-Identifier: MIT */
/* The OpenCL host module on PoCL: device selection by SKIRMISH_DEVICE syntax, the shared
 * rng.h compiled for the device against the host, the program-binary cache, build
 * failures with their log, and the no-platform case (in a child process whose ICD loader
 * sees an empty vendor folder). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "battle_cl.h"
#include "cl_testlib.h"
#include "rng.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* Every test of the device suite gets a private, initially empty cache folder. */
static struct cl_test_cache cache;

static int suite_init(void)
{
    return cl_test_cache_enter(&cache, "/tmp/skirmish-cl-test.XXXXXX");
}

static int suite_clean(void)
{
    return cl_test_cache_leave(&cache);
}

/* ===== Selection (pure) ===== */

static void fake_devices(struct battle_cl_device devs[3])
{
    memset(devs, 0, 3 * sizeof(devs[0]));
    snprintf(devs[0].platform, sizeof(devs[0].platform), "Portable Computing Language");
    snprintf(devs[0].name, sizeof(devs[0].name), "pthread-skylake");
    snprintf(devs[1].platform, sizeof(devs[1].platform), "NVIDIA CUDA");
    snprintf(devs[1].name, sizeof(devs[1].name), "NVIDIA H100 80GB HBM3");
    devs[1].is_gpu = 1;
    snprintf(devs[2].platform, sizeof(devs[2].platform), "NVIDIA CUDA");
    snprintf(devs[2].name, sizeof(devs[2].name), "NVIDIA H200");
    devs[2].is_gpu = 1;
    for (int i = 0; i < 3; i++)
        devs[i].index = i;
}

static void test_pick_default_prefers_gpu(void)
{
    struct battle_cl_device devs[3];
    size_t idx = 99;
    char err[128];
    fake_devices(devs);
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, NULL, &idx, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(idx, 1);
    idx = 99;
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, "", &idx, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(idx, 1);
    /* Without a GPU there is no default device (jobs use the CPU backend): a CPU device
     * such as PoCL plays slower than it and is used only when named. */
    idx = 99;
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 1, NULL, &idx, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_STRING_EQUAL(err, "no GPU among the 1 OpenCL device (name one to use it)");
    CU_ASSERT_EQUAL(idx, 99);
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 1, "0", &idx, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(idx, 0);
}

static void test_pick_by_index(void)
{
    struct battle_cl_device devs[3];
    size_t idx = 99;
    char err[128] = "";
    fake_devices(devs);
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, "2", &idx, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(idx, 2);
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, "0", &idx, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(idx, 0);
    idx = 99;
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, "3", &idx, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_EQUAL(idx, 99);
    CU_ASSERT_STRING_EQUAL(err, "no OpenCL device with index 3 (found 3)");
}

static void test_pick_by_name(void)
{
    struct battle_cl_device devs[3];
    size_t idx = 99;
    char err[128] = "";
    fake_devices(devs);
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, "h200", &idx, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(idx, 2);
    /* The platform name counts too; the first match wins. */
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, "portable", &idx, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(idx, 0);
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, "NVIDIA", &idx, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(idx, 1);
    /* Mixed digits and letters are a name, not an index. */
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, "100", &idx, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, "H100", &idx, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(idx, 1);
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, "radeon", &idx, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_STRING_EQUAL(err, "no OpenCL device matches \"radeon\"");
}

static void test_pick_cpu_and_empty(void)
{
    struct battle_cl_device devs[3];
    size_t idx = 99;
    char err[128] = "";
    fake_devices(devs);
    CU_ASSERT_TRUE(battle_cl_spec_is_cpu("cpu"));
    CU_ASSERT_TRUE(battle_cl_spec_is_cpu("CPU"));
    CU_ASSERT_FALSE(battle_cl_spec_is_cpu("cpux"));
    CU_ASSERT_FALSE(battle_cl_spec_is_cpu(NULL));
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 3, "cpu", &idx, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_EQUAL(battle_cl_pick(devs, 0, NULL, &idx, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_STRING_EQUAL(err, "no OpenCL device found");
    CU_ASSERT_EQUAL(idx, 99);
}

/* ===== On the PoCL device ===== */

static void test_devices_lists_pocl(void)
{
    struct battle_cl_device *devs = NULL;
    size_t n = 0;
    char err[256] = "";
    int pocl = 0;
    CU_ASSERT_EQUAL_FATAL(battle_cl_devices(&devs, &n, err, sizeof(err)), SK_OK);
    CU_ASSERT_TRUE(n >= 1);
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(devs[i].index, (int)i);
        CU_ASSERT_TRUE(devs[i].compute_units >= 1);
        pocl |= strstr(devs[i].platform, "Portable Computing Language") != NULL;
    }
    CU_ASSERT_TRUE(pocl);
    sk_free(devs);
}

static struct battle_cl *open_pocl(const char *source, char *err, size_t errlen, enum sk_err *e)
{
    struct battle_cl_opts o = {.device = "portable", .source = source};
    struct battle_cl *cl = NULL;
    *e = battle_cl_new(&o, &cl, err, errlen);
    return *e == SK_OK ? cl : NULL;
}

static void test_rng_on_device_matches_host(void)
{
    enum { N = 300, W = 9 };
    static uint32_t dev[N * W];
    char err[4096] = "";
    enum sk_err e;
    struct battle_cl *cl = open_pocl(NULL, err, sizeof(err), &e);
    const uint64_t seeds[2] = {0, 0x123456789abcdefULL};
    const uint64_t firsts[2] = {0, 0xfffffff0ULL}; /* crosses 2^32: ctr[1] carries */

    CU_ASSERT_EQUAL_FATAL(e, SK_OK);
    for (int s = 0; s < 2; s++) {
        CU_ASSERT_EQUAL_FATAL(
            battle_cl_rng_words(cl, seeds[s], firsts[s], N, W, dev, err, sizeof(err)), SK_OK);
        for (int i = 0; i < N; i++) {
            struct rng r;
            rng_init(&r, seeds[s], firsts[s] + (uint64_t)i);
            for (int w = 0; w < W; w++)
                CU_ASSERT_EQUAL(dev[i * W + w], rng_next(&r));
        }
    }
    /* Known answer: seed 0, game 0 is Philox4x32-10 of counter 0, key 0. */
    CU_ASSERT_EQUAL_FATAL(battle_cl_rng_words(cl, 0, 0, 1, 4, dev, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(dev[0], 0x6627e8d5u);
    CU_ASSERT_EQUAL(dev[1], 0xe169c58du);
    CU_ASSERT_EQUAL(dev[2], 0xbc57ac4cu);
    CU_ASSERT_EQUAL(dev[3], 0x9b00dbd8u);
    battle_cl_free(cl);
}

static void test_binary_cache(void)
{
    char err[4096] = "";
    enum sk_err e;
    struct battle_cl *cl;
    struct battle_cl_info info;
    char path[512];
    uint32_t w[4];
    FILE *f;
    struct stat st;

    cl_test_cache_empty(&cache);
    /* Empty cache: built from source, and the binary is written under the cache folder. */
    cl = open_pocl(NULL, err, sizeof(err), &e);
    CU_ASSERT_EQUAL_FATAL(e, SK_OK);
    battle_cl_describe(cl, &info);
    CU_ASSERT_EQUAL(info.from_cache, 0);
    CU_ASSERT_EQUAL(strncmp(info.cache_file, cache.dir, strlen(cache.dir)), 0);
    snprintf(path, sizeof(path), "%s", info.cache_file);
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_TRUE(st.st_size > 0);
    battle_cl_free(cl);

    /* Second open: loaded from that entry, and it runs. */
    cl = open_pocl(NULL, err, sizeof(err), &e);
    CU_ASSERT_EQUAL_FATAL(e, SK_OK);
    battle_cl_describe(cl, &info);
    CU_ASSERT_EQUAL(info.from_cache, 1);
    CU_ASSERT_STRING_EQUAL(info.cache_file, path);
    CU_ASSERT_EQUAL(battle_cl_rng_words(cl, 0, 0, 1, 4, w, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(w[0], 0x6627e8d5u);
    battle_cl_free(cl);

    /* A corrupt entry is not trusted: rebuilt from source and rewritten. */
    f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("not a program binary", f);
    fclose(f);
    cl = open_pocl(NULL, err, sizeof(err), &e);
    CU_ASSERT_EQUAL_FATAL(e, SK_OK);
    battle_cl_describe(cl, &info);
    CU_ASSERT_EQUAL(info.from_cache, 0);
    CU_ASSERT_EQUAL(battle_cl_rng_words(cl, 0, 0, 1, 4, w, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(w[0], 0x6627e8d5u);
    battle_cl_free(cl);
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_TRUE(st.st_size > 20);

    /* A different source is a different entry, built from source. */
    cl = open_pocl("__kernel void rng_words(ulong s, ulong f, uint w, uint n, __global uint *o)"
                   " { o[0] = 7; }\n",
                   err, sizeof(err), &e);
    CU_ASSERT_EQUAL_FATAL(e, SK_OK);
    battle_cl_describe(cl, &info);
    CU_ASSERT_EQUAL(info.from_cache, 0);
    CU_ASSERT_STRING_NOT_EQUAL(info.cache_file, path);
    CU_ASSERT_EQUAL(battle_cl_rng_words(cl, 0, 0, 1, 1, w, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(w[0], 7);
    battle_cl_free(cl);
}

static void test_build_failure_reports_log(void)
{
    char err[4096] = "";
    enum sk_err e;
    struct battle_cl *cl =
        open_pocl("__kernel void rng_words(__global uint *o) { o[0] = no_such_name; }\n", err,
                  sizeof(err), &e);
    CU_ASSERT_PTR_NULL(cl);
    CU_ASSERT_EQUAL(e, SK_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11)"));
    /* The compiler's own words about the bad identifier come from the build log. */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "no_such_name"));
}

static void test_open_errors(void)
{
    struct battle_cl_opts o = {.device = "no-such-device-anywhere"};
    struct battle_cl *cl = NULL;
    char err[256] = "";
    CU_ASSERT_EQUAL(battle_cl_new(&o, &cl, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_PTR_NULL(cl);
    CU_ASSERT_STRING_EQUAL(err, "no OpenCL device matches \"no-such-device-anywhere\"");
    o.device = "cpu";
    CU_ASSERT_EQUAL(battle_cl_new(&o, &cl, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NULL(cl);
    /* Without opts.device the environment variable decides. */
    setenv(BATTLE_CL_ENV_DEVICE, "99", 1);
    CU_ASSERT_EQUAL(battle_cl_new(NULL, &cl, err, sizeof(err)), SK_ENOTFOUND);
    unsetenv(BATTLE_CL_ENV_DEVICE);
    CU_ASSERT_PTR_NULL(cl);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "no OpenCL device with index 99"));
    /* Nothing named on this GPU-less host (PoCL only): no default device. */
    CU_ASSERT_EQUAL(battle_cl_new(NULL, &cl, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_PTR_NULL(cl);
    CU_ASSERT_STRING_EQUAL(err, "no GPU among the 1 OpenCL device (name one to use it)");
}

/* The work-group size, games per launch and games per work-item: the backend's own choice,
 * the environment's (SKIRMISH_CL_WORK_GROUP, SKIRMISH_CL_GAMES_PER_LAUNCH,
 * SKIRMISH_CL_GAMES_PER_ITEM: what the worker's configuration exports), opts over both, and
 * a bad value refused with the variable's name. */
static void test_sizes(void)
{
    struct battle_cl_opts o = {.device = "portable"};
    struct battle_cl *cl = NULL;
    struct battle_cl_info info;
    char err[256] = "";

    CU_ASSERT_EQUAL_FATAL(battle_cl_new(&o, &cl, err, sizeof(err)), SK_OK);
    battle_cl_describe(cl, &info);
    CU_ASSERT_EQUAL(info.work_group, 64);
    CU_ASSERT_EQUAL(info.per_launch % 64, 0);
    CU_ASSERT_EQUAL(info.per_item, 1); /* a CPU device: BATTLE_CL_PER_ITEM_DEFAULT on a GPU */
    /* 32 groups of 64 a compute unit, but never under 65,536 games. */
    CU_ASSERT_TRUE(info.per_launch >= 65536);
    battle_cl_free(cl);
    cl = NULL;

    setenv(BATTLE_CL_ENV_WORK_GROUP, "16", 1);
    setenv(BATTLE_CL_ENV_PER_LAUNCH, "1000", 1);
    setenv(BATTLE_CL_ENV_PER_ITEM, "3", 1);
    CU_ASSERT_EQUAL_FATAL(battle_cl_new(&o, &cl, err, sizeof(err)), SK_OK);
    battle_cl_describe(cl, &info);
    CU_ASSERT_EQUAL(info.work_group, 16);
    CU_ASSERT_EQUAL(info.per_launch, 1008); /* whole work-groups */
    CU_ASSERT_EQUAL(info.per_item, 3);
    battle_cl_free(cl);
    cl = NULL;

    o.work_group = 32;
    o.per_launch = 4096;
    o.per_item = 1;
    CU_ASSERT_EQUAL_FATAL(battle_cl_new(&o, &cl, err, sizeof(err)), SK_OK);
    battle_cl_describe(cl, &info);
    CU_ASSERT_EQUAL(info.work_group, 32);
    CU_ASSERT_EQUAL(info.per_launch, 4096);
    CU_ASSERT_EQUAL(info.per_item, 1);
    battle_cl_free(cl);
    cl = NULL;
    o.work_group = 0;
    o.per_launch = 0;
    o.per_item = BATTLE_CL_PER_ITEM_MAX + 1;
    CU_ASSERT_EQUAL(battle_cl_new(&o, &cl, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NULL(cl);
    CU_ASSERT_STRING_EQUAL(err, "games per work-item must be 1..1024, not 1025");
    o.per_item = 0;
    unsetenv(BATTLE_CL_ENV_PER_ITEM);

    /* "0" and empty leave the choice to the backend. */
    setenv(BATTLE_CL_ENV_WORK_GROUP, "0", 1);
    setenv(BATTLE_CL_ENV_PER_LAUNCH, "", 1);
    CU_ASSERT_EQUAL_FATAL(battle_cl_new(&o, &cl, err, sizeof(err)), SK_OK);
    battle_cl_describe(cl, &info);
    CU_ASSERT_EQUAL(info.work_group, 64);
    battle_cl_free(cl);
    cl = NULL;

    setenv(BATTLE_CL_ENV_WORK_GROUP, "sixteen", 1);
    CU_ASSERT_EQUAL(battle_cl_new(&o, &cl, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NULL(cl);
    CU_ASSERT_STRING_EQUAL(
        err, "SKIRMISH_CL_WORK_GROUP must be 0 (the backend's choice) or 1..1024, not 'sixteen'");
    setenv(BATTLE_CL_ENV_WORK_GROUP, "1025", 1);
    CU_ASSERT_EQUAL(battle_cl_new(&o, &cl, err, sizeof(err)), SK_EINVAL);
    unsetenv(BATTLE_CL_ENV_WORK_GROUP);
    setenv(BATTLE_CL_ENV_PER_LAUNCH, "2000000000", 1);
    CU_ASSERT_EQUAL(battle_cl_new(&o, &cl, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "SKIRMISH_CL_GAMES_PER_LAUNCH must be"));
    unsetenv(BATTLE_CL_ENV_PER_LAUNCH);
    CU_ASSERT_PTR_NULL(cl);
    setenv(BATTLE_CL_ENV_PER_ITEM, "2048", 1);
    CU_ASSERT_EQUAL(battle_cl_new(&o, &cl, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(
        err, "SKIRMISH_CL_GAMES_PER_ITEM must be 0 (the backend's choice) or 1..1024, not '2048'");
    unsetenv(BATTLE_CL_ENV_PER_ITEM);
    CU_ASSERT_PTR_NULL(cl);
}

/* ===== No platform ===== */

#define CHILD_ENV "SK_TEST_CL_NO_PLATFORM"

/* In the child (CHILD_ENV set, the ICD loader pointed at an empty folder): no devices is
 * not an error, and opening the default device says there is none. */
static void no_platform_child(void)
{
    struct battle_cl_device *devs = NULL;
    struct battle_cl *cl = NULL;
    size_t n = 1;
    char err[256] = "";
    CU_ASSERT_EQUAL(battle_cl_devices(&devs, &n, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_PTR_NULL(devs);
    CU_ASSERT_EQUAL(battle_cl_new(NULL, &cl, err, sizeof(err)), SK_ENOTFOUND);
    CU_ASSERT_STRING_EQUAL(err, "no OpenCL device found");
}

static void test_no_platform(void)
{
    if (getenv(CHILD_ENV))
        no_platform_child();
    else
        cl_test_run_without_platform("battle_cl_no_platform", CHILD_ENV);
}

static CU_TestInfo pick_tests[] = {
    {"default prefers a GPU", test_pick_default_prefers_gpu},
    {"index", test_pick_by_index},
    {"name or platform substring", test_pick_by_name},
    {"cpu and no devices", test_pick_cpu_and_empty},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo device_tests[] = {
    {"devices lists PoCL", test_devices_lists_pocl},
    {"rng.h on the device equals the host", test_rng_on_device_matches_host},
    {"program-binary cache", test_binary_cache},
    {"clBuildProgram failure carries the build log", test_build_failure_reports_log},
    {"open errors", test_open_errors},
    {"work-group size and games per launch", test_sizes},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo no_platform_tests[] = {
    {"no OpenCL platform", test_no_platform},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_cl_suites[] = {
    {"battle_cl_pick", NULL, NULL, NULL, NULL, pick_tests},
    {"battle_cl_device", suite_init, suite_clean, NULL, NULL, device_tests},
    {"battle_cl_no_platform", NULL, NULL, NULL, NULL, no_platform_tests},
    CU_SUITE_INFO_NULL,
};
