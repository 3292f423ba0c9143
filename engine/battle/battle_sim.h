/* SPDX-License-Identifier: MIT */
/* The rules of one battle game, written once for the host (C11) and the kernels (OpenCL C
 * 1.2): the flat plan data a prepared job is read through, the per-game state, and the
 * functions that set a game up and play it turn by turn. No allocation, no library calls,
 * no recursion, no function pointers. Preparing the plan data from a job is battle_plan's
 * work; running many games and counting outcomes is the backends' work.
 * Ownership: every function borrows its pointers for the call only; the plan data is
 * read-only and may be shared by any number of games at once; a game state belongs to the
 * one caller playing it. docs/rules/battle.md describes every rule. */
#ifndef BATTLE_SIM_H
#define BATTLE_SIM_H

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
 * ignore Evade, Protect and Inhibit (battle_sim_skill_as). */
#define BATTLE_SIM_RUSHED     1u
#define BATTLE_SIM_RUSH_DUE   2u
#define BATTLE_SIM_PB_DEATH   4u
#define BATTLE_SIM_OVERLOADED 8u

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
 * card order (flurry is kept apart: it is resolved after the unit's first action). Values
 * are 8 bits but for the activation skills', Absorb's, Refresh's and Mark's, 16 bits up to
 * BATTLE_STAT_MAX: the game's cards reach 300 to 999 there (battle_plan_skill_x_max). */
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
                           BATTLE_SIM_CARD_ENHANCES */
    clc_u8 mimic;       /* bit k: Mimic can take action k from the card, for an assault
                           caster (battle_sim_mimicable; a mark: battle_plan_mark_card) */
    clc_u16 summon_act; /* 1 + the card it summons when its delay reaches 0; 0: none */
    clc_u8 armor;
    clc_u8 counter;
    clc_u8 pierce;
    clc_u8 berserk;
    clc_u8 leech;
    clc_u8 poison;
    clc_u8 evade;
    clc_u8 wall; /* 1 when the card has Wall */
    clc_u8 flurry;
    clc_u8 legion;     /* + X attack damage per other living own assault of its faction */
    clc_u8 coalition;  /* + X attack damage per faction among own living assaults */
    clc_u8 rupture;    /* + X attack damage, and X less damage reduction */
    clc_u8 venom;      /* + X attack damage on a poisoned target; X poison on a hit */
    clc_u8 swipe;      /* X damage to the target's neighbours */
    clc_u8 drain;      /* as Swipe, and heals what the attack and it did */
    clc_u8 hunt;       /* after its attack, X damage to the first living enemy assault */
    clc_u8 allegiance; /* + X attack and max health when its owner plays its faction */
    clc_u8 avenge;     /* + X attack and max health when an own assault dies */
    clc_u8 scavenge;   /* + X max health when any unit dies */
    clc_u8 valor;      /* + X attack on becoming active opposite a stronger assault */
    clc_u8 bravery;    /* as Valor, at each own turn start */
    clc_u8 barrier;    /* + X Protect at each own turn start and when played */
    clc_u8 flying;     /* 1: dodges an attack with probability 1/2 */
    clc_u8 inhibit;    /* the enemy assault opposite refuses X allied skills (after the play) */
    clc_u8 corrosive;  /* an assault attacking it is corroded by X (battle_sim_corrosion) */
    clc_u8 sabotage;   /* the enemy assault opposite casts with X less (battle_sim_debuffs) */
    clc_u8 disease; /* the enemy assault opposite takes X disease each turn (battle_sim_debuffs) */
    clc_u8 tribute; /* an allied skill an own assault casts on it is cast on the caster too,
                       X times between the ends of its own turns (battle_sim_tribute) */
    clc_u8 payback; /* a hostile skill an enemy assault casts on it is cast back on the caster,
                       X times an enemy turn (battle_sim_payback) */
    clc_u8 revenge; /* as Payback, on the caster and its two neighbours */
    clc_u8 subdue;  /* an assault attacking it loses X of its permanent gains (battle_sim_subdue) */
    clc_u8 stasis;  /* own assaults of its faction entering with a delay are protected by X until
                       they act (battle_sim_stasis) */
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

/* One unit on the field. The same layout serves a plan's starting rows and a game's rows. */
struct battle_unit {
    clc_u16 card; /* index into battle_plan_data.cards */
    clc_u8 delay; /* turns of its owner until it acts; 0 = active */
    clc_u8 flags; /* BATTLE_SIM_ALIVE | JAMMED | ATTACKED */
    clc_i16 hp;
    clc_i16 attack;    /* the card's attack plus permanent gains (Berserk, Valor...) */
    clc_i16 rally;     /* until the end of its own turn */
    clc_i16 weaken;    /* until the end of its own next turn */
    clc_i16 enfeeble;  /* until the end of the caster's turn */
    clc_i16 protect;   /* until the end of the next enemy turn */
    clc_i16 poison;    /* stacks, taken at the end of its own turns, then halved */
    clc_i16 max_hp;    /* the card's health plus permanent gains (Leech, Fortify...) */
    clc_u32 cd;        /* cooldowns (BATTLE_SIM_CD_*) */
    clc_u8 hits;       /* times it took damage in the current action (Barrier) */
    clc_u8 inhibited;  /* allied skills it still refuses (Inhibit) until its own turn ends */
    clc_i16 absorb;    /* skill damage it still absorbs until its own next turn starts */
    clc_i16 marked;    /* Mark: damage every attack on it adds, for good (assaults only) */
    clc_i16 enraged;   /* Enrage: Berserk it has besides its card's, until its own turn ends */
    clc_i16 entrapped; /* Entrap: Counter it has besides its card's, until the end of the
                          next enemy turn */
    clc_i16 corrode;   /* Corrosive: the X it was corroded by (0: not corroded) */
    clc_i16 corroded; /* Corrosive: the attack its corrosion took so far (`attack` is less by it) */
    clc_u8 sabotaged; /* Sabotage: X less on its skills' X until its own turn ends */
    clc_u8 state;     /* BATTLE_SIM_RUSHED */
    clc_i16 diseased; /* Disease: health gains it will still lose (battle_sim_cure) */
    clc_u8 tributed;  /* Tribute: allied skills it gave back since its own turn last ended */
    clc_u8 paybacked; /* Payback, Revenge: hostile skills it sent back this enemy turn */
    clc_i16 owed_att; /* Subdue: permanent attack gains still owed (battle_sim_gain_attack) */
    clc_i16 owed_hp;  /* Subdue: permanent health gains still owed (battle_sim_gain_hp) */
    clc_i16 stasis;   /* Stasis: the part of `protect` that lasts until it acts */
    clc_u8 evaded;    /* hostile skills negated by Evade during the current enemy turn */
};

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
    struct battle_unit structures[BATTLE_SIM_ROW]; /* fortresses first */
    struct battle_unit assaults[BATTLE_SIM_ROW];
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
    clc_u8 seq[BATTLE_SIM_SEQ + 1];
    clc_u8 used[BATTLE_SIM_SEQ + 1]; /* list positions consumed per priority group */
    clc_u16 card[BATTLE_SIM_SEQ];    /* entry e's card this game (the plan's seq_card, or
                                        what a drawing side drew) */
    /* The rows last: battle_sim_copy copies every field before them whole, the rows' units
     * in play only. */
    struct battle_unit structures[BATTLE_SIM_ROW];
    struct battle_unit assaults[BATTLE_SIM_ROW];
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
    clc_u8 pad;
    struct battle_side sides[2]; /* last: battle_sim_copy */
};

struct battle_game_result {
    clc_u8 outcome; /* enum battle_sim_outcome */
    clc_u8 turn;    /* the turn the game ended in; turn_limit for a stall at the limit */
    clc_u8 bounded; /* 1: a stall because the game's work reached its bound */
    clc_u8 pad;     /* 0 */
    clc_u16 points; /* under the plan's scoring, 0..BATTLE_SIM_POINTS_MAX */
};

/* ---------------------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------------------- */

CLC_FN clc_i16 battle_sim_sat(clc_i32 v)
{
    return (clc_i16)(v > BATTLE_SIM_STAT_CAP ? BATTLE_SIM_STAT_CAP : v);
}

/* Side s's value of passive battleground effect k (enum battle_passive); 0 when it is off. */
CLC_FN clc_i32 battle_sim_passive(CLC_GLOBAL const struct battle_plan_data *p, int s, clc_u32 k)
{
    /* passive_on says whether either side has it: most plans that read it have none. */
    return (p->passive_on & (1u << k)) ? (clc_i32)p->sides[s].passive[k] : 0;
}

/* Whether a side has one of the passive battleground effects `bits` (BATTLE_SIM_PV bits):
 * tested inline before an effect's helper is called, so that a plan pays for the effects
 * it has, not for all of them (bench/history/2026-11-26.md: 6.5% of a Divert plan's
 * instructions went to helpers that returned at once). */
#define BATTLE_SIM_PV(ID) (1u << BATTLE_PASSIVE_##ID)
CLC_FN int battle_sim_has(CLC_GLOBAL const struct battle_plan_data *p, clc_u32 bits)
{
    return (p->passive_on & bits) != 0;
}

/* The side whose turn `turn` is: side 0 takes the odd turns in fight, side 1 in surge. */
CLC_FN int battle_sim_active(clc_u32 mode, clc_u32 turn)
{
    return (int)(((turn - 1u) & 1u) ^ (mode & 1u));
}

CLC_FN int battle_sim_alive(CLC_PRIVATE const struct battle_unit *u)
{
    return (u->flags & BATTLE_SIM_ALIVE) != 0;
}

/* Attack power: the card's attack + permanent gains + Rally - Weaken, at least 0. */
CLC_FN clc_i32 battle_sim_power(CLC_PRIVATE const struct battle_unit *u)
{
    clc_i32 v = (clc_i32)u->attack + u->rally - u->weaken;
    return v > 0 ? v : 0;
}

/* Cooldown of action slot k, set, and one own turn passing for all slots. */
CLC_FN clc_u32 battle_sim_cd(clc_u32 cd, clc_u32 k)
{
    return (cd >> (4u * k)) & 15u;
}

CLC_FN clc_u32 battle_sim_cd_set(clc_u32 cd, clc_u32 k, clc_u32 v)
{
    return (cd & ~(15u << (4u * k))) | ((v > 15u ? 15u : v) << (4u * k));
}

CLC_FN clc_u32 battle_sim_cd_tick(clc_u32 cd)
{
    /* A 1 in the low bit of every nonzero 4-bit slot: subtracting it borrows from no
     * neighbour. A slot's low three bits plus 7 carry into its high bit (and never out of
     * the slot) when any is set; or'd with the high bit itself, that bit says nonzero. */
    clc_u32 m = ((((cd & 0x77777777u) + 0x77777777u) | cd) & 0x88888888u) >> 3;
    return cd - m;
}

/* Side `s` has `n` more flags pending (fewer, negative): the game's count, which says
 * whether there is anything to resolve, and the side's, which says where to look, move
 * together, here only. */
CLC_FN void battle_sim_pend(CLC_PRIVATE struct battle_game *g, int s, clc_i32 n)
{
    g->pending = (clc_u16)(g->pending + n);
    g->sides[s].pending = (clc_u8)(g->sides[s].pending + n);
}

/* Takes `dmg` (>= 0) health from a unit of side `s`; at 0 it dies but keeps its slot until
 * the end of the turn, and its on-death skills wait for battle_sim_triggers. */
CLC_FN void battle_sim_hurt(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE struct battle_game *g, int s,
                            CLC_PRIVATE struct battle_unit *u, clc_i32 dmg)
{
    clc_i32 hp = (clc_i32)u->hp - dmg;
    if (dmg > 0 && (p->fx & BATTLE_SIM_FX_BARRIER) && p->cards[u->card].barrier) {
        u->hits = (clc_u8)(u->hits < 255 ? u->hits + 1 : 255);
        g->hit = 1;
    }
    if (hp <= 0) {
        u->hp = 0;
        u->flags = (clc_u8)(u->flags & ~BATTLE_SIM_ALIVE);
        g->sides[s].died = 1;
        if (p->death_fx || (p->cards[u->card].trig & (1u << BATTLE_SIM_TRIG_DEATH))) {
            u->flags = (clc_u8)(u->flags | BATTLE_SIM_DYING);
            battle_sim_pend(g, s, 1);
        }
    } else {
        u->hp = (clc_i16)hp;
    }
}

/* A unit of card `card` as it enters play: full health, the card's delay, nothing else. */
CLC_FN void battle_sim_fresh(CLC_GLOBAL const struct battle_plan_data *p,
                             CLC_PRIVATE struct battle_unit *u, clc_u32 card)
{
    u->card = (clc_u16)card;
    u->delay = p->cards[card].delay;
    u->flags = BATTLE_SIM_ALIVE;
    u->evaded = 0;
    u->hp = p->cards[card].health;
    u->attack = p->cards[card].attack;
    u->rally = 0;
    u->weaken = 0;
    u->enfeeble = 0;
    u->protect = 0;
    u->poison = 0;
    u->max_hp = p->cards[card].health;
    u->cd = 0;
    u->hits = 0;
    u->inhibited = 0;
    u->absorb = p->cards[card].absorb;
    u->marked = 0;
    u->enraged = 0;
    u->entrapped = 0;
    u->corrode = 0;
    u->corroded = 0;
    u->sabotaged = 0;
    u->state = 0;
    u->diseased = 0;
    u->tributed = 0;
    u->paybacked = 0;
    u->owed_att = 0;
    u->owed_hp = 0;
    u->stasis = 0;
}

/* Max health: the card's plus permanent gains. */
CLC_FN clc_i32 battle_sim_max_hp(CLC_PRIVATE const struct battle_unit *u)
{
    return u->max_hp;
}

/* Disease: a health gain of X first pays off what the unit is diseased by (tuo's
 * remove_disease); what is left of X. */
CLC_FN clc_i32 battle_sim_cure(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    clc_i32 d = u->diseased < x ? u->diseased : x;
    u->diseased = (clc_i16)(u->diseased - d);
    return x - d;
}

CLC_FN void battle_sim_heal(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    if (u->diseased)
        x = battle_sim_cure(u, x);
    clc_i32 max = battle_sim_max_hp(u);
    clc_i32 hp = (clc_i32)u->hp + x;
    u->hp = (clc_i16)(hp < max ? hp : max);
}

/* A heal that takes place only when the unit is hurt (tuo's can_be_healed checks: Refresh,
 * Drain, Brigade, Unity, Furiosity): at full health it does not pay off Disease either. */
CLC_FN void battle_sim_heal_hurt(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    if (u->hp < battle_sim_max_hp(u))
        battle_sim_heal(u, x);
}

/* battle_sim_gain_hp where Subdue took more than the unit's gains so far: the gain pays that
 * off first, and health stays within the max. Out of line, so that the many inlined gains
 * stay small. */
CLC_NOINLINE void battle_sim_gain_owed(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    clc_i32 d = u->owed_hp < x ? u->owed_hp : x;
    clc_i32 hp = (clc_i32)u->hp + x;
    u->owed_hp = (clc_i16)(u->owed_hp - d);
    u->max_hp = battle_sim_sat((clc_i32)u->max_hp + x - d);
    u->hp = battle_sim_sat(hp < u->max_hp ? hp : u->max_hp);
}

/* A permanent gain of X max health, and as much health (Leech, Fortify, Allegiance,
 * Avenge, Scavenge: the game's ext_hp). */
CLC_FN void battle_sim_gain_hp(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    if (u->diseased)
        x = battle_sim_cure(u, x);
    if (u->owed_hp) {
        battle_sim_gain_owed(u, x);
        return;
    }
    u->max_hp = battle_sim_sat((clc_i32)u->max_hp + x);
    u->hp = battle_sim_sat((clc_i32)u->hp + x);
}

/* A permanent attack gain of X (Berserk, Valor, Bravery, Avenge, Allegiance, the passive
 * effects'): what Subdue still has owed is paid off first. */
CLC_FN void battle_sim_gain_attack(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    if (u->owed_att) {
        clc_i32 d = u->owed_att < x ? u->owed_att : x;
        u->owed_att = (clc_i16)(u->owed_att - d);
        x -= d;
    }
    u->attack = battle_sim_sat((clc_i32)u->attack + x);
}

/* Subdue X of the unit an assault `u` (card `c`) attacks, before its damage (tuo's
 * perform_subdue with the subdue_before_attack rule): the attacker is subdued by X more, for
 * good; its permanent gains of attack and of max health count X less, never below none
 * (its card's values stay): what is left of X is owed by later gains. Health above the
 * new max is lost. Out of line: rare, in the attack's copy with the rarer rules. */
CLC_NOINLINE void battle_sim_subdue(CLC_GLOBAL const struct battle_card_data *c,
                                    CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    /* The attack holds the gains less what corrosion took (battle_sim_corrosion). */
    clc_i32 gain = (clc_i32)u->attack + u->corroded - c->attack;
    clc_i32 t = gain > 0 ? (gain < x ? gain : x) : 0;
    u->attack = (clc_i16)(u->attack - t);
    u->owed_att = battle_sim_sat((clc_i32)u->owed_att + x - t);
    gain = (clc_i32)u->max_hp - c->health;
    t = gain > 0 ? (gain < x ? gain : x) : 0;
    u->max_hp = (clc_i16)(u->max_hp - t);
    u->owed_hp = battle_sim_sat((clc_i32)u->owed_hp + x - t);
    if (u->hp > u->max_hp)
        u->hp = u->max_hp;
}

/* Damage X + Enfeeble - Protect, at least 0, to a unit of side `s` (Strike's formula, also
 * Siege, Mortar, Swipe, Drain, Hunt and Counter); Absorb takes its part of X + Enfeeble
 * first, whatever Protect would leave (as tuo's remove_absorption). Returns the damage. */
CLC_INLINE clc_i32 battle_sim_strike(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s,
                                     CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    clc_i32 d = x + u->enfeeble;
    if (u->absorb) { /* 0 on every unit of a game without Absorb */
        clc_i32 a = u->absorb < d ? u->absorb : d;
        u->absorb = (clc_i16)(u->absorb - a);
        d -= a;
    }
    d -= u->protect;
    if (d <= 0)
        return 0;
    battle_sim_hurt(p, g, s, u, d);
    return d;
}

/* ---------------------------------------------------------------------------------------
 * Setup and card play
 * ------------------------------------------------------------------------------------- */

/**
 * Starts game `game` of the job seeded with `seed` in *g from the plan, without shuffling:
 * each side's entries and fortresses are in plan order (tests inject a shuffle here; a game
 * also needs its fortresses' on-play skills cast, as battle_sim_start does, before it is
 * played).
 */
CLC_FN void battle_sim_setup(CLC_GLOBAL const struct battle_plan_data *p,
                             CLC_PRIVATE struct battle_game *g, clc_u64 seed, clc_u64 game)
{
    rng_init(&g->rng, seed, game);
    g->turn = p->first_turn;
    g->over = 0;
    g->pending = 0;
    g->last = p->turn_limit;
    g->work = 0;
    g->act = 0;
    g->hit = 0;
    g->ahead = 0;
    g->choice = 0;
    g->resume = 0;
    g->summoned[0] = 0;
    g->summoned[1] = 0;
    g->refused[0] = 0;
    g->refused[1] = 0;
    g->bloodlust = 0;
    g->lusted = 0;
    g->pad = 0;
    for (int s = 0; s < 2; s++) {
        CLC_GLOBAL const struct battle_side_data *sd = &p->sides[s];
        CLC_PRIVATE struct battle_side *side = &g->sides[s];
        side->commander_hp = sd->commander_hp;
        side->commander = sd->commander;
        side->n_structures = sd->n_structures;
        side->n_assaults = sd->n_assaults;
        side->head = 0;
        side->n_seq = sd->n_seq;
        side->died = sd->init_died;
        side->last_played = BATTLE_SIM_NONE;
        side->pending = 0;
        side->commander_cd = 0;
        /* The whole arrays, whose lengths the compiler knows: a few vector stores, not a loop
         * per entry (entries past n_seq and n_groups are never read). */
        for (int e = 0; e < BATTLE_SIM_SEQ + 1; e++) {
            side->seq[e] = (clc_u8)e;
            side->used[e] = 0;
        }
        for (int e = 0; e < BATTLE_SIM_SEQ; e++)
            side->card[e] = sd->seq_card[e];
        /* A fresh game's fortresses come flagged FRESH when they have on-play skills:
         * battle_sim_start casts them before the first turn, the first mover's first. */
        for (int i = 0; i < sd->n_structures; i++) {
            side->structures[i] = sd->structures[i];
            if (sd->structures[i].flags & BATTLE_SIM_FRESH)
                battle_sim_pend(g, s, 1);
        }
        for (int i = 0; i < sd->n_assaults; i++)
            side->assaults[i] = sd->assaults[i];
    }
}

/* Side `s`'s fortresses [fort_first, n_structures) in a random order, Fisher-Yates as below:
 * a side with fewer than two draws nothing. Out of line: a few sides have two or more. */
CLC_NOINLINE void battle_sim_shuffle_forts(CLC_GLOBAL const struct battle_plan_data *p,
                                           CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_PRIVATE struct battle_side *side = &g->sides[s];
    int lo = p->sides[s].fort_first;
    for (int i = side->n_structures - 1; i > lo; i--) {
        int j = lo + (int)rng_below(&g->rng, (clc_u32)(i - lo + 1));
        struct battle_unit t = side->structures[i];
        side->structures[i] = side->structures[j];
        side->structures[j] = t;
    }
}

/**
 * Each side, side 0 first, shuffles its fortresses (battle_sim_shuffle_forts, when the plan
 * says so and it has two or more), then its entries [shuf_lo, shuf_hi) with Fisher-Yates
 * from the game's stream: for i from hi - 1 down to lo + 1, j = lo + rng_below(i - lo + 1).
 */
CLC_FN void battle_sim_shuffle(CLC_GLOBAL const struct battle_plan_data *p,
                               CLC_PRIVATE struct battle_game *g)
{
    for (int s = 0; s < 2; s++) {
        CLC_PRIVATE clc_u8 *seq = g->sides[s].seq;
        int lo = p->sides[s].shuf_lo;
        if (p->sides[s].fort_first != BATTLE_SIM_NONE &&
            g->sides[s].n_structures > p->sides[s].fort_first + 1)
            battle_sim_shuffle_forts(p, g, s);
        for (int i = p->sides[s].shuf_hi - 1; i > lo; i--) {
            int j = lo + (int)rng_below(&g->rng, (clc_u32)(i - lo + 1));
            clc_u8 t = seq[i];
            seq[i] = seq[j];
            seq[j] = t;
        }
    }
}

/* Side `s`'s cards pointed at by slot `k` of battle_sim_deal's level-ups: 0 the commander,
 * 1 .. nf the fortresses (fort[]), then the deck entries (the side's card[]). */
CLC_INLINE CLC_PRIVATE clc_u16 *battle_sim_slot(CLC_PRIVATE struct battle_side *side,
                                                CLC_PRIVATE clc_u16 *fort, clc_u32 nf, clc_u32 k)
{
    return k == 0 ? &side->commander : k <= nf ? &fort[k - 1] : &side->card[k - 1 - nf];
}

/* Side `s` draws its cards for this game (battle_side_data.draw), from the game's stream, as
 * tuo's Deck::shuffle does before it shuffles: each pool in order takes pool_amount[k]
 * distinct entries of its list (a partial Fisher-Yates: for i from 0, j = i +
 * rng_below(n - i)), pool_reps[k] times over, as fortresses after the fixed ones or deck
 * entries after the fixed ones; then each of the `upgrades` level-ups picks one of the
 * side's cards (commander, fortresses, deck entries) uniformly, and a card at its top
 * level leaves the draw without using the level-up. The fortresses enter fresh, their
 * on-play skills due on the first turn as the plan's fixed ones are. Out of line: rare. */
CLC_NOINLINE void battle_sim_deal(CLC_GLOBAL const struct battle_plan_data *p,
                                  CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_GLOBAL const struct battle_side_data *sd = &p->sides[s];
    CLC_PRIVATE struct battle_side *side = &g->sides[s];
    clc_u16 fort[BATTLE_SIM_ROW];
    clc_u8 slot[1 + BATTLE_SIM_ROW + BATTLE_SIM_SEQ];
    clc_u32 nf = 0, ne = sd->n_fixed, n = 0, points = sd->upgrades;
    for (clc_u32 i = 0; i < side->n_structures; i++) {
        if (side->structures[i].flags & BATTLE_SIM_FRESH)
            battle_sim_pend(g, s, -1);
        fort[nf++] = side->structures[i].card;
    }
    for (clc_u32 k = 0; k < sd->n_pools; k++) {
        clc_u16 list[BATTLE_SIM_POOL_CARDS];
        clc_u32 m = sd->pool_n[k];
        clc_u32 a = sd->pool_amount[k] < m ? sd->pool_amount[k] : m; /* the plan's bound */
        for (clc_u32 i = 0; i < m; i++)
            list[i] = sd->pool_card[sd->pool_first[k] + i];
        for (clc_u32 i = 0; i < a; i++) {
            clc_u32 j = i + rng_below(&g->rng, m - i);
            clc_u16 t = list[i];
            list[i] = list[j];
            list[j] = t;
        }
        for (clc_u32 r = 0; r < sd->pool_reps[k]; r++)
            for (clc_u32 i = 0; i < a; i++) {
                if (sd->pool_fort[k])
                    fort[nf++] = list[i];
                else
                    side->card[ne++] = list[i];
            }
    }
    for (clc_u32 k = 0; k < 1 + nf + ne; k++)
        slot[n++] = (clc_u8)k;
    while (points && n) {
        clc_u32 i = rng_below(&g->rng, n);
        CLC_PRIVATE clc_u16 *c = battle_sim_slot(side, fort, nf, slot[i]);
        if (p->card_up[*c] == BATTLE_SIM_CARD_NONE) {
            for (; i + 1 < n; i++)
                slot[i] = slot[i + 1];
            n--;
            continue;
        }
        *c = p->card_up[*c];
        points--;
    }
    side->commander_hp = p->cards[side->commander].health;
    side->n_structures = (clc_u8)nf;
    for (clc_u32 i = 0; i < nf; i++) {
        battle_sim_fresh(p, &side->structures[i], fort[i]);
        side->structures[i].protect = p->cards[fort[i]].barrier;
        if (p->cards[fort[i]].trig & (1u << BATTLE_SIM_TRIG_PLAY)) {
            side->structures[i].flags |= BATTLE_SIM_FRESH;
            battle_sim_pend(g, s, 1);
        }
    }
}

/** Starts game `game` in *g: battle_sim_setup, each side that draws its cards draws them
 * (battle_sim_deal, side 0 first), then battle_sim_shuffle. */
CLC_FN void battle_sim_init(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE struct battle_game *g, clc_u64 seed, clc_u64 game)
{
    battle_sim_setup(p, g, seed, game);
    for (int s = 0; s < 2; s++)
        if (p->sides[s].draw)
            battle_sim_deal(p, g, s);
    battle_sim_shuffle(p, g);
}

/** The current ordered-play priority of entry e: the earliest list position of its card
 * that no copy has consumed yet. */
CLC_FN clc_u32 battle_sim_priority(CLC_GLOBAL const struct battle_side_data *sd,
                                   CLC_PRIVATE const struct battle_side *side, clc_u32 e)
{
    clc_u32 grp = sd->seq_group[e];
    clc_u32 k = side->used[grp];
    if (k >= sd->group_count[grp])
        return BATTLE_SIM_PRIO_NONE;
    return sd->group_pos[sd->group_start[grp] + k];
}

/* Whether flexible side `s` has a choice to look ahead for this turn: up to turn
 * BATTLE_SIM_FLEX_TURNS, a hand of at least two cards that are not all the same card. */
CLC_FN int battle_sim_flex_due(CLC_GLOBAL const struct battle_plan_data *p,
                               CLC_PRIVATE const struct battle_game *g, int s)
{
    CLC_GLOBAL const struct battle_side_data *sd = &p->sides[s];
    CLC_PRIVATE const struct battle_side *side = &g->sides[s];
    clc_u32 head = side->head;
    clc_u32 left = (clc_u32)side->n_seq - head;
    clc_u32 k = left < sd->window ? left : sd->window;
    if (k < 2 || g->turn > BATTLE_SIM_FLEX_TURNS)
        return 0;
    for (clc_u32 j = 1; j < k; j++)
        if (side->card[side->seq[head + j]] != side->card[side->seq[head]])
            return 1;
    return 0;
}

/** Takes the entry side `s` plays this turn out of its remaining entries and returns it,
 * or BATTLE_SIM_NONE when none remain. random: uniform within the window (the front entry
 * for a fresh game); ordered: best priority within the hand of three, first on ties;
 * exact: the front entry; flexible: g->choice, which trades places with the front entry
 * (as tuo swaps them). In a look-ahead game every side takes the front entry (ordered play
 * included: tuo plays both decks random there; random and flexible entries are shuffled). */
CLC_FN clc_u32 battle_sim_select(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_GLOBAL const struct battle_side_data *sd = &p->sides[s];
    CLC_PRIVATE struct battle_side *side = &g->sides[s];
    clc_u32 head = side->head;
    clc_u32 left = (clc_u32)side->n_seq - head;
    clc_u32 k = left < sd->window ? left : sd->window;
    clc_u32 pick = 0;
    clc_u32 e;
    if (left == 0)
        return BATTLE_SIM_NONE;
    if (sd->play == BATTLE_PLAY_ORDERED && !g->ahead) {
        clc_u32 best = battle_sim_priority(sd, side, side->seq[head]);
        for (clc_u32 i = 1; i < k; i++) {
            clc_u32 pr = battle_sim_priority(sd, side, side->seq[head + i]);
            if (pr < best) {
                best = pr;
                pick = i;
            }
        }
    } else if (sd->play == BATTLE_PLAY_RANDOM && k > 1) {
        pick = rng_below(&g->rng, k);
    } else if (sd->play == BATTLE_PLAY_FLEX && k > 1) {
        clc_u8 t = side->seq[head + g->choice];
        side->seq[head + g->choice] = side->seq[head];
        side->seq[head] = t;
    }
    e = side->seq[head + pick];
    /* Close the gap from the front: the entries before the pick move one place back. */
    for (clc_u32 i = pick; i > 0; i--)
        side->seq[head + i] = side->seq[head + i - 1];
    side->head = (clc_u8)(head + 1);
    side->used[sd->seq_group[e]]++;
    return e;
}

/* ---------------------------------------------------------------------------------------
 * Activation skills
 * ------------------------------------------------------------------------------------- */

/* True when a hostile skill aimed at `u` is negated by its Evade (and counts the use). */
CLC_INLINE int battle_sim_evades(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_unit *u)
{
    if (u->evaded < p->cards[u->card].evade) {
        u->evaded++;
        return 1;
    }
    return 0;
}

/* Facts of skill `id` from the skill table (battle_skills.h). */
CLC_FN int battle_sim_hostile(clc_u32 id)
{
    switch (id) {
#define BATTLE_SIM_HOSTILE_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)    \
    case BATTLE_SKILL_##ID:                                                                        \
        return HOSTILE;
        BATTLE_SKILL_TABLE(BATTLE_SIM_HOSTILE_)
#undef BATTLE_SIM_HOSTILE_
    default:
        return 0;
    }
}

CLC_FN int battle_sim_row(clc_u32 id)
{
    switch (id) {
#define BATTLE_SIM_ROW_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)        \
    case BATTLE_SKILL_##ID:                                                                        \
        return BATTLE_ROW_##ROW;
        BATTLE_SKILL_TABLE(BATTLE_SIM_ROW_)
#undef BATTLE_SIM_ROW_
    default:
        return BATTLE_ROW_NONE;
    }
}

CLC_FN clc_u32 battle_sim_opts(clc_u32 id)
{
    switch (id) {
#define BATTLE_SIM_OPTS_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)       \
    case BATTLE_SKILL_##ID:                                                                        \
        return OPTS;
        BATTLE_SKILL_TABLE(BATTLE_SIM_OPTS_)
#undef BATTLE_SIM_OPTS_
    default:
        return 0;
    }
}

CLC_FN int battle_sim_when(clc_u32 id)
{
    switch (id) {
#define BATTLE_SIM_WHEN_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)       \
    case BATTLE_SKILL_##ID:                                                                        \
        return BATTLE_WHEN_##WHEN;
        BATTLE_SKILL_TABLE(BATTLE_SIM_WHEN_)
#undef BATTLE_SIM_WHEN_
    default:
        return BATTLE_WHEN_ALIVE;
    }
}

/* Whether unit `u`, on the side whose turn it is (`active`) or the other, acts later in
 * this turn: at delay 0, not jammed, its turn in the row not over, and not acting now
 * unless Flurry leaves it actions (tuo's will_activate_this_turn). `act` is the acting
 * unit's current action index. */
CLC_INLINE int battle_sim_acts_later(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE const struct battle_unit *u, clc_u32 act)
{
    /* One expression without branches (see battle_sim_valid_on). */
    return (u->delay == 0) & ((u->flags & (BATTLE_SIM_JAMMED | BATTLE_SIM_ATTACKED)) == 0) &
           (((u->flags & BATTLE_SIM_ACTING) == 0) | (act < p->cards[u->card].flurry));
}

/* What Overload would help in unit `u` (tuo's skill_predicate<overload>): 2 when it has a
 * hostile activation skill off cooldown (Evade and Protect), 1 when it has only allied ones
 * (Mend, Fortify, Summon and Enhance aside: Inhibit), else 0. */
CLC_FN int battle_sim_ol_kind(CLC_GLOBAL const struct battle_plan_data *p,
                              CLC_PRIVATE const struct battle_unit *u)
{
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
    int kind = 0;
    for (clc_u32 k = 0; k < c->n_act; k++) {
        clc_u32 id = c->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE;
        if (c->act_trig[k] != BATTLE_SIM_TRIG_ACTIVATE || (u->cd && battle_sim_cd(u->cd, k)))
            continue;
        if (battle_sim_hostile(id))
            return 2;
        /* Enhance is none of tuo's activation skills: it is cast at turn start. */
        if (id != BATTLE_SKILL_MEND && id != BATTLE_SKILL_FORTIFY && id != BATTLE_SKILL_SUMMON &&
            id != BATTLE_SKILL_ENHANCE)
            kind = 1;
    }
    return kind;
}

/* Whether unit `u` is a valid target of skill `id` by the skill's target condition. The
 * conditions that look ahead depend on whose turn it is: a skill cast on the side whose
 * turn it is (`active`: Weaken or Jam cast on an attacker by a triggered skill of the
 * defender, Rally cast on the attacker's own units) looks at this turn, one cast on the
 * other side at that side's next turn. `act`: see battle_sim_acts_later. */
CLC_INLINE int battle_sim_valid_on(CLC_GLOBAL const struct battle_plan_data *p, clc_u32 id,
                                   CLC_PRIVATE const struct battle_unit *u, int active, clc_u32 act)
{
    /* Each condition but Overload's is one expression without branches: the target loops
     * test every unit of a row, and the outcomes (a unit's health, delay, Jam) are what a
     * branch predictor cannot learn (bench/history/2026-11-28.md, "Branches a predictor
     * cannot learn": faster on the CPU for a few percent more instructions). */
    clc_u32 f = u->flags, d = u->delay;
    int alive = (f & BATTLE_SIM_ALIVE) != 0;
    /* it acts at the other side's next turn (as tuo: a jammed unit will not act) */
    int next = (d <= 1u) & ((f & BATTLE_SIM_JAMMED) == 0);
    switch (battle_sim_when(id)) {
    case BATTLE_WHEN_HITS:
    case BATTLE_WHEN_ACTS: {
        int ok = alive;
        if (battle_sim_when(id) == BATTLE_WHEN_HITS)
            ok &= battle_sim_power(u) != 0;
        if (!active)
            return ok & next;
        return ok & battle_sim_acts_later(p, u, act);
    }
    case BATTLE_WHEN_DAMAGED:
        return alive & (u->hp < battle_sim_max_hp(u));
    case BATTLE_WHEN_FIGHTS: /* Enrage: not the unit acting now (tuo's m_step) */
        if (!active)
            return alive & (battle_sim_power(u) != 0) & next;
        return alive & (battle_sim_power(u) != 0) & (d == 0u) &
               ((f & (BATTLE_SIM_JAMMED | BATTLE_SIM_ATTACKED | BATTLE_SIM_ACTING)) == 0);
    case BATTLE_WHEN_DELAYED:
        return alive & (d >= 1u);
    case BATTLE_WHEN_OVERLOAD: /* on either side (tuo's skill_check<overload>) */
        return alive && d == 0u && !(f & (BATTLE_SIM_JAMMED | BATTLE_SIM_ATTACKED)) &&
               !(u->state & BATTLE_SIM_OVERLOADED) && battle_sim_ol_kind(p, u);
    case BATTLE_WHEN_READY: /* Rally: a sundered unit takes none (tuo's skill_check) */
        if (!active)
            return alive & (d <= 1u) & ((f & (BATTLE_SIM_JAMMED | BATTLE_SIM_SUNDERED)) == 0);
        return alive & (d == 0u) &
               ((f & (BATTLE_SIM_JAMMED | BATTLE_SIM_ATTACKED | BATTLE_SIM_SUNDERED)) == 0);
    default:
        return alive;
    }
}

/* The usual case: hostile skills aimed at the side whose turn it is not, allied ones at
 * the side whose turn it is. */
CLC_FN int battle_sim_valid(CLC_GLOBAL const struct battle_plan_data *p, clc_u32 id,
                            CLC_PRIVATE const struct battle_unit *u)
{
    return battle_sim_valid_on(p, id, u, !battle_sim_hostile(id), 0);
}

/* What battle_sim_mod_ok (below) tests for a change `m` of the plan, `always` its
 * BATTLE_SIM_MOD_ALWAYS: one expression without branches, as the target loop of Enhance
 * and Evolve tests every unit of a row (see battle_sim_valid_on). */
CLC_FN clc_u32 battle_sim_mod_takes(CLC_GLOBAL const struct battle_plan_data *p,
                                    CLC_PRIVATE const struct battle_unit *u, clc_i32 m,
                                    clc_u32 always)
{
    return (clc_u32)(p->mod_to[u->card][m] != BATTLE_SIM_CARD_NONE) &
           (always | ((u->delay == 0) & ((u->flags & BATTLE_SIM_JAMMED) == 0)));
}

/* Whether Enhance or Evolve change `m` (the action's X) applies to unit `u` now (tuo's
 * skill_predicate<enhance> and <evolve>): its card has a variant for it (it has the skill,
 * and for Evolve not the new one), and it acts this turn (delay 0, not jammed) unless the
 * change works without acting (BATTLE_SIM_MOD_ALWAYS). An Enhance that Evolve took away has
 * change BATTLE_SIM_NONE: it applies to no one. */
CLC_FN int battle_sim_mod_ok(CLC_GLOBAL const struct battle_plan_data *p,
                             CLC_PRIVATE const struct battle_unit *u, clc_i32 m)
{
    if (m < 0 || m >= (clc_i32)p->n_mods)
        return 0;
    return (int)battle_sim_mod_takes(p, u, m, (p->mod_flags[m] & BATTLE_SIM_MOD_ALWAYS) != 0);
}

CLC_INLINE void battle_sim_apply(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_game *g, int ts, clc_u32 id, clc_i32 x,
                                 CLC_PRIVATE struct battle_unit *u)
{
    clc_i32 d;
    switch (id) {
    case BATTLE_SKILL_STRIKE:
    case BATTLE_SKILL_SIEGE:
        battle_sim_strike(p, g, ts, u, x);
        break;
    case BATTLE_SKILL_MORTAR:
        /* X on a structure; on an assault (no structure to aim at) half, rounded up. */
        battle_sim_strike(p, g, ts, u, p->cards[u->card].type == BATTLE_ASSAULT ? (x + 1) / 2 : x);
        break;
    case BATTLE_SKILL_MEND:
        battle_sim_heal(u, x);
        break;
    case BATTLE_SKILL_FORTIFY:
        battle_sim_gain_hp(u, x);
        break;
    case BATTLE_SKILL_ENFEEBLE:
        u->enfeeble = battle_sim_sat((clc_i32)u->enfeeble + x);
        break;
    case BATTLE_SKILL_SUNDER: /* Weaken X besides */
    case BATTLE_SKILL_WEAKEN:
        if (id == BATTLE_SKILL_SUNDER)
            u->flags = (clc_u8)(u->flags | BATTLE_SIM_SUNDERED);
        /* As tuo: it takes at most the current power, so a later Rally still counts. */
        d = battle_sim_power(u);
        u->weaken = battle_sim_sat((clc_i32)u->weaken + (x < d ? x : d));
        break;
    case BATTLE_SKILL_JAM:
        u->flags = (clc_u8)(u->flags | BATTLE_SIM_JAMMED);
        break;
    case BATTLE_SKILL_HEAL:
        battle_sim_heal(u, x);
        break;
    case BATTLE_SKILL_RALLY:
        u->rally = battle_sim_sat((clc_i32)u->rally + x);
        break;
    case BATTLE_SKILL_PROTECT:
        u->protect = battle_sim_sat((clc_i32)u->protect + x);
        break;
    case BATTLE_SKILL_ENRAGE:
        u->enraged = battle_sim_sat((clc_i32)u->enraged + x);
        /* Furiosity (the passive effect of the side whose turn it is): it heals X too. */
        if (battle_sim_has(p, BATTLE_SIM_PV(FURIOSITY)) &&
            battle_sim_passive(p, battle_sim_active(p->mode, g->turn), BATTLE_PASSIVE_FURIOSITY))
            battle_sim_heal_hurt(u, x);
        break;
    case BATTLE_SKILL_ENTRAP:
        u->entrapped = battle_sim_sat((clc_i32)u->entrapped + x);
        break;
    case BATTLE_SKILL_OVERLOAD:
        u->state = (clc_u8)(u->state | BATTLE_SIM_OVERLOADED);
        break;
    case BATTLE_SKILL_ENHANCE: /* the unit plays the variant of its card (battle_mods) */
    case BATTLE_SKILL_EVOLVE:
        if (x >= 0 && x < (clc_i32)p->n_mods && p->mod_to[u->card][x] != BATTLE_SIM_CARD_NONE) {
            clc_u16 to = p->mod_to[u->card][x];
#ifndef __OPENCL_VERSION__
            /* A plan made during play exists on the CPU backend only (battle_plan_data.lazy). */
            if (to == BATTLE_SIM_CARD_LAZY)
                to = battle_mods_lazy(p, &g->work, u->card, x);
#endif
            u->card = to;
        }
        break;
    case BATTLE_SKILL_RUSH: /* a delay reaching 0 sets off what the turn start's would: */
        u->delay = (clc_u8)(x < u->delay ? u->delay - x : 0);
        if (u->delay == 0 && (p->cards[u->card].valor || p->cards[u->card].summon_act))
            u->state = (clc_u8)(u->state | BATTLE_SIM_RUSH_DUE); /* battle_sim_rush */
        break;
    default:
        break;
    }
}

/* Keeps `n` (at least 1) of the `nc` candidates `cand` (lanes, ascending), drawn without
 * repetition from the game's stream, in lane order; all of them when n >= nc. One
 * candidate draws nothing; n = 1 draws one rng_below(nc), as before options existed.
 * Returns how many are kept. */
CLC_INLINE clc_u32 battle_sim_draw(CLC_PRIVATE struct battle_game *g, CLC_PRIVATE clc_u8 *cand,
                                   clc_u32 nc, clc_u32 n)
{
    if (n < 1)
        n = 1;
    if (n >= nc)
        return nc;
    if (n == 1) {
        cand[0] = cand[rng_below(&g->rng, nc)];
        return 1;
    }
    /* A partial Fisher-Yates draw, then lane order. */
    for (clc_u32 i = 0; i < n; i++) {
        clc_u32 j = i + rng_below(&g->rng, nc - i);
        clc_u8 t = cand[i];
        cand[i] = cand[j];
        cand[j] = t;
    }
    for (clc_u32 i = 1; i < n; i++)
        for (clc_u32 j = i; j > 0 && cand[j - 1] > cand[j]; j--) {
            clc_u8 t = cand[j];
            cand[j] = cand[j - 1];
            cand[j - 1] = t;
        }
    return n;
}

/* Whether a unit of faction `f` passes a skill's faction filter `y` (not 0): its faction,
 * or the Progenitor faction, which every filter takes. One expression without branches: the
 * target loops add it to their count. */
CLC_FN clc_u32 battle_sim_faction_ok(clc_u32 f, clc_u32 y)
{
    return (clc_u32)((f == y) | (f == BATTLE_SIM_PROGENITOR));
}

/* Metamorphosis or Megamorphosis (passive battleground effects of the side whose turn it
 * is): faction filters (y) take every unit. */
CLC_FN int battle_sim_morph(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE const struct battle_game *g)
{
    int tap = battle_sim_active(p->mode, g->turn);
    return battle_sim_passive(p, tap, BATTLE_PASSIVE_METAMORPHOSIS) ||
           battle_sim_passive(p, tap, BATTLE_PASSIVE_MEGAMORPHOSIS);
}

/* Mend's or Fortify's (`id`) candidates with Critical Reach (a passive battleground effect
 * of the side whose turn it is): the valid units of faction `y` (0: any) among the two
 * lanes on each side of `lane` in `row` (nrow units), in lane order, into `cand`; returns
 * how many. */
CLC_NOINLINE clc_u32 battle_sim_reach(CLC_GLOBAL const struct battle_plan_data *p,
                                      CLC_PRIVATE const struct battle_game *g, clc_u32 id,
                                      CLC_PRIVATE const struct battle_unit *row, clc_u32 nrow,
                                      clc_i32 lane, clc_u32 y, int active, CLC_PRIVATE clc_u8 *cand)
{
    clc_u32 nc = 0;
    for (clc_i32 i = lane - 2; i <= lane + 2 && i < (clc_i32)nrow; i++) {
        CLC_PRIVATE const struct battle_unit *u = &row[i < 0 ? 0 : i];
        clc_u32 f;
        if (i < 0 || i == lane || !battle_sim_alive(u))
            continue;
        f = p->cards[u->card].faction;
        if (y && !battle_sim_faction_ok(f, y) && !battle_sim_morph(p, g))
            continue;
        if (battle_sim_valid_on(p, id, u, active, g->act))
            cand[nc++] = (clc_u8)i;
    }
    return nc;
}

/* Iron Will (a passive battleground effect of the side whose turn it is): Jam and Weaken do
 * not take units with Armor. Drops those from the nc candidates `cand` (lanes of `row`),
 * keeping the order; returns how many are left. */
CLC_NOINLINE clc_u32 battle_sim_iron(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE const struct battle_unit *row,
                                     CLC_PRIVATE clc_u8 *cand, clc_u32 nc)
{
    clc_u32 n = 0;
    for (clc_u32 i = 0; i < nc; i++)
        if (!p->cards[row[cand[i]].card].armor)
            cand[n++] = cand[i];
    return n;
}

/* Zealot's Preservation (a passive battleground effect of side `tap`, whose turn it is): a
 * Heal X that an assault casts also gives its target (X + 1) / 2 Protect. */
CLC_NOINLINE void battle_sim_zealot(CLC_GLOBAL const struct battle_plan_data *p, int tap,
                                    CLC_GLOBAL const struct battle_card_data *c, clc_i32 x,
                                    CLC_PRIVATE struct battle_unit *u)
{
    if (c->type == BATTLE_ASSAULT && battle_sim_passive(p, tap, BATTLE_PASSIVE_ZEALOTSPRESERVATION))
        u->protect = battle_sim_sat((clc_i32)u->protect + (x + 1) / 2);
}

/* Divert (a passive battleground effect of the side whose turn it is): each of the `n`
 * applications of allied skill `id` X that Inhibit refused goes instead to the side whose
 * turn it is not (tuo's perform_targetted_allied_fast selects it as from that side's
 * commander, whoever cast it): to one unit drawn among those the skill could take there, of
 * any faction; Mend and Fortify take every such unit next to lane 0 (two lanes with
 * Critical Reach), as around a commander. A unit there that refuses allied skills uses up
 * one of its count instead. `c`: the caster's card (Zealot's Preservation adds to a Heal
 * an assault casts), NULL for a commander. */
CLC_NOINLINE void battle_sim_divert(CLC_GLOBAL const struct battle_plan_data *p,
                                    CLC_PRIVATE struct battle_game *g, clc_u32 id, clc_i32 x,
                                    CLC_GLOBAL const struct battle_card_data *c, clc_u32 n)
{
    int tap = battle_sim_active(p->mode, g->turn);
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - tap];
    int adjacent = id == BATTLE_SKILL_MEND || id == BATTLE_SKILL_FORTIFY;
    clc_u8 cand[BATTLE_SIM_ROW];
    if (!battle_sim_passive(p, tap, BATTLE_PASSIVE_DIVERT))
        return;
    for (clc_u32 k = 0; k < n; k++) {
        clc_u32 nc = 0;
        if (adjacent && battle_sim_passive(p, tap, BATTLE_PASSIVE_CRITICALREACH)) {
            nc = battle_sim_reach(p, g, id, en->assaults, en->n_assaults, 0, 0, 0, cand);
        } else {
            for (clc_u32 i = adjacent ? 1 : 0; i < en->n_assaults && (!adjacent || i < 2); i++)
                if (battle_sim_valid_on(p, id, &en->assaults[i], 0, g->act) &&
                    (battle_sim_when(id) != BATTLE_WHEN_MOD ||
                     battle_sim_mod_ok(p, &en->assaults[i], x)))
                    cand[nc++] = (clc_u8)i;
        }
        if (!adjacent && nc > 1) {
            cand[0] = cand[rng_below(&g->rng, nc)];
            nc = 1;
        }
        for (clc_u32 i = 0; i < nc; i++) {
            CLC_PRIVATE struct battle_unit *u = &en->assaults[cand[i]];
            if ((p->fx & BATTLE_SIM_FX_INHIBIT) && u->inhibited) {
                u->inhibited--;
                continue;
            }
            battle_sim_apply(p, g, 1 - tap, id, x, u);
            if (id == BATTLE_SKILL_HEAL && c)
                battle_sim_zealot(p, tap, c, x, u);
        }
    }
}

/* Turning Tides (a passive battleground effect of the side whose turn it is): after Weaken
 * of side `s` took at most X attack from one target, side `s`'s commander casts Rally X on
 * one of its assaults that will still attack this turn, drawn at random, or on every one
 * when the Weaken was `all` (Inhibit refuses it, as any allied skill). */
CLC_NOINLINE void battle_sim_tides(CLC_GLOBAL const struct battle_plan_data *p,
                                   CLC_PRIVATE struct battle_game *g, int s, clc_i32 x, clc_u32 all)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    int tap = battle_sim_active(p->mode, g->turn);
    clc_u8 cand[BATTLE_SIM_ROW];
    clc_u32 nc = 0, refused = 0;
    if (!battle_sim_passive(p, tap, BATTLE_PASSIVE_TURNINGTIDES))
        return;
    for (clc_u32 i = 0; i < me->n_assaults; i++)
        if (battle_sim_valid_on(p, BATTLE_SKILL_RALLY, &me->assaults[i], s == tap, g->act))
            cand[nc++] = (clc_u8)i;
    if (!nc)
        return;
    if (!all) {
        cand[0] = cand[nc > 1 ? rng_below(&g->rng, nc) : 0];
        nc = 1;
    }
    for (clc_u32 i = 0; i < nc; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->assaults[cand[i]];
        if ((p->fx & BATTLE_SIM_FX_INHIBIT) && u->inhibited) {
            u->inhibited--;
            refused++;
            continue;
        }
        u->rally = battle_sim_sat((clc_i32)u->rally + x);
    }
    if (refused)
        battle_sim_divert(p, g, BATTLE_SKILL_RALLY, x, 0, refused);
}

/* Tribute X of unit `u` of side `s`, just given allied skill `id` X by the own assault at
 * `lane` (card `c`): the skill is cast on the caster too, at most X times between the ends
 * of u's own turns, when the caster is another unit and could take it (tuo's
 * check_and_perform_skill: Heal and Mend a damaged caster, Rally one not sundered; Rush,
 * Enhance and Evolve are never given back). Only the copies with the rarer rules (pv) call it. */
CLC_NOINLINE void battle_sim_tribute(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                     clc_u32 id, clc_i32 x,
                                     CLC_GLOBAL const struct battle_card_data *c,
                                     CLC_PRIVATE struct battle_unit *u)
{
    CLC_PRIVATE struct battle_unit *a;
    if (lane < 0 || c->type != BATTLE_ASSAULT || id == BATTLE_SKILL_RUSH ||
        battle_sim_when(id) == BATTLE_WHEN_MOD)
        return;
    a = &g->sides[s].assaults[lane];
    if (a == u || u->tributed >= p->cards[u->card].tribute || !battle_sim_alive(a))
        return;
    if ((id == BATTLE_SKILL_HEAL || id == BATTLE_SKILL_MEND) && a->hp >= battle_sim_max_hp(a))
        return;
    if (id == BATTLE_SKILL_RALLY && (a->flags & BATTLE_SIM_SUNDERED))
        return;
    u->tributed++;
    battle_sim_apply(p, g, s, id, x, a);
    if (id == BATTLE_SKILL_HEAL)
        battle_sim_zealot(p, battle_sim_active(p->mode, g->turn), c, x, a);
}

/* Hostile skill `id` X of an overloaded caster on unit `u` of side `ts`: battle_sim_apply
 * with u's Protect (Stasis included) counting for nothing (tuo's `src->m_overloaded ? 0 :
 * protected_value()` in Strike's, Siege's and Mortar's damage). Out of line: rare. */
CLC_NOINLINE void battle_sim_apply_overloaded(CLC_GLOBAL const struct battle_plan_data *p,
                                              CLC_PRIVATE struct battle_game *g, int ts, clc_u32 id,
                                              clc_i32 x, CLC_PRIVATE struct battle_unit *u)
{
    clc_i16 pr = u->protect;
    u->protect = 0;
    battle_sim_apply(p, g, ts, id, x, u);
    u->protect = pr;
}

/* Whether a living assault of `side` is inhibited (Overload's allied case). */
CLC_FN int battle_sim_any_inhibited(CLC_PRIVATE const struct battle_side *side)
{
    for (clc_u32 i = 0; i < side->n_assaults; i++)
        if (side->assaults[i].inhibited && battle_sim_alive(&side->assaults[i]))
            return 1;
    return 0;
}

/* A skill cast with other values than its card's action: Mimic's (battle_sim_mimic), and
 * the on-death skills of a unit Payback killed, which aim at its own side (`flip`). */
struct battle_sim_ov {
    clc_i32 x;
    clc_u32 y, all, n, flip;
};

/* Payback X and Revenge X (tuo's perform_targetted_hostile_fast, after the targets): hostile
 * skill `id` X, cast by the own assault at `lane` of side `s`, took effect on the assaults
 * `pb` (npb lanes of side ts's row) that have either and have not used them up this enemy
 * turn. In that order, each casts the skill back: Payback on the caster, Revenge on the
 * caster and its living neighbours; each needs its target alive and valid for the skill
 * as a target on its own side (tuo's skill_predicate from the target itself: Weaken and
 * Jam take a unit that acts next turn), and Evade does not negate it. One use each, when
 * it took effect anywhere. Units it kills are marked (BATTLE_SIM_PB_DEATH). A unit killed
 * by the skill itself still casts it back (the peer checks no life). Mimic is never cast
 * back, Mimic's skills are. Turning Tides answers a Weaken cast back as any. */
CLC_NOINLINE void battle_sim_payback(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                     clc_u32 id, clc_i32 x, int ts, CLC_PRIVATE const clc_u8 *pb,
                                     clc_u32 npb)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    int tap = battle_sim_active(p->mode, g->turn);
    int iron = (id == BATTLE_SKILL_JAM || id == BATTLE_SKILL_WEAKEN || id == BATTLE_SKILL_SUNDER) &&
               battle_sim_passive(p, tap, BATTLE_PASSIVE_IRONWILL);
    for (clc_u32 k = 0; k < npb; k++) {
        CLC_PRIVATE struct battle_unit *u = &g->sides[ts].assaults[pb[k]];
        int revenge = p->cards[u->card].revenge != 0;
        clc_i32 tides = 0, done = 0;
        for (clc_i32 i = revenge ? lane - 1 : lane; i <= (revenge ? lane + 1 : lane); i++) {
            CLC_PRIVATE struct battle_unit *t = &me->assaults[i < 0 ? 0 : i];
            clc_i32 before;
            if (i < 0 || i >= (clc_i32)me->n_assaults || !battle_sim_alive(t) ||
                !battle_sim_valid_on(p, id, t, s != tap, g->act) ||
                (iron && p->cards[t->card].armor))
                continue;
            before = battle_sim_power(t);
            battle_sim_apply(p, g, s, id, x, t);
            if (!battle_sim_alive(t))
                t->state = (clc_u8)(t->state | BATTLE_SIM_PB_DEATH);
            tides = before - battle_sim_power(t) > tides ? before - battle_sim_power(t) : tides;
            done = 1;
        }
        if (done)
            u->paybacked = (clc_u8)(u->paybacked < 255 ? u->paybacked + 1 : 255);
        if (tides > 0 && (id == BATTLE_SKILL_WEAKEN || id == BATTLE_SKILL_SUNDER))
            battle_sim_tides(p, g, ts, tides, 0);
    }
}

/* Whether unit `u` casts back hostile skill `id` an enemy assault (card `c`) cast on it:
 * it has Payback or Revenge not used up this enemy turn (battle_sim_payback). */
CLC_FN int battle_sim_pays(CLC_GLOBAL const struct battle_plan_data *p, clc_u32 id,
                           CLC_GLOBAL const struct battle_card_data *c,
                           CLC_PRIVATE const struct battle_unit *u)
{
    CLC_GLOBAL const struct battle_card_data *t = &p->cards[u->card];
    return (t->payback || t->revenge) && c->type == BATTLE_ASSAULT && id != BATTLE_SKILL_MIMIC &&
           u->paybacked < (clc_i32)t->payback + t->revenge;
}

/* The card unit card `card` is a variant of (battle_plan_data.card_base), or itself: the
 * card as printed, whose skills Mimic reads (tuo's dst->m_card, which Enhance and Evolve
 * never change). */
CLC_FN CLC_GLOBAL const struct battle_card_data *
battle_sim_printed(CLC_GLOBAL const struct battle_plan_data *p, clc_u32 card)
{
    clc_u32 b = p->card_base[card];
    return &p->cards[b < p->n_cards ? b : card];
}

/* Action k's X, card `c`'s, as a caster with Sabotage `sab` casts it (tuo's resolve_skill:
 * Sabotage takes from the skill's own X, at most all of it, and what Enhance gave is added
 * after, so an enhanced skill keeps its gain). `c` may be a variant (battle_mods): its own X
 * is its base card's, the rest is Enhance's. 0 or less: the skill is not cast. */
CLC_FN clc_i32 battle_sim_sabotaged(CLC_GLOBAL const struct battle_plan_data *p,
                                    CLC_GLOBAL const struct battle_card_data *c, clc_u32 k,
                                    clc_i32 sab)
{
    CLC_GLOBAL const struct battle_card_data *base = battle_sim_printed(p, (clc_u32)(c - p->cards));
    clc_i32 x = c->act_x[k];
    clc_i32 own = base->act_x[k] < x ? base->act_x[k] : x;
    return (own > sab ? own - sab : 0) + (x - own);
}

/* What Enhance gave skill `id` on card `c` (tuo's CardStatus::enhanced): a variant's X past
 * its base card's, at the first action with the skill; 0 on a card no Enhance changed. */
CLC_FN clc_i32 battle_sim_gain(CLC_GLOBAL const struct battle_plan_data *p,
                               CLC_GLOBAL const struct battle_card_data *c, clc_u32 id)
{
    CLC_GLOBAL const struct battle_card_data *base = battle_sim_printed(p, (clc_u32)(c - p->cards));
    if (base == c)
        return 0;
    for (clc_u32 j = 0; j < c->n_act; j++)
        if ((c->act_id[j] & ~BATTLE_SIM_ACT_REFUSABLE) == id)
            return c->act_x[j] > base->act_x[j] ? c->act_x[j] - base->act_x[j] : 0;
    return 0;
}

/* Side `s` casts action `k` of card `c`, skill `id`, X on the row the skill table names:
 * the enemy's for a hostile skill, where Evade can negate each application, else its own
 * (where, when `refusable`, a unit's Inhibit count refuses it: BATTLE_SIM_ACT_REFUSABLE).
 * The candidates are the valid units of faction `y` (or progenitor; any when 0) in lane
 * order; `all` takes every one, else `n` (0 counts as 1) are drawn without repetition and
 * applied in lane order. `lane`: the caster's assault lane, -1 for other rows. `ov`, when
 * not 0, gives X, y, all and n instead of the action (Mimic). Returns whether any
 * application took effect (a cooldown starts only then, as in tuo). */
/* One body on purpose: each skill's inlined copy folds the table's facts into it, and
 * helpers split out of it cost the hottest loop instructions (callgrind, 2026-11-23). */
/* NOLINTNEXTLINE(readability-function-size) */
CLC_INLINE int battle_sim_skill_as(CLC_GLOBAL const struct battle_plan_data *p,
                                   CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                   clc_u32 id, int refusable,
                                   CLC_GLOBAL const struct battle_card_data *c, clc_u32 k,
                                   const int pv, CLC_PRIVATE const struct battle_sim_ov *ov)
{
    int hostile = battle_sim_hostile(id);
    int ts = hostile && !(ov && ov->flip) ? 1 - s : s;
    int structures = battle_sim_row(id) == BATTLE_ROW_STRUCTURES;
    int active = ts == battle_sim_active(p->mode, g->turn);
    clc_u32 y = ov ? ov->y : c->act_y[k];
    clc_i32 x = ov ? ov->x : c->act_x[k];
    /* An overloaded caster's skills ignore Evade, Protect and Inhibit (copies with `pv`). */
    int ol = (pv & BATTLE_SIM_PV_RARE) && lane >= 0 &&
             (g->sides[s].assaults[lane].state & BATTLE_SIM_OVERLOADED);
    /* Sabotage on an assault caster takes from its skills' X; a skill left with none is not
     * cast (copies with `pv`; Mimic's cast took it from Mimic's X). */
    if ((pv & BATTLE_SIM_PV_RARE) && !ov && lane >= 0 && g->sides[s].assaults[lane].sabotaged &&
        (battle_sim_opts(id) & BATTLE_OPT_X) && battle_sim_when(id) != BATTLE_WHEN_MOD) {
        x = battle_sim_sabotaged(p, c, k, g->sides[s].assaults[lane].sabotaged);
        if (x <= 0)
            return 0;
    }
    CLC_PRIVATE struct battle_side *tside = &g->sides[ts];
    CLC_PRIVATE struct battle_unit *row = tside->assaults;
    CLC_PRIVATE struct battle_unit *u;
    clc_u8 cand[(BATTLE_SIM_ROW + 7) / 8 * 8]; /* filled eight at a time below */
    clc_u32 nrow, nc = 0, refused = 0, npb = 0;
    int done = 0, whole = 0;
    clc_i32 tides = 0; /* Turning Tides: the most attack Weaken took (copies with `pv`) */
    /* Mortar aims at structures; with none to aim at, at assaults (as Strike). Mend and
     * Fortify act on the caster's two neighbours only, both of them. */
    int adjacent = id == BATTLE_SKILL_MEND || id == BATTLE_SKILL_FORTIFY;
    /* Passive battleground effects of the side whose turn it is, as tuo reads them, in the
     * copies for plans with them (`pv`): Critical Reach takes Mend and Fortify two lanes
     * out, Metamorphosis and Megamorphosis drop faction filters, Zealot's Preservation adds
     * to Heal, Iron Will keeps Jam and Weaken off units with Armor. */
    clc_i32 reach = (pv & BATTLE_SIM_PV_EFFECTS) && adjacent &&
                            battle_sim_passive(p, battle_sim_active(p->mode, g->turn),
                                               BATTLE_PASSIVE_CRITICALREACH)
                        ? 2
                        : 1;
    /* Every unit is a candidate when the skill takes any living unit, with no faction
     * filter, on a side where no unit died this turn (dead units keep their slot until
     * the turn ends): the usual case of Strike, Siege, Enfeeble and Protect. */
    int every = battle_sim_when(id) == BATTLE_WHEN_ALIVE && !adjacent && !y && !tside->died;
    for (int pass = 0; pass < 2; pass++) {
        if (pass) {
            if (nc || id != BATTLE_SKILL_MORTAR)
                break;
            structures = 0;
        }
        row = structures ? tside->structures : tside->assaults;
        nrow = structures ? tside->n_structures : tside->n_assaults;
        if (every) {
            nc = nrow;
            continue;
        }
        if (adjacent && reach > 1) {
            nc = battle_sim_reach(p, g, id, row, nrow, lane, y, active, cand);
            continue;
        }
        /* The usual skills: every unit of the row tested, and appended without a branch
         * (the outcomes are a predictor's worst case: see battle_sim_valid_on). */
        if (!adjacent && id != BATTLE_SKILL_RUSH && id != BATTLE_SKILL_OVERLOAD &&
            battle_sim_when(id) != BATTLE_WHEN_MOD) {
            if (!y || ((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_morph(p, g))) {
                for (clc_u32 i = 0; i < nrow; i++) {
                    cand[nc] = (clc_u8)i;
                    nc += (clc_u32)battle_sim_valid_on(p, id, &row[i], active, g->act);
                }
                continue;
            }
            for (clc_u32 i = 0; i < nrow; i++) {
                clc_u32 f = p->cards[row[i].card].faction;
                cand[nc] = (clc_u8)i;
                nc += (clc_u32)battle_sim_valid_on(p, id, &row[i], active, g->act) &
                      battle_sim_faction_ok(f, y);
            }
            continue;
        }
        /* Enhance and Evolve: every living unit (of faction y) whose card has a variant for
         * change x and that takes it now (battle_sim_mod_ok), appended as above. The rarer
         * skills' copies (battle_sim_rare) have the skill a constant too since 2026-11-28. */
        if (battle_sim_when(id) == BATTLE_WHEN_MOD) {
            if (x < 0 || x >= (clc_i32)p->n_mods)
                continue;
            clc_u32 always = (p->mod_flags[x] & BATTLE_SIM_MOD_ALWAYS) != 0;
            clc_u32 anyf = !y || ((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_morph(p, g));
            for (clc_u32 i = 0; i < nrow; i++) {
                clc_u32 f = p->cards[row[i].card].faction;
                cand[nc] = (clc_u8)i;
                nc += ((row[i].flags & BATTLE_SIM_ALIVE) != 0) &
                      (anyf | battle_sim_faction_ok(f, y)) &
                      battle_sim_mod_takes(p, &row[i], x, always);
            }
            continue;
        }
        /* Mend and Fortify (the caster's neighbours), Rush, Overload. */
        for (clc_i32 i = adjacent ? lane - 1 : 0; i < (clc_i32)nrow; i += adjacent ? 2 : 1) {
            if (i < 0 || (adjacent && i > lane + 1))
                continue;
            u = &row[i];
            if (!(u->flags & BATTLE_SIM_ALIVE))
                continue;
            if (y) {
                clc_u32 f = p->cards[u->card].faction;
                if (!battle_sim_faction_ok(f, y) &&
                    !((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_morph(p, g)))
                    continue;
            }
            if (!battle_sim_valid_on(p, id, u, active, g->act))
                continue;
            /* Rush from an assault: a unit left of it ended its turn in the row, so a delay
             * of 1 would reach 0 at its next turn start anyway (tuo's skill_predicate). */
            if (id == BATTLE_SKILL_RUSH && lane >= 0 && i < lane && u->delay < 2)
                continue;
            /* Overload helps allied skills only where some own assault is inhibited. */
            if (id == BATTLE_SKILL_OVERLOAD && battle_sim_ol_kind(p, u) == 1 &&
                !battle_sim_any_inhibited(tside))
                continue;
            cand[nc++] = (clc_u8)i;
        }
    }
    if ((pv & BATTLE_SIM_PV_EFFECTS) &&
        (id == BATTLE_SKILL_JAM || id == BATTLE_SKILL_WEAKEN || id == BATTLE_SKILL_SUNDER) && nc &&
        battle_sim_passive(p, battle_sim_active(p->mode, g->turn), BATTLE_PASSIVE_IRONWILL))
        nc = battle_sim_iron(p, row, cand, nc);
    if (nc == 0)
        return 0;
    if (every) {
        /* One target drawn among the whole row needs no list. */
        if (!(ov ? ov->all : c->act_all[k]) && (ov ? ov->n : c->act_n[k]) <= 1) {
            u = &row[nc > 1 ? rng_below(&g->rng, nc) : 0];
            if (hostile && (p->fx & BATTLE_SIM_FX_EVADE) && !ol && battle_sim_evades(p, u))
                return 0;
            /* Inhibit: an allied skill is refused, using up one of the count (tuo's
             * perform_targetted_allied_fast); 0 on every unit of a game without it. */
            if (refusable && !ol && u->inhibited) {
                u->inhibited--;
                if (pv & BATTLE_SIM_PV_EFFECTS)
                    battle_sim_divert(p, g, id, x, c, 1);
                return 0;
            }
            if (ol && hostile)
                battle_sim_apply_overloaded(p, g, ts, id, x, u);
            else
                battle_sim_apply(p, g, ts, id, x, u);
            if (id == BATTLE_SKILL_HEAL && (pv & BATTLE_SIM_PV_EFFECTS))
                battle_sim_zealot(p, battle_sim_active(p->mode, g->turn), c, x, u);
            if ((pv & BATTLE_SIM_PV_RARE) && !hostile && p->cards[u->card].tribute)
                battle_sim_tribute(p, g, s, lane, id, x, c, u);
            if ((pv & BATTLE_SIM_PV_RARE) && hostile && row == tside->assaults && lane >= 0 &&
                battle_sim_pays(p, id, c, u)) {
                cand[0] = (clc_u8)(u - row);
                battle_sim_payback(p, g, s, lane, id, x, ts, cand, 1);
            }
            return 1;
        }
        /* Every unit of the row, in lane order, needs no list either (`whole`); a draw of
         * some of them gets the row's lanes, eight at a time, so that the loop's count is
         * the same for all rows of up to 8 units (the usual rows). */
        if ((ov ? ov->all : c->act_all[k]) || (ov ? ov->n : c->act_n[k]) >= nc)
            whole = 1;
        else
            for (clc_u32 i = 0; i < nc; i += 8u)
                for (clc_u32 j = 0; j < 8u; j++)
                    cand[i + j] = (clc_u8)(i + j);
    }
    if (!whole)
        nc = battle_sim_draw(
            g, cand, nc,
            adjacent || (ov ? ov->all : c->act_all[k]) ? nc : (ov ? ov->n : c->act_n[k]));
    for (clc_u32 i = 0; i < nc; i++) {
        clc_u32 at = whole ? i : cand[i];
        u = &row[at];
        if (hostile && (p->fx & BATTLE_SIM_FX_EVADE) && !ol && battle_sim_evades(p, u))
            continue;
        if (refusable && !ol && u->inhibited) {
            u->inhibited--;
            refused++;
            continue;
        }
        /* Turning Tides keeps the most attack Weaken took from one target (Weaken is never
         * cast through the single-draw path above: it is not a skill on any living unit). */
        if ((pv & BATTLE_SIM_PV_EFFECTS) &&
            (id == BATTLE_SKILL_WEAKEN || id == BATTLE_SKILL_SUNDER)) {
            clc_i32 before = battle_sim_power(u);
            battle_sim_apply(p, g, ts, id, x, u);
            tides = before - battle_sim_power(u) > tides ? before - battle_sim_power(u) : tides;
        } else if (ol && hostile) {
            battle_sim_apply_overloaded(p, g, ts, id, x, u);
        } else {
            battle_sim_apply(p, g, ts, id, x, u);
        }
        if (id == BATTLE_SKILL_HEAL && (pv & BATTLE_SIM_PV_EFFECTS))
            battle_sim_zealot(p, battle_sim_active(p->mode, g->turn), c, x, u);
        if ((pv & BATTLE_SIM_PV_RARE) && !hostile && p->cards[u->card].tribute)
            battle_sim_tribute(p, g, s, lane, id, x, c, u);
        /* Payback's units, kept in place in cand (i >= npb): cast back after all targets. */
        if ((pv & BATTLE_SIM_PV_RARE) && hostile && row == tside->assaults && lane >= 0 &&
            battle_sim_pays(p, id, c, u))
            cand[npb++] = (clc_u8)at;
        done = 1;
    }
    if ((pv & BATTLE_SIM_PV_RARE) && npb)
        battle_sim_payback(p, g, s, lane, id, x, ts, cand, npb);
    if ((pv & BATTLE_SIM_PV_EFFECTS) && (id == BATTLE_SKILL_WEAKEN || id == BATTLE_SKILL_SUNDER) &&
        tides > 0)
        battle_sim_tides(p, g, s, tides, ov ? ov->all : c->act_all[k]);
    if ((pv & BATTLE_SIM_PV_EFFECTS) && refused)
        battle_sim_divert(p, g, id, x, c, refused);
    return done;
}

/* Valor or Bravery X of assault `lane` of side `s`: + X permanent attack when the enemy
 * assault opposite lives and is stronger. Returns whether it did. */
CLC_FN int battle_sim_brave(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane, clc_i32 x)
{
    CLC_PRIVATE struct battle_unit *u = &g->sides[s].assaults[lane];
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - s];
    if (!x || (u->flags & BATTLE_SIM_SUNDERED) || lane >= en->n_assaults ||
        !battle_sim_alive(&en->assaults[lane]) ||
        battle_sim_power(&en->assaults[lane]) <= battle_sim_power(u))
        return 0;
    battle_sim_gain_attack(u, x);
    return 1;
}

/* Super Heroism X (a passive battleground effect of side `s`, whose turn it is): assault
 * `lane`, whose Bravery B has just taken effect, heals every damaged own assault by B * X
 * (tuo's Heal all from the unit: Inhibit refuses it, Zealot's Preservation adds to it). */
CLC_NOINLINE void battle_sim_superheroism(CLC_GLOBAL const struct battle_plan_data *p,
                                          CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane,
                                          clc_i32 b)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[me->assaults[lane].card];
    clc_i32 x = b * battle_sim_passive(p, s, BATTLE_PASSIVE_SUPERHEROISM);
    clc_u32 refused = 0;
    if (x <= 0)
        return;
    x = x < BATTLE_SIM_STAT_CAP ? x : BATTLE_SIM_STAT_CAP;
    for (clc_u32 i = 0; i < me->n_assaults; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->assaults[i];
        if (!battle_sim_alive(u) || u->hp >= battle_sim_max_hp(u))
            continue;
        if ((p->fx & BATTLE_SIM_FX_INHIBIT) && u->inhibited) {
            u->inhibited--;
            refused++;
            continue;
        }
        battle_sim_heal(u, x);
        battle_sim_zealot(p, s, c, x, u);
    }
    if (refused)
        battle_sim_divert(p, g, BATTLE_SKILL_HEAL, x, c, refused);
}

/* Bravery X of assault `lane` of side `s` (battle_sim_brave), with Super Heroism. */
CLC_FN void battle_sim_bravery(CLC_GLOBAL const struct battle_plan_data *p,
                               CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane, clc_i32 x)
{
    if (battle_sim_brave(p, g, s, lane, x) && p->passive)
        battle_sim_superheroism(p, g, s, lane, x);
}

/* The passive battleground effects of side `s` on unit `u` entering its row, in tuo's
 * order. Oath of Loyalty: a unit with Allegiance X gains X attack and max health for each
 * other living assault and each structure (fortresses and the dominion aside, living or
 * not) of its faction on its side (any faction with Megamorphosis). Devotion X: a card played (not
 * summoned) of the commander's faction enters with X% more health (rounded up), as a permanent
 * gain. */
CLC_NOINLINE void battle_sim_passive_enter(CLC_GLOBAL const struct battle_plan_data *p,
                                           CLC_PRIVATE struct battle_game *g, int s,
                                           CLC_PRIVATE struct battle_unit *u, int summoned)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
    clc_i32 x = c->allegiance ? battle_sim_passive(p, s, BATTLE_PASSIVE_OATHOFLOYALTY) : 0;
    if (x) {
        int mega = battle_sim_passive(p, s, BATTLE_PASSIVE_MEGAMORPHOSIS) != 0;
        clc_i32 n = 0;
        for (clc_u32 i = 0; i < me->n_assaults; i++)
            n += &me->assaults[i] != u && battle_sim_alive(&me->assaults[i]) &&
                 (mega || p->cards[me->assaults[i].card].faction == c->faction);
        for (clc_u32 i = 0; i < me->n_structures; i++) {
            clc_u32 card = me->structures[i].card;
            n += p->cards[card].type == BATTLE_STRUCTURE && card + 1u != p->sides[s].dominion &&
                 (mega || p->cards[card].faction == c->faction);
        }
        if (n) {
            battle_sim_gain_attack(u, n * c->allegiance);
            battle_sim_gain_hp(u, n * c->allegiance);
        }
    }
    x = summoned ? 0 : battle_sim_passive(p, s, BATTLE_PASSIVE_DEVOTION);
    if (x && c->faction == p->cards[g->sides[s].commander].faction)
        battle_sim_gain_hp(u, (c->health * x + 99) / 100);
}

/* Stasis, as unit `u` (card `c`) enters side `s`'s row (tuo's PlayCard): with Cold Sleep
 * (the side's passive effect), each other living own assault under Stasis heals half its
 * Stasis, rounded up, when hurt; then an assault whose card has a delay is protected by the
 * Stasis of its side's living units of its faction (any with Megamorphosis), its own
 * included, and of its commander's when the commander's faction is its, plus (Counter + 1)
 * / 2 for each such assault with Counter under Temporal Backlash (the side's). The
 * protection is part of `protect` that the turn's end leaves (`stasis` says how much) and
 * the unit loses when it acts (battle_sim_turn). Out of line: rare. */
CLC_NOINLINE void battle_sim_stasis(CLC_GLOBAL const struct battle_plan_data *p,
                                    CLC_PRIVATE struct battle_game *g, int s,
                                    CLC_PRIVATE struct battle_unit *u)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
    CLC_GLOBAL const struct battle_card_data *cc = &p->cards[me->commander];
    int mega = battle_sim_passive(p, s, BATTLE_PASSIVE_MEGAMORPHOSIS) != 0;
    int backlash = battle_sim_passive(p, s, BATTLE_PASSIVE_TEMPORALBACKLASH) != 0;
    clc_i32 x = 0;
    if (battle_sim_passive(p, s, BATTLE_PASSIVE_COLDSLEEP))
        for (clc_u32 i = 0; i < me->n_assaults; i++) {
            CLC_PRIVATE struct battle_unit *a = &me->assaults[i];
            if (a != u && a->stasis && battle_sim_alive(a))
                battle_sim_heal_hurt(a, (a->stasis + 1) / 2);
        }
    if (c->type != BATTLE_ASSAULT || !c->delay)
        return;
    if (mega || cc->faction == c->faction)
        x += cc->stasis;
    /* Each unit's share added times whether it counts: no branch on who lives (see
     * battle_sim_valid_on). */
    for (clc_u32 i = 0; i < me->n_structures; i++) {
        CLC_GLOBAL const struct battle_card_data *t = &p->cards[me->structures[i].card];
        x += (clc_i32)t->stasis *
             (battle_sim_alive(&me->structures[i]) & (mega | (t->faction == c->faction)));
    }
    for (clc_u32 i = 0; i < me->n_assaults; i++) {
        CLC_GLOBAL const struct battle_card_data *t = &p->cards[me->assaults[i].card];
        x += ((clc_i32)t->stasis + backlash * (((clc_i32)t->counter + 1) / 2)) *
             (battle_sim_alive(&me->assaults[i]) & (mega | (t->faction == c->faction)));
    }
    u->stasis = battle_sim_sat(x);
    u->protect = battle_sim_sat((clc_i32)u->protect + x);
}

/* Card `card` enters side `s`'s row, at its right-hand end: fresh, with Barrier's Protect,
 * Bravery and Valor when it is active at once, and (unless `summoned`) the Allegiance of
 * the own assaults of its faction. Returns its lane, or -1 when the row is full (only
 * summons can fill one): then nothing enters. `tower`: summoned by a structure's
 * activation Summon, it starts one turn nearer to acting, as in the game. The caller casts
 * its on-play skills. */
CLC_INLINE clc_i32 battle_sim_enter(CLC_GLOBAL const struct battle_plan_data *p,
                                    CLC_PRIVATE struct battle_game *g, int s, clc_u32 card,
                                    int summoned, int tower)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[card];
    int structure = c->type == BATTLE_STRUCTURE;
    clc_u32 lane = structure ? me->n_structures : me->n_assaults;
    CLC_PRIVATE struct battle_unit *u;
    if (lane >= BATTLE_SIM_ROW)
        return -1;
    u = structure ? &me->structures[lane] : &me->assaults[lane];
    if (structure)
        me->n_structures++;
    else
        me->n_assaults++;
    battle_sim_fresh(p, u, card);
    if (summoned)
        u->flags = (clc_u8)(u->flags | BATTLE_SIM_SUMMONED);
    if (tower && u->delay)
        u->delay--;
    if (c->barrier)
        u->protect = c->barrier;
    if (!structure && !u->delay) {
        battle_sim_bravery(p, g, s, lane, c->bravery);
        battle_sim_brave(p, g, s, lane, c->valor);
    }
    if (!summoned && (p->fx & BATTLE_SIM_FX_ALLY)) {
        /* Megamorphosis (the side's passive effect): every faction counts. */
        int mega = battle_sim_passive(p, s, BATTLE_PASSIVE_MEGAMORPHOSIS) != 0;
        for (clc_u32 i = 0; i < me->n_assaults; i++) {
            CLC_PRIVATE struct battle_unit *a = &me->assaults[i];
            clc_i32 x = p->cards[a->card].allegiance;
            if (x && a != u && battle_sim_alive(a) &&
                (mega || p->cards[a->card].faction == c->faction)) {
                if (!(a->flags & BATTLE_SIM_SUNDERED))
                    battle_sim_gain_attack(a, x);
                battle_sim_gain_hp(a, x);
            }
        }
    }
    if (p->passive && battle_sim_has(p, BATTLE_SIM_PV(OATHOFLOYALTY) | BATTLE_SIM_PV(DEVOTION)))
        battle_sim_passive_enter(p, g, s, u, summoned);
    if (p->rare & BATTLE_SIM_RARE_STASIS)
        battle_sim_stasis(p, g, s, u);
    return (clc_i32)lane;
}

/* Side `s` puts card `card` into play for free (Summon); its on-play skills are cast at the
 * next resolution of triggers (battle_sim_triggers). */
CLC_FN void battle_sim_summon(CLC_GLOBAL const struct battle_plan_data *p,
                              CLC_PRIVATE struct battle_game *g, int s, clc_u32 card, int tower)
{
    clc_i32 lane = battle_sim_enter(p, g, s, card, 1, tower);
    CLC_PRIVATE struct battle_unit *u;
    if (lane < 0)
        return;
    g->summoned[s] = (clc_u8)(g->summoned[s] + (g->summoned[s] < 255));
    if (!(p->cards[card].trig & (1u << BATTLE_SIM_TRIG_PLAY)))
        return;
    u = p->cards[card].type == BATTLE_STRUCTURE ? &g->sides[s].structures[lane]
                                                : &g->sides[s].assaults[lane];
    u->flags = (clc_u8)(u->flags | BATTLE_SIM_FRESH);
    battle_sim_pend(g, s, 1);
}

/* Side `s` casts Rush, action `k` of card `c` (or Mimic's copy of it, `ov`), out of line
 * as a rare skill. An assault casts it once in its life, whether it found a target or not
 * (tuo's m_rush_attempted); a commander each time. Then each unit whose delay it brought
 * to 0 (on either side: Divert) gets Valor and its activation Summon, as at a turn start
 * (battle_sim_apply cannot: Summon leads back to it through Bravery and Divert). */
CLC_NOINLINE int battle_sim_rush(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                 int refusable, CLC_GLOBAL const struct battle_card_data *c,
                                 clc_u32 k, CLC_PRIVATE const struct battle_sim_ov *ov)
{
    int done;
    if (lane >= 0) {
        CLC_PRIVATE struct battle_unit *u = &g->sides[s].assaults[lane];
        if (u->state & BATTLE_SIM_RUSHED)
            return 0;
        u->state = (clc_u8)(u->state | BATTLE_SIM_RUSHED);
    }
    done = battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_RUSH, refusable, c, k, BATTLE_SIM_PV_ALL,
                               ov);
    for (int side = 0; side < 2; side++)
        for (clc_u32 i = 0; i < g->sides[side].n_assaults; i++) {
            CLC_PRIVATE struct battle_unit *u = &g->sides[side].assaults[i];
            CLC_GLOBAL const struct battle_card_data *t = &p->cards[u->card];
            if (!(u->state & BATTLE_SIM_RUSH_DUE))
                continue;
            u->state = (clc_u8)(u->state & ~BATTLE_SIM_RUSH_DUE);
            if (t->valor)
                battle_sim_brave(p, g, side, i, t->valor);
            if (t->summon_act)
                battle_sim_summon(p, g, side, t->summon_act - 1u, 0);
        }
    return done;
}

/* Sunder's copy of battle_sim_skill_as, out of line: a rare skill, whose copy inlined among
 * the others' cost every plan's skill loop instructions (callgrind, 2026-11-26: +2.8% in
 * a unit's skills on real-05). Its plans run the copies with the rarer rules (pv). */
CLC_NOINLINE int battle_sim_sunder(CLC_GLOBAL const struct battle_plan_data *p,
                                   CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                   CLC_GLOBAL const struct battle_card_data *c, clc_u32 k)
{
    return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_SUNDER, 0, c, k, BATTLE_SIM_PV_ALL, 0);
}

/* The copy of battle_sim_skill_as for the rarer allied skills (Enrage, Entrap, Overload,
 * Enhance, Evolve), out of
 * line for the reason Sunder's is, with the skill a value rather than a constant: their plans run
 * the copies with the rarer rules (pv), where their Berserk and Counter count. */
CLC_NOINLINE int battle_sim_rare(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane, clc_u32 id,
                                 int refusable, CLC_GLOBAL const struct battle_card_data *c,
                                 clc_u32 k)
{
    /* The skill a constant in each call, as in battle_sim_skill: each gets its own target
     * loop, with its condition folded in instead of switched on for every unit. */
    switch (id) {
    case BATTLE_SKILL_ENRAGE:
        return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_ENRAGE, refusable, c, k,
                                   BATTLE_SIM_PV_ALL, 0);
    case BATTLE_SKILL_ENTRAP:
        return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_ENTRAP, refusable, c, k,
                                   BATTLE_SIM_PV_ALL, 0);
    case BATTLE_SKILL_OVERLOAD:
        return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_OVERLOAD, refusable, c, k,
                                   BATTLE_SIM_PV_ALL, 0);
    case BATTLE_SKILL_ENHANCE:
        return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_ENHANCE, refusable, c, k,
                                   BATTLE_SIM_PV_ALL, 0);
    case BATTLE_SKILL_EVOLVE:
        return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_EVOLVE, refusable, c, k,
                                   BATTLE_SIM_PV_ALL, 0);
    default:
        return battle_sim_skill_as(p, g, s, lane, id, refusable, c, k, BATTLE_SIM_PV_ALL, 0);
    }
}

/* Whether Mimic can take activation skill `id`: not Summon, Mimic or Enhance (not among
 * tuo's activation skills). The one place for that list: battle_sim_mimicable marks the
 * cards' skills with it and battle_sim_mimic_cast keeps a cast only for these. */
CLC_FN int battle_sim_mimic_takes(clc_u32 id)
{
    return id != BATTLE_SKILL_SUMMON && id != BATTLE_SKILL_MIMIC && id != BATTLE_SKILL_ENHANCE;
}

/* Whether action `k` of card `t` is one that Mimic can take from it, for a caster that is
 * an assault or not (`assault`): an activation skill cast in the unit's turn or when it is
 * attacked (tuo's m_skills and m_skills_on_attacked) that Mimic takes
 * (battle_sim_mimic_takes), and Mend and Fortify for an assault only. */
CLC_FN int battle_sim_mimicable(CLC_GLOBAL const struct battle_card_data *t, clc_u32 k, int assault)
{
    clc_u32 id = t->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE;
    if (t->act_trig[k] != BATTLE_SIM_TRIG_ACTIVATE && t->act_trig[k] != BATTLE_SIM_TRIG_ATTACKED)
        return 0;
    if (!battle_sim_mimic_takes(id))
        return 0;
    return assault || (id != BATTLE_SKILL_MEND && id != BATTLE_SKILL_FORTIFY);
}

/* The actions of card `t` that Mimic can take, a bit each (battle_sim_mimicable): the card's
 * mark, less Mend and Fortify for a caster that is not an assault. */
CLC_FN clc_u32 battle_sim_mimic_mask(CLC_GLOBAL const struct battle_card_data *t, int assault)
{
    clc_u32 mask = t->mimic;
    for (clc_u32 j = 0; !assault && j < t->n_act; j++) {
        clc_u32 id = t->act_id[j] & ~BATTLE_SIM_ACT_REFUSABLE;
        if (id == BATTLE_SKILL_MEND || id == BATTLE_SKILL_FORTIFY)
            mask &= ~(1u << j);
    }
    return mask;
}

/* Mimic's cast of skill `id` with the values `ov` (battle_sim_mimic; Rush apart). On the
 * host, battle_sim_skill_as with the skill a constant in each case, as battle_sim_skill
 * has: the copy for any skill tested the skill's facts for every unit, about 500
 * instructions a cast (callgrind, real-s26, 2026-11-28). A kernel keeps that one copy, so
 * the GPU build stays its size. */
CLC_NOINLINE int battle_sim_mimic_cast(CLC_GLOBAL const struct battle_plan_data *p,
                                       CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                       clc_u32 id, int refusable,
                                       CLC_GLOBAL const struct battle_card_data *c, clc_u32 k,
                                       int pv, CLC_PRIVATE const struct battle_sim_ov *ov)
{
#ifndef __OPENCL_VERSION__
    switch (id) {
/* Not the skills Mimic never casts (battle_sim_mimic_takes) nor Rush (battle_sim_rush). */
#define BATTLE_SIM_MC_TAKES(ID) (battle_sim_mimic_takes(ID) && (ID) != BATTLE_SKILL_RUSH)
#define BATTLE_SIM_MC_PASSIVE(ID)
#define BATTLE_SIM_MC_ACTIVATION(ID)                                                               \
    case BATTLE_SKILL_##ID:                                                                        \
        return BATTLE_SIM_MC_TAKES(BATTLE_SKILL_##ID)                                              \
                   ? battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_##ID, refusable, c, k, pv,    \
                                         ov)                                                       \
                   : 0;
#define BATTLE_SIM_MC_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)         \
    BATTLE_SIM_MC_##KIND(ID)
        BATTLE_SKILL_TABLE(BATTLE_SIM_MC_)
#undef BATTLE_SIM_MC_
#undef BATTLE_SIM_MC_ACTIVATION
#undef BATTLE_SIM_MC_PASSIVE
#undef BATTLE_SIM_MC_TAKES
    default:
        return 0;
    }
#else
    return battle_sim_skill_as(p, g, s, lane, id, refusable, c, k, pv, ov);
#endif
}

/* Side `s` casts Mimic X, action `k` of card `c` (tuo's perform_skill<mimic>): its targets
 * are the living enemy assaults (of faction y) with a skill it can take
 * (battle_sim_mimicable), drawn as any hostile skill's but never evaded; from each, one such
 * skill is drawn (those cast in the unit's turn first, then those cast when attacked, in
 * card order) and the caster casts it as its own with X, of any faction, with the skill's
 * own `all` and `n`. Out of line: a rare skill, and its cast is a copy of
 * battle_sim_skill_as for any skill. Returns whether it took a skill. */
CLC_NOINLINE int battle_sim_mimic(CLC_GLOBAL const struct battle_plan_data *p,
                                  CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                  CLC_GLOBAL const struct battle_card_data *c, clc_u32 k)
{
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - s];
    int assault = c->type == BATTLE_ASSAULT;
    clc_u32 y = c->act_y[k];
    clc_i32 x = lane >= 0 && g->sides[s].assaults[lane].sabotaged
                    ? battle_sim_sabotaged(p, c, k, g->sides[s].assaults[lane].sabotaged)
                    : c->act_x[k];
    clc_u8 cand[BATTLE_SIM_ROW];
    clc_u32 nc = 0;
    if (x <= 0) /* Sabotage took all of Mimic's X */
        return 0;
    for (clc_u32 i = 0; i < en->n_assaults; i++) {
        CLC_GLOBAL const struct battle_card_data *t = battle_sim_printed(p, en->assaults[i].card);
        if (!battle_sim_alive(&en->assaults[i]))
            continue;
        if (y && !battle_sim_faction_ok(t->faction, y) && !battle_sim_morph(p, g))
            continue;
        if (battle_sim_mimic_mask(t, assault))
            cand[nc++] = (clc_u8)i;
    }
    if (!nc)
        return 0;
    nc = battle_sim_draw(g, cand, nc, c->act_all[k] ? nc : c->act_n[k]);
    for (clc_u32 i = 0; i < nc; i++) {
        CLC_GLOBAL const struct battle_card_data *t =
            battle_sim_printed(p, en->assaults[cand[i]].card);
        struct battle_sim_ov ov;
        clc_u32 mask = battle_sim_mimic_mask(t, assault), m = 0, pick, id;
        for (clc_u32 j = 0; j < t->n_act; j++)
            m += mask >> j & 1u;
        pick = m > 1 ? rng_below(&g->rng, m) : 0;
        /* The pick-th skill, those cast in the unit's turn first. */
        for (clc_u32 pass = 0; pass < 2; pass++)
            for (clc_u32 j = 0; j < t->n_act; j++) {
                if (!(mask >> j & 1u) ||
                    (t->act_trig[j] == BATTLE_SIM_TRIG_ATTACKED) != (pass == 1))
                    continue;
                if (pick-- == 0) {
                    id = t->act_id[j] & ~BATTLE_SIM_ACT_REFUSABLE;
                    /* Evolve's X is its change, the mimicked unit's (battle_mods); any
                     * other skill's is Mimic's X plus what Enhance gave the caster's own
                     * skill of that kind (tuo's perform_skill<mimic>). */
                    ov.x = id == BATTLE_SKILL_EVOLVE ? (clc_i32)t->act_x[j]
                                                     : x + battle_sim_gain(p, c, id);
                    ov.y = 0;
                    ov.all = t->act_all[j];
                    ov.n = t->act_n[j];
                    ov.flip = 0;
                    if (id == BATTLE_SKILL_RUSH)
                        battle_sim_rush(p, g, s, lane, (p->fx & BATTLE_SIM_FX_INHIBIT) != 0, c, k,
                                        &ov);
                    else
                        battle_sim_mimic_cast(p, g, s, lane, id,
                                              !battle_sim_hostile(id) &&
                                                  (p->fx & BATTLE_SIM_FX_INHIBIT),
                                              c, k, p->passive ? BATTLE_SIM_PV_ALL : 0, &ov);
                }
            }
    }
    return 1;
}

/* The allied skills cast through battle_sim_rare. */
#define BATTLE_SIM_RARE(ID)                                                                        \
    ((ID) == BATTLE_SKILL_ENRAGE || (ID) == BATTLE_SKILL_ENTRAP ||                                 \
     (ID) == BATTLE_SKILL_OVERLOAD || (ID) == BATTLE_SKILL_ENHANCE || (ID) == BATTLE_SKILL_EVOLVE)

/* Side `s` casts action `k` of card `c`: battle_sim_skill_as with the skill a constant in
 * each case, so each skill gets its own copy of the loop with the table's facts (hostile,
 * row, target condition, Mortar's fallback, Mend's neighbours) folded in instead of tested
 * per unit: the candidate loop is the engine's hottest code. `pv`: p->passive, a constant
 * in each copy (battle_sim_skills_plain, battle_sim_skills_passive). */
CLC_INLINE int battle_sim_skill(CLC_GLOBAL const struct battle_plan_data *p,
                                CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                CLC_GLOBAL const struct battle_card_data *c, clc_u32 k,
                                const int pv)
{
    switch (c->act_id[k]) {
#define BATTLE_SIM_CASE_PASSIVE(ID, HOSTILE)
#define BATTLE_SIM_CASE_ACTIVATION(ID, HOSTILE)                                                    \
    case BATTLE_SKILL_##ID:                                                                        \
        return BATTLE_SKILL_##ID == BATTLE_SKILL_SUNDER  ? battle_sim_sunder(p, g, s, lane, c, k)  \
               : BATTLE_SKILL_##ID == BATTLE_SKILL_MIMIC ? battle_sim_mimic(p, g, s, lane, c, k)   \
               : BATTLE_SKILL_##ID == BATTLE_SKILL_RUSH                                            \
                   ? battle_sim_rush(p, g, s, lane, 0, c, k, 0)                                    \
               : BATTLE_SIM_RARE(BATTLE_SKILL_##ID)                                                \
                   ? battle_sim_rare(p, g, s, lane, BATTLE_SKILL_##ID, 0, c, k)                    \
                   : battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_##ID, 0, c, k, pv, 0);        \
        BATTLE_SIM_CASE_REFUSABLE_##HOSTILE(ID)
/* An allied skill's copy whose targets may refuse it (Inhibit). */
#define BATTLE_SIM_CASE_REFUSABLE_0(ID)                                                            \
    case BATTLE_SKILL_##ID | BATTLE_SIM_ACT_REFUSABLE:                                             \
        return BATTLE_SKILL_##ID == BATTLE_SKILL_RUSH ? battle_sim_rush(p, g, s, lane, 1, c, k, 0) \
               : BATTLE_SIM_RARE(BATTLE_SKILL_##ID)                                                \
                   ? battle_sim_rare(p, g, s, lane, BATTLE_SKILL_##ID, 1, c, k)                    \
                   : battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_##ID, 1, c, k, pv, 0);
#define BATTLE_SIM_CASE_REFUSABLE_1(ID)
#define BATTLE_SIM_CASE_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)       \
    BATTLE_SIM_CASE_##KIND(ID, HOSTILE)
        BATTLE_SKILL_TABLE(BATTLE_SIM_CASE_)
#undef BATTLE_SIM_CASE_
#undef BATTLE_SIM_CASE_REFUSABLE_1
#undef BATTLE_SIM_CASE_REFUSABLE_0
#undef BATTLE_SIM_CASE_ACTIVATION
#undef BATTLE_SIM_CASE_PASSIVE
    default:
        return 0;
    }
}

/* battle_sim_skill out of line, for the triggered skills (on play, attacked, death). */
CLC_NOINLINE int battle_sim_skill_once(CLC_GLOBAL const struct battle_plan_data *p,
                                       CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                       CLC_GLOBAL const struct battle_card_data *c, clc_u32 k)
{
    if (p->passive)
        return battle_sim_skill(p, g, s, lane, c, k, BATTLE_SIM_PV_ALL);
    return battle_sim_skill(p, g, s, lane, c, k, 0);
}

/* Side `s` casts the skills of card `c` that have trigger `trig` (on play, on attacked, on
 * death), in card order; the caster (at assault lane `lane`, -1 for other rows) may be dead
 * (on death) or jammed. */
CLC_FN void battle_sim_cast(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                            CLC_GLOBAL const struct battle_card_data *c, clc_u32 trig)
{
    if (!(c->trig & (1u << trig)))
        return;
    for (clc_u32 k = 0; k < c->n_act; k++) {
        if (c->act_trig[k] != trig)
            continue;
        if (c->act_id[k] == BATTLE_SKILL_SUMMON)
            battle_sim_summon(p, g, s, c->act_x[k], 0);
        else
            battle_sim_skill_once(p, g, s, lane, c, k);
    }
}

/* The on-death skills of card `c`, whose unit (assault lane `lane` of side `s`) Payback or
 * Revenge killed: as battle_sim_cast, but its hostile skills but Mimic aim at its own side
 * (the peer's default revenge_on_death rule: their targets are drawn as the enemy
 * commander would draw them). Out of line: rare. */
CLC_NOINLINE void battle_sim_cast_back(CLC_GLOBAL const struct battle_plan_data *p,
                                       CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                       CLC_GLOBAL const struct battle_card_data *c)
{
    for (clc_u32 k = 0; k < c->n_act; k++) {
        clc_u32 id = c->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE;
        struct battle_sim_ov ov;
        if (c->act_trig[k] != BATTLE_SIM_TRIG_DEATH)
            continue;
        if (id == BATTLE_SKILL_SUMMON) {
            battle_sim_summon(p, g, s, c->act_x[k], 0);
            continue;
        }
        if (!battle_sim_hostile(id) || id == BATTLE_SKILL_MIMIC) {
            battle_sim_skill_once(p, g, s, lane, c, k);
            continue;
        }
        ov.x = c->act_x[k];
        if ((battle_sim_opts(id) & BATTLE_OPT_X) && lane >= 0) {
            ov.x = battle_sim_sabotaged(p, c, k, g->sides[s].assaults[lane].sabotaged);
            if (ov.x <= 0)
                continue;
        }
        ov.y = c->act_y[k];
        ov.all = c->act_all[k];
        ov.n = c->act_n[k];
        ov.flip = 1;
        battle_sim_skill_as(p, g, s, lane, id, 0, c, k, BATTLE_SIM_PV_ALL, &ov);
    }
}

/* What the death of unit `lane` of side `s` (row `assault` or structures) sets off besides
 * its on-death skills: every living unit with Scavenge X gains X max health; when an
 * assault died, every other living own assault with Avenge X gains X attack and X max
 * health (half, rounded up, beyond the next lane). */
CLC_FN void battle_sim_death_fx(CLC_GLOBAL const struct battle_plan_data *p,
                                CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane, int assault)
{
    /* Each scan only in the plans with its skill: a death scans every row for Scavenge. */
    if (p->death_fx & BATTLE_SIM_DEATH_SCAVENGE)
        for (int k = 0; k < 2; k++)
            for (clc_u32 r = 0; r < 2; r++) {
                CLC_PRIVATE struct battle_side *side = &g->sides[k];
                CLC_PRIVATE struct battle_unit *row = r ? side->assaults : side->structures;
                clc_u32 n = r ? side->n_assaults : side->n_structures;
                for (clc_u32 i = 0; i < n; i++)
                    if (p->cards[row[i].card].scavenge && battle_sim_alive(&row[i]))
                        battle_sim_gain_hp(&row[i], p->cards[row[i].card].scavenge);
            }
    if (!assault || !(p->death_fx & BATTLE_SIM_DEATH_AVENGE))
        return;
    for (clc_u32 i = 0; i < g->sides[s].n_assaults; i++) {
        CLC_PRIVATE struct battle_unit *a = &g->sides[s].assaults[i];
        clc_i32 x = p->cards[a->card].avenge;
        if (!x || i == lane || !battle_sim_alive(a))
            continue;
        if (i + 1 < lane || i > lane + 1)
            x = (x + 1) / 2;
        if (!(a->flags & BATTLE_SIM_SUNDERED))
            battle_sim_gain_attack(a, x);
        battle_sim_gain_hp(a, x);
    }
}

/* Revenge X (a passive battleground effect of the side whose turn it is): when a unit of
 * side `s` dies, side `s`'s commander casts Heal all X, then Rally all X (as tuo queues
 * them: before the unit's on-death skills; Inhibit refuses them). A plan with Revenge sends
 * every death through battle_sim_triggers (battle_plan_data.death_fx). */
CLC_NOINLINE void battle_sim_revenge(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    int tap = battle_sim_active(p->mode, g->turn);
    clc_i32 x = battle_sim_passive(p, tap, BATTLE_PASSIVE_REVENGE);
    if (!x)
        return;
    for (int rally = 0; rally < 2; rally++) {
        clc_u32 id = rally ? BATTLE_SKILL_RALLY : BATTLE_SKILL_HEAL, refused = 0;
        for (clc_u32 i = 0; i < me->n_assaults; i++) {
            CLC_PRIVATE struct battle_unit *u = &me->assaults[i];
            if (!battle_sim_valid_on(p, id, u, s == tap, g->act))
                continue;
            if ((p->fx & BATTLE_SIM_FX_INHIBIT) && u->inhibited) {
                u->inhibited--;
                refused++;
                continue;
            }
            if (rally)
                u->rally = battle_sim_sat((clc_i32)u->rally + x);
            else
                battle_sim_heal(u, x);
        }
        if (refused)
            battle_sim_divert(p, g, id, x, 0, refused);
    }
}

/* Virulence (a passive battleground effect of the side whose turn it is): assault `lane` of
 * side `s`, which has just died, passes its poison to the living assault on its left, and
 * its poison and that of the assaults that died with it in the lanes just before it to the
 * living assault on its right (tuo's prepend_on_death, which takes the deaths it handles at
 * once in lane order: a death in the lane after the last one continues a run, whose left
 * neighbour is the one before the run's first lane). `run` holds the walk's state: [0] the
 * last dead lane + 1 (0: none yet), [1] the run's left neighbour + 1 (0: none), [2] the
 * poison stacked in the run. A dead unit's poison of -1 marks a death already handled
 * (battle_sim_virulence_hit), which ends a run. */
CLC_NOINLINE void battle_sim_virulence(CLC_GLOBAL const struct battle_plan_data *p,
                                       CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane,
                                       CLC_PRIVATE clc_i32 *run)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    clc_i32 x = me->assaults[lane].poison;
    if (!battle_sim_passive(p, battle_sim_active(p->mode, g->turn), BATTLE_PASSIVE_VIRULENCE))
        return;
    if (x < 0) {
        run[0] = run[1] = run[2] = 0;
        return;
    }
    if (run[0] != (clc_i32)lane) {
        run[1] = lane > 0 && battle_sim_alive(&me->assaults[lane - 1]) ? (clc_i32)lane : 0;
        run[2] = 0;
    }
    if (x > 0) {
        if (run[1])
            me->assaults[run[1] - 1].poison =
                battle_sim_sat((clc_i32)me->assaults[run[1] - 1].poison + x);
        run[2] = battle_sim_sat(run[2] + x);
    }
    if (lane + 1 < me->n_assaults && battle_sim_alive(&me->assaults[lane + 1]))
        me->assaults[lane + 1].poison =
            battle_sim_sat((clc_i32)me->assaults[lane + 1].poison + run[2]);
    run[0] = (clc_i32)lane + 1;
}

/* Virulence for assault `lane` of side `s`, which an attack has just killed: tuo handles
 * the death of an attack's target on its own, at once, before Venom adds to its poison and
 * before Swipe or Drain kill its neighbours; then marks it handled (poison -1: no Venom is
 * added to it, and the walk of battle_sim_triggers passes over it). */
CLC_NOINLINE void battle_sim_virulence_hit(CLC_GLOBAL const struct battle_plan_data *p,
                                           CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane)
{
    clc_i32 run[3] = {0, 0, 0};
    if (!battle_sim_passive(p, battle_sim_active(p->mode, g->turn), BATTLE_PASSIVE_VIRULENCE))
        return;
    battle_sim_virulence(p, g, s, lane, run);
    g->sides[s].assaults[lane].poison = -1;
}

/* Resolves what is pending: the effects and on-death skills of units that died and the
 * on-play skills of units summoned since the last call, and those of the units these kill
 * or summon, until none is left. Each unit dies once and a full row summons nothing, so it
 * ends. Order: the side whose turn it is first, its structures then assaults, lane order
 * (tuo keeps a queue in the order of the events; the two differ only in which of several
 * such events draws its random targets first). */
CLC_FN void battle_sim_triggers(CLC_GLOBAL const struct battle_plan_data *p,
                                CLC_PRIVATE struct battle_game *g)
{
    int first = battle_sim_active(p->mode, g->turn);
    while (g->pending) {
        for (int k = 0; k < 2; k++) {
            int s = k ? 1 - first : first;
            CLC_PRIVATE struct battle_side *side = &g->sides[s];
            /* The scan of a side ends where no flag of its own is left (a unit flagged
             * behind the scan raises the count too, and waits for the next pass as before):
             * the usual pass has a death or two, and the rows' ends are a predictor's guess. */
            for (clc_u32 r = 0; r < 2 && side->pending; r++) {
                CLC_PRIVATE struct battle_unit *row = r ? side->assaults : side->structures;
                clc_i32 run[3] = {0, 0, 0}; /* battle_sim_virulence's */
                /* The row may grow while we walk it (summons): read its size each time. */
                for (clc_u32 i = 0;
                     i < (r ? side->n_assaults : side->n_structures) && side->pending; i++) {
                    CLC_PRIVATE struct battle_unit *u = &row[i];
                    clc_u8 f = u->flags;
                    if (!(f & (BATTLE_SIM_DYING | BATTLE_SIM_FRESH)))
                        continue;
                    u->flags = (clc_u8)(f & ~(BATTLE_SIM_DYING | BATTLE_SIM_FRESH));
                    /* A unit summoned and killed before its on-play skills were cast has
                     * both flags, each counted once in pending, and casts its on-death
                     * skills only. */
                    battle_sim_pend(g, s,
                                    -((f & BATTLE_SIM_DYING) != 0) - ((f & BATTLE_SIM_FRESH) != 0));
                    g->work++;
                    if (f & BATTLE_SIM_DYING) {
                        if (p->death_fx)
                            battle_sim_death_fx(p, g, s, i, (int)r);
                        if (p->passive && r && battle_sim_has(p, BATTLE_SIM_PV(VIRULENCE)))
                            battle_sim_virulence(p, g, s, i, run);
                        if (p->passive && battle_sim_has(p, BATTLE_SIM_PV(REVENGE)))
                            battle_sim_revenge(p, g, s);
                        if (u->state & BATTLE_SIM_PB_DEATH)
                            battle_sim_cast_back(p, g, s, (clc_i32)i, &p->cards[u->card]);
                        else
                            battle_sim_cast(p, g, s, r ? (clc_i32)i : -1, &p->cards[u->card],
                                            BATTLE_SIM_TRIG_DEATH);
                    } else {
                        battle_sim_cast(p, g, s, r ? (clc_i32)i : -1, &p->cards[u->card],
                                        BATTLE_SIM_TRIG_PLAY);
                    }
                }
            }
        }
        /* A pass is work too, so that no pass count can run past the bound. At the bound
         * the game stops resolving (what is pending stays so) and ends with the turn. */
        if (++g->work >= p->work_limit) {
            g->last = 0;
            return;
        }
    }
}

/* The end of an action (a unit's round of skills and attack, the play of a card, the turn
 * start): every living unit with Barrier X that took damage N times during it gains N * X
 * Protect (the game's Barrier besides its Protect each turn); `apply` 0 drops the count
 * (damage at the end of a turn does not count). */
CLC_FN void battle_sim_action_end(CLC_GLOBAL const struct battle_plan_data *p,
                                  CLC_PRIVATE struct battle_game *g, int apply)
{
    if (!g->hit)
        return;
    g->hit = 0;
    for (int k = 0; k < 2; k++)
        for (clc_u32 r = 0; r < 2; r++) {
            CLC_PRIVATE struct battle_side *side = &g->sides[k];
            CLC_PRIVATE struct battle_unit *row = r ? side->assaults : side->structures;
            clc_u32 n = r ? side->n_assaults : side->n_structures;
            for (clc_u32 i = 0; i < n; i++) {
                CLC_PRIVATE struct battle_unit *u = &row[i];
                if (!u->hits)
                    continue;
                if (apply && battle_sim_alive(u))
                    u->protect = battle_sim_sat((clc_i32)u->protect +
                                                (clc_i32)u->hits * p->cards[u->card].barrier);
                u->hits = 0;
            }
        }
}

/* A unit's (or, with `cd` of the commander, the commander's) activation skills, in card
 * order, each resolved with the triggers it sets off; a skill still cooling down is
 * skipped, and one that took effect starts its cooldown. `lane`: the unit's assault lane,
 * -1 for other rows. */
/* `pv`: p->passive, a constant in each copy. */
CLC_INLINE void battle_sim_skills_pv(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                     CLC_GLOBAL const struct battle_card_data *c,
                                     CLC_PRIVATE clc_u32 *cd, const int pv)
{
    /* `c` stays the card the unit had when the action began: an assault that evolves one of
     * its own activation skills casts the old one until its next action (tuo: the new one
     * from the next skill; docs/rules/battle.md). Reading the card again after each skill
     * cost plain games 2-4% of their instructions. */
    clc_u32 m = c->act_turn; /* Summon waits for the delay; triggered skills their event */
    for (clc_u32 k = 0; m; k++, m >>= 1) {
        if (!(m & 1u) || (*cd && battle_sim_cd(*cd, k)))
            continue;
        if (battle_sim_skill(p, g, s, lane, c, k, pv) && c->act_c[k])
            *cd = battle_sim_cd_set(*cd, k, c->act_c[k]);
        /* A unit that a skill cast back (Payback, Revenge: copies with `pv`) or a death's
         * skill killed or jammed casts nothing more (tuo's resolve_skill checks each
         * skill). */
        if (g->pending)
            battle_sim_triggers(p, g);
        else if (!pv)
            continue;
        if (lane >= 0 && (g->sides[s].assaults[lane].flags &
                          (BATTLE_SIM_ALIVE | BATTLE_SIM_JAMMED)) != BATTLE_SIM_ALIVE)
            break;
    }
}

/* The copies, out of line: one call per unit and turn, with each skill's loop inlined. The
 * copies for plans with the rarer skills, the passive battleground effects or both
 * (p->passive's bits) sit beside the plain one, so that games without them run the code they
 * ran before and each plan pays for its own kind of rules only. */
CLC_NOCLONE void battle_sim_skills_plain(CLC_GLOBAL const struct battle_plan_data *p,
                                         CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                         CLC_GLOBAL const struct battle_card_data *c,
                                         CLC_PRIVATE clc_u32 *cd)
{
    battle_sim_skills_pv(p, g, s, lane, c, cd, 0);
}

CLC_NOCLONE void battle_sim_skills_passive(CLC_GLOBAL const struct battle_plan_data *p,
                                           CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                           CLC_GLOBAL const struct battle_card_data *c,
                                           CLC_PRIVATE clc_u32 *cd)
{
    battle_sim_skills_pv(p, g, s, lane, c, cd, BATTLE_SIM_PV_ALL);
}

#ifndef __OPENCL_VERSION__
CLC_NOCLONE void battle_sim_skills_rare(CLC_GLOBAL const struct battle_plan_data *p,
                                        CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                        CLC_GLOBAL const struct battle_card_data *c,
                                        CLC_PRIVATE clc_u32 *cd)
{
    battle_sim_skills_pv(p, g, s, lane, c, cd, BATTLE_SIM_PV_RARE);
}

CLC_NOCLONE void battle_sim_skills_effects(CLC_GLOBAL const struct battle_plan_data *p,
                                           CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                           CLC_GLOBAL const struct battle_card_data *c,
                                           CLC_PRIVATE clc_u32 *cd)
{
    battle_sim_skills_pv(p, g, s, lane, c, cd, BATTLE_SIM_PV_EFFECTS);
}
#endif

/* The unit's or commander's skills in the copy `pv` says (p->passive's bits: a constant in
 * each copy of the turn on the host, battle_sim_turn_pv; a kernel keeps two copies, the
 * plain one and the one with every rule, as its build was). */
CLC_INLINE void battle_sim_skills_as(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                     CLC_GLOBAL const struct battle_card_data *c,
                                     CLC_PRIVATE clc_u32 *cd, const int pv)
{
#ifndef __OPENCL_VERSION__
    if (pv == BATTLE_SIM_PV_RARE) {
        battle_sim_skills_rare(p, g, s, lane, c, cd);
        return;
    }
    if (pv == BATTLE_SIM_PV_EFFECTS) {
        battle_sim_skills_effects(p, g, s, lane, c, cd);
        return;
    }
#endif
    if (pv)
        battle_sim_skills_passive(p, g, s, lane, c, cd);
    else
        battle_sim_skills_plain(p, g, s, lane, c, cd);
}

/* After an action: Flurry X, off cooldown and while the unit can act, grants X more
 * actions and starts its cooldown. Returns the number of actions now due. */
CLC_FN clc_u32 battle_sim_flurry(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_game *g,
                                 CLC_GLOBAL const struct battle_card_data *c,
                                 CLC_PRIVATE clc_u32 *cd, clc_u32 due)
{
    if (c->flurry && !battle_sim_cd(*cd, BATTLE_SIM_CD_FLURRY)) {
        *cd = battle_sim_cd_set(*cd, BATTLE_SIM_CD_FLURRY, c->flurry_c);
        /* Extra actions are work; at the bound none is granted and the turn ends. */
        g->work += c->flurry;
        if (g->work >= p->work_limit) {
            g->last = 0;
            return due;
        }
        return due + c->flurry;
    }
    return due;
}

/* ---------------------------------------------------------------------------------------
 * The attack
 * ------------------------------------------------------------------------------------- */

CLC_FN clc_u32 battle_sim_bits(clc_u32 v)
{
    clc_u32 n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* Side `s`'s living assaults as Legion and Coalition of its assault `u` count them: returns
 * the others of its faction, and sets *factions to the bit set of their factions. */
CLC_FN clc_u32 battle_sim_kin(CLC_GLOBAL const struct battle_plan_data *p,
                              CLC_PRIVATE struct battle_game *g, int s,
                              CLC_PRIVATE const struct battle_unit *u,
                              CLC_PRIVATE clc_u32 *factions)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    clc_u32 faction = p->cards[u->card].faction, same = 0, f = 0;
    for (clc_u32 i = 0; i < me->n_assaults; i++) {
        CLC_PRIVATE const struct battle_unit *a = &me->assaults[i];
        if (!battle_sim_alive(a))
            continue;
        f |= 1u << p->cards[a->card].faction;
        if (a != u && p->cards[a->card].faction == faction)
            same++;
    }
    *factions = f;
    return same;
}

/* What the attack of `u` (side `s`) adds to its power: Legion X per other living own
 * assault of its faction, Coalition X per faction among own living assaults, Rupture X,
 * Venom X on a poisoned target `t` (0: the commander). */
CLC_FN clc_i32 battle_sim_bonus(CLC_GLOBAL const struct battle_plan_data *p,
                                CLC_PRIVATE struct battle_game *g, int s,
                                CLC_PRIVATE const struct battle_unit *u,
                                CLC_PRIVATE const struct battle_unit *t)
{
    CLC_GLOBAL const struct battle_card_data *ac = &p->cards[u->card];
    clc_i32 b = ac->rupture;
    if (ac->legion || ac->coalition) {
        clc_u32 factions;
        clc_u32 same = battle_sim_kin(p, g, s, u, &factions);
        b += (clc_i32)(ac->legion * same);
        if (ac->coalition)
            b += (clc_i32)(ac->coalition * battle_sim_bits(factions));
    }
    if (ac->venom && t && t->poison > 0)
        b += ac->venom;
    return b;
}

/* What the passive battleground effects of side `s` (the attacker's) add to the attack
 * damage of its assault `u` before the target's defences, as tuo's modify_attack_damage
 * ends: Bloodlust's damage so far this phase; Brigade and Unity heal the attacker by what
 * Legion and Coalition added. */
CLC_NOINLINE clc_i32 battle_sim_passive_damage(CLC_GLOBAL const struct battle_plan_data *p,
                                               CLC_PRIVATE struct battle_game *g, int s,
                                               CLC_PRIVATE struct battle_unit *u)
{
    CLC_GLOBAL const struct battle_card_data *ac = &p->cards[u->card];
    clc_i32 brigade = ac->legion ? battle_sim_passive(p, s, BATTLE_PASSIVE_BRIGADE) : 0;
    clc_i32 unity = ac->coalition ? battle_sim_passive(p, s, BATTLE_PASSIVE_UNITY) : 0;
    if (brigade || unity) {
        clc_u32 factions;
        clc_u32 same = battle_sim_kin(p, g, s, u, &factions);
        if (brigade && same && battle_sim_alive(u))
            battle_sim_heal_hurt(u, (clc_i32)(ac->legion * same));
        if (unity && battle_sim_alive(u))
            battle_sim_heal_hurt(u, (clc_i32)(ac->coalition * battle_sim_bits(factions)));
    }
    return g->bloodlust;
}

/* The largest Armor among the living assaults of side `s` within Fortification X (a passive
 * battleground effect of the attacker, side 1 - s) lanes of the one at `lane`, its own
 * included: what the attack on it reduces by. */
CLC_NOINLINE clc_i32 battle_sim_fortified(CLC_GLOBAL const struct battle_plan_data *p,
                                          CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane,
                                          clc_i32 armor)
{
    CLC_PRIVATE struct battle_side *side = &g->sides[s];
    clc_i32 x = battle_sim_passive(p, 1 - s, BATTLE_PASSIVE_FORTIFICATION);
    clc_i32 lo = (clc_i32)lane - x, hi = (clc_i32)lane + x;
    if (!x)
        return armor;
    for (clc_i32 i = lo > 0 ? lo : 0; i <= hi && i < (clc_i32)side->n_assaults; i++) {
        CLC_PRIVATE const struct battle_unit *a = &side->assaults[i];
        if (battle_sim_alive(a) && p->cards[a->card].armor > armor)
            armor = p->cards[a->card].armor;
    }
    return armor;
}

/* A passive effect's denominator (Counterflux, Devour, Enduring Rage): its value X gives
 * (v - 1) / X + 1 of a skill's v. */
CLC_FN clc_i32 battle_sim_part(clc_i32 v, clc_i32 x)
{
    return (v - 1) / x + 1;
}

/* After an attack of assault `u` of side `s` on assault `t` that did damage (tuo's order:
 * after Poison, before Hunt), the attacker's passive battleground effects: Heroism, when
 * `t` died, adds the attacker's Valor + Bravery to its attack; Devour X adds part of its
 * Leech + Refresh to its attack and max health. */
CLC_NOINLINE void battle_sim_passive_hit(CLC_GLOBAL const struct battle_plan_data *p, int s,
                                         CLC_PRIVATE struct battle_unit *u,
                                         CLC_PRIVATE const struct battle_unit *t)
{
    CLC_GLOBAL const struct battle_card_data *ac = &p->cards[u->card];
    clc_i32 v = (clc_i32)ac->valor + ac->bravery;
    clc_i32 x;
    int sundered = (u->flags & BATTLE_SIM_SUNDERED) != 0;
    if (v && !sundered && !battle_sim_alive(t) && battle_sim_passive(p, s, BATTLE_PASSIVE_HEROISM))
        battle_sim_gain_attack(u, v);
    v = (clc_i32)ac->leech + ac->refresh;
    x = battle_sim_passive(p, s, BATTLE_PASSIVE_DEVOUR);
    if (v && x) {
        v = battle_sim_part(v, x);
        if (!sundered)
            battle_sim_gain_attack(u, v);
        battle_sim_gain_hp(u, v);
    }
}

/* Assault `lane` of side `s` attacks (nothing when its power is 0). Sets g->over when a
 * commander falls. `pv`: pv, a constant in each copy (battle_sim_attack). */
/* NOLINTNEXTLINE(readability-function-size): the attack's steps in the game's order */
CLC_INLINE void battle_sim_attack_pv(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane,
                                     const int pv)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - s];
    CLC_PRIVATE struct battle_unit *u = &me->assaults[lane];
    CLC_GLOBAL const struct battle_card_data *ac = &p->cards[u->card];
    CLC_GLOBAL const struct battle_card_data *dc;
    CLC_PRIVATE struct battle_unit *t = 0;
    clc_i32 power = battle_sim_power(u);
    clc_i32 dmg, red, counter, berserk;
    int on_assault, sundered;
    if (power == 0)
        return;
    /* Target: the living assault opposite, else the first living Wall, else the
     * commander. */
    if (lane < en->n_assaults && battle_sim_alive(&en->assaults[lane])) {
        t = &en->assaults[lane];
    } else {
        for (clc_u32 i = 0; i < en->n_structures; i++) {
            CLC_PRIVATE struct battle_unit *w = &en->structures[i];
            if (battle_sim_alive(w) && p->cards[w->card].wall) {
                t = w;
                break;
            }
        }
    }
    dc = t ? &p->cards[t->card] : &p->cards[g->sides[1 - s].commander];
    on_assault = t && dc->type == BATTLE_ASSAULT;
    /* Flying dodges with probability 1/2 (a draw only when the target has it). */
    if (dc->flying && rng_below(&g->rng, 2) == 0)
        return;
    /* Subdue, before the damage: an attacker left with no power does not attack. */
    if ((pv & BATTLE_SIM_PV_RARE) && dc->subdue) {
        battle_sim_subdue(ac, u, dc->subdue);
        power = battle_sim_power(u);
        if (power == 0)
            return;
    }
    /* A sundered attacker adds nothing to its power: no Legion, Coalition, Rupture, Venom,
     * passive effect, Mark or Enfeeble on the target (tuo's modify_attack_damage). */
    sundered = (pv & BATTLE_SIM_PV_RARE) && (u->flags & BATTLE_SIM_SUNDERED);
    dmg = power;
    if (!sundered) {
        dmg += battle_sim_bonus(p, g, s, u, t);
        if ((pv & BATTLE_SIM_PV_RARE) && t)
            dmg += t->marked;
        if ((pv & BATTLE_SIM_PV_EFFECTS) &&
            battle_sim_has(p, BATTLE_SIM_PV(BLOODLUST) | BATTLE_SIM_PV(BRIGADE) |
                                  BATTLE_SIM_PV(UNITY)))
            dmg += battle_sim_passive_damage(p, g, s, u);
    }
    if (t) {
        red = on_assault ? dc->armor : 0;
        if (on_assault && (pv & BATTLE_SIM_PV_EFFECTS) &&
            battle_sim_has(p, BATTLE_SIM_PV(FORTIFICATION)))
            red = battle_sim_fortified(p, g, 1 - s, lane, red);
        red += t->protect - ac->pierce - ac->rupture;
        /* A corroded target's reduction is less by its corrosion's X (copies with `pv`). */
        if ((pv & BATTLE_SIM_PV_RARE) && red > 0)
            red -= t->corrode;
        dmg += (sundered ? 0 : t->enfeeble) - (red > 0 ? red : 0);
        if (dmg < 0)
            dmg = 0;
        battle_sim_hurt(p, g, 1 - s, t, dmg);
        if ((pv & BATTLE_SIM_PV_EFFECTS) && on_assault && !battle_sim_alive(t) &&
            battle_sim_has(p, BATTLE_SIM_PV(VIRULENCE)))
            battle_sim_virulence_hit(p, g, 1 - s, lane);
        /* Venom poisons an assault it hit (one Virulence has handled is left so). */
        if (dmg > 0 && on_assault && ac->venom && (!(pv & BATTLE_SIM_PV_EFFECTS) || t->poison >= 0))
            t->poison = battle_sim_sat((clc_i32)t->poison + ac->venom);
    } else {
        clc_i32 hp = (clc_i32)en->commander_hp - dmg;
        en->commander_hp = (clc_i16)(hp > 0 ? hp : 0);
        if (hp <= 0) {
            g->over = (clc_u8)(2 - s);
            return;
        }
    }
    /* The target's death, then its on-attacked skills (even at 0 damage, even when it
     * died), each with what they set off. */
    if (g->pending)
        battle_sim_triggers(p, g);
    battle_sim_cast(p, g, 1 - s, on_assault ? (clc_i32)lane : -1, dc, BATTLE_SIM_TRIG_ATTACKED);
    if (g->pending)
        battle_sim_triggers(p, g);
    /* Counter fires even when the hit did 0; Entrap adds to it (copies with `pv`). */
    counter = dc->counter + ((pv & BATTLE_SIM_PV_RARE) && t ? t->entrapped : 0);
    if (counter && battle_sim_alive(u)) {
        battle_sim_strike(p, g, s, u, counter);
        if (g->pending)
            battle_sim_triggers(p, g);
        /* Counterflux (the attacker's passive effect): a living assault that countered
         * heals and gains attack by part of its Counter. */
        if (on_assault && (pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_alive(t) &&
            battle_sim_passive(p, s, BATTLE_PASSIVE_COUNTERFLUX)) {
            clc_i32 v =
                battle_sim_part(counter, battle_sim_passive(p, s, BATTLE_PASSIVE_COUNTERFLUX));
            battle_sim_heal(t, v);
            if (!(t->flags & BATTLE_SIM_SUNDERED))
                battle_sim_gain_attack(t, v);
        }
    }
    /* Corrosive: the attacker is corroded by the target's X when that is more than it was
     * (even at 0 damage; a commander's or a Wall's too). */
    if ((pv & BATTLE_SIM_PV_RARE) && dc->corrosive > u->corrode && battle_sim_alive(u))
        u->corrode = dc->corrosive;
    /* Leech, on a hit that did damage to an assault only: it raises max health by what it
     * heals, so the unit gains min(X, damage) health whatever it had. */
    if (dmg > 0 && ac->leech && on_assault && battle_sim_alive(u))
        battle_sim_gain_hp(u, ac->leech < dmg ? ac->leech : dmg);
    /* Swipe and Drain hit the target's neighbours (an assault target only, even at 0
     * damage, even when the attacker died); Drain heals what the attack and they did. */
    if ((ac->swipe || ac->drain) && on_assault) {
        clc_i32 total = dmg;
        /* Critical Reach (the attacker's passive effect): two lanes on each side. */
        clc_u32 r =
            (pv & BATTLE_SIM_PV_EFFECTS) && p->sides[s].passive[BATTLE_PASSIVE_CRITICALREACH] ? 2u
                                                                                              : 1u;
        for (clc_u32 i = lane > r ? lane - r : 0; i <= lane + r && i < en->n_assaults; i++) {
            CLC_PRIVATE struct battle_unit *a = &en->assaults[i];
            if (i != lane && battle_sim_alive(a))
                total += battle_sim_strike(p, g, 1 - s, a, ac->swipe + ac->drain);
        }
        if (ac->drain && battle_sim_alive(u))
            battle_sim_heal_hurt(u, total);
        if (g->pending)
            battle_sim_triggers(p, g);
    }
    /* Berserk, with what Enrage added (copies with `pv`). */
    berserk = ac->berserk + ((pv & BATTLE_SIM_PV_RARE) ? u->enraged : 0);
    if (!pv) {
        /* No branch on whether the hit did damage, which a predictor cannot learn (attack
         * never exceeds the cap, so adding 0 changes nothing). */
        u->attack =
            battle_sim_sat((clc_i32)u->attack + (((dmg > 0) & battle_sim_alive(u)) ? berserk : 0));
    } else if (dmg > 0 && berserk && !sundered && battle_sim_alive(u)) {
        battle_sim_gain_attack(u, berserk); /* Subdue's debt */
        /* Enduring Rage (the attacker's passive effect): heals and protects the unit by
         * part of its Berserk. */
        if ((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_passive(p, s, BATTLE_PASSIVE_ENDURINGRAGE)) {
            clc_i32 v =
                battle_sim_part(berserk, battle_sim_passive(p, s, BATTLE_PASSIVE_ENDURINGRAGE));
            battle_sim_heal(u, v);
            u->protect = battle_sim_sat((clc_i32)u->protect + v);
        }
    }
    /* Poison poisons whoever attacks it, even when the hit was fully blocked. */
    if (dc->poison && battle_sim_alive(u))
        u->poison = battle_sim_sat((clc_i32)u->poison + dc->poison);
    /* Mark: X marks on the assault the hit damaged (not a commander or a Wall), for good. */
    if ((pv & BATTLE_SIM_PV_RARE) && dmg > 0 && ac->mark && on_assault && battle_sim_alive(u))
        t->marked = battle_sim_sat((clc_i32)t->marked + ac->mark);
    if ((pv & BATTLE_SIM_PV_EFFECTS) && dmg > 0 && on_assault && battle_sim_alive(u) &&
        battle_sim_has(p, BATTLE_SIM_PV(HEROISM) | BATTLE_SIM_PV(DEVOUR)))
        battle_sim_passive_hit(p, s, u, t);
    /* Hunt: X to the first living enemy assault, whatever became of the attacker. */
    if (ac->hunt) {
        for (clc_u32 i = 0; i < en->n_assaults; i++)
            if (battle_sim_alive(&en->assaults[i])) {
                battle_sim_strike(p, g, 1 - s, &en->assaults[i], ac->hunt);
                break;
            }
        if (g->pending)
            battle_sim_triggers(p, g);
    }
    /* Bloodlust X (the attacker's passive effect): the first attack of each assault's turn
     * that did damage adds X to the damage of the phase's later attacks. */
    if ((pv & BATTLE_SIM_PV_EFFECTS) && dmg > 0 && !g->lusted &&
        battle_sim_passive(p, s, BATTLE_PASSIVE_BLOODLUST)) {
        g->bloodlust = battle_sim_sat((clc_i32)g->bloodlust +
                                      battle_sim_passive(p, s, BATTLE_PASSIVE_BLOODLUST));
        g->lusted = 1;
    }
}

/* Corrosion of assault `u` after its action's attack step (tuo's apply_corrosion and
 * remove_corrosion): when it attacked (`attacked`: it had attack power), it loses attack by
 * the X it was corroded by, at most its attack power and its attack, for as long as it
 * stays corroded; when it did not, its corrosion ends and its attack comes back. */
CLC_FN void battle_sim_corrosion(CLC_PRIVATE struct battle_unit *u, int attacked)
{
    if (attacked) {
        clc_i32 v = u->corrode < battle_sim_power(u) ? u->corrode : battle_sim_power(u);
        v = v < u->attack ? v : u->attack;
        u->attack = (clc_i16)(u->attack - v);
        u->corroded = (clc_i16)(u->corroded + v);
    } else {
        u->attack = battle_sim_sat((clc_i32)u->attack + u->corroded);
        u->corrode = 0;
        u->corroded = 0;
    }
}

/* The attack; `pv` (p->passive, a constant in each copy of the turn, battle_sim_turn_pv)
 * adds the passive battleground effects' and the rarer skills' steps, Corrosive's last:
 * games without them play the copy that has none. */
CLC_INLINE void battle_sim_attack(CLC_GLOBAL const struct battle_plan_data *p,
                                  CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane,
                                  const int pv)
{
    CLC_PRIVATE struct battle_unit *u = &g->sides[s].assaults[lane];
    int attacked;
    if (!(pv & BATTLE_SIM_PV_RARE)) {
        battle_sim_attack_pv(p, g, s, lane, pv);
        return;
    }
    attacked = battle_sim_power(u) > 0;
    battle_sim_attack_pv(p, g, s, lane, pv);
    if (u->corrode && !g->over)
        battle_sim_corrosion(u, attacked);
}

/* ---------------------------------------------------------------------------------------
 * One turn
 * ------------------------------------------------------------------------------------- */

/* Removes dead units from both rows of a side, survivors keeping their order. */
CLC_FN void battle_sim_compress(CLC_PRIVATE struct battle_side *side)
{
    /* The counts are read once: the units' copies could alias them for the compiler. */
    clc_u32 ns = side->n_structures, na = side->n_assaults;
    clc_u32 n = 0;
    for (clc_u32 i = 0; i < ns; i++)
        if (battle_sim_alive(&side->structures[i])) {
            if (n != i)
                side->structures[n] = side->structures[i];
            n++;
        }
    side->n_structures = (clc_u8)n;
    n = 0;
    for (clc_u32 i = 0; i < na; i++)
        if (battle_sim_alive(&side->assaults[i])) {
            if (n != i)
                side->assaults[n] = side->assaults[i];
            n++;
        }
    side->n_assaults = (clc_u8)n;
    side->died = 0;
}

/* Plays the card side `s` draws this turn into its row (right-hand end) and casts its
 * on-play skills. A row already full (only summons can fill one) takes nothing. */
CLC_INLINE void battle_sim_play_card(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    clc_u32 e = battle_sim_select(p, g, s);
    CLC_GLOBAL const struct battle_card_data *c;
    clc_u32 card;
    clc_i32 lane;
    me->last_played = (clc_u8)e;
    if (e == BATTLE_SIM_NONE)
        return;
    card = me->card[e];
    c = &p->cards[card];
    /* A commander card drawn from a deck (two missions have one) is not played, as the peer
     * skips it; like a card drawn into a full row, it never entered play. */
    lane = c->type == BATTLE_COMMANDER ? -1 : battle_sim_enter(p, g, s, card, 0, 0);
    if (lane < 0) {
        g->refused[s] = (clc_u8)(g->refused[s] + (g->refused[s] < 255));
        return;
    }
    battle_sim_cast(p, g, s, c->type == BATTLE_STRUCTURE ? -1 : lane, c, BATTLE_SIM_TRIG_PLAY);
    if (g->pending)
        battle_sim_triggers(p, g);
}

/* After side `s` played its card, the instant debuffs of each of its living assaults on the
 * living enemy assault opposite (tuo's phase of check_and_perform_inhibit, _sabotage and
 * _disease; delay and Jam do not matter):
 * - Inhibit X: it refuses the next X allied skills aimed at it, unless it already refuses
 *   as many (the count is not added to), until the end of its own next turn;
 * - Sabotage X: it casts with X less on its skills' X until its own turn ends, unless it
 *   already had as much or more (values are not added up);
 * - Disease X: it is diseased by X more (they add up, and only health gains pay them off:
 *   battle_sim_cure). */
CLC_FN void battle_sim_debuffs(CLC_GLOBAL const struct battle_plan_data *p,
                               CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - s];
    for (clc_u32 i = 0; i < me->n_assaults && i < en->n_assaults; i++) {
        CLC_PRIVATE struct battle_unit *t = &en->assaults[i];
        CLC_GLOBAL const struct battle_card_data *c = &p->cards[me->assaults[i].card];
        if (!battle_sim_alive(&me->assaults[i]) || !battle_sim_alive(t))
            continue;
        if (c->inhibit > t->inhibited)
            t->inhibited = c->inhibit;
        if (c->sabotage > t->sabotaged)
            t->sabotaged = c->sabotage;
        if (c->disease)
            t->diseased = battle_sim_sat((clc_i32)t->diseased + (clc_i32)c->disease);
    }
}

/* Heroism (a passive battleground effect of side `s`, whose turn it is), after the card
 * played and Inhibit (tuo's phase of Inhibit, Sabotage and Disease): each living own
 * assault with Valor or Bravery gains (Valor + Bravery + 1) / 2 Protect, cast by the
 * commander (Inhibit refuses it). */
CLC_NOINLINE void battle_sim_heroism(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    if (!battle_sim_passive(p, s, BATTLE_PASSIVE_HEROISM))
        return;
    for (clc_u32 i = 0; i < me->n_assaults; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->assaults[i];
        clc_i32 v = (clc_i32)p->cards[u->card].valor + p->cards[u->card].bravery;
        if (!v)
            continue;
        if ((p->fx & BATTLE_SIM_FX_INHIBIT) && u->inhibited) {
            u->inhibited--;
            battle_sim_divert(p, g, BATTLE_SKILL_PROTECT, (v + 1) / 2, 0, 1);
            continue;
        }
        if (battle_sim_alive(u))
            u->protect = battle_sim_sat((clc_i32)u->protect + (v + 1) / 2);
    }
}

/* The end of Enhance's and Evolve's changes on side `en`: its assaults play their own cards
 * again. Out of line: only plans with them call it. */
CLC_NOINLINE void battle_sim_unmod(CLC_GLOBAL const struct battle_plan_data *p,
                                   CLC_PRIVATE struct battle_side *en)
{
    for (clc_u32 i = 0; i < en->n_assaults; i++)
        en->assaults[i].card = p->card_base[en->assaults[i].card];
}

/* Side `s`'s unit with card `c` (an assault at `lane`; -1 for the commander and structures),
 * acting this turn, casts its Enhance skills at its turn start (tuo's
 * check_and_perform_enhance with its default enhance_early): those of Allegiance, Absorb,
 * Stasis and Bravery first, then the others, each in card order; Inhibit may refuse them.
 * Out of line: only plans with Enhance call it. */
CLC_NOINLINE void battle_sim_enhance(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                     CLC_GLOBAL const struct battle_card_data *c)
{
    /* One scan of the card sorts its Enhance skills into the two rounds, a bit each (the
     * card is the plan's: casting changes the unit's card, not this one). A scan per round
     * cost real-s39 1.3% and real-r17 1.0% more instructions (callgrind, 2026-11-28). */
    clc_u32 round[2] = {0, 0};
    for (clc_u32 k = 0; k < c->n_act; k++) {
        clc_u32 m = c->act_x[k];
        if ((c->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE) == BATTLE_SKILL_ENHANCE &&
            c->act_trig[k] == BATTLE_SIM_TRIG_ACTIVATE && m < p->n_mods)
            round[(p->mod_flags[m] & BATTLE_SIM_MOD_EARLY) == 0] |= 1u << k;
    }
    for (clc_u32 r = 0; r < 2; r++)
        for (clc_u32 k = 0, m = round[r]; m; k++, m >>= 1)
            if (m & 1u)
                battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_ENHANCE,
                                    (c->act_id[k] & BATTLE_SIM_ACT_REFUSABLE) != 0, c, k,
                                    BATTLE_SIM_PV_ALL, 0);
}

/* A turn start's tick of a row's `n` living units in a plan where no card does anything at
 * its turn start (no BATTLE_SIM_FX_TICK): delay and cooldowns only, so nothing joins the row
 * meanwhile and `n` is read once (the stores below could alias it for the compiler). No
 * branches: whether a unit still waits is what a predictor cannot learn. A unit that waits
 * has no cooldowns (it enters with none, and only its own actions, at delay 0, start one; no
 * delay grows), and battle_sim_cd_tick of none is none, so both tick unconditionally. */
CLC_FN void battle_sim_tick_plain(CLC_PRIVATE struct battle_unit *row, clc_u32 n)
{
    for (clc_u32 i = 0; i < n; i++) {
        CLC_PRIVATE struct battle_unit *u = &row[i];
        clc_u32 d = u->delay;
        if (!battle_sim_alive(u))
            continue;
        u->delay = (clc_u8)(d - (d != 0u));
        u->cd = battle_sim_cd_tick(u->cd);
    }
}

/* Turn start for unit `lane` of a row of the active side: Enhance (`mods`: the plan has it), then
 * Barrier adds its Protect, Absorb is renewed to X and Bravery checks the enemy opposite; then a
 * delay above 0 goes down by 1 (reaching 0 sets off Valor and its activation Summon, a structure's
 * starting the summoned card one turn nearer); at delay 0 its cooldowns tick instead. */
CLC_FN void battle_sim_tick(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane, int assault,
                            int mods)
{
    CLC_PRIVATE struct battle_unit *u =
        assault ? &g->sides[s].assaults[lane] : &g->sides[s].structures[lane];
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
    if (!battle_sim_alive(u))
        return;
    if (mods && (c->trig & BATTLE_SIM_CARD_ENHANCES) && !u->delay &&
        !(u->flags & BATTLE_SIM_JAMMED)) {
        battle_sim_enhance(p, g, s, assault ? (clc_i32)lane : -1, c);
        c = &p->cards[u->card]; /* it may have enhanced itself */
    }
    if (c->barrier)
        u->protect = battle_sim_sat((clc_i32)u->protect + c->barrier);
    if (c->absorb)
        u->absorb = c->absorb;
    if (assault && c->bravery)
        battle_sim_bravery(p, g, s, lane, c->bravery);
    if (u->delay) {
        u->delay--;
        if (!u->delay && assault && c->valor)
            battle_sim_brave(p, g, s, lane, c->valor);
        if (!u->delay && c->summon_act)
            battle_sim_summon(p, g, s, c->summon_act - 1u, c->type == BATTLE_STRUCTURE);
    } else if (u->cd) {
        u->cd = battle_sim_cd_tick(u->cd);
    }
}

/* ---------------------------------------------------------------------------------------
 * Scoring
 * ------------------------------------------------------------------------------------- */

/**
 * The units of side `s` destroyed so far, those Summon brought included only with `all`
 * (the peer's total_cards_destroyed and total_nonsummon_cards_destroyed): those that
 * entered play (the starting rows, the cards played, the summoned) less those standing.
 * Only a finished game of a scoring that counts units needs it, so that no turn pays for
 * counting deaths. A dead unit of a mid-game state's rows counts as destroyed.
 */
CLC_NOINLINE clc_u32 battle_sim_lost(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE const struct battle_game *g, int s, int all)
{
    CLC_PRIVATE const struct battle_side *sd = &g->sides[s];
    clc_u32 in = (clc_u32)p->sides[s].n_structures + p->sides[s].pool_forts +
                 p->sides[s].n_assaults + sd->head - g->refused[s] + (all ? g->summoned[s] : 0u);
    clc_u32 standing = 0;
    for (clc_u32 i = 0; i < sd->n_structures; i++)
        standing += battle_sim_alive(&sd->structures[i]) &&
                    (all || !(sd->structures[i].flags & BATTLE_SIM_SUMMONED));
    for (clc_u32 i = 0; i < sd->n_assaults; i++)
        standing += battle_sim_alive(&sd->assaults[i]) &&
                    (all || !(sd->assaults[i].flags & BATTLE_SIM_SUMMONED));
    return in > standing ? in - standing : 0u;
}

/* Brawl points of side `s` for a game it won: 55, plus the enemy units destroyed, plus its
 * cards not played yet, less one a started 8 turns (the peer's evaluate_brawl_score). */
CLC_FN clc_u32 battle_sim_brawl(CLC_GLOBAL const struct battle_plan_data *p,
                                CLC_PRIVATE const struct battle_game *g, int s)
{
    clc_u32 left = (clc_u32)g->sides[s].n_seq - g->sides[s].head;
    return 55u + battle_sim_lost(p, g, 1 - s, 1) + left - ((clc_u32)g->turn + 7u) / 8u;
}

/* Guild-war points of a game won on turn `turn`: 208, less 4 a full round, at least 0. */
CLC_FN clc_u32 battle_sim_war(clc_u32 turn)
{
    clc_u32 w = turn / 2u * 4u;
    return w < 208u ? 208u - w : 0u;
}

/**
 * The points of a finished game with outcome `outcome` under the plan's scoring, from the
 * attacker's view, as the peer's evaluate_sim_result counts them (docs/rules/battle.md,
 * "Scoring"; where the peer's unsigned sums wrap, they stop at 0 here). The defending
 * forms score the attacker as the defender of a brawl or war: the event's best score less
 * what the enemy earned, and the best less the worst on a win or stall.
 */
CLC_FN clc_u32 battle_sim_points(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE const struct battle_game *g, clc_u32 outcome)
{
    const int win = outcome == BATTLE_SIM_WIN, loss = outcome == BATTLE_SIM_LOSS;
    switch (p->scoring) {
    case BATTLE_SCORING_DEFENSE:
        return loss ? 0u : 100u;
    case BATTLE_SCORING_RAID: {
        /* 15, plus the deck cards of the boss's side destroyed, less a tenth of the boss's
         * health a tenth it keeps (rounded down); a win scores 100. */
        clc_i32 max = p->cards[g->sides[1].commander].health;
        clc_i32 hp = g->sides[1].commander_hp;
        clc_u32 kept = max > 0 && hp > 0 ? (clc_u32)(10 * (hp < max ? hp : max) / max) : 0u;
        return win ? 100u : 15u + battle_sim_lost(p, g, 1, 0) - kept;
    }
    case BATTLE_SCORING_BRAWL:
        return win ? battle_sim_brawl(p, g, 0) : 5u;
    case BATTLE_SCORING_BRAWL_DEFENSE: {
        clc_u32 enemy = loss ? battle_sim_brawl(p, g, 1) : 5u;
        return enemy < 100u ? 100u - enemy : 0u;
    }
    case BATTLE_SCORING_WAR:
        return win ? battle_sim_war(g->turn) : 20u;
    case BATTLE_SCORING_WAR_DEFENSE:
        return 208u - (loss ? battle_sim_war(g->turn) : 20u);
    case BATTLE_SCORING_CAMPAIGN: {
        /* 100, less 10 a deck card of the attacker's destroyed; its dominion's loss does
         * not count. A dominion destroyed in the last turn still holds its slot, and the
         * peer counts it as standing then too. */
        clc_u32 lost, dom = p->sides[0].dominion;
        if (!win)
            return 0u;
        lost = battle_sim_lost(p, g, 0, 0);
        if (dom) {
            clc_u32 standing = 0;
            for (clc_u32 i = 0; i < g->sides[0].n_structures; i++)
                standing |= g->sides[0].structures[i].card == dom - 1u;
            lost -= lost > 0 && !standing;
        }
        return lost < 10u ? 100u - 10u * lost : 0u;
    }
    default:
        return win ? 100u : 0u;
    }
}

/* Ends the game with `outcome` (`bounded`: a stall at the work bound): its result. */
CLC_NOINLINE void battle_sim_end(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE const struct battle_game *g,
                                 CLC_PRIVATE struct battle_game_result *out, clc_u32 outcome,
                                 int bounded)
{
    clc_u32 pts = battle_sim_points(p, g, outcome);
    out->outcome = (clc_u8)outcome;
    out->turn = g->turn;
    out->bounded = (clc_u8)bounded;
    out->pad = 0;
    out->points = (clc_u16)(pts < BATTLE_SIM_POINTS_MAX ? pts : BATTLE_SIM_POINTS_MAX);
}

/** Plays turn g->turn (whichever side's it is) and advances to the next turn. Returns 0
 * while the game goes on; once it is over, 1 and *out holds the outcome. A flexible side
 * with a choice to make stops the turn before its card and returns 2: the caller sets
 * g->choice (battle_sim_turn_flex does) and calls again, and the turn goes on from there.
 * `pv`: p->passive's bits (BATTLE_SIM_PV_*), a constant in each of the host's four copies
 * (battle_sim_run_plain, _rare, _effects, _passive), so that a plan with the rarer skills or
 * the passive battleground effects calls its copies of the skills and inlines its attack
 * without asking the plan at every unit, and runs no step of the kind it lacks. */
/* One function on purpose: the turn reads as the rules do. */
/* NOLINTNEXTLINE(readability-function-size) */
CLC_INLINE int battle_sim_turn_pv(CLC_GLOBAL const struct battle_plan_data *p,
                                  CLC_PRIVATE struct battle_game *g,
                                  CLC_PRIVATE struct battle_game_result *out, const int pv)
{
    int s = battle_sim_active(p->mode, g->turn);
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - s];
    clc_u32 n;
    int stasis;

    /* 1. Start: the commander's cooldowns tick; units in play before this turn tick
     * their delay down (or their cooldowns). Structures summoned meanwhile tick too (the
     * row is read as it grows, as in tuo); assaults summoned do not. */
    if (!g->resume) {
        /* Read once: the rows' byte stores may alias the plan for the compiler. */
        int mods = (p->rare & BATTLE_SIM_RARE_MOD) != 0;
        me->commander_cd = battle_sim_cd_tick(me->commander_cd);
        if (mods && (p->cards[me->commander].trig & BATTLE_SIM_CARD_ENHANCES))
            battle_sim_enhance(p, g, s, -1, &p->cards[me->commander]);
        n = me->n_assaults;
        if (!(p->fx & BATTLE_SIM_FX_TICK)) {
            battle_sim_tick_plain(me->structures, me->n_structures);
            battle_sim_tick_plain(me->assaults, n);
        } else {
            for (clc_u32 i = 0; i < me->n_structures; i++)
                battle_sim_tick(p, g, s, i, 0, mods);
            for (clc_u32 i = 0; i < n; i++)
                battle_sim_tick(p, g, s, i, 1, mods);
        }
        if (g->pending)
            battle_sim_triggers(p, g);
        battle_sim_action_end(p, g, 1);
        /* A flexible side's choice (never in a look-ahead game: both sides play random). */
        if (p->sides[s].play == BATTLE_PLAY_FLEX && !g->ahead) {
            if (battle_sim_flex_due(p, g, s)) {
                g->resume = 1;
                return 2;
            }
            g->choice = 0;
        }
    } else {
        g->resume = 0;
    }

    /* 2. Play one card; then Inhibit, Sabotage and Disease. */
    battle_sim_play_card(p, g, s);
    battle_sim_action_end(p, g, 1);
    if ((p->fx & BATTLE_SIM_FX_INHIBIT) || (p->rare & BATTLE_SIM_RARE_SABOTAGE))
        battle_sim_debuffs(p, g, s);
    if ((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_has(p, BATTLE_SIM_PV(HEROISM)))
        battle_sim_heroism(p, g, s);

    /* 2b. Battleground effects: the commander casts them, as tuo's bg_skills. */
    if (p->sides[s].effects) {
        clc_u32 none = 0; /* effects have no cooldowns */
        battle_sim_skills_as(p, g, s, -1, &p->cards[p->sides[s].effects - 1u], &none, pv);
        battle_sim_action_end(p, g, 1);
    }

    /* 3. Commander: its skills, then Flurry's extra rounds. */
    {
        CLC_GLOBAL const struct battle_card_data *c = &p->cards[me->commander];
        clc_u32 due = 1;
        for (clc_u32 a = 0; a < due; a++) {
            if (c->act_turn)
                battle_sim_skills_as(p, g, s, -1, c, &me->commander_cd, pv);
            battle_sim_action_end(p, g, 1);
            due = battle_sim_flurry(p, g, c, &me->commander_cd, due);
        }
    }

    /* 4. Structures: skills only; structures never attack. Rows are read as they grow. */
    for (clc_u32 i = 0; i < me->n_structures; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->structures[i];
        CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
        clc_u32 due = 1;
        if (!battle_sim_alive(u) || u->delay || (u->flags & BATTLE_SIM_JAMMED) || !c->act_turn)
            continue;
        for (clc_u32 a = 0; a < due && battle_sim_alive(u); a++) {
            battle_sim_skills_as(p, g, s, -1, c, &u->cd, pv);
            battle_sim_action_end(p, g, 1);
            due = battle_sim_flurry(p, g, c, &u->cd, due);
        }
    }

    /* 5. Assaults: skills in card order, then the attack; Flurry adds whole actions. A
     * unit counts as having attacked (for Rally) once its turn in the row is over,
     * whether it attacked or not (with 0 power, say), as in the game: a later Rally is
     * never spent on it. Bloodlust's damage starts at 0 each phase. */
    stasis = (p->rare & BATTLE_SIM_RARE_STASIS) != 0;
    g->bloodlust = 0;
    for (clc_u32 i = 0; i < me->n_assaults; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->assaults[i];
        CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
        clc_u32 due = 1;
        if (!battle_sim_alive(u) || u->delay || (u->flags & BATTLE_SIM_JAMMED)) {
            u->flags = (clc_u8)(u->flags | BATTLE_SIM_ATTACKED);
            continue;
        }
        /* Stasis protects until the unit acts. */
        if (stasis && u->stasis) {
            u->protect = (clc_i16)(u->protect > u->stasis ? u->protect - u->stasis : 0);
            u->stasis = 0;
        }
        u->flags = (clc_u8)(u->flags | BATTLE_SIM_ACTING);
        g->lusted = 0;
        for (clc_u32 a = 0; a < due && battle_sim_alive(u); a++) {
            g->act = (clc_u8)a;
            if (c->act_turn)
                battle_sim_skills_as(p, g, s, (clc_i32)i, c, &u->cd, pv);
            if (battle_sim_alive(u) && !(u->flags & BATTLE_SIM_JAMMED))
                battle_sim_attack(p, g, s, i, pv);
            else if (u->corrode) /* it could not attack: its corrosion ends */
                battle_sim_corrosion(u, 0);
            if (g->over) {
                /* A game past its bound is a stall whatever happened after. */
                int bounded = g->work >= p->work_limit;
                battle_sim_end(p, g, out,
                               bounded        ? BATTLE_SIM_STALL
                               : g->over == 2 ? BATTLE_SIM_WIN
                                              : BATTLE_SIM_LOSS,
                               bounded);
                return 1;
            }
            battle_sim_action_end(p, g, 1);
            if (!battle_sim_alive(u) || (u->flags & BATTLE_SIM_JAMMED))
                break;
            due = battle_sim_flurry(p, g, c, &u->cd, due);
        }
        g->act = 0;
        u->flags = (clc_u8)((u->flags & ~BATTLE_SIM_ACTING) | BATTLE_SIM_ATTACKED);
    }

    /* 6. End: Refresh, then poison on own assaults (and what their deaths set off),
     * expiry of modifiers, compression. Poison's deaths only wait for the triggers below,
     * so no unit joins the row in this pass and its count is read once. */
    n = me->n_assaults;
    for (clc_u32 i = 0; i < n; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->assaults[i];
        if (!battle_sim_alive(u))
            continue;
        if (p->fx & BATTLE_SIM_FX_REFRESH) {
            /* Crackdown (the side's passive effect): Subdue X refreshes (X + 1) / 2 too. */
            clc_i32 r = p->cards[u->card].refresh;
            if ((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_has(p, BATTLE_SIM_PV(CRACKDOWN)) &&
                battle_sim_passive(p, s, BATTLE_PASSIVE_CRACKDOWN))
                r += (p->cards[u->card].subdue + 1) / 2;
            if (r)
                battle_sim_heal_hurt(u, r);
        }
        if (u->poison) {
            battle_sim_hurt(p, g, s, u, u->poison);
            u->poison = (clc_i16)(u->poison >> 1);
        }
    }
    if (g->pending)
        battle_sim_triggers(p, g);
    battle_sim_action_end(p, g, 0);
    /* Expiry, one pass a row: the own assaults' modifiers end with their turn (Inhibit's
     * count, Tribute's and Overload's states too), the enemy assaults' with this turn
     * (Payback's count too; Stasis outlasts Protect). The rarer skills' fields (Enrage,
     * Sabotage, Tribute, Overload, Entrap, Payback) are cleared in the copies with them only
     * (`pv`, a constant): a plan without the rarer skills (BATTLE_SIM_PV_RARE) never sets
     * them. No unit joins a row here: each count is read once (the byte stores could alias
     * it for the compiler). */
    n = me->n_assaults;
    for (clc_u32 i = 0; i < n; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->assaults[i];
        u->rally = 0;
        u->weaken = 0;
        u->inhibited = 0;
        u->flags =
            (clc_u8)(u->flags & ~(BATTLE_SIM_JAMMED | BATTLE_SIM_ATTACKED | BATTLE_SIM_SUNDERED));
        if (pv & BATTLE_SIM_PV_RARE) {
            u->enraged = 0;
            u->sabotaged = 0;
            u->tributed = 0;
            u->state = (clc_u8)(u->state & ~BATTLE_SIM_OVERLOADED);
        }
    }
    n = en->n_assaults;
    for (clc_u32 i = 0; i < n; i++) {
        CLC_PRIVATE struct battle_unit *u = &en->assaults[i];
        u->enfeeble = 0;
        u->protect = u->stasis;
        u->evaded = 0;
        if (pv & BATTLE_SIM_PV_RARE) {
            u->entrapped = 0;
            u->paybacked = 0;
        }
    }
    /* Enhance's and Evolve's changes end with the enemy turn after they were made. */
    if (p->rare & BATTLE_SIM_RARE_MOD)
        battle_sim_unmod(p, en);
    /* Only Barrier protects a structure and only Evade counts on one. */
    n = en->n_structures;
    if (p->fx & (BATTLE_SIM_FX_EVADE | BATTLE_SIM_FX_BARRIER))
        for (clc_u32 i = 0; i < n; i++) {
            en->structures[i].protect = 0;
            en->structures[i].evaded = 0;
        }
    if (me->died)
        battle_sim_compress(me);
    if (en->died)
        battle_sim_compress(en);

    /* The turn limit, or the end of the turn that reached the work bound (g->last 0). */
    if (g->turn >= g->last) {
        battle_sim_end(p, g, out, BATTLE_SIM_STALL, g->work >= p->work_limit);
        return 1;
    }
    g->turn++;
    return 0;
}

/* battle_sim_turn_pv in the copy the plan needs (the turns of flexible play, the tests, a
 * kernel): the plain one, or the one with every rule's steps (the steps a plan lacks read
 * zeros there). */
CLC_FN int battle_sim_turn(CLC_GLOBAL const struct battle_plan_data *p,
                           CLC_PRIVATE struct battle_game *g,
                           CLC_PRIVATE struct battle_game_result *out)
{
    return battle_sim_turn_pv(p, g, out, p->passive ? (int)BATTLE_SIM_PV_ALL : 0);
}

#ifndef __OPENCL_VERSION__
/* A whole game's turns, one copy of the turn for each value of p->passive (host only: a
 * kernel keeps one turn, whose calls ask the plan, so that its build stays as it was). The
 * copy with every rule's steps (_passive) serves plans with both kinds. */
CLC_NOCLONE void battle_sim_run_plain(CLC_GLOBAL const struct battle_plan_data *p,
                                      CLC_PRIVATE struct battle_game *g,
                                      CLC_PRIVATE struct battle_game_result *out)
{
    while (battle_sim_turn_pv(p, g, out, 0) != 1)
        ;
}

CLC_NOCLONE void battle_sim_run_rare(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g,
                                     CLC_PRIVATE struct battle_game_result *out)
{
    while (battle_sim_turn_pv(p, g, out, BATTLE_SIM_PV_RARE) != 1)
        ;
}

CLC_NOCLONE void battle_sim_run_effects(CLC_GLOBAL const struct battle_plan_data *p,
                                        CLC_PRIVATE struct battle_game *g,
                                        CLC_PRIVATE struct battle_game_result *out)
{
    while (battle_sim_turn_pv(p, g, out, BATTLE_SIM_PV_EFFECTS) != 1)
        ;
}

CLC_NOCLONE void battle_sim_run_passive(CLC_GLOBAL const struct battle_plan_data *p,
                                        CLC_PRIVATE struct battle_game *g,
                                        CLC_PRIVATE struct battle_game_result *out)
{
    while (battle_sim_turn_pv(p, g, out, BATTLE_SIM_PV_ALL) != 1)
        ;
}
#endif

/* Copies n bytes; byte access may alias any object, in C and in OpenCL C alike. */
CLC_FN void battle_sim_copy_bytes(CLC_PRIVATE clc_u8 *to, CLC_PRIVATE const clc_u8 *from, clc_u32 n)
{
    for (clc_u32 i = 0; i < n; i++)
        to[i] = from[i];
}

/* *r = *g with each row's units in play only: a row's slots past its count are never read
 * before a play or a summon writes them whole (battle_sim_fresh), as a fresh game's are
 * never written at all. Flexible play copies the game for each of its look-ahead games,
 * where the four rows of 60 units are 12.5 of the game's 12.7 KB. */
CLC_FN void battle_sim_copy(CLC_PRIVATE struct battle_game *r,
                            CLC_PRIVATE const struct battle_game *g)
{
    battle_sim_copy_bytes((CLC_PRIVATE clc_u8 *)r, (CLC_PRIVATE const clc_u8 *)g,
                          (clc_u32) __builtin_offsetof(struct battle_game, sides));
    for (int s = 0; s < 2; s++) {
        CLC_PRIVATE struct battle_side *to = &r->sides[s];
        CLC_PRIVATE const struct battle_side *from = &g->sides[s];
        battle_sim_copy_bytes((CLC_PRIVATE clc_u8 *)to, (CLC_PRIVATE const clc_u8 *)from,
                              (clc_u32) __builtin_offsetof(struct battle_side, structures));
        for (clc_u32 i = 0; i < from->n_structures; i++)
            to->structures[i] = from->structures[i];
        for (clc_u32 i = 0; i < from->n_assaults; i++)
            to->assaults[i] = from->assaults[i];
    }
}

/* Starts look-ahead game *r from *g stopped before side s's card: candidate j first, the
 * rest of side s's entries and all the other side's entries shuffled (from *g's stream). */
CLC_FN void battle_sim_flex_start(CLC_PRIVATE const struct battle_game *g,
                                  CLC_PRIVATE struct battle_game *r, int s, clc_u32 j)
{
    CLC_PRIVATE struct battle_side *me = &r->sides[s];
    CLC_PRIVATE struct battle_side *en = &r->sides[1 - s];
    clc_u32 head = g->sides[s].head;
    clc_u8 t;
    battle_sim_copy(r, g);
    t = me->seq[head];
    me->seq[head] = me->seq[head + j];
    me->seq[head + j] = t;
    for (clc_u32 i = me->n_seq; i > head + 2; i--) {
        clc_u32 x = head + 1 + rng_below(&r->rng, i - head - 1);
        t = me->seq[i - 1];
        me->seq[i - 1] = me->seq[x];
        me->seq[x] = t;
    }
    for (clc_u32 i = en->n_seq; i > (clc_u32)en->head + 1; i--) {
        clc_u32 x = en->head + rng_below(&r->rng, i - en->head);
        t = en->seq[i - 1];
        en->seq[i - 1] = en->seq[x];
        en->seq[x] = t;
    }
    r->ahead = 1;
    r->choice = 0;
}

/**
 * battle_sim_turn for a game where a side plays flexible (tuo's Deck::next for
 * DeckStrategy::flexible); *r is scratch space for the look-ahead games. When the turn
 * stops before a flexible side's card, each card of its hand plays BATTLE_SIM_FLEX_GAMES
 * look-ahead games from there (battle_sim_flex_start), both sides then playing their front
 * entry to the end. The attacker takes the card with the most wins, the defender the one
 * with the fewest, the first in hand on ties; copies of one card share one count. The
 * look-ahead games draw from the game's own stream one after another, so the game stays
 * reproducible on every backend. One loop plays the game's turn and every look-ahead game,
 * so that the turn's code is here once.
 */
CLC_NOINLINE int battle_sim_turn_flex(CLC_GLOBAL const struct battle_plan_data *p,
                                      CLC_PRIVATE struct battle_game *g,
                                      CLC_PRIVATE struct battle_game *r,
                                      CLC_PRIVATE struct battle_game_result *out)
{
    CLC_PRIVATE struct battle_game *cur = g;
    clc_u32 wins[BATTLE_SIM_FLEX_HAND];
    clc_u32 j = 0, k = 0, it = 0;
    int s = battle_sim_active(p->mode, g->turn);
    for (;;) {
        struct battle_game_result res;
        int rc = battle_sim_turn(p, cur, cur == g ? out : &res);
        if (cur == g) {
            clc_u32 left = (clc_u32)g->sides[s].n_seq - g->sides[s].head;
            if (rc != 2)
                return rc;
            k = left < p->sides[s].window ? left : p->sides[s].window;
            j = 0;
            it = 0;
            wins[0] = 0;
            battle_sim_flex_start(g, r, s, 0);
            cur = r;
            continue;
        }
        if (!rc)
            continue;
        wins[j] += res.outcome == BATTLE_SIM_WIN;
        g->rng = r->rng;
        if (++it < BATTLE_SIM_FLEX_GAMES) {
            battle_sim_flex_start(g, r, s, j);
            continue;
        }
        /* The next candidate whose card has not been counted yet. */
        for (it = 0, j++; j < k; j++) {
            CLC_PRIVATE const clc_u16 *sc = g->sides[s].card;
            CLC_PRIVATE const clc_u8 *seq = g->sides[s].seq + g->sides[s].head;
            clc_u32 m = 0;
            while (m < j && sc[seq[m]] != sc[seq[j]])
                m++;
            if (m == j)
                break;
            wins[j] = wins[m];
        }
        if (j < k) {
            wins[j] = 0;
            battle_sim_flex_start(g, r, s, j);
            continue;
        }
        g->choice = 0;
        for (clc_u32 i = 1; i < k; i++)
            if (s == 0 ? wins[i] > wins[g->choice] : wins[i] < wins[g->choice])
                g->choice = (clc_u8)i;
        cur = g;
    }
}

/**
 * Starts game `game` in *g as it is before turn 1: battle_sim_init, then the on-play skills
 * of the fortresses (and of what they summon), the first mover's first, as tuo plays each
 * side's fortresses and resolves their skills before the first turn: a unit one summons
 * ticks its delay on its side's first turn.
 */
CLC_FN void battle_sim_start(CLC_GLOBAL const struct battle_plan_data *p,
                             CLC_PRIVATE struct battle_game *g, clc_u64 seed, clc_u64 game)
{
    battle_sim_init(p, g, seed, game);
    if (g->pending) {
        battle_sim_triggers(p, g);
        battle_sim_action_end(p, g, 1);
    }
}

/**
 * Plays game `game` of the job seeded with `seed` from start to end and writes its outcome
 * to *out: the entry point of both backends. Its state lives on the caller's stack
 * (private memory in a kernel; a game with flexible play needs a second one).
 */
CLC_FN void battle_sim_play(CLC_GLOBAL const struct battle_plan_data *p, clc_u64 seed, clc_u64 game,
                            CLC_PRIVATE struct battle_game_result *out)
{
    struct battle_game g;
    battle_sim_start(p, &g, seed, game);
    if (p->fx & BATTLE_SIM_FX_FLEX) {
        struct battle_game r;
        while (battle_sim_turn_flex(p, &g, &r, out) != 1)
            ;
        return;
    }
    /* Only 1 says the game is over (2, a stop before a flexible side's card, never comes
     * here: a game without flexible play). */
#ifdef __OPENCL_VERSION__
    while (battle_sim_turn(p, &g, out) != 1)
        ;
#else
    if (p->passive == BATTLE_SIM_PV_RARE)
        battle_sim_run_rare(p, &g, out);
    else if (p->passive == BATTLE_SIM_PV_EFFECTS)
        battle_sim_run_effects(p, &g, out);
    else if (p->passive)
        battle_sim_run_passive(p, &g, out);
    else
        battle_sim_run_plain(p, &g, out);
#endif
}

#endif
