/* SPDX-License-Identifier: MIT */
/* A fixed pool of store connections for the API threads: each slot holds one PostgreSQL
 * and one Redis handle, which are not thread-safe, so a request checks a slot out for
 * its duration. Sized to the HTTP thread count, so a checkout normally never waits. */
#ifndef API_POOL_H
#define API_POOL_H

#include <stddef.h>

#include "db.h"
#include "queue.h"
#include "sk_err.h"

struct api_pool;

struct api_slot {
    struct db *db;       /* owned by the pool */
    struct queue *queue; /* owned by the pool */
};

/**
 * Returns in *out a new pool of `n` slots connected to `db_url` and `redis_url` with keys
 * under `prefix`. Servers that are down now are not an error (see db_new). Caller frees
 * with api_pool_free.
 */
enum sk_err api_pool_new(size_t n, const char *db_url, const char *redis_url, const char *prefix,
                         struct api_pool **out);
/** Frees every slot; NULL-safe. No slot may be checked out. */
void api_pool_free(struct api_pool *pool);

/** Waits for a free slot and returns it (borrowed until api_pool_put). Thread-safe. */
struct api_slot *api_pool_get(struct api_pool *pool);
/** Returns a slot taken with api_pool_get. Thread-safe. */
void api_pool_put(struct api_pool *pool, struct api_slot *slot);

#endif
