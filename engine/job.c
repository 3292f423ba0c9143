/* SPDX-License-Identifier: MIT */
/* The job envelope: validation of {"kind", "seed", "params"} and dispatch to the kinds
 * (see job.h). */
#include "job.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "battle.h"
#include "board.h"
#include "engine_int.h"
#include "optimize.h"
#include "sk_buf.h"
#include "sk_mem.h"
#include "sk_time.h"

#include "sk_banned.h"

/* The job kinds: one row per game library (job_kind.h). */
const struct job_kind_ops *const job_kinds[] = {&battle_kind, &board_kind, &optimize_kind};
const size_t job_kinds_n = sizeof(job_kinds) / sizeof(job_kinds[0]);

struct job {
    const struct job_kind_ops *ops;
    uint64_t seed;
    void *data; /* the kind's decoded job, owned */
};

struct job_run {
    const struct job *job;
    void *data;      /* the kind's run, owned */
    char error[256]; /* the last failure of a step or the result, "" if none */
};

static int kind_index(const char *name)
{
    for (size_t k = 0; k < job_kinds_n; k++)
        if (strcmp(name, job_kinds[k]->name) == 0)
            return (int)k;
    return -1;
}

int job_kind_known(const char *name)
{
    return kind_index(name) >= 0;
}

size_t job_kind_count(void)
{
    return job_kinds_n;
}

const char *job_kind_at(size_t i)
{
    return i < job_kinds_n ? job_kinds[i]->name : NULL;
}

int job_kind_units_are_games(const char *name)
{
    int k = kind_index(name);
    return k >= 0 && job_kinds[k]->units_are_games;
}

const char *job_kind_games_param(const char *name)
{
    int k = kind_index(name);
    return k >= 0 ? job_kinds[k]->games_param : NULL;
}

static char kind_names_text[256];
static pthread_once_t kind_names_once = PTHREAD_ONCE_INIT;

static void kind_names_init(void)
{
    size_t len = 0;
    for (size_t k = 0; k < job_kinds_n && len < sizeof(kind_names_text); k++) {
        int n = snprintf(kind_names_text + len, sizeof(kind_names_text) - len, "%s\"%s\"",
                         k == 0                 ? ""
                         : k + 1 == job_kinds_n ? " or "
                                                : ", ",
                         job_kinds[k]->name);
        if (n < 0)
            break;
        len += (size_t)n;
    }
}

const char *job_kind_names(void)
{
    (void)pthread_once(&kind_names_once, kind_names_init);
    return kind_names_text;
}

const struct job_catalog *job_catalog_named(const char *name)
{
    for (size_t k = 0; k < job_kinds_n; k++) {
        if (job_kinds[k]->catalog && strcmp(job_kinds[k]->catalog->name, name) == 0)
            return job_kinds[k]->catalog;
        for (const struct job_catalog *const *c = job_kinds[k]->more_catalogs; c && *c; c++)
            if (strcmp((*c)->name, name) == 0)
                return *c;
    }
    return NULL;
}

const char *job_catalog(const struct job *job)
{
    return job->ops->pinned ? job->ops->pinned(job->data) : NULL;
}

json_t *job_catalogs(void)
{
    json_t *all = json_array();

    for (size_t k = 0; all && k < job_kinds_n; k++) {
        json_t *some;
        int shared = 0;
        /* kinds sharing one catalog set (battle and optimize) are asked once */
        for (size_t j = 0; j < k && !shared; j++)
            shared = job_kinds[j]->catalogs == job_kinds[k]->catalogs;
        if (!job_kinds[k]->catalogs || shared)
            continue;
        some = job_kinds[k]->catalogs();
        if (!some || json_array_extend(all, some)) {
            json_decref(some);
            json_decref(all);
            return NULL;
        }
        json_decref(some);
    }
    return all;
}

int job_catalogs_refresh(int force, char *err, size_t errlen)
{
    int changed = 0;

    for (size_t k = 0; k < job_kinds_n; k++) {
        int shared = 0, rc;
        for (size_t j = 0; j < k && !shared; j++)
            shared = job_kinds[j]->refresh == job_kinds[k]->refresh;
        if (!job_kinds[k]->refresh || shared)
            continue;
        rc = job_kinds[k]->refresh(force, err, errlen);
        if (rc < 0)
            return -1;
        changed |= rc;
    }
    return changed;
}

/* The current catalog's hash for a message ("fnv1a64:..."), or "no catalog". Static. */
static const char *catalogs_text(void)
{
    static _Thread_local char text[64];
    json_t *all = job_catalogs();
    snprintf(text, sizeof(text), "%s",
             json_array_size(all) ? json_string_value(json_array_get(all, 0)) : "no catalog");
    json_decref(all);
    return text;
}

/* Draws a seed below 2^53 from the OS; falls back to the address-space layout and a
 * counter only if getrandom fails, which the kernel does not do for 8 bytes. */
static uint64_t draw_seed(void)
{
    uint64_t s = 0;
    if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s)) {
        static uint64_t counter;
        s = (uint64_t)(uintptr_t)&s ^ (++counter * 0x9E3779B97F4A7C15ULL);
    }
    return s & JOB_SEED_MAX;
}

static void check_seed(const json_t *v, uint64_t *seed, struct sk_verr_list *errs)
{
    json_int_t n;

    if (!json_is_integer(v)) {
        sk_verr_add(errs, "/seed", "'seed' must be an integer");
        return;
    }
    n = json_integer_value(v);
    if (n < 0 || (uint64_t)n > JOB_SEED_MAX) {
        sk_verr_add(errs, "/seed", "'seed' must be between 0 and %llu",
                    (unsigned long long)JOB_SEED_MAX);
        return;
    }
    *seed = (uint64_t)n;
}

enum sk_err job_decode(const json_t *doc, struct job **out, struct sk_verr_list *errs)
{
    static const char *const keys[] = {"kind", "seed", "params", "catalog", NULL};
    struct job *job = NULL;
    const json_t *kind_v;
    json_t *val;
    const json_t *params;
    const json_t *catalog;
    const char *hash = NULL;
    int kind = -1;
    uint64_t seed = 0;
    size_t errs_before = errs->n;
    enum sk_err err = SK_OK;
    struct sk_jptr ptr;

    if (!json_is_object(doc))
        return sk_verr_add(errs, "", "the job must be a JSON object");

    sk_jptr_init(&ptr);
    (void)sk_verr_check_keys(errs, &ptr, doc, keys);
    kind_v = json_object_get(doc, "kind");
    if (!kind_v)
        sk_verr_add(errs, "/kind", "'kind' is required (%s)", job_kind_names());
    else if (!json_is_string(kind_v) || (kind = kind_index(json_string_value(kind_v))) < 0)
        sk_verr_add(errs, "/kind", "'kind' must be %s", job_kind_names());

    val = json_object_get(doc, "seed");
    if (val && !json_is_null(val))
        check_seed(val, &seed, errs);
    else
        seed = draw_seed();

    params = json_object_get(doc, "params");
    if (!params) {
        sk_verr_add(errs, "/params", "'params' is required");
        return SK_EINVAL;
    }
    if (!json_is_object(params)) {
        sk_verr_add(errs, "/params", "'params' must be an object");
        return SK_EINVAL;
    }
    if (kind < 0)
        return SK_EINVAL;
    catalog = json_object_get(doc, "catalog");
    if (catalog && !json_is_null(catalog)) {
        if (!job_kinds[kind]->pinned)
            return sk_verr_add(errs, "/catalog", "'%s' jobs name no cards: no 'catalog'",
                               job_kinds[kind]->name);
        if (!json_is_string(catalog) || json_string_length(catalog) == 0 ||
            json_string_length(catalog) > JOB_CATALOG_HASH_MAX)
            return sk_verr_add(errs, "/catalog",
                               "'catalog' must be a catalog hash such as \"fnv1a64:<16 hex "
                               "digits>\" (a job's result names its catalog)");
        hash = json_string_value(catalog);
    }

    job = sk_calloc(1, sizeof(*job));
    if (!job)
        return SK_ENOMEM;
    job->ops = job_kinds[kind];
    job->seed = seed;
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    err = job->ops->decode(params, seed, hash, &ptr, errs, &job->data);
    if (err == SK_ENOTFOUND)
        sk_verr_add(errs, "/catalog",
                    "catalog %s is not loaded here and not in its catalog store (this process "
                    "runs jobs on %s)",
                    hash, catalogs_text());
    if (!err && errs->n > errs_before)
        err = SK_EINVAL; /* an envelope error was found before the params were decoded */
    if (err)
        goto out;
    *out = job;
    job = NULL;
out:
    job_free(job);
    return err;
}

void job_free(struct job *job)
{
    if (!job)
        return;
    if (job->data)
        job->ops->free(job->data);
    sk_free(job);
}

const char *job_kind(const struct job *job)
{
    return job->ops->name;
}

uint64_t job_seed(const struct job *job)
{
    return job->seed;
}

uint64_t job_total(const struct job *job)
{
    return job->ops->total(job->data);
}

enum sk_err job_run_new(struct engine *eng, const struct job *job, const struct job_run_opts *opts,
                        struct job_run **out, char *err, size_t errlen)
{
    static const struct job_run_opts defaults = {0};
    struct job_run *run = NULL;
    size_t k = 0;
    enum sk_err rc;

    if (!opts)
        opts = &defaults;
    if (opts->threads < 0) {
        snprintf(err, errlen, "threads must be 0 (the idle cores) or more, not %d", opts->threads);
        return SK_EINVAL;
    }
    /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): ops is a row */
    while (job_kinds[k] != job->ops)
        k++;
    run = sk_calloc(1, sizeof(*run));
    if (!run)
        return SK_ENOMEM;
    run->job = job;
    rc = job->ops->run_new(engine_state(eng, k), job->data, opts, &run->data, err, errlen);
    if (rc) {
        sk_free(run);
        return rc;
    }
    *out = run;
    return SK_OK;
}

enum sk_err job_unit_run(struct engine *eng, const struct job *job, const struct job_run_opts *opts,
                         const void *spec, size_t len, struct sk_buf *out, char *err, size_t errlen)
{
    static const struct job_run_opts defaults = {0};
    size_t k = 0;

    if (!job->ops->unit)
        return SK_ECONFLICT;
    if (!opts)
        opts = &defaults;
    /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): ops is a row */
    while (job_kinds[k] != job->ops)
        k++;
    return job->ops->unit(engine_state(eng, k), job->data, opts, spec, len, out, err, errlen);
}

enum sk_err job_prepare(struct engine *eng, const struct job *job, job_program_fn fn, void *arg,
                        char *err, size_t errlen)
{
    size_t k = 0;

    if (!job->ops->prepare)
        return SK_ECONFLICT;
    /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): ops is a row */
    while (job_kinds[k] != job->ops)
        k++;
    return job->ops->prepare(engine_state(eng, k), job->data, fn, arg, err, errlen);
}

enum sk_err job_run_step(struct job_run *run, uint64_t max_units, uint64_t *done)
{
    return job_run_step_until(run, max_units, 0, done);
}

enum sk_err job_run_step_until(struct job_run *run, uint64_t max_units, int64_t deadline_ms,
                               uint64_t *done)
{
    return run->job->ops->step(run->data, max_units, deadline_ms, done, run->error,
                               sizeof(run->error));
}

enum sk_err job_cost_estimate(struct engine *eng, const struct job *job, long budget_ms,
                              struct job_cost *out, char *err, size_t errlen)
{
    /* one thread: the CPU backend then plays in the calling thread, whose CPU clock is the
     * sample's cost whatever else this process (the API's other requests) does meanwhile */
    struct job_run_opts opts = {.threads = 1};
    struct job_run *run = NULL;
    uint64_t total = job_total(job);
    uint64_t done = 0;
    uint64_t step = 1;
    int64_t t0 = sk_time_thread_cpu_ns();
    int64_t t1, t2;
    int64_t budget_ns = (int64_t)(budget_ms > 0 ? budget_ms : 1) * 1000000;
    /* Units done and CPU clock at the start of each step (the first 64 steps: the steps
     * double, so a probe has about 20), for the steady part of the sample below. */
    uint64_t at_done[64];
    int64_t at_ns[64];
    size_t n_at = 0, b = 0;
    enum sk_err rc;

    memset(out, 0, sizeof(*out));
    rc = job_run_new(eng, job, &opts, &run, err, errlen);
    if (rc)
        return rc;
    t1 = sk_time_thread_cpu_ns();
    do {
        uint64_t before = done;
        if (n_at < 64) {
            at_done[n_at] = done;
            at_ns[n_at++] = sk_time_thread_cpu_ns();
        }
        /* The step ends with the budget's remainder, not a whole budget later: with a whole
         * budget a step that began just under it (half the sample, as each step doubles)
         * ran on to about twice the budget, 38 ms of a 20 ms probe on a 100,000-game job. */
        int64_t left_ms = (budget_ns - (sk_time_thread_cpu_ns() - t1) + 999999) / 1000000;
        rc = job_run_step_until(run, step, sk_time_mono_ms() + (left_ms > 1 ? left_ms : 1), &done);
        if (rc) {
            snprintf(err, errlen, "%s", job_run_error(run)[0] ? job_run_error(run) : "");
            goto out;
        }
        if (done <= before) { /* no progress: nothing more to learn */
            rc = SK_EINTERNAL;
            snprintf(err, errlen, "the engine made no progress");
            goto out;
        }
        step *= 2;
    } while (done < total && sk_time_thread_cpu_ns() - t1 < budget_ns);
    t2 = sk_time_thread_cpu_ns();
    /* The first games of a run cost more than the rest (cold caches, the plan's first
     * reads), and the sample's first half is made of them: the games after the latest step
     * start at or below half the sample give the rate of the job's remaining units, the
     * ones before it count as they cost. A job played whole is its own CPU time. */
    for (size_t i = 1; i < n_at; i++)
        if (at_done[i] <= done / 2)
            b = i;
    out->setup_s = (double)(t1 - t0) * 1e-9;
    out->per_unit_s = (double)(t2 - at_ns[b]) * 1e-9 / (double)(done - at_done[b]);
    out->sampled = done;
    out->cpu_s = out->setup_s + (double)(at_ns[b] - t1) * 1e-9 +
                 out->per_unit_s * (double)(total - at_done[b]);
out:
    job_run_free(run);
    return rc;
}

/* The result document `res` (taken) with "kind" first, and "partial": true when it covers
 * only part of the job's units. */
static enum sk_err finish_result(struct job_run *run, json_t *res, int partial, json_t **out)
{
    json_t *doc = NULL;

    /* "kind" first: a client (and the OpenAPI discriminator of Result) tells the result
     * shapes apart by it without guessing from their fields. */
    doc = partial ? json_pack("{s:s, s:b}", "kind", job_kind(run->job), "partial", 1)
                  : json_pack("{s:s}", "kind", job_kind(run->job));
    if (!doc || json_object_update(doc, res)) {
        json_decref(doc);
        json_decref(res);
        return SK_ENOMEM;
    }
    json_decref(res);
    *out = doc;
    return SK_OK;
}

enum sk_err job_run_result(struct job_run *run, json_t **out)
{
    json_t *res = NULL;
    enum sk_err err = run->job->ops->result(run->data, &res, run->error, sizeof(run->error));

    if (err)
        return err;
    return finish_result(run, res, 0, out);
}

enum sk_err job_run_partial_result(struct job_run *run, json_t **out)
{
    json_t *res = NULL;
    enum sk_err err;

    if (!run->job->ops->partial)
        return SK_ECONFLICT;
    err = run->job->ops->partial(run->data, &res, run->error, sizeof(run->error));
    if (err)
        return err;
    return finish_result(run, res, 1, out);
}

/* A checkpoint starts with this header, each field at its offset in native byte order:
 * "SKCP", the format version, a byte-order probe, a hash of the kind's whole name (FNV-1a,
 * 64 bits: a name of any length, where version 1 kept 15 bytes of it), the seed and the
 * job's units. A checkpoint of another job, another version or another byte order fails
 * the comparison and is not used: the run starts from zero. */
#define CKPT_VERSION  2u
#define CKPT_PROBE    0x01020304u
#define CKPT_HEAD_LEN (4 + 4 + 4 + 8 + 8 + 8)

static const unsigned char ckpt_magic[4] = {'S', 'K', 'C', 'P'};

static uint64_t kind_hash(const char *name)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 0x100000001b3ULL;
    return h;
}

static void ckpt_head(const struct job_run *run, unsigned char head[CKPT_HEAD_LEN])
{
    uint32_t version = CKPT_VERSION, probe = CKPT_PROBE;
    uint64_t kind = kind_hash(run->job->ops->name);
    uint64_t seed = run->job->seed, total = job_total(run->job);

    memcpy(head, ckpt_magic, sizeof(ckpt_magic));
    memcpy(head + 4, &version, 4);
    memcpy(head + 8, &probe, 4);
    memcpy(head + 12, &kind, 8);
    memcpy(head + 20, &seed, 8);
    memcpy(head + 28, &total, 8);
}

enum sk_err job_run_save(struct job_run *run, struct sk_buf *out)
{
    unsigned char head[CKPT_HEAD_LEN];

    if (!run->job->ops->save)
        return SK_ECONFLICT;
    ckpt_head(run, head);
    if (sk_buf_add(out, head, sizeof(head)))
        return out->err;
    return run->job->ops->save(run->data, out);
}

enum sk_err job_run_restore(struct job_run *run, const void *data, size_t len, uint64_t *done)
{
    unsigned char head[CKPT_HEAD_LEN];

    if (!run->job->ops->restore)
        return SK_ECONFLICT;
    ckpt_head(run, head);
    if (len < sizeof(head) || memcmp(data, head, sizeof(head)) != 0)
        return SK_EINVAL;
    return run->job->ops->restore(run->data, (const unsigned char *)data + sizeof(head),
                                  len - sizeof(head), done);
}

int job_shardable(const struct job *job)
{
    return job->ops->seek && job->ops->merge && job->ops->save && job->ops->restore;
}

enum sk_err job_run_seek(struct job_run *run, uint64_t first)
{
    if (!job_shardable(run->job))
        return SK_ECONFLICT;
    return run->job->ops->seek(run->data, first);
}

enum sk_err job_run_merge(struct job_run *run, const void *data, size_t len)
{
    unsigned char head[CKPT_HEAD_LEN];

    if (!job_shardable(run->job))
        return SK_ECONFLICT;
    ckpt_head(run, head);
    if (len < sizeof(head) || memcmp(data, head, sizeof(head)) != 0)
        return SK_EINVAL;
    return run->job->ops->merge(run->data, (const unsigned char *)data + sizeof(head),
                                len - sizeof(head));
}

json_t *job_run_progress(struct job_run *run)
{
    return run->job->ops->progress ? run->job->ops->progress(run->data) : NULL;
}

const char *job_run_error(const struct job_run *run)
{
    return run->error;
}

void job_run_free(struct job_run *run)
{
    if (!run)
        return;
    run->job->ops->run_free(run->data);
    sk_free(run);
}
