/* SPDX-License-Identifier: MIT */
/* Loading the game's card files: how long battle_tu_load (read and parse every file with
 * libxml2, build every unit and level) and battle_catalog_from_tu (sort, index by name, by
 * name as players write it and by id) take for a folder such as ../shared/data/tu, i.e. the
 * start-up cost of SKIRMISH_CARDS_DIR, and then the missions and raids (battle_missions_load,
 * battle_catalog_set_enemies: what a catalog does on first use since 2026-12-07, not at
 * start-up; docs/cards.md). Prints the best and median of N loads, wall and CPU
 * time; asserts
 * nothing (the goal, under 300 ms, is in bench/RESULTS.md).
 * Usage: cards_bench DIR [RUNS] (default 5). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "battle_catalog.h"
#include "battle_tu.h"
#include "sk_parse.h"

#include "sk_banned.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int64_t runs = 5;
    double t_load[64], t_index[64], t_enemy[64], t_enemy_cpu[64], t_all[64], t_cpu[64];
    size_t cards = 0, notes_n = 0, enemies = 0;

    if (argc < 2 || (argc > 2 && sk_parse_i64(argv[2], 1, 64, &runs) != SK_OK)) {
        fprintf(stderr, "usage: cards_bench DIR [RUNS 1..64]\n");
        return 2;
    }
    for (int r = 0; r < runs; r++) {
        struct battle_tu_data data;
        struct sk_verr_list notes;
        struct battle_missions_data md;
        struct battle_catalog *cat = NULL;
        char err[512] = "";
        double c0 = cpu_s(), t0 = now_s(), t1, t2, t3, c2;

        memset(&data, 0, sizeof(data));
        sk_verr_list_init(&notes);
        if (battle_tu_load(argv[1], &data, &notes, err, sizeof(err)) != SK_OK) {
            fprintf(stderr, "cards_bench: %s\n", err);
            return 1;
        }
        t1 = now_s();
        if (battle_catalog_from_tu(&data, argv[1], &cat) != SK_OK) {
            fprintf(stderr, "cards_bench: out of memory\n");
            return 1;
        }
        t2 = now_s();
        c2 = cpu_s();
        if (battle_missions_load(argv[1], &md, &data.hash, &notes, err, sizeof(err)) != SK_OK ||
            battle_catalog_set_enemies(cat, &md) != SK_OK) {
            fprintf(stderr, "cards_bench: missions: %s\n", err);
            return 1;
        }
        t3 = now_s();
        t_enemy_cpu[r] = (cpu_s() - c2) * 1e3;
        t_cpu[r] = (cpu_s() - c0) * 1e3;
        cards = battle_catalog_count(cat);
        enemies = battle_catalog_enemy_count(cat);
        notes_n = notes.n;
        battle_catalog_free(cat);
        sk_verr_list_release(&notes);
        t_load[r] = (t1 - t0) * 1e3;
        t_index[r] = (t2 - t1) * 1e3;
        t_enemy[r] = (t3 - t2) * 1e3;
        t_all[r] = (t3 - t0) * 1e3;
    }
    qsort(t_load, (size_t)runs, sizeof(double), dbl_cmp);
    qsort(t_index, (size_t)runs, sizeof(double), dbl_cmp);
    qsort(t_enemy, (size_t)runs, sizeof(double), dbl_cmp);
    qsort(t_enemy_cpu, (size_t)runs, sizeof(double), dbl_cmp);
    qsort(t_all, (size_t)runs, sizeof(double), dbl_cmp);
    qsort(t_cpu, (size_t)runs, sizeof(double), dbl_cmp);
    printf("cards: %zu, missions and raids: %zu, notes: %zu, runs: %lld\n", cards, enemies, notes_n,
           (long long)runs);
    printf("| step | best ms | median ms |\n|---|---:|---:|\n");
    printf("| read + parse + build (battle_tu_load) | %.1f | %.1f |\n", t_load[0],
           t_load[runs / 2]);
    printf("| sort + index (battle_catalog_from_tu) | %.1f | %.1f |\n", t_index[0],
           t_index[runs / 2]);
    printf("| missions + raids (battle_missions_load + battle_catalog_set_enemies) | %.1f | "
           "%.1f |\n",
           t_enemy[0], t_enemy[runs / 2]);
    printf("| total | %.1f | %.1f |\n", t_all[0], t_all[runs / 2]);
    /* CPU time does not count the time other processes took the core: on a busy machine
     * it is the better estimate of the load on an idle one. */
    printf("| total, CPU time of the process | %.1f | %.1f |\n", t_cpu[0], t_cpu[runs / 2]);
    printf("| missions + raids, CPU time | %.1f | %.1f |\n", t_enemy_cpu[0], t_enemy_cpu[runs / 2]);
    return 0;
}
