/* SPDX-License-Identifier: MIT */
/* The `skirmish` command line: runs a job document in-process (no servers) through job.h
 * and prints the result. Commands are rows of one dispatch table; adding one (such as
 * `devices`) is adding a function and a row. It never talks to the API, Redis or SQL. */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "battle.h"
#include "cli_cards.h"
#include "engine.h"
#include "job.h"
#include "sk_config.h"
#include "sk_json.h"
#include "sk_mem.h"
#include "sk_parse.h"
#include "sk_time.h"

#include "sk_banned.h"

/* Exit statuses: 2 is the caller's fault (usage, invalid document), 1 is ours or the
 * system's (unreadable file, failed run). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

struct command {
    const char *name;
    const char *args;                 /* synopsis after the name */
    const char *summary;              /* one line for the usage text */
    int (*fn)(int argc, char **argv); /* argv[0] is the command name */
};

static int cmd_run(int argc, char **argv);
static int cmd_version(int argc, char **argv);
static int cmd_devices(int argc, char **argv);
static int cmd_prebuild(int argc, char **argv);
static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
    {"run", "[--games N] [--seed S] [--threads T] [--device D] [--summary] [--cost] FILE",
     "run the job document FILE (- for stdin) and print its result", cmd_run},
    {"cards", "update [--base-url URL] [--dir DIR] [--offline] [--timeout S] | status [--dir DIR]",
     "download or refresh the game's card files in a catalog store; show what it serves",
     cli_cards_main},
    {"devices", "[--check]",
     "list the OpenCL devices; --check runs each one's random streams against the host",
     cmd_devices},
    {"prebuild", "[--device D] FILE...",
     "build the OpenCL programs the job documents' games play on into the program cache "
     "($SKIRMISH_CL_CACHE), so that GPU workers load them instead of building them",
     cmd_prebuild},
    {"version", "", "print the version", cmd_version},
    {"help", "[COMMAND]", "print this help, or one command's", cmd_help},
};

/* The run command's options and the exit statuses (in both usage texts). */
static void run_options(FILE *f)
{
    fprintf(f,
            "\nrun options:\n"
            "  --games N    override params.games (battle jobs)\n"
            "  --seed S     override the job's seed (0..%llu)\n"
            "  --threads T  CPU backend threads, 0 = the idle cores (default 0); the OpenCL\n"
            "               backend ignores it and says so\n"
            "  --device D   OpenCL device: index, name substring, or cpu for the CPU backend\n"
            "               (default: $SKIRMISH_DEVICE, else the first GPU, else the CPU\n"
            "               backend)\n"
            "  --summary    print one line of win/stall/loss rates (battle jobs)\n"
            "  --cost       add \"cost\" to the result: the API's CPU estimate of the job (a\n"
            "               sample of its games on one core, $SKIRMISH_COST_PROBE_MS of CPU)\n"
            "               and the CPU seconds this run took (docs/security.md)\n"
            "  --help       print this help\n"
            "\nexit status: 0 success, 1 run or I/O failure, 2 usage error or invalid "
            "document (each problem printed as 'pointer: message')\n",
            (unsigned long long)JOB_SEED_MAX);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: skirmish COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(f, "  %s %s\n      %s\n", commands[i].name, commands[i].args, commands[i].summary);
    fprintf(f,
            "\n`skirmish help COMMAND` or `skirmish COMMAND --help` prints that command's help\n");
    run_options(f);
}

/* The usage text of one command (`skirmish help run`, `skirmish run --help`). */
static void command_usage(FILE *f, const struct command *c)
{
    fprintf(f, "usage: skirmish %s %s\n  %s\n", c->name, c->args, c->summary);
    if (c->fn == cmd_run)
        run_options(f);
    if (c->fn == cli_cards_main)
        cli_cards_usage(f);
}

static const struct command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* 1 when argv (after the command name) asks for help before a `--`. */
static int asks_help(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

static int cmd_help(int argc, char **argv)
{
    const struct command *c;
    if (argc < 2) {
        usage(stdout);
        return EXIT_OK;
    }
    c = find_command(argv[1]);
    if (!c) {
        fprintf(stderr, "skirmish help: no command '%s'\n", argv[1]);
        usage(stderr);
        return EXIT_USAGE;
    }
    if (argc > 2) {
        fprintf(stderr, "skirmish help: one command at a time, not '%s'\n", argv[2]);
        return EXIT_USAGE;
    }
    command_usage(stdout, c);
    return EXIT_OK;
}

static int cmd_version(int argc, char **argv)
{
    printf("skirmish %s\n", SK_VERSION);
    return EXIT_OK;
}

/* ===== run ===== */

struct run_args {
    const char *file;
    int has_games, has_seed, summary, cost;
    uint64_t games, seed;
    int threads;
    const char *device;
};

/* Reads the value of option `name` (either "--name=V" in arg or the next argument). */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (*i + 1 < argc)
        return argv[++*i];
    fprintf(stderr, "skirmish run: %s needs a value\n", name);
    return NULL;
}

/* True when argv[i] is option `name` alone or as "name=value". */
static int is_opt(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

static int parse_run_args(int argc, char **argv, struct run_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *v;
        uint64_t u;
        if (is_opt(arg, "--games")) {
            v = opt_value(argc, argv, &i, "--games");
            if (!v)
                return -1;
            if (sk_parse_u64(v, 1, 1000000000ULL, &a->games)) {
                fprintf(stderr, "skirmish run: --games must be 1..1000000000, not '%s'\n", v);
                return -1;
            }
            a->has_games = 1;
        } else if (is_opt(arg, "--seed")) {
            v = opt_value(argc, argv, &i, "--seed");
            if (!v)
                return -1;
            if (sk_parse_u64(v, 0, JOB_SEED_MAX, &a->seed)) {
                fprintf(stderr, "skirmish run: --seed must be 0..%llu, not '%s'\n",
                        (unsigned long long)JOB_SEED_MAX, v);
                return -1;
            }
            a->has_seed = 1;
        } else if (is_opt(arg, "--threads")) {
            v = opt_value(argc, argv, &i, "--threads");
            if (!v)
                return -1;
            if (sk_parse_u64(v, 0, 1024, &u)) {
                fprintf(stderr, "skirmish run: --threads must be 0..1024, not '%s'\n", v);
                return -1;
            }
            a->threads = (int)u;
        } else if (is_opt(arg, "--device")) {
            v = opt_value(argc, argv, &i, "--device");
            if (!v)
                return -1;
            if (!*v) {
                fprintf(stderr, "skirmish run: --device must not be empty\n");
                return -1;
            }
            a->device = v;
        } else if (strcmp(arg, "--summary") == 0) {
            a->summary = 1;
        } else if (strcmp(arg, "--cost") == 0) {
            a->cost = 1;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "skirmish run: unknown option '%s'\n", arg);
            return -1;
        } else if (a->file) {
            fprintf(stderr, "skirmish run: only one FILE may be given\n");
            return -1;
        } else {
            a->file = arg;
        }
    }
    if (!a->file) {
        fprintf(stderr, "skirmish run: FILE is required (- for stdin)\n");
        return -1;
    }
    return 0;
}

/* Applies --games and --seed to the document; returns 0, or EXIT_USAGE after a message. */
static int apply_overrides(json_t *doc, const struct run_args *a)
{
    if (a->has_seed && json_is_object(doc) &&
        json_object_set_new(doc, "seed", json_integer((json_int_t)a->seed)))
        return EXIT_FAIL;
    if (a->has_games) {
        const json_t *kind = json_is_object(doc) ? json_object_get(doc, "kind") : NULL;
        json_t *params = json_is_object(doc) ? json_object_get(doc, "params") : NULL;
        const char *member =
            json_is_string(kind) ? job_kind_games_param(json_string_value(kind)) : NULL;
        if (!member) {
            char names[256] = "";
            size_t len = 0;
            for (size_t k = 0; k < job_kind_count() && len < sizeof(names); k++)
                if (job_kind_games_param(job_kind_at(k)))
                    len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
                                            len ? ", " : "", job_kind_at(k));
            fprintf(stderr, "skirmish run: --games applies to %s jobs only\n", names);
            return EXIT_USAGE;
        }
        /* A missing or malformed "params" is left for job_decode to report. */
        if (json_is_object(params) &&
            json_object_set_new(params, member, json_integer((json_int_t)a->games)))
            return EXIT_FAIL;
    }
    return EXIT_OK;
}

/* Prints "win 98.92% (98920/100000) stall ... loss ..." from a battle result, and how many
 * stalls hit the work bound when any did. */
static void print_summary(const json_t *res)
{
    const char *names[] = {"win", "stall", "loss"};
    const char *keys[] = {"wins", "stalls", "losses"};
    json_int_t games = json_integer_value(json_object_get(res, "games"));
    json_int_t bounded;

    for (int i = 0; i < 3; i++) {
        json_int_t k = json_integer_value(json_object_get(res, keys[i]));
        printf("%s%s %.2f%% (%lld/%lld)", i ? " " : "", names[i],
               games ? 100.0 * (double)k / (double)games : 0.0, (long long)k, (long long)games);
    }
    bounded = json_integer_value(json_object_get(res, "games_bounded"));
    if (bounded > 0)
        printf(" (%lld stalls at the work bound)", (long long)bounded);
    if (json_is_true(json_object_get(res, "partial")))
        printf(" (partial: interrupted)");
    printf("\n");
}

/* Set by SIGINT (Ctrl-C) during a run: the run stops after its current step and prints
 * the result of the units done so far. */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* One progress line on stderr, overwritten in place: units done, rate, time left. */
static void show_progress(const struct job *job, uint64_t done, double seconds)
{
    const char *what = job_kind_units_are_games(job_kind(job)) ? "games" : "units";
    uint64_t total = job_total(job);
    double rate = seconds > 0 ? (double)done / seconds : 0;
    double left = rate > 0 ? (double)(total - done) / rate : 0;
    fprintf(stderr, "\r%llu/%llu %s (%.1f%%), %.0f %s/s, about %.0f s left   ",
            (unsigned long long)done, (unsigned long long)total, what,
            total ? 100.0 * (double)done / (double)total : 100.0, rate, what, left);
}

/* Steps `run` to the end, in steps of about a quarter of a second (results do not depend
 * on the steps: job.h), so that Ctrl-C is seen soon and, on a terminal, the progress line
 * moves. Returns SK_OK when complete, SK_ECANCELED when interrupted, else the step's
 * error. */
static enum sk_err step_all(struct job_run *run, const struct job *job, int progress)
{
    const double target_s = 0.25;
    double t0 = sk_time_mono_s(), last_shown = 0;
    uint64_t done = 0, step = 1000;
    enum sk_err rc = SK_OK;

    while (done < job_total(job)) {
        double s0 = sk_time_mono_s(), took;
        uint64_t before = done;
        if (interrupted)
            return SK_ECANCELED;
        rc = job_run_step(run, step, &done);
        if (rc)
            return rc;
        took = sk_time_mono_s() - s0;
        /* the next step to take about target_s, growing at most 4 times a step */
        if (done > before) {
            double want = (double)(done - before) * target_s / (took > 1e-6 ? took : 1e-6);
            double cap = 4.0 * (double)step;
            step = (uint64_t)(want < 1 ? 1 : want > cap ? cap : want);
        }
        if (progress && sk_time_mono_s() - last_shown >= 0.2) {
            last_shown = sk_time_mono_s();
            show_progress(job, done, last_shown - t0);
        }
    }
    if (progress)
        fprintf(stderr, "\r%*s\r", 78, "");
    return SK_OK;
}

/* SKIRMISH_COST_PROBE_MS from the environment, else its default in the settings table. */
static long probe_ms(void)
{
    const char *env = getenv("SKIRMISH_COST_PROBE_MS");
    uint64_t v = 0;

    if (env && sk_parse_u64(env, 1, 10000, &v) == 0)
        return (long)v;
    for (const struct sk_config_row *r = sk_config_rows(); r->env; r++)
        if (strcmp(r->env, "SKIRMISH_COST_PROBE_MS") == 0)
            return strtol(r->def, NULL, 10);
    return 10;
}

/* The job's CPU estimate as the API makes it: on an engine without a device (the CPU
 * backend, one thread), whatever this run's device. A new object {"estimate_cpu_s",
 * "sampled"}, or NULL after a message. */
static json_t *estimate_cost(const struct job *job)
{
    struct engine_opts o = {.no_device = 1};
    struct engine *cpu = NULL;
    struct job_cost cost;
    char err[2048] = "";
    json_t *out = NULL;

    if (engine_new(&o, &cpu, err, sizeof(err)) ||
        job_cost_estimate(cpu, job, probe_ms(), &cost, err, sizeof(err))) {
        fprintf(stderr, "skirmish: no cost estimate: %s\n", err);
        goto out;
    }
    out =
        json_pack("{s:f, s:I}", "estimate_cpu_s", cost.cpu_s, "sampled", (json_int_t)cost.sampled);
out:
    engine_free(cpu);
    return out;
}

static int run_job(struct engine *eng, const struct job *job, const struct run_args *a)
{
    struct job_run_opts opts = {.threads = a->threads};
    struct job_run *run = NULL;
    json_t *res = NULL;
    const char *backend, *device;
    char err[512] = "";
    int status = EXIT_FAIL;
    int done_status = EXIT_OK; /* EXIT_INTERRUPTED for a partial result */
    json_t *cost = NULL;
    int64_t cpu0;
    enum sk_err rc;

    if (a->cost && !(cost = estimate_cost(job)))
        goto out;
    cpu0 = sk_time_process_cpu_ns();
    rc = job_run_new(eng, job, &opts, &run, err, sizeof(err));
    if (rc) {
        fprintf(stderr, "skirmish: cannot start the job: %s\n", err[0] ? err : sk_err_str(rc));
        goto out;
    }
    rc = step_all(run, job, isatty(STDERR_FILENO));
    if (rc == SK_ECANCELED) {
        fprintf(stderr, "\nskirmish: interrupted: the result of the units done so far, "
                        "marked \"partial\": true\n");
        rc = job_run_partial_result(run, &res);
        if (rc) {
            fprintf(stderr, "skirmish: no partial result: %s\n",
                    rc == SK_ECONFLICT ? "nothing done yet, or this kind keeps none"
                                       : sk_err_str(rc));
            status = EXIT_INTERRUPTED;
            goto out;
        }
        done_status = EXIT_INTERRUPTED;
    } else if (rc) {
        fprintf(stderr, "skirmish: the job failed: %s\n", job_run_error(run));
        goto out;
    } else {
        rc = job_run_result(run, &res);
        if (rc) {
            fprintf(stderr, "skirmish: no result: %s %s\n", sk_err_str(rc), job_run_error(run));
            goto out;
        }
    }
    /* every thread's CPU, as a worker charges it (the run's set-up included) */
    if (cost && (json_object_set_new(cost, "cpu_s",
                                     json_real((double)(sk_time_process_cpu_ns() - cpu0) * 1e-9)) ||
                 json_object_set(res, "cost", cost)))
        goto out;
    /* --threads is the CPU backend's: a battle that ran on a device ignored it (a job with
     * flexible play runs on CPU threads whatever the device: docs/kernels.md). */
    backend = json_string_value(json_object_get(res, "backend"));
    device = json_string_value(json_object_get(res, "device"));
    if (a->threads && backend && strcmp(backend, "opencl") == 0)
        fprintf(stderr,
                "skirmish run: --threads %d was ignored: the job ran on the OpenCL device "
                "\"%s\" (--device cpu runs it on CPU threads)\n",
                a->threads, device ? device : "");
    /* The summary line is made of a result's wins, stalls and losses (a battle's). */
    if (a->summary && json_object_get(res, "wins")) {
        print_summary(res);
    } else {
        if (sk_json_print(res, stdout))
            goto out;
    }
    status = fflush(stdout) == 0 ? done_status : EXIT_FAIL;
out:
    json_decref(cost);
    json_decref(res);
    job_run_free(run);
    return status;
}

/* Sets up the engine on --device (else $SKIRMISH_DEVICE, else the default); returns 0, or
 * EXIT_FAIL after a message. */
static int open_engine(const struct run_args *a, struct engine **eng)
{
    struct engine_opts o = {.device = a->device};
    char err[2048] = "";
    enum sk_err rc = engine_new(&o, eng, err, sizeof(err));

    if (rc) {
        fprintf(stderr, "skirmish: cannot start the job: %s\n", err[0] ? err : sk_err_str(rc));
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

/* Reads the job document `file` ("-": stdin) into *doc (the caller's); 0, or EXIT_FAIL
 * (unreadable) or EXIT_USAGE (not JSON) after a message. */
static int read_doc(const char *file, json_t **doc)
{
    json_error_t jerr;

    if (strcmp(file, "-") == 0)
        *doc = json_loadf(stdin, JSON_REJECT_DUPLICATES, &jerr);
    else
        *doc = json_load_file(file, JSON_REJECT_DUPLICATES, &jerr);
    if (*doc)
        return EXIT_OK;
    if (json_error_code(&jerr) == json_error_cannot_open_file) {
        fprintf(stderr, "skirmish: %s\n", jerr.text);
        return EXIT_FAIL;
    }
    fprintf(stderr, "%s:%d:%d: %s\n", file, jerr.line, jerr.column, jerr.text);
    return EXIT_USAGE;
}

/* Decodes `doc` into *job (the caller's) on the engine's catalogs; 0, or EXIT_USAGE (each
 * problem printed as 'pointer: message') or EXIT_FAIL after a message. */
static int decode_doc(const json_t *doc, struct job **job)
{
    struct sk_verr_list errs;
    enum sk_err rc;
    int status = EXIT_OK;

    sk_verr_list_init(&errs);
    rc = job_decode(doc, job, &errs);
    if (rc == SK_EINVAL) {
        for (size_t i = 0; i < errs.n; i++)
            fprintf(stderr, "%s: %s\n", errs.items[i].pointer, errs.items[i].message);
        if (errs.truncated)
            fprintf(stderr, "(more problems not shown)\n");
        status = EXIT_USAGE;
    } else if (rc) {
        fprintf(stderr, "skirmish: cannot decode the job: %s\n", sk_err_str(rc));
        status = EXIT_FAIL;
    }
    sk_verr_list_release(&errs);
    return status;
}

static int cmd_run(int argc, char **argv)
{
    struct run_args a;
    json_t *doc = NULL;
    struct job *job = NULL;
    struct engine *eng = NULL;
    int status = EXIT_USAGE;
    struct sigaction sa, old_sa;
    int installed = 0;

    memset(&a, 0, sizeof(a));
    if (parse_run_args(argc, argv, &a)) {
        usage(stderr);
        goto out;
    }
    status = read_doc(a.file, &doc);
    if (status)
        goto out;
    status = apply_overrides(doc, &a);
    if (status)
        goto out;
    /* Ctrl-C from here on stops the run after its current step (run_job), even while the
     * engine is still being set up (the document is read: a wait on stdin ends as usual). */
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    (void)sigaction(SIGINT, &sa, &old_sa);
    installed = 1;
    /* The engine first: it loads the catalogs the document is checked against and opens
     * the device, and a failure of either is the set-up's, not the document's. */
    status = open_engine(&a, &eng);
    if (status)
        goto out;
    status = decode_doc(doc, &job);
    if (status)
        goto out;
    status = run_job(eng, job, &a);
out:
    if (installed)
        (void)sigaction(SIGINT, &old_sa, NULL);
    job_free(job);
    engine_free(eng);
    json_decref(doc);
    return status;
}

/* ===== devices ===== */

static int cmd_devices(int argc, char **argv)
{
    struct battle_cl_device *devs = NULL;
    size_t n = 0, def = 0;
    int check = 0, status = EXIT_OK;
    const char *spec = getenv(BATTLE_CL_ENV_DEVICE);
    char err[4096] = "";

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") != 0) {
            fprintf(stderr, "skirmish devices: unknown option '%s'\n", argv[i]);
            return EXIT_USAGE;
        }
        check = 1;
    }
    if (battle_cl_devices(&devs, &n, err, sizeof(err)) != SK_OK) {
        fprintf(stderr, "skirmish devices: %s\n", err);
        return EXIT_FAIL;
    }
    for (size_t i = 0; i < n; i++) {
        printf("%d: %s | %s | %s, %u compute units, %llu MiB, %s, driver %s\n", devs[i].index,
               devs[i].platform, devs[i].name, devs[i].is_gpu ? "gpu" : "not a gpu",
               devs[i].compute_units, (unsigned long long)(devs[i].global_mem >> 20),
               devs[i].version, devs[i].driver);
        if (check) {
            if (battle_cl_check(devs[i].index, err, sizeof(err)) == 0) {
                printf("   check: ok\n");
            } else {
                printf("   check: FAILED: %s\n", err);
                status = EXIT_FAIL;
            }
        }
    }
    /* What a job would use, so SKIRMISH_DEVICE can be tried out here first. */
    if (battle_cl_spec_is_cpu(spec)) {
        printf("jobs use: the cpu backend (%s=%s)\n", BATTLE_CL_ENV_DEVICE, spec);
    } else if (battle_cl_pick(devs, n, spec ? spec : "", &def, err, sizeof(err)) == SK_OK) {
        printf("jobs use: %d (%s)\n", devs[def].index, devs[def].name);
    } else if (spec && *spec) {
        printf("jobs fail: %s=%s: %s\n", BATTLE_CL_ENV_DEVICE, spec, err);
        status = EXIT_FAIL;
    } else {
        printf("jobs use: the cpu backend (%s)\n", err);
    }
    sk_free(devs);
    return status;
}

/* ===== prebuild ===== */

/* job_prepare's reports for one file: a line per program, or per part on the CPU. */
struct prebuilt {
    const char *file;
    int programs;
};

static void print_program(void *arg, const struct job_program *p, const char *cpu_why)
{
    struct prebuilt *pb = arg;
    static const char *const states[] = {"built", "loaded from the cache", "built above"};

    if (!p) {
        printf("%s: a deck plays on the CPU backend (%s): no program\n", pb->file, cpu_why);
        return;
    }
    pb->programs++;
    printf("%s: %s", pb->file, states[p->state]);
    if (p->state != JOB_PROGRAM_HELD)
        printf(" in %.2f s", p->seconds);
    printf(", private %llu B, local %llu B: %s\n", (unsigned long long)p->private_mem,
           (unsigned long long)p->local_mem, p->features[0] ? p->features : "the general program");
}

/* Builds the programs of each FILE's job on the device (--device, else $SKIRMISH_DEVICE,
 * else the first GPU): one engine for all, so that files of the same plan share one build. */
static int cmd_prebuild(int argc, char **argv)
{
    struct run_args a;
    struct engine *eng = NULL;
    int status = EXIT_OK, first = 0;
    char err[2048];

    memset(&a, 0, sizeof(a));
    for (int i = 1; i < argc && !first; i++) {
        if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
            a.device = argv[++i];
        } else if (strncmp(argv[i], "--device=", 9) == 0) {
            a.device = argv[i] + 9;
        } else if (strcmp(argv[i], "--") == 0 || argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
            first = strcmp(argv[i], "--") == 0 ? i + 1 : i;
        } else {
            fprintf(stderr, "skirmish prebuild: unknown option '%s'\n", argv[i]);
            return EXIT_USAGE;
        }
    }
    if (!first || first >= argc) {
        fprintf(stderr, "skirmish prebuild: name at least one job document\n");
        return EXIT_USAGE;
    }
    if (a.device && battle_cl_spec_is_cpu(a.device)) {
        fprintf(stderr, "skirmish prebuild: the CPU backend needs no program: name an OpenCL "
                        "device\n");
        return EXIT_USAGE;
    }
    status = open_engine(&a, &eng);
    for (int i = first; i < argc && !status; i++) {
        struct prebuilt pb = {argv[i], 0};
        json_t *doc = NULL;
        struct job *job = NULL;
        enum sk_err rc;

        status = read_doc(argv[i], &doc);
        if (!status)
            status = decode_doc(doc, &job);
        if (!status) {
            err[0] = '\0';
            rc = job_prepare(eng, job, print_program, &pb, err, sizeof(err));
            if (rc == SK_ECONFLICT) {
                printf("%s: nothing to build ahead for a %s job\n", argv[i], job_kind(job));
            } else if (rc) {
                fprintf(stderr, "skirmish prebuild: %s: %s\n", argv[i],
                        err[0] ? err : sk_err_str(rc));
                status = EXIT_FAIL;
            }
        }
        job_free(job);
        json_decref(doc);
    }
    engine_free(eng);
    if (!status && fflush(stdout) != 0)
        status = EXIT_FAIL;
    return status;
}

int main(int argc, char **argv)
{
    sk_mem_init_json();
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cmd_help(argc - 1, argv + 1);
    if (strcmp(argv[1], "--version") == 0)
        return cmd_version(argc - 1, argv + 1);
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        if (asks_help(argc - 1, argv + 1)) {
            command_usage(stdout, &commands[i]);
            return EXIT_OK;
        }
        return commands[i].fn(argc - 1, argv + 1);
    }
    fprintf(stderr, "skirmish: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
