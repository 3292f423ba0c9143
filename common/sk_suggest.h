/* SPDX-License-Identifier: MIT */
/* "Did you mean": picks, among candidate names fed one at a time, the one closest to a
 * misspelt word (case-insensitive edit distance with transpositions), if any is close
 * enough to be a likely typo. It only compares text; it does not know where names come
 * from or how a message is worded. */
#ifndef SK_SUGGEST_H
#define SK_SUGGEST_H

#include <stddef.h>

/* Longest word or candidate compared, in bytes; longer ones are never suggested. */
#define SK_SUGGEST_MAX 64

/* The state of one search. Plain data: no release needed. */
struct sk_suggest {
    const char *word; /* borrowed; the misspelt word */
    const char *best; /* borrowed from the caller's candidates; NULL = none close enough */
    size_t best_dist;
    size_t limit; /* largest distance still suggested */
};

/**
 * Starts a search for `word` (borrowed: must outlive the search). The tolerance grows
 * with the word: 1 edit up to 4 bytes, 2 up to 8, then 3, so that short words are not
 * "corrected" into unrelated ones.
 */
void sk_suggest_init(struct sk_suggest *s, const char *word);

/** Considers `candidate` (borrowed: must outlive the search); NULL is ignored. Among
 *  candidates at the same distance the first one wins. */
void sk_suggest_add(struct sk_suggest *s, const char *candidate);

/** The closest candidate so far (borrowed from the caller), or NULL when none is within
 *  the tolerance. */
const char *sk_suggest_best(const struct sk_suggest *s);

#endif
