/* SPDX-License-Identifier: MIT */
/* The declarative configuration table and its loader (see sk_config.h). */
#include "sk_config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sk_log.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

#define OFF(f) offsetof(struct sk_config, f)

/* Defaults suit `make run`: PostgreSQL on 5433 and Redis on 6380 under var/, so a system
 * PostgreSQL or Redis on the standard ports is never touched. */
static const struct sk_config_row rows[] = {
    {"SKIRMISH_DATABASE_URL", SK_CONFIG_STR, "postgresql://postgres@127.0.0.1:5433/skirmish", 0, 0,
     1, OFF(database_url), "PostgreSQL connection URI (libpq syntax)"},
    {"SKIRMISH_REDIS_URL", SK_CONFIG_STR, "redis://127.0.0.1:6380", 0, 0, 1, OFF(redis_url),
     "Redis URL: redis://[:password@]host:port"},
    {"SKIRMISH_QUEUE_PREFIX", SK_CONFIG_STR, "skirmish", 0, 0, 0, OFF(queue_prefix),
     "prefix of every Redis key (stream PREFIX:jobs, group workers)"},
    {"SKIRMISH_HTTP_ADDR", SK_CONFIG_STR, "127.0.0.1", 0, 0, 0, OFF(http_addr),
     "IPv4 address the API listens on"},
    {"SKIRMISH_HTTP_PORT", SK_CONFIG_INT, "8080", 1, 65535, 0, OFF(http_port),
     "TCP port the API listens on"},
    {"SKIRMISH_HTTP_THREADS", SK_CONFIG_INT, "0", 0, 256, 0, OFF(http_threads),
     "API worker threads (each with its own PostgreSQL and Redis connection); 0 = per core"},
    {"SKIRMISH_MAX_BODY_BYTES", SK_CONFIG_INT, "1048576", 1024, 67108864, 0, OFF(max_body_bytes),
     "largest request body accepted; larger bodies get 413"},
    {"SKIRMISH_LIST_LIMIT_MAX", SK_CONFIG_INT, "100", 1, 1000, 0, OFF(list_limit_max),
     "largest `limit` of GET /v1/jobs"},
    {"SKIRMISH_ACCESS_LOG", SK_CONFIG_INT, "1", 0, 1, 0, OFF(access_log),
     "1 = log one line per HTTP request"},
    {"SKIRMISH_LEASE_MS", SK_CONFIG_INT, "30000", 500, 3600000, 0, OFF(lease_ms),
     "job lease: a dead worker's job is taken over after this long"},
    {"SKIRMISH_MAX_ATTEMPTS", SK_CONFIG_INT, "5", 1, 100, 0, OFF(max_attempts),
     "attempts before a job is failed"},
    {"SKIRMISH_RETRY_BASE_MS", SK_CONFIG_INT, "1000", 1, 3600000, 0, OFF(retry_base_ms),
     "first retry delay; doubles per attempt"},
    {"SKIRMISH_RETRY_MAX_MS", SK_CONFIG_INT, "60000", 1, 86400000, 0, OFF(retry_max_ms),
     "largest retry delay"},
    {"SKIRMISH_CHUNK_UNITS", SK_CONFIG_INT, "2000", 1, 100000000, 0, OFF(chunk_units),
     "units (games, turns) per chunk between progress writes and cancel checks"},
    {"SKIRMISH_BLOCK_MS", SK_CONFIG_INT, "1000", 10, 60000, 0, OFF(block_ms),
     "how long a worker blocks in XREADGROUP"},
    {"SKIRMISH_RECONCILE_MS", SK_CONFIG_INT, "2000", 100, 3600000, 0, OFF(reconcile_ms),
     "how often a worker runs the reaper and the reconciler"},
    {"SKIRMISH_RECONCILE_AGE_MS", SK_CONFIG_INT, "5000", 0, 3600000, 0, OFF(reconcile_age_ms),
     "a queued job older than this and not in the stream is re-enqueued"},
    {"SKIRMISH_ENGINE_THREADS", SK_CONFIG_INT, "1", 0, 256, 0, OFF(engine_threads),
     "CPU threads per job in the engine; 0 = per core"},
    {"SKIRMISH_DEVICE", SK_CONFIG_STR, "", 0, 0, 0, OFF(device),
     "engine device: index, name substring or \"cpu\"; empty = engine default"},
    {"SKIRMISH_LOG_LEVEL", SK_CONFIG_STR, "info", 0, 0, 0, OFF(log_level),
     "debug, info, warn or error"},
    {"SKIRMISH_WORKER_NAME", SK_CONFIG_STR, "", 0, 0, 0, OFF(worker_name),
     "consumer name of a worker; empty = host:pid"},
    {NULL, SK_CONFIG_STR, NULL, 0, 0, 0, 0, NULL},
};

const struct sk_config_row *sk_config_rows(void)
{
    return rows;
}

static char **str_field(struct sk_config *cfg, const struct sk_config_row *r)
{
    return (char **)(void *)((char *)cfg + r->offset);
}

static long *int_field(struct sk_config *cfg, const struct sk_config_row *r)
{
    return (long *)(void *)((char *)cfg + r->offset);
}

static void add_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    size_t n = strlen(err);
    if (n + 1 >= errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - n, fmt, ap);
    va_end(ap);
}

/* Sets one row from text; returns SK_EINVAL (with a message) when the value is invalid. */
static enum sk_err set_row(struct sk_config *cfg, const struct sk_config_row *r, const char *v,
                           char *err, size_t errlen)
{
    if (r->type == SK_CONFIG_STR) {
        char *s = sk_strdup(v);
        if (!s)
            return SK_ENOMEM;
        sk_free(*str_field(cfg, r));
        *str_field(cfg, r) = s;
        return SK_OK;
    }
    int64_t n;
    if (sk_parse_i64(v, r->min, r->max, &n)) {
        char range[64];
        snprintf(range, sizeof(range), "%ld..%ld", r->min, r->max);
        add_err(err, errlen, "%s: must be an integer in %s\n", r->env, range);
        return SK_EINVAL;
    }
    *int_field(cfg, r) = (long)n;
    return SK_OK;
}

static const struct sk_config_row *find_row(const char *env)
{
    for (const struct sk_config_row *r = rows; r->env; r++)
        if (strcmp(r->env, env) == 0)
            return r;
    return NULL;
}

static enum sk_err load_file(struct sk_config *cfg, const char *path, char *err, size_t errlen)
{
    char line[4096];
    enum sk_err rc = SK_OK;
    FILE *f = fopen(path, "r");

    if (!f) {
        add_err(err, errlen, "%s: cannot read the configuration file (%s)\n", path,
                strerror(errno));
        return SK_EIO;
    }
    while (fgets(line, sizeof(line), f)) {
        char *eq;
        char *end = line + strlen(line);
        const struct sk_config_row *r;
        while (end > line && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
            *--end = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        eq = strchr(line, '=');
        if (!eq) {
            add_err(err, errlen, "%s: line without '=': %s\n", path, line);
            rc = SK_EINVAL;
            continue;
        }
        *eq = '\0';
        r = find_row(line);
        if (!r) {
            add_err(err, errlen, "%s: unknown setting '%s'\n", path, line);
            rc = SK_EINVAL;
            continue;
        }
        enum sk_err e = set_row(cfg, r, eq + 1, err, errlen);
        if (e == SK_ENOMEM) {
            rc = e;
            break;
        }
        if (e)
            rc = e;
    }
    fclose(f);
    return rc;
}

/* Checks the settings that are more than a range: known words and URL schemes. */
static enum sk_err check_values(const struct sk_config *cfg, char *err, size_t errlen)
{
    enum sk_err rc = SK_OK;
    if (sk_log_level_parse(cfg->log_level) < 0) {
        add_err(err, errlen, "%s: must be debug, info, warn or error, not '%s'\n",
                "SKIRMISH_LOG_LEVEL", cfg->log_level);
        rc = SK_EINVAL;
    }
    if (strncmp(cfg->redis_url, "redis://", 8) != 0) {
        add_err(err, errlen, "%s: must start with redis://%s\n", "SKIRMISH_REDIS_URL", "");
        rc = SK_EINVAL;
    }
    if (strncmp(cfg->database_url, "postgresql://", 13) != 0 &&
        strncmp(cfg->database_url, "postgres://", 11) != 0) {
        add_err(err, errlen, "%s: must start with postgresql://%s\n", "SKIRMISH_DATABASE_URL", "");
        rc = SK_EINVAL;
    }
    if (cfg->queue_prefix[0] == '\0' || strpbrk(cfg->queue_prefix, " \t\r\n")) {
        add_err(err, errlen, "%s: must be a non-empty word%s\n", "SKIRMISH_QUEUE_PREFIX", "");
        rc = SK_EINVAL;
    }
    if (cfg->retry_max_ms < cfg->retry_base_ms) {
        add_err(err, errlen, "%s: must not be below %s\n", "SKIRMISH_RETRY_MAX_MS",
                "SKIRMISH_RETRY_BASE_MS");
        rc = SK_EINVAL;
    }
    return rc;
}

enum sk_err sk_config_load(struct sk_config *cfg, char *err, size_t errlen)
{
    enum sk_err rc = SK_OK;
    const char *file = getenv("SKIRMISH_CONFIG_FILE");

    memset(cfg, 0, sizeof(*cfg));
    if (errlen)
        err[0] = '\0';
    for (const struct sk_config_row *r = rows; r->env; r++) {
        rc = set_row(cfg, r, r->def, err, errlen);
        if (rc)
            goto out;
    }
    if (file && file[0]) {
        rc = load_file(cfg, file, err, errlen);
        if (rc == SK_ENOMEM || rc == SK_EIO)
            goto out;
    }
    for (const struct sk_config_row *r = rows; r->env; r++) {
        const char *v = getenv(r->env);
        if (!v)
            continue;
        enum sk_err e = set_row(cfg, r, v, err, errlen);
        if (e == SK_ENOMEM) {
            rc = e;
            goto out;
        }
        if (e)
            rc = e;
    }
    if (check_values(cfg, err, errlen))
        rc = SK_EINVAL;
out:
    if (rc)
        sk_config_release(cfg);
    return rc;
}

void sk_config_release(struct sk_config *cfg)
{
    if (!cfg)
        return;
    for (const struct sk_config_row *r = rows; r->env; r++) {
        if (r->type == SK_CONFIG_STR) {
            sk_free(*str_field(cfg, r));
            *str_field(cfg, r) = NULL;
        }
    }
}

const char *sk_config_mask(char *buf, size_t len, const char *s)
{
    const char *scheme = strstr(s, "://");
    const char *at;
    const char *colon;

    snprintf(buf, len, "%s", s);
    if (!scheme)
        return buf;
    at = strchr(scheme + 3, '@');
    if (!at)
        return buf;
    colon = memchr(scheme + 3, ':', (size_t)(at - (scheme + 3)));
    if (!colon)
        return buf;
    snprintf(buf, len, "%.*s****%s", (int)(colon + 1 - s), s, at);
    return buf;
}

void sk_config_log(const struct sk_config *cfg)
{
    for (const struct sk_config_row *r = rows; r->env; r++) {
        char buf[1024];
        char q[1100];
        if (r->type == SK_CONFIG_INT) {
            sk_log_info("event=config name=%s value=%ld", r->env,
                        *int_field((struct sk_config *)cfg, r));
            continue;
        }
        const char *v = *str_field((struct sk_config *)cfg, r);
        if (r->secret)
            v = sk_config_mask(buf, sizeof(buf), v);
        sk_log_info("event=config name=%s value=%s", r->env, sk_log_quote(q, sizeof(q), v));
    }
}

void sk_config_markdown(FILE *f)
{
    fprintf(f, "| variable | default | range | meaning |\n|---|---|---|---|\n");
    for (const struct sk_config_row *r = rows; r->env; r++) {
        char range[64] = "";
        if (r->type == SK_CONFIG_INT)
            snprintf(range, sizeof(range), "%ld..%ld", r->min, r->max);
        if (r->def[0])
            fprintf(f, "| `%s` | `%s` | %s | %s |\n", r->env, r->def, range, r->help);
        else
            fprintf(f, "| `%s` | (empty) | %s | %s |\n", r->env, range, r->help);
    }
}
