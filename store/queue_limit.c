/* SPDX-License-Identifier: MIT */
/* Token buckets in Redis (see queue_limit.h). */
#include "queue_limit.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue_int.h"

#include "sk_banned.h"

/* KEYS[1] the bucket; ARGV rate per second, size. The bucket keeps its fill and the time of
 * its last take; it expires once it would be full anyway. Replies {allowed, whole tokens
 * left, ms until a token is back (refused only), ms until full}. */
static const char take_lua[] =
    "local t = redis.call('TIME')\n"
    "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"
    "local rate = tonumber(ARGV[1])\n"
    "local burst = tonumber(ARGV[2])\n"
    "local b = redis.call('HMGET', KEYS[1], 'tokens', 'ts')\n"
    "local tokens = tonumber(b[1]) or burst\n"
    "local ts = tonumber(b[2]) or now\n"
    "if now > ts then tokens = math.min(burst, tokens + (now - ts) * rate / 1000) end\n"
    "local allowed = 0\n"
    "local wait = 0\n"
    "if tokens >= 1 then tokens = tokens - 1; allowed = 1\n"
    "else wait = math.ceil((1 - tokens) * 1000 / rate) end\n"
    "redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))\n"
    "local full = math.ceil((burst - tokens) * 1000 / rate)\n"
    "redis.call('PEXPIRE', KEYS[1], full + 1000)\n"
    "return {allowed, math.floor(tokens), wait, full}\n";

enum sk_err queue_limit_take(struct queue *q, const char *name, long rate_per_s, long burst,
                             struct queue_limit *out)
{
    char key[192];
    char rate[24];
    char size[24];
    const char *argv[] = {"EVAL", take_lua, "1", key, rate, size};
    redisReply *r;
    enum sk_err err = SK_OK;

    snprintf(key, sizeof(key), "%s:rl:%.64s", q->prefix, name);
    snprintf(rate, sizeof(rate), "%ld", rate_per_s);
    snprintf(size, sizeof(size), "%ld", burst);
    r = queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type == REDIS_REPLY_ARRAY && r->elements == 4) {
        long long v[4];
        for (size_t i = 0; i < 4; i++)
            v[i] = r->element[i]->type == REDIS_REPLY_INTEGER ? r->element[i]->integer : 0;
        out->allowed = v[0] == 1;
        out->remaining = v[1];
        out->retry_ms = v[2];
        out->reset_ms = v[3];
    } else {
        queue_set_error(q, r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply");
        err = SK_EINTERNAL;
    }
    freeReplyObject(r);
    return err;
}

/* KEYS[1] the tenant's prefix (PREFIX:units:<tenant>); ARGV units, limit, sign (1 add, -1
 * undo). The day is Redis's UTC day. Replies {allowed, used, seconds to the day's end}. */
static const char units_lua[] =
    "local t = tonumber(redis.call('TIME')[1])\n"
    "local key = KEYS[1] .. ':' .. math.floor(t / 86400)\n"
    "local n = tonumber(ARGV[1])\n"
    "local rest = 86400 - t % 86400\n"
    "if ARGV[3] == '-1' then\n"
    "  if redis.call('EXISTS', key) == 1 then redis.call('DECRBY', key, n) end\n"
    "  return {1, 0, rest}\n"
    "end\n"
    "local used = tonumber(redis.call('GET', key) or '0')\n"
    "if used + n > tonumber(ARGV[2]) then return {0, used, rest} end\n"
    "used = redis.call('INCRBY', key, n)\n"
    "redis.call('EXPIRE', key, 172800)\n"
    "return {1, used, rest}\n";

/* units_lua on the tenant's counter `what` ("units" or "cpu"). */
static enum sk_err day_eval(struct queue *q, const char *what, const char *tenant, long long units,
                            long long limit, const char *sign, int *allowed, long long *used,
                            long long *reset_s)
{
    char key[192];
    char n[24];
    char lim[24];
    const char *argv[] = {"EVAL", units_lua, "1", key, n, lim, sign};
    redisReply *r;
    enum sk_err err = SK_OK;

    snprintf(key, sizeof(key), "%s:%s:%.63s", q->prefix, what, tenant);
    snprintf(n, sizeof(n), "%lld", units);
    snprintf(lim, sizeof(lim), "%lld", limit);
    r = queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type == REDIS_REPLY_ARRAY && r->elements == 3) {
        *allowed = r->element[0]->type == REDIS_REPLY_INTEGER && r->element[0]->integer == 1;
        *used = r->element[1]->type == REDIS_REPLY_INTEGER ? r->element[1]->integer : 0;
        *reset_s = r->element[2]->type == REDIS_REPLY_INTEGER ? r->element[2]->integer : 0;
    } else {
        queue_set_error(q, r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply");
        err = SK_EINTERNAL;
    }
    freeReplyObject(r);
    return err;
}

enum sk_err queue_limit_units(struct queue *q, const char *tenant, long long units, long long limit,
                              int *allowed, long long *used, long long *reset_s)
{
    return day_eval(q, "units", tenant, units, limit, "1", allowed, used, reset_s);
}

enum sk_err queue_limit_units_undo(struct queue *q, const char *tenant, long long units)
{
    int allowed = 0;
    long long used = 0;
    long long reset = 0;
    return day_eval(q, "units", tenant, units, 0, "-1", &allowed, &used, &reset);
}

enum sk_err queue_limit_cpu_today(struct queue *q, const char *tenant, long long *used_ms,
                                  long long *reset_s)
{
    int allowed = 0;
    /* adding nothing under no limit reads the day's count (and keeps the key two days) */
    return day_eval(q, "cpu", tenant, 0, LLONG_MAX / 2, "1", &allowed, used_ms, reset_s);
}

/* KEYS[1] the tenant's CPU prefix (PREFIX:cpu:<tenant>), KEYS[2] the running total; ARGV
 * milliseconds. The day is Redis's UTC day, as units_lua's. */
static const char charge_lua[] = "local t = tonumber(redis.call('TIME')[1])\n"
                                 "local key = KEYS[1] .. ':' .. math.floor(t / 86400)\n"
                                 "redis.call('INCRBY', key, ARGV[1])\n"
                                 "redis.call('EXPIRE', key, 172800)\n"
                                 "return redis.call('INCRBY', KEYS[2], ARGV[1])\n";

enum sk_err queue_limit_cpu_charge(struct queue *q, const char *tenant, long long ms)
{
    char key[192];
    char total[160];
    char n[24];
    const char *argv[] = {"EVAL", charge_lua, "2", key, total, n};

    snprintf(key, sizeof(key), "%s:cpu:%.63s", q->prefix, tenant);
    snprintf(total, sizeof(total), "%s:cpu_ms_total", q->prefix);
    snprintf(n, sizeof(n), "%lld", ms);
    return queue_command_int(q, QUEUE_ARGC(argv), argv, NULL);
}

enum sk_err queue_limit_cpu_estimated(struct queue *q, long long ms)
{
    char key[160];
    char n[24];
    const char *argv[] = {"INCRBY", key, n};

    snprintf(key, sizeof(key), "%s:cpu_estimate_ms_total", q->prefix);
    snprintf(n, sizeof(n), "%lld", ms);
    return queue_command_int(q, QUEUE_ARGC(argv), argv, NULL);
}

enum sk_err queue_limit_cpu_totals(struct queue *q, long long *charged_ms, long long *estimated_ms)
{
    char a[160];
    char b[160];
    const char *argv[] = {"MGET", a, b};
    redisReply *r;
    enum sk_err err = SK_OK;

    snprintf(a, sizeof(a), "%s:cpu_ms_total", q->prefix);
    snprintf(b, sizeof(b), "%s:cpu_estimate_ms_total", q->prefix);
    r = queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type == REDIS_REPLY_ARRAY && r->elements == 2) {
        *charged_ms = r->element[0]->type == REDIS_REPLY_STRING ? atoll(r->element[0]->str) : 0;
        *estimated_ms = r->element[1]->type == REDIS_REPLY_STRING ? atoll(r->element[1]->str) : 0;
    } else {
        queue_set_error(q, r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply");
        err = SK_EINTERNAL;
    }
    freeReplyObject(r);
    return err;
}
