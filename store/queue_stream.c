/* SPDX-License-Identifier: MIT */
/* The job stream (see queue.h): XADD, XREADGROUP, the ownership-checked lease renewal,
 * XACK+XDEL, XAUTOCLAIM, consumer pruning, the scan of every entry, XLEN, and the lock that
 * spaces out the reconciler. */
#include "queue.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue_fair.h"
#include "queue_int.h"
#include "sk_parse.h"

#include "sk_banned.h"

/* Entries per XRANGE page of queue_scan. */
#define SCAN_PAGE 1000
#define STR_(x)   #x
#define STR(x)    STR_(x)

enum sk_err queue_add(struct queue *q, const char *job_id, int attempt)
{
    char a[16];
    const char *argv[] = {"XADD", q->stream, "*", "job_id", job_id, "attempt", a};
    redisReply *r;
    enum sk_err err;

    snprintf(a, sizeof(a), "%d", attempt);
    r = queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
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
    const char *argv[] = {"XREADGROUP", "GROUP", QUEUE_GROUP, consumer,  "COUNT", "1",
                          "BLOCK",      b,       "STREAMS",   q->stream, ">"};
    redisReply *r;
    enum sk_err err = SK_OK;

    snprintf(b, sizeof(b), "%ld", block_ms);
    /* the tenants' waiting jobs take turns into the stream (queue_fair.h); a failure here
     * shows in the read below */
    (void)queue_fair_refill(q, NULL);
    /* the socket timeout must exceed BLOCK or a quiet stream looks like a dead server */
    r = queue_group_command(q, block_ms + QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
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
    } else if (r->type == REDIS_REPLY_ERROR && queue_is_error(r, "LOADING")) {
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
    const char *argv[] = {"EVAL", renew_lua, "1", q->stream, QUEUE_GROUP, consumer, entry_id};
    redisReply *r = queue_group_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
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
    const char *ack[] = {"XACK", q->stream, QUEUE_GROUP, entry_id};
    const char *del[] = {"XDEL", q->stream, entry_id};
    redisReply *r = queue_group_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(ack), ack);
    enum sk_err err = SK_OK;
    if (!r)
        return SK_EUNAVAIL;
    if (r->type != REDIS_REPLY_INTEGER)
        err = SK_EINTERNAL;
    freeReplyObject(r);
    if (err)
        return err;
    r = queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(del), del);
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
    const char *argv[] = {"XAUTOCLAIM", q->stream, QUEUE_GROUP, consumer,
                          idle,         "0-0",     "COUNT",     count};
    redisReply *r;
    size_t k = 0;
    enum sk_err err = SK_OK;

    snprintf(idle, sizeof(idle), "%ld", min_idle_ms);
    snprintf(count, sizeof(count), "%zu", max);
    r = queue_group_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
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
    const char *argv[] = {"XINFO", "CONSUMERS", q->stream, QUEUE_GROUP};
    redisReply *r = queue_group_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
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
        const char *del[] = {"XGROUP", "DELCONSUMER", q->stream, QUEUE_GROUP, name};
        redisReply *d = queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(del), del);
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

enum sk_err queue_scan(struct queue *q, queue_id_fn *fn, void *arg)
{
    char start[64] = "-";
    /* the jobs waiting their tenant's turn first: one that moves to the stream meanwhile
     * is then seen there */
    enum sk_err err = queue_fair_scan(q, fn, arg);
    if (err)
        return err;
    for (;;) {
        const char *argv[] = {"XRANGE", q->stream, start, "+", "COUNT", STR(SCAN_PAGE)};
        redisReply *r = queue_command(q, QUEUE_SCAN_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
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
        if (n < SCAN_PAGE)
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
    r = queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
    if (!r)
        return SK_EUNAVAIL;
    *got = r->type == REDIS_REPLY_STATUS;
    freeReplyObject(r);
    return SK_OK;
}

enum sk_err queue_length(struct queue *q, long long *n)
{
    const char *argv[] = {"XLEN", q->stream};
    return queue_int_reply(queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv), n);
}
