/* SPDX-License-Identifier: MIT */
/* The Redis connection core (see queue_int.h): URL, connection with AUTH and SELECT,
 * commands with a socket timeout and one retry on a fresh connection, the consumer group
 * made when missing. hiredis 0.14: RESP2 only, synchronous contexts. */
#include "queue.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "queue_int.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

void queue_set_error(struct queue *q, const char *msg)
{
    snprintf(q->error, sizeof(q->error), "%s", msg ? msg : "");
}

void queue_drop(struct queue *q)
{
    if (q->c)
        redisFree(q->c);
    q->c = NULL;
}

static enum sk_err parse_url(struct queue *q, const char *url)
{
    const char *p = url + strlen("redis://");
    const char *at;
    const char *colon;
    const char *slash;
    char port[16] = "6379";
    int64_t n;

    if (strncmp(url, "redis://", 8) != 0)
        return SK_EINVAL;
    at = strchr(p, '@');
    if (at) {
        const char *pw = memchr(p, ':', (size_t)(at - p));
        pw = pw ? pw + 1 : p;
        q->password = sk_strndup(pw, (size_t)(at - pw));
        if (!q->password)
            return SK_ENOMEM;
        p = at + 1;
    }
    slash = strchr(p, '/');
    colon = memchr(p, ':', slash ? (size_t)(slash - p) : strlen(p));
    q->host = sk_strndup(p, colon ? (size_t)(colon - p) : slash ? (size_t)(slash - p) : strlen(p));
    if (!q->host)
        return SK_ENOMEM;
    if (colon)
        snprintf(port, sizeof(port), "%.*s",
                 (int)(slash ? slash - colon - 1 : (long)strlen(colon + 1)), colon + 1);
    if (sk_parse_i64(port, 1, 65535, &n))
        return SK_EINVAL;
    q->port = (int)n;
    if (slash && slash[1]) {
        if (sk_parse_i64(slash + 1, 0, 1000, &n))
            return SK_EINVAL;
        q->db = (int)n;
    }
    return q->host[0] ? SK_OK : SK_EINVAL;
}

enum sk_err queue_new(const char *url, const char *prefix, struct queue **out)
{
    enum sk_err err;
    struct queue *q = sk_calloc(1, sizeof(*q));

    if (!q)
        return SK_ENOMEM;
    err = parse_url(q, url);
    if (err) {
        queue_free(q);
        return err;
    }
    snprintf(q->prefix, sizeof(q->prefix), "%s", prefix);
    snprintf(q->stream, sizeof(q->stream), "%s:jobs", prefix);
    *out = q;
    return SK_OK;
}

void queue_free(struct queue *q)
{
    if (!q)
        return;
    queue_drop(q);
    sk_free(q->host);
    sk_free(q->password);
    sk_free(q);
}

const char *queue_error(const struct queue *q)
{
    return q->error;
}

static int set_timeout(struct queue *q, long ms)
{
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    if (q->timeout_ms == ms)
        return 0;
    if (redisSetTimeout(q->c, tv) != REDIS_OK)
        return -1;
    q->timeout_ms = ms;
    return 0;
}

/* Checks the reply of a connection set-up command (AUTH, SELECT) and frees it. On an error
 * reply or a lost connection, records the reason, drops the connection and returns 1. */
static int setup_failed(struct queue *q, redisReply *r)
{
    if (!r || r->type == REDIS_REPLY_ERROR) {
        queue_set_error(q, r ? r->str : q->c->errstr);
        if (r)
            freeReplyObject(r);
        queue_drop(q);
        return 1;
    }
    freeReplyObject(r);
    return 0;
}

/* Connects (and authenticates, selects the db). Returns 0, or -1 with q->error set. */
static int connect_now(struct queue *q)
{
    struct timeval tv = {QUEUE_CONNECT_TIMEOUT_MS / 1000,
                         (QUEUE_CONNECT_TIMEOUT_MS % 1000) * 1000L};
    redisReply *r;

    q->c = redisConnectWithTimeout(q->host, q->port, tv);
    if (!q->c || q->c->err) {
        queue_set_error(q, q->c ? q->c->errstr : "cannot allocate a redis context");
        queue_drop(q);
        return -1;
    }
    q->timeout_ms = -1;
    if (q->password) {
        r = redisCommand(q->c, "AUTH %s", q->password);
        if (setup_failed(q, r))
            return -1;
    }
    if (q->db) {
        r = redisCommand(q->c, "SELECT %d", q->db);
        if (setup_failed(q, r))
            return -1;
    }
    return 0;
}

redisReply *queue_command(struct queue *q, long timeout_ms, int argc, const char **argv)
{
    for (int tries = 0; tries < 2; tries++) {
        int fresh = 0;
        redisReply *r;
        if (!q->c) {
            if (connect_now(q))
                return NULL;
            fresh = 1;
        }
        if (set_timeout(q, timeout_ms)) {
            queue_drop(q);
            return NULL;
        }
        r = redisCommandArgv(q->c, argc, argv, NULL);
        if (r) {
            if (r->type == REDIS_REPLY_ERROR)
                queue_set_error(q, r->str);
            return r;
        }
        queue_set_error(q, q->c->errstr);
        queue_drop(q); /* a context with an error is unusable */
        if (fresh)
            return NULL;
    }
    return NULL;
}

enum sk_err queue_write(struct queue *q, int argc, const char **argv)
{
    redisReply *r = queue_command(q, QUEUE_TIMEOUT_MS, argc, argv);
    if (!r)
        return SK_EUNAVAIL;
    freeReplyObject(r);
    return SK_OK;
}

enum sk_err queue_array(struct queue *q, int group, long timeout_ms, int argc, const char **argv,
                        redisReply **out)
{
    redisReply *r = group ? queue_group_command(q, timeout_ms, argc, argv)
                          : queue_command(q, timeout_ms, argc, argv);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type != REDIS_REPLY_ARRAY) {
        freeReplyObject(r);
        return SK_EINTERNAL;
    }
    *out = r;
    return SK_OK;
}

int queue_is_error(const redisReply *r, const char *prefix)
{
    return r->type == REDIS_REPLY_ERROR && strncmp(r->str, prefix, strlen(prefix)) == 0;
}

enum sk_err queue_command_int(struct queue *q, int argc, const char **argv, long long *out)
{
    redisReply *r = queue_command(q, QUEUE_TIMEOUT_MS, argc, argv);
    enum sk_err err = SK_OK;
    if (!r)
        return SK_EUNAVAIL;
    if (r->type == REDIS_REPLY_INTEGER) {
        if (out)
            *out = r->integer;
    } else {
        queue_set_error(q, r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply");
        err = queue_is_error(r, "LOADING") ? SK_EUNAVAIL : SK_EINTERNAL;
    }
    freeReplyObject(r);
    return err;
}

/* Creates the group (and the stream) if missing. */
static enum sk_err ensure_group(struct queue *q)
{
    const char *argv[] = {"XGROUP", "CREATE", q->stream, QUEUE_GROUP, "0", "MKSTREAM"};
    redisReply *r = queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
    enum sk_err err = SK_OK;
    if (!r)
        return SK_EUNAVAIL;
    if (r->type == REDIS_REPLY_ERROR && !queue_is_error(r, "BUSYGROUP"))
        err = SK_EINTERNAL;
    freeReplyObject(r);
    return err;
}

redisReply *queue_group_command(struct queue *q, long timeout_ms, int argc, const char **argv)
{
    redisReply *r = queue_command(q, timeout_ms, argc, argv);
    if (r && queue_is_error(r, "NOGROUP")) {
        freeReplyObject(r);
        if (ensure_group(q))
            return NULL;
        r = queue_command(q, timeout_ms, argc, argv);
    }
    return r;
}

enum sk_err queue_int_reply(redisReply *r, long long *out)
{
    enum sk_err err = SK_OK;
    if (!r)
        return SK_EUNAVAIL;
    if (r->type == REDIS_REPLY_INTEGER)
        *out = r->integer;
    else if (r->type == REDIS_REPLY_NIL)
        *out = 0;
    else if (r->type == REDIS_REPLY_STRING)
        *out = strtoll(r->str, NULL, 10);
    else
        err = SK_EINTERNAL;
    freeReplyObject(r);
    return err;
}

enum sk_err queue_ping(struct queue *q)
{
    const char *argv[] = {"PING"};
    redisReply *r = queue_command(q, QUEUE_PING_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
    enum sk_err err = r && r->type == REDIS_REPLY_STATUS ? SK_OK : SK_EUNAVAIL;
    if (r)
        freeReplyObject(r);
    return err;
}
