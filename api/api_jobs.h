/* SPDX-License-Identifier: MIT */
/* The job routes: submit (validate, commit the row, then enqueue), read, result, list
 * with an opaque cursor, and cancel. Every error is a problem+json; a rejected submission
 * touches neither PostgreSQL nor Redis. */
#ifndef API_JOBS_H
#define API_JOBS_H

#include <stddef.h>

#include "api_ctx.h"
#include "api_http.h"

/**
 * POST /v1/jobs: 202 + Location + ETag + Retry-After, or 400/413/415/422/503. With an
 * Idempotency-Key: 200 with the key's job when the document is the same, 422 when not.
 */
void api_jobs_submit(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp);
/* Longest long poll, in seconds. */
#define API_JOBS_WAIT_MAX 60

/**
 * GET /v1/jobs/{id}[?wait=S]: 200 with ETag (and Retry-After while not final), 304 when
 * If-None-Match matches, 400 (bad or unknown parameter), 404. With wait > 0 and a job that
 * is not final and still has the reference ETag (If-None-Match when given, else its state
 * now), asks the server to wait (resp->wait) until it changes or S seconds pass.
 */
void api_jobs_get(const struct api_ctx *ctx, const struct api_request *req,
                  struct api_response *resp);
/** GET /v1/jobs/{id}/result: 200, 404 (unknown job), 409 (not succeeded). */
void api_jobs_result(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp);
/** GET /v1/jobs?status=&kind=&limit=&cursor=: 200 or 400. */
void api_jobs_list(const struct api_ctx *ctx, const struct api_request *req,
                   struct api_response *resp);
/** POST /v1/jobs/{id}:cancel: 202, 404, or 409 when final. */
void api_jobs_cancel(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp);

/**
 * GET /v1/jobs/{id}/events: 200 text/event-stream whose first event (skipped when
 * Last-Event-ID is the job's ETag) is `status` with the job resource; resp->sse asks the
 * server to stream the rest (api_jobs_events_next). 400, 404.
 */
void api_jobs_events(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp);

/**
 * The events of job `id` since the state (`etag`, `status`, *done): a `progress` event
 * when progress.done moved, a `status` event (the job resource) for any other change.
 * Updates the state; *text is a new string (sk_free) or stays untouched when nothing
 * changed. Returns 0, or -1 when the job cannot be read now.
 */
int api_jobs_events_next(const struct api_ctx *ctx, const char *id, char etag[24], char status[16],
                         unsigned long long *done, char **text);

/**
 * GET /v1/events: starts the event stream of every job (resp->sse with wait_job "*"); the
 * server then sends api_jobs_feed_events as jobs change. 400 for any query parameter.
 */
void api_jobs_feed(const struct api_ctx *ctx, const struct api_request *req,
                   struct api_response *resp);

/**
 * The feed's events for the `n` jobs in `ids` (changed since the last ones sent): one `job`
 * event with the job resource each, in its state now; a `reset` event first when `reset`
 * (changes were missed) and one when a job could not be read. 0 with *text (caller frees;
 * NULL when there is nothing to send), -1 out of memory.
 */
int api_jobs_feed_events(const struct api_ctx *ctx, const char (*ids)[40], size_t n, int reset,
                         char **text);

/**
 * Parses an Idempotency-Key header value: a structured-field string ("...") or the bare
 * key, 1..255 printable ASCII characters. Returns 0 with the key in `out`, or -1.
 */
int api_jobs_parse_key(const char *value, char out[256]);

/**
 * Encodes `raw` (NUL-terminated) as unpadded base64url into `out` (size `len`).
 * Returns 0, or -1 when `out` is too small.
 */
int api_jobs_cursor_encode(const char *raw, char *out, size_t len);
/**
 * Decodes a cursor made by api_jobs_cursor_encode into `out` (size `len`, NUL-terminated).
 * Returns 0, or -1 when `in` is not base64url or decodes to something with a NUL byte.
 */
int api_jobs_cursor_decode(const char *in, char *out, size_t len);

/** GET /v1/jobs/{id}/document: the document the job was submitted with (its seed
 *  included), so it can be read, edited and submitted again; 404 unknown id. */
void api_jobs_document(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp);

/** POST /v1/jobs/{id}:retry: 202 with a new queued job made from a final job's document
 *  (same seed), `retry_of` naming the original; 409 job-not-final; 404 unknown id. */
void api_jobs_retry(const struct api_ctx *ctx, const struct api_request *req,
                    struct api_response *resp);

/** POST /v1/jobs:cancel?status=queued[&kind=K][&limit=N]: cancels the queued jobs matching
 *  the filter (at most `limit`, default 1000, oldest first); 200 {"canceled", "ids"}. */
void api_jobs_cancel_many(const struct api_ctx *ctx, const struct api_request *req,
                          struct api_response *resp);

#endif
