/* SPDX-License-Identifier: MIT */
/* How many cores this process may use, and how many of them are idle now: what a job's
 * CPU threads are sized on when none are configured (SKIRMISH_ENGINE_THREADS=0). An idle
 * host puts every core on the job in hand; a busy one (other workers' jobs, other
 * processes) gives it only what is left, at least one core, so jobs still run side by
 * side without each taking every core. Thread-safe; no allocation. */
#ifndef SK_CORES_H
#define SK_CORES_H

/** The cores this process may run on (its CPU affinity mask, which a container's cpuset
 * sets; else the online cores); at least 1. */
int sk_cores_online(void);

/** The cores of sk_cores_online() that nothing else wants now: those minus the threads
 * runnable on this host besides the caller (the 4th field of /proc/loadavg; the best of up
 * to nine readings over about four milliseconds, so a passing wake-up does not count). A
 * moment's view: re-read it at each step of a long run. 1..sk_cores_online(); without
 * /proc, every core. */
int sk_cores_idle(void);

/** sk_cores_idle() from the text of /proc/loadavg (`loadavg`, NUL-terminated) and
 * `online` cores: the pure part, for tests. */
int sk_cores_idle_from(const char *loadavg, int online);

#endif
