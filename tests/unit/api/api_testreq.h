/* SPDX-License-Identifier: MIT */
/* One GET through the router with query arguments, for the route tests whatever context
 * they use (api_testlib.h's fakes, test_api_catalog.c's catalogs). No assertions. */
#ifndef API_TESTREQ_H
#define API_TESTREQ_H

#include <jansson.h>
#include <string.h>

#include "api_ctx.h"
#include "api_http.h"
#include "api_router.h"

/* GET `path` with the `n` key/value pairs of `kv` (at most API_MAX_ARGS) under `c`; the
 * status into *status, the content type into *ct (may be NULL), the body parsed (a new
 * reference, NULL when not JSON). */
static inline json_t *api_testreq_get(const struct api_ctx *c, const char *path,
                                      const char *const *kv, size_t n, int *status, const char **ct)
{
    struct api_request req;
    struct api_response resp;
    json_t *doc;
    memset(&req, 0, sizeof(req));
    req.method = "GET";
    req.path = path;
    req.req_id = "t";
    for (size_t i = 0; i < n && i < API_MAX_ARGS; i++) {
        req.args[i].key = kv[2 * i];
        req.args[i].value = kv[2 * i + 1];
    }
    req.n_args = n < API_MAX_ARGS ? n : API_MAX_ARGS;
    api_http_response_init(&resp);
    api_router_handle(c, &req, &resp);
    *status = resp.status;
    if (ct)
        *ct = resp.content_type;
    doc = json_loadb(resp.body, resp.body_len, 0, NULL);
    api_http_response_release(&resp);
    return doc;
}

#endif
