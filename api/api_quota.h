/* SPDX-License-Identifier: MIT */
/* Tenant quotas on submissions (docs/security.md): units (games, turns) of one job
 * (SKIRMISH_TENANT_MAX_JOB_UNITS, 422), the estimated CPU seconds of one job
 * (SKIRMISH_TENANT_MAX_JOB_CPU_S, 422), queued + running jobs (SKIRMISH_TENANT_MAX_ACTIVE,
 * from PostgreSQL), units per UTC day (SKIRMISH_TENANT_UNITS_PER_DAY) and CPU seconds
 * charged per UTC day (SKIRMISH_TENANT_CPU_S_PER_DAY), counters in Redis shared by every
 * API process and worker, all three 429 with Retry-After. They apply to tenant
 * keys only: admin keys, and every caller with keys off, are the operator. */
#ifndef API_QUOTA_H
#define API_QUOTA_H

#include <stdint.h>

#include "api_ctx.h"
#include "api_http.h"

/** 0 when a job of `units` is not too large for the caller; -1 with a 422 in `resp`. */
int api_quota_job_size(const struct api_ctx *ctx, const struct api_request *req, uint64_t units,
                       struct api_response *resp);

/** 0 when a job estimated at `cost_ms` CPU milliseconds (-1: no estimate, admitted) is not
 * too costly for the caller; -1 with a 422 stating the estimate in `resp`. */
int api_quota_job_cost(const struct api_ctx *ctx, const struct api_request *req, long long cost_ms,
                       struct api_response *resp);

/**
 * 0 when the caller's tenant may queue one more job of `units`, which are then counted
 * against its day (give them back with api_quota_undo when no job is made), and whose CPU
 * charged today is below its daily CPU; -1 with a 429 (or a 503 when PostgreSQL is down) in
 * `resp`. A Redis that does not answer lets the job
 * through, as the rate limit does.
 */
int api_quota_take(const struct api_ctx *ctx, const struct api_request *req, struct api_slot *slot,
                   uint64_t units, struct api_response *resp);

/**
 * The admission of every request that creates or re-creates work (a submission, a retry):
 * api_quota_job_size, api_quota_job_cost (`cost_ms`, the job's estimate), then
 * api_quota_take. 0 when admitted, the units then counted against the tenant's day
 * (api_quota_undo when no job is made after all); -1 with the answer in `resp` (422, 429 or
 * 503).
 */
int api_quota_admit(const struct api_ctx *ctx, const struct api_request *req, struct api_slot *slot,
                    uint64_t units, long long cost_ms, struct api_response *resp);

/** Adds the estimate of a job that was made to the running total /metrics shows. */
void api_quota_estimated(struct api_slot *slot, long long cost_ms);

/** Gives back the units of a job api_quota_take let through but that was not made. */
void api_quota_undo(const struct api_ctx *ctx, const struct api_request *req, struct api_slot *slot,
                    uint64_t units);

#endif
