/* SPDX-License-Identifier: MIT */
/* Integration test helpers (see it_support.h). */
#include "it_support.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "engine.h"
#include "job.h"
#include "sk_mem.h"

#include "sk_banned.h"

const char *it_env(const char *name)
{
    const char *v = getenv(name);
    return v ? v : "";
}

int it_env_ok(void)
{
    const char *need[] = {"SKIRMISH_DATABASE_URL",   "SKIRMISH_REDIS_URL", "SKIRMISH_BIN_DIR",
                          "SKIRMISH_SERVICES",       "SKIRMISH_TEST_DIR",  "SKIRMISH_TEST_PG_PORT",
                          "SKIRMISH_TEST_REDIS_PORT"};
    for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
        if (!getenv(need[i])) {
            fprintf(stderr, "integration tests need %s: run them through scripts/test.sh\n",
                    need[i]);
            return 0;
        }
    }
    return 1;
}

void it_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) && errno == EINTR)
        ;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* 1 when nothing on this machine holds TCP port `port` on any address: a bind to the
 * wildcard address without SO_REUSEADDR fails for a listener or a connection on it. */
static int port_free(int port)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int ok;
    if (fd < 0)
        return 0;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    a.sin_port = htons((uint16_t)port);
    ok = bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
    close(fd);
    return ok;
}

/* A port for a server a test starts later. Not one the kernel hands out (32768-60999 on
 * Linux): the suites run side by side, and their connections to PostgreSQL and Redis take
 * ephemeral ports, so a port the kernel once chose could be some connection's local port by
 * the time the server binds it (seen in CI: an API bound to 0.0.0.0 refused to start). A
 * random port of 20000-32767, seeded per process so that parallel suites draw apart. */
static int free_port(void)
{
    static unsigned seed;
    if (!seed)
        seed = (unsigned)getpid() * 2654435761u ^ (unsigned)now_ms();
    for (int i = 0; i < 1000; i++) {
        int port = 20000 + (int)(rand_r(&seed) % 12768);
        if (port_free(port))
            return port;
    }
    return -1;
}

/* The connections of sql_on, one per database URL, kept open between statements: a
 * PostgreSQL connection costs its server about 30 ms of CPU on the 2-core test VM, and
 * polling loops and the hostile suite's checks ran hundreds (the hostile suite's 508 took
 * most of its 20-29 s). Closed before their database is dropped
 * (it_stack_init, it_stack_stop). `conns_lock` protects `conns` (a test's threads may run
 * statements); nothing else is taken while it is held. */
#define IT_MAX_CONNS 4
static struct {
    char url[512];
    struct db *db;
    long long used; /* now_ms() of the last statement, to reuse the oldest slot */
} conns[IT_MAX_CONNS];
static pthread_mutex_t conns_lock = PTHREAD_MUTEX_INITIALIZER;

/* Closes the kept connection to `url`, if any. */
static void conn_close(const char *url)
{
    pthread_mutex_lock(&conns_lock);
    for (int i = 0; i < IT_MAX_CONNS; i++) {
        if (conns[i].db && strcmp(conns[i].url, url) == 0) {
            db_free(conns[i].db);
            conns[i].db = NULL;
            conns[i].url[0] = '\0';
        }
    }
    pthread_mutex_unlock(&conns_lock);
}

/* Runs one statement on database `url`; first value into out. The statement may be sent
 * twice (db_exec_idem): a kept connection that a server restart closed (the outage suites)
 * costs no error, as a new connection per statement did not. */
static int sql_on(const char *url, const char *sql, char *out, size_t len)
{
    struct db_result *r = NULL;
    struct db *db = NULL;
    int slot = 0;
    int rc = -1;
    if (out && len)
        out[0] = '\0';
    pthread_mutex_lock(&conns_lock);
    for (int i = 0; i < IT_MAX_CONNS; i++) {
        if (conns[i].db && strcmp(conns[i].url, url) == 0) {
            slot = i;
            db = conns[i].db;
            break;
        }
        if (!conns[i].db || (conns[slot].db && conns[i].used < conns[slot].used))
            slot = i;
    }
    if (!db) {
        db_free(conns[slot].db);
        conns[slot].db = NULL;
        if (db_new(url, &conns[slot].db)) {
            pthread_mutex_unlock(&conns_lock);
            return -1;
        }
        snprintf(conns[slot].url, sizeof(conns[slot].url), "%s", url);
        db = conns[slot].db;
    }
    conns[slot].used = now_ms();
    if (db_exec_idem(db, NULL, sql, 0, NULL, &r) == SK_OK) {
        rc = 0;
        if (out && db_result_rows(r) > 0 && db_result_get(r, 0, 0))
            snprintf(out, len, "%s", db_result_get(r, 0, 0));
    } else {
        fprintf(stderr, "it_sql: %s: %s\n", sql, db_error(db));
    }
    db_result_free(r);
    pthread_mutex_unlock(&conns_lock);
    return rc;
}

int it_free_port(void)
{
    return free_port();
}

int it_sql(const struct it_stack *s, const char *sql, char *out, size_t len)
{
    return sql_on(s->db_url, sql, out, len);
}

int it_stack_init(struct it_stack *s, const char *name)
{
    char sql[256];
    char dbname[96];
    const char *base = it_env("SKIRMISH_DATABASE_URL");
    const char *slash = strrchr(base, '/');

    memset(s, 0, sizeof(*s));
    if (!it_env_ok() || !slash)
        return -1;
    snprintf(s->name, sizeof(s->name), "%s", name);
    snprintf(dbname, sizeof(dbname), "sk_it_%s_%d", name, (int)getpid());
    snprintf(s->prefix, sizeof(s->prefix), "it_%s_%d", name, (int)getpid());
    snprintf(s->db_url, sizeof(s->db_url), "%.*s/%s", (int)(slash - base), base, dbname);
    conn_close(s->db_url); /* one of an earlier stack of this name */
    snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s", dbname);
    if (sql_on(base, sql, NULL, 0))
        return -1;
    snprintf(sql, sizeof(sql), "CREATE DATABASE %s", dbname);
    if (sql_on(base, sql, NULL, 0))
        return -1;
    s->port = free_port();
    /* Jobs are not split unless a test asks (test_shards.c): how many games a test's job
     * has follows this machine's speed, and a split job ends differently. */
    s->env[s->n_env++] = "SKIRMISH_SHARD_UNITS=0";
    return s->port > 0 ? 0 : -1;
}

int it_fast_stack_init(struct it_stack *s, const char *name, long chunk_units)
{
    if (it_stack_init(s, name))
        return -1;
    snprintf(s->chunk_env, sizeof(s->chunk_env), "SKIRMISH_CHUNK_UNITS=%ld", chunk_units);
    s->env[s->n_env++] = s->chunk_env;
    s->env[s->n_env++] = "SKIRMISH_LEASE_MS=2000";
    s->env[s->n_env++] = "SKIRMISH_RECONCILE_MS=300";
    s->env[s->n_env++] = "SKIRMISH_RECONCILE_AGE_MS=500";
    s->env[s->n_env++] = "SKIRMISH_BLOCK_MS=200";
    s->env[s->n_env++] = "SKIRMISH_RETRY_BASE_MS=100";
    return 0;
}

/* In a child: the stack's settings, then the test's extra ones. */
static void child_env(const struct it_stack *s, const char *log_name)
{
    char port[16];
    snprintf(port, sizeof(port), "%d", s->port);
    setenv("SKIRMISH_DATABASE_URL", s->db_url, 1);
    setenv("SKIRMISH_QUEUE_PREFIX", s->prefix, 1);
    setenv("SKIRMISH_HTTP_PORT", port, 1);
    setenv("SKIRMISH_HTTP_THREADS", "2", 1);
    setenv("SKIRMISH_LOG_LEVEL", "debug", 1);
    if (log_name) /* NULL for the API's own runs (it_api_command) */
        setenv("SKIRMISH_WORKER_NAME", log_name, 1);
    for (size_t i = 0; i < s->n_env; i++) {
        char kv[256];
        char *eq;
        snprintf(kv, sizeof(kv), "%s", s->env[i]);
        eq = strchr(kv, '=');
        if (eq) {
            *eq = '\0';
            setenv(kv, eq + 1, 1);
        }
    }
}

static pid_t spawn(struct it_stack *s, const char *prog, const char *arg, const char *log_name)
{
    char path[1024];
    char log[1024];
    pid_t pid;

    snprintf(path, sizeof(path), "%s/%s", it_env("SKIRMISH_BIN_DIR"), prog);
    snprintf(log, sizeof(log), "%s/%s-%s.log", it_env("SKIRMISH_TEST_DIR"), s->name, log_name);
    pid = fork();
    if (pid != 0)
        return pid;
    child_env(s, log_name);
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
        dup2(fd, STDERR_FILENO);
        dup2(fd, STDOUT_FILENO);
        close(fd);
    }
    execl(path, prog, arg, (char *)NULL);
    _exit(127);
}

/* Runs `skirmish-api keys ARGS...` (NULL-terminated, at most 5) for stack `s`, its stderr
 * (and its stdout when `out_fd` < 0) appended to the stack's keys log, its stdout to
 * `out_fd` otherwise. Returns the child's pid, or -1. */
static pid_t keys_command(const struct it_stack *s, int out_fd, int close_fd,
                          const char *const *args)
{
    char path[1024];
    char log[1024];
    pid_t pid;

    snprintf(path, sizeof(path), "%s/skirmish-api", it_env("SKIRMISH_BIN_DIR"));
    snprintf(log, sizeof(log), "%s/%s-keys.log", it_env("SKIRMISH_TEST_DIR"), s->name);
    pid = fork();
    if (pid == 0) {
        child_env(s, "keys");
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, STDERR_FILENO);
            if (out_fd < 0)
                dup2(fd, STDOUT_FILENO);
            close(fd);
        }
        if (out_fd >= 0) {
            dup2(out_fd, STDOUT_FILENO);
            close(out_fd);
        }
        if (close_fd >= 0)
            close(close_fd);
        execl(path, "skirmish-api", "keys", args[0], args[1], args[2], args[3], args[4],
              (char *)NULL);
        _exit(127);
    }
    return pid;
}

int it_key(const struct it_stack *s, const char *tenant, int admin, char out[IT_KEY_LEN])
{
    const char *const args[] = {"create", "--tenant", tenant, admin ? "--admin" : NULL, NULL};
    int fds[2];
    pid_t pid;
    ssize_t n;
    size_t got = 0;

    if (pipe(fds))
        return -1;
    pid = keys_command(s, fds[1], fds[0], args);
    close(fds[1]);
    while (pid > 0 && got + 1 < IT_KEY_LEN &&
           (n = read(fds[0], out + got, IT_KEY_LEN - 1 - got)) > 0)
        got += (size_t)n;
    close(fds[0]);
    out[got] = '\0';
    while (got && (out[got - 1] == '\n' || out[got - 1] == '\r'))
        out[--got] = '\0';
    return pid > 0 && it_wait_exit(pid) == 0 && got > 0 ? 0 : -1;
}

int it_key_revoke(const struct it_stack *s, const char *key_id)
{
    const char *const args[] = {"revoke", key_id, NULL, NULL, NULL};
    pid_t pid = keys_command(s, -1, -1, args);
    return pid > 0 ? it_wait_exit(pid) : -1;
}

int it_api_start(struct it_stack *s)
{
    long long end = now_ms() + 30000;
    s->api = spawn(s, "skirmish-api", NULL, "api");
    if (s->api < 0)
        return -1;
    while (now_ms() < end) {
        struct it_resp r;
        if (it_http(s, "GET", "/readyz", NULL, NULL, 0, &r) == 0) {
            int st = r.status;
            it_resp_free(&r);
            if (st == 200)
                return 0;
        }
        if (waitpid(s->api, NULL, WNOHANG) == s->api) {
            s->api = 0;
            fprintf(stderr, "\nit_api_start: the API exited; see %s/%s-api.log\n",
                    it_env("SKIRMISH_TEST_DIR"), s->name);
            return -1;
        }
        it_sleep_ms(50);
    }
    fprintf(stderr, "\nit_api_start: not ready in 30 s; see %s/%s-api.log\n",
            it_env("SKIRMISH_TEST_DIR"), s->name);
    return -1;
}

int it_api_stop(struct it_stack *s)
{
    int code;
    if (s->api <= 0)
        return -1;
    kill(s->api, SIGTERM);
    code = it_wait_exit(s->api);
    s->api = 0;
    return code;
}

pid_t it_api_command(struct it_stack *s, const char *arg)
{
    return spawn(s, "skirmish-api", arg, arg ? arg : "api");
}

int it_wait_exit(pid_t pid)
{
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

int it_alive(pid_t pid)
{
    return pid > 0 && waitpid(pid, NULL, WNOHANG) == 0;
}

int it_worker_start(struct it_stack *s, int i)
{
    char name[32];
    snprintf(name, sizeof(name), "worker%d", i);
    s->workers[i] = spawn(s, "skirmish-worker", NULL, name);
    return s->workers[i] > 0 ? 0 : -1;
}

int it_worker_signal(struct it_stack *s, int i, int sig, int wait_exit)
{
    int status = -1;
    if (s->workers[i] <= 0)
        return -1;
    kill(s->workers[i], sig);
    if (!wait_exit)
        return 0;
    if (waitpid(s->workers[i], &status, 0) != s->workers[i])
        return -1;
    s->workers[i] = 0;
    return status;
}

static void kill_wait(pid_t *pid)
{
    if (*pid > 0) {
        kill(*pid, SIGKILL);
        waitpid(*pid, NULL, 0);
    }
    *pid = 0;
}

void it_stack_stop(struct it_stack *s)
{
    char sql[256];
    const char *base = it_env("SKIRMISH_DATABASE_URL");
    kill_wait(&s->api);
    for (int i = 0; i < IT_MAX_WORKERS; i++)
        kill_wait(&s->workers[i]);
    if (s->db_url[0]) {
        conn_close(s->db_url);
        snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s WITH (FORCE)",
                 strrchr(s->db_url, '/') + 1);
        (void)sql_on(base, sql, NULL, 0);
    }
}

/* Appends the exchange to $SKIRMISH_TEST_DIR/responses-<pid>.jsonl, which the test run
 * validates against openapi/openapi.json (tests/js/validate.mjs). */
static void record(const char *method, const char *path, const struct it_resp *r)
{
    char file[1024];
    char ct[256] = "";
    const char *dir = getenv("SKIRMISH_TEST_DIR");
    json_t *rec;
    char *line;
    FILE *f;

    if (!dir || !dir[0])
        return;
    it_resp_header(r, "Content-Type", ct, sizeof(ct));
    rec = json_pack("{s:s, s:s, s:i, s:s, s:s%}", "method", method, "path", path, "status",
                    r->status, "content_type", ct, "body", r->body, r->body_len);
    line = rec ? json_dumps(rec, JSON_COMPACT) : NULL;
    snprintf(file, sizeof(file), "%s/responses-%d.jsonl", dir, (int)getpid());
    f = line ? fopen(file, "a") : NULL;
    if (f) {
        fprintf(f, "%s\n", line);
        fclose(f);
    }
    free(line);
    json_decref(rec);
}

int it_http(const struct it_stack *s, const char *method, const char *path, const char *ct,
            const char *body, size_t body_len, struct it_resp *r)
{
    return it_http_ex(s, method, path, NULL, ct, body, body_len, r);
}

int it_http_ex(const struct it_stack *s, const char *method, const char *path, const char *headers,
               const char *ct, const char *body, size_t body_len, struct it_resp *r)
{
    struct sockaddr_in a;
    char head[4096];
    size_t cap = 65536, len = 0;
    char *buf = NULL;
    char *sep;
    int fd;
    int n;
    struct timeval tv = {70, 0}; /* a long poll may take up to a minute */

    memset(r, 0, sizeof(*r));
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)s->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
        close(fd);
        return -1;
    }
    n = snprintf(head, sizeof(head),
                 "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%s%s%s%s"
                 "Content-Length: %zu\r\n\r\n",
                 method, path, headers ? headers : "", ct ? "Content-Type: " : "", ct ? ct : "",
                 ct ? "\r\n" : "", body ? body_len : 0);
    if (write(fd, head, (size_t)n) != n ||
        (body && body_len && write(fd, body, body_len) != (ssize_t)body_len)) {
        /* a server refusing a huge body may close early: read what it answered */
    }
    buf = malloc(cap);
    if (!buf) {
        close(fd);
        return -1;
    }
    for (;;) {
        ssize_t k;
        if (len + 1 >= cap) {
            char *b = realloc(buf, cap * 2);
            if (!b)
                break;
            buf = b;
            cap *= 2;
        }
        k = read(fd, buf + len, cap - len - 1);
        /* A SIGCHLD (system()'s child, a reaped server) may land on this thread. */
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    close(fd);
    buf[len] = '\0';
    sep = strstr(buf, "\r\n\r\n");
    if (len < 12 || !sep || sscanf(buf, "HTTP/1.1 %d", &r->status) != 1) {
        free(buf);
        return -1;
    }
    snprintf(r->headers, sizeof(r->headers), "%.*s", (int)(sep - buf), buf);
    r->body_len = len - (size_t)(sep + 4 - buf);
    r->body = malloc(r->body_len + 1);
    if (r->body) {
        memcpy(r->body, sep + 4, r->body_len);
        r->body[r->body_len] = '\0';
    }
    free(buf);
    if (r->body)
        record(method, path, r);
    return r->body ? 0 : -1;
}

void it_resp_free(struct it_resp *r)
{
    free(r->body);
    r->body = NULL;
}

json_t *it_resp_json(const struct it_resp *r)
{
    return r->body ? json_loads(r->body, 0, NULL) : NULL;
}

int it_resp_header(const struct it_resp *r, const char *name, char *out, size_t len)
{
    const char *p = r->headers;
    size_t n = strlen(name);
    while ((p = strstr(p, "\r\n"))) {
        p += 2;
        if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
            const char *v = p + n + 1;
            const char *e = strstr(v, "\r\n");
            while (*v == ' ')
                v++;
            snprintf(out, len, "%.*s", (int)(e ? e - v : (long)strlen(v)), v);
            return 0;
        }
    }
    return -1;
}

int it_submit(const struct it_stack *s, const char *doc, char id[37])
{
    struct it_resp r;
    json_t *j;
    int rc = -1;
    if (it_http(s, "POST", "/v1/jobs", "application/json", doc, strlen(doc), &r))
        return -1;
    j = it_resp_json(&r);
    if (r.status == 202 && j && json_string_value(json_object_get(j, "id"))) {
        snprintf(id, 37, "%s", json_string_value(json_object_get(j, "id")));
        rc = 0;
    } else {
        fprintf(stderr, "it_submit: %d %s\n", r.status, r.body ? r.body : "");
    }
    json_decref(j);
    it_resp_free(&r);
    return rc;
}

json_t *it_job(const struct it_stack *s, const char *id)
{
    char path[128];
    struct it_resp r;
    json_t *j = NULL;
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    if (it_http(s, "GET", path, NULL, NULL, 0, &r))
        return NULL;
    if (r.status == 200)
        j = it_resp_json(&r);
    it_resp_free(&r);
    return j;
}

static int is_final(const char *st)
{
    return st && (!strcmp(st, "succeeded") || !strcmp(st, "failed") || !strcmp(st, "canceled"));
}

json_t *it_wait_status(const struct it_stack *s, const char *id, const char *status,
                       long timeout_ms)
{
    long long end = now_ms() + timeout_ms;
    do {
        json_t *j = it_job(s, id);
        const char *st = j ? json_string_value(json_object_get(j, "status")) : NULL;
        if (st && (status ? strcmp(st, status) == 0 : is_final(st)))
            return j;
        json_decref(j);
        it_sleep_ms(50);
    } while (now_ms() < end);
    fprintf(stderr, "it_wait_status: job %s not %s after %ld ms\n", id, status ? status : "final",
            timeout_ms);
    return NULL;
}

int it_wait_progress(const struct it_stack *s, const char *id, long timeout_ms)
{
    long long end = now_ms() + timeout_ms;
    do {
        json_t *j = it_job(s, id);
        json_int_t done =
            json_integer_value(json_object_get(json_object_get(j, "progress"), "done"));
        const char *st = json_string_value(json_object_get(j, "status"));
        int ok = st && strcmp(st, "running") == 0 && done > 0;
        json_decref(j);
        if (ok)
            return 0;
        it_sleep_ms(20);
    } while (now_ms() < end);
    return -1;
}

json_t *it_cancel_wait(const struct it_stack *s, const char *id, long timeout_ms,
                       long long *waited_ms)
{
    char path[128];
    struct it_resp r;
    long long t0 = now_ms();
    json_t *job;

    snprintf(path, sizeof(path), "/v1/jobs/%s:cancel", id);
    *waited_ms = -1;
    if (it_http(s, "POST", path, NULL, NULL, 0, &r) != 0)
        return NULL;
    if (r.status != 202) {
        fprintf(stderr, "\nit_cancel_wait: POST %s answered %d\n", path, r.status);
        it_resp_free(&r);
        return NULL;
    }
    it_resp_free(&r);
    job = it_wait_status(s, id, "canceled", timeout_ms);
    *waited_ms = now_ms() - t0;
    fprintf(stderr, "\n    canceled after %lld ms ", *waited_ms);
    return job;
}

int it_wait_workers(const struct it_stack *s, size_t n, long timeout_ms)
{
    long long end = now_ms() + timeout_ms;
    do {
        struct it_resp r;
        size_t have = 0;
        if (it_http(s, "GET", "/v1/stats", NULL, NULL, 0, &r) == 0) {
            json_t *j = it_resp_json(&r);
            have = json_array_size(json_object_get(j, "workers"));
            json_decref(j);
            it_resp_free(&r);
        }
        if (have >= n)
            return 0;
        it_sleep_ms(50);
    } while (now_ms() < end);
    return -1;
}

int it_services(const char *cmd)
{
    char line[1024];
    snprintf(line, sizeof(line), "SK_REDIS_AOF=no '%s' %s '%s' %s >/dev/null",
             it_env("SKIRMISH_SERVICES"), cmd, it_env("SKIRMISH_TEST_DIR"),
             strstr(cmd, "start") ? (strstr(cmd, "redis") ? it_env("SKIRMISH_TEST_REDIS_PORT")
                                                          : it_env("SKIRMISH_TEST_PG_PORT"))
                                  : "");
    return system(line) == 0 ? 0 : -1;
}

const char *it_battle_doc(long games, long seed)
{
    static char doc[1024];
    snprintf(doc, sizeof(doc),
             "{\"kind\":\"battle\",\"seed\":%ld,\"params\":{\"games\":%ld,"
             "\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\","
             "\"count\":5}]},"
             "\"defender\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Brute\","
             "\"count\":4}]}}}",
             seed, games);
    return doc;
}

static json_t *engine_result(const char *doc, int threads)
{
    json_t *d = json_loads(doc, 0, NULL);
    struct job *job = NULL;
    struct job_run *run = NULL;
    struct sk_verr_list errs;
    json_t *res = NULL;
    char err[256];
    uint64_t done = 0;
    struct job_run_opts opts = {.threads = threads};
    struct engine *eng = NULL;

    sk_verr_list_init(&errs);
    if (d && job_decode(d, &job, &errs) == SK_OK &&
        engine_new(NULL, &eng, err, sizeof(err)) == SK_OK &&
        job_run_new(eng, job, &opts, &run, err, sizeof(err)) == SK_OK &&
        job_run_step(run, 0, &done) == SK_OK)
        (void)job_run_result(run, &res);
    job_run_free(run);
    engine_free(eng);
    job_free(job);
    json_decref(d);
    sk_verr_list_release(&errs);
    return res;
}

json_t *it_engine_result(const char *doc)
{
    return engine_result(doc, 0);
}

double it_scale(void)
{
    const char *v = getenv("SKIRMISH_TEST_SCALE");
    char *end = NULL;
    double f;
    if (!v || !*v)
        return 1.0;
    f = strtod(v, &end);
    if (*end || !(f >= 0.01 && f <= 100)) {
        fprintf(stderr, "SKIRMISH_TEST_SCALE=%s is not a number from 0.01 to 100; using 1\n", v);
        return 1.0;
    }
    return f;
}

long it_units_for_ms(const char *(*doc)(long units, long seed), long ms)
{
    static struct {
        const char *(*doc)(long, long);
        double per_ms;
    } seen[4];
    static int n_seen;
    double per_ms = 0;

    for (int i = 0; i < n_seen; i++)
        if (seen[i].doc == doc)
            per_ms = seen[i].per_ms;
    if (per_ms == 0) {
        long units = 16000;
        for (;;) {
            const char *d = doc(units, 1);
            long long t0 = now_ms();
            json_t *r = engine_result(d, 1);
            long long dt = now_ms() - t0;
            json_decref(r);
            if (dt >= 200 || units >= 100000000) {
                per_ms = (double)units / (double)(dt ? dt : 1);
                fprintf(stderr, "it_units_for_ms: %.1f units/ms of %.30s...\n", per_ms, d);
                break;
            }
            units *= 4;
        }
        if (n_seen < (int)(sizeof(seen) / sizeof(seen[0]))) {
            seen[n_seen].doc = doc;
            seen[n_seen++].per_ms = per_ms;
        }
    }
    double u = per_ms * (double)ms * it_scale();
    return u < 200 ? 200 : u > 1e8 ? 100000000L : (long)u;
}

long it_games_for_ms(long ms)
{
    return it_units_for_ms(it_battle_doc, ms);
}

json_t *it_cli_result(const char *doc)
{
    char file[] = "/tmp/sk-it-cli-XXXXXX";
    char cmd[1200];
    json_error_t jerr;
    json_t *res = NULL;
    FILE *out;
    int fd = mkstemp(file);

    if (fd < 0)
        return NULL;
    if (write(fd, doc, strlen(doc)) != (ssize_t)strlen(doc)) {
        close(fd);
        goto out;
    }
    close(fd);
    snprintf(cmd, sizeof(cmd), "'%s/skirmish' run '%s'", it_env("SKIRMISH_BIN_DIR"), file);
    out = popen(cmd, "r");
    if (!out)
        goto out;
    res = json_loadf(out, 0, &jerr);
    if (pclose(out) != 0) {
        json_decref(res);
        res = NULL;
    }
out:
    unlink(file);
    return res;
}

int it_same_result(const json_t *a, const json_t *b)
{
    static const char *const machine[] = {"backend",           "device",           "platform",
                                          "work_group",        "games_per_launch", "games_per_item",
                                          "private_mem_bytes", "local_mem_bytes",  "threads",
                                          "elapsed_ms",        "games_per_second"};
    json_t *x = json_deep_copy(a);
    json_t *y = json_deep_copy(b);
    int same;
    for (size_t i = 0; i < sizeof(machine) / sizeof(machine[0]); i++) {
        json_object_del(x, machine[i]);
        json_object_del(y, machine[i]);
    }
    same = x && y && json_object_size(x) > 0 && json_equal(x, y);
    json_decref(x);
    json_decref(y);
    return same;
}
