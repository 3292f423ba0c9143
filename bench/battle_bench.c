/* SPDX-License-Identifier: MIT */
/* Battle CPU backend throughput: games per second for the two reference matchups of
 * rules/battle.md (attacker first, random play), on one thread and on every online core,
 * and the size of one game's state. Prints a table; asserts nothing about timings.
 * Usage: battle_bench [games per run, default 1000000] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "battle_cpu.h"
#include "battle_sim.h"
#include "sk_parse.h"

#include "sk_banned.h"

static struct battle_card_spec cards[BATTLE_CARDS_MAX];

static int card(struct battle_spec *s, const char *name, enum battle_card_type type, int attack,
                int health, int delay, enum battle_skill skill, int x)
{
    struct battle_card_spec *c = &s->cards[s->n_cards];
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "%s", name);
    c->type = type;
    c->attack = attack;
    c->health = health;
    c->delay = delay;
    if ((int)skill >= 0) {
        c->n_skills = 1;
        c->skills[0].id = skill;
        c->skills[0].x = x;
    }
    return s->n_cards++;
}

static void deck(struct battle_side_spec *side, int c, int count)
{
    for (int i = 0; i < count; i++)
        side->deck[side->n_deck++] = c;
}

/* Reference matchup 1 or 2 of rules/battle.md. */
static void matchup(struct battle_spec *s, int which)
{
    const enum battle_skill none = (enum battle_skill) - 1;
    int cmd, grunt, brute, plated, striker, spiked, barricade, tower;
    memset(s, 0, sizeof(*s));
    s->cards = cards;
    s->seed = 20261121;
    s->mode = BATTLE_MODE_FIGHT;
    s->turn_limit = BATTLE_TURN_LIMIT_DEF;
    cmd = card(s, "Test Commander", BATTLE_COMMANDER, 0, 40, 0, none, 0);
    grunt = card(s, "Grunt", BATTLE_ASSAULT, 2, 10, 1, none, 0);
    brute = card(s, "Brute", BATTLE_ASSAULT, 3, 14, 2, none, 0);
    plated = card(s, "Plated Grunt", BATTLE_ASSAULT, 2, 10, 1, BATTLE_SKILL_ARMOR, 2);
    striker = card(s, "Strike Grunt", BATTLE_ASSAULT, 2, 10, 1, BATTLE_SKILL_STRIKE, 2);
    spiked = card(s, "Spiked Grunt", BATTLE_ASSAULT, 2, 10, 1, BATTLE_SKILL_COUNTER, 2);
    barricade = card(s, "Barricade", BATTLE_STRUCTURE, 0, 12, 1, BATTLE_SKILL_WALL, 0);
    tower = card(s, "Strike Tower", BATTLE_STRUCTURE, 0, 15, 2, BATTLE_SKILL_STRIKE, 2);
    s->sides[0].commander = cmd;
    s->sides[1].commander = cmd;
    if (which == 1) {
        deck(&s->sides[0], grunt, 5);
        deck(&s->sides[0], brute, 5);
        deck(&s->sides[1], brute, 4);
        deck(&s->sides[1], grunt, 6);
    } else {
        deck(&s->sides[0], plated, 3);
        deck(&s->sides[0], striker, 3);
        deck(&s->sides[0], spiked, 2);
        deck(&s->sides[0], barricade, 2);
        deck(&s->sides[1], grunt, 4);
        deck(&s->sides[1], brute, 4);
        deck(&s->sides[1], tower, 2);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    uint64_t games = 1000000;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (argc > 1 && sk_parse_u64(argv[1], 1, BATTLE_GAMES_MAX, &games)) {
        fprintf(stderr, "usage: %s [games per run]\n", argv[0]);
        return 2;
    }
    if (cores < 1)
        cores = 1;
    printf("battle CPU backend: %" PRIu64 " games per run, %ld online cores, game state %zu "
           "bytes, plan data %zu bytes\n\n",
           games, cores, sizeof(struct battle_game), battle_plan_data_size());
    printf(
        "| matchup | threads | seconds | games/s | games/s per thread | win / stall / loss %% |\n");
    printf("|---|---:|---:|---:|---:|---|\n");
    for (int m = 1; m <= 2; m++) {
        struct battle_spec spec;
        struct battle_plan *plan = NULL;
        char err[200];
        matchup(&spec, m);
        if (battle_plan_new(&spec, &plan, err, sizeof(err))) {
            fprintf(stderr, "battle_plan_new: %s\n", err);
            return 1;
        }
        for (int pass = 0; pass < 2; pass++) {
            int threads = pass == 0 ? 1 : (int)cores;
            struct battle_counts c;
            double t0, dt;
            memset(&c, 0, sizeof(c));
            t0 = now();
            if (battle_cpu_run(plan, 0, games, threads, &c)) {
                fprintf(stderr, "battle_cpu_run failed\n");
                battle_plan_free(plan);
                return 1;
            }
            dt = now() - t0;
            printf("| %d | %d | %.2f | %.0f | %.0f | %.2f / %.2f / %.2f |\n", m, threads, dt,
                   (double)games / dt, (double)games / dt / threads,
                   100.0 * (double)c.wins / (double)c.games,
                   100.0 * (double)c.stalls / (double)c.games,
                   100.0 * (double)c.losses / (double)c.games);
        }
        battle_plan_free(plan);
    }
    return 0;
}
