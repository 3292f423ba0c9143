/* SPDX-License-Identifier: MIT */
/* Named battleground effects (see battle_bge.h). */
#include "battle_bge.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battle_cards.h"
#include "battle_named.h"
#include "battle_rules.h"
#include "battle_tu.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* The peer's passive battleground effects (battle_skills.h), by name, and why the engine
 * does not play those it does not ("" when it does). */
#define BATTLE_BGE_NAME_(ID, NAME, NEEDS) NAME,
static const char *const passive_names[BATTLE_PASSIVE__COUNT] = {
    BATTLE_PASSIVE_TABLE(BATTLE_BGE_NAME_)};
#undef BATTLE_BGE_NAME_
#define BATTLE_BGE_NEEDS_(ID, NAME, NEEDS) NEEDS,
static const char *const passive_needs[BATTLE_PASSIVE__COUNT] = {
    BATTLE_PASSIVE_TABLE(BATTLE_BGE_NEEDS_)};
#undef BATTLE_BGE_NEEDS_

int battle_bge_passive_parse(const char *name)
{
    char simple[BATTLE_NAME_MAX + 1];
    battle_tu_simplify(name, simple);
    /* The peer also drops hyphens ("Oath-of-Loyalty"); simplify keeps them. */
    for (char *r = simple, *w = simple;; r++) {
        if (*r != '-')
            *w++ = *r;
        if (!*r)
            break;
    }
    for (int k = 0; k < BATTLE_PASSIVE__COUNT; k++)
        if (strcmp(simple, passive_names[k]) == 0)
            return k;
    return -1;
}

const char *battle_bge_passive_name(int k)
{
    return k >= 0 && k < BATTLE_PASSIVE__COUNT ? passive_names[k] : "?";
}

const char *battle_bge_passive_needs(int k)
{
    return k >= 0 && k < BATTLE_PASSIVE__COUNT ? passive_needs[k] : "unknown";
}

enum sk_err battle_bge_load(const char *dir, struct battle_bges *out, uint64_t *hash,
                            struct sk_verr_list *notes, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    int missing = 0, line = 0;
    enum sk_err rc;

    memset(out, 0, sizeof(*out));
    rc = battle_tu_read(dir, BATTLE_BGE_FILE, hash, &text, &len, &missing, err, errlen);
    if (rc)
        return missing ? SK_OK : rc;
    out->items = sk_calloc(BATTLE_BGE_MAX, sizeof(*out->items));
    if (!out->items) {
        sk_free(text);
        snprintf(err, errlen, "out of memory reading %s", BATTLE_BGE_FILE);
        return SK_ENOMEM;
    }
    for (const char *p = text, *end = text + len; p < end;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *colon;
        struct battle_bge *b = &out->items[out->n];
        eol = eol ? eol : end;
        line++;
        while (p < eol && isspace((unsigned char)*p))
            p++;
        colon = memchr(p, ':', (size_t)(eol - p));
        if (p == eol || (eol - p >= 2 && p[0] == '/' && p[1] == '/')) {
            /* blank or a comment */
        } else if (!colon || colon == p) {
            sk_verr_add(notes, BATTLE_BGE_FILE, "line %d: no \"Name: effect\": skipped", line);
        } else if (out->n >= BATTLE_BGE_MAX) {
            sk_verr_add(notes, BATTLE_BGE_FILE, "line %d: more than %d effects: skipped", line,
                        BATTLE_BGE_MAX);
        } else if (!battle_named_trim(p, colon, b->name, sizeof(b->name)) ||
                   !battle_named_trim(colon + 1, eol, b->text, sizeof(b->text))) {
            sk_verr_add(notes, BATTLE_BGE_FILE, "line %d: name or effect too long: skipped", line);
        } else {
            out->n++;
        }
        p = eol + 1;
    }
    sk_free(text);
    return SK_OK;
}

void battle_bge_release(struct battle_bges *b)
{
    if (!b)
        return;
    sk_free(b->items);
    memset(b, 0, sizeof(*b));
}

const struct battle_bge *battle_bge_find(const struct battle_bges *b, const char *name)
{
    char want[BATTLE_NAME_MAX + 1], have[BATTLE_NAME_MAX + 1];

    if (!b)
        return NULL;
    battle_tu_simplify(name, want);
    for (size_t i = 0; want[0] && i < b->n; i++) {
        battle_tu_simplify(b->items[i].name, have);
        if (strcmp(want, have) == 0)
            return &b->items[i];
    }
    return NULL;
}

/* A whole non-negative number in `s`, at most 9999; -1 otherwise. */
static int number(const char *s)
{
    char *end;
    long v;
    if (!isdigit((unsigned char)s[0]))
        return -1;
    v = strtol(s, &end, 10);
    return *end || v > 9999 ? -1 : (int)v;
}

/* A passive effect of a part: its name (`word`, effect k) and its value, the first token
 * when there is one (the peer reads only that one), else 1; into passive[k]. */
static int one_passive(const char *word, int k, char **tok, int nt, int *passive, char *why,
                       size_t whylen)
{
    int v = 1;
    if (*passive_needs[k]) {
        snprintf(why, whylen, "passive battleground effect '%s' is not simulated yet: %s", word,
                 passive_needs[k]);
        return 0;
    }
    if (nt > 0 && ((v = number(tok[0])) < 1 || v > BATTLE_PASSIVE_X_MAX)) {
        snprintf(why, whylen, "'%s' needs a value 1 .. %d", word, BATTLE_PASSIVE_X_MAX);
        return 0;
    }
    passive[k] = v;
    return 1;
}

/* One skill of a part: its name (`word`), then tokens tok[0 .. nt) as the peer reads them
 * ([all | N] [faction] [s [to|into] [s2]] [X]); a passive effect goes to `passive` instead, and
 * *is_passive says so. */
static int one_skill(const char *word, char **tok, int nt, struct battle_skill_spec *sk,
                     int *passive, int *is_passive, char *why, size_t whylen)
{
    char simple[BATTLE_NAME_MAX + 1];
    const char *arg;
    int id, i = 0, v;
    unsigned opts;

    *is_passive = 0;
    if ((id = battle_bge_passive_parse(word)) >= 0) {
        *is_passive = 1;
        return one_passive(word, id, tok, nt, passive, why, whylen);
    }
    battle_tu_simplify(word, simple);
    id = battle_rules_skill_parse(simple);
    if (id < 0 || battle_rules_skill_kind((enum battle_skill)id) != BATTLE_SK_ACTIVATION ||
        id == BATTLE_SKILL_SUMMON) {
        snprintf(why, whylen, "'%s' is not a skill the engine casts as an effect (yet)", word);
        return 0;
    }
    opts = battle_rules_skill_opts((enum battle_skill)id);
    memset(sk, 0, sizeof(*sk));
    sk->id = (enum battle_skill)id;
    sk->game = battle_tu_skill_of_engine(sk->id);
    if (i < nt && strcmp(tok[i], "all") == 0) {
        sk->all = 1;
        i++;
    } else if (i + 1 < nt && (v = number(tok[i])) >= 0) {
        sk->n = v;
        i++;
    }
    if (i + 1 < nt && (v = battle_cards_faction_parse(tok[i])) > 0) {
        sk->y = v;
        i++;
    }
    /* Skill arguments, as the peer reads them: s, then "to" or "into" and s2 (Evolve). */
    if (i < nt && (v = battle_tu_skill_parse(tok[i])) >= 0) {
        sk->s = v + 1;
        i++;
        if (i < nt && (strcmp(tok[i], "to") == 0 || strcmp(tok[i], "into") == 0))
            i++;
        if (i < nt && (v = battle_tu_skill_parse(tok[i])) >= 0) {
            sk->s2 = v + 1;
            i++;
        }
    }
    if ((arg = battle_tu_skill_args(sk->id, sk->s, sk->s2)) != NULL) {
        snprintf(why, whylen, "'%s' %s", word, arg);
        return 0;
    }
    if (i < nt && (v = number(tok[i])) >= 0) {
        if (opts & BATTLE_OPT_X)
            sk->x = v;
        else
            sk->n = v; /* Jam's number is its target count, as in the peer */
        i++;
    }
    if (i < nt) {
        snprintf(why, whylen, "'%s' in \"%s ...\": a word the effect does not take", tok[i], word);
        return 0;
    }
    if ((opts & BATTLE_OPT_X) && (sk->x < 1 || sk->x > BATTLE_SKILL_X_MAX)) {
        snprintf(why, whylen, "'%s' needs a value 1 .. %d", word, BATTLE_SKILL_X_MAX);
        return 0;
    }
    if (sk->n > BATTLE_SKILL_N_MAX) {
        snprintf(why, whylen, "'%s' draws at most %d targets", word, BATTLE_SKILL_N_MAX);
        return 0;
    }
    return 1;
}

/* One part ("Heal+Protect all 2", "Bloodlust 2"): its skills into out[*n ..], its passive
 * effects into passive[]. */
static int one_part(char *part, struct battle_skill_spec *out, int max, int *n, int *passive,
                    char *why, size_t whylen)
{
    char *tok[16], *save = NULL, *names, *name, *save2 = NULL;
    int nt = 0;

    for (char *t = strtok_r(part, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (nt == 16) {
            snprintf(why, whylen, "too many words in an effect");
            return 0;
        }
        tok[nt++] = t;
    }
    if (nt == 0)
        return 1;
    for (int i = 1; i < nt; i++)
        for (char *c = tok[i]; *c; c++)
            *c = (char)tolower((unsigned char)*c);
    names = tok[0];
    for (name = strtok_r(names, "+", &save2); name; name = strtok_r(NULL, "+", &save2)) {
        int is_passive;
        if (*n >= max) {
            snprintf(why, whylen, "more than %d skills", max);
            return 0;
        }
        if (!one_skill(name, tok + 1, nt - 1, &out[*n], passive, &is_passive, why, whylen))
            return 0;
        if (!is_passive)
            (*n)++;
    }
    return 1;
}

static int expand(const struct battle_bges *b, const char *text, int depth,
                  struct battle_skill_spec *out, int max, int *n, int *passive, char *why,
                  size_t whylen)
{
    char buf[BATTLE_BGE_TEXT_MAX + 1];
    const char *p = text;

    if (depth > 8) {
        snprintf(why, whylen, "effects name each other more than 8 deep");
        return 0;
    }
    while (*p) {
        const char *e = p + strcspn(p, ";|");
        const struct battle_bge *named;
        if (!battle_named_trim(p, e, buf, sizeof(buf))) {
            snprintf(why, whylen, "an effect longer than %d bytes", BATTLE_BGE_TEXT_MAX);
            return 0;
        }
        named = buf[0] ? battle_bge_find(b, buf) : NULL;
        if (named ? !expand(b, named->text, depth + 1, out, max, n, passive, why, whylen)
                  : !one_part(buf, out, max, n, passive, why, whylen))
            return 0;
        p = *e ? e + 1 : e;
    }
    return 1;
}

int battle_bge_expand(const struct battle_bges *b, const char *text, struct battle_skill_spec *out,
                      int max, int *n, int *passive, char *why, size_t whylen)
{
    return expand(b, text, 0, out, max, n, passive, why, whylen);
}
