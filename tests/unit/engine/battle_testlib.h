/* SPDX-License-Identifier: MIT */
/* Builds battle specs directly in C for the battle tests (no JSON): a card table, the two
 * sides and an optional mid-game state, plus the reference cards of rules/battle.md. */
#ifndef BATTLE_TESTLIB_H
#define BATTLE_TESTLIB_H

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "battle_plan.h"
#include "battle_sim.h"
#include "battle_spec.h"
#include "battle_tu.h"

struct tb {
    struct battle_spec spec;
    struct battle_card_spec cards[BATTLE_CARDS_MAX];
};

/* An empty job: fight mode, 50 turns, seed 1, two sides that still need a commander. */
static inline void tb_init(struct tb *b)
{
    memset(b, 0, sizeof(*b));
    b->spec.cards = b->cards;
    b->spec.seed = 1;
    b->spec.games = 1;
    b->spec.mode = BATTLE_MODE_FIGHT;
    b->spec.turn_limit = BATTLE_TURN_LIMIT_DEF;
}

static inline int tb_card(struct tb *b, const char *name, enum battle_card_type type, int attack,
                          int health, int delay)
{
    struct battle_card_spec *c = &b->cards[b->spec.n_cards];
    snprintf(c->name, sizeof(c->name), "%s", name);
    c->type = type;
    c->attack = attack;
    c->health = health;
    c->delay = delay;
    return b->spec.n_cards++;
}

static inline void tb_skill(struct tb *b, int card, enum battle_skill id, int x, int all)
{
    struct battle_card_spec *c = &b->cards[card];
    c->skills[c->n_skills].id = id;
    c->skills[c->n_skills].x = x;
    c->skills[c->n_skills].all = all;
    c->n_skills++;
}

/* The skill arguments of the card's last skill (Enhance, Evolve), as engine skills; s2 -1
 * for none. */
static inline void tb_args(struct tb *b, int card, enum battle_skill s, int s2)
{
    struct battle_skill_spec *k = &b->cards[card].skills[b->cards[card].n_skills - 1];
    k->s = 1 + battle_tu_skill_of_engine(s);
    k->s2 = s2 < 0 ? 0 : 1 + battle_tu_skill_of_engine((enum battle_skill)s2);
}

static inline void tb_side(struct tb *b, int s, int commander, enum battle_play play)
{
    b->spec.sides[s].commander = commander;
    b->spec.sides[s].play = play;
}

static inline void tb_deck(struct tb *b, int s, int card, int count)
{
    for (int i = 0; i < count; i++)
        b->spec.sides[s].deck[b->spec.sides[s].n_deck++] = card;
}

static inline void tb_fort(struct tb *b, int s, int card)
{
    b->spec.sides[s].fortresses[b->spec.sides[s].n_fortresses++] = card;
}

/* A new plan of the spec; fails the test when it cannot be built. */
static inline struct battle_plan *tb_plan(struct tb *b)
{
    struct battle_plan *plan = NULL;
    char err[200] = "";
    enum sk_err rc = battle_plan_new(&b->spec, &plan, err, sizeof(err));
    if (rc)
        fprintf(stderr, "battle_plan_new: %s\n", err);
    CU_ASSERT_EQUAL_FATAL(rc, SK_OK);
    return plan;
}

/* Reference cards of rules/battle.md. */
struct tb_ref {
    int commander, grunt, brute, plated, striker, spiked, barricade, tower;
};

static inline void tb_ref_cards(struct tb *b, struct tb_ref *r)
{
    r->commander = tb_card(b, "Test Commander", BATTLE_COMMANDER, 0, 40, 0);
    r->grunt = tb_card(b, "Grunt", BATTLE_ASSAULT, 2, 10, 1);
    r->brute = tb_card(b, "Brute", BATTLE_ASSAULT, 3, 14, 2);
    r->plated = tb_card(b, "Plated Grunt", BATTLE_ASSAULT, 2, 10, 1);
    tb_skill(b, r->plated, BATTLE_SKILL_ARMOR, 2, 0);
    r->striker = tb_card(b, "Strike Grunt", BATTLE_ASSAULT, 2, 10, 1);
    tb_skill(b, r->striker, BATTLE_SKILL_STRIKE, 2, 0);
    r->spiked = tb_card(b, "Spiked Grunt", BATTLE_ASSAULT, 2, 10, 1);
    tb_skill(b, r->spiked, BATTLE_SKILL_COUNTER, 2, 0);
    r->barricade = tb_card(b, "Barricade", BATTLE_STRUCTURE, 0, 12, 1);
    tb_skill(b, r->barricade, BATTLE_SKILL_WALL, 0, 0);
    r->tower = tb_card(b, "Strike Tower", BATTLE_STRUCTURE, 0, 15, 2);
    tb_skill(b, r->tower, BATTLE_SKILL_STRIKE, 2, 0);
}

/* Reference matchup 1 (index 0) or 2 (index 1), random play, attacker first. */
static inline void tb_ref_matchup(struct tb *b, int which)
{
    struct tb_ref r;
    tb_init(b);
    tb_ref_cards(b, &r);
    tb_side(b, 0, r.commander, BATTLE_PLAY_RANDOM);
    tb_side(b, 1, r.commander, BATTLE_PLAY_RANDOM);
    if (which == 0) {
        tb_deck(b, 0, r.grunt, 5);
        tb_deck(b, 0, r.brute, 5);
        tb_deck(b, 1, r.brute, 4);
        tb_deck(b, 1, r.grunt, 6);
    } else {
        tb_deck(b, 0, r.plated, 3);
        tb_deck(b, 0, r.striker, 3);
        tb_deck(b, 0, r.spiked, 2);
        tb_deck(b, 0, r.barricade, 2);
        tb_deck(b, 1, r.grunt, 4);
        tb_deck(b, 1, r.brute, 4);
        tb_deck(b, 1, r.tower, 2);
    }
}

/* A game played turn by turn on the test's thread, for inspecting the state. */
struct tb_run {
    struct battle_plan *plan;
    const struct battle_plan_data *d;
    struct battle_game g;
    struct battle_game scratch; /* flexible play's look-ahead games */
    struct battle_game_result r;
    int over;
    unsigned lanes;     /* the plan's program's bound on a row (battle_rules_features) */
    unsigned slanes;    /* ... on a structure row */
    unsigned entries;   /* ... on a side's entries */
    unsigned unit_rare; /* ... whether its units carry the rarer skills' state */
};

/* The game's rules, out of line (battle_testlib.c): battle_sim.h's functions are inline,
 * and each test file that called them compiled the whole game anew (about a minute a file
 * in the sanitizer build, eight files). Tests reach the rules through these instead. */

/* Starts game 0 of the job `b` describes in x (its plan: tb_run_end frees it). */
void tb_run_start(struct tb_run *x, struct tb *b);

/* Plays up to n more turns, flexible play's when a side plays flexible; stops when the
 * game is over. Returns x->over. */
int tb_run_turns(struct tb_run *x, int n);

/* battle_sim_play, battle_sim_start, battle_sim_init and battle_sim_setup, out of line. */
void tb_sim_play(const struct battle_plan_data *p, uint64_t seed, uint64_t game,
                 struct battle_game_result *out);
void tb_sim_start(const struct battle_plan_data *p, struct battle_game *g, uint64_t seed,
                  uint64_t game);
void tb_sim_init(const struct battle_plan_data *p, struct battle_game *g, uint64_t seed,
                 uint64_t game);
void tb_sim_setup(const struct battle_plan_data *p, struct battle_game *g, uint64_t seed,
                  uint64_t game);

/* Mimic's cast of skill `id` (battle_sim_mimic_cast: on the host a copy with the skill a
 * constant in each case), and battle_sim_skill_as with `id` and `pv` not constants (the
 * copy for any skill, which a kernel runs for Mimic), out of line: a test holds the two
 * to the same game. */
int tb_sim_mimic_cast(const struct battle_plan_data *p, struct battle_game *g, int s, int lane,
                      unsigned id, int refusable, const struct battle_card_data *c, unsigned k,
                      int pv, const struct battle_sim_ov *ov);
int tb_sim_skill_any(const struct battle_plan_data *p, struct battle_game *g, int s, int lane,
                     unsigned id, int refusable, const struct battle_card_data *c, unsigned k,
                     int pv, const struct battle_sim_ov *ov);

static inline void tb_run_end(struct tb_run *x)
{
    battle_plan_free(x->plan);
    x->plan = NULL;
}

/* Unit i of side s's assault row / structure row, and side s's commander health. */
#define TB_ASL(x, s, i) ((x)->g.sides[s].assaults[i])
#define TB_STR(x, s, i) ((x)->g.sides[s].structures[i])
#define TB_CMD(x, s)    ((x)->g.sides[s].commander_hp)
/* Permanent gains of assault i of side s (Berserk, Valor, Allegiance...; Leech, Fortify...):
 * the unit's attack and max health less its card's. */
#define TB_ATK_GAIN(x, s, i) (TB_ASL(x, s, i).attack - (x)->d->cards[TB_ASL(x, s, i).card].attack)
#define TB_HP_GAIN(x, s, i)  (TB_ASL(x, s, i).max_hp - (x)->d->cards[TB_ASL(x, s, i).card].health)

#endif
