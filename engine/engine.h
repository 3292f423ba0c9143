/* SPDX-License-Identifier: MIT */
/* The long-lived engine: created once per process (worker, CLI, API), it checks what every
 * job kind needs (its catalogs) and opens what jobs share (the OpenCL platform, context,
 * queue and built program of the battle kind), so a job only borrows it. A process whose
 * engine does not open has a deployment problem (a missing cards file, a device that does
 * not open) and says so at start, instead of failing each job it is given. */
#ifndef ENGINE_H
#define ENGINE_H

#include <stddef.h>

#include "job_kind.h"
#include "sk_err.h"

struct engine;

/**
 * Sets up every job kind (see the kinds' `open`). On SK_OK *out is a new engine (caller
 * frees with engine_free after every run that borrows it). On failure `err` names the kind
 * and what failed: SK_EIO (a catalog file cannot be read), SK_EINVAL (a catalog file is
 * invalid, or the device spec is "cpu" where a device was required), SK_ENOTFOUND (a named
 * device does not exist), SK_ENOMEM. `opts` may be NULL.
 */
enum sk_err engine_new(const struct engine_opts *opts, struct engine **out, char *err,
                       size_t errlen);

/** Frees the engine and everything it opened; NULL-safe. */
void engine_free(struct engine *eng);

/** What the engine opened (borrowed `eng`, filled `info`). */
void engine_describe(const struct engine *eng, struct engine_info *info);

#endif
