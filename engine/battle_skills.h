/* SPDX-License-Identifier: MIT */
/* Battle card types and v1 skill identifiers. This header compiles both as C11 and as
 * OpenCL C 1.2 (no includes, no C-only constructs), so the host and the kernels agree
 * on the numbering. Names and parsing live in battle_spec.h. */
#ifndef BATTLE_SKILLS_H
#define BATTLE_SKILLS_H

enum battle_card_type {
    BATTLE_COMMANDER = 0,
    BATTLE_FORTRESS = 1,
    BATTLE_ASSAULT = 2,
    BATTLE_STRUCTURE = 3,
    BATTLE_CARD_TYPE__COUNT = 4
};

/* Passive skills first, then activation skills; the order is part of the catalog format
 * only through names, so it may change between versions. */
enum battle_skill {
    BATTLE_SKILL_ARMOR = 0,
    BATTLE_SKILL_COUNTER,
    BATTLE_SKILL_WALL,
    BATTLE_SKILL_PIERCE,
    BATTLE_SKILL_BERSERK,
    BATTLE_SKILL_LEECH,
    BATTLE_SKILL_POISON,
    BATTLE_SKILL_EVADE,
    BATTLE_SKILL_STRIKE,
    BATTLE_SKILL_SIEGE,
    BATTLE_SKILL_ENFEEBLE,
    BATTLE_SKILL_WEAKEN,
    BATTLE_SKILL_JAM,
    BATTLE_SKILL_HEAL,
    BATTLE_SKILL_RALLY,
    BATTLE_SKILL_PROTECT,
    BATTLE_SKILL_FLURRY,
    BATTLE_SKILL__COUNT
};

enum battle_mode { BATTLE_MODE_FIGHT = 0, BATTLE_MODE_SURGE = 1 };

enum battle_play { BATTLE_PLAY_RANDOM = 0, BATTLE_PLAY_ORDERED = 1, BATTLE_PLAY_EXACT = 2 };

#endif
