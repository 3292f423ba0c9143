/* SPDX-License-Identifier: MIT */
/* Tests of the router through the API's MHD-free seam: 404, 405 with Allow, paths that
 * match no template, and the content-type check. The job routes' own tests (ids that are
 * not UUIDs included) are in test_api_jobs.c. */
#include "api_testlib.h"

static void test_routes(void)
{
    int st;
    struct api_response resp;
    json_t *d = call("GET", "/v2/jobs", NULL, NULL, &st, NULL);
    CU_ASSERT_EQUAL(st, 404);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "title")), "Not Found");
    json_decref(d);
    d = call("DELETE", "/v1/jobs", NULL, NULL, &st, &resp);
    CU_ASSERT_EQUAL(st, 405);
    CU_ASSERT_STRING_EQUAL(resp.allow, "GET, POST");
    CU_ASSERT_STRING_EQUAL(resp.content_type, "application/problem+json");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "status")), 405);
    api_http_response_release(&resp);
    json_decref(d);
    d = call("GET", "/v1/jobs/abc:cancel", NULL, NULL, &st, &resp);
    CU_ASSERT_EQUAL(st, 405);
    CU_ASSERT_STRING_EQUAL(resp.allow, "POST");
    api_http_response_release(&resp);
    json_decref(d);
    d = call("GET", "/v1/jobs/x/y/result", NULL, NULL, &st, NULL);
    CU_ASSERT_EQUAL(st, 404);
    json_decref(d);
    d = call("GET", "/healthz", NULL, NULL, &st, NULL);
    CU_ASSERT_EQUAL(st, 200);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "status")), "ok");
    json_decref(d);
}

static void test_content_type(void)
{
    CU_ASSERT_TRUE(api_http_is_json("application/json"));
    CU_ASSERT_TRUE(api_http_is_json("Application/JSON; charset=utf-8"));
    CU_ASSERT_FALSE(api_http_is_json("application/jsonx"));
    CU_ASSERT_FALSE(api_http_is_json("application/problem+json"));
    CU_ASSERT_FALSE(api_http_is_json(NULL));
}

static CU_TestInfo router_tests[] = {
    {"404, 405 with Allow", test_routes},
    {"content type check", test_content_type},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_router_suites[] = {
    {"api_router", setup, NULL, NULL, NULL, router_tests},
    CU_SUITE_INFO_NULL,
};
