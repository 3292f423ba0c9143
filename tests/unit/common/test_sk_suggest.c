/* SPDX-License-Identifier: MIT */
/* Tests of sk_suggest: typos, case, transpositions, and words too far to suggest. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "sk_suggest.h"

#include "sk_banned.h"

static const char *best_of(const char *word, const char *const *names)
{
    struct sk_suggest s;
    sk_suggest_init(&s, word);
    for (; *names; names++)
        sk_suggest_add(&s, *names);
    return sk_suggest_best(&s);
}

static void test_suggest(void)
{
    const char *const cards[] = {"Chainslicer",  "Iron Maiden",    "Anvil",
                                 "Missile Silo", "Test Commander", NULL};
    const char *const spells[] = {"Ogre's Armour", "Fireball", "Flying Leap", NULL};

    CU_ASSERT_STRING_EQUAL(best_of("Chainslicr", cards), "Chainslicer");
    CU_ASSERT_STRING_EQUAL(best_of("iron maiden", cards), "Iron Maiden");
    CU_ASSERT_STRING_EQUAL(best_of("Anivl", cards), "Anvil");
    CU_ASSERT_STRING_EQUAL(best_of("Test Comander", cards), "Test Commander");
    CU_ASSERT_STRING_EQUAL(best_of("Ogi's Armour", spells), "Ogre's Armour");
    CU_ASSERT_STRING_EQUAL(best_of("Fireblast", spells), "Fireball");
    CU_ASSERT_PTR_NULL(best_of("Nobody", cards));
    CU_ASSERT_PTR_NULL(best_of("Axe", cards));
    CU_ASSERT_PTR_NULL(best_of("", cards));
    CU_ASSERT_PTR_NULL(best_of("x", (const char *const[]){NULL}));
}

static void test_suggest_long(void)
{
    char word[SK_SUGGEST_MAX + 2];
    memset(word, 'a', sizeof(word) - 1);
    word[sizeof(word) - 1] = '\0';
    CU_ASSERT_PTR_NULL(best_of(word, (const char *const[]){word, NULL}));
}

static CU_TestInfo suggest_tests[] = {
    {"did you mean", test_suggest},
    {"words over the length limit", test_suggest_long},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sk_suggest_suites[] = {
    {"sk_suggest", NULL, NULL, NULL, NULL, suggest_tests},
    CU_SUITE_INFO_NULL,
};
