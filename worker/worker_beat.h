/* SPDX-License-Identifier: MIT */
/* What a worker tells the others through Redis, for GET /v1/stats, /metrics and waiting
 * clients: a heartbeat (name, host, pid, backend and device, current job, games done)
 * refreshed every SKIRMISH_HEARTBEAT_MS and kept five periods; a notification on the
 * job's channel at each status or progress change; battle games per second; the duration
 * histogram of finished jobs by kind. Every write is best effort: Redis being down never
 * stops a job (PostgreSQL has the truth). */
#ifndef WORKER_BEAT_H
#define WORKER_BEAT_H

#include <stdint.h>

#include "worker.h"

/** Fills the worker's identity (host, pid, start time) and resolves its device. */
void worker_beat_init(struct worker *w);
/** Writes the heartbeat when one is due (or at once with `force`). */
void worker_beat(struct worker *w, int force);
/** Removes the heartbeat (clean stop). */
void worker_beat_drop(struct worker *w);
/** Publishes `what` ("status" or "progress") for job `job_id`. */
void worker_beat_notify(struct worker *w, const char *job_id, const char *what);
/** Counts `units` done of a job of kind `kind` (games, for battle jobs). */
void worker_beat_units(struct worker *w, const char *kind, uint64_t units);
/** Records that a job of kind `kind` ended after `seconds` on this worker. */
void worker_beat_job_ended(struct worker *w, const char *kind, double seconds);

#endif
