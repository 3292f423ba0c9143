/* SPDX-License-Identifier: MIT */
/* hiredis adapter (see queue.h). hiredis 0.14: RESP2 only, synchronous contexts. */
#include "queue.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

#define GROUP "workers"

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

static void set_error(struct queue *q, const char *msg)
{
    snprintf(q->error, sizeof(q->error), "%s", msg ? msg : "");
}

static void drop(struct queue *q)
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
    drop(q);
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

/* Connects (and authenticates, selects the db). Returns 0, or -1 with q->error set. */
static int connect_now(struct queue *q)
{
    struct timeval tv = {1, 0};
    redisReply *r;

    q->c = redisConnectWithTimeout(q->host, q->port, tv);
    if (!q->c || q->c->err) {
        set_error(q, q->c ? q->c->errstr : "cannot allocate a redis context");
        drop(q);
        return -1;
    }
    q->timeout_ms = -1;
    if (q->password) {
        r = redisCommand(q->c, "AUTH %s", q->password);
        if (!r || r->type == REDIS_REPLY_ERROR) {
            set_error(q, r ? r->str : q->c->errstr);
            if (r)
                freeReplyObject(r);
            drop(q);
            return -1;
        }
        freeReplyObject(r);
    }
    if (q->db) {
        r = redisCommand(q->c, "SELECT %d", q->db);
        if (!r || r->type == REDIS_REPLY_ERROR) {
            set_error(q, r ? r->str : q->c->errstr);
            if (r)
                freeReplyObject(r);
            drop(q);
            return -1;
        }
        freeReplyObject(r);
    }
    return 0;
}

/* Runs a command (argv form) with a socket timeout of `timeout_ms`, connecting first when
 * needed. A command that fails on a connection made earlier is retried once on a new one
 * (Redis restarted since): every command we send is safe to repeat (a repeated XADD only
 * adds a duplicate entry, which the claim ignores). Returns the reply (caller frees) or
 * NULL with the connection dropped. An error reply is returned as is. */
static redisReply *command(struct queue *q, long timeout_ms, int argc, const char **argv)
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
            drop(q);
            return NULL;
        }
        r = redisCommandArgv(q->c, argc, argv, NULL);
        if (r) {
            if (r->type == REDIS_REPLY_ERROR)
                set_error(q, r->str);
            return r;
        }
        set_error(q, q->c->errstr);
        drop(q); /* a context with an error is unusable */
        if (fresh)
            return NULL;
    }
    return NULL;
}

static int is_error(const redisReply *r, const char *prefix)
{
    return r->type == REDIS_REPLY_ERROR && strncmp(r->str, prefix, strlen(prefix)) == 0;
}

/* Creates the group (and the stream) if missing. */
static enum sk_err ensure_group(struct queue *q)
{
    const char *argv[] = {"XGROUP", "CREATE", q->stream, GROUP, "0", "MKSTREAM"};
    redisReply *r = command(q, 2000, 6, argv);
    enum sk_err err = SK_OK;
    if (!r)
        return SK_EUNAVAIL;
    if (r->type == REDIS_REPLY_ERROR && !is_error(r, "BUSYGROUP"))
        err = SK_EINTERNAL;
    freeReplyObject(r);
    return err;
}

/* Runs a command that needs the group; creates the group once when Redis says it is
 * missing (NOGROUP), which happens after Redis lost its data. */
static redisReply *group_command(struct queue *q, long timeout_ms, int argc, const char **argv)
{
    redisReply *r = command(q, timeout_ms, argc, argv);
    if (r && is_error(r, "NOGROUP")) {
        freeReplyObject(r);
        if (ensure_group(q))
            return NULL;
        r = command(q, timeout_ms, argc, argv);
    }
    return r;
}

enum sk_err queue_ping(struct queue *q)
{
    const char *argv[] = {"PING"};
    redisReply *r = command(q, 1000, 1, argv);
    enum sk_err err = r && r->type == REDIS_REPLY_STATUS ? SK_OK : SK_EUNAVAIL;
    if (r)
        freeReplyObject(r);
    return err;
}

enum sk_err queue_add(struct queue *q, const char *job_id, int attempt)
{
    char a[16];
    const char *argv[] = {"XADD", q->stream, "*", "job_id", job_id, "attempt", a};
    redisReply *r;
    enum sk_err err;

    snprintf(a, sizeof(a), "%d", attempt);
    r = command(q, 2000, 7, argv);
    if (!r)
        return SK_EUNAVAIL;
    err = r->type == REDIS_REPLY_STRING ? SK_OK : SK_EINTERNAL;
    freeReplyObject(r);
    /* A stream made by this XADD has no group yet; the first reader creates it from id 0
     * (NOGROUP handling), so the entry is still delivered. */
    return err;
}

/* Fills `out` from one stream entry reply [id, [field, value, ...]]. */
static void parse_entry(const redisReply *e, struct queue_entry *out)
{
    memset(out, 0, sizeof(*out));
    if (e->type != REDIS_REPLY_ARRAY || e->elements < 1 ||
        e->element[0]->type != REDIS_REPLY_STRING)
        return;
    snprintf(out->id, sizeof(out->id), "%s", e->element[0]->str);
    if (e->elements < 2 || e->element[1]->type != REDIS_REPLY_ARRAY)
        return;
    const redisReply *f = e->element[1];
    for (size_t i = 0; i + 1 < f->elements; i += 2) {
        const char *k = f->element[i]->str;
        const char *v = f->element[i + 1]->str;
        if (!k || !v)
            continue;
        if (strcmp(k, "job_id") == 0)
            snprintf(out->job_id, sizeof(out->job_id), "%s", v);
        else if (strcmp(k, "attempt") == 0) {
            int64_t n = 0;
            if (!sk_parse_i64(v, 0, 1000000, &n))
                out->attempt = (int)n;
        }
    }
}

enum sk_err queue_read(struct queue *q, const char *consumer, long block_ms,
                       struct queue_entry *out, int *got)
{
    char b[24];
    const char *argv[] = {"XREADGROUP", "GROUP", GROUP,     consumer,  "COUNT", "1",
                          "BLOCK",      b,       "STREAMS", q->stream, ">"};
    redisReply *r;
    enum sk_err err = SK_OK;

    snprintf(b, sizeof(b), "%ld", block_ms);
    /* the socket timeout must exceed BLOCK or a quiet stream looks like a dead server */
    r = group_command(q, block_ms + 2000, 11, argv);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type == REDIS_REPLY_NIL) {
        *got = 0;
    } else if (r->type == REDIS_REPLY_ARRAY && r->elements == 1 &&
               r->element[0]->type == REDIS_REPLY_ARRAY && r->element[0]->elements == 2 &&
               r->element[0]->element[1]->type == REDIS_REPLY_ARRAY &&
               r->element[0]->element[1]->elements >= 1) {
        parse_entry(r->element[0]->element[1]->element[0], out);
        *got = 1;
    } else if (r->type == REDIS_REPLY_ERROR && is_error(r, "LOADING")) {
        err = SK_EUNAVAIL;
    } else {
        err = SK_EINTERNAL;
    }
    freeReplyObject(r);
    return err;
}

static const char renew_lua[] =
    "local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)\n"
    "if #p == 0 or p[1][2] ~= ARGV[2] then return 0 end\n"
    "redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')\n"
    "return 1\n";

enum sk_err queue_renew(struct queue *q, const char *consumer, const char *entry_id, int *owned)
{
    const char *argv[] = {"EVAL", renew_lua, "1", q->stream, GROUP, consumer, entry_id};
    redisReply *r = group_command(q, 2000, 7, argv);
    enum sk_err err = SK_OK;
    if (!r)
        return SK_EUNAVAIL;
    if (r->type == REDIS_REPLY_INTEGER)
        *owned = r->integer == 1;
    else
        err = SK_EINTERNAL;
    freeReplyObject(r);
    return err;
}

enum sk_err queue_done(struct queue *q, const char *entry_id)
{
    const char *ack[] = {"XACK", q->stream, GROUP, entry_id};
    const char *del[] = {"XDEL", q->stream, entry_id};
    redisReply *r = group_command(q, 2000, 4, ack);
    enum sk_err err = SK_OK;
    if (!r)
        return SK_EUNAVAIL;
    if (r->type != REDIS_REPLY_INTEGER)
        err = SK_EINTERNAL;
    freeReplyObject(r);
    if (err)
        return err;
    r = command(q, 2000, 3, del);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type != REDIS_REPLY_INTEGER)
        err = SK_EINTERNAL;
    freeReplyObject(r);
    return err;
}

enum sk_err queue_autoclaim(struct queue *q, const char *consumer, long min_idle_ms,
                            struct queue_entry *out, size_t max, size_t *n)
{
    char idle[24];
    char count[24];
    const char *argv[] = {"XAUTOCLAIM", q->stream, GROUP, consumer, idle, "0-0", "COUNT", count};
    redisReply *r;
    size_t k = 0;
    enum sk_err err = SK_OK;

    snprintf(idle, sizeof(idle), "%ld", min_idle_ms);
    snprintf(count, sizeof(count), "%zu", max);
    r = group_command(q, 2000, 8, argv);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type == REDIS_REPLY_ARRAY && r->elements >= 2 &&
        r->element[1]->type == REDIS_REPLY_ARRAY) {
        const redisReply *list = r->element[1];
        for (size_t i = 0; i < list->elements && k < max; i++) {
            /* entries deleted from the stream come back as nil (or in the third element in
             * 7.0); the reconciler re-dispatches their jobs from PostgreSQL */
            if (list->element[i]->type != REDIS_REPLY_ARRAY)
                continue;
            parse_entry(list->element[i], &out[k]);
            if (out[k].id[0])
                k++;
        }
    } else {
        err = SK_EINTERNAL;
    }
    freeReplyObject(r);
    if (!err)
        *n = k;
    return err;
}

enum sk_err queue_progress(struct queue *q, const char *job_id, uint64_t done, uint64_t total)
{
    char key[160];
    char d[24];
    char t[24];
    const char *hset[] = {"HSET", key, "done", d, "total", t};
    const char *exp[] = {"EXPIRE", key, "86400"};
    redisReply *r;

    snprintf(key, sizeof(key), "%s:progress:%s", q->prefix, job_id);
    snprintf(d, sizeof(d), "%llu", (unsigned long long)done);
    snprintf(t, sizeof(t), "%llu", (unsigned long long)total);
    r = command(q, 2000, 6, hset);
    if (!r)
        return SK_EUNAVAIL;
    freeReplyObject(r);
    r = command(q, 2000, 3, exp);
    if (!r)
        return SK_EUNAVAIL;
    freeReplyObject(r);
    return SK_OK;
}

enum sk_err queue_scan(struct queue *q, queue_id_fn *fn, void *arg)
{
    char start[64] = "-";
    for (;;) {
        const char *argv[] = {"XRANGE", q->stream, start, "+", "COUNT", "1000"};
        redisReply *r = command(q, 5000, 6, argv);
        size_t n;
        if (!r)
            return SK_EUNAVAIL;
        if (r->type != REDIS_REPLY_ARRAY) {
            freeReplyObject(r);
            return SK_EINTERNAL;
        }
        n = r->elements;
        for (size_t i = 0; i < n; i++) {
            struct queue_entry e;
            parse_entry(r->element[i], &e);
            if (e.job_id[0])
                fn(e.job_id, arg);
            if (i + 1 == n)
                snprintf(start, sizeof(start), "(%s", e.id);
        }
        freeReplyObject(r);
        if (n < 1000)
            return SK_OK;
    }
}

enum sk_err queue_lock(struct queue *q, const char *name, long ttl_ms, int *got)
{
    char key[160];
    char ttl[24];
    const char *argv[] = {"SET", key, "1", "NX", "PX", ttl};
    redisReply *r;

    snprintf(key, sizeof(key), "%s:lock:%s", q->prefix, name);
    snprintf(ttl, sizeof(ttl), "%ld", ttl_ms);
    r = command(q, 2000, 6, argv);
    if (!r)
        return SK_EUNAVAIL;
    *got = r->type == REDIS_REPLY_STATUS;
    freeReplyObject(r);
    return SK_OK;
}
