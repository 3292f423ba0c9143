/* SPDX-License-Identifier: MIT */
/* The battle codecs' JSON readers: each reads one field of a JSON object, checks its type
 * and range, and reports a problem at its JSON pointer without stopping, so one decode
 * lists every problem. Used by battle_cards (card definitions) and battle_codec (job
 * params). Every function borrows its arguments for the call only. */
#ifndef BATTLE_DEC_H
#define BATTLE_DEC_H

#include <jansson.h>

#include "sk_verr.h"

/* One decode in progress: where it is and where problems go. */
struct battle_dec {
    struct sk_jptr *ptr;
    struct sk_verr_list *errs;
    int n_err; /* problems found by this decode; errs->n may stop growing when truncated */
};

/** Reports a problem at the current position. */
__attribute__((format(printf, 2, 3))) void battle_dec_bad(struct battle_dec *d, const char *fmt,
                                                          ...);
/** Like battle_dec_bad, at the child `key` of the current position. */
__attribute__((format(printf, 3, 4))) void battle_dec_bad_at(struct battle_dec *d, const char *key,
                                                             const char *fmt, ...);
/** Reports every key of `obj` that is not in the NULL-terminated `allowed`. */
void battle_dec_check_keys(struct battle_dec *d, const json_t *obj, const char *const *allowed);
/**
 * Reads the integer field `key` of `obj`. Returns 1 and writes *out when it is present and
 * in [min, max]; 0 when absent (or null); -1 after reporting a problem.
 */
int battle_dec_get_int(struct battle_dec *d, const json_t *obj, const char *key, long long min,
                       long long max, long long *out);
/** Like battle_dec_get_int for a required field: 1 on success, -1 after reporting. */
int battle_dec_need_int(struct battle_dec *d, const json_t *obj, const char *key, long long min,
                        long long max, long long *out);
/**
 * Checks that `v`, the value of the required member `key` (its pointer already pushed), is
 * present and an object with only `allowed` keys; returns 0 after reporting when it is
 * missing or not an object (its keys are then not checked).
 */
int battle_dec_need_object(struct battle_dec *d, const json_t *v, const char *key,
                           const char *const *allowed);
/** Reads the optional boolean `key`. Same returns as battle_dec_get_int. */
int battle_dec_get_bool(struct battle_dec *d, const json_t *obj, const char *key, int *out);
/**
 * Reads the optional string `key` that must be one of `names` (n of them); writes the
 * index. Same returns as battle_dec_get_int.
 */
int battle_dec_get_enum(struct battle_dec *d, const json_t *obj, const char *key,
                        const char *const *names, int n, int *out);
/**
 * Checks that `v` is a card name: a string of 1..BATTLE_NAME_MAX bytes of UTF-8 (jansson
 * guarantees the encoding) without control characters, which would make names that look
 * alike differ. Reports at the current position; returns the name (borrowed) or NULL.
 */
const char *battle_dec_check_name(struct battle_dec *d, const json_t *v, const char *what);
/** Sets `key` of `obj` to the new reference `v` (consumed); returns 0 on success. */
int battle_dec_put(json_t *obj, const char *key, json_t *v);

#endif
