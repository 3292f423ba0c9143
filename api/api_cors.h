/* SPDX-License-Identifier: MIT */
/* CORS for browser clients (deckbuilders, dashboards): an Origin listed exactly in
 * SKIRMISH_CORS_ORIGINS gets Access-Control-Allow-Origin (with Vary: Origin) and may read
 * Location, ETag and Retry-After; a preflight (OPTIONS with Access-Control-Request-Method)
 * of an allowed origin also gets the allowed methods, request headers and a max age. Any
 * other origin gets no CORS header at all, so the browser refuses. Pure functions. */
#ifndef API_CORS_H
#define API_CORS_H

#include <stddef.h>

#include "api_http.h"

#define API_CORS_MAX_HEADERS 8

struct api_header {
    const char *name;  /* static */
    const char *value; /* borrowed from the request, the response or static */
};

/** 1 when `origin` is one of the comma-separated `allowed` origins (exact match). */
int api_cors_allowed(const char *allowed, const char *origin);

/**
 * 1 when `req` comes from a page of another origin that `allowed` does not list: it has an
 * Origin header that is neither listed nor the API's own (`http://` + its Host, as the
 * dashboard's same-origin POSTs send). Such a page's browser refuses the answer, which the
 * operator cannot see from the page's side, so the server logs it.
 */
int api_cors_refused(const char *allowed, const struct api_request *req);

/**
 * Fills `out` with the CORS headers the answer `resp` to `req` needs under the setting
 * `allowed`; returns how many (0 when CORS is off or the origin is not allowed).
 */
size_t api_cors_headers(const char *allowed, const struct api_request *req,
                        const struct api_response *resp,
                        struct api_header out[API_CORS_MAX_HEADERS]);

#endif
