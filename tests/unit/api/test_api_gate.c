/* SPDX-License-Identifier: MIT */
/* Tests of the request gate: its head parser (api_gate_check) and answers (what
 * libmicrohttpd 0.9.75 could not parse is refused naming the element or header, what it
 * reads is let through, and a verdict on a prefix of the bytes agrees with the verdict on
 * all of them: the gate decides on whatever has arrived), and its thread on loopback
 * sockets with a guard and a hand-off that stands for the server (run in the TSan build
 * too). The hostile suite (tests/integration/test_hostile.c) tests it through the API. */
#include <CUnit/CUnit.h>
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "api_gate.h"
#include "sk_mem.h"

#include "sk_banned.h"

static const struct api_gate_limits lim = {1024, 16, 8, 4, 1048576};

struct gcase {
    const char *text;
    size_t len;                 /* 0 = strlen */
    enum api_gate_verdict want; /* verdict on the whole text */
    int status;                 /* of a refusal */
    const char *member, *name;  /* what errors[0] names */
};

#define HEAD         "GET /healthz HTTP/1.1\r\nHost: t\r\n"
#define POST_CHUNKED "POST /v1/jobs HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"

static const struct gcase cases[] = {
    {HEAD "\r\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {"GET / HTTP/1.1\nHost: t\n\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {"\r\n\nGET / HTTP/1.0\r\n\r\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {"GET / HTTP/1.2\r\n\r\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {"OPTIONS * HTTP/1.1\r\nHost: t\r\n\r\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {HEAD "Origin: http://e\x01\xff.x\r\nX-E:\r\n\r\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {HEAD "Content-Length:  12\r\n\r\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {HEAD "Cookie: a=1; b=2\r\nCookie: c=3\r\n\r\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {"GET /v1/jobs?a=1&b=2&c&d&e&f&g&h HTTP/1.1\r\n\r\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {"GET /a&b&c&d&e&f&g&h&i&j HTTP/1.1\r\n\r\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {POST_CHUNKED "2\r\n{}\r\n0\r\n\r\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {POST_CHUNKED "2;x=y\r\n{}\n0\r\nTrailer: v\r\n\r\n", 0, API_GATE_PASS, 0, NULL, NULL},
    {POST_CHUNKED "00000000000000002\r\n{}", 0, API_GATE_PASS, 0, NULL, NULL},
    /* chunks are not read when Content-Length is there too (the server refuses both) */
    {"POST / HTTP/1.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\nzz", 0,
     API_GATE_PASS, 0, NULL, NULL},
    {"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\nzz", 0, API_GATE_PASS, 0, NULL, NULL},
    {"", 0, API_GATE_MORE, 0, NULL, NULL},
    {"GE", 0, API_GATE_MORE, 0, NULL, NULL},
    {HEAD, 0, API_GATE_MORE, 0, NULL, NULL},
    {HEAD "Content-Length: abc\r\n\r\n", 0, API_GATE_REFUSE, 400, "header", "Content-Length"},
    {HEAD "content-length: 5 \r\n\r\n", 0, API_GATE_REFUSE, 400, "header", "content-length"},
    {HEAD "Content-Length: -1\r\n\r\n", 0, API_GATE_REFUSE, 400, "header", "Content-Length"},
    {HEAD "Content-Length:\r\n\r\n", 0, API_GATE_REFUSE, 400, "header", "Content-Length"},
    {HEAD "Content-Length: 5, 5\r\n\r\n", 0, API_GATE_REFUSE, 400, "header", "Content-Length"},
    {HEAD "Content-Length: 99999999999999999999\r\n\r\n", 0, API_GATE_REFUSE, 413, "header",
     "Content-Length"},
    {"GET / HTTP/2.0\r\n\r\n", 0, API_GATE_REFUSE, 505, "element", "HTTP-version"},
    {"GET / HTTP/0.9\r\n\r\n", 0, API_GATE_REFUSE, 505, "element", "HTTP-version"},
    {"GET / HTTPS/1.1\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "HTTP-version"},
    {"GET / HTTP/1.1 x\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "HTTP-version"},
    {"GET / HTTP/1\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "HTTP-version"},
    {"GET HTTP/1.1\r\nHost: t\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "request-line"},
    {"GET /\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "request-line"},
    {"GET\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "request-line"},
    {"GET  / HTTP/1.1\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "request-line"},
    {" GET / HTTP/1.1\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "request-line"},
    {"G(T / HTTP/1.1\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "method"},
    /* a TLS handshake sent to the plain port: refused at its first byte */
    {"\x16\x03\x01\x02", 0, API_GATE_REFUSE, 400, "element", "method"},
    {"GET /a\x01z HTTP/1.1\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "request-target"},
    {"GET /a\rz HTTP/1.1\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "request-target"},
    {"GET /v1/jobs?a&b&c&d&e&f&g&h&i HTTP/1.1\r\n\r\n", 0, API_GATE_REFUSE, 400, "element",
     "request-target"},
    {HEAD "no colon here\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "field-line"},
    {HEAD ": empty name\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "field-line"},
    {HEAD "X-A: 1\r\n folded\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "field-line"},
    {HEAD "Bad Name: v\r\n\r\n", 0, API_GATE_REFUSE, 400, "header", "Bad%20Name"},
    {HEAD "Name : v\r\n\r\n", 0, API_GATE_REFUSE, 400, "header", "Name%20"},
    {HEAD "N\xc3\xa9: v\r\n\r\n", 0, API_GATE_REFUSE, 400, "header", "N%C3%A9"},
    {HEAD "X-A: a\rb\r\n\r\n", 0, API_GATE_REFUSE, 400, "header", "X-A"},
    {HEAD "X-A: a\0b\r\n\r\n", sizeof(HEAD "X-A: a\0b\r\n\r\n") - 1, API_GATE_REFUSE, 400, "header",
     "X-A"},
    {HEAD "Cookie: a;b;c\r\nCookie: d,e\r\n\r\n", 0, API_GATE_REFUSE, 431, "header", "Cookie"},
    {POST_CHUNKED "zz\r\n{}\r\n0\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "chunk-size"},
    {POST_CHUNKED "2 \r\n{}\r\n0\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "chunk-size"},
    {POST_CHUNKED "\r\n", 0, API_GATE_REFUSE, 400, "element", "chunk-size"},
    {POST_CHUNKED "2\rx{}", 0, API_GATE_REFUSE, 400, "element", "chunk-size"},
    {POST_CHUNKED "2\r\n{}x\r\n0\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "chunk-data"},
    {POST_CHUNKED "1\r\n{\r\n1\r\n}\r\nx\r\n", 0, API_GATE_REFUSE, 400, "element", "chunk-size"},
    {POST_CHUNKED "10000000000000000\r\n", 0, API_GATE_REFUSE, 413, "element", "chunk-size"},
    {POST_CHUNKED "0\r\nno colon\r\n\r\n", 0, API_GATE_REFUSE, 400, "element", "field-line"},
};

static size_t len_of(const struct gcase *c)
{
    return c->len ? c->len : strlen(c->text);
}

static void test_verdicts(void)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct gcase *c = &cases[i];
        struct api_gate_problem why;
        enum api_gate_verdict v;
        memset(&why, 0, sizeof(why));
        v = api_gate_check(c->text, len_of(c), &lim, &why);
        if (v != c->want || (v == API_GATE_REFUSE &&
                             (why.status != c->status || strcmp(why.member, c->member) != 0 ||
                              strcmp(why.name, c->name) != 0)))
            fprintf(stderr, "\ngate case %zu: verdict %d status %d %s=%s\n", i, (int)v, why.status,
                    why.member ? why.member : "", why.name);
        CU_ASSERT_EQUAL(v, c->want);
        if (v == API_GATE_REFUSE && c->want == API_GATE_REFUSE) {
            CU_ASSERT_EQUAL(why.status, c->status);
            CU_ASSERT_STRING_EQUAL(why.member, c->member);
            CU_ASSERT_STRING_EQUAL(why.name, c->name);
        }
    }
}

/* 1 when the text's refusal is of its chunked body (cases with POST_CHUNKED). */
static int body_refused(const char *text)
{
    return strncmp(text, POST_CHUNKED, strlen(POST_CHUNKED)) == 0;
}

/* Whatever arrived first, the gate says the same: a prefix is still coming (MORE), or
 * gets the refusal the whole text gets; a head let through stays let through unless the
 * chunks or trailer fields after it are refused. */
static void test_prefixes(void)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct gcase *c = &cases[i];
        struct api_gate_problem whole, part;
        enum api_gate_verdict vw = api_gate_check(c->text, len_of(c), &lim, &whole);
        for (size_t k = 0; k < len_of(c); k++) {
            enum api_gate_verdict vp = api_gate_check(c->text, k, &lim, &part);
            int ok = vp == API_GATE_MORE;
            if (vp == API_GATE_REFUSE)
                ok = vw == API_GATE_REFUSE && part.status == whole.status &&
                     strcmp(part.name, whole.name) == 0;
            if (vp == API_GATE_PASS)
                ok = vw == API_GATE_PASS || (vw == API_GATE_REFUSE && body_refused(c->text));
            if (!ok)
                fprintf(stderr, "\ngate case %zu: prefix %zu says %d\n", i, k, (int)vp);
            CU_ASSERT_TRUE(ok);
        }
    }
}

/* A head longer than the bound: 414 while the request line has not ended, else 431 naming
 * the field that has not; a field line ending exactly at the bound passes. */
static void test_sizes(void)
{
    char buf[2048];
    struct api_gate_problem why;
    size_t n;

    memset(buf, 'a', sizeof(buf));
    memcpy(buf, "GET /", 5);
    CU_ASSERT_EQUAL(api_gate_check(buf, 1023, &lim, &why), API_GATE_MORE);
    CU_ASSERT_EQUAL(api_gate_check(buf, 1024, &lim, &why), API_GATE_REFUSE);
    CU_ASSERT_EQUAL(why.status, 414);
    CU_ASSERT_STRING_EQUAL(why.name, "request-target");
    CU_ASSERT_EQUAL(api_gate_check(buf, sizeof(buf), &lim, &why), API_GATE_REFUSE);
    CU_ASSERT_EQUAL(why.status, 414);

    n = (size_t)snprintf(buf, sizeof(buf), HEAD "X-Big: ");
    memset(buf + n, 'b', sizeof(buf) - n);
    CU_ASSERT_EQUAL(api_gate_check(buf, 1024, &lim, &why), API_GATE_REFUSE);
    CU_ASSERT_EQUAL(why.status, 431);
    CU_ASSERT_STRING_EQUAL(why.member, "header");
    CU_ASSERT_STRING_EQUAL(why.name, "X-Big");
    /* the blank line's LF is the 1024th byte: let through */
    memcpy(buf + 1020, "\r\n\r\n", 4);
    CU_ASSERT_EQUAL(api_gate_check(buf, sizeof(buf), &lim, &why), API_GATE_PASS);
    memcpy(buf + 1020, "b\r\n\r", 4);
    memcpy(buf + 1024, "\n", 1);
    CU_ASSERT_EQUAL(api_gate_check(buf, sizeof(buf), &lim, &why), API_GATE_REFUSE);
    CU_ASSERT_EQUAL(why.status, 431);

    /* 16 fields pass, 17 are refused */
    n = (size_t)snprintf(buf, sizeof(buf), "GET / HTTP/1.1\r\n");
    for (int i = 0; i < 16; i++)
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "X-%d: v\r\n", i);
    memcpy(buf + n, "\r\n", 2);
    CU_ASSERT_EQUAL(api_gate_check(buf, n + 2, &lim, &why), API_GATE_PASS);
    n += (size_t)snprintf(buf + n, sizeof(buf) - n, "X-16: v\r\n\r\n");
    CU_ASSERT_EQUAL(api_gate_check(buf, n, &lim, &why), API_GATE_REFUSE);
    CU_ASSERT_EQUAL(why.status, 431);
    CU_ASSERT_STRING_EQUAL(why.name, "field-line");
}

/* The answer is one HTTP/1.1 response: status line, problem+json, Connection: close, and a
 * body of the declared length naming what was refused. */
static void test_answer(void)
{
    struct api_gate_problem why;
    const char *body;
    json_t *doc;
    size_t len = 0;
    char *text;

    sk_mem_init_json();
    CU_ASSERT_EQUAL(api_gate_check(HEAD "Content-Length: 1e3\r\n\r\n",
                                   strlen(HEAD "Content-Length: 1e3\r\n\r\n"), &lim, &why),
                    API_GATE_REFUSE);
    text = api_gate_refusal(&why, &lim, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(strlen(text), len);
    CU_ASSERT_EQUAL(strncmp(text, "HTTP/1.1 400 Bad Request\r\n", 26), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\r\nContent-Type: application/problem+json\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\r\nConnection: close\r\n"));
    CU_ASSERT_PTR_NULL(strstr(text + 4, "HTTP/1.1"));
    body = strstr(text, "\r\n\r\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(body);
    body += 4;
    doc = json_loads(body, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(doc, "type")),
                           "/problems/invalid-request");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(doc, "status")), 400);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
                               json_array_get(json_object_get(doc, "errors"), 0), "header")),
                           "Content-Length");
    json_decref(doc);
    sk_free(text);

    /* a 413 carries the body limit */
    CU_ASSERT_EQUAL(api_gate_check(POST_CHUNKED "11111111111111111\r\n",
                                   strlen(POST_CHUNKED "11111111111111111\r\n"), &lim, &why),
                    API_GATE_REFUSE);
    text = api_gate_refusal(&why, &lim, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(strncmp(text, "HTTP/1.1 413 Content Too Large\r\n", 32), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"max_bytes\":1048576"));
    sk_free(text);
}

/* ---- the gate's thread on loopback sockets ----------------------------------------- */

/* Stands for the server: keeps the sockets handed over. */
struct taker {
    pthread_mutex_t lock;
    int fds[8];
    int n;
};

static int take(void *arg, int fd, const struct sockaddr *addr, socklen_t len)
{
    struct taker *t = arg;
    (void)addr;
    (void)len;
    pthread_mutex_lock(&t->lock);
    if (t->n == 8) {
        pthread_mutex_unlock(&t->lock);
        close(fd);
        return -1;
    }
    t->fds[t->n++] = fd;
    pthread_mutex_unlock(&t->lock);
    return 0;
}

static int taken(struct taker *t)
{
    int n;
    pthread_mutex_lock(&t->lock);
    n = t->n;
    pthread_mutex_unlock(&t->lock);
    return n;
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int dial(int port)
{
    struct sockaddr_in a;
    struct timeval tv = {3, 0};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Reads until the end of the stream (or the timeout): 0 with the bytes in `out`, -1 when
 * the connection was reset or did not end. */
static int read_to_end(int fd, char *out, size_t cap)
{
    size_t n = 0;
    for (;;) {
        ssize_t k = recv(fd, out + n, cap - 1 - n, 0);
        if (k == 0)
            break;
        if (k < 0)
            return -1;
        n += (size_t)k;
        if (n == cap - 1)
            break;
    }
    out[n] = '\0';
    return 0;
}

static void send_text(int fd, const char *s)
{
    (void)send(fd, s, strlen(s), MSG_NOSIGNAL);
}

static void test_sockets(void)
{
    static const struct api_guard_answers ans = {"HTTP/1.1 408 T\r\n\r\n", "HTTP/1.1 429 A\r\n\r\n",
                                                 "HTTP/1.1 503 M\r\n\r\n"};
    struct api_guard_limits glim = {8, 3, 60000, 60000, 2, 1000};
    static const char request[] = "GET /x HTTP/1.1\r\nHost: t\r\n\r\n";
    struct taker t = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};
    struct api_guard *guard = NULL;
    struct api_gate *g = NULL;
    struct api_guard_conn *entry;
    char buf[4096];
    int port, a, b, held[3];

    sk_mem_init_json();
    CU_ASSERT_FATAL(api_guard_new(&glim, &ans, &guard) == SK_OK);
    CU_ASSERT_FATAL(api_gate_new("127.0.0.1", 0, 16, &lim, guard, &g) == SK_OK);
    port = api_gate_port(g);
    CU_ASSERT_FATAL(port > 0);
    CU_ASSERT_FATAL(api_gate_start(g, take, &t) == SK_OK);

    /* a head sent in two pieces is handed over whole, not a byte consumed */
    a = dial(port);
    CU_ASSERT_FATAL(a >= 0);
    send_text(a, "GET /x HT");
    nap_ms(100);
    CU_ASSERT_EQUAL(taken(&t), 0);
    send_text(a, request + 9);
    for (int i = 0; i < 200 && taken(&t) == 0; i++)
        nap_ms(10);
    CU_ASSERT_EQUAL_FATAL(taken(&t), 1);
    CU_ASSERT_EQUAL(recv(t.fds[0], buf, sizeof(buf), 0), (ssize_t)strlen(request));
    CU_ASSERT_EQUAL(memcmp(buf, request, strlen(request)), 0);
    entry = api_gate_take(g, t.fds[0]);
    CU_ASSERT_PTR_NOT_NULL(entry);
    CU_ASSERT_PTR_NULL(api_gate_take(g, t.fds[0]));
    CU_ASSERT_EQUAL(api_guard_conns(guard), 1);
    api_guard_close(guard, entry);
    close(t.fds[0]);
    close(a);

    /* a refused head: one answer, then the end of the stream (not a reset), though the
     * client sent bytes after it that nobody reads */
    b = dial(port);
    CU_ASSERT_FATAL(b >= 0);
    send_text(b, "GET /x HTTP/2.0\r\nHost: t\r\n\r\nmore bytes the gate drops");
    CU_ASSERT_EQUAL(read_to_end(b, buf, sizeof(buf)), 0);
    CU_ASSERT_EQUAL(strncmp(buf, "HTTP/1.1 505 HTTP Version Not Supported\r\n", 41), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"element\":\"HTTP-version\""));
    CU_ASSERT_PTR_NULL(strstr(buf, "\r\nHTTP/1."));
    close(b);

    /* past the cap per address: the guard's answer, then the end of the stream */
    for (int i = 0; i < 3; i++) {
        held[i] = dial(port);
        CU_ASSERT(held[i] >= 0);
    }
    nap_ms(100);
    b = dial(port);
    CU_ASSERT_FATAL(b >= 0);
    send_text(b, request);
    CU_ASSERT_EQUAL(read_to_end(b, buf, sizeof(buf)), 0);
    CU_ASSERT_STRING_EQUAL(buf, "HTTP/1.1 429 A\r\n\r\n");
    close(b);
    /* connections closed before their head ended are counted out */
    for (int i = 0; i < 3; i++)
        close(held[i]);
    for (int i = 0; i < 200 && api_guard_conns(guard) > 0; i++)
        nap_ms(10);
    CU_ASSERT_EQUAL(api_guard_conns(guard), 0);
    CU_ASSERT_EQUAL(taken(&t), 1);

    /* a connection still held when the gate stops is closed (reset: its bytes were not
     * read) and counted out */
    a = dial(port);
    send_text(a, "GET /x");
    nap_ms(50);
    api_gate_free(g);
    CU_ASSERT_EQUAL(api_guard_conns(guard), 0);
    {
        ssize_t k = recv(a, buf, sizeof(buf), 0);
        CU_ASSERT(k == 0 || (k < 0 && errno == ECONNRESET));
    }
    close(a);
    api_guard_free(guard);
}

static CU_TestInfo gate_tests[] = {
    {"verdicts", test_verdicts},
    {"a prefix gets the same verdict", test_prefixes},
    {"head size and field count", test_sizes},
    {"the answer", test_answer},
    {"the gate's thread on loopback sockets", test_sockets},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_gate_suites[] = {
    {"gate", NULL, NULL, NULL, NULL, gate_tests},
    CU_SUITE_INFO_NULL,
};
