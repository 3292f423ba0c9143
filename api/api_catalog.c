/* SPDX-License-Identifier: MIT */
/* Catalog routes (see api_catalog.h). */
#include "api_catalog.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sk_log.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* One filter: a query parameter, the words it may take (NULL = any text of 1..64 bytes). */
struct filter {
    const char *name;
    const char *const *words;
};

static const char *const card_types[] = {"commander", "fortress", "assault", "structure", NULL};
static const char *const skills[] = {"armor",  "counter", "wall",   "pierce",  "berserk",  "leech",
                                     "poison", "evade",   "strike", "siege",   "enfeeble", "weaken",
                                     "jam",    "heal",    "rally",  "protect", "flurry",   NULL};
static const char *const targets[] = {"individual", "group", "square", "structure",
                                      "terrain",    "globe", "player", NULL};
static const char *const durations[] = {"instant", "persistent", "temporary", NULL};
static const char *const events[] = {
    "cast",     "start_of_turn", "before_movement", "stats",    "can_enter",
    "can_join", "on_exit",       "on_move",         "on_enter", "attacking",
    "attacked", "before_armor",  "after_armor",     "hits",     "damages",
    "can_move", "can_exit",      "dying",           "killed",   NULL};
static const char *const actions[] = {"cancel_order",   "random_direction",
                                      "attract",        "set_terrain",
                                      "kill",           "damage",
                                      "leave_group",    "add_max_armor",
                                      "forbid_join",    "terrain_bind",
                                      "ignores_armor",  "deal_no_damage",
                                      "add_damage",     "add_twice_max_armor",
                                      "deflect",        "receive_no_damage",
                                      "kill_victim",    "lower_victim_armor",
                                      "gain_max_armor", "forbid_move",
                                      "forbid_exit",    "cancel_death",
                                      "damage_killer",  NULL};

static const struct filter card_filters[] = {
    {"type", card_types}, {"skill", skills}, {"name", NULL}, {NULL, NULL}};
static const struct filter spell_filters[] = {{"target", targets}, {"duration", durations},
                                              {"event", events},   {"action", actions},
                                              {"name", NULL},      {NULL, NULL}};

static void bad_query(struct api_response *resp, const char *param, const char *detail)
{
    api_http_problem(resp, 400, "invalid-query", "Bad Request", detail,
                     json_pack("{s:[{s:s, s:s}]}", "errors", "parameter", param, "detail", detail));
}

/* Checks every query parameter against `filters`; answers 400 and returns -1 on the first
 * bad one. */
static int check(const struct api_request *req, const struct filter *filters,
                 struct api_response *resp)
{
    for (size_t i = 0; i < req->n_args; i++) {
        const struct api_arg *a = &req->args[i];
        const struct filter *f = filters;
        char detail[160];
        while (f->name && strcmp(f->name, a->key) != 0)
            f++;
        if (!f->name) {
            bad_query(resp, a->key, "unknown query parameter");
            return -1;
        }
        if (!f->words) {
            size_t n = strlen(a->value);
            if (n == 0 || n > 64) {
                (void)snprintf(detail, sizeof(detail), "'%s' must be 1 to 64 bytes", f->name);
                bad_query(resp, f->name, detail);
                return -1;
            }
            continue;
        }
        size_t w = 0;
        while (f->words[w] && strcmp(f->words[w], a->value) != 0)
            w++;
        if (!f->words[w]) {
            (void)snprintf(detail, sizeof(detail), "'%s' does not name a %s%s", f->name, f->name,
                           strcmp(f->name, "type") == 0 ? " of card" : "");
            bad_query(resp, f->name, detail);
            return -1;
        }
    }
    return 0;
}

/* Case-insensitive substring test (ASCII). */
static int contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return n == 0;
}

/* 1 when some element of array `arr` has member `key` equal to `value`. */
static int any_has(const json_t *arr, const char *key, const char *value)
{
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e)
    {
        const char *v = json_string_value(json_object_get(e, key));
        if (v && strcmp(v, value) == 0)
            return 1;
    }
    return 0;
}

static int str_is(const json_t *o, const char *key, const char *want)
{
    const char *v = json_string_value(json_object_get(o, key));
    return !want || (v && strcmp(v, want) == 0);
}

/* Answers {"items": the elements `keep` accepts, "count": n}. */
static void answer(const struct api_ctx *ctx, const struct api_request *req, api_catalog_fn *load,
                   int (*keep)(const json_t *, const struct api_request *),
                   struct api_response *resp)
{
    char err[256] = "";
    json_t *all = load ? load(err, sizeof(err)) : NULL;
    json_t *items = json_array();
    json_t *doc = NULL;
    char *text = NULL;
    size_t i;
    json_t *e;
    (void)ctx;

    if (!all || !items) {
        char q[300];
        api_http_problem(resp, 500, NULL, "Internal Server Error", "the catalog did not load",
                         NULL);
        sk_log_error("event=catalog_failed req_id=%s err=%s", req->req_id,
                     sk_log_quote(q, sizeof(q), err));
        goto out;
    }
    json_array_foreach(all, i, e) if (keep(e, req)) json_array_append(items, e);
    doc = json_pack("{s:O, s:I}", "items", items, "count", (json_int_t)json_array_size(items));
    text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    if (!text)
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
    else
        api_http_json_text(resp, 200, text);
out:
    sk_free(text);
    json_decref(doc);
    json_decref(items);
    json_decref(all);
}

static int keep_card(const json_t *c, const struct api_request *req)
{
    const char *name = api_http_arg(req, "name");
    const char *skill = api_http_arg(req, "skill");
    const char *cname = json_string_value(json_object_get(c, "name"));
    return str_is(c, "type", api_http_arg(req, "type")) &&
           (!skill || any_has(json_object_get(c, "skills"), "name", skill)) &&
           (!name || (cname && contains(cname, name)));
}

static int keep_spell(const json_t *s, const struct api_request *req)
{
    const char *name = api_http_arg(req, "name");
    const char *event = api_http_arg(req, "event");
    const char *action = api_http_arg(req, "action");
    const char *sname = json_string_value(json_object_get(s, "name"));
    return str_is(s, "target", api_http_arg(req, "target")) &&
           str_is(s, "duration", api_http_arg(req, "duration")) &&
           (!event || any_has(json_object_get(s, "effects"), "event", event)) &&
           (!action || any_has(json_object_get(s, "effects"), "action", action)) &&
           (!name || (sname && contains(sname, name)));
}

void api_catalog_cards(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp)
{
    if (!check(req, card_filters, resp))
        answer(ctx, req, ctx->cards, keep_card, resp);
}

void api_catalog_spells(const struct api_ctx *ctx, const struct api_request *req,
                        struct api_response *resp)
{
    if (!check(req, spell_filters, resp))
        answer(ctx, req, ctx->spells, keep_spell, resp);
}
