/* SPDX-License-Identifier: MIT */
/* Job resources as JSON (see api_render.h). */
#include "api_render.h"

#include <stdio.h>

#include "sk_json.h"

#include "sk_banned.h"

/* A timestamp column: the text, or null for SQL NULL (""). */
static json_t *ts(const char *v)
{
    return v[0] ? json_string(v) : json_null();
}

static json_t *progress(const struct db_job *j)
{
    json_t *p = json_pack("{s:I, s:I, s:I}", "done", (json_int_t)j->done, "total",
                          (json_int_t)j->total, "resumed_from", (json_int_t)j->resumed_from);
    /* the kind's detail (an optimisation's best deck so far), when its worker wrote one */
    json_t *d = j->detail ? json_loads(j->detail, 0, NULL) : NULL;

    if (p && json_is_object(d) && json_object_set(p, "detail", d)) {
        json_decref(p);
        p = NULL;
    }
    json_decref(d);
    return p;
}

/* {"estimate_cpu_s": the API's estimate at admission (null: none), "cpu_s": what workers
 * spent so far}, in seconds with millisecond precision (docs/security.md, "CPU cost"). */
static json_t *cost(const struct db_job *j)
{
    return json_pack("{s:o, s:f}", "estimate_cpu_s",
                     j->cost_estimate_ms >= 0 ? json_real((double)j->cost_estimate_ms / 1000.0)
                                              : json_null(),
                     "cpu_s", (double)j->cpu_ms / 1000.0);
}

json_t *api_render_job(const struct db_job *j)
{
    char self[64];
    char result[80];
    char cancel[80];
    char retry[80];
    char document[80];
    json_t *workers = json_array();
    json_t *errors = json_array();

    for (size_t i = 0; workers && i < j->n_workers; i++)
        if (json_array_append_new(workers, json_string(j->workers[i]))) {
            json_decref(workers);
            workers = NULL;
        }
    /* jansson escapes whatever an error holds (newlines, quotes) */
    for (size_t i = 0; errors && i < j->n_errors; i++)
        if (json_array_append_new(errors, j->errors[i] ? json_string(j->errors[i]) : json_null())) {
            json_decref(errors);
            errors = NULL;
        }
    snprintf(self, sizeof(self), "/v1/jobs/%s", j->id);
    snprintf(result, sizeof(result), "/v1/jobs/%s/result", j->id);
    snprintf(cancel, sizeof(cancel), "/v1/jobs/%s:cancel", j->id);
    snprintf(retry, sizeof(retry), "/v1/jobs/%s:retry", j->id);
    snprintf(document, sizeof(document), "/v1/jobs/%s/document", j->id);
    /* "o" steals every value, NULL included: a failed allocation fails the whole pack */
    return json_pack(
        "{s:s, s:s, s:s, s:s, s:I, s:i, s:o, s:o, s:i, s:b, s:o, s:o, s:o, s:o, s:o, s:o,"
        " s:o, s:o, s:{s:s, s:s, s:s, s:s, s:s}}",
        "id", j->id, "kind", j->kind, "status", j->status, "tenant",
        j->tenant[0] ? j->tenant : DB_JOBS_TENANT, "seed", (json_int_t)j->seed, "attempts",
        j->attempts, "progress", progress(j), "cost", cost(j), "shards", j->shards,
        "cancel_requested", j->cancel_requested, "created_at", ts(j->created_at), "started_at",
        ts(j->started_at), "finished_at", ts(j->finished_at), "updated_at", ts(j->updated_at),
        "error", j->error ? json_string(j->error) : json_null(), "workers", workers, "errors",
        errors, "retry_of", j->retry_of[0] ? json_string(j->retry_of) : json_null(), "links",
        "self", self, "result", result, "cancel", cancel, "retry", retry, "document", document);
}

char *api_render_job_text(const struct db_job *j)
{
    json_t *doc = api_render_job(j);
    char *text = doc ? sk_json_text(doc) : NULL;
    json_decref(doc);
    return text;
}

json_t *api_render_running(const struct db_job *j)
{
    return json_pack("{s:s, s:s, s:o, s:i, s:o, s:o}", "id", j->id, "kind", j->kind, "progress",
                     progress(j), "attempts", j->attempts, "started_at", ts(j->started_at),
                     "updated_at", ts(j->updated_at));
}
