/* SPDX-License-Identifier: MIT */
/* The `board` job kind as job.c sees it: decode "params" with full validation, then run in
 * resumable steps and build the result document. job.h documents the contracts; these
 * functions follow them for one kind. */
#ifndef BOARD_JOB_H
#define BOARD_JOB_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "sk_err.h"
#include "sk_verr.h"

struct job_run_opts;
struct board_job;
struct board_job_run;

/**
 * Decodes the "params" object of a board job (borrowed). Errors are added to `errs` with
 * pointers below the current position of `ptr` (which points at "/params" on entry and is
 * restored on return). On SK_OK *out is a new job (caller frees with board_job_free).
 */
enum sk_err board_job_decode(const json_t *params, uint64_t seed, struct sk_jptr *ptr,
                             struct sk_verr_list *errs, struct board_job **out);
/** Frees a job; NULL-safe. */
void board_job_free(struct board_job *job);
/** Units of work (see job_total). */
uint64_t board_job_total(const struct board_job *job);

/** See job_run_new. `job` is borrowed and must outlive the run. */
enum sk_err board_job_run_new(const struct board_job *job, const struct job_run_opts *opts,
                              struct board_job_run **out, char *err, size_t errlen);
/** See job_run_step. */
enum sk_err board_job_run_step(struct board_job_run *run, uint64_t max_units, uint64_t *done);
/** See job_run_result: a new reference in *out. */
enum sk_err board_job_run_result(struct board_job_run *run, json_t **out);
/** See job_run_error. */
const char *board_job_run_error(const struct board_job_run *run);
/** Frees a run; NULL-safe. */
void board_job_run_free(struct board_job_run *run);

#endif
