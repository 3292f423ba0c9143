/* SPDX-License-Identifier: MIT */
/* Private to store/queue*.c: the Redis connection core shared by the stream queue
 * (queue_stream.c), notifications (queue_notify.c) and telemetry (queue_telemetry.c). The
 * handle's fields, the command runner and the timeouts. Nothing outside store/ includes it;
 * only these files and queue.c see hiredis. */
#ifndef QUEUE_INT_H
#define QUEUE_INT_H

#include <hiredis/hiredis.h>

#include "queue.h"

/* The consumer group every worker reads the job stream through. */
#define QUEUE_GROUP "workers"

/* Socket timeouts. Ordinary commands answer in microseconds; two seconds tell a dead or
 * stuck server from a busy one without holding a request thread long. XREADGROUP blocks
 * for its BLOCK time plus this. */
#define QUEUE_TIMEOUT_MS 2000
/* One page of the scan of the whole stream (XRANGE ... COUNT 1000). */
#define QUEUE_SCAN_TIMEOUT_MS 5000
/* /readyz and the connection itself: an answer within a second or the server is down. */
#define QUEUE_PING_TIMEOUT_MS    1000
#define QUEUE_CONNECT_TIMEOUT_MS 1000

/* The argument count of a command written as an array literal. */
#define QUEUE_ARGC(argv) ((int)(sizeof(argv) / sizeof((argv)[0])))

struct queue {
    char *host;
    int port;
    int db;
    char *password; /* NULL when none */
    char stream[128];
    char prefix[96];
    redisContext *c; /* NULL while disconnected */
    long timeout_ms; /* socket timeout now set on c */
    char error[256];
};

/** Records `msg` (copied; NULL = "") as the last error. */
void queue_set_error(struct queue *q, const char *msg);

/** Closes the connection; the next command connects again. */
void queue_drop(struct queue *q);

/**
 * Runs a command (argv form) with a socket timeout of `timeout_ms`, connecting first when
 * needed. A command that fails on a connection made earlier is retried once on a new one
 * (Redis restarted since): every command we send is safe to repeat (a repeated XADD only
 * adds a duplicate entry, which the claim ignores). Returns the reply (caller frees with
 * freeReplyObject) or NULL with the connection dropped. An error reply is returned as is.
 */
redisReply *queue_command(struct queue *q, long timeout_ms, int argc, const char **argv);

/**
 * As queue_command for a command that needs the group; creates the group once when Redis
 * says it is missing (NOGROUP), which happens after Redis lost its data.
 */
redisReply *queue_group_command(struct queue *q, long timeout_ms, int argc, const char **argv);

/**
 * Runs a write whose answer only has to arrive (SET, SADD, HINCRBY, PUBLISH...) with the
 * ordinary timeout and frees the reply. SK_OK, or SK_EUNAVAIL when no reply came.
 */
enum sk_err queue_write(struct queue *q, int argc, const char **argv);

/**
 * Runs a command whose answer must be an array (through queue_group_command when `group`)
 * and gives it in *out (caller frees with freeReplyObject). SK_EUNAVAIL when no reply came,
 * SK_EINTERNAL for any other kind of reply (freed).
 */
enum sk_err queue_array(struct queue *q, int group, long timeout_ms, int argc, const char **argv,
                        redisReply **out);

/** 1 when `r` is an error reply starting with `prefix` ("NOGROUP", "LOADING"). */
int queue_is_error(const redisReply *r, const char *prefix);

/**
 * Runs a command whose reply is an integer (a script's, an INCRBY's) and puts it into *out
 * (may be NULL). SK_EUNAVAIL when Redis does not answer or is loading its data;
 * SK_EINTERNAL for any other reply (its error kept for queue_error).
 */
enum sk_err queue_command_int(struct queue *q, int argc, const char **argv, long long *out);

/**
 * Reads an integer reply (or NIL as 0) into *out and frees `r`. SK_EUNAVAIL for NULL (no
 * reply), SK_EINTERNAL for any other type.
 */
enum sk_err queue_int_reply(redisReply *r, long long *out);

#endif
