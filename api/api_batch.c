/* SPDX-License-Identifier: MIT */
/* Group commit of submissions (see api_batch.h). */
#include "api_batch.h"

#include <pthread.h>
#include <string.h>

#include "db.h"
#include "sk_log.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* A request waiting for its row; lives on the request thread's stack. */
struct item {
    struct db_jobs_new row;
    enum sk_err err;
    int done;
    struct item *next;
};

struct api_batch {
    /* protects head, tail, stop and every waiting item's err/done/next; the inserter
     * never holds it while talking to PostgreSQL */
    pthread_mutex_t lock;
    pthread_cond_t work; /* signalled when an item is queued or on stop */
    pthread_cond_t done; /* broadcast when a batch has finished */
    struct item *head, *tail;
    int stop;
    size_t max_rows;
    struct db *db; /* used by the inserter thread only */
    pthread_t thread;
};

static void *inserter(void *arg)
{
    struct api_batch *b = arg;
    struct db_jobs_new *rows = sk_calloc(b->max_rows, sizeof(*rows));
    struct item **items = sk_calloc(b->max_rows, sizeof(struct item *));

    pthread_mutex_lock(&b->lock);
    for (;;) {
        size_t n = 0;
        enum sk_err err;
        while (!b->head && !b->stop)
            pthread_cond_wait(&b->work, &b->lock);
        if (b->stop)
            break;
        while (b->head && n < b->max_rows && rows && items) {
            items[n] = b->head;
            b->head = b->head->next;
            rows[n] = items[n]->row;
            n++;
        }
        if (!b->head)
            b->tail = NULL;
        pthread_mutex_unlock(&b->lock);
        err = rows && items ? db_jobs_insert_many(b->db, rows, n) : SK_ENOMEM;
        pthread_mutex_lock(&b->lock);
        for (size_t i = 0; i < n; i++) {
            items[i]->err = err;
            items[i]->row.got = !err && rows[i].got;
            items[i]->row.job = rows[i].job;
            items[i]->done = 1;
        }
        pthread_cond_broadcast(&b->done);
        if (!rows || !items)
            break; /* out of memory at start: requests fail rather than hang */
    }
    /* stopping: whoever is still waiting gets an error */
    for (struct item *it = b->head; it; it = it->next) {
        it->err = SK_EUNAVAIL;
        it->done = 1;
    }
    b->head = b->tail = NULL;
    b->stop = 1;
    pthread_cond_broadcast(&b->done);
    pthread_mutex_unlock(&b->lock);
    sk_free(rows);
    sk_free(items);
    return NULL;
}

enum sk_err api_batch_new(const char *db_url, size_t max_rows, struct api_batch **out)
{
    struct api_batch *b = sk_calloc(1, sizeof(*b));
    enum sk_err err;

    if (!b)
        return SK_ENOMEM;
    b->max_rows = max_rows ? max_rows : 1;
    err = db_new(db_url, &b->db);
    if (err) {
        sk_free(b);
        return err;
    }
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->work, NULL);
    pthread_cond_init(&b->done, NULL);
    if (pthread_create(&b->thread, NULL, inserter, b)) {
        pthread_mutex_destroy(&b->lock);
        pthread_cond_destroy(&b->work);
        pthread_cond_destroy(&b->done);
        db_free(b->db);
        sk_free(b);
        return SK_ENOMEM;
    }
    *out = b;
    return SK_OK;
}

void api_batch_free(struct api_batch *b)
{
    if (!b)
        return;
    pthread_mutex_lock(&b->lock);
    b->stop = 1;
    pthread_cond_signal(&b->work);
    pthread_mutex_unlock(&b->lock);
    pthread_join(b->thread, NULL);
    pthread_mutex_destroy(&b->lock);
    pthread_cond_destroy(&b->work);
    pthread_cond_destroy(&b->done);
    db_free(b->db);
    sk_free(b);
}

enum sk_err api_batch_insert(struct api_batch *b, const char *tenant, const char *kind,
                             const char *request, uint64_t seed, uint64_t total, long long cost_ms,
                             struct db_job *out)
{
    struct item it;

    memset(&it, 0, sizeof(it));
    it.row.cost_ms = cost_ms;
    it.row.tenant = tenant;
    it.row.kind = kind;
    it.row.request = request;
    it.row.seed = seed;
    it.row.total = total;
    db_jobs_new_id(it.row.id);
    pthread_mutex_lock(&b->lock);
    if (b->stop) {
        pthread_mutex_unlock(&b->lock);
        return SK_EUNAVAIL;
    }
    if (b->tail)
        b->tail->next = &it;
    else
        b->head = &it;
    b->tail = &it;
    pthread_cond_signal(&b->work);
    while (!it.done)
        pthread_cond_wait(&b->done, &b->lock);
    pthread_mutex_unlock(&b->lock);
    if (it.err)
        return it.err;
    *out = it.row.job;
    return SK_OK;
}
