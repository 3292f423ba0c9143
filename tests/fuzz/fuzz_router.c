/* SPDX-License-Identifier: MIT */
/* libFuzzer target: a request target (path and query, as a client sends it) through what
 * the server does with it: percent-decoding as libmicrohttpd does (MHD_http_unescape),
 * splitting the query into parameters, making every string safe (api_http_safe_request, as
 * the server does where a request enters), matching every route template
 * (api_router_match) and routing it (api_router_handle) with the engine's catalogs and
 * stores that cannot be reached. The first byte picks the method. A crash, a sanitizer
 * report or a leak is a bug, and so is an answer that breaks the API's promises: a status
 * the API uses, a body that is JSON when it says so and valid UTF-8, a problem whose status
 * matches, an invalid-query problem that names one of the request's parameters, no 500
 * (unreachable stores answer 503). Built only with -DSK_FUZZ=ON and clang;
 * tests/data/fuzz/router/ is its seed corpus, which test_api replays through this same
 * function in every build (SK_FUZZ_ENTRY renames it there). */
#include <jansson.h>
#include <microhttpd.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api_http.h"
#include "api_pool.h"
#include "api_router.h"
#include "job.h"
#include "sk_config.h"
#include "sk_mem.h"
#include "sk_utf8.h"

#include "sk_banned.h"

#ifndef SK_FUZZ_ENTRY
#define SK_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int SK_FUZZ_ENTRY(const uint8_t *data, size_t size);

static enum sk_err refuse(const json_t *doc, struct api_job_info *info, struct sk_verr_list *errs)
{
    (void)doc;
    (void)info;
    return sk_verr_add(errs, "", "not validated here");
}

static int known(const char *kind)
{
    return job_kind_known(kind);
}

static struct sk_config cfg;
static struct api_ctx ctx;

static void init_once(void)
{
    static int done;
    char err[512];
    const struct job_catalog *cards, *spells, *missions, *decks;
    if (done)
        return;
    done = 1;
    sk_mem_init_json();
    if (sk_config_load(&cfg, err, sizeof(err)) != SK_OK)
        abort();
    cards = job_catalog_named("cards");
    spells = job_catalog_named("spells");
    missions = job_catalog_named("missions");
    decks = job_catalog_named("decks");
    ctx.cfg = &cfg;
    ctx.validate = refuse;
    ctx.kind_known = known;
    ctx.cards = cards ? cards->load : NULL;
    ctx.spells = spells ? spells->load : NULL;
    /* every catalog route as the server sets them (api/main.c): one left NULL answers 500 */
    ctx.missions = missions ? missions->load : NULL;
    ctx.decks = decks ? decks->load : NULL;
    /* stores that refuse every connection: store routes must answer 503, never crash */
    if (api_pool_new(1, "postgresql://127.0.0.1:1/fuzz?connect_timeout=1", "redis://127.0.0.1:1",
                     "fuzz", &ctx.pool) != SK_OK)
        abort();
}

/* The {id} matches of every template agree with the path they came from. */
static void check_match(const char *path)
{
    for (const struct api_route *r = api_router_routes(); r->method; r++) {
        char id[64];
        const char *brace = strstr(r->path, "{id}");
        if (!api_router_match(r->path, path, id) || !brace)
            continue;
        size_t pre = (size_t)(brace - r->path), n = strlen(id);
        if (n == 0 || n >= 64 || strchr(id, '/') || strchr(id, ':') ||
            strncmp(path, r->path, pre) != 0 || strncmp(path + pre, id, n) != 0 ||
            strcmp(path + pre + n, brace + 4) != 0)
            abort();
    }
}

static void check_answer(const struct api_request *req, const struct api_response *resp)
{
    json_t *doc;
    json_t *errors;
    const char *param;
    int found = 0;

    if (resp->status < 200 || resp->status > 599 || resp->status == 500)
        abort();
    if (resp->body && !sk_utf8_valid(resp->body, resp->body_len))
        abort();
    if (!resp->content_type || strstr(resp->content_type, "json") == NULL)
        return;
    doc = json_loadb(resp->body, resp->body_len, 0, NULL);
    if (!doc)
        abort();
    if (strcmp(resp->content_type, "application/problem+json") == 0) {
        if (json_integer_value(json_object_get(doc, "status")) != resp->status ||
            !json_string_value(json_object_get(doc, "type")) ||
            !json_string_value(json_object_get(doc, "detail")))
            abort();
        errors = json_object_get(doc, "errors");
        param = json_string_value(json_object_get(json_array_get(errors, 0), "parameter"));
        if (strcmp(json_string_value(json_object_get(doc, "type")), "/problems/invalid-query") ==
                0 &&
            !req->too_many_args) {
            /* names a parameter the request has (after escaping), or one it lacks */
            for (size_t i = 0; param && i < req->n_args; i++)
                found |= strcmp(req->args[i].key, param) == 0;
            if (!param || (!found && strcmp(param, "status") != 0 && strcmp(param, "kind") != 0))
                abort();
        }
    }
    json_decref(doc);
}

int SK_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    static const char *const methods[] = {"GET", "POST", "HEAD", "OPTIONS", "PUT"};
    struct api_request req;
    struct api_response resp;
    struct api_http_safe ss = {{NULL}, 0};
    char *target;
    char *query;

    init_once();
    if (size == 0)
        return 0;
    target = sk_malloc(size);
    if (!target)
        return 0;
    memcpy(target, data + 1, size - 1);
    target[size - 1] = '\0'; /* a NUL ends it, as in the server's strings */
    memset(&req, 0, sizeof(req));
    req.method = methods[data[0] % 5];
    req.req_id = "fuzz";
    query = strchr(target, '?');
    if (query)
        *query++ = '\0';
    MHD_http_unescape(target);
    req.path = target;
    /* parameters: "k=v" or "k", separated by '&', each side percent-decoded */
    while (query && *query) {
        char *amp = strchr(query, '&');
        char *eq;
        if (amp)
            *amp = '\0';
        eq = strchr(query, '=');
        if (eq)
            *eq = '\0';
        if (req.n_args == API_MAX_ARGS) {
            req.too_many_args = 1;
            break;
        }
        MHD_http_unescape(query);
        if (eq)
            MHD_http_unescape(eq + 1);
        req.args[req.n_args].key = query;
        req.args[req.n_args].value = eq ? eq + 1 : "";
        req.n_args++;
        query = amp ? amp + 1 : NULL;
    }
    if (api_http_safe_request(&req, &ss) == 0) {
        if (!sk_utf8_valid(req.path, strlen(req.path)) ||
            sk_utf8_needs_escape(req.path, strlen(req.path), 0))
            abort();
        check_match(req.path);
        api_http_response_init(&resp);
        if (req.too_many_args)
            api_http_problem(&resp, 400, "invalid-query", "Bad Request",
                             "too many query parameters", NULL);
        else
            api_router_handle(&ctx, &req, &resp);
        if (!resp.wait && !resp.sse)
            check_answer(&req, &resp);
        api_http_response_release(&resp);
    }
    api_http_safe_release(&ss);
    sk_free(target);
    return 0;
}
