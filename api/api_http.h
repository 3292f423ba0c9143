/* SPDX-License-Identifier: MIT */
/* The MHD-free seam between the HTTP server and the handlers (house style 24): a request
 * as plain data, a response as plain data, and the RFC 9457 problem+json builder every
 * error goes through. Handlers and their unit tests see only these structs; api_server.c
 * alone converts them from and to libmicrohttpd. */
#ifndef API_HTTP_H
#define API_HTTP_H

#include <jansson.h>
#include <stddef.h>

#define API_MAX_ARGS 16

struct api_arg {
    const char *key;   /* borrowed */
    const char *value; /* borrowed; "" for a key without a value */
};

struct api_request {
    const char *method;       /* "GET", "POST", ... (borrowed) */
    const char *path;         /* without the query string (borrowed) */
    const char *content_type; /* NULL when absent (borrowed) */
    const char *body;         /* borrowed; body_len bytes, not NUL-terminated */
    size_t body_len;
    int body_too_large;                /* 1 when the body exceeded the limit and was not kept */
    const char *req_id;                /* correlation id for logs (borrowed) */
    struct api_arg args[API_MAX_ARGS]; /* query arguments */
    size_t n_args;
    int too_many_args;         /* 1 when more than API_MAX_ARGS were given */
    const char *if_none_match; /* If-None-Match header or NULL (borrowed) */
};

struct api_response {
    int status;
    const char *content_type; /* static string */
    char *body;               /* owned (sk_malloc), may be NULL */
    size_t body_len;
    char location[96];         /* "" = no Location header */
    char allow[32];            /* "" = no Allow header */
    int retry_after;           /* 0 = no Retry-After header */
    char etag[40];             /* "" = no ETag header */
    const char *cache_control; /* static string; NULL = "no-store" */
    const char *csp;           /* static Content-Security-Policy; NULL = none */
};

/** Returns the value of query argument `key` (borrowed) or NULL. */
const char *api_http_arg(const struct api_request *req, const char *key);

/** Zeroes `resp` (embedded struct; release with api_http_response_release). */
void api_http_response_init(struct api_response *resp);
/** Frees the body; NULL-safe. */
void api_http_response_release(struct api_response *resp);

/**
 * Sets a JSON response: `status`, application/json, `body` copied (NUL-terminated text).
 * Returns 0, or -1 when out of memory (then a 500 problem is set instead).
 */
int api_http_json_text(struct api_response *resp, int status, const char *body);

/**
 * Sets an application/problem+json response (RFC 9457) with members type, title, status
 * and detail, plus every member of `ext` when non-NULL (stolen, even on failure).
 * `slug` names the problem type ("/problems/<slug>"); NULL means "about:blank".
 */
void api_http_problem(struct api_response *resp, int status, const char *slug, const char *title,
                      const char *detail, json_t *ext);

/** 1 when `ct` names application/json (parameters such as charset allowed). */
int api_http_is_json(const char *ct);

#endif
