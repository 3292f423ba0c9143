/* SPDX-License-Identifier: MIT */
/* The rules of one battle game, written once for the host (C11) and the kernels (OpenCL C
 * 1.2): the flat plan data a prepared job is read through, the per-game state, and the
 * functions that set a game up and play it turn by turn. No allocation, no library calls,
 * no recursion, no function pointers. Preparing the plan data from a job is battle_plan's
 * work; running many games and counting outcomes is the backends' work.
 * Ownership: every function borrows its pointers for the call only; the plan data is
 * read-only and may be shared by any number of games at once; a game state belongs to the
 * one caller playing it. docs/rules/battle.md describes every rule. */
#ifndef BATTLE_SIM_H
#define BATTLE_SIM_H

/* Cut by concern, each part on top of the one before (docs/engine.md, "The tree"). */
#include "battle_sim_play.h"
#include "battle_sim_skills.h"
#include "battle_sim_state.h"
#include "battle_sim_target.h"
#include "battle_sim_turn.h"

#endif
