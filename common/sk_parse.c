/* SPDX-License-Identifier: MIT */
/* Checked number parsing (see sk_parse.h). */
#include "sk_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "sk_banned.h"

enum sk_err sk_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
    char *end = NULL;
    long long v;

    if (!s || !*s || isspace((unsigned char)*s))
        return SK_EINVAL;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (*end != '\0')
        return SK_EINVAL;
    if (errno == ERANGE || v < min || v > max)
        return SK_ERANGE;
    *out = (int64_t)v;
    return SK_OK;
}

enum sk_err sk_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end = NULL;
    unsigned long long v;

    if (!s || !*s || !isdigit((unsigned char)*s))
        return SK_EINVAL;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (*end != '\0')
        return SK_EINVAL;
    if (errno == ERANGE || v < min || v > max)
        return SK_ERANGE;
    *out = (uint64_t)v;
    return SK_OK;
}
