/* SPDX-License-Identifier: MIT */
/* Spells as data: a spell definition is a target kind, a duration and a list of effects,
 * each an event point (the pipeline step it answers), a condition and an action from a
 * fixed set of primitives. Loads the catalog (data/spells.json, embedded at build time,
 * or the file named by SKIRMISH_SPELLS_FILE) and validates inline definitions. Does not
 * execute effects (board_events does). */
#ifndef BOARD_SPELLS_H
#define BOARD_SPELLS_H

#include <jansson.h>

#include "board_model.h"
#include "sk_err.h"
#include "sk_verr.h"

#define BOARD_SPELL_NAME_MAX  40
#define BOARD_SPELL_TEXT_MAX  400
#define BOARD_SPELL_EFFECTS   8
#define BOARD_MAX_DEFS        96 /* catalog plus inline */
#define BOARD_MAX_INLINE_DEFS 32 /* inline definitions per job */
#define BOARD_MAX_AMOUNT      99

/* Event points: where in the pipelines an effect answers. */
enum board_point {
    BOARD_P_CAST = 0,        /* spell execution: the spell's own instant effects */
    BOARD_P_START_OF_TURN,   /* player-applied, phase 1 */
    BOARD_P_BEFORE_MOVEMENT, /* player-applied, phase 4 */
    BOARD_P_STATS,           /* query: maximum armor */
    BOARD_P_CAN_ENTER,       /* query: may the group enter a square */
    BOARD_P_CAN_JOIN,        /* query: may the group join another */
    BOARD_P_ON_EXIT,         /* II.d/II.e, the start square's on-exit */
    BOARD_P_ON_MOVE,         /* II.d/II.e on-move */
    BOARD_P_ON_ENTER,        /* II.d/II.e, the entered square's on-enter */
    BOARD_P_ATTACKING,       /* A2 on the attacker */
    BOARD_P_ATTACKED,        /* A2 on the victim */
    BOARD_P_BEFORE_ARMOR,    /* D1 on the victim */
    BOARD_P_AFTER_ARMOR,     /* D3 on the victim */
    BOARD_P_HITS,            /* A4 on the attacker */
    BOARD_P_DAMAGES,         /* A5 on the attacker */
    BOARD_P_CAN_MOVE,        /* query, pass I.a: may the group move */
    BOARD_P_CAN_EXIT,        /* query, pass I.a: may the group leave its square */
    BOARD_P_DYING,           /* E1 on the dying minion ("when dying") */
    BOARD_P_KILLED,          /* E2 on the victim of a "kills" death ("if/when killed") */
    BOARD_P__COUNT
};

enum board_action {
    BOARD_A_CANCEL_ORDER = 0,    /* the group's movement order is cancelled */
    BOARD_A_RANDOM_DIRECTION,    /* the group is ordered in a random legal direction */
    BOARD_A_ATTRACT,             /* enemy groups beside the square are ordered into it */
    BOARD_A_SET_TERRAIN,         /* the square's terrain becomes `terrain` */
    BOARD_A_KILL,                /* each target minion dies ("dies" death) */
    BOARD_A_DAMAGE,              /* Apply Damage: `amount` magical to each target minion */
    BOARD_A_LEAVE_GROUP,         /* the target minion leaves its group */
    BOARD_A_ADD_MAX_ARMOR,       /* +amount maximum armor */
    BOARD_A_FORBID_JOIN,         /* the group cannot join or be joined */
    BOARD_A_TERRAIN_BIND,        /* the group may enter only the terrain it stood on at casting */
    BOARD_A_IGNORES_ARMOR,       /* the attack's damage ignores armor */
    BOARD_A_DEAL_NO_DAMAGE,      /* the attack's quantity is set to 0 */
    BOARD_A_ADD_DAMAGE,          /* +amount to the damage quantity */
    BOARD_A_ADD_TWICE_MAX_ARMOR, /* + twice the victim's maximum armor */
    BOARD_A_DEFLECT,             /* the attacker takes the current quantity as magical damage */
    BOARD_A_RECEIVE_NO_DAMAGE,   /* the damage is cancelled: result bounced */
    BOARD_A_KILL_VICTIM,         /* the victim dies ("kills" death by the attacker) */
    BOARD_A_LOWER_VICTIM_ARMOR,  /* the victim's maximum armor -amount (not below 0) */
    BOARD_A_GAIN_MAX_ARMOR,      /* the host minion's maximum armor +amount, permanently */
    BOARD_A_FORBID_MOVE,         /* the group cannot move */
    BOARD_A_FORBID_EXIT,         /* groups cannot leave the square */
    BOARD_A_CANCEL_DEATH,        /* the dying is cancelled: full health, this spell dispelled */
    BOARD_A_DAMAGE_KILLER,       /* the killer takes `amount` magical damage */
    BOARD_A__COUNT
};

enum board_duration { BOARD_D_INSTANT = 0, BOARD_D_PERSISTENT, BOARD_D_TEMPORARY, BOARD_D__COUNT };

/* A condition: each field is -1 (any) or the value required. */
struct board_cond {
    int attacker_nation;    /* enum board_nation */
    int attacker_class;     /* enum board_class */
    int attacker_recruit;   /* 1 recruit, 0 monster */
    int attacker_enchanted; /* 1 has enchantments, 0 has none (a buried minion has none) */
    int attacker_caster;    /* 1 the attacker belongs to the spell's caster */
    int magical;            /* 1 the damage is magical, 0 it is not */
};

struct board_effect {
    enum board_point point;
    enum board_action action;
    int amount;
    int terrain; /* set_terrain; -1 otherwise */
    struct board_cond cond;
};

struct board_spell_def {
    char name[BOARD_SPELL_NAME_MAX];
    char text[BOARD_SPELL_TEXT_MAX];
    enum board_target_kind target;
    enum board_duration duration;
    int turns; /* temporary spells */
    int neffects;
    struct board_effect effects[BOARD_SPELL_EFFECTS];
};

/**
 * Decodes one definition (borrowed JSON) into *out, adding every problem to `errs` under
 * the current position of `ptr` (restored on return). SK_EINVAL if any.
 */
enum sk_err board_spells_decode(const json_t *doc, struct sk_jptr *ptr, struct sk_verr_list *errs,
                                struct board_spell_def *out);

/**
 * Loads the catalog into defs[0..*n) (caller's array of `cap`): the file named by the
 * environment variable SKIRMISH_SPELLS_FILE if set, else the embedded data/spells.json.
 * SK_EINVAL with `err` filled if the catalog is malformed; SK_EIO if the file is unreadable.
 */
enum sk_err board_spells_catalog(struct board_spell_def *defs, int cap, int *n, char *err,
                                 size_t errlen);

/** The catalog as a JSON array of definitions (new reference in *out), for GET /v1/spells. */
enum sk_err board_spells_catalog_json(json_t **out, char *err, size_t errlen);

/** One definition as JSON (new reference), in the schema board_spells_decode reads. */
json_t *board_spells_encode(const struct board_spell_def *def);

/** Index of the definition named `name` in defs[0..n), or -1. */
int board_spells_find(const struct board_spell_def *defs, int n, const char *name);

/** Name of trigger point `p` (0 <= p < BOARD_P__COUNT) as definitions spell it; static string. */
const char *board_spells_point_name(int p);
/** Name of action `a` (0 <= a < BOARD_A__COUNT) as definitions spell it; static string. */
const char *board_spells_action_name(int a);
/** Name of duration `d` (0 <= d < BOARD_D__COUNT) as definitions spell it; static string. */
const char *board_spells_duration_name(int d);

#endif
