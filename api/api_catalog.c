/* SPDX-License-Identifier: MIT */
/* Catalog routes (see api_catalog.h). */
#include "api_catalog.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "job.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

/* The filters of each catalog are the engine's (struct job_filter, from the job kind that
 * serves the catalog), so a skill or spell primitive added there is accepted here at once. */

static void bad_query(struct api_response *resp, const char *param, const char *detail)
{
    api_http_problem(resp, 400, "invalid-query", "Bad Request", detail,
                     json_pack("{s:[{s:s, s:s}]}", "errors", "parameter", param, "detail", detail));
}

/* Answers 400 for a value of `f` that names none of its words, listing them all in the
 * detail ("'type' must be one of: assault, structure, ...") and as `allowed`, so a client
 * can correct the value without reading the document. */
static void bad_word(struct api_response *resp, const struct job_filter *f)
{
    char detail[2048];
    size_t n;
    json_t *allowed = json_array();

    n = (size_t)snprintf(detail, sizeof(detail), "'%s' must be one of:", f->param);
    for (int w = 0; w < f->n_words; w++) {
        if (n < sizeof(detail))
            n +=
                (size_t)snprintf(detail + n, sizeof(detail) - n, "%s %s", w ? "," : "", f->word(w));
        json_array_append_new(allowed, json_string(f->word(w)));
    }
    if (n < sizeof(detail))
        snprintf(detail + n, sizeof(detail) - n, " (any case)");
    api_http_problem(resp, 400, "invalid-query", "Bad Request", detail,
                     json_pack("{s:[{s:s, s:s, s:o}]}", "errors", "parameter", f->param, "detail",
                               detail, "allowed", allowed));
}

/* Checks every query parameter against `filters`; answers 400 and returns -1 on the first
 * bad one. */
static int check(const struct api_request *req, const struct job_filter *filters,
                 struct api_response *resp)
{
    for (size_t i = 0; i < req->n_args; i++) {
        const struct api_arg *a = &req->args[i];
        const struct job_filter *f = filters;
        char detail[160];
        if (strcmp(a->key, "limit") == 0 || strcmp(a->key, "cursor") == 0)
            continue; /* paging: checked by page_args */
        while (f->param && strcmp(f->param, a->key) != 0)
            f++;
        if (!f->param) {
            bad_query(resp, a->key, "unknown query parameter");
            return -1;
        }
        if (!f->word) {
            size_t n = strlen(a->value);
            if (n == 0 || n > 64) {
                snprintf(detail, sizeof(detail), "'%s' must be 1 to 64 bytes", f->param);
                bad_query(resp, f->param, detail);
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

/* 1 when catalog entry `e` passes every filter the request uses. */
static int keep(const json_t *e, const struct api_request *req, const struct job_filter *filters)
{
    for (const struct job_filter *f = filters; f->param; f++) {
        const char *want = api_http_arg(req, f->param);
        const json_t *v = json_object_get(e, f->field);
        const char *have = json_string_value(v);
        char num[24];
        if (!want)
            continue;
        if (json_is_integer(v)) {
            /* a number member (a card's level) is compared as its decimal text */
            snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
            have = num;
        }
        if (json_is_boolean(v))
            have = json_is_true(v) ? "true" : "false"; /* a mission's "playable" */
        if (f->member) {
            if (!any_has(v, f->member, want))
                return 0;
        } else if (!have || (f->n_words ? strcasecmp(have, want) != 0 : !contains(have, want))) {
            return 0;
        }
    }
    return 1;
}

/* A page of a catalog: the game's cards are about 54,000, too many for one answer. */
#define PAGE_DEFAULT 100
#define PAGE_MAX     1000

/* Reads "limit" (1..PAGE_MAX) and "cursor" (an entry position from next_cursor, at most
 * `n`); answers 400 naming the parameter and returns -1 when one is bad. */
static int page_args(const struct api_request *req, size_t n, size_t *limit, size_t *start,
                     struct api_response *resp)
{
    const char *l = api_http_arg(req, "limit");
    const char *c = api_http_arg(req, "cursor");
    uint64_t v = 0;

    *limit = PAGE_DEFAULT;
    *start = 0;
    if (l) {
        if (sk_parse_u64(l, 1, PAGE_MAX, &v) != SK_OK) {
            bad_query(resp, "limit", "'limit' must be an integer from 1 to 1000");
            return -1;
        }
        *limit = (size_t)v;
    }
    if (c) {
        /* The position in the catalog's order: every process of a deployment serves the
         * same current catalog, and a page names it ("catalog"), so a client that sees it
         * change after a refresh knows to start again. */
        if (sk_parse_u64(c, 0, n, &v) != SK_OK) {
            bad_query(resp, "cursor", "'cursor' is not a cursor of this catalog");
            return -1;
        }
        *start = (size_t)v;
    }
    return 0;
}

/* The entries to filter and serve: the loaded JSON array, or, for a kind's catalog served
 * entry by entry (struct job_catalog's size, match and entry), the kind's own. */
struct source {
    json_t *all;                    /* owned; NULL when served entry by entry */
    const struct job_catalog *each; /* borrowed; NULL when `all` */
    void *snap;                     /* held (each->hold) while the request reads it */
    size_t n;
};

/* 1 when entry i passes every filter the request uses. */
static int source_keep(const struct source *src, size_t i, const struct api_request *req,
                       const struct job_filter *filters)
{
    if (src->all)
        return keep(json_array_get(src->all, i), req, filters);
    for (const struct job_filter *f = filters; f->param; f++) {
        const char *want = api_http_arg(req, f->param);
        if (want && !src->each->match(src->snap, i, f, want))
            return 0;
    }
    return 1;
}

/* Answers {"items": a page of the entries that pass the filters, "count": its size,
 * "total": how many match in all, "next_cursor": where the next page starts, or null}. */
static void answer(const struct api_request *req, api_catalog_fn *load,
                   const struct job_catalog *cat, const struct job_filter *filters,
                   struct api_response *resp)
{
    char err[256] = "";
    struct source src = {NULL, NULL, NULL, 0};
    json_t *items = json_array();
    json_t *doc = NULL;
    json_t *next = NULL;
    char *text = NULL;
    size_t limit = 0, start = 0, total = 0;
    long size = -1;

    /* A kind's catalog served entry by entry; a test's own loader is served as loaded. */
    if (cat && cat->hold && load == cat->load) {
        src.each = cat;
        src.snap = cat->hold(err, sizeof(err));
        src.n = src.snap ? cat->size(src.snap) : 0;
        size = src.snap ? (long)src.n : -1;
    } else if (load) {
        src.all = load(err, sizeof(err));
        src.n = json_array_size(src.all);
        size = src.all ? (long)src.n : -1;
    }
    if (size < 0 || !items) {
        char q[300];
        api_http_problem(resp, 500, NULL, "Internal Server Error", "the catalog did not load",
                         NULL);
        sk_log_error("event=catalog_failed req_id=%s err=%s", req->req_id,
                     sk_log_quote(q, sizeof(q), err));
        goto out;
    }
    if (page_args(req, src.n, &limit, &start, resp))
        goto out;
    for (size_t i = 0; i < src.n; i++) {
        if (!source_keep(&src, i, req, filters))
            continue;
        total++;
        if (i < start)
            continue;
        if (json_array_size(items) < limit) {
            json_t *e =
                src.all ? json_incref(json_array_get(src.all, i)) : src.each->entry(src.snap, i);
            if (json_array_append_new(items, e)) {
                api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
                goto out;
            }
        } else if (!next) {
            char pos[24];
            snprintf(pos, sizeof(pos), "%zu", i);
            next = json_string(pos);
        }
    }
    doc = json_pack("{s:O, s:I, s:I, s:O}", "items", items, "count",
                    (json_int_t)json_array_size(items), "total", (json_int_t)total, "next_cursor",
                    next ? next : json_null());
    if (doc && src.snap &&
        json_object_set_new(doc, "catalog", json_string(src.each->hash(src.snap)))) {
        json_decref(doc);
        doc = NULL;
    }
    text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    if (!text)
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
    else
        api_http_json_text(resp, 200, text);
out:
    sk_free(text);
    json_decref(doc);
    json_decref(next);
    json_decref(items);
    json_decref(src.all);
    if (src.snap)
        src.each->drop(src.snap);
}

/* Serves the catalog `name` from `load` (the context's, so tests can pass their own). */
static void serve(const char *name, api_catalog_fn *load, const struct api_request *req,
                  struct api_response *resp)
{
    const struct job_catalog *cat = job_catalog_named(name);
    static const struct job_filter none[] = {{NULL, NULL, NULL, NULL, 0}};
    const struct job_filter *filters = cat ? cat->filters : none;

    if (!check(req, filters, resp))
        answer(req, load, cat, filters, resp);
}

void api_catalog_cards(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp)
{
    serve("cards", ctx->cards, req, resp);
}

void api_catalog_spells(const struct api_ctx *ctx, const struct api_request *req,
                        struct api_response *resp)
{
    serve("spells", ctx->spells, req, resp);
}

void api_catalog_missions(const struct api_ctx *ctx, const struct api_request *req,
                          struct api_response *resp)
{
    serve("missions", ctx->missions, req, resp);
}

void api_catalog_decks(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp)
{
    serve("decks", ctx->decks, req, resp);
}
