/* SPDX-License-Identifier: MIT */
/* Battleground effects written as skills ("effects"; docs/rules/battle.md, "Battleground
 * effects"): tiny games with every card stated, the codec's rules and errors. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "battle_testlib.h"
#include "codec_testlib.h"
#include "sk_banned.h"

/* Pawn (1 attack, 5 health, delay 0) against an empty deck; the side's effects are the
 * actions of one more card (as the codec makes them). */
static void pawn_game(struct tb *b, int strike_side)
{
    int c0, c1, pawn, fx;
    tb_init(b);
    c0 = tb_card(b, "Own Commander", BATTLE_COMMANDER, 0, 40, 0);
    c1 = tb_card(b, "Enemy Commander", BATTLE_COMMANDER, 0, 40, 0);
    pawn = tb_card(b, "Pawn", BATTLE_ASSAULT, 1, 5, 0);
    tb_side(b, 0, c0, BATTLE_PLAY_EXACT);
    tb_side(b, 1, c1, BATTLE_PLAY_EXACT);
    tb_deck(b, 0, pawn, 3);
    tb_deck(b, 1, pawn, 3);
    fx = tb_card(b, "(battleground effects of the attacker)", BATTLE_COMMANDER, 0, 1, 0);
    tb_skill(b, fx, BATTLE_SKILL_RALLY, 2, 1);
    b->spec.sides[0].effects = fx + 1;
    if (strike_side >= 0) {
        int fs = tb_card(b, "(battleground effects of the defender)", BATTLE_COMMANDER, 0, 1, 0);
        tb_skill(b, fs, BATTLE_SKILL_STRIKE, 3, 1);
        b->spec.sides[strike_side].effects = fs + 1;
    }
}

/* Rally all 2 for the attacker: cast after the card is played and before the attack, so
 * the Pawn played on turn 1 hits the commander for 1 + 2 on that turn; the defender's
 * Pawn, without it, for 1. */
static void test_rally_after_play(void)
{
    struct tb b;
    struct tb_run x;
    pawn_game(&b, -1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 37);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).rally, 0); /* Rally lasts until the turn's end */
    tb_run_turns(&x, 1);
    /* turn 2: the defender's Pawn lands opposite the attacker's and hits it for 1 */
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 4);
    CU_ASSERT_EQUAL(TB_CMD(&x, 0), 40);
    tb_run_end(&x);
}

/* Strike all 3 for the defender: on turn 2 it is cast after the defender's Pawn is played
 * and hits the attacker's Pawn (5 -> 2) before the attack; its Pawn then hits that Pawn
 * for 1 (2 -> 1). On turn 3 the attacker's two Pawns, rallied by 2, hit the defender's
 * Pawn for 3 (5 -> 2) and its commander for 3. */
static void test_strike_for_one_side(void)
{
    struct tb b;
    struct tb_run x;
    pawn_game(&b, 1);
    tb_run_start(&x, &b);
    tb_run_turns(&x, 2);
    CU_ASSERT_EQUAL(TB_ASL(&x, 0, 0).hp, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 37);
    tb_run_turns(&x, 1);
    CU_ASSERT_EQUAL(TB_CMD(&x, 1), 34);
    CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 2);
    tb_run_end(&x);
}

/* What a kill sets off, by a battleground effect or by a card. The defender's fortresses:
 * Husk (5 health) whose death casts Siege all 3 and summons Spawn (an assault, 1/4, delay
 * 0, on play Siege all 2), and Scrap Heap (10 health, Scavenge 2: +2 max health at each
 * death). The attacker plays one structure of 10 health on turn 1: Block (no skill) with
 * the effect Siege all 5 (`by_effect`), or Tower (Siege all 5) without effects. */
static void husk_game(struct tb *b, int by_effect)
{
    int c0, c1, husk, heap, spawn, own, k;
    tb_init(b);
    c0 = tb_card(b, "Own Commander", BATTLE_COMMANDER, 0, 40, 0);
    c1 = tb_card(b, "Enemy Commander", BATTLE_COMMANDER, 0, 40, 0);
    spawn = tb_card(b, "Spawn", BATTLE_ASSAULT, 1, 4, 0);
    tb_skill(b, spawn, BATTLE_SKILL_SIEGE, 2, 1);
    b->cards[spawn].skills[0].trigger = BATTLE_SIM_TRIG_PLAY;
    husk = tb_card(b, "Husk", BATTLE_STRUCTURE, 0, 5, 0);
    tb_skill(b, husk, BATTLE_SKILL_SIEGE, 3, 1);
    tb_skill(b, husk, BATTLE_SKILL_SUMMON, 0, 0);
    for (k = 0; k < 2; k++)
        b->cards[husk].skills[k].trigger = BATTLE_SIM_TRIG_DEATH;
    b->cards[husk].skills[1].card = spawn;
    heap = tb_card(b, "Scrap Heap", BATTLE_STRUCTURE, 0, 10, 0);
    tb_skill(b, heap, BATTLE_SKILL_SCAVENGE, 2, 0);
    own = tb_card(b, by_effect ? "Block" : "Tower", BATTLE_STRUCTURE, 0, 10, 0);
    if (!by_effect)
        tb_skill(b, own, BATTLE_SKILL_SIEGE, 5, 1);
    tb_side(b, 0, c0, BATTLE_PLAY_EXACT);
    tb_side(b, 1, c1, BATTLE_PLAY_EXACT);
    tb_deck(b, 0, own, 1);
    tb_fort(b, 1, husk);
    tb_fort(b, 1, heap);
    if (by_effect) {
        int fx = tb_card(b, "(battleground effects of the attacker)", BATTLE_COMMANDER, 0, 1, 0);
        tb_skill(b, fx, BATTLE_SKILL_SIEGE, 5, 1);
        b->spec.sides[0].effects = fx + 1;
    }
}

/* A unit that a battleground effect kills sets off its on-death Summon only, and what it
 * summons casts no on-play skill (the peer's default, Fix::death_from_bge; bench/peer_fuzz
 * seed 1206 #35, shrunk: "Mortar 10" killing Time Anomaly): after turn 1 the attacker's
 * Block is whole, Scrap Heap took the 5 without Scavenge's +2, and Spawn stands at 4. The
 * same kill by Tower's own Siege: Scavenge (+2: 7 of 12), Husk's Siege all 3 and Spawn's
 * on-play Siege all 2 on Tower (10 -> 5). */
static void test_bge_kill(void)
{
    struct tb b;
    struct tb_run x;
    for (int by_effect = 1; by_effect >= 0; by_effect--) {
        husk_game(&b, by_effect);
        tb_run_start(&x, &b);
        tb_run_turns(&x, 1);
        /* Husk dead and gone at the turn's end: Scrap Heap moved to its slot */
        CU_ASSERT_EQUAL_FATAL(x.g.sides[1].n_structures, 1);
        CU_ASSERT_EQUAL(TB_STR(&x, 1, 0).hp, by_effect ? 5 : 7);
        CU_ASSERT_EQUAL(TB_STR(&x, 1, 0).max_hp, by_effect ? 10 : 12);
        CU_ASSERT_EQUAL(TB_STR(&x, 0, 0).hp, by_effect ? 10 : 5);
        CU_ASSERT_EQUAL(x.g.sides[1].n_assaults, 1);
        CU_ASSERT_EQUAL(TB_ASL(&x, 1, 0).hp, 4);
        CU_ASSERT_EQUAL(x.g.bge, 0);
        tb_run_end(&x);
    }
}

static void expect_bad(const char *text, const char *pointer, const char *what)
{
    struct battle_spec spec;
    struct sk_verr_list errs;
    int found = 0;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(ct_decode(text, &spec, &errs), SK_EINVAL);
    for (size_t i = 0; i < errs.n; i++)
        found |= strcmp(errs.items[i].pointer, pointer) == 0 &&
                 strstr(errs.items[i].message, what) != NULL;
    if (!found)
        for (size_t i = 0; i < errs.n; i++)
            fprintf(stderr, "\n  got %s: %s (wanted %s: ...%s...)", errs.items[i].pointer,
                    errs.items[i].message, pointer, what);
    CU_ASSERT(found);
    sk_verr_list_release(&errs);
}

static void test_codec(void)
{
    struct battle_spec spec;
    struct sk_verr_list errs;
    const struct battle_card_spec *a, *d;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(ct_decode("{" CT_SIDES
                                    ",'effects':[{'skill':{'name':'rally','x':15,'all':true}},"
                                    "{'skill':{'name':'strike','x':3,'n':2},'side':'defender'}]}",
                                    &spec, &errs),
                          SK_OK);
    CU_ASSERT_FATAL(spec.sides[0].effects > 0 && spec.sides[1].effects > 0);
    a = &spec.cards[spec.sides[0].effects - 1];
    d = &spec.cards[spec.sides[1].effects - 1];
    CU_ASSERT_EQUAL(a->n_skills, 1);
    CU_ASSERT_EQUAL(a->skills[0].id, BATTLE_SKILL_RALLY);
    CU_ASSERT_EQUAL(a->skills[0].x, 15);
    CU_ASSERT_EQUAL(a->skills[0].all, 1);
    CU_ASSERT_EQUAL(d->n_skills, 2);
    CU_ASSERT_EQUAL(d->skills[1].id, BATTLE_SKILL_STRIKE);
    CU_ASSERT_EQUAL(d->skills[1].n, 2);
    battle_codec_spec_release(&spec);
    CU_ASSERT_EQUAL(ct_decode("{" CT_SIDES "}", &spec, &errs), SK_OK);
    CU_ASSERT_EQUAL(spec.sides[0].effects, 0);
    CU_ASSERT_EQUAL(spec.sides[1].effects, 0);
    battle_codec_spec_release(&spec);
    CU_ASSERT_EQUAL(errs.n, 0);
    sk_verr_list_release(&errs);

    expect_bad("{" CT_SIDES ",'effects':{'skill':{'name':'rally','x':1}}}", "/params/effects",
               "must be a list");
    expect_bad("{" CT_SIDES ",'effects':[{'skill':{'name':'counter','x':1}}]}",
               "/params/effects/0/skill/name", "is not cast");
    expect_bad("{" CT_SIDES ",'effects':[{'skill':{'name':'strike','x':1,'c':2}}]}",
               "/params/effects/0/skill", "no 'c' or 'trigger'");
    expect_bad("{" CT_SIDES ",'effects':[{'skill':{'name':'strike','x':1},'side':'enemy'}]}",
               "/params/effects/0/side", "'side' must be");
    expect_bad("{" CT_SIDES ",'effects':[{'side':'both'}]}", "/params/effects/0", "one of them");
    expect_bad("{" CT_SIDES ",'effects':[{'name':'Inspired','skill':{'name':'rally','x':1}}]}",
               "/params/effects/0", "one of them");
    /* the built-in catalog has no bges.txt */
    expect_bad("{" CT_SIDES ",'effects':[{'name':'Inspired'}]}", "/params/effects/0/name",
               "come with the game's files");
    expect_bad("{" CT_SIDES ",'effects':[{'skill':{'name':'nova','x':1}}]}",
               "/params/effects/0/skill/name", "unknown skill");
    expect_bad("{" CT_SIDES ",'effects':[{'skill':{'name':'strike'}}]}",
               "/params/effects/0/skill/x", "required");
    expect_bad("{" CT_SIDES ",'effects':[{'skill':{'name':'strike','x':1},'when':1}]}",
               "/params/effects/0/when", "unknown field");
    /* nine for one side: a side holds eight */
    expect_bad("{" CT_SIDES ",'effects':[{'skill':{'name':'strike','x':1}},{'skill':{'name':'heal',"
               "'x':1}},{'skill':{'name':'rally','x':1}},{'skill':{'name':'protect','x':1}},"
               "{'skill':{'name':'weaken','x':1}},{'skill':{'name':'enfeeble','x':1}},"
               "{'skill':{'name':'siege','x':1}},{'skill':{'name':'mortar','x':1}},"
               "{'skill':{'name':'jam'},'side':'attacker'}]}",
               "/params/effects/8", "at most 8 effects");
}

static CU_TestInfo effects_tests[] = {
    {"an effect is cast after the card played", test_rally_after_play},
    {"an effect for one side", test_strike_for_one_side},
    {"a kill by an effect sets off its Summon only", test_bge_kill},
    {"codec: effects, sides and errors", test_codec},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_effects_suites[] = {
    {"battle_effects", NULL, NULL, NULL, NULL, effects_tests},
    CU_SUITE_INFO_NULL,
};
