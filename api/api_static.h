/* SPDX-License-Identifier: MIT */
/* The dashboard's files (dashboard/index.html, app.js, style.css), compiled into the API at
 * build time and served read-only: `/` and `/dashboard/<file>`, with their Content-Type, a
 * content ETag (If-None-Match answers 304; the server sends Cache-Control: no-cache with
 * every ETag) and a Content-Security-Policy. Only the embedded
 * files exist: a path is looked up as an exact string, never joined to a folder, so no
 * request can reach the file system. Reads no store. */
#ifndef API_STATIC_H
#define API_STATIC_H

#include "api_ctx.h"
#include "api_http.h"

/** 1 when `path` (borrowed) names an embedded file, else 0. */
int api_static_exists(const char *path);

/**
 * GET/HEAD of an embedded file: 200 with a copy of the file (resp owns it), or 304 without
 * a body when req->if_none_match lists the file's ETag (or is "*"); 404 problem when the
 * path names no embedded file. Fills resp->etag and resp->csp.
 */
void api_static_get(const struct api_ctx *ctx, const struct api_request *req,
                    struct api_response *resp);

/**
 * Writes the strong ETag of `data` (len bytes) into `out` (size `len_out`, at least 19):
 * the FNV-1a 64-bit hash as 16 hex digits in double quotes. Exported for tests.
 */
void api_static_etag(const char *data, size_t len, char *out, size_t len_out);

/**
 * 1 when If-None-Match value `inm` (borrowed, may be NULL) matches `etag`: "*", or a
 * comma-separated list holding `etag` with or without a W/ prefix (weak comparison,
 * RFC 9110 13.1.2). NULL or empty gives 0.
 */
int api_static_etag_matches(const char *inm, const char *etag);

#endif
