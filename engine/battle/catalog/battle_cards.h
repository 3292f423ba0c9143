/* SPDX-License-Identifier: MIT */
/* Battle cards: the names of card types and skills (from the skill table of
 * battle_skills.h), and one card definition {"name", "type", "attack", "health", "delay",
 * "skills"} decoded from JSON with every rule of its skills' options, or encoded back.
 * Both the job codec (inline cards) and the catalog (named cards) use it; it knows neither. */
#ifndef BATTLE_CARDS_H
#define BATTLE_CARDS_H

#include <jansson.h>

#include "battle_spec.h"
#include "sk_err.h"
#include "sk_verr.h"

struct sk_jdec;

/** Returns the faction 1..6 named `name` ("imperial" .. "progenitor"), or -1. */
int battle_cards_faction_parse(const char *name);
/** Returns the trigger 1..3 named `name` ("play", "attacked", "death"), or -1. */
int battle_cards_trigger_parse(const char *name);
/** Returns "commander", "fortress", "assault" or "structure", or "unknown" (static). */
const char *battle_cards_type_name(enum battle_card_type type);
/** Returns the card type named `name`, or -1. `name` is borrowed. */
int battle_cards_type_parse(const char *name);
/** "an assault", "a commander", ...: messages read better with the article (static). */
const char *battle_cards_a_type(enum battle_card_type type);

/**
 * Decodes one skill object {"name", "x", "all", "y", "n", "c", "s", "s2", "trigger"} (borrowed)
 * within decode `d`, as a skill of a card of `type` (-1: any type), reporting every problem at its
 * pointer. Returns 1 and fills *out when valid, else 0.
 */
int battle_cards_decode_skill(struct sk_jdec *d, const json_t *v, int type,
                              struct battle_skill_spec *out);

/**
 * Decodes one card definition (borrowed) within decode `d`, reporting every problem at
 * its pointer. Returns 1 and fills *out when the card is valid, else 0 (*out untouched).
 */
int battle_cards_decode_one(struct sk_jdec *d, const json_t *v, struct battle_card_spec *out);

/**
 * Decodes one card definition (the shape of inline cards and of catalog entries),
 * borrowed. Every problem is added to `errs` with a pointer below the current position of
 * `ptr` (restored on return). On SK_OK *out holds the card; on SK_EINVAL *out is
 * untouched. Allocates nothing.
 */
enum sk_err battle_cards_decode(const json_t *v, struct sk_jptr *ptr, struct sk_verr_list *errs,
                                struct battle_card_spec *out);

/**
 * Returns a new JSON object describing `card` (borrowed) in the shape battle_cards_decode
 * reads, or NULL on allocation failure. Caller decrefs.
 */
json_t *battle_cards_to_json(const struct battle_card_spec *card);

#endif
