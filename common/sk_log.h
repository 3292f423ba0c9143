/* SPDX-License-Identifier: MIT */
/* Levelled logging, one line per event on stderr as `key=value` pairs (docs/style.md, rule 20):
 * `ts=... level=info prog=api event=job_accepted job_id=... req_id=...`. The caller writes
 * the event's pairs; this module adds the timestamp, level and program name and writes the
 * line with one write(2) so lines from threads never interleave. It does not rotate files
 * or quote values: callers pass values without spaces or use sk_log_quote. */
#ifndef SK_LOG_H
#define SK_LOG_H

#include <stddef.h>

enum sk_log_level { SK_LOG_DEBUG = 0, SK_LOG_INFO, SK_LOG_WARN, SK_LOG_ERROR };

/** Sets the program name written as `prog=` (borrowed; must outlive logging). */
void sk_log_set_prog(const char *prog);
/** Sets the lowest level written; lines below it are dropped. */
void sk_log_set_level(enum sk_log_level level);
/** Parses "debug", "info", "warn" or "error"; returns -1 for anything else. */
int sk_log_level_parse(const char *name);

/**
 * Writes one line at `level` made of the standard prefix and the printf-style `fmt`
 * (which should be `key=value` pairs separated by spaces). Thread-safe.
 */
void sk_log(enum sk_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * Copies `s` into `buf` (size `len`, always NUL-terminated) as a double-quoted value with
 * `"` and `\` escaped and control bytes and bytes of no valid UTF-8 character written as
 * \xHH, so free text (error messages, a client's path) stays on one line, parseable and
 * unforgeable. Cut on a character boundary when `len` is short. Returns `buf`.
 */
const char *sk_log_quote(char *buf, size_t len, const char *s);

#define sk_log_debug(...) sk_log(SK_LOG_DEBUG, __VA_ARGS__)
#define sk_log_info(...)  sk_log(SK_LOG_INFO, __VA_ARGS__)
#define sk_log_warn(...)  sk_log(SK_LOG_WARN, __VA_ARGS__)
#define sk_log_error(...) sk_log(SK_LOG_ERROR, __VA_ARGS__)

#endif
