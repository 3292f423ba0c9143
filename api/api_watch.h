/* SPDX-License-Identifier: MIT */
/* Waiting requests: long polls (GET /v1/jobs/{id}?wait=) and event streams register here
 * while their connection is suspended, and are fired when Redis announces a change of
 * their job (a thread subscribed to PREFIX:job:*) or when their deadline passes. A fire
 * calls back exactly once per registration, under the registry's lock, so the server can
 * resume a connection that is known to be suspended.
 *
 * Every open waiter holds a slot, counted against the process's cap and its tenant's cap
 * (so that one tenant cannot take every slot of the process), and bound to the API key
 * that opened it. A revoked key's slots are marked revoked and their registrations fired
 * (docs/security.md, "API keys"): at once when Redis announces the revocation on
 * PREFIX:key:<id> (the same subscriber), and otherwise by a second thread that reads every
 * API_WATCH_KEY_CHECK_MS which of the keys holding slots are still active (one statement
 * on its own PostgreSQL connection), for a revocation whose announcement was lost. Knows
 * nothing of HTTP. */
#ifndef API_WATCH_H
#define API_WATCH_H

#include <stddef.h>

#include "sk_err.h"

struct api_watch;

/* How often the keys of the open waiters are read from PostgreSQL: the bound on how long a
 * revoked key's stream stays open when Redis lost the announcement (the announcement
 * itself takes milliseconds). One indexed statement per period, only while keyed waiters
 * are open. */
#define API_WATCH_KEY_CHECK_MS 500

/* Why a registration's callback is called. */
enum api_watch_fire {
    API_WATCH_SUSPEND = 0, /* right after registering: suspend the connection now */
    API_WATCH_FIRED = 1,   /* its job changed, its deadline passed, or the registry closes */
    API_WATCH_HUNGUP = 2,  /* the client closed its connection: end it, freeing its slot */
    API_WATCH_REVOKED = 3, /* the waiter's key was revoked: end it (api_watch_revoked) */
};

/* Called with API_WATCH_SUSPEND right after registering, later exactly once with one of the
 * others (resume the connection). Under the registry's lock: never call back into it. */
typedef void api_watch_fn(void *arg, int fire);

/* What api_watch_new is given (strings copied). */
struct api_watch_opts {
    size_t max;               /* open waiters of the process (SKIRMISH_MAX_WAITERS) */
    size_t max_per_tenant;    /* open waiters of one tenant (..._PER_TENANT); 0 = no cap */
    const char *redis_url;    /* NULL = no subscriber thread */
    const char *prefix;       /* Redis key prefix (with redis_url) */
    const char *database_url; /* NULL = no periodic key check (no thread) */
};

/**
 * Returns in *out a registry with the limits of `o`, starting the subscriber thread when
 * o->redis_url is set and the key checker when o->database_url is set (a store that is down
 * now is not an error: both retry). Free with api_watch_free. SK_ENOMEM, or the error of
 * starting a thread.
 */
enum sk_err api_watch_new(const struct api_watch_opts *o, struct api_watch **out);
struct api_cache;
/**
 * Makes the subscriber drop every job Redis announces from `cache` (borrowed, may be NULL):
 * a final job is announced only when it is deleted (DELETE, retention), which other API
 * processes must not go on serving from their caches.
 */
void api_watch_set_cache(struct api_watch *w, struct api_cache *cache);

/** Stops the threads and frees; NULL-safe. Call api_watch_close first, and no fn afterwards.
 * Every slot must have been released. */
void api_watch_free(struct api_watch *w);

/* ===== Slots: the caps, and the key each waiter is ended with ===== */

/* One open waiter (opaque). */
struct api_watch_slot;

/* What api_watch_acquire answers. */
enum api_watch_verdict {
    API_WATCH_OK = 0,      /* a slot was taken */
    API_WATCH_FULL,        /* the process has `max` open (answer 503) */
    API_WATCH_TENANT_FULL, /* the tenant has `max_per_tenant` open (answer 429) */
    API_WATCH_NOMEM,       /* out of memory */
};

/**
 * Takes a slot for one more open waiter of tenant `tenant` with key `key_id` (both copied;
 * "" for both when keys are off: no tenant cap, never revoked). API_WATCH_OK sets *out (a
 * new slot: release it with api_watch_release when the waiter ends); otherwise *out is
 * untouched. Thread-safe.
 */
enum api_watch_verdict api_watch_acquire(struct api_watch *w, const char *tenant,
                                         const char *key_id, struct api_watch_slot **out);
/** Frees a slot taken with api_watch_acquire (NULL-safe); its registration must have fired. */
void api_watch_release(struct api_watch *w, struct api_watch_slot *slot);
/** Open waiters now (every slot). */
size_t api_watch_open(struct api_watch *w);
/** Open waiters of tenant `tenant` now. */
size_t api_watch_tenant_open(struct api_watch *w, const char *tenant);
/** 1 once the slot's key was revoked (the waiter must end), else 0. Thread-safe. */
int api_watch_revoked(const struct api_watch_slot *slot);

/**
 * Marks every slot of key `key_id` revoked and fires their registrations with
 * API_WATCH_REVOKED. The subscriber calls it for each revocation Redis announces; the key
 * checker for each key PostgreSQL no longer has active. "" does nothing.
 */
void api_watch_revoke(struct api_watch *w, const char *key_id);

/**
 * Registers a wait of `slot` (borrowed; NULL = none: never revoked) for job `job_id` until
 * `deadline_ms` (sk_time_mono_ms clock), calling fn(arg, API_WATCH_SUSPEND) at once and
 * later once fn(arg, API_WATCH_FIRED) on the first change or at the deadline,
 * fn(arg, API_WATCH_HUNGUP) when socket `fd` (-1 = none; it must stay open until the fire) is
 * closed by the client, which is checked every 100 ms, or fn(arg, API_WATCH_REVOKED) when the
 * slot is revoked (at once when it is already). Returns 0, or -1 when the registry is closing
 * or out of memory (fn is not called: answer now).
 */
int api_watch_add(struct api_watch *w, struct api_watch_slot *slot, const char *job_id,
                  long long deadline_ms, int fd, api_watch_fn *fn, void *arg);

/* ===== Feeds: every job's changes, for the event stream of the whole list ===== */

/* Job ids a feed holds between two takes; more set its overflow flag instead (the
 * client reloads what it shows). */
#define API_WATCH_FEED_MAX 256

struct api_watch_feed;

/**
 * Opens a feed: from now on every notification adds its job id (once) to the feed until it
 * is taken. Returns NULL when the registry is closing or out of memory. Close with
 * api_watch_feed_close.
 */
struct api_watch_feed *api_watch_feed_open(struct api_watch *w);
/** Closes and frees a feed; NULL-safe. Its waiting registration must have fired. */
void api_watch_feed_close(struct api_watch *w, struct api_watch_feed *f);

/**
 * Moves the job ids gathered since the last take into `ids` (at most API_WATCH_FEED_MAX)
 * and returns their number; *overflow is 1 when ids were dropped since the last take (too
 * many, or the subscriber was lost and changes may have been missed).
 */
size_t api_watch_feed_take(struct api_watch *w, struct api_watch_feed *f, char (*ids)[40],
                           int *overflow);

/**
 * Waits for the feed: like api_watch_add for "any job" until `deadline_ms` (socket `fd` and
 * `slot` watched the same way). Returns 1 without registering (fn not called) when ids are
 * already waiting to be taken, 0 when registered, -1 when closing or out of memory.
 */
int api_watch_feed_wait(struct api_watch *w, struct api_watch_feed *f, struct api_watch_slot *slot,
                        long long deadline_ms, int fd, api_watch_fn *fn, void *arg);

/** Fires every registration for `job_id`. */
void api_watch_notify(struct api_watch *w, const char *job_id);
/** Fires every registration whose deadline is at or before `now_ms`. */
void api_watch_expire(struct api_watch *w, long long now_ms);
/** Refuses new registrations and fires every one (before stopping the HTTP server). */
void api_watch_close(struct api_watch *w);

#endif
