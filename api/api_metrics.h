/* SPDX-License-Identifier: MIT */
/* HTTP metrics of one API process, in memory: requests counted and timed by route
 * template, method and status, rendered in the Prometheus text format 0.0.4 (a counter and
 * a histogram with le buckets). Thread-safe. */
#ifndef API_METRICS_H
#define API_METRICS_H

#include <stddef.h>

#include "sk_buf.h"
#include "sk_err.h"

struct api_metrics;

/** Returns in *out an empty set of metrics (free with api_metrics_free). */
enum sk_err api_metrics_new(struct api_metrics **out);
/** Frees; NULL-safe. */
void api_metrics_free(struct api_metrics *m);

/**
 * Counts one request: `route` is the matched template (static; NULL = unmatched), `method`
 * its method (copied), `status` the status sent, `seconds` the time it took.
 */
void api_metrics_observe(struct api_metrics *m, const char *route, const char *method, int status,
                         double seconds);

/** Appends skirmish_http_requests_total and skirmish_http_request_duration_seconds to `b`. */
void api_metrics_render(struct api_metrics *m, struct sk_buf *b);

#endif
