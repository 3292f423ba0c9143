/* SPDX-License-Identifier: MIT */
/* The `battle` job kind (see battle_job.h): params are decoded by battle_codec against the
 * shared catalog; a run prepares one battle_plan and plays successive ranges of games on
 * the OpenCL backend when a device exists (else the CPU backend), then reports counts, rates
 * with Wilson intervals and the turn histogram. Device discovery and launches are
 * battle_cl's; this module only picks the backend and falls back. */
#include "battle_job.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "battle_catalog.h"
#include "battle_cl.h"
#include "battle_codec.h"
#include "battle_cpu.h"
#include "battle_plan.h"
#include "job.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "stats.h"

#include "sk_banned.h"

struct battle_job {
    struct battle_spec spec; /* owns spec.cards */
};

struct battle_job_run {
    const struct battle_job *job; /* borrowed */
    struct battle_plan *plan;     /* owned */
    int threads;                  /* as asked: 0 = one per online core */
    struct battle_cl *cl;         /* owned; NULL = the CPU backend */
    uint64_t done;                /* games played so far: [0, done) */
    struct battle_counts counts;
    double elapsed_s; /* wall time spent inside battle_job_run_step */
    char error[256];
};

enum sk_err battle_job_decode(const json_t *params, uint64_t seed, struct sk_jptr *ptr,
                              struct sk_verr_list *errs, struct battle_job **out)
{
    const struct battle_catalog *cat = NULL;
    struct battle_job *job = NULL;
    char why[256];
    enum sk_err err;

    /* A catalog that does not load is the deployment's fault, not the client's: it is not
     * reported as a validation error. Servers load it at start-up to fail early. */
    err = battle_catalog_shared(&cat, why, sizeof(why));
    if (err)
        return err == SK_ENOMEM ? SK_ENOMEM : SK_EINTERNAL;
    job = sk_calloc(1, sizeof(*job));
    if (!job)
        return SK_ENOMEM;
    err = battle_codec_decode(params, seed, cat, ptr, errs, &job->spec);
    if (err) {
        sk_free(job);
        return err;
    }
    *out = job;
    return SK_OK;
}

void battle_job_free(struct battle_job *job)
{
    if (!job)
        return;
    battle_codec_spec_release(&job->spec);
    sk_free(job);
}

uint64_t battle_job_total(const struct battle_job *job)
{
    return job->spec.games;
}

/*
 * Chooses the backend: `device` (job_run_opts.device), else $SKIRMISH_DEVICE, in
 * SKIRMISH_DEVICE syntax. "cpu" is the CPU backend. A named device must open, or the run
 * fails with battle_cl's error. With nothing named, the default OpenCL device is used when
 * one opens; otherwise the run falls back to the CPU backend and logs why, since a host
 * without OpenCL (or with a broken driver) can still run every job.
 */
static enum sk_err open_device(struct battle_job_run *run, const char *device, char *err,
                               size_t errlen)
{
    const char *spec = device ? device : getenv(BATTLE_CL_ENV_DEVICE);
    struct battle_cl_opts o = {.device = spec ? spec : ""};
    char why[1024] = "", quoted[1100];
    enum sk_err rc;

    if (battle_cl_spec_is_cpu(spec))
        return SK_OK;
    rc = battle_cl_new(&o, &run->cl, why, sizeof(why));
    if (rc == SK_OK || rc == SK_ENOMEM)
        return rc;
    if (spec && *spec) {
        snprintf(err, errlen, "device \"%s\": %s", spec, why);
        return rc;
    }
    /* The reason may hold a multi-line build log: sk_log_quote keeps the event on one line. */
    sk_log_warn("event=opencl_fallback backend=cpu reason=%s",
                sk_log_quote(quoted, sizeof(quoted), why));
    return SK_OK;
}

enum sk_err battle_job_run_new(const struct battle_job *job, const struct job_run_opts *opts,
                               struct battle_job_run **out, char *err, size_t errlen)
{
    struct battle_job_run *run = NULL;
    enum sk_err rc;

    if (opts && opts->threads < 0) {
        snprintf(err, errlen, "threads must be 0 (one per core) or more, not %d", opts->threads);
        return SK_EINVAL;
    }
    run = sk_calloc(1, sizeof(*run));
    if (!run)
        return SK_ENOMEM;
    run->job = job;
    run->threads = opts ? opts->threads : 0;
    rc = battle_plan_new(&job->spec, &run->plan, err, errlen);
    if (rc)
        goto out;
    rc = open_device(run, opts ? opts->device : NULL, err, errlen);
    if (rc)
        goto out;
    *out = run;
    run = NULL;
out:
    battle_job_run_free(run);
    return rc;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum sk_err battle_job_run_step(struct battle_job_run *run, uint64_t max_units, uint64_t *done)
{
    uint64_t left = run->job->spec.games - run->done;
    uint64_t n = (max_units == 0 || max_units > left) ? left : max_units;
    double t0;
    enum sk_err rc = SK_OK;

    if (n > 0) {
        t0 = now_s();
        if (run->cl) {
            /* short enough that the message below always fits run->error whole */
            char why[160] = "";
            rc = battle_cl_run(run->cl, run->plan, run->done, n, &run->counts, why, sizeof(why));
            run->elapsed_s += now_s() - t0;
            if (rc) {
                snprintf(
                    run->error, sizeof(run->error), "opencl backend failed on games %llu..%llu: %s",
                    (unsigned long long)run->done, (unsigned long long)(run->done + n - 1), why);
                return rc;
            }
            run->done += n;
            *done = run->done;
            return SK_OK;
        }
        rc = battle_cpu_run(run->plan, run->done, n, run->threads, &run->counts);
        run->elapsed_s += now_s() - t0;
        if (rc) {
            snprintf(run->error, sizeof(run->error), "cpu backend failed on games %llu..%llu: %s",
                     (unsigned long long)run->done, (unsigned long long)(run->done + n - 1),
                     sk_err_str(rc));
            return rc;
        }
        run->done += n;
    }
    *done = run->done;
    return SK_OK;
}

/* Sets `key` of `obj` to the new reference `v`; returns nonzero on failure. Consumes `v`. */
static int put(json_t *obj, const char *key, json_t *v)
{
    return !v || json_object_set_new(obj, key, v) != 0;
}

/* Adds "<name>" (the fraction k/n) and "<name>_ci95" ([lo, hi], Wilson 95%) to `obj`. */
static int put_rate(json_t *obj, const char *name, uint64_t k, uint64_t n)
{
    char key[64];
    double lo = 0, hi = 0;

    if (stats_wilson(k, n, STATS_Z95, &lo, &hi))
        return 1;
    snprintf(key, sizeof(key), "%s_ci95", name);
    return put(obj, name, json_real((double)k / (double)n)) ||
           put(obj, key, json_pack("[f, f]", lo, hi));
}

/* The number of threads a request for `threads` uses (0 = one per online core). */
static int effective_threads(int threads)
{
    long n;
    if (threads > 0)
        return threads;
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* "backend" and what it ran on: the CPU threads, or the OpenCL platform, device and launch
 * geometry. */
static int put_backend(json_t *res, const struct battle_job_run *run)
{
    struct battle_cl_info info;

    if (!run->cl)
        return put(res, "backend", json_string("cpu")) ||
               put(res, "threads", json_integer(effective_threads(run->threads)));
    battle_cl_describe(run->cl, &info);
    return put(res, "backend", json_string("opencl")) ||
           put(res, "platform", json_string(info.platform)) ||
           put(res, "device", json_string(info.device)) ||
           put(res, "work_group", json_integer((json_int_t)info.work_group)) ||
           put(res, "games_per_launch", json_integer((json_int_t)info.per_launch));
}

enum sk_err battle_job_run_result(struct battle_job_run *run, json_t **out)
{
    const struct battle_spec *spec = &run->job->spec;
    const struct battle_counts *c = &run->counts;
    json_t *res = NULL;
    json_t *turns = NULL;
    json_t *hist = NULL;
    uint64_t hist_total = 0;
    enum sk_err err = SK_ENOMEM;

    if (run->done < spec->games)
        return SK_ECONFLICT;
    /* Every game must be counted once as an outcome and once in the histogram; anything
     * else is a backend bug, not a result to publish. */
    for (int t = 1; t <= spec->turn_limit; t++)
        hist_total += c->turns[t];
    if (c->games != spec->games || c->wins + c->stalls + c->losses != c->games ||
        hist_total != c->games) {
        snprintf(run->error, sizeof(run->error),
                 "inconsistent counts: games %llu, outcomes %llu, histogram %llu",
                 (unsigned long long)c->games, (unsigned long long)c->wins + c->stalls + c->losses,
                 (unsigned long long)hist_total);
        return SK_EINTERNAL;
    }
    res = json_object();
    turns = json_object();
    hist = json_array();
    if (!res || !turns || !hist)
        goto out;
    for (int t = 1; t <= spec->turn_limit; t++)
        if (json_array_append_new(hist, json_integer((json_int_t)c->turns[t])))
            goto out;
    if (put(turns, "mean", json_real((double)c->turns_sum / (double)c->games)) ||
        json_object_set(turns, "histogram", hist))
        goto out;
    if (put(res, "games", json_integer((json_int_t)c->games)) ||
        put(res, "wins", json_integer((json_int_t)c->wins)) ||
        put(res, "stalls", json_integer((json_int_t)c->stalls)) ||
        put(res, "losses", json_integer((json_int_t)c->losses)) ||
        put_rate(res, "win_rate", c->wins, c->games) ||
        put_rate(res, "stall_rate", c->stalls, c->games) ||
        put_rate(res, "loss_rate", c->losses, c->games) || json_object_set(res, "turns", turns) ||
        put(res, "seed", json_integer((json_int_t)spec->seed)) || put_backend(res, run) ||
        put(res, "elapsed_ms", json_real(round(run->elapsed_s * 1e6) / 1e3)) ||
        put(res, "games_per_second",
            run->elapsed_s > 0
                ? json_integer((json_int_t)llround((double)c->games / run->elapsed_s))
                : json_null()))
        goto out;
    *out = res;
    res = NULL;
    err = SK_OK;
out:
    json_decref(hist);
    json_decref(turns);
    json_decref(res);
    return err;
}

const char *battle_job_run_error(const struct battle_job_run *run)
{
    return run->error;
}

void battle_job_run_free(struct battle_job_run *run)
{
    if (!run)
        return;
    battle_cl_free(run->cl);
    battle_plan_free(run->plan);
    sk_free(run);
}
