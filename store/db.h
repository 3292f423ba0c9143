/* SPDX-License-Identifier: MIT */
/* The PostgreSQL adapter: an opaque connection that reconnects by itself, statements run
 * with text parameters (prepared once per connection), results read as text, and
 * db_run_tx which retries serialization failures and deadlocks. The only module besides
 * db_jobs.c that knows libpq; it knows nothing of jobs. Not thread-safe: one struct db
 * per thread (docs/style.md, rule 17). */
#ifndef DB_H
#define DB_H

#include <stddef.h>

#include "sk_err.h"

struct db;
struct db_result;

/**
 * Returns in *out a new handle for the libpq URI `url` (copied). The connection is made
 * now if possible and otherwise on first use, so a database that is down at start is not
 * an error: every call reports SK_EUNAVAIL until it is back. Caller frees with db_free.
 */
enum sk_err db_new(const char *url, struct db **out);
/** Closes the connection and frees the handle; NULL-safe. */
void db_free(struct db *db);

/** SK_OK when the server answers a trivial query now, SK_EUNAVAIL otherwise. */
enum sk_err db_ping(struct db *db);

/**
 * Runs `sql` with `n` text parameters (NULL entries are SQL NULL). With `name` non-NULL
 * the statement is prepared under that name on first use on each connection. On SK_OK and
 * `out` non-NULL, *out is a new result (free with db_result_free). Errors: SK_EUNAVAIL
 * (connection lost or server down: the next call reconnects), SK_ERETRY (serialization
 * failure or deadlock: retry the transaction), SK_EINVAL (the server rejected a value,
 * SQLSTATE class 22), SK_EINTERNAL (anything else: a bug). The message of the last error
 * is kept (db_error).
 */
enum sk_err db_exec(struct db *db, const char *name, const char *sql, int n,
                    const char *const *params, struct db_result **out);

/**
 * As db_exec, for a statement that may run twice with the same effect and answer (a read,
 * or an idempotent write). A connection that died unnoticed (the server restarted since
 * the last statement) costs no error: outside a transaction the statement is run once
 * more on a new connection. Errors as db_exec.
 */
enum sk_err db_exec_idem(struct db *db, const char *name, const char *sql, int n,
                         const char *const *params, struct db_result **out);

/* How db_exec_one sends its statement. */
enum db_exec_flags {
    DB_EXEC_PLAIN = 0,     /* once, as db_exec */
    DB_EXEC_IDEM = 1 << 0, /* the statement may run twice with the same effect: db_exec_idem */
};

/**
 * Runs a statement that answers with at most one row: a read by key, or a write of one row
 * by key with RETURNING. The single place that tells "the row" from "no such row", so each
 * caller only reads its columns and maps SK_ENOTFOUND to what no row means to it.
 *
 * Params: `db`, `name`, `sql`, `n` and `params` as db_exec; `flags` DB_EXEC_IDEM sends the
 * statement as db_exec_idem (it may run twice), DB_EXEC_PLAIN as db_exec.
 * [out] `out`: on SK_OK, a new result holding exactly one row (read row 0 with
 * db_result_get); NULL when only whether the row exists matters.
 *
 * Returns SK_OK when exactly one row came back. SK_ENOTFOUND when none did, or more than
 * one (not a single-row statement: every caller selects by primary key, so it does not
 * happen). Other errors as db_exec, which never answers SK_ENOTFOUND: a caller may turn it
 * into SK_ECONFLICT or SK_EINTERNAL (an INSERT ... RETURNING that gave no row) without
 * hiding a database error.
 *
 * Ownership: *out is written only on SK_OK, and then the caller frees it with
 * db_result_free (the strings db_result_get returns from it are borrowed until then); on
 * any other answer nothing is left to free. `sql` and `params` are borrowed for the call;
 * `name` as db_exec (a string that lives as long as `db`).
 *
 * Thread-safety: as db_exec (one struct db per thread). Logs nothing: the caller that
 * handles the error logs it.
 */
enum sk_err db_exec_one(struct db *db, enum db_exec_flags flags, const char *name, const char *sql,
                        int n, const char *const *params,
                        struct db_result **out /* OUT: one row, or NULL */);

/**
 * Runs `sql`, which may hold several statements and no parameters (a migration file).
 * Errors as db_exec.
 */
enum sk_err db_exec_script(struct db *db, const char *sql);

/** Returns the last server or connection error message (borrowed, db-owned). */
const char *db_error(const struct db *db);

/** Rows in `r`. */
int db_result_rows(const struct db_result *r);
/** Borrowed text of row `row`, column `col` (valid until db_result_free); NULL for SQL NULL. */
const char *db_result_get(const struct db_result *r, int row, int col);
/** Frees a result; NULL-safe. */
void db_result_free(struct db_result *r);

/**
 * Parses the text form of a one-dimensional text[] value (`{a,"b c",NULL}`, as
 * db_result_get returns it) into *items, one allocation (free with sk_free) holding the
 * *n element pointers and their strings; a SQL NULL element is a NULL pointer. `literal`
 * NULL or `{}` gives *items = NULL, *n = 0. SK_EINVAL when it is not such a value.
 */
enum sk_err db_text_array(const char *literal, char ***items, size_t *n);

/** The bytes of hex text `hex` (even length, as encode(..., 'hex') writes) in a new
 * allocation *out (sk_free) of *len bytes. SK_ENOMEM. */
enum sk_err db_from_hex(const char *hex, unsigned char **out, size_t *len);
/** `len` bytes at `data` as a bytea literal in hex form ("\\x..."): a new string (sk_free),
 * NULL on allocation failure. */
char *db_to_hex(const void *data, size_t len);

typedef enum sk_err db_tx_fn(struct db *db, void *arg);

/**
 * Runs `fn` inside BEGIN ... COMMIT. When `fn` or the commit fail with SK_ERETRY
 * (SQLSTATE 40001 or 40P01) the transaction is rolled back and run again, up to
 * `max_tries` times; any other error rolls back and is returned as is.
 */
enum sk_err db_run_tx(struct db *db, int max_tries, db_tx_fn *fn, void *arg);

#endif
