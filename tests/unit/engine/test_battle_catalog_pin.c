/* SPDX-License-Identifier: MIT */
/* Catalogs pinned per job (docs/cards.md): a job decoded with "catalog" runs on that
 * catalog whatever the process's current one is now, with the same result as before the
 * current changed; an unknown hash is SK_ENOTFOUND at /catalog; a catalog store's new
 * current is picked up by a refresh while the old one stays loadable; the hashes a
 * process lists. The process's current catalog is changed through the environment and
 * put back to the built-in cards after each test. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "battle.h"
#include "battle_catalog.h"
#include "battle_store.h"
#include "engine.h"
#include "job.h"
#include "sk_mem.h"
#include "sk_test_cards.h"

#include "sk_banned.h"

static struct engine *eng;

static int setup(void)
{
    struct engine_opts eo = {.device = "cpu"};
    char err[512];
    sk_mem_init_json();
    return engine_new(&eo, &eng, err, sizeof(err)) != SK_OK;
}

static int teardown(void)
{
    engine_free(eng);
    return 0;
}

/* The process back on the built-in cards. */
static void restore(void)
{
    char err[512];
    unsetenv(BATTLE_CATALOG_ENV);
    unsetenv("SKIRMISH_CARDS_DIR");
    CU_ASSERT(battle_catalog_refresh(1, err, sizeof(err)) >= 0);
}

static char *current_hash(void)
{
    json_t *all = job_catalogs();
    char *h = sk_strdup(json_string_value(json_array_get(all, 0)));
    json_decref(all);
    return h;
}

/* Runs the job document `text` with `catalog` set (NULL: none) to the end and returns its
 * result without the fields that measure the machine; *pinned gets the job's catalog. */
static json_t *run_doc(const char *text, const char *catalog, char pinned[80])
{
    json_t *doc = json_loads(text, 0, NULL);
    struct sk_verr_list errs;
    struct job *job = NULL;
    struct job_run *run = NULL;
    struct job_run_opts opts = {.threads = 1};
    json_t *res = NULL;
    uint64_t done = 0;
    char err[256];

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    if (catalog)
        json_object_set_new(doc, "catalog", json_string(catalog));
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL_FATAL(job_decode(doc, &job, &errs), SK_OK);
    snprintf(pinned, 80, "%s", job_catalog(job));
    CU_ASSERT_EQUAL_FATAL(job_run_new(eng, job, &opts, &run, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL_FATAL(job_run_step(run, 0, &done), SK_OK);
    CU_ASSERT_EQUAL_FATAL(job_run_result(run, &res), SK_OK);
    json_object_del(res, "elapsed_ms");
    json_object_del(res, "games_per_second");
    job_run_free(run);
    job_free(job);
    sk_verr_list_release(&errs);
    json_decref(doc);
    return res;
}

#define BUILTIN_JOB                                                                                \
    "{\"kind\":\"battle\",\"seed\":5,\"params\":{\"games\":400,"                                   \
    "\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\",\"count\":5}]}," \
    "\"defender\":{\"commander\":\"Test "                                                          \
    "Commander\",\"deck\":[{\"card\":\"Brute\",\"count\":4}]}}}"

/* A JSON catalog in which Grunt hits harder, written to a temporary file. */
static void write_stronger_grunt(char path[64])
{
    json_t *cards = json_load_file(SK_SOURCE_DIR "/data/cards.json", 0, NULL);
    size_t i;
    json_t *c;
    int fd;

    CU_ASSERT_PTR_NOT_NULL_FATAL(cards);
    json_array_foreach(cards, i, c)
    {
        if (strcmp(json_string_value(json_object_get(c, "name")), "Grunt") == 0)
            json_object_set_new(c, "attack",
                                json_integer(json_integer_value(json_object_get(c, "attack")) + 2));
    }
    snprintf(path, 64, "/tmp/sk-pin-XXXXXX");
    fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    CU_ASSERT_EQUAL_FATAL(json_dump_file(cards, path, 0), 0);
    json_decref(cards);
}

static void test_pinned_to_the_builtin_cards(void)
{
    char path[64], pinned[80], err[512];
    char *builtin = current_hash(), *file_hash;
    json_t *before, *file_res, *again;
    json_t *doc;
    struct sk_verr_list errs;
    struct job *job = NULL;

    before = run_doc(BUILTIN_JOB, NULL, pinned);
    CU_ASSERT_STRING_EQUAL(pinned, builtin);

    /* the process's current catalog becomes a file in which one card changed */
    write_stronger_grunt(path);
    setenv(BATTLE_CATALOG_ENV, path, 1);
    CU_ASSERT_EQUAL(battle_catalog_refresh(1, err, sizeof(err)), 1);
    file_hash = current_hash();
    CU_ASSERT_STRING_NOT_EQUAL(file_hash, builtin);
    file_res = run_doc(BUILTIN_JOB, NULL, pinned);
    CU_ASSERT_STRING_EQUAL(pinned, file_hash);
    CU_ASSERT_FALSE(json_equal(file_res, before)); /* another matchup */

    /* pinned to the built-in cards: the first result exactly, catalog and all */
    again = run_doc(BUILTIN_JOB, builtin, pinned);
    CU_ASSERT_STRING_EQUAL(pinned, builtin);
    CU_ASSERT_TRUE(json_equal(again, before));

    /* a hash nobody has is SK_ENOTFOUND at /catalog; a malformed one is invalid */
    doc = json_loads(BUILTIN_JOB, 0, NULL);
    json_object_set_new(doc, "catalog", json_string("fnv1a64:0123456789abcdef"));
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(job_decode(doc, &job, &errs), SK_ENOTFOUND);
    CU_ASSERT(errs.n >= 1 && strcmp(errs.items[0].pointer, "/catalog") == 0);
    CU_ASSERT(errs.n >= 1 && strstr(errs.items[0].message, file_hash) != NULL);
    sk_verr_list_release(&errs);
    json_object_set_new(doc, "catalog", json_integer(5));
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(job_decode(doc, &job, &errs), SK_EINVAL);
    CU_ASSERT(errs.n >= 1 && strcmp(errs.items[0].pointer, "/catalog") == 0);
    sk_verr_list_release(&errs);
    json_decref(doc);
    /* a kind that names no cards takes none */
    doc = json_pack("{s:s, s:s, s:{}}", "kind", "board", "catalog", builtin, "params");
    sk_verr_list_init(&errs);
    CU_ASSERT_EQUAL(job_decode(doc, &job, &errs), SK_EINVAL);
    CU_ASSERT(errs.n >= 1 && strcmp(errs.items[0].pointer, "/catalog") == 0);
    sk_verr_list_release(&errs);
    json_decref(doc);

    restore();
    CU_ASSERT_EQUAL(unlink(path), 0);
    json_decref(before);
    json_decref(file_res);
    json_decref(again);
    sk_free(builtin);
    sk_free(file_hash);
}

#define REAL_JOB                                                                                   \
    "{\"kind\":\"battle\",\"seed\":11,\"params\":{\"games\":300,"                                  \
    "\"attacker\":\"Octane-1, Bazooka Marine#3, Rally Infantry#3, Barrage Tank#2, Grunt#2\","      \
    "\"defender\":{\"deck\":\"Malika-1, Dread Panzer#2, Trap Setter, Invasion Blockade, Combat "   \
    "Specialist#3\",\"play\":\"ordered\"}}}"

static int listed(const json_t *all, const char *hash)
{
    for (size_t i = 0; i < json_array_size(all); i++)
        if (strcmp(json_string_value(json_array_get(all, i)), hash) == 0)
            return 1;
    return 0;
}

static void test_store_refresh_keeps_pinned_jobs(void)
{
    char store[] = "/tmp/sk-store-XXXXXX";
    char ha[32], hb[32], pinned[80], err[512];
    json_t *ra, *rb, *again, *all;
    char *builtin = current_hash();

    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(store));
    sk_test_cards_install(store, "a", '3', ha); /* the game's cards as they are */
    setenv("SKIRMISH_CARDS_DIR", store, 1);
    CU_ASSERT_EQUAL(battle_catalog_refresh(1, err, sizeof(err)), 1);
    CU_ASSERT_EQUAL(battle_catalog_refresh(0, err, sizeof(err)), 0); /* nothing new */
    ra = run_doc(REAL_JOB, NULL, pinned);
    CU_ASSERT_STRING_EQUAL(pinned, ha);

    /* a refresh in which Bazooka Marine hits twice as hard */
    sk_test_cards_install(store, "b", '6', hb);
    CU_ASSERT_STRING_NOT_EQUAL(ha, hb);
    CU_ASSERT_EQUAL(battle_catalog_refresh(0, err, sizeof(err)), 1);
    rb = run_doc(REAL_JOB, NULL, pinned);
    CU_ASSERT_STRING_EQUAL(pinned, hb);
    CU_ASSERT_FALSE(json_equal(ra, rb));
    /* the job submitted before the refresh: the same numbers */
    again = run_doc(REAL_JOB, ha, pinned);
    CU_ASSERT_STRING_EQUAL(pinned, ha);
    CU_ASSERT_TRUE(json_equal(ra, again));

    /* what the process can run on: the current first, then the one it kept (and any the
     * tests before kept), the built-in cards */
    all = job_catalogs();
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(all, 0)), hb);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(all, 1)), ha);
    CU_ASSERT_TRUE(listed(all, builtin));
    json_decref(all);

    /* installing the first set again makes it current without a second copy */
    sk_test_cards_install(store, "a2", '3', ha);
    CU_ASSERT_EQUAL(battle_catalog_refresh(0, err, sizeof(err)), 1);
    all = job_catalogs();
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(all, 0)), ha);
    json_decref(all);

    restore();
    sk_test_cards_remove(store);
    json_decref(ra);
    json_decref(rb);
    json_decref(again);
    sk_free(builtin);
}

static CU_TestInfo pin_tests[] = {
    {"a job pinned to the built-in cards runs on them whatever is current",
     test_pinned_to_the_builtin_cards},
    {"a catalog store's refresh leaves pinned jobs their catalog",
     test_store_refresh_keeps_pinned_jobs},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_catalog_pin_suites[] = {
    {"battle_catalog_pin", setup, teardown, NULL, NULL, pin_tests},
    CU_SUITE_INFO_NULL,
};
