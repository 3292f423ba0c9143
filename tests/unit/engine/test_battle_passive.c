/* SPDX-License-Identifier: MIT */
/* Passive battleground effects (docs/rules/battle.md, "Passive battleground effects"): tiny
 * games with every card stated and the values each effect changes, with the effect on the
 * side the peer reads it from and, where it matters, on the other side (no change); then
 * the codec's form and errors. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "battle_cpu.h"
#include "battle_testlib.h"
#include "codec_testlib.h"
#include "sk_banned.h"

/* Both sides play exact; commanders of 0 attack and 40 health (faction 1). */
static void duel(struct tb *b)
{
    int c0, c1;
    tb_init(b);
    c0 = tb_card(b, "Own Commander", BATTLE_COMMANDER, 0, 40, 0);
    c1 = tb_card(b, "Enemy Commander", BATTLE_COMMANDER, 0, 40, 0);
    b->cards[c0].faction = 1;
    b->cards[c1].faction = 1;
    tb_side(b, 0, c0, BATTLE_PLAY_EXACT);
    tb_side(b, 1, c1, BATTLE_PLAY_EXACT);
}

/* An assault of `attack`/`health`, delay 0, with one skill (BATTLE_SKILL__COUNT: none). */
static int unit(struct tb *b, const char *name, int attack, int health, enum battle_skill id, int x)
{
    int c = tb_card(b, name, BATTLE_ASSAULT, attack, health, 0);
    if (id != BATTLE_SKILL__COUNT)
        tb_skill(b, c, id, x, id == BATTLE_SKILL_HEAL || id == BATTLE_SKILL_WEAKEN);
    return c;
}

/* Bloodlust 2: the first attack of the phase that did damage (Pawn A on the Dummy, 1)
 * adds 2 to the phase's later attacks (Pawn B on the commander: 1 + 2). On the defender's
 * side it does nothing in the attacker's turns. */
static void test_bloodlust(void)
{
    for (int side = 0; side < 2; side++) {
        struct tb b;
        struct tb_run x;
        int pawn, dummy;
        duel(&b);
        pawn = unit(&b, "Pawn", 1, 10, BATTLE_SKILL__COUNT, 0);
        dummy = unit(&b, "Dummy", 0, 50, BATTLE_SKILL__COUNT, 0);
        tb_deck(&b, 0, pawn, 3);
        tb_deck(&b, 1, dummy, 3);
        b.spec.sides[side].passive[BATTLE_PASSIVE_BLOODLUST] = 2;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 3); /* 1: A hits the commander; 2: a Dummy; 3: B played */
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 49);
        CU_ASSERT_EQUAL(TB_CMD(&x, 1), side == 0 ? 40 - 1 - 3 : 40 - 1 - 1);
        tb_run_end(&x);
    }
}

/* Fortification 1 (read on the attacker's side): the Hitter's attack on the Plain unit is
 * reduced by the Armor 3 of the unit beside it. */
static void test_fortification(void)
{
    for (int side = 0; side < 2; side++) {
        struct tb b;
        struct tb_run x;
        int hitter, plain, armored;
        duel(&b);
        hitter = tb_card(&b, "Hitter", BATTLE_ASSAULT, 5, 20, 3); /* acts on turn 7 */
        plain = unit(&b, "Plain", 0, 20, BATTLE_SKILL__COUNT, 0);
        armored = unit(&b, "Armored", 0, 20, BATTLE_SKILL_ARMOR, 3);
        tb_deck(&b, 0, hitter, 1);
        tb_deck(&b, 0, unit(&b, "Filler", 0, 10, BATTLE_SKILL__COUNT, 0), 3);
        tb_deck(&b, 1, plain, 1);
        tb_deck(&b, 1, armored, 3);
        b.spec.sides[side].passive[BATTLE_PASSIVE_FORTIFICATION] = 1;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 7);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, side == 0 ? 20 - 2 : 20 - 5);
        tb_run_end(&x);
    }
}

/* Brigade and Unity: the Legionnaire (Legion 2, Coalition 1, 20 health), countered for 8
 * at each attack on the Counterer, heals before its attack on turn 5 by what its Legion
 * adds (2 x its two Allies) and what its Coalition adds (1 x one faction): 12 -> 16 -> 17,
 * then 8 less. Its attacks did 1 + 2 + 1 and 1 + 4 + 1. */
static void test_brigade_unity(void)
{
    static const int expect[3] = {4, 8, 9}; /* none, Brigade, both */
    for (int v = 0; v < 3; v++) {
        struct tb b;
        struct tb_run x;
        int leg, ally, counterer;
        duel(&b);
        leg = unit(&b, "Legionnaire", 1, 20, BATTLE_SKILL_LEGION, 2);
        tb_skill(&b, leg, BATTLE_SKILL_COALITION, 1, 0);
        ally = unit(&b, "Ally", 0, 10, BATTLE_SKILL__COUNT, 0);
        counterer = unit(&b, "Counterer", 0, 60, BATTLE_SKILL_COUNTER, 8);
        b.cards[leg].faction = 2;
        b.cards[ally].faction = 2;
        tb_deck(&b, 0, leg, 1);
        tb_deck(&b, 0, ally, 3);
        tb_deck(&b, 1, counterer, 3);
        b.spec.sides[0].passive[BATTLE_PASSIVE_BRIGADE] = v >= 1;
        b.spec.sides[0].passive[BATTLE_PASSIVE_UNITY] = v == 2;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 5);
        CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, expect[v]);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 60 - 4 - 6);
        tb_run_end(&x);
    }
}

/* Counterflux 2 (read on the attacker's side): the Counterer (Counter 4) that countered
 * gains (4 - 1) / 2 + 1 = 2 attack and heals as much. */
static void test_counterflux(void)
{
    struct tb b;
    struct tb_run x;
    duel(&b);
    tb_deck(&b, 0, unit(&b, "Pawn", 1, 20, BATTLE_SKILL__COUNT, 0), 3);
    tb_deck(&b, 1, unit(&b, "Counterer", 0, 20, BATTLE_SKILL_COUNTER, 4), 3);
    b.spec.sides[0].passive[BATTLE_PASSIVE_COUNTERFLUX] = 2;
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ATK_GAIN(&x, 1, 0), 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 20); /* hit for 1, healed by 2 up to its 20 */
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 16);
    tb_run_end(&x);
}

/* Enduring Rage 2: Berserk 3 that took effect (on the commander on turn 1, on the
 * Counterer on turn 3) also heals and protects the unit by (3 - 1) / 2 + 1 = 2 (the
 * Protect lasts through the enemy's next turn). */
static void test_enduring_rage(void)
{
    struct tb b;
    struct tb_run x;
    duel(&b);
    tb_deck(&b, 0, unit(&b, "Berserker", 1, 20, BATTLE_SKILL_BERSERK, 3), 3);
    tb_deck(&b, 1, unit(&b, "Counterer", 0, 50, BATTLE_SKILL_COUNTER, 3), 3);
    b.spec.sides[0].passive[BATTLE_PASSIVE_ENDURINGRAGE] = 2;
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ATK_GAIN(&x, 0, 0), 6);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 19); /* countered for 3, healed by 2 */
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).protect, 2);
    tb_run_end(&x);
}

/* Devour 2: the Leecher (Leech 3) gains (3 - 1) / 2 + 1 = 2 attack and max health on a
 * hit of an assault, besides its Leech's 2 (the damage it did); not on the commander. */
static void test_devour(void)
{
    struct tb b;
    struct tb_run x;
    duel(&b);
    tb_deck(&b, 0, unit(&b, "Leecher", 2, 20, BATTLE_SKILL_LEECH, 3), 3);
    tb_deck(&b, 1, unit(&b, "Dummy", 0, 50, BATTLE_SKILL__COUNT, 0), 3);
    b.spec.sides[0].passive[BATTLE_PASSIVE_DEVOUR] = 2;
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1); /* the commander */
    CU_ASSERT_EQUAL(TB_ATK_GAIN(&x, 0, 0), 0);
    tb_run_turns(&x, 2); /* 2: a Dummy; 3: the Leecher hits it */
    CU_ASSERT_EQUAL(TB_ATK_GAIN(&x, 0, 0), 2);
    CU_ASSERT_EQUAL(TB_HP_GAIN(&x, 0, 0), 2 + 2);
    tb_run_end(&x);
}

/* Heroism: after each card its side plays, the Hero (Valor 2) gains (2 + 1) / 2 = 1
 * Protect; when its attack kills the Weakling it gains its Valor + Bravery, 2, attack. */
static void test_heroism(void)
{
    for (int on = 0; on < 2; on++) {
        struct tb b;
        struct tb_run x;
        duel(&b);
        tb_deck(&b, 0, unit(&b, "Hero", 5, 20, BATTLE_SKILL_VALOR, 2), 3);
        tb_deck(&b, 1, unit(&b, "Weakling", 0, 3, BATTLE_SKILL__COUNT, 0), 3);
        b.spec.sides[0].passive[BATTLE_PASSIVE_HEROISM] = on;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 3); /* 2: a Weakling; 3: the Hero kills it */
        CU_ASSERT_EQUAL(TB_ATK_GAIN(&x, 0, 0), on ? 2 : 0);
        CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).protect, on ? 1 : 0);
        CU_ASSERT_EQUAL(TB_ASL(&x, 0, 1).protect, on ? 1 : 0); /* the Hero played on turn 3 */
        tb_run_end(&x);
    }
}

/* Turning Tides: the Weakener's Weaken all 2 takes 2 attack from the Biter (3 -> 1), so
 * the attacker's commander rallies the Pawn, which attacks later this turn, by 2: it hits
 * the enemy commander for 1 + 2. */
static void test_turning_tides(void)
{
    for (int on = 0; on < 2; on++) {
        struct tb b;
        struct tb_run x;
        duel(&b);
        tb_deck(&b, 0, unit(&b, "Weakener", 0, 20, BATTLE_SKILL_WEAKEN, 2), 1);
        tb_deck(&b, 0, unit(&b, "Pawn", 1, 20, BATTLE_SKILL__COUNT, 0), 2);
        tb_deck(&b, 1, unit(&b, "Biter", 3, 50, BATTLE_SKILL__COUNT, 0), 3);
        b.spec.sides[0].passive[BATTLE_PASSIVE_TURNINGTIDES] = on;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 3);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).weaken, 2);
        CU_ASSERT_EQUAL(TB_CMD(&x, 1), on ? 37 : 39);
        tb_run_end(&x);
    }
}

/* Revenge 2: Pawn A dies of the Counterer's Counter on turn 3, and its commander casts
 * Heal all 2 and Rally all 2: Pawn B, which attacks later in the turn, hits the enemy
 * commander for 1 + 2. */
static void test_revenge(void)
{
    for (int on = 0; on < 2; on++) {
        struct tb b;
        struct tb_run x;
        duel(&b);
        tb_deck(&b, 0, unit(&b, "Pawn", 1, 2, BATTLE_SKILL__COUNT, 0), 3);
        tb_deck(&b, 1, unit(&b, "Counterer", 0, 50, BATTLE_SKILL_COUNTER, 5), 3);
        b.spec.sides[0].passive[BATTLE_PASSIVE_REVENGE] = on ? 2 : 0;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 3);
        CU_ASSERT_EQUAL(x.g.sides[0].n_assaults, 1); /* Pawn A died (the row is compressed) */
        CU_ASSERT_EQUAL(TB_CMD(&x, 1), on ? 40 - 1 - 3 : 40 - 1 - 1);
        tb_run_end(&x);
    }
}

/* Critical Reach: Swipe 2 from lane 0 also hits lane 2. */
static void test_critical_reach(void)
{
    for (int on = 0; on < 2; on++) {
        struct tb b;
        struct tb_run x;
        int swiper;
        duel(&b);
        swiper = tb_card(&b, "Swiper", BATTLE_ASSAULT, 1, 20, 3); /* acts on turn 7 */
        tb_skill(&b, swiper, BATTLE_SKILL_SWIPE, 2, 0);
        tb_deck(&b, 0, swiper, 1);
        tb_deck(&b, 0, unit(&b, "Filler", 0, 10, BATTLE_SKILL__COUNT, 0), 3);
        tb_deck(&b, 1, unit(&b, "Dummy", 0, 50, BATTLE_SKILL__COUNT, 0), 4);
        b.spec.sides[0].passive[BATTLE_PASSIVE_CRITICALREACH] = on;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 7);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 49);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 1).hp, 48);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 2).hp, on ? 48 : 50);
        tb_run_end(&x);
    }
}

/* Zealot's Preservation: the Healer's Heal all 3 also gives the Ally (bitten from 10 to 6)
 * 2 Protect, which takes 2 off the next bite. */
static void test_zealots_preservation(void)
{
    for (int on = 0; on < 2; on++) {
        struct tb b;
        struct tb_run x;
        duel(&b);
        tb_deck(&b, 0, unit(&b, "Ally", 0, 10, BATTLE_SKILL__COUNT, 0), 1);
        tb_deck(&b, 0, unit(&b, "Healer", 0, 10, BATTLE_SKILL_HEAL, 3), 2);
        tb_deck(&b, 1, unit(&b, "Biter", 4, 50, BATTLE_SKILL__COUNT, 0), 3);
        b.spec.sides[0].passive[BATTLE_PASSIVE_ZEALOTSPRESERVATION] = on;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 3);
        CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 9);
        CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).protect, on ? 2 : 0);
        tb_run_turns(&x, 1);
        CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, on ? 7 : 5);
        tb_run_end(&x);
    }
}

/* Iron Will: Weaken all 2 leaves the Armored unit alone. */
static void test_iron_will(void)
{
    for (int on = 0; on < 2; on++) {
        struct tb b;
        struct tb_run x;
        duel(&b);
        tb_deck(&b, 0, unit(&b, "Filler", 0, 20, BATTLE_SKILL__COUNT, 0), 2);
        tb_deck(&b, 0, unit(&b, "Weakener", 0, 20, BATTLE_SKILL_WEAKEN, 2), 1);
        tb_deck(&b, 1, unit(&b, "Armored", 3, 40, BATTLE_SKILL_ARMOR, 1), 1);
        tb_deck(&b, 1, unit(&b, "Plain", 3, 40, BATTLE_SKILL__COUNT, 0), 2);
        b.spec.sides[0].passive[BATTLE_PASSIVE_IRONWILL] = on;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 5);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).weaken, on ? 0 : 2);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 1).weaken, 2);
        tb_run_end(&x);
    }
}

/* Metamorphosis and Megamorphosis: the commander's Rally all Imperial 2 also takes the
 * Pawn of another faction, which then hits the enemy commander for 1 + 2. */
static void test_morphosis(void)
{
    static const enum battle_passive which[3] = {
        BATTLE_PASSIVE__COUNT, BATTLE_PASSIVE_METAMORPHOSIS, BATTLE_PASSIVE_MEGAMORPHOSIS};
    for (int v = 0; v < 3; v++) {
        struct tb b;
        struct tb_run x;
        int pawn;
        duel(&b);
        tb_skill(&b, b.spec.sides[0].commander, BATTLE_SKILL_RALLY, 2, 1);
        b.cards[b.spec.sides[0].commander].skills[0].y = 1;
        pawn = unit(&b, "Pawn", 1, 10, BATTLE_SKILL__COUNT, 0);
        b.cards[pawn].faction = 2;
        tb_deck(&b, 0, pawn, 3);
        tb_deck(&b, 1, unit(&b, "Dummy", 0, 50, BATTLE_SKILL__COUNT, 0), 3);
        if (which[v] != BATTLE_PASSIVE__COUNT)
            b.spec.sides[0].passive[which[v]] = 1;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 1);
        CU_ASSERT_EQUAL(TB_CMD(&x, 1), v ? 37 : 39);
        tb_run_end(&x);
    }
}

/* Super Heroism 2: the Brave unit's Bravery 1 takes effect (the Big unit opposite is
 * stronger) and heals every damaged own assault by 1 x 2. */
static void test_super_heroism(void)
{
    for (int on = 0; on < 2; on++) {
        struct tb b;
        struct tb_run x;
        duel(&b);
        tb_deck(&b, 0, unit(&b, "Brave", 1, 20, BATTLE_SKILL_BRAVERY, 1), 3);
        tb_deck(&b, 1, unit(&b, "Big", 5, 50, BATTLE_SKILL__COUNT, 0), 3);
        b.spec.sides[0].passive[BATTLE_PASSIVE_SUPERHEROISM] = on ? 2 : 0;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 3);
        CU_ASSERT_EQUAL(TB_ATK_GAIN(&x, 0, 0), 1);
        CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, on ? 17 : 15);
        tb_run_end(&x);
    }
}

/* Devotion 50: a played card of the commander's faction gains half its health, rounded
 * up (11 -> 17); one of another faction does not. */
static void test_devotion(void)
{
    struct tb b;
    struct tb_run x;
    int same, other;
    duel(&b);
    same = unit(&b, "Devout", 0, 11, BATTLE_SKILL__COUNT, 0);
    other = unit(&b, "Stranger", 0, 11, BATTLE_SKILL__COUNT, 0);
    b.cards[same].faction = 1;
    b.cards[other].faction = 3;
    tb_deck(&b, 0, same, 1);
    tb_deck(&b, 0, other, 1);
    tb_deck(&b, 1, unit(&b, "Dummy", 0, 50, BATTLE_SKILL__COUNT, 0), 2);
    b.spec.sides[0].passive[BATTLE_PASSIVE_DEVOTION] = 50;
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_HP_GAIN(&x, 0, 0), 6);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 17);
    CU_ASSERT_EQUAL(TB_HP_GAIN(&x, 0, 1), 0);
    tb_run_end(&x);
}

/* Oath of Loyalty: the Loyal assault (Allegiance 2, faction 2) enters beside two
 * structures and one assault of its faction, a structure of another faction and a fortress
 * of its faction (neither counts): + 2 x 3 attack and max health. */
static void test_oath_of_loyalty(void)
{
    for (int on = 0; on < 2; on++) {
        struct tb b;
        struct tb_run x;
        int tower, other, fort, loyal, ally;
        duel(&b);
        tower = tb_card(&b, "Tower", BATTLE_STRUCTURE, 0, 10, 0);
        other = tb_card(&b, "Other Tower", BATTLE_STRUCTURE, 0, 10, 0);
        fort = tb_card(&b, "Fort", BATTLE_FORTRESS, 0, 10, 0);
        loyal = unit(&b, "Loyal", 1, 10, BATTLE_SKILL_ALLEGIANCE, 2);
        ally = unit(&b, "Ally", 0, 10, BATTLE_SKILL__COUNT, 0);
        b.cards[ally].faction = 2;
        b.cards[tower].faction = 2;
        b.cards[other].faction = 3;
        b.cards[fort].faction = 2;
        b.cards[loyal].faction = 2;
        tb_fort(&b, 0, fort);
        tb_deck(&b, 0, tower, 2);
        tb_deck(&b, 0, other, 1);
        tb_deck(&b, 0, ally, 1);
        tb_deck(&b, 0, loyal, 1);
        tb_deck(&b, 1, unit(&b, "Dummy", 0, 50, BATTLE_SKILL__COUNT, 0), 5);
        b.spec.sides[0].passive[BATTLE_PASSIVE_OATHOFLOYALTY] = on;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 9); /* the Loyal one is played on turn 9 */
        CU_ASSERT_EQUAL(x.g.sides[0].n_structures, 4);
        CU_ASSERT_EQUAL(TB_ATK_GAIN(&x, 0, 1), on ? 6 : 0);
        CU_ASSERT_EQUAL(TB_HP_GAIN(&x, 0, 1), on ? 6 : 0);
        tb_run_end(&x);
    }
}

/* Divert (read on the side whose turn it is): the Inhibitor (played on turn 2, opposite
 * Guard A) makes Guard A refuse one allied skill. On turn 3 Guard A casts Rally all 2:
 * Guard B takes it, Guard A refuses it, and with the attacker's Divert the refused cast
 * goes to the enemy's only assault, the Inhibitor, which then hits Guard A for 0 + 2 on
 * turn 4. Divert on the defender's side changes nothing in the attacker's turn. */
static void test_divert(void)
{
    for (int side = -1; side < 2; side++) {
        struct tb b;
        struct tb_run x;
        int inhibitor, guard;
        duel(&b);
        guard = unit(&b, "Guard", 0, 20, BATTLE_SKILL_RALLY, 2);
        b.cards[guard].skills[0].all = 1;
        inhibitor = unit(&b, "Inhibitor", 0, 30, BATTLE_SKILL_INHIBIT, 1);
        tb_deck(&b, 0, guard, 3);
        tb_deck(&b, 1, inhibitor, 3);
        if (side >= 0)
            b.spec.sides[side].passive[BATTLE_PASSIVE_DIVERT] = 1;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 3);
        CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).inhibited, 0);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).rally, side == 0 ? 2 : 0);
        tb_run_turns(&x, 1);
        CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, side == 0 ? 18 : 20);
        tb_run_end(&x);
    }
}

/* The Virulence tests' turns: 8 turns of `b`, then the defender's four Dummies set to 10,
 * 5, 5 and 10 health with 0, 2, 3 and 1 poison and the attacker's assault in `lane` to act,
 * then turn 9, after which the two dead lanes are compressed. */
static void virulence_turn9(struct tb_run *x, struct tb *b, int lane)
{
    static const int hp[4] = {10, 5, 5, 10}, poison[4] = {0, 2, 3, 1};
    tb_run_start(x, b);
    tb_run_turns(x, 8);
    CU_ASSERT_EQUAL_FATAL(x->g.sides[1].n_assaults, 4);
    for (int i = 0; i < 4; i++) {
        TB_ASL(x, 1, i).hp = (clc_i16)hp[i];
        TB_ASL(x, 1, i).poison = (clc_i16)poison[i];
    }
    TB_ASL(x, 0, lane).delay = 1;
    tb_run_turns(x, 1);
    CU_ASSERT_EQUAL_FATAL(x->g.sides[1].n_assaults, 2);
}

/* Virulence (read on the side whose turn it is): by turn 8 the defender has four Dummies;
 * they are set to 10, 5, 5 and 10 health with 0, 2, 3 and 1 poison, and the attacker's
 * Killer to act on turn 9, when its Strike all 5 kills the Dummies in lanes 1 and 2, one
 * run of deaths: the living Dummy on the run's left takes 2 + 3 poison, the one on its
 * right the run's 2 + 3 (on its own 1). Virulence on the defender's side changes nothing
 * in the attacker's turn. */
static void test_virulence(void)
{
    for (int side = -1; side < 2; side++) {
        struct tb b;
        struct tb_run x;
        int killer;
        duel(&b);
        killer = tb_card(&b, "Killer", BATTLE_ASSAULT, 0, 50, 9);
        tb_skill(&b, killer, BATTLE_SKILL_STRIKE, 5, 1);
        tb_deck(&b, 0, killer, 1);
        tb_deck(&b, 0, unit(&b, "Pawn", 0, 10, BATTLE_SKILL__COUNT, 0), 4);
        tb_deck(&b, 1, unit(&b, "Dummy", 0, 10, BATTLE_SKILL__COUNT, 0), 5);
        if (side >= 0)
            b.spec.sides[side].passive[BATTLE_PASSIVE_VIRULENCE] = 1;
        virulence_turn9(&x, &b, 0);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 5);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).poison, side == 0 ? 5 : 0);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 1).poison, side == 0 ? 6 : 1);
        tb_run_end(&x);
    }
}

/* Virulence on an attack's kill, as the peer handles it: at once, before Venom adds to the
 * target's poison and before Swipe kills a neighbour. By turn 8 the defender has four
 * Dummies, set to 10, 5, 5 and 10 health with 0, 2, 3 and 1 poison; the attacker's Viper
 * (lane 1: attack 5, Swipe 5, Venom 4) acts on turn 9. Its attack kills Dummy 1, whose 2
 * poison go to Dummies 0 and 2; its Swipe then kills Dummy 2 (3 + 2 poison), a run of its
 * own whose left neighbour is dead: Dummy 3 takes 5. */
static void test_virulence_attack(void)
{
    for (int on = 0; on < 2; on++) {
        struct tb b;
        struct tb_run x;
        int viper, pawn;
        duel(&b);
        pawn = unit(&b, "Pawn", 0, 10, BATTLE_SKILL__COUNT, 0);
        viper = tb_card(&b, "Viper", BATTLE_ASSAULT, 5, 50, 9);
        tb_skill(&b, viper, BATTLE_SKILL_SWIPE, 5, 0);
        tb_skill(&b, viper, BATTLE_SKILL_VENOM, 4, 0);
        tb_deck(&b, 0, pawn, 1);
        tb_deck(&b, 0, viper, 1);
        tb_deck(&b, 0, pawn, 3);
        tb_deck(&b, 1, unit(&b, "Dummy", 0, 10, BATTLE_SKILL__COUNT, 0), 5);
        b.spec.sides[0].passive[BATTLE_PASSIVE_VIRULENCE] = on;
        virulence_turn9(&x, &b, 1);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 5);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).poison, on ? 2 : 0);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 1).poison, on ? 6 : 1);
        tb_run_end(&x);
    }
}

/* Halted Orders and Blood Vengeance: the peer reads them and plays nothing for them; a
 * job with them plays exactly the games of the job without. */
static void test_no_effect(void)
{
    /* battle_cpu_run adds into them */
    static struct battle_counts with, without;
    struct tb b;
    struct battle_plan *plan;
    memset(&with, 0, sizeof(with));
    memset(&without, 0, sizeof(without));
    tb_ref_matchup(&b, 1);
    plan = tb_plan(&b);
    CU_ASSERT_EQUAL_FATAL(battle_cpu_run(plan, 0, 2000, 1, &without), SK_OK);
    battle_plan_free(plan);
    b.spec.sides[0].passive[BATTLE_PASSIVE_HALTEDORDERS] = 1;
    b.spec.sides[1].passive[BATTLE_PASSIVE_BLOODVENGEANCE] = 3;
    plan = tb_plan(&b);
    CU_ASSERT_EQUAL(battle_plan_data(plan)->passive, BATTLE_SIM_PV_EFFECTS);
    CU_ASSERT_EQUAL_FATAL(battle_cpu_run(plan, 0, 2000, 1, &with), SK_OK);
    battle_plan_free(plan);
    CU_ASSERT_EQUAL(memcmp(&with, &without, sizeof(with)), 0);
}

/* Expects one problem at `pointer` whose message holds `what`. */
static void refused(const char *text, const char *pointer, const char *what)
{
    struct battle_spec spec;
    struct sk_verr_list errs;
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(ct_decode(text, &spec, &errs), SK_EINVAL);
    CU_ASSERT_EQUAL_FATAL(errs.n, 1);
    CU_ASSERT_STRING_EQUAL(errs.items[0].pointer, pointer);
    if (!strstr(errs.items[0].message, what))
        fprintf(stderr, "message: %s\n", errs.items[0].message);
    CU_ASSERT_PTR_NOT_NULL(strstr(errs.items[0].message, what));
    sk_verr_list_release(&errs);
}

static void test_codec(void)
{
    struct battle_spec spec;
    struct sk_verr_list errs;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(ct_decode("{'games':10," CT_SIDES ",'effects':["
                                    "{'passive':'Bloodlust','x':2,'side':'attacker'},"
                                    "{'passive':'Iron Will'},"
                                    "{'passive':'zealots-preservation','side':'defender'},"
                                    "{'passive':'Bloodlust','x':3,'side':'attacker'}]}",
                                    &spec, &errs),
                          SK_OK);
    CU_ASSERT_EQUAL(spec.sides[0].passive[BATTLE_PASSIVE_BLOODLUST], 3); /* the later one */
    CU_ASSERT_EQUAL(spec.sides[1].passive[BATTLE_PASSIVE_BLOODLUST], 0);
    CU_ASSERT_EQUAL(spec.sides[0].passive[BATTLE_PASSIVE_IRONWILL], 1);
    CU_ASSERT_EQUAL(spec.sides[1].passive[BATTLE_PASSIVE_IRONWILL], 1);
    CU_ASSERT_EQUAL(spec.sides[0].passive[BATTLE_PASSIVE_ZEALOTSPRESERVATION], 0);
    CU_ASSERT_EQUAL(spec.sides[1].passive[BATTLE_PASSIVE_ZEALOTSPRESERVATION], 1);
    CU_ASSERT_EQUAL(spec.sides[0].effects, 0); /* no skill: no effects card */
    battle_codec_spec_release(&spec);
    sk_verr_list_release(&errs);

    refused("{'games':10," CT_SIDES ",'effects':[{'passive':'Bloodthirst'}]}",
            "/params/effects/0/passive", "unknown passive battleground effect");
    refused("{'games':10," CT_SIDES ",'effects':[{'passive':'Bloodlust','x':1000}]}",
            "/params/effects/0/x", "999");
    refused("{'games':10," CT_SIDES ",'effects':[{'skill':{'name':'rally','x':1},'x':2}]}",
            "/params/effects/0/x", "passive effect's value");
    refused("{'games':10," CT_SIDES
            ",'effects':[{'skill':{'name':'rally','x':1},'passive':'Unity'}]}",
            "/params/effects/0", "one of them");
}

static CU_TestInfo passive_tests[] = {
    {"Bloodlust, on the side it is read from", test_bloodlust},
    {"Fortification, read on the attacker's side", test_fortification},
    {"Brigade and Unity", test_brigade_unity},
    {"Counterflux", test_counterflux},
    {"Enduring Rage", test_enduring_rage},
    {"Devour", test_devour},
    {"Heroism", test_heroism},
    {"Turning Tides", test_turning_tides},
    {"Revenge", test_revenge},
    {"Oath of Loyalty", test_oath_of_loyalty},
    {"Critical Reach", test_critical_reach},
    {"Zealot's Preservation", test_zealots_preservation},
    {"Iron Will", test_iron_will},
    {"Metamorphosis and Megamorphosis", test_morphosis},
    {"Super Heroism", test_super_heroism},
    {"Devotion", test_devotion},
    {"Divert", test_divert},
    {"Virulence", test_virulence},
    {"Virulence on an attack's kill", test_virulence_attack},
    {"Halted Orders and Blood Vengeance change nothing", test_no_effect},
    {"the codec's passive effects and their errors", test_codec},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_passive_suites[] = {
    {"battle_passive", NULL, NULL, NULL, NULL, passive_tests},
    CU_SUITE_INFO_NULL,
};
