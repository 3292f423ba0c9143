/* SPDX-License-Identifier: MIT */
/* Checked number parsing, the replacement for atoi/atol (docs/style.md, rule 12): the whole
 * string must be a number in [min, max], with no leading space or trailing bytes. */
#ifndef SK_PARSE_H
#define SK_PARSE_H

#include <stdint.h>

#include "sk_err.h"

/** Parses a base-10 signed integer in [min, max] into *out. SK_EINVAL if not a number,
 *  SK_ERANGE if outside the range; *out is written only on SK_OK. */
enum sk_err sk_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
/** Parses a base-10 unsigned integer in [min, max] (no sign allowed) into *out. */
enum sk_err sk_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

#endif
