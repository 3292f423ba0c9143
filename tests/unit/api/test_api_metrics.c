/* SPDX-License-Identifier: MIT */
/* The HTTP metrics rendered in the Prometheus text format (parsed back line by line:
 * HELP/TYPE before samples, cumulative le buckets ending at +Inf equal to _count, sums),
 * and the waiter registry: the suspend/fire protocol, notification by job, deadlines,
 * the open-waiter bound and closing. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_metrics.h"
#include "api_watch.h"
#include "sk_mem.h"

static int setup(void)
{
    sk_mem_init_json();
    return 0;
}

/* Value of the sample line starting with `prefix` (followed by a space), or -1. */
static double sample(const char *text, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, prefix, n) == 0 && p[n] == ' ')
            return strtod(p + n + 1, NULL);
    return -1;
}

static void test_render(void)
{
    struct api_metrics *m = NULL;
    struct sk_buf b;
    const char *route = "/v1/jobs/{id}";
    sk_buf_init(&b, 0);
    CU_ASSERT_FATAL(api_metrics_new(&m) == SK_OK);
    api_metrics_observe(m, route, "GET", 200, 0.0005); /* le 0.001 */
    api_metrics_observe(m, route, "GET", 200, 0.02);   /* le 0.025 */
    api_metrics_observe(m, route, "GET", 200, 120);    /* +Inf only */
    api_metrics_observe(m, route, "GET", 304, 0.002);
    api_metrics_observe(m, NULL, "BREW", 404, 0.001); /* unmatched, method folded */
    api_metrics_render(m, &b);
    CU_ASSERT_FATAL(!b.err && b.p);

#define L "route=\"/v1/jobs/{id}\",method=\"GET\",status=\"200\""
    CU_ASSERT_EQUAL(sample(b.p, "skirmish_http_requests_total{" L "}"), 3);
    CU_ASSERT_EQUAL(
        sample(b.p, "skirmish_http_request_duration_seconds_bucket{" L ",le=\"0.001\"}"), 1);
    CU_ASSERT_EQUAL(sample(b.p, "skirmish_http_request_duration_seconds_bucket{" L ",le=\"0.01\"}"),
                    1);
    CU_ASSERT_EQUAL(
        sample(b.p, "skirmish_http_request_duration_seconds_bucket{" L ",le=\"0.025\"}"), 2);
    CU_ASSERT_EQUAL(sample(b.p, "skirmish_http_request_duration_seconds_bucket{" L ",le=\"60\"}"),
                    2);
    CU_ASSERT_EQUAL(sample(b.p, "skirmish_http_request_duration_seconds_bucket{" L ",le=\"+Inf\"}"),
                    3);
    CU_ASSERT_EQUAL(sample(b.p, "skirmish_http_request_duration_seconds_count{" L "}"), 3);
    CU_ASSERT_DOUBLE_EQUAL(sample(b.p, "skirmish_http_request_duration_seconds_sum{" L "}"),
                           120.0205, 1e-6);
    CU_ASSERT_EQUAL(sample(b.p, "skirmish_http_requests_total{route=\"unmatched\",method=\"OTHER\","
                                "status=\"404\"}"),
                    1);
#undef L
    /* the exposition format: TYPE comes before the family's samples, every line well formed */
    {
        const char *type_c = strstr(b.p, "# TYPE skirmish_http_requests_total counter\n");
        const char *type_h =
            strstr(b.p, "# TYPE skirmish_http_request_duration_seconds histogram\n");
        CU_ASSERT_PTR_NOT_NULL(type_c);
        CU_ASSERT_PTR_NOT_NULL(type_h);
        CU_ASSERT(type_c < strstr(b.p, "skirmish_http_requests_total{"));
        CU_ASSERT(type_h < strstr(b.p, "skirmish_http_request_duration_seconds_bucket{"));
        CU_ASSERT_EQUAL(b.p[b.len - 1], '\n');
        for (const char *p = b.p; *p;) {
            const char *e = strchr(p, '\n');
            CU_ASSERT_FATAL(e != NULL);
            if (*p != '#') {
                const char *sp = memchr(p, ' ', (size_t)(e - p));
                char *end = NULL;
                CU_ASSERT_PTR_NOT_NULL(sp);
                if (sp) {
                    strtod(sp + 1, &end);
                    CU_ASSERT_PTR_EQUAL(end, e); /* "name{labels} value" and nothing else */
                }
            }
            p = e + 1;
        }
    }
    sk_buf_release(&b);
    api_metrics_free(m);
}

struct probe {
    int suspended, fired;
};

static void fn(void *arg, int fire)
{
    struct probe *p = arg;
    if (fire)
        p->fired++;
    else
        p->suspended++;
}

static struct api_watch *new_watch(size_t max, size_t per_tenant)
{
    struct api_watch_opts o = {max, per_tenant, NULL, NULL, NULL};
    struct api_watch *w = NULL;
    CU_ASSERT_FATAL(api_watch_new(&o, &w) == SK_OK);
    return w;
}

static void test_watch(void)
{
    struct api_watch *w = new_watch(2, 0);
    struct probe a = {0}, b = {0}, c = {0};
    struct api_watch_slot *s1 = NULL, *s2 = NULL, *s3 = NULL;

    CU_ASSERT_EQUAL(api_watch_acquire(w, "", "", &s1), API_WATCH_OK);
    CU_ASSERT_EQUAL(api_watch_acquire(w, "", "", &s2), API_WATCH_OK);
    /* the bound: a third waiter gets a 503 */
    CU_ASSERT_EQUAL(api_watch_acquire(w, "", "", &s3), API_WATCH_FULL);
    CU_ASSERT_PTR_NULL(s3);
    CU_ASSERT_EQUAL(api_watch_open(w), 2);
    api_watch_release(w, s2);
    CU_ASSERT_EQUAL(api_watch_acquire(w, "", "", &s2), API_WATCH_OK);

    CU_ASSERT_EQUAL(api_watch_add(w, NULL, "job-1", 1000, -1, fn, &a), 0);
    CU_ASSERT_EQUAL(api_watch_add(w, NULL, "job-2", 5000, -1, fn, &b), 0);
    CU_ASSERT_EQUAL(api_watch_add(w, NULL, "job-1", 9000, -1, fn, &c), 0);
    CU_ASSERT_EQUAL(a.suspended + b.suspended + c.suspended, 3);
    CU_ASSERT_EQUAL(a.fired + b.fired + c.fired, 0);

    api_watch_notify(w, "job-1"); /* both waiters of job-1, once each */
    CU_ASSERT_EQUAL(a.fired, 1);
    CU_ASSERT_EQUAL(c.fired, 1);
    CU_ASSERT_EQUAL(b.fired, 0);
    api_watch_notify(w, "job-1");
    CU_ASSERT_EQUAL(a.fired, 1); /* a registration fires once */

    api_watch_expire(w, 4999);
    CU_ASSERT_EQUAL(b.fired, 0);
    api_watch_expire(w, 5000);
    CU_ASSERT_EQUAL(b.fired, 1);

    CU_ASSERT_EQUAL(api_watch_add(w, NULL, "job-3", 100000, -1, fn, &a), 0);
    api_watch_close(w); /* fires what is left and refuses new waits */
    CU_ASSERT_EQUAL(a.fired, 2);
    CU_ASSERT_EQUAL(api_watch_add(w, NULL, "job-3", 100000, -1, fn, &a), -1);
    CU_ASSERT_EQUAL(a.suspended, 2);
    api_watch_release(w, s1);
    api_watch_release(w, s2);
    CU_ASSERT_EQUAL(api_watch_open(w), 0);
    api_watch_free(w);
}

/* Records the last fire reason. */
struct why {
    int suspended, fired, last;
};

static void why_fn(void *arg, int fire)
{
    struct why *p = arg;
    if (fire) {
        p->fired++;
        p->last = fire;
    } else {
        p->suspended++;
    }
}

/* Slots per tenant: a tenant past its cap is refused while others are not, keys off have no
 * tenant cap, and a slot given back makes room again. */
static void test_watch_tenants(void)
{
    struct api_watch *w = new_watch(10, 2);
    struct api_watch_slot *a1 = NULL, *a2 = NULL, *a3 = NULL, *b1 = NULL;
    struct api_watch_slot *off[4] = {NULL};

    CU_ASSERT_EQUAL(api_watch_acquire(w, "acme", "00000000000000a1", &a1), API_WATCH_OK);
    CU_ASSERT_EQUAL(api_watch_acquire(w, "acme", "00000000000000a2", &a2), API_WATCH_OK);
    CU_ASSERT_EQUAL(api_watch_acquire(w, "acme", "00000000000000a1", &a3), API_WATCH_TENANT_FULL);
    CU_ASSERT_PTR_NULL(a3);
    CU_ASSERT_EQUAL(api_watch_tenant_open(w, "acme"), 2);
    CU_ASSERT_EQUAL(api_watch_acquire(w, "bolt", "00000000000000b1", &b1), API_WATCH_OK);
    for (int i = 0; i < 4; i++) /* keys off: only the process's cap */
        CU_ASSERT_EQUAL(api_watch_acquire(w, "", "", &off[i]), API_WATCH_OK);
    CU_ASSERT_EQUAL(api_watch_open(w), 7);
    api_watch_release(w, a1);
    CU_ASSERT_EQUAL(api_watch_tenant_open(w, "acme"), 1);
    CU_ASSERT_EQUAL(api_watch_acquire(w, "acme", "00000000000000a1", &a3), API_WATCH_OK);
    api_watch_release(w, a2);
    api_watch_release(w, a3);
    CU_ASSERT_EQUAL(api_watch_tenant_open(w, "acme"), 0);
    api_watch_release(w, b1);
    for (int i = 0; i < 4; i++)
        api_watch_release(w, off[i]);
    CU_ASSERT_EQUAL(api_watch_open(w), 0);
    api_watch_close(w);
    api_watch_free(w);
}

/* A revoked key: its registered waits fire with API_WATCH_REVOKED, its slots say so, a wait
 * registered afterwards fires at once, other keys' waits are untouched. */
static void test_watch_revoke(void)
{
    struct api_watch *w = new_watch(10, 0);
    struct api_watch_slot *k1 = NULL, *k2 = NULL, *other = NULL, *off = NULL;
    struct api_watch_feed *f;
    struct why a = {0}, b = {0}, c = {0}, d = {0};

    CU_ASSERT_FATAL(api_watch_acquire(w, "acme", "00000000000000a1", &k1) == API_WATCH_OK);
    CU_ASSERT_FATAL(api_watch_acquire(w, "acme", "00000000000000a1", &k2) == API_WATCH_OK);
    CU_ASSERT_FATAL(api_watch_acquire(w, "acme", "00000000000000a2", &other) == API_WATCH_OK);
    CU_ASSERT_FATAL(api_watch_acquire(w, "", "", &off) == API_WATCH_OK);
    f = api_watch_feed_open(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(api_watch_add(w, k1, "job-1", 100000, -1, why_fn, &a), 0);
    CU_ASSERT_EQUAL(api_watch_feed_wait(w, f, other, 100000, -1, why_fn, &b), 0);
    CU_ASSERT_EQUAL(api_watch_add(w, off, "job-1", 100000, -1, why_fn, &c), 0);
    api_watch_revoke(w, ""); /* nothing: keys off are never revoked */
    api_watch_revoke(w, "00000000000000ff");
    CU_ASSERT_EQUAL(a.fired + b.fired + c.fired, 0);
    api_watch_revoke(w, "00000000000000a1");
    CU_ASSERT_EQUAL(a.fired, 1);
    CU_ASSERT_EQUAL(a.last, API_WATCH_REVOKED);
    CU_ASSERT_EQUAL(b.fired + c.fired, 0);
    CU_ASSERT(api_watch_revoked(k1));
    CU_ASSERT(api_watch_revoked(k2)); /* not registered now (sending): it ends at its next look */
    CU_ASSERT(!api_watch_revoked(other));
    CU_ASSERT(!api_watch_revoked(off));
    CU_ASSERT(!api_watch_revoked(NULL));
    /* registered after the revocation: suspended and fired at once */
    CU_ASSERT_EQUAL(api_watch_add(w, k2, "job-2", 100000, -1, why_fn, &d), 0);
    CU_ASSERT_EQUAL(d.suspended, 1);
    CU_ASSERT_EQUAL(d.fired, 1);
    CU_ASSERT_EQUAL(d.last, API_WATCH_REVOKED);
    api_watch_close(w);
    CU_ASSERT_EQUAL(b.last, API_WATCH_FIRED);
    CU_ASSERT_EQUAL(c.last, API_WATCH_FIRED);
    api_watch_feed_close(w, f);
    api_watch_release(w, k1);
    api_watch_release(w, k2);
    api_watch_release(w, other);
    api_watch_release(w, off);
    api_watch_free(w);
}

/* The feed of every job: ids gathered once each, none lost between a take and the next wait,
 * a wait that finds ids returns at once, overflow and a lost subscription mean "reload". */
static void test_watch_feed(void)
{
    struct api_watch *w = NULL;
    struct api_watch_feed *f, *g;
    struct probe a = {0}, b = {0};
    static char ids[API_WATCH_FEED_MAX][40];
    int overflow = -1;
    char id[40];

    w = new_watch(4, 0);
    f = api_watch_feed_open(w);
    g = api_watch_feed_open(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_EQUAL(api_watch_feed_wait(w, f, NULL, 1000, -1, fn, &a),
                    0); /* nothing yet: suspended */
    CU_ASSERT_EQUAL(a.suspended, 1);
    CU_ASSERT_EQUAL(api_watch_add(w, NULL, "job-9", 9000, -1, fn, &b), 0);
    api_watch_notify(w, "job-1"); /* any job wakes the feed's wait; job-9's waits on */
    CU_ASSERT_EQUAL(a.fired, 1);
    CU_ASSERT_EQUAL(b.fired, 0);
    api_watch_notify(w, "job-2"); /* while the stream sends: gathered, not lost */
    api_watch_notify(w, "job-1"); /* once, read in its latest state */
    CU_ASSERT_EQUAL(api_watch_feed_wait(w, f, NULL, 1000, -1, fn, &a),
                    1); /* ids wait: no suspend */
    CU_ASSERT_EQUAL(a.suspended, 1);
    CU_ASSERT_EQUAL(api_watch_feed_take(w, f, ids, &overflow), 2);
    CU_ASSERT_STRING_EQUAL(ids[0], "job-1");
    CU_ASSERT_STRING_EQUAL(ids[1], "job-2");
    CU_ASSERT_EQUAL(overflow, 0);
    CU_ASSERT_EQUAL(api_watch_feed_take(w, f, ids, &overflow), 0);
    /* the other feed has its own copy */
    CU_ASSERT_EQUAL(api_watch_feed_take(w, g, ids, &overflow), 2);
    /* more than it holds: overflow, the client reloads */
    for (int i = 0; i < API_WATCH_FEED_MAX + 5; i++) {
        snprintf(id, sizeof(id), "job-%d", i);
        api_watch_notify(w, id);
    }
    CU_ASSERT_EQUAL(api_watch_feed_take(w, f, ids, &overflow), API_WATCH_FEED_MAX);
    CU_ASSERT_EQUAL(overflow, 1);
    /* a deadline fires the feed's wait too (the heartbeat) */
    CU_ASSERT_EQUAL(api_watch_feed_wait(w, f, NULL, 1000, -1, fn, &a), 0);
    api_watch_expire(w, 1000);
    CU_ASSERT_EQUAL(a.fired, 2);
    api_watch_feed_close(w, g);
    api_watch_close(w); /* closing: no new feed, no new wait */
    CU_ASSERT_PTR_NULL(api_watch_feed_open(w));
    (void)api_watch_feed_take(w, f, ids, &overflow);
    CU_ASSERT_EQUAL(api_watch_feed_wait(w, f, NULL, 1000, -1, fn, &a), -1);
    CU_ASSERT_EQUAL(b.fired, 1);
    api_watch_feed_close(w, f);
    api_watch_free(w);
}

static CU_TestInfo metrics_tests[] = {
    {"HTTP metrics in the Prometheus text format", test_render},
    {"waiter registry: suspend, fire once, deadlines, bound, close", test_watch},
    {"feeds of every job: gathered once, never lost, overflow", test_watch_feed},
    {"waiter slots per tenant: a tenant past its cap, others and keys off not", test_watch_tenants},
    {"a revoked key's waits fire at once, later ones too, others untouched", test_watch_revoke},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_metrics_suites[] = {
    {"api_metrics", setup, NULL, NULL, NULL, metrics_tests},
    CU_SUITE_INFO_NULL,
};
