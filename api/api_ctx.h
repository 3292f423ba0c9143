/* SPDX-License-Identifier: MIT */
/* What every route handler is given: the process's configuration and shared parts (store
 * connections, cache, batch inserter, watcher, metrics) and the engine hooks the API needs
 * (validation, kinds, catalogs) as function pointers, so tests can run handlers with fakes.
 * Built once by main.c and read-only afterwards: handlers on every thread share it. */
#ifndef API_CTX_H
#define API_CTX_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "api_batch.h"
#include "api_cache.h"
#include "api_pool.h"
#include "sk_config.h"
#include "sk_err.h"
#include "sk_verr.h"

/* What validation learned about a job document. */
struct api_job_info {
    const char *kind;  /* static string */
    uint64_t seed;     /* given or drawn */
    uint64_t total;    /* units of work */
    char catalog[80];  /* the card catalog's hash the job is pinned to; "" = the kind has none */
    long long cost_ms; /* estimated CPU milliseconds of the whole job; -1 = no estimate */
    uint64_t cost_sampled; /* units played for the estimate */
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
struct api_authfail;

struct api_ctx {
    const struct sk_config *cfg; /* borrowed */
    struct api_pool *pool;       /* borrowed; NULL in tests that never reach the stores */
    api_validate_fn *validate;
    api_kind_fn *kind_known;
    struct api_cache *cache;     /* borrowed; NULL = no cache */
    struct api_batch *batch;     /* borrowed; NULL = one INSERT per request */
    api_catalog_fn *cards;       /* GET /v1/cards */
    api_catalog_fn *spells;      /* GET /v1/spells */
    api_catalog_fn *missions;    /* GET /v1/missions */
    api_catalog_fn *decks;       /* GET /v1/decks */
    const char *openapi;         /* the OpenAPI document served at /openapi.json (static) */
    struct api_watch *watch;     /* borrowed; NULL = long polls and event streams answer at once */
    struct api_metrics *metrics; /* borrowed; NULL = no HTTP metrics */
    int auth;                    /* 1: every non-public route needs a key (api_auth.h) */
    struct api_authfail *authfail; /* borrowed; NULL = refused keys are not counted */
};

#endif
