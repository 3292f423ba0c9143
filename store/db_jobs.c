/* SPDX-License-Identifier: MIT */
/* Job SQL (see db_jobs.h). Statements are prepared once per connection by name. */
#include "db_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "sk_buf.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* The columns of struct db_job, in the order read_job reads them. Timestamps are UTC
 * (db.c) in RFC 3339 with microseconds, the precision PostgreSQL keeps, so the text of
 * created_at in a list cursor reads back as the very same instant. Worker names hold no
 * newline (sk_config refuses one), so one text carries the array; errors may hold anything,
 * so theirs comes as the array's own text form (db_text_array). */
#define TS(col) "to_char(" col ", 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
#define JOB_COLS                                                                                   \
    "id::text, kind, status, seed::text, attempts::text, progress_done::text,"                     \
    " progress_total::text, cancel_requested::text, " TS("created_at") ", " TS(                    \
        "started_at") ", " TS("finished_at") ", " TS("updated_at") ", error,"                      \
                                                                   " array_to_string(attempt_"     \
                                                                   "workers[1:attempts], "         \
                                                                   "E'\\n'), retry_of::text,"      \
                                                                   " attempt_errors[1:attempts],"  \
                                                                   " resumed_from::text, "         \
                                                                   "shards::text, tenant, "        \
                                                                   "progress_detail::text, "       \
                                                                   "cost_estimate_ms::text, "      \
                                                                   "cpu_ms::text"
#define JOB_NCOLS 22

#define MS(p) "(" p " * interval '1 millisecond')"

/* DB_JOBS_LEASE_EXPIRED as an SQL literal (it holds no quote) */
#define LEASE_EXPIRED "'" DB_JOBS_LEASE_EXPIRED "'"

int db_jobs_is_id(const char *s)
{
    static const char hex[] = "0123456789abcdefABCDEF";
    size_t i;
    for (i = 0; s[i]; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-')
                return 0;
        } else if (!strchr(hex, s[i])) {
            return 0;
        }
        if (i >= 36)
            return 0;
    }
    return i == 36;
}

/* Copies the text of (0, col) of a one-row result into a new string. */
static enum sk_err take_text(struct db_result *r, int col, char **out)
{
    const char *v = db_result_get(r, 0, col);
    char *s = sk_strdup(v ? v : "null");
    if (!s)
        return SK_ENOMEM;
    *out = s;
    return SK_OK;
}

static long long num(const char *v)
{
    return v ? strtoll(v, NULL, 10) : 0;
}

static void text_into(char *dst, size_t len, const char *v)
{
    snprintf(dst, len, "%s", v ? v : "");
}

/* Splits the newline-joined worker names into one allocation: the pointer array, then the
 * names. */
static enum sk_err split_workers(const char *v, struct db_job *j)
{
    size_t n = 0;
    size_t len = v ? strlen(v) : 0;
    char *names;

    j->workers = NULL;
    j->n_workers = 0;
    if (!len)
        return SK_OK;
    for (size_t i = 0; i < len; i++)
        n += v[i] == '\n';
    n++;
    j->workers = sk_malloc(n * sizeof(char *) + len + 1);
    if (!j->workers)
        return SK_ENOMEM;
    names = (char *)(j->workers + n);
    memcpy(names, v, len + 1);
    j->workers[j->n_workers++] = names;
    for (char *p = names; *p; p++) {
        if (*p == '\n') {
            *p = '\0';
            j->workers[j->n_workers++] = p + 1;
        }
    }
    return SK_OK;
}

/* Reads the JOB_COLS columns starting at `col` of `row` into *out (released by the caller
 * with db_job_release, also on failure). */
static enum sk_err read_job(const struct db_result *r, int row, int col, struct db_job *out)
{
    const char *err;

    memset(out, 0, sizeof(*out));
    text_into(out->id, sizeof(out->id), db_result_get(r, row, col));
    text_into(out->kind, sizeof(out->kind), db_result_get(r, row, col + 1));
    text_into(out->status, sizeof(out->status), db_result_get(r, row, col + 2));
    out->seed = num(db_result_get(r, row, col + 3));
    out->attempts = (int)num(db_result_get(r, row, col + 4));
    out->done = num(db_result_get(r, row, col + 5));
    out->total = num(db_result_get(r, row, col + 6));
    err = db_result_get(r, row, col + 7);
    out->cancel_requested = err && err[0] == 't';
    text_into(out->created_at, sizeof(out->created_at), db_result_get(r, row, col + 8));
    text_into(out->started_at, sizeof(out->started_at), db_result_get(r, row, col + 9));
    text_into(out->finished_at, sizeof(out->finished_at), db_result_get(r, row, col + 10));
    text_into(out->updated_at, sizeof(out->updated_at), db_result_get(r, row, col + 11));
    err = db_result_get(r, row, col + 12);
    if (err && !(out->error = sk_strdup(err)))
        return SK_ENOMEM;
    text_into(out->retry_of, sizeof(out->retry_of), db_result_get(r, row, col + 14));
    out->resumed_from = num(db_result_get(r, row, col + 16));
    out->shards = (int)num(db_result_get(r, row, col + 17));
    text_into(out->tenant, sizeof(out->tenant), db_result_get(r, row, col + 18));
    err = db_result_get(r, row, col + 19);
    if (err && !(out->detail = sk_strdup(err)))
        return SK_ENOMEM;
    err = db_result_get(r, row, col + 20);
    out->cost_estimate_ms = err ? num(err) : -1;
    out->cpu_ms = num(db_result_get(r, row, col + 21));
    if (db_text_array(db_result_get(r, row, col + 15), &out->errors, &out->n_errors) == SK_ENOMEM)
        return SK_ENOMEM; /* a malformed array (never seen) reads as none */
    return split_workers(db_result_get(r, row, col + 13), out);
}

void db_job_release(struct db_job *j)
{
    if (!j)
        return;
    sk_free(j->error);
    sk_free(j->workers);
    sk_free(j->errors);
    sk_free(j->detail);
    j->detail = NULL;
    j->error = NULL;
    j->workers = NULL;
    j->n_workers = 0;
    j->errors = NULL;
    j->n_errors = 0;
}

void db_jobs_free(struct db_job *jobs, size_t n)
{
    for (size_t i = 0; jobs && i < n; i++)
        db_job_release(&jobs[i]);
    sk_free(jobs);
}

/* Reads every row of `r` (JOB_COLS from column 0), at most `max`, into a new array. */
static enum sk_err read_jobs(const struct db_result *r, int max, struct db_job **out, size_t *n)
{
    int rows = db_result_rows(r);
    struct db_job *jobs;
    enum sk_err err = SK_OK;

    if (rows > max)
        rows = max;
    jobs = sk_calloc(rows ? (size_t)rows : 1, sizeof(*jobs));
    if (!jobs)
        return SK_ENOMEM;
    for (int i = 0; !err && i < rows; i++)
        err = read_job(r, i, 0, &jobs[i]);
    if (err) {
        db_jobs_free(jobs, (size_t)rows);
        return err;
    }
    *out = jobs;
    *n = (size_t)rows;
    return SK_OK;
}

/* Runs a statement that answers with one job row (JOB_COLS from column 0, db_exec_one) and
 * reads it into *out (release with db_job_release). SK_ENOTFOUND when no row came back, with
 * *out untouched; a row that cannot be read (SK_ENOMEM) leaves *out released. */
static enum sk_err one_job(struct db *db, enum db_exec_flags flags, const char *name,
                           const char *sql, int n, const char *const *p, struct db_job *out)
{
    struct db_result *r = NULL;
    enum sk_err err = db_exec_one(db, flags, name, sql, n, p, &r);

    if (err)
        return err;
    err = read_job(r, 0, 0, out);
    if (err)
        db_job_release(out);
    db_result_free(r);
    return err;
}

/* `ms` as a parameter's text: NULL (no estimate) when negative. */
static const char *cost_text(long long ms, char buf[24])
{
    if (ms < 0)
        return NULL;
    snprintf(buf, 24, "%lld", ms);
    return buf;
}

enum sk_err db_jobs_insert(struct db *db, const char *tenant, const char *kind, const char *request,
                           uint64_t seed, uint64_t total, long long cost_ms, struct db_job *out)
{
    char seed_s[24];
    char total_s[24];
    char cost_s[24];
    const char *p[6] = {kind,
                        request,
                        seed_s,
                        total_s,
                        tenant ? tenant : DB_JOBS_TENANT,
                        cost_text(cost_ms, cost_s)};
    enum sk_err err;

    snprintf(seed_s, sizeof(seed_s), "%llu", (unsigned long long)seed);
    snprintf(total_s, sizeof(total_s), "%llu", (unsigned long long)total);
    err = one_job(db, DB_EXEC_PLAIN, "jobs_insert",
                  "INSERT INTO jobs (id, kind, request, seed, progress_total, tenant,"
                  " cost_estimate_ms)"
                  " VALUES (gen_random_uuid(), $1, $2::jsonb, $3, $4, $5, $6::bigint)"
                  " RETURNING " JOB_COLS,
                  6, p, out);
    /* an INSERT with RETURNING that gave no row is a bug, not a missing job */
    return err == SK_ENOTFOUND ? SK_EINTERNAL : err;
}

int db_jobs_is_final(const char *status)
{
    for (int s = DB_JOBS_FIRST_FINAL; s < DB_JOBS_N_STATUS; s++)
        if (strcmp(status, db_jobs_statuses[s]) == 0)
            return 1;
    return 0;
}

void db_jobs_new_id(char id[DB_JOBS_ID_LEN])
{
    unsigned char b[16];
    if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
        /* getrandom does not fail for 16 bytes once the pool is initialised; if it ever
         * does, fall back to a counter mixed with the clock (still unique per process) */
        static unsigned long long counter;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        unsigned long long x =
            ++counter ^ ((unsigned long long)ts.tv_nsec << 20) ^ (unsigned long long)ts.tv_sec;
        for (int i = 0; i < 16; i++)
            b[i] = (unsigned char)(x >> (8 * (i % 8))) ^ (unsigned char)(i * 37);
    }
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    snprintf(id, DB_JOBS_ID_LEN,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
             b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
             b[15]);
}

/* Appends `s` to `b` as one element of a PostgreSQL array literal: double-quoted, with
 * '"' and '\' escaped. */
static void append_elem(struct sk_buf *b, const char *s, int first)
{
    (void)sk_buf_adds(b, first ? "\"" : ",\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            (void)sk_buf_add(b, "\\", 1);
        (void)sk_buf_add(b, s, 1);
    }
    (void)sk_buf_adds(b, "\"");
}

enum sk_err db_jobs_insert_many(struct db *db, struct db_jobs_new *rows, size_t n)
{
    struct sk_buf arr[7];
    const char *params[7];
    struct db_result *r = NULL;
    enum sk_err err = SK_OK;
    size_t got = 0;

    for (int a = 0; a < 7; a++) {
        sk_buf_init(&arr[a], 0);
        (void)sk_buf_adds(&arr[a], "{");
    }
    for (size_t i = 0; i < n; i++) {
        char seed[24];
        char total[24];
        snprintf(seed, sizeof(seed), "%llu", (unsigned long long)rows[i].seed);
        snprintf(total, sizeof(total), "%llu", (unsigned long long)rows[i].total);
        append_elem(&arr[0], rows[i].id, i == 0);
        append_elem(&arr[1], rows[i].kind, i == 0);
        append_elem(&arr[2], rows[i].request, i == 0);
        append_elem(&arr[3], seed, i == 0);
        append_elem(&arr[4], total, i == 0);
        append_elem(&arr[5], rows[i].tenant ? rows[i].tenant : DB_JOBS_TENANT, i == 0);
        if (rows[i].cost_ms < 0) {
            (void)sk_buf_adds(&arr[6], i == 0 ? "NULL" : ",NULL");
        } else {
            char cost[24];
            snprintf(cost, sizeof(cost), "%lld", rows[i].cost_ms);
            append_elem(&arr[6], cost, i == 0);
        }
    }
    for (int a = 0; a < 7; a++) {
        (void)sk_buf_adds(&arr[a], "}");
        params[a] = arr[a].p;
        if (!err)
            err = arr[a].err;
    }
    if (!err)
        err = db_exec(db, "jobs_insert_many",
                      "INSERT INTO jobs (id, kind, request, seed, progress_total, tenant,"
                      " cost_estimate_ms)"
                      " SELECT * FROM unnest($1::uuid[], $2::text[], $3::jsonb[], $4::bigint[],"
                      " $5::bigint[], $6::text[], $7::bigint[])"
                      " RETURNING " JOB_COLS,
                      7, params, &r);
    /* match the returned rows to ours by id: RETURNING promises no order */
    for (int k = 0; !err && k < db_result_rows(r); k++) {
        const char *id = db_result_get(r, k, 0);
        for (size_t i = 0; i < n; i++) {
            if (!rows[i].got && strcmp(rows[i].id, id) == 0) {
                rows[i].got = 1;
                err = read_job(r, k, 0, &rows[i].job);
                got++;
                break;
            }
        }
    }
    if (!err && got != n)
        err = SK_EINTERNAL;
    if (err) {
        for (size_t i = 0; i < n; i++) {
            db_job_release(&rows[i].job);
            rows[i].got = 0;
        }
    }
    db_result_free(r);
    for (int a = 0; a < 7; a++)
        sk_buf_release(&arr[a]);
    return err;
}

enum sk_err db_jobs_get(struct db *db, const char *id, struct db_job *out)
{
    if (!db_jobs_is_id(id))
        return SK_ENOTFOUND;
    return one_job(db, DB_EXEC_IDEM, "jobs_get",
                   "SELECT " JOB_COLS " FROM jobs WHERE id = $1::uuid", 1, &id, out);
}

enum sk_err db_jobs_result(struct db *db, const char *id, char **json, char status[16])
{
    struct db_result *r = NULL;
    enum sk_err err;

    if (!db_jobs_is_id(id))
        return SK_ENOTFOUND;
    err = db_exec_one(db, DB_EXEC_IDEM, "jobs_result",
                      "SELECT status, result::text FROM jobs WHERE id = $1::uuid", 1, &id, &r);
    if (err)
        return err;
    if (!db_result_get(r, 0, 1)) {
        snprintf(status, 16, "%s", db_result_get(r, 0, 0));
        err = SK_ECONFLICT;
    } else {
        err = take_text(r, 1, json);
    }
    db_result_free(r);
    return err;
}

enum sk_err db_jobs_list(struct db *db, const char *tenant, const char *status, const char *kind,
                         int limit, const char *after_ts, const char *after_id,
                         struct db_job **items, size_t *n_items, int *more)
{
    static const char *const names[16] = {
        "jobs_list_0",  "jobs_list_1",  "jobs_list_2",  "jobs_list_3",
        "jobs_list_4",  "jobs_list_5",  "jobs_list_6",  "jobs_list_7",
        "jobs_list_8",  "jobs_list_9",  "jobs_list_10", "jobs_list_11",
        "jobs_list_12", "jobs_list_13", "jobs_list_14", "jobs_list_15"};
    char limit_s[16];
    char sql[1024];
    char where[256] = "";
    const char *p[6];
    int n = 0;
    int variant = (status ? 1 : 0) | (kind ? 2 : 0) | (after_ts ? 4 : 0) | (tenant ? 8 : 0);
    struct db_result *r = NULL;
    enum sk_err err;

    if ((after_ts == NULL) != (after_id == NULL) || (after_id && !db_jobs_is_id(after_id)))
        return SK_EINVAL;
    /* One statement per combination of filters (not "$1 IS NULL OR ..."), so that each
     * prepared plan can walk its (…, created_at, id) index. */
    if (tenant) {
        p[n++] = tenant;
        snprintf(where + strlen(where), sizeof(where) - strlen(where), " AND tenant = $%d", n);
    }
    if (status) {
        p[n++] = status;
        snprintf(where + strlen(where), sizeof(where) - strlen(where), " AND status = $%d", n);
    }
    if (kind) {
        p[n++] = kind;
        snprintf(where + strlen(where), sizeof(where) - strlen(where), " AND kind = $%d", n);
    }
    if (after_ts) {
        p[n++] = after_ts;
        p[n++] = after_id;
        snprintf(where + strlen(where), sizeof(where) - strlen(where),
                 " AND (created_at, id) < ($%d::timestamptz, $%d::uuid)", n - 1, n);
    }
    /* one row more than asked tells whether a next page exists */
    snprintf(limit_s, sizeof(limit_s), "%d", limit + 1);
    p[n++] = limit_s;
    snprintf(sql, sizeof(sql),
             "SELECT " JOB_COLS " FROM jobs WHERE parent_id IS NULL%s"
             " ORDER BY created_at DESC, id DESC LIMIT $%d::int",
             where, n);
    err = db_exec_idem(db, names[variant], sql, n, p, &r);
    if (err)
        return err;
    err = read_jobs(r, limit, items, n_items);
    if (!err)
        *more = db_result_rows(r) > limit;
    db_result_free(r);
    return err;
}

/* After a conditional statement changed no row: SK_ECONFLICT when job `id` exists (it was
 * in the wrong state), SK_ENOTFOUND when it does not, or the store's error. */
static enum sk_err conflict_or_missing(struct db *db, const char *id)
{
    enum sk_err err = db_exec_one(db, DB_EXEC_IDEM, "jobs_exists",
                                  "SELECT 1 FROM jobs WHERE id = $1::uuid", 1, &id, NULL);
    return err ? err : SK_ECONFLICT;
}

enum sk_err db_jobs_cancel(struct db *db, const char *id, struct db_job *out)
{
    enum sk_err err;

    if (!db_jobs_is_id(id))
        return SK_ENOTFOUND;
    /* A split job's shards are flagged with it: queued ones end at once, running ones at
     * their next chunk (and the last to end ends the job). */
    err = one_job(db, DB_EXEC_PLAIN, "jobs_cancel",
                  "WITH s AS (UPDATE jobs SET cancel_requested = true,"
                  " status = CASE WHEN status = 'queued' THEN 'canceled' ELSE status END,"
                  " finished_at = CASE WHEN status = 'queued' THEN now() ELSE finished_at END,"
                  " updated_at = now()"
                  " WHERE parent_id = $1::uuid AND status IN ('queued', 'running'))"
                  " UPDATE jobs SET cancel_requested = true,"
                  " status = CASE WHEN status = 'queued' THEN 'canceled' ELSE status END,"
                  " finished_at = CASE WHEN status = 'queued' THEN now() END,"
                  " updated_at = now()"
                  " WHERE id = $1::uuid AND status IN ('queued', 'running')"
                  " RETURNING " JOB_COLS,
                  1, &id, out);
    return err == SK_ENOTFOUND ? conflict_or_missing(db, id) : err;
}

enum sk_err db_jobs_claim(struct db *db, const char *id, const char *worker, const char *owner,
                          long lease_ms, long max_attempts, struct db_claim *out)
{
    char lease_s[24];
    char max_s[24];
    const char *p[5] = {id, owner, lease_s, max_s, worker};
    struct db_result *r = NULL;
    struct db_claim c = {0};
    enum sk_err err;

    if (!db_jobs_is_id(id)) {
        out->state = DB_CLAIM_SKIPPED;
        out->request = NULL;
        return SK_OK;
    }
    snprintf(lease_s, sizeof(lease_s), "%ld", lease_ms);
    snprintf(max_s, sizeof(max_s), "%ld", max_attempts);
    /* One statement decides everything under the row lock, so two workers that read the
     * same entry (redelivery, reaper) cannot both win. SET sees the old row. */
    err = db_exec_one(
        db, DB_EXEC_PLAIN, "jobs_claim",
        "UPDATE jobs SET"
        " status = CASE WHEN cancel_requested THEN 'canceled'"
        "   WHEN attempts >= $4::int THEN 'failed' ELSE 'running' END,"
        " attempts = CASE WHEN cancel_requested OR attempts >= $4::int THEN attempts"
        "   ELSE attempts + 1 END,"
        " lease_owner = CASE WHEN cancel_requested OR attempts >= $4::int THEN NULL ELSE $2 END,"
        " lease_expires_at = CASE WHEN cancel_requested OR attempts >= $4::int THEN NULL"
        "   ELSE now() + " MS(
            "$3::bigint") " END,"
                          " started_at = coalesce(started_at, now()),"
                          " attempt_workers = CASE WHEN cancel_requested OR attempts >= $4::int"
                          "   THEN attempt_workers ELSE attempt_workers[1:attempts] || $5::text "
                          "END,"
                          /* a take-over from a dead worker ends that attempt with the lease error;
                           * a new attempt starts with no error (its slot is what its end writes) */
                          " attempt_errors = CASE WHEN status = 'running'"
                          "   THEN array_append(attempt_errors[1:attempts - 1], " LEASE_EXPIRED ")"
                          "   ELSE attempt_errors[1:attempts] END"
                          "   || CASE WHEN cancel_requested OR attempts >= $4::int THEN "
                          "'{}'::text[]"
                          "   ELSE ARRAY[NULL::text] END,"
                          " finished_at = CASE WHEN cancel_requested OR attempts >= $4::int THEN "
                          "now() END,"
                          " error = CASE WHEN NOT cancel_requested AND attempts >= $4::int"
                          "   THEN 'failed after ' || attempts || ' attempts: ' ||"
                          "   CASE WHEN status = 'running' THEN " LEASE_EXPIRED
                          " ELSE coalesce(error, " LEASE_EXPIRED ") END"
                          "   WHEN status = 'running' THEN " LEASE_EXPIRED " ELSE error END,"
                          " progress_done = checkpoint_done, resumed_from = checkpoint_done,"
                          " checkpoint = CASE WHEN (cancel_requested OR attempts >= $4::int)"
                          "   AND parent_id IS NULL THEN NULL ELSE checkpoint END,"
                          " run_after = NULL, updated_at = now()"
                          " WHERE id = $1::uuid AND shards = 0"
                          "   AND ((status = 'queued' AND (run_after IS NULL OR"
                          " run_after <= now()))"
                          "   OR (status = 'running' AND lease_expires_at < now()))"
                          " RETURNING status, attempts, kind, request::text,"
                          " encode(checkpoint, 'hex'), checkpoint_done::text, parent_id::text,"
                          " unit_first::text, progress_total::text, unit_key IS NOT NULL,"
                          " encode(unit_spec, 'hex'),"
                          /* a unit is a cache of a result (db_units.c): its claim need not
                           * wait for the WAL flush */
                          " CASE WHEN unit_key IS NOT NULL"
                          "   THEN set_config('synchronous_commit', 'off', true) END,"
                          " floor(extract(epoch FROM now() - created_at))::bigint::text",
        5, p, &r);
    if (err == SK_ENOTFOUND) {
        c.state = DB_CLAIM_SKIPPED;
        *out = c;
        return SK_OK;
    }
    if (err)
        return err;
    text_into(c.parent, sizeof(c.parent), db_result_get(r, 0, 6));
    c.first = (uint64_t)num(db_result_get(r, 0, 7));
    c.units = (uint64_t)num(db_result_get(r, 0, 8));
    c.unit = strcmp(db_result_get(r, 0, 9), "t") == 0;
    c.age_s = num(db_result_get(r, 0, 12));
    if (strcmp(db_result_get(r, 0, 0), "running") != 0) {
        c.state = DB_CLAIM_ENDED;
    } else {
        c.state = DB_CLAIM_RUNNING;
        c.attempts = (int)strtol(db_result_get(r, 0, 1), NULL, 10);
        snprintf(c.kind, sizeof(c.kind), "%s", db_result_get(r, 0, 2));
        c.request = sk_strdup(db_result_get(r, 0, 3));
        if (!c.request)
            err = SK_ENOMEM;
        if (!err && db_result_get(r, 0, 4)) {
            err = db_from_hex(db_result_get(r, 0, 4), &c.checkpoint, &c.checkpoint_len);
            c.checkpoint_done = (uint64_t)num(db_result_get(r, 0, 5));
        }
        if (!err && db_result_get(r, 0, 10))
            err = db_from_hex(db_result_get(r, 0, 10), &c.unit_spec, &c.unit_spec_len);
    }
    db_result_free(r);
    if (!err)
        *out = c;
    else
        db_jobs_claim_release(&c);
    return err;
}

void db_jobs_claim_release(struct db_claim *c)
{
    if (!c)
        return;
    sk_free(c->request);
    sk_free(c->checkpoint);
    sk_free(c->unit_spec);
    c->request = NULL;
    c->checkpoint = NULL;
    c->unit_spec = NULL;
    c->unit_spec_len = 0;
    c->checkpoint_len = 0;
}

/* Runs a fenced UPDATE: SK_ELEASE when no row matched (the lease is lost). */
static enum sk_err fenced(struct db *db, const char *name, const char *sql, int n,
                          const char *const *p)
{
    struct db_result *r = NULL;
    enum sk_err err = db_exec(db, name, sql, n, p, &r);
    if (err)
        return err;
    err = db_result_rows(r) == 1 ? SK_OK : SK_ELEASE;
    db_result_free(r);
    return err;
}

#define FENCE " WHERE id = $1::uuid AND lease_owner = $2 AND status = 'running' RETURNING 1"
/* An optimisation's unit rows (db_units.h) live only while one of its calls runs; the
 * call deletes them, but a delete that failed (a deadlock with a cancel flagging them, the
 * store gone for a moment) must not outlive the job: its end deletes what is left, fenced
 * like the end itself. A job without units deletes nothing. */
#define UNITS_SWEPT                                                                                \
    "WITH u AS (DELETE FROM jobs WHERE parent_id = $1::uuid AND unit_key IS NOT NULL"              \
    " AND EXISTS (SELECT 1 FROM jobs f WHERE f.id = $1::uuid AND f.lease_owner = $2"               \
    " AND f.status = 'running')) "
#define ENDED                                                                                      \
    " finished_at = now(), lease_owner = NULL, lease_expires_at = NULL,"                           \
    " checkpoint = CASE WHEN parent_id IS NULL THEN NULL ELSE checkpoint END,"                     \
    " updated_at = now()"

enum sk_err db_jobs_progress(struct db *db, const char *id, const char *owner, uint64_t done,
                             const struct db_progress *pr, long lease_ms, int *cancel)
{
    char done_s[24];
    char lease_s[24];
    char from_s[24];
    char *ckpt = NULL;
    const char *p[7] = {id, owner, done_s, lease_s, from_s, NULL, pr ? pr->detail : NULL};
    struct db_result *r = NULL;
    enum sk_err err;

    snprintf(done_s, sizeof(done_s), "%llu", (unsigned long long)done);
    snprintf(lease_s, sizeof(lease_s), "%ld", lease_ms);
    snprintf(from_s, sizeof(from_s), "%llu", (unsigned long long)(pr ? pr->from : 0));
    if (pr && pr->checkpoint) {
        ckpt = db_to_hex(pr->checkpoint, pr->checkpoint_len);
        if (!ckpt)
            return SK_ENOMEM;
        p[5] = ckpt;
    }
    /* The checkpoint and its units change together: a report without one keeps both. */
    err = db_exec_idem(
        db, "jobs_progress",
        "UPDATE jobs SET progress_done = $3::bigint, resumed_from = $5::bigint,"
        " checkpoint = coalesce($6::bytea, checkpoint),"
        " checkpoint_done = CASE WHEN $6::bytea IS NULL THEN checkpoint_done ELSE $3::bigint END,"
        " progress_detail = coalesce($7::jsonb, progress_detail),"
        " lease_expires_at = now() + " MS(
            "$4::bigint") ", updated_at = now()"
                          " WHERE id = $1::uuid AND lease_owner = $2 AND status = 'running'"
                          " RETURNING cancel_requested",
        7, p, &r);
    sk_free(ckpt);
    if (err)
        return err;
    if (db_result_rows(r) == 1)
        *cancel = strcmp(db_result_get(r, 0, 0), "t") == 0;
    else
        err = SK_ELEASE;
    db_result_free(r);
    return err;
}

enum sk_err db_jobs_succeed(struct db *db, const char *id, const char *owner, const char *result)
{
    const char *p[3] = {id, owner, result};
    return fenced(db, "jobs_succeed",
                  UNITS_SWEPT
                  "UPDATE jobs SET status = 'succeeded', result = $3::json, error = NULL,"
                  " progress_done = progress_total," ENDED FENCE,
                  3, p);
}

enum sk_err db_jobs_cancelled(struct db *db, const char *id, const char *owner, const char *partial)
{
    const char *p[3] = {id, owner, partial};
    return fenced(db, "jobs_cancelled",
                  UNITS_SWEPT "UPDATE jobs SET status = 'canceled', result = $3::json," ENDED FENCE,
                  3, p);
}

/* The end of the attempt in progress (attempts), written with `p` as its error */
#define ATTEMPT_ERROR(p) " attempt_errors = array_append(attempt_errors[1:attempts - 1], " p "),"

enum sk_err db_jobs_fail(struct db *db, const char *id, const char *owner, const char *error,
                         const char *attempt_error)
{
    const char *p[4] = {id, owner, error, attempt_error};
    return fenced(db, "jobs_fail",
                  UNITS_SWEPT
                  "UPDATE jobs SET status = 'failed', error = $3," ATTEMPT_ERROR("$4::text")
                      ENDED FENCE,
                  4, p);
}

enum sk_err db_jobs_retry(struct db *db, const char *id, const char *owner, long delay_ms,
                          const char *error)
{
    char delay_s[24];
    const char *p[4] = {id, owner, delay_s, error};
    snprintf(delay_s, sizeof(delay_s), "%ld", delay_ms);
    return fenced(
        db, "jobs_retry",
        "UPDATE jobs SET status = 'queued', error = $4," ATTEMPT_ERROR(
            "$4::text") " progress_done = checkpoint_done, run_after = now() + " MS("$3::bigint") ", lease_owner = NULL, lease_expires_at = NULL, updated_at = now()" FENCE,
        4, p);
}

enum sk_err db_jobs_release(struct db *db, const char *id, const char *owner)
{
    const char *p[2] = {id, owner};
    return fenced(db, "jobs_release",
                  "UPDATE jobs SET status = 'queued', attempts = attempts - 1,"
                  " progress_done = checkpoint_done,"
                  " run_after = NULL, lease_owner = NULL, lease_expires_at = NULL,"
                  " updated_at = now()" FENCE,
                  2, p);
}

enum sk_err db_jobs_defer(struct db *db, const char *id, const char *owner, long delay_ms)
{
    char delay_s[24];
    const char *p[3] = {id, owner, delay_s};
    snprintf(delay_s, sizeof(delay_s), "%ld", delay_ms);
    return fenced(db, "jobs_defer",
                  "UPDATE jobs SET status = 'queued', attempts = attempts - 1,"
                  " started_at = CASE WHEN attempts = 1 THEN NULL ELSE started_at END,"
                  " progress_done = checkpoint_done,"
                  " run_after = now() + " MS(
                      "$3::bigint") ", lease_owner = NULL,"
                                    " lease_expires_at = NULL, updated_at = now()" FENCE,
                  3, p);
}

enum sk_err db_jobs_dispatchable(struct db *db, long age_ms, int limit, db_jobs_id_fn *fn,
                                 void *arg)
{
    char age_s[24];
    char limit_s[16];
    const char *p[2] = {age_s, limit_s};
    struct db_result *r = NULL;
    enum sk_err err;

    snprintf(age_s, sizeof(age_s), "%ld", age_ms);
    snprintf(limit_s, sizeof(limit_s), "%d", limit);
    err = db_exec_idem(db, "jobs_dispatchable",
                       "SELECT id::text, attempts FROM jobs WHERE shards = 0 AND"
                       " ((status = 'queued' AND coalesce(run_after, created_at + " MS(
                           "$1::bigint") ") <= now())"
                                         " OR (status = 'running' AND lease_expires_at + " MS(
                                             "$1::bigint") " < now()))"
                                                           " ORDER BY created_at LIMIT $2::int",
                       2, p, &r);
    if (err)
        return err;
    for (int i = 0; i < db_result_rows(r); i++)
        fn(db_result_get(r, i, 0), (int)strtol(db_result_get(r, i, 1), NULL, 10), arg);
    db_result_free(r);
    return SK_OK;
}

/* ===== Shards (migration 0008): a big job split into ranges of its units ===== */

enum sk_err db_jobs_split(struct db *db, const char *id, const char *owner, uint64_t shard_units,
                          int n, char ***ids)
{
    char units_s[24];
    char n_s[16];
    const char *p[4] = {id, owner, units_s, n_s};
    struct db_result *r = NULL;
    char **out = NULL;
    enum sk_err err;

    snprintf(units_s, sizeof(units_s), "%llu", (unsigned long long)shard_units);
    snprintf(n_s, sizeof(n_s), "%d", n);
    /* One statement, fenced like every write of the lease holder: the job keeps running
     * without a lease (no claim takes it: shards > 0) and its shards are queued rows with
     * its document, seed and cancel flag, shard g holding units [g * size, ...). */
    err = db_exec(db, "jobs_split",
                  "WITH p AS (UPDATE jobs SET shards = $4::int, lease_owner = NULL,"
                  " lease_expires_at = NULL, progress_done = 0, checkpoint = NULL,"
                  " checkpoint_done = 0, updated_at = now()"
                  " WHERE id = $1::uuid AND lease_owner = $2 AND status = 'running' AND shards = 0"
                  " RETURNING id, kind, request, seed, progress_total, cancel_requested, tenant)"
                  " INSERT INTO jobs (id, kind, request, seed, progress_total, parent_id,"
                  " unit_first, cancel_requested, tenant)"
                  " SELECT gen_random_uuid(), p.kind, p.request, p.seed,"
                  " least($3::bigint, p.progress_total - g * $3::bigint), p.id, g * $3::bigint,"
                  " p.cancel_requested, p.tenant FROM p, generate_series(0, $4::int - 1) AS g"
                  " RETURNING id::text",
                  4, p, &r);
    if (err)
        return err;
    if (db_result_rows(r) != n) {
        db_result_free(r);
        return SK_ELEASE; /* the UPDATE matched nothing: the lease is lost */
    }
    out = sk_calloc((size_t)n + 1, sizeof(*out));
    if (!out)
        err = SK_ENOMEM;
    for (int i = 0; !err && i < n; i++)
        if (!(out[i] = sk_strdup(db_result_get(r, i, 0))))
            err = SK_ENOMEM;
    db_result_free(r);
    if (err) {
        db_jobs_free_ids(out);
        return err;
    }
    *ids = out;
    return SK_OK;
}

enum sk_err db_jobs_parent_progress(struct db *db, const char *parent, uint64_t *done,
                                    uint64_t *total)
{
    struct db_result *r = NULL;
    enum sk_err err;

    err = db_exec_one(db, DB_EXEC_IDEM, "jobs_parent_progress",
                      "UPDATE jobs SET progress_done = (SELECT coalesce(sum(s.progress_done), 0)"
                      " FROM jobs s WHERE s.parent_id = $1::uuid), updated_at = now()"
                      " WHERE id = $1::uuid AND status = 'running' AND shards > 0"
                      " RETURNING progress_done::text, progress_total::text",
                      1, &parent, &r);
    if (err == SK_ENOTFOUND)
        return SK_ECONFLICT; /* ended meanwhile */
    if (err)
        return err;
    *done = (uint64_t)num(db_result_get(r, 0, 0));
    *total = (uint64_t)num(db_result_get(r, 0, 1));
    db_result_free(r);
    return SK_OK;
}

enum sk_err db_jobs_shard_succeed(struct db *db, const char *id, const char *owner,
                                  const void *checkpoint, size_t len)
{
    char *hex = db_to_hex(checkpoint, len);
    const char *p[3] = {id, owner, hex};
    enum sk_err err;

    if (!hex)
        return SK_ENOMEM;
    /* no result of its own: the checkpoint holds the counts the job merges */
    err = fenced(db, "jobs_shard_succeed",
                 "UPDATE jobs SET status = 'succeeded', error = NULL, checkpoint = $3::bytea,"
                 " checkpoint_done = progress_total, progress_done = progress_total,"
                 " finished_at = now(), lease_owner = NULL, lease_expires_at = NULL,"
                 " updated_at = now() WHERE id = $1::uuid AND lease_owner = $2"
                 " AND status = 'running' AND parent_id IS NOT NULL RETURNING 1",
                 3, p);
    sk_free(hex);
    return err;
}

void db_jobs_shards_free(struct db_shard *shards, int n)
{
    for (int i = 0; shards && i < n; i++) {
        sk_free(shards[i].checkpoint);
        sk_free(shards[i].error);
    }
    sk_free(shards);
}

enum sk_err db_jobs_shards(struct db *db, const char *parent, struct db_shard **out, int *n)
{
    struct db_result *r = NULL;
    struct db_shard *sh = NULL;
    int rows;
    enum sk_err err;

    err = db_exec_idem(db, "jobs_shards",
                       "SELECT status, unit_first::text, progress_total::text,"
                       " encode(checkpoint, 'hex'), error FROM jobs"
                       " WHERE parent_id = $1::uuid ORDER BY jobs.unit_first",
                       1, &parent, &r);
    if (err)
        return err;
    rows = db_result_rows(r);
    sh = sk_calloc(rows ? (size_t)rows : 1, sizeof(*sh));
    if (!sh)
        err = SK_ENOMEM;
    for (int i = 0; !err && i < rows; i++) {
        const char *ck = db_result_get(r, i, 3);
        const char *e = db_result_get(r, i, 4);
        text_into(sh[i].status, sizeof(sh[i].status), db_result_get(r, i, 0));
        sh[i].first = (uint64_t)num(db_result_get(r, i, 1));
        sh[i].units = (uint64_t)num(db_result_get(r, i, 2));
        if (ck)
            err = db_from_hex(ck, &sh[i].checkpoint, &sh[i].checkpoint_len);
        if (!err && e && !(sh[i].error = sk_strdup(e)))
            err = SK_ENOMEM;
    }
    db_result_free(r);
    if (err) {
        db_jobs_shards_free(sh, rows);
        return err;
    }
    *out = sh;
    *n = rows;
    return SK_OK;
}

enum sk_err db_jobs_parent_end(struct db *db, const char *parent, const char *status,
                               const char *result, const char *error, int *ended)
{
    const char *p[4] = {parent, status, result, error};
    struct db_result *r = NULL;
    enum sk_err err;

    /* Not fenced by a lease (a split job has none): the first end wins, and every worker
     * that could end it computes the same end from the same shard rows. Shards still
     * queued or running (after a shard failed) are stopped like a cancel stops them. */
    err = db_exec(db, "jobs_parent_end",
                  "WITH p AS (UPDATE jobs SET status = $2, result = $3::json, error = $4,"
                  " progress_done = CASE WHEN $2 = 'succeeded' THEN progress_total ELSE"
                  " (SELECT coalesce(sum(s.progress_done), 0) FROM jobs s"
                  " WHERE s.parent_id = $1::uuid) END,"
                  " finished_at = now(), updated_at = now()"
                  " WHERE id = $1::uuid AND status = 'running' AND shards > 0 RETURNING id),"
                  " s AS (UPDATE jobs SET cancel_requested = true,"
                  " status = CASE WHEN status = 'queued' THEN 'canceled' ELSE status END,"
                  " finished_at = CASE WHEN status = 'queued' THEN now() ELSE finished_at END,"
                  " updated_at = now() WHERE parent_id IN (SELECT id FROM p)"
                  " AND status IN ('queued', 'running'))"
                  " SELECT count(*) FROM p",
                  4, p, &r);
    if (err)
        return err;
    *ended = db_result_rows(r) == 1 && strcmp(db_result_get(r, 0, 0), "1") == 0;
    db_result_free(r);
    return SK_OK;
}

enum sk_err db_jobs_parents_ready(struct db *db, int limit, db_jobs_id_fn *fn, void *arg)
{
    char limit_s[16];
    const char *p[1] = {limit_s};
    struct db_result *r = NULL;
    enum sk_err err;

    snprintf(limit_s, sizeof(limit_s), "%d", limit);
    err = db_exec_idem(db, "jobs_parents_ready",
                       "SELECT id::text, attempts FROM jobs j WHERE status = 'running'"
                       " AND shards > 0 AND NOT EXISTS (SELECT 1 FROM jobs s"
                       " WHERE s.parent_id = j.id AND s.status IN ('queued', 'running'))"
                       " ORDER BY created_at LIMIT $1::int",
                       1, p, &r);
    if (err)
        return err;
    for (int i = 0; i < db_result_rows(r); i++)
        fn(db_result_get(r, i, 0), (int)strtol(db_result_get(r, i, 1), NULL, 10), arg);
    db_result_free(r);
    return SK_OK;
}

#define KEY_HASH "encode(sha256(convert_to($2, 'UTF8')), 'hex')"

enum sk_err db_jobs_insert_keyed(struct db *db, const char *tenant, const char *key,
                                 const char *canonical, long ttl_s, const char *kind,
                                 const char *request, uint64_t seed, uint64_t total,
                                 long long cost_ms, struct db_job *out, enum db_keyed *outcome)
{
    char seed_s[24];
    char total_s[24];
    char ttl_s_txt[24];
    char cost_s[24];
    const char *t = tenant ? tenant : DB_JOBS_TENANT;
    const char *del[3] = {key, ttl_s_txt, t};
    const char *p[8] = {key,    canonical, kind, request,
                        seed_s, total_s,   t,    cost_text(cost_ms, cost_s)};
    const char *lp[3] = {key, canonical, t};
    struct db_result *r = NULL;
    enum sk_err err;

    snprintf(seed_s, sizeof(seed_s), "%llu", (unsigned long long)seed);
    snprintf(total_s, sizeof(total_s), "%llu", (unsigned long long)total);
    snprintf(ttl_s_txt, sizeof(ttl_s_txt), "%ld", ttl_s);
    /* an expired key starts afresh */
    err = db_exec_idem(db, "idem_expire",
                       "DELETE FROM idempotency_keys WHERE key = $1 AND tenant = $3"
                       " AND created_at < now() - $2::bigint * interval '1 second'",
                       3, del, NULL);
    if (err)
        return err;
    /* One statement: the key row and the job row are made together or not at all; a
     * concurrent request with the same key waits on the primary key and then makes nothing.
     * Run again after a lost connection it makes nothing either, and the lookup below
     * answers with the key's job: the Idempotency-Key makes the insert idempotent. */
    err = db_exec_idem(db, "idem_insert",
                       "WITH k AS (INSERT INTO idempotency_keys (tenant, key, request_hash, job_id)"
                       "   VALUES ($7, $1, " KEY_HASH ", gen_random_uuid())"
                       "   ON CONFLICT (tenant, key) DO NOTHING RETURNING job_id),"
                       " j AS (INSERT INTO jobs (id, kind, request, seed, progress_total, tenant,"
                       "   cost_estimate_ms)"
                       "   SELECT job_id, $3, $4::jsonb, $5, $6, $7, $8::bigint FROM k RETURNING *)"
                       " SELECT " JOB_COLS " FROM j",
                       8, p, &r);
    if (err)
        return err;
    if (db_result_rows(r) == 1) {
        err = read_job(r, 0, 0, out);
        if (err)
            db_job_release(out);
        else
            *outcome = DB_KEYED_NEW;
        db_result_free(r);
        return err;
    }
    db_result_free(r);
    r = NULL;
    err = db_exec_idem(db, "idem_lookup",
                       "SELECT (SELECT request_hash FROM idempotency_keys WHERE key = $1 AND "
                       "tenant = $3) = " KEY_HASH ", " JOB_COLS " FROM jobs WHERE id ="
                       " (SELECT job_id FROM idempotency_keys WHERE key = $1 AND tenant = $3)",
                       3, lp, &r);
    if (err)
        return err;
    if (db_result_rows(r) != 1) {
        err = SK_ECONFLICT; /* the key expired and was pruned meanwhile: the caller retries */
    } else {
        err = read_job(r, 0, 1, out);
        if (err)
            db_job_release(out);
        else
            *outcome =
                strcmp(db_result_get(r, 0, 0), "t") == 0 ? DB_KEYED_REPLAY : DB_KEYED_MISMATCH;
    }
    db_result_free(r);
    return err;
}

enum sk_err db_jobs_prune_keys(struct db *db, long ttl_s, long *deleted)
{
    char ttl_txt[24];
    const char *p[1] = {ttl_txt};
    struct db_result *r = NULL;
    enum sk_err err;

    snprintf(ttl_txt, sizeof(ttl_txt), "%ld", ttl_s);
    err = db_exec_idem(db, "idem_prune",
                       "WITH d AS (DELETE FROM idempotency_keys"
                       " WHERE created_at < now() - $1::bigint * interval '1 second' RETURNING 1)"
                       " SELECT count(*) FROM d",
                       1, p, &r);
    if (!err && deleted)
        *deleted = strtol(db_result_get(r, 0, 0), NULL, 10);
    db_result_free(r);
    return err;
}

const char *const db_jobs_statuses[DB_JOBS_N_STATUS] = {"queued", "running", "succeeded", "failed",
                                                        "canceled"};

enum sk_err db_jobs_counts(struct db *db, long long counts[DB_JOBS_N_STATUS])
{
    struct db_result *r = NULL;
    long long c[DB_JOBS_N_STATUS] = {0};
    enum sk_err err = db_exec_idem(
        db, "jobs_counts",
        "SELECT status, count(*) FROM jobs WHERE parent_id IS NULL GROUP BY status", 0, NULL, &r);
    if (err)
        return err;
    for (int i = 0; i < db_result_rows(r); i++)
        for (int s = 0; s < DB_JOBS_N_STATUS; s++)
            if (strcmp(db_result_get(r, i, 0), db_jobs_statuses[s]) == 0)
                c[s] = strtoll(db_result_get(r, i, 1), NULL, 10);
    db_result_free(r);
    memcpy(counts, c, sizeof(c));
    return SK_OK;
}

enum sk_err db_jobs_running(struct db *db, int limit, struct db_job **out, size_t *n)
{
    char limit_s[16];
    const char *p[1] = {limit_s};
    struct db_result *r = NULL;
    enum sk_err err;

    snprintf(limit_s, sizeof(limit_s), "%d", limit);
    err =
        db_exec_idem(db, "jobs_running",
                     "SELECT " JOB_COLS " FROM jobs WHERE status = 'running' AND parent_id IS NULL"
                     " ORDER BY started_at, id LIMIT $1::int",
                     1, p, &r);
    if (err)
        return err;
    err = read_jobs(r, limit, out, n);
    db_result_free(r);
    return err;
}

/* ===== Operator actions: the stored document, retry, bulk cancel, history ===== */

enum sk_err db_jobs_document(struct db *db, const char *id, char **json)
{
    struct db_result *r = NULL;
    enum sk_err err;

    if (!db_jobs_is_id(id))
        return SK_ENOTFOUND;
    err = db_exec_one(db, DB_EXEC_PLAIN, "jobs_document",
                      "SELECT request::text FROM jobs WHERE id = $1::uuid", 1, &id, &r);
    if (!err)
        err = take_text(r, 0, json);
    db_result_free(r);
    return err;
}

enum sk_err db_jobs_resubmit(struct db *db, const char *id, struct db_job *out)
{
    enum sk_err err;

    if (!db_jobs_is_id(id))
        return SK_ENOTFOUND;
    /* The stored document already holds the seed the first run used, so the retry plays
     * the same games (a failed job's retry shows whether the failure was transient). */
    err = one_job(db, DB_EXEC_PLAIN, "jobs_resubmit",
                  "INSERT INTO jobs (id, kind, request, seed, progress_total, retry_of, tenant,"
                  " cost_estimate_ms)"
                  " SELECT gen_random_uuid(), kind, request, seed, progress_total, id, tenant,"
                  " cost_estimate_ms"
                  " FROM jobs"
                  " WHERE id = $1::uuid AND status IN ('succeeded', 'failed', 'canceled')"
                  " AND parent_id IS NULL"
                  " RETURNING " JOB_COLS,
                  1, &id, out);
    return err == SK_ENOTFOUND ? conflict_or_missing(db, id) : err;
}

enum sk_err db_jobs_cancel_queued(struct db *db, const char *tenant, const char *kind, long limit,
                                  char ***ids, size_t *n)
{
    char limit_s[24];
    const char *p[3] = {kind, limit_s, tenant};
    struct db_result *r = NULL;
    char **out = NULL;
    size_t rows;
    enum sk_err err;

    snprintf(limit_s, sizeof(limit_s), "%ld", limit);
    /* One statement: a job a worker claims meanwhile is no longer queued and is skipped
     * (SKIP LOCKED keeps this from waiting on a claim in progress). */
    err = db_exec(db, "jobs_cancel_queued",
                  "UPDATE jobs SET status = 'canceled', cancel_requested = true,"
                  " finished_at = now(), updated_at = now()"
                  " WHERE id IN (SELECT id FROM jobs WHERE status = 'queued' AND parent_id IS NULL"
                  " AND ($1::text IS NULL OR kind = $1) AND ($3::text IS NULL OR tenant = $3)"
                  " ORDER BY created_at LIMIT $2::int FOR UPDATE SKIP LOCKED)"
                  " RETURNING id::text",
                  3, p, &r);
    if (err)
        return err;
    rows = (size_t)db_result_rows(r);
    out = sk_calloc(rows + 1, sizeof(*out));
    if (!out) {
        err = SK_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < rows; i++) {
        out[i] = sk_strdup(db_result_get(r, (int)i, 0));
        if (!out[i]) {
            err = SK_ENOMEM;
            goto out;
        }
    }
    *ids = out;
    *n = rows;
    out = NULL;
out:
    db_jobs_free_ids(out);
    db_result_free(r);
    return err;
}

void db_jobs_free_ids(char **ids)
{
    if (!ids)
        return;
    for (size_t i = 0; ids[i]; i++)
        sk_free(ids[i]);
    sk_free(ids);
}

enum sk_err db_jobs_history(struct db *db, int minutes, char **json)
{
    char minutes_s[16];
    const char *p = minutes_s;
    struct db_result *r = NULL;
    enum sk_err err;

    snprintf(minutes_s, sizeof(minutes_s), "%d", minutes);
    /* One row per minute, oldest first, including empty minutes: jobs that reached each
     * final status in that minute, and the games of the battle jobs that finished in it. */
    err = db_exec_one(
        db, DB_EXEC_PLAIN, "jobs_history",
        "WITH m AS (SELECT generate_series(date_trunc('minute', now()) - ($1::int - 1) *"
        " interval '1 minute', date_trunc('minute', now()), interval '1 minute') AS t),"
        " f AS (SELECT date_trunc('minute', finished_at) AS t, status, kind, progress_done"
        " FROM jobs WHERE parent_id IS NULL"
        " AND finished_at >= date_trunc('minute', now()) - ($1::int - 1) *"
        " interval '1 minute')"
        " SELECT json_build_object('minutes', $1::int, 'points', coalesce(json_agg("
        "json_build_object('t', " TS(
            "m.t") ","
                   " 'succeeded', (SELECT count(*) FROM f WHERE f.t = m.t AND status = "
                   "'succeeded'),"
                   " 'failed', (SELECT count(*) FROM f WHERE f.t = m.t AND status = 'failed'),"
                   " 'canceled', (SELECT count(*) FROM f WHERE f.t = m.t AND status = 'canceled'),"
                   " 'games', (SELECT coalesce(sum(progress_done), 0) FROM f WHERE f.t = m.t"
                   " AND kind = 'battle')) ORDER BY m.t), '[]'::json))::text FROM m",
        1, &p, &r);
    if (!err)
        err = take_text(r, 0, json);
    else if (err == SK_ENOTFOUND)
        err = SK_EINTERNAL; /* an aggregate always answers one row */
    db_result_free(r);
    return err;
}

enum sk_err db_jobs_charge(struct db *db, const char *id, long long cpu_ms, char *tenant,
                           size_t tenant_len)
{
    char ms[24];
    const char *p[2] = {id, ms};
    struct db_result *r = NULL;
    enum sk_err err;

    if (tenant_len)
        tenant[0] = '\0';
    if (!db_jobs_is_id(id))
        return SK_ENOTFOUND;
    snprintf(ms, sizeof(ms), "%lld", cpu_ms);
    /* Not fenced: the CPU was spent whoever holds the lease now. A shard's and a unit's go
     * to their job (parent_id), which is what its tenant asked for. */
    err = db_exec(db, "jobs_charge",
                  "UPDATE jobs SET cpu_ms = cpu_ms + $2::bigint"
                  " WHERE id = (SELECT coalesce(parent_id, id) FROM jobs WHERE id = $1::uuid)"
                  " RETURNING tenant",
                  2, p, &r);
    if (err)
        return err;
    if (db_result_rows(r) != 1)
        err = SK_ENOTFOUND; /* deleted meanwhile (retention): nothing to charge */
    else if (tenant_len)
        text_into(tenant, tenant_len, db_result_get(r, 0, 0));
    db_result_free(r);
    return err;
}
