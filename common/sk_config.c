/* SPDX-License-Identifier: MIT */
/* The declarative configuration table and its loader (see sk_config.h). */
#include "sk_config.h"

#include <errno.h>
#include <limits.h>
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
    {"SKIRMISH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5433/skirmish",
     "PostgreSQL connection URI (libpq syntax)", 0, 0, OFF(database_url), SK_CONFIG_STR, 1},
    {"SKIRMISH_REDIS_URL", "redis://127.0.0.1:6380", "Redis URL: redis://[:password@]host:port", 0,
     0, OFF(redis_url), SK_CONFIG_STR, 1},
    {"SKIRMISH_QUEUE_PREFIX", "skirmish",
     "prefix of every Redis key (stream PREFIX:jobs, group workers)", 0, 0, OFF(queue_prefix),
     SK_CONFIG_STR, 0},
    {"SKIRMISH_HTTP_ADDR", "127.0.0.1", "IPv4 address the API listens on", 0, 0, OFF(http_addr),
     SK_CONFIG_STR, 0},
    {"SKIRMISH_HTTP_PORT", "8080", "TCP port the API listens on", 1, 65535, OFF(http_port),
     SK_CONFIG_INT, 0},
    {"SKIRMISH_HTTP_THREADS", "0",
     "API threads, each with its own PostgreSQL and Redis connection; 0 = 16 per core, at most 64",
     0, 256, OFF(http_threads), SK_CONFIG_INT, 0},
    {"SKIRMISH_MAX_BODY_BYTES", "1048576", "largest request body accepted; larger bodies get 413",
     1024, 67108864, OFF(max_body_bytes), SK_CONFIG_INT, 0},
    {"SKIRMISH_MAX_CONNECTIONS", "4096",
     "open HTTP connections per API process; more are answered 503 and closed (docs/security.md)",
     16, 1000000, OFF(max_connections), SK_CONFIG_INT, 0},
    {"SKIRMISH_MAX_CONNECTIONS_PER_ADDR", "64",
     "open HTTP connections per client IP address; more are answered 429 and closed", 1, 1000000,
     OFF(max_connections_per_addr), SK_CONFIG_INT, 0},
    {"SKIRMISH_TRUSTED_PROXIES", "",
     "reverse proxies whose X-Forwarded-For gives the client address (per-address caps, "
     "refused-key limit, logs), comma-separated IPv4/IPv6 addresses or CIDR blocks; empty = "
     "the TCP peer is the client (docs/deploy.md)",
     0, 0, OFF(trusted_proxies), SK_CONFIG_STR, 0},
    {"SKIRMISH_HEADER_TIMEOUT_S", "10",
     "seconds to send a request's header (from connect or the previous answer); then 408 and "
     "closed",
     1, 3600, OFF(header_timeout_s), SK_CONFIG_INT, 0},
    {"SKIRMISH_BODY_TIMEOUT_S", "30",
     "seconds to send a request's body after its header; then 408 and closed", 1, 3600,
     OFF(body_timeout_s), SK_CONFIG_INT, 0},
    {"SKIRMISH_MAX_HEADER_BYTES", "8192",
     "largest request line plus header fields; a longer target gets 414, longer fields 431", 1024,
     65536, OFF(max_header_bytes), SK_CONFIG_INT, 0},
    {"SKIRMISH_MAX_HEADERS", "64", "most header fields of a request; more get 431", 8, 1000,
     OFF(max_headers), SK_CONFIG_INT, 0},
    {"SKIRMISH_BODY_MEMORY_BYTES", "67108864",
     "memory all unfinished request bodies may hold together; a body past it gets 503", 1048576,
     4294967296, OFF(body_memory_bytes), SK_CONFIG_INT, 0},
    {"SKIRMISH_LIST_LIMIT_MAX", "100", "largest `limit` of GET /v1/jobs", 1, 1000,
     OFF(list_limit_max), SK_CONFIG_INT, 0},
    {"SKIRMISH_ACCESS_LOG", "1", "1 = log one line per HTTP request", 0, 1, OFF(access_log),
     SK_CONFIG_INT, 0},
    {"SKIRMISH_CACHE_ENTRIES", "16384",
     "jobs in a final state kept in the API's memory for GET; 0 = off", 0, 10000000,
     OFF(cache_entries), SK_CONFIG_INT, 0},
    {"SKIRMISH_CORS_ORIGINS", "",
     "browser origins allowed by CORS, comma-separated, exact match; empty = CORS off", 0, 0,
     OFF(cors_origins), SK_CONFIG_STR, 0},
    {"SKIRMISH_IDEMPOTENCY_TTL_S", "86400", "how long an Idempotency-Key of POST /v1/jobs is kept",
     60, 2592000, OFF(idempotency_ttl_s), SK_CONFIG_INT, 0},
    {"SKIRMISH_MAX_WAITERS", "256",
     "long polls (wait=) and event streams open at once per API process; more get 503", 1, 3000,
     OFF(max_waiters), SK_CONFIG_INT, 0},
    {"SKIRMISH_MAX_WAITERS_PER_ADDR", "32",
     "long polls and event streams open at once per client IP address; more get 429", 1, 3000,
     OFF(max_waiters_per_addr), SK_CONFIG_INT, 0},
    {"SKIRMISH_MAX_WAITERS_PER_TENANT", "64",
     "long polls and event streams open at once per tenant (admin keys included) per API "
     "process; more get 429 (no cap with keys off)",
     1, 3000, OFF(max_waiters_per_tenant), SK_CONFIG_INT, 0},
    {"SKIRMISH_INSERT_BATCH", "64",
     "most submissions written by one INSERT and commit; 0 = one per request", 0, 4096,
     OFF(insert_batch), SK_CONFIG_INT, 0},
    {"SKIRMISH_LEASE_MS", "30000", "job lease: a dead worker's job is taken over after this long",
     500, 3600000, OFF(lease_ms), SK_CONFIG_INT, 0},
    {"SKIRMISH_MAX_ATTEMPTS", "5", "attempts before a job is failed", 1, 100, OFF(max_attempts),
     SK_CONFIG_INT, 0},
    {"SKIRMISH_RETRY_BASE_MS", "1000", "first retry delay; doubles per attempt", 1, 3600000,
     OFF(retry_base_ms), SK_CONFIG_INT, 0},
    {"SKIRMISH_RETRY_MAX_MS", "60000", "largest retry delay", 1, 86400000, OFF(retry_max_ms),
     SK_CONFIG_INT, 0},
    {"SKIRMISH_CHUNK_UNITS", "10000",
     "units (games, turns) a job's first chunk asks for, and the least a later one asks "
     "for; between chunks progress is written, the lease renewed and cancels checked",
     1, 100000000, OFF(chunk_units), SK_CONFIG_INT, 0},
    {"SKIRMISH_CHUNK_MS", "250",
     "a chunk ends after about this long whatever its units (at most a quarter of the "
     "lease), and chunks of quick units grow from SKIRMISH_CHUNK_UNITS to it; 0 = chunks "
     "of SKIRMISH_CHUNK_UNITS, each ended after 1 s at most",
     0, 60000, OFF(chunk_ms), SK_CONFIG_INT, 0},
    {"SKIRMISH_SHARD_UNITS", "10000000",
     "a battle job of more games than this is split into shards of this many (at most 256 "
     "shards) that several workers run at once; 0 = never split",
     0, 1000000000, OFF(shard_units), SK_CONFIG_INT, 0},
    {"SKIRMISH_OPT_UNIT_GAMES", "16384",
     "an optimisation's games (a final evaluation, a race over many defender decks) of at "
     "least twice this many are handed out as units of about this many games that every "
     "worker computes (docs/optimize.md); 0 = its worker plays them all",
     0, 4000000, OFF(opt_unit_games), SK_CONFIG_INT, 0},
    {"SKIRMISH_BLOCK_MS", "1000", "how long a worker blocks in XREADGROUP", 10, 60000,
     OFF(block_ms), SK_CONFIG_INT, 0},
    {"SKIRMISH_RECONCILE_MS", "2000", "how often a worker runs the reaper and the reconciler", 100,
     3600000, OFF(reconcile_ms), SK_CONFIG_INT, 0},
    {"SKIRMISH_RECONCILE_AGE_MS", "5000",
     "a queued job older than this and not in the stream is re-enqueued", 0, 3600000,
     OFF(reconcile_age_ms), SK_CONFIG_INT, 0},
    {"SKIRMISH_ENGINE_THREADS", "0",
     "CPU threads per job in the engine; 0 = the host's idle cores, sized at each step", 0, 256,
     OFF(engine_threads), SK_CONFIG_INT, 0},
    {"SKIRMISH_DEVICE", "",
     "engine device: index, name substring or \"cpu\"; empty = engine default", 0, 0, OFF(device),
     SK_CONFIG_STR, 0},
    {"SKIRMISH_LOG_LEVEL", "info", "debug, info, warn or error", 0, 0, OFF(log_level),
     SK_CONFIG_STR, 0},
    {"SKIRMISH_HEARTBEAT_MS", "2000",
     "how often a worker refreshes its heartbeat (GET /v1/stats); it expires after 5 periods", 100,
     60000, OFF(heartbeat_ms), SK_CONFIG_INT, 0},
    {"SKIRMISH_WORKER_NAME", "", "consumer name of a worker; empty = host:pid", 0, 0,
     OFF(worker_name), SK_CONFIG_STR, 0},
    {"SKIRMISH_CARDS_FILE", "",
     "battle card catalog (JSON, docs/jobs.md) used instead of the built-in cards; empty = "
     "built-in",
     0, 0, OFF(cards_file), SK_CONFIG_STR, 0},
    {"SKIRMISH_CARDS_DIR", "",
     "folder of the game's own card files, or a catalog store that `skirmish cards update` "
     "keeps (docs/cards.md), used as the battle card catalog; empty = none; not together with "
     "SKIRMISH_CARDS_FILE",
     0, 0, OFF(cards_dir), SK_CONFIG_STR, 0},
    {"SKIRMISH_CARDS_URL", "https://mobile-dev.tyrantonline.com/assets/",
     "where `skirmish cards update` downloads the game's card files from (the peer simulator's "
     "address; docs/cards.md)",
     0, 0, OFF(cards_url), SK_CONFIG_STR, 0},
    {"SKIRMISH_CATALOG_CHECK_MS", "10000",
     "how often the API and each worker look whether the catalog store of SKIRMISH_CARDS_DIR "
     "has a new current catalog and load it (SIGHUP: now, from any source); 0 = only on SIGHUP",
     0, 86400000, OFF(catalog_check_ms), SK_CONFIG_INT, 0},
    {"SKIRMISH_CATALOGS_KEEP", "4",
     "card catalogs besides the current one a process keeps loaded for jobs pinned to them "
     "(about 50 MB each for the game's cards)",
     1, 64, OFF(catalogs_keep), SK_CONFIG_INT, 0},
    {"SKIRMISH_CATALOG_WAIT_S", "300",
     "a job pinned to a catalog no worker can load fails once it has waited this long for one "
     "(a worker without it leaves the job to those with it, uncounted)",
     0, 86400, OFF(catalog_wait_s), SK_CONFIG_INT, 0},
    {"SKIRMISH_SPELLS_FILE", "",
     "board spell catalog (JSON like data/spells.json) used instead of the built-in one; empty = "
     "built-in",
     0, 0, OFF(spells_file), SK_CONFIG_STR, 0},
    {"SKIRMISH_CL_CACHE", "",
     "folder for compiled OpenCL programs; empty = $XDG_CACHE_HOME/skirmish or "
     "~/.cache/skirmish",
     0, 0, OFF(cl_cache), SK_CONFIG_STR, 0},
    {"SKIRMISH_CL_WORK_GROUP", "0",
     "OpenCL work-items per group (at most the kernel's limit on the device); 0 = the "
     "backend's choice, 64 (docs/kernels.md, \"Running on a GPU\")",
     0, 1024, OFF(cl_work_group), SK_CONFIG_INT, 0},
    {"SKIRMISH_CL_GAMES_PER_LAUNCH", "0",
     "games per OpenCL kernel launch, rounded up to whole work-groups; 0 = the backend's "
     "choice, from the device's compute units",
     0, 1073741824, OFF(cl_per_launch), SK_CONFIG_INT, 0},
    {"SKIRMISH_CL_GAMES_PER_ITEM", "0",
     "games one OpenCL work-item plays one after another in a whole launch (a launch of n games "
     "has at most games-per-launch / this many work-items); 1 = one game each; 0 = the "
     "backend's choice, 8 on a GPU and 1 on other devices (docs/kernels.md, \"Several games a "
     "work-item\")",
     0, 1024, OFF(cl_per_item), SK_CONFIG_INT, 0},
    {"SKIRMISH_CL_SPECIALISE", "1",
     "1 = each job's games play on an OpenCL program built for the rules its plan can reach, "
     "built on first use and cached; 0 = on the general program, every rule in one "
     "(docs/kernels.md, \"A program per plan\")",
     0, 1, OFF(cl_specialise), SK_CONFIG_INT, 0},
    {"SKIRMISH_CONFIG_FILE", "",
     "file of NAME=value lines read before the environment (which wins); empty = none", 0, 0,
     OFF(config_file), SK_CONFIG_STR, 0},
    {"SKIRMISH_AUTH", "auto",
     "API keys: on = every route but health, OpenAPI and dashboard files needs a key; off = "
     "none (loopback only); auto = on unless SKIRMISH_HTTP_ADDR is a loopback address",
     0, 0, OFF(auth), SK_CONFIG_STR, 0},
    {"SKIRMISH_RATE_PER_S", "50",
     "requests per second per API key (token bucket in Redis, shared by every API process); 0 = "
     "no limit",
     0, 1000000, OFF(rate_per_s), SK_CONFIG_INT, 0},
    {"SKIRMISH_RATE_BURST", "200",
     "requests a key may make at once before SKIRMISH_RATE_PER_S applies", 1, 10000000,
     OFF(rate_burst), SK_CONFIG_INT, 0},
    {"SKIRMISH_AUTH_FAIL_PER_S", "5",
     "refused API keys per second per client address, per API process: past it (and "
     "SKIRMISH_AUTH_FAIL_BURST) the address's keyed requests get 429 without a key lookup",
     1, 1000000, OFF(auth_fail_per_s), SK_CONFIG_INT, 0},
    {"SKIRMISH_AUTH_FAIL_BURST", "50",
     "refused API keys a client address may send at once before SKIRMISH_AUTH_FAIL_PER_S "
     "applies",
     1, 10000000, OFF(auth_fail_burst), SK_CONFIG_INT, 0},
    {"SKIRMISH_TENANT_MAX_ACTIVE", "1000",
     "queued and running jobs per tenant; more submissions get 429 (admin keys: no limit)", 1,
     100000000, OFF(tenant_max_active), SK_CONFIG_INT, 0},
    {"SKIRMISH_TENANT_UNITS_PER_DAY", "10000000000",
     "units (games, turns) a tenant may submit in 24 hours; more get 429 (admin keys: no limit)", 1,
     LONG_MAX, OFF(tenant_games_day), SK_CONFIG_INT, 0},
    {"SKIRMISH_TENANT_MAX_JOB_UNITS", "100000000",
     "units (games, turns) of one job of a tenant; a larger job gets 422 (admin keys: no limit)", 1,
     LONG_MAX, OFF(tenant_max_units), SK_CONFIG_INT, 0},
    {"SKIRMISH_TENANT_MAX_JOB_CPU_S", "3600",
     "CPU seconds one job of a tenant may cost by the API's estimate at admission (a sample of "
     "its games on one core, docs/security.md); a costlier job gets 422 stating the estimate "
     "(admin keys: no limit)",
     1, LONG_MAX, OFF(tenant_max_job_cpu_s), SK_CONFIG_INT, 0},
    {"SKIRMISH_TENANT_CPU_S_PER_DAY", "100000",
     "CPU seconds workers may spend on a tenant's jobs per UTC day; once spent, submissions get "
     "429 until the day ends (admin keys: no limit)",
     1, LONG_MAX, OFF(tenant_cpu_s_day), SK_CONFIG_INT, 0},
    {"SKIRMISH_COST_PROBE_MS", "10",
     "CPU milliseconds the API spends playing a submitted job's first games to estimate its "
     "cost (at least one game: flexible play's can take longer)",
     1, 10000, OFF(cost_probe_ms), SK_CONFIG_INT, 0},
    {"SKIRMISH_RETENTION_S", "604800",
     "final jobs (with their results, idempotency keys and progress) are deleted this long after "
     "they finished; 0 = kept forever",
     0, 315360000, OFF(retention_s), SK_CONFIG_INT, 0},
    {"SKIRMISH_RETENTION_BATCH", "500", "jobs deleted per statement of the retention sweep", 1,
     100000, OFF(retention_batch), SK_CONFIG_INT, 0},
    {"SKIRMISH_RETENTION_EVERY_MS", "60000",
     "time between retention sweeps (one API process sweeps, under a Redis lock)", 100, 86400000,
     OFF(retention_every_ms), SK_CONFIG_INT, 0},
    {NULL, NULL, NULL, 0, 0, 0, SK_CONFIG_STR, 0},
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

__attribute__((format(printf, 3, 4))) static void add_err(char *err, size_t errlen, const char *fmt,
                                                          ...)
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
        char *s;
        /* No setting needs one, and names end up in logs and in newline-joined lists
         * (the worker of each attempt, store/db_jobs.c). */
        for (const char *c = v; *c; c++) {
            if ((unsigned char)*c < 0x20 || *c == 0x7f) {
                add_err(err, errlen, "%s: must not hold control characters\n", r->env);
                return SK_EINVAL;
            }
        }
        s = sk_strdup(v);
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
    (void)fclose(f);
    return rc;
}

/* Checks the settings that are more than a range: known words and URL schemes. */
static enum sk_err check_values(const struct sk_config *cfg, char *err, size_t errlen)
{
    enum sk_err rc = SK_OK;
    if (strcmp(cfg->auth, "auto") != 0 && strcmp(cfg->auth, "on") != 0 &&
        strcmp(cfg->auth, "off") != 0) {
        add_err(err, errlen, "%s: '%s' is not auto, on or off\n", "SKIRMISH_AUTH", cfg->auth);
        rc = SK_EINVAL;
    }
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
    if (strpbrk(cfg->cors_origins, " \t\r\n*")) {
        add_err(err, errlen, "%s: must be exact origins separated by commas (no spaces, no *)%s\n",
                "SKIRMISH_CORS_ORIGINS", "");
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

enum sk_err sk_config_export_engine(const struct sk_config *cfg)
{
    const char *names[] = {"SKIRMISH_CARDS_FILE", "SKIRMISH_CARDS_DIR", "SKIRMISH_SPELLS_FILE",
                           "SKIRMISH_CL_CACHE"};
    const char *values[] = {cfg->cards_file, cfg->cards_dir, cfg->spells_file, cfg->cl_cache};

    const char *int_names[] = {"SKIRMISH_CL_WORK_GROUP", "SKIRMISH_CL_GAMES_PER_LAUNCH",
                               "SKIRMISH_CL_GAMES_PER_ITEM", "SKIRMISH_CATALOGS_KEEP"};
    const long int_values[] = {cfg->cl_work_group, cfg->cl_per_launch, cfg->cl_per_item,
                               cfg->catalogs_keep};
    char text[32];

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!values[i] || !values[i][0] || getenv(names[i]))
            continue;
        if (setenv(names[i], values[i], 0))
            return SK_ENOMEM;
    }
    /* 0 is the engine's own default: left unset, as an empty string is above. */
    for (size_t i = 0; i < sizeof(int_names) / sizeof(int_names[0]); i++) {
        if (!int_values[i] || getenv(int_names[i]))
            continue;
        snprintf(text, sizeof(text), "%ld", int_values[i]);
        if (setenv(int_names[i], text, 0))
            return SK_ENOMEM;
    }
    /* 1 is the engine's default here: only 0 is said. */
    if (!cfg->cl_specialise && !getenv("SKIRMISH_CL_SPECIALISE") &&
        setenv("SKIRMISH_CL_SPECIALISE", "0", 0))
        return SK_ENOMEM;
    return SK_OK;
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
