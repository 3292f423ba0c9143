/* SPDX-License-Identifier: MIT */
/* Connection caps, deadlines, waiter caps and the body memory budget (see api_guard.h). */
#include "api_guard.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>

#include "sk_log.h"
#include "sk_mem.h"
#include "sk_thread.h"
#include "sk_time.h"

#include "sk_banned.h"

#define BUCKETS 1024

/* The counts of one client address; freed when both reach 0. */
struct addr_count {
    uint32_t addr;
    long conns;
    long waiters;
    struct addr_count *next;
};

struct api_guard_conn {
    int fd;
    uint32_t addr;
    long long deadline_ms; /* 0 = none */
    int refused;           /* answered by the guard; closed at the deadline */
    int quiet;             /* idle between requests: closed without an answer */
    struct api_guard_conn *prev, *next;
};

struct api_guard {
    struct api_guard_limits lim;
    char *answer[3];         /* timeout, per_addr, too_many (owned) */
    struct sk_thread reaper; /* runs reap(); its stop request is guarded inside, not by `lock` */
    pthread_mutex_t lock;    /* protects everything below and every connection's fields */
    struct addr_count *table[BUCKETS];
    struct api_guard_conn *conns;
    size_t n_conns;
    atomic_size_t body_bytes;
};

/* The counts of `addr`, made when `make` (NULL when out of memory or absent); locked. */
static struct addr_count *find(struct api_guard *g, uint32_t addr, int make)
{
    size_t b = (addr * 2654435761u) % BUCKETS;
    struct addr_count *a = g->table[b];
    while (a && a->addr != addr)
        a = a->next;
    if (!a && make) {
        a = sk_calloc(1, sizeof(*a));
        if (a) {
            a->addr = addr;
            a->next = g->table[b];
            g->table[b] = a;
        }
    }
    return a;
}

/* Frees the counts of `addr` once nothing is counted there; locked. */
static void drop_if_empty(struct api_guard *g, uint32_t addr)
{
    struct addr_count **pp = &g->table[(addr * 2654435761u) % BUCKETS];
    while (*pp && (*pp)->addr != addr)
        pp = &(*pp)->next;
    if (*pp && (*pp)->conns == 0 && (*pp)->waiters == 0) {
        struct addr_count *a = *pp;
        *pp = a->next;
        sk_free(a);
    }
}

/* Writes a prepared answer without blocking; a full socket buffer just loses it. */
static void write_answer(int fd, const char *text)
{
    size_t n = strlen(text);
    (void)send(fd, text, n, MSG_DONTWAIT | MSG_NOSIGNAL);
}

/* Every 100 ms: a connection past its deadline gets the 408 (unless the guard answered it
 * already) and its socket is shut both ways, so the server's next read sees the end and
 * closes it. The socket stays open until api_guard_close, which takes the lock. */
static void *reap(void *arg)
{
    struct api_guard *g = arg;
    while (!sk_thread_stopping(&g->reaper)) {
        long long now = sk_time_mono_ms();
        pthread_mutex_lock(&g->lock);
        for (struct api_guard_conn *c = g->conns; c; c = c->next) {
            if (!c->deadline_ms || c->deadline_ms > now)
                continue;
            if (!c->refused && !c->quiet) {
                write_answer(c->fd, g->answer[0]);
                sk_log_info("event=http_timeout fd=%d", c->fd);
            }
            shutdown(c->fd, SHUT_RDWR);
            c->refused = 1;
            c->deadline_ms = 0;
        }
        pthread_mutex_unlock(&g->lock);
        /* a stop cuts the step short; the loop's test then ends the thread */
        (void)sk_thread_wait_ms(&g->reaper, 100);
    }
    return NULL;
}

enum sk_err api_guard_new(const struct api_guard_limits *lim, const struct api_guard_answers *ans,
                          struct api_guard **out)
{
    struct api_guard *g = sk_calloc(1, sizeof(*g));
    enum sk_err err;

    if (!g)
        return SK_ENOMEM;
    g->lim = *lim;
    g->answer[0] = sk_strdup(ans->timeout);
    g->answer[1] = sk_strdup(ans->per_addr);
    g->answer[2] = sk_strdup(ans->too_many);
    pthread_mutex_init(&g->lock, NULL);
    if (!g->answer[0] || !g->answer[1] || !g->answer[2]) {
        api_guard_free(g);
        return SK_ENOMEM;
    }
    err = sk_thread_start(&g->reaper, reap, g);
    if (err) {
        api_guard_free(g);
        return err;
    }
    *out = g;
    return SK_OK;
}

void api_guard_free(struct api_guard *g)
{
    if (!g)
        return;
    sk_thread_stop(&g->reaper); /* a no-op when it never started */
    for (size_t b = 0; b < BUCKETS; b++) {
        while (g->table[b]) {
            struct addr_count *a = g->table[b];
            g->table[b] = a->next;
            sk_free(a);
        }
    }
    for (int i = 0; i < 3; i++)
        sk_free(g->answer[i]);
    pthread_mutex_destroy(&g->lock);
    sk_free(g);
}

struct api_guard_conn *api_guard_open(struct api_guard *g, int fd, uint32_t addr, int per_addr,
                                      int *refused)
{
    struct api_guard_conn *c = sk_calloc(1, sizeof(*c));
    struct addr_count *a;
    int over_addr;

    *refused = 0;
    if (!c)
        return NULL;
    c->fd = fd;
    c->addr = addr;
    pthread_mutex_lock(&g->lock);
    a = find(g, addr, 1);
    if (!a) {
        pthread_mutex_unlock(&g->lock);
        sk_free(c);
        return NULL;
    }
    a->conns++;
    g->n_conns++;
    c->next = g->conns;
    if (g->conns)
        g->conns->prev = c;
    g->conns = c;
    over_addr = per_addr && a->conns > g->lim.max_conns_per_addr;
    if ((long)g->n_conns > g->lim.max_conns || over_addr) {
        write_answer(fd, g->answer[over_addr ? 1 : 2]);
        shutdown(fd, SHUT_WR);
        c->refused = 1;
        c->deadline_ms = sk_time_mono_ms() + API_GUARD_LINGER_MS;
        *refused = 1;
    } else {
        c->deadline_ms = sk_time_mono_ms() + g->lim.header_timeout_ms;
    }
    pthread_mutex_unlock(&g->lock);
    return c;
}

int api_guard_refuse(struct api_guard *g, struct api_guard_conn *c, const char *text, size_t n)
{
    int done = 0;
    pthread_mutex_lock(&g->lock); /* the reaper writes its 408 under it */
    if (!c->refused) {
        (void)send(c->fd, text, n, MSG_DONTWAIT | MSG_NOSIGNAL);
        shutdown(c->fd, SHUT_WR);
        c->refused = 1;
        c->quiet = 0;
        c->deadline_ms = sk_time_mono_ms() + API_GUARD_LINGER_MS;
        done = 1;
    }
    pthread_mutex_unlock(&g->lock);
    return done;
}

void api_guard_close(struct api_guard *g, struct api_guard_conn *c)
{
    struct addr_count *a;
    if (!c)
        return;
    pthread_mutex_lock(&g->lock);
    if (c->prev)
        c->prev->next = c->next;
    else
        g->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    g->n_conns--;
    a = find(g, c->addr, 0);
    if (a) {
        a->conns--;
        drop_if_empty(g, c->addr);
    }
    pthread_mutex_unlock(&g->lock);
    sk_free(c);
}

int api_guard_refused(struct api_guard *g, const struct api_guard_conn *c)
{
    int r;
    if (!c)
        return 0;
    pthread_mutex_lock(&g->lock); /* the reaper sets it */
    r = c->refused;
    pthread_mutex_unlock(&g->lock);
    return r;
}

void api_guard_phase(struct api_guard *g, struct api_guard_conn *c, enum api_guard_phase p)
{
    if (!c)
        return;
    pthread_mutex_lock(&g->lock);
    if (!c->refused) {
        c->quiet = p == API_GUARD_IDLE;
        c->deadline_ms = p == API_GUARD_BUSY   ? 0
                         : p == API_GUARD_BODY ? sk_time_mono_ms() + g->lim.body_timeout_ms
                                               : sk_time_mono_ms() + g->lim.header_timeout_ms;
    }
    pthread_mutex_unlock(&g->lock);
}

uint32_t api_guard_addr(const struct api_guard_conn *c)
{
    return c ? c->addr : 0;
}

int api_guard_waiter_acquire(struct api_guard *g, uint32_t addr)
{
    struct addr_count *a;
    int ok = 0;
    pthread_mutex_lock(&g->lock);
    a = find(g, addr, 1);
    if (a && a->waiters < g->lim.max_waiters_per_addr) {
        a->waiters++;
        ok = 1;
    }
    if (a && !ok)
        drop_if_empty(g, addr);
    pthread_mutex_unlock(&g->lock);
    return ok;
}

void api_guard_waiter_release(struct api_guard *g, uint32_t addr)
{
    struct addr_count *a;
    pthread_mutex_lock(&g->lock);
    a = find(g, addr, 0);
    if (a && a->waiters > 0) {
        a->waiters--;
        drop_if_empty(g, addr);
    }
    pthread_mutex_unlock(&g->lock);
}

int api_guard_body_reserve(struct api_guard *g, size_t n)
{
    size_t cur = atomic_load(&g->body_bytes);
    do {
        if (cur + n > (size_t)g->lim.body_memory_bytes)
            return 0;
    } while (!atomic_compare_exchange_weak(&g->body_bytes, &cur, cur + n));
    return 1;
}

void api_guard_body_release(struct api_guard *g, size_t n)
{
    atomic_fetch_sub(&g->body_bytes, n);
}

size_t api_guard_body_bytes(const struct api_guard *g)
{
    return atomic_load(&((struct api_guard *)g)->body_bytes);
}

size_t api_guard_conns(const struct api_guard *g)
{
    struct api_guard *m = (struct api_guard *)g;
    size_t n;
    pthread_mutex_lock(&m->lock);
    n = m->n_conns;
    pthread_mutex_unlock(&m->lock);
    return n;
}
