/* SPDX-License-Identifier: MIT */
/* Decks as players write them, against the game's real cards (../shared/data/tu, see
 * test_battle_tu.c): deck string syntax, deck hashes both ways, names as players write
 * them (levels, case, duplicates, ids), jobs whose sides are deck strings or hashes, the
 * 422s (unknown card with "did you mean", a level that does not exist, 31 cards, a second
 * commander, a commander in a deck list, a malformed hash, a skill not simulated yet), and
 * the same job and seed giving the same games. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battle_catalog.h"
#include "battle_codec.h"
#include "battle_cpu.h"
#include "battle_deck.h"
#include "battle_plan.h"
#include "battle_tu.h"
#include "sk_mem.h"

#include "sk_banned.h"

const char *tu_test_dir(void); /* test_battle_tu.c */
enum sk_err tu_test_catalog(struct battle_catalog **out);

static struct battle_catalog *cat;

/* The game's folder as jobs read it: cards, missions and raids (the differential set names
 * some), battleground effects. The variable is set for this load only: other suites use
 * the built-in catalog. */
static int setup(void)
{
    return tu_test_catalog(&cat) != SK_OK;
}

static int teardown(void)
{
    battle_catalog_free(cat);
    cat = NULL;
    return 0;
}

/* ===== Text only ===== */

static void test_split(void)
{
    struct battle_deck_entry e[BATTLE_DECK_ENTRIES_MAX];
    char why[200] = "";
    int n = 0;

    CU_ASSERT_TRUE(battle_deck_split(" Octane-1, Grunt#2 ,!Bazooka Marine(3): [351] ", e, &n, why,
                                     sizeof(why)));
    CU_ASSERT_EQUAL_FATAL(n, 4);
    CU_ASSERT_STRING_EQUAL(e[0].name, "Octane-1");
    CU_ASSERT_EQUAL(e[0].count, 1);
    CU_ASSERT_STRING_EQUAL(e[1].name, "Grunt");
    CU_ASSERT_EQUAL(e[1].count, 2);
    CU_ASSERT_STRING_EQUAL(e[2].name, "Bazooka Marine");
    CU_ASSERT_EQUAL(e[2].count, 3);
    CU_ASSERT_STRING_EQUAL(e[3].name, "");
    CU_ASSERT_EQUAL(e[3].id, 351);

    CU_ASSERT_FALSE(battle_deck_split("Octane, , Grunt", e, &n, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(why, "entry 2 is empty");
    CU_ASSERT_FALSE(battle_deck_split("Octane, Grunt#x", e, &n, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(why, "entry 2: '#x' is not a count: write #N or (N), N from 1 to 50");
    CU_ASSERT_FALSE(battle_deck_split("Octane, Grunt#51", e, &n, why, sizeof(why)));
    CU_ASSERT_FALSE(battle_deck_split("Octane, [12x]", e, &n, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(why, "entry 2: '[12x]' is not a card id");
}

static void test_hash_both_ways(void)
{
    int ids[] = {1000, 1, 31, 32, 351, 55555, 1234567};
    int back[BATTLE_DECK_IDS_MAX];
    char text[128], why[200] = "";
    int n = 0;

    /* 1 is one digit (1 + 32 = 'h'); 1000 = 8 + 31 * 32: 'I' then 31 + 32 = '/' */
    CU_ASSERT_TRUE(battle_deck_hash_decode("I/h", back, BATTLE_DECK_IDS_MAX, &n, why, sizeof(why)));
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(back[0], 1000);
    CU_ASSERT_EQUAL(back[1], 1);
    CU_ASSERT_TRUE(battle_deck_hash_encode(ids, 7, text, sizeof(text)));
    CU_ASSERT_TRUE(battle_deck_is_hash(text));
    CU_ASSERT_TRUE(battle_deck_hash_decode(text, back, BATTLE_DECK_IDS_MAX, &n, why, sizeof(why)));
    CU_ASSERT_EQUAL_FATAL(n, 7);
    for (int i = 0; i < 7; i++)
        CU_ASSERT_EQUAL(back[i], ids[i]);
    CU_ASSERT_FALSE(battle_deck_hash_encode(ids, 7, text, 4));

    CU_ASSERT_FALSE(
        battle_deck_hash_decode("I/I", back, BATTLE_DECK_IDS_MAX, &n, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(why, "it ends in the middle of a card id");
    CU_ASSERT_FALSE(
        battle_deck_hash_decode("I/=", back, BATTLE_DECK_IDS_MAX, &n, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(why, "character 3 ('=') is not a deck hash character");
    CU_ASSERT_FALSE(
        battle_deck_hash_decode("AAAAAAAh", back, BATTLE_DECK_IDS_MAX, &n, why, sizeof(why)));
    CU_ASSERT_FALSE(battle_deck_is_hash("Octane, Grunt"));
    CU_ASSERT_FALSE(battle_deck_is_hash("Grunt-1"));
    CU_ASSERT_FALSE(battle_deck_is_hash(""));
}

/* ===== Names as players write them ===== */

static void test_names(void)
{
    const struct battle_card_spec *top = battle_catalog_find_loose(cat, "Bazooka Marine");
    char hint[BATTLE_NAME_MAX + 1];

    CU_ASSERT_PTR_NOT_NULL_FATAL(top);
    CU_ASSERT_EQUAL(top->id, 351);
    CU_ASSERT_PTR_EQUAL(battle_catalog_find_loose(cat, "bazooka marine"), top);
    CU_ASSERT_PTR_EQUAL(battle_catalog_find_loose(cat, "BazookaMarine"), top);
    CU_ASSERT_PTR_EQUAL(battle_catalog_find_loose(cat, "Bazooka Marine-3"), top); /* top level */
    CU_ASSERT_EQUAL(battle_catalog_find_loose(cat, "Bazooka Marine-2")->id, 350);
    CU_ASSERT_PTR_NULL(battle_catalog_find_loose(cat, "Bazooka Marine-4"));
    CU_ASSERT_PTR_EQUAL(battle_catalog_find_id(cat, 351), top);
    CU_ASSERT_PTR_EQUAL(battle_catalog_find_loose(cat, "[351]"), top); /* by id, anywhere */
    CU_ASSERT_PTR_NULL(battle_catalog_find_loose(cat, "[0]"));
    CU_ASSERT_PTR_NULL(battle_catalog_find_loose(cat, "[35x]"));
    CU_ASSERT_PTR_NULL(battle_catalog_find_loose(cat, "[99999999999]"));
    CU_ASSERT_PTR_NULL(battle_catalog_find_loose(cat, "[]"));
    CU_ASSERT_PTR_NULL(battle_catalog_find_id(cat, 0));
    battle_catalog_suggest(cat, "Bazoka Marine", hint, sizeof(hint));
    CU_ASSERT_STRING_EQUAL(hint, "Bazooka Marine");
    battle_catalog_suggest(cat, "Quite Unlike Any Card Name", hint, sizeof(hint));
    CU_ASSERT_STRING_EQUAL(hint, "");
    /* Levels the files name otherwise: Shard Controller's level 8 on are "Gilian
     * Shardkeeper" (its top level shares that name with another card, hence the id). */
    CU_ASSERT_PTR_NULL(battle_catalog_find_loose(cat, "Shard Controller-8"));
    battle_catalog_suggest(cat, "Shard Controller-8", hint, sizeof(hint));
    CU_ASSERT_STRING_EQUAL(hint, "Gilian Shardkeeper-8");
    battle_catalog_suggest(cat, "shard controller", hint, sizeof(hint));
    CU_ASSERT_STRING_EQUAL(hint, "Gilian Shardkeeper [26623]");
    CU_ASSERT_EQUAL(battle_catalog_find_loose(cat, hint)->id, 26623);
    battle_catalog_suggest(cat, "Shard Controller-11", hint, sizeof(hint)); /* no such level */
    CU_ASSERT_STRING_EQUAL(hint, "Shard Controller-1");
    CU_ASSERT_STRING_EQUAL(battle_catalog_source(cat), tu_test_dir());
    CU_ASSERT_EQUAL(strncmp(battle_catalog_hash(cat), "fnv1a64:", 8), 0);
}

/* The listing has each card's unit levels and fusion recipe. */
static void test_listing(void)
{
    json_t *all = battle_catalog_to_json(cat);
    size_t i;
    json_t *e;
    int seen = 0, fused = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(all);
    CU_ASSERT_EQUAL(json_array_size(all), battle_catalog_count(cat));
    json_array_foreach(all, i, e)
    {
        if (strcmp(json_string_value(json_object_get(e, "name")), "Bazooka Marine") == 0) {
            json_t *levels = json_object_get(e, "levels");
            seen = 1;
            CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "id")), 351);
            CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "level")), 3);
            CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "faction")), "imperial");
            CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "rarity")), "common");
            CU_ASSERT_EQUAL_FATAL(json_array_size(levels), 3);
            CU_ASSERT_STRING_EQUAL(
                json_string_value(json_object_get(json_array_get(levels, 0), "name")),
                "Bazooka Marine-1");
        }
        fused += json_object_get(e, "fusion") != NULL;
    }
    CU_ASSERT_TRUE(seen);
    CU_ASSERT(fused > 1000);
    json_decref(all);
}

/* ===== Jobs ===== */

static enum sk_err decode(const char *params, struct battle_spec *spec, struct sk_verr_list *errs)
{
    json_error_t jerr;
    json_t *doc = json_loads(params, 0, &jerr);
    struct sk_jptr ptr;
    enum sk_err err;

    if (!doc)
        fprintf(stderr, "bad test JSON: %s\n", jerr.text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    err = battle_codec_decode(doc, 7, cat, &ptr, errs, spec);
    json_decref(doc);
    return err;
}

#define REAL_ATT "Octane-1, Bazooka Marine#3, Rally Infantry#3, Barrage Tank#2, Grunt#2"
#define REAL_DEF "Malika-1, Dread Panzer#2, Trap Setter, Invasion Blockade, Combat Specialist#3"

/* Plays `params` and returns its counts. */
static struct battle_counts play(const char *params)
{
    struct battle_spec spec;
    struct sk_verr_list errs;
    struct battle_plan *plan = NULL;
    struct battle_counts c;
    char err[256] = "";

    memset(&c, 0, sizeof(c));
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(decode(params, &spec, &errs), SK_OK);
    CU_ASSERT_EQUAL_FATAL(battle_plan_new(&spec, &plan, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, spec.games, 1, &c), SK_OK);
    battle_plan_free(plan);
    battle_codec_spec_release(&spec);
    sk_verr_list_release(&errs);
    return c;
}

static void test_deck_string_job(void)
{
    struct battle_spec spec;
    struct sk_verr_list errs;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(decode("{\"games\": 2000, \"attacker\": \"" REAL_ATT "\","
                                 " \"defender\": {\"deck\": \"" REAL_DEF
                                 "\", \"play\": \"ordered\"}}",
                                 &spec, &errs),
                          SK_OK);
    CU_ASSERT_STRING_EQUAL(spec.cards[spec.sides[0].commander].name, "Octane-1");
    CU_ASSERT_EQUAL(spec.sides[0].n_deck, 10);
    CU_ASSERT_EQUAL(spec.sides[1].n_deck, 7); /* Invasion Blockade is a structure: in the deck */
    CU_ASSERT_EQUAL(spec.sides[1].play, BATTLE_PLAY_ORDERED);
    CU_ASSERT_EQUAL(spec.cards[spec.sides[0].deck[0]].id, 351);
    battle_codec_spec_release(&spec);
    sk_verr_list_release(&errs);
}

/* A hash made of the deck string's ids decodes to the same sides and the same games. */
static void test_hash_job_same_games(void)
{
    const char *names[] = {"Octane-1",       "Bazooka Marine", "Bazooka Marine",
                           "Bazooka Marine", "Rally Infantry", "Grunt"};
    int ids[6];
    char hash[64], doc[512];
    struct battle_counts a, b, c;

    for (int i = 0; i < 6; i++) {
        const struct battle_card_spec *card = battle_catalog_find_loose(cat, names[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(card);
        ids[i] = card->id;
    }
    CU_ASSERT_TRUE_FATAL(battle_deck_hash_encode(ids, 6, hash, sizeof(hash)));
    snprintf(doc, sizeof(doc), "{\"games\": 3000, \"attacker\": \"%s\", \"defender\": \"%s\"}",
             hash, REAL_DEF);
    a = play(doc);
    snprintf(doc, sizeof(doc),
             "{\"games\": 3000, \"attacker\": \"Octane-1, Bazooka Marine#3, Rally Infantry, "
             "Grunt\", \"defender\": \"%s\"}",
             REAL_DEF);
    b = play(doc);
    c = play(doc);
    CU_ASSERT_EQUAL(a.games, 3000);
    CU_ASSERT_EQUAL(a.wins, b.wins);
    CU_ASSERT_EQUAL(a.losses, b.losses);
    CU_ASSERT_EQUAL(b.wins, c.wins); /* same job, same seed: same games */
    CU_ASSERT_EQUAL(b.stalls, c.stalls);
    CU_ASSERT(a.wins + a.losses > 0);
    /* The object form names cards by id too ("[12345]", as deck strings do). */
    snprintf(doc, sizeof(doc),
             "{\"games\": 3000, \"attacker\": {\"commander\": \"[%d]\", \"deck\": "
             "[{\"card\": \"[%d]\", \"count\": 3}, {\"card\": \"Rally Infantry\"}, "
             "{\"card\": \"[%d]\"}]}, \"defender\": \"%s\"}",
             ids[0], ids[1], ids[5], REAL_DEF);
    c = play(doc);
    CU_ASSERT_EQUAL(c.wins, b.wins);
    CU_ASSERT_EQUAL(c.stalls, b.stalls);
}

/* The README's real-deck example (examples/tu/, kept out of examples/ whose documents run on
 * the built-in cards) decodes against the game's cards. */
static void test_readme_example(void)
{
    json_error_t jerr;
    json_t *doc = json_load_file(SK_SOURCE_DIR "/examples/tu/battle_real_decks.json", 0, &jerr);
    struct battle_spec spec;
    struct sk_verr_list errs;
    struct sk_jptr ptr;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    CU_ASSERT_EQUAL(
        battle_codec_decode(json_object_get(doc, "params"), 11, cat, &ptr, &errs, &spec), SK_OK);
    if (errs.n)
        fprintf(stderr, "%s: %s\n", errs.items[0].pointer, errs.items[0].message);
    else
        battle_codec_spec_release(&spec);
    sk_verr_list_release(&errs);
    json_decref(doc);
}

/* The real-card matchups of tests/data/peer/real_cards.json (names as the peer's users
 * write them): each decodes, and each decoded job has a plan. */
static void test_peer_matchups(void)
{
    json_error_t jerr;
    json_t *doc = json_load_file(SK_SOURCE_DIR "/tests/data/peer/real_cards.json", 0, &jerr);
    size_t i;
    json_t *m;
    int decoded = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    json_array_foreach(json_object_get(doc, "matchups"), i, m)
    {
        json_t *params =
            json_pack("{s:O, s:O, s:O}", "mode", json_object_get(m, "mode"), "attacker",
                      json_object_get(m, "attacker"), "defender", json_object_get(m, "defender"));
        struct battle_spec spec;
        struct sk_verr_list errs;
        struct sk_jptr ptr;
        struct battle_plan *plan = NULL;
        char err[256] = "";

        sk_verr_list_init(&errs);
        sk_jptr_init(&ptr);
        sk_jptr_push_key(&ptr, "params");
        if (battle_codec_decode(params, 1, cat, &ptr, &errs, &spec) == SK_OK) {
            decoded++;
            CU_ASSERT_EQUAL(battle_plan_new(&spec, &plan, err, sizeof(err)), SK_OK);
            if (err[0])
                fprintf(stderr, "%s: %s\n", json_string_value(json_object_get(m, "name")), err);
            battle_plan_free(plan);
            battle_codec_spec_release(&spec);
        } else {
            CU_FAIL("a matchup of real_cards.json does not decode");
            if (errs.n)
                fprintf(stderr, "%s: %s\n", json_string_value(json_object_get(m, "name")),
                        errs.items[0].message);
        }
        sk_verr_list_release(&errs);
        json_decref(params);
    }
    CU_ASSERT(decoded >= 40);
    json_decref(doc);
}

struct bad {
    const char *params;
    const char *pointer;
    const char *message;
};

static void test_bad_decks(void)
{
    static const struct bad cases[] = {
        {"{\"attacker\": \"Octane-1, Bazoka Marine#2\", \"defender\": \"" REAL_DEF "\"}",
         "/params/attacker",
         "entry 2: unknown card \"Bazoka Marine\" (did you mean \"Bazooka Marine\"?)"},
        {"{\"attacker\": \"Octane-1, Bazooka Marine-7\", \"defender\": \"" REAL_DEF "\"}",
         "/params/attacker", "entry 2: unknown card \"Bazooka Marine-7\" (did you mean "},
        {"{\"attacker\": \"Octane-1, Grunt#50, Bazooka Marine\", \"defender\": \"" REAL_DEF "\"}",
         "/params/attacker", "a deck holds at most 50 cards, not 51"},
        {"{\"attacker\": \"Octane-1, Grunt, Malika-1\", \"defender\": \"" REAL_DEF "\"}",
         "/params/attacker", "entry 3: \"Malika-1\" is a second commander: a deck has one"},
        {"{\"attacker\": \"Grunt#2\", \"defender\": \"" REAL_DEF "\"}", "/params/attacker",
         "the deck names no commander"},
        {"{\"attacker\": {\"deck\": \"I/I\"}, \"defender\": \"" REAL_DEF "\"}",
         "/params/attacker/deck", "malformed deck hash: it ends in the middle of a card id"},
        {"{\"attacker\": \"H/h\", \"defender\": \"" REAL_DEF "\"}", "/params/attacker",
         "deck hash card 1: no card has id 999"},
        {"{\"attacker\": {\"commander\": \"[999]\", \"deck\": [{\"card\": \"Grunt\"}]},"
         " \"defender\": \"" REAL_DEF "\"}",
         "/params/attacker/commander", "unknown card \"[999]\""},
        {"{\"attacker\": {\"commander\": \"Octane-1\", \"deck\": [{\"card\": \"Malika-1\"}]},"
         " \"defender\": \"" REAL_DEF "\"}",
         "/params/attacker/deck/0/card",
         "card \"Malika-1\" is a commander card, not an assault or structure"},
        {"{\"attacker\": \"Octane-1, Teiffa\", \"defender\": \"" REAL_DEF "\"}", "/params/attacker",
         "card \"Teiffa\": health 0, attack 0: the engine plays health 1 to 999 and attack 0 to "
         "999"},
        {"{\"attacker\": {\"deck\": \"Octane-1, Grunt\", \"commander\": \"Octane-1\"},"
         " \"defender\": \"" REAL_DEF "\"}",
         "/params/attacker/commander", "unknown field 'commander'"},
        /* one dominion a side, in the object form's fortresses too */
        {"{\"attacker\": {\"commander\": \"Octane-1\", \"fortresses\": [\"Alpha Artillery-1\","
         " \"Alpha Uniter-5\"], \"deck\": [{\"card\": \"Grunt\"}]}, \"defender\": \"" REAL_DEF
         "\"}",
         "/params/attacker/fortresses/1", "\"Alpha Uniter"},
    };

    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct battle_spec spec;
        struct sk_verr_list errs;
        int found = 0;

        sk_verr_list_init(&errs);
        CU_ASSERT_EQUAL(decode(cases[k].params, &spec, &errs), SK_EINVAL);
        for (size_t i = 0; i < errs.n; i++)
            found |=
                strcmp(errs.items[i].pointer, cases[k].pointer) == 0 &&
                strncmp(errs.items[i].message, cases[k].message, strlen(cases[k].message)) == 0;
        if (!found) {
            fprintf(stderr, "\ncase %zu: want %s: %s; got:\n", k + 1, cases[k].pointer,
                    cases[k].message);
            for (size_t i = 0; i < errs.n; i++)
                fprintf(stderr, "  %s: %s\n", errs.items[i].pointer, errs.items[i].message);
        }
        CU_ASSERT_TRUE(found);
        sk_verr_list_release(&errs);
    }
}

static CU_TestInfo text_tests[] = {
    {"deck string syntax", test_split},
    {"deck hashes both ways", test_hash_both_ways},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo real_tests[] = {
    {"names as players write them", test_names},
    {"listing with levels and fusion", test_listing},
    {"a job with deck strings", test_deck_string_job},
    {"a hash plays as its deck string; same seed, same games", test_hash_job_same_games},
    {"bad decks are 422s naming the field", test_bad_decks},
    {"the README's real-deck example decodes", test_readme_example},
    {"the peer's real-card matchups decode", test_peer_matchups},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_deck_suites[] = {
    {"battle_deck", NULL, NULL, NULL, NULL, text_tests},
    {"battle_deck_real", setup, teardown, NULL, NULL, real_tests},
    CU_SUITE_INFO_NULL,
};
