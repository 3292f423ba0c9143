/* SPDX-License-Identifier: MIT */
/* An optimisation's units spread across workers (see worker_units.h). */
#include "worker_units.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "db_units.h"
#include "sk_buf.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_time.h"

#include "sk_banned.h"

/* The longest wait between two looks at the units others compute. */
#define POLL_MAX_MS 32
/* Tries of the delete of a call's rows (drop_rows). */
#define DROP_TRIES 4

/* One call: its units' keys, their rows as last read, which are done, and for a unit
 * whose bytes repeat an earlier one's, that one (same[i] < i). */
struct call {
    struct worker_units *u;
    const struct sk_buf *specs;
    struct sk_buf *results;
    job_unit_fn local;
    void *ctx;
    size_t n;
    char (*keys)[DB_UNITS_KEY_LEN];
    const char **key_ptrs;
    size_t *same;
    int *done;
    struct db_unit *rows;
};

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Renews the job's lease once a step's worth of time has passed since the last report or
 * renewal, with the progress last reported, and reads the cancel flag: SK_ECANCELED when a
 * cancel was requested, SK_ELEASE when the lease is lost. A store that does not answer is
 * no error here: the next renewal or report tries again. */
static enum sk_err keep_lease(struct worker_units *u)
{
    struct worker *w = u->w;
    struct db_progress pr = {u->from, NULL, 0, NULL};
    long long now = sk_time_mono_ms();
    int cancel = 0;
    enum sk_err rc;

    if (now < u->renew_at_ms)
        return SK_OK;
    u->renew_at_ms = now + u->renew_ms;
    rc = w->io->progress(w->db, u->job_id, u->owner, u->done, &pr, w->cfg->lease_ms, &cancel);
    if (rc == SK_ELEASE)
        return rc;
    if (!rc && cancel) {
        sk_log_info("event=units_canceled job_id=%s", u->job_id);
        return SK_ECANCELED;
    }
    return SK_OK;
}

/* Unit i computed here, the lease renewed first when due. */
static enum sk_err here(struct call *c, size_t i)
{
    enum sk_err rc = keep_lease(c->u);

    if (rc)
        return rc;
    sk_buf_release(&c->results[i]);
    rc = c->local(c->ctx, i, &c->results[i]);
    if (!rc)
        c->done[i] = 1;
    return rc;
}

/* Takes unit i's stored result; 1 when it had one. */
static int stored(struct call *c, size_t i, uint64_t games)
{
    struct db_unit *r = &c->rows[i];

    if (!r->result)
        return 0;
    sk_buf_release(&c->results[i]);
    if (sk_buf_add(&c->results[i], r->result, r->result_len))
        return 0; /* memory: computed here instead */
    c->done[i] = 1;
    c->u->elsewhere += games;
    return 1;
}

/* Claims unit i (so no other worker starts it) and computes it. Its result is not stored:
 * the call's rows are deleted once it has every result, and writing it would cost a third
 * of a unit's store time for the one case it serves, a coordinator dying in this very call.
 * A unit another worker took meanwhile, or one that may not be claimed now (canceled,
 * waiting for a retry), is left to the wait; one this claim could not reach (the store) is
 * computed here all the same. */
static enum sk_err claim_own(struct call *c, size_t i)
{
    struct worker *w = c->u->w;
    char owner[200];
    int got = 0;
    enum sk_err rc;

    snprintf(owner, sizeof(owner), "%s/u%zu", c->u->owner, i);
    rc = w->io->units_claim(w->db, c->rows[i].id, owner, w->cfg->lease_ms, &got);
    if (rc == SK_ENOMEM)
        return rc;
    if (!rc && !got)
        return SK_OK; /* another worker's: wait_others */
    return here(c, i);
}

/* Inserts the call's distinct units and enqueues the new ones. SK_ELEASE, SK_ENOMEM, or
 * another store error (the caller then computes them all). */
static enum sk_err insert(struct call *c, const uint64_t *games)
{
    struct worker *w = c->u->w;
    struct db_unit_new *news = sk_calloc(c->n, sizeof(*news));
    char **ids = NULL;
    size_t k = 0;
    enum sk_err rc;

    if (!news)
        return SK_ENOMEM;
    for (size_t i = 0; i < c->n; i++)
        if (c->same[i] == i)
            news[k++] = (struct db_unit_new){c->keys[i], c->specs[i].p, c->specs[i].len, games[i]};
    rc = w->io->units_add(w->db, c->u->job_id, c->u->owner, news, k, &ids);
    for (size_t i = 0; !rc && ids[i]; i++)
        if (w->io->add(w->queue, ids[i], 1))
            sk_log_warn("event=enqueue_deferred job_id=%s", ids[i]); /* the reconciler will */
    db_jobs_free_ids(ids);
    sk_free(news);
    return rc;
}

/* The keys of the units not done yet (distinct ones), into key_ptrs; their count. */
static size_t pending(struct call *c, size_t *which)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->same[i] == i && !c->done[i]) {
            which[k] = i;
            c->key_ptrs[k++] = c->keys[i];
        }
    return k;
}

/* Reads the rows of the pending units into rows[] (by unit index). */
static enum sk_err read_rows(struct call *c, size_t *which, size_t *k)
{
    struct worker *w = c->u->w;
    struct db_unit *got;
    enum sk_err rc;

    *k = pending(c, which);
    if (*k == 0)
        return SK_OK;
    got = sk_calloc(*k, sizeof(*got));
    if (!got)
        return SK_ENOMEM;
    rc = w->io->units_get(w->db, c->u->job_id, c->key_ptrs, *k, got);
    for (size_t j = 0; !rc && j < *k; j++) {
        db_units_release(&c->rows[which[j]], 1);
        c->rows[which[j]] = got[j];
        got[j].result = NULL;
    }
    db_units_release(got, *k);
    sk_free(got);
    return rc;
}

/* A unit with no row (deleted, never inserted) or one that ended without a result will
 * never get one from another worker. */
static int hopeless(const struct db_unit *r)
{
    return !r->id[0] ||
           (strcmp(r->status, "queued") != 0 && strcmp(r->status, "running") != 0 && !r->result);
}

/* The coordinator's share: every unit with a stored result taken, every unit no other
 * worker holds claimed and computed, in order. */
static enum sk_err own_share(struct call *c, const uint64_t *games, size_t *which)
{
    size_t k;
    enum sk_err rc = read_rows(c, which, &k);

    for (size_t j = 0; !rc && j < k; j++) {
        size_t i = which[j];
        if (stored(c, i, games[i]))
            continue;
        rc = hopeless(&c->rows[i]) ? here(c, i) : claim_own(c, i);
    }
    return rc;
}

/* Waits for the units other workers hold, up to an eighth of the lease (the job's lease is
 * renewed between steps only); what is still missing then is computed here. */
static enum sk_err wait_others(struct call *c, const uint64_t *games, size_t *which)
{
    struct worker *w = c->u->w;
    long long deadline = sk_time_mono_ms() + w->cfg->lease_ms / 8;
    long nap = 1;
    size_t k = 0;
    enum sk_err rc = SK_OK;

    while (!rc && pending(c, which) > 0 && sk_time_mono_ms() < deadline && !*w->stop) {
        sleep_ms(nap);
        nap = nap * 2 > POLL_MAX_MS ? POLL_MAX_MS : nap * 2;
        rc = keep_lease(c->u);
        if (rc)
            return rc;
        rc = read_rows(c, which, &k);
        for (size_t j = 0; !rc && j < k; j++) {
            size_t i = which[j];
            if (!stored(c, i, games[i]) && hopeless(&c->rows[i]))
                rc = here(c, i);
        }
    }
    if (rc == SK_ECANCELED || rc == SK_ELEASE)
        return rc;
    if (rc && rc != SK_ENOMEM)
        rc = SK_OK; /* the store: what is missing is computed below */
    k = pending(c, which);
    for (size_t j = 0; !rc && j < k; j++)
        rc = here(c, which[j]);
    return rc;
}

/* Deletes the call's rows, tried again after a conflict (a cancel flagging them at the same
 * moment can make this delete the victim of a deadlock) or a lost connection. What still
 * fails is logged and left to the job's end, which deletes every unit row it has left. */
static void drop_rows(struct call *c)
{
    struct worker *w = c->u->w;
    enum sk_err rc;

    for (size_t i = 0; i < c->n; i++)
        c->key_ptrs[i] = c->keys[i];
    for (int tries = 1;; tries++) {
        rc = w->io->units_drop(w->db, c->u->job_id, c->key_ptrs, c->n);
        if ((rc != SK_ERETRY && rc != SK_EUNAVAIL) || tries == DROP_TRIES)
            break;
        sleep_ms(10L * tries);
    }
    if (rc)
        sk_log_warn("event=units_drop_failed job_id=%s units=%zu err=%s", c->u->job_id, c->n,
                    sk_err_str(rc));
}

/* Sets up the call's keys and repeats; SK_ENOMEM. */
static enum sk_err call_init(struct call *c)
{
    c->keys = sk_calloc(c->n, sizeof(*c->keys));
    c->key_ptrs = sk_calloc(c->n, sizeof(*c->key_ptrs));
    c->same = sk_calloc(c->n, sizeof(*c->same));
    c->done = sk_calloc(c->n, sizeof(*c->done));
    c->rows = sk_calloc(c->n, sizeof(*c->rows));
    if (!c->keys || !c->key_ptrs || !c->same || !c->done || !c->rows)
        return SK_ENOMEM;
    for (size_t i = 0; i < c->n; i++) {
        db_units_key(c->specs[i].p, c->specs[i].len, c->keys[i]);
        c->same[i] = i;
        for (size_t j = 0; j < i; j++)
            if (strcmp(c->keys[j], c->keys[i]) == 0 && c->specs[j].len == c->specs[i].len &&
                memcmp(c->specs[j].p, c->specs[i].p, c->specs[i].len) == 0) {
                c->same[i] = j;
                break;
            }
    }
    return SK_OK;
}

static void call_free(struct call *c)
{
    db_units_release(c->rows, c->n);
    sk_free(c->rows);
    sk_free(c->done);
    sk_free(c->same);
    sk_free(c->key_ptrs);
    sk_free(c->keys);
}

/* job_spread.units for the coordinator (see worker_units.h). */
static enum sk_err spread_units(void *arg, const struct sk_buf *specs, const uint64_t *games,
                                size_t n, struct sk_buf *results, job_unit_fn local, void *ctx,
                                char *err, size_t errlen)
{
    struct worker_units *u = arg;
    struct call c = {u, specs, results, local, ctx, n, NULL, NULL, NULL, NULL, NULL};
    size_t *which = sk_calloc(n, sizeof(*which));
    enum sk_err rc = which ? call_init(&c) : SK_ENOMEM;

    if (!rc)
        rc = insert(&c, games);
    if (rc == SK_ELEASE) {
        snprintf(err, errlen, "the job's lease was lost while handing out its units");
    } else if (rc && rc != SK_ENOMEM) {
        /* the store: every unit is computed here, as without a spread */
        sk_log_warn("event=units_local job_id=%s units=%zu err=%s", u->job_id, n, sk_err_str(rc));
        rc = SK_OK;
        for (size_t i = 0; !rc && i < n; i++)
            if (c.same[i] == i)
                rc = here(&c, i);
    } else if (!rc) {
        rc = own_share(&c, games, which);
        if (rc != SK_ENOMEM && rc != SK_ECANCELED && rc != SK_ELEASE)
            /* the store: what is missing is computed by wait_others */
            rc = wait_others(&c, games, which);
        /* keep_lease's: the call ends, its units are dropped below */
        if (rc == SK_ECANCELED)
            snprintf(err, errlen, "the job was canceled while its units ran");
        else if (rc == SK_ELEASE)
            snprintf(err, errlen, "the job's lease was lost while its units ran");
    }
    for (size_t i = 0; !rc && i < n; i++)
        if (c.same[i] != i && sk_buf_add(&results[i], results[c.same[i]].p, results[c.same[i]].len))
            rc = SK_ENOMEM;
    if (c.keys && c.key_ptrs)
        drop_rows(&c);
    call_free(&c);
    sk_free(which);
    return rc;
}

void worker_units_init(struct worker_units *u, struct worker *w, const char *job_id,
                       const char *owner)
{
    u->w = w;
    u->job_id = job_id;
    u->owner = owner;
    u->elsewhere = 0;
    u->spread = (struct job_spread){(uint64_t)w->cfg->opt_unit_games, u, spread_units};
    u->from = u->done = 0;
    u->renew_ms = w->cfg->lease_ms / 4;
    u->renew_at_ms = sk_time_mono_ms() + u->renew_ms;
}

void worker_units_progress(struct worker_units *u, uint64_t from, uint64_t done, long renew_ms)
{
    u->from = from;
    u->done = done;
    u->renew_ms = renew_ms;
    u->renew_at_ms = sk_time_mono_ms() + renew_ms;
}

uint64_t worker_units_here(struct worker_units *u, uint64_t units)
{
    uint64_t here_units = u->elsewhere < units ? units - u->elsewhere : 0;
    u->elsewhere = 0;
    return here_units;
}
