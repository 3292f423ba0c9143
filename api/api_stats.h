/* SPDX-License-Identifier: MIT */
/* Dashboard routes: GET /v1/stats (queue depth, jobs by status, running jobs, live workers
 * from their heartbeats, games per second over the last minute) and GET /metrics (the
 * same figures plus this process's HTTP metrics and the shared job duration histograms,
 * in the Prometheus text format 0.0.4). Figures shared by every process are read from
 * PostgreSQL and Redis on each request. */
#ifndef API_STATS_H
#define API_STATS_H

#include "api_ctx.h"
#include "api_http.h"

/** GET /v1/stats: 200, 400 (any query parameter), 503 when a store is unreachable. */
void api_stats_get(const struct api_ctx *ctx, const struct api_request *req,
                   struct api_response *resp);

/** GET /metrics: 200 text/plain; version=0.0.4, 400, 503 when a store is unreachable. */
void api_stats_metrics(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp);

/** GET /v1/stats/history?minutes=N (1..1440, default 60): per minute, oldest first, the
 *  jobs that became succeeded, failed and canceled and the games of the battle jobs that
 *  finished, from the jobs table (db_jobs_history). */
void api_stats_history(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp);

#endif
