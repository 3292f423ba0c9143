/* SPDX-License-Identifier: MIT */
/* The optimiser's fund on the game's cards (tests/data via tu_test_dir): what a deck costs
 * to build from owned cards, each figure the peer simulator prints for the same deck and
 * owned cards (`tuo DECK ENEMY -o=owned.txt fund 5000 climb 10`, its first line "$SP");
 * the cards a fund can make; the upgrades listed in a result; the codec's checks of
 * "fund"; and a search that reaches, with a fund, a deck its owned cards alone cannot
 * build. */
#include <CUnit/CUnit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battle_catalog.h"
#include "battle_opt_codec.h"
#include "battle_opt_fund.h"
#include "battle_opt_moves.h"
#include "battle_tu.h"
#include "job_kind.h"
#include "optimize.h"
#include "sk_buf.h"
#include "sk_mem.h"

#include "sk_banned.h"

enum sk_err tu_test_catalog(struct battle_catalog **out); /* test_battle_tu.c */

static struct battle_catalog *cat;

static int setup(void)
{
    sk_mem_init_json();
    return tu_test_catalog(&cat) != SK_OK;
}

static int teardown(void)
{
    battle_catalog_free(cat);
    return 0;
}

/* ===== Costs ===== */

struct held {
    const char *name;
    int count;
};

static int own_cmp(const void *a, const void *b)
{
    int x = ((const struct opt_own *)a)->id, y = ((const struct opt_own *)b)->id;
    return (x > y) - (x < y);
}

/* The card `name` means as players write it, or "#ID": the game's card ID (a name several
 * units share cannot reach every level). */
static const struct battle_card_spec *find(const char *name)
{
    return name[0] == '#' ? battle_catalog_find_id(cat, (int)strtol(name + 1, NULL, 10))
                          : battle_catalog_find_loose(cat, name);
}

/* A job whose table is the deck's cards (none owned) and whose inventory is `own`, with a
 * fund of `fund`; *d the deck (commander, then `n` cards). Release with
 * battle_opt_job_release. */
static void make_job(struct opt_job *job, struct opt_deck *d, const char *commander,
                     const char *const *cards, int n, const struct held *own, int n_own, int fund)
{
    memset(job, 0, sizeof(*job));
    memset(d, 0, sizeof(*d));
    job->fund = fund;
    job->fund_cat = cat;
    job->max_copies = BATTLE_DECK_MAX;
    job->cards = sk_calloc((size_t)n + 1, sizeof(*job->cards));
    job->own = sk_calloc((size_t)n_own + 1, sizeof(*job->own));
    CU_ASSERT_FATAL(job->cards && job->own);
    for (int i = 0; i <= n; i++) {
        const struct battle_card_spec *c = find(i == 0 ? commander : cards[i - 1]);
        CU_ASSERT_PTR_NOT_NULL(c);
        if (!c)
            continue;
        snprintf(job->cards[i].name, sizeof(job->cards[i].name), "%s", c->name);
        job->cards[i].type = c->type;
        job->cards[i].id = c->id;
        if (i > 0)
            d->cards[d->n++] = i;
    }
    job->n_cards = n + 1;
    for (int i = 0; i < n_own; i++) {
        const struct battle_card_spec *c = find(own[i].name);
        CU_ASSERT_PTR_NOT_NULL(c);
        if (!c)
            continue;
        job->own[job->n_own++] = (struct opt_own){c->id, own[i].count};
    }
    qsort(job->own, (size_t)job->n_own, sizeof(*job->own), own_cmp);
}

/* What `commander` and `cards` cost from `own` (no limit); -1 when they cannot be built. */
static int64_t cost(const char *commander, const char *const *cards, int n, const struct held *own,
                    int n_own)
{
    struct opt_job job;
    struct opt_deck d;
    int64_t sp = 0;
    int rc;

    make_job(&job, &d, commander, cards, n, own, n_own, OPT_FUND_MAX);
    rc = battle_opt_fund_cost(&job, &d, INT64_MAX, &sp);
    battle_opt_job_release(&job);
    return rc == 0 ? sp : -1;
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Level-ups: 5, 15, 30, 75, 150 SP from level 1, 2, 3, 4, 5; twice that for a commander. */
static void test_level_ups(void)
{
    /* Octane (commander, 6 levels) from Octane-1: 2 x (5+15+30+75+150) = 550; Hive Soldier
     * from Hive Soldier-3: 30+75+150 = 255. The peer: "$805". */
    const char *const hive[] = {"Hive Soldier"};
    const struct held own1[] = {{"Octane-1", 1}, {"Hive Soldier-3", 1}};
    CU_ASSERT_EQUAL(cost("Octane", hive, 1, own1, 2), 805);
    /* Terrogor (4 levels) from Terrogor-1: 2 x (5+15+30) = 100; Selfless Soldier (3 levels)
     * from Selfless Soldier-1: 5+15 = 20. The peer: "$120". */
    {
        const char *const ss[] = {"Selfless Soldier"};
        const struct held own[] = {{"Terrogor-1", 1}, {"Selfless Soldier-1", 1}};
        CU_ASSERT_EQUAL(cost("Terrogor", ss, 1, own, 2), 120);
    }
    /* Two copies from two owned Hive Soldier-2: one to the top (15+30+75+150 = 270), one to
     * level 4 (15+30 = 45). The peer: "$315". */
    {
        const char *const two[] = {"Hive Soldier", "Hive Soldier-4"};
        const struct held own[] = {{"Octane", 1}, {"Hive Soldier-2", 2}};
        CU_ASSERT_EQUAL(cost("Octane", two, 2, own, 2), 315);
    }
    /* Owned as held: nothing to make. A commander kept at level 1: the peer's "$275" for
     * "Octane-1, Hive Soldier" from Octane-1 and Hive Soldier-1. */
    {
        const struct held own[] = {{"Octane-1", 1}, {"Hive Soldier", 1}};
        const struct held own2[] = {{"Octane-1", 1}, {"Hive Soldier-1", 1}};
        CU_ASSERT_EQUAL(cost("Octane-1", hive, 1, own, 2), 0);
        CU_ASSERT_EQUAL(cost("Octane-1", hive, 1, own2, 2), 275);
    }
    /* A level-1 card with no recipe is owned or nothing; a level past 6 (Darius, id 25114,
     * an event commander of 10 levels: level 7 is id 25120) has no cost in the game's data:
     * never made. */
    {
        const char *const grave[] = {"Gravedigger-1"};
        const struct held own[] = {{"Octane", 1}};
        const char *const h1[] = {"Hive Soldier-1"};
        const struct held d6[] = {{"#25119", 1}, {"Hive Soldier-1", 1}};
        const struct held d7[] = {{"#25120", 1}, {"Hive Soldier-1", 1}};
        CU_ASSERT_EQUAL(cost("Octane", grave, 1, own, 1), -1);
        CU_ASSERT_EQUAL(cost("#25120", h1, 1, d6, 2), -1);
        CU_ASSERT_EQUAL(cost("#25120", h1, 1, d7, 2), 0);
        CU_ASSERT_EQUAL(cost("#25119", h1, 1, d7, 2), -1); /* nor made by going down */
    }
}

/* Fusions: no SP, the recipe's cards made first where they are not owned. */
static void test_fusions(void)
{
    const char *const horror[] = {"Wings of Horror"};
    const char *const horror1[] = {"Wings of Horror-1"};
    const char *const core[] = {"Neocyte Fusion Core"};
    /* Wings of Horror-1 = 2 x Wings of Fear (its top level): "$0" from two owned */
    const struct held fear6[] = {{"Octane", 1}, {"Wings of Fear", 2}};
    /* from two Wings of Fear-1: 2 x 275 to the top, then Horror-1 up to the top, 275: the
     * peer's "$825" */
    const struct held fear1[] = {{"Octane", 1}, {"Wings of Fear-1", 2}};
    const struct held one_fear[] = {{"Octane", 1}, {"Wings of Fear", 1}};
    /* Neocyte Fusion Core (level 2, id 42745) has a fusion recipe of its own, 3 x Neocyte
     * Core: the peer keeps its level-up's 5 SP ("$5"); from three Neocyte Core-1, 3 x 5
     * more ("$20"). */
    const struct held cores[] = {{"Octane", 1}, {"Neocyte Core", 3}};
    const struct held cores1[] = {{"Octane", 1}, {"Neocyte Core-1", 3}};

    CU_ASSERT_EQUAL(cost("Octane", horror1, 1, fear6, 2), 0);
    CU_ASSERT_EQUAL(cost("Octane", horror, 1, fear6, 2), 275);
    CU_ASSERT_EQUAL(cost("Octane", horror, 1, fear1, 2), 825);
    CU_ASSERT_EQUAL(cost("Octane", horror1, 1, one_fear, 2), -1); /* one copy short */
    CU_ASSERT_EQUAL(cost("Octane", core, 1, cores, 2), 5);
    CU_ASSERT_EQUAL(cost("Octane", core, 1, cores1, 2), 20);
}

/* The walk stops past its limit; battle_opt_fund_fits is the fund's test. */
static void test_limit_and_fits(void)
{
    const char *const hive[] = {"Hive Soldier"};
    const struct held own[] = {{"Octane-1", 1}, {"Hive Soldier-3", 1}};
    struct opt_job job;
    struct opt_deck d;
    int64_t sp = 0;

    make_job(&job, &d, "Octane", hive, 1, own, 2, 805);
    CU_ASSERT_EQUAL(battle_opt_fund_cost(&job, &d, 804, &sp), 1);
    CU_ASSERT(sp > 804);
    CU_ASSERT_EQUAL(battle_opt_fund_cost(&job, &d, 805, &sp), 0);
    CU_ASSERT_EQUAL(sp, 805);
    CU_ASSERT_EQUAL(battle_opt_fund_fits(&job, &d), 1);
    job.fund = 804;
    CU_ASSERT_EQUAL(battle_opt_fund_fits(&job, &d), 0);
    job.fund = 0; /* no fund: the moves' owned limits decide, not this */
    CU_ASSERT_EQUAL(battle_opt_fund_fits(&job, &d), 1);
    battle_opt_job_release(&job);
}

/* The upgrades of a deck: every card made, materials first, with its SP. */
static void test_upgrades_json(void)
{
    const char *const horror[] = {"Wings of Horror"};
    const struct held own[] = {{"Octane", 1}, {"Wings of Fear-1", 2}};
    static const char *const order[] = {
        "Wings of Fear-2",   "Wings of Fear-3",   "Wings of Fear-4",   "Wings of Fear-5",
        "Wings of Fear",     "Wings of Horror-1", "Wings of Horror-2", "Wings of Horror-3",
        "Wings of Horror-4", "Wings of Horror-5", "Wings of Horror"};
    static const int sp[] = {5, 15, 30, 75, 150, 0, 5, 15, 30, 75, 150};
    struct opt_job job;
    struct opt_deck d;
    json_t *j, *ups, *fuse;

    make_job(&job, &d, "Octane", horror, 1, own, 2, 1000);
    j = battle_opt_fund_json(&job, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "fund")), 1000);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "spent")), 825);
    ups = json_object_get(j, "upgrades");
    CU_ASSERT_EQUAL_FATAL(json_array_size(ups), N(order));
    for (int i = 0; i < N(order); i++) {
        json_t *u = json_array_get(ups, (size_t)i);
        int copies = i < 5 ? 2 : 1;
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(u, "card")), order[i]);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(u, "count")), copies);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(u, "sp")), sp[i]);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(u, "sp_total")),
                        (json_int_t)sp[i] * copies);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(u, "action")),
                               i == 5 ? "fuse" : "level_up");
    }
    fuse = json_array_get(json_object_get(json_array_get(ups, 5), "from"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(fuse, "card")), "Wings of Fear");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(fuse, "count")), 2);
    json_decref(j);
    battle_opt_job_release(&job);
}

/* The cards a fund of 600 makes from two Wings of Fear-1: Wings of Fear-2 .. its top (275
 * each from level 1), Wings of Horror-1 (550) .. -4 (550 + 5 + 15 + 30 = 600), not -5
 * (675): nine, in id order. */
static void test_makeable(void)
{
    const char *const none[] = {"Hive Soldier-1"};
    const struct held own[] = {{"Hive Soldier-1", 1}, {"Wings of Fear-1", 2}};
    static const int want[] = {30045, 30046, 30047, 30048, 30049, /* Hive Soldier-2 .. */
                               68443, 68444, 68445, 68446, 68447, 68448, 68449, 68450, 68451};
    struct opt_job job;
    struct opt_deck d;
    int *ids = NULL, n = 0;

    make_job(&job, &d, "Octane", none, 1, own, 2, 600);
    CU_ASSERT_EQUAL_FATAL(battle_opt_fund_makeable(&job, &ids, &n), SK_OK);
    /* Hive Soldier-1 to its top is 275: all five of its levels too */
    CU_ASSERT_EQUAL_FATAL(n, N(want));
    for (int i = 0; i < n; i++)
        CU_ASSERT_EQUAL(ids[i], want[i]);
    sk_free(ids);
    battle_opt_job_release(&job);
}

/* ===== The codec and a search ===== */

static json_t *doc_of(const char *text)
{
    char buf[4096];
    size_t i;

    for (i = 0; text[i] && i + 1 < sizeof(buf); i++)
        buf[i] = text[i] == '\'' ? '"' : text[i];
    buf[i] = '\0';
    return json_loads(buf, 0, NULL);
}

/* Decodes params `text` against `c`: SK_OK, or the first problem's pointer in `at`. */
static enum sk_err decode(const struct battle_catalog *c, const char *text, struct opt_job *job,
                          char *at, size_t len)
{
    json_t *params = doc_of(text);
    struct sk_verr_list errs;
    struct sk_jptr ptr;
    enum sk_err rc;

    CU_ASSERT_PTR_NOT_NULL_FATAL(params);
    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    rc = battle_opt_decode(params, 7, c, &ptr, &errs, job);
    snprintf(at, len, "%s", errs.n ? errs.items[0].pointer : "");
    sk_verr_list_release(&errs);
    json_decref(params);
    return rc;
}

#define START                                                                                      \
    "'attacker': 'Octane, Hive Soldier-3, Hive Soldier-3, Wings of Fear-1, Wings of Fear-1',"      \
    "'defender': 'Zorbo the One, Launcher, Carbine', 'pool': [{'card': 'Gravedigger-2'}],"

#define BUILTIN                                                                                    \
    "'attacker': {'commander': 'Test Commander', 'deck': [{'card': 'Grunt', 'count': 3}]},"        \
    "'defender': 'Hex Mistress, Grunt#4', 'pool': [{'card': 'Grunt', 'count': 4}],"

static void test_codec(void)
{
    struct battle_catalog *builtin = NULL;
    struct opt_job job;
    char at[256];
    int made = 0, horror = 0;

    /* a count of SP: an integer 0 .. OPT_FUND_MAX */
    CU_ASSERT_EQUAL(decode(cat, "{" START "'fund': -1}", &job, at, sizeof(at)), SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/fund");
    CU_ASSERT_EQUAL(decode(cat, "{" START "'fund': 1000001}", &job, at, sizeof(at)), SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/fund");
    CU_ASSERT_EQUAL(decode(cat, "{" START "'fund': 12.5}", &job, at, sizeof(at)), SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/fund");
    CU_ASSERT_EQUAL(decode(cat, "{" START "'fund': '500'}", &job, at, sizeof(at)), SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/fund");
    /* 0 is no fund: the table is the owned cards' */
    CU_ASSERT_EQUAL_FATAL(decode(cat, "{" START "'fund': 0}", &job, at, sizeof(at)), SK_OK);
    CU_ASSERT_EQUAL(job.fund, 0);
    CU_ASSERT_EQUAL(job.n_cards, 4);
    battle_opt_job_release(&job);
    /* 600: the starting deck's and the pool's cards owned as held; what 600 SP makes added
     * (Wings of Horror-1 from the two Wings of Fear-1 among them), none owned */
    CU_ASSERT_EQUAL_FATAL(decode(cat, "{" START "'fund': 600}", &job, at, sizeof(at)), SK_OK);
    CU_ASSERT_EQUAL(job.fund, 600);
    CU_ASSERT_EQUAL(job.n_own, 4);
    for (int c = 4; c < job.n_cards; c++) {
        made += job.cards[c].owned == 0;
        horror += strcmp(job.cards[c].name, "Wings of Horror-1") == 0;
    }
    CU_ASSERT_EQUAL(made, job.n_cards - 4);
    CU_ASSERT(made > 10);
    CU_ASSERT_EQUAL(horror, 1);
    battle_opt_job_release(&job);

    /* the built-in catalog has no upgrade costs: a fund is refused, not ignored */
    CU_ASSERT_EQUAL_FATAL(battle_catalog_load(&builtin, at, sizeof(at)), SK_OK);
    CU_ASSERT_FALSE(battle_catalog_has_costs(builtin));
    CU_ASSERT_TRUE(battle_catalog_has_costs(cat));
    CU_ASSERT_EQUAL(decode(builtin, "{" BUILTIN "'fund': 100}", &job, at, sizeof(at)), SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/fund");
    CU_ASSERT_EQUAL_FATAL(decode(builtin, "{" BUILTIN "'fund': 0}", &job, at, sizeof(at)), SK_OK);
    battle_opt_job_release(&job);
    battle_catalog_free(builtin);
}

/* Out of memory at every allocation of a decode with a fund (the inventory, the cards it
 * makes, their levels' links): SK_ENOMEM and nothing leaked, until the decode succeeds
 * (docs/style.md, rule 26). */
static void test_codec_out_of_memory(void)
{
    json_t *params = doc_of("{" START "'fund': 600}");
    struct opt_job job;
    enum sk_err rc = SK_ENOMEM;
    long n;

    CU_ASSERT_PTR_NOT_NULL_FATAL(params);
    for (n = 0; rc == SK_ENOMEM && n < 100000; n++) {
        struct sk_verr_list errs;
        struct sk_jptr ptr;
        sk_verr_list_init(&errs);
        sk_jptr_init(&ptr);
        sk_jptr_push_key(&ptr, "params");
        sk_mem_fail_after(n);
        rc = battle_opt_decode(params, 7, cat, &ptr, &errs, &job);
        sk_mem_fail_after(-1);
        CU_ASSERT(rc == SK_OK || rc == SK_ENOMEM);
        sk_verr_list_release(&errs);
    }
    CU_ASSERT_EQUAL(rc, SK_OK);
    CU_ASSERT(n > 10);
    if (rc == SK_OK) {
        CU_ASSERT(job.n_cards > 4);
        battle_opt_job_release(&job);
    }
    json_decref(params);
}

/* Every move a search draws with a fund keeps the deck within it. */
static void test_moves_within_fund(void)
{
    struct opt_job job;
    struct opt_deck d, next;
    struct opt_move m;
    struct rng r;
    char at[256];
    int drawn = 0, made_in = 0;

    CU_ASSERT_EQUAL_FATAL(decode(cat, "{" START "'fund': 600}", &job, at, sizeof(at)), SK_OK);
    rng_init(&r, 5, 0);
    d = job.start;
    for (int i = 0; i < 3000; i++) {
        int64_t sp = 0;
        struct opt_sweep sw;
        battle_opt_sweep_start(&job, &d, &r, &sw);
        if (!battle_opt_sweep_next(&job, &d, &sw, &m))
            continue;
        drawn++;
        battle_opt_apply(&d, &m, &next);
        CU_ASSERT_EQUAL_FATAL(battle_opt_fund_cost(&job, &next, 600, &sp), 0);
        CU_ASSERT_FATAL(sp >= 0 && sp <= 600);
        made_in += m.card >= 0 && job.cards[m.card].owned == 0;
        d = next;
    }
    CU_ASSERT(drawn == 3000);
    CU_ASSERT(made_in > 0);
    battle_opt_job_release(&job);
}

/* Runs `job` to its end through the kind's hooks (as job.c does) on `threads` threads, in
 * steps of `step` units (0: one step); with `stop_at`, saved once that many units are done
 * and restored into a new run on one more thread that finishes it. The result, its elapsed
 * time removed. */
static json_t *run_job(struct opt_job *job, int threads, uint64_t step, uint64_t stop_at)
{
    struct job_run_opts opts = {.threads = threads}, more = {.threads = threads + 1};
    void *run = NULL;
    char err[256];
    uint64_t done = 0, total = optimize_kind.total(job);
    json_t *res = NULL;
    struct sk_buf ck;

    job->cat = cat; /* the result names it; not a reference: cleared before the release */
    CU_ASSERT_EQUAL_FATAL(optimize_kind.run_new(NULL, job, &opts, &run, err, sizeof(err)), SK_OK);
    while (done < total) {
        CU_ASSERT_EQUAL_FATAL(optimize_kind.step(run, step, 0, &done, err, sizeof(err)), SK_OK);
        if (stop_at && done >= stop_at) {
            uint64_t from = 0;
            sk_buf_init(&ck, 0);
            CU_ASSERT_EQUAL_FATAL(optimize_kind.save(run, &ck), SK_OK);
            optimize_kind.run_free(run);
            CU_ASSERT_EQUAL_FATAL(optimize_kind.run_new(NULL, job, &more, &run, err, sizeof(err)),
                                  SK_OK);
            CU_ASSERT_EQUAL_FATAL(
                optimize_kind.restore(run, (const unsigned char *)ck.p, ck.len, &from), SK_OK);
            CU_ASSERT_EQUAL(from, done);
            sk_buf_release(&ck);
            stop_at = 0;
        }
    }
    CU_ASSERT_EQUAL(optimize_kind.result(run, &res, err, sizeof(err)), SK_OK);
    optimize_kind.run_free(run);
    job->cat = NULL;
    json_object_del(res, "elapsed_ms");
    return res;
}

/* A deck of level-1 cards. Without a fund the search holds only them (the result has no
 * "fund"); with 600 SP it ends with a deck they cannot build, its upgrades listed and
 * adding up to the SP spent, within the fund, and better than the start. */
static void test_fund_reaches_deck(void)
{
    static const char *const text =
        "{'attacker': 'Octane-1, Hive Soldier-1, Hive Soldier-1, Wings of Fear-1, Wings of "
        "Fear-1', 'defender': 'Octane, Hive Soldier-3#2, Wings of Fear-3#2',"
        " 'pool': [{'card': 'Gravedigger-1'}],"
        " 'constraints': {'deck_size': {'min': 1, 'max': 5}, 'commander': 'owned'},"
        " 'budget': {'games': 20000}, 'eval_games': 1000%s}";
    char buf[1024], at[256];
    struct opt_job job;
    json_t *res, *f, *ups, *u;
    json_int_t spent;
    size_t i;

    snprintf(buf, sizeof(buf), text, "");
    CU_ASSERT_EQUAL_FATAL(decode(cat, buf, &job, at, sizeof(at)), SK_OK);
    for (int c = 0; c < job.n_cards; c++)
        CU_ASSERT(job.cards[c].owned > 0);
    res = run_job(&job, 1, 0, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    CU_ASSERT_PTR_NULL(json_object_get(res, "fund"));
    json_decref(res);
    battle_opt_job_release(&job);

    snprintf(buf, sizeof(buf), text, ", 'fund': 600");
    CU_ASSERT_EQUAL_FATAL(decode(cat, buf, &job, at, sizeof(at)), SK_OK);
    res = run_job(&job, 1, 0, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    f = json_object_get(res, "fund");
    ups = json_object_get(f, "upgrades");
    spent = json_integer_value(json_object_get(f, "spent"));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(f, "fund")), 600);
    CU_ASSERT(spent > 0 && spent <= 600);
    CU_ASSERT(json_array_size(ups) > 0);
    CU_ASSERT(json_real_value(json_object_get(res, "improvement")) > 0);
    fprintf(stderr, "\n  with a fund of 600: %s, %.3f (start %.3f), %lld SP\n",
            json_string_value(json_object_get(json_object_get(res, "best"), "deck")),
            json_real_value(json_object_get(json_object_get(res, "best"), "score")),
            json_real_value(json_object_get(json_object_get(res, "start"), "score")),
            (long long)spent);
    json_array_foreach(ups, i, u) spent -= json_integer_value(json_object_get(u, "sp_total"));
    CU_ASSERT_EQUAL(spent, 0); /* the upgrades add up to the SP spent */
    /* the same on two threads in steps, and stopped mid-search and mid-evaluation, saved
     * and resumed: the fund's decks are a function of the job */
    for (int k = 0; k < 3; k++) {
        json_t *again = run_job(&job, 2, 700, k == 0 ? 0 : k == 1 ? 9000 : 20500);
        CU_ASSERT(json_equal(again, res));
        json_decref(again);
    }
    json_decref(res);
    battle_opt_job_release(&job);
}

static CU_TestInfo fund_tests[] = {
    {"level-ups cost the peer's SP, commanders twice", test_level_ups},
    {"fusions cost no SP, their cards made first", test_fusions},
    {"the walk stops past its limit; fits is the fund's test", test_limit_and_fits},
    {"a deck's upgrades, materials first, add up to the SP spent", test_upgrades_json},
    {"the cards a fund makes from owned ones", test_makeable},
    {"'fund' checked; refused on a catalog without costs", test_codec},
    {"a decode with a fund out of memory at every allocation", test_codec_out_of_memory},
    {"every move drawn stays within the fund", test_moves_within_fund},
    {"a fund lets the search reach a deck owned cards cannot build", test_fund_reaches_deck},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_opt_fund_suites[] = {
    {"battle_opt_fund", setup, teardown, NULL, NULL, fund_tests},
    CU_SUITE_INFO_NULL,
};
