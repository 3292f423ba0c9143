/* SPDX-License-Identifier: MIT */
/* API key routes and command (see api_keys.h). */
#include "api_keys.h"

#include <stdio.h>
#include <string.h>

#include "db_keys.h"
#include "db_migrate.h"
#include "queue.h"
#include "queue_notify.h"
#include "sk_json.h"
#include "sk_log.h"
#include "sk_mem.h"

#include "sk_banned.h"

static json_t *key_json(const struct db_key *k)
{
    return json_pack("{s:s, s:s, s:b, s:s, s:s, s:o}", "id", k->id, "tenant", k->tenant, "admin",
                     k->admin, "name", k->name, "created_at", k->created_at, "revoked_at",
                     k->revoked_at[0] ? json_string(k->revoked_at) : json_null());
}

static void set_json(struct api_response *resp, int status, json_t *doc)
{
    char *text = doc ? sk_json_text(doc) : NULL;
    if (text)
        api_http_json_text(resp, status, text);
    else
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
    sk_free(text);
    json_decref(doc);
}

static void store_failed(struct api_response *resp, enum sk_err err, const char *req_id)
{
    api_http_problem(resp, 503, "unavailable", "Service Unavailable",
                     "the key store is unreachable; retry shortly", NULL);
    resp->retry_after = 1;
    sk_log_error("event=store_error req_id=%s op=keys err=%s", req_id, sk_err_str(err));
}

static void field_error(struct api_response *resp, const char *pointer, const char *detail)
{
    api_http_problem(resp, 422, "validation-error", "Unprocessable Content", detail,
                     json_pack("{s:[{s:s, s:s}]}", "errors", "pointer", pointer, "detail", detail));
}

void api_keys_create(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp)
{
    json_error_t jerr;
    json_t *doc = NULL;
    json_t *admin;
    json_t *name;
    const char *key;
    const char *tenant;
    char token[DB_KEYS_TOKEN_LEN];
    struct db_key k;
    struct api_slot *slot;
    enum sk_err err;
    json_t *out;

    if (req->body_too_large) {
        api_http_problem(resp, 413, "body-too-large", "Content Too Large", "the body is too large",
                         NULL);
        return;
    }
    if (!api_http_is_json(req->content_type)) {
        api_http_problem(resp, 415, "unsupported-media-type", "Unsupported Media Type",
                         "the body must be application/json", NULL);
        return;
    }
    doc = json_loadb(req->body ? req->body : "", req->body_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc) {
        api_http_problem(resp, 400, "malformed-json", "Bad Request", jerr.text,
                         json_pack("{s:i, s:i}", "line", jerr.line, "column", jerr.column));
        return;
    }
    if (!json_is_object(doc)) {
        field_error(resp, "", "the body must be an object {\"tenant\", \"admin\", \"name\"}");
        goto out;
    }
    json_object_foreach(doc, key, admin)
    {
        if (strcmp(key, "tenant") != 0 && strcmp(key, "admin") != 0 && strcmp(key, "name") != 0) {
            char ptr[80];
            snprintf(ptr, sizeof(ptr), "/%.60s", key);
            field_error(resp, ptr, "unknown field; the fields are tenant, admin and name");
            goto out;
        }
    }
    tenant = json_string_value(json_object_get(doc, "tenant"));
    admin = json_object_get(doc, "admin");
    name = json_object_get(doc, "name");
    if (!db_keys_valid_tenant(tenant)) {
        field_error(resp, "/tenant",
                    "'tenant' must be 1 to 63 of a-z, 0-9, '_', '.' and '-', starting with a "
                    "letter or digit");
        goto out;
    }
    if (admin && !json_is_boolean(admin)) {
        field_error(resp, "/admin", "'admin' must be true or false");
        goto out;
    }
    if (name && (!json_is_string(name) || json_string_length(name) > 200)) {
        field_error(resp, "/name", "'name' must be a string of at most 200 bytes");
        goto out;
    }
    slot = api_pool_get(ctx->pool);
    err = db_keys_create(slot->db, tenant, json_is_true(admin), json_string_value(name), token, &k);
    api_pool_put(ctx->pool, slot);
    if (err) {
        store_failed(resp, err, req->req_id);
        goto out;
    }
    sk_log_info("event=key_created req_id=%s key=%s tenant=%s admin=%d", req->req_id, k.id,
                k.tenant, k.admin);
    out = key_json(&k);
    if (out)
        json_object_set_new(out, "key", json_string(token));
    set_json(resp, 201, out);
    if (resp->status == 201)
        snprintf(resp->location, sizeof(resp->location), "/v1/keys/%s", k.id);
out:
    json_decref(doc);
}

void api_keys_list(const struct api_ctx *ctx, const struct api_request *req,
                   struct api_response *resp)
{
    struct db_key *keys = NULL;
    size_t n = 0;
    struct api_slot *slot;
    enum sk_err err;
    json_t *arr;

    if (req->n_args) {
        const char *detail = "unknown query parameter";
        api_http_problem(resp, 400, "invalid-query", "Bad Request", detail,
                         json_pack("{s:[{s:s, s:s}]}", "errors", "parameter", req->args[0].key,
                                   "detail", detail));
        return;
    }
    slot = api_pool_get(ctx->pool);
    err = db_keys_list(slot->db, &keys, &n);
    api_pool_put(ctx->pool, slot);
    if (err) {
        store_failed(resp, err, req->req_id);
        return;
    }
    arr = json_array();
    for (size_t i = 0; arr && i < n; i++)
        json_array_append_new(arr, key_json(&keys[i]));
    set_json(resp, 200, arr ? json_pack("{s:o}", "items", arr) : NULL);
    sk_free(keys);
}

void api_keys_revoke(const struct api_ctx *ctx, const struct api_request *req,
                     struct api_response *resp)
{
    struct api_slot *slot = api_pool_get(ctx->pool);
    enum sk_err err = db_keys_revoke(slot->db, req->id);
    /* every API process ends the key's open long polls and event streams at once; without
     * Redis their key checkers find it within API_WATCH_KEY_CHECK_MS */
    enum sk_err pub = err ? SK_OK : queue_publish_revoked(slot->queue, req->id);
    api_pool_put(ctx->pool, slot);
    if (pub)
        sk_log_warn("event=revoke_unannounced req_id=%s key=%s err=%s", req->req_id, req->id,
                    sk_err_str(pub));
    if (err == SK_ENOTFOUND) {
        char detail[128];
        snprintf(detail, sizeof(detail), "no active key with id '%.64s'", req->id);
        api_http_problem(resp, 404, "key-not-found", "Not Found", detail, NULL);
    } else if (err) {
        store_failed(resp, err, req->req_id);
    } else {
        sk_log_info("event=key_revoked req_id=%s key=%s", req->req_id, req->id);
        resp->status = 204;
    }
}

/* ===== skirmish-api keys ... ===== */

static int keys_usage(void)
{
    (void)fputs("usage: skirmish-api keys create --tenant NAME [--admin] [--name TEXT]\n"
                "       skirmish-api keys list\n"
                "       skirmish-api keys revoke ID\n",
                stderr);
    return 2;
}

static int cmd_create(struct db *db, int argc, char **argv)
{
    const char *tenant = NULL;
    const char *name = "";
    int admin = 0;
    char token[DB_KEYS_TOKEN_LEN];
    struct db_key k;
    enum sk_err err;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--admin") == 0)
            admin = 1;
        else if (strcmp(argv[i], "--tenant") == 0 && i + 1 < argc)
            tenant = argv[++i];
        else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
            name = argv[++i];
        else
            return keys_usage();
    }
    if (!db_keys_valid_tenant(tenant)) {
        fprintf(stderr, "skirmish-api: --tenant must be 1 to 63 of a-z, 0-9, '_', '.' and '-', "
                        "starting with a letter or digit\n");
        return 2;
    }
    err = db_keys_create(db, tenant, admin, name, token, &k);
    if (err == SK_EINVAL) {
        fprintf(stderr, "skirmish-api: --name must be at most 200 bytes\n");
        return 2;
    }
    if (err) {
        fprintf(stderr, "skirmish-api: cannot make the key: %s (%s)\n", sk_err_str(err),
                db_error(db));
        return 1;
    }
    /* the key alone on stdout, so a script can take it: KEY=$(skirmish-api keys create ...) */
    printf("%s\n", token);
    fprintf(stderr, "skirmish-api: key %s made for tenant %s%s; it is shown only now\n", k.id,
            k.tenant, k.admin ? " (admin)" : "");
    return 0;
}

static int cmd_list(struct db *db)
{
    struct db_key *keys = NULL;
    size_t n = 0;
    enum sk_err err = db_keys_list(db, &keys, &n);
    if (err) {
        fprintf(stderr, "skirmish-api: cannot list the keys: %s\n", sk_err_str(err));
        return 1;
    }
    printf("%-16s  %-20s  %-5s  %-27s  %-27s  %s\n", "id", "tenant", "admin", "created_at",
           "revoked_at", "name");
    for (size_t i = 0; i < n; i++)
        printf("%-16s  %-20s  %-5s  %-27s  %-27s  %s\n", keys[i].id, keys[i].tenant,
               keys[i].admin ? "yes" : "no", keys[i].created_at,
               keys[i].revoked_at[0] ? keys[i].revoked_at : "-", keys[i].name);
    sk_free(keys);
    return 0;
}

/* Announces a revocation to every API process (queue_publish_revoked). Without Redis their
 * key checkers find it within half a second; returns 0, or -1 when it was not announced. */
static int announce_revoked(const struct sk_config *cfg, const char *id)
{
    struct queue *q = NULL;
    enum sk_err err = queue_new(cfg->redis_url, cfg->queue_prefix, &q);
    if (!err)
        err = queue_publish_revoked(q, id);
    queue_free(q);
    return err ? -1 : 0;
}

static int cmd_revoke(const struct sk_config *cfg, struct db *db, const char *id)
{
    enum sk_err err = db_keys_revoke(db, id);
    if (err == SK_ENOTFOUND) {
        fprintf(stderr, "skirmish-api: no active key with id '%s'\n", id);
        return 1;
    }
    if (err) {
        fprintf(stderr, "skirmish-api: cannot revoke the key: %s\n", sk_err_str(err));
        return 1;
    }
    fprintf(stderr, "skirmish-api: key %s revoked\n", id);
    if (announce_revoked(cfg, id))
        fprintf(stderr, "skirmish-api: Redis did not take the announcement: the key's open "
                        "event streams and long polls end within a second all the same\n");
    return 0;
}

int api_keys_command(const struct sk_config *cfg, int argc, char **argv)
{
    struct db *db = NULL;
    char err[512] = "";
    int applied = 0;
    int status;

    if (argc < 1 ||
        !(strcmp(argv[0], "create") == 0 || (strcmp(argv[0], "list") == 0 && argc == 1) ||
          (strcmp(argv[0], "revoke") == 0 && argc == 2)))
        return keys_usage();
    if (db_new(cfg->database_url, &db) ||
        db_migrate_apply(db, db_migrate_all, db_migrate_count, &applied, err, sizeof(err))) {
        fprintf(stderr, "skirmish-api: the database is not ready: %s\n",
                err[0] ? err : "cannot connect");
        db_free(db);
        return 1;
    }
    if (strcmp(argv[0], "create") == 0)
        status = cmd_create(db, argc, argv);
    else if (strcmp(argv[0], "list") == 0)
        status = cmd_list(db);
    else
        status = cmd_revoke(cfg, db, argv[1]);
    db_free(db);
    return status;
}
