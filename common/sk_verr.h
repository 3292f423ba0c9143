/* SPDX-License-Identifier: MIT */
/* Validation errors: a list of (JSON pointer, message) pairs that a decoder fills with
 * every problem of a document, not only the first, and a small builder for RFC 6901
 * JSON pointers. The API turns the list into a 422 problem+json; the CLI prints it as
 * `pointer: message` lines. Not thread-safe: one list per decode. */
#ifndef SK_VERR_H
#define SK_VERR_H

#include <jansson.h>
#include <stddef.h>

#include "sk_err.h"

/* Most errors kept per document: a hostile document cannot make the list grow without
 * bound; past this the list is marked truncated. */
#define SK_VERR_MAX 100
/* Longest JSON pointer kept; deeper paths are cut at a component boundary with "/...". */
#define SK_JPTR_MAX 256

struct sk_verr {
    char *pointer; /* owned; RFC 6901 pointer into the document, "" for the root */
    char *message; /* owned; lowercase, no trailing period, subject in quotes */
};

struct sk_verr_list {
    struct sk_verr *items; /* owned array of n items */
    size_t n;
    size_t cap;
    int truncated; /* 1 when errors were dropped past SK_VERR_MAX */
    int oom;       /* 1 when an error could not be recorded for lack of memory */
};

/** Initialises an empty list (embedded struct; release with sk_verr_list_release). */
void sk_verr_list_init(struct sk_verr_list *list);
/** Frees every item; the list is empty and reusable afterwards. NULL-safe. */
void sk_verr_list_release(struct sk_verr_list *list);

/**
 * Appends an error at `pointer` with a printf-style message. Never fails from the caller's
 * point of view: on allocation failure or past SK_VERR_MAX the list records that in `oom`
 * or `truncated`. Returns SK_EINVAL so decoders can write `return sk_verr_add(...)`.
 */
enum sk_err sk_verr_add(struct sk_verr_list *list, const char *pointer, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/**
 * Returns a new JSON array [{"pointer": ..., "message": ...}, ...] (caller owns the
 * reference), or NULL on allocation failure.
 */
json_t *sk_verr_list_to_json(const struct sk_verr_list *list);

/* A JSON pointer under construction. Embedded; push/pop keep it NUL-terminated. */
struct sk_jptr {
    char buf[SK_JPTR_MAX];
    size_t len;
    size_t stack[32]; /* lengths before each push, for pop */
    int depth;
};

/** Resets `p` to the root pointer "". */
void sk_jptr_init(struct sk_jptr *p);
/** Appends "/key", escaping '~' as "~0" and '/' as "~1". */
void sk_jptr_push_key(struct sk_jptr *p, const char *key);
/** Appends "/index". */
void sk_jptr_push_index(struct sk_jptr *p, size_t index);
/** Removes the last component pushed (no-op at the root). */
void sk_jptr_pop(struct sk_jptr *p);
/** Returns a borrowed pointer to the current string, valid until the next push/pop. */
const char *sk_jptr_str(const struct sk_jptr *p);

/**
 * Adds "unknown field 'k'" at pointer <ptr>/k to `list` for every member k of the object
 * `obj` (borrowed) that is not in the NULL-terminated `allowed`, in the object's order.
 * `ptr` is the pointer of `obj`; it is the same again on return. Returns how many members
 * were reported.
 */
int sk_verr_check_keys(struct sk_verr_list *list, struct sk_jptr *ptr, const json_t *obj,
                       const char *const *allowed);

#endif
