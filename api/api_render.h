/* SPDX-License-Identifier: MIT */
/* Renders store rows as the API's JSON documents: the job resource (GET /v1/jobs/{id}, POST
 * /v1/jobs, cancel, list items, event-stream data) and the running-job summaries of
 * /v1/stats. One place decides every field's name and order; the text is compact
 * (sk_json_text), so answers are alike whichever route sends them. No I/O, no locks. */
#ifndef API_RENDER_H
#define API_RENDER_H

#include <jansson.h>

#include "db_jobs.h"

/** The job resource of `j` as a new object (caller decrefs); NULL when out of memory. */
json_t *api_render_job(const struct db_job *j);

/** The job resource of `j` as new compact text (sk_free); NULL when out of memory. */
char *api_render_job_text(const struct db_job *j);

/**
 * The running-job summary of `j` for /v1/stats, a new object: {id, kind, progress {done,
 * total}, attempts, started_at, updated_at}. NULL when out of memory.
 */
json_t *api_render_running(const struct db_job *j);

#endif
