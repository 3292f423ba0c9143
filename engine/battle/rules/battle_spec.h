/* SPDX-License-Identifier: MIT */
/* The decoded, validated battle job: a plain-data mirror of the job document's "params"
 * with card names resolved to indices into one card table. battle_codec fills it from
 * JSON (and checks every field and limit); battle_plan turns it into the compact form the
 * CPU backend and the kernels play. Plain data, no hidden ownership except `cards`. */
#ifndef BATTLE_SPEC_H
#define BATTLE_SPEC_H

#include <stdint.h>

#include "battle_skills.h"

/* Limits of a battle job (the bounds; the codec rejects anything beyond them). */
#define BATTLE_GAMES_MAX      1000000000ULL
#define BATTLE_TURN_LIMIT_MAX 200
#define BATTLE_TURN_LIMIT_DEF 50
/* Cards in one side's deck list, counts expanded: the game's largest enemy deck is
 * Synapse Unleashed Raid's 50 (a player's deck holds 10 to 15). */
#define BATTLE_DECK_MAX 50
/* Fortresses of one side: Orbocalypse Raid has 10 (a player's side 1 or 2). */
#define BATTLE_FORTRESS_MAX     10
#define BATTLE_HAND_MAX         3
#define BATTLE_NAME_MAX         64  /* bytes of a card name, excluding the NUL */
#define BATTLE_CARD_SKILLS_MAX  8   /* skills on one card */
#define BATTLE_SKILL_X_MAX      255 /* an 8-bit field of the plan */
#define BATTLE_SKILL_N_MAX      10  /* targets a skill draws ("n") */
#define BATTLE_SKILL_C_MAX      15  /* cooldown in own turns ("c"); the state keeps 4 bits */
#define BATTLE_STAT_MAX         999 /* attack, health */
#define BATTLE_DELAY_MAX        9
#define BATTLE_INLINE_CARDS_MAX 128 /* inline card definitions in one job */
#define BATTLE_CARDS_MAX                                                                           \
    192 /* distinct cards referenced by one job: a raid at a                                       \
           middle level holds every level of its cards */
/* The most points one game scores (enum battle_scoring): brawl's 55 + units destroyed (two
 * rows of 60 and 255 summoned) + 53 cards not played, 483, is the most any scoring reaches. */
#define BATTLE_POINTS_MAX 511
/* Battleground effects of a job ("effects"), and per side (the skills of one card). */
#define BATTLE_EFFECTS_MAX 16
/* The value of a passive battleground effect (Bloodlust X, Devotion X%...). */
#define BATTLE_PASSIVE_X_MAX 999
/* Most units in one row: fortresses plus every deck card could end up on the field. */
#define BATTLE_ROW_MAX (BATTLE_DECK_MAX + BATTLE_FORTRESS_MAX)

/* Levels of one game unit (each level is a card of its own, with its own id). */
#define BATTLE_LEVELS_MAX 10
/* A side that draws its cards anew each game (a mission or raid with card pools or at a
 * level between its first and its top: battle_side_spec.n_pools, upgrades): at most this
 * many pools, each of at most BATTLE_POOL_CARDS cards (the game's raids have 2 and 13). */
#define BATTLE_POOLS_MAX  4
#define BATTLE_POOL_CARDS 16
/* Level-ups spread over one side's cards each game: Synapse Unleashed Raid at level 49, 50
 * cards of up to 10 levels, gives 460 (255, 8 bits, until 2026-11-27). */
#define BATTLE_UPGRADES_MAX 999

/* A skill of a card. `id` is what the engine simulates; the game's cards (battle_tu) may
 * carry skills and options it does not simulate yet: such a card is kept whole in the
 * catalog and a job that uses it is refused (battle_tu_unsupported), never played wrong. */
struct battle_skill_spec {
    enum battle_skill id; /* BATTLE_SKILL__COUNT when the engine does not simulate `game` */
    int x;                /* magnitude; 0 for flag skills (wall, jam) */
    int all;              /* 1 when the skill hits every valid target */
    int game;             /* the game's skill (battle_tu_skill_name); read only when `id` is
                             BATTLE_SKILL__COUNT, since `id` names the others */
    int y;                /* faction filter 1..6; 0 = any faction */
    int n;                /* number of targets; 0 = one (or every one with `all`) */
    int c;                /* cooldown in turns; 0 = none */
    int s, s2;            /* skill arguments of enhance and evolve: 1 + the game skill;
                             0 = none (so a zeroed spec has none) */
    int trigger;          /* 0 activation, 1 on play, 2 on attacked, 3 on death */
    int card_id;          /* the card summon brings (the game's id); 0 = none */
    int card;             /* summon in a job: the index in battle_spec.cards of the card it
                             brings (the codec resolves card_id or an inline card's name) */
};

struct battle_card_spec {
    char name[BATTLE_NAME_MAX + 1];
    enum battle_card_type type; /* a dominion plays as a fortress */
    int attack;                 /* assaults only; 0 otherwise */
    int health;
    int delay; /* assaults and structures; 0 for commanders and fortresses */
    int n_skills;
    struct battle_skill_spec skills[BATTLE_CARD_SKILLS_MAX];
    /* The game's facts (battle_tu); all 0 for the project's own and inline cards. */
    int id;           /* the game's card id */
    int level;        /* 1..n_levels */
    int faction;      /* 1..6 (battle_tu_faction_name) */
    int rarity;       /* 1..6 (battle_tu_rarity_name) */
    int set;          /* the game's card set (1000 standard, 2000 fusion, ...) */
    int fusion_level; /* the game's <fusion_level>: 0 a base card, 1 a dual fusion, 2 a quad */
    int hidden_set;   /* 1: a set the game gives no player (battle_tu: its cards are not
                         obtainable, so never owned) */
    int dominion;     /* 1 for an alpha dominion (type BATTLE_FORTRESS) */
    int n_levels;
    int level_ids[BATTLE_LEVELS_MAX]; /* ids of the unit's levels 1..n_levels */
};

/* One unit on the field in a mid-game state. Its lane is its position in the row. */
struct battle_unit_spec {
    int card;   /* index into battle_spec.cards */
    int health; /* current health, 1..card health when alive */
    int delay;  /* current delay, 0..card delay */
    int alive;  /* a dead unit keeps its slot until the end of the turn it died in */
};

/* A side's part of a mid-game state. Fortresses are the first units of `structures`. */
struct battle_side_state {
    int commander_health;
    int n_structures;
    struct battle_unit_spec structures[BATTLE_ROW_MAX];
    int n_assaults;
    struct battle_unit_spec assaults[BATTLE_ROW_MAX];
    int n_hand;
    int hand[BATTLE_HAND_MAX]; /* card indices, in hand order */
    int n_deck;
    int deck[BATTLE_DECK_MAX]; /* card indices of the cards not yet drawn (shuffled per game) */
};

struct battle_state_spec {
    int turn; /* the turn about to be played, 1..turn_limit; its parity and the mode say whose */
    struct battle_side_state sides[2];
};

/* A pool a drawing side takes `amount` distinct entries of its list from each game, at
 * random, `replicates` times over: as fortresses (`fort`) or as deck cards. */
struct battle_pool_spec {
    int fort;
    int amount;     /* 1 .. n */
    int replicates; /* 1 .. */
    int n;
    int cards[BATTLE_POOL_CARDS]; /* card indices (a card listed twice counts twice) */
};

struct battle_side_spec {
    int commander; /* card index */
    int n_fortresses;
    int fortresses[BATTLE_FORTRESS_MAX];
    int n_deck;
    int deck[BATTLE_DECK_MAX]; /* card indices in list order as written (counts expanded);
                                  list position = ordered-play priority */
    enum battle_play play;
    /* 1 + the index in battle_spec.cards of the card that holds the side's battleground
     * effects as its activation skills (the codec makes it from "effects"); 0: none */
    int effects;
    /* The side's passive battleground effects (enum battle_passive): each one's value,
     * 1 .. BATTLE_PASSIVE_X_MAX; 0: off */
    int passive[BATTLE_PASSIVE__COUNT];
    /* A side that draws its cards each game, as the peer plays a mission or raid
     * (docs/cards.md): besides the commander, fortresses and deck above, the pools' entries
     * (fortresses after the fixed ones, deck cards after the deck), then `upgrades` level-ups
     * spread at random over the commander, fortresses and deck cards (battle_spec.up). Only
     * random play, only fresh games (the codec and the plan refuse the rest). */
    int n_pools;
    struct battle_pool_spec pools[BATTLE_POOLS_MAX];
    int upgrades;
};

struct battle_spec {
    uint64_t seed;
    uint64_t games;
    enum battle_mode mode;
    enum battle_scoring scoring; /* the points every game scores (BATTLE_SCORING_WIN) */
    int turn_limit;
    int n_cards;
    struct battle_card_spec *cards;   /* owned (sk_malloc); the cards this job uses */
    struct battle_side_spec sides[2]; /* 0 = attacker, 1 = defender */
    /* 1 + the index of the card a level-up makes of card k (its unit's next level); 0 when
     * none or not needed: read only for the sides' `upgrades` */
    int up[BATTLE_CARDS_MAX];
    int has_state;
    struct battle_state_spec state; /* meaningful when has_state */
};

#endif
