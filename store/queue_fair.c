/* SPDX-License-Identifier: MIT */
/* Fair share between tenants (see queue_fair.h). The scripts build key names from the
 * ring's contents, which a Redis Cluster would refuse; Skirmish runs on one Redis. */
#include "queue_fair.h"

#include <stdio.h>
#include <string.h>

#include "queue_int.h"

#include "sk_banned.h"

/* KEYS[1] the stream; ARGV[1] the group, ARGV[2] the key prefix. Moves jobs from the ring's
 * tenants to the stream while the undelivered entries (those after the group's
 * last-delivered id) are fewer than the idle consumers (at least one). Returns the number
 * moved. A missing stream or group counts every entry as undelivered and one idle reader. */
#define REFILL_LUA                                                                                 \
    "local function refill(stream, group, prefix)\n"                                               \
    "  local ring = prefix .. ':fair:ring'\n"                                                      \
    "  if redis.call('LLEN', ring) == 0 then return 0 end\n"                                       \
    "  local und, idle = redis.call('XLEN', stream), 1\n"                                          \
    "  local ok, groups = pcall(redis.call, 'XINFO', 'GROUPS', stream)\n"                          \
    "  if ok then\n"                                                                               \
    "    for _, g in ipairs(groups) do\n"                                                          \
    "      local f = {}\n"                                                                         \
    "      for i = 1, #g, 2 do f[g[i]] = g[i + 1] end\n"                                           \
    "      if f['name'] == group then\n"                                                           \
    "        local n = 0\n"                                                                        \
    "        for _, c in ipairs(redis.call('XINFO', 'CONSUMERS', stream, group)) do\n"             \
    "          for i = 1, #c, 2 do\n"                                                              \
    "            if c[i] == 'pending' and c[i + 1] == 0 then n = n + 1 end\n"                      \
    "          end\n"                                                                              \
    "        end\n"                                                                                \
    "        if n > idle then idle = n end\n"                                                      \
    "        und = #redis.call('XRANGE', stream, '(' .. f['last-delivered-id'], '+', 'COUNT', "    \
    "idle)\n"                                                                                      \
    "      end\n"                                                                                  \
    "    end\n"                                                                                    \
    "  end\n"                                                                                      \
    "  local moved = 0\n"                                                                          \
    "  while und < idle do\n"                                                                      \
    "    local t = redis.call('LPOP', ring)\n"                                                     \
    "    if not t then break end\n"                                                                \
    "    local list = prefix .. ':fair:q:' .. t\n"                                                 \
    "    local item = redis.call('LPOP', list)\n"                                                  \
    "    if item then\n"                                                                           \
    "      local sp = string.find(item, ' ', 1, true)\n"                                           \
    "      redis.call('XADD', stream, '*', 'job_id', string.sub(item, 1, sp - 1), 'attempt',"      \
    " string.sub(item, sp + 1))\n"                                                                 \
    "      und = und + 1\n"                                                                        \
    "      moved = moved + 1\n"                                                                    \
    "    end\n"                                                                                    \
    "    if redis.call('LLEN', list) > 0 then redis.call('RPUSH', ring, t)\n"                      \
    "    else redis.call('SREM', prefix .. ':fair:active', t) end\n"                               \
    "  end\n"                                                                                      \
    "  return moved\n"                                                                             \
    "end\n"

static const char refill_lua[] = REFILL_LUA "return refill(KEYS[1], ARGV[1], ARGV[2])\n";

/* ARGV[3] the tenant, ARGV[4] "job_id attempt". A tenant that had nothing waiting joins at
 * the head of the ring: a light user's job goes next, a backlog waits its turn. */
static const char add_lua[] =
    REFILL_LUA "local prefix = ARGV[2]\n"
               "redis.call('RPUSH', prefix .. ':fair:q:' .. ARGV[3], ARGV[4])\n"
               "if redis.call('SADD', prefix .. ':fair:active', ARGV[3]) == 1 then\n"
               "  redis.call('LPUSH', prefix .. ':fair:ring', ARGV[3])\n"
               "end\n"
               "return refill(KEYS[1], ARGV[1], prefix)\n";

enum sk_err queue_fair_add(struct queue *q, const char *tenant, const char *job_id, int attempt)
{
    char item[96];
    const char *argv[] = {"EVAL", add_lua, "1", q->stream, QUEUE_GROUP, q->prefix, tenant, item};
    snprintf(item, sizeof(item), "%.48s %d", job_id, attempt);
    return queue_command_int(q, QUEUE_ARGC(argv), argv, NULL);
}

enum sk_err queue_fair_refill(struct queue *q, long long *moved)
{
    const char *argv[] = {"EVAL", refill_lua, "1", q->stream, QUEUE_GROUP, q->prefix};
    return queue_command_int(q, QUEUE_ARGC(argv), argv, moved);
}

enum sk_err queue_fair_scan(struct queue *q, queue_id_fn *fn, void *arg)
{
    char active[160];
    const char *members[] = {"SMEMBERS", active};
    redisReply *set;
    enum sk_err err = SK_OK;

    snprintf(active, sizeof(active), "%s:fair:active", q->prefix);
    set = queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(members), members);
    if (!set)
        return SK_EUNAVAIL;
    if (set->type != REDIS_REPLY_ARRAY) {
        freeReplyObject(set);
        return SK_EINTERNAL;
    }
    for (size_t i = 0; !err && i < set->elements; i++) {
        char list[192];
        const char *range[] = {"LRANGE", list, "0", "-1"};
        redisReply *r;
        if (set->element[i]->type != REDIS_REPLY_STRING)
            continue;
        snprintf(list, sizeof(list), "%s:fair:q:%.63s", q->prefix, set->element[i]->str);
        r = queue_command(q, QUEUE_SCAN_TIMEOUT_MS, QUEUE_ARGC(range), range);
        if (!r) {
            err = SK_EUNAVAIL;
            break;
        }
        for (size_t k = 0; r->type == REDIS_REPLY_ARRAY && k < r->elements; k++) {
            char id[48];
            const char *s = r->element[k]->str;
            const char *sp = s ? strchr(s, ' ') : NULL;
            if (!sp || (size_t)(sp - s) >= sizeof(id))
                continue;
            memcpy(id, s, (size_t)(sp - s));
            id[sp - s] = '\0';
            fn(id, arg);
        }
        freeReplyObject(r);
    }
    freeReplyObject(set);
    return err;
}
