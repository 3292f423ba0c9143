/* SPDX-License-Identifier: MIT */
/* Catalog routes (see api_catalog.h). */
#include "api_catalog.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "battle_codec.h"
#include "board_model.h"
#include "board_spells.h"
#include "sk_log.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* One filter: a query parameter and the words it may take, read from the engine's own
 * name tables so a skill or spell primitive added there is accepted here at once
 * (word == NULL: any text of 1..64 bytes). */
struct filter {
    const char *name;
    const char *(*word)(int i); /* name of value i, 0 <= i < n_words */
    int n_words;
};

static const char *card_type_word(int i)
{
    return battle_codec_type_name((enum battle_card_type)i);
}

static const char *skill_word(int i)
{
    return battle_codec_skill_name((enum battle_skill)i);
}

static const struct filter card_filters[] = {{"type", card_type_word, BATTLE_CARD_TYPE__COUNT},
                                             {"skill", skill_word, BATTLE_SKILL__COUNT},
                                             {"name", NULL, 0},
                                             {NULL, NULL, 0}};
static const struct filter spell_filters[] = {
    {"target", board_model_target_name, BOARD_T__COUNT},
    {"duration", board_spells_duration_name, BOARD_D__COUNT},
    {"event", board_spells_point_name, BOARD_P__COUNT},
    {"action", board_spells_action_name, BOARD_A__COUNT},
    {"name", NULL, 0},
    {NULL, NULL, 0}};

static void bad_query(struct api_response *resp, const char *param, const char *detail)
{
    api_http_problem(resp, 400, "invalid-query", "Bad Request", detail,
                     json_pack("{s:[{s:s, s:s}]}", "errors", "parameter", param, "detail", detail));
}

/* Answers 400 for a value of `f` that names none of its words, listing them all in the
 * detail ("'type' must be one of: assault, structure, ...") and as `allowed`, so a client
 * can correct the value without reading the document. */
static void bad_word(struct api_response *resp, const struct filter *f)
{
    char detail[2048];
    size_t n;
    json_t *allowed = json_array();

    n = (size_t)snprintf(detail, sizeof(detail), "'%s' must be one of:", f->name);
    for (int w = 0; w < f->n_words; w++) {
        if (n < sizeof(detail))
            n +=
                (size_t)snprintf(detail + n, sizeof(detail) - n, "%s %s", w ? "," : "", f->word(w));
        json_array_append_new(allowed, json_string(f->word(w)));
    }
    if (n < sizeof(detail))
        (void)snprintf(detail + n, sizeof(detail) - n, " (any case)");
    api_http_problem(resp, 400, "invalid-query", "Bad Request", detail,
                     json_pack("{s:[{s:s, s:s, s:o}]}", "errors", "parameter", f->name, "detail",
                               detail, "allowed", allowed));
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
        if (!f->word) {
            size_t n = strlen(a->value);
            if (n == 0 || n > 64) {
                (void)snprintf(detail, sizeof(detail), "'%s' must be 1 to 64 bytes", f->name);
                bad_query(resp, f->name, detail);
                return -1;
            }
            continue;
        }
        int w = 0;
        while (w < f->n_words && strcasecmp(f->word(w), a->value) != 0)
            w++;
        if (w == f->n_words) {
            bad_word(resp, f);
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

/* 1 when some element of array `arr` has member `key` equal to `value` (ASCII case
 * ignored, as for every filter: "Armor" finds the skill "armor"). */
static int any_has(const json_t *arr, const char *key, const char *value)
{
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e)
    {
        const char *v = json_string_value(json_object_get(e, key));
        if (v && strcasecmp(v, value) == 0)
            return 1;
    }
    return 0;
}

static int str_is(const json_t *o, const char *key, const char *want)
{
    const char *v = json_string_value(json_object_get(o, key));
    return !want || (v && strcasecmp(v, want) == 0);
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
