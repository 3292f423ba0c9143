/* SPDX-License-Identifier: MIT */
/* Battle CPU backend throughput: games per second for the two reference matchups of
 * rules/battle.md (attacker first, random play), on one thread and on every online core,
 * and the size of one game's state. Prints a table; asserts nothing about timings.
 * Usage: battle_bench [games per run, default 1000000] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "battle.h"
#include "battle_cards.h"
#include "battle_cpu.h"
#include "battle_plan.h"
#include "battle_sim.h"
#include "battle_spec.h"
#include "bench_matchup.h"
#include "sk_parse.h"

#include "sk_banned.h"

static struct battle_card_spec cards[BATTLE_CARDS_MAX];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    uint64_t games = 1000000;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (argc > 1 && sk_parse_u64(argv[1], 1, BATTLE_GAMES_MAX, &games)) {
        fprintf(stderr, "usage: %s [games per run]\n", argv[0]);
        return 2;
    }
    if (cores < 1)
        cores = 1;
    printf("battle CPU backend: %" PRIu64 " games per run, %ld online cores, game state %zu "
           "bytes, plan data %zu bytes\n\n",
           games, cores, sizeof(struct battle_game), battle_plan_data_size());
    printf(
        "| matchup | threads | seconds | games/s | games/s per thread | win / stall / loss %% |\n");
    printf("|---|---:|---:|---:|---:|---|\n");
    for (int m = 1; m <= 2; m++) {
        struct battle_spec spec;
        struct battle_plan *plan = NULL;
        char err[200];
        bench_matchup(&spec, cards, m, 20261121, 0);
        if (battle_plan_new(&spec, &plan, err, sizeof(err))) {
            fprintf(stderr, "battle_plan_new: %s\n", err);
            return 1;
        }
        for (int pass = 0; pass < 2; pass++) {
            int threads = pass == 0 ? 1 : (int)cores;
            struct battle_counts c;
            double t0, dt;
            memset(&c, 0, sizeof(c));
            t0 = now();
            if (battle_cpu_run(plan, 0, games, threads, &c)) {
                fprintf(stderr, "battle_cpu_run failed\n");
                battle_plan_free(plan);
                return 1;
            }
            dt = now() - t0;
            printf("| %d | %d | %.2f | %.0f | %.0f | %.2f / %.2f / %.2f |\n", m, threads, dt,
                   (double)games / dt, (double)games / dt / threads,
                   100.0 * (double)c.wins / (double)c.games,
                   100.0 * (double)c.stalls / (double)c.games,
                   100.0 * (double)c.losses / (double)c.games);
        }
        battle_plan_free(plan);
    }
    return 0;
}
