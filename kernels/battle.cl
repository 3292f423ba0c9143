/* SPDX-License-Identifier: MIT */
/* The device side of the battle engine. Every kernel here is a thin loop around the shared
 * headers of engine/ (inlined at build time by embed.cmake): the rules are written once, in
 * battle_sim.h, and the CPU backend runs the same code. A work-item plays one game or
 * several, one after another ("Several games a work-item" below). */
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

/* ---- Several games a work-item ---------------------------------------------------------
 * A work-item plays games i, i + G, i + 2G, ... of the launch's n (i its global id, G the
 * launch's global size, which the host sets to at most battle_cl_info.per_launch /
 * games_per_item work-items: docs/kernels.md, "Several games a work-item"), turn by turn
 * in one loop: when its game ends it counts it and starts its next one, while the other
 * work-items of its warp go on with their own turns. A warp (a wavefront) runs until its
 * slowest lane is done, so with one game a work-item it takes as long as the longest of
 * its 32 games: lanes whose games are over sit idle. With several, a lane's time is the
 * sum of its games', which varies far less from lane to lane. Which work-item plays a game
 * changes nothing in it: a game is a function of (seed, game) alone. */

/* Adds game result *r to the work-group's counters. */
static void count_game(__local uint *slots, const struct battle_game_result *r)
{
    if (r->outcome <= BATTLE_SIM_LOSS && r->turn <= BATTLE_TURN_MAX &&
        r->points <= BATTLE_SIM_POINTS_MAX) {
        atomic_inc(&slots[r->outcome]);
        atomic_inc(&slots[SLOT_TURN0 + r->turn]);
        atomic_inc(&slots[SLOT_POINTS0 + r->points]);
        if (r->bounded)
            atomic_inc(&slots[SLOT_BOUNDED]);
    } else {
        atomic_inc(&slots[SLOT_BAD]);
    }
}

/* Plays this work-item's games of first .. first + n - 1 (n <= 2^30, as G): each one's
 * result goes to out[its index] when out is set (battle_each), else into slots. One loop,
 * a turn an iteration, whose only branch on a game's end is forward within it: a loop of
 * its own around the turns would make a warp wait at its exit for the longest game. */
static void play_games(__global const struct battle_plan_data *plan, ulong seed, ulong first,
                       uint n, __local uint *slots, __global struct battle_game_result *out)
{
    uint g_size = (uint)get_global_size(0);
    uint i = (uint)get_global_id(0);
    struct battle_game g;
    struct battle_game look; /* flexible play's look-ahead games: gone where the plan has none */
    struct battle_game_result r;

    if (i >= n)
        return;
    battle_sim_start(plan, &g, seed, first + i);
    while (i < n) {
        if (battle_sim_step(plan, &g, &look, &r) == 1) {
            if (out)
                out[i] = r;
            else
                count_game(slots, &r);
            i += g_size;
            if (i < n)
                battle_sim_start(plan, &g, seed, first + i);
        }
    }
}

/* Plays games first .. first + n - 1 and adds their counters into counts[N_SLOTS]: each
 * work-group sums its games in local memory, then adds only its non-zero slots to the
 * global counters, so a launch returns N_SLOTS words whatever its size. Integer sums do
 * not depend on the order the groups finish in. */
__kernel void battle_count(__global const struct battle_plan_data *plan, ulong seed, ulong first,
                           uint n, __global uint *counts)
{
    __local uint slots[N_SLOTS];
    uint lid = (uint)get_local_id(0);
    uint lsz = (uint)get_local_size(0);

    for (uint i = lid; i < N_SLOTS; i += lsz)
        slots[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    play_games(plan, seed, first, n, slots, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < N_SLOTS; i += lsz)
        if (slots[i])
            atomic_add(&counts[i], slots[i]);
}

/* Plays games first .. first + n - 1 and writes each one's struct battle_game_result to
 * out[i] (the host reads them with the plan's layout rules: same sizes, same byte order).
 * For the differential tests against the CPU backend, game by game, through the same loop
 * as battle_count. */
__kernel void battle_each(__global const struct battle_plan_data *plan, ulong seed, ulong first,
                          uint n, __global struct battle_game_result *out)
{
    play_games(plan, seed, first, n, 0, out);
}

#endif /* BATTLE_RNG_ONLY */
