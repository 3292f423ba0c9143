/* SPDX-License-Identifier: MIT */
/* The Redis adapter: a stream `PREFIX:jobs` read by the consumer group `workers`, whose
 * entries carry only {job_id, attempt} (PostgreSQL holds everything else), plus the
 * progress hashes and a small lock; job notifications (pub/sub), worker heartbeats and the
 * shared counters behind GET /v1/stats and /metrics. The connection reconnects by itself: every
 * call made while Redis is down answers SK_EUNAVAIL and the next one tries again. The group is
 * (re)created whenever Redis reports it missing, e.g. after a restart that lost the data.
 * The only module that knows hiredis. Not thread-safe: one struct queue per thread. */
#ifndef QUEUE_H
#define QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "sk_err.h"

struct queue;

struct queue_entry {
    char id[48];     /* stream entry id */
    char job_id[48]; /* "" when the entry is malformed (then only acknowledge it) */
    int attempt;
};

/**
 * Returns in *out a new handle for `url` (redis://[:password@]host[:port][/db]) with keys
 * under `prefix` (both copied). Connects on first use. SK_EINVAL for a malformed URL.
 */
enum sk_err queue_new(const char *url, const char *prefix, struct queue **out);
/** Closes and frees; NULL-safe. */
void queue_free(struct queue *q);

/** SK_OK when Redis answers PING now, SK_EUNAVAIL otherwise. */
enum sk_err queue_ping(struct queue *q);

/** XADD {job_id, attempt} to the stream (the group is created when missing). */
enum sk_err queue_add(struct queue *q, const char *job_id, int attempt);

/**
 * XREADGROUP one new entry for `consumer`, blocking up to `block_ms`. *got is 1 when *out
 * was filled, 0 on timeout.
 */
enum sk_err queue_read(struct queue *q, const char *consumer, long block_ms,
                       struct queue_entry *out, int *got);

/**
 * Renews the lease on entry `entry_id`: when `consumer` still owns it, resets its idle
 * time with XCLAIM ... JUSTID (which does not count a delivery); *owned tells whether it
 * did. Check and claim run in one script, so a slow worker cannot steal back an entry
 * the reaper gave to another.
 */
enum sk_err queue_renew(struct queue *q, const char *consumer, const char *entry_id, int *owned);

/** XACK then XDEL the entry (acknowledge first, so the PEL never keeps a deleted id). */
enum sk_err queue_done(struct queue *q, const char *entry_id);

/**
 * XAUTOCLAIM for `consumer` up to `max` entries idle for at least `min_idle_ms` (a dead
 * worker's lease ran out). *n entries are written to `out`.
 */
enum sk_err queue_autoclaim(struct queue *q, const char *consumer, long min_idle_ms,
                            struct queue_entry *out, size_t max, size_t *n);

/**
 * Deletes the group's consumers that have nothing pending and have been idle for at least
 * `min_idle_ms` (workers that exited or died and whose entries were taken over); a live
 * consumer deleted by mistake is re-created by its next read. *removed gets the count.
 */
enum sk_err queue_prune_consumers(struct queue *q, long min_idle_ms, size_t *removed);

/** Writes progress to the hash PREFIX:progress:<job_id> {done, total} (expires in a day). */
enum sk_err queue_progress(struct queue *q, const char *job_id, uint64_t done, uint64_t total);

typedef void queue_id_fn(const char *job_id, void *arg);
/** Calls `fn` with the job id of every entry now in the stream, pending or not. */
enum sk_err queue_scan(struct queue *q, queue_id_fn *fn, void *arg);

/**
 * Takes the lock PREFIX:lock:<name> for `ttl_ms` (SET NX PX); *got is 1 when taken. The
 * lock is only let expire: it spaces out periodic tasks shared by every worker.
 */
enum sk_err queue_lock(struct queue *q, const char *name, long ttl_ms, int *got);

/** Returns the last connection or server error message (borrowed). */
const char *queue_error(const struct queue *q);

/* ---- notifications, heartbeats and shared counters ---- */

/** PUBLISH `what` on the channel PREFIX:job:<job_id> (a job changed: status or progress). */
enum sk_err queue_publish(struct queue *q, const char *job_id, const char *what);

/**
 * Turns this handle into a subscriber of PREFIX:job:* on a fresh connection; afterwards only
 * queue_sub_read may be used on it (call queue_subscribe again after SK_EUNAVAIL).
 */
enum sk_err queue_subscribe(struct queue *q);

/**
 * Waits up to `timeout_ms` for one notification. *got = 1 and `job_id` filled when one came;
 * *got = 0 on timeout. SK_EUNAVAIL when the connection was lost (subscribe again).
 */
enum sk_err queue_sub_read(struct queue *q, long timeout_ms, char job_id[48], int *got);

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

/** XLEN of the job stream. */
enum sk_err queue_length(struct queue *q, long long *n);

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
