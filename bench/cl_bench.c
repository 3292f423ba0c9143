/* SPDX-License-Identifier: MIT */
/* Games per second of the battle backends on the two reference matchups of
 * rules/battle.md: the CPU backend on 1 thread and on every core, and the OpenCL backend
 * on a device (PoCL by default; SKIRMISH_DEVICE syntax) on the general program and on each
 * plan's own (cl-gen, cl-spec), with the work-group size and games per launch it chose and
 * a few alternatives; before them each program's build and cached-load seconds and its
 * memory figures (CL_BENCH_GENERAL=0: not the general program). Prints tables; asserts
 * nothing.
 *   cl_bench [games] [device]        defaults: 400000 games, SKIRMISH_DEVICE or the default */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "battle.h"
#include "battle_cards.h"
#include "battle_cl.h"
#include "battle_cpu.h"
#include "battle_plan.h"
#include "battle_sim.h"
#include "battle_spec.h"
#include "bench_matchup.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void row(const char *matchup_name, const char *backend, const char *where, const char *wg,
                const char *per, const struct battle_counts *c, double secs)
{
    printf("%-9s %-7s %-34.34s %5s %9s %9llu %8.3f %11.0f   %6.2f/%5.2f/%5.2f\n", matchup_name,
           backend, where, wg, per, (unsigned long long)c->games, secs, (double)c->games / secs,
           100.0 * (double)c->wins / (double)c->games, 100.0 * (double)c->stalls / (double)c->games,
           100.0 * (double)c->losses / (double)c->games);
}

static int bench_cpu(const char *name, const struct battle_plan *plan, uint64_t games, int threads)
{
    struct battle_counts *c = sk_calloc(1, sizeof(*c));
    char where[64];
    double t0;
    if (!c)
        return 1;
    t0 = now_s();
    if (battle_cpu_run(plan, 0, games, threads, c) != SK_OK) {
        sk_free(c);
        return 1;
    }
    snprintf(where, sizeof(where), "%d thread%s", threads, threads == 1 ? "" : "s");
    row(name, "cpu", where, "-", "-", c, now_s() - t0);
    sk_free(c);
    return 0;
}

static int bench_cl(const char *name, const struct battle_plan *plan, uint64_t games,
                    const char *device, int general, size_t wg, uint64_t per)
{
    struct battle_cl_opts o = {
        .device = device, .work_group = wg, .per_launch = per, .general = general};
    struct battle_cl *cl = NULL;
    struct battle_counts *c = sk_calloc(1, sizeof(*c));
    struct battle_cl_info info;
    char err[4096] = "", swg[32], sper[32];
    double t0, secs;
    int rc = 1;

    if (!c)
        return 1;
    if (battle_cl_open(&o, &cl, err, sizeof(err)) != SK_OK) {
        fprintf(stderr, "cl_bench: %s\n", err);
        goto out;
    }
    /* Warm-up launches, which build the plan's program: a short one, then a whole launch
     * (PoCL compiles the kernel for each work-group size and grid it meets on first use,
     * a one-time cost, not throughput). */
    if (battle_cl_run(cl, plan, 0, 64, c, err, sizeof(err)) != SK_OK) {
        fprintf(stderr, "cl_bench: %s\n", err);
        goto out;
    }
    battle_cl_describe(cl, &info);
    if (battle_cl_run(cl, plan, 0, info.per_launch, c, err, sizeof(err)) != SK_OK) {
        fprintf(stderr, "cl_bench: %s\n", err);
        goto out;
    }
    memset(c, 0, sizeof(*c));
    t0 = now_s();
    if (battle_cl_run(cl, plan, 0, games, c, err, sizeof(err)) != SK_OK) {
        fprintf(stderr, "cl_bench: %s\n", err);
        goto out;
    }
    secs = now_s() - t0;
    snprintf(swg, sizeof(swg), "%zu%s", info.work_group, wg ? "" : "*");
    snprintf(sper, sizeof(sper), "%llu%s", (unsigned long long)info.per_launch, per ? "" : "*");
    row(name, general ? "cl-gen" : "cl-spec", info.device, swg, sper, c, secs);
    rc = 0;
out:
    battle_cl_free(cl);
    sk_free(c);
    return rc;
}

/* Times a program's build and a first launch of one game of `plan` (PoCL compiles the kernel
 * for its launch geometry then), then the same again in a new handle, as a new process
 * would, which loads it from the binary cache; prints them and the program's memory
 * figures: the general program (`general`) or the one specialised for `plan`. The cache is
 * the handle's default (SKIRMISH_CL_CACHE...), so the rows after it load the program: the
 * first figure is a build only when the cache did not hold it (the row says which). */
static void bench_build(const char *device, const char *name, const struct battle_plan *plan,
                        int general)
{
    struct battle_cl_opts o = {.device = device, .general = general};
    struct battle_cl *cl = NULL;
    struct battle_cl_info info;
    struct battle_counts *c = sk_calloc(1, sizeof(*c));
    char err[4096] = "";
    double t0, secs[2] = {0, 0};
    int cached0 = 0;
    enum sk_err e;

    if (!c)
        return;
    for (int pass = 0; pass < 2; pass++) {
        t0 = now_s();
        e = battle_cl_open(&o, &cl, err, sizeof(err));
        if (!e)
            e = battle_cl_run(cl, plan, 0, 1, c, err, sizeof(err));
        if (e) {
            fprintf(stderr, "cl_bench: %s\n", err);
            break;
        }
        secs[pass] = now_s() - t0;
        battle_cl_describe(cl, &info);
        if (pass == 0)
            cached0 = info.from_cache;
        else
            printf("%-20s %12.3f %12s %12.3f %12llu %10llu\n", name, secs[0],
                   cached0 ? "cache" : "source", secs[1], (unsigned long long)info.private_mem,
                   (unsigned long long)info.local_mem);
        battle_cl_free(cl);
        cl = NULL;
    }
    sk_free(c);
}

int main(int argc, char **argv)
{
    uint64_t games = 400000;
    /* Without a GPU jobs use the CPU backend (no default device), so the bench then
     * measures the first OpenCL device (PoCL here): naming one still picks it. */
    const char *device = argc > 2 ? argv[2] : getenv(BATTLE_CL_ENV_DEVICE);
    static struct battle_card_spec cards[BATTLE_CARDS_MAX];
    struct battle_spec spec;
    struct battle_plan *plans[2] = {NULL, NULL};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    /* CL_BENCH_GENERAL=0 leaves out the general program (its build took six minutes on an
     * H200's driver: bench/gpu.sh does so unless told otherwise). */
    const char *gen = getenv("CL_BENCH_GENERAL");
    int general = !gen || strcmp(gen, "0") != 0;
    int rc = 0;

    if (argc > 1 && sk_parse_u64(argv[1], 1, BATTLE_GAMES_MAX, &games) != SK_OK) {
        fprintf(stderr, "usage: cl_bench [games] [device]\n");
        return 2;
    }
    sk_mem_init_json();
    /* The build figures are first builds: NVIDIA's cache of compiled kernels off (read when
     * its platform starts, which is after this), and the binary cache of battle_cl a folder
     * of the bench's own, empty at first. PoCL's own kernel cache stays as the caller has it
     * (POCL_KERNEL_CACHE=0 for PoCL's first builds): without it PoCL compiles again for
     * every launch geometry it meets, inside the timed runs. */
    setenv("CUDA_CACHE_DISABLE", "1", 0);
    if (!device || !*device) {
        struct battle_cl_device *devs = NULL;
        size_t n = 0, idx = 0;
        char why[256];
        if (battle_cl_devices(&devs, &n, why, sizeof(why)) == SK_OK &&
            battle_cl_pick(devs, n, NULL, &idx, why, sizeof(why)) != SK_OK)
            device = "0";
        sk_free(devs);
    }
    printf("cl_bench: %llu games per row, %ld online cores; * = chosen by the backend\n\n",
           (unsigned long long)games, cores);
    for (int m = 0; m < 2; m++) {
        char err[256];
        bench_matchup(&spec, cards, m + 1, 1, games);
        if (battle_plan_new(&spec, &plans[m], err, sizeof(err)) != SK_OK) {
            fprintf(stderr, "cl_bench: %s\n", err);
            return 1;
        }
    }
    /* Each program's first build (PoCL may also reuse its own kernel cache) and its load
     * from the binary cache, each with a first launch; memory as the driver says, per
     * work-item (private) and per group (local). */
    printf("%-20s %12s %12s %12s %12s %10s\n", "program", "first s", "first from", "cached s",
           "private B", "local B");
    if (general)
        bench_build(device, "general", plans[0], 1);
    bench_build(device, "specialised ref-1", plans[0], 0);
    bench_build(device, "specialised ref-2", plans[1], 0);
    printf("\n%-9s %-7s %-34s %5s %9s %9s %8s %11s   %s\n", "matchup", "backend", "threads/device",
           "wg", "launch", "games", "seconds", "games/s", "win/stall/loss %");
    for (int m = 0; m < 2; m++) {
        const char *name = m == 0 ? "ref-1" : "ref-2";
        struct battle_plan *plan = plans[m];
        rc |= bench_cpu(name, plan, games, 1);
        if (cores > 1)
            rc |= bench_cpu(name, plan, games, (int)cores);
        if (general)
            rc |= bench_cl(name, plan, games, device, 1, 0, 0);
        rc |= bench_cl(name, plan, games, device, 0, 0, 0);
        rc |= bench_cl(name, plan, games, device, 0, 16, 0);
        rc |= bench_cl(name, plan, games, device, 0, 256, 0);
        rc |= bench_cl(name, plan, games, device, 0, 0, 4096);
        battle_plan_free(plan);
    }
    return rc;
}
