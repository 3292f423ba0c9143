/* SPDX-License-Identifier: MIT */
/* Reaper and reconciler (see worker_reclaim.h). */
#include "worker_reclaim.h"

#include <stdlib.h>
#include <string.h>

#include "db_jobs.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "worker_shard.h"

#include "sk_banned.h"

/* Consumers of workers gone this long (an hour, or ten leases) with nothing pending are
 * deleted from the group. */
#define CONSUMER_GONE_MS 3600000L

size_t worker_reclaim_reap(struct worker *w, struct queue_entry *out, size_t max)
{
    size_t n = 0, got = 0;
    enum sk_err err = w->io->autoclaim(w->queue, w->name, w->cfg->lease_ms, out, max, &got);

    if (err) {
        sk_log_warn("event=reap_failed err=%s", sk_err_str(err));
        return 0;
    }
    for (size_t i = 0; i < got; i++)
        sk_log_info("event=entry_reclaimed job_id=%s entry=%s", out[i].job_id, out[i].id);
    if (w->io->prune_consumers(w->queue,
                               w->cfg->lease_ms * 10 > CONSUMER_GONE_MS ? w->cfg->lease_ms * 10
                                                                        : CONSUMER_GONE_MS,
                               &n) == SK_OK &&
        n)
        sk_log_info("event=consumers_pruned count=%zu", n);
    return got;
}

/* The job ids now in the stream, sorted for bsearch. */
struct id_set {
    char (*ids)[DB_JOBS_ID_LEN];
    size_t n, cap;
    int oom;
};

static void add_id(const char *id, void *arg)
{
    struct id_set *s = arg;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        void *p = sk_realloc(s->ids, cap * sizeof(*s->ids));
        if (!p) {
            s->oom = 1;
            return;
        }
        s->ids = p;
        s->cap = cap;
    }
    memset(s->ids[s->n], 0, DB_JOBS_ID_LEN);
    memcpy(s->ids[s->n], id, strnlen(id, DB_JOBS_ID_LEN - 1));
    s->n++;
}

static int cmp_id(const void *a, const void *b)
{
    return strcmp(a, b);
}

struct reconcile {
    struct worker *w;
    struct id_set *in_stream;
    size_t added;
};

static void maybe_enqueue(const char *id, int attempts, void *arg)
{
    struct reconcile *r = arg;
    char key[DB_JOBS_ID_LEN] = {0};
    memcpy(key, id, strnlen(id, DB_JOBS_ID_LEN - 1));
    if (r->in_stream->n && bsearch(key, r->in_stream->ids, r->in_stream->n, DB_JOBS_ID_LEN, cmp_id))
        return;
    if (r->w->io->add(r->w->queue, id, attempts + 1) == SK_OK) {
        r->added++;
        sk_log_info("event=job_reenqueued job_id=%s attempt=%d", id, attempts + 1);
    }
}

size_t worker_reclaim_reconcile(struct worker *w)
{
    struct id_set set = {0};
    struct reconcile r = {w, &set, 0};
    int got = 0;
    enum sk_err err = w->io->lock(w->queue, "reconcile", w->cfg->reconcile_ms, &got);

    if (err || !got)
        return 0;
    /* Read the stream first: an entry added after this scan belongs to a job that is
     * already older than the age threshold only if its XADD was really late. */
    err = w->io->scan(w->queue, add_id, &set);
    if (err || set.oom) {
        sk_log_warn("event=reconcile_failed stage=scan err=%s", sk_err_str(err));
        goto out;
    }
    if (set.n)
        qsort(set.ids, set.n, DB_JOBS_ID_LEN, cmp_id);
    err = w->io->dispatchable(w->db, w->cfg->reconcile_age_ms, 1000, maybe_enqueue, &r);
    if (err)
        sk_log_warn("event=reconcile_failed stage=select err=%s", sk_err_str(err));
    /* split jobs whose last shard's worker died before it could end them */
    (void)worker_shard_reconcile(w, 16);
out:
    sk_free(set.ids);
    return r.added;
}
