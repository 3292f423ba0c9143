/* SPDX-License-Identifier: MIT */
/* The OpenCL backend of the battle engine: device discovery and selection (SKIRMISH_DEVICE),
 * program build from the embedded kernels/ sources with a binary cache per device and source
 * hash, and chunked launches of the battle kernel, several games a work-item one after
 * another, whose counters are reduced per work-group on the device. The only module that sees
 * CL/cl.h. It does not decide when to fall back to the CPU backend: battle_job does. */
#ifndef BATTLE_CL_H
#define BATTLE_CL_H

#include <stddef.h>
#include <stdint.h>

#include "battle.h"
#include "battle_plan.h"
#include "battle_rules.h"
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
    uint64_t per_item;     /* games a work-item plays in a whole launch; 0 =
                              $SKIRMISH_CL_GAMES_PER_ITEM, else BATTLE_CL_PER_ITEM_DEFAULT on a
                              GPU and 1 on other devices */
    const char *source;    /* OpenCL C to build instead of the embedded kernels (tests) */
    int general;           /* 1: every plan plays on the general program; 0 =
                              $SKIRMISH_CL_SPECIALISE (unset or 1: a program per plan, 0: the
                              general one) */
};

/* Games a work-item plays in a whole launch on a GPU where neither battle_cl_opts nor the
 * environment says: a warp's 32 lanes then each play about 8 games turn by turn, so that
 * the warp waits at the end for the longest lane's 8 games rather than, 8 times over, for
 * the longest of 32 single games (docs/kernels.md, "Several games a work-item"). Other
 * devices (PoCL) run a group's work-items one after another, with no lanes to even out:
 * one game each there, which measured a few per cent faster. */
#define BATTLE_CL_PER_ITEM_DEFAULT 8
#define BATTLE_CL_PER_ITEM_MAX     1024

/* The programs one handle keeps built: the general one and the specialised ones, the least
 * recently used of those going first. A worker's jobs seldom need more than a few. */
#define BATTLE_CL_PROGRAMS_MAX 16

struct battle_cl;

/**
 * Opens the device `opts->device` names (see battle_cl_pick), creates its context and
 * queue and builds the kernels, from the binary cache when a matching entry exists (a
 * stale or unreadable entry is rebuilt from source and rewritten). `opts` may be NULL.
 * On SK_OK *out is a new handle (caller frees with battle_cl_free); not thread-safe: one
 * thread at a time per handle. Errors, with a message in `err`: SK_ENOTFOUND (no OpenCL
 * platform or device, or no device matches), SK_EINVAL (spec is "cpu", or a work-group size,
 * games per launch or games per work-item, given or from the environment, is out of range), SK_EIO
 * (an OpenCL call failed; a failed clBuildProgram includes the build log), SK_ENOMEM.
 */
enum sk_err battle_cl_new(const struct battle_cl_opts *opts, struct battle_cl **out, char *err,
                          size_t errlen);

/**
 * The two halves of battle_cl_new: battle_cl_open selects the device, creates its context
 * and queue and takes the options (quick; the device and option errors of battle_cl_new);
 * battle_cl_build builds the general program (through the cache), which the self-check
 * (battle_cl_rng_words) and, with battle_cl_opts.general, every plan plays on. A handle
 * that is only open builds each plan's program when it first plays it (see battle_cl_key_of
 * for a caller that must not wait). `opts` may be NULL; its strings are read during the
 * call only.
 */
enum sk_err battle_cl_open(const struct battle_cl_opts *opts, struct battle_cl **out, char *err,
                           size_t errlen);
enum sk_err battle_cl_build(struct battle_cl *cl, const struct battle_cl_opts *opts, char *err,
                            size_t errlen);

/** Releases every OpenCL object of `cl` and frees it; NULL-safe. */
void battle_cl_free(struct battle_cl *cl);

/* What an open handle runs on and how: the device, and the program of its latest run (else
 * its general program; zeros and "" before it has any). Strings are borrowed from the
 * handle and valid until its next run or build, or battle_cl_free. */
struct battle_cl_info {
    const char *platform;
    const char *device;
    int device_index;
    size_t work_group;      /* work-items per group of the battle kernel */
    uint64_t per_launch;    /* games per launch (a multiple of work_group) */
    uint64_t per_item;      /* games a work-item plays in a launch of per_launch games: a
                               launch of n games has min(n, per_launch / per_item) work-items,
                               rounded up to whole groups */
    int from_cache;         /* 1 when the program came from the binary cache */
    const char *cache_file; /* the cache entry used or written; "" when none */
    uint64_t private_mem;   /* the battle kernel's private memory a work-item, as the
                               driver says (CL_KERNEL_PRIVATE_MEM_SIZE), bytes */
    uint64_t local_mem;     /* its local memory a work-group (CL_KERNEL_LOCAL_MEM_SIZE) */
    const char *features;   /* the program's specialisation (-D options), "" = general */
    int specialised;        /* features is not "" */
    double build_s;         /* seconds its build, or its load from the cache, took */
    int programs;           /* programs the handle holds built */
};

/** Describes `cl` into *info (see struct battle_cl_info). */
void battle_cl_describe(const struct battle_cl *cl, struct battle_cl_info *info);

/*
 * A program per plan (docs/kernels.md, "A program per plan"). A handle plays each plan on a
 * program built for the rules its plan can reach (battle_rules_features: the absent ones are
 * not in the binary), built on first use and kept (BATTLE_CL_PROGRAMS_MAX), or, when told
 * so (battle_cl_opts.general), on the general program. battle_cl_run and its kind build a
 * missing program before they play; a caller that must not wait (the worker) asks
 * battle_cl_loaded first and builds with battle_cl_compile on a thread of its own.
 */

/* Which program a plan plays on. */
struct battle_cl_key {
    char features[BATTLE_RULES_FEATURES_LEN]; /* -D options; "" = the general program */
};

/* A built program, not yet the handle's. */
struct battle_cl_prog;

/** The program `plan` (borrowed) plays on with handle `cl`, into *key. */
void battle_cl_key_of(const struct battle_cl *cl, const struct battle_plan *plan,
                      struct battle_cl_key *key);

/**
 * Whether `cl` holds the program `key` names; with `from_cache`, one found in the binary
 * cache is loaded now (a fraction of a second; nothing is compiled) and 1 returned. A run's
 * caller's thread, as battle_cl_run.
 */
int battle_cl_loaded(struct battle_cl *cl, const struct battle_cl_key *key, int from_cache);

/**
 * Builds the program `key` names for cl's device, through the binary cache, into *out (the
 * caller's, for battle_cl_adopt or battle_cl_prog_free). Reads only what the handle fixed
 * when it opened, so it may run on another thread while the handle plays (a GPU driver's
 * build takes seconds to minutes). Errors as battle_cl_build.
 */
enum sk_err battle_cl_compile(const struct battle_cl *cl, const struct battle_cl_key *key,
                              struct battle_cl_prog **out, char *err, size_t errlen);

/**
 * Builds the program `plan` (borrowed) plays on, or loads it from the binary cache, unless
 * the handle holds it: what battle_cl_run does first, for a caller that times it apart.
 * Errors as battle_cl_build, and SK_EINVAL for a handle built from opts.source.
 */
enum sk_err battle_cl_prepare(struct battle_cl *cl, const struct battle_plan *plan, char *err,
                              size_t errlen);

/** Gives `prog` to the handle (it owns it from now on), as a run's caller's thread. */
void battle_cl_adopt(struct battle_cl *cl, struct battle_cl_prog *prog);

/** Frees a program battle_cl_compile made and nobody adopted; NULL-safe. */
void battle_cl_prog_free(struct battle_cl_prog *prog);

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
