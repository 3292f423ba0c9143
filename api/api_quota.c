/* SPDX-License-Identifier: MIT */
/* Tenant quotas (see api_quota.h). */
#include "api_quota.h"

#include <stdio.h>

#include "db_keys.h"
#include "queue_limit.h"
#include "sk_log.h"

#include "sk_banned.h"

/* Seconds a client waits before trying again when its tenant has too many open jobs: a
 * job usually finishes within seconds. */
#define ACTIVE_RETRY_S 5

static int applies(const struct api_ctx *ctx, const struct api_request *req)
{
    return ctx->auth && !req->admin && req->tenant;
}

int api_quota_job_size(const struct api_ctx *ctx, const struct api_request *req, uint64_t units,
                       struct api_response *resp)
{
    char detail[160];
    long max = ctx->cfg->tenant_max_units;

    if (!applies(ctx, req) || units <= (uint64_t)max)
        return 0;
    snprintf(detail, sizeof(detail),
             "the job asks for %llu units (games or turns); a job may have at most %ld",
             (unsigned long long)units, max);
    api_http_problem(
        resp, 422, "job-too-large", "Unprocessable Content", detail,
        json_pack("{s:I, s:I}", "max_units", (json_int_t)max, "units", (json_int_t)units));
    return -1;
}

int api_quota_job_cost(const struct api_ctx *ctx, const struct api_request *req, long long cost_ms,
                       struct api_response *resp)
{
    char detail[200];
    long max = ctx->cfg->tenant_max_job_cpu_s;

    if (!applies(ctx, req) || cost_ms < 0 || cost_ms <= (long long)max * 1000)
        return 0;
    snprintf(detail, sizeof(detail),
             "the job is estimated to cost %.1f CPU seconds (a sample of its first games on one "
             "core); a job may cost at most %ld",
             (double)cost_ms / 1000.0, max);
    api_http_problem(resp, 422, "job-too-costly", "Unprocessable Content", detail,
                     json_pack("{s:I, s:f}", "max_cpu_s", (json_int_t)max, "estimated_cpu_s",
                               (double)cost_ms / 1000.0));
    return -1;
}

static void exceeded(struct api_response *resp, const char *quota, long long limit, long long used,
                     long long retry_s, const char *detail)
{
    api_http_problem(resp, 429, "quota-exceeded", "Too Many Requests", detail,
                     json_pack("{s:s, s:I, s:I}", "quota", quota, "limit", (json_int_t)limit,
                               "used", (json_int_t)used));
    resp->retry_after = retry_s > 0 ? (int)retry_s : 1;
}

int api_quota_take(const struct api_ctx *ctx, const struct api_request *req, struct api_slot *slot,
                   uint64_t units, struct api_response *resp)
{
    const struct sk_config *cfg = ctx->cfg;
    long long active = 0;
    long long used = 0;
    long long reset = 0;
    int allowed = 1;
    char detail[160];
    enum sk_err err;

    if (!applies(ctx, req))
        return 0;
    /* Checked before the insert, so submissions racing each other may pass the limit by
     * the number of API threads at most; the limit bounds a tenant's share, not a count
     * that must be exact. */
    err = db_keys_tenant_active(slot->db, req->tenant, &active);
    if (err) {
        api_http_problem(resp, 503, "unavailable", "Service Unavailable",
                         "the job store is unreachable; retry shortly", NULL);
        resp->retry_after = 1;
        return -1;
    }
    if (active >= cfg->tenant_max_active) {
        snprintf(detail, sizeof(detail),
                 "the tenant has %lld queued and running jobs, the most it may have", active);
        exceeded(resp, "active_jobs", cfg->tenant_max_active, active, ACTIVE_RETRY_S, detail);
        sk_log_info("event=quota_exceeded req_id=%s tenant=%s quota=active_jobs used=%lld",
                    req->req_id, req->tenant, active);
        return -1;
    }
    err = queue_limit_units(slot->queue, req->tenant, (long long)units, cfg->tenant_games_day,
                            &allowed, &used, &reset);
    if (err) {
        sk_log_warn("event=quota_unavailable req_id=%s tenant=%s err=%s", req->req_id, req->tenant,
                    sk_err_str(err));
        return 0;
    }
    if (!allowed) {
        snprintf(detail, sizeof(detail),
                 "the tenant submitted %lld units (games or turns) today (UTC); %llu more would "
                 "pass its daily %ld",
                 used, (unsigned long long)units, cfg->tenant_games_day);
        exceeded(resp, "units_per_day", cfg->tenant_games_day, used, reset, detail);
        sk_log_info("event=quota_exceeded req_id=%s tenant=%s quota=units_per_day used=%lld",
                    req->req_id, req->tenant, used);
        return -1;
    }
    /* CPU is charged as workers spend it, so a tenant may pass its day by the jobs it has
     * running when the day's budget runs out: those were admitted while it had some. */
    err = queue_limit_cpu_today(slot->queue, req->tenant, &used, &reset);
    if (!err && used >= (long long)cfg->tenant_cpu_s_day * 1000) {
        (void)queue_limit_units_undo(slot->queue, req->tenant, (long long)units);
        snprintf(detail, sizeof(detail),
                 "the tenant's jobs used %.1f CPU seconds today (UTC), its daily %ld",
                 (double)used / 1000.0, cfg->tenant_cpu_s_day);
        exceeded(resp, "cpu_seconds_per_day", cfg->tenant_cpu_s_day, used / 1000, reset, detail);
        sk_log_info("event=quota_exceeded req_id=%s tenant=%s quota=cpu_seconds_per_day "
                    "used_ms=%lld",
                    req->req_id, req->tenant, used);
        return -1;
    }
    return 0;
}

void api_quota_undo(const struct api_ctx *ctx, const struct api_request *req, struct api_slot *slot,
                    uint64_t units)
{
    if (applies(ctx, req))
        (void)queue_limit_units_undo(slot->queue, req->tenant, (long long)units);
}

int api_quota_admit(const struct api_ctx *ctx, const struct api_request *req, struct api_slot *slot,
                    uint64_t units, long long cost_ms, struct api_response *resp)
{
    if (api_quota_job_size(ctx, req, units, resp) || api_quota_job_cost(ctx, req, cost_ms, resp))
        return -1;
    return api_quota_take(ctx, req, slot, units, resp);
}

void api_quota_estimated(struct api_slot *slot, long long cost_ms)
{
    if (cost_ms > 0)
        (void)queue_limit_cpu_estimated(slot->queue, cost_ms);
}
