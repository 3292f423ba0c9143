/* SPDX-License-Identifier: MIT */
/* The job envelope {"kind", "seed", "params"} shared by the API, the worker and the CLI:
 * decoding with full validation, and running a decoded job in resumable steps so callers
 * can report progress and honour cancellation between them. Dispatches through its table
 * of job kinds (job_kind.h: one row per game library); knows nothing of HTTP, SQL or
 * queues. Runs borrow the process's long-lived engine (engine.h). */
#ifndef JOB_H
#define JOB_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "job_kind.h"
#include "sk_err.h"
#include "sk_verr.h"

struct engine;
struct sk_buf;

/* Seeds are kept below 2^53 so that browsers (JavaScript numbers) read them exactly. */
#define JOB_SEED_MAX 9007199254740991ULL

struct job;

/* The longest catalog hash a job document may name (job_decode). */
#define JOB_CATALOG_HASH_MAX 64

/**
 * Decodes and validates a whole job document. On SK_OK, *out is a new job (caller frees
 * with job_free). On SK_EINVAL, `errs` holds every problem found, each with a JSON pointer
 * from the document root ("/params/attacker/deck/3/card"). When "seed" is absent one is
 * drawn from the OS and recorded (job_seed). SK_ENOMEM on allocation failure.
 * `doc` is borrowed.
 */
enum sk_err job_decode(const json_t *doc, struct job **out, struct sk_verr_list *errs);

/* A job of a kind that names cards may carry "catalog": the hash of the card catalog it
 * was submitted with (the API records it; docs/cards.md). Without it the job runs on the
 * process's current catalog. SK_ENOTFOUND, with the problem at "/catalog" in `errs`, when
 * this process has no catalog with that hash: not the document's fault where a process
 * with that catalog can run it (the worker leaves it to one). */

/** Frees a job; NULL-safe. */
void job_free(struct job *job);

/** The name of the job's kind ("battle"; static string); `job` is borrowed, not NULL. */
const char *job_kind(const struct job *job);
/** 1 when `name` names a job kind, else 0. */
int job_kind_known(const char *name);
/** The number of job kinds (the rows of job.c's table; at least one). */
size_t job_kind_count(void);
/** The name of kind `i`, 0 <= i < job_kind_count(), in the table's order (static string;
 * NULL past the end). */
const char *job_kind_at(size_t i);
/** 1 when a unit of kind `name`'s jobs is a game (job_kind_ops.units_are_games), else 0
 * (also for an unknown name). */
int job_kind_units_are_games(const char *name);
/** The "params" member that sets the number of games of kind `name`'s jobs (static
 * string), or NULL when the kind has none or `name` is unknown. */
const char *job_kind_games_param(const char *name);
/** The kinds' names quoted and joined for messages ("\"battle\" or \"board\""; static). */
const char *job_kind_names(void);
/** The catalog called `name` ("cards"), or NULL when no kind serves one by that name. */
const struct job_catalog *job_catalog_named(const char *name);
/** The hash of the card catalog the job runs on (borrowed, valid while `job` is), or NULL
 * for a kind that names no cards. What the API records as the job's "catalog". */
const char *job_catalog(const struct job *job);
/** The hashes of the card catalogs this process can run jobs on, the one new jobs are
 * pinned to first: a new JSON array (caller decrefs), NULL on allocation failure. */
json_t *job_catalogs(void);
/** Picks up a new current card catalog where one was installed (a catalog store's
 * `current` changed; with `force`, any source read again). 1 changed, 0 not, -1 with `err`
 * filled when the new one does not load (the old one stays current). Thread-safe. */
int job_catalogs_refresh(int force, char *err, size_t errlen);
/** The job's seed, given or drawn. */
uint64_t job_seed(const struct job *job);
/** Units of work in the job: games for battle, turns for board. Progress is done/total. */
uint64_t job_total(const struct job *job);

struct job_run;

/**
 * Starts a run of `job` on `eng` (both borrowed: they must outlive the run; `opts` may be
 * NULL). On SK_OK *out is a new run (caller frees with job_run_free). On failure `err`
 * holds a message (SK_EINVAL: a bad option; SK_ENOMEM). Runs of one engine may exist at
 * once; those on its OpenCL device take turns on it.
 */
enum sk_err job_run_new(struct engine *eng, const struct job *job, const struct job_run_opts *opts,
                        struct job_run **out, char *err, size_t errlen);

/**
 * Runs at most `max_units` further units (0 = all that remain) and sets *done to the units
 * completed so far; a kind whose work comes in pieces (an optimisation's race batches) may
 * finish the piece it is in, passing max_units by less than one piece but never the
 * total. The run is complete when *done == job_total(). Results do not depend on how the
 * work is split into steps.
 */
enum sk_err job_run_step(struct job_run *run, uint64_t max_units, uint64_t *done);

/**
 * job_run_step that also returns once the monotonic clock (sk_time_mono_ms) reaches
 * `deadline_ms` (0 = no deadline), so that the caller can report progress, renew its lease
 * and look for a cancel however slow the units are (docs/operations.md, "Chunks, leases
 * and cancels"). The kinds look at the clock between their natural pieces of work: a
 * battle between games (on the OpenCL device, between launches), an optimisation between
 * race batches and slices of its evaluation, a board between turns. A step always does at
 * least one unit more (one piece of an optimisation, when it is not yet complete), so a
 * deadline already past still makes progress; it may therefore end up to one piece (one
 * game per thread, one launch, one race batch) after the deadline. Results do not depend on
 * where steps end.
 */
enum sk_err job_run_step_until(struct job_run *run, uint64_t max_units, int64_t deadline_ms,
                               uint64_t *done);

/* What job_cost_estimate found. */
struct job_cost {
    double cpu_s;      /* the estimate: CPU seconds to run the whole job, its setup included */
    double setup_s;    /* CPU seconds of the run's setup (a plan, its catalogs' lookups) */
    double per_unit_s; /* CPU seconds a unit (a game, a turn) of the sample's later half took */
    uint64_t sampled;  /* units played to measure it (all of them for a small job) */
};

/**
 * Estimates the CPU cost of `job` (borrowed, as `eng`) on one core of this machine, the way
 * the API admits a job (docs/security.md, "CPU cost"): sets up a run on one thread and plays
 * its first units, doubling the step each time, until `budget_ms` of this thread's CPU time
 * is spent or the job is done (each step ends at the budget's remainder by the monotonic
 * clock, so an idle machine spends about the budget and at most about one unit more); the estimate
 * is the setup's CPU time, the sample's first steps' CPU time, and the job's other units at
 * the rate of the steps that began at or after half the sample (the first games of a run
 * are the slower ones: cold caches). Always at least one
 * step: a job whose single unit is slow (flexible play's look-ahead) costs that unit, bounded by
 * the games' work bound. The sample plays exactly the games a worker would play first, so the job's
 * own decks, modes and turn limits are what is measured. SK_OK fills *out; otherwise the run's
 * error in `err`.
 */
enum sk_err job_cost_estimate(struct engine *eng, const struct job *job, long budget_ms,
                              struct job_cost *out, char *err, size_t errlen);

/**
 * The result document of a complete run. Returns a new reference in *out (caller
 * decrefs). SK_ECONFLICT if the run is not complete.
 */
enum sk_err job_run_result(struct job_run *run, json_t **out);

/**
 * The result document of the units done so far by a run stopped before its end, marked
 * "partial": true (a canceled job keeps it). Returns a new reference in *out (caller
 * decrefs). SK_ECONFLICT when nothing was done or the kind has no partial result.
 */
enum sk_err job_run_partial_result(struct job_run *run, json_t **out);

/**
 * Appends to `out` a checkpoint of `run`: its state after the units done so far, with the
 * job's kind, seed and size, in a binary form for job_run_restore on any worker of the
 * same build layout (docs/operations.md, "Resume from the last chunk"). SK_ECONFLICT when
 * the kind keeps no checkpoints; SK_ENOMEM. `out` is the caller's (sk_buf_init'ed).
 */
enum sk_err job_run_save(struct job_run *run, struct sk_buf *out);

/**
 * Sets a new run of the same job (not yet stepped) to the checkpoint `data` (`len` bytes,
 * borrowed) and sets *done to its units: stepping on then gives exactly the result of a
 * run that never stopped. SK_EINVAL when `data` is not a checkpoint of this job (another
 * kind, seed or size, a layout of another version, damaged); the run is then unchanged and
 * starts from zero. SK_ECONFLICT when the kind keeps no checkpoints; SK_ENOMEM.
 */
enum sk_err job_run_restore(struct job_run *run, const void *data, size_t len, uint64_t *done);

/** 1 when runs of `job` can play a range of its units and merge (job_run_seek, merge). */
int job_shardable(const struct job *job);

/**
 * Makes a new run (not yet stepped) play the job from unit `first` on, nothing counted, so
 * that it covers a range of the job's units (a shard: the caller steps it to the range's
 * end). SK_EINVAL past the job's units; SK_ECONFLICT when the kind cannot.
 */
enum sk_err job_run_seek(struct job_run *run, uint64_t first);

/**
 * Adds the checkpoint `data` of a run of the same job (job_run_save after a shard's
 * units) into `run`: a new run merged with the checkpoints of shards that cover every unit
 * once gives job_run_result exactly as one run of the whole job would. SK_EINVAL when
 * `data` is not a checkpoint of this job; SK_ECONFLICT when the kind cannot merge.
 */
enum sk_err job_run_merge(struct job_run *run, const void *data, size_t len);

/**
 * What watchers may see of `run` besides its units, for the job's progress (an
 * optimisation's best deck so far, its games, candidates and estimates; docs/optimize.md):
 * a new JSON object (caller decrefs), or NULL when the kind shows nothing more (or on
 * allocation failure).
 */
json_t *job_run_progress(struct job_run *run);

/**
 * Builds now, or loads from the program cache (SKIRMISH_CL_CACHE), the device programs that
 * `job`'s games would play on with `eng`'s device, whatever the job's number of games, and
 * reports each to `fn` with `arg` (and each part of the job that plays on the CPU backend
 * whatever the device, with its reason), so that a GPU worker started after it loads them
 * instead of building them (`skirmish prebuild`; docs/deploy.md). SK_ECONFLICT when the kind
 * builds nothing ahead; SK_ENOTFOUND with `err` when the engine has no device; a build's
 * error (SK_EIO) with its message in `err`.
 */
enum sk_err job_prepare(struct engine *eng, const struct job *job, job_program_fn fn, void *arg,
                        char *err, size_t errlen);

/**
 * Computes a unit a run of `job` handed out through its job_spread (`spec`, `len` bytes,
 * borrowed) on `eng` with `opts` (threads; NULL = defaults): the unit's result's bytes
 * go to `out` (the caller's, sk_buf_init'ed). SK_EINVAL with `err` when the bytes are not
 * a unit of this job; SK_ECONFLICT when the kind hands out no units; SK_ENOMEM.
 */
enum sk_err job_unit_run(struct engine *eng, const struct job *job, const struct job_run_opts *opts,
                         const void *spec, size_t len, struct sk_buf *out, char *err,
                         size_t errlen);

/** A message describing the last failure of job_run_step, or "" (borrowed, run-owned). */
const char *job_run_error(const struct job_run *run);

/** Frees a run; NULL-safe. */
void job_run_free(struct job_run *run);

#endif
