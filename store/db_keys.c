/* SPDX-License-Identifier: MIT */
/* API keys (see db_keys.h). */
/* OpenSSL first: its stack API defines a macro `sk_free`, undefined here so that
 * sk_mem.h's function of that name (this project's prefix) is the one used. */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#undef sk_free

#include "db_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sk_buf.h"
#include "sk_mem.h"

#include "sk_banned.h"

#define SECRET_HEX 64
#define ID_HEX     16
#define TS(col)    "to_char(" col ", 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
#define KEY_COLS   "id, tenant, admin::text, name, " TS("created_at") ", " TS("revoked_at")

static const char hexd[] = "0123456789abcdef";

int db_keys_valid_tenant(const char *t)
{
    size_t n = 0;
    if (!t)
        return 0;
    for (; t[n]; n++) {
        char c = t[n];
        int alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (n >= DB_KEYS_TENANT_LEN - 1 || !(alnum || (n > 0 && strchr("_.-", c))))
            return 0;
    }
    return n > 0;
}

static void to_hex(const unsigned char *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hexd[b[i] >> 4];
        out[2 * i + 1] = hexd[b[i] & 15];
    }
    out[2 * n] = '\0';
}

static int hex_digit(char c)
{
    const char *p = c ? strchr(hexd, c) : NULL;
    return p ? (int)(p - hexd) : -1;
}

/* Decodes two hex digits into *out; -1 when they are not hex. */
static int hex_byte(const char *h, unsigned char *out)
{
    int hi = hex_digit(h[0]);
    int lo = hex_digit(h[1]);
    if (hi < 0 || lo < 0)
        return -1;
    *out = (unsigned char)(((unsigned)hi << 4) | (unsigned)lo);
    return 0;
}

/* 1 when `s` is exactly `n` lower-case hex digits. */
static int is_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (hex_digit(s[i]) < 0)
            return 0;
    return 1;
}

/* SHA-256 of `s` (OpenSSL's EVP interface). Returns 0, or -1 when OpenSSL fails. */
static int sha256(const char *s, size_t n, unsigned char out[32])
{
    unsigned int len = 0;
    return EVP_Digest(s, n, out, &len, EVP_sha256(), NULL) == 1 && len == 32 ? 0 : -1;
}

static void copy(char *dst, size_t len, const char *v)
{
    snprintf(dst, len, "%s", v ? v : "");
}

static void read_key(const struct db_result *r, int row, struct db_key *k)
{
    const char *admin = db_result_get(r, row, 2);
    memset(k, 0, sizeof(*k));
    copy(k->id, sizeof(k->id), db_result_get(r, row, 0));
    copy(k->tenant, sizeof(k->tenant), db_result_get(r, row, 1));
    k->admin = admin && admin[0] == 't';
    copy(k->name, sizeof(k->name), db_result_get(r, row, 3));
    copy(k->created_at, sizeof(k->created_at), db_result_get(r, row, 4));
    copy(k->revoked_at, sizeof(k->revoked_at), db_result_get(r, row, 5));
}

enum sk_err db_keys_create(struct db *db, const char *tenant, int admin, const char *name,
                           char token[DB_KEYS_TOKEN_LEN], struct db_key *out)
{
    unsigned char rnd[ID_HEX / 2 + SECRET_HEX / 2];
    unsigned char hash[32];
    char id[ID_HEX + 1];
    char secret[SECRET_HEX + 1];
    char hash_hex[65];
    const char *p[4];
    struct db_result *r = NULL;
    enum sk_err err;

    if (!name)
        name = "";
    if (!db_keys_valid_tenant(tenant) || strlen(name) > 200)
        return SK_EINVAL;
    if (RAND_bytes(rnd, (int)sizeof(rnd)) != 1)
        return SK_EINTERNAL;
    to_hex(rnd, ID_HEX / 2, id);
    to_hex(rnd + ID_HEX / 2, SECRET_HEX / 2, secret);
    OPENSSL_cleanse(rnd, sizeof(rnd));
    if (sha256(secret, SECRET_HEX, hash)) {
        OPENSSL_cleanse(secret, sizeof(secret));
        return SK_EINTERNAL;
    }
    to_hex(hash, sizeof(hash), hash_hex);
    p[0] = id;
    p[1] = hash_hex;
    p[2] = tenant;
    p[3] = admin ? "true" : "false";
    {
        const char *q[5] = {p[0], p[1], p[2], p[3], name};
        err =
            db_exec_one(db, DB_EXEC_PLAIN, NULL,
                        "INSERT INTO api_keys (id, hash, tenant, admin, name)"
                        " VALUES ($1, decode($2, 'hex'), $3, $4::boolean, $5) RETURNING " KEY_COLS,
                        5, q, &r);
    }
    if (err == SK_ENOTFOUND)
        err = SK_EINTERNAL; /* an INSERT with RETURNING that gave no row is a bug */
    if (!err) {
        snprintf(token, DB_KEYS_TOKEN_LEN, "sk_%s_%s", id, secret);
        if (out)
            read_key(r, 0, out);
    }
    OPENSSL_cleanse(secret, sizeof(secret));
    db_result_free(r);
    return err;
}

enum sk_err db_keys_list(struct db *db, struct db_key **out, size_t *n)
{
    struct db_result *r = NULL;
    struct db_key *keys;
    int rows;
    enum sk_err err =
        db_exec_idem(db, "keys_list",
                     "SELECT " KEY_COLS " FROM api_keys ORDER BY created_at DESC, id", 0, NULL, &r);
    if (err)
        return err;
    rows = db_result_rows(r);
    keys = sk_calloc(rows ? (size_t)rows : 1, sizeof(*keys));
    if (!keys) {
        db_result_free(r);
        return SK_ENOMEM;
    }
    for (int i = 0; i < rows; i++)
        read_key(r, i, &keys[i]);
    db_result_free(r);
    *out = keys;
    *n = (size_t)rows;
    return SK_OK;
}

enum sk_err db_keys_revoke(struct db *db, const char *id)
{
    if (strlen(id) != ID_HEX || !is_hex(id, ID_HEX))
        return SK_ENOTFOUND;
    return db_exec_one(db, DB_EXEC_IDEM, "keys_revoke",
                       "UPDATE api_keys SET revoked_at = now()"
                       " WHERE id = $1 AND revoked_at IS NULL RETURNING 1",
                       1, &id, NULL);
}

enum sk_err db_keys_revoked_among(struct db *db, const char (*ids)[DB_KEYS_ID_LEN], size_t n,
                                  unsigned char *revoked)
{
    struct sk_buf arr;
    struct db_result *r = NULL;
    const char *p[1];
    enum sk_err err;
    int rows;

    if (n == 0)
        return SK_OK;
    /* a text[] literal of the well-formed ids: hex digits need no quoting */
    sk_buf_init(&arr, 0);
    (void)sk_buf_adds(&arr, "{");
    for (size_t i = 0; i < n; i++)
        if (strlen(ids[i]) == ID_HEX && is_hex(ids[i], ID_HEX))
            (void)sk_buf_printf(&arr, "%s%s", arr.len > 1 ? "," : "", ids[i]);
    (void)sk_buf_adds(&arr, "}");
    if (arr.err) {
        sk_buf_release(&arr);
        return SK_ENOMEM;
    }
    p[0] = arr.p;
    /* the active ones, in byte order, so that each id is found by bisection */
    err = db_exec_idem(db, "keys_active_among",
                       "SELECT id FROM api_keys WHERE id = ANY($1::text[]) AND revoked_at IS NULL"
                       " ORDER BY id COLLATE \"C\"",
                       1, p, &r);
    sk_buf_release(&arr);
    if (err)
        return err;
    rows = db_result_rows(r);
    for (size_t i = 0; i < n; i++) {
        int lo = 0;
        int hi = rows;
        revoked[i] = 1;
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            int c = strcmp(ids[i], db_result_get(r, mid, 0));
            if (c == 0) {
                revoked[i] = 0;
                break;
            }
            if (c < 0)
                hi = mid;
            else
                lo = mid + 1;
        }
    }
    db_result_free(r);
    return SK_OK;
}

enum sk_err db_keys_active(struct db *db, long long *n)
{
    struct db_result *r = NULL;
    enum sk_err err = db_exec_idem(
        db, "keys_active", "SELECT count(*) FROM api_keys WHERE revoked_at IS NULL", 0, NULL, &r);
    if (!err)
        *n = strtoll(db_result_get(r, 0, 0), NULL, 10);
    db_result_free(r);
    return err;
}

enum sk_err db_keys_auth(struct db *db, const char *token, const char *job_id,
                         struct db_key_auth *out)
{
    /* a stored hash no secret has (SHA-256 output is never all zero in practice): compared
     * when the key is malformed or unknown, so every path does the same work */
    static const unsigned char none[32];
    unsigned char want[32];
    unsigned char got[32];
    char id[ID_HEX + 1] = "0000000000000000";
    const char *secret = "";
    const char *p[2];
    struct db_result *r = NULL;
    int well_formed;
    int found = 0;
    enum sk_err err;

    memset(out, 0, sizeof(*out));
    well_formed = token && strlen(token) == DB_KEYS_TOKEN_LEN - 1 &&
                  strncmp(token, "sk_", 3) == 0 && is_hex(token + 3, ID_HEX) &&
                  token[3 + ID_HEX] == '_' && is_hex(token + 4 + ID_HEX, SECRET_HEX);
    if (well_formed) {
        memcpy(id, token + 3, ID_HEX);
        secret = token + 4 + ID_HEX;
    }
    p[0] = id;
    p[1] = job_id;
    err = db_exec_one(db, DB_EXEC_IDEM, "keys_auth",
                      "SELECT encode(hash, 'hex'), tenant, admin::text,"
                      " (SELECT tenant FROM jobs WHERE id = $2::uuid)"
                      " FROM api_keys WHERE id = $1 AND revoked_at IS NULL",
                      2, p, &r);
    if (err && err != SK_ENOTFOUND)
        return err;
    /* an unknown key still hashes its secret below: r is NULL then, and `want` stays none */
    memcpy(want, none, sizeof(want));
    if (r) {
        const char *h = db_result_get(r, 0, 0);
        found = well_formed && h && strlen(h) == 64;
        for (size_t i = 0; found && i < 32; i++)
            found = hex_byte(h + 2 * i, &want[i]) == 0;
    }
    if (sha256(secret, strlen(secret), got)) {
        db_result_free(r);
        return SK_EINTERNAL;
    }
    if (CRYPTO_memcmp(want, got, sizeof(got)) != 0 || !found) {
        db_result_free(r);
        return SK_ENOTFOUND;
    }
    memcpy(out->key_id, id, sizeof(out->key_id));
    copy(out->tenant, sizeof(out->tenant), db_result_get(r, 0, 1));
    out->admin = db_result_get(r, 0, 2)[0] == 't';
    if (db_result_get(r, 0, 3)) {
        out->job_found = 1;
        copy(out->job_tenant, sizeof(out->job_tenant), db_result_get(r, 0, 3));
    }
    db_result_free(r);
    return SK_OK;
}

enum sk_err db_keys_tenant_active(struct db *db, const char *tenant, long long *n)
{
    struct db_result *r = NULL;
    enum sk_err err = db_exec_idem(db, "tenant_active",
                                   "SELECT count(*) FROM jobs WHERE tenant = $1"
                                   " AND status IN ('queued', 'running') AND parent_id IS NULL",
                                   1, &tenant, &r);
    if (!err)
        *n = strtoll(db_result_get(r, 0, 0), NULL, 10);
    db_result_free(r);
    return err;
}
