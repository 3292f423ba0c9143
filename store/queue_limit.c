/* SPDX-License-Identifier: MIT */
/* Token buckets in Redis (see queue_limit.h). */
#include "queue_limit.h"

#include <stdio.h>
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
