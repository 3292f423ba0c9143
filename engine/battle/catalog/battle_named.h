/* SPDX-License-Identifier: MIT */
/* Players' names from the game's folder, as the peer simulator reads them: named decks
 * (customdecks.txt, "Name: deck string", a deck list "A:0.3;B:0.7" or a regular
 * expression "/^Bug\d+$/" over the named decks' names) and card abbreviations
 * (cardabbrs.txt, "CS: Corrosive Spore"). Files of "Name: text" lines; blank lines and
 * "//" comments skipped; names compared as battle_tu_simplify writes them. The catalog
 * owns them (battle_catalog) and the codec uses them (docs/cards.md, "Named decks and
 * abbreviations"). */
#ifndef BATTLE_NAMED_H
#define BATTLE_NAMED_H

#include <stddef.h>
#include <stdint.h>

#include "battle_spec.h"
#include "sk_err.h"
#include "sk_verr.h"

#define BATTLE_NAMED_DECKS_FILE "customdecks.txt"
#define BATTLE_NAMED_ABBRS_FILE "cardabbrs.txt"
/* Most named decks and abbreviations read from one file: the rest are noted and skipped. */
#define BATTLE_NAMED_MAX 100000
/* Longest text of a named deck (a deck string or a list). */
#define BATTLE_NAMED_TEXT_MAX 4096
/* How deep a named deck may name another (a list of lists...). */
#define BATTLE_NAMED_DEPTH_MAX 8

struct battle_named_entry {
    char name[BATTLE_NAME_MAX + 1]; /* as written */
    char key[BATTLE_NAME_MAX + 1];  /* battle_tu_simplify(name) */
    char *text;                     /* owned */
    int line;
};

/* One file's entries, sorted by key; of two with one key the later line wins (the peer
 * overrides), the other is dropped with a note. */
struct battle_named_list {
    struct battle_named_entry *items; /* owned */
    size_t n;
};

struct battle_named {
    struct battle_named_list decks;
    struct battle_named_list abbrs;
};

/** Copies [a, b) without the spaces around it into `out` (`outlen` bytes, NUL-terminated;
 * "" for spaces only). 0 when it does not fit. The "Name: text" files' trimming (also the
 * battleground effects', battle_bge). */
int battle_named_trim(const char *a, const char *b, char *out, size_t outlen);

/**
 * Reads `dir`/customdecks.txt and `dir`/cardabbrs.txt (each optional) into *out (release
 * with battle_named_release), adding each file's name and content to *hash. Lines it
 * cannot take (no "Name:", a name or text too long, past BATTLE_NAMED_MAX, a name twice)
 * are noted in `notes` ("customdecks.txt:LINE"). Other failures: an error in `err`.
 */
enum sk_err battle_named_load(const char *dir, struct battle_named *out, uint64_t *hash,
                              struct sk_verr_list *notes, char *err, size_t errlen);

/** Frees what battle_named_load filled and zeroes `n`; NULL-safe. */
void battle_named_release(struct battle_named *n);

/** The entry of `list` whose simplified name is `name`'s, or NULL (borrowed). */
const struct battle_named_entry *battle_named_find(const struct battle_named_list *list,
                                                   const char *name);

/** Drops the abbreviations whose name `is_card` says is a card's (the peer ignores them),
 * with a note each. */
void battle_named_drop_abbrs(struct battle_named *n, int (*is_card)(const void *arg, const char *),
                             const void *arg, struct sk_verr_list *notes);

/* One deck a named deck stands for, with its share of the games. */
struct battle_named_part {
    const char *text; /* a deck string: a named deck's (borrowed), else a copy owned by the
                       * parts (battle_named_parts_release) */
    const char *from; /* the named deck it came from (borrowed), or NULL */
    double weight;    /* shares sum to 1 */
};

/**
 * Expands `text` (a deck string, or the name of a named deck) into the decks it stands for:
 * itself (one part, weight 1) when it names no named deck; a named deck's deck string; or a
 * list's decks ("A:0.3;B:0.7", factors default 1, or "/regex/" matching named decks' names
 * with equal shares; lists may name lists), shares normalised to 1, at most `max` parts.
 * Returns the number of parts, or -1 with the reason in `why` (a list past `max` decks,
 * a cycle or more than BATTLE_NAMED_DEPTH_MAX levels, a bad factor or regular expression,
 * a list that matches nothing).
 */
int battle_named_expand(const struct battle_named *n, const char *text,
                        struct battle_named_part *out, int max, char *why, size_t whylen);

/** Frees the texts battle_named_expand copied into the `n` parts of `parts`. */
void battle_named_parts_release(struct battle_named_part *parts, int n);

#endif
