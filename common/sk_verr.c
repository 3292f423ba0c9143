/* SPDX-License-Identifier: MIT */
/* Validation error lists and JSON pointer building (see sk_verr.h). */
#include "sk_verr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sk_mem.h"
#include "sk_utf8.h"

#include "sk_banned.h"

void sk_verr_list_init(struct sk_verr_list *list)
{
    memset(list, 0, sizeof(*list));
}

void sk_verr_list_release(struct sk_verr_list *list)
{
    if (!list)
        return;
    for (size_t i = 0; i < list->n; i++) {
        sk_free(list->items[i].pointer);
        sk_free(list->items[i].message);
    }
    sk_free(list->items);
    sk_verr_list_init(list);
}

/* A copy of `s` that is valid UTF-8 (sk_utf8_escape), and with `controls` also without
 * control characters. A pointer keeps them (JSON carries them escaped, and the pointer
 * must still name the member); a message is one line of text. */
static char *safe_dup(const char *s, int controls)
{
    size_t n = strlen(s);
    char *out;
    if (controls ? !sk_utf8_needs_escape(s, n, 0) : sk_utf8_valid(s, n))
        return sk_strdup(s);
    out = sk_malloc(3 * n + 1);
    if (out)
        sk_utf8_escape(out, 3 * n + 1, s, n, 0);
    return out;
}

enum sk_err sk_verr_add(struct sk_verr_list *list, const char *pointer, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    char *p = NULL;
    char *m = NULL;

    if (list->n >= SK_VERR_MAX) {
        list->truncated = 1;
        return SK_EINVAL;
    }
    if (list->n == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 8;
        struct sk_verr *items = sk_realloc(list->items, cap * sizeof(*items));
        if (!items) {
            list->oom = 1;
            return SK_EINVAL;
        }
        list->items = items;
        list->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    /* A message cut in the middle of a character (a long key or name quoted in it), or a
     * pointer built from such a key, would be refused by jansson and empty the whole
     * errors[] of the problem: both are kept valid UTF-8. */
    msg[sk_utf8_cut(msg, strlen(msg))] = '\0';
    p = safe_dup(pointer ? pointer : "", 0);
    m = safe_dup(msg, 1);
    if (!p || !m) {
        sk_free(p);
        sk_free(m);
        list->oom = 1;
        return SK_EINVAL;
    }
    list->items[list->n].pointer = p;
    list->items[list->n].message = m;
    list->n++;
    return SK_EINVAL;
}

json_t *sk_verr_list_to_json(const struct sk_verr_list *list)
{
    json_t *arr = json_array();
    if (!arr)
        return NULL;
    for (size_t i = 0; i < list->n; i++) {
        json_t *item = json_pack("{s:s, s:s}", "pointer", list->items[i].pointer, "message",
                                 list->items[i].message);
        if (!item || json_array_append_new(arr, item)) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

void sk_jptr_init(struct sk_jptr *p)
{
    p->buf[0] = '\0';
    p->len = 0;
    p->depth = 0;
}

/* Appends raw bytes, cutting the pointer with "/..." when it would not fit. */
static void append(struct sk_jptr *p, const char *s, size_t n)
{
    if (p->len + n + 5 >= sizeof(p->buf)) {
        if (p->len + 5 < sizeof(p->buf) &&
            (p->len < 4 || memcmp(p->buf + p->len - 4, "/...", 4) != 0)) {
            memcpy(p->buf + p->len, "/...", 4);
            p->len += 4;
            p->buf[p->len] = '\0';
        }
        return;
    }
    memcpy(p->buf + p->len, s, n);
    p->len += n;
    p->buf[p->len] = '\0';
}

static void push_mark(struct sk_jptr *p)
{
    if (p->depth < (int)(sizeof(p->stack) / sizeof(p->stack[0])))
        p->stack[p->depth] = p->len;
    p->depth++;
}

void sk_jptr_push_key(struct sk_jptr *p, const char *key)
{
    push_mark(p);
    append(p, "/", 1);
    for (const char *c = key; *c;) {
        /* a character is appended whole, so a pointer cut short never ends inside one */
        size_t avail = 1, k;
        while (avail < 4 && c[avail])
            avail++;
        k = sk_utf8_seq(c, avail);
        if (*c == '~')
            append(p, "~0", 2);
        else if (*c == '/')
            append(p, "~1", 2);
        else
            append(p, c, k ? k : 1);
        c += k ? k : 1;
    }
}

void sk_jptr_push_index(struct sk_jptr *p, size_t index)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof(tmp), "/%zu", index);
    push_mark(p);
    append(p, tmp, (size_t)n);
}

void sk_jptr_pop(struct sk_jptr *p)
{
    if (p->depth == 0)
        return;
    p->depth--;
    if (p->depth < (int)(sizeof(p->stack) / sizeof(p->stack[0]))) {
        p->len = p->stack[p->depth];
        p->buf[p->len] = '\0';
    }
}

const char *sk_jptr_str(const struct sk_jptr *p)
{
    return p->buf;
}

int sk_verr_check_keys(struct sk_verr_list *list, struct sk_jptr *ptr, const json_t *obj,
                       const char *const *allowed)
{
    const char *key;
    json_t *val;
    int n = 0;

    json_object_foreach((json_t *)obj, key, val)
    {
        int known = 0;
        for (const char *const *a = allowed; *a && !known; a++)
            known = strcmp(key, *a) == 0;
        if (known)
            continue;
        sk_jptr_push_key(ptr, key);
        sk_verr_add(list, sk_jptr_str(ptr), "unknown field '%s'", key);
        sk_jptr_pop(ptr);
        n++;
    }
    return n;
}
