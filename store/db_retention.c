/* SPDX-License-Identifier: MIT */
/* Deleting jobs (see db_retention.h). */
#include "db_retention.h"

#include <stdio.h>

#include "db_jobs.h"

#include "sk_banned.h"

enum sk_err db_retention_delete(struct db *db, const char *id, const char *tenant)
{
    const char *p[2] = {id, tenant};
    struct db_result *r = NULL;
    enum sk_err err;

    if (!db_jobs_is_id(id))
        return SK_ENOTFOUND;
    /* one statement: the row is deleted only when final and the tenant's; otherwise the
     * second column tells a running job (409) from a missing or foreign one (404) */
    err = db_exec_idem(db, "retention_delete",
                       "WITH d AS (DELETE FROM jobs WHERE id = $1::uuid AND parent_id IS NULL"
                       " AND ($2::text IS NULL OR tenant = $2)"
                       " AND status IN ('succeeded', 'failed', 'canceled') RETURNING 1)"
                       " SELECT (SELECT count(*) FROM d),"
                       " (SELECT count(*) FROM jobs WHERE id = $1::uuid AND parent_id IS NULL"
                       " AND ($2::text IS NULL OR tenant = $2))",
                       2, p, &r);
    if (err)
        return err;
    if (db_result_get(r, 0, 0)[0] == '1')
        err = SK_OK;
    else if (db_result_get(r, 0, 1)[0] == '1')
        err = SK_ECONFLICT;
    else
        err = SK_ENOTFOUND;
    db_result_free(r);
    return err;
}

enum sk_err db_retention_sweep(struct db *db, long age_s, long batch, db_retention_fn *fn,
                               void *arg, long *deleted)
{
    char age[24];
    char lim[24];
    const char *p[2] = {age, lim};
    struct db_result *r = NULL;
    enum sk_err err;

    snprintf(age, sizeof(age), "%ld", age_s);
    snprintf(lim, sizeof(lim), "%ld", batch);
    err = db_exec_idem(db, "retention_sweep",
                       "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs"
                       " WHERE finished_at < now() - $1::bigint * interval '1 second'"
                       " AND parent_id IS NULL"
                       " ORDER BY finished_at LIMIT $2::int FOR UPDATE SKIP LOCKED)"
                       " RETURNING id::text",
                       2, p, &r);
    if (err)
        return err;
    *deleted = db_result_rows(r);
    for (int i = 0; fn && i < db_result_rows(r); i++)
        fn(db_result_get(r, i, 0), arg);
    db_result_free(r);
    return SK_OK;
}
