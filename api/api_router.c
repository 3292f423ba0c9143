/* SPDX-License-Identifier: MIT */
/* Route table (see api_router.h). */
#include "api_router.h"

#include <stdio.h>
#include <string.h>

#include "api_catalog.h"
#include "api_health.h"
#include "api_jobs.h"
#include "api_static.h"
#include "api_stats.h"

#include "sk_banned.h"

/* Adapters: every handler of the table takes the {id} (NULL for a path without one). */
static void h_live(const struct api_ctx *c, const struct api_request *q, const char *id,
                   struct api_response *r)
{
    (void)id;
    api_health_live(c, q, r);
}

static void h_ready(const struct api_ctx *c, const struct api_request *q, const char *id,
                    struct api_response *r)
{
    (void)id;
    api_health_ready(c, q, r);
}

static void h_openapi(const struct api_ctx *c, const struct api_request *q, const char *id,
                      struct api_response *r)
{
    (void)q;
    (void)id;
    if (c->openapi)
        api_http_json_text(r, 200, c->openapi);
    else
        api_http_problem(r, 404, NULL, "Not Found", "no document was built in", NULL);
}

static void h_metrics(const struct api_ctx *c, const struct api_request *q, const char *id,
                      struct api_response *r)
{
    (void)id;
    api_stats_metrics(c, q, r);
}

static void h_stats(const struct api_ctx *c, const struct api_request *q, const char *id,
                    struct api_response *r)
{
    (void)id;
    api_stats_get(c, q, r);
}

static void h_cards(const struct api_ctx *c, const struct api_request *q, const char *id,
                    struct api_response *r)
{
    (void)id;
    api_catalog_cards(c, q, r);
}

static void h_spells(const struct api_ctx *c, const struct api_request *q, const char *id,
                     struct api_response *r)
{
    (void)id;
    api_catalog_spells(c, q, r);
}

static void h_submit(const struct api_ctx *c, const struct api_request *q, const char *id,
                     struct api_response *r)
{
    (void)id;
    api_jobs_submit(c, q, r);
}

static void h_list(const struct api_ctx *c, const struct api_request *q, const char *id,
                   struct api_response *r)
{
    (void)id;
    api_jobs_list(c, q, r);
}

static void h_history(const struct api_ctx *c, const struct api_request *q, const char *id,
                      struct api_response *r)
{
    (void)id;
    api_stats_history(c, q, r);
}

static void h_cancel_many(const struct api_ctx *c, const struct api_request *q, const char *id,
                          struct api_response *r)
{
    (void)id;
    api_jobs_cancel_many(c, q, r);
}

static const struct api_route routes[] = {
    {"GET", "/healthz", h_live},
    {"GET", "/readyz", h_ready},
    {"GET", "/openapi.json", h_openapi},
    {"GET", "/metrics", h_metrics},
    {"GET", "/v1/stats", h_stats},
    {"GET", "/v1/stats/history", h_history},
    {"GET", "/v1/cards", h_cards},
    {"GET", "/v1/spells", h_spells},
    {"GET", "/v1/jobs", h_list},
    {"POST", "/v1/jobs", h_submit},
    {"GET", "/v1/jobs/{id}", api_jobs_get},
    {"GET", "/v1/jobs/{id}/result", api_jobs_result},
    {"GET", "/v1/jobs/{id}/events", api_jobs_events},
    {"POST", "/v1/jobs/{id}:cancel", api_jobs_cancel},
    {"POST", "/v1/jobs/{id}:retry", api_jobs_retry},
    {"GET", "/v1/jobs/{id}/document", api_jobs_document},
    {"POST", "/v1/jobs:cancel", h_cancel_many},
    {NULL, NULL, NULL},
};

const struct api_route *api_router_routes(void)
{
    return routes;
}

int api_router_match(const char *tmpl, const char *path, char id[64])
{
    const char *brace = strstr(tmpl, "{id}");
    size_t pre, suf, n;

    if (!brace)
        return strcmp(tmpl, path) == 0;
    pre = (size_t)(brace - tmpl);
    suf = strlen(brace + 4);
    n = strlen(path);
    if (n <= pre + suf || strncmp(path, tmpl, pre) != 0 || strcmp(path + n - suf, brace + 4) != 0)
        return 0;
    n -= pre + suf;
    /* an id never holds '/' or ':', so "/v1/jobs/{id}" does not swallow ".../result" */
    if (n >= 64 || memchr(path + pre, '/', n) || memchr(path + pre, ':', n))
        return 0;
    memcpy(id, path + pre, n);
    id[n] = '\0';
    return 1;
}

void api_router_handle(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp)
{
    const char *m = strcmp(req->method, "HEAD") == 0 ? "GET" : req->method;
    const struct api_route *hit = NULL;
    const char *route = NULL;
    char allow[64] = "";
    char id[64] = "";

    for (const struct api_route *r = routes; r->method; r++) {
        char rid[64];
        if (!api_router_match(r->path, req->path, rid))
            continue;
        route = r->path;
        (void)snprintf(allow + strlen(allow), sizeof(allow) - strlen(allow), "%s%s",
                       allow[0] ? ", " : "", r->method);
        if (!hit && strcmp(r->method, m) == 0) {
            hit = r;
            (void)snprintf(id, sizeof(id), "%s", rid);
        }
    }
    resp->route = route;
    if (hit) {
        hit->fn(ctx, req, strstr(hit->path, "{id}") ? id : NULL, resp);
    } else if (route && strcmp(m, "OPTIONS") == 0) {
        /* a preflight (or a plain OPTIONS): the CORS headers are added by the server */
        resp->status = 204;
        (void)snprintf(resp->allow, sizeof(resp->allow), "%s, OPTIONS", allow);
        resp->cors_methods = resp->allow;
    } else if (route) {
        api_http_problem(resp, 405, NULL, "Method Not Allowed",
                         "this resource does not support the method", NULL);
        (void)snprintf(resp->allow, sizeof(resp->allow), "%s", allow);
    } else if (api_static_exists(req->path)) {
        /* The dashboard's files are not API routes: outside the table, so neither
         * `skirmish-api routes` nor the OpenAPI document lists them. */
        if (strcmp(m, "GET") == 0) {
            api_static_get(ctx, req, resp);
        } else {
            api_http_problem(resp, 405, NULL, "Method Not Allowed",
                             "this resource does not support the method", NULL);
            (void)snprintf(resp->allow, sizeof(resp->allow), "GET");
        }
    } else {
        api_http_problem(resp, 404, NULL, "Not Found", "no such resource", NULL);
    }
}
