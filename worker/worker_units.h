/* SPDX-License-Identifier: MIT */
/* An optimisation's games spread across workers (docs/optimize.md, "Spread across
 * workers"): the job_spread the worker holding an optimize job's lease (the coordinator)
 * gives its run. A call's units are inserted as rows under the job (db_units, fenced by
 * the lease) and enqueued for every worker; the coordinator then claims and computes what
 * no other worker has taken, in order, waits a bounded time for the units others are
 * computing (each stores its result as the unit's end), computes any still missing itself
 * (a dead worker's, a canceled one's), and deletes the call's rows. A unit's result
 * depends only on the job and the unit, so the search is the same whoever computed what,
 * and a coordinator that resumes after a crash finds the units it had inserted (the same
 * bytes, the same key) with the results other workers stored. A store that fails mid-call
 * costs no error: the coordinator computes the units itself. */
#ifndef WORKER_UNITS_H
#define WORKER_UNITS_H

#include <stdint.h>

#include "job.h"
#include "worker.h"

/* One run's spread: set up by worker_units_init, then `spread` goes to job_run_new's
 * options. Everything is borrowed and must outlive the run. */
struct worker_units {
    struct worker *w;
    const char *job_id;
    const char *owner;  /* the coordinator's lease token on the job */
    uint64_t elsewhere; /* games other workers computed, not yet taken by units_here */
    struct job_spread spread;
    /* The lease kept during a call (its units may take longer than the lease): the
     * progress last reported (worker_units_progress), written again with each renewal,
     * and when the next renewal is due. */
    uint64_t from, done;
    long renew_ms;
    long long renew_at_ms;
};

/** Sets `u` up for the run of job `job_id` under lease `owner`, spreading units of
 * w->cfg->opt_unit_games games (0: never). */
void worker_units_init(struct worker_units *u, struct worker *w, const char *job_id,
                       const char *owner);

/** Records the progress the run's worker just reported (`done` units, of which `from`
 * restored) and the longest a call may then go without renewing the lease: `renew_ms`.
 * A call renews it with that progress while its units run, and ends with SK_ECANCELED
 * (the step fails with it, the run is as after its last whole piece) when a cancel was
 * requested meanwhile, or SK_ELEASE when the lease was lost. */
void worker_units_progress(struct worker_units *u, uint64_t from, uint64_t done, long renew_ms);

/** Of `units` games a step of the run reports, those played in this process (the rest,
 * other workers' units, count in their own heartbeats); resets the count of the others'. */
uint64_t worker_units_here(struct worker_units *u, uint64_t units);

#endif
