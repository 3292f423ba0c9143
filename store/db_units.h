/* SPDX-License-Identifier: MIT */
/* Units of an optimisation spread across workers (migration 0012; docs/optimize.md,
 * "Spread across workers"): rows under the job, each a unit's bytes and the hash that names
 * it within the job. The coordinator (the job's lease holder) inserts a call's units in one
 * statement fenced by its lease, reads their results as workers store them (a unit ends
 * like a shard, db_jobs_shard_succeed, with its result as its checkpoint), and deletes them
 * once it has them all. A unit is claimed like any job (db_jobs_claim). */
#ifndef DB_UNITS_H
#define DB_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "db_jobs.h"
#include "sk_err.h"

/* A unit's key: "u", 16 hex digits of its bytes' hash, "-" and their length. */
#define DB_UNITS_KEY_LEN 48

/* One unit to insert (all borrowed). */
struct db_unit_new {
    const char *key;
    const void *spec;
    size_t len;
    uint64_t games; /* its size, as its progress total */
};

/* A unit as db_units_get reads it. */
struct db_unit {
    char id[DB_JOBS_ID_LEN];
    char status[16];
    unsigned char *result; /* owned; its bytes once succeeded, else NULL */
    size_t result_len;
};

/** Writes the key of unit bytes `spec` (`len` bytes) into `key`. */
void db_units_key(const void *spec, size_t len, char key[DB_UNITS_KEY_LEN]);

/**
 * Inserts units u[0..n) under job `parent`, queued, with its document, seed, tenant and
 * cancel flag, in one statement only the holder of its lease (`owner`) can make; a unit
 * whose key the job already has is left as it is. *ids gets the new rows' ids (NULL
 * terminated; db_jobs_free_ids), to enqueue. SK_ELEASE when `owner` no longer holds it.
 */
enum sk_err db_units_add(struct db *db, const char *parent, const char *owner,
                         const struct db_unit_new *u, size_t n, char ***ids);

/**
 * Reads the units of job `parent` named by keys[0..n) into out[0..n) (zeroed first; a
 * missing unit has an empty id). Release with db_units_release.
 */
enum sk_err db_units_get(struct db *db, const char *parent, const char *const *keys, size_t n,
                         struct db_unit *out);

/** Frees the results of n units read by db_units_get; NULL-safe. */
void db_units_release(struct db_unit *u, size_t n);

/** Deletes the units of job `parent` named by keys[0..n), whatever their state. */
enum sk_err db_units_drop(struct db *db, const char *parent, const char *const *keys, size_t n);

#endif
