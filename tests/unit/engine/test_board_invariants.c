/* SPDX-License-Identifier: MIT */
/* Properties over many random boards: after every run no square holds two groups, every
 * group has 1 to 8 minions on a playable square, minions are conserved (alive, buried or
 * removed from the game), and the final state is valid input again. */
#include <CUnit/CUnit.h>
#include <stdlib.h>

#include "board_test_util.h"

#include "sk_banned.h"

static unsigned next(unsigned *x)
{
    *x = *x * 1103515245u + 12345u;
    return (*x >> 16) & 0x7fff;
}

static int off(int r, int c)
{
    static const int extra[8][2] = {{0, 11}, {11, 0}, {0, 6},  {6, 0},
                                    {3, 3},  {11, 5}, {5, 11}, {8, 8}};
    if (r + c <= 5 || r + c >= 17)
        return 1;
    for (int i = 0; i < 8; i++)
        if (extra[i][0] == r && extra[i][1] == c)
            return 1;
    return 0;
}

static json_t *random_params(unsigned seed, int *minions)
{
    static const char *const owners[] = {"red", "blue", "neutral"};
    static const char *const classes[] = {"swordsman", "archer", "bard", "hero", "swordsman"};
    static const char *const dirs[] = {"up", "right", "down", "left"};
    static const char *const gspells[] = {"Fear",     "Amok",       "Ostracize", "Terrain-Bind",
                                          "Fireball", "Siren Song", "Fingle",    "Despond"};
    static const char *const mspells[] = {"Ogi's Armor",    "Deflection",   "Unholy Aura",
                                          "Smite",          "Exile",        "Spirit Sword",
                                          "Touch of Death", "Gorgon's Gaze"};
    static const char *const tspells[] = {"Forest", "Mountain", "Flood", "Mirage", "Thorns"};
    json_t *groups = json_array(), *orders = json_array(), *casts = json_array();
    unsigned x = seed;
    int ng = 0;
    char used[12][12] = {{0}};

    *minions = 0;
    for (int tries = 0; tries < 200 && ng < 40; tries++) {
        int r = (int)(next(&x) % 7) + 3, c = (int)(next(&x) % 7) + 3;
        int n = (int)(next(&x) % 8) + 1, monster = next(&x) % 7 == 0;
        const char *owner = owners[next(&x) % 3];
        json_t *ms;
        char id[32];
        if (off(r, c) || used[r][c] || (r == 10 && c == 1) || (r == 1 && c == 10))
            continue;
        used[r][c] = 1;
        ms = json_array();
        for (int i = 0; i < n; i++) {
            char mid[32];
            snprintf(mid, sizeof(mid), "m%d_%d", ng, i);
            json_array_append_new(
                ms, monster ? json_pack("{ss ss si si}", "id", mid, "class", "monster", "hand",
                                        (int)(next(&x) % 4), "attacks", (int)(next(&x) % 3))
                            : json_pack("{ss ss}", "id", mid, "class", classes[next(&x) % 5]));
        }
        *minions += n;
        snprintf(id, sizeof(id), "g%d", ng);
        json_array_append_new(groups, json_pack("{ss ss ss s[ii] so}", "id", id, "owner", owner,
                                                "control", next(&x) % 4 ? "player" : "computer",
                                                "at", r, c, "minions", ms));
        if (next(&x) % 3 && strcmp(owner, "neutral") != 0)
            json_array_append_new(orders,
                                  json_pack("{ss ss}", "group", id, "move", dirs[next(&x) % 4]));
        if (next(&x) % 4 == 0) {
            char mid[32];
            snprintf(mid, sizeof(mid), "m%d_0", ng);
            json_array_append_new(casts, json_pack("{ss ss s{ss}}", "player",
                                                   next(&x) % 2 ? "red" : "blue", "spell",
                                                   mspells[next(&x) % 8], "target", "minion", mid));
        }
        if (next(&x) % 4 == 0)
            json_array_append_new(casts, json_pack("{ss ss s{ss}}", "player",
                                                   next(&x) % 2 ? "red" : "blue", "spell",
                                                   gspells[next(&x) % 8], "target", "group", id));
        if (next(&x) % 6 == 0 && !off(r + 1, c))
            json_array_append_new(casts,
                                  json_pack("{ss ss s{s[ii]}}", "player", "red", "spell",
                                            tspells[next(&x) % 5], "target", "square", r + 1, c));
        ng++;
    }
    return json_pack("{s{s{} so} so so si}", "state", "board", "groups", groups, "orders", orders,
                     "casts", casts, "turns", 3);
}

static void test_random_boards_keep_invariants(void)
{
    for (unsigned seed = 1; seed <= 60; seed++) {
        int minions = 0, alive = 0, removed_events = 0;
        json_t *params = random_params(seed, &minions);
        json_t *res = bt_run_json(params, seed);
        json_t *st, *p2, *r2;
        char seen[12][12] = {{0}};
        size_t i;
        json_t *g;

        CU_ASSERT_PTR_NOT_NULL_FATAL(res);
        st = json_object_get(res, "state");
        json_array_foreach(json_object_get(st, "groups"), i, g)
        {
            int r = (int)json_integer_value(json_array_get(json_object_get(g, "at"), 0));
            int c = (int)json_integer_value(json_array_get(json_object_get(g, "at"), 1));
            size_t n = json_array_size(json_object_get(g, "minions"));
            CU_ASSERT_FALSE(off(r, c));
            CU_ASSERT_FALSE(seen[r][c]);
            seen[r][c] = 1;
            CU_ASSERT_TRUE(n >= 1 && n <= 8);
            alive += (int)n;
        }
        removed_events = bt_count(res, "{\"type\": \"removal\"}");
        if (removed_events == 0)
            CU_ASSERT_EQUAL(alive + (int)json_array_size(json_object_get(st, "graveyard")),
                            minions);
        CU_ASSERT_TRUE(alive + (int)json_array_size(json_object_get(st, "graveyard")) <= minions);
        /* the final state is valid input */
        p2 = json_pack("{sO sO}", "state", st, "spells", json_object_get(res, "spells"));
        r2 = bt_run_json(p2, seed);
        CU_ASSERT_PTR_NOT_NULL(r2);
        json_decref(r2);
        json_decref(p2);
        json_decref(res);
        json_decref(params);
    }
}

static CU_TestInfo tests[] = {{"random_boards_keep_invariants", test_random_boards_keep_invariants},
                              CU_TEST_INFO_NULL};

CU_SuiteInfo test_board_invariants_suites[] = {{"board_invariants", NULL, NULL, NULL, NULL, tests},
                                               CU_SUITE_INFO_NULL};
