/* SPDX-License-Identifier: MIT */
/* The importer of the game's card files (battle_tu) against the real snapshot in
 * ../shared/data/tu (never copied into the repository; $SKIRMISH_TEST_TU_DIR overrides):
 * counts, exact cards at several levels, names of levels and of duplicate names, types from
 * id ranges, skill options, the notes with file and line on the real files and on small
 * malformed files written here, and what the engine refuses to simulate. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "battle_cards.h"
#include "battle_catalog.h"
#include "battle_tu.h"
#include "sk_mem.h"
#include "sk_test_main.h"

#include "sk_banned.h"

const char *tu_test_dir(void);
enum sk_err tu_test_catalog(struct battle_catalog **out);

/* The snapshot of the game's files: $SKIRMISH_TEST_TU_DIR, else ../shared/data/tu next to
 * the source tree (where CI has it). */
const char *tu_test_dir(void)
{
    static char path[4096];
    const char *env = getenv("SKIRMISH_TEST_TU_DIR");
    if (env && *env)
        return env;
    snprintf(path, sizeof(path), "%s/../shared/data/tu", SK_SOURCE_DIR);
    return path;
}

/* The catalog of tu_test_dir(), loaded as the services load it: the variable is set for
 * this load only, as other suites use the built-in catalog. Prints why it failed. */
enum sk_err tu_test_catalog(struct battle_catalog **out)
{
    char err[512] = "";
    enum sk_err rc;

    setenv(BATTLE_TU_ENV_DIR, tu_test_dir(), 1);
    rc = battle_catalog_load(out, err, sizeof(err));
    unsetenv(BATTLE_TU_ENV_DIR);
    if (rc)
        fprintf(stderr, "battle_catalog_load(%s): %s\n", tu_test_dir(), err);
    return rc;
}

static struct battle_tu_data real;
static struct sk_verr_list real_notes;

static int setup(void)
{
    char err[512] = "";
    sk_verr_list_init(&real_notes);
    if (battle_tu_load(tu_test_dir(), &real, &real_notes, err, sizeof(err)) != SK_OK) {
        fprintf(stderr, "battle_tu_load(%s): %s\n", tu_test_dir(), err);
        return 1;
    }
    return 0;
}

static int teardown(void)
{
    battle_tu_data_release(&real);
    sk_verr_list_release(&real_notes);
    return 0;
}

static const struct battle_card_spec *by_name(const char *name)
{
    for (size_t i = 0; i < real.n_cards; i++)
        if (strcmp(real.cards[i].name, name) == 0)
            return &real.cards[i];
    return NULL;
}

static const struct battle_card_spec *by_id(int id)
{
    for (size_t i = 0; i < real.n_cards; i++)
        if (real.cards[i].id == id)
            return &real.cards[i];
    return NULL;
}

static void test_counts(void)
{
    int types[BATTLE_CARD_TYPE__COUNT] = {0}, dominions = 0;
    /* 9,024 units with 45,501 upgrades in the snapshot (python's ElementTree agrees), less
     * the two cards whose ids a later section gives again (drop_redefined: 19998, 19999). */
    CU_ASSERT_EQUAL(real.n_cards, 54523);
    CU_ASSERT_EQUAL(real.n_sections, 21);
    CU_ASSERT_EQUAL(real.n_recipes, 4999);
    for (size_t i = 0; i < real.n_cards; i++) {
        types[real.cards[i].type]++;
        dominions += real.cards[i].dominion;
    }
    CU_ASSERT(types[BATTLE_COMMANDER] > 100);
    CU_ASSERT(types[BATTLE_ASSAULT] > 30000);
    CU_ASSERT(types[BATTLE_STRUCTURE] > 1000);
    CU_ASSERT(types[BATTLE_FORTRESS] > dominions);
    CU_ASSERT(dominions > 10);
    CU_ASSERT(real.hash != 0);
}

/* Bazooka Marine (ids 4, 350, 351): level 1 "Bazooka Marine-1", top "Bazooka Marine". */
static void test_levels_exact(void)
{
    const struct battle_card_spec *l1 = by_name("Bazooka Marine-1");
    const struct battle_card_spec *l2 = by_name("Bazooka Marine-2");
    const struct battle_card_spec *top = by_name("Bazooka Marine");

    CU_ASSERT_PTR_NOT_NULL_FATAL(l1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(top);
    CU_ASSERT_PTR_NULL(by_name("Bazooka Marine-3"));
    CU_ASSERT_EQUAL(l1->id, 4);
    CU_ASSERT_EQUAL(l1->level, 1);
    CU_ASSERT_EQUAL(l1->attack, 3);
    CU_ASSERT_EQUAL(l1->health, 9);
    CU_ASSERT_EQUAL(l1->delay, 1);
    CU_ASSERT_EQUAL(l1->type, BATTLE_ASSAULT);
    CU_ASSERT_EQUAL(l1->faction, 1);
    CU_ASSERT_EQUAL(l1->rarity, 1);
    CU_ASSERT_EQUAL(l1->set, 1000);
    CU_ASSERT_EQUAL(l1->n_skills, 1);
    CU_ASSERT_EQUAL(l1->skills[0].id, BATTLE_SKILL_PIERCE);
    CU_ASSERT_EQUAL(l1->skills[0].x, 5);
    CU_ASSERT_EQUAL(l2->id, 350);
    CU_ASSERT_EQUAL(l2->attack, 5);
    CU_ASSERT_EQUAL(l2->skills[0].x, 7);
    CU_ASSERT_EQUAL(l2->delay, 1); /* inherited from level 1 */
    CU_ASSERT_EQUAL(top->id, 351);
    CU_ASSERT_EQUAL(top->level, 3);
    CU_ASSERT_EQUAL(top->n_levels, 3);
    CU_ASSERT_EQUAL(top->attack, 6);
    CU_ASSERT_EQUAL(top->health, 18);
    CU_ASSERT_EQUAL(top->skills[0].x, 10);
    CU_ASSERT_EQUAL(top->fusion_level, 0); /* a base card: the unit has no <fusion_level> */
    /* the game's <fusion_level>, on every level of a unit: Xeno Overlord (id 462) a dual
     * fusion, Demi Constrictor (5938) a quad */
    CU_ASSERT_PTR_NOT_NULL_FATAL(by_name("Xeno Overlord"));
    CU_ASSERT_EQUAL(by_name("Xeno Overlord")->fusion_level, 1);
    CU_ASSERT_EQUAL(by_name("Xeno Overlord-1")->fusion_level, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(by_name("Demi Constrictor"));
    CU_ASSERT_EQUAL(by_name("Demi Constrictor")->fusion_level, 2);
    CU_ASSERT_EQUAL(by_name("Demi Constrictor-1")->fusion_level, 2);
    CU_ASSERT_EQUAL(by_name("Carbine")->fusion_level, 0);
    CU_ASSERT_EQUAL(top->level_ids[0], 4);
    CU_ASSERT_EQUAL(top->level_ids[1], 350);
    CU_ASSERT_EQUAL(top->level_ids[2], 351);
}

/* Dreadnaught (6, 7, 8): "armored" is Armor; level 2 adds "besiege" (Mortar), which the
 * engine does not simulate; Medic's level 3 keeps level 2's attack. */
static void test_inheritance_and_skill_names(void)
{
    const struct battle_card_spec *d1 = by_id(6), *d2 = by_id(7), *m3 = by_id(353);
    char why[128];

    CU_ASSERT_PTR_NOT_NULL_FATAL(d1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m3);
    CU_ASSERT_STRING_EQUAL(d1->name, "Dreadnaught-1");
    CU_ASSERT_EQUAL(d1->n_skills, 1);
    CU_ASSERT_EQUAL(d1->skills[0].id, BATTLE_SKILL_ARMOR);
    CU_ASSERT_EQUAL(d1->skills[0].x, 4);
    CU_ASSERT_FALSE(battle_tu_unsupported(d1, why, sizeof(why)));
    CU_ASSERT_EQUAL(d2->n_skills, 2);
    CU_ASSERT_EQUAL(d2->skills[1].id, BATTLE_SKILL_MORTAR); /* the files' "besiege" */
    CU_ASSERT_STRING_EQUAL(battle_tu_skill_name(d2->skills[1].game), "mortar");
    CU_ASSERT_EQUAL(d2->skills[1].x, 6);
    CU_ASSERT_FALSE(battle_tu_unsupported(d2, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(m3->name, "Medic");
    CU_ASSERT_EQUAL(m3->attack, 3);
    CU_ASSERT_EQUAL(m3->health, 19);
}

/* Types from id ranges: commanders 1000..1999 and 25000..29999, fortresses (set 8000 and
 * 2700..2996), alpha dominions 50001..55000. */
static void test_types(void)
{
    int commanders = 0, forts = 0, doms = 0;
    for (size_t i = 0; i < real.n_cards; i++) {
        const struct battle_card_spec *c = &real.cards[i];
        if (c->level != 1)
            continue;
        if (c->id >= 1000 && c->id < 2000) {
            CU_ASSERT_EQUAL(c->type, BATTLE_COMMANDER);
            commanders++;
        }
        if (c->set == 8000) {
            CU_ASSERT_EQUAL(c->type, BATTLE_FORTRESS);
            forts++;
        }
        if (c->id > 50000 && c->id <= 55000) {
            CU_ASSERT_EQUAL(c->type, BATTLE_FORTRESS);
            CU_ASSERT_EQUAL(c->dominion, 1);
            doms++;
        }
    }
    CU_ASSERT(commanders > 0 && forts > 0 && doms > 0);
}

/* The sets skills_set.xml hides from players (5000, 6000, 8000, 9500, 9999 in the
 * snapshot) mark their cards hidden_set: Shatterjaw (set 9500, summoned), Harrigan Sire
 * (6000, event missions' cards), Tesla Coil (8000, a fortress); a box card (3000) and a
 * standard one (1000) are not. Every card of those five sets, and only they, are. */
static void test_hidden_sets(void)
{
    static const char *const hidden[] = {"Shatterjaw", "Harrigan Sire", "Tesla Coil"};
    size_t n_hidden = 0;

    for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++) {
        const struct battle_card_spec *c = by_name(hidden[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        CU_ASSERT_EQUAL(c->hidden_set, 1);
    }
    for (size_t i = 0; i < real.n_cards; i++) {
        const struct battle_card_spec *c = &real.cards[i];
        int s = c->set;
        CU_ASSERT_EQUAL(c->hidden_set,
                        s == 5000 || s == 6000 || s == 8000 || s == 9500 || s == 9999);
        n_hidden += (size_t)c->hidden_set;
    }
    CU_ASSERT(n_hidden > 1000);
}

/* Options survive the import: some skill has each of y, n, c, all, s, trigger, card_id. */
static void test_options_kept(void)
{
    int y = 0, n = 0, c = 0, all = 0, s = 0, s2 = 0, trig[4] = {0}, summon = 0;
    for (size_t i = 0; i < real.n_cards; i++) {
        for (int k = 0; k < real.cards[i].n_skills; k++) {
            const struct battle_skill_spec *sk = &real.cards[i].skills[k];
            y += sk->y > 0;
            n += sk->n > 0;
            c += sk->c > 0;
            all += sk->all;
            s += sk->s > 0;
            s2 += sk->s2 > 0;
            trig[sk->trigger]++;
            summon += sk->card_id > 0;
            CU_ASSERT(sk->game >= 0 && sk->game < BATTLE_TU_SKILL__COUNT);
        }
    }
    CU_ASSERT(y > 1000 && n > 100 && c > 1000 && all > 1000 && s > 100 && s2 > 100);
    CU_ASSERT(trig[1] > 0 && trig[2] > 0 && trig[3] > 0 && summon > 0);
}

/* Two units named alike: the later one's names carry its id. */
static void test_duplicate_names_unique(void)
{
    size_t bracketed = 0;
    for (size_t i = 0; i < real.n_cards; i++)
        bracketed += strchr(real.cards[i].name, '[') != NULL;
    CU_ASSERT(bracketed > 0);
    CU_ASSERT(bracketed < real.n_cards / 10);
}

/* The real files have notes: the two 'a2ll' attributes at their lines, and levels.xml. */
static const char *find_note(const struct sk_verr_list *l, const char *where, const char *what);

static void test_real_notes(void)
{
    int a2ll = 0, levels = 0;
    for (size_t i = 0; i < real_notes.n; i++) {
        const struct sk_verr *e = &real_notes.items[i];
        if (strstr(e->message, "'a2ll'")) {
            a2ll++;
            CU_ASSERT(strcmp(e->pointer, "cards_section_1.xml:19579") == 0 ||
                      strcmp(e->pointer, "cards_section_1.xml:19591") == 0);
        }
        if (strncmp(e->pointer, "levels.xml", 10) == 0) {
            levels++;
            CU_ASSERT_PTR_NOT_NULL(strstr(e->message, "not the game's levels file"));
        }
    }
    CU_ASSERT_EQUAL(a2ll, 2);
    CU_ASSERT_EQUAL(levels, 1);
    /* Test Dis Structure's ids are Observation Axis' levels 3 and 4 in section 21. */
    CU_ASSERT_PTR_NOT_NULL(find_note(&real_notes, "cards_section_8.xml",
                                     "card id 19998 (\"Test Dis Structure-1\") is defined again "
                                     "in cards_section_21.xml (\"Observation Axis-3\")"));
    for (size_t i = 0; i < real.n_cards; i++)
        if (real.cards[i].id == 19998)
            CU_ASSERT_STRING_EQUAL(real.cards[i].name, "Observation Axis-3");
}

/* ===== Small folders written by the test ===== */

static char tmpdir[256];

static void write_file(const char *name, const char *text)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
    f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static void remove_dir(void)
{
    const char *names[] = {"cards_section_1.xml",   "cards_section_2.xml", "cards_section_3.xml",
                           "cards_section_5.xml",   "skills_set.xml",      "levels.xml",
                           "fusion_recipes_cj2.xml"};
    char path[512];
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
        unlink(path);
    }
    rmdir(tmpdir);
}

static void make_dir(void)
{
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/sk_tu_test_%d", (int)getpid());
    remove_dir();
    CU_ASSERT_EQUAL_FATAL(mkdir(tmpdir, 0700), 0);
}

static const char *find_note(const struct sk_verr_list *l, const char *where, const char *what)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].pointer, where) == 0 && strstr(l->items[i].message, what))
            return l->items[i].message;
    return NULL;
}

/* Malformed records are noted at their file and line and kept or left out as said. */
static void test_malformed_records(void)
{
    struct battle_tu_data d;
    struct sk_verr_list notes;
    char err[512] = "";

    make_dir();
    write_file("cards_section_1.xml", "<root>\n"
                                      "<unit>\n"
                                      "  <id>3001</id><name>Good</name><attack>2</attack>\n"
                                      "  <health>x7</health><cost>1</cost><type>2</type>\n"
                                      "  <skill id=\"teleport\" x=\"2\"/>\n"
                                      "  <skill id=\"strike\" x=\"2\" zz=\"1\"/>\n"
                                      "  <sparkle>1</sparkle>\n"
                                      "  <upgrade><level>2</level><card_id>3002</card_id>\n"
                                      "    <health>9</health></upgrade>\n"
                                      "</unit>\n"
                                      "<unit>\n"
                                      "  <name>No Id</name>\n"
                                      "</unit>\n"
                                      "</root>\n");
    write_file("levels.xml", "<html><body>301</body></html>\n");
    sk_verr_list_init(&notes);
    memset(&d, 0, sizeof(d));
    CU_ASSERT_EQUAL_FATAL(battle_tu_load(tmpdir, &d, &notes, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(d.n_cards, 2);
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "cards_section_1.xml:4", "'x7' is not an integer"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "cards_section_1.xml:5", "unknown skill 'teleport'"));
    CU_ASSERT_PTR_NOT_NULL(
        find_note(&notes, "cards_section_1.xml:6", "unknown skill attribute 'zz'"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "cards_section_1.xml:7", "unknown element <sparkle>"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "cards_section_1.xml:11", "a unit without"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "levels.xml:1", "root element <html>"));
    CU_ASSERT_PTR_NOT_NULL(find_note(&notes, "skills_set.xml", "no skills_set.xml"));
    if (d.n_cards == 2) {
        char why[128];
        CU_ASSERT_STRING_EQUAL(d.cards[0].name, "Good-1");
        CU_ASSERT_STRING_EQUAL(d.cards[1].name, "Good");
        CU_ASSERT_EQUAL(d.cards[0].health, 0);
        CU_ASSERT_EQUAL(d.cards[1].health, 9);
        CU_ASSERT_EQUAL(d.cards[0].faction, 2);
        /* the unknown skill is kept, so a job with the card is refused */
        CU_ASSERT_EQUAL(d.cards[1].n_skills, 2);
        CU_ASSERT_TRUE(battle_tu_unsupported(&d.cards[1], why, sizeof(why)));
        CU_ASSERT_STRING_EQUAL(why, "skill 'unknown' is not simulated yet");
    }
    battle_tu_data_release(&d);
    sk_verr_list_release(&notes);
    remove_dir();
}

/* hidden_set follows skills_set.xml when there is one (set 4000 shown, 4100 hidden: the
 * file's word, whatever the set's number), else the sets it hid in the snapshot (5000,
 * 6000, 8000, 9500, 9999): A of set 4000, B of 4100, C of 9500. */
static void test_hidden_sets_files(void)
{
    static const char *const cards =
        "<root>\n"
        "<unit><id>40001</id><name>A</name><set>4000</set><attack>1</attack>"
        "<health>1</health><cost>1</cost></unit>\n"
        "<unit><id>40002</id><name>B</name><set>4100</set><attack>1</attack>"
        "<health>1</health><cost>1</cost></unit>\n"
        "<unit><id>40003</id><name>C</name><set>9500</set><attack>1</attack>"
        "<health>1</health><cost>1</cost></unit>\n"
        "</root>\n";
    struct battle_tu_data d;
    struct sk_verr_list notes;
    char err[512] = "";

    for (int with_sets = 0; with_sets < 2; with_sets++) {
        make_dir();
        write_file("cards_section_1.xml", cards);
        if (with_sets)
            write_file("skills_set.xml", "<root>\n"
                                         "<cardSet><id>4000</id><visible>1</visible></cardSet>\n"
                                         "<cardSet><id>4100</id><visible>0</visible></cardSet>\n"
                                         "<cardSet><id>9500</id><visible>1</visible></cardSet>\n"
                                         "</root>\n");
        sk_verr_list_init(&notes);
        memset(&d, 0, sizeof(d));
        CU_ASSERT_EQUAL_FATAL(battle_tu_load(tmpdir, &d, &notes, err, sizeof(err)), SK_OK);
        CU_ASSERT_EQUAL_FATAL(d.n_cards, 3);
        CU_ASSERT_EQUAL(d.cards[0].hidden_set, 0);
        CU_ASSERT_EQUAL(d.cards[1].hidden_set, with_sets ? 1 : 0);
        CU_ASSERT_EQUAL(d.cards[2].hidden_set, with_sets ? 0 : 1);
        battle_tu_data_release(&d);
        sk_verr_list_release(&notes);
        remove_dir();
    }
}

/* A file that is not well-formed stops the import with its file and line. */
static void test_not_well_formed(void)
{
    struct battle_tu_data d;
    struct sk_verr_list notes;
    char err[512] = "";

    make_dir();
    write_file("cards_section_1.xml", "<root>\n<unit><id>1</id><name>A</name></unit>\n</root>\n");
    write_file("cards_section_2.xml", "<root>\n<unit>\n<id>2</id>\n</root>\n");
    sk_verr_list_init(&notes);
    memset(&d, 0, sizeof(d));
    CU_ASSERT_EQUAL(battle_tu_load(tmpdir, &d, &notes, err, sizeof(err)), SK_EINVAL);
    if (!strstr(err, "/cards_section_2.xml:4: "))
        fprintf(stderr, "err: %s\n", err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/cards_section_2.xml:4: "));
    sk_verr_list_release(&notes);
    remove_dir();

    /* no cards_section_1.xml at all, and a folder that is not there */
    make_dir();
    sk_verr_list_init(&notes);
    CU_ASSERT_EQUAL(battle_tu_load(tmpdir, &d, &notes, err, sizeof(err)), SK_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cards_section_1.xml: no such file"));
    remove_dir();
    CU_ASSERT_EQUAL(battle_tu_load(tmpdir, &d, &notes, err, sizeof(err)), SK_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "No such file"));
    sk_verr_list_release(&notes);
}

/* A section past a gap in the numbers is not read, and a note says which and why (before,
 * cards_section_5.xml without a section 4 was dropped without a word). */
static void test_section_gap_noted(void)
{
    struct battle_tu_data d;
    struct sk_verr_list notes;
    char err[512] = "";
    const char *n3, *n5;

    make_dir();
    write_file("cards_section_1.xml", "<root>\n<unit><id>1</id><name>A</name></unit>\n</root>\n");
    write_file("cards_section_3.xml", "<root>\n<unit><id>3</id><name>C</name></unit>\n</root>\n");
    write_file("cards_section_5.xml", "<root>\n<unit><id>5</id><name>E</name></unit>\n</root>\n");
    sk_verr_list_init(&notes);
    memset(&d, 0, sizeof(d));
    CU_ASSERT_EQUAL_FATAL(battle_tu_load(tmpdir, &d, &notes, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(d.n_sections, 1);
    CU_ASSERT_EQUAL(d.n_cards, 1);
    n3 = find_note(&notes, "cards_section_3.xml", "not read");
    n5 = find_note(&notes, "cards_section_5.xml", "not read");
    CU_ASSERT_PTR_NOT_NULL(n3);
    CU_ASSERT_PTR_NOT_NULL(n5);
    if (n5)
        CU_ASSERT_PTR_NOT_NULL(strstr(n5, "cards_section_2.xml is missing"));
    battle_tu_data_release(&d);
    sk_verr_list_release(&notes);
    remove_dir();
}

/* An id given twice: the card read later keeps it, the earlier is left out with a note
 * (here level 2 of A, whose id section 2 gives to B). */
static void test_redefined_id(void)
{
    struct battle_tu_data d;
    struct sk_verr_list notes;
    char err[512] = "";
    const char *n;

    make_dir();
    write_file("cards_section_1.xml",
               "<root>\n<unit><id>1</id><name>A</name><health>5</health>\n"
               "<upgrade><level>2</level><card_id>2</card_id></upgrade></unit>\n</root>\n");
    write_file("cards_section_2.xml",
               "<root>\n<unit><id>2</id><name>B</name><health>7</health></unit>\n</root>\n");
    sk_verr_list_init(&notes);
    memset(&d, 0, sizeof(d));
    CU_ASSERT_EQUAL_FATAL(battle_tu_load(tmpdir, &d, &notes, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL_FATAL(d.n_cards, 2);
    for (size_t i = 0; i < d.n_cards; i++) {
        if (d.cards[i].id == 2) {
            CU_ASSERT_STRING_EQUAL(d.cards[i].name, "B");
            CU_ASSERT_EQUAL(d.cards[i].health, 7);
        } else {
            CU_ASSERT_EQUAL(d.cards[i].id, 1);
            CU_ASSERT_STRING_EQUAL(d.cards[i].name, "A-1");
        }
    }
    n = find_note(&notes, "cards_section_1.xml", "card id 2 (\"A\") is defined again");
    CU_ASSERT_PTR_NOT_NULL(n);
    if (n)
        CU_ASSERT_PTR_NOT_NULL(strstr(n, "in cards_section_2.xml (\"B\")"));
    battle_tu_data_release(&d);
    sk_verr_list_release(&notes);
    remove_dir();
}

/* Options and triggers the engine does not play are refused with their name. */
static void test_unsupported_options(void)
{
    struct battle_card_spec c;
    char why[128];

    memset(&c, 0, sizeof(c));
    c.type = BATTLE_ASSAULT;
    c.health = 10;
    c.n_skills = 1;
    c.skills[0].id = BATTLE_SKILL_JAM;
    CU_ASSERT_FALSE(battle_tu_unsupported(&c, why, sizeof(why)));
    c.skills[0].c = 2; /* cooldowns, faction filters, target counts, triggers: played */
    c.skills[0].y = 3;
    c.skills[0].n = 2;
    c.skills[0].trigger = 3;
    CU_ASSERT_FALSE(battle_tu_unsupported(&c, why, sizeof(why)));
    c.skills[0].c = 16;
    CU_ASSERT_TRUE(battle_tu_unsupported(&c, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(why, "skill 'jam' n=2 c=16: the engine plays n up to 10, c up to 15");
    c.skills[0].c = 0;
    c.skills[0].s = 5; /* skill arguments: Enhance's and Evolve's only */
    CU_ASSERT_TRUE(battle_tu_unsupported(&c, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(why, "skill 'jam' takes no skill arguments ('s', 's2')");
    c.skills[0] =
        (struct battle_skill_spec){.id = BATTLE_SKILL_EVOLVE,
                                   .s = 1 + battle_tu_skill_of_engine(BATTLE_SKILL_HEAL),
                                   .s2 = 1 + battle_tu_skill_of_engine(BATTLE_SKILL_ARMOR)};
    CU_ASSERT_TRUE(battle_tu_unsupported(&c, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(
        why, "skill 'evolve' of an activation skill into a passive one is not simulated");
    c.skills[0].s2 = 1 + battle_tu_skill_of_engine(BATTLE_SKILL_PROTECT);
    CU_ASSERT_FALSE(battle_tu_unsupported(&c, why, sizeof(why)));
    c.skills[0] = (struct battle_skill_spec){.id = BATTLE_SKILL_ARMOR, .x = 2, .trigger = 3};
    CU_ASSERT_TRUE(battle_tu_unsupported(&c, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(why, "skill 'armor' on death is not simulated yet");
    c.skills[0] = (struct battle_skill_spec){.id = BATTLE_SKILL_SUMMON};
    CU_ASSERT_TRUE(battle_tu_unsupported(&c, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(why, "skill 'summon' names no card_id");
    c.skills[0] = (struct battle_skill_spec){.id = BATTLE_SKILL_JAM};
    c.health = 1200;
    CU_ASSERT_TRUE(battle_tu_unsupported(&c, why, sizeof(why)));
    c.health = 0; /* the files' dialogue commanders have no health */
    CU_ASSERT_TRUE(battle_tu_unsupported(&c, why, sizeof(why)));
    CU_ASSERT_STRING_EQUAL(why, "health 0, attack 0: the engine plays health 1 to 999 and attack "
                                "0 to 999");
    CU_ASSERT_STRING_EQUAL(battle_tu_skill_name(battle_tu_skill_parse("besiege")), "mortar");
    CU_ASSERT_STRING_EQUAL(battle_tu_skill_name(battle_tu_skill_parse("armored")), "armor");
    CU_ASSERT_EQUAL(battle_tu_skill_engine(battle_tu_skill_parse("armor")), BATTLE_SKILL_ARMOR);
    CU_ASSERT_EQUAL(battle_tu_skill_of_engine(BATTLE_SKILL_FLURRY),
                    battle_tu_skill_parse("flurry"));
}

static CU_TestInfo real_tests[] = {
    {"counts", test_counts},
    {"levels exact", test_levels_exact},
    {"inheritance and skill names", test_inheritance_and_skill_names},
    {"types from id ranges", test_types},
    {"options kept", test_options_kept},
    {"duplicate names unique", test_duplicate_names_unique},
    {"notes on the real files", test_real_notes},
    {"cards of the sets hidden from players", test_hidden_sets},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo file_tests[] = {
    {"malformed records noted with file and line", test_malformed_records},
    {"not well-formed XML stops the import", test_not_well_formed},
    {"a section past a gap is noted, not read", test_section_gap_noted},
    {"an id given twice: the card read later keeps it", test_redefined_id},
    {"unsupported options refused", test_unsupported_options},
    {"hidden sets: skills_set.xml's word, else the snapshot's", test_hidden_sets_files},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_tu_suites[] = {
    {"battle_tu_real", setup, teardown, NULL, NULL, real_tests},
    {"battle_tu_files", NULL, NULL, NULL, NULL, file_tests},
    CU_SUITE_INFO_NULL,
};
