/* SPDX-License-Identifier: MIT */
/* Replays the trusted-proxy fuzz corpus (tests/data/fuzz/proxy/: a peer address, a list,
 * X-Forwarded-For values) through the fuzz target's own function
 * (tests/fuzz/fuzz_proxy.c, compiled into this program as sk_fuzz_proxy): a broken promise
 * aborts. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sk_banned.h"

int sk_fuzz_proxy(const uint8_t *data, size_t size);

static void test_proxy_corpus(void)
{
    static const char dir[] = SK_SOURCE_DIR "/tests/data/fuzz/proxy";
    struct dirent **list = NULL;
    int n = scandir(dir, &list, NULL, alphasort);
    int count = 0;

    CU_ASSERT_FATAL(n >= 0);
    for (int i = 0; i < n; i++) {
        char path[4096];
        static char buf[65536];
        FILE *f;
        size_t len;
        if (list[i]->d_name[0] != '.') {
            snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
            f = fopen(path, "rb");
            CU_ASSERT_PTR_NOT_NULL_FATAL(f);
            len = fread(buf, 1, sizeof(buf), f);
            fclose(f);
            CU_ASSERT_EQUAL(sk_fuzz_proxy((const uint8_t *)buf, len), 0);
            count++;
        }
        free(list[i]);
    }
    free(list);
    CU_ASSERT(count >= 10);
}

static CU_TestInfo fuzz_proxy_tests[] = {
    {"trusted-proxy fuzz corpus replay", test_proxy_corpus},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_fuzz_proxy_suites[] = {
    {"fuzz_proxy", NULL, NULL, NULL, NULL, fuzz_proxy_tests},
    CU_SUITE_INFO_NULL,
};
