/* SPDX-License-Identifier: MIT */
/* Dashboard routes (see api_stats.h). */
#include "api_stats.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "api_metrics.h"
#include "api_render.h"
#include "api_watch.h"
#include "db_jobs.h"
#include "job.h"
#include "queue_limit.h"
#include "queue_telemetry.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

/* What both routes read from the stores. */
struct figures {
    long long counts[DB_JOBS_N_STATUS];
    long long stream_length;
    long long games_window; /* games of the last 60 whole seconds */
    long long games_total;
    long long cpu_ms_total;      /* CPU charged to jobs by every worker */
    long long estimate_ms_total; /* the estimates of the jobs admitted */
    json_t *workers;             /* array of heartbeat objects */
    struct db_job *running;      /* /v1/stats only */
    size_t n_running;
};

static void add_worker(const char *text, void *arg)
{
    json_t *w = json_loads(text, 0, NULL);
    if (json_is_object(w))
        json_array_append(arg, w);
    json_decref(w);
}

/* Reads the figures with one pool slot; SK_OK or the first store error. */
static enum sk_err read_figures(const struct api_ctx *ctx, int with_running, struct figures *f)
{
    struct api_slot *slot = api_pool_get(ctx->pool);
    enum sk_err err;

    memset(f, 0, sizeof(*f));
    f->workers = json_array();
    if (!f->workers) {
        api_pool_put(ctx->pool, slot);
        return SK_ENOMEM;
    }
    err = db_jobs_counts(slot->db, f->counts);
    if (!err && with_running)
        err = db_jobs_running(slot->db, 100, &f->running, &f->n_running);
    if (!err)
        err = queue_length(slot->queue, &f->stream_length);
    if (!err)
        err = queue_workers(slot->queue, add_worker, f->workers);
    if (!err)
        err = queue_games_read(slot->queue, (long long)time(NULL), 60, &f->games_window,
                               &f->games_total);
    if (!err)
        err = queue_limit_cpu_totals(slot->queue, &f->cpu_ms_total, &f->estimate_ms_total);
    api_pool_put(ctx->pool, slot);
    return err;
}

static void release_figures(struct figures *f)
{
    json_decref(f->workers);
    db_jobs_free(f->running, f->n_running);
}

static void unavailable(struct api_response *resp, enum sk_err err, const char *req_id)
{
    api_http_problem(resp, 503, "unavailable", "Service Unavailable",
                     "a job store is unreachable; retry shortly", NULL);
    resp->retry_after = 1;
    sk_log_warn("event=store_error req_id=%s op=stats err=%s", req_id, sk_err_str(err));
}

static int no_args(const struct api_request *req, struct api_response *resp)
{
    if (!req->n_args)
        return 1;
    api_http_problem(resp, 400, "invalid-query", "Bad Request", "unknown query parameter",
                     json_pack("{s:[{s:s, s:s}]}", "errors", "parameter", req->args[0].key,
                               "detail", "unknown query parameter"));
    return 0;
}

/* {"current": the card catalog this API pins new jobs to, "workers_with_it": how many live
 * workers list it}: a deployment whose workers lack the API's catalog queues jobs nobody
 * runs (docs/cards.md, "Catalogs pinned per job"). JSON null on allocation failure. */
static json_t *catalog_figures(const json_t *workers)
{
    json_t *mine = job_catalogs();
    const char *current = json_string_value(json_array_get(mine, 0));
    json_t *w, *h, *out;
    size_t i, j;
    long with = 0;

    json_array_foreach(workers, i, w)
    {
        int has = 0;
        json_array_foreach(json_object_get(w, "catalogs"), j, h)
        {
            has |= current && json_is_string(h) && strcmp(json_string_value(h), current) == 0;
        }
        with += has;
    }
    out = json_pack("{s:s?, s:I}", "current", current, "workers_with_it", (json_int_t)with);
    json_decref(mine);
    return out ? out : json_null();
}

void api_stats_get(const struct api_ctx *ctx, const struct api_request *req,
                   struct api_response *resp)
{
    struct figures f;
    json_t *doc = NULL;
    json_t *jobs = NULL;
    json_t *running = NULL;
    char *text = NULL;
    char now[40];
    struct tm tm;
    time_t t = time(NULL);
    enum sk_err err;

    if (!no_args(req, resp))
        return;
    err = read_figures(ctx, 1, &f);
    if (err) {
        unavailable(resp, err, req->req_id);
        goto out;
    }
    gmtime_r(&t, &tm);
    (void)strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
    jobs = json_object();
    for (int s = 0; jobs && s < DB_JOBS_N_STATUS; s++)
        json_object_set_new(jobs, db_jobs_statuses[s], json_integer(f.counts[s]));
    running = json_array();
    for (size_t i = 0; running && i < f.n_running; i++)
        json_array_append_new(running, api_render_running(&f.running[i]));
    doc = json_pack("{s:s, s:I, s:I, s:O, s:O, s:O, s:f, s:I}", "generated_at", now, "queue_depth",
                    (json_int_t)f.counts[0], "stream_length", (json_int_t)f.stream_length, "jobs",
                    jobs, "running", running, "workers", f.workers, "games_per_second",
                    (double)f.games_window / 60.0, "games_last_minute", (json_int_t)f.games_window);
    if (doc && json_object_set_new(doc, "catalog", catalog_figures(f.workers))) {
        json_decref(doc);
        doc = NULL;
    }
    text = doc ? json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
    if (text)
        api_http_json_text(resp, 200, text);
    else
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
out:
    sk_free(text);
    json_decref(doc);
    json_decref(jobs);
    json_decref(running);
    release_figures(&f);
}

void api_stats_metrics(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp)
{
    struct figures f;
    struct sk_buf b;
    struct api_slot *slot;
    enum sk_err err;

    if (!no_args(req, resp))
        return;
    sk_buf_init(&b, 0);
    err = read_figures(ctx, 0, &f);
    if (err) {
        unavailable(resp, err, req->req_id);
        release_figures(&f);
        return;
    }
    api_metrics_render(ctx->metrics, &b);
    (void)sk_buf_printf(&b,
                        "# HELP skirmish_queue_depth Jobs queued in PostgreSQL.\n"
                        "# TYPE skirmish_queue_depth gauge\nskirmish_queue_depth %lld\n",
                        f.counts[0]);
    (void)sk_buf_printf(&b,
                        "# HELP skirmish_stream_length Entries in the Redis job stream.\n"
                        "# TYPE skirmish_stream_length gauge\nskirmish_stream_length %lld\n",
                        f.stream_length);
    (void)sk_buf_printf(&b, "# HELP skirmish_jobs Jobs by status.\n# TYPE skirmish_jobs gauge\n");
    for (int s = 0; s < DB_JOBS_N_STATUS; s++)
        (void)sk_buf_printf(&b, "skirmish_jobs{status=\"%s\"} %lld\n", db_jobs_statuses[s],
                            f.counts[s]);
    (void)sk_buf_printf(&b,
                        "# HELP skirmish_workers_alive Workers whose heartbeat is current.\n"
                        "# TYPE skirmish_workers_alive gauge\nskirmish_workers_alive %zu\n",
                        json_array_size(f.workers));
    {
        json_t *cat = catalog_figures(f.workers);
        (void)sk_buf_printf(&b,
                            "# HELP skirmish_workers_with_catalog Live workers that can run jobs "
                            "on this API's current card catalog.\n"
                            "# TYPE skirmish_workers_with_catalog gauge\n"
                            "skirmish_workers_with_catalog %lld\n",
                            (long long)json_integer_value(json_object_get(cat, "workers_with_it")));
        json_decref(cat);
    }
    (void)sk_buf_printf(&b,
                        "# HELP skirmish_games_simulated_total Battle games simulated by every "
                        "worker.\n# TYPE skirmish_games_simulated_total counter\n"
                        "skirmish_games_simulated_total %lld\n",
                        f.games_total);
    (void)sk_buf_printf(&b,
                        "# HELP skirmish_cpu_seconds_total CPU seconds workers spent on jobs, "
                        "charged to their tenants.\n# TYPE skirmish_cpu_seconds_total counter\n"
                        "skirmish_cpu_seconds_total %.3f\n"
                        "# HELP skirmish_cpu_estimate_seconds_total The API's CPU estimates of "
                        "the jobs it admitted.\n# TYPE skirmish_cpu_estimate_seconds_total "
                        "counter\nskirmish_cpu_estimate_seconds_total %.3f\n",
                        (double)f.cpu_ms_total / 1000.0, (double)f.estimate_ms_total / 1000.0);
    (void)sk_buf_printf(&b,
                        "# HELP skirmish_waiters_open Long polls and event streams open in this "
                        "process.\n# TYPE skirmish_waiters_open gauge\nskirmish_waiters_open %zu\n",
                        ctx->watch ? api_watch_open(ctx->watch) : 0);
    (void)sk_buf_printf(&b, "# HELP skirmish_job_duration_seconds Time from claim to the end of an "
                            "attempt that finished the job, by kind.\n"
                            "# TYPE skirmish_job_duration_seconds histogram\n");
    slot = api_pool_get(ctx->pool);
    for (size_t k = 0; !err && k < job_kind_count(); k++) {
        const char *kind = job_kind_at(k);
        uint64_t counts[QUEUE_JOB_SECONDS_N + 1];
        uint64_t cum = 0;
        double sum = 0;
        char name[64];
        snprintf(name, sizeof(name), "job_seconds:%s", kind);
        err = queue_hist_read(slot->queue, name, counts, QUEUE_JOB_SECONDS_N + 1, &sum);
        for (size_t i = 0; !err && i < QUEUE_JOB_SECONDS_N; i++) {
            cum += counts[i];
            (void)sk_buf_printf(
                &b, "skirmish_job_duration_seconds_bucket{kind=\"%s\",le=\"%g\"} %llu\n", kind,
                queue_job_seconds_bounds[i], (unsigned long long)cum);
        }
        if (!err) {
            cum += counts[QUEUE_JOB_SECONDS_N];
            (void)sk_buf_printf(
                &b,
                "skirmish_job_duration_seconds_bucket{kind=\"%s\",le=\"+Inf\"} %llu\n"
                "skirmish_job_duration_seconds_sum{kind=\"%s\"} %.6f\n"
                "skirmish_job_duration_seconds_count{kind=\"%s\"} %llu\n",
                kind, (unsigned long long)cum, kind, sum, kind, (unsigned long long)cum);
        }
    }
    api_pool_put(ctx->pool, slot);
    if (err) {
        unavailable(resp, err, req->req_id);
    } else if (b.err) {
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
    } else {
        resp->status = 200;
        resp->content_type = "text/plain; version=0.0.4; charset=utf-8";
        resp->body_len = b.len;
        resp->body = sk_buf_take(&b);
    }
    sk_buf_release(&b);
    release_figures(&f);
}

void api_stats_history(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp)
{
    const char *minutes_s = api_http_arg(req, "minutes");
    int64_t minutes = 60;
    char *json = NULL;
    struct api_slot *slot;
    enum sk_err err;

    for (size_t i = 0; i < req->n_args; i++) {
        if (strcmp(req->args[i].key, "minutes") != 0) {
            api_http_problem(resp, 400, "invalid-query", "Bad Request", "unknown query parameter",
                             json_pack("{s:[{s:s, s:s}]}", "errors", "parameter", req->args[i].key,
                                       "detail", "unknown query parameter"));
            return;
        }
    }
    if (minutes_s && sk_parse_i64(minutes_s, 1, 1440, &minutes)) {
        api_http_problem(resp, 400, "invalid-query", "Bad Request",
                         "'minutes' must be an integer in 1..1440",
                         json_pack("{s:[{s:s, s:s}]}", "errors", "parameter", "minutes", "detail",
                                   "'minutes' must be an integer in 1..1440"));
        return;
    }
    slot = api_pool_get(ctx->pool);
    err = db_jobs_history(slot->db, (int)minutes, &json);
    api_pool_put(ctx->pool, slot);
    if (err)
        unavailable(resp, err, req->req_id);
    else
        api_http_json_text(resp, 200, json);
    sk_free(json);
}
