/* SPDX-License-Identifier: MIT */
/* Replays the API's fuzz corpora through the fuzz targets' own functions (tests/fuzz/,
 * compiled into this program under other names): the request gate's (tests/data/fuzz/gate/:
 * a byte picking the bounds, then what a client sends first), the router's
 * (tests/data/fuzz/router/) and the trusted-proxy parser's (tests/data/fuzz/proxy/: a peer
 * address, a list, X-Forwarded-For values). A broken promise of a parser or of its answer
 * aborts; each target answers 0 for every input. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sk_banned.h"

int sk_fuzz_gate(const uint8_t *data, size_t size);
int sk_fuzz_router(const uint8_t *data, size_t size);
int sk_fuzz_proxy(const uint8_t *data, size_t size);

/* Feeds every file of tests/data/fuzz/<name> (dot-files skipped, at most 64 KiB of each)
 * to `target`; the corpus must hold at least `least` inputs. */
static void replay(const char *name, int (*target)(const uint8_t *, size_t), int least)
{
    static char buf[65536];
    char dir[4096];
    struct dirent **list = NULL;
    int n, count = 0;

    snprintf(dir, sizeof(dir), "%s/tests/data/fuzz/%s", SK_SOURCE_DIR, name);
    n = scandir(dir, &list, NULL, alphasort);
    CU_ASSERT_FATAL(n >= 0);
    for (int i = 0; i < n; i++) {
        char path[8192];
        FILE *f;
        size_t len;
        if (list[i]->d_name[0] != '.') {
            snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
            f = fopen(path, "rb");
            CU_ASSERT_PTR_NOT_NULL_FATAL(f);
            len = fread(buf, 1, sizeof(buf), f);
            fclose(f);
            CU_ASSERT_EQUAL(target((const uint8_t *)buf, len), 0);
            count++;
        }
        free(list[i]);
    }
    free(list);
    CU_ASSERT(count >= least);
}

static void test_gate_corpus(void)
{
    replay("gate", sk_fuzz_gate, 20);
}

static void test_router_corpus(void)
{
    replay("router", sk_fuzz_router, 20);
}

static void test_proxy_corpus(void)
{
    replay("proxy", sk_fuzz_proxy, 10);
}

static CU_TestInfo fuzz_gate_tests[] = {
    {"gate fuzz corpus replay", test_gate_corpus},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo fuzz_router_tests[] = {
    {"router fuzz corpus replay", test_router_corpus},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo fuzz_proxy_tests[] = {
    {"trusted-proxy fuzz corpus replay", test_proxy_corpus},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_fuzz_suites[] = {
    {"fuzz_gate", NULL, NULL, NULL, NULL, fuzz_gate_tests},
    {"fuzz_router", NULL, NULL, NULL, NULL, fuzz_router_tests},
    {"fuzz_proxy", NULL, NULL, NULL, NULL, fuzz_proxy_tests},
    CU_SUITE_INFO_NULL,
};
