/* SPDX-License-Identifier: MIT */
/* The catalog routes for deckbuilders: GET /v1/cards (battle cards), GET /v1/decks (named
 * decks), GET /v1/missions (the game's missions and raids) and GET /v1/spells (board
 * spells), each the engine's catalog filtered by query parameters, answered as
 * {"items": [...], "count": n}. An unknown parameter or a value outside its set is a 400
 * problem naming the parameter. The catalogs come from the context (api_catalog_fn). */
#ifndef API_CATALOG_H
#define API_CATALOG_H

#include "api_ctx.h"
#include "api_http.h"

/** GET /v1/cards?type=&skill=&name=: 200 or 400; 500 when the catalog does not load. */
void api_catalog_cards(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp);

/** GET /v1/spells?target=&duration=&event=&action=&name=: 200 or 400; 500 as above. */
void api_catalog_spells(const struct api_ctx *ctx, const struct api_request *req,
                        struct api_response *resp);

/** GET /v1/decks?name=: the named decks of the game's folder (customdecks.txt; an empty list
 * without one), each with what it stands for, in pages as /v1/cards. */
void api_catalog_decks(const struct api_ctx *ctx, const struct api_request *req,
                       struct api_response *resp);

/** GET /v1/missions?kind=&playable=&name=: the game's missions and raids (an empty list
 * unless the catalog is the game's folder); 200 or 400; 500 as above. */
void api_catalog_missions(const struct api_ctx *ctx, const struct api_request *req,
                          struct api_response *resp);

#endif
