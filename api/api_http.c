/* SPDX-License-Identifier: MIT */
/* Plain request/response data and problem+json (see api_http.h). */
#include "api_http.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sk_hash.h"
#include "sk_mem.h"

#include "sk_banned.h"

static const char oom_problem[] =
    "{\"type\":\"about:blank\",\"title\":\"Internal Server Error\",\"status\":500,"
    "\"detail\":\"out of memory\"}";

const char *api_http_arg(const struct api_request *req, const char *key)
{
    for (size_t i = 0; i < req->n_args; i++)
        if (strcmp(req->args[i].key, key) == 0)
            return req->args[i].value;
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

    if (slug)
        snprintf(type, sizeof(type), "/problems/%s", slug);
    else
        snprintf(type, sizeof(type), "about:blank");
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
