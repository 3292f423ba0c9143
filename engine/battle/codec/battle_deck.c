/* SPDX-License-Identifier: MIT */
/* Deck strings and deck hashes (see battle_deck.h).
 *
 * The hash: the 64 characters A-Z a-z 0-9 + / stand for 0..63. A card id is written in
 * base 32, least significant digit first; every digit but the last is written as itself
 * (characters A..f), the last as itself + 32 (characters g../), which also ends the id.
 * The peer lists the commander first, then the deck cards. */
#include "battle_deck.h"

#include <stdio.h>
#include <string.h>

#include "battle_catalog.h"
#include "sk_parse.h"

#include "sk_banned.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64_value(char c)
{
    const char *p = c ? strchr(b64, c) : NULL;
    return p ? (int)(p - b64) : -1;
}

int battle_deck_is_hash(const char *text)
{
    if (!*text)
        return 0;
    for (const char *p = text; *p; p++)
        if (b64_value(*p) < 0)
            return 0;
    return 1;
}

int battle_deck_hash_decode(const char *text, int *ids, int max, int *n, char *why, size_t whylen)
{
    long long id = 0, factor = 1;
    int digits = 0;

    *n = 0;
    for (size_t i = 0; text[i]; i++) {
        int d = b64_value(text[i]);
        if (d < 0) {
            snprintf(why, whylen, "character %zu ('%c') is not a deck hash character", i + 1,
                     text[i]);
            return 0;
        }
        /* Ids are below 10^8; six digits of base 32 already pass 10^9. */
        if (++digits > 6) {
            snprintf(why, whylen, "character %zu: a card id longer than 6 characters", i + 1);
            return 0;
        }
        if (d < 32) {
            id += factor * d;
            factor *= 32;
            continue;
        }
        id += factor * (d - 32);
        if (*n == max) {
            snprintf(why, whylen, "more than %d cards", max);
            return 0;
        }
        ids[(*n)++] = (int)id;
        id = 0;
        factor = 1;
        digits = 0;
    }
    if (digits) {
        snprintf(why, whylen, "it ends in the middle of a card id");
        return 0;
    }
    if (*n == 0) {
        snprintf(why, whylen, "it is empty");
        return 0;
    }
    return 1;
}

int battle_deck_hash_encode(const int *ids, int n, char *out, size_t outlen)
{
    size_t len = 0;

    for (int i = 0; i < n; i++) {
        unsigned id = (unsigned)ids[i];
        while (id >= 32) {
            if (len + 1 >= outlen)
                goto full;
            out[len++] = b64[id % 32];
            id /= 32;
        }
        if (len + 1 >= outlen)
            goto full;
        out[len++] = b64[id + 32];
    }
    if (!outlen)
        return 0;
    out[len] = '\0';
    return 1;
full:
    if (outlen)
        out[0] = '\0';
    return 0;
}

/* Copies text[0..len) without surrounding spaces into out (at most max bytes + NUL);
 * returns the trimmed length, or -1 when it does not fit. */
static int trim_copy(const char *text, size_t len, char *out, size_t max)
{
    while (len && (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')) {
        text++;
        len--;
    }
    while (len && strchr(" \t\r\n", text[len - 1]))
        len--;
    if (len > max)
        return -1;
    memcpy(out, text, len);
    out[len] = '\0';
    return (int)len;
}

/* Reads the count of "#N" or "(N)" at `s` (after the name); 1 when valid. */
static int read_count(const char *s, int *count)
{
    char num[16];
    int64_t v = 0;
    size_t len = strlen(s);

    if (s[0] == '#') {
        s++;
        len--;
    } else if (s[0] == '(' && len >= 2 && s[len - 1] == ')') {
        s++;
        len -= 2;
    } else {
        return 0;
    }
    if (trim_copy(s, len, num, sizeof(num) - 1) <= 0 ||
        sk_parse_i64(num, 1, BATTLE_DECK_MAX, &v) != SK_OK)
        return 0;
    *count = (int)v;
    return 1;
}

/* Reads one entry text[0..len) into *e. */
static int read_entry(const char *text, size_t len, int k, struct battle_deck_entry *e, char *why,
                      size_t whylen)
{
    char buf[BATTLE_NAME_MAX + 32];
    char *mark;
    int n = trim_copy(text, len, buf, sizeof(buf) - 1);

    memset(e, 0, sizeof(*e));
    e->count = 1;
    if (n < 0) {
        snprintf(why, whylen, "entry %d is longer than %d bytes", k, BATTLE_NAME_MAX);
        return 0;
    }
    if (n == 0) {
        snprintf(why, whylen, "entry %d is empty", k);
        return 0;
    }
    mark = strpbrk(buf, "#(");
    if (mark) {
        if (!read_count(mark, &e->count)) {
            snprintf(why, whylen, "entry %d: '%s' is not a count: write #N or (N), N from 1 to %d",
                     k, mark, BATTLE_DECK_MAX);
            return 0;
        }
        *mark = '\0';
    }
    /* '!' marks a card an optimiser must keep: a plain card for a simulation. */
    n = trim_copy(buf[0] == '!' ? buf + 1 : buf, strlen(buf[0] == '!' ? buf + 1 : buf), e->name,
                  BATTLE_NAME_MAX);
    if (n <= 0) {
        snprintf(why, whylen, "entry %d has no card name", k);
        return 0;
    }
    if (battle_catalog_id_ref(e->name, &e->id)) {
        if (!e->id) {
            snprintf(why, whylen, "entry %d: '%s' is not a card id", k, e->name);
            return 0;
        }
        e->name[0] = '\0';
    }
    return 1;
}

int battle_deck_split(const char *text, struct battle_deck_entry *out, int *n, char *why,
                      size_t whylen)
{
    const char *p = text;

    *n = 0;
    if (strlen(text) > BATTLE_DECK_TEXT_MAX) {
        snprintf(why, whylen, "a deck string has at most %d bytes", BATTLE_DECK_TEXT_MAX);
        return 0;
    }
    for (;;) {
        size_t len = strcspn(p, ",:");
        /* a comma at the end, as players' files have (customdecks.txt): nothing more */
        if (*n > 0 && !p[len] && strspn(p, " \t\r\n") == len)
            break;
        if (*n == BATTLE_DECK_ENTRIES_MAX) {
            snprintf(why, whylen, "a deck string has at most %d entries", BATTLE_DECK_ENTRIES_MAX);
            return 0;
        }
        if (!read_entry(p, len, *n + 1, &out[*n], why, whylen))
            return 0;
        (*n)++;
        if (!p[len])
            break;
        p += len + 1;
    }
    return 1;
}
