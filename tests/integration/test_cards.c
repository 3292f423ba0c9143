/* SPDX-License-Identifier: MIT */
/* The game's cards through the API: skirmish-api and skirmish-worker pointed at the game's
 * files (SKIRMISH_CARDS_DIR=../shared/data/tu, never copied into the repository) serve
 * GET /v1/cards with paging and filters, run a job whose decks are deck strings and a hash
 * (same job and seed, same result; the result names the catalog) and one whose defender is
 * a weighted list of decks, refuse a card with a
 * skill the engine does not simulate with a 422, serve GET /v1/missions and run a job whose
 * sides are missions named by name and id, one against a raid drawn anew each game (its
 * card pool and level-ups), refuse a raid the engine cannot play with a 422, a worker
 * pointed at a folder that is not there does not start, and GET /v1/decks lists the named
 * decks that a job (with abbreviations) uses. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "it_support.h"
#include "sk_mem.h"

static char dir_env[4200];

static int setup(void)
{
    sk_mem_init_json();
    snprintf(dir_env, sizeof(dir_env), "SKIRMISH_CARDS_DIR=%s/../shared/data/tu", SK_SOURCE_DIR);
    return 0;
}

static const char *str(const json_t *j, const char *k)
{
    const char *v = json_string_value(json_object_get(j, k));
    return v ? v : "";
}

static json_t *get_json(const struct it_stack *s, const char *path, int want_status)
{
    struct it_resp r;
    json_t *doc;

    if (it_http(s, "GET", path, NULL, NULL, 0, &r) != 0)
        return NULL;
    if (r.status != want_status)
        fprintf(stderr, "GET %s: %d %s\n", path, r.status, r.body ? r.body : "");
    CU_ASSERT_EQUAL(r.status, want_status);
    doc = it_resp_json(&r);
    it_resp_free(&r);
    return doc;
}

/* The suite's API and worker on the game's files, started by the first test that asks and
 * shared by the tests that read the game's cards: each process loads the game's files at
 * start (a second and more of CPU under ASan), which a stack per test paid seven times. The
 * tests submit jobs and read routes only, nothing another test counts. NULL when it did not
 * start. */
static struct it_stack shared;
static int shared_state; /* 0 not started, 1 running, -1 failed to start */

static struct it_stack *game_stack(void)
{
    if (shared_state == 0) {
        shared_state = -1;
        if (it_stack_init(&shared, "cards") == 0) {
            shared.env[shared.n_env++] = dir_env;
            if (it_api_start(&shared) == 0 && it_worker_start(&shared, 0) == 0)
                shared_state = 1;
        }
    }
    return shared_state == 1 ? &shared : NULL;
}

static int cleanup(void)
{
    if (shared_state != 0)
        it_stack_stop(&shared);
    shared_state = 0;
    return 0;
}

static void test_catalog_route(void)
{
    struct it_stack *s = game_stack();
    json_t *page, *next, *items;
    char path[256];
    const json_t *card;

    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    page = get_json(s, "/v1/cards?name=bazooka%20marine&level=3", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    items = json_object_get(page, "items");
    CU_ASSERT(json_array_size(items) >= 1);
    card = json_array_get(items, 0);
    CU_ASSERT_STRING_EQUAL(str(card, "name"), "Bazooka Marine");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(card, "id")), 351);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(card, "levels")), 3);
    json_decref(page);

    /* pages: five imperial commanders, then the next five, none twice */
    page = get_json(s, "/v1/cards?faction=imperial&type=commander&limit=5", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(page, "items")), 5);
    CU_ASSERT(json_integer_value(json_object_get(page, "total")) > 10);
    CU_ASSERT_FATAL(json_is_string(json_object_get(page, "next_cursor")));
    snprintf(path, sizeof(path), "/v1/cards?faction=imperial&type=commander&limit=5&cursor=%s",
             str(page, "next_cursor"));
    next = get_json(s, path, 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(next);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(next, "items")), 5);
    CU_ASSERT_STRING_NOT_EQUAL(str(json_array_get(json_object_get(page, "items"), 4), "name"),
                               str(json_array_get(json_object_get(next, "items"), 0), "name"));
    CU_ASSERT(strcmp(str(json_array_get(json_object_get(page, "items"), 4), "name"),
                     str(json_array_get(json_object_get(next, "items"), 0), "name")) < 0);
    json_decref(page);
    json_decref(next);

    page = get_json(s, "/v1/cards?skill=mortar&rarity=legendary&limit=1", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(page, "items")), 1);
    json_decref(page);

    json_decref(get_json(s, "/v1/cards?level=11", 400));
    json_decref(get_json(s, "/v1/cards?cursor=x", 400));
    json_decref(get_json(s, "/v1/cards?limit=0", 400));
    json_decref(get_json(s, "/v1/cards?faction=orc", 400));
}

#define REAL_DEF "Malika-1, Dread Panzer#2, Trap Setter, Invasion Blockade, Combat Specialist#3"

/* Submits `doc`, waits for it and returns its result (NULL on failure). */
static json_t *run_job(const struct it_stack *s, const char *doc)
{
    char id[37], path[128];
    json_t *job;

    if (it_submit(s, doc, id) != 0)
        return NULL;
    job = it_wait_status(s, id, "succeeded", 120000);
    CU_ASSERT_PTR_NOT_NULL(job);
    json_decref(job);
    if (!job)
        return NULL;
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    return get_json(s, path, 200);
}

static void test_real_deck_job(void)
{
    static const char doc[] =
        "{\"kind\": \"battle\", \"seed\": 11, \"params\": {\"games\": 3000,"
        " \"attacker\": \"Octane-1, Bazooka Marine#3, Rally Infantry, Grunt\","
        " \"defender\": {\"deck\": \"" REAL_DEF "\", \"play\": \"ordered\"}}}";
    struct it_stack *s = game_stack();
    json_t *a, *b, *cat;
    struct it_resp r;
    const char *bad = "{\"kind\": \"battle\", \"params\": {\"attacker\": \"Octane-1, "
                      "Teiffa\", \"defender\": \"" REAL_DEF "\"}}";

    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    a = run_job(s, doc);
    b = run_job(s, doc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(a, "games")), 3000);
    CU_ASSERT_TRUE(it_same_result(a, b)); /* same job, same seed */
    cat = json_object_get(a, "catalog");
    CU_ASSERT_PTR_NOT_NULL(strstr(str(cat, "name"), "shared/data/tu"));
    CU_ASSERT_EQUAL(strncmp(str(cat, "hash"), "fnv1a64:", 8), 0);
    json_decref(a);
    json_decref(b);

    CU_ASSERT_FATAL(it_http(s, "POST", "/v1/jobs", "application/json", bad, strlen(bad), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 422);
    CU_ASSERT_PTR_NOT_NULL(r.body && strstr(r.body, "\"/params/attacker\""));
    CU_ASSERT_PTR_NOT_NULL(
        r.body && strstr(r.body, "Teiffa") &&
        strstr(r.body, "health 0, attack 0: the engine plays health 1 to 999 and attack 0 to 999"));
    it_resp_free(&r);
}

/* GET /v1/decks lists customdecks.txt with what each stands for; a job whose attacker is
 * written with abbreviations (cardabbrs.txt) and whose defender is a named list. */
static void test_named_decks(void)
{
    static const char doc[] = "{\"kind\": \"battle\", \"seed\": 3, \"params\": {\"games\": 2000,"
                              " \"attacker\": \"halcyon++, CS, Bazooka Marine#3\","
                              " \"defender\": \"Bug62\"}}";
    struct it_stack *s = game_stack();
    json_t *page, *res;
    const json_t *d;

    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    page = get_json(s, "/v1/decks?name=bug62", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(page, "total")), 6); /* Bug62, _1.._5 */
    d = json_array_get(json_object_get(page, "items"), 0);
    CU_ASSERT_STRING_EQUAL(str(d, "name"), "Bug62");
    CU_ASSERT_TRUE(json_is_true(json_object_get(d, "list")));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(d, "decks")), 5);
    json_decref(page);
    page = get_json(s, "/v1/decks?name=Bug66_02", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(page, "items")), 1);
    json_decref(page);

    res = run_job(s, doc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "games")), 10000);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(res, "defenders")), 5);
    json_decref(res);
}

/* GET /v1/missions: filters, pages; a job between two missions; a raid it cannot play. */
static void test_missions(void)
{
    static const char doc[] = "{\"kind\": \"battle\", \"seed\": 5, \"params\": {\"games\": 2000,"
                              " \"attacker\": {\"mission\": 3, \"level\": 1},"
                              " \"defender\": {\"mission\": \"1. spirefall-1\"}}}";
    static const char pool[] = "{\"kind\": \"battle\", \"seed\": 5, \"params\": {\"games\": 2000,"
                               " \"attacker\": {\"mission\": 3, \"level\": 1},"
                               " \"defender\": {\"raid\": \"Apocalypse\", \"level\": 13}}}";
    /* the second deck's Enhance Armor 100 would raise Colossus' Armor 900 past 999 */
    static const char bad[] =
        "{\"kind\": \"battle\", \"params\": {\"cards\": [{\"name\": \"Colossus\", \"type\":"
        " \"assault\", \"attack\": 1, \"health\": 10, \"delay\": 1, \"skills\": [{\"name\":"
        " \"armor\", \"x\": 900}]}, {\"name\": \"Raiser\", \"type\": \"structure\", \"health\":"
        " 10, \"delay\": 1, \"skills\": [{\"name\": \"enhance\", \"x\": 100, \"s\": \"armor\"}]},"
        " {\"name\": \"Cmdr\", \"type\": \"commander\", \"health\": 40, \"skills\": []}],"
        " \"attacker\": {\"mission\": 3, \"level\": 1},"
        " \"defender\": [{\"deck\": {\"mission\": 3, \"level\": 1}, \"weight\": 1}, {\"deck\":"
        " {\"commander\": \"Cmdr\", \"deck\": [{\"card\": \"Colossus\"}, {\"card\": \"Raiser\"}]},"
        " \"weight\": 1}]}}";
    /* Gilians Raid at level 13 and Orbocalypse Raid at level 10: their Enhance and Evolve make
     * more variants than the plan's table holds, so their plans make them during play */
    static const char gilians[] =
        "{\"kind\": \"battle\", \"params\": {\"games\": 2000, \"attacker\": {\"mission\": 3,"
        " \"level\": 1}, \"defender\": [{\"deck\": {\"raid\": \"Gilians Raid\", \"level\": 13},"
        " \"weight\": 1}, {\"deck\": {\"raid\": \"Orbocalypse Raid\", \"level\": 10},"
        " \"weight\": 1}]}}";
    struct it_stack *s = game_stack();
    json_t *page, *next, *res;
    const json_t *m;
    char path[256];
    struct it_resp r;

    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    page = get_json(s, "/v1/missions?kind=raid&name=jotun", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(page, "total")), 1);
    m = json_array_get(json_object_get(page, "items"), 0);
    CU_ASSERT_STRING_EQUAL(str(m, "name"), "Jotun Max");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(m, "levels")), 26);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(m, "cards")), 10);
    /* every level of the raid: 1 as listed, 2..25 with level-ups, 26 at the top */
    CU_ASSERT_EQUAL(json_array_size(json_object_get(m, "playable_levels")), 26);
    json_decref(page);
    /* Talos: its middle levels' Enhance variants need more than 255 cards, which the plan's
     * 16-bit card indexes hold: every one of its 26 levels plays */
    page = get_json(s, "/v1/missions?kind=raid&name=talos", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    m = json_array_get(json_object_get(page, "items"), 0);
    CU_ASSERT_STRING_EQUAL(str(m, "name"), "Talos");
    CU_ASSERT_EQUAL(json_array_size(json_object_get(m, "playable_levels")), 26);
    CU_ASSERT_EQUAL(json_integer_value(json_array_get(json_object_get(m, "playable_levels"), 12)),
                    13);
    json_decref(page);

    /* 1,279 missions, in pages of 500; the second page starts where the first ended */
    page = get_json(s, "/v1/missions?kind=MISSION&limit=500", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(page, "total")), 1279);
    CU_ASSERT_FATAL(json_is_string(json_object_get(page, "next_cursor")));
    snprintf(path, sizeof(path), "/v1/missions?kind=mission&limit=500&cursor=%s",
             str(page, "next_cursor"));
    next = get_json(s, path, 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(next);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(next, "items")), 500);
    CU_ASSERT(json_integer_value(
                  json_object_get(json_array_get(json_object_get(page, "items"), 499), "id")) <
              json_integer_value(
                  json_object_get(json_array_get(json_object_get(next, "items"), 0), "id")));
    json_decref(page);
    json_decref(next);
    /* the largest raid (a deck of 50) plays at each of its 50 levels, and so does each level of
     * Gilians Raid, whose middle levels' Enhance variants pass the plan's table (made during
     * play) */
    page = get_json(s, "/v1/missions?kind=raid&playable=true&name=synapse", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    m = json_array_get(json_object_get(page, "items"), 0);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(m, "playable_levels")), 50);
    CU_ASSERT(json_is_null(json_object_get(m, "levels_why")));
    json_decref(page);
    page = get_json(s, "/v1/missions?kind=raid&playable=true&name=gilians", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    m = json_array_get(json_object_get(page, "items"), 0);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(m, "playable_levels")), 16);
    CU_ASSERT(json_is_null(json_object_get(m, "levels_why")));
    json_decref(page);
    /* every level of every record of the snapshot plays: no record lists a refused level */
    for (int kind = 0; kind < 2; kind++) {
        int refused = 0, seen = 0;
        char cursor[128] = "";
        for (;;) {
            size_t n;
            snprintf(path, sizeof(path), "/v1/missions?kind=%s&limit=1000%s%s",
                     kind ? "raid" : "mission", *cursor ? "&cursor=" : "", cursor);
            page = get_json(s, path, 200);
            CU_ASSERT_PTR_NOT_NULL_FATAL(page);
            n = json_array_size(json_object_get(page, "items"));
            for (size_t i = 0; i < n; i++) {
                m = json_array_get(json_object_get(page, "items"), i);
                seen++;
                if (!json_is_null(json_object_get(m, "levels_why"))) {
                    fprintf(stderr, "%s: %s\n", str(m, "name"), str(m, "levels_why"));
                    refused++;
                }
            }
            snprintf(cursor, sizeof(cursor), "%s", str(page, "next_cursor"));
            json_decref(page);
            if (!*cursor)
                break;
        }
        CU_ASSERT_EQUAL(seen, kind ? 47 : 1279);
        CU_ASSERT_EQUAL(refused, 0);
    }
    /* Orbocalypse Raid's middle levels hold more than 32 distinct changes: all 26 play */
    page = get_json(s, "/v1/missions?kind=raid&playable=true&name=orbocalypse", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    m = json_array_get(json_object_get(page, "items"), 0);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(m, "playable_levels")), 26);
    CU_ASSERT(json_is_null(json_object_get(m, "levels_why")));
    json_decref(page);
    /* Lithid Raid's Refresh 100 plays, at every level */
    page = get_json(s, "/v1/missions?kind=raid&playable=true&name=lithid", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    m = json_array_get(json_object_get(page, "items"), 0);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(m, "playable_levels")), 26);
    json_decref(page);
    /* the raid with a pool plays: its card_pools count is listed */
    page = get_json(s, "/v1/missions?kind=raid&playable=true&name=apocalypse", 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    m = json_array_get(json_object_get(page, "items"), 0);
    CU_ASSERT_STRING_EQUAL(str(m, "name"), "Apocalypse");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(m, "card_pools")), 1);
    json_decref(page);
    json_decref(get_json(s, "/v1/missions?kind=campaign", 400));
    json_decref(get_json(s, "/v1/missions?playable=maybe", 400));
    json_decref(get_json(s, "/v1/missions?level=1", 400));

    res = run_job(s, doc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "games")), 2000);
    json_decref(res);
    /* against the raid at level 13: raid points by default, each game its own draw */
    res = run_job(s, pool);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "games")), 2000);
    CU_ASSERT_TRUE(json_real_value(json_object_get(res, "points")) >= 5.0);
    json_decref(res);

    CU_ASSERT_FATAL(it_http(s, "POST", "/v1/jobs", "application/json", bad, strlen(bad), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 422);
    CU_ASSERT_PTR_NOT_NULL(r.body && strstr(r.body, "\"/params/defender/1/deck\""));
    CU_ASSERT_PTR_NOT_NULL(r.body && strstr(r.body, "can raise card \\\"Colossus\\\"'s past 999"));
    it_resp_free(&r);

    /* run by a worker, on the CPU backend (the host makes the variants) */
    res = run_job(s, gilians);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "games")), 4000);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(res, "games_bounded")), 0);
    CU_ASSERT_STRING_EQUAL(str(res, "backend"), "cpu");
    json_decref(res);
}

/* A worker pointed at a folder that is not there exits at start. */
static void test_bad_folder_stops_worker(void)
{
    struct it_stack s;
    int status = -1, exited = 0;

    CU_ASSERT_FATAL(it_stack_init(&s, "cards_bad") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    s.env[s.n_env++] = "SKIRMISH_CARDS_DIR=/nonexistent/tu-files";
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    for (int i = 0; i < 100 && !exited; i++) {
        exited = waitpid(s.workers[0], &status, WNOHANG) == s.workers[0];
        if (!exited)
            it_sleep_ms(100);
    }
    if (!exited) {
        CU_FAIL("a worker with a missing cards folder did not exit");
        it_worker_signal(&s, 0, SIGKILL, 1);
    }
    CU_ASSERT_TRUE(exited && WIFEXITED(status) && WEXITSTATUS(status) == 1);
    s.workers[0] = 0;
    it_stack_stop(&s);
}

static CU_TestInfo cards_tests[] = {
    {"GET /v1/cards on the game's files: filters, levels, pages", test_catalog_route},
    {"a real-deck job: deck strings, same seed same result, 422", test_real_deck_job},
    {"GET /v1/missions, a job between missions, one against a raid's pool at level 13, a 422",
     test_missions},
    {"a missing cards folder stops the worker", test_bad_folder_stops_worker},
    {"GET /v1/decks; a named deck, a named list and abbreviations in a job", test_named_decks},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_cards_suites[] = {
    {"cards", setup, cleanup, NULL, NULL, cards_tests},
    CU_SUITE_INFO_NULL,
};
