/* SPDX-License-Identifier: MIT */
/* The `board` job kind (see board_job.h): decode through board_codec, resolve one turn per
 * unit of work on a copy of the input state, and build the result document
 * {"state", "spells", "events", "events_truncated", "turns", "seed"}. */
#include "board_job.h"

#include <stdio.h>

#include "board_codec.h"
#include "board_turn.h"
#include "job.h"
#include "sk_mem.h"

#include "sk_banned.h"

struct board_job {
    struct board_input *in;
    uint64_t seed;
};

struct board_job_run {
    const struct board_job *job;
    struct board_state *st;
    uint64_t done;
    char error[256];
};

enum sk_err board_job_decode(const json_t *params, uint64_t seed, struct sk_jptr *ptr,
                             struct sk_verr_list *errs, struct board_job **out)
{
    struct board_job *job = NULL;
    struct board_input *in = NULL;
    enum sk_err err;

    err = board_codec_decode(params, ptr, errs, &in);
    if (err)
        return err;
    job = sk_calloc(1, sizeof(*job));
    if (!job) {
        board_codec_free(in);
        return SK_ENOMEM;
    }
    job->in = in;
    job->seed = seed;
    *out = job;
    return SK_OK;
}

void board_job_free(struct board_job *job)
{
    if (!job)
        return;
    board_codec_free(job->in);
    sk_free(job);
}

uint64_t board_job_total(const struct board_job *job)
{
    return (uint64_t)job->in->turns;
}

enum sk_err board_job_run_new(const struct board_job *job, const struct job_run_opts *opts,
                              struct board_job_run **out, char *err, size_t errlen)
{
    struct board_job_run *run = sk_calloc(1, sizeof(*run));

    (void)opts; /* one turn is far below a millisecond: no threads, no device */
    if (!run) {
        (void)snprintf(err, errlen, "out of memory");
        return SK_ENOMEM;
    }
    run->job = job;
    run->st = board_state_clone(job->in->st);
    if (!run->st) {
        sk_free(run);
        (void)snprintf(err, errlen, "out of memory");
        return SK_ENOMEM;
    }
    *out = run;
    return SK_OK;
}

enum sk_err board_job_run_step(struct board_job_run *run, uint64_t max_units, uint64_t *done)
{
    const struct board_input *in = run->job->in;
    struct board_plan plan = {in->orders, in->norders, in->casts, in->ncasts, run->job->seed};
    uint64_t total = (uint64_t)in->turns;
    uint64_t stop = max_units == 0 || total - run->done < max_units ? total : run->done + max_units;

    while (run->done < stop) {
        enum sk_err err = board_turn_run(run->st, &plan);
        if (err) {
            (void)snprintf(run->error, sizeof(run->error), "turn %d: %s", run->st->turn,
                           sk_err_str(err));
            return err;
        }
        run->done++;
    }
    *done = run->done;
    return SK_OK;
}

enum sk_err board_job_run_result(struct board_job_run *run, json_t **out)
{
    json_t *doc = NULL, *state = NULL, *events = NULL, *spells = NULL;

    if (run->done < (uint64_t)run->job->in->turns)
        return SK_ECONFLICT;
    state = board_codec_encode_state(run->st);
    events = board_codec_encode_events(run->st);
    spells = board_codec_encode_inline(run->job->in);
    if (!state || !events || !spells)
        goto fail;
    doc = json_pack("{so so so sb sI sI}", "state", state, "spells", spells, "events", events,
                    "events_truncated", run->st->log_truncated, "turns",
                    (json_int_t)run->job->in->turns, "seed", (json_int_t)run->job->seed);
    state = events = spells = NULL; /* json_pack "o" steals, even on failure */
    if (!doc)
        return SK_ENOMEM;
    *out = doc;
    return SK_OK;
fail:
    json_decref(state);
    json_decref(events);
    json_decref(spells);
    return SK_ENOMEM;
}

const char *board_job_run_error(const struct board_job_run *run)
{
    return run->error;
}

void board_job_run_free(struct board_job_run *run)
{
    if (!run)
        return;
    board_state_free(run->st);
    sk_free(run);
}
