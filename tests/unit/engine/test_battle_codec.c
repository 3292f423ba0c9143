/* SPDX-License-Identifier: MIT */
/* The battle job codec: bad documents with the exact list of errors each must produce
 * (pointer and message, every problem reported), and good documents decoding to exact
 * spec values, including the seed's mid-game state. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battle_cards.h"
#include "battle_catalog.h"
#include "battle_codec.h"
#include "battle_plan.h"
#include "battle_rules.h"
#include "battle_sim.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* Parses `text` with every ' replaced by " (so documents read well in C strings). */
static json_t *parse_q(const char *text)
{
    char *buf = sk_strdup(text);
    json_t *doc;
    json_error_t jerr;

    for (char *c = buf; *c; c++)
        if (*c == '\'')
            *c = '"';
    doc = json_loads(buf, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc)
        fprintf(stderr, "test document does not parse: %s: %s\n", jerr.text, buf);
    sk_free(buf);
    return doc;
}

/* Decodes params text `text` against the built-in catalog, as job.c does (pointer at
 * "/params"). */
static enum sk_err decode_text(const char *text, struct battle_spec *spec,
                               struct sk_verr_list *errs)
{
    const struct battle_catalog *cat = NULL;
    json_t *doc = parse_q(text);
    struct sk_jptr ptr;
    enum sk_err err;

    CU_ASSERT_FATAL(doc != NULL);
    CU_ASSERT_FATAL(battle_catalog_current(&cat, NULL, 0) == SK_OK);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    err = battle_codec_decode(doc, 42, cat, &ptr, errs, spec);
    CU_ASSERT_STRING_EQUAL(sk_jptr_str(&ptr), "/params"); /* restored */
    json_decref(doc);
    return err;
}

#define ATT   "'attacker':{'commander':'Test Commander','deck':[{'card':'Grunt','count':5}]}"
#define DEF   "'defender':{'commander':'Test Commander','deck':[{'card':'Brute','count':4}]}"
#define SIDES ATT "," DEF

struct bad_case {
    const char *params;  /* ' stands for " */
    const char *want[8]; /* every "pointer: message", in order; NULL-terminated */
};

/* clang-format off */
static const struct bad_case bad_cases[] = {
    /* 1 */ {"{'games':0," SIDES "}",
        {"/params/games: 'games' must be between 1 and 1000000000, not 0"}},
    /* 2 */ {"{'games':'100'," SIDES "}",
        {"/params/games: 'games' must be an integer between 1 and 1000000000"}},
    /* 3 */ {"{'games':1000000001," SIDES "}",
        {"/params/games: 'games' must be between 1 and 1000000000, not 1000000001"}},
    /* 4 */ {"{'games':100.0," SIDES "}",
        {"/params/games: 'games' must be an integer between 1 and 1000000000"}},
    /* 5 */ {"{'mode':'siege'," SIDES "}",
        {"/params/mode: 'mode' must be \"fight\" or \"surge\""}},
    /* 6 */ {"{'turn_limit':201," SIDES "}",
        {"/params/turn_limit: 'turn_limit' must be between 1 and 200, not 201"}},
    /* 7 */ {"{'turn_limit':0," SIDES "}",
        {"/params/turn_limit: 'turn_limit' must be between 1 and 200, not 0"}},
    /* 8 */ {"{'gamez':5," SIDES "}",
        {"/params/gamez: unknown field 'gamez'"}},
    /* 9 */ {"{" DEF "}",
        {"/params/attacker: 'attacker' is required"}},
    /* 10 */ {"{'attacker':[]," DEF "}",
        {"/params/attacker: 'attacker' must be an object, a deck string, a deck hash or a mission or raid ({\"mission\": name})"}},
    /* 11 */ {"{'attacker':{'deck':[]}," DEF "}",
        {"/params/attacker/commander: 'commander' is required"}},
    /* 12 */ {"{'attacker':{'commander':'Test Comander','deck':[]}," DEF "}",
        {"/params/attacker/commander: unknown card \"Test Comander\"; did you mean \"Test "
         "Commander\"?"}},
    /* 13 */ {"{'attacker':{'commander':'Grunt','deck':[]}," DEF "}",
        {"/params/attacker/commander: card \"Grunt\" is an assault card, not a commander"}},
    /* 14 */ {"{'attacker':{'commander':'Barracus','fortresses':['Lightning Cannon',"
              "'Corrosive Spore','Aegis Bastion','Lightning Cannon','Corrosive Spore',"
              "'Aegis Bastion','Lightning Cannon','Corrosive Spore','Aegis Bastion',"
              "'Lightning Cannon','Corrosive Spore'],'deck':[]}," DEF "}",
        {"/params/attacker/fortresses: a side has at most 10 fortresses, not 11"}},
    /* 15 */ {"{'attacker':{'commander':'Barracus','fortresses':['Grunt'],'deck':[]},"
              DEF "}",
        {"/params/attacker/fortresses/0: card \"Grunt\" is an assault card, not a fortress "
         "or structure"}},
    /* 16 */ {"{" ATT ",'defender':{'commander':'Test Commander'}}",
        {"/params/defender/deck: 'deck' is required"}},
    /* 17 */ {"{'attacker':{'commander':'Test Commander','deck':[{'card':'Grunt','count':0}]},"
              DEF "}",
        {"/params/attacker/deck/0/count: 'count' must be between 1 and 50, not 0"}},
    /* 18 */ {"{'attacker':{'commander':'Test Commander','deck':[{'card':'Grunt','count':51}]},"
              DEF "}",
        {"/params/attacker/deck/0/count: 'count' must be between 1 and 50, not 51"}},
    /* 19 */ {"{'attacker':{'commander':'Test Commander','deck':[{'card':'Grunt','count':40},"
              "{'card':'Brute','count':11}]}," DEF "}",
        {"/params/attacker/deck: a deck holds at most 50 cards, not 51"}},
    /* 20 */ {"{'attacker':{'commander':'Test Commander','deck':[{'card':'Grunt'},"
              "{'card':'Barracus'}]}," DEF "}",
        {"/params/attacker/deck/1/card: card \"Barracus\" is a commander card, not an assault "
         "or structure"}},
    /* 21 */ {"{'attacker':{'commander':'Test Commander','deck':[{'card':'Grunt'},"
              "{'card':'Brute'},{'card':'Anvil'},{'card':'Chainslicr'}]}," DEF "}",
        {"/params/attacker/deck/3/card: unknown card \"Chainslicr\"; did you mean "
         "\"Chainslicer\"?"}},
    /* 22 */ {"{'attacker':{'commander':'Test Commander','deck':['Grunt']}," DEF "}",
        {"/params/attacker/deck/0: a deck entry must be an object {\"card\", \"count\"}"}},
    /* 23 */ {"{'attacker':{'commander':'Test Commander','deck':[{'card':'Grunt','cnt':2}]},"
              DEF "}",
        {"/params/attacker/deck/0/cnt: unknown field 'cnt'"}},
    /* 24 */ {"{'attacker':{'commander':'Test Commander','deck':[],'play':'sorted'}," DEF "}",
        {"/params/attacker/play: 'play' must be \"random\", \"ordered\", \"exact\" or "
         "\"flexible\""}},
    /* 25 */ {"{'attacker':{'commander':'" "0123456789012345678901234567890123456789"
              "0123456789012345678901234','deck':[]}," DEF "}",
        {"/params/attacker/commander: a card name must be 1 to 64 bytes long"}},
    /* 26 */ {"{'attacker':{'commander':'','deck':[]}," DEF "}",
        {"/params/attacker/commander: a card name must be 1 to 64 bytes long"}},
    /* 27 */ {"{'attacker':{'commander':'Test\\tCommander','deck':[]}," DEF "}",
        {"/params/attacker/commander: a card name must not contain control characters"}},
    /* 28 */ {"{'cards':[{'name':'X','type':'assault','attack':1,'health':1,"
              "'skills':[{'name':'armour','x':1}]}]," SIDES "}",
        {"/params/cards/0/skills/0/name: unknown skill 'armour'"}},
    /* 29 */ {"{'cards':[{'name':'X','type':'assault','attack':1,'health':1,"
              "'skills':[{'name':'armor'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/x: 'x' is required for skill 'armor'"}},
    /* 30 */ {"{'cards':[{'name':'X','type':'structure','health':1,"
              "'skills':[{'name':'wall','x':1}]}]," SIDES "}",
        {"/params/cards/0/skills/0/x: skill 'wall' takes no 'x'"}},
    /* 31 */ {"{'cards':[{'name':'X','type':'assault','attack':1,'health':1,"
              "'skills':[{'name':'armor','x':1,'all':true}]}]," SIDES "}",
        {"/params/cards/0/skills/0/all: skill 'armor' cannot take 'all'"}},
    /* 32 */ {"{'cards':[{'name':'X','type':'assault','attack':1,'health':1,"
              "'skills':[{'name':'wall'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/name: skill 'wall' is only for structure and fortress "
         "cards"}},
    /* 33 */ {"{'cards':[{'name':'X','type':'assault','attack':1,'health':1,"
              "'skills':[{'name':'evade','x':256}]}]," SIDES "}",
        {"/params/cards/0/skills/0/x: 'x' must be between 1 and 255, not 256"}},
    /* 34 */ {"{'cards':[{'name':'X','type':'assault','attack':1,'health':1,"
              "'skills':[{'name':'strike','x':1},{'name':'siege','x':1},{'name':'heal','x':1},"
              "{'name':'rally','x':1},{'name':'jam'},{'name':'weaken','x':1},"
              "{'name':'enfeeble','x':1},{'name':'protect','x':1},{'name':'flurry','x':1}]}],"
              SIDES "}",
        {"/params/cards/0/skills: a card has at most 8 skills, not 9"}},
    /* 35 */ {"{'cards':[{'name':'X','type':'assault','attack':1,'health':1,"
              "'skills':[{'name':'strike','x':1},{'name':'strike','x':2,'all':true}]}]," SIDES "}",
        {"/params/cards/0/skills/1/name: skill 'strike' appears twice on the card"}},
    /* 36 */ {"{'cards':[{'name':'X','type':'structure','attack':1,'health':1}]," SIDES "}",
        {"/params/cards/0/attack: 'attack' is only for assault cards"}},
    /* 37 */ {"{'cards':[{'name':'X','type':'commander','health':10,'delay':1}]," SIDES "}",
        {"/params/cards/0/delay: 'delay' is not for commander cards"}},
    /* 38 */ {"{'cards':[{'name':'X','type':'assault','attack':1000,'health':0,'delay':10}],"
              SIDES "}",
        {"/params/cards/0/attack: 'attack' must be between 0 and 999, not 1000",
         "/params/cards/0/health: 'health' must be between 1 and 999, not 0",
         "/params/cards/0/delay: 'delay' must be between 0 and 9, not 10"}},
    /* 39 */ {"{'cards':[{'health':5}]," SIDES "}",
        {"/params/cards/0/name: 'name' is required",
         "/params/cards/0/type: 'type' is required"}},
    /* 40 */ {"{'cards':[{'name':'X','type':'commander','health':5},"
              "{'name':'X','type':'commander','health':6}]," SIDES "}",
        {"/params/cards/1/name: card \"X\" is defined twice"}},
    /* 41 */ {"{'cards':{'name':'X'}," SIDES "}",
        {"/params/cards: 'cards' must be an array of card definitions"}},
    /* 42 */ {"{'cards':[{'name':'X','type':'hero','health':5}]," SIDES "}",
        {"/params/cards/0/type: 'type' must be \"commander\", \"fortress\", \"assault\" or "
         "\"structure\""}},
    /* 43: an invalid inline card is reported once, not again where it is used */
    {"{'cards':[{'name':'Boss','type':'commander','health':0}],"
     "'attacker':{'commander':'Boss','deck':[]}," DEF "}",
        {"/params/cards/0/health: 'health' must be between 1 and 999, not 0"}},
    /* 44 */ {"{'cards':[{'name':'X','type':'commander','health':5,"
              "'skills':[{'name':'evade','x':1}]}]," SIDES "}",
        {"/params/cards/0/skills/0/name: skill 'evade' is only for fortress, assault and "
         "structure cards"}},
    /* 45 */ {"{'cards':[{'name':'X','type':'assault','attack':1,'health':1,"
              "'skills':[{'name':'strike','x':'2','all':'yes'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/x: 'x' must be an integer between 1 and 999",
         "/params/cards/0/skills/0/all: 'all' must be true or false"}},
    /* 46: every problem of the document at once, in document order */
    {"{'games':0,'mode':'x','attacker':{'commander':'Test Commander','deck':"
     "[{'card':'Grunt'},{'card':'Nobody'}]},'defender':{'commander':'Grunt','deck':[]},"
     "'extra':1}",
        {"/params/extra: unknown field 'extra'",
         "/params/games: 'games' must be between 1 and 1000000000, not 0",
         "/params/mode: 'mode' must be \"fight\" or \"surge\"",
         "/params/attacker/deck/1/card: unknown card \"Nobody\"",
         "/params/defender/commander: card \"Grunt\" is an assault card, not a commander"}},
    /* 47 */ {"{" SIDES ",'state':[]}",
        {"/params/state: 'state' must be an object or null"}},
    /* 48 */ {"{" SIDES ",'state':{'turn':51,'attacker':{'commander_health':40},"
              "'defender':{'commander_health':40}}}",
        {"/params/state/turn: 'turn' must be between 1 and 50, not 51"}},
    /* 49 */ {"{" SIDES ",'state':{'turn':1,'attacker':{'commander_health':41},"
              "'defender':{'commander_health':0}}}",
        {"/params/state/attacker/commander_health: 'commander_health' must be between 1 and "
         "40, not 41",
         "/params/state/defender/commander_health: 'commander_health' must be between 1 and "
         "40, not 0"}},
    /* 50 */ {"{" SIDES ",'state':{'turn':3,'attacker':{'commander_health':40,"
              "'assaults':[{'card':'Grunt','health':0},{'card':'Grunt','health':11},"
              "{'card':'Grunt','health':5,'delay':2}]},'defender':{'commander_health':40}}}",
        {"/params/state/attacker/assaults/0/health: 'health' must be between 1 and 10, not 0",
         "/params/state/attacker/assaults/1/health: 'health' must be between 1 and 10, not 11",
         "/params/state/attacker/assaults/2/delay: 'delay' must be between 0 and 1, not 2"}},
    /* 51 */ {"{" SIDES ",'state':{'turn':3,'attacker':{'commander_health':40,"
              "'hand':['Grunt','Grunt','Grunt','Grunt']},'defender':{'commander_health':40}}}",
        {"/params/state/attacker/hand: 'hand' holds at most 3 cards, not 4"}},
    /* 52 */ {"{" SIDES ",'state':{'turn':3,'attacker':{'commander_health':40,"
              "'assaults':[{'card':'Grunt','health':3}],'hand':['Grunt','Grunt','Grunt'],"
              "'deck':['Grunt','Grunt']},'defender':{'commander_health':40}}}",
        {"/params/state/attacker/deck/1: card \"Grunt\" is in play, hand and deck 6 times but "
         "the deck list has it 5 times"}},
    /* 53 */ {"{" SIDES ",'state':{'turn':3,'attacker':{'commander_health':40,"
              "'hand':['Grunt'],'deck':['Grunt']},'defender':{'commander_health':40}}}",
        {"/params/state/attacker/hand: the hand must hold 3 cards while the deck has cards"}},
    /* 54 */ {"{" SIDES ",'state':{'turn':3,'attacker':{'commander_health':40,"
              "'structures':[{'card':'Grunt','health':3}]},'defender':{'commander_health':40,"
              "'hand':['Brute'],'deck':[]}}}",
        {"/params/state/attacker/structures/0/card: card \"Grunt\" is an assault card, not a "
         "structure"}},
    /* 55 */ {"{'attacker':{'commander':'Barracus','fortresses':['Lightning Cannon'],"
              "'deck':[{'card':'Tempest Keep'}]}," DEF ",'state':{'turn':2,'attacker':"
              "{'commander_health':40,'structures':[{'card':'Tempest Keep','health':3}]},"
              "'defender':{'commander_health':40}}}",
        {"/params/state/attacker/structures/0/card: structure 0 must be one of the side's "
         "fortresses not listed before it, such as \"Lightning Cannon\": the side's 1 fortresses "
         "come first, in any order"}},
    /* 56 */ {"{'attacker':{'commander':'Barracus','fortresses':['Lightning Cannon'],"
              "'deck':[]}," DEF ",'state':{'turn':2,'attacker':{'commander_health':40},"
              "'defender':{'commander_health':40}}}",
        {"/params/state/attacker/structures: 'structures' must start with the side's 1 "
         "fortresses"}},
    /* 57 */ {"{" SIDES ",'state':{'turn':2,'attacker':{'commander_health':40,'lane':[]},"
              "'defender':{'commander_health':40}}}",
        {"/params/state/attacker/lane: unknown field 'lane'"}},
    /* 58 */ {"{" SIDES ",'state':{'turn':2,'attacker':{'commander_health':40,"
              "'assaults':[{'card':'Grunt','alive':false,'health':4}]},"
              "'defender':{'commander_health':40}}}",
        {"/params/state/attacker/assaults/0/health: 'health' of a dead unit must be 0"}},
    /* 59 */ {"{" SIDES ",'state':{'turn':2,'attacker':{'commander_health':40}}}",
        {"/params/state/defender: 'defender' is required"}},
    /* 60 */ {"{" SIDES ",'state':{'turn':2,'attacker':{'commander_health':40,"
              "'hand':['Brute']},'defender':{'commander_health':40}}}",
        {"/params/state/attacker/hand/0: card \"Brute\" is in play, hand and deck 1 times but "
         "the deck list has it 0 times"}},
    /* 61 */ {"{" SIDES ",'state':{'attacker':{},'defender':{'commander_health':40,"
              "'assaults':[{'health':1}]}}}",
        {"/params/state/turn: 'turn' is required",
         "/params/state/attacker/commander_health: 'commander_health' is required",
         "/params/state/defender/assaults/0/card: 'card' is required"}},
    /* 62 */ {"{'scoring':'gw'," SIDES "}",
        {"/params/scoring: 'scoring' must be \"win\", \"defense\", \"war\", \"war-defense\", "
         "\"raid\", \"brawl\", \"brawl-defense\" or \"campaign\""}},
    /* 63 */ {"{'cards':[{'name':'X','type':'assault','attack':1,'health':1,"
              "'skills':[{'name':'inhibit','x':1,'all':true,'trigger':'play'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/all: skill 'inhibit' cannot take 'all'",
         "/params/cards/0/skills/0/trigger: skill 'inhibit' takes no 'trigger'"}},
    /* 64 */ {"{'cards':[{'name':'X','type':'structure','health':1,"
              "'skills':[{'name':'inhibit','x':2}]}]," SIDES "}",
        {"/params/cards/0/skills/0/name: skill 'inhibit' is only for assault cards"}},
    /* 65 */ {"{'cards':[{'name':'X','type':'commander','health':5,"
              "'skills':[{'name':'absorb','x':3}]}]," SIDES "}",
        {"/params/cards/0/skills/0/name: skill 'absorb' is only for assault, structure and "
         "fortress cards"}},
    /* 66 */ {"{'cards':[{'name':'X','type':'structure','health':5,"
              "'skills':[{'name':'absorb','y':'xeno'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/x: 'x' is required for skill 'absorb'",
         "/params/cards/0/skills/0/y: skill 'absorb' takes no 'y'"}},
    /* Enhance and Evolve's skill arguments (s, s2): missing, unknown, misplaced, limits */
    /* 67 */ {"{'cards':[{'name':'X','type':'commander','health':5,"
              "'skills':[{'name':'enhance','x':2}]}]," SIDES "}",
        {"/params/cards/0/skills/0/s: skill 'enhance' needs the skill it changes, 's'"}},
    /* 68 */ {"{'cards':[{'name':'X','type':'commander','health':5,"
              "'skills':[{'name':'evolve','s':'pierce'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/s2: skill 'evolve' needs the skill 's' becomes, 's2'"}},
    /* 69 */ {"{'cards':[{'name':'X','type':'commander','health':5,"
              "'skills':[{'name':'enhance','x':2,'s':'armour'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/s: 's' must name one of the game's skills"}},
    /* 70 */ {"{'cards':[{'name':'X','type':'commander','health':5,"
              "'skills':[{'name':'evolve','s':3,'s2':'rupture'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/s: 's' must name one of the game's skills"}},
    /* 71 */ {"{'cards':[{'name':'X','type':'commander','health':5,"
              "'skills':[{'name':'heal','x':2,'s':'rally'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/s: skill 'heal' takes no skill arguments ('s', 's2')"}},
    /* 72 */ {"{'cards':[{'name':'X','type':'commander','health':5,"
              "'skills':[{'name':'enhance','x':2,'s':'rally','s2':'heal'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/s2: skill 'enhance' takes no 's2'"}},
    /* 73 */ {"{'cards':[{'name':'X','type':'commander','health':5,"
              "'skills':[{'name':'evolve','s':'heal','s2':'armor'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/s2: skill 'evolve' of an activation skill into a passive "
         "one is not simulated"}},
    /* 74 */ {"{'cards':[{'name':'X','type':'commander','health':5,"
              "'skills':[{'name':'evolve','s':'rally','s2':'rally'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/s2: skill 'evolve' needs 's2' other than 's'"}},
    /* 75 */ {"{'cards':[{'name':'X','type':'commander','health':5,"
              "'skills':[{'name':'enhance','x':1000,'s':'rally'}]}]," SIDES "}",
        {"/params/cards/0/skills/0/x: 'x' must be between 1 and 999, not 1000"}},
    /* 76: activation skills, Absorb and Refresh hold up to 999 (16-bit fields) */
    {"{'cards':[{'name':'X','type':'assault','attack':1,'health':1,"
              "'skills':[{'name':'absorb','x':1000}]}]," SIDES "}",
        {"/params/cards/0/skills/0/x: 'x' must be between 1 and 999, not 1000"}},
    /* 77: a state's fortresses in any order, each of them once */
    {"{'attacker':{'commander':'Barracus','fortresses':['Lightning Cannon','Corrosive Spore'],"
              "'deck':[]}," DEF ",'state':{'turn':2,'attacker':{'commander_health':40,"
              "'structures':[{'card':'Corrosive Spore','health':3},{'card':'Corrosive Spore',"
              "'health':3}]},'defender':{'commander_health':40}}}",
        {"/params/state/attacker/structures/1/card: structure 1 must be one of the side's "
         "fortresses not listed before it, such as \"Lightning Cannon\": the side's 2 "
         "fortresses come first, in any order"}},
};
/* clang-format on */

static void test_bad_documents(void)
{
    size_t n_cases = sizeof(bad_cases) / sizeof(bad_cases[0]);

    CU_ASSERT(n_cases >= 30);
    for (size_t c = 0; c < n_cases; c++) {
        struct battle_spec spec;
        struct sk_verr_list errs;
        size_t n_want = 0;
        enum sk_err err;

        memset(&spec, 0x5a, sizeof(spec));
        sk_verr_list_init(&errs);
        err = decode_text(bad_cases[c].params, &spec, &errs);
        CU_ASSERT_EQUAL(err, SK_EINVAL);
        CU_ASSERT_EQUAL(spec.games, 0x5a5a5a5a5a5a5a5aULL); /* untouched on failure */
        while (n_want < 8 && bad_cases[c].want[n_want])
            n_want++;
        if (errs.n != n_want)
            fprintf(stderr, "\ncase %zu: %zu errors, want %zu\n", c + 1, errs.n, n_want);
        CU_ASSERT_EQUAL(errs.n, n_want);
        for (size_t i = 0; i < errs.n; i++) {
            char line[700];
            snprintf(line, sizeof(line), "%s: %s", errs.items[i].pointer, errs.items[i].message);
            if (i >= n_want || strcmp(line, bad_cases[c].want[i]) != 0) {
                fprintf(stderr, "\ncase %zu error %zu:\n  got  %s\n  want %s\n", c + 1, i, line,
                        i < n_want ? bad_cases[c].want[i] : "(none)");
                CU_FAIL("unexpected error");
            }
        }
        sk_verr_list_release(&errs);
    }
}

static void test_params_shape(void)
{
    struct battle_spec spec;
    struct sk_verr_list errs;
    json_t *arr = json_array();
    struct sk_jptr ptr;
    const struct battle_catalog *cat = NULL;

    CU_ASSERT_FATAL(battle_catalog_current(&cat, NULL, 0) == SK_OK);
    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    CU_ASSERT_EQUAL(battle_codec_decode(arr, 1, cat, &ptr, &errs, &spec), SK_EINVAL);
    CU_ASSERT_EQUAL_FATAL(errs.n, 1);
    CU_ASSERT_STRING_EQUAL(errs.items[0].pointer, "/params");
    CU_ASSERT_STRING_EQUAL(errs.items[0].message, "'params' must be an object");
    sk_verr_list_release(&errs);
    json_decref(arr);
}

/* 129 inline cards: the limit is checked before any card is decoded. */
static void test_too_many_inline_cards(void)
{
    char *text = sk_malloc(200 * 129 + 400);
    size_t len = 0;
    struct battle_spec spec;
    struct sk_verr_list errs;

    len += (size_t)snprintf(text + len, 400, "{'cards':[");
    for (int i = 0; i < 129; i++)
        len += (size_t)snprintf(text + len, 200, "%s{'name':'C%d','type':'commander','health':1}",
                                i ? "," : "", i);
    snprintf(text + len, 400, "]," SIDES "}");
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(decode_text(text, &spec, &errs), SK_EINVAL);
    CU_ASSERT_EQUAL_FATAL(errs.n, 1);
    CU_ASSERT_STRING_EQUAL(errs.items[0].pointer, "/params/cards");
    CU_ASSERT_STRING_EQUAL(errs.items[0].message, "a job may define at most 128 cards, not 129");
    sk_verr_list_release(&errs);
    sk_free(text);
}

/* The first reference matchup of rules/battle.md, with every default. */
static void test_reference_matchup(void)
{
    struct battle_spec spec;
    struct sk_verr_list errs;
    const int att[] = {1, 1, 1, 1, 1, 2, 2, 2, 2, 2};
    const int def[] = {2, 2, 2, 2, 1, 1, 1, 1, 1, 1};

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(
        decode_text("{'attacker':{'commander':'Test Commander','deck':[{'card':'Grunt',"
                    "'count':5},{'card':'Brute','count':5}]},'defender':{'commander':"
                    "'Test Commander','deck':[{'card':'Brute','count':4},{'card':'Grunt',"
                    "'count':6}]}}",
                    &spec, &errs),
        SK_OK);
    CU_ASSERT_EQUAL(errs.n, 0);
    CU_ASSERT_EQUAL(spec.seed, 42);
    CU_ASSERT_EQUAL(spec.games, 10000);
    CU_ASSERT_EQUAL(spec.mode, BATTLE_MODE_FIGHT);
    CU_ASSERT_EQUAL(spec.scoring, BATTLE_SCORING_WIN);
    CU_ASSERT_EQUAL(spec.turn_limit, 50);
    CU_ASSERT_EQUAL(spec.has_state, 0);
    CU_ASSERT_EQUAL_FATAL(spec.n_cards, 3);
    CU_ASSERT_STRING_EQUAL(spec.cards[0].name, "Test Commander");
    CU_ASSERT_EQUAL(spec.cards[0].type, BATTLE_COMMANDER);
    CU_ASSERT_EQUAL(spec.cards[0].health, 40);
    CU_ASSERT_STRING_EQUAL(spec.cards[1].name, "Grunt");
    CU_ASSERT_EQUAL(spec.cards[1].attack, 2);
    CU_ASSERT_EQUAL(spec.cards[1].health, 10);
    CU_ASSERT_EQUAL(spec.cards[1].delay, 1);
    CU_ASSERT_STRING_EQUAL(spec.cards[2].name, "Brute");
    CU_ASSERT_EQUAL(spec.cards[2].attack, 3);
    CU_ASSERT_EQUAL(spec.cards[2].health, 14);
    CU_ASSERT_EQUAL(spec.cards[2].delay, 2);
    for (int s = 0; s < 2; s++) {
        CU_ASSERT_EQUAL(spec.sides[s].commander, 0);
        CU_ASSERT_EQUAL(spec.sides[s].n_fortresses, 0);
        CU_ASSERT_EQUAL(spec.sides[s].play, BATTLE_PLAY_RANDOM);
        CU_ASSERT_EQUAL_FATAL(spec.sides[s].n_deck, 10);
    }
    CU_ASSERT_EQUAL(memcmp(spec.sides[0].deck, att, sizeof(att)), 0);
    CU_ASSERT_EQUAL(memcmp(spec.sides[1].deck, def, sizeof(def)), 0);
    battle_codec_spec_release(&spec);
    CU_ASSERT_PTR_NULL(spec.cards);
}

/* Explicit values, inline cards shadowing the catalog, fortresses and skills. */
static void test_explicit_values_and_inline_cards(void)
{
    struct battle_spec spec;
    struct sk_verr_list errs;
    const struct battle_card_spec *g;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(
        decode_text("{'games':1000000000,'mode':'surge','scoring':'campaign','turn_limit':200,"
                    "'cards':[{'name':'Grunt','type':'assault','attack':7,'health':9,"
                    "'skills':[{'name':'strike','x':99,'all':true},{'name':'jam','all':false},"
                    "{'name':'armor','x':1},{'name':'absorb','x':300},{'name':'siege','x':400}]},"
                    "{'name':'Unused','type':'commander','health':1}],"
                    "'attacker':{'commander':'Barracus','fortresses':['Corrosive Spore',"
                    "'Lightning Cannon'],'deck':[{'card':'Grunt','count':2},{'card':"
                    "'Tempest Keep'}],'play':'ordered'},'defender':{'commander':'Test Commander',"
                    "'fortresses':[],'deck':[],'play':'flexible'},'state':null}",
                    &spec, &errs),
        SK_OK);
    CU_ASSERT_EQUAL(spec.games, 1000000000ULL);
    CU_ASSERT_EQUAL(spec.mode, BATTLE_MODE_SURGE);
    CU_ASSERT_EQUAL(spec.scoring, BATTLE_SCORING_CAMPAIGN);
    CU_ASSERT_EQUAL(spec.turn_limit, 200);
    CU_ASSERT_EQUAL(spec.has_state, 0);
    /* Used cards only, in first-use order; "Unused" is validated but not kept. */
    CU_ASSERT_EQUAL_FATAL(spec.n_cards, 6);
    CU_ASSERT_STRING_EQUAL(spec.cards[0].name, "Barracus");
    CU_ASSERT_STRING_EQUAL(spec.cards[1].name, "Corrosive Spore");
    CU_ASSERT_STRING_EQUAL(spec.cards[2].name, "Lightning Cannon");
    CU_ASSERT_STRING_EQUAL(spec.cards[3].name, "Grunt");
    CU_ASSERT_STRING_EQUAL(spec.cards[4].name, "Tempest Keep");
    CU_ASSERT_STRING_EQUAL(spec.cards[5].name, "Test Commander");
    g = &spec.cards[3];
    CU_ASSERT_EQUAL(g->type, BATTLE_ASSAULT);
    CU_ASSERT_EQUAL(g->attack, 7); /* the inline definition, not the catalog's 2/10/1 */
    CU_ASSERT_EQUAL(g->health, 9);
    CU_ASSERT_EQUAL(g->delay, 0); /* default */
    CU_ASSERT_EQUAL_FATAL(g->n_skills, 5);
    CU_ASSERT_EQUAL(g->skills[0].id, BATTLE_SKILL_STRIKE);
    CU_ASSERT_EQUAL(g->skills[0].x, 99);
    CU_ASSERT_EQUAL(g->skills[0].all, 1);
    CU_ASSERT_EQUAL(g->skills[1].id, BATTLE_SKILL_JAM);
    CU_ASSERT_EQUAL(g->skills[1].x, 0);
    CU_ASSERT_EQUAL(g->skills[1].all, 0);
    CU_ASSERT_EQUAL(g->skills[2].id, BATTLE_SKILL_ARMOR);
    CU_ASSERT_EQUAL(g->skills[2].x, 1);
    CU_ASSERT_EQUAL(g->skills[3].id, BATTLE_SKILL_ABSORB); /* above 255: Absorb's 16 bits */
    CU_ASSERT_EQUAL(g->skills[3].x, 300);
    CU_ASSERT_EQUAL(g->skills[4].id, BATTLE_SKILL_SIEGE);
    CU_ASSERT_EQUAL(g->skills[4].x, 400);
    CU_ASSERT_EQUAL(spec.sides[0].commander, 0);
    CU_ASSERT_EQUAL(spec.sides[0].n_fortresses, 2);
    CU_ASSERT_EQUAL(spec.sides[0].fortresses[0], 1);
    CU_ASSERT_EQUAL(spec.sides[0].fortresses[1], 2);
    CU_ASSERT_EQUAL(spec.sides[0].n_deck, 3);
    CU_ASSERT_EQUAL(spec.sides[0].deck[0], 3);
    CU_ASSERT_EQUAL(spec.sides[0].deck[1], 3);
    CU_ASSERT_EQUAL(spec.sides[0].deck[2], 4);
    CU_ASSERT_EQUAL(spec.sides[0].play, BATTLE_PLAY_ORDERED);
    CU_ASSERT_EQUAL(spec.sides[1].commander, 5);
    CU_ASSERT_EQUAL(spec.sides[1].n_deck, 0);
    CU_ASSERT_EQUAL(spec.sides[1].play, BATTLE_PLAY_FLEX);
    battle_codec_spec_release(&spec);
    sk_verr_list_release(&errs);
}

/* A 30-card deck is the most; the limit is on the expanded count. */
static void test_deck_limit(void)
{
    struct battle_spec spec;
    struct sk_verr_list errs;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(
        decode_text("{'attacker':{'commander':'Test Commander','deck':[{'card':'Grunt','count':"
                    "29},{'card':'Brute'}]}," DEF "}",
                    &spec, &errs),
        SK_OK);
    CU_ASSERT_EQUAL(spec.sides[0].n_deck, 30);
    CU_ASSERT_EQUAL(spec.sides[0].deck[29], 2);
    battle_codec_spec_release(&spec);
}

/* The seed's worked example as a job state (docs/jobs.md, examples/seed_state.json). */
#define SEED_STATE                                                                                 \
    "{'games':1000,'attacker':{'commander':'Barracus','fortresses':['Lightning Cannon',"           \
    "'Corrosive Spore'],'deck':[{'card':'Tempest Keep'},{'card':'Lead Dozer'},{'card':"            \
    "'Chainslicer'},{'card':'Anvil'},{'card':'Iron Maiden'},{'card':'Chainslicer'},{'card':"       \
    "'Cyberpod'},{'card':'Missile Silo'},{'card':'Chainslicer'},{'card':'Iron Maiden'},"           \
    "{'card':'Judgement Nova'}],'play':'ordered'},'defender':{'commander':'Test Commander',"       \
    "'deck':[{'card':'Grunt','count':4},{'card':'Brute','count':4}]},'state':{'turn':7,"           \
    "'attacker':{'commander_health':30,'structures':[{'card':'Lightning Cannon','alive':false},"   \
    "{'card':'Corrosive Spore','health':8},{'card':'Tempest Keep','health':12,'delay':0}],"        \
    "'assaults':[{'card':'Chainslicer','health':5,'delay':0},{'card':'Anvil','alive':false,"       \
    "'health':0}],'hand':['Cyberpod','Iron Maiden','Lead Dozer'],'deck':['Chainslicer',"           \
    "'Missile Silo','Judgement Nova','Iron Maiden','Chainslicer']},'defender':"                    \
    "{'commander_health':25,'assaults':[{'card':'Brute','health':14,'delay':1},{'card':"           \
    "'Grunt','health':3}],'hand':['Grunt','Brute','Grunt'],'deck':['Brute','Grunt']}}}"

static void test_seed_state(void)
{
    struct battle_spec spec;
    struct sk_verr_list errs;
    const struct battle_side_state *a, *d;
    /* cards: 0 Barracus, 1 Lightning Cannon, 2 Corrosive Spore, 3 Tempest Keep,
     * 4 Lead Dozer, 5 Chainslicer, 6 Anvil, 7 Iron Maiden, 8 Cyberpod, 9 Missile Silo,
     * 10 Judgement Nova, 11 Test Commander, 12 Grunt, 13 Brute */
    const int deck_list[] = {3, 4, 5, 6, 7, 5, 8, 9, 5, 7, 10};
    const int hand[] = {8, 7, 4};
    const int deck[] = {5, 9, 10, 7, 5};

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(decode_text(SEED_STATE, &spec, &errs), SK_OK);
    CU_ASSERT_EQUAL_FATAL(spec.n_cards, 14);
    CU_ASSERT_STRING_EQUAL(spec.cards[5].name, "Chainslicer");
    CU_ASSERT_STRING_EQUAL(spec.cards[10].name, "Judgement Nova");
    CU_ASSERT_STRING_EQUAL(spec.cards[13].name, "Brute");
    CU_ASSERT_EQUAL_FATAL(spec.sides[0].n_deck, 11);
    CU_ASSERT_EQUAL(memcmp(spec.sides[0].deck, deck_list, sizeof(deck_list)), 0);
    CU_ASSERT_EQUAL(spec.has_state, 1);
    CU_ASSERT_EQUAL(spec.state.turn, 7);
    a = &spec.state.sides[0];
    CU_ASSERT_EQUAL(a->commander_health, 30);
    CU_ASSERT_EQUAL_FATAL(a->n_structures, 3);
    CU_ASSERT_EQUAL(a->structures[0].card, 1);
    CU_ASSERT_EQUAL(a->structures[0].alive, 0);
    CU_ASSERT_EQUAL(a->structures[0].health, 0);
    CU_ASSERT_EQUAL(a->structures[1].card, 2);
    CU_ASSERT_EQUAL(a->structures[1].alive, 1);
    CU_ASSERT_EQUAL(a->structures[1].health, 8);
    CU_ASSERT_EQUAL(a->structures[2].card, 3);
    CU_ASSERT_EQUAL(a->structures[2].health, 12);
    CU_ASSERT_EQUAL(a->structures[2].delay, 0);
    CU_ASSERT_EQUAL_FATAL(a->n_assaults, 2);
    CU_ASSERT_EQUAL(a->assaults[0].card, 5);
    CU_ASSERT_EQUAL(a->assaults[0].health, 5);
    CU_ASSERT_EQUAL(a->assaults[1].card, 6);
    CU_ASSERT_EQUAL(a->assaults[1].alive, 0);
    CU_ASSERT_EQUAL_FATAL(a->n_hand, 3);
    CU_ASSERT_EQUAL(memcmp(a->hand, hand, sizeof(hand)), 0);
    CU_ASSERT_EQUAL_FATAL(a->n_deck, 5);
    CU_ASSERT_EQUAL(memcmp(a->deck, deck, sizeof(deck)), 0);
    d = &spec.state.sides[1];
    CU_ASSERT_EQUAL(d->commander_health, 25);
    CU_ASSERT_EQUAL(d->n_structures, 0);
    CU_ASSERT_EQUAL_FATAL(d->n_assaults, 2);
    CU_ASSERT_EQUAL(d->assaults[0].card, 13);
    CU_ASSERT_EQUAL(d->assaults[0].delay, 1);
    CU_ASSERT_EQUAL(d->assaults[1].card, 12);
    CU_ASSERT_EQUAL(d->assaults[1].delay, 0);
    CU_ASSERT_EQUAL(d->n_hand, 3);
    CU_ASSERT_EQUAL(d->n_deck, 2);
    battle_codec_spec_release(&spec);
}

/* A state lists the fortresses in the order the game drew them (each game shuffles them),
 * not necessarily the side's: the row keeps the state's order. */
static void test_state_fortress_order(void)
{
    struct battle_spec spec;
    struct sk_verr_list errs;
    const struct battle_side_state *a;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(
        decode_text("{'attacker':{'commander':'Barracus','fortresses':['Lightning Cannon',"
                    "'Corrosive Spore'],'deck':[{'card':'Tempest Keep'}]}," DEF
                    ",'state':{'turn':2,"
                    "'attacker':{'commander_health':40,'structures':[{'card':'Corrosive Spore',"
                    "'health':3},{'card':'Lightning Cannon','alive':false},{'card':'Tempest Keep',"
                    "'health':2}]},'defender':{'commander_health':40}}}",
                    &spec, &errs),
        SK_OK);
    CU_ASSERT_EQUAL(errs.n, 0);
    a = &spec.state.sides[0];
    CU_ASSERT_EQUAL_FATAL(a->n_structures, 3);
    CU_ASSERT_STRING_EQUAL(spec.cards[a->structures[0].card].name, "Corrosive Spore");
    CU_ASSERT_EQUAL(a->structures[0].health, 3);
    CU_ASSERT_STRING_EQUAL(spec.cards[a->structures[1].card].name, "Lightning Cannon");
    CU_ASSERT_EQUAL(a->structures[1].alive, 0);
    CU_ASSERT_STRING_EQUAL(spec.cards[a->structures[2].card].name, "Tempest Keep");
    battle_codec_spec_release(&spec);
}

/* A structure card in the object form's fortresses (as 18 of the game's raids put one, and
 * as the peer's `yf`/`ef` take any card): it takes a fortress slot and starts in play, on
 * its card's delay; the rest of the side's cards stay in the deck. */
static void test_structure_as_fortress(void)
{
    struct battle_spec spec;
    struct sk_verr_list errs;
    struct battle_plan *plan = NULL;
    const struct battle_plan_data *d;
    char err[256] = "";
    int keep;

    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(
        decode_text("{'attacker':{'commander':'Barracus','fortresses':['Tempest Keep',"
                    "'Lightning Cannon'],'deck':[{'card':'Grunt'}]}," DEF "}",
                    &spec, &errs),
        SK_OK);
    CU_ASSERT_EQUAL(errs.n, 0);
    CU_ASSERT_EQUAL_FATAL(spec.sides[0].n_fortresses, 2);
    keep = spec.sides[0].fortresses[0];
    CU_ASSERT_STRING_EQUAL(spec.cards[keep].name, "Tempest Keep");
    CU_ASSERT_EQUAL(spec.cards[keep].type, BATTLE_STRUCTURE);
    CU_ASSERT_EQUAL(spec.sides[0].n_deck, 1);
    CU_ASSERT_EQUAL_FATAL(battle_plan_new(&spec, &plan, err, sizeof(err)), SK_OK);
    d = battle_plan_data(plan);
    CU_ASSERT_EQUAL_FATAL(d->sides[0].n_structures, 2);
    CU_ASSERT_EQUAL(d->sides[0].structures[0].card, keep);
    CU_ASSERT_EQUAL(d->sides[0].structures[0].delay, spec.cards[keep].delay);
    CU_ASSERT_EQUAL(d->sides[0].structures[0].hp, spec.cards[keep].health);
    battle_plan_free(plan);
    battle_codec_spec_release(&spec);
    sk_verr_list_release(&errs);
}

/* Names, types and the card encoder round trip. */
static void test_names_and_card_json(void)
{
    struct battle_card_spec card, back;
    struct sk_verr_list errs;
    struct sk_jptr ptr;
    json_t *doc = parse_q("{'name':'Ünïcode Ward','type':'structure','health':7,'delay':3,"
                          "'skills':[{'name':'wall'},{'name':'jam','all':true},"
                          "{'name':'heal','x':2}]}");
    json_t *enc = NULL;

    CU_ASSERT_EQUAL(battle_rules_skill_parse("flurry"), BATTLE_SKILL_FLURRY);
    CU_ASSERT_EQUAL(battle_rules_skill_parse("Flurry"), -1);
    CU_ASSERT_STRING_EQUAL(battle_rules_skill_name(BATTLE_SKILL_ENFEEBLE), "enfeeble");
    CU_ASSERT_STRING_EQUAL(battle_rules_skill_name(BATTLE_SKILL__COUNT), "unknown");
    CU_ASSERT_EQUAL(battle_cards_type_parse("fortress"), BATTLE_FORTRESS);
    CU_ASSERT_STRING_EQUAL(battle_cards_type_name(BATTLE_STRUCTURE), "structure");
    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    CU_ASSERT_EQUAL_FATAL(battle_cards_decode(doc, &ptr, &errs, &card), SK_OK);
    CU_ASSERT_STRING_EQUAL(card.name, "Ünïcode Ward");
    CU_ASSERT_EQUAL(card.n_skills, 3);
    enc = battle_cards_to_json(&card);
    CU_ASSERT_FATAL(enc != NULL);
    /* The encoding is the canonical form of the input: equal as JSON. */
    CU_ASSERT_TRUE(json_equal(enc, doc));
    CU_ASSERT_EQUAL_FATAL(battle_cards_decode(enc, &ptr, &errs, &back), SK_OK);
    CU_ASSERT_EQUAL(memcmp(&card, &back, sizeof(card)), 0);
    CU_ASSERT_EQUAL(errs.n, 0);
    json_decref(enc);
    json_decref(doc);
}

/* Every allocation of a decode may fail: the result is SK_ENOMEM or success, never a
 * crash, a leak (ASan) or a bogus validation error. */
static void test_decode_under_allocation_failures(void)
{
    const struct battle_catalog *cat = NULL;
    json_t *doc = parse_q(SEED_STATE);
    int ok = 0;

    CU_ASSERT_FATAL(battle_catalog_current(&cat, NULL, 0) == SK_OK);
    for (long n = 0; n < 1000 && !ok; n++) {
        struct battle_spec spec;
        struct sk_verr_list errs;
        struct sk_jptr ptr;
        enum sk_err err;

        sk_verr_list_init(&errs);
        sk_jptr_init(&ptr);
        sk_jptr_push_key(&ptr, "params");
        sk_mem_fail_after(n);
        err = battle_codec_decode(doc, 1, cat, &ptr, &errs, &spec);
        sk_mem_fail_after(-1);
        CU_ASSERT(err == SK_OK || err == SK_ENOMEM);
        CU_ASSERT_EQUAL(errs.n, 0);
        if (err == SK_OK) {
            ok = 1;
            CU_ASSERT_EQUAL(spec.state.turn, 7);
            battle_codec_spec_release(&spec);
        }
        sk_verr_list_release(&errs);
    }
    CU_ASSERT_TRUE(ok);
    json_decref(doc);
}

static CU_TestInfo codec_tests[] = {
    {"bad documents: exact pointers, all errors", test_bad_documents},
    {"params must be an object", test_params_shape},
    {"at most 128 inline cards", test_too_many_inline_cards},
    {"reference matchup with defaults", test_reference_matchup},
    {"explicit values, inline cards shadow the catalog", test_explicit_values_and_inline_cards},
    {"deck of 30 after counts", test_deck_limit},
    {"seed example state", test_seed_state},
    {"a state's fortresses in the order the game drew them", test_state_fortress_order},
    {"a structure card in a fortress slot", test_structure_as_fortress},
    {"names and card encoding", test_names_and_card_json},
    {"decode under allocation failures", test_decode_under_allocation_failures},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_codec_suites[] = {
    {"battle_codec", NULL, NULL, NULL, NULL, codec_tests},
    CU_SUITE_INFO_NULL,
};
