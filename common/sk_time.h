/* SPDX-License-Identifier: MIT */
/* The one monotonic clock (CLOCK_MONOTONIC): durations, deadlines and timeouts everywhere
 * read it here, in the unit they need. It never jumps with the wall clock, so a deadline
 * set from it cannot pass early or late when the system time is changed; its origin is
 * unspecified (not the epoch), so its values mean nothing across processes or reboots.
 * Wall-clock time (timestamps in logs, rows and Redis keys) does not belong here.
 * Thread-safe; no allocation, no I/O. */
#ifndef SK_TIME_H
#define SK_TIME_H

#include <stdint.h>

/** Monotonic clock in nanoseconds. */
int64_t sk_time_mono_ns(void);

/** Monotonic clock in whole milliseconds (the nanoseconds truncated). */
int64_t sk_time_mono_ms(void);

/** Monotonic clock in seconds, with nanosecond resolution. */
double sk_time_mono_s(void);

/** 1 when the deadline `deadline_ms` (a sk_time_mono_ms() value) has come; 0 before it,
 * and always 0 for a deadline of 0 or less (none). Cheap enough to call once per game. */
int sk_time_due(int64_t deadline_ms);

/* CPU time, not wall time: what a job is charged (docs/security.md, "CPU cost"). */

/** CPU time the calling thread has used, in nanoseconds (CLOCK_THREAD_CPUTIME_ID). */
int64_t sk_time_thread_cpu_ns(void);

/** CPU time every thread of this process has used, in nanoseconds
 * (CLOCK_PROCESS_CPUTIME_ID). */
int64_t sk_time_process_cpu_ns(void);

#endif
