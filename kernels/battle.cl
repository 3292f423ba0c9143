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

/* A program built with -DBATTLE_RNG_ONLY holds rng_words alone: the device's self-check
 * (skirmish devices --check) then builds in a second, where the battle kernels take minutes
 * on a GPU driver. */
#ifndef BATTLE_RNG_ONLY

/* ---- Battles ---------------------------------------------------------------------------
 * The host builds with -DBATTLE_TURN_MAX=<BATTLE_TURN_LIMIT_MAX> so both sides agree on the
 * counter layout: slot 0 wins, 1 stalls, 2 losses (enum battle_sim_outcome), 3 games whose
 * result is out of range (a rules bug the host reports), 4 the stalls that hit the work
 * bound (counted in slot 1 too), then one slot per turn 0..BATTLE_TURN_MAX holding the
 * games that ended in that turn, then one per points value 0..BATTLE_SIM_POINTS_MAX holding
 * the games that scored it (the host sums them and their squares exactly, in 64 bits). */
#include "battle_sim.h"

#define SLOT_BAD     3
#define SLOT_BOUNDED 4
#define SLOT_TURN0   5
#define SLOT_POINTS0 (SLOT_TURN0 + BATTLE_TURN_MAX + 1)
#define N_SLOTS      (SLOT_POINTS0 + BATTLE_SIM_POINTS_MAX + 1)

/* Plays games first .. first + n - 1, one per work-item, and adds their counters into
 * counts[N_SLOTS]: each work-group sums its games in local memory, then adds only its
 * non-zero slots to the global counters, so a launch returns N_SLOTS words whatever its
 * size. Integer sums do not depend on the order the groups finish in. */
__kernel void battle_count(__global const struct battle_plan_data *plan, ulong seed, ulong first,
                           uint n, __global uint *counts)
{
    __local uint slots[N_SLOTS];
    uint lid = (uint)get_local_id(0);
    uint lsz = (uint)get_local_size(0);
    size_t gid = get_global_id(0);

    for (uint i = lid; i < N_SLOTS; i += lsz)
        slots[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gid < n) {
        struct battle_game_result r;
        battle_sim_play(plan, seed, first + gid, &r);
        if (r.outcome <= BATTLE_SIM_LOSS && r.turn <= BATTLE_TURN_MAX &&
            r.points <= BATTLE_SIM_POINTS_MAX) {
            atomic_inc(&slots[r.outcome]);
            atomic_inc(&slots[SLOT_TURN0 + r.turn]);
            atomic_inc(&slots[SLOT_POINTS0 + r.points]);
            if (r.bounded)
                atomic_inc(&slots[SLOT_BOUNDED]);
        } else {
            atomic_inc(&slots[SLOT_BAD]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < N_SLOTS; i += lsz)
        if (slots[i])
            atomic_add(&counts[i], slots[i]);
}

/* Plays games first .. first + n - 1 and writes each one's struct battle_game_result to
 * out[i] (the host reads them with the plan's layout rules: same sizes, same byte order).
 * For the differential tests against the CPU backend, game by game. */
__kernel void battle_each(__global const struct battle_plan_data *plan, ulong seed, ulong first,
                          uint n, __global struct battle_game_result *out)
{
    size_t gid = get_global_id(0);
    struct battle_game_result r;

    if (gid >= n)
        return;
    battle_sim_play(plan, seed, first + gid, &r);
    out[gid] = r;
}

#endif /* BATTLE_RNG_ONLY */
