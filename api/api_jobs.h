/* SPDX-License-Identifier: MIT */
/* The job routes: submit (validate, commit the row, then enqueue), read, result, list
 * with an opaque cursor, and cancel. Every error is a problem+json; a rejected submission
 * touches neither PostgreSQL nor Redis. */
#ifndef API_JOBS_H
#define API_JOBS_H

#include <stddef.h>

#include "api_http.h"
#include "api_router.h"

/** POST /v1/jobs: 202 + Location, or 400/413/415/422/503. */
void api_jobs_submit(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp);
/** GET /v1/jobs/{id}: 200 or 404. */
void api_jobs_get(const struct api_ctx *ctx, const struct api_request *req, const char *id,
                  struct api_response *resp);
/** GET /v1/jobs/{id}/result: 200, 404 (unknown job), 409 (not succeeded). */
void api_jobs_result(const struct api_ctx *ctx, const struct api_request *req, const char *id,
                     struct api_response *resp);
/** GET /v1/jobs?status=&kind=&limit=&cursor=: 200 or 400. */
void api_jobs_list(const struct api_ctx *ctx, const struct api_request *req,
                   struct api_response *resp);
/** POST /v1/jobs/{id}:cancel: 202, 404, or 409 when final. */
void api_jobs_cancel(const struct api_ctx *ctx, const struct api_request *req, const char *id,
                     struct api_response *resp);

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

#endif
