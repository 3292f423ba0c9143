/* SPDX-License-Identifier: MIT */
/* The API features for browsers and dashboards against real servers: Idempotency-Key
 * (replay, mismatch, expiry, oversized keys, concurrent requests making one job), ETag
 * and If-None-Match, Retry-After, long polls woken by Redis pub/sub or timing out, the
 * waiter bound, server-sent events (initial state, progress, final status, Last-Event-ID),
 * CORS, the catalogs, /openapi.json, /v1/stats with worker heartbeats and games per
 * second, and /metrics in the Prometheus text format. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "it_support.h"
#include "sk_mem.h"

static int setup(void)
{
    sk_mem_init_json();
    return 0;
}

static const char *str(const json_t *j, const char *k)
{
    const char *v = json_string_value(json_object_get(j, k));
    return v ? v : "";
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int post_key(const struct it_stack *s, const char *key, const char *doc, struct it_resp *r)
{
    char h[600];
    snprintf(h, sizeof(h), "Idempotency-Key: %s\r\n", key);
    return it_http_ex(s, "POST", "/v1/jobs", h, "application/json", doc, strlen(doc), r);
}

struct racer {
    const struct it_stack *s;
    const char *doc; /* made before the threads start: it_battle_doc's buffer is shared */
    char id[37];
    int status;
};

static void *race(void *arg)
{
    struct racer *x = arg;
    struct it_resp r;
    if (post_key(x->s, "\"race-1\"", x->doc, &r) == 0) {
        json_t *j = it_resp_json(&r);
        x->status = r.status;
        snprintf(x->id, sizeof(x->id), "%s", str(j, "id"));
        json_decref(j);
        it_resp_free(&r);
    }
    return NULL;
}

static void test_idempotency(void)
{
    struct it_stack s;
    struct it_resp r;
    json_t *j;
    char id[37];
    char loc[128];
    char rows[32];
    char big[400];
    char race_doc[1024];
    struct racer racers[8];
    pthread_t th[8];

    CU_ASSERT_FATAL(it_stack_init(&s, "idem") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0); /* no worker: jobs stay queued */

    CU_ASSERT_FATAL(post_key(&s, "\"order-17\"", it_battle_doc(10, 1), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202);
    j = it_resp_json(&r);
    snprintf(id, sizeof(id), "%s", str(j, "id"));
    json_decref(j);
    it_resp_free(&r);

    /* the same key and document, keys in another order and another spacing: the same job */
    {
        const char *same = "{\"seed\": 1, \"params\": {\"games\": 10,"
                           " \"defender\":{\"deck\":[{\"count\":4,\"card\":\"Brute\"}],"
                           "\"commander\":\"Test Commander\"},"
                           " \"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":"
                           "\"Grunt\",\"count\":5}]}}, \"kind\": \"battle\"}";
        CU_ASSERT_FATAL(post_key(&s, "order-17", same, &r) == 0); /* bare form of the key */
        CU_ASSERT_EQUAL(r.status, 200);
        j = it_resp_json(&r);
        CU_ASSERT_STRING_EQUAL(str(j, "id"), id);
        CU_ASSERT_EQUAL(it_resp_header(&r, "Location", loc, sizeof(loc)), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(loc, id));
        json_decref(j);
        it_resp_free(&r);
    }
    /* the same key, another document: 422 naming the header; no new job */
    CU_ASSERT_FATAL(post_key(&s, "\"order-17\"", it_battle_doc(11, 1), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 422);
    j = it_resp_json(&r);
    CU_ASSERT_STRING_EQUAL(str(j, "type"), "/problems/idempotency-key-reused");
    CU_ASSERT_STRING_EQUAL(str(json_array_get(json_object_get(j, "errors"), 0), "header"),
                           "Idempotency-Key");
    json_decref(j);
    it_resp_free(&r);
    CU_ASSERT_EQUAL(it_sql(&s, "SELECT count(*) FROM jobs", rows, sizeof(rows)), 0);
    CU_ASSERT_STRING_EQUAL(rows, "1");

    /* oversized, empty and non-ASCII keys: 400 problems naming the header, no row */
    memset(big, 'k', 256);
    big[256] = '\0';
    {
        const char *bad[] = {big, "\"\"", "caf\xc3\xa9"};
        for (int i = 0; i < 3; i++) {
            CU_ASSERT_FATAL(post_key(&s, bad[i], it_battle_doc(10, 1), &r) == 0);
            CU_ASSERT_EQUAL(r.status, 400);
            j = it_resp_json(&r);
            CU_ASSERT_STRING_EQUAL(str(j, "type"), "/problems/invalid-header");
            CU_ASSERT_STRING_EQUAL(str(json_array_get(json_object_get(j, "errors"), 0), "header"),
                                   "Idempotency-Key");
            json_decref(j);
            it_resp_free(&r);
        }
    }
    big[255] = '\0'; /* 255 characters is allowed */
    CU_ASSERT_FATAL(post_key(&s, big, it_battle_doc(10, 1), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202);
    it_resp_free(&r);
    CU_ASSERT_EQUAL(it_sql(&s, "SELECT count(*) FROM jobs", rows, sizeof(rows)), 0);
    CU_ASSERT_STRING_EQUAL(rows, "2");

    /* eight concurrent requests with one key make exactly one job */
    snprintf(race_doc, sizeof(race_doc), "%s", it_battle_doc(10, 5));
    for (int i = 0; i < 8; i++) {
        memset(&racers[i], 0, sizeof(racers[i]));
        racers[i].s = &s;
        racers[i].doc = race_doc;
        pthread_create(&th[i], NULL, race, &racers[i]);
    }
    for (int i = 0; i < 8; i++)
        pthread_join(th[i], NULL);
    {
        int created = 0;
        for (int i = 0; i < 8; i++) {
            CU_ASSERT(racers[i].status == 202 || racers[i].status == 200);
            created += racers[i].status == 202;
            CU_ASSERT_STRING_EQUAL(racers[i].id, racers[0].id);
        }
        CU_ASSERT_EQUAL(created, 1);
    }
    CU_ASSERT_EQUAL(it_sql(&s, "SELECT count(*) FROM jobs", rows, sizeof(rows)), 0);
    CU_ASSERT_STRING_EQUAL(rows, "3");

    /* a key older than SKIRMISH_IDEMPOTENCY_TTL_S (24 h) is forgotten: a new job */
    CU_ASSERT_EQUAL(it_sql(&s,
                           "UPDATE idempotency_keys SET created_at = now() - interval '86401 "
                           "seconds' WHERE key = 'order-17'",
                           NULL, 0),
                    0);
    CU_ASSERT_FATAL(post_key(&s, "\"order-17\"", it_battle_doc(11, 1), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202);
    j = it_resp_json(&r);
    CU_ASSERT_STRING_NOT_EQUAL(str(j, "id"), id);
    json_decref(j);
    it_resp_free(&r);
    it_stack_stop(&s);
}

struct delayed {
    const struct it_stack *s;
    char path[128];
    long delay_ms;
};

static void *post_later(void *arg)
{
    struct delayed *d = arg;
    struct it_resp r;
    it_sleep_ms(d->delay_ms);
    if (it_http(d->s, "POST", d->path, NULL, NULL, 0, &r) == 0)
        it_resp_free(&r);
    return NULL;
}

static void test_etag_long_poll(void)
{
    struct it_stack s;
    struct it_resp r;
    char id[37];
    char path[160];
    char etag[64], etag2[64];
    char hdr[128];
    char ra[16];
    long long t0;
    json_t *j;
    pthread_t th;
    struct delayed d;

    CU_ASSERT_FATAL(it_stack_init(&s, "poll") == 0);
    s.env[s.n_env++] = "SKIRMISH_CACHE_ENTRIES=0";
    CU_ASSERT_FATAL(it_api_start(&s) == 0); /* no worker: the job stays queued */
    CU_ASSERT_FATAL(it_http(&s, "POST", "/v1/jobs", "application/json", it_battle_doc(10, 3),
                            strlen(it_battle_doc(10, 3)), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202);
    CU_ASSERT_EQUAL(it_resp_header(&r, "Retry-After", ra, sizeof(ra)), 0);
    CU_ASSERT_STRING_EQUAL(ra, "1");
    CU_ASSERT_EQUAL(it_resp_header(&r, "ETag", etag, sizeof(etag)), 0);
    j = it_resp_json(&r);
    snprintf(id, sizeof(id), "%s", str(j, "id"));
    json_decref(j);
    it_resp_free(&r);

    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT_EQUAL(it_resp_header(&r, "ETag", etag2, sizeof(etag2)), 0);
    CU_ASSERT_STRING_EQUAL(etag, etag2); /* nothing changed since the 202 */
    CU_ASSERT_EQUAL(it_resp_header(&r, "Retry-After", ra, sizeof(ra)), 0); /* queued */
    it_resp_free(&r);

    snprintf(hdr, sizeof(hdr), "If-None-Match: %s\r\n", etag);
    CU_ASSERT_FATAL(it_http_ex(&s, "GET", path, hdr, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 304);
    CU_ASSERT_EQUAL(r.body_len, 0);
    it_resp_free(&r);
    CU_ASSERT_FATAL(it_http_ex(&s, "GET", path, "If-None-Match: \"0000000000000000\"\r\n", NULL,
                               NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    it_resp_free(&r);

    /* wait=1 on a job that does not change: answered after about a second, 304 */
    snprintf(path, sizeof(path), "/v1/jobs/%s?wait=1", id);
    t0 = now_ms();
    CU_ASSERT_FATAL(it_http_ex(&s, "GET", path, hdr, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 304);
    CU_ASSERT(now_ms() - t0 >= 900 && now_ms() - t0 < 5000);
    it_resp_free(&r);
    /* without If-None-Match: the job as it is, after the timeout */
    t0 = now_ms();
    CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT(now_ms() - t0 >= 900);
    it_resp_free(&r);
    /* wait=0 answers at once */
    snprintf(path, sizeof(path), "/v1/jobs/%s?wait=0", id);
    CU_ASSERT_FATAL(it_http_ex(&s, "GET", path, hdr, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 304);
    it_resp_free(&r);
    /* an If-None-Match that already differs: answered at once with the job */
    snprintf(path, sizeof(path), "/v1/jobs/%s?wait=30", id);
    t0 = now_ms();
    CU_ASSERT_FATAL(it_http_ex(&s, "GET", path, "If-None-Match: \"0000000000000000\"\r\n", NULL,
                               NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT(now_ms() - t0 < 2000);
    it_resp_free(&r);

    /* wait=30, cancelled after 300 ms: woken through Redis, long before the timeout */
    d.s = &s;
    d.delay_ms = 300;
    snprintf(d.path, sizeof(d.path), "/v1/jobs/%s:cancel", id);
    pthread_create(&th, NULL, post_later, &d);
    t0 = now_ms();
    CU_ASSERT_FATAL(it_http_ex(&s, "GET", path, hdr, NULL, NULL, 0, &r) == 0);
    pthread_join(th, NULL);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT(now_ms() - t0 >= 250 && now_ms() - t0 < 10000);
    j = it_resp_json(&r);
    CU_ASSERT_STRING_EQUAL(str(j, "status"), "canceled");
    json_decref(j);
    CU_ASSERT_NOT_EQUAL(it_resp_header(&r, "Retry-After", ra, sizeof(ra)), 0); /* final */
    CU_ASSERT_EQUAL(it_resp_header(&r, "ETag", etag2, sizeof(etag2)), 0);
    it_resp_free(&r);
    /* a final job never changes: wait with its ETag is a 304 at once */
    snprintf(hdr, sizeof(hdr), "If-None-Match: %s\r\n", etag2);
    t0 = now_ms();
    CU_ASSERT_FATAL(it_http_ex(&s, "GET", path, hdr, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 304);
    CU_ASSERT(now_ms() - t0 < 2000);
    it_resp_free(&r);
    /* bad wait values and unknown parameters */
    {
        const char *bad[] = {"?wait=-1", "?wait=1e9", "?wait=61", "?wait=abc", "?wait=", "?w=1"};
        for (int i = 0; i < 6; i++) {
            snprintf(path, sizeof(path), "/v1/jobs/%s%s", id, bad[i]);
            CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
            CU_ASSERT_EQUAL(r.status, 400);
            j = it_resp_json(&r);
            CU_ASSERT_STRING_EQUAL(
                str(json_array_get(json_object_get(j, "errors"), 0), "parameter"),
                i < 5 ? "wait" : "w");
            json_decref(j);
            it_resp_free(&r);
        }
    }
    it_stack_stop(&s);
}

struct waiter {
    const struct it_stack *s;
    char path[160];
    struct it_resp r;
    int rc;
};

static void *get_in_thread(void *arg)
{
    struct waiter *w = arg;
    w->rc = it_http(w->s, "GET", w->path, NULL, NULL, 0, &w->r);
    return NULL;
}

/* Removes HTTP/1.1 chunked framing in place; returns the new length. */
static size_t dechunk(char *b, size_t n)
{
    size_t in = 0, out = 0;
    while (in < n) {
        char *end = NULL;
        unsigned long len = strtoul(b + in, &end, 16);
        char *crlf = strstr(b + in, "\r\n");
        if (!crlf || len == 0)
            break;
        in = (size_t)(crlf - b) + 2;
        if (in + len > n)
            len = n - in;
        memmove(b + out, b + in, len);
        out += len;
        in += len + 2;
    }
    b[out] = '\0';
    return out;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* Waits until the API holds `n` long polls or event streams open (its
 * skirmish_waiters_open gauge), polling /metrics: a stream is open once its first event
 * is sent and it waits for the next. 0, or -1 after `timeout_ms`. */
static int wait_open_waiters(const struct it_stack *s, long n, long timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    const char *name = "\nskirmish_waiters_open ";
    while (now_ms() < deadline) {
        struct it_resp r;
        long open = -1;
        if (it_http(s, "GET", "/metrics", NULL, NULL, 0, &r) == 0) {
            const char *p = r.body ? strstr(r.body, name) : NULL;
            if (p)
                open = strtol(p + strlen(name), NULL, 10);
            it_resp_free(&r);
        }
        if (open >= n)
            return 0;
        it_sleep_ms(10);
    }
    return -1;
}

static void test_events(void)
{
    struct it_stack s;
    struct it_resp r;
    char id[37];
    char ct[64];
    char etag[64];
    char hdr[128];
    char chunk[64];
    pthread_t th;
    struct waiter w;
    struct delayed d;
    json_t *j;
    long games = it_games_for_ms(1500);

    CU_ASSERT_FATAL(it_stack_init(&s, "events") == 0);
    snprintf(chunk, sizeof(chunk), "SKIRMISH_CHUNK_UNITS=%ld", games / 10 + 1);
    s.env[s.n_env++] = chunk;
    s.env[s.n_env++] = "SKIRMISH_MAX_WAITERS=2";
    CU_ASSERT_FATAL(it_api_start(&s) == 0);

    /* queued, then canceled: the initial status event, a status event, then the end */
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(10, 4), id) == 0);
    memset(&w, 0, sizeof(w));
    w.s = &s;
    snprintf(w.path, sizeof(w.path), "/v1/jobs/%s/events", id);
    pthread_create(&th, NULL, get_in_thread, &w);
    /* cancel once the stream has sent the queued state and waits for the next event */
    CU_ASSERT_EQUAL(wait_open_waiters(&s, 1, 10000), 0);
    d.s = &s;
    d.delay_ms = 0;
    snprintf(d.path, sizeof(d.path), "/v1/jobs/%s:cancel", id);
    post_later(&d);
    pthread_join(th, NULL);
    CU_ASSERT_EQUAL_FATAL(w.rc, 0);
    CU_ASSERT_EQUAL(w.r.status, 200);
    it_resp_header(&w.r, "Content-Type", ct, sizeof(ct));
    CU_ASSERT_STRING_EQUAL(ct, "text/event-stream");
    w.r.body_len = dechunk(w.r.body, w.r.body_len);
    CU_ASSERT_EQUAL(strncmp(w.r.body, "retry: 2000\n", 12), 0);
    CU_ASSERT_EQUAL(count(w.r.body, "event: status\n"), 2);
    CU_ASSERT_EQUAL(count(w.r.body, "\"status\":\"queued\""), 1);
    CU_ASSERT_EQUAL(count(w.r.body, "\"status\":\"canceled\""), 1);
    CU_ASSERT(strstr(w.r.body, "\"queued\"") < strstr(w.r.body, "\"canceled\""));
    it_resp_free(&w.r);

    /* a final job: one event and the end; with its ETag as Last-Event-ID, no event */
    snprintf(w.path, sizeof(w.path), "/v1/jobs/%s", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", w.path, NULL, NULL, 0, &r) == 0);
    it_resp_header(&r, "ETag", etag, sizeof(etag));
    it_resp_free(&r);
    snprintf(w.path, sizeof(w.path), "/v1/jobs/%s/events", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", w.path, NULL, NULL, 0, &r) == 0);
    r.body_len = dechunk(r.body, r.body_len);
    CU_ASSERT_EQUAL(count(r.body, "event: status\n"), 1);
    {
        char idline[80];
        snprintf(idline, sizeof(idline), "id: %s\n", etag);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.body, idline)); /* the event id is the ETag */
    }
    it_resp_free(&r);
    snprintf(hdr, sizeof(hdr), "Last-Event-ID: %s\r\n", etag);
    CU_ASSERT_FATAL(it_http_ex(&s, "GET", w.path, hdr, NULL, NULL, 0, &r) == 0);
    r.body_len = dechunk(r.body, r.body_len);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT_EQUAL(count(r.body, "event:"), 0);
    it_resp_free(&r);
    CU_ASSERT_FATAL(it_http(&s, "GET", "/v1/jobs/00000000-0000-4000-8000-000000000000/events", NULL,
                            NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 404);
    it_resp_free(&r);

    /* a running job: progress events pushed by the worker, then succeeded, then the end */
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(games, 6), id) == 0);
    snprintf(w.path, sizeof(w.path), "/v1/jobs/%s/events", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", w.path, NULL, NULL, 0, &r) == 0);
    r.body_len = dechunk(r.body, r.body_len);
    CU_ASSERT(count(r.body, "event: progress\n") >= 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "\"status\":\"succeeded\""));
    {
        char last[96];
        snprintf(last, sizeof(last), "data: {\"done\":%ld,\"total\":%ld}\n", games, games);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.body, last));
    }
    /* the last event is the final status */
    CU_ASSERT(strstr(r.body, "\"status\":\"succeeded\"") > strstr(r.body, "event: progress"));
    it_resp_free(&r);

    /* the waiter bound (2): two open long polls, a third request gets 503 + Retry-After */
    {
        struct waiter a, b;
        char id2[37];
        char ra[16];
        it_worker_signal(&s, 0, SIGKILL, 1); /* jobs stay queued from here */
        CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(10, 8), id2) == 0);
        memset(&a, 0, sizeof(a));
        memset(&b, 0, sizeof(b));
        a.s = b.s = &s;
        snprintf(a.path, sizeof(a.path), "/v1/jobs/%s?wait=2", id2);
        snprintf(b.path, sizeof(b.path), "/v1/jobs/%s?wait=2", id2);
        pthread_create(&th, NULL, get_in_thread, &a);
        {
            pthread_t th2;
            pthread_create(&th2, NULL, get_in_thread, &b);
            CU_ASSERT_EQUAL(wait_open_waiters(&s, 2, 10000), 0);
            snprintf(w.path, sizeof(w.path), "/v1/jobs/%s/events", id2);
            CU_ASSERT_FATAL(it_http(&s, "GET", w.path, NULL, NULL, 0, &r) == 0);
            CU_ASSERT_EQUAL(r.status, 503);
            j = it_resp_json(&r);
            CU_ASSERT_STRING_EQUAL(str(j, "type"), "/problems/too-many-waiters");
            json_decref(j);
            CU_ASSERT_EQUAL(it_resp_header(&r, "Retry-After", ra, sizeof(ra)), 0);
            it_resp_free(&r);
            pthread_join(th2, NULL);
        }
        pthread_join(th, NULL);
        CU_ASSERT_EQUAL(a.r.status, 200);
        CU_ASSERT_EQUAL(b.r.status, 200);
        it_resp_free(&a.r);
        it_resp_free(&b.r);
    }
    /* the API stops cleanly with nothing suspended left behind */
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* GET /v1/events: every job's changes as `job` events (the job resource), the new job
 * included, progress as it happens, until the API stops (which ends the stream); no query
 * parameter. */
static void test_events_of_every_job(void)
{
    struct it_stack s;
    struct it_resp r;
    char id[37];
    char want[96];
    char ct[64];
    pthread_t th;
    struct waiter w;
    json_t *j;
    long games = it_games_for_ms(1500);
    char chunk[64];

    CU_ASSERT_FATAL(it_stack_init(&s, "feed") == 0);
    snprintf(chunk, sizeof(chunk), "SKIRMISH_CHUNK_UNITS=%ld", games / 10 + 1);
    s.env[s.n_env++] = chunk;
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_http(&s, "GET", "/v1/events?status=queued", NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 400);
    j = it_resp_json(&r);
    CU_ASSERT_STRING_EQUAL(str(json_array_get(json_object_get(j, "errors"), 0), "parameter"),
                           "status");
    json_decref(j);
    it_resp_free(&r);

    memset(&w, 0, sizeof(w));
    w.s = &s;
    snprintf(w.path, sizeof(w.path), "/v1/events");
    pthread_create(&th, NULL, get_in_thread, &w);
    CU_ASSERT_EQUAL(wait_open_waiters(&s, 1, 10000), 0); /* bounded like the others */
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(games, 12), id) == 0);
    it_sleep_ms(300); /* the new job reaches the stream as queued before a worker runs it */
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    j = it_wait_status(&s, id, "succeeded", 60000);
    CU_ASSERT_PTR_NOT_NULL(j);
    json_decref(j);
    it_sleep_ms(300);                    /* the last change reaches the stream */
    CU_ASSERT_EQUAL(it_api_stop(&s), 0); /* a stopping API ends the stream */
    pthread_join(th, NULL);
    CU_ASSERT_EQUAL_FATAL(w.rc, 0);
    CU_ASSERT_EQUAL(w.r.status, 200);
    it_resp_header(&w.r, "Content-Type", ct, sizeof(ct));
    CU_ASSERT_STRING_EQUAL(ct, "text/event-stream");
    w.r.body_len = dechunk(w.r.body, w.r.body_len);
    snprintf(want, sizeof(want), "data: {\"id\":\"%s\"", id);
    CU_ASSERT(count(w.r.body, "event: job\n") >= 3);
    CU_ASSERT(count(w.r.body, want) >= 3);
    /* queued (made), running with progress, then succeeded, in that order */
    {
        const char *q = strstr(w.r.body, "\"status\":\"queued\"");
        const char *run = strstr(w.r.body, "\"status\":\"running\"");
        const char *ok = strstr(w.r.body, "\"status\":\"succeeded\"");
        CU_ASSERT_PTR_NOT_NULL(q);
        CU_ASSERT(q && run && q < run);
        CU_ASSERT(run && ok && run < ok);
    }
    CU_ASSERT_EQUAL(count(w.r.body, "event: reset\n"), 0);
    it_resp_free(&w.r);
    it_stack_stop(&s);
}

static void test_cors_catalogs(void)
{
    struct it_stack s;
    struct it_resp r;
    char v[256];
    json_t *j;

    CU_ASSERT_FATAL(it_stack_init(&s, "cors") == 0);
    s.env[s.n_env++] = "SKIRMISH_CORS_ORIGINS=http://deck.example,http://dash.example:3000";
    CU_ASSERT_FATAL(it_api_start(&s) == 0);

    CU_ASSERT_FATAL(it_http_ex(&s, "OPTIONS", "/v1/jobs",
                               "Origin: http://deck.example\r\n"
                               "Access-Control-Request-Method: POST\r\n"
                               "Access-Control-Request-Headers: content-type, idempotency-key\r\n",
                               NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 204);
    CU_ASSERT_EQUAL(it_resp_header(&r, "Access-Control-Allow-Origin", v, sizeof(v)), 0);
    CU_ASSERT_STRING_EQUAL(v, "http://deck.example");
    CU_ASSERT_EQUAL(it_resp_header(&r, "Access-Control-Allow-Methods", v, sizeof(v)), 0);
    CU_ASSERT_STRING_EQUAL(v, "GET, POST, OPTIONS");
    CU_ASSERT_EQUAL(it_resp_header(&r, "Access-Control-Allow-Headers", v, sizeof(v)), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(v, "Idempotency-Key"));
    CU_ASSERT_EQUAL(it_resp_header(&r, "Access-Control-Max-Age", v, sizeof(v)), 0);
    CU_ASSERT_STRING_EQUAL(v, "600");
    it_resp_free(&r);
    /* an origin not listed (here differing by the port only): no CORS header at all */
    CU_ASSERT_FATAL(it_http_ex(&s, "OPTIONS", "/v1/jobs",
                               "Origin: http://dash.example:3001\r\n"
                               "Access-Control-Request-Method: POST\r\n",
                               NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 204);
    CU_ASSERT_NOT_EQUAL(it_resp_header(&r, "Access-Control-Allow-Origin", v, sizeof(v)), 0);
    CU_ASSERT_NOT_EQUAL(it_resp_header(&r, "Access-Control-Allow-Methods", v, sizeof(v)), 0);
    it_resp_free(&r);
    /* a simple request from an allowed origin: its headers are exposed to the page */
    CU_ASSERT_FATAL(it_http_ex(&s, "POST", "/v1/jobs", "Origin: http://dash.example:3000\r\n",
                               "application/json", it_battle_doc(10, 1),
                               strlen(it_battle_doc(10, 1)), &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202);
    CU_ASSERT_EQUAL(it_resp_header(&r, "Access-Control-Allow-Origin", v, sizeof(v)), 0);
    CU_ASSERT_STRING_EQUAL(v, "http://dash.example:3000");
    CU_ASSERT_EQUAL(it_resp_header(&r, "Access-Control-Expose-Headers", v, sizeof(v)), 0);
    CU_ASSERT_STRING_EQUAL(v, "Location, ETag, Retry-After, RateLimit, RateLimit-Policy");
    CU_ASSERT_EQUAL(it_resp_header(&r, "Vary", v, sizeof(v)), 0);
    CU_ASSERT_STRING_EQUAL(v, "Origin");
    it_resp_free(&r);
    CU_ASSERT_FATAL(it_http_ex(&s, "OPTIONS", "/v1/nope", "Origin: http://deck.example\r\n", NULL,
                               NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 404);
    it_resp_free(&r);

    /* the catalogs: the engine's own data */
    CU_ASSERT_FATAL(it_http(&s, "GET", "/v1/cards?type=commander", NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    j = it_resp_json(&r);
    CU_ASSERT(json_integer_value(json_object_get(j, "count")) >= 1);
    for (size_t i = 0; i < json_array_size(json_object_get(j, "items")); i++)
        CU_ASSERT_STRING_EQUAL(str(json_array_get(json_object_get(j, "items"), i), "type"),
                               "commander");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "\"Test Commander\""));
    json_decref(j);
    it_resp_free(&r);
    CU_ASSERT_FATAL(it_http(&s, "GET", "/v1/cards?name=grunt&skill=armor", NULL, NULL, 0, &r) == 0);
    j = it_resp_json(&r);
    CU_ASSERT_STRING_EQUAL(str(json_array_get(json_object_get(j, "items"), 0), "name"),
                           "Plated Grunt");
    json_decref(j);
    it_resp_free(&r);
    CU_ASSERT_FATAL(it_http(&s, "GET", "/v1/spells", NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    j = it_resp_json(&r);
    {
        json_t *file = json_load_file(SK_SOURCE_DIR "/data/spells.json", 0, NULL);
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "count")),
                        (json_int_t)json_array_size(file));
        json_decref(file);
    }
    json_decref(j);
    it_resp_free(&r);
    CU_ASSERT_FATAL(
        it_http(&s, "GET", "/v1/spells?duration=temporary&event=can_move", NULL, NULL, 0, &r) == 0);
    j = it_resp_json(&r);
    for (size_t i = 0; i < json_array_size(json_object_get(j, "items")); i++)
        CU_ASSERT_STRING_EQUAL(str(json_array_get(json_object_get(j, "items"), i), "duration"),
                               "temporary");
    json_decref(j);
    it_resp_free(&r);
    {
        const char *bad[] = {"/v1/cards?type=wizard", "/v1/cards?colour=red",
                             "/v1/cards?name=", "/v1/spells?target=minion", "/v1/spells?sort=name"};
        const char *param[] = {"type", "colour", "name", "target", "sort"};
        for (int i = 0; i < 5; i++) {
            CU_ASSERT_FATAL(it_http(&s, "GET", bad[i], NULL, NULL, 0, &r) == 0);
            CU_ASSERT_EQUAL(r.status, 400);
            j = it_resp_json(&r);
            CU_ASSERT_STRING_EQUAL(
                str(json_array_get(json_object_get(j, "errors"), 0), "parameter"), param[i]);
            json_decref(j);
            it_resp_free(&r);
        }
    }
    /* the OpenAPI document is the file of the repository */
    CU_ASSERT_FATAL(it_http(&s, "GET", "/openapi.json", NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    j = it_resp_json(&r);
    {
        json_t *file = json_load_file(SK_SOURCE_DIR "/openapi/openapi.json", 0, NULL);
        CU_ASSERT_PTR_NOT_NULL(file);
        CU_ASSERT_TRUE(json_equal(j, file));
        json_decref(file);
    }
    CU_ASSERT_STRING_EQUAL(str(j, "openapi"), "3.1.0");
    json_decref(j);
    it_resp_free(&r);
    it_stack_stop(&s);
}

/* Value of the Prometheus sample line starting with `prefix` + ' ', or -1. */
static double sample(const char *text, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, prefix, n) == 0 && p[n] == ' ')
            return strtod(p + n + 1, NULL);
    return -1;
}

/* Checks the Prometheus text format 0.0.4 of `text`: every line is a HELP or TYPE comment
 * or a sample `name{labels} value`; each sample's family has a TYPE line before it; within
 * a histogram series the le buckets never decrease and the +Inf bucket equals _count.
 * Returns the number of problems (printed). */
static int check_exposition(const char *text)
{
    char typed[64][80];
    size_t n_typed = 0;
    double last_bucket = -1;
    double inf = -1;
    char series[256] = "";
    int bad = 0;

    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        char line[512];
        if (!e) {
            fprintf(stderr, "exposition: no newline at the end\n");
            return bad + 1;
        }
        snprintf(line, sizeof(line), "%.*s", (int)(e - p), p);
        p = e + 1;
        if (strncmp(line, "# HELP ", 7) == 0)
            continue;
        if (strncmp(line, "# TYPE ", 7) == 0) {
            char name[80], type[16];
            if (sscanf(line + 7, "%79s %15s", name, type) != 2 ||
                (strcmp(type, "counter") && strcmp(type, "gauge") && strcmp(type, "histogram"))) {
                fprintf(stderr, "exposition: bad TYPE line: %s\n", line);
                bad++;
            } else if (n_typed < 64) {
                snprintf(typed[n_typed++], 80, "%s", name);
            }
            continue;
        }
        {
            char name[128];
            const char *sp = strrchr(line, ' ');
            const char *brace = strchr(line, '{');
            size_t k = 0;
            char *end = NULL;
            double v;
            int known = 0;
            size_t nlen = (size_t)((brace ? brace : sp ? sp : line) - line);
            if (!sp || nlen == 0 || nlen >= sizeof(name) || (brace && !strchr(brace, '}'))) {
                fprintf(stderr, "exposition: bad sample: %s\n", line);
                bad++;
                continue;
            }
            memcpy(name, line, nlen);
            name[nlen] = '\0';
            v = strtod(sp + 1, &end);
            if (*end) {
                fprintf(stderr, "exposition: bad value: %s\n", line);
                bad++;
            }
            for (k = 0; k < n_typed; k++) {
                size_t t = strlen(typed[k]);
                if (strncmp(name, typed[k], t) == 0 &&
                    (!name[t] || !strcmp(name + t, "_bucket") || !strcmp(name + t, "_sum") ||
                     !strcmp(name + t, "_count")))
                    known = 1;
            }
            if (!known) {
                fprintf(stderr, "exposition: no TYPE before: %s\n", line);
                bad++;
            }
            if (strstr(name, "_bucket") && brace) {
                /* the series is the label set without le */
                char cur[256];
                const char *le = strstr(brace, ",le=\"");
                snprintf(cur, sizeof(cur), "%.*s", (int)(le ? le - line : 0), line);
                if (strcmp(cur, series) != 0) {
                    snprintf(series, sizeof(series), "%s", cur);
                    last_bucket = -1;
                }
                if (v < last_bucket) {
                    fprintf(stderr, "exposition: bucket decreases: %s\n", line);
                    bad++;
                }
                last_bucket = v;
                if (le && strncmp(le, ",le=\"+Inf\"", 11) == 0)
                    inf = v;
            } else if (strstr(name, "_count") && inf >= 0) {
                if (v != inf) {
                    fprintf(stderr, "exposition: _count differs from +Inf: %s\n", line);
                    bad++;
                }
                inf = -1;
            }
        }
    }
    return bad;
}

static void test_stats_metrics(void)
{
    struct it_stack s;
    struct it_resp r;
    char id[37];
    char ct[96];
    json_t *j;
    json_t *w;
    long games = 3000;

    CU_ASSERT_FATAL(it_stack_init(&s, "stats") == 0);
    s.env[s.n_env++] = "SKIRMISH_HEARTBEAT_MS=200";
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_worker_start(&s, 0) == 0);
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(games, 9), id) == 0);
    j = it_wait_status(&s, id, "succeeded", 60000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    json_decref(j);
    it_sleep_ms(1100); /* the second the games were counted in is over */

    CU_ASSERT_FATAL(it_http(&s, "GET", "/v1/stats", NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    j = it_resp_json(&r);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(j, "jobs"), "succeeded")),
                    1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "queue_depth")), 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "games_last_minute")), games);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "games_per_second")), games / 60.0,
                           0.01);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "workers")), 1);
    w = json_array_get(json_object_get(j, "workers"), 0);
    CU_ASSERT_STRING_EQUAL(str(w, "name"), "worker0");
    CU_ASSERT(strcmp(str(w, "backend"), "opencl") == 0 || strcmp(str(w, "backend"), "cpu") == 0);
    CU_ASSERT(str(w, "device")[0] != '\0');
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(w, "games")), games);
    CU_ASSERT_TRUE(json_is_null(json_object_get(w, "job_id")));
    json_decref(j);
    it_resp_free(&r);

    CU_ASSERT_FATAL(it_http(&s, "GET", "/metrics", NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 200);
    it_resp_header(&r, "Content-Type", ct, sizeof(ct));
    CU_ASSERT_PTR_NOT_NULL(strstr(ct, "version=0.0.4"));
    CU_ASSERT_EQUAL(sample(r.body, "skirmish_games_simulated_total"), games);
    CU_ASSERT_EQUAL(sample(r.body, "skirmish_workers_alive"), 1);
    CU_ASSERT_EQUAL(sample(r.body, "skirmish_queue_depth"), 0);
    CU_ASSERT_EQUAL(sample(r.body, "skirmish_jobs{status=\"succeeded\"}"), 1);
    CU_ASSERT_EQUAL(sample(r.body, "skirmish_job_duration_seconds_count{kind=\"battle\"}"), 1);
    CU_ASSERT_EQUAL(
        sample(r.body, "skirmish_job_duration_seconds_bucket{kind=\"battle\",le=\"+Inf\"}"), 1);
    CU_ASSERT_EQUAL(sample(r.body, "skirmish_job_duration_seconds_count{kind=\"board\"}"), 0);
    CU_ASSERT_EQUAL(sample(r.body,
                           "skirmish_http_requests_total{route=\"/v1/stats\",method=\"GET\","
                           "status=\"200\"}"),
                    1);
    CU_ASSERT(sample(r.body, "skirmish_http_requests_total{route=\"/v1/jobs\",method=\"POST\","
                             "status=\"202\"}") == 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "# TYPE skirmish_job_duration_seconds histogram\n"));
    CU_ASSERT_EQUAL(check_exposition(r.body), 0);
    CU_ASSERT(check_exposition("skirmish_x 1\n") > 0); /* no TYPE: the checker must object */
    CU_ASSERT(check_exposition("# TYPE h histogram\nh_bucket{le=\"1\"} 2\n"
                               "h_bucket{le=\"+Inf\"} 1\nh_count 1\n") > 0);
    it_resp_free(&r);

    /* a stopped worker's heartbeat goes with it */
    CU_ASSERT_EQUAL(it_worker_signal(&s, 0, SIGTERM, 1), 0);
    CU_ASSERT_FATAL(it_http(&s, "GET", "/v1/stats", NULL, NULL, 0, &r) == 0);
    j = it_resp_json(&r);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "workers")), 0);
    json_decref(j);
    it_resp_free(&r);
    it_stack_stop(&s);
}

struct timed_get {
    const struct it_stack *s;
    char path[160];
    char hdr[128];
    struct it_resp r;
    int rc;
    long long done_ms;
};

static void *timed_get(void *arg)
{
    struct timed_get *g = arg;
    g->rc = it_http_ex(g->s, "GET", g->path, g->hdr, NULL, NULL, 0, &g->r);
    g->done_ms = now_ms();
    return NULL;
}

/* A change made while Redis is down cannot be announced: the waiters are woken when the
 * subscriber is back, since they may have missed it. */
static void test_long_poll_redis_restart(void)
{
    struct it_stack s;
    struct it_resp r;
    struct timed_get g;
    char id[37];
    char path[160];
    char etag[64];
    long long t0, back;
    pthread_t th;
    json_t *j;

    CU_ASSERT_FATAL(it_stack_init(&s, "pollredis") == 0);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(10, 2), id) == 0);
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    CU_ASSERT_FATAL(it_http(&s, "GET", path, NULL, NULL, 0, &r) == 0);
    it_resp_header(&r, "ETag", etag, sizeof(etag));
    it_resp_free(&r);

    CU_ASSERT_FATAL(it_services("redis-stop") == 0);
    memset(&g, 0, sizeof(g));
    g.s = &s;
    snprintf(g.path, sizeof(g.path), "/v1/jobs/%s?wait=30", id);
    snprintf(g.hdr, sizeof(g.hdr), "If-None-Match: %s\r\n", etag);
    t0 = now_ms();
    pthread_create(&th, NULL, timed_get, &g);
    it_sleep_ms(300);
    snprintf(path, sizeof(path), "/v1/jobs/%s:cancel", id); /* PostgreSQL only: no message */
    CU_ASSERT_FATAL(it_http(&s, "POST", path, NULL, NULL, 0, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 202);
    it_resp_free(&r);
    it_sleep_ms(1200);
    back = now_ms();
    CU_ASSERT_FATAL(it_services("redis-start") == 0);
    pthread_join(th, NULL);
    CU_ASSERT_EQUAL_FATAL(g.rc, 0);
    CU_ASSERT_EQUAL(g.r.status, 200);
    j = it_resp_json(&g.r);
    CU_ASSERT_STRING_EQUAL(str(j, "status"), "canceled");
    json_decref(j);
    CU_ASSERT(g.done_ms >= back);      /* not before Redis was back */
    CU_ASSERT(g.done_ms - t0 < 15000); /* and long before the 30 s deadline */
    it_resp_free(&g.r);
    it_stack_stop(&s);
}

static CU_TestInfo live_tests[] = {
    {"Idempotency-Key: replay, mismatch, bad keys, one job under a race, expiry", test_idempotency},
    {"ETag, 304, Retry-After and long polls (timeout, woken, bad wait)", test_etag_long_poll},
    {"server-sent events, Last-Event-ID and the waiter bound", test_events},
    {"the event stream of every job", test_events_of_every_job},
    {"CORS, catalogs with filters, /openapi.json", test_cors_catalogs},
    {"stats with heartbeats, games per second, /metrics", test_stats_metrics},
    CU_TEST_INFO_NULL,
};

/* It stops the shared Redis, so ctest runs its suite alone (RUN_SERIAL, tests/CMakeLists.txt). */
static CU_TestInfo outage_tests[] = {
    {"long poll woken when Redis is back after a missed change", test_long_poll_redis_restart},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_live_suites[] = {
    {"live", setup, NULL, NULL, NULL, live_tests},
    {"live_outage", setup, NULL, NULL, NULL, outage_tests},
    CU_SUITE_INFO_NULL,
};
