/* SPDX-License-Identifier: MIT */
/* The battle job codec (see battle_codec.h): JSON -> struct battle_spec with every check
 * the engine relies on, and cards back to JSON. Decoding never stops at the first problem:
 * each part is checked as far as its own shape allows, so one call reports them all. */
#include "battle_codec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "battle_bge.h"
#include "battle_cards.h"
#include "battle_catalog.h"
#include "battle_deck.h"
#include "battle_plan.h"
#include "battle_rules.h"
#include "battle_tu.h"
#include "sk_jdec.h"
#include "sk_mem.h"
#include "sk_suggest.h"

#include "sk_banned.h"

/* ===== Jobs ===== */

/* An inline card definition: its name is kept even when the definition is invalid, so a
 * reference to it is not also reported as an unknown card. */
struct inline_card {
    int named; /* the name was readable */
    int valid;
    struct battle_card_spec card;
};

struct job_dec {
    struct sk_jdec d;
    const struct battle_catalog *catalog;
    struct inline_card *inl; /* one entry per element of "cards" */
    int n_inl;
    struct battle_spec *spec; /* spec->cards has BATTLE_CARDS_MAX entries */
    /* A mission's or raid's battleground effects per side (battle_catalog_enemy_effect),
     * which decode_effects adds after the job's own, as the peer adds them. */
    int n_rec_fx[2];
    struct battle_skill_spec rec_fx[2][BATTLE_ENEMY_EFFECTS_MAX];
};

/* Writes into `out` the known card name closest to the unknown `name` (the job's inline
 * cards first, then the catalog's, as battle_catalog_suggest judges them), or "" when none
 * looks like a typo of it: a misspelt name gets a suggestion. */
static void suggest_card(const struct job_dec *j, const char *name, char *out, size_t outlen)
{
    struct sk_suggest s;

    sk_suggest_init(&s, name);
    for (int i = 0; i < j->n_inl; i++)
        if (j->inl[i].named && j->inl[i].valid)
            sk_suggest_add(&s, j->inl[i].card.name);
    if (sk_suggest_best(&s))
        snprintf(out, outlen, "%s", sk_suggest_best(&s));
    else if (j->catalog)
        battle_catalog_suggest(j->catalog, name, out, outlen);
    else if (outlen)
        out[0] = '\0';
}

static int add_card(struct job_dec *j, const struct battle_card_spec *card);

/* Resolves card `name` (the JSON value at the current position) to an index in
 * spec->cards, adding the card on first use. Returns the index, or -1 after reporting a
 * problem (or when the name is an invalid inline card, reported at its definition). */
static int resolve(struct job_dec *j, const json_t *v)
{
    const struct battle_card_spec *card = NULL;
    const char *name = sk_jdec_check_name(&j->d, v, "a card name", BATTLE_NAME_MAX);

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
        card = battle_catalog_find_loose(j->catalog, name);
    if (!card) {
        char near[BATTLE_NAME_MAX + 1];
        suggest_card(j, name, near, sizeof(near));
        if (near[0])
            sk_jdec_bad(&j->d, "unknown card \"%s\"; did you mean \"%s\"?", name, near);
        else
            sk_jdec_bad(&j->d, "unknown card \"%s\"", name);
        return -1;
    }
    return add_card(j, card);
}

/* The index of `card` in spec->cards, adding it on first use; -1 after reporting a problem
 * at the current position. */
static int add_card(struct job_dec *j, const struct battle_card_spec *card)
{
    struct battle_spec *spec = j->spec;
    int idx;

    for (int i = 0; i < spec->n_cards; i++)
        if (strcmp(spec->cards[i].name, card->name) == 0)
            return i;
    {
        /* The game's cards keep skills and options the engine does not play yet: such a
         * card is refused rather than played without them. */
        char why[160];
        if (battle_tu_unsupported(card, why, sizeof(why))) {
            sk_jdec_bad(&j->d, "card \"%s\": %s", card->name, why);
            return -1;
        }
    }
    /* Beside a mission's or raid's levels, two commanders, 20 fortresses and two 50-card
     * decks name at most 122 distinct cards; state entries must come from those. */
    if (spec->n_cards >= BATTLE_CARDS_MAX) {
        sk_jdec_bad(&j->d, "a job may use at most %d distinct cards", BATTLE_CARDS_MAX);
        return -1;
    }
    spec->cards[spec->n_cards] = *card;
    idx = spec->n_cards++;
    /* The cards its Summons bring join the job's table too (a card that summons itself
     * finds itself there). */
    for (int k = 0; k < spec->cards[idx].n_skills; k++) {
        struct battle_skill_spec *s = &spec->cards[idx].skills[k];
        const struct battle_card_spec *brought;
        int b;
        if (s->id != BATTLE_SKILL_SUMMON)
            continue;
        brought = j->catalog ? battle_catalog_find_id(j->catalog, s->card_id) : NULL;
        if (!brought) {
            sk_jdec_bad(&j->d, "card \"%s\": it summons card id %d, which the catalog lacks",
                        card->name, s->card_id);
            return -1;
        }
        b = add_card(j, brought);
        if (b < 0)
            return -1;
        spec->cards[idx].skills[k].card = b;
    }
    return idx;
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
        sk_jdec_bad(&j->d, "card \"%s\" is %s card, not %s", c->name, battle_cards_a_type(c->type),
                    want);
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
        sk_jdec_bad(&j->d, "'cards' must be an array of card definitions");
    } else if (json_array_size(cards) > BATTLE_INLINE_CARDS_MAX) {
        sk_jdec_bad(&j->d, "a job may define at most %d cards, not %zu", BATTLE_INLINE_CARDS_MAX,
                    json_array_size(cards));
    } else {
        json_array_foreach(cards, i, v)
        {
            struct inline_card *ic = &j->inl[j->n_inl++];
            const json_t *name = json_is_object(v) ? json_object_get(v, "name") : NULL;
            sk_jptr_push_index(j->d.ptr, i);
            ic->valid = battle_cards_decode_one(&j->d, v, &ic->card);
            if (!ic->valid && json_is_string(name) && json_string_length(name) <= BATTLE_NAME_MAX &&
                strlen(json_string_value(name)) == json_string_length(name)) {
                memcpy(ic->card.name, json_string_value(name), json_string_length(name) + 1);
                ic->named = 1;
            }
            ic->named |= ic->valid;
            for (int k = 0; ic->named && k < j->n_inl - 1; k++) {
                if (j->inl[k].named && strcmp(j->inl[k].card.name, ic->card.name) == 0) {
                    sk_jdec_bad_at(&j->d, "name", "card \"%s\" is defined twice", ic->card.name);
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
        sk_jdec_bad(&j->d, "'deck' must be an array of {\"card\", \"count\"}");
        return;
    }
    json_array_foreach(deck, i, e)
    {
        long long count = 1;
        int idx = -1;
        sk_jptr_push_index(j->d.ptr, i);
        if (!json_is_object(e)) {
            sk_jdec_bad(&j->d, "a deck entry must be an object {\"card\", \"count\"}");
        } else {
            const json_t *card = json_object_get(e, "card");
            sk_jdec_check_keys(&j->d, e, deck_entry_keys);
            sk_jptr_push_key(j->d.ptr, "card");
            if (!card)
                sk_jdec_bad(&j->d, "'card' is required");
            else
                idx = resolve_typed(j, card, BATTLE_T_ASSAULT | BATTLE_T_STRUCTURE,
                                    "an assault or structure");
            sk_jptr_pop(j->d.ptr);
            if (sk_jdec_get_int(&j->d, e, "count", 1, BATTLE_DECK_MAX, &count) < 0)
                count = 0;
        }
        for (long long c = 0; c < count; c++, total++)
            if (idx >= 0 && total < BATTLE_DECK_MAX)
                side->deck[side->n_deck++] = idx;
        sk_jptr_pop(j->d.ptr);
    }
    if (total > BATTLE_DECK_MAX)
        sk_jdec_bad(&j->d, "a deck holds at most %d cards, not %lld", BATTLE_DECK_MAX, total);
}

/* ===== Decks as players write them ===== */

/* The card a deck string entry names: the job's inline cards by exact name, then the
 * catalog as players write names, or by id for "[1234]". NULL after reporting it (with a
 * "did you mean" from the catalog when a name is close). */
/* The card entry `e` names, or NULL, without a report. */
static const struct battle_card_spec *lookup_quiet(const struct job_dec *j,
                                                   const struct battle_deck_entry *e)
{
    if (e->id)
        return j->catalog ? battle_catalog_find_id(j->catalog, e->id) : NULL;
    for (int i = 0; i < j->n_inl; i++)
        if (j->inl[i].named && j->inl[i].valid && strcmp(j->inl[i].card.name, e->name) == 0)
            return &j->inl[i].card;
    return j->catalog ? battle_catalog_find_loose(j->catalog, e->name) : NULL;
}

static const struct battle_card_spec *lookup_entry(struct job_dec *j,
                                                   const struct battle_deck_entry *e, int k)
{
    const struct battle_card_spec *c = lookup_quiet(j, e);
    char hint[BATTLE_NAME_MAX + 1] = "";

    if (c)
        return c;
    if (e->id) {
        sk_jdec_bad(&j->d, "entry %d: no card has id %d", k, e->id);
        return NULL;
    }
    if (j->catalog)
        battle_catalog_suggest(j->catalog, e->name, hint, sizeof(hint));
    if (hint[0])
        sk_jdec_bad(&j->d, "entry %d: unknown card \"%s\" (did you mean \"%s\"?)", k, e->name,
                    hint);
    else
        sk_jdec_bad(&j->d, "entry %d: unknown card \"%s\"", k, e->name);
    return NULL;
}

/* Places `card` (count times) on `side` as the game does with a deck list: the first
 * commander commands, fortresses and dominions stand in the fortress slots, the rest is the
 * deck. `k` numbers the entry (hash cards count from 1 too). Returns 0 after a report. */
static int place(struct job_dec *j, const struct battle_card_spec *card, int count, int k,
                 struct battle_side_spec *side, int *have_commander, int *deck_total)
{
    int idx;

    if (card->type == BATTLE_COMMANDER) {
        if (*have_commander || count > 1) {
            sk_jdec_bad(&j->d, "entry %d: \"%s\" is a second commander: a deck has one", k,
                        card->name);
            return 0;
        }
        idx = add_card(j, card);
        if (idx < 0)
            return 0;
        side->commander = idx;
        *have_commander = 1;
        return 1;
    }
    if (card->type == BATTLE_FORTRESS) {
        if (side->n_fortresses + count > BATTLE_FORTRESS_MAX) {
            sk_jdec_bad(&j->d, "entry %d: a side has at most %d fortresses and dominions", k,
                        BATTLE_FORTRESS_MAX);
            return 0;
        }
        if (card->dominion) {
            /* The game holds one dominion per deck and puts it into play before the
             * fortresses: it takes the first slot. */
            for (int f = 0; f < side->n_fortresses; f++)
                if (j->spec->cards[side->fortresses[f]].dominion || count > 1) {
                    sk_jdec_bad(&j->d, "entry %d: \"%s\" is a second dominion: a deck has one", k,
                                card->name);
                    return 0;
                }
            idx = add_card(j, card);
            if (idx < 0)
                return 0;
            for (int f = side->n_fortresses; f > 0; f--)
                side->fortresses[f] = side->fortresses[f - 1];
            side->fortresses[0] = idx;
            side->n_fortresses++;
            return 1;
        }
        idx = add_card(j, card);
        for (int c = 0; idx >= 0 && c < count; c++)
            side->fortresses[side->n_fortresses++] = idx;
        return idx >= 0;
    }
    *deck_total += count;
    idx = add_card(j, card);
    for (int c = 0; idx >= 0 && c < count && side->n_deck < BATTLE_DECK_MAX; c++)
        side->deck[side->n_deck++] = idx;
    return idx >= 0;
}

/* Decodes deck string or hash `text` (the value at the current position) into `side`. */
/* The named deck (customdecks.txt) closest to `text`, for a deck string that is neither a
 * deck nor a named deck; NULL when none looks like a typo of it. */
static const char *suggest_named(const struct job_dec *j, const char *text)
{
    const struct battle_named_list *decks =
        j->catalog ? &battle_catalog_named(j->catalog)->decks : NULL;
    struct sk_suggest s;

    if (!decks || !decks->n || strchr(text, ','))
        return NULL;
    sk_suggest_init(&s, text);
    for (size_t i = 0; i < decks->n; i++)
        sk_suggest_add(&s, decks->items[i].name);
    return sk_suggest_best(&s);
}

static void decode_deck_string(struct job_dec *j, const char *text, struct battle_side_spec *side);

/* A deck string, a deck hash or the name of a named deck (customdecks.txt) that stands
 * for one deck; a named list of decks is the defender's alone (battle_codec_decode_mix
 * expands it before a side is decoded). */
static void decode_deck_text(struct job_dec *j, const char *text, struct battle_side_spec *side)
{
    const struct battle_named *named = j->catalog ? battle_catalog_named(j->catalog) : NULL;
    struct battle_named_part parts[BATTLE_DEFENDERS_MAX];
    char why[200];
    int n;

    if (!named || !battle_named_find(&named->decks, text)) {
        decode_deck_string(j, text, side);
        return;
    }
    n = battle_named_expand(named, text, parts, BATTLE_DEFENDERS_MAX, why, sizeof(why));
    if (n < 0)
        sk_jdec_bad(&j->d, "named deck \"%s\": %s", text, why);
    else if (n > 1)
        sk_jdec_bad(&j->d,
                    "named deck \"%s\" is a list of %d decks: only \"defender\" may be a list",
                    text, n);
    else
        decode_deck_string(j, parts[0].text, side);
    if (n > 0)
        battle_named_parts_release(parts, n);
}

static void decode_deck_string(struct job_dec *j, const char *text, struct battle_side_spec *side)
{
    struct battle_deck_entry entries[BATTLE_DECK_ENTRIES_MAX];
    int ids[BATTLE_DECK_IDS_MAX];
    int n = 0, have_commander = 0, deck_total = 0, ok = 1;
    char why[200];

    if (battle_deck_is_hash(text)) {
        if (!battle_deck_hash_decode(text, ids, BATTLE_DECK_IDS_MAX, &n, why, sizeof(why))) {
            sk_jdec_bad(&j->d, "malformed deck hash: %s", why);
            return;
        }
        for (int k = 0; k < n; k++) {
            const struct battle_card_spec *c =
                j->catalog ? battle_catalog_find_id(j->catalog, ids[k]) : NULL;
            if (!c) {
                sk_jdec_bad(&j->d, "deck hash card %d: no card has id %d", k + 1, ids[k]);
                ok = 0;
            } else {
                ok &= place(j, c, 1, k + 1, side, &have_commander, &deck_total);
            }
        }
    } else {
        if (!battle_deck_split(text, entries, &n, why, sizeof(why))) {
            sk_jdec_bad(&j->d, "malformed deck string: %s", why);
            return;
        }
        const char *deck_hint = n == 1 ? suggest_named(j, text) : NULL;
        if (deck_hint && !lookup_quiet(j, &entries[0])) {
            /* one word that is no card: more likely a named deck misspelt */
            sk_jdec_bad(&j->d,
                        "unknown card or named deck \"%s\" (did you mean the named deck "
                        "\"%s\"?)",
                        text, deck_hint);
            return;
        }
        for (int k = 0; k < n; k++) {
            const struct battle_card_spec *c = lookup_entry(j, &entries[k], k + 1);
            if (!c)
                ok = 0;
            else
                ok &= place(j, c, entries[k].count, k + 1, side, &have_commander, &deck_total);
        }
    }
    if (ok && !have_commander)
        sk_jdec_bad(&j->d, "the deck names no commander");
    if (deck_total > BATTLE_DECK_MAX)
        sk_jdec_bad(&j->d, "a deck holds at most %d cards, not %d", BATTLE_DECK_MAX, deck_total);
}

static const char *const text_side_keys[] = {"deck", "play", NULL};

/* ===== Missions and raids ===== */

static const char *const enemy_side_keys[] = {"mission", "raid", "level", "play", NULL};

/* The `kind` record `who` (the value at the current position: a name or an id) names, with
 * *name_level the level a "Name-N" says (0 = none); NULL after reporting it. */
static const struct battle_enemy *find_enemy(struct job_dec *j, const json_t *who,
                                             enum battle_enemy_kind kind, int *name_level)
{
    const char *key = battle_enemy_kind_name(kind);
    char why[300];

    /* The catalog parses its missions and raids now if no job has named one before: a file
     * that does not parse refuses the job with the reason, not as an unknown name. */
    if (j->catalog && battle_catalog_enemies_load(j->catalog, why, sizeof(why))) {
        sk_jdec_bad(&j->d, "the game's missions and raids cannot be read: %s", why);
        return NULL;
    }
    if (json_is_integer(who)) {
        json_int_t id = json_integer_value(who);
        const struct battle_enemy *e = j->catalog && id > 0 && id <= 1000000000
                                           ? battle_catalog_find_enemy_id(j->catalog, kind, (int)id)
                                           : NULL;
        if (!e)
            sk_jdec_bad(&j->d, "no %s has id %lld", key, (long long)id);
        return e;
    }
    if (json_is_string(who)) {
        const char *name = json_string_value(who);
        const struct battle_enemy *e =
            j->catalog ? battle_catalog_find_enemy(j->catalog, kind, name, name_level) : NULL;
        if (!e) {
            char near[BATTLE_NAME_MAX + 1] = "";
            if (j->catalog)
                battle_catalog_suggest_enemy(j->catalog, kind, name, near, sizeof(near));
            if (near[0])
                sk_jdec_bad(&j->d, "unknown %s \"%s\"; did you mean \"%s\"?", key, name, near);
            else if (!j->catalog || battle_catalog_enemy_count(j->catalog) == 0)
                sk_jdec_bad(&j->d,
                            "unknown %s \"%s\": missions and raids come with the game's files "
                            "(SKIRMISH_CARDS_DIR)",
                            key, name);
            else
                sk_jdec_bad(&j->d, "unknown %s \"%s\"", key, name);
        }
        return e;
    }
    sk_jdec_bad(&j->d, "'%s' must be the %s's name or id", key, key);
    return NULL;
}

/* Adds the levels above card `idx` of the job (a game's card) to the job, each linked to
 * the next in spec->up, for a side's level-ups. Returns 0 after reporting a problem. */
static int add_levels(struct job_dec *j, int idx)
{
    while (idx >= 0 && !j->spec->up[idx]) {
        const struct battle_card_spec *c = &j->spec->cards[idx];
        const struct battle_card_spec *next;
        int nidx;
        if (c->level < 1 || c->level >= c->n_levels || c->n_levels > BATTLE_LEVELS_MAX)
            return 1;
        next = battle_catalog_find_id(j->catalog, c->level_ids[c->level]);
        if (!next) /* battle_catalog_enemy_unsupported checked every level */
            return 1;
        nidx = add_card(j, next);
        if (nidx < 0)
            return 0;
        j->spec->up[idx] = nidx + 1;
        idx = nidx;
    }
    return 1;
}

/* The pools of record `e` at `level` into side->pools, their cards added to the job. */
static void add_pools(struct job_dec *j, const struct battle_enemy *e, int level,
                      struct battle_side_spec *side)
{
    for (int k = 0; k < e->n_pools && k < BATTLE_POOLS_MAX; k++) {
        const struct battle_enemy_pool *pl = &e->pools[k];
        struct battle_pool_spec *ps = &side->pools[side->n_pools++];
        ps->fort = pl->fort;
        ps->amount = pl->amount;
        ps->replicates = pl->replicates;
        for (int i = 0; i < pl->n && i < BATTLE_POOL_CARDS; i++) {
            const struct battle_card_spec *c =
                battle_catalog_enemy_card(j->catalog, e, level, pl->cards[i]);
            int idx = c ? add_card(j, c) : -1;
            if (idx >= 0)
                ps->cards[ps->n++] = idx;
        }
    }
}

/* What record `e` at `level` draws anew each game into side `s` (its pools, its level-ups
 * with every card they can reach), and its battleground effects at that level into
 * j->rec_fx[s]. battle_catalog_enemy_unsupported has judged all of them. */
static void add_draw(struct job_dec *j, const struct battle_enemy *e, int level, int s,
                     struct battle_side_spec *side)
{
    char why[300];

    add_pools(j, e, level, side);
    side->upgrades = battle_catalog_enemy_upgrades(j->catalog, e, level);
    /* Each card a level-up may reach joins the job, with its next level (spec->up). */
    if (side->upgrades) {
        int ok = add_levels(j, side->commander);
        for (int k = 0; ok && k < side->n_fortresses; k++)
            ok = add_levels(j, side->fortresses[k]);
        for (int k = 0; ok && k < side->n_deck; k++)
            ok = add_levels(j, side->deck[k]);
        for (int k = 0; ok && k < side->n_pools; k++)
            for (int i = 0; ok && i < side->pools[k].n; i++)
                ok = add_levels(j, side->pools[k].cards[i]);
    }
    j->n_rec_fx[s] = 0;
    for (int k = 0; k < e->n_effects; k++) {
        struct battle_skill_spec sk;
        if (battle_catalog_enemy_effect(&e->effects[k], level, &sk, why, sizeof(why)))
            j->rec_fx[s][j->n_rec_fx[s]++] = sk;
    }
}

/* Decodes {"mission" | "raid": name or id, "level", "play"} (the object at the current
 * position) into side `s`: the game's enemy deck, its pools and level-ups drawn anew each
 * game and its battleground effects scaled to the level (j->rec_fx), refused with the
 * reason when the engine cannot play it as the game does. */
static void decode_enemy_side(struct job_dec *j, const json_t *v, int s,
                              struct battle_side_spec *side)
{
    const int is_raid = json_object_get(v, "mission") == NULL;
    const enum battle_enemy_kind kind = is_raid ? BATTLE_ENEMY_RAID : BATTLE_ENEMY_MISSION;
    const char *key = battle_enemy_kind_name(kind);
    const json_t *who = json_object_get(v, key);
    const struct battle_enemy *e = NULL;
    const struct battle_card_spec *cmd = NULL;
    const struct battle_card_spec *cards[BATTLE_ENEMY_CARDS_MAX + BATTLE_ENEMY_FORTS_MAX];
    long long level = 0;
    int name_level = 0, n = 0, n_forts = 0, idx;
    char why[300];

    sk_jdec_check_keys(&j->d, v, enemy_side_keys);
    if (json_object_get(v, "mission") && json_object_get(v, "raid")) {
        sk_jdec_bad(&j->d, "name a mission or a raid, not both");
        return;
    }
    if (sk_jdec_get_int(&j->d, v, "level", 1, BATTLE_ENEMY_LEVELS_MAX, &level) < 0)
        return;
    sk_jptr_push_key(j->d.ptr, key);
    e = find_enemy(j, who, kind, &name_level);
    sk_jptr_pop(j->d.ptr);
    if (!e)
        return;
    if (name_level && level && name_level != level) {
        sk_jdec_bad(&j->d, "the name says level %d and 'level' says %lld", name_level, level);
        return;
    }
    if (!level)
        level = name_level ? name_level : e->levels;
    if (battle_catalog_enemy_unsupported(j->catalog, e, (int)level, why, sizeof(why))) {
        sk_jdec_bad(&j->d, "%s \"%s\" (id %d) cannot be played: %s", key, e->name, e->id, why);
        return;
    }
    if (!battle_catalog_enemy_cards(j->catalog, e, (int)level, &cmd, cards,
                                    (int)(sizeof(cards) / sizeof(cards[0])), &n, &n_forts))
        return; /* unsupported() said no card is missing */
    if (cmd->type != BATTLE_COMMANDER) {
        sk_jdec_bad(&j->d, "%s \"%s\": its commander \"%s\" is %s card", key, e->name, cmd->name,
                    battle_cards_a_type(cmd->type));
        return;
    }
    idx = add_card(j, cmd);
    if (idx >= 0)
        side->commander = idx;
    for (int k = 0; k < n; k++) {
        /* A record may put a structure card where a fortress goes (18 raids do): it is in
         * play from the start, as the peer plays it; a commander card in its deck (two
         * missions) is drawn and not played. */
        unsigned want = k < n_forts ? BATTLE_T_FORTRESS | BATTLE_T_STRUCTURE
                                    : BATTLE_T_ASSAULT | BATTLE_T_STRUCTURE | BATTLE_T_COMMANDER;
        if (!(want & (1u << cards[k]->type))) {
            sk_jdec_bad(&j->d, "%s \"%s\": its %s \"%s\" is %s card", key, e->name,
                        k < n_forts ? "fortress" : "deck card", cards[k]->name,
                        battle_cards_a_type(cards[k]->type));
            continue;
        }
        idx = add_card(j, cards[k]);
        if (idx < 0)
            continue;
        if (k < n_forts)
            side->fortresses[side->n_fortresses++] = idx;
        else
            side->deck[side->n_deck++] = idx;
    }
    add_draw(j, e, (int)level, s, side);
}

/* The object form's `fortresses` (`f`, may be NULL) onto `side`: fortress cards, or
 * structure cards (as 18 of the game's raids put one and the peer's `yf`/`ef` take it: it
 * starts in play), at most one dominion. Problems are reported under the current pointer. */
static void decode_fortresses(struct job_dec *j, const json_t *f, struct battle_side_spec *side)
{
    size_t i;
    json_t *name;
    int dominions = 0;

    if (!f || json_is_null(f))
        return;
    if (!json_is_array(f)) {
        sk_jdec_bad(&j->d, "'fortresses' must be an array of card names");
        return;
    }
    if (json_array_size(f) > BATTLE_FORTRESS_MAX) {
        sk_jdec_bad(&j->d, "a side has at most %d fortresses, not %zu", BATTLE_FORTRESS_MAX,
                    json_array_size(f));
        return;
    }
    json_array_foreach(f, i, name)
    {
        int idx;
        sk_jptr_push_index(j->d.ptr, i);
        idx = resolve_typed(j, name, BATTLE_T_FORTRESS | BATTLE_T_STRUCTURE,
                            "a fortress or structure");
        /* The game holds one dominion per deck (as a deck string's `place`); the peer's
         * `ef` takes two and plays another game (bench/peer_fuzz.mjs seed 1207, #38). */
        if (idx >= 0 && j->spec->cards[idx].dominion && dominions++) {
            sk_jdec_bad(&j->d, "\"%s\" is a second dominion: a side has one",
                        j->spec->cards[idx].name);
            idx = -1;
        }
        if (idx >= 0)
            side->fortresses[side->n_fortresses++] = idx;
        sk_jptr_pop(j->d.ptr);
    }
}

/* Decodes one side; returns 1 when it is valid (the state is checked against it then). A
 * side is an object with a deck list, a deck string or hash, or {"deck": string, "play"}. */
static int decode_side(struct job_dec *j, const json_t *params, const char *key,
                       struct battle_side_spec *side)
{
    static const char *const plays[] = {"random", "ordered", "exact", "flexible"};
    const json_t *v = json_object_get(params, key);
    int errs_before = j->d.n_err;
    int play = BATTLE_PLAY_RANDOM;

    sk_jptr_push_key(j->d.ptr, key);
    if (json_is_string(v)) {
        decode_deck_text(j, json_string_value(v), side);
        side->play = BATTLE_PLAY_RANDOM;
        goto out;
    }
    if (json_is_object(v) && (json_object_get(v, "mission") || json_object_get(v, "raid"))) {
        decode_enemy_side(j, v, strcmp(key, "defender") == 0, side);
        sk_jdec_get_enum(&j->d, v, "play", plays, 4, &play);
        side->play = (enum battle_play)play;
        if ((side->n_pools || side->upgrades) && play != BATTLE_PLAY_RANDOM)
            sk_jdec_bad_at(&j->d, "play",
                           "this %s draws its cards anew each game (card pools or level-ups): "
                           "it plays them at random",
                           json_object_get(v, "mission") ? "mission" : "raid");
        goto out;
    }
    if (json_is_object(v) && json_is_string(json_object_get(v, "deck"))) {
        sk_jdec_check_keys(&j->d, v, text_side_keys);
        sk_jptr_push_key(j->d.ptr, "deck");
        decode_deck_text(j, json_string_value(json_object_get(v, "deck")), side);
        sk_jptr_pop(j->d.ptr);
        sk_jdec_get_enum(&j->d, v, "play", plays, 4, &play);
        side->play = (enum battle_play)play;
        goto out;
    }
    if (v && !json_is_object(v)) {
        sk_jdec_bad(&j->d,
                    "'%s' must be an object, a deck string, a deck hash or a mission "
                    "or raid ({\"mission\": name})",
                    key);
        goto out;
    }
    if (!sk_jdec_need_object(&j->d, v, key, side_keys))
        goto out;

    sk_jptr_push_key(j->d.ptr, "commander");
    if (!json_object_get(v, "commander"))
        sk_jdec_bad(&j->d, "'commander' is required");
    else
        side->commander =
            resolve_typed(j, json_object_get(v, "commander"), BATTLE_T_COMMANDER, "a commander");
    sk_jptr_pop(j->d.ptr);

    sk_jptr_push_key(j->d.ptr, "fortresses");
    decode_fortresses(j, json_object_get(v, "fortresses"), side);
    sk_jptr_pop(j->d.ptr);

    sk_jptr_push_key(j->d.ptr, "deck");
    if (!json_object_get(v, "deck"))
        sk_jdec_bad(&j->d, "'deck' is required");
    else
        decode_deck(j, json_object_get(v, "deck"), side);
    sk_jptr_pop(j->d.ptr);

    sk_jdec_get_enum(&j->d, v, "play", plays, 4, &play);
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

/* Card `idx` in fortress slot `slot` of a state's structure row: one of the side's
 * fortresses not yet listed (bit f of *taken: side->fortresses[f] is), in any order, as
 * each game draws their order; a dominion, which the game plays before them wherever the
 * side lists it, in slot 0.
 * Marks it taken and returns idx, or reports the problem and returns -1. */
static int state_fortress(struct job_dec *j, const struct battle_side_spec *side, int slot, int idx,
                          unsigned *taken)
{
    int unlisted = -1;

    for (int f = 0; slot == 0 && f < side->n_fortresses; f++)
        if (j->spec->cards[side->fortresses[f]].dominion && idx != side->fortresses[f]) {
            sk_jdec_bad(&j->d,
                        "structure 0 must be the side's dominion \"%s\": a dominion comes first",
                        j->spec->cards[side->fortresses[f]].name);
            return -1;
        }
    for (int f = 0; f < side->n_fortresses; f++) {
        if (*taken & (1u << f))
            continue;
        if (side->fortresses[f] == idx) {
            *taken |= 1u << f;
            return idx;
        }
        if (unlisted < 0)
            unlisted = f;
    }
    sk_jdec_bad(&j->d,
                "structure %d must be one of the side's fortresses not listed before it, such "
                "as \"%s\": the side's %d fortresses come first, in any order",
                slot, j->spec->cards[side->fortresses[unlisted < 0 ? 0 : unlisted]].name,
                side->n_fortresses);
    return -1;
}

/* Decodes a unit on the field. `slot` is its position in the row; `side` is NULL when the
 * side itself is invalid (then only the unit's own shape is checked); *forts_taken: the
 * side's fortresses the row listed before `slot` (state_fortress). Returns 1 if valid. */
static int decode_unit(struct job_dec *j, const json_t *v, int is_structure, int slot,
                       const struct battle_side_spec *side, unsigned *forts_taken,
                       struct battle_unit_spec *out)
{
    const struct battle_card_spec *c = NULL;
    int errs_before = j->d.n_err;
    int alive = 1;
    long long health = 0, delay = 0;
    int idx = -1;

    if (!json_is_object(v)) {
        sk_jdec_bad(&j->d, "a unit must be an object {\"card\", \"health\", \"delay\", \"alive\"}");
        return 0;
    }
    sk_jdec_check_keys(&j->d, v, unit_keys);
    sk_jptr_push_key(j->d.ptr, "card");
    if (!json_object_get(v, "card")) {
        sk_jdec_bad(&j->d, "'card' is required");
    } else if (is_structure && side && slot < side->n_fortresses) {
        idx = resolve(j, json_object_get(v, "card"));
        if (idx >= 0)
            idx = state_fortress(j, side, slot, idx, forts_taken);
    } else if (is_structure) {
        /* Without a valid side the fortresses are unknown: accept them anywhere. */
        idx = resolve_typed(j, json_object_get(v, "card"),
                            side ? BATTLE_T_STRUCTURE : BATTLE_T_STRUCTURE | BATTLE_T_FORTRESS,
                            "a structure");
    } else {
        idx = resolve_typed(j, json_object_get(v, "card"), BATTLE_T_ASSAULT, "an assault");
    }
    sk_jptr_pop(j->d.ptr);
    if (idx >= 0)
        c = &j->spec->cards[idx];

    sk_jdec_get_bool(&j->d, v, "alive", &alive);
    if (alive) {
        sk_jdec_need_int(&j->d, v, "health", 1, c ? c->health : BATTLE_STAT_MAX, &health);
    } else if (json_object_get(v, "health") &&
               (!json_is_integer(json_object_get(v, "health")) ||
                json_integer_value(json_object_get(v, "health")) != 0)) {
        sk_jdec_bad_at(&j->d, "health", "'health' of a dead unit must be 0");
    }
    sk_jdec_get_int(&j->d, v, "delay", 0, c ? c->delay : BATTLE_DELAY_MAX, &delay);
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
    unsigned forts_taken = 0;
    size_t i;
    json_t *u;

    sk_jptr_push_key(j->d.ptr, key);
    if (!row || json_is_null(row)) {
        if (is_structure && side && side->n_fortresses > 0)
            sk_jdec_bad(&j->d, "'structures' must start with the side's %d fortresses",
                        side->n_fortresses);
    } else if (!json_is_array(row)) {
        sk_jdec_bad(&j->d, "'%s' must be an array of units", key);
    } else if (json_array_size(row) > BATTLE_ROW_MAX) {
        sk_jdec_bad(&j->d, "a row holds at most %d units, not %zu", BATTLE_ROW_MAX,
                    json_array_size(row));
    } else {
        if (is_structure && side && json_array_size(row) < (size_t)side->n_fortresses)
            sk_jdec_bad(&j->d, "'structures' must start with the side's %d fortresses",
                        side->n_fortresses);
        json_array_foreach(row, i, u)
        {
            sk_jptr_push_index(j->d.ptr, i);
            if (decode_unit(j, u, is_structure, (int)i, side, &forts_taken, &units[*n]))
                (*n)++;
            sk_jptr_pop(j->d.ptr);
        }
    }
    sk_jptr_pop(j->d.ptr);
}

/* Whether the deck list of `side` (NULL: unknown) holds a commander card, as a mission's or
 * raid's may (drawn and not played); a job's own deck cannot. */
static int deck_has_commander(const struct job_dec *j, const struct battle_side_spec *side)
{
    for (int k = 0; side && k < side->n_deck; k++)
        if (j->spec->cards[side->deck[k]].type == BATTLE_COMMANDER)
            return 1;
    return 0;
}

/* Decodes the name list `key` ("hand" or "deck") into cards/n, at most `max`; a commander
 * card only where the side's deck list holds one (deck_has_commander: `side`). */
static void decode_names(struct job_dec *j, const json_t *v, const char *key, int max,
                         const struct battle_side_spec *side, int *cards, int *n)
{
    int cmd = deck_has_commander(j, side);
    const json_t *list = json_object_get(v, key);
    size_t i;
    json_t *name;

    sk_jptr_push_key(j->d.ptr, key);
    if (!list || json_is_null(list)) {
        /* empty */
    } else if (!json_is_array(list)) {
        sk_jdec_bad(&j->d, "'%s' must be an array of card names", key);
    } else if (json_array_size(list) > (size_t)max) {
        sk_jdec_bad(&j->d, "'%s' holds at most %d cards, not %zu", key, max, json_array_size(list));
    } else {
        json_array_foreach(list, i, name)
        {
            int idx;
            sk_jptr_push_index(j->d.ptr, i);
            idx = resolve_typed(
                j, name, BATTLE_T_ASSAULT | BATTLE_T_STRUCTURE | (cmd ? BATTLE_T_COMMANDER : 0u),
                cmd ? "an assault, structure or commander" : "an assault or structure");
            if (idx >= 0)
                cards[(*n)++] = idx;
            sk_jptr_pop(j->d.ptr);
        }
    }
    sk_jptr_pop(j->d.ptr);
}

/* The name a written card name resolves to (inline cards by exact name first, then the
 * catalog as players write names); `name` itself when neither has it. */
static const char *canonical_name(const struct job_dec *j, const char *name)
{
    const struct battle_card_spec *c = NULL;
    for (int i = 0; i < j->n_inl; i++)
        if (j->inl[i].named && strcmp(j->inl[i].card.name, name) == 0)
            return name;
    if (j->catalog)
        c = battle_catalog_find_loose(j->catalog, name);
    return c ? c->name : name;
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
            const char *canon = canonical_name(j, name);
            int idx = -1;
            for (int c = 0; c < j->spec->n_cards && idx < 0; c++)
                if (strcmp(j->spec->cards[c].name, canon) == 0)
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
                sk_jdec_bad(
                    &j->d,
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
    if (!sk_jdec_need_object(&j->d, v, key, side_state_keys))
        goto out;
    if (side)
        cmd_max = j->spec->cards[side->commander].health;
    if (sk_jdec_need_int(&j->d, v, "commander_health", 1, cmd_max, &hp) > 0)
        st->commander_health = (int)hp;
    errs_before = j->d.n_err;
    decode_row(j, v, "structures", side, st->structures, &st->n_structures);
    decode_row(j, v, "assaults", side, st->assaults, &st->n_assaults);
    decode_names(j, v, "hand", BATTLE_HAND_MAX, side, st->hand, &st->n_hand);
    decode_names(j, v, "deck", BATTLE_DECK_MAX, side, st->deck, &st->n_deck);
    if (j->d.n_err > errs_before || !side)
        goto out;
    /* The hand is refilled from the deck to three cards, so a short hand means an empty
     * deck. */
    if (st->n_deck > 0 && st->n_hand < BATTLE_HAND_MAX)
        sk_jdec_bad_at(&j->d, "hand", "the hand must hold %d cards while the deck has cards",
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
        sk_jdec_bad(&j->d, "'state' must be an object or null");
        goto out;
    }
    sk_jdec_check_keys(&j->d, v, state_keys);
    if (sk_jdec_need_int(&j->d, v, "turn", 1, spec->turn_limit, &turn) > 0)
        spec->state.turn = (int)turn;
    decode_side_state(j, v, "attacker", 0, side_ok[0], &spec->state.sides[0]);
    decode_side_state(j, v, "defender", 1, side_ok[1], &spec->state.sides[1]);
    spec->has_state = 1;
out:
    sk_jptr_pop(j->d.ptr);
}

static const char *const params_keys[] = {"games",    "mode",     "scoring", "turn_limit", "cards",
                                          "attacker", "defender", "state",   "effects",    NULL};
static const char *const effect_keys[] = {"skill", "name", "passive", "x", "side", NULL};

/* The scoring names, in enum battle_scoring order. */
static const char *const scorings[BATTLE_SCORING__COUNT] = {
    "win", "defense", "war", "war-defense", "raid", "brawl", "brawl-defense", "campaign"};

const char *battle_codec_scoring_name(int s)
{
    return s >= 0 && s < BATTLE_SCORING__COUNT ? scorings[s] : "?";
}

/* Adds one effect's skill to the effects of side s (n[s] of them so far) in cards[s]. */
static void add_effect(struct job_dec *j, struct battle_card_spec *cards, int *n, int s,
                       const struct battle_skill_spec *sk)
{
    if (n[s] >= BATTLE_CARD_SKILLS_MAX) {
        sk_jdec_bad(&j->d, "the %s has at most %d effects", s ? "defender" : "attacker",
                    BATTLE_CARD_SKILLS_MAX);
        return;
    }
    cards[s].skills[n[s]++] = *sk;
}

/* The skills of effect {"name": ...} at the current position, from the catalog's bges.txt,
 * into sk[0 .. *n), its passive effects' values into passive[]; 0 after reporting why it
 * cannot be played. */
static int named_effect(struct job_dec *j, const json_t *name, struct battle_skill_spec *sk,
                        int max, int *n, int *passive)
{
    const struct battle_bges *bges = j->catalog ? battle_catalog_bges(j->catalog) : NULL;
    const struct battle_bge *b;
    char why[300];
    const char *s = sk_jdec_check_name(&j->d, name, "an effect's name", BATTLE_NAME_MAX);

    if (!s)
        return 0;
    if (!bges || !bges->n) {
        sk_jdec_bad(&j->d, "named battleground effects come with the game's files "
                           "(SKIRMISH_CARDS_DIR, its bges.txt): write the effect as a skill");
        return 0;
    }
    b = battle_bge_find(bges, s);
    if (!b) {
        sk_jdec_bad(&j->d, "unknown battleground effect \"%s\"", s);
        return 0;
    }
    *n = 0;
    if (!battle_bge_expand(bges, b->text, sk, max, n, passive, why, sizeof(why))) {
        sk_jdec_bad(&j->d, "effect \"%s\" (%s) cannot be played: %s", b->name, b->text, why);
        return 0;
    }
    for (int k = 0; k < BATTLE_PASSIVE__COUNT && *n == 0; k++)
        if (passive[k])
            return 1;
    if (*n == 0) {
        sk_jdec_bad(&j->d, "effect \"%s\" names no skill", b->name);
        return 0;
    }
    return 1;
}

/* Effect {"passive": NAME, "x": X} at the current position: passive[its effect] = X (1 when
 * absent); 0 after reporting a problem. */
static int passive_effect(struct job_dec *j, const json_t *e, int *passive)
{
    const char *s;
    long long x = 1;
    int k;

    sk_jptr_push_key(j->d.ptr, "passive");
    s = sk_jdec_check_name(&j->d, json_object_get(e, "passive"), "a passive effect's name",
                           BATTLE_NAME_MAX);
    k = s ? battle_bge_passive_parse(s) : -1;
    if (s && k < 0)
        sk_jdec_bad(&j->d,
                    "unknown passive battleground effect \"%s\" (the peer's: bloodlust, "
                    "brigade, counterflux, ... superheroism; docs/rules/battle.md)",
                    s);
    else if (k >= 0 && *battle_bge_passive_needs(k))
        sk_jdec_bad(&j->d, "passive battleground effect '%s' is not simulated yet: %s", s,
                    battle_bge_passive_needs(k));
    sk_jptr_pop(j->d.ptr);
    if (json_object_get(e, "x") &&
        sk_jdec_need_int(&j->d, e, "x", 1, BATTLE_PASSIVE_X_MAX, &x) <= 0)
        return 0;
    if (k < 0 || *battle_bge_passive_needs(k))
        return 0;
    passive[k] = (int)x;
    return 1;
}

/* "effects": battleground effects written as skills, [{"skill": {"name", "x", "all", "y",
 * "n"}, "side": "both" | "attacker" | "defender"}] or named as in the game folder's
 * bges.txt ({"name": "Inspired", "side"}), as the peer's -e, ye and ee. Each side's
 * commander casts its effects at each of its turns, after the card played and before its
 * own skills (docs/rules/battle.md, "Battleground effects"); the codec gathers a side's
 * effects as the activation skills of one more card of the job, which the plan folds as any
 * card. Only activation skills cast in the turn: no Summon, cooldown or trigger. */
/* The skills of effect `e` (the object at the current position): its named effect's, or
 * its one skill, into sk[0 .. returned count), its passive effects into passive[]; -1 after
 * reporting a problem. */
static int effect_skills(struct job_dec *j, const json_t *e, struct battle_skill_spec *sk,
                         int *passive)
{
    int ok, nn = 0;

    if (!!json_object_get(e, "skill") + !!json_object_get(e, "name") +
            !!json_object_get(e, "passive") !=
        1) {
        sk_jdec_bad(&j->d, "an effect has a 'skill', a 'name' (bges.txt) or a 'passive', one of "
                           "them");
        return -1;
    }
    if (json_object_get(e, "x") && !json_object_get(e, "passive")) {
        sk_jdec_bad_at(&j->d, "x", "'x' is a passive effect's value (a skill has its own 'x')");
        return -1;
    }
    if (json_object_get(e, "passive"))
        return passive_effect(j, e, passive) ? 0 : -1;
    if (json_object_get(e, "name")) {
        sk_jptr_push_key(j->d.ptr, "name");
        ok = named_effect(j, json_object_get(e, "name"), sk, BATTLE_CARD_SKILLS_MAX, &nn, passive);
        sk_jptr_pop(j->d.ptr);
        return ok ? nn : -1;
    }
    sk_jptr_push_key(j->d.ptr, "skill");
    ok = battle_cards_decode_skill(&j->d, json_object_get(e, "skill"), BATTLE_COMMANDER, sk);
    if (ok && battle_rules_skill_kind(sk->id) != BATTLE_SK_ACTIVATION) {
        sk_jdec_bad_at(&j->d, "name",
                       "skill '%s' is not cast: an effect casts an activation skill (strike, "
                       "rally, heal...)",
                       battle_rules_skill_name(sk->id));
        ok = 0;
    }
    if (ok && (sk->c || sk->trigger)) {
        sk_jdec_bad(&j->d, "an effect is cast at every turn of its side: no 'c' or 'trigger'");
        ok = 0;
    }
    sk_jptr_pop(j->d.ptr);
    return ok ? 1 : -1;
}

static void decode_effects(struct job_dec *j, const json_t *params)
{
    static const char *const sides[] = {"both", "attacker", "defender"};
    const json_t *list = json_object_get(params, "effects");
    struct battle_card_spec cards[2];
    int n[2] = {0, 0};
    size_t i;
    json_t *e;

    if (json_is_null(list))
        list = NULL;
    sk_jptr_push_key(j->d.ptr, "effects");
    if (list && (!json_is_array(list) || json_array_size(list) > BATTLE_EFFECTS_MAX)) {
        sk_jdec_bad(&j->d, "'effects' must be a list of at most %d {\"skill\", \"side\"}",
                    BATTLE_EFFECTS_MAX);
        sk_jptr_pop(j->d.ptr);
        return;
    }
    memset(cards, 0, sizeof(cards));
    json_array_foreach(list, i, e)
    {
        struct battle_skill_spec sk[BATTLE_CARD_SKILLS_MAX];
        int passive[BATTLE_PASSIVE__COUNT] = {0};
        int side = 0, nn = 0;
        sk_jptr_push_index(j->d.ptr, i);
        if (!json_is_object(e)) {
            sk_jdec_bad(&j->d, "an effect is {\"skill\": {\"name\", \"x\", ...}, \"side\"}");
        } else {
            sk_jdec_check_keys(&j->d, e, effect_keys);
            sk_jdec_get_enum(&j->d, e, "side", sides, 3, &side);
            nn = effect_skills(j, e, sk, passive);
        }
        for (int s = 0; s < 2; s++) {
            if (side && side != s + 1)
                continue;
            for (int k = 0; k < nn; k++)
                add_effect(j, cards, n, s, &sk[k]);
            /* A later value of one passive effect replaces an earlier one, as in the peer. */
            for (int k = 0; nn >= 0 && k < BATTLE_PASSIVE__COUNT; k++)
                if (passive[k])
                    j->spec->sides[s].passive[k] = passive[k];
        }
        sk_jptr_pop(j->d.ptr);
    }
    /* A mission's or raid's effects come after the job's, as the peer adds them. */
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < j->n_rec_fx[s]; k++)
            add_effect(j, cards, n, s, &j->rec_fx[s][k]);
    for (int s = 0; s < 2; s++) {
        int idx;
        if (!n[s])
            continue;
        snprintf(cards[s].name, sizeof(cards[s].name), "(battleground effects of the %s)",
                 s ? "defender" : "attacker");
        cards[s].type = BATTLE_COMMANDER;
        cards[s].health = 1;
        cards[s].n_skills = n[s];
        idx = add_card(j, &cards[s]);
        if (idx >= 0)
            j->spec->sides[s].effects = idx + 1;
    }
    sk_jptr_pop(j->d.ptr);
}

enum sk_err battle_codec_decode(const json_t *params, uint64_t seed,
                                const struct battle_catalog *catalog, struct sk_jptr *ptr,
                                struct sk_verr_list *errs, struct battle_spec *out)
{
    static const char *const modes[] = {"fight", "surge"};
    struct job_dec j;
    struct battle_spec *spec = NULL;
    int side_ok[2];
    int mode = BATTLE_MODE_FIGHT;
    int scoring = BATTLE_SCORING_WIN;
    const json_t *cards;
    const json_t *defender;
    size_t n_inl = 0;
    long long n = 0;
    enum sk_err err = SK_OK;

    memset(&j, 0, sizeof(j));
    j.d.ptr = ptr;
    j.d.errs = errs;
    j.catalog = catalog;
    if (!json_is_object(params)) {
        sk_jdec_bad(&j.d, "'params' must be an object");
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
    sk_jdec_check_keys(&j.d, params, params_keys);
    spec->games = BATTLE_GAMES_DEF;
    if (sk_jdec_get_int(&j.d, params, "games", 1, (long long)BATTLE_GAMES_MAX, &n) > 0)
        spec->games = (uint64_t)n;
    sk_jdec_get_enum(&j.d, params, "mode", modes, 2, &mode);
    spec->mode = (enum battle_mode)mode;
    /* A raid scores raid points unless the job says otherwise, as in the peer. */
    defender = json_object_get(params, "defender");
    if (json_is_object(defender) && json_object_get(defender, "raid"))
        scoring = BATTLE_SCORING_RAID;
    sk_jdec_get_enum(&j.d, params, "scoring", scorings, BATTLE_SCORING__COUNT, &scoring);
    spec->scoring = (enum battle_scoring)scoring;
    spec->turn_limit = BATTLE_TURN_LIMIT_DEF;
    if (sk_jdec_get_int(&j.d, params, "turn_limit", 1, BATTLE_TURN_LIMIT_MAX, &n) > 0)
        spec->turn_limit = (int)n;
    decode_inline_cards(&j, cards);
    side_ok[0] = decode_side(&j, params, "attacker", &spec->sides[0]);
    side_ok[1] = decode_side(&j, params, "defender", &spec->sides[1]);
    decode_state(&j, params, side_ok);
    for (int s = 0; s < 2 && spec->has_state; s++)
        if (spec->sides[s].n_pools || spec->sides[s].upgrades)
            sk_jdec_bad_at(&j.d, "state",
                           "the %s draws its cards anew each game (a mission's or raid's card "
                           "pools or level-ups): a game cannot start from a state of it",
                           s ? "defender" : "attacker");
    decode_effects(&j, params);
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

/* ===== Weighted defenders ===== */

static const char *const defender_keys[] = {"deck", "weight", NULL};

/* Moves the problems of `from` into `errs`: those under "/params/defender" are re-rooted at
 * `root` ("/params/defender/2/deck"); the others are kept only when `keep_others`. */
static void move_errors(const struct sk_verr_list *from, struct sk_verr_list *errs,
                        const char *root, int keep_others, const char *named)
{
    static const char prefix[] = "/params/defender";
    const size_t plen = sizeof(prefix) - 1;

    for (size_t i = 0; i < from->n; i++) {
        const char *p = from->items[i].pointer;
        if (named && strncmp(p, prefix, plen) == 0) {
            /* a deck of a named list: where the job names the list, with the deck's name */
            sk_verr_add(errs, root, "named deck \"%s\": %s", named, from->items[i].message);
        } else if (strncmp(p, prefix, plen) == 0 && (p[plen] == '\0' || p[plen] == '/')) {
            char np[SK_JPTR_MAX + 64];
            snprintf(np, sizeof(np), "%s%s", root, p + plen);
            sk_verr_add(errs, np, "%s", from->items[i].message);
        } else if (keep_others) {
            sk_verr_add(errs, p, "%s", from->items[i].message);
        }
    }
    errs->truncated |= from->truncated;
    errs->oom |= from->oom;
}

/* A defender that names a named list of decks (customdecks.txt: "A:0.3;B:0.7", or a
 * regular expression over the named decks): *list becomes the weighted list it stands for
 * ([{"deck", "weight"}], each deck with the side's "play"), *at where the job names it, and
 * `parts` the decks (released by the caller); nothing is set for any other defender. A
 * named deck that does not expand is reported at *at: SK_EINVAL. */
static enum sk_err expand_named_defender(const struct battle_catalog *catalog, const json_t *def,
                                         struct battle_named_part *parts, int *n_parts,
                                         json_t **list, const char **at, struct sk_verr_list *errs)
{
    const json_t *text = json_is_object(def) ? json_object_get(def, "deck") : def;
    const struct battle_named *named = catalog ? battle_catalog_named(catalog) : NULL;
    const char *where = json_is_object(def) ? "/params/defender/deck" : "/params/defender";
    char why[200];
    int n;

    if (!json_is_string(text) || !named ||
        !battle_named_find(&named->decks, json_string_value(text)))
        return SK_OK;
    n = battle_named_expand(named, json_string_value(text), parts, BATTLE_DEFENDERS_MAX, why,
                            sizeof(why));
    if (n < 0)
        return sk_verr_add(errs, where, "named deck \"%s\": %s", json_string_value(text), why);
    if (n == 1) { /* one deck: decoded where it stands, as any deck string */
        battle_named_parts_release(parts, n);
        return SK_OK;
    }
    *n_parts = n;
    *list = json_array();
    for (int k = 0; *list && k < n; k++) {
        json_t *deck = json_is_object(def) ? json_deep_copy(def) : json_string(parts[k].text);
        if (deck && json_is_object(deck) &&
            json_object_set_new(deck, "deck", json_string(parts[k].text))) {
            json_decref(deck);
            deck = NULL;
        }
        if (!deck || json_array_append_new(
                         *list, json_pack("{s:o, s:f}", "deck", deck, "weight", parts[k].weight))) {
            json_decref(*list);
            *list = NULL;
        }
    }
    if (!*list) {
        battle_named_parts_release(parts, n);
        *n_parts = 0;
        return SK_ENOMEM;
    }
    *at = where;
    return SK_OK;
}

/* NOLINTNEXTLINE(readability-function-size): the mix's fields in document order */
enum sk_err battle_codec_decode_mix(const json_t *params, uint64_t seed,
                                    const struct battle_catalog *catalog, struct sk_jptr *ptr,
                                    struct sk_verr_list *errs, struct battle_mix *out)
{
    const json_t *list = json_is_object(params) ? json_object_get(params, "defender") : NULL;
    json_t *copy = NULL, *expanded = NULL;
    struct battle_named_part parts[BATTLE_DEFENDERS_MAX];
    int n_parts = 0;
    const char *named_at = NULL, *named_text = NULL;
    size_t i;
    json_t *e;
    int bad = 0;
    enum sk_err err = SK_OK;

    memset(out, 0, sizeof(*out));
    err = expand_named_defender(catalog, list, parts, &n_parts, &expanded, &named_at, errs);
    if (err)
        return err;
    if (expanded) {
        list = expanded;
        named_text =
            json_string_value(json_is_string(json_object_get(params, "defender"))
                                  ? json_object_get(params, "defender")
                                  : json_object_get(json_object_get(params, "defender"), "deck"));
    }
    if (!json_is_array(list)) {
        err = battle_codec_decode(params, seed, catalog, ptr, errs, &out->specs[0]);
        if (!err) {
            out->n = 1;
            out->weights[0] = 1.0;
        }
        return err;
    }
    sk_jptr_push_key(ptr, "defender");
    if (json_array_size(list) < 1 || json_array_size(list) > BATTLE_DEFENDERS_MAX) {
        sk_verr_add(errs, sk_jptr_str(ptr), "a list of defenders has 1 to %d decks, not %zu",
                    BATTLE_DEFENDERS_MAX, json_array_size(list));
        bad = 1;
    }
    if (json_object_get(params, "state") && !json_is_null(json_object_get(params, "state"))) {
        sk_verr_add(errs, "/params/state", "a mid-game state needs one defender, not a list");
        bad = 1;
    }
    sk_jptr_pop(ptr);
    copy = bad ? NULL : json_copy((json_t *)params);
    if (!copy) {
        if (n_parts)
            battle_named_parts_release(parts, n_parts);
        json_decref(expanded);
        return bad ? SK_EINVAL : SK_ENOMEM;
    }
    json_array_foreach(list, i, e)
    {
        struct sk_verr_list one;
        char root[64];
        const json_t *w = json_is_object(e) ? json_object_get(e, "weight") : NULL;
        enum sk_err rc;

        snprintf(root, sizeof(root), "/params/defender/%zu", i);
        if (!json_is_object(e)) {
            sk_verr_add(errs, root, "a defender of the list is {\"deck\", \"weight\"}");
            bad = 1;
            continue;
        }
        sk_jptr_push_key(ptr, "defender");
        sk_jptr_push_index(ptr, i);
        sk_verr_check_keys(errs, ptr, e, defender_keys);
        sk_jptr_pop(ptr);
        sk_jptr_pop(ptr);
        if (!json_is_number(w) || json_number_value(w) <= 0 || json_number_value(w) > 1e6) {
            char wp[80];
            snprintf(wp, sizeof(wp), "%s/weight", root);
            sk_verr_add(errs, wp, "'weight' is required: a number above 0 and at most 1000000");
            bad = 1;
        } else {
            out->weights[i] = json_number_value(w);
        }
        if (!json_object_get(e, "deck")) {
            sk_verr_add(errs, root, "'deck' is required");
            bad = 1;
            continue;
        }
        /* One scoring for the whole list: a raid among the decks does not change it. */
        if (json_object_set(copy, "defender", json_object_get(e, "deck")) ||
            (!json_object_get(params, "scoring") &&
             json_object_set_new(copy, "scoring", json_string("win")))) {
            err = SK_ENOMEM;
            break;
        }
        sk_verr_list_init(&one);
        rc = battle_codec_decode(copy, seed, catalog, ptr, &one, &out->specs[i]);
        snprintf(root + strlen(root), sizeof(root) - strlen(root), "/deck");
        /* The attacker's problems are the same in every decode: reported once. */
        move_errors(&one, errs, named_at ? named_at : root, i == 0,
                    named_at ? (parts[i].from ? parts[i].from : named_text) : NULL);
        sk_verr_list_release(&one);
        if (rc == SK_ENOMEM) {
            err = SK_ENOMEM;
            break;
        }
        if (rc) {
            bad = 1;
            continue;
        }
        out->n = (int)i + 1;
    }
    json_decref(copy);
    if (n_parts)
        battle_named_parts_release(parts, n_parts);
    if (!err && bad)
        err = SK_EINVAL;
    if (err) {
        /* n counts up to the last good spec; release every one decoded */
        for (int k = 0; k < BATTLE_DEFENDERS_MAX; k++)
            battle_codec_spec_release(&out->specs[k]);
        memset(out, 0, sizeof(*out));
        json_decref(expanded);
        return err;
    }
    out->n = (int)json_array_size(list);
    out->weighted = 1;
    json_decref(expanded);
    return SK_OK;
}

void battle_codec_mix_release(struct battle_mix *mix)
{
    if (!mix)
        return;
    for (int k = 0; k < BATTLE_DEFENDERS_MAX; k++)
        battle_codec_spec_release(&mix->specs[k]);
    memset(mix, 0, sizeof(*mix));
}

/* Builds and drops each deck's plan: what only the plan sees is the client's 422 too. */
enum sk_err battle_codec_check_plans(const struct battle_mix *mix, struct sk_verr_list *errs)
{
    enum sk_err bad = SK_OK;

    for (int k = 0; k < mix->n; k++) {
        struct battle_plan *plan = NULL;
        char why[512] = "";
        char at[64];
        enum sk_err rc = battle_plan_new(&mix->specs[k], &plan, why, sizeof(why));
        battle_plan_free(plan);
        if (rc == SK_ENOMEM)
            return rc;
        if (!rc)
            continue;
        if (mix->n == 1)
            snprintf(at, sizeof(at), "/params");
        else
            snprintf(at, sizeof(at), "/params/defender/%d/deck", k);
        sk_verr_add(errs, at, "%s", why[0] ? why : "the job cannot be played");
        bad = SK_EINVAL;
    }
    return bad;
}
