/* SPDX-License-Identifier: MIT */
/* The Redis adapter's handle and the job queue: a stream `PREFIX:jobs` read by the
 * consumer group `workers`, whose entries carry only {job_id, attempt} (PostgreSQL holds
 * everything else), and a small lock. Notifications are in queue_notify.h, heartbeats and
 * counters in queue_telemetry.h; all three use one struct queue. The connection reconnects
 * by itself: every call made while Redis is down answers SK_EUNAVAIL and the next one tries
 * again. The group is (re)created whenever Redis reports it missing, e.g. after a restart
 * that lost the data. Only store/queue*.c know hiredis. Not thread-safe: one struct queue
 * per thread. */
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
 * Moves the tenants' waiting jobs into the stream while it has room (queue_fair.h), then
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

typedef void queue_id_fn(const char *job_id, void *arg);
/** Calls `fn` with the job id of every entry now in the stream, pending or not, and of
 *  every job waiting in a tenant's list (queue_fair.h). */
enum sk_err queue_scan(struct queue *q, queue_id_fn *fn, void *arg);

/**
 * Takes the lock PREFIX:lock:<name> for `ttl_ms` (SET NX PX); *got is 1 when taken. The
 * lock is only let expire: it spaces out periodic tasks shared by every worker.
 */
enum sk_err queue_lock(struct queue *q, const char *name, long ttl_ms, int *got);

/** Returns the last connection or server error message (borrowed). */
const char *queue_error(const struct queue *q);

/** XLEN of the job stream. */
enum sk_err queue_length(struct queue *q, long long *n);

#endif
