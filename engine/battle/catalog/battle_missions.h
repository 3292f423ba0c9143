/* SPDX-License-Identifier: MIT */
/* The game's enemy decks: the missions (missions.xml) and raids (raids.xml) of a folder of
 * Tyrant Unleashed files, read through libxml2 into plain records; the bytes are read (and
 * hashed) apart from their parse, which a catalog puts off until a job needs them. It only
 * reads and reports: the catalog (battle_catalog) indexes the records by name and id, and
 * the codec (battle_codec) turns one into a side of a job or refuses it. docs/cards.md
 * ("Missions and raids") is the user-facing description. */
#ifndef BATTLE_MISSIONS_H
#define BATTLE_MISSIONS_H

#include <stddef.h>
#include <stdint.h>

#include "battle_spec.h"
#include "sk_err.h"
#include "sk_verr.h"

enum battle_enemy_kind { BATTLE_ENEMY_MISSION = 0, BATTLE_ENEMY_RAID = 1, BATTLE_ENEMY__COUNT };

/* Deck cards kept of one record, replicates expanded (the largest mission in the files has
 * 49; a job refuses any above BATTLE_DECK_MAX, so more need not be kept, only counted). */
#define BATTLE_ENEMY_CARDS_MAX 64
/* Fixed fortresses kept of one record (the files have at most 10; a job refuses any above
 * BATTLE_FORTRESS_MAX, so more need not be kept, only counted). */
#define BATTLE_ENEMY_FORTS_MAX BATTLE_FORTRESS_MAX
/* Battleground effects (<effects><skill id=...>) kept per record. */
#define BATTLE_ENEMY_EFFECTS_MAX     8
#define BATTLE_ENEMY_EFFECT_NAME_MAX 31
/* Pools (<card_pool>, <fortress_pool>) kept per record, and cards kept per pool (replicates
 * expanded; the game's raids have at most 2 pools of at most 13 cards). */
#define BATTLE_ENEMY_POOLS_MAX      4
#define BATTLE_ENEMY_POOL_CARDS_MAX 32
/* The level of a record without <levels>: the peer's default for missions. */
#define BATTLE_ENEMY_LEVELS_DEF 10
/* Most levels a record may declare (raids declare 26). */
#define BATTLE_ENEMY_LEVELS_MAX 99

/* A pool a record draws `amount` distinct entries of each game, `replicates` times over. */
struct battle_enemy_pool {
    int fort; /* 1: <fortress_pool>, 0: <card_pool> */
    int amount;
    int replicates;
    int n;     /* cards kept, replicates expanded */
    int total; /* the same, counting past BATTLE_ENEMY_POOL_CARDS_MAX */
    int cards[BATTLE_ENEMY_POOL_CARDS_MAX];
};

/* A battleground effect of a record: a skill whose X is `x` times the level played,
 * rounded up, as the peer reads it. The game's names (battle_tu_skill_parse). */
struct battle_enemy_effect {
    char skill[BATTLE_ENEMY_EFFECT_NAME_MAX + 1];
    double x; /* 0 .. 99 */
    int all, y, n, c;
    char s[BATTLE_ENEMY_EFFECT_NAME_MAX + 1], s2[BATTLE_ENEMY_EFFECT_NAME_MAX + 1];
};

/* One mission or raid as the files define it. Ids are the game's card ids. */
struct battle_enemy {
    enum battle_enemy_kind kind;
    int id;
    char name[BATTLE_NAME_MAX + 1];
    long line;         /* where the record starts in its file */
    int commander;     /* card id, the commander as listed (its level 1 version, mostly) */
    int commander_max; /* <commander_max_level>; 0 = the commander's top level */
    int levels;        /* <levels>, else BATTLE_ENEMY_LEVELS_DEF */
    int n_cards;       /* fixed deck cards (<deck><card> or <always_include>), expanded */
    int cards_total;   /* the same, counting past BATTLE_ENEMY_CARDS_MAX */
    int cards[BATTLE_ENEMY_CARDS_MAX];
    int n_forts; /* fixed fortresses (<fortress_card id=...>) */
    int forts_total;
    int forts[BATTLE_ENEMY_FORTS_MAX];
    int n_card_pools; /* <card_pool>: cards drawn at random per game */
    int n_fort_pools; /* <fortress_pool> */
    int n_pools;      /* both, in file order (at most BATTLE_ENEMY_POOLS_MAX kept) */
    struct battle_enemy_pool pools[BATTLE_ENEMY_POOLS_MAX];
    int n_effects; /* battleground effects (<effects><skill>) */
    struct battle_enemy_effect effects[BATTLE_ENEMY_EFFECTS_MAX];
};

/* What missions.xml and raids.xml hold. */
struct battle_missions_data {
    struct battle_enemy *items; /* owned (sk_malloc); in file order, missions first */
    size_t n;
    size_t n_missions, n_raids;
};

/** "mission" or "raid" (static); "unknown" otherwise. */
const char *battle_enemy_kind_name(int kind);

/* missions.xml and raids.xml as read from a folder, not yet parsed: what a catalog keeps
 * until a job first names a mission or a raid (battle_catalog.h, "missions and raids"). */
struct battle_missions_files {
    char *text[BATTLE_ENEMY__COUNT]; /* owned (sk_malloc), NUL-terminated, by kind; NULL: the
                                      * file is missing */
    size_t len[BATTLE_ENEMY__COUNT];
};

/**
 * Reads missions.xml and raids.xml in folder `dir` (borrowed), each when present (a missing
 * one is left NULL), and extends `*hash` by FNV-1a 64 with each file read (name, then
 * bytes), as battle_tu hashes the card files: the hash battle_missions_load gives. Nothing
 * is parsed. On SK_OK *out is filled (release with battle_missions_files_release). SK_EIO
 * (a file that cannot be read) and SK_EINVAL (not a regular file, too large) come with
 * `err` naming the file; SK_ENOMEM.
 */
enum sk_err battle_missions_read(const char *dir, struct battle_missions_files *out, uint64_t *hash,
                                 char *err, size_t errlen);

/**
 * Parses `files` (borrowed; read from folder `dir`, which errors name) into records.
 * Problems that do not stop the read (a missing file, XML that libxml2 must recover, a
 * record without an id, a name or a commander, a number that is not one, an unknown
 * element) are added to `notes` at "FILE:LINE" with what was done; a record that cannot be
 * played as written is left out with a note, never half-read. On SK_OK *out is filled
 * (release with battle_missions_release). SK_EINVAL (XML libxml2 cannot recover) comes with
 * `err` naming the file; SK_ENOMEM.
 */
enum sk_err battle_missions_parse(const char *dir, const struct battle_missions_files *files,
                                  struct battle_missions_data *out, struct sk_verr_list *notes,
                                  char *err, size_t errlen);

/** Frees what battle_missions_read filled and zeroes `files`; NULL-safe. */
void battle_missions_files_release(struct battle_missions_files *files);

/**
 * battle_missions_read, then battle_missions_parse: reads and parses missions.xml and
 * raids.xml in folder `dir` (borrowed), each when present (a missing one is noted), `*hash`
 * extended as battle_missions_read does. Notes as battle_missions_parse. On SK_OK *out is
 * filled (release with battle_missions_release). SK_EIO (a file that cannot be read) and
 * SK_EINVAL (XML libxml2 cannot recover) come with `err` naming the file and line; SK_ENOMEM.
 */
enum sk_err battle_missions_load(const char *dir, struct battle_missions_data *out, uint64_t *hash,
                                 struct sk_verr_list *notes, char *err, size_t errlen);

/** Frees what battle_missions_load filled and zeroes `data`; NULL-safe. */
void battle_missions_release(struct battle_missions_data *data);

#endif
