/* SPDX-License-Identifier: MIT */
/* Job and key notifications over pub/sub (see queue_notify.h). */
#include "queue_notify.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "queue_int.h"

#include "sk_banned.h"

enum sk_err queue_publish(struct queue *q, const char *job_id, const char *what)
{
    char ch[160];
    const char *argv[] = {"PUBLISH", ch, what};

    snprintf(ch, sizeof(ch), "%s:job:%s", q->prefix, job_id);
    return queue_write(q, QUEUE_ARGC(argv), argv);
}

enum sk_err queue_publish_revoked(struct queue *q, const char *key_id)
{
    char ch[160];
    const char *argv[] = {"PUBLISH", ch, "revoked"};

    snprintf(ch, sizeof(ch), "%s:key:%s", q->prefix, key_id);
    return queue_write(q, QUEUE_ARGC(argv), argv);
}

/* 1 when `r` is the confirmation of a PSUBSCRIBE: ["psubscribe", pattern, count]. */
static int confirmed(const redisReply *r)
{
    return r && r->type == REDIS_REPLY_ARRAY && r->elements == 3 &&
           r->element[0]->type == REDIS_REPLY_STRING &&
           strcmp(r->element[0]->str, "psubscribe") == 0;
}

enum sk_err queue_subscribe(struct queue *q)
{
    char jobs[160];
    char keys[160];
    const char *argv[] = {"PSUBSCRIBE", jobs, keys};
    redisReply *r;
    void *second = NULL;
    enum sk_err err = SK_OK;

    snprintf(jobs, sizeof(jobs), "%s:job:*", q->prefix);
    snprintf(keys, sizeof(keys), "%s:key:*", q->prefix);
    queue_drop(q); /* a subscribed connection can do nothing else: always start a fresh one */
    r = queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
    if (!r)
        return SK_EUNAVAIL;
    if (!confirmed(r))
        err = SK_EINTERNAL;
    freeReplyObject(r);
    /* one confirmation per pattern: read the second too, so that both subscriptions are in
     * place when this returns (a revocation published afterwards is heard) */
    if (!err && (redisGetReply(q->c, &second) != REDIS_OK || !confirmed(second))) {
        queue_set_error(q, q->c->err ? q->c->errstr : "unexpected reply to PSUBSCRIBE");
        err = SK_EUNAVAIL;
    }
    if (second)
        freeReplyObject(second);
    if (err)
        queue_drop(q);
    return err;
}

enum sk_err queue_sub_read(struct queue *q, long timeout_ms, char name[48], enum queue_note *got)
{
    redisReply *r = NULL;
    struct pollfd pfd;
    size_t plen = strlen(q->prefix);

    *got = QUEUE_NOTE_NONE;
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
    /* ["pmessage", pattern, channel, payload]; the channel is PREFIX:job:<id> or
     * PREFIX:key:<id> ("job:" and "key:" have the same length) */
    if (r->type == REDIS_REPLY_ARRAY && r->elements == 4 &&
        r->element[0]->type == REDIS_REPLY_STRING && strcmp(r->element[0]->str, "pmessage") == 0 &&
        r->element[2]->type == REDIS_REPLY_STRING && r->element[2]->len > plen + 5 &&
        strncmp(r->element[2]->str, q->prefix, plen) == 0) {
        const char *ch = r->element[2]->str + plen;
        if (strncmp(ch, ":job:", 5) == 0)
            *got = QUEUE_NOTE_JOB;
        else if (strncmp(ch, ":key:", 5) == 0)
            *got = QUEUE_NOTE_KEY;
        if (*got)
            snprintf(name, 48, "%s", ch + 5);
    }
    freeReplyObject(r);
    return SK_OK;
lost:
    queue_set_error(q, q->c->errstr);
    queue_drop(q);
    return SK_EUNAVAIL;
}
