/* SPDX-License-Identifier: MIT */
/* Chunk sizing (see worker_chunk.h). */
#include "worker_chunk.h"

#include "sk_banned.h"

uint64_t worker_chunk_next(uint64_t min_units, long target_ms, uint64_t last_units,
                           long long last_ms)
{
    uint64_t cap, want;

    if (min_units < 1)
        min_units = 1;
    if (target_ms <= 0 || last_units == 0)
        return min_units;
    cap = last_units > UINT64_MAX / WORKER_CHUNK_GROWTH ? UINT64_MAX
                                                        : last_units * WORKER_CHUNK_GROWTH;
    if (last_ms <= 0)
        return cap < min_units ? min_units : cap; /* faster than the clock: grow fully */
    /* last_units * target_ms / last_ms, in floating point: the product may not fit */
    double d = (double)last_units * (double)target_ms / (double)last_ms;
    want = d >= (double)cap ? cap : (uint64_t)d;
    return want < min_units ? min_units : want;
}
