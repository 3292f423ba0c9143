/* SPDX-License-Identifier: MIT */
/* The job envelope {"kind", "seed", "params"} shared by the API, the worker and the CLI:
 * decoding with full validation, and running a decoded job in resumable steps so callers
 * can report progress and honour cancellation between them. Dispatches to battle_job
 * and board_job; knows nothing of HTTP, SQL or queues. */
#ifndef JOB_H
#define JOB_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "sk_err.h"
#include "sk_verr.h"

/* Seeds are kept below 2^53 so that browsers (JavaScript numbers) read them exactly. */
#define JOB_SEED_MAX 9007199254740991ULL

enum job_kind { JOB_BATTLE = 0, JOB_BOARD = 1, JOB_KIND__COUNT };

struct job;

/* How to run a job; zeroed means defaults. */
struct job_run_opts {
    int threads; /* CPU threads; 0 = one per core */
    /* SKIRMISH_DEVICE syntax: index, name substring, or "cpu"; NULL = default (borrowed) */
    const char *device;
};

/**
 * Decodes and validates a whole job document. On SK_OK, *out is a new job (caller frees
 * with job_free). On SK_EINVAL, `errs` holds every problem found, each with a JSON pointer
 * from the document root ("/params/attacker/deck/3/card"). When "seed" is absent one is
 * drawn from the OS and recorded (job_seed). SK_ENOMEM on allocation failure.
 * `doc` is borrowed.
 */
enum sk_err job_decode(const json_t *doc, struct job **out, struct sk_verr_list *errs);

/** Frees a job; NULL-safe. */
void job_free(struct job *job);

/** The job's kind (battle or board); `job` is borrowed and must not be NULL. */
enum job_kind job_kind(const struct job *job);
/** Returns "battle" or "board" (static string). */
const char *job_kind_name(enum job_kind kind);
/** Returns the kind named `name`, or -1. */
int job_kind_parse(const char *name);
/** The job's seed, given or drawn. */
uint64_t job_seed(const struct job *job);
/** Units of work in the job: games for battle, turns for board. Progress is done/total. */
uint64_t job_total(const struct job *job);

struct job_run;

/**
 * Starts a run of `job` (borrowed: it must outlive the run). On SK_OK *out is a new run
 * (caller frees with job_run_free). On failure `err` holds a message (e.g. a device
 * that could not be opened).
 */
enum sk_err job_run_new(const struct job *job, const struct job_run_opts *opts,
                        struct job_run **out, char *err, size_t errlen);

/**
 * Runs at most `max_units` further units (0 = all that remain) and sets *done to the units
 * completed so far. The run is complete when *done == job_total(). Results do not depend
 * on how the work is split into steps.
 */
enum sk_err job_run_step(struct job_run *run, uint64_t max_units, uint64_t *done);

/**
 * The result document of a complete run. Returns a new reference in *out (caller
 * decrefs). SK_ECONFLICT if the run is not complete.
 */
enum sk_err job_run_result(struct job_run *run, json_t **out);

/** A message describing the last failure of job_run_step, or "" (borrowed, run-owned). */
const char *job_run_error(const struct job_run *run);

/** Frees a run; NULL-safe. */
void job_run_free(struct job_run *run);

#endif
