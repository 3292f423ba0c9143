/* SPDX-License-Identifier: MIT */
/* Route table (see api_router.h). */
#include "api_router.h"

#include <stdio.h>
#include <string.h>

#include "api_health.h"
#include "api_jobs.h"
#include "api_static.h"

#include "sk_banned.h"

#define JOBS "/v1/jobs"

/* Extracts the {id} of "/v1/jobs/{id}<suffix>" into `id` (size 64). Returns 1 on a
 * match. The id is checked later (an id that is not a UUID is a 404 job). */
static int match_id(const char *path, const char *suffix, char id[64])
{
    size_t plen = strlen(JOBS "/");
    size_t slen = strlen(suffix);
    size_t n;

    if (strncmp(path, JOBS "/", plen) != 0)
        return 0;
    path += plen;
    n = strlen(path);
    if (n <= slen || strcmp(path + n - slen, suffix) != 0)
        return 0;
    n -= slen;
    if (n >= 64 || memchr(path, '/', n) || memchr(path, ':', n))
        return 0;
    memcpy(id, path, n);
    id[n] = '\0';
    return 1;
}

static void method_not_allowed(struct api_response *resp, const char *allow)
{
    api_http_problem(resp, 405, NULL, "Method Not Allowed",
                     "this resource does not support the method", NULL);
    snprintf(resp->allow, sizeof(resp->allow), "%s", allow);
}

void api_router_handle(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp)
{
    const char *m = req->method;
    int get = strcmp(m, "GET") == 0 || strcmp(m, "HEAD") == 0;
    int post = strcmp(m, "POST") == 0;
    char id[64];

    if (strcmp(req->path, "/healthz") == 0) {
        if (get)
            api_health_live(ctx, req, resp);
        else
            method_not_allowed(resp, "GET");
    } else if (strcmp(req->path, "/readyz") == 0) {
        if (get)
            api_health_ready(ctx, req, resp);
        else
            method_not_allowed(resp, "GET");
    } else if (strcmp(req->path, JOBS) == 0) {
        if (post)
            api_jobs_submit(ctx, req, resp);
        else if (get)
            api_jobs_list(ctx, req, resp);
        else
            method_not_allowed(resp, "GET, POST");
    } else if (match_id(req->path, ":cancel", id)) {
        if (post)
            api_jobs_cancel(ctx, req, id, resp);
        else
            method_not_allowed(resp, "POST");
    } else if (match_id(req->path, "/result", id)) {
        if (get)
            api_jobs_result(ctx, req, id, resp);
        else
            method_not_allowed(resp, "GET");
    } else if (match_id(req->path, "", id)) {
        if (get)
            api_jobs_get(ctx, req, id, resp);
        else
            method_not_allowed(resp, "GET");
    } else if (api_static_exists(req->path)) {
        if (get)
            api_static_get(ctx, req, resp);
        else
            method_not_allowed(resp, "GET");
    } else {
        api_http_problem(resp, 404, NULL, "Not Found", "no such resource", NULL);
    }
}
