/* SPDX-License-Identifier: MIT */
/* The two safety nets behind "an accepted job is never lost": the reaper takes over
 * stream entries that a dead worker left pending longer than the lease (XAUTOCLAIM) and
 * hands them to the loop to run; the reconciler re-enqueues jobs that PostgreSQL says should be in
 * the stream but are not (a failed XADD, Redis restarted without its data, a retry whose delay has
 * passed, an expired lease whose entry is gone). The reconciler runs in one worker at a
 * time, behind a Redis lock. */
#ifndef WORKER_RECLAIM_H
#define WORKER_RECLAIM_H

#include <stddef.h>

#include "queue.h"
#include "worker.h"

/**
 * Takes over up to `max` entries idle for longer than the lease (their worker died) and
 * writes them to `out` for the caller to run; returns how many. Also prunes the group's
 * long-gone consumers.
 */
size_t worker_reclaim_reap(struct worker *w, struct queue_entry *out, size_t max);

/** Re-enqueues dispatchable jobs missing from the stream; returns how many it re-enqueued. */
size_t worker_reclaim_reconcile(struct worker *w);

#endif
