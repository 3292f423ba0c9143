/* SPDX-License-Identifier: MIT */
/* Named decks (customdecks.txt) and card abbreviations (cardabbrs.txt), as the peer reads
 * them: the files' lines and notes, lookup by simplified name, expansion of a named deck
 * into the decks it stands for (a deck string, a weighted list, a regular expression, lists
 * of lists; cycles and limits refused), and through a job on the game's folder: a named
 * deck as the attacker, a named list as the defender, an abbreviation in a deck string,
 * the did-you-mean of a misspelt named deck. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "battle_catalog.h"
#include "battle_codec.h"
#include "battle_named.h"
#include "job.h"
#include "sk_mem.h"
#include "sk_test_cards.h"

#include "sk_banned.h"

/* Writes `text` as `dir`/`name`. */
static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static const char decks_txt[] = "// the peer's format\n"
                                "Mine: Octane-1, Grunt#2\n"
                                "Theirs:Malika-1, Dread Panzer#2,\n"
                                "Pair: Mine:1;Theirs:3\n"
                                "Both: /^(Mine|Theirs)$/\n"
                                "Alias: Mine\n"
                                "Loop: Loop2\n"
                                "Loop2: Loop\n"
                                "Nothing: /^Nobody$/\n"
                                "Bad: Mine:-1;Theirs\n"
                                "no colon here\n"
                                "mine: Octane-1, Grunt#3\n";

static void test_load_and_expand(void)
{
    char dir[] = "/tmp/sk-named-XXXXXX";
    struct battle_named n;
    struct sk_verr_list notes;
    struct battle_named_part parts[16];
    uint64_t hash = 1;
    char err[256], why[256];
    const struct battle_named_entry *e;
    int k;

    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    write_file(dir, BATTLE_NAMED_DECKS_FILE, decks_txt);
    write_file(dir, BATTLE_NAMED_ABBRS_FILE, "CS: Corrosive Spore\nhalcyon++: Imperator Halcyon\n");
    sk_verr_list_init(&notes);
    CU_ASSERT_EQUAL_FATAL(battle_named_load(dir, &n, &hash, &notes, err, sizeof(err)), SK_OK);
    CU_ASSERT_NOT_EQUAL(hash, 1);  /* the files are part of the catalog's hash */
    CU_ASSERT_EQUAL(n.decks.n, 9); /* 11 entries, "mine" overrides "Mine" */
    CU_ASSERT_EQUAL(n.abbrs.n, 2);
    CU_ASSERT_EQUAL(notes.n, 2); /* the line without a colon, the name given twice */
    e = battle_named_find(&n.decks, "MINE");
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(e->text, "Octane-1, Grunt#3"); /* the later line wins */
    CU_ASSERT_EQUAL(e->line, 12);
    CU_ASSERT_STRING_EQUAL(battle_named_find(&n.abbrs, "cs")->text, "Corrosive Spore");

    /* a deck string that names nothing stands for itself */
    k = battle_named_expand(&n, "Octane-1, Grunt", parts, 16, why, sizeof(why));
    CU_ASSERT_EQUAL_FATAL(k, 1);
    CU_ASSERT_STRING_EQUAL(parts[0].text, "Octane-1, Grunt");
    CU_ASSERT_PTR_NULL(parts[0].from);
    battle_named_parts_release(parts, k);
    /* a name stands for its deck string; an alias for its deck's */
    k = battle_named_expand(&n, "Alias", parts, 16, why, sizeof(why));
    CU_ASSERT_EQUAL_FATAL(k, 1);
    CU_ASSERT_STRING_EQUAL(parts[0].text, "Octane-1, Grunt#3");
    CU_ASSERT_STRING_EQUAL(parts[0].from, "mine");
    CU_ASSERT_DOUBLE_EQUAL(parts[0].weight, 1.0, 1e-12);
    battle_named_parts_release(parts, k);
    /* factors are shares */
    k = battle_named_expand(&n, "pair", parts, 16, why, sizeof(why));
    CU_ASSERT_EQUAL_FATAL(k, 2);
    CU_ASSERT_STRING_EQUAL(parts[0].from, "mine");
    CU_ASSERT_DOUBLE_EQUAL(parts[0].weight, 0.25, 1e-12);
    CU_ASSERT_STRING_EQUAL(parts[1].from, "Theirs");
    CU_ASSERT_DOUBLE_EQUAL(parts[1].weight, 0.75, 1e-12);
    battle_named_parts_release(parts, k);
    /* an expression over the names as written (case counts, as in the peer): equal shares */
    k = battle_named_expand(&n, "Both", parts, 16, why, sizeof(why));
    CU_ASSERT_EQUAL_FATAL(k, 1); /* "mine" is written in lower case now */
    CU_ASSERT_STRING_EQUAL(parts[0].from, "Theirs");
    battle_named_parts_release(parts, k);
    /* refused: a cycle, an expression matching nothing, a bad factor, too many decks */
    CU_ASSERT_EQUAL(battle_named_expand(&n, "Loop", parts, 16, why, sizeof(why)), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "names itself"));
    CU_ASSERT_EQUAL(battle_named_expand(&n, "Nothing", parts, 16, why, sizeof(why)), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "matches no named deck"));
    CU_ASSERT_EQUAL(battle_named_expand(&n, "Bad", parts, 16, why, sizeof(why)), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "factor"));
    CU_ASSERT_EQUAL(battle_named_expand(&n, "Pair", parts, 1, why, sizeof(why)), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "more than 1 decks"));

    battle_named_release(&n);
    sk_verr_list_release(&notes);
    write_file(dir, BATTLE_NAMED_DECKS_FILE, ""); /* then removed with the folder */
    {
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", dir, BATTLE_NAMED_DECKS_FILE);
        unlink(path);
        snprintf(path, sizeof(path), "%s/%s", dir, BATTLE_NAMED_ABBRS_FILE);
        unlink(path);
        CU_ASSERT_EQUAL(rmdir(dir), 0);
    }
}

/* Decodes `text` against the game's folder: SK_OK, or the first problem into `at`/`msg`. */
static enum sk_err decode_real(const struct battle_catalog *cat, const char *text,
                               struct battle_mix *mix, char *at, char *msg)
{
    json_t *params = json_loads(text, 0, NULL);
    struct sk_verr_list errs;
    struct sk_jptr ptr;
    enum sk_err rc;

    CU_ASSERT_PTR_NOT_NULL_FATAL(params);
    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    rc = battle_codec_decode_mix(params, 7, cat, &ptr, &errs, mix);
    snprintf(at, 128, "%s", errs.n ? errs.items[0].pointer : "");
    snprintf(msg, 512, "%s", errs.n ? errs.items[0].message : "");
    sk_verr_list_release(&errs);
    json_decref(params);
    return rc;
}

static void test_named_decks_in_jobs(void)
{
    struct battle_catalog *cat = NULL;
    struct battle_mix mix;
    char err[512], at[128], msg[512];

    CU_ASSERT_EQUAL_FATAL(battle_catalog_load_dir(SK_TEST_TU_DIR, &cat, err, sizeof(err)), SK_OK);
    /* a named deck as the attacker; a named list (5 decks by a regular expression) as the
     * defender, each a fifth of the games */
    CU_ASSERT_EQUAL_FATAL(
        decode_real(cat, "{\"games\": 100, \"attacker\": \"Bug00_02\", \"defender\": \"bug62\"}",
                    &mix, at, msg),
        SK_OK);
    CU_ASSERT_EQUAL(mix.n, 5);
    CU_ASSERT_TRUE(mix.weighted);
    for (int k = 0; k < mix.n; k++)
        CU_ASSERT_DOUBLE_EQUAL(mix.weights[k], 0.2, 1e-12);
    battle_codec_mix_release(&mix);
    /* with a play of its own: each deck plays so */
    CU_ASSERT_EQUAL_FATAL(decode_real(cat,
                                      "{\"games\": 100, \"attacker\": \"Bug00_02\", \"defender\": "
                                      "{\"deck\": \"Bug67\", \"play\": \"ordered\"}}",
                                      &mix, at, msg),
                          SK_OK);
    CU_ASSERT_EQUAL(mix.n, 1);
    CU_ASSERT_EQUAL(mix.specs[0].sides[1].play, BATTLE_PLAY_ORDERED);
    battle_codec_mix_release(&mix);
    /* a list where one deck is wanted */
    CU_ASSERT_EQUAL(
        decode_real(cat, "{\"attacker\": \"Bug62\", \"defender\": \"Bug00_02\"}", &mix, at, msg),
        SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/attacker");
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "is a list of 5 decks: only \"defender\" may be a list"));
    /* a list past 16 decks */
    CU_ASSERT_EQUAL(
        decode_real(cat, "{\"attacker\": \"Bug00_02\", \"defender\": \"Bug00\"}", &mix, at, msg),
        SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/defender");
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "more than 16 decks"));
    /* a deck of a named list that does not decode: named where the job names the list */
    CU_ASSERT_EQUAL(
        decode_real(cat, "{\"attacker\": \"Bug00_02\", \"defender\": \"Bug66\"}", &mix, at, msg),
        SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(at, "/params/defender");
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "named deck \"Bug66_02\": entry 5: unknown card"));
    /* a misspelt named deck */
    CU_ASSERT_EQUAL(
        decode_real(cat, "{\"attacker\": \"Bug00_2\", \"defender\": \"Bug00_02\"}", &mix, at, msg),
        SK_EINVAL);
    CU_ASSERT_STRING_EQUAL(msg, "unknown card or named deck \"Bug00_2\" (did you mean the named "
                                "deck \"Bug00_02\"?)");
    /* abbreviations (cardabbrs.txt) in a deck string: a commander and a fortress */
    CU_ASSERT_EQUAL_FATAL(decode_real(cat,
                                      "{\"games\": 100, \"attacker\": \"halcyon++, CS, Grunt#2\","
                                      " \"defender\": \"Bug00_02\"}",
                                      &mix, at, msg),
                          SK_OK);
    CU_ASSERT_STRING_EQUAL(mix.specs[0].cards[mix.specs[0].sides[0].commander].name,
                           "Imperator Halcyon");
    CU_ASSERT_EQUAL(mix.specs[0].sides[0].n_fortresses, 1);
    CU_ASSERT_STRING_EQUAL(mix.specs[0].cards[mix.specs[0].sides[0].fortresses[0]].name,
                           "Corrosive Spore");
    battle_codec_mix_release(&mix);
    battle_catalog_free(cat);
}

static CU_TestInfo named_tests[] = {
    {"customdecks.txt and cardabbrs.txt: lines, notes, expansion", test_load_and_expand},
    {"named decks, named lists and abbreviations in a job on the game's folder",
     test_named_decks_in_jobs},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_named_suites[] = {
    {"battle_named", NULL, NULL, NULL, NULL, named_tests},
    CU_SUITE_INFO_NULL,
};
