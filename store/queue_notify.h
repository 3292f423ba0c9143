/* SPDX-License-Identifier: MIT */
/* Job notifications over Redis pub/sub: a worker or the API publishes "a job changed" on
 * PREFIX:job:<id>; the API's watcher thread subscribes to PREFIX:job:* and wakes the long
 * polls and event streams of that job. Carries no state: PostgreSQL has it. Uses a struct
 * queue (queue.h); a subscribed handle does nothing else. */
#ifndef QUEUE_NOTIFY_H
#define QUEUE_NOTIFY_H

#include "queue.h"
#include "sk_err.h"

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

#endif
