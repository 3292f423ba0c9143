/* SPDX-License-Identifier: MIT */
/* The codecs' JSON reader kit: each reads one field of a JSON object, checks its type and
 * range, and reports a problem at its JSON pointer without stopping, so one decode lists
 * every problem, in one wording whichever codec reads ("'x' is required", "'x' must be
 * between 1 and 30, not 31", "unknown terrain \"lava\""). Used by the battle codecs
 * (cards, job params) and the board codec. Every function borrows its arguments for the
 * call only. */
#ifndef SK_JDEC_H
#define SK_JDEC_H

#include <jansson.h>
#include <stddef.h>

#include "sk_verr.h"

/* One decode in progress: where it is and where problems go. */
struct sk_jdec {
    struct sk_jptr *ptr;
    struct sk_verr_list *errs;
    int n_err; /* problems found by this decode; errs->n may stop growing when truncated */
};

/** Reports a problem at the current position. */
__attribute__((format(printf, 2, 3))) void sk_jdec_bad(struct sk_jdec *d, const char *fmt, ...);
/** Like sk_jdec_bad, at the child `key` of the current position. */
__attribute__((format(printf, 3, 4))) void sk_jdec_bad_at(struct sk_jdec *d, const char *key,
                                                          const char *fmt, ...);
/** Reports every key of `obj` that is not in the NULL-terminated `allowed`. */
void sk_jdec_check_keys(struct sk_jdec *d, const json_t *obj, const char *const *allowed);
/**
 * Reads the integer field `key` of `obj`. Returns 1 and writes *out when it is present and
 * in [min, max]; 0 when absent (or null); -1 after reporting a problem.
 */
int sk_jdec_get_int(struct sk_jdec *d, const json_t *obj, const char *key, long long min,
                    long long max, long long *out);
/** Like sk_jdec_get_int for a required field: 1 on success, -1 after reporting. */
int sk_jdec_need_int(struct sk_jdec *d, const json_t *obj, const char *key, long long min,
                     long long max, long long *out);
/**
 * Checks that `v`, the value of the required member `key` (its pointer already pushed), is
 * present and an object with only `allowed` keys; returns 0 after reporting when it is
 * missing or not an object (its keys are then not checked).
 */
int sk_jdec_need_object(struct sk_jdec *d, const json_t *v, const char *key,
                        const char *const *allowed);
/** Reads the optional boolean `key`. Same returns as sk_jdec_get_int. */
int sk_jdec_get_bool(struct sk_jdec *d, const json_t *obj, const char *key, int *out);
/**
 * Reads the optional string `key` that must be one of `names` (n of them); writes the
 * index. Same returns as sk_jdec_get_int.
 */
int sk_jdec_get_enum(struct sk_jdec *d, const json_t *obj, const char *key,
                     const char *const *names, int n, int *out);
/**
 * Reads the string `key` whose value `parse` maps to a non-negative number (a word of a
 * table: a terrain, a player), reported as "unknown <what> \"<value>\"" when it does not.
 * With `required`, a missing key is reported. Same returns as sk_jdec_get_int.
 */
int sk_jdec_get_word(struct sk_jdec *d, const json_t *obj, const char *key, int required,
                     int (*parse)(const char *), const char *what, int *out);
/**
 * Checks that `v` is a name: a string of 1..max bytes of UTF-8 (jansson guarantees the
 * encoding) without control characters, which would make names that look alike differ.
 * Reports at the current position; returns the name (borrowed) or NULL.
 */
const char *sk_jdec_check_name(struct sk_jdec *d, const json_t *v, const char *what, size_t max);
/** Sets `key` of `obj` to the new reference `v` (consumed); returns 0 on success. */
int sk_jdec_put(json_t *obj, const char *key, json_t *v);

#endif
