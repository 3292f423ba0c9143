/* SPDX-License-Identifier: MIT */
/* Optimize jobs through job.h: the racing statistic's verdicts and intervals; every field
 * and infeasible constraint set refused at its pointer; the same seed finding the same deck
 * whatever the threads and the split into steps; a run stopped anywhere and restored from
 * its checkpoint ending as one that never stopped; the budget never overspent; a canceled
 * run keeping its best deck; the result never below the starting deck on its own
 * evaluation; reorder only moving cards; the factions constraint refused when broken or
 * infeasible, and no move of a search over the game's cards leaving the factions. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battle_catalog.h"
#include "battle_opt_codec.h"
#include "battle_opt_moves.h"
#include "battle_race.h"
#include "battle_tu.h"
#include "engine.h"
#include "job.h"
#include "sk_buf.h"
#include "sk_mem.h"

#include "sk_banned.h"

static struct engine *eng;

static int setup(void)
{
    struct engine_opts eo = {.device = "cpu"};
    char err[256];
    sk_mem_init_json();
    return engine_new(&eo, &eng, err, sizeof(err)) != SK_OK;
}

static int teardown(void)
{
    engine_free(eng);
    return 0;
}

/* ===== The racing statistic ===== */

static void test_race_verdicts(void)
{
    struct battle_race r = {0};
    double lo, hi;

    CU_ASSERT_EQUAL(battle_race_decide(&r, 100, 1.0), BATTLE_RACE_GO_ON);
    battle_race_add(&r, 1, 1);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 100, 1.0), BATTLE_RACE_GO_ON); /* one game */
    CU_ASSERT_EQUAL(battle_race_decide(&r, 1, 1.0), BATTLE_RACE_DROP);
    /* 1, 0 alternating over 100 games: mean 0.5, variance 25/99, se sqrt(25/99/100) */
    memset(&r, 0, sizeof(r));
    for (int i = 0; i < 100; i++)
        battle_race_add(&r, i % 2 ? 0.0 : 1.0, i % 2 ? 0.0 : 1.0);
    CU_ASSERT_DOUBLE_EQUAL(battle_race_mean(&r), 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(battle_race_se(&r), sqrt(25.0 / 99.0 / 100.0), 1e-15);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 1000, 1.0), BATTLE_RACE_BETTER);
    /* every game the same for both decks (64 differences of 0, zero variance): no verdict
     * on a spread of 0 (se is taken as unit / 64), more games; at the bound, dropped */
    memset(&r, 0, sizeof(r));
    for (int i = 0; i < 64; i++)
        battle_race_add(&r, 0.0, 0.0);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 1000, 1.0), BATTLE_RACE_GO_ON);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 1000, 1e-9), BATTLE_RACE_GO_ON);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 64, 1.0), BATTLE_RACE_DROP);
    /* every difference +1 (zero variance again): mean 1 against the floor's se 1/64 (unit
     * 1): better */
    memset(&r, 0, sizeof(r));
    for (int i = 0; i < 64; i++)
        battle_race_add(&r, 1.0, 1.0);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 1000, 1.0), BATTLE_RACE_BETTER);
    memset(&r, 0, sizeof(r));
    /* the tie-break alone (+1e-6 a game with a unit of 1e-9, its scale; the objective the
     * same in every game): never better before the bound, however clear, since those games
     * say nothing of the objective; at the bound, the objective not worse, better */
    for (int i = 0; i < 64; i++)
        battle_race_add(&r, 1e-6, 0.0);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 1000, 1e-9), BATTLE_RACE_GO_ON);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 64, 1e-9), BATTLE_RACE_BETTER);
    /* ... not with a floor of a whole game: mean 1e-6 - 2.58 / 64 < 0 at the bound */
    CU_ASSERT_EQUAL(battle_race_decide(&r, 1000, 1.0), BATTLE_RACE_GO_ON);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 64, 1.0), BATTLE_RACE_DROP);
    /* the tie-break better (a sooner win in 60 games) but the objective worse (a loss in
     * the other 4, each still adding its tie-break): at the bound, dropped */
    memset(&r, 0, sizeof(r));
    for (int i = 0; i < 64; i++)
        battle_race_add(&r, i < 4 ? -1.0 + 1e-6 : 1e-6, i < 4 ? -1.0 : 0.0);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 64, 1e-9), BATTLE_RACE_DROP);
    /* +1 in 2 games of 64, 0 in the rest: se sqrt((2 - 4/64) / 63 / 64) = 0.0219 above the
     * floor 1/64; mean 0.03125 - 2.58 se < 0 and mean + se / 2 > 0: on, until the bound */
    memset(&r, 0, sizeof(r));
    for (int i = 0; i < 64; i++)
        battle_race_add(&r, i < 2 ? 1.0 : 0.0, i < 2 ? 1.0 : 0.0);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 1000, 1.0), BATTLE_RACE_GO_ON);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 64, 1.0), BATTLE_RACE_DROP);
    /* +1 in 5 games, -1 in 4, 0 in 55: mean 1/64, se about 0.035: neither proven better
     * (mean - 2.58 se < 0) nor more likely worse (mean + se / 2 > 0), until the bound */
    memset(&r, 0, sizeof(r));
    for (int i = 0; i < 64; i++)
        battle_race_add(&r, i < 5 ? 1.0 : i < 9 ? -1.0 : 0.0, i < 5 ? 1.0 : i < 9 ? -1.0 : 0.0);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 1000, 1.0), BATTLE_RACE_GO_ON);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 64, 1.0), BATTLE_RACE_DROP);
    /* -1 in 4 games, +1 in 2: mean -1/32, se about 0.0384: more likely worse (mean + se / 2
     * < 0, where mean + se > 0): dropped */
    memset(&r, 0, sizeof(r));
    for (int i = 0; i < 64; i++)
        battle_race_add(&r, i < 4 ? -1.0 : i < 6 ? 1.0 : 0.0, i < 4 ? -1.0 : i < 6 ? 1.0 : 0.0);
    CU_ASSERT(battle_race_mean(&r) + battle_race_se(&r) > 0);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 1000, 1.0), BATTLE_RACE_DROP);
    /* clearly worse */
    memset(&r, 0, sizeof(r));
    for (int i = 0; i < 64; i++)
        battle_race_add(&r, i < 20 ? -1.0 : i < 22 ? 1.0 : 0.0, i < 20 ? -1.0 : i < 22 ? 1.0 : 0.0);
    CU_ASSERT_EQUAL(battle_race_decide(&r, 1000, 1.0), BATTLE_RACE_DROP);
    /* the interval: mean 0.5 +- 1.959964 * sqrt(25/99/100), inside the caps */
    battle_race_ci95(100, 50, 50, 0, 1, &lo, &hi);
    CU_ASSERT_DOUBLE_EQUAL(lo, 0.5 - 1.959963984540054 * sqrt(25.0 / 99.0 / 100.0), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hi, 0.5 + 1.959963984540054 * sqrt(25.0 / 99.0 / 100.0), 1e-12);
    battle_race_ci95(1, 1, 1, 0, 1, &lo, &hi);
    CU_ASSERT_EQUAL(lo, 0.0);
    CU_ASSERT_EQUAL(hi, 1.0);
    battle_race_ci95(10, 10, 10, 0, 1, &lo, &hi); /* no spread: the point, capped */
    CU_ASSERT_EQUAL(lo, 1.0);
    CU_ASSERT_EQUAL(hi, 1.0);
}

/* ===== Documents ===== */

/* A job document from `text` with ' for " (readable C strings). */
static json_t *doc_of(const char *text)
{
    char buf[4096];
    size_t n = strlen(text);

    CU_ASSERT_FATAL(n < sizeof(buf));
    for (size_t i = 0; i <= n; i++)
        buf[i] = text[i] == '\'' ? '"' : text[i];
    return json_loads(buf, JSON_REJECT_DUPLICATES, NULL);
}

#define START                                                                                      \
    "'attacker': {'commander': 'Test Commander', 'deck': [{'card': 'Grunt', 'count': 3},"          \
    " {'card': 'Plated Grunt', 'count': 3}, {'card': 'Barricade', 'count': 2}]},"
#define ENEMY "'defender': {'commander': 'Hex Mistress', 'deck': [{'card': 'Grunt', 'count': 4}]},"
#define POOL                                                                                       \
    "'pool': [{'card': 'Chainslicer', 'count': 3}, {'card': 'Lead Dozer', 'count': 2},"            \
    " {'card': 'Bloodfang', 'count': 3}, {'card': 'Iron Warden'}],"

/* Decodes `text`; expects it refused with a problem at `pointer`. */
static void expect_bad(const char *text, const char *pointer)
{
    json_t *doc = doc_of(text);
    struct sk_verr_list errs;
    struct job *job = NULL;
    int found = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(job_decode(doc, &job, &errs), SK_EINVAL);
    for (size_t i = 0; i < errs.n; i++)
        found |= strcmp(errs.items[i].pointer, pointer) == 0;
    if (!found) {
        fprintf(stderr, "\nwanted a problem at %s; got:\n", pointer);
        for (size_t i = 0; i < errs.n; i++)
            fprintf(stderr, "  %s: %s\n", errs.items[i].pointer, errs.items[i].message);
    }
    CU_ASSERT(found);
    job_free(job);
    sk_verr_list_release(&errs);
    json_decref(doc);
}

static void test_decode_errors(void)
{
    /* a scoring means something only to the points objective, and must be one */
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL "'scoring': 'brawl'}}",
               "/params/scoring");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'objective': 'points', 'scoring': 'gw'}}",
               "/params/scoring");
    /* infeasible constraint sets */
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'constraints': {'deck_size': {'min': 9, 'max': 7}}}}",
               "/params/constraints/deck_size/min");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'constraints': {'deck_size': {'min': 9, 'max': 12}}}}",
               "/params/constraints/deck_size");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'constraints': {'max_copies': 2}}}",
               "/params/constraints/max_copies");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'constraints': {'keep': ['Grunt', 'Anvil']}}}",
               "/params/constraints/keep/1");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'constraints': {'keep': ['Barricade', 'Barricade', 'Barricade']}}}",
               "/params/constraints/keep/2");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'constraints': {'freeze_first': 9}}}",
               "/params/constraints/freeze_first");
    /* nothing to add, nothing to remove, nothing to swap in: no move at all */
    expect_bad("{'kind':'optimize','params':{" START ENEMY
               "'pool': [], 'constraints': {'deck_size': {'min': 8, 'max': 8}}}}",
               "/params/constraints");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL "'algorithm': 'reorder'}}",
               "/params/algorithm");
    /* factions: known names, each once, a list of 1 .. 7; the project's cards are "none" */
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'constraints': {'factions': ['none', 'elves']}}}",
               "/params/constraints/factions/1");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'constraints': {'factions': ['none', 'xeno', 'none']}}}",
               "/params/constraints/factions/2");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL "'constraints': {'factions': []}}}",
               "/params/constraints/factions");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'constraints': {'factions': 'none'}}}",
               "/params/constraints/factions");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'constraints': {'factions': ['imperial', 'raider']}}}",
               "/params/constraints/factions");
    /* flexible play is for battle jobs: its look-ahead games would swamp a search */
    expect_bad("{'kind':'optimize','params':{'attacker': {'commander': 'Test Commander', 'deck':"
               " [{'card': 'Grunt', 'count': 3}, {'card': 'Barricade', 'count': 2}],"
               " 'play': 'flexible'}," ENEMY POOL "'algorithm': 'climb'}}",
               "/params/attacker");
    /* fields */
    expect_bad("{'kind':'optimize','params':{" START ENEMY "'pool': [{'card': 'Chainslicr'}]}}",
               "/params/pool/0/card");
    expect_bad("{'kind':'optimize','params':{" START ENEMY
               "'pool': [{'card': 'Lightning Cannon'}]}}",
               "/params/pool/0/card");
    expect_bad("{'kind':'optimize','params':{" START ENEMY
               "'pool': [{'card': 'Grunt', 'count': 51}]}}",
               "/params/pool/0/count");
    expect_bad("{'kind':'optimize','params':{" START ENEMY "'pool': 'everything'}}",
               "/params/pool");
    expect_bad("{'kind':'optimize','params':{" START ENEMY "'objective': 'draw'}}",
               "/params/pool"); /* and the pool is required */
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL "'objective': 'draw'}}",
               "/params/objective");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL "'budget': {'games': 10}}}",
               "/params/budget/games");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL "'budget': {'seconds': 0}}}",
               "/params/budget/seconds");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL "'budget': {'target': 0}}}",
               "/params/budget/target");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL "'budget': {'target': 1.5}}}",
               "/params/budget/target"); /* a win rate is at most 1 */
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'objective': 'points', 'budget': {'target': 600}}}",
               "/params/budget/target"); /* points are at most 511 */
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL
               "'race': {'batch': 100, 'max_games': 50}}}",
               "/params/race/max_games");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL "'eval_games': 5}}",
               "/params/eval_games");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL "'temperature': -1}}",
               "/params/temperature");
    expect_bad("{'kind':'optimize','params':{" START ENEMY POOL "'games': 100}}", "/params/games");
    /* the battle's own fields, at the battle's pointers */
    expect_bad("{'kind':'optimize','params':{"
               "'attacker': {'commander': 'Test Commander', 'deck': [{'card': 'Grnt'}]}," ENEMY POOL
               "'mode': 'fight'}}",
               "/params/attacker/deck/0/card");
    expect_bad("{'kind':'optimize','params':{" START
               "'defender': [{'deck': 'Hex Mistress, Grunt#4', 'weight': 1},"
               " {'deck': 'Barracus, Grunt', 'weight': 0}]," POOL "'turn_limit': 50}}",
               "/params/defender/1/weight");
}

/* ===== Runs ===== */

#define CLIMB                                                                                      \
    "{'kind':'optimize','seed':%d,'params':{" START                                                \
    "'defender': [{'deck': 'Hex Mistress, Grunt#4', 'weight': 2},"                                 \
    " {'deck': 'Iron Warden, Grunt#6, Brute#2', 'weight': 1}]," POOL                               \
    "'constraints': {'deck_size': {'min': 6, 'max': 10}, 'commander': 'owned', 'max_copies': 3},"  \
    "'algorithm': '%s', 'budget': {'games': %d}, 'eval_games': 1000}}"

static struct job *decode_doc(json_t *doc)
{
    struct sk_verr_list errs;
    struct job *job = NULL;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(job_decode(doc, &job, &errs), SK_OK);
    for (size_t i = 0; i < errs.n; i++)
        fprintf(stderr, "\n%s: %s\n", errs.items[i].pointer, errs.items[i].message);
    sk_verr_list_release(&errs);
    json_decref(doc);
    return job;
}

static struct job *climb_job(int seed, const char *algorithm, int budget)
{
    char text[4096];
    snprintf(text, sizeof(text), CLIMB, seed, algorithm, budget);
    return decode_doc(doc_of(text));
}

/* The result of `job` run on `threads` threads in steps of `step` units (0 = one step);
 * elapsed time removed, so results compare. */
static json_t *run_all(const struct job *job, int threads, uint64_t step)
{
    struct job_run_opts opts = {.threads = threads};
    struct job_run *run = NULL;
    char err[256];
    uint64_t done = 0;
    json_t *res = NULL;

    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_OK);
    while (done < job_total(job))
        CU_ASSERT_EQUAL_FATAL(job_run_step(run, step, &done), SK_OK);
    CU_ASSERT_EQUAL(done, job_total(job));
    CU_ASSERT_EQUAL(job_run_result(run, &res), SK_OK);
    json_object_del(res, "elapsed_ms");
    job_run_free(run);
    return res;
}

/* `job` run on `threads` threads in steps whose deadline has already passed: each does at
 * least one unit; the result (elapsed time removed), with the steps of the evaluation in
 * *eval_steps. */
static json_t *run_past_deadline(const struct job *job, int threads, int *eval_steps)
{
    struct job_run_opts opts = {.threads = threads};
    struct job_run *run = NULL;
    char err[256];
    uint64_t done = 0;
    json_t *res = NULL;

    *eval_steps = 0;
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_OK);
    while (done < job_total(job)) {
        uint64_t before = done;
        json_t *p;
        CU_ASSERT_EQUAL_FATAL(job_run_step_until(run, 0, 1, &done), SK_OK);
        CU_ASSERT_FATAL(done > before);
        p = job_run_progress(run);
        *eval_steps += strcmp(json_string_value(json_object_get(p, "phase")), "search") != 0;
        json_decref(p);
    }
    CU_ASSERT_EQUAL(job_run_result(run, &res), SK_OK);
    json_object_del(res, "elapsed_ms");
    job_run_free(run);
    return res;
}

/* A step with a deadline stops between race batches and between slices of the evaluation
 * (so a worker sees a cancel however long the evaluation), and the deck and the scores are
 * those of one step, on one thread and on three. */
static void test_deadline_steps_same_deck(void)
{
    struct job *job = climb_job(7, "climb", 4000);
    json_t *want = run_all(job, 1, 0);
    int eval_steps = 0;

    for (int threads = 1; threads <= 3; threads += 2) {
        json_t *got = run_past_deadline(job, threads, &eval_steps);
        CU_ASSERT(json_equal(want, got));
        /* 1,000 evaluation games a deck, in slices of 8 games a deck growing from there */
        CU_ASSERT(eval_steps >= 3);
        json_decref(got);
    }
    json_decref(want);
    job_free(job);
}

/* Several threads play the next candidates' first batches ahead (battle_opt.c, "Playing
 * ahead"): the result must still be the one-thread search's, for climb and for anneal
 * (whose acceptance draws come from the same stream as the moves). */
static void test_same_seed_same_deck(void)
{
    static const char *const algorithms[] = {"climb", "anneal"};

    for (int i = 0; i < 2; i++) {
        struct job *job = climb_job(5, algorithms[i], 20000);
        json_t *a = run_all(job, 1, 0);
        json_t *b = run_all(job, 3, 777);
        json_t *c = run_all(job, 2, 1);
        json_t *d = run_all(job, 8, 0);

        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT(json_equal(a, b));
        CU_ASSERT(json_equal(a, c));
        CU_ASSERT(json_equal(a, d));
        /* it found something, and the budget was spent on candidates (once the deck wins
         * every game, a move the tie-break alone favours races to the bound, 2048 games per
         * defender deck, before it is taken: a handful of candidates) */
        CU_ASSERT(json_integer_value(json_object_get(a, "moves_accepted")) >= 1);
        CU_ASSERT(json_integer_value(json_object_get(a, "candidates")) >= 5);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(a, "stopped")), "budget");
        json_decref(a);
        json_decref(b);
        json_decref(c);
        json_decref(d);
        job_free(job);
    }
}

static void test_budget_and_never_worse(void)
{
    static const char *const algorithms[] = {"climb", "anneal"};

    for (int seed = 1; seed <= 4; seed++)
        for (int a = 0; a < 2; a++) {
            struct job *job = climb_job(seed, algorithms[a], 5000);
            json_t *res = run_all(job, 0, 0);
            json_t *games = json_object_get(res, "games");
            double best = json_real_value(json_object_get(json_object_get(res, "best"), "score"));
            double start = json_real_value(json_object_get(json_object_get(res, "start"), "score"));
            CU_ASSERT(json_integer_value(json_object_get(games, "search")) <= 5000);
            CU_ASSERT(json_integer_value(json_object_get(games, "search")) > 4000);
            CU_ASSERT_EQUAL(json_integer_value(json_object_get(games, "evaluation")), 4000);
            CU_ASSERT(best >= start);
            CU_ASSERT(json_real_value(json_object_get(res, "improvement")) >= 0);
            if (json_is_true(json_object_get(res, "kept_start")))
                CU_ASSERT(json_equal(json_object_get(json_object_get(res, "best"), "list"),
                                     json_object_get(json_object_get(res, "start"), "list")));
            json_decref(res);
            job_free(job);
        }
}

/* The points objective: under "win" scoring a game scores 100 points a win, so the search
 * (scores as points / 100) is the win objective's, decks and moves alike, and its scores
 * are the win objective's times 100; under brawl scoring (a loss or stall scores 5) the
 * scores are brawl points, the search never ends worse than the start, and the result
 * names the scoring. */
static void test_points_objective(void)
{
    static const char *const keys[] = {"score", "score_ci95"};
    char text[4096];
    struct job *win, *pts, *brawl;
    json_t *a, *b, *c;
    int n;

    n = snprintf(text, sizeof(text), CLIMB, 3, "climb", 4000);
    CU_ASSERT_FATAL(n > 0 && (size_t)n < sizeof(text));
    win = decode_doc(doc_of(text));
    text[n - 2] = '\0'; /* the closing "}}": objective and scoring go in */
    snprintf(text + n - 2, sizeof(text) - (size_t)n + 2,
             ", 'objective': 'points', 'scoring': 'win'}}");
    pts = decode_doc(doc_of(text));
    snprintf(text + n - 2, sizeof(text) - (size_t)n + 2,
             ", 'objective': 'points', 'scoring': 'brawl', 'mode': 'surge'}}");
    brawl = decode_doc(doc_of(text));
    a = run_all(win, 2, 0);
    b = run_all(pts, 2, 0);
    c = run_all(brawl, 2, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT(json_equal(json_object_get(json_object_get(a, "best"), "list"),
                         json_object_get(json_object_get(b, "best"), "list")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(a, "moves_accepted")),
                    json_integer_value(json_object_get(b, "moves_accepted")));
    CU_ASSERT_DOUBLE_EQUAL(100 * json_real_value(json_object_get(a, "improvement")),
                           json_real_value(json_object_get(b, "improvement")), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(
        json_real_value(json_object_get(json_object_get(a, "start"), "score")) * 100,
        json_real_value(json_object_get(json_object_get(b, "start"), "score")), 1e-9);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(b, "objective")), "points");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(b, "scoring")), "win");
    CU_ASSERT_PTR_NULL(json_object_get(a, "scoring"));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(c, "scoring")), "brawl");
    for (int d = 0; d < 2; d++) {
        const json_t *deck = json_object_get(c, d ? "best" : "start");
        double s = json_real_value(json_object_get(deck, keys[0]));
        const json_t *ci = json_object_get(deck, keys[1]);
        CU_ASSERT(s >= 5 && s <= BATTLE_POINTS_MAX);
        CU_ASSERT(json_real_value(json_array_get(ci, 0)) <= s);
        CU_ASSERT(json_real_value(json_array_get(ci, 1)) >= s);
        CU_ASSERT(json_real_value(json_array_get(ci, 1)) <= BATTLE_POINTS_MAX);
    }
    CU_ASSERT(json_real_value(json_object_get(json_object_get(c, "best"), "score")) >=
              json_real_value(json_object_get(json_object_get(c, "start"), "score")));
    json_decref(a);
    json_decref(b);
    json_decref(c);
    job_free(win);
    job_free(pts);
    job_free(brawl);
}

/* Runs `job` for `stop_at` units (steps of `step`), saves, restores into a new run (on
 * other threads), finishes it, and compares with `want`. */
static void check_resume(const struct job *job, uint64_t step, uint64_t stop_at, const json_t *want)
{
    struct job_run_opts one = {.threads = 1}, two = {.threads = 2};
    struct job_run *a = NULL, *b = NULL;
    struct sk_buf ck;
    char err[256];
    uint64_t done = 0, from = 0;
    json_t *res = NULL;

    sk_buf_init(&ck, 0);
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &one, &a, err, sizeof(err)), SK_OK);
    while (done < stop_at)
        CU_ASSERT_EQUAL_FATAL(job_run_step(a, step, &done), SK_OK);
    CU_ASSERT_EQUAL_FATAL(job_run_save(a, &ck), SK_OK);
    job_run_free(a);
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &two, &b, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL_FATAL(job_run_restore(b, ck.p, ck.len, &from), SK_OK);
    CU_ASSERT_EQUAL(from, done);
    while (from < job_total(job))
        CU_ASSERT_EQUAL_FATAL(job_run_step(b, step, &from), SK_OK);
    CU_ASSERT_EQUAL(job_run_result(b, &res), SK_OK);
    json_object_del(res, "elapsed_ms");
    CU_ASSERT(json_equal(res, want));
    json_decref(res);
    job_run_free(b);
    sk_buf_release(&ck);
}

static void test_resume_anywhere(void)
{
    struct job *job = climb_job(9, "anneal", 8000);
    json_t *want = run_all(job, 1, 0);
    uint64_t total = job_total(job);

    /* inside a race, between candidates, at the search's end, inside the evaluation */
    check_resume(job, 300, 300, want);
    check_resume(job, 1000, 3000, want);
    check_resume(job, 7000, 7000, want);
    check_resume(job, 8000, 8000, want);
    check_resume(job, 100, total - 1000, want);
    json_decref(want);
    job_free(job);
}

static void test_checkpoint_refused(void)
{
    struct job *job = climb_job(9, "climb", 8000);
    struct job *other = climb_job(9, "climb", 9000);
    struct job_run *a = NULL, *b = NULL;
    struct sk_buf ck;
    char err[256];
    uint64_t done = 0, from = 0;

    sk_buf_init(&ck, 0);
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, NULL, &a, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL_FATAL(job_run_step(a, 500, &done), SK_OK);
    CU_ASSERT_EQUAL_FATAL(job_run_save(a, &ck), SK_OK);
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, other, NULL, &b, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(job_run_restore(b, ck.p, ck.len, &from), SK_EINVAL); /* another job */
    job_run_free(b);
    b = NULL;
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, NULL, &b, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(job_run_restore(b, ck.p, ck.len - 1, &from), SK_EINVAL); /* shortened */
    ((unsigned char *)ck.p)[ck.len - 1] ^= 0; /* unchanged bytes restore */
    CU_ASSERT_EQUAL(job_run_restore(b, ck.p, ck.len, &from), SK_OK);
    CU_ASSERT_EQUAL(from, done);
    job_run_free(a);
    job_run_free(b);
    sk_buf_release(&ck);
    job_free(job);
    job_free(other);
}

static void test_cancel_keeps_best(void)
{
    struct job *job = climb_job(5, "climb", 20000);
    struct job_run *run = NULL;
    char err[256];
    uint64_t done = 0;
    json_t *res = NULL, *best;

    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, NULL, &run, err, sizeof(err)), SK_OK);
    while (done < 10000)
        CU_ASSERT_EQUAL_FATAL(job_run_step(run, 1000, &done), SK_OK);
    CU_ASSERT_EQUAL(job_run_result(run, &res), SK_ECONFLICT);
    /* what a watcher sees meanwhile: the search, its best deck and counters */
    res = job_run_progress(run);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(res, "phase")), "search");
    CU_ASSERT(json_is_string(json_object_get(res, "best")));
    CU_ASSERT((uint64_t)json_integer_value(json_object_get(res, "games")) == done);
    CU_ASSERT(json_integer_value(json_object_get(res, "accepted")) >= 1);
    CU_ASSERT(json_is_object(json_object_get(res, "last_move")));
    json_decref(res);
    res = NULL;
    CU_ASSERT_EQUAL_FATAL(job_run_partial_result(run, &res), SK_OK);
    CU_ASSERT(json_is_true(json_object_get(res, "partial")));
    best = json_object_get(res, "best");
    CU_ASSERT(json_is_string(json_object_get(best, "deck")));
    CU_ASSERT(json_is_object(json_object_get(best, "list")));
    CU_ASSERT(json_is_null(json_object_get(best, "score")));
    CU_ASSERT(json_is_null(json_object_get(res, "stopped")));
    CU_ASSERT(json_integer_value(json_object_get(json_object_get(res, "games"), "search")) >=
              10000);
    CU_ASSERT(json_array_size(json_object_get(res, "moves")) >= 1);
    json_decref(res);
    job_run_free(run);
    job_free(job);
}

/* ===== The budget spent: the ceiling, a stuck search, a target ===== */

/* The result of the job `text` (' for "), run on one thread in one step. */
static json_t *run_text(const char *text)
{
    struct job *job = decode_doc(doc_of(text));
    json_t *res = run_all(job, 1, 0);
    job_free(job);
    return res;
}

static const char *stopped_of(const json_t *res)
{
    const char *s = json_string_value(json_object_get(res, "stopped"));
    return s ? s : "";
}

/* A deck that wins every game against Hex Mistress and four Grunts: every candidate that
 * also wins every game differs from it in no game's win, so the races' paired differences
 * in wins are all 0. They were once dropped at their first batch (no spread: a standard
 * error of 0), and the search accepted no move on the whole budget; now races compare
 * such decks on the tie-break (sooner wins), and the search climbs on it, to decks that
 * still win every game of the evaluation, taking each such move only at its race's bound
 * (2048 games: never on a few games that say nothing of a rare loss). */
static void test_ceiling_tie_break(void)
{
    struct job *job = decode_doc(doc_of(
        "{'kind':'optimize','seed':5,'params':{"
        "'attacker': 'Test Commander, Grunt#3, Plated Grunt#3, Barricade#2, Lead Dozer'," ENEMY POOL
        "'constraints': {'deck_size': {'min': 6, 'max': 10}, 'max_copies': 3},"
        "'budget': {'games': 20000}, 'eval_games': 1000}}"));
    json_t *res = run_all(job, 1, 0), *three = run_all(job, 3, 0);
    json_t *moves = json_object_get(res, "moves");
    size_t i;
    json_t *m;

    CU_ASSERT_EQUAL(json_real_value(json_object_get(json_object_get(res, "start"), "score")), 1.0);
    CU_ASSERT_EQUAL(json_real_value(json_object_get(json_object_get(res, "best"), "score")), 1.0);
    CU_ASSERT(json_integer_value(json_object_get(res, "moves_accepted")) >= 1);
    json_array_foreach(moves, i, m)
    {
        /* improving on the tie-break alone: a difference far below one game's win, on a
         * whole race */
        CU_ASSERT(json_is_true(json_object_get(m, "improving")));
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(m, "raced")), 2048);
        CU_ASSERT(json_real_value(json_object_get(m, "difference")) > 0);
        CU_ASSERT(json_real_value(json_object_get(m, "difference")) < 1e-6);
    }
    CU_ASSERT_STRING_EQUAL(stopped_of(res), "budget");
    CU_ASSERT(json_integer_value(json_object_get(json_object_get(res, "games"), "search")) > 19000);
    /* the tie-break is part of every race's score: the same on three threads, resumed */
    CU_ASSERT(json_equal(three, res));
    check_resume(job, 500, 5000, res);
    json_decref(three);
    json_decref(res);
    job_free(job);
}

/* One move only (a one-card deck, one pool card): each sweep of the deck's moves is that
 * one candidate. Each sweep races it on a fresh block of games, the search goes on until
 * the budget is spent, and each sweep that accepts no move widens the races, three times:
 * race_games in the progress goes 2048, 4096, 8192, 16384. */
static void test_stuck_search_widens(void)
{
    json_t *doc =
        doc_of("{'kind':'optimize','seed':2,'params':{"
               "'attacker': 'Test Commander, Grunt'," ENEMY "'pool': [{'card': 'Plated Grunt'}],"
               "'constraints': {'deck_size': {'min': 1, 'max': 1}},"
               "'budget': {'games': 100000}, 'eval_games': 100}}");
    struct job *job = decode_doc(doc);
    struct job_run_opts opts = {.threads = 1};
    struct job_run *run = NULL;
    char err[256];
    uint64_t done = 0;
    json_int_t widest = 0, first = 0;
    json_t *res = NULL;

    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_OK);
    while (done < job_total(job)) {
        json_t *p;
        CU_ASSERT_EQUAL_FATAL(job_run_step(run, 2000, &done), SK_OK);
        p = job_run_progress(run);
        if (strcmp(json_string_value(json_object_get(p, "phase")), "search") == 0) {
            json_int_t g = json_integer_value(json_object_get(p, "race_games"));
            first = first ? first : g;
            widest = g > widest ? g : widest;
        }
        json_decref(p);
    }
    CU_ASSERT_EQUAL(job_run_result(run, &res), SK_OK);
    json_object_del(res, "elapsed_ms");
    CU_ASSERT_EQUAL(first, 2048);
    CU_ASSERT_EQUAL(widest, 16384);
    CU_ASSERT_STRING_EQUAL(stopped_of(res), "budget");
    CU_ASSERT(json_integer_value(json_object_get(json_object_get(res, "games"), "search")) > 99000);
    /* many candidates: the one move, tried again each sweep, never dropped for good */
    CU_ASSERT(json_integer_value(json_object_get(res, "candidates")) > 100);
    /* the blocks and the widening are the search's state: on three threads (playing ahead
     * across blocks) and resumed from a checkpoint after widening, the same result */
    {
        json_t *three = run_all(job, 3, 0);
        CU_ASSERT(json_equal(three, res));
        json_decref(three);
    }
    check_resume(job, 2000, 70000, res);
    json_decref(res);
    job_run_free(run);
    job_free(job);
}

/* budget.target: the starting deck wins about 63% against Hex Mistress; with a target of
 * 0.5 the search stops as soon as the incumbent has 2048 games (race.max_games) of its
 * block at 0.5 or more: "target", far inside the budget. */
static void test_target_stops(void)
{
    json_t *res = run_text("{'kind':'optimize','seed':3,'params':{" START ENEMY POOL
                           "'budget': {'games': 50000, 'target': 0.5}, 'eval_games': 1000}}");
    json_int_t search =
        json_integer_value(json_object_get(json_object_get(res, "games"), "search"));

    CU_ASSERT_STRING_EQUAL(stopped_of(res), "target");
    CU_ASSERT(search >= 2048);
    CU_ASSERT(search < 10000);
    CU_ASSERT(json_real_value(json_object_get(json_object_get(res, "start"), "score")) > 0.5);
    json_decref(res);
}

static void test_reorder_moves_only(void)
{
    json_t *doc = doc_of("{'kind':'optimize','seed':3,'params':{"
                         "'attacker': {'commander': 'Test Commander', 'play': 'ordered',"
                         " 'deck': [{'card': 'Barricade', 'count': 2}, {'card': 'Grunt',"
                         " 'count': 3}, {'card': 'Lead Dozer', 'count': 2}]}," ENEMY
                         "'pool': [], 'algorithm': 'reorder', 'budget': {'games': 4000},"
                         "'eval_games': 500}}");
    struct job *job = decode_doc(doc);
    json_t *res = run_all(job, 0, 0);
    json_t *moves = json_object_get(res, "moves");
    json_t *deck = json_object_get(json_object_get(json_object_get(res, "best"), "list"), "deck");
    size_t i;
    json_t *m, *e;
    int grunts = 0, total = 0;

    json_array_foreach(moves, i, m)
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "move")), "reorder");
    json_array_foreach(deck, i, e)
    {
        int n = (int)json_integer_value(json_object_get(e, "count"));
        total += n;
        if (strcmp(json_string_value(json_object_get(e, "card")), "Grunt") == 0)
            grunts += n;
    }
    CU_ASSERT_EQUAL(total, 7);
    CU_ASSERT_EQUAL(grunts, 3);
    json_decref(res);
    job_free(job);
}

/* ===== Factions, on the game's cards ===== */

enum sk_err tu_test_catalog(struct battle_catalog **out); /* test_battle_tu.c */

static struct battle_catalog *real_cat;

/* The game's cards, loaded as the services load them. */
static int real_setup(void)
{
    sk_mem_init_json();
    return tu_test_catalog(&real_cat) != SK_OK;
}

static int real_teardown(void)
{
    battle_catalog_free(real_cat);
    return 0;
}

/* Bloodthirsty (3) and righteous (5) cards, and cards of four other factions. */
#define REAL_START                                                                                 \
    "'attacker': {'commander': 'Emrys', 'deck': [{'card': 'Messiah'}, {'card': 'Cerebellum'},"     \
    " {'card': 'Aciviper'}, {'card': 'Sterling Eagle'}]},"                                         \
    "'defender': 'Zorbo the One, Launcher, Carbine, Pariah, Mark Hunter, Gravedigger',"
#define REAL_IN                                                                                    \
    "{'card': 'Gravedigger', 'count': 2}, {'card': 'Hive Soldier', 'count': 2},"                   \
    " {'card': 'Selfless Soldier', 'count': 2}, {'card': 'Ardent Apostle'}, {'card': 'Acid "       \
    "Spout'}"
#define REAL_OUT                                                                                   \
    "{'card': 'Carbine', 'count': 3}, {'card': 'Pariah', 'count': 3}, {'card': 'Launcher'},"       \
    " {'card': 'Predator', 'count': 2}, {'card': 'The Divine'}, {'card': 'Anasi', 'count': 2}"

/* Decodes the params `text` against the game's cards into *job; SK_OK, or the first
 * problem's pointer in `pointer`. */
static enum sk_err real_decode(const char *text, struct opt_job *job, char *pointer, size_t len)
{
    json_t *params = doc_of(text);
    struct sk_verr_list errs;
    struct sk_jptr ptr;
    enum sk_err rc;

    CU_ASSERT_PTR_NOT_NULL_FATAL(params);
    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    rc = battle_opt_decode(params, 7, real_cat, &ptr, &errs, job);
    snprintf(pointer, len, "%s", errs.n ? errs.items[0].pointer : "");
    for (size_t i = 0; rc == SK_EINVAL && i < errs.n; i++)
        fprintf(stderr, "  (%s: %s)\n", errs.items[i].pointer, errs.items[i].message);
    sk_verr_list_release(&errs);
    json_decref(params);
    return rc;
}

/* Expects the params `text` refused against the game's cards with a problem at `pointer`. */
static void expect_real_bad(const char *text, const char *pointer)
{
    struct opt_job job;
    char at[256];

    CU_ASSERT_EQUAL(real_decode(text, &job, at, sizeof(at)), SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, pointer);
}

static void test_factions_refused(void)
{
    struct opt_job job;
    char at[256];

    /* the starting deck holds a bloodthirsty card: righteous alone refuses it */
    expect_real_bad("{" REAL_START "'pool': [" REAL_IN "],"
                    "'constraints': {'factions': ['righteous', 'xeno']}}",
                    "/params/constraints/factions");
    /* a pool of other factions only, the size fixed: without the factions the search would
     * swap, with them it has no move */
    expect_real_bad("{" REAL_START "'pool': [" REAL_OUT "],"
                    "'constraints': {'deck_size': {'min': 4, 'max': 4},"
                    " 'factions': ['bloodthirsty', 'righteous']}}",
                    "/params/constraints/factions");
    /* an empty start and no pool card of the factions: no card to build a deck from */
    expect_real_bad("{'attacker': {'commander': 'Emrys', 'deck': []},"
                    "'defender': 'Zorbo the One, Launcher, Carbine',"
                    "'pool': [" REAL_OUT "], 'constraints': {'factions': ['righteous']}}",
                    "/params/constraints/factions");
    /* the same job without the factions is a search */
    CU_ASSERT_EQUAL_FATAL(real_decode("{" REAL_START "'pool': [" REAL_OUT "],"
                                      "'constraints': {'deck_size': {'min': 4, 'max': 4}}}",
                                      &job, at, sizeof(at)),
                          SK_OK);
    battle_opt_job_release(&job);
}

/* A random walk's step: the first move of a fresh sweep of `d`. */
static int walk_move(const struct opt_job *job, const struct opt_deck *d, struct rng *r,
                     struct opt_move *m)
{
    struct opt_sweep s;

    battle_opt_sweep_start(job, d, r, &s);
    return battle_opt_sweep_next(job, d, &s, m);
}

/* Four base cards (fusion level 0) and a commander. */
#define BASE_START                                                                                 \
    "'attacker': {'commander': 'Emrys', 'deck': [{'card': 'Sterling Eagle'}, {'card': 'Carbine'}," \
    " {'card': 'Launcher'}, {'card': 'Gravedigger'}]}, 'defender': 'Zorbo the One, Launcher',"

/* constraints.min_fusion_level (the peer's `endgame N`): on a random walk of a search's
 * moves, no card below the level ever comes in, while every pool card at or above it does;
 * the starting deck's base cards stay until a move takes them out. A level no pool card
 * reaches, or one out of 0 .. 2, is refused at its pointer. */
static void test_min_fusion_level(void)
{
    struct opt_job job;
    struct opt_deck d, next;
    struct opt_move m;
    struct rng r;
    char at[256];
    int came_in[256] = {0}, fused = 0, below_left = 0;

    CU_ASSERT_EQUAL_FATAL(
        real_decode("{" BASE_START "'pool': [{'card': 'Xeno Overlord'}, {'card': 'Demi "
                    "Constrictor'}, {'card': 'Carbine', 'count': 3}, {'card': 'Selfless Soldier'}],"
                    "'constraints': {'deck_size': {'min': 1, 'max': 10}, 'min_fusion_level': 1}}",
                    &job, at, sizeof(at)),
        SK_OK);
    CU_ASSERT_EQUAL(job.min_fusion, 1);
    CU_ASSERT_FATAL(job.n_cards <= 256);
    for (int c = 0; c < job.n_cards; c++)
        fused += job.cards[c].type != BATTLE_COMMANDER && job.cards[c].fusion >= 1;
    CU_ASSERT_EQUAL(fused, 2); /* Xeno Overlord (1) and Demi Constrictor (2) */
    rng_init(&r, 3, 0);
    d = job.start;
    for (int i = 0; i < 5000; i++) {
        if (!walk_move(&job, &d, &r, &m))
            continue;
        battle_opt_apply(&d, &m, &next);
        if (m.type == OPT_MOVE_SWAP || m.type == OPT_MOVE_ADD) {
            CU_ASSERT_FATAL(job.cards[m.card].fusion >= 1);
            came_in[m.card]++;
        }
        d = next;
        if (i == 0) /* one move cannot take out all four base cards of the start */
            for (int p = 0; p < d.n; p++)
                below_left += job.cards[d.cards[p]].fusion < 1;
    }
    CU_ASSERT(below_left >= 3);
    for (int c = 0; c < job.n_cards; c++)
        if (job.cards[c].type != BATTLE_COMMANDER && job.cards[c].fusion >= 1)
            CU_ASSERT(came_in[c] > 0);
    battle_opt_job_release(&job);
    /* quads only: Demi Constrictor is the pool's one */
    CU_ASSERT_EQUAL_FATAL(real_decode("{" BASE_START
                                      "'pool': [{'card': 'Xeno Overlord'}, {'card': 'Demi "
                                      "Constrictor'}], 'constraints': {'min_fusion_level': 2}}",
                                      &job, at, sizeof(at)),
                          SK_OK);
    for (int c = 0; c < job.n_cards; c++)
        CU_ASSERT_EQUAL(battle_opt_limit(&job, c) > 0,
                        job.cards[c].type != BATTLE_COMMANDER &&
                            strcmp(job.cards[c].name, "Demi Constrictor") == 0);
    battle_opt_job_release(&job);
    /* no fusion in the pool or the start */
    expect_real_bad("{" BASE_START "'pool': [{'card': 'Predator'}, {'card': 'Anasi'}],"
                    "'constraints': {'min_fusion_level': 1}}",
                    "/params/constraints/min_fusion_level");
    expect_real_bad("{" REAL_START "'pool': [" REAL_IN "], 'constraints': {'min_fusion_level': 3}}",
                    "/params/constraints/min_fusion_level");
}

/* The deck to optimise is a list of cards: a mission or raid that draws its cards each
 * game has none to change; as a defender it plays as in a battle job. */
static void test_drawing_attacker_refused(void)
{
    struct opt_job job;
    char at[256];

    CU_ASSERT_EQUAL(real_decode("{'attacker': {'raid': 'Apocalypse', 'level': 13},"
                                "'defender': 'Zorbo the One, Launcher, Carbine',"
                                "'pool': [" REAL_OUT "]}",
                                &job, at, sizeof(at)),
                    SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/attacker");
    /* Nor one whose deck holds a commander card or whose fortress slot a structure: the
     * optimiser's deck lists cannot hold them. */
    CU_ASSERT_EQUAL(real_decode("{'attacker': {'mission': 'THE BIG ORBO'},"
                                "'defender': 'Zorbo the One, Launcher, Carbine',"
                                "'pool': [" REAL_OUT "]}",
                                &job, at, sizeof(at)),
                    SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/attacker");
    CU_ASSERT_EQUAL(real_decode("{'attacker': {'raid': 'Brood Mother'},"
                                "'defender': 'Zorbo the One, Launcher, Carbine',"
                                "'pool': [" REAL_OUT "]}",
                                &job, at, sizeof(at)),
                    SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/attacker");
    CU_ASSERT_EQUAL_FATAL(
        real_decode("{" REAL_START "'pool': [" REAL_OUT "]}", &job, at, sizeof(at)), SK_OK);
    battle_opt_job_release(&job);
    CU_ASSERT_EQUAL_FATAL(real_decode("{'attacker': {'commander': 'Emrys', 'deck': [" REAL_IN
                                      "]}, 'defender': {'raid': 'Apocalypse', 'level': 13},"
                                      "'pool': [" REAL_OUT "]}",
                                      &job, at, sizeof(at)),
                          SK_OK);
    battle_opt_job_release(&job);
    /* Gilians Raid at level 13, whose Enhance makes more variants than the card table holds,
     * was refused until its plan made them during play (battle_plan_lazy): a defender now. */
    CU_ASSERT_EQUAL_FATAL(real_decode("{'attacker': {'commander': 'Emrys', 'deck': [" REAL_IN
                                      "]}, 'defender': {'raid': 'Gilians Raid', 'level': 13},"
                                      "'pool': [" REAL_OUT "]}",
                                      &job, at, sizeof(at)),
                          SK_OK);
    battle_opt_job_release(&job);
}

/* 1 when the catalog says card `name` is bloodthirsty or righteous. */
static int in_factions(const char *name)
{
    const struct battle_card_spec *c = battle_catalog_find(real_cat, name);
    return c && (c->faction == 3 || c->faction == 5);
}

/* Every move a search can draw, walked from the start for 20000 draws (each applied, as
 * the search applies those it accepts, so the walk visits many decks and sizes): no deck
 * ever holds a card outside the factions, while every card of theirs comes in, and the
 * commander still changes (it is not subject to the factions). */

static void test_factions_moves_stay(void)
{
    struct opt_job job;
    struct opt_deck d, next;
    struct opt_move m;
    struct rng r;
    char at[256];
    int came_in[256] = {0}, n_out = 0, commanders = 0, drawn = 0;

    CU_ASSERT_EQUAL_FATAL(real_decode("{" REAL_START "'pool': [" REAL_OUT ", " REAL_IN
                                      ", {'card': 'Terrogor'}, {'card': 'Empress'}],"
                                      "'constraints': {'deck_size': {'min': 1, 'max': 10},"
                                      " 'commander': 'owned',"
                                      " 'factions': ['bloodthirsty', 'righteous']}}",
                                      &job, at, sizeof(at)),
                          SK_OK);
    CU_ASSERT_FATAL(job.n_cards <= 256);
    for (int c = 0; c < job.n_cards; c++)
        n_out += job.cards[c].type != BATTLE_COMMANDER && !in_factions(job.cards[c].name);
    CU_ASSERT_EQUAL(n_out, 6); /* the filter, not the pool, keeps them out */
    rng_init(&r, 99, 0);
    d = job.start;
    for (int i = 0; i < 20000; i++) {
        if (!walk_move(&job, &d, &r, &m))
            continue;
        drawn++;
        battle_opt_apply(&d, &m, &next);
        if (m.type == OPT_MOVE_SWAP || m.type == OPT_MOVE_ADD) {
            CU_ASSERT_FATAL(in_factions(job.cards[m.card].name));
            came_in[m.card]++;
        }
        commanders += m.type == OPT_MOVE_COMMANDER;
        for (int p = 0; p < next.n; p++)
            CU_ASSERT_FATAL(in_factions(job.cards[next.cards[p]].name));
        CU_ASSERT_FATAL(next.n >= 1 && next.n <= 10);
        d = next;
    }
    CU_ASSERT(drawn == 20000);
    CU_ASSERT(commanders > 0);
    for (int c = 0; c < job.n_cards; c++)
        if (job.cards[c].type != BATTLE_COMMANDER && in_factions(job.cards[c].name))
            CU_ASSERT(came_in[c] > 0);
    battle_opt_job_release(&job);
}

/* ===== Sweeps (battle_opt_moves.h) ===== */

/* A deck played at random as one key: the commander, then its cards sorted (their order
 * does not matter). */
static void deck_key(const struct opt_deck *d, int *key)
{
    key[0] = d->commander;
    key[1] = d->n;
    for (int i = 0; i < d->n; i++) {
        int c = d->cards[i], j = i;
        while (j > 0 && key[1 + j] > c) {
            key[2 + j] = key[1 + j];
            j--;
        }
        key[2 + j] = c;
    }
    for (int i = d->n; i < BATTLE_DECK_MAX; i++)
        key[2 + i] = -1;
}

#define KEY_LEN   (2 + BATTLE_DECK_MAX)
#define SWEEP_MAX 4096

static int key_index(int (*keys)[KEY_LEN], int n, const int *key)
{
    for (int i = 0; i < n; i++)
        if (memcmp(keys[i], key, sizeof(keys[i])) == 0)
            return i;
    return -1;
}

/* The decks one move away from `d` (a deck played at random, no frozen or kept cards, no
 * fund), counted card by card from the rules of docs/optimize.md: every card swapped for
 * another the deck may hold one more copy of, every card the deck may hold one more copy
 * of added, every card removed, the commander changed for another of the pool. */
static int neighbours(const struct opt_job *job, const struct opt_deck *d, int (*keys)[KEY_LEN])
{
    int n = 0, key[KEY_LEN];

    for (int c = 0; c < job->n_cards; c++) {
        int deck_card = job->cards[c].type != BATTLE_COMMANDER;
        for (int p = -1; p <= d->n; p++) {
            struct opt_deck x = *d;
            if (p == -1) { /* the commander */
                if (deck_card || c == d->commander)
                    continue;
                x.commander = c;
            } else if (p == d->n) { /* an added card */
                if (!deck_card || d->n >= job->size_max ||
                    battle_opt_copies(d, c) >= battle_opt_limit(job, c))
                    continue;
                x.cards[x.n++] = c;
            } else { /* a swap */
                if (!deck_card || c == d->cards[p] ||
                    battle_opt_copies(d, c) >= battle_opt_limit(job, c))
                    continue;
                x.cards[p] = c;
            }
            deck_key(&x, key);
            if (key_index(keys, n, key) < 0 && n < SWEEP_MAX)
                memcpy(keys[n++], key, sizeof(key));
        }
    }
    for (int p = 0; d->n > job->size_min && p < d->n; p++) { /* a removal */
        struct opt_deck x = *d;
        memmove(&x.cards[p], &x.cards[p + 1], (size_t)(x.n - p - 1) * sizeof(x.cards[0]));
        x.n--;
        deck_key(&x, key);
        if (key_index(keys, n, key) < 0 && n < SWEEP_MAX)
            memcpy(keys[n++], key, sizeof(key));
    }
    return n;
}

/* A sweep gives every move of its deck once: for a deck played at random (two copies of a
 * card in it) and the game's cards, the decks its moves make are all different and are
 * exactly the decks one move away; a second sweep (the stream drawn on) gives the same
 * moves in another order; an ended sweep gives nothing more. */
static void test_sweep_every_move_once(void)
{
    static int want[SWEEP_MAX][KEY_LEN], got[SWEEP_MAX][KEY_LEN];
    struct opt_job job;
    struct opt_deck d, next;
    struct opt_move m, first[2];
    struct opt_sweep s;
    struct rng r;
    char at[256];
    int n_want, n_got = 0, key[KEY_LEN];

    CU_ASSERT_EQUAL_FATAL(real_decode("{'attacker': {'commander': 'Emrys', 'deck': [{'card': "
                                      "'Messiah', 'count': 2}, {'card': 'Cerebellum'}, {'card': "
                                      "'Aciviper'}]}, 'defender': 'Zorbo the One, Launcher',"
                                      "'pool': [" REAL_IN ", {'card': 'Terrogor'}],"
                                      "'constraints': {'deck_size': {'min': 2, 'max': 6},"
                                      " 'commander': 'owned', 'max_copies': 2}}",
                                      &job, at, sizeof(at)),
                          SK_OK);
    d = job.start;
    n_want = neighbours(&job, &d, want);
    CU_ASSERT_FATAL(n_want > 20 && n_want < SWEEP_MAX);
    rng_init(&r, 7, 0);
    for (int sweep = 0; sweep < 2; sweep++) {
        int moves = 0;
        battle_opt_sweep_start(&job, &d, &r, &s);
        while (battle_opt_sweep_next(&job, &d, &s, &m)) {
            if (moves == 0)
                first[sweep] = m;
            battle_opt_apply(&d, &m, &next);
            deck_key(&next, key);
            if (sweep == 0) {
                CU_ASSERT_FATAL(key_index(got, n_got, key) < 0); /* no deck twice */
                memcpy(got[n_got++], key, sizeof(key));
            }
            CU_ASSERT_FATAL(key_index(want, n_want, key) >= 0); /* one move away */
            moves++;
        }
        CU_ASSERT_EQUAL(moves, n_want); /* and every such deck */
        CU_ASSERT_EQUAL(s.live, 0);
        CU_ASSERT_EQUAL(s.found, (uint64_t)n_want);
        CU_ASSERT_FALSE(battle_opt_sweep_next(&job, &d, &s, &m));
    }
    CU_ASSERT(memcmp(&first[0], &first[1], sizeof(first[0])) != 0);
    battle_opt_job_release(&job);
}

/* ===== Spreading units (docs/optimize.md, "Spread across workers") ===== */

/* A spread as a worker does it, in this process: a third of the units computed with
 * `local` (the run's threads), the rest from their bytes alone through job_unit_run, as
 * another worker would; with `damage`, one result in each call is cut short, which the run
 * must compute again itself. The first unit's bytes are kept for the refusal test. */
struct fake_spread {
    const struct job *job;
    int calls, damage, fail;
    size_t units;
    uint64_t max_len;
    struct sk_buf first;
};

static enum sk_err fake_units(void *arg, const struct sk_buf *specs, const uint64_t *games,
                              size_t n, struct sk_buf *results, job_unit_fn local, void *ctx,
                              char *err, size_t errlen)
{
    struct fake_spread *f = arg;
    struct job_run_opts two = {.threads = 2};

    f->calls++;
    for (size_t i = 0; i < n; i++)
        CU_ASSERT(games[i] >= 1 && games[i] <= 100);
    f->units += n;
    if (f->fail) {
        snprintf(err, errlen, "the queue is gone");
        return SK_EUNAVAIL;
    }
    if (!f->first.len)
        (void)sk_buf_add(&f->first, specs[0].p, specs[0].len);
    for (size_t i = 0; i < n; i++) {
        enum sk_err rc = i % 3 == 0 ? local(ctx, i, &results[i])
                                    : job_unit_run(eng, f->job, &two, specs[i].p, specs[i].len,
                                                   &results[i], err, errlen);
        if (rc)
            return rc;
        if (results[i].len > f->max_len)
            f->max_len = results[i].len;
        if (f->damage && i == n - 1)
            results[i].len--;
    }
    return SK_OK;
}

static json_t *run_spread(const struct job *job, int threads, struct fake_spread *f,
                          uint64_t unit_games)
{
    struct job_spread sp = {unit_games, f, fake_units};
    struct job_run_opts opts = {.threads = threads, .spread = &sp};
    struct job_run *run = NULL;
    char err[256];
    uint64_t done = 0;
    json_t *res = NULL;

    f->job = job;
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_OK);
    while (done < job_total(job))
        CU_ASSERT_EQUAL_FATAL(job_run_step(run, 3000, &done), SK_OK);
    CU_ASSERT_EQUAL(job_run_result(run, &res), SK_OK);
    json_object_del(res, "elapsed_ms");
    job_run_free(run);
    return res;
}

/* Units computed anywhere, damaged results computed again: the one-thread search's deck,
 * moves and scores, for climb and anneal, on one thread and on three (playing ahead). */
static void test_spread_same_result(void)
{
    static const char *const algorithms[] = {"climb", "anneal"};

    for (int i = 0; i < 2; i++) {
        struct job *job = climb_job(9, algorithms[i], 20000);
        json_t *want = run_all(job, 1, 0);
        for (int threads = 1; threads <= 3; threads += 2) {
            struct fake_spread f = {.damage = threads == 3};
            json_t *got;
            sk_buf_init(&f.first, 0);
            got = run_spread(job, threads, &f, 100);
            CU_ASSERT(json_equal(got, want));
            /* the races' batches (2 x 64 games, 2 defender decks; on three threads with
             * the candidates played ahead) and the evaluation went out as units of about
             * 100 games */
            CU_ASSERT(f.calls >= 3);
            CU_ASSERT(f.units >= 2 * (size_t)f.calls);
            CU_ASSERT(f.max_len <= 12 + 4 * 100 + 4 * 2); /* a result: 4 bytes a game */
            json_decref(got);
            sk_buf_release(&f.first);
        }
        json_decref(want);
        job_free(job);
    }
}

/* A spread's error fails the step with its message; a unit's bytes from another job, cut
 * short, with a byte changed in a deck or with bytes appended are refused. */
static void test_spread_errors_and_refusals(void)
{
    struct job *job = climb_job(9, "climb", 20000);
    struct job *other = climb_job(10, "climb", 20000);
    struct fake_spread f = {.job = job};
    struct job_spread sp = {100, &f, fake_units};
    struct job_run_opts opts = {.threads = 1, .spread = &sp};
    struct job_run *run = NULL;
    struct sk_buf out, spec;
    char err[256];
    uint64_t done = 0;
    json_t *res;

    sk_buf_init(&f.first, 0);
    res = run_spread(job, 1, &f, 100);
    json_decref(res);
    CU_ASSERT_FATAL(f.first.len > 40);
    sk_buf_init(&out, 0);
    CU_ASSERT_EQUAL(job_unit_run(eng, job, NULL, f.first.p, f.first.len, &out, err, sizeof(err)),
                    SK_OK);
    CU_ASSERT_EQUAL(job_unit_run(eng, other, NULL, f.first.p, f.first.len, &out, err, sizeof(err)),
                    SK_EINVAL);
    CU_ASSERT(strstr(err, "not one of this job's") != NULL);
    for (size_t len = 0; len < f.first.len; len++) {
        sk_buf_release(&out);
        CU_ASSERT_EQUAL(job_unit_run(eng, job, NULL, f.first.p, len, &out, err, sizeof(err)),
                        SK_EINVAL);
    }
    /* the first piece's commander (bytes 24..27) made a card index past the job's cards */
    sk_buf_init(&spec, 0);
    (void)sk_buf_add(&spec, f.first.p, f.first.len);
    spec.p[27] = 0x7f;
    CU_ASSERT_EQUAL(job_unit_run(eng, job, NULL, spec.p, spec.len, &out, err, sizeof(err)),
                    SK_EINVAL);
    CU_ASSERT(strstr(err, "piece 0") != NULL);
    spec.p[27] = f.first.p[27];
    (void)sk_buf_add(&spec, "x", 1);
    CU_ASSERT_EQUAL(job_unit_run(eng, job, NULL, spec.p, spec.len, &out, err, sizeof(err)),
                    SK_EINVAL);
    CU_ASSERT(strstr(err, "past its last piece") != NULL);
    sk_buf_release(&spec);
    sk_buf_release(&out);
    /* a spread that cannot reach its units fails the step with its reason */
    f.fail = 1;
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(job_run_step(run, 0, &done), SK_EUNAVAIL);
    CU_ASSERT_STRING_EQUAL(job_run_error(run), "the queue is gone");
    job_run_free(run);
    sk_buf_release(&f.first);
    job_free(job);
    job_free(other);
}

/* Cards no player can own: Shatterjaw (set 9500, summoned units) in an owned list is
 * refused at its pointer, unless "allow_unobtainable" (a card of the starting deck is owned
 * whatever its set); "catalog" holds no card of a hidden
 * set (none of the five), unless "allow_unobtainable", which brings Shatterjaw in. */
static void test_unobtainable_cards(void)
{
    struct opt_job job;
    char at[256];
    int hidden = 0, shatterjaw = 0;

    CU_ASSERT_EQUAL(real_decode("{" REAL_START "'pool': [" REAL_IN ", {'card': 'Shatterjaw'}]}",
                                &job, at, sizeof(at)),
                    SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/pool/5/card");
    CU_ASSERT_EQUAL_FATAL(real_decode("{" REAL_START "'pool': [" REAL_IN
                                      ", {'card': 'Shatterjaw'}], 'allow_unobtainable': true}",
                                      &job, at, sizeof(at)),
                          SK_OK);
    for (int c = 0; c < job.n_cards; c++)
        shatterjaw += strcmp(job.cards[c].name, "Shatterjaw") == 0;
    CU_ASSERT_EQUAL(shatterjaw, 1);
    battle_opt_job_release(&job);
    /* Sterling Eagle (set 6000) is the starting deck's: owned anyway, listed or not */
    CU_ASSERT_EQUAL(real_decode("{" REAL_START "'pool': [{'card': 'Sterling Eagle', 'count': 2}]}",
                                &job, at, sizeof(at)),
                    SK_OK);
    battle_opt_job_release(&job);
    CU_ASSERT_EQUAL(real_decode("{" REAL_START "'pool': [" REAL_IN "], 'allow_unobtainable': 1}",
                                &job, at, sizeof(at)),
                    SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/allow_unobtainable");

    for (int allow = 0; allow < 2; allow++) {
        CU_ASSERT_EQUAL_FATAL(real_decode(allow ? "{" REAL_START "'pool': 'catalog',"
                                                  " 'allow_unobtainable': true}"
                                                : "{" REAL_START "'pool': 'catalog'}",
                                          &job, at, sizeof(at)),
                              SK_OK);
        hidden = shatterjaw = 0;
        /* the starting deck's own cards come first (Emrys and Sterling Eagle are of set
         * 6000: owned, as the deck holds them); the pool's follow */
        for (int c = 1 + job.start.n; c < job.n_cards; c++) {
            const struct battle_card_spec *s = battle_catalog_find(real_cat, job.cards[c].name);
            CU_ASSERT_PTR_NOT_NULL_FATAL(s);
            hidden += s->hidden_set;
            shatterjaw += strcmp(job.cards[c].name, "Shatterjaw") == 0;
        }
        CU_ASSERT_EQUAL(hidden > 0, allow);
        CU_ASSERT_EQUAL(shatterjaw, allow);
        battle_opt_job_release(&job);
    }
}

static CU_TestInfo real_tests[] = {
    {"factions: a start outside them or no move within them refused", test_factions_refused},
    {"min_fusion_level: no card below it comes in; a level no card reaches refused",
     test_min_fusion_level},
    {"a mission or raid that draws its cards is no deck to optimise",
     test_drawing_attacker_refused},
    {"factions: no move leaves them", test_factions_moves_stay},
    {"a sweep gives every move of its deck once", test_sweep_every_move_once},
    {"cards no player can own: refused, or left out of the catalog, unless allowed",
     test_unobtainable_cards},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo opt_tests[] = {
    {"racing verdicts and intervals", test_race_verdicts},
    {"every field and infeasible constraints refused at their pointer", test_decode_errors},
    {"same seed, same deck, whatever threads and steps", test_same_seed_same_deck},
    {"budget kept, never worse than the start", test_budget_and_never_worse},
    {"steps cut by a deadline: same deck and scores, the evaluation in slices",
     test_deadline_steps_same_deck},
    {"resume from a checkpoint anywhere", test_resume_anywhere},
    {"another job's or a damaged checkpoint refused", test_checkpoint_refused},
    {"cancel keeps the best deck so far", test_cancel_keeps_best},
    {"reorder only moves cards", test_reorder_moves_only},
    {"at the ceiling the races climb on the tie-break", test_ceiling_tie_break},
    {"a stuck search races fresh games, widens, spends its budget", test_stuck_search_widens},
    {"budget.target ends the search", test_target_stops},
    {"points objective: win scoring is the win objective; brawl points", test_points_objective},
    {"units spread anywhere: the same deck; damaged results computed again",
     test_spread_same_result},
    {"a spread's error fails the step; foreign or damaged units refused",
     test_spread_errors_and_refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_opt_suites[] = {
    {"battle_opt", setup, teardown, NULL, NULL, opt_tests},
    {"battle_opt_factions", real_setup, real_teardown, NULL, NULL, real_tests},
    CU_SUITE_INFO_NULL,
};
