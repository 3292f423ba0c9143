/* SPDX-License-Identifier: MIT */
/* Final-job resource cache (see api_cache.h). */
#include "api_cache.h"

#include <pthread.h>
#include <string.h>

#include "sk_hash.h"
#include "sk_mem.h"

#include "sk_banned.h"

#define STRIPES 64

struct slot {
    char id[40];
    char *json; /* owned; NULL when empty */
};

struct api_cache {
    struct slot *slots;
    size_t mask;
    /* stripe i protects every slot whose index is i modulo STRIPES; a thread holds at most
     * one stripe at a time */
    pthread_mutex_t locks[STRIPES];
};

enum sk_err api_cache_new(size_t entries, struct api_cache **out)
{
    size_t n = STRIPES;
    struct api_cache *c;

    while (n < entries)
        n *= 2;
    c = sk_calloc(1, sizeof(*c));
    if (!c)
        return SK_ENOMEM;
    c->slots = sk_calloc(n, sizeof(*c->slots));
    if (!c->slots) {
        sk_free(c);
        return SK_ENOMEM;
    }
    c->mask = n - 1;
    for (int i = 0; i < STRIPES; i++)
        pthread_mutex_init(&c->locks[i], NULL);
    *out = c;
    return SK_OK;
}

void api_cache_free(struct api_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i <= c->mask; i++)
        sk_free(c->slots[i].json);
    for (int i = 0; i < STRIPES; i++)
        pthread_mutex_destroy(&c->locks[i]);
    sk_free(c->slots);
    sk_free(c);
}

static size_t slot_of(const struct api_cache *c, const char *id)
{
    return (size_t)sk_fnv1a_str(id) & c->mask;
}

int api_cache_get(struct api_cache *c, const char *id, char **json)
{
    size_t i;
    int hit = 0;

    if (!c)
        return 0;
    i = slot_of(c, id);
    pthread_mutex_lock(&c->locks[i % STRIPES]);
    if (c->slots[i].json && strcmp(c->slots[i].id, id) == 0) {
        char *copy = sk_strdup(c->slots[i].json);
        if (copy) {
            *json = copy;
            hit = 1;
        }
    }
    pthread_mutex_unlock(&c->locks[i % STRIPES]);
    return hit;
}

void api_cache_put(struct api_cache *c, const char *id, const char *json)
{
    size_t i;
    char *copy;

    if (!c || strlen(id) >= sizeof(c->slots[0].id))
        return;
    copy = sk_strdup(json);
    if (!copy)
        return; /* a cache may forget */
    i = slot_of(c, id);
    pthread_mutex_lock(&c->locks[i % STRIPES]);
    sk_free(c->slots[i].json);
    c->slots[i].json = copy;
    memcpy(c->slots[i].id, id, strlen(id) + 1);
    pthread_mutex_unlock(&c->locks[i % STRIPES]);
}

void api_cache_remove(struct api_cache *c, const char *id)
{
    size_t i;

    if (!c)
        return;
    i = slot_of(c, id);
    pthread_mutex_lock(&c->locks[i % STRIPES]);
    if (c->slots[i].json && strcmp(c->slots[i].id, id) == 0) {
        sk_free(c->slots[i].json);
        c->slots[i].json = NULL;
    }
    pthread_mutex_unlock(&c->locks[i % STRIPES]);
}
