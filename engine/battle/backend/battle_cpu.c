/* SPDX-License-Identifier: MIT */
/* The CPU backend: the threads of a call take the games of its range one at a time, in
 * order, play each with the shared rules of battle_sim.h and sum per-thread counts. Counts
 * do not depend on which thread played which game because game i only draws from
 * (seed, i). Taking games in order is what lets a call stop at a deadline with a prefix of
 * its range played: every game taken is finished, none after it was taken. It does not
 * prepare plans (battle_plan) or report progress (the job layer calls it in chunks). */
#include "battle_cpu.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "battle_sim.h"
#include "sk_cores.h"
#include "sk_mem.h"
#include "sk_time.h"

#include "sk_banned.h"

/* What the threads of one call share. */
struct range {
    const struct battle_plan *plan;
    uint64_t first, end;        /* games [first, end) */
    int64_t deadline_ms;        /* take no game once due (after the first); 0 = none */
    atomic_uint_least64_t next; /* the next game to take; may pass `end` */
    atomic_int failed;          /* a thread failed: the others stop taking games */
};

struct part {
    struct range *r;
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

/* A thread of the call: takes the next game until the range is played, a thread failed
 * or the deadline has come (looked at once a game has been taken, so that a call always
 * plays at least one). */
static void *run_part(void *arg)
{
    struct part *pt = arg;
    struct range *r = pt->r;
    struct battle_game_result res;

    while (!atomic_load(&r->failed)) {
        uint64_t g;
        if (r->deadline_ms > 0 && atomic_load(&r->next) > r->first && sk_time_due(r->deadline_ms))
            break;
        g = atomic_fetch_add(&r->next, 1);
        if (g >= r->end)
            break;
        pt->rc = play_game(r->plan, g, &res);
        if (pt->rc) {
            atomic_store(&r->failed, 1);
            break;
        }
        battle_cpu_count(&pt->counts, &res);
    }
    return NULL;
}

enum sk_err battle_cpu_run(const struct battle_plan *plan, uint64_t first_game, uint64_t n_games,
                           int threads, struct battle_counts *acc)
{
    uint64_t played = 0;
    return battle_cpu_run_until(plan, first_game, n_games, threads, 0, acc, &played);
}

enum sk_err battle_cpu_run_until(const struct battle_plan *plan, uint64_t first_game,
                                 uint64_t n_games, int threads, int64_t deadline_ms,
                                 struct battle_counts *acc, uint64_t *played)
{
    struct range r;
    struct part *parts = NULL;
    pthread_t *tids = NULL;
    int started = 0;
    enum sk_err rc = SK_OK;
    uint64_t next;

    if (threads <= 0)
        threads = sk_cores_online();
    if ((uint64_t)threads > n_games)
        threads = n_games > 0 ? (int)n_games : 1;
    r.plan = plan;
    r.first = first_game;
    r.end = first_game + n_games;
    r.deadline_ms = deadline_ms;
    atomic_init(&r.next, first_game);
    atomic_init(&r.failed, 0);
    parts = sk_calloc((size_t)threads, sizeof(*parts));
    tids = sk_calloc((size_t)threads, sizeof(*tids));
    if (!parts || !tids) {
        rc = SK_ENOMEM;
        goto out;
    }
    for (int t = 0; t < threads; t++)
        parts[t].r = &r;
    if (threads == 1) {
        run_part(&parts[0]);
    } else {
        for (; started < threads; started++)
            if (pthread_create(&tids[started], NULL, run_part, &parts[started]) != 0) {
                atomic_store(&r.failed, 1);
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
    /* Every game taken was played, and games were taken in order: [first, next) is done. */
    next = atomic_load(&r.next);
    for (int t = 0; t < threads; t++)
        battle_counts_add(acc, &parts[t].counts);
    *played = (next < r.end ? next : r.end) - first_game;
out:
    sk_free(tids);
    sk_free(parts);
    return rc;
}
