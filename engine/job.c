/* SPDX-License-Identifier: MIT */
/* The job envelope: validation of {"kind", "seed", "params"} and dispatch to the kinds
 * (see job.h). */
#include "job.h"

#include <string.h>
#include <sys/random.h>

#include "battle_job.h"
#include "board_job.h"
#include "sk_mem.h"

#include "sk_banned.h"

struct job {
    enum job_kind kind;
    uint64_t seed;
    union {
        struct battle_job *battle;
        struct board_job *board;
    } u;
};

struct job_run {
    const struct job *job;
    union {
        struct battle_job_run *battle;
        struct board_job_run *board;
    } u;
};

static const char *const kind_names[JOB_KIND__COUNT] = {
    [JOB_BATTLE] = "battle",
    [JOB_BOARD] = "board",
};

const char *job_kind_name(enum job_kind kind)
{
    if ((unsigned)kind >= JOB_KIND__COUNT)
        return "unknown";
    return kind_names[kind];
}

int job_kind_parse(const char *name)
{
    for (int k = 0; k < JOB_KIND__COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0)
            return k;
    return -1;
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
    static const char *const keys[] = {"kind", "seed", "params", NULL};
    struct job *job = NULL;
    const json_t *kind_v;
    json_t *val;
    const json_t *params;
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
        sk_verr_add(errs, "/kind", "'kind' is required (\"battle\" or \"board\")");
    else if (!json_is_string(kind_v) || (kind = job_kind_parse(json_string_value(kind_v))) < 0)
        sk_verr_add(errs, "/kind", "'kind' must be \"battle\" or \"board\"");

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

    job = sk_calloc(1, sizeof(*job));
    if (!job)
        return SK_ENOMEM;
    job->kind = (enum job_kind)kind;
    job->seed = seed;
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    if (kind == JOB_BATTLE)
        err = battle_job_decode(params, seed, &ptr, errs, &job->u.battle);
    else
        err = board_job_decode(params, seed, &ptr, errs, &job->u.board);
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
    if (job->kind == JOB_BATTLE)
        battle_job_free(job->u.battle);
    else
        board_job_free(job->u.board);
    sk_free(job);
}

enum job_kind job_kind(const struct job *job)
{
    return job->kind;
}

uint64_t job_seed(const struct job *job)
{
    return job->seed;
}

uint64_t job_total(const struct job *job)
{
    if (job->kind == JOB_BATTLE)
        return battle_job_total(job->u.battle);
    return board_job_total(job->u.board);
}

enum sk_err job_run_new(const struct job *job, const struct job_run_opts *opts,
                        struct job_run **out, char *err, size_t errlen)
{
    struct job_run *run = NULL;
    struct job_run_opts defaults = {0};
    enum sk_err rc;

    if (!opts)
        opts = &defaults;
    run = sk_calloc(1, sizeof(*run));
    if (!run)
        return SK_ENOMEM;
    run->job = job;
    if (job->kind == JOB_BATTLE)
        rc = battle_job_run_new(job->u.battle, opts, &run->u.battle, err, errlen);
    else
        rc = board_job_run_new(job->u.board, opts, &run->u.board, err, errlen);
    if (rc) {
        sk_free(run);
        return rc;
    }
    *out = run;
    return SK_OK;
}

enum sk_err job_run_step(struct job_run *run, uint64_t max_units, uint64_t *done)
{
    if (run->job->kind == JOB_BATTLE)
        return battle_job_run_step(run->u.battle, max_units, done);
    return board_job_run_step(run->u.board, max_units, done);
}

enum sk_err job_run_result(struct job_run *run, json_t **out)
{
    json_t *res = NULL;
    json_t *doc = NULL;
    enum sk_err err;

    if (run->job->kind == JOB_BATTLE)
        err = battle_job_run_result(run->u.battle, &res);
    else
        err = board_job_run_result(run->u.board, &res);
    if (err)
        return err;
    /* "kind" first: a client (and the OpenAPI discriminator of Result) tells the two result
     * shapes apart by it without guessing from their fields. */
    doc = json_pack("{s:s}", "kind", job_kind_name(run->job->kind));
    if (!doc || json_object_update(doc, res)) {
        json_decref(doc);
        json_decref(res);
        return SK_ENOMEM;
    }
    json_decref(res);
    *out = doc;
    return SK_OK;
}

const char *job_run_error(const struct job_run *run)
{
    if (run->job->kind == JOB_BATTLE)
        return battle_job_run_error(run->u.battle);
    return board_job_run_error(run->u.board);
}

void job_run_free(struct job_run *run)
{
    if (!run)
        return;
    if (run->job->kind == JOB_BATTLE)
        battle_job_run_free(run->u.battle);
    else
        board_job_run_free(run->u.board);
    sk_free(run);
}
