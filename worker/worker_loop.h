/* SPDX-License-Identifier: MIT */
/* The worker's main loop: read one stream entry, claim its job in PostgreSQL with a
 * lease, run it through the engine in chunks, each a step with a deadline of
 * SKIRMISH_CHUNK_MS however slow its units (after each: progress to PostgreSQL and
 * Redis, lease renewal in both, cancel check), store the result with a write only the
 * lease holder can make, then acknowledge and delete the entry. Transient failures are
 * retried with backoff up to the attempt limit; outages of either store are waited out
 * with backoff, never fatal. A stop request takes no new job and gives the current one
 * back after the chunk in progress. Periodic maintenance (worker_reclaim) runs between
 * reads. Single-threaded: one struct worker per thread. */
#ifndef WORKER_LOOP_H
#define WORKER_LOOP_H

#include "queue.h"
#include "sk_err.h"
#include "worker.h"

/** Runs until *w->stop is set. Returns SK_OK (outages are waited out, never returned). */
enum sk_err worker_loop_run(struct worker *w);

/**
 * Handles one entry: claims and runs its job, or acknowledges it when there is nothing to
 * run. The loop calls it for entries it reads and for those the reaper took over.
 */
void worker_loop_entry(struct worker *w, const struct queue_entry *e);

/** Sleeps the outage backoff (100 ms doubling to 5 s) and logs which store is down. */
void worker_loop_outage(struct worker *w, const char *store, const char *detail);

#endif
