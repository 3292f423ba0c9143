/* SPDX-License-Identifier: MIT */
/* The route table, as data: maps (method, path template) to a handler, answering 404 for
 * an unknown path, 405 with Allow for a known path with another method, and 204 to
 * OPTIONS (CORS preflight). `skirmish-api routes` prints the table, and the test run
 * compares it with openapi/openapi.json. Holds the context handlers share. No I/O. */
#ifndef API_ROUTER_H
#define API_ROUTER_H

#include <jansson.h>
#include <stdint.h>

#include "api_batch.h"
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
/**
 * Returns a catalog as a new JSON array (caller decrefs), or NULL with a reason in `err`.
 * The server passes the engine's catalogs; tests may pass others.
 */
typedef json_t *api_catalog_fn(char *err, size_t errlen);

struct api_watch;
struct api_metrics;

struct api_ctx {
    const struct sk_config *cfg; /* borrowed */
    struct api_pool *pool;       /* borrowed; NULL in tests that never reach the stores */
    api_validate_fn *validate;
    api_kind_fn *kind_known;
    struct api_cache *cache;     /* borrowed; NULL = no cache */
    struct api_batch *batch;     /* borrowed; NULL = one INSERT per request */
    api_catalog_fn *cards;       /* GET /v1/cards */
    api_catalog_fn *spells;      /* GET /v1/spells */
    const char *openapi;         /* the OpenAPI document served at /openapi.json (static) */
    struct api_watch *watch;     /* borrowed; NULL = long polls and event streams answer at once */
    struct api_metrics *metrics; /* borrowed; NULL = no HTTP metrics */
};

/** A route handler; `id` is the path's {id} (NULL for a path without one). */
typedef void api_handler_fn(const struct api_ctx *ctx, const struct api_request *req,
                            const char *id, struct api_response *resp);

/* One row of the route table. */
struct api_route {
    const char *method; /* "GET" (also answers HEAD) or "POST" */
    const char *path;   /* template, as in openapi/openapi.json: "/v1/jobs/{id}/result" */
    api_handler_fn *fn;
};

/** The route table (static), ended by a row with method == NULL. */
const struct api_route *api_router_routes(void);

/**
 * 1 when `path` matches template `tmpl`; the {id} segment (no '/' or ':', under 64
 * bytes) is copied into `id`.
 */
int api_router_match(const char *tmpl, const char *path, char id[64]);

/**
 * Routes `req` and fills `resp` (initialised by the caller): the handler of the row that
 * matches path and method (HEAD as GET); OPTIONS on a known path is a 204 preflight; 405
 * with Allow for another method; 404 for an unknown path. Thread-safe.
 */
void api_router_handle(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp);

#endif
