/* SPDX-License-Identifier: MIT */
/* Tests of the growable buffer (sk_buf) and the one hash (sk_hash): appends, printf,
 * the hard maximum, sticky errors, take, and FNV-1a reference values. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "sk_buf.h"
#include "sk_hash.h"
#include "sk_mem.h"

#include "sk_banned.h"

static void test_append_and_take(void)
{
    struct sk_buf b;
    char *s;

    sk_buf_init(&b, 0);
    s = sk_buf_take(&b); /* nothing appended: an empty string, not NULL */
    CU_ASSERT_STRING_EQUAL(s, "");
    sk_free(s);
    CU_ASSERT_EQUAL(sk_buf_adds(&b, "ab"), SK_OK);
    CU_ASSERT_EQUAL(sk_buf_add(&b, "cdef", 2), SK_OK);
    for (int i = 0; i < 200; i++) /* past the first allocation */
        CU_ASSERT_EQUAL(sk_buf_printf(&b, "%d,", i % 10), SK_OK);
    CU_ASSERT_EQUAL(b.len, 4 + 400);
    CU_ASSERT_EQUAL(strncmp(b.p, "abcd0,1,", 8), 0);
    CU_ASSERT_EQUAL(b.p[b.len], '\0');
    s = sk_buf_take(&b);
    CU_ASSERT_EQUAL(strlen(s), 404);
    CU_ASSERT_PTR_NULL(b.p);
    CU_ASSERT_EQUAL(b.len, 0);
    sk_free(s);
}

static void test_max_and_sticky_errors(void)
{
    struct sk_buf b;

    sk_buf_init(&b, 4);
    CU_ASSERT_EQUAL(sk_buf_adds(&b, "abcd"), SK_OK);
    CU_ASSERT_EQUAL(sk_buf_adds(&b, "e"), SK_ERANGE);
    CU_ASSERT_EQUAL(sk_buf_adds(&b, ""), SK_ERANGE); /* sticky */
    CU_ASSERT_PTR_NULL(sk_buf_take(&b));
    CU_ASSERT_EQUAL(b.err, SK_OK); /* take made it empty and usable again, same max */
    CU_ASSERT_EQUAL(sk_buf_printf(&b, "%s", "hello"), SK_ERANGE);
    sk_buf_release(&b);
    sk_buf_init(&b, 0);
    sk_mem_fail_after(0);
    CU_ASSERT_EQUAL(sk_buf_adds(&b, "x"), SK_ENOMEM);
    sk_mem_fail_after(-1);
    CU_ASSERT_EQUAL(sk_buf_adds(&b, "x"), SK_ENOMEM);
    sk_buf_release(&b);
    sk_buf_release(NULL);
}

static void test_fnv1a(void)
{
    /* reference values of FNV-1a 64: "" is the offset basis */
    CU_ASSERT_EQUAL(sk_fnv1a_str(""), SK_FNV1A_INIT);
    CU_ASSERT_EQUAL(sk_fnv1a_str("a"), 0xaf63dc4c8601ec8cULL);
    CU_ASSERT_EQUAL(sk_fnv1a_str("foobar"), 0x85944171f73967e8ULL);
    /* a chain over pieces is the hash of their concatenation */
    CU_ASSERT_EQUAL(sk_fnv1a(sk_fnv1a(SK_FNV1A_INIT, "foo", 3), "bar", 3), sk_fnv1a_str("foobar"));
}

static CU_TestInfo buf_tests[] = {
    {"append, printf, take", test_append_and_take},
    {"maximum and sticky errors", test_max_and_sticky_errors},
    {"FNV-1a reference values", test_fnv1a},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sk_buf_suites[] = {
    {"sk_buf", NULL, NULL, NULL, NULL, buf_tests},
    CU_SUITE_INFO_NULL,
};
