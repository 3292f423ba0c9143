/* SPDX-License-Identifier: MIT */
/* Liveness and readiness (see api_health.h). */
#include "api_health.h"

#include "sk_banned.h"

void api_health_live(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp)
{
    (void)ctx;
    (void)req;
    api_http_json_text(resp, 200, "{\"status\":\"ok\"}");
}

void api_health_ready(const struct api_ctx *ctx, const struct api_request *req,
                      struct api_response *resp)
{
    struct api_slot *s = api_pool_get(ctx->pool);
    int pg = db_ping(s->db) == SK_OK;
    int redis = queue_ping(s->queue) == SK_OK;
    api_pool_put(ctx->pool, s);
    (void)req;
    if (pg && redis) {
        api_http_json_text(resp, 200,
                           "{\"status\":\"ready\",\"postgres\":\"ok\",\"redis\":\"ok\"}");
        return;
    }
    api_http_problem(resp, 503, "not-ready", "Service Unavailable",
                     !pg && !redis ? "postgresql and redis are unreachable"
                     : !pg         ? "postgresql is unreachable"
                                   : "redis is unreachable",
                     json_pack("{s:s, s:s}", "postgres", pg ? "ok" : "unreachable", "redis",
                               redis ? "ok" : "unreachable"));
    resp->retry_after = 1;
}
