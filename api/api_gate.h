/* SPDX-License-Identifier: MIT */
/* The request gate: owns the listening socket and reads the head of the first request of
 * every connection before libmicrohttpd does, so that what libmicrohttpd cannot parse is
 * answered as application/problem+json instead of its compile-time HTML. One thread
 * accepts (registering each connection with the guard, whose caps answer past them),
 * watches new sockets with epoll and looks at what arrived with recv(MSG_PEEK), never
 * consuming a byte, until the head is complete: then the socket goes to the HTTP server
 * (the hand-off callback, MHD_add_connection), which reads it all from the start. A head
 * the gate refuses (request line, a field line, Content-Length, the first chunks of a
 * chunked body, sizes past what the server's memory per connection holds) is answered
 * by the gate, the socket shut for writing and what the client still sends read and
 * dropped until it closes or a second has passed, so the answer is not lost to a reset.
 * Later requests on a kept-alive connection are read by the server alone
 * (docs/security.md). Knows HTTP/1.1 syntax (RFC 9112) and which of it libmicrohttpd
 * 0.9.75 rejects; knows nothing of libmicrohttpd's interface. Thread-safe where stated. */
#ifndef API_GATE_H
#define API_GATE_H

#include <jansson.h>
#include <stddef.h>
#include <sys/socket.h>

#include "api_guard.h"
#include "sk_err.h"

struct api_gate;
struct api_proxy;

/* Bounds of a head the gate lets through: the server's memory per connection must hold
 * any head within them (api_server.c sizes it from these). */
struct api_gate_limits {
    size_t max_head;    /* request line, header fields and the blank line, in bytes */
    size_t max_fields;  /* header field lines */
    size_t max_args;    /* query parameters ('&'-separated pieces of the query) */
    size_t max_cookies; /* pieces of the Cookie fields (';' or ',' separated) */
    long max_body;      /* SKIRMISH_MAX_BODY_BYTES, for the max_bytes of a 413 */
};

enum api_gate_verdict {
    API_GATE_MORE,   /* the head is not complete and nothing in it is wrong yet */
    API_GATE_PASS,   /* the head is complete and the server can read it */
    API_GATE_REFUSE, /* refused: the problem is described */
};

/* Why a head is refused, as the problem the client gets. */
struct api_gate_problem {
    int status;         /* 400, 413, 414, 431 or 505 */
    const char *slug;   /* problem type, /problems/<slug> (static) */
    const char *title;  /* (static) */
    const char *member; /* "header" or "element": what errors[0] names (static) */
    char name[80];      /* the header's name as sent (non-printable bytes as %XX) or the
                           element of RFC 9112: request-line, method, request-target,
                           HTTP-version, field-line, chunk-size, chunk-data */
    char detail[200];
};

/**
 * Reads the `n` bytes that arrived so far on a connection (the head of its first request
 * and what followed it). API_GATE_REFUSE fills `why`. Refuses as soon as a complete line,
 * a partial request line or the size says so; a verdict on a prefix of the bytes is the
 * verdict on all of them, except that API_GATE_PASS may become a refusal of the framing of
 * a chunked body (its chunks or trailer fields) as more of it arrives.
 * Pure; thread-safe.
 */
enum api_gate_verdict api_gate_check(const char *buf, size_t n, const struct api_gate_limits *lim,
                                     struct api_gate_problem *why);

/**
 * A complete answer to write to a socket (status line, headers, an RFC 9457 problem body;
 * Connection: close; Retry-After when `retry_after` > 0), NUL-terminated, sk_free'd by the
 * caller; *len set. `ext` members join the problem (stolen, NULL allowed). NULL when out
 * of memory.
 */
char *api_gate_answer(int status, const char *slug, const char *title, const char *detail,
                      json_t *ext, int retry_after, size_t *len);

/** The answer of a refusal (as api_gate_answer). */
char *api_gate_refusal(const struct api_gate_problem *why, const struct api_gate_limits *lim,
                       size_t *len);

/* Gives an accepted socket whose head passed to the server: 0 when taken, else the server
 * closed it. Called on the gate's thread. */
typedef int (*api_gate_handoff)(void *arg, int fd, const struct sockaddr *addr, socklen_t len);

/**
 * Binds and listens on IPv4 `addr`:`port` (0: any free port; backlog `backlog`); the thread
 * starts with
 * api_gate_start. `guard` is borrowed and must outlive the gate. SK_EINVAL for a bad
 * address, SK_EIO when the socket cannot be bound.
 */
enum sk_err api_gate_new(const char *addr, int port, int backlog, const struct api_gate_limits *lim,
                         struct api_guard *guard, struct api_gate **out);
/** The port listened on (the one bound when `port` was 0). */
int api_gate_port(const struct api_gate *g);
/**
 * Connections from a peer in `proxy` (borrowed, must outlive the gate; NULL = none) are
 * exempt from the guard's cap per address: a trusted reverse proxy carries many clients and
 * caps each itself. Call before api_gate_start.
 */
void api_gate_trust(struct api_gate *g, const struct api_proxy *proxy);
/** Starts accepting; sockets whose head passed go to `fn`. */
enum sk_err api_gate_start(struct api_gate *g, api_gate_handoff fn, void *arg);
/**
 * The guard entry of socket `fd` just handed off, once (NULL when unknown); called by the
 * server when it starts the connection, on any thread. The server closes it with
 * api_guard_close before closing the socket.
 */
struct api_guard_conn *api_gate_take(struct api_gate *g, int fd);
/**
 * Stops accepting: ends the thread, closes the listening socket and the connections the
 * gate still holds. Sockets already handed off stay the server's; NULL-safe.
 */
void api_gate_stop(struct api_gate *g);
/** Stops (api_gate_stop) and frees, once the server has stopped; NULL-safe. */
void api_gate_free(struct api_gate *g);

#endif
