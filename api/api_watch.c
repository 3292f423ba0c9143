/* SPDX-License-Identifier: MIT */
/* Waiting requests, their slots, the Redis subscriber and the key checker (see
 * api_watch.h). */
#include "api_watch.h"

#include "api_cache.h"
#include <errno.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "db.h"
#include "db_keys.h"
#include "queue.h"
#include "queue_notify.h"
#include "sk_hash.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_thread.h"
#include "sk_time.h"

#include "sk_banned.h"

struct entry {
    char job_id[40]; /* "" = any job (a feed's wait) */
    long long deadline_ms;
    int fd;                      /* the waiting client's socket, or -1 */
    struct api_watch_slot *slot; /* borrowed; NULL = never revoked */
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

/* A tenant with open waiters, and how many; freed when its last one ends. */
struct tenant {
    char name[DB_KEYS_TENANT_LEN];
    size_t open;
    struct tenant *next; /* in its bucket */
};

/* Buckets of the tenant table: a fixed count, since only tenants with open waiters are in
 * it (at most SKIRMISH_MAX_WAITERS of them). */
#define TENANT_BUCKETS 64

struct api_watch_slot {
    char key_id[DB_KEYS_ID_LEN];        /* "" = keys off: never revoked */
    struct tenant *tenant;              /* NULL = keys off: no tenant cap */
    atomic_int revoked;                 /* set under the lock, read by the waiter's thread */
    struct api_watch_slot *prev, *next; /* in the registry's list, under the lock */
};

struct api_watch {
    /* protects head, feeds, closing, slots, keyed and tenants; held while calling fn.
     * No other lock is taken under it but the callbacks' (libmicrohttpd's resume). */
    pthread_mutex_t lock;
    struct entry *head;
    struct api_watch_feed *feeds;
    int closing;
    size_t max;
    size_t max_per_tenant; /* 0 = no cap */
    atomic_size_t open;
    struct api_watch_slot *slots; /* every open waiter */
    size_t keyed;                 /* slots with a key */
    struct tenant *tenants[TENANT_BUCKETS];
    struct queue *sub;                 /* NULL = no subscriber thread */
    struct sk_thread subscriber;       /* runs run() when sub is set; stopped before sub is freed */
    struct db *keys_db;                /* NULL = no key checker; its thread's alone */
    struct sk_thread checker;          /* runs check_run() when keys_db is set */
    _Atomic(struct api_cache *) cache; /* borrowed; forgets a job Redis announces (deleted) */
};

/* ===== Registrations and fires ===== */

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

static int slot_revoked(const struct api_watch_slot *s)
{
    return s && atomic_load(&s->revoked);
}

/* Fires and unlinks every registration of a revoked slot. Under the lock. */
static void fire_revoked(struct api_watch *w)
{
    struct entry **pp = &w->head;
    while (*pp) {
        struct entry *e = *pp;
        if (slot_revoked(e->slot)) {
            *pp = e->next;
            e->fn(e->arg, API_WATCH_REVOKED);
            sk_free(e);
        } else {
            pp = &e->next;
        }
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
            e->fn(e->arg, hup ? API_WATCH_HUNGUP : API_WATCH_FIRED);
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

/* Links `e` and suspends its waiter; a slot revoked already fires it at once, so that a
 * revocation between the waiter's last look and this call is not missed. Under the lock. */
static void link_entry(struct api_watch *w, struct entry *e)
{
    e->next = w->head;
    w->head = e;
    /* suspended under the lock: no fire can reach this entry before the suspend is done */
    e->fn(e->arg, API_WATCH_SUSPEND);
    if (slot_revoked(e->slot))
        fire_revoked(w);
}

int api_watch_add(struct api_watch *w, struct api_watch_slot *slot, const char *job_id,
                  long long deadline_ms, int fd, api_watch_fn *fn, void *arg)
{
    struct entry *e = sk_calloc(1, sizeof(*e));
    if (!e)
        return -1;
    snprintf(e->job_id, sizeof(e->job_id), "%s", job_id);
    e->deadline_ms = deadline_ms;
    e->fd = fd;
    e->slot = slot;
    e->fn = fn;
    e->arg = arg;
    pthread_mutex_lock(&w->lock);
    if (w->closing) {
        pthread_mutex_unlock(&w->lock);
        sk_free(e);
        return -1;
    }
    link_entry(w, e);
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

int api_watch_feed_wait(struct api_watch *w, struct api_watch_feed *f, struct api_watch_slot *slot,
                        long long deadline_ms, int fd, api_watch_fn *fn, void *arg)
{
    struct entry *e = sk_calloc(1, sizeof(*e));
    if (!e)
        return -1;
    e->deadline_ms = deadline_ms;
    e->fd = fd;
    e->slot = slot;
    e->fn = fn;
    e->arg = arg;
    pthread_mutex_lock(&w->lock);
    if (w->closing || f->n || f->overflow) {
        int closing = w->closing;
        pthread_mutex_unlock(&w->lock);
        sk_free(e);
        return closing ? -1 : 1;
    }
    link_entry(w, e);
    pthread_mutex_unlock(&w->lock);
    return 0;
}

/* ===== Slots ===== */

/* The tenant's entry (made when `make` and missing), or NULL. Under the lock. */
static struct tenant *tenant_of(struct api_watch *w, const char *name, int make)
{
    struct tenant **b = &w->tenants[sk_fnv1a_str(name) % TENANT_BUCKETS];
    struct tenant *t;
    for (t = *b; t; t = t->next)
        if (strcmp(t->name, name) == 0)
            return t;
    if (!make)
        return NULL;
    t = sk_calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    snprintf(t->name, sizeof(t->name), "%s", name);
    t->next = *b;
    *b = t;
    return t;
}

/* Forgets a tenant whose last waiter ended. Under the lock. */
static void tenant_drop(struct api_watch *w, struct tenant *t)
{
    struct tenant **pp = &w->tenants[sk_fnv1a_str(t->name) % TENANT_BUCKETS];
    while (*pp && *pp != t)
        pp = &(*pp)->next;
    if (*pp)
        *pp = t->next;
    sk_free(t);
}

enum api_watch_verdict api_watch_acquire(struct api_watch *w, const char *tenant,
                                         const char *key_id, struct api_watch_slot **out)
{
    struct api_watch_slot *s = sk_calloc(1, sizeof(*s));
    enum api_watch_verdict v = API_WATCH_OK;

    if (!s)
        return API_WATCH_NOMEM;
    snprintf(s->key_id, sizeof(s->key_id), "%s", key_id ? key_id : "");
    pthread_mutex_lock(&w->lock);
    if (atomic_load(&w->open) >= w->max) {
        v = API_WATCH_FULL;
    } else if (tenant && tenant[0]) {
        s->tenant = tenant_of(w, tenant, 1);
        if (!s->tenant)
            v = API_WATCH_NOMEM;
        else if (w->max_per_tenant && s->tenant->open >= w->max_per_tenant)
            v = API_WATCH_TENANT_FULL;
        if (s->tenant && !s->tenant->open && v != API_WATCH_OK)
            tenant_drop(w, s->tenant); /* made just now for this refusal */
    }
    if (v == API_WATCH_OK) {
        if (s->tenant)
            s->tenant->open++;
        if (s->key_id[0])
            w->keyed++;
        s->next = w->slots;
        if (w->slots)
            w->slots->prev = s;
        w->slots = s;
        atomic_fetch_add(&w->open, 1);
    }
    pthread_mutex_unlock(&w->lock);
    if (v != API_WATCH_OK) {
        sk_free(s);
        return v;
    }
    *out = s;
    return API_WATCH_OK;
}

void api_watch_release(struct api_watch *w, struct api_watch_slot *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&w->lock);
    if (s->prev)
        s->prev->next = s->next;
    else
        w->slots = s->next;
    if (s->next)
        s->next->prev = s->prev;
    if (s->tenant && --s->tenant->open == 0)
        tenant_drop(w, s->tenant);
    if (s->key_id[0])
        w->keyed--;
    atomic_fetch_sub(&w->open, 1);
    pthread_mutex_unlock(&w->lock);
    sk_free(s);
}

size_t api_watch_open(struct api_watch *w)
{
    return atomic_load(&w->open);
}

size_t api_watch_tenant_open(struct api_watch *w, const char *tenant)
{
    struct tenant *t;
    size_t n;
    pthread_mutex_lock(&w->lock);
    t = tenant_of(w, tenant, 0);
    n = t ? t->open : 0;
    pthread_mutex_unlock(&w->lock);
    return n;
}

int api_watch_revoked(const struct api_watch_slot *slot)
{
    return slot_revoked(slot);
}

/* Marks the slots of `key_id` revoked; 1 when any was not yet. Under the lock. */
static int mark_revoked(struct api_watch *w, const char *key_id)
{
    int any = 0;
    for (struct api_watch_slot *s = w->slots; s; s = s->next)
        if (s->key_id[0] && strcmp(s->key_id, key_id) == 0 && !atomic_load(&s->revoked)) {
            atomic_store(&s->revoked, 1);
            any = 1;
        }
    return any;
}

void api_watch_revoke(struct api_watch *w, const char *key_id)
{
    if (!key_id || !key_id[0])
        return;
    pthread_mutex_lock(&w->lock);
    if (mark_revoked(w, key_id)) {
        sk_log_info("event=waiters_revoked key=%.16s", key_id);
        fire_revoked(w);
    }
    pthread_mutex_unlock(&w->lock);
}

/* ===== The key checker: revocations whose announcement was lost ===== */

static int cmp_id(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* The distinct keys of the open waiters in a new array of *n (sk_free), or NULL when there
 * are none or memory is short (the next period tries again). */
static char (*held_keys(struct api_watch *w, size_t *n))[DB_KEYS_ID_LEN]
{
    char(*ids)[DB_KEYS_ID_LEN] = NULL;
    size_t cap, k = 0;

    *n = 0;
    pthread_mutex_lock(&w->lock);
    cap = w->keyed;
    pthread_mutex_unlock(&w->lock);
    if (!cap)
        return NULL;
    /* more may open meanwhile: they are read at the next period */
    ids = sk_malloc(cap * sizeof(*ids));
    if (!ids)
        return NULL;
    pthread_mutex_lock(&w->lock);
    for (struct api_watch_slot *s = w->slots; s && k < cap; s = s->next)
        if (s->key_id[0] && !atomic_load(&s->revoked))
            memcpy(ids[k++], s->key_id, sizeof(ids[0]));
    pthread_mutex_unlock(&w->lock);
    qsort(ids, k, sizeof(ids[0]), cmp_id);
    for (size_t i = 0; i < k; i++)
        if (*n == 0 || strcmp(ids[*n - 1], ids[i]) != 0)
            memmove(ids[(*n)++], ids[i], sizeof(ids[0]));
    if (!*n) {
        sk_free(ids);
        return NULL;
    }
    return ids;
}

/* One check: every held key that PostgreSQL no longer has active is revoked here. Returns
 * the store's error (logged by the caller once per outage). */
static enum sk_err check_keys(struct api_watch *w)
{
    size_t n = 0;
    char(*ids)[DB_KEYS_ID_LEN] = held_keys(w, &n);
    unsigned char *revoked = NULL;
    enum sk_err err = SK_OK;

    if (!ids)
        return SK_OK;
    revoked = sk_malloc(n);
    if (!revoked) {
        err = SK_ENOMEM;
        goto out;
    }
    err = db_keys_revoked_among(w->keys_db, (const char(*)[DB_KEYS_ID_LEN])ids, n, revoked);
    if (err)
        goto out;
    for (size_t i = 0; i < n; i++)
        if (revoked[i])
            api_watch_revoke(w, ids[i]);
out:
    sk_free(revoked);
    sk_free(ids);
    return err;
}

static void *check_run(void *arg)
{
    struct api_watch *w = arg;
    int failing = 0;
    while (!sk_thread_wait_ms(&w->checker, API_WATCH_KEY_CHECK_MS)) {
        enum sk_err err = check_keys(w);
        if (err && !failing) {
            char q[600];
            sk_log_warn("event=key_check_failed err=%s msg=%s", sk_err_str(err),
                        sk_log_quote(q, sizeof(q), db_error(w->keys_db)));
        } else if (!err && failing) {
            sk_log_info("event=key_check_back");
        }
        failing = err != SK_OK;
    }
    return NULL;
}

/* ===== The subscriber ===== */

/* The subscriber: turns Redis messages into fires, and fires deadlines every 100 ms. After
 * Redis was unreachable every waiter is fired, since changes may have been missed (a
 * revocation missed meanwhile is the key checker's). */
static void *run(void *arg)
{
    struct api_watch *w = arg;
    int subscribed = 0;
    long long retry_ms = 0;

    while (!sk_thread_stopping(&w->subscriber)) {
        char name[48];
        enum queue_note got = QUEUE_NOTE_NONE;
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
            if (queue_sub_read(w->sub, 100, name, &got) != SK_OK) {
                char q[300];
                sk_log_warn("event=subscriber_lost err=%s",
                            sk_log_quote(q, sizeof(q), queue_error(w->sub)));
                subscribed = 0;
                retry_ms = sk_time_mono_ms() + 1000;
            } else if (got == QUEUE_NOTE_JOB) {
                /* a cached job is final: an announcement can only mean it was deleted */
                api_cache_remove(atomic_load(&w->cache), name);
                api_watch_notify(w, name);
            } else if (got == QUEUE_NOTE_KEY) {
                /* Redis is trusted (docs/security.md) and the announcement follows the
                 * committed revocation; a long poll reads its key again anyway */
                api_watch_revoke(w, name);
            }
        } else {
            /* a stop cuts the pause short; the loop's test then ends the thread */
            (void)sk_thread_wait_ms(&w->subscriber, 100);
        }
        api_watch_expire(w, sk_time_mono_ms());
    }
    return NULL;
}

enum sk_err api_watch_new(const struct api_watch_opts *o, struct api_watch **out)
{
    struct api_watch *w = sk_calloc(1, sizeof(*w));
    enum sk_err err;

    if (!w)
        return SK_ENOMEM;
    pthread_mutex_init(&w->lock, NULL);
    w->max = o->max;
    w->max_per_tenant = o->max_per_tenant;
    if (o->redis_url) {
        err = queue_new(o->redis_url, o->prefix, &w->sub);
        if (err)
            goto fail;
        err = sk_thread_start(&w->subscriber, run, w);
        if (err) {
            queue_free(w->sub);
            w->sub = NULL;
            goto fail;
        }
    }
    if (o->database_url) {
        err = db_new(o->database_url, &w->keys_db);
        if (err)
            goto fail;
        err = sk_thread_start(&w->checker, check_run, w);
        if (err) {
            db_free(w->keys_db);
            w->keys_db = NULL;
            goto fail;
        }
    }
    *out = w;
    return SK_OK;
fail:
    api_watch_free(w);
    return err;
}

void api_watch_free(struct api_watch *w)
{
    if (!w)
        return;
    if (w->sub) {
        sk_thread_stop(&w->subscriber);
        queue_free(w->sub);
    }
    if (w->keys_db) {
        sk_thread_stop(&w->checker);
        db_free(w->keys_db);
    }
    while (w->head) {
        struct entry *e = w->head;
        w->head = e->next;
        sk_free(e);
    }
    /* slots are their waiters' and released by them; tenants go with their last slot */
    pthread_mutex_destroy(&w->lock);
    sk_free(w);
}

void api_watch_set_cache(struct api_watch *w, struct api_cache *cache)
{
    if (w)
        atomic_store(&w->cache, cache);
}
