/* SPDX-License-Identifier: MIT */
/* Spells as data: the catalog holds every spell the seeds name, it round-trips through
 * its own schema, SKIRMISH_SPELLS_FILE overrides it, and a job's inline definitions built
 * from the same primitives take part in the rules like catalog spells. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "board_spells.h"
#include "board_test_util.h"
#include "sk_mem.h"

#include "sk_banned.h"

static void test_catalog_names_every_seed_spell(void)
{
    static const char *const need[] = {"Ogi's Armor",    "Treacherous Armor",
                                       "Deflection",     "Unholy Aura",
                                       "Despond",        "Spirit Sword",
                                       "Touch of Death", "Terrain-Bind",
                                       "Ostracize",      "Forest",
                                       "Binding Cube",   "Complacency",
                                       "Fear",           "Lienna's Steed",
                                       "Possession",     "Sandstorm",
                                       "Sentinel",       "Amok",
                                       "Disorient",      "Fingle",
                                       "Zurzavar",       "Mirage",
                                       "Siren Song",     "Diomesia's Calm"};
    struct board_spell_def *defs = sk_calloc(BOARD_MAX_DEFS, sizeof(*defs));
    char err[256] = "";
    int n = 0;

    CU_ASSERT_EQUAL_FATAL(board_spells_catalog(defs, BOARD_MAX_DEFS, &n, err, sizeof(err)), SK_OK);
    for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
        int k = board_spells_find(defs, n, need[i]);
        CU_ASSERT_TRUE(k >= 0);
        if (k >= 0)
            CU_ASSERT_TRUE(defs[k].text[0] != '\0');
    }
    /* movement-order spells answer where seed 000 says */
    CU_ASSERT_EQUAL(defs[board_spells_find(defs, n, "Fear")].effects[0].action,
                    BOARD_A_CANCEL_ORDER);
    CU_ASSERT_EQUAL(defs[board_spells_find(defs, n, "Amok")].effects[0].point, BOARD_P_CAST);
    CU_ASSERT_EQUAL(defs[board_spells_find(defs, n, "Fingle")].effects[0].point,
                    BOARD_P_BEFORE_MOVEMENT);
    CU_ASSERT_EQUAL(defs[board_spells_find(defs, n, "Siren Song")].effects[0].action,
                    BOARD_A_ATTRACT);
    sk_free(defs);
}

static void test_catalog_json_round_trips(void)
{
    json_t *arr = NULL;
    char err[256] = "";
    size_t i;
    json_t *e;

    CU_ASSERT_EQUAL_FATAL(board_spells_catalog_json(&arr, err, sizeof(err)), SK_OK);
    CU_ASSERT_TRUE(json_array_size(arr) >= 24);
    json_array_foreach(arr, i, e)
    {
        struct board_spell_def d;
        struct sk_verr_list errs;
        struct sk_jptr ptr;
        json_t *again;
        sk_verr_list_init(&errs);
        sk_jptr_init(&ptr);
        CU_ASSERT_EQUAL(board_spells_decode(e, &ptr, &errs, &d), SK_OK);
        again = board_spells_encode(&d);
        CU_ASSERT_TRUE(json_equal(again, e));
        json_decref(again);
        sk_verr_list_release(&errs);
    }
    json_decref(arr);
}

static void test_env_override(void)
{
    char path[] = "/tmp/sk_spells_XXXXXX";
    int fd = mkstemp(path);
    FILE *f;
    struct board_spell_def defs[4];
    char err[256] = "";
    int n = 0;

    CU_ASSERT_TRUE_FATAL(fd >= 0);
    f = fdopen(fd, "w");
    fputs("[{\"name\": \"Only\", \"text\": \"t\", \"target\": \"group\", \"duration\": "
          "\"instant\", \"effects\": [{\"event\": \"cast\", \"action\": \"cancel_order\"}]}]",
          f);
    fclose(f);
    setenv("SKIRMISH_SPELLS_FILE", path, 1);
    CU_ASSERT_EQUAL(board_spells_catalog(defs, 4, &n, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_STRING_EQUAL(defs[0].name, "Only");
    f = fopen(path, "w");
    fputs("[{\"name\": \"Bad\"}]", f);
    fclose(f);
    CU_ASSERT_EQUAL(board_spells_catalog(defs, 4, &n, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/0/text"));
    unlink(path);
    CU_ASSERT_EQUAL(board_spells_catalog(defs, 4, &n, err, sizeof(err)), SK_EIO);
    unsetenv("SKIRMISH_SPELLS_FILE");
}

/* An inline square spell (on-enter damage 2, only against non-Shadow... any attacker) and
 * an inline temporary group spell: both act, the temporary one expires after 1 turn. */
static void test_inline_spells_act(void)
{
    const char *text =
        "{\"spells\": [{\"name\": \"Brambles\", \"text\": \"Each minion entering the square "
        "takes 2 magical damage.\", \"target\": \"square\", \"duration\": \"persistent\", "
        "\"effects\": [{\"event\": \"on_enter\", \"action\": \"damage\", \"amount\": 2}]}, "
        "{\"name\": \"Stone Skin\", \"text\": \"+2 maximum armor this turn.\", \"target\": "
        "\"group\", \"duration\": \"temporary\", \"turns\": 1, \"effects\": [{\"event\": "
        "\"stats\", \"action\": \"add_max_armor\", \"amount\": 2}]}], "
        "\"state\": {\"board\": {}, \"groups\": [{\"id\": \"A\", \"owner\": \"red\", \"at\": "
        "[5, 5], \"minions\": [{\"id\": \"a1\", \"class\": \"swordsman\"}]}]}, "
        "\"orders\": [{\"group\": \"A\", \"move\": \"right\"}], \"casts\": [{\"player\": "
        "\"blue\", \"spell\": \"Brambles\", \"target\": {\"square\": [5, 6]}}, {\"player\": "
        "\"red\", \"spell\": \"Stone Skin\", \"target\": {\"group\": \"A\"}}]}";
    json_t *params = json_loads(text, 0, NULL);
    json_t *res = bt_run_json(params, 3);
    json_t *a, *m;

    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    a = bt_group(res, "A");
    m = json_array_get(json_object_get(a, "minions"), 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(m, "health")), 5);
    CU_ASSERT_EQUAL(bt_count(res, "{\"type\": \"effect\", \"spell\": \"Brambles\", \"at\": "
                                  "\"a1\", \"caster\": \"blue\"}"),
                    1);
    CU_ASSERT_EQUAL(bt_count(res, "{\"type\": \"expire\", \"spell\": \"Stone Skin\"}"), 1);
    /* the inline definitions come back with the result, so the state can be fed back */
    CU_ASSERT_EQUAL(json_array_size(json_object_get(res, "spells")), 2);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(json_object_get(res, "state"), "spells")), 1);
    json_decref(res);
    json_decref(params);
}

/* Ostracize forbids joining; the group that cannot join bounces back. */
static void test_ostracize_blocks_join(void)
{
    const char *text =
        "{\"state\": {\"board\": {}, \"groups\": [{\"id\": \"A\", \"owner\": \"red\", \"at\": "
        "[5, 5], \"minions\": [{\"id\": \"a1\", \"class\": \"swordsman\"}]}, {\"id\": \"B\", "
        "\"owner\": \"red\", \"at\": [5, 6], \"minions\": [{\"id\": \"b1\", \"class\": "
        "\"swordsman\"}]}]}, \"orders\": [{\"group\": \"B\", \"move\": \"left\"}], \"casts\": "
        "[{\"player\": \"blue\", \"spell\": \"Ostracize\", \"target\": {\"group\": \"A\"}}]}";
    json_t *params = json_loads(text, 0, NULL);
    json_t *res = bt_run_json(params, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    CU_ASSERT_EQUAL(bt_count(res, "{\"type\": \"bounce\", \"group\": \"B\", \"reason\": "
                                  "\"cannot_join\", \"to\": [5, 6]}"),
                    1);
    CU_ASSERT_PTR_NOT_NULL(bt_group(res, "B"));
    json_decref(res);
    json_decref(params);
}

/* A minion leaving its group names its new group after itself, "~2" when that group name
 * is taken. */
static void test_leave_names_new_group(void)
{
    const char *text =
        "{\"state\": {\"board\": {}, \"groups\": [{\"id\": \"R\", \"owner\": \"red\", \"at\": "
        "[5, 5], \"minions\": [{\"id\": \"x\", \"class\": \"swordsman\"}, {\"id\": \"y\", "
        "\"class\": \"archer\"}]}, {\"id\": \"x\", \"owner\": \"blue\", \"at\": [9, 5], "
        "\"minions\": [{\"id\": \"z\", \"class\": \"bard\"}]}]}, \"casts\": [{\"player\": "
        "\"blue\", \"spell\": \"Exile\", \"target\": {\"minion\": \"x\"}}]}";
    json_t *params = json_loads(text, 0, NULL);
    json_t *res = bt_run_json(params, 3);
    json_t *g;
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    g = bt_group(res, "x~2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(json_array_get(json_object_get(g, "minions"), 0), "id")),
        "x");
    CU_ASSERT_EQUAL(json_array_size(json_object_get(bt_group(res, "R"), "minions")), 1);
    json_decref(res);
    json_decref(params);
}

/* A joining group ceases to exist: its group spells go; the winner's stay. */
static void test_join_drops_joiner_group_spells(void)
{
    const char *text =
        "{\"state\": {\"board\": {}, \"groups\": [{\"id\": \"X\", \"owner\": \"red\", \"at\": "
        "[5, 5], \"minions\": [{\"id\": \"x1\", \"class\": \"swordsman\"}]}, {\"id\": \"Y\", "
        "\"owner\": \"red\", \"at\": [5, 6], \"minions\": [{\"id\": \"y1\", \"class\": "
        "\"swordsman\"}]}], \"spells\": [{\"spell\": \"Despond\", \"caster\": \"blue\", "
        "\"target\": {\"group\": \"X\"}}, {\"spell\": \"Plague\", \"caster\": \"blue\", "
        "\"target\": {\"group\": \"Y\"}}, {\"spell\": \"Ogi's Armor\", \"caster\": \"red\", "
        "\"target\": {\"minion\": \"y1\"}}]}, \"orders\": [{\"group\": \"Y\", \"move\": "
        "\"left\"}]}";
    json_t *params = json_loads(text, 0, NULL);
    json_t *res = bt_run_json(params, 3);
    json_t *spells;
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(bt_group(res, "X"), "minions")), 2);
    spells = json_object_get(json_object_get(res, "state"), "spells");
    CU_ASSERT_EQUAL(json_array_size(spells), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(spells, 0), "spell")),
                           "Despond");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(spells, 1), "spell")),
                           "Ogi's Armor");
    json_decref(res);
    json_decref(params);
}

static CU_TestInfo tests[] = {
    {"join_drops_joiner_group_spells", test_join_drops_joiner_group_spells},
    {"leave_names_new_group", test_leave_names_new_group},
    {"catalog_names_every_seed_spell", test_catalog_names_every_seed_spell},
    {"catalog_json_round_trips", test_catalog_json_round_trips},
    {"env_override", test_env_override},
    {"inline_spells_act", test_inline_spells_act},
    {"ostracize_blocks_join", test_ostracize_blocks_join},
    CU_TEST_INFO_NULL};

CU_SuiteInfo test_board_spells_suites[] = {{"board_spells", NULL, NULL, NULL, NULL, tests},
                                           CU_SUITE_INFO_NULL};
