/* SPDX-License-Identifier: MIT */
/* The route table, as data: maps (method, path template) to a handler, answering 404 for
 * an unknown path, 405 with Allow for a known path with another method, and 204 to
 * OPTIONS (CORS preflight). `skirmish-api routes` prints the table, and the test run
 * compares it with openapi/openapi.json. Each row names who may call it; the caller's key
 * is checked (api_auth.h) before the handler runs. */
#ifndef API_ROUTER_H
#define API_ROUTER_H

#include "api_auth.h"
#include "api_ctx.h"
#include "api_http.h"

/** A route handler; a path's {id} is in req->id. Every route has this one signature. */
typedef void api_handler_fn(const struct api_ctx *ctx, const struct api_request *req,
                            struct api_response *resp);

/* One row of the route table. */
struct api_route {
    const char *method; /* "GET" (also answers HEAD), "POST" or "DELETE" */
    const char *path;   /* template, as in openapi/openapi.json: "/v1/jobs/{id}/result" */
    api_handler_fn *fn;
    enum api_auth_scope scope; /* who may call it (api_auth.h) */
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
 * matches path and method (HEAD as GET), once api_auth_check let the caller through; OPTIONS on a
 * known path is a 204 preflight; 405 with Allow for another method; 404 for an unknown path.
 * Thread-safe.
 */
void api_router_handle(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp);

/**
 * The first half of api_router_handle, for a request whose body has not arrived yet (its
 * header only): 1 when its route exists and its caller may use it, with the caller in
 * *who; else 0 with `resp` holding the answer (401, 403, 404, 405, a preflight, ...), so
 * that the server reads no body for it (docs/security.md, "Before authentication").
 */
int api_router_admit(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_principal *who, struct api_response *resp);

/**
 * The second half: serves `req`, which api_router_admit let through for `who`, without
 * checking its key again. Thread-safe.
 */
void api_router_handle_admitted(const struct api_ctx *ctx, const struct api_request *req,
                                const struct api_principal *who, struct api_response *resp);

#endif
