/* SPDX-License-Identifier: MIT */
/* Request rate limits as token buckets kept in Redis (PREFIX:rl:<name>), so every API
 * process shares one bucket per key. One Lua script refills the bucket from Redis's own
 * clock (no process clock is trusted), takes a token and answers, atomically. */
#ifndef QUEUE_LIMIT_H
#define QUEUE_LIMIT_H

#include "queue.h"
#include "sk_err.h"

/* What one take from a bucket said. */
struct queue_limit {
    int allowed;         /* 1: a token was taken */
    long long remaining; /* whole tokens left */
    long long retry_ms;  /* when refused: until a token is back */
    long long reset_ms;  /* until the bucket is full again */
};

/**
 * Takes one token from bucket `name` (at most 64 bytes; e.g. an API key id), which holds
 * `burst` tokens and gains `rate_per_s` a second. SK_EUNAVAIL when Redis does not answer
 * (the caller decides whether to let the request through).
 */
enum sk_err queue_limit_take(struct queue *q, const char *name, long rate_per_s, long burst,
                             struct queue_limit *out);

/**
 * Counts `units` against the tenant's budget of `limit` units per UTC day (the key
 * PREFIX:units:<tenant>:<day>, kept two days), atomically: when the day's count plus
 * `units` exceeds `limit` nothing is counted and *allowed is 0. *used is the day's count
 * (after the add when allowed), *reset_s the seconds until the day ends.
 */
enum sk_err queue_limit_units(struct queue *q, const char *tenant, long long units, long long limit,
                              int *allowed, long long *used, long long *reset_s);

/** Gives back `units` counted by queue_limit_units today (the job was not stored). */
enum sk_err queue_limit_units_undo(struct queue *q, const char *tenant, long long units);

/* ===== CPU cost (docs/security.md, "CPU cost") ===== */

/**
 * Adds `ms` milliseconds of CPU a worker spent on a job of `tenant` to the tenant's UTC
 * day (PREFIX:cpu:<tenant>:<day>, kept two days) and to the running total of every tenant
 * (PREFIX:cpu_ms_total, GET /metrics).
 */
enum sk_err queue_limit_cpu_charge(struct queue *q, const char *tenant, long long ms);

/** The CPU milliseconds charged to `tenant` today (UTC) into *used_ms, and the seconds until
 * the day ends into *reset_s. */
enum sk_err queue_limit_cpu_today(struct queue *q, const char *tenant, long long *used_ms,
                                  long long *reset_s);

/** Adds an admitted job's estimate to the running total of estimates
 * (PREFIX:cpu_estimate_ms_total, GET /metrics). */
enum sk_err queue_limit_cpu_estimated(struct queue *q, long long ms);

/** The running totals of CPU milliseconds charged and estimated (0 when never written). */
enum sk_err queue_limit_cpu_totals(struct queue *q, long long *charged_ms, long long *estimated_ms);

#endif
