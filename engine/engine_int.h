/* SPDX-License-Identifier: MIT */
/* What job.c and engine.c share inside engine/: the table of job kinds and each kind's
 * engine state. Not for the games (they see job_kind.h) nor for callers (job.h, engine.h). */
#ifndef ENGINE_INT_H
#define ENGINE_INT_H

#include <stddef.h>

#include "engine.h"
#include "job_kind.h"

/* The table of job kinds (job.c), in a fixed order: a kind's index is its position. */
extern const struct job_kind_ops *const job_kinds[];
extern const size_t job_kinds_n;

/** Kind `k`'s engine state (what its `open` made; may be NULL). */
void *engine_state(const struct engine *eng, size_t k);

#endif
