/* SPDX-License-Identifier: MIT */
/* A bounded in-memory cache of job resources for GET /v1/jobs/{id}, holding only jobs in
 * a final state: no statement changes a row once it is succeeded, failed or canceled, so
 * a cached copy can never be stale and needs no invalidation. Direct-mapped (a new entry
 * replaces whatever shared its slot), so memory stays at `entries` slots. Thread-safe. */
#ifndef API_CACHE_H
#define API_CACHE_H

#include <stddef.h>

#include "sk_err.h"

struct api_cache;

/** Returns in *out a new cache of `entries` slots (rounded up to a power of two). */
enum sk_err api_cache_new(size_t entries, struct api_cache **out);
/** Frees the cache; NULL-safe. */
void api_cache_free(struct api_cache *c);

/**
 * Looks up job `id`. On a hit returns 1 and sets *json to a new copy (sk_free); on a miss
 * (or when out of memory) returns 0. `c` may be NULL (always a miss).
 */
int api_cache_get(struct api_cache *c, const char *id, char **json);

/** Stores the resource `json` of the final job `id` (both copied); no-op when c is NULL. */
void api_cache_put(struct api_cache *c, const char *id, const char *json);

/** Forgets job `id` (deleted: DELETE /v1/jobs/{id}); NULL-safe. Thread-safe. */
void api_cache_remove(struct api_cache *c, const char *id);

#endif
