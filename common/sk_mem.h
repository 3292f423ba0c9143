/* SPDX-License-Identifier: MIT */
/* Allocation wrappers used by every module (docs/style.md, rule 14), plus a failure hook for
 * tests: sk_mem_fail_after(n) makes the (n+1)-th allocation from now on fail, so tests
 * can walk every out-of-memory path. jansson is pointed at the same hooks by
 * sk_mem_init_json(). Thread-safe: the hook counter is atomic. */
#ifndef SK_MEM_H
#define SK_MEM_H

#include <stddef.h>

/** Like malloc(3); returns NULL on failure (or when the failure hook fires). */
void *sk_malloc(size_t size);
/** Like calloc(3); NULL on failure or overflow of n * size. */
void *sk_calloc(size_t n, size_t size);
/** Like realloc(3); on failure returns NULL and leaves `p` untouched and owned by the caller. */
void *sk_realloc(void *p, size_t size);
/** Frees memory from the functions above; sk_free(NULL) is a no-op. */
void sk_free(void *p);
/** Returns a new copy of `s` (caller frees with sk_free), or NULL on failure. */
char *sk_strdup(const char *s);
/** Returns a new copy of the first `n` bytes of `s`, NUL-terminated; NULL on failure. */
char *sk_strndup(const char *s, size_t n);

/**
 * Asks the kernel to back the whole 2 MiB pages inside [p, p + size) with huge pages
 * (madvise MADV_HUGEPAGE), for a big block about to be filled: one page fault per 2 MiB
 * instead of one per 4 KiB. Only a hint: nothing happens where the system has no such
 * pages (transparent huge pages "never") or the block holds no whole huge page. The block
 * stays the caller's, freed as before.
 */
void sk_mem_advise_huge(void *p, size_t size);

/** Makes jansson allocate through sk_malloc/sk_free. Call once at start, before any json_*. */
void sk_mem_init_json(void);

/**
 * Test hook: after `n` more successful allocations, every allocation fails until
 * sk_mem_fail_after(-1) turns the hook off. Not for production code.
 */
void sk_mem_fail_after(long n);

#endif
