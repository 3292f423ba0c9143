/* SPDX-License-Identifier: MIT */
/* Board engine benchmark: one full turn (start of turn, spell execution, movement, combat,
 * end of turn) on a crowded classic board: 60 groups of 4 to 8 minions, red and blue
 * interleaved so most groups fight, 30 movement orders and 20 spells in play. Prints a
 * table; it never asserts timings (bench/RESULTS.md records them). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "board_int.h"
#include "sk_mem.h"

#include "sk_banned.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The crowded board as job params. `seed` varies classes and sizes (a tiny LCG). */
static json_t *crowded(unsigned seed, int ngroups, int nspells)
{
    static const char *const classes[] = {"swordsman", "archer", "swordsman", "bard"};
    static const char *const nations[] = {"human", "elf", "dwarf", "satyr", "keeper", "shadow"};
    static const char *const dirs[] = {"up", "right", "down", "left"};
    json_t *groups = json_array(), *orders = json_array(), *spells = json_array();
    unsigned x = seed * 2654435761u + 1;
    int made = 0;

    for (int r = 0; r < 12 && made < ngroups; r++) {
        for (int c = 0; c < 12 && made < ngroups; c++) {
            json_t *ms;
            char id[32];
            int n;
            if (r + c <= 5 || r + c >= 17 || (r == 3 && c == 3) || (r == 8 && c == 8) ||
                (r == 0 && c == 6) || (r == 6 && c == 0) || (r == 11 && c == 5) ||
                (r == 5 && c == 11) || (r == 1 && c == 10) || (r == 10 && c == 1) ||
                (r == 0 && c == 11) || (r == 11 && c == 0))
                continue;
            if ((r * 12 + c) % 3 == 2)
                continue; /* leave room to move */
            x = x * 1103515245u + 12345u;
            n = 4 + (int)((x >> 16) % 5);
            ms = json_array();
            for (int i = 0; i < n; i++) {
                char mid[32];
                snprintf(mid, sizeof(mid), "m%d_%d", made, i);
                json_array_append_new(ms, json_pack("{ss ss ss}", "id", mid, "class",
                                                    classes[(made + i) % 4], "nation",
                                                    nations[(made * 3 + i) % 6]));
            }
            snprintf(id, sizeof(id), "g%d", made);
            json_array_append_new(groups, json_pack("{ss ss s[ii] so}", "id", id, "owner",
                                                    (r + c) % 2 ? "red" : "blue", "at", r, c,
                                                    "minions", ms));
            if (made % 2 == 0)
                json_array_append_new(orders,
                                      json_pack("{ss ss}", "group", id, "move", dirs[made % 4]));
            made++;
        }
    }
    for (int i = 0; i < nspells; i++) {
        static const char *const ind[] = {"Ogi's Armor", "Spirit Sword", "Deflection",
                                          "Treacherous Armor", "Gorgon's Gaze"};
        static const char *const grp[] = {"Despond", "Plague", "Diomesia's Calm"};
        char mid[32], gid[32];
        int g = (i * 7) % made;
        snprintf(mid, sizeof(mid), "m%d_0", g);
        snprintf(gid, sizeof(gid), "g%d", g);
        if (i % 4 == 3)
            json_array_append_new(spells, json_pack("{ss ss s{s[ii]}}", "spell", "Thorns", "caster",
                                                    i % 2 ? "red" : "blue", "target", "square",
                                                    4 + i % 5, 4 + (i * 3) % 5));
        else if (i % 2)
            json_array_append_new(spells,
                                  json_pack("{ss ss s{ss}}", "spell", grp[i % 3], "caster",
                                            i % 4 ? "red" : "blue", "target", "group", gid));
        else
            json_array_append_new(spells, json_pack("{ss ss s{ss}}", "spell", ind[i % 5], "caster",
                                                    "red", "target", "minion", mid));
    }
    return json_pack("{s{s{} so so} so si}", "state", "board", "groups", groups, "spells", spells,
                     "orders", orders, "turns", 1);
}

#define VARIANTS 8

static int bench(const char *name, int ngroups, int nspells, int log, int reps)
{
    struct board_input *in[VARIANTS] = {NULL};
    double *t = sk_calloc((size_t)reps, sizeof(double));
    double total = 0;
    size_t events = 0, fights = 0;
    int minions = 0, live_after = 0, rc = 1;

    /* Decoding is not timed: each rep clones one of a few decoded boards. */
    for (int v = 0; v < VARIANTS; v++) {
        json_t *params = crowded((unsigned)v, ngroups, nspells);
        struct sk_verr_list errs;
        struct sk_jptr ptr;
        sk_verr_list_init(&errs);
        sk_jptr_init(&ptr);
        if (board_codec_decode(params, &ptr, &errs, &in[v]) != SK_OK) {
            fprintf(stderr, "%s: %s\n", errs.items[0].pointer, errs.items[0].message);
            sk_verr_list_release(&errs);
            json_decref(params);
            goto out;
        }
        sk_verr_list_release(&errs);
        json_decref(params);
    }
    for (int g = 0; g < in[0]->st->ngroups; g++)
        minions += in[0]->st->groups[g].n;
    for (int k = 0; k < reps; k++) {
        const struct board_input *x = in[k % VARIANTS];
        struct board_state *st = board_state_clone(x->st);
        struct board_plan plan = {x->orders, x->norders, x->casts, x->ncasts, (uint64_t)k};
        double t0;

        st->log_enabled = log;
        t0 = now_us();
        board_turn_run(st, &plan);
        t[k] = now_us() - t0;
        total += t[k];
        events += st->nlog;
        for (size_t e = 0; e < st->nlog; e++)
            fights += st->log[e].type == BOARD_EV_COMBAT;
        if (k == 0)
            live_after = st->ngroups;
        board_state_free(st);
    }
    qsort(t, (size_t)reps, sizeof(double), cmp_double);
    printf("| %-22s | %6d | %7d | %6d | %4d | %8.1f | %8.1f | %8.1f | %8.1f |\n", name, ngroups,
           minions, nspells, live_after, log ? (double)events / reps : 0.0, (double)fights / reps,
           t[reps / 2], total / reps);
    rc = 0;
out:
    for (int v = 0; v < VARIANTS; v++)
        board_codec_free(in[v]);
    sk_free(t);
    return rc;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 200;
    sk_mem_init_json();
    printf("| %-22s | %6s | %7s | %6s | %4s | %8s | %8s | %8s | %8s |\n", "board", "groups",
           "minions", "spells", "left", "events", "fights", "p50 us", "mean us");
    if (reps < 1)
        reps = 1;
    printf("|%s|\n", "------------------------|--------|---------|--------|------|----------|"
                     "----------|----------|----------");
    if (bench("crowded, event log", 60, 20, 1, reps) || bench("crowded, no log", 60, 20, 0, reps) ||
        bench("half, event log", 30, 10, 1, reps))
        return 1;
    return 0;
}
