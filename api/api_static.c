/* SPDX-License-Identifier: MIT */
/* Embedded dashboard files (see api_static.h). The bytes come from cmake/SkEmbed.cmake
 * (api/CMakeLists.txt names the files), NUL-terminated text. */
#include "api_static.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "api_problems.h"
#include "sk_hash.h"
#include "sk_mem.h"

#include "sk_banned.h"

extern const char api_static_index_html[];
extern const char api_static_app_js[];
extern const char api_static_style_css[];
extern const char api_static_docs_html[];
extern const char api_static_redoc_js[];

/* The dashboard loads only its own files and talks only to this API; no framing (the form
 * submits jobs, so another site must not overlay it). */
static const char csp[] = "default-src 'none'; script-src 'self'; style-src 'self'; "
                          "img-src 'self' data:; connect-src 'self'; form-action 'self'; "
                          "frame-ancestors 'none'; base-uri 'none'";

/* Redoc (the /docs page) styles its elements at run time (styled-components inserts
 * <style> elements) and runs its search index in a worker made from a blob: URL; it still
 * loads only this API's files and talks only to it. */
static const char csp_docs[] = "default-src 'none'; script-src 'self'; "
                               "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                               "font-src 'self' data:; connect-src 'self'; worker-src blob:; "
                               "form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

struct asset {
    const char *path;
    const char *data;
    const char *type;
    const char *csp;
};

static const struct asset assets[] = {
    {"/", api_static_index_html, "text/html; charset=utf-8", csp},
    {"/dashboard/", api_static_index_html, "text/html; charset=utf-8", csp},
    {"/dashboard/app.js", api_static_app_js, "text/javascript; charset=utf-8", csp},
    {"/dashboard/style.css", api_static_style_css, "text/css; charset=utf-8", csp},
    {"/docs", api_static_docs_html, "text/html; charset=utf-8", csp_docs},
    {"/dashboard/vendor/redoc.standalone.js", api_static_redoc_js, "text/javascript; charset=utf-8",
     csp_docs},
};

static const struct asset *find(const char *path)
{
    for (size_t i = 0; i < sizeof(assets) / sizeof(assets[0]); i++)
        if (strcmp(assets[i].path, path) == 0)
            return &assets[i];
    return NULL;
}

int api_static_exists(const char *path)
{
    return find(path) != NULL || api_problems_exists(path);
}

void api_static_etag(const char *data, size_t len, char *out, size_t len_out)
{
    snprintf(out, len_out, "\"%016llx\"", (unsigned long long)sk_fnv1a(SK_FNV1A_INIT, data, len));
}

int api_static_etag_matches(const char *inm, const char *etag)
{
    size_t elen = strlen(etag);
    const char *p = inm;

    if (!inm)
        return 0;
    while (*p) {
        const char *start;
        size_t n;
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        start = p;
        while (*p && *p != ',')
            p++;
        n = (size_t)(p - start);
        while (n && (start[n - 1] == ' ' || start[n - 1] == '\t'))
            n--;
        if (n == 1 && start[0] == '*')
            return 1;
        if (n >= 2 && start[0] == 'W' && start[1] == '/') {
            start += 2;
            n -= 2;
        }
        if (n == elen && memcmp(start, etag, n) == 0)
            return 1;
    }
    return 0;
}

void api_static_get(const struct api_ctx *ctx, const struct api_request *req,
                    struct api_response *resp)
{
    const struct asset *a = find(req->path);
    struct asset page = {NULL, NULL, "text/html; charset=utf-8", csp};
    char *page_owned = NULL;
    size_t len;
    char *body = NULL;
    (void)ctx;

    if (!a && api_problems_exists(req->path)) {
        page_owned = api_problems_page(req->path);
        if (!page_owned) {
            api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
            return;
        }
        page.data = page_owned;
        a = &page;
    }
    if (!a) {
        api_http_problem(resp, 404, NULL, "Not Found", "no such resource", NULL);
        return;
    }
    len = strlen(a->data);
    api_static_etag(a->data, len, resp->etag, sizeof(resp->etag));
    resp->csp = a->csp;
    if (api_static_etag_matches(req->if_none_match, resp->etag)) {
        sk_free(page_owned);
        resp->status = 304; /* no body, and no Content-Type (RFC 9110 15.4.5) */
        return;
    }
    body = page_owned ? page_owned : sk_malloc(len ? len : 1);
    if (!body) {
        resp->etag[0] = '\0';
        resp->csp = NULL;
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
        return;
    }
    if (!page_owned)
        memcpy(body, a->data, len);
    sk_free(resp->body);
    resp->status = 200;
    resp->content_type = a->type;
    resp->body = body;
    resp->body_len = len;
}
