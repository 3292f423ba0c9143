/* SPDX-License-Identifier: MIT */
/* skirmish-api: loads and prints the configuration, applies the migrations under their
 * advisory lock, then serves HTTP until SIGINT or SIGTERM.
 *   skirmish-api            serve
 *   skirmish-api migrate    apply the migrations and exit
 *   skirmish-api config     print the configuration table (Markdown) and exit
 *   skirmish-api routes     print the route table ("METHOD PATH" lines) and exit
 *   skirmish-api keys ...   make, list or revoke API keys (api_keys.h) and exit
 *   skirmish-api --help     print the usage and exit */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "api_auth.h"
#include "api_authfail.h"
#include "api_cache.h"
#include "api_keys.h"
#include "api_metrics.h"
#include "api_pool.h"
#include "api_proxy.h"
#include "api_retention.h"
#include "api_router.h"
#include "api_server.h"
#include "api_watch.h"
#include "db.h"
#include "db_keys.h"
#include "db_migrate.h"
#include "engine.h"
#include "job.h"
#include "sk_config.h"
#include "sk_log.h"
#include "sk_mem.h"

#include "sk_banned.h"

static void usage(FILE *f)
{
    (void)fputs("usage: skirmish-api [migrate|config|routes|keys ...|--version|--help]\n"
                "\n"
                "Without a command: applies the migrations, then serves the HTTP API (and the\n"
                "dashboard at /) until SIGINT or SIGTERM, then exits 0.\n"
                "\n"
                "  migrate   apply the database migrations and exit\n"
                "  config    print the configuration table (Markdown): every SKIRMISH_*\n"
                "            variable, its default, range and meaning\n"
                "  routes    print the route table, one \"METHOD PATH\" line per route\n"
                "  keys create --tenant NAME [--admin] [--name TEXT]\n"
                "            make an API key and print it (shown only then)\n"
                "  keys list          list the keys (never their secrets)\n"
                "  keys revoke ID     revoke a key at once\n"
                "  --version print the version and exit\n"
                "  --help    print this help and exit\n"
                "\n"
                "Settings come from the environment, or from the file named by\n"
                "SKIRMISH_CONFIG_FILE (NAME=value lines; the environment wins).\n",
                f);
}

/* The engine jobs are estimated on (opened without a device: the CPU backend) and the CPU
 * time an estimate may take; set once before the server starts. */
static struct engine *cost_engine;
static long cost_probe_ms;

/* The job's CPU cost by a sample of its first units (job_cost_estimate), or -1 when the
 * sample failed (logged: the job is admitted on its units, and charged what it spends). */
static void estimate(const struct job *job, struct api_job_info *info)
{
    struct job_cost cost;
    char err[256] = "";

    info->cost_ms = -1;
    if (!cost_engine)
        return;
    if (job_cost_estimate(cost_engine, job, cost_probe_ms, &cost, err, sizeof(err))) {
        char q[300];
        sk_log_warn("event=cost_estimate_failed kind=%s err=%s", job_kind(job),
                    sk_log_quote(q, sizeof(q), err));
        return;
    }
    info->cost_ms = (long long)(cost.cpu_s * 1000.0 + 0.5);
    info->cost_sampled = cost.sampled;
}

/* The engine's codec is the validator: what it accepts is exactly what workers can run. */
static enum sk_err validate(const json_t *doc, struct api_job_info *info, struct sk_verr_list *errs)
{
    struct job *job = NULL;
    enum sk_err err = job_decode(doc, &job, errs);
    /* a catalog the client named that this API does not have is the client's to fix: the
     * message at /catalog names the one it has */
    if (err == SK_ENOTFOUND)
        return SK_EINVAL;
    if (err)
        return err;
    info->kind = job_kind(job);
    info->seed = job_seed(job);
    info->total = job_total(job);
    snprintf(info->catalog, sizeof(info->catalog), "%s", job_catalog(job) ? job_catalog(job) : "");
    estimate(job, info);
    job_free(job);
    return SK_OK;
}

static int kind_known(const char *kind)
{
    return job_kind_known(kind);
}

/* openapi/openapi.json, compiled in (api/CMakeLists.txt). */
extern const char api_openapi_json[];

/* The loader of the engine's catalog `name`, or NULL (the route then answers 500). */
static api_catalog_fn *catalog(const char *name)
{
    const struct job_catalog *cat = job_catalog_named(name);
    return cat ? cat->load : NULL;
}

/* Applies the migrations, waiting for PostgreSQL for up to a minute (it may still be
 * starting). Returns 0 on success. */
static int migrate(const struct sk_config *cfg)
{
    struct db *db = NULL;
    char err[512];
    int applied = 0;
    enum sk_err rc = db_new(cfg->database_url, &db);

    for (int i = 0; !rc && i < 60; i++) {
        rc = db_migrate_apply(db, db_migrate_all, db_migrate_count, &applied, err, sizeof(err));
        if (rc != SK_EUNAVAIL)
            break;
        char q[600];
        sk_log_warn("event=migrate_wait err=%s", sk_log_quote(q, sizeof(q), err));
        sleep(1);
    }
    if (rc) {
        char q[600];
        sk_log_error("event=migrate_failed err=%s", sk_log_quote(q, sizeof(q), err));
    } else {
        sk_log_info("event=migrated applied=%d known=%zu", applied, db_migrate_count);
    }
    db_free(db);
    return rc ? -1 : 0;
}

/* Refuses to serve a non-loopback address without keys: with SKIRMISH_AUTH off, or with
 * keys required and none made yet (nobody could use the service but everyone could reach
 * it). Returns 0 when serving may go on. */
static int check_auth(const struct sk_config *cfg)
{
    struct db *db = NULL;
    long long active = 0;
    int loopback = api_auth_loopback(cfg->http_addr);
    enum sk_err err;

    if (!api_auth_required(cfg)) {
        if (!loopback) {
            sk_log_error("event=start_failed reason=auth_off addr=%s hint=%s", cfg->http_addr,
                         "\"SKIRMISH_AUTH=off is for loopback addresses only; make a key with "
                         "skirmish-api keys create and set SKIRMISH_AUTH=on\"");
            return -1;
        }
        sk_log_warn("event=auth_off addr=%s hint=%s", cfg->http_addr,
                    "\"every caller is an admin: keep this address private (docs/security.md)\"");
        return 0;
    }
    err = db_new(cfg->database_url, &db);
    if (!err)
        err = db_keys_active(db, &active);
    db_free(db);
    if (err) {
        sk_log_error("event=start_failed reason=keys err=%s", sk_err_str(err));
        return -1;
    }
    if (active == 0 && !loopback) {
        sk_log_error("event=start_failed reason=no_keys addr=%s hint=%s", cfg->http_addr,
                     "\"make a key first: skirmish-api keys create --tenant NAME --admin\"");
        return -1;
    }
    sk_log_info("event=auth_on active_keys=%lld", active);
    return 0;
}

/* What serving needs besides the server itself, made and freed together. */
struct parts {
    struct api_pool *pool;
    struct api_cache *cache;
    struct api_watch *watch;
    struct api_metrics *metrics;
    struct api_batch *batch;
    struct api_retention *retention;
    struct api_authfail *authfail;
};

/* Makes the parts (store connections for `threads` HTTP threads, cache, insert batch,
 * waiter registry, metrics) and fills `ctx` with them. Returns 0, or -1 after logging which
 * part failed (free_parts frees what was made). */
static int make_parts(const struct sk_config *cfg, size_t threads, struct parts *p,
                      struct api_ctx *ctx)
{
    struct api_watch_opts wopts;

    memset(ctx, 0, sizeof(*ctx));
    ctx->cfg = cfg;
    ctx->validate = validate;
    ctx->kind_known = kind_known;
    ctx->cards = catalog("cards");
    ctx->spells = catalog("spells");
    ctx->missions = catalog("missions");
    ctx->decks = catalog("decks");
    ctx->openapi = api_openapi_json;
    ctx->auth = api_auth_required(cfg);
    if (api_pool_new(threads > 0 ? threads : 1, cfg->database_url, cfg->redis_url,
                     cfg->queue_prefix, &p->pool)) {
        sk_log_error("event=start_failed reason=pool");
        return -1;
    }
    if (cfg->cache_entries && api_cache_new((size_t)cfg->cache_entries, &p->cache)) {
        sk_log_error("event=start_failed reason=cache");
        return -1;
    }
    if (cfg->insert_batch &&
        api_batch_new(cfg->database_url, (size_t)cfg->insert_batch, &p->batch)) {
        sk_log_error("event=start_failed reason=batch");
        return -1;
    }
    /* keys off: nothing to revoke, so no key checker (and its connection) */
    wopts.max = (size_t)cfg->max_waiters;
    wopts.max_per_tenant = (size_t)cfg->max_waiters_per_tenant;
    wopts.redis_url = cfg->redis_url;
    wopts.prefix = cfg->queue_prefix;
    wopts.database_url = ctx->auth ? cfg->database_url : NULL;
    if (api_watch_new(&wopts, &p->watch) || api_metrics_new(&p->metrics)) {
        sk_log_error("event=start_failed reason=watch");
        return -1;
    }
    api_watch_set_cache(p->watch, p->cache);
    if (api_authfail_new(cfg->auth_fail_per_s, cfg->auth_fail_burst, &p->authfail)) {
        sk_log_error("event=start_failed reason=authfail");
        return -1;
    }
    if (api_retention_start(cfg, &p->retention)) {
        sk_log_error("event=start_failed reason=retention");
        return -1;
    }
    ctx->pool = p->pool;
    ctx->cache = p->cache;
    ctx->batch = p->batch;
    ctx->watch = p->watch;
    ctx->metrics = p->metrics;
    ctx->authfail = p->authfail;
    return 0;
}

static void free_parts(struct parts *p)
{
    api_retention_stop(p->retention);
    api_watch_free(p->watch);
    api_metrics_free(p->metrics);
    api_batch_free(p->batch);
    api_pool_free(p->pool);
    api_cache_free(p->cache);
    api_authfail_free(p->authfail);
}

/* The commands that need no configuration: 0 when `argv` named one and it ran, -1 if not. */
static int info_command(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "config") == 0) {
        sk_config_markdown(stdout);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "routes") == 0) {
        for (const struct api_route *r = api_router_routes(); r->method; r++)
            printf("%s %s\n", r->method, r->path);
        return 0;
    }
    return -1;
}

/* A submission blocks its thread until its batch commits, so the thread count bounds the
 * batch size: 16 per core measured best on 2 cores (bench/history/2026-11-21.md). */
static long http_threads(const struct sk_config *cfg)
{
    long threads = cfg->http_threads ? cfg->http_threads : 16 * sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1)
        threads = 16;
    if (!cfg->http_threads && threads > 64)
        threads = 64; /* each thread holds a PostgreSQL connection */
    return threads;
}

/* The commands that stop before the configuration is read: --help, a bad usage (2),
 * config and routes. Returns the exit status, or -1 when main goes on. */
static int check_usage(int argc, char **argv)
{
    int keys = argc > 1 && strcmp(argv[1], "keys") == 0;
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("skirmish-api %s\n", SK_VERSION);
        return 0;
    }
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
                     strcmp(argv[1], "help") == 0)) {
        usage(stdout);
        return 0;
    }
    if ((argc > 2 && !keys) ||
        (argc > 1 && !keys && strcmp(argv[1], "config") != 0 && strcmp(argv[1], "routes") != 0 &&
         strcmp(argv[1], "migrate") != 0)) {
        usage(stderr);
        return 2;
    }
    return info_command(argc, argv) == 0 ? 0 : -1;
}

/* The commands that need the configuration and stop: migrate, keys. Returns the exit
 * status, or -1 when main goes on to serve. */
static int config_command(const struct sk_config *cfg, int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "migrate") == 0)
        return migrate(cfg) ? 1 : 0;
    if (argc > 1 && strcmp(argv[1], "keys") == 0)
        return api_keys_command(cfg, argc - 2, argv + 2);
    return -1;
}

/* Picks up a new current card catalog (job_catalogs_refresh); the requests being served
 * keep the one they hold. */
static void refresh_catalogs(int force)
{
    char err[1024], q[1100];
    int rc = job_catalogs_refresh(force, err, sizeof(err));
    json_t *all = rc > 0 ? job_catalogs() : NULL;

    if (rc > 0)
        sk_log_info("event=catalog_changed catalog=%s", json_string_value(json_array_get(all, 0)));
    else if (rc < 0)
        sk_log_error("event=catalog_refresh_failed err=%s", sk_log_quote(q, sizeof(q), err));
    json_decref(all);
}

/* The main thread's work while the server runs: waits for SIGINT or SIGTERM (returned),
 * reloading the card catalog on SIGHUP and looking for a new one every `check_ms` (0 =
 * only on SIGHUP). */
static int wait_for_stop(const sigset_t *set, long check_ms)
{
    for (;;) {
        struct timespec ts = {check_ms / 1000, (check_ms % 1000) * 1000000L};
        int sig = check_ms > 0 ? sigtimedwait(set, NULL, &ts) : sigwaitinfo(set, NULL);
        if (sig == SIGHUP)
            refresh_catalogs(1);
        else if (sig < 0 && errno == EAGAIN)
            refresh_catalogs(0);
        else if (sig > 0)
            return sig;
    }
}

/* A list of trusted proxies that does not parse stops the API here, with the entry named:
 * read wrongly, it would trust no proxy (every client one address) or the wrong peers
 * (forged addresses). Returns 0 when it parses. */
static int check_proxies(const struct sk_config *cfg)
{
    struct api_proxy *px = NULL;
    char perr[200];
    enum sk_err e = api_proxy_new(cfg->trusted_proxies, &px, perr, sizeof(perr));

    api_proxy_free(px);
    if (e) {
        char q[500];
        sk_log_error("event=start_failed reason=config setting=SKIRMISH_TRUSTED_PROXIES err=%s",
                     sk_log_quote(q, sizeof(q), e == SK_ENOMEM ? "out of memory" : perr));
        return -1;
    }
    return 0;
}

/* The API runs no job whole, but it validates them against the catalogs and plays a sample
 * of each to estimate its cost: a cards or spells file that does not load stops it here
 * rather than failing every submission. Returns 0 with *eng open (and the cost estimates
 * set to use it). */
static int open_engine(const struct sk_config *cfg, struct engine **eng)
{
    struct engine_opts eo = {.no_device = 1};
    char err[2048];

    if (engine_new(&eo, eng, err, sizeof(err))) {
        char q[2100];
        sk_log_error("event=start_failed reason=engine err=%s", sk_log_quote(q, sizeof(q), err));
        return -1;
    }
    cost_engine = *eng;
    cost_probe_ms = cfg->cost_probe_ms;
    return 0;
}

int main(int argc, char **argv)
{
    struct sk_config cfg;
    char err[2048];
    struct parts parts = {0};
    struct api_server *srv = NULL;
    struct engine *eng = NULL;
    struct api_ctx ctx;
    sigset_t set;
    int sig = 0;
    int status = 1;
    long threads;

    sk_mem_init_json();
    sk_log_set_prog("api");
    status = check_usage(argc, argv);
    if (status >= 0)
        return status;
    status = 1;
    int keys = argc > 1 && strcmp(argv[1], "keys") == 0;
    if (sk_config_load(&cfg, err, sizeof(err))) {
        fprintf(stderr, "skirmish-api: invalid configuration:\n%s", err);
        return 2;
    }
    if (sk_config_export_engine(&cfg)) {
        fprintf(stderr, "skirmish-api: out of memory\n");
        sk_config_release(&cfg);
        return 1;
    }
    sk_log_set_level((enum sk_log_level)sk_log_level_parse(cfg.log_level));
    {
        int done = config_command(&cfg, argc, argv);
        if (done >= 0) {
            status = done;
            goto out;
        }
    }
    sk_log_info("event=starting version=%s", SK_VERSION);
    sk_config_log(&cfg);
    if (check_proxies(&cfg) || open_engine(&cfg, &eng))
        goto out;
    if (migrate(&cfg))
        goto out;
    if (check_auth(&cfg))
        goto out;

    /* Block the stop signals in every thread; the main thread waits for them below. */
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    (void)signal(SIGPIPE, SIG_IGN);
    /* Request bodies of 128 KiB and more get their own mappings, given back to the system
     * when freed: with glibc's sliding threshold, a burst of 1 MiB bodies left most of
     * their memory in the heap after the connections closed. */
    (void)mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    /* SKIRMISH_MAX_CONNECTIONS needs as many descriptors: the soft limit is raised to the
     * hard one (often 1024 against 4096 or more) */
    {
        struct rlimit rl;
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
            rl.rlim_cur = rl.rlim_max;
            (void)setrlimit(RLIMIT_NOFILE, &rl);
        }
    }

    threads = http_threads(&cfg);
    cfg.http_threads = threads;
    if (make_parts(&cfg, (size_t)threads, &parts, &ctx))
        goto out;
    if (api_server_new(&ctx, &srv)) {
        sk_log_error("event=start_failed reason=listen addr=%s port=%ld", cfg.http_addr,
                     cfg.http_port);
        goto out;
    }
    sk_log_info("event=listening addr=%s port=%ld threads=%ld", cfg.http_addr, cfg.http_port,
                threads);
    sig = wait_for_stop(&set, cfg.catalog_check_ms);
    sk_log_info("event=stopping signal=%d", sig);
    status = 0;
out:
    api_server_free(srv);
    free_parts(&parts);
    cost_engine = NULL;
    engine_free(eng);
    sk_config_release(&cfg);
    if (status == 0 && !keys)
        sk_log_info("event=stopped");
    return status;
}
