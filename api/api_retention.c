/* SPDX-License-Identifier: MIT */
/* Retention: delete route and sweeper (see api_retention.h). */
#include "api_retention.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "db_jobs.h"
#include "db_retention.h"
#include "queue.h"
#include "queue_notify.h"
#include "queue_telemetry.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_thread.h"

#include "sk_banned.h"

/* Pause between two batches of a sweep: the database serves requests meanwhile. */
#define BATCH_PAUSE_MS 20

void api_jobs_delete(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp)
{
    const char *id = req->id;
    struct api_slot *slot;
    enum sk_err err;
    char detail[128];

    if (req->n_args) {
        const char *d = "unknown query parameter";
        api_http_problem(
            resp, 400, "invalid-query", "Bad Request", d,
            json_pack("{s:[{s:s, s:s}]}", "errors", "parameter", req->args[0].key, "detail", d));
        return;
    }
    slot = api_pool_get(ctx->pool);
    err = db_retention_delete(slot->db, id, api_http_scope(req));
    if (!err) {
        (void)queue_progress_forget(slot->queue, id);
        (void)queue_publish(slot->queue, id, "deleted"); /* open streams end */
    }
    api_pool_put(ctx->pool, slot);
    if (err == SK_ENOTFOUND) {
        snprintf(detail, sizeof(detail), "no job with id '%.64s'", id);
        api_http_problem(resp, 404, "job-not-found", "Not Found", detail, NULL);
    } else if (err == SK_ECONFLICT) {
        api_http_problem(resp, 409, "job-not-final", "Conflict",
                         "the job has not finished; cancel it first, then delete it", NULL);
    } else if (err) {
        api_http_problem(resp, 503, "unavailable", "Service Unavailable",
                         "the job store is unreachable; retry shortly", NULL);
        resp->retry_after = 1;
        sk_log_error("event=store_error req_id=%s op=delete err=%s", req->req_id, sk_err_str(err));
    } else {
        api_cache_remove(ctx->cache, id);
        sk_log_info("event=job_deleted req_id=%s job_id=%s", req->req_id, id);
        resp->status = 204;
    }
}

/* A deleted job: its progress hash goes, and every API process hears of it (its cache
 * forgets the job, open event streams see it gone). */
static void forget(const char *id, void *arg)
{
    (void)queue_progress_forget(arg, id);
    (void)queue_publish(arg, id, "deleted");
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

enum sk_err api_retention_sweep(const struct sk_config *cfg, struct db *db, struct queue *q,
                                long *deleted)
{
    long n = 0;
    long keys = 0;
    enum sk_err err = SK_OK;

    *deleted = 0;
    for (;;) {
        err = db_retention_sweep(db, cfg->retention_s, cfg->retention_batch, forget, q, &n);
        if (err)
            break;
        *deleted += n;
        if (n < cfg->retention_batch)
            break;
        sleep_ms(BATCH_PAUSE_MS);
    }
    if (!err)
        err = db_jobs_prune_keys(db, cfg->idempotency_ttl_s, &keys);
    if (*deleted || keys)
        sk_log_info("event=retention_swept jobs=%ld idempotency_keys=%ld", *deleted, keys);
    return err;
}

struct api_retention {
    const struct sk_config *cfg;
    struct db *db;            /* the sweeper's own connections, used by its thread only */
    struct queue *q;          /* likewise */
    struct sk_thread sweeper; /* runs run(); stopped before db and q are freed */
};

static void *run(void *arg)
{
    struct api_retention *r = arg;
    while (!sk_thread_stopping(&r->sweeper)) {
        int got = 0;
        long deleted = 0;

        /* the lock lives one period: one process sweeps per period, whichever asks first */
        if (queue_lock(r->q, "retention", r->cfg->retention_every_ms, &got) == SK_OK && got) {
            enum sk_err err = api_retention_sweep(r->cfg, r->db, r->q, &deleted);
            if (err)
                sk_log_warn("event=retention_failed err=%s", sk_err_str(err));
        }
        /* a stop cuts the period short; the loop's test then ends the thread */
        (void)sk_thread_wait_ms(&r->sweeper, r->cfg->retention_every_ms);
    }
    return NULL;
}

enum sk_err api_retention_start(const struct sk_config *cfg, struct api_retention **out)
{
    struct api_retention *r;
    enum sk_err err;

    *out = NULL;
    if (cfg->retention_s == 0)
        return SK_OK;
    r = sk_calloc(1, sizeof(*r));
    if (!r)
        return SK_ENOMEM;
    r->cfg = cfg;
    err = db_new(cfg->database_url, &r->db);
    if (!err)
        err = queue_new(cfg->redis_url, cfg->queue_prefix, &r->q);
    if (err) {
        db_free(r->db);
        sk_free(r);
        return err;
    }
    err = sk_thread_start(&r->sweeper, run, r);
    if (err) {
        queue_free(r->q);
        db_free(r->db);
        sk_free(r);
        return err;
    }
    *out = r;
    return SK_OK;
}

void api_retention_stop(struct api_retention *r)
{
    if (!r)
        return;
    sk_thread_stop(&r->sweeper);
    queue_free(r->q);
    db_free(r->db);
    sk_free(r);
}
