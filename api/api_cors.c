/* SPDX-License-Identifier: MIT */
/* CORS headers (see api_cors.h). */
#include "api_cors.h"

#include <string.h>

#include "sk_banned.h"

int api_cors_allowed(const char *allowed, const char *origin)
{
    size_t n;
    if (!allowed || !origin || !origin[0])
        return 0;
    n = strlen(origin);
    for (const char *p = allowed; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, origin, n) == 0)
            return 1;
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

int api_cors_refused(const char *allowed, const struct api_request *req)
{
    const char *o = req->origin;

    if (!o || !o[0] || api_cors_allowed(allowed, o))
        return 0;
    if (req->host && strncmp(o, "http://", 7) == 0 && strcmp(o + 7, req->host) == 0)
        return 0;
    return 1;
}

size_t api_cors_headers(const char *allowed, const struct api_request *req,
                        const struct api_response *resp,
                        struct api_header out[API_CORS_MAX_HEADERS])
{
    size_t n = 0;
    if (!api_cors_allowed(allowed, req->origin))
        return 0;
    out[n++] = (struct api_header){"Access-Control-Allow-Origin", req->origin};
    out[n++] = (struct api_header){"Vary", "Origin"};
    out[n++] = (struct api_header){"Access-Control-Expose-Headers",
                                   "Location, ETag, Retry-After, RateLimit, RateLimit-Policy"};
    if (resp->cors_methods && req->acr_method) {
        out[n++] = (struct api_header){"Access-Control-Allow-Methods", resp->cors_methods};
        out[n++] = (struct api_header){"Access-Control-Allow-Headers",
                                       "Authorization, Content-Type, Idempotency-Key, "
                                       "If-None-Match, Last-Event-ID, X-Request-Id"};
        out[n++] = (struct api_header){"Access-Control-Max-Age", "600"};
    }
    return n;
}
