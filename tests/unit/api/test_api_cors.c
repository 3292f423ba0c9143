/* SPDX-License-Identifier: MIT */
/* Tests of the HTTP details around the routes, without a server: CORS headers for allowed
 * and other origins, preflights and 405 from the route table, the route template matcher,
 * ETags and If-None-Match, the Idempotency-Key parser, and the bad values of the new query
 * parameters (wait, catalog filters) answered before any store is touched. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <string.h>

#include "api_cors.h"
#include "api_http.h"
#include "api_jobs.h"
#include "api_router.h"
#include "sk_config.h"
#include "sk_mem.h"

static struct sk_config cfg;
static const struct api_ctx ctx = {.cfg = &cfg};

static int setup(void)
{
    sk_mem_init_json();
    memset(&cfg, 0, sizeof(cfg));
    cfg.max_body_bytes = 1048576;
    cfg.list_limit_max = 100;
    return 0;
}

static const char *find(const struct api_header *h, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(h[i].name, name) == 0)
            return h[i].value;
    return NULL;
}

static void test_cors(void)
{
    const char *allowed = "http://deck.example,https://dash.example:8443";
    struct api_request req;
    struct api_response resp;
    struct api_header h[API_CORS_MAX_HEADERS];
    size_t n;

    CU_ASSERT_TRUE(api_cors_allowed(allowed, "http://deck.example"));
    CU_ASSERT_TRUE(api_cors_allowed(allowed, "https://dash.example:8443"));
    CU_ASSERT_FALSE(api_cors_allowed(allowed, "http://deck.example:80")); /* exact match only */
    CU_ASSERT_FALSE(api_cors_allowed(allowed, "http://deck.exampl"));
    CU_ASSERT_FALSE(api_cors_allowed(allowed, "https://dash.example"));
    CU_ASSERT_FALSE(api_cors_allowed(allowed, ""));
    CU_ASSERT_FALSE(api_cors_allowed("", "http://deck.example")); /* CORS off */

    memset(&req, 0, sizeof(req));
    api_http_response_init(&resp);
    req.origin = "http://deck.example";
    n = api_cors_headers(allowed, &req, &resp, h);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_STRING_EQUAL(find(h, n, "Access-Control-Allow-Origin"), "http://deck.example");
    CU_ASSERT_STRING_EQUAL(find(h, n, "Vary"), "Origin");
    CU_ASSERT_STRING_EQUAL(find(h, n, "Access-Control-Expose-Headers"),
                           "Location, ETag, Retry-After, RateLimit, RateLimit-Policy");
    CU_ASSERT_PTR_NULL(find(h, n, "Access-Control-Allow-Methods"));

    /* a preflight of an allowed origin */
    req.acr_method = "POST";
    resp.cors_methods = "GET, POST, OPTIONS";
    n = api_cors_headers(allowed, &req, &resp, h);
    CU_ASSERT_EQUAL(n, 6);
    CU_ASSERT_STRING_EQUAL(find(h, n, "Access-Control-Allow-Methods"), "GET, POST, OPTIONS");
    CU_ASSERT_STRING_EQUAL(
        find(h, n, "Access-Control-Allow-Headers"),
        "Authorization, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID, X-Request-Id");
    CU_ASSERT_STRING_EQUAL(find(h, n, "Access-Control-Max-Age"), "600");

    /* another origin, or none, or CORS off: nothing */
    req.origin = "http://evil.example";
    CU_ASSERT_EQUAL(api_cors_headers(allowed, &req, &resp, h), 0);
    req.origin = NULL;
    CU_ASSERT_EQUAL(api_cors_headers(allowed, &req, &resp, h), 0);
    req.origin = "http://deck.example";
    CU_ASSERT_EQUAL(api_cors_headers("", &req, &resp, h), 0);
}

static void route(const char *method, const char *path, struct api_response *resp)
{
    struct api_request req;
    memset(&req, 0, sizeof(req));
    req.method = method;
    req.path = path;
    req.req_id = "t";
    api_http_response_init(resp);
    api_router_handle(&ctx, &req, resp);
}

static void test_table(void)
{
    struct api_response resp;
    char id[64];
    size_t n = 0;

    for (const struct api_route *r = api_router_routes(); r->method; r++)
        n++;
    CU_ASSERT_EQUAL(n, 24);

    CU_ASSERT_TRUE(api_router_match("/v1/jobs/{id}", "/v1/jobs/abc", id));
    CU_ASSERT_STRING_EQUAL(id, "abc");
    CU_ASSERT_TRUE(api_router_match("/v1/jobs/{id}/events", "/v1/jobs/x-1/events", id));
    CU_ASSERT_STRING_EQUAL(id, "x-1");
    CU_ASSERT_TRUE(api_router_match("/v1/jobs/{id}:cancel", "/v1/jobs/x:cancel", id));
    CU_ASSERT_STRING_EQUAL(id, "x");
    CU_ASSERT_FALSE(api_router_match("/v1/jobs/{id}", "/v1/jobs/x/result", id));
    CU_ASSERT_FALSE(api_router_match("/v1/jobs/{id}", "/v1/jobs/x:cancel", id));
    CU_ASSERT_TRUE(api_router_match("/v1/jobs/{id}:retry", "/v1/jobs/x:retry", id));
    CU_ASSERT_STRING_EQUAL(id, "x");
    CU_ASSERT_TRUE(api_router_match("/v1/jobs:cancel", "/v1/jobs:cancel", id));
    CU_ASSERT_FALSE(api_router_match("/v1/jobs/{id}", "/v1/jobs:cancel", id));
    CU_ASSERT_FALSE(api_router_match("/v1/jobs/{id}:cancel", "/v1/jobs:cancel", id));
    CU_ASSERT_FALSE(api_router_match("/v1/jobs/{id}", "/v1/jobs/", id));
    CU_ASSERT_FALSE(api_router_match("/v1/jobs/{id}/events", "/v1/jobs//events", id));
    CU_ASSERT_TRUE(api_router_match("/v1/stats", "/v1/stats", id));
    CU_ASSERT_FALSE(api_router_match("/v1/stats", "/v1/stats/", id));

    /* OPTIONS on a known path is a 204 with Allow; on an unknown one a 404 */
    route("OPTIONS", "/v1/jobs", &resp);
    CU_ASSERT_EQUAL(resp.status, 204);
    CU_ASSERT_STRING_EQUAL(resp.allow, "GET, POST, OPTIONS");
    CU_ASSERT_STRING_EQUAL(resp.cors_methods, "GET, POST, OPTIONS");
    CU_ASSERT_STRING_EQUAL(resp.route, "/v1/jobs");
    api_http_response_release(&resp);
    route("OPTIONS", "/v1/jobs/42/events", &resp);
    CU_ASSERT_EQUAL(resp.status, 204);
    CU_ASSERT_STRING_EQUAL(resp.allow, "GET, OPTIONS");
    CU_ASSERT_STRING_EQUAL(resp.route, "/v1/jobs/{id}/events");
    api_http_response_release(&resp);
    route("OPTIONS", "/v1/nothing", &resp);
    CU_ASSERT_EQUAL(resp.status, 404);
    CU_ASSERT_PTR_NULL(resp.route);
    api_http_response_release(&resp);
    route("POST", "/v1/stats", &resp);
    CU_ASSERT_EQUAL(resp.status, 405);
    CU_ASSERT_STRING_EQUAL(resp.allow, "GET");
    api_http_response_release(&resp);
    route("DELETE", "/v1/jobs/42:cancel", &resp);
    CU_ASSERT_EQUAL(resp.status, 405);
    CU_ASSERT_STRING_EQUAL(resp.allow, "POST");
    api_http_response_release(&resp);
    /* no document built in (unit tests): a 404 problem, not a crash */
    route("GET", "/openapi.json", &resp);
    CU_ASSERT_EQUAL(resp.status, 404);
    api_http_response_release(&resp);
}

static void test_etag(void)
{
    char a[24], b[24], c[24];
    api_http_etag("{\"status\":\"queued\"}", 19, a);
    api_http_etag("{\"status\":\"running\"}", 20, b);
    api_http_etag("{\"status\":\"queued\"}", 19, c);
    CU_ASSERT_EQUAL(strlen(a), 18);
    CU_ASSERT_EQUAL(a[0], '"');
    CU_ASSERT_EQUAL(a[17], '"');
    CU_ASSERT_STRING_NOT_EQUAL(a, b);
    CU_ASSERT_STRING_EQUAL(a, c);
    /* FNV-1a 64 of "" is its offset basis */
    api_http_etag("", 0, c);
    CU_ASSERT_STRING_EQUAL(c, "\"cbf29ce484222325\"");

    CU_ASSERT_TRUE(api_http_etag_match("\"cbf29ce484222325\"", c));
    CU_ASSERT_TRUE(api_http_etag_match("W/\"cbf29ce484222325\"", c));
    CU_ASSERT_TRUE(api_http_etag_match("\"x\", \"cbf29ce484222325\"", c));
    CU_ASSERT_TRUE(api_http_etag_match("*", c));
    CU_ASSERT_FALSE(api_http_etag_match("\"cbf29ce484222326\"", c));
    CU_ASSERT_FALSE(api_http_etag_match("cbf29ce484222325", c)); /* unquoted */
    CU_ASSERT_FALSE(api_http_etag_match("\"cbf29ce484222325\"x", c));
    CU_ASSERT_FALSE(api_http_etag_match(NULL, c));
    CU_ASSERT_FALSE(api_http_etag_match("", c));
}

static void test_idempotency_key(void)
{
    char k[256];
    char big[300];
    CU_ASSERT_EQUAL(api_jobs_parse_key("\"abc-123\"", k), 0);
    CU_ASSERT_STRING_EQUAL(k, "abc-123");
    CU_ASSERT_EQUAL(api_jobs_parse_key("abc 123", k), 0); /* bare, with a space inside */
    CU_ASSERT_STRING_EQUAL(k, "abc 123");
    CU_ASSERT_EQUAL(api_jobs_parse_key("\"\"", k), -1);
    CU_ASSERT_EQUAL(api_jobs_parse_key("", k), -1);
    CU_ASSERT_EQUAL(api_jobs_parse_key("\"a\\\"b\"", k), -1);
    CU_ASSERT_EQUAL(api_jobs_parse_key("caf\xc3\xa9", k), -1); /* not ASCII */
    CU_ASSERT_EQUAL(api_jobs_parse_key("a\tb", k), -1);
    CU_ASSERT_EQUAL(api_jobs_parse_key(NULL, k), -1);
    memset(big, 'k', 255);
    big[255] = '\0';
    CU_ASSERT_EQUAL(api_jobs_parse_key(big, k), 0);
    CU_ASSERT_EQUAL(strlen(k), 255);
    big[255] = 'k';
    big[256] = '\0';
    CU_ASSERT_EQUAL(api_jobs_parse_key(big, k), -1); /* 256: one too many */
}

/* GET with query arguments; returns the status and the first error's parameter. */
static int get_args(const char *path, const char *k1, const char *v1, const char *k2,
                    const char *v2, char param[32])
{
    struct api_request req;
    struct api_response resp;
    json_t *doc;
    int status;
    memset(&req, 0, sizeof(req));
    req.method = "GET";
    req.path = path;
    req.req_id = "t";
    req.args[0].key = k1;
    req.args[0].value = v1;
    req.n_args = 1;
    if (k2) {
        req.args[1].key = k2;
        req.args[1].value = v2;
        req.n_args = 2;
    }
    api_http_response_init(&resp);
    api_router_handle(&ctx, &req, &resp);
    status = resp.status;
    doc = json_loadb(resp.body, resp.body_len, 0, NULL);
    param[0] = '\0';
    {
        const char *p = json_string_value(
            json_object_get(json_array_get(json_object_get(doc, "errors"), 0), "parameter"));
        if (p)
            strncat(param, p, 31);
    }
    CU_ASSERT_STRING_EQUAL(resp.content_type, "application/problem+json");
    json_decref(doc);
    api_http_response_release(&resp);
    return status;
}

static void test_bad_parameters(void)
{
    const char *job = "/v1/jobs/00000000-0000-4000-8000-000000000000";
    char p[32];
    CU_ASSERT_EQUAL(get_args(job, "wait", "-1", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "wait");
    CU_ASSERT_EQUAL(get_args(job, "wait", "1e9", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "wait");
    CU_ASSERT_EQUAL(get_args(job, "wait", "61", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "wait");
    CU_ASSERT_EQUAL(get_args(job, "wait", "", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "wait");
    CU_ASSERT_EQUAL(get_args(job, "wait", "5", "timeout", "3", p), 400);
    CU_ASSERT_STRING_EQUAL(p, "timeout");
    CU_ASSERT_EQUAL(get_args("/v1/jobs/42/events", "since", "1", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "since");
    CU_ASSERT_EQUAL(get_args("/v1/cards", "colour", "red", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "colour");
    CU_ASSERT_EQUAL(get_args("/v1/cards", "type", "wizard", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "type");
    CU_ASSERT_EQUAL(get_args("/v1/cards", "skill", "Armr", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "skill");
    CU_ASSERT_EQUAL(get_args("/v1/cards", "name", "", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "name");
    CU_ASSERT_EQUAL(get_args("/v1/spells", "duration", "forever", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "duration");
    CU_ASSERT_EQUAL(get_args("/v1/spells", "target", "minion", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "target");
    CU_ASSERT_EQUAL(get_args("/v1/spells", "event", "on_cast", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "event");
    CU_ASSERT_EQUAL(get_args("/v1/spells", "action", "heal", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "action");
    CU_ASSERT_EQUAL(get_args("/v1/stats", "verbose", "1", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "verbose");
    CU_ASSERT_EQUAL(get_args("/metrics", "x", "1", NULL, NULL, p), 400);
    CU_ASSERT_STRING_EQUAL(p, "x");
}

/* A refused origin is one the browser will block: not listed, and not the API's own. */
static void test_cors_refused(void)
{
    struct api_request req;
    memset(&req, 0, sizeof(req));
    CU_ASSERT_FALSE(api_cors_refused("http://deck.example", &req)); /* no Origin: not a page */
    req.origin = "http://deck.example";
    CU_ASSERT_FALSE(api_cors_refused("http://deck.example", &req));
    CU_ASSERT_TRUE(api_cors_refused("", &req));
    CU_ASSERT_TRUE(api_cors_refused("http://other.example", &req));
    req.host = "deck.example"; /* the dashboard's own POSTs */
    CU_ASSERT_FALSE(api_cors_refused("", &req));
    req.host = "127.0.0.1:8080";
    CU_ASSERT_TRUE(api_cors_refused("", &req));
}

static CU_TestInfo cors_tests[] = {
    {"CORS: exact origins, expose and preflight headers", test_cors},
    {"CORS: a foreign origin that is not listed is refused", test_cors_refused},
    {"route table: templates, preflight, 405 with Allow", test_table},
    {"ETag and If-None-Match", test_etag},
    {"Idempotency-Key parsing and its 255 limit", test_idempotency_key},
    {"bad wait, filters and unknown parameters are 400 naming them", test_bad_parameters},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_cors_suites[] = {
    {"api_cors", setup, NULL, NULL, NULL, cors_tests},
    CU_SUITE_INFO_NULL,
};
