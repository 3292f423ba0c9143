/* SPDX-License-Identifier: MIT */
/* The game's missions and raids (battle_missions, the catalog's index of them and the
 * codec's {"mission"} / {"raid"} sides): the real missions.xml and raids.xml of
 * ../shared/data/tu (never copied into the repository; $SKIRMISH_TEST_TU_DIR overrides),
 * with exact records, the notes on the real files, lookups by name, id and "Name-N", and
 * what a job is refused; and a small folder written here whose cards have known levels, to
 * check level 1 (as listed) against the top level (every card upgraded) exactly, and the
 * notes on malformed records. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "battle.h"
#include "battle_bge.h"
#include "battle_catalog.h"
#include "battle_codec.h"
#include "battle_cpu.h"
#include "battle_missions.h"
#include "battle_mods.h"
#include "battle_plan.h"
#include "battle_sim.h"
#include "rng.h"
#include "sk_mem.h"
#include "sk_test_main.h"

#include "sk_banned.h"

const char *tu_test_dir(void); /* test_battle_tu.c */
enum sk_err tu_test_catalog(struct battle_catalog **out);

static struct battle_missions_data real;
static struct sk_verr_list real_notes;
static struct battle_catalog *real_cat;

/* Loads the snapshot through battle_catalog_load, as the services do, and the enemy files
 * once more on their own for their notes. */
static int setup(void)
{
    char err[512] = "";
    uint64_t hash = BATTLE_TU_FNV_SEED;

    sk_verr_list_init(&real_notes);
    if (battle_missions_load(tu_test_dir(), &real, &hash, &real_notes, err, sizeof(err))) {
        fprintf(stderr, "battle_missions_load(%s): %s\n", tu_test_dir(), err);
        return 1;
    }
    return tu_test_catalog(&real_cat) != SK_OK;
}

static int teardown(void)
{
    battle_missions_release(&real);
    sk_verr_list_release(&real_notes);
    battle_catalog_free(real_cat);
    return 0;
}

static const struct battle_enemy *rec(enum battle_enemy_kind kind, int id)
{
    for (size_t i = 0; i < real.n; i++)
        if (real.items[i].kind == kind && real.items[i].id == id)
            return &real.items[i];
    return NULL;
}

static const char *find_note(const struct sk_verr_list *l, const char *where, const char *what)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].pointer, where) == 0 && strstr(l->items[i].message, what))
            return l->items[i].message;
    return NULL;
}

static void test_real_counts_and_notes(void)
{
    /* 1,279 <mission> and 47 <raid> records (python's ElementTree agrees, once the comment
     * that makes raids.xml ill-formed is taken out). */
    CU_ASSERT_EQUAL(real.n_missions, 1279);
    CU_ASSERT_EQUAL(real.n_raids, 47);
    CU_ASSERT_EQUAL(real.n, 1326);
    CU_ASSERT_EQUAL(battle_catalog_enemy_count(real_cat), 1326);
    /* Exactly two notes: the comment holding "--" and the campaigns not read. */
    CU_ASSERT_EQUAL(real_notes.n, 2);
    CU_ASSERT_PTR_NOT_NULL(
        find_note(&real_notes, "raids.xml:941", "not well-formed XML (Double hyphen"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&real_notes, "raids.xml", "265 <campaign> records"));
}

static void test_real_records(void)
{
    const struct battle_enemy *m = rec(BATTLE_ENEMY_MISSION, 1);
    const struct battle_enemy *r = rec(BATTLE_ENEMY_RAID, 2);
    const struct battle_enemy *f = rec(BATTLE_ENEMY_MISSION, 1064);
    const struct battle_enemy *fx = rec(BATTLE_ENEMY_RAID, 38);
    const struct battle_enemy *pool = rec(BATTLE_ENEMY_RAID, 1);
    const struct battle_enemy *cml = rec(BATTLE_ENEMY_MISSION, 2459);
    const struct battle_enemy *big = rec(BATTLE_ENEMY_MISSION, 1250);

    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->name, "1. Spirefall");
    CU_ASSERT_EQUAL(m->commander, 1143);
    CU_ASSERT_EQUAL(m->levels, BATTLE_ENEMY_LEVELS_DEF);
    CU_ASSERT_EQUAL(m->n_cards, 3);
    CU_ASSERT_EQUAL(m->cards[0], 34);
    CU_ASSERT_EQUAL(m->cards[2], 34);
    CU_ASSERT_EQUAL(m->line, 6);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_STRING_EQUAL(r->name, "Jotun Max");
    CU_ASSERT_EQUAL(r->levels, 26);
    CU_ASSERT_EQUAL(r->commander, 1413);
    CU_ASSERT_EQUAL(r->n_cards, 10);
    CU_ASSERT_EQUAL(r->cards[0], 10551);
    CU_ASSERT_EQUAL(r->cards[9], 10511);
    CU_ASSERT_EQUAL(r->n_card_pools, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_STRING_EQUAL(f->name, "Olivia's Operation");
    CU_ASSERT_EQUAL(f->n_forts, 1);
    CU_ASSERT_EQUAL(f->forts[0], 17996);
    CU_ASSERT_EQUAL(f->n_cards, 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx);
    CU_ASSERT_EQUAL(fx->n_effects, 5);
    CU_ASSERT_STRING_EQUAL(fx->effects[0].skill, "overload");
    CU_ASSERT_EQUAL(fx->effects[0].all, 1);
    CU_ASSERT_DOUBLE_EQUAL(fx->effects[0].x, 0, 1e-12);
    CU_ASSERT_STRING_EQUAL(fx->effects[1].skill, "strike");
    CU_ASSERT_DOUBLE_EQUAL(fx->effects[1].x, 0.6, 1e-12);
    CU_ASSERT_EQUAL(fx->effects[1].all, 0);
    CU_ASSERT_STRING_EQUAL(fx->effects[4].skill, "entrap");
    CU_ASSERT_DOUBLE_EQUAL(fx->effects[4].x, 0.5, 1e-12);
    /* Octane's one pool: <card_pool amount="10"> of 1 + 3 + 3 + 3 + 3 cards. */
    CU_ASSERT_EQUAL(fx->n_pools, 1);
    CU_ASSERT_EQUAL(fx->pools[0].fort, 0);
    CU_ASSERT_EQUAL(fx->pools[0].amount, 10);
    CU_ASSERT_EQUAL(fx->pools[0].replicates, 1);
    CU_ASSERT_EQUAL(fx->pools[0].n, 13);
    CU_ASSERT_EQUAL(fx->pools[0].cards[0], 18262);
    CU_ASSERT_EQUAL(fx->pools[0].cards[1], 48130);
    CU_ASSERT_EQUAL(fx->pools[0].cards[3], 48130);
    CU_ASSERT_EQUAL(fx->pools[0].cards[4], 48140);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pool);
    CU_ASSERT_STRING_EQUAL(pool->name, "Apocalypse");
    CU_ASSERT_EQUAL(pool->n_cards, 6);
    CU_ASSERT_EQUAL(pool->n_card_pools, 1);
    CU_ASSERT_EQUAL(pool->n_pools, 1);
    CU_ASSERT_EQUAL(pool->pools[0].amount, 4);
    CU_ASSERT_EQUAL(pool->pools[0].n, 6);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cml);
    CU_ASSERT_EQUAL(cml->commander_max, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    CU_ASSERT_EQUAL(big->cards_total, 49);
    CU_ASSERT_EQUAL(big->n_cards, 49);
}

static void test_real_lookups(void)
{
    const struct battle_enemy *e;
    char near[BATTLE_NAME_MAX + 1];
    int level = -1;

    e = battle_catalog_find_enemy(real_cat, BATTLE_ENEMY_MISSION, "1. SPIREFALL", &level);
    CU_ASSERT_TRUE(e && e->id == 1 && level == 0);
    e = battle_catalog_find_enemy(real_cat, BATTLE_ENEMY_RAID, "jotunmax-26", &level);
    CU_ASSERT_TRUE(e && e->id == 2 && level == 26);
    /* A name that ends in a number of its own is the whole name, not a level. */
    e = battle_catalog_find_enemy(real_cat, BATTLE_ENEMY_MISSION, "GDR-5000", &level);
    CU_ASSERT_TRUE(e && strcmp(e->name, "GDR-5000") == 0 && level == 0);
    /* Two missions are named "Excavation" (2027, 2833): the later in the file, as the peer. */
    e = battle_catalog_find_enemy(real_cat, BATTLE_ENEMY_MISSION, "Excavation", &level);
    CU_ASSERT_TRUE(e && e->id == 2833);
    e = battle_catalog_find_enemy_id(real_cat, BATTLE_ENEMY_MISSION, 2027);
    CU_ASSERT_TRUE(e && strcmp(e->name, "Excavation") == 0);
    /* Kinds are apart: a raid's name is no mission. */
    CU_ASSERT_PTR_NULL(
        battle_catalog_find_enemy(real_cat, BATTLE_ENEMY_MISSION, "Jotun Max", &level));
    CU_ASSERT_PTR_NULL(battle_catalog_find_enemy_id(real_cat, BATTLE_ENEMY_RAID, 100000));
    battle_catalog_suggest_enemy(real_cat, BATTLE_ENEMY_RAID, "Jotun Maks", near, sizeof(near));
    CU_ASSERT_STRING_EQUAL(near, "Jotun Max");
    battle_catalog_suggest_enemy(real_cat, BATTLE_ENEMY_RAID, "Zzzzzzzzzz", near, sizeof(near));
    CU_ASSERT_STRING_EQUAL(near, "");
}

/* Parses `text` with every ' replaced by " (documents read well in C strings). */
static json_t *parse_q(const char *text)
{
    char *buf = sk_strdup(text);
    json_t *doc;
    json_error_t jerr;

    for (char *c = buf; *c; c++)
        if (*c == '\'')
            *c = '"';
    doc = json_loads(buf, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc)
        fprintf(stderr, "test document does not parse: %s: %s\n", jerr.text, buf);
    sk_free(buf);
    return doc;
}

/* Decodes params `text` (a mix, as job.c does) against `cat`. */
static enum sk_err decode(const struct battle_catalog *cat, const char *text,
                          struct battle_mix *mix, struct sk_verr_list *errs)
{
    json_t *doc = parse_q(text);
    struct sk_jptr ptr;
    enum sk_err err;

    CU_ASSERT_FATAL(doc != NULL);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    err = battle_codec_decode_mix(doc, 7, cat, &ptr, errs, mix);
    json_decref(doc);
    return err;
}

/* The one problem of a refused job is `pointer` with a message holding `what`. */
static void expect_refused(const struct battle_catalog *cat, const char *params,
                           const char *pointer, const char *what)
{
    struct battle_mix mix;
    struct sk_verr_list errs;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(decode(cat, params, &mix, &errs), SK_EINVAL);
    CU_ASSERT_EQUAL(errs.n, 1);
    if (errs.n >= 1) {
        CU_ASSERT_STRING_EQUAL(errs.items[0].pointer, pointer);
        CU_ASSERT_PTR_NOT_NULL(strstr(errs.items[0].message, what));
        if (!strstr(errs.items[0].message, what) || strcmp(errs.items[0].pointer, pointer))
            fprintf(stderr, "\n  got %s: %s\n  want %s: ...%s...\n", errs.items[0].pointer,
                    errs.items[0].message, pointer, what);
    }
    sk_verr_list_release(&errs);
}

#define REAL_ATT "'attacker':{'mission':3,'level':1}"

/* A mid-game state lists a side's fortresses in the order the game drew them; a dominion,
 * played before them wherever the side lists it, comes first. */
#define DOM_SIDE                                                                                   \
    "'attacker':{'commander':'Cyrus','fortresses':['Tesla Coil','Alpha Dominion'],'deck':[]},"     \
    "'defender':{'commander':'Cyrus','deck':[]}"
#define DOM_STATE(a, b)                                                                            \
    "{" DOM_SIDE ",'state':{'turn':2,'attacker':{'commander_health':1,'structures':[{'card':'" a   \
    "','health':1},{'card':'" b "','health':1}]},'defender':{'commander_health':1}}}"

/* A mission's state may name the commander card its deck holds (THE BIG ORBO's), in hand or
 * deck: drawn and not played, as in a fresh game. A side whose deck list holds none still
 * refuses one. */
static void test_state_commander_card(void)
{
    struct battle_mix mix;
    struct sk_verr_list errs;
    const char *cmd = NULL, *other[2] = {NULL, NULL};
    char params[512];

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(
        decode(real_cat,
               "{'attacker':{'commander':'Cyrus','deck':[]},'defender':{'mission':"
               "'THE BIG ORBO'}}",
               &mix, &errs),
        SK_OK);
    {
        const struct battle_spec *s = &mix.specs[0];
        const struct battle_side_spec *d = &s->sides[1];
        for (int k = 0; k < d->n_deck; k++) {
            const struct battle_card_spec *c = &s->cards[d->deck[k]];
            if (c->type == BATTLE_COMMANDER)
                cmd = c->name;
            else if (!strchr(c->name, '\'') && !other[0])
                other[0] = c->name;
            else if (!strchr(c->name, '\'') && !other[1] && strcmp(c->name, other[0]))
                other[1] = c->name;
        }
        CU_ASSERT_PTR_NOT_NULL_FATAL(cmd);
        CU_ASSERT_PTR_NOT_NULL_FATAL(other[1]);
        snprintf(params, sizeof(params),
                 "{'attacker':{'commander':'Cyrus','deck':[]},'defender':{'mission':'THE BIG "
                 "ORBO'},'state':{'turn':2,'attacker':{'commander_health':5},'defender':"
                 "{'commander_health':5,'hand':['%s','%s','%s']}}}",
                 cmd, other[0], other[1]);
    }
    battle_codec_mix_release(&mix);
    CU_ASSERT_EQUAL_FATAL(decode(real_cat, params, &mix, &errs), SK_OK);
    {
        struct battle_plan *plan = NULL;
        struct battle_counts c = {0};
        char err[200] = "";
        CU_ASSERT_EQUAL(mix.specs[0].state.sides[1].n_hand, 3);
        CU_ASSERT_EQUAL_FATAL(battle_plan_new(&mix.specs[0], &plan, err, sizeof(err)), SK_OK);
        CU_ASSERT_EQUAL(battle_plan_data(plan)->sides[1].n_seq, 3);
        CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, 200, 1, &c), SK_OK);
        CU_ASSERT_EQUAL(c.wins + c.stalls + c.losses, 200);
        CU_ASSERT_EQUAL(c.bounded, 0);
        battle_plan_free(plan);
    }
    battle_codec_mix_release(&mix);
    expect_refused(real_cat,
                   "{'attacker':{'commander':'Cyrus','deck':[]},'defender':{'commander':'Cyrus',"
                   "'deck':[]},'state':{'turn':2,'attacker':{'commander_health':5,'hand':"
                   "['Cyrus']},'defender':{'commander_health':5}}}",
                   "/params/state/attacker/hand/0",
                   "is a commander card, not an assault or structure");
}

static void test_state_dominion_first(void)
{
    struct battle_mix mix;
    struct sk_verr_list errs;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(decode(real_cat, DOM_STATE("Alpha Dominion", "Tesla Coil"), &mix, &errs),
                          SK_OK);
    {
        const struct battle_spec *s = &mix.specs[0];
        const struct battle_side_state *a = &s->state.sides[0];
        CU_ASSERT_EQUAL_FATAL(a->n_structures, 2);
        CU_ASSERT(s->cards[a->structures[0].card].dominion);
        CU_ASSERT_STRING_EQUAL(s->cards[a->structures[1].card].name, "Tesla Coil");
    }
    battle_codec_mix_release(&mix);
    expect_refused(real_cat, DOM_STATE("Tesla Coil", "Alpha Dominion"),
                   "/params/state/attacker/structures/0/card",
                   "structure 0 must be the side's dominion \"Alpha Dominion\": a dominion comes "
                   "first");
}

static void test_real_jobs(void)
{
    struct battle_mix mix;
    struct sk_verr_list errs;

    /* Level 1 of "1. Spirefall": its commander and three cards as listed. */
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(decode(real_cat,
                                 "{" REAL_ATT ",'defender':{'mission':'1. Spirefall','level':1,"
                                 "'play':'ordered'}}",
                                 &mix, &errs),
                          SK_OK);
    {
        const struct battle_spec *s = &mix.specs[0];
        const struct battle_side_spec *d = &s->sides[1];
        CU_ASSERT_EQUAL(s->cards[d->commander].id, 1143);
        CU_ASSERT_EQUAL(d->n_deck, 3);
        CU_ASSERT_EQUAL(s->cards[d->deck[0]].id, 34);
        CU_ASSERT_EQUAL(d->n_fortresses, 0);
        CU_ASSERT_EQUAL(d->play, BATTLE_PLAY_ORDERED);
    }
    battle_codec_mix_release(&mix);
    /* By id and as "Name-1", in a weighted list. */
    CU_ASSERT_EQUAL(decode(real_cat,
                           "{" REAL_ATT ",'defender':[{'deck':{'mission':1,'level':1},'weight':1},"
                           "{'deck':{'mission':'2. cannon fire-1'},'weight':3}]}",
                           &mix, &errs),
                    SK_OK);
    CU_ASSERT_EQUAL(mix.n, 2);
    CU_ASSERT_EQUAL(mix.specs[1].cards[mix.specs[1].sides[1].deck[2]].id, 356);
    battle_codec_mix_release(&mix);
    CU_ASSERT_EQUAL(errs.n, 0);
    sk_verr_list_release(&errs);

    /* Levels between the first and the top give level-ups each game, as many as the peer
     * prints for them ("+4/9": 4 of 9 opportunities at level 5 of 10). */
    {
        static const struct {
            const char *side;
            int upgrades, pools;
        } lv[] = {
            {"{'mission':'1. Spirefall','level':5}", 4, 0},
            {"{'mission':'Orbounty','level':5}", 25, 0},
            {"{'raid':'Jotun Max','level':13}", 48, 0},
            {"{'raid':'Apocalypse','level':13}", 48, 1},
            {"{'raid':'Carnifex','level':7}", 24, 1},
            {"{'raid':'Apocalypse','level':1}", 0, 1},
            {"{'raid':'Apocalypse'}", 0, 1},
            {"{'mission':'1. Spirefall','level':1}", 0, 0},
        };
        for (size_t i = 0; i < sizeof(lv) / sizeof(lv[0]); i++) {
            char job[200];
            snprintf(job, sizeof(job), "{" REAL_ATT ",'defender':%s}", lv[i].side);
            CU_ASSERT_EQUAL_FATAL(decode(real_cat, job, &mix, &errs), SK_OK);
            CU_ASSERT_EQUAL(mix.specs[0].sides[1].upgrades, lv[i].upgrades);
            CU_ASSERT_EQUAL(mix.specs[0].sides[1].n_pools, lv[i].pools);
            battle_codec_mix_release(&mix);
        }
    }
    /* Apocalypse at level 13: six cards as listed, a pool of four of six, and each card a
     * level-up can reach in the job with its next level. */
    CU_ASSERT_EQUAL_FATAL(
        decode(real_cat, "{" REAL_ATT ",'defender':{'raid':'Apocalypse','level':13}}", &mix, &errs),
        SK_OK);
    {
        const struct battle_spec *s = &mix.specs[0];
        const struct battle_side_spec *d = &s->sides[1];
        int c = d->commander, steps = 0;
        CU_ASSERT_EQUAL(d->n_deck, 6);
        CU_ASSERT_EQUAL(d->pools[0].fort, 0);
        CU_ASSERT_EQUAL(d->pools[0].amount, 4);
        CU_ASSERT_EQUAL(d->pools[0].replicates, 1);
        CU_ASSERT_EQUAL(d->pools[0].n, 6);
        CU_ASSERT_EQUAL(s->cards[c].level, 1);
        for (; s->up[c]; steps++) {
            CU_ASSERT_EQUAL(s->cards[s->up[c] - 1].level, s->cards[c].level + 1);
            c = s->up[c] - 1;
        }
        CU_ASSERT_EQUAL(s->cards[c].level, s->cards[c].n_levels);
        CU_ASSERT_EQUAL(steps, s->cards[d->commander].n_levels - 1);
        for (int k = 0; k < d->pools[0].n; k++)
            CU_ASSERT_NOT_EQUAL(s->up[d->pools[0].cards[k]], 0);
    }
    battle_codec_mix_release(&mix);
    /* Brood Mother puts a structure card where a fortress goes: in play from the start. */
    CU_ASSERT_EQUAL_FATAL(decode(real_cat,
                                 "{" REAL_ATT ",'defender':{'raid':'Brood Mother','level':3}}",
                                 &mix, &errs),
                          SK_OK);
    {
        const struct battle_spec *s = &mix.specs[0];
        const struct battle_side_spec *d = &s->sides[1];
        struct battle_plan *plan = NULL;
        char err[200] = "";
        CU_ASSERT_EQUAL_FATAL(d->n_fortresses, 1);
        CU_ASSERT_STRING_EQUAL(s->cards[d->fortresses[0]].name, "Brood Lair-1");
        CU_ASSERT_EQUAL(s->cards[d->fortresses[0]].type, BATTLE_STRUCTURE);
        CU_ASSERT_EQUAL(battle_plan_new(s, &plan, err, sizeof(err)), SK_OK);
        CU_ASSERT_EQUAL(battle_plan_data(plan)->sides[1].n_structures, 1);
        battle_plan_free(plan);
    }
    battle_codec_mix_release(&mix);
    /* The largest records: Synapse Unleashed Raid's deck of 50, The Master Rises' 49,
     * Orbocalypse Raid's 10 fortresses, Infested Relay - Swarm's 5; each side plays them all.
     * And the two missions with a commander card in their decks. */
    {
        static const struct {
            const char *defender;
            int deck, forts;
        } big[] = {{"'raid':'Synapse Unleashed Raid','level':1", 50, 0},
                   {"'mission':'The Master Rises'", 49, 0},
                   {"'raid':'Orbocalypse Raid','level':1", 10, 10},
                   {"'mission':'Infested Relay - Swarm'", 10, 5},
                   /* a commander card in the deck, drawn and not played */
                   {"'mission':'THE BIG ORBO'", 10, 0},
                   {"'mission':'Cruel Choice'", 10, 0}};
        for (size_t k = 0; k < sizeof(big) / sizeof(big[0]); k++) {
            char params[256];
            struct battle_plan *plan = NULL;
            struct battle_counts c = {0};
            char err[200] = "";
            snprintf(params, sizeof(params), "{" REAL_ATT ",'defender':{%s}}", big[k].defender);
            CU_ASSERT_EQUAL_FATAL(decode(real_cat, params, &mix, &errs), SK_OK);
            CU_ASSERT_EQUAL(mix.specs[0].sides[1].n_deck, big[k].deck);
            CU_ASSERT_EQUAL(mix.specs[0].sides[1].n_fortresses, big[k].forts);
            CU_ASSERT_EQUAL_FATAL(battle_plan_new(&mix.specs[0], &plan, err, sizeof(err)), SK_OK);
            CU_ASSERT_EQUAL(battle_plan_data(plan)->sides[1].n_seq, big[k].deck);
            CU_ASSERT_EQUAL(battle_plan_data(plan)->sides[1].n_structures, big[k].forts);
            CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, 200, 1, &c), SK_OK);
            CU_ASSERT_EQUAL(c.games, 200);
            CU_ASSERT_EQUAL(c.wins + c.stalls + c.losses, 200);
            CU_ASSERT_EQUAL(c.bounded, 0);
            battle_plan_free(plan);
            battle_codec_mix_release(&mix);
        }
    }
    /* Records whose Enhance and Evolve make more variants than 255 cards (Talos at 13: its
     * Pantheon enhances Avenge by 2 to 7 by its level, on each of 40 levels of its four
     * Avenge assaults): the plan's table holds them with 16-bit card indexes. */
    {
        static const char *const wide[] = {"'raid':'Talos','level':13",
                                           /* Minerva's Purge - Champion */
                                           "'mission':1283,'level':5"};
        for (size_t k = 0; k < sizeof(wide) / sizeof(wide[0]); k++) {
            char params[256];
            struct battle_plan *plan = NULL;
            struct battle_counts c = {0};
            char err[200] = "";
            snprintf(params, sizeof(params), "{" REAL_ATT ",'defender':{%s}}", wide[k]);
            CU_ASSERT_EQUAL_FATAL(decode(real_cat, params, &mix, &errs), SK_OK);
            CU_ASSERT_EQUAL_FATAL(battle_plan_new(&mix.specs[0], &plan, err, sizeof(err)), SK_OK);
            CU_ASSERT_TRUE(battle_plan_data(plan)->n_cards > 255);
            CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, 200, 1, &c), SK_OK);
            CU_ASSERT_EQUAL(c.wins + c.stalls + c.losses, 200);
            battle_plan_free(plan);
            battle_codec_mix_release(&mix);
        }
    }
    /* Records whose variants fit the table play the same games when the plan makes them
     * during play (battle_mods_test_limit): Talos at 13 (hundreds of variants), Karkinos at
     * 13 (Enhance by level), Minerva's Purge - Champion (Enhance, Evolve, Inhibit). */
    {
        static const char *const fit[] = {"'raid':'Talos','level':13",
                                          "'raid':'Karkinos','level':13",
                                          "'mission':1283,'level':5"};
        for (size_t k = 0; k < sizeof(fit) / sizeof(fit[0]); k++) {
            char params[256];
            struct battle_plan *plan = NULL, *lazy = NULL;
            static struct battle_counts a, b, c;
            char err[200] = "";
            memset(&a, 0, sizeof(a));
            memset(&b, 0, sizeof(b));
            memset(&c, 0, sizeof(c));
            snprintf(params, sizeof(params), "{" REAL_ATT ",'defender':{%s}}", fit[k]);
            CU_ASSERT_EQUAL_FATAL(decode(real_cat, params, &mix, &errs), SK_OK);
            CU_ASSERT_EQUAL_FATAL(battle_plan_new(&mix.specs[0], &plan, err, sizeof(err)), SK_OK);
            battle_mods_test_limit(1);
            CU_ASSERT_EQUAL(battle_plan_new(&mix.specs[0], &lazy, err, sizeof(err)), SK_OK);
            battle_mods_test_limit(0);
            CU_ASSERT_PTR_NOT_NULL_FATAL(lazy);
            CU_ASSERT_FALSE(battle_plan_lazy(plan));
            CU_ASSERT_TRUE(battle_plan_lazy(lazy));
            CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, 3000, 2, &a), SK_OK);
            CU_ASSERT_EQUAL(battle_cpu_run(lazy, 0, 3000, 1, &b), SK_OK);
            CU_ASSERT_EQUAL(battle_cpu_run(lazy, 0, 3000, 3, &c), SK_OK);
            CU_ASSERT_EQUAL(a.games, 3000);
            CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof(a)), 0);
            CU_ASSERT_EQUAL(memcmp(&a, &c, sizeof(a)), 0);
            battle_plan_free(plan);
            battle_plan_free(lazy);
            battle_codec_mix_release(&mix);
        }
    }
    /* Gilians Raid and Orbocalypse Raid at their middle levels: their Enhance and Evolve make
     * more variants than the table holds (Orbocalypse more than 32 distinct changes too), so
     * their plans make them during play, with the same counts on any number of threads. */
    {
        static const char *const wide[] = {
            "'raid':'Gilians Raid','level':2", "'raid':'Gilians Raid','level':8",
            "'raid':'Gilians Raid','level':15", "'raid':'Orbocalypse Raid','level':5",
            "'raid':'Orbocalypse Raid','level':13"};
        for (size_t k = 0; k < sizeof(wide) / sizeof(wide[0]); k++) {
            char params[256];
            struct battle_plan *plan = NULL;
            static struct battle_counts a, b;
            char err[200] = "";
            memset(&a, 0, sizeof(a));
            memset(&b, 0, sizeof(b));
            snprintf(params, sizeof(params), "{" REAL_ATT ",'defender':{%s}}", wide[k]);
            CU_ASSERT_EQUAL_FATAL(decode(real_cat, params, &mix, &errs), SK_OK);
            CU_ASSERT_EQUAL_FATAL(battle_plan_new(&mix.specs[0], &plan, err, sizeof(err)), SK_OK);
            CU_ASSERT_TRUE(battle_plan_lazy(plan));
            CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, 2000, 1, &a), SK_OK);
            CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, 2000, 3, &b), SK_OK);
            CU_ASSERT_EQUAL(a.games, 2000);
            CU_ASSERT_EQUAL(a.bounded, 0);
            CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof(a)), 0);
            battle_plan_free(plan);
            battle_codec_mix_release(&mix);
        }
    }
    /* Octane's effects at level 15: X = ceil(x * 15), after the job's own effect. */
    CU_ASSERT_EQUAL_FATAL(decode(real_cat,
                                 "{" REAL_ATT ",'defender':{'raid':38,'level':15},'effects':"
                                 "[{'skill':{'name':'rally','x':1},'side':'defender'}]}",
                                 &mix, &errs),
                          SK_OK);
    {
        const struct battle_spec *s = &mix.specs[0];
        const struct battle_card_spec *fx = &s->cards[s->sides[1].effects - 1];
        static const struct {
            enum battle_skill id;
            int x, all;
        } want[] = {{BATTLE_SKILL_RALLY, 1, 0},   {BATTLE_SKILL_OVERLOAD, 0, 1},
                    {BATTLE_SKILL_STRIKE, 9, 0},  {BATTLE_SKILL_HEAL, 8, 1},
                    {BATTLE_SKILL_PROTECT, 6, 1}, {BATTLE_SKILL_ENTRAP, 8, 1}};
        CU_ASSERT_EQUAL_FATAL(fx->n_skills, 6);
        for (int k = 0; k < 6; k++) {
            CU_ASSERT_EQUAL(fx->skills[k].id, want[k].id);
            CU_ASSERT_EQUAL(fx->skills[k].x, want[k].x);
            CU_ASSERT_EQUAL(fx->skills[k].all, want[k].all);
        }
        CU_ASSERT_EQUAL(s->sides[0].effects, 0);
    }
    battle_codec_mix_release(&mix);
    CU_ASSERT_EQUAL(errs.n, 0);
    sk_verr_list_release(&errs);

    expect_refused(real_cat, "{" REAL_ATT ",'defender':{'raid':'Jotun Maks'}}",
                   "/params/defender/raid",
                   "unknown raid \"Jotun Maks\"; did you mean \"Jotun Max\"?");
    expect_refused(real_cat, "{" REAL_ATT ",'defender':{'mission':99999}}",
                   "/params/defender/mission", "no mission has id 99999");
    /* A deck drawn each game plays at random, from the start. */
    expect_refused(
        real_cat, "{" REAL_ATT ",'defender':{'mission':'1. Spirefall','level':5,'play':'ordered'}}",
        "/params/defender/play",
        "this mission draws its cards anew each game (card pools or level-ups): it "
        "plays them at random");
    expect_refused(real_cat, "{" REAL_ATT ",'defender':{'raid':'Apocalypse','play':'exact'}}",
                   "/params/defender/play", "this raid draws its cards anew each game");
    expect_refused(real_cat, "{" REAL_ATT ",'defender':{'mission':'1. Spirefall-1','level':10}}",
                   "/params/defender", "the name says level 1 and 'level' says 10");
    expect_refused(real_cat, "{" REAL_ATT ",'defender':{'mission':'1. Spirefall','raid':'x'}}",
                   "/params/defender", "name a mission or a raid, not both");
    expect_refused(real_cat, "{" REAL_ATT ",'defender':{'mission':'1. Spirefall','level':0}}",
                   "/params/defender/level", "");
    expect_refused(real_cat, "{" REAL_ATT ",'defender':{'mission':['x']}}",
                   "/params/defender/mission", "'mission' must be the mission's name or id");
    expect_refused(real_cat,
                   "{" REAL_ATT ",'defender':[{'deck':{'mission':'Nope Nope Nope'},'weight':1}]}",
                   "/params/defender/0/deck/mission", "unknown mission \"Nope Nope Nope\"");
}

/* A raid scores raid points unless the job names a scoring, as in the peer; a weighted list
 * keeps one scoring, "win" unless named, whatever its decks are. The raid is the first of
 * the game's that the engine plays. */
static void test_raid_scoring(void)
{
    struct battle_mix mix;
    struct sk_verr_list errs;
    char text[300];
    int id = 0;

    sk_verr_list_init(&errs);
    for (int k = 1; k <= 60 && !id; k++) {
        snprintf(text, sizeof(text), "{" REAL_ATT ",'defender':{'raid':%d}}", k);
        if (decode(real_cat, text, &mix, &errs) == SK_OK) {
            id = k;
            CU_ASSERT_EQUAL(mix.specs[0].scoring, BATTLE_SCORING_RAID);
            battle_codec_mix_release(&mix);
        }
        sk_verr_list_release(&errs);
        sk_verr_list_init(&errs);
    }
    CU_ASSERT_FATAL(id > 0);
    snprintf(text, sizeof(text), "{" REAL_ATT ",'scoring':'win','defender':{'raid':%d}}", id);
    CU_ASSERT_EQUAL_FATAL(decode(real_cat, text, &mix, &errs), SK_OK);
    CU_ASSERT_EQUAL(mix.specs[0].scoring, BATTLE_SCORING_WIN);
    battle_codec_mix_release(&mix);
    snprintf(text, sizeof(text),
             "{" REAL_ATT ",'defender':[{'deck':{'raid':%d},'weight':1},"
             "{'deck':{'mission':1,'level':1},'weight':1}]}",
             id);
    CU_ASSERT_EQUAL_FATAL(decode(real_cat, text, &mix, &errs), SK_OK);
    CU_ASSERT_EQUAL(mix.specs[0].scoring, BATTLE_SCORING_WIN);
    CU_ASSERT_EQUAL(mix.specs[1].scoring, BATTLE_SCORING_WIN);
    battle_codec_mix_release(&mix);
    snprintf(text, sizeof(text),
             "{" REAL_ATT ",'scoring':'brawl','defender':[{'deck':{'raid':%d},'weight':1},"
             "{'deck':{'mission':1,'level':1},'weight':1}]}",
             id);
    CU_ASSERT_EQUAL_FATAL(decode(real_cat, text, &mix, &errs), SK_OK);
    CU_ASSERT_EQUAL(mix.specs[0].scoring, BATTLE_SCORING_BRAWL);
    CU_ASSERT_EQUAL(mix.specs[1].scoring, BATTLE_SCORING_BRAWL);
    battle_codec_mix_release(&mix);
    CU_ASSERT_EQUAL(errs.n, 0);
    sk_verr_list_release(&errs);
}

/* Effects named as in the game's bges.txt: one side's, resolved through a named effect
 * inside another, and the refusals with their reasons. */
static void test_named_effects(void)
{
    struct battle_mix mix;
    struct sk_verr_list errs;
    const struct battle_spec *s;
    const struct battle_card_spec *a, *d;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(decode(real_cat,
                                 "{" REAL_ATT ",'defender':{'mission':1,'level':1},"
                                 "'effects':[{'name':'divine blessing','side':'attacker'},"
                                 "{'name':'Phobos Station'}]}",
                                 &mix, &errs),
                          SK_OK);
    s = &mix.specs[0];
    CU_ASSERT_FATAL(s->sides[0].effects > 0 && s->sides[1].effects > 0);
    a = &s->cards[s->sides[0].effects - 1];
    d = &s->cards[s->sides[1].effects - 1];
    CU_ASSERT_EQUAL(a->n_skills, 5); /* heal, rally, strike; then strike and siege */
    CU_ASSERT_EQUAL(a->skills[0].id, BATTLE_SKILL_HEAL);
    CU_ASSERT_EQUAL(a->skills[4].id, BATTLE_SKILL_SIEGE);
    CU_ASSERT_EQUAL(d->n_skills, 2);
    CU_ASSERT_EQUAL(d->skills[0].x, 3);
    battle_codec_mix_release(&mix);
    CU_ASSERT_EQUAL(errs.n, 0);
    sk_verr_list_release(&errs);
    expect_refused(real_cat,
                   "{" REAL_ATT ",'defender':{'mission':1,'level':1},'effects':[{'name':'Nope'}]}",
                   "/params/effects/0/name", "unknown battleground effect \"Nope\"");
    /* "Bathe in Blood: Bloodlust 2" and "Baron's Claw Labs: Virulence" are passive effects
     * the engine plays (names compare without the apostrophe); "Artillery: Enhance Mortar 15;
     * Mortar all 10" and "Sulfuris Essence: Evolve All Poison Venom; Enhance All Venom 6"
     * skills with skill arguments */
    static const char *const plays[] = {
        "{" REAL_ATT ",'defender':{'mission':1,'level':1},'effects':[{'name':'Bathe in Blood'}]}",
        "{" REAL_ATT ",'defender':{'mission':1,'level':1},'effects':[{'name':'Barons Claw Labs'}]}",
        "{" REAL_ATT ",'defender':{'mission':1,'level':1},'effects':[{'name':'Artillery'}]}",
        "{" REAL_ATT ",'defender':{'mission':1,'level':1},'effects':[{'name':'Sulfuris Essence'}]}",
    };
    for (int k = 0; k < 4; k++) {
        sk_verr_list_init(&errs);
        CU_ASSERT_EQUAL(decode(real_cat, plays[k], &mix, &errs), SK_OK);
        if (errs.n == 0)
            battle_codec_mix_release(&mix);
        sk_verr_list_release(&errs);
    }
    /* Winter Tempest's Enhance all Subdue 125: values up to 255 play (8-bit fields). */
    {
        sk_verr_list_init(&errs);
        CU_ASSERT_EQUAL(decode(real_cat,
                               "{" REAL_ATT ",'defender':{'mission':1,'level':1},"
                               "'effects':[{'name':'Winter Tempest'}]}",
                               &mix, &errs),
                        SK_OK);
        CU_ASSERT_EQUAL(errs.n, 0);
        if (errs.n == 0)
            battle_codec_mix_release(&mix);
        sk_verr_list_release(&errs);
    }
}

/* A fresh catalog's lookups from several threads at once (its first use: the parse). */
struct lazy_lookup {
    const struct battle_catalog *cat;
    const struct battle_enemy *by_name, *by_id;
    size_t n;
};

static void *lazy_lookup_run(void *arg)
{
    struct lazy_lookup *a = arg;
    int level = 0;

    a->by_name = battle_catalog_find_enemy(a->cat, BATTLE_ENEMY_RAID, "Jotun Max", &level);
    a->by_id = battle_catalog_find_enemy_id(a->cat, BATTLE_ENEMY_MISSION, 1);
    a->n = battle_catalog_enemy_count(a->cat);
    return NULL;
}

/* The catalog's order of records: kind, id, then file order (battle_catalog_enemy_at). */
static int enemy_order(const void *a, const void *b)
{
    const struct battle_enemy *x = a, *y = b;
    if (x->kind != y->kind)
        return (x->kind > y->kind) - (x->kind < y->kind);
    if (x->id != y->id)
        return (x->id > y->id) - (x->id < y->id);
    return (x->line > y->line) - (x->line < y->line);
}

/* A catalog of the game's folder parses its missions and raids when they are first asked
 * for: four threads asking at once all get the same records, and they are the eager load's
 * (battle_missions_load, `real`) byte for byte, in the catalog's order. */
static void test_real_parsed_on_first_use(void)
{
    struct battle_catalog *cat = NULL;
    struct lazy_lookup look[4];
    pthread_t th[4];
    struct battle_enemy *want = NULL;
    char err[512] = "";
    size_t differ = 0;

    CU_ASSERT_EQUAL_FATAL(tu_test_catalog(&cat), SK_OK);
    CU_ASSERT_STRING_EQUAL(battle_catalog_hash(cat), battle_catalog_hash(real_cat));
    for (int i = 0; i < 4; i++) {
        memset(&look[i], 0, sizeof(look[i]));
        look[i].cat = cat;
        CU_ASSERT_EQUAL_FATAL(pthread_create(&th[i], NULL, lazy_lookup_run, &look[i]), 0);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_PTR_NOT_NULL(look[i].by_name);
        CU_ASSERT_PTR_NOT_NULL(look[i].by_id);
        CU_ASSERT_PTR_EQUAL(look[i].by_name, look[0].by_name);
        CU_ASSERT_PTR_EQUAL(look[i].by_id, look[0].by_id);
        CU_ASSERT_EQUAL(look[i].n, real.n);
    }
    CU_ASSERT_EQUAL(battle_catalog_enemies_load(cat, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL_FATAL(battle_catalog_enemy_count(cat), real.n);
    want = sk_malloc(real.n * sizeof(*want));
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    memcpy(want, real.items, real.n * sizeof(*want));
    qsort(want, real.n, sizeof(*want), enemy_order);
    for (size_t i = 0; i < real.n; i++)
        differ += memcmp(battle_catalog_enemy_at(cat, i), &want[i], sizeof(*want)) != 0;
    CU_ASSERT_EQUAL(differ, 0);
    sk_free(want);
    battle_catalog_free(cat);
}

/* The README's mission example (examples/tu/battle_missions.json) decodes against the
 * game's files: a real deck against a weighted list of two missions. */
static void test_readme_example(void)
{
    json_error_t jerr;
    json_t *doc = json_load_file(SK_SOURCE_DIR "/examples/tu/battle_missions.json", 0, &jerr);
    struct battle_mix mix;
    struct sk_verr_list errs;
    struct sk_jptr ptr;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    CU_ASSERT_EQUAL(
        battle_codec_decode_mix(json_object_get(doc, "params"), 11, real_cat, &ptr, &errs, &mix),
        SK_OK);
    if (errs.n) {
        fprintf(stderr, "%s: %s\n", errs.items[0].pointer, errs.items[0].message);
    } else {
        CU_ASSERT_EQUAL(mix.n, 3);
        CU_ASSERT_EQUAL(mix.specs[1].sides[1].n_deck, 4);
        CU_ASSERT_EQUAL(mix.specs[1].sides[1].play, BATTLE_PLAY_ORDERED);
        /* Apocalypse at level 13: its pool and 48 level-ups, drawn anew each game. */
        CU_ASSERT_EQUAL(mix.specs[2].sides[1].n_pools, 1);
        CU_ASSERT_EQUAL(mix.specs[2].sides[1].upgrades, 48);
        battle_codec_mix_release(&mix);
    }
    sk_verr_list_release(&errs);
    json_decref(doc);
}

/* The built-in catalog has no missions: the message says where they come from. */
static void test_builtin_has_none(void)
{
    const struct battle_catalog *cat = NULL;
    CU_ASSERT_FATAL(battle_catalog_current(&cat, NULL, 0) == SK_OK);
    CU_ASSERT_EQUAL(battle_catalog_enemy_count(cat), 0);
    expect_refused(cat,
                   "{'attacker':{'commander':'Test Commander','deck':[{'card':'Grunt'}]},"
                   "'defender':{'mission':'1. Spirefall'}}",
                   "/params/defender/mission",
                   "missions and raids come with the game's files (SKIRMISH_CARDS_DIR)");
}

/* ===== A small folder written here ===== */

static char tmpdir[256];

static void write_file(const char *name, const char *text)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
    f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static void remove_dir(void)
{
    const char *names[] = {"cards_section_1.xml", "missions.xml", "raids.xml"};
    char path[512];
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
        unlink(path);
    }
    rmdir(tmpdir);
}

static void make_dir(void)
{
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/sk_missions_test_%d", (int)getpid());
    remove_dir();
    CU_ASSERT_EQUAL_FATAL(mkdir(tmpdir, 0700), 0);
}

/* The hash of folder `dir` with every file read and parsed at once, in the order
 * battle_catalog_load reads them (cards, missions and raids, named effects, named decks):
 * what a catalog's hash was before its missions and raids were parsed on first use. */
static void eager_hash(const char *dir, char *out, size_t outlen)
{
    struct battle_tu_data td;
    struct battle_missions_data md;
    struct battle_bges bges;
    struct battle_named named;
    struct sk_verr_list notes;
    char err[512] = "";
    uint64_t h;

    out[0] = '\0';
    sk_verr_list_init(&notes);
    CU_ASSERT_EQUAL_FATAL(battle_tu_load(dir, &td, &notes, err, sizeof(err)), SK_OK);
    h = td.hash;
    battle_tu_data_release(&td);
    /* a missions.xml that does not parse (SK_EINVAL) has extended the hash by its bytes */
    if (battle_missions_load(dir, &md, &h, &notes, err, sizeof(err)) == SK_OK)
        battle_missions_release(&md);
    CU_ASSERT_EQUAL_FATAL(battle_bge_load(dir, &bges, &h, &notes, err, sizeof(err)), SK_OK);
    battle_bge_release(&bges);
    CU_ASSERT_EQUAL_FATAL(battle_named_load(dir, &named, &h, &notes, err, sizeof(err)), SK_OK);
    battle_named_release(&named);
    sk_verr_list_release(&notes);
    snprintf(out, outlen, "fnv1a64:%016llx", (unsigned long long)h);
}

/* A commander (ids 1000..1002, levels 1..3), an assault (1..3) and a fortress (2700, 2701),
 * each level with its own stats, so the test can tell which level a side got. */
static const char cards_xml[] =
    "<root>\n"
    "<unit><id>1000</id><name>Boss</name><health>30</health><type>1</type>\n"
    "  <upgrade><level>2</level><card_id>1001</card_id><health>31</health></upgrade>\n"
    "  <upgrade><level>3</level><card_id>1002</card_id><health>32</health></upgrade>\n"
    "</unit>\n"
    "<unit><id>1</id><name>Trooper</name><attack>1</attack><health>5</health><cost>1</cost>"
    "<type>1</type>\n"
    "  <upgrade><level>2</level><card_id>2</card_id><attack>2</attack></upgrade>\n"
    "  <upgrade><level>3</level><card_id>3</card_id><attack>3</attack></upgrade>\n"
    "</unit>\n"
    "<unit><id>2700</id><name>Tower</name><health>10</health><type>1</type>\n"
    "  <upgrade><level>2</level><card_id>2701</card_id><health>12</health></upgrade>\n"
    "</unit>\n"
    "</root>\n";

static const char missions_xml[] =
    "<root>\n"
    "<mission>\n"                                                                  /* 2 */
    "  <id>1</id><name>First Steps</name><commander>1000</commander>\n"            /* 3 */
    "  <commander_max_level>2</commander_max_level><fortress_card id=\"2700\"/>\n" /* 4 */
    "  <deck><card>1</card><card replicates=\"2\">2</card></deck>\n"               /* 5 */
    "  <rewards><card id=\"9\" amount=\"1\"/></rewards><glitter>1</glitter>\n"     /* 6 */
    "</mission>\n"                                                                 /* 7 */
    "<mission>\n"                                                                  /* 8 */
    "  <id>2</id><name>Broken</name><commander>1000</commander>\n"                 /* 9 */
    "  <deck><card>abc</card></deck>\n"                                            /* 10 */
    "</mission>\n"                                                                 /* 11 */
    "<mission><id>3</id><commander>1000</commander><deck/></mission>\n"            /* 12 */
    "<mission><id>4</id><name>Ghost</name><commander>1000</commander>\n"           /* 13 */
    "  <deck><card>77777</card></deck></mission>\n"                                /* 14 */
    /* One card more than a deck holds, one fortress more than a side holds. */
    "<mission><id>5</id><name>Crowd</name><commander>1000</commander>\n"        /* 15 */
    "  <deck><card replicates=\"50\">1</card><card>2</card></deck></mission>\n" /* 16 */
    "<mission><id>6</id><name>Towers</name><commander>1000</commander>\n"       /* 17 */
    "  <fortress_card id=\"2700\"/><fortress_card id=\"2700\"/><fortress_card id=\"2700\"/>"
    "<fortress_card id=\"2700\"/><fortress_card id=\"2700\"/><fortress_card id=\"2700\"/>"
    "<fortress_card id=\"2700\"/><fortress_card id=\"2700\"/><fortress_card id=\"2700\"/>"
    "<fortress_card id=\"2700\"/><fortress_card id=\"2701\"/>\n" /* 18 */
    "  <deck><card>1</card></deck></mission>\n"                  /* 19 */
    "</root>\n";

static const char raids_xml[] = "<root>\n"
                                "<raid><id>1</id><name>Pool Party</name><commander>1000</commander>"
                                "<levels>5</levels>\n"
                                "  <deck><always_include><card>1</card></always_include>\n"
                                "  <card_pool amount=\"x\"><card>1</card></card_pool></deck>\n"
                                "</raid>\n"
                                "</root>\n";

static void test_small_folder(void)
{
    struct battle_missions_data d;
    struct sk_verr_list notes;
    struct battle_catalog *cat = NULL;
    struct battle_mix mix;
    struct sk_verr_list errs;
    char err[512] = "";
    uint64_t h1 = BATTLE_TU_FNV_SEED, h2 = BATTLE_TU_FNV_SEED;
    enum sk_err rc;

    make_dir();
    write_file("cards_section_1.xml", cards_xml);
    write_file("missions.xml", missions_xml);
    write_file("raids.xml", raids_xml);
    sk_verr_list_init(&notes);
    CU_ASSERT_EQUAL_FATAL(battle_missions_load(tmpdir, &d, &h1, &notes, err, sizeof(err)), SK_OK);
    /* Mission 2 (a card that is no id), mission 3 (no name) and the raid (a pool amount
     * that is no number) are left out, each with its file and line. */
    CU_ASSERT_EQUAL(d.n, 4);
    CU_ASSERT_EQUAL(d.n_missions, 4);
    CU_ASSERT_EQUAL(d.n_raids, 0);
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "missions.xml:6", "unknown element <glitter>"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "missions.xml:10", "<card> 'abc' is not an integer"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "missions.xml:8", "mission Broken left out"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "missions.xml:12", "a mission without <name>"));
    CU_ASSERT_PTR_NOT_NULL(
        find_note(&notes, "raids.xml:4", "<card_pool amount='x'> is not an integer"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "raids.xml:2", "raid Pool Party left out"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "missions.xml:12", "mission left out"));
    CU_ASSERT_EQUAL(notes.n, 7);
    CU_ASSERT_NOT_EQUAL(h1, BATTLE_TU_FNV_SEED);
    battle_missions_release(&d);
    sk_verr_list_release(&notes);

    /* The same folder through the catalog: the hash covers the enemy files. */
    setenv(BATTLE_TU_ENV_DIR, tmpdir, 1);
    rc = battle_catalog_load(&cat, err, sizeof(err));
    unsetenv(BATTLE_TU_ENV_DIR);
    CU_ASSERT_EQUAL_FATAL(rc, SK_OK);
    CU_ASSERT_EQUAL(battle_catalog_enemy_count(cat), 4);
    {
        struct battle_tu_data td;
        sk_verr_list_init(&notes);
        CU_ASSERT_EQUAL_FATAL(battle_tu_load(tmpdir, &td, &notes, err, sizeof(err)), SK_OK);
        h2 = td.hash;
        battle_tu_data_release(&td);
        sk_verr_list_release(&notes);
        CU_ASSERT_STRING_NOT_EQUAL(battle_catalog_hash(cat), "");
        {
            char want[32];
            snprintf(want, sizeof(want), "fnv1a64:%016llx", (unsigned long long)h2);
            CU_ASSERT_STRING_NOT_EQUAL(battle_catalog_hash(cat), want);
            /* read at load, parsed later: the hash is the one of an eager load */
            eager_hash(tmpdir, want, sizeof(want));
            CU_ASSERT_STRING_EQUAL(battle_catalog_hash(cat), want);
        }
    }

    sk_verr_list_init(&errs);
    /* The top level (10, the missions' default): commander up to <commander_max_level> 2,
     * every card and the fortress at its top level. */
    CU_ASSERT_EQUAL_FATAL(decode(cat,
                                 "{'attacker':{'mission':'First Steps','level':1},"
                                 "'defender':{'mission':'first steps'}}",
                                 &mix, &errs),
                          SK_OK);
    {
        const struct battle_spec *s = &mix.specs[0];
        const struct battle_side_spec *a = &s->sides[0], *t = &s->sides[1];
        /* level 1: as listed */
        CU_ASSERT_EQUAL(s->cards[a->commander].id, 1000);
        CU_ASSERT_EQUAL(s->cards[a->fortresses[0]].id, 2700);
        CU_ASSERT_EQUAL(a->n_deck, 3);
        CU_ASSERT_EQUAL(s->cards[a->deck[0]].id, 1);
        CU_ASSERT_EQUAL(s->cards[a->deck[1]].id, 2);
        CU_ASSERT_EQUAL(s->cards[a->deck[2]].id, 2);
        /* top level */
        CU_ASSERT_EQUAL(s->cards[t->commander].id, 1001);
        CU_ASSERT_EQUAL(s->cards[t->commander].health, 31);
        CU_ASSERT_EQUAL(t->n_fortresses, 1);
        CU_ASSERT_EQUAL(s->cards[t->fortresses[0]].id, 2701);
        CU_ASSERT_EQUAL(t->n_deck, 3);
        for (int k = 0; k < t->n_deck; k++)
            CU_ASSERT_EQUAL(s->cards[t->deck[k]].attack, 3);
    }
    battle_codec_mix_release(&mix);
    CU_ASSERT_EQUAL(errs.n, 0);
    sk_verr_list_release(&errs);
    expect_refused(cat, "{'attacker':{'mission':1,'level':1},'defender':{'mission':'Ghost'}}",
                   "/params/defender", "no card has id 77777 (its deck card 1)");
    expect_refused(cat, "{'attacker':{'mission':1,'level':1},'defender':{'mission':'Broken'}}",
                   "/params/defender/mission", "unknown mission \"Broken\"");
    /* Past the limits (Synapse Unleashed Raid's 50 cards, Orbocalypse Raid's 10 fortresses),
     * at every level. */
    expect_refused(cat, "{'attacker':{'mission':1,'level':1},'defender':{'mission':'Crowd'}}",
                   "/params/defender",
                   "mission \"Crowd\" (id 5) cannot be played: its deck has 51 cards and a deck "
                   "holds at most 50");
    expect_refused(cat,
                   "{'attacker':{'mission':1,'level':1},'defender':{'mission':'Towers','level':1}}",
                   "/params/defender",
                   "mission \"Towers\" (id 6) cannot be played: it has 11 fortresses and a side "
                   "holds at most 10");

    {
        json_t *j = battle_catalog_enemy_json(cat, battle_catalog_enemy_at(cat, 0));
        CU_ASSERT_PTR_NOT_NULL_FATAL(j);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "kind")), "mission");
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "name")), "First Steps");
        CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "cards")), 3);
        CU_ASSERT_STRING_EQUAL(
            json_string_value(json_object_get(json_object_get(j, "commander"), "name")), "Boss-1");
        CU_ASSERT_TRUE(json_is_true(json_object_get(j, "playable")));
        /* every level, 1 to the top (10) */
        CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "playable_levels")), 10);
        CU_ASSERT_EQUAL(
            json_integer_value(json_array_get(json_object_get(j, "playable_levels"), 9)), 10);
        json_decref(j);
        j = battle_catalog_enemy_json(cat, battle_catalog_enemy_at(cat, 1));
        CU_ASSERT_PTR_NOT_NULL_FATAL(j);
        CU_ASSERT_TRUE(json_is_false(json_object_get(j, "playable")));
        CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "playable_levels")), 0);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "why")),
                               "no card has id 77777 (its deck card 1)");
        json_decref(j);
    }
    battle_catalog_free(cat);
    remove_dir();
}

/* A missions.xml libxml2 cannot read at all: the catalog still loads (a job naming no
 * mission runs), with the hash of the files' bytes as before; a job naming a mission or a
 * raid is refused with the reason, the listing's load says it, and `skirmish cards update`
 * (battle_folder_read) refuses the folder as it did when the parse was part of the load. */
static void test_unparsable_missions(void)
{
    struct battle_catalog *cat = NULL;
    struct battle_folder folder;
    struct battle_mix mix;
    struct sk_verr_list errs;
    char err[512] = "", want[32];
    int level = 0;
    enum sk_err rc;

    make_dir();
    write_file("cards_section_1.xml", cards_xml);
    write_file("missions.xml", "not xml at all\n");
    write_file("raids.xml", raids_xml);
    setenv(BATTLE_TU_ENV_DIR, tmpdir, 1);
    rc = battle_catalog_load(&cat, err, sizeof(err));
    unsetenv(BATTLE_TU_ENV_DIR);
    CU_ASSERT_EQUAL_FATAL(rc, SK_OK);
    eager_hash(tmpdir, want, sizeof(want));
    CU_ASSERT_STRING_EQUAL(battle_catalog_hash(cat), want);

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(decode(cat,
                           "{'attacker':{'commander':'Boss','deck':[{'card':'Trooper'}]},"
                           "'defender':{'commander':'Boss','deck':[{'card':'Trooper'}]}}",
                           &mix, &errs),
                    SK_OK);
    if (errs.n == 0)
        battle_codec_mix_release(&mix);
    else
        fprintf(stderr, "\n  %s: %s\n", errs.items[0].pointer, errs.items[0].message);
    sk_verr_list_release(&errs);
    expect_refused(cat,
                   "{'attacker':{'commander':'Boss','deck':[{'card':'Trooper'}]},"
                   "'defender':{'raid':'Pool Party'}}",
                   "/params/defender/raid", "the game's missions and raids cannot be read: ");
    expect_refused(cat,
                   "{'attacker':{'commander':'Boss','deck':[{'card':'Trooper'}]},"
                   "'defender':{'mission':1}}",
                   "/params/defender/mission", "missions.xml: not XML libxml2 can read");
    err[0] = '\0';
    CU_ASSERT_EQUAL(battle_catalog_enemies_load(cat, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "missions.xml: not XML libxml2 can read (no root element)"));
    CU_ASSERT_EQUAL(battle_catalog_enemy_count(cat), 0);
    CU_ASSERT_PTR_NULL(battle_catalog_enemy_at(cat, 0));
    CU_ASSERT_PTR_NULL(battle_catalog_find_enemy(cat, BATTLE_ENEMY_RAID, "Pool Party", &level));
    battle_catalog_free(cat);

    err[0] = '\0';
    CU_ASSERT_EQUAL(battle_folder_read(tmpdir, &folder, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "missions.xml: not XML libxml2 can read (no root element)"));
    remove_dir();
}

/* Missing enemy files are noted, not fatal; XML libxml2 cannot recover stops the load. */
static void test_missing_and_unreadable(void)
{
    struct battle_missions_data d;
    struct sk_verr_list notes;
    char err[512] = "";
    uint64_t h = BATTLE_TU_FNV_SEED;

    make_dir();
    sk_verr_list_init(&notes);
    CU_ASSERT_EQUAL(battle_missions_load(tmpdir, &d, &h, &notes, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(d.n, 0);
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "missions.xml", "no missions.xml"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "raids.xml", "no raids.xml"));
    battle_missions_release(&d);
    sk_verr_list_release(&notes);
    write_file("missions.xml", "not xml at all\n");
    sk_verr_list_init(&notes);
    CU_ASSERT_EQUAL(battle_missions_load(tmpdir, &d, &h, &notes, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "missions.xml: not XML libxml2 can read"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "missions.xml:1", "not well-formed XML"));
    sk_verr_list_release(&notes);
    remove_dir();
}

/* A raid with both kinds of pool and every effect attribute, read exactly; then 2,000
 * mutations of it (bytes changed, removed or copied, cut short: a fixed stream) each load
 * with SK_OK or SK_EINVAL, a record read whole or left out with a note, never beyond its
 * limits (ASan and UBSan run this test too). */
static const char fuzz_raids_xml[] =
    "<root>\n"
    "<raid><id>7</id><name>Pool Party</name><commander>1000</commander><levels>5</levels>\n"
    "  <effects><skill id=\"strike\" x=\".6\" all=\"1\" y=\"2\" n=\"3\"/>"
    "<skill id=\"evolve\" s=\"armored\" s2=\"counter\"/></effects>\n"
    "  <fortress_pool amount=\"1\"><card>2700</card><card replicates=\"2\">2701</card>"
    "</fortress_pool>\n"
    "  <deck><always_include><card>1</card></always_include>\n"
    "  <card_pool amount=\"2\" replicates=\"3\"><card>1</card><card replicates=\"2\">2</card>"
    "<card>3</card></card_pool></deck>\n"
    "</raid>\n"
    "</root>\n";

static void test_pools_effects_fuzz(void)
{
    struct battle_missions_data d;
    struct sk_verr_list notes;
    char err[512] = "";
    uint64_t h = BATTLE_TU_FNV_SEED;
    const size_t len = sizeof(fuzz_raids_xml) - 1;
    struct rng r;

    make_dir();
    write_file("raids.xml", fuzz_raids_xml);
    sk_verr_list_init(&notes);
    CU_ASSERT_EQUAL_FATAL(battle_missions_load(tmpdir, &d, &h, &notes, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL_FATAL(d.n_raids, 1);
    {
        const struct battle_enemy *e = &d.items[0];
        CU_ASSERT_EQUAL(e->n_pools, 2);
        CU_ASSERT_EQUAL(e->n_fort_pools, 1);
        CU_ASSERT_EQUAL(e->n_card_pools, 1);
        CU_ASSERT_EQUAL(e->pools[0].fort, 1);
        CU_ASSERT_EQUAL(e->pools[0].n, 3);
        CU_ASSERT_EQUAL(e->pools[0].cards[2], 2701);
        CU_ASSERT_EQUAL(e->pools[1].amount, 2);
        CU_ASSERT_EQUAL(e->pools[1].replicates, 3);
        CU_ASSERT_EQUAL(e->pools[1].n, 4);
        CU_ASSERT_EQUAL(e->pools[1].cards[3], 3);
        CU_ASSERT_EQUAL(e->n_cards, 1);
        CU_ASSERT_EQUAL(e->n_effects, 2);
        CU_ASSERT_STRING_EQUAL(e->effects[0].skill, "strike");
        CU_ASSERT_DOUBLE_EQUAL(e->effects[0].x, 0.6, 1e-12);
        CU_ASSERT_EQUAL(e->effects[0].all, 1);
        CU_ASSERT_EQUAL(e->effects[0].y, 2);
        CU_ASSERT_EQUAL(e->effects[0].n, 3);
        CU_ASSERT_STRING_EQUAL(e->effects[1].s, "armored");
        CU_ASSERT_STRING_EQUAL(e->effects[1].s2, "counter");
    }
    battle_missions_release(&d);
    sk_verr_list_release(&notes);

    rng_init(&r, 20261127, 0);
    for (int round = 0; round < 2000; round++) {
        char buf[sizeof(fuzz_raids_xml) * 2];
        size_t n = len;
        enum sk_err rc;
        memcpy(buf, fuzz_raids_xml, len);
        for (int k = 0, edits = 1 + (int)rng_below(&r, 4); k < edits && n > 1; k++) {
            size_t at = rng_below(&r, (clc_u32)n);
            switch (rng_below(&r, 4)) {
            case 0: /* a byte changed, often to one the parser cares about */
                buf[at] = "<>\"=/0123456789-.x \n"[rng_below(&r, 21)];
                break;
            case 1: /* a byte removed */
                memmove(buf + at, buf + at + 1, n - at - 1);
                n--;
                break;
            case 2: /* a byte copied next to itself */
                if (n + 1 < sizeof(buf)) {
                    memmove(buf + at + 1, buf + at, n - at);
                    n++;
                }
                break;
            default: /* cut short */
                n = at + 1;
                break;
            }
        }
        buf[n] = '\0';
        write_file("raids.xml", buf);
        sk_verr_list_init(&notes);
        h = BATTLE_TU_FNV_SEED;
        rc = battle_missions_load(tmpdir, &d, &h, &notes, err, sizeof(err));
        CU_ASSERT_TRUE(rc == SK_OK || rc == SK_EINVAL);
        if (rc == SK_OK) {
            for (size_t i = 0; i < d.n; i++) {
                const struct battle_enemy *e = &d.items[i];
                CU_ASSERT_TRUE(e->n_cards <= BATTLE_ENEMY_CARDS_MAX &&
                               e->n_cards <= e->cards_total &&
                               e->n_effects <= BATTLE_ENEMY_EFFECTS_MAX &&
                               e->n_pools == e->n_card_pools + e->n_fort_pools);
                for (int k = 0; k < e->n_pools && k < BATTLE_ENEMY_POOLS_MAX; k++)
                    CU_ASSERT_TRUE(e->pools[k].amount >= 1 &&
                                   e->pools[k].amount <= e->pools[k].total &&
                                   e->pools[k].n <= BATTLE_ENEMY_POOL_CARDS_MAX);
                for (int k = 0; k < e->n_effects; k++)
                    CU_ASSERT_TRUE(e->effects[k].skill[0] && e->effects[k].x >= 0 &&
                                   e->effects[k].x <= BATTLE_SKILL_X_MAX);
            }
            battle_missions_release(&d);
        }
        sk_verr_list_release(&notes);
    }
    remove_dir();
}

static CU_TestInfo real_tests[] = {
    {"counts and notes", test_real_counts_and_notes},
    {"records exact", test_real_records},
    {"lookups by name, id and Name-N", test_real_lookups},
    {"jobs naming missions and raids", test_real_jobs},
    {"a state's dominion first, then its fortresses", test_state_dominion_first},
    {"a mission's state holding its deck's commander card", test_state_commander_card},
    {"a raid's default scoring", test_raid_scoring},
    {"effects named as in bges.txt", test_named_effects},
    {"the README's example", test_readme_example},
    {"parsed on first use, once, as the eager load", test_real_parsed_on_first_use},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo file_tests[] = {
    {"built-in catalog has none", test_builtin_has_none},
    {"small folder: levels, notes, refusals", test_small_folder},
    {"missing and unreadable files", test_missing_and_unreadable},
    {"a missions.xml that does not parse, found on first use", test_unparsable_missions},
    {"pools and effects read exactly, and fuzzed", test_pools_effects_fuzz},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_missions_suites[] = {
    {"battle_missions_real", setup, teardown, NULL, NULL, real_tests},
    {"battle_missions_files", NULL, NULL, NULL, NULL, file_tests},
    CU_SUITE_INFO_NULL,
};
