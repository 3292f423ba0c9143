/* SPDX-License-Identifier: MIT */
/* Job routes (see api_jobs.h). */
#include "api_jobs.h"

#include <stdio.h>
#include <string.h>

#include "db_jobs.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int api_jobs_cursor_encode(const char *raw, char *out, size_t len)
{
    size_t n = strlen(raw);
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned char)raw[i] << 16;
        int k = 2;
        if (i + 1 < n) {
            v |= (unsigned char)raw[i + 1] << 8;
            k++;
        }
        if (i + 2 < n) {
            v |= (unsigned char)raw[i + 2];
            k++;
        }
        if (o + (size_t)k + 1 > len)
            return -1;
        for (int j = 0; j < k; j++)
            out[o++] = b64[(v >> (18 - 6 * j)) & 63];
    }
    if (o + 1 > len)
        return -1;
    out[o] = '\0';
    return 0;
}

int api_jobs_cursor_decode(const char *in, char *out, size_t len)
{
    unsigned v = 0;
    int bits = 0;
    size_t o = 0;
    for (; *in; in++) {
        const char *p = strchr(b64, *in);
        if (!p)
            return -1;
        v = (v << 6) | (unsigned)(p - b64);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            char c = (char)((v >> bits) & 0xff);
            if (c == '\0' || o + 1 >= len)
                return -1;
            out[o++] = c;
        }
    }
    /* leftover bits must be padding zeros, and a lone 6-bit group is never valid */
    if (bits >= 6 || (v & ((1u << bits) - 1)))
        return -1;
    out[o] = '\0';
    return 0;
}

/* Turns a store error into a problem. */
static void store_problem(struct api_response *resp, enum sk_err err, const char *req_id,
                          const char *what)
{
    if (err == SK_EUNAVAIL) {
        api_http_problem(resp, 503, "unavailable", "Service Unavailable",
                         "the job store is unreachable; retry shortly", NULL);
        resp->retry_after = 1;
    } else {
        api_http_problem(resp, 500, NULL, "Internal Server Error",
                         "the request could not be completed", NULL);
    }
    sk_log_error("event=store_error req_id=%s op=%s err=%s", req_id, what, sk_err_str(err));
}

static void not_found(struct api_response *resp, const char *id)
{
    char detail[128];
    snprintf(detail, sizeof(detail), "no job with id '%.64s'", id);
    api_http_problem(resp, 404, "job-not-found", "Not Found", detail, NULL);
}

/* 422 with every validation error as {pointer, detail}. */
static void invalid(struct api_response *resp, const struct sk_verr_list *errs)
{
    json_t *arr = json_array();
    char detail[96];
    for (size_t i = 0; arr && i < errs->n; i++)
        json_array_append_new(arr, json_pack("{s:s, s:s}", "pointer", errs->items[i].pointer,
                                             "detail", errs->items[i].message));
    snprintf(detail, sizeof(detail), "the job has %zu invalid field%s%s", errs->n,
             errs->n == 1 ? "" : "s", errs->truncated ? " (list truncated)" : "");
    api_http_problem(resp, 422, "validation-error", "Unprocessable Content", detail,
                     json_pack("{s:o}", "errors", arr ? arr : json_array()));
}

void api_jobs_submit(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp)
{
    json_t *doc = NULL;
    json_error_t jerr;
    struct sk_verr_list errs;
    struct api_job_info info = {0};
    char *text = NULL;
    char *json = NULL;
    char id[DB_JOBS_ID_LEN];
    struct api_slot *slot = NULL;
    enum sk_err err;

    sk_verr_list_init(&errs);
    if (req->body_too_large) {
        char detail[96];
        snprintf(detail, sizeof(detail), "the body exceeds %ld bytes", ctx->cfg->max_body_bytes);
        api_http_problem(resp, 413, "body-too-large", "Content Too Large", detail,
                         json_pack("{s:I}", "max_bytes", (json_int_t)ctx->cfg->max_body_bytes));
        goto out;
    }
    if (!api_http_is_json(req->content_type)) {
        api_http_problem(resp, 415, "unsupported-media-type", "Unsupported Media Type",
                         "the body must be application/json", NULL);
        goto out;
    }
    doc = json_loadb(req->body ? req->body : "", req->body_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc) {
        api_http_problem(resp, 400, "malformed-json", "Bad Request", jerr.text,
                         json_pack("{s:i, s:i}", "line", jerr.line, "column", jerr.column));
        goto out;
    }
    err = ctx->validate(doc, &info, &errs);
    if (err == SK_EINVAL) {
        invalid(resp, &errs);
        goto out;
    }
    if (err) {
        store_problem(resp, err, req->req_id, "validate");
        goto out;
    }
    /* Record the seed actually used, so the stored request alone reproduces the result. */
    if (json_object_set_new(doc, "seed", json_integer((json_int_t)info.seed)) ||
        !(text = json_dumps(doc, JSON_COMPACT))) {
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
        goto out;
    }
    slot = api_pool_get(ctx->pool);
    err = db_jobs_insert(slot->db, info.kind, text, info.seed, info.total, id, &json);
    if (err) {
        store_problem(resp, err, req->req_id, "insert");
        goto out;
    }
    /* The row is committed: the job is accepted even if Redis is down now, because the
     * reconciler re-enqueues queued rows that never reached the stream. */
    err = queue_add(slot->queue, id, 1);
    if (err)
        sk_log_warn("event=enqueue_deferred req_id=%s job_id=%s err=%s", req->req_id, id,
                    sk_err_str(err));
    sk_log_info("event=job_accepted req_id=%s job_id=%s kind=%s", req->req_id, id, info.kind);
    if (!api_http_json_text(resp, 202, json))
        snprintf(resp->location, sizeof(resp->location), "/v1/jobs/%s", id);
out:
    if (slot)
        api_pool_put(ctx->pool, slot);
    sk_free(json);
    sk_free(text);
    json_decref(doc);
    sk_verr_list_release(&errs);
}

void api_jobs_get(const struct api_ctx *ctx, const struct api_request *req, const char *id,
                  struct api_response *resp)
{
    char *json = NULL;
    char status[16] = "";
    struct api_slot *slot;
    enum sk_err err;

    if (!db_jobs_is_id(id)) {
        not_found(resp, id);
        return;
    }
    if (api_cache_get(ctx->cache, id, &json)) {
        api_http_json_text(resp, 200, json);
        sk_free(json);
        return;
    }
    slot = api_pool_get(ctx->pool);
    err = db_jobs_get(slot->db, id, &json, status);
    api_pool_put(ctx->pool, slot);
    if (!err && db_jobs_is_final(status))
        api_cache_put(ctx->cache, id, json);
    if (err == SK_ENOTFOUND)
        not_found(resp, id);
    else if (err)
        store_problem(resp, err, req->req_id, "get");
    else
        api_http_json_text(resp, 200, json);
    sk_free(json);
}

void api_jobs_result(const struct api_ctx *ctx, const struct api_request *req, const char *id,
                     struct api_response *resp)
{
    char *json = NULL;
    char status[16] = "";
    struct api_slot *slot;
    enum sk_err err;

    if (!db_jobs_is_id(id)) {
        not_found(resp, id);
        return;
    }
    slot = api_pool_get(ctx->pool);
    err = db_jobs_result(slot->db, id, &json, status);
    api_pool_put(ctx->pool, slot);
    if (err == SK_ENOTFOUND) {
        not_found(resp, id);
    } else if (err == SK_ECONFLICT) {
        char detail[96];
        snprintf(detail, sizeof(detail), "the job is %s; a result exists only once it succeeded",
                 status);
        api_http_problem(resp, 409, "job-not-finished", "Conflict", detail,
                         json_pack("{s:s}", "status", status));
    } else if (err) {
        store_problem(resp, err, req->req_id, "result");
    } else {
        api_http_json_text(resp, 200, json);
    }
    sk_free(json);
}

static const char *const statuses[] = {"queued", "running", "succeeded", "failed", "canceled"};

static void bad_query(struct api_response *resp, const char *param, const char *detail)
{
    api_http_problem(resp, 400, "invalid-query", "Bad Request", detail,
                     json_pack("{s:[{s:s, s:s}]}", "errors", "parameter", param, "detail", detail));
}

void api_jobs_list(const struct api_ctx *ctx, const struct api_request *req,
                   struct api_response *resp)
{
    const char *status = api_http_arg(req, "status");
    const char *kind = api_http_arg(req, "kind");
    const char *limit_s = api_http_arg(req, "limit");
    const char *cursor = api_http_arg(req, "cursor");
    char raw[160];
    char *bar = NULL;
    int64_t limit = 20;
    char *json = NULL;
    char *next = NULL;
    struct api_slot *slot;
    enum sk_err err;

    for (size_t i = 0; i < req->n_args; i++) {
        const char *k = req->args[i].key;
        if (strcmp(k, "status") != 0 && strcmp(k, "kind") != 0 && strcmp(k, "limit") != 0 &&
            strcmp(k, "cursor") != 0) {
            bad_query(resp, k, "unknown query parameter");
            return;
        }
    }
    if (status) {
        size_t i;
        for (i = 0; i < 5 && strcmp(status, statuses[i]) != 0; i++)
            ;
        if (i == 5) {
            bad_query(resp, "status",
                      "'status' must be queued, running, succeeded, failed or canceled");
            return;
        }
    }
    if (kind && !ctx->kind_known(kind)) {
        bad_query(resp, "kind", "'kind' names no job kind");
        return;
    }
    if (limit_s && sk_parse_i64(limit_s, 1, ctx->cfg->list_limit_max, &limit)) {
        char detail[64];
        snprintf(detail, sizeof(detail), "'limit' must be an integer in 1..%ld",
                 ctx->cfg->list_limit_max);
        bad_query(resp, "limit", detail);
        return;
    }
    if (cursor) {
        if (api_jobs_cursor_decode(cursor, raw, sizeof(raw)) || !(bar = strchr(raw, '|'))) {
            bad_query(resp, "cursor", "'cursor' is not a cursor this API returned");
            return;
        }
        *bar++ = '\0';
    }
    slot = api_pool_get(ctx->pool);
    err = db_jobs_list(slot->db, status, kind, (int)limit, cursor ? raw : NULL, bar, &json, &next);
    api_pool_put(ctx->pool, slot);
    if (err == SK_EINVAL) {
        bad_query(resp, "cursor", "'cursor' is not a cursor this API returned");
        return;
    }
    if (err) {
        store_problem(resp, err, req->req_id, "list");
        return;
    }
    /* splice "next_cursor" into the {"items":[...]} object db_jobs_list built */
    {
        char enc[256] = "";
        size_t n = strlen(json);
        size_t cap = n + sizeof(enc) + 32;
        char *out = sk_malloc(cap);
        if (next && api_jobs_cursor_encode(next, enc, sizeof(enc)))
            enc[0] = '\0';
        if (out) {
            snprintf(out, cap, "%.*s,\"next_cursor\":%s%s%s}", (int)(n - 1), json,
                     enc[0] ? "\"" : "", enc[0] ? enc : "null", enc[0] ? "\"" : "");
            api_http_json_text(resp, 200, out);
        } else {
            api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
        }
        sk_free(out);
    }
    sk_free(json);
    sk_free(next);
}

void api_jobs_cancel(const struct api_ctx *ctx, const struct api_request *req, const char *id,
                     struct api_response *resp)
{
    char *json = NULL;
    struct api_slot *slot;
    enum sk_err err;

    if (!db_jobs_is_id(id)) {
        not_found(resp, id);
        return;
    }
    slot = api_pool_get(ctx->pool);
    err = db_jobs_cancel(slot->db, id, &json);
    api_pool_put(ctx->pool, slot);
    if (err == SK_ENOTFOUND) {
        not_found(resp, id);
    } else if (err == SK_ECONFLICT) {
        api_http_problem(resp, 409, "job-final", "Conflict", "the job has already finished", NULL);
    } else if (err) {
        store_problem(resp, err, req->req_id, "cancel");
    } else {
        sk_log_info("event=cancel_requested req_id=%s job_id=%s", req->req_id, id);
        api_http_json_text(resp, 202, json);
    }
    sk_free(json);
}
