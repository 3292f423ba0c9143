/* SPDX-License-Identifier: MIT */
/* The HTTP server: the only module that knows libmicrohttpd. It runs MHD's own thread
 * pool, accumulates request bodies up to the configured limit (anything longer is
 * answered 413 without being kept), converts each request into a struct api_request,
 * hands it to the router and sends the struct api_response back. One access-log line per
 * request, with a req_id taken from X-Request-Id or made up. */
#ifndef API_SERVER_H
#define API_SERVER_H

#include "api_router.h"
#include "sk_err.h"

struct api_server;

/**
 * Starts listening on cfg->http_addr:cfg->http_port with cfg->http_threads threads
 * (0 = one per core), serving with `ctx` (borrowed: must outlive the server). On SK_OK
 * *out is a new server (stop and free with api_server_free). SK_EIO when the address
 * cannot be bound; SK_EINVAL for a malformed address.
 */
enum sk_err api_server_new(const struct api_ctx *ctx, struct api_server **out);

/** Stops accepting, waits for the requests in flight, frees; NULL-safe. */
void api_server_free(struct api_server *srv);

#endif
