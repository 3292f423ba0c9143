/* SPDX-License-Identifier: MIT */
/* libmicrohttpd adapter (see api_server.h). */
#include "api_server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "api_auth.h"
#include "api_cors.h"
#include "api_gate.h"
#include "api_guard.h"
#include "api_jobs.h"
#include "api_metrics.h"
#include "api_proxy.h"
#include "api_watch.h"
#include "db_jobs.h"
#include "sk_buf.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_parse.h"
#include "sk_time.h"
#include "sk_utf8.h"

#include "sk_banned.h"

struct api_server {
    struct MHD_Daemon *daemon;
    const struct api_ctx *ctx;
    struct api_guard *guard; /* owned */
    struct api_gate *gate;   /* owned: accepts, and reads each connection's first head */
    struct api_proxy *proxy; /* owned: SKIRMISH_TRUSTED_PROXIES */
};

/* conn_state.refuse of a request whose header was refused (no key, a revoked one, no such
 * route): its body is read and dropped, then conn_state.early answered. */
#define REFUSE_EARLY 1

/* A body refused while it is still arriving is read and dropped up to this many times the
 * body limit, then answered (libmicrohttpd can answer only before the body or after it, and
 * closing a socket with unread bytes resets it, losing the answer); past that the
 * connection is closed. */
#define DRAIN_FACTOR 8

/* Per-request state: made on the first call of the access handler, freed only in the
 * completion callback (docs/style.md, rule 16). */
struct conn_state {
    struct sk_buf body; /* at most max_body_bytes */
    size_t reserved;    /* body bytes counted against SKIRMISH_BODY_MEMORY_BYTES */
    int refuse;         /* 413, 503 or REFUSE_EARLY: the body is read and dropped, then refused */
    int has_body;       /* the header announces a body (Content-Length > 0, or chunked) */
    /* A request with a body is routed and authenticated on its header, before a byte of
     * the body is kept (docs/security.md, "Before authentication"): admitted, for `who`,
     * or refused with `early` (owned) as its answer (refuse = REFUSE_EARLY). */
    int admitted;
    struct api_principal who;
    struct api_response early;
    size_t dropped;   /* body bytes dropped so far */
    int64_t start_ns; /* sk_time_mono_ns() when the request began */
    char req_id[40];
    struct api_guard_conn *gconn;      /* the connection's guard entry (borrowed) */
    uint32_t addr;                     /* client IPv4 address, host order (api_proxy.h) */
    char client[API_PROXY_ADDRSTRLEN]; /* the client's address as text, for the log */
    /* a long poll: counted as an open waiter; suspended until its job changes */
    struct MHD_Connection *conn;
    int waiting;
    struct api_watch_slot *slot; /* owned while waiting: its caps and its key's revocation */
    int hup;                     /* the client closed the connection while it waited */
    long long deadline_ms;
    char ref[24];
};

/* An event stream: the state of the job last sent, and text not sent yet. */
struct sse {
    struct api_server *srv;
    struct MHD_Connection *conn;
    char job[40];
    char etag[24];
    char status[16];
    unsigned long long done;
    char *pending; /* owned */
    size_t plen, poff;
    long long next_beat_ms;
    int fired;     /* an api_watch_fire (client gone, key revoked, ...); written under the watch
                      lock, read by the connection's thread */
    int fd;        /* the connection's socket, watched for the client closing it */
    uint32_t addr; /* client address, counted as a waiter */
    struct api_watch_slot *slot; /* owned: the waiter's slot (caps, its key's revocation) */
    int final;
    struct api_watch_feed *feed; /* the stream of every job (GET /v1/events); else NULL */
};

/* Seconds between heartbeat comments on an idle event stream. */
#define SSE_BEAT_MS 15000

static atomic_ulong req_counter;

static int valid_req_id(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++) {
        char c = s[n];
        if (n >= 36 || !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'))
            return 0;
    }
    return n > 0;
}

static void make_req_id(struct MHD_Connection *conn, struct conn_state *st)
{
    const char *given = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-Id");
    if (given && valid_req_id(given)) {
        snprintf(st->req_id, sizeof(st->req_id), "%s", given);
        return;
    }
    snprintf(st->req_id, sizeof(st->req_id), "%x-%lx", (unsigned)getpid(),
             atomic_fetch_add(&req_counter, 1) + 1);
}

/* Drops the body kept so far and gives its memory back to the budget. */
static void drop_body(struct api_server *srv, struct conn_state *st)
{
    sk_buf_release(&st->body);
    api_guard_body_release(srv->guard, st->reserved);
    st->reserved = 0;
}

/* Appends body bytes. Past max_body_bytes (or out of memory) the body is dropped and will be
 * answered 413; past the memory all bodies may hold together, 503. Returns -1 when so much
 * was dropped that the connection is closed instead. */
static int take_body(struct api_server *srv, struct conn_state *st, const char *data, size_t n)
{
    size_t max = (size_t)srv->ctx->cfg->max_body_bytes;
    if (!st->refuse) {
        if (!api_guard_body_reserve(srv->guard, n)) {
            st->refuse = 503;
        } else {
            st->reserved += n;
            if (sk_buf_add(&st->body, data, n))
                st->refuse = 413;
        }
        if (st->refuse)
            drop_body(srv, st);
        return 0;
    }
    st->dropped += n;
    return st->dropped > DRAIN_FACTOR * max ? -1 : 0;
}

static enum MHD_Result collect_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    struct api_request *req = cls;
    (void)kind;
    if (req->n_args == API_MAX_ARGS) {
        req->too_many_args = 1;
        return MHD_NO;
    }
    req->args[req->n_args].key = key;
    req->args[req->n_args].value = value ? value : "";
    req->n_args++;
    return MHD_YES;
}

static enum MHD_Result add_arg_len(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    (void)kind;
    *(size_t *)cls += strlen(key) + (value ? strlen(value) : 0) + 2;
    return MHD_YES;
}

/* The length of the request target, path and query (decoded, so at most what was sent). */
static size_t target_len(struct MHD_Connection *conn, const char *url)
{
    size_t n = strlen(url);
    MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, add_arg_len, &n);
    return n;
}

/* What the header fields of a request tell about its framing and size. */
struct head_scan {
    size_t n, bytes;    /* fields, and their bytes as sent ("Name: value\r\n") */
    int n_length;       /* Content-Length fields */
    const char *length; /* the first one */
    int length_differs; /* another one has a different value */
    const char *te;     /* Transfer-Encoding */
    int host;           /* a Host field */
    int expect_continue;
};

static enum MHD_Result scan_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    struct head_scan *h = cls;
    (void)kind;
    if (!value)
        value = "";
    h->n++;
    h->bytes += strlen(key) + strlen(value) + 4;
    if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
        if (h->n_length++ == 0)
            h->length = value;
        else if (strcmp(h->length, value) != 0)
            h->length_differs = 1;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
        h->te = value;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0) {
        h->host = 1;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_EXPECT) == 0) {
        h->expect_continue = strcasecmp(value, "100-continue") == 0;
    }
    return MHD_YES;
}

/* Checks a request's header before its body is read: limits on size and count, and a
 * framing that leaves no doubt where the request ends (RFC 9112 6.3: two different
 * Content-Length values, or Content-Length with Transfer-Encoding, are what request
 * smuggling behind a proxy is made of). Fills `resp` and returns 1 when it is refused now;
 * sets st->refuse for a body to drop before refusing it. */
static int check_head(struct api_server *srv, struct MHD_Connection *conn, struct conn_state *st,
                      const char *version, size_t target_len, struct api_response *resp)
{
    const struct sk_config *cfg = srv->ctx->cfg;
    struct head_scan h;
    uint64_t declared = 0;
    size_t max = (size_t)cfg->max_body_bytes;
    char detail[160];

    memset(&h, 0, sizeof(h));
    MHD_get_connection_values(conn, MHD_HEADER_KIND, scan_header, &h);
    if (target_len > (size_t)cfg->max_header_bytes) {
        snprintf(detail, sizeof(detail), "the request target is longer than %ld bytes",
                 cfg->max_header_bytes);
        api_http_problem(resp, 414, "uri-too-long", "URI Too Long", detail, NULL);
    } else if (h.n > (size_t)cfg->max_headers) {
        snprintf(detail, sizeof(detail), "the request has more than %ld header fields",
                 cfg->max_headers);
        api_http_problem(resp, 431, "header-too-large", "Request Header Fields Too Large", detail,
                         NULL);
    } else if (h.bytes + target_len > (size_t)cfg->max_header_bytes) {
        snprintf(detail, sizeof(detail), "the request's header is larger than %ld bytes",
                 cfg->max_header_bytes);
        api_http_problem(resp, 431, "header-too-large", "Request Header Fields Too Large", detail,
                         NULL);
    } else if (!h.host && strcmp(version, MHD_HTTP_VERSION_1_1) == 0) {
        /* RFC 9112 3.2: a server must answer 400 to an HTTP/1.1 request without Host */
        api_http_problem(resp, 400, "invalid-request", "Bad Request",
                         "an HTTP/1.1 request must have a Host field", NULL);
    } else if (h.length_differs) {
        api_http_problem(resp, 400, "invalid-request", "Bad Request",
                         "the request has Content-Length fields with different values", NULL);
    } else if (h.n_length && h.te) {
        api_http_problem(resp, 400, "invalid-request", "Bad Request",
                         "the request has both Content-Length and Transfer-Encoding", NULL);
    } else if (h.te && strcasecmp(h.te, "chunked") != 0) {
        api_http_problem(resp, 501, "invalid-request", "Not Implemented",
                         "the only Transfer-Encoding accepted is chunked", NULL);
    } else if (h.length && !sk_parse_u64(h.length, 0, UINT64_MAX, &declared) && declared > max) {
        /* Refused before a byte of it is read. With Expect: 100-continue the client waits
         * for the answer; a body no larger than the drain allowance is read and dropped
         * first so the answer reaches a client that sends it anyway. */
        if (h.expect_continue || declared > DRAIN_FACTOR * max) {
            st->refuse = 413;
            return 1;
        }
        st->refuse = 413;
        return 0;
    } else {
        st->has_body = h.te || (h.length &&
                                (sk_parse_u64(h.length, 0, UINT64_MAX, &declared) || declared > 0));
        return 0;
    }
    resp->close = 1;
    return 1;
}

static void free_body(void *p)
{
    sk_free(p);
}

static double seconds_since(int64_t t0_ns)
{
    return (double)(sk_time_mono_ns() - t0_ns) / 1e9;
}

/* The headers every answer may carry: CORS, ETag, caching, request id. */
static void common_headers(struct api_server *srv, struct MHD_Response *r,
                           const struct api_request *req, const struct api_response *resp,
                           const char *req_id)
{
    struct api_header h[API_CORS_MAX_HEADERS];
    size_t n = api_cors_headers(srv->ctx->cfg->cors_origins, req, resp, h);
    if (n == 0 && api_cors_refused(srv->ctx->cfg->cors_origins, req)) {
        char q[300];
        sk_log_warn("event=cors_refused req_id=%s method=%s path=%s origin=%s hint=%s", req_id,
                    req->method, req->path, sk_log_quote(q, sizeof(q), req->origin),
                    "\"list the origin in SKIRMISH_CORS_ORIGINS to allow it\"");
    }
    for (size_t i = 0; i < n; i++)
        MHD_add_response_header(r, h[i].name, h[i].value);
    if (resp->etag[0])
        MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, resp->etag);
    if (resp->www_authenticate)
        MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, resp->www_authenticate);
    if (resp->ratelimit[0]) {
        MHD_add_response_header(r, "RateLimit-Policy", resp->ratelimit_policy);
        MHD_add_response_header(r, "RateLimit", resp->ratelimit);
    }
    if (resp->csp) {
        MHD_add_response_header(r, "Content-Security-Policy", resp->csp);
        MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    }
    /* a job resource may be stored but must be revalidated (ETag); the rest never stored */
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
                            resp->etag[0] || resp->sse ? "no-cache" : "no-store");
    MHD_add_response_header(r, "X-Request-Id", req_id);
}

static enum MHD_Result send_response(struct api_server *srv, struct MHD_Connection *conn,
                                     const struct api_request *req, struct api_response *resp,
                                     const char *req_id)
{
    struct MHD_Response *r;
    enum MHD_Result ret;
    char num[16];

    r = MHD_create_response_from_buffer_with_free_callback(resp->body_len, resp->body, free_body);
    if (!r)
        return MHD_NO;
    resp->body = NULL; /* now owned by MHD */
    if (resp->content_type)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, resp->content_type);
    if (resp->location[0])
        MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, resp->location);
    if (resp->allow[0])
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, resp->allow);
    if (resp->retry_after) {
        snprintf(num, sizeof(num), "%d", resp->retry_after);
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, num);
    }
    if (resp->close)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    common_headers(srv, r, req, resp, req_id);
    ret = MHD_queue_response(conn, (unsigned)resp->status, r);
    MHD_destroy_response(r);
    return ret;
}

/* The socket of a connection, watched for the client closing it while it waits. */
static int conn_fd(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    return ci ? ci->connect_fd : -1;
}

/* Suspends (fire = 0) or resumes (fire = 1, or 2 when the client is gone) a long poll's
 * connection; under the watch lock. */
static void poll_fire(void *arg, int fire)
{
    struct conn_state *st = arg;
    if (fire == API_WATCH_HUNGUP)
        st->hup = 1;
    if (fire)
        MHD_resume_connection(st->conn);
    else
        MHD_suspend_connection(st->conn);
}

static void sse_fire(void *arg, int fire)
{
    struct sse *s = arg;
    if (fire) {
        s->fired = fire;
        MHD_resume_connection(s->conn);
    } else {
        MHD_suspend_connection(s->conn);
    }
}

static void sse_set(struct sse *s, char *text)
{
    sk_free(s->pending);
    s->pending = text;
    s->plen = text ? strlen(text) : 0;
    s->poff = 0;
}

/* The events of the jobs a feed gathered since the last call (api_jobs_feed_events):
 * 0 with *text (NULL when none), -1 out of memory. */
static int feed_next(struct sse *s, char **text)
{
    const struct api_ctx *ctx = s->srv->ctx;
    char(*ids)[40] = sk_malloc(API_WATCH_FEED_MAX * sizeof(*ids));
    int overflow = 0;
    size_t n;
    int rc;

    *text = NULL;
    if (!ids)
        return -1;
    n = api_watch_feed_take(ctx->watch, s->feed, ids, &overflow);
    rc = api_jobs_feed_events(ctx, (const char(*)[40])ids, n, overflow, text);
    sk_free(ids);
    return rc;
}

/* The last event of a stream whose key was revoked: `revoked`, its data the 401 problem a
 * request with that key now gets. A new string, or NULL when out of memory (the stream
 * then just ends). */
static char *revoked_event(void)
{
    struct api_response r;
    char *text = NULL;
    api_http_response_init(&r);
    api_auth_revoked(&r);
    if (r.body) {
        size_t n = strlen(r.body) + 32;
        text = sk_malloc(n);
        if (text)
            snprintf(text, n, "event: revoked\ndata: %s\n\n", r.body);
    }
    api_http_response_release(&r);
    return text;
}

/* MHD asks for more of an event stream: pending text first; after a fire, the job's
 * changes or a heartbeat; when there is nothing, the connection is suspended until the
 * job changes or the next heartbeat is due. */
static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct sse *s = cls;
    const struct api_ctx *ctx = s->srv->ctx;
    (void)pos;
    for (;;) {
        long long now;
        if (s->poff < s->plen) {
            size_t n = s->plen - s->poff < max ? s->plen - s->poff : max;
            memcpy(buf, s->pending + s->poff, n);
            s->poff += n;
            return (ssize_t)n;
        }
        sse_set(s, NULL);
        if (s->final)
            return MHD_CONTENT_READER_END_OF_STREAM;
        if (s->fired == API_WATCH_HUNGUP)
            return MHD_CONTENT_READER_END_WITH_ERROR; /* the client closed the stream */
        if (api_watch_revoked(s->slot)) {
            /* its key was revoked: nothing more is read for it; one last event says why */
            sse_set(s, revoked_event());
            s->final = 1;
            continue;
        }
        now = sk_time_mono_ms();
        if (s->fired) {
            char *text = NULL;
            int rc;
            s->fired = 0;
            rc = s->feed ? feed_next(s, &text)
                         : api_jobs_events_next(ctx, s->job, s->etag, s->status, &s->done, &text);
            if (rc < 0 && s->feed) /* changes were taken and cannot be sent: the client reloads */
                return MHD_CONTENT_READER_END_OF_STREAM;
            if (rc == 0 && text) {
                sse_set(s, text);
                s->final = !s->feed && db_jobs_is_final(s->status);
                continue;
            }
            if (now >= s->next_beat_ms) {
                sse_set(s, sk_strdup(": heartbeat\n\n"));
                s->next_beat_ms = now + SSE_BEAT_MS;
                if (s->pending)
                    continue;
            }
        }
        if (s->feed) {
            int rc = ctx->watch ? api_watch_feed_wait(ctx->watch, s->feed, s->slot, s->next_beat_ms,
                                                      s->fd, sse_fire, s)
                                : -1;
            if (rc > 0) { /* changes came while the last ones were sent */
                s->fired = 1;
                continue;
            }
            if (rc < 0)
                return MHD_CONTENT_READER_END_OF_STREAM;
            return 0;
        }
        /* the server is stopping (or out of memory): end the stream */
        if (!ctx->watch ||
            api_watch_add(ctx->watch, s->slot, s->job, s->next_beat_ms, s->fd, sse_fire, s))
            return MHD_CONTENT_READER_END_OF_STREAM;
        return 0; /* suspended: MHD calls again once resumed */
    }
}

static void sse_free(void *cls)
{
    struct sse *s = cls;
    if (s->srv->ctx->watch) {
        api_watch_feed_close(s->srv->ctx->watch, s->feed);
        api_watch_release(s->srv->ctx->watch, s->slot);
    }
    api_guard_waiter_release(s->srv->guard, s->addr);
    sk_free(s->pending);
    sk_free(s);
}

/* The cap a waiter was refused by. */
enum waiter_cap {
    CAP_PROCESS, /* SKIRMISH_MAX_WAITERS (or out of memory): 503 */
    CAP_TENANT,  /* SKIRMISH_MAX_WAITERS_PER_TENANT: 429 quota-exceeded */
    CAP_ADDR,    /* SKIRMISH_MAX_WAITERS_PER_ADDR: 429 client-limit */
};

/* Answers a waiter refused by cap `cap` (`resp` is replaced). */
static void refuse_waiter(const struct sk_config *cfg, enum waiter_cap cap,
                          struct api_response *resp)
{
    api_http_response_release(resp);
    api_http_response_init(resp);
    if (cap == CAP_TENANT) {
        char detail[200];
        snprintf(detail, sizeof(detail),
                 "the tenant has %ld long polls and event streams open on this API process, the "
                 "most it may have (SKIRMISH_MAX_WAITERS_PER_TENANT); close one or retry shortly",
                 cfg->max_waiters_per_tenant);
        api_http_problem(resp, 429, "quota-exceeded", "Too Many Requests", detail,
                         json_pack("{s:s, s:I, s:I}", "quota", "waiters", "limit",
                                   (json_int_t)cfg->max_waiters_per_tenant, "used",
                                   (json_int_t)cfg->max_waiters_per_tenant));
    } else if (cap == CAP_ADDR) {
        api_http_problem(resp, 429, "client-limit", "Too Many Requests",
                         "too many long polls and event streams are open from this address; "
                         "close one or retry shortly",
                         NULL);
    } else {
        api_http_problem(resp, 503, "too-many-waiters", "Service Unavailable",
                         "too many long polls and event streams are open; retry shortly", NULL);
    }
    resp->retry_after = 5;
}

/* Counts a long poll or event stream against the process's, its tenant's and its address's
 * caps (the tenant and key are those the router put in `resp`). Returns 1 with *slot set
 * (release it with api_watch_release), or 0 with `resp` set to the 503 or 429 to send
 * instead. */
static int acquire_waiter(struct api_server *srv, uint32_t addr, struct api_response *resp,
                          struct api_watch_slot **slot)
{
    struct api_watch *w = srv->ctx->watch;
    enum api_watch_verdict v = api_watch_acquire(w, resp->caller_tenant, resp->caller_key, slot);
    if (v != API_WATCH_OK) {
        refuse_waiter(srv->ctx->cfg, v == API_WATCH_TENANT_FULL ? CAP_TENANT : CAP_PROCESS, resp);
        return 0;
    }
    if (!api_guard_waiter_acquire(srv->guard, addr)) {
        api_watch_release(w, *slot);
        *slot = NULL;
        refuse_waiter(srv->ctx->cfg, CAP_ADDR, resp);
        return 0;
    }
    return 1;
}

/* Starts an event stream: the handler's first events, then sse_read. */
static enum MHD_Result send_stream(struct api_server *srv, struct MHD_Connection *conn,
                                   struct conn_state *st, const struct api_request *req,
                                   struct api_response *resp, const char *req_id)
{
    struct MHD_Response *r;
    struct sse *s;
    struct api_watch_slot *slot = NULL;
    enum MHD_Result ret;

    if (!srv->ctx->watch || !acquire_waiter(srv, st->addr, resp, &slot))
        return send_response(srv, conn, req, resp, req_id);
    s = sk_calloc(1, sizeof(*s));
    if (!s) {
        api_watch_release(srv->ctx->watch, slot);
        api_guard_waiter_release(srv->guard, st->addr);
        return MHD_NO;
    }
    s->slot = slot; /* released by sse_free from now on */
    s->srv = srv;
    s->conn = conn;
    s->fd = conn_fd(conn);
    s->addr = st->addr;
    snprintf(s->job, sizeof(s->job), "%s", resp->wait_job);
    memcpy(s->etag, resp->wait_ref, sizeof(s->etag));
    snprintf(s->status, sizeof(s->status), "%s", resp->sse_status);
    s->done = resp->sse_done;
    s->final = db_jobs_is_final(s->status);
    s->next_beat_ms = sk_time_mono_ms() + SSE_BEAT_MS;
    /* the stream of every job: a feed gathers the changes from now on */
    if (strcmp(s->job, "*") == 0 && !(s->feed = api_watch_feed_open(srv->ctx->watch))) {
        api_watch_release(srv->ctx->watch, s->slot);
        api_guard_waiter_release(srv->guard, st->addr);
        sk_free(s);
        return MHD_NO;
    }
    /* "retry:" asks a reconnecting browser to wait 2 s */
    {
        const char *first = resp->body ? resp->body : "";
        size_t n = strlen(first) + 16;
        char *t = sk_malloc(n);
        if (t)
            snprintf(t, n, "retry: 2000\n%s", first);
        sse_set(s, t);
    }
    r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, sse_read, s, sse_free);
    if (!r) {
        sse_free(s);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    common_headers(srv, r, req, resp, req_id);
    ret = MHD_queue_response(conn, (unsigned)resp->status, r);
    MHD_destroy_response(r);
    return ret;
}

/* A handler asked to wait (resp->wait): counts the waiter (503 when too many are open,
 * 429 when too many are open for the caller's tenant or from the client's address),
 * registers it and suspends the connection. Returns 1 when suspended; 0 when `resp` now
 * holds the answer to send (a 503 or 429, or the job as it is when the server is
 * stopping). */
static int start_wait(struct api_server *srv, struct MHD_Connection *conn, struct conn_state *st,
                      struct api_request *req, struct api_response *resp)
{
    struct api_watch *w = srv->ctx->watch;
    if (!st->waiting && !acquire_waiter(srv, st->addr, resp, &st->slot))
        return 0;
    st->waiting = 1;
    st->conn = conn;
    st->deadline_ms = resp->wait_deadline_ms;
    memcpy(st->ref, resp->wait_ref, sizeof(st->ref));
    if (api_watch_add(w, st->slot, resp->wait_job, resp->wait_deadline_ms, conn_fd(conn), poll_fire,
                      st) == 0) {
        api_http_response_release(resp);
        return 1;
    }
    /* the server is stopping: answer with the job as it is now */
    api_http_response_release(resp);
    api_http_response_init(resp);
    req->wait_deadline_ms = req->now_ms;
    req->wait_ref = st->ref;
    api_router_handle(srv->ctx, req, resp);
    return 0;
}

/* A connection's guard entry, kept by the connection notifications (NULL when none). */
static struct api_guard_conn *guard_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci && ci->socket_context ? ci->socket_context : NULL;
}

/* MHD_get_connection_values callback: gathers the X-Forwarded-For fields in the order
 * received, a bounded number (past it the last ones win: they are the trusted proxies'). */
struct xff_fields {
    const char *v[8];
    size_t n;
};

static enum MHD_Result collect_xff(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    struct xff_fields *f = cls;
    (void)kind;
    if (!key || strcasecmp(key, "X-Forwarded-For") != 0)
        return MHD_YES;
    if (f->n == sizeof(f->v) / sizeof(f->v[0])) {
        memmove(f->v, f->v + 1, sizeof(f->v) - sizeof(f->v[0]));
        f->n--;
    }
    f->v[f->n++] = value;
    return MHD_YES;
}

/* The client address of a request from TCP peer `peer` (IPv4, host order): the peer's,
 * or, when the peer is a trusted proxy (SKIRMISH_TRUSTED_PROXIES), the one its
 * X-Forwarded-For names (api_proxy_client). Read per request, not per connection: a proxy
 * may send several clients' requests on one kept-alive connection. Writes the address as
 * text to `text` (API_PROXY_ADDRSTRLEN bytes). */
static uint32_t client_addr(const struct api_server *srv, struct MHD_Connection *conn,
                            uint32_t peer, char *text)
{
    struct xff_fields f = {{NULL}, 0};
    if (api_proxy_trusts(srv->proxy, peer))
        MHD_get_connection_values(conn, MHD_HEADER_KIND, collect_xff, &f);
    return api_proxy_client(srv->proxy, peer, f.v, f.n, text, API_PROXY_ADDRSTRLEN);
}

/* The request as plain data for the handlers (strings borrowed from MHD and `st`). */
static void fill_request(struct MHD_Connection *conn, const struct conn_state *st,
                         const char *method, const char *url, struct api_request *req)
{
    memset(req, 0, sizeof(*req));
    req->method = method;
    req->path = url;
    req->content_type =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    req->body = st->body.p;
    req->body_len = st->body.len;
    req->body_too_large = st->refuse == 413;
    req->req_id = st->req_id;
    req->client_addr = st->addr;
    req->origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin");
    req->host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host");
    req->if_none_match =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    req->idempotency_key = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Idempotency-Key");
    req->last_event_id = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Last-Event-ID");
    req->acr_method =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Access-Control-Request-Method");
    req->authorization =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    req->now_ms = sk_time_mono_ms();
    if (st->waiting) {
        req->wait_deadline_ms = st->deadline_ms;
        req->wait_ref = st->ref;
    }
    MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect_arg, req);
}

/* One access log line; the path as a quoted value, so a control byte in it cannot start a
 * forged line. */
static void log_request(const struct conn_state *st, const char *method, const char *url,
                        int status)
{
    char q[600];
    long us = (long)((sk_time_mono_ns() - st->start_ns) / 1000);
    sk_log_info("event=request req_id=%s method=%s path=%s status=%d dur_us=%ld client=%s",
                st->req_id, method, sk_log_quote(q, 220, url), status, us, st->client);
}

/* Routes and authenticates a request with a body on its header alone (api_router_admit):
 * a caller without a valid key, or a request no route takes, spends none of the memory the
 * bodies of authenticated callers share; its body is read and dropped, then refused. */
static void admit_body(struct api_server *srv, struct MHD_Connection *conn, struct conn_state *st,
                       const char *method, const char *url)
{
    struct api_request req;
    struct api_http_safe ss = {{NULL}, 0};

    fill_request(conn, st, method, url, &req);
    if (api_http_safe_request(&req, &ss) == 0 && !req.too_many_args &&
        api_router_admit(srv->ctx, &req, &st->who, &st->early))
        st->admitted = 1;
    else if (st->early.status)
        st->refuse = REFUSE_EARLY;
    /* out of memory or too many arguments: decided on the whole request, as before */
    api_http_safe_release(&ss);
}

/* The answer to a whole request (its body read): a refusal decided on the way, or the
 * route's. */
static void answer(struct api_server *srv, struct conn_state *st, const struct api_request *req,
                   int oom, struct api_response *resp)
{
    if (oom) {
        api_http_problem(resp, 500, NULL, "Internal Server Error", "out of memory", NULL);
    } else if (req->too_many_args) {
        api_http_problem(resp, 400, "invalid-query", "Bad Request", "too many query parameters",
                         NULL);
    } else if (st->refuse == REFUSE_EARLY) {
        *resp = st->early; /* the answer to its header, taken over */
        api_http_response_init(&st->early);
    } else if (st->refuse == 503) {
        api_http_problem(resp, 503, "server-busy", "Service Unavailable",
                         "the server holds too many unfinished request bodies; retry shortly",
                         NULL);
        resp->retry_after = 1;
    } else if (api_watch_revoked(st->slot)) {
        /* a long poll whose key was revoked while it waited ends now, on every API process
         * (announced through Redis, or found by the periodic key check: api_watch.h) */
        api_auth_revoked(resp);
    } else if (st->admitted) {
        /* the key was checked on the header: its rate-limit headers go with the answer */
        memcpy(resp->ratelimit_policy, st->early.ratelimit_policy, sizeof(resp->ratelimit_policy));
        memcpy(resp->ratelimit, st->early.ratelimit, sizeof(resp->ratelimit));
        api_router_handle_admitted(srv->ctx, req, &st->who, resp);
    } else {
        api_router_handle(srv->ctx, req, resp);
    }
}

static enum MHD_Result access_cb(void *cls, struct MHD_Connection *conn, const char *url,
                                 const char *method, const char *version, const char *upload,
                                 size_t *upload_size, void **con_cls)
{
    struct api_server *srv = cls;
    struct conn_state *st = *con_cls;
    struct api_request req;
    struct api_response resp;
    struct api_http_safe ss = {{NULL}, 0};
    int oom = 0;
    enum MHD_Result ret;
    size_t max = (size_t)srv->ctx->cfg->max_body_bytes;
    int early = 0;

    api_http_response_init(&resp);
    if (!st) {
        st = sk_calloc(1, sizeof(*st));
        if (!st)
            return MHD_NO;
        sk_buf_init(&st->body, max);
        api_http_response_init(&st->early);
        st->start_ns = sk_time_mono_ns();
        make_req_id(conn, st);
        st->gconn = guard_of(conn);
        st->addr = client_addr(srv, conn, api_guard_addr(st->gconn), st->client);
        *con_cls = st;
        if (api_guard_refused(srv->guard, st->gconn))
            return MHD_NO; /* answered by the guard already (a cap, a deadline) */
        api_guard_phase(srv->guard, st->gconn, API_GUARD_BODY);
        early = check_head(srv, conn, st, version, target_len(conn, url), &resp);
        if (!early) {
            if (st->has_body && !st->refuse)
                admit_body(srv, conn, st, method, url);
            return MHD_YES;
        }
    }
    if (!early && *upload_size) {
        if (take_body(srv, st, upload, *upload_size))
            return MHD_NO; /* far past the limit: close rather than read on */
        *upload_size = 0;
        return MHD_YES;
    }
    if (st->hup)
        return MHD_NO; /* the waiting client went away: nothing to answer */
    api_guard_phase(srv->guard, st->gconn, API_GUARD_BUSY);

    fill_request(conn, st, method, url, &req);
    oom = api_http_safe_request(&req, &ss);
    if (!(early && resp.status)) /* else resp holds the answer to the header already */
        answer(srv, st, &req, oom, &resp);
    if (st->refuse)
        resp.close = 1; /* the rest of what the client sends is not read */
    if (resp.wait && start_wait(srv, conn, st, &req, &resp)) {
        api_http_safe_release(&ss);
        return MHD_YES; /* suspended: called again once the job changes */
    }
    api_metrics_observe(srv->ctx->metrics, resp.route, method, resp.status,
                        seconds_since(st->start_ns));
    if (srv->ctx->cfg->access_log)
        log_request(st, method, url, resp.status);
    if (resp.sse && resp.status == 200)
        ret = send_stream(srv, conn, st, &req, &resp, st->req_id);
    else
        ret = send_response(srv, conn, &req, &resp, st->req_id);
    api_http_response_release(&resp);
    api_http_safe_release(&ss);
    return ret;
}

static void completed_cb(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    struct api_server *srv = cls;
    struct conn_state *st = *con_cls;
    (void)toe;
    if (!st)
        return;
    if (st->waiting) {
        api_watch_release(srv->ctx->watch, st->slot);
        api_guard_waiter_release(srv->guard, st->addr);
    }
    drop_body(srv, st);
    api_http_response_release(&st->early);
    sk_free(st);
    *con_cls = NULL;
    /* kept alive: the next request's header is due within the header timeout */
    api_guard_phase(srv->guard, guard_of(conn), API_GUARD_IDLE);
}

/* Takes a connection's guard entry from the gate as libmicrohttpd starts it, and
 * unregisters it before its socket is closed. */
static void conn_cb(void *cls, struct MHD_Connection *conn, void **socket_context,
                    enum MHD_ConnectionNotificationCode code)
{
    struct api_server *srv = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        int fd = conn_fd(conn);
        *socket_context = fd >= 0 ? api_gate_take(srv->gate, fd) : NULL;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        api_guard_close(srv->guard, *socket_context);
        *socket_context = NULL;
    }
}

/* The gate hands over a socket whose first request's head it read (api_gate_handoff). */
static int hand_over(void *arg, int fd, const struct sockaddr *addr, socklen_t len)
{
    struct api_server *srv = arg;
    return MHD_add_connection(srv->daemon, fd, addr, len) == MHD_YES ? 0 : -1;
}

/* libmicrohttpd's messages; its format string (clang's -Wformat-nonliteral in the fuzz build). */
__attribute__((format(printf, 2, 0))) static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    char msg[512];
    char q[600];
    size_t n;
    (void)cls;
    vsnprintf(msg, sizeof(msg), fmt, ap);
    n = strlen(msg);
    while (n && msg[n - 1] == '\n')
        msg[--n] = '\0';
    sk_log_warn("event=http_server msg=%s", sk_log_quote(q, sizeof(q), msg));
}

static enum sk_err make_guard(const struct sk_config *cfg, struct api_guard **out)
{
    struct api_guard_limits lim = {cfg->max_connections,         cfg->max_connections_per_addr,
                                   cfg->header_timeout_s * 1000, cfg->body_timeout_s * 1000,
                                   cfg->max_waiters_per_addr,    cfg->body_memory_bytes};
    struct api_guard_answers ans;
    size_t len;
    char *t = api_gate_answer(408, "request-timeout", "Request Timeout",
                              "the request was not received in time", NULL, 0, &len);
    char *a = api_gate_answer(429, "client-limit", "Too Many Requests",
                              "too many connections are open from this address", NULL, 5, &len);
    char *m = api_gate_answer(503, "server-busy", "Service Unavailable",
                              "too many connections are open; retry shortly", NULL, 5, &len);
    enum sk_err err = SK_ENOMEM;
    if (t && a && m) {
        ans.timeout = t;
        ans.per_addr = a;
        ans.too_many = m;
        err = api_guard_new(&lim, &ans, out);
    }
    sk_free(t);
    sk_free(a);
    sk_free(m);
    return err;
}

/* What the gate lets through: twice the API's header bytes (so that check_head decides near
 * that limit, with its own measure), the API's count of fields (counted the same way: the
 * gate refuses line folding), and what libmicrohttpd's memory per connection (sized from
 * these in api_server_new) holds. */
static void gate_limits(const struct sk_config *cfg, struct api_gate_limits *lim)
{
    lim->max_head = (size_t)cfg->max_header_bytes * 2;
    lim->max_fields = (size_t)cfg->max_headers;
    lim->max_args = (size_t)2 * API_MAX_ARGS;
    lim->max_cookies = 32;
    lim->max_body = cfg->max_body_bytes;
}

enum sk_err api_server_new(const struct api_ctx *ctx, struct api_server **out)
{
    const struct sk_config *cfg = ctx->cfg;
    struct api_server *srv = NULL;
    struct api_gate_limits lim;
    unsigned threads = (unsigned)cfg->http_threads;
    /* libmicrohttpd's own limits sit above ours, so that ours answer first with a problem:
     * connections past our caps are answered and closed by the gate and the guard and never
     * reach it; its idle timeout is the longer of ours (a stalled client is answered by the
     * guard). Its memory per connection holds any head the gate lets through: the head and
     * a copy of its Cookie field, a 64-byte record for every field, query parameter and
     * cookie, and the answer's header. It is zeroed before every request of a kept-alive
     * connection, so it is no larger than that (48 KiB by default). */
    unsigned conn_limit = (unsigned)(cfg->max_connections + 256);
    unsigned ip_limit = (unsigned)(cfg->max_connections_per_addr + 64);
    size_t mem_limit;
    unsigned timeout =
        (unsigned)(cfg->header_timeout_s > cfg->body_timeout_s ? cfg->header_timeout_s
                                                               : cfg->body_timeout_s) +
        5;
    enum sk_err err;

    gate_limits(cfg, &lim);
    mem_limit = lim.max_head * 2 + (lim.max_fields + lim.max_args + lim.max_cookies) * 64 + 8192;
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (unsigned)n : 1;
    }
    srv = sk_calloc(1, sizeof(*srv));
    if (!srv)
        return SK_ENOMEM;
    srv->ctx = ctx;
    err = api_proxy_new(cfg->trusted_proxies, &srv->proxy, NULL, 0);
    if (err) {
        sk_free(srv);
        return err;
    }
    /* 0 = none: a trusted proxy's connections all have its address (the guard exempts it
     * and caps every other peer) */
    if (api_proxy_count(srv->proxy))
        ip_limit = 0;
    if (make_guard(cfg, &srv->guard)) {
        api_proxy_free(srv->proxy);
        sk_free(srv);
        return SK_ENOMEM;
    }
    err = api_gate_new(cfg->http_addr, (int)cfg->http_port, 1024, &lim, srv->guard, &srv->gate);
    if (err) {
        api_guard_free(srv->guard);
        api_proxy_free(srv->proxy);
        sk_free(srv);
        return err;
    }
    api_gate_trust(srv->gate, srv->proxy);
    /* No listening socket of its own: the gate accepts and hands sockets over. */
    srv->daemon = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME |
            MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC,
        0, NULL, NULL,
        /* The logger first: MHD warns (through its default logger) about any option
         * placed before it. */
        access_cb, srv, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, MHD_OPTION_THREAD_POOL_SIZE,
        threads, MHD_OPTION_NOTIFY_COMPLETED, completed_cb, srv, MHD_OPTION_NOTIFY_CONNECTION,
        conn_cb, srv, MHD_OPTION_CONNECTION_TIMEOUT, timeout, MHD_OPTION_CONNECTION_LIMIT,
        conn_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT, ip_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, mem_limit, MHD_OPTION_END);
    if (!srv->daemon || api_gate_start(srv->gate, hand_over, srv)) {
        if (srv->daemon)
            MHD_stop_daemon(srv->daemon);
        api_gate_free(srv->gate);
        api_guard_free(srv->guard);
        api_proxy_free(srv->proxy);
        sk_free(srv);
        return SK_EIO;
    }
    *out = srv;
    return SK_OK;
}

void api_server_free(struct api_server *srv)
{
    if (!srv)
        return;
    /* Stop accepting (the gate), then, since MHD must not stop with suspended connections,
     * resume every waiter and give them up to a second to be answered (long polls) or ended
     * (event streams). The gate is freed last: MHD takes guard entries from it until it
     * stops. */
    api_gate_stop(srv->gate);
    {
        struct api_watch *w = srv->ctx->watch;
        api_watch_close(w);
        for (int i = 0; w && i < 100 && api_watch_open(w) > 0; i++) {
            struct timespec ts = {0, 10000000L};
            nanosleep(&ts, NULL);
        }
        MHD_stop_daemon(srv->daemon);
    }
    api_gate_free(srv->gate);
    api_guard_free(srv->guard);
    api_proxy_free(srv->proxy);
    sk_free(srv);
}
