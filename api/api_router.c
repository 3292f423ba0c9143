/* SPDX-License-Identifier: MIT */
/* Route table (see api_router.h). */
#include "api_router.h"

#include <stdio.h>
#include <string.h>

#include "api_catalog.h"
#include "api_health.h"
#include "api_jobs.h"
#include "api_keys.h"
#include "api_retention.h"
#include "api_static.h"
#include "api_stats.h"

#include "sk_banned.h"

/* GET /openapi.json: the document built in, as is. */
static void openapi_get(const struct api_ctx *c, const struct api_request *q,
                        struct api_response *r)
{
    (void)q;
    if (c->openapi)
        api_http_json_text(r, 200, c->openapi);
    else
        api_http_problem(r, 404, NULL, "Not Found", "no document was built in", NULL);
}

_Static_assert(sizeof(((struct api_response *)0)->caller_key) == DB_KEYS_ID_LEN,
               "a response holds a key id");
_Static_assert(sizeof(((struct api_response *)0)->caller_tenant) == DB_KEYS_TENANT_LEN,
               "a response holds a tenant name");

#define PUB   API_AUTH_PUBLIC
#define KEY   API_AUTH_KEY
#define ADMIN API_AUTH_ADMIN

static const struct api_route routes[] = {
    {"GET", "/healthz", api_health_live, PUB},
    {"GET", "/readyz", api_health_ready, PUB},
    {"GET", "/openapi.json", openapi_get, PUB},
    {"GET", "/metrics", api_stats_metrics, ADMIN},
    {"GET", "/v1/stats", api_stats_get, ADMIN},
    {"GET", "/v1/stats/history", api_stats_history, ADMIN},
    {"GET", "/v1/cards", api_catalog_cards, KEY},
    {"GET", "/v1/spells", api_catalog_spells, KEY},
    {"GET", "/v1/missions", api_catalog_missions, KEY},
    {"GET", "/v1/decks", api_catalog_decks, KEY},
    {"GET", "/v1/jobs", api_jobs_list, KEY},
    {"POST", "/v1/jobs", api_jobs_submit, KEY},
    {"GET", "/v1/jobs/{id}", api_jobs_get, KEY},
    {"DELETE", "/v1/jobs/{id}", api_jobs_delete, KEY},
    {"GET", "/v1/jobs/{id}/result", api_jobs_result, KEY},
    {"GET", "/v1/jobs/{id}/events", api_jobs_events, KEY},
    {"POST", "/v1/jobs/{id}:cancel", api_jobs_cancel, KEY},
    {"POST", "/v1/jobs/{id}:retry", api_jobs_retry, KEY},
    {"GET", "/v1/jobs/{id}/document", api_jobs_document, KEY},
    {"POST", "/v1/jobs:cancel", api_jobs_cancel_many, KEY},
    /* every job's changes: the operator's view (a tenant's dashboard polls its list) */
    {"GET", "/v1/events", api_jobs_feed, ADMIN},
    {"GET", "/v1/keys", api_keys_list, ADMIN},
    {"POST", "/v1/keys", api_keys_create, ADMIN},
    {"DELETE", "/v1/keys/{id}", api_keys_revoke, ADMIN},
    {NULL, NULL, NULL, PUB},
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

/* The row of the table that serves `req` (method and path; HEAD as GET), its {id} into `id`;
 * NULL when none, with `resp` holding the answer (a preflight, 405, the dashboard's files,
 * 404). */
static const struct api_route *find(const struct api_ctx *ctx, const struct api_request *req,
                                    char id[64], struct api_response *resp)
{
    const char *m = strcmp(req->method, "HEAD") == 0 ? "GET" : req->method;
    const struct api_route *hit = NULL;
    const char *route = NULL;
    char allow[48] = ""; /* with ", OPTIONS" it fits resp->allow */

    for (const struct api_route *r = routes; r->method; r++) {
        char rid[64] = ""; /* written only for a template with {id} */
        if (!api_router_match(r->path, req->path, rid))
            continue;
        route = r->path;
        snprintf(allow + strlen(allow), sizeof(allow) - strlen(allow), "%s%s", allow[0] ? ", " : "",
                 r->method);
        if (!hit && strcmp(r->method, m) == 0) {
            hit = r;
            snprintf(id, 64, "%s", rid);
        }
    }
    resp->route = route;
    if (hit) {
        return hit;
    } else if (route && strcmp(m, "OPTIONS") == 0) {
        /* a preflight (or a plain OPTIONS): the CORS headers are added by the server */
        resp->status = 204;
        snprintf(resp->allow, sizeof(resp->allow), "%s, OPTIONS", allow);
        resp->cors_methods = resp->allow;
    } else if (route) {
        api_http_problem(resp, 405, NULL, "Method Not Allowed",
                         "this resource does not support the method", NULL);
        snprintf(resp->allow, sizeof(resp->allow), "%s", allow);
    } else if (api_static_exists(req->path)) {
        /* The dashboard's files are not API routes: outside the table, so neither
         * `skirmish-api routes` nor the OpenAPI document lists them. */
        if (strcmp(m, "GET") == 0) {
            api_static_get(ctx, req, resp);
        } else {
            api_http_problem(resp, 405, NULL, "Method Not Allowed",
                             "this resource does not support the method", NULL);
            snprintf(resp->allow, sizeof(resp->allow), "GET");
        }
    } else {
        api_http_problem(resp, 404, NULL, "Not Found", "no such resource", NULL);
    }
    return NULL;
}

int api_router_admit(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_principal *who, struct api_response *resp)
{
    char id[64] = "";
    const struct api_route *hit = find(ctx, req, id, resp);

    if (!hit)
        return 0;
    return !api_auth_check(ctx, req, hit->scope, hit->path, strstr(hit->path, "{id}") ? id : NULL,
                           who, resp);
}

/* Serves `req` on `hit` for `who` (checked already). */
static void dispatch(const struct api_ctx *ctx, const struct api_request *req,
                     const struct api_route *hit, const char *id, const struct api_principal *who,
                     struct api_response *resp)
{
    struct api_request routed = *req;
    const char *repeated = api_http_repeated_arg(req);

    if (repeated) {
        api_http_problem(resp, 400, "invalid-query", "Bad Request",
                         "a query parameter is given more than once",
                         json_pack("{s:[{s:s, s:s}]}", "errors", "parameter", repeated, "detail",
                                   "given more than once; give it once"));
        return;
    }
    routed.id = strstr(hit->path, "{id}") ? id : NULL;
    routed.tenant = who->tenant;
    routed.admin = who->admin;
    if (who->key_id[0]) { /* a key was checked: its waiters are counted and revoked by it */
        snprintf(resp->caller_key, sizeof(resp->caller_key), "%s", who->key_id);
        snprintf(resp->caller_tenant, sizeof(resp->caller_tenant), "%s", who->tenant);
    }
    hit->fn(ctx, &routed, resp);
}

void api_router_handle(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp)
{
    char id[64] = "";
    const struct api_route *hit = find(ctx, req, id, resp);
    struct api_principal who;

    if (!hit || api_auth_check(ctx, req, hit->scope, hit->path,
                               strstr(hit->path, "{id}") ? id : NULL, &who, resp))
        return;
    dispatch(ctx, req, hit, id, &who, resp);
}

void api_router_handle_admitted(const struct api_ctx *ctx, const struct api_request *req,
                                const struct api_principal *who, struct api_response *resp)
{
    char id[64] = "";
    const struct api_route *hit = find(ctx, req, id, resp);

    if (hit)
        dispatch(ctx, req, hit, id, who, resp);
}
