/* SPDX-License-Identifier: MIT */
/* Notifications over Redis pub/sub: a worker or the API publishes "a job changed" on
 * PREFIX:job:<id>, and a key's revocation publishes "revoked" on PREFIX:key:<key id>; the
 * API's watcher thread subscribes to both patterns, wakes the long polls and event streams
 * of that job, and ends those of that key. Carries no state: PostgreSQL has it (a
 * revocation is in api_keys before it is announced). Uses a struct queue (queue.h); a
 * subscribed handle does nothing else. */
#ifndef QUEUE_NOTIFY_H
#define QUEUE_NOTIFY_H

#include "queue.h"
#include "sk_err.h"

/** PUBLISH `what` on the channel PREFIX:job:<job_id> (a job changed: status or progress). */
enum sk_err queue_publish(struct queue *q, const char *job_id, const char *what);

/**
 * PUBLISH "revoked" on the channel PREFIX:key:<key_id>: every API process ends the long polls
 * and event streams of that key (call after the revocation is committed).
 */
enum sk_err queue_publish_revoked(struct queue *q, const char *key_id);

/**
 * Turns this handle into a subscriber of PREFIX:job:* and PREFIX:key:* on a fresh connection;
 * afterwards only queue_sub_read may be used on it (call queue_subscribe again after
 * SK_EUNAVAIL).
 */
enum sk_err queue_subscribe(struct queue *q);

/* What a notification is about. */
enum queue_note {
    QUEUE_NOTE_NONE = 0, /* nothing came (timeout), or a message of no interest */
    QUEUE_NOTE_JOB,      /* a job changed: the name is its id */
    QUEUE_NOTE_KEY,      /* a key was revoked: the name is its id */
};

/**
 * Waits up to `timeout_ms` for one notification. *got says what came, and `name` holds the
 * job's or key's id (as published, not checked) unless *got is QUEUE_NOTE_NONE. SK_EUNAVAIL
 * when the connection was lost (subscribe again).
 */
enum sk_err queue_sub_read(struct queue *q, long timeout_ms, char name[48], enum queue_note *got);

#endif
