/* SPDX-License-Identifier: MIT */
/* The battle job codec: decodes the "params" of a battle job (and single card definitions,
 * shared with the catalog) from JSON into struct battle_spec, checking every field, limit
 * and cross-reference and reporting every problem with its JSON pointer; and encodes cards
 * back to JSON. It does not play games or read files. docs/jobs.md is the user-facing spec. */
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

/** Returns the lowercase name of `skill` ("armor"), or "unknown" (static string). */
const char *battle_codec_skill_name(enum battle_skill skill);
/** Returns the skill named `name`, or -1. `name` is borrowed. */
int battle_codec_skill_parse(const char *name);
/** Returns "commander", "fortress", "assault" or "structure", or "unknown" (static). */
const char *battle_codec_type_name(enum battle_card_type type);
/** Returns the card type named `name`, or -1. `name` is borrowed. */
int battle_codec_type_parse(const char *name);

/**
 * Decodes one card definition {"name", "type", "attack", "health", "delay", "skills"} (the
 * shape of inline cards and of catalog entries), borrowed. Every problem is added to `errs`
 * with a pointer below the current position of `ptr` (restored on return). On SK_OK *out
 * holds the card; on SK_EINVAL *out is untouched. Allocates nothing.
 */
enum sk_err battle_codec_decode_card(const json_t *v, struct sk_jptr *ptr,
                                     struct sk_verr_list *errs, struct battle_card_spec *out);

/**
 * Returns a new JSON object describing `card` (borrowed) in the shape
 * battle_codec_decode_card reads, or NULL on allocation failure. Caller decrefs.
 */
json_t *battle_codec_card_to_json(const struct battle_card_spec *card);

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
