/* SPDX-License-Identifier: MIT */
/* Group commit for submissions: request threads hand their validated job to one inserter
 * thread, which writes every job waiting at that moment with a single INSERT and a single
 * commit, then wakes each request with its own row. A request still answers only after
 * its row is committed; a failed batch fails every request in it and inserts nothing.
 * Throughput comes from sharing one WAL flush and one statement among many jobs. */
#ifndef API_BATCH_H
#define API_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "db_jobs.h"
#include "sk_err.h"

struct api_batch;

/**
 * Returns in *out a new inserter with its own connection to `db_url` (copied) and thread,
 * writing at most `max_rows` jobs per statement. Caller frees with api_batch_free.
 */
enum sk_err api_batch_new(const char *db_url, size_t max_rows, struct api_batch **out);

/** Stops the thread (requests still waiting get SK_EUNAVAIL) and frees; NULL-safe. */
void api_batch_free(struct api_batch *b);

/**
 * Inserts one queued job of `tenant` (NULL = DB_JOBS_TENANT), estimated at `cost_ms` CPU
 * milliseconds (-1 = none), and waits for its commit. On SK_OK
 * *out is the new row (release with db_job_release). Errors as db_jobs_insert_many. Thread-safe.
 */
enum sk_err api_batch_insert(struct api_batch *b, const char *tenant, const char *kind,
                             const char *request, uint64_t seed, uint64_t total, long long cost_ms,
                             struct db_job *out);

#endif
