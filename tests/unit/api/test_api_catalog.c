/* SPDX-License-Identifier: MIT */
/* GET /v1/cards and GET /v1/spells through the router with small fake catalogs: every
 * filter alone and together, the exact items kept in catalog order, the count, and a
 * catalog that fails to load (500). */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "api_http.h"
#include "api_router.h"
#include "api_testreq.h"
#include "job.h"
#include "sk_config.h"
#include "sk_mem.h"

static struct sk_config cfg;

static json_t *fake_cards(char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return json_loads(
        "[{\"name\":\"Test Commander\",\"type\":\"commander\",\"health\":40,\"skills\":[]},"
        "{\"name\":\"Grunt\",\"type\":\"assault\",\"attack\":2,\"health\":10,\"delay\":1,"
        "\"skills\":[]},"
        "{\"name\":\"Plated Grunt\",\"type\":\"assault\",\"attack\":2,\"health\":10,\"delay\":1,"
        "\"skills\":[{\"name\":\"armor\",\"x\":2}]},"
        "{\"name\":\"Barricade\",\"type\":\"structure\",\"health\":12,\"delay\":1,"
        "\"skills\":[{\"name\":\"wall\"}]}]",
        0, NULL);
}

static json_t *fake_spells(char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return json_loads(
        "[{\"name\":\"Thorns\",\"target\":\"square\",\"duration\":\"persistent\","
        "\"effects\":[{\"event\":\"on_enter\",\"action\":\"damage\",\"amount\":1}]},"
        "{\"name\":\"Fingle\",\"target\":\"group\",\"duration\":\"instant\","
        "\"effects\":[{\"event\":\"cast\",\"action\":\"random_direction\"}]},"
        "{\"name\":\"Rooted\",\"target\":\"group\",\"duration\":\"temporary\",\"turns\":2,"
        "\"effects\":[{\"event\":\"can_move\",\"action\":\"forbid_move\"}]}]",
        0, NULL);
}

static json_t *broken(char *err, size_t errlen)
{
    snprintf(err, errlen, "no catalog");
    return NULL;
}

static struct api_ctx ctx = {.cfg = &cfg, .cards = fake_cards, .spells = fake_spells};

static int setup(void)
{
    sk_mem_init_json();
    memset(&cfg, 0, sizeof(cfg));
    return 0;
}

/* GET path with up to two arguments; returns the names of the items, comma-separated. */
static int names(const char *path, const char *k1, const char *v1, const char *k2, const char *v2,
                 char *out, size_t len)
{
    struct api_request req;
    struct api_response resp;
    json_t *doc;
    json_t *items;
    int status;
    memset(&req, 0, sizeof(req));
    req.method = "GET";
    req.path = path;
    req.req_id = "t";
    if (k1) {
        req.args[req.n_args].key = k1;
        req.args[req.n_args++].value = v1;
    }
    if (k2) {
        req.args[req.n_args].key = k2;
        req.args[req.n_args++].value = v2;
    }
    api_http_response_init(&resp);
    api_router_handle(&ctx, &req, &resp);
    status = resp.status;
    doc = json_loadb(resp.body, resp.body_len, 0, NULL);
    items = json_object_get(doc, "items");
    out[0] = '\0';
    for (size_t i = 0; i < json_array_size(items); i++)
        snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? "," : "",
                 json_string_value(json_object_get(json_array_get(items, i), "name")));
    if (status == 200)
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(doc, "count")),
                        (json_int_t)json_array_size(items));
    json_decref(doc);
    api_http_response_release(&resp);
    return status;
}

/* GET `path` with the `n` key/value pairs of `kv` (api_testreq.h) under this file's
 * catalogs. */
static json_t *get_doc(const char *path, const char *const *kv, size_t n, int *status)
{
    return api_testreq_get(&ctx, path, kv, n, status, NULL);
}

static void test_cards(void)
{
    char n[256];
    CU_ASSERT_EQUAL(names("/v1/cards", NULL, NULL, NULL, NULL, n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Test Commander,Grunt,Plated Grunt,Barricade");
    CU_ASSERT_EQUAL(names("/v1/cards", "type", "assault", NULL, NULL, n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Grunt,Plated Grunt");
    CU_ASSERT_EQUAL(names("/v1/cards", "skill", "wall", NULL, NULL, n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Barricade");
    CU_ASSERT_EQUAL(names("/v1/cards", "name", "gRUNT", NULL, NULL, n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Grunt,Plated Grunt");
    CU_ASSERT_EQUAL(names("/v1/cards", "name", "grunt", "skill", "armor", n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Plated Grunt");
    CU_ASSERT_EQUAL(names("/v1/cards", "type", "fortress", NULL, NULL, n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, ""); /* a valid filter that keeps nothing */
    ctx.cards = broken;
    CU_ASSERT_EQUAL(names("/v1/cards", NULL, NULL, NULL, NULL, n, sizeof(n)), 500);
    ctx.cards = fake_cards;
}

static void test_spells(void)
{
    char n[256];
    CU_ASSERT_EQUAL(names("/v1/spells", NULL, NULL, NULL, NULL, n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Thorns,Fingle,Rooted");
    CU_ASSERT_EQUAL(names("/v1/spells", "target", "group", NULL, NULL, n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Fingle,Rooted");
    CU_ASSERT_EQUAL(names("/v1/spells", "duration", "temporary", NULL, NULL, n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Rooted");
    CU_ASSERT_EQUAL(names("/v1/spells", "event", "on_enter", NULL, NULL, n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Thorns");
    CU_ASSERT_EQUAL(names("/v1/spells", "action", "random_direction", NULL, NULL, n, sizeof(n)),
                    200);
    CU_ASSERT_STRING_EQUAL(n, "Fingle");
    CU_ASSERT_EQUAL(names("/v1/spells", "name", "o", "target", "group", n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Rooted");
}

/* The filters take their words from the engine: every name the engine knows is a valid
 * value (200), and a near miss is a 400 naming the parameter. */
static void test_filter_vocabulary(void)
{
    static const char *const catalogs[] = {"cards", "spells"};
    char n[256];
    char path[32];
    int words = 0;
    for (size_t c = 0; c < 2; c++) {
        const struct job_catalog *cat = job_catalog_named(catalogs[c]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(cat);
        snprintf(path, sizeof(path), "/v1/%s", catalogs[c]);
        for (const struct job_filter *f = cat->filters; f->param; f++)
            for (int i = 0; i < f->n_words; i++, words++)
                CU_ASSERT_EQUAL(names(path, f->param, f->word(i), NULL, NULL, n, sizeof(n)), 200);
    }
    CU_ASSERT(words > 40); /* 4 card types, 17 skills, the spell primitives */
    CU_ASSERT_EQUAL(names("/v1/cards", "skill", "armour", NULL, NULL, n, sizeof(n)), 400);
    CU_ASSERT_EQUAL(names("/v1/spells", "action", "Kil", NULL, NULL, n, sizeof(n)), 400);
    CU_ASSERT_EQUAL(names("/v1/spells", "duration", "", NULL, NULL, n, sizeof(n)), 400);
}

/* Filters ignore case; a value naming no word is a 400 whose detail and `allowed` list
 * every word of the parameter. */
static void test_filter_case_and_allowed(void)
{
    static const char *const wizard[] = {"type", "wizard"};
    char n[256];
    const struct job_filter *type = job_catalog_named("cards")->filters;
    json_t *doc;
    json_t *e;
    int status;

    while (type->param && strcmp(type->param, "type") != 0)
        type++;
    CU_ASSERT_PTR_NOT_NULL_FATAL(type->param);
    CU_ASSERT_EQUAL(names("/v1/cards", "type", "ASSAULT", NULL, NULL, n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Grunt,Plated Grunt");
    CU_ASSERT_EQUAL(names("/v1/cards", "skill", "Wall", NULL, NULL, n, sizeof(n)), 200);
    CU_ASSERT_STRING_EQUAL(n, "Barricade");
    CU_ASSERT_EQUAL(names("/v1/spells", "target", "Group", "duration", "TEMPORARY", n, sizeof(n)),
                    200);
    CU_ASSERT_STRING_EQUAL(n, "Rooted");

    doc = get_doc("/v1/cards", wizard, 1, &status);
    CU_ASSERT_EQUAL(status, 400);
    e = json_array_get(json_object_get(doc, "errors"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "parameter")), "type");
    CU_ASSERT_EQUAL(json_array_size(json_object_get(e, "allowed")), (size_t)type->n_words);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(json_object_get(e, "allowed"), 0)),
                           type->word(0));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(json_string_value(json_object_get(doc, "detail")), "'type' must be one of: "));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(json_string_value(json_object_get(doc, "detail")), type->word(type->n_words - 1)));
    json_decref(doc);
}

/* A query parameter given twice is a 400 naming it, whichever route and whatever the values
 * (before, the first value won and the second was never checked: limit=1&limit=abc). */
static void test_repeated_parameter(void)
{
    static const char *const cases[][2] = {
        {"/v1/cards", "limit"}, {"/v1/cards", "name"}, {"/v1/spells", "name"}};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        /* another parameter between the two */
        const char *const kv[] = {cases[c][1], "1", "type", "assault", cases[c][1], "abc"};
        int status;
        json_t *doc = get_doc(cases[c][0], kv, 3, &status), *e;
        CU_ASSERT_EQUAL(status, 400);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(doc, "type")),
                               "/problems/invalid-query");
        e = json_array_get(json_object_get(doc, "errors"), 0);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "parameter")), cases[c][1]);
        json_decref(doc);
    }
    /* each given once: not refused for that */
    {
        char n[256];
        CU_ASSERT_EQUAL(names("/v1/cards", "type", "assault", "name", "grunt", n, sizeof(n)), 200);
    }
}

static CU_TestInfo catalog_tests[] = {
    {"filters ignore case; a bad value lists the allowed ones", test_filter_case_and_allowed},
    {"cards: type, skill, name filters and a broken catalog", test_cards},
    {"spells: target, duration, event, action, name filters", test_spells},
    {"filters accept exactly the engine's names", test_filter_vocabulary},
    {"a query parameter given twice is a 400 naming it", test_repeated_parameter},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_catalog_suites[] = {
    {"api_catalog", setup, NULL, NULL, NULL, catalog_tests},
    CU_SUITE_INFO_NULL,
};
