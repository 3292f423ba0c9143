/* SPDX-License-Identifier: MIT */
/* The `battle` job kind (battle_kind, see job_kind.h): params are decoded by battle_codec
 * against the shared catalog; the engine state holds the OpenCL device opened once per
 * process (or none: the CPU backend); a run prepares one battle_plan and plays successive
 * ranges of games on that backend, then reports counts, rates with Wilson intervals and
 * the turn histogram. Device discovery and launches are battle_cl's; this module only
 * picks the backend at engine set-up and falls back. */
#include "battle.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "battle_cards.h"
#include "battle_catalog.h"
#include "battle_cl.h"
#include "battle_codec.h"
#include "battle_cpu.h"
#include "battle_plan.h"
#include "engine.h"
#include "job.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "stats.h"

#include "sk_banned.h"

/* The kind's engine state: what every run of the process shares. */
struct battle_engine {
    struct battle_cl *cl; /* owned; NULL = the CPU backend */
    /* A battle_cl handle serves one thread at a time: runs take turns on it. */
    pthread_mutex_t lock;
};

struct battle_job {
    struct battle_spec spec; /* owns spec.cards */
};

struct battle_job_run {
    const struct battle_job *job; /* borrowed */
    struct battle_engine *eng;    /* borrowed */
    struct battle_plan *plan;     /* owned */
    int threads;                  /* as asked: 0 = one per online core */
    uint64_t done;                /* games played so far: [0, done) */
    struct battle_counts counts;
    double elapsed_s; /* wall time spent inside run_step */
};

static enum sk_err job_decode_params(const json_t *params, uint64_t seed, struct sk_jptr *ptr,
                                     struct sk_verr_list *errs, void **out)
{
    const struct battle_catalog *cat = NULL;
    struct battle_job *job = NULL;
    char why[256];
    enum sk_err err;

    /* A catalog that does not load is the deployment's fault, not the client's: it is not
     * reported as a validation error. engine_new loads it first, so processes fail early. */
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

static void job_free_data(void *data)
{
    struct battle_job *job = data;
    if (!job)
        return;
    battle_codec_spec_release(&job->spec);
    sk_free(job);
}

static uint64_t job_units(const void *data)
{
    const struct battle_job *job = data;
    return job->spec.games;
}

static void engine_close(void *state)
{
    struct battle_engine *be = state;
    if (!be)
        return;
    battle_cl_free(be->cl);
    pthread_mutex_destroy(&be->lock);
    sk_free(be);
}

/*
 * Chooses the backend once per process: opts->device, else $SKIRMISH_DEVICE, in
 * SKIRMISH_DEVICE syntax. "cpu" is the CPU backend. A named device must open, or the
 * engine fails with battle_cl's error. With nothing named, the default OpenCL device is
 * used when one opens; otherwise the CPU backend, with a warning saying why, since a host
 * without OpenCL (or with a broken driver) can still run every job.
 */
static enum sk_err open_device(struct battle_engine *be, const char *device, char *err,
                               size_t errlen)
{
    const char *spec = device && *device ? device : getenv(BATTLE_CL_ENV_DEVICE);
    struct battle_cl_opts o = {.device = spec ? spec : ""};
    char why[1024] = "", quoted[1100];
    enum sk_err rc;

    if (battle_cl_spec_is_cpu(spec))
        return SK_OK;
    rc = battle_cl_new(&o, &be->cl, why, sizeof(why));
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

/* Checks the card catalog (every job may name its cards) and opens the device. */
static enum sk_err engine_open(const struct engine_opts *opts, void **state, char *err,
                               size_t errlen)
{
    const struct battle_catalog *cat = NULL;
    struct battle_engine *be = NULL;
    enum sk_err rc;

    rc = battle_catalog_shared(&cat, err, errlen);
    if (rc)
        return rc;
    be = sk_calloc(1, sizeof(*be));
    if (!be)
        return SK_ENOMEM;
    if (pthread_mutex_init(&be->lock, NULL)) {
        sk_free(be);
        return SK_ENOMEM;
    }
    rc = opts->no_device ? SK_OK : open_device(be, opts->device, err, errlen);
    if (rc) {
        engine_close(be);
        return rc;
    }
    *state = be;
    return SK_OK;
}

static void engine_describe_state(const void *state, struct engine_info *info)
{
    const struct battle_engine *be = state;
    struct battle_cl_info ci;

    if (!be || !be->cl)
        return;
    battle_cl_describe(be->cl, &ci);
    (void)snprintf(info->backend, sizeof(info->backend), "opencl");
    (void)snprintf(info->device, sizeof(info->device), "%s", ci.device);
    (void)snprintf(info->platform, sizeof(info->platform), "%s", ci.platform);
}

static void run_free(void *data);

static enum sk_err run_new(void *state, const void *data, const struct job_run_opts *opts,
                           void **out, char *err, size_t errlen)
{
    const struct battle_job *job = data;
    struct battle_job_run *run = NULL;
    enum sk_err rc;

    run = sk_calloc(1, sizeof(*run));
    if (!run)
        return SK_ENOMEM;
    run->job = job;
    run->eng = state;
    run->threads = opts->threads;
    rc = battle_plan_new(&job->spec, &run->plan, err, errlen);
    if (rc)
        goto out;
    *out = run;
    run = NULL;
out:
    run_free(run);
    return rc;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static enum sk_err run_step(void *data, uint64_t max_units, uint64_t *done, char *err,
                            size_t errlen)
{
    struct battle_job_run *run = data;
    struct battle_cl *cl = run->eng ? run->eng->cl : NULL;
    uint64_t left = run->job->spec.games - run->done;
    uint64_t n = (max_units == 0 || max_units > left) ? left : max_units;
    double t0;
    enum sk_err rc = SK_OK;

    if (n > 0) {
        t0 = now_s();
        if (cl) {
            char why[512] = "";
            pthread_mutex_lock(&run->eng->lock);
            rc = battle_cl_run(cl, run->plan, run->done, n, &run->counts, why, sizeof(why));
            pthread_mutex_unlock(&run->eng->lock);
            run->elapsed_s += now_s() - t0;
            if (rc) {
                snprintf(err, errlen, "opencl backend failed on games %llu..%llu: %s",
                         (unsigned long long)run->done, (unsigned long long)(run->done + n - 1),
                         why);
                return rc;
            }
            run->done += n;
            *done = run->done;
            return SK_OK;
        }
        rc = battle_cpu_run(run->plan, run->done, n, run->threads, &run->counts);
        run->elapsed_s += now_s() - t0;
        if (rc) {
            snprintf(err, errlen, "cpu backend failed on games %llu..%llu: %s",
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

    if (!run->eng || !run->eng->cl)
        return put(res, "backend", json_string("cpu")) ||
               put(res, "threads", json_integer(effective_threads(run->threads)));
    battle_cl_describe(run->eng->cl, &info);
    return put(res, "backend", json_string("opencl")) ||
           put(res, "platform", json_string(info.platform)) ||
           put(res, "device", json_string(info.device)) ||
           put(res, "work_group", json_integer((json_int_t)info.work_group)) ||
           put(res, "games_per_launch", json_integer((json_int_t)info.per_launch));
}

/* The result document of the games played so far: all of them (partial = 0; SK_ECONFLICT
 * before the last), or the first ones of a run stopped early (partial = 1, at least one
 * game; the counts of games 0..n-1 do not depend on where the run stopped). */
static enum sk_err result_of(struct battle_job_run *run, int partial, json_t **out, char *why,
                             size_t whylen)
{
    const struct battle_spec *spec = &run->job->spec;
    const struct battle_counts *c = &run->counts;
    json_t *res = NULL;
    json_t *turns = NULL;
    json_t *hist = NULL;
    uint64_t hist_total = 0;
    enum sk_err err = SK_ENOMEM;

    if (partial ? c->games == 0 : run->done < spec->games)
        return SK_ECONFLICT;
    /* Every game must be counted once as an outcome and once in the histogram; anything
     * else is a backend bug, not a result to publish. */
    for (int t = 1; t <= spec->turn_limit; t++)
        hist_total += c->turns[t];
    if ((!partial && c->games != spec->games) || c->wins + c->stalls + c->losses != c->games ||
        hist_total != c->games) {
        snprintf(why, whylen, "inconsistent counts: games %llu, outcomes %llu, histogram %llu",
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

static enum sk_err run_result(void *data, json_t **out, char *why, size_t whylen)
{
    return result_of(data, 0, out, why, whylen);
}

static enum sk_err run_partial(void *data, json_t **out, char *why, size_t whylen)
{
    return result_of(data, 1, out, why, whylen);
}

static void run_free(void *data)
{
    struct battle_job_run *run = data;
    if (!run)
        return;
    battle_plan_free(run->plan);
    sk_free(run);
}

/* ===== The catalog served at /v1/cards ===== */

static json_t *catalog_load(char *err, size_t errlen)
{
    const struct battle_catalog *cat = NULL;
    if (battle_catalog_shared(&cat, err, errlen))
        return NULL;
    return battle_catalog_to_json(cat);
}

static const char *type_word(int i)
{
    return battle_cards_type_name((enum battle_card_type)i);
}

static const char *skill_word(int i)
{
    return battle_cards_skill_name((enum battle_skill)i);
}

static const struct job_filter card_filters[] = {
    {"type", "type", NULL, type_word, BATTLE_CARD_TYPE__COUNT},
    {"skill", "skills", "name", skill_word, BATTLE_SKILL__COUNT},
    {"name", "name", NULL, NULL, 0},
    {NULL, NULL, NULL, NULL, 0},
};

static const struct job_catalog cards_catalog = {"cards", catalog_load, card_filters};

const struct job_kind_ops battle_kind = {
    .name = "battle",
    .open = engine_open,
    .close = engine_close,
    .describe = engine_describe_state,
    .decode = job_decode_params,
    .free = job_free_data,
    .total = job_units,
    .run_new = run_new,
    .step = run_step,
    .result = run_result,
    .partial = run_partial,
    .run_free = run_free,
    .catalog = &cards_catalog,
};
