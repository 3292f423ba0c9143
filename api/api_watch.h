/* SPDX-License-Identifier: MIT */
/* Waiting requests: long polls (GET /v1/jobs/{id}?wait=) and event streams register here
 * while their connection is suspended, and are fired when Redis announces a change of
 * their job (a thread subscribed to PREFIX:job:*) or when their deadline passes. A fire
 * calls back exactly once per registration, under the registry's lock, so the server can
 * resume a connection that is known to be suspended. Knows nothing of HTTP. */
#ifndef API_WATCH_H
#define API_WATCH_H

#include <stddef.h>

#include "sk_err.h"

struct api_watch;

/* Called with fire = 0 right after registering (suspend the connection now), later once
 * with fire = 1 (resume it), or 2 when the client closed its connection (resume it to end
 * it, freeing its slot at once). Both under the registry's lock: never call back into it. */
typedef void api_watch_fn(void *arg, int fire);

/**
 * Returns in *out a registry allowing `max` open waiters. With `redis_url` non-NULL it
 * starts the subscriber thread on keys under `prefix` (both copied). Free with
 * api_watch_free.
 */
enum sk_err api_watch_new(size_t max, const char *redis_url, const char *prefix,
                          struct api_watch **out);
struct api_cache;
/**
 * Makes the subscriber drop every job Redis announces from `cache` (borrowed, may be NULL):
 * a final job is announced only when it is deleted (DELETE, retention), which other API
 * processes must not go on serving from their caches.
 */
void api_watch_set_cache(struct api_watch *w, struct api_cache *cache);

/** Stops the thread and frees; NULL-safe. Call api_watch_close first, and no fn afterwards. */
void api_watch_free(struct api_watch *w);

/** Counts one more open waiter; 0 when `max` are open already (answer 503), else 1. */
int api_watch_acquire(struct api_watch *w);
/** Counts an open waiter as finished. */
void api_watch_release(struct api_watch *w);
/** Open waiters now. */
size_t api_watch_open(struct api_watch *w);

/**
 * Registers a wait for job `job_id` until `deadline_ms` (sk_time_mono_ms clock), calling
 * fn(arg, 0) at once and fn(arg, 1) on the first change or at the deadline, or fn(arg, 2)
 * when socket `fd` (-1 = none; it must stay open until the fire) is closed by the client,
 * which is checked every 100 ms. Returns 0, or -1 when the registry is closing or out of
 * memory (fn is not called: answer now).
 */
int api_watch_add(struct api_watch *w, const char *job_id, long long deadline_ms, int fd,
                  api_watch_fn *fn, void *arg);

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
 * Waits for the feed: like api_watch_add for "any job" until `deadline_ms` (socket `fd`
 * watched the same way). Returns 1 without registering (fn not called) when ids are
 * already waiting to be taken, 0 when registered, -1 when closing or out of memory.
 */
int api_watch_feed_wait(struct api_watch *w, struct api_watch_feed *f, long long deadline_ms,
                        int fd, api_watch_fn *fn, void *arg);

/** Fires every registration for `job_id`. */
void api_watch_notify(struct api_watch *w, const char *job_id);
/** Fires every registration whose deadline is at or before `now_ms`. */
void api_watch_expire(struct api_watch *w, long long now_ms);
/** Refuses new registrations and fires every one (before stopping the HTTP server). */
void api_watch_close(struct api_watch *w);

#endif
