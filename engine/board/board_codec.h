/* SPDX-License-Identifier: MIT */
/* The board job document <-> engine structs: decodes "params" (state, inline spells,
 * orders, casts, turns) with every problem reported under a JSON pointer, and encodes a
 * state back in the same schema plus the event log. docs/board-jobs.md is the schema. */
#ifndef BOARD_CODEC_H
#define BOARD_CODEC_H

#include <jansson.h>

#include "board_model.h"
#include "board_spells.h"
#include "board_turn.h"
#include "sk_err.h"
#include "sk_verr.h"

/* A decoded board job input. Owns everything; st->defs points into defs. */
struct board_input {
    struct board_state *st;
    struct board_spell_def *defs; /* catalog first, then inline */
    int ndefs, ncatalog;
    struct board_order *orders;
    int norders;
    struct board_cast *casts;
    int ncasts;
    int turns;
};

/**
 * Decodes board job params (borrowed) with full validation. Errors go to `errs` under the
 * current position of `ptr` (restored). On SK_OK *out is a new input (board_codec_free).
 * SK_EINVAL when the document is invalid, SK_ENOMEM, or SK_EINTERNAL/SK_EIO when the
 * spell catalog cannot be loaded (also reported in `errs` at the pointer).
 */
enum sk_err board_codec_decode(const json_t *params, struct sk_jptr *ptr, struct sk_verr_list *errs,
                               struct board_input **out);
/** Frees an input; NULL-safe. */
void board_codec_free(struct board_input *in);

/** The state in the params "state" schema (new reference), or NULL on ENOMEM. */
json_t *board_codec_encode_state(const struct board_state *st);
/** The inline spell definitions of `in` (new reference), or NULL on ENOMEM. */
json_t *board_codec_encode_inline(const struct board_input *in);
/** The event log as a JSON array (new reference), or NULL on ENOMEM. */
json_t *board_codec_encode_events(const struct board_state *st);

#endif
