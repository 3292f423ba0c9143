/* SPDX-License-Identifier: MIT */
/* What the API's seam tests share: a context with no stores (a handler that reached
 * PostgreSQL or Redis would crash), a fake validator and kind check, and helpers that run
 * one request through the router and parse the answer. Each test file has its own copy of
 * the static context. */
#ifndef API_TESTLIB_H
#define API_TESTLIB_H

#include <CUnit/CUnit.h>
#include <jansson.h>
#include <string.h>

#include "api_http.h"
#include "api_router.h"
#include "api_testreq.h"
#include "sk_config.h"
#include "sk_mem.h"

static struct sk_config cfg;

/* A validator that accepts {"kind":"battle","params":{}} and reports two pointers for
 * anything else, as the engine's codec does. */
static inline enum sk_err fake_validate(const json_t *doc, struct api_job_info *info,
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

static inline int fake_kind(const char *k)
{
    return strcmp(k, "battle") == 0 || strcmp(k, "board") == 0;
}

static const struct api_ctx ctx = {.cfg = &cfg, .validate = fake_validate, .kind_known = fake_kind};

static inline int setup(void)
{
    sk_mem_init_json();
    memset(&cfg, 0, sizeof(cfg));
    cfg.max_body_bytes = 1048576;
    cfg.list_limit_max = 100;
    return 0;
}

/* Runs one request and returns the parsed body (caller decrefs); *status gets the code. */
static inline json_t *call(const char *method, const char *path, const char *ct, const char *body,
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

static inline json_t *call_args(const char *path, const char *const *kv, size_t n, int *status)
{
    const char *ct = NULL;
    json_t *doc = api_testreq_get(&ctx, path, kv, n, status, &ct);
    CU_ASSERT_STRING_EQUAL(ct, "application/problem+json");
    return doc;
}

#endif
