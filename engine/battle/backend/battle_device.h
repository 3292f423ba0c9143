/* SPDX-License-Identifier: MIT */
/* The battle kind's OpenCL device (battle_job's engine state), lent to the optimize kind
 * for its bigger calls for games (battle_opt_play): game-by-game outcomes played on the
 * device are the CPU backend's (the differential tests check it), so a call played there
 * gives the very scores the CPU gives. The device is the one the process's latest engine
 * opened (a process has one engine; a test that makes several shares it) and serves one
 * call at a time, as the battle kind's runs share it. */
#ifndef BATTLE_DEVICE_H
#define BATTLE_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "sk_err.h"

struct battle_plan;
struct battle_game_result;

/* The fewest games a call (a battle job, in all; an optimisation's call for games, times
 * its defender decks) must have to be played on the OpenCL device when the process has
 * one; smaller ones stay on the CPU threads. A launch costs its set-up, transfers and a
 * wait (about a millisecond on a GPU), which 16 cores spend on some 4,000 games: below
 * that the device only adds latency. Both backends play the same games. */
#define BATTLE_DEVICE_MIN_GAMES 4096

/**
 * Plays games [first, first + n) of `plan` (borrowed) on the process's OpenCL device, game
 * first + i's outcome into out[i]. Returns 0 when the process has no device (nothing
 * played: the caller plays them on the CPU), else 1 with *rc set: SK_OK, or the device's
 * error with a message in `err` (out[] is then not to be used).
 */
int battle_device_each(const struct battle_plan *plan, uint64_t first, uint32_t n,
                       struct battle_game_result *out, enum sk_err *rc, char *err, size_t errlen);

#endif
