/* SPDX-License-Identifier: MIT */
/* Limits on slow and hostile clients, kept per connection and per client address: a cap on
 * connections in total and per address, deadlines for a request's header and body, a cap
 * on the long polls and event streams of one address, and a budget for the memory held by
 * unfinished request bodies. A reaper thread answers a connection whose deadline passed
 * with a prepared 408 and shuts its socket, so the HTTP server closes it. Knows nothing of
 * HTTP parsing: the server tells it what each connection is doing. Thread-safe. */
#ifndef API_GUARD_H
#define API_GUARD_H

#include <stddef.h>
#include <stdint.h>

#include "sk_err.h"

struct api_guard;
struct api_guard_conn;

struct api_guard_limits {
    long max_conns;            /* open connections; more are answered 503 and closed */
    long max_conns_per_addr;   /* per client address; more are answered 429 and closed */
    long header_timeout_ms;    /* a request's header, from accept or the previous answer */
    long body_timeout_ms;      /* a request's body, from the end of its header */
    long max_waiters_per_addr; /* long polls + event streams per client address */
    long body_memory_bytes;    /* bytes of unfinished bodies held, all connections */
};

/* Prepared answers the guard writes itself (complete HTTP/1.1 responses, copied). */
struct api_guard_answers {
    const char *timeout;  /* 408, a deadline passed */
    const char *per_addr; /* 429, too many connections from one address */
    const char *too_many; /* 503, too many connections */
};

/* How long a refused connection is kept open after its answer, its client's bytes read and
 * dropped, before it is shut both ways (closing a socket with unread bytes resets it, which
 * can destroy an answer the client has not read yet). */
#define API_GUARD_LINGER_MS 1000

/* What a connection is doing, for its deadline. */
enum api_guard_phase {
    API_GUARD_HEAD, /* waiting for a request's header: header deadline, then a 408 */
    API_GUARD_IDLE, /* kept alive after an answer: header deadline, then closed quietly */
    API_GUARD_BODY, /* reading a request's body: body deadline */
    API_GUARD_BUSY, /* being answered (or waiting for a job): no deadline */
};

/** Starts the guard and its reaper thread; `lim` and `ans` are copied. */
enum sk_err api_guard_new(const struct api_guard_limits *lim, const struct api_guard_answers *ans,
                          struct api_guard **out);
/** Stops the reaper and frees; NULL-safe. Every connection must be closed first. */
void api_guard_free(struct api_guard *g);

/**
 * Registers an accepted connection (socket `fd`, IPv4 address `addr` in host order) in
 * phase API_GUARD_HEAD. `per_addr` 0 exempts it from the cap per address (the peer is a
 * trusted reverse proxy, which carries many clients' connections and caps each client
 * itself: docs/deploy.md); the total cap holds for every connection. Over a connection cap
 * it writes the 429 or 503 answer, shuts the
 * socket for writing and gives the connection a one-second deadline (the client's request is
 * read meanwhile, so closing does not reset the answer away); *refused is then 1. Returns
 * NULL when out of memory (close the connection). Free with api_guard_close.
 */
struct api_guard_conn *api_guard_open(struct api_guard *g, int fd, uint32_t addr, int per_addr,
                                      int *refused);
/**
 * Answers a connection the server will not read a request from: unless the guard answered
 * it already (a cap, a deadline), writes the `n` bytes of `text` without blocking, shuts the
 * socket for writing and gives it API_GUARD_LINGER_MS, after which the reaper shuts it both
 * ways. Returns 1 when this answer was written, 0 when the guard's was.
 */
int api_guard_refuse(struct api_guard *g, struct api_guard_conn *c, const char *text, size_t n);
/** Unregisters a connection, before its socket is closed; NULL-safe. */
void api_guard_close(struct api_guard *g, struct api_guard_conn *c);
/** 1 when the connection was refused by a cap or its deadline passed; NULL-safe. */
int api_guard_refused(struct api_guard *g, const struct api_guard_conn *c);
/** Sets the phase (and with it the deadline, counted from now). */
void api_guard_phase(struct api_guard *g, struct api_guard_conn *c, enum api_guard_phase p);

/** The client address of a connection (host order). */
uint32_t api_guard_addr(const struct api_guard_conn *c);
/** Counts one more waiter of address `addr`; 0 when it has the most allowed already. A
 * waiter may outlive its connection's registration, hence the address. */
int api_guard_waiter_acquire(struct api_guard *g, uint32_t addr);
/** Counts a waiter of address `addr` as finished. */
void api_guard_waiter_release(struct api_guard *g, uint32_t addr);

/** Reserves `n` more bytes of body memory; 0 when the budget would be exceeded. */
int api_guard_body_reserve(struct api_guard *g, size_t n);
/** Gives back `n` reserved bytes. */
void api_guard_body_release(struct api_guard *g, size_t n);
/** Body bytes reserved now (for /metrics). */
size_t api_guard_body_bytes(const struct api_guard *g);
/** Connections open now. */
size_t api_guard_conns(const struct api_guard *g);

#endif
