/* SPDX-License-Identifier: MIT */
/* Scenario tests of the rules framework of the game's cards (docs/rules/battle.md): the
 * skill options y, n and c, triggered skills (on play, on attacked, on death), Summon,
 * Flurry's cooldown, Leech, Poison on a blocked hit, Rally and units whose turn is over,
 * fortress delays, the guard on a card that summons itself, a unit summoned and killed
 * before its on-play skills, and the work bound. Each states the whole battle and the exact
 * values it expects. */
#include <CUnit/CUnit.h>

#include "battle_testlib.h"

/* Both commanders at 50, exact play, empty decks. */
static void duel(struct tb *b, int *ca, int *cb)
{
    tb_init(b);
    *ca = tb_card(b, "Boss A", BATTLE_COMMANDER, 0, 50, 0);
    *cb = tb_card(b, "Boss B", BATTLE_COMMANDER, 0, 50, 0);
    tb_side(b, 0, *ca, BATTLE_PLAY_EXACT);
    tb_side(b, 1, *cb, BATTLE_PLAY_EXACT);
}

/* The skill just added to `card`, for setting its options. */
static struct battle_skill_spec *last_skill(struct tb *b, int card)
{
    return &b->cards[card].skills[b->cards[card].n_skills - 1];
}

static int faction_card(struct tb *b, const char *name, int faction, int health)
{
    int c = tb_card(b, name, BATTLE_ASSAULT, 0, health, 0);
    b->cards[c].faction = faction;
    return c;
}

/* Strike 3, y xeno, n 2 from the commander: never the imperial unit; the progenitor one
 * passes every filter; two targets drawn once there are three. */
static void test_faction_filter_and_targets(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, imp, xeno, prog, xeno2, lost = 0, hit = 0;
    duel(&b, &ca, &cb);
    tb_skill(&b, ca, BATTLE_SKILL_STRIKE, 3, 0);
    last_skill(&b, ca)->y = 4;
    last_skill(&b, ca)->n = 2;
    imp = faction_card(&b, "Imperial", 1, 20);
    xeno = faction_card(&b, "Xeno", 4, 20);
    prog = faction_card(&b, "Progenitor", 6, 20);
    xeno2 = faction_card(&b, "Xeno Two", 4, 20);
    tb_deck(&b, 1, imp, 1);
    tb_deck(&b, 1, xeno, 1);
    tb_deck(&b, 1, prog, 1);
    tb_deck(&b, 1, xeno2, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3); /* turn 3: only the imperial unit is in play: no target */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 20);
    tb_run_turns(&x, 2); /* turn 5: the xeno, the only candidate */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 20);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 1).hp, 17);
    tb_run_turns(&x, 2); /* turn 7: two candidates, n = 2: both */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 1).hp, 14);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 2).hp, 17);
    tb_run_turns(&x, 2); /* turn 9: three candidates, two drawn, each hit once */
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 20);
    for (int i = 1; i <= 3; i++) {
        int before = i == 1 ? 14 : i == 2 ? 17 : 20;
        int d = before - TB_ASL(&x, 1, i).hp;
        CU_ASSERT(d == 0 || d == 3);
        lost += d;
        hit += d == 3;
    }
    CU_ASSERT_EQUAL(lost, 6);
    CU_ASSERT_EQUAL(hit, 2);
    tb_run_end(&x);
    (void)cb;
}

/* Strike 1, c 2: no target on turn 1 starts no cooldown; then every second own turn. */
static void test_cooldown(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb;
    static const int want[] = {49, 49, 48, 48, 47};
    duel(&b, &ca, &cb);
    tb_skill(&b, ca, BATTLE_SKILL_STRIKE, 1, 0);
    last_skill(&b, ca)->c = 2;
    tb_deck(&b, 1, tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 50, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    for (int k = 0; k < 5; k++) { /* turns 3, 5, 7, 9, 11 */
        tb_run_turns(&x, 2);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, want[k]);
    }
    tb_run_end(&x);
    (void)cb;
}

/* Flurry 1, c 2: two attacks on turn 1, one on turn 3, two on turn 5. */
static void test_flurry_cooldown(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, f;
    duel(&b, &ca, &cb);
    f = tb_card(&b, "Flurrier", BATTLE_ASSAULT, 1, 10, 0);
    tb_skill(&b, f, BATTLE_SKILL_FLURRY, 1, 0);
    last_skill(&b, f)->c = 2;
    tb_deck(&b, 0, f, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 48);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 47);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 45);
    tb_run_end(&x);
    (void)ca;
}

/* An on-play Strike 2 fires once, when the card is played, though the card waits its
 * delay. */
static void test_on_play(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, herald;
    duel(&b, &ca, &cb);
    herald = tb_card(&b, "Herald", BATTLE_ASSAULT, 0, 10, 3);
    tb_skill(&b, herald, BATTLE_SKILL_STRIKE, 2, 0);
    last_skill(&b, herald)->trigger = BATTLE_SIM_TRIG_PLAY;
    tb_deck(&b, 0, tb_card(&b, "Filler", BATTLE_ASSAULT, 0, 10, 5), 1);
    tb_deck(&b, 0, herald, 1);
    tb_deck(&b, 1, tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 20, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 18);
    tb_run_turns(&x, 6);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 18);
    tb_run_end(&x);
    (void)ca;
    (void)cb;
}

/* An on-attacked Strike 2 answers a hit that Armor blocked fully: the attacker loses 2. */
static void test_on_attacked(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, thorn;
    duel(&b, &ca, &cb);
    tb_deck(&b, 0, tb_card(&b, "Poker", BATTLE_ASSAULT, 1, 10, 0), 1);
    thorn = tb_card(&b, "Thorn", BATTLE_ASSAULT, 0, 30, 0);
    tb_skill(&b, thorn, BATTLE_SKILL_ARMOR, 5, 0);
    tb_skill(&b, thorn, BATTLE_SKILL_STRIKE, 2, 0);
    last_skill(&b, thorn)->trigger = BATTLE_SIM_TRIG_ATTACKED;
    tb_deck(&b, 1, thorn, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 49);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 30);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 8);
    tb_run_end(&x);
    (void)ca;
}

/* On death, the Martyr summons a Ghost: it joins the row at once and takes the Martyr's
 * lane when the row closes ranks at the end of the turn. */
static void test_on_death_summon(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, martyr, ghost;
    duel(&b, &ca, &cb);
    tb_deck(&b, 0, tb_card(&b, "Killer", BATTLE_ASSAULT, 5, 20, 0), 1);
    martyr = tb_card(&b, "Martyr", BATTLE_ASSAULT, 0, 1, 0);
    ghost = tb_card(&b, "Ghost", BATTLE_ASSAULT, 0, 7, 0);
    tb_skill(&b, martyr, BATTLE_SKILL_SUMMON, 0, 0);
    last_skill(&b, martyr)->trigger = BATTLE_SIM_TRIG_DEATH;
    last_skill(&b, martyr)->card = ghost;
    tb_deck(&b, 1, martyr, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 45);
    CU_ASSERT_EQUAL_FATAL(x.g.sides[1].n_assaults, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).card, ghost);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 7);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 2);
    tb_run_end(&x);
    (void)ca;
}

/* A structure's activation Summon fires when its delay reaches 0 (turn 5), and the card it
 * brings starts one turn nearer (delay 2 - 1): the Imp attacks on turn 7. */
static void test_activation_summon(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, portal, imp;
    duel(&b, &ca, &cb);
    portal = tb_card(&b, "Portal", BATTLE_STRUCTURE, 0, 10, 2);
    imp = tb_card(&b, "Imp", BATTLE_ASSAULT, 1, 5, 2);
    tb_skill(&b, portal, BATTLE_SKILL_SUMMON, 0, 0);
    last_skill(&b, portal)->card = imp;
    tb_deck(&b, 0, portal, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 4);
    CU_ASSERT_EQUAL(x.g.sides[0].n_assaults, 0);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL_FATAL(x.g.sides[0].n_assaults, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).delay, 1);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 50);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 49);
    tb_run_end(&x);
    (void)ca;
}

/* A duel whose attacker plays one Echo, a card that summons itself on play. */
static void echo_duel(struct tb *b)
{
    int ca, cb, echo;
    duel(b, &ca, &cb);
    echo = tb_card(b, "Echo", BATTLE_ASSAULT, 0, 5, 1);
    tb_skill(b, echo, BATTLE_SKILL_SUMMON, 0, 0);
    last_skill(b, echo)->trigger = BATTLE_SIM_TRIG_PLAY;
    last_skill(b, echo)->card = echo;
    tb_deck(b, 0, echo, 1);
}

/* A card that summons itself on play (the peer spins forever on one) fills its row and
 * stops: 60 units after turn 1, and the game plays to its end. */
static void test_self_summon_is_bounded(void)
{
    struct tb b;
    struct tb_run x;
    echo_duel(&b);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(x.g.sides[0].n_assaults, BATTLE_SIM_ROW);
    CU_ASSERT_EQUAL(x.g.pending, 0);
    tb_run_turns(&x, 100);
    CU_ASSERT_TRUE(x.over);
    CU_ASSERT_EQUAL(x.r.outcome, BATTLE_SIM_STALL);
    tb_run_end(&x);
}

/* Leech 2 on a 10-health unit: nothing from a hit on the commander; a hit on an assault
 * raises max health and health by 2, even at full health. */
static void test_leech_max_health(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, leecher;
    duel(&b, &ca, &cb);
    leecher = tb_card(&b, "Leecher", BATTLE_ASSAULT, 2, 10, 0);
    tb_skill(&b, leecher, BATTLE_SKILL_LEECH, 2, 0);
    tb_deck(&b, 0, leecher, 1);
    tb_deck(&b, 1, tb_card(&b, "Pillow", BATTLE_ASSAULT, 0, 20, 0), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 48);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 10);
    CU_ASSERT_EQUAL(TB_HP_GAIN(&x, 0, 0), 0);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 18);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 12);
    CU_ASSERT_EQUAL(TB_HP_GAIN(&x, 0, 0), 2);
    tb_run_end(&x);
    (void)ca;
}

/* Poison 2 on a defender whose Armor 5 blocks the whole hit still poisons the attacker:
 * 10 - 2 at the end of its turn, and the stacks halve to 1. */
static void test_poison_on_blocked_hit(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, toxic;
    duel(&b, &ca, &cb);
    tb_deck(&b, 0, tb_card(&b, "Poker", BATTLE_ASSAULT, 1, 10, 0), 1);
    toxic = tb_card(&b, "Toxic", BATTLE_ASSAULT, 0, 30, 0);
    tb_skill(&b, toxic, BATTLE_SKILL_ARMOR, 5, 0);
    tb_skill(&b, toxic, BATTLE_SKILL_POISON, 2, 0);
    tb_deck(&b, 1, toxic, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 3);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 30);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 8);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).poison, 1);
    tb_run_end(&x);
    (void)ca;
}

/* A unit with 0 power whose turn in the row is over takes no later Rally: the Rallier
 * rallies itself and hits for 1 + 2, whatever the seed. */
static void test_rally_skips_finished_units(void)
{
    for (int seed = 1; seed <= 20; seed++) {
        struct tb b;
        struct tb_run x;
        int ca, cb, rallier;
        duel(&b, &ca, &cb);
        b.spec.seed = (uint64_t)seed;
        tb_deck(&b, 0, tb_card(&b, "Zero", BATTLE_ASSAULT, 0, 10, 0), 1);
        rallier = tb_card(&b, "Rallier", BATTLE_ASSAULT, 1, 10, 0);
        tb_skill(&b, rallier, BATTLE_SKILL_RALLY, 2, 0);
        tb_deck(&b, 0, rallier, 1);
        tb_run_start(&x, &b);
        tb_run_turns(&x, 3);
        CU_ASSERT_EQUAL(TB_CMD(&x, 1), 47);
        tb_run_end(&x);
        (void)ca;
        (void)cb;
    }
}

/* A fortress waits its card's delay like any structure: Strike 1 at delay 2 acts on its
 * owner's second turn (turn 3). */
static void test_fortress_delay(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, fort;
    duel(&b, &ca, &cb);
    fort = tb_card(&b, "Slow Fort", BATTLE_FORTRESS, 0, 20, 2);
    tb_skill(&b, fort, BATTLE_SKILL_STRIKE, 1, 0);
    tb_fort(&b, 0, fort);
    tb_deck(&b, 1, tb_card(&b, "Dummy", BATTLE_ASSAULT, 0, 20, 0), 2);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_STR(&x, 0, 0).delay, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 20);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 19);
    tb_run_end(&x);
    (void)ca;
    (void)cb;
}

/* Fortress cards as the peer plays them, a kind of structure. The defender's Post (a
 * fortress, 3 health) summons the Drones (a fortress card, 9 health, delay 1) on death,
 * and the attacker's Grunt kills it on turn 1 (no assault in its lane: the Grunt hits the
 * Post, a Wall): the Drones stand in the structure row, not the assault row (bench/
 * peer_fuzz.mjs seed 1207, #92: Medical Center's Medical Drones). The attacker's Nest (a
 * fortress, delay 1, activation Summon of the Larva, delay 2) summons at the start of turn
 * 1, when its delay reaches 0, and the Larva starts one turn nearer (delay 1), as a
 * structure's; the Grunt, played after it, takes lane 1. */
static void test_fortress_cards_are_structures(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, post, drones, nest, larva;
    duel(&b, &ca, &cb);
    drones = tb_card(&b, "Drones", BATTLE_FORTRESS, 0, 9, 1);
    post = tb_card(&b, "Post", BATTLE_FORTRESS, 0, 3, 0);
    tb_skill(&b, post, BATTLE_SKILL_WALL, 0, 0);
    tb_skill(&b, post, BATTLE_SKILL_SUMMON, 0, 0);
    last_skill(&b, post)->trigger = BATTLE_SIM_TRIG_DEATH;
    last_skill(&b, post)->card = drones;
    tb_fort(&b, 1, post);
    larva = tb_card(&b, "Larva", BATTLE_ASSAULT, 1, 5, 2);
    nest = tb_card(&b, "Nest", BATTLE_FORTRESS, 0, 20, 1);
    tb_skill(&b, nest, BATTLE_SKILL_SUMMON, 0, 0);
    last_skill(&b, nest)->card = larva;
    tb_fort(&b, 0, nest);
    tb_deck(&b, 0, tb_card(&b, "Grunt", BATTLE_ASSAULT, 4, 20, 0), 1);
    tb_deck(&b, 1, tb_card(&b, "Block", BATTLE_STRUCTURE, 0, 50, 5), 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL_FATAL(x.g.sides[0].n_assaults, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).card, larva);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).delay, 1);
    CU_ASSERT_EQUAL(x.g.sides[1].n_assaults, 0);
    CU_ASSERT_EQUAL_FATAL(x.g.sides[1].n_structures, 1); /* the Post gone at the turn's end */
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 0).card, drones);
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 0).hp, 9);
    CU_ASSERT_EQUAL(TB_STR(&x, 1, 0).delay, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 50);
    tb_run_end(&x);
    (void)ca;
}

/* A fortress's on-play Summon is cast before the first turn, as the peer resolves each
 * side's fortresses before the game starts: in surge the defender moves first, and the
 * Huskarl its Hall summons (delay 2) ticks on that first turn, attacks on turn 3 (the
 * defender's second) and hits the bare attacker's commander for 4. */
static void test_fortress_play_before_turn_1(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, hall, huskarl;
    duel(&b, &ca, &cb);
    b.spec.mode = BATTLE_MODE_SURGE;
    hall = tb_card(&b, "Hall", BATTLE_FORTRESS, 0, 20, 0);
    huskarl = tb_card(&b, "Huskarl", BATTLE_ASSAULT, 4, 10, 2);
    tb_skill(&b, hall, BATTLE_SKILL_SUMMON, 0, 0);
    last_skill(&b, hall)->trigger = BATTLE_SIM_TRIG_PLAY;
    last_skill(&b, hall)->card = huskarl;
    tb_fort(&b, 1, hall);
    tb_run_start(&x, &b);
    CU_ASSERT_EQUAL(x.g.pending, 0);
    CU_ASSERT_EQUAL_FATAL(x.g.sides[1].n_assaults, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).card, huskarl);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).delay, 2);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).delay, 1);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 0), 50);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).delay, 0);
    CU_ASSERT_EQUAL(TB_CMD(&x, 0), 46);
    tb_run_end(&x);
    (void)ca;
}

/* A commander card in a deck (two of the game's missions have one) is drawn and not
 * played, as the peer skips it: turn 1 brings nothing and uses the card up, turn 3 plays
 * the Grunt; the raid scoring's count of destroyed units leaves the commander card out. */
static void test_commander_card_in_deck(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, grunt;
    duel(&b, &ca, &cb);
    b.spec.scoring = BATTLE_SCORING_RAID;
    grunt = tb_card(&b, "Grunt", BATTLE_ASSAULT, 1, 5, 0);
    tb_deck(&b, 0, tb_card(&b, "Stray Boss", BATTLE_COMMANDER, 0, 30, 0), 1);
    tb_deck(&b, 0, grunt, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(x.g.sides[0].n_assaults, 0);
    CU_ASSERT_EQUAL(x.g.sides[0].n_structures, 0);
    CU_ASSERT_EQUAL(x.g.sides[0].head, 1);
    CU_ASSERT_EQUAL(battle_sim_lost(x.d, &x.g, 0, 1), 0);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL_FATAL(x.g.sides[0].n_assaults, 1);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).card, grunt);
    CU_ASSERT_EQUAL(battle_sim_lost(x.d, &x.g, 0, 1), 0);
    tb_run_end(&x);
    (void)ca;
}

/* Fortresses are shuffled each game as the peer's Deck::shuffle does (the first Wall is the
 * one an attack meets), a dominion first wherever it is listed (the game plays it before
 * them); exact play keeps the listed order. Three fortresses and a dominion listed second,
 * 6,000 games: each fortress takes the first fortress slot about 2,000 times (5 sigma is
 * about 180). */
static void test_fortresses_shuffled(void)
{
    struct tb b;
    int ca, cb, dom, f[3];
    duel(&b, &ca, &cb);
    dom = tb_card(&b, "Dom", BATTLE_FORTRESS, 0, 20, 0);
    b.cards[dom].dominion = 1;
    for (int k = 0; k < 3; k++) {
        char name[16];
        snprintf(name, sizeof(name), "Fort %d", k);
        f[k] = tb_card(&b, name, BATTLE_FORTRESS, 0, 20 + k, 0);
        tb_fort(&b, 0, f[k]);
        if (k == 0) /* listed second, played first */
            tb_fort(&b, 0, dom);
    }
    for (int play = 0; play < 2; play++) {
        struct battle_plan *plan;
        int first[3] = {0, 0, 0};
        b.spec.sides[0].play = play ? BATTLE_PLAY_EXACT : BATTLE_PLAY_RANDOM;
        plan = tb_plan(&b);
        for (uint64_t game = 0; game < 6000; game++) {
            struct battle_game g;
            tb_sim_start(battle_plan_data(plan), &g, b.spec.seed, game);
            CU_ASSERT_EQUAL_FATAL(g.sides[0].n_structures, 4);
            CU_ASSERT_EQUAL(g.sides[0].structures[0].card, dom);
            for (int k = 0; k < 3; k++)
                first[k] += g.sides[0].structures[1].card == f[k];
        }
        if (play) {
            CU_ASSERT_EQUAL(first[0], 6000);
        } else {
            for (int k = 0; k < 3; k++)
                CU_ASSERT_TRUE(first[k] > 1820 && first[k] < 2180);
        }
        battle_plan_free(plan);
    }
    (void)ca;
    (void)cb;
}

/* Flexible play, attacker: a hand of Dud, Dud, Killer (Killer kills the bare defender on
 * the turn it is played) and a one-turn game. The look-ahead games find Killer in every
 * game, wherever the shuffle put it; random play finds it only when it comes first. */
static void test_flexible_attacker(void)
{
    struct tb b;
    int ca, cb, dud, killer, flex_wins = 0, random_wins = 0;
    duel(&b, &ca, &cb);
    b.spec.turn_limit = 1;
    dud = tb_card(&b, "Dud", BATTLE_ASSAULT, 0, 1, 0);
    killer = tb_card(&b, "Killer", BATTLE_ASSAULT, 50, 1, 0);
    tb_deck(&b, 0, dud, 2);
    tb_deck(&b, 0, killer, 1);
    for (int play = 0; play < 2; play++) {
        struct battle_plan *plan;
        b.spec.sides[0].play = play ? BATTLE_PLAY_FLEX : BATTLE_PLAY_RANDOM;
        plan = tb_plan(&b);
        for (uint64_t game = 0; game < 30; game++) {
            struct battle_game_result r;
            tb_sim_play(battle_plan_data(plan), b.spec.seed, game, &r);
            CU_ASSERT_EQUAL(r.turn, 1);
            if (r.outcome == BATTLE_SIM_WIN)
                *(play ? &flex_wins : &random_wins) += 1;
        }
        battle_plan_free(plan);
    }
    CU_ASSERT_EQUAL(flex_wins, 30);
    CU_ASSERT(random_wins > 0 && random_wins < 30);
    (void)cb;
}

/* Flexible play, defender, surge (the defender plays turn 1): its hand is Tower, Tower,
 * Blocker; on turn 2 the attacker's Hitter (10 damage, delay 0) hits the defender's
 * commander (10 health) unless an assault stands opposite it. The defender's look-ahead
 * games find that only Blocker saves it: it plays Blocker in every game, and the game
 * stalls at the turn limit, 2. Played turn by turn, the Blocker is in its row after
 * turn 1 and its deck's other entries are the two Towers. */
static void test_flexible_defender(void)
{
    struct tb b;
    struct tb_run x;
    struct battle_plan *plan;
    int ca, cb, tower, blocker, hitter, stalls = 0;
    duel(&b, &ca, &cb);
    b.spec.mode = BATTLE_MODE_SURGE;
    b.spec.turn_limit = 2;
    b.cards[cb].health = 10;
    tower = tb_card(&b, "Tower", BATTLE_STRUCTURE, 0, 5, 0);
    blocker = tb_card(&b, "Blocker", BATTLE_ASSAULT, 0, 50, 0);
    hitter = tb_card(&b, "Hitter", BATTLE_ASSAULT, 10, 10, 0);
    tb_deck(&b, 0, hitter, 1);
    tb_deck(&b, 1, tower, 2);
    tb_deck(&b, 1, blocker, 1);
    b.spec.sides[1].play = BATTLE_PLAY_FLEX;
    plan = tb_plan(&b);
    for (uint64_t game = 0; game < 30; game++) {
        struct battle_game_result r;
        tb_sim_play(battle_plan_data(plan), b.spec.seed, game, &r);
        stalls += r.outcome == BATTLE_SIM_STALL && r.turn == 2;
    }
    battle_plan_free(plan);
    CU_ASSERT_EQUAL(stalls, 30);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        b.spec.seed = seed;
        tb_run_start(&x, &b);
        tb_run_turns(&x, 1);
        CU_ASSERT_EQUAL(x.g.sides[1].n_assaults, 1);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).card, blocker);
        CU_ASSERT_EQUAL(x.g.sides[1].n_structures, 0);
        CU_ASSERT_EQUAL(x.d->sides[1].seq_card[x.g.sides[1].seq[1]], tower);
        CU_ASSERT_EQUAL(x.d->sides[1].seq_card[x.g.sides[1].seq[2]], tower);
        CU_ASSERT_EQUAL(tb_run_turns(&x, 1), 1);
        CU_ASSERT_EQUAL(x.r.outcome, BATTLE_SIM_STALL);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 40);
        CU_ASSERT_EQUAL(TB_CMD(&x, 1), 10);
        tb_run_end(&x);
    }
    (void)ca;
}

/* A hand of one card three times has nothing to choose: no look-ahead game is played, so
 * flexible play draws nothing more from the game's stream than random play, and each game
 * ends exactly as it does with random play. */
static void test_flexible_alike_hand(void)
{
    struct tb b;
    struct battle_plan *plans[2];
    int ca, cb, same = 0;
    duel(&b, &ca, &cb);
    tb_deck(&b, 0, tb_card(&b, "Grunt", BATTLE_ASSAULT, 3, 12, 1), 6);
    tb_deck(&b, 1, tb_card(&b, "Striker", BATTLE_ASSAULT, 2, 14, 1), 6);
    tb_skill(&b, b.spec.sides[1].deck[0], BATTLE_SKILL_STRIKE, 2, 0);
    b.spec.sides[0].play = BATTLE_PLAY_RANDOM;
    b.spec.sides[1].play = BATTLE_PLAY_RANDOM;
    plans[0] = tb_plan(&b);
    b.spec.sides[0].play = BATTLE_PLAY_FLEX;
    b.spec.sides[1].play = BATTLE_PLAY_FLEX;
    plans[1] = tb_plan(&b);
    for (uint64_t game = 0; game < 50; game++) {
        struct battle_game_result r0, r1;
        tb_sim_play(battle_plan_data(plans[0]), b.spec.seed, game, &r0);
        tb_sim_play(battle_plan_data(plans[1]), b.spec.seed, game, &r1);
        same += r0.outcome == r1.outcome && r0.turn == r1.turn;
    }
    CU_ASSERT_EQUAL(same, 50);
    battle_plan_free(plans[0]);
    battle_plan_free(plans[1]);
    (void)ca;
    (void)cb;
}

/* The work bound (BATTLE_SIM_WORK_LIMIT, lowered here): the Echo's turn 1 is 59 trigger
 * resolutions in one pass (a row holds 60 units), 60 units of work. At a bound of 60 the
 * game ends there, a stall flagged bounded; at 61 nothing else counts and it plays to its
 * turn limit. */
static void test_work_bound_triggers(void)
{
    struct tb b;
    struct tb_run x;
    echo_duel(&b);
    tb_run_start(&x, &b);
    CU_ASSERT_EQUAL(x.d->work_limit, BATTLE_SIM_WORK_LIMIT);
    battle_plan_set_work_limit(x.plan, 60);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(x.g.work, 60);
    CU_ASSERT_EQUAL(x.over, 1);
    CU_ASSERT_EQUAL(x.r.outcome, BATTLE_SIM_STALL);
    CU_ASSERT_EQUAL(x.r.turn, 1);
    CU_ASSERT_EQUAL(x.r.bounded, 1);
    tb_run_end(&x);

    tb_run_start(&x, &b);
    battle_plan_set_work_limit(x.plan, 61);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(x.g.work, 60);
    CU_ASSERT_EQUAL(x.over, 0);
    tb_run_turns(&x, BATTLE_TURN_LIMIT_DEF);
    CU_ASSERT_EQUAL(x.over, 1);
    CU_ASSERT_EQUAL(x.g.work, 60);
    CU_ASSERT_EQUAL(x.r.outcome, BATTLE_SIM_STALL);
    CU_ASSERT_EQUAL(x.r.turn, BATTLE_TURN_LIMIT_DEF);
    CU_ASSERT_EQUAL(x.r.bounded, 0);
    tb_run_end(&x);
}

/* Flurry 3, c 1: 3 units of work on each of the attacker's turns. At a bound of 7 the
 * grant of turn 5 reaches it: no extra action then (one hit, not four), and the game is a
 * bounded stall at the end of turn 5, although the hit of turn 5 left the commander at 41
 * and its attacker could have gone on. */
static void test_work_bound_flurry(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, f;
    duel(&b, &ca, &cb);
    f = tb_card(&b, "Flurrier", BATTLE_ASSAULT, 1, 10, 0);
    tb_skill(&b, f, BATTLE_SKILL_FLURRY, 3, 0);
    last_skill(&b, f)->c = 1;
    tb_deck(&b, 0, f, 1);
    tb_run_start(&x, &b);
    battle_plan_set_work_limit(x.plan, 7);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 46);
    CU_ASSERT_EQUAL(x.g.work, 3);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 42);
    CU_ASSERT_EQUAL(x.g.work, 6);
    CU_ASSERT_EQUAL(x.over, 0);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 41);
    CU_ASSERT_EQUAL(x.g.work, 9);
    CU_ASSERT_EQUAL(x.over, 1);
    CU_ASSERT_EQUAL(x.r.outcome, BATTLE_SIM_STALL);
    CU_ASSERT_EQUAL(x.r.turn, 5);
    CU_ASSERT_EQUAL(x.r.bounded, 1);
    tb_run_end(&x);
    (void)ca;
}

/* A unit summoned and killed before its on-play skills were cast (the game hung on this
 * until the work bound came): on turn 5 the Avenger kills Bomber One, whose Strike kills
 * the Martyr and the Avenger; the Martyr's death summons the Ghost (a structure: its row
 * was already walked) and the Avenger's Strike kills Bomber Two, whose Siege kills the
 * Ghost before its on-play Strike. The Ghost's death resolves (its on-death Strike finds
 * nobody), nothing stays pending, every unit is gone at the end of the turn, and the game
 * plays to its turn limit: 5 resolutions and 3 passes of work, no bound. */
static void test_summoned_and_killed(void)
{
    struct tb b;
    struct tb_run x;
    int ca, cb, martyr, avenger, ghost, bomb1, bomb2;
    duel(&b, &ca, &cb);
    ghost = tb_card(&b, "Ghost", BATTLE_STRUCTURE, 0, 5, 0);
    tb_skill(&b, ghost, BATTLE_SKILL_STRIKE, 1, 0);
    last_skill(&b, ghost)->trigger = BATTLE_SIM_TRIG_PLAY;
    tb_skill(&b, ghost, BATTLE_SKILL_STRIKE, 1, 0);
    last_skill(&b, ghost)->trigger = BATTLE_SIM_TRIG_DEATH;
    martyr = tb_card(&b, "Martyr", BATTLE_ASSAULT, 0, 5, 0);
    tb_skill(&b, martyr, BATTLE_SKILL_SUMMON, 0, 0);
    last_skill(&b, martyr)->trigger = BATTLE_SIM_TRIG_DEATH;
    last_skill(&b, martyr)->card = ghost;
    avenger = tb_card(&b, "Avenger", BATTLE_ASSAULT, 1, 5, 0);
    tb_skill(&b, avenger, BATTLE_SKILL_STRIKE, 50, 1);
    last_skill(&b, avenger)->trigger = BATTLE_SIM_TRIG_DEATH;
    bomb2 = tb_card(&b, "Bomber Two", BATTLE_ASSAULT, 0, 20, 0);
    tb_skill(&b, bomb2, BATTLE_SKILL_SIEGE, 50, 1);
    last_skill(&b, bomb2)->trigger = BATTLE_SIM_TRIG_DEATH;
    bomb1 = tb_card(&b, "Bomber One", BATTLE_ASSAULT, 0, 1, 0);
    tb_skill(&b, bomb1, BATTLE_SKILL_STRIKE, 50, 1);
    last_skill(&b, bomb1)->trigger = BATTLE_SIM_TRIG_DEATH;
    tb_deck(&b, 0, martyr, 1);
    tb_deck(&b, 0, avenger, 1);
    tb_deck(&b, 1, bomb2, 1);
    tb_deck(&b, 1, bomb1, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 4);
    CU_ASSERT_EQUAL(x.g.work, 0);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 49);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(x.over, 0);
    CU_ASSERT_EQUAL(x.g.pending, 0);
    CU_ASSERT_EQUAL(x.g.work, 8);
    CU_ASSERT_EQUAL(x.g.sides[0].n_structures, 0);
    CU_ASSERT_EQUAL(x.g.sides[0].n_assaults, 0);
    CU_ASSERT_EQUAL(x.g.sides[1].n_assaults, 0);
    tb_run_turns(&x, BATTLE_TURN_LIMIT_DEF);
    CU_ASSERT_EQUAL(x.over, 1);
    CU_ASSERT_EQUAL(x.r.outcome, BATTLE_SIM_STALL);
    CU_ASSERT_EQUAL(x.r.turn, BATTLE_TURN_LIMIT_DEF);
    CU_ASSERT_EQUAL(x.r.bounded, 0);
    CU_ASSERT_EQUAL(TB_CMD(&x, 0), 50);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 49);
    tb_run_end(&x);
    (void)ca;
    (void)cb;
}

static CU_TestInfo rules_tests[] = {
    {"faction filter and target count", test_faction_filter_and_targets},
    {"cooldown", test_cooldown},
    {"flurry cooldown", test_flurry_cooldown},
    {"on play", test_on_play},
    {"on attacked, even at 0 damage", test_on_attacked},
    {"on death summon", test_on_death_summon},
    {"activation summon by a structure", test_activation_summon},
    {"fortress cards are structures: summoned, and summoning", test_fortress_cards_are_structures},
    {"a card summoning itself is bounded", test_self_summon_is_bounded},
    {"work bound: trigger resolutions", test_work_bound_triggers},
    {"a unit summoned and killed before its on-play skills", test_summoned_and_killed},
    {"work bound: Flurry's extra actions", test_work_bound_flurry},
    {"leech raises max health, assaults only", test_leech_max_health},
    {"poison on a blocked hit", test_poison_on_blocked_hit},
    {"rally skips finished units", test_rally_skips_finished_units},
    {"fortress delay", test_fortress_delay},
    {"fortresses' on-play skills before turn 1", test_fortress_play_before_turn_1},
    {"fortresses shuffled each game", test_fortresses_shuffled},
    {"a commander card in a deck is not played", test_commander_card_in_deck},
    {"flexible play, attacker", test_flexible_attacker},
    {"flexible play, defender", test_flexible_defender},
    {"flexible play, a hand of one card", test_flexible_alike_hand},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_rules_suites[] = {
    {"battle_rules", NULL, NULL, NULL, NULL, rules_tests},
    CU_SUITE_INFO_NULL,
};
