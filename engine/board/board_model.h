/* SPDX-License-Identifier: MIT */
/* The Sanctum board model: squares, players, groups, minions, spells in play and the event
 * log, with the geometry and legality helpers every phase shares. Pure data and queries;
 * it knows no JSON (board_codec) and resolves no phase (board_turn and friends). */
#ifndef BOARD_MODEL_H
#define BOARD_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"
#include "sk_err.h"

/* Ownership: every function here borrows the state and the strings it is given; only
 * board_state_new/clone return memory the caller owns (free with board_state_free). */

/* Limits on every size a job may give (docs/board-jobs.md). */
#define BOARD_MIN_SIDE      2
#define BOARD_MAX_SIDE      32
#define BOARD_MAX_GROUPS    256
#define BOARD_GROUP_MINIONS 8
#define BOARD_MAX_SPELLS    256 /* spells in play */
#define BOARD_MAX_ORDERS    256
#define BOARD_MAX_CASTS     256
#define BOARD_MAX_TURNS     50
#define BOARD_MAX_GRAVEYARD 2048
#define BOARD_MAX_EVENTS    100000 /* past this the log is marked truncated */
#define BOARD_ID_MAX        24     /* ids are 1..23 bytes */
#define BOARD_COMBAT_ROUNDS 20

enum board_terrain {
    BOARD_PLAINS = 0,
    BOARD_FOREST,
    BOARD_WATER,
    BOARD_MOUNTAIN,
    BOARD_DESERT,
    BOARD_SWAMP,
    BOARD_BARREN,
    BOARD_TERRAIN__COUNT
};

/* Owners. Standard sequence is initiative, non-initiative, neutral. */
enum board_player { BOARD_RED = 0, BOARD_BLUE, BOARD_NEUTRAL, BOARD_PLAYER__COUNT };

enum board_structure { BOARD_NO_STRUCTURE = 0, BOARD_SANCTUM, BOARD_TOWN, BOARD_COLONY };

enum board_class {
    BOARD_SWORDSMAN = 0,
    BOARD_ARCHER,
    BOARD_BARD,
    BOARD_HERO,
    BOARD_MONSTER,
    BOARD_CLASS__COUNT
};

/* The twelve nations (recruits); BOARD_NO_NATION for monsters. */
enum board_nation {
    BOARD_NO_NATION = 0,
    BOARD_IMP,
    BOARD_CYCLOPS,
    BOARD_KEEPER,
    BOARD_SHADOW,
    BOARD_VISION,
    BOARD_GARGOYLE,
    BOARD_ELF,
    BOARD_DWARF,
    BOARD_DJINN,
    BOARD_SATYR,
    BOARD_MISFIT,
    BOARD_HUMAN,
    BOARD_NATION__COUNT
};

/* Terrainwalk bits. */
#define BOARD_WALK_MOUNTAIN 1u
#define BOARD_WALK_WATER    2u
#define BOARD_WALK_FLIGHT   4u

struct board_minion {
    char id[BOARD_ID_MAX];
    enum board_class cls;
    enum board_nation nation;
    int health, max_health;
    int armor;     /* max armor as given (spells add on top, see board_events_max_armor) */
    int cur_armor; /* combat only: reset to max each round */
    int hand, missile, attacks;
    unsigned walks; /* BOARD_WALK_* given explicitly (nation walks are added on query) */
    int level;
    /* combat state of the current fight */
    int attacks_left;
    int victim;        /* minion index in the enemy group, -1 none */
    int last_attacker; /* index in the enemy group of the last enemy that attacked it, -1 */
    int alive;         /* 0 once buried or removed (index stays valid until compaction) */
    int spelled;       /* cache: a live individual spell names it (board_model_index_spells) */
};

struct board_group {
    char id[BOARD_ID_MAX];
    enum board_player owner;
    int computer;   /* 1 = computer-controlled */
    int row, col;   /* current square */
    int srow, scol; /* start square of this turn's movement */
    int n;          /* minions, alive or not, 0..8 */
    struct board_minion m[BOARD_GROUP_MINIONS];
    int gone; /* removed from the board (died, removed, joined another group) */
    /* movement state of the current turn */
    int has_order, orow, ocol;
    int order_seq; /* position in its player's movement-order sequence */
    int moved;     /* moved away in pass I */
    int spelled;   /* cache: a live group spell names it (board_model_index_spells) */
};

enum board_target_kind {
    BOARD_T_INDIVIDUAL = 0,
    BOARD_T_GROUP,
    BOARD_T_SQUARE,
    BOARD_T_STRUCTURE,
    BOARD_T_TERRAIN,
    BOARD_T_GLOBE,
    BOARD_T_PLAYER,
    BOARD_T__COUNT
};

/* A spell in play (an active alteration or conjuration). */
struct board_spell {
    int def;                  /* index in the job's spell definitions */
    enum board_player caster; /* the spell's owner */
    enum board_target_kind kind;
    char target[BOARD_ID_MAX]; /* minion or group id for individual/group spells */
    int row, col;              /* square/structure/terrain spells */
    enum board_player player;  /* player spells */
    int turns_left;            /* -1 persistent; else turns including the current one */
    int bind;                  /* Terrain-Bind: the terrain captured at casting, -1 none */
    uint64_t age;              /* casting order: smaller = older */
    int gone;
    int rg, rm; /* cache: the target's group and minion index (board_model_index_spells) */
};

struct board_dead {
    char id[BOARD_ID_MAX];
    enum board_player owner;
};

/* Event log. Types are stable: docs/board-jobs.md lists them with their fields. */
enum board_ev_type {
    BOARD_EV_TURN = 0,    /* turn starts */
    BOARD_EV_CAST,        /* a cast executes (spell, player, target) */
    BOARD_EV_SQUANDER,    /* a cast whose target is gone */
    BOARD_EV_EFFECT,      /* a spell effect fired (spell, group/minion, action) */
    BOARD_EV_ORDER,       /* a movement order written by a spell (or cancelled) */
    BOARD_EV_OVERSTACK,   /* pass I: a group moves into its destination */
    BOARD_EV_BOUNCE,      /* a group stays (pass I) or bounces back (pass II) */
    BOARD_EV_VOTE,        /* one pairwise vote */
    BOARD_EV_JOIN,        /* a group joins the winner */
    BOARD_EV_MOVE,        /* a moving group takes a square */
    BOARD_EV_MOONWALK,    /* a group moonwalks to a landing square */
    BOARD_EV_REMOVAL,     /* a group is removed from the game */
    BOARD_EV_COMBAT,      /* a fight starts between two groups */
    BOARD_EV_ATTACK,      /* one attack (A1-A7) */
    BOARD_EV_DAMAGE,      /* a Takes Damage result */
    BOARD_EV_DEATH,       /* a minion dies (kills / dies) */
    BOARD_EV_GROUP_DEATH, /* a group left empty is removed (E4) */
    BOARD_EV_EXPIRE,      /* a temporary spell ends */
    BOARD_EV_LEAVE,       /* a minion leaves its group */
    BOARD_EV__COUNT
};

/* Damage results of Takes Damage. */
enum board_result { BOARD_BOUNCED = 0, BOARD_DAMAGED, BOARD_KILLED };

/* Vote reasons: the tie-break that decided it. */
enum board_reason {
    BOARD_R_NONE = 0,
    BOARD_R_STATIONARY,
    BOARD_R_INITIATIVE,
    BOARD_R_LARGER,
    BOARD_R_SEQUENCE,
    /* bounce reasons */
    BOARD_R_CANNOT_ENTER,
    BOARD_R_OCCUPIED,
    BOARD_R_HOSTILE,
    BOARD_R_CANNOT_JOIN,
    BOARD_R_CANNOT_MOVE,
    BOARD_R_CANNOT_EXIT,
    BOARD_R__COUNT
};

struct board_event {
    uint8_t type;
    uint8_t aux;   /* reason, result, or 1 for "kills" deaths */
    int16_t spell; /* spell definition index, -1 none */
    int32_t turn;  /* turn number */
    char a[BOARD_ID_MAX];
    char b[BOARD_ID_MAX];
    int r1, c1, r2, c2;
    int v1, v2;
};

struct board_spell_def;

/* The whole game state plus the run's log. Owned arrays; see board_state_new/free. */
struct board_state {
    int rows, cols;
    uint8_t *offmap;    /* rows*cols */
    uint8_t *terrain;   /* rows*cols, enum board_terrain */
    uint8_t *structure; /* rows*cols, enum board_structure */
    uint8_t *sowner;    /* rows*cols, structure owner */
    int classic;        /* the mask is the default "classic" one */
    enum board_terrain base_terrain;
    enum board_player initiative; /* BOARD_RED or BOARD_BLUE */
    int turn;                     /* the next turn to resolve */

    struct board_group *groups; /* ngroups used of gcap */
    int ngroups, gcap;
    struct board_spell *spells; /* in casting order */
    int nspells, scap;
    uint64_t next_age;
    struct board_dead *dead;
    int ndead, dcap;
    /* Which targets hold spells, so events skip levels with none (rebuilt when dirty). */
    uint16_t *sqspells; /* rows*cols: live square, structure and terrain spells */
    int nglobe;
    int spells_dirty; /* set when spells are added or indices move; a spell going away
                       * leaves the caches valid (gone spells are skipped anyway) */

    const struct board_spell_def *defs; /* borrowed from the job */
    int ndefs;

    struct board_event *log;
    size_t nlog, logcap;
    int log_truncated;
    int log_enabled;
    struct rng rng;  /* the current turn's stream */
    enum sk_err oom; /* first allocation failure inside a phase */
};

/** A new empty state of rows x cols (all plains, all playable); NULL on ENOMEM. */
struct board_state *board_state_new(int rows, int cols);
/** Frees a state; NULL-safe. `defs` stays the caller's. */
void board_state_free(struct board_state *st);
/** A deep copy (log included); NULL on ENOMEM. */
struct board_state *board_state_clone(const struct board_state *st);

struct sk_buf;

/** Appends a snapshot of `st` (every field and array, the log included) to `out`; returns
 *  out's error (SK_OK, SK_ENOMEM). Native layout: read back by the same build only. */
enum sk_err board_state_save(const struct board_state *st, struct sk_buf *out);
/**
 * A new state (*out, board_state_free) from the snapshot `p` (`len` bytes) of a state of
 * the same board as `like` (its size; its spell definitions are borrowed as `like`'s are).
 * SK_EINVAL when the bytes are not such a snapshot; SK_ENOMEM.
 */
enum sk_err board_state_load(const unsigned char *p, size_t len, const struct board_state *like,
                             struct board_state **out);

/** Applies the "classic" 12x12 mask and default Sancta (red (10,1), blue (1,10)). */
void board_model_classic_mask(struct board_state *st, int with_sancta);
/** 1 if `mask` is exactly the classic one for a 12x12 board. */
int board_model_is_classic(const struct board_state *st);

static inline int board_sq(const struct board_state *st, int r, int c)
{
    return r * st->cols + c;
}
/** 1 if (r, c) is on the grid and not off the map. */
int board_model_playable(const struct board_state *st, int r, int c);

/** Standard sequence position of a player (initiative 0, non-initiative 1, neutral 2). */
int board_model_std_rank(const struct board_state *st, enum board_player p);
/** Exceptional sequence position (initiative 0, neutral 1, non-initiative 2). */
int board_model_exc_rank(const struct board_state *st, enum board_player p);
/** The player at position `i` of the standard sequence. */
enum board_player board_model_std_player(const struct board_state *st, int i);
/** The player at position `i` of the player-event sequence (neutral, init, non-init). */
enum board_player board_model_event_player(const struct board_state *st, int i);

/** 1 if groups of owners a and b are hostile (different owners, or any neutral). */
int board_model_hostile(enum board_player a, enum board_player b);
/** Living minions of a group. */
int board_model_alive(const struct board_group *g);
/** 1 if every minion is a recruit (not a monster). */
int board_model_recruit_group(const struct board_group *g);
/** Group index of the live group holding minion `id`, or -1; *mi gets the minion index. */
int board_model_find_minion(const struct board_state *st, const char *id, int *mi);
/** Index of the live group `id`, or -1. */
int board_model_find_group(const struct board_state *st, const char *id);
/** Terrainwalks of a minion: explicit ones plus its nation's. */
unsigned board_model_walks(const struct board_minion *m);
/** 1 if a minion is a shooter (has a missile attack). */
int board_model_shooter(const struct board_minion *m);

/** Makes room for `more` groups without moving them later in the phase. */
enum sk_err board_model_reserve_groups(struct board_state *st, int more);
/** Appends a spell in play (copied); sets its age. SK_ERANGE past BOARD_MAX_SPELLS. */
enum sk_err board_model_add_spell(struct board_state *st, const struct board_spell *sp);
/** Rebuilds the spell caches (spelled flags, sqspells, nglobe) if spells changed. */
void board_model_index_spells(struct board_state *st);
/** Drops gone spells and gone groups, keeping order; compacts dead minions out of groups. */
void board_model_compact(struct board_state *st);
/** Buries minion mi of group gi into its owner's graveyard (no effects). */
void board_model_bury(struct board_state *st, int gi, int mi);
/** Marks every spell on minion `id` gone (individual spells). */
void board_model_dispel_minion(struct board_state *st, const char *id);
/** Marks every spell on group `id` gone. */
void board_model_dispel_group(struct board_state *st, const char *id);

/** Appends an event (copied); sets its turn. Drops silently past BOARD_MAX_EVENTS. */
void board_model_log(struct board_state *st, const struct board_event *ev);
/** A blank event of `type` (no spell, no squares). */
struct board_event board_model_event(enum board_ev_type type);
/** Copies an id with truncation into a BOARD_ID_MAX buffer. */
void board_model_set_id(char dst[BOARD_ID_MAX], const char *src);

/**
 * Names and parsers of the model enums: x_name(v) returns a static string and needs
 * 0 <= v < the enum's __COUNT; x_parse(s) returns the value named `s` (borrowed) or -1.
 */
const char *board_model_terrain_name(int t);
int board_model_terrain_parse(const char *s);
const char *board_model_player_name(int p);
int board_model_player_parse(const char *s);
const char *board_model_class_name(int c);
int board_model_class_parse(const char *s);
const char *board_model_nation_name(int n);
int board_model_nation_parse(const char *s);
const char *board_model_structure_name(int s);
int board_model_structure_parse(const char *s);
const char *board_model_target_name(int k);
int board_model_target_parse(const char *s);
const char *board_model_event_name(int t);
const char *board_model_result_name(int r);
const char *board_model_reason_name(int r);

#endif
