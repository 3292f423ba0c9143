/* SPDX-License-Identifier: MIT */
/* The CPU backend of the battle engine: plays ranges of games of a prepared plan on N
 * threads. It is also the reference the OpenCL backend is checked against. */
#ifndef BATTLE_CPU_H
#define BATTLE_CPU_H

#include <stdint.h>

#include "battle_plan.h"
#include "sk_err.h"

/**
 * Plays games [first_game, first_game + n_games) of `plan` (borrowed) on `threads`
 * threads (0 = one per online core) and adds their outcomes into *acc. The counts are
 * identical for any thread count and any split into calls. SK_ENOMEM or SK_EIO (a thread
 * could not be started) on failure, with *acc unchanged.
 */
enum sk_err battle_cpu_run(const struct battle_plan *plan, uint64_t first_game, uint64_t n_games,
                           int threads, struct battle_counts *acc);

/**
 * battle_cpu_run that stops taking games once the monotonic clock (sk_time_mono_ms) reaches
 * `deadline_ms` (0 = never): the games taken before are finished, so the call plays a prefix
 * [first_game, first_game + *played) of its range, at least one game (when n_games > 0), and
 * adds exactly their outcomes into *acc. It may end up to one game per thread after the
 * deadline. Errors as battle_cpu_run, with *acc and *played unchanged.
 */
enum sk_err battle_cpu_run_until(const struct battle_plan *plan, uint64_t first_game,
                                 uint64_t n_games, int threads, int64_t deadline_ms,
                                 struct battle_counts *acc, uint64_t *played);

struct battle_game_result;

/**
 * Plays game `game` of `plan` (borrowed) on the calling thread and writes its outcome to
 * *out: the single-game reference the OpenCL backend and the tests compare against.
 * Thread-safe. A plan that makes its variants during play needs a copy per thread
 * (battle_plan_game_data); when that cannot be allocated the game is reported as a stall
 * at the work bound (bounded), so that the failure shows in the counts.
 */
void battle_cpu_play_one(const struct battle_plan *plan, uint64_t game,
                         struct battle_game_result *out);

/**
 * Adds the outcome of one game into *acc (games, its outcome, turns, points): the one
 * definition of how a game is counted, shared with the OpenCL backend's host side.
 */
void battle_cpu_count(struct battle_counts *acc, const struct battle_game_result *r);

#endif
