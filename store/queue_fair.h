/* SPDX-License-Identifier: MIT */
/* Fair share between tenants (docs/security.md): a submitted job waits in its tenant's
 * list PREFIX:fair:q:<tenant>, and the tenants with waiting jobs take turns (the list
 * PREFIX:fair:ring, round robin, one job per turn; a tenant that had nothing waiting goes
 * first). Jobs move from there to the job stream only while the stream holds fewer
 * undelivered entries than there are idle workers (consumers with nothing pending), at
 * least one, so a tenant's thousand queued jobs wait in its own list, not ahead of
 * another tenant's job in the stream. The move happens in a Lua script run by the API
 * when it adds a job and by every worker before it reads the stream (queue_read), so an
 * idle worker still gets a new job at once. Jobs re-enqueued by the reconciler go to the
 * stream directly (queue_add). */
#ifndef QUEUE_FAIR_H
#define QUEUE_FAIR_H

#include "queue.h"
#include "sk_err.h"

/** Adds job `job_id` (attempt `attempt`) to the list of `tenant`, then refills the stream. */
enum sk_err queue_fair_add(struct queue *q, const char *tenant, const char *job_id, int attempt);

/** Moves waiting jobs to the stream while it has room (see above); *moved may be NULL. */
enum sk_err queue_fair_refill(struct queue *q, long long *moved);

/** Calls `fn` with the job id of every job waiting in a tenant's list. */
enum sk_err queue_fair_scan(struct queue *q, queue_id_fn *fn, void *arg);

#endif
