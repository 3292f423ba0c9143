/* SPDX-License-Identifier: MIT */
/* Telemetry in Redis, written by workers and read by the API (GET /v1/stats, /metrics):
 * progress hashes, worker heartbeats, the games counters and shared histograms. All of it
 * is a cache or a gauge that may be lost with Redis: PostgreSQL holds what matters. Uses a
 * struct queue (queue.h). */
#ifndef QUEUE_TELEMETRY_H
#define QUEUE_TELEMETRY_H

#include <stddef.h>
#include <stdint.h>

#include "queue.h"
#include "sk_err.h"

/** Writes progress to the hash PREFIX:progress:<job_id> {done, total} (expires in a day). */
enum sk_err queue_progress(struct queue *q, const char *job_id, uint64_t done, uint64_t total);

/** Deletes the progress hash of job `job_id` (the job was deleted: retention). */
enum sk_err queue_progress_forget(struct queue *q, const char *job_id);

/**
 * Writes the heartbeat of worker `name`: `json` (a JSON object as text, copied) kept for
 * `ttl_ms`, and the name in the set PREFIX:workers.
 */
enum sk_err queue_heartbeat(struct queue *q, const char *name, const char *json, long ttl_ms);
/** Removes the heartbeat of worker `name` (a clean stop). */
enum sk_err queue_heartbeat_drop(struct queue *q, const char *name);

typedef void queue_text_fn(const char *text, void *arg);
/** Calls `fn` with every live heartbeat (borrowed text); forgets workers whose expired. */
enum sk_err queue_workers(struct queue *q, queue_text_fn *fn, void *arg);

/** Adds `games` to the counter of second `now_s` (kept 120 s) and to the running total. */
enum sk_err queue_games_add(struct queue *q, uint64_t games, long long now_s);
/**
 * Reads the games of the `seconds` (at most 60) whole seconds before `now_s` into *window
 * and the running total into *total.
 */
enum sk_err queue_games_read(struct queue *q, long long now_s, int seconds, long long *window,
                             long long *total);

/**
 * Counts `value` in the shared histogram `name`: the bucket is the first of `bounds`
 * (ascending, `n_bounds` entries) that is >= value, or bucket n_bounds (+Inf); adds value
 * to its sum.
 */
enum sk_err queue_hist_observe(struct queue *q, const char *name, const double *bounds,
                               size_t n_bounds, double value);
/**
 * Reads histogram `name`: per-bucket counts (not cumulative) into `counts` (`n_buckets` =
 * n_bounds + 1 entries) and the sum. A histogram never written reads as zeros.
 */
enum sk_err queue_hist_read(struct queue *q, const char *name, uint64_t *counts, size_t n_buckets,
                            double *sum);

/* Bucket bounds (seconds) of the job duration histograms "job_seconds:<kind>", shared by
 * the worker that writes them and the API that serves them. */
#define QUEUE_JOB_SECONDS_N 12
extern const double queue_job_seconds_bounds[QUEUE_JOB_SECONDS_N];

#endif
