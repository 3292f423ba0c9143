/* SPDX-License-Identifier: MIT */
/* Games per second of the battle backends on the two reference matchups of
 * rules/battle.md: the CPU backend on 1 thread and on every core, and the OpenCL backend
 * on a device (PoCL by default; SKIRMISH_DEVICE syntax), with the work-group size and
 * games per launch it chose and a few alternatives. Prints a table; asserts nothing.
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
                    const char *device, size_t wg, uint64_t per)
{
    struct battle_cl_opts o = {.device = device, .work_group = wg, .per_launch = per};
    struct battle_cl *cl = NULL;
    struct battle_counts *c = sk_calloc(1, sizeof(*c));
    struct battle_cl_info info;
    char err[4096] = "", swg[32], sper[32];
    double t0, secs;
    int rc = 1;

    if (!c)
        return 1;
    if (battle_cl_new(&o, &cl, err, sizeof(err)) != SK_OK) {
        fprintf(stderr, "cl_bench: %s\n", err);
        goto out;
    }
    battle_cl_describe(cl, &info);
    /* A short warm-up launch: PoCL specialises the kernel for a work-group size on first
     * use, which is a one-time cost, not throughput. */
    if (battle_cl_run(cl, plan, 0, info.work_group, c, err, sizeof(err)) != SK_OK) {
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
    row(name, "opencl", info.device, swg, sper, c, secs);
    rc = 0;
out:
    battle_cl_free(cl);
    sk_free(c);
    return rc;
}

/* Times opening the device: building from source into an empty cache, then from the cache. */
static void bench_open(const char *device)
{
    char dir[] = "/tmp/skirmish-cl-bench.XXXXXX";
    struct battle_cl_opts o = {.device = device};
    struct battle_cl *cl = NULL;
    struct battle_cl_info info;
    char err[4096] = "", file[4096] = "";
    double t0;

    if (!mkdtemp(dir))
        return;
    o.cache_dir = dir;
    for (int pass = 0; pass < 2; pass++) {
        t0 = now_s();
        if (battle_cl_new(&o, &cl, err, sizeof(err)) != SK_OK) {
            fprintf(stderr, "cl_bench: %s\n", err);
            break;
        }
        battle_cl_describe(cl, &info);
        printf("open + build (%s): %.3f s%s\n", info.from_cache ? "binary cache" : "from source",
               now_s() - t0, info.from_cache ? "" : " (PoCL may also reuse its own kernel cache)");
        if (pass == 0)
            printf("battle kernel: %llu bytes of private memory a work-item, %llu of local "
                   "memory a group (as the driver says)\n",
                   (unsigned long long)info.private_mem, (unsigned long long)info.local_mem);
        if (*info.cache_file)
            snprintf(file, sizeof(file), "%s", info.cache_file);
        battle_cl_free(cl);
        cl = NULL;
    }
    if (*file)
        unlink(file);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    uint64_t games = 400000;
    /* Without a GPU jobs use the CPU backend (no default device), so the bench then
     * measures the first OpenCL device (PoCL here): naming one still picks it. */
    const char *device = argc > 2 ? argv[2] : getenv(BATTLE_CL_ENV_DEVICE);
    static struct battle_card_spec cards[BATTLE_CARDS_MAX];
    struct battle_spec spec;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int rc = 0;

    if (argc > 1 && sk_parse_u64(argv[1], 1, BATTLE_GAMES_MAX, &games) != SK_OK) {
        fprintf(stderr, "usage: cl_bench [games] [device]\n");
        return 2;
    }
    sk_mem_init_json();
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
    bench_open(device);
    printf("\n%-9s %-7s %-34s %5s %9s %9s %8s %11s   %s\n", "matchup", "backend", "threads/device",
           "wg", "launch", "games", "seconds", "games/s", "win/stall/loss %");
    for (int m = 0; m < 2; m++) {
        struct battle_plan *plan = NULL;
        char err[256];
        const char *name = m == 0 ? "ref-1" : "ref-2";
        bench_matchup(&spec, cards, m + 1, 1, games);
        if (battle_plan_new(&spec, &plan, err, sizeof(err)) != SK_OK) {
            fprintf(stderr, "cl_bench: %s\n", err);
            return 1;
        }
        rc |= bench_cpu(name, plan, games, 1);
        if (cores > 1)
            rc |= bench_cpu(name, plan, games, (int)cores);
        rc |= bench_cl(name, plan, games, device, 0, 0);
        rc |= bench_cl(name, plan, games, device, 16, 0);
        rc |= bench_cl(name, plan, games, device, 256, 0);
        rc |= bench_cl(name, plan, games, device, 0, 4096);
        battle_plan_free(plan);
    }
    return rc;
}
