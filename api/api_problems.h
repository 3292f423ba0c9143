/* SPDX-License-Identifier: MIT */
/* The pages behind problem types: every problem+json answer's `type` is `/problems/<slug>`
 * (api_http_problem), and GET of that URI answers an HTML page saying what the problem
 * means and what a client does about it; `/problems` lists them all. Static text only:
 * reads no store and knows nothing of the request that failed. */
#ifndef API_PROBLEMS_H
#define API_PROBLEMS_H

#include <stddef.h>

/** 1 when `path` (borrowed) is `/problems` or `/problems/<slug>` of a known slug. */
int api_problems_exists(const char *path);

/**
 * Renders the page of `path` (one of api_problems_exists's) as a NUL-terminated HTML
 * document. Returns a new string (caller frees with sk_free), or NULL when out of memory
 * or the path names no page.
 */
char *api_problems_page(const char *path);

/** The number of known problem types, and the slug of type `i` (static storage). For
 *  tests that check every slug the code uses has a page. */
size_t api_problems_count(void);
const char *api_problems_slug(size_t i);

#endif
