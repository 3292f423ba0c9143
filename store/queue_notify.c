/* SPDX-License-Identifier: MIT */
/* Job notifications over pub/sub (see queue_notify.h). */
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

enum sk_err queue_subscribe(struct queue *q)
{
    char pattern[160];
    const char *argv[] = {"PSUBSCRIBE", pattern};
    redisReply *r;
    enum sk_err err = SK_OK;

    snprintf(pattern, sizeof(pattern), "%s:job:*", q->prefix);
    queue_drop(q); /* a subscribed connection can do nothing else: always start a fresh one */
    r = queue_command(q, QUEUE_TIMEOUT_MS, QUEUE_ARGC(argv), argv);
    if (!r)
        return SK_EUNAVAIL;
    if (r->type != REDIS_REPLY_ARRAY)
        err = SK_EINTERNAL;
    freeReplyObject(r);
    if (err)
        queue_drop(q);
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
    queue_set_error(q, q->c->errstr);
    queue_drop(q);
    return SK_EUNAVAIL;
}
