/* SPDX-License-Identifier: MIT */
/* Refused keys per client address (api_authfail.h): a burst, then the refill rate; one
 * address's refusals never touch another's; an unknown address is never held back. */
#include <CUnit/CUnit.h>

#include "api_authfail.h"

#include "sk_banned.h"

static void test_burst_and_refill(void)
{
    struct api_authfail *f = NULL;
    const uint32_t a = 0x0a000001u, b = 0x0a000002u;
    long retry = 0;

    CU_ASSERT_EQUAL_FATAL(api_authfail_new(2, 5, &f), SK_OK);
    for (int i = 0; i < 5; i++) {
        CU_ASSERT_TRUE(api_authfail_allowed(f, a, 1000, &retry));
        api_authfail_count(f, a, 1000);
    }
    /* the sixth at the same moment: held back, a token back in half a second */
    CU_ASSERT_FALSE(api_authfail_allowed(f, a, 1000, &retry));
    CU_ASSERT_EQUAL(retry, 1);
    CU_ASSERT_TRUE(api_authfail_allowed(f, b, 1000, &retry)); /* another address */
    CU_ASSERT_TRUE(api_authfail_allowed(f, 0, 1000, &retry)); /* unknown: never held */
    CU_ASSERT_FALSE(api_authfail_allowed(f, a, 1400, &retry));
    CU_ASSERT_TRUE(api_authfail_allowed(f, a, 1500, &retry)); /* 2 a second: one back */
    api_authfail_count(f, a, 1500);
    CU_ASSERT_FALSE(api_authfail_allowed(f, a, 1500, &retry));
    /* a long quiet time refills the burst, no more */
    CU_ASSERT_TRUE(api_authfail_allowed(f, a, 100000, &retry));
    for (int i = 0; i < 5; i++)
        api_authfail_count(f, a, 100000);
    CU_ASSERT_FALSE(api_authfail_allowed(f, a, 100000, &retry));
    api_authfail_free(f);
    api_authfail_free(NULL);
}

static void test_bad_settings(void)
{
    struct api_authfail *f = NULL;
    CU_ASSERT_EQUAL(api_authfail_new(0, 5, &f), SK_EINVAL);
    CU_ASSERT_EQUAL(api_authfail_new(5, 0, &f), SK_EINVAL);
    CU_ASSERT_PTR_NULL(f);
    /* no table: nothing is held back or counted */
    CU_ASSERT_TRUE(api_authfail_allowed(NULL, 1, 0, NULL));
    api_authfail_count(NULL, 1, 0);
}

static CU_TestInfo tests[] = {
    {"a burst of refusals, then the rate; addresses apart", test_burst_and_refill},
    {"bad settings refused; no table holds nothing back", test_bad_settings},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_authfail_suites[] = {
    {"api_authfail", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
