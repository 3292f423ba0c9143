/* SPDX-License-Identifier: MIT */
/* Tests of the API through its MHD-free seam: routing (404/405), and every rejection a
 * submission or a list query gets before the stores are touched (the context has no
 * pool, so a test that reached PostgreSQL or Redis would crash). Also the cursor codec
 * and problem+json shape. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <string.h>

#include "api_http.h"
#include "api_jobs.h"
#include "api_router.h"
#include "sk_config.h"
#include "sk_mem.h"

static struct sk_config cfg;

/* A validator that accepts {"kind":"battle","params":{}} and reports two pointers for
 * anything else, as the engine's codec does. */
static enum sk_err fake_validate(const json_t *doc, struct api_job_info *info,
                                 struct sk_verr_list *errs)
{
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    if (kind && strcmp(kind, "battle") == 0) {
        info->kind = "battle";
        info->seed = 7;
        info->total = 10;
        return SK_OK;
    }
    sk_verr_add(errs, "/kind", "'kind' must be \"battle\" or \"board\"");
    sk_verr_add(errs, "/params/deck/3", "unknown card \"X\"");
    return SK_EINVAL;
}

static int fake_kind(const char *k)
{
    return strcmp(k, "battle") == 0 || strcmp(k, "board") == 0;
}

static const struct api_ctx ctx = {.cfg = &cfg, .validate = fake_validate, .kind_known = fake_kind};

static int setup(void)
{
    sk_mem_init_json();
    memset(&cfg, 0, sizeof(cfg));
    cfg.max_body_bytes = 1048576;
    cfg.list_limit_max = 100;
    return 0;
}

/* Runs one request and returns the parsed body (caller decrefs); *status gets the code. */
static json_t *call(const char *method, const char *path, const char *ct, const char *body,
                    int *status, struct api_response *keep)
{
    struct api_request req;
    struct api_response resp;
    json_t *doc;
    memset(&req, 0, sizeof(req));
    req.method = method;
    req.path = path;
    req.content_type = ct;
    req.body = body;
    req.body_len = body ? strlen(body) : 0;
    req.req_id = "t";
    api_http_response_init(&resp);
    api_router_handle(&ctx, &req, &resp);
    *status = resp.status;
    doc = json_loadb(resp.body, resp.body_len, 0, NULL);
    if (keep)
        *keep = resp;
    else
        api_http_response_release(&resp);
    return doc;
}

static json_t *call_args(const char *path, const char *const *kv, size_t n, int *status)
{
    struct api_request req;
    struct api_response resp;
    json_t *doc;
    memset(&req, 0, sizeof(req));
    req.method = "GET";
    req.path = path;
    req.req_id = "t";
    for (size_t i = 0; i < n; i++) {
        req.args[i].key = kv[2 * i];
        req.args[i].value = kv[2 * i + 1];
    }
    req.n_args = n;
    api_http_response_init(&resp);
    api_router_handle(&ctx, &req, &resp);
    *status = resp.status;
    CU_ASSERT_STRING_EQUAL(resp.content_type, "application/problem+json");
    doc = json_loadb(resp.body, resp.body_len, 0, NULL);
    api_http_response_release(&resp);
    return doc;
}

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
    /* ids that are not UUIDs are unknown jobs, answered without a query */
    d = call("GET", "/v1/jobs/not-a-uuid", NULL, NULL, &st, NULL);
    CU_ASSERT_EQUAL(st, 404);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "type")),
                           "/problems/job-not-found");
    json_decref(d);
    d = call("GET", "/v1/jobs/x/y/result", NULL, NULL, &st, NULL);
    CU_ASSERT_EQUAL(st, 404);
    json_decref(d);
    d = call("GET", "/healthz", NULL, NULL, &st, NULL);
    CU_ASSERT_EQUAL(st, 200);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "status")), "ok");
    json_decref(d);
}

static void test_submit_rejections(void)
{
    int st;
    struct api_request req;
    struct api_response resp;
    json_t *d = call("POST", "/v1/jobs", "text/plain", "{}", &st, NULL);
    CU_ASSERT_EQUAL(st, 415);
    json_decref(d);
    d = call("POST", "/v1/jobs", NULL, "{}", &st, NULL);
    CU_ASSERT_EQUAL(st, 415);
    json_decref(d);
    d = call("POST", "/v1/jobs", "application/json", "{\n  \"kind\": ,}", &st, NULL);
    CU_ASSERT_EQUAL(st, 400);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "line")), 2);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "column")), 11);
    json_decref(d);
    d = call("POST", "/v1/jobs", "application/json", "{\"a\":1,\"a\":2}", &st, NULL);
    CU_ASSERT_EQUAL(st, 400); /* duplicate keys are ambiguous, so malformed */
    json_decref(d);
    d = call("POST", "/v1/jobs", "application/json; charset=utf-8", "{\"kind\":\"chess\"}", &st,
             NULL);
    CU_ASSERT_EQUAL(st, 422);
    json_t *errs = json_object_get(d, "errors");
    CU_ASSERT_EQUAL(json_array_size(errs), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(errs, 0), "pointer")),
                           "/kind");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(errs, 1), "pointer")),
                           "/params/deck/3");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "detail")),
                           "the job has 2 invalid fields");
    json_decref(d);

    memset(&req, 0, sizeof(req));
    req.method = "POST";
    req.path = "/v1/jobs";
    req.content_type = "application/json";
    req.body_too_large = 1;
    req.req_id = "t";
    api_http_response_init(&resp);
    api_router_handle(&ctx, &req, &resp);
    CU_ASSERT_EQUAL(resp.status, 413);
    CU_ASSERT_PTR_NOT_NULL(strstr(resp.body, "\"max_bytes\":1048576"));
    api_http_response_release(&resp);
}

static void test_list_rejections(void)
{
    int st;
    const char *bad_status[] = {"status", "done"};
    const char *bad_limit[] = {"limit", "101"};
    const char *zero_limit[] = {"limit", "0"};
    const char *bad_kind[] = {"kind", "chess"};
    const char *bad_cursor[] = {"cursor", "!!"};
    const char *no_bar[] = {"cursor", "YWJj"}; /* "abc": base64url but not a cursor */
    const char *unknown[] = {"page", "2"};
    const char *const *cases[] = {bad_status, bad_limit, zero_limit, bad_kind,
                                  bad_cursor, no_bar,    unknown};
    const char *params[] = {"status", "limit", "limit", "kind", "cursor", "cursor", "page"};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *d = call_args("/v1/jobs", cases[i], 1, &st);
        CU_ASSERT_EQUAL(st, 400);
        json_t *e = json_array_get(json_object_get(d, "errors"), 0);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "parameter")), params[i]);
        json_decref(d);
    }
}

static void test_cursor_codec(void)
{
    char enc[128];
    char dec[128];
    const char *raw = "2026-11-21 12:25:25.335494+00|aebff127-d5d5-4a8e-b0f5-668dfca7df42";
    CU_ASSERT_EQUAL(api_jobs_cursor_encode(raw, enc, sizeof(enc)), 0);
    CU_ASSERT_PTR_NULL(strpbrk(enc, "+/="));
    CU_ASSERT_EQUAL(api_jobs_cursor_decode(enc, dec, sizeof(dec)), 0);
    CU_ASSERT_STRING_EQUAL(dec, raw);
    CU_ASSERT_EQUAL(api_jobs_cursor_encode("ab", enc, sizeof(enc)), 0);
    CU_ASSERT_STRING_EQUAL(enc, "YWI");
    CU_ASSERT_EQUAL(api_jobs_cursor_decode("YWJ", dec, sizeof(dec)), -1); /* stray bits */
    CU_ASSERT_EQUAL(api_jobs_cursor_decode("Y", dec, sizeof(dec)), -1);
    CU_ASSERT_EQUAL(api_jobs_cursor_decode("AA", dec, sizeof(dec)), -1); /* NUL byte */
    CU_ASSERT_EQUAL(api_jobs_cursor_encode(raw, enc, 10), -1);
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
    {"404, 405 with Allow, non-UUID ids", test_routes},
    {"submit: 415, 400 with line/column, 422 pointers, 413", test_submit_rejections},
    {"list: every bad query parameter is a 400 naming it", test_list_rejections},
    {"cursor base64url codec", test_cursor_codec},
    {"content type check", test_content_type},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_router_suites[] = {
    {"api_router", setup, NULL, NULL, NULL, router_tests},
    CU_SUITE_INFO_NULL,
};
