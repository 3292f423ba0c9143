/* SPDX-License-Identifier: MIT */
/* How Skirmish writes JSON documents: one formatting for every document it produces, so
 * that the worker's stored result, the API's answers and `skirmish run` print the same
 * numbers. Reals get SK_JSON_REAL_DIGITS significant digits: enough for any double to be
 * read back as the very same double, as the engine's results are bit-for-bit deterministic.
 * Writing only; nothing here parses. */
#ifndef SK_JSON_H
#define SK_JSON_H

#include <jansson.h>
#include <stdio.h>

/* %.17g round-trips every IEEE 754 double; fewer digits do not. */
#define SK_JSON_REAL_DIGITS 17

/** Compact text of `doc` (no spaces), as a new string (caller frees with sk_free); NULL when
 * out of memory. */
char *sk_json_text(const json_t *doc);

/** Writes `doc` indented by two spaces, then a newline, to `f` (for people). 0, or -1 on a
 * write error. */
int sk_json_print(const json_t *doc, FILE *f);

#endif
