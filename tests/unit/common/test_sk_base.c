/* SPDX-License-Identifier: MIT */
/* Tests of common/: error names, checked parsing, memory hooks, validation errors and
 * JSON pointers. */
#include <CUnit/CUnit.h>
#include <stdint.h>
#include <string.h>

#include "sk_err.h"
#include "sk_mem.h"
#include "sk_parse.h"
#include "sk_verr.h"

#include "sk_banned.h"

static void test_err_names(void)
{
    CU_ASSERT_STRING_EQUAL(sk_err_str(SK_OK), "ok");
    CU_ASSERT_STRING_EQUAL(sk_err_str(SK_EINVAL), "einval");
    CU_ASSERT_STRING_EQUAL(sk_err_str((enum sk_err)999), "unknown");
    CU_ASSERT_TRUE(sk_err_transient(SK_EUNAVAIL));
    CU_ASSERT_FALSE(sk_err_transient(SK_EINVAL));
}

static void test_parse_i64(void)
{
    int64_t v = 7;
    CU_ASSERT_EQUAL(sk_parse_i64("42", 0, 100, &v), SK_OK);
    CU_ASSERT_EQUAL(v, 42);
    CU_ASSERT_EQUAL(sk_parse_i64("-5", -10, 10, &v), SK_OK);
    CU_ASSERT_EQUAL(v, -5);
    v = 7;
    CU_ASSERT_EQUAL(sk_parse_i64("101", 0, 100, &v), SK_ERANGE);
    CU_ASSERT_EQUAL(sk_parse_i64("12x", 0, 100, &v), SK_EINVAL);
    CU_ASSERT_EQUAL(sk_parse_i64("", 0, 100, &v), SK_EINVAL);
    CU_ASSERT_EQUAL(sk_parse_i64(" 1", 0, 100, &v), SK_EINVAL);
    CU_ASSERT_EQUAL(sk_parse_i64("99999999999999999999", 0, INT64_MAX, &v), SK_ERANGE);
    CU_ASSERT_EQUAL(v, 7); /* untouched on failure */
}

static void test_parse_u64(void)
{
    uint64_t v = 3;
    CU_ASSERT_EQUAL(sk_parse_u64("18446744073709551615", 0, UINT64_MAX, &v), SK_OK);
    CU_ASSERT_EQUAL(v, UINT64_MAX);
    CU_ASSERT_EQUAL(sk_parse_u64("-1", 0, 10, &v), SK_EINVAL);
    CU_ASSERT_EQUAL(sk_parse_u64("+1", 0, 10, &v), SK_EINVAL);
    CU_ASSERT_EQUAL(sk_parse_u64("11", 0, 10, &v), SK_ERANGE);
}

static void test_mem_fail_hook(void)
{
    void *a;
    void *b;
    sk_mem_fail_after(1);
    a = sk_malloc(16);
    b = sk_malloc(16);
    sk_mem_fail_after(-1);
    CU_ASSERT_PTR_NOT_NULL(a);
    CU_ASSERT_PTR_NULL(b);
    sk_free(a);
    a = sk_strndup("abcdef", 3);
    CU_ASSERT_STRING_EQUAL(a, "abc");
    sk_free(a);
    CU_ASSERT_PTR_NULL(sk_calloc(SIZE_MAX / 2, 4));
}

static void test_jptr_escaping(void)
{
    struct sk_jptr p;
    sk_jptr_init(&p);
    CU_ASSERT_STRING_EQUAL(sk_jptr_str(&p), "");
    sk_jptr_push_key(&p, "params");
    sk_jptr_push_key(&p, "a/b~c");
    sk_jptr_push_index(&p, 3);
    CU_ASSERT_STRING_EQUAL(sk_jptr_str(&p), "/params/a~1b~0c/3");
    sk_jptr_pop(&p);
    CU_ASSERT_STRING_EQUAL(sk_jptr_str(&p), "/params/a~1b~0c");
    sk_jptr_pop(&p);
    sk_jptr_pop(&p);
    sk_jptr_pop(&p); /* popping past the root is a no-op */
    CU_ASSERT_STRING_EQUAL(sk_jptr_str(&p), "");
}

static void test_jptr_too_long(void)
{
    struct sk_jptr p;
    char key[100];
    memset(key, 'k', sizeof(key) - 1);
    key[sizeof(key) - 1] = '\0';
    sk_jptr_init(&p);
    for (int i = 0; i < 5; i++)
        sk_jptr_push_key(&p, key);
    CU_ASSERT_TRUE(strlen(sk_jptr_str(&p)) < SK_JPTR_MAX);
    CU_ASSERT_PTR_NOT_NULL(strstr(sk_jptr_str(&p), "/..."));
    for (int i = 0; i < 5; i++)
        sk_jptr_pop(&p);
    CU_ASSERT_STRING_EQUAL(sk_jptr_str(&p), "");
}

static void test_verr_list(void)
{
    struct sk_verr_list l;
    json_t *j;
    sk_verr_list_init(&l);
    CU_ASSERT_EQUAL(sk_verr_add(&l, "/a", "bad '%s'", "x"), SK_EINVAL);
    sk_verr_add(&l, "", "root problem");
    CU_ASSERT_EQUAL(l.n, 2);
    j = sk_verr_list_to_json(&l);
    CU_ASSERT_EQUAL(json_array_size(j), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(j, 0), "pointer")),
                           "/a");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(j, 0), "message")),
                           "bad 'x'");
    json_decref(j);
    for (int i = 0; i < SK_VERR_MAX + 10; i++)
        sk_verr_add(&l, "/b", "again");
    CU_ASSERT_EQUAL(l.n, SK_VERR_MAX);
    CU_ASSERT_TRUE(l.truncated);
    sk_verr_list_release(&l);
    CU_ASSERT_EQUAL(l.n, 0);
}

static void test_verr_oom(void)
{
    struct sk_verr_list l;
    sk_verr_list_init(&l);
    sk_mem_fail_after(0);
    sk_verr_add(&l, "/a", "x");
    sk_mem_fail_after(-1);
    CU_ASSERT_EQUAL(l.n, 0);
    CU_ASSERT_TRUE(l.oom);
    sk_verr_list_release(&l);
}

/* Only the members outside `allowed` are reported, in the object's order, each at its own
 * escaped pointer under the object's; the pointer is restored. */
static void test_verr_check_keys(void)
{
    static const char *const allowed[] = {"kind", "seed", NULL};
    json_t *obj = json_pack("{s:i, s:i, s:i, s:i}", "kind", 1, "sede", 2, "seed", 3, "a/b", 4);
    struct sk_verr_list l;
    struct sk_jptr p;

    CU_ASSERT_PTR_NOT_NULL_FATAL(obj);
    sk_verr_list_init(&l);
    sk_jptr_init(&p);
    sk_jptr_push_key(&p, "params");
    CU_ASSERT_EQUAL(sk_verr_check_keys(&l, &p, obj, allowed), 2);
    CU_ASSERT_STRING_EQUAL(sk_jptr_str(&p), "/params");
    CU_ASSERT_EQUAL_FATAL(l.n, 2);
    CU_ASSERT_STRING_EQUAL(l.items[0].pointer, "/params/sede");
    CU_ASSERT_STRING_EQUAL(l.items[0].message, "unknown field 'sede'");
    CU_ASSERT_STRING_EQUAL(l.items[1].pointer, "/params/a~1b");
    CU_ASSERT_STRING_EQUAL(l.items[1].message, "unknown field 'a/b'");
    sk_verr_list_release(&l);
    CU_ASSERT_EQUAL(
        sk_verr_check_keys(&l, &p, obj, (const char *const[]){"kind", "sede", "seed", "a/b", NULL}),
        0);
    CU_ASSERT_EQUAL(l.n, 0);
    json_decref(obj);
}

static CU_TestInfo base_tests[] = {
    {"error names", test_err_names},
    {"parse i64", test_parse_i64},
    {"parse u64", test_parse_u64},
    {"memory failure hook", test_mem_fail_hook},
    {"json pointer escaping", test_jptr_escaping},
    {"json pointer length limit", test_jptr_too_long},
    {"validation error list", test_verr_list},
    {"validation error list out of memory", test_verr_oom},
    {"unknown members of an object", test_verr_check_keys},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sk_base_suites[] = {
    {"sk_base", NULL, NULL, NULL, NULL, base_tests},
    CU_SUITE_INFO_NULL,
};
