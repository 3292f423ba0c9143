/* SPDX-License-Identifier: MIT */
/* libFuzzer target: SKIRMISH_TRUSTED_PROXIES and X-Forwarded-For (api_proxy.h). The first
 * 4 bytes are the TCP peer (IPv4); then a trusted-proxy list up to the first newline, then
 * X-Forwarded-For values, one a line (at most 8). A crash, a sanitizer report or a leak is
 * a bug, and so is a broken promise: a peer the list does not trust keeps its own address
 * whatever the header says; the address given is the peer's, or one of 240.0.0.0/4 (an
 * IPv6 client), or one the values name (its text is in them, for a dotted quad); its text
 * is a NUL-terminated address within the buffer. Built only with -DSK_FUZZ=ON and clang;
 * tests/data/fuzz/proxy/ is its seed corpus, which test_api replays through this same
 * function in every build (SK_FUZZ_ENTRY renames it there). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_proxy.h"

#include "sk_banned.h"

#ifndef SK_FUZZ_ENTRY
#define SK_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int SK_FUZZ_ENTRY(const uint8_t *data, size_t size);

#define MAX_VALUES 8

int SK_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    char *copy;
    char *list, *p;
    const char *values[MAX_VALUES];
    size_t n = 0;
    uint32_t peer, got;
    struct api_proxy *px = NULL;
    char text[API_PROXY_ADDRSTRLEN];
    char err[200];

    if (size < 4 || size > 4096)
        return 0;
    peer = (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 | (uint32_t)data[2] << 8 | data[3];
    copy = malloc(size - 4 + 1);
    if (!copy)
        return 0;
    memcpy(copy, data + 4, size - 4);
    copy[size - 4] = '\0';
    list = copy;
    p = strchr(copy, '\n');
    if (p) {
        *p++ = '\0';
        while (p && n < MAX_VALUES) {
            char *nl = strchr(p, '\n');
            if (nl)
                *nl++ = '\0';
            values[n++] = p;
            p = nl;
        }
    }
    if (api_proxy_new(list, &px, err, sizeof(err)) != SK_OK) {
        if (memchr(err, '\0', sizeof(err)) == NULL || px)
            abort();
        goto out;
    }
    memset(text, 'x', sizeof(text));
    got = api_proxy_client(px, peer, values, n, text, sizeof(text));
    if (!memchr(text, '\0', sizeof(text)) || text[0] == '\0')
        abort();
    if (!api_proxy_trusts(px, peer) && got != peer)
        abort();
    if (got != peer && got >> 28 != 0xf) {
        /* a dotted quad the values hold, or an IPv4-mapped IPv6 address there */
        char want[16];
        int found = 0;
        snprintf(want, sizeof(want), "%u.%u.%u.%u", got >> 24, (got >> 16) & 255, (got >> 8) & 255,
                 got & 255);
        if (strcmp(want, text) != 0)
            abort();
        for (size_t i = 0; i < n && !found; i++)
            found = strstr(values[i], want) != NULL || strchr(values[i], ':') != NULL;
        if (!found)
            abort();
    }
out:
    api_proxy_free(px);
    free(copy);
    return 0;
}
