/* SPDX-License-Identifier: MIT */
/* Cores online and idle (see sk_cores.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "sk_cores.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "sk_banned.h"

int sk_cores_online(void)
{
    cpu_set_t set;
    long n;

    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int sk_cores_idle_from(const char *loadavg, int online)
{
    double l1, l5, l15;
    long running, total;

    if (online < 1)
        online = 1;
    /* "0.20 0.18 0.12 1/80 11206": the 4th field is runnable/total scheduling entities. */
    if (sscanf(loadavg, "%lf %lf %lf %ld/%ld", &l1, &l5, &l15, &running, &total) != 5 ||
        running < 1)
        return online;
    running -= 1; /* the reading thread is one of them */
    return running >= online ? 1 : online - (int)running;
}

/* One reading of /proc/loadavg; `online` when it cannot be read. */
static int idle_now(int online)
{
    char buf[256];
    ssize_t r;
    int fd;

    fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return online;
    r = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (r <= 0)
        return online;
    buf[r] = '\0';
    return sk_cores_idle_from(buf, online);
}

int sk_cores_idle(void)
{
    /* A single reading sees passing wake-ups (a server answering, a kernel thread) as
     * busy cores: on an idle 2-core VM one reading in four showed a second runnable
     * thread, which would halve a job's threads. The best of a few readings keeps what
     * stays busy: other jobs' threads. Over about four milliseconds since 2026-12-07: over
     * one, the wake-ups a job's own progress report sets off (the database, the API
     * answering a waiting client, the client asking again) still halved the next step's
     * threads in one job of three on `make run` (bench/latency.mjs: median 180 -> 167 ms,
     * p90 267 -> 185 ms). It costs a step time only while a core looks busy. */
    const struct timespec gap = {0, 500000};
    int online = sk_cores_online();
    int best = idle_now(online);

    for (int i = 1; i < 9 && best < online; i++) {
        int now;
        nanosleep(&gap, NULL);
        now = idle_now(online);
        if (now > best)
            best = now;
    }
    return best;
}
