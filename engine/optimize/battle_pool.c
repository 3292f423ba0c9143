/* SPDX-License-Identifier: MIT */
/* The optimiser's thread pool (see battle_pool.h). A task is published under the lock with
 * a new generation number; items are claimed from one atomic word holding the generation
 * (high 32 bits) and the next item (low 32 bits), so a helper that read an older task and
 * was descheduled can never claim an item of a newer one: its compare-and-swap fails on the
 * generation. The caller publishes a task only once every item of the previous one is
 * done, so the task a successful claim refers to is still the caller's current one. */
#include "battle_pool.h"

#include <pthread.h>
#include <stdatomic.h>

#include "sk_mem.h"

#include "sk_banned.h"

struct battle_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* helpers: a new task, or stop */
    pthread_cond_t idle; /* the caller: every item of the task is done */
    int n_helpers;
    pthread_t tids[BATTLE_POOL_MAX];
    /* under lock */
    int stop;
    uint32_t gen;
    battle_pool_fn fn;
    void *ctx;
    uint64_t n;
    /* lock-free */
    _Atomic uint64_t claim; /* gen << 32 | next item */
    _Atomic uint64_t done;  /* items of the current task done */
};

/* Claims and runs items of task `gen` until none is left (or a newer task is out). */
static void work(struct battle_pool *p, uint32_t gen, battle_pool_fn fn, void *ctx, uint64_t n)
{
    for (;;) {
        uint64_t v = atomic_load(&p->claim);
        do {
            if ((uint32_t)(v >> 32) != gen || (v & 0xffffffffULL) >= n)
                return;
        } while (!atomic_compare_exchange_weak(&p->claim, &v, v + 1));
        fn(ctx, v & 0xffffffffULL);
        if (atomic_fetch_add(&p->done, 1) + 1 == n) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&p->idle);
            pthread_mutex_unlock(&p->lock);
        }
    }
}

static void *helper(void *arg)
{
    struct battle_pool *p = arg;
    uint32_t seen = 0;

    for (;;) {
        battle_pool_fn fn;
        void *ctx;
        uint64_t n;

        pthread_mutex_lock(&p->lock);
        while (!p->stop && p->gen == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->stop) {
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
        seen = p->gen;
        fn = p->fn;
        ctx = p->ctx;
        n = p->n;
        pthread_mutex_unlock(&p->lock);
        work(p, seen, fn, ctx, n);
    }
}

enum sk_err battle_pool_new(int threads, struct battle_pool **out)
{
    struct battle_pool *p = sk_calloc(1, sizeof(*p));
    int want = threads > BATTLE_POOL_MAX ? BATTLE_POOL_MAX - 1 : threads - 1;

    *out = NULL;
    if (!p)
        return SK_ENOMEM;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->idle, NULL);
    atomic_init(&p->claim, 0);
    atomic_init(&p->done, 0);
    for (; p->n_helpers < want; p->n_helpers++)
        if (pthread_create(&p->tids[p->n_helpers], NULL, helper, p) != 0) {
            battle_pool_free(p);
            return SK_EIO;
        }
    *out = p;
    return SK_OK;
}

void battle_pool_free(struct battle_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int t = 0; t < p->n_helpers; t++)
        pthread_join(p->tids[t], NULL);
    pthread_cond_destroy(&p->idle);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    sk_free(p);
}

void battle_pool_run(struct battle_pool *p, uint64_t n, battle_pool_fn fn, void *ctx)
{
    uint32_t gen;

    if (!p || p->n_helpers == 0 || n < 2) {
        for (uint64_t i = 0; i < n; i++)
            fn(ctx, i);
        return;
    }
    pthread_mutex_lock(&p->lock);
    gen = ++p->gen;
    if (gen == 0) /* 0 is what a new helper has seen: never a task's number */
        gen = ++p->gen;
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    atomic_store(&p->done, 0);
    atomic_store(&p->claim, (uint64_t)gen << 32);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    work(p, gen, fn, ctx, n);
    pthread_mutex_lock(&p->lock);
    while (atomic_load(&p->done) < n)
        pthread_cond_wait(&p->idle, &p->lock);
    pthread_mutex_unlock(&p->lock);
}
