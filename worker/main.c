/* SPDX-License-Identifier: MIT */
/* skirmish-worker: one consumer of the job stream. Loads and prints the configuration,
 * then runs worker_loop until SIGTERM or SIGINT, after which it takes no new job, gives
 * the current one back after its chunk, and exits 0 (SIGHUP: read the card catalog again
 * before the next job). Run one per core.
 *   skirmish-worker           run
 *   skirmish-worker --help    print the usage and exit
 *   skirmish-worker --version print the version and exit */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "engine.h"
#include "queue.h"
#include "sk_config.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "worker_beat.h"
#include "worker_loop.h"

#include "sk_banned.h"

static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t reload_flag;

static void on_signal(int sig)
{
    if (sig == SIGHUP)
        reload_flag = 1;
    else
        stop_flag = 1;
}

static void usage(FILE *f)
{
    (void)fputs("usage: skirmish-worker [--version|--help]\n"
                "\n"
                "Consumes jobs from the Redis stream and runs them (OpenCL device, else CPU),\n"
                "writing progress and results to PostgreSQL, until SIGINT or SIGTERM: then it\n"
                "takes no new job, gives the current one back after its chunk and exits 0.\n"
                "Run one per core, on any number of hosts sharing PostgreSQL and Redis.\n"
                "\n"
                "Settings come from the environment, or from the file named by\n"
                "SKIRMISH_CONFIG_FILE (NAME=value lines; the environment wins);\n"
                "`skirmish-api config` prints the table of every SKIRMISH_* variable.\n",
                f);
}

int main(int argc, char **argv)
{
    struct sk_config cfg;
    char err[2048];
    struct sigaction sa;
    struct db *db = NULL;
    struct queue *queue = NULL;
    struct engine *eng = NULL;
    struct engine_opts eo;
    struct worker w;
    int status = 1;

    sk_mem_init_json();
    sk_log_set_prog("worker");
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("skirmish-worker %s\n", SK_VERSION);
        return 0;
    }
    if (argc > 1) {
        int help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0;
        usage(help ? stdout : stderr);
        return help ? 0 : 2;
    }
    if (sk_config_load(&cfg, err, sizeof(err))) {
        fprintf(stderr, "skirmish-worker: invalid configuration:\n%s", err);
        return 2;
    }
    if (sk_config_export_engine(&cfg)) {
        fprintf(stderr, "skirmish-worker: out of memory\n");
        sk_config_release(&cfg);
        return 1;
    }
    sk_log_set_level((enum sk_log_level)sk_log_level_parse(cfg.log_level));
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal; /* no SA_RESTART: a stop cuts sleeps short */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    /* SIGHUP reloads the card catalog between jobs: it must not cut a blocking read short
     * (that would read as a Redis outage), so calls restart */
    sa.sa_flags = SA_RESTART;
    sigaction(SIGHUP, &sa, NULL);
    (void)signal(SIGPIPE, SIG_IGN);

    memset(&w, 0, sizeof(w));
    if (cfg.worker_name[0]) {
        snprintf(w.name, sizeof(w.name), "%s", cfg.worker_name);
    } else {
        char host[64] = "host";
        gethostname(host, sizeof(host) - 1);
        snprintf(w.name, sizeof(w.name), "%s:%d", host, (int)getpid());
    }
    sk_log_info("event=starting name=%s version=%s", w.name, SK_VERSION);
    sk_config_log(&cfg);
    /* Catalogs and the device are checked once, here: a worker that cannot run jobs
     * refuses to start and says why, instead of taking jobs and failing each of them. */
    memset(&eo, 0, sizeof(eo));
    eo.device = cfg.device;
    /* A GPU driver's first build of the program takes minutes: jobs play on the CPU
     * threads meanwhile, and on the device from the step after it is ready. */
    eo.device_async = 1;
    if (engine_new(&eo, &eng, err, sizeof(err))) {
        char q[2200];
        sk_log_error("event=start_failed reason=engine err=%s", sk_log_quote(q, sizeof(q), err));
        fprintf(stderr, "skirmish-worker: cannot set up the engine: %s\n", err);
        goto out;
    }
    if (db_new(cfg.database_url, &db) || queue_new(cfg.redis_url, cfg.queue_prefix, &queue)) {
        sk_log_error("event=start_failed reason=store_handles");
        goto out;
    }
    w.cfg = &cfg;
    w.io = &worker_io_stores;
    w.db = db;
    w.queue = queue;
    w.stop = &stop_flag;
    w.reload = &reload_flag;
    w.engine = eng;
    worker_beat_init(&w);
    worker_loop_run(&w);
    sk_log_info("event=stopped name=%s", w.name);
    status = 0;
out:
    queue_free(queue);
    db_free(db);
    engine_free(eng);
    sk_config_release(&cfg);
    return status;
}
