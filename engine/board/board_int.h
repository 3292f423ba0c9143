/* SPDX-License-Identifier: MIT */
/* The board library's internals in one include, for white-box code outside the library:
 * the engine's unit tests and benchmarks (CMake: sk_engine_internals). The API, the worker
 * and the CLI see only include/board.h. Inside the library each module includes the
 * headers it uses. */
#ifndef BOARD_INT_H
#define BOARD_INT_H

#include "board.h"
#include "board_codec.h"
#include "board_combat.h"
#include "board_events.h"
#include "board_model.h"
#include "board_move.h"
#include "board_spells.h"
#include "board_turn.h"

#endif
