/* SPDX-License-Identifier: MIT */
/* Retention (docs/operations.md): DELETE /v1/jobs/{id} for a final job of the caller's
 * tenant, and a thread that deletes final jobs older than SKIRMISH_RETENTION_S in batches
 * of SKIRMISH_RETENTION_BATCH (with a pause between batches, so requests are never kept
 * waiting), every SKIRMISH_RETENTION_EVERY_MS, in one API process at a time (a Redis lock);
 * it also prunes expired idempotency keys and the deleted jobs' progress hashes. */
#ifndef API_RETENTION_H
#define API_RETENTION_H

#include "api_ctx.h"
#include "api_http.h"
#include "sk_config.h"
#include "sk_err.h"

/** DELETE /v1/jobs/{id}: 204; 404 unknown (or another tenant's); 409 queued or running. */
void api_jobs_delete(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp);

struct api_retention;

/**
 * Starts the sweeper thread with its own store connections (servers down now are not an
 * error: each sweep tries again). SK_OK with *out (stop with api_retention_stop); nothing
 * is started when SKIRMISH_RETENTION_S is 0 (*out = NULL).
 */
enum sk_err api_retention_start(const struct sk_config *cfg, struct api_retention **out);

/** Stops the thread (after its current batch) and frees; NULL-safe. */
void api_retention_stop(struct api_retention *r);

/**
 * One sweep now: deletes expired jobs batch by batch until a batch comes back short, and
 * prunes idempotency keys. *deleted counts the jobs. For the thread and for tests.
 */
enum sk_err api_retention_sweep(const struct sk_config *cfg, struct db *db, struct queue *q,
                                long *deleted);

#endif
