/* SPDX-License-Identifier: MIT */
/* The end of a split job (docs/operations.md, "Shards"): once every shard of a job has
 * ended, the job ends too: succeeded with the shards' final checkpoints merged into one
 * result (exactly what one run of the whole job gives), failed with the error of a shard
 * that failed (the others are stopped), or canceled with the merged counts of what was
 * played. Called by the worker that ended a shard, and by the reconciler for jobs whose
 * last shard's worker died before it could; any number of workers may call it for the
 * same job: the first end is written, the others find it ended. */
#ifndef WORKER_SHARD_H
#define WORKER_SHARD_H

#include <stddef.h>

#include "worker.h"

/** Ends split job `parent` when all its shards have ended; does nothing while one runs.
 *  A store or memory failure leaves it to the next call (the reconciler's). */
void worker_shard_finish(struct worker *w, const char *parent);

/** The reconciler's pass: ends up to `max` split jobs whose shards have all ended;
 *  returns how many it looked at. */
size_t worker_shard_reconcile(struct worker *w, size_t max);

#endif
