/* SPDX-License-Identifier: MIT */
/* The `board` job kind (board_kind, see job_kind.h): decode through board_codec, resolve
 * one turn per unit of work on a copy of the input state, and build the result document
 * {"state", "spells", "events", "events_truncated", "turns", "seed"}. One turn is far below
 * a millisecond: no threads, no device; the engine state only checks the spell catalog. */
#include "board.h"

#include <stdio.h>
#include <string.h>

#include "board_codec.h"
#include "board_model.h"
#include "board_spells.h"
#include "board_turn.h"
#include "job_kind.h"
#include "sk_buf.h"
#include "sk_mem.h"
#include "sk_time.h"

#include "sk_banned.h"

struct board_job {
    struct board_input *in;
    uint64_t seed;
};

struct board_job_run {
    const struct board_job *job;
    struct board_state *st;
    uint64_t done;
};

/* Checks at start-up that the spell catalog loads: every job reads it. */
static enum sk_err engine_open(const struct engine_opts *opts, void **state, char *err,
                               size_t errlen)
{
    struct board_spell_def *defs = sk_calloc(BOARD_MAX_DEFS, sizeof(*defs));
    int n = 0;
    enum sk_err rc;

    (void)opts;
    if (!defs)
        return SK_ENOMEM;
    rc = board_spells_catalog(defs, BOARD_MAX_DEFS, &n, err, errlen);
    sk_free(defs);
    *state = NULL;
    return rc;
}

static enum sk_err job_decode_params(const json_t *params, uint64_t seed, const char *catalog,
                                     struct sk_jptr *ptr, struct sk_verr_list *errs, void **out)
{
    struct board_job *job = NULL;
    struct board_input *in = NULL;
    enum sk_err err;

    (void)catalog; /* the board game names no cards: job.c never pins it */
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

static void job_free_data(void *data)
{
    struct board_job *job = data;
    if (!job)
        return;
    board_codec_free(job->in);
    sk_free(job);
}

static uint64_t job_units(const void *data)
{
    const struct board_job *job = data;
    return (uint64_t)job->in->turns;
}

static enum sk_err run_new(void *state, const void *data, const struct job_run_opts *opts,
                           void **out, char *err, size_t errlen)
{
    const struct board_job *job = data;
    struct board_job_run *run = sk_calloc(1, sizeof(*run));

    (void)state;
    (void)opts;
    if (!run) {
        snprintf(err, errlen, "out of memory");
        return SK_ENOMEM;
    }
    run->job = job;
    run->st = board_state_clone(job->in->st);
    if (!run->st) {
        sk_free(run);
        snprintf(err, errlen, "out of memory");
        return SK_ENOMEM;
    }
    *out = run;
    return SK_OK;
}

/* Turns are the pieces: the deadline is looked at between them, after the first. */
static enum sk_err run_step(void *data, uint64_t max_units, int64_t deadline_ms, uint64_t *done,
                            char *err, size_t errlen)
{
    struct board_job_run *run = data;
    const struct board_input *in = run->job->in;
    struct board_plan plan = {in->orders, in->norders, in->casts, in->ncasts, run->job->seed};
    uint64_t total = (uint64_t)in->turns;
    uint64_t from = run->done;
    uint64_t stop = max_units == 0 || total - run->done < max_units ? total : run->done + max_units;

    while (run->done < stop && !(run->done > from && sk_time_due(deadline_ms))) {
        enum sk_err rc = board_turn_run(run->st, &plan);
        if (rc) {
            snprintf(err, errlen, "turn %d: %s", run->st->turn, sk_err_str(rc));
            return rc;
        }
        run->done++;
    }
    *done = run->done;
    return SK_OK;
}

static enum sk_err run_result(void *data, json_t **out, char *err, size_t errlen)
{
    struct board_job_run *run = data;
    (void)err; /* nothing but memory can fail here */
    (void)errlen;
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

/* The checkpoint (job_kind.h save/restore): the turns done, then the state they left
 * (board_state_save). Each turn draws from a stream seeded by the job's seed and the turn
 * number, so the state is all a run needs to go on. */
static enum sk_err run_save(void *data, struct sk_buf *out)
{
    const struct board_job_run *run = data;

    (void)sk_buf_add(out, &run->done, sizeof(run->done));
    return board_state_save(run->st, out);
}

static enum sk_err run_restore(void *data, const unsigned char *p, size_t len, uint64_t *done)
{
    struct board_job_run *run = data;
    struct board_state *st = NULL;
    uint64_t at;
    enum sk_err rc;

    if (len < sizeof(at))
        return SK_EINVAL;
    memcpy(&at, p, sizeof(at));
    if (at > (uint64_t)run->job->in->turns)
        return SK_EINVAL;
    rc = board_state_load(p + sizeof(at), len - sizeof(at), run->job->in->st, &st);
    if (rc)
        return rc;
    /* the state's next turn is the job's first turn plus the turns done */
    if ((uint64_t)(st->turn - run->job->in->st->turn) != at) {
        board_state_free(st);
        return SK_EINVAL;
    }
    board_state_free(run->st);
    run->st = st;
    run->done = at;
    *done = at;
    return SK_OK;
}

static void run_free(void *data)
{
    struct board_job_run *run = data;
    if (!run)
        return;
    board_state_free(run->st);
    sk_free(run);
}

/* ===== The catalog served at /v1/spells ===== */

static json_t *catalog_load(char *err, size_t errlen)
{
    json_t *out = NULL;
    if (board_spells_catalog_json(&out, err, errlen))
        return NULL;
    return out;
}

static const struct job_filter spell_filters[] = {
    {"target", "target", NULL, board_model_target_name, BOARD_T__COUNT},
    {"duration", "duration", NULL, board_spells_duration_name, BOARD_D__COUNT},
    {"event", "effects", "event", board_spells_point_name, BOARD_P__COUNT},
    {"action", "effects", "action", board_spells_action_name, BOARD_A__COUNT},
    {"name", "name", NULL, NULL, 0},
    {NULL, NULL, NULL, NULL, 0},
};

/* small: served whole, no per-entry calls */
static const struct job_catalog spells_catalog = {
    .name = "spells", .load = catalog_load, .filters = spell_filters};

const struct job_kind_ops board_kind = {
    .name = "board",
    .units_are_games = 0, /* a unit is a turn */
    .open = engine_open,
    .close = NULL,
    .describe = NULL,
    .decode = job_decode_params,
    .free = job_free_data,
    .total = job_units,
    .run_new = run_new,
    .step = run_step,
    .result = run_result,
    .run_free = run_free,
    .save = run_save,
    .restore = run_restore,
    .catalog = &spells_catalog,
};
