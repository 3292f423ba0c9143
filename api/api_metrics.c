/* SPDX-License-Identifier: MIT */
/* In-memory HTTP metrics (see api_metrics.h). */
#include "api_metrics.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sk_mem.h"

#include "sk_banned.h"

/* Up to a minute: long polls and event streams are timed too. */
static const double bounds[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                0.5,   1,      2.5,   5,    10,    30,   60};
#define N_BOUNDS (sizeof(bounds) / sizeof(bounds[0]))

struct series {
    const char *route;
    char method[8];
    int status;
    uint64_t count;
    uint64_t buckets[N_BOUNDS + 1]; /* not cumulative; the last is +Inf */
    double sum;
};

struct api_metrics {
    pthread_mutex_t lock; /* protects everything below */
    struct series *s;
    size_t n, cap;
};

enum sk_err api_metrics_new(struct api_metrics **out)
{
    struct api_metrics *m = sk_calloc(1, sizeof(*m));
    if (!m)
        return SK_ENOMEM;
    pthread_mutex_init(&m->lock, NULL);
    *out = m;
    return SK_OK;
}

void api_metrics_free(struct api_metrics *m)
{
    if (!m)
        return;
    pthread_mutex_destroy(&m->lock);
    sk_free(m->s);
    sk_free(m);
}

void api_metrics_observe(struct api_metrics *m, const char *route, const char *method, int status,
                         double seconds)
{
    struct series *s = NULL;
    size_t b = 0;
    if (!m)
        return;
    /* unknown methods are folded so a client cannot grow the table without bound */
    if (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0 && strcmp(method, "HEAD") != 0 &&
        strcmp(method, "OPTIONS") != 0)
        method = "OTHER";
    while (b < N_BOUNDS && seconds > bounds[b])
        b++;
    pthread_mutex_lock(&m->lock);
    for (size_t i = 0; i < m->n; i++)
        if (m->s[i].route == route && m->s[i].status == status &&
            strcmp(m->s[i].method, method) == 0) {
            s = &m->s[i];
            break;
        }
    if (!s) {
        if (m->n == m->cap) {
            size_t cap = m->cap ? m->cap * 2 : 32;
            struct series *ns = sk_realloc(m->s, cap * sizeof(*ns));
            if (!ns) {
                pthread_mutex_unlock(&m->lock);
                return;
            }
            m->s = ns;
            m->cap = cap;
        }
        s = &m->s[m->n++];
        memset(s, 0, sizeof(*s));
        s->route = route;
        snprintf(s->method, sizeof(s->method), "%s", method);
        s->status = status;
    }
    s->count++;
    s->buckets[b]++;
    s->sum += seconds;
    pthread_mutex_unlock(&m->lock);
}

void api_metrics_render(struct api_metrics *m, struct sk_buf *b)
{
    (void)sk_buf_printf(b, "# HELP skirmish_http_requests_total HTTP requests answered by this API "
                           "process.\n# TYPE skirmish_http_requests_total counter\n");
    if (m) {
        pthread_mutex_lock(&m->lock);
        for (size_t i = 0; i < m->n; i++)
            (void)sk_buf_printf(
                b,
                "skirmish_http_requests_total{route=\"%s\",method=\"%s\",status=\"%d\"} "
                "%llu\n",
                m->s[i].route ? m->s[i].route : "unmatched", m->s[i].method, m->s[i].status,
                (unsigned long long)m->s[i].count);
        pthread_mutex_unlock(&m->lock);
    }
    (void)sk_buf_printf(b,
                        "# HELP skirmish_http_request_duration_seconds Time from the first byte of "
                        "a request to its answer.\n"
                        "# TYPE skirmish_http_request_duration_seconds histogram\n");
    if (!m)
        return;
    pthread_mutex_lock(&m->lock);
    for (size_t i = 0; i < m->n; i++) {
        const struct series *s = &m->s[i];
        char labels[160];
        uint64_t cum = 0;
        snprintf(labels, sizeof(labels), "route=\"%s\",method=\"%s\",status=\"%d\"",
                 s->route ? s->route : "unmatched", s->method, s->status);
        for (size_t k = 0; k < N_BOUNDS; k++) {
            cum += s->buckets[k];
            (void)sk_buf_printf(
                b, "skirmish_http_request_duration_seconds_bucket{%s,le=\"%g\"} %llu\n", labels,
                bounds[k], (unsigned long long)cum);
        }
        (void)sk_buf_printf(b,
                            "skirmish_http_request_duration_seconds_bucket{%s,le=\"+Inf\"} %llu\n"
                            "skirmish_http_request_duration_seconds_sum{%s} %.6f\n"
                            "skirmish_http_request_duration_seconds_count{%s} %llu\n",
                            labels, (unsigned long long)s->count, labels, s->sum, labels,
                            (unsigned long long)s->count);
    }
    pthread_mutex_unlock(&m->lock);
}
