/* SPDX-License-Identifier: MIT */
/* Tests of the UTF-8 checks (sk_utf8) and of what they protect: a validation message cut
 * in the middle of a character, or quoting a key with a control character, still becomes a
 * JSON errors[] entry (issue 17: such a cut used to empty the whole array). */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <string.h>

#include "sk_mem.h"
#include "sk_utf8.h"
#include "sk_verr.h"

#include "sk_banned.h"

static void test_valid(void)
{
    CU_ASSERT_TRUE(sk_utf8_valid("", 0));
    CU_ASSERT_TRUE(sk_utf8_valid("abc", 3));
    CU_ASSERT_TRUE(sk_utf8_valid("\xc3\xa9", 2));         /* é */
    CU_ASSERT_TRUE(sk_utf8_valid("\xe2\x82\xac", 3));     /* € */
    CU_ASSERT_TRUE(sk_utf8_valid("\xf0\x9f\x82\xa1", 4)); /* a playing card */
    CU_ASSERT_TRUE(sk_utf8_valid("\xf4\x8f\xbf\xbf", 4)); /* U+10FFFF */
    CU_ASSERT_FALSE(sk_utf8_valid("\xff", 1));
    CU_ASSERT_FALSE(sk_utf8_valid("\xc3", 1));             /* cut */
    CU_ASSERT_FALSE(sk_utf8_valid("\xe2\x82", 2));         /* cut */
    CU_ASSERT_FALSE(sk_utf8_valid("\xc0\xaf", 2));         /* overlong '/' */
    CU_ASSERT_FALSE(sk_utf8_valid("\xe0\x80\xaf", 3));     /* overlong '/' */
    CU_ASSERT_FALSE(sk_utf8_valid("\xed\xa0\x80", 3));     /* surrogate */
    CU_ASSERT_FALSE(sk_utf8_valid("\xf4\x90\x80\x80", 4)); /* past U+10FFFF */
    CU_ASSERT_FALSE(sk_utf8_valid("\x80", 1));             /* lone continuation */
    CU_ASSERT_FALSE(sk_utf8_valid("a\xc3(", 3));
}

static void test_cut(void)
{
    const char *s = "ab\xc3\xa9\xe2\x82\xac"; /* "abé€", 7 bytes */
    CU_ASSERT_EQUAL(sk_utf8_cut(s, 7), 7);
    CU_ASSERT_EQUAL(sk_utf8_cut(s, 6), 4); /* inside € */
    CU_ASSERT_EQUAL(sk_utf8_cut(s, 5), 4);
    CU_ASSERT_EQUAL(sk_utf8_cut(s, 4), 4);
    CU_ASSERT_EQUAL(sk_utf8_cut(s, 3), 2); /* inside é */
    CU_ASSERT_EQUAL(sk_utf8_cut(s, 2), 2);
    CU_ASSERT_EQUAL(sk_utf8_cut(s, 0), 0);
}

static void test_escape(void)
{
    char out[64];
    CU_ASSERT_FALSE(sk_utf8_needs_escape("/v1/jobs/é", strlen("/v1/jobs/é"), 0));
    CU_ASSERT_TRUE(sk_utf8_needs_escape("/v1/jobs/\xff", 10, 0));
    CU_ASSERT_TRUE(sk_utf8_needs_escape("a\nb", 3, 0));
    CU_ASSERT_FALSE(sk_utf8_needs_escape("100%", 4, 0));
    CU_ASSERT_TRUE(sk_utf8_needs_escape("100%", 4, 1));
    sk_utf8_escape(out, sizeof(out), "/v1/jobs/\xff", 10, 0);
    CU_ASSERT_STRING_EQUAL(out, "/v1/jobs/%FF");
    sk_utf8_escape(out, sizeof(out), "x\nevent=forged\x7f", 15, 0);
    CU_ASSERT_STRING_EQUAL(out, "x%0Aevent=forged%7F");
    sk_utf8_escape(out, sizeof(out), "\xc3\xa9\xc3", 3, 1);
    CU_ASSERT_STRING_EQUAL(out, "\xc3\xa9%C3");
    sk_utf8_escape(out, sizeof(out), "5%", 2, 1);
    CU_ASSERT_STRING_EQUAL(out, "5%25");
    /* output that does not fit is dropped whole: no half character, no half escape */
    CU_ASSERT_EQUAL(sk_utf8_escape(out, 3, "a\xc3\xa9", 3, 0), 1);
    CU_ASSERT_STRING_EQUAL(out, "a");
    CU_ASSERT_EQUAL(sk_utf8_escape(out, 4, "a\xff", 2, 0), 1);
    CU_ASSERT_STRING_EQUAL(out, "a");
    CU_ASSERT_TRUE(sk_utf8_valid(out, strlen(out)));
}

/* A message past the 511 bytes a validation error keeps, its cut inside a 2-byte character,
 * and a pointer from a key holding a control character: the list still turns into JSON
 * with both entries. */
static void test_verr_cut_message(void)
{
    char name[1200];
    struct sk_verr_list errs;
    json_t *arr;
    size_t n = 0;

    name[n++] = 'x'; /* shifts every "é" so that the cut falls inside one */
    while (n + 2 < sizeof(name)) {
        name[n++] = '\xc3';
        name[n++] = '\xa9';
    }
    name[n] = '\0';
    sk_verr_list_init(&errs);
    sk_verr_add(&errs, "/params/attacker/deck/0/card", "unknown card \"%s\"", name);
    sk_verr_add(&errs, "/params/a\nb", "unknown field 'a\nb'");
    CU_ASSERT_EQUAL_FATAL(errs.n, 2);
    CU_ASSERT_TRUE(sk_utf8_valid(errs.items[0].message, strlen(errs.items[0].message)));
    CU_ASSERT(strlen(errs.items[0].message) >= 500);
    CU_ASSERT_STRING_EQUAL(errs.items[1].pointer, "/params/a\nb"); /* still names the key */
    CU_ASSERT_STRING_EQUAL(errs.items[1].message, "unknown field 'a%0Ab'");
    arr = sk_verr_list_to_json(&errs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arr);
    CU_ASSERT_EQUAL(json_array_size(arr), 2);
    json_decref(arr);
    sk_verr_list_release(&errs);
}

static int setup(void)
{
    sk_mem_init_json();
    return 0;
}

static CU_TestInfo utf8_tests[] = {
    {"valid UTF-8: overlongs, surrogates, cuts refused", test_valid},
    {"cut on a character boundary", test_cut},
    {"escape invalid bytes and control characters", test_escape},
    {"a validation message cut inside a character stays in errors[]", test_verr_cut_message},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sk_utf8_suites[] = {
    {"sk_utf8", setup, NULL, NULL, NULL, utf8_tests},
    CU_SUITE_INFO_NULL,
};
