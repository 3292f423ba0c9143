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
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "api_cors.h"
#include "api_jobs.h"
#include "api_metrics.h"
#include "api_watch.h"
#include "db_jobs.h"
#include "sk_buf.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

struct api_server {
    struct MHD_Daemon *daemon;
    const struct api_ctx *ctx;
};

/* Per-request state: made on the first call of the access handler, freed only in the
 * completion callback (house style 16). */
struct conn_state {
    struct sk_buf body; /* at most max_body_bytes */
    int too_large;
    struct timespec start;
    char req_id[40];
    /* a long poll: counted as an open waiter; suspended until its job changes */
    struct MHD_Connection *conn;
    int waiting;
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
    int fired; /* written under the watch lock, read by the connection's thread */
    int final;
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

/* Appends body bytes; past max_body_bytes (or out of memory, when the request cannot be
 * kept either way) the body is dropped and answered as too large. */
static void take_body(struct conn_state *st, const char *data, size_t n)
{
    if (st->too_large)
        return;
    if (sk_buf_add(&st->body, data, n)) {
        st->too_large = 1;
        sk_buf_release(&st->body);
    }
}

struct arg_collect {
    struct api_request *req;
};

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

static void free_body(void *p)
{
    sk_free(p);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
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
    common_headers(srv, r, req, resp, req_id);
    ret = MHD_queue_response(conn, (unsigned)resp->status, r);
    MHD_destroy_response(r);
    return ret;
}

/* Suspends (fire = 0) or resumes (fire = 1) a long poll's connection; under the watch lock. */
static void poll_fire(void *arg, int fire)
{
    struct conn_state *st = arg;
    if (fire)
        MHD_resume_connection(st->conn);
    else
        MHD_suspend_connection(st->conn);
}

static void sse_fire(void *arg, int fire)
{
    struct sse *s = arg;
    if (fire) {
        s->fired = 1;
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
        now = api_watch_now_ms();
        if (s->fired) {
            char *text = NULL;
            s->fired = 0;
            if (api_jobs_events_next(ctx, s->job, s->etag, s->status, &s->done, &text) == 0 &&
                text) {
                sse_set(s, text);
                s->final = db_jobs_is_final(s->status);
                continue;
            }
            if (now >= s->next_beat_ms) {
                sse_set(s, sk_strdup(": heartbeat\n\n"));
                s->next_beat_ms = now + SSE_BEAT_MS;
                if (s->pending)
                    continue;
            }
        }
        /* the server is stopping (or out of memory): end the stream */
        if (!ctx->watch || api_watch_add(ctx->watch, s->job, s->next_beat_ms, sse_fire, s))
            return MHD_CONTENT_READER_END_OF_STREAM;
        return 0; /* suspended: MHD calls again once resumed */
    }
}

static void sse_free(void *cls)
{
    struct sse *s = cls;
    if (s->srv->ctx->watch)
        api_watch_release(s->srv->ctx->watch);
    sk_free(s->pending);
    sk_free(s);
}

/* Starts an event stream: the handler's first events, then sse_read. */
static enum MHD_Result send_stream(struct api_server *srv, struct MHD_Connection *conn,
                                   const struct api_request *req, struct api_response *resp,
                                   const char *req_id)
{
    struct MHD_Response *r;
    struct sse *s;
    enum MHD_Result ret;

    if (!srv->ctx->watch || !api_watch_acquire(srv->ctx->watch)) {
        api_http_response_release(resp);
        api_http_response_init(resp);
        api_http_problem(resp, 503, "too-many-waiters", "Service Unavailable",
                         "too many long polls and event streams are open; retry shortly", NULL);
        resp->retry_after = 5;
        return send_response(srv, conn, req, resp, req_id);
    }
    s = sk_calloc(1, sizeof(*s));
    if (!s) {
        api_watch_release(srv->ctx->watch);
        return MHD_NO;
    }
    s->srv = srv;
    s->conn = conn;
    snprintf(s->job, sizeof(s->job), "%s", resp->wait_job);
    memcpy(s->etag, resp->wait_ref, sizeof(s->etag));
    snprintf(s->status, sizeof(s->status), "%s", resp->sse_status);
    s->done = resp->sse_done;
    s->final = db_jobs_is_final(s->status);
    s->next_beat_ms = api_watch_now_ms() + SSE_BEAT_MS;
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

/* A handler asked to wait (resp->wait): counts the waiter (503 when too many are open),
 * registers it and suspends the connection. Returns 1 when suspended; 0 when `resp` now
 * holds the answer to send (a 503, or the job as it is when the server is stopping). */
static int start_wait(struct api_server *srv, struct MHD_Connection *conn, struct conn_state *st,
                      struct api_request *req, struct api_response *resp)
{
    struct api_watch *w = srv->ctx->watch;
    if (!st->waiting && !api_watch_acquire(w)) {
        api_http_response_release(resp);
        api_http_response_init(resp);
        api_http_problem(resp, 503, "too-many-waiters", "Service Unavailable",
                         "too many long polls and event streams are open; retry shortly", NULL);
        resp->retry_after = 5;
        return 0;
    }
    st->waiting = 1;
    st->conn = conn;
    st->deadline_ms = resp->wait_deadline_ms;
    memcpy(st->ref, resp->wait_ref, sizeof(st->ref));
    if (api_watch_add(w, resp->wait_job, resp->wait_deadline_ms, poll_fire, st) == 0) {
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

static enum MHD_Result access_cb(void *cls, struct MHD_Connection *conn, const char *url,
                                 const char *method, const char *version, const char *upload,
                                 size_t *upload_size, void **con_cls)
{
    struct api_server *srv = cls;
    struct conn_state *st = *con_cls;
    struct api_request req;
    struct api_response resp;
    enum MHD_Result ret;
    size_t max = (size_t)srv->ctx->cfg->max_body_bytes;
    (void)version;

    if (!st) {
        const char *cl;
        uint64_t declared = 0;
        st = sk_calloc(1, sizeof(*st));
        if (!st)
            return MHD_NO;
        sk_buf_init(&st->body, max);
        clock_gettime(CLOCK_MONOTONIC, &st->start);
        make_req_id(conn, st);
        *con_cls = st;
        /* A declared length over the limit is refused before reading a byte of it. */
        cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && !sk_parse_u64(cl, 0, UINT64_MAX, &declared) && declared > max)
            st->too_large = 1;
        if (!st->too_large)
            return MHD_YES;
    }
    if (*upload_size && !st->too_large) {
        take_body(st, upload, *upload_size);
        *upload_size = 0;
        return MHD_YES;
    }
    *upload_size = 0; /* bytes past the limit are discarded */

    memset(&req, 0, sizeof(req));
    req.method = method;
    req.path = url;
    req.content_type =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    req.body = st->body.p;
    req.body_len = st->body.len;
    req.body_too_large = st->too_large;
    req.req_id = st->req_id;
    req.origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin");
    req.host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host");
    req.if_none_match =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    req.idempotency_key = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Idempotency-Key");
    req.last_event_id = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Last-Event-ID");
    req.acr_method =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Access-Control-Request-Method");
    req.authorization =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    req.now_ms = api_watch_now_ms();
    if (st->waiting) {
        req.wait_deadline_ms = st->deadline_ms;
        req.wait_ref = st->ref;
    }
    MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect_arg, &req);
    api_http_response_init(&resp);
    if (req.too_many_args)
        api_http_problem(&resp, 400, "invalid-query", "Bad Request", "too many query parameters",
                         NULL);
    else
        api_router_handle(srv->ctx, &req, &resp);
    if (resp.wait && start_wait(srv, conn, st, &req, &resp))
        return MHD_YES; /* suspended: called again once the job changes */
    api_metrics_observe(srv->ctx->metrics, resp.route, method, resp.status,
                        seconds_since(&st->start));
    if (srv->ctx->cfg->access_log) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long us =
            (now.tv_sec - st->start.tv_sec) * 1000000L + (now.tv_nsec - st->start.tv_nsec) / 1000L;
        sk_log_info("event=request req_id=%s method=%s path=%.200s status=%d dur_us=%ld",
                    st->req_id, method, url, resp.status, us);
    }
    if (resp.sse && resp.status == 200)
        ret = send_stream(srv, conn, &req, &resp, st->req_id);
    else
        ret = send_response(srv, conn, &req, &resp, st->req_id);
    api_http_response_release(&resp);
    return ret;
}

static void completed_cb(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    struct conn_state *st = *con_cls;
    (void)conn;
    (void)toe;
    if (!st)
        return;
    if (st->waiting)
        api_watch_release(((struct api_server *)cls)->ctx->watch);
    sk_buf_release(&st->body);
    sk_free(st);
    *con_cls = NULL;
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
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

enum sk_err api_server_new(const struct api_ctx *ctx, struct api_server **out)
{
    struct api_server *srv = NULL;
    struct sockaddr_in addr;
    unsigned threads = (unsigned)ctx->cfg->http_threads;

    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)ctx->cfg->http_port);
    if (inet_pton(AF_INET, ctx->cfg->http_addr, &addr.sin_addr) != 1)
        return SK_EINVAL;
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (unsigned)n : 1;
    }
    srv = sk_calloc(1, sizeof(*srv));
    if (!srv)
        return SK_ENOMEM;
    srv->ctx = ctx;
    srv->daemon = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL,
        /* The logger first: MHD warns (through its default logger) about any option
         * placed before it. */
        access_cb, srv, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&addr, MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_NOTIFY_COMPLETED,
        completed_cb, srv, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)4096, MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024, MHD_OPTION_END);
    if (!srv->daemon) {
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
    /* MHD must not stop with suspended connections: stop accepting, resume every waiter,
     * and give them up to a second to be answered (long polls) or ended (event streams) */
    {
        MHD_socket lsock = MHD_quiesce_daemon(srv->daemon);
        struct api_watch *w = srv->ctx->watch;
        api_watch_close(w);
        for (int i = 0; w && i < 100 && api_watch_open(w) > 0; i++) {
            struct timespec ts = {0, 10000000L};
            nanosleep(&ts, NULL);
        }
        MHD_stop_daemon(srv->daemon);
        if (lsock != MHD_INVALID_SOCKET)
            close(lsock);
    }
    sk_free(srv);
}
