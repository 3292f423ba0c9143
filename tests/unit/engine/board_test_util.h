/* SPDX-License-Identifier: MIT */
/* Helpers shared by the board test files: run a board job's params through the public
 * path (the `board` row of the job kinds, board_kind), and look things up in the result
 * document. */
#ifndef BOARD_TEST_UTIL_H
#define BOARD_TEST_UTIL_H

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "job.h"
#include "sk_mem.h"
#include "sk_verr.h"

/* The board kind's operations under typed names (the kind's types stay opaque here). The
 * board kind has no engine state and ignores run options. */
struct board_job;
struct board_job_run;

static inline enum sk_err board_job_decode(const json_t *params, uint64_t seed, struct sk_jptr *ptr,
                                           struct sk_verr_list *errs, struct board_job **out)
{
    void *job = NULL;
    enum sk_err rc = board_kind.decode(params, seed, NULL, ptr, errs, &job);
    if (!rc)
        *out = job;
    return rc;
}

static inline void board_job_free(struct board_job *job)
{
    if (job)
        board_kind.free(job);
}

static inline uint64_t board_job_total(const struct board_job *job)
{
    return board_kind.total(job);
}

static inline enum sk_err board_job_run_new(const struct board_job *job, const void *unused,
                                            struct board_job_run **out, char *err, size_t errlen)
{
    static const struct job_run_opts opts = {0};
    void *run = NULL;
    enum sk_err rc = board_kind.run_new(NULL, job, &opts, &run, err, errlen);
    (void)unused;
    if (!rc)
        *out = run;
    return rc;
}

static inline enum sk_err board_job_run_step(struct board_job_run *run, uint64_t max_units,
                                             uint64_t *done)
{
    char err[256];
    return board_kind.step(run, max_units, 0, done, err, sizeof(err));
}

static inline enum sk_err board_job_run_result(struct board_job_run *run, json_t **out)
{
    char err[256];
    return board_kind.result(run, out, err, sizeof(err));
}

static inline void board_job_run_free(struct board_job_run *run)
{
    board_kind.run_free(run);
}

/* Decodes `params` (borrowed) and runs every turn; returns the result (caller decrefs) or
 * NULL after printing the validation errors. */
static inline json_t *bt_run_json(const json_t *params, uint64_t seed)
{
    struct sk_verr_list errs;
    struct sk_jptr ptr;
    struct board_job *job = NULL;
    struct board_job_run *run = NULL;
    json_t *res = NULL;
    uint64_t done = 0;
    char err[128];

    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    if (board_job_decode(params, seed, &ptr, &errs, &job) != SK_OK) {
        for (size_t i = 0; i < errs.n; i++)
            fprintf(stderr, "%s: %s\n", errs.items[i].pointer, errs.items[i].message);
        goto out;
    }
    if (board_job_run_new(job, NULL, &run, err, sizeof(err)) != SK_OK)
        goto out;
    if (board_job_run_step(run, 0, &done) != SK_OK)
        goto out;
    board_job_run_result(run, &res);
out:
    board_job_run_free(run);
    board_job_free(job);
    sk_verr_list_release(&errs);
    return res;
}

/* Decodes params and returns the validation errors as a JSON array (caller decrefs). */
static inline json_t *bt_errors(const char *params_text)
{
    struct sk_verr_list errs;
    struct sk_jptr ptr;
    struct board_job *job = NULL;
    json_t *params = json_loads(params_text, 0, NULL);
    json_t *out;

    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    if (params)
        board_job_decode(params, 1, &ptr, &errs, &job);
    board_job_free(job);
    out = sk_verr_list_to_json(&errs);
    sk_verr_list_release(&errs);
    json_decref(params);
    return out;
}

/* 1 if the error list holds `pointer` with a message containing `needle`. */
static inline int bt_has_error(const json_t *errs, const char *pointer, const char *needle)
{
    size_t i;
    json_t *e;
    json_array_foreach(errs, i, e)
    {
        const char *p = json_string_value(json_object_get(e, "pointer"));
        const char *m = json_string_value(json_object_get(e, "message"));
        if (p && m && strcmp(p, pointer) == 0 && strstr(m, needle))
            return 1;
    }
    fprintf(stderr, "missing error %s (%s) in %s\n", pointer, needle,
            json_dumps(errs, JSON_COMPACT));
    return 0;
}

/* The group `id` of a result's final state (borrowed), or NULL. */
static inline json_t *bt_group(const json_t *res, const char *id)
{
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(json_object_get(res, "state"), "groups"), i, g)
    {
        if (strcmp(json_string_value(json_object_get(g, "id")), id) == 0)
            return g;
    }
    return NULL;
}

/* 1 if every member of `want` equals the same member of `have` (a subset match). */
static inline int bt_subset(const json_t *want, const json_t *have)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)want, k, v)
    {
        if (!json_equal(v, json_object_get(have, k)))
            return 0;
    }
    return 1;
}

/* 1 if the events of `res` contain the `want` events in this order (others between). */
static inline int bt_events_in_order(const json_t *res, const json_t *want)
{
    const json_t *evs = json_object_get(res, "events");
    size_t at = 0, i;
    json_t *w;
    json_array_foreach(want, i, w)
    {
        while (at < json_array_size(evs) && !bt_subset(w, json_array_get(evs, at)))
            at++;
        if (at == json_array_size(evs)) {
            char *s = json_dumps(w, JSON_COMPACT);
            fprintf(stderr, "expected event not found in order: %s\n", s);
            sk_free(s);
            return 0;
        }
        at++;
    }
    return 1;
}

/* Number of events of `res` matching `want` (a subset match). */
static inline int bt_count(const json_t *res, const char *want_text)
{
    json_t *want = json_loads(want_text, 0, NULL);
    size_t i;
    json_t *e;
    int n = 0;
    json_array_foreach(json_object_get(res, "events"), i, e) n += bt_subset(want, e);
    json_decref(want);
    return n;
}

#endif
