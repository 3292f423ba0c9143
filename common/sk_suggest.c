/* SPDX-License-Identifier: MIT */
/* "Did you mean" (see sk_suggest.h). */
#include "sk_suggest.h"

#include <ctype.h>
#include <string.h>

#include "sk_banned.h"

static int fold(char c)
{
    return tolower((unsigned char)c);
}

/* Optimal string alignment distance between a and b (lengths <= SK_SUGGEST_MAX), ignoring
 * ASCII case: insertions, deletions, substitutions and swaps of two neighbours each cost
 * 1. Three rows of the dynamic programme are enough. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
    size_t rows[3][SK_SUGGEST_MAX + 1];
    size_t *prev2 = rows[0];
    size_t *prev = rows[1];
    size_t *cur = rows[2];

    for (size_t j = 0; j <= nb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
            size_t d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (prev[j - 1] + cost < d)
                d = prev[j - 1] + cost;
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) &&
                fold(a[i - 2]) == fold(b[j - 1]) && prev2[j - 2] + 1 < d)
                d = prev2[j - 2] + 1;
            cur[j] = d;
        }
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[nb];
}

void sk_suggest_init(struct sk_suggest *s, const char *word)
{
    size_t n = strlen(word);

    s->word = word;
    s->best = NULL;
    s->best_dist = (size_t)-1;
    s->limit = n <= 4 ? 1 : n <= 8 ? 2 : 3;
}

void sk_suggest_add(struct sk_suggest *s, const char *candidate)
{
    size_t nw = strlen(s->word);
    size_t nc;
    size_t d;

    if (!candidate || nw > SK_SUGGEST_MAX)
        return;
    nc = strlen(candidate);
    if (nc > SK_SUGGEST_MAX)
        return;
    /* The distance is at least the difference of the lengths: skip hopeless candidates
     * without running the programme. */
    if ((nc > nw ? nc - nw : nw - nc) > s->limit)
        return;
    d = distance(s->word, nw, candidate, nc);
    if (d <= s->limit && d < s->best_dist) {
        s->best = candidate;
        s->best_dist = d;
    }
}

const char *sk_suggest_best(const struct sk_suggest *s)
{
    return s->best;
}
