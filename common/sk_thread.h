/* SPDX-License-Identifier: MIT */
/* One background thread and its stop request: the owner starts it, its loop sleeps in
 * steps that a stop cuts short (sk_thread_wait_ms) or checks sk_thread_stopping between
 * steps, and the owner stops it (ask, wake, join) before freeing what the thread uses.
 * This module guards only the stop request: whatever else the thread shares with other
 * threads keeps its own lock in its owner. It cannot wake a thread blocked somewhere else
 * (epoll, a socket read): such a thread needs its own wake-up (api_gate uses an eventfd)
 * or must block for short steps only. One thread per struct; no pools. */
#ifndef SK_THREAD_H
#define SK_THREAD_H

#include <pthread.h>

#include "sk_err.h"

/* What the thread runs; its return value is ignored. */
typedef void *sk_thread_fn(void *arg);

/* Embedded in its owner, zeroed before sk_thread_start (a zeroed struct stops as a no-op).
 * The fields are private to sk_thread.c. */
struct sk_thread {
    pthread_t id;
    /* protects `stop`; held only inside this module's calls and never across a call out of
     * it, so it may be taken under any lock of the owner and no lock is taken under it */
    pthread_mutex_t lock;
    pthread_cond_t wake; /* signalled (under `lock`) when `stop` is set */
    int stop;            /* 1 once sk_thread_stop asked the thread to end */
    int started;         /* 1 from a successful sk_thread_start to sk_thread_stop; owner only */
};

/**
 * Starts fn(arg) on a new thread. `t` must be zeroed (or stopped). `arg` is borrowed and
 * must outlive the thread, i.e. stay valid until sk_thread_stop returns.
 * Returns SK_OK; SK_ENOMEM when the system has no thread (or memory) to give;
 * SK_EINTERNAL for any other failure. On failure `t` is zeroed again and nothing runs.
 * Thread-safety: owner only.
 */
enum sk_err sk_thread_start(struct sk_thread *t, sk_thread_fn *fn, void *arg);

/**
 * Asks the thread to end, wakes it if it is in sk_thread_wait_ms, waits until fn has
 * returned, and releases what sk_thread_start made; `t` is zeroed afterwards. A thread
 * blocked elsewhere is joined once it next checks. NULL and a never-started `t` are
 * no-ops. Thread-safety: owner only; never from the thread itself (it would wait forever).
 */
void sk_thread_stop(struct sk_thread *t);

/** 1 once sk_thread_stop was called, else 0. For the thread's loop; takes `lock` briefly. */
int sk_thread_stopping(struct sk_thread *t);

/**
 * Sleeps `ms` milliseconds (negative = 0; at most about 31 years) on the monotonic clock,
 * so a change of the system time neither shortens nor stretches it, and returns early
 * when a stop is asked. Returns 1 when stopping (at once if a stop was asked already),
 * 0 when the time passed. For the thread itself.
 */
int sk_thread_wait_ms(struct sk_thread *t, long ms);

#endif
