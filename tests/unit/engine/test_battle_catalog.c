/* SPDX-License-Identifier: MIT */
/* The battle card catalog: the built-in data/cards.json (size, skill coverage, the seed's
 * names, the reference cards of rules/battle.md exactly), lookup, the JSON listing, bad
 * catalogs, and the $SKIRMISH_CARDS_FILE override. */
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "battle_cards.h"
#include "battle_catalog.h"
#include "battle_codec.h"
#include "battle_rules.h"
#include "sk_mem.h"

#include "sk_banned.h"

static const struct battle_catalog *builtin(void)
{
    const struct battle_catalog *cat = NULL;
    char err[256] = "";
    enum sk_err rc = battle_catalog_current(&cat, err, sizeof(err));
    if (rc)
        fprintf(stderr, "catalog: %s\n", err);
    CU_ASSERT_FATAL(rc == SK_OK);
    return cat;
}

static void test_size_and_skill_coverage(void)
{
    const struct battle_catalog *cat = builtin();
    int plain[BATTLE_SKILL__COUNT] = {0}, all[BATTLE_SKILL__COUNT] = {0};
    const int takes_all[] = {BATTLE_SKILL_STRIKE, BATTLE_SKILL_SIEGE,  BATTLE_SKILL_ENFEEBLE,
                             BATTLE_SKILL_WEAKEN, BATTLE_SKILL_JAM,    BATTLE_SKILL_HEAL,
                             BATTLE_SKILL_RALLY,  BATTLE_SKILL_PROTECT};

    CU_ASSERT(battle_catalog_count(cat) >= 30);
    for (size_t i = 0; i < battle_catalog_count(cat); i++) {
        const struct battle_card_spec *c = battle_catalog_at(cat, i);
        for (int s = 0; s < c->n_skills; s++) {
            if (c->skills[s].all)
                all[c->skills[s].id]++;
            else
                plain[c->skills[s].id]++;
        }
        if (i > 0) /* name order, as documented */
            CU_ASSERT(strcmp(battle_catalog_at(cat, i - 1)->name, c->name) < 0);
    }
    for (int s = 0; s < BATTLE_SKILL__COUNT; s++) {
        /* Summon brings one of the game's cards (by its id): the built-in cards have none. */
        if (s == BATTLE_SKILL_SUMMON)
            continue;
        if (!plain[s])
            fprintf(stderr, "no card has skill '%s'\n", battle_rules_skill_name(s));
        CU_ASSERT(plain[s] > 0);
    }
    for (size_t k = 0; k < sizeof(takes_all) / sizeof(takes_all[0]); k++) {
        if (!all[takes_all[k]])
            fprintf(stderr, "no card has skill '%s' all\n", battle_rules_skill_name(takes_all[k]));
        CU_ASSERT(all[takes_all[k]] > 0);
    }
    CU_ASSERT_PTR_NULL(battle_catalog_at(cat, battle_catalog_count(cat)));
}

static void test_seed_names(void)
{
    const struct battle_catalog *cat = builtin();
    const struct {
        const char *name;
        enum battle_card_type type;
    } want[] = {
        {"Barracus", BATTLE_COMMANDER},       {"Lightning Cannon", BATTLE_FORTRESS},
        {"Corrosive Spore", BATTLE_FORTRESS}, {"Chainslicer", BATTLE_ASSAULT},
        {"Tempest Keep", BATTLE_STRUCTURE},   {"Anvil", BATTLE_ASSAULT},
        {"Cyberpod", BATTLE_ASSAULT},         {"Iron Maiden", BATTLE_ASSAULT},
        {"Lead Dozer", BATTLE_ASSAULT},       {"Missile Silo", BATTLE_STRUCTURE},
        {"Judgement Nova", BATTLE_ASSAULT},
    };

    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const struct battle_card_spec *c = battle_catalog_find(cat, want[i].name);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        CU_ASSERT_STRING_EQUAL(c->name, want[i].name);
        CU_ASSERT_EQUAL(c->type, want[i].type);
    }
    CU_ASSERT_PTR_NULL(battle_catalog_find(cat, "Chainslicr"));
    CU_ASSERT_PTR_NULL(battle_catalog_find(cat, "chainslicer")); /* names are exact */
    CU_ASSERT_PTR_NULL(battle_catalog_find(
        cat, "a name that is much longer than the sixty-four bytes any card name may have"));
}

/* Checks one card against rules/battle.md's reference list. */
static void check_card(const char *name, enum battle_card_type type, int attack, int health,
                       int delay, int skill, int x)
{
    const struct battle_card_spec *c = battle_catalog_find(builtin(), name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(c->type, type);
    CU_ASSERT_EQUAL(c->attack, attack);
    CU_ASSERT_EQUAL(c->health, health);
    CU_ASSERT_EQUAL(c->delay, delay);
    if (skill < 0) {
        CU_ASSERT_EQUAL(c->n_skills, 0);
    } else {
        CU_ASSERT_EQUAL_FATAL(c->n_skills, 1);
        CU_ASSERT_EQUAL(c->skills[0].id, skill);
        CU_ASSERT_EQUAL(c->skills[0].x, x);
        CU_ASSERT_EQUAL(c->skills[0].all, 0);
    }
}

static void test_reference_cards_exact(void)
{
    check_card("Test Commander", BATTLE_COMMANDER, 0, 40, 0, -1, 0);
    check_card("Grunt", BATTLE_ASSAULT, 2, 10, 1, -1, 0);
    check_card("Brute", BATTLE_ASSAULT, 3, 14, 2, -1, 0);
    check_card("Plated Grunt", BATTLE_ASSAULT, 2, 10, 1, BATTLE_SKILL_ARMOR, 2);
    check_card("Strike Grunt", BATTLE_ASSAULT, 2, 10, 1, BATTLE_SKILL_STRIKE, 2);
    check_card("Spiked Grunt", BATTLE_ASSAULT, 2, 10, 1, BATTLE_SKILL_COUNTER, 2);
    check_card("Barricade", BATTLE_STRUCTURE, 0, 12, 1, BATTLE_SKILL_WALL, 0);
    check_card("Strike Tower", BATTLE_STRUCTURE, 0, 15, 2, BATTLE_SKILL_STRIKE, 2);
}

/* The listing re-reads as the same catalog (what GET /v1/cards serves). */
static void test_json_listing_round_trip(void)
{
    const struct battle_catalog *cat = builtin();
    struct battle_catalog *back = NULL;
    struct sk_verr_list errs;
    json_t *arr = battle_catalog_to_json(cat);
    char *text = NULL;

    CU_ASSERT_PTR_NOT_NULL_FATAL(arr);
    CU_ASSERT_EQUAL(json_array_size(arr), battle_catalog_count(cat));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(arr, 0), "name")),
                           battle_catalog_at(cat, 0)->name);
    text = json_dumps(arr, JSON_COMPACT);
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(battle_catalog_new(text, strlen(text), &back, &errs), SK_OK);
    CU_ASSERT_EQUAL_FATAL(battle_catalog_count(back), battle_catalog_count(cat));
    for (size_t i = 0; i < battle_catalog_count(cat); i++)
        CU_ASSERT_EQUAL(memcmp(battle_catalog_at(back, i), battle_catalog_at(cat, i),
                               sizeof(struct battle_card_spec)),
                        0);
    battle_catalog_free(back);
    sk_free(text);
    json_decref(arr);
}

/* Decodes catalog `text` and expects exactly the errors `want` (NULL-terminated). */
static void expect_bad(const char *text, const char *const *want)
{
    struct battle_catalog *cat = NULL;
    struct sk_verr_list errs;
    size_t n = 0;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(battle_catalog_new(text, strlen(text), &cat, &errs), SK_EINVAL);
    CU_ASSERT_PTR_NULL(cat);
    while (want[n])
        n++;
    CU_ASSERT_EQUAL(errs.n, n);
    for (size_t i = 0; i < errs.n && i < n; i++) {
        char line[700];
        snprintf(line, sizeof(line), "%s: %s", errs.items[i].pointer, errs.items[i].message);
        if (strcmp(line, want[i]) != 0)
            fprintf(stderr, "\n  got  %s\n  want %s\n", line, want[i]);
        CU_ASSERT_STRING_EQUAL(line, want[i]);
    }
    sk_verr_list_release(&errs);
}

static void test_bad_catalogs(void)
{
    const char *const not_array[] = {": the catalog must be a JSON array of cards", NULL};
    const char *const syntax[] = {": invalid JSON at line 1 column 1: '[' or '{' expected near 'x'",
                                  NULL};
    const char *const dup[] = {"/1/name: card \"A\" is defined twice", NULL};
    const char *const card_errors[] = {
        "/0/health: 'health' must be between 1 and 999, not 1000",
        "/2/skills/0/name: skill 'wall' is only for structure and fortress cards", NULL};

    expect_bad("{\"cards\": []}", not_array);
    expect_bad("x", syntax);
    expect_bad("[{\"name\":\"A\",\"type\":\"commander\",\"health\":5},"
               "{\"name\":\"A\",\"type\":\"fortress\",\"health\":5}]",
               dup);
    expect_bad("[{\"name\":\"A\",\"type\":\"commander\",\"health\":1000},"
               "{\"name\":\"B\",\"type\":\"commander\",\"health\":5},"
               "{\"name\":\"C\",\"type\":\"commander\",\"health\":5,"
               "\"skills\":[{\"name\":\"wall\"}]}]",
               card_errors);
}

/* $SKIRMISH_CARDS_FILE replaces the built-in cards; a bad or missing file is an error. */
static void test_env_override(void)
{
    char path[] = "/tmp/skirmish-cards-XXXXXX";
    int fd = mkstemp(path);
    const char *good = "[{\"name\":\"Solo\",\"type\":\"commander\",\"health\":9}]";
    struct battle_catalog *cat = NULL;
    char err[512] = "";

    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, good, strlen(good)) == (ssize_t)strlen(good));
    close(fd);
    setenv(BATTLE_CATALOG_ENV, path, 1);
    CU_ASSERT_EQUAL_FATAL(battle_catalog_load(&cat, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(battle_catalog_count(cat), 1);
    CU_ASSERT_EQUAL(battle_catalog_find(cat, "Solo")->health, 9);
    CU_ASSERT_PTR_NULL(battle_catalog_find(cat, "Grunt"));
    battle_catalog_free(cat);
    cat = NULL;

    fd = open(path, O_WRONLY | O_TRUNC);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, "[{\"name\":\"Solo\"}]", 17) == 17);
    close(fd);
    CU_ASSERT_EQUAL(battle_catalog_load(&cat, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NULL(cat);
    {
        char want[600];
        snprintf(want, sizeof(want), "%s: 2 problem(s), first /0/type: 'type' is required", path);
        CU_ASSERT_STRING_EQUAL(err, want);
    }

    unlink(path);
    CU_ASSERT_EQUAL(battle_catalog_load(&cat, err, sizeof(err)), SK_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot open cards file"));

    unsetenv(BATTLE_CATALOG_ENV);
    CU_ASSERT_EQUAL_FATAL(battle_catalog_load(&cat, err, sizeof(err)), SK_OK);
    CU_ASSERT_PTR_NOT_NULL(battle_catalog_find(cat, "Grunt"));
    battle_catalog_free(cat);
}

/* The copy compiled into the binary is data/cards.json as it is in the source tree (the
 * build regenerates it when the file changes). */
static void test_builtin_matches_source_file(void)
{
    const struct battle_catalog *cat = builtin();
    struct battle_catalog *file = NULL;
    char err[512] = "";

    setenv(BATTLE_CATALOG_ENV, SK_SOURCE_DIR "/data/cards.json", 1);
    CU_ASSERT_EQUAL_FATAL(battle_catalog_load(&file, err, sizeof(err)), SK_OK);
    unsetenv(BATTLE_CATALOG_ENV);
    CU_ASSERT_EQUAL_FATAL(battle_catalog_count(file), battle_catalog_count(cat));
    for (size_t i = 0; i < battle_catalog_count(cat); i++)
        CU_ASSERT_EQUAL(memcmp(battle_catalog_at(file, i), battle_catalog_at(cat, i),
                               sizeof(struct battle_card_spec)),
                        0);
    battle_catalog_free(file);
}

static CU_TestInfo catalog_tests[] = {
    {"built-in copy matches data/cards.json", test_builtin_matches_source_file},
    {"at least 30 cards using every skill", test_size_and_skill_coverage},
    {"the seed example's cards exist", test_seed_names},
    {"reference cards exactly as in rules/battle.md", test_reference_cards_exact},
    {"JSON listing round trip", test_json_listing_round_trip},
    {"bad catalogs report every problem", test_bad_catalogs},
    {"SKIRMISH_CARDS_FILE override", test_env_override},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_catalog_suites[] = {
    {"battle_catalog", NULL, NULL, NULL, NULL, catalog_tests},
    CU_SUITE_INFO_NULL,
};
