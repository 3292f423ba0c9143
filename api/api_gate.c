/* SPDX-License-Identifier: MIT */
/* The request gate (see api_gate.h). */
#include "api_gate.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "api_http.h"
#include "api_proxy.h"
#include "sk_buf.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_time.h"

#include "sk_banned.h"

/* ---- the head parser ------------------------------------------------------------------ */

/* tchar of RFC 9110 5.6.2: the characters of a method or a field name. */
static int is_tchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Fills `why`; returns API_GATE_REFUSE. `name` (n bytes) is copied with bytes outside
 * printable ASCII as %XX (it is a client's text; jansson takes only UTF-8). */
static enum api_gate_verdict refuse(struct api_gate_problem *why, int status, const char *slug,
                                    const char *title, const char *member, const char *name,
                                    size_t n, const char *detail)
{
    size_t o = 0;
    why->status = status;
    why->slug = slug;
    why->title = title;
    why->member = member;
    for (size_t i = 0; i < n && o + 4 < sizeof(why->name); i++) {
        unsigned char c = (unsigned char)name[i];
        if (c > 0x20 && c < 0x7f && c != '%')
            why->name[o++] = (char)c;
        else
            o += (size_t)snprintf(why->name + o, sizeof(why->name) - o, "%%%02X", c);
    }
    why->name[o] = '\0';
    snprintf(why->detail, sizeof(why->detail), "%s", detail);
    return API_GATE_REFUSE;
}

static enum api_gate_verdict bad_element(struct api_gate_problem *why, const char *element,
                                         const char *detail)
{
    return refuse(why, 400, "invalid-request", "Bad Request", "element", element, strlen(element),
                  detail);
}

static enum api_gate_verdict bad_header(struct api_gate_problem *why, const char *name, size_t n,
                                        const char *detail)
{
    return refuse(why, 400, "invalid-request", "Bad Request", "header", name, n, detail);
}

/* The end of the line starting at `p`: the index of its LF, or `n` when it has not arrived.
 * A line ends at LF; a CR before it is not part of the line (RFC 9112 2.2 lets a
 * recipient take a bare LF as the end of a line, and libmicrohttpd does). */
static size_t line_end(const char *buf, size_t n, size_t p)
{
    const char *lf = memchr(buf + p, '\n', n - p);
    return lf ? (size_t)(lf - buf) : n;
}

/* The length of the line [p, lf) without the CR before its LF. */
static size_t line_len(const char *buf, size_t p, size_t lf)
{
    return lf > p && buf[lf - 1] == '\r' ? lf - p - 1 : lf - p;
}

/* The request line [p, p+len); `complete` = 0 when it has not ended yet (then only what is
 * already wrong is refused). API_GATE_PASS when nothing is wrong. */
static enum api_gate_verdict check_request_line(const char *s, size_t len, int complete,
                                                const struct api_gate_limits *lim,
                                                struct api_gate_problem *why)
{
    size_t i = 0, t0, t1, args = 1;
    int query = 0;
    const char *shape = "the request line must be a method, a target and an HTTP version, "
                        "separated by single spaces";

    while (i < len && is_tchar((unsigned char)s[i]))
        i++;
    if (i < len && s[i] != ' ')
        return bad_element(why, "method", "the method is not a token (RFC 9110 9.1)");
    if (i == 0 && (i < len || complete))
        return bad_element(why, "request-line", shape);
    if (i == len)
        return complete ? bad_element(why, "request-line", shape) : API_GATE_PASS;
    t0 = ++i;
    for (; i < len && s[i] != ' '; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x21 || c == 0x7f)
            return bad_element(why, "request-target",
                               "the request target holds a control character");
        query |= c == '?';
        if (c == '&' && query && ++args > lim->max_args)
            return refuse(why, 400, "invalid-query", "Bad Request", "element", "request-target",
                          strlen("request-target"), "too many query parameters");
    }
    t1 = i;
    if (t1 == t0 && (i < len || complete))
        return bad_element(why, "request-line", shape);
    if (i == len)
        return complete ? bad_element(why, "request-line", shape) : API_GATE_PASS;
    i++;
    /* HTTP-version = "HTTP/" DIGIT "." DIGIT, case-sensitive (RFC 9112 2.3) */
    {
        static const char proto[] = "HTTP/d.d";
        size_t v = len - i;
        for (size_t k = 0; k < v && k < 8; k++) {
            int ok = proto[k] == 'd' ? s[i + k] >= '0' && s[i + k] <= '9' : s[i + k] == proto[k];
            if (!ok)
                return bad_element(why, "HTTP-version", "the HTTP version is not HTTP/1.1");
        }
        if (v > 8 || (complete && v < 8))
            return bad_element(why, "HTTP-version", "the HTTP version is not HTTP/1.1");
        if (complete && s[i + 5] != '1')
            return refuse(why, 505, "http-version-not-supported", "HTTP Version Not Supported",
                          "element", "HTTP-version", strlen("HTTP-version"),
                          "the API speaks HTTP/1.1 (and 1.0) only");
    }
    return API_GATE_PASS;
}

/* What the fields tell about the body. */
struct fields {
    size_t n, cookies;
    int te_seen, chunked, length;
};

/* A header field line [s, s+len) (RFC 9112 5): a token, a colon, a value without NUL or a
 * bare CR. Content-Length is digits alone (libmicrohttpd takes the value to the line's
 * end: a trailing space is as wrong to it as a letter). */
static enum api_gate_verdict check_field(const char *s, size_t len, struct fields *f,
                                         const struct api_gate_limits *lim,
                                         struct api_gate_problem *why, int trailer)
{
    size_t i = 0, v;
    const char *colon = memchr(s, ':', len);

    if (!colon)
        return bad_element(why, "field-line", "a header line has no colon");
    while (s + i < colon && is_tchar((unsigned char)s[i]))
        i++;
    if (i == 0 && s + i == colon)
        return bad_element(why, "field-line", "a header line has an empty field name");
    if (s + i != colon)
        return bad_header(why, s, (size_t)(colon - s),
                          s[i] == ' ' || s[i] == '\t'
                              ? "whitespace between a field name and its colon (RFC 9112 5.1)"
                              : "the field name is not a token (RFC 9110 5.1)");
    for (v = i + 1; v < len; v++)
        if (s[v] == '\0' || s[v] == '\r')
            return bad_header(why, s, i,
                              s[v] ? "the field value holds a bare CR"
                                   : "the field value holds a NUL byte");
    if (trailer)
        return API_GATE_PASS;
    if (++f->n > lim->max_fields) {
        char detail[80];
        snprintf(detail, sizeof(detail), "the request has more than %zu header fields",
                 lim->max_fields);
        return refuse(why, 431, "header-too-large", "Request Header Fields Too Large", "element",
                      "field-line", strlen("field-line"), detail);
    }
    v = i + 1;
    while (v < len && (s[v] == ' ' || s[v] == '\t'))
        v++;
    if (i == 14 && strncasecmp(s, "Content-Length", 14) == 0) {
        uint64_t x = 0;
        size_t d = v;
        for (; d < len && s[d] >= '0' && s[d] <= '9'; d++) {
            if (x > (UINT64_MAX - (uint64_t)(s[d] - '0')) / 10)
                return refuse(why, 413, "body-too-large", "Content Too Large", "header",
                              "Content-Length", 14, "the declared body is too large");
            x = x * 10 + (uint64_t)(s[d] - '0');
        }
        if (d == v || d < len)
            return bad_header(why, s, i, "Content-Length is not a number of digits alone");
        f->length = 1;
    } else if (i == 17 && strncasecmp(s, "Transfer-Encoding", 17) == 0) {
        /* libmicrohttpd reads a chunked body when the first Transfer-Encoding is exactly
         * "chunked" (any case) */
        if (!f->te_seen)
            f->chunked = len - v == 7 && strncasecmp(s + v, "chunked", 7) == 0;
        f->te_seen = 1;
    } else if (i == 6 && strncasecmp(s, "Cookie", 6) == 0) {
        f->cookies++;
        for (; v < len; v++)
            f->cookies += s[v] == ';' || s[v] == ',';
        if (f->cookies > lim->max_cookies)
            return refuse(why, 431, "header-too-large", "Request Header Fields Too Large", "header",
                          "Cookie", 6, "the request has too many cookies");
    }
    return API_GATE_PASS;
}

/* The chunks of a chunked body that arrived with the head, from `p` (RFC 9112 7.1, as
 * libmicrohttpd reads them): a chunk size in hex, an optional extension after ';', the
 * line's end, that many bytes and a line end; after the last chunk (size 0) the trailer
 * fields and a blank line. What has not arrived is not judged. */
static enum api_gate_verdict check_chunks(const char *buf, size_t n, size_t p,
                                          const struct api_gate_limits *lim,
                                          struct api_gate_problem *why)
{
    while (p < n) {
        uint64_t size = 0;
        size_t d = p, lf;
        int big = 0;
        for (; d < n && hex_value((unsigned char)buf[d]) >= 0; d++) {
            big |= size >> 60 != 0;
            size = size << 4 | (uint64_t)hex_value((unsigned char)buf[d]);
        }
        if (big)
            return refuse(why, 413, "body-too-large", "Content Too Large", "element", "chunk-size",
                          strlen("chunk-size"), "a chunk size is too large");
        if (d == n)
            return API_GATE_PASS;
        if (d == p || (buf[d] != ';' && buf[d] != '\r' && buf[d] != '\n') ||
            (buf[d] == '\r' && d + 1 < n && buf[d + 1] != '\n'))
            return bad_element(why, "chunk-size", "a chunk size is not a hexadecimal number");
        lf = line_end(buf, n, d);
        if (lf == n)
            return API_GATE_PASS;
        p = lf + 1;
        if (size == 0) {
            /* trailer fields, then a blank line */
            for (;;) {
                struct fields none;
                enum api_gate_verdict v;
                lf = line_end(buf, n, p);
                if (lf == n)
                    return API_GATE_PASS;
                if (line_len(buf, p, lf) == 0)
                    return API_GATE_PASS;
                memset(&none, 0, sizeof(none));
                v = check_field(buf + p, line_len(buf, p, lf), &none, lim, why, 1);
                if (v != API_GATE_PASS)
                    return v;
                p = lf + 1;
            }
        }
        if (size >= n - p)
            return API_GATE_PASS;
        p += (size_t)size;
        if (buf[p] == '\n') {
            p++;
        } else if (buf[p] == '\r') {
            if (p + 1 == n)
                return API_GATE_PASS;
            if (buf[p + 1] != '\n')
                return bad_element(why, "chunk-data", "a chunk does not end where its size says");
            p += 2;
        } else {
            return bad_element(why, "chunk-data", "a chunk does not end where its size says");
        }
    }
    return API_GATE_PASS;
}

/* The head does not end within lim->max_head bytes: 414 while the request line has not
 * ended, else 431 naming the field that has not. */
static enum api_gate_verdict too_long(const char *buf, size_t p, int in_request_line,
                                      const struct api_gate_limits *lim,
                                      struct api_gate_problem *why)
{
    char detail[120];
    const char *colon;
    size_t avail = lim->max_head > p ? lim->max_head - p : 0;
    if (in_request_line) {
        snprintf(detail, sizeof(detail), "the request line is longer than %zu bytes",
                 lim->max_head);
        return refuse(why, 414, "uri-too-long", "URI Too Long", "element", "request-target",
                      strlen("request-target"), detail);
    }
    snprintf(detail, sizeof(detail), "the request's header is longer than %zu bytes",
             lim->max_head);
    colon = memchr(buf + p, ':', avail);
    if (colon && colon > buf + p)
        return refuse(why, 431, "header-too-large", "Request Header Fields Too Large", "header",
                      buf + p, (size_t)(colon - (buf + p)), detail);
    return refuse(why, 431, "header-too-large", "Request Header Fields Too Large", "element",
                  "field-line", strlen("field-line"), detail);
}

enum api_gate_verdict api_gate_check(const char *buf, size_t n, const struct api_gate_limits *lim,
                                     struct api_gate_problem *why)
{
    struct fields f;
    size_t p = 0, lf;
    size_t end = n < lim->max_head ? n : lim->max_head; /* lines must end before it */
    enum api_gate_verdict v;

    memset(&f, 0, sizeof(f));
    /* empty lines before the request line are ignored (RFC 9112 2.2) */
    while (p < end && (buf[p] == '\n' || (buf[p] == '\r' && p + 1 < end && buf[p + 1] == '\n')))
        p += buf[p] == '\n' ? 1 : 2;
    lf = line_end(buf, end, p);
    v = check_request_line(buf + p, line_len(buf, p, lf), lf < end, lim, why);
    if (v != API_GATE_PASS)
        return v;
    if (lf == end)
        return end == lim->max_head ? too_long(buf, p, 1, lim, why) : API_GATE_MORE;
    p = lf + 1;
    for (;;) {
        size_t len;
        lf = line_end(buf, end, p);
        if (lf == end)
            return end == lim->max_head ? too_long(buf, p, 0, lim, why) : API_GATE_MORE;
        len = line_len(buf, p, lf);
        if (len == 0)
            break;
        if (buf[p] == ' ' || buf[p] == '\t')
            return bad_element(why, "field-line",
                               "a header line starts with whitespace (obsolete line folding, "
                               "RFC 9112 5.2)");
        v = check_field(buf + p, len, &f, lim, why, 0);
        if (v != API_GATE_PASS)
            return v;
        p = lf + 1;
    }
    /* a chunked body is read only without Content-Length (both are refused by the server's
     * framing check, naming them) */
    if (f.chunked && !f.length)
        return check_chunks(buf, n, lf + 1, lim, why);
    return API_GATE_PASS;
}

/* ---- answers ------------------------------------------------------------------------------ */

static const char *reason(int status)
{
    switch (status) {
    case 400:
        return "Bad Request";
    case 408:
        return "Request Timeout";
    case 413:
        return "Content Too Large";
    case 414:
        return "URI Too Long";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Error";
    }
}

char *api_gate_answer(int status, const char *slug, const char *title, const char *detail,
                      json_t *ext, int retry_after, size_t *len)
{
    struct api_response r;
    struct sk_buf b;
    char *text;

    api_http_response_init(&r);
    api_http_problem(&r, status, slug, title, detail, ext);
    sk_buf_init(&b, 0);
    sk_buf_printf(&b,
                  "HTTP/1.1 %d %s\r\nContent-Type: application/problem+json\r\n"
                  "Cache-Control: no-store\r\nConnection: close\r\n",
                  r.status, reason(r.status));
    if (retry_after > 0)
        sk_buf_printf(&b, "Retry-After: %d\r\n", retry_after);
    sk_buf_printf(&b, "Content-Length: %zu\r\n\r\n", r.body_len);
    sk_buf_add(&b, r.body ? r.body : "", r.body_len);
    api_http_response_release(&r);
    if (b.err != SK_OK) {
        sk_buf_release(&b);
        return NULL;
    }
    *len = b.len;
    text = sk_buf_take(&b);
    return text;
}

char *api_gate_refusal(const struct api_gate_problem *why, const struct api_gate_limits *lim,
                       size_t *len)
{
    json_t *ext =
        json_pack("{s:[{s:s, s:s}]}", "errors", why->member, why->name, "detail", why->detail);
    if (ext && why->status == 413)
        json_object_set_new(ext, "max_bytes", json_integer(lim->max_body));
    return api_gate_answer(why->status, why->slug, why->title, why->detail, ext, 0, len);
}

/* ---- the accepting thread ------------------------------------------------------------- */

/* How long accepting pauses when the process is out of descriptors or memory. */
#define ACCEPT_PAUSE_MS 100
/* Bytes looked at past the head's bound: the start of a chunked body. */
#define BODY_PEEK 4096

/* A connection the gate holds: its head has not ended, or it was answered and lingers. */
struct held {
    int fd;
    int in_epoll;
    int lingering; /* answered: what the client sends is read and dropped until it closes */
    long long linger_until_ms;
    size_t seen; /* bytes the last look saw */
    struct sockaddr_in addr;
    struct api_guard_conn *guard;
    struct held *prev, *next;
};

/* A socket given to the server whose guard entry the server has not taken yet. */
struct handed {
    int fd;
    struct api_guard_conn *guard;
    struct handed *next;
};

struct api_gate {
    struct api_gate_limits lim;
    struct api_guard *guard;       /* borrowed */
    const struct api_proxy *proxy; /* borrowed; NULL = no trusted proxies */
    int lfd, ep, wake;             /* listening socket, epoll, eventfd that stops the thread */
    char *buf;                     /* what a look copies (owned) */
    size_t buf_len;
    struct held *held; /* touched by the thread only, and by api_gate_stop after it ended */
    api_gate_handoff fn;
    void *arg;
    pthread_t thread;
    int started;
    long long paused_until_ms; /* accepting paused until then; 0 = not paused */
    pthread_mutex_t lock;      /* protects `handed` */
    struct handed *handed;
};

static const char *addr_text(const struct held *h, char out[INET_ADDRSTRLEN])
{
    out[0] = '\0';
    inet_ntop(AF_INET, &h->addr.sin_addr, out, INET_ADDRSTRLEN);
    return out;
}

/* Unregisters, closes and frees a held connection. */
static void drop(struct api_gate *g, struct held *h)
{
    if (h->prev)
        h->prev->next = h->next;
    else
        g->held = h->next;
    if (h->next)
        h->next->prev = h->prev;
    api_guard_close(g->guard, h->guard);
    close(h->fd); /* also leaves the epoll set */
    sk_free(h);
}

/* Reads and drops what an answered client still sends; closes at its end, or at once past
 * the linger time (the guard's reaper shuts the socket then, which wakes the thread).
 * Returns 1 while held. */
static int linger(struct api_gate *g, struct held *h)
{
    for (;;) {
        ssize_t k = recv(h->fd, g->buf, g->buf_len, MSG_DONTWAIT);
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) &&
            sk_time_mono_ms() < h->linger_until_ms)
            return 1;
        if (k <= 0 || sk_time_mono_ms() >= h->linger_until_ms) {
            drop(g, h);
            return 0;
        }
    }
}

/* Removes the entry of `fd` from the handed list; NULL when absent. Locked. */
static struct handed *unhand(struct api_gate *g, int fd)
{
    for (struct handed **pp = &g->handed; *pp; pp = &(*pp)->next) {
        if ((*pp)->fd == fd) {
            struct handed *e = *pp;
            *pp = e->next;
            return e;
        }
    }
    return NULL;
}

/* Gives a connection whose head passed to the server. */
static void hand_off(struct api_gate *g, struct held *h)
{
    struct handed *e = sk_calloc(1, sizeof(*e));
    struct handed *stale;
    int fd = h->fd;

    if (!e) {
        drop(g, h);
        return;
    }
    if (h->in_epoll)
        (void)epoll_ctl(g->ep, EPOLL_CTL_DEL, fd, NULL);
    e->fd = fd;
    e->guard = h->guard;
    pthread_mutex_lock(&g->lock);
    /* An entry for the same descriptor is one the server never started (it closed the
     * socket on an internal failure without a notification): counted out now. */
    stale = unhand(g, fd);
    e->next = g->handed;
    g->handed = e;
    pthread_mutex_unlock(&g->lock);
    if (stale) {
        api_guard_close(g->guard, stale->guard);
        sk_free(stale);
    }
    if (h->prev)
        h->prev->next = h->next;
    else
        g->held = h->next;
    if (h->next)
        h->next->prev = h->prev;
    /* the entry is registered first: the server may start the connection on another
     * thread before the call returns */
    if (g->fn(g->arg, fd, (const struct sockaddr *)&h->addr, sizeof(h->addr)) != 0) {
        /* the server closed the socket */
        pthread_mutex_lock(&g->lock);
        stale = unhand(g, fd);
        pthread_mutex_unlock(&g->lock);
        if (stale) {
            api_guard_close(g->guard, stale->guard);
            sk_free(stale);
        }
    }
    sk_free(h);
}

/* Answers a refused head (see api_guard_refuse) and lingers. Returns 1 while held. */
static int refuse_head(struct api_gate *g, struct held *h, const struct api_gate_problem *why)
{
    size_t len = 0;
    char *text = api_gate_refusal(why, &g->lim, &len);
    char a[INET_ADDRSTRLEN];
    char q[200];

    if (!text) {
        drop(g, h);
        return 0;
    }
    if (api_guard_refuse(g->guard, h->guard, text, len))
        sk_log_info("event=request_refused addr=%s status=%d %s=%s", addr_text(h, a), why->status,
                    why->member, sk_log_quote(q, sizeof(q), why->name));
    sk_free(text);
    h->lingering = 1;
    h->linger_until_ms = sk_time_mono_ms() + API_GUARD_LINGER_MS;
    return linger(g, h);
}

/* Looks at what arrived; `hup` = the client will send nothing more. Returns 1 while held. */
static int look(struct api_gate *g, struct held *h, int hup)
{
    struct api_gate_problem why;
    ssize_t k = recv(h->fd, g->buf, g->buf_len, MSG_PEEK | MSG_DONTWAIT);
    enum api_gate_verdict v;

    if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return 1;
    if (k <= 0) {
        drop(g, h); /* closed, or reset, before its head ended */
        return 0;
    }
    if ((size_t)k == h->seen && !hup)
        return 1;
    h->seen = (size_t)k;
    v = api_gate_check(g->buf, (size_t)k, &g->lim, &why);
    if (v == API_GATE_PASS) {
        hand_off(g, h);
        return 0;
    }
    if (v == API_GATE_REFUSE)
        return refuse_head(g, h, &why);
    if (hup) {
        /* half-closed with its head unfinished: read what it sent, then close */
        h->lingering = 1;
        h->linger_until_ms = sk_time_mono_ms() + API_GUARD_LINGER_MS;
        return linger(g, h);
    }
    return 1;
}

static void on_event(struct api_gate *g, struct held *h, uint32_t events)
{
    if (!h->lingering && api_guard_refused(g->guard, h->guard)) {
        /* its header deadline passed: the guard answered 408 and shut the socket */
        h->lingering = 1;
        h->linger_until_ms = sk_time_mono_ms() + API_GUARD_LINGER_MS;
    }
    if (h->lingering)
        (void)linger(g, h);
    else
        (void)look(g, h, (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0);
}

static void watch(struct api_gate *g, struct held *h)
{
    struct epoll_event ev;
    memset(&ev, 0, sizeof(ev));
    /* edge-triggered: a look consumes nothing, so readiness would never clear; each new
     * segment is an edge */
    ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
    ev.data.ptr = h;
    if (epoll_ctl(g->ep, EPOLL_CTL_ADD, h->fd, &ev) != 0) {
        drop(g, h);
        return;
    }
    h->in_epoll = 1;
}

static void pause_accepting(struct api_gate *g, int err)
{
    struct epoll_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.data.ptr = &g->lfd;
    (void)epoll_ctl(g->ep, EPOLL_CTL_MOD, g->lfd, &ev);
    g->paused_until_ms = sk_time_mono_ms() + ACCEPT_PAUSE_MS;
    sk_log_warn("event=accept_paused error=%s ms=%d", strerror(err), ACCEPT_PAUSE_MS);
}

static void accept_some(struct api_gate *g)
{
    for (int i = 0; i < 64; i++) {
        struct sockaddr_in sa;
        socklen_t len = sizeof(sa);
        struct held *h;
        uint32_t peer;
        int refused = 0;
        int fd = accept(g->lfd, (struct sockaddr *)&sa, &len);

        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
                pause_accepting(g, errno);
            if (errno == EAGAIN || errno == EWOULDBLOCK || g->paused_until_ms)
                return;
            continue; /* ECONNABORTED and the like: that one connection is gone */
        }
        h = sk_calloc(1, sizeof(*h));
        if (!h) {
            close(fd);
            continue;
        }
        h->fd = fd;
        memcpy(&h->addr, &sa, sizeof(sa));
        peer = ntohl(sa.sin_addr.s_addr);
        h->guard = api_guard_open(g->guard, fd, peer, !api_proxy_trusts(g->proxy, peer), &refused);
        if (!h->guard) {
            close(fd);
            sk_free(h);
            continue;
        }
        h->next = g->held;
        if (g->held)
            g->held->prev = h;
        g->held = h;
        if (refused) {
            char a[INET_ADDRSTRLEN];
            sk_log_warn("event=connection_refused addr=%s conns=%zu", addr_text(h, a),
                        api_guard_conns(g->guard));
            h->lingering = 1;
            h->linger_until_ms = sk_time_mono_ms() + API_GUARD_LINGER_MS;
            watch(g, h);
        } else if (look(g, h, 0)) {
            /* most requests have arrived by now; the rest are watched */
            watch(g, h);
        }
    }
}

static void *gate_main(void *arg)
{
    struct api_gate *g = arg;
    struct epoll_event ev[64];
    for (;;) {
        int timeout = -1;
        int n;
        if (g->paused_until_ms) {
            long long left = g->paused_until_ms - sk_time_mono_ms();
            timeout = left > 0 ? (int)left : 0;
        }
        n = epoll_wait(g->ep, ev, 64, timeout);
        for (int i = 0; i < n; i++) {
            void *p = ev[i].data.ptr;
            if (p == &g->wake)
                return NULL;
            if (p == &g->lfd)
                accept_some(g);
            else
                on_event(g, p, ev[i].events);
        }
        if (g->paused_until_ms && sk_time_mono_ms() >= g->paused_until_ms) {
            struct epoll_event le;
            memset(&le, 0, sizeof(le));
            le.events = EPOLLIN;
            le.data.ptr = &g->lfd;
            (void)epoll_ctl(g->ep, EPOLL_CTL_MOD, g->lfd, &le);
            g->paused_until_ms = 0;
        }
    }
}

enum sk_err api_gate_new(const char *addr, int port, int backlog, const struct api_gate_limits *lim,
                         struct api_guard *guard, struct api_gate **out)
{
    struct api_gate *g;
    struct sockaddr_in sa;
    struct epoll_event ev;
    int one = 1;
    enum sk_err err = SK_EIO;

    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
        return SK_EINVAL;
    g = sk_calloc(1, sizeof(*g));
    if (!g)
        return SK_ENOMEM;
    g->lim = *lim;
    g->guard = guard;
    g->lfd = g->ep = g->wake = -1;
    pthread_mutex_init(&g->lock, NULL);
    g->buf_len = lim->max_head + BODY_PEEK;
    g->buf = sk_malloc(g->buf_len);
    if (!g->buf) {
        err = SK_ENOMEM;
        goto fail;
    }
    g->lfd = socket(AF_INET, SOCK_STREAM, 0);
    g->ep = epoll_create1(EPOLL_CLOEXEC);
    g->wake = eventfd(0, EFD_CLOEXEC);
    if (g->lfd < 0 || g->ep < 0 || g->wake < 0)
        goto fail;
    (void)fcntl(g->lfd, F_SETFD, FD_CLOEXEC);
    (void)setsockopt(g->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    {
        /* The head is looked at, not read, so the socket's receive buffer must hold it all,
         * or a client sending a long head waits for room that never comes. About half of
         * the buffer holds data; accepted sockets inherit it from the listening one. Set
         * only past the default (128 KiB here), since a set size stops the kernel's
         * tuning of it. */
        int need = (int)(g->buf_len * 2), have = 0;
        socklen_t sl = sizeof(have);
        if (getsockopt(g->lfd, SOL_SOCKET, SO_RCVBUF, &have, &sl) == 0 && have < need)
            (void)setsockopt(g->lfd, SOL_SOCKET, SO_RCVBUF, &need, sizeof(need));
    }
    if (bind(g->lfd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(g->lfd, backlog) != 0 ||
        fcntl(g->lfd, F_SETFL, fcntl(g->lfd, F_GETFL) | O_NONBLOCK) != 0)
        goto fail;
    memset(&ev, 0, sizeof(ev));
    ev.events = EPOLLIN;
    ev.data.ptr = &g->lfd;
    if (epoll_ctl(g->ep, EPOLL_CTL_ADD, g->lfd, &ev) != 0)
        goto fail;
    ev.data.ptr = &g->wake;
    if (epoll_ctl(g->ep, EPOLL_CTL_ADD, g->wake, &ev) != 0)
        goto fail;
    *out = g;
    return SK_OK;
fail:
    api_gate_free(g);
    return err;
}

int api_gate_port(const struct api_gate *g)
{
    struct sockaddr_in sa;
    socklen_t len = sizeof(sa);
    if (getsockname(g->lfd, (struct sockaddr *)&sa, &len) != 0)
        return -1;
    return ntohs(sa.sin_port);
}

void api_gate_trust(struct api_gate *g, const struct api_proxy *proxy)
{
    g->proxy = proxy;
}

enum sk_err api_gate_start(struct api_gate *g, api_gate_handoff fn, void *arg)
{
    g->fn = fn;
    g->arg = arg;
    if (pthread_create(&g->thread, NULL, gate_main, g))
        return SK_EINTERNAL;
    g->started = 1;
    return SK_OK;
}

struct api_guard_conn *api_gate_take(struct api_gate *g, int fd)
{
    struct handed *e;
    struct api_guard_conn *c = NULL;
    pthread_mutex_lock(&g->lock);
    e = unhand(g, fd);
    pthread_mutex_unlock(&g->lock);
    if (e) {
        c = e->guard;
        sk_free(e);
    }
    return c;
}

void api_gate_stop(struct api_gate *g)
{
    if (!g)
        return;
    if (g->started) {
        uint64_t one = 1;
        ssize_t k = write(g->wake, &one, sizeof(one));
        (void)k;
        pthread_join(g->thread, NULL);
        g->started = 0;
    }
    while (g->held)
        drop(g, g->held);
    if (g->lfd >= 0)
        close(g->lfd);
    g->lfd = -1;
}

void api_gate_free(struct api_gate *g)
{
    if (!g)
        return;
    api_gate_stop(g);
    while (g->handed) {
        struct handed *e = g->handed;
        g->handed = e->next;
        api_guard_close(g->guard, e->guard);
        sk_free(e);
    }
    if (g->ep >= 0)
        close(g->ep);
    if (g->wake >= 0)
        close(g->wake);
    pthread_mutex_destroy(&g->lock);
    sk_free(g->buf);
    sk_free(g);
}
