/* SPDX-License-Identifier: MIT */
/* The OpenCL backend of the battle engine: device discovery and selection (SKIRMISH_DEVICE),
 * program build from the embedded kernels/ sources with a binary cache per device and source
 * hash, and chunked launches of the battle kernel, one game per work-item, whose counters
 * are reduced per work-group on the device. The only module that sees CL/cl.h. It does not
 * decide when to fall back to the CPU backend: battle_job does. */
#ifndef BATTLE_CL_H
#define BATTLE_CL_H

#include <stddef.h>
#include <stdint.h>

#include "battle.h"
#include "battle_plan.h"
#include "sk_err.h"

/* How to open a device; zeroed means defaults. */
struct battle_cl_opts {
    const char *device;    /* SKIRMISH_DEVICE syntax; NULL = the environment variable */
    const char *cache_dir; /* NULL = $SKIRMISH_CL_CACHE, else $XDG_CACHE_HOME/skirmish, else
                              ~/.cache/skirmish; "" = no cache */
    size_t work_group;     /* work-items per group; 0 = $SKIRMISH_CL_WORK_GROUP, else chosen
                              from the kernel and device */
    uint64_t per_launch;   /* games per kernel launch; 0 = $SKIRMISH_CL_GAMES_PER_LAUNCH, else
                              chosen from the device */
    const char *source;    /* OpenCL C to build instead of the embedded kernels (tests) */
};

struct battle_cl;

/**
 * Opens the device `opts->device` names (see battle_cl_pick), creates its context and
 * queue and builds the kernels, from the binary cache when a matching entry exists (a
 * stale or unreadable entry is rebuilt from source and rewritten). `opts` may be NULL.
 * On SK_OK *out is a new handle (caller frees with battle_cl_free); not thread-safe: one
 * thread at a time per handle. Errors, with a message in `err`: SK_ENOTFOUND (no OpenCL
 * platform or device, or no device matches), SK_EINVAL (spec is "cpu", or a work-group size
 * or games per launch, given or from the environment, is out of range), SK_EIO (an OpenCL
 * call failed; a failed clBuildProgram includes the build log), SK_ENOMEM.
 */
enum sk_err battle_cl_new(const struct battle_cl_opts *opts, struct battle_cl **out, char *err,
                          size_t errlen);

/**
 * The two halves of battle_cl_new, for a caller that builds in the background
 * (battle_job's engine): battle_cl_open selects the device and creates its context and
 * queue (quick; the device errors of battle_cl_new); battle_cl_build builds the program
 * (through the cache) and sets the sizes, which takes minutes on a GPU driver's first build.
 * A handle is used for nothing but battle_cl_describe (its device) and battle_cl_free until
 * battle_cl_build returned SK_OK; one that failed to build is only freed. `opts` may be
 * NULL; its strings are read during the call only.
 */
enum sk_err battle_cl_open(const struct battle_cl_opts *opts, struct battle_cl **out, char *err,
                           size_t errlen);
enum sk_err battle_cl_build(struct battle_cl *cl, const struct battle_cl_opts *opts, char *err,
                            size_t errlen);

/** Releases every OpenCL object of `cl` and frees it; NULL-safe. */
void battle_cl_free(struct battle_cl *cl);

/* What an open handle runs on and how; strings are borrowed from the handle. */
struct battle_cl_info {
    const char *platform;
    const char *device;
    int device_index;
    size_t work_group;      /* work-items per group of the battle kernel */
    uint64_t per_launch;    /* games per launch (a multiple of work_group) */
    int from_cache;         /* 1 when the program came from the binary cache */
    const char *cache_file; /* the cache entry used or written; "" when none */
    uint64_t private_mem;   /* the battle kernel's private memory a work-item, as the
                               driver says (CL_KERNEL_PRIVATE_MEM_SIZE), bytes */
    uint64_t local_mem;     /* its local memory a work-group (CL_KERNEL_LOCAL_MEM_SIZE) */
};

/** Describes `cl` into *info; the strings stay valid until battle_cl_free. */
void battle_cl_describe(const struct battle_cl *cl, struct battle_cl_info *info);

/**
 * Self-check of the device against the host: writes into out[i * words + w] the w-th
 * number of the random stream of game (first + i) of `seed`, computed on the device by
 * rng.h. `out` holds n * words entries (caller-owned). SK_EIO with a message on failure.
 */
enum sk_err battle_cl_rng_words(struct battle_cl *cl, uint64_t seed, uint64_t first, uint32_t n,
                                uint32_t words, uint32_t *out, char *err, size_t errlen);

struct battle_game_result; /* battle_sim.h */

/**
 * Plays games [first, first + n) of `plan` (borrowed) on the device, in launches of at most
 * battle_cl_info.per_launch games, and adds their outcomes into *acc; the counts equal
 * battle_cpu_run's for the same games. *acc is unchanged on failure. The plan's flat data
 * is uploaded once and kept while later calls pass a plan with the same bytes. Errors
 * with a message: SK_EIO (an OpenCL call failed), SK_EINTERNAL (the device counted a game
 * outside the rules' range), SK_EINVAL (the handle was built from opts.source without the
 * battle kernels), SK_ENOMEM.
 */
enum sk_err battle_cl_run(struct battle_cl *cl, const struct battle_plan *plan, uint64_t first,
                          uint64_t n, struct battle_counts *acc, char *err, size_t errlen);

/**
 * battle_cl_run that launches no more once the monotonic clock (sk_time_mono_ms) reaches
 * `deadline_ms` (0 = never): it plays a prefix [first, first + *played) of the range, at
 * least one launch, and adds exactly those games' outcomes into *acc. A launch is never cut
 * short, so it may end up to one launch (battle_cl_info.per_launch games) after the
 * deadline. Errors as battle_cl_run, with *acc and *played unchanged.
 */
enum sk_err battle_cl_run_until(struct battle_cl *cl, const struct battle_plan *plan,
                                uint64_t first, uint64_t n, int64_t deadline_ms,
                                struct battle_counts *acc, uint64_t *played, char *err,
                                size_t errlen);

/**
 * Plays games [first, first + n) of `plan` (borrowed) in one launch and writes game
 * first + i's outcome to out[i] (caller-owned, n entries): the game-by-game view that the
 * differential tests compare with battle_cpu_play_one. Errors as battle_cl_run.
 */
enum sk_err battle_cl_play_each(struct battle_cl *cl, const struct battle_plan *plan,
                                uint64_t first, uint32_t n, struct battle_game_result *out,
                                char *err, size_t errlen);

#endif
