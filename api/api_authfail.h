/* SPDX-License-Identifier: MIT */
/* Refused API keys counted per client address, in this API process: a token bucket per
 * address (SKIRMISH_AUTH_FAIL_PER_S, SKIRMISH_AUTH_FAIL_BURST) that each refused key takes
 * a token from; an address whose bucket is empty gets 429 for its keyed requests without a
 * key lookup (a database query and a SHA-256 each), until a token is back. A valid key
 * takes nothing. The buckets live in a fixed table (4,096 addresses, direct-mapped): an
 * address that loses its slot to another starts afresh, which a flood from one address
 * does not cause. Per process, not shared: N API processes let N times the rate through. */
#ifndef API_AUTHFAIL_H
#define API_AUTHFAIL_H

#include <stdint.h>

#include "sk_err.h"

struct api_authfail;

/**
 * A new table for `per_s` refused keys a second per address, `burst` at once. Returns
 * SK_OK with *out (free with api_authfail_free), SK_EINVAL when per_s < 1 or burst < 1,
 * SK_ENOMEM.
 */
enum sk_err api_authfail_new(long per_s, long burst, struct api_authfail **out);
/** Frees the table; NULL-safe. */
void api_authfail_free(struct api_authfail *f);

/**
 * 1 when `addr` (IPv4, host order; 0 = unknown, always allowed) may have a key looked up at
 * monotonic time `now_ms`; 0 when its refusals used its bucket, with the seconds until a
 * token is back in *retry_s. Thread-safe.
 */
int api_authfail_allowed(struct api_authfail *f, uint32_t addr, long long now_ms, long *retry_s);

/** Counts one refused key of `addr` at `now_ms` (takes a token). Thread-safe. */
void api_authfail_count(struct api_authfail *f, uint32_t addr, long long now_ms);

#endif
