/* SPDX-License-Identifier: MIT */
/* Decks as players write them, in the peer simulator's syntax: a deck string
 * ("Commander, Card A#2, Card B-5, [1234], Card C(3)") split into entries, and the game's
 * deck hash code (each card id in base-64 digits, as the peer encodes it by default) both
 * ways. Only text: resolving names to cards and placing them on a side is battle_codec's.
 * docs/cards.md describes both forms. */
#ifndef BATTLE_DECK_H
#define BATTLE_DECK_H

#include <stddef.h>

#include "battle_spec.h"

/* Most entries in one deck string: a commander, a dominion, BATTLE_FORTRESS_MAX fortresses
 * and BATTLE_DECK_MAX cards written one by one (62) fit. */
#define BATTLE_DECK_ENTRIES_MAX 64
_Static_assert(2 + BATTLE_FORTRESS_MAX + BATTLE_DECK_MAX <= BATTLE_DECK_ENTRIES_MAX,
               "a whole deck fits in a deck string");
/* Most card ids in one hash (the same bound). */
#define BATTLE_DECK_IDS_MAX BATTLE_DECK_ENTRIES_MAX
/* Longest deck string or hash read (bytes). */
#define BATTLE_DECK_TEXT_MAX 4096

/* One entry of a deck string. */
struct battle_deck_entry {
    char name[BATTLE_NAME_MAX + 1]; /* trimmed; "" when the entry is an id "[1234]" */
    int id;                         /* the game's card id of "[1234]", else 0 */
    int count;                      /* from "#N" or "(N)", else 1 */
};

/**
 * 1 when `text` (borrowed) is a deck hash rather than a deck string: one word of the
 * base-64 alphabet (A-Z a-z 0-9 + /) without spaces, commas or colons.
 */
int battle_deck_is_hash(const char *text);

/**
 * Splits deck string `text` (borrowed) at ',' and ':' into out[0..*n). A leading '!' (the
 * peer's mark for a card an optimiser must keep) is read and ignored. Returns 1 on success;
 * else 0 with `why` saying what is wrong and where (entry number from 1).
 */
int battle_deck_split(const char *text, struct battle_deck_entry *out, int *n, char *why,
                      size_t whylen);

/**
 * Decodes hash `text` (borrowed) into card ids ids[0..*n), at most `max`. Returns 1 on
 * success; else 0 with `why` saying what is wrong and at which character (from 1).
 */
int battle_deck_hash_decode(const char *text, int *ids, int max, int *n, char *why, size_t whylen);

/**
 * Encodes ids[0..n) (each >= 0) as a hash into `out`. Returns 1, or 0 when `outlen` is too
 * small (out is then "").
 */
int battle_deck_hash_encode(const int *ids, int n, char *out, size_t outlen);

#endif
