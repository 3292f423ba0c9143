/* SPDX-License-Identifier: MIT */
/* GET /healthz (the process answers) and GET /readyz (PostgreSQL and Redis both answer
 * now; otherwise 503 problem+json naming the one that does not). */
#ifndef API_HEALTH_H
#define API_HEALTH_H

#include "api_ctx.h"
#include "api_http.h"

/** GET /healthz: always 200 {"status":"ok"}. */
void api_health_live(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp);
/** GET /readyz: 200 when both stores answer, else 503. */
void api_health_ready(const struct api_ctx *ctx, const struct api_request *req,
                      struct api_response *resp);

#endif
