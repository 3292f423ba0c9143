/* SPDX-License-Identifier: MIT */
/* Job routes (see api_jobs.h). */
#include "api_jobs.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "api_quota.h"
#include "api_render.h"
#include "api_watch.h"
#include "db_jobs.h"
#include "queue_fair.h"
#include "queue_notify.h"
#include "sk_buf.h"
#include "sk_json.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_parse.h"
#include "sk_time.h"

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
    if (err == SK_EUNAVAIL || err == SK_ERETRY) {
        /* a deadlock with another request is as passing as an outage: retry */
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

int api_jobs_parse_key(const char *value, char out[256])
{
    size_t n;
    const char *v = value;

    if (!v)
        return -1;
    n = strlen(v);
    /* a structured-field string (the draft's form) or, leniently, the bare key */
    if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
        v++;
        n -= 2;
        if (memchr(v, '"', n) || memchr(v, '\\', n))
            return -1; /* escapes are never needed in a key: refuse rather than guess */
    }
    if (n == 0 || n > 255)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (v[i] < 0x20 || v[i] > 0x7e)
            return -1;
    memcpy(out, v, n);
    out[n] = '\0';
    return 0;
}

static void bad_key(struct api_response *resp)
{
    const char *detail =
        "'Idempotency-Key' must be 1 to 255 printable ASCII characters, quoted or bare";
    api_http_problem(
        resp, 400, "invalid-header", "Bad Request", detail,
        json_pack("{s:[{s:s, s:s}]}", "errors", "header", "Idempotency-Key", "detail", detail));
}

/* Prunes expired idempotency keys at most once a minute per process. */
static void maybe_prune(const struct api_ctx *ctx, struct api_slot *slot, const char *req_id)
{
    static atomic_llong next_ms;
    long long now = sk_time_mono_ms();
    long long due = atomic_load(&next_ms);
    long deleted = 0;
    if (now < due || !atomic_compare_exchange_strong(&next_ms, &due, now + 60000))
        return;
    if (db_jobs_prune_keys(slot->db, ctx->cfg->idempotency_ttl_s, &deleted) == SK_OK && deleted)
        sk_log_info("event=idempotency_pruned req_id=%s keys=%ld", req_id, deleted);
}

/* Sets the job resource `json` as the body with its ETag, and Retry-After while the job
 * is not final. */
static void job_body(struct api_response *resp, int status, const char *json)
{
    json_t *doc = json_loads(json, 0, NULL);
    const char *st = json_string_value(json_object_get(doc, "status"));
    if (api_http_json_text(resp, status, json) == 0) {
        api_http_etag(json, strlen(json), resp->etag);
        if (!st || !db_jobs_is_final(st))
            resp->retry_after = 1;
    }
    json_decref(doc);
}

/* Commits the validated job `text` (with an Idempotency-Key when `key` is non-NULL, whose
 * document in canonical form is `canonical`), enqueues it and sets the answer. */
static void store_and_answer(const struct api_ctx *ctx, const struct api_request *req,
                             const char *key, const char *canonical,
                             const struct api_job_info *info, const char *text,
                             struct api_response *resp)
{
    enum db_keyed outcome = DB_KEYED_NEW;
    struct db_job job = {0};
    char *json = NULL;
    const char *id = job.id;
    struct api_slot *slot = api_pool_get(ctx->pool);
    enum sk_err err;

    if (api_quota_admit(ctx, req, slot, info->total, info->cost_ms, resp))
        goto out;
    if (key) {
        maybe_prune(ctx, slot, req->req_id);
        err = db_jobs_insert_keyed(slot->db, req->tenant, key, canonical,
                                   ctx->cfg->idempotency_ttl_s, info->kind, text, info->seed,
                                   info->total, info->cost_ms, &job, &outcome);
        if (err == SK_ECONFLICT) /* the key expired between the statements: once more */
            err = db_jobs_insert_keyed(slot->db, req->tenant, key, canonical,
                                       ctx->cfg->idempotency_ttl_s, info->kind, text, info->seed,
                                       info->total, info->cost_ms, &job, &outcome);
    } else if (ctx->batch) {
        err = api_batch_insert(ctx->batch, req->tenant, info->kind, text, info->seed, info->total,
                               info->cost_ms, &job);
    } else {
        err = db_jobs_insert(slot->db, req->tenant, info->kind, text, info->seed, info->total,
                             info->cost_ms, &job);
    }
    if (!err && !(json = api_render_job_text(&job)))
        err = SK_ENOMEM;
    /* no new job: the units counted against the tenant's day go back */
    if (err || outcome != DB_KEYED_NEW)
        api_quota_undo(ctx, req, slot, info->total);
    if (err) {
        store_problem(resp, err, req->req_id, "insert");
        goto out;
    }
    if (outcome == DB_KEYED_MISMATCH) {
        api_http_problem(resp, 422, "idempotency-key-reused", "Unprocessable Content",
                         "this Idempotency-Key was used with another document",
                         json_pack("{s:[{s:s, s:s}]}", "errors", "header", "Idempotency-Key",
                                   "detail", "the key names another job's document"));
        goto out;
    }
    if (outcome == DB_KEYED_REPLAY) {
        sk_log_info("event=job_replayed req_id=%s job_id=%s", req->req_id, id);
        job_body(resp, 200, json);
        snprintf(resp->location, sizeof(resp->location), "/v1/jobs/%s", id);
        goto out;
    }
    /* The row is committed: the job is accepted even if Redis is down now, because the
     * reconciler re-enqueues queued rows that never reached the stream. */
    err = queue_fair_add(slot->queue, job.tenant[0] ? job.tenant : DB_JOBS_TENANT, id, 1);
    if (err)
        sk_log_warn("event=enqueue_deferred req_id=%s job_id=%s err=%s", req->req_id, id,
                    sk_err_str(err));
    else /* the event stream of every job (GET /v1/events) shows the new job */
        (void)queue_publish(slot->queue, id, "status");
    api_quota_estimated(slot, info->cost_ms);
    sk_log_info("event=job_accepted req_id=%s job_id=%s kind=%s cost_ms=%lld sampled=%llu",
                req->req_id, id, info->kind, info->cost_ms, (unsigned long long)info->cost_sampled);
    job_body(resp, 202, json);
    if (resp->status == 202)
        snprintf(resp->location, sizeof(resp->location), "/v1/jobs/%s", id);
out:
    api_pool_put(ctx->pool, slot);
    db_job_release(&job);
    sk_free(json);
}

void api_jobs_submit(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp)
{
    char key[256];
    char *canonical = NULL;
    json_t *doc = NULL;
    json_error_t jerr;
    struct sk_verr_list errs;
    struct api_job_info info = {0};
    char *text = NULL;
    enum sk_err err;

    sk_verr_list_init(&errs);
    if (req->body_too_large) {
        char detail[96];
        snprintf(detail, sizeof(detail), "the body exceeds %ld bytes", ctx->cfg->max_body_bytes);
        api_http_problem(resp, 413, "body-too-large", "Content Too Large", detail,
                         json_pack("{s:I}", "max_bytes", (json_int_t)ctx->cfg->max_body_bytes));
        goto out;
    }
    if (req->idempotency_key && api_jobs_parse_key(req->idempotency_key, key)) {
        bad_key(resp);
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
    /* The key compares documents as sent (before a seed is drawn), in a canonical form so
     * that key order and spacing do not matter. */
    if (req->idempotency_key && !(canonical = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS))) {
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
        goto out;
    }
    /* Record the seed actually used and the card catalog the names meant, so the stored
     * request alone reproduces the result, on any worker, after any catalog refresh. */
    if (json_object_set_new(doc, "seed", json_integer((json_int_t)info.seed)) ||
        (info.catalog[0] && json_object_set_new(doc, "catalog", json_string(info.catalog))) ||
        !(text = json_dumps(doc, JSON_COMPACT))) {
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
        goto out;
    }
    store_and_answer(ctx, req, req->idempotency_key ? key : NULL, canonical, &info, text, resp);
out:
    sk_free(canonical);
    sk_free(text);
    json_decref(doc);
    sk_verr_list_release(&errs);
}

static void bad_query(struct api_response *resp, const char *param, const char *detail);

/* Reads job `id` (the final-job cache first) into *json and its status. */
static enum sk_err read_job(const struct api_ctx *ctx, const char *id, char **json, char status[16])
{
    struct db_job job = {0};
    struct api_slot *slot;
    enum sk_err err;
    if (api_cache_get(ctx->cache, id, json)) {
        json_t *doc = json_loads(*json, 0, NULL);
        snprintf(status, 16, "%s", json_string_value(json_object_get(doc, "status")));
        json_decref(doc);
        return SK_OK;
    }
    slot = api_pool_get(ctx->pool);
    err = db_jobs_get(slot->db, id, &job);
    api_pool_put(ctx->pool, slot);
    if (!err && !(*json = api_render_job_text(&job)))
        err = SK_ENOMEM;
    if (!err) {
        snprintf(status, 16, "%s", job.status);
        if (db_jobs_is_final(status))
            api_cache_put(ctx->cache, id, *json);
    }
    db_job_release(&job);
    return err;
}

/* Reads job `id` for a handler: answers 404 for a malformed or unknown id and a store
 * problem (503/500) for `what` on other failures, then returns -1; on success returns 0
 * with *json (caller frees) and status set. */
static int load_job(const struct api_ctx *ctx, const struct api_request *req,
                    struct api_response *resp, const char *id, const char *what, char **json,
                    char status[16])
{
    enum sk_err err;

    if (!db_jobs_is_id(id)) {
        not_found(resp, id);
        return -1;
    }
    err = read_job(ctx, id, json, status);
    if (err == SK_ENOTFOUND) {
        not_found(resp, id);
        return -1;
    }
    if (err) {
        store_problem(resp, err, req->req_id, what);
        return -1;
    }
    return 0;
}

void api_jobs_get(const struct api_ctx *ctx, const struct api_request *req,
                  struct api_response *resp)
{
    const char *id = req->id;
    char *json = NULL;
    char status[16] = "";
    char etag[24];
    const char *wait_s = api_http_arg(req, "wait");
    int64_t wait = 0;
    int final;

    for (size_t i = 0; i < req->n_args; i++)
        if (strcmp(req->args[i].key, "wait") != 0) {
            bad_query(resp, req->args[i].key, "unknown query parameter");
            return;
        }
    if (wait_s && sk_parse_i64(wait_s, 0, API_JOBS_WAIT_MAX, &wait)) {
        bad_query(resp, "wait", "'wait' must be a whole number of seconds in 0..60");
        return;
    }
    if (load_job(ctx, req, resp, id, "get", &json, status))
        return;
    api_http_etag(json, strlen(json), etag);
    final = db_jobs_is_final(status);
    if (!final && ctx->watch) {
        int unchanged = 0;
        long long deadline = 0;
        if (req->wait_deadline_ms) { /* resumed: changed since the first pass? */
            unchanged = req->wait_ref && strcmp(req->wait_ref, etag) == 0;
            deadline = req->wait_deadline_ms;
        } else if (wait > 0) {
            /* the reference is the client's ETag when it sent one, else the state now */
            unchanged = !req->if_none_match || api_http_etag_match(req->if_none_match, etag);
            deadline = req->now_ms + wait * 1000;
        }
        if (unchanged && req->now_ms < deadline) {
            resp->wait = 1;
            resp->wait_deadline_ms = deadline;
            snprintf(resp->wait_job, sizeof(resp->wait_job), "%s", id);
            snprintf(resp->wait_ref, sizeof(resp->wait_ref), "%s", etag);
            sk_free(json);
            return;
        }
    }
    if (api_http_etag_match(req->if_none_match, etag)) {
        resp->status = 304;
        memcpy(resp->etag, etag, sizeof(etag));
        if (!final)
            resp->retry_after = 1;
    } else {
        job_body(resp, 200, json);
    }
    sk_free(json);
}

/* Appends one server-sent event to `b`; failures stay in b->err. */
static void add_event(struct sk_buf *b, const char *id, const char *event, const char *data)
{
    (void)sk_buf_printf(b, "id: %s\nevent: %s\ndata: %s\n\n", id, event, data);
}

/* The events in `b` as a new string, or NULL when there are none; -1 when out of memory. */
static int take_events(struct sk_buf *b, char **text)
{
    if (b->err)
        return -1;
    *text = b->len ? sk_buf_take(b) : NULL;
    return 0;
}

int api_jobs_events_next(const struct api_ctx *ctx, const char *id, char etag[24], char status[16],
                         unsigned long long *done, char **text)
{
    char *json = NULL;
    char st[16] = "";
    char now[24];
    struct sk_buf buf;
    json_t *doc = NULL;
    json_t *prog;
    unsigned long long d;
    int rc = -1;

    sk_buf_init(&buf, 0);

    if (read_job(ctx, id, &json, st))
        goto out;
    api_http_etag(json, strlen(json), now);
    rc = 0;
    if (strcmp(now, etag) == 0)
        goto out;
    doc = json_loads(json, 0, NULL);
    prog = json_object_get(doc, "progress");
    d = (unsigned long long)json_integer_value(json_object_get(prog, "done"));
    if (d != *done) {
        /* done and total, and the kind's detail when it has one (docs/optimize.md) */
        json_t *ev = json_pack("{s:I, s:I}", "done", (json_int_t)d, "total",
                               json_integer_value(json_object_get(prog, "total")));
        char *data = NULL;
        if (ev && json_object_get(prog, "detail"))
            (void)json_object_set(ev, "detail", json_object_get(prog, "detail"));
        data = ev ? json_dumps(ev, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
        json_decref(ev);
        if (!data) {
            rc = -1;
            goto out;
        }
        add_event(&buf, now, "progress", data);
        sk_free(data);
    }
    /* any change besides progress (status, attempts, cancel_requested, error) */
    if (strcmp(st, status) != 0 || d == *done)
        add_event(&buf, now, "status", json);
    rc = take_events(&buf, text);
    if (!rc) {
        memcpy(etag, now, 24);
        snprintf(status, 16, "%s", st);
        *done = d;
    }
out:
    json_decref(doc);
    sk_buf_release(&buf);
    sk_free(json);
    return rc;
}

void api_jobs_events(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp)
{
    const char *id = req->id;
    char *json = NULL;
    char status[16] = "";
    char etag[24];
    char *text = NULL;
    struct sk_buf buf;
    json_t *doc = NULL;

    sk_buf_init(&buf, 0);
    if (req->n_args) {
        bad_query(resp, req->args[0].key, "unknown query parameter");
        return;
    }
    if (load_job(ctx, req, resp, id, "events", &json, status))
        return;
    api_http_etag(json, strlen(json), etag);
    doc = json_loads(json, 0, NULL);
    resp->sse_done = (unsigned long long)json_integer_value(
        json_object_get(json_object_get(doc, "progress"), "done"));
    /* the client saw this very state already (a reconnect): skip the first event */
    if (!api_http_etag_match(req->last_event_id, etag))
        add_event(&buf, etag, "status", json);
    if (take_events(&buf, &text)) {
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
        goto out;
    }
    resp->status = 200;
    resp->content_type = "text/event-stream";
    resp->body = text;
    resp->body_len = text ? strlen(text) : 0;
    text = NULL;
    resp->sse = 1;
    snprintf(resp->wait_job, sizeof(resp->wait_job), "%s", id);
    snprintf(resp->wait_ref, sizeof(resp->wait_ref), "%s", etag);
    snprintf(resp->sse_status, sizeof(resp->sse_status), "%s", status);
out:
    json_decref(doc);
    sk_buf_release(&buf);
    sk_free(text);
    sk_free(json);
}

void api_jobs_result(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp)
{
    const char *id = req->id;
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
                         json_pack("{s:s}", "job_status", status));
    } else if (err) {
        store_problem(resp, err, req->req_id, "result");
    } else {
        api_http_json_text(resp, 200, json);
    }
    sk_free(json);
}

static void bad_query(struct api_response *resp, const char *param, const char *detail)
{
    api_http_problem(resp, 400, "invalid-query", "Bad Request", detail,
                     json_pack("{s:[{s:s, s:s}]}", "errors", "parameter", param, "detail", detail));
}

/* {"items": [...], "next_cursor": "..."|null}: the cursor names the last item (created_at and
 * id) when more follow. */
static void list_body(struct api_response *resp, const struct db_job *items, size_t n, int more)
{
    json_t *arr = json_array();
    json_t *doc = NULL;
    char *text = NULL;
    char enc[256] = "";

    for (size_t i = 0; arr && i < n; i++)
        if (json_array_append_new(arr, api_render_job(&items[i]))) {
            json_decref(arr);
            arr = NULL;
        }
    if (more && n) {
        char raw[DB_JOBS_TS_LEN + DB_JOBS_ID_LEN + 1];
        snprintf(raw, sizeof(raw), "%s|%s", items[n - 1].created_at, items[n - 1].id);
        if (api_jobs_cursor_encode(raw, enc, sizeof(enc)))
            enc[0] = '\0';
    }
    if (arr)
        doc = json_pack("{s:o, s:o}", "items", arr, "next_cursor",
                        enc[0] ? json_string(enc) : json_null());
    text = doc ? sk_json_text(doc) : NULL;
    if (text)
        api_http_json_text(resp, 200, text);
    else
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
    sk_free(text);
    json_decref(doc);
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
    struct db_job *items = NULL;
    size_t n_items = 0;
    int more = 0;
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
        for (i = 0; i < DB_JOBS_N_STATUS && strcmp(status, db_jobs_statuses[i]) != 0; i++)
            ;
        if (i == DB_JOBS_N_STATUS) {
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
    err = db_jobs_list(slot->db, api_http_scope(req), status, kind, (int)limit, cursor ? raw : NULL,
                       bar, &items, &n_items, &more);
    api_pool_put(ctx->pool, slot);
    if (err == SK_EINVAL) {
        bad_query(resp, "cursor", "'cursor' is not a cursor this API returned");
        return;
    }
    if (err) {
        store_problem(resp, err, req->req_id, "list");
        return;
    }
    list_body(resp, items, n_items, more);
    db_jobs_free(items, n_items);
}

/* A store connection for a handler acting on job `id`, or NULL after answering 404 for a
 * malformed id (which no job has). Give it back with api_pool_put. */
static struct api_slot *slot_for(const struct api_ctx *ctx, const char *id,
                                 struct api_response *resp)
{
    if (!db_jobs_is_id(id)) {
        not_found(resp, id);
        return NULL;
    }
    return api_pool_get(ctx->pool);
}

/* Answers the failure `err` of `what` on job `id`: 404, the 409 `slug` with `detail`, or a
 * store problem. Returns 1 when it answered, 0 for SK_OK. */
static int answer_error(struct api_response *resp, enum sk_err err, const char *id,
                        const char *req_id, const char *what, const char *slug, const char *detail)
{
    if (err == SK_ENOTFOUND)
        not_found(resp, id);
    else if (err == SK_ECONFLICT && slug)
        api_http_problem(resp, 409, slug, "Conflict", detail, NULL);
    else if (err)
        store_problem(resp, err, req_id, what);
    return err != SK_OK;
}

void api_jobs_cancel(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp)
{
    const char *id = req->id;
    struct db_job job = {0};
    char *json = NULL;
    struct api_slot *slot = slot_for(ctx, id, resp);
    enum sk_err err;

    if (!slot)
        return;
    err = db_jobs_cancel(slot->db, id, &job);
    if (!err && !(json = api_render_job_text(&job)))
        err = SK_ENOMEM;
    if (!err) /* waiters and event streams see the change at once */
        (void)queue_publish(slot->queue, id, "status");
    api_pool_put(ctx->pool, slot);
    if (!answer_error(resp, err, id, req->req_id, "cancel", "job-final",
                      "the job has already finished")) {
        sk_log_info("event=cancel_requested req_id=%s job_id=%s", req->req_id, id);
        job_body(resp, 202, json);
    }
    db_job_release(&job);
    sk_free(json);
}

/* ===== Operator actions: the submitted document, retry, bulk cancel ===== */

void api_jobs_document(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp)
{
    const char *id = req->id;
    char *json = NULL;
    struct api_slot *slot = slot_for(ctx, id, resp);
    enum sk_err err;

    if (!slot)
        return;
    err = db_jobs_document(slot->db, id, &json);
    api_pool_put(ctx->pool, slot);
    if (!answer_error(resp, err, id, req->req_id, "document", NULL, NULL))
        api_http_json_text(resp, 200, json);
    sk_free(json);
}

void api_jobs_retry(const struct api_ctx *ctx, const struct api_request *req,
                    struct api_response *resp)
{
    const char *id = req->id;
    struct db_job job = {0}, orig = {0};
    char *json = NULL;
    const char *new_id = job.id;
    struct api_slot *slot = slot_for(ctx, id, resp);
    uint64_t units = 0;
    long long cost_ms = -1;
    int taken = 0;
    enum sk_err err;

    if (!slot)
        return;
    /* A retry makes a new job: admitted as a submission is (job size, active jobs, units
     * of the day), counted against the caller's tenant. A job that cannot be read is left
     * for the resubmit to answer (not found, not final). */
    if (db_jobs_get(slot->db, id, &orig) == SK_OK) {
        units = orig.total > 0 ? (uint64_t)orig.total : 0;
        cost_ms = orig.cost_estimate_ms;
        if (api_quota_admit(ctx, req, slot, units, cost_ms, resp)) {
            api_pool_put(ctx->pool, slot);
            db_job_release(&orig);
            return;
        }
        taken = 1;
    }
    db_job_release(&orig);
    err = db_jobs_resubmit(slot->db, id, &job);
    if (err && taken) /* no new job: the units go back */
        api_quota_undo(ctx, req, slot, units);
    if (!err && !(json = api_render_job_text(&job)))
        err = SK_ENOMEM;
    /* As for a submission: the row is committed, the reconciler enqueues it if this fails. */
    if (!err && queue_fair_add(slot->queue, job.tenant[0] ? job.tenant : DB_JOBS_TENANT, new_id, 1))
        sk_log_warn("event=enqueue_deferred req_id=%s job_id=%s", req->req_id, new_id);
    else if (!err)
        (void)queue_publish(slot->queue, new_id, "status");
    if (!err)
        api_quota_estimated(slot, cost_ms);
    api_pool_put(ctx->pool, slot);
    if (!answer_error(resp, err, id, req->req_id, "retry", "job-not-final",
                      "the job has not finished; only a final job can be retried")) {
        sk_log_info("event=job_retried req_id=%s job_id=%s retry_of=%s", req->req_id, new_id, id);
        job_body(resp, 202, json);
        if (resp->status == 202)
            snprintf(resp->location, sizeof(resp->location), "/v1/jobs/%s", new_id);
    }
    db_job_release(&job);
    sk_free(json);
}

void api_jobs_cancel_many(const struct api_ctx *ctx, const struct api_request *req,
                          struct api_response *resp)
{
    const char *status = api_http_arg(req, "status");
    const char *kind = api_http_arg(req, "kind");
    const char *limit_s = api_http_arg(req, "limit");
    int64_t limit = 1000;
    char **ids = NULL;
    size_t n = 0;
    json_t *doc = NULL;
    json_t *arr = NULL;
    char *text = NULL;
    struct api_slot *slot;
    enum sk_err err;

    for (size_t i = 0; i < req->n_args; i++) {
        const char *k = req->args[i].key;
        if (strcmp(k, "status") != 0 && strcmp(k, "kind") != 0 && strcmp(k, "limit") != 0) {
            bad_query(resp, k, "unknown query parameter");
            return;
        }
    }
    /* Only queued jobs are canceled in bulk: a running job stops at its next chunk and is
     * canceled one at a time (POST /v1/jobs/{id}:cancel), so an operator sees each one. */
    if (!status || strcmp(status, "queued") != 0) {
        bad_query(resp, "status", "'status' must be queued (bulk cancel takes queued jobs)");
        return;
    }
    if (kind && !ctx->kind_known(kind)) {
        bad_query(resp, "kind", "'kind' names no job kind");
        return;
    }
    if (limit_s && sk_parse_i64(limit_s, 1, 10000, &limit)) {
        bad_query(resp, "limit", "'limit' must be an integer in 1..10000");
        return;
    }
    slot = api_pool_get(ctx->pool);
    err = db_jobs_cancel_queued(slot->db, api_http_scope(req), kind, (long)limit, &ids, &n);
    for (size_t i = 0; !err && i < n; i++) /* waiters and event streams see it at once */
        (void)queue_publish(slot->queue, ids[i], "status");
    api_pool_put(ctx->pool, slot);
    if (err) {
        store_problem(resp, err, req->req_id, "cancel_queued");
        goto out;
    }
    arr = json_array();
    for (size_t i = 0; arr && i < n; i++)
        json_array_append_new(arr, json_string(ids[i]));
    doc = arr ? json_pack("{s:I, s:O}", "canceled", (json_int_t)n, "ids", arr) : NULL;
    text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    if (!text) {
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
        goto out;
    }
    sk_log_info("event=jobs_canceled req_id=%s kind=%s count=%zu", req->req_id, kind ? kind : "any",
                n);
    api_http_json_text(resp, 200, text);
out:
    sk_free(text);
    json_decref(doc);
    json_decref(arr);
    db_jobs_free_ids(ids);
}

void api_jobs_feed(const struct api_ctx *ctx, const struct api_request *req,
                   struct api_response *resp)
{
    (void)ctx;
    if (req->n_args) {
        bad_query(resp, req->args[0].key, "unknown query parameter");
        return;
    }
    resp->status = 200;
    resp->content_type = "text/event-stream";
    /* sent at once, so a client knows the stream is live before any job changes */
    resp->body = sk_strdup(": every job's changes from now on\n\n");
    if (!resp->body) {
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
        return;
    }
    resp->body_len = strlen(resp->body);
    resp->sse = 1;
    snprintf(resp->wait_job, sizeof(resp->wait_job), "*");
}

int api_jobs_feed_events(const struct api_ctx *ctx, const char (*ids)[40], size_t n, int reset,
                         char **text)
{
    struct sk_buf buf;
    int missed = 0;
    int rc;

    sk_buf_init(&buf, 0);
    /* no event ids: the feed cannot be resumed from one, a reconnecting client reloads */
    if (reset)
        (void)sk_buf_printf(&buf, "event: reset\ndata: {}\n\n");
    for (size_t i = 0; i < n; i++) {
        char *json = NULL;
        char st[16];
        enum sk_err err = read_job(ctx, ids[i], &json, st);
        if (err == SK_OK)
            (void)sk_buf_printf(&buf, "event: job\ndata: %s\n\n", json);
        else if (err != SK_ENOTFOUND)
            missed = 1; /* the store is away: the client reloads once it is back */
        sk_free(json);
    }
    if (missed)
        (void)sk_buf_printf(&buf, "event: reset\ndata: {}\n\n");
    rc = take_events(&buf, text);
    sk_buf_release(&buf);
    return rc;
}
