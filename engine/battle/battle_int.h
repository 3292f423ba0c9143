/* SPDX-License-Identifier: MIT */
/* The battle library's internals in one include, for white-box code outside the library:
 * the engine's unit tests, benchmarks and fuzz targets (CMake: sk_engine_internals). The
 * API, the worker and the CLI see only include/battle.h. Inside the library each module
 * includes the headers it uses. */
#ifndef BATTLE_INT_H
#define BATTLE_INT_H

#include "battle.h"
#include "battle_cards.h"
#include "battle_catalog.h"
#include "battle_cl.h"
#include "battle_codec.h"
#include "battle_cpu.h"
#include "battle_plan.h"
#include "battle_sim.h"
#include "battle_spec.h"
#include "battle_tu.h"

#endif
