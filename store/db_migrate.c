/* SPDX-License-Identifier: MIT */
/* Migration runner (see db_migrate.h). */
#include "db_migrate.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sk_hash.h"
#include "sk_log.h"

#include "sk_banned.h"

/* Any constant shared by every Skirmish process; only the migration runner takes it. */
#define MIGRATE_LOCK "7296381"

void db_migrate_checksum(const char *s, char out[17])
{
    snprintf(out, 17, "%016llx", (unsigned long long)sk_fnv1a_str(s));
}

struct apply_arg {
    const struct db_migration *m;
    const char *sum;
};

static enum sk_err apply_one(struct db *db, void *arg)
{
    const struct apply_arg *a = arg;
    char version[16];
    const char *params[3];
    enum sk_err err = db_exec_script(db, a->m->sql);
    if (err)
        return err;
    snprintf(version, sizeof(version), "%d", a->m->version);
    params[0] = version;
    params[1] = a->m->name;
    params[2] = a->sum;
    return db_exec(db, NULL,
                   "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", 3,
                   params, NULL);
}

/* Looks up version `v` in the recorded rows; returns its checksum or NULL. */
static const char *recorded(const struct db_result *r, int v)
{
    char version[16];
    snprintf(version, sizeof(version), "%d", v);
    for (int i = 0; i < db_result_rows(r); i++)
        if (strcmp(db_result_get(r, i, 0), version) == 0)
            return db_result_get(r, i, 1);
    return NULL;
}

enum sk_err db_migrate_apply(struct db *db, const struct db_migration *list, size_t n, int *applied,
                             char *err, size_t errlen)
{
    struct db_result *rows = NULL;
    int count = 0;
    enum sk_err rc;

    err[0] = '\0';
    rc = db_exec(db, NULL, "SELECT pg_advisory_lock(" MIGRATE_LOCK ")", 0, NULL, NULL);
    if (rc) {
        snprintf(err, errlen, "%s", db_error(db));
        return rc;
    }
    rc = db_exec_script(db, "CREATE TABLE IF NOT EXISTS schema_migrations ("
                            " version integer PRIMARY KEY, name text NOT NULL,"
                            " checksum text NOT NULL,"
                            " applied_at timestamptz NOT NULL DEFAULT now())");
    if (!rc)
        rc = db_exec(db, NULL, "SELECT version, checksum FROM schema_migrations", 0, NULL, &rows);
    for (size_t i = 0; !rc && i < n; i++) {
        char sum[17];
        const char *have;
        struct apply_arg a = {&list[i], sum};
        db_migrate_checksum(list[i].sql, sum);
        have = recorded(rows, list[i].version);
        if (have) {
            if (strcmp(have, sum) != 0) {
                snprintf(err, errlen,
                         "migration %s was changed after it was applied (checksum %s, "
                         "recorded %s): add a new migration instead",
                         list[i].name, sum, have);
                rc = SK_ECONFLICT;
            }
            continue;
        }
        rc = db_run_tx(db, 3, apply_one, &a);
        if (rc)
            snprintf(err, errlen, "migration %s: %s", list[i].name, db_error(db));
        else {
            sk_log_info("event=migration_applied name=%s", list[i].name);
            count++;
        }
    }
    if (rc && !err[0])
        snprintf(err, errlen, "%s", db_error(db));
    db_result_free(rows);
    (void)db_exec(db, NULL, "SELECT pg_advisory_unlock(" MIGRATE_LOCK ")", 0, NULL, NULL);
    if (!rc && applied)
        *applied = count;
    return rc;
}
