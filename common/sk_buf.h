/* SPDX-License-Identifier: MIT */
/* The one growable byte buffer: text built piece by piece (SQL array literals, event
 * streams, metrics), request bodies read in chunks. The contents are always NUL-terminated.
 * An optional hard maximum bounds it (docs/style.md, rule 15). Errors are sticky: after the first
 * failed append every later append does nothing and answers the same error, so a renderer
 * can append many pieces and check once. Not thread-safe; no I/O. */
#ifndef SK_BUF_H
#define SK_BUF_H

#include <stddef.h>

#include "sk_err.h"

struct sk_buf {
    char *p;         /* owned (sk_free); NULL until the first append */
    size_t len, cap; /* bytes used (without the NUL), bytes allocated */
    size_t max;      /* most bytes it may hold; 0 = no limit */
    enum sk_err err; /* SK_OK, or the first failure: SK_ENOMEM, SK_ERANGE (over max) */
};

/** Makes `b` empty, holding at most `max` bytes (0 = no limit). Allocates nothing. */
void sk_buf_init(struct sk_buf *b, size_t max);
/** Frees the contents and makes `b` empty again (keeping max); NULL-safe. */
void sk_buf_release(struct sk_buf *b);

/** Appends `n` bytes of `data`. SK_ENOMEM, or SK_ERANGE when the result would pass max. */
enum sk_err sk_buf_add(struct sk_buf *b, const void *data, size_t n);
/** Appends the string `s`. Errors as sk_buf_add. */
enum sk_err sk_buf_adds(struct sk_buf *b, const char *s);
/** Appends printf-style text. Errors as sk_buf_add; SK_EINVAL for a bad format. */
__attribute__((format(printf, 2, 3))) enum sk_err sk_buf_printf(struct sk_buf *b, const char *fmt,
                                                                ...);

/**
 * Returns the contents as a new NUL-terminated string (caller frees with sk_free) and
 * makes `b` empty. NULL when an append failed (the contents are freed) or out of memory.
 */
char *sk_buf_take(struct sk_buf *b);

#endif
