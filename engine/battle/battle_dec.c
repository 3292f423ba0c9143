/* SPDX-License-Identifier: MIT */
/* The battle codecs' JSON readers (see battle_dec.h). */
#include "battle_dec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "battle_spec.h"

#include "sk_banned.h"

__attribute__((format(printf, 2, 3))) void battle_dec_bad(struct battle_dec *d, const char *fmt,
                                                          ...)
{
    char msg[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    sk_verr_add(d->errs, sk_jptr_str(d->ptr), "%s", msg);
    d->n_err++;
}

/* Like battle_dec_bad(), at the child `key` of the current position. */
__attribute__((format(printf, 3, 4))) void battle_dec_bad_at(struct battle_dec *d, const char *key,
                                                             const char *fmt, ...)
{
    char msg[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    sk_jptr_push_key(d->ptr, key);
    sk_verr_add(d->errs, sk_jptr_str(d->ptr), "%s", msg);
    sk_jptr_pop(d->ptr);
    d->n_err++;
}

/* Reports every key of `obj` that is not in the NULL-terminated `allowed`. */
void battle_dec_check_keys(struct battle_dec *d, const json_t *obj, const char *const *allowed)
{
    d->n_err += sk_verr_check_keys(d->errs, d->ptr, obj, allowed);
}

/* Reads the integer field `key` of `obj`. Returns 1 and writes *out when it is present and
 * in [min, max]; 0 when absent (or null); -1 after reporting a problem. */
int battle_dec_get_int(struct battle_dec *d, const json_t *obj, const char *key, long long min,
                       long long max, long long *out)
{
    const json_t *v = json_object_get(obj, key);
    json_int_t n;

    if (!v || json_is_null(v))
        return 0;
    if (!json_is_integer(v)) {
        battle_dec_bad_at(d, key, "'%s' must be an integer between %lld and %lld", key, min, max);
        return -1;
    }
    n = json_integer_value(v);
    if (n < min || n > max) {
        battle_dec_bad_at(d, key, "'%s' must be between %lld and %lld, not %lld", key, min, max,
                          (long long)n);
        return -1;
    }
    *out = n;
    return 1;
}

/* Checks that `v`, the value of the required member `key` (its pointer already pushed),
 * is present and an object with only `allowed` keys; returns 0 after reporting when it is
 * missing or not an object (its keys are then not checked). */
int battle_dec_need_object(struct battle_dec *d, const json_t *v, const char *key,
                           const char *const *allowed)
{
    if (!v) {
        battle_dec_bad(d, "'%s' is required", key);
        return 0;
    }
    if (!json_is_object(v)) {
        battle_dec_bad(d, "'%s' must be an object", key);
        return 0;
    }
    battle_dec_check_keys(d, v, allowed);
    return 1;
}

/* Like get_int for a required field. Returns 1 on success, -1 after reporting. */
int battle_dec_need_int(struct battle_dec *d, const json_t *obj, const char *key, long long min,
                        long long max, long long *out)
{
    int r = battle_dec_get_int(d, obj, key, min, max, out);
    if (r == 0) {
        battle_dec_bad_at(d, key, "'%s' is required", key);
        return -1;
    }
    return r;
}

/* Reads the optional boolean `key`. Same returns as get_int. */
int battle_dec_get_bool(struct battle_dec *d, const json_t *obj, const char *key, int *out)
{
    const json_t *v = json_object_get(obj, key);

    if (!v || json_is_null(v))
        return 0;
    if (!json_is_boolean(v)) {
        battle_dec_bad_at(d, key, "'%s' must be true or false", key);
        return -1;
    }
    *out = json_is_true(v);
    return 1;
}

/* Reads the optional string `key` that must be one of `names` (n of them); writes the
 * index. Same returns as get_int. */
int battle_dec_get_enum(struct battle_dec *d, const json_t *obj, const char *key,
                        const char *const *names, int n, int *out)
{
    const json_t *v = json_object_get(obj, key);
    char list[160] = "";
    size_t used = 0;

    if (!v || json_is_null(v))
        return 0;
    if (json_is_string(v)) {
        for (int i = 0; i < n; i++) {
            if (strcmp(json_string_value(v), names[i]) == 0) {
                *out = i;
                return 1;
            }
        }
    }
    for (int i = 0; i < n && used < sizeof(list); i++) {
        int w = snprintf(list + used, sizeof(list) - used, "%s\"%s\"",
                         i == 0       ? ""
                         : i == n - 1 ? " or "
                                      : ", ",
                         names[i]);
        if (w > 0)
            used += (size_t)w;
    }
    battle_dec_bad_at(d, key, "'%s' must be %s", key, list);
    return -1;
}

/* Checks that `v` is a card name: a string of 1..BATTLE_NAME_MAX bytes of UTF-8 (jansson
 * guarantees the encoding) without control characters, which would make names that look
 * alike differ. Reports at the current position; returns the name (borrowed) or NULL. */
const char *battle_dec_check_name(struct battle_dec *d, const json_t *v, const char *what)
{
    const char *s;
    size_t len;

    if (!json_is_string(v)) {
        battle_dec_bad(d, "%s must be a string", what);
        return NULL;
    }
    s = json_string_value(v);
    len = json_string_length(v);
    if (len == 0 || len > BATTLE_NAME_MAX) {
        battle_dec_bad(d, "%s must be 1 to %d bytes long", what, BATTLE_NAME_MAX);
        return NULL;
    }
    for (size_t i = 0; i < len; i++) {
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
            battle_dec_bad(d, "%s must not contain control characters", what);
            return NULL;
        }
    }
    return s;
}

/* Sets `key` of `obj` to the new reference `v`; returns 0 on success. Consumes `v`. */
int battle_dec_put(json_t *obj, const char *key, json_t *v)
{
    return !v || json_object_set_new(obj, key, v) != 0;
}
