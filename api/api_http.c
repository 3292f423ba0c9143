/* SPDX-License-Identifier: MIT */
/* Plain request/response data and problem+json (see api_http.h). */
#include "api_http.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sk_hash.h"
#include "sk_mem.h"
#include "sk_utf8.h"

#include "sk_banned.h"

static const char oom_problem[] =
    "{\"type\":\"about:blank\",\"title\":\"Internal Server Error\",\"status\":500,"
    "\"detail\":\"out of memory\"}";

/* `s` itself when it is safe text, else a kept escaped copy; NULL when out of memory. */
static const char *safe_str(struct api_http_safe *ss, const char *s)
{
    size_t n = strlen(s);
    char *out;
    if (!sk_utf8_needs_escape(s, n, 0))
        return s;
    if (ss->n == sizeof(ss->owned) / sizeof(ss->owned[0]))
        return NULL;
    out = sk_malloc(3 * n + 1);
    if (!out)
        return NULL;
    sk_utf8_escape(out, 3 * n + 1, s, n, 0);
    ss->owned[ss->n++] = out;
    return out;
}

int api_http_safe_request(struct api_request *req, struct api_http_safe *ss)
{
    int rc = 0;
    const char *p = safe_str(ss, req->path);
    if (p)
        req->path = p;
    else
        rc = -1;
    for (size_t i = 0; i < req->n_args; i++) {
        const char *k = safe_str(ss, req->args[i].key);
        const char *v = safe_str(ss, req->args[i].value);
        if (!k || !v) {
            rc = -1;
            continue;
        }
        req->args[i].key = k;
        req->args[i].value = v;
    }
    return rc;
}

void api_http_safe_release(struct api_http_safe *ss)
{
    for (size_t i = 0; i < ss->n; i++)
        sk_free(ss->owned[i]);
    ss->n = 0;
}

const char *api_http_arg(const struct api_request *req, const char *key)
{
    for (size_t i = 0; i < req->n_args; i++)
        if (strcmp(req->args[i].key, key) == 0)
            return req->args[i].value;
    return NULL;
}

const char *api_http_repeated_arg(const struct api_request *req)
{
    /* at most API_MAX_ARGS arguments: the square is small */
    for (size_t i = 0; i < req->n_args; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(req->args[i].key, req->args[j].key) == 0)
                return req->args[i].key;
    return NULL;
}

void api_http_response_init(struct api_response *resp)
{
    memset(resp, 0, sizeof(*resp));
}

void api_http_response_release(struct api_response *resp)
{
    if (!resp)
        return;
    sk_free(resp->body);
    resp->body = NULL;
}

/* A fixed 500 for when building the real response ran out of memory. */
static void set_oom(struct api_response *resp)
{
    sk_free(resp->body);
    resp->status = 500;
    resp->content_type = "application/problem+json";
    resp->body = sk_strdup(oom_problem);
    resp->body_len = resp->body ? strlen(resp->body) : 0;
}

int api_http_json_text(struct api_response *resp, int status, const char *body)
{
    char *b = sk_strdup(body);
    if (!b) {
        set_oom(resp);
        return -1;
    }
    sk_free(resp->body);
    resp->status = status;
    resp->content_type = "application/json";
    resp->body = b;
    resp->body_len = strlen(b);
    return 0;
}

void api_http_problem(struct api_response *resp, int status, const char *slug, const char *title,
                      const char *detail, json_t *ext)
{
    char type[96];
    json_t *doc = NULL;
    char *text = NULL;

    char safe[1024];

    if (slug)
        snprintf(type, sizeof(type), "/problems/%s", slug);
    else
        snprintf(type, sizeof(type), "about:blank");
    /* A detail quoting the client (an id, a name) cut by a bounded snprintf may end inside
     * a character, and jansson refuses text that is not UTF-8: made valid and one line. */
    if (sk_utf8_needs_escape(detail, strlen(detail), 0)) {
        sk_utf8_escape(safe, sizeof(safe), detail, strlen(detail), 0);
        detail = safe;
    }
    doc = json_pack("{s:s, s:s, s:i, s:s}", "type", type, "title", title, "status", status,
                    "detail", detail);
    if (!doc || (ext && json_object_update(doc, ext)))
        goto oom;
    text = json_dumps(doc, JSON_COMPACT);
    if (!text)
        goto oom;
    sk_free(resp->body);
    resp->status = status;
    resp->content_type = "application/problem+json";
    resp->body = text; /* jansson allocates through sk_malloc (sk_mem_init_json) */
    resp->body_len = strlen(text);
    json_decref(doc);
    json_decref(ext);
    return;
oom:
    json_decref(doc);
    json_decref(ext);
    set_oom(resp);
}

int api_http_is_json(const char *ct)
{
    size_t n = strlen("application/json");
    if (!ct)
        return 0;
    while (*ct == ' ')
        ct++;
    if (strncasecmp(ct, "application/json", n) != 0)
        return 0;
    ct += n;
    while (*ct == ' ')
        ct++;
    return *ct == '\0' || *ct == ';';
}

void api_http_etag(const char *body, size_t len, char out[24])
{
    /* FNV-1a 64 of the representation: any change of any field changes the validator */
    snprintf(out, 24, "\"%016llx\"", (unsigned long long)sk_fnv1a(SK_FNV1A_INIT, body, len));
}

int api_http_etag_match(const char *if_none_match, const char *etag)
{
    const char *p = if_none_match;
    size_t n = strlen(etag);

    if (!p || !etag[0])
        return 0;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (*p == '*')
            return 1;
        if (strncmp(p, "W/", 2) == 0) /* weak comparison, as RFC 9110 asks of If-None-Match */
            p += 2;
        if (strncmp(p, etag, n) == 0 && (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
            return 1;
        while (*p && *p != ',')
            p++;
    }
    return 0;
}

const char *api_http_scope(const struct api_request *req)
{
    return req->admin ? NULL : req->tenant;
}
