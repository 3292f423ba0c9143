/* SPDX-License-Identifier: MIT */
/* The end of a split job (see worker_shard.h). */
#include "worker_shard.h"

#include <stdio.h>
#include <string.h>

#include "db_jobs.h"
#include "job.h"
#include "sk_json.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "worker_beat.h"

#include "sk_banned.h"

/* Split jobs the reconciler ends per pass; the rest wait for the next pass. */
#define RECONCILE_MAX 16

/* The job's run with every shard's checkpoint merged in, in *out (job_run_free; *job too);
 * `msg` says why when the checkpoints do not merge (SK_EINVAL). */
static enum sk_err merged_run(struct worker *w, const char *parent, const struct db_shard *sh,
                              int n, struct job **job, struct job_run **out, char *msg,
                              size_t msglen)
{
    struct sk_verr_list errs;
    char *text = NULL;
    json_t *doc = NULL;
    enum sk_err err;

    sk_verr_list_init(&errs);
    err = w->io->document(w->db, parent, &text);
    if (!err && !(doc = json_loads(text, 0, NULL)))
        err = SK_ENOMEM; /* the API parsed and stored it: memory */
    if (!err)
        err = job_decode(doc, job, &errs);
    if (!err)
        err = job_run_new(w->engine, *job, NULL, out, msg, msglen);
    for (int i = 0; !err && i < n; i++) {
        if (!sh[i].checkpoint)
            continue; /* a shard canceled before its first chunk counted nothing */
        err = job_run_merge(*out, sh[i].checkpoint, sh[i].checkpoint_len);
        if (err == SK_EINVAL)
            snprintf(msg, msglen, "the checkpoint of shard %d (units %llu..%llu) does not merge",
                     i + 1, (unsigned long long)sh[i].first,
                     (unsigned long long)(sh[i].first + sh[i].units - 1));
    }
    sk_free(text);
    json_decref(doc);
    sk_verr_list_release(&errs);
    return err;
}

void worker_shard_finish(struct worker *w, const char *parent)
{
    struct db_shard *sh = NULL;
    struct job *job = NULL;
    struct job_run *run = NULL;
    json_t *res = NULL;
    char *text = NULL;
    char msg[600] = "";
    const char *status = "succeeded";
    int n = 0, failed = -1, ended = 0;
    enum sk_err err;

    err = w->io->shards(w->db, parent, &sh, &n);
    if (err || n == 0)
        goto out;
    for (int i = 0; i < n; i++) {
        if (strcmp(sh[i].status, "queued") == 0 || strcmp(sh[i].status, "running") == 0)
            goto out; /* the worker that ends the last shard ends the job */
        if (strcmp(sh[i].status, "succeeded") != 0)
            status = "canceled";
        if (failed < 0 && strcmp(sh[i].status, "failed") == 0)
            failed = i;
    }
    if (failed >= 0) {
        status = "failed";
        snprintf(msg, sizeof(msg), "shard %d of %d (units %llu..%llu) failed: %s", failed + 1, n,
                 (unsigned long long)sh[failed].first,
                 (unsigned long long)(sh[failed].first + sh[failed].units - 1),
                 sh[failed].error ? sh[failed].error : "unknown error");
    } else {
        err = merged_run(w, parent, sh, n, &job, &run, msg, sizeof(msg));
        if (err == SK_EINVAL) {
            status = "failed";
        } else if (err) {
            /* memory, the store, or this worker lacks the job's card catalog (SK_ENOTFOUND):
             * the reconciler of any worker tries again */
            goto out;
        } else {
            err = strcmp(status, "succeeded") == 0 ? job_run_result(run, &res)
                                                   : job_run_partial_result(run, &res);
            if (err == SK_OK && !(text = sk_json_text(res)))
                goto out;
            if (err && strcmp(status, "succeeded") == 0) {
                status = "failed";
                snprintf(msg, sizeof(msg), "the shards' counts do not add up to the job: %s",
                         job_run_error(run)[0] ? job_run_error(run) : sk_err_str(err));
            }
        }
    }
    err = w->io->parent_end(w->db, parent, status, text, msg[0] ? msg : NULL, &ended);
    if (err || !ended)
        goto out;
    {
        char q[700];
        sk_log_info("event=job_%s job_id=%s shards=%d err=%s", status, parent, n,
                    sk_log_quote(q, sizeof(q), msg));
    }
    worker_beat_notify(w, parent, "status");
out:
    if (err)
        sk_log_warn("event=shard_finish_deferred job_id=%s err=%s", parent, sk_err_str(err));
    sk_free(text);
    json_decref(res);
    job_run_free(run);
    job_free(job);
    db_jobs_shards_free(sh, n);
}

struct ready {
    char ids[RECONCILE_MAX][DB_JOBS_ID_LEN];
    size_t n;
};

static void add_ready(const char *id, int attempts, void *arg)
{
    struct ready *r = arg;
    (void)attempts;
    if (r->n < RECONCILE_MAX)
        snprintf(r->ids[r->n++], DB_JOBS_ID_LEN, "%s", id);
}

size_t worker_shard_reconcile(struct worker *w, size_t max)
{
    struct ready r = {.n = 0};

    if (max > RECONCILE_MAX)
        max = RECONCILE_MAX;
    if (w->io->parents_ready(w->db, (int)max, add_ready, &r))
        return 0;
    for (size_t i = 0; i < r.n && !*w->stop; i++)
        worker_shard_finish(w, r.ids[i]);
    return r.n;
}
