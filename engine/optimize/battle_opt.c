/* SPDX-License-Identifier: MIT */
/* The `optimize` job kind (optimize_kind, see job_kind.h and docs/optimize.md): a search
 * over decks that races each candidate against the incumbent on common random numbers
 * (battle_race), then evaluates the best deck and the starting deck afresh on the same
 * games. The whole search state is plain data saved with every progress report, so an
 * attempt that takes over after a crash goes on from the last step and ends with the very
 * deck an uninterrupted run finds. A race needs each game's outcome, not counts: games are
 * played on the CPU backend's single-game entry (battle_cpu_play_one) on the run's threads,
 * or, for calls big enough to pay for a launch, on the OpenCL device game by game
 * (battle_opt_play), and spread as units across workers when the worker hands them out. */
#include "optimize.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "battle_catalog.h"
#include "battle_cpu.h"
#include "battle_opt_codec.h"
#include "battle_opt_fund.h"
#include "battle_opt_moves.h"
#include "battle_opt_play.h"
#include "battle_plan.h"
#include "battle_pool.h"
#include "battle_race.h"
#include "battle_sim.h"
#include "job_kind.h"
#include "sk_buf.h"
#include "sk_cores.h"
#include "sk_mem.h"
#include "sk_time.h"
#include "stats.h"

#include "sk_banned.h"

/* Game numbers: the search's races use blocks of OPT_BLOCK games, the final evaluation
 * games from OPT_EVAL_FIRST on, which no race reaches. A block serves one incumbent and at
 * most OPT_EPOCH candidates, each a different deck: a promoted deck, and a candidate drawn
 * again (or the OPT_EPOCH + 1st), start a fresh block, so no candidate races twice on the
 * same games (the same games gave it the same verdict every time it was drawn) while the
 * incumbent's games of a block serve many candidates. */
#define OPT_BLOCK      (1ULL << 20)
#define OPT_EPOCH      64
#define OPT_EVAL_FIRST (1ULL << 62)
/* The random stream of the search's moves: a game number no game uses. */
#define OPT_MOVE_STREAM (~0ULL)
/* Evaluation games per chunk of work (per deck), so a chunk's buffers stay small. */
#define OPT_EVAL_CHUNK 4096
/* In a step with a deadline, an evaluation chunk is a slice of about OPT_EVAL_SLICE_S at
 * the rate of the slice before, the first OPT_EVAL_SLICE_FIRST games per deck: the step
 * looks at its deadline between slices. */
#define OPT_EVAL_SLICE_S     0.05
#define OPT_EVAL_SLICE_FIRST 8

enum opt_phase { OPT_SEARCH = 0, OPT_EVAL = 1, OPT_DONE = 2 };
enum opt_stop {
    OPT_STOP_NONE = 0,
    OPT_STOP_BUDGET,
    OPT_STOP_TIME,
    OPT_STOP_NO_MOVE,
    OPT_STOP_TARGET
};

/* One accepted move, as the result lists it. */
struct opt_step {
    struct opt_move move;
    uint64_t games;  /* search games spent when it was accepted */
    uint64_t tried;  /* candidates tried then, this one included */
    uint64_t n;      /* games per defender deck it was raced on */
    double mean, se; /* its paired difference against the deck it replaced */
    int improving;   /* 1: significantly better; 0: an annealing step */
};

/* The search state: plain data, saved as is in checkpoints (zeroed at start, so its
 * padding is too). */
struct opt_state {
    struct rng rng; /* the moves' random stream */
    int phase;      /* enum opt_phase */
    int stop;       /* enum opt_stop: why the search ended */
    uint64_t spent; /* search games played */
    uint64_t block; /* the incumbent's block of race games */
    uint64_t tried, accepted;
    double elapsed_s;
    double inc_est, best_est; /* estimated score above the starting deck */
    struct opt_deck inc, best, cand;
    struct opt_move cand_move;
    int have_cand;
    uint64_t cand_n, inc_n; /* games per defender deck raced / known for the incumbent */
    uint64_t n_log;
    uint64_t eval_n; /* evaluation games per deck done */
    int widen;       /* the race's bound is race_max doubled this many times */
    /* the incumbent's moves, each tried once a sweep (battle_opt_moves.h); raced: the
     * candidates of this sweep that raced (the others did not decode) */
    struct opt_sweep sweep;
    uint64_t raced;
    int epoch_n; /* decks raced on the current block: their hashes in epoch[] */
    uint64_t epoch[OPT_EPOCH];
    /* sums over the evaluation games of the starting deck's score, the best deck's and
     * their difference (best - start), and of their squares */
    double ev_sum[3], ev_sumsq[3];
};

/* A candidate's first race batch played ahead (see `Playing ahead`): its deck and block
 * are the key, the scores a pure function of them. Not part of the checkpoint. */
struct opt_ahead {
    int used;
    struct opt_deck deck;
    uint64_t block;
    struct battle_plan *plans[BATTLE_DEFENDERS_MAX]; /* NULL once taken by the candidate */
    double *scores;                                  /* its first batch: race_first() games */
    double *obj;                                     /* the same games' objective alone */
};

struct opt_run {
    const struct opt_job *job;
    struct battle_pool *pool; /* the run's threads (NULL: the caller's alone) */
    struct opt_player player; /* the pool, and the worker's spread (job_run_opts) */
    int device;               /* 1 once some games were played on the OpenCL device */
    int ahead_max;            /* candidates played ahead: 0 on one thread */
    struct opt_ahead ahead[OPT_AHEAD_MAX];
    struct opt_state st;
    uint64_t eval_slice;              /* evaluation games per deck of a slice (a deadline's) */
    double *inc_scores, *cand_scores; /* race_cap(job) each */
    double *inc_obj, *cand_obj;       /* the same games' objective scores alone */
    struct opt_step *log;             /* OPT_MOVES_LOG_MAX */
    /* prepared decks, one plan per defender deck; NULL until needed */
    struct battle_plan *inc_plans[BATTLE_DEFENDERS_MAX];
    struct battle_plan *cand_plans[BATTLE_DEFENDERS_MAX];
    struct battle_plan *start_plans[BATTLE_DEFENDERS_MAX];
    struct battle_plan *best_plans[BATTLE_DEFENDERS_MAX];
};

/* ===== Decoding ===== */

/* Every optimisation names cards of the catalog: it must load (battle_kind checks it too,
 * first). The kind keeps no engine state: its games run on the CPU. */
static enum sk_err engine_open(const struct engine_opts *opts, void **state, char *err,
                               size_t errlen)
{
    const struct battle_catalog *cat = NULL;
    enum sk_err rc;

    (void)opts;
    *state = NULL;
    rc = battle_catalog_current(&cat, err, errlen);
    battle_catalog_put(cat);
    return rc;
}

static enum sk_err decode_params(const json_t *params, uint64_t seed, const char *catalog,
                                 struct sk_jptr *ptr, struct sk_verr_list *errs, void **out)
{
    const struct battle_catalog *cat = NULL;
    struct opt_job *job;
    enum sk_err err;

    err = battle_catalog_for_job(catalog, &cat);
    if (err)
        return err;
    job = sk_calloc(1, sizeof(*job));
    if (!job) {
        battle_catalog_put(cat);
        return SK_ENOMEM;
    }
    err = battle_opt_decode(params, seed, cat, ptr, errs, job);
    if (err) {
        battle_catalog_put(cat);
        sk_free(job);
        return err;
    }
    job->cat = cat;
    *out = job;
    return SK_OK;
}

static void job_free_data(void *data)
{
    battle_opt_job_release(data);
    sk_free(data);
}

/* Units: the search's games budget, then both decks' evaluation games. */
static uint64_t job_units(const void *data)
{
    const struct opt_job *job = data;
    return job->budget_games + 2 * job->eval_games * (uint64_t)job->n_defenders;
}

/* ===== Playing ===== */

/* The run's threads: as asked, else the cores idle when it starts (its pool is made once;
 * an idle host gives a search every core, a busy one what is left). */
static int thread_count(int threads)
{
    return threads > 0 ? threads : sk_cores_idle();
}

/* What a search score (or difference) reads as in the result: a fraction of games, or
 * points. */
static double reported(const struct opt_job *job, double v)
{
    return v / battle_opt_score_unit(job);
}

/* The highest search score a game can have. */
static double score_max(const struct opt_job *job)
{
    return job->objective == OPT_OBJ_POINTS ? BATTLE_POINTS_MAX * battle_opt_score_unit(job) : 1.0;
}

/* The games per defender deck of a race's first batch. */
static uint64_t race_first(const struct opt_job *job)
{
    return job->race_batch < job->race_max ? job->race_batch : job->race_max;
}

/* The most games per defender deck a race may reach once widened (OPT_WIDEN_MAX): what the
 * score buffers hold. Never below race_max. */
static uint64_t race_cap(const struct opt_job *job)
{
    uint64_t w = job->race_max << OPT_WIDEN_MAX;

    w = w < OPT_RACE_MAX_MAX ? w : OPT_RACE_MAX_MAX;
    return w > job->race_max ? w : job->race_max;
}

/* The most games per defender deck the search's candidates race on now. */
static uint64_t race_bound(const struct opt_run *run)
{
    uint64_t b = run->job->race_max << run->st.widen, cap = race_cap(run->job);
    return b < cap ? b : cap;
}

/* The smallest difference one game makes in a race: a turn's in the tie-break
 * (battle_opt_play.h). The race's spread is never taken below one such game's
 * (battle_race_decide). */
static double race_unit(void)
{
    return OPT_TIE_STEP;
}

/* ===== Blocks of games ===== */

/* FNV-1a of a deck's commander and cards (a collision only starts a block early). */
static uint64_t deck_hash(const struct opt_deck *d)
{
    uint64_t h = 14695981039346656037ULL;
    int v[2 + BATTLE_DECK_MAX];

    v[0] = d->commander;
    v[1] = d->n;
    memcpy(v + 2, d->cards, (size_t)d->n * sizeof(d->cards[0]));
    for (size_t i = 0; i < (size_t)(2 + d->n) * sizeof(int); i++) {
        h ^= ((const unsigned char *)v)[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* Admits deck `d` as a candidate of the block `*block` whose `*n` candidates so far hashed
 * h[]: a deck raced on it already, or one past OPT_EPOCH, goes to the next block instead
 * (then 1: the incumbent has no games there yet). */
static int epoch_admit(uint64_t *block, int *n, uint64_t *h, const struct opt_deck *d)
{
    uint64_t x = deck_hash(d);
    int fresh = *n == OPT_EPOCH;

    for (int i = 0; i < *n && !fresh; i++)
        fresh = h[i] == x;
    if (fresh) {
        ++*block;
        *n = 0;
    }
    h[(*n)++] = x;
    return fresh;
}

/* ===== Playing ahead =====
 * Most candidates are dropped after their first batch, and the next candidates are
 * known before that: drawn from the moves' stream, from the same incumbent, as long as
 * no move is accepted. On several threads, the first batch of the next candidates is
 * played together with the current one's (one task for the pool instead of one per
 * candidate, so the threads wait less). Their scores are kept with their deck and block;
 * a candidate whose deck and block match takes them (and the prepared plans) instead of
 * playing. Scores depend only on the deck and the game numbers, so what was played ahead
 * never changes a result: the search is the one-thread search, whatever the threads, and
 * counts the games of its races only (games played ahead for candidates that never race,
 * after an accepted move, are work thrown away, not budget spent). */

static void ahead_clear(struct opt_run *run)
{
    for (int i = 0; i < run->ahead_max; i++) {
        battle_opt_plans_free(run->ahead[i].plans);
        run->ahead[i].used = 0;
    }
}

static int same_deck(const struct opt_deck *a, const struct opt_deck *b)
{
    return a->commander == b->commander && a->n == b->n &&
           memcmp(a->cards, b->cards, (size_t)a->n * sizeof(a->cards[0])) == 0;
}

/* The entry played ahead for deck `d` in block `block`, or NULL. */
static struct opt_ahead *ahead_find(struct opt_run *run, const struct opt_deck *d, uint64_t block)
{
    for (int i = 0; i < run->ahead_max; i++)
        if (run->ahead[i].used && run->ahead[i].block == block && same_deck(&run->ahead[i].deck, d))
            return &run->ahead[i];
    return NULL;
}

/* Plans made on the pool: one item per entry to prepare (deck_plans shares nothing
 * mutable between calls: the catalog is read only, the job's base is copied). */
struct plans_task {
    struct opt_run *run;
    int slot[OPT_AHEAD_MAX];
    enum sk_err rc[OPT_AHEAD_MAX];
};

static void plans_item(void *ctx, uint64_t i)
{
    struct plans_task *t = ctx;
    struct opt_ahead *a = &t->run->ahead[t->slot[i]];
    char why[256];

    t->rc[i] = battle_opt_plans(t->run->job, &a->deck, a->plans, why, sizeof(why));
}

/* Prepares the candidates that follow the current one if it is not accepted, as
 * next_candidate and settle would draw them, into the free entries (their plans made on
 * the pool); the caller plays their first batch. A draw that finds no move is skipped, as
 * the search skips it; a deck that does not prepare is left out (the search counts it
 * as tried without anneal's draw, which the draws after it here assumed: those are then
 * not the search's, and are simply not used). SK_ENOMEM. */
static enum sk_err ahead_predict(struct opt_run *run)
{
    const struct opt_job *job = run->job;
    struct opt_state *st = &run->st;
    struct rng r = st->rng;
    struct opt_sweep sweep = st->sweep;
    struct plans_task t;
    int slot = 0, free_slots = 0, n = 0;
    uint64_t block = st->block, epoch[OPT_EPOCH];
    int epoch_n = st->epoch_n;
    enum sk_err rc = SK_OK;

    memcpy(epoch, st->epoch, sizeof(epoch));

    t.run = run;
    for (int i = 0; i < run->ahead_max; i++)
        free_slots += !run->ahead[i].used;
    if (job->algorithm == OPT_ALG_ANNEAL)
        (void)rng_next(&r); /* settle's draw for the current candidate */
    for (int tries = 0; free_slots > 0 && tries < 2 * run->ahead_max; tries++) {
        struct opt_move m;
        struct opt_ahead *a;

        if (!battle_opt_sweep_next(job, &st->inc, &sweep, &m))
            break; /* the sweep's end: what follows is the next sweep's */
        while (run->ahead[slot].used)
            slot++;
        a = &run->ahead[slot];
        battle_opt_apply(&st->inc, &m, &a->deck);
        if (job->algorithm == OPT_ALG_ANNEAL)
            (void)rng_next(&r);
        /* the block next_candidate will race it on */
        (void)epoch_admit(&block, &epoch_n, epoch, &a->deck);
        if (ahead_find(run, &a->deck, block)) /* played already */
            continue;
        a->used = 1;
        a->block = block;
        t.slot[n++] = slot;
        free_slots--;
    }
    battle_pool_run(run->pool, (uint64_t)n, plans_item, &t);
    for (int i = 0; i < n; i++)
        if (t.rc[i]) {
            run->ahead[t.slot[i]].used = 0;
            if (t.rc[i] == SK_ENOMEM)
                rc = SK_ENOMEM;
        }
    return rc;
}

/* At a candidate's first batch, on several threads: *mine is the entry played ahead for
 * it, or, when none was, NULL and segs[] (*nseg of them) gets the first batch of the
 * candidates predicted to follow it (each on the block it will race on). SK_ENOMEM. */
static enum sk_err ahead_segments(struct opt_run *run, struct opt_segment *segs, int *nseg,
                                  struct opt_ahead **mine)
{
    enum sk_err rc;

    *mine = ahead_find(run, &run->st.cand, run->st.block);
    if (*mine)
        return SK_OK;
    ahead_clear(run);
    rc = ahead_predict(run);
    for (int i = 0; !rc && i < run->ahead_max; i++)
        if (run->ahead[i].used)
            segs[(*nseg)++] = (struct opt_segment){
                &run->ahead[i].deck,  run->ahead[i].plans,  run->ahead[i].block * OPT_BLOCK,
                race_first(run->job), run->ahead[i].scores, 1,
                run->ahead[i].obj};
    return rc;
}

/* ===== The search ===== */

static void end_search(struct opt_run *run, enum opt_stop why)
{
    run->st.stop = why;
    run->st.phase = OPT_EVAL;
    run->st.have_cand = 0;
    battle_opt_plans_free(run->cand_plans);
    ahead_clear(run);
}

/* Makes the candidate the incumbent (and the best deck when its estimate is). */
static void promote(struct opt_run *run, const struct battle_race *r, int improving)
{
    struct opt_state *st = &run->st;

    if (st->n_log < OPT_MOVES_LOG_MAX)
        run->log[st->n_log] =
            (struct opt_step){st->cand_move,       st->spent,         st->tried, r->n,
                              battle_race_mean(r), battle_race_se(r), improving};
    st->n_log++;
    st->accepted++;
    st->inc = st->cand;
    st->inc_est += battle_race_mean(r);
    if (st->inc_est > st->best_est || run->job->algorithm != OPT_ALG_ANNEAL) {
        st->best = st->inc;
        st->best_est = st->inc_est;
    }
    battle_opt_plans_free(run->inc_plans);
    memcpy(run->inc_plans, run->cand_plans, sizeof(run->inc_plans));
    memset(run->cand_plans, 0, sizeof(run->cand_plans));
    st->block++; /* the new incumbent races on games no decision has seen */
    st->epoch_n = 0;
    ahead_clear(run);
    st->inc_n = 0;
    st->have_cand = 0;
    st->sweep.live = 0; /* a new deck: a sweep of its moves */
    st->widen = 0;      /* a new neighbourhood: its easy moves first */
}

/* Takes the sweep's next move and prepares its deck as the candidate. A sweep that ends
 * starts the next one: with its races widened (one more doubling, up to OPT_WIDEN_MAX),
 * since no move of the deck was shown better on the games the races had; a sweep that found
 * no move, or whose moves all failed to decode, ends the search ("no_move"). Returns SK_OK
 * with have_cand set, or with the search ended, or with neither (a candidate that did not
 * decode: counted, the next call takes the next move); SK_ENOMEM. */
static enum sk_err next_candidate(struct opt_run *run)
{
    struct opt_state *st = &run->st;
    char why[256];
    enum sk_err rc;

    if (!st->sweep.live) {
        battle_opt_sweep_start(run->job, &st->inc, &st->rng, &st->sweep);
        st->raced = 0;
    }
    if (!battle_opt_sweep_next(run->job, &st->inc, &st->sweep, &st->cand_move)) {
        if (st->sweep.found == 0 || st->raced == 0) {
            end_search(run, OPT_STOP_NO_MOVE);
            return SK_OK;
        }
        if (race_bound(run) < race_cap(run->job))
            st->widen++;
        return SK_OK; /* the next call starts the next sweep */
    }
    battle_opt_apply(&st->inc, &st->cand_move, &st->cand);
    if (epoch_admit(&st->block, &st->epoch_n, st->epoch, &st->cand))
        st->inc_n = 0;
    {
        struct opt_ahead *a = ahead_find(run, &st->cand, st->block);
        if (a && a->plans[0]) { /* prepared ahead */
            memcpy(run->cand_plans, a->plans, sizeof(run->cand_plans));
            memset(a->plans, 0, sizeof(a->plans));
            rc = SK_OK;
        } else {
            rc = battle_opt_plans(run->job, &st->cand, run->cand_plans, why, sizeof(why));
        }
    }
    if (rc == SK_EINVAL) { /* a pool card no battle can play with this deck */
        st->tried++;
        return SK_OK;
    }
    if (rc)
        return rc;
    st->raced++;
    st->have_cand = 1;
    st->cand_n = 0;
    return SK_OK;
}

/* The annealing temperature after `spent` of the budget: linear down to zero. */
static double temperature(const struct opt_run *run)
{
    const struct opt_job *job = run->job;
    return job->temperature * (1.0 - (double)run->st.spent / (double)job->budget_games);
}

/* Ends the candidate's race with `verdict`. */
static void settle(struct opt_run *run, enum battle_race_verdict verdict,
                   const struct battle_race *r)
{
    struct opt_state *st = &run->st;

    st->tried++;
    if (verdict == BATTLE_RACE_BETTER) {
        promote(run, r, 1);
        return;
    }
    if (run->job->algorithm == OPT_ALG_ANNEAL) {
        /* Metropolis: a worse deck is taken with probability exp(mean / T) */
        double t = temperature(run), mean = battle_race_mean(r);
        double u = (double)rng_next(&st->rng) / 4294967296.0;
        if (t > 0 && u < exp(mean / t)) {
            promote(run, r, 0);
            return;
        }
    }
    st->have_cand = 0;
    battle_opt_plans_free(run->cand_plans);
}

/* The incumbent's mean score on its games of the block so far (0 with none). */
static double inc_mean(const struct opt_run *run)
{
    double sum = 0;

    for (uint64_t i = 0; i < run->st.inc_n; i++)
        sum += run->inc_scores[i];
    return run->st.inc_n ? sum / (double)run->st.inc_n : 0.0;
}

/* budget.target: with no race running and the incumbent at the target on its games so far,
 * either it has `race.max_games` of them (the search ends: "target"), or it plays another
 * batch to make sure. 1 when it did either (or the budget ended the search), else 0. */
static int target_check(struct opt_run *run, enum sk_err *rc, char *err, size_t errlen)
{
    const struct opt_job *job = run->job;
    struct opt_state *st = &run->st;
    uint64_t n1, cost;

    *rc = SK_OK;
    if (!job->has_target || st->have_cand || st->inc_n == 0 || inc_mean(run) < job->target)
        return 0;
    if (st->inc_n >= job->race_max) {
        end_search(run, OPT_STOP_TARGET);
        return 1;
    }
    n1 = st->inc_n + job->race_batch < job->race_max ? st->inc_n + job->race_batch : job->race_max;
    cost = (n1 - st->inc_n) * (uint64_t)job->n_defenders;
    if (st->spent + cost > job->budget_games) {
        end_search(run, OPT_STOP_BUDGET);
        return 1;
    }
    {
        struct opt_segment seg = {&st->inc,
                                  run->inc_plans,
                                  st->block * OPT_BLOCK + st->inc_n,
                                  n1 - st->inc_n,
                                  run->inc_scores + st->inc_n,
                                  1,
                                  run->inc_obj + st->inc_n};
        err[0] = '\0';
        *rc = battle_opt_play(&run->player, &seg, 1, err, errlen);
    }
    if (*rc) {
        if (!err[0])
            snprintf(err, errlen, "the search's games could not be played: %s", sk_err_str(*rc));
        return 1;
    }
    st->spent += cost;
    st->inc_n = n1;
    return 1;
}

/* One batch of the current candidate's race (drawing a candidate first when none is
 * running), or the end of the search when the budget cannot pay for it. */
static enum sk_err search_batch(struct opt_run *run, char *err, size_t errlen)
{
    const struct opt_job *job = run->job;
    struct opt_state *st = &run->st;
    uint64_t n1, inc_need, cost, base, bound;
    struct opt_segment segs[OPT_SEGMENTS_MAX];
    struct opt_ahead *mine = NULL;
    struct battle_race r = {0};
    int nseg = 0;
    enum sk_err rc;

    if (job->budget_seconds && st->elapsed_s >= job->budget_seconds) {
        end_search(run, OPT_STOP_TIME);
        return SK_OK;
    }
    if (!run->inc_plans[0]) {
        rc = battle_opt_plans(job, &st->inc, run->inc_plans, err, errlen);
        if (rc)
            return rc == SK_EINVAL ? SK_EINTERNAL : rc; /* the incumbent decoded before */
    }
    if (target_check(run, &rc, err, errlen))
        return rc;
    if (!st->have_cand) {
        rc = next_candidate(run);
        if (rc || !st->have_cand)
            return rc;
    }
    bound = race_bound(run);
    n1 = st->cand_n + job->race_batch < bound ? st->cand_n + job->race_batch : bound;
    inc_need = st->inc_n < n1 ? n1 - st->inc_n : 0;
    cost = (n1 - st->cand_n + inc_need) * (uint64_t)job->n_defenders;
    if (st->spent + cost > job->budget_games) {
        end_search(run, OPT_STOP_BUDGET);
        return SK_OK;
    }
    base = st->block * OPT_BLOCK;
    if (st->cand_n == 0 && run->ahead_max > 0) {
        rc = ahead_segments(run, segs, &nseg, &mine);
        if (rc)
            return rc;
    }
    if (mine) { /* its first batch was played ahead */
        memcpy(run->cand_scores, mine->scores, (size_t)n1 * sizeof(double));
        memcpy(run->cand_obj, mine->obj, (size_t)n1 * sizeof(double));
    } else {
        segs[nseg++] = (struct opt_segment){&st->cand,
                                            run->cand_plans,
                                            base + st->cand_n,
                                            n1 - st->cand_n,
                                            run->cand_scores + st->cand_n,
                                            1,
                                            run->cand_obj + st->cand_n};
    }
    if (inc_need)
        segs[nseg++] = (struct opt_segment){&st->inc,
                                            run->inc_plans,
                                            base + st->inc_n,
                                            inc_need,
                                            run->inc_scores + st->inc_n,
                                            1,
                                            run->inc_obj + st->inc_n};
    err[0] = '\0';
    rc = battle_opt_play(&run->player, segs, nseg, err, errlen);
    if (mine)
        mine->used = 0;
    if (rc) {
        ahead_clear(run); /* what was to be played ahead was not */
        if (!err[0])
            snprintf(err, errlen, "the search's games could not be played: %s", sk_err_str(rc));
        return rc;
    }
    st->spent += cost;
    st->cand_n = n1;
    st->inc_n = st->inc_n > n1 ? st->inc_n : n1;
    for (uint64_t i = 0; i < n1; i++)
        battle_race_add(&r, run->cand_scores[i] - run->inc_scores[i],
                        run->cand_obj[i] - run->inc_obj[i]);
    {
        enum battle_race_verdict v = battle_race_decide(&r, bound, race_unit());
        if (v != BATTLE_RACE_GO_ON)
            settle(run, v, &r);
    }
    return SK_OK;
}

/* ===== The final evaluation ===== */

/* The most evaluation games per deck of one chunk: OPT_EVAL_CHUNK, or as many as fill
 * the units a call may hand out when the run spreads its work (the worker's chunk sizes
 * bound it further). */
static uint64_t eval_cap(const struct opt_run *run)
{
    const struct job_spread *sp = run->player.spread;
    uint64_t spread =
        sp ? sp->unit_games * OPT_UNITS_MAX / (2 * (uint64_t)run->job->n_defenders) : 0;
    return spread > OPT_EVAL_CHUNK ? spread : OPT_EVAL_CHUNK;
}

/* The evaluation games per deck a step with a deadline asks of the next chunk, `want` at
 * most: a slice (OPT_EVAL_SLICE_S), unless the chunk is big enough to be handed out as units
 * through the run's spread, which keeps its size: units are what spread an evaluation across
 * workers, and the worker keeps its lease while they run. */
static uint64_t eval_slice(const struct opt_run *run, uint64_t want)
{
    const struct job_spread *sp = run->player.spread;
    uint64_t n = run->job->eval_games - run->st.eval_n;

    n = n < want ? n : want;
    n = n < eval_cap(run) ? n : eval_cap(run);
    if (sp && sp->unit_games && 2 * n * (uint64_t)run->job->n_defenders >= 2 * sp->unit_games)
        return n;
    return n < run->eval_slice ? n : run->eval_slice;
}

/* Sets the next slice from one of `n` games per deck that took `seconds`: about
 * OPT_EVAL_SLICE_S at that rate, at most four times the slice before and at least a game
 * (the rate of a few games is coarse, so the size is approached in steps). */
static void eval_slice_measured(struct opt_run *run, uint64_t n, double seconds)
{
    double want = seconds > 0 ? (double)n * OPT_EVAL_SLICE_S / seconds : 4.0 * (double)n;
    double cap = 4.0 * (double)run->eval_slice;

    if (n < run->eval_slice) /* the evaluation's last games: no measure of the slice */
        return;
    want = want < cap ? want : cap;
    run->eval_slice = want < 1.0 ? 1 : (uint64_t)want;
}

/* Plays up to `want` (>= 1) further evaluation games per deck of the starting and the best
 * deck, on the same games, adding their scores in game order. */
static enum sk_err eval_chunk(struct opt_run *run, uint64_t want, char *err, size_t errlen)
{
    const struct opt_job *job = run->job;
    struct opt_state *st = &run->st;
    uint64_t n = job->eval_games - st->eval_n;
    double *a = NULL, *b = NULL;
    enum sk_err rc = SK_OK;

    n = n < want ? n : want;
    n = n < eval_cap(run) ? n : eval_cap(run);
    if (!run->start_plans[0])
        rc = battle_opt_plans(job, &job->start, run->start_plans, err, errlen);
    if (!rc && !run->best_plans[0])
        rc = battle_opt_plans(job, &st->best, run->best_plans, err, errlen);
    if (rc)
        return rc == SK_EINVAL ? SK_EINTERNAL : rc;
    a = sk_malloc(n * sizeof(*a));
    b = sk_malloc(n * sizeof(*b));
    if (!a || !b) {
        rc = SK_ENOMEM;
        goto out;
    }
    {
        struct opt_segment segs[2] = {
            {&job->start, run->start_plans, OPT_EVAL_FIRST + st->eval_n, n, a, 0, NULL},
            {&st->best, run->best_plans, OPT_EVAL_FIRST + st->eval_n, n, b, 0, NULL}};
        err[0] = '\0';
        rc = battle_opt_play(&run->player, segs, 2, err, errlen);
    }
    if (rc) {
        if (!err[0])
            snprintf(err, errlen, "the evaluation's games could not be played: %s", sk_err_str(rc));
        goto out;
    }
    for (uint64_t i = 0; i < n; i++) {
        double v[3] = {a[i], b[i], b[i] - a[i]};
        for (int j = 0; j < 3; j++) {
            st->ev_sum[j] += v[j];
            st->ev_sumsq[j] += v[j] * v[j];
        }
    }
    st->eval_n += n;
    if (st->eval_n == job->eval_games)
        st->phase = OPT_DONE;
out:
    sk_free(a);
    sk_free(b);
    return rc;
}

/* ===== Runs ===== */

static void run_free(void *data)
{
    struct opt_run *run = data;
    if (!run)
        return;
    battle_opt_plans_free(run->inc_plans);
    battle_opt_plans_free(run->cand_plans);
    battle_opt_plans_free(run->start_plans);
    battle_opt_plans_free(run->best_plans);
    for (int i = 0; i < OPT_AHEAD_MAX; i++) {
        battle_opt_plans_free(run->ahead[i].plans);
        sk_free(run->ahead[i].scores);
        sk_free(run->ahead[i].obj);
    }
    battle_pool_free(run->pool);
    sk_free(run->inc_scores);
    sk_free(run->cand_scores);
    sk_free(run->inc_obj);
    sk_free(run->cand_obj);
    sk_free(run->log);
    sk_free(run);
}

static enum sk_err run_new(void *state, const void *data, const struct job_run_opts *opts,
                           void **out, char *err, size_t errlen)
{
    const struct opt_job *job = data;
    struct opt_run *run = sk_calloc(1, sizeof(*run));
    enum sk_err rc;
    int threads;

    (void)state;
    if (!run)
        return SK_ENOMEM;
    run->job = job;
    run->inc_scores = sk_calloc(race_cap(job), sizeof(double));
    run->cand_scores = sk_calloc(race_cap(job), sizeof(double));
    run->inc_obj = sk_calloc(race_cap(job), sizeof(double));
    run->cand_obj = sk_calloc(race_cap(job), sizeof(double));
    run->log = sk_calloc(OPT_MOVES_LOG_MAX, sizeof(*run->log));
    if (!run->inc_scores || !run->cand_scores || !run->inc_obj || !run->cand_obj || !run->log) {
        run_free(run);
        return SK_ENOMEM;
    }
    threads = thread_count(opts->threads);
    rc = battle_pool_new(threads, &run->pool);
    if (rc) {
        snprintf(err, errlen, "the optimiser's threads could not be started: %s", sk_err_str(rc));
        run_free(run);
        return rc;
    }
    run->player = (struct opt_player){job, run->pool, opts->spread, &run->device};
    run->ahead_max = threads > 1 ? (4 * threads < OPT_AHEAD_MAX ? 4 * threads : OPT_AHEAD_MAX) : 0;
    for (int i = 0; i < run->ahead_max; i++) {
        run->ahead[i].scores = sk_calloc(race_first(job), sizeof(double));
        run->ahead[i].obj = sk_calloc(race_first(job), sizeof(double));
        if (!run->ahead[i].scores || !run->ahead[i].obj) {
            run_free(run);
            return SK_ENOMEM;
        }
    }
    run->eval_slice = OPT_EVAL_SLICE_FIRST;
    memset(&run->st, 0, sizeof(run->st));
    rng_init(&run->st.rng, job->seed, OPT_MOVE_STREAM);
    run->st.inc = job->start;
    run->st.best = job->start;
    *out = run;
    return SK_OK;
}

/* The units done: the search's games (all of the budget once it ended), then the
 * evaluation's. */
static uint64_t units_done(const struct opt_run *run)
{
    const struct opt_job *job = run->job;
    uint64_t search = run->st.phase == OPT_SEARCH ? run->st.spent : job->budget_games;
    return search + 2 * run->st.eval_n * (uint64_t)job->n_defenders;
}

/* Steps go from one race batch to the next until `max_units` units are done: a batch is
 * not split, so a step may pass max_units by less than one batch (never the job's total).
 * Race batches and evaluation chunks are the pieces a deadline is looked at between, once
 * the step has done a unit (a batch of a candidate that does not prepare plays none). A
 * chunk's scores are added in game order, so where slices end changes no sum. */
static enum sk_err run_step(void *data, uint64_t max_units, int64_t deadline_ms, uint64_t *done,
                            char *err, size_t errlen)
{
    struct opt_run *run = data;
    uint64_t from = units_done(run);
    double t0 = sk_time_mono_s();
    enum sk_err rc = SK_OK;

    while (!rc && run->st.phase != OPT_DONE) {
        uint64_t at = units_done(run);
        if (max_units && at - from >= max_units)
            break;
        if (at > from && sk_time_due(deadline_ms))
            break;
        if (run->st.phase == OPT_SEARCH) {
            rc = search_batch(run, err, errlen);
        } else {
            uint64_t left = max_units ? max_units - (at - from) : 0;
            uint64_t per = 2 * (uint64_t)run->job->n_defenders;
            uint64_t want = left ? (left + per - 1) / per : run->job->eval_games;
            uint64_t n0 = run->st.eval_n;
            if (deadline_ms > 0)
                want = eval_slice(run, want);
            rc = eval_chunk(run, want, err, errlen);
            if (!rc && deadline_ms > 0)
                eval_slice_measured(run, run->st.eval_n - n0, sk_time_mono_s() - t0);
        }
        run->st.elapsed_s += sk_time_mono_s() - t0;
        t0 = sk_time_mono_s();
    }
    *done = units_done(run);
    return rc;
}

/* ===== Results ===== */

/* Sets `key` of `obj` to the new reference `v`; nonzero on failure. Consumes `v`. */
static int put(json_t *obj, const char *key, json_t *v)
{
    return !v || json_object_set_new(obj, key, v) != 0;
}

/* The deck as a deck string: "Commander, Fortress, Card A#2, Card B" (consecutive copies
 * as one entry, so the order of an ordered deck survives). NULL on allocation failure. */
static json_t *deck_string(const struct opt_job *job, const struct opt_deck *d)
{
    struct sk_buf b;
    json_t *s;
    char num[16];

    sk_buf_init(&b, 0);
    (void)sk_buf_adds(&b, job->cards[d->commander].name);
    for (int f = 0; f < job->n_fortresses; f++) {
        (void)sk_buf_adds(&b, ", ");
        (void)sk_buf_adds(&b, job->fortresses[f]);
    }
    for (int i = 0; i < d->n; i++) {
        int n = 1;
        while (i + n < d->n && d->cards[i + n] == d->cards[i])
            n++;
        (void)sk_buf_adds(&b, ", ");
        (void)sk_buf_adds(&b, job->cards[d->cards[i]].name);
        snprintf(num, sizeof(num), "#%d", n);
        if (n > 1)
            (void)sk_buf_adds(&b, num);
        i += n - 1;
    }
    (void)sk_buf_add(&b, "", 1);
    s = b.err ? NULL : json_string(b.p);
    sk_buf_release(&b);
    return s;
}

/* {"deck": string, "list": side, "score", "score_ci95"} of deck `d`; its evaluation sums
 * are slot `j` (no score while the evaluation is unfinished). */
static json_t *deck_json(const struct opt_run *run, const struct opt_deck *d, int j)
{
    const struct opt_state *st = &run->st;
    json_t *o = json_object();
    int bad = !o || put(o, "deck", deck_string(run->job, d)) ||
              put(o, "list", battle_opt_side_json(run->job, d));

    if (!bad && st->phase == OPT_DONE) {
        const struct opt_job *job = run->job;
        double lo = 0, hi = 1;
        /* against one deck a game of a win objective scores 0 or 1: the Wilson interval, as
         * a battle's rates (it is not empty at 0 or 1); points and a weighted mixture's
         * scores take the normal one */
        if (job->n_defenders == 1 && job->objective != OPT_OBJ_POINTS)
            (void)stats_wilson((uint64_t)llround(st->ev_sum[j]), st->eval_n, STATS_Z95, &lo, &hi);
        else
            battle_race_ci95(st->eval_n, st->ev_sum[j], st->ev_sumsq[j], 0, score_max(job), &lo,
                             &hi);
        bad = put(o, "score", json_real(reported(job, st->ev_sum[j] / (double)st->eval_n))) ||
              put(o, "score_ci95", json_pack("[f, f]", reported(job, lo), reported(job, hi)));
    } else if (!bad) {
        bad = put(o, "score", json_null()) || put(o, "score_ci95", json_null());
    }
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The accepted moves in order, with the games each step spent. */
static json_t *moves_json(const struct opt_run *run)
{
    const struct opt_job *job = run->job;
    json_t *arr = json_array();
    uint64_t n = run->st.n_log < OPT_MOVES_LOG_MAX ? run->st.n_log : OPT_MOVES_LOG_MAX;
    uint64_t prev = 0;

    for (uint64_t i = 0; arr && i < n; i++) {
        const struct opt_step *s = &run->log[i];
        const struct opt_move *m = &s->move;
        json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:f, s:f, s:b}", "move",
                              battle_opt_move_name((enum opt_move_type)m->type), "games",
                              (json_int_t)(s->games - prev), "games_total", (json_int_t)s->games,
                              "raced", (json_int_t)s->n, "difference", reported(job, s->mean),
                              "difference_se", reported(job, s->se), "improving", s->improving);
        int bad = !o;
        prev = s->games;
        if (!bad && m->type != OPT_MOVE_COMMANDER)
            bad = put(o, "position", json_integer(m->pos));
        if (!bad && m->type == OPT_MOVE_REORDER)
            bad = put(o, "to", json_integer(m->to));
        if (!bad && m->card >= 0)
            bad = put(o, "card", json_string(job->cards[m->card].name));
        if (!bad && m->old >= 0 && m->type != OPT_MOVE_REORDER)
            bad = put(o, "replaced", json_string(job->cards[m->old].name));
        if (bad || json_array_append_new(arr, o)) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

static const char *stop_name(int stop)
{
    static const char *const names[] = {"canceled", "budget", "time", "no_move", "target"};
    return names[stop];
}

/* "improvement": the best deck's mean score minus the start's on the evaluation games,
 * with its paired 95% interval; "kept_start" when the search's deck did not score above
 * the start there (the result is then the starting deck: never a worse one). */
static int put_improvement(json_t *res, const struct opt_run *run, int kept)
{
    const struct opt_state *st = &run->st;
    double lo = 0, hi = 0, mean = 0;

    if (st->phase != OPT_DONE)
        return put(res, "improvement", json_null()) || put(res, "improvement_ci95", json_null()) ||
               put(res, "kept_start", json_false());
    if (!kept) {
        double max = score_max(run->job);
        mean = st->ev_sum[2] / (double)st->eval_n;
        battle_race_ci95(st->eval_n, st->ev_sum[2], st->ev_sumsq[2], -max, max, &lo, &hi);
    }
    return put(res, "improvement", json_real(reported(run->job, mean))) ||
           put(res, "improvement_ci95",
               json_pack("[f, f]", reported(run->job, lo), reported(run->job, hi))) ||
           put(res, "kept_start", json_boolean(kept));
}

static enum sk_err result_of(struct opt_run *run, int partial, json_t **out)
{
    static const char *const objectives[] = {"win", "win_stall", "points"};
    static const char *const algorithms[] = {"climb", "anneal", "reorder"};
    const struct opt_job *job = run->job;
    const struct opt_state *st = &run->st;
    const struct battle_catalog *cat = job->cat;
    int kept = st->phase == OPT_DONE && st->ev_sum[1] < st->ev_sum[0];
    const struct opt_deck *best = kept ? &job->start : &st->best;
    uint64_t eval_games = 2 * st->eval_n * (uint64_t)job->n_defenders;
    json_t *res;
    int bad;

    if (!partial && st->phase != OPT_DONE)
        return SK_ECONFLICT;
    res = json_object();
    bad = !res || put(res, "best", deck_json(run, best, kept ? 0 : 1)) ||
          put(res, "start", deck_json(run, &job->start, 0)) || put_improvement(res, run, kept) ||
          put(res, "moves", moves_json(run)) ||
          put(res, "moves_accepted", json_integer((json_int_t)st->accepted)) ||
          put(res, "candidates", json_integer((json_int_t)st->tried)) ||
          put(res, "games",
              json_pack("{s:I, s:I, s:I}", "search", (json_int_t)st->spent, "evaluation",
                        (json_int_t)eval_games, "evaluation_per_deck", (json_int_t)st->eval_n)) ||
          put(res, "stopped",
              st->phase == OPT_SEARCH ? json_null() : json_string(stop_name(st->stop))) ||
          put(res, "objective", json_string(objectives[job->objective])) ||
          (job->objective == OPT_OBJ_POINTS &&
           put(res, "scoring", json_string(battle_codec_scoring_name(job->scoring)))) ||
          put(res, "algorithm", json_string(algorithms[job->algorithm])) ||
          put(res, "seed", json_integer((json_int_t)job->seed)) ||
          put(res, "catalog",
              json_pack("{s:s, s:s}", "name", battle_catalog_source(cat), "hash",
                        battle_catalog_hash(cat))) ||
          (job->fund > 0 && put(res, "fund", battle_opt_fund_json(job, best))) ||
          put(res, "backend", json_string(run->device ? "opencl" : "cpu")) ||
          put(res, "elapsed_ms", json_real(round(st->elapsed_s * 1e6) / 1e3));
    if (bad) {
        json_decref(res);
        return SK_ENOMEM;
    }
    *out = res;
    return SK_OK;
}

static enum sk_err run_result(void *data, json_t **out, char *why, size_t whylen)
{
    (void)why;
    (void)whylen;
    return result_of(data, 0, out);
}

static enum sk_err run_partial(void *data, json_t **out, char *why, size_t whylen)
{
    (void)why;
    (void)whylen;
    return result_of(data, 1, out);
}

/* ===== Progress ===== */

/* {"mean", "ci95"} of `n` search scores with sums `sum`, `sumsq` (normal interval), in the
 * result's units. */
static json_t *mean_json(const struct opt_job *job, uint64_t n, double sum, double sumsq)
{
    double lo, hi;

    battle_race_ci95(n, sum, sumsq, 0, score_max(job), &lo, &hi);
    return json_pack("{s:f, s:[f, f]}", "mean", reported(job, n ? sum / (double)n : 0.0), "ci95",
                     reported(job, lo), reported(job, hi));
}

/* The last accepted move: what it did and its race's difference with a 95% interval. */
static json_t *last_move_json(const struct opt_run *run)
{
    const struct opt_step *s;
    const struct opt_job *job = run->job;
    json_t *o;

    if (run->st.n_log == 0 || run->st.n_log > OPT_MOVES_LOG_MAX)
        return json_null();
    s = &run->log[run->st.n_log - 1];
    o = json_pack(
        "{s:s, s:f, s:[f, f]}", "move", battle_opt_move_name((enum opt_move_type)s->move.type),
        "difference", reported(job, s->mean), "difference_ci95",
        reported(job, s->mean - STATS_Z95 * s->se), reported(job, s->mean + STATS_Z95 * s->se));
    if (o && s->move.card >= 0 && put(o, "card", json_string(job->cards[s->move.card].name))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* What a watcher sees besides the units: the phase, the best deck so far with the races'
 * estimate of its gain over the start (the sum of its accepted moves' differences: biased
 * up by the choosing, which the final evaluation is not), games and candidates, the last
 * accepted move, and during the evaluation both decks' scores so far. */
static json_t *run_progress(void *data)
{
    static const char *const phases[] = {"search", "evaluation", "done"};
    const struct opt_run *run = data;
    const struct opt_state *st = &run->st;
    json_t *o = json_object();
    int bad = !o || put(o, "phase", json_string(phases[st->phase])) ||
              put(o, "best", deck_string(run->job, &st->best)) ||
              put(o, "estimate", json_real(reported(run->job, st->best_est))) ||
              put(o, "games", json_integer((json_int_t)st->spent)) ||
              put(o, "candidates", json_integer((json_int_t)st->tried)) ||
              put(o, "accepted", json_integer((json_int_t)st->accepted)) ||
              put(o, "race_games", json_integer((json_int_t)race_bound(run))) ||
              put(o, "last_move", last_move_json(run));

    if (!bad && st->eval_n > 0)
        bad =
            put(o, "evaluation",
                json_pack("{s:I, s:o, s:o}", "games", (json_int_t)st->eval_n, "best",
                          mean_json(run->job, st->eval_n, st->ev_sum[1], st->ev_sumsq[1]), "start",
                          mean_json(run->job, st->eval_n, st->ev_sum[0], st->ev_sumsq[0])));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* ===== Checkpoints: the state, the race's scores so far, the accepted moves ===== */

static enum sk_err run_save(void *data, struct sk_buf *out)
{
    const struct opt_run *run = data;
    uint64_t n_log = run->st.n_log < OPT_MOVES_LOG_MAX ? run->st.n_log : OPT_MOVES_LOG_MAX;

    (void)sk_buf_add(out, &run->st, sizeof(run->st));
    (void)sk_buf_add(out, run->inc_scores, run->st.inc_n * sizeof(double));
    (void)sk_buf_add(out, run->cand_scores, run->st.cand_n * sizeof(double));
    (void)sk_buf_add(out, run->inc_obj, run->st.inc_n * sizeof(double));
    (void)sk_buf_add(out, run->cand_obj, run->st.cand_n * sizeof(double));
    (void)sk_buf_add(out, run->log, n_log * sizeof(*run->log));
    return out->err;
}

/* 1 when `st` could be a state of a run of `job`. */
static int state_fits(const struct opt_job *job, const struct opt_state *st)
{
    return st->phase >= OPT_SEARCH && st->phase <= OPT_DONE && st->stop >= OPT_STOP_NONE &&
           st->stop <= OPT_STOP_TARGET && st->spent <= job->budget_games &&
           st->inc_n <= race_cap(job) && st->cand_n <= race_cap(job) && st->widen >= 0 &&
           st->widen <= OPT_WIDEN_MAX && st->sweep.bits >= 0 && st->sweep.bits <= 62 &&
           st->sweep.next <= (1ULL << st->sweep.bits) && st->epoch_n >= 0 &&
           st->epoch_n <= OPT_EPOCH && st->eval_n <= job->eval_games &&
           (st->have_cand == 0 || st->have_cand == 1) && st->rng.used <= 4 &&
           battle_opt_deck_fits(job, &st->inc) && battle_opt_deck_fits(job, &st->best) &&
           (!st->have_cand || battle_opt_deck_fits(job, &st->cand)) && st->elapsed_s >= 0 &&
           battle_opt_fund_fits(job, &st->inc) && battle_opt_fund_fits(job, &st->best) &&
           (!st->have_cand || battle_opt_fund_fits(job, &st->cand));
}

static enum sk_err run_restore(void *data, const unsigned char *p, size_t len, uint64_t *done)
{
    struct opt_run *run = data;
    struct opt_state st;
    uint64_t n_log;
    size_t need;

    if (len < sizeof(st))
        return SK_EINVAL;
    memcpy(&st, p, sizeof(st));
    if (!state_fits(run->job, &st))
        return SK_EINVAL;
    n_log = st.n_log < OPT_MOVES_LOG_MAX ? st.n_log : OPT_MOVES_LOG_MAX;
    need = sizeof(st) + 2 * (st.inc_n + st.cand_n) * sizeof(double) + n_log * sizeof(*run->log);
    if (len != need)
        return SK_EINVAL;
    if (st.have_cand) { /* the candidate's plans, as next_candidate made them */
        char why[256];
        enum sk_err rc = battle_opt_plans(run->job, &st.cand, run->cand_plans, why, sizeof(why));
        if (rc)
            return rc == SK_ENOMEM ? SK_ENOMEM : SK_EINVAL;
    }
    run->st = st;
    p += sizeof(st);
    memcpy(run->inc_scores, p, st.inc_n * sizeof(double));
    p += st.inc_n * sizeof(double);
    memcpy(run->cand_scores, p, st.cand_n * sizeof(double));
    p += st.cand_n * sizeof(double);
    memcpy(run->inc_obj, p, st.inc_n * sizeof(double));
    p += st.inc_n * sizeof(double);
    memcpy(run->cand_obj, p, st.cand_n * sizeof(double));
    p += st.cand_n * sizeof(double);
    memcpy(run->log, p, n_log * sizeof(*run->log));
    *done = units_done(run);
    return SK_OK;
}

/* A unit another run of this job handed out (job_unit_run): played on a pool of the
 * caller's threads made for it (a unit is thousands of games: the threads' start is
 * nothing beside them). */
static enum sk_err run_unit(void *state, const void *data, const struct job_run_opts *opts,
                            const void *spec, size_t len, struct sk_buf *out, char *err,
                            size_t errlen)
{
    struct battle_pool *pool = NULL;
    enum sk_err rc;

    (void)state;
    rc = battle_pool_new(thread_count(opts->threads), &pool);
    if (rc) {
        snprintf(err, errlen, "the unit's threads could not be started: %s", sk_err_str(rc));
        return rc;
    }
    rc = battle_opt_unit_run(data, pool, spec, len, out, err, errlen);
    battle_pool_free(pool);
    return rc;
}

static const char *job_pinned(const void *data)
{
    const struct opt_job *job = data;
    return battle_catalog_hash(job->cat);
}

const struct job_kind_ops optimize_kind = {
    .name = "optimize",
    .units_are_games = 1, /* the candidates' evaluation games */
    .open = engine_open,
    .decode = decode_params,
    .free = job_free_data,
    .total = job_units,
    .run_new = run_new,
    .step = run_step,
    .result = run_result,
    .partial = run_partial,
    .run_free = run_free,
    .save = run_save,
    .restore = run_restore,
    .progress = run_progress,
    .unit = run_unit,
    .pinned = job_pinned,
    .catalogs = battle_catalog_hashes,
    .refresh = battle_catalog_refresh,
};
