/* SPDX-License-Identifier: MIT */
/* Worker telemetry in Redis (see queue_telemetry.h): progress hashes, heartbeats, the games
 * counters and the shared histograms behind GET /v1/stats and /metrics. */
#include "queue_telemetry.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue_int.h"

#include "sk_banned.h"

enum sk_err queue_progress(struct queue *q, const char *job_id, uint64_t done, uint64_t total)
{
    char key[160];
    char d[24];
    char t[24];
    const char *hset[] = {"HSET", key, "done", d, "total", t};
    const char *exp[] = {"EXPIRE", key, "86400"};

    snprintf(key, sizeof(key), "%s:progress:%s", q->prefix, job_id);
    snprintf(d, sizeof(d), "%llu", (unsigned long long)done);
    snprintf(t, sizeof(t), "%llu", (unsigned long long)total);
    enum sk_err err = queue_write(q, QUEUE_ARGC(hset), hset);
    return err ? err : queue_write(q, QUEUE_ARGC(exp), exp);
}

enum sk_err queue_progress_forget(struct queue *q, const char *job_id)
{
    char key[160];
    const char *del[] = {"DEL", key};

    snprintf(key, sizeof(key), "%s:progress:%s", q->prefix, job_id);
    return queue_write(q, QUEUE_ARGC(del), del);
}

enum sk_err queue_heartbeat(struct queue *q, const char *name, const char *json, long ttl_ms)
{
    char key[256];
    char set[160];
    char ttl[24];
    const char *put[] = {"SET", key, json, "PX", ttl};
    const char *add[] = {"SADD", set, name};

    snprintf(key, sizeof(key), "%s:worker:%s", q->prefix, name);
    snprintf(set, sizeof(set), "%s:workers", q->prefix);
    snprintf(ttl, sizeof(ttl), "%ld", ttl_ms);
    enum sk_err err = queue_write(q, QUEUE_ARGC(put), put);
    return err ? err : queue_write(q, QUEUE_ARGC(add), add);
}

enum sk_err queue_heartbeat_drop(struct queue *q, const char *name)
{
    char key[256];
    char set[160];
    const char *del[] = {"DEL", key};
    const char *rem[] = {"SREM", set, name};

    snprintf(key, sizeof(key), "%s:worker:%s", q->prefix, name);
    snprintf(set, sizeof(set), "%s:workers", q->prefix);
    enum sk_err err = queue_write(q, QUEUE_ARGC(del), del);
    return err ? err : queue_write(q, QUEUE_ARGC(rem), rem);
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
    redisReply *r = NULL;
    enum sk_err err;

    snprintf(set, sizeof(set), "%s:workers", q->prefix);
    snprintf(pre, sizeof(pre), "%s:worker:", q->prefix);
    err = queue_array(q, 0, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv, &r);
    if (err)
        return err;
    for (size_t i = 0; i < r->elements; i++)
        if (r->element[i]->type == REDIS_REPLY_STRING)
            fn(r->element[i]->str, arg);
    freeReplyObject(r);
    return SK_OK;
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
    err = queue_int_reply(queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(incr), incr), &v);
    if (!err)
        err = queue_int_reply(queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(exp), exp), &v);
    if (!err)
        err = queue_int_reply(queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(total), total), &v);
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
    r = queue_command(q, QUEUE_TIMEOUT_MS, n + 2, argv); /* MGET: the total + n seconds */
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

enum sk_err queue_hist_observe(struct queue *q, const char *name, const double *bounds,
                               size_t n_bounds, double value)
{
    char key[160];
    char field[24];
    char v[32];
    const char *incr[] = {"HINCRBY", key, field, "1"};
    const char *sum[] = {"HINCRBYFLOAT", key, "sum", v};
    size_t b = 0;

    while (b < n_bounds && value > bounds[b])
        b++;
    snprintf(key, sizeof(key), "%s:hist:%s", q->prefix, name);
    snprintf(field, sizeof(field), "b%zu", b); /* b<n_bounds> is +Inf */
    snprintf(v, sizeof(v), "%.6f", value);
    enum sk_err err = queue_write(q, QUEUE_ARGC(incr), incr);
    return err ? err : queue_write(q, QUEUE_ARGC(sum), sum);
}

enum sk_err queue_hist_read(struct queue *q, const char *name, uint64_t *counts, size_t n_buckets,
                            double *sum)
{
    char key[160];
    const char *argv[] = {"HGETALL", key};
    redisReply *r = NULL;
    enum sk_err err;

    snprintf(key, sizeof(key), "%s:hist:%s", q->prefix, name);
    err = queue_array(q, 0, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv, &r);
    if (err)
        return err;
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
