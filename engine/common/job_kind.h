/* SPDX-License-Identifier: MIT */
/* The contract between job.c and a game library: what one job kind provides, as one
 * `const struct job_kind_ops` that the game's public header declares and job.c lists in its
 * table of kinds. Adding a kind is a folder under engine/ with its library and one row in
 * that table; nothing else in the engine, the API or the worker names a kind.
 * Opaque pointers (`void *`) are the kind's own types: its engine state, decoded job and
 * run. job.c never looks inside them. Ownership follows job.h: job.c frees what a kind's
 * constructor returns through that kind's matching free. */
#ifndef JOB_KIND_H
#define JOB_KIND_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "sk_err.h"
#include "sk_verr.h"

struct sk_buf;

/* How to set up; zeroed means defaults. */
struct engine_opts {
    /* SKIRMISH_DEVICE syntax (index, name substring, or "cpu"); NULL or "" = the environment
     * variable, else the first GPU, else the CPU backend (a device named explicitly must
     * open; a GPU that does not falls back with a warning). */
    const char *device;
    int no_device;    /* 1: open no device (a process that only validates jobs: the API) */
    int device_async; /* 1: build the device's program in the background, jobs playing on the
                         CPU threads until it is ready (the worker: a GPU driver's first
                         build takes minutes); 0: engine_new waits for it */
};

/* What the engine runs jobs on. */
struct engine_info {
    char backend[16];   /* "cpu" or "opencl" */
    char device[128];   /* the device's name, or "cpu" */
    char platform[128]; /* the OpenCL platform's name, or "" */
    int building;       /* 1 while the device's program builds (device_async): jobs meanwhile
                           play on the CPU threads */
};

/* Computes unit `i` of a job_spread call in this process, its result's bytes into `out`
 * (the caller's, sk_buf_init'ed). */
typedef enum sk_err (*job_unit_fn)(void *ctx, size_t i, struct sk_buf *out);

/* A run's work handed out as units (docs/optimize.md, "Spread across workers"): a kind
 * whose runs play pieces any process can compute from the job's document alone (an
 * optimisation's games) gives those pieces, as units of about `unit_games` games each, to
 * `units`, which fills results[i] (sk_buf_init'ed and released by the caller) with the
 * result of unit specs[i] (games[i] games, counting each defender deck's) for every i < n:
 * computing some with `local` (the run's own threads), the others by whatever means it has (the
 * worker: other workers, through the queue, each computing it with job_unit_run). A unit's result
 * depends only on the job and the unit, so where it was computed never changes the run's result. An
 * error fails the step, with a message in `err` (SK_ELEASE: the caller no longer holds the job;
 * SK_ECANCELED: the job was canceled meanwhile), and leaves the run as it was after its last
 * whole piece, so its partial result and checkpoint stay valid. */
struct job_spread {
    uint64_t unit_games; /* work of at least two units is spread; 0 = never */
    void *arg;
    enum sk_err (*units)(void *arg, const struct sk_buf *specs, const uint64_t *games, size_t n,
                         struct sk_buf *results, job_unit_fn local, void *ctx, char *err,
                         size_t errlen);
};

/* How to run a job; zeroed means defaults. The device is the engine's (engine_opts). */
struct job_run_opts {
    int threads; /* CPU backend threads; 0 = the cores idle at each step (sk_cores_idle:
                    every core on an idle host); the OpenCL backend ignores it */
    const struct job_spread *spread; /* borrowed, outlives the run; NULL = never spread */
};

/* A device program a job's games play on, as job_prepare reports it (`skirmish prebuild`). */
enum job_program_state {
    JOB_PROGRAM_BUILT,  /* compiled now (and written to the program cache) */
    JOB_PROGRAM_CACHED, /* loaded from the program cache: nothing was compiled */
    JOB_PROGRAM_HELD,   /* the engine held it already (an earlier plan of these jobs) */
};
struct job_program {
    enum job_program_state state;
    const char *features; /* its compile-time options; "" = the general program (borrowed) */
    double seconds;       /* its build or load; 0 when held */
    uint64_t private_mem; /* bytes a work-item, as the driver says (CL_KERNEL_PRIVATE_MEM_SIZE) */
    uint64_t local_mem;   /* bytes a work-group (CL_KERNEL_LOCAL_MEM_SIZE) */
};
/* Receives job_prepare's reports: a program (`p`), or, with p NULL, a part of the job that
 * plays on the CPU backend whatever the device, and why (`cpu_why`). Both borrowed. */
typedef void (*job_program_fn)(void *arg, const struct job_program *p, const char *cpu_why);

/* One query filter of a catalog route: `param` narrows the entries to those whose string
 * member `field` equals the given word (member == NULL), or whose array `field` has an
 * object with string `member` equal to it. With words (n_words > 0) only those words are
 * accepted; with none, any 1..64-byte text matches `field` as a case-insensitive
 * substring. */
struct job_filter {
    const char *param;
    const char *field;
    const char *member;
    const char *(*word)(int i); /* name of word i, 0 <= i < n_words; static strings */
    int n_words;
};

/* A catalog a kind serves to clients (GET /v1/<name>). */
struct job_catalog {
    const char *name;
    /* A new JSON array of every entry, or NULL with `err` filled (caller decrefs). */
    json_t *(*load)(char *err, size_t errlen);
    const struct job_filter *filters; /* ends with a NULL param */
    /* Optional, all or none: a catalog too large to build whole as JSON per request (the
     * game's 54,000 cards take about 370 MB as jansson values) is served entry by entry
     * from a snapshot held for the request: `hold` returns one (NULL with `err` filled),
     * `drop` lets it go, `hash` is its catalog's hash (a string valid while held), `size`
     * its number of entries, `match` is 1 when entry i passes filter `f` with the query
     * word `value` (with `load`'s meaning of each filter), and `entry` is entry i as
     * `load` would list it (a new reference, NULL on failure). */
    void *(*hold)(char *err, size_t errlen);
    void (*drop)(void *snap);
    const char *(*hash)(const void *snap);
    size_t (*size)(const void *snap);
    int (*match)(const void *snap, size_t i, const struct job_filter *f, const char *value);
    json_t *(*entry)(const void *snap, size_t i);
};

struct job_kind_ops {
    const char *name; /* the job document's "kind" */
    /* 1 when a unit of this kind's jobs is a game (the workers' games-per-second figures
     * count them), 0 when it is something else (a board job's turns). */
    int units_are_games;
    /* The "params" member that sets a job's number of games (`skirmish run --games`);
     * NULL when the kind has none. */
    const char *games_param;

    /* Process-wide set-up, called once by engine_new: checks what the kind's jobs will
     * need (its catalogs) and opens what they share (a device). On SK_OK *state is the
     * kind's engine state (NULL allowed), freed by close. Errors are the deployment's
     * (a missing file, a device that does not open), with a message in `err`. */
    enum sk_err (*open)(const struct engine_opts *opts, void **state, char *err, size_t errlen);
    void (*close)(void *state);
    /* What the state runs on, for heartbeats and logs; NULL = runs on the CPU. */
    void (*describe)(const void *state, struct engine_info *info);

    /* job_decode for this kind's "params" (ptr at "/params", restored on return), with
     * the card catalog the job is pinned to: its hash, or NULL for the process's current
     * one (a kind without catalogs is never given one). SK_ENOTFOUND when this process has
     * no catalog with that hash (job.c says so at "/catalog"). */
    enum sk_err (*decode)(const json_t *params, uint64_t seed, const char *catalog,
                          struct sk_jptr *ptr, struct sk_verr_list *errs, void **out);
    void (*free)(void *job);
    uint64_t (*total)(const void *job);

    /* job_run_new, job_run_step_until (job_run_step: deadline_ms 0), job_run_result,
     * job_run_free. A failing step or result writes its message into `err` (job.c keeps it
     * for job_run_error). A step honours its deadline as job_run_step_until says. */
    enum sk_err (*run_new)(void *state, const void *job, const struct job_run_opts *opts,
                           void **out, char *err, size_t errlen);
    enum sk_err (*step)(void *run, uint64_t max_units, int64_t deadline_ms, uint64_t *done,
                        char *err, size_t errlen);
    enum sk_err (*result)(void *run, json_t **out, char *err, size_t errlen);
    /* The result of the units done so far, for a run stopped early (a canceled job keeps
     * it); SK_ECONFLICT when there is nothing to report. NULL: the kind has none. */
    enum sk_err (*partial)(void *run, json_t **out, char *err, size_t errlen);
    void (*run_free)(void *run);
    /* Resume (optional, both or neither): `save` appends to `out` the run's state after
     * the units done so far, in the kind's own binary form (the worker stores it with each
     * progress report); `restore` sets a new run, not yet stepped, to a state saved from a
     * run of the same job and sets *done to its units, so that stepping on gives exactly
     * the result of a run that never stopped. SK_EINVAL when the bytes are not such a
     * state (another job, another version of the layout): the caller starts from zero. */
    enum sk_err (*save)(void *run, struct sk_buf *out);
    enum sk_err (*restore)(void *run, const unsigned char *data, size_t len, uint64_t *done);
    /* Shards (optional, both or neither, and only with save/restore): `seek` makes a new
     * run, not yet stepped, start at unit `first` with nothing counted (SK_EINVAL past the
     * job's units), so that it plays a range of the job; `merge` adds what a run of the
     * same job saved (its units and their counts) into `run`, so that a run merged with the
     * checkpoints of runs covering every unit once gives the result of one run of the
     * whole job. SK_EINVAL when the bytes are not such a state. Restoring a state requires
     * the run to start (seek) where the saved one did. */
    enum sk_err (*seek)(void *run, uint64_t first);
    enum sk_err (*merge)(void *run, const unsigned char *data, size_t len);

    /* Units (optional): computes a unit a run of this job handed out through its
     * job_spread (job_unit_run), with `opts`'s threads. */
    enum sk_err (*unit)(void *state, const void *job, const struct job_run_opts *opts,
                        const void *spec, size_t len, struct sk_buf *out, char *err, size_t errlen);

    /* Device programs (optional): builds now, or loads from the program cache, every
     * program the job's games would play on with the engine's device, whatever the job's
     * size, reporting each to `fn` (job_prepare). SK_ENOTFOUND with `err` when the engine
     * has no device. NULL: the kind's jobs build nothing ahead (they play on the CPU, or
     * their programs depend on what the run finds). */
    enum sk_err (*prepare)(void *state, const void *job, job_program_fn fn, void *arg, char *err,
                           size_t errlen);

    /* What watchers may see of a run besides its units (optional): a new JSON object
     * (the optimiser's best deck so far, its games and candidates), or NULL on allocation
     * failure. NULL: the kind shows nothing more. */
    json_t *(*progress)(void *run);

    /* Card catalogs a job is pinned to (optional, all or none; kinds may share them):
     * `pinned` is the hash of the catalog a decoded job runs on (a string valid while the
     * job lives), `catalogs` the hashes of those this process can run jobs on, the one new
     * jobs are pinned to first (a new JSON array, NULL on allocation failure), `refresh`
     * picks up a new current catalog (1 changed, 0 not, -1 with `err` filled: the old one
     * stays; `force` reads it again even where nothing says it changed). */
    const char *(*pinned)(const void *job);
    json_t *(*catalogs)(void);
    int (*refresh)(int force, char *err, size_t errlen);

    const struct job_catalog *catalog; /* NULL when the kind serves none */
    /* Further catalogs the kind serves (the battle kind's missions and raids): NULL, or
     * NULL-terminated. */
    const struct job_catalog *const *more_catalogs;
};

#endif
