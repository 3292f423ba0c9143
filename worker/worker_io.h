/* SPDX-License-Identifier: MIT */
/* The stores as the worker sees them: every PostgreSQL and Redis call of the loop, the
 * reaper and reconciler, and the heartbeat, as one table of functions with the store
 * functions' own signatures. worker_io_stores calls store/; a test passes fakes and runs
 * the loop without servers (tests/unit/worker/test_worker_loop.c). The handles in struct
 * worker (db, queue) are passed through untouched, so a fake may leave them NULL. Tables
 * are read-only and may be shared by threads. */
#ifndef WORKER_IO_H
#define WORKER_IO_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "db_jobs.h"
#include "db_units.h"
#include "queue.h"
#include "queue_telemetry.h"
#include "sk_err.h"

struct worker_io {
    /* PostgreSQL: store/db_jobs.h, db.h */
    enum sk_err (*claim)(struct db *db, const char *id, const char *worker, const char *owner,
                         long lease_ms, long max_attempts, struct db_claim *out);
    enum sk_err (*progress)(struct db *db, const char *id, const char *owner, uint64_t done,
                            const struct db_progress *p, long lease_ms, int *cancel);
    enum sk_err (*succeed)(struct db *db, const char *id, const char *owner, const char *result);
    enum sk_err (*cancelled)(struct db *db, const char *id, const char *owner, const char *partial);
    enum sk_err (*fail)(struct db *db, const char *id, const char *owner, const char *error,
                        const char *attempt_error);
    enum sk_err (*retry)(struct db *db, const char *id, const char *owner, long delay_ms,
                         const char *error);
    enum sk_err (*release)(struct db *db, const char *id, const char *owner);
    enum sk_err (*defer)(struct db *db, const char *id, const char *owner, long delay_ms);
    enum sk_err (*get)(struct db *db, const char *id, struct db_job *out);
    enum sk_err (*dispatchable)(struct db *db, long age_ms, int limit, db_jobs_id_fn *fn,
                                void *arg);
    const char *(*db_error)(const struct db *db);
    /* shards (store/db_jobs.h) */
    enum sk_err (*split)(struct db *db, const char *id, const char *owner, uint64_t shard_units,
                         int n, char ***ids);
    enum sk_err (*parent_progress)(struct db *db, const char *parent, uint64_t *done,
                                   uint64_t *total);
    enum sk_err (*shard_succeed)(struct db *db, const char *id, const char *owner,
                                 const void *checkpoint, size_t len);
    enum sk_err (*shards)(struct db *db, const char *parent, struct db_shard **out, int *n);
    enum sk_err (*parent_end)(struct db *db, const char *parent, const char *status,
                              const char *result, const char *error, int *ended);
    enum sk_err (*parents_ready)(struct db *db, int limit, db_jobs_id_fn *fn, void *arg);
    enum sk_err (*document)(struct db *db, const char *id, char **json);
    /* store/db_units.h: an optimisation's units (worker_units) */
    enum sk_err (*units_add)(struct db *db, const char *parent, const char *owner,
                             const struct db_unit_new *u, size_t n, char ***ids);
    enum sk_err (*units_get)(struct db *db, const char *parent, const char *const *keys, size_t n,
                             struct db_unit *out);
    enum sk_err (*units_drop)(struct db *db, const char *parent, const char *const *keys, size_t n);
    enum sk_err (*units_claim)(struct db *db, const char *id, const char *owner, long lease_ms,
                               int *got);
    enum sk_err (*units_done)(struct db *db, const char *id, const char *owner, const void *result,
                              size_t len);
    enum sk_err (*charge)(struct db *db, const char *id, long long cpu_ms, char *tenant,
                          size_t tenant_len);
    /* Redis: store/queue.h, queue_notify.h, queue_telemetry.h */
    enum sk_err (*read)(struct queue *q, const char *consumer, long block_ms,
                        struct queue_entry *out, int *got);
    enum sk_err (*done)(struct queue *q, const char *entry_id);
    enum sk_err (*add)(struct queue *q, const char *job_id, int attempt);
    enum sk_err (*renew)(struct queue *q, const char *consumer, const char *entry_id, int *owned);
    enum sk_err (*autoclaim)(struct queue *q, const char *consumer, long min_idle_ms,
                             struct queue_entry *out, size_t max, size_t *n);
    enum sk_err (*prune_consumers)(struct queue *q, long min_idle_ms, size_t *removed);
    enum sk_err (*scan)(struct queue *q, queue_id_fn *fn, void *arg);
    enum sk_err (*lock)(struct queue *q, const char *name, long ttl_ms, int *got);
    const char *(*queue_error)(const struct queue *q);
    enum sk_err (*job_progress)(struct queue *q, const char *job_id, uint64_t done, uint64_t total);
    enum sk_err (*publish)(struct queue *q, const char *job_id, const char *what);
    enum sk_err (*heartbeat)(struct queue *q, const char *name, const char *json, long ttl_ms);
    enum sk_err (*heartbeat_drop)(struct queue *q, const char *name);
    enum sk_err (*workers)(struct queue *q, queue_text_fn *fn, void *arg);
    enum sk_err (*games_add)(struct queue *q, uint64_t games, long long now_s);
    enum sk_err (*cpu_charge)(struct queue *q, const char *tenant, long long ms);
    enum sk_err (*hist_observe)(struct queue *q, const char *name, const double *bounds,
                                size_t n_bounds, double value);
};

/* The real stores. */
extern const struct worker_io worker_io_stores;

#endif
