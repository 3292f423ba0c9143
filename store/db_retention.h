/* SPDX-License-Identifier: MIT */
/* Deleting jobs (docs/operations.md, retention): one final job on its owner's request, and
 * the periodic sweep of final jobs older than the retention time, in batches small enough
 * that no statement holds locks or the WAL for long. A job's idempotency keys go with it
 * (ON DELETE CASCADE), and so do its shards (migration 0008: only top-level jobs are
 * counted and chosen); its retries keep running and lose only their retry_of link.
 * Errors as db_exec. */
#ifndef DB_RETENTION_H
#define DB_RETENTION_H

#include <stddef.h>

#include "db.h"
#include "sk_err.h"

/**
 * Deletes final job `id` when it belongs to `tenant` (NULL: any tenant). SK_ENOTFOUND for
 * an unknown id or another tenant's job; SK_ECONFLICT when the job is queued or running.
 */
enum sk_err db_retention_delete(struct db *db, const char *id, const char *tenant);

typedef void db_retention_fn(const char *id, void *arg);

/**
 * Deletes at most `batch` final jobs that finished more than `age_s` seconds ago, oldest
 * first, calling `fn` (may be NULL) with each deleted id; *deleted counts them. Rows
 * locked by another transaction are skipped, never waited for.
 */
enum sk_err db_retention_sweep(struct db *db, long age_s, long batch, db_retention_fn *fn,
                               void *arg, long *deleted);

#endif
