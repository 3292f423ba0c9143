/* SPDX-License-Identifier: MIT */
/* Named battleground effects (battle_bge): the expansion of effect texts as the peer reads
 * them, a bges.txt written here (comments, bad lines, names compared loosely), and the
 * game's own bges.txt of ../shared/data/tu. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "battle_bge.h"
#include "battle_tu.h"
#include "sk_mem.h"

#include "sk_banned.h"

const char *tu_test_dir(void); /* test_battle_tu.c */

static struct battle_bge items[] = {
    {"Inspired", "Rally all 25"},
    {"Divine Blessing", "Heal all 15; Rally all 15; Strike all 15"},
    {"Phobos Station", "Orbital Bombardment"},
    {"Orbital Bombardment", "Strike all 3| Siege all 5"},
    {"Loop A", "Loop B"},
    {"Loop B", "Loop A"},
};
static const struct battle_bges bges = {items, sizeof(items) / sizeof(items[0])};

/* The passive effects of the last expand(). */
static int passive[BATTLE_PASSIVE__COUNT];

/* Expands `text`; returns the count of skills (or -1 when refused, `why` then holding the
 * reason); its passive effects are in passive[]. */
static int expand(const char *text, struct battle_skill_spec *out, char *why, size_t len)
{
    int n = 0;
    why[0] = '\0';
    memset(passive, 0, sizeof(passive));
    return battle_bge_expand(&bges, text, out, 8, &n, passive, why, len) ? n : -1;
}

static void test_expand(void)
{
    struct battle_skill_spec s[8];
    char why[300];

    CU_ASSERT_EQUAL_FATAL(expand("Heal all Imperial 10", s, why, sizeof(why)), 1);
    CU_ASSERT_EQUAL(s[0].id, BATTLE_SKILL_HEAL);
    CU_ASSERT_EQUAL(s[0].all, 1);
    CU_ASSERT_EQUAL(s[0].y, 1); /* imperial */
    CU_ASSERT_EQUAL(s[0].x, 10);
    CU_ASSERT_EQUAL_FATAL(expand("Strike 2 5", s, why, sizeof(why)), 1);
    CU_ASSERT_EQUAL(s[0].n, 2);
    CU_ASSERT_EQUAL(s[0].x, 5);
    CU_ASSERT_EQUAL(s[0].all, 0);
    CU_ASSERT_EQUAL_FATAL(expand("Mortar 20", s, why, sizeof(why)), 1);
    CU_ASSERT_EQUAL(s[0].id, BATTLE_SKILL_MORTAR);
    CU_ASSERT_EQUAL(s[0].x, 20);
    CU_ASSERT_EQUAL(s[0].n, 0);
    /* Jam takes no value: its number is the count of targets */
    CU_ASSERT_EQUAL_FATAL(expand("Jam 2", s, why, sizeof(why)), 1);
    CU_ASSERT_EQUAL(s[0].id, BATTLE_SKILL_JAM);
    CU_ASSERT_EQUAL(s[0].n, 2);
    CU_ASSERT_EQUAL(s[0].x, 0);
    /* skill arguments: Enhance's skill, Evolve's two (with "to" or "into" between) */
    CU_ASSERT_EQUAL_FATAL(expand("Enhance all Rally 2", s, why, sizeof(why)), 1);
    CU_ASSERT_EQUAL(s[0].id, BATTLE_SKILL_ENHANCE);
    CU_ASSERT_EQUAL(s[0].all, 1);
    CU_ASSERT_EQUAL(s[0].s, 1 + battle_tu_skill_of_engine(BATTLE_SKILL_RALLY));
    CU_ASSERT_EQUAL(s[0].s2, 0);
    CU_ASSERT_EQUAL(s[0].x, 2);
    CU_ASSERT_EQUAL_FATAL(expand("Evolve 2 Pierce into Rupture", s, why, sizeof(why)), 1);
    CU_ASSERT_EQUAL(s[0].id, BATTLE_SKILL_EVOLVE);
    CU_ASSERT_EQUAL(s[0].n, 2);
    CU_ASSERT_EQUAL(s[0].s, 1 + battle_tu_skill_of_engine(BATTLE_SKILL_PIERCE));
    CU_ASSERT_EQUAL(s[0].s2, 1 + battle_tu_skill_of_engine(BATTLE_SKILL_RUPTURE));
    /* two skills joined by '+', one named effect inside another, ';' and '|' */
    CU_ASSERT_EQUAL_FATAL(expand("Heal+Protect all 2", s, why, sizeof(why)), 2);
    CU_ASSERT_EQUAL(s[1].id, BATTLE_SKILL_PROTECT);
    CU_ASSERT_EQUAL(s[1].x, 2);
    CU_ASSERT_EQUAL(s[1].all, 1);
    CU_ASSERT_EQUAL_FATAL(expand("Phobos Station; Inspired", s, why, sizeof(why)), 3);
    CU_ASSERT_EQUAL(s[0].id, BATTLE_SKILL_STRIKE);
    CU_ASSERT_EQUAL(s[1].id, BATTLE_SKILL_SIEGE);
    CU_ASSERT_EQUAL(s[1].x, 5);
    CU_ASSERT_EQUAL(s[2].id, BATTLE_SKILL_RALLY);
    CU_ASSERT_EQUAL(s[2].x, 25);
    CU_ASSERT_EQUAL(expand("", s, why, sizeof(why)), 0);
    /* passive effects: a value (1 when none), with skills, hyphens and case ignored, the
     * later of two values */
    CU_ASSERT_EQUAL_FATAL(expand("Bloodlust 2", s, why, sizeof(why)), 0);
    CU_ASSERT_EQUAL(passive[BATTLE_PASSIVE_BLOODLUST], 2);
    CU_ASSERT_EQUAL_FATAL(
        expand("Inspired; iron-will; Fortification 2; Fortification 3", s, why, sizeof(why)), 1);
    CU_ASSERT_EQUAL(s[0].id, BATTLE_SKILL_RALLY);
    CU_ASSERT_EQUAL(passive[BATTLE_PASSIVE_IRONWILL], 1);
    CU_ASSERT_EQUAL(passive[BATTLE_PASSIVE_FORTIFICATION], 3);
    CU_ASSERT_EQUAL(passive[BATTLE_PASSIVE_BLOODLUST], 0);
    CU_ASSERT_EQUAL(battle_bge_passive_parse("Zealot's Preservation"),
                    BATTLE_PASSIVE_ZEALOTSPRESERVATION);
    CU_ASSERT_EQUAL(battle_bge_passive_parse("Oath-of-Loyalty"), BATTLE_PASSIVE_OATHOFLOYALTY);
    CU_ASSERT_EQUAL(battle_bge_passive_parse("Rally"), -1);
    CU_ASSERT_EQUAL(expand("TemporalBacklash", s, why, sizeof(why)), 0);
    CU_ASSERT_EQUAL(passive[BATTLE_PASSIVE_TEMPORALBACKLASH], 1);
    /* refused, each with its reason */
    CU_ASSERT_EQUAL(expand("Bloodlust 1000", s, why, sizeof(why)), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "1 .. 999"));
    CU_ASSERT_EQUAL(expand("Evolve Rally", s, why, sizeof(why)), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "'Evolve' needs the skill 's' becomes, 's2'"));
    CU_ASSERT_EQUAL(expand("Enhance all 2", s, why, sizeof(why)), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "'Enhance' needs the skill it changes, 's'"));
    CU_ASSERT_EQUAL(expand("Heal all Rally 2", s, why, sizeof(why)), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "'Heal' takes no skill arguments"));
    CU_ASSERT_EQUAL(expand("Armor 2", s, why, sizeof(why)), -1);
    CU_ASSERT_EQUAL(expand("Strike all 256", s, why, sizeof(why)), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "1 .. 255"));
    CU_ASSERT_EQUAL(expand("Strike all", s, why, sizeof(why)), -1);
    CU_ASSERT_EQUAL(expand("Strike all 3 extra", s, why, sizeof(why)), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "'extra'"));
    CU_ASSERT_EQUAL(expand("Loop A", s, why, sizeof(why)), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "8 deep"));
    CU_ASSERT_EQUAL(
        expand("Divine Blessing; Divine Blessing; Divine Blessing", s, why, sizeof(why)),
        -1); /* 9 skills, 8 fit */
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "more than 8"));
}

static void test_small_file(void)
{
    char dir[] = "/tmp/sk-bge.XXXXXX";
    char path[256];
    struct battle_bges got;
    struct sk_verr_list notes;
    uint64_t h1 = BATTLE_TU_FNV_SEED, h2 = BATTLE_TU_FNV_SEED;
    char err[256] = "";
    FILE *f;

    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/%s", dir, BATTLE_BGE_FILE);
    sk_verr_list_init(&notes);
    /* no file: no effects, and no error */
    CU_ASSERT_EQUAL(battle_bge_load(dir, &got, &h1, &notes, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(got.n, 0);
    battle_bge_release(&got);
    f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("// a comment\n\nInspired: Rally all 25\n  Noise without a colon\n"
          "Orbital  Bombardment :Strike all 3; Siege all 5\nAsphodel Nexus:\n",
          f);
    fclose(f);
    CU_ASSERT_EQUAL(battle_bge_load(dir, &got, &h2, &notes, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL_FATAL(got.n, 3);
    CU_ASSERT_STRING_EQUAL(got.items[1].name, "Orbital  Bombardment");
    CU_ASSERT_STRING_EQUAL(got.items[1].text, "Strike all 3; Siege all 5");
    CU_ASSERT_STRING_EQUAL(got.items[2].text, "");
    CU_ASSERT_EQUAL(notes.n, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(notes.items[0].message, "line 4"));
    CU_ASSERT(h1 != h2);
    /* names compare without case, spaces or punctuation */
    CU_ASSERT_PTR_EQUAL(battle_bge_find(&got, "orbital bombardment"), &got.items[1]);
    CU_ASSERT_PTR_EQUAL(battle_bge_find(&got, "INSPIRED!"), &got.items[0]);
    CU_ASSERT_PTR_NULL(battle_bge_find(&got, "Inspire"));
    CU_ASSERT_PTR_NULL(battle_bge_find(&got, ""));
    battle_bge_release(&got);
    sk_verr_list_release(&notes);
    unlink(path);
    rmdir(dir);
}

/* The game's bges.txt: its named effects read, some the engine plays, others refused
 * with their reason. */
static void test_real_file(void)
{
    struct battle_bges got;
    struct sk_verr_list notes;
    uint64_t h = BATTLE_TU_FNV_SEED;
    char err[256] = "", why[300];
    struct battle_skill_spec s[8];
    const struct battle_bge *b;
    int n = 0, playable = 0, pv[BATTLE_PASSIVE__COUNT] = {0};

    sk_verr_list_init(&notes);
    CU_ASSERT_EQUAL_FATAL(battle_bge_load(tu_test_dir(), &got, &h, &notes, err, sizeof(err)),
                          SK_OK);
    CU_ASSERT(got.n >= 60);
    b = battle_bge_find(&got, "Inspired");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL_FATAL(battle_bge_expand(&got, b->text, s, 8, &n, pv, why, sizeof(why)), 1);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_EQUAL(s[0].id, BATTLE_SKILL_RALLY);
    CU_ASSERT_EQUAL(s[0].x, 25);
    for (size_t i = 0; i < got.n; i++) {
        n = 0;
        playable += battle_bge_expand(&got, got.items[i].text, s, 8, &n, pv, why, sizeof(why)) && n;
    }
    CU_ASSERT(playable >= 15);
    /* "Bathe in Blood: Bloodlust 2" */
    b = battle_bge_find(&got, "Bathe in Blood");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    memset(pv, 0, sizeof(pv));
    n = 0;
    CU_ASSERT_EQUAL(battle_bge_expand(&got, b->text, s, 8, &n, pv, why, sizeof(why)), 1);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_EQUAL(pv[BATTLE_PASSIVE_BLOODLUST], 2);
    CU_ASSERT(playable < (int)got.n);
    battle_bge_release(&got);
    sk_verr_list_release(&notes);
}

static CU_TestInfo bge_tests[] = {
    {"effect texts expanded as the peer reads them", test_expand},
    {"a bges.txt written here", test_small_file},
    {"the game's bges.txt", test_real_file},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_bge_suites[] = {
    {"battle_bge", NULL, NULL, NULL, NULL, bge_tests},
    CU_SUITE_INFO_NULL,
};
