/* SPDX-License-Identifier: MIT */
/* The worker's main loop: read one stream entry, claim its job in PostgreSQL with a
 * lease, run it through the engine in chunks (after each: progress to PostgreSQL and
 * Redis, lease renewal in both, cancel check), store the result with a write only the
 * lease holder can make, then acknowledge and delete the entry. Transient failures are
 * retried with backoff up to the attempt limit; outages of either store are waited out
 * with backoff, never fatal. A stop request takes no new job and gives the current one
 * back after the chunk in progress. Periodic maintenance (worker_reclaim) runs between
 * reads. Single-threaded: one struct worker per thread. */
#ifndef WORKER_LOOP_H
#define WORKER_LOOP_H

#include <signal.h>

#include "db.h"
#include "engine.h"
#include "queue.h"
#include "sk_config.h"
#include "sk_err.h"

struct worker {
    const struct sk_config *cfg;       /* borrowed */
    struct db *db;                     /* borrowed */
    struct queue *queue;               /* borrowed */
    struct engine *engine;             /* borrowed: the process's, set up at start */
    char name[128];                    /* consumer name in the group */
    unsigned long claims;              /* makes each lease owner token unique */
    const volatile sig_atomic_t *stop; /* set by a signal handler */
    long outage_ms;                    /* current outage backoff; 0 when both stores answer */
    long long next_maint_ms;           /* monotonic time of the next reaper/reconciler pass */
    /* heartbeat (worker_beat) */
    char host[64];
    char started_at[32];
    char backend[16];
    char device[128];
    char job_id[48]; /* the job running now; "" = none */
    unsigned long long games;
    long long next_beat_ms;
};

/** Runs until *w->stop is set. Returns SK_OK (outages are waited out, never returned). */
enum sk_err worker_loop_run(struct worker *w);

/**
 * Handles one entry: claims and runs its job, or acknowledges it when there is nothing to
 * run. Used by the loop and by the reaper for entries taken over from dead workers.
 */
void worker_loop_entry(struct worker *w, const struct queue_entry *e);

/** Sleeps the outage backoff (100 ms doubling to 5 s) and logs which store is down. */
void worker_loop_outage(struct worker *w, const char *store, const char *detail);

/** Monotonic clock in milliseconds. */
long long worker_loop_now_ms(void);

#endif
