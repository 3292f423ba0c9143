/* SPDX-License-Identifier: MIT */
/* Job SQL (see db_jobs.h). Statements are prepared once per connection by name. */
#include "db_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "sk_mem.h"

#include "sk_banned.h"

/* The job resource, rendered by PostgreSQL (timestamps are UTC: see db.c). */
#define TS(col) "to_char(" col ", 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
/* clang-format off */
#define JOB_JSON                                                                                   \
    "json_build_object('id', id, 'kind', kind, 'status', status, 'seed', seed,"                    \
    " 'attempts', attempts,"                                                                       \
    " 'progress', json_build_object('done', progress_done, 'total', progress_total),"              \
    " 'cancel_requested', cancel_requested,"                                                       \
    " 'created_at', " TS("created_at") ", 'started_at', " TS("started_at") ","                     \
    " 'finished_at', " TS("finished_at") ", 'updated_at', " TS("updated_at") ","                   \
    " 'error', error, 'retry_of', retry_of,"                                                       \
    " 'links', json_build_object('self', '/v1/jobs/' || id,"                                       \
    " 'result', '/v1/jobs/' || id || '/result', 'cancel', '/v1/jobs/' || id || ':cancel',"         \
    " 'retry', '/v1/jobs/' || id || ':retry', 'document', '/v1/jobs/' || id || '/document'))::text"
/* clang-format on */

#define MS(p) "(" p " * interval '1 millisecond')"

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

enum sk_err db_jobs_insert(struct db *db, const char *kind, const char *request, uint64_t seed,
                           uint64_t total, char id[DB_JOBS_ID_LEN], char **json)
{
    char seed_s[24];
    char total_s[24];
    const char *p[4] = {kind, request, seed_s, total_s};
    struct db_result *r = NULL;
    enum sk_err err;

    (void)snprintf(seed_s, sizeof(seed_s), "%llu", (unsigned long long)seed);
    (void)snprintf(total_s, sizeof(total_s), "%llu", (unsigned long long)total);
    err = db_exec(db, "jobs_insert",
                  "INSERT INTO jobs (id, kind, request, seed, progress_total)"
                  " VALUES (gen_random_uuid(), $1, $2::jsonb, $3, $4)"
                  " RETURNING id::text, " JOB_JSON,
                  4, p, &r);
    if (err)
        return err;
    if (db_result_rows(r) != 1) {
        err = SK_EINTERNAL;
        goto out;
    }
    err = take_text(r, 1, json);
    if (!err)
        (void)snprintf(id, DB_JOBS_ID_LEN, "%s", db_result_get(r, 0, 0));
out:
    db_result_free(r);
    return err;
}

int db_jobs_is_final(const char *status)
{
    return strcmp(status, "succeeded") == 0 || strcmp(status, "failed") == 0 ||
           strcmp(status, "canceled") == 0;
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
    (void)snprintf(id, DB_JOBS_ID_LEN,
                   "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                   b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                   b[14], b[15]);
}

/* Appends `s` to the growing buffer as one element of a PostgreSQL array literal:
 * double-quoted, with '"' and '\' escaped. */
static enum sk_err append(char **buf, size_t *len, size_t *cap, const char *s);

static enum sk_err append_elem(char **buf, size_t *len, size_t *cap, const char *s, int first)
{
    enum sk_err err = append(buf, len, cap, first ? "\"" : ",\"");
    char one[2] = {0, 0};
    for (; !err && *s; s++) {
        if (*s == '"' || *s == '\\')
            err = append(buf, len, cap, "\\");
        one[0] = *s;
        if (!err)
            err = append(buf, len, cap, one);
    }
    return err ? err : append(buf, len, cap, "\"");
}

enum sk_err db_jobs_insert_many(struct db *db, struct db_jobs_new *rows, size_t n)
{
    char *arr[5] = {NULL, NULL, NULL, NULL, NULL};
    size_t len[5] = {0}, cap[5] = {0};
    struct db_result *r = NULL;
    enum sk_err err = SK_OK;
    size_t got = 0;

    for (int a = 0; !err && a < 5; a++)
        err = append(&arr[a], &len[a], &cap[a], "{");
    for (size_t i = 0; !err && i < n; i++) {
        char seed[24];
        char total[24];
        (void)snprintf(seed, sizeof(seed), "%llu", (unsigned long long)rows[i].seed);
        (void)snprintf(total, sizeof(total), "%llu", (unsigned long long)rows[i].total);
        err = append_elem(&arr[0], &len[0], &cap[0], rows[i].id, i == 0);
        if (!err)
            err = append_elem(&arr[1], &len[1], &cap[1], rows[i].kind, i == 0);
        if (!err)
            err = append_elem(&arr[2], &len[2], &cap[2], rows[i].request, i == 0);
        if (!err)
            err = append_elem(&arr[3], &len[3], &cap[3], seed, i == 0);
        if (!err)
            err = append_elem(&arr[4], &len[4], &cap[4], total, i == 0);
    }
    for (int a = 0; !err && a < 5; a++)
        err = append(&arr[a], &len[a], &cap[a], "}");
    if (!err)
        err = db_exec(db, "jobs_insert_many",
                      "INSERT INTO jobs (id, kind, request, seed, progress_total)"
                      " SELECT * FROM unnest($1::uuid[], $2::text[], $3::jsonb[], $4::bigint[],"
                      " $5::bigint[])"
                      " RETURNING id::text, " JOB_JSON,
                      5, (const char *const *)arr, &r);
    /* match the returned rows to ours by id: RETURNING promises no order */
    for (int k = 0; !err && k < db_result_rows(r); k++) {
        const char *id = db_result_get(r, k, 0);
        for (size_t i = 0; i < n; i++) {
            if (!rows[i].json && strcmp(rows[i].id, id) == 0) {
                rows[i].json = sk_strdup(db_result_get(r, k, 1));
                if (!rows[i].json)
                    err = SK_ENOMEM;
                got++;
                break;
            }
        }
    }
    if (!err && got != n)
        err = SK_EINTERNAL;
    if (err) {
        for (size_t i = 0; i < n; i++) {
            sk_free(rows[i].json);
            rows[i].json = NULL;
        }
    }
    db_result_free(r);
    for (int a = 0; a < 5; a++)
        sk_free(arr[a]);
    return err;
}

enum sk_err db_jobs_get(struct db *db, const char *id, char **json, char status[16])
{
    struct db_result *r = NULL;
    enum sk_err err;

    if (!db_jobs_is_id(id))
        return SK_ENOTFOUND;
    err = db_exec(db, "jobs_get", "SELECT " JOB_JSON ", status FROM jobs WHERE id = $1::uuid", 1,
                  &id, &r);
    if (err)
        return err;
    err = db_result_rows(r) == 1 ? take_text(r, 0, json) : SK_ENOTFOUND;
    if (!err)
        (void)snprintf(status, 16, "%s", db_result_get(r, 0, 1));
    db_result_free(r);
    return err;
}

enum sk_err db_jobs_result(struct db *db, const char *id, char **json, char status[16])
{
    struct db_result *r = NULL;
    enum sk_err err;

    if (!db_jobs_is_id(id))
        return SK_ENOTFOUND;
    err = db_exec(db, "jobs_result", "SELECT status, result::text FROM jobs WHERE id = $1::uuid", 1,
                  &id, &r);
    if (err)
        return err;
    if (db_result_rows(r) != 1) {
        err = SK_ENOTFOUND;
    } else if (!db_result_get(r, 0, 1)) {
        (void)snprintf(status, 16, "%s", db_result_get(r, 0, 0));
        err = SK_ECONFLICT;
    } else {
        err = take_text(r, 1, json);
    }
    db_result_free(r);
    return err;
}

/* Appends `s` to the growing buffer (*buf, *len, *cap). */
static enum sk_err append(char **buf, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 1 > *cap) {
        size_t cap2 = (*cap ? *cap : 256);
        while (*len + n + 1 > cap2)
            cap2 *= 2;
        char *b = sk_realloc(*buf, cap2);
        if (!b)
            return SK_ENOMEM;
        *buf = b;
        *cap = cap2;
    }
    memcpy(*buf + *len, s, n + 1);
    *len += n;
    return SK_OK;
}

enum sk_err db_jobs_list(struct db *db, const char *status, const char *kind, int limit,
                         const char *after_ts, const char *after_id, char **json,
                         char **next_cursor)
{
    static const char *const names[8] = {"jobs_list_0", "jobs_list_1", "jobs_list_2",
                                         "jobs_list_3", "jobs_list_4", "jobs_list_5",
                                         "jobs_list_6", "jobs_list_7"};
    char limit_s[16];
    char sql[1024];
    char where[256] = "";
    const char *p[5];
    int n = 0;
    int variant = (status ? 1 : 0) | (kind ? 2 : 0) | (after_ts ? 4 : 0);
    struct db_result *r = NULL;
    char *buf = NULL;
    char *cursor = NULL;
    size_t len = 0, cap = 0;
    int rows;
    enum sk_err err;

    if ((after_ts == NULL) != (after_id == NULL) || (after_id && !db_jobs_is_id(after_id)))
        return SK_EINVAL;
    /* One statement per combination of filters (not "$1 IS NULL OR ..."), so that each
     * prepared plan can walk its (…, created_at, id) index. */
    if (status) {
        p[n++] = status;
        (void)snprintf(where + strlen(where), sizeof(where) - strlen(where), " AND status = $%d",
                       n);
    }
    if (kind) {
        p[n++] = kind;
        (void)snprintf(where + strlen(where), sizeof(where) - strlen(where), " AND kind = $%d", n);
    }
    if (after_ts) {
        p[n++] = after_ts;
        p[n++] = after_id;
        (void)snprintf(where + strlen(where), sizeof(where) - strlen(where),
                       " AND (created_at, id) < ($%d::timestamptz, $%d::uuid)", n - 1, n);
    }
    /* one row more than asked tells whether a next page exists */
    (void)snprintf(limit_s, sizeof(limit_s), "%d", limit + 1);
    p[n++] = limit_s;
    (void)snprintf(sql, sizeof(sql),
                   "SELECT " JOB_JSON ", created_at::text, id::text FROM jobs WHERE true%s"
                   " ORDER BY created_at DESC, id DESC LIMIT $%d::int",
                   where, n);
    err = db_exec(db, names[variant], sql, n, p, &r);
    if (err)
        return err;
    rows = db_result_rows(r);
    err = append(&buf, &len, &cap, "{\"items\":[");
    for (int i = 0; !err && i < rows && i < limit; i++) {
        if (i)
            err = append(&buf, &len, &cap, ",");
        if (!err)
            err = append(&buf, &len, &cap, db_result_get(r, i, 0));
    }
    if (!err)
        err = append(&buf, &len, &cap, "]}");
    if (!err && rows > limit) {
        char c[128];
        (void)snprintf(c, sizeof(c), "%s|%s", db_result_get(r, limit - 1, 1),
                       db_result_get(r, limit - 1, 2));
        cursor = sk_strdup(c);
        if (!cursor)
            err = SK_ENOMEM;
    }
    db_result_free(r);
    if (err) {
        sk_free(buf);
        sk_free(cursor);
        return err;
    }
    *json = buf;
    *next_cursor = cursor;
    return SK_OK;
}

/* After a conditional statement changed no row: SK_ECONFLICT when job `id` exists (it was
 * in the wrong state), SK_ENOTFOUND when it does not, or the store's error. */
static enum sk_err conflict_or_missing(struct db *db, const char *id)
{
    struct db_result *r = NULL;
    enum sk_err err =
        db_exec(db, "jobs_exists", "SELECT 1 FROM jobs WHERE id = $1::uuid", 1, &id, &r);
    if (!err)
        err = db_result_rows(r) == 1 ? SK_ECONFLICT : SK_ENOTFOUND;
    db_result_free(r);
    return err;
}

enum sk_err db_jobs_cancel(struct db *db, const char *id, char **json)
{
    struct db_result *r = NULL;
    enum sk_err err;

    if (!db_jobs_is_id(id))
        return SK_ENOTFOUND;
    err = db_exec(db, "jobs_cancel",
                  "UPDATE jobs SET cancel_requested = true,"
                  " status = CASE WHEN status = 'queued' THEN 'canceled' ELSE status END,"
                  " finished_at = CASE WHEN status = 'queued' THEN now() END,"
                  " updated_at = now()"
                  " WHERE id = $1::uuid AND status IN ('queued', 'running')"
                  " RETURNING " JOB_JSON,
                  1, &id, &r);
    if (err)
        return err;
    if (db_result_rows(r) == 1) {
        err = take_text(r, 0, json);
        db_result_free(r);
        return err;
    }
    db_result_free(r);
    return conflict_or_missing(db, id);
}

enum sk_err db_jobs_claim(struct db *db, const char *id, const char *owner, long lease_ms,
                          long max_attempts, struct db_claim *out)
{
    char lease_s[24];
    char max_s[24];
    const char *p[4] = {id, owner, lease_s, max_s};
    struct db_result *r = NULL;
    struct db_claim c = {0};
    enum sk_err err;

    if (!db_jobs_is_id(id)) {
        out->state = DB_CLAIM_SKIPPED;
        out->request = NULL;
        return SK_OK;
    }
    (void)snprintf(lease_s, sizeof(lease_s), "%ld", lease_ms);
    (void)snprintf(max_s, sizeof(max_s), "%ld", max_attempts);
    /* One statement decides everything under the row lock, so two workers that read the
     * same entry (redelivery, reaper) cannot both win. SET sees the old row. */
    err = db_exec(
        db, "jobs_claim",
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
                          " finished_at = CASE WHEN cancel_requested OR attempts >= $4::int THEN "
                          "now() END,"
                          " error = CASE WHEN NOT cancel_requested AND attempts >= $4::int THEN"
                          "   'failed after ' || attempts || ' attempts: ' ||"
                          "   coalesce(error, 'the worker running it stopped (lease expired)') "
                          "ELSE error END,"
                          " progress_done = 0, run_after = NULL, updated_at = now()"
                          " WHERE id = $1::uuid AND ((status = 'queued' AND (run_after IS NULL OR "
                          "run_after <= now()))"
                          "   OR (status = 'running' AND lease_expires_at < now()))"
                          " RETURNING status, attempts, kind, request::text",
        4, p, &r);
    if (err)
        return err;
    if (db_result_rows(r) == 0) {
        c.state = DB_CLAIM_SKIPPED;
    } else if (strcmp(db_result_get(r, 0, 0), "running") != 0) {
        c.state = DB_CLAIM_ENDED;
    } else {
        c.state = DB_CLAIM_RUNNING;
        c.attempts = (int)strtol(db_result_get(r, 0, 1), NULL, 10);
        (void)snprintf(c.kind, sizeof(c.kind), "%s", db_result_get(r, 0, 2));
        c.request = sk_strdup(db_result_get(r, 0, 3));
        if (!c.request)
            err = SK_ENOMEM;
    }
    db_result_free(r);
    if (!err)
        *out = c;
    return err;
}

void db_jobs_claim_release(struct db_claim *c)
{
    if (!c)
        return;
    sk_free(c->request);
    c->request = NULL;
}

/* Runs a fenced UPDATE: SK_ECONFLICT when no row matched (the lease is lost). */
static enum sk_err fenced(struct db *db, const char *name, const char *sql, int n,
                          const char *const *p)
{
    struct db_result *r = NULL;
    enum sk_err err = db_exec(db, name, sql, n, p, &r);
    if (err)
        return err;
    err = db_result_rows(r) == 1 ? SK_OK : SK_ECONFLICT;
    db_result_free(r);
    return err;
}

#define FENCE " WHERE id = $1::uuid AND lease_owner = $2 AND status = 'running' RETURNING 1"
#define ENDED                                                                                      \
    " finished_at = now(), lease_owner = NULL, lease_expires_at = NULL, updated_at = now()"

enum sk_err db_jobs_progress(struct db *db, const char *id, const char *owner, uint64_t done,
                             long lease_ms, int *cancel)
{
    char done_s[24];
    char lease_s[24];
    const char *p[4] = {id, owner, done_s, lease_s};
    struct db_result *r = NULL;
    enum sk_err err;

    (void)snprintf(done_s, sizeof(done_s), "%llu", (unsigned long long)done);
    (void)snprintf(lease_s, sizeof(lease_s), "%ld", lease_ms);
    err =
        db_exec(db, "jobs_progress",
                "UPDATE jobs SET progress_done = $3::bigint,"
                " lease_expires_at = now() + " MS(
                    "$4::bigint") ", updated_at = now()"
                                  " WHERE id = $1::uuid AND lease_owner = $2 AND status = 'running'"
                                  " RETURNING cancel_requested",
                4, p, &r);
    if (err)
        return err;
    if (db_result_rows(r) == 1)
        *cancel = strcmp(db_result_get(r, 0, 0), "t") == 0;
    else
        err = SK_ECONFLICT;
    db_result_free(r);
    return err;
}

enum sk_err db_jobs_succeed(struct db *db, const char *id, const char *owner, const char *result)
{
    const char *p[3] = {id, owner, result};
    return fenced(db, "jobs_succeed",
                  "UPDATE jobs SET status = 'succeeded', result = $3::json, error = NULL,"
                  " progress_done = progress_total," ENDED FENCE,
                  3, p);
}

enum sk_err db_jobs_cancelled(struct db *db, const char *id, const char *owner, const char *partial)
{
    const char *p[3] = {id, owner, partial};
    return fenced(db, "jobs_cancelled",
                  "UPDATE jobs SET status = 'canceled', result = $3::json," ENDED FENCE, 3, p);
}

enum sk_err db_jobs_fail(struct db *db, const char *id, const char *owner, const char *error)
{
    const char *p[3] = {id, owner, error};
    return fenced(db, "jobs_fail", "UPDATE jobs SET status = 'failed', error = $3," ENDED FENCE, 3,
                  p);
}

enum sk_err db_jobs_retry(struct db *db, const char *id, const char *owner, long delay_ms,
                          const char *error)
{
    char delay_s[24];
    const char *p[4] = {id, owner, delay_s, error};
    (void)snprintf(delay_s, sizeof(delay_s), "%ld", delay_ms);
    return fenced(
        db, "jobs_retry",
        "UPDATE jobs SET status = 'queued', error = $4, progress_done = 0,"
        " run_after = now() + " MS(
            "$3::bigint") ","
                          " lease_owner = NULL, lease_expires_at = NULL, updated_at = now()" FENCE,
        4, p);
}

enum sk_err db_jobs_release(struct db *db, const char *id, const char *owner)
{
    const char *p[2] = {id, owner};
    return fenced(db, "jobs_release",
                  "UPDATE jobs SET status = 'queued', attempts = attempts - 1, progress_done = 0,"
                  " run_after = NULL, lease_owner = NULL, lease_expires_at = NULL,"
                  " updated_at = now()" FENCE,
                  2, p);
}

enum sk_err db_jobs_dispatchable(struct db *db, long age_ms, int limit, db_jobs_id_fn *fn,
                                 void *arg)
{
    char age_s[24];
    char limit_s[16];
    const char *p[2] = {age_s, limit_s};
    struct db_result *r = NULL;
    enum sk_err err;

    (void)snprintf(age_s, sizeof(age_s), "%ld", age_ms);
    (void)snprintf(limit_s, sizeof(limit_s), "%d", limit);
    err = db_exec(db, "jobs_dispatchable",
                  "SELECT id::text, attempts FROM jobs WHERE"
                  " (status = 'queued' AND coalesce(run_after, created_at + " MS(
                      "$1::bigint") ") <= now())"
                                    " OR (status = 'running' AND lease_expires_at + " MS(
                                        "$1::bigint") " < now())"
                                                      " ORDER BY created_at LIMIT $2::int",
                  2, p, &r);
    if (err)
        return err;
    for (int i = 0; i < db_result_rows(r); i++)
        fn(db_result_get(r, i, 0), (int)strtol(db_result_get(r, i, 1), NULL, 10), arg);
    db_result_free(r);
    return SK_OK;
}

#define KEY_HASH "encode(sha256(convert_to($2, 'UTF8')), 'hex')"

enum sk_err db_jobs_insert_keyed(struct db *db, const char *key, const char *canonical, long ttl_s,
                                 const char *kind, const char *request, uint64_t seed,
                                 uint64_t total, char id[DB_JOBS_ID_LEN], char **json,
                                 enum db_keyed *outcome)
{
    char seed_s[24];
    char total_s[24];
    char ttl_s_txt[24];
    const char *del[2] = {key, ttl_s_txt};
    const char *p[6] = {key, canonical, kind, request, seed_s, total_s};
    struct db_result *r = NULL;
    enum sk_err err;

    (void)snprintf(seed_s, sizeof(seed_s), "%llu", (unsigned long long)seed);
    (void)snprintf(total_s, sizeof(total_s), "%llu", (unsigned long long)total);
    (void)snprintf(ttl_s_txt, sizeof(ttl_s_txt), "%ld", ttl_s);
    /* an expired key starts afresh */
    err = db_exec(db, "idem_expire",
                  "DELETE FROM idempotency_keys WHERE key = $1"
                  " AND created_at < now() - $2::bigint * interval '1 second'",
                  2, del, NULL);
    if (err)
        return err;
    /* One statement: the key row and the job row are made together or not at all; a
     * concurrent request with the same key waits on the primary key and then makes nothing. */
    err = db_exec(db, "idem_insert",
                  "WITH k AS (INSERT INTO idempotency_keys (key, request_hash, job_id)"
                  "   VALUES ($1, " KEY_HASH ", gen_random_uuid())"
                  "   ON CONFLICT (key) DO NOTHING RETURNING job_id),"
                  " j AS (INSERT INTO jobs (id, kind, request, seed, progress_total)"
                  "   SELECT job_id, $3, $4::jsonb, $5, $6 FROM k RETURNING *)"
                  " SELECT id::text, " JOB_JSON " FROM j",
                  6, p, &r);
    if (err)
        return err;
    if (db_result_rows(r) == 1) {
        err = take_text(r, 1, json);
        if (!err) {
            (void)snprintf(id, DB_JOBS_ID_LEN, "%s", db_result_get(r, 0, 0));
            *outcome = DB_KEYED_NEW;
        }
        db_result_free(r);
        return err;
    }
    db_result_free(r);
    r = NULL;
    err = db_exec(db, "idem_lookup",
                  "SELECT id::text, " JOB_JSON ","
                  " (SELECT request_hash FROM idempotency_keys WHERE key = $1) = " KEY_HASH
                  " FROM jobs WHERE id = (SELECT job_id FROM idempotency_keys WHERE key = $1)",
                  2, p, &r);
    if (err)
        return err;
    if (db_result_rows(r) != 1) {
        err = SK_ECONFLICT; /* the key expired and was pruned meanwhile: the caller retries */
    } else {
        err = take_text(r, 1, json);
        if (!err) {
            (void)snprintf(id, DB_JOBS_ID_LEN, "%s", db_result_get(r, 0, 0));
            *outcome =
                strcmp(db_result_get(r, 0, 2), "t") == 0 ? DB_KEYED_REPLAY : DB_KEYED_MISMATCH;
        }
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

    (void)snprintf(ttl_txt, sizeof(ttl_txt), "%ld", ttl_s);
    err = db_exec(db, "idem_prune",
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
    enum sk_err err = db_exec(db, "jobs_counts",
                              "SELECT status, count(*) FROM jobs GROUP BY status", 0, NULL, &r);
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

enum sk_err db_jobs_running(struct db *db, int limit, char **json)
{
    char limit_s[16];
    const char *p[1] = {limit_s};
    struct db_result *r = NULL;
    enum sk_err err;

    (void)snprintf(limit_s, sizeof(limit_s), "%d", limit);
    err = db_exec(
        db, "jobs_running",
        "SELECT coalesce(json_agg(json_build_object('id', id, 'kind', kind,"
        " 'progress', json_build_object('done', progress_done, 'total', progress_total),"
        " 'attempts', attempts, 'started_at', " TS(
            "started_at") ","
                          " 'updated_at', " TS(
                              "updated_at") ") ORDER BY started_at, id), '[]')::text"
                                            " FROM (SELECT * FROM jobs WHERE status = 'running'"
                                            " ORDER BY started_at, id LIMIT $1::int) t",
        1, p, &r);
    if (err)
        return err;
    err = take_text(r, 0, json);
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
    err = db_exec(db, "jobs_document", "SELECT request::text FROM jobs WHERE id = $1::uuid", 1, &id,
                  &r);
    if (err)
        return err;
    err = db_result_rows(r) == 1 ? take_text(r, 0, json) : SK_ENOTFOUND;
    db_result_free(r);
    return err;
}

enum sk_err db_jobs_resubmit(struct db *db, const char *id, char new_id[DB_JOBS_ID_LEN],
                             char **json)
{
    struct db_result *r = NULL;
    enum sk_err err;

    if (!db_jobs_is_id(id))
        return SK_ENOTFOUND;
    /* The stored document already holds the seed the first run used, so the retry plays
     * the same games (a failed job's retry shows whether the failure was transient). */
    err = db_exec(db, "jobs_resubmit",
                  "INSERT INTO jobs (id, kind, request, seed, progress_total, retry_of)"
                  " SELECT gen_random_uuid(), kind, request, seed, progress_total, id FROM jobs"
                  " WHERE id = $1::uuid AND status IN ('succeeded', 'failed', 'canceled')"
                  " RETURNING id::text, " JOB_JSON,
                  1, &id, &r);
    if (err)
        return err;
    if (db_result_rows(r) == 1) {
        err = take_text(r, 1, json);
        if (!err)
            (void)snprintf(new_id, DB_JOBS_ID_LEN, "%s", db_result_get(r, 0, 0));
        db_result_free(r);
        return err;
    }
    db_result_free(r);
    return conflict_or_missing(db, id);
}

enum sk_err db_jobs_cancel_queued(struct db *db, const char *kind, long limit, char ***ids,
                                  size_t *n)
{
    char limit_s[24];
    const char *p[2] = {kind, limit_s};
    struct db_result *r = NULL;
    char **out = NULL;
    size_t rows;
    enum sk_err err;

    (void)snprintf(limit_s, sizeof(limit_s), "%ld", limit);
    /* One statement: a job a worker claims meanwhile is no longer queued and is skipped
     * (SKIP LOCKED keeps this from waiting on a claim in progress). */
    err = db_exec(db, "jobs_cancel_queued",
                  "UPDATE jobs SET status = 'canceled', cancel_requested = true,"
                  " finished_at = now(), updated_at = now()"
                  " WHERE id IN (SELECT id FROM jobs WHERE status = 'queued'"
                  " AND ($1::text IS NULL OR kind = $1) ORDER BY created_at"
                  " LIMIT $2::int FOR UPDATE SKIP LOCKED)"
                  " RETURNING id::text",
                  2, p, &r);
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

    (void)snprintf(minutes_s, sizeof(minutes_s), "%d", minutes);
    /* One row per minute, oldest first, including empty minutes: jobs that reached each
     * final status in that minute, and the games of the battle jobs that finished in it. */
    err = db_exec(
        db, "jobs_history",
        "WITH m AS (SELECT generate_series(date_trunc('minute', now()) - ($1::int - 1) *"
        " interval '1 minute', date_trunc('minute', now()), interval '1 minute') AS t),"
        " f AS (SELECT date_trunc('minute', finished_at) AS t, status, kind, progress_done"
        " FROM jobs WHERE finished_at >= date_trunc('minute', now()) - ($1::int - 1) *"
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
    if (err)
        return err;
    err = db_result_rows(r) == 1 ? take_text(r, 0, json) : SK_EINTERNAL;
    db_result_free(r);
    return err;
}
