/* SPDX-License-Identifier: MIT */
/* Allocation wrappers with a test failure hook (see sk_mem.h). */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "sk_mem.h"

#include <jansson.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sk_banned.h"

/* Allocations left before the hook fires; negative means the hook is off. */
static atomic_long fail_countdown = -1;

static int should_fail(void)
{
    long cur = atomic_load(&fail_countdown);
    while (cur >= 0) {
        if (cur == 0)
            return 1;
        if (atomic_compare_exchange_weak(&fail_countdown, &cur, cur - 1))
            return 0;
    }
    return 0;
}

void *sk_malloc(size_t size)
{
    if (should_fail())
        return NULL;
    return malloc(size ? size : 1);
}

void *sk_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    if (should_fail())
        return NULL;
    return calloc(n ? n : 1, size ? size : 1);
}

void *sk_realloc(void *p, size_t size)
{
    if (should_fail())
        return NULL;
    return realloc(p, size ? size : 1);
}

void sk_free(void *p)
{
    free(p);
}

char *sk_strndup(const char *s, size_t n)
{
    char *copy = sk_malloc(n + 1);
    if (!copy)
        return NULL;
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

char *sk_strdup(const char *s)
{
    return sk_strndup(s, strlen(s));
}

void sk_mem_advise_huge(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t hi = ((uintptr_t)p + size) & ~(huge - 1);

    if (p && hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* a hint: failure changes nothing */
#else
    (void)p;
    (void)size;
#endif
}

void sk_mem_init_json(void)
{
    json_set_alloc_funcs(sk_malloc, sk_free);
}

void sk_mem_fail_after(long n)
{
    atomic_store(&fail_countdown, n);
}
