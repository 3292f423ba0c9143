/* SPDX-License-Identifier: MIT */
/* 64-bit FNV-1a (see sk_hash.h). */
#include "sk_hash.h"

#include <string.h>

#include "sk_banned.h"

#define FNV1A_PRIME 0x100000001b3ULL

uint64_t sk_fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= FNV1A_PRIME;
    }
    return h;
}

uint64_t sk_fnv1a_str(const char *s)
{
    return sk_fnv1a(SK_FNV1A_INIT, s, strlen(s));
}
