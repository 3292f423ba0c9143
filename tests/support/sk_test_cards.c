/* SPDX-License-Identifier: MIT */
/* Catalog stores for tests (see sk_test_cards.h). */
#include "sk_test_cards.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "battle.h"
#include "battle_store.h"
#include "sk_mem.h"

#include "sk_banned.h"

void sk_test_cards_folder(const char *dir, char attack)
{
    DIR *d = opendir(SK_TEST_TU_DIR);
    struct dirent *e;
    char from[1024], to[1024];

    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0755), 0);
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "cards_section_1.xml") == 0)
            continue;
        snprintf(from, sizeof(from), "%s/%s", SK_TEST_TU_DIR, e->d_name);
        snprintf(to, sizeof(to), "%s/%s", dir, e->d_name);
        CU_ASSERT_EQUAL_FATAL(symlink(from, to), 0);
    }
    closedir(d);
    {
        FILE *in = fopen(SK_TEST_TU_DIR "/cards_section_1.xml", "rb");
        FILE *out;
        char *text, *at;
        long n;
        CU_ASSERT_PTR_NOT_NULL_FATAL(in);
        fseek(in, 0, SEEK_END);
        n = ftell(in);
        rewind(in);
        text = sk_malloc((size_t)n + 1);
        CU_ASSERT_FATAL(text && fread(text, 1, (size_t)n, in) == (size_t)n);
        text[n] = '\0';
        fclose(in);
        at = strstr(text, "<name>Bazooka Marine</name>");
        CU_ASSERT_PTR_NOT_NULL_FATAL(at);
        at = strstr(at, "<attack>3</attack>");
        CU_ASSERT_PTR_NOT_NULL_FATAL(at);
        at[strlen("<attack>")] = attack;
        snprintf(to, sizeof(to), "%s/cards_section_1.xml", dir);
        out = fopen(to, "wb");
        CU_ASSERT_FATAL(out && fwrite(text, 1, (size_t)n, out) == (size_t)n);
        fclose(out);
        sk_free(text);
    }
}

void sk_test_cards_install(const char *store, const char *name, char attack, char hash[32])
{
    char staged[512], err[512];
    struct battle_folder f;

    (void)mkdir(store, 0755); /* a new store, or one there already */
    snprintf(staged, sizeof(staged), "%s/%s", store, name);
    sk_test_cards_folder(staged, attack);
    CU_ASSERT_EQUAL_FATAL(battle_folder_read(staged, &f, err, sizeof(err)), SK_OK);
    snprintf(hash, 32, "%s", f.hash);
    battle_folder_release(&f);
    CU_ASSERT_EQUAL_FATAL(battle_store_install(store, staged, hash, err, sizeof(err)), SK_OK);
}

void sk_test_cards_remove(const char *path)
{
    char cmd[1200];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
    CU_ASSERT_EQUAL(system(cmd), 0);
}
