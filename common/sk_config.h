/* SPDX-License-Identifier: MIT */
/* The service configuration as one declarative table (docs/style.md, rule 21): every setting has
 * an environment variable, a type, a default, a range and a one-line description. Values
 * come from an optional file named by SKIRMISH_CONFIG_FILE (`NAME=value` lines), then
 * from the environment, which wins; everything is validated at start and then frozen.
 * This module only loads, checks and prints settings; it does not act on them. */
#ifndef SK_CONFIG_H
#define SK_CONFIG_H

#include <stddef.h>
#include <stdio.h>

#include "sk_err.h"

struct sk_config {
    char *database_url; /* owned */
    char *redis_url;    /* owned */
    char *queue_prefix; /* owned; prefix of every Redis key */
    char *http_addr;    /* owned */
    long http_port;
    long http_threads; /* 0 = one per core */
    long max_body_bytes;
    long max_connections;          /* HTTP connections per API process (docs/security.md) */
    long max_connections_per_addr; /* per client IPv4 address */
    char *trusted_proxies;         /* owned; api_proxy.h list; "" = X-Forwarded-For never read */
    long header_timeout_s;         /* a request's header, from connect or the previous answer */
    long body_timeout_s;           /* a request's body, from the end of its header */
    long max_header_bytes;         /* request line + header fields */
    long max_headers;              /* header fields per request */
    long body_memory_bytes;        /* unfinished request bodies, all connections together */
    long list_limit_max;
    long access_log;    /* 0/1 */
    long cache_entries; /* final-job cache slots in the API; 0 = off */
    char *cors_origins; /* owned; comma-separated exact origins; "" = CORS off */
    long idempotency_ttl_s;
    long max_waiters;            /* long polls + event streams per API process */
    long max_waiters_per_addr;   /* the same per client IPv4 address */
    long max_waiters_per_tenant; /* the same per tenant (of the caller's key) */
    long insert_batch;           /* most jobs per INSERT (group commit); 0 = one per request */
    long lease_ms;
    long max_attempts;
    long retry_base_ms;
    long retry_max_ms;
    long chunk_units;
    long chunk_ms;
    long shard_units;    /* jobs of more units are split into shards; 0 = never */
    long opt_unit_games; /* an optimisation's work of two units or more is spread; 0 = never */
    long block_ms;
    long reconcile_ms;
    long reconcile_age_ms;
    long engine_threads;
    char *device;    /* owned; "" = engine default */
    char *log_level; /* owned */
    long heartbeat_ms;
    char *worker_name; /* owned; "" = host:pid */
    char *cards_file;  /* owned; "" = built-in cards; read by the engine from the environment */
    char *cards_dir;   /* owned; "" = none; the game's card files, read by the engine likewise */
    char *cards_url;   /* owned; where `skirmish cards update` downloads the game's files */
    long catalog_check_ms; /* how often a new current card catalog is looked for; 0 = SIGHUP */
    long catalogs_keep;    /* card catalogs kept loaded besides the current; read by the engine */
    long catalog_wait_s;   /* a job whose catalog no worker has fails after this long */
    char *spells_file;     /* owned; "" = built-in spells; read by the engine likewise */
    char *cl_cache;        /* owned; "" = engine default folder; read by the engine likewise */
    long cl_work_group;    /* 0 = the OpenCL backend's choice; read by the engine likewise */
    long cl_per_launch;    /* 0 = the OpenCL backend's choice; read by the engine likewise */
    long cl_per_item;      /* 0 = the OpenCL backend's choice; read by the engine likewise */
    long cl_specialise;    /* 1 = a program per plan, 0 = the general one; read likewise */
    char *config_file;     /* owned; the file this configuration was read from, "" = none */
    /* keys, quotas and retention (docs/security.md) */
    char *auth;                /* owned; "auto", "on" or "off" */
    long rate_per_s;           /* requests per second per key (token bucket refill); 0 = off */
    long rate_burst;           /* token bucket size per key */
    long auth_fail_per_s;      /* refused keys per second per client address (api_authfail) */
    long auth_fail_burst;      /* refused keys an address may send at once */
    long tenant_max_active;    /* queued + running jobs per tenant */
    long tenant_games_day;     /* units (games, turns) submitted per tenant per 24 h */
    long tenant_max_units;     /* units of one job of a tenant */
    long tenant_max_job_cpu_s; /* estimated CPU seconds of one job of a tenant */
    long tenant_cpu_s_day;     /* CPU seconds charged to a tenant per UTC day */
    long cost_probe_ms;        /* CPU time the API spends estimating a job's cost */
    long retention_s;          /* final jobs older than this are deleted; 0 = kept */
    long retention_batch;      /* rows per DELETE of the retention sweep */
    long retention_every_ms;   /* time between retention sweeps */
};

/* One row of the table; exposed so the README table can be generated and checked. */
enum sk_config_type { SK_CONFIG_STR, SK_CONFIG_INT };
struct sk_config_row {
    const char *env;  /* environment variable name */
    const char *def;  /* default, as text */
    const char *help; /* one line */
    long min, max;    /* range for integers */
    size_t offset;    /* into struct sk_config */
    enum sk_config_type type;
    int secret; /* 1: password parts are masked when printed */
};

/** The table, terminated by a row with env == NULL (static storage). */
const struct sk_config_row *sk_config_rows(void);

/**
 * Loads the configuration: defaults, then the file named by SKIRMISH_CONFIG_FILE if set,
 * then the environment. Every invalid value is reported in `err` (one message per line,
 * up to `errlen` bytes) and the result is SK_EINVAL; SK_EIO if the file cannot be read;
 * SK_ENOMEM. On SK_OK `cfg` is filled (release with sk_config_release).
 */
enum sk_err sk_config_load(struct sk_config *cfg, char *err, size_t errlen);

/**
 * The engine reads SKIRMISH_CARDS_FILE, SKIRMISH_CARDS_DIR, SKIRMISH_SPELLS_FILE and
 * SKIRMISH_CL_CACHE from the environment itself (it knows nothing of this table); this copies those
 * that came from SKIRMISH_CONFIG_FILE into the environment so the file works for them too. Call it
 * at start, before any thread exists (setenv is not thread-safe). Returns SK_ENOMEM or SK_OK.
 */
enum sk_err sk_config_export_engine(const struct sk_config *cfg);

/** Frees the strings of `cfg`; NULL-safe. */
void sk_config_release(struct sk_config *cfg);

/**
 * Writes `s` with the password of a URL (`scheme://user:PASSWORD@host`) replaced by
 * "****" into `buf` (size `len`). Returns `buf`.
 */
const char *sk_config_mask(char *buf, size_t len, const char *s);

/** Logs every setting, one line each, with secrets masked (event=config). */
void sk_config_log(const struct sk_config *cfg);

/** Writes the configuration table as Markdown rows (for the README) to `f`. */
void sk_config_markdown(FILE *f);

#endif
