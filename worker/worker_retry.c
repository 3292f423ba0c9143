/* SPDX-License-Identifier: MIT */
/* Backoff arithmetic (see worker_retry.h). */
#include "worker_retry.h"

#include <sys/random.h>

#include "sk_time.h"

#include "sk_banned.h"

long worker_retry_delay(long base_ms, long max_ms, int attempt, uint64_t rnd)
{
    long d = base_ms;
    for (int i = 1; i < attempt && d < max_ms; i++)
        d = d > max_ms / 2 ? max_ms : d * 2;
    if (d > max_ms)
        d = max_ms;
    if (d < 0)
        d = 0;
    return d / 2 + (long)(rnd % (uint64_t)(d / 2 + 1));
}

uint64_t worker_retry_random(void)
{
    uint64_t r = 0;
    if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
        r = (uint64_t)sk_time_mono_ns() * 0x9E3779B97F4A7C15ULL;
    }
    return r;
}
