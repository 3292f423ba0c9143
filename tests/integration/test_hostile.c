/* SPDX-License-Identifier: MIT */
/* The hostile-input suite (issue 17) against a real skirmish-api (the ASan/UBSan one in
 * build-asan): HTTP framing, headers, JSON (depth, size, numbers, encoding, duplicate keys),
 * every job field at min-1, min, max and max+1, and query parameters. Every case sends raw
 * bytes on its own connection and asserts the status, the problem's type and the pointer,
 * parameter or header it names, that the API is still alive, and that nothing was stored
 * (no job row, no idempotency key, no stream entry). A field at an accepted limit is
 * checked by adding one unknown top-level member (/x_reject): the only error must be that
 * one, so the value itself passed and still nothing is stored. At the end the API must exit
 * cleanly (a leak found by LeakSanitizer makes its status non-zero) and its log must hold no
 * sanitizer report and no line forged by a client.
 * The second suite checks the limits on slow and hostile clients one by one, each against an
 * API configured with a small limit. */
#include <CUnit/CUnit.h>
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "it_support.h"
#include "queue.h"
#include "sk_buf.h"
#include "sk_mem.h"

#include "sk_banned.h"

static int setup(void)
{
    sk_mem_init_json();
    return 0;
}

/* ---- a raw HTTP/1.1 client ---------------------------------------------------------- */

struct raw_resp {
    int status; /* 0 = no answer */
    char head[8192];
    char *body; /* sk_malloc'd, NUL-terminated; NULL when no answer */
    size_t body_len;
    int reset; /* the connection was reset before the answer was complete */
};

/* strcasestr is a GNU extension: the first place `needle` occurs in `hay`, ignoring case. */
static const char *ci_find(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return hay;
    return NULL;
}

static void raw_free(struct raw_resp *r)
{
    sk_free(r->body);
    r->body = NULL;
}

static int connect_to(int port, int timeout_s)
{
    struct sockaddr_in a;
    struct timeval tv = {timeout_s, 0};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Sends what it can (a server refusing a body may stop reading), then reads until the
 * answer's Content-Length is complete, the end of the stream, or the timeout. */
static void send_all(int fd, const char *data, size_t n)
{
    while (n) {
        ssize_t k = send(fd, data, n, MSG_NOSIGNAL);
        if (k <= 0)
            return;
        data += k;
        n -= (size_t)k;
    }
}

static void send_str(int fd, const char *s)
{
    send_all(fd, s, strlen(s));
}

static void read_answer(int fd, struct raw_resp *r)
{
    struct sk_buf b;
    char chunk[65536];
    char *sep = NULL;

    memset(r, 0, sizeof(*r));
    sk_buf_init(&b, 0);
    for (;;) {
        ssize_t k = recv(fd, chunk, sizeof(chunk), 0);
        if (k < 0 && errno == ECONNRESET)
            r->reset = 1;
        if (k <= 0)
            break;
        sk_buf_add(&b, chunk, (size_t)k);
        sep = b.p ? strstr(b.p, "\r\n\r\n") : NULL;
        if (sep) {
            const char *cl = ci_find(b.p, "\r\nContent-Length:");
            if (cl && cl < sep && b.len - (size_t)(sep + 4 - b.p) >= strtoul(cl + 17, NULL, 10))
                break;
        }
    }
    if (!b.p || sscanf(b.p, "HTTP/1.1 %d", &r->status) != 1) {
        r->status = 0;
        sk_buf_release(&b);
        return;
    }
    sep = strstr(b.p, "\r\n\r\n");
    if (!sep) {
        sk_buf_release(&b);
        r->status = 0;
        return;
    }
    snprintf(r->head, sizeof(r->head), "%.*s", (int)(sep - b.p), b.p);
    r->body_len = b.len - (size_t)(sep + 4 - b.p);
    r->body = sk_malloc(r->body_len + 1);
    if (r->body) {
        memcpy(r->body, sep + 4, r->body_len);
        r->body[r->body_len] = '\0';
    }
    sk_buf_release(&b);
}

static int raw_exchange(int port, const char *req, size_t n, struct raw_resp *r)
{
    int fd = connect_to(port, 15);
    if (fd < 0) {
        memset(r, 0, sizeof(*r));
        return -1;
    }
    send_all(fd, req, n);
    read_answer(fd, r);
    close(fd);
    return r->status ? 0 : -1;
}

static int head_has(const struct raw_resp *r, const char *line)
{
    return ci_find(r->head, line) != NULL;
}

#define GET_HEALTHZ "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"

/* ---- the case table ---------------------------------------------------------------- */

struct hcase {
    char name[96];
    char *req; /* owned, complete raw request */
    size_t len;
    int status;
    const char *type;   /* problem type; NULL = not checked (libmicrohttpd's own answers) */
    const char *member; /* "pointer", "parameter" or "header": errors[] must name `value` */
    char value[96];
    char absent[96]; /* a pointer errors[] must not name ("" = none) */
    char detail[64]; /* text the problem's detail must hold ("" = not checked) */
    int closes;      /* the API must close the connection cleanly after the answer */
};

struct cases {
    struct hcase *v;
    size_t n, cap;
};

static struct hcase *add(struct cases *c, const char *name, const char *req, size_t len, int status,
                         const char *type)
{
    struct hcase *h;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        struct hcase *v = sk_realloc(c->v, cap * sizeof(*v));
        if (!v)
            return NULL;
        c->v = v;
        c->cap = cap;
    }
    h = &c->v[c->n++];
    memset(h, 0, sizeof(*h));
    snprintf(h->name, sizeof(h->name), "%s", name);
    h->req = sk_malloc(len + 1);
    if (h->req) {
        memcpy(h->req, req, len);
        h->req[len] = '\0';
    }
    h->len = len;
    h->status = status;
    h->type = type;
    return h;
}

static void names(struct hcase *h, const char *member, const char *value)
{
    if (!h)
        return;
    h->member = member;
    snprintf(h->value, sizeof(h->value), "%s", value);
}

/* What libmicrohttpd cannot parse, answered by the request gate (api_gate.c): a problem
 * naming `member` `value` ("header" or "element"), then the connection closed cleanly. */
static void gate(struct hcase *h, const char *member, const char *value)
{
    names(h, member, value);
    if (h)
        h->closes = 1;
}

/* POST /v1/jobs with `body` (length `n`) and extra header lines. */
static struct hcase *add_post_n(struct cases *c, const char *name, const char *headers,
                                const char *body, size_t n, int status, const char *type)
{
    struct sk_buf b;
    struct hcase *h;
    sk_buf_init(&b, 0);
    sk_buf_printf(&b,
                  "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
                  "Content-Type: application/json\r\n%sContent-Length: %zu\r\n\r\n",
                  headers ? headers : "", n);
    sk_buf_add(&b, body, n);
    h = add(c, name, b.p, b.len, status, type);
    sk_buf_release(&b);
    return h;
}

static struct hcase *add_post(struct cases *c, const char *name, const char *body, int status,
                              const char *type)
{
    return add_post_n(c, name, NULL, body, strlen(body), status, type);
}

static struct hcase *add_get(struct cases *c, const char *name, const char *method,
                             const char *target, int status, const char *type)
{
    char req[20000];
    int n = snprintf(req, sizeof(req),
                     "%s %s HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
                     method, target);
    return add(c, name, req, (size_t)n, status, type);
}

/* A battle document with seed `seed`: `params` is spliced after the sides; `top` after
 * params. */
static const char *battle_seed(const char *seed, const char *params, const char *top)
{
    static char doc[300000];
    snprintf(doc, sizeof(doc),
             "{\"kind\":\"battle\",\"seed\":%s,\"params\":{\"attacker\":{\"commander\":\"Test "
             "Commander\",\"deck\":[{\"card\":\"Grunt\",\"count\":5}]},\"defender\":{"
             "\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Brute\",\"count\":4}]}%s%s}"
             "%s%s}",
             seed, params[0] ? "," : "", params, top[0] ? "," : "", top);
    return doc;
}

static const char *battle(const char *params, const char *top)
{
    return battle_seed("1", params, top);
}

/* One field at a limit: `in` = 1 when the value is accepted (then only /x_reject is
 * named and `ptr` must not be), else errors[] must name `ptr`. */
static void field(struct cases *c, const char *name, const char *doc, const char *ptr, int in)
{
    struct hcase *h = add_post(c, name, doc, 422, "/problems/validation-error");
    if (!h)
        return;
    if (in) {
        names(h, "pointer", "/x_reject");
        snprintf(h->absent, sizeof(h->absent), "%s", ptr);
    } else {
        names(h, "pointer", ptr);
    }
}

static void battle_field(struct cases *c, const char *name, const char *params, const char *ptr,
                         int in)
{
    field(c, name, battle(params, in ? "\"x_reject\":1" : ""), ptr, in);
}

/* Replaces the attacker with `side` (a JSON object text). */
static const char *battle_side(const char *side, const char *params, const char *top)
{
    static char doc[300000];
    snprintf(doc, sizeof(doc),
             "{\"kind\":\"battle\",\"seed\":1,\"params\":{\"attacker\":%s,\"defender\":{"
             "\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Brute\",\"count\":4}]}%s%s}"
             "%s%s}",
             side, params[0] ? "," : "", params, top[0] ? "," : "", top);
    return doc;
}

static void side_field(struct cases *c, const char *name, const char *side, const char *params,
                       const char *ptr, int in)
{
    field(c, name, battle_side(side, params, in ? "\"x_reject\":1" : ""), ptr, in);
}

/* `n` copies of `item` joined by commas, into a static buffer. */
static const char *repeat(const char *item, int n)
{
    static char out[2][100000];
    static int which;
    char *o = out[which ^= 1];
    size_t len = 0, k = strlen(item);
    for (int i = 0; i < n && len + k + 2 < sizeof(out[0]); i++) {
        if (i)
            o[len++] = ',';
        memcpy(o + len, item, k);
        len += k;
    }
    o[len] = '\0';
    return o;
}

/* `n` inline assault cards named C0, C1, ... */
static const char *cards(int n)
{
    static char out[200000];
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(out + len, sizeof(out) - len,
                                "%s{\"name\":\"C%d\",\"type\":\"assault\",\"attack\":1,"
                                "\"health\":1}",
                                i ? "," : "", i);
    out[len] = '\0';
    return out;
}

/* An inline card `C` with `extra` members, used by the attacker's deck. */
static void card_field(struct cases *c, const char *name, const char *card, const char *ptr, int in)
{
    char params[4096];
    snprintf(params, sizeof(params), "\"cards\":[%s]", card);
    side_field(c, name,
               "{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"C\",\"count\":1}]}", params,
               ptr, in);
}

static const char *board(const char *params, const char *state, const char *top)
{
    static char doc[300000];
    snprintf(doc, sizeof(doc),
             "{\"kind\":\"board\",\"seed\":1,\"params\":{\"state\":{\"board\":{\"rows\":12,"
             "\"cols\":12},\"groups\":[{\"id\":\"A\",\"owner\":\"red\",\"at\":[5,5],"
             "\"minions\":[{\"id\":\"a1\",\"class\":\"swordsman\",\"nation\":\"human\"}]}]%s%s}"
             "%s%s}%s%s}",
             state[0] ? "," : "", state, params[0] ? "," : "", params, top[0] ? "," : "", top);
    return doc;
}

static void board_field(struct cases *c, const char *name, const char *params, const char *state,
                        const char *ptr, int in)
{
    field(c, name, board(params, state, in ? "\"x_reject\":1" : ""), ptr, in);
}

/* Sends a case and reads the answer; when the case `closes`, then waits up to 3 s for the
 * end of the stream: *closed = 1 for a clean end, 2 for a reset, 0 for neither. */
static int exchange(int port, const struct hcase *h, struct raw_resp *r, int *closed)
{
    int fd = connect_to(port, 15);
    *closed = 0;
    if (fd < 0) {
        memset(r, 0, sizeof(*r));
        return -1;
    }
    send_all(fd, h->req, h->len);
    read_answer(fd, r);
    if (r->status && h->closes) {
        struct timeval tv = {3, 0};
        char one;
        ssize_t k;
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        k = recv(fd, &one, 1, 0);
        *closed = k == 0 ? 1 : k < 0 && errno == ECONNRESET ? 2 : 0;
    }
    close(fd);
    return r->status ? 0 : -1;
}

/* GET /v1/jobs with a head of exactly twice `max_header_bytes` (the gate's bound), with
 * `max_headers` fields, 32 query parameters and 32 cookies in one long Cookie field: the
 * most the request gate lets through (api_server.c), into `b`. */
static void gate_bounds_head(struct sk_buf *b, int max_header_bytes, int max_headers)
{
    size_t want = (size_t)max_header_bytes * 2;
    sk_buf_adds(b, "GET /v1/jobs?p0=1");
    for (int i = 1; i < 32; i++)
        sk_buf_printf(b, "&p%d=1", i);
    sk_buf_adds(b, " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n");
    for (int i = 3; i < max_headers; i++)
        sk_buf_printf(b, "X-%d: v\r\n", i);
    sk_buf_adds(b, "Cookie: c0=1");
    for (int i = 1; i < 32; i++)
        sk_buf_printf(b, "; c%d=1", i);
    while (b->len + 4 < want)
        sk_buf_adds(b, "x");
    sk_buf_adds(b, "\r\n\r\n");
}

static struct hcase *add_at_gate_bounds(struct cases *c, int max_header_bytes, int max_headers)
{
    struct sk_buf b;
    struct hcase *h;
    sk_buf_init(&b, 0);
    gate_bounds_head(&b, max_header_bytes, max_headers);
    h = add(c, "a head at the gate's bounds", b.p, b.len, 431, "/problems/header-too-large");
    sk_buf_release(&b);
    return h;
}

static void framing_cases(struct cases *c)
{
    static const char big_chunk_head[] =
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    struct sk_buf b;
    struct hcase *h;
    char *pad;
    const size_t mib = 1048576;

#define RAW(name, text, st, type) add(c, name, text, sizeof(text) - 1, st, type)
    RAW("two different Content-Length",
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}x",
        400, "/problems/invalid-request");
    names(RAW("two equal Content-Length",
              "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: "
              "application/json\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
              422, "/problems/validation-error"),
          "pointer", "/kind");
    RAW("Content-Length and Transfer-Encoding",
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        400, "/problems/invalid-request");
    RAW("Transfer-Encoding gzip",
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: gzip\r\n\r\n",
        501, "/problems/invalid-request");
    RAW("Transfer-Encoding gzip, chunked",
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
        501, "/problems/invalid-request");
    names(RAW("chunked body, invalid document",
              "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: "
              "application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1\r\n}\r\n0\r\n\r\n",
              422, "/problems/validation-error"),
          "pointer", "/kind");
    /* what libmicrohttpd cannot parse: answered by the request gate */
    gate(RAW("Content-Length not a number",
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Content-Length: abc\r\n\r\n{}",
             400, "/problems/invalid-request"),
         "header", "Content-Length");
    gate(RAW("Content-Length negative",
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Content-Length: -1\r\n\r\n{}",
             400, "/problems/invalid-request"),
         "header", "Content-Length");
    gate(RAW("Content-Length with a trailing space",
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "content-length: 2 \r\n\r\n{}",
             400, "/problems/invalid-request"),
         "header", "content-length");
    gate(RAW("Content-Length as a list",
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Content-Length: 2, 2\r\n\r\n{}",
             400, "/problems/invalid-request"),
         "header", "Content-Length");
    gate(RAW("Content-Length of 30 digits",
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Content-Length: 123456789012345678901234567890\r\n\r\n{}",
             413, "/problems/body-too-large"),
         "header", "Content-Length");
    gate(RAW("chunk size not hex",
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
             400, "/problems/invalid-request"),
         "element", "chunk-size");
    gate(RAW("chunk size with a space",
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Transfer-Encoding: chunked\r\n\r\n2 \r\n{}\r\n0\r\n\r\n",
             400, "/problems/invalid-request"),
         "element", "chunk-size");
    gate(RAW("second chunk size not hex",
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\nx\r\n}\r\n0\r\n\r\n",
             400, "/problems/invalid-request"),
         "element", "chunk-size");
    gate(RAW("chunk size past 64 bits",
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Transfer-Encoding: chunked\r\n\r\n11111111111111111\r\n{}\r\n0\r\n\r\n",
             413, "/problems/body-too-large"),
         "element", "chunk-size");
    gate(RAW("chunk longer than its size",
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Transfer-Encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n",
             400, "/problems/invalid-request"),
         "element", "chunk-data");
    gate(RAW("trailer field without a colon",
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nno colon\r\n\r\n",
             400, "/problems/invalid-request"),
         "element", "field-line");
    gate(RAW("HTTP/2.0 request line", "GET /healthz HTTP/2.0\r\nHost: t\r\n\r\n", 505,
             "/problems/http-version-not-supported"),
         "element", "HTTP-version");
    gate(RAW("HTTP/0.9 request line", "GET /healthz HTTP/0.9\r\nHost: t\r\n\r\n", 505,
             "/problems/http-version-not-supported"),
         "element", "HTTP-version");
    gate(RAW("HTTPS/1.1 request line", "GET /healthz HTTPS/1.1\r\nHost: t\r\n\r\n", 400,
             "/problems/invalid-request"),
         "element", "HTTP-version");
    names(RAW("HTTP/1.1 without Host", "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n", 400,
              "/problems/invalid-request"),
          NULL, "");
    gate(RAW("header line without a colon",
             "GET /healthz HTTP/1.1\r\nHost: t\r\nno colon here\r\nConnection: close\r\n\r\n", 400,
             "/problems/invalid-request"),
         "element", "field-line");
    gate(RAW("folded header line",
             "GET /healthz HTTP/1.1\r\nHost: t\r\nX-A: 1\r\n 2\r\nConnection: close\r\n\r\n", 400,
             "/problems/invalid-request"),
         "element", "field-line");
    gate(RAW("space before a colon", "GET /healthz HTTP/1.1\r\nHost : t\r\n\r\n", 400,
             "/problems/invalid-request"),
         "header", "Host%20");
    gate(RAW("bare CR in a header value", "GET /healthz HTTP/1.1\r\nHost: t\rX-Forged: 1\r\n\r\n",
             400, "/problems/invalid-request"),
         "header", "Host");
    gate(add(c, "NUL in a header value", "GET /healthz HTTP/1.1\r\nHost: t\0x\r\n\r\n",
             sizeof("GET /healthz HTTP/1.1\r\nHost: t\0x\r\n\r\n") - 1, 400,
             "/problems/invalid-request"),
         "header", "Host");
    gate(RAW("request line without a target", "GET HTTP/1.1\r\nHost: t\r\n\r\n", 400,
             "/problems/invalid-request"),
         "element", "request-line");
    gate(RAW("request line with two spaces", "GET  /healthz HTTP/1.1\r\nHost: t\r\n\r\n", 400,
             "/problems/invalid-request"),
         "element", "request-line");
    gate(RAW("method not a token", "GE(T /healthz HTTP/1.1\r\nHost: t\r\n\r\n", 400,
             "/problems/invalid-request"),
         "element", "method");
    gate(RAW("TLS handshake on the plain port", "\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03", 400,
             "/problems/invalid-request"),
         "element", "method");
    gate(RAW("control byte in the target", "GET /heal\x01thz HTTP/1.1\r\nHost: t\r\n\r\n", 400,
             "/problems/invalid-request"),
         "element", "request-target");
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "GET /v1/jobs?a=1");
    for (int i = 1; i < 33; i++)
        sk_buf_adds(&b, "&a=1");
    sk_buf_adds(&b, " HTTP/1.1\r\nHost: t\r\n\r\n");
    gate(add(c, "33 query parameters", b.p, b.len, 400, "/problems/invalid-query"), "element",
         "request-target");
    sk_buf_release(&b);
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "GET /healthz HTTP/1.1\r\nHost: t\r\nCookie: c=0");
    for (int i = 1; i < 33; i++)
        sk_buf_printf(&b, "; c%d=1", i);
    sk_buf_adds(&b, "\r\n\r\n");
    gate(add(c, "33 cookies", b.p, b.len, 431, "/problems/header-too-large"), "header", "Cookie");
    sk_buf_release(&b);
    /* a head at every bound of the gate at once still reaches the API, whose own header
     * limit answers it (libmicrohttpd's memory per connection holds it) */
    h = add_at_gate_bounds(c, 8192, 64);
    if (h)
        snprintf(h->detail, sizeof(h->detail), "larger than 8192 bytes");
    names(RAW("PUT on /v1/jobs", "PUT /v1/jobs HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
              405, "about:blank"),
          NULL, "");
    RAW("PATCH on a job",
        "PATCH /v1/jobs/00000000-0000-0000-0000-000000000000 HTTP/1.1\r\nHost: t\r\n"
        "Connection: close\r\n\r\n",
        405, "about:blank");
    RAW("POST without Content-Type",
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}",
        415, "/problems/unsupported-media-type");
    RAW("POST text/plain",
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: text/plain\r\n"
        "Content-Length: 2\r\n\r\n{}",
        415, "/problems/unsupported-media-type");
    RAW("POST application/jsonx",
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: "
        "application/jsonx\r\nContent-Length: 2\r\n\r\n{}",
        415, "/problems/unsupported-media-type");
    RAW("declared 100 GB body",
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Content-Length: 100000000000\r\n\r\n{",
        413, "/problems/body-too-large");
    RAW("Expect 100-continue, 2 MiB declared",
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Expect: 100-continue\r\nContent-Length: 2097152\r\n\r\n",
        413, "/problems/body-too-large");
    /* 2 MiB sent with Content-Length and chunked: answered after the body is read */
    pad = sk_malloc(2 * mib);
    if (pad) {
        memset(pad, ' ', 2 * mib);
        add_post_n(c, "2 MiB body with Content-Length", NULL, pad, 2 * mib, 413,
                   "/problems/body-too-large");
        sk_buf_init(&b, 0);
        sk_buf_adds(&b, big_chunk_head);
        for (int i = 0; i < 32; i++) {
            sk_buf_printf(&b, "%zx\r\n", (size_t)65536);
            sk_buf_add(&b, pad, 65536);
            sk_buf_adds(&b, "\r\n");
        }
        sk_buf_adds(&b, "0\r\n\r\n");
        add(c, "2 MiB chunked body", b.p, b.len, 413, "/problems/body-too-large");
        sk_buf_release(&b);
        /* exactly at the limit: read whole, then refused as JSON (all spaces) */
        add_post_n(c, "body exactly at the limit", NULL, pad, mib, 400, "/problems/malformed-json");
        add_post_n(c, "body one byte over the limit", NULL, pad, mib + 1, 413,
                   "/problems/body-too-large");
        sk_free(pad);
    }
    /* header limits (SKIRMISH_MAX_HEADERS 64, SKIRMISH_MAX_HEADER_BYTES 8192) */
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n");
    for (int i = 0; i < 70; i++)
        sk_buf_printf(&b, "X-H%d: v\r\n", i);
    sk_buf_adds(&b, "\r\n");
    add(c, "70 header fields", b.p, b.len, 431, "/problems/header-too-large");
    sk_buf_release(&b);
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n");
    for (int i = 0; i < 60; i++)
        sk_buf_printf(&b, "X-H%d: v\r\n", i);
    sk_buf_adds(&b, "\r\n");
    add(c, "62 header fields", b.p, b.len, 200, NULL);
    sk_buf_release(&b);
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Big: ");
    for (int i = 0; i < 9000; i++)
        sk_buf_adds(&b, "a");
    sk_buf_adds(&b, "\r\n\r\n");
    add(c, "9000-byte header field", b.p, b.len, 431, "/problems/header-too-large");
    sk_buf_release(&b);
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Big: ");
    for (int i = 0; i < 60000; i++)
        sk_buf_adds(&b, "a");
    sk_buf_adds(&b, "\r\n\r\n");
    gate(add(c, "60000-byte header field", b.p, b.len, 431, "/problems/header-too-large"), "header",
         "X-Big");
    sk_buf_release(&b);
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "GET /v1/jobs?cursor=");
    for (int i = 0; i < 9000; i++)
        sk_buf_adds(&b, "a");
    sk_buf_adds(&b, " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    add(c, "9000-byte target", b.p, b.len, 414, "/problems/uri-too-long");
    sk_buf_release(&b);
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "GET /");
    for (int i = 0; i < 60000; i++)
        sk_buf_adds(&b, "a");
    sk_buf_adds(&b, " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    gate(add(c, "60000-byte target", b.p, b.len, 414, "/problems/uri-too-long"), "element",
         "request-target");
    sk_buf_release(&b);
#undef RAW
}

static void header_cases(struct cases *c)
{
    static const struct {
        const char *name, *line;
    } bad_keys[] = {
        {"Idempotency-Key empty", "Idempotency-Key: \r\n"},
        {"Idempotency-Key quoted empty", "Idempotency-Key: \"\"\r\n"},
        {"Idempotency-Key 256 characters", NULL},
        {"Idempotency-Key non-ASCII", "Idempotency-Key: \xc3\xa9t\xc3\xa9\r\n"},
        {"Idempotency-Key invalid UTF-8", "Idempotency-Key: \xff\xfe\r\n"},
        {"Idempotency-Key with a tab inside", "Idempotency-Key: a\tb\r\n"},
        {"Idempotency-Key quoted, a quote inside", "Idempotency-Key: \"a\"b\"\r\n"},
    };
    char line[400];
    const char *doc = battle("\"games\":10", "");

    for (size_t i = 0; i < sizeof(bad_keys) / sizeof(bad_keys[0]); i++) {
        const char *l = bad_keys[i].line;
        if (!l) {
            int n = snprintf(line, sizeof(line), "Idempotency-Key: ");
            for (int k = 0; k < 256; k++)
                line[n++] = 'k';
            snprintf(line + n, sizeof(line) - (size_t)n, "\r\n");
            l = line;
        }
        names(add_post_n(c, bad_keys[i].name, l, doc, strlen(doc), 400, "/problems/invalid-header"),
              "header", "Idempotency-Key");
    }
    /* headers that are only logged or echoed: the document's own error still answers */
    names(add_post_n(c, "X-Request-Id with invalid UTF-8", "X-Request-Id: \xff\xfe\r\n", "{}", 2,
                     422, "/problems/validation-error"),
          "pointer", "/kind");
    names(add_post_n(
              c, "X-Request-Id of 300 bytes",
              "X-Request-Id: "
              "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
              "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
              "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
              "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n",
              "{}", 2, 422, "/problems/validation-error"),
          "pointer", "/kind");
    names(add_post_n(c, "Origin with control bytes and invalid UTF-8",
                     "Origin: http://evil\x01\xff.example\r\n", "{}", 2, 422,
                     "/problems/validation-error"),
          "pointer", "/kind");
    names(add_post_n(c, "Content-Type with charset", NULL, "{}", 2, 422,
                     "/problems/validation-error"),
          "pointer", "/kind");
    add_get(c, "If-None-Match garbage on an unknown job", "GET",
            "/v1/jobs/00000000-0000-0000-0000-000000000000", 404, "/problems/job-not-found");
}

static void json_cases(struct cases *c)
{
    static const struct {
        const char *name, *body;
        int status;
        const char *type, *pointer;
    } docs[] = {
        {"empty body", "", 400, "/problems/malformed-json", NULL},
        {"whitespace only", "   \n\t ", 400, "/problems/malformed-json", NULL},
        {"null", "null", 400, "/problems/malformed-json", NULL},
        {"array", "[]", 422, "/problems/validation-error", ""},
        {"number", "1", 400, "/problems/malformed-json", NULL},
        {"string", "\"s\"", 400, "/problems/malformed-json", NULL},
        {"truncated object", "{\"kind\":", 400, "/problems/malformed-json", NULL},
        {"trailing garbage", "{}x", 400, "/problems/malformed-json", NULL},
        {"two documents", "{}{}", 400, "/problems/malformed-json", NULL},
        {"byte order mark", "\xef\xbb\xbf{}", 400, "/problems/malformed-json", NULL},
        {"invalid UTF-8 in a string", "{\"kind\":\"b\xff\"}", 400, "/problems/malformed-json",
         NULL},
        {"overlong UTF-8", "{\"kind\":\"\xc0\xaf\"}", 400, "/problems/malformed-json", NULL},
        {"lone surrogate escape", "{\"kind\":\"\\ud800\"}", 400, "/problems/malformed-json", NULL},
        {"NUL escape in a key", "{\"k\\u0000\":1}", 400, "/problems/malformed-json", NULL},
        {"raw control byte in a string", "{\"kind\":\"a\x01\"}", 400, "/problems/malformed-json",
         NULL},
        {"single quotes", "{'kind':'battle'}", 400, "/problems/malformed-json", NULL},
        {"comment", "{/* c */}", 400, "/problems/malformed-json", NULL},
        {"NaN", "{\"seed\":NaN}", 400, "/problems/malformed-json", NULL},
        {"Infinity", "{\"seed\":Infinity}", 400, "/problems/malformed-json", NULL},
        {"number 1e400", "{\"seed\":1e400}", 400, "/problems/malformed-json", NULL},
        {"integer of 30 digits", "{\"seed\":123456789012345678901234567890}", 400,
         "/problems/malformed-json", NULL},
        {"leading zero", "{\"seed\":01}", 400, "/problems/malformed-json", NULL},
        {"hex number", "{\"seed\":0x10}", 400, "/problems/malformed-json", NULL},
        {"duplicate top-level key", "{\"kind\":\"battle\",\"kind\":\"board\"}", 400,
         "/problems/malformed-json", NULL},
        {"duplicate nested key", "{\"kind\":\"battle\",\"params\":{\"games\":1,\"games\":2}}", 400,
         "/problems/malformed-json", NULL},
        {"unknown top-level member", "{\"kind\":\"battle\",\"params\":{},\"zzz\":1}", 422,
         "/problems/validation-error", "/zzz"},
        {"kind a number", "{\"kind\":1,\"params\":{}}", 422, "/problems/validation-error", "/kind"},
        {"kind unknown", "{\"kind\":\"chess\",\"params\":{}}", 422, "/problems/validation-error",
         "/kind"},
        {"params an array", "{\"kind\":\"battle\",\"params\":[]}", 422,
         "/problems/validation-error", "/params"},
        {"key with a newline", "{\"kind\":\"battle\",\"params\":{},\"a\\nb\":1}", 422,
         "/problems/validation-error", "/a\nb"},
        {"key with ~ and /", "{\"kind\":\"battle\",\"params\":{},\"a~/b\":1}", 422,
         "/problems/validation-error", "/a~0~1b"},
        {"games a real", NULL, 422, "/problems/validation-error", "/params/games"},
        {"games a string", NULL, 422, "/problems/validation-error", "/params/games"},
        {"games true", NULL, 422, "/problems/validation-error", "/params/games"},
        {"games 1e3", NULL, 422, "/problems/validation-error", "/params/games"},
        {"games -0", NULL, 422, "/problems/validation-error", "/params/games"},
        {"games 2^63", NULL, 400, "/problems/malformed-json", NULL},
        {"seed a real", NULL, 422, "/problems/validation-error", "/seed"},
        {"seed a string", NULL, 422, "/problems/validation-error", "/seed"},
    };
    static const char *const games_vals[] = {"1.5", "\"10\"", "true", "1e3", "-0"};
    static const char *const seed_vals[] = {"1.0", "\"1\""};
    size_t gi = 0, si = 0;
    struct sk_buf b;
    struct hcase *h;

    for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
        char params[64];
        const char *body = docs[i].body;
        if (!body && strncmp(docs[i].name, "games", 5) == 0) {
            if (strcmp(docs[i].name, "games 2^63") == 0) {
                body = battle("\"games\":9223372036854775808", "");
            } else {
                snprintf(params, sizeof(params), "\"games\":%s", games_vals[gi++]);
                body = battle(params, "");
            }
        } else if (!body) {
            body = battle_seed(seed_vals[si++], "", "");
        }
        h = add_post(c, docs[i].name, body ? body : "", docs[i].status, docs[i].type);
        if (docs[i].pointer)
            names(h, "pointer", docs[i].pointer);
    }
    /* depth: jansson's parser stops at 2048 levels; under that the decoder names the place */
    sk_buf_init(&b, 0);
    for (int i = 0; i < 100000; i++)
        sk_buf_adds(&b, "[");
    add_post_n(c, "100000 nested arrays", NULL, b.p, b.len, 400, "/problems/malformed-json");
    sk_buf_release(&b);
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "{\"kind\":\"battle\",\"params\":{},\"deep\":");
    for (int i = 0; i < 1000; i++)
        sk_buf_adds(&b, "{\"a\":");
    sk_buf_adds(&b, "1");
    for (int i = 0; i < 1000; i++)
        sk_buf_adds(&b, "}");
    sk_buf_adds(&b, "}");
    names(add_post_n(c, "1000 nested objects in an unknown member", NULL, b.p, b.len, 422,
                     "/problems/validation-error"),
          "pointer", "/deep");
    sk_buf_release(&b);
    /* size: many unknown members (only 100 errors are kept), a long string */
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "{\"kind\":\"battle\",\"params\":{}");
    for (int i = 0; i < 20000; i++)
        sk_buf_printf(&b, ",\"u%d\":%d", i, i);
    sk_buf_adds(&b, "}");
    add_post_n(c, "20000 unknown members", NULL, b.p, b.len, 422, "/problems/validation-error");
    sk_buf_release(&b);
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "{\"kind\":\"");
    for (int i = 0; i < 900000; i++)
        sk_buf_adds(&b, "b");
    sk_buf_adds(&b, "\",\"params\":{}}");
    names(
        add_post_n(c, "kind of 900000 bytes", NULL, b.p, b.len, 422, "/problems/validation-error"),
        "pointer", "/kind");
    sk_buf_release(&b);
    /* a long UTF-8 key: its message is cut on a character boundary, errors[] is not empty */
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "{\"kind\":\"battle\",\"params\":{},\"x");
    for (int i = 0; i < 600; i++)
        sk_buf_adds(&b, "\xc3\xa9");
    sk_buf_adds(&b, "\":1}");
    h = add_post_n(c, "unknown key of 600 two-byte characters", NULL, b.p, b.len, 422,
                   "/problems/validation-error");
    sk_buf_release(&b);
    if (h) {
        /* the pointer is cut with "/..." after whole characters */
        h->member = "pointer-prefix";
        snprintf(h->value, sizeof(h->value), "/x\xc3\xa9\xc3\xa9");
    }
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "{\"kind\":\"battle\",\"seed\":1,\"params\":{\"cards\":[{\"name\":\"C\","
                    "\"type\":\"assault\",\"attack\":1,\"health\":1,\"skills\":[{\"name\":\"");
    for (int i = 0; i < 300; i++)
        sk_buf_adds(&b, "\xe2\x82\xac");
    sk_buf_adds(&b, "\",\"x\":1}]}],\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[]},"
                    "\"defender\":{\"commander\":\"Test Commander\",\"deck\":[]}}}");
    names(add_post_n(c, "skill name of 300 three-byte characters", NULL, b.p, b.len, 422,
                     "/problems/validation-error"),
          "pointer", "/params/cards/0/skills/0/name");
    sk_buf_release(&b);
}

static void battle_limit_cases(struct cases *c)
{
    char side[4096];

    battle_field(c, "games 0", "\"games\":0", "/params/games", 0);
    battle_field(c, "games 1", "\"games\":1", "/params/games", 1);
    battle_field(c, "games 1000000000", "\"games\":1000000000", "/params/games", 1);
    battle_field(c, "games 1000000001", "\"games\":1000000001", "/params/games", 0);
    battle_field(c, "games -1", "\"games\":-1", "/params/games", 0);
    battle_field(c, "games null (the default)", "\"games\":null", "/params/games", 1);
    battle_field(c, "turn_limit 0", "\"turn_limit\":0", "/params/turn_limit", 0);
    battle_field(c, "turn_limit 1", "\"turn_limit\":1", "/params/turn_limit", 1);
    battle_field(c, "turn_limit 200", "\"turn_limit\":200", "/params/turn_limit", 1);
    battle_field(c, "turn_limit 201", "\"turn_limit\":201", "/params/turn_limit", 0);
    battle_field(c, "mode surge", "\"mode\":\"surge\"", "/params/mode", 1);
    battle_field(c, "mode unknown", "\"mode\":\"siege\"", "/params/mode", 0);
    battle_field(c, "state null", "\"state\":null", "/params/state", 1);
    battle_field(c, "state a number", "\"state\":1", "/params/state", 0);
    field(c, "seed -1",
          "{\"kind\":\"battle\",\"seed\":-1,\"params\":{\"attacker\":\"x\",\"defender\":\"x\"}}",
          "/seed", 0);
    field(c, "seed 0", battle_seed("0", "", "\"x_reject\":1"), "/seed", 1);
    field(c, "seed 2^53-1", battle_seed("9007199254740991", "", "\"x_reject\":1"), "/seed", 1);
    field(c, "seed 2^53", battle_seed("9007199254740992", "", ""), "/seed", 0);
    /* inline cards: count 128/129, each field at its limits */
    {
        static char params[200100];
        snprintf(params, sizeof(params), "\"cards\":[%s]", cards(128));
        battle_field(c, "128 inline cards", params, "/params/cards", 1);
        snprintf(params, sizeof(params), "\"cards\":[%s]", cards(129));
        battle_field(c, "129 inline cards", params, "/params/cards", 0);
    }
    card_field(c, "card attack -1",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":-1,\"health\":1}",
               "/params/cards/0/attack", 0);
    card_field(c, "card attack 0",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":0,\"health\":1}",
               "/params/cards/0/attack", 1);
    card_field(c, "card attack 999",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":999,\"health\":1}",
               "/params/cards/0/attack", 1);
    card_field(c, "card attack 1000",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1000,\"health\":1}",
               "/params/cards/0/attack", 0);
    card_field(c, "card health 0",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":0}",
               "/params/cards/0/health", 0);
    card_field(c, "card health 1",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1}",
               "/params/cards/0/health", 1);
    card_field(c, "card health 999",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":999}",
               "/params/cards/0/health", 1);
    card_field(c, "card health 1000",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1000}",
               "/params/cards/0/health", 0);
    card_field(c, "card delay -1",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"delay\":-1}",
               "/params/cards/0/delay", 0);
    card_field(c, "card delay 0",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"delay\":0}",
               "/params/cards/0/delay", 1);
    card_field(c, "card delay 9",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"delay\":9}",
               "/params/cards/0/delay", 1);
    card_field(c, "card delay 10",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"delay\":10}",
               "/params/cards/0/delay", 0);
    card_field(c, "skill x 0",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"skills\":[{"
               "\"name\":\"armor\",\"x\":0}]}",
               "/params/cards/0/skills/0/x", 0);
    card_field(c, "skill x 1",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"skills\":[{"
               "\"name\":\"armor\",\"x\":1}]}",
               "/params/cards/0/skills/0/x", 1);
    card_field(c, "skill x 999",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"skills\":[{"
               "\"name\":\"armor\",\"x\":999}]}",
               "/params/cards/0/skills/0/x", 1);
    card_field(c, "skill x 1000",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"skills\":[{"
               "\"name\":\"armor\",\"x\":1000}]}",
               "/params/cards/0/skills/0/x", 0);
    card_field(c, "evade x 255",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"skills\":[{"
               "\"name\":\"evade\",\"x\":255}]}",
               "/params/cards/0/skills/0/x", 1);
    card_field(c, "evade x 256",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"skills\":[{"
               "\"name\":\"evade\",\"x\":256}]}",
               "/params/cards/0/skills/0/x", 0);
    card_field(c, "8 skills",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"skills\":[{"
               "\"name\":\"armor\",\"x\":1},{\"name\":\"counter\",\"x\":1},{\"name\":\"pierce\","
               "\"x\":1},{\"name\":\"berserk\",\"x\":1},{\"name\":\"leech\",\"x\":1},{\"name\":"
               "\"poison\",\"x\":1},{\"name\":\"evade\",\"x\":1},{\"name\":\"strike\",\"x\":1}]}",
               "/params/cards/0/skills", 1);
    card_field(c, "9 skills",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"skills\":[{"
               "\"name\":\"armor\",\"x\":1},{\"name\":\"counter\",\"x\":1},{\"name\":\"pierce\","
               "\"x\":1},{\"name\":\"berserk\",\"x\":1},{\"name\":\"leech\",\"x\":1},{\"name\":"
               "\"poison\",\"x\":1},{\"name\":\"evade\",\"x\":1},{\"name\":\"strike\",\"x\":1},{"
               "\"name\":\"siege\",\"x\":1}]}",
               "/params/cards/0/skills", 0);
    card_field(c, "skill unknown",
               "{\"name\":\"C\",\"type\":\"assault\",\"attack\":1,\"health\":1,\"skills\":[{"
               "\"name\":\"fly\",\"x\":1}]}",
               "/params/cards/0/skills/0/name", 0);
    card_field(c, "card type unknown", "{\"name\":\"C\",\"type\":\"hero\",\"health\":1}",
               "/params/cards/0/type", 0);
    /* card names: 1..64 bytes */
    side_field(c, "card name empty", "{\"commander\":\"Test Commander\",\"deck\":[]}",
               "\"cards\":[{\"name\":\"\",\"type\":\"assault\",\"attack\":1,\"health\":1}]",
               "/params/cards/0/name", 0);
    {
        char params[512];
        char n64[65], n65[66];
        memset(n64, 'n', 64);
        n64[64] = '\0';
        memset(n65, 'n', 65);
        n65[65] = '\0';
        snprintf(params, sizeof(params),
                 "\"cards\":[{\"name\":\"%s\",\"type\":\"assault\",\"attack\":1,\"health\":1}]",
                 n64);
        side_field(c, "card name 64 bytes", "{\"commander\":\"Test Commander\",\"deck\":[]}",
                   params, "/params/cards/0/name", 1);
        snprintf(params, sizeof(params),
                 "\"cards\":[{\"name\":\"%s\",\"type\":\"assault\",\"attack\":1,\"health\":1}]",
                 n65);
        side_field(c, "card name 65 bytes", "{\"commander\":\"Test Commander\",\"deck\":[]}",
                   params, "/params/cards/0/name", 0);
        side_field(c, "card name 1 byte", "{\"commander\":\"Test Commander\",\"deck\":[]}",
                   "\"cards\":[{\"name\":\"n\",\"type\":\"assault\",\"attack\":1,\"health\":1}]",
                   "/params/cards/0/name", 1);
    }
    side_field(c, "card name with a control character",
               "{\"commander\":\"Test Commander\",\"deck\":[]}",
               "\"cards\":[{\"name\":\"a\\u0001b\",\"type\":\"assault\",\"attack\":1,"
               "\"health\":1}]",
               "/params/cards/0/name", 0);
    /* deck entries: count 1..50, at most 50 cards */
    side_field(c, "deck count 0",
               "{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\",\"count\":0}]}", "",
               "/params/attacker/deck/0/count", 0);
    side_field(c, "deck count 1",
               "{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\",\"count\":1}]}", "",
               "/params/attacker/deck/0/count", 1);
    side_field(c, "deck count 50",
               "{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\",\"count\":50}]}",
               "", "/params/attacker/deck/0/count", 1);
    side_field(c, "deck count 51",
               "{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\",\"count\":51}]}",
               "", "/params/attacker/deck/0/count", 0);
    side_field(c, "empty deck", "{\"commander\":\"Test Commander\",\"deck\":[]}", "",
               "/params/attacker/deck", 1);
    snprintf(side, sizeof(side), "{\"commander\":\"Test Commander\",\"deck\":[%s]}",
             repeat("{\"card\":\"Grunt\"}", 50));
    side_field(c, "deck of 50 entries", side, "", "/params/attacker/deck", 1);
    snprintf(side, sizeof(side), "{\"commander\":\"Test Commander\",\"deck\":[%s]}",
             repeat("{\"card\":\"Grunt\"}", 51));
    side_field(c, "deck of 51 entries", side, "", "/params/attacker/deck", 0);
    side_field(c, "deck card unknown",
               "{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Gruntt\"}]}", "",
               "/params/attacker/deck/0/card", 0);
    side_field(c, "commander missing", "{\"deck\":[]}", "", "/params/attacker/commander", 0);
    side_field(c, "commander an assault", "{\"commander\":\"Grunt\",\"deck\":[]}", "",
               "/params/attacker/commander", 0);
    side_field(c, "play unknown", "{\"commander\":\"Test Commander\",\"deck\":[],\"play\":\"x\"}",
               "", "/params/attacker/play", 0);
    side_field(c, "play exact", "{\"commander\":\"Test Commander\",\"deck\":[],\"play\":\"exact\"}",
               "", "/params/attacker/play", 1);
    side_field(c, "play flexible",
               "{\"commander\":\"Test Commander\",\"deck\":[],\"play\":\"flexible\"}", "",
               "/params/attacker/play", 1);
    side_field(c, "side a number", "7", "", "/params/attacker", 0);
    side_field(c, "deck string of garbage", "\"\\u00ff\\u00fe###\"", "", "/params/attacker", 0);
    /* weighted defenders: 1..16 decks, weight above 0 */
    {
        char params[8192];
        const char *d = "{\"deck\":{\"commander\":\"Test Commander\",\"deck\":[]},\"weight\":1}";
        struct {
            const char *name;
            int n;
            int in;
        } lists[] = {{"defender list of 0", 0, 0},
                     {"defender list of 1", 1, 1},
                     {"defender list of 16", 16, 1},
                     {"defender list of 17", 17, 0}};
        for (size_t i = 0; i < 4; i++) {
            char doc[20000];
            snprintf(params, sizeof(params), "[%s]", repeat(d, lists[i].n));
            snprintf(doc, sizeof(doc),
                     "{\"kind\":\"battle\",\"seed\":1,\"params\":{\"attacker\":{\"commander\":"
                     "\"Test Commander\",\"deck\":[]},\"defender\":%s}%s}",
                     params, lists[i].in ? ",\"x_reject\":1" : "");
            field(c, lists[i].name, doc, "/params/defender", lists[i].in);
        }
        field(c, "defender weight 0",
              "{\"kind\":\"battle\",\"seed\":1,\"params\":{\"attacker\":{\"commander\":\"Test "
              "Commander\",\"deck\":[]},\"defender\":[{\"deck\":{\"commander\":\"Test "
              "Commander\",\"deck\":[]},\"weight\":0}]}}",
              "/params/defender/0/weight", 0);
        field(c, "defender weight -1",
              "{\"kind\":\"battle\",\"seed\":1,\"params\":{\"attacker\":{\"commander\":\"Test "
              "Commander\",\"deck\":[]},\"defender\":[{\"deck\":{\"commander\":\"Test "
              "Commander\",\"deck\":[]},\"weight\":-1}]}}",
              "/params/defender/0/weight", 0);
    }
    /* fortresses: at most 10 */
    side_field(c, "11 fortresses",
               "{\"commander\":\"Test "
               "Commander\",\"fortresses\":[\"F\",\"F\",\"F\",\"F\",\"F\",\"F\",\"F\",\"F\",\"F\","
               "\"F\",\"F\"],"
               "\"deck\":[]}",
               "\"cards\":[{\"name\":\"F\",\"type\":\"fortress\",\"health\":5}]",
               "/params/attacker/fortresses", 0);
    side_field(
        c, "10 fortresses",
        "{\"commander\":\"Test "
        "Commander\",\"fortresses\":[\"F\",\"F\",\"F\",\"F\",\"F\",\"F\",\"F\",\"F\",\"F\",\"F\"],"
        "\"deck\":[]}",
        "\"cards\":[{\"name\":\"F\",\"type\":\"fortress\",\"health\":5}]",
        "/params/attacker/fortresses", 1);
    /* mid-game state: turn 1..turn_limit, hand at most 3 */
    battle_field(c, "state turn 0",
                 "\"state\":{\"turn\":0,\"attacker\":{\"commander_health\":1},\"defender\":{"
                 "\"commander_health\":1}}",
                 "/params/state/turn", 0);
    battle_field(c, "state turn 1",
                 "\"state\":{\"turn\":1,\"attacker\":{\"commander_health\":1},\"defender\":{"
                 "\"commander_health\":1}}",
                 "/params/state/turn", 1);
    battle_field(c, "state turn 50 (turn_limit)",
                 "\"state\":{\"turn\":50,\"attacker\":{\"commander_health\":1},\"defender\":{"
                 "\"commander_health\":1}}",
                 "/params/state/turn", 1);
    battle_field(c, "state turn 51",
                 "\"state\":{\"turn\":51,\"attacker\":{\"commander_health\":1},\"defender\":{"
                 "\"commander_health\":1}}",
                 "/params/state/turn", 0);
    battle_field(c, "state commander_health 0",
                 "\"state\":{\"turn\":1,\"attacker\":{\"commander_health\":0},\"defender\":{"
                 "\"commander_health\":1}}",
                 "/params/state/attacker/commander_health", 0);
    battle_field(c, "state hand of 4",
                 "\"state\":{\"turn\":1,\"attacker\":{\"commander_health\":1,\"hand\":[\"Grunt\","
                 "\"Grunt\",\"Grunt\",\"Grunt\"]},\"defender\":{\"commander_health\":1}}",
                 "/params/state/attacker/hand", 0);
    battle_field(c, "state hand of 3",
                 "\"state\":{\"turn\":1,\"attacker\":{\"commander_health\":1,\"hand\":[\"Grunt\","
                 "\"Grunt\",\"Grunt\"]},\"defender\":{\"commander_health\":1}}",
                 "/params/state/attacker/hand", 1);
}

static void board_limit_cases(struct cases *c)
{
    static char params[110000];
    board_field(c, "board turns 0", "\"turns\":0", "", "/params/turns", 0);
    board_field(c, "board turns 1", "\"turns\":1", "", "/params/turns", 1);
    board_field(c, "board turns 50", "\"turns\":50", "", "/params/turns", 1);
    board_field(c, "board turns 51", "\"turns\":51", "", "/params/turns", 0);
    board_field(c, "board state turn 0", "", "\"turn\":0", "/params/state/turn", 0);
    board_field(c, "board state turn 1", "", "\"turn\":1", "/params/state/turn", 1);
    board_field(c, "board state turn 100000", "", "\"turn\":100000", "/params/state/turn", 1);
    board_field(c, "board state turn 100001", "", "\"turn\":100001", "/params/state/turn", 0);
    board_field(c, "board initiative blue", "", "\"initiative\":\"blue\"",
                "/params/state/initiative", 1);
    board_field(c, "board initiative green", "", "\"initiative\":\"green\"",
                "/params/state/initiative", 0);
    snprintf(params, sizeof(params), "\"spells\":[%s]",
             repeat("{\"name\":\"S\",\"target\":\"square\",\"duration\":\"instant\",\"effects\":[{"
                    "\"event\":\"cast\",\"action\":\"set_terrain\",\"terrain\":\"forest\"}]}",
                    33));
    board_field(c, "board 33 inline spells", params, "", "/params/spells", 0);
    snprintf(params, sizeof(params), "\"orders\":[%s]",
             repeat("{\"group\":\"A\",\"to\":[5,6]}", 257));
    board_field(c, "board 257 orders", params, "", "/params/orders", 0);
    snprintf(params, sizeof(params), "\"casts\":[%s]",
             repeat("{\"spell\":\"S\",\"player\":\"red\",\"square\":[1,1]}", 257));
    board_field(c, "board 257 casts", params, "", "/params/casts", 0);
    snprintf(params, sizeof(params), "\"graveyard\":[%s]",
             repeat("{\"id\":\"g\",\"owner\":\"red\"}", 2049));
    board_field(c, "board graveyard of 2049", "", params, "/params/state/graveyard", 0);
    snprintf(params, sizeof(params), "\"graveyard\":[%s]",
             repeat("{\"id\":\"g\",\"owner\":\"red\"}", 2048));
    board_field(c, "board graveyard of 2048", "", params, "/params/state/graveyard", 1);
}

static void query_cases(struct cases *c)
{
    static const struct {
        const char *target;
        int status;
        const char *parameter; /* NULL: a 404 or 200 without errors */
    } q[] = {
        {"/v1/jobs?limit=0", 400, "limit"},
        {"/v1/jobs?limit=1", 200, NULL},
        {"/v1/jobs?limit=100", 200, NULL},
        {"/v1/jobs?limit=101", 400, "limit"},
        {"/v1/jobs?limit=-1", 400, "limit"},
        {"/v1/jobs?limit=abc", 400, "limit"},
        {"/v1/jobs?limit=1e2", 400, "limit"},
        {"/v1/jobs?limit=", 400, "limit"},
        {"/v1/jobs?limit=99999999999999999999999", 400, "limit"},
        {"/v1/jobs?status=bogus", 400, "status"},
        {"/v1/jobs?status=queued", 200, NULL},
        {"/v1/jobs?kind=chess", 400, "kind"},
        {"/v1/jobs?cursor=garbage", 400, "cursor"},
        {"/v1/jobs?cursor=%FF%FE", 400, "cursor"},
        {"/v1/jobs?bogus=1", 400, "bogus"},
        {"/v1/jobs?%FF=1", 400, "%FF"},
        {"/v1/jobs?a%0Ab=1", 400, "a%0Ab"},
        {"/v1/jobs?=1", 400, ""},
        {"/v1/jobs?status=%FF", 400, "status"},
        {"/v1/jobs?status=queued%0A", 400, "status"},
        {"/v1/jobs/00000000-0000-0000-0000-000000000000?wait=-1", 400, "wait"},
        {"/v1/jobs/00000000-0000-0000-0000-000000000000?wait=61", 400, "wait"},
        {"/v1/jobs/00000000-0000-0000-0000-000000000000?wait=abc", 400, "wait"},
        {"/v1/jobs/00000000-0000-0000-0000-000000000000?wait=", 400, "wait"},
        {"/v1/jobs/00000000-0000-0000-0000-000000000000?w=1", 400, "w"},
        {"/v1/cards?limit=0", 400, "limit"},
        {"/v1/cards?limit=1", 200, NULL},
        {"/v1/cards?limit=1000", 200, NULL},
        {"/v1/cards?limit=1001", 400, "limit"},
        {"/v1/cards?type=wizard", 400, "type"},
        {"/v1/cards?colour=red", 400, "colour"},
        {"/v1/cards?skill=%FF", 400, "skill"},
        {"/v1/cards?level=abc", 400, "level"},
        {"/v1/cards?cursor=%00", 400, "cursor"},
        {"/v1/spells?target=zzz", 400, "target"},
        {"/v1/spells?duration=forever", 400, "duration"},
        {"/v1/stats/history?minutes=0", 400, "minutes"},
        {"/v1/stats/history?minutes=1441", 400, "minutes"},
        {"/v1/stats/history?minutes=1", 200, NULL},
        {"/v1/stats/history?x=1", 400, "x"},
        {"/v1/stats?x=1", 400, "x"},
        {"/v1/jobs/%FF", 404, NULL},
        {"/v1/jobs/%FF/result", 404, NULL},
        {"/v1/jobs/%FF/events", 404, NULL},
        {"/v1/jobs/%FF/document", 404, NULL},
        {"/v1/jobs/%C3%A9%C3", 404, NULL},
        {"/v1/jobs/%00", 404, NULL}, /* the NUL ends the path: "/v1/jobs/" is no route */
        {"/v1/jobs/not-a-uuid", 404, NULL},
        {"/v1/x%0Aevent=forged", 404, NULL},
        {"/v1/jobs/00000000-0000-0000-0000-000000000000/..%2F..%2Fetc", 404, NULL},
        {"/../../etc/passwd", 404, NULL},
    };
    for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
        /* a job id names no job; a path that is no route at all is about:blank */
        int job = strstr(q[i].target, "/v1/jobs/") && !strstr(q[i].target, "%00") &&
                  !strstr(q[i].target, "%2F");
        const char *type = q[i].status == 200 ? NULL
                           : q[i].parameter   ? "/problems/invalid-query"
                           : job              ? "/problems/job-not-found"
                                              : "about:blank";
        char name[96];
        snprintf(name, sizeof(name), "GET %.80s", q[i].target);
        names(add_get(c, name, "GET", q[i].target, q[i].status, type),
              q[i].parameter ? "parameter" : NULL, q[i].parameter ? q[i].parameter : "");
    }
    add_get(c, "POST :cancel on an invalid id", "POST", "/v1/jobs/%FF:cancel", 404,
            "/problems/job-not-found");
    add_get(c, "POST :retry on an invalid id", "POST", "/v1/jobs/%FF:retry", 404,
            "/problems/job-not-found");
    names(add_get(c, "bulk cancel of running jobs", "POST", "/v1/jobs:cancel?status=running", 400,
                  "/problems/invalid-query"),
          "parameter", "status");
    names(add_get(c, "bulk cancel limit 0", "POST", "/v1/jobs:cancel?status=queued&limit=0", 400,
                  "/problems/invalid-query"),
          "parameter", "limit");
    /* 17 parameters: more than the API reads */
    add_get(c, "17 query parameters", "GET",
            "/v1/jobs?a=1&b=1&c=1&d=1&e=1&f=1&g=1&h=1&i=1&j=1&k=1&l=1&m=1&n=1&o=1&p=1&q=1", 400,
            "/problems/invalid-query");
}

static const char *str(const json_t *j, const char *k)
{
    const char *v = json_string_value(json_object_get(j, k));
    return v ? v : "";
}

/* errors[] names `value` in `member` ("pointer-prefix": a pointer starting with it). */
static int names_it(const json_t *doc, const char *member, const char *value)
{
    json_t *errors = json_object_get(doc, "errors");
    int prefix = strcmp(member, "pointer-prefix") == 0;
    for (size_t i = 0; i < json_array_size(errors); i++) {
        const char *v = json_string_value(
            json_object_get(json_array_get(errors, i), prefix ? "pointer" : member));
        if (v && (prefix ? strncmp(v, value, strlen(value)) == 0 : strcmp(v, value) == 0))
            return 1;
    }
    return 0;
}

/* Nothing stored: no job row, no idempotency key, no stream entry. */
static int stored(const struct it_stack *s, struct queue *q)
{
    char n[32];
    long long len = -1;
    if (it_sql(s, "SELECT (SELECT count(*) FROM jobs) + (SELECT count(*) FROM idempotency_keys)", n,
               sizeof(n)))
        return -1;
    if (!q || queue_length(q, &len) != SK_OK)
        return -1;
    return (int)strtol(n, NULL, 10) + (int)len;
}

static size_t count_in_file(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    char line[8192];
    size_t n = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f))
        if (strstr(line, needle))
            n++;
    fclose(f);
    return n;
}

static void test_hostile_inputs(void)
{
    struct it_stack s;
    struct cases c = {NULL, 0, 0};
    struct queue *q = NULL;
    size_t failed = 0;
    char log[1024];

    CU_ASSERT_FATAL(it_stack_init(&s, "hostile") == 0);
    /* the log is read at the end: only this run's lines */
    snprintf(log, sizeof(log), "%s/hostile-api.log", it_env("SKIRMISH_TEST_DIR"));
    (void)unlink(log);
    CU_ASSERT_FATAL(it_api_start(&s) == 0);
    CU_ASSERT_FATAL(queue_new(it_env("SKIRMISH_REDIS_URL"), s.prefix, &q) == SK_OK);
    framing_cases(&c);
    header_cases(&c);
    json_cases(&c);
    battle_limit_cases(&c);
    board_limit_cases(&c);
    query_cases(&c);
    fprintf(stderr, "\nhostile: %zu cases\n", c.n);
    CU_ASSERT(c.n >= 150);
    for (size_t i = 0; i < c.n; i++) {
        struct hcase *h = &c.v[i];
        struct raw_resp r;
        json_t *doc = NULL;
        char why[512] = "";
        int st;
        int closed = 0;
        /* against what is there before, so one failure is reported once, not by every
         * case after it */
        int before = stored(&s, q);

        if (!h->req) {
            snprintf(why, sizeof(why), "out of memory building it");
        } else if (exchange(s.port, h, &r, &closed)) {
            snprintf(why, sizeof(why), "no answer%s", r.reset ? " (reset)" : "");
        } else {
            doc = json_loadb(r.body, r.body_len, 0, NULL);
            if (r.status != h->status) {
                snprintf(why, sizeof(why), "status %d, not %d: %.120s", r.status, h->status,
                         r.body);
            } else if (h->type &&
                       (!head_has(&r, "Content-Type: application/problem+json") || !doc ||
                        json_integer_value(json_object_get(doc, "status")) != h->status)) {
                snprintf(why, sizeof(why), "not a problem+json of status %d", h->status);
            } else if (h->type && strcmp(str(doc, "type"), h->type) != 0) {
                snprintf(why, sizeof(why), "type %s, not %s", str(doc, "type"), h->type);
            } else if (h->member && !names_it(doc, h->member, h->value)) {
                snprintf(why, sizeof(why), "errors[] does not name %s %s: %.120s", h->member,
                         h->value, r.body);
            } else if (h->absent[0] && names_it(doc, "pointer", h->absent)) {
                snprintf(why, sizeof(why), "errors[] names %s: %.120s", h->absent, r.body);
            } else if (h->detail[0] && !strstr(str(doc, "detail"), h->detail)) {
                snprintf(why, sizeof(why), "detail without \"%s\": %.120s", h->detail,
                         str(doc, "detail"));
            } else if (strstr(r.head + 1, "HTTP/1.") ||
                       (r.body && strncmp(r.body, "HTTP/", 5) == 0)) {
                snprintf(why, sizeof(why), "more than one status line");
            } else if (h->closes && closed != 1) {
                snprintf(why, sizeof(why), "the connection was %s after the answer",
                         closed ? "reset" : "not closed");
            }
            raw_free(&r);
        }
        json_decref(doc);
        if (!why[0] && !it_alive(s.api))
            snprintf(why, sizeof(why), "the API died");
        if (!why[0] &&
            (raw_exchange(s.port, GET_HEALTHZ, strlen(GET_HEALTHZ), &r) || r.status != 200))
            snprintf(why, sizeof(why), "GET /healthz afterwards answered %d", r.status);
        if (r.body)
            raw_free(&r);
        if (!why[0] && (st = stored(&s, q)) != before)
            snprintf(why, sizeof(why), "something was stored (%d, was %d)", st, before);
        if (why[0]) {
            fprintf(stderr, "hostile case %zu \"%s\": %s\n", i, h->name, why);
            failed++;
        }
        sk_free(h->req);
        if (!it_alive(s.api))
            break;
    }
    fprintf(stderr, "hostile: %zu of %zu cases failed\n", failed, c.n);
    CU_ASSERT_EQUAL(failed, 0);
    CU_ASSERT_EQUAL(stored(&s, q), 0);
    queue_free(q);
    sk_free(c.v);
    /* a clean exit: under ASan, a leak makes the status non-zero */
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    CU_ASSERT_EQUAL(count_in_file(log, "AddressSanitizer"), 0);
    CU_ASSERT_EQUAL(count_in_file(log, "runtime error"), 0);
    CU_ASSERT_EQUAL(count_in_file(log, "LeakSanitizer"), 0);
    /* "%0A" in a path was logged escaped, never as a line of its own */
    CU_ASSERT_EQUAL(count_in_file(log, "\nevent=forged"), 0);
    {
        FILE *f = fopen(log, "r");
        char line[8192];
        int forged = 0;
        while (f && fgets(line, sizeof(line), f))
            forged += strncmp(line, "event=forged", 12) == 0;
        if (f)
            fclose(f);
        CU_ASSERT_EQUAL(forged, 0);
        CU_ASSERT(count_in_file(log, "x\\x0aevent=forged") >= 1);
    }
    it_stack_stop(&s);
}

/* ---- limits on slow and hostile clients, one API each with a small limit ------------- */

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#define GET_METRICS "GET /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"

/* 1 when the API has answered on `fd` (or closed it) within `ms`: a slow client's loop
 * stops sending then, not at its own end (they sent on for seconds after the 408). */
static int answered_within(int fd, int ms)
{
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, ms) > 0;
}

static int start_with(struct it_stack *s, const char *name, const char *const *env)
{
    if (it_stack_init(s, name))
        return -1;
    for (; *env; env++)
        s->env[s->n_env++] = *env;
    return it_api_start(s);
}

/* The problem type of an answer ("" when none). */
static const char *type_of(const struct raw_resp *r, char out[64])
{
    json_t *d = r->body ? json_loadb(r->body, r->body_len, 0, NULL) : NULL;
    snprintf(out, 64, "%s", str(d, "type"));
    json_decref(d);
    return out;
}

static void test_header_and_body_timeouts(void)
{
    static const char *const env[] = {"SKIRMISH_HEADER_TIMEOUT_S=1", "SKIRMISH_BODY_TIMEOUT_S=2",
                                      NULL};
    static const char body_head[] =
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Content-Length: 100\r\n\r\n{";
    struct it_stack s;
    struct raw_resp r;
    char t[64];
    long long t0, dt;
    int fd;

    CU_ASSERT_FATAL(start_with(&s, "timeouts", env) == 0);
    /* a header that never ends: 408 after about a second, then the end of the stream */
    fd = connect_to(s.port, 10);
    CU_ASSERT_FATAL(fd >= 0);
    t0 = now_ms();
    send_str(fd, "GET /healthz HTTP/1.1\r\nHost: t\r\n");
    read_answer(fd, &r);
    dt = now_ms() - t0;
    close(fd);
    CU_ASSERT_EQUAL(r.status, 408);
    CU_ASSERT_STRING_EQUAL(type_of(&r, t), "/problems/request-timeout");
    CU_ASSERT(head_has(&r, "Connection: close"));
    CU_ASSERT(dt >= 900 && dt < 5000);
    raw_free(&r);
    /* slowloris: a header byte every 300 ms still ends at the deadline */
    fd = connect_to(s.port, 10);
    CU_ASSERT_FATAL(fd >= 0);
    t0 = now_ms();
    send_str(fd, "GET /healthz HTTP/1.1\r\n");
    for (int i = 0; i < 20 && now_ms() - t0 < 3000 && !answered_within(fd, 0); i++) {
        send_str(fd, "X");
        if (answered_within(fd, 300))
            break;
    }
    read_answer(fd, &r);
    dt = now_ms() - t0;
    close(fd);
    CU_ASSERT_EQUAL(r.status, 408);
    CU_ASSERT(dt < 5000);
    raw_free(&r);
    /* a body trickled a byte every 300 ms: 408 at the body deadline */
    fd = connect_to(s.port, 10);
    CU_ASSERT_FATAL(fd >= 0);
    t0 = now_ms();
    send_all(fd, body_head, sizeof(body_head) - 1);
    for (int i = 0; i < 20 && now_ms() - t0 < 4000 && !answered_within(fd, 0); i++) {
        send_str(fd, " ");
        if (answered_within(fd, 300))
            break;
    }
    read_answer(fd, &r);
    dt = now_ms() - t0;
    close(fd);
    CU_ASSERT_EQUAL(r.status, 408);
    CU_ASSERT_STRING_EQUAL(type_of(&r, t), "/problems/request-timeout");
    CU_ASSERT(dt >= 1800 && dt < 6000);
    raw_free(&r);
    /* a prompt client on a kept-alive connection is not affected */
    fd = connect_to(s.port, 10);
    for (int i = 0; i < 3; i++) {
        send_str(fd, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n");
        read_answer(fd, &r);
        CU_ASSERT_EQUAL(r.status, 200);
        raw_free(&r);
        it_sleep_ms(400);
    }
    close(fd);
    CU_ASSERT_TRUE(it_alive(s.api));
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

static void test_connection_caps(void)
{
    static const char *const env[] = {"SKIRMISH_MAX_CONNECTIONS_PER_ADDR=4",
                                      "SKIRMISH_HEADER_TIMEOUT_S=30", NULL};
    static const char *const env_total[] = {"SKIRMISH_MAX_CONNECTIONS=16", NULL};
    struct it_stack s;
    struct raw_resp r;
    char t[64];
    int held[20];
    int fd;

    /* per address: the fifth connection of 127.0.0.1 is answered 429 and closed, while the
     * four it holds (idle, without a request) stay usable */
    CU_ASSERT_FATAL(start_with(&s, "conncap", env) == 0);
    for (int i = 0; i < 4; i++) {
        held[i] = connect_to(s.port, 10);
        CU_ASSERT_FATAL(held[i] >= 0);
    }
    it_sleep_ms(200);
    fd = connect_to(s.port, 10);
    send_str(fd, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n");
    read_answer(fd, &r);
    close(fd);
    CU_ASSERT_EQUAL(r.status, 429);
    CU_ASSERT_STRING_EQUAL(type_of(&r, t), "/problems/client-limit");
    CU_ASSERT(head_has(&r, "Retry-After: 5"));
    raw_free(&r);
    send_str(held[0], "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n");
    read_answer(held[0], &r);
    CU_ASSERT_EQUAL(r.status, 200);
    raw_free(&r);
    for (int i = 0; i < 4; i++)
        close(held[i]);
    it_sleep_ms(300);
    /* closed ones are counted out: a new connection is served */
    CU_ASSERT_EQUAL(raw_exchange(s.port, GET_HEALTHZ, strlen(GET_HEALTHZ), &r), 0);
    CU_ASSERT_EQUAL(r.status, 200);
    raw_free(&r);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);

    /* in total: past 16 connections, 503 */
    CU_ASSERT_FATAL(start_with(&s, "conntotal", env_total) == 0);
    for (int i = 0; i < 16; i++)
        held[i] = connect_to(s.port, 10);
    it_sleep_ms(200);
    fd = connect_to(s.port, 10);
    send_str(fd, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n");
    read_answer(fd, &r);
    close(fd);
    CU_ASSERT_EQUAL(r.status, 503);
    CU_ASSERT_STRING_EQUAL(type_of(&r, t), "/problems/server-busy");
    raw_free(&r);
    for (int i = 0; i < 16; i++)
        if (held[i] >= 0)
            close(held[i]);
    CU_ASSERT_TRUE(it_alive(s.api));
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

static void test_header_limits(void)
{
    static const char *const env[] = {"SKIRMISH_MAX_HEADERS=8", "SKIRMISH_MAX_HEADER_BYTES=1024",
                                      NULL};
    struct it_stack s;
    struct raw_resp r;
    struct sk_buf b;
    char t[64];

    CU_ASSERT_FATAL(start_with(&s, "headerlim", env) == 0);
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n");
    for (int i = 0; i < 7; i++)
        sk_buf_printf(&b, "X-%d: v\r\n", i);
    sk_buf_adds(&b, "\r\n");
    CU_ASSERT_EQUAL(raw_exchange(s.port, b.p, b.len, &r), 0);
    CU_ASSERT_EQUAL(r.status, 431); /* 9 fields */
    CU_ASSERT_STRING_EQUAL(type_of(&r, t), "/problems/header-too-large");
    raw_free(&r);
    sk_buf_release(&b);
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-A: ");
    for (int i = 0; i < 1100; i++)
        sk_buf_adds(&b, "a");
    sk_buf_adds(&b, "\r\n\r\n");
    CU_ASSERT_EQUAL(raw_exchange(s.port, b.p, b.len, &r), 0);
    CU_ASSERT_EQUAL(r.status, 431);
    raw_free(&r);
    sk_buf_release(&b);
    sk_buf_init(&b, 0);
    sk_buf_adds(&b, "GET /v1/jobs?cursor=");
    for (int i = 0; i < 1100; i++)
        sk_buf_adds(&b, "a");
    sk_buf_adds(&b, " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    CU_ASSERT_EQUAL(raw_exchange(s.port, b.p, b.len, &r), 0);
    CU_ASSERT_EQUAL(r.status, 414);
    CU_ASSERT_STRING_EQUAL(type_of(&r, t), "/problems/uri-too-long");
    raw_free(&r);
    sk_buf_release(&b);
    /* the most the request gate lets through still reaches the API's own check */
    sk_buf_init(&b, 0);
    gate_bounds_head(&b, 1024, 8);
    CU_ASSERT_EQUAL(raw_exchange(s.port, b.p, b.len, &r), 0);
    CU_ASSERT_EQUAL(r.status, 431);
    CU_ASSERT_PTR_NOT_NULL(r.body ? strstr(r.body, "larger than 1024 bytes") : NULL);
    raw_free(&r);
    sk_buf_release(&b);
    CU_ASSERT_EQUAL(raw_exchange(s.port, GET_HEALTHZ, strlen(GET_HEALTHZ), &r), 0);
    CU_ASSERT_EQUAL(r.status, 200);
    raw_free(&r);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* At the largest header limits the configuration allows, libmicrohttpd's memory per
 * connection still holds the most the request gate lets through: the API answers it. */
static void test_gate_bounds_at_largest_limits(void)
{
    static const char *const env[] = {"SKIRMISH_MAX_HEADERS=1000",
                                      "SKIRMISH_MAX_HEADER_BYTES=65536", NULL};
    struct it_stack s;
    struct raw_resp r;
    struct sk_buf b;

    CU_ASSERT_FATAL(start_with(&s, "gatebounds", env) == 0);
    sk_buf_init(&b, 0);
    gate_bounds_head(&b, 65536, 1000);
    CU_ASSERT_EQUAL(raw_exchange(s.port, b.p, b.len, &r), 0);
    CU_ASSERT_EQUAL(r.status, 431);
    CU_ASSERT_PTR_NOT_NULL(r.body ? strstr(r.body, "larger than 65536 bytes") : NULL);
    raw_free(&r);
    sk_buf_release(&b);
    /* a Cookie field three bytes longer ends past that bound: the gate answers 431 naming
     * the field that did not end within it */
    sk_buf_init(&b, 0);
    gate_bounds_head(&b, 65536, 1000);
    sk_buf_add(&b, "xxx", 3);
    if (b.p)
        memcpy(b.p + b.len - 7, "xxx\r\n\r\n", 7);
    CU_ASSERT_EQUAL(raw_exchange(s.port, b.p, b.len, &r), 0);
    CU_ASSERT_EQUAL(r.status, 431);
    CU_ASSERT_PTR_NOT_NULL(r.body ? strstr(r.body, "\"header\":\"Cookie\"") : NULL);
    raw_free(&r);
    sk_buf_release(&b);
    CU_ASSERT_EQUAL(raw_exchange(s.port, GET_HEALTHZ, strlen(GET_HEALTHZ), &r), 0);
    CU_ASSERT_EQUAL(r.status, 200);
    raw_free(&r);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* Opens an event stream or long poll of job `id` and reads its status line. */
static int open_waiter(int port, const char *id, int stream, struct raw_resp *first)
{
    char req[256];
    char buf[512];
    int fd = connect_to(port, 10);
    int n = snprintf(req, sizeof(req), "GET /v1/jobs/%s%s HTTP/1.1\r\nHost: t\r\n\r\n", id,
                     stream ? "/events" : "?wait=30");
    ssize_t k;
    memset(first, 0, sizeof(*first));
    if (fd < 0)
        return -1;
    send_all(fd, req, (size_t)n);
    if (stream) {
        /* the stream's head and first event arrive at once */
        k = recv(fd, buf, sizeof(buf) - 1, 0);
        if (k > 0) {
            buf[k] = '\0';
            sscanf(buf, "HTTP/1.1 %d", &first->status);
        }
    }
    return fd;
}

static void test_waiter_slots(void)
{
    static const char *const env[] = {"SKIRMISH_MAX_WAITERS=3", "SKIRMISH_MAX_WAITERS_PER_ADDR=2",
                                      NULL};
    struct it_stack s;
    struct raw_resp r;
    char id[37];
    char req[256];
    char t[64];
    int a, b, fd;
    long long t0;

    CU_ASSERT_FATAL(start_with(&s, "slots", env) == 0);
    /* no worker: the job stays queued, so its waiters wait */
    CU_ASSERT_FATAL(it_submit(&s, it_battle_doc(100, 1), id) == 0);
    a = open_waiter(s.port, id, 1, &r);
    CU_ASSERT_EQUAL(r.status, 200);
    b = open_waiter(s.port, id, 0, &r);
    it_sleep_ms(200);
    /* a third from the same address: 429 */
    snprintf(req, sizeof(req),
             "GET /v1/jobs/%s?wait=30 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", id);
    CU_ASSERT_EQUAL(raw_exchange(s.port, req, strlen(req), &r), 0);
    CU_ASSERT_EQUAL(r.status, 429);
    CU_ASSERT_STRING_EQUAL(type_of(&r, t), "/problems/client-limit");
    raw_free(&r);
    /* the stream's client goes away: its slot is free within a fraction of a second, not
     * at the next heartbeat or deadline */
    close(a);
    t0 = now_ms();
    for (;;) {
        struct raw_resp w;
        fd = open_waiter(s.port, id, 1, &w);
        if (w.status == 200 || now_ms() - t0 > 3000) {
            CU_ASSERT_EQUAL(w.status, 200);
            break;
        }
        close(fd);
        it_sleep_ms(50);
    }
    fprintf(stderr, "\nslots: a closed stream's slot was free again after %lld ms\n",
            now_ms() - t0);
    CU_ASSERT(now_ms() - t0 < 1500);
    close(fd);
    /* the same for a long poll */
    close(b);
    it_sleep_ms(500);
    CU_ASSERT_EQUAL(raw_exchange(s.port, GET_METRICS, strlen(GET_METRICS), &r), 0);
    CU_ASSERT(r.body && strstr(r.body, "skirmish_waiters_open 0") != NULL);
    raw_free(&r);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

static void test_body_memory(void)
{
    static const char *const env[] = {"SKIRMISH_BODY_MEMORY_BYTES=2097152", NULL};
    static const char head[] =
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Connection: close\r\nContent-Length: 1000000\r\n\r\n";
    struct it_stack s;
    struct raw_resp r;
    char *pad = sk_malloc(1000000);
    int fd[3];
    int n503 = 0, n400 = 0;
    char t[64];

    CU_ASSERT_FATAL(pad != NULL);
    memset(pad, ' ', 1000000);
    CU_ASSERT_FATAL(start_with(&s, "bodymem", env) == 0);
    /* three unfinished bodies of 900 KB: the third does not fit in 2 MiB */
    for (int i = 0; i < 3; i++) {
        fd[i] = connect_to(s.port, 10);
        send_all(fd[i], head, sizeof(head) - 1);
        send_all(fd[i], pad, 900000);
        it_sleep_ms(200);
    }
    for (int i = 0; i < 3; i++) {
        send_all(fd[i], pad, 100000);
        read_answer(fd[i], &r);
        close(fd[i]);
        if (r.status == 503 && strcmp(type_of(&r, t), "/problems/server-busy") == 0 &&
            head_has(&r, "Retry-After: 1"))
            n503++;
        if (r.status == 400)
            n400++; /* read whole: all spaces is malformed JSON */
        raw_free(&r);
    }
    CU_ASSERT_EQUAL(n503, 1);
    CU_ASSERT_EQUAL(n400, 2);
    /* the memory came back: two more whole bodies fit */
    for (int i = 0; i < 2; i++) {
        fd[i] = connect_to(s.port, 10);
        send_all(fd[i], head, sizeof(head) - 1);
        send_all(fd[i], pad, 1000000);
        read_answer(fd[i], &r);
        close(fd[i]);
        CU_ASSERT_EQUAL(r.status, 400);
        raw_free(&r);
    }
    sk_free(pad);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* Issue 46, row 4: bodies are kept only for callers whose key the header proved. Eight
 * keyless connections each holding 1 MiB - 1 byte of an unfinished body, with 2 MiB for all
 * bodies: before, they filled it and a tenant's submission got 503; now a tenant submits (202),
 * each keyless body is read and dropped and answered 401, as is a body with a wrong key
 * or to a route that does not exist (404). */
static void test_keyless_bodies(void)
{
    static const char *const env[] = {"SKIRMISH_AUTH=on", "SKIRMISH_BODY_MEMORY_BYTES=2097152",
                                      NULL};
    static const char head[] =
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Connection: close\r\nContent-Length: 1048576\r\n\r\n";
    const char *job = it_battle_doc(100, 1);
    struct it_stack s;
    struct raw_resp r;
    char key[IT_KEY_LEN], req[1024];
    char *pad = sk_malloc(1048576);
    int fd[8];
    int n401 = 0;

    CU_ASSERT_FATAL(pad != NULL);
    memset(pad, ' ', 1048576);
    CU_ASSERT_FATAL(start_with(&s, "keyless_bodies", env) == 0);
    CU_ASSERT_EQUAL_FATAL(it_key(&s, "acme", 0, key), 0);
    for (int i = 0; i < 8; i++) {
        fd[i] = connect_to(s.port, 10);
        send_all(fd[i], head, sizeof(head) - 1);
        send_all(fd[i], pad, 1048575); /* one byte short: unfinished */
    }
    it_sleep_ms(300);
    /* a tenant's submission while they hang */
    snprintf(req, sizeof(req),
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Authorization: Bearer %s\r\nConnection: close\r\nContent-Length: %zu\r\n\r\n%s",
             key, strlen(job), job);
    CU_ASSERT_EQUAL(raw_exchange(s.port, req, strlen(req), &r), 0);
    if (r.status != 202)
        fprintf(stderr, "keyless_bodies: the tenant got %d %.*s\n", r.status, (int)r.body_len,
                r.body ? r.body : "");
    CU_ASSERT_EQUAL(r.status, 202);
    raw_free(&r);
    for (int i = 0; i < 8; i++) {
        send_all(fd[i], pad, 1);
        read_answer(fd[i], &r);
        close(fd[i]);
        n401 += r.status == 401;
        raw_free(&r);
    }
    CU_ASSERT_EQUAL(n401, 8);
    /* a wrong key, and a body to no route, are answered so too */
    snprintf(req, sizeof(req),
             "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             "Authorization: Bearer sk_nothing\r\nConnection: close\r\nContent-Length: "
             "%zu\r\n\r\n%s",
             strlen(job), job);
    CU_ASSERT_EQUAL(raw_exchange(s.port, req, strlen(req), &r), 0);
    CU_ASSERT_EQUAL(r.status, 401);
    raw_free(&r);
    snprintf(req, sizeof(req),
             "POST /v1/nowhere HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
             "Content-Length: %zu\r\n\r\n%s",
             strlen(job), job);
    CU_ASSERT_EQUAL(raw_exchange(s.port, req, strlen(req), &r), 0);
    CU_ASSERT_EQUAL(r.status, 404);
    raw_free(&r);
    sk_free(pad);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

/* 2 MiB bodies on 12 connections at once: every client reads its 413. */
static void test_413_under_load(void)
{
    static const char *const env[] = {NULL};
    static const char head[] =
        "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Content-Length: 2097152\r\n\r\n";
    struct it_stack s;
    struct raw_resp r;
    char *pad = sk_malloc(65536);
    int fd[12];
    int ok = 0;

    CU_ASSERT_FATAL(pad != NULL);
    memset(pad, ' ', 65536);
    CU_ASSERT_FATAL(start_with(&s, "load413", env) == 0);
    for (int i = 0; i < 12; i++) {
        fd[i] = connect_to(s.port, 20);
        send_all(fd[i], head, sizeof(head) - 1);
    }
    /* interleaved: every connection has part of its body in flight at any time */
    for (int k = 0; k < 32; k++)
        for (int i = 0; i < 12; i++)
            send_all(fd[i], pad, 65536);
    for (int i = 0; i < 12; i++) {
        read_answer(fd[i], &r);
        close(fd[i]);
        ok += r.status == 413 && !r.reset;
        raw_free(&r);
    }
    CU_ASSERT_EQUAL(ok, 12);
    sk_free(pad);
    CU_ASSERT_EQUAL(it_api_stop(&s), 0);
    it_stack_stop(&s);
}

static CU_TestInfo hostile_tests[] = {
    {"hostile inputs: framing, headers, JSON, field limits, query parameters", test_hostile_inputs},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo limit_tests[] = {
    {"header and body timeouts answer 408", test_header_and_body_timeouts},
    {"connections per address (429) and in total (503)", test_connection_caps},
    {"header field count and size (431), target length (414)", test_header_limits},
    {"the most the request gate lets through reaches the API", test_gate_bounds_at_largest_limits},
    {"waiter slots per address; a closed stream frees its slot at once", test_waiter_slots},
    {"memory of unfinished bodies is bounded (503) and given back", test_body_memory},
    {"keyless callers' bodies take none of that memory (401)", test_keyless_bodies},
    {"413 readable by every client of 2 MiB bodies under load", test_413_under_load},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_hostile_suites[] = {
    {"hostile", setup, NULL, NULL, NULL, hostile_tests},
    {"limits", setup, NULL, NULL, NULL, limit_tests},
    CU_SUITE_INFO_NULL,
};
