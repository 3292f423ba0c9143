/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the request gate's head parser (api_gate_check) on the bytes a client
 * sends first, and the answer the gate writes for a refusal (api_gate_refusal). The first
 * byte picks small or default bounds. A crash, a sanitizer report or a leak is a bug, and
 * so is a broken promise: a refusal has a status the gate uses, names a header or an
 * element in printable ASCII, and its answer is one HTTP/1.1 response whose body is the
 * problem+json naming it with a Content-Length that fits; a head past the bound is never
 * "more"; and the verdict on a prefix of the bytes is the verdict on all of them (still
 * coming, or the same refusal; a head let through is refused later only for its chunked
 * body), since the gate decides on whatever has arrived. Built only with -DSK_FUZZ=ON and
 * clang; tests/data/fuzz/gate/ is its seed corpus, which test_api replays through this same
 * function in every build (SK_FUZZ_ENTRY renames it there). */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_gate.h"
#include "sk_mem.h"
#include "sk_utf8.h"

#include "sk_banned.h"

#ifndef SK_FUZZ_ENTRY
#define SK_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int SK_FUZZ_ENTRY(const uint8_t *data, size_t size);

static const struct api_gate_limits bounds[2] = {
    {256, 8, 4, 4, 1024},
    {16384, 64, 32, 32, 1048576},
};

/* 1 when `chunked` occurs in the n bytes of `s` in any case: a head let through can be
 * refused later only for the framing of a chunked body (its chunks or trailer fields). */
static int has_chunked(const char *s, size_t n)
{
    static const char w[] = "chunked";
    for (size_t i = 0; i + 7 <= n; i++) {
        size_t k = 0;
        while (k < 7 && (s[i + k] | 0x20) == w[k])
            k++;
        if (k == 7)
            return 1;
    }
    return 0;
}

static int printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x21 || (unsigned char)*s > 0x7e)
            return 0;
    return 1;
}

/* The answer of a refusal is one response naming what `why` names. */
static void check_answer(const struct api_gate_problem *why, const struct api_gate_limits *lim)
{
    size_t len = 0;
    char *text = api_gate_refusal(why, lim, &len);
    char status_line[64];
    const char *body, *cl;
    json_t *doc, *item;

    if (!text)
        return; /* out of memory */
    snprintf(status_line, sizeof(status_line), "HTTP/1.1 %d ", why->status);
    body = strstr(text, "\r\n\r\n");
    cl = strstr(text, "\r\nContent-Length: ");
    if (strlen(text) != len || strncmp(text, status_line, strlen(status_line)) != 0 || !body ||
        !cl || cl > body || strtoul(cl + 18, NULL, 10) != len - (size_t)(body + 4 - text) ||
        strstr(text, "\r\nHTTP/"))
        abort();
    doc = json_loadb(body + 4, len - (size_t)(body + 4 - text), 0, NULL);
    item = json_array_get(json_object_get(doc, "errors"), 0);
    if (!doc || json_integer_value(json_object_get(doc, "status")) != why->status ||
        strncmp(json_string_value(json_object_get(doc, "type")), "/problems/", 10) != 0 ||
        !json_string_value(json_object_get(item, why->member)) ||
        strcmp(json_string_value(json_object_get(item, why->member)), why->name) != 0)
        abort();
    json_decref(doc);
    sk_free(text);
}

static void check_refusal(const struct api_gate_problem *why)
{
    int s = why->status;
    if ((s != 400 && s != 413 && s != 414 && s != 431 && s != 505) || !why->slug || !why->title ||
        !why->member ||
        (strcmp(why->member, "header") != 0 && strcmp(why->member, "element") != 0) ||
        !why->name[0] || !printable(why->name) || !why->detail[0] ||
        !sk_utf8_valid(why->detail, strlen(why->detail)))
        abort();
}

int SK_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    static int init;
    const struct api_gate_limits *lim;
    const char *buf;
    struct api_gate_problem whole, part;
    enum api_gate_verdict vw;
    size_t n;

    if (!init) {
        sk_mem_init_json();
        init = 1;
    }
    if (size < 1)
        return 0;
    lim = &bounds[data[0] & 1];
    buf = (const char *)data + 1;
    n = size - 1;
    memset(&whole, 0, sizeof(whole));
    vw = api_gate_check(buf, n, lim, &whole);
    if (vw != API_GATE_MORE && vw != API_GATE_PASS && vw != API_GATE_REFUSE)
        abort();
    if (vw == API_GATE_MORE && n >= lim->max_head)
        abort();
    if (vw == API_GATE_REFUSE) {
        check_refusal(&whole);
        check_answer(&whole, lim);
    }
    /* prefixes: a few split points, and every one for short inputs */
    for (size_t k = 0; k<n; k += n> 64 ? n / 16 + 1 : 1) {
        enum api_gate_verdict vp = api_gate_check(buf, k, lim, &part);
        if (vp == API_GATE_REFUSE &&
            (vw != API_GATE_REFUSE || part.status != whole.status ||
             strcmp(part.member, whole.member) != 0 || strcmp(part.name, whole.name) != 0))
            abort();
        if (vp == API_GATE_PASS && vw == API_GATE_REFUSE &&
            ((whole.status != 400 && whole.status != 413) || !has_chunked(buf, n)))
            abort();
        if (vp == API_GATE_PASS && vw == API_GATE_MORE)
            abort();
    }
    return 0;
}
