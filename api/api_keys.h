/* SPDX-License-Identifier: MIT */
/* API keys over HTTP (admin routes) and on the command line (`skirmish-api keys ...`):
 * made (the key text is shown once, in that answer only), listed (never with a secret),
 * revoked (at once: every request reads the key's row). */
#ifndef API_KEYS_H
#define API_KEYS_H

#include "api_ctx.h"
#include "api_http.h"

/** POST /v1/keys {"tenant", "admin", "name"}: 201 with the key's text; 400/415/422. */
void api_keys_create(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp);
/** GET /v1/keys: 200 {"items": [...]}, every key, newest first, without secrets. */
void api_keys_list(const struct api_ctx *ctx, const struct api_request *req,
                   struct api_response *resp);
/** DELETE /v1/keys/{id}: 204 once revoked; 404 when no active key has that id. */
void api_keys_revoke(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp);

/**
 * `skirmish-api keys create --tenant T [--admin] [--name N]`, `keys list`, `keys revoke ID`
 * with `argv` starting after "keys". Applies the migrations first. Prints the key text
 * (create), a table (list) or nothing (revoke) on stdout. Returns the exit status: 0, 1 on
 * a store failure, 2 on bad usage.
 */
int api_keys_command(const struct sk_config *cfg, int argc, char **argv);

#endif
