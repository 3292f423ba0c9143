/* SPDX-License-Identifier: MIT */
/* Backoff arithmetic shared by job retries and outage reconnects: exponential from a base,
 * capped, with "equal jitter" (half fixed, half random) so that workers that failed
 * together do not retry together. Pure functions; no sleeping here. */
#ifndef WORKER_RETRY_H
#define WORKER_RETRY_H

#include <stdint.h>

/**
 * The delay before retry number `attempt` (1 = the first retry): d = min(max_ms,
 * base_ms * 2^(attempt-1)), returned as d/2 + (rnd % (d/2 + 1)). `rnd` is any random
 * number (tests pass fixed ones).
 */
long worker_retry_delay(long base_ms, long max_ms, int attempt, uint64_t rnd);

/** A random number for worker_retry_delay (from the OS; never fails). */
uint64_t worker_retry_random(void);

#endif
