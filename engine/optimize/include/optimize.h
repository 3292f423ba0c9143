/* SPDX-License-Identifier: MIT */
/* The deck optimiser library's public face: the `optimize` job kind (one row of job.c's
 * table). The library is built on the battle library's internals (its plan, CPU backend,
 * catalog and codec: sk_battle_internal in engine/CMakeLists.txt); everything of its own
 * (the search, the race, the moves, the thread pool) is private to engine/optimize/. */
#ifndef OPTIMIZE_H
#define OPTIMIZE_H

#include "job_kind.h"

/* The `optimize` job kind: a search for a better deck over owned cards, each candidate
 * raced against the incumbent on the same games (docs/optimize.md). */
extern const struct job_kind_ops optimize_kind;

#endif
