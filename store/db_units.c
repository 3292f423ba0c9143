/* SPDX-License-Identifier: MIT */
/* Units of an optimisation (see db_units.h). */
#include "db_units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sk_buf.h"
#include "sk_hash.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* Every statement on units commits without waiting for the WAL flush (a FROM item of the
 * statement sets synchronous_commit off for its own transaction): units are a cache of
 * results any worker recomputes, so a unit write lost in a server crash costs games, never
 * a wrong result, while a flush per unit write costs milliseconds per unit on a disk that
 * syncs slowly (bench/history/2026-11-26.md, "Units"). */
#define ASYNC "(SELECT set_config('synchronous_commit', 'off', true)) AS async"

void db_units_key(const void *spec, size_t len, char key[DB_UNITS_KEY_LEN])
{
    snprintf(key, DB_UNITS_KEY_LEN, "u%016llx-%zu",
             (unsigned long long)sk_fnv1a(0xcbf29ce484222325ULL, spec, len), len);
}

/* A text[] literal of keys[0..n): keys are letters, digits and '-', which need no quotes. */
static char *key_array(const char *const *keys, size_t n)
{
    struct sk_buf b;

    sk_buf_init(&b, 0);
    (void)sk_buf_adds(&b, "{");
    for (size_t i = 0; i < n; i++)
        (void)sk_buf_printf(&b, "%s%s", i ? "," : "", keys[i]);
    (void)sk_buf_adds(&b, "}");
    return sk_buf_take(&b);
}

/* The three array literals of units u[0..n): keys, bytes as hex, games. */
static enum sk_err unit_arrays(const struct db_unit_new *u, size_t n, char **keys, char **specs,
                               char **games)
{
    static const char digits[] = "0123456789abcdef";
    struct sk_buf k, s, g;

    sk_buf_init(&k, 0);
    sk_buf_init(&s, 0);
    sk_buf_init(&g, 0);
    (void)sk_buf_adds(&k, "{");
    (void)sk_buf_adds(&s, "{");
    (void)sk_buf_adds(&g, "{");
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = u[i].spec;
        (void)sk_buf_printf(&k, "%s%s", i ? "," : "", u[i].key);
        (void)sk_buf_printf(&g, "%s%llu", i ? "," : "", (unsigned long long)u[i].games);
        if (i)
            (void)sk_buf_adds(&s, ",");
        for (size_t j = 0; j < u[i].len; j++) {
            char hex[2] = {digits[p[j] >> 4], digits[p[j] & 15]};
            (void)sk_buf_add(&s, hex, 2);
        }
    }
    (void)sk_buf_adds(&k, "}");
    (void)sk_buf_adds(&s, "}");
    (void)sk_buf_adds(&g, "}");
    *keys = sk_buf_take(&k);
    *specs = sk_buf_take(&s);
    *games = sk_buf_take(&g);
    return *keys && *specs && *games ? SK_OK : SK_ENOMEM;
}

enum sk_err db_units_add(struct db *db, const char *parent, const char *owner,
                         const struct db_unit_new *u, size_t n, char ***ids)
{
    char *keys = NULL, *specs = NULL, *games = NULL;
    const char *p[5] = {parent, owner, NULL, NULL, NULL};
    struct db_result *r = NULL;
    char **out = NULL;
    int rows;
    enum sk_err err;

    err = unit_arrays(u, n, &keys, &specs, &games);
    if (err)
        goto out;
    p[2] = keys;
    p[3] = specs;
    p[4] = games;
    /* The fence is the job's row, read under a share lock so the lease cannot pass to
     * another worker while its units are inserted; the count of fenced rows comes back
     * with the new ids, so an insert of units that all existed is told from a lost lease. */
    err = db_exec(db, "units_add",
                  "WITH p AS (SELECT id, kind, request, seed, tenant, cancel_requested"
                  " FROM jobs, " ASYNC " WHERE id = $1::uuid AND lease_owner = $2"
                  " AND status = 'running' FOR SHARE OF jobs),"
                  " i AS (INSERT INTO jobs (id, kind, request, seed, progress_total, parent_id,"
                  " unit_key, unit_spec, cancel_requested, tenant)"
                  " SELECT gen_random_uuid(), p.kind, p.request, p.seed, u.games, p.id, u.key,"
                  " decode(u.spec, 'hex'), p.cancel_requested, p.tenant"
                  " FROM p, unnest($3::text[], $4::text[], $5::bigint[]) AS u(key, spec, games)"
                  " ON CONFLICT (parent_id, unit_key) WHERE unit_key IS NOT NULL DO NOTHING"
                  " RETURNING id)"
                  " SELECT (SELECT count(*) FROM p)::text, id::text FROM i"
                  " UNION ALL SELECT (SELECT count(*) FROM p)::text, NULL"
                  " WHERE NOT EXISTS (SELECT 1 FROM i)",
                  5, p, &r);
    if (err)
        goto out;
    rows = db_result_rows(r);
    if (rows < 1 || strcmp(db_result_get(r, 0, 0), "1") != 0) {
        err = SK_ELEASE;
        goto out;
    }
    out = sk_calloc((size_t)rows + 1, sizeof(*out));
    if (!out)
        err = SK_ENOMEM;
    for (int i = 0, k = 0; !err && i < rows; i++)
        if (db_result_get(r, i, 1) && !(out[k++] = sk_strdup(db_result_get(r, i, 1))))
            err = SK_ENOMEM;
    if (!err) {
        *ids = out;
        out = NULL;
    }
out:
    db_jobs_free_ids(out);
    db_result_free(r);
    sk_free(keys);
    sk_free(specs);
    sk_free(games);
    return err;
}

enum sk_err db_units_get(struct db *db, const char *parent, const char *const *keys, size_t n,
                         struct db_unit *out)
{
    char *arr = key_array(keys, n);
    const char *p[2] = {parent, arr};
    struct db_result *r = NULL;
    enum sk_err err;

    memset(out, 0, n * sizeof(*out));
    if (!arr)
        return SK_ENOMEM;
    err = db_exec_idem(db, "units_get",
                       "SELECT unit_key, id::text, status,"
                       " CASE WHEN status = 'succeeded' THEN encode(checkpoint, 'hex') END"
                       " FROM jobs WHERE parent_id = $1::uuid AND unit_key = ANY($2::text[])",
                       2, p, &r);
    for (int i = 0; !err && i < db_result_rows(r); i++) {
        const char *key = db_result_get(r, i, 0);
        const char *hex = db_result_get(r, i, 3);
        for (size_t k = 0; k < n; k++) {
            if (strcmp(keys[k], key) != 0)
                continue;
            snprintf(out[k].id, sizeof(out[k].id), "%s", db_result_get(r, i, 1));
            snprintf(out[k].status, sizeof(out[k].status), "%s", db_result_get(r, i, 2));
            if (hex && !out[k].result)
                err = db_from_hex(hex, &out[k].result, &out[k].result_len);
        }
    }
    db_result_free(r);
    sk_free(arr);
    if (err)
        db_units_release(out, n);
    return err;
}

void db_units_release(struct db_unit *u, size_t n)
{
    for (size_t i = 0; u && i < n; i++) {
        sk_free(u[i].result);
        u[i].result = NULL;
        u[i].result_len = 0;
    }
}

enum sk_err db_units_drop(struct db *db, const char *parent, const char *const *keys, size_t n)
{
    char *arr = key_array(keys, n);
    const char *p[2] = {parent, arr};
    enum sk_err err;

    if (!arr)
        return SK_ENOMEM;
    err = db_exec_idem(db, "units_drop",
                       "DELETE FROM jobs USING " ASYNC
                       " WHERE parent_id = $1::uuid AND unit_key = ANY($2::text[])",
                       2, p, NULL);
    sk_free(arr);
    return err;
}

enum sk_err db_units_claim(struct db *db, const char *id, const char *owner, long lease_ms,
                           int *got)
{
    char lease_s[24];
    const char *p[3] = {id, owner, lease_s};
    struct db_result *r = NULL;
    enum sk_err err;

    snprintf(lease_s, sizeof(lease_s), "%ld", lease_ms);
    err = db_exec(db, "units_claim",
                  "UPDATE jobs SET status = 'running', attempts = attempts + 1,"
                  " lease_owner = $2, lease_expires_at = now() + $3::bigint * interval '1 ms',"
                  " started_at = coalesce(started_at, now()), updated_at = now()"
                  " FROM " ASYNC " WHERE id = $1::uuid AND unit_key IS NOT NULL"
                  " AND NOT cancel_requested"
                  " AND ((status = 'queued' AND (run_after IS NULL OR run_after <= now()))"
                  " OR (status = 'running' AND lease_expires_at < now())) RETURNING 1",
                  3, p, &r);
    if (!err)
        *got = db_result_rows(r) == 1;
    db_result_free(r);
    return err;
}

enum sk_err db_units_done(struct db *db, const char *id, const char *owner, const void *result,
                          size_t len)
{
    char *hex = db_to_hex(result, len);
    const char *p[3] = {id, owner, hex};
    struct db_result *r = NULL;
    enum sk_err err;

    if (!hex)
        return SK_ENOMEM;
    err = db_exec(db, "units_done",
                  "UPDATE jobs SET status = 'succeeded', error = NULL, checkpoint = $3::bytea,"
                  " checkpoint_done = progress_total, progress_done = progress_total,"
                  " finished_at = now(), lease_owner = NULL, lease_expires_at = NULL,"
                  " updated_at = now() FROM " ASYNC " WHERE id = $1::uuid AND lease_owner = $2"
                  " AND status = 'running' AND unit_key IS NOT NULL RETURNING 1",
                  3, p, &r);
    if (!err && db_result_rows(r) != 1)
        err = SK_ELEASE;
    db_result_free(r);
    sk_free(hex);
    return err;
}
