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
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "battle_cards.h"
#include "battle_catalog.h"
#include "battle_cl.h"
#include "battle_codec.h"
#include "battle_cpu.h"
#include "battle_device.h"
#include "battle_missions.h"
#include "battle_plan.h"
#include "battle_rules.h"
#include "battle_tu.h"
#include "job_kind.h"
#include "sk_buf.h"
#include "sk_cores.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_time.h"
#include "stats.h"

#include "sk_banned.h"

/* The kind's engine state: what every run of the process shares. */
struct battle_engine {
    struct battle_cl *cl; /* owned; NULL = the CPU backend */
    /* A battle_cl handle serves one thread at a time: runs take turns on it. Also guards
     * the builder's fields below. */
    pthread_mutex_t lock;
    /* device_async: a plan whose program the handle does not hold plays on the CPU threads
     * while `builder` builds it (one build at a time), on the device from the step after. */
    int async;
    int building;              /* 1 while `builder` builds `want` */
    struct battle_cl_key want; /* the program being built */
    /* Programs whose build failed: their plans play on the CPU, with one warning each. */
    struct battle_cl_key failed[BATTLE_CL_PROGRAMS_MAX];
    int n_failed;
    int abandoned;     /* engine_close came during a build: the builder frees the engine */
    int has_builder;   /* `builder` was started and not joined yet */
    pthread_t builder; /* the build of `want` (build_program) */
};

/* A job: one defender deck, or a weighted list of them (each its own spec, the attacker
 * and the settings the same). Every deck plays the job's `games` games; deck k's games
 * are the units [k * games, (k + 1) * games) of the run. */
struct battle_job {
    struct battle_mix mix;            /* owns each spec's cards */
    const struct battle_catalog *cat; /* a reference: the catalog the job's names meant */
};

struct battle_job_run {
    const struct battle_job *job;                    /* borrowed */
    struct battle_engine *eng;                       /* borrowed */
    struct battle_plan *plans[BATTLE_DEFENDERS_MAX]; /* owned; one per defender deck */
    int threads;     /* as asked: 0 = the cores idle at each step (sk_cores_idle) */
    int threads_max; /* the most CPU threads a step used (the result's "threads") */
    uint64_t first;  /* the run plays units [first, ...) */
    uint64_t done;   /* units played so far: [first, done) */
    struct battle_counts counts[BATTLE_DEFENDERS_MAX];
    double elapsed_s;              /* wall time spent inside run_step */
    int device_ok;                 /* the job may play on the engine's device (run_device) */
    struct battle_cl *cl;          /* the device some of its games played on, or NULL: the CPU's */
    struct battle_cl_info cl_info; /* its program's figures, at its latest device step (the
                                      strings are not kept: the handle's may change) */
    double program_s;              /* wall time its steps spent building or loading programs */
};

static void job_free_data(void *data);

static enum sk_err job_decode_params(const json_t *params, uint64_t seed, const char *catalog,
                                     struct sk_jptr *ptr, struct sk_verr_list *errs, void **out)
{
    const struct battle_catalog *cat = NULL;
    struct battle_job *job = NULL;
    enum sk_err err;

    err = battle_catalog_for_job(catalog, &cat);
    if (err)
        return err;
    job = sk_calloc(1, sizeof(*job));
    if (!job) {
        battle_catalog_put(cat);
        return SK_ENOMEM;
    }
    job->cat = cat;
    err = battle_codec_decode_mix(params, seed, cat, ptr, errs, &job->mix);
    if (err) {
        job_free_data(job);
        return err;
    }
    err = battle_codec_check_plans(&job->mix, errs);
    if (err) {
        job_free_data(job);
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
    battle_codec_mix_release(&job->mix);
    battle_catalog_put(job->cat);
    sk_free(job);
}

static uint64_t job_units(const void *data)
{
    const struct battle_job *job = data;
    return job->mix.specs[0].games * (uint64_t)job->mix.n;
}

/* The engine whose device battle_device_each lends (see battle_device.h). */
static struct battle_engine *device_engine;

/* Frees the engine and its device; the builder is done or was never started. */
static void engine_destroy(struct battle_engine *be)
{
    battle_cl_free(be->cl);
    pthread_mutex_destroy(&be->lock);
    sk_free(be);
}

/* Logs a device that fell back to the CPU backend: at debug level when there is no GPU (the
 * normal case of a host without one), else as a warning. The reason may hold a multi-line
 * build log: sk_log_quote keeps the event on one line. */
static void log_fallback(enum sk_err rc, const char *why)
{
    char quoted[1100];

    if (rc == SK_ENOTFOUND)
        sk_log_debug("event=backend_default backend=cpu reason=%s",
                     sk_log_quote(quoted, sizeof(quoted), why));
    else
        sk_log_warn("event=opencl_fallback backend=cpu reason=%s",
                    sk_log_quote(quoted, sizeof(quoted), why));
}

/* device_async's build of be->want: runs of its plans play on the CPU until it ends. A build
 * that fails leaves those plans on the CPU backend for good, with a warning. */
static void *build_program(void *arg)
{
    struct battle_engine *be = arg;
    /* Its own copy: once `building` is 0, a run may start the next build into be->want. */
    struct battle_cl_key want = be->want;
    struct battle_cl_prog *prog = NULL;
    double t0 = sk_time_mono_s();
    char why[1024] = "";
    enum sk_err rc;
    int abandoned;

    rc = battle_cl_compile(be->cl, &want, &prog, why, sizeof(why));
    pthread_mutex_lock(&be->lock);
    if (rc == SK_OK)
        battle_cl_adopt(be->cl, prog);
    else if (be->n_failed < BATTLE_CL_PROGRAMS_MAX)
        be->failed[be->n_failed++] = want;
    be->building = 0;
    abandoned = be->abandoned;
    pthread_mutex_unlock(&be->lock);
    if (rc)
        log_fallback(SK_EIO, why);
    else
        sk_log_info("event=device_ready program=%s seconds=%.1f",
                    want.features[0] ? "specialised" : "general", sk_time_mono_s() - t0);
    if (abandoned)
        engine_destroy(be);
    return NULL;
}

/* Plays `plan`'s program's plans on the CPU from now on: its build failed; be->lock held. */
static void device_failed(struct battle_engine *be, const struct battle_plan *plan)
{
    if (be->n_failed < BATTLE_CL_PROGRAMS_MAX)
        battle_cl_key_of(be->cl, plan, &be->failed[be->n_failed++]);
}

/*
 * Whether a run of `plan` may play on the engine's device now; be->lock held. Never when
 * its program failed to build. Without device_async, when there is a device (the run
 * builds a missing program). With it,
 * when the handle holds the plan's program or loads it from the binary cache now; else the
 * program's build starts in the background (one at a time; never again after it failed)
 * and the run plays on the CPU meanwhile.
 */
static int device_ready(struct battle_engine *be, const struct battle_plan *plan)
{
    struct battle_cl_key key;

    if (!be->cl)
        return 0;
    battle_cl_key_of(be->cl, plan, &key);
    for (int i = 0; i < be->n_failed; i++)
        if (strcmp(be->failed[i].features, key.features) == 0)
            return 0;
    if (!be->async)
        return 1;
    if (be->building && strcmp(be->want.features, key.features) == 0)
        return 0;
    if (battle_cl_loaded(be->cl, &key, 1))
        return 1;
    if (be->building)
        return 0;
    if (be->has_builder) /* the last build has ended: its thread returns at once */
        pthread_join(be->builder, NULL);
    be->has_builder = 0;
    be->want = key;
    be->building = 1;
    if (pthread_create(&be->builder, NULL, build_program, be) != 0) {
        be->building = 0; /* no thread now: the CPU plays it, a later step tries again */
        return 0;
    }
    be->has_builder = 1;
    return 0;
}

int battle_device_each(const struct battle_plan *plan, uint64_t first, uint32_t n,
                       struct battle_game_result *out, enum sk_err *rc, char *err, size_t errlen)
{
    struct battle_engine *be = device_engine;
    char why[1024];

    /* A plan that makes its variants during play is the CPU backend's (run_device). */
    if (!be || battle_plan_lazy(plan))
        return 0;
    pthread_mutex_lock(&be->lock);
    /* No device, the plan's program still builds, or its build fails now (the CPU then
     * plays that program's plans, with a warning). */
    why[0] = '\0';
    if (!device_ready(be, plan) || battle_cl_prepare(be->cl, plan, why, sizeof(why)) != SK_OK) {
        if (why[0])
            device_failed(be, plan);
        pthread_mutex_unlock(&be->lock);
        if (why[0])
            log_fallback(SK_EIO, why);
        return 0;
    }
    *rc = battle_cl_play_each(be->cl, plan, first, n, out, err, errlen);
    pthread_mutex_unlock(&be->lock);
    return 1;
}

static void engine_close(void *state)
{
    struct battle_engine *be = state;
    if (!be)
        return;
    if (device_engine == be)
        device_engine = NULL;
    pthread_mutex_lock(&be->lock);
    if (be->building) {
        /* A build cannot be cut short (a GPU driver's takes minutes): the builder frees the
         * engine when it ends, or the process's exit ends it. */
        be->abandoned = 1;
        pthread_mutex_unlock(&be->lock);
        pthread_detach(be->builder);
        return;
    }
    pthread_mutex_unlock(&be->lock);
    if (be->has_builder)
        pthread_join(be->builder, NULL);
    engine_destroy(be);
}

/*
 * Chooses the backend once per process: opts->device, else $SKIRMISH_DEVICE, in
 * SKIRMISH_DEVICE syntax. "cpu" is the CPU backend. A named device must open, or the
 * engine fails with battle_cl's error. With nothing named, the first GPU is used when one
 * opens. A host without a GPU (no OpenCL, or only a CPU device such as PoCL, which plays
 * slower than the CPU backend) uses the CPU backend, said at debug level only (the worker
 * logs its backend at start, and every result names it); a GPU or driver that fails to
 * open falls back to it with a warning, since every job still runs. Programs are built as
 * plans need them (battle_cl_key_of): by the run itself, or with `async` in the background
 * (device_ready).
 */
static enum sk_err open_device(struct battle_engine *be, const char *device, int async, char *err,
                               size_t errlen)
{
    const char *spec = device && *device ? device : getenv(BATTLE_CL_ENV_DEVICE);
    struct battle_cl_opts o = {.device = spec ? spec : ""};
    char why[1024] = "";
    enum sk_err rc;

    if (battle_cl_spec_is_cpu(spec))
        return SK_OK;
    be->async = async;
    rc = battle_cl_open(&o, &be->cl, why, sizeof(why));
    if (rc == SK_OK || rc == SK_ENOMEM)
        return rc;
    if (spec && *spec) {
        snprintf(err, errlen, "device \"%s\": %s", spec, why);
        return rc;
    }
    log_fallback(rc, why);
    return SK_OK;
}

/* Checks the card catalog (every job may name its cards) and opens the device. */
static enum sk_err engine_open(const struct engine_opts *opts, void **state, char *err,
                               size_t errlen)
{
    const struct battle_catalog *cat = NULL;
    struct battle_engine *be = NULL;
    enum sk_err rc;

    rc = battle_catalog_current(&cat, err, errlen);
    if (rc)
        return rc;
    battle_catalog_put(cat);
    be = sk_calloc(1, sizeof(*be));
    if (!be)
        return SK_ENOMEM;
    if (pthread_mutex_init(&be->lock, NULL)) {
        sk_free(be);
        return SK_ENOMEM;
    }
    rc = opts->no_device ? SK_OK : open_device(be, opts->device, opts->device_async, err, errlen);
    if (rc) {
        engine_close(be);
        return rc;
    }
    if (be->cl)
        device_engine = be;
    *state = be;
    return SK_OK;
}

static void engine_describe_state(const void *state, struct engine_info *info)
{
    const struct battle_engine *be = state;
    struct battle_cl_info ci;

    if (!be)
        return;
    /* The device from its opening on, while its program builds too (`building`). */
    pthread_mutex_lock((pthread_mutex_t *)&be->lock);
    if (be->cl) {
        battle_cl_describe(be->cl, &ci);
        snprintf(info->backend, sizeof(info->backend), "opencl");
        snprintf(info->device, sizeof(info->device), "%s", ci.device);
        snprintf(info->platform, sizeof(info->platform), "%s", ci.platform);
        info->building = be->building;
    }
    pthread_mutex_unlock((pthread_mutex_t *)&be->lock);
}

static void run_free(void *data);

/* Why the games of `spec` (its plan `plan`) play on the CPU backend whatever the device
 * (run_device), or NULL when they may play on it. */
static const char *cpu_only(const struct battle_spec *spec, const struct battle_plan *plan)
{
    for (int s = 0; s < 2; s++)
        if (spec->sides[s].play == BATTLE_PLAY_FLEX)
            return "flexible play";
    /* Variants made during play: the host makes them (battle_mods_lazy). */
    if (battle_plan_lazy(plan))
        return "Enhance and Evolve variants made during play";
    return NULL;
}

/* Whether a run may play on the engine's device (`plans`: its plans, built): not a job of
 * fewer than BATTLE_DEVICE_MIN_GAMES games (quicker on the CPU threads than a launch's
 * set-up), nor a job whose Enhance and Evolve variants are made during play
 * (battle_plan_lazy: the host makes them), nor a job with flexible play on either side,
 * which play on the CPU backend. A flexible game plays hundreds of look-ahead games on one
 * work-item: on an NVIDIA H200 a launch of a few hundred such games took over 20 s, where a
 * CPU core plays one in tens of milliseconds (bench/history/2026-11-27.md), so on a GPU the
 * first step alone could outlast the job's lease; on PoCL the CPU backend is as fast. Both
 * backends give the same games, so the result is the same either way. */
static int run_device(const struct battle_job *job, struct battle_plan *const *plans)
{
    if (job_units(job) < BATTLE_DEVICE_MIN_GAMES)
        return 0;
    for (int k = 0; k < job->mix.n; k++)
        if (cpu_only(&job->mix.specs[k], plans[k]))
            return 0;
    return 1;
}

/* The battle kind's job_prepare: each defender deck's plan's program, built or loaded now
 * (battle_cl_prepare) under the engine's lock, as a run would before its first launch. */
static enum sk_err prepare(void *state, const void *data, job_program_fn fn, void *arg, char *err,
                           size_t errlen)
{
    struct battle_engine *be = state;
    const struct battle_job *job = data;
    enum sk_err rc = SK_OK;

    if (!be || !be->cl) {
        snprintf(err, errlen,
                 "no OpenCL device: the CPU backend plays every job and needs "
                 "no program (name one with --device or SKIRMISH_DEVICE)");
        return SK_ENOTFOUND;
    }
    for (int k = 0; k < job->mix.n && !rc; k++) {
        struct battle_plan *plan = NULL;
        struct battle_cl_key key;
        struct battle_cl_info info;
        struct job_program p = {0};
        const char *why;
        double t0;

        rc = battle_plan_new(&job->mix.specs[k], &plan, err, errlen);
        if (rc)
            break;
        why = cpu_only(&job->mix.specs[k], plan);
        if (why) {
            fn(arg, NULL, why);
            battle_plan_free(plan);
            continue;
        }
        pthread_mutex_lock(&be->lock);
        battle_cl_key_of(be->cl, plan, &key);
        p.state = battle_cl_loaded(be->cl, &key, 0) ? JOB_PROGRAM_HELD : JOB_PROGRAM_BUILT;
        t0 = sk_time_mono_s();
        rc = battle_cl_prepare(be->cl, plan, err, errlen);
        if (rc == SK_OK) {
            battle_cl_describe(be->cl, &info);
            if (p.state == JOB_PROGRAM_BUILT && info.from_cache)
                p.state = JOB_PROGRAM_CACHED;
            p.features = info.features;
            p.seconds = p.state == JOB_PROGRAM_HELD ? 0 : sk_time_mono_s() - t0;
            p.private_mem = info.private_mem;
            p.local_mem = info.local_mem;
            fn(arg, &p, NULL);
        }
        pthread_mutex_unlock(&be->lock);
        battle_plan_free(plan);
    }
    return rc;
}

static enum sk_err run_new(void *state, const void *data, const struct job_run_opts *opts,
                           void **out, char *err, size_t errlen)
{
    const struct battle_job *job = data;
    struct battle_job_run *run = NULL;
    enum sk_err rc = SK_OK;

    run = sk_calloc(1, sizeof(*run));
    if (!run)
        return SK_ENOMEM;
    run->job = job;
    run->eng = state;
    run->threads = opts->threads;
    run->threads_max = opts->threads > 0 ? opts->threads : 1;
    for (int k = 0; k < job->mix.n; k++) {
        rc = battle_plan_new(&job->mix.specs[k], &run->plans[k], err, errlen);
        if (rc)
            goto out;
    }
    run->device_ok = run->eng && run_device(job, run->plans);
    *out = run;
    run = NULL;
out:
    run_free(run);
    return rc;
}

/* Plays games [first, first + n) of defender deck k on the run's backend, or a prefix of
 * them, *played games (at least one), when `deadline_ms` comes first. */
static enum sk_err play_range(struct battle_job_run *run, int k, uint64_t first, uint64_t n,
                              int64_t deadline_ms, uint64_t *played, char *err, size_t errlen)
{
    double t0 = sk_time_mono_s();
    enum sk_err rc;
    int threads;

    /* On the device when the job may and its program is built: a step while it still
     * builds (device_async) plays on the CPU threads, the next ones there once it is. */
    if (run->device_ok) {
        struct battle_engine *eng = run->eng;
        char why[512] = "";
        double tp;
        pthread_mutex_lock(&eng->lock);
        tp = sk_time_mono_s();
        /* The program first, timed apart: a first build is not the games' time. A build
         * that fails leaves the plans of that program on the CPU, with a warning. */
        if (device_ready(eng, run->plans[k]) &&
            battle_cl_prepare(eng->cl, run->plans[k], why, sizeof(why)) == SK_OK) {
            run->program_s += sk_time_mono_s() - tp;
            run->cl = eng->cl;
            rc = battle_cl_run_until(eng->cl, run->plans[k], first, n, deadline_ms, &run->counts[k],
                                     played, why, sizeof(why));
            battle_cl_describe(eng->cl, &run->cl_info);
            pthread_mutex_unlock(&eng->lock);
            run->elapsed_s += sk_time_mono_s() - t0;
            if (rc)
                snprintf(err, errlen, "opencl backend failed on games %llu..%llu: %s",
                         (unsigned long long)first, (unsigned long long)(first + n - 1), why);
            return rc;
        }
        if (why[0]) {
            device_failed(eng, run->plans[k]);
            run->program_s += sk_time_mono_s() - tp;
        }
        pthread_mutex_unlock(&eng->lock);
        if (why[0])
            log_fallback(SK_EIO, why);
    }
    /* Sized at each step: an idle host gives the job every core, a busy one what is left. */
    threads = run->threads > 0 ? run->threads : sk_cores_idle();
    if (threads > run->threads_max)
        run->threads_max = threads;
    rc = battle_cpu_run_until(run->plans[k], first, n, threads, deadline_ms, &run->counts[k],
                              played);
    run->elapsed_s += sk_time_mono_s() - t0;
    if (rc)
        snprintf(err, errlen, "cpu backend failed on games %llu..%llu: %s",
                 (unsigned long long)first, (unsigned long long)(first + n - 1), sk_err_str(rc));
    return rc;
}

/* Games are the pieces: the backends look at the deadline between them (between launches
 * on the device), and the step between decks. A step that stops early has played a prefix
 * of its games, so the counts are those of games [first, done) whatever the steps. */
static enum sk_err run_step(void *data, uint64_t max_units, int64_t deadline_ms, uint64_t *done,
                            char *err, size_t errlen)
{
    struct battle_job_run *run = data;
    uint64_t games = run->job->mix.specs[0].games;
    uint64_t left = games * (uint64_t)run->job->mix.n - run->done;
    uint64_t n = (max_units == 0 || max_units > left) ? left : max_units;
    uint64_t from = run->done;

    /* A step may cross from one defender deck to the next; each deck's games keep their own
     * numbers (and so their random streams), whatever the steps. */
    while (n > 0 && !(run->done > from && sk_time_due(deadline_ms))) {
        int k = (int)(run->done / games);
        uint64_t first = run->done % games;
        uint64_t m = games - first < n ? games - first : n;
        uint64_t played = 0;
        enum sk_err rc = play_range(run, k, first, m, deadline_ms, &played, err, errlen);
        if (rc)
            return rc;
        run->done += played;
        n -= played;
        if (played < m) /* the deadline came */
            break;
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

/* "backend" and what it ran on: the CPU threads, or the OpenCL platform, device and launch
 * geometry. */
static int put_backend(json_t *res, const struct battle_job_run *run)
{
    struct battle_cl_info info;

    if (!run->cl)
        return put(res, "backend", json_string("cpu")) ||
               put(res, "threads", json_integer(run->threads_max));
    battle_cl_describe(run->cl, &info); /* the device's names */
    info.work_group = run->cl_info.work_group;
    info.per_launch = run->cl_info.per_launch;
    info.per_item = run->cl_info.per_item;
    info.private_mem = run->cl_info.private_mem;
    info.local_mem = run->cl_info.local_mem;
    return put(res, "backend", json_string("opencl")) ||
           put(res, "platform", json_string(info.platform)) ||
           put(res, "device", json_string(info.device)) ||
           put(res, "work_group", json_integer((json_int_t)info.work_group)) ||
           put(res, "games_per_launch", json_integer((json_int_t)info.per_launch)) ||
           put(res, "games_per_item", json_integer((json_int_t)info.per_item)) ||
           put(res, "private_mem_bytes", json_integer((json_int_t)info.private_mem)) ||
           put(res, "local_mem_bytes", json_integer((json_int_t)info.local_mem)) ||
           put(res, "program", json_string(run->cl_info.specialised ? "specialised" : "general")) ||
           put(res, "program_ms", json_real(round(run->program_s * 1e6) / 1e3));
}

/* "catalog": which cards the job's names meant ({"name", "hash"}): the same job on another
 * catalog is another matchup. */
static int put_catalog(json_t *res, const struct battle_catalog *cat)
{
    return put(res, "catalog",
               json_pack("{s:s, s:s}", "name", battle_catalog_source(cat), "hash",
                         battle_catalog_hash(cat)));
}

/* Checks that every game of `c` was counted once as an outcome and once in the histogram;
 * anything else is a backend bug, not a result to publish. */
static int counts_ok(const struct battle_counts *c, const struct battle_spec *spec, int partial,
                     char *why, size_t whylen)
{
    uint64_t hist_total = 0;

    for (int t = 1; t <= spec->turn_limit; t++)
        hist_total += c->turns[t];
    if ((partial || c->games == spec->games) && c->wins + c->stalls + c->losses == c->games &&
        hist_total == c->games && c->bounded <= c->stalls)
        return 1;
    snprintf(why, whylen,
             "inconsistent counts: games %llu, outcomes %llu, histogram %llu, bounded %llu of "
             "%llu stalls",
             (unsigned long long)c->games, (unsigned long long)c->wins + c->stalls + c->losses,
             (unsigned long long)hist_total, (unsigned long long)c->bounded,
             (unsigned long long)c->stalls);
    return 0;
}

/* Adds "turns": {"mean", "histogram"} of `c` (turn_limit entries) to `obj`. */
static int put_turns(json_t *obj, const struct battle_counts *c, int turn_limit, double mean)
{
    json_t *hist = json_array();
    json_t *turns = json_object();
    int bad = !hist || !turns;

    for (int t = 1; !bad && t <= turn_limit; t++)
        bad = json_array_append_new(hist, json_integer((json_int_t)c->turns[t])) != 0;
    bad = bad || put(turns, "mean", json_real(mean)) || json_object_set(turns, "histogram", hist);
    json_decref(hist);
    if (bad) {
        json_decref(turns);
        return 1;
    }
    return put(obj, "turns", turns);
}

/* Adds "points" (the mean points a game of `c`) and "points_ci95" ([lo, hi], 95%) to `obj`. */
static int put_points(json_t *obj, const struct battle_counts *c)
{
    double mean = 0, lo = 0, hi = 0;

    if (stats_mean_ci(c->points_sum, c->points_sq, c->games, STATS_Z95, BATTLE_POINTS_MAX, &mean,
                      &lo, &hi))
        return 1;
    return put(obj, "points", json_real(mean)) ||
           put(obj, "points_ci95", json_pack("[f, f]", lo, hi));
}

/* Adds the counts, rates with their intervals, points and turns of `c` to `obj`. */
static int put_outcome(json_t *obj, const struct battle_counts *c, int turn_limit)
{
    return put(obj, "games", json_integer((json_int_t)c->games)) ||
           put(obj, "wins", json_integer((json_int_t)c->wins)) ||
           put(obj, "stalls", json_integer((json_int_t)c->stalls)) ||
           put(obj, "losses", json_integer((json_int_t)c->losses)) ||
           put(obj, "games_bounded", json_integer((json_int_t)c->bounded)) ||
           put_rate(obj, "win_rate", c->wins, c->games) ||
           put_rate(obj, "stall_rate", c->stalls, c->games) ||
           put_rate(obj, "loss_rate", c->losses, c->games) || put_points(obj, c) ||
           put_turns(obj, c, turn_limit, (double)c->turns_sum / (double)c->games);
}

/* Adds the weighted mixture of the decks' rates to `obj`: rate = the sum of w_k * rate_k
 * over the normalised weights, and as its interval the same weighted sum of the decks'
 * Wilson bounds: when every deck's rate is inside its bounds the mixture is inside theirs,
 * so the interval is wider than a 95% one needs to be, never narrower. */
static int put_mix_rates(json_t *obj, const struct battle_job_run *run)
{
    static const char *const names[3] = {"win_rate", "stall_rate", "loss_rate"};
    const struct battle_mix *mix = &run->job->mix;
    double wsum = 0;

    for (int k = 0; k < mix->n; k++)
        wsum += mix->weights[k];
    for (int r = 0; r < 3; r++) {
        double rate = 0, lo = 0, hi = 0;
        char key[32];
        for (int k = 0; k < mix->n; k++) {
            const struct battle_counts *c = &run->counts[k];
            uint64_t hits = r == 0 ? c->wins : r == 1 ? c->stalls : c->losses;
            double l = 0, h = 0, w = mix->weights[k] / wsum;
            if (stats_wilson(hits, c->games, STATS_Z95, &l, &h))
                return 1;
            rate += w * (double)hits / (double)c->games;
            lo += w * l;
            hi += w * h;
        }
        snprintf(key, sizeof(key), "%s_ci95", names[r]);
        /* Rounding may put the sums a hair outside [0, 1] or past the rate. */
        lo = lo < 0 ? 0 : lo > rate ? rate : lo;
        hi = hi > 1 ? 1 : hi < rate ? rate : hi;
        if (put(obj, names[r], json_real(rate)) || put(obj, key, json_pack("[f, f]", lo, hi)))
            return 1;
    }
    return 0;
}

/* The weighted mixture of the decks' points, with the same weighted sum of their bounds as
 * its interval (put_mix_rates says why that is never too narrow). */
static int put_mix_points(json_t *obj, const struct battle_job_run *run)
{
    const struct battle_mix *mix = &run->job->mix;
    double wsum = 0, mean = 0, lo = 0, hi = 0;

    for (int k = 0; k < mix->n; k++)
        wsum += mix->weights[k];
    for (int k = 0; k < mix->n; k++) {
        const struct battle_counts *c = &run->counts[k];
        double m = 0, l = 0, h = 0, w = mix->weights[k] / wsum;
        if (stats_mean_ci(c->points_sum, c->points_sq, c->games, STATS_Z95, BATTLE_POINTS_MAX, &m,
                          &l, &h))
            return 1;
        mean += w * m;
        lo += w * l;
        hi += w * h;
    }
    lo = lo > mean ? mean : lo;
    hi = hi < mean ? mean : hi;
    return put(obj, "points", json_real(mean)) ||
           put(obj, "points_ci95", json_pack("[f, f]", lo, hi));
}

/* "defenders": each listed deck's weight and outcome. */
static int put_defenders(json_t *res, const struct battle_job_run *run)
{
    const struct battle_mix *mix = &run->job->mix;
    json_t *arr = json_array();

    if (!arr || json_object_set_new(res, "defenders", arr))
        return 1;
    for (int k = 0; k < mix->n; k++) {
        json_t *d = json_object();
        if (!d || json_array_append_new(arr, d) || put(d, "weight", json_real(mix->weights[k])) ||
            put_outcome(d, &run->counts[k], mix->specs[k].turn_limit))
            return 1;
    }
    return 0;
}

/* The whole job's counts: the decks' added up. */
static void total_counts(const struct battle_job_run *run, struct battle_counts *all)
{
    memset(all, 0, sizeof(*all));
    for (int k = 0; k < run->job->mix.n; k++)
        battle_counts_add(all, &run->counts[k]);
}

/* The result document of the games played so far: all of them (partial = 0; SK_ECONFLICT
 * before the last), or the first ones of a run stopped early (partial = 1: at least one
 * game, and one of every deck of a weighted list; the counts of games 0..n-1 do not depend
 * on where the run stopped). */
static enum sk_err result_of(struct battle_job_run *run, int partial, json_t **out, char *why,
                             size_t whylen)
{
    const struct battle_mix *mix = &run->job->mix;
    const struct battle_spec *spec = &mix->specs[0];
    struct battle_counts all;
    json_t *res = NULL;
    int bad;

    if (!partial && run->done < spec->games * (uint64_t)mix->n)
        return SK_ECONFLICT;
    for (int k = 0; k < mix->n; k++) {
        if (!counts_ok(&run->counts[k], &mix->specs[k], partial, why, whylen))
            return SK_EINTERNAL;
        if (partial && mix->weighted && run->counts[k].games == 0)
            return SK_ECONFLICT; /* a deck without games has no rate to mix */
    }
    total_counts(run, &all);
    if (all.games == 0)
        return SK_ECONFLICT;
    res = json_object();
    if (!res)
        return SK_ENOMEM;
    if (!mix->weighted) {
        bad = put_outcome(res, &all, spec->turn_limit);
    } else {
        /* A list of defenders: counts and histogram are the decks' totals, the rates and
         * the mean turn their weighted mixture, and "defenders" has each deck's own. */
        double wsum = 0, mean = 0;
        for (int k = 0; k < mix->n; k++)
            wsum += mix->weights[k];
        for (int k = 0; k < mix->n; k++)
            mean += mix->weights[k] / wsum * (double)run->counts[k].turns_sum /
                    (double)run->counts[k].games;
        bad = put(res, "games", json_integer((json_int_t)all.games)) ||
              put(res, "wins", json_integer((json_int_t)all.wins)) ||
              put(res, "stalls", json_integer((json_int_t)all.stalls)) ||
              put(res, "losses", json_integer((json_int_t)all.losses)) ||
              put(res, "games_bounded", json_integer((json_int_t)all.bounded)) ||
              put_mix_rates(res, run) || put_mix_points(res, run) ||
              put_turns(res, &all, spec->turn_limit, mean) || put_defenders(res, run);
    }
    bad = bad || put(res, "scoring", json_string(battle_codec_scoring_name(spec->scoring))) ||
          put(res, "seed", json_integer((json_int_t)spec->seed)) ||
          put_catalog(res, run->job->cat) || put_backend(res, run) ||
          put(res, "elapsed_ms", json_real(round(run->elapsed_s * 1e6) / 1e3)) ||
          put(res, "games_per_second",
              run->elapsed_s > 0
                  ? json_integer((json_int_t)llround((double)all.games / run->elapsed_s))
                  : json_null());
    if (bad) {
        json_decref(res);
        return SK_ENOMEM;
    }
    *out = res;
    return SK_OK;
}

static enum sk_err run_result(void *data, json_t **out, char *why, size_t whylen)
{
    return result_of(data, 0, out, why, whylen);
}

static enum sk_err run_partial(void *data, json_t **out, char *why, size_t whylen)
{
    return result_of(data, 1, out, why, whylen);
}

/* The checkpoint (job_kind.h save/restore/merge): the first unit and the units done, the
 * time spent, then each defender deck's struct battle_counts of units [first, done). The
 * games are numbered, so these counts and the game number to go on from are the whole
 * state of a run. */
struct ckpt {
    uint64_t first, done;
    double elapsed_s;
    const unsigned char *counts; /* mix.n struct battle_counts, unaligned */
};

static enum sk_err run_save(void *data, struct sk_buf *out)
{
    const struct battle_job_run *run = data;

    (void)sk_buf_add(out, &run->first, sizeof(run->first));
    (void)sk_buf_add(out, &run->done, sizeof(run->done));
    (void)sk_buf_add(out, &run->elapsed_s, sizeof(run->elapsed_s));
    (void)sk_buf_add(out, run->counts, (size_t)run->job->mix.n * sizeof(run->counts[0]));
    return out->err;
}

/* 1 when `c` could be the counts of `games` games of a deck whose turn limit is `limit`. */
static int counts_fit(const struct battle_counts *c, uint64_t games, int limit)
{
    uint64_t hist = 0;

    for (int t = 0; t <= BATTLE_TURN_LIMIT_MAX; t++) {
        if ((t == 0 || t > limit) && c->turns[t])
            return 0;
        hist += c->turns[t];
    }
    return c->games == games && c->wins + c->stalls + c->losses == games && hist == games &&
           c->bounded <= c->stalls && c->turns_sum >= games &&
           c->turns_sum <= games * (uint64_t)limit && c->points_sum <= games * BATTLE_POINTS_MAX &&
           c->points_sq <= games * BATTLE_POINTS_MAX * BATTLE_POINTS_MAX;
}

/* The games of deck k (units [k * games, (k + 1) * games)) among the units [a, b). */
static uint64_t deck_share(uint64_t a, uint64_t b, int k, uint64_t games)
{
    uint64_t lo = (uint64_t)k * games, hi = lo + games;

    lo = a > lo ? a : lo;
    hi = b < hi ? b : hi;
    return hi > lo ? hi - lo : 0;
}

/* Reads and checks a checkpoint of a run of `run`'s job: SK_EINVAL unless it is one. */
static enum sk_err read_ckpt(const struct battle_job_run *run, const unsigned char *p, size_t len,
                             struct ckpt *ck)
{
    const struct battle_mix *mix = &run->job->mix;
    uint64_t games = mix->specs[0].games;
    size_t head = 2 * sizeof(uint64_t) + sizeof(double);

    if (len != head + (size_t)mix->n * sizeof(struct battle_counts))
        return SK_EINVAL;
    memcpy(&ck->first, p, sizeof(ck->first));
    memcpy(&ck->done, p + sizeof(uint64_t), sizeof(ck->done));
    memcpy(&ck->elapsed_s, p + 2 * sizeof(uint64_t), sizeof(ck->elapsed_s));
    ck->counts = p + head;
    if (ck->first > ck->done || ck->done > games * (uint64_t)mix->n || !(ck->elapsed_s >= 0))
        return SK_EINVAL;
    for (int k = 0; k < mix->n; k++) {
        struct battle_counts c;
        memcpy(&c, ck->counts + (size_t)k * sizeof(c), sizeof(c));
        if (!counts_fit(&c, deck_share(ck->first, ck->done, k, games), mix->specs[k].turn_limit))
            return SK_EINVAL;
    }
    return SK_OK;
}

static enum sk_err run_restore(void *data, const unsigned char *p, size_t len, uint64_t *done)
{
    struct battle_job_run *run = data;
    struct ckpt ck;

    /* a checkpoint of a run that started elsewhere (another shard) is not this run's */
    if (read_ckpt(run, p, len, &ck) || ck.first != run->first)
        return SK_EINVAL;
    memcpy(run->counts, ck.counts, (size_t)run->job->mix.n * sizeof(run->counts[0]));
    run->done = ck.done;
    run->elapsed_s = ck.elapsed_s;
    *done = ck.done;
    return SK_OK;
}

static enum sk_err run_seek(void *data, uint64_t first)
{
    struct battle_job_run *run = data;

    if (first > run->job->mix.specs[0].games * (uint64_t)run->job->mix.n)
        return SK_EINVAL;
    run->first = run->done = first;
    return SK_OK;
}

static enum sk_err run_merge(void *data, const unsigned char *p, size_t len)
{
    struct battle_job_run *run = data;
    struct ckpt ck;

    if (read_ckpt(run, p, len, &ck))
        return SK_EINVAL;
    for (int k = 0; k < run->job->mix.n; k++) {
        struct battle_counts c;
        memcpy(&c, ck.counts + (size_t)k * sizeof(c), sizeof(c));
        battle_counts_add(&run->counts[k], &c);
    }
    run->done += ck.done - ck.first;
    run->elapsed_s += ck.elapsed_s;
    return SK_OK;
}

static void run_free(void *data)
{
    struct battle_job_run *run = data;
    if (!run)
        return;
    for (int k = 0; k < BATTLE_DEFENDERS_MAX; k++)
        battle_plan_free(run->plans[k]);
    sk_free(run);
}

/* ===== The catalog served at /v1/cards ===== */

/* The whole listing. GET /v1/cards does not use it (catalog_size, catalog_match and
 * catalog_entry serve the game's 54,000 cards a page at a time); it is for callers that
 * want every card of a small catalog. */
static json_t *catalog_load(char *err, size_t errlen)
{
    const struct battle_catalog *cat = NULL;
    json_t *all;
    if (battle_catalog_current(&cat, err, errlen))
        return NULL;
    all = battle_catalog_to_json(cat);
    battle_catalog_put(cat);
    return all;
}

/* The per-entry calls of a catalog route read the current catalog held for the request:
 * a refresh during it does not change the page under it. */
static void *route_hold(char *err, size_t errlen)
{
    const struct battle_catalog *cat = NULL;
    return battle_catalog_current(&cat, err, errlen) ? NULL : (void *)cat;
}

static void route_drop(void *snap)
{
    battle_catalog_put(snap);
}

static const char *route_hash(const void *snap)
{
    return battle_catalog_hash(snap);
}

static size_t catalog_size(const void *snap)
{
    return battle_catalog_count(snap);
}

/* Case-insensitive substring test (ASCII), as the route's text filters. */
static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return n == 0;
}

/* 1 when card i passes filter `f` with word `value`: the fields the listing writes, read
 * from the card itself. */
static int catalog_match(const void *snap, size_t i, const struct job_filter *f, const char *value)
{
    const struct battle_card_spec *c = battle_catalog_at(snap, i);
    char num[16];

    if (!c)
        return 0;
    if (strcmp(f->param, "name") == 0)
        return contains_ci(c->name, value);
    if (strcmp(f->param, "type") == 0)
        return strcasecmp(c->dominion ? "dominion" : battle_cards_type_name(c->type), value) == 0;
    if (strcmp(f->param, "skill") == 0) {
        for (int k = 0; k < c->n_skills; k++) {
            const struct battle_skill_spec *s = &c->skills[k];
            const char *name = s->id < BATTLE_SKILL__COUNT ? battle_rules_skill_name(s->id)
                                                           : battle_tu_skill_name(s->game);
            if (strcasecmp(name, value) == 0)
                return 1;
        }
        return 0;
    }
    /* faction, rarity and level are facts of the game's cards only */
    if (c->id <= 0)
        return 0;
    if (strcmp(f->param, "faction") == 0)
        return strcasecmp(battle_tu_faction_name(c->faction), value) == 0;
    if (strcmp(f->param, "rarity") == 0)
        return strcasecmp(battle_tu_rarity_name(c->rarity), value) == 0;
    snprintf(num, sizeof(num), "%d", c->level);
    return strcmp(f->param, "level") == 0 && strcmp(num, value) == 0;
}

static json_t *catalog_entry(const void *snap, size_t i)
{
    return battle_catalog_card_json(snap, i);
}

/* Card types as the catalog writes them: the engine's four and the game's dominions. */
static const char *type_word(int i)
{
    return i < BATTLE_CARD_TYPE__COUNT ? battle_cards_type_name((enum battle_card_type)i)
                                       : "dominion";
}

/* Every skill of the game (the engine's are among them). */
static const char *skill_word(int i)
{
    return battle_tu_skill_name(i);
}

static const char *faction_word(int i)
{
    return battle_tu_faction_name(i + 1);
}

static const char *rarity_word(int i)
{
    return battle_tu_rarity_name(i + 1);
}

static const char *level_word(int i)
{
    static const char *const levels[BATTLE_LEVELS_MAX] = {"1", "2", "3", "4", "5",
                                                          "6", "7", "8", "9", "10"};
    return levels[i];
}

static const struct job_filter card_filters[] = {
    {"type", "type", NULL, type_word, BATTLE_CARD_TYPE__COUNT + 1},
    {"skill", "skills", "name", skill_word, BATTLE_TU_SKILL__COUNT},
    {"faction", "faction", NULL, faction_word, 6},
    {"rarity", "rarity", NULL, rarity_word, 6},
    {"level", "level", NULL, level_word, BATTLE_LEVELS_MAX},
    {"name", "name", NULL, NULL, 0},
    {NULL, NULL, NULL, NULL, 0},
};

static const struct job_catalog cards_catalog = {"cards",      catalog_load,  card_filters,
                                                 route_hold,   route_drop,    route_hash,
                                                 catalog_size, catalog_match, catalog_entry};

/* ===== The missions and raids served at /v1/missions ===== */

/* The levels of each listed record that a job's plan refuses although the catalog's checks
 * pass (the variants Enhance and Evolve make of a middle level's cards overflowing the
 * card table: battle_mods), found the first time a record is listed and kept, since the
 * shared catalog never changes while the process runs. Bit L - 1 of `refused`: level L. */
struct plan_levels {
    unsigned char known;
    uint64_t refused[(BATTLE_ENEMY_LEVELS_MAX + 63) / 64];
    char *why; /* the plan's reason at the first level refused (owned; NULL: none, or no memory) */
};

static pthread_mutex_t plan_levels_lock = PTHREAD_MUTEX_INITIALIZER;
static struct plan_levels *plan_levels; /* one per record; kept for the process's life */
static const char *plan_levels_cmd;     /* the check's attacker (plain_commander) */

/* A commander of one level with no Enhance or Evolve, whose name finds it: the attacker of
 * the plan check, one that adds no change and no variant to the table. NULL if none. */
static const char *plain_commander(const struct battle_catalog *cat)
{
    for (size_t i = 0; i < battle_catalog_count(cat); i++) {
        const struct battle_card_spec *c = battle_catalog_at(cat, i);
        int mods = 0;
        if (c->type != BATTLE_COMMANDER || c->n_levels > 1 ||
            battle_catalog_find(cat, c->name) != c)
            continue;
        for (int k = 0; k < c->n_skills; k++)
            mods |=
                c->skills[k].id == BATTLE_SKILL_ENHANCE || c->skills[k].id == BATTLE_SKILL_EVOLVE;
        if (!mods)
            return c->name;
    }
    return NULL;
}

/* Whether a job against record `e` at `level` (with the plain attacker `cmd`) is refused by
 * its plan; *mods says whether its cards hold Enhance or Evolve at all (none: no level's
 * plan can be). A job the codec refuses is left to the catalog's checks. */
static int plan_refuses(const struct battle_catalog *cat, const struct battle_enemy *e, int level,
                        const char *cmd, int *mods, char *why, size_t whylen)
{
    json_t *params =
        json_pack("{s:i, s:{s:s, s:[]}, s:{s:i, s:i}}", "games", 1, "attacker", "commander", cmd,
                  "deck", "defender", battle_enemy_kind_name(e->kind), e->id, "level", level);
    struct sk_verr_list errs;
    struct sk_jptr ptr;
    struct battle_spec spec;
    struct battle_plan *plan = NULL;
    int refused = 0;

    memset(&spec, 0, sizeof(spec));
    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    *mods = 0;
    if (!params || battle_codec_decode(params, 0, cat, &ptr, &errs, &spec))
        goto out;
    for (int c = 0; c < spec.n_cards; c++)
        for (int k = 0; k < spec.cards[c].n_skills; k++)
            *mods |= spec.cards[c].skills[k].id == BATTLE_SKILL_ENHANCE ||
                     spec.cards[c].skills[k].id == BATTLE_SKILL_EVOLVE;
    if (*mods)
        refused = battle_plan_new(&spec, &plan, why, whylen) == SK_EINVAL;
out:
    battle_plan_free(plan);
    battle_codec_spec_release(&spec);
    sk_verr_list_release(&errs);
    json_decref(params);
    return refused;
}

/* Fills plan_levels[i] for record `e` (the lock held). A middle level's job holds every
 * level of the record's cards, so when its cards have no Enhance or Evolve no level's do. */
static void plan_levels_find(const struct battle_catalog *cat, size_t i,
                             const struct battle_enemy *e)
{
    struct plan_levels *pl = &plan_levels[i];
    int mods = 0, first = e->levels > 2 ? 2 : 1, lowest = 0;
    char why[512], lowest_why[512] = "";

    pl->known = 1;
    if (!plan_levels_cmd)
        return;
    if (plan_refuses(cat, e, first, plan_levels_cmd, &mods, why, sizeof(why))) {
        pl->refused[(first - 1) / 64] |= 1ull << ((first - 1) % 64);
        lowest = first;
        snprintf(lowest_why, sizeof(lowest_why), "%s", why);
    }
    for (int lv = 1; mods && lv <= e->levels && lv <= BATTLE_ENEMY_LEVELS_MAX; lv++)
        if (lv != first && plan_refuses(cat, e, lv, plan_levels_cmd, &mods, why, sizeof(why))) {
            pl->refused[(lv - 1) / 64] |= 1ull << ((lv - 1) % 64);
            if (!lowest || lv < lowest) {
                lowest = lv;
                snprintf(lowest_why, sizeof(lowest_why), "%s", why);
            }
        }
    if (lowest)
        pl->why = sk_strdup(lowest_why);
}

/* "levels_why" of record `e` whose playable levels are `levels` (ascending): "level N: why"
 * for the lowest level missing, the catalog's reason or else the plan's (`plan_why`, that
 * of the lowest level its plan refuses); JSON null when none is missing. */
static json_t *levels_why(const struct battle_catalog *cat, const struct battle_enemy *e,
                          const json_t *levels, const char *plan_why)
{
    char why[512], text[600];
    int lv = 1;

    for (size_t k = 0;
         k < json_array_size(levels) && json_integer_value(json_array_get(levels, k)) == lv; k++)
        lv++;
    if (lv > e->levels)
        return json_null();
    if (!battle_catalog_enemy_unsupported(cat, e, lv, why, sizeof(why)))
        snprintf(why, sizeof(why), "%s", plan_why ? plan_why : "its plan is refused");
    snprintf(text, sizeof(text), "level %d: %s", lv, why);
    return json_string(text);
}

/* Record i's JSON (battle_catalog_enemy_json) with the levels its plan refuses taken out of
 * "playable_levels", and "levels_why": why the lowest level left out is refused, as a
 * job's 422 at that level says, or null when every level plays. NULL on allocation
 * failure. */
static json_t *enemy_json(const struct battle_catalog *cat, size_t i)
{
    const struct battle_enemy *e = battle_catalog_enemy_at(cat, i);
    json_t *obj = e ? battle_catalog_enemy_json(cat, e) : NULL;
    json_t *levels = obj ? json_object_get(obj, "playable_levels") : NULL;
    struct plan_levels pl;

    if (!levels)
        return obj;
    pthread_mutex_lock(&plan_levels_lock);
    if (!plan_levels) {
        plan_levels = sk_calloc(battle_catalog_enemy_count(cat), sizeof(*plan_levels));
        plan_levels_cmd = plain_commander(cat);
    }
    if (plan_levels && !plan_levels[i].known)
        plan_levels_find(cat, i, e);
    memset(&pl, 0, sizeof(pl));
    if (plan_levels)
        pl = plan_levels[i];
    pthread_mutex_unlock(&plan_levels_lock);
    if (!plan_levels) {
        json_decref(obj);
        return NULL;
    }
    for (size_t k = json_array_size(levels); k-- > 0;) {
        json_int_t lv = json_integer_value(json_array_get(levels, k));
        if (lv >= 1 && lv <= BATTLE_ENEMY_LEVELS_MAX &&
            (pl.refused[(lv - 1) / 64] >> ((lv - 1) % 64) & 1u) && json_array_remove(levels, k)) {
            json_decref(obj);
            return NULL;
        }
    }
    if (json_object_set_new(obj, "levels_why", levels_why(cat, e, levels, pl.why))) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

static json_t *missions_load(char *err, size_t errlen)
{
    const struct battle_catalog *cat = NULL;
    json_t *arr;

    if (battle_catalog_current(&cat, err, errlen))
        return NULL;
    /* a catalog whose missions.xml does not parse lists none: a 500 that says why, not [] */
    if (battle_catalog_enemies_load(cat, err, errlen)) {
        battle_catalog_put(cat);
        return NULL;
    }
    arr = json_array();
    for (size_t i = 0; arr && i < battle_catalog_enemy_count(cat); i++) {
        if (json_array_append_new(arr, enemy_json(cat, i))) {
            json_decref(arr);
            arr = NULL;
        }
    }
    battle_catalog_put(cat);
    return arr;
}

static size_t missions_size(const void *snap)
{
    return battle_catalog_enemy_count(snap);
}

/* 1 when record i passes filter `f` with word `value`, read from the record itself. */
static int missions_match(const void *snap, size_t i, const struct job_filter *f, const char *value)
{
    const struct battle_catalog *cat = snap;
    const struct battle_enemy *e = battle_catalog_enemy_at(cat, i);
    char why[300];

    if (!e)
        return 0;
    if (strcmp(f->param, "name") == 0)
        return contains_ci(e->name, value);
    if (strcmp(f->param, "kind") == 0)
        return strcasecmp(battle_enemy_kind_name(e->kind), value) == 0;
    if (strcmp(f->param, "playable") == 0)
        return strcasecmp(battle_catalog_enemy_unsupported(cat, e, e->levels, why, sizeof(why))
                              ? "false"
                              : "true",
                          value) == 0;
    return 0;
}

static json_t *missions_entry(const void *snap, size_t i)
{
    return enemy_json(snap, i);
}

static const char *enemy_kind_word(int i)
{
    return battle_enemy_kind_name(i);
}

static const char *bool_word(int i)
{
    return i ? "true" : "false";
}

static const struct job_filter mission_filters[] = {
    {"kind", "kind", NULL, enemy_kind_word, BATTLE_ENEMY__COUNT},
    {"playable", "playable", NULL, bool_word, 2},
    {"name", "name", NULL, NULL, 0},
    {NULL, NULL, NULL, NULL, 0},
};

static const struct job_catalog missions_catalog = {"missions",    missions_load,  mission_filters,
                                                    route_hold,    route_drop,     route_hash,
                                                    missions_size, missions_match, missions_entry};

/* ===== The named decks served at /v1/decks (customdecks.txt) ===== */

/* Named deck i: {"name", "deck": its text, "line", "list": whether it stands for several
 * decks, "decks": what it stands for ([{"deck", "named", "weight"}]), or "error": why it
 * does not expand}. */
static json_t *named_deck_json(const struct battle_catalog *cat, size_t i)
{
    const struct battle_named *named = battle_catalog_named(cat);
    const struct battle_named_entry *e;
    struct battle_named_part parts[BATTLE_DEFENDERS_MAX];
    char why[200];
    json_t *obj, *decks;
    int n;

    if (i >= named->decks.n)
        return NULL;
    e = &named->decks.items[i];
    n = battle_named_expand(named, e->name, parts, BATTLE_DEFENDERS_MAX, why, sizeof(why));
    obj = json_pack("{s:s, s:s, s:i, s:b}", "name", e->name, "deck", e->text, "line", e->line,
                    "list", n > 1);
    decks = n > 0 ? json_array() : NULL;
    for (int k = 0; decks && k < n; k++)
        if (json_array_append_new(decks,
                                  json_pack("{s:s, s:s?, s:f}", "deck", parts[k].text, "named",
                                            parts[k].from, "weight", parts[k].weight))) {
            json_decref(decks);
            decks = NULL;
        }
    if (n > 0)
        battle_named_parts_release(parts, n);
    if (obj && (n < 0 ? json_object_set_new(obj, "error", json_string(why))
                      : json_object_set_new(obj, "decks", decks ? decks : json_null()))) {
        json_decref(obj);
        obj = NULL;
    }
    if (n >= 0 && !decks) {
        json_decref(obj);
        obj = NULL;
    }
    return obj;
}

static json_t *decks_load(char *err, size_t errlen)
{
    const struct battle_catalog *cat = NULL;
    json_t *arr;

    if (battle_catalog_current(&cat, err, errlen))
        return NULL;
    arr = json_array();
    for (size_t i = 0; arr && i < battle_catalog_named(cat)->decks.n; i++)
        if (json_array_append_new(arr, named_deck_json(cat, i))) {
            json_decref(arr);
            arr = NULL;
        }
    battle_catalog_put(cat);
    return arr;
}

static size_t decks_size(const void *snap)
{
    return battle_catalog_named(snap)->decks.n;
}

static int decks_match(const void *snap, size_t i, const struct job_filter *f, const char *value)
{
    const struct battle_named *named = battle_catalog_named(snap);
    if (i >= named->decks.n || strcmp(f->param, "name") != 0)
        return 0;
    return contains_ci(named->decks.items[i].name, value);
}

static json_t *decks_entry(const void *snap, size_t i)
{
    return named_deck_json(snap, i);
}

static const struct job_filter deck_filters[] = {
    {"name", "name", NULL, NULL, 0},
    {NULL, NULL, NULL, NULL, 0},
};

static const struct job_catalog decks_catalog = {"decks",    decks_load,  deck_filters,
                                                 route_hold, route_drop,  route_hash,
                                                 decks_size, decks_match, decks_entry};

static const struct job_catalog *const more_catalogs[] = {&missions_catalog, &decks_catalog, NULL};

static const char *job_pinned(const void *data)
{
    const struct battle_job *job = data;
    return battle_catalog_hash(job->cat);
}

const struct job_kind_ops battle_kind = {
    .name = "battle",
    .units_are_games = 1,
    .games_param = "games",
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
    .save = run_save,
    .restore = run_restore,
    .seek = run_seek,
    .merge = run_merge,
    .prepare = prepare,
    .pinned = job_pinned,
    .catalogs = battle_catalog_hashes,
    .refresh = battle_catalog_refresh,
    .catalog = &cards_catalog,
    .more_catalogs = more_catalogs,
};
