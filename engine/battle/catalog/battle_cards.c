/* SPDX-License-Identifier: MIT */
/* Battle cards (see battle_cards.h): the names of card types and skills, the rules of a
 * skill's options from the skill table, and one card definition from and to JSON. */
#include "battle_cards.h"

#include <stdio.h>
#include <string.h>

#include "battle_rules.h"
#include "battle_tu.h"
#include "sk_jdec.h"

#include "sk_banned.h"

/* ===== Names and skill rules ===== */

static const char *const type_names[BATTLE_CARD_TYPE__COUNT] = {
    [BATTLE_COMMANDER] = "commander",
    [BATTLE_FORTRESS] = "fortress",
    [BATTLE_ASSAULT] = "assault",
    [BATTLE_STRUCTURE] = "structure",
};

int battle_cards_faction_parse(const char *name)
{
    for (int f = 1; f <= 6; f++)
        if (strcmp(name, battle_tu_faction_name(f)) == 0)
            return f;
    return -1;
}

int battle_cards_trigger_parse(const char *name)
{
    for (int t = 1; t <= 3; t++)
        if (strcmp(name, battle_tu_trigger_name(t)) == 0)
            return t;
    return -1;
}

const char *battle_cards_type_name(enum battle_card_type type)
{
    if ((unsigned)type >= BATTLE_CARD_TYPE__COUNT)
        return "unknown";
    return type_names[type];
}

int battle_cards_type_parse(const char *name)
{
    for (int t = 0; t < BATTLE_CARD_TYPE__COUNT; t++)
        if (strcmp(name, type_names[t]) == 0)
            return t;
    return -1;
}

/* "an assault" / "a commander": messages read better with the article. */
const char *battle_cards_a_type(enum battle_card_type type)
{
    return type == BATTLE_ASSAULT     ? "an assault"
           : type == BATTLE_COMMANDER ? "a commander"
           : type == BATTLE_FORTRESS  ? "a fortress"
                                      : "a structure";
}

/* ===== Cards ===== */

static const char *const skill_keys[] = {"name", "x", "all", "y",       "n",
                                         "c",    "s", "s2",  "trigger", NULL};
static const char *const card_keys[] = {"name",  "type",   "attack", "health",
                                        "delay", "skills", NULL};

/* Decodes the options "y" (a faction), "n", "c" and "trigger" of skill `v` into *out,
 * each refused where the skill's rule does not take it. */
static void decode_options(struct sk_jdec *d, const json_t *v,
                           const struct battle_rules_skill_row *rule, struct battle_skill_spec *out)
{
    static const struct {
        const char *key;
        unsigned opt;
    } opts[] = {{"y", BATTLE_OPT_Y},
                {"n", BATTLE_OPT_N},
                {"c", BATTLE_OPT_C},
                {"trigger", BATTLE_OPT_TRIGGER}};
    const json_t *o;
    long long n = 0, c = 0;

    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
        if (json_object_get(v, opts[i].key) && !(rule->opts & opts[i].opt))
            sk_jdec_bad_at(d, opts[i].key, "skill '%s' takes no '%s'", rule->name, opts[i].key);
    if (!(rule->opts & BATTLE_OPT_Y) || !(o = json_object_get(v, "y"))) {
        /* absent or already refused */
    } else if (!json_is_string(o) ||
               (out->y = battle_cards_faction_parse(json_string_value(o))) < 0) {
        out->y = 0;
        sk_jdec_bad_at(d, "y",
                       "'y' must be a faction: imperial, raider, bloodthirsty, xeno, righteous "
                       "or progenitor");
    }
    if ((rule->opts & BATTLE_OPT_N) && sk_jdec_get_int(d, v, "n", 1, BATTLE_SKILL_N_MAX, &n) > 0)
        out->n = (int)n;
    if ((rule->opts & BATTLE_OPT_C) && sk_jdec_get_int(d, v, "c", 1, BATTLE_SKILL_C_MAX, &c) > 0)
        out->c = (int)c;
    if (!(rule->opts & BATTLE_OPT_TRIGGER) || !(o = json_object_get(v, "trigger"))) {
        /* absent or already refused */
    } else if (!json_is_string(o) ||
               (out->trigger = battle_cards_trigger_parse(json_string_value(o))) < 0) {
        out->trigger = 0;
        sk_jdec_bad_at(d, "trigger", "'trigger' must be play, attacked or death");
    }
}

/* Decodes the skill arguments "s" and "s2" (Enhance, Evolve) of skill `id` into *out as the
 * game's skills (1 + the game skill), and judges them (battle_tu_skill_args). */
static void decode_args(struct sk_jdec *d, const json_t *v, enum battle_skill id,
                        struct battle_skill_spec *out)
{
    static const char *const keys[] = {"s", "s2"};
    int *dst[] = {&out->s, &out->s2};
    const char *why;
    int bad = 0;

    for (int i = 0; i < 2; i++) {
        const json_t *o = json_object_get(v, keys[i]);
        int g;
        if (!o)
            continue;
        if (!json_is_string(o) || (g = battle_tu_skill_parse(json_string_value(o))) < 0) {
            sk_jdec_bad_at(d, keys[i], "'%s' must name one of the game's skills", keys[i]);
            bad = 1;
            continue;
        }
        *dst[i] = g + 1;
    }
    if (bad || (why = battle_tu_skill_args(id, out->s, out->s2)) == NULL)
        return;
    /* The argument at fault: "s" when missing or taken by no rule, else "s2". */
    sk_jdec_bad_at(d, !out->s || (id != BATTLE_SKILL_EVOLVE && !out->s2) ? "s" : "s2",
                   "skill '%s' %s", battle_rules_skill_name(id), why);
}

/* Decodes skill `v` into *out for a card of `type` (-1 when the type is unknown). Returns
 * 1 when valid. */
static int decode_skill(struct sk_jdec *d, const json_t *v, int type, struct battle_skill_spec *out)
{
    const struct battle_rules_skill_row *rule;
    const json_t *name;
    int errs_before = d->n_err;
    int id;
    long long x = 0;
    int all = 0;

    if (!json_is_object(v)) {
        sk_jdec_bad(d, "a skill must be an object {\"name\", \"x\", \"all\"}");
        return 0;
    }
    sk_jdec_check_keys(d, v, skill_keys);
    name = json_object_get(v, "name");
    if (!name) {
        sk_jdec_bad_at(d, "name", "'name' is required");
        return 0;
    }
    if (!json_is_string(name) || (id = battle_rules_skill_parse(json_string_value(name))) < 0) {
        if (json_is_string(name))
            sk_jdec_bad_at(d, "name", "unknown skill '%s'", json_string_value(name));
        else
            sk_jdec_bad_at(d, "name", "'name' must be a string");
        /* "x" and "all" cannot be judged without the skill, but their types can. */
        sk_jdec_get_int(d, v, "x", 1, BATTLE_STAT_MAX, &x);
        sk_jdec_get_bool(d, v, "all", &all);
        return 0;
    }
    rule = battle_rules_skill(id);
    if ((rule->opts & BATTLE_OPT_X)) {
        if (sk_jdec_get_int(d, v, "x", 1, battle_rules_skill_x_max(id), &x) == 0)
            sk_jdec_bad_at(d, "x", "'x' is required for skill '%s'", rule->name);
    } else if (json_object_get(v, "x")) {
        sk_jdec_bad_at(d, "x", "skill '%s' takes no 'x'", rule->name);
    }
    if (json_object_get(v, "all")) {
        if (!(rule->opts & BATTLE_OPT_ALL))
            sk_jdec_bad_at(d, "all", "skill '%s' cannot take 'all'", rule->name);
        else
            sk_jdec_get_bool(d, v, "all", &all);
    }
    memset(out, 0, sizeof(*out));
    decode_options(d, v, rule, out);
    decode_args(d, v, (enum battle_skill)id, out);
    if (id == BATTLE_SKILL_SUMMON)
        sk_jdec_bad_at(d, "name",
                       "skill 'summon' brings one of the game's cards: it is for the game's "
                       "cards (SKIRMISH_CARDS_DIR), not inline ones");
    if (type >= 0 && !(rule->types & (1u << type)))
        sk_jdec_bad_at(d, "name", "skill '%s' is only for %s cards", rule->name, rule->types_text);
    if (d->n_err > errs_before)
        return 0;
    out->id = (enum battle_skill)id;
    out->x = (int)x;
    out->all = all;
    out->game = battle_tu_skill_of_engine(out->id);
    return 1;
}

int battle_cards_decode_skill(struct sk_jdec *d, const json_t *v, int type,
                              struct battle_skill_spec *out)
{
    return decode_skill(d, v, type, out);
}

/* Decodes the optional "skills" array `skills` (its pointer already pushed) of a card of
 * `type` (-1 when unknown) into card->skills; a skill named twice is an error. */
static void decode_skills(struct sk_jdec *d, const json_t *skills, int type,
                          struct battle_card_spec *card)
{
    size_t i;
    json_t *s;

    if (!skills || json_is_null(skills))
        return;
    if (!json_is_array(skills)) {
        sk_jdec_bad(d, "'skills' must be an array");
        return;
    }
    if (json_array_size(skills) > BATTLE_CARD_SKILLS_MAX) {
        sk_jdec_bad(d, "a card has at most %d skills, not %zu", BATTLE_CARD_SKILLS_MAX,
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
                sk_jdec_bad_at(d, "name", "skill '%s' appears twice on the card",
                               battle_rules_skill_name(sk.id));
            else
                card->skills[card->n_skills++] = sk;
        }
        sk_jptr_pop(d->ptr);
    }
}

/* Decodes a card definition into *out; returns 1 when valid. */
int battle_cards_decode_one(struct sk_jdec *d, const json_t *v, struct battle_card_spec *out)
{
    static const char *const types[] = {"commander", "fortress", "assault", "structure"};
    struct battle_card_spec card;
    const json_t *name;
    int errs_before = d->n_err;
    int type = -1;
    long long n = 0;

    memset(&card, 0, sizeof(card));
    if (!json_is_object(v)) {
        sk_jdec_bad(d, "a card must be an object");
        return 0;
    }
    sk_jdec_check_keys(d, v, card_keys);

    name = json_object_get(v, "name");
    sk_jptr_push_key(d->ptr, "name");
    if (!name) {
        sk_jdec_bad(d, "'name' is required");
    } else {
        const char *s = sk_jdec_check_name(d, name, "'name'", BATTLE_NAME_MAX);
        if (s)
            memcpy(card.name, s, strlen(s) + 1);
    }
    sk_jptr_pop(d->ptr);

    if (sk_jdec_get_enum(d, v, "type", types, BATTLE_CARD_TYPE__COUNT, &type) == 0)
        sk_jdec_bad_at(d, "type", "'type' is required");
    card.type = type < 0 ? BATTLE_ASSAULT : (enum battle_card_type)type;

    if (type == BATTLE_ASSAULT) {
        if (sk_jdec_need_int(d, v, "attack", 0, BATTLE_STAT_MAX, &n) > 0)
            card.attack = (int)n;
    } else if (type >= 0 && json_object_get(v, "attack")) {
        sk_jdec_bad_at(d, "attack", "'attack' is only for assault cards");
    } else if (type < 0) {
        sk_jdec_get_int(d, v, "attack", 0, BATTLE_STAT_MAX, &n);
    }

    if (sk_jdec_need_int(d, v, "health", 1, BATTLE_STAT_MAX, &n) > 0)
        card.health = (int)n;

    if (type == BATTLE_COMMANDER) {
        if (json_object_get(v, "delay"))
            sk_jdec_bad_at(d, "delay", "'delay' is not for commander cards");
    } else if (sk_jdec_get_int(d, v, "delay", 0, BATTLE_DELAY_MAX, &n) > 0) {
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

enum sk_err battle_cards_decode(const json_t *v, struct sk_jptr *ptr, struct sk_verr_list *errs,
                                struct battle_card_spec *out)
{
    struct sk_jdec d = {ptr, errs, 0};
    return battle_cards_decode_one(&d, v, out) ? SK_OK : SK_EINVAL;
}

/* Adds a skill's game options (imported cards) to its object `sk`; 0 on success. */
static int put_game_options(json_t *sk, const struct battle_skill_spec *s)
{
    if (s->id >= BATTLE_SKILL__COUNT && s->x && sk_jdec_put(sk, "x", json_integer(s->x)))
        return 1;
    if (s->y && sk_jdec_put(sk, "y", json_string(battle_tu_faction_name(s->y))))
        return 1;
    if (s->n && sk_jdec_put(sk, "n", json_integer(s->n)))
        return 1;
    if (s->c && sk_jdec_put(sk, "c", json_integer(s->c)))
        return 1;
    if (s->s && sk_jdec_put(sk, "s", json_string(battle_tu_skill_name(s->s - 1))))
        return 1;
    if (s->s2 && sk_jdec_put(sk, "s2", json_string(battle_tu_skill_name(s->s2 - 1))))
        return 1;
    if (s->trigger && sk_jdec_put(sk, "trigger", json_string(battle_tu_trigger_name(s->trigger))))
        return 1;
    if (s->card_id && sk_jdec_put(sk, "card_id", json_integer(s->card_id)))
        return 1;
    return 0;
}

/* Adds the game's facts of an imported card (id > 0) to its object. */
static int put_game_card(json_t *obj, const struct battle_card_spec *card)
{
    return sk_jdec_put(obj, "id", json_integer(card->id)) ||
           sk_jdec_put(obj, "level", json_integer(card->level)) ||
           sk_jdec_put(obj, "faction", json_string(battle_tu_faction_name(card->faction))) ||
           sk_jdec_put(obj, "rarity", json_string(battle_tu_rarity_name(card->rarity))) ||
           sk_jdec_put(obj, "set", json_integer(card->set));
}

json_t *battle_cards_to_json(const struct battle_card_spec *card)
{
    json_t *obj = NULL;
    json_t *skills = NULL;
    json_t *out = NULL;

    obj = json_object();
    skills = json_array();
    if (!obj || !skills)
        goto out;
    if (sk_jdec_put(obj, "name", json_string(card->name)) ||
        sk_jdec_put(obj, "type",
                    json_string(card->dominion ? "dominion" : battle_cards_type_name(card->type))))
        goto out;
    if (card->id > 0 && put_game_card(obj, card))
        goto out;
    if (card->type == BATTLE_ASSAULT && sk_jdec_put(obj, "attack", json_integer(card->attack)))
        goto out;
    if (sk_jdec_put(obj, "health", json_integer(card->health)))
        goto out;
    if (card->type != BATTLE_COMMANDER && sk_jdec_put(obj, "delay", json_integer(card->delay)))
        goto out;
    for (int i = 0; i < card->n_skills; i++) {
        const struct battle_skill_spec *s = &card->skills[i];
        json_t *sk = json_object();
        if (!sk || json_array_append_new(skills, sk))
            goto out;
        if (s->id >= BATTLE_SKILL__COUNT) {
            /* A game skill the engine does not simulate: named as players name it. */
            if (sk_jdec_put(sk, "name", json_string(battle_tu_skill_name(s->game))))
                goto out;
        } else if (sk_jdec_put(sk, "name", json_string(battle_rules_skill_name(s->id))) ||
                   ((battle_rules_skill_opts(s->id) & BATTLE_OPT_X) &&
                    sk_jdec_put(sk, "x", json_integer(s->x)))) {
            goto out;
        }
        if (s->all && sk_jdec_put(sk, "all", json_true()))
            goto out;
        if (put_game_options(sk, s))
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
