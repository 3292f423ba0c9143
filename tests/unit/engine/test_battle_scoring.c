/* SPDX-License-Identifier: MIT */
/* The scoring modes (docs/rules/battle.md, "Scoring"): tiny games with every card and every
 * play stated, each scored under all eight scorings, against points worked out by hand
 * from the peer's formulas; and a job's points sums over many games. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "battle_cpu.h"
#include "battle_testlib.h"

/* Points of each scoring, in enum battle_scoring order: win, defense, war, war-defense,
 * raid, brawl, brawl-defense, campaign. */
struct expect {
    int outcome;
    int turn;
    int points[BATTLE_SCORING__COUNT];
};

/* Plays game 0 of `b` under every scoring and checks outcome, turn and points. */
static void check_all(struct tb *b, const struct expect *e)
{
    for (int s = 0; s < BATTLE_SCORING__COUNT; s++) {
        struct tb_run x;
        b->spec.scoring = (enum battle_scoring)s;
        tb_run_start(&x, b);
        tb_run_turns(&x, BATTLE_TURN_LIMIT_MAX + 1);
        CU_ASSERT_EQUAL(x.over, 1);
        CU_ASSERT_EQUAL(x.r.outcome, e->outcome);
        CU_ASSERT_EQUAL(x.r.turn, e->turn);
        if (x.r.points != e->points[s])
            fprintf(stderr, "scoring %d: %d points, expected %d\n", s, x.r.points, e->points[s]);
        CU_ASSERT_EQUAL(x.r.points, e->points[s]);
        tb_run_end(&x);
    }
}

struct cards {
    int c0, c1, hammer, pawn, ghost, martyr;
};

/* Hammer (10 attack, 30 health) beats everything here; Pawn and Ghost (0 attack, 5 health)
 * only stand; Martyr (the same) summons a Ghost when it dies. Every card acts at once
 * (delay 0) and both sides play their decks in order (exact). */
static void cards(struct tb *b, struct cards *c, int hp0, int hp1)
{
    tb_init(b);
    c->c0 = tb_card(b, "Own Commander", BATTLE_COMMANDER, 0, hp0, 0);
    c->c1 = tb_card(b, "Enemy Commander", BATTLE_COMMANDER, 0, hp1, 0);
    c->hammer = tb_card(b, "Hammer", BATTLE_ASSAULT, 10, 30, 0);
    c->pawn = tb_card(b, "Pawn", BATTLE_ASSAULT, 0, 5, 0);
    c->ghost = tb_card(b, "Ghost", BATTLE_ASSAULT, 0, 5, 0);
    c->martyr = tb_card(b, "Martyr", BATTLE_ASSAULT, 0, 5, 0);
    tb_skill(b, c->martyr, BATTLE_SKILL_SUMMON, 0, 0);
    b->cards[c->martyr].skills[0].trigger = BATTLE_SIM_TRIG_DEATH;
    b->cards[c->martyr].skills[0].card = c->ghost;
    tb_side(b, 0, c->c0, BATTLE_PLAY_EXACT);
    tb_side(b, 1, c->c1, BATTLE_PLAY_EXACT);
}

/* Five Hammers against Martyr and four Pawns; the enemy commander has 25 health.
 *   turn 1: Hammer 1 hits the commander (15);
 *   turn 2: Martyr;
 *   turn 3: Hammer 2; Hammer 1 kills Martyr, whose Ghost takes lane 1, where Hammer 2
 *           kills it;
 *   turn 4: Pawn 1 (the row closed up);
 *   turn 5: Hammer 3; Hammer 1 kills Pawn 1, Hammers 2 and 3 hit the commander: a win.
 * Enemy units destroyed: 3 (Martyr, Ghost, Pawn), 2 of them deck cards; 2 Hammers left.
 * Brawl 55 + 3 + 2 - (5 + 7) / 8 = 59; war 208 - (5 / 2) * 4 = 200; the defending forms
 * score a win as the best less the worst: 100 - 5 and 208 - 20. */
static void test_win(void)
{
    struct tb b;
    struct cards c;
    const struct expect e = {BATTLE_SIM_WIN, 5, {100, 100, 200, 188, 100, 59, 95, 100}};
    cards(&b, &c, 40, 25);
    tb_deck(&b, 0, c.hammer, 5);
    tb_deck(&b, 1, c.martyr, 1);
    tb_deck(&b, 1, c.pawn, 4);
    check_all(&b, &e);
}

/* The same game with 100 enemy health and a turn limit of 5: a stall with the commander
 * at 70. Raid: 15 + 2 deck cards destroyed (the Ghost does not count) - 10 * 70 / 100 =
 * 10; defense counts a stall as a win; brawl and war give a stall their fixed 5 and 20. */
static void test_stall(void)
{
    struct tb b;
    struct cards c;
    const struct expect e = {BATTLE_SIM_STALL, 5, {0, 100, 20, 188, 10, 5, 95, 0}};
    cards(&b, &c, 40, 100);
    b.spec.turn_limit = 5;
    tb_deck(&b, 0, c.hammer, 5);
    tb_deck(&b, 1, c.martyr, 1);
    tb_deck(&b, 1, c.pawn, 4);
    check_all(&b, &e);
}

/* The sides swapped: our Martyr and Pawns (25 health) against five Hammers.
 *   turn 2: Hammer 1 kills Martyr; its Ghost comes;
 *   turn 4: Hammers 1 and 2 kill the Ghost and Pawn 1;
 *   turn 6: Hammer 1 kills Pawn 2, Hammers 2 and 3 bring our commander to 5;
 *   turn 8: Hammer 1 kills Pawn 3, Hammer 2 ends it: a loss.
 * Our units destroyed: 5, 4 of them deck cards; the enemy has 1 Hammer left. The enemy's
 * brawl score is 55 + 5 + 1 - (8 + 7) / 8 = 60, so brawl-defense scores 100 - 60 = 40;
 * its war score is 208 - 4 * 4 = 192, so war-defense scores 208 - 192 = 16. Raid: 15 +
 * none destroyed - 10 * 40 / 40 = 5. */
static void test_loss(void)
{
    struct tb b;
    struct cards c;
    const struct expect e = {BATTLE_SIM_LOSS, 8, {0, 0, 20, 16, 5, 5, 40, 0}};
    cards(&b, &c, 25, 40);
    tb_deck(&b, 0, c.martyr, 1);
    tb_deck(&b, 0, c.pawn, 4);
    tb_deck(&b, 1, c.hammer, 5);
    check_all(&b, &e);
}

/* Campaign: 100 less 10 a deck card of ours destroyed, where a lost dominion does not
 * count. Our Keep (10 health) is a dominion; the enemy's Cannon fortress sieges it (20) on
 * turn 2, when the enemy's Biter (5 attack, 5 health) also kills our Pawn. Hammer 1 kills
 * the Biter on turn 3; on turn 5 Hammers 1 and 2 end the enemy commander (15). Lost: Pawn
 * and Keep, the Keep not counted: 90. The same Keep as a plain fortress counts: 80. */
static void test_campaign_dominion(void)
{
    struct tb b;
    struct cards c;
    struct expect e = {BATTLE_SIM_WIN, 5, {100, 100, 200, 188, 100, 57, 95, 90}};
    int keep, cannon, biter;
    for (int dominion = 1; dominion >= 0; dominion--) {
        cards(&b, &c, 40, 15);
        keep = tb_card(&b, "Keep", BATTLE_FORTRESS, 0, 10, 0);
        b.cards[keep].dominion = dominion;
        cannon = tb_card(&b, "Cannon", BATTLE_FORTRESS, 0, 50, 0);
        tb_skill(&b, cannon, BATTLE_SKILL_SIEGE, 20, 0);
        biter = tb_card(&b, "Biter", BATTLE_ASSAULT, 5, 5, 0);
        tb_fort(&b, 0, keep);
        tb_fort(&b, 1, cannon);
        tb_deck(&b, 0, c.pawn, 1);
        tb_deck(&b, 0, c.hammer, 4);
        tb_deck(&b, 1, biter, 1);
        e.points[BATTLE_SCORING_CAMPAIGN] = dominion ? 90 : 80;
        check_all(&b, &e);
    }
}

/* Over a run of games, the counts' points are the sums of the games' points and squares,
 * and under "win" scoring exactly 100 a win. */
static void test_counts(void)
{
    struct tb b;
    struct battle_plan *plan;
    tb_ref_matchup(&b, 1);
    for (int s = 0; s < BATTLE_SCORING__COUNT; s++) {
        struct battle_counts run;
        uint64_t sum = 0, sq = 0;
        memset(&run, 0, sizeof(run));
        b.spec.scoring = (enum battle_scoring)s;
        plan = tb_plan(&b);
        CU_ASSERT_EQUAL_FATAL(battle_cpu_run(plan, 0, 2000, 2, &run), SK_OK);
        for (uint64_t g = 0; g < 2000; g++) {
            struct battle_game_result r;
            battle_cpu_play_one(plan, g, &r);
            CU_ASSERT_TRUE(r.points <= BATTLE_POINTS_MAX);
            sum += r.points;
            sq += (uint64_t)r.points * r.points;
        }
        CU_ASSERT_EQUAL(run.points_sum, sum);
        CU_ASSERT_EQUAL(run.points_sq, sq);
        if (s == BATTLE_SCORING_WIN)
            CU_ASSERT_EQUAL(run.points_sum, 100 * run.wins);
        if (s == BATTLE_SCORING_DEFENSE)
            CU_ASSERT_EQUAL(run.points_sum, 100 * (run.wins + run.stalls));
        battle_plan_free(plan);
    }
}

static CU_TestInfo scoring_tests[] = {
    {"a win under every scoring", test_win},
    {"a stall under every scoring", test_stall},
    {"a loss under every scoring", test_loss},
    {"campaign and a lost dominion", test_campaign_dominion},
    {"points sums of a run", test_counts},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_scoring_suites[] = {
    {"battle_scoring", NULL, NULL, NULL, NULL, scoring_tests},
    CU_SUITE_INFO_NULL,
};
