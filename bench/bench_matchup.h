/* SPDX-License-Identifier: MIT */
/* The two reference matchups of rules/battle.md built directly as a battle_spec, shared by
 * the battle benchmarks so that they time the same games. Header-only because each .c file
 * in bench/ is its own executable; it builds specs and does not decode JSON or run games. */
#ifndef BENCH_MATCHUP_H
#define BENCH_MATCHUP_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "battle_spec.h"

/* Appends a card with at most one skill (none when x < 0); returns its index. */
static inline int bench_card(struct battle_spec *s, const char *name, enum battle_card_type type,
                             int attack, int health, int delay, enum battle_skill skill, int x)
{
    struct battle_card_spec *c = &s->cards[s->n_cards];
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "%s", name);
    c->type = type;
    c->attack = attack;
    c->health = health;
    c->delay = delay;
    if (x >= 0) {
        c->n_skills = 1;
        c->skills[0].id = skill;
        c->skills[0].x = x;
    }
    return s->n_cards++;
}

static inline void bench_deck(struct battle_side_spec *side, int c, int count)
{
    for (int i = 0; i < count; i++)
        side->deck[side->n_deck++] = c;
}

/*
 * Fills *s with reference matchup `which` (1 or 2) of rules/battle.md: fight mode, random
 * play, the default turn limit, `seed` and `games`. The card table is `cards` (borrowed,
 * at least 8 entries; it must outlive *s).
 */
static inline void bench_matchup(struct battle_spec *s, struct battle_card_spec *cards, int which,
                                 uint64_t seed, uint64_t games)
{
    int cmd, grunt, brute, plated, striker, spiked, barricade, tower;
    memset(s, 0, sizeof(*s));
    s->cards = cards;
    s->seed = seed;
    s->games = games;
    s->mode = BATTLE_MODE_FIGHT;
    s->turn_limit = BATTLE_TURN_LIMIT_DEF;
    cmd = bench_card(s, "Test Commander", BATTLE_COMMANDER, 0, 40, 0, 0, -1);
    grunt = bench_card(s, "Grunt", BATTLE_ASSAULT, 2, 10, 1, 0, -1);
    brute = bench_card(s, "Brute", BATTLE_ASSAULT, 3, 14, 2, 0, -1);
    plated = bench_card(s, "Plated Grunt", BATTLE_ASSAULT, 2, 10, 1, BATTLE_SKILL_ARMOR, 2);
    striker = bench_card(s, "Strike Grunt", BATTLE_ASSAULT, 2, 10, 1, BATTLE_SKILL_STRIKE, 2);
    spiked = bench_card(s, "Spiked Grunt", BATTLE_ASSAULT, 2, 10, 1, BATTLE_SKILL_COUNTER, 2);
    barricade = bench_card(s, "Barricade", BATTLE_STRUCTURE, 0, 12, 1, BATTLE_SKILL_WALL, 0);
    tower = bench_card(s, "Strike Tower", BATTLE_STRUCTURE, 0, 15, 2, BATTLE_SKILL_STRIKE, 2);
    s->sides[0].commander = cmd;
    s->sides[1].commander = cmd;
    if (which == 1) {
        bench_deck(&s->sides[0], grunt, 5);
        bench_deck(&s->sides[0], brute, 5);
        bench_deck(&s->sides[1], brute, 4);
        bench_deck(&s->sides[1], grunt, 6);
    } else {
        bench_deck(&s->sides[0], plated, 3);
        bench_deck(&s->sides[0], striker, 3);
        bench_deck(&s->sides[0], spiked, 2);
        bench_deck(&s->sides[0], barricade, 2);
        bench_deck(&s->sides[1], grunt, 4);
        bench_deck(&s->sides[1], brute, 4);
        bench_deck(&s->sides[1], tower, 2);
    }
}

#endif
