/* SPDX-License-Identifier: MIT */
/* A small pool of threads for many short tasks in a row (the optimiser's race batches: a
 * few dozen to a few thousand games each, thousands of batches per job). The caller takes
 * part in every task and items are claimed one at a time, so a task never waits for a
 * helper the scheduler has not started yet (on a loaded machine, a thread created per
 * batch cost the optimiser five times its single-thread time); the caller only waits for
 * the items helpers have already begun. Items write to their own slots: what a task
 * computes does not depend on which thread ran which item. */
#ifndef BATTLE_POOL_H
#define BATTLE_POOL_H

#include <stdint.h>

#include "sk_err.h"

#define BATTLE_POOL_MAX 64 /* threads of one pool, the caller included */

struct battle_pool;

/* Runs item `item` of a task; called from any thread of the pool, never twice for one item. */
typedef void (*battle_pool_fn)(void *ctx, uint64_t item);

/**
 * A pool of `threads` threads, the caller included (1 or less: no helper threads, tasks
 * run on the caller; more than BATTLE_POOL_MAX: BATTLE_POOL_MAX). SK_OK with *out (free
 * with battle_pool_free), SK_ENOMEM, or SK_EIO when a thread could not be started.
 */
enum sk_err battle_pool_new(int threads, struct battle_pool **out);

/** Stops and joins the helpers and frees the pool; NULL-safe. No task may be running. */
void battle_pool_free(struct battle_pool *p);

/**
 * Runs fn(ctx, i) for every i in [0, n) on the pool's threads and the caller's, and
 * returns when all are done. n must be below 2^32. One task at a time per pool (the
 * caller's thread owns it). A NULL pool runs the items on the caller.
 */
void battle_pool_run(struct battle_pool *p, uint64_t n, battle_pool_fn fn, void *ctx);

#endif
