/* SPDX-License-Identifier: MIT */
/* API keys (docs/security.md): made, listed, revoked, and checked for every request. A key
 * is the text "sk_<id>_<secret>": <id> (16 hex digits) is public and names the row,
 * <secret> (64 hex digits, 256 random bits from OpenSSL's RAND_bytes) is shown once and
 * never stored: the row keeps SHA-256(secret), compared with CRYPTO_memcmp (constant
 * time). The secret is random, not chosen by a person, so a fast hash is enough: no
 * dictionary can guess it. Revocation is a column; every check reads the row, so it takes
 * effect on the next request (what the key has open is ended by the API's waiter registry,
 * which reads its keys with db_keys_revoked_among). Errors as db_exec. */
#ifndef DB_KEYS_H
#define DB_KEYS_H

#include <stddef.h>

#include "db.h"
#include "sk_err.h"

/* "sk_" + 16 + "_" + 64 characters, and the NUL. */
#define DB_KEYS_TOKEN_LEN 85
/* A key id (16 hex digits) and the NUL. */
#define DB_KEYS_ID_LEN 17
/* A tenant name: 1..63 of [a-z0-9_.-], starting with a letter or digit, and the NUL. */
#define DB_KEYS_TENANT_LEN 64

/* One row of api_keys, without its hash. */
struct db_key {
    char id[DB_KEYS_ID_LEN];
    char tenant[DB_KEYS_TENANT_LEN];
    int admin;
    char name[201];
    char created_at[32]; /* RFC 3339, UTC */
    char revoked_at[32]; /* "" while the key is active */
};

/* What a valid key says about the caller, and about the job the request names. */
struct db_key_auth {
    char key_id[DB_KEYS_ID_LEN];
    char tenant[DB_KEYS_TENANT_LEN];
    int admin;
    /* when a job id was given: 1 when the job exists, and its tenant */
    int job_found;
    char job_tenant[DB_KEYS_TENANT_LEN];
};

/** 1 when `t` is a valid tenant name. */
int db_keys_valid_tenant(const char *t);

/**
 * Makes a key for `tenant` (admin scope when `admin`), named `name` (a note, at most 200
 * bytes; NULL = ""). The key text is written to `token` (shown once: only its hash is
 * kept); *out (may be NULL) gets the row. SK_EINVAL for a bad tenant or name.
 */
enum sk_err db_keys_create(struct db *db, const char *tenant, int admin, const char *name,
                           char token[DB_KEYS_TOKEN_LEN], struct db_key *out);

/** Every key, newest first, in *out (a new array of *n rows; sk_free). */
enum sk_err db_keys_list(struct db *db, struct db_key **out, size_t *n);

/** Revokes key `id` at once. SK_ENOTFOUND when no active key has that id. */
enum sk_err db_keys_revoke(struct db *db, const char *id);

/**
 * Which of the `n` key ids `ids` are no longer active (revoked, or no such key): sets
 * revoked[i] to 1 for those, 0 for the active ones, in one statement (the API's periodic
 * check of the keys of its open long polls and event streams). An id that is not 16 hex
 * digits is revoked. Errors as db_exec; `revoked` is written only on SK_OK.
 */
enum sk_err db_keys_revoked_among(struct db *db, const char (*ids)[DB_KEYS_ID_LEN], size_t n,
                                  unsigned char *revoked);

/** Number of keys not revoked, in *n. */
enum sk_err db_keys_active(struct db *db, long long *n);

/**
 * Checks the key text `token`: SK_OK fills *out when it names an active key and its
 * secret matches; SK_ENOTFOUND for anything else (malformed, unknown, revoked, wrong
 * secret; the hash is computed and compared in every case, so the time taken does not
 * tell which). When `job_id` is non-NULL (a valid UUID), the same statement reads that
 * job's tenant into out->job_tenant (out->job_found).
 */
enum sk_err db_keys_auth(struct db *db, const char *token, const char *job_id,
                         struct db_key_auth *out);

/** Number of queued and running jobs of `tenant`, in *n (the tenant's quota). */
enum sk_err db_keys_tenant_active(struct db *db, const char *tenant, long long *n);

#endif
