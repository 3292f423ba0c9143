/* SPDX-License-Identifier: MIT */
/* Tests of sk_thread: a stop ends a long wait at once, a short wait runs to its end, and a
 * struct that never started stops as a no-op. */
#include <CUnit/CUnit.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "sk_thread.h"
#include "sk_time.h"

#include "sk_banned.h"

struct probe {
    struct sk_thread t;
    long wait_ms;         /* each step's wait */
    atomic_int steps;     /* waits that ran to their end */
    atomic_int saw_stop;  /* the wait that returned 1 */
    atomic_int running;   /* 1 once the thread began */
    atomic_llong done_ms; /* when the thread ended */
};

static void *body(void *arg)
{
    struct probe *p = arg;
    atomic_store(&p->running, 1);
    while (!sk_thread_wait_ms(&p->t, p->wait_ms))
        atomic_fetch_add(&p->steps, 1);
    atomic_store(&p->saw_stop, sk_thread_stopping(&p->t));
    atomic_store(&p->done_ms, (long long)sk_time_mono_ms());
    return NULL;
}

static void wait_running(struct probe *p)
{
    struct timespec ts = {0, 1000000L};
    for (int i = 0; i < 5000 && !atomic_load(&p->running); i++)
        nanosleep(&ts, NULL);
}

static void test_stop_unstarted(void)
{
    struct sk_thread t;
    memset(&t, 0, sizeof(t));
    sk_thread_stop(&t); /* must return at once, joining nothing */
    sk_thread_stop(NULL);
    CU_ASSERT_EQUAL(t.started, 0);
}

/* A thread in a 60 s wait is stopped within a second, and none of its waits ended. */
static void test_stop_wakes(void)
{
    static struct probe p;
    int64_t t0;

    memset(&p, 0, sizeof(p));
    p.wait_ms = 60000;
    CU_ASSERT_EQUAL_FATAL(sk_thread_start(&p.t, body, &p), SK_OK);
    wait_running(&p);
    CU_ASSERT_EQUAL(atomic_load(&p.running), 1);
    t0 = sk_time_mono_ms();
    sk_thread_stop(&p.t);
    CU_ASSERT(sk_time_mono_ms() - t0 < 1000);
    CU_ASSERT(atomic_load(&p.done_ms) > 0);
    CU_ASSERT_EQUAL(atomic_load(&p.steps), 0);
    CU_ASSERT_EQUAL(atomic_load(&p.saw_stop), 1);
    CU_ASSERT_EQUAL(p.t.started, 0);
}

/* Waits of 20 ms run to their end while no stop is asked: about five in 120 ms. */
static void test_wait_times_out(void)
{
    static struct probe p;
    struct timespec ts = {0, 120000000L};
    int steps;

    memset(&p, 0, sizeof(p));
    p.wait_ms = 20;
    CU_ASSERT_EQUAL_FATAL(sk_thread_start(&p.t, body, &p), SK_OK);
    wait_running(&p);
    CU_ASSERT_EQUAL(sk_thread_stopping(&p.t), 0);
    nanosleep(&ts, NULL);
    sk_thread_stop(&p.t);
    steps = atomic_load(&p.steps);
    CU_ASSERT(steps >= 1); /* a wait that never timed out would give 0 */
    CU_ASSERT(steps <= 7); /* a wait that did not wait would give thousands */
    CU_ASSERT_EQUAL(atomic_load(&p.saw_stop), 1);
}

/* A stopped struct starts again. */
static void test_restart(void)
{
    static struct probe p;

    memset(&p, 0, sizeof(p));
    p.wait_ms = 60000;
    CU_ASSERT_EQUAL_FATAL(sk_thread_start(&p.t, body, &p), SK_OK);
    sk_thread_stop(&p.t);
    atomic_store(&p.saw_stop, 0);
    CU_ASSERT_EQUAL_FATAL(sk_thread_start(&p.t, body, &p), SK_OK);
    sk_thread_stop(&p.t);
    CU_ASSERT_EQUAL(atomic_load(&p.saw_stop), 1);
}

static CU_TestInfo thread_tests[] = {
    {"stopping a struct that never started", test_stop_unstarted},
    {"a stop ends a long wait at once", test_stop_wakes},
    {"a wait without a stop runs to its end", test_wait_times_out},
    {"a stopped struct starts again", test_restart},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sk_thread_suites[] = {
    {"sk_thread", NULL, NULL, NULL, NULL, thread_tests},
    CU_SUITE_INFO_NULL,
};
