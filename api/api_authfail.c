/* SPDX-License-Identifier: MIT */
/* Refused API keys per client address (see api_authfail.h). */
#include "api_authfail.h"

#include <pthread.h>

#include "sk_mem.h"

#include "sk_banned.h"

#define SLOTS 4096u

struct bucket {
    uint32_t addr;   /* 0 = free slot */
    double tokens;   /* refusals left at `at_ms` */
    long long at_ms; /* when `tokens` was computed */
};

struct api_authfail {
    double per_ms; /* tokens back a millisecond */
    double burst;
    pthread_mutex_t lock; /* protects `slots`; nothing else is taken under it */
    struct bucket slots[SLOTS];
};

enum sk_err api_authfail_new(long per_s, long burst, struct api_authfail **out)
{
    struct api_authfail *f;
    if (per_s < 1 || burst < 1)
        return SK_EINVAL;
    f = sk_calloc(1, sizeof(*f));
    if (!f)
        return SK_ENOMEM;
    f->per_ms = (double)per_s / 1000.0;
    f->burst = (double)burst;
    pthread_mutex_init(&f->lock, NULL);
    *out = f;
    return SK_OK;
}

void api_authfail_free(struct api_authfail *f)
{
    if (!f)
        return;
    pthread_mutex_destroy(&f->lock);
    sk_free(f);
}

/* The slot of `addr`, refilled to `now_ms`; a slot another address held starts full.
 * Locked. */
static struct bucket *slot_of(struct api_authfail *f, uint32_t addr, long long now_ms)
{
    /* Knuth's multiplicative hash: neighbouring addresses land apart */
    struct bucket *b = &f->slots[(addr * 2654435761u) >> 20 & (SLOTS - 1)];
    if (b->addr != addr) {
        b->addr = addr;
        b->tokens = f->burst;
        b->at_ms = now_ms;
    } else if (now_ms > b->at_ms) {
        b->tokens += (double)(now_ms - b->at_ms) * f->per_ms;
        if (b->tokens > f->burst)
            b->tokens = f->burst;
        b->at_ms = now_ms;
    }
    return b;
}

int api_authfail_allowed(struct api_authfail *f, uint32_t addr, long long now_ms, long *retry_s)
{
    int ok;
    if (!f || !addr)
        return 1;
    pthread_mutex_lock(&f->lock);
    {
        struct bucket *b = slot_of(f, addr, now_ms);
        ok = b->tokens >= 1.0;
        if (!ok && retry_s)
            *retry_s = (long)((1.0 - b->tokens) / f->per_ms / 1000.0) + 1;
    }
    pthread_mutex_unlock(&f->lock);
    return ok;
}

void api_authfail_count(struct api_authfail *f, uint32_t addr, long long now_ms)
{
    if (!f || !addr)
        return;
    pthread_mutex_lock(&f->lock);
    {
        struct bucket *b = slot_of(f, addr, now_ms);
        b->tokens -= 1.0;
        if (b->tokens < 0)
            b->tokens = 0;
    }
    pthread_mutex_unlock(&f->lock);
}
