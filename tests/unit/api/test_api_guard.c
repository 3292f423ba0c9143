/* SPDX-License-Identifier: MIT */
/* Tests of the connection guard (api_guard) on socket pairs, without a server: the caps per
 * address and in total answer with their prepared responses, deadlines make the reaper
 * answer 408 and shut the socket (an idle kept-alive connection is shut without an
 * answer), waiters are counted per address, and the body memory budget. */
#include <CUnit/CUnit.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "api_guard.h"

#include "sk_banned.h"

static const struct api_guard_answers answers = {"HTTP/1.1 408 T\r\n\r\n", "HTTP/1.1 429 A\r\n\r\n",
                                                 "HTTP/1.1 503 M\r\n\r\n"};

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Reads what the guard wrote to the other end (non-blocking); "" when nothing. */
static const char *got(int fd, char *buf, size_t len)
{
    ssize_t n = recv(fd, buf, len - 1, MSG_DONTWAIT);
    buf[n > 0 ? n : 0] = '\0';
    return buf;
}

static void test_caps(void)
{
    struct api_guard_limits lim = {3, 2, 60000, 60000, 2, 1000};
    struct api_guard *g = NULL;
    struct api_guard_conn *c[4];
    int sv[4][2];
    int refused;
    char buf[64];

    CU_ASSERT_FATAL(api_guard_new(&lim, &answers, &g) == SK_OK);
    for (int i = 0; i < 4; i++)
        CU_ASSERT_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, sv[i]) == 0);
    c[0] = api_guard_open(g, sv[0][0], 0x7f000001, 1, &refused);
    CU_ASSERT_EQUAL(refused, 0);
    c[1] = api_guard_open(g, sv[1][0], 0x7f000001, 1, &refused);
    CU_ASSERT_EQUAL(refused, 0);
    /* a third from the same address: 429 */
    c[2] = api_guard_open(g, sv[2][0], 0x7f000001, 1, &refused);
    CU_ASSERT_EQUAL(refused, 1);
    CU_ASSERT_TRUE(api_guard_refused(g, c[2]));
    CU_ASSERT_STRING_EQUAL(got(sv[2][1], buf, sizeof(buf)), answers.per_addr);
    /* another address, the fourth connection: past the total of 3, 503 */
    c[3] = api_guard_open(g, sv[3][0], 0x0a000001, 1, &refused);
    CU_ASSERT_EQUAL(refused, 1);
    CU_ASSERT_STRING_EQUAL(got(sv[3][1], buf, sizeof(buf)), answers.too_many);
    CU_ASSERT_EQUAL(api_guard_conns(g), 4);
    api_guard_close(g, c[2]);
    api_guard_close(g, c[3]);
    api_guard_close(g, c[1]);
    /* counted out: the address may open one more */
    c[1] = api_guard_open(g, sv[1][0], 0x7f000001, 1, &refused);
    CU_ASSERT_EQUAL(refused, 0);
    CU_ASSERT_STRING_EQUAL(got(sv[0][1], buf, sizeof(buf)), "");
    api_guard_close(g, c[0]);
    api_guard_close(g, c[1]);
    CU_ASSERT_EQUAL(api_guard_conns(g), 0);
    api_guard_free(g);
    for (int i = 0; i < 4; i++) {
        close(sv[i][0]);
        close(sv[i][1]);
    }
}

/* A trusted proxy's connections (per_addr 0) pass the cap per address, not the total. */
static void test_proxy_exempt(void)
{
    struct api_guard_limits lim = {3, 1, 60000, 60000, 2, 1000};
    struct api_guard *g = NULL;
    struct api_guard_conn *c[4];
    int sv[4][2];
    int refused;
    char buf[64];

    CU_ASSERT_FATAL(api_guard_new(&lim, &answers, &g) == SK_OK);
    for (int i = 0; i < 4; i++)
        CU_ASSERT_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, sv[i]) == 0);
    for (int i = 0; i < 3; i++) {
        c[i] = api_guard_open(g, sv[i][0], 0x0a000002, 0, &refused);
        CU_ASSERT_EQUAL(refused, 0);
    }
    c[3] = api_guard_open(g, sv[3][0], 0x0a000002, 0, &refused);
    CU_ASSERT_EQUAL(refused, 1);
    CU_ASSERT_STRING_EQUAL(got(sv[3][1], buf, sizeof(buf)), answers.too_many);
    for (int i = 0; i < 4; i++) {
        api_guard_close(g, c[i]);
        close(sv[i][0]);
        close(sv[i][1]);
    }
    api_guard_free(g);
}

static void test_deadlines(void)
{
    struct api_guard_limits lim = {10, 10, 200, 300, 2, 1000};
    struct api_guard *g = NULL;
    struct api_guard_conn *head, *idle, *busy;
    int a[2], b[2], d[2];
    int refused;
    char buf[64];

    CU_ASSERT_FATAL(api_guard_new(&lim, &answers, &g) == SK_OK);
    CU_ASSERT_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, a) == 0);
    CU_ASSERT_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, b) == 0);
    CU_ASSERT_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, d) == 0);
    head = api_guard_open(g, a[0], 1, 1, &refused);
    idle = api_guard_open(g, b[0], 1, 1, &refused);
    busy = api_guard_open(g, d[0], 1, 1, &refused);
    api_guard_phase(g, idle, API_GUARD_IDLE);
    api_guard_phase(g, busy, API_GUARD_BUSY);
    sleep_ms(600);
    CU_ASSERT_STRING_EQUAL(got(a[1], buf, sizeof(buf)), answers.timeout);
    CU_ASSERT_TRUE(api_guard_refused(g, head));
    CU_ASSERT_STRING_EQUAL(got(b[1], buf, sizeof(buf)), ""); /* shut quietly */
    CU_ASSERT_TRUE(api_guard_refused(g, idle));
    CU_ASSERT_EQUAL(recv(b[1], buf, sizeof(buf), MSG_DONTWAIT), 0); /* the end of the stream */
    CU_ASSERT_FALSE(api_guard_refused(g, busy));                    /* no deadline while answered */
    api_guard_phase(g, busy, API_GUARD_BODY);
    sleep_ms(600);
    CU_ASSERT_STRING_EQUAL(got(d[1], buf, sizeof(buf)), answers.timeout);
    api_guard_close(g, head);
    api_guard_close(g, idle);
    api_guard_close(g, busy);
    api_guard_free(g);
    close(a[0]);
    close(a[1]);
    close(b[0]);
    close(b[1]);
    close(d[0]);
    close(d[1]);
}

static void test_waiters_and_memory(void)
{
    struct api_guard_limits lim = {10, 10, 60000, 60000, 2, 1000};
    struct api_guard *g = NULL;

    CU_ASSERT_FATAL(api_guard_new(&lim, &answers, &g) == SK_OK);
    CU_ASSERT_TRUE(api_guard_waiter_acquire(g, 7));
    CU_ASSERT_TRUE(api_guard_waiter_acquire(g, 7));
    CU_ASSERT_FALSE(api_guard_waiter_acquire(g, 7)); /* two per address */
    CU_ASSERT_TRUE(api_guard_waiter_acquire(g, 8));  /* another address has its own */
    api_guard_waiter_release(g, 7);
    CU_ASSERT_TRUE(api_guard_waiter_acquire(g, 7));
    api_guard_waiter_release(g, 7);
    api_guard_waiter_release(g, 7);
    api_guard_waiter_release(g, 8);
    CU_ASSERT_TRUE(api_guard_body_reserve(g, 600));
    CU_ASSERT_FALSE(api_guard_body_reserve(g, 401)); /* 1001 > 1000 */
    CU_ASSERT_TRUE(api_guard_body_reserve(g, 400));
    CU_ASSERT_EQUAL(api_guard_body_bytes(g), 1000);
    api_guard_body_release(g, 1000);
    CU_ASSERT_EQUAL(api_guard_body_bytes(g), 0);
    api_guard_free(g);
}

static CU_TestInfo guard_tests[] = {
    {"caps per address (429) and in total (503)", test_caps},
    {"a trusted proxy: no cap per address, the total holds", test_proxy_exempt},
    {"header and body deadlines; idle connections shut quietly", test_deadlines},
    {"waiters per address, body memory budget", test_waiters_and_memory},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_api_guard_suites[] = {
    {"api_guard", NULL, NULL, NULL, NULL, guard_tests},
    CU_SUITE_INFO_NULL,
};
