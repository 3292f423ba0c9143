/* SPDX-License-Identifier: MIT */
/* A background thread and its stop request (see sk_thread.h). */
#include "sk_thread.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "sk_time.h"

#include "sk_banned.h"

/* sk_thread_wait_ms's longest sleep: keeps the deadline in nanoseconds far from int64's
 * end, whatever `ms` a caller passes. */
#define WAIT_MAX_MS 1000000000000L

static enum sk_err from_errno(int e)
{
    return e == EAGAIN || e == ENOMEM ? SK_ENOMEM : SK_EINTERNAL;
}

enum sk_err sk_thread_start(struct sk_thread *t, sk_thread_fn *fn, void *arg)
{
    pthread_condattr_t attr;
    int have_attr = 0, have_lock = 0, have_wake = 0;
    int e;

    memset(t, 0, sizeof(*t));
    e = pthread_condattr_init(&attr);
    if (e)
        goto out;
    have_attr = 1;
    /* the wait's deadline is on the monotonic clock (sk_thread_wait_ms) */
    e = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    if (e)
        goto out;
    e = pthread_mutex_init(&t->lock, NULL);
    if (e)
        goto out;
    have_lock = 1;
    e = pthread_cond_init(&t->wake, &attr);
    if (e)
        goto out;
    have_wake = 1;
    e = pthread_create(&t->id, NULL, fn, arg);
    if (e)
        goto out;
    t->started = 1;
out:
    if (have_attr)
        (void)pthread_condattr_destroy(&attr);
    if (e) {
        if (have_wake)
            (void)pthread_cond_destroy(&t->wake);
        if (have_lock)
            (void)pthread_mutex_destroy(&t->lock);
        memset(t, 0, sizeof(*t));
        return from_errno(e);
    }
    return SK_OK;
}

void sk_thread_stop(struct sk_thread *t)
{
    if (!t || !t->started)
        return;
    pthread_mutex_lock(&t->lock);
    t->stop = 1;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->id, NULL);
    (void)pthread_cond_destroy(&t->wake);
    (void)pthread_mutex_destroy(&t->lock);
    memset(t, 0, sizeof(*t));
}

int sk_thread_stopping(struct sk_thread *t)
{
    int stop;
    pthread_mutex_lock(&t->lock);
    stop = t->stop;
    pthread_mutex_unlock(&t->lock);
    return stop;
}

int sk_thread_wait_ms(struct sk_thread *t, long ms)
{
    int64_t end_ns;
    struct timespec until;
    int stop;

    if (ms < 0)
        ms = 0;
    if (ms > WAIT_MAX_MS)
        ms = WAIT_MAX_MS;
    end_ns = sk_time_mono_ns() + (int64_t)ms * 1000000;
    until.tv_sec = (time_t)(end_ns / 1000000000);
    until.tv_nsec = (long)(end_ns % 1000000000);
    pthread_mutex_lock(&t->lock);
    /* 0 is a wake-up without a stop (spurious, or a signal that raced): wait on to the
     * same deadline; ETIMEDOUT (or an error) ends the wait */
    while (!t->stop && pthread_cond_timedwait(&t->wake, &t->lock, &until) == 0)
        ;
    stop = t->stop;
    pthread_mutex_unlock(&t->lock);
    return stop;
}
