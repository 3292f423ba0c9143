/* SPDX-License-Identifier: MIT */
/* Replays the board codec's fuzz corpus (tests/data/fuzz/board/) through the fuzz target's
 * own function (tests/fuzz/fuzz_board_codec.c, compiled into this program as
 * sk_fuzz_board_codec): a broken promise aborts. Files named ok_* must also decode and
 * bad_* be rejected with at least one error. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_codec.h"
#include "sk_mem.h"
#include "sk_verr.h"

#include "sk_banned.h"

int sk_fuzz_board_codec(const uint8_t *data, size_t size);

static void replay(const char *path, const char *name)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long len;
    json_t *doc;
    struct sk_jptr ptr;
    struct sk_verr_list errs;
    struct board_input *in = NULL;
    enum sk_err rc;

    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = sk_malloc((size_t)len + 1);
    CU_ASSERT_FATAL(buf && fread(buf, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    CU_ASSERT_EQUAL(sk_fuzz_board_codec((const uint8_t *)buf, (size_t)len), 0);
    doc = json_loadb(buf, (size_t)len, JSON_REJECT_DUPLICATES, NULL);
    sk_free(buf);
    if (!doc) {
        CU_ASSERT(strncmp(name, "ok_", 3) != 0);
        return;
    }
    sk_jptr_init(&ptr);
    sk_verr_list_init(&errs);
    rc = board_codec_decode(doc, &ptr, &errs, &in);
    if (strncmp(name, "ok_", 3) == 0 && rc != SK_OK)
        fprintf(stderr, "\n%s: %s\n", name, errs.n ? errs.items[0].message : sk_err_str(rc));
    if (strncmp(name, "ok_", 3) == 0)
        CU_ASSERT_EQUAL(rc, SK_OK);
    if (strncmp(name, "bad_", 4) == 0)
        CU_ASSERT(rc == SK_EINVAL && errs.n > 0);
    board_codec_free(in);
    sk_verr_list_release(&errs);
    json_decref(doc);
}

static void test_board_corpus(void)
{
    struct dirent **list = NULL;
    int n = scandir(SK_SOURCE_DIR "/tests/data/fuzz/board", &list, NULL, alphasort);
    int count = 0;

    CU_ASSERT_FATAL(n >= 0);
    for (int i = 0; i < n; i++) {
        char path[4096];
        if (list[i]->d_name[0] != '.') {
            snprintf(path, sizeof(path), "%s/%s", SK_SOURCE_DIR "/tests/data/fuzz/board",
                     list[i]->d_name);
            replay(path, list[i]->d_name);
            count++;
        }
        free(list[i]);
    }
    free(list);
    CU_ASSERT(count >= 20);
}

static int setup(void)
{
    sk_mem_init_json();
    return 0;
}

static CU_TestInfo fuzz_board_tests[] = {
    {"board codec fuzz corpus replay", test_board_corpus},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_fuzz_board_suites[] = {
    {"fuzz_board", setup, NULL, NULL, NULL, fuzz_board_tests},
    CU_SUITE_INFO_NULL,
};
