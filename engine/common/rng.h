/* SPDX-License-Identifier: MIT */
/* Counter-based random numbers: Philox4x32-10 (Salmon et al., "Parallel random numbers:
 * as easy as 1, 2, 3", SC'11). A stream is keyed by the job seed and addressed by
 * (game index, draw block), so game i of a job draws the same numbers on any thread,
 * chunk or device. Compiles as C11 and as OpenCL C 1.2 (see clc.h). */
#ifndef RNG_H
#define RNG_H

#include "clc.h"

#define RNG_PHILOX_M0 0xD2511F53u
#define RNG_PHILOX_M1 0xCD9E8D57u
#define RNG_PHILOX_W0 0x9E3779B9u
#define RNG_PHILOX_W1 0xBB67AE85u

/* One Philox4x32 block: 10 rounds over ctr with key; writes 4 words to out. */
CLC_FN void rng_philox4x32_10(const clc_u32 ctr[4], const clc_u32 key[2], clc_u32 out[4])
{
    clc_u32 c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
    clc_u32 k0 = key[0], k1 = key[1];
    for (int r = 0; r < 10; r++) {
        clc_u64 p0 = (clc_u64)RNG_PHILOX_M0 * c0;
        clc_u64 p1 = (clc_u64)RNG_PHILOX_M1 * c2;
        clc_u32 hi0 = (clc_u32)(p0 >> 32), lo0 = (clc_u32)p0;
        clc_u32 hi1 = (clc_u32)(p1 >> 32), lo1 = (clc_u32)p1;
        c0 = hi1 ^ c1 ^ k0;
        c1 = lo1;
        c2 = hi0 ^ c3 ^ k1;
        c3 = lo0;
        k0 += RNG_PHILOX_W0;
        k1 += RNG_PHILOX_W1;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

#if !defined(__OPENCL_VERSION__) && defined(__SSE2__)
#include <emmintrin.h>
#define RNG_PHILOX_SSE2 1

/* rng_philox4x32_10 in SSE2 (every x86-64 has it), the host's copy: the same words. A round's
 * two 32x32->64 products are one pmuludq over lanes 0 and 2, and the round is about 8
 * instructions with its shuffle, xors, key step and register copies, against about 14
 * scalar ones: the 10 rounds were 3-5% of a plain game's instructions.
 * tests/unit/engine/test_rng.c holds the two copies to each other and to the known
 * answers. */
static inline void rng_philox4x32_10_sse2(const clc_u32 ctr[4], const clc_u32 key[2],
                                          clc_u32 out[4])
{
    /* lanes [c0, c1, c2, c3]; products [lo0, hi0, lo1, hi1] with p0 = M0 c0, p1 = M1 c2 */
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)ctr);
    const __m128i m = _mm_set_epi32(0, (int)RNG_PHILOX_M1, 0, (int)RNG_PHILOX_M0);
    const __m128i w = _mm_set_epi32(0, (int)RNG_PHILOX_W1, 0, (int)RNG_PHILOX_W0);
    __m128i k = _mm_set_epi32(0, (int)key[1], 0, (int)key[0]);
    for (int r = 0; r < 10; r++) {
        /* [hi1, lo1, hi0, lo0] ^ [c1, 0, c3, 0] ^ [k0, 0, k1, 0] */
        __m128i t = _mm_xor_si128(_mm_srli_epi64(x, 32), k);
        x = _mm_xor_si128(_mm_shuffle_epi32(_mm_mul_epu32(x, m), _MM_SHUFFLE(0, 1, 2, 3)), t);
        k = _mm_add_epi32(k, w);
    }
    _mm_storeu_si128((__m128i *)(void *)out, x);
}
#endif

/* The random stream of one game. Plain data: copy freely. 40 bytes. */
struct rng {
    clc_u32 key[2]; /* the job seed */
    clc_u32 ctr[4]; /* game index (ctr[0], ctr[1]) and block number (ctr[2], ctr[3]) */
    clc_u32 buf[4]; /* the current block's outputs */
    clc_u32 used;   /* words of buf already handed out, 0..4 */
};

/* Starts the stream of game `game` of the job seeded with `seed`. */
CLC_FN void rng_init(CLC_PRIVATE struct rng *r, clc_u64 seed, clc_u64 game)
{
    r->key[0] = (clc_u32)seed;
    r->key[1] = (clc_u32)(seed >> 32);
    r->ctr[0] = (clc_u32)game;
    r->ctr[1] = (clc_u32)(game >> 32);
    r->ctr[2] = 0;
    r->ctr[3] = 0;
    r->used = 4; /* no block yet */
}

/* The next 32 random bits of the stream. */
CLC_FN clc_u32 rng_next(CLC_PRIVATE struct rng *r)
{
    if (r->used == 4) {
#ifdef RNG_PHILOX_SSE2
        rng_philox4x32_10_sse2(r->ctr, r->key, r->buf);
#else
        rng_philox4x32_10(r->ctr, r->key, r->buf);
#endif
        if (++r->ctr[2] == 0)
            ++r->ctr[3];
        r->used = 0;
    }
    /* rng_philox4x32_10 fills all of buf whenever used reaches 4, and rng_init starts at 4;
     * clang-analyzer loses the writes through the 10-round loop and reports garbage. */
    /* NOLINTNEXTLINE(clang-analyzer-core.uninitialized.UndefReturn) */
    return r->buf[r->used++];
}

/* A uniform integer in [0, n) for 1 <= n <= 2^16, by multiply-shift (Lemire). The bias
 * is below n / 2^32, under 1e-8 for the sizes the rules draw (decks, rows). */
CLC_FN clc_u32 rng_below(CLC_PRIVATE struct rng *r, clc_u32 n)
{
    return (clc_u32)(((clc_u64)rng_next(r) * n) >> 32);
}

#endif
