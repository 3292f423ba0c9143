/* SPDX-License-Identifier: MIT */
/* Who may call a route (docs/security.md): the key in `Authorization: Bearer <key>`
 * checked against the api_keys table on every request (no cache, so a revocation takes
 * effect at once), the route's scope (public, any key, admin key), the tenant a job of
 * another tenant is hidden from (404, as for a job that does not exist), and the key's
 * request rate (a token bucket in Redis: 429 with Retry-After and the IETF RateLimit
 * headers). The router calls api_auth_check before a handler. */
#ifndef API_AUTH_H
#define API_AUTH_H

#include "api_ctx.h"
#include "api_http.h"
#include "db_keys.h"

/* What a route asks of its caller. */
enum api_auth_scope {
    API_AUTH_PUBLIC = 0, /* anyone: health, the OpenAPI document */
    API_AUTH_KEY,        /* any valid key; the caller's tenant scopes jobs */
    API_AUTH_ADMIN,      /* an admin key: every tenant, stats, metrics, keys */
};

/* The caller, once its key is checked; the request points into it. */
struct api_principal {
    char tenant[DB_KEYS_TENANT_LEN];
    char key_id[DB_KEYS_ID_LEN];
    int admin;
};

/** 1 when `addr` (IPv4 text) is a loopback address (127.0.0.0/8). */
int api_auth_loopback(const char *addr);

/**
 * Whether keys are required under `cfg`: SKIRMISH_AUTH on, or auto on a non-loopback
 * address. Returns 1 or 0.
 */
int api_auth_required(const struct sk_config *cfg);

/**
 * Checks `req` against `scope` for the route `route` (its template) and job id `id` (NULL
 * when the path has none). Returns 0 with *who filled when the handler may run; -1 when
 * `resp` holds the answer: 401 (no key, or not a valid active key, with
 * WWW-Authenticate), 403 (an admin route with a tenant key), 404 (another tenant's job),
 * 429 (rate limit, with Retry-After), or 503 (the key store is down). With keys not
 * required, every caller is an admin of tenant DB_JOBS_TENANT. Sets the RateLimit headers
 * of `resp` when a bucket was taken from. Thread-safe.
 */
int api_auth_check(const struct api_ctx *ctx, const struct api_request *req,
                   enum api_auth_scope scope, const char *route, const char *id,
                   struct api_principal *who, struct api_response *resp);

/**
 * Sets `resp` to the 401 of a long poll or event stream whose key was revoked while it was
 * open (api_watch.h): problem `unauthorized`, with WWW-Authenticate.
 */
void api_auth_revoked(struct api_response *resp);

#endif
