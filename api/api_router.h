/* SPDX-License-Identifier: MIT */
/* The route table: maps (method, path) to a handler, answering 404 for an unknown path
 * and 405 with Allow for a known path with another method. Holds the context handlers
 * share. Does no I/O itself. */
#ifndef API_ROUTER_H
#define API_ROUTER_H

#include <jansson.h>
#include <stdint.h>

#include "api_cache.h"
#include "api_http.h"
#include "api_pool.h"
#include "sk_config.h"
#include "sk_err.h"
#include "sk_verr.h"

/* What validation learned about a job document. */
struct api_job_info {
    const char *kind; /* static string */
    uint64_t seed;    /* given or drawn */
    uint64_t total;   /* units of work */
};

/**
 * Validates a job document (borrowed). SK_OK fills *info; SK_EINVAL adds every problem to
 * `errs`; SK_ENOMEM. The server passes the engine's codec (job_decode); tests may pass
 * another.
 */
typedef enum sk_err api_validate_fn(const json_t *doc, struct api_job_info *info,
                                    struct sk_verr_list *errs);
/** Returns 1 when `kind` names a job kind. */
typedef int api_kind_fn(const char *kind);

struct api_ctx {
    const struct sk_config *cfg; /* borrowed */
    struct api_pool *pool;       /* borrowed; NULL in tests that never reach the stores */
    api_validate_fn *validate;
    api_kind_fn *kind_known;
    struct api_cache *cache; /* borrowed; NULL = no cache */
};

/** Routes `req` and fills `resp` (initialised by the caller). Thread-safe. */
void api_router_handle(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp);

#endif
