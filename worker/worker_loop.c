/* SPDX-License-Identifier: MIT */
/* Worker loop (see worker_loop.h). */
#include "worker_loop.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "db_jobs.h"
#include "job.h"
#include "queue_telemetry.h"
#include "sk_buf.h"
#include "sk_json.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_time.h"
#include "worker_beat.h"
#include "worker_chunk.h"
#include "worker_reclaim.h"
#include "worker_retry.h"
#include "worker_shard.h"
#include "worker_units.h"

#include "sk_banned.h"

/* Entries the reaper takes over per pass; the rest wait for the next pass. */
#define REAP_MAX 16

/* The largest checkpoint stored with a progress report. A battle's is a few kilobytes; a
 * board's holds its event log, which a long game could grow past what is worth writing
 * every chunk: past this the stored checkpoint stays the older one (still a valid place to
 * resume from). */
#define CHECKPOINT_MAX (4u << 20)

/* The largest progress detail stored with a progress report (an optimisation's is a few
 * hundred bytes: its best deck and counters). */
#define DETAIL_MAX (16u << 10)

/* The longest a step runs when SKIRMISH_CHUNK_MS is 0 (chunks of SKIRMISH_CHUNK_UNITS
 * units): however slow its units, a cancel is still seen within about a second. */
#define STEP_MS_MAX 1000

/* The most shards a job is split into: a job too big for SKIRMISH_SHARD_UNITS times this
 * gets bigger shards, so one job never floods the stream and the table. */
#define SHARDS_MAX 256

/* How a run ended, for the caller to acknowledge (or not). */
enum outcome {
    OUT_DONE,     /* the job row is final or back in the queue: ack and delete the entry */
    OUT_LOST,     /* another worker holds the lease now: leave the entry alone */
    OUT_RELEASED, /* given back on stop: re-enqueued already, ack the old entry */
};

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL); /* a signal cuts it short, which is what a stop wants */
}

void worker_loop_outage(struct worker *w, const char *store, const char *detail)
{
    char q[300];
    w->outage_ms = w->outage_ms ? (w->outage_ms * 2 > 5000 ? 5000 : w->outage_ms * 2) : 100;
    sk_log_warn("event=store_unavailable store=%s retry_ms=%ld err=%s", store, w->outage_ms,
                sk_log_quote(q, sizeof(q), detail));
    sleep_ms(w->outage_ms);
}

/* Statements that lose to a concurrent transaction (deadlock, serialization failure) are
 * run again this many times; each statement is one transaction, so running it again is
 * safe, and a conflict that persists longer than this is not a passing race. */
#define CONFLICT_TRIES 5

/* After a store error: 1 = wait and try again, 0 = give up (not an outage or a conflict, or
 * a stop was requested and the lease will hand the job to another worker anyway). A
 * conflict is never a lost lease: only SK_ELEASE means that. */
static int again(struct worker *w, enum sk_err err, int *tries)
{
    if (err == SK_ERETRY) {
        if (++*tries > CONFLICT_TRIES)
            return 0;
        sk_log_info("event=store_conflict try=%d err=%s", *tries, w->io->db_error(w->db));
        sleep_ms(10L * *tries);
        return 1;
    }
    if (err != SK_EUNAVAIL)
        return 0;
    if (*w->stop && ++*tries > 3)
        return 0;
    worker_loop_outage(w, "postgres", w->io->db_error(w->db));
    return 1;
}

static void ack(struct worker *w, const struct queue_entry *e)
{
    enum sk_err err = w->io->done(w->queue, e->id);
    if (err) /* the entry stays pending; the reaper redelivers it and the claim skips it */
        sk_log_warn("event=ack_failed job_id=%s entry=%s err=%s", e->job_id, e->id,
                    sk_err_str(err));
}

/* Ends an attempt that failed: retried later when it was transient and attempts remain,
 * else the job fails with `msg` kept. */
static enum outcome attempt_failed(struct worker *w, const char *id, const char *owner,
                                   int attempts, int transient, const char *msg)
{
    char q[600];
    char final[512];
    enum sk_err err;
    int tries = 0;

    if (transient && attempts < w->cfg->max_attempts) {
        long delay = worker_retry_delay(w->cfg->retry_base_ms, w->cfg->retry_max_ms, attempts,
                                        worker_retry_random());
        do
            err = w->io->retry(w->db, id, owner, delay, msg);
        while (again(w, err, &tries));
        sk_log_warn("event=job_retry job_id=%s attempt=%d delay_ms=%ld err=%s", id, attempts, delay,
                    sk_log_quote(q, sizeof(q), msg));
    } else {
        snprintf(final, sizeof(final), "%s after %d attempt%s: %s",
                 transient ? "failed" : "failed permanently", attempts, attempts == 1 ? "" : "s",
                 msg);
        do
            err = w->io->fail(w->db, id, owner, final, msg);
        while (again(w, err, &tries));
        sk_log_error("event=job_failed job_id=%s attempts=%d err=%s", id, attempts,
                     sk_log_quote(q, sizeof(q), final));
    }
    return err == SK_ELEASE ? OUT_LOST : OUT_DONE;
}

/* Gives the job back on stop: queued again (this attempt not counted) and re-enqueued. */
static enum outcome release(struct worker *w, const char *id, const char *owner, int attempts)
{
    int tries = 0;
    enum sk_err err;
    do
        err = w->io->release(w->db, id, owner);
    while (again(w, err, &tries));
    if (err)
        return OUT_LOST;
    if (w->io->add(w->queue, id, attempts))
        sk_log_warn("event=enqueue_deferred job_id=%s", id); /* the reconciler will */
    sk_log_info("event=job_released job_id=%s", id);
    return OUT_RELEASED;
}

/* How long a job waits before it is offered again after a worker without its card catalog
 * left it; the reconciler enqueues it then. */
#define CATALOG_DEFER_MS 1000

struct catalog_seek {
    const char *hash;
    const char *self; /* this worker's name: its own heartbeat does not count */
    int found;
};

/* queue_workers callback: does this live worker list the catalog among those it loads? */
static void seek_catalog(const char *text, void *arg)
{
    struct catalog_seek *s = arg;
    json_t *beat = json_loads(text, 0, NULL);
    json_t *all = json_object_get(beat, "catalogs");
    const char *name = json_string_value(json_object_get(beat, "name"));
    size_t i;
    json_t *h;

    if (!s->found && name && strcmp(name, s->self) != 0) {
        json_array_foreach(all, i, h)
        {
            if (json_is_string(h) && strcmp(json_string_value(h), s->hash) == 0)
                s->found = 1;
        }
    }
    json_decref(beat);
}

/* A job pinned to a card catalog this worker cannot load (docs/cards.md, "Catalogs pinned
 * per job"): left to the workers that can, this attempt not counted, while one of them is
 * alive or the job is younger than SKIRMISH_CATALOG_WAIT_S; failed, naming the catalog,
 * once none is and it has waited that long. */
static enum outcome catalog_missing(struct worker *w, const char *id, const char *owner,
                                    const struct db_claim *c, const json_t *doc)
{
    const char *hash = json_string_value(json_object_get(doc, "catalog"));
    struct catalog_seek seek = {hash ? hash : "", w->name, 0};
    json_t *mine = job_catalogs();
    char msg[512];
    enum sk_err err;
    int tries = 0;

    if (w->io->workers(w->queue, seek_catalog, &seek))
        seek.found = 1; /* Redis does not answer: no grounds to give the job up */
    if (seek.found || c->age_s < w->cfg->catalog_wait_s) {
        do
            err = w->io->defer(w->db, id, owner, CATALOG_DEFER_MS);
        while (again(w, err, &tries));
        sk_log_info("event=job_deferred job_id=%s reason=catalog catalog=%s other_worker_has_it=%d",
                    id, seek.hash, seek.found);
        json_decref(mine);
        return err == SK_ELEASE ? OUT_LOST : OUT_DONE;
    }
    snprintf(msg, sizeof(msg),
             "the job's card catalog %s is not loaded by any live worker nor in a catalog store "
             "they read (waited %lld s; this worker has %s): install it again (skirmish cards "
             "update) or resubmit the job without \"catalog\"",
             seek.hash, c->age_s,
             json_array_size(mine) ? json_string_value(json_array_get(mine, 0)) : "none");
    json_decref(mine);
    return attempt_failed(w, id, owner, c->attempts, 0, msg);
}

/* Ends a job canceled after `done` units, keeping what they counted as its result marked
 * partial when the kind can tell it (a battle's games so far; none for a board; none for a
 * shard, `run` NULL: its job merges the shards' checkpoints instead). */
static enum outcome canceled(struct worker *w, const char *id, const char *owner,
                             struct job_run *run, uint64_t done)
{
    json_t *partial = NULL;
    char *text = NULL;
    enum sk_err err;
    int tries = 0;

    if (run && job_run_partial_result(run, &partial) == SK_OK)
        text = sk_json_text(partial);
    do
        err = w->io->cancelled(w->db, id, owner, text);
    while (again(w, err, &tries));
    sk_log_info("event=job_canceled job_id=%s done=%llu partial_result=%d", id,
                (unsigned long long)done, text != NULL);
    sk_free(text);
    json_decref(partial);
    return err == SK_ELEASE ? OUT_LOST : OUT_DONE;
}

/* Progress to PostgreSQL after `done` units of an attempt that started at `from`, with the
 * run's checkpoint when the kind keeps one and units remain (the result follows the last
 * chunk). Errors as db_jobs_progress, retried as `again` says. */
static enum sk_err report(struct worker *w, const char *id, const char *owner, struct job_run *run,
                          uint64_t from, uint64_t done, uint64_t total, int *cancel)
{
    struct db_progress pr = {from, NULL, 0, NULL};
    struct sk_buf ckpt;
    json_t *detail = job_run_progress(run);
    char *detail_text = detail ? sk_json_text(detail) : NULL;
    enum sk_err err;
    int tries = 0;

    /* a detail that does not fit is left out: the stored one stays (a watcher's view) */
    if (detail_text && strlen(detail_text) <= DETAIL_MAX)
        pr.detail = detail_text;
    sk_buf_init(&ckpt, CHECKPOINT_MAX);
    if (done < total && job_run_save(run, &ckpt) == SK_OK) {
        pr.checkpoint = ckpt.p;
        pr.checkpoint_len = ckpt.len;
    } else if (ckpt.err) {
        sk_log_debug("event=checkpoint_skipped job_id=%s err=%s", id, sk_err_str(ckpt.err));
    }
    do
        err = w->io->progress(w->db, id, owner, done, &pr, w->cfg->lease_ms, cancel);
    while (again(w, err, &tries));
    sk_buf_release(&ckpt);
    sk_free(detail_text);
    json_decref(detail);
    return err;
}

/* A shard's progress is also its job's: the sum of the shards' goes to the job's row, to
 * its Redis hash and to its watchers. */
static void parent_progress(struct worker *w, const char *parent)
{
    uint64_t done = 0, total = 0;

    if (w->io->parent_progress(w->db, parent, &done, &total) != SK_OK)
        return; /* ended, or the store is down: the next chunk writes it again */
    (void)w->io->job_progress(w->queue, parent, done, total);
    worker_beat_notify(w, parent, "progress");
}

/* How long a step of a run may take before the worker reports progress (which renews the
 * lease and reads the cancel flag): SKIRMISH_CHUNK_MS, at most a quarter of the lease; with
 * SKIRMISH_CHUNK_MS 0, STEP_MS_MAX at most. */
static long step_limit_ms(const struct sk_config *cfg)
{
    long step = cfg->chunk_ms > 0 ? cfg->chunk_ms : STEP_MS_MAX;
    return step < cfg->lease_ms / 4 ? step : cfg->lease_ms / 4;
}

/* Before the first step: a set-up that took more than a quarter of the lease since the
 * claim (w->claimed_ms: a card catalog loaded for the job, its plans, a checkpoint
 * restored) renews it, with the progress the attempt starts from (`at`, a row's units) and
 * nothing else, and reads the cancel flag. Returns 1 to go on, else 0 with *out set: the
 * job was canceled or the lease lost. */
static int renew_after_setup(struct worker *w, const char *id, const char *owner,
                             const struct db_claim *c, struct job_run *run, uint64_t at,
                             enum outcome *out)
{
    struct db_progress pr = {at, NULL, 0, NULL};
    enum sk_err err;
    int cancel = 0;
    int tries = 0;

    if (sk_time_mono_ms() - w->claimed_ms <= w->cfg->lease_ms / 4)
        return 1;
    do
        err = w->io->progress(w->db, id, owner, at, &pr, w->cfg->lease_ms, &cancel);
    while (again(w, err, &tries));
    if (err) {
        sk_log_warn("event=lease_lost job_id=%s owner=%s at=setup err=%s", id, owner,
                    sk_err_str(err));
        *out = OUT_LOST;
        return 0;
    }
    if (cancel) {
        *out = canceled(w, id, owner, c->parent[0] ? NULL : run, at);
        return 0;
    }
    return 1;
}

/* Charges the CPU nanoseconds `*pending_ns` this worker spent on job `id` (or its job,
 * for a shard or a unit) in whole milliseconds, keeping the rest in *pending_ns for the
 * next charge; `last` charges a rest of half a millisecond or more too. To the job's row,
 * then to its tenant's day in Redis (docs/security.md, "CPU cost"). Accounting only: a
 * store that does not answer loses this charge, and the job goes on. */
static void charge_cpu(struct worker *w, const char *id, int64_t *pending_ns, int last)
{
    long long ms = *pending_ns / 1000000;
    char tenant[64] = "";

    if (last && *pending_ns - ms * 1000000 >= 500000)
        ms++;
    if (ms <= 0)
        return;
    *pending_ns = last ? 0 : *pending_ns - ms * 1000000;
    if (w->io->charge(w->db, id, ms, tenant, sizeof(tenant)) != SK_OK) {
        sk_log_debug("event=charge_failed job_id=%s cpu_ms=%lld", id, ms);
        return;
    }
    if (tenant[0] && w->io->cpu_charge(w->queue, tenant, ms) != SK_OK)
        sk_log_debug("event=charge_failed job_id=%s tenant=%s cpu_ms=%lld", id, tenant, ms);
}

/* Runs the chunks of units [from, end) of the job (a shard's range, or all of a job's),
 * writing progress and renewing the lease after each (the games `spread` says other
 * workers played count in their heartbeats, not this one's). A shard's row counts its own units,
 * from its first (c->first). Each chunk is a step with a deadline (step_limit_ms), so
 * progress, the lease and a cancel are seen that often however slow the units are (and a
 * long set-up renews the lease before the first: renew_after_setup). Returns 1 when every unit is
 * done (the caller stores the result), else 0 with *out set: the run failed, was canceled, lost its
 * lease, or was given back on stop. */
static int run_chunks(struct worker *w, const struct queue_entry *e, const char *owner,
                      const struct db_claim *c, struct job_run *run, struct worker_units *spread,
                      uint64_t from, uint64_t end, enum outcome *out)
{
    uint64_t first = c->parent[0] ? c->first : 0;
    const char *id = e->job_id;
    char msg[512];
    uint64_t done = from;
    uint64_t last_units = 0;
    long long last_ms = 0;
    int64_t cpu_ns = 0; /* CPU spent on steps, not charged yet */
    /* chunks grow to the configured duration, but stay well inside the lease */
    long target_ms =
        w->cfg->chunk_ms < w->cfg->lease_ms / 4 ? w->cfg->chunk_ms : w->cfg->lease_ms / 4;
    long step_ms = step_limit_ms(w->cfg);
    enum sk_err err;

    if (!renew_after_setup(w, id, owner, c, run, from - first, out))
        return 0;
    worker_units_progress(spread, from - first, from - first, step_ms);
    while (done < end) {
        int cancel = 0;
        int owned = 1;
        long long t0 = sk_time_mono_ms();
        uint64_t before = done;
        uint64_t units =
            worker_chunk_next((uint64_t)w->cfg->chunk_units, target_ms, last_units, last_ms);
        int64_t cpu0 = sk_time_process_cpu_ns();
        err = job_run_step_until(run, units < end - done ? units : end - done, t0 + step_ms, &done);
        /* the process's CPU: the engine's threads play the step while the others idle */
        cpu_ns += sk_time_process_cpu_ns() - cpu0;
        charge_cpu(w, id, &cpu_ns, done >= end || err);
        last_units = done - before;
        last_ms = sk_time_mono_ms() - t0;
        if (err == SK_ECANCELED) {
            /* seen while the step handed out units (worker_units): the run is as it was
             * after its last whole piece */
            *out = canceled(w, id, owner, c->parent[0] ? NULL : run, done);
            return 0;
        }
        if (!err && done <= before) {
            /* an engine step that makes no progress would loop forever */
            *out = attempt_failed(w, id, owner, c->attempts, 0, "the engine made no progress");
            return 0;
        }
        if (sk_time_mono_ms() - t0 > w->cfg->lease_ms / 2)
            /* the lease is renewed between steps (and while units are handed out): a
             * step this long (one piece past its deadline) risks it */
            sk_log_warn("event=chunk_slow job_id=%s chunk_ms=%lld lease_ms=%ld", id,
                        sk_time_mono_ms() - t0, w->cfg->lease_ms);
        if (err == SK_ENOMEM) { /* this worker's trouble: the job goes back uncounted */
            sk_log_error("event=step_failed job_id=%s err=%s", id, sk_err_str(err));
            *out = release(w, id, owner, c->attempts);
            return 0;
        }
        if (err) {
            snprintf(msg, sizeof(msg), "%s",
                     job_run_error(run)[0] ? job_run_error(run) : sk_err_str(err));
            *out = attempt_failed(w, id, owner, c->attempts, sk_err_transient(err), msg);
            return 0;
        }
        err = report(w, id, owner, run, from - first, done - first, end - first, &cancel);
        if (err) {
            sk_log_warn("event=lease_lost job_id=%s owner=%s err=%s", id, owner, sk_err_str(err));
            *out = OUT_LOST;
            return 0;
        }
        worker_units_progress(spread, from - first, done - first, step_ms);
        /* a cache: PostgreSQL has it too */
        (void)w->io->job_progress(w->queue, id, done - first, end - first);
        if (c->parent[0])
            parent_progress(w, c->parent);
        worker_beat_units(w, c->kind, worker_units_here(spread, done - before));
        if (!c->parent[0]) /* a shard's watchers are its job's (parent_progress) */
            worker_beat_notify(w, id, "progress");
        worker_beat(w, 0);
        if (w->io->renew(w->queue, w->name, e->id, &owned) == SK_OK && !owned)
            sk_log_warn("event=entry_taken_over job_id=%s entry=%s", id, e->id);
        sk_log_debug("event=job_progress job_id=%s done=%llu end=%llu", id,
                     (unsigned long long)done, (unsigned long long)end);
        if (cancel) {
            /* a shard's counts are in its checkpoint, for its job's partial result */
            *out = canceled(w, id, owner, c->parent[0] ? NULL : run, done);
            return 0;
        }
        if (*w->stop && done < end) {
            *out = release(w, id, owner, c->attempts);
            return 0;
        }
    }
    return 1;
}

/* Restores the checkpoint an earlier attempt stored into the new `run` and sets *from to
 * its units. One this build cannot read (another job layout, damaged) is no error: *from
 * stays where the run starts (0, or a shard's first unit) and the run starts there. Returns 0 with
 * *out set when the job had to be given back (memory). */
static int resume(struct worker *w, const char *id, const char *owner, const struct db_claim *c,
                  struct job_run *run, uint64_t total, uint64_t *from, enum outcome *out)
{
    enum sk_err err = job_run_restore(run, c->checkpoint, c->checkpoint_len, from);

    if (err == SK_ENOMEM) {
        sk_log_error("event=restore_failed job_id=%s err=%s", id, sk_err_str(err));
        *out = release(w, id, owner, c->attempts);
        return 0;
    }
    if (err) { /* *from is left as it was: the run's start */
        sk_log_warn("event=checkpoint_unused job_id=%s done=%llu err=%s", id,
                    (unsigned long long)c->checkpoint_done, sk_err_str(err));
    } else {
        sk_log_info("event=job_resumed job_id=%s from=%llu total=%llu", id,
                    (unsigned long long)*from, (unsigned long long)total);
    }
    return 1;
}

/* Splits a claimed job of `total` units into shards (docs/operations.md, "Shards"), enqueues
 * them for any worker, and leaves the job running without a lease: its shards' ends end it. */
static enum outcome split(struct worker *w, const char *id, const char *owner, uint64_t total)
{
    uint64_t size = (uint64_t)w->cfg->shard_units;
    char **ids = NULL;
    int n;
    int tries = 0;
    enum sk_err err;

    if ((total + size - 1) / size > SHARDS_MAX)
        size = (total + SHARDS_MAX - 1) / SHARDS_MAX;
    n = (int)((total + size - 1) / size);
    do
        err = w->io->split(w->db, id, owner, size, n, &ids);
    while (again(w, err, &tries));
    if (err) {
        /* lease lost, or the store gave out: the lease hands the job to a worker later */
        sk_log_warn("event=split_failed job_id=%s err=%s", id, sk_err_str(err));
        return OUT_LOST;
    }
    for (int i = 0; i < n; i++)
        if (w->io->add(w->queue, ids[i], 1))
            sk_log_warn("event=enqueue_deferred job_id=%s", ids[i]); /* the reconciler will */
    sk_log_info("event=job_split job_id=%s shards=%d units=%llu", id, n, (unsigned long long)size);
    db_jobs_free_ids(ids);
    return OUT_DONE;
}

/* Ends a shard whose units are all played: its final checkpoint holds the counts its job
 * merges (worker_shard_finish, which the caller runs next). */
static enum outcome shard_done(struct worker *w, const char *id, const char *owner,
                               const struct db_claim *c, struct job_run *run)
{
    struct sk_buf ckpt;
    enum sk_err err;
    int tries = 0;

    sk_buf_init(&ckpt, 0);
    err = job_run_save(run, &ckpt);
    if (err) { /* memory: this worker's trouble, the shard goes back (its last checkpoint
                * stays) */
        sk_buf_release(&ckpt);
        sk_log_error("event=checkpoint_failed job_id=%s err=%s", id, sk_err_str(err));
        return release(w, id, owner, c->attempts);
    }
    do
        err = w->io->shard_succeed(w->db, id, owner, ckpt.p, ckpt.len);
    while (again(w, err, &tries));
    sk_buf_release(&ckpt);
    if (err) {
        sk_log_warn("event=lease_lost job_id=%s owner=%s at=result err=%s", id, owner,
                    sk_err_str(err));
        return OUT_LOST;
    }
    sk_log_info("event=shard_succeeded job_id=%s parent=%s attempts=%d units=%llu", id, c->parent,
                c->attempts, (unsigned long long)c->units);
    return OUT_DONE;
}

/* Stores the result of a job whose `total` units are all played, with the write only the
 * lease holder can make. */
static enum outcome job_done(struct worker *w, const char *id, const char *owner,
                             const struct db_claim *c, struct job_run *run, uint64_t total)
{
    json_t *result = NULL;
    char *text = NULL;
    enum outcome out = OUT_DONE;
    enum sk_err err;
    int tries = 0;

    err = job_run_result(run, &result);
    if (!err && !(text = sk_json_text(result)))
        err = SK_ENOMEM;
    if (err) {
        out = attempt_failed(w, id, owner, c->attempts, 1, "the result could not be built");
        goto out;
    }
    do
        err = w->io->succeed(w->db, id, owner, text);
    while (again(w, err, &tries));
    if (err == SK_ELEASE) {
        sk_log_warn("event=lease_lost job_id=%s owner=%s at=result", id, owner);
        out = OUT_LOST;
    } else if (err) {
        sk_log_error("event=result_write_failed job_id=%s err=%s", id, sk_err_str(err));
        out = OUT_LOST; /* leave the entry pending: the job runs again after the lease */
    } else {
        sk_log_info("event=job_succeeded job_id=%s attempts=%d units=%llu", id, c->attempts,
                    (unsigned long long)total);
    }
out:
    sk_free(text);
    json_decref(result);
    return out;
}

/* Computes a claimed unit of an optimisation (worker_units.h) from its bytes and its job's
 * document, and ends it with its result, with the write only the lease holder can make. */
static enum outcome unit_run(struct worker *w, const char *id, const char *owner,
                             const struct db_claim *c, const struct job *job)
{
    struct job_run_opts opts = {.threads = (int)w->cfg->engine_threads};
    struct sk_buf res;
    char msg[512] = "";
    enum outcome out = OUT_DONE;
    enum sk_err err;
    int tries = 0;

    int64_t cpu_ns = sk_time_process_cpu_ns();

    sk_buf_init(&res, 0);
    err =
        job_unit_run(w->engine, job, &opts, c->unit_spec, c->unit_spec_len, &res, msg, sizeof(msg));
    cpu_ns = sk_time_process_cpu_ns() - cpu_ns;
    charge_cpu(w, id, &cpu_ns, 1); /* to the unit's job */
    if (err == SK_ENOMEM) {        /* this worker's trouble: the unit goes back uncounted */
        out = release(w, id, owner, c->attempts);
        goto out;
    }
    if (err) { /* not a unit this build computes: its coordinator computes it */
        out = attempt_failed(w, id, owner, c->attempts, 0, msg[0] ? msg : sk_err_str(err));
        goto out;
    }
    do
        err = w->io->units_done(w->db, id, owner, res.p, res.len);
    while (again(w, err, &tries));
    if (err) { /* lost, or the coordinator has its result and deleted it */
        sk_log_info("event=unit_dropped job_id=%s parent=%s err=%s", id, c->parent,
                    sk_err_str(err));
        out = OUT_LOST;
        goto out;
    }
    worker_beat_units(w, c->kind, c->units);
    sk_log_info("event=unit_succeeded job_id=%s parent=%s games=%llu", id, c->parent,
                (unsigned long long)c->units);
out:
    sk_buf_release(&res);
    return out;
}

/* Parses and decodes a claimed job's stored request into *doc and *job (the caller frees
 * both). Returns 1 when it can run; else 0 with the job ended, given back or left to
 * another worker, as *out says. */
static int decode_stored(struct worker *w, const char *id, const char *owner,
                         const struct db_claim *c, json_t **doc, struct job **job,
                         enum outcome *out)
{
    struct sk_verr_list errs;
    json_error_t jerr;
    char msg[512];
    enum sk_err err;

    *doc = json_loads(c->request, 0, &jerr);
    if (!*doc) {
        /* The API parsed this text before storing it: failing now is this process's
         * trouble (memory) far more likely than a corrupt row, so it is retried, and only
         * attempts running out fail the job. */
        snprintf(msg, sizeof(msg), "the stored request does not parse: %s", jerr.text);
        *out = attempt_failed(w, id, owner, c->attempts, 1, msg);
        return 0;
    }
    sk_verr_list_init(&errs);
    err = job_decode(*doc, job, &errs);
    if (err == SK_ENOTFOUND) {
        *out = catalog_missing(w, id, owner, c, *doc);
    } else if (err && err != SK_EINVAL) {
        /* Not the document's fault (memory, the engine): this worker gives the job back
         * for another attempt, here or on another worker, without counting one. */
        sk_log_error("event=decode_failed job_id=%s err=%s", id, sk_err_str(err));
        *out = release(w, id, owner, c->attempts);
    } else if (err) {
        snprintf(msg, sizeof(msg), "the stored request is no longer valid%s%s%s%s",
                 errs.n ? ": " : "", errs.n ? errs.items[0].pointer : "", errs.n ? ": " : "",
                 errs.n ? errs.items[0].message : "");
        *out = attempt_failed(w, id, owner, c->attempts, 0, msg);
    }
    sk_verr_list_release(&errs);
    return err == SK_OK;
}

/* Runs a claimed job to one of its ends. */
static enum outcome run_job(struct worker *w, const struct queue_entry *e, const char *owner,
                            const struct db_claim *c)
{
    const char *id = e->job_id;
    json_t *doc = NULL;
    struct job *job = NULL;
    struct job_run *run = NULL;
    struct job_run_opts opts = {.threads = (int)w->cfg->engine_threads};
    struct worker_units units;
    char msg[512] = "";
    uint64_t total;
    uint64_t from = 0;
    enum outcome out = OUT_DONE;
    enum sk_err err;

    if (!decode_stored(w, id, owner, c, &doc, &job, &out))
        goto out;
    if (c->unit) {
        out = unit_run(w, id, owner, c, job);
        goto out;
    }
    total = job_total(job);
    if (!c->parent[0] && w->cfg->shard_units > 0 && total > (uint64_t)w->cfg->shard_units &&
        job_shardable(job)) {
        out = split(w, id, owner, total);
        goto out;
    }
    worker_units_init(&units, w, id, owner);
    if (w->cfg->opt_unit_games > 0 && w->io->units_add)
        opts.spread = &units.spread;
    err = job_run_new(w->engine, job, &opts, &run, msg, sizeof(msg));
    if (err == SK_EINVAL) { /* the job asks for what the engine cannot do */
        out = attempt_failed(w, id, owner, c->attempts, 0, msg[0] ? msg : sk_err_str(err));
        goto out;
    }
    if (err) { /* this worker's trouble (memory): the job goes back, no attempt counted */
        sk_log_error("event=run_setup_failed job_id=%s err=%s", id, sk_err_str(err));
        out = release(w, id, owner, c->attempts);
        goto out;
    }
    if (c->parent[0]) { /* a shard: units [first, first + units) of its job */
        if (job_run_seek(run, c->first) || c->first + c->units > total) {
            out = attempt_failed(w, id, owner, c->attempts, 0, "the shard's range does not fit");
            goto out;
        }
        from = c->first;
        total = c->first + c->units;
    }
    if (c->checkpoint && !resume(w, id, owner, c, run, total, &from, &out))
        goto out;
    if (!run_chunks(w, e, owner, c, run, &units, from, total, &out))
        goto out;
    if (c->parent[0]) {
        out = shard_done(w, id, owner, c, run);
        goto out;
    }
    out = job_done(w, id, owner, c, run, total);
out:
    job_run_free(run);
    job_free(job);
    json_decref(doc);
    return out;
}

void worker_loop_entry(struct worker *w, const struct queue_entry *e)
{
    char owner[160];
    struct db_claim c = {0};
    enum sk_err err;
    int tries = 0;

    if (!e->job_id[0] || !db_jobs_is_id(e->job_id)) {
        sk_log_warn("event=entry_malformed entry=%s", e->id);
        ack(w, e);
        return;
    }
    snprintf(owner, sizeof(owner), "%s/%lu", w->name, ++w->claims);
    do
        err = w->io->claim(w->db, e->job_id, w->name, owner, w->cfg->lease_ms, w->cfg->max_attempts,
                           &c);
    while (!*w->stop && again(w, err, &tries));
    if (err) {
        /* left pending: the reaper hands it to a worker once the lease time has passed */
        sk_log_warn("event=claim_failed job_id=%s err=%s", e->job_id, sk_err_str(err));
        return;
    }
    w->outage_ms = 0;
    if (c.state == DB_CLAIM_SKIPPED) {
        sk_log_debug("event=entry_skipped job_id=%s entry=%s", e->job_id, e->id);
        ack(w, e);
        return;
    }
    if (c.state == DB_CLAIM_ENDED) {
        sk_log_info("event=job_ended_at_claim job_id=%s", e->job_id);
        if (!c.parent[0]) /* shards are not announced: event streams show their job */
            worker_beat_notify(w, e->job_id, "status");
        ack(w, e);
        if (c.parent[0] && !c.unit) /* a canceled or exhausted shard may be its job's last */
            worker_shard_finish(w, c.parent);
        return;
    }
    sk_log_info("event=job_claimed job_id=%s attempt=%d kind=%s owner=%s", e->job_id, c.attempts,
                c.kind, owner);
    snprintf(w->job_id, sizeof(w->job_id), "%s", e->job_id);
    w->claimed_ms = sk_time_mono_ms();
    if (!c.parent[0])
        worker_beat_notify(w, e->job_id, "status");
    worker_beat(w, 1);
    {
        long long t0 = sk_time_mono_ms();
        enum outcome out = run_job(w, e, owner, &c);
        struct db_job job = {0};
        if (out != OUT_LOST)
            ack(w, e);
        if (!c.parent[0])
            worker_beat_notify(w, e->job_id, "status");
        if (out == OUT_DONE && c.parent[0] && !c.unit) /* the shard ended: its job? */
            worker_shard_finish(w, c.parent);
        /* only attempts that ended the job count as job durations (not retries, shards) */
        if (out == OUT_DONE && !c.parent[0] && w->io->get(w->db, e->job_id, &job) == SK_OK &&
            db_jobs_is_final(job.status))
            worker_beat_job_ended(w, c.kind, (double)(sk_time_mono_ms() - t0) / 1000.0);
        db_job_release(&job);
    }
    w->job_id[0] = '\0';
    worker_beat(w, 1);
    db_jobs_claim_release(&c);
}

/* Picks up a new current card catalog between jobs: on SIGHUP, and every
 * SKIRMISH_CATALOG_CHECK_MS when the catalog store may have a new one. */
static void catalogs_check(struct worker *w)
{
    int force = w->reload && *w->reload;
    long long now = sk_time_mono_ms();
    char err[1024], q[1100];
    int rc;

    if (!force && (w->cfg->catalog_check_ms <= 0 || now < w->next_catalog_ms))
        return;
    if (w->reload)
        *w->reload = 0;
    w->next_catalog_ms = now + w->cfg->catalog_check_ms;
    rc = job_catalogs_refresh(force, err, sizeof(err));
    if (rc > 0) {
        json_t *all = job_catalogs();
        sk_log_info("event=catalog_changed catalog=%s", json_string_value(json_array_get(all, 0)));
        json_decref(all);
        worker_beat(w, 1);
    } else if (rc < 0) {
        sk_log_error("event=catalog_refresh_failed err=%s", sk_log_quote(q, sizeof(q), err));
    }
}

enum sk_err worker_loop_run(struct worker *w)
{
    while (!*w->stop) {
        struct queue_entry e;
        int got = 0;
        enum sk_err err;

        catalogs_check(w);
        worker_beat(w, 0);
        if (sk_time_mono_ms() >= w->next_maint_ms) {
            struct queue_entry taken[REAP_MAX];
            size_t n = worker_reclaim_reap(w, taken, REAP_MAX);
            for (size_t i = 0; i < n && !*w->stop; i++)
                worker_loop_entry(w, &taken[i]);
            worker_reclaim_reconcile(w);
            w->next_maint_ms = sk_time_mono_ms() + w->cfg->reconcile_ms;
        }
        if (*w->stop)
            break;
        err = w->io->read(w->queue, w->name, w->cfg->block_ms, &e, &got);
        if (err) {
            if (!*w->stop)
                worker_loop_outage(w, "redis", w->io->queue_error(w->queue));
            continue;
        }
        w->outage_ms = 0;
        if (got)
            worker_loop_entry(w, &e);
    }
    worker_beat_drop(w);
    return SK_OK;
}
