/* SPDX-License-Identifier: MIT */
/* Tests of store/ against the harness's PostgreSQL and Redis (scripts/test.sh): SQLSTATE
 * classification and db_run_tx retries, the lease fencing of every job write (a worker
 * that lost its lease can write nothing), claims of queued, delayed, expired, canceled
 * and exhausted jobs, cancellation, the reconciler's selection, and the stream adapter
 * (ownership-checked renewal, ack+delete, autoclaim, group re-creation). Each run uses a
 * fresh database and key prefix. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "db_jobs.h"
#include "db_keys.h"
#include "db_migrate.h"
#include "db_units.h"
#include "queue.h"
#include "queue_notify.h"
#include "queue_telemetry.h"
#include "sk_mem.h"

static char db_url[512];
static char base_url[512];
static char dbname[64];
static char prefix[64];
static struct db *db;

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int exec_on(const char *url, const char *sql)
{
    struct db *d = NULL;
    int rc = db_new(url, &d) || db_exec(d, NULL, sql, 0, NULL, NULL);
    db_free(d);
    return rc;
}

static int setup(void)
{
    const char *url = getenv("SKIRMISH_DATABASE_URL");
    const char *slash = url ? strrchr(url, '/') : NULL;
    char sql[128];
    char err[256];

    sk_mem_init_json();
    if (!slash || !getenv("SKIRMISH_REDIS_URL")) {
        fprintf(stderr, "test_store needs SKIRMISH_DATABASE_URL and SKIRMISH_REDIS_URL: run "
                        "it through scripts/test.sh\n");
        return 1;
    }
    snprintf(base_url, sizeof(base_url), "%s", url);
    snprintf(dbname, sizeof(dbname), "sk_store_%d", (int)getpid());
    snprintf(prefix, sizeof(prefix), "store_%d", (int)getpid());
    snprintf(db_url, sizeof(db_url), "%.*s/%s", (int)(slash - url), url, dbname);
    snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s", dbname);
    if (exec_on(base_url, sql))
        return 1;
    snprintf(sql, sizeof(sql), "CREATE DATABASE %s", dbname);
    if (exec_on(base_url, sql) || db_new(db_url, &db))
        return 1;
    return db_migrate_apply(db, db_migrate_all, db_migrate_count, NULL, err, sizeof(err)) != SK_OK;
}

static int teardown(void)
{
    char sql[128];
    db_free(db);
    snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s WITH (FORCE)", dbname);
    return exec_on(base_url, sql);
}

static void test_sqlstate_classes(void)
{
    struct db *down = NULL;
    CU_ASSERT_EQUAL(db_exec(db, NULL,
                            "DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '40001'; END $$", 0,
                            NULL, NULL),
                    SK_ERETRY);
    CU_ASSERT_EQUAL(db_exec(db, NULL,
                            "DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '40P01'; END $$", 0,
                            NULL, NULL),
                    SK_ERETRY);
    CU_ASSERT_EQUAL(db_exec(db, NULL, "SELECT 'x'::timestamptz", 0, NULL, NULL), SK_EINVAL);
    CU_ASSERT_EQUAL(db_exec(db, NULL, "SELEC 1", 0, NULL, NULL), SK_EINTERNAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(db_error(db), "syntax error"));
    CU_ASSERT_EQUAL(db_ping(db), SK_OK); /* the connection survived every error */
    /* a server that is not there: the handle exists, every call is SK_EUNAVAIL */
    CU_ASSERT_EQUAL_FATAL(db_new("postgresql://postgres@127.0.0.1:1/x?connect_timeout=1", &down),
                          SK_OK);
    CU_ASSERT_EQUAL(db_ping(down), SK_EUNAVAIL);
    CU_ASSERT_EQUAL(db_exec(down, NULL, "SELECT 1", 0, NULL, NULL), SK_EUNAVAIL);
    db_free(down);
}

static int tx_calls;
static enum sk_err conflict_twice(struct db *d, void *arg)
{
    (void)arg;
    tx_calls++;
    if (tx_calls <= 2)
        return db_exec(d, NULL, "DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '40001'; END $$",
                       0, NULL, NULL);
    return db_exec(d, NULL, "CREATE TABLE IF NOT EXISTS tx_probe (n int)", 0, NULL, NULL);
}

static void test_run_tx_retries(void)
{
    tx_calls = 0;
    CU_ASSERT_EQUAL(db_run_tx(db, 2, conflict_twice, NULL), SK_ERETRY);
    CU_ASSERT_EQUAL(tx_calls, 2);
    tx_calls = 0;
    CU_ASSERT_EQUAL(db_run_tx(db, 3, conflict_twice, NULL), SK_OK);
    CU_ASSERT_EQUAL(tx_calls, 3);
    CU_ASSERT_EQUAL(db_exec(db, NULL, "SELECT count(*) FROM tx_probe", 0, NULL, NULL), SK_OK);
}

static void insert(char id[DB_JOBS_ID_LEN])
{
    struct db_job job = {0};
    CU_ASSERT_EQUAL_FATAL(
        db_jobs_insert(db, NULL, "battle", "{\"kind\":\"battle\"}", 7, 100, 250, &job), SK_OK);
    CU_ASSERT_STRING_EQUAL(job.status, "queued");
    CU_ASSERT_EQUAL(job.cost_estimate_ms, 250);
    CU_ASSERT_EQUAL(job.cpu_ms, 0);
    CU_ASSERT_STRING_EQUAL(job.kind, "battle");
    CU_ASSERT_EQUAL(job.seed, 7);
    CU_ASSERT_EQUAL(job.total, 100);
    CU_ASSERT_EQUAL(job.attempts, 0);
    CU_ASSERT_EQUAL(job.n_workers, 0);
    CU_ASSERT_PTR_NULL(job.error);
    CU_ASSERT_STRING_EQUAL(job.started_at, "");  /* SQL NULL */
    CU_ASSERT_EQUAL(strlen(job.created_at), 27); /* 2026-01-02T03:04:05.678901Z */
    CU_ASSERT_TRUE(db_jobs_is_id(job.id));
    snprintf(id, DB_JOBS_ID_LEN, "%s", job.id);
    db_job_release(&job);
}

/* The row of `id`, whose status becomes `status`. */
static void get(const char *id, struct db_job *job, char status[16])
{
    CU_ASSERT_EQUAL_FATAL(db_jobs_get(db, id, job), SK_OK);
    snprintf(status, 16, "%s", job->status);
}

static void test_lease_fencing(void)
{
    char id[DB_JOBS_ID_LEN];
    struct db_claim c = {0};
    int cancel = -1;
    char *json = NULL;
    char status[16];

    insert(id);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w1", "w1/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_RUNNING);
    CU_ASSERT_EQUAL(c.attempts, 1);
    CU_ASSERT_STRING_EQUAL(c.kind, "battle");
    CU_ASSERT_STRING_EQUAL(c.request, "{\"kind\": \"battle\"}");
    db_jobs_claim_release(&c);
    /* a second claim while the lease is valid gets nothing */
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w2", "w2/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_SKIPPED);
    /* nobody but the holder can write */
    CU_ASSERT_EQUAL(db_jobs_progress(db, id, "w2/1", 50, NULL, 60000, &cancel), SK_ELEASE);
    CU_ASSERT_EQUAL(db_jobs_succeed(db, id, "w2/1", "{\"r\":2}"), SK_ELEASE);
    CU_ASSERT_EQUAL(db_jobs_fail(db, id, "w2/1", "x", "x"), SK_ELEASE);
    CU_ASSERT_EQUAL(db_jobs_progress(db, id, "w1/1", 50, NULL, 60000, &cancel), SK_OK);
    CU_ASSERT_EQUAL(cancel, 0);
    CU_ASSERT_EQUAL(db_jobs_succeed(db, id, "w1/1", "{\"r\":1}"), SK_OK);
    /* final: the holder itself cannot write twice, and a redelivery claims nothing */
    CU_ASSERT_EQUAL(db_jobs_succeed(db, id, "w1/1", "{\"r\":3}"), SK_ELEASE);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w3", "w3/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_SKIPPED);
    CU_ASSERT_EQUAL(db_jobs_result(db, id, &json, status), SK_OK);
    CU_ASSERT_STRING_EQUAL(json, "{\"r\":1}"); /* stored exactly as written (json, 0002) */
    sk_free(json);
}

static void test_expired_lease_moves_on(void)
{
    char status[16];
    char id[DB_JOBS_ID_LEN];
    struct db_claim c = {0};
    int cancel = 0;
    struct db_job job = {0};

    insert(id);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w1", "w1/1", 1, 5, &c), SK_OK); /* 1 ms lease */
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_RUNNING);
    db_jobs_claim_release(&c);
    sleep_ms(20);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w2", "w2/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_RUNNING);
    CU_ASSERT_EQUAL(c.attempts, 2);
    db_jobs_claim_release(&c);
    /* the first worker woke up late: fenced off */
    CU_ASSERT_EQUAL(db_jobs_progress(db, id, "w1/1", 10, NULL, 60000, &cancel), SK_ELEASE);
    CU_ASSERT_EQUAL(db_jobs_succeed(db, id, "w1/1", "{}"), SK_ELEASE);
    CU_ASSERT_EQUAL(db_jobs_succeed(db, id, "w2/1", "{}"), SK_OK);
    get(id, &job, status);
    CU_ASSERT_STRING_EQUAL(status, "succeeded");
    CU_ASSERT_TRUE(db_jobs_is_final(status));
    CU_ASSERT_EQUAL(job.attempts, 2);
    /* fault 3: the job names the worker of each attempt */
    CU_ASSERT_EQUAL_FATAL(job.n_workers, 2);
    CU_ASSERT_STRING_EQUAL(job.workers[0], "w1");
    CU_ASSERT_STRING_EQUAL(job.workers[1], "w2");
    /* the first attempt ended when its worker stopped renewing the lease; the second
     * succeeded */
    CU_ASSERT_EQUAL_FATAL(job.n_errors, 2);
    CU_ASSERT_STRING_EQUAL(job.errors[0], DB_JOBS_LEASE_EXPIRED);
    CU_ASSERT_PTR_NULL(job.errors[1]);
    CU_ASSERT_PTR_NULL(job.error);
    db_job_release(&job);
}

/* The SQL expression `expr` over job `id`'s row, as text in `out`; 0 on success. */
static int column_text(const char *id, const char *expr, char *out, size_t len)
{
    char sql[256];
    struct db_result *r = NULL;
    int rc;

    snprintf(sql, sizeof(sql), "SELECT %s FROM jobs WHERE id = $1::uuid", expr);
    rc = db_exec(db, NULL, sql, 1, &id, &r) != SK_OK || db_result_rows(r) != 1;
    if (!rc)
        snprintf(out, len, "%s", db_result_get(r, 0, 0) ? db_result_get(r, 0, 0) : "");
    db_result_free(r);
    return rc;
}

/* Resume: a checkpoint is stored with progress by the lease holder only; the claim after
 * the lease expired hands it out with its units; a report without one keeps it; a retry
 * and a release keep it; the end of the job drops it. */
static void test_checkpoint_under_lease(void)
{
    static const unsigned char a[] = {0, 1, 2, 0xfe, 0xff, 'x'};
    static const unsigned char b[] = {9, 8, 7};
    struct db_progress pa = {0, a, sizeof(a), NULL};
    struct db_progress pb = {0, b, sizeof(b), NULL};
    struct db_progress none = {40, NULL, 0, NULL};
    char id[DB_JOBS_ID_LEN];
    char v[64];
    struct db_claim c = {0};
    int cancel = 0;

    insert(id);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w1", "w1/1", 1, 5, &c), SK_OK);
    CU_ASSERT_PTR_NULL(c.checkpoint); /* nothing stored yet: from zero */
    db_jobs_claim_release(&c);
    sleep_ms(20);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w2", "w2/1", 1, 5, &c), SK_OK);
    db_jobs_claim_release(&c);
    /* the stale holder's checkpoint is refused, the holder's stored */
    CU_ASSERT_EQUAL(db_jobs_progress(db, id, "w1/1", 30, &pb, 1, &cancel), SK_ELEASE);
    CU_ASSERT_EQUAL(db_jobs_progress(db, id, "w2/1", 20, &pa, 1, &cancel), SK_OK);
    CU_ASSERT_EQUAL(db_jobs_progress(db, id, "w2/1", 25, NULL, 1, &cancel), SK_OK);
    sleep_ms(20);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w3", "w3/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_RUNNING);
    CU_ASSERT_EQUAL(c.checkpoint_done, 20);
    CU_ASSERT_EQUAL_FATAL(c.checkpoint_len, sizeof(a));
    CU_ASSERT_EQUAL(memcmp(c.checkpoint, a, sizeof(a)), 0);
    db_jobs_claim_release(&c);
    CU_ASSERT_EQUAL(column_text(id, "progress_done::text", v, sizeof(v)), 0);
    CU_ASSERT_STRING_EQUAL(v, "20"); /* the new attempt starts at the checkpoint */
    /* a report without a checkpoint keeps the stored one and records where it started */
    CU_ASSERT_EQUAL(db_jobs_progress(db, id, "w3/1", 40, &none, 60000, &cancel), SK_OK);
    CU_ASSERT_EQUAL(column_text(id, "checkpoint_done || ' ' || resumed_from", v, sizeof(v)), 0);
    CU_ASSERT_STRING_EQUAL(v, "20 40");
    CU_ASSERT_EQUAL(db_jobs_retry(db, id, "w3/1", 0, "device lost"), SK_OK);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w4", "w4/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.checkpoint_done, 20);
    CU_ASSERT_EQUAL(c.checkpoint_len, sizeof(a));
    db_jobs_claim_release(&c);
    CU_ASSERT_EQUAL(db_jobs_release(db, id, "w4/1"), SK_OK);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w5", "w5/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.checkpoint_len, sizeof(a));
    db_jobs_claim_release(&c);
    CU_ASSERT_EQUAL(db_jobs_succeed(db, id, "w5/1", "{}"), SK_OK);
    CU_ASSERT_EQUAL(column_text(id, "(checkpoint IS NULL)::text", v, sizeof(v)), 0);
    CU_ASSERT_STRING_EQUAL(v, "true");
}

/* A progress detail (0011) is stored with a report by the lease holder, kept by a report
 * without one, and read back with the job. */
static void test_progress_detail(void)
{
    struct db_progress with = {0, NULL, 0, "{\"best\": \"A, B\", \"games\": 64}"};
    struct db_progress without = {0, NULL, 0, NULL};
    char id[DB_JOBS_ID_LEN];
    struct db_claim c = {0};
    struct db_job j = {0};
    json_t *d;
    int cancel = 0;

    insert(id);
    CU_ASSERT_EQUAL(db_jobs_get(db, id, &j), SK_OK);
    CU_ASSERT_PTR_NULL(j.detail); /* none before a report */
    db_job_release(&j);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w1", "w1/1", 60000, 5, &c), SK_OK);
    db_jobs_claim_release(&c);
    CU_ASSERT_EQUAL(db_jobs_progress(db, id, "w1/1", 10, &with, 60000, &cancel), SK_OK);
    CU_ASSERT_EQUAL(db_jobs_progress(db, id, "w1/1", 20, &without, 60000, &cancel), SK_OK);
    CU_ASSERT_EQUAL(db_jobs_get(db, id, &j), SK_OK);
    CU_ASSERT_EQUAL(j.done, 20);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j.detail);
    d = json_loads(j.detail, 0, NULL);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(d, "best")), "A, B");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "games")), 64);
    json_decref(d);
    db_job_release(&j);
    CU_ASSERT_PTR_NULL(j.detail);
}

static void count_id(const char *id, int attempts, void *arg)
{
    (void)id, (void)attempts;
    ++*(int *)arg;
}

/* Shards: only the lease holder splits; the split job is never claimed or dispatched
 * again; its progress is its shards' sum; a shard ends with its checkpoint; the job is
 * ready to end when every shard has, and ends once; shards are not listed. */
static const char missing_id[] = "00000000-0000-4000-8000-000000000000";

static void test_split_into_shards(void)
{
    static const unsigned char ck[] = {1, 2, 3};
    char id[DB_JOBS_ID_LEN];
    char **ids = NULL;
    struct db_claim c = {0};
    struct db_shard *sh = NULL;
    struct db_job *items = NULL;
    size_t n_items = 0;
    uint64_t done = 0, total = 0;
    int n = 0, more = 0, cancel = 0, ended = -1, ready = 0;

    insert(id); /* 100 units */
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w1", "w1/1", 60000, 5, &c), SK_OK);
    db_jobs_claim_release(&c);
    CU_ASSERT_EQUAL(db_jobs_split(db, id, "w9/1", 40, 3, &ids), SK_ELEASE);
    CU_ASSERT_EQUAL_FATAL(db_jobs_split(db, id, "w1/1", 40, 3, &ids), SK_OK);
    CU_ASSERT_PTR_NULL(ids[3]);
    /* the split job: running, no lease, never claimed again */
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w2", "w2/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_SKIPPED);
    /* shard 2 holds units 40..79 of the same document */
    CU_ASSERT_EQUAL(db_jobs_claim(db, ids[1], "w2", "w2/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_RUNNING);
    CU_ASSERT_STRING_EQUAL(c.parent, id);
    CU_ASSERT_EQUAL(c.first, 40);
    CU_ASSERT_EQUAL(c.units, 40);
    CU_ASSERT_STRING_EQUAL(c.request, "{\"kind\": \"battle\"}");
    db_jobs_claim_release(&c);
    CU_ASSERT_EQUAL(db_jobs_claim(db, ids[2], "w3", "w3/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.units, 20); /* the last takes what is left */
    db_jobs_claim_release(&c);
    CU_ASSERT_EQUAL(db_jobs_progress(db, ids[1], "w2/1", 10, NULL, 60000, &cancel), SK_OK);
    CU_ASSERT_EQUAL(db_jobs_progress(db, ids[2], "w3/1", 5, NULL, 60000, &cancel), SK_OK);
    CU_ASSERT_EQUAL(db_jobs_parent_progress(db, id, &done, &total), SK_OK);
    CU_ASSERT_EQUAL(done, 15);
    CU_ASSERT_EQUAL(total, 100);
    /* CPU is charged to the job, whether spent on it or on a shard, by anyone */
    {
        char tenant[64];
        struct db_job j = {0};
        CU_ASSERT_EQUAL(db_jobs_charge(db, ids[1], 30, tenant, sizeof(tenant)), SK_OK);
        CU_ASSERT_STRING_EQUAL(tenant, DB_JOBS_TENANT);
        CU_ASSERT_EQUAL(db_jobs_charge(db, ids[2], 12, tenant, sizeof(tenant)), SK_OK);
        CU_ASSERT_EQUAL(db_jobs_charge(db, id, 1, tenant, sizeof(tenant)), SK_OK);
        CU_ASSERT_EQUAL(db_jobs_charge(db, missing_id, 1, tenant, sizeof(tenant)), SK_ENOTFOUND);
        CU_ASSERT_STRING_EQUAL(tenant, "");
        CU_ASSERT_EQUAL(db_jobs_get(db, id, &j), SK_OK);
        CU_ASSERT_EQUAL(j.cpu_ms, 43);
        db_job_release(&j);
        CU_ASSERT_EQUAL(db_jobs_get(db, ids[1], &j), SK_OK);
        CU_ASSERT_EQUAL(j.cpu_ms, 0);
        db_job_release(&j);
    }
    /* the split job is listed, its shards are not */
    CU_ASSERT_EQUAL(db_jobs_list(db, NULL, NULL, NULL, 100, NULL, NULL, &items, &n_items, &more),
                    SK_OK);
    for (size_t i = 0; i < n_items; i++)
        for (int k = 0; k < 3; k++)
            CU_ASSERT_STRING_NOT_EQUAL(items[i].id, ids[k]);
    db_jobs_free(items, n_items);
    /* a stale owner cannot end a shard; the holder does, with its checkpoint */
    CU_ASSERT_EQUAL(db_jobs_shard_succeed(db, ids[1], "w9/1", ck, sizeof(ck)), SK_ELEASE);
    CU_ASSERT_EQUAL(db_jobs_shard_succeed(db, ids[1], "w2/1", ck, sizeof(ck)), SK_OK);
    CU_ASSERT_EQUAL(db_jobs_parents_ready(db, 10, count_id, &ready), SK_OK);
    CU_ASSERT_EQUAL(ready, 0); /* shards 1 and 3 have not ended */
    CU_ASSERT_EQUAL_FATAL(db_jobs_shards(db, id, &sh, &n), SK_OK);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_EQUAL(sh[0].first, 0);
    CU_ASSERT_EQUAL(sh[1].first, 40);
    CU_ASSERT_EQUAL(sh[2].first, 80);
    CU_ASSERT_STRING_EQUAL(sh[1].status, "succeeded");
    CU_ASSERT_EQUAL(sh[1].checkpoint_len, sizeof(ck));
    CU_ASSERT_STRING_EQUAL(sh[2].status, "running");
    db_jobs_shards_free(sh, n);
    /* the job fails (a shard did): the others are stopped, and it ends only once */
    CU_ASSERT_EQUAL(db_jobs_parent_end(db, id, "failed", NULL, "shard 1 of 3 failed", &ended),
                    SK_OK);
    CU_ASSERT_EQUAL(ended, 1);
    CU_ASSERT_EQUAL(db_jobs_parent_end(db, id, "failed", NULL, "again", &ended), SK_OK);
    CU_ASSERT_EQUAL(ended, 0);
    CU_ASSERT_EQUAL_FATAL(db_jobs_shards(db, id, &sh, &n), SK_OK);
    CU_ASSERT_STRING_EQUAL(sh[0].status, "canceled"); /* was queued */
    CU_ASSERT_STRING_EQUAL(sh[2].status, "running");  /* flagged: stops at its next chunk */
    db_jobs_shards_free(sh, n);
    CU_ASSERT_EQUAL(db_jobs_progress(db, ids[2], "w3/1", 6, NULL, 60000, &cancel), SK_OK);
    CU_ASSERT_EQUAL(cancel, 1);
    db_jobs_free_ids(ids);
}

/* Units (migration 0012): inserted under the job only by its lease holder, once per key;
 * claimed by a worker (with their bytes) or by the coordinator, ended by their holder only,
 * read back with their results, never listed, flagged by a cancel of the job, deleted. */
static void test_units(void)
{
    static const unsigned char spec_a[] = {'S', 'K', 'U', '1', 0, 0xff}, spec_b[] = {7, 7, 7};
    static const unsigned char res[] = {'S', 'K', 'R', '1', 9};
    char id[DB_JOBS_ID_LEN], ka[DB_UNITS_KEY_LEN], kb[DB_UNITS_KEY_LEN], kc[DB_UNITS_KEY_LEN];
    struct db_unit_new u[2];
    const char *keys[3] = {ka, kb, kc};
    struct db_unit got[3];
    struct db_claim c = {0};
    struct db_job job = {0};
    struct db_job *items = NULL;
    size_t n_items = 0;
    char **ids = NULL, flag[8];
    int more = 0, mine = -1;

    db_units_key(spec_a, sizeof(spec_a), ka);
    db_units_key(spec_b, sizeof(spec_b), kb);
    db_units_key(spec_b, 2, kc);
    CU_ASSERT_STRING_NOT_EQUAL(ka, kb);
    CU_ASSERT_STRING_NOT_EQUAL(kb, kc);
    u[0] = (struct db_unit_new){ka, spec_a, sizeof(spec_a), 64};
    u[1] = (struct db_unit_new){kb, spec_b, sizeof(spec_b), 32};
    insert(id);
    /* only the lease holder inserts */
    CU_ASSERT_EQUAL(db_units_add(db, id, "w1/1", u, 2, &ids), SK_ELEASE);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w1", "w1/1", 60000, 5, &c), SK_OK);
    db_jobs_claim_release(&c);
    CU_ASSERT_EQUAL(db_units_add(db, id, "w9/1", u, 2, &ids), SK_ELEASE);
    CU_ASSERT_EQUAL_FATAL(db_units_add(db, id, "w1/1", u, 2, &ids), SK_OK);
    CU_ASSERT_PTR_NOT_NULL(ids[0]);
    CU_ASSERT_PTR_NOT_NULL(ids[1]);
    CU_ASSERT_PTR_NULL(ids[2]);
    db_jobs_free_ids(ids);
    /* the same keys again make nothing new: no ids, and no lost lease either */
    CU_ASSERT_EQUAL_FATAL(db_units_add(db, id, "w1/1", u, 2, &ids), SK_OK);
    CU_ASSERT_PTR_NULL(ids[0]);
    db_jobs_free_ids(ids);
    CU_ASSERT_EQUAL_FATAL(db_units_get(db, id, keys, 3, got), SK_OK);
    CU_ASSERT_STRING_EQUAL(got[0].status, "queued");
    CU_ASSERT_PTR_NULL(got[0].result);
    CU_ASSERT_EQUAL(got[2].id[0], '\0'); /* never inserted */
    /* a worker claims unit a from the stream: its bytes and its job's document come with it */
    CU_ASSERT_EQUAL(db_jobs_claim(db, got[0].id, "w2", "w2/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_RUNNING);
    CU_ASSERT_EQUAL(c.unit, 1);
    CU_ASSERT_STRING_EQUAL(c.parent, id);
    CU_ASSERT_EQUAL(c.units, 64);
    CU_ASSERT_STRING_EQUAL(c.request, "{\"kind\": \"battle\"}");
    CU_ASSERT_EQUAL_FATAL(c.unit_spec_len, sizeof(spec_a));
    CU_ASSERT_EQUAL(memcmp(c.unit_spec, spec_a, sizeof(spec_a)), 0);
    db_jobs_claim_release(&c);
    /* the coordinator cannot take a unit a worker holds; it takes a queued one */
    CU_ASSERT_EQUAL(db_units_claim(db, got[0].id, "w1/1/u0", 60000, &mine), SK_OK);
    CU_ASSERT_EQUAL(mine, 0);
    CU_ASSERT_EQUAL(db_units_claim(db, got[1].id, "w1/1/u1", 60000, &mine), SK_OK);
    CU_ASSERT_EQUAL(mine, 1);
    /* only the holder ends a unit */
    CU_ASSERT_EQUAL(db_units_done(db, got[0].id, "w1/1/u0", res, sizeof(res)), SK_ELEASE);
    CU_ASSERT_EQUAL(db_units_done(db, got[0].id, "w2/1", res, sizeof(res)), SK_OK);
    CU_ASSERT_EQUAL(db_units_done(db, got[0].id, "w2/1", res, sizeof(res)), SK_ELEASE);
    db_units_release(got, 3);
    CU_ASSERT_EQUAL_FATAL(db_units_get(db, id, keys, 2, got), SK_OK);
    CU_ASSERT_STRING_EQUAL(got[0].status, "succeeded");
    CU_ASSERT_EQUAL_FATAL(got[0].result_len, sizeof(res));
    CU_ASSERT_EQUAL(memcmp(got[0].result, res, sizeof(res)), 0);
    CU_ASSERT_STRING_EQUAL(got[1].status, "running");
    /* units are not jobs of their own: the list shows the job only */
    CU_ASSERT_EQUAL(db_jobs_list(db, NULL, NULL, NULL, 100, NULL, NULL, &items, &n_items, &more),
                    SK_OK);
    for (size_t i = 0; i < n_items; i++)
        for (int k = 0; k < 2; k++)
            CU_ASSERT_STRING_NOT_EQUAL(items[i].id, got[k].id);
    db_jobs_free(items, n_items);
    /* a cancel of the job flags its units with it */
    CU_ASSERT_EQUAL(db_jobs_cancel(db, id, &job), SK_OK);
    db_job_release(&job);
    CU_ASSERT_EQUAL(column_text(got[1].id, "cancel_requested::text", flag, sizeof(flag)), 0);
    CU_ASSERT_STRING_EQUAL(flag, "true");
    db_units_release(got, 2);
    /* deleted with their keys, whatever their state */
    CU_ASSERT_EQUAL(db_units_drop(db, id, keys, 2), SK_OK);
    CU_ASSERT_EQUAL_FATAL(db_units_get(db, id, keys, 2, got), SK_OK);
    CU_ASSERT_EQUAL(got[0].id[0], '\0');
    CU_ASSERT_EQUAL(got[1].id[0], '\0');
    db_units_release(got, 2);
}

/* A job's end deletes the unit rows its calls left behind (a call's own delete failed), in
 * its fenced statement: not a writer without the lease, and each of the three ends. */
static void test_units_swept_at_end(void)
{
    static const unsigned char spec[] = {'S', 'K', 'U', '1', 1};
    char id[DB_JOBS_ID_LEN], key[DB_UNITS_KEY_LEN];
    const char *keys[1] = {key};
    struct db_unit_new u;
    struct db_unit got[1];
    struct db_claim c = {0};
    char **ids = NULL;
    int mine = 0;

    db_units_key(spec, sizeof(spec), key);
    u = (struct db_unit_new){key, spec, sizeof(spec), 16};
    for (int end = 0; end < 3; end++) {
        insert(id);
        CU_ASSERT_EQUAL_FATAL(db_jobs_claim(db, id, "w1", "w1/1", 60000, 5, &c), SK_OK);
        db_jobs_claim_release(&c);
        CU_ASSERT_EQUAL_FATAL(db_units_add(db, id, "w1/1", &u, 1, &ids), SK_OK);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ids[0]);
        /* the coordinator holds it, as when it computes a unit itself */
        CU_ASSERT_EQUAL(db_units_claim(db, ids[0], "w1/1/u0", 60000, &mine), SK_OK);
        CU_ASSERT_EQUAL(mine, 1);
        db_jobs_free_ids(ids);
        /* a writer without the lease ends nothing and deletes nothing */
        CU_ASSERT_EQUAL(db_jobs_cancelled(db, id, "w9/1", NULL), SK_ELEASE);
        CU_ASSERT_EQUAL_FATAL(db_units_get(db, id, keys, 1, got), SK_OK);
        CU_ASSERT_STRING_EQUAL(got[0].status, "running");
        db_units_release(got, 1);
        if (end == 0)
            CU_ASSERT_EQUAL(db_jobs_cancelled(db, id, "w1/1", NULL), SK_OK);
        if (end == 1)
            CU_ASSERT_EQUAL(db_jobs_succeed(db, id, "w1/1", "{}"), SK_OK);
        if (end == 2)
            CU_ASSERT_EQUAL(db_jobs_fail(db, id, "w1/1", "boom", "boom"), SK_OK);
        CU_ASSERT_EQUAL_FATAL(db_units_get(db, id, keys, 1, got), SK_OK);
        CU_ASSERT_EQUAL(got[0].id[0], '\0');
        db_units_release(got, 1);
    }
}

static void test_exhausted_and_retry(void)
{
    char status[16];
    char id[DB_JOBS_ID_LEN];
    struct db_claim c = {0};
    struct db_job job = {0};

    insert(id);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w1", "w1/1", 60000, 2, &c), SK_OK);
    db_jobs_claim_release(&c);
    /* transient failure: back to queued with a delay, error kept */
    CU_ASSERT_EQUAL(db_jobs_retry(db, id, "w1/1", 300, "device lost"), SK_OK);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w2", "w2/1", 1, 2, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_SKIPPED); /* the delay has not passed */
    sleep_ms(350);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w2", "w2/1", 1, 2, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_RUNNING);
    CU_ASSERT_EQUAL(c.attempts, 2);
    db_jobs_claim_release(&c);
    get(id, &job, status); /* the second attempt runs: no error of its own yet */
    CU_ASSERT_EQUAL_FATAL(job.n_errors, 2);
    CU_ASSERT_STRING_EQUAL(job.errors[0], "device lost");
    CU_ASSERT_PTR_NULL(job.errors[1]);
    db_job_release(&job);
    sleep_ms(20); /* the second attempt's worker dies: its 1 ms lease expires */
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w3", "w3/1", 60000, 2, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_ENDED);
    get(id, &job, status);
    CU_ASSERT_STRING_EQUAL(status, "failed");
    /* the job's error is what ended its last attempt, not an older attempt's */
    CU_ASSERT_STRING_EQUAL(job.error, "failed after 2 attempts: " DB_JOBS_LEASE_EXPIRED);
    CU_ASSERT_NOT_EQUAL(job.finished_at[0], '\0');
    /* the claim that ended the job ran no attempt: two workers and two errors for two
     * attempts, each recorded once */
    CU_ASSERT_EQUAL(job.n_workers, 2);
    CU_ASSERT_EQUAL_FATAL(job.n_errors, 2);
    CU_ASSERT_STRING_EQUAL(job.errors[0], "device lost");
    CU_ASSERT_STRING_EQUAL(job.errors[1], DB_JOBS_LEASE_EXPIRED);
    db_job_release(&job);
}

/* Errors are any text: newlines, quotes, backslashes, braces, commas, the word NULL and the
 * empty string come back as written, each in its attempt's place. */
static void test_attempt_errors_any_text(void)
{
    static const char *const errs[] = {"line one\nline \"two\"", "back\\slash {a,b}", "NULL", ""};
    char id[DB_JOBS_ID_LEN];
    char status[16];
    struct db_claim c = {0};
    struct db_job job = {0};
    char owner[16];

    insert(id);
    for (int i = 0; i < 4; i++) {
        snprintf(owner, sizeof(owner), "w%d/1", i);
        CU_ASSERT_EQUAL_FATAL(db_jobs_claim(db, id, owner, owner, 60000, 4, &c), SK_OK);
        CU_ASSERT_EQUAL_FATAL(c.state, DB_CLAIM_RUNNING);
        db_jobs_claim_release(&c);
        if (i < 3)
            CU_ASSERT_EQUAL(db_jobs_retry(db, id, owner, 0, errs[i]), SK_OK);
    }
    /* the last attempt fails for good: the job keeps its summary, the attempt its own */
    CU_ASSERT_EQUAL(db_jobs_fail(db, id, "w3/1", "failed permanently after 4 attempts: ", errs[3]),
                    SK_OK);
    /* a second end of the same attempt is fenced off: recorded once */
    CU_ASSERT_EQUAL(db_jobs_fail(db, id, "w3/1", "again", "again"), SK_ELEASE);
    CU_ASSERT_EQUAL(db_jobs_retry(db, id, "w2/1", 0, "late"), SK_ELEASE);
    get(id, &job, status);
    CU_ASSERT_STRING_EQUAL(status, "failed");
    CU_ASSERT_EQUAL_FATAL(job.n_errors, 4);
    for (int i = 0; i < 4; i++)
        CU_ASSERT_STRING_EQUAL(job.errors[i], errs[i]);
    CU_ASSERT_EQUAL(job.n_workers, 4);
    db_job_release(&job);
}

/* The text form of text[] values as PostgreSQL writes them, and what is not one. */
static void test_text_array_parse(void)
{
    char **v = NULL;
    size_t n = 9;

    CU_ASSERT_EQUAL(db_text_array("{}", &v, &n), SK_OK);
    CU_ASSERT_PTR_NULL(v);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_EQUAL(db_text_array(NULL, &v, &n), SK_OK);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_EQUAL_FATAL(db_text_array("{NULL,plain,\"a \\\"b\\\\\",\"NULL\",\"\"}", &v, &n),
                          SK_OK);
    CU_ASSERT_EQUAL_FATAL(n, 5);
    CU_ASSERT_PTR_NULL(v[0]);
    CU_ASSERT_STRING_EQUAL(v[1], "plain");
    CU_ASSERT_STRING_EQUAL(v[2], "a \"b\\");
    CU_ASSERT_STRING_EQUAL(v[3], "NULL");
    CU_ASSERT_STRING_EQUAL(v[4], "");
    sk_free(v);
    CU_ASSERT_EQUAL(db_text_array("[2:3]={a,b}", &v, &n), SK_OK); /* lower bound skipped */
    CU_ASSERT_EQUAL(n, 2);
    sk_free(v);
    CU_ASSERT_EQUAL(db_text_array("nope", &v, &n), SK_EINVAL);
    CU_ASSERT_EQUAL(db_text_array("{\"open", &v, &n), SK_EINVAL);
    CU_ASSERT_EQUAL(db_text_array("{a,b", &v, &n), SK_EINVAL);
    CU_ASSERT_EQUAL(db_text_array("{a}x", &v, &n), SK_EINVAL);
    CU_ASSERT_PTR_NULL(v);
}

static void test_release_and_cancel(void)
{
    char id[DB_JOBS_ID_LEN];
    struct db_claim c = {0};
    struct db_job job = {0};
    char *json = NULL;
    char status[16];
    int cancel = 0;

    insert(id);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w1", "w1/1", 60000, 5, &c), SK_OK);
    db_jobs_claim_release(&c);
    CU_ASSERT_EQUAL(db_jobs_release(db, id, "w1/1"), SK_OK); /* not counted */
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w2", "w2/1", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.attempts, 1);
    db_jobs_claim_release(&c);
    /* cancel of a running job: flagged, seen by the holder at its next progress write */
    CU_ASSERT_EQUAL(db_jobs_cancel(db, id, &job), SK_OK);
    CU_ASSERT_STRING_EQUAL(job.status, "running");
    CU_ASSERT_TRUE(job.cancel_requested);
    /* the released attempt was not counted: its worker is replaced by the next claim's */
    CU_ASSERT_EQUAL_FATAL(job.n_workers, 1);
    CU_ASSERT_STRING_EQUAL(job.workers[0], "w2");
    CU_ASSERT_EQUAL_FATAL(job.n_errors, 1); /* and it left no error behind */
    CU_ASSERT_PTR_NULL(job.errors[0]);
    db_job_release(&job);
    CU_ASSERT_EQUAL(db_jobs_result(db, id, &json, status), SK_ECONFLICT);
    CU_ASSERT_STRING_EQUAL(status, "running");
    CU_ASSERT_EQUAL(db_jobs_progress(db, id, "w2/1", 5, NULL, 60000, &cancel), SK_OK);
    CU_ASSERT_EQUAL(cancel, 1);
    CU_ASSERT_EQUAL(db_jobs_cancelled(db, id, "w2/1", NULL), SK_OK);
    CU_ASSERT_EQUAL(db_jobs_cancel(db, id, &job), SK_ECONFLICT);
    CU_ASSERT_EQUAL(db_jobs_cancel(db, "00000000-0000-4000-8000-000000000000", &job), SK_ENOTFOUND);
    CU_ASSERT_EQUAL(db_jobs_get(db, "nope", &job), SK_ENOTFOUND);
    CU_ASSERT_FALSE(db_jobs_is_final("running"));
    CU_ASSERT_FALSE(db_jobs_is_final("queued"));
    /* a cancel flagged while a worker was dying ends the job at the next claim */
    insert(id);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w1", "w1/2", 1, 5, &c), SK_OK);
    db_jobs_claim_release(&c);
    CU_ASSERT_EQUAL(db_jobs_cancel(db, id, &job), SK_OK);
    db_job_release(&job);
    sleep_ms(20);
    CU_ASSERT_EQUAL(db_jobs_claim(db, id, "w2", "w2/2", 60000, 5, &c), SK_OK);
    CU_ASSERT_EQUAL(c.state, DB_CLAIM_ENDED);
    CU_ASSERT_EQUAL(db_jobs_result(db, id, &json, status), SK_ECONFLICT);
    CU_ASSERT_STRING_EQUAL(status, "canceled");
}

/* Locks row `id` of jobs from another connection, blocking until the main connection's
 * transaction lets go of it (the second half of a deadlock). */
struct locker {
    struct db *db;
    const char *id;
    enum sk_err err;
};

static void *lock_row(void *arg)
{
    struct locker *l = arg;
    const char *p[1] = {l->id};
    l->err =
        db_exec(l->db, NULL, "UPDATE jobs SET updated_at = now() WHERE id = $1::uuid", 1, p, NULL);
    return NULL;
}

/* 1 when backend `pid` waits for a lock (asked on the main connection). */
static int waiting(const char *pid)
{
    const char *p[1] = {pid};
    struct db_result *r = NULL;
    int yes = db_exec(db, NULL,
                      "SELECT 1 FROM pg_stat_activity WHERE pid = $1::int"
                      " AND wait_event_type = 'Lock'",
                      1, p, &r) == SK_OK &&
              db_result_rows(r) == 1;
    db_result_free(r);
    return yes;
}

/* Fault: a deadlock while a worker wrote its result came back as the lease-lost code, so
 * the worker dropped a result it still had every right to write. A deadlock is SK_ERETRY,
 * a lost lease SK_ELEASE, and the write succeeds when run again. */
static void test_deadlock_is_not_lease_lost(void)
{
    char x[DB_JOBS_ID_LEN], y[DB_JOBS_ID_LEN];
    const char *py[1] = {y};
    const char *px[1] = {x};
    struct db *other = NULL;
    struct db_claim c = {0};
    struct locker l;
    struct db_result *r = NULL;
    char pid[24];
    pthread_t t;
    enum sk_err err;

    insert(x);
    insert(y);
    CU_ASSERT_EQUAL_FATAL(db_jobs_claim(db, x, "w1", "w1/1", 60000, 5, &c), SK_OK);
    db_jobs_claim_release(&c);
    CU_ASSERT_EQUAL_FATAL(db_new(db_url, &other), SK_OK);
    CU_ASSERT_EQUAL_FATAL(db_exec(other, NULL, "SELECT pg_backend_pid()", 0, NULL, &r), SK_OK);
    snprintf(pid, sizeof(pid), "%s", db_result_get(r, 0, 0));
    db_result_free(r);
    /* the other side waits long before it looks for deadlocks, so the main connection is
     * the one PostgreSQL picks as the victim */
    CU_ASSERT_EQUAL(db_exec(other, NULL, "SET deadlock_timeout = '10s'", 0, NULL, NULL), SK_OK);
    CU_ASSERT_EQUAL(db_exec(db, NULL, "SET deadlock_timeout = '50ms'", 0, NULL, NULL), SK_OK);
    /* other holds x; db holds y; other then waits for y, and db's result write for x */
    CU_ASSERT_EQUAL(db_exec(other, NULL, "BEGIN", 0, NULL, NULL), SK_OK);
    CU_ASSERT_EQUAL(
        db_exec(other, NULL, "UPDATE jobs SET updated_at = now() WHERE id = $1::uuid", 1, px, NULL),
        SK_OK);
    CU_ASSERT_EQUAL(db_exec(db, NULL, "BEGIN", 0, NULL, NULL), SK_OK);
    CU_ASSERT_EQUAL(
        db_exec(db, NULL, "UPDATE jobs SET updated_at = now() WHERE id = $1::uuid", 1, py, NULL),
        SK_OK);
    l.db = other;
    l.id = y;
    l.err = SK_EINTERNAL;
    CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, lock_row, &l), 0);
    /* PostgreSQL looks for a deadlock once, deadlock_timeout after a wait began: the other
     * side must be waiting for y before the result write starts waiting for x */
    for (int i = 0; i < 500 && !waiting(pid); i++)
        sleep_ms(10);
    err = db_jobs_succeed(db, x, "w1/1", "{\"r\":1}");
    CU_ASSERT_EQUAL(err, SK_ERETRY);
    CU_ASSERT_PTR_NOT_NULL(strstr(db_error(db), "deadlock"));
    (void)db_exec(db, NULL, "ROLLBACK", 0, NULL, NULL);
    (void)pthread_join(t, NULL);
    CU_ASSERT_EQUAL(l.err, SK_OK);
    CU_ASSERT_EQUAL(db_exec(other, NULL, "COMMIT", 0, NULL, NULL), SK_OK);
    CU_ASSERT_EQUAL(db_exec(db, NULL, "RESET deadlock_timeout", 0, NULL, NULL), SK_OK);
    /* never the answer a worker without the lease gets */
    CU_ASSERT_NOT_EQUAL(err, db_jobs_succeed(db, x, "w9/1", "{}"));
    /* the lease was never lost: the same write, run again, stores the result */
    CU_ASSERT_EQUAL(db_jobs_succeed(db, x, "w1/1", "{\"r\":1}"), SK_OK);
    db_free(other);
}

/* Fault: after a PostgreSQL restart the first statement on every old connection failed
 * (PQstatus still says OK on a dead socket), so the API answered 503 long after the server
 * was back. Reads and idempotent writes reconnect and run once more. The server ending
 * this connection's backend is what a restart does to every connection. */
static void test_dead_connection_reconnects(void)
{
    char id[DB_JOBS_ID_LEN];
    char pid[24];
    const char *p[1] = {pid};
    struct db_result *r = NULL;
    struct db *other = NULL;
    struct db_job job = {0};
    long long counts[DB_JOBS_N_STATUS];

    insert(id);
    for (int round = 0; round < 4; round++) {
        CU_ASSERT_EQUAL_FATAL(db_exec(db, NULL, "SELECT pg_backend_pid()", 0, NULL, &r), SK_OK);
        snprintf(pid, sizeof(pid), "%s", db_result_get(r, 0, 0));
        db_result_free(r);
        r = NULL;
        CU_ASSERT_EQUAL_FATAL(db_new(db_url, &other), SK_OK);
        CU_ASSERT_EQUAL(db_exec(other, NULL, "SELECT pg_terminate_backend($1::int)", 1, p, NULL),
                        SK_OK);
        db_free(other);
        sleep_ms(50);
        if (round == 0) {
            CU_ASSERT_EQUAL(db_jobs_get(db, id, &job), SK_OK);
            CU_ASSERT_STRING_EQUAL(job.status, "queued");
            db_job_release(&job);
        } else if (round == 1) {
            CU_ASSERT_EQUAL(db_jobs_counts(db, counts), SK_OK);
        } else if (round == 2) {
            CU_ASSERT_EQUAL(db_ping(db), SK_OK);
        } else {
            enum db_keyed outcome = DB_KEYED_MISMATCH;
            CU_ASSERT_EQUAL(db_jobs_insert_keyed(db, NULL, "restart-key", "{}", 60, "battle", "{}",
                                                 1, 1, -1, &job, &outcome),
                            SK_OK);
            CU_ASSERT_EQUAL(outcome, DB_KEYED_NEW);
            db_job_release(&job);
        }
    }
}

static void collect(const char *id, int attempts, void *arg)
{
    (void)attempts;
    snprintf(arg, DB_JOBS_ID_LEN, "%s", id);
}

static void test_dispatchable(void)
{
    char id[DB_JOBS_ID_LEN];
    char got[DB_JOBS_ID_LEN] = "";
    CU_ASSERT_EQUAL(db_exec(db, NULL, "DELETE FROM jobs", 0, NULL, NULL), SK_OK);
    insert(id);
    CU_ASSERT_EQUAL(db_jobs_dispatchable(db, 60000, 10, collect, got), SK_OK);
    CU_ASSERT_STRING_EQUAL(got, ""); /* too young: its XADD may be on its way */
    sleep_ms(30);
    CU_ASSERT_EQUAL(db_jobs_dispatchable(db, 10, 10, collect, got), SK_OK);
    CU_ASSERT_STRING_EQUAL(got, id);
}

static void count(const char *job_id, void *arg)
{
    (void)job_id;
    ++*(int *)arg;
}

/* Reads notifications for up to 2 s until one comes; its kind, and its name in `name`. */
static enum queue_note next_note(struct queue *q, char name[48])
{
    enum queue_note got = QUEUE_NOTE_NONE;
    for (int i = 0; i < 20 && got == QUEUE_NOTE_NONE; i++)
        if (queue_sub_read(q, 100, name, &got) != SK_OK)
            return QUEUE_NOTE_NONE;
    return got;
}

/* Notifications: a subscriber hears a job change and a key revocation under its prefix, told
 * apart, and nothing of another prefix. */
static void test_notify(void)
{
    struct queue *sub = NULL, *pub = NULL, *other = NULL;
    const char *url = getenv("SKIRMISH_REDIS_URL");
    char other_prefix[128];
    char name[48];

    snprintf(other_prefix, sizeof(other_prefix), "%s-other", prefix);
    CU_ASSERT_EQUAL_FATAL(queue_new(url, prefix, &sub), SK_OK);
    CU_ASSERT_EQUAL_FATAL(queue_new(url, prefix, &pub), SK_OK);
    CU_ASSERT_EQUAL_FATAL(queue_new(url, other_prefix, &other), SK_OK);
    CU_ASSERT_EQUAL_FATAL(queue_subscribe(sub), SK_OK);
    CU_ASSERT_EQUAL(queue_publish_revoked(other, "00000000000000aa"), SK_OK);
    CU_ASSERT_EQUAL(queue_publish(pub, "11111111-1111-4111-8111-111111111111", "status"), SK_OK);
    CU_ASSERT_EQUAL(queue_publish_revoked(pub, "0123456789abcdef"), SK_OK);
    CU_ASSERT_EQUAL(next_note(sub, name), QUEUE_NOTE_JOB);
    CU_ASSERT_STRING_EQUAL(name, "11111111-1111-4111-8111-111111111111");
    CU_ASSERT_EQUAL(next_note(sub, name), QUEUE_NOTE_KEY);
    CU_ASSERT_STRING_EQUAL(name, "0123456789abcdef");
    CU_ASSERT_EQUAL(next_note(sub, name), QUEUE_NOTE_NONE);
    queue_free(other);
    queue_free(pub);
    queue_free(sub);
}

static void test_queue(void)
{
    struct queue *a = NULL;
    struct queue *b = NULL;
    struct queue_entry e, taken[4];
    int got = 0, owned = -1, n_entries = 0;
    size_t n = 0;
    const char *url = getenv("SKIRMISH_REDIS_URL");

    CU_ASSERT_EQUAL(queue_new("http://x", prefix, &a), SK_EINVAL);
    CU_ASSERT_EQUAL(queue_new("redis://h:99999", prefix, &a), SK_EINVAL);
    CU_ASSERT_EQUAL_FATAL(queue_new(url, prefix, &a), SK_OK);
    CU_ASSERT_EQUAL_FATAL(queue_new(url, prefix, &b), SK_OK);
    CU_ASSERT_EQUAL(queue_read(a, "ca", 10, &e, &got), SK_OK); /* creates the group */
    CU_ASSERT_EQUAL(got, 0);
    CU_ASSERT_EQUAL(queue_add(a, "11111111-1111-4111-8111-111111111111", 3), SK_OK);
    CU_ASSERT_EQUAL(queue_read(a, "ca", 100, &e, &got), SK_OK);
    CU_ASSERT_EQUAL_FATAL(got, 1);
    CU_ASSERT_STRING_EQUAL(e.job_id, "11111111-1111-4111-8111-111111111111");
    CU_ASSERT_EQUAL(e.attempt, 3);
    /* renewal only by the owner */
    CU_ASSERT_EQUAL(queue_renew(b, "cb", e.id, &owned), SK_OK);
    CU_ASSERT_EQUAL(owned, 0);
    CU_ASSERT_EQUAL(queue_renew(a, "ca", e.id, &owned), SK_OK);
    CU_ASSERT_EQUAL(owned, 1);
    /* autoclaim only after the idle time */
    CU_ASSERT_EQUAL(queue_autoclaim(b, "cb", 60000, taken, 4, &n), SK_OK);
    CU_ASSERT_EQUAL(n, 0);
    sleep_ms(30);
    CU_ASSERT_EQUAL(queue_autoclaim(b, "cb", 20, taken, 4, &n), SK_OK);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_STRING_EQUAL(taken[0].id, e.id);
    CU_ASSERT_EQUAL(queue_renew(a, "ca", e.id, &owned), SK_OK);
    CU_ASSERT_EQUAL(owned, 0); /* the slow owner cannot steal it back */
    CU_ASSERT_EQUAL(queue_scan(b, count, &n_entries), SK_OK);
    CU_ASSERT_EQUAL(n_entries, 1);
    CU_ASSERT_EQUAL(queue_done(b, e.id), SK_OK);
    n_entries = 0;
    CU_ASSERT_EQUAL(queue_scan(b, count, &n_entries), SK_OK);
    CU_ASSERT_EQUAL(n_entries, 0);
    CU_ASSERT_EQUAL(queue_autoclaim(b, "cb", 0, taken, 4, &n), SK_OK);
    CU_ASSERT_EQUAL(n, 0); /* nothing left pending */
    /* "ca" has nothing pending now: pruned; "cb" holds nothing either after the ack, but a
     * consumer with a pending entry is kept */
    CU_ASSERT_EQUAL(queue_add(a, "33333333-3333-4333-8333-333333333333", 1), SK_OK);
    CU_ASSERT_EQUAL(queue_read(a, "cc", 100, &e, &got), SK_OK);
    CU_ASSERT_EQUAL(got, 1);
    sleep_ms(20);
    CU_ASSERT_EQUAL(queue_prune_consumers(a, 60000, &n), SK_OK);
    CU_ASSERT_EQUAL(n, 0); /* none idle for a minute */
    CU_ASSERT_EQUAL(queue_prune_consumers(a, 10, &n), SK_OK);
    CU_ASSERT_EQUAL(n, 2); /* ca and cb, not cc */
    CU_ASSERT_EQUAL(queue_renew(a, "cc", e.id, &owned), SK_OK);
    CU_ASSERT_EQUAL(owned, 1);
    CU_ASSERT_EQUAL(queue_done(a, e.id), SK_OK);
    CU_ASSERT_EQUAL(queue_lock(a, "t", 60000, &got), SK_OK);
    CU_ASSERT_EQUAL(got, 1);
    CU_ASSERT_EQUAL(queue_lock(b, "t", 60000, &got), SK_OK);
    CU_ASSERT_EQUAL(got, 0);
    CU_ASSERT_EQUAL(queue_progress(a, "11111111-1111-4111-8111-111111111111", 5, 10), SK_OK);
    queue_free(a);
    queue_free(b);
    /* a Redis that is not there: SK_EUNAVAIL, never a crash */
    CU_ASSERT_EQUAL_FATAL(queue_new("redis://127.0.0.1:1", prefix, &a), SK_OK);
    CU_ASSERT_EQUAL(queue_ping(a), SK_EUNAVAIL);
    CU_ASSERT_EQUAL(queue_add(a, "x", 1), SK_EUNAVAIL);
    queue_free(a);
}

/* After Redis restarts, the first command on the old connection is retried on a new one
 * instead of failing: a submission right after a restart is enqueued at once. */
static void test_queue_reconnects(void)
{
    struct queue *q = NULL;
    char cmd[1024];
    const char *svc = getenv("SKIRMISH_SERVICES");
    const char *dir = getenv("SKIRMISH_TEST_DIR");
    const char *port = getenv("SKIRMISH_TEST_REDIS_PORT");

    CU_ASSERT_FATAL(svc && dir && port);
    CU_ASSERT_EQUAL_FATAL(queue_new(getenv("SKIRMISH_REDIS_URL"), prefix, &q), SK_OK);
    CU_ASSERT_EQUAL(queue_ping(q), SK_OK);
    snprintf(cmd, sizeof(cmd), "'%s' redis-stop '%s' && SK_REDIS_AOF=no '%s' redis-start '%s' %s",
             svc, dir, svc, dir, port);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    CU_ASSERT_EQUAL(queue_add(q, "22222222-2222-4222-8222-222222222222", 1), SK_OK);
    queue_free(q);
}

/* Several jobs in one statement: each gets its own resource, and text needing escapes in
 * an array literal (quotes, backslashes, commas, braces) arrives intact. */
static void test_insert_many(void)
{
    struct db_jobs_new rows[3];
    struct db_result *r = NULL;
    const char *requests[3] = {"{\"a\":\"q\\\"uote\"}", "{\"b\":\"back\\\\slash, {brace}\"}",
                               "{\"c\":[1,2]}"};
    memset(rows, 0, sizeof(rows));
    for (int i = 0; i < 3; i++) {
        rows[i].kind = i == 2 ? "board" : "battle";
        rows[i].request = requests[i];
        rows[i].seed = (uint64_t)i + 1;
        rows[i].total = 10;
        rows[i].cost_ms = i == 1 ? -1 : 1000 * i;
        db_jobs_new_id(rows[i].id);
        CU_ASSERT_TRUE(db_jobs_is_id(rows[i].id));
        CU_ASSERT_EQUAL(rows[i].id[14], '4'); /* version 4 */
    }
    CU_ASSERT_STRING_NOT_EQUAL(rows[0].id, rows[1].id);
    CU_ASSERT_EQUAL_FATAL(db_jobs_insert_many(db, rows, 3), SK_OK);
    for (int i = 0; i < 3; i++) {
        const char *p[1] = {rows[i].id};
        CU_ASSERT_FATAL(rows[i].got);
        CU_ASSERT_STRING_EQUAL(rows[i].job.id, rows[i].id);
        CU_ASSERT_STRING_EQUAL(rows[i].job.kind, rows[i].kind);
        CU_ASSERT_EQUAL(rows[i].job.cost_estimate_ms, rows[i].cost_ms); /* -1: NULL, none */
        CU_ASSERT_EQUAL_FATAL(
            db_exec(db, NULL, "SELECT request::text, kind, seed FROM jobs WHERE id = $1::uuid", 1,
                    p, &r),
            SK_OK);
        CU_ASSERT_EQUAL(db_result_rows(r), 1);
        CU_ASSERT_STRING_EQUAL(db_result_get(r, 0, 1), rows[i].kind);
        db_result_free(r);
        db_job_release(&rows[i].job);
    }
    /* the stored requests equal the given ones as JSON */
    {
        const char *p[2] = {rows[1].id, requests[1]};
        char *v;
        CU_ASSERT_EQUAL_FATAL(
            db_exec(db, NULL, "SELECT (request = $2::jsonb)::text FROM jobs WHERE id = $1::uuid", 2,
                    p, &r),
            SK_OK);
        v = (char *)db_result_get(r, 0, 0);
        CU_ASSERT_STRING_EQUAL(v, "true");
        db_result_free(r);
    }
    /* one bad row (a duplicate id) fails the whole batch: nothing inserted, no json */
    rows[0].got = rows[1].got = 0;
    db_jobs_new_id(rows[0].id);
    memcpy(rows[1].id, rows[2].id, sizeof(rows[1].id));
    CU_ASSERT_NOT_EQUAL(db_jobs_insert_many(db, rows, 2), SK_OK);
    CU_ASSERT_FALSE(rows[0].got);
    {
        const char *p[1] = {rows[0].id};
        CU_ASSERT_EQUAL(db_exec(db, NULL, "SELECT 1 FROM jobs WHERE id = $1::uuid", 1, p, &r),
                        SK_OK);
        CU_ASSERT_EQUAL(db_result_rows(r), 0);
        db_result_free(r);
    }
}

/* db_exec_one itself: exactly one row is SK_OK, none or several are SK_ENOTFOUND, and a
 * database error comes through unchanged; *out is written only on SK_OK. */
static void test_exec_one(void)
{
    struct db_result *r = NULL;

    CU_ASSERT_EQUAL(db_exec_one(db, DB_EXEC_PLAIN, NULL, "SELECT 'a'", 0, NULL, &r), SK_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_STRING_EQUAL(db_result_get(r, 0, 0), "a");
    db_result_free(r);
    r = NULL;
    CU_ASSERT_EQUAL(db_exec_one(db, DB_EXEC_IDEM, NULL, "SELECT 1 WHERE false", 0, NULL, &r),
                    SK_ENOTFOUND);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT_EQUAL(
        db_exec_one(db, DB_EXEC_PLAIN, NULL, "SELECT generate_series(1, 2)", 0, NULL, &r),
        SK_ENOTFOUND);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT_EQUAL(db_exec_one(db, DB_EXEC_PLAIN, NULL, "SELEC 1", 0, NULL, &r), SK_EINTERNAL);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT_EQUAL(db_exec_one(db, DB_EXEC_IDEM, NULL, "SELECT 1", 0, NULL, NULL), SK_OK);
}

/* The single-row job statements that no other test reaches: each one's row, its not-found
 * answer for a missing and a malformed id, and its conflict answer. */
static void test_single_row_jobs(void)
{
    const char *missing = missing_id;
    char id[DB_JOBS_ID_LEN];
    char status[16] = "";
    struct db_job job = {0};
    char *json = NULL;
    uint64_t done = 0;
    uint64_t total = 0;

    insert(id);
    CU_ASSERT_EQUAL(db_jobs_document(db, id, &json), SK_OK);
    CU_ASSERT_STRING_EQUAL(json, "{\"kind\": \"battle\"}");
    sk_free(json);
    json = NULL;
    CU_ASSERT_EQUAL(db_jobs_document(db, missing, &json), SK_ENOTFOUND);
    CU_ASSERT_EQUAL(db_jobs_document(db, "nope", &json), SK_ENOTFOUND);
    CU_ASSERT_PTR_NULL(json);
    CU_ASSERT_EQUAL(db_jobs_result(db, missing, &json, status), SK_ENOTFOUND);
    /* only a final job can be retried; a missing one is not found */
    CU_ASSERT_EQUAL(db_jobs_resubmit(db, id, &job), SK_ECONFLICT);
    CU_ASSERT_EQUAL(db_jobs_resubmit(db, missing, &job), SK_ENOTFOUND);
    CU_ASSERT_EQUAL(db_jobs_resubmit(db, "nope", &job), SK_ENOTFOUND);
    CU_ASSERT_EQUAL(db_jobs_cancel(db, id, &job), SK_OK);
    CU_ASSERT_STRING_EQUAL(job.status, "canceled");
    db_job_release(&job);
    CU_ASSERT_EQUAL(db_jobs_resubmit(db, id, &job), SK_OK);
    CU_ASSERT_STRING_EQUAL(job.status, "queued");
    CU_ASSERT_STRING_EQUAL(job.retry_of, id);
    CU_ASSERT_EQUAL(job.seed, 7);
    CU_ASSERT_EQUAL(job.cost_estimate_ms, 250); /* the original's estimate */
    CU_ASSERT_EQUAL(job.cpu_ms, 0);             /* nothing spent on the retry yet */
    db_job_release(&job);
    /* a job that was never split has no shard progress to sum */
    CU_ASSERT_EQUAL(db_jobs_parent_progress(db, id, &done, &total), SK_ECONFLICT);
    CU_ASSERT_EQUAL(db_jobs_history(db, 5, &json), SK_OK);
    CU_ASSERT_PTR_NOT_NULL(json);
    CU_ASSERT_PTR_NOT_NULL(json ? strstr(json, "\"points\"") : NULL);
    sk_free(json);
}

/* The single-row key statements: a key is made, checked (with the tenant of a job), refused
 * with a wrong secret, revoked once, and refused after. */
static void test_single_row_keys(void)
{
    char id[DB_JOBS_ID_LEN];
    char token[DB_KEYS_TOKEN_LEN];
    char wrong[DB_KEYS_TOKEN_LEN];
    struct db_key key = {0};
    struct db_key_auth auth = {0};

    insert(id);
    CU_ASSERT_EQUAL_FATAL(db_keys_create(db, "acme", 0, "ci", token, &key), SK_OK);
    CU_ASSERT_STRING_EQUAL(key.tenant, "acme");
    CU_ASSERT_STRING_EQUAL(key.name, "ci");
    CU_ASSERT_FALSE(key.admin);
    CU_ASSERT_STRING_EQUAL(key.revoked_at, "");
    CU_ASSERT_EQUAL(db_keys_auth(db, token, id, &auth), SK_OK);
    CU_ASSERT_STRING_EQUAL(auth.key_id, key.id);
    CU_ASSERT_STRING_EQUAL(auth.tenant, "acme");
    CU_ASSERT_TRUE(auth.job_found);
    CU_ASSERT_STRING_EQUAL(auth.job_tenant, DB_JOBS_TENANT);
    CU_ASSERT_EQUAL(db_keys_auth(db, token, missing_id, &auth), SK_OK);
    CU_ASSERT_FALSE(auth.job_found);
    snprintf(wrong, sizeof(wrong), "%s", token);
    wrong[DB_KEYS_TOKEN_LEN - 2] = wrong[DB_KEYS_TOKEN_LEN - 2] == '0' ? '1' : '0';
    CU_ASSERT_EQUAL(db_keys_auth(db, wrong, NULL, &auth), SK_ENOTFOUND);
    CU_ASSERT_EQUAL(db_keys_auth(db, "sk_nope", NULL, &auth), SK_ENOTFOUND);
    CU_ASSERT_EQUAL(db_keys_revoke(db, "zz"), SK_ENOTFOUND);
    CU_ASSERT_EQUAL(db_keys_revoke(db, key.id), SK_OK);
    CU_ASSERT_EQUAL(db_keys_revoke(db, key.id), SK_ENOTFOUND);
    CU_ASSERT_EQUAL(db_keys_auth(db, token, NULL, &auth), SK_ENOTFOUND);
}

/* Which keys of a list are no longer active: revoked, unknown and malformed ids are, an
 * active one is not, in any order, with repeats (the API's periodic check of its waiters). */
static void test_keys_revoked_among(void)
{
    char token[DB_KEYS_TOKEN_LEN];
    struct db_key live = {0}, gone = {0};
    char ids[5][DB_KEYS_ID_LEN];
    unsigned char revoked[5] = {9, 9, 9, 9, 9};

    CU_ASSERT_EQUAL_FATAL(db_keys_create(db, "acme", 0, "live", token, &live), SK_OK);
    CU_ASSERT_EQUAL_FATAL(db_keys_create(db, "acme", 1, "gone", token, &gone), SK_OK);
    CU_ASSERT_EQUAL_FATAL(db_keys_revoke(db, gone.id), SK_OK);
    snprintf(ids[0], sizeof(ids[0]), "%s", gone.id);
    snprintf(ids[1], sizeof(ids[1]), "%s", live.id);
    snprintf(ids[2], sizeof(ids[2]), "ffffffffffffffff");
    snprintf(ids[3], sizeof(ids[3]), "not-a-key");
    snprintf(ids[4], sizeof(ids[4]), "%s", live.id);
    CU_ASSERT_EQUAL(db_keys_revoked_among(db, (const char(*)[DB_KEYS_ID_LEN])ids, 5, revoked),
                    SK_OK);
    CU_ASSERT_EQUAL(revoked[0], 1);
    CU_ASSERT_EQUAL(revoked[1], 0);
    CU_ASSERT_EQUAL(revoked[2], 1);
    CU_ASSERT_EQUAL(revoked[3], 1);
    CU_ASSERT_EQUAL(revoked[4], 0);
    CU_ASSERT_EQUAL(db_keys_revoked_among(db, (const char(*)[DB_KEYS_ID_LEN])ids, 0, revoked),
                    SK_OK);
}

static CU_TestInfo store_tests[] = {
    {"db_exec_one: one row, none, several, an error", test_exec_one},
    {"single-row job statements: the row, not found, conflict", test_single_row_jobs},
    {"single-row key statements: made, checked, revoked once", test_single_row_keys},
    {"keys no longer active among a list: revoked, unknown, malformed", test_keys_revoked_among},
    {"a job is split into shards that are claimed, summed and ended once", test_split_into_shards},
    {"units: inserted by the lease holder once per key, claimed, ended, read, dropped", test_units},
    {"units: a job's end deletes the unit rows its calls left", test_units_swept_at_end},
    {"a checkpoint is stored under the lease and handed to the next attempt",
     test_checkpoint_under_lease},
    {"progress detail stored with a report, kept without one, read with the job",
     test_progress_detail},
    {"insert many in one statement", test_insert_many},
    {"SQLSTATE classes, server down", test_sqlstate_classes},
    {"db_run_tx retries serialization failures", test_run_tx_retries},
    {"only the lease holder writes, once", test_lease_fencing},
    {"an expired lease passes to the next claim", test_expired_lease_moves_on},
    {"retry delay, then failed when attempts run out", test_exhausted_and_retry},
    {"release, cancel of running and flagged jobs", test_release_and_cancel},
    {"each attempt's error, any text, recorded once", test_attempt_errors_any_text},
    {"text[] literals", test_text_array_parse},
    {"a deadlock at the result write is SK_ERETRY, not a lost lease",
     test_deadlock_is_not_lease_lost},
    {"a connection the server ended is replaced for reads", test_dead_connection_reconnects},
    {"reconciler selection by age", test_dispatchable},
    {"stream: owner-only renewal, autoclaim, ack+delete, lock", test_queue},
    {"notifications: job changes and key revocations told apart", test_notify},
    {"stream: a command after a Redis restart succeeds", test_queue_reconnects},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_store_suites[] = {
    {"store", setup, teardown, NULL, NULL, store_tests},
    CU_SUITE_INFO_NULL,
};
