/* SPDX-License-Identifier: MIT */
/* The board game library's public face: the `board` job kind (one row of job.c's table).
 * Everything else of the library (model, spells, movement, combat, codec) is private to
 * engine/board/. */
#ifndef BOARD_H
#define BOARD_H

#include "job_kind.h"

/* The `board` job kind: turns of the Sanctum board game (docs/board-jobs.md). */
extern const struct job_kind_ops board_kind;

#endif
