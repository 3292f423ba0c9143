/* SPDX-License-Identifier: MIT */
/* Problem type pages (see api_problems.h). */
#include "api_problems.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sk_mem.h"

#include "sk_banned.h"

struct problem {
    const char *slug;
    int status;
    const char *title;
    const char *means; /* HTML: what happened */
    const char *fix;   /* HTML: what the client does about it */
};

/* One row per slug passed to api_http_problem; the test `browser` (docs.test.mjs) fails
 * when the sources use a slug that is missing here. */
static const struct problem problems[] = {
    {"validation-error", 422, "Invalid job document",
     "The job document is well-formed JSON but some fields are invalid: unknown cards or "
     "spells (with a suggestion when the name looks like a typo), values out of range, "
     "missing or unknown fields. Every problem is listed in <code>errors[]</code> with an "
     "RFC&nbsp;6901 <code>pointer</code> to the field and a <code>detail</code>.",
     "Correct each field named by a pointer and submit again. Nothing was stored: no job "
     "exists for a rejected document."},
    {"malformed-json", 400, "Malformed JSON",
     "The request body is not JSON. <code>line</code> and <code>column</code> say where the "
     "parser stopped.",
     "Send a JSON document (<code>Content-Type: application/json</code>)."},
    {"body-too-large", 413, "Request body too large",
     "The body is larger than the API accepts (<code>max_bytes</code>, "
     "<code>SKIRMISH_MAX_BODY_BYTES</code>).",
     "Send a smaller document: fewer inline cards or spells, a smaller board state."},
    {"unsupported-media-type", 415, "Unsupported media type",
     "A body was sent with another <code>Content-Type</code> than "
     "<code>application/json</code>.",
     "Send the job document as <code>application/json</code>."},
    {"invalid-query", 400, "Invalid query parameter",
     "A query parameter is unknown or has a bad value; <code>errors[0].parameter</code> "
     "names it. For catalog filters <code>errors[0].allowed</code> lists every value the "
     "filter takes (in any case).",
     "Drop the unknown parameter or use one of the allowed values."},
    {"invalid-header", 400, "Invalid header",
     "A request header has a bad value, such as an <code>Idempotency-Key</code> that is "
     "empty, longer than 255 characters or not printable ASCII; "
     "<code>errors[0].header</code> names it.",
     "Send a key of 1 to 255 printable ASCII characters, quoted or bare."},
    {"idempotency-key-reused", 422, "Idempotency-Key reused with another document",
     "This <code>Idempotency-Key</code> already made a job from a different document. A key "
     "stands for one submission: the same key with the same document returns the first job "
     "(200), never a second one.",
     "Use a new key for a new document; retry a lost request with the same key and the same "
     "document."},
    {"job-not-found", 404, "No such job",
     "No job of yours has this id: it was never made, the id is mistyped, it belongs to "
     "another tenant (whose jobs look exactly like missing ones), or it was deleted "
     "(<code>DELETE</code>, or retention after <code>SKIRMISH_RETENTION_S</code>).",
     "Check the id; <code>GET /v1/jobs</code> lists the jobs."},
    {"job-not-finished", 409, "Job has no result",
     "The job has not succeeded (yet), so it has no result; <code>job_status</code> says "
     "where it is. (A battle job canceled while running keeps the games it played as a result "
     "marked <code>\"partial\": true</code>; one canceled before it started has none.)",
     "Wait for the job (<code>GET /v1/jobs/{id}?wait=30</code> or the event stream "
     "<code>/v1/jobs/{id}/events</code>) and read the result once it succeeded."},
    {"job-final", 409, "Job already finished",
     "The job has already finished (succeeded, failed or canceled), so it cannot be canceled.",
     "Nothing to do: a final job never changes. To run it again, retry it "
     "(<code>POST /v1/jobs/{id}:retry</code>) or submit its document again."},
    {"job-not-final", 409, "Job not finished",
     "Only a final job (succeeded, failed or canceled) can be retried; this one is queued or "
     "running.",
     "Wait for the job to finish, or cancel it (<code>POST /v1/jobs/{id}:cancel</code>) and "
     "retry it then."},
    {"too-many-waiters", 503, "Too many waiting requests",
     "More long polls and event streams are open than the API allows at once "
     "(<code>SKIRMISH_MAX_WAITERS</code>).",
     "Retry after the <code>Retry-After</code> seconds, or poll without <code>wait</code>."},
    {"invalid-request", 400, "Invalid request framing",
     "The request cannot be read safely. Either its framing is ambiguous: two "
     "<code>Content-Length</code> fields with different values, or <code>Content-Length</code> "
     "together with <code>Transfer-Encoding</code> (RFC&nbsp;9112 §6.3; behind a proxy such a "
     "request could be read two ways), or a <code>Transfer-Encoding</code> other than "
     "<code>chunked</code> (501). Or it is not HTTP/1.1 as RFC&nbsp;9112 writes it: "
     "<code>errors[0].element</code> names the part (<code>request-line</code>, "
     "<code>method</code>, <code>request-target</code>, <code>HTTP-version</code>, "
     "<code>field-line</code> for a header line without a colon or folded onto the next line, "
     "<code>chunk-size</code>, <code>chunk-data</code>) or <code>errors[0].header</code> the "
     "field (a <code>Content-Length</code> that is not digits alone, a name that is not a "
     "token, a value with a NUL or a bare CR). The connection is closed after the answer.",
     "Send one <code>Content-Length</code> of digits, or <code>Transfer-Encoding: "
     "chunked</code> alone, and a request line and header fields as RFC&nbsp;9112 writes "
     "them; an HTTP library does."},
    {"http-version-not-supported", 505, "HTTP version not supported",
     "The request line names an HTTP version other than 1.x (<code>errors[0].element</code> "
     "is <code>HTTP-version</code>). The API speaks HTTP/1.1 and 1.0; HTTP/2 needs a proxy in "
     "front that speaks it to clients.",
     "Send HTTP/1.1."},
    {"uri-too-long", 414, "URI too long",
     "The request target (path and query) is longer than the API reads "
     "(<code>SKIRMISH_MAX_HEADER_BYTES</code>).",
     "Use shorter query parameters; no route needs a long target."},
    {"header-too-large", 431, "Request header too large",
     "The request has more header fields (<code>SKIRMISH_MAX_HEADERS</code>) or more header "
     "bytes (<code>SKIRMISH_MAX_HEADER_BYTES</code>) than the API reads.",
     "Send fewer or shorter header fields (large cookies are a common cause)."},
    {"request-timeout", 408, "Request timeout",
     "The request's header (<code>SKIRMISH_HEADER_TIMEOUT_S</code>) or body "
     "(<code>SKIRMISH_BODY_TIMEOUT_S</code>) did not arrive in time. The connection is closed.",
     "Send the whole request at once on a new connection."},
    {"client-limit", 429, "Too many connections or waits from one address",
     "This client address has as many connections (<code>SKIRMISH_MAX_CONNECTIONS_PER_ADDR</code>) "
     "or long polls and event streams (<code>SKIRMISH_MAX_WAITERS_PER_ADDR</code>) open as the "
     "API allows one address.",
     "Close connections or streams you no longer read, reuse connections, and retry after the "
     "<code>Retry-After</code> seconds."},
    {"server-busy", 503, "Server busy",
     "The API has as many connections open (<code>SKIRMISH_MAX_CONNECTIONS</code>), or holds "
     "as much memory in unfinished request bodies (<code>SKIRMISH_BODY_MEMORY_BYTES</code>), as "
     "it allows. Nothing was stored.",
     "Retry after the <code>Retry-After</code> seconds."},
    {"unavailable", 503, "Service unavailable",
     "PostgreSQL or Redis cannot be reached, so the request could not be served. Nothing was "
     "changed.",
     "Retry after the <code>Retry-After</code> seconds; the API reconnects by itself."},
    {"unauthorized", 401, "API key missing or not valid",
     "The route needs an API key (<code>Authorization: Bearer sk_...</code>) and the request "
     "had none, or one that is unknown, revoked or malformed.",
     "Send a valid key. An operator makes one with <code>skirmish-api keys create</code> or "
     "<code>POST /v1/keys</code>; <code>make run</code> prints a development key."},
    {"forbidden", 403, "Admin key needed",
     "The route (service statistics, metrics, keys) is for admin keys, and this key belongs "
     "to a tenant.",
     "Use an admin key, or stay with the routes of your own jobs."},
    {"rate-limited", 429, "Too many requests",
     "This key made more requests than its rate limit allows (a token bucket: "
     "<code>SKIRMISH_RATE_BURST</code> at once, <code>SKIRMISH_RATE_PER_S</code> a second). "
     "The <code>RateLimit</code> and <code>RateLimit-Policy</code> headers show the bucket.",
     "Wait the <code>Retry-After</code> seconds, then slow down: use long polls "
     "(<code>?wait=30</code>) or the event stream instead of polling."},
    {"quota-exceeded", 429, "Tenant quota exceeded",
     "The tenant already has as many queued and running jobs as it may "
     "(<code>SKIRMISH_TENANT_MAX_ACTIVE</code>), or submitted as many units (games, turns) in "
     "the last 24 hours as it may (<code>SKIRMISH_TENANT_UNITS_PER_DAY</code>), or its jobs "
     "used the CPU seconds of its UTC day (<code>SKIRMISH_TENANT_CPU_S_PER_DAY</code>, "
     "<code>quota: cpu_seconds_per_day</code>), or holds as "
     "many long polls and event streams open on this API process as a tenant may "
     "(<code>SKIRMISH_MAX_WAITERS_PER_TENANT</code>, <code>quota: waiters</code>; admin keys "
     "count against their own tenant); <code>quota</code>, <code>limit</code> and "
     "<code>used</code> say which.",
     "Wait for jobs to finish (or cancel some), or close streams and long polls you no longer "
     "read, and retry after the <code>Retry-After</code> seconds; an operator can raise the "
     "limits."},
    {"job-too-large", 422, "Job too large",
     "The job asks for more units (games, turns) than one job of a tenant may "
     "(<code>SKIRMISH_TENANT_MAX_JOB_UNITS</code>; <code>max_units</code> says how many).",
     "Split the work into several smaller jobs."},
    {"job-too-costly", 422, "Job too costly",
     "The API estimated the job's CPU cost by playing its first games on one core, and the "
     "estimate (<code>estimated_cpu_s</code>) is above what one job of a tenant may cost "
     "(<code>SKIRMISH_TENANT_MAX_JOB_CPU_S</code>; <code>max_cpu_s</code>).",
     "Ask for fewer games, a shorter turn limit or random instead of flexible play, or split "
     "the work into several jobs."},
    {"key-not-found", 404, "No such key",
     "No active key has this id: it was never made, or it is already revoked.",
     "List the keys with <code>GET /v1/keys</code>."},
    {"not-ready", 503, "Not ready",
     "A store the service needs is unreachable (<code>postgres</code> and <code>redis</code> "
     "say which).",
     "Route no traffic here until <code>/readyz</code> answers 200."},
};

#define N_PROBLEMS (sizeof(problems) / sizeof(problems[0]))

size_t api_problems_count(void)
{
    return N_PROBLEMS;
}

const char *api_problems_slug(size_t i)
{
    return i < N_PROBLEMS ? problems[i].slug : NULL;
}

static const struct problem *find(const char *path)
{
    static const char prefix[] = "/problems/";
    if (strncmp(path, prefix, sizeof(prefix) - 1) != 0)
        return NULL;
    for (size_t i = 0; i < N_PROBLEMS; i++)
        if (strcmp(path + sizeof(prefix) - 1, problems[i].slug) == 0)
            return &problems[i];
    return NULL;
}

int api_problems_exists(const char *path)
{
    return strcmp(path, "/problems") == 0 || find(path) != NULL;
}

/* A growing string; `failed` is set once an allocation failed. */
struct buf {
    char *s;
    size_t len, cap;
    int failed;
};

__attribute__((format(printf, 2, 3))) static void add(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (b->failed)
        return;
    va_start(ap, fmt);
    n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if (!b->s || b->len + (size_t)n >= b->cap) {
        size_t cap = (b->cap ? b->cap : 2048) + (size_t)n + 1024;
        char *s = sk_realloc(b->s, cap);
        if (!s) {
            b->failed = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
        va_start(ap, fmt);
        n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

static const char head[] =
    "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    "<title>%s</title><link rel=\"stylesheet\" href=\"/dashboard/style.css\"></head>\n"
    "<body class=\"problem-page\"><main>\n";

char *api_problems_page(const char *path)
{
    struct buf b = {NULL, 0, 0, 0};
    const struct problem *p = find(path);

    if (p) {
        add(&b, head, p->title);
        add(&b,
            "<p><a href=\"/problems\">Problem types</a> · <a href=\"/docs\">API reference</a></p>\n"
            "<h1>%s</h1>\n<p>HTTP status <strong>%d</strong>, <code>type</code> "
            "<code>/problems/%s</code></p>\n<h2>What it means</h2>\n<p>%s</p>\n"
            "<h2>What to do</h2>\n<p>%s</p>\n",
            p->title, p->status, p->slug, p->means, p->fix);
    } else if (strcmp(path, "/problems") == 0) {
        add(&b, head, "Problem types");
        add(&b, "<p><a href=\"/docs\">API reference</a></p>\n<h1>Problem types</h1>\n"
                "<p>Every error of the API is <code>application/problem+json</code> "
                "(RFC&nbsp;9457); its <code>type</code> is one of these pages.</p>\n<ul>\n");
        for (size_t i = 0; i < N_PROBLEMS; i++)
            add(&b, "<li><a href=\"/problems/%s\">%s</a> (%d)</li>\n", problems[i].slug,
                problems[i].title, problems[i].status);
        add(&b, "</ul>\n");
    } else {
        return NULL;
    }
    add(&b, "</main></body></html>\n");
    if (b.failed) {
        sk_free(b.s);
        return NULL;
    }
    return b.s;
}
