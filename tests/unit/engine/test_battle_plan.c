/* SPDX-License-Identifier: MIT */
/* Host-side preparation (battle_plan.c) and card play (battle_sim.h): the seed's worked
 * example as a golden test, the priority map of `ordered` play, the shuffle and hand
 * windows, and the plan's refusal of inconsistent specs. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "battle_cpu.h"
#include "battle_mods.h"
#include "battle_testlib.h"

#include "sk_banned.h"

/* The seed example's cards (stats are ours; attack 0 so the game cannot end). */
enum {
    BARRACUS,
    LIGHTNING,
    SPORE,
    CHAINSLICER,
    TEMPEST,
    ANVIL,
    CYBERPOD,
    MAIDEN,
    DOZER,
    SILO,
    NOVA
};

static void seed_example(struct tb *b)
{
    static const int list[11] = {TEMPEST,  DOZER, CHAINSLICER, ANVIL,  MAIDEN, CHAINSLICER,
                                 CYBERPOD, SILO,  CHAINSLICER, MAIDEN, NOVA};
    static const int hand[3] = {CYBERPOD, MAIDEN, DOZER};                      /* ids 6, 7, 8 */
    static const int deck[5] = {CHAINSLICER, SILO, NOVA, MAIDEN, CHAINSLICER}; /* ids 9-13 */
    struct battle_side_state *st = &b->spec.state.sides[0];
    int boss;
    tb_init(b);
    tb_card(b, "Barracus", BATTLE_COMMANDER, 0, 60, 0);
    tb_card(b, "Lightning Cannon", BATTLE_FORTRESS, 0, 20, 0);
    tb_card(b, "Corrosive Spore", BATTLE_FORTRESS, 0, 20, 0);
    tb_card(b, "Chainslicer", BATTLE_ASSAULT, 0, 10, 1);
    tb_card(b, "Tempest Keep", BATTLE_STRUCTURE, 0, 20, 2);
    tb_card(b, "Anvil", BATTLE_ASSAULT, 0, 12, 1);
    tb_card(b, "Cyberpod", BATTLE_ASSAULT, 0, 8, 1);
    tb_card(b, "Iron Maiden", BATTLE_ASSAULT, 0, 14, 2);
    tb_card(b, "Lead Dozer", BATTLE_ASSAULT, 0, 16, 2);
    tb_card(b, "Missile Silo", BATTLE_STRUCTURE, 0, 18, 3);
    tb_card(b, "Judgement Nova", BATTLE_ASSAULT, 0, 20, 3);
    boss = tb_card(b, "Opponent", BATTLE_COMMANDER, 0, 60, 0);
    tb_side(b, 0, BARRACUS, BATTLE_PLAY_ORDERED);
    tb_side(b, 1, boss, BATTLE_PLAY_RANDOM);
    tb_fort(b, 0, LIGHTNING);
    tb_fort(b, 0, SPORE);
    for (int i = 0; i < 11; i++)
        tb_deck(b, 0, list[i], 1);
    b->spec.has_state = 1;
    b->spec.state.turn = 7;
    b->spec.state.sides[1].commander_health = 60;
    st->commander_health = 60;
    st->n_structures = 3;
    st->structures[0] = (struct battle_unit_spec){LIGHTNING, 0, 0, 0};
    st->structures[1] = (struct battle_unit_spec){SPORE, 20, 0, 1};
    st->structures[2] = (struct battle_unit_spec){TEMPEST, 20, 0, 1};
    st->n_assaults = 2;
    st->assaults[0] = (struct battle_unit_spec){CHAINSLICER, 10, 0, 1};
    st->assaults[1] = (struct battle_unit_spec){ANVIL, 0, 0, 0};
    st->n_hand = 3;
    memcpy(st->hand, hand, sizeof(hand));
    st->n_deck = 5;
    memcpy(st->deck, deck, sizeof(deck));
}

/* Entry e of side 0 is the seed's card id 6 + e. The seed's shuffle 13, 12, 9, 11, 10. */
static void inject_seed_shuffle(struct battle_game *g)
{
    static const clc_u8 shuffled[5] = {13 - 6, 12 - 6, 9 - 6, 11 - 6, 10 - 6};
    memcpy(&g->sides[0].seq[3], shuffled, sizeof(shuffled));
}

static const int seed_order[8] = {8, 7, 13, 6, 9, 10, 12, 11};

static void test_seed_priority_map(void)
{
    /* The priorities the seed's host passes (its numbering: list position + 1): ids 6-13
     * get 7, 5, 2, 6, 8, 11, 5, 6; the duplicates 9 -> 6 and 10 -> 5 are the map. */
    static const unsigned want[8] = {7, 5, 2, 6, 8, 11, 5, 6};
    struct tb b;
    struct battle_plan *plan;
    struct battle_game g;
    const struct battle_plan_data *d;
    seed_example(&b);
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    tb_sim_setup(d, &g, 1, 0);
    for (unsigned e = 0; e < 8; e++)
        CU_ASSERT_EQUAL(battle_sim_priority(&d->sides[0], &g.sides[0], e) + 1, want[e]);
    /* Only the deck behind the hand is shuffled; `ordered` chooses within three. */
    CU_ASSERT_EQUAL(d->sides[0].shuf_lo, 3);
    CU_ASSERT_EQUAL(d->sides[0].shuf_hi, 8);
    CU_ASSERT_EQUAL(d->sides[0].window, 3);
    battle_plan_free(plan);
}

static void test_seed_play_order(void)
{
    struct tb b;
    struct battle_plan *plan;
    struct battle_game g;
    const struct battle_plan_data *d;
    seed_example(&b);
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    tb_sim_setup(d, &g, 1, 0);
    inject_seed_shuffle(&g);
    for (int k = 0; k < 8; k++)
        CU_ASSERT_EQUAL(battle_sim_select(d, &g, 0) + 6, (unsigned)seed_order[k]);
    CU_ASSERT_EQUAL(battle_sim_select(d, &g, 0), BATTLE_SIM_NONE);
    battle_plan_free(plan);
}

/* The same order played through real turns from turn 7: one card per own turn, so turn
 * ids 7, 9, ..., 21 (the seed's table says 19, 21, 23 for the last three; see
 * docs/rules/battle.md). The dead fortress and Anvil leave at the end of turn 7. */
static void test_seed_turn_ids(void)
{
    struct tb b;
    struct tb_run x;
    int k = 0;
    seed_example(&b);
    tb_run_start(&x, &b);
    tb_sim_setup(x.d, &x.g, 1, 0);
    inject_seed_shuffle(&x.g);
    while (x.g.turn <= 22 && !x.over) {
        int turn = x.g.turn;
        tb_run_turns(&x, 1);
        if (battle_sim_active(x.d->mode, (clc_u32)turn) != 0)
            continue;
        CU_ASSERT_FATAL(k < 8);
        CU_ASSERT_EQUAL(x.g.sides[0].last_played + 6, seed_order[k]);
        CU_ASSERT_EQUAL(turn, 7 + 2 * k);
        if (turn == 7) {
            CU_ASSERT_EQUAL(x.g.sides[0].n_structures, 2);
            CU_ASSERT_EQUAL(TB_STR(&x, 0, 0).card, SPORE);
            CU_ASSERT_EQUAL(TB_STR(&x, 0, 1).card, TEMPEST);
            CU_ASSERT_EQUAL(x.g.sides[0].n_assaults, 2);
            CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).card, CHAINSLICER);
            CU_ASSERT_EQUAL(TB_ASL(&x, 0, 1).card, DOZER);
        }
        k++;
    }
    CU_ASSERT_EQUAL(k, 8);
    CU_ASSERT_FALSE(x.over);
    tb_run_end(&x);
}

/* A fresh ordered game: list A B A C (positions 0-3), shuffled to A C A B. The hand
 * {A, C, A} plays an A (position 0); the other A now holds position 2, so the hand
 * {C, A, B} plays B (1), then A (2), then C (3). */
static void test_ordered_fresh(void)
{
    struct tb b;
    struct battle_plan *plan;
    struct battle_game g;
    const struct battle_plan_data *d;
    int a, bb, c, boss;
    tb_init(&b);
    boss = tb_card(&b, "Boss", BATTLE_COMMANDER, 0, 10, 0);
    a = tb_card(&b, "A", BATTLE_ASSAULT, 0, 10, 1);
    bb = tb_card(&b, "B", BATTLE_ASSAULT, 0, 10, 1);
    c = tb_card(&b, "C", BATTLE_STRUCTURE, 0, 10, 1);
    tb_side(&b, 0, boss, BATTLE_PLAY_ORDERED);
    tb_side(&b, 1, boss, BATTLE_PLAY_RANDOM);
    tb_deck(&b, 0, a, 1);
    tb_deck(&b, 0, bb, 1);
    tb_deck(&b, 0, a, 1);
    tb_deck(&b, 0, c, 1);
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    tb_sim_setup(d, &g, 1, 0);
    g.sides[0].seq[0] = 0; /* A */
    g.sides[0].seq[1] = 3; /* C */
    g.sides[0].seq[2] = 2; /* A */
    g.sides[0].seq[3] = 1; /* B */
    CU_ASSERT_EQUAL(d->sides[0].seq_card[battle_sim_select(d, &g, 0)], a);
    CU_ASSERT_EQUAL(d->sides[0].seq_card[battle_sim_select(d, &g, 0)], bb);
    CU_ASSERT_EQUAL(d->sides[0].seq_card[battle_sim_select(d, &g, 0)], a);
    CU_ASSERT_EQUAL(d->sides[0].seq_card[battle_sim_select(d, &g, 0)], c);
    battle_plan_free(plan);
}

/* exact: no shuffle, list order; random: the front of a Fisher-Yates shuffle that is a
 * uniform permutation (each card first about 1/4 of the time over 4000 games). */
static void test_exact_and_random_fresh(void)
{
    struct tb b;
    struct battle_plan *plan;
    struct battle_game g;
    const struct battle_plan_data *d;
    unsigned first[4] = {0, 0, 0, 0};
    int boss;
    tb_init(&b);
    boss = tb_card(&b, "Boss", BATTLE_COMMANDER, 0, 10, 0);
    tb_side(&b, 0, boss, BATTLE_PLAY_EXACT);
    tb_side(&b, 1, boss, BATTLE_PLAY_RANDOM);
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof(name), "C%d", i);
        tb_deck(&b, 0, tb_card(&b, name, BATTLE_ASSAULT, 0, 10, 1), 1);
        tb_deck(&b, 1, b.spec.n_cards - 1, 1);
    }
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    CU_ASSERT_EQUAL(d->sides[0].shuf_hi, 0);
    CU_ASSERT_EQUAL(d->sides[1].shuf_hi, 4);
    CU_ASSERT_EQUAL(d->sides[1].window, 1);
    for (unsigned game = 0; game < 4000; game++) {
        tb_sim_init(d, &g, 99, game);
        for (unsigned k = 0; k < 4; k++)
            CU_ASSERT_EQUAL_FATAL(battle_sim_select(d, &g, 0), k);
        first[battle_sim_select(d, &g, 1)]++;
    }
    for (int i = 0; i < 4; i++) /* 1000 expected; 5 sigma is about 137 */
        CU_ASSERT_TRUE(first[i] > 863 && first[i] < 1137);
    battle_plan_free(plan);
}

/* random from a mid-game state: the known hand comes first; the card played is drawn
 * uniformly from the hand of three, never from the deck behind it. */
static void test_random_midgame_hand(void)
{
    struct tb b;
    struct battle_plan *plan;
    struct battle_game g;
    const struct battle_plan_data *d;
    struct battle_side_state *st;
    unsigned first[4] = {0, 0, 0, 0};
    int boss;
    tb_init(&b);
    boss = tb_card(&b, "Boss", BATTLE_COMMANDER, 0, 10, 0);
    tb_side(&b, 0, boss, BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, boss, BATTLE_PLAY_RANDOM);
    b.spec.has_state = 1;
    b.spec.state.turn = 3;
    b.spec.state.sides[1].commander_health = 10;
    st = &b.spec.state.sides[0];
    st->commander_health = 10;
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof(name), "C%d", i);
        tb_deck(&b, 0, tb_card(&b, name, BATTLE_ASSAULT, 0, 10, 1), 1);
    }
    st->n_hand = 3;
    st->hand[0] = 1;
    st->hand[1] = 2;
    st->hand[2] = 3;
    st->n_deck = 1;
    st->deck[0] = 4;
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    CU_ASSERT_EQUAL(d->first_turn, 3);
    CU_ASSERT_EQUAL(d->sides[0].window, 3);
    for (unsigned game = 0; game < 3000; game++) {
        tb_sim_init(d, &g, 5, game);
        first[battle_sim_select(d, &g, 0)]++;
    }
    CU_ASSERT_EQUAL(first[3], 0);
    for (int i = 0; i < 3; i++) /* 1000 expected; 5 sigma is about 130 */
        CU_ASSERT_TRUE(first[i] > 870 && first[i] < 1130);
    battle_plan_free(plan);
}

static void expect_einval(struct tb *b, const char *why)
{
    struct battle_plan *plan = NULL;
    char err[200] = "";
    CU_ASSERT_EQUAL(battle_plan_new(&b->spec, &plan, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_PTR_NULL(plan);
    CU_ASSERT_TRUE(strstr(err, why) != NULL);
}

static void test_plan_rejects_inconsistent_specs(void)
{
    struct tb b;
    struct tb_ref r;
    tb_ref_matchup(&b, 1);
    b.spec.sides[0].commander = 1; /* a Grunt is no commander */
    expect_einval(&b, "side 0: commander");
    tb_ref_matchup(&b, 0);
    /* a fortress is no deck card (a commander card is one a mission may hold: drawn, not
     * played) */
    b.spec.sides[1].deck[0] = tb_card(&b, "Keep", BATTLE_FORTRESS, 0, 10, 0);
    expect_einval(&b, "side 1: deck card 0");
    tb_ref_matchup(&b, 0);
    b.spec.turn_limit = BATTLE_TURN_LIMIT_MAX + 1;
    expect_einval(&b, "turn limit");
    tb_ref_matchup(&b, 0);
    b.spec.has_state = 1;
    b.spec.state.turn = 3;
    b.spec.state.sides[0].commander_health = 40;
    b.spec.state.sides[1].commander_health = 41; /* above the card's 40 */
    expect_einval(&b, "side 1: state commander health");
    b.spec.state.sides[1].commander_health = 40;
    b.spec.state.sides[0].n_assaults = 1;
    b.spec.state.sides[0].assaults[0] = (struct battle_unit_spec){1, 11, 0, 1};
    expect_einval(&b, "has health 11");
    b.spec.state.sides[0].assaults[0] = (struct battle_unit_spec){1, 10, 2, 1};
    expect_einval(&b, "has delay 2");
    /* 30 structures in play plus 3 more in the hand exceed a row of 32. */
    tb_init(&b);
    tb_ref_cards(&b, &r);
    tb_side(&b, 0, r.commander, BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, r.commander, BATTLE_PLAY_RANDOM);
    b.spec.has_state = 1;
    b.spec.state.turn = 1;
    b.spec.state.sides[0].commander_health = 40;
    b.spec.state.sides[1].commander_health = 40;
    b.spec.state.sides[0].n_structures = BATTLE_ROW_MAX - 2;
    for (int i = 0; i < BATTLE_ROW_MAX - 2; i++)
        b.spec.state.sides[0].structures[i] = (struct battle_unit_spec){r.tower, 15, 0, 1};
    b.spec.state.sides[0].n_hand = 3;
    for (int i = 0; i < 3; i++)
        b.spec.state.sides[0].hand[i] = r.barricade;
    expect_einval(&b, "more than 60 units");
}

static void test_plan_accessors(void)
{
    struct tb b;
    struct battle_plan *plan;
    tb_ref_matchup(&b, 0);
    b.spec.seed = 0x1234567890abcdefULL;
    b.spec.games = 777;
    plan = tb_plan(&b);
    CU_ASSERT_EQUAL(battle_plan_seed(plan), 0x1234567890abcdefULL);
    CU_ASSERT_EQUAL(battle_plan_games(plan), 777);
    CU_ASSERT_EQUAL(battle_plan_data_size(), sizeof(struct battle_plan_data));
    CU_ASSERT_EQUAL(battle_plan_data(plan)->sides[1].n_seq, 10);
    CU_ASSERT_EQUAL(battle_plan_data(plan)->sides[0].commander_hp, 40);
    CU_ASSERT_EQUAL(battle_plan_data(plan)->turn_limit, 50);
    battle_plan_free(plan);
    battle_plan_free(NULL);
}

/* Enhance and Evolve as card variants (battle_mods): three Smithies (Enhance all Armor 1)
 * stack at most three times on the Plated's Armor 2 (3, 4, 5, then no more), and the
 * commander's Evolve of Armor into Evade takes each of the four (Evade 2 .. 5); an evolved
 * card has no Armor left for either change: 7 variants. */
static void test_mod_variants(void)
{
    struct tb b;
    struct battle_plan *plan;
    const struct battle_plan_data *d;
    int cmd, smithy, plated, n_job, c, k;

    tb_init(&b);
    cmd = tb_card(&b, "Shaper", BATTLE_COMMANDER, 0, 40, 0);
    tb_skill(&b, cmd, BATTLE_SKILL_EVOLVE, 0, 0);
    tb_args(&b, cmd, BATTLE_SKILL_ARMOR, BATTLE_SKILL_EVADE);
    smithy = tb_card(&b, "Smithy", BATTLE_STRUCTURE, 0, 10, 1);
    tb_skill(&b, smithy, BATTLE_SKILL_ENHANCE, 1, 1);
    tb_args(&b, smithy, BATTLE_SKILL_ARMOR, -1);
    plated = tb_card(&b, "Plated", BATTLE_ASSAULT, 1, 10, 1);
    tb_skill(&b, plated, BATTLE_SKILL_ARMOR, 2, 0);
    tb_side(&b, 0, cmd, BATTLE_PLAY_RANDOM);
    tb_deck(&b, 0, smithy, 3);
    tb_deck(&b, 0, plated, 1);
    tb_side(&b, 1, tb_card(&b, "Plain", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    tb_deck(&b, 1, plated, 1);
    n_job = b.spec.n_cards;
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    CU_ASSERT_EQUAL(d->n_mods, 2);
    CU_ASSERT_TRUE(d->rare & BATTLE_SIM_RARE_MOD);
    CU_ASSERT_EQUAL(d->mod_flags[0], BATTLE_SIM_MOD_ALWAYS); /* Evolve into Evade: defensive */
    CU_ASSERT_EQUAL(d->mod_flags[1], BATTLE_SIM_MOD_ALWAYS); /* Enhance of Armor */
    CU_ASSERT_EQUAL(d->n_cards, n_job + 7);
    c = plated;
    for (k = 3; k <= 5; k++) { /* Enhance: Armor 3, 4, 5 */
        int e = d->mod_to[c][0];
        c = d->mod_to[c][1];
        CU_ASSERT_EQUAL_FATAL(c >= n_job && c < d->n_cards, 1);
        CU_ASSERT_EQUAL(d->cards[c].armor, k);
        CU_ASSERT_EQUAL(d->card_base[c], plated);
        CU_ASSERT_EQUAL(d->cards[e].evade, k - 1);
        CU_ASSERT_EQUAL(d->cards[e].armor, 0);
        CU_ASSERT_EQUAL(d->mod_to[e][0], BATTLE_SIM_CARD_NONE);
        CU_ASSERT_EQUAL(d->mod_to[e][1], BATTLE_SIM_CARD_NONE);
    }
    CU_ASSERT_EQUAL(d->mod_to[c][1], c); /* a fourth Enhance: no more */
    CU_ASSERT_EQUAL(d->cards[d->mod_to[c][0]].evade, 5);
    CU_ASSERT_EQUAL(d->mod_to[smithy][1], BATTLE_SIM_CARD_NONE); /* only assaults change */
    CU_ASSERT_EQUAL(d->card_base[plated], plated);
    /* Only the card that casts Enhance is looked at for it at its turn start. */
    CU_ASSERT_TRUE(d->cards[smithy].trig & BATTLE_SIM_CARD_ENHANCES);
    CU_ASSERT_FALSE(d->cards[cmd].trig & BATTLE_SIM_CARD_ENHANCES);
    for (c = 0; c < d->n_cards; c++)
        if (c != smithy)
            CU_ASSERT_FALSE(d->cards[c].trig & BATTLE_SIM_CARD_ENHANCES);
    battle_plan_free(plan);
}

/* The turn start reads a card's turn-start skills only where the plan marks it
 * (BATTLE_SIM_CARD_TICKS): a card with Barrier, Valor or an activation Summon has the mark,
 * one without them not, and a variant has it by its own skills: the commander's Evolve of
 * Armor into Valor gives the Plated's variant the mark its base lacks. */
static void test_mark_ticks(void)
{
    struct tb b;
    struct battle_plan *plan;
    const struct battle_plan_data *d;
    int cmd, plated, wall, hero, gate, plain, v;

    tb_init(&b);
    cmd = tb_card(&b, "Shaper", BATTLE_COMMANDER, 0, 40, 0);
    tb_skill(&b, cmd, BATTLE_SKILL_EVOLVE, 0, 0);
    tb_args(&b, cmd, BATTLE_SKILL_ARMOR, BATTLE_SKILL_VALOR);
    plated = tb_card(&b, "Plated", BATTLE_ASSAULT, 1, 10, 1);
    tb_skill(&b, plated, BATTLE_SKILL_ARMOR, 2, 0);
    wall = tb_card(&b, "Bastion", BATTLE_STRUCTURE, 0, 10, 1);
    tb_skill(&b, wall, BATTLE_SKILL_BARRIER, 2, 0);
    hero = tb_card(&b, "Hero", BATTLE_ASSAULT, 2, 10, 1);
    tb_skill(&b, hero, BATTLE_SKILL_VALOR, 1, 0);
    gate = tb_card(&b, "Gate", BATTLE_STRUCTURE, 0, 10, 2);
    tb_skill(&b, gate, BATTLE_SKILL_SUMMON, 0, 0);
    b.cards[gate].skills[0].card = hero;
    plain = tb_card(&b, "Grunt", BATTLE_ASSAULT, 2, 10, 1);
    tb_skill(&b, plain, BATTLE_SKILL_STRIKE, 1, 0);
    tb_side(&b, 0, cmd, BATTLE_PLAY_RANDOM);
    tb_deck(&b, 0, plated, 1);
    tb_deck(&b, 0, wall, 1);
    tb_deck(&b, 0, gate, 1);
    tb_deck(&b, 0, plain, 1);
    tb_side(&b, 1, tb_card(&b, "Plain", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    tb_deck(&b, 1, plain, 1);
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    CU_ASSERT_TRUE(d->cards[wall].trig & BATTLE_SIM_CARD_TICKS);
    CU_ASSERT_TRUE(d->cards[hero].trig & BATTLE_SIM_CARD_TICKS);
    CU_ASSERT_TRUE(d->cards[gate].trig & BATTLE_SIM_CARD_TICKS);
    CU_ASSERT_FALSE(d->cards[plated].trig & BATTLE_SIM_CARD_TICKS);
    CU_ASSERT_FALSE(d->cards[plain].trig & BATTLE_SIM_CARD_TICKS);
    CU_ASSERT_FALSE(d->cards[cmd].trig & BATTLE_SIM_CARD_TICKS);
    v = d->mod_to[plated][0];
    CU_ASSERT_FATAL(v != plated && v < d->n_cards);
    CU_ASSERT_EQUAL(d->cards[v].valor, 2);
    CU_ASSERT_TRUE(d->cards[v].trig & BATTLE_SIM_CARD_TICKS);
    battle_plan_free(plan);
}

/* Enhance and Evolve aim at the caster's own side (battle_mods.h): side 0's Enhance Armor
 * makes variants of side 0's Plated, none of side 1's Bulwark (Armor too, but never side
 * 0's); an Evolve of side 0 reaches side 1 only when side 1 holds a Mimic. */
static void test_mod_sides(void)
{
    struct tb b;
    struct battle_plan *plan;
    const struct battle_plan_data *d;
    int smith, plated, bulwark, mimic, n_job;

    tb_init(&b);
    tb_side(&b, 0, tb_card(&b, "C0", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, tb_card(&b, "C1", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    smith = tb_card(&b, "Smith", BATTLE_ASSAULT, 1, 10, 1);
    tb_skill(&b, smith, BATTLE_SKILL_ENHANCE, 1, 1);
    tb_args(&b, smith, BATTLE_SKILL_ARMOR, -1);
    plated = tb_card(&b, "Plated", BATTLE_ASSAULT, 1, 10, 1);
    tb_skill(&b, plated, BATTLE_SKILL_ARMOR, 2, 0);
    bulwark = tb_card(&b, "Bulwark", BATTLE_ASSAULT, 1, 10, 1);
    tb_skill(&b, bulwark, BATTLE_SKILL_ARMOR, 2, 0);
    tb_deck(&b, 0, smith, 1);
    tb_deck(&b, 0, plated, 1);
    tb_deck(&b, 1, bulwark, 1);
    n_job = b.spec.n_cards;
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    CU_ASSERT_EQUAL_FATAL(d->n_mods, 1);
    CU_ASSERT_TRUE(d->mod_to[plated][0] >= n_job && d->mod_to[plated][0] < d->n_cards);
    CU_ASSERT_EQUAL(d->cards[d->mod_to[plated][0]].armor, 3);
    CU_ASSERT_EQUAL(d->mod_to[bulwark][0],
                    BATTLE_SIM_CARD_NONE);  /* side 0's change never reaches */
    CU_ASSERT_EQUAL(d->n_cards, n_job + 1); /* Plated's Armor 3 only */
    battle_plan_free(plan);

    /* Side 0's Evolve of Armor into Evade: side 1's Bulwark takes it once side 1 has a
     * Mimic, which casts an enemy's Evolve on its own side. */
    b.cards[smith].skills[0].id = BATTLE_SKILL_EVOLVE;
    tb_args(&b, smith, BATTLE_SKILL_ARMOR, BATTLE_SKILL_EVADE);
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    CU_ASSERT_EQUAL(d->mod_to[bulwark][0], BATTLE_SIM_CARD_NONE);
    CU_ASSERT_TRUE(d->mod_to[plated][0] >= n_job && d->mod_to[plated][0] < d->n_cards);
    battle_plan_free(plan);
    mimic = tb_card(&b, "Mimic", BATTLE_ASSAULT, 1, 10, 1);
    tb_skill(&b, mimic, BATTLE_SKILL_MIMIC, 2, 0);
    tb_deck(&b, 1, mimic, 1);
    n_job = b.spec.n_cards;
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    CU_ASSERT_EQUAL_FATAL(d->n_mods, 1);
    CU_ASSERT_TRUE(d->mod_to[bulwark][0] >= n_job && d->mod_to[bulwark][0] < d->n_cards);
    CU_ASSERT_EQUAL(d->card_base[d->mod_to[bulwark][0]], bulwark);
    CU_ASSERT_EQUAL(d->cards[d->mod_to[bulwark][0]].evade, 2);
    CU_ASSERT_EQUAL(d->cards[d->mod_to[bulwark][0]].armor, 0);
    CU_ASSERT_TRUE(d->mod_to[plated][0] >= n_job && d->mod_to[plated][0] < d->n_cards);
    battle_plan_free(plan);
}

/* A chain of levels is one card at a time (battle_mods' cover check): Anvil-1 (Enhance all
 * Armor 1) and its next level Anvil-2 (Enhance all Armor 2) are one unit at one level, and
 * Forge (Enhance all Armor 2) one more unit. Plated (Armor 2) can take +1 (Anvil-1), +2
 * (Anvil-2 or Forge), +1 and +2 (Anvil-1 and Forge) or +2 twice (Anvil-2 and Forge), not
 * +1 and +2 twice, which would need Anvil at both levels: Armor 3, 4, 5 and 6, four
 * variants where the bounds of K_m alone (+1 once, +2 twice) made five. */
static void test_mod_chain(void)
{
    struct tb b;
    struct battle_plan *plan;
    const struct battle_plan_data *d;
    int a1, a2, forge, plated, n_job, v1, v2, v12, v22;

    tb_init(&b);
    tb_side(&b, 0, tb_card(&b, "C0", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, tb_card(&b, "C1", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    a1 = tb_card(&b, "Anvil-1", BATTLE_STRUCTURE, 0, 10, 1);
    tb_skill(&b, a1, BATTLE_SKILL_ENHANCE, 1, 1);
    tb_args(&b, a1, BATTLE_SKILL_ARMOR, -1);
    a2 = tb_card(&b, "Anvil-2", BATTLE_STRUCTURE, 0, 10, 1);
    tb_skill(&b, a2, BATTLE_SKILL_ENHANCE, 2, 1);
    tb_args(&b, a2, BATTLE_SKILL_ARMOR, -1);
    forge = tb_card(&b, "Forge", BATTLE_STRUCTURE, 0, 10, 1);
    tb_skill(&b, forge, BATTLE_SKILL_ENHANCE, 2, 1);
    tb_args(&b, forge, BATTLE_SKILL_ARMOR, -1);
    plated = tb_card(&b, "Plated", BATTLE_ASSAULT, 1, 10, 1);
    tb_skill(&b, plated, BATTLE_SKILL_ARMOR, 2, 0);
    b.spec.up[a1] = a2 + 1;
    tb_deck(&b, 0, plated, 1);
    tb_deck(&b, 1, a1, 1);
    tb_deck(&b, 1, forge, 1);
    tb_deck(&b, 1, plated, 1);
    b.spec.sides[1].upgrades = 1;
    n_job = b.spec.n_cards;
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    CU_ASSERT_EQUAL_FATAL(d->n_mods, 2); /* +1, +2 */
    CU_ASSERT_EQUAL(d->n_cards, n_job + 4);
    v1 = d->mod_to[plated][0];
    v2 = d->mod_to[plated][1];
    CU_ASSERT_EQUAL_FATAL(v1 >= n_job && v1 < d->n_cards && v2 >= n_job && v2 < d->n_cards, 1);
    v12 = d->mod_to[v1][1];
    v22 = d->mod_to[v2][1];
    CU_ASSERT_EQUAL_FATAL(v12 >= n_job && v12 < d->n_cards && v22 >= n_job && v22 < d->n_cards, 1);
    CU_ASSERT_EQUAL(d->cards[v1].armor, 3);
    CU_ASSERT_EQUAL(d->cards[v2].armor, 4);
    CU_ASSERT_EQUAL(d->cards[v12].armor, 5);
    CU_ASSERT_EQUAL(d->mod_to[v2][0], v12); /* +2 then +1: the same variant */
    CU_ASSERT_EQUAL(d->cards[v22].armor, 6);
    CU_ASSERT_EQUAL(d->mod_to[v1][0], v1);   /* +1 twice: one Anvil-1 at most */
    CU_ASSERT_EQUAL(d->mod_to[v12][1], v12); /* +1, +2, +2: Anvil at two levels */
    CU_ASSERT_EQUAL(d->mod_to[v22][0], v22); /* the same */
    CU_ASSERT_EQUAL(d->mod_to[v22][1], v22); /* +2 three times: two carriers */
    battle_plan_free(plan);
}

/* The job's one change (an Evolve) makes a variant of `card` with Armor `armor` and Absorb
 * `absorb`; the card itself keeps Absorb `base_absorb`. */
/* Builds the plan and copies out card `card` and the variant the job's first change makes
 * of it (which must be another card of the table). */
static void variant_pair(struct tb *b, int card, struct battle_card_data *base,
                         struct battle_card_data *made)
{
    struct battle_plan *plan = tb_plan(b);
    const struct battle_plan_data *d = battle_plan_data(plan);
    int v = d->mod_to[card][0];
    CU_ASSERT_EQUAL_FATAL(v != card && v < d->n_cards, 1);
    *base = d->cards[card];
    *made = d->cards[v];
    battle_plan_free(plan);
}

static void expect_evolved(struct tb *b, int card, int base_absorb, int armor, int absorb)
{
    struct battle_card_data base, made;
    variant_pair(b, card, &base, &made);
    CU_ASSERT_EQUAL(base.absorb, base_absorb);
    CU_ASSERT_EQUAL(made.armor, armor);
    CU_ASSERT_EQUAL(made.absorb, absorb);
}

/* 1 when two runs of `games` games of `plan`, on 1 and on 3 threads, count the same, and
 * (`other`, when given) a run of `other` counts the same too. */
static int same_counts(struct battle_plan *plan, struct battle_plan *other, uint64_t games)
{
    static struct battle_counts a, b, c;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    memset(&c, 0, sizeof(c));
    if (battle_cpu_run(plan, 0, games, 1, &a) || battle_cpu_run(plan, 0, games, 3, &b) ||
        (other && battle_cpu_run(other, 0, games, 2, &c)))
        return 0;
    return a.games == games && memcmp(&a, &b, sizeof(a)) == 0 &&
           (!other || memcmp(&a, &c, sizeof(a)) == 0);
}

/* A job whose changes make more variants than the table holds (All: 4^8 variants) makes them
 * during play: its table starts with the job's cards, a change that applies is marked to be
 * made (BATTLE_SIM_CARD_LAZY), and its games count the same on any number of threads (each
 * makes the variants in its own copy of the plan, in its own order). */
static void test_mod_lazy(void)
{
    static const enum battle_skill skills[8] = {
        BATTLE_SKILL_ARMOR, BATTLE_SKILL_COUNTER, BATTLE_SKILL_PIERCE, BATTLE_SKILL_BERSERK,
        BATTLE_SKILL_LEECH, BATTLE_SKILL_POISON,  BATTLE_SKILL_EVADE,  BATTLE_SKILL_LEGION};
    const struct battle_plan_data *d, *mine;
    struct battle_plan *plan;
    struct tb b;
    int all, c, made = 0;

    tb_init(&b);
    tb_side(&b, 0, tb_card(&b, "C", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, tb_card(&b, "D", BATTLE_COMMANDER, 0, 60, 0), BATTLE_PLAY_RANDOM);
    tb_deck(&b, 1, tb_card(&b, "Brute", BATTLE_ASSAULT, 3, 12, 1), 6);
    all = tb_card(&b, "All", BATTLE_ASSAULT, 1, 10, 1);
    tb_deck(&b, 0, all, 4);
    for (int k = 0; k < 8; k++) {
        tb_skill(&b, all, skills[k], 1, 0);
        c = tb_card(&b, "Raiser", BATTLE_STRUCTURE, 0, 10, 1);
        b.cards[c].name[6] = (char)('a' + k);
        tb_skill(&b, c, BATTLE_SKILL_ENHANCE, 1, 1);
        tb_args(&b, c, skills[k], -1);
        tb_deck(&b, 0, c, 3);
    }
    plan = tb_plan(&b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(plan);
    d = battle_plan_data(plan);
    CU_ASSERT_TRUE(battle_plan_lazy(plan));
    CU_ASSERT_EQUAL(d->n_cards, b.spec.n_cards);
    CU_ASSERT_EQUAL(d->n_mods, 8);
    for (int m = 0; m < 8; m++) {
        CU_ASSERT_EQUAL(d->mod_to[all][m], BATTLE_SIM_CARD_LAZY);
        CU_ASSERT_EQUAL(d->mod_to[all - 1][m], BATTLE_SIM_CARD_NONE); /* the defender's */
    }
    /* Evade and Legion of a variant need their flags from the start. */
    CU_ASSERT_TRUE(d->fx & BATTLE_SIM_FX_EVADE);
    CU_ASSERT_TRUE(same_counts(plan, NULL, 3000));
    /* This thread's copy holds the variants its games made: each is All with some skills
     * raised, and none is made twice. */
    mine = battle_plan_game_data(plan);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mine);
    CU_ASSERT_TRUE(mine != d);
    CU_ASSERT_TRUE(mine->n_cards > d->n_cards);
    for (int u = d->n_cards; u < mine->n_cards; u++) {
        CU_ASSERT_EQUAL(mine->card_base[u], all);
        CU_ASSERT_TRUE(mine->cards[u].armor >= 1 && mine->cards[u].counter >= 1 &&
                       mine->cards[u].evade >= 1);
        for (int v = d->n_cards; v < u; v++)
            CU_ASSERT_NOT_EQUAL(memcmp(&mine->cards[u], &mine->cards[v], sizeof(mine->cards[u])),
                                0);
        made++;
    }
    CU_ASSERT_TRUE(made > 8);
    /* The plan itself is never written. */
    CU_ASSERT_EQUAL(d->n_cards, b.spec.n_cards);
    /* A table of 18 cards in all (6 places for variants) (battle_mods_test_limit) fills in many
     * games: each is played again on a fresh copy, so the counts stay the same on any number of
     * threads; a game that fills even a fresh copy ends with its turn, counted as bounded. */
    {
        static struct battle_counts one, three;
        memset(&one, 0, sizeof(one));
        memset(&three, 0, sizeof(three));
        battle_mods_test_limit(18);
        CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, 3000, 1, &one), SK_OK);
        CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, 3000, 3, &three), SK_OK);
        battle_mods_test_limit(0);
        CU_ASSERT_EQUAL(one.games, 3000);
        CU_ASSERT_TRUE(one.bounded > 0 && one.bounded < 3000);
        CU_ASSERT_EQUAL(memcmp(&one, &three, sizeof(one)), 0);
    }
    battle_plan_free(plan);
}

/* A job whose variants fit plays the same games when it makes them during play
 * (battle_mods_test_limit): the variants made are the ones the table would hold, with the
 * same marks (Inhibit's refusable skills, Enhance at turn start). Enhance of Armor and Counter,
 * Evolve of Pierce into Berserk and of Enhance into Strike, Inhibit on the enemy. */
static void test_mod_lazy_same_games(void)
{
    struct battle_plan *fit, *lazy;
    struct tb b;
    int all, c;

    tb_init(&b);
    tb_side(&b, 0, tb_card(&b, "C", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, tb_card(&b, "D", BATTLE_COMMANDER, 0, 45, 0), BATTLE_PLAY_RANDOM);
    c = tb_card(&b, "Inhibitor", BATTLE_ASSAULT, 2, 11, 1);
    tb_skill(&b, c, BATTLE_SKILL_INHIBIT, 1, 0);
    tb_deck(&b, 1, c, 3);
    tb_deck(&b, 1, tb_card(&b, "Brute", BATTLE_ASSAULT, 3, 12, 1), 4);
    all = tb_card(&b, "All", BATTLE_ASSAULT, 2, 10, 1);
    tb_skill(&b, all, BATTLE_SKILL_ARMOR, 1, 0);
    tb_skill(&b, all, BATTLE_SKILL_COUNTER, 1, 0);
    tb_skill(&b, all, BATTLE_SKILL_PIERCE, 2, 0);
    tb_skill(&b, all, BATTLE_SKILL_HEAL, 2, 0);
    tb_deck(&b, 0, all, 4);
    c = tb_card(&b, "Raiser", BATTLE_ASSAULT, 1, 9, 1);
    tb_skill(&b, c, BATTLE_SKILL_ENHANCE, 2, 0);
    tb_args(&b, c, BATTLE_SKILL_ARMOR, -1);
    tb_skill(&b, c, BATTLE_SKILL_ENHANCE, 1, 0);
    tb_args(&b, c, BATTLE_SKILL_COUNTER, -1);
    tb_deck(&b, 0, c, 3);
    c = tb_card(&b, "Shaper", BATTLE_STRUCTURE, 0, 10, 1);
    tb_skill(&b, c, BATTLE_SKILL_EVOLVE, 0, 0);
    tb_args(&b, c, BATTLE_SKILL_PIERCE, BATTLE_SKILL_BERSERK);
    tb_skill(&b, c, BATTLE_SKILL_EVOLVE, 0, 0);
    tb_args(&b, c, BATTLE_SKILL_ENHANCE, BATTLE_SKILL_STRIKE);
    tb_deck(&b, 0, c, 2);
    fit = tb_plan(&b);
    battle_mods_test_limit(1);
    lazy = tb_plan(&b);
    battle_mods_test_limit(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fit);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lazy);
    CU_ASSERT_FALSE(battle_plan_lazy(fit));
    CU_ASSERT_TRUE(battle_plan_lazy(lazy));
    CU_ASSERT_TRUE(battle_plan_data(fit)->n_cards > b.spec.n_cards + 1);
    CU_ASSERT_TRUE(same_counts(lazy, fit, 20000));
    battle_plan_free(fit);
    battle_plan_free(lazy);
}

/* A job whose changes hold more distinct changes than a plan does, or can take a value past
 * its field, is refused with the reason. */
static void test_mod_limits(void)
{
    struct tb b;
    struct battle_card_data base, made;
    int all, c;

    /* Enhance Armor 100 on Armor 900: 1,000 is past the 999 the plan's field holds, and the
     * peer does not stop there: refused. Armor 200 by 100 plays: 300 (8 bits until 2026-12-08,
     * which refused Biocraft's Venom 220 by 90). */
    tb_init(&b);
    tb_side(&b, 0, tb_card(&b, "C", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, 0, BATTLE_PLAY_RANDOM);
    all = tb_card(&b, "Colossus", BATTLE_ASSAULT, 1, 10, 1);
    tb_skill(&b, all, BATTLE_SKILL_ARMOR, 900, 0);
    tb_deck(&b, 0, all, 1);
    c = tb_card(&b, "Raiser", BATTLE_STRUCTURE, 0, 10, 1);
    tb_skill(&b, c, BATTLE_SKILL_ENHANCE, 100, 1);
    tb_args(&b, c, BATTLE_SKILL_ARMOR, -1);
    tb_deck(&b, 0, c, 1);
    expect_einval(&b, "the job's Enhance of 'armor' by 100 can raise card \"Colossus\"'s past 999");
    b.cards[c].skills[0].x = 99; /* 999: plays */
    battle_plan_free(tb_plan(&b));
    b.cards[all].skills[0].x = 200; /* 300: plays, the variant's Armor 300 */
    b.cards[c].skills[0].x = 100;
    variant_pair(&b, all, &base, &made);
    CU_ASSERT_EQUAL(base.armor, 200);
    CU_ASSERT_EQUAL(made.armor, 300);
    /* Evade, a count the unit keeps in a byte, holds up to 255 */
    b.cards[all].skills[0].id = BATTLE_SKILL_EVADE;
    b.cards[c].skills[0].x = 56;
    tb_args(&b, c, BATTLE_SKILL_EVADE, -1);
    expect_einval(&b, "the job's Enhance of 'evade' by 56 can raise card \"Colossus\"'s past 255");
    b.cards[c].skills[0].x = 55;
    battle_plan_free(tb_plan(&b));
    /* Absorb and Armor hold up to 999 (16 bits), Evade 255 (a count the unit keeps in a
     * byte): Absorb 300 becomes Armor 300, cannot become Evade, Absorb 255 can; and Armor 200
     * becomes Absorb 200. */
    tb_init(&b);
    tb_side(&b, 0, tb_card(&b, "C", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, 0, BATTLE_PLAY_RANDOM);
    all = tb_card(&b, "Sponge", BATTLE_ASSAULT, 1, 10, 1);
    tb_skill(&b, all, BATTLE_SKILL_ABSORB, 300, 0);
    tb_deck(&b, 0, all, 1);
    c = tb_card(&b, "Shaper", BATTLE_STRUCTURE, 0, 10, 1);
    tb_skill(&b, c, BATTLE_SKILL_EVOLVE, 0, 1);
    tb_args(&b, c, BATTLE_SKILL_ABSORB, BATTLE_SKILL_ARMOR);
    tb_deck(&b, 0, c, 1);
    expect_evolved(&b, all, 300, 300, 0);
    tb_args(&b, c, BATTLE_SKILL_ABSORB, BATTLE_SKILL_EVADE);
    expect_einval(&b, "the job's Evolve of 'absorb' into 'evade' can give card \"Sponge\" "
                      "'evade' above 255");
    b.cards[all].skills[0].x = 255;
    variant_pair(&b, all, &base, &made);
    CU_ASSERT_EQUAL(made.evade, 255);
    CU_ASSERT_EQUAL(made.absorb, 0);
    b.cards[all].skills[0].id = BATTLE_SKILL_ARMOR;
    b.cards[all].skills[0].x = 200;
    tb_args(&b, c, BATTLE_SKILL_ARMOR, BATTLE_SKILL_ABSORB);
    expect_evolved(&b, all, 0, 0, 200);
    tb_init(&b);
    tb_side(&b, 0, tb_card(&b, "C", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, 0, BATTLE_PLAY_RANDOM);
    for (int k = 1; k <= BATTLE_SIM_MODS + 1; k++) {
        c = tb_card(&b, "Raiser", BATTLE_STRUCTURE, 0, 10, 1);
        tb_skill(&b, c, BATTLE_SKILL_ENHANCE, k, 0);
        tb_args(&b, c, BATTLE_SKILL_ARMOR, -1);
        if (k == 1)
            tb_deck(&b, 0, c, 1);
    }
    expect_einval(&b, "more than 64 distinct Enhance and Evolve skills");
}

/* A side that draws its cards each game (battle_sim_deal): a fixed card, a pool of three
 * taking two, twice over, and a fortress pool of two taking one. Each game's deck holds
 * the fixed card, then a pair of distinct pool cards and the same pair again; the six
 * ordered pairs and the two fortresses come about equally often. */
static void test_draw_pools(void)
{
    struct tb b;
    struct battle_plan *plan;
    struct battle_game g;
    const struct battle_plan_data *d;
    struct battle_side_spec *ss;
    unsigned pair[3][3] = {{0}}, fort[2] = {0, 0};
    int boss, fixed, p[3], t[2];
    tb_init(&b);
    boss = tb_card(&b, "Boss", BATTLE_COMMANDER, 0, 10, 0);
    fixed = tb_card(&b, "Fixed", BATTLE_ASSAULT, 1, 5, 1);
    for (int i = 0; i < 3; i++) {
        char name[8];
        snprintf(name, sizeof(name), "P%d", i);
        p[i] = tb_card(&b, name, BATTLE_ASSAULT, 1, 5 + i, 1);
    }
    t[0] = tb_card(&b, "T0", BATTLE_FORTRESS, 0, 20, 0);
    t[1] = tb_card(&b, "T1", BATTLE_FORTRESS, 0, 21, 0);
    tb_side(&b, 0, boss, BATTLE_PLAY_RANDOM);
    tb_deck(&b, 0, fixed, 1);
    tb_side(&b, 1, boss, BATTLE_PLAY_RANDOM);
    tb_deck(&b, 1, fixed, 1);
    ss = &b.spec.sides[1];
    ss->n_pools = 2;
    ss->pools[0] = (struct battle_pool_spec){0, 2, 2, 3, {p[0], p[1], p[2]}};
    ss->pools[1] = (struct battle_pool_spec){1, 1, 1, 2, {t[0], t[1]}};
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    CU_ASSERT_EQUAL(d->sides[1].draw, 1);
    CU_ASSERT_EQUAL(d->sides[1].n_seq, 5);
    CU_ASSERT_EQUAL(d->sides[1].shuf_hi, 5);
    CU_ASSERT_EQUAL(d->sides[0].draw, 0);
    for (unsigned game = 0; game < 6000; game++) {
        const struct battle_side *sd;
        tb_sim_init(d, &g, 7, game);
        sd = &g.sides[1];
        CU_ASSERT_EQUAL_FATAL(sd->n_seq, 5);
        CU_ASSERT_EQUAL(sd->card[0], fixed);
        CU_ASSERT_NOT_EQUAL(sd->card[1], sd->card[2]);
        CU_ASSERT_EQUAL(sd->card[3], sd->card[1]);
        CU_ASSERT_EQUAL(sd->card[4], sd->card[2]);
        CU_ASSERT_EQUAL_FATAL(sd->n_structures, 1);
        CU_ASSERT_EQUAL(sd->structures[0].hp, 20 + (sd->structures[0].card == t[1]));
        CU_ASSERT_EQUAL(sd->commander, boss);
        CU_ASSERT_EQUAL(g.sides[0].n_structures, 0);
        pair[sd->card[1] - p[0]][sd->card[2] - p[0]]++;
        fort[sd->structures[0].card == t[1]]++;
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) /* 1000 each off the diagonal; 5 sigma is about 144 */
            CU_ASSERT_TRUE(i == j ? pair[i][j] == 0 : pair[i][j] > 856 && pair[i][j] < 1144);
    CU_ASSERT_TRUE(fort[0] > 2806 && fort[0] < 3194); /* 3000; 5 sigma is 194 */
    battle_plan_free(plan);
}

/* Level-ups: a commander of three levels and one deck card of two, two level-ups a game.
 * The first goes to either card (1/2 each); after the commander's, the second too; after
 * the deck card's, the deck card is at its top and leaves the draw without using one, so
 * the second goes to the commander. So the commander ends at level 3 with the deck card
 * at 1 in a quarter of the games, and both at level 2 in the rest; the commander's health
 * is its level's. */
static void test_draw_levels(void)
{
    struct tb b;
    struct battle_plan *plan;
    struct battle_game g;
    const struct battle_plan_data *d;
    unsigned top = 0;
    int c1, c2, c3, a1, a2;
    tb_init(&b);
    c1 = tb_card(&b, "Boss-1", BATTLE_COMMANDER, 0, 10, 0);
    c2 = tb_card(&b, "Boss-2", BATTLE_COMMANDER, 0, 11, 0);
    c3 = tb_card(&b, "Boss-3", BATTLE_COMMANDER, 0, 12, 0);
    a1 = tb_card(&b, "Brute-1", BATTLE_ASSAULT, 1, 5, 1);
    a2 = tb_card(&b, "Brute-2", BATTLE_ASSAULT, 2, 5, 1);
    b.spec.up[c1] = c2 + 1;
    b.spec.up[c2] = c3 + 1;
    b.spec.up[a1] = a2 + 1;
    tb_side(&b, 0, c1, BATTLE_PLAY_RANDOM);
    tb_deck(&b, 0, a1, 1);
    tb_side(&b, 1, c1, BATTLE_PLAY_RANDOM);
    tb_deck(&b, 1, a1, 1);
    b.spec.sides[1].upgrades = 2;
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    CU_ASSERT_EQUAL(d->card_up[c1], c2);
    CU_ASSERT_EQUAL(d->card_up[c3], BATTLE_SIM_CARD_NONE);
    for (unsigned game = 0; game < 4000; game++) {
        const struct battle_side *sd = &g.sides[1];
        tb_sim_init(d, &g, 3, game);
        CU_ASSERT_EQUAL(g.sides[0].commander, c1); /* the other side keeps its cards */
        CU_ASSERT_EQUAL(g.sides[0].card[0], a1);
        CU_ASSERT_EQUAL(g.sides[0].commander_hp, 10);
        if (sd->commander == c3) {
            top++;
            CU_ASSERT_EQUAL(sd->card[0], a1);
            CU_ASSERT_EQUAL(sd->commander_hp, 12);
        } else {
            CU_ASSERT_EQUAL(sd->commander, c2);
            CU_ASSERT_EQUAL(sd->card[0], a2);
            CU_ASSERT_EQUAL(sd->commander_hp, 11);
        }
    }
    CU_ASSERT_TRUE(top > 863 && top < 1137); /* 1000; 5 sigma is about 137 */
    /* A drawing side plays at random, from the start of a game. */
    b.spec.sides[1].play = BATTLE_PLAY_ORDERED;
    expect_einval(&b, "side 1: a deck drawn each game plays at random");
    b.spec.sides[1].play = BATTLE_PLAY_RANDOM;
    b.spec.sides[1].n_pools = 1;
    b.spec.sides[1].pools[0] = (struct battle_pool_spec){0, 3, 1, 2, {a1, a2}};
    expect_einval(&b, "side 1: pool 0's size, amount or replicates out of range");
    b.spec.sides[1].pools[0] = (struct battle_pool_spec){1, 1, 1, 2, {a1, a2}};
    expect_einval(&b, "side 1: pool 0's card 0 is not a fortress");
    b.spec.sides[1].n_pools = 0;
    b.spec.up[a1] = c2 + 1; /* a commander is no level of an assault */
    expect_einval(&b, "its next level is out of range");
    b.spec.up[a1] = a2 + 1;
    b.spec.up[c3] = c1 + 1; /* Boss-3 back to Boss-1 */
    expect_einval(&b, "its levels loop");
    battle_plan_free(plan);
}

/* The skills Mimic can take from a card, marked once in the plan (battle_sim_mimicable):
 * Strike 0, Summon 1, Mimic 2, Mend 3, Weaken on play 4, Heal on attacked 5, Fortify 6 and
 * Enhance 7 give Strike, Mend, Heal and Fortify (bits 0, 3, 5 and 6), and for a caster
 * that is not an assault Strike and Heal. A card without such skills has none. */
static void test_mimic_marks(void)
{
    struct tb b;
    struct battle_plan *plan;
    const struct battle_plan_data *d;
    int many, plain;

    tb_init(&b);
    tb_side(&b, 0, tb_card(&b, "C0", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, tb_card(&b, "C1", BATTLE_COMMANDER, 0, 40, 0), BATTLE_PLAY_RANDOM);
    plain = tb_card(&b, "Plain", BATTLE_ASSAULT, 1, 10, 1);
    tb_skill(&b, plain, BATTLE_SKILL_ARMOR, 2, 0);
    many = tb_card(&b, "Many", BATTLE_ASSAULT, 1, 10, 1);
    tb_skill(&b, many, BATTLE_SKILL_STRIKE, 1, 0);
    tb_skill(&b, many, BATTLE_SKILL_SUMMON, 0, 0);
    b.cards[many].skills[1].card = plain;
    tb_skill(&b, many, BATTLE_SKILL_MIMIC, 1, 0);
    tb_skill(&b, many, BATTLE_SKILL_MEND, 1, 0);
    tb_skill(&b, many, BATTLE_SKILL_WEAKEN, 1, 0);
    b.cards[many].skills[4].trigger = 1;
    tb_skill(&b, many, BATTLE_SKILL_HEAL, 1, 0);
    b.cards[many].skills[5].trigger = 2;
    tb_skill(&b, many, BATTLE_SKILL_FORTIFY, 1, 0);
    tb_skill(&b, many, BATTLE_SKILL_ENHANCE, 1, 1);
    tb_args(&b, many, BATTLE_SKILL_ARMOR, -1);
    tb_deck(&b, 0, many, 1);
    tb_deck(&b, 1, plain, 1);
    plan = tb_plan(&b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(plan);
    d = battle_plan_data(plan);
    CU_ASSERT_EQUAL(d->cards[many].n_act, 8);
    CU_ASSERT_EQUAL(d->cards[many].mimic, 0x69);
    CU_ASSERT_EQUAL(battle_sim_mimic_mask(&d->cards[many], 1), 0x69u);
    CU_ASSERT_EQUAL(battle_sim_mimic_mask(&d->cards[many], 0), 0x21u);
    CU_ASSERT_EQUAL(d->cards[plain].mimic, 0);
    for (int c = 0; c < d->n_cards; c++) /* variants too (Enhance's Armor 3 of Plain) */
        for (int k = 0; k < d->cards[c].n_act; k++)
            CU_ASSERT_EQUAL(d->cards[c].mimic >> k & 1,
                            battle_sim_mimicable(&d->cards[c], (clc_u32)k, 1));
    battle_plan_free(plan);
}

static CU_TestInfo plan_tests[] = {
    {"seed example: priority map", test_seed_priority_map},
    {"seed example: play order 8 7 13 6 9 10 12 11", test_seed_play_order},
    {"seed example: two-turn spacing from turn 7", test_seed_turn_ids},
    {"ordered play of a fresh game", test_ordered_fresh},
    {"exact and random play of a fresh game", test_exact_and_random_fresh},
    {"random play from a mid-game hand", test_random_midgame_hand},
    {"inconsistent specs are refused", test_plan_rejects_inconsistent_specs},
    {"plan accessors", test_plan_accessors},
    {"Enhance and Evolve make card variants", test_mod_variants},
    {"a chain of levels casts its changes as one card", test_mod_chain},
    {"Enhance and Evolve reach their own side, Evolve a Mimic's", test_mod_sides},
    {"the turn start's mark: cards and variants with turn-start skills", test_mark_ticks},
    {"the skills Mimic can take are marked on each card", test_mimic_marks},
    {"Enhance and Evolve past a field or the changes' limit are refused", test_mod_limits},
    {"Enhance and Evolve past the table are made during play", test_mod_lazy},
    {"variants made during play play the games the table would", test_mod_lazy_same_games},
    {"a side draws its pools each game", test_draw_pools},
    {"a side's level-ups each game", test_draw_levels},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_plan_suites[] = {
    {"battle_plan", NULL, NULL, NULL, NULL, plan_tests},
    CU_SUITE_INFO_NULL,
};
