/* SPDX-License-Identifier: MIT */
/* Tyrant Unleashed, the game whose cards Skirmish reads: its vocabulary (the skills as
 * players and the peer simulator name them, factions, rarities, triggers) and the importer
 * of its own data files (cards_section_*.xml, fusion_recipes_cj2.xml, skills_set.xml,
 * levels.xml) through libxml2. The importer only turns files into card specs and reports;
 * the catalog (battle_catalog) indexes them and the codec decides what a job may use.
 * docs/cards.md is the user-facing description. */
#ifndef BATTLE_TU_H
#define BATTLE_TU_H

#include <stddef.h>
#include <stdint.h>

#include "battle.h"
#include "battle_spec.h"
#include "sk_err.h"
#include "sk_verr.h"

/* Environment variable naming a folder of the game's files (replaces the built-in cards). */
#define BATTLE_TU_ENV_DIR "SKIRMISH_CARDS_DIR"

/* Most card files (cards_section_1.xml ... cards_section_N.xml) read from one folder; public
 * in battle.h, as `skirmish cards update` fetches as many. */
#define BATTLE_TU_SECTIONS_MAX BATTLE_FOLDER_SECTIONS_MAX

/* Game skills: index 0..BATTLE_TU_SKILL__COUNT-1, in the peer's order, as
 * BATTLE_SKILL_GAME_TABLE (battle_skills.h) lists them. The enum is there for the count, and
 * so that a skill listed twice fails to compile (its BATTLE_TU_SKILL_<ID> twice). */
#define BATTLE_TU_SKILL_ENUM_(ID, FILE) BATTLE_TU_SKILL_##ID,
enum battle_tu_skill { BATTLE_SKILL_GAME_TABLE(BATTLE_TU_SKILL_ENUM_) BATTLE_TU_SKILL__COUNT };
#undef BATTLE_TU_SKILL_ENUM_

/** The skill's name as players write it ("mortar"), or "unknown" (static string). */
const char *battle_tu_skill_name(int skill);
/** The game skill written `name` in a card file ("besiege", "armored") or by players
 * ("mortar", "armor"); -1 when the game has no such skill. `name` is borrowed. */
int battle_tu_skill_parse(const char *name);
/** The engine skill that simulates game skill `skill`, or BATTLE_SKILL__COUNT when `skill` is
 * out of range (every game skill is a row of the table). */
enum battle_skill battle_tu_skill_engine(int skill);
/** The game skill an engine skill is, or -1 for a row the game does not have (none today). */
int battle_tu_skill_of_engine(enum battle_skill skill);

/** Returns NULL when skill `id` may take the skill arguments `s` and `s2` (each 1 + the
 * game's skill, battle_tu_skill_name; 0 for none): Enhance needs s, Evolve s and s2 (the
 * combinations the engine plays), the others none; else why not, a phrase that follows the
 * skill's name (static). The one place these rules live: the job codec, the game's cards
 * (battle_tu_unsupported) and the battleground effects read them. */
const char *battle_tu_skill_args(enum battle_skill id, int s, int s2);
/** "imperial", "raider", "bloodthirsty", "xeno", "righteous", "progenitor" for factions
 * 1..6; "none" for 0 (static). */
const char *battle_tu_faction_name(int faction);
/** "common", "rare", "epic", "legendary", "vindicator", "mythic" for rarities 1..6; "none"
 * for 0 (static). */
const char *battle_tu_rarity_name(int rarity);
/** "activate", "play", "attacked", "death" for triggers 0..3 (static). */
const char *battle_tu_trigger_name(int trigger);

/* A fusion recipe: card `card_id` is made of `n` kinds of resources. */
#define BATTLE_TU_RECIPE_MAX 4
struct battle_tu_recipe {
    int card_id;
    int n;
    int res_id[BATTLE_TU_RECIPE_MAX];
    int res_count[BATTLE_TU_RECIPE_MAX];
};

/* What a folder of the game's files holds. */
struct battle_tu_data {
    struct battle_card_spec *cards; /* owned (sk_malloc): every unit at every level */
    size_t n_cards;
    struct battle_tu_recipe *recipes; /* owned; sorted by card_id */
    size_t n_recipes;
    int has_recipes; /* 1: fusion_recipes_cj2.xml was read (it may hold none) */
    uint64_t hash;   /* FNV-1a 64 of every file read, in the order read */
    int n_sections;
};

/**
 * Reads the game's files in folder `dir` (borrowed). cards_section_1.xml and the sections
 * after it up to the first missing number are required; skills_set.xml (card sets shown to
 * players, the skill names the game defines), fusion_recipes_cj2.xml and levels.xml are
 * read when present. Problems that do not stop the import (an unknown skill or attribute, a
 * malformed record, a levels.xml that is not the game's) are added to `notes` at
 * "FILE:LINE" with what was done about them; nothing is dropped without a note. On SK_OK
 * *out is filled (release with battle_tu_data_release). SK_EIO (a folder or file that
 * cannot be read) and SK_EINVAL (a file that is not well-formed XML, no card at all) come
 * with `err` saying which file and line; SK_ENOMEM.
 */
enum sk_err battle_tu_load(const char *dir, struct battle_tu_data *out, struct sk_verr_list *notes,
                           char *err, size_t errlen);

/**
 * Writes `name` lowercased, without the characters ; : , " ' ! and space, to `out` (at
 * most BATTLE_NAME_MAX bytes, then a NUL): the peer's simplify_name, how it compares the
 * names players write (cards, missions, battleground effects).
 */
void battle_tu_simplify(const char *name, char out[BATTLE_NAME_MAX + 1]);

/* FNV-1a 64: the content hash catalogs report (fast, and enough to tell two copies apart). */
#define BATTLE_TU_FNV_SEED 0xcbf29ce484222325ULL
/** Returns hash `h` (start with BATTLE_TU_FNV_SEED) extended by `n` bytes at `p`. */
uint64_t battle_tu_fnv1a(uint64_t h, const void *p, size_t n);

/* Largest game file read: a bound on what one bad file can take (the game's largest,
 * missions.xml, is about 1.4 MB). */
#define BATTLE_TU_FILE_MAX (64u << 20)

/**
 * Reads `dir`/`name` (a regular file of at most BATTLE_TU_FILE_MAX bytes) into a new
 * NUL-terminated buffer *out of *len bytes, owned by the caller (sk_free), and extends *hash
 * by the name and the content. Returns SK_OK; SK_EIO with *missing = 1 and `err` untouched
 * when the file does not exist; else an error with `err` filled.
 */
enum sk_err battle_tu_read(const char *dir, const char *name, uint64_t *hash, char **out,
                           size_t *len, int *missing, char *err, size_t errlen);

/** Frees what battle_tu_load filled and zeroes `data`; NULL-safe. */
void battle_tu_data_release(struct battle_tu_data *data);

/**
 * Why the engine cannot simulate `card` (borrowed) as the game plays it: writes "skill
 * 'mortar' is not simulated yet" (or an option, a trigger or a value beyond the engine's
 * limits) into `why` and returns 1; returns 0 when the engine simulates every part of it.
 */
int battle_tu_unsupported(const struct battle_card_spec *card, char *why, size_t whylen);

#endif
