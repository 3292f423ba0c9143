/* SPDX-License-Identifier: MIT */
/* Helpers of the integration tests: the servers started by scripts/test.sh (read from the
 * environment), a fresh database and Redis key prefix per test, skirmish-api and
 * skirmish-worker processes spawned from SKIRMISH_BIN_DIR, a minimal HTTP/1.1 client,
 * and polling helpers. Never uses a server left running by hand: without the harness's
 * variables every test fails. */
#ifndef IT_SUPPORT_H
#define IT_SUPPORT_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

#define IT_MAX_WORKERS 4
#define IT_MAX_ENV     16

struct it_stack {
    char name[64];
    char db_url[512];
    char prefix[96];
    int port;
    pid_t api;
    pid_t workers[IT_MAX_WORKERS];
    const char *env[IT_MAX_ENV]; /* extra "NAME=value" settings for every process */
    size_t n_env;
    char chunk_env[64]; /* it_fast_stack_init's SKIRMISH_CHUNK_UNITS setting */
};

struct it_resp {
    int status;
    char headers[4096];
    char *body; /* malloc'd, NUL-terminated */
    size_t body_len;
};

/** 1 when the harness's variables are present (else prints why and returns 0). */
int it_env_ok(void);
/** Value of harness variable `name` or "" (never NULL). */
const char *it_env(const char *name);

/**
 * Prepares `s`: a fresh database named after `name`, a unique key prefix and a free
 * port. Extra settings may be appended to s->env afterwards. Returns 0 on success.
 */
int it_stack_init(struct it_stack *s, const char *name);

/**
 * it_stack_init, then the settings of a stack whose failures show fast: a lease of 2 s,
 * maintenance every 300 ms, retries after 100 ms, and chunks that start at `chunk_units`
 * units. Returns 0 on success.
 */
int it_fast_stack_init(struct it_stack *s, const char *name, long chunk_units);
/* Room for an API key's text and the NUL. */
#define IT_KEY_LEN 96

/**
 * Makes an API key of `tenant` (admin scope when `admin`) with `skirmish-api keys create`
 * under the stack's settings (which applies the migrations first); its text goes to `out`.
 * Returns 0 on success.
 */
int it_key(const struct it_stack *s, const char *tenant, int admin, char out[IT_KEY_LEN]);
/**
 * Revokes key `key_id` with `skirmish-api keys revoke` under the stack's settings (which
 * announces it to the API processes through Redis). Returns the command's exit code.
 */
int it_key_revoke(const struct it_stack *s, const char *key_id);
/** Starts skirmish-api and waits until /readyz answers 200. Returns 0 on success. */
int it_api_start(struct it_stack *s);
/** Starts worker `i`. Returns 0 on success. */
int it_worker_start(struct it_stack *s, int i);
/** Stops skirmish-api with SIGTERM and returns its exit code (-1 if killed by a signal:
 * under ASan a leak found at exit makes the code non-zero). */
int it_api_stop(struct it_stack *s);
/** Starts `skirmish-api <arg>` without waiting; returns its pid or -1. */
pid_t it_api_command(struct it_stack *s, const char *arg);
/** Waits for `pid` to exit; returns its exit code, or -1 when it did not exit normally. */
int it_wait_exit(pid_t pid);
/** 1 when process `pid` (a child) is still running. */
int it_alive(pid_t pid);
/** Sends `sig` to worker `i` and, when `wait_exit`, reaps it; returns its exit status. */
int it_worker_signal(struct it_stack *s, int i, int sig, int wait_exit);
/** Stops every process (SIGKILL), drops the database. */
void it_stack_stop(struct it_stack *s);

/** HTTP request to the stack's API. Returns 0 on success. Free with it_resp_free. */
int it_http(const struct it_stack *s, const char *method, const char *path, const char *ct,
            const char *body, size_t body_len, struct it_resp *r);
/**
 * it_http with extra request header lines `headers` ("Name: value\r\n" each; NULL = none).
 * Every exchange is also recorded for the OpenAPI response validation of the test run.
 */
int it_http_ex(const struct it_stack *s, const char *method, const char *path, const char *headers,
               const char *ct, const char *body, size_t body_len, struct it_resp *r);
void it_resp_free(struct it_resp *r);
/** The body parsed as JSON (new reference) or NULL. */
json_t *it_resp_json(const struct it_resp *r);
/** Value of response header `name` (case-insensitive) copied into `out`; 0 when found. */
int it_resp_header(const struct it_resp *r, const char *name, char *out, size_t len);

/** POSTs `doc` (JSON text) to /v1/jobs; on 202 copies the id into `id` (37 bytes). */
int it_submit(const struct it_stack *s, const char *doc, char id[37]);
/** GET /v1/jobs/{id} as JSON (new reference) or NULL. */
json_t *it_job(const struct it_stack *s, const char *id);
/** Polls until the job's status is `status` (or any final one when NULL); returns the
 * job (new reference) or NULL after `timeout_ms`. */
json_t *it_wait_status(const struct it_stack *s, const char *id, const char *status,
                       long timeout_ms);
/** Polls until progress.done > 0 while running; returns 0 when seen within timeout_ms. */
int it_wait_progress(const struct it_stack *s, const char *id, long timeout_ms);

/** Cancels job `id` (POST :cancel) and waits up to `timeout_ms` for it to be canceled;
 * *waited_ms is the time from the request to the status seen (printed too). The job (new
 * reference), or NULL when the cancel was not accepted (202) or the job did not end
 * canceled in time. */
json_t *it_cancel_wait(const struct it_stack *s, const char *id, long timeout_ms,
                       long long *waited_ms);

/** Polls GET /v1/stats until it lists at least `n` live workers (each has sent its first
 * heartbeat, from its loop over the queue); 0 when seen within timeout_ms. */
int it_wait_workers(const struct it_stack *s, size_t n, long timeout_ms);

/** Runs `sql` on the stack's database; returns the first column of the first row in
 * `out` (or "" when none). Returns 0 on success. */
int it_sql(const struct it_stack *s, const char *sql, char *out, size_t len);

/** Runs "$SKIRMISH_SERVICES <args>" with the harness's dir and port; 0 on success. */
int it_services(const char *cmd);

/** A free loopback TCP port (for a second API process of one stack), or -1. */
int it_free_port(void);

/** Milliseconds sleep. */
void it_sleep_ms(long ms);

/** A battle job document with `games` games and seed `seed` (static buffer). */
const char *it_battle_doc(long games, long seed);

/** The result the engine computes in-process for job document `doc` (new reference). */
json_t *it_engine_result(const char *doc);

/**
 * The result document `skirmish run` prints for job document `doc` (new reference), parsed;
 * NULL when the command fails.
 */
json_t *it_cli_result(const char *doc);

/**
 * 1 when results `a` and `b` are equal in every field the job determines, i.e. ignoring
 * the fields that describe the machine that ran it (backend, device, threads, elapsed_ms,
 * games_per_second; docs/jobs.md).
 */
int it_same_result(const json_t *a, const json_t *b);

/**
 * The job-size factor SKIRMISH_TEST_SCALE (scripts/test.sh's SK_TEST_SCALE; 0.01 to 100,
 * default 1) that it_units_for_ms applies: below 1 for a quicker run on a loaded machine,
 * above 1 for longer jobs that leave more time for races between processes to show.
 */
double it_scale(void);

/** Games of the it_battle_doc job that the engine plays in about `ms` ms (measured once
 * in-process, one host thread asked for: a battle runs on the OpenCL device, PoCL's threads
 * here), at least 200. */
long it_games_for_ms(long ms);

/**
 * Units of the jobs `doc(units, seed)` makes that the engine runs in about `ms` ms, at
 * least 200: measured once per `doc` in-process on one host thread, `units` growing from
 * 16,000 until a run takes 200 ms (so `doc` must make jobs of about `units` units from
 * 16,000 on), times it_scale(). Jobs that play on the host engine (optimisations) need their own
 * figure: under ASan their games are about 20 times slower than a battle's on PoCL, which the
 * sanitizer does not instrument.
 */
long it_units_for_ms(const char *(*doc)(long units, long seed), long ms);

#endif
