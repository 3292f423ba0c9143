/* SPDX-License-Identifier: MIT */
/* The skill table (battle_skills.h) against everything that must follow it: every row
 * folds into the plan as its kind says, every row has an effect on the games (a skill
 * added to the table without its rule fails here), the catalog filter offers every skill,
 * the game's skills map to rows, and openapi/openapi.json's skill lists and docs/jobs.md's
 * skill table are what the generator (tools/gen_skills, `make gen-skills`) makes of the
 * table. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "battle.h"
#include "battle_cpu.h"
#include "battle_plan.h"
#include "battle_rules.h"
#include "battle_sim.h"
#include "battle_spec.h"
#include "battle_testlib.h"
#include "battle_tu.h"
#include "job.h"
#include "sk_buf.h"
#include "sk_mem.h"
#include "skills_doc.h"

#include "sk_banned.h"

struct row {
    const char *name;
    int kind;       /* enum battle_skill_kind */
    unsigned opts;  /* BATTLE_OPT_* */
    unsigned types; /* BATTLE_T_* */
};

static const struct row rows[BATTLE_SKILL__COUNT] = {
#define ROW_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)                   \
    [BATTLE_SKILL_##ID] = {NAME, BATTLE_SK_##KIND, OPTS, TYPES},
    BATTLE_SKILL_TABLE(ROW_)
#undef ROW_
};

/* Names, parsing and option bits agree with the table, and names are unique. */
static void test_names(void)
{
    for (int s = 0; s < BATTLE_SKILL__COUNT; s++) {
        CU_ASSERT_STRING_EQUAL(battle_rules_skill_name((enum battle_skill)s), rows[s].name);
        CU_ASSERT_EQUAL(battle_rules_skill_parse(rows[s].name), s);
        /* Only Enhance and Evolve take skill arguments; a passive takes no target options or
         * trigger; only Summon brings a card. */
        CU_ASSERT_EQUAL((rows[s].opts & BATTLE_OPT_SKILL) != 0,
                        s == BATTLE_SKILL_ENHANCE || s == BATTLE_SKILL_EVOLVE);
        if (rows[s].kind == BATTLE_SK_PASSIVE)
            CU_ASSERT_EQUAL(rows[s].opts & (BATTLE_OPT_ALL | BATTLE_OPT_Y | BATTLE_OPT_N |
                                            BATTLE_OPT_TRIGGER | BATTLE_OPT_CARD),
                            0);
        CU_ASSERT_EQUAL((rows[s].opts & BATTLE_OPT_CARD) != 0, s == BATTLE_SKILL_SUMMON);
        CU_ASSERT(rows[s].types != 0 && (rows[s].types & ~(unsigned)BATTLE_T_ANY) == 0);
    }
    CU_ASSERT_STRING_EQUAL(battle_rules_skill_name(BATTLE_SKILL__COUNT), "unknown");
}

/* One card with skill `s` (x = 2 when it takes x) folds as its row says: an activation
 * skill is the card's one action, a passive one changes the card's plan data. */
static void test_folding(void)
{
    for (int s = 0; s < BATTLE_SKILL__COUNT; s++) {
        struct tb b;
        struct battle_plan *plan;
        struct battle_card_data with, without;
        enum battle_card_type type =
            (rows[s].types & BATTLE_T_ASSAULT) ? BATTLE_ASSAULT : BATTLE_STRUCTURE;
        int x = (rows[s].opts & BATTLE_OPT_X) ? 2 : 0;

        tb_init(&b);
        tb_side(&b, 0, tb_card(&b, "C", BATTLE_COMMANDER, 0, 10, 0), BATTLE_PLAY_RANDOM);
        tb_side(&b, 1, 0, BATTLE_PLAY_RANDOM);
        tb_deck(&b, 0, tb_card(&b, "Plain", type, 1, 5, 1), 1);
        tb_deck(&b, 1, tb_card(&b, "Skilled", type, 1, 5, 1), 1);
        tb_skill(&b, 2, (enum battle_skill)s, x, 0);
        if (rows[s].opts & BATTLE_OPT_SKILL)
            tb_args(&b, 2, BATTLE_SKILL_ARMOR, s == BATTLE_SKILL_EVOLVE ? BATTLE_SKILL_EVADE : -1);
        plan = tb_plan(&b);
        without = battle_plan_data(plan)->cards[1];
        with = battle_plan_data(plan)->cards[2];
        battle_plan_free(plan);
        if (rows[s].kind == BATTLE_SK_ACTIVATION) {
            CU_ASSERT_EQUAL(with.n_act, 1);
            CU_ASSERT_EQUAL(with.act_id[0], s);
            /* Enhance's and Evolve's X is their change, the plan's first (battle_mods). */
            CU_ASSERT_EQUAL(with.act_x[0], (rows[s].opts & BATTLE_OPT_SKILL) ? 0 : x);
        } else {
            CU_ASSERT_EQUAL(with.n_act, 0);
            CU_ASSERT(memcmp(&with, &without, sizeof(with)) != 0);
        }
    }
}

/* Plays 2,000 games of a matchup rich enough for every skill to matter (damaged and
 * undamaged allies, armored enemies with a hostile skill and an allied one (for Inhibit),
 * an enemy fortress with a skill of its own), with skill `s` on the attacker's deck cards
 * (or on its fortress when it is not for assaults), or on nothing when s < 0; and skill
 * `also` (X 1) on the Carrier and `foe_also` on the Foe when they are not negative (Tribute
 * gives back only what an own assault casts on it, Subdue takes only gains). */
static void play_with(int s, int also, int foe_also, struct battle_counts *c)
{
    struct tb b;
    struct battle_plan *plan;
    int carrier, fort, foe, dfort;

    tb_init(&b);
    b.spec.seed = 20261123;
    tb_side(&b, 0, tb_card(&b, "Attacker", BATTLE_COMMANDER, 0, 30, 0), BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, tb_card(&b, "Defender", BATTLE_COMMANDER, 0, 30, 0), BATTLE_PLAY_RANDOM);
    carrier = tb_card(&b, "Carrier", BATTLE_ASSAULT, 2, 12, 1);
    fort = tb_card(&b, "Carrier Fort", BATTLE_FORTRESS, 0, 12, 0);
    foe = tb_card(&b, "Foe", BATTLE_ASSAULT, 3, 10, 1);
    tb_skill(&b, foe, BATTLE_SKILL_ARMOR, 1, 0);
    tb_skill(&b, foe, BATTLE_SKILL_STRIKE, 1, 0);
    tb_skill(&b, foe, BATTLE_SKILL_HEAL, 1, 0);
    dfort = tb_card(&b, "Foe Fort", BATTLE_FORTRESS, 0, 8, 0);
    tb_skill(&b, dfort, BATTLE_SKILL_STRIKE, 2, 0);
    tb_deck(&b, 0, carrier, 10);
    tb_fort(&b, 0, fort);
    tb_deck(&b, 1, foe, 10);
    tb_fort(&b, 1, dfort);
    if (s >= 0)
        tb_skill(&b, (rows[s].types & BATTLE_T_ASSAULT) ? carrier : fort, (enum battle_skill)s,
                 (rows[s].opts & BATTLE_OPT_X) ? 2 : 0, 0);
    if (also >= 0)
        tb_skill(&b, carrier, (enum battle_skill)also, 1, 0);
    if (foe_also >= 0)
        tb_skill(&b, foe, (enum battle_skill)foe_also, 1, 0);
    plan = tb_plan(&b);
    memset(c, 0, sizeof(*c));
    CU_ASSERT_EQUAL(battle_cpu_run(plan, 0, 2000, 1, c), SK_OK);
    battle_plan_free(plan);
}

static void play(int s, struct battle_counts *c)
{
    play_with(s, -1, -1, c);
}

/* Enhance Strike 2 or Evolve Strike into Siege, change 0 of a plan, cast on a unit of an
 * assault with Strike 1: the unit plays a variant of its card with Strike 3, or Siege 1. */
static int mod_changes_target(enum battle_skill s)
{
    struct tb b;
    struct battle_plan *plan;
    const struct battle_plan_data *d;
    struct battle_unit u, before;
    struct battle_game g;
    int target, changed;

    tb_init(&b);
    tb_side(&b, 0, tb_card(&b, "C", BATTLE_COMMANDER, 0, 10, 0), BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, 0, BATTLE_PLAY_RANDOM);
    target = tb_card(&b, "Target", BATTLE_ASSAULT, 3, 10, 1);
    tb_skill(&b, target, BATTLE_SKILL_STRIKE, 1, 0);
    tb_deck(&b, 0, target, 1);
    tb_deck(&b, 0, tb_card(&b, "Changer", BATTLE_STRUCTURE, 0, 10, 1), 1);
    tb_skill(&b, 2, s, s == BATTLE_SKILL_ENHANCE ? 2 : 0, 0);
    tb_args(&b, 2, BATTLE_SKILL_STRIKE, s == BATTLE_SKILL_EVOLVE ? BATTLE_SKILL_SIEGE : -1);
    plan = tb_plan(&b);
    d = battle_plan_data(plan);
    battle_sim_fresh(d, &u, (clc_u32)target);
    u.delay = 0;
    before = u;
    memset(&g, 0, sizeof(g));
    CU_ASSERT_TRUE(battle_sim_mod_ok(d, &u, 0));
    battle_sim_apply(d, &g, 0, (clc_u32)s, 0, &u);
    changed =
        memcmp(&u, &before, sizeof(u)) != 0 && d->card_base[u.card] == target &&
        (s == BATTLE_SKILL_ENHANCE
             ? d->cards[u.card].act_id[0] == BATTLE_SKILL_STRIKE && d->cards[u.card].act_x[0] == 3
             : d->cards[u.card].act_id[0] == BATTLE_SKILL_SIEGE && d->cards[u.card].act_x[0] == 1);
    battle_plan_free(plan);
    return changed;
}

/* A row whose rule was never written fails here. An activation skill must change the unit
 * it is applied to (battle_sim_apply: a unit that is a valid target of every skill, hurt,
 * active, able to attack); a passive one, folded into a field nothing reads, would play
 * exactly the games of the matchup without it, so it must change the outcome counts or
 * the turn histogram. (An activation skill without effect still draws its target, which
 * changes later games, so the games alone could not tell.) */
static void test_every_skill_has_an_effect(void)
{
    struct battle_counts base, with;
    struct tb b;
    struct battle_plan *plan;
    struct battle_game g;

    tb_init(&b);
    tb_side(&b, 0, tb_card(&b, "C", BATTLE_COMMANDER, 0, 10, 0), BATTLE_PLAY_RANDOM);
    tb_side(&b, 1, 0, BATTLE_PLAY_RANDOM);
    tb_deck(&b, 0, tb_card(&b, "Target", BATTLE_ASSAULT, 3, 10, 1), 1);
    tb_skill(&b, 1, BATTLE_SKILL_STRIKE, 1, 0);
    plan = tb_plan(&b);
    play(-1, &base);
    CU_ASSERT_EQUAL_FATAL(base.games, 2000);
    for (int s = 0; s < BATTLE_SKILL__COUNT; s++) {
        int differs;
        if (s == BATTLE_SKILL_SUMMON) {
            /* It changes no unit: it brings one. */
            memset(&g, 0, sizeof(g));
            battle_sim_summon(battle_plan_data(plan), &g, 0, 1, 0);
            differs = g.sides[0].n_assaults == 1 && g.sides[0].assaults[0].card == 1 &&
                      g.sides[0].assaults[0].hp == 10;
        } else if (s == BATTLE_SKILL_ENHANCE || s == BATTLE_SKILL_EVOLVE) {
            differs = mod_changes_target((enum battle_skill)s);
        } else if (rows[s].kind == BATTLE_SK_ACTIVATION && s != BATTLE_SKILL_MIMIC) {
            struct battle_unit u, before;
            /* Overload takes a unit with a skill it helps: the Target's Strike, below. */
            battle_sim_fresh(battle_plan_data(plan), &u, 1);
            u.delay = s == BATTLE_SKILL_RUSH ? 1 : 0; /* Rush takes a unit with a delay */
            u.hp = 5;
            before = u;
            memset(&g, 0, sizeof(g));
            CU_ASSERT_TRUE(battle_sim_valid(battle_plan_data(plan), (clc_u32)s, &u));
            battle_sim_apply(battle_plan_data(plan), &g, 1, (clc_u32)s, 2, &u);
            differs = memcmp(&u, &before, sizeof(u)) != 0;
        } else if (s == BATTLE_SKILL_TRIBUTE || s == BATTLE_SKILL_SUBDUE) {
            /* Tribute gives back the Carriers' own Protect (cast on one another); Subdue
             * takes the Foe's Berserk gains. */
            struct battle_counts base2;
            int also = s == BATTLE_SKILL_TRIBUTE ? BATTLE_SKILL_PROTECT : -1;
            int foe_also = s == BATTLE_SKILL_SUBDUE ? BATTLE_SKILL_BERSERK : -1;
            play_with(-1, also, foe_also, &base2);
            play_with(s, also, foe_also, &with);
            differs = with.wins != base2.wins || with.losses != base2.losses ||
                      memcmp(with.turns, base2.turns, sizeof(with.turns)) != 0;
        } else {
            /* A passive skill, or Mimic (it casts the Foe's Strike or Heal as its own). */
            play(s, &with);
            differs = with.wins != base.wins || with.losses != base.losses ||
                      memcmp(with.turns, base.turns, sizeof(with.turns)) != 0;
        }
        if (!differs)
            fprintf(stderr, "skill '%s' has no effect\n", rows[s].name);
        CU_ASSERT_TRUE(differs);
    }
    battle_plan_free(plan);
}

/* The catalog route filters by every skill of the game, and the game's skills and the
 * table's rows map to each other (BATTLE_SKILL_GAME_TABLE). */
static void test_catalog_filter(void)
{
    const struct job_catalog *cat = job_catalog_named("cards");
    const struct job_filter *f;

    CU_ASSERT_PTR_NOT_NULL_FATAL(cat);
    for (f = cat->filters; f->param && strcmp(f->param, "skill") != 0; f++)
        ;
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->param);
    CU_ASSERT_EQUAL_FATAL(f->n_words, BATTLE_TU_SKILL__COUNT);
    for (int w = 0; w < BATTLE_TU_SKILL__COUNT; w++) {
        enum battle_skill e = battle_tu_skill_engine(w);
        CU_ASSERT_STRING_EQUAL(f->word(w), battle_tu_skill_name(w));
        CU_ASSERT_FATAL(e < BATTLE_SKILL__COUNT);
        CU_ASSERT_STRING_EQUAL(battle_tu_skill_name(w), rows[e].name);
        CU_ASSERT_EQUAL(battle_tu_skill_of_engine(e), w);
        CU_ASSERT_EQUAL(battle_tu_skill_parse(rows[e].name), w);
    }
    for (int s = 0; s < BATTLE_SKILL__COUNT; s++) {
        int g = battle_tu_skill_of_engine((enum battle_skill)s);
        CU_ASSERT(g == -1 || battle_tu_skill_engine(g) == (enum battle_skill)s);
    }
}

/* Reads the source tree's file `rel` whole into a new string (sk_free) of *len bytes. */
static char *read_source(const char *rel, size_t *len)
{
    char path[4096];
    FILE *f;
    struct sk_buf b;
    char chunk[65536];
    size_t n;

    snprintf(path, sizeof(path), "%s/%s", SK_SOURCE_DIR, rel);
    f = fopen(path, "rb");
    if (!f)
        return NULL;
    sk_buf_init(&b, 0);
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        sk_buf_add(&b, chunk, n);
    (void)fclose(f); /* read only */
    *len = b.len;
    return sk_buf_take(&b);
}

/* The document's skill lists are the generator's (tools/skills_doc.c, the code `make
 * gen-skills` runs), and it is laid out as the generator writes it, so regenerating changes
 * only lists: a row added without regenerating fails here, saying the command. */
static void test_openapi_enums(void)
{
    size_t len = 0;
    char *text = read_source("openapi/openapi.json", &len);
    json_t *doc = text ? json_loadb(text, len, 0, NULL) : NULL;
    json_t *fresh = json_deep_copy(doc);
    struct sk_buf out;
    char err[1200] = "";
    int marked = -1, changed = -1;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fresh);
    sk_buf_init(&out, 0);
    CU_ASSERT_EQUAL(skills_doc_dump(doc, &out), SK_OK);
    if (out.len != len || memcmp(out.p, text, len) != 0) {
        fprintf(stderr, "openapi/openapi.json is not laid out as json.dumps(indent=1): run `%s`\n",
                SKILLS_DOC_REGEN);
        CU_FAIL("openapi/openapi.json's layout");
    }
    CU_ASSERT_EQUAL(skills_doc_update(fresh, &marked, &changed, err, sizeof(err)), SK_OK);
    if (err[0])
        fprintf(stderr, "openapi/openapi.json: %s\n", err);
    /* The card schema's names, its "s" and "s2", the catalog card's three and the filter. */
    CU_ASSERT_EQUAL(marked, 7);
    if (changed)
        fprintf(stderr, "openapi/openapi.json: %d skill lists differ from the table: run `%s`\n",
                changed, SKILLS_DOC_REGEN);
    CU_ASSERT_EQUAL(changed, 0);
    CU_ASSERT_TRUE(json_equal(doc, fresh));
    sk_buf_release(&out);
    json_decref(fresh);
    json_decref(doc);
    sk_free(text);
}

/* docs/jobs.md's skill table is the generator's. */
static void test_jobs_table(void)
{
    size_t len = 0;
    char *text = read_source("docs/jobs.md", &len);
    struct sk_buf out;

    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    sk_buf_init(&out, 0);
    CU_ASSERT_EQUAL(skills_doc_markdown(text, &out), SK_OK);
    if (!out.p || strcmp(out.p, text) != 0) {
        fprintf(stderr, "docs/jobs.md: the skill table differs from the table: run `%s`\n",
                SKILLS_DOC_REGEN);
        CU_FAIL("docs/jobs.md's skill table");
    }
    /* One line a row, between the header's two and the blank lines around it. */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "| `mortar` | activation | 1 .. 999, required | yes | "
                                        "y, n, c, trigger | any |\n"));
    CU_ASSERT_EQUAL(skills_doc_markdown("no markers\n", &out), SK_EINVAL);
    sk_buf_release(&out);
    sk_free(text);
}

/* The generator's rules on small documents: a marked enum becomes its list where it was, an
 * enum of skills without a mark or a mark naming no list is refused with its pointer. */
static void test_openapi_generator(void)
{
    json_t *doc =
        json_pack("{s:{s:s, s:s, s:[s], s:s}, s:{s:s, s:[]}}", "a/b", "type", "string", "x-skills",
                  "engine", "enum", "stale", "description", "d", "g", "x-skills", "game", "enum");
    json_t *bad = json_pack("{s:[{s:[s, s]}]}", "p", "enum", "x", "mortar");
    json_t *wrong = json_pack("{s:{s:s}}", "q", "x-skills", "table");
    char err[200] = "";
    int marked = 0, changed = 0;
    const char *key;
    json_t *v;
    int k = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_EQUAL(skills_doc_update(doc, &marked, &changed, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(marked, 2);
    CU_ASSERT_EQUAL(changed, 2);
    v = json_object_get(json_object_get(doc, "a/b"), "enum");
    CU_ASSERT_EQUAL(json_array_size(v), BATTLE_SKILL__COUNT);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(v, BATTLE_SKILL_MORTAR)), "mortar");
    v = json_object_get(json_object_get(doc, "g"), "enum");
    CU_ASSERT_EQUAL(json_array_size(v), BATTLE_TU_SKILL__COUNT);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(v, 2)), "mortar");
    json_object_foreach(json_object_get(doc, "a/b"), key, v)
    {
        /* "enum" kept its place, third of four */
        if (strcmp(key, "enum") == 0)
            CU_ASSERT_EQUAL(k, 2);
        k++;
    }
    CU_ASSERT_EQUAL(skills_doc_update(doc, &marked, &changed, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(changed, 0);
    CU_ASSERT_EQUAL(skills_doc_update(bad, &marked, &changed, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(err,
                           "/p/0: an enum of skills without \"x-skills\": \"engine\" or \"game\"");
    CU_ASSERT_EQUAL(skills_doc_update(wrong, &marked, &changed, err, sizeof(err)), SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(err, "/q: 'x-skills' must be \"engine\" or \"game\"");
    json_decref(doc);
    json_decref(bad);
    json_decref(wrong);
}

/* The generator writes what json.dumps(v, indent=1) writes (Python's outputs, pasted). */
static void test_openapi_layout(void)
{
    json_t *v = json_pack("{s:[f,f,f,f,f,f,f,f,f,f,f,f], s:{}, s:[], s:[i, b, n], s:s}", "r", 0.842,
                          5124.7, 50.0, 1e-05, 1e16, 0.0001, 1e15, -0.0, 0.060993754559283325,
                          123456789012345680.0, 1.5e-300, 0.1, "o", "a", "m", -7, 1, "s",
                          "q\"\\\n\t\x01\x7f\xc3\xa9\xf0\x9f\x98\x80/");
    struct sk_buf out;

    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    sk_buf_init(&out, 0);
    CU_ASSERT_EQUAL(skills_doc_dump(v, &out), SK_OK);
    CU_ASSERT_STRING_EQUAL(out.p,
                           "{\n \"r\": [\n  0.842,\n  5124.7,\n  50.0,\n  1e-05,\n  1e+16,\n"
                           "  0.0001,\n  1000000000000000.0,\n  -0.0,\n"
                           "  0.060993754559283325,\n  1.2345678901234568e+17,\n"
                           "  1.5e-300,\n  0.1\n ],\n \"o\": {},\n \"a\": [],\n"
                           " \"m\": [\n  -7,\n  true,\n  null\n ],\n"
                           " \"s\": \"q\\\"\\\\\\n\\t\\u0001\\u007f\\u00e9\\ud83d\\ude00/\"\n"
                           "}\n");
    sk_buf_release(&out);
    json_decref(v);
}

static int setup(void)
{
    sk_mem_init_json();
    return 0;
}

static CU_TestInfo skill_tests[] = {
    {"names and options follow the table", test_names},
    {"the plan folds each row as its kind says", test_folding},
    {"every skill changes the games", test_every_skill_has_an_effect},
    {"the catalog filter offers every skill", test_catalog_filter},
    {"the OpenAPI skill lists are the generator's", test_openapi_enums},
    {"docs/jobs.md's skill table is the generator's", test_jobs_table},
    {"the generator rewrites marked lists, refuses unmarked ones", test_openapi_generator},
    {"the generator lays out JSON as json.dumps(indent=1)", test_openapi_layout},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_skills_suites[] = {
    {"battle_skills", setup, NULL, NULL, NULL, skill_tests},
    CU_SUITE_INFO_NULL,
};
