/* SPDX-License-Identifier: MIT */
/* Tests of api_jobs through the API's MHD-free seam, before the stores are touched (the
 * context has no pool): every rejection of a submission and of a list query, the job
 * routes' 404 for ids that are not UUIDs and 400 for unknown parameters, the cursor and
 * Idempotency-Key codecs, and the job resource as api_render writes it. */
#include "api_jobs.h"
#include "api_render.h"
#include "api_testlib.h"

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

static void test_job_routes_before_the_store(void)
{
    static const char *const paths[] = {"/v1/jobs/nope", "/v1/jobs/nope/result",
                                        "/v1/jobs/nope/events"};
    const char *unknown[] = {"page", "2"};
    int st;
    json_t *d;

    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        d = call("GET", paths[i], NULL, NULL, &st, NULL);
        CU_ASSERT_EQUAL(st, 404);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "type")),
                               "/problems/job-not-found");
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "detail")),
                               "no job with id 'nope'");
        json_decref(d);
    }
    d = call("POST", "/v1/jobs/nope:cancel", NULL, NULL, &st, NULL);
    CU_ASSERT_EQUAL(st, 404);
    json_decref(d);
    /* GET of a job takes wait= only */
    d = call_args("/v1/jobs/00000000-0000-4000-8000-000000000000", unknown, 1, &st);
    CU_ASSERT_EQUAL(st, 400);
    json_decref(d);
}

static void test_idempotency_key(void)
{
    char key[256];
    char long_key[300];

    CU_ASSERT_EQUAL(api_jobs_parse_key("\"deck-42\"", key), 0);
    CU_ASSERT_STRING_EQUAL(key, "deck-42");
    CU_ASSERT_EQUAL(api_jobs_parse_key("bare key", key), 0); /* lenient: unquoted */
    CU_ASSERT_STRING_EQUAL(key, "bare key");
    CU_ASSERT_EQUAL(api_jobs_parse_key("\"\"", key), -1);
    CU_ASSERT_EQUAL(api_jobs_parse_key("\"a\\\"b\"", key), -1);  /* no escapes */
    CU_ASSERT_EQUAL(api_jobs_parse_key("caf\xc3\xa9", key), -1); /* ASCII only */
    CU_ASSERT_EQUAL(api_jobs_parse_key(NULL, key), -1);
    memset(long_key, 'k', 256);
    long_key[256] = '\0';
    CU_ASSERT_EQUAL(api_jobs_parse_key(long_key, key), -1);
    long_key[255] = '\0';
    CU_ASSERT_EQUAL(api_jobs_parse_key(long_key, key), 0);
}

static void test_render_job(void)
{
    char w1[] = "host-a:11";
    char w2[] = "host-b:22";
    char *workers[2] = {w1, w2};
    char err[] = "device lost";
    struct db_job j = {.id = "0b6f7c1e-54d6-4b51-9d0e-7e0f5b3b1c11",
                       .kind = "battle",
                       .status = "queued",
                       .seed = 42,
                       .attempts = 2,
                       .done = 0,
                       .total = 500,
                       .created_at = "2026-11-23T11:00:00.000001Z",
                       .updated_at = "2026-11-23T11:00:02.000000Z",
                       .error = err,
                       .workers = workers,
                       .n_workers = 2};
    char *text = api_render_job_text(&j);
    json_t *d = text ? json_loads(text, 0, NULL) : NULL;

    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    /* compact, like every answer */
    CU_ASSERT_PTR_NULL(strstr(text, "\": "));
    CU_ASSERT_EQUAL(strncmp(text, "{\"id\":\"0b6f7c1e-", 14), 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "seed")), 42);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(d, "progress"), "total")),
                    500);
    CU_ASSERT_TRUE(json_is_false(json_object_get(d, "cancel_requested")));
    CU_ASSERT_TRUE(json_is_null(json_object_get(d, "started_at")));
    CU_ASSERT_TRUE(json_is_null(json_object_get(d, "finished_at")));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "created_at")),
                           "2026-11-23T11:00:00.000001Z");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "error")), "device lost");
    /* fault 3: the worker of each attempt */
    CU_ASSERT_EQUAL(json_array_size(json_object_get(d, "workers")), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(json_object_get(d, "workers"), 1)),
                           "host-b:22");
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(json_object_get(d, "links"), "cancel")),
        "/v1/jobs/0b6f7c1e-54d6-4b51-9d0e-7e0f5b3b1c11:cancel");
    json_decref(d);
    sk_free(text);
    /* no error, no workers yet: null and [] */
    j.error = NULL;
    j.workers = NULL;
    j.n_workers = 0;
    d = api_render_job(&j);
    CU_ASSERT_TRUE(json_is_null(json_object_get(d, "error")));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(d, "workers")), 0);
    CU_ASSERT_TRUE(json_is_array(json_object_get(d, "workers")));
    json_decref(d);
}

static CU_TestInfo jobs_tests[] = {
    {"submit: 415, 400 with line/column, 422 pointers, 413", test_submit_rejections},
    {"list: every bad query parameter is a 400 naming it", test_list_rejections},
    {"job routes: 404 for non-UUID ids, 400 for unknown parameters",
     test_job_routes_before_the_store},
    {"cursor base64url codec", test_cursor_codec},
    {"Idempotency-Key: quoted or bare, 1..255 printable ASCII", test_idempotency_key},
    {"the job resource: fields, nulls, workers, compact", test_render_job},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_jobs_suites[] = {
    {"api_jobs", setup, NULL, NULL, NULL, jobs_tests},
    CU_SUITE_INFO_NULL,
};
