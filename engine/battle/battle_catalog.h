/* SPDX-License-Identifier: MIT */
/* The battle card catalog: the project's named cards (data/cards.json, compiled into the
 * binaries), validated with the same rules as inline cards, looked up by name when a job
 * refers to a card it does not define. It does not decode jobs (battle_codec does). */
#ifndef BATTLE_CATALOG_H
#define BATTLE_CATALOG_H

#include <jansson.h>
#include <stddef.h>

#include "battle_spec.h"
#include "sk_err.h"
#include "sk_verr.h"

/* Environment variable naming a cards file that replaces the built-in catalog. */
#define BATTLE_CATALOG_ENV "SKIRMISH_CARDS_FILE"
/* Most cards in one catalog; a bigger file is rejected rather than slowing every lookup. */
#define BATTLE_CATALOG_MAX 4096

struct battle_catalog;

/**
 * Parses and validates a catalog: a JSON array of card definitions (see
 * battle_codec_decode_card) with unique names. `text` (borrowed, `len` bytes, need not be
 * NUL-terminated). On SK_OK *out is a new catalog (caller frees with battle_catalog_free).
 * On SK_EINVAL `errs` holds every problem, with pointers from the array root ("/3/health");
 * a JSON syntax error is reported at "" with its line and column. SK_ENOMEM otherwise.
 */
enum sk_err battle_catalog_new(const char *text, size_t len, struct battle_catalog **out,
                               struct sk_verr_list *errs);

/** Frees a catalog; NULL-safe. */
void battle_catalog_free(struct battle_catalog *cat);

/**
 * Loads a fresh catalog from the file named by $SKIRMISH_CARDS_FILE when set (and not
 * empty), otherwise from the copy of data/cards.json built into the binary. On SK_OK *out
 * is a new catalog (caller frees with battle_catalog_free). On failure `err` says why
 * (unreadable file, first validation error with its pointer): SK_EIO when the file cannot
 * be read, SK_EINVAL when it is not a valid catalog, SK_ENOMEM.
 */
enum sk_err battle_catalog_load(struct battle_catalog **out, char *err, size_t errlen);

/**
 * The process-wide catalog, as battle_catalog_load finds it: loaded on the first successful call
 * and kept until exit; thread-safe. On SK_OK *out is a borrowed pointer valid for the life of the
 * process. On failure `err` (may be NULL) says why and a later call tries again (errors
 * as battle_catalog_load).
 */
enum sk_err battle_catalog_shared(const struct battle_catalog **out, char *err, size_t errlen);

/** Number of cards in `cat`. */
size_t battle_catalog_count(const struct battle_catalog *cat);

/** The i-th card in name order (borrowed, valid while `cat` lives); NULL when out of range. */
const struct battle_card_spec *battle_catalog_at(const struct battle_catalog *cat, size_t i);

/** The card named exactly `name` (borrowed, valid while `cat` lives), or NULL. */
const struct battle_card_spec *battle_catalog_find(const struct battle_catalog *cat,
                                                   const char *name);

/**
 * Returns a new JSON array of every card in name order, each in the shape of an inline
 * card definition (what GET /v1/cards serves), or NULL on allocation failure. Caller
 * decrefs.
 */
json_t *battle_catalog_to_json(const struct battle_catalog *cat);

#endif
