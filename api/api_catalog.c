/* SPDX-License-Identifier: MIT */
/* Catalog routes (see api_catalog.h). */
#include "api_catalog.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "job.h"
#include "sk_log.h"
#include "sk_mem.h"

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
        (void)snprintf(detail + n, sizeof(detail) - n, " (any case)");
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
        while (f->param && strcmp(f->param, a->key) != 0)
            f++;
        if (!f->param) {
            bad_query(resp, a->key, "unknown query parameter");
            return -1;
        }
        if (!f->word) {
            size_t n = strlen(a->value);
            if (n == 0 || n > 64) {
                (void)snprintf(detail, sizeof(detail), "'%s' must be 1 to 64 bytes", f->param);
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
        if (!want)
            continue;
        if (f->member) {
            if (!any_has(v, f->member, want))
                return 0;
        } else if (!have || (f->n_words ? strcasecmp(have, want) != 0 : !contains(have, want))) {
            return 0;
        }
    }
    return 1;
}

/* Answers {"items": the elements `keep` accepts, "count": n}. */
static void answer(const struct api_request *req, api_catalog_fn *load,
                   const struct job_filter *filters, struct api_response *resp)
{
    char err[256] = "";
    json_t *all = load ? load(err, sizeof(err)) : NULL;
    json_t *items = json_array();
    json_t *doc = NULL;
    char *text = NULL;
    size_t i;
    json_t *e;

    if (!all || !items) {
        char q[300];
        api_http_problem(resp, 500, NULL, "Internal Server Error", "the catalog did not load",
                         NULL);
        sk_log_error("event=catalog_failed req_id=%s err=%s", req->req_id,
                     sk_log_quote(q, sizeof(q), err));
        goto out;
    }
    json_array_foreach(all, i, e) if (keep(e, req, filters)) json_array_append(items, e);
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

/* Serves the catalog `name` from `load` (the context's, so tests can pass their own). */
static void serve(const char *name, api_catalog_fn *load, const struct api_request *req,
                  struct api_response *resp)
{
    const struct job_catalog *cat = job_catalog_named(name);
    static const struct job_filter none[] = {{NULL, NULL, NULL, NULL, 0}};
    const struct job_filter *filters = cat ? cat->filters : none;

    if (!check(req, filters, resp))
        answer(req, load, filters, resp);
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
