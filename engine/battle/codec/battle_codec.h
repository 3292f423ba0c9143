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

/* Most decks in a weighted defender list. */
#define BATTLE_DEFENDERS_MAX 16

/* A battle job whose defender is one deck (n = 1, weight 1) or a weighted list of decks:
 * one full spec per defender deck, the attacker and the other params the same in each. */
struct battle_mix {
    int n;
    struct battle_spec specs[BATTLE_DEFENDERS_MAX];
    double weights[BATTLE_DEFENDERS_MAX]; /* as given; > 0 */
    int weighted;                         /* "defender" was a list (the result says per deck) */
};

/**
 * Decodes the "params" object of a battle job as battle_codec_decode does, where
 * "defender" may also be a list of 1..16 {"deck": side, "weight": number > 0}. Problems of a
 * listed deck are reported under "/params/defender/<i>/deck"; the others once. A list
 * cannot be combined with "state". On SK_OK *out is filled (release with
 * battle_codec_mix_release); SK_EINVAL or SK_ENOMEM otherwise (*out then holds nothing).
 */
enum sk_err battle_codec_decode_mix(const json_t *params, uint64_t seed,
                                    const struct battle_catalog *catalog, struct sk_jptr *ptr,
                                    struct sk_verr_list *errs, struct battle_mix *out);

/**
 * Builds and drops the plan of each deck of `mix`, so that what only the plan sees (the
 * variants Enhance and Evolve make of the cards overflowing the engine's card table, an
 * Enhance past the values a card holds) is the client's 422 when the job is submitted
 * rather than a job that fails in a worker. The plan names no field: a single defender's
 * problem is reported at "/params", a listed deck's at "/params/defender/<k>/deck".
 * Returns SK_OK, SK_EINVAL with the problems added to `errs`, or SK_ENOMEM.
 */
enum sk_err battle_codec_check_plans(const struct battle_mix *mix, struct sk_verr_list *errs);

/** Frees what battle_codec_decode_mix filled; NULL-safe. */
void battle_codec_mix_release(struct battle_mix *mix);

/** The name of scoring `s` (enum battle_scoring) as job documents write it ("win",
 * "brawl-defense", ...); "?" out of range. */
const char *battle_codec_scoring_name(int s);

/** Frees what battle_codec_decode allocated in `spec` and zeroes it; NULL-safe. */
void battle_codec_spec_release(struct battle_spec *spec);

#endif
