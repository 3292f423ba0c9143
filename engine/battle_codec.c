/* SPDX-License-Identifier: MIT */
/* The battle job codec (see battle_codec.h): JSON -> struct battle_spec with every check
 * the engine relies on, and cards back to JSON. Decoding never stops at the first problem:
 * each part is checked as far as its own shape allows, so one call reports them all. */
#include "battle_codec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "battle_catalog.h"
#include "sk_mem.h"
#include "sk_suggest.h"

#include "sk_banned.h"

/* ===== Names and skill rules ===== */

#define T_COMMANDER (1u << BATTLE_COMMANDER)
#define T_FORTRESS  (1u << BATTLE_FORTRESS)
#define T_ASSAULT   (1u << BATTLE_ASSAULT)
#define T_STRUCTURE (1u << BATTLE_STRUCTURE)
#define T_ANY       (T_COMMANDER | T_FORTRESS | T_ASSAULT | T_STRUCTURE)

/* What a skill may carry and which cards may have it. The type limits follow from the
 * rules: only assaults attack (pierce, berserk, leech) and only assault targets use armor;
 * wall redirects attacks to a structure in play (fortresses are structures in play);
 * commanders are never the target of a hostile skill, so evade on them could not fire. */
struct skill_rule {
    const char *name;
    int takes_x;   /* 1: "x" required in 1..BATTLE_SKILL_X_MAX; 0: "x" not allowed */
    int takes_all; /* 1: "all" allowed (activation skills that pick targets) */
    unsigned types;
    const char *types_text; /* for the error message */
};

static const struct skill_rule skill_rules[BATTLE_SKILL__COUNT] = {
    [BATTLE_SKILL_ARMOR] = {"armor", 1, 0, T_ASSAULT, "assault"},
    [BATTLE_SKILL_COUNTER] = {"counter", 1, 0, T_ANY, NULL},
    [BATTLE_SKILL_WALL] = {"wall", 0, 0, T_STRUCTURE | T_FORTRESS, "structure and fortress"},
    [BATTLE_SKILL_PIERCE] = {"pierce", 1, 0, T_ASSAULT, "assault"},
    [BATTLE_SKILL_BERSERK] = {"berserk", 1, 0, T_ASSAULT, "assault"},
    [BATTLE_SKILL_LEECH] = {"leech", 1, 0, T_ASSAULT, "assault"},
    [BATTLE_SKILL_POISON] = {"poison", 1, 0, T_ANY, NULL},
    [BATTLE_SKILL_EVADE] = {"evade", 1, 0, T_FORTRESS | T_ASSAULT | T_STRUCTURE,
                            "fortress, assault and structure"},
    [BATTLE_SKILL_STRIKE] = {"strike", 1, 1, T_ANY, NULL},
    [BATTLE_SKILL_SIEGE] = {"siege", 1, 1, T_ANY, NULL},
    [BATTLE_SKILL_ENFEEBLE] = {"enfeeble", 1, 1, T_ANY, NULL},
    [BATTLE_SKILL_WEAKEN] = {"weaken", 1, 1, T_ANY, NULL},
    [BATTLE_SKILL_JAM] = {"jam", 0, 1, T_ANY, NULL},
    [BATTLE_SKILL_HEAL] = {"heal", 1, 1, T_ANY, NULL},
    [BATTLE_SKILL_RALLY] = {"rally", 1, 1, T_ANY, NULL},
    [BATTLE_SKILL_PROTECT] = {"protect", 1, 1, T_ANY, NULL},
    [BATTLE_SKILL_FLURRY] = {"flurry", 1, 0, T_ANY, NULL},
};

static const char *const type_names[BATTLE_CARD_TYPE__COUNT] = {
    [BATTLE_COMMANDER] = "commander",
    [BATTLE_FORTRESS] = "fortress",
    [BATTLE_ASSAULT] = "assault",
    [BATTLE_STRUCTURE] = "structure",
};

const char *battle_codec_skill_name(enum battle_skill skill)
{
    if ((unsigned)skill >= BATTLE_SKILL__COUNT)
        return "unknown";
    return skill_rules[skill].name;
}

int battle_codec_skill_parse(const char *name)
{
    for (int s = 0; s < BATTLE_SKILL__COUNT; s++)
        if (strcmp(name, skill_rules[s].name) == 0)
            return s;
    return -1;
}

const char *battle_codec_type_name(enum battle_card_type type)
{
    if ((unsigned)type >= BATTLE_CARD_TYPE__COUNT)
        return "unknown";
    return type_names[type];
}

int battle_codec_type_parse(const char *name)
{
    for (int t = 0; t < BATTLE_CARD_TYPE__COUNT; t++)
        if (strcmp(name, type_names[t]) == 0)
            return t;
    return -1;
}

/* "an assault" / "a commander": messages read better with the article. */
static const char *a_type(enum battle_card_type type)
{
    return type == BATTLE_ASSAULT     ? "an assault"
           : type == BATTLE_COMMANDER ? "a commander"
           : type == BATTLE_FORTRESS  ? "a fortress"
                                      : "a structure";
}

/* ===== Error reporting and field readers ===== */

struct dec {
    struct sk_jptr *ptr;
    struct sk_verr_list *errs;
    int n_err; /* problems found by this decode; errs->n may stop growing when truncated */
};

__attribute__((format(printf, 2, 3))) static void bad(struct dec *d, const char *fmt, ...)
{
    char msg[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    sk_verr_add(d->errs, sk_jptr_str(d->ptr), "%s", msg);
    d->n_err++;
}

/* Like bad(), at the child `key` of the current position. */
__attribute__((format(printf, 3, 4))) static void bad_at(struct dec *d, const char *key,
                                                         const char *fmt, ...)
{
    char msg[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    sk_jptr_push_key(d->ptr, key);
    sk_verr_add(d->errs, sk_jptr_str(d->ptr), "%s", msg);
    sk_jptr_pop(d->ptr);
    d->n_err++;
}

/* Reports every key of `obj` that is not in the NULL-terminated `allowed`. */
static void check_keys(struct dec *d, const json_t *obj, const char *const *allowed)
{
    d->n_err += sk_verr_check_keys(d->errs, d->ptr, obj, allowed);
}

/* Reads the integer field `key` of `obj`. Returns 1 and writes *out when it is present and
 * in [min, max]; 0 when absent (or null); -1 after reporting a problem. */
static int get_int(struct dec *d, const json_t *obj, const char *key, long long min, long long max,
                   long long *out)
{
    const json_t *v = json_object_get(obj, key);
    json_int_t n;

    if (!v || json_is_null(v))
        return 0;
    if (!json_is_integer(v)) {
        bad_at(d, key, "'%s' must be an integer between %lld and %lld", key, min, max);
        return -1;
    }
    n = json_integer_value(v);
    if (n < min || n > max) {
        bad_at(d, key, "'%s' must be between %lld and %lld, not %lld", key, min, max, (long long)n);
        return -1;
    }
    *out = n;
    return 1;
}

/* Checks that `v`, the value of the required member `key` (its pointer already pushed),
 * is present and an object with only `allowed` keys; returns 0 after reporting when it is
 * missing or not an object (its keys are then not checked). */
static int need_object(struct dec *d, const json_t *v, const char *key, const char *const *allowed)
{
    if (!v) {
        bad(d, "'%s' is required", key);
        return 0;
    }
    if (!json_is_object(v)) {
        bad(d, "'%s' must be an object", key);
        return 0;
    }
    check_keys(d, v, allowed);
    return 1;
}

/* Like get_int for a required field. Returns 1 on success, -1 after reporting. */
static int need_int(struct dec *d, const json_t *obj, const char *key, long long min, long long max,
                    long long *out)
{
    int r = get_int(d, obj, key, min, max, out);
    if (r == 0) {
        bad_at(d, key, "'%s' is required", key);
        return -1;
    }
    return r;
}

/* Reads the optional boolean `key`. Same returns as get_int. */
static int get_bool(struct dec *d, const json_t *obj, const char *key, int *out)
{
    const json_t *v = json_object_get(obj, key);

    if (!v || json_is_null(v))
        return 0;
    if (!json_is_boolean(v)) {
        bad_at(d, key, "'%s' must be true or false", key);
        return -1;
    }
    *out = json_is_true(v);
    return 1;
}

/* Reads the optional string `key` that must be one of `names` (n of them); writes the
 * index. Same returns as get_int. */
static int get_enum(struct dec *d, const json_t *obj, const char *key, const char *const *names,
                    int n, int *out)
{
    const json_t *v = json_object_get(obj, key);
    char list[160] = "";
    size_t used = 0;

    if (!v || json_is_null(v))
        return 0;
    if (json_is_string(v)) {
        for (int i = 0; i < n; i++) {
            if (strcmp(json_string_value(v), names[i]) == 0) {
                *out = i;
                return 1;
            }
        }
    }
    for (int i = 0; i < n && used < sizeof(list); i++) {
        int w = snprintf(list + used, sizeof(list) - used, "%s\"%s\"",
                         i == 0       ? ""
                         : i == n - 1 ? " or "
                                      : ", ",
                         names[i]);
        if (w > 0)
            used += (size_t)w;
    }
    bad_at(d, key, "'%s' must be %s", key, list);
    return -1;
}

/* Checks that `v` is a card name: a string of 1..BATTLE_NAME_MAX bytes of UTF-8 (jansson
 * guarantees the encoding) without control characters, which would make names that look
 * alike differ. Reports at the current position; returns the name (borrowed) or NULL. */
static const char *check_name(struct dec *d, const json_t *v, const char *what)
{
    const char *s;
    size_t len;

    if (!json_is_string(v)) {
        bad(d, "%s must be a string", what);
        return NULL;
    }
    s = json_string_value(v);
    len = json_string_length(v);
    if (len == 0 || len > BATTLE_NAME_MAX) {
        bad(d, "%s must be 1 to %d bytes long", what, BATTLE_NAME_MAX);
        return NULL;
    }
    for (size_t i = 0; i < len; i++) {
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
            bad(d, "%s must not contain control characters", what);
            return NULL;
        }
    }
    return s;
}

/* ===== Cards ===== */

static const char *const skill_keys[] = {"name", "x", "all", NULL};
static const char *const card_keys[] = {"name",  "type",   "attack", "health",
                                        "delay", "skills", NULL};

/* Decodes skill `v` into *out for a card of `type` (-1 when the type is unknown). Returns
 * 1 when valid. */
static int decode_skill(struct dec *d, const json_t *v, int type, struct battle_skill_spec *out)
{
    const struct skill_rule *rule;
    const json_t *name;
    int errs_before = d->n_err;
    int id;
    long long x = 0;
    int all = 0;

    if (!json_is_object(v)) {
        bad(d, "a skill must be an object {\"name\", \"x\", \"all\"}");
        return 0;
    }
    check_keys(d, v, skill_keys);
    name = json_object_get(v, "name");
    if (!name) {
        bad_at(d, "name", "'name' is required");
        return 0;
    }
    if (!json_is_string(name) || (id = battle_codec_skill_parse(json_string_value(name))) < 0) {
        if (json_is_string(name))
            bad_at(d, "name", "unknown skill '%s'", json_string_value(name));
        else
            bad_at(d, "name", "'name' must be a string");
        /* "x" and "all" cannot be judged without the skill, but their types can. */
        get_int(d, v, "x", 1, BATTLE_SKILL_X_MAX, &x);
        get_bool(d, v, "all", &all);
        return 0;
    }
    rule = &skill_rules[id];
    if (rule->takes_x) {
        if (get_int(d, v, "x", 1, BATTLE_SKILL_X_MAX, &x) == 0)
            bad_at(d, "x", "'x' is required for skill '%s'", rule->name);
    } else if (json_object_get(v, "x")) {
        bad_at(d, "x", "skill '%s' takes no 'x'", rule->name);
    }
    if (json_object_get(v, "all")) {
        if (!rule->takes_all)
            bad_at(d, "all", "skill '%s' cannot take 'all'", rule->name);
        else
            get_bool(d, v, "all", &all);
    }
    if (type >= 0 && !(rule->types & (1u << type)))
        bad_at(d, "name", "skill '%s' is only for %s cards", rule->name, rule->types_text);
    if (d->n_err > errs_before)
        return 0;
    out->id = (enum battle_skill)id;
    out->x = (int)x;
    out->all = all;
    return 1;
}

/* Decodes the optional "skills" array `skills` (its pointer already pushed) of a card of
 * `type` (-1 when unknown) into card->skills; a skill named twice is an error. */
static void decode_skills(struct dec *d, const json_t *skills, int type,
                          struct battle_card_spec *card)
{
    size_t i;
    json_t *s;

    if (!skills || json_is_null(skills))
        return;
    if (!json_is_array(skills)) {
        bad(d, "'skills' must be an array");
        return;
    }
    if (json_array_size(skills) > BATTLE_CARD_SKILLS_MAX) {
        bad(d, "a card has at most %d skills, not %zu", BATTLE_CARD_SKILLS_MAX,
            json_array_size(skills));
        return;
    }
    json_array_foreach(skills, i, s)
    {
        struct battle_skill_spec sk;
        sk_jptr_push_index(d->ptr, i);
        if (decode_skill(d, s, type, &sk)) {
            int dup = 0;
            for (int j = 0; j < card->n_skills; j++)
                dup |= card->skills[j].id == sk.id;
            if (dup)
                bad_at(d, "name", "skill '%s' appears twice on the card",
                       battle_codec_skill_name(sk.id));
            else
                card->skills[card->n_skills++] = sk;
        }
        sk_jptr_pop(d->ptr);
    }
}

/* Decodes a card definition into *out; returns 1 when valid. */
static int decode_card(struct dec *d, const json_t *v, struct battle_card_spec *out)
{
    static const char *const types[] = {"commander", "fortress", "assault", "structure"};
    struct battle_card_spec card;
    const json_t *name;
    int errs_before = d->n_err;
    int type = -1;
    long long n = 0;

    memset(&card, 0, sizeof(card));
    if (!json_is_object(v)) {
        bad(d, "a card must be an object");
        return 0;
    }
    check_keys(d, v, card_keys);

    name = json_object_get(v, "name");
    sk_jptr_push_key(d->ptr, "name");
    if (!name) {
        bad(d, "'name' is required");
    } else {
        const char *s = check_name(d, name, "'name'");
        if (s)
            memcpy(card.name, s, strlen(s) + 1);
    }
    sk_jptr_pop(d->ptr);

    if (get_enum(d, v, "type", types, BATTLE_CARD_TYPE__COUNT, &type) == 0)
        bad_at(d, "type", "'type' is required");
    card.type = type < 0 ? BATTLE_ASSAULT : (enum battle_card_type)type;

    if (type == BATTLE_ASSAULT) {
        if (need_int(d, v, "attack", 0, BATTLE_STAT_MAX, &n) > 0)
            card.attack = (int)n;
    } else if (type >= 0 && json_object_get(v, "attack")) {
        bad_at(d, "attack", "'attack' is only for assault cards");
    } else if (type < 0) {
        get_int(d, v, "attack", 0, BATTLE_STAT_MAX, &n);
    }

    if (need_int(d, v, "health", 1, BATTLE_STAT_MAX, &n) > 0)
        card.health = (int)n;

    if (type == BATTLE_COMMANDER || type == BATTLE_FORTRESS) {
        if (json_object_get(v, "delay"))
            bad_at(d, "delay", "'delay' is only for assault and structure cards");
    } else if (get_int(d, v, "delay", 0, BATTLE_DELAY_MAX, &n) > 0) {
        card.delay = (int)n;
    }

    sk_jptr_push_key(d->ptr, "skills");
    decode_skills(d, json_object_get(v, "skills"), type, &card);
    sk_jptr_pop(d->ptr);

    if (d->n_err > errs_before)
        return 0;
    *out = card;
    return 1;
}

enum sk_err battle_codec_decode_card(const json_t *v, struct sk_jptr *ptr,
                                     struct sk_verr_list *errs, struct battle_card_spec *out)
{
    struct dec d = {ptr, errs, 0};
    return decode_card(&d, v, out) ? SK_OK : SK_EINVAL;
}

/* Sets `key` of `obj` to the new reference `v`; returns 0 on success. Consumes `v`. */
static int put(json_t *obj, const char *key, json_t *v)
{
    return !v || json_object_set_new(obj, key, v) != 0;
}

json_t *battle_codec_card_to_json(const struct battle_card_spec *card)
{
    json_t *obj = NULL;
    json_t *skills = NULL;
    json_t *out = NULL;

    obj = json_object();
    skills = json_array();
    if (!obj || !skills)
        goto out;
    if (put(obj, "name", json_string(card->name)) ||
        put(obj, "type", json_string(battle_codec_type_name(card->type))))
        goto out;
    if (card->type == BATTLE_ASSAULT && put(obj, "attack", json_integer(card->attack)))
        goto out;
    if (put(obj, "health", json_integer(card->health)))
        goto out;
    if ((card->type == BATTLE_ASSAULT || card->type == BATTLE_STRUCTURE) &&
        put(obj, "delay", json_integer(card->delay)))
        goto out;
    for (int i = 0; i < card->n_skills; i++) {
        const struct battle_skill_spec *s = &card->skills[i];
        json_t *sk = json_object();
        if (!sk || json_array_append_new(skills, sk))
            goto out;
        if (put(sk, "name", json_string(battle_codec_skill_name(s->id))))
            goto out;
        if (skill_rules[s->id].takes_x && put(sk, "x", json_integer(s->x)))
            goto out;
        if (s->all && put(sk, "all", json_true()))
            goto out;
    }
    if (json_object_set(obj, "skills", skills))
        goto out;
    out = obj;
    obj = NULL;
out:
    json_decref(skills);
    json_decref(obj);
    return out;
}

/* ===== Jobs ===== */

/* An inline card definition: its name is kept even when the definition is invalid, so a
 * reference to it is not also reported as an unknown card. */
struct inline_card {
    int named; /* the name was readable */
    int valid;
    struct battle_card_spec card;
};

struct job_dec {
    struct dec d;
    const struct battle_catalog *catalog;
    struct inline_card *inl; /* one entry per element of "cards" */
    int n_inl;
    struct battle_spec *spec; /* spec->cards has BATTLE_CARDS_MAX entries */
};

/* The known card (inline or in the catalog) whose name is closest to the unknown `name`,
 * or NULL when none looks like a typo of it: a misspelt name gets a suggestion. */
static const char *suggest_card(const struct job_dec *j, const char *name)
{
    struct sk_suggest s;

    sk_suggest_init(&s, name);
    for (int i = 0; i < j->n_inl; i++)
        if (j->inl[i].named && j->inl[i].valid)
            sk_suggest_add(&s, j->inl[i].card.name);
    for (size_t i = 0; j->catalog && i < battle_catalog_count(j->catalog); i++)
        sk_suggest_add(&s, battle_catalog_at(j->catalog, i)->name);
    return sk_suggest_best(&s);
}

/* Resolves card `name` (the JSON value at the current position) to an index in
 * spec->cards, adding the card on first use. Returns the index, or -1 after reporting a
 * problem (or when the name is an invalid inline card, reported at its definition). */
static int resolve(struct job_dec *j, const json_t *v)
{
    const struct battle_card_spec *card = NULL;
    const char *name = check_name(&j->d, v, "a card name");
    struct battle_spec *spec = j->spec;

    if (!name)
        return -1;
    for (int i = 0; i < j->n_inl && !card; i++) {
        if (j->inl[i].named && strcmp(j->inl[i].card.name, name) == 0) {
            if (!j->inl[i].valid) {
                /* Already reported at its definition; count it so the part that refers
                 * to it is not treated as valid. */
                j->d.n_err++;
                return -1;
            }
            card = &j->inl[i].card;
        }
    }
    if (!card && j->catalog)
        card = battle_catalog_find(j->catalog, name);
    if (!card) {
        const char *near = suggest_card(j, name);
        if (near)
            bad(&j->d, "unknown card \"%s\"; did you mean \"%s\"?", name, near);
        else
            bad(&j->d, "unknown card \"%s\"", name);
        return -1;
    }
    for (int i = 0; i < spec->n_cards; i++)
        if (strcmp(spec->cards[i].name, name) == 0)
            return i;
    /* Two commanders, four fortresses and two 30-card decks name at most 66 distinct
     * cards; state entries must come from those, so the table cannot overflow. */
    if (spec->n_cards >= BATTLE_CARDS_MAX) {
        bad(&j->d, "a job may use at most %d distinct cards", BATTLE_CARDS_MAX);
        return -1;
    }
    spec->cards[spec->n_cards] = *card;
    return spec->n_cards++;
}

/* Resolves a card reference and checks its type is in `types`; `want` names them. */
static int resolve_typed(struct job_dec *j, const json_t *v, unsigned types, const char *want)
{
    int idx = resolve(j, v);
    const struct battle_card_spec *c;

    if (idx < 0)
        return idx;
    c = &j->spec->cards[idx];
    if (!(types & (1u << c->type))) {
        bad(&j->d, "card \"%s\" is %s card, not %s", c->name, a_type(c->type), want);
        return -1;
    }
    return idx;
}

static void decode_inline_cards(struct job_dec *j, const json_t *cards)
{
    size_t i;
    json_t *v;

    if (!cards || json_is_null(cards))
        return;
    sk_jptr_push_key(j->d.ptr, "cards");
    if (!json_is_array(cards)) {
        bad(&j->d, "'cards' must be an array of card definitions");
    } else if (json_array_size(cards) > BATTLE_INLINE_CARDS_MAX) {
        bad(&j->d, "a job may define at most %d cards, not %zu", BATTLE_INLINE_CARDS_MAX,
            json_array_size(cards));
    } else {
        json_array_foreach(cards, i, v)
        {
            struct inline_card *ic = &j->inl[j->n_inl++];
            const json_t *name = json_is_object(v) ? json_object_get(v, "name") : NULL;
            sk_jptr_push_index(j->d.ptr, i);
            ic->valid = decode_card(&j->d, v, &ic->card);
            if (!ic->valid && json_is_string(name) && json_string_length(name) <= BATTLE_NAME_MAX &&
                strlen(json_string_value(name)) == json_string_length(name)) {
                memcpy(ic->card.name, json_string_value(name), json_string_length(name) + 1);
                ic->named = 1;
            }
            ic->named |= ic->valid;
            for (int k = 0; ic->named && k < j->n_inl - 1; k++) {
                if (j->inl[k].named && strcmp(j->inl[k].card.name, ic->card.name) == 0) {
                    bad_at(&j->d, "name", "card \"%s\" is defined twice", ic->card.name);
                    break;
                }
            }
            sk_jptr_pop(j->d.ptr);
        }
    }
    sk_jptr_pop(j->d.ptr);
}

static const char *const side_keys[] = {"commander", "fortresses", "deck", "play", NULL};
static const char *const deck_entry_keys[] = {"card", "count", NULL};

/* Decodes a deck list into side->deck (counts expanded, list order). */
static void decode_deck(struct job_dec *j, const json_t *deck, struct battle_side_spec *side)
{
    size_t i;
    json_t *e;
    long long total = 0;

    if (!json_is_array(deck)) {
        bad(&j->d, "'deck' must be an array of {\"card\", \"count\"}");
        return;
    }
    json_array_foreach(deck, i, e)
    {
        long long count = 1;
        int idx = -1;
        sk_jptr_push_index(j->d.ptr, i);
        if (!json_is_object(e)) {
            bad(&j->d, "a deck entry must be an object {\"card\", \"count\"}");
        } else {
            const json_t *card = json_object_get(e, "card");
            check_keys(&j->d, e, deck_entry_keys);
            sk_jptr_push_key(j->d.ptr, "card");
            if (!card)
                bad(&j->d, "'card' is required");
            else
                idx = resolve_typed(j, card, T_ASSAULT | T_STRUCTURE, "an assault or structure");
            sk_jptr_pop(j->d.ptr);
            if (get_int(&j->d, e, "count", 1, BATTLE_DECK_MAX, &count) < 0)
                count = 0;
        }
        for (long long c = 0; c < count; c++, total++)
            if (idx >= 0 && total < BATTLE_DECK_MAX)
                side->deck[side->n_deck++] = idx;
        sk_jptr_pop(j->d.ptr);
    }
    if (total > BATTLE_DECK_MAX)
        bad(&j->d, "a deck holds at most %d cards, not %lld", BATTLE_DECK_MAX, total);
}

/* Decodes one side; returns 1 when it is valid (the state is checked against it then). */
static int decode_side(struct job_dec *j, const json_t *params, const char *key,
                       struct battle_side_spec *side)
{
    static const char *const plays[] = {"random", "ordered", "exact"};
    const json_t *v = json_object_get(params, key);
    const json_t *f;
    int errs_before = j->d.n_err;
    int play = BATTLE_PLAY_RANDOM;

    sk_jptr_push_key(j->d.ptr, key);
    if (!need_object(&j->d, v, key, side_keys))
        goto out;

    sk_jptr_push_key(j->d.ptr, "commander");
    if (!json_object_get(v, "commander"))
        bad(&j->d, "'commander' is required");
    else
        side->commander =
            resolve_typed(j, json_object_get(v, "commander"), T_COMMANDER, "a commander");
    sk_jptr_pop(j->d.ptr);

    f = json_object_get(v, "fortresses");
    sk_jptr_push_key(j->d.ptr, "fortresses");
    if (f && !json_is_null(f)) {
        if (!json_is_array(f)) {
            bad(&j->d, "'fortresses' must be an array of card names");
        } else if (json_array_size(f) > BATTLE_FORTRESS_MAX) {
            bad(&j->d, "a side has at most %d fortresses, not %zu", BATTLE_FORTRESS_MAX,
                json_array_size(f));
        } else {
            size_t i;
            json_t *name;
            json_array_foreach(f, i, name)
            {
                int idx;
                sk_jptr_push_index(j->d.ptr, i);
                idx = resolve_typed(j, name, T_FORTRESS, "a fortress");
                if (idx >= 0)
                    side->fortresses[side->n_fortresses++] = idx;
                sk_jptr_pop(j->d.ptr);
            }
        }
    }
    sk_jptr_pop(j->d.ptr);

    sk_jptr_push_key(j->d.ptr, "deck");
    if (!json_object_get(v, "deck"))
        bad(&j->d, "'deck' is required");
    else
        decode_deck(j, json_object_get(v, "deck"), side);
    sk_jptr_pop(j->d.ptr);

    get_enum(&j->d, v, "play", plays, 3, &play);
    side->play = (enum battle_play)play;
out:
    sk_jptr_pop(j->d.ptr);
    return j->d.n_err == errs_before;
}

/* ===== Mid-game state ===== */

static const char *const state_keys[] = {"turn", "attacker", "defender", NULL};
static const char *const side_state_keys[] = {
    "commander_health", "structures", "assaults", "hand", "deck", NULL};
static const char *const unit_keys[] = {"card", "health", "delay", "alive", NULL};

/* Decodes a unit on the field. `slot` is its position in the row; `side` is NULL when the
 * side itself is invalid (then only the unit's own shape is checked). Returns 1 if valid. */
static int decode_unit(struct job_dec *j, const json_t *v, int is_structure, int slot,
                       const struct battle_side_spec *side, struct battle_unit_spec *out)
{
    const struct battle_card_spec *c = NULL;
    int errs_before = j->d.n_err;
    int alive = 1;
    long long health = 0, delay = 0;
    int idx = -1;

    if (!json_is_object(v)) {
        bad(&j->d, "a unit must be an object {\"card\", \"health\", \"delay\", \"alive\"}");
        return 0;
    }
    check_keys(&j->d, v, unit_keys);
    sk_jptr_push_key(j->d.ptr, "card");
    if (!json_object_get(v, "card")) {
        bad(&j->d, "'card' is required");
    } else if (is_structure && side && slot < side->n_fortresses) {
        idx = resolve(j, json_object_get(v, "card"));
        if (idx >= 0 && idx != side->fortresses[slot]) {
            bad(&j->d, "structure %d must be the side's fortress \"%s\": fortresses come first",
                slot, j->spec->cards[side->fortresses[slot]].name);
            idx = -1;
        }
    } else if (is_structure) {
        /* Without a valid side the fortresses are unknown: accept them anywhere. */
        idx = resolve_typed(j, json_object_get(v, "card"),
                            side ? T_STRUCTURE : T_STRUCTURE | T_FORTRESS, "a structure");
    } else {
        idx = resolve_typed(j, json_object_get(v, "card"), T_ASSAULT, "an assault");
    }
    sk_jptr_pop(j->d.ptr);
    if (idx >= 0)
        c = &j->spec->cards[idx];

    get_bool(&j->d, v, "alive", &alive);
    if (alive) {
        need_int(&j->d, v, "health", 1, c ? c->health : BATTLE_STAT_MAX, &health);
    } else if (json_object_get(v, "health") &&
               (!json_is_integer(json_object_get(v, "health")) ||
                json_integer_value(json_object_get(v, "health")) != 0)) {
        bad_at(&j->d, "health", "'health' of a dead unit must be 0");
    }
    get_int(&j->d, v, "delay", 0, c ? c->delay : BATTLE_DELAY_MAX, &delay);
    if (j->d.n_err > errs_before || idx < 0)
        return 0;
    out->card = idx;
    out->health = (int)health;
    out->delay = (int)delay;
    out->alive = alive;
    return 1;
}

/* Decodes the row `key` ("structures" or "assaults") into units/n. */
static void decode_row(struct job_dec *j, const json_t *v, const char *key,
                       const struct battle_side_spec *side, struct battle_unit_spec *units, int *n)
{
    const json_t *row = json_object_get(v, key);
    int is_structure = strcmp(key, "structures") == 0;
    size_t i;
    json_t *u;

    sk_jptr_push_key(j->d.ptr, key);
    if (!row || json_is_null(row)) {
        if (is_structure && side && side->n_fortresses > 0)
            bad(&j->d, "'structures' must start with the side's %d fortresses", side->n_fortresses);
    } else if (!json_is_array(row)) {
        bad(&j->d, "'%s' must be an array of units", key);
    } else if (json_array_size(row) > BATTLE_ROW_MAX) {
        bad(&j->d, "a row holds at most %d units, not %zu", BATTLE_ROW_MAX, json_array_size(row));
    } else {
        if (is_structure && side && json_array_size(row) < (size_t)side->n_fortresses)
            bad(&j->d, "'structures' must start with the side's %d fortresses", side->n_fortresses);
        json_array_foreach(row, i, u)
        {
            sk_jptr_push_index(j->d.ptr, i);
            if (decode_unit(j, u, is_structure, (int)i, side, &units[*n]))
                (*n)++;
            sk_jptr_pop(j->d.ptr);
        }
    }
    sk_jptr_pop(j->d.ptr);
}

/* Decodes the name list `key` ("hand" or "deck") into cards/n, at most `max`. */
static void decode_names(struct job_dec *j, const json_t *v, const char *key, int max, int *cards,
                         int *n)
{
    const json_t *list = json_object_get(v, key);
    size_t i;
    json_t *name;

    sk_jptr_push_key(j->d.ptr, key);
    if (!list || json_is_null(list)) {
        /* empty */
    } else if (!json_is_array(list)) {
        bad(&j->d, "'%s' must be an array of card names", key);
    } else if (json_array_size(list) > (size_t)max) {
        bad(&j->d, "'%s' holds at most %d cards, not %zu", key, max, json_array_size(list));
    } else {
        json_array_foreach(list, i, name)
        {
            int idx;
            sk_jptr_push_index(j->d.ptr, i);
            idx = resolve_typed(j, name, T_ASSAULT | T_STRUCTURE, "an assault or structure");
            if (idx >= 0)
                cards[(*n)++] = idx;
            sk_jptr_pop(j->d.ptr);
        }
    }
    sk_jptr_pop(j->d.ptr);
}

/* Checks that the deck cards in play, in hand and in the deck of side state `st` are drawn
 * from the side's deck list: each card at most as often as the list has it. The pointer is
 * at the side's state object; the first entry over the count is reported. */
static void check_multiset(struct job_dec *j, const json_t *v, const struct battle_side_spec *side,
                           const struct battle_side_state *st)
{
    int listed[BATTLE_CARDS_MAX] = {0};
    int used[BATTLE_CARDS_MAX] = {0};
    int reported[BATTLE_CARDS_MAX] = {0};
    struct {
        const char *key;
        int first; /* first array index that holds deck cards */
    } parts[] = {{"structures", side->n_fortresses}, {"assaults", 0}, {"hand", 0}, {"deck", 0}};

    for (int i = 0; i < side->n_deck; i++)
        listed[side->deck[i]]++;
    /* Walk the JSON arrays (all valid by now) so the reported pointer is exact. */
    for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++) {
        const json_t *arr = json_object_get(v, parts[p].key);
        for (size_t i = (size_t)parts[p].first; i < json_array_size(arr); i++) {
            const json_t *e = json_array_get(arr, i);
            const char *name = json_is_object(e) ? json_string_value(json_object_get(e, "card"))
                                                 : json_string_value(e);
            int idx = -1;
            for (int c = 0; c < j->spec->n_cards && idx < 0; c++)
                if (strcmp(j->spec->cards[c].name, name) == 0)
                    idx = c;
            if (idx < 0)
                continue;
            if (++used[idx] > listed[idx] && !reported[idx]) {
                int total = 0;
                reported[idx] = 1;
                for (int q = 0; q < st->n_structures; q++)
                    total += q >= side->n_fortresses && st->structures[q].card == idx;
                for (int q = 0; q < st->n_assaults; q++)
                    total += st->assaults[q].card == idx;
                for (int q = 0; q < st->n_hand; q++)
                    total += st->hand[q] == idx;
                for (int q = 0; q < st->n_deck; q++)
                    total += st->deck[q] == idx;
                sk_jptr_push_key(j->d.ptr, parts[p].key);
                sk_jptr_push_index(j->d.ptr, i);
                bad(&j->d,
                    "card \"%s\" is in play, hand and deck %d times but the deck list has it "
                    "%d times",
                    name, total, listed[idx]);
                sk_jptr_pop(j->d.ptr);
                sk_jptr_pop(j->d.ptr);
            }
        }
    }
}

static void decode_side_state(struct job_dec *j, const json_t *state, const char *key, int s,
                              int side_ok, struct battle_side_state *st)
{
    const struct battle_side_spec *side = side_ok ? &j->spec->sides[s] : NULL;
    const json_t *v = json_object_get(state, key);
    int errs_before;
    long long hp = 0;
    int cmd_max = BATTLE_STAT_MAX;

    sk_jptr_push_key(j->d.ptr, key);
    if (!need_object(&j->d, v, key, side_state_keys))
        goto out;
    if (side)
        cmd_max = j->spec->cards[side->commander].health;
    if (need_int(&j->d, v, "commander_health", 1, cmd_max, &hp) > 0)
        st->commander_health = (int)hp;
    errs_before = j->d.n_err;
    decode_row(j, v, "structures", side, st->structures, &st->n_structures);
    decode_row(j, v, "assaults", side, st->assaults, &st->n_assaults);
    decode_names(j, v, "hand", BATTLE_HAND_MAX, st->hand, &st->n_hand);
    decode_names(j, v, "deck", BATTLE_DECK_MAX, st->deck, &st->n_deck);
    if (j->d.n_err > errs_before || !side)
        goto out;
    /* The hand is refilled from the deck to three cards, so a short hand means an empty
     * deck. */
    if (st->n_deck > 0 && st->n_hand < BATTLE_HAND_MAX)
        bad_at(&j->d, "hand", "the hand must hold %d cards while the deck has cards",
               BATTLE_HAND_MAX);
    check_multiset(j, v, side, st);
out:
    sk_jptr_pop(j->d.ptr);
}

static void decode_state(struct job_dec *j, const json_t *params, const int side_ok[2])
{
    const json_t *v = json_object_get(params, "state");
    struct battle_spec *spec = j->spec;
    long long turn = 0;

    if (!v || json_is_null(v))
        return;
    sk_jptr_push_key(j->d.ptr, "state");
    if (!json_is_object(v)) {
        bad(&j->d, "'state' must be an object or null");
        goto out;
    }
    check_keys(&j->d, v, state_keys);
    if (need_int(&j->d, v, "turn", 1, spec->turn_limit, &turn) > 0)
        spec->state.turn = (int)turn;
    decode_side_state(j, v, "attacker", 0, side_ok[0], &spec->state.sides[0]);
    decode_side_state(j, v, "defender", 1, side_ok[1], &spec->state.sides[1]);
    spec->has_state = 1;
out:
    sk_jptr_pop(j->d.ptr);
}

static const char *const params_keys[] = {"games",    "mode",     "turn_limit", "cards",
                                          "attacker", "defender", "state",      NULL};

enum sk_err battle_codec_decode(const json_t *params, uint64_t seed,
                                const struct battle_catalog *catalog, struct sk_jptr *ptr,
                                struct sk_verr_list *errs, struct battle_spec *out)
{
    static const char *const modes[] = {"fight", "surge"};
    struct job_dec j;
    struct battle_spec *spec = NULL;
    int side_ok[2];
    int mode = BATTLE_MODE_FIGHT;
    const json_t *cards;
    size_t n_inl = 0;
    long long n = 0;
    enum sk_err err = SK_OK;

    memset(&j, 0, sizeof(j));
    j.d.ptr = ptr;
    j.d.errs = errs;
    j.catalog = catalog;
    if (!json_is_object(params)) {
        bad(&j.d, "'params' must be an object");
        return SK_EINVAL;
    }
    cards = json_object_get(params, "cards");
    if (json_is_array(cards) && json_array_size(cards) <= BATTLE_INLINE_CARDS_MAX)
        n_inl = json_array_size(cards);
    spec = sk_calloc(1, sizeof(*spec));
    if (n_inl)
        j.inl = sk_calloc(n_inl, sizeof(*j.inl));
    if (spec)
        spec->cards = sk_calloc(BATTLE_CARDS_MAX, sizeof(*spec->cards));
    if (!spec || (n_inl && !j.inl) || !spec->cards) {
        err = SK_ENOMEM;
        goto out;
    }
    j.spec = spec;
    spec->seed = seed;
    check_keys(&j.d, params, params_keys);
    spec->games = BATTLE_GAMES_DEF;
    if (get_int(&j.d, params, "games", 1, (long long)BATTLE_GAMES_MAX, &n) > 0)
        spec->games = (uint64_t)n;
    get_enum(&j.d, params, "mode", modes, 2, &mode);
    spec->mode = (enum battle_mode)mode;
    spec->turn_limit = BATTLE_TURN_LIMIT_DEF;
    if (get_int(&j.d, params, "turn_limit", 1, BATTLE_TURN_LIMIT_MAX, &n) > 0)
        spec->turn_limit = (int)n;
    decode_inline_cards(&j, cards);
    side_ok[0] = decode_side(&j, params, "attacker", &spec->sides[0]);
    side_ok[1] = decode_side(&j, params, "defender", &spec->sides[1]);
    decode_state(&j, params, side_ok);
    if (j.d.n_err > 0) {
        err = SK_EINVAL;
        goto out;
    }
    *out = *spec;
    spec->cards = NULL;
out:
    if (spec)
        sk_free(spec->cards);
    sk_free(spec);
    sk_free(j.inl);
    return err;
}

void battle_codec_spec_release(struct battle_spec *spec)
{
    if (!spec)
        return;
    sk_free(spec->cards);
    memset(spec, 0, sizeof(*spec));
}
