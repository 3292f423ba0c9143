/* SPDX-License-Identifier: MIT */
/* Named decks and card abbreviations (see battle_named.h). */
#include "battle_named.h"

#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battle_tu.h"
#include "sk_mem.h"

#include "sk_banned.h"

int battle_named_trim(const char *a, const char *b, char *out, size_t outlen)
{
    while (a < b && isspace((unsigned char)*a))
        a++;
    while (b > a && isspace((unsigned char)b[-1]))
        b--;
    if ((size_t)(b - a) >= outlen)
        return 0;
    memcpy(out, a, (size_t)(b - a));
    out[b - a] = '\0';
    return 1;
}

/* battle_named_trim, and 0 for nothing but spaces too. */
static int copy_trim(const char *a, const char *b, char *out, size_t outlen)
{
    return battle_named_trim(a, b, out, outlen) && out[0];
}

static int entry_cmp(const void *a, const void *b)
{
    const struct battle_named_entry *x = a, *y = b;
    int d = strcmp(x->key, y->key);
    return d ? d : (x->line > y->line) - (x->line < y->line);
}

static void list_release(struct battle_named_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        sk_free(l->items[i].text);
    sk_free(l->items);
    memset(l, 0, sizeof(*l));
}

/* Sorts `l` by key and keeps the last line of each key, noting the others. */
static void dedupe(struct battle_named_list *l, const char *file, struct sk_verr_list *notes)
{
    size_t w = 0;
    qsort(l->items, l->n, sizeof(*l->items), entry_cmp);
    for (size_t i = 0; i < l->n; i++) {
        if (i + 1 < l->n && strcmp(l->items[i].key, l->items[i + 1].key) == 0) {
            sk_verr_add(notes, file, "line %d: \"%s\" is named again at line %d, which wins",
                        l->items[i].line, l->items[i].name, l->items[i + 1].line);
            sk_free(l->items[i].text);
            continue;
        }
        l->items[w++] = l->items[i];
    }
    l->n = w;
}

/* Reads one "Name: text" file of `dir` into `l`. */
static enum sk_err load_file(const char *dir, const char *file, struct battle_named_list *l,
                             uint64_t *hash, struct sk_verr_list *notes, char *err, size_t errlen)
{
    char *text = NULL, *body = NULL;
    size_t len = 0, cap = 0;
    int missing = 0, line = 0;
    enum sk_err rc = battle_tu_read(dir, file, hash, &text, &len, &missing, err, errlen);

    if (rc)
        return missing ? SK_OK : rc;
    body = sk_malloc(BATTLE_NAMED_TEXT_MAX + 1);
    if (!body) {
        rc = SK_ENOMEM;
        goto out;
    }
    for (const char *p = text, *end = text + len; p < end;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *colon;
        struct battle_named_entry e;
        eol = eol ? eol : end;
        line++;
        while (p < eol && isspace((unsigned char)*p))
            p++;
        colon = memchr(p, ':', (size_t)(eol - p));
        memset(&e, 0, sizeof(e));
        if (p == eol || (eol - p >= 2 && p[0] == '/' && p[1] == '/')) {
            /* blank or a comment */
        } else if (!colon || colon == p) {
            sk_verr_add(notes, file, "line %d: no \"Name: text\": skipped", line);
        } else if (l->n >= BATTLE_NAMED_MAX) {
            sk_verr_add(notes, file, "line %d: more than %d entries: skipped", line,
                        BATTLE_NAMED_MAX);
        } else if (!copy_trim(p, colon, e.name, sizeof(e.name)) ||
                   !copy_trim(colon + 1, eol, body, BATTLE_NAMED_TEXT_MAX + 1)) {
            sk_verr_add(notes, file, "line %d: the name or the text is empty or too long: skipped",
                        line);
        } else {
            battle_tu_simplify(e.name, e.key);
            e.line = line;
            e.text = sk_strdup(body);
            if (!e.text) {
                rc = SK_ENOMEM;
                goto out;
            }
            if (l->n == cap) {
                size_t ncap = cap ? cap * 2 : 64;
                struct battle_named_entry *grown = sk_realloc(l->items, ncap * sizeof(*grown));
                if (!grown) {
                    sk_free(e.text);
                    rc = SK_ENOMEM;
                    goto out;
                }
                l->items = grown;
                cap = ncap;
            }
            l->items[l->n++] = e;
        }
        p = eol + 1;
    }
    dedupe(l, file, notes);
out:
    if (rc == SK_ENOMEM)
        snprintf(err, errlen, "out of memory reading %s", file);
    sk_free(body);
    sk_free(text);
    return rc;
}

enum sk_err battle_named_load(const char *dir, struct battle_named *out, uint64_t *hash,
                              struct sk_verr_list *notes, char *err, size_t errlen)
{
    enum sk_err rc;

    memset(out, 0, sizeof(*out));
    rc = load_file(dir, BATTLE_NAMED_DECKS_FILE, &out->decks, hash, notes, err, errlen);
    if (!rc)
        rc = load_file(dir, BATTLE_NAMED_ABBRS_FILE, &out->abbrs, hash, notes, err, errlen);
    if (rc)
        battle_named_release(out);
    return rc;
}

void battle_named_release(struct battle_named *n)
{
    if (!n)
        return;
    list_release(&n->decks);
    list_release(&n->abbrs);
}

static int key_cmp(const void *key, const void *item)
{
    return strcmp(key, ((const struct battle_named_entry *)item)->key);
}

const struct battle_named_entry *battle_named_find(const struct battle_named_list *list,
                                                   const char *name)
{
    char key[BATTLE_NAME_MAX + 1];
    if (!list->n || strlen(name) > BATTLE_NAME_MAX)
        return NULL;
    battle_tu_simplify(name, key);
    return bsearch(key, list->items, list->n, sizeof(*list->items), key_cmp);
}

void battle_named_drop_abbrs(struct battle_named *n, int (*is_card)(const void *arg, const char *),
                             const void *arg, struct sk_verr_list *notes)
{
    size_t w = 0;
    for (size_t i = 0; i < n->abbrs.n; i++) {
        struct battle_named_entry *e = &n->abbrs.items[i];
        if (is_card(arg, e->name)) {
            sk_verr_add(notes, BATTLE_NAMED_ABBRS_FILE,
                        "line %d: \"%s\" is a card's name: the abbreviation is ignored", e->line,
                        e->name);
            sk_free(e->text);
            continue;
        }
        n->abbrs.items[w++] = *e;
    }
    n->abbrs.n = w;
}

/* ===== Expansion ===== */

struct expansion {
    const struct battle_named *n;
    struct battle_named_part *out;
    int max, count;
    const char *stack[BATTLE_NAMED_DEPTH_MAX];
    int depth;
    char *why;
    size_t whylen;
};

static int add_part(struct expansion *x, const char *text, const char *from, double w)
{
    for (int i = 0; i < x->count; i++)
        if (strcmp(x->out[i].text, text) == 0) {
            x->out[i].weight += w;
            return 0;
        }
    if (x->count == x->max) {
        snprintf(x->why, x->whylen, "it stands for more than %d decks", x->max);
        return -1;
    }
    x->out[x->count++] = (struct battle_named_part){text, from, w};
    return 0;
}

/* POSIX extended expressions lack the peer's \d, \w, \s (boost's Perl syntax): written
 * as the classes they stand for. 0 when the result does not fit. */
static int to_posix(const char *re, size_t len, char *out, size_t outlen)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        const char *cls = NULL;
        if (re[i] == '\\' && i + 1 < len) {
            switch (re[i + 1]) {
            case 'd':
                cls = "[0-9]";
                break;
            case 'D':
                cls = "[^0-9]";
                break;
            case 'w':
                cls = "[[:alnum:]_]";
                break;
            case 'W':
                cls = "[^[:alnum:]_]";
                break;
            case 's':
                cls = "[[:space:]]";
                break;
            case 'S':
                cls = "[^[:space:]]";
                break;
            default:
                break;
            }
        }
        if (cls) {
            size_t cl = strlen(cls);
            if (o + cl >= outlen)
                return 0;
            memcpy(out + o, cls, cl);
            o += cl;
            i++;
        } else {
            if (o + 1 >= outlen)
                return 0;
            out[o++] = re[i];
        }
    }
    out[o] = '\0';
    return 1;
}

static int expand_into(struct expansion *x, const char *text, double w);

/* The named decks whose names the expression /re/ (len bytes) matches, each an equal share
 * of `w`. */
static int expand_regex(struct expansion *x, const char *re, size_t len, double w)
{
    char posix[2 * BATTLE_NAMED_TEXT_MAX];
    regex_t rx;
    size_t matched = 0;
    int rc = 0;

    if (!to_posix(re, len, posix, sizeof(posix)) ||
        regcomp(&rx, posix, REG_EXTENDED | REG_NOSUB) != 0) {
        snprintf(x->why, x->whylen, "/%.*s/ is not a regular expression it can read", (int)len, re);
        return -1;
    }
    for (size_t i = 0; i < x->n->decks.n; i++)
        matched += regexec(&rx, x->n->decks.items[i].name, 0, NULL, 0) == 0;
    for (size_t i = 0; i < x->n->decks.n && rc == 0 && matched; i++)
        if (regexec(&rx, x->n->decks.items[i].name, 0, NULL, 0) == 0)
            rc = expand_into(x, x->n->decks.items[i].name, w / (double)matched);
    regfree(&rx);
    if (!matched) {
        snprintf(x->why, x->whylen, "/%.*s/ matches no named deck", (int)len, re);
        return -1;
    }
    return rc;
}

/* A list "A:0.3;B;C:2": each deck its factor's share of `w` (factors default 1). */
static int expand_list(struct expansion *x, const char *list, double w)
{
    char token[BATTLE_NAMED_TEXT_MAX + 1];
    double factors = 0;

    for (int pass = 0; pass < 2; pass++) {
        for (const char *p = list; *p;) {
            const char *end = strchr(p, ';');
            const char *colon;
            double f = 1;
            char *stop = NULL;
            end = end ? end : p + strlen(p);
            colon = memchr(p, ':', (size_t)(end - p));
            if (colon) {
                char num[64];
                if (!copy_trim(colon + 1, end, num, sizeof(num)) ||
                    !((f = strtod(num, &stop)) > 0) || *stop || f > 1e6) {
                    snprintf(x->why, x->whylen, "\"%.*s\": a deck's factor is a number above 0",
                             (int)(end - p), p);
                    return -1;
                }
            }
            if (!copy_trim(p, colon ? colon : end, token, sizeof(token))) {
                /* "A;B;": an empty place is nothing; an empty name with a factor is a slip */
                if (colon || strspn(p, " \t") < (size_t)(end - p)) {
                    snprintf(x->why, x->whylen, "a deck of the list \"%s\" is empty or too long",
                             list);
                    return -1;
                }
            } else if (pass == 0) {
                factors += f;
            } else if (expand_into(x, token, w * f / factors)) {
                return -1;
            }
            p = *end ? end + 1 : end;
        }
    }
    return 0;
}

static int expand_into(struct expansion *x, const char *text, double w)
{
    const struct battle_named_entry *e = battle_named_find(&x->n->decks, text);
    const char *t;
    size_t len;
    int rc;

    if (!e) { /* a deck string of its own: it must outlive the caller's buffers */
        char *copy = sk_strdup(text);
        if (!copy) {
            snprintf(x->why, x->whylen, "out of memory");
            return -1;
        }
        for (int i = 0; i < x->count; i++)
            if (strcmp(x->out[i].text, copy) == 0) {
                x->out[i].weight += w;
                sk_free(copy);
                return 0;
            }
        rc = add_part(x, copy, NULL, w);
        if (rc)
            sk_free(copy);
        return rc;
    }
    for (int i = 0; i < x->depth; i++)
        if (x->stack[i] == e->name) {
            snprintf(x->why, x->whylen, "the named deck \"%s\" names itself", e->name);
            return -1;
        }
    if (x->depth == BATTLE_NAMED_DEPTH_MAX) {
        snprintf(x->why, x->whylen, "named decks name each other more than %d deep",
                 BATTLE_NAMED_DEPTH_MAX);
        return -1;
    }
    x->stack[x->depth++] = e->name;
    t = e->text;
    len = strlen(t);
    if (len >= 3 && t[0] == '/' && t[len - 1] == '/')
        rc = expand_regex(x, t + 1, len - 2, w);
    else if (strpbrk(t, ";:") || battle_named_find(&x->n->decks, t))
        rc = expand_list(x, t, w);
    else
        rc = add_part(x, t, e->name, w);
    x->depth--;
    return rc;
}

int battle_named_expand(const struct battle_named *n, const char *text,
                        struct battle_named_part *out, int max, char *why, size_t whylen)
{
    struct expansion x = {n, out, max, 0, {NULL}, 0, why, whylen};
    double sum = 0;

    if (expand_into(&x, text, 1.0)) {
        battle_named_parts_release(out, x.count);
        return -1;
    }
    for (int i = 0; i < x.count; i++)
        sum += out[i].weight;
    for (int i = 0; i < x.count && sum > 0; i++)
        out[i].weight /= sum;
    return x.count;
}

void battle_named_parts_release(struct battle_named_part *parts, int n)
{
    /* the texts copied from a list's tokens; a named deck's own text is borrowed */
    for (int i = 0; i < n; i++)
        if (!parts[i].from)
            sk_free((char *)parts[i].text);
}
