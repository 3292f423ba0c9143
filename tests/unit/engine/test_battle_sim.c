/* SPDX-License-Identifier: MIT */
/* The rules of one battle (battle_sim.h), one tiny deterministic battle per rule: `exact`
 * play and single-candidate or `all` targets, so no random draw changes the outcome, and
 * exact health values asserted turn by turn. Commanders have 50 health unless stated. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "battle_cpu.h"
#include "battle_testlib.h"

#include "sk_banned.h"

/* Two commanders ("Boss A" for side 0, "Boss B" for side 1), exact play, empty decks. */
struct duel {
    int ca, cb;
};

static void duel(struct tb *b, struct duel *d)
{
    tb_init(b);
    d->ca = tb_card(b, "Boss A", BATTLE_COMMANDER, 0, 50, 0);
    d->cb = tb_card(b, "Boss B", BATTLE_COMMANDER, 0, 50, 0);
    tb_side(b, 0, d->ca, BATTLE_PLAY_EXACT);
    tb_side(b, 1, d->cb, BATTLE_PLAY_EXACT);
}

/* A mid-game state at `turn` with both commanders at 50 and nothing in play. */
static void state(struct tb *b, int turn)
{
    b->spec.has_state = 1;
    b->spec.state.turn = turn;
    b->spec.state.sides[0].commander_health = 50;
    b->spec.state.sides[1].commander_health = 50;
}

static void state_assault(struct tb *b, int s, int card, int health, int alive)
{
    struct battle_side_state *st = &b->spec.state.sides[s];
    struct battle_unit_spec *u = &st->assaults[st->n_assaults++];
    u->card = card;
    u->health = health;
    u->delay = 0;
    u->alive = alive;
}

static void state_structure(struct tb *b, int s, int card, int health, int alive)
{
    struct battle_side_state *st = &b->spec.state.sides[s];
    struct battle_unit_spec *u = &st->structures[st->n_structures++];
    u->card = card;
    u->health = health;
    u->delay = 0;
    u->alive = alive;
}

/* ---- turn structure, delay, end of game --------------------------------------------- */

static void test_delay0_acts_at_once(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    duel(&b, &d);
    tb_deck(&b, 0, tb_card(&b, "Hitter", BATTLE_ASSAULT, 3, 10, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1); /* turn 1: played and attacks the same turn */
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 47);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 44);
    CU_ASSERT_EQUAL(x.g.turn, 4);
    tb_run_end(&x);
}

static void test_delay_timing(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    duel(&b, &d);
    tb_deck(&b, 0, tb_card(&b, "Grunt", BATTLE_ASSAULT, 2, 10, 1), 1);
    tb_deck(&b, 1, tb_card(&b, "Brute", BATTLE_ASSAULT, 3, 14, 2), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1); /* a card played this turn does not tick */
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).delay, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 50);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).delay, 2);
    tb_run_turns(&x, 1); /* turn 3: the Grunt (delay 1, played turn 1) attacks */
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).delay, 0);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 12);
    tb_run_turns(&x, 1); /* turn 4: the Brute ticks to 1 and waits */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).delay, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 10);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 10);
    tb_run_turns(&x, 1); /* turn 6: the Brute (delay 2, played turn 2) attacks */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).delay, 0);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 7);
    tb_run_end(&x);
}

static void test_win_ends_at_once(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    duel(&b, &d);
    tb_deck(&b, 0, tb_card(&b, "Giant", BATTLE_ASSAULT, 60, 10, 0), 1);
    tb_run_start(&x, &b);
    CU_ASSERT_EQUAL(tb_run_turns(&x, 5), 1);
    CU_ASSERT_EQUAL(x.r.outcome, BATTLE_SIM_WIN);
    CU_ASSERT_EQUAL(x.r.turn, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 0);
    tb_run_end(&x);
}

static void test_surge_defender_first(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    duel(&b, &d);
    b.spec.mode = BATTLE_MODE_SURGE;
    tb_deck(&b, 1, tb_card(&b, "Hitter", BATTLE_ASSAULT, 3, 10, 0), 1);
    tb_deck(&b, 1, tb_card(&b, "Giant", BATTLE_ASSAULT, 60, 10, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1); /* turn 1 is the defender's */
    CU_ASSERT_EQUAL(TB_CMD(&x, 0), 47);
    CU_ASSERT_EQUAL(tb_run_turns(&x, 5), 1); /* turn 3: the Giant ends it */
    CU_ASSERT_EQUAL(x.r.outcome, BATTLE_SIM_LOSS);
    CU_ASSERT_EQUAL(x.r.turn, 3);
    tb_run_end(&x);
}

static void test_stall_at_turn_limit(void)
{
    struct tb b;
    struct duel d;
    struct battle_plan *plan;
    struct battle_game_result r;
    duel(&b, &d);
    /* 1 damage per attacker turn: 25 turns of side 0 in 50 leave Boss B at 25. */
    tb_deck(&b, 0, tb_card(&b, "Poker", BATTLE_ASSAULT, 1, 10, 0), 1);
    plan = tb_plan(&b);
    battle_cpu_play_one(plan, 0, &r);
    CU_ASSERT_EQUAL(r.outcome, BATTLE_SIM_STALL);
    CU_ASSERT_EQUAL(r.turn, 50);
    battle_plan_free(plan);
    b.spec.turn_limit = 7;
    plan = tb_plan(&b);
    battle_cpu_play_one(plan, 0, &r);
    CU_ASSERT_EQUAL(r.outcome, BATTLE_SIM_STALL);
    CU_ASSERT_EQUAL(r.turn, 7);
    battle_plan_free(plan);
    /* 2 per attacker turn: Boss B falls on turn 49, the attacker's 25th turn. */
    b.cards[2].attack = 2;
    b.spec.turn_limit = 50;
    plan = tb_plan(&b);
    battle_cpu_play_one(plan, 0, &r);
    CU_ASSERT_EQUAL(r.outcome, BATTLE_SIM_WIN);
    CU_ASSERT_EQUAL(r.turn, 49);
    battle_plan_free(plan);
}

/* Commander, then structures, then assaults: Boss A's Enfeeble 1 and the tower's Strike 4
 * kill the 5-health unit opposite the Hitter before the Hitter attacks. */
static void test_turn_order(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int tower, hitter, dummy;
    duel(&b, &d);
    tb_skill(&b, d.ca, BATTLE_SKILL_ENFEEBLE, 1, 1);
    tower = tb_card(&b, "Tower", BATTLE_STRUCTURE, 0, 10, 0);
    tb_skill(&b, tower, BATTLE_SKILL_STRIKE, 4, 1);
    hitter = tb_card(&b, "Hitter", BATTLE_ASSAULT, 3, 10, 0);
    dummy = tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 5, 0);
    state(&b, 1);
    state_structure(&b, 0, tower, 10, 1);
    state_assault(&b, 0, hitter, 10, 1);
    state_assault(&b, 1, dummy, 5, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 47);
    CU_ASSERT_EQUAL(x.g.sides[1].n_assaults, 0);
    tb_run_end(&x);
}

/* ---- death, compression, walls ------------------------------------------------------ */

static void test_dead_unit_keeps_slot(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int hitter, d1, d2;
    duel(&b, &d);
    tb_skill(&b, d.ca, BATTLE_SKILL_STRIKE, 3, 1);
    hitter = tb_card(&b, "Hitter", BATTLE_ASSAULT, 4, 10, 0);
    d1 = tb_card(&b, "Weakling", BATTLE_ASSAULT, 0, 3, 0);
    d2 = tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 10, 0);
    state(&b, 1);
    state_assault(&b, 0, hitter, 10, 1);
    state_assault(&b, 1, d1, 3, 1);
    state_assault(&b, 1, d2, 10, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    /* Lane 0 counts as empty once the Weakling dies: the Hitter hits the commander, not
     * the Dummy that compression moves into lane 0 at the end of the turn. */
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 46);
    CU_ASSERT_EQUAL(x.g.sides[1].n_assaults, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).card, d2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 7);
    tb_run_turns(&x, 2); /* turn 3: strike 3 and the Hitter's 4 kill the Dummy in lane 0 */
    CU_ASSERT_EQUAL(x.g.sides[1].n_assaults, 0);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 46);
    tb_run_end(&x);
}

static void test_compression_keeps_order(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int zero, killer, d1, d2, d3;
    duel(&b, &d);
    zero = tb_card(&b, "Zero", BATTLE_ASSAULT, 0, 10, 0);
    killer = tb_card(&b, "Killer", BATTLE_ASSAULT, 9, 10, 0);
    d1 = tb_card(&b, "D1", BATTLE_ASSAULT, 0, 5, 0);
    d2 = tb_card(&b, "D2", BATTLE_ASSAULT, 0, 5, 0);
    d3 = tb_card(&b, "D3", BATTLE_ASSAULT, 0, 5, 0);
    state(&b, 1);
    state_assault(&b, 0, zero, 10, 1);
    state_assault(&b, 0, killer, 10, 1);
    state_assault(&b, 1, d1, 5, 1);
    state_assault(&b, 1, d2, 5, 1);
    state_assault(&b, 1, d3, 5, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1); /* the Killer (lane 1) kills D2 */
    CU_ASSERT_EQUAL(x.g.sides[1].n_assaults, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).card, d1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 1).card, d3);
    tb_run_turns(&x, 2); /* lanes re-aligned: D3 now faces the Killer */
    CU_ASSERT_EQUAL(x.g.sides[1].n_assaults, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).card, d1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 50);
    tb_run_end(&x);
}

static void test_wall_blocks_empty_lane(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int wall;
    duel(&b, &d);
    tb_deck(&b, 0, tb_card(&b, "Hitter", BATTLE_ASSAULT, 2, 10, 0), 1);
    wall = tb_card(&b, "Barricade", BATTLE_STRUCTURE, 0, 12, 1);
    tb_skill(&b, wall, BATTLE_SKILL_WALL, 0, 0);
    tb_deck(&b, 1, wall, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3); /* turn 3: the wall, still on delay, takes the hit */
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 48);
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 0).delay, 1);
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 0).hp, 10);
    tb_run_end(&x);
}

/* The first living Wall in lane order takes the hit; a plain structure is skipped; a wall
 * killed this turn no longer blocks. */
static void test_wall_detection(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int plain, w1, w2, hitter;
    duel(&b, &d);
    plain = tb_card(&b, "Plain", BATTLE_STRUCTURE, 0, 10, 0);
    w1 = tb_card(&b, "Wall One", BATTLE_STRUCTURE, 0, 5, 0);
    tb_skill(&b, w1, BATTLE_SKILL_WALL, 0, 0);
    w2 = tb_card(&b, "Wall Two", BATTLE_STRUCTURE, 0, 10, 0);
    tb_skill(&b, w2, BATTLE_SKILL_WALL, 0, 0);
    hitter = tb_card(&b, "Hitter", BATTLE_ASSAULT, 5, 10, 0);
    tb_skill(&b, hitter, BATTLE_SKILL_FLURRY, 1, 0);
    state(&b, 1);
    state_structure(&b, 1, plain, 10, 1);
    state_structure(&b, 1, w1, 5, 1);
    state_structure(&b, 1, w2, 10, 1);
    state_assault(&b, 0, hitter, 10, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 50);
    CU_ASSERT_EQUAL(x.g.sides[1].n_structures, 2);
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 0).card, plain);
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 0).hp, 10);
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 1).card, w2);
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 1).hp, 5);
    tb_run_end(&x);
}

static void test_state_dead_unit_until_first_turn_end(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int hitter, dummy;
    duel(&b, &d);
    hitter = tb_card(&b, "Hitter", BATTLE_ASSAULT, 3, 10, 0);
    dummy = tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 10, 0);
    state(&b, 1);
    state_assault(&b, 0, hitter, 10, 1);
    state_assault(&b, 0, hitter, 10, 1);
    state_assault(&b, 1, dummy, 0, 0);
    state_assault(&b, 1, dummy, 10, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 47); /* lane 0 faces a dead unit */
    CU_ASSERT_EQUAL(x.g.sides[1].n_assaults, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 7);
    tb_run_end(&x);
}

/* ---- the attack and passive skills -------------------------------------------------- */

static void test_armor(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int plated;
    duel(&b, &d);
    tb_deck(&b, 0, tb_card(&b, "Hitter", BATTLE_ASSAULT, 3, 10, 0), 1);
    plated = tb_card(&b, "Plated", BATTLE_ASSAULT, 0, 10, 0);
    tb_skill(&b, plated, BATTLE_SKILL_ARMOR, 2, 0);
    tb_deck(&b, 1, plated, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 47);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 9);
    tb_run_end(&x);
}

static void test_pierce(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int piercer, plated;
    duel(&b, &d);
    piercer = tb_card(&b, "Piercer", BATTLE_ASSAULT, 3, 10, 0);
    tb_skill(&b, piercer, BATTLE_SKILL_PIERCE, 1, 0);
    tb_deck(&b, 0, piercer, 1);
    plated = tb_card(&b, "Plated", BATTLE_ASSAULT, 0, 10, 0);
    tb_skill(&b, plated, BATTLE_SKILL_ARMOR, 2, 0);
    tb_deck(&b, 1, plated, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3); /* 3 - max(0, 2 - 1) */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 8);
    tb_run_end(&x);
    b.cards[piercer].skills[0].x = 5; /* pierce beyond armor: the reduction floors at 0 */
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 7);
    tb_run_end(&x);
}

static void test_counter_at_zero_damage(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int spiky;
    duel(&b, &d);
    tb_deck(&b, 0, tb_card(&b, "Hitter", BATTLE_ASSAULT, 2, 10, 0), 1);
    spiky = tb_card(&b, "Spiky", BATTLE_ASSAULT, 0, 10, 0);
    tb_skill(&b, spiky, BATTLE_SKILL_ARMOR, 5, 0);
    tb_skill(&b, spiky, BATTLE_SKILL_COUNTER, 2, 0);
    tb_deck(&b, 1, spiky, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 10);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 8);
    tb_run_end(&x);
}

/* Counter is reduced by the attacker's Protect; a commander with Counter counters too. */
static void test_counter_protect_and_commander(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int spiky;
    duel(&b, &d);
    tb_skill(&b, d.ca, BATTLE_SKILL_PROTECT, 1, 1);
    tb_skill(&b, d.cb, BATTLE_SKILL_COUNTER, 2, 0);
    tb_deck(&b, 0, tb_card(&b, "Hitter", BATTLE_ASSAULT, 2, 10, 0), 1);
    spiky = tb_card(&b, "Spiky", BATTLE_ASSAULT, 0, 20, 0);
    tb_skill(&b, spiky, BATTLE_SKILL_COUNTER, 3, 0);
    tb_deck(&b, 1, spiky, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1); /* Boss B's Counter 2 - Protect 1 */
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 48);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 9);
    tb_run_turns(&x, 2); /* Spiky's Counter 3 - Protect 1 */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 18);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 7);
    tb_run_end(&x);
}

/* Counter comes before Leech: 10 - 4 + min(3, 2) = 8 after the first hit. */
static void test_leech(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int leecher, spiky;
    duel(&b, &d);
    leecher = tb_card(&b, "Leecher", BATTLE_ASSAULT, 2, 10, 0);
    tb_skill(&b, leecher, BATTLE_SKILL_LEECH, 3, 0);
    tb_deck(&b, 0, leecher, 1);
    spiky = tb_card(&b, "Spiky", BATTLE_ASSAULT, 0, 20, 0);
    tb_skill(&b, spiky, BATTLE_SKILL_COUNTER, 4, 0);
    tb_deck(&b, 1, spiky, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1); /* leech never heals beyond max health */
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 10);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 18);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 8);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 6);
    tb_run_end(&x);
}

static void test_berserk(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int berserker, dummy;
    duel(&b, &d);
    berserker = tb_card(&b, "Berserker", BATTLE_ASSAULT, 2, 20, 0);
    tb_skill(&b, berserker, BATTLE_SKILL_BERSERK, 3, 0);
    tb_deck(&b, 0, berserker, 1);
    dummy = tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 50, 0);
    tb_skill(&b, dummy, BATTLE_SKILL_ARMOR, 4, 0);
    tb_deck(&b, 1, dummy, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 48);
    CU_ASSERT_EQUAL(TB_ATK_GAIN(&x, 0, 0), 3);
    tb_run_turns(&x, 2); /* 5 - 4 */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 49);
    tb_run_turns(&x, 2); /* 8 - 4 */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 45);
    CU_ASSERT_EQUAL(TB_ATK_GAIN(&x, 0, 0), 9);
    tb_run_end(&x);
    b.cards[dummy].skills[0].x = 10; /* a hit for 0 gains nothing */
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 50);
    CU_ASSERT_EQUAL(TB_ATK_GAIN(&x, 0, 0), 3);
    tb_run_end(&x);
}

/* Poison 4 on the defender: the attacker takes 4 at the end of its own turn, then 2; a
 * second hit adds 4 more stacks. */
static void test_poison(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int toxic;
    duel(&b, &d);
    tb_deck(&b, 0, tb_card(&b, "Hitter", BATTLE_ASSAULT, 2, 10, 0), 1);
    toxic = tb_card(&b, "Toxic", BATTLE_ASSAULT, 0, 20, 0);
    tb_skill(&b, toxic, BATTLE_SKILL_POISON, 4, 0);
    tb_deck(&b, 1, toxic, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 18);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 6);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).poison, 2);
    tb_run_turns(&x, 1); /* no poison damage in the enemy's turn */
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 6);
    tb_run_turns(&x, 1); /* 2 + 4 stacks: 6 damage kills it */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 16);
    CU_ASSERT_EQUAL(x.g.sides[0].n_assaults, 0);
    tb_run_end(&x);
}

/* rules/battle.md, end of turn: poison ignores Protect. The Hitter is protected by its
 * commander on each of its turns (Protect 2), yet takes all 4 poison: 10 - 4, not 10 - 2. */
static void test_poison_ignores_protect(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int toxic;
    duel(&b, &d);
    tb_skill(&b, d.ca, BATTLE_SKILL_PROTECT, 2, 0);
    tb_deck(&b, 0, tb_card(&b, "Hitter", BATTLE_ASSAULT, 2, 10, 0), 1);
    toxic = tb_card(&b, "Toxic", BATTLE_ASSAULT, 0, 20, 0);
    tb_skill(&b, toxic, BATTLE_SKILL_POISON, 4, 0);
    tb_deck(&b, 1, toxic, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).protect, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 6);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).poison, 2);
    tb_run_end(&x);
}

/* rules/battle.md, the turn: Flurry X on a commander gives X more rounds of its skills.
 * Strike 2 with Flurry 1 hits the Dummy twice on turn 3 (the first enemy assault). */
static void test_flurry_on_commander(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    duel(&b, &d);
    tb_skill(&b, d.ca, BATTLE_SKILL_STRIKE, 2, 0);
    tb_skill(&b, d.ca, BATTLE_SKILL_FLURRY, 1, 0);
    tb_deck(&b, 1, tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 50, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 46);
    tb_run_end(&x);
}

/* rules/battle.md, skills: accumulated values saturate at 30,000 so 16-bit fields cannot
 * wrap (Berserk 99 with Flurry 99 adds 9,900 attack a turn, so the cap is reachable). */
static void test_accumulated_values_saturate(void)
{
    CU_ASSERT_EQUAL(battle_sim_sat(29999), 29999);
    CU_ASSERT_EQUAL(battle_sim_sat(30000), 30000);
    CU_ASSERT_EQUAL(battle_sim_sat(30001), 30000);
    CU_ASSERT_EQUAL(battle_sim_sat(29000 + 9900), 30000);
}

/* A unit's eight cooldowns share one word, 4 bits each: one own turn takes 1 from every
 * slot above 0 and leaves the slots at 0 (and the neighbours) alone. Every value of each
 * pair of neighbouring slots, the others 0 and 15, then words drawn at random. */
static unsigned cd_tick_by_slot(unsigned cd)
{
    unsigned r = 0;
    for (unsigned k = 0; k < 8; k++) {
        unsigned v = (cd >> (4 * k)) & 15u;
        r |= (v ? v - 1 : 0) << (4 * k);
    }
    return r;
}

static void test_cooldown_tick(void)
{
    struct rng r;
    int bad = 0;
    for (unsigned k = 0; k < 7; k++)
        for (unsigned v = 0; v < 256; v++)
            for (unsigned rest = 0; rest < 2; rest++) {
                unsigned cd = (rest ? ~(0xFFu << (4 * k)) : 0u) | (v << (4 * k));
                bad += battle_sim_cd_tick(cd) != cd_tick_by_slot(cd);
            }
    rng_init(&r, 5, 0);
    for (int i = 0; i < 100000; i++) {
        unsigned cd = rng_next(&r);
        bad += battle_sim_cd_tick(cd) != cd_tick_by_slot(cd);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(battle_sim_cd_tick(0x0F10A001u), 0x0E009000u);
}

static void test_flurry(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int hitter;
    duel(&b, &d);
    hitter = tb_card(&b, "Hitter", BATTLE_ASSAULT, 2, 10, 0);
    tb_skill(&b, hitter, BATTLE_SKILL_FLURRY, 2, 0);
    tb_deck(&b, 0, hitter, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 44);
    tb_run_end(&x);
}

/* ---- activation skills -------------------------------------------------------------- */

/* Strike ignores armor; `all` hits every living enemy assault. */
static void test_strike_all(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int striker, plated;
    duel(&b, &d);
    striker = tb_card(&b, "Striker", BATTLE_ASSAULT, 0, 10, 0);
    tb_skill(&b, striker, BATTLE_SKILL_STRIKE, 2, 1);
    tb_deck(&b, 0, striker, 1);
    plated = tb_card(&b, "Plated", BATTLE_ASSAULT, 0, 10, 0);
    tb_skill(&b, plated, BATTLE_SKILL_ARMOR, 5, 0);
    tb_deck(&b, 1, plated, 1);
    tb_deck(&b, 1, tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 10, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 8);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 6);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 1).hp, 8);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 50);
    tb_run_end(&x);
}

/* Siege hits structures (fortresses included), never assaults. */
static void test_siege(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int sieger, fort;
    duel(&b, &d);
    sieger = tb_card(&b, "Sieger", BATTLE_ASSAULT, 0, 10, 0);
    tb_skill(&b, sieger, BATTLE_SKILL_SIEGE, 4, 1);
    tb_deck(&b, 0, sieger, 1);
    fort = tb_card(&b, "Fort", BATTLE_FORTRESS, 0, 20, 0);
    tb_fort(&b, 1, fort);
    tb_deck(&b, 1, tb_card(&b, "Bunker", BATTLE_STRUCTURE, 0, 15, 1), 1);
    tb_deck(&b, 1, tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 10, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 0).hp, 16);
    tb_run_turns(&x, 4);
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 0).hp, 8);
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 1).hp, 7);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 10);
    tb_run_end(&x);
}

/* Boss A: Enfeeble 2 then Strike 3 (card order), and the Hitter's attack also takes the
 * +2; the enfeeble is gone at the end of the caster's turn. */
static void test_enfeeble(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    duel(&b, &d);
    tb_skill(&b, d.ca, BATTLE_SKILL_ENFEEBLE, 2, 1);
    tb_skill(&b, d.ca, BATTLE_SKILL_STRIKE, 3, 1);
    tb_deck(&b, 0, tb_card(&b, "Hitter", BATTLE_ASSAULT, 3, 10, 0), 1);
    tb_deck(&b, 1, tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 50, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 47);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 50 - 5 - 5);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).enfeeble, 0);
    tb_run_end(&x);
}

/* Weaken needs a target that acts next turn (delay <= 1); it lasts through that turn. */
static void test_weaken(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    duel(&b, &d);
    tb_skill(&b, d.ca, BATTLE_SKILL_WEAKEN, 2, 0);
    tb_deck(&b, 1, tb_card(&b, "Brute", BATTLE_ASSAULT, 3, 14, 2), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3); /* turn 3: the Brute is at delay 2, not a target */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).weaken, 0);
    tb_run_turns(&x, 2); /* turn 5: delay 1 */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).weaken, 2);
    tb_run_turns(&x, 1); /* turn 6: attacks for 3 - 2, then the weaken expires */
    CU_ASSERT_EQUAL(TB_CMD(&x, 0), 49);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).weaken, 0);
    tb_run_end(&x);
}

/* Jam, then Weaken: a jammed unit is no Weaken target (it will not act). */
static void test_jam(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    duel(&b, &d);
    tb_skill(&b, d.ca, BATTLE_SKILL_JAM, 0, 0);
    tb_skill(&b, d.ca, BATTLE_SKILL_WEAKEN, 1, 0);
    tb_deck(&b, 1, tb_card(&b, "Hitter", BATTLE_ASSAULT, 3, 50, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_CMD(&x, 0), 47);
    tb_run_turns(&x, 1);
    CU_ASSERT_TRUE(TB_ASL(&x, 1, 0).flags & BATTLE_SIM_JAMMED);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).weaken, 0);
    tb_run_turns(&x, 1); /* turn 4: skipped; the jam ends with it */
    CU_ASSERT_EQUAL(TB_CMD(&x, 0), 47);
    CU_ASSERT_FALSE(TB_ASL(&x, 1, 0).flags & BATTLE_SIM_JAMMED);
    tb_run_end(&x);
}

/* The Hitter (lane 0) takes Counter 4, then the Healer (lane 1) heals it by 3. */
static void test_heal(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int healer, spiky;
    duel(&b, &d);
    tb_deck(&b, 0, tb_card(&b, "Hitter", BATTLE_ASSAULT, 2, 10, 0), 1);
    healer = tb_card(&b, "Healer", BATTLE_ASSAULT, 0, 10, 0);
    tb_skill(&b, healer, BATTLE_SKILL_HEAL, 3, 0);
    tb_deck(&b, 0, healer, 1);
    spiky = tb_card(&b, "Spiky", BATTLE_ASSAULT, 0, 30, 0);
    tb_skill(&b, spiky, BATTLE_SKILL_COUNTER, 4, 0);
    tb_deck(&b, 1, spiky, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 9);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 8);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 1).hp, 10);
    tb_run_end(&x);
}

static void test_rally(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    duel(&b, &d);
    tb_skill(&b, d.ca, BATTLE_SKILL_RALLY, 2, 1);
    tb_deck(&b, 0, tb_card(&b, "Hitter", BATTLE_ASSAULT, 2, 10, 0), 1);
    tb_deck(&b, 0, tb_card(&b, "Grunt", BATTLE_ASSAULT, 2, 10, 1), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 46);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).rally, 0); /* gone at the end of the turn */
    tb_run_turns(&x, 2); /* turn 3: the Grunt played on delay gets no rally */
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 42);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 1).rally, 0);
    tb_run_end(&x);
}

/* Rally only reaches allies that have not attacked yet: on turn 3 the Rallier (lane 1,
 * single target) can only pick itself, since the Hitter (lane 0) has attacked; were the
 * Hitter a candidate, about half of 16 games would leave the Rallier at 0 attack. A
 * flurrying unit counts as not having attacked until its last action is done (as tuo). */
static void test_rally_before_attack(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int rallier, self;
    duel(&b, &d);
    tb_deck(&b, 0, tb_card(&b, "Hitter", BATTLE_ASSAULT, 2, 10, 0), 1);
    rallier = tb_card(&b, "Rallier", BATTLE_ASSAULT, 0, 10, 0);
    tb_skill(&b, rallier, BATTLE_SKILL_RALLY, 3, 0);
    tb_deck(&b, 0, rallier, 1);
    for (unsigned game = 0; game < 16; game++) {
        b.spec.seed = game;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 3); /* 50 - 2 - (2 + 3) */
        CU_ASSERT_EQUAL(TB_CMD(&x, 1), 43);
        tb_run_end(&x);
    }
    duel(&b, &d);
    self = tb_card(&b, "Self Rallier", BATTLE_ASSAULT, 2, 10, 0);
    tb_skill(&b, self, BATTLE_SKILL_RALLY, 1, 0);
    tb_skill(&b, self, BATTLE_SKILL_FLURRY, 1, 0);
    tb_deck(&b, 0, self, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1); /* (2 + 1) then (2 + 2) */
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 43);
    tb_run_end(&x);
}

/* Weaken takes at most the target's current power: Weaken 5 on a 3-attack unit stores 3,
 * so Boss B's Rally 2 on its own turn leaves power 2. */
static void test_weaken_clamped(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    duel(&b, &d);
    tb_skill(&b, d.ca, BATTLE_SKILL_WEAKEN, 5, 1);
    tb_skill(&b, d.cb, BATTLE_SKILL_RALLY, 2, 1);
    tb_deck(&b, 1, tb_card(&b, "Hitter", BATTLE_ASSAULT, 3, 50, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 2); /* turn 2: rallied to 5 */
    CU_ASSERT_EQUAL(TB_CMD(&x, 0), 45);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).weaken, 3);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 0), 43);
    tb_run_end(&x);
}

/* Protect 2 from Boss B lasts through the next enemy turn and is not used up: both
 * flurried hits are reduced. */
static void test_protect(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int hitter;
    duel(&b, &d);
    tb_skill(&b, d.cb, BATTLE_SKILL_PROTECT, 2, 0);
    hitter = tb_card(&b, "Hitter", BATTLE_ASSAULT, 3, 10, 0);
    tb_skill(&b, hitter, BATTLE_SKILL_FLURRY, 1, 0);
    tb_deck(&b, 0, hitter, 1);
    tb_deck(&b, 1, tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 50, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 44);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).protect, 2);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 48);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).protect, 0);
    tb_run_end(&x);
    /* Protect also reduces Strike: 3 - 2. */
    b.cards[hitter].attack = 0;
    b.cards[hitter].skills[0] = (struct battle_skill_spec){.id = BATTLE_SKILL_STRIKE, .x = 3};
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 49);
    tb_run_end(&x);
}

/* Evade 1 negates the first hostile skill each enemy turn, counted afresh every turn. */
static void test_evade(void)
{
    struct tb b;
    struct duel d;
    struct tb_run x;
    int striker, evader;
    duel(&b, &d);
    striker = tb_card(&b, "Striker", BATTLE_ASSAULT, 0, 10, 0);
    tb_skill(&b, striker, BATTLE_SKILL_STRIKE, 3, 0);
    tb_deck(&b, 0, striker, 2);
    evader = tb_card(&b, "Evader", BATTLE_ASSAULT, 0, 10, 0);
    tb_skill(&b, evader, BATTLE_SKILL_EVADE, 1, 0);
    tb_deck(&b, 1, evader, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 7);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).evaded, 0);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 4);
    tb_run_end(&x);
}

static CU_TestInfo sim_tests[] = {
    {"delay 0 acts the turn it is played", test_delay0_acts_at_once},
    {"delay d acts on the owner's d-th later turn", test_delay_timing},
    {"a commander at 0 ends the game at once", test_win_ends_at_once},
    {"surge: the defender takes turn 1", test_surge_defender_first},
    {"stall after turn_limit", test_stall_at_turn_limit},
    {"commander, structures, then assaults", test_turn_order},
    {"a dead unit keeps its slot until turn end", test_dead_unit_keeps_slot},
    {"compression keeps order and realigns lanes", test_compression_keeps_order},
    {"wall takes hits into an empty lane", test_wall_blocks_empty_lane},
    {"first living wall in lane order", test_wall_detection},
    {"dead unit of a mid-game state", test_state_dead_unit_until_first_turn_end},
    {"armor", test_armor},
    {"pierce", test_pierce},
    {"counter at 0 damage", test_counter_at_zero_damage},
    {"counter minus protect; commander counter", test_counter_protect_and_commander},
    {"leech after counter, capped at max health", test_leech},
    {"berserk only after damage", test_berserk},
    {"poison ticks and halves", test_poison},
    {"poison ignores protect", test_poison_ignores_protect},
    {"flurry", test_flurry},
    {"flurry on a commander repeats its skills", test_flurry_on_commander},
    {"accumulated values saturate at 30,000", test_accumulated_values_saturate},
    {"cooldown tick: each slot above 0 down by 1", test_cooldown_tick},
    {"strike all ignores armor", test_strike_all},
    {"siege hits structures only", test_siege},
    {"enfeeble adds to skills and attacks", test_enfeeble},
    {"weaken", test_weaken},
    {"jam", test_jam},
    {"heal", test_heal},
    {"rally", test_rally},
    {"rally only before the ally attacks", test_rally_before_attack},
    {"weaken takes at most the current power", test_weaken_clamped},
    {"protect is not used up", test_protect},
    {"evade", test_evade},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_sim_suites[] = {
    {"battle_sim", NULL, NULL, NULL, NULL, sim_tests},
    CU_SUITE_INFO_NULL,
};
