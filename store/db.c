/* SPDX-License-Identifier: MIT */
/* libpq adapter (see db.h). */
#include "db.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <string.h>

#include "sk_log.h"
#include "sk_mem.h"

#include "sk_banned.h"

#define MAX_PREPARED 64

struct db {
    char *url;
    PGconn *conn; /* NULL or a connection believed usable */
    /* names of the statements prepared on `conn`; cleared on reconnect */
    const char *prepared[MAX_PREPARED];
    int n_prepared;
    char error[512];
};

struct db_result {
    PGresult *res;
};

static void set_error(struct db *db, const char *msg)
{
    size_t n;
    snprintf(db->error, sizeof(db->error), "%s", msg ? msg : "");
    /* libpq messages end with a newline; keep log lines on one line */
    n = strlen(db->error);
    while (n && (db->error[n - 1] == '\n' || db->error[n - 1] == ' '))
        db->error[--n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (db->error[i] == '\n')
            db->error[i] = ' ';
}

static void drop(struct db *db)
{
    if (db->conn)
        PQfinish(db->conn);
    db->conn = NULL;
    db->n_prepared = 0;
}

/* PostgreSQL's notices ("relation ... already exists, skipping" from the idempotent
 * migrations) are expected and say nothing is wrong: libpq would print them raw on stderr,
 * so they become debug lines in the log's own format instead. */
static void on_notice(void *arg, const char *msg)
{
    char q[1024];
    size_t n = strlen(msg);

    (void)arg;
    while (n && msg[n - 1] == '\n')
        n--;
    char line[1000];
    snprintf(line, sizeof(line), "%.*s", (int)n, msg);
    sk_log_debug("event=pg_notice msg=%s", sk_log_quote(q, sizeof(q), line));
}

static enum sk_err connect_now(struct db *db)
{
    PGresult *res;

    if (db->conn && PQstatus(db->conn) == CONNECTION_OK)
        return SK_OK;
    drop(db);
    db->conn = PQconnectdb(db->url);
    if (!db->conn) {
        set_error(db, "out of memory");
        return SK_ENOMEM;
    }
    if (PQstatus(db->conn) != CONNECTION_OK) {
        set_error(db, PQerrorMessage(db->conn));
        drop(db);
        return SK_EUNAVAIL;
    }
    (void)PQsetNoticeProcessor(db->conn, on_notice, NULL);
    /* Timestamps are written in UTC whatever the server's zone; the list cursor relies on
     * the text form of created_at round-tripping exactly. */
    res = PQexec(db->conn, "SET TIME ZONE 'UTC'");
    if (PQresultStatus(res) != PGRES_COMMAND_OK) {
        set_error(db, PQerrorMessage(db->conn));
        PQclear(res);
        drop(db);
        return SK_EUNAVAIL;
    }
    PQclear(res);
    return SK_OK;
}

enum sk_err db_new(const char *url, struct db **out)
{
    struct db *db = sk_calloc(1, sizeof(*db));
    if (!db)
        return SK_ENOMEM;
    db->url = sk_strdup(url);
    if (!db->url) {
        sk_free(db);
        return SK_ENOMEM;
    }
    (void)connect_now(db); /* a server that is down now is retried on first use */
    *out = db;
    return SK_OK;
}

void db_free(struct db *db)
{
    if (!db)
        return;
    drop(db);
    sk_free(db->url);
    sk_free(db);
}

const char *db_error(const struct db *db)
{
    return db->error;
}

/* Maps a failed result to an error; marks the connection for reconnection when it is
 * gone. */
static enum sk_err classify(struct db *db, PGresult *res)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

    set_error(db, res ? PQresultErrorMessage(res) : PQerrorMessage(db->conn));
    if (!res || PQstatus(db->conn) != CONNECTION_OK || !state) {
        drop(db);
        return SK_EUNAVAIL;
    }
    if (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0)
        return SK_ERETRY;
    if (strncmp(state, "08", 2) == 0 || strncmp(state, "57P", 3) == 0 ||
        strcmp(state, "53300") == 0) {
        drop(db);
        return SK_EUNAVAIL;
    }
    if (strncmp(state, "22", 2) == 0)
        return SK_EINVAL;
    return SK_EINTERNAL;
}

static int is_prepared(const struct db *db, const char *name)
{
    for (int i = 0; i < db->n_prepared; i++)
        if (db->prepared[i] == name || strcmp(db->prepared[i], name) == 0)
            return 1;
    return 0;
}

static enum sk_err exec_once(struct db *db, const char *name, const char *sql, int n,
                             const char *const *params, struct db_result **out)
{
    PGresult *res = NULL;
    ExecStatusType st;
    enum sk_err err;
    struct db_result *r = NULL;

    err = connect_now(db);
    if (err)
        return err;
    if (name && db->n_prepared < MAX_PREPARED && !is_prepared(db, name)) {
        res = PQprepare(db->conn, name, sql, n, NULL);
        if (PQresultStatus(res) != PGRES_COMMAND_OK) {
            err = classify(db, res);
            PQclear(res);
            return err;
        }
        PQclear(res);
        db->prepared[db->n_prepared++] = name;
    }
    if (name && is_prepared(db, name))
        res = PQexecPrepared(db->conn, name, n, params, NULL, NULL, 0);
    else
        res = PQexecParams(db->conn, sql, n, NULL, params, NULL, NULL, 0);
    st = PQresultStatus(res);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        err = classify(db, res);
        PQclear(res);
        return err;
    }
    if (!out) {
        PQclear(res);
        return SK_OK;
    }
    r = sk_malloc(sizeof(*r));
    if (!r) {
        PQclear(res);
        return SK_ENOMEM;
    }
    r->res = res;
    *out = r;
    return SK_OK;
}

enum sk_err db_exec(struct db *db, const char *name, const char *sql, int n,
                    const char *const *params, struct db_result **out)
{
    return exec_once(db, name, sql, n, params, out);
}

enum sk_err db_exec_idem(struct db *db, const char *name, const char *sql, int n,
                         const char *const *params, struct db_result **out)
{
    /* A connection made before a server restart still reads CONNECTION_OK: libpq learns
     * that the socket is dead only when a statement fails on it. Outside a transaction,
     * a statement that may run twice is sent once more on a new connection; inside one,
     * the transaction is gone with the connection and only its runner may start over. */
    int fresh_try = db->conn && PQtransactionStatus(db->conn) == PQTRANS_IDLE;
    enum sk_err err = exec_once(db, name, sql, n, params, out);

    if (err == SK_EUNAVAIL && fresh_try)
        err = exec_once(db, name, sql, n, params, out);
    return err;
}

enum sk_err db_exec_one(struct db *db, enum db_exec_flags flags, const char *name, const char *sql,
                        int n, const char *const *params, struct db_result **out)
{
    struct db_result *r = NULL;
    enum sk_err err = flags & DB_EXEC_IDEM ? db_exec_idem(db, name, sql, n, params, &r)
                                           : db_exec(db, name, sql, n, params, &r);

    if (err)
        return err;
    /* More than one row is answered as none, as the callers' "rows == 1" checks did: a
     * statement keyed by a primary key cannot return two, and reading one of them at random
     * would be worse than not finding any. */
    if (db_result_rows(r) != 1) {
        db_result_free(r);
        return SK_ENOTFOUND;
    }
    if (out)
        *out = r;
    else
        db_result_free(r);
    return SK_OK;
}

enum sk_err db_exec_script(struct db *db, const char *sql)
{
    PGresult *res;
    enum sk_err err = connect_now(db);

    if (err)
        return err;
    res = PQexec(db->conn, sql);
    if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
        err = classify(db, res);
    PQclear(res);
    return err;
}

enum sk_err db_ping(struct db *db)
{
    enum sk_err err = db_exec_idem(db, NULL, "SELECT 1", 0, NULL, NULL);
    return err == SK_OK ? SK_OK : SK_EUNAVAIL;
}

int db_result_rows(const struct db_result *r)
{
    return PQntuples(r->res);
}

const char *db_result_get(const struct db_result *r, int row, int col)
{
    if (PQgetisnull(r->res, row, col))
        return NULL;
    return PQgetvalue(r->res, row, col);
}

void db_result_free(struct db_result *r)
{
    if (!r)
        return;
    PQclear(r->res);
    sk_free(r);
}

enum sk_err db_run_tx(struct db *db, int max_tries, db_tx_fn *fn, void *arg)
{
    enum sk_err err = SK_ERETRY;

    for (int i = 0; i < max_tries && err == SK_ERETRY; i++) {
        err = db_exec_idem(db, NULL, "BEGIN", 0, NULL, NULL);
        if (err)
            return err;
        err = fn(db, arg);
        if (!err)
            err = db_exec(db, NULL, "COMMIT", 0, NULL, NULL);
        if (err && db->conn) {
            char keep[sizeof(db->error)];
            memcpy(keep, db->error, sizeof(keep));
            (void)db_exec(db, NULL, "ROLLBACK", 0, NULL, NULL);
            memcpy(db->error, keep, sizeof(keep));
        }
    }
    return err;
}

enum sk_err db_text_array(const char *literal, char ***items, size_t *n)
{
    const char *p = literal ? strchr(literal, '{') : NULL;
    size_t cap = 1;
    size_t count = 0;
    char **v;
    char *s;

    *items = NULL;
    *n = 0;
    if (!literal)
        return SK_OK;
    if (!p) /* a lower bound other than 1 comes as "[2:3]={...}": skipped to the brace */
        return SK_EINVAL;
    if (strcmp(p, "{}") == 0)
        return SK_OK;
    for (const char *q = p; *q; q++)
        cap += *q == ',';
    /* every element consumes at least one input character (a delimiter or a quote) for
     * the NUL it adds, so the strings fit in the literal's length */
    v = sk_malloc(cap * sizeof(*v) + strlen(p) + 1);
    if (!v)
        return SK_ENOMEM;
    s = (char *)(v + cap);
    for (p++;;) {
        if (count == cap)
            goto bad;
        if (*p == '"') { /* quoted: backslash escapes the next character */
            v[count++] = s;
            for (p++; *p && *p != '"'; p++) {
                if (*p == '\\' && p[1])
                    p++;
                *s++ = *p;
            }
            if (*p++ != '"')
                goto bad;
            *s++ = '\0';
        } else {
            const char *start = p;
            size_t len;
            while (*p && *p != ',' && *p != '}')
                p++;
            len = (size_t)(p - start);
            if (len == 4 && memcmp(start, "NULL", 4) == 0) { /* a quoted "NULL" is text */
                v[count++] = NULL;
            } else {
                v[count++] = s;
                memcpy(s, start, len);
                s += len;
                *s++ = '\0';
            }
        }
        if (*p == '}' && p[1] == '\0')
            break;
        if (*p++ != ',')
            goto bad;
    }
    *items = v;
    *n = count;
    return SK_OK;
bad:
    sk_free(v);
    return SK_EINVAL;
}

/* The bytes of hex text `hex` (even length, as encode(..., 'hex') writes) in a new
 * allocation *out of *len bytes. */
enum sk_err db_from_hex(const char *hex, unsigned char **out, size_t *len)
{
    size_t n = strlen(hex) / 2;
    unsigned char *b = sk_malloc(n ? n : 1);

    if (!b)
        return SK_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        for (int h = 0; h < 2; h++) {
            char ch = hex[2 * i + (size_t)h];
            v = v * 16 + (unsigned)(ch <= '9' ? ch - '0' : ch - 'a' + 10);
        }
        b[i] = (unsigned char)v;
    }
    *out = b;
    *len = n;
    return SK_OK;
}

/* `len` bytes at `data` as a bytea literal in hex form ("\x..."), a new string. */
char *db_to_hex(const void *data, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *p = data;
    char *s = sk_malloc(2 * len + 3);

    if (!s)
        return NULL;
    s[0] = '\\';
    s[1] = 'x';
    for (size_t i = 0; i < len; i++) {
        s[2 + 2 * i] = digits[p[i] >> 4];
        s[3 + 2 * i] = digits[p[i] & 15];
    }
    s[2 + 2 * len] = '\0';
    return s;
}
