/* SPDX-License-Identifier: MIT */
/* Battle card types and the skill table: the one place a skill's facts live. This header
 * compiles both as C11 and as OpenCL C 1.2 (no includes, no C-only constructs), so the
 * host and the kernels agree on the numbering. From BATTLE_SKILL_TABLE come the skill
 * enum (here), the names and option rules (battle_rules.c), the folding of
 * the plan (battle_plan.c), whom a skill aims at and when a unit is a valid target
 * (battle_sim_target.h); from BATTLE_SKILL_GAME_TABLE the game's vocabulary (battle_tu.c) and the
 * catalog filter's words (the API). `make gen-skills` (tools/gen_skills) writes both into
 * the OpenAPI document's skill lists and docs/jobs.md's skill table, and the TypeScript
 * client follows the document; test_battle_skills.c fails while those files differ from
 * the tables, and for a row without an effect. Adding a skill: one row (and its place in
 * the game's order), its effect in battle_sim_skills.h, its tests, `make gen-skills`
 * (docs/kernels.md). */
#ifndef BATTLE_SKILLS_H
#define BATTLE_SKILLS_H

enum battle_card_type {
    BATTLE_COMMANDER = 0,
    BATTLE_FORTRESS = 1,
    BATTLE_ASSAULT = 2,
    BATTLE_STRUCTURE = 3,
    BATTLE_CARD_TYPE__COUNT = 4
};

/* Card types a skill may be on (bit 1 << enum battle_card_type). */
#define BATTLE_T_COMMANDER (1u << BATTLE_COMMANDER)
#define BATTLE_T_FORTRESS  (1u << BATTLE_FORTRESS)
#define BATTLE_T_ASSAULT   (1u << BATTLE_ASSAULT)
#define BATTLE_T_STRUCTURE (1u << BATTLE_STRUCTURE)
#define BATTLE_T_ANY                                                                               \
    (BATTLE_T_COMMANDER | BATTLE_T_FORTRESS | BATTLE_T_ASSAULT | BATTLE_T_STRUCTURE)

/* How a skill acts. A passive skill is folded into a field of the card's plan data (ADD:
 * repeated copies add up, saturating at the field's bound, battle_rules_skill_x_max; FLAG:
 * the field is set to 1); an activation skill joins the card's list of actions, kept in
 * card order. Triggered skills (on play, on attacked, on death) are reserved for the
 * real-cards work. */
enum battle_skill_kind { BATTLE_SK_PASSIVE = 0, BATTLE_SK_ACTIVATION = 1, BATTLE_SK_TRIGGERED = 2 };

/* The row an activation skill aims at, on the enemy's side when hostile, else its own. */
enum battle_skill_row { BATTLE_ROW_NONE = 0, BATTLE_ROW_ASSAULTS = 1, BATTLE_ROW_STRUCTURES = 2 };

/* When a unit of that row is a valid target (besides being alive). */
enum battle_skill_when {
    BATTLE_WHEN_ALIVE = 0,    /* any living unit */
    BATTLE_WHEN_ACTS = 1,     /* it acts next turn: delay <= 1 and not jammed */
    BATTLE_WHEN_HITS = 2,     /* it acts next turn and has attack power (as tuo's Weaken) */
    BATTLE_WHEN_DAMAGED = 3,  /* its health is below its card's */
    BATTLE_WHEN_READY = 4,    /* it acts this turn and has not attacked: delay 0, not jammed */
    BATTLE_WHEN_FIGHTS = 5,   /* it acts this turn, has not begun its turn in the row, and has
                                 attack power (tuo's Enrage) */
    BATTLE_WHEN_DELAYED = 6,  /* its delay is 1 or more (Rush; battle_sim_skill_as asks 2 of
                                 a unit left of an assault caster: its turn in the row is over) */
    BATTLE_WHEN_OVERLOAD = 7, /* it acts this turn, has not attacked, is not overloaded, and has
                                 a skill Overload helps (battle_sim_overload) */
    BATTLE_WHEN_MOD = 8       /* Enhance, Evolve: the change applies to its card (it has the skill
                                 and, for Evolve, not the new one) and it acts this turn, unless the
                                 skill is one that works without acting (battle_sim_mod_ok) */
};

/* Options a skill takes, as bits. X: "x" (its magnitude, 1..BATTLE_SKILL_X_MAX) is
 * required; ALL: "all" (every valid target instead of one drawn); Y: "y", a faction filter
 * on the targets (progenitor units always pass); N: "n", the number of targets drawn;
 * C: "c", a cooldown in own turns after the skill took effect (1..BATTLE_SKILL_C_MAX);
 * TRIGGER: "trigger", cast on play, when attacked or on death instead of in the unit's
 * turn; CARD: the card it brings (Summon, required); SKILL: the skill it changes, "s"
 * (Enhance, Evolve, required), and for Evolve the skill it becomes, "s2". */
#define BATTLE_OPT_X       1u
#define BATTLE_OPT_ALL     2u
#define BATTLE_OPT_Y       4u
#define BATTLE_OPT_N       8u
#define BATTLE_OPT_C       16u
#define BATTLE_OPT_TRIGGER 32u
#define BATTLE_OPT_SKILL   64u
#define BATTLE_OPT_CARD    128u

/* What every targeted activation skill takes. */
#define BATTLE_OPT_TARGETED                                                                        \
    (BATTLE_OPT_X | BATTLE_OPT_ALL | BATTLE_OPT_Y | BATTLE_OPT_N | BATTLE_OPT_C |                  \
     BATTLE_OPT_TRIGGER)

/* The table. Columns:
 *   ID      enum name (BATTLE_SKILL_<ID>)
 *   NAME    as job documents and the catalog write it
 *   KIND    PASSIVE or ACTIVATION (BATTLE_SK_<KIND>); an activation skill with a trigger
 *           is cast on that event instead of in the unit's turn
 *   FOLD    passives: ADD or FLAG into plan field FIELD; activations: ACT (FIELD unused: -)
 *   HOSTILE 1: aimed at the enemy (Evade can negate it); 0: at its own side
 *   ROW     ASSAULTS or STRUCTURES for activations, NONE for passives
 *   WHEN    target condition (BATTLE_WHEN_<WHEN>)
 *   OPTS    BATTLE_OPT_* bits
 *   TYPES   card types that may have it (BATTLE_T_*)
 *   TYPES_TEXT the same for error messages, 0 for any type
 * Order: passive skills, then activation skills, then Flurry. The order is part of no file
 * format (documents use names), so a row may go anywhere. Why each TYPES limit: only
 * assaults attack (pierce, berserk, leech) and only assault targets use armor; wall
 * redirects attacks to a structure in play (fortresses are structures in play); commanders
 * are never the target of a hostile skill, so evade on them could not fire, and take no
 * skill damage, so absorb on them could not either; inhibit is the assault row's (the
 * enemy assault opposite); rush is cast once in a unit's life, which the engine counts for
 * assaults (the game's files give it to commanders and assaults only). */
#define BATTLE_SKILL_TABLE(X)                                                                      \
    X(ARMOR, "armor", PASSIVE, ADD, armor, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,         \
      "assault")                                                                                   \
    X(COUNTER, "counter", PASSIVE, ADD, counter, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ANY, 0)    \
    X(WALL, "wall", PASSIVE, FLAG, wall, 0, NONE, ALIVE, 0,                                        \
      BATTLE_T_STRUCTURE | BATTLE_T_FORTRESS, "structure and fortress")                            \
    X(PIERCE, "pierce", PASSIVE, ADD, pierce, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,      \
      "assault")                                                                                   \
    X(BERSERK, "berserk", PASSIVE, ADD, berserk, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,   \
      "assault")                                                                                   \
    X(LEECH, "leech", PASSIVE, ADD, leech, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,         \
      "assault")                                                                                   \
    X(POISON, "poison", PASSIVE, ADD, poison, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ANY, 0)       \
    X(EVADE, "evade", PASSIVE, ADD, evade, 0, NONE, ALIVE, BATTLE_OPT_X,                           \
      BATTLE_T_FORTRESS | BATTLE_T_ASSAULT | BATTLE_T_STRUCTURE,                                   \
      "fortress, assault and structure")                                                           \
    X(LEGION, "legion", PASSIVE, ADD, legion, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,      \
      "assault")                                                                                   \
    X(COALITION, "coalition", PASSIVE, ADD, coalition, 0, NONE, ALIVE, BATTLE_OPT_X,               \
      BATTLE_T_ASSAULT, "assault")                                                                 \
    X(RUPTURE, "rupture", PASSIVE, ADD, rupture, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,   \
      "assault")                                                                                   \
    X(VENOM, "venom", PASSIVE, ADD, venom, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,         \
      "assault")                                                                                   \
    X(SWIPE, "swipe", PASSIVE, ADD, swipe, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,         \
      "assault")                                                                                   \
    X(DRAIN, "drain", PASSIVE, ADD, drain, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,         \
      "assault")                                                                                   \
    X(HUNT, "hunt", PASSIVE, ADD, hunt, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT, "assault") \
    X(ALLEGIANCE, "allegiance", PASSIVE, ADD, allegiance, 0, NONE, ALIVE, BATTLE_OPT_X,            \
      BATTLE_T_ASSAULT, "assault")                                                                 \
    X(AVENGE, "avenge", PASSIVE, ADD, avenge, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,      \
      "assault")                                                                                   \
    X(SCAVENGE, "scavenge", PASSIVE, ADD, scavenge, 0, NONE, ALIVE, BATTLE_OPT_X,                  \
      BATTLE_T_ASSAULT | BATTLE_T_STRUCTURE | BATTLE_T_FORTRESS,                                   \
      "assault, structure and fortress")                                                           \
    X(REFRESH, "refresh", PASSIVE, ADD, refresh, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,   \
      "assault")                                                                                   \
    X(VALOR, "valor", PASSIVE, ADD, valor, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,         \
      "assault")                                                                                   \
    X(BRAVERY, "bravery", PASSIVE, ADD, bravery, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,   \
      "assault")                                                                                   \
    X(BARRIER, "barrier", PASSIVE, ADD, barrier, 0, NONE, ALIVE, BATTLE_OPT_X,                     \
      BATTLE_T_ASSAULT | BATTLE_T_STRUCTURE | BATTLE_T_FORTRESS,                                   \
      "assault, structure and fortress")                                                           \
    X(FLYING, "flying", PASSIVE, FLAG, flying, 0, NONE, ALIVE, 0,                                  \
      BATTLE_T_ASSAULT | BATTLE_T_STRUCTURE | BATTLE_T_FORTRESS,                                   \
      "assault, structure and fortress")                                                           \
    X(INHIBIT, "inhibit", PASSIVE, ADD, inhibit, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,   \
      "assault")                                                                                   \
    X(ABSORB, "absorb", PASSIVE, ADD, absorb, 0, NONE, ALIVE, BATTLE_OPT_X,                        \
      BATTLE_T_ASSAULT | BATTLE_T_STRUCTURE | BATTLE_T_FORTRESS,                                   \
      "assault, structure and fortress")                                                           \
    X(MARK, "mark", PASSIVE, ADD, mark, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT, "assault") \
    X(CORROSIVE, "corrosive", PASSIVE, ADD, corrosive, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ANY, \
      0)                                                                                           \
    X(SABOTAGE, "sabotage", PASSIVE, ADD, sabotage, 0, NONE, ALIVE, BATTLE_OPT_X,                  \
      BATTLE_T_ASSAULT, "assault")                                                                 \
    X(DISEASE, "disease", PASSIVE, ADD, disease, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,   \
      "assault")                                                                                   \
    X(TRIBUTE, "tribute", PASSIVE, ADD, tribute, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,   \
      "assault")                                                                                   \
    X(PAYBACK, "payback", PASSIVE, ADD, payback, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,   \
      "assault")                                                                                   \
    X(REVENGE, "revenge", PASSIVE, ADD, revenge, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ASSAULT,   \
      "assault")                                                                                   \
    X(SUBDUE, "subdue", PASSIVE, ADD, subdue, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ANY, 0)       \
    X(STASIS, "stasis", PASSIVE, ADD, stasis, 0, NONE, ALIVE, BATTLE_OPT_X, BATTLE_T_ANY, 0)       \
    X(STRIKE, "strike", ACTIVATION, ACT, -, 1, ASSAULTS, ALIVE, BATTLE_OPT_TARGETED, BATTLE_T_ANY, \
      0)                                                                                           \
    X(SIEGE, "siege", ACTIVATION, ACT, -, 1, STRUCTURES, ALIVE, BATTLE_OPT_TARGETED, BATTLE_T_ANY, \
      0)                                                                                           \
    X(ENFEEBLE, "enfeeble", ACTIVATION, ACT, -, 1, ASSAULTS, ALIVE, BATTLE_OPT_TARGETED,           \
      BATTLE_T_ANY, 0)                                                                             \
    X(WEAKEN, "weaken", ACTIVATION, ACT, -, 1, ASSAULTS, HITS, BATTLE_OPT_TARGETED, BATTLE_T_ANY,  \
      0)                                                                                           \
    X(SUNDER, "sunder", ACTIVATION, ACT, -, 1, ASSAULTS, HITS, BATTLE_OPT_TARGETED, BATTLE_T_ANY,  \
      0)                                                                                           \
    X(JAM, "jam", ACTIVATION, ACT, -, 1, ASSAULTS, ACTS, BATTLE_OPT_TARGETED & ~BATTLE_OPT_X,      \
      BATTLE_T_ANY, 0)                                                                             \
    X(HEAL, "heal", ACTIVATION, ACT, -, 0, ASSAULTS, DAMAGED, BATTLE_OPT_TARGETED, BATTLE_T_ANY,   \
      0)                                                                                           \
    X(RALLY, "rally", ACTIVATION, ACT, -, 0, ASSAULTS, READY, BATTLE_OPT_TARGETED, BATTLE_T_ANY,   \
      0)                                                                                           \
    X(PROTECT, "protect", ACTIVATION, ACT, -, 0, ASSAULTS, ALIVE, BATTLE_OPT_TARGETED,             \
      BATTLE_T_ANY, 0)                                                                             \
    X(MORTAR, "mortar", ACTIVATION, ACT, -, 1, STRUCTURES, ALIVE, BATTLE_OPT_TARGETED,             \
      BATTLE_T_ANY, 0)                                                                             \
    X(MEND, "mend", ACTIVATION, ACT, -, 0, ASSAULTS, DAMAGED, BATTLE_OPT_X | BATTLE_OPT_TRIGGER,   \
      BATTLE_T_ASSAULT, "assault")                                                                 \
    X(FORTIFY, "fortify", ACTIVATION, ACT, -, 0, ASSAULTS, ALIVE,                                  \
      BATTLE_OPT_X | BATTLE_OPT_TRIGGER, BATTLE_T_ASSAULT, "assault")                              \
    X(ENRAGE, "enrage", ACTIVATION, ACT, -, 0, ASSAULTS, FIGHTS, BATTLE_OPT_TARGETED,              \
      BATTLE_T_ANY, 0)                                                                             \
    X(ENTRAP, "entrap", ACTIVATION, ACT, -, 0, ASSAULTS, ALIVE, BATTLE_OPT_TARGETED, BATTLE_T_ANY, \
      0)                                                                                           \
    X(OVERLOAD, "overload", ACTIVATION, ACT, -, 0, ASSAULTS, OVERLOAD,                             \
      BATTLE_OPT_TARGETED & ~BATTLE_OPT_X, BATTLE_T_ANY, 0)                                        \
    X(RUSH, "rush", ACTIVATION, ACT, -, 0, ASSAULTS, DELAYED, BATTLE_OPT_TARGETED,                 \
      BATTLE_T_COMMANDER | BATTLE_T_ASSAULT, "commander and assault")                              \
    X(MIMIC, "mimic", ACTIVATION, ACT, -, 1, ASSAULTS, ALIVE, BATTLE_OPT_TARGETED, BATTLE_T_ANY,   \
      0)                                                                                           \
    X(SUMMON, "summon", ACTIVATION, ACT, -, 0, NONE, ALIVE, BATTLE_OPT_CARD | BATTLE_OPT_TRIGGER,  \
      BATTLE_T_ANY, 0)                                                                             \
    X(ENHANCE, "enhance", ACTIVATION, ACT, -, 0, ASSAULTS, MOD,                                    \
      BATTLE_OPT_X | BATTLE_OPT_ALL | BATTLE_OPT_N | BATTLE_OPT_TRIGGER | BATTLE_OPT_SKILL,        \
      BATTLE_T_ANY, 0)                                                                             \
    X(EVOLVE, "evolve", ACTIVATION, ACT, -, 0, ASSAULTS, MOD,                                      \
      (BATTLE_OPT_TARGETED & ~BATTLE_OPT_X) | BATTLE_OPT_SKILL, BATTLE_T_ANY, 0)                   \
    X(FLURRY, "flurry", PASSIVE, ADD, flurry, 0, NONE, ALIVE, BATTLE_OPT_X | BATTLE_OPT_C,         \
      BATTLE_T_ANY, 0)

#define BATTLE_SKILL_ENUM_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)     \
    BATTLE_SKILL_##ID,
enum battle_skill { BATTLE_SKILL_TABLE(BATTLE_SKILL_ENUM_) BATTLE_SKILL__COUNT };
#undef BATTLE_SKILL_ENUM_

/* The game's skills (Tyrant Unleashed's), in the peer simulator's order (its tyrant.h), each
 * as the row that simulates it. Players and the peer write a skill by its row's NAME
 * (case aside); FILE is the id the game's card files use when it is another ("besiege" for
 * Mortar), else 0. From this list come the game's vocabulary (battle_tu.c: the importer's
 * names, BATTLE_TU_SKILL__COUNT), the catalog filter's words, the "s" and "s2" of Enhance
 * and Evolve, and the OpenAPI lists marked "x-skills": "game" (tools/gen_skills). A new
 * skill of the game goes here too, at its place in the peer's order; a row the game does
 * not have (none today) is left out. An ID named twice or naming no row fails to compile
 * (battle_tu.h). The order is part of no file format (documents use names). */
#define BATTLE_SKILL_GAME_TABLE(X)                                                                 \
    X(ENFEEBLE, 0)                                                                                 \
    X(JAM, 0)                                                                                      \
    X(MORTAR, "besiege")                                                                           \
    X(SIEGE, 0)                                                                                    \
    X(STRIKE, 0)                                                                                   \
    X(SUNDER, 0)                                                                                   \
    X(WEAKEN, 0)                                                                                   \
    X(EVOLVE, 0)                                                                                   \
    X(HEAL, 0)                                                                                     \
    X(MEND, 0)                                                                                     \
    X(OVERLOAD, 0)                                                                                 \
    X(PROTECT, 0)                                                                                  \
    X(RALLY, 0)                                                                                    \
    X(FORTIFY, 0)                                                                                  \
    X(ENRAGE, 0)                                                                                   \
    X(ENTRAP, 0)                                                                                   \
    X(RUSH, 0)                                                                                     \
    X(MIMIC, 0)                                                                                    \
    X(ARMOR, "armored")                                                                            \
    X(AVENGE, 0)                                                                                   \
    X(SCAVENGE, 0)                                                                                 \
    X(CORROSIVE, 0)                                                                                \
    X(COUNTER, 0)                                                                                  \
    X(EVADE, 0)                                                                                    \
    X(SUBDUE, 0)                                                                                   \
    X(ABSORB, 0)                                                                                   \
    X(FLYING, 0)                                                                                   \
    X(PAYBACK, 0)                                                                                  \
    X(REVENGE, 0)                                                                                  \
    X(TRIBUTE, 0)                                                                                  \
    X(REFRESH, 0)                                                                                  \
    X(WALL, 0)                                                                                     \
    X(BARRIER, 0)                                                                                  \
    X(COALITION, 0)                                                                                \
    X(LEGION, 0)                                                                                   \
    X(PIERCE, 0)                                                                                   \
    X(RUPTURE, 0)                                                                                  \
    X(SWIPE, 0)                                                                                    \
    X(DRAIN, 0)                                                                                    \
    X(VENOM, 0)                                                                                    \
    X(HUNT, 0)                                                                                     \
    X(MARK, 0)                                                                                     \
    X(BERSERK, 0)                                                                                  \
    X(LEECH, 0)                                                                                    \
    X(POISON, 0)                                                                                   \
    X(INHIBIT, 0)                                                                                  \
    X(SABOTAGE, 0)                                                                                 \
    X(DISEASE, 0)                                                                                  \
    X(ALLEGIANCE, 0)                                                                               \
    X(FLURRY, 0)                                                                                   \
    X(VALOR, 0)                                                                                    \
    X(STASIS, 0)                                                                                   \
    X(SUMMON, 0)                                                                                   \
    X(BRAVERY, 0)                                                                                  \
    X(ENHANCE, 0)

/* The peer's passive battleground effects (its PassiveBGE names, in its order): rules of a
 * battle that no card carries, set per side with a value (1 when a text names none). A
 * side's values are battle_side_data.passive; docs/rules/battle.md, "Passive battleground
 * effects", says what each does and whose turn reads it.
 *   ID      enum name (BATTLE_PASSIVE_<ID>)
 *   NAME    the peer's name, lower case, as battle_tu_simplify leaves it
 *   NEEDS   "": simulated; else the skill that it acts through, which the engine does not
 *           simulate yet, or why it is not simulated */
#define BATTLE_PASSIVE_TABLE(X)                                                                    \
    X(BLOODLUST, "bloodlust", "")                                                                  \
    X(BRIGADE, "brigade", "")                                                                      \
    X(COUNTERFLUX, "counterflux", "")                                                              \
    X(DIVERT, "divert", "")                                                                        \
    X(ENDURINGRAGE, "enduringrage", "")                                                            \
    X(FORTIFICATION, "fortification", "")                                                          \
    X(HEROISM, "heroism", "")                                                                      \
    X(ZEALOTSPRESERVATION, "zealotspreservation", "")                                              \
    X(METAMORPHOSIS, "metamorphosis", "")                                                          \
    X(MEGAMORPHOSIS, "megamorphosis", "")                                                          \
    X(REVENGE, "revenge", "")                                                                      \
    X(TURNINGTIDES, "turningtides", "")                                                            \
    X(VIRULENCE, "virulence", "")                                                                  \
    X(HALTEDORDERS, "haltedorders", "")                                                            \
    X(DEVOUR, "devour", "")                                                                        \
    X(CRITICALREACH, "criticalreach", "")                                                          \
    X(TEMPORALBACKLASH, "temporalbacklash", "")                                                    \
    X(FURIOSITY, "furiosity", "")                                                                  \
    X(OATHOFLOYALTY, "oathofloyalty", "")                                                          \
    X(BLOODVENGEANCE, "bloodvengeance", "")                                                        \
    X(COLDSLEEP, "coldsleep", "")                                                                  \
    X(IRONWILL, "ironwill", "")                                                                    \
    X(UNITY, "unity", "")                                                                          \
    X(DEVOTION, "devotion", "")                                                                    \
    X(CRACKDOWN, "crackdown", "")                                                                  \
    X(SUPERHEROISM, "superheroism", "")

#define BATTLE_PASSIVE_ENUM_(ID, NAME, NEEDS) BATTLE_PASSIVE_##ID,
enum battle_passive { BATTLE_PASSIVE_TABLE(BATTLE_PASSIVE_ENUM_) BATTLE_PASSIVE__COUNT };
#undef BATTLE_PASSIVE_ENUM_

enum battle_mode { BATTLE_MODE_FIGHT = 0, BATTLE_MODE_SURGE = 1 };

/* How a game scores (docs/rules/battle.md, "Scoring"): every game earns points from its
 * outcome, as the peer's optimisation modes count them. WIN: 100 a win (the win rate in
 * points); DEFENSE: 100 a win or a stall; RAID: damage to a raid boss; BRAWL, WAR
 * (guild war) and CAMPAIGN: the game's event points; the _DEFENSE forms score the defender
 * of those events. From RAID on, a scoring counts the units each side lost (the others
 * do not pay for counting). */
enum battle_scoring {
    BATTLE_SCORING_WIN = 0,
    BATTLE_SCORING_DEFENSE = 1,
    BATTLE_SCORING_WAR = 2,
    BATTLE_SCORING_WAR_DEFENSE = 3,
    BATTLE_SCORING_RAID = 4,
    BATTLE_SCORING_BRAWL = 5,
    BATTLE_SCORING_BRAWL_DEFENSE = 6,
    BATTLE_SCORING_CAMPAIGN = 7,
    BATTLE_SCORING__COUNT = 8
};

/* How a side picks its card each turn (docs/rules/battle.md, "Play strategies"). FLEX is
 * tuo's flexible play: the card of the hand whose short look-ahead games score best. */
enum battle_play {
    BATTLE_PLAY_RANDOM = 0,
    BATTLE_PLAY_ORDERED = 1,
    BATTLE_PLAY_EXACT = 2,
    BATTLE_PLAY_FLEX = 3
};

#endif
