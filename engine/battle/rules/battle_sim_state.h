/* SPDX-License-Identifier: MIT */
/* Part of the rules of one battle game (battle_sim.h, which includes the parts in order:
 * state, play, target, skills, turn). The sizes, the flat plan data a prepared job is read
 * through, and the per-game state. */
#ifndef BATTLE_SIM_STATE_H
#define BATTLE_SIM_STATE_H

#include "battle_skills.h"
#include "clc.h"
#include "rng.h"

/* Sizes of the flat plan data and of the game state. They mirror the limits of
 * battle_spec.h (which the kernels cannot include); battle_plan.c asserts they agree. */
/* Cards in one plan's table: the job's (BATTLE_CARDS_MAX) and the variants of them that
 * Enhance and Evolve make (battle_mods); a card index is 16 bits and BATTLE_SIM_CARD_NONE
 * means none. 255 until 2026-11-27: a raid at a middle level (Talos at 13) needs more. */
#define BATTLE_SIM_CARDS     1023
#define BATTLE_SIM_CARD_NONE 0xFFFFu
/* mod_to of a plan made during play (battle_plan_data.lazy): the change applies to the card
 * and its variant is not in the table yet. */
#define BATTLE_SIM_CARD_LAZY 0xFFFEu
/* Distinct Enhance and Evolve changes in one plan. 32 until 2026-11-27: Orbocalypse Raid
 * at its middle levels has more. */
#define BATTLE_SIM_MODS       64
#define BATTLE_SIM_ACTS       8   /* activation skills on one card (BATTLE_CARD_SKILLS_MAX) */
#define BATTLE_SIM_LAZY_BASES 192 /* the job's cards (BATTLE_CARDS_MAX) */
#define BATTLE_SIM_LIST       50  /* deck list positions of one side (BATTLE_DECK_MAX) */
#define BATTLE_SIM_SEQ        53  /* hand + deck entries of one side (hand 3 + deck 50) */
#define BATTLE_SIM_ROW        60  /* units in one row (BATTLE_ROW_MAX) */
#define BATTLE_SIM_POOLS      4   /* pools of a side that draws its cards (BATTLE_POOLS_MAX) */
#define BATTLE_SIM_POOL_CARDS 64  /* their cards, all pools of a side together */
#define BATTLE_SIM_NONE       0xFF
#define BATTLE_SIM_PRIO_NONE  0xFF  /* priority of a card whose list positions are used up */
#define BATTLE_SIM_STAT_CAP   30000 /* saturation of accumulated modifiers (16-bit fields) */
/* The work bound of one game (battle_plan_data.work_limit): Flurry's extra actions plus
 * trigger resolutions and passes, the work that the turn limit and the row size do not
 * bound on their own. The real cards stay far below it: their Flurry grants one action
 * per cooldown of 2 or more (at most 121 units x 100 own turns = 12,100), and each of the
 * 240 places of the four rows resolves at most a play and a death a turn (480 x 200 turns =
 * 96,000 resolutions, one pass or more each). A game that reaches it ends as a stall at the
 * end of the turn (docs/rules/battle.md). */
#define BATTLE_SIM_WORK_LIMIT 262144u
/* Flexible play (BATTLE_PLAY_FLEX), as tuo plays it: look-ahead games per candidate card,
 * the last turn on which it looks ahead (tuo's flexible-iter and 2 x flexible-turn) and
 * the hand it chooses in (BATTLE_HAND_MAX). */
#define BATTLE_SIM_FLEX_GAMES 20
#define BATTLE_SIM_FLEX_TURNS 40
#define BATTLE_SIM_FLEX_HAND  3
/* The most points one game scores (BATTLE_POINTS_MAX; battle_sim_points); the OpenCL kernel
 * keeps one counter per value 0..max. */
#define BATTLE_SIM_POINTS_MAX 511

/* Outcome of one game, from the attacker's (side 0's) view. */
enum battle_sim_outcome { BATTLE_SIM_WIN = 0, BATTLE_SIM_STALL = 1, BATTLE_SIM_LOSS = 2 };

/* Unit flags. */
#define BATTLE_SIM_ALIVE    1u
#define BATTLE_SIM_JAMMED   2u
#define BATTLE_SIM_ATTACKED 4u   /* its turn in the assault row is over */
#define BATTLE_SIM_ACTING   8u   /* taking its turn in the assault row now */
#define BATTLE_SIM_DYING    16u  /* died; its death's effects and skills are still to come */
#define BATTLE_SIM_FRESH    32u  /* summoned; its on-play skills are still to be cast */
#define BATTLE_SIM_SUNDERED 64u  /* Sunder: no attack gains or Rally until its turn ends */
#define BATTLE_SIM_SUMMONED 128u /* brought into play by Summon (scoring counts it apart) */

/* Unit states (battle_unit.state), the rarer skills' flags. RUSHED: it has cast Rush (an
 * assault casts it once in its life). RUSH_DUE: Rush brought its delay to 0, Valor and
 * Summon are due. PB_DEATH: killed by Payback or Revenge, its on-death hostile skills aim
 * at its own side (battle_sim_triggers). OVERLOADED: until its own turn ends, its skills
 * ignore Evade, Protect and Inhibit (battle_sim_skill_as). FX_DONE: died, and its death's
 * Scavenge and Avenge are applied already (battle_sim_death_fx_now). */
#define BATTLE_SIM_RUSHED     1u
#define BATTLE_SIM_RUSH_DUE   2u
#define BATTLE_SIM_PB_DEATH   4u
#define BATTLE_SIM_OVERLOADED 8u
#define BATTLE_SIM_FX_DONE    16u

/* Plan-wide facts (battle_plan_data.fx): whether any card of the table has these skills,
 * so that games without them skip their checks on every unit, hit and turn. */
#define BATTLE_SIM_FX_EVADE   1u   /* Evade */
#define BATTLE_SIM_FX_TICK    2u   /* Barrier, Bravery, Valor, Absorb or Summon at delay 0 */
#define BATTLE_SIM_FX_REFRESH 4u   /* Refresh, or the passive effect Crackdown */
#define BATTLE_SIM_FX_BARRIER 8u   /* Barrier (its count of hits) */
#define BATTLE_SIM_FX_ALLY    16u  /* Allegiance */
#define BATTLE_SIM_FX_FLEX    32u  /* a side plays flexible (not a skill: a side's play mode) */
#define BATTLE_SIM_FX_INHIBIT 64u  /* Inhibit */
#define BATTLE_SIM_FX_ABSORB  128u /* Absorb (also sets FX_TICK: it is renewed at turn start) */

/* What makes every death have effects (battle_plan_data.death_fx): a card with Scavenge,
 * one with Avenge, a side's passive effect (Revenge, Virulence). */
#define BATTLE_SIM_DEATH_SCAVENGE 1u
#define BATTLE_SIM_DEATH_AVENGE   2u
#define BATTLE_SIM_DEATH_PASSIVE  4u

/* Rarer skills some card of the plan has (battle_plan_data.rare). */
#define BATTLE_SIM_RARE_SABOTAGE 1u /* Sabotage or Disease */
#define BATTLE_SIM_RARE_STASIS   2u /* Stasis, or the passive effect Temporal Backlash */
#define BATTLE_SIM_RARE_MOD      4u /* Enhance or Evolve (battle_plan_data.mod_to) */

/* battle_plan_data.passive: which rules' steps the games need, each a constant `pv` in a copy
 * of the turn (battle_sim_turn_pv), so that a plan pays for its own kind of rules only. */
#define BATTLE_SIM_PV_RARE    1u /* the rarer skills' (a card's Sunder, Mark, Payback...) */
#define BATTLE_SIM_PV_EFFECTS 2u /* the passive battleground effects' (a side's) */
#define BATTLE_SIM_PV_ALL     3u

/* A program specialised for plans (issue 49; docs/kernels.md, "A program per plan"). The
 * OpenCL backend may build the kernels with these as compile-time constants, each a
 * superset of what the plans it runs hold (battle_rules_features): the plan-wide flags
 * below, then the activation skills and the passive battleground effects present. The
 * rules read the flags through BATTLE_SIM_FX() and its kind, so that a rule no plan of the
 * program can reach folds away and is not in the binary at all; a plan still decides at
 * run time within them. Unset (the host's build, the general program), every bit is on
 * and the reads are the plain field reads, to the instruction. */
#ifndef BATTLE_K_FX
#define BATTLE_K_FX 0xFFu /* BATTLE_SIM_FX_* */
#endif
#ifndef BATTLE_K_PV
#define BATTLE_K_PV 0xFFu /* BATTLE_SIM_PV_* */
#endif
#ifndef BATTLE_K_RARE
#define BATTLE_K_RARE 0xFFu /* BATTLE_SIM_RARE_* */
#endif
#ifndef BATTLE_K_DEATH
#define BATTLE_K_DEATH 0xFFu /* BATTLE_SIM_DEATH_* */
#endif
#ifndef BATTLE_K_EFFECTS
#define BATTLE_K_EFFECTS 0xFFFFFFFFu /* bit k: passive battleground effect k */
#endif
#ifndef BATTLE_K_ACTS
#define BATTLE_K_ACTS 0xFFFFFFFFFFFFFFFFul /* bit id: activation skill id (enum battle_skill) */
#endif
/* Units a game's row holds in this program: the rule's BATTLE_SIM_ROW, or, for plans
 * whose rows can never hold that many (no Summon, no side that draws its cards: a row holds
 * at most its starting units and the side's entries of its kind), their bound
 * (battle_rules_features), so that a game's state shrinks with its decks. */
#ifndef BATTLE_K_LANES
#define BATTLE_K_LANES BATTLE_SIM_ROW
#endif
#define BATTLE_SIM_LANES BATTLE_K_LANES
/* Units a game's structure row holds in this program, at most BATTLE_SIM_LANES: for the
 * same plans, their own bound on that row (its starting units and its side's entries of
 * that kind: the fortresses and structures of a deck are few). */
#ifndef BATTLE_K_SLANES
#define BATTLE_K_SLANES BATTLE_K_LANES
#endif
#define BATTLE_SIM_SLANES BATTLE_K_SLANES
#if BATTLE_SIM_SLANES > BATTLE_SIM_LANES
#error "a structure row bound above the rows' bound"
#endif
/* Entries (hand and deck) a side's game state holds in this program: the rule's
 * BATTLE_SIM_SEQ, or, for plans whose sides do not draw their cards (their entries are the
 * plan's, n_seq of them), the most any side has (battle_rules_features), so that the
 * per-entry arrays of a game shrink with its decks too. */
#ifndef BATTLE_K_SEQ
#define BATTLE_K_SEQ BATTLE_SIM_SEQ
#endif
#define BATTLE_SIM_ENTRIES    BATTLE_K_SEQ
#define BATTLE_SIM_FX(p)      ((p)->fx & BATTLE_K_FX)
#define BATTLE_SIM_PASSIVE(p) ((p)->passive & BATTLE_K_PV)
#define BATTLE_SIM_RARES(p)   ((p)->rare & BATTLE_K_RARE)
#define BATTLE_SIM_DEATHS(p)  ((p)->death_fx & BATTLE_K_DEATH)
#define BATTLE_SIM_EFFECTS(p) ((p)->passive_on & BATTLE_K_EFFECTS)
/* Whether activation skill `id` may be cast at all (a constant for a constant id). */
#define BATTLE_SIM_ACT_ON(id) ((BATTLE_K_ACTS >> (id)) & 1u)
/* The copy with the rarer rules' and the passive effects' steps, where a plan's p->passive
 * chooses it: every step on the host and in the general program, only the kinds the
 * program's plans have in a specialised one (the host's copies for one kind, in effect). */
#define BATTLE_SIM_PV_ANY (BATTLE_SIM_PV_ALL & BATTLE_K_PV)

/* What an Enhance or Evolve change is (battle_plan_data.mod_flags). ALWAYS: a unit takes it
 * even when it will not act this turn (tuo's skill_predicate: a skill that works without
 * acting: defensive, instant debuffs, triggered ones but Valor). EARLY: an Enhance of
 * Allegiance, Absorb, Stasis or Bravery, cast before a unit's other Enhance skills. */
#define BATTLE_SIM_MOD_ALWAYS 1u
#define BATTLE_SIM_MOD_EARLY  2u

/* An action's skill id (battle_card_data.act_id) with this bit is an allied skill of a plan
 * with Inhibit, whose targets may refuse it: battle_plan marks such actions, so that the
 * skill dispatch picks the copy of the skill's loop that checks, and plans without Inhibit
 * pay nothing for it. */
#define BATTLE_SIM_ACT_REFUSABLE 0x80u

/* Skill triggers (battle_skill_spec.trigger). */
#define BATTLE_SIM_TRIG_ACTIVATE 0
#define BATTLE_SIM_TRIG_PLAY     1
#define BATTLE_SIM_TRIG_ATTACKED 2
#define BATTLE_SIM_TRIG_DEATH    3
/* In battle_card_data.trig, above the trigger bits: the card casts Enhance at its unit's turn
 * start (battle_sim_enhance), so that the turn looks for it only on the cards that do. */
#define BATTLE_SIM_CARD_ENHANCES 0x10u
/* In battle_card_data.trig: the card does something at its unit's turn start besides the
 * delay's and the cooldowns' tick (Barrier, Absorb, Bravery, Valor, an activation Summon),
 * so that battle_sim_tick reads those fields for such cards only (battle_rules_mark_card). */
#define BATTLE_SIM_CARD_TICKS 0x20u

/* Cooldowns: 4 bits per action slot (slot k in bits 4k..4k+3), Flurry's in slot 7 (a card
 * with Flurry has at most 7 activation skills, as a card has at most 8 skills). */
#define BATTLE_SIM_CD_MAX     15
#define BATTLE_SIM_CD_FLURRY  7
#define BATTLE_SIM_PROGENITOR 6 /* the faction every faction filter (y) also takes */

/* ---------------------------------------------------------------------------------------
 * Plan data: plain data with only 8/16-bit fields and fixed arrays, so the host can copy
 * it into one OpenCL buffer and both compilers agree on its layout.
 * ------------------------------------------------------------------------------------- */

/* One card, with its passive skills folded into fields and its activation skills kept in
 * card order (flurry is kept apart: it is resolved after the unit's first action). A value
 * is 16 bits, up to BATTLE_STAT_MAX (battle_rules_skill_x_max): the game's cards reach 300
 * to 999 in the activation skills, Absorb, Refresh and Mark, and an Enhance takes Venom,
 * Leech, Pierce... past 255 (Biocraft's Venom 220 by 90). 8 bits (up to 255) are left to the
 * flags and to the skills whose X is a count a unit keeps in a byte (Evade, Inhibit,
 * Tribute, Payback, Revenge, Flurry) or a value it keeps in one (Sabotage: `sabotaged`):
 * the game's cards stay under 130 there. */
struct battle_card_data {
    clc_i16 attack;
    clc_i16 health;
    clc_u16 absorb;  /* takes X off the skill damage it takes, renewed each own turn start */
    clc_u16 refresh; /* heals X at the end of its own turn */
    clc_u16 mark;    /* after a hit that did damage to an assault, X marks on it, for good */
    clc_u8 type;     /* enum battle_card_type */
    clc_u8 delay;
    clc_u8 faction;     /* 1..6, 0 for the project's own cards (no faction) */
    clc_u8 flurry_c;    /* Flurry's cooldown in own turns, at least 1 */
    clc_u8 trig;        /* bit t set: an action has trigger t (BATTLE_SIM_TRIG_*); and
                           BATTLE_SIM_CARD_ENHANCES, BATTLE_SIM_CARD_TICKS */
    clc_u8 mimic;       /* bit k: Mimic can take action k from the card, for an assault
                           caster (battle_sim_mimicable; a mark: battle_rules_mark_card) */
    clc_u16 summon_act; /* 1 + the card it summons when its delay reaches 0; 0: none */
    clc_u16 armor;
    clc_u16 counter;
    clc_u16 pierce;
    clc_u16 berserk;
    clc_u16 leech;
    clc_u16 poison;
    clc_u16 legion;     /* + X attack damage per other living own assault of its faction */
    clc_u16 coalition;  /* + X attack damage per faction among own living assaults */
    clc_u16 rupture;    /* + X attack damage, and X less damage reduction */
    clc_u16 venom;      /* + X attack damage on a poisoned target; X poison on a hit */
    clc_u16 swipe;      /* X damage to the target's neighbours */
    clc_u16 drain;      /* as Swipe, and heals what the attack and it did */
    clc_u16 hunt;       /* after its attack, X damage to the first living enemy assault */
    clc_u16 allegiance; /* + X attack and max health when its owner plays its faction */
    clc_u16 avenge;     /* + X attack and max health when an own assault dies */
    clc_u16 scavenge;   /* + X max health when any unit dies */
    clc_u16 valor;      /* + X attack on becoming active opposite a stronger assault */
    clc_u16 bravery;    /* as Valor, at each own turn start */
    clc_u16 barrier;    /* + X Protect at each own turn start and when played */
    clc_u16 corrosive;  /* an assault attacking it is corroded by X (battle_sim_corrosion) */
    clc_u16 disease; /* the enemy assault opposite takes X disease each turn (battle_sim_debuffs) */
    clc_u16 subdue; /* an assault attacking it loses X of its permanent gains (battle_sim_subdue) */
    clc_u16 stasis; /* own assaults of its faction entering with a delay are protected by X until
                      they act (battle_sim_stasis) */
    clc_u8 evade;
    clc_u8 wall; /* 1 when the card has Wall */
    clc_u8 flurry;
    clc_u8 flying;   /* 1: dodges an attack with probability 1/2 */
    clc_u8 inhibit;  /* the enemy assault opposite refuses X allied skills (after the play) */
    clc_u8 sabotage; /* the enemy assault opposite casts with X less (battle_sim_debuffs) */
    clc_u8 tribute;  /* an allied skill an own assault casts on it is cast on the caster too,
                        X times between the ends of its own turns (battle_sim_tribute) */
    clc_u8 payback;  /* a hostile skill an enemy assault casts on it is cast back on the caster,
                        X times an enemy turn (battle_sim_payback) */
    clc_u8 revenge;  /* as Payback, on the caster and its two neighbours */
    clc_u8 n_act;
    clc_u8 act_turn;                /* bit k: action k is cast in the unit's turn */
    clc_u8 act_id[BATTLE_SIM_ACTS]; /* enum battle_skill, activation skills only */
    clc_u16 act_x[BATTLE_SIM_ACTS]; /* X; for Summon, the card it brings */
    clc_u8 act_all[BATTLE_SIM_ACTS];
    clc_u8 act_y[BATTLE_SIM_ACTS];    /* faction filter, 0 = any */
    clc_u8 act_n[BATTLE_SIM_ACTS];    /* targets, 0 = one */
    clc_u8 act_c[BATTLE_SIM_ACTS];    /* cooldown in own turns, 0 = none */
    clc_u8 act_trig[BATTLE_SIM_ACTS]; /* BATTLE_SIM_TRIG_* */
};

/* The rarer skills' state of a unit (battle_unit.r): what Mark, Enrage, Entrap, Corrosive,
 * Sabotage, Disease, Tribute, Payback, Revenge, Subdue and Stasis leave on it. A program
 * specialised for plans that can reach none of them leaves it out of the game's units
 * (BATTLE_SIM_UR), so that a unit there is 32 bytes instead of 52. */
struct battle_unit_rare {
    clc_i16 marked;    /* Mark: damage every attack on it adds, for good (assaults only) */
    clc_i16 enraged;   /* Enrage: Berserk it has besides its card's, until its own turn ends */
    clc_i16 entrapped; /* Entrap: Counter it has besides its card's, until the end of the
                          next enemy turn */
    clc_i16 corrode;   /* Corrosive: the X it was corroded by (0: not corroded) */
    clc_i16 corroded; /* Corrosive: the attack its corrosion took so far (`attack` is less by it) */
    clc_i16 diseased; /* Disease: health gains it will still lose (battle_sim_cure) */
    clc_i16 owed_att; /* Subdue: permanent attack gains still owed (battle_sim_gain_attack) */
    clc_i16 owed_hp;  /* Subdue: permanent health gains still owed (battle_sim_gain_hp) */
    clc_i16 stasis;   /* Stasis: the part of `protect` that lasts until it acts */
    clc_u8 sabotaged; /* Sabotage: X less on its skills' X until its own turn ends */
    clc_u8 tributed;  /* Tribute: allied skills it gave back since its own turn last ended */
    clc_u8 paybacked; /* Payback, Revenge: hostile skills it sent back this enemy turn */
    /* Subdue: the attack gains it took so far, the owed part paid included (tuo's
     * min(m_perm_attack_buff, m_subdued)), saturating at 255: corrosion may take that much
     * more than `attack` holds (battle_sim_corrosion). */
    clc_u8 subdued;
};

/* Whether the game's units carry the rarer skills' state (battle_unit.r): always on the
 * host and in the general program; 0 in a program specialised for plans without those
 * skills (battle_rules_features), where every read or write of it is in code that a
 * constant BATTLE_SIM_UR, or a constant the same plans fix, folds away. */
#ifndef BATTLE_K_UNIT_RARE
#define BATTLE_K_UNIT_RARE 1
#endif
#define BATTLE_SIM_UR BATTLE_K_UNIT_RARE
#if !BATTLE_SIM_UR && ((BATTLE_K_PV & BATTLE_SIM_PV_RARE) ||                                       \
                       (BATTLE_K_RARE & (BATTLE_SIM_RARE_SABOTAGE | BATTLE_SIM_RARE_STASIS)))
#error "units without the rarer skills' state in a program whose plans have those skills"
#endif

/* A unit's fields besides the rarer skills' state: the same in the plan's starting rows and
 * in a game's rows, so that a game's unit, with or without that state, begins with them. */
#define BATTLE_SIM_UNIT_FIELDS                                                                     \
    clc_u16 card; /* index into battle_plan_data.cards */                                          \
    clc_u8 delay; /* turns of its owner until it acts; 0 = active */                               \
    clc_u8 flags; /* BATTLE_SIM_ALIVE | JAMMED | ATTACKED */                                       \
    clc_i16 hp;                                                                                    \
    clc_i16 attack;   /* the card's attack plus permanent gains (Berserk, Valor...) */             \
    clc_i16 rally;    /* until the end of its own turn */                                          \
    clc_i16 weaken;   /* until the end of its own next turn */                                     \
    clc_i16 enfeeble; /* until the end of the caster's turn */                                     \
    clc_i16 protect;  /* until the end of the next enemy turn */                                   \
    clc_i16 poison;   /* stacks, taken at the end of its own turns, then halved */                 \
    clc_i16 max_hp;   /* the card's health plus permanent gains (Leech, Fortify...) */             \
    clc_u32 cd;       /* cooldowns (BATTLE_SIM_CD_*) */                                            \
    clc_u8 hits;      /* times it took damage in the current action (Barrier) */                   \
    clc_u8 inhibited; /* allied skills it still refuses (Inhibit) until its own turn ends */       \
    clc_i16 absorb;   /* skill damage it still absorbs until its own next turn starts */           \
    clc_u8 evaded;    /* hostile skills negated by Evade during the current enemy turn */          \
    clc_u8 state;     /* BATTLE_SIM_RUSHED ... (the rarer skills' and the deaths' flags) */

/* One unit on the field: 52 bytes with the rarer skills' state, 32 without. */
struct battle_unit {
    BATTLE_SIM_UNIT_FIELDS
#if BATTLE_SIM_UR
    struct battle_unit_rare r;
#endif
};

/* A unit of the plan's starting rows (battle_side_data): always with the rarer skills'
 * state, as the host lays the plan out; on the host and in the general program the game's
 * unit itself. */
#if BATTLE_SIM_UR
#define BATTLE_SIM_START_UNIT struct battle_unit
#else
struct battle_unit_start {
    BATTLE_SIM_UNIT_FIELDS
    struct battle_unit_rare r;
};
#define BATTLE_SIM_START_UNIT struct battle_unit_start
#endif

/* The rarer skills' state of unit `u`. Where the units have none (BATTLE_SIM_UR 0) a null
 * pointer, only ever in code that BATTLE_SIM_UR folds away: it keeps that code compiling. */
#if BATTLE_SIM_UR
#define BATTLE_SIM_R(u) (&(u)->r)
#else
#define BATTLE_SIM_R(u) ((void)(u), (CLC_PRIVATE struct battle_unit_rare *)0)
#endif

/* One side as prepared on the host. The cards still to play are `seq` entries (a mid-game
 * hand first, then the deck); entry e is card seq_card[e]. Each game shuffles entries
 * [shuf_lo, shuf_hi) and then picks its card among the first `window` remaining entries. */
struct battle_side_data {
    clc_u16 commander; /* card index */
    clc_u8 play;       /* enum battle_play */
    clc_i16 commander_hp;
    clc_u8 n_seq;
    clc_u8 shuf_lo;
    clc_u8 shuf_hi;
    clc_u8 window; /* 1: play the front entry; 3: choose within a hand of three */
    clc_u8 n_structures;
    clc_u8 n_assaults;
    clc_u8 init_died; /* a starting row holds a dead unit: compress after the first turn */
    clc_u8 n_groups;
    clc_u16 seq_card[BATTLE_SIM_SEQ];
    clc_u8 seq_group[BATTLE_SIM_SEQ];   /* priority group (one per distinct card) of entry e */
    clc_u8 group_start[BATTLE_SIM_SEQ]; /* group g's remaining list positions are */
    clc_u8 group_count[BATTLE_SIM_SEQ]; /* group_pos[group_start[g] ..][0 .. group_count[g]) */
    clc_u8 group_pos[BATTLE_SIM_LIST];  /* ascending within each group */
    clc_u16 dominion; /* 1 + the card of a dominion among the starting structures; 0: none */
    /* The fortresses each game shuffles, as tuo's Deck::shuffle shuffles a deck's fortresses
     * (the order of the row decides which Wall is hit first): structures [fort_first,
     * n_structures) once the side has drawn (a dominion, always first, stays);
     * BATTLE_SIM_NONE: none (exact play, a mid-game state). */
    clc_u8 fort_first;
    clc_u16 effects; /* 1 + the card whose actions are the side's battleground effects; 0: none */
    /* The side's passive battleground effects: each one's value (enum battle_passive), 0
     * when off; read only when battle_plan_data.passive is set. */
    clc_i16 passive[BATTLE_PASSIVE__COUNT];
    /* A side that draws its cards each game (battle_sim_deal), as the peer plays a mission
     * or raid: `structures` holds the fixed fortresses and seq_card[0 .. n_fixed) the fixed
     * deck entries; pool k adds pool_amount[k] x pool_reps[k] fortresses (pool_fort) or deck
     * entries, drawn from pool_card[pool_first[k] ..][0 .. pool_n[k]); then `upgrades`
     * level-ups (battle_plan_data.card_up) go to random cards of the side. */
    clc_u8 draw;
    clc_u8 n_fixed;
    clc_u8 n_pools;
    clc_u16 upgrades;
    clc_u8 pool_forts; /* the fortresses the pools add (battle_sim_lost counts them in) */
    clc_u8 pool_fort[BATTLE_SIM_POOLS];
    clc_u8 pool_amount[BATTLE_SIM_POOLS];
    clc_u8 pool_reps[BATTLE_SIM_POOLS];
    clc_u8 pool_n[BATTLE_SIM_POOLS];
    clc_u8 pool_first[BATTLE_SIM_POOLS];
    clc_u16 pool_card[BATTLE_SIM_POOL_CARDS];
    BATTLE_SIM_START_UNIT structures[BATTLE_SIM_ROW]; /* fortresses first */
    BATTLE_SIM_START_UNIT assaults[BATTLE_SIM_ROW];
};

struct battle_plan_data {
    clc_u8 mode;       /* enum battle_mode */
    clc_u8 turn_limit; /* last turn played, 1..200 */
    clc_u8 first_turn; /* 1, or the turn of a mid-game state */
    clc_u16 n_cards;
    clc_u8 death_fx;    /* BATTLE_SIM_DEATH_*: a card has Scavenge or Avenge, or a side Revenge
                           or Virulence: every death
                           has effects */
    clc_u8 fx;          /* BATTLE_SIM_FX_*: skills some card of the table has */
    clc_u8 scoring;     /* enum battle_scoring */
    clc_u8 passive;     /* BATTLE_SIM_PV_*: a card has a rarer skill (Sunder, Mark...), a side
                           a passive battleground effect: the games run the copy of the turn
                           with those rules' steps */
    clc_u8 rare;        /* BATTLE_SIM_RARE_*: rarer skills some card of the table has */
    clc_u32 work_limit; /* BATTLE_SIM_WORK_LIMIT (a test may set less) */
    clc_u32 passive_on; /* bit k: a side has passive battleground effect k (battle_sim_has) */
    /* Enhance and Evolve (BATTLE_SIM_RARE_MOD; battle_mods builds them): a unit they change
     * plays the variant card mod_to[card][m] (its skill raised or swapped) until the end of
     * the next enemy turn, when it goes back to card_base[card]. An Enhance or Evolve
     * action's X is its change m. BATTLE_SIM_CARD_NONE: change m does not apply to the card. */
    clc_u8 n_mods;
    clc_u8 mod_flags[BATTLE_SIM_MODS]; /* BATTLE_SIM_MOD_* */
    clc_u16 card_base[BATTLE_SIM_CARDS];
    clc_u16 mod_to[BATTLE_SIM_CARDS][BATTLE_SIM_MODS];
    /* 1: the job's changes make more variants than the table holds, so they are made during
     * play instead (battle_mods_lazy; 2 in a thread's copy whose table a game filled): the
     * table starts with the job's cards, mod_to holds BATTLE_SIM_CARD_LAZY where a change
     * applies and its variant is not made yet, and each thread plays on its own copy of the
     * plan (battle_plan_game_data). The CPU backend only. The changes themselves (mod_kind,
     * mod_s, mod_s2, mod_x: battle_mods' struct mod) and the changes that can reach each job
     * card (mod_reach, bit m) are kept for that. */
    clc_u8 lazy;
    clc_u8 mod_kind[BATTLE_SIM_MODS];
    clc_u8 mod_s[BATTLE_SIM_MODS];
    clc_u8 mod_s2[BATTLE_SIM_MODS];
    clc_u16 mod_x[BATTLE_SIM_MODS];
    clc_u64 mod_reach[BATTLE_SIM_LAZY_BASES];
    /* The card a level-up makes of each card (its unit's next level), BATTLE_SIM_CARD_NONE at
     * the top: read only by the sides that draw their cards (battle_side_data.upgrades). */
    clc_u16 card_up[BATTLE_SIM_CARDS];
    struct battle_card_data cards[BATTLE_SIM_CARDS];
    struct battle_side_data sides[2];
};

#ifndef __OPENCL_VERSION__
/* The variant change `m` makes of card `card` in plan `p`, a plan made during play
 * (battle_plan_data.lazy), made now and kept in the table: p must be this thread's own copy
 * (battle_plan_game_data), which it writes. When the table is full the unit keeps `card`,
 * *work is set to the plan's work bound (the game ends with the turn) and p->lazy to 2 (the
 * copy is full: the CPU backend plays the game again on a fresh copy). In battle_mods.c. */
clc_u16 battle_mods_lazy(const struct battle_plan_data *p, clc_u32 *work, clc_u16 card, clc_i32 m);
#endif

/* ---------------------------------------------------------------------------------------
 * Game state: everything one game changes. Small enough for private memory (bound asserted
 * on the host: docs/kernels.md).
 * ------------------------------------------------------------------------------------- */

struct battle_side {
    clc_i16 commander_hp;
    clc_u16 commander; /* card index: the plan's, or the one a drawing side's game upgraded */
    clc_u8 n_structures;
    clc_u8 n_assaults;
    clc_u8 head; /* remaining entries are seq[head .. n_seq) */
    clc_u8 n_seq;
    clc_u8 died;          /* a unit of this side died this turn: compress at its end */
    clc_u8 last_played;   /* entry played on this side's latest turn, BATTLE_SIM_NONE if none */
    clc_u8 pending;       /* this side's share of battle_game.pending (at most 2 x 120 flags),
                             so that battle_sim_triggers scans only the sides that have some */
    clc_u32 commander_cd; /* the commander's cooldowns */
    /* BATTLE_SIM_ENTRIES entries: the rule's, or a specialised program's bound. */
    clc_u8 seq[BATTLE_SIM_ENTRIES + 1];
    clc_u8 used[BATTLE_SIM_ENTRIES + 1]; /* list positions consumed per priority group */
    clc_u16 card[BATTLE_SIM_ENTRIES];    /* entry e's card this game (the plan's seq_card, or
                                            what a drawing side drew) */
    /* The rows last: battle_sim_copy copies every field before them whole, the rows' units
     * in play only. BATTLE_SIM_LANES units each: the rule's row, or a specialised program's
     * bound. */
    struct battle_unit structures[BATTLE_SIM_SLANES];
    struct battle_unit assaults[BATTLE_SIM_LANES];
};

struct battle_game {
    struct rng rng;
    clc_u8 turn;     /* the turn being played or about to be played */
    clc_u8 over;     /* 0 while both commanders live; else 1 + the side whose commander fell */
    clc_u16 pending; /* units flagged DYING or FRESH (each flag counts): triggered skills still
                        to be cast; 16 bits, as the four rows' 240 units may carry 480 */
    clc_u8 act;      /* the index of the acting assault's current action (Flurry) */
    clc_u8 hit;      /* a unit with Barrier took damage in the current action */
    clc_u8 ahead;    /* 1 in a look-ahead game of flexible play: every side plays random */
    clc_u8 choice;   /* flexible play: the hand entry the side to move chose this turn */
    clc_u8 resume;   /* 1: the turn stopped before its card (flexible play) and goes on there */
    clc_u8 last;     /* the last turn to play: turn_limit, or 0 once work reached work_limit */
    /* For the scoring modes' count of destroyed units (battle_sim_lost), per side: units
     * Summon put in play, and cards drawn when their row was full (they never enter);
     * both saturate at 255. */
    clc_u8 summoned[2];
    clc_u8 refused[2];
    clc_u32 work; /* work done so far, against battle_plan_data.work_limit */
    /* Bloodlust (a passive battleground effect): the attack damage it adds in the current
     * assault phase, and whether the acting assault has added to it yet. */
    clc_i16 bloodlust;
    clc_u8 lusted;
    /* 1 while the side to move casts its battleground effects: a unit that dies meanwhile
     * sets off its on-death Summon only, and a unit summoned meanwhile casts no on-play
     * skill (battle_sim_triggers; tuo's Fix::death_from_bge, on by default). */
    clc_u8 bge;
    struct battle_side sides[2]; /* last: battle_sim_copy */
};

struct battle_game_result {
    clc_u8 outcome; /* enum battle_sim_outcome */
    clc_u8 turn;    /* the turn the game ended in; turn_limit for a stall at the limit */
    clc_u8 bounded; /* 1: a stall because the game's work reached its bound */
    clc_u8 pad;     /* 0 */
    clc_u16 points; /* under the plan's scoring, 0..BATTLE_SIM_POINTS_MAX */
};

#endif
