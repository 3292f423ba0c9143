/* SPDX-License-Identifier: MIT */
/* The battle card catalog: the named cards a job may refer to. Either the project's own
 * (data/cards.json, compiled into the binaries, or a JSON file of that shape), validated
 * with the same rules as inline cards, or the game's (a folder of its files, imported by
 * battle_tu: about 54,000 cards, one per unit and level). Looked up by exact name, by name
 * as players write it (case, spaces and punctuation aside, "Name-N" for a level) and by
 * the game's card id. It does not decode jobs (battle_codec does). */
#ifndef BATTLE_CATALOG_H
#define BATTLE_CATALOG_H

#include <jansson.h>
#include <stddef.h>

#include "battle_missions.h"
#include "battle_named.h"
#include "battle_spec.h"
#include "battle_tu.h"
#include "sk_err.h"
#include "sk_verr.h"

/* Environment variable naming a cards file that replaces the built-in catalog. */
#define BATTLE_CATALOG_ENV "SKIRMISH_CARDS_FILE"
/* Most cards in one JSON catalog; a bigger file is rejected rather than slowing every
 * lookup (the game's folder is not limited: its lookups are indexed). */
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

/**
 * Makes a catalog of the game's cards from `data` (its arrays are taken over and `data` is
 * zeroed, also on failure). `source` (borrowed) names it in results. On SK_OK *out is a
 * new catalog (caller frees with battle_catalog_free); SK_ENOMEM otherwise.
 */
enum sk_err battle_catalog_from_tu(struct battle_tu_data *data, const char *source,
                                   struct battle_catalog **out);

/** Frees a catalog; NULL-safe. */
void battle_catalog_free(struct battle_catalog *cat);

/**
 * Loads a fresh catalog from the game's files in the folder named by $SKIRMISH_CARDS_DIR,
 * or from the JSON file named by $SKIRMISH_CARDS_FILE, otherwise from the copy of
 * data/cards.json built into the binary (setting both variables is an error). The
 * importer's notes are logged as warnings, one line each with its file and line. On SK_OK
 * *out is a new catalog (caller frees with battle_catalog_free). On failure `err` says why
 * (unreadable file, first validation error with its pointer, XML error with its line):
 * SK_EIO when a file cannot be read, SK_EINVAL when it is not a valid catalog, SK_ENOMEM.
 */
enum sk_err battle_catalog_load(struct battle_catalog **out, char *err, size_t errlen);

/**
 * Loads a fresh catalog from the game's files in `dir` (borrowed): the folder itself, or
 * the current catalog when `dir` is a catalog store (battle_store.h). Notes and errors as
 * battle_catalog_load; the catalog's source is the folder its files were read from.
 */
enum sk_err battle_catalog_load_dir(const char *dir, struct battle_catalog **out, char *err,
                                    size_t errlen);

/* ===== The process's catalogs =====
 * A job is pinned to the catalog it was submitted with (its hash, the job document's
 * "catalog"): the process's current one, or one it loads again from the built-in cards or
 * the catalog store (battle_store.h). Catalogs handed out are reference-counted: a caller
 * holds one until battle_catalog_put. docs/cards.md, "Catalogs pinned per job". */

/* How many catalogs besides the current one a process keeps loaded (1..64, default 4);
 * one that a job still holds is kept past the limit until the job lets go. */
#define BATTLE_CATALOG_ENV_KEEP "SKIRMISH_CATALOGS_KEEP"

/**
 * The catalog new jobs are pinned to, as battle_catalog_load finds it: loaded on the first
 * call and kept until a refresh replaces it; thread-safe. On SK_OK *out is a new reference
 * (release with battle_catalog_put). On failure `err` (may be NULL) says why and a later
 * call tries again (errors as battle_catalog_load).
 */
enum sk_err battle_catalog_current(const struct battle_catalog **out, char *err, size_t errlen);

/**
 * The catalog whose hash is `hash` (NULL = the current one): the current, one kept loaded,
 * the built-in cards, or one of the catalog store of $SKIRMISH_CARDS_DIR (loaded now). On
 * SK_OK *out is a new reference (release with battle_catalog_put). SK_ENOTFOUND when this
 * process has no catalog with that hash; other errors as battle_catalog_load. `err` may be
 * NULL.
 */
enum sk_err battle_catalog_get(const char *hash, const struct battle_catalog **out, char *err,
                               size_t errlen);

/**
 * For a kind's decode: battle_catalog_get with the errors a decode reports. SK_ENOTFOUND
 * (no such catalog here: the worker leaves the job to one that has it), SK_ENOMEM, or
 * SK_EINTERNAL when the process's own catalog does not load (the deployment's fault, not
 * the client's: engine_new loads it first, so processes fail early); logged.
 */
enum sk_err battle_catalog_for_job(const char *hash, const struct battle_catalog **out);

/** Releases a reference from battle_catalog_current or _get; NULL-safe. */
void battle_catalog_put(const struct battle_catalog *cat);

/**
 * Makes the catalog the settings name now the current one, when it changed: a catalog
 * store whose `current` names another folder, or with `force` any source read again
 * (SIGHUP). Jobs holding the former current keep it (it stays among the kept). Returns 1
 * when the current changed, 0 when not, -1 with `err` filled when the new one does not
 * load (the current stays).
 */
int battle_catalog_refresh(int force, char *err, size_t errlen);

/**
 * The hashes of the catalogs this process can run jobs on, the current first (then those
 * kept, the built-in cards, the store's): a new JSON array, or NULL on allocation failure.
 */
json_t *battle_catalog_hashes(void);

/** Number of cards in `cat`. */
size_t battle_catalog_count(const struct battle_catalog *cat);

/** The i-th card in name order (borrowed, valid while `cat` lives); NULL when out of range. */
const struct battle_card_spec *battle_catalog_at(const struct battle_catalog *cat, size_t i);

/** The most a card id written "[12345]" may be (the game's ids stay far below it). */
#define BATTLE_CATALOG_ID_MAX 99999999

/**
 * 1 when `name` is written as a card id, "[...]" (deck strings and every card name take
 * "[12345]"), with *id the id (1..BATTLE_CATALOG_ID_MAX) or 0 when the brackets hold no such
 * number; 0 (and *id 0) for any other name. The one reading of that syntax.
 */
int battle_catalog_id_ref(const char *name, int *id);

/** The card named exactly `name` (borrowed, valid while `cat` lives), or NULL. */
const struct battle_card_spec *battle_catalog_find(const struct battle_catalog *cat,
                                                   const char *name);

/**
 * The card `name` means as players write it (borrowed), or NULL: the exact name first, then
 * the name without case, spaces and the punctuation ;:,"'! (as the peer compares), then
 * "Name-N" for the top level N of a card whose top level is plain "Name"; "[12345]" is the
 * card with that id.
 */
const struct battle_card_spec *battle_catalog_find_loose(const struct battle_catalog *cat,
                                                         const char *name);

/** The game's card `id` (borrowed), or NULL (also for the project's cards, which have none). */
const struct battle_card_spec *battle_catalog_find_id(const struct battle_catalog *cat, int id);

/** The fusion recipe of the game's card `id` (fusion_recipes_cj2.xml; borrowed, valid while
 * `cat` lives), or NULL when the card has none (and always for the project's cards). */
const struct battle_tu_recipe *battle_catalog_recipe(const struct battle_catalog *cat, int id);

/** 1 when `cat` holds what upgrade costs are computed from (the deck optimiser's `fund`):
 * the game's cards, with their levels, and its fusion recipes file; 0 for the project's own
 * catalogs and a game folder read without fusion_recipes_cj2.xml. */
int battle_catalog_has_costs(const struct battle_catalog *cat);

/**
 * Writes into `out` (at most `outlen` bytes) the catalog name closest to `name` when one is
 * close enough to be a likely typo, else "". For "did you mean" in messages. A level the
 * game's files name otherwise ("Shard Controller-8", or a plain "Shard Controller" for its top
 * level) gives that level's name ("Gilian Shardkeeper-8", "Gilian Shardkeeper").
 */
void battle_catalog_suggest(const struct battle_catalog *cat, const char *name, char *out,
                            size_t outlen);

/** What the catalog was loaded from: "built-in", a file or a folder (borrowed string). */
const char *battle_catalog_source(const struct battle_catalog *cat);

/** The catalog's content hash, "fnv1a64:<16 hex digits>" of the bytes read (borrowed). */
const char *battle_catalog_hash(const struct battle_catalog *cat);

/**
 * Returns a new JSON array of every card in name order, each in the shape of an inline
 * card definition plus, for the game's cards, its id, level, faction, rarity, set, its
 * unit's "levels" ([{"level", "id", "name"}]) and "fusion" recipe ([{"id", "name",
 * "count"}]), or NULL on allocation failure. What GET /v1/cards serves. Caller decrefs.
 */
json_t *battle_catalog_to_json(const struct battle_catalog *cat);

/**
 * Returns a new JSON object for card i (name order) as battle_catalog_to_json lists it, or
 * NULL when i is out of range or on allocation failure. Caller decrefs.
 */
json_t *battle_catalog_card_json(const struct battle_catalog *cat, size_t i);

/** The named decks (customdecks.txt) and card abbreviations (cardabbrs.txt) of the game's
 * folder (none for other catalogs; abbreviations that are a card's name dropped, as the
 * peer does): borrowed, valid while `cat` is. battle_catalog_find_loose reads the
 * abbreviations; the codec, the named decks. */
const struct battle_named *battle_catalog_named(const struct battle_catalog *cat);

/* ===== The game's missions and raids (battle_missions) ===== */

struct battle_bges;

/** The named battleground effects of the game's folder (its bges.txt; none for other
 * catalogs): borrowed, valid while `cat` is. */
const struct battle_bges *battle_catalog_bges(const struct battle_catalog *cat);

/* A catalog of the game's folder reads missions.xml and raids.xml when it loads (their bytes
 * are in its hash) and parses them the first time one of the functions below is called on
 * it (tens of milliseconds, once; thread-safe), as most jobs name no mission or raid. Their
 * notes are logged then. When the parse fails (XML libxml2 cannot recover), the catalog
 * has none and battle_catalog_enemies_load says why. */

/**
 * Parses the missions and raids of `cat` if that is still to do. SK_OK when they are
 * there (also for a catalog that has none); else the functions below find none: SK_EINVAL
 * with `err` naming the file (XML libxml2 cannot recover), SK_ENOMEM (tried again on the
 * next call).
 */
enum sk_err battle_catalog_enemies_load(const struct battle_catalog *cat, char *err, size_t errlen);

/**
 * Gives `cat` the missions and raids of `data` (its array is taken over and `data` is
 * zeroed, also on failure), replacing any it had or had still to parse. Not thread-safe:
 * for a catalog not yet handed out. SK_OK or SK_ENOMEM.
 */
enum sk_err battle_catalog_set_enemies(struct battle_catalog *cat,
                                       struct battle_missions_data *data);

/** Number of missions and raids in `cat` (0 unless loaded from the game's folder). */
size_t battle_catalog_enemy_count(const struct battle_catalog *cat);

/** The i-th mission or raid, missions first, each kind by id (borrowed); NULL past the end. */
const struct battle_enemy *battle_catalog_enemy_at(const struct battle_catalog *cat, size_t i);

/** The `kind` record with game id `id` (borrowed), or NULL. */
const struct battle_enemy *battle_catalog_find_enemy_id(const struct battle_catalog *cat,
                                                        enum battle_enemy_kind kind, int id);

/**
 * The `kind` record `name` means as players write it (borrowed), or NULL: case, spaces and
 * ;:,"'! aside, as the peer compares; of two records of one name, the later in the file
 * (the peer's rule: the other is still reachable by id). When no record has the whole name
 * and it ends in "-N", the record named by the rest, with *level = N (else *level = 0):
 * the peer's "Name-N" for level N.
 */
const struct battle_enemy *battle_catalog_find_enemy(const struct battle_catalog *cat,
                                                     enum battle_enemy_kind kind, const char *name,
                                                     int *level);

/** Writes into `out` the `kind` name closest to `name` when one looks like a typo of it,
 * else "". */
void battle_catalog_suggest_enemy(const struct battle_catalog *cat, enum battle_enemy_kind kind,
                                  const char *name, char *out, size_t outlen);

/**
 * Returns a new JSON object for record `e` (borrowed): kind, id, name, commander, levels,
 * cards, fortresses (id and name each), card_pools, fortress_pools, effects, "playable"
 * (at its top level) with "why" when a job cannot use it, and "playable_levels" (those of 1
 * and the top a job can use); NULL on allocation failure. What GET /v1/missions
 * lists. Caller decrefs.
 */
json_t *battle_catalog_enemy_json(const struct battle_catalog *cat, const struct battle_enemy *e);

/**
 * Why a job cannot play record `e` at `level` (1..e->levels) as the game does: writes it
 * into `why` and returns 1 (a card the catalog lacks or the engine does not play, at any
 * level a level-up can bring it to; more cards, fortresses, pools or level-ups than a side
 * holds; a battleground effect the engine cannot cast); 0 when it can.
 */
int battle_catalog_enemy_unsupported(const struct battle_catalog *cat, const struct battle_enemy *e,
                                     int level, char *why, size_t whylen);

/**
 * The cards record `e` plays at `level` (1 = as listed, e->levels = every card at its top
 * level and the commander at <commander_max_level> or its top, as the peer upgrades them):
 * the commander into *commander and at most `max` further cards into `cards` (fortresses
 * first, *n_forts of them, then the deck in file order), *n set to how many. Borrowed
 * pointers. Returns 0 when a card is missing (battle_catalog_enemy_unsupported says which).
 */
int battle_catalog_enemy_cards(const struct battle_catalog *cat, const struct battle_enemy *e,
                               int level, const struct battle_card_spec **commander,
                               const struct battle_card_spec **cards, int max, int *n,
                               int *n_forts);

/** Card `id` as record `e` plays it at `level` (its top level at the record's top level,
 * else as listed; borrowed), or NULL when the catalog lacks it. */
const struct battle_card_spec *battle_catalog_enemy_card(const struct battle_catalog *cat,
                                                         const struct battle_enemy *e, int level,
                                                         int id);

/**
 * The level-ups record `e` gives its cards each game at `level`, as the peer (xml.cpp
 * read_deck): its upgrade opportunities (the commander's up to <commander_max_level>, each
 * fortress's and deck card's up to its top, a pool's cards' times its entries over its
 * size, rounded down) times (level - 1) / (levels - 1), rounded up; 0 at level 1 and at the
 * top (where every card is at its top level already).
 */
int battle_catalog_enemy_upgrades(const struct battle_catalog *cat, const struct battle_enemy *e,
                                  int level);

/**
 * Battleground effect `f` of a record played at `level`, as a skill into *out: X is
 * ceil(f->x * level), as the peer computes it. Returns 0 with `why` when the engine cannot
 * cast it as an effect (not an activation skill, a cooldown, X above BATTLE_SKILL_X_MAX,
 * skill arguments battle_tu_skill_args refuses).
 */
int battle_catalog_enemy_effect(const struct battle_enemy_effect *f, int level,
                                struct battle_skill_spec *out, char *why, size_t whylen);

#endif
