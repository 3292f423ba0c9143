/* SPDX-License-Identifier: MIT */
/* The monotonic clock (see sk_time.h). */
#include "sk_time.h"

#include <time.h>

#include "sk_banned.h"

/* clock_gettime cannot fail on the systems we build for (the clock
 * exists and the pointer is valid), so its status is not checked; the zeroed struct keeps
 * the result defined should it ever do. */
static struct timespec mono(void)
{
    struct timespec ts = {0, 0};
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts;
}

int64_t sk_time_mono_ns(void)
{
    struct timespec ts = mono();
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t sk_time_mono_ms(void)
{
    struct timespec ts = mono();
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

double sk_time_mono_s(void)
{
    struct timespec ts = mono();
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int sk_time_due(int64_t deadline_ms)
{
    return deadline_ms > 0 && sk_time_mono_ms() >= deadline_ms;
}

static int64_t clock_ns(clockid_t id)
{
    struct timespec ts = {0, 0};
    (void)clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t sk_time_thread_cpu_ns(void)
{
    return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

int64_t sk_time_process_cpu_ns(void)
{
    return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}
