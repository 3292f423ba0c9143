/* SPDX-License-Identifier: MIT */
/* hiredis adapter (see queue.h). hiredis 0.14: RESP2 only, synchronous contexts. */
#include "queue.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Checks the reply of a connection set-up command (AUTH, SELECT) and frees it. On an error
 * reply or a lost connection, records the reason, drops the connection and returns 1. */
static int setup_failed(struct queue *q, redisReply *r)
{
    if (!r || r->type == REDIS_REPLY_ERROR) {
        set_error(q, r ? r->str : q->c->errstr);
        if (r)
            freeReplyObject(r);
        drop(q);
        return 1;
    }
    freeReplyObject(r);
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

/* Reads field `key` of a flat [k, v, k, v, ...] reply as an integer, or -1. */
static long long field_int(const redisReply *m, const char *key)
{
    for (size_t i = 0; i + 1 < m->elements; i += 2)
        if (m->element[i]->type == REDIS_REPLY_STRING && strcmp(m->element[i]->str, key) == 0 &&
            m->element[i + 1]->type == REDIS_REPLY_INTEGER)
            return m->element[i + 1]->integer;
    return -1;
}

enum sk_err queue_prune_consumers(struct queue *q, long min_idle_ms, size_t *removed)
{
    const char *argv[] = {"XINFO", "CONSUMERS", q->stream, GROUP};
    redisReply *r = group_command(q, 2000, 4, argv);
    size_t n = 0;
    enum sk_err err = SK_OK;

    if (!r)
        return SK_EUNAVAIL;
    if (r->type != REDIS_REPLY_ARRAY) {
        freeReplyObject(r);
        return SK_EINTERNAL;
    }
    for (size_t i = 0; i < r->elements && !err; i++) {
        const redisReply *m = r->element[i];
        const char *name = NULL;
        if (m->type != REDIS_REPLY_ARRAY)
            continue;
        for (size_t k = 0; k + 1 < m->elements; k += 2)
            if (m->element[k]->type == REDIS_REPLY_STRING &&
                strcmp(m->element[k]->str, "name") == 0)
                name = m->element[k + 1]->str;
        if (!name || field_int(m, "pending") != 0 || field_int(m, "idle") < min_idle_ms)
            continue;
        const char *del[] = {"XGROUP", "DELCONSUMER", q->stream, GROUP, name};
        redisReply *d = command(q, 2000, 5, del);
        if (!d) {
            err = SK_EUNAVAIL;
            break;
        }
        if (d->type == REDIS_REPLY_INTEGER)
            n++;
        freeReplyObject(d);
    }
    freeReplyObject(r);
    if (!err)
        *removed = n;
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

/* ---- notifications, heartbeats and shared counters (GET /v1/stats, /metrics) ---- */

enum sk_err queue_publish(struct queue *q, const char *job_id, const char *what)
{
    char ch[160];
    const char *argv[] = {"PUBLISH", ch, what};
    redisReply *r;

    snprintf(ch, sizeof(ch), "%s:job:%s", q->prefix, job_id);
    r = command(q, 2000, 3, argv);
    if (!r)
        return SK_EUNAVAIL;
    freeReplyObject(r);
    return SK_OK;
}

enum sk_err queue_subscribe(struct queue *q)
{
    char pattern[160];
    const char *argv[] = {"PSUBSCRIBE", pattern};
    redisReply *r;
    enum sk_err err = SK_OK;

    snprintf(pattern, sizeof(pattern), "%s:job:*", q->prefix);
    drop(q); /* a subscribed connection can do nothing else: always start a fresh one */
    r = command(q, 2000, 2, argv);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type != REDIS_REPLY_ARRAY)
        err = SK_EINTERNAL;
    freeReplyObject(r);
    if (err)
        drop(q);
    return err;
}

enum sk_err queue_sub_read(struct queue *q, long timeout_ms, char job_id[48], int *got)
{
    redisReply *r = NULL;
    struct pollfd pfd;
    size_t plen = strlen(q->prefix) + strlen(":job:");

    *got = 0;
    if (!q->c)
        return SK_EUNAVAIL;
    /* A reply may already be buffered; otherwise wait for the socket (a blocking read with a
     * socket timeout would leave the hiredis context unusable on every quiet period). */
    if (redisGetReplyFromReader(q->c, (void **)&r) != REDIS_OK)
        goto lost;
    if (!r) {
        pfd.fd = q->c->fd;
        pfd.events = POLLIN;
        pfd.revents = 0;
        if (poll(&pfd, 1, (int)timeout_ms) <= 0)
            return SK_OK;
        if (redisBufferRead(q->c) != REDIS_OK ||
            redisGetReplyFromReader(q->c, (void **)&r) != REDIS_OK)
            goto lost;
        if (!r)
            return SK_OK;
    }
    /* ["pmessage", pattern, channel, payload] */
    if (r->type == REDIS_REPLY_ARRAY && r->elements == 4 &&
        r->element[0]->type == REDIS_REPLY_STRING && strcmp(r->element[0]->str, "pmessage") == 0 &&
        r->element[2]->type == REDIS_REPLY_STRING && r->element[2]->len > plen) {
        snprintf(job_id, 48, "%s", r->element[2]->str + plen);
        *got = 1;
    }
    freeReplyObject(r);
    return SK_OK;
lost:
    set_error(q, q->c->errstr);
    drop(q);
    return SK_EUNAVAIL;
}

enum sk_err queue_heartbeat(struct queue *q, const char *name, const char *json, long ttl_ms)
{
    char key[256];
    char set[160];
    char ttl[24];
    const char *put[] = {"SET", key, json, "PX", ttl};
    const char *add[] = {"SADD", set, name};
    redisReply *r;

    snprintf(key, sizeof(key), "%s:worker:%s", q->prefix, name);
    snprintf(set, sizeof(set), "%s:workers", q->prefix);
    snprintf(ttl, sizeof(ttl), "%ld", ttl_ms);
    r = command(q, 2000, 5, put);
    if (!r)
        return SK_EUNAVAIL;
    freeReplyObject(r);
    r = command(q, 2000, 3, add);
    if (!r)
        return SK_EUNAVAIL;
    freeReplyObject(r);
    return SK_OK;
}

enum sk_err queue_heartbeat_drop(struct queue *q, const char *name)
{
    char key[256];
    char set[160];
    const char *del[] = {"DEL", key};
    const char *rem[] = {"SREM", set, name};
    redisReply *r;

    snprintf(key, sizeof(key), "%s:worker:%s", q->prefix, name);
    snprintf(set, sizeof(set), "%s:workers", q->prefix);
    r = command(q, 2000, 2, del);
    if (!r)
        return SK_EUNAVAIL;
    freeReplyObject(r);
    r = command(q, 2000, 3, rem);
    if (!r)
        return SK_EUNAVAIL;
    freeReplyObject(r);
    return SK_OK;
}

/* Lua: every live heartbeat in the set; names whose key expired are removed from it. */
static const char workers_lua[] =
    "local out = {}\n"
    "for _, n in ipairs(redis.call('SMEMBERS', KEYS[1])) do\n"
    "  local v = redis.call('GET', ARGV[1] .. n)\n"
    "  if v then out[#out + 1] = v else redis.call('SREM', KEYS[1], n) end\n"
    "end\n"
    "return out\n";

enum sk_err queue_workers(struct queue *q, queue_text_fn *fn, void *arg)
{
    char set[160];
    char pre[160];
    const char *argv[] = {"EVAL", workers_lua, "1", set, pre};
    redisReply *r;

    snprintf(set, sizeof(set), "%s:workers", q->prefix);
    snprintf(pre, sizeof(pre), "%s:worker:", q->prefix);
    r = command(q, 2000, 5, argv);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type != REDIS_REPLY_ARRAY) {
        freeReplyObject(r);
        return SK_EINTERNAL;
    }
    for (size_t i = 0; i < r->elements; i++)
        if (r->element[i]->type == REDIS_REPLY_STRING)
            fn(r->element[i]->str, arg);
    freeReplyObject(r);
    return SK_OK;
}

static enum sk_err int_reply(redisReply *r, long long *out)
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

enum sk_err queue_games_add(struct queue *q, uint64_t games, long long now_s)
{
    char key[160];
    char tot[160];
    char n[24];
    const char *incr[] = {"INCRBY", key, n};
    const char *exp[] = {"EXPIRE", key, "120"};
    const char *total[] = {"INCRBY", tot, n};
    long long v;
    enum sk_err err;

    snprintf(key, sizeof(key), "%s:games:%lld", q->prefix, now_s);
    snprintf(tot, sizeof(tot), "%s:games_total", q->prefix);
    snprintf(n, sizeof(n), "%llu", (unsigned long long)games);
    err = int_reply(command(q, 2000, 3, incr), &v);
    if (!err)
        err = int_reply(command(q, 2000, 3, exp), &v);
    if (!err)
        err = int_reply(command(q, 2000, 3, total), &v);
    return err;
}

enum sk_err queue_games_read(struct queue *q, long long now_s, int seconds, long long *window,
                             long long *total)
{
    char keys[61][160];
    const char *argv[62];
    redisReply *r;
    long long sum = 0;
    int n = seconds > 60 ? 60 : seconds;
    enum sk_err err = SK_OK;

    argv[0] = "MGET";
    snprintf(keys[0], sizeof(keys[0]), "%s:games_total", q->prefix);
    argv[1] = keys[0];
    /* the second now in progress is left out: it is not over, and would read low */
    for (int i = 1; i <= n; i++) {
        snprintf(keys[i], sizeof(keys[i]), "%s:games:%lld", q->prefix, now_s - i);
        argv[i + 1] = keys[i];
    }
    r = command(q, 2000, n + 2, argv);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type != REDIS_REPLY_ARRAY || r->elements != (size_t)n + 1) {
        freeReplyObject(r);
        return SK_EINTERNAL;
    }
    for (size_t i = 1; i < r->elements; i++)
        if (r->element[i]->type == REDIS_REPLY_STRING)
            sum += strtoll(r->element[i]->str, NULL, 10);
    *total = r->element[0]->type == REDIS_REPLY_STRING ? strtoll(r->element[0]->str, NULL, 10) : 0;
    *window = sum;
    freeReplyObject(r);
    return err;
}

enum sk_err queue_length(struct queue *q, long long *n)
{
    const char *argv[] = {"XLEN", q->stream};
    return int_reply(command(q, 2000, 2, argv), n);
}

enum sk_err queue_hist_observe(struct queue *q, const char *name, const double *bounds,
                               size_t n_bounds, double value)
{
    char key[160];
    char field[24];
    char v[32];
    const char *incr[] = {"HINCRBY", key, field, "1"};
    const char *sum[] = {"HINCRBYFLOAT", key, "sum", v};
    size_t b = 0;
    redisReply *r;

    while (b < n_bounds && value > bounds[b])
        b++;
    snprintf(key, sizeof(key), "%s:hist:%s", q->prefix, name);
    snprintf(field, sizeof(field), "b%zu", b); /* b<n_bounds> is +Inf */
    snprintf(v, sizeof(v), "%.6f", value);
    r = command(q, 2000, 4, incr);
    if (!r)
        return SK_EUNAVAIL;
    freeReplyObject(r);
    r = command(q, 2000, 4, sum);
    if (!r)
        return SK_EUNAVAIL;
    freeReplyObject(r);
    return SK_OK;
}

enum sk_err queue_hist_read(struct queue *q, const char *name, uint64_t *counts, size_t n_buckets,
                            double *sum)
{
    char key[160];
    const char *argv[] = {"HGETALL", key};
    redisReply *r;

    snprintf(key, sizeof(key), "%s:hist:%s", q->prefix, name);
    r = command(q, 2000, 2, argv);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type != REDIS_REPLY_ARRAY) {
        freeReplyObject(r);
        return SK_EINTERNAL;
    }
    memset(counts, 0, n_buckets * sizeof(*counts));
    *sum = 0;
    for (size_t i = 0; i + 1 < r->elements; i += 2) {
        const char *k = r->element[i]->str;
        const char *v = r->element[i + 1]->str;
        if (!k || !v)
            continue;
        if (strcmp(k, "sum") == 0) {
            *sum = strtod(v, NULL);
        } else if (k[0] == 'b') {
            unsigned long b = strtoul(k + 1, NULL, 10);
            if (b < n_buckets)
                counts[b] = strtoull(v, NULL, 10);
        }
    }
    freeReplyObject(r);
    return SK_OK;
}

const double queue_job_seconds_bounds[QUEUE_JOB_SECONDS_N] = {0.01, 0.05, 0.1, 0.5, 1,   2.5,
                                                              5,    10,   30,  60,  300, 1800};
