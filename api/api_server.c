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
    char *body;
    size_t len, cap;
    int too_large;
    struct timespec start;
    char req_id[40];
};

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

/* Appends body bytes, keeping at most max_body_bytes. */
static void take_body(struct conn_state *st, const char *data, size_t n, size_t max)
{
    if (st->too_large)
        return;
    if (st->len + n > max) {
        st->too_large = 1;
        sk_free(st->body);
        st->body = NULL;
        st->len = st->cap = 0;
        return;
    }
    if (st->len + n > st->cap) {
        size_t cap = st->cap ? st->cap : 4096;
        while (cap < st->len + n)
            cap *= 2;
        char *b = sk_realloc(st->body, cap);
        if (!b) {
            /* answered as too large: the request cannot be kept either way */
            st->too_large = 1;
            return;
        }
        st->body = b;
        st->cap = cap;
    }
    memcpy(st->body + st->len, data, n);
    st->len += n;
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

static enum MHD_Result send_response(struct MHD_Connection *conn, struct api_response *resp,
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
    if (resp->etag[0])
        MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, resp->etag);
    if (resp->csp) {
        MHD_add_response_header(r, "Content-Security-Policy", resp->csp);
        MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
                            resp->cache_control ? resp->cache_control : "no-store");
    MHD_add_response_header(r, "X-Request-Id", req_id);
    ret = MHD_queue_response(conn, (unsigned)resp->status, r);
    MHD_destroy_response(r);
    return ret;
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
        take_body(st, upload, *upload_size, max);
        *upload_size = 0;
        return MHD_YES;
    }
    *upload_size = 0; /* bytes past the limit are discarded */

    memset(&req, 0, sizeof(req));
    req.method = method;
    req.path = url;
    req.content_type =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    req.body = st->body;
    req.body_len = st->len;
    req.body_too_large = st->too_large;
    req.req_id = st->req_id;
    req.if_none_match =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect_arg, &req);
    api_http_response_init(&resp);
    if (req.too_many_args)
        api_http_problem(&resp, 400, "invalid-query", "Bad Request", "too many query parameters",
                         NULL);
    else
        api_router_handle(srv->ctx, &req, &resp);
    if (srv->ctx->cfg->access_log) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long us =
            (now.tv_sec - st->start.tv_sec) * 1000000L + (now.tv_nsec - st->start.tv_nsec) / 1000L;
        sk_log_info("event=request req_id=%s method=%s path=%.200s status=%d dur_us=%ld",
                    st->req_id, method, url, resp.status, us);
    }
    ret = send_response(conn, &resp, st->req_id);
    api_http_response_release(&resp);
    return ret;
}

static void completed_cb(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    struct conn_state *st = *con_cls;
    (void)cls;
    (void)conn;
    (void)toe;
    if (!st)
        return;
    sk_free(st->body);
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
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL, access_cb, srv,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_NOTIFY_COMPLETED, completed_cb, srv, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)4096, MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024,
        MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, MHD_OPTION_END);
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
    MHD_stop_daemon(srv->daemon);
    sk_free(srv);
}
