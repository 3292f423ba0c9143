/* SPDX-License-Identifier: MIT */
/* Keys, tenants, quotas, fair share and retention against real servers (docs/security.md):
 * tenant isolation on every job route, admin scope, revocation taking effect on the next
 * request, the per-key rate limit shared by two API processes, the tenant quotas, a
 * tenant's small job finishing within seconds behind another tenant's 1,000 large ones,
 * the retention sweep and DELETE, and the refusal to serve a non-loopback address
 * without keys. Suite tenants_waiters: a revoked key's open event streams and long polls
 * end within a second on two API processes (announced, and not), and the waiter slots
 * per tenant. */
#include <CUnit/CUnit.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "it_support.h"
#include "sk_buf.h"

#include "sk_banned.h"

static int setup(void)
{
    return it_env_ok() ? 0 : 1;
}

/* Member `key` of object `j` as a string, "" when absent or not a string. */
static const char *str(const json_t *j, const char *key)
{
    const char *v = json_string_value(json_object_get(j, key));
    return v ? v : "";
}

static long long mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* An HTTP exchange with key `key` (NULL: none). */
static int call(const struct it_stack *s, const char *key, const char *method, const char *path,
                const char *body, struct it_resp *r)
{
    char h[160] = "";
    if (key)
        snprintf(h, sizeof(h), "Authorization: Bearer %s\r\n", key);
    return it_http_ex(s, method, path, h, body ? "application/json" : NULL, body,
                      body ? strlen(body) : 0, r);
}

/* The status of an exchange (0 when it failed), the response freed. */
static int status_of(const struct it_stack *s, const char *key, const char *method,
                     const char *path, const char *body)
{
    struct it_resp r;
    int st;
    if (call(s, key, method, path, body, &r))
        return 0;
    st = r.status;
    it_resp_free(&r);
    return st;
}

/* Submits `doc` with `key`; copies the new job's id into `id` and returns the status. */
static int submit(const struct it_stack *s, const char *key, const char *doc, char id[40])
{
    struct it_resp r;
    int st;
    id[0] = '\0';
    if (call(s, key, "POST", "/v1/jobs", doc, &r))
        return 0;
    st = r.status;
    if (st == 202) {
        json_t *j = it_resp_json(&r);
        snprintf(id, 40, "%s", json_string_value(json_object_get(j, "id")));
        json_decref(j);
    }
    it_resp_free(&r);
    return st;
}

/* Polls job `id` with `key` until it is `status`; 1 when seen within `ms`. */
static int wait_status(const struct it_stack *s, const char *key, const char *id,
                       const char *status, long ms)
{
    char path[128];
    long long end = mono_ms() + ms;
    snprintf(path, sizeof(path), "/v1/jobs/%.40s", id);
    while (mono_ms() < end) {
        struct it_resp r;
        if (call(s, key, "GET", path, NULL, &r) == 0) {
            json_t *j = it_resp_json(&r);
            int hit = r.status == 200 && strcmp(str(j, "status"), status) == 0;
            json_decref(j);
            it_resp_free(&r);
            if (hit)
                return 1;
        }
        it_sleep_ms(50);
    }
    return 0;
}

static long sql_long(const struct it_stack *s, const char *sql)
{
    char out[64] = "";
    if (it_sql(s, sql, out, sizeof(out)))
        return -1;
    return strtol(out, NULL, 10);
}

/* The key id of a key's text: sk_<id>_<secret>. */
static void key_id(const char *key, char id[17])
{
    snprintf(id, 17, "%.16s", key + 3);
}

static void test_isolation_revocation(void)
{
    struct it_stack s;
    char admin[IT_KEY_LEN], a[IT_KEY_LEN], b[IT_KEY_LEN];
    char id[40], idb[40], path[160], kid[17];
    char hdr[256];
    struct it_resp r;
    json_t *j;
    /* method and what follows /v1/jobs/{id} */
    static const char *const foreign[][2] = {
        {"GET", ""},         {"GET", "/result"}, {"GET", "/events"}, {"GET", "/document"},
        {"POST", ":cancel"}, {"POST", ":retry"}, {"DELETE", ""},     {"GET", "?wait=1"},
    };

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "tenants"), 0);
    s.env[s.n_env++] = "SKIRMISH_AUTH=on";
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "ops", 1, admin), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "acme", 0, a), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "bolt", 0, b), 0);
    /* only the hash is stored: the secret appears nowhere in the table */
    {
        char sql[256];
        snprintf(sql, sizeof(sql),
                 "SELECT count(*) FROM api_keys WHERE encode(hash, 'hex') = '%s'"
                 " OR id = '%s'",
                 a + 20, a + 20);
        CU_ASSERT_EQUAL(sql_long(&s, sql), 0);
    }
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0);
    CU_ASSERT_EQUAL_FATAL(it_worker_start(&s, 0), 0);

    /* no key, a malformed key, a key with a wrong secret: 401 with WWW-Authenticate */
    CU_ASSERT_EQUAL_FATAL(call(&s, NULL, "GET", "/v1/jobs", NULL, &r), 0);
    CU_ASSERT_EQUAL(r.status, 401);
    CU_ASSERT_EQUAL(it_resp_header(&r, "WWW-Authenticate", hdr, sizeof(hdr)), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(hdr, "Bearer"));
    it_resp_free(&r);
    CU_ASSERT_EQUAL(status_of(&s, "sk_nonsense", "GET", "/v1/jobs", NULL), 401);
    {
        char wrong[IT_KEY_LEN];
        snprintf(wrong, sizeof(wrong), "%s", a);
        wrong[strlen(wrong) - 1] = wrong[strlen(wrong) - 1] == '0' ? '1' : '0';
        CU_ASSERT_EQUAL(status_of(&s, wrong, "GET", "/v1/jobs", NULL), 401);
    }
    /* public routes need none */
    CU_ASSERT_EQUAL(status_of(&s, NULL, "GET", "/healthz", NULL), 200);
    CU_ASSERT_EQUAL(status_of(&s, NULL, "GET", "/openapi.json", NULL), 200);

    /* acme's job: acme reads it, bolt gets 404 on every job route, as for a missing job */
    CU_ASSERT_EQUAL_FATAL(submit(&s, a, it_battle_doc(2000, 1), id), 202);
    CU_ASSERT_FATAL(wait_status(&s, a, id, "succeeded", 60000));
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    CU_ASSERT_EQUAL(status_of(&s, a, "GET", path, NULL), 200);
    for (size_t i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++) {
        snprintf(path, sizeof(path), "/v1/jobs/%s%s", id, foreign[i][1]);
        CU_ASSERT_EQUAL(call(&s, b, foreign[i][0], path, NULL, &r), 0);
        CU_ASSERT_EQUAL(r.status, 404);
        j = it_resp_json(&r);
        CU_ASSERT_STRING_EQUAL(str(j, "type"), "/problems/job-not-found");
        json_decref(j);
        it_resp_free(&r);
    }
    /* bolt's list and bulk cancel see none of acme's jobs */
    CU_ASSERT_EQUAL_FATAL(call(&s, b, "GET", "/v1/jobs", NULL, &r), 0);
    j = it_resp_json(&r);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "items")), 0);
    json_decref(j);
    it_resp_free(&r);
    /* the same Idempotency-Key in two tenants names two jobs */
    {
        char h1[200];
        snprintf(h1, sizeof(h1), "Authorization: Bearer %s\r\nIdempotency-Key: \"k1\"\r\n", a);
        CU_ASSERT_EQUAL_FATAL(it_http_ex(&s, "POST", "/v1/jobs", h1, "application/json",
                                         it_battle_doc(1000, 2), strlen(it_battle_doc(1000, 2)),
                                         &r),
                              0);
        CU_ASSERT_EQUAL(r.status, 202);
        it_resp_free(&r);
        snprintf(h1, sizeof(h1), "Authorization: Bearer %s\r\nIdempotency-Key: \"k1\"\r\n", b);
        CU_ASSERT_EQUAL_FATAL(it_http_ex(&s, "POST", "/v1/jobs", h1, "application/json",
                                         it_battle_doc(1000, 3), strlen(it_battle_doc(1000, 3)),
                                         &r),
                              0);
        CU_ASSERT_EQUAL(r.status, 202); /* not a 422: acme's key is not bolt's */
        j = it_resp_json(&r);
        snprintf(idb, sizeof(idb), "%s", str(j, "id"));
        CU_ASSERT_STRING_EQUAL(str(j, "tenant"), "bolt");
        json_decref(j);
        it_resp_free(&r);
    }
    CU_ASSERT_EQUAL(status_of(&s, b, "POST", "/v1/jobs:cancel?status=queued", NULL), 200);
    CU_ASSERT(wait_status(&s, a, id, "succeeded", 1000)); /* acme's job untouched */

    /* the admin key sees every tenant; tenant keys get 403 on admin routes */
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    CU_ASSERT_EQUAL(status_of(&s, admin, "GET", path, NULL), 200);
    snprintf(path, sizeof(path), "/v1/jobs/%s", idb);
    CU_ASSERT_EQUAL(status_of(&s, admin, "GET", path, NULL), 200);
    CU_ASSERT_EQUAL_FATAL(call(&s, admin, "GET", "/v1/jobs?limit=100", NULL, &r), 0);
    j = it_resp_json(&r);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "items")), 3);
    json_decref(j);
    it_resp_free(&r);
    CU_ASSERT_EQUAL(status_of(&s, admin, "GET", "/v1/stats", NULL), 200);
    CU_ASSERT_EQUAL(status_of(&s, admin, "GET", "/metrics", NULL), 200);
    CU_ASSERT_EQUAL(status_of(&s, a, "GET", "/v1/stats", NULL), 403);
    CU_ASSERT_EQUAL(status_of(&s, a, "GET", "/v1/stats/history", NULL), 403);
    CU_ASSERT_EQUAL(status_of(&s, a, "GET", "/metrics", NULL), 403);
    CU_ASSERT_EQUAL(status_of(&s, a, "GET", "/v1/keys", NULL), 403);
    CU_ASSERT_EQUAL(status_of(&s, a, "POST", "/v1/keys", "{\"tenant\":\"x\"}"), 403);

    /* keys over HTTP: made (the text once), listed without secrets, bad fields named */
    CU_ASSERT_EQUAL_FATAL(call(&s, admin, "POST", "/v1/keys", "{\"tenant\":\"new-co\"}", &r), 0);
    CU_ASSERT_EQUAL(r.status, 201);
    j = it_resp_json(&r);
    CU_ASSERT_EQUAL(strncmp(str(j, "key"), "sk_", 3), 0);
    json_decref(j);
    it_resp_free(&r);
    CU_ASSERT_EQUAL_FATAL(call(&s, admin, "POST", "/v1/keys", "{\"tenant\":\"Bad Name\"}", &r), 0);
    CU_ASSERT_EQUAL(r.status, 422);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "\"/tenant\""));
    it_resp_free(&r);
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM api_keys WHERE tenant = 'bad name'"), 0);
    CU_ASSERT_EQUAL_FATAL(call(&s, admin, "GET", "/v1/keys", NULL, &r), 0);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT_PTR_NULL(strstr(r.body, a + 20)); /* no secret */
    it_resp_free(&r);

    /* revocation: acme's very next request is refused */
    CU_ASSERT_EQUAL(status_of(&s, a, "GET", "/v1/jobs", NULL), 200);
    key_id(a, kid);
    snprintf(path, sizeof(path), "/v1/keys/%s", kid);
    CU_ASSERT_EQUAL(status_of(&s, admin, "DELETE", path, NULL), 204);
    CU_ASSERT_EQUAL(status_of(&s, a, "GET", "/v1/jobs", NULL), 401);
    CU_ASSERT_EQUAL(status_of(&s, admin, "DELETE", path, NULL), 404);
    CU_ASSERT_EQUAL(status_of(&s, b, "GET", "/v1/jobs", NULL), 200);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* The RateLimit header's remaining count r, or -1. */
static int remaining(const struct it_resp *r)
{
    char v[128];
    const char *p;
    if (it_resp_header(r, "RateLimit", v, sizeof(v)) || !(p = strstr(v, ";r=")))
        return -1;
    return (int)strtol(p + 3, NULL, 10);
}

static void test_rate_limit(void)
{
    struct it_stack s, s2;
    char a[IT_KEY_LEN], b[IT_KEY_LEN];
    char v[128];
    struct it_resp r;

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "ratelimit"), 0);
    s.env[s.n_env++] = "SKIRMISH_AUTH=on";
    s.env[s.n_env++] = "SKIRMISH_RATE_PER_S=1";
    s.env[s.n_env++] = "SKIRMISH_RATE_BURST=4";
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "acme", 0, a), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "bolt", 0, b), 0);
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0);
    /* a second API process on the same stores shares the buckets */
    s2 = s;
    s2.port = it_free_port();
    snprintf(s2.name, sizeof(s2.name), "ratelimit2");
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s2), 0);

    CU_ASSERT_EQUAL_FATAL(call(&s, a, "GET", "/v1/jobs", NULL, &r), 0);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT_EQUAL(it_resp_header(&r, "RateLimit-Policy", v, sizeof(v)), 0);
    CU_ASSERT_STRING_EQUAL(v, "\"key\";q=4;w=4");
    CU_ASSERT_EQUAL(remaining(&r), 3);
    it_resp_free(&r);
    CU_ASSERT_EQUAL(status_of(&s2, a, "GET", "/v1/jobs", NULL), 200);
    CU_ASSERT_EQUAL(status_of(&s, a, "GET", "/v1/jobs", NULL), 200);
    CU_ASSERT_EQUAL_FATAL(call(&s2, a, "GET", "/v1/jobs", NULL, &r), 0);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT_EQUAL(remaining(&r), 0);
    it_resp_free(&r);
    /* the fifth request within the second: 429 with Retry-After and the headers */
    CU_ASSERT_EQUAL_FATAL(call(&s, a, "POST", "/v1/jobs", it_battle_doc(1000, 1), &r), 0);
    CU_ASSERT_EQUAL(r.status, 429);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "/problems/rate-limited"));
    CU_ASSERT_EQUAL(it_resp_header(&r, "Retry-After", v, sizeof(v)), 0);
    CU_ASSERT((int)strtol(v, NULL, 10) >= 1);
    CU_ASSERT_EQUAL(remaining(&r), 0);
    it_resp_free(&r);
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM jobs"), 0); /* nothing stored */
    /* another key has its own bucket; a token is back after a second */
    CU_ASSERT_EQUAL(status_of(&s2, b, "GET", "/v1/jobs", NULL), 200);
    it_sleep_ms(1100);
    CU_ASSERT_EQUAL(status_of(&s2, a, "GET", "/v1/jobs", NULL), 200);
    CU_ASSERT_EQUAL(it_api_stop(&s2), 0);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* The quota named in a 429 answer to submitting `doc`, or "" with the status. */
static int quota_of(const struct it_stack *s, const char *key, const char *doc, char q[32])
{
    struct it_resp r;
    int st;
    q[0] = '\0';
    if (call(s, key, "POST", "/v1/jobs", doc, &r))
        return 0;
    st = r.status;
    json_t *j = it_resp_json(&r);
    snprintf(q, 32, "%s", str(j, "quota"));
    json_decref(j);
    it_resp_free(&r);
    return st;
}

static void test_quotas(void)
{
    struct it_stack s;
    char admin[IT_KEY_LEN], a[IT_KEY_LEN], b[IT_KEY_LEN];
    char id[40], q[32];
    struct it_resp r;

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "quotas"), 0);
    s.env[s.n_env++] = "SKIRMISH_AUTH=on";
    s.env[s.n_env++] = "SKIRMISH_TENANT_MAX_JOB_UNITS=5000";
    s.env[s.n_env++] = "SKIRMISH_TENANT_MAX_ACTIVE=2";
    s.env[s.n_env++] = "SKIRMISH_TENANT_UNITS_PER_DAY=9000";
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "ops", 1, admin), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "acme", 0, a), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "bolt", 0, b), 0);
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0); /* no worker: jobs stay queued */

    /* a job larger than a tenant's job may be: 422, nothing stored */
    CU_ASSERT_EQUAL_FATAL(call(&s, a, "POST", "/v1/jobs", it_battle_doc(6000, 1), &r), 0);
    CU_ASSERT_EQUAL(r.status, 422);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "/problems/job-too-large"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "\"max_units\":5000"));
    it_resp_free(&r);
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM jobs"), 0);

    /* two queued jobs at most */
    CU_ASSERT_EQUAL(submit(&s, a, it_battle_doc(1000, 1), id), 202);
    CU_ASSERT_EQUAL(submit(&s, a, it_battle_doc(1000, 2), id), 202);
    CU_ASSERT_EQUAL_FATAL(call(&s, a, "POST", "/v1/jobs", it_battle_doc(1000, 3), &r), 0);
    CU_ASSERT_EQUAL(r.status, 429);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "\"quota\":\"active_jobs\""));
    {
        char v[16];
        CU_ASSERT_EQUAL(it_resp_header(&r, "Retry-After", v, sizeof(v)), 0);
    }
    it_resp_free(&r);
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM jobs WHERE tenant = 'acme'"), 2);
    /* a canceled job frees its place */
    {
        char path[96];
        snprintf(path, sizeof(path), "/v1/jobs/%s:cancel", id);
        CU_ASSERT_EQUAL(status_of(&s, a, "POST", path, NULL), 202);
    }
    CU_ASSERT_EQUAL(submit(&s, a, it_battle_doc(1000, 4), id), 202);

    /* units per day: 9000 for bolt (3000 of acme's count for acme only) */
    CU_ASSERT_EQUAL(submit(&s, b, it_battle_doc(5000, 1), id), 202);
    CU_ASSERT_EQUAL(quota_of(&s, b, it_battle_doc(4001, 2), q), 429);
    CU_ASSERT_STRING_EQUAL(q, "units_per_day");
    CU_ASSERT_EQUAL(submit(&s, b, it_battle_doc(4000, 3), id), 202);
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT sum(progress_total) FROM jobs WHERE tenant = 'bolt'"),
                    9000);
    /* the admin key is the operator: no quota */
    CU_ASSERT_EQUAL(submit(&s, admin, it_battle_doc(20000, 1), id), 202);
    CU_ASSERT_EQUAL(submit(&s, admin, it_battle_doc(20000, 2), id), 202);
    CU_ASSERT_EQUAL(submit(&s, admin, it_battle_doc(20000, 3), id), 202);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* The job resource `id` read with `key` (new reference, NULL when not 200). */
static json_t *job_as(const struct it_stack *s, const char *key, const char *id)
{
    char path[96];
    struct it_resp r;
    json_t *j = NULL;
    snprintf(path, sizeof(path), "/v1/jobs/%.40s", id);
    if (call(s, key, "GET", path, NULL, &r))
        return NULL;
    if (r.status == 200)
        j = it_resp_json(&r);
    it_resp_free(&r);
    return j;
}

static double cost_of(const json_t *job, const char *member)
{
    return json_number_value(json_object_get(json_object_get(job, "cost"), member));
}

/* CPU cost (docs/security.md, "CPU cost"): the API estimates a job at admission from a
 * sample of its games and refuses one above the tenant's per-job CPU with a 422 that states
 * the estimate; workers charge the CPU they spend to the job (its resource shows both) and
 * to the tenant's day, which, once spent, refuses submissions and retries with a 429. */
static void test_cpu_cost(void)
{
    struct it_stack s;
    char admin[IT_KEY_LEN], a[IT_KEY_LEN];
    char id[40], last[40], q[32], path[96];
    struct it_resp r;
    json_t *j;
    double est, spent = 0;
    long games;

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "cpucost"), 0);
    s.env[s.n_env++] = "SKIRMISH_AUTH=on";
    s.env[s.n_env++] = "SKIRMISH_TENANT_MAX_JOB_CPU_S=2";
    s.env[s.n_env++] = "SKIRMISH_TENANT_CPU_S_PER_DAY=1";
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "ops", 1, admin), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "acme", 0, a), 0);
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0);

    /* fifty million games cost far more than 2 CPU seconds: 422 stating the estimate */
    CU_ASSERT_EQUAL_FATAL(call(&s, a, "POST", "/v1/jobs", it_battle_doc(50000000, 1), &r), 0);
    CU_ASSERT_EQUAL(r.status, 422);
    j = it_resp_json(&r);
    CU_ASSERT_STRING_EQUAL(str(j, "type"), "/problems/job-too-costly");
    CU_ASSERT(json_number_value(json_object_get(j, "estimated_cpu_s")) > 2.0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "max_cpu_s")), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(str(j, "detail"), "CPU seconds"));
    json_decref(j);
    it_resp_free(&r);
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM jobs"), 0);
    /* the operator's key has no limit */
    CU_ASSERT_EQUAL(submit(&s, admin, it_battle_doc(50000000, 1), id), 202);
    snprintf(path, sizeof(path), "/v1/jobs/%s:cancel", id);
    CU_ASSERT_EQUAL(status_of(&s, admin, "POST", path, NULL), 202);

    /* a small job is admitted with its estimate; sized from it, jobs of about 0.9 CPU
     * seconds by the estimate run until the day's 1 s is spent (a worker on PoCL spends
     * more or less than the API's CPU backend, under the sanitizers less) */
    CU_ASSERT_EQUAL_FATAL(submit(&s, a, it_battle_doc(100000, 1), id), 202);
    j = job_as(&s, a, id);
    est = cost_of(j, "estimate_cpu_s");
    CU_ASSERT(est > 0 && est < 2);
    CU_ASSERT(cost_of(j, "cpu_s") == 0);
    json_decref(j);
    games = (long)(100000 * 0.9 / (est > 0 ? est : 1));
    games = games < 1000 ? 1000 : games > 20000000 ? 20000000 : games;
    CU_ASSERT_EQUAL_FATAL(it_worker_start(&s, 0), 0);
    CU_ASSERT_FATAL(wait_status(&s, a, id, "succeeded", 60000));
    snprintf(last, sizeof(last), "%s", id);
    j = job_as(&s, a, id);
    spent = cost_of(j, "cpu_s"); /* the day's so far */
    json_decref(j);
    for (int i = 0; i < 10 && spent < 1.0; i++) {
        CU_ASSERT_EQUAL_FATAL(submit(&s, a, it_battle_doc(games, 10 + i), last), 202);
        CU_ASSERT_FATAL(wait_status(&s, a, last, "succeeded", 120000));
        j = job_as(&s, a, last);
        fprintf(stderr, "\n    %ld games: estimate %.3f CPU s, charged %.3f ", games,
                cost_of(j, "estimate_cpu_s"), cost_of(j, "cpu_s"));
        CU_ASSERT(cost_of(j, "estimate_cpu_s") > 0 && cost_of(j, "estimate_cpu_s") <= 2);
        CU_ASSERT(cost_of(j, "cpu_s") > 0);
        spent += cost_of(j, "cpu_s");
        json_decref(j);
    }
    CU_ASSERT_FATAL(spent >= 1.0);
    /* the day's CPU is spent (the worker charges Redis after the row: wait for it) */
    {
        int st = 0;
        for (int t = 0; t < 50 && st != 429; t++) {
            st = quota_of(&s, a, it_battle_doc(1000, 99), q);
            if (st != 429)
                it_sleep_ms(100);
        }
        CU_ASSERT_EQUAL(st, 429);
        CU_ASSERT_STRING_EQUAL(q, "cpu_seconds_per_day");
        /* a retry is a submission: refused too */
        snprintf(path, sizeof(path), "/v1/jobs/%s:retry", last);
        CU_ASSERT_EQUAL(status_of(&s, a, "POST", path, NULL), 429);
    }
    /* /metrics shows the charged and estimated totals */
    CU_ASSERT_EQUAL_FATAL(call(&s, admin, "GET", "/metrics", NULL, &r), 0);
    CU_ASSERT_EQUAL(r.status, 200);
    {
        const char *c = strstr(r.body, "\nskirmish_cpu_seconds_total ");
        const char *e = strstr(r.body, "\nskirmish_cpu_estimate_seconds_total ");
        CU_ASSERT_PTR_NOT_NULL(c);
        CU_ASSERT_PTR_NOT_NULL(e);
        if (c && e) {
            CU_ASSERT(strtod(c + 28, NULL) >= spent - 0.01);
            CU_ASSERT(strtod(e + 37, NULL) > 1.5);
        }
    }
    it_resp_free(&r);
    it_stack_stop(&s);
}

/* POST /v1/jobs/{id}:retry with `key`; the new job's id into `out` on 202; the status, and
 * the quota named by a 429 into `q`. */
static int retry(const struct it_stack *s, const char *key, const char *id, char out[40],
                 char q[32])
{
    char path[96];
    struct it_resp r;
    int st;
    json_t *j;
    q[0] = '\0';
    snprintf(path, sizeof(path), "/v1/jobs/%s:retry", id);
    if (call(s, key, "POST", path, NULL, &r))
        return 0;
    st = r.status;
    j = it_resp_json(&r);
    if (st == 202)
        snprintf(out, 40, "%s", str(j, "id"));
    snprintf(q, 32, "%s", str(j, "quota"));
    json_decref(j);
    it_resp_free(&r);
    return st;
}

static void cancel(const struct it_stack *s, const char *key, const char *id)
{
    char path[96];
    snprintf(path, sizeof(path), "/v1/jobs/%s:cancel", id);
    CU_ASSERT_EQUAL(status_of(s, key, "POST", path, NULL), 202);
}

/* A retry makes a new job, so it is admitted as a submission is (issue: 12 retries of one
 * canceled job were all accepted against an active-jobs cap of 3, and the day's counter
 * never moved). */
static void test_retry_quotas(void)
{
    struct it_stack s;
    char admin[IT_KEY_LEN], a[IT_KEY_LEN];
    char first[40], r1[40], r2[40], r3[40], q[32];

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "retryquota"), 0);
    s.env[s.n_env++] = "SKIRMISH_AUTH=on";
    s.env[s.n_env++] = "SKIRMISH_TENANT_MAX_JOB_UNITS=5000";
    s.env[s.n_env++] = "SKIRMISH_TENANT_MAX_ACTIVE=2";
    s.env[s.n_env++] = "SKIRMISH_TENANT_UNITS_PER_DAY=5000";
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "ops", 1, admin), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "acme", 0, a), 0);
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0); /* no worker: jobs stay queued */

    CU_ASSERT_EQUAL_FATAL(submit(&s, a, it_battle_doc(1000, 1), first), 202);
    cancel(&s, a, first); /* final: it may be retried */
    /* active jobs: two at most, retries included */
    CU_ASSERT_EQUAL(retry(&s, a, first, r1, q), 202);
    CU_ASSERT_EQUAL(retry(&s, a, first, r2, q), 202);
    CU_ASSERT_EQUAL(retry(&s, a, first, r3, q), 429);
    CU_ASSERT_STRING_EQUAL(q, "active_jobs");
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM jobs WHERE tenant = 'acme'"), 3);
    /* units of the day: 1000 a job, 5000 in all; the refused retry gave its units back */
    cancel(&s, a, r1);
    cancel(&s, a, r2);
    CU_ASSERT_EQUAL(retry(&s, a, first, r1, q), 202); /* 4000 */
    CU_ASSERT_EQUAL(retry(&s, a, first, r2, q), 202); /* 5000 */
    cancel(&s, a, r1);
    cancel(&s, a, r2);
    CU_ASSERT_EQUAL(retry(&s, a, first, r3, q), 429);
    CU_ASSERT_STRING_EQUAL(q, "units_per_day");
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM jobs WHERE tenant = 'acme'"), 5);
    /* the admin key is the operator: no quota on its retries either */
    CU_ASSERT_EQUAL(retry(&s, admin, first, r3, q), 202);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* Refused keys are limited per client address (issue: 285 401s a second from one address,
 * each a database query and a SHA-256): past the burst the address gets 429 without a
 * lookup, until the rate gives a token back. */
static void test_refused_keys_limited(void)
{
    struct it_stack s;
    char admin[IT_KEY_LEN];
    struct it_resp r;
    char v[16];

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "authfail"), 0);
    s.env[s.n_env++] = "SKIRMISH_AUTH=on";
    s.env[s.n_env++] = "SKIRMISH_AUTH_FAIL_BURST=5";
    s.env[s.n_env++] = "SKIRMISH_AUTH_FAIL_PER_S=1";
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "ops", 1, admin), 0);
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0);

    /* a valid key takes nothing from the budget */
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(status_of(&s, admin, "GET", "/v1/jobs", NULL), 200);
    for (int i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(status_of(&s, "sk_not_a_key", "GET", "/v1/jobs", NULL), 401);
    CU_ASSERT_EQUAL_FATAL(call(&s, "sk_not_a_key", "GET", "/v1/jobs", NULL, &r), 0);
    CU_ASSERT_EQUAL(r.status, 429);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "refused API keys"));
    CU_ASSERT_EQUAL(it_resp_header(&r, "Retry-After", v, sizeof(v)), 0);
    it_resp_free(&r);
    /* the address is held back whatever key it sends; a request without a key is not a
     * refused key (401 at once) and public routes need none */
    CU_ASSERT_EQUAL(status_of(&s, admin, "GET", "/v1/jobs", NULL), 429);
    CU_ASSERT_EQUAL(status_of(&s, NULL, "GET", "/v1/jobs", NULL), 401);
    CU_ASSERT_EQUAL(status_of(&s, NULL, "GET", "/healthz", NULL), 200);
    /* a second later a token is back */
    it_sleep_ms(1100);
    CU_ASSERT_EQUAL(status_of(&s, admin, "GET", "/v1/jobs", NULL), 200);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

static int connect_from(int port, int host);

/* The status of GET `path` sent with `key` (NULL: none) and X-Forwarded-For `xff` (NULL:
 * none) from 127.0.0.<host>; -1 when no answer came. */
static int status_from(const struct it_stack *s, int host, const char *key, const char *xff,
                       const char *path)
{
    char req[512], in[64];
    size_t got = 0;
    int status = -1;
    int fd = connect_from(s->port, host);
    int n = snprintf(req, sizeof(req),
                     "GET %s HTTP/1.1\r\nHost: t\r\n%s%s%s%s%s%sConnection: close\r\n\r\n", path,
                     key ? "Authorization: Bearer " : "", key ? key : "", key ? "\r\n" : "",
                     xff ? "X-Forwarded-For: " : "", xff ? xff : "", xff ? "\r\n" : "");
    if (fd < 0)
        return -1;
    if (send(fd, req, (size_t)n, MSG_NOSIGNAL) != n)
        goto out;
    while (got < sizeof(in) - 1) {
        struct pollfd p = {fd, POLLIN, 0};
        ssize_t k;
        if (poll(&p, 1, 5000) <= 0)
            break;
        k = recv(fd, in + got, sizeof(in) - 1 - got, 0);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    in[got] = '\0';
    if (got >= 12 && strncmp(in, "HTTP/1.1 ", 9) == 0)
        status = (in[9] - '0') * 100 + (in[10] - '0') * 10 + (in[11] - '0');
out:
    close(fd);
    return status;
}

/* SKIRMISH_TRUSTED_PROXIES: a request from a trusted peer (127.0.0.5) is limited per the
 * address its X-Forwarded-For names (the right-most it does not trust), one from any other
 * peer per its own address whatever it sends; a trusted peer is not capped per address
 * itself (it carries many clients), another one is. */
static void test_trusted_proxy(void)
{
    struct it_stack s;
    char admin[IT_KEY_LEN];
    int fds[5];
    const char *bad = "sk_not_a_key";

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "proxy"), 0);
    s.env[s.n_env++] = "SKIRMISH_AUTH=on";
    s.env[s.n_env++] = "SKIRMISH_AUTH_FAIL_BURST=3";
    s.env[s.n_env++] = "SKIRMISH_AUTH_FAIL_PER_S=1";
    s.env[s.n_env++] = "SKIRMISH_MAX_CONNECTIONS_PER_ADDR=4";
    s.env[s.n_env++] = "SKIRMISH_TRUSTED_PROXIES=127.0.0.5, 10.9.0.0/16";
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "ops", 1, admin), 0);
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0);

    /* through the proxy: client 198.51.100.1 spends its refused keys */
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(status_from(&s, 5, bad, "198.51.100.1", "/v1/jobs"), 401);
    CU_ASSERT_EQUAL(status_from(&s, 5, bad, "198.51.100.1", "/v1/jobs"), 429);
    /* what it writes left of the proxy's entry changes nothing; trusted hops are skipped */
    CU_ASSERT_EQUAL(status_from(&s, 5, bad, "6.6.6.6, 198.51.100.1", "/v1/jobs"), 429);
    CU_ASSERT_EQUAL(status_from(&s, 5, bad, "198.51.100.1, 10.9.3.4", "/v1/jobs"), 429);
    /* another client of the same proxy, and the proxy's own address, are not held back */
    CU_ASSERT_EQUAL(status_from(&s, 5, bad, "198.51.100.2", "/v1/jobs"), 401);
    CU_ASSERT_EQUAL(status_from(&s, 5, admin, "198.51.100.2", "/v1/jobs"), 200);
    CU_ASSERT_EQUAL(status_from(&s, 5, admin, NULL, "/v1/jobs"), 200);
    /* a header that cannot be read: the peer's address, its own budget */
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(status_from(&s, 5, bad, "not-an-address", "/v1/jobs"), 401);
    CU_ASSERT_EQUAL(status_from(&s, 5, bad, "not-an-address", "/v1/jobs"), 429);
    CU_ASSERT_EQUAL(status_from(&s, 5, admin, NULL, "/v1/jobs"), 429);
    CU_ASSERT_EQUAL(status_from(&s, 5, admin, "198.51.100.3", "/v1/jobs"), 200);

    /* an untrusted peer: its X-Forwarded-For is ignored */
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(status_from(&s, 6, bad, "198.51.100.9", "/v1/jobs"), 401);
    CU_ASSERT_EQUAL(status_from(&s, 6, bad, "198.51.100.10", "/v1/jobs"), 429);
    CU_ASSERT_EQUAL(status_from(&s, 6, admin, "198.51.100.11", "/v1/jobs"), 429);
    /* and 198.51.100.9 itself, through the proxy, was never counted */
    CU_ASSERT_EQUAL(status_from(&s, 5, admin, "198.51.100.9", "/v1/jobs"), 200);

    /* connections per address (4): the proxy's pass, another peer's fifth is refused */
    for (int i = 0; i < 5; i++)
        fds[i] = connect_from(s.port, 5);
    CU_ASSERT_EQUAL(status_from(&s, 5, NULL, "198.51.100.4", "/healthz"), 200);
    for (int i = 0; i < 5; i++)
        close(fds[i]);
    for (int i = 0; i < 4; i++)
        fds[i] = connect_from(s.port, 7);
    CU_ASSERT_EQUAL(status_from(&s, 7, NULL, NULL, "/healthz"), 429);
    for (int i = 0; i < 4; i++)
        close(fds[i]);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* Games a worker of stack `s` plays in about a second, measured with one job (its
 * result's elapsed_ms), or -1. */
static long games_per_second(const struct it_stack *s, const char *key)
{
    const long probe = 100000;
    char id[40], path[96];
    struct it_resp r;
    double ms = 0;

    if (submit(s, key, it_battle_doc(probe, 7), id) != 202 ||
        !wait_status(s, key, id, "succeeded", 120000))
        return -1;
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", id);
    if (call(s, key, "GET", path, NULL, &r))
        return -1;
    {
        json_t *j = it_resp_json(&r);
        ms = json_number_value(json_object_get(j, "elapsed_ms"));
        json_decref(j);
    }
    it_resp_free(&r);
    return ms > 0 ? (long)((double)probe * 1000.0 / ms) : -1;
}

static void test_fair_share(void)
{
    struct it_stack s;
    char a[IT_KEY_LEN], b[IT_KEY_LEN], admin[IT_KEY_LEN];
    char id[40], small[40];
    char large_doc[2048];
    long large;
    int accepted = 0;
    long long t0, dt;

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "fair"), 0);
    s.env[s.n_env++] = "SKIRMISH_AUTH=on";
    s.env[s.n_env++] = "SKIRMISH_TENANT_MAX_ACTIVE=5000";
    s.env[s.n_env++] = "SKIRMISH_TENANT_UNITS_PER_DAY=1000000000000";
    s.env[s.n_env++] = "SKIRMISH_SHARD_UNITS=0"; /* one job each, as large as it is */
    s.env[s.n_env++] = "SKIRMISH_RATE_PER_S=100000";
    s.env[s.n_env++] = "SKIRMISH_RATE_BURST=100000";
    s.env[s.n_env++] = "SKIRMISH_ENGINE_THREADS=1";
    s.env[s.n_env++] = "SKIRMISH_DEVICE=cpu";
    s.env[s.n_env++] = "SKIRMISH_ACCESS_LOG=0";
    /* Each of the 1,000 submissions probes its job's CPU cost: at the default 10 ms that is half a
     * minute of the API's CPU under ASan, which test_cpu_cost covers; here the order matters. */
    s.env[s.n_env++] = "SKIRMISH_COST_PROBE_MS=1";
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "ops", 1, admin), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "bulk", 0, a), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "small", 0, b), 0);
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0);
    CU_ASSERT_EQUAL_FATAL(it_worker_start(&s, 0), 0);
    CU_ASSERT_EQUAL_FATAL(it_worker_start(&s, 1), 0);
    large = games_per_second(&s, admin);
    CU_ASSERT_FATAL(large > 0);

    /* tenant "bulk": 1,000 jobs of about a second each (8 minutes of both workers), all
     * queued before a worker takes one: the workers are stopped (SIGSTOP) while they are
     * submitted, so that the API has the machine's cores to itself (with both workers
     * playing beside it, the submissions took 25 s of the test's 28 s on the 2-core VM) */
    CU_ASSERT_EQUAL(it_worker_signal(&s, 0, SIGSTOP, 0), 0);
    CU_ASSERT_EQUAL(it_worker_signal(&s, 1, SIGSTOP, 0), 0);
    snprintf(large_doc, sizeof(large_doc), "%s", it_battle_doc(large, 1));
    for (int i = 0; i < 1000; i++) {
        int st = submit(&s, a, large_doc, id);
        if (st != 202 && accepted == i)
            fprintf(stderr, "fair share: job %d of %ld games answered %d\n", i, large, st);
        accepted += st == 202;
    }
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM jobs WHERE tenant = 'bulk'"
                                 " AND status = 'queued'"),
                    1000);
    CU_ASSERT_EQUAL(it_worker_signal(&s, 0, SIGCONT, 0), 0);
    CU_ASSERT_EQUAL(it_worker_signal(&s, 1, SIGCONT, 0), 0);
    CU_ASSERT_EQUAL_FATAL(accepted, 1000);
    /* both workers busy with them */
    {
        int busy = 0;
        for (int i = 0; i < 400 && !busy; i++) {
            busy = sql_long(&s, "SELECT count(*) FROM jobs WHERE status = 'running'") == 2;
            it_sleep_ms(25);
        }
        CU_ASSERT(busy);
    }

    /* tenant "small": one small job, done within seconds, not after the 1,000 */
    t0 = mono_ms();
    CU_ASSERT_EQUAL_FATAL(submit(&s, b, it_battle_doc(200, 2), small), 202);
    CU_ASSERT(wait_status(&s, b, small, "succeeded", 20000));
    dt = mono_ms() - t0;
    fprintf(stderr,
            "fair share: a small job behind 1000 jobs of %ld games (~1 s each) finished "
            "in %lld ms\n",
            large, dt);
    CU_ASSERT(dt < 10000);
    /* B did not wait for the backlog: at most one job of A per worker started between B's
     * submission and B's start (A's turn, then B's), and most of A's 1,000 had not even
     * started when B finished (without turns B would have waited for all of them) */
    CU_ASSERT(sql_long(&s, "SELECT count(*) FROM jobs a, jobs b WHERE a.tenant = 'bulk'"
                           " AND b.tenant = 'small' AND a.started_at > b.created_at"
                           " AND a.started_at < b.started_at") <= 4);
    CU_ASSERT(sql_long(&s, "SELECT count(*) FROM jobs a, jobs b WHERE a.tenant = 'bulk'"
                           " AND b.tenant = 'small'"
                           " AND (a.started_at IS NULL OR a.started_at > b.finished_at)") > 500);
    /* let the workers go: the backlog is canceled (its entries drain as skipped claims) */
    CU_ASSERT_EQUAL(status_of(&s, admin, "POST", "/v1/jobs:cancel?status=queued&limit=10000", NULL),
                    200);
    it_stack_stop(&s);
}

/* EXISTS of Redis key `key` under the stack's prefix, through redis-cli; -1 on failure. */
static int redis_exists(const struct it_stack *s, const char *key)
{
    char cmd[512];
    char out[32] = "";
    FILE *p;
    snprintf(cmd, sizeof(cmd), "redis-cli -p %s EXISTS '%s:%s'", it_env("SKIRMISH_TEST_REDIS_PORT"),
             s->prefix, key);
    p = popen(cmd, "r");
    if (!p)
        return -1;
    if (!fgets(out, sizeof(out), p))
        out[0] = '\0';
    pclose(p);
    return out[0] ? (int)strtol(out, NULL, 10) : -1;
}

static void test_retention(void)
{
    struct it_stack s;
    char ids[4][40], queued[40], path[128], key[96];
    char h[64];
    struct it_resp r;

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "retention"), 0);
    s.env[s.n_env++] = "SKIRMISH_RETENTION_S=3";
    s.env[s.n_env++] = "SKIRMISH_RETENTION_EVERY_MS=300";
    s.env[s.n_env++] = "SKIRMISH_RETENTION_BATCH=2"; /* several batches per sweep */
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0);      /* keys off (loopback): every caller admin */
    CU_ASSERT_EQUAL_FATAL(it_worker_start(&s, 0), 0);
    for (int i = 0; i < 4; i++) {
        snprintf(h, sizeof(h), "Idempotency-Key: \"ret-%d\"\r\n", i);
        CU_ASSERT_EQUAL_FATAL(it_http_ex(&s, "POST", "/v1/jobs", h, "application/json",
                                         it_battle_doc(2000, i + 1),
                                         strlen(it_battle_doc(2000, i + 1)), &r),
                              0);
        json_t *j = it_resp_json(&r);
        snprintf(ids[i], sizeof(ids[i]), "%s", str(j, "id"));
        json_decref(j);
        it_resp_free(&r);
    }
    for (int i = 0; i < 4; i++)
        CU_ASSERT(wait_status(&s, NULL, ids[i], "succeeded", 60000));
    snprintf(key, sizeof(key), "progress:%s", ids[0]);
    CU_ASSERT_EQUAL(redis_exists(&s, key), 1);
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM idempotency_keys"), 4);
    /* a job that is not final is never swept: queued behind a stopped worker */
    CU_ASSERT_EQUAL(it_worker_signal(&s, 0, SIGTERM, 1) >= 0, 1);
    CU_ASSERT_EQUAL_FATAL(submit(&s, NULL, it_battle_doc(1000, 9), queued), 202);
    /* the four final jobs go once 3 s old, with their keys and progress hashes */
    for (int i = 0; i < 100 && sql_long(&s, "SELECT count(*) FROM jobs") > 1; i++)
        it_sleep_ms(100);
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM jobs"), 1);
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM idempotency_keys"), 0);
    CU_ASSERT_EQUAL(redis_exists(&s, key), 0);
    snprintf(path, sizeof(path), "/v1/jobs/%s", ids[0]);
    CU_ASSERT_EQUAL(status_of(&s, NULL, "GET", path, NULL), 404); /* not from a cache */
    snprintf(path, sizeof(path), "/v1/jobs/%s/result", ids[1]);
    CU_ASSERT_EQUAL(status_of(&s, NULL, "GET", path, NULL), 404);
    /* the queued job outlives sweeps made while it was older than the retention: wait
     * until it is 3.6 s old, 3 s and two sweeps (it was made before the others went: this
     * is shorter than the fixed 3.5 s after them it waited before, and checks the same) */
    for (int i = 0; i < 60 && sql_long(&s, "SELECT (extract(epoch FROM now() - created_at) * 1000)"
                                           "::bigint FROM jobs WHERE status = 'queued'") < 3600;
         i++)
        it_sleep_ms(100);
    CU_ASSERT(sql_long(&s, "SELECT (extract(epoch FROM now() - created_at) * 1000)::bigint"
                           " FROM jobs WHERE status = 'queued'") >= 3600);
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM jobs WHERE status = 'queued'"), 1);

    /* DELETE: 409 while queued; canceled, it is deleted; then 404 */
    snprintf(path, sizeof(path), "/v1/jobs/%s", queued);
    CU_ASSERT_EQUAL(status_of(&s, NULL, "DELETE", path, NULL), 409);
    snprintf(path, sizeof(path), "/v1/jobs/%s:cancel", queued);
    CU_ASSERT_EQUAL(status_of(&s, NULL, "POST", path, NULL), 202);
    snprintf(path, sizeof(path), "/v1/jobs/%s", queued);
    CU_ASSERT_EQUAL(status_of(&s, NULL, "DELETE", path, NULL), 204);
    CU_ASSERT_EQUAL(status_of(&s, NULL, "GET", path, NULL), 404);
    CU_ASSERT_EQUAL(status_of(&s, NULL, "DELETE", path, NULL), 404);
    CU_ASSERT_EQUAL(sql_long(&s, "SELECT count(*) FROM jobs"), 0);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* Starts the API with the stack's settings and returns its exit code within 30 s, or -2
 * when it was still serving (then it is stopped). */
static int start_exit(struct it_stack *s)
{
    pid_t pid = it_api_command(s, NULL);
    for (int i = 0; i < 300 && it_alive(pid); i++)
        it_sleep_ms(100);
    if (it_alive(pid)) {
        kill(pid, SIGTERM);
        it_wait_exit(pid);
        return -2;
    }
    return it_wait_exit(pid);
}

static void test_refuse_open_address(void)
{
    struct it_stack s;
    char admin[IT_KEY_LEN];

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "openaddr"), 0);
    s.env[s.n_env++] = "SKIRMISH_HTTP_ADDR=0.0.0.0";
    s.env[s.n_env++] = "SKIRMISH_AUTH=off";
    CU_ASSERT_NOT_EQUAL(start_exit(&s), -2); /* keys off on an open address: refused */
    s.n_env--;                               /* auto: keys required, none made yet */
    CU_ASSERT_NOT_EQUAL(start_exit(&s), -2);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "ops", 1, admin), 0);
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0); /* with a key it serves */
    CU_ASSERT_EQUAL(status_of(&s, NULL, "GET", "/v1/jobs", NULL), 401);
    CU_ASSERT_EQUAL(status_of(&s, admin, "GET", "/v1/jobs", NULL), 200);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* ===== Waiters: revocation and slots per tenant ===== */

/* A connection to the API on `port` from loopback address 127.0.0.<host>, or -1. All of
 * 127.0.0.0/8 is the loopback interface, so each host is a client address of its own for
 * the API's per-address caps. */
static int connect_from(int port, int host)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(0x7f000000u | (uint32_t)host);
    if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
        goto fail;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
        goto fail;
    return fd;
fail:
    close(fd);
    return -1;
}

/* A request left open (an event stream or a long poll) and what it read. */
struct waiter {
    int fd;
    const char *what;   /* for messages */
    struct sk_buf in;   /* everything read, head included */
    long long ended_ms; /* when the API closed it (mono_ms); 0 while open */
};

/* Sends GET `path` with `key` from 127.0.0.<host>; 0 when sent. */
static int waiter_open(struct waiter *w, const struct it_stack *s, int host, const char *key,
                       const char *path, const char *what)
{
    char req[512];
    int n = snprintf(req, sizeof(req),
                     "GET %s HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\n\r\n", path, key);
    memset(w, 0, sizeof(*w));
    sk_buf_init(&w->in, 0);
    w->what = what;
    w->fd = connect_from(s->port, host);
    if (w->fd < 0)
        return -1;
    return send(w->fd, req, (size_t)n, MSG_NOSIGNAL) == n ? 0 : -1;
}

/* Reads what arrives until `text` was read (1), the API closed the connection (0; ended_ms
 * set) or `ms` passed (-1). `text` NULL waits for the close alone. */
static int waiter_until(struct waiter *w, const char *text, long ms)
{
    long long end = mono_ms() + ms;
    for (;;) {
        struct pollfd p = {w->fd, POLLIN, 0};
        long long left = end - mono_ms();
        char chunk[4096];
        ssize_t k;
        if (text && w->in.p && strstr(w->in.p, text))
            return 1;
        if (w->ended_ms)
            return 0;
        if (left <= 0 || poll(&p, 1, (int)left) <= 0)
            return -1;
        k = recv(w->fd, chunk, sizeof(chunk), 0);
        if (k <= 0) {
            w->ended_ms = mono_ms();
            continue;
        }
        (void)sk_buf_add(&w->in, chunk, (size_t)k);
    }
}

/* The status of the answer read so far, 0 before its status line. */
static int waiter_status(const struct waiter *w)
{
    int st = 0;
    if (!w->in.p || sscanf(w->in.p, "HTTP/1.1 %d", &st) != 1)
        return 0;
    return st;
}

/* Opens a waiter and reads its answer's head; returns the status (0: none within 5 s). */
static int waiter_head(struct waiter *w, const struct it_stack *s, int host, const char *key,
                       const char *path, const char *what)
{
    if (waiter_open(w, s, host, key, path, what) || waiter_until(w, "\r\n\r\n", 5000) != 1)
        return 0;
    return waiter_status(w);
}

static void waiter_close(struct waiter *w)
{
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
    sk_buf_release(&w->in);
}

/* The API's skirmish_waiters_open gauge (read with admin key `key`), -1 when unreadable. */
static long open_waiters(const struct it_stack *s, const char *key)
{
    static const char name[] = "\nskirmish_waiters_open ";
    struct it_resp r;
    const char *p;
    long n = -1;
    if (call(s, key, "GET", "/metrics", NULL, &r))
        return -1;
    p = r.body ? strstr(r.body, name) : NULL;
    if (p)
        n = strtol(p + sizeof(name) - 1, NULL, 10);
    it_resp_free(&r);
    return n;
}

/* Waits until the API holds `n` waiters open (a long poll has no head to read); 1 when it
 * did within 10 s. */
static int await_open(const struct it_stack *s, const char *key, long n)
{
    long long end = mono_ms() + 10000;
    while (mono_ms() < end) {
        if (open_waiters(s, key) == n)
            return 1;
        it_sleep_ms(50);
    }
    return 0;
}

/* Waits for each of `n` waiters to be ended by the API (at most 3 s from `t0`) and checks
 * how: a stream's last event is `revoked` with the 401 problem, then its last chunk; a long
 * poll is answered 401. The connection may stay open for the next request (kept alive): the
 * end is the last chunk or the answer's body. Returns the latest end, in ms after `t0` (-1
 * when one did not end). */
static long ended_by_revocation(struct waiter *w, size_t n, long long t0, const char *how)
{
    long worst = 0;
    for (size_t i = 0; i < n; i++) {
        long left = (long)(t0 + 3000 - mono_ms());
        int stream = strstr(w[i].what, "stream") != NULL;
        /* the chunked stream's last chunk; the problem document's end */
        if (waiter_until(&w[i], stream ? "\r\n0\r\n\r\n" : "}", left > 0 ? left : 0) == 1)
            w[i].ended_ms = mono_ms();
        CU_ASSERT(w[i].ended_ms != 0);
        if (!w[i].ended_ms) {
            fprintf(stderr, "\n%s: %s still open 3 s after the revocation\n", how, w[i].what);
            worst = -1;
            continue;
        }
        fprintf(stderr, "\n%s: %s ended %lld ms after the revocation began", how, w[i].what,
                w[i].ended_ms - t0);
        if (worst >= 0 && w[i].ended_ms - t0 > worst)
            worst = (long)(w[i].ended_ms - t0);
        if (stream) {
            CU_ASSERT_EQUAL(waiter_status(&w[i]), 200);
            CU_ASSERT_PTR_NOT_NULL(strstr(w[i].in.p, "event: revoked\ndata: {"));
            CU_ASSERT_PTR_NOT_NULL(strstr(w[i].in.p, "/problems/unauthorized"));
        } else {
            CU_ASSERT_EQUAL(waiter_status(&w[i]), 401);
            CU_ASSERT_PTR_NOT_NULL(w[i].in.p ? strstr(w[i].in.p, "/problems/unauthorized") : NULL);
        }
    }
    fprintf(stderr, "\n");
    return worst;
}

/* Row 3 of issue 46: a revoked key's event streams (of every job, and of one job) and long
 * polls end within a second on every API process: revoked through DELETE /v1/keys/{id} on
 * one API (announced through Redis), with `skirmish-api keys revoke`, and in PostgreSQL
 * alone (no announcement: each API's periodic check of its waiters' keys finds it). A
 * stream of a key that stays valid goes on and sees a job made afterwards. */
static void test_revocation_ends_waiters(void)
{
    struct it_stack s, s2;
    const struct it_stack *api[2] = {&s, &s2};
    char ops[IT_KEY_LEN], victim[IT_KEY_LEN], acme[IT_KEY_LEN], acme2[IT_KEY_LEN];
    char acme3[IT_KEY_LEN];
    char job[40], later[40], path[160], kid[17], sql[160];
    struct waiter w[6], control, t[4];
    long long t0, t1;
    long worst;

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "revoke"), 0);
    s.env[s.n_env++] = "SKIRMISH_AUTH=on";
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "ops", 1, ops), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "ops", 1, victim), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "acme", 0, acme), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "acme", 0, acme2), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "acme", 0, acme3), 0);
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0);
    s2 = s;
    s2.port = it_free_port();
    snprintf(s2.name, sizeof(s2.name), "revoke2");
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s2), 0);
    /* no worker: the job stays queued, so its streams and long polls wait */
    CU_ASSERT_EQUAL_FATAL(submit(&s, acme, it_battle_doc(1000, 1), job), 202);

    /* the admin key's stream of every job, stream of the job and long poll, on each API */
    for (int a = 0; a < 2; a++) {
        struct waiter *x = &w[3 * a];
        CU_ASSERT_EQUAL(waiter_head(&x[0], api[a], 2, victim, "/v1/events", "stream of every job"),
                        200);
        snprintf(path, sizeof(path), "/v1/jobs/%s/events", job);
        CU_ASSERT_EQUAL(waiter_head(&x[1], api[a], 2, victim, path, "stream of the job"), 200);
        snprintf(path, sizeof(path), "/v1/jobs/%s?wait=60", job);
        CU_ASSERT_EQUAL(waiter_open(&x[2], api[a], 2, victim, path, "long poll"), 0);
    }
    CU_ASSERT_EQUAL(waiter_head(&control, &s2, 3, ops, "/v1/events", "another key's stream"), 200);
    CU_ASSERT(await_open(&s, ops, 3));
    CU_ASSERT(await_open(&s2, ops, 4));

    key_id(victim, kid);
    snprintf(path, sizeof(path), "/v1/keys/%s", kid);
    t0 = mono_ms();
    CU_ASSERT_EQUAL(status_of(&s, ops, "DELETE", path, NULL), 204);
    t1 = mono_ms();
    fprintf(stderr, "\nrevoke: DELETE /v1/keys/{id} answered in %lld ms", t1 - t0);
    worst = ended_by_revocation(w, 6, t0, "revoke (DELETE on API 1)");
    CU_ASSERT(worst >= 0 && worst <= 1000);
    for (int i = 0; i < 6; i++)
        waiter_close(&w[i]);
    /* the other key's stream goes on: it sees a job made afterwards, the revoked key not */
    CU_ASSERT_EQUAL(status_of(&s2, victim, "GET", "/v1/events", NULL), 401);
    CU_ASSERT_EQUAL_FATAL(submit(&s, acme, it_battle_doc(1000, 2), later), 202);
    CU_ASSERT_EQUAL(waiter_until(&control, later, 5000), 1);
    CU_ASSERT_EQUAL(control.ended_ms, 0);

    /* a tenant key revoked by the command: its stream and long poll on both APIs */
    for (int a = 0; a < 2; a++) {
        snprintf(path, sizeof(path), "/v1/jobs/%s/events", job);
        CU_ASSERT_EQUAL(waiter_head(&t[2 * a], api[a], 4, acme2, path, "stream of the job"), 200);
        snprintf(path, sizeof(path), "/v1/jobs/%s?wait=60", job);
        CU_ASSERT_EQUAL(waiter_open(&t[2 * a + 1], api[a], 4, acme2, path, "long poll"), 0);
    }
    CU_ASSERT(await_open(&s, ops, 2));
    CU_ASSERT(await_open(&s2, ops, 3));
    key_id(acme2, kid);
    t0 = mono_ms();
    CU_ASSERT_EQUAL(it_key_revoke(&s, kid), 0);
    t1 = mono_ms();
    fprintf(stderr, "\nrevoke: `skirmish-api keys revoke` ran %lld ms", t1 - t0);
    worst = ended_by_revocation(t, 4, t0, "revoke (command)");
    CU_ASSERT(worst >= 0 && worst <= t1 - t0 + 1000);
    for (int i = 0; i < 4; i++)
        waiter_close(&t[i]);

    /* revoked in PostgreSQL alone, as when Redis lost the announcement: the APIs' periodic
     * check of their waiters' keys ends them */
    for (int a = 0; a < 2; a++) {
        snprintf(path, sizeof(path), "/v1/jobs/%s/events", job);
        CU_ASSERT_EQUAL(waiter_head(&t[2 * a], api[a], 5, acme3, path, "stream of the job"), 200);
        snprintf(path, sizeof(path), "/v1/jobs/%s?wait=60", job);
        CU_ASSERT_EQUAL(waiter_open(&t[2 * a + 1], api[a], 5, acme3, path, "long poll"), 0);
    }
    CU_ASSERT(await_open(&s, ops, 2));
    CU_ASSERT(await_open(&s2, ops, 3));
    key_id(acme3, kid);
    snprintf(sql, sizeof(sql), "UPDATE api_keys SET revoked_at = now() WHERE id = '%s'", kid);
    t0 = mono_ms();
    CU_ASSERT_EQUAL(it_sql(&s, sql, path, sizeof(path)), 0);
    worst = ended_by_revocation(t, 4, t0, "revoke (database only)");
    CU_ASSERT(worst >= 0 && worst <= 1000);
    for (int i = 0; i < 4; i++)
        waiter_close(&t[i]);

    /* acme's own key was never revoked: its job is still its own */
    snprintf(path, sizeof(path), "/v1/jobs/%s", job);
    CU_ASSERT_EQUAL(status_of(&s2, acme, "GET", path, NULL), 200);
    waiter_close(&control);
    CU_ASSERT_EQUAL(it_api_stop(&s2), 0);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* The status and problem of an answer read by a waiter: its type into `type`, its `quota`
 * into `quota`. */
static int refused_as(struct waiter *w, char type[64], char quota[32])
{
    const char *body;
    json_t *j;
    type[0] = quota[0] = '\0';
    if (waiter_until(w, "}", 5000) != 1)
        return waiter_status(w);
    body = strstr(w->in.p, "\r\n\r\n");
    j = body ? json_loads(body + 4, JSON_DISABLE_EOF_CHECK, NULL) : NULL;
    snprintf(type, 64, "%s", str(j, "type"));
    snprintf(quota, 32, "%s", str(j, "quota"));
    json_decref(j);
    return waiter_status(w);
}

/* Row 5 of issue 46: long polls and event streams are capped per tenant (all its keys, from
 * any address), so that one tenant cannot take every slot of an API process: past the cap
 * 429 quota-exceeded (quota "waiters") with Retry-After, while another tenant is served;
 * an admin key counts against its own tenant; a slot given back is free again. */
static void test_tenant_waiter_slots(void)
{
    struct it_stack s;
    char ops[IT_KEY_LEN], acme[IT_KEY_LEN], acme2[IT_KEY_LEN], bolt[IT_KEY_LEN];
    char ja[40], jb[40], stream_a[160], poll_a[160], path[160], type[64], quota[32], v[32];
    struct waiter a[3], x, b, adm[3];
    struct it_resp r;
    json_t *j;
    long long t0;
    int st;

    CU_ASSERT_EQUAL_FATAL(it_stack_init(&s, "tenantslots"), 0);
    s.env[s.n_env++] = "SKIRMISH_AUTH=on";
    s.env[s.n_env++] = "SKIRMISH_MAX_WAITERS=8";
    s.env[s.n_env++] = "SKIRMISH_MAX_WAITERS_PER_ADDR=2";
    s.env[s.n_env++] = "SKIRMISH_MAX_WAITERS_PER_TENANT=3";
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "ops", 1, ops), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "acme", 0, acme), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "acme", 0, acme2), 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "bolt", 0, bolt), 0);
    CU_ASSERT_EQUAL_FATAL(it_api_start(&s), 0);
    CU_ASSERT_EQUAL_FATAL(submit(&s, acme, it_battle_doc(1000, 1), ja), 202);
    CU_ASSERT_EQUAL_FATAL(submit(&s, bolt, it_battle_doc(1000, 2), jb), 202);
    snprintf(stream_a, sizeof(stream_a), "/v1/jobs/%s/events", ja);
    snprintf(poll_a, sizeof(poll_a), "/v1/jobs/%s?wait=30", ja);

    /* acme's three, from two addresses and with two of its keys */
    CU_ASSERT_EQUAL(waiter_head(&a[0], &s, 2, acme, stream_a, "acme stream"), 200);
    CU_ASSERT_EQUAL(waiter_open(&a[1], &s, 2, acme, poll_a, "acme long poll"), 0);
    CU_ASSERT_EQUAL(waiter_head(&a[2], &s, 3, acme2, stream_a, "acme stream"), 200);
    CU_ASSERT(await_open(&s, ops, 3));
    /* a fourth, from an address of no waiter: 429 naming the limit, with Retry-After */
    snprintf(path, sizeof(path), "/v1/jobs/%s?wait=5", ja);
    CU_ASSERT_EQUAL_FATAL(call(&s, acme, "GET", path, NULL, &r), 0);
    CU_ASSERT_EQUAL(r.status, 429);
    j = it_resp_json(&r);
    CU_ASSERT_STRING_EQUAL(str(j, "type"), "/problems/quota-exceeded");
    CU_ASSERT_STRING_EQUAL(str(j, "quota"), "waiters");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "limit")), 3);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "used")), 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(str(j, "detail"), "SKIRMISH_MAX_WAITERS_PER_TENANT"));
    json_decref(j);
    CU_ASSERT_EQUAL(it_resp_header(&r, "Retry-After", v, sizeof(v)), 0);
    CU_ASSERT_STRING_EQUAL(v, "5");
    it_resp_free(&r);
    /* the same from three more addresses, each under its own cap: every one refused (before,
     * acme took all 8 slots of the process this way and bolt got 503) */
    for (int host = 4; host <= 6; host++) {
        for (int k = 0; k < 2; k++) {
            CU_ASSERT_EQUAL(waiter_open(&x, &s, host, k ? acme2 : acme, stream_a, "acme"), 0);
            st = refused_as(&x, type, quota);
            CU_ASSERT_EQUAL(st, 429);
            CU_ASSERT_STRING_EQUAL(type, "/problems/quota-exceeded");
            CU_ASSERT_STRING_EQUAL(quota, "waiters");
            waiter_close(&x);
        }
    }
    /* another tenant is served */
    snprintf(path, sizeof(path), "/v1/jobs/%s/events", jb);
    CU_ASSERT_EQUAL(waiter_head(&b, &s, 7, bolt, path, "bolt stream"), 200);
    /* an admin key counts against its own tenant, ops */
    CU_ASSERT_EQUAL(waiter_head(&adm[0], &s, 8, ops, "/v1/events", "ops"), 200);
    CU_ASSERT_EQUAL(waiter_head(&adm[1], &s, 8, ops, "/v1/events", "ops"), 200);
    CU_ASSERT_EQUAL(waiter_head(&adm[2], &s, 9, ops, "/v1/events", "ops"), 200);
    CU_ASSERT_EQUAL(waiter_open(&x, &s, 9, ops, "/v1/events", "ops"), 0);
    CU_ASSERT_EQUAL(refused_as(&x, type, quota), 429);
    CU_ASSERT_STRING_EQUAL(quota, "waiters");
    waiter_close(&x);
    CU_ASSERT_EQUAL(open_waiters(&s, ops), 7);
    /* one of acme's streams closed by its client: acme may open one again within a second */
    waiter_close(&a[0]);
    t0 = mono_ms();
    for (st = 0; st != 200 && mono_ms() - t0 < 3000;) {
        st = waiter_head(&x, &s, 10, acme, stream_a, "acme");
        if (st != 200) {
            waiter_close(&x);
            it_sleep_ms(50);
        }
    }
    CU_ASSERT_EQUAL(st, 200);
    fprintf(stderr, "\ntenant slots: a closed stream's slot was the tenant's again after %lld ms\n",
            mono_ms() - t0);
    CU_ASSERT(mono_ms() - t0 < 1500);
    waiter_close(&x);
    for (int i = 1; i < 3; i++)
        waiter_close(&a[i]);
    waiter_close(&b);
    for (int i = 0; i < 3; i++)
        waiter_close(&adm[i]);
    CU_ASSERT(await_open(&s, ops, 0));
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

static CU_TestInfo waiter_tests[] = {
    {"a revoked key's event streams and long polls end within a second on two API processes",
     test_revocation_ends_waiters},
    {"long polls and event streams capped per tenant: 429, others served, admin counted",
     test_tenant_waiter_slots},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo tenant_tests[] = {
    {"tenant isolation on every job route, admin scope, keys, revocation at once",
     test_isolation_revocation},
    {"rate limit: token bucket shared by two API processes, 429 and RateLimit headers",
     test_rate_limit},
    {"quotas: job size 422, queued+running and units per day 429, admin unlimited", test_quotas},
    {"CPU cost: estimate at admission, 422 above a job's CPU, charged, the day's CPU 429",
     test_cpu_cost},
    {"a retry is admitted as a submission: active jobs and units of the day", test_retry_quotas},
    CU_TEST_INFO_NULL,
};

/* Apart from the tests above so that ctest runs the two halves side by side (make test's
 * longest suite otherwise). */
static CU_TestInfo edge_tests[] = {
    {"refused keys limited per client address: 429 without a lookup", test_refused_keys_limited},
    {"trusted proxies: X-Forwarded-For read from them only, right-most untrusted entry",
     test_trusted_proxy},
    {"fair share: a small job behind another tenant's 1,000 large ones", test_fair_share},
    {"retention: batched sweep of final jobs, keys and progress; DELETE", test_retention},
    {"an open address without keys is refused at start", test_refuse_open_address},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_tenants_suites[] = {
    {"tenants", setup, NULL, NULL, NULL, tenant_tests},
    {"tenants_edges", setup, NULL, NULL, NULL, edge_tests},
    {"tenants_waiters", setup, NULL, NULL, NULL, waiter_tests},
    CU_SUITE_INFO_NULL,
};
