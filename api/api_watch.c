/* SPDX-License-Identifier: MIT */
/* Waiting requests and the Redis subscriber (see api_watch.h). */
#include "api_watch.h"

#include "api_cache.h"
#include <errno.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "queue.h"
#include "queue_notify.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_thread.h"
#include "sk_time.h"

#include "sk_banned.h"

struct entry {
    char job_id[40]; /* "" = any job (a feed's wait) */
    long long deadline_ms;
    int fd; /* the waiting client's socket, or -1 */
    api_watch_fn *fn;
    void *arg;
    struct entry *next;
};

struct api_watch_feed {
    char ids[API_WATCH_FEED_MAX][40];
    size_t n;
    int overflow;
    struct api_watch_feed *next;
};

struct api_watch {
    pthread_mutex_t lock; /* protects head, feeds and closing; held while calling fn */
    struct entry *head;
    struct api_watch_feed *feeds;
    int closing;
    size_t max;
    atomic_size_t open;
    struct queue *sub;                 /* NULL = no subscriber thread */
    struct sk_thread subscriber;       /* runs run() when sub is set; stopped before sub is freed */
    _Atomic(struct api_cache *) cache; /* borrowed; forgets a job Redis announces (deleted) */
};

/* 1 when the client of a suspended connection has closed it (or half-closed it: it can
 * send no further request). A suspended connection is not polled by the HTTP server. */
static int hung_up(int fd)
{
    char c;
    ssize_t n;
    if (fd < 0)
        return 0;
    n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* Adds `job_id` to every feed ("" = everything may have changed: overflow). Under the lock. */
static void feed_all(struct api_watch *w, const char *job_id)
{
    if (w->closing) /* the streams end: nothing to reload */
        return;
    for (struct api_watch_feed *f = w->feeds; f; f = f->next) {
        size_t i = 0;
        if (!job_id[0]) {
            f->overflow = 1;
            continue;
        }
        while (i < f->n && strcmp(f->ids[i], job_id) != 0)
            i++;
        if (i < f->n)
            continue; /* already waiting to be taken: read once, in its latest state */
        if (f->n == API_WATCH_FEED_MAX)
            f->overflow = 1;
        else
            snprintf(f->ids[f->n++], sizeof(f->ids[0]), "%s", job_id);
    }
}

/* Fires and unlinks every entry `pick` selects (job_id NULL = deadline or hang-up test,
 * "" = all). */
static void fire(struct api_watch *w, const char *job_id, long long now_ms)
{
    pthread_mutex_lock(&w->lock);
    struct entry **pp = &w->head;
    if (job_id)
        feed_all(w, job_id); /* under the same lock as a feed's wait: no change is missed */
    while (*pp) {
        struct entry *e = *pp;
        int hup = !job_id && hung_up(e->fd);
        int hit = job_id ? (!job_id[0] || !e->job_id[0] || strcmp(e->job_id, job_id) == 0)
                         : hup || e->deadline_ms <= now_ms;
        if (hit) {
            *pp = e->next;
            e->fn(e->arg, hup ? 2 : 1);
            sk_free(e);
        } else {
            pp = &e->next;
        }
    }
    pthread_mutex_unlock(&w->lock);
}

void api_watch_notify(struct api_watch *w, const char *job_id)
{
    if (job_id[0])
        fire(w, job_id, 0);
}

void api_watch_expire(struct api_watch *w, long long now_ms)
{
    fire(w, NULL, now_ms);
}

void api_watch_close(struct api_watch *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->closing = 1;
    pthread_mutex_unlock(&w->lock);
    fire(w, "", 0);
}

int api_watch_add(struct api_watch *w, const char *job_id, long long deadline_ms, int fd,
                  api_watch_fn *fn, void *arg)
{
    struct entry *e = sk_calloc(1, sizeof(*e));
    if (!e)
        return -1;
    snprintf(e->job_id, sizeof(e->job_id), "%s", job_id);
    e->deadline_ms = deadline_ms;
    e->fd = fd;
    e->fn = fn;
    e->arg = arg;
    pthread_mutex_lock(&w->lock);
    if (w->closing) {
        pthread_mutex_unlock(&w->lock);
        sk_free(e);
        return -1;
    }
    e->next = w->head;
    w->head = e;
    /* suspended under the lock: no fire can reach this entry before the suspend is done */
    fn(arg, 0);
    pthread_mutex_unlock(&w->lock);
    return 0;
}

struct api_watch_feed *api_watch_feed_open(struct api_watch *w)
{
    struct api_watch_feed *f = sk_calloc(1, sizeof(*f));
    if (!f)
        return NULL;
    pthread_mutex_lock(&w->lock);
    if (w->closing) {
        pthread_mutex_unlock(&w->lock);
        sk_free(f);
        return NULL;
    }
    f->next = w->feeds;
    w->feeds = f;
    pthread_mutex_unlock(&w->lock);
    return f;
}

void api_watch_feed_close(struct api_watch *w, struct api_watch_feed *f)
{
    if (!f)
        return;
    pthread_mutex_lock(&w->lock);
    for (struct api_watch_feed **pp = &w->feeds; *pp; pp = &(*pp)->next)
        if (*pp == f) {
            *pp = f->next;
            break;
        }
    pthread_mutex_unlock(&w->lock);
    sk_free(f);
}

size_t api_watch_feed_take(struct api_watch *w, struct api_watch_feed *f, char (*ids)[40],
                           int *overflow)
{
    size_t n;
    pthread_mutex_lock(&w->lock);
    n = f->n;
    memcpy(ids, f->ids, n * sizeof(f->ids[0]));
    *overflow = f->overflow;
    f->n = 0;
    f->overflow = 0;
    pthread_mutex_unlock(&w->lock);
    return n;
}

int api_watch_feed_wait(struct api_watch *w, struct api_watch_feed *f, long long deadline_ms,
                        int fd, api_watch_fn *fn, void *arg)
{
    struct entry *e = sk_calloc(1, sizeof(*e));
    if (!e)
        return -1;
    e->deadline_ms = deadline_ms;
    e->fd = fd;
    e->fn = fn;
    e->arg = arg;
    pthread_mutex_lock(&w->lock);
    if (w->closing || f->n || f->overflow) {
        int closing = w->closing;
        pthread_mutex_unlock(&w->lock);
        sk_free(e);
        return closing ? -1 : 1;
    }
    e->next = w->head;
    w->head = e;
    fn(arg, 0);
    pthread_mutex_unlock(&w->lock);
    return 0;
}

int api_watch_acquire(struct api_watch *w)
{
    size_t n = atomic_load(&w->open);
    do {
        if (n >= w->max)
            return 0;
    } while (!atomic_compare_exchange_weak(&w->open, &n, n + 1));
    return 1;
}

void api_watch_release(struct api_watch *w)
{
    atomic_fetch_sub(&w->open, 1);
}

size_t api_watch_open(struct api_watch *w)
{
    return atomic_load(&w->open);
}

/* The subscriber: turns Redis messages into fires, and fires deadlines every 100 ms. After
 * Redis was unreachable every waiter is fired, since changes may have been missed. */
static void *run(void *arg)
{
    struct api_watch *w = arg;
    int subscribed = 0;
    long long retry_ms = 0;

    while (!sk_thread_stopping(&w->subscriber)) {
        char job[48];
        int got = 0;
        long long now = sk_time_mono_ms();
        if (!subscribed && now >= retry_ms) {
            if (queue_subscribe(w->sub) == SK_OK) {
                subscribed = 1;
                fire(w, "", 0);
                sk_log_info("event=subscribed");
            } else {
                retry_ms = now + 1000;
            }
        }
        if (subscribed) {
            if (queue_sub_read(w->sub, 100, job, &got) != SK_OK) {
                char q[300];
                sk_log_warn("event=subscriber_lost err=%s",
                            sk_log_quote(q, sizeof(q), queue_error(w->sub)));
                subscribed = 0;
                retry_ms = sk_time_mono_ms() + 1000;
            } else if (got) {
                /* a cached job is final: an announcement can only mean it was deleted */
                api_cache_remove(atomic_load(&w->cache), job);
                api_watch_notify(w, job);
            }
        } else {
            /* a stop cuts the pause short; the loop's test then ends the thread */
            (void)sk_thread_wait_ms(&w->subscriber, 100);
        }
        api_watch_expire(w, sk_time_mono_ms());
    }
    return NULL;
}

enum sk_err api_watch_new(size_t max, const char *redis_url, const char *prefix,
                          struct api_watch **out)
{
    struct api_watch *w = sk_calloc(1, sizeof(*w));
    enum sk_err err;

    if (!w)
        return SK_ENOMEM;
    pthread_mutex_init(&w->lock, NULL);
    w->max = max;
    if (redis_url) {
        err = queue_new(redis_url, prefix, &w->sub);
        if (err) {
            api_watch_free(w);
            return err;
        }
        err = sk_thread_start(&w->subscriber, run, w);
        if (err) {
            queue_free(w->sub);
            w->sub = NULL;
            api_watch_free(w);
            return err;
        }
    }
    *out = w;
    return SK_OK;
}

void api_watch_free(struct api_watch *w)
{
    if (!w)
        return;
    if (w->sub) {
        sk_thread_stop(&w->subscriber);
        queue_free(w->sub);
    }
    while (w->head) {
        struct entry *e = w->head;
        w->head = e->next;
        sk_free(e);
    }

    pthread_mutex_destroy(&w->lock);
    sk_free(w);
}

void api_watch_set_cache(struct api_watch *w, struct api_cache *cache)
{
    if (w)
        atomic_store(&w->cache, cache);
}
