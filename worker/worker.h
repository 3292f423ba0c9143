/* SPDX-License-Identifier: MIT */
/* One worker thread's state, shared by the loop, the reaper and reconciler, and the
 * heartbeat: the borrowed configuration, stores and engine, its name in the consumer group,
 * and what the heartbeat reports. Filled by main.c (worker_beat_init for the identity);
 * owned by one thread, never shared. */
#ifndef WORKER_H
#define WORKER_H

#include <signal.h>

#include "db.h"
#include "engine.h"
#include "queue.h"
#include "sk_config.h"
#include "worker_io.h"

struct worker {
    const struct sk_config *cfg;       /* borrowed */
    struct db *db;                     /* borrowed */
    struct queue *queue;               /* borrowed */
    struct engine *engine;             /* borrowed: the process's, set up at start */
    const struct worker_io *io;        /* borrowed: the stores (worker_io_stores) or fakes */
    char name[128];                    /* consumer name in the group */
    unsigned long claims;              /* makes each lease owner token unique */
    const volatile sig_atomic_t *stop; /* set by a signal handler */
    volatile sig_atomic_t *reload;     /* set by SIGHUP: read the card catalog again; may be
                                        * NULL */
    long long next_catalog_ms;         /* monotonic time of the next look for a new catalog */
    long outage_ms;                    /* current outage backoff; 0 when both stores answer */
    long long next_maint_ms;           /* monotonic time of the next reaper/reconciler pass */
    /* heartbeat (worker_beat) */
    char host[64];
    char started_at[32];
    char backend[16];
    char device[128];
    char job_id[48];      /* the job running now; "" = none */
    long long claimed_ms; /* monotonic time of its claim */
    unsigned long long games;
    long long next_beat_ms;
};

#endif
