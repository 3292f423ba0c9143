/* SPDX-License-Identifier: MIT */
/* UTF-8 checks for text that leaves the process: JSON (jansson refuses a string that is not
 * valid UTF-8, so one bad byte would empty a whole problem document) and log lines (a
 * control byte would split one). Text from a client is made safe once, where it enters
 * (sk_utf8_escape); text built here is cut on a character boundary (sk_utf8_cut). No
 * allocation except in sk_utf8_escape. */
#ifndef SK_UTF8_H
#define SK_UTF8_H

#include <stddef.h>

/** Length (1..4) of the valid UTF-8 sequence at s[0..n), or 0 when it is not one. */
size_t sk_utf8_seq(const char *s, size_t n);

/** 1 when the `n` bytes at `s` are valid UTF-8 (no overlongs, surrogates or > U+10FFFF). */
int sk_utf8_valid(const char *s, size_t n);

/**
 * The largest length <= n at which `s` can be cut without splitting a character: n when
 * s[0..n) ends on a boundary, else the start of the character it cuts. Bytes before the
 * cut are not checked.
 */
size_t sk_utf8_cut(const char *s, size_t n);

/**
 * 1 when sk_utf8_escape would change `s`: it holds a byte that is not part of valid UTF-8,
 * a control character (U+0000..U+001F, U+007F) or, with `pct` set, a '%'.
 */
int sk_utf8_needs_escape(const char *s, size_t n, int pct);

/**
 * Copies the `n` bytes of `s` into `out` (size `len` >= 1, always NUL-terminated) with
 * every byte of an invalid sequence and every control character written as %XX, as a URL
 * would carry it; with `pct` set a '%' itself becomes %25, so the result reads back
 * unambiguously. Never cuts a character or an escape: output that does not fit is dropped
 * whole. Returns the length written.
 */
size_t sk_utf8_escape(char *out, size_t len, const char *s, size_t n, int pct);

#endif
