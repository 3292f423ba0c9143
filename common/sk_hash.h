/* SPDX-License-Identifier: MIT */
/* The one non-cryptographic hash: 64-bit FNV-1a. It tells things apart (ETags, cache
 * slots, migration checksums, OpenCL program-cache keys); it resists no adversary, so it
 * never guards anything a client could exploit by choosing collisions. */
#ifndef SK_HASH_H
#define SK_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The FNV-1a 64 offset basis: the hash of no bytes, and the start of every chain. */
#define SK_FNV1A_INIT 0xcbf29ce484222325ULL

/** Continues the hash `h` over `len` bytes of `data`; start with SK_FNV1A_INIT. */
uint64_t sk_fnv1a(uint64_t h, const void *data, size_t len);

/** The hash of the string `s` (without its NUL), from SK_FNV1A_INIT. */
uint64_t sk_fnv1a_str(const char *s);

#endif
