/* SPDX-License-Identifier: MIT */
/* The CPU backend: splits a range of games into one contiguous part per thread, plays
 * each game with the shared rules of battle_sim.h and sums per-thread counts. Counts do
 * not depend on the split because game i only draws from (seed, i). It does not prepare
 * plans (battle_plan) or report progress (the job layer calls it in chunks). */
#include "battle_cpu.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "battle_sim.h"
#include "sk_mem.h"

#include "sk_banned.h"

struct part {
    const struct battle_plan *plan;
    uint64_t first;
    uint64_t n;
    struct battle_counts counts;
    enum sk_err rc;
};

void battle_cpu_count(struct battle_counts *acc, const struct battle_game_result *r)
{
    acc->games++;
    if (r->outcome == BATTLE_SIM_WIN)
        acc->wins++;
    else if (r->outcome == BATTLE_SIM_LOSS)
        acc->losses++;
    else
        acc->stalls++;
    acc->bounded += r->bounded;
    acc->turns_sum += r->turn;
    acc->turns[r->turn]++;
    acc->points_sum += r->points;
    acc->points_sq += (uint64_t)r->points * r->points;
}

/* Plays game `game` of `plan` on the plan's data, or on this thread's copy of a plan that
 * makes its variants during play (battle_plan_game_data). A game that filled a copy's table
 * (lazy 2) after earlier games had filled part of it is played again on a fresh copy, so that
 * its result never depends on the games the thread played before; one that fills a fresh
 * copy ends bounded, as it does on every thread. SK_ENOMEM when no copy can be made. */
static enum sk_err play_game(const struct battle_plan *plan, uint64_t game,
                             struct battle_game_result *out)
{
    const struct battle_plan_data *d = battle_plan_game_data(plan);
    int fresh;
    if (!d)
        return SK_ENOMEM;
    fresh = d->n_cards == battle_plan_data(plan)->n_cards;
    battle_sim_play(d, battle_plan_seed(plan), game, out);
    if (d->lazy == 2 && !fresh) {
        d = battle_plan_game_data(plan); /* renewed: it was full */
        if (!d)
            return SK_ENOMEM;
        battle_sim_play(d, battle_plan_seed(plan), game, out);
    }
    return SK_OK;
}

void battle_cpu_play_one(const struct battle_plan *plan, uint64_t game,
                         struct battle_game_result *out)
{
    if (play_game(plan, game, out) != SK_OK) {
        /* No memory for a lazy plan's copy: a game that stopped at once, counted as
         * bounded, so that the job's result shows it (battle_cpu.h). */
        memset(out, 0, sizeof(*out));
        out->outcome = BATTLE_SIM_STALL;
        out->turn = battle_plan_data(plan)->first_turn;
        out->bounded = 1;
    }
}

static void *run_part(void *arg)
{
    struct part *pt = arg;
    struct battle_game_result r;
    for (uint64_t i = 0; i < pt->n; i++) {
        pt->rc = play_game(pt->plan, pt->first + i, &r);
        if (pt->rc)
            break;
        battle_cpu_count(&pt->counts, &r);
    }
    return NULL;
}

enum sk_err battle_cpu_run(const struct battle_plan *plan, uint64_t first_game, uint64_t n_games,
                           int threads, struct battle_counts *acc)
{
    struct part *parts = NULL;
    pthread_t *tids = NULL;
    int started = 0;
    enum sk_err rc = SK_OK;
    uint64_t at = first_game;

    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if ((uint64_t)threads > n_games)
        threads = n_games > 0 ? (int)n_games : 1;
    parts = sk_calloc((size_t)threads, sizeof(*parts));
    tids = sk_calloc((size_t)threads, sizeof(*tids));
    if (!parts || !tids) {
        rc = SK_ENOMEM;
        goto out;
    }
    for (int t = 0; t < threads; t++) {
        /* Static partition: the first (n % threads) parts take one game more. */
        uint64_t n = n_games / (uint64_t)threads + ((uint64_t)t < n_games % (uint64_t)threads);
        parts[t].plan = plan;
        parts[t].first = at;
        parts[t].n = n;
        at += n;
    }
    if (threads == 1) {
        run_part(&parts[0]);
    } else {
        for (; started < threads; started++)
            if (pthread_create(&tids[started], NULL, run_part, &parts[started]) != 0) {
                rc = SK_EIO;
                break;
            }
        for (int t = 0; t < started; t++)
            pthread_join(tids[t], NULL);
    }
    for (int t = 0; t < threads && !rc; t++)
        rc = parts[t].rc;
    if (rc)
        goto out;
    for (int t = 0; t < threads; t++)
        battle_counts_add(acc, &parts[t].counts);
out:
    sk_free(tids);
    sk_free(parts);
    return rc;
}
