/* SPDX-License-Identifier: MIT */
/* How many units the next chunk of a job runs. Between chunks the worker writes progress
 * to both stores, renews its lease and checks for a cancel: a few milliseconds each time,
 * which on a small job (100,000 games in about 100 ms) cost as much as the games. So
 * chunks start at SKIRMISH_CHUNK_UNITS and then grow to about SKIRMISH_CHUNK_MS of work,
 * measured on the chunk before, and a small job runs in one or two chunks. What this sizes
 * is what a chunk asks for: the worker also gives each chunk a deadline SKIRMISH_CHUNK_MS
 * away (job_run_step_until), so units slower than the chunk before (a job of slow games,
 * its first chunk) end it early and progress and cancels are still seen that often. Pure
 * arithmetic; no clock here. */
#ifndef WORKER_CHUNK_H
#define WORKER_CHUNK_H

#include <stdint.h>

/* How much a chunk may grow over the one before: a rate measured on a chunk of a few
 * milliseconds is coarse, so the target is approached in steps. */
#define WORKER_CHUNK_GROWTH 16

/**
 * The units of the next chunk. `min_units` (>= 1) is the first chunk and the least any
 * chunk runs; `target_ms` is the wanted duration (0 = every chunk runs min_units); the
 * chunk before ran `last_units` (0 = none yet) in `last_ms` milliseconds. The result is
 * last_units * target_ms / last_ms, kept within [min_units, last_units * GROWTH].
 */
uint64_t worker_chunk_next(uint64_t min_units, long target_ms, uint64_t last_units,
                           long long last_ms);

#endif
