/* SPDX-License-Identifier: MIT */
/* Schema migrations: the numbered files of migrations/ are compiled into the binaries
 * (db_migrate_all) and applied in order, each in its own transaction, under a PostgreSQL
 * advisory lock so that several processes starting at once apply each file exactly once.
 * Applied files are recorded with a checksum in schema_migrations; a file changed after
 * it was applied stops the service (released migrations are never edited). */
#ifndef DB_MIGRATE_H
#define DB_MIGRATE_H

#include <stddef.h>

#include "db.h"
#include "sk_err.h"

struct db_migration {
    int version;      /* the number the file name starts with */
    const char *name; /* file name, e.g. "0001_jobs.sql" */
    const char *sql;  /* the file's text */
};

/* Generated from the migrations folder (NNNN_name.sql files) at build time, in version order. */
extern const struct db_migration db_migrate_all[];
extern const size_t db_migrate_count;

/** 64-bit FNV-1a of `s` as 16 hex digits into `out` (17 bytes): the stored checksum. */
void db_migrate_checksum(const char *s, char out[17]);

/**
 * Applies the migrations of `list` (n entries, ascending versions) that are not yet
 * recorded. *applied (may be NULL) receives how many were applied now. SK_ECONFLICT when
 * an applied migration's checksum differs from its file (message in `err`); database
 * errors as db_exec, with the server's message in `err` (size `errlen`).
 */
enum sk_err db_migrate_apply(struct db *db, const struct db_migration *list, size_t n, int *applied,
                             char *err, size_t errlen);

#endif
