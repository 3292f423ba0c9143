/* SPDX-License-Identifier: MIT */
/* The battle job codec: decodes the "params" of a battle job from JSON into struct
 * battle_spec, checking every field, limit and cross-reference and reporting every problem
 * with its JSON pointer; card definitions are battle_cards'. It does not play games or
 * read files. docs/jobs.md is the user-facing spec. */
#ifndef BATTLE_CODEC_H
#define BATTLE_CODEC_H

#include <jansson.h>
#include <stdint.h>

#include "battle_spec.h"
#include "sk_err.h"
#include "sk_verr.h"

struct battle_catalog;

/* Games run when "games" is absent. */
#define BATTLE_GAMES_DEF 10000ULL

/**
 * Decodes the "params" object of a battle job (borrowed). Card names resolve first to the
 * job's inline "cards", then to `catalog` (borrowed; NULL = inline cards only). `ptr`
 * points at "/params" on entry and is restored on return; every problem found is added to
 * `errs`. Returns SK_OK with *out filled (its `cards` array is new: release with
 * battle_codec_spec_release), SK_EINVAL when the document has problems (*out untouched),
 * or SK_ENOMEM.
 */
enum sk_err battle_codec_decode(const json_t *params, uint64_t seed,
                                const struct battle_catalog *catalog, struct sk_jptr *ptr,
                                struct sk_verr_list *errs, struct battle_spec *out);

/** Frees what battle_codec_decode allocated in `spec` and zeroes it; NULL-safe. */
void battle_codec_spec_release(struct battle_spec *spec);

#endif
