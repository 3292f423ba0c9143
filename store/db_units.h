/* SPDX-License-Identifier: MIT */
/* Units of an optimisation spread across workers (migration 0012; docs/optimize.md,
 * "Spread across workers"): rows under the job, each a unit's bytes and the hash that names
 * it within the job. The coordinator (the job's lease holder) inserts a call's units in one
 * statement fenced by its lease, reads their results as workers store them (a unit ends
 * with db_units_done, its result as its checkpoint), and deletes them
 * once it has them all. Any other worker claims a unit like any job (db_jobs_claim) and
 * ends it with db_units_done. Every write here commits asynchronously (db_units.c). */
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

/**
 * The coordinator's claim of unit `id` (queued, or running under an expired lease, and not
 * canceled) for `owner` with a lease of `lease_ms`: *got is 1 when it is now `owner`'s to
 * compute, 0 when another worker holds it or it ended.
 */
enum sk_err db_units_claim(struct db *db, const char *id, const char *owner, long lease_ms,
                           int *got);

/**
 * Ends unit `id` as succeeded with its result (`len` bytes, borrowed) as its checkpoint,
 * with the write only its lease holder (`owner`) can make. SK_ELEASE when it does not
 * hold it (another worker took it over, or the coordinator deleted it once it had its
 * result).
 */
enum sk_err db_units_done(struct db *db, const char *id, const char *owner, const void *result,
                          size_t len);

/** Deletes the units of job `parent` named by keys[0..n), whatever their state. */
enum sk_err db_units_drop(struct db *db, const char *parent, const char *const *keys, size_t n);

#endif
