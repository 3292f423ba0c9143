/* SPDX-License-Identifier: MIT */
/* The embedded dashboard through the router: every file is served byte for byte as it is in
 * dashboard/ with its Content-Type, ETag and CSP; If-None-Match gives 304; any
 * other path (unknown file, traversal, prefix tricks) is a 404 problem; methods other than
 * GET/HEAD are 405. Also the ETag and If-None-Match helpers alone. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_http.h"
#include "api_router.h"
#include "api_static.h"
#include "sk_config.h"
#include "sk_mem.h"

static struct sk_config cfg;
static const struct api_ctx ctx = {.cfg = &cfg};

static int setup(void)
{
    sk_mem_init_json();
    memset(&cfg, 0, sizeof(cfg));
    return 0;
}

/* The file's bytes (malloc'd, NUL-terminated) or NULL. */
static char *slurp(const char *rel, size_t *len)
{
    char path[4096];
    FILE *f;
    char *buf = NULL;
    long n;
    snprintf(path, sizeof(path), "%s/%s", SK_SOURCE_DIR, rel);
    f = fopen(path, "rb");
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
            buf[n] = '\0';
            *len = (size_t)n;
        } else {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    return buf;
}

static void request(const char *method, const char *path, const char *inm,
                    struct api_response *resp)
{
    struct api_request req;
    memset(&req, 0, sizeof(req));
    req.method = method;
    req.path = path;
    req.req_id = "t";
    req.if_none_match = inm;
    api_http_response_init(resp);
    api_router_handle(&ctx, &req, resp);
}

static void check_file(const char *path, const char *rel, const char *type)
{
    struct api_response resp;
    size_t len = 0;
    char *want = slurp(rel, &len);
    char etag[40];
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    request("GET", path, NULL, &resp);
    CU_ASSERT_EQUAL(resp.status, 200);
    CU_ASSERT_STRING_EQUAL(resp.content_type, type);
    CU_ASSERT_PTR_NOT_NULL(resp.csp);
    CU_ASSERT_EQUAL(resp.body_len, len);
    CU_ASSERT(resp.body && len == resp.body_len && memcmp(resp.body, want, len) == 0);
    api_static_etag(want, len, etag, sizeof(etag));
    CU_ASSERT_STRING_EQUAL(resp.etag, etag);
    api_http_response_release(&resp);
    /* HEAD is routed like GET (the server drops the body) */
    request("HEAD", path, NULL, &resp);
    CU_ASSERT_EQUAL(resp.status, 200);
    CU_ASSERT_STRING_EQUAL(resp.etag, etag);
    api_http_response_release(&resp);
    free(want);
}

static void test_files(void)
{
    check_file("/", "dashboard/index.html", "text/html; charset=utf-8");
    check_file("/dashboard/", "dashboard/index.html", "text/html; charset=utf-8");
    check_file("/dashboard/app.js", "dashboard/app.js", "text/javascript; charset=utf-8");
    check_file("/dashboard/style.css", "dashboard/style.css", "text/css; charset=utf-8");
}

static void test_not_modified(void)
{
    struct api_response resp;
    char etag[40];
    char list[128];

    request("GET", "/dashboard/app.js", NULL, &resp);
    CU_ASSERT_EQUAL_FATAL(resp.status, 200);
    snprintf(etag, sizeof(etag), "%s", resp.etag);
    api_http_response_release(&resp);

    request("GET", "/dashboard/app.js", etag, &resp);
    CU_ASSERT_EQUAL(resp.status, 304);
    CU_ASSERT_EQUAL(resp.body_len, 0);
    CU_ASSERT_PTR_NULL(resp.body);
    CU_ASSERT_PTR_NULL(resp.content_type);
    CU_ASSERT_STRING_EQUAL(resp.etag, etag);
    api_http_response_release(&resp);

    snprintf(list, sizeof(list), "\"0000000000000000\", W/%s", etag);
    request("GET", "/dashboard/app.js", list, &resp);
    CU_ASSERT_EQUAL(resp.status, 304);
    api_http_response_release(&resp);

    /* another file's ETag does not match */
    request("GET", "/dashboard/style.css", etag, &resp);
    CU_ASSERT_EQUAL(resp.status, 200);
    api_http_response_release(&resp);
}

static void test_unknown_paths(void)
{
    const char *paths[] = {"/dashboard/nope.js",
                           "/dashboard/../api/api_static.c",
                           "/dashboard/app.js/",
                           "/dashboard//app.js",
                           "/dashboard/APP.JS",
                           "/dashboard",
                           "/index.html",
                           "/dashboard/app.js%00",
                           "//"};
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        struct api_response resp;
        request("GET", paths[i], NULL, &resp);
        CU_ASSERT_EQUAL(resp.status, 404);
        CU_ASSERT_STRING_EQUAL(resp.content_type, "application/problem+json");
        CU_ASSERT_STRING_EQUAL(resp.etag, "");
        api_http_response_release(&resp);
    }
}

static void test_methods(void)
{
    struct api_response resp;
    request("POST", "/", NULL, &resp);
    CU_ASSERT_EQUAL(resp.status, 405);
    CU_ASSERT_STRING_EQUAL(resp.allow, "GET");
    api_http_response_release(&resp);
    request("DELETE", "/dashboard/app.js", NULL, &resp);
    CU_ASSERT_EQUAL(resp.status, 405);
    api_http_response_release(&resp);
}

static void test_etag_helpers(void)
{
    char e[40];
    /* FNV-1a 64 of "" is the offset basis; of "a" is af63dc4c8601ec8c */
    api_static_etag("", 0, e, sizeof(e));
    CU_ASSERT_STRING_EQUAL(e, "\"cbf29ce484222325\"");
    api_static_etag("a", 1, e, sizeof(e));
    CU_ASSERT_STRING_EQUAL(e, "\"af63dc4c8601ec8c\"");

    CU_ASSERT_EQUAL(api_static_etag_matches(NULL, "\"x\""), 0);
    CU_ASSERT_EQUAL(api_static_etag_matches("", "\"x\""), 0);
    CU_ASSERT_EQUAL(api_static_etag_matches("*", "\"x\""), 1);
    CU_ASSERT_EQUAL(api_static_etag_matches(" \"x\" ", "\"x\""), 1);
    CU_ASSERT_EQUAL(api_static_etag_matches("W/\"x\"", "\"x\""), 1);
    CU_ASSERT_EQUAL(api_static_etag_matches("\"a\",\"x\"", "\"x\""), 1);
    CU_ASSERT_EQUAL(api_static_etag_matches("\"a\", \"xy\"", "\"x\""), 0);
    CU_ASSERT_EQUAL(api_static_etag_matches("x", "\"x\""), 0);
    CU_ASSERT_EQUAL(api_static_etag_matches("\"x", "\"x\""), 0);
}

static CU_TestInfo static_tests[] = {
    {"each file byte for byte with its type, ETag and CSP", test_files},
    {"If-None-Match: 304 without a body; another ETag: 200", test_not_modified},
    {"unknown, traversal and near-miss paths are 404", test_unknown_paths},
    {"POST and DELETE are 405 with Allow: GET", test_methods},
    {"FNV-1a ETag values; If-None-Match lists, W/ and *", test_etag_helpers},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_static_suites[] = {
    {"api_static", setup, NULL, NULL, NULL, static_tests},
    CU_SUITE_INFO_NULL,
};
