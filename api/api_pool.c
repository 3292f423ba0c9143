/* SPDX-License-Identifier: MIT */
/* Connection slots for API threads (see api_pool.h). */
#include "api_pool.h"

#include <pthread.h>

#include "sk_mem.h"

#include "sk_banned.h"

struct api_pool {
    /* protects free_list and n_free; never held while using a slot */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct api_slot *slots;
    struct api_slot **free_list;
    size_t n, n_free;
};

enum sk_err api_pool_new(size_t n, const char *db_url, const char *redis_url, const char *prefix,
                         struct api_pool **out)
{
    enum sk_err err = SK_ENOMEM;
    struct api_pool *p = sk_calloc(1, sizeof(*p));

    if (!p)
        return SK_ENOMEM;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    p->slots = sk_calloc(n, sizeof(*p->slots));
    p->free_list = sk_calloc(n, sizeof(struct api_slot *));
    if (!p->slots || !p->free_list)
        goto fail;
    p->n = n;
    for (size_t i = 0; i < n; i++) {
        err = db_new(db_url, &p->slots[i].db);
        if (!err)
            err = queue_new(redis_url, prefix, &p->slots[i].queue);
        if (err)
            goto fail;
        p->free_list[p->n_free++] = &p->slots[i];
    }
    *out = p;
    return SK_OK;
fail:
    api_pool_free(p);
    return err;
}

void api_pool_free(struct api_pool *pool)
{
    if (!pool)
        return;
    for (size_t i = 0; pool->slots && i < pool->n; i++) {
        db_free(pool->slots[i].db);
        queue_free(pool->slots[i].queue);
    }
    sk_free(pool->slots);
    sk_free(pool->free_list);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->cond);
    sk_free(pool);
}

struct api_slot *api_pool_get(struct api_pool *pool)
{
    struct api_slot *s;
    pthread_mutex_lock(&pool->lock);
    while (pool->n_free == 0)
        pthread_cond_wait(&pool->cond, &pool->lock);
    s = pool->free_list[--pool->n_free];
    pthread_mutex_unlock(&pool->lock);
    return s;
}

void api_pool_put(struct api_pool *pool, struct api_slot *slot)
{
    pthread_mutex_lock(&pool->lock);
    pool->free_list[pool->n_free++] = slot;
    pthread_cond_signal(&pool->cond);
    pthread_mutex_unlock(&pool->lock);
}
