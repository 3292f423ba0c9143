/* SPDX-License-Identifier: MIT */
/* The prepared form of a battle job, built once per job on the host (card table in the
 * compact layout the rules code reads, shuffle ranges, the priority map, turn ids of a
 * mid-game state) and then shared read-only by every thread and device; and the outcome
 * counters every backend fills. Game i draws only from (seed, i). */
#ifndef BATTLE_PLAN_H
#define BATTLE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "battle_spec.h"
#include "sk_err.h"

/* Outcome counters of a range of games; every backend adds into one of these. */
struct battle_counts {
    uint64_t games;
    uint64_t wins;   /* defender's commander reached 0 */
    uint64_t stalls; /* both commanders alive after turn_limit */
    uint64_t losses; /* attacker's commander reached 0 */
    /* stalls that ended when the game's work reached its bound (BATTLE_SIM_WORK_LIMIT of
     * battle_sim.h), counted among the stalls too */
    uint64_t bounded;
    uint64_t turns_sum;
    /* the games' points under the job's scoring (battle_sim_points), and their squares:
     * the mean and its interval */
    uint64_t points_sum;
    uint64_t points_sq;
    /* turns[t] = games that ended during turn t (stalls count at turn_limit). */
    uint64_t turns[BATTLE_TURN_LIMIT_MAX + 1];
};

/** Adds `c` into `acc`. */
void battle_counts_add(struct battle_counts *acc, const struct battle_counts *c);

struct battle_plan;

/**
 * Prepares `spec` for play. Returns SK_OK and a new plan in *out (caller frees with
 * battle_plan_free), SK_ENOMEM, or SK_EINVAL with a message in `err` when the spec is
 * inconsistent in a way the codec could not see. The plan does not keep `spec`.
 */
enum sk_err battle_plan_new(const struct battle_spec *spec, struct battle_plan **out, char *err,
                            size_t errlen);

/** Frees a plan; NULL-safe. */
void battle_plan_free(struct battle_plan *plan);

/** Sets the plan's work bound per game (BATTLE_SIM_WORK_LIMIT of battle_sim.h by default),
 * for tests that need games to reach it; at least 1. */
void battle_plan_set_work_limit(struct battle_plan *plan, uint32_t limit);

struct battle_plan_data; /* battle_sim.h: the flat form the rules code reads */

/**
 * The plan's flat data (borrowed; valid until battle_plan_free). It holds no pointers, so a
 * backend may copy battle_plan_data_size() bytes of it into one device buffer as is.
 * Thread-safe: the plan is read-only after battle_plan_new.
 */
const struct battle_plan_data *battle_plan_data(const struct battle_plan *plan);

/** Whether the plan makes its Enhance and Evolve variants during play
 * (battle_plan_data.lazy): its games run on the CPU backend only, each thread on
 * battle_plan_game_data's copy. */
int battle_plan_lazy(const struct battle_plan *plan);

/**
 * The data a game of `plan` reads on the calling thread: battle_plan_data's, or for a lazy
 * plan this thread's own copy of it, which its games write the variants they make into
 * (owned by the thread, freed when it exits; renewed when the thread turns to another plan
 * or the copy's card table is nearly full). Call it before each game. NULL only when a lazy
 * plan's copy cannot be allocated.
 */
const struct battle_plan_data *battle_plan_game_data(const struct battle_plan *plan);

/** sizeof(struct battle_plan_data): the bytes a device buffer needs. */
size_t battle_plan_data_size(void);

/** The job seed: game i of the job plays from the random stream (seed, i). */
uint64_t battle_plan_seed(const struct battle_plan *plan);

/** The number of games the job asked for. */
uint64_t battle_plan_games(const struct battle_plan *plan);

#endif
