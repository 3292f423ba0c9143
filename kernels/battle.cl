/* SPDX-License-Identifier: MIT */
/* The device side of the battle engine. Every kernel here is a thin loop around the shared
 * headers of engine/ (inlined at build time by embed.cmake): the rules are written once, in
 * battle_sim.h, and the CPU backend runs the same code. One work-item plays one game. */
#include "rng.h"

/* Self-check of the shared-header path: work-item i writes the first `words` numbers of
 * the stream of game (first + i) of `seed`, which the host compares with rng_next. */
__kernel void rng_words(ulong seed, ulong first, uint words, uint n, __global uint *out)
{
    size_t i = get_global_id(0);
    if (i >= n)
        return;
    struct rng r;
    rng_init(&r, seed, first + i);
    for (uint w = 0; w < words; w++)
        out[i * words + w] = rng_next(&r);
}
