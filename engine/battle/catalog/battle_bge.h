/* SPDX-License-Identifier: MIT */
/* Named battleground effects: the game folder's bges.txt, where each line names an effect
 * as the peer reads it ("Inspired: Rally all 25", "Divine Blessing: Heal all 15; Rally all
 * 15; Strike all 15"; an effect may name another), and the expansion of such a text into
 * the skills a side's commander casts (docs/rules/battle.md, "Battleground effects"). It
 * knows nothing of jobs; the codec resolves a job's {"name"} effects with it. */
#ifndef BATTLE_BGE_H
#define BATTLE_BGE_H

#include <stddef.h>
#include <stdint.h>

#include "battle_spec.h"
#include "sk_err.h"
#include "sk_verr.h"

#define BATTLE_BGE_FILE     "bges.txt"
#define BATTLE_BGE_MAX      1024 /* named effects kept from the file */
#define BATTLE_BGE_TEXT_MAX 256  /* bytes of one effect's text, excluding the NUL */

struct battle_bge {
    char name[BATTLE_NAME_MAX + 1];
    char text[BATTLE_BGE_TEXT_MAX + 1];
};

/* The named effects of a folder, in file order (owned). */
struct battle_bges {
    struct battle_bge *items;
    size_t n;
};

/**
 * Reads `dir`/bges.txt into *out (release with battle_bge_release) and adds its name and
 * content to *hash. A missing file gives no effects and SK_OK; lines it cannot take (no
 * colon, a name or text too long, past BATTLE_BGE_MAX) are skipped with a note in `notes`
 * ("bges.txt:LINE"). Blank lines and "//" comments are skipped. Other failures: an error
 * in `err`.
 */
enum sk_err battle_bge_load(const char *dir, struct battle_bges *out, uint64_t *hash,
                            struct sk_verr_list *notes, char *err, size_t errlen);

/** Frees what battle_bge_load filled and zeroes `b`; NULL-safe. */
void battle_bge_release(struct battle_bges *b);

/** The effect named `name` (borrowed), compared as the peer does (battle_tu_simplify);
 * NULL when none. */
const struct battle_bge *battle_bge_find(const struct battle_bges *b, const char *name);

/**
 * Expands effect text `text` (borrowed) as the peer does: parts split at ';' or '|', each
 * a named effect of `b` (resolved in turn, at most 8 deep), "Skill[+Skill] [all | N]
 * [faction] [X]" or a passive battleground effect "Name [X]". Writes the skills to
 * out[*n ..] (at most `max` in all) and each passive effect's value (1 when the text gives
 * none; a later one replaces an earlier, as in the peer) to passive[its enum
 * battle_passive], and returns 1; 0 with the reason in `why` when a part is a passive
 * effect the engine does not simulate yet, a skill the engine does not cast as an effect
 * (or does not simulate yet), a skill argument (Enhance, Evolve), a bad number, or more
 * than `max` skills.
 */
int battle_bge_expand(const struct battle_bges *b, const char *text, struct battle_skill_spec *out,
                      int max, int *n, int *passive, char *why, size_t whylen);

/** The passive battleground effect (enum battle_passive) that `name` (borrowed) names,
 * compared as the peer does (case, spaces, punctuation and hyphens ignored); -1: none. */
int battle_bge_passive_parse(const char *name);

/** Passive effect k's name (lower case, static), "?" when out of range. */
const char *battle_bge_passive_name(int k);

/** Why passive effect k is not simulated (static), "" when it is. */
const char *battle_bge_passive_needs(int k);

#endif
