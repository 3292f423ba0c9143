/* SPDX-License-Identifier: MIT */
/* Growable byte buffer (see sk_buf.h). */
#include "sk_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sk_mem.h"

#include "sk_banned.h"

/* The first allocation: small enough for an error line, large enough for most bodies. */
#define FIRST_CAP 256

void sk_buf_init(struct sk_buf *b, size_t max)
{
    b->p = NULL;
    b->len = b->cap = 0;
    b->max = max;
    b->err = SK_OK;
}

void sk_buf_release(struct sk_buf *b)
{
    if (!b)
        return;
    sk_free(b->p);
    sk_buf_init(b, b->max);
}

/* Makes room for `n` more bytes and the NUL. */
static enum sk_err reserve(struct sk_buf *b, size_t n)
{
    size_t want;
    size_t cap;
    char *p;

    if (b->err)
        return b->err;
    if (n > (size_t)-1 / 2 - b->len || (b->max && b->len + n > b->max)) {
        b->err = SK_ERANGE;
        return b->err;
    }
    want = b->len + n + 1;
    if (want <= b->cap)
        return SK_OK;
    cap = b->cap ? b->cap : FIRST_CAP;
    while (cap < want)
        cap *= 2;
    p = sk_realloc(b->p, cap);
    if (!p) {
        b->err = SK_ENOMEM;
        return b->err;
    }
    b->p = p;
    b->cap = cap;
    return SK_OK;
}

enum sk_err sk_buf_add(struct sk_buf *b, const void *data, size_t n)
{
    enum sk_err err = reserve(b, n);
    if (err)
        return err;
    if (n)
        memcpy(b->p + b->len, data, n);
    b->len += n;
    b->p[b->len] = '\0';
    return SK_OK;
}

enum sk_err sk_buf_adds(struct sk_buf *b, const char *s)
{
    return sk_buf_add(b, s, strlen(s));
}

enum sk_err sk_buf_printf(struct sk_buf *b, const char *fmt, ...)
{
    va_list ap;
    enum sk_err err;
    int n;

    if (b->err)
        return b->err;
    /* measure first: vsnprintf(NULL, 0) writes nothing, so no truncation to warn about */
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->err = SK_EINVAL;
        return b->err;
    }
    err = reserve(b, (size_t)n);
    if (err)
        return err;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return SK_OK;
}

char *sk_buf_take(struct sk_buf *b)
{
    char *s = NULL;

    if (!b->err)
        s = b->p ? b->p : sk_strdup("");
    if (b->err || !s)
        sk_free(b->p);
    sk_buf_init(b, b->max);
    return s;
}
