/* SPDX-License-Identifier: MIT */
/* The MHD-free seam between the HTTP server and the handlers (docs/style.md, rule 24): a request
 * as plain data, a response as plain data, and the RFC 9457 problem+json builder every
 * error goes through. Handlers and their unit tests see only these structs; api_server.c
 * alone converts them from and to libmicrohttpd. */
#ifndef API_HTTP_H
#define API_HTTP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

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
    int body_too_large;   /* 1 when the body exceeded the limit and was not kept */
    const char *req_id;   /* correlation id for logs (borrowed) */
    uint32_t client_addr; /* the client's IPv4 address, host order; 0 = unknown */
    const char *id;       /* the path's {id}, set by the router; NULL on a path without one */
    struct api_arg args[API_MAX_ARGS]; /* query arguments */
    size_t n_args;
    int too_many_args; /* 1 when more than API_MAX_ARGS were given */
    /* request headers the routes read (borrowed; NULL when absent) */
    const char *origin;
    const char *if_none_match;
    const char *idempotency_key;
    const char *last_event_id;
    const char *acr_method;    /* Access-Control-Request-Method */
    const char *host;          /* Host, to tell a same-origin Origin from a foreign one */
    const char *authorization; /* "Bearer <key>" (api_auth.h) */
    /* the caller, set by the router once its key is checked (api_auth.h): jobs it submits
     * belong to `tenant` (NULL outside the router: DB_JOBS_TENANT); `admin` sees every
     * tenant's jobs. Handlers scope reads with api_http_scope. */
    const char *tenant;
    int admin;
    /* long poll: 0 on the first pass; on a pass after a wait, its deadline (monotonic ms)
     * and the reference ETag the first pass chose */
    long long wait_deadline_ms;
    const char *wait_ref;
    long long now_ms; /* monotonic clock when this pass began */
};

struct api_response {
    int status;
    const char *content_type; /* static string */
    char *body;               /* owned (sk_malloc), may be NULL */
    size_t body_len;
    char location[96];        /* "" = no Location header */
    char allow[64];           /* "" = no Allow header */
    int retry_after;          /* 0 = no Retry-After header */
    char etag[24];            /* "" = no ETag header; else the quoted strong validator */
    const char *route;        /* route template matched (static), for metrics; NULL = none */
    const char *cors_methods; /* static; non-NULL: the preflight's Access-Control-Allow-Methods */
    /* wait = 1: send nothing yet; resume this request when job `wait_job` changes or at
     * wait_deadline_ms (monotonic), passing wait_ref back in the request */
    int wait;
    /* sse = 1: the body (may be empty) starts an event stream of job `wait_job`, whose
     * state is wait_ref (ETag), sse_status and sse_done; wait_job "*" is the stream of
     * every job (GET /v1/events) */
    int sse;
    char wait_job[40];
    long long wait_deadline_ms;
    char wait_ref[24];
    char sse_status[16];
    unsigned long long sse_done;
    const char *csp; /* static Content-Security-Policy (with nosniff); NULL = none */
    int close;       /* 1 = "Connection: close": the request's framing cannot be trusted */
    const char *www_authenticate; /* static WWW-Authenticate value of a 401; NULL = none */
    /* the IETF RateLimit-Policy and RateLimit header values (api_auth.c); "" = none */
    char ratelimit_policy[64];
    char ratelimit[64];
    /* the key that passed api_auth_check and its tenant, set by the router ("" with keys
     * off): a long poll or event stream takes its tenant's waiter slot and ends when this
     * key is revoked (api_watch.h) */
    char caller_key[17];
    char caller_tenant[64];
};

/**
 * The tenant whose jobs `req` may see: NULL for an admin (every tenant's) or outside the
 * router (handler unit tests), else the caller's tenant.
 */
const char *api_http_scope(const struct api_request *req);

/* Copies made by api_http_safe_request, freed together by api_http_safe_release. */
struct api_http_safe {
    char *owned[2 * API_MAX_ARGS + 1];
    size_t n;
};

/**
 * Makes the path and every query name and value of `req` valid UTF-8 without control
 * characters, replacing each that is not with a copy where the offending bytes are written
 * as %XX (sk_utf8_escape; the copies are kept in `ss`). Such a string names no route, job or
 * parameter, so nothing is lost, and what the client sent can then be quoted in a problem
 * (jansson refuses invalid UTF-8) and a log line (a control byte could forge one). The
 * server calls it on every request where it enters. Returns 0, or -1 when out of memory.
 */
int api_http_safe_request(struct api_request *req, struct api_http_safe *ss);
/** Frees the copies of api_http_safe_request; the request's strings then dangle. */
void api_http_safe_release(struct api_http_safe *ss);

/** Returns the value of query argument `key` (borrowed) or NULL. */
const char *api_http_arg(const struct api_request *req, const char *key);
/** Returns the first query argument's key that is given more than once (borrowed; the
 * router refuses such a request with a 400 naming it, since which of the values counts
 * would be a guess), or NULL when every key is given once. */
const char *api_http_repeated_arg(const struct api_request *req);

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

/** Writes the strong ETag (quoted, 18 characters) of representation `body` into `out`. */
void api_http_etag(const char *body, size_t len, char out[24]);

/**
 * 1 when the If-None-Match value `if_none_match` (NULL = absent) matches `etag`: "*", or
 * any entry of the list equal to it (a W/ prefix is ignored, per RFC 9110 13.1.2).
 */
int api_http_etag_match(const char *if_none_match, const char *etag);

#endif
