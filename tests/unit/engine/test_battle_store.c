/* SPDX-License-Identifier: MIT */
/* The catalog store's layout (battle_store.h) on a temporary folder: a staged folder
 * installed becomes catalogs/<hex> and `current`, whose hash battle_store_current_hash reads
 * back from the link alone (what `skirmish cards update` sends ETags for); a folder that is
 * no store, or whose `current` is not a store's link, has no such hash. The files' loading
 * is battle_catalog's and is tested with the game's files elsewhere. */
#include <CUnit/CUnit.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "battle_store.h"

static char root[PATH_MAX];

static int setup(void)
{
    snprintf(root, sizeof(root), "/tmp/skirmish-store.XXXXXX");
    return mkdtemp(root) ? 0 : 1;
}

static int teardown(void)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof(p), "rm -rf '%s'", root);
    return system(p) == 0 ? 0 : 1;
}

static void test_current_hash(void)
{
    char store[PATH_MAX + 16], staged[PATH_MAX + 32], file[PATH_MAX + 64], out[64],
        folder[PATH_MAX + 64], err[256] = "";
    const char *hash = "fnv1a64:0123456789abcdef";
    FILE *f;

    snprintf(store, sizeof(store), "%s/store", root);
    snprintf(staged, sizeof(staged), "%s/staged", root);
    CU_ASSERT_EQUAL(battle_store_current_hash(store, out, sizeof(out)), SK_ENOTFOUND);
    CU_ASSERT_EQUAL_FATAL(mkdir(staged, 0755), 0);
    snprintf(file, sizeof(file), "%s/cards_section_1.xml", staged);
    f = fopen(file, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("<root/>\n", f);
    CU_ASSERT_EQUAL(fclose(f), 0);

    CU_ASSERT_EQUAL(battle_store_install(store, staged, hash, err, sizeof(err)), SK_OK);
    CU_ASSERT_EQUAL(battle_store_is_store(store), 1);
    CU_ASSERT_EQUAL(battle_store_current_hash(store, out, sizeof(out)), SK_OK);
    CU_ASSERT_STRING_EQUAL(out, hash);
    CU_ASSERT_EQUAL(battle_store_current_hash(store, out, 8), SK_ERANGE);
    CU_ASSERT_EQUAL(battle_store_current(store, folder, sizeof(folder), err, sizeof(err)), SK_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(folder, "/catalogs/0123456789abcdef"));

    /* a link written by hand to a folder not named by a hash: no hash to read */
    snprintf(file, sizeof(file), "%s/current", store);
    CU_ASSERT_EQUAL(unlink(file), 0);
    CU_ASSERT_EQUAL(symlink("catalogs/mine", file), 0);
    CU_ASSERT_EQUAL(battle_store_current_hash(store, out, sizeof(out)), SK_ENOTFOUND);
    /* a plain folder named current: a store, but no link */
    CU_ASSERT_EQUAL(unlink(file), 0);
    CU_ASSERT_EQUAL(mkdir(file, 0755), 0);
    CU_ASSERT_EQUAL(battle_store_is_store(store), 1);
    CU_ASSERT_EQUAL(battle_store_current_hash(store, out, sizeof(out)), SK_ENOTFOUND);
}

static CU_TestInfo store_tests[] = {
    {"current hash", test_current_hash},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_battle_store_suites[] = {
    {"battle_store", setup, teardown, NULL, NULL, store_tests},
    CU_SUITE_INFO_NULL,
};
