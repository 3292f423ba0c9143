/* SPDX-License-Identifier: MIT */
/* Decoding and validation of an optimize job's params (see battle_opt_codec.h). The starting
 * deck and the enemy are decoded by battle_codec exactly as a battle job's sides (so every
 * side form and its messages are the battle job's); each pool card is checked the same
 * way, as the one card of a probe deck. The constraints are checked against the starting
 * deck, and a set of constraints that leaves the search no move is refused. */
#include "battle_opt_codec.h"

#include <stdio.h>
#include <string.h>

#include "battle_catalog.h"
#include "battle_opt_fund.h"
#include "battle_opt_moves.h"
#include "battle_tu.h"
#include "sk_jdec.h"
#include "sk_mem.h"

#include "sk_banned.h"

static const char *const opt_keys[] = {
    "mode",        "scoring",     "turn_limit", "cards",
    "attacker",    "defender",    "pool",       "objective",
    "algorithm",   "budget",      "race",       "eval_games",
    "temperature", "constraints", "effects",    "allow_unobtainable",
    "fund",        NULL};
static const char *const budget_keys[] = {"games", "seconds", "target", NULL};
static const char *const race_keys[] = {"batch", "max_games", NULL};
static const char *const constraint_keys[] = {
    "deck_size", "freeze_first",     "keep", "commander", "max_copies",
    "factions",  "min_fusion_level", NULL};
static const char *const size_keys[] = {"min", "max", NULL};
static const char *const pool_entry_keys[] = {"card", "count", NULL};

/* The battle params every deck of the job plays with: the job's own battle fields and one
 * game (the search sets "games" per range it plays). NULL on allocation failure. */
static json_t *battle_base(const json_t *params)
{
    static const char *const copied[] = {"mode",     "scoring",  "turn_limit", "cards",
                                         "defender", "attacker", "effects"};
    json_t *base = json_pack("{s:i}", "games", 1);

    for (size_t i = 0; base && i < sizeof(copied) / sizeof(copied[0]); i++) {
        json_t *v = json_object_get(params, copied[i]);
        if (v && json_object_set(base, copied[i], v)) {
            json_decref(base);
            base = NULL;
        }
    }
    return base;
}

/* The index of the card named `name` in the job's table, or -1. */
static int table_find(const struct opt_job *job, const char *name)
{
    for (int i = 0; i < job->n_cards; i++)
        if (strcmp(job->cards[i].name, name) == 0)
            return i;
    return -1;
}

/* The index of card `card` in the job's table (by name), adding it (its type and faction,
 * no copies) on first use; -1 on allocation failure. `cap` is the table's allocated size,
 * grown here. */
static int table_add(struct opt_job *job, int *cap, const struct battle_card_spec *card)
{
    const char *name = card->name;

    /* table_find's loop, inline: the static analyzer then sees that a table holding the
     * name is allocated */
    for (int i = 0; i < job->n_cards; i++)
        if (strcmp(job->cards[i].name, name) == 0)
            return i;
    if (job->n_cards == *cap) {
        int ncap = *cap ? *cap * 2 : 64;
        struct opt_card *c = sk_realloc(job->cards, (size_t)ncap * sizeof(*c));
        if (!c)
            return -1;
        job->cards = c;
        *cap = ncap;
    }
    memset(&job->cards[job->n_cards], 0, sizeof(job->cards[0]));
    snprintf(job->cards[job->n_cards].name, sizeof(job->cards[0].name), "%s", name);
    job->cards[job->n_cards].type = card->type;
    job->cards[job->n_cards].faction = card->faction;
    job->cards[job->n_cards].id = card->id;
    job->cards[job->n_cards].fusion = card->fusion_level;
    return job->n_cards++;
}

/* Why the decoded attacker is no deck a player can hold (a mission's or raid's): a commander
 * card in its deck (drawn and not played) or a structure card where a fortress goes, which
 * the optimiser's deck lists could not write back; NULL when it is one. */
static const char *start_unlike_a_deck(const struct battle_spec *spec)
{
    const struct battle_side_spec *side = &spec->sides[0];
    for (int i = 0; i < side->n_deck; i++)
        if (spec->cards[side->deck[i]].type == BATTLE_COMMANDER)
            return "puts a commander card in its deck";
    for (int f = 0; f < side->n_fortresses; f++)
        if (spec->cards[side->fortresses[f]].type != BATTLE_FORTRESS)
            return "puts a structure card where a fortress goes";
    return NULL;
}

/* Takes the starting deck from the decoded battle (its attacker) into the job: the deck,
 * the commander and fortresses, and the table with their cards (owned as often as the deck
 * holds them). SK_ENOMEM or SK_OK. */
static enum sk_err take_start(struct opt_job *job, int *cap, const struct battle_mix *mix)
{
    const struct battle_spec *spec = &mix->specs[0];
    const struct battle_side_spec *side = &spec->sides[0];
    double wsum = 0;
    int c;

    job->play = side->play;
    job->n_fortresses = side->n_fortresses;
    for (int f = 0; f < side->n_fortresses; f++)
        snprintf(job->fortresses[f], sizeof(job->fortresses[f]), "%s",
                 spec->cards[side->fortresses[f]].name);
    c = table_add(job, cap, &spec->cards[side->commander]);
    if (c < 0)
        return SK_ENOMEM;
    job->cards[c].owned = 1;
    job->start.commander = c;
    for (int i = 0; i < side->n_deck; i++) {
        const struct battle_card_spec *card = &spec->cards[side->deck[i]];
        c = table_add(job, cap, card);
        if (c < 0)
            return SK_ENOMEM;
        job->cards[c].owned++;
        job->start.cards[job->start.n++] = c;
    }
    job->n_defenders = mix->n;
    for (int k = 0; k < mix->n; k++)
        wsum += mix->weights[k];
    for (int k = 0; k < mix->n; k++)
        job->weights[k] = mix->weights[k] / wsum;
    return SK_OK;
}

/* The type of the card `name` would resolve to (inline cards first, then the catalog as
 * players write names), or -1 when it resolves to none (the probe then reports it). */
static int card_type(const json_t *params, const struct battle_catalog *cat, const char *name)
{
    static const char *const types[] = {"commander", "fortress", "assault", "structure"};
    const json_t *cards = json_object_get(params, "cards");
    const struct battle_card_spec *c;
    size_t i;
    json_t *e;

    json_array_foreach(cards, i, e)
    {
        const char *n = json_string_value(json_object_get(e, "name"));
        const char *t = json_string_value(json_object_get(e, "type"));
        if (n && t && strcmp(n, name) == 0)
            for (int k = 0; k < 4; k++)
                if (strcmp(t, types[k]) == 0)
                    return k == 0   ? BATTLE_COMMANDER
                           : k == 1 ? BATTLE_FORTRESS
                           : k == 2 ? BATTLE_ASSAULT
                                    : BATTLE_STRUCTURE;
    }
    c = cat ? battle_catalog_find_loose(cat, name) : NULL;
    return c ? (int)c->type : -1;
}

/* Checks pool card `v` (at the current position) as the one card of a probe deck decoded by
 * battle_codec, so that it resolves and is playable exactly as in a battle. On success
 * returns its table index (owned copies not yet added); -1 after reporting a problem;
 * -2 on allocation failure. */
static int probe_card(struct sk_jdec *d, const json_t *params, const struct battle_catalog *cat,
                      struct opt_job *job, int *cap, const json_t *v)
{
    const char *name = json_string_value(v);
    const char *commander = job->cards[job->start.commander].name;
    json_t *probe = NULL;
    struct sk_verr_list errs;
    struct sk_jptr ptr;
    struct battle_spec spec;
    int type, idx = -2;
    enum sk_err rc;

    if (!name) {
        sk_jdec_bad(d, "a pool card must be a card name");
        return -1;
    }
    type = card_type(params, cat, name);
    if (type == BATTLE_FORTRESS) {
        sk_jdec_bad(d, "card \"%s\" is a fortress card: the pool holds deck cards and commanders",
                    name);
        return -1;
    }
    probe =
        json_pack("{s:i, s:{s:s, s:[]}}", "games", 1, "defender", "commander", commander, "deck");
    if (probe && json_object_get(params, "cards") &&
        json_object_set(probe, "cards", json_object_get(params, "cards"))) {
        json_decref(probe);
        return -2;
    }
    if (probe && type == BATTLE_COMMANDER)
        json_object_set_new(probe, "attacker", json_pack("{s:O, s:[]}", "commander", v, "deck"));
    else if (probe)
        json_object_set_new(
            probe, "attacker",
            json_pack("{s:s, s:[{s:O}]}", "commander", commander, "deck", "card", v));
    if (!probe || !json_object_get(probe, "attacker")) {
        json_decref(probe);
        return -2;
    }
    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    rc = battle_codec_decode(probe, job->seed, cat, &ptr, &errs, &spec);
    if (rc == SK_EINVAL) {
        /* the probe's own pointers mean nothing to the client: the message goes here */
        sk_jdec_bad(d, "%s", errs.n ? errs.items[0].message : "not a playable card");
        idx = -1;
    } else if (rc == SK_OK) {
        const struct battle_side_spec *s = &spec.sides[0];
        const struct battle_card_spec *c =
            type == BATTLE_COMMANDER ? &spec.cards[s->commander] : &spec.cards[s->deck[0]];
        /* a card of the starting deck (in the table before any pool card) is owned anyway */
        if (c->hidden_set && !job->allow_unobtainable && table_find(job, c->name) < 0) {
            sk_jdec_bad(d,
                        "card \"%s\" is of set %d, which the game gives no player: it cannot be "
                        "owned (set \"allow_unobtainable\": true to search with it anyway)",
                        c->name, c->set);
            idx = -1;
        } else {
            idx = table_add(job, cap, c);
            if (idx < 0)
                idx = -2;
        }
        battle_codec_spec_release(&spec);
    }
    sk_verr_list_release(&errs);
    json_decref(probe);
    return idx;
}

/* The pool: a list of {"card", "count"}, or "catalog" (every catalog card a deck or a
 * commander can use, as many copies as max_copies allows). Either holds only cards a
 * player can own (battle_card_spec.hidden_set) unless allow_unobtainable. SK_OK (problems
 * in `d`) or SK_ENOMEM. */
static enum sk_err decode_pool(struct sk_jdec *d, const json_t *params,
                               const struct battle_catalog *cat, struct opt_job *job, int *cap)
{
    const json_t *pool = json_object_get(params, "pool");
    size_t i;
    json_t *e;
    enum sk_err err = SK_OK;

    sk_jptr_push_key(d->ptr, "pool");
    if (!pool || json_is_null(pool)) {
        sk_jdec_bad(d, "'pool' is required: a list of {\"card\", \"count\"} or \"catalog\"");
    } else if (json_is_string(pool) && strcmp(json_string_value(pool), "catalog") == 0) {
        for (size_t k = 0; cat && k < battle_catalog_count(cat); k++) {
            const struct battle_card_spec *c = battle_catalog_at(cat, k);
            char why[160];
            int idx;
            if (c->type == BATTLE_FORTRESS || (c->hidden_set && !job->allow_unobtainable) ||
                battle_tu_unsupported(c, why, sizeof(why)))
                continue;
            idx = table_add(job, cap, c);
            if (idx < 0) {
                err = SK_ENOMEM;
                break;
            }
            job->cards[idx].owned = c->type == BATTLE_COMMANDER ? 1 : BATTLE_DECK_MAX;
        }
    } else if (!json_is_array(pool) || json_array_size(pool) > OPT_POOL_MAX) {
        sk_jdec_bad(d, "'pool' must be \"catalog\" or a list of at most %d {\"card\", \"count\"}",
                    OPT_POOL_MAX);
    } else {
        json_array_foreach(pool, i, e)
        {
            long long count = 1;
            int idx;
            sk_jptr_push_index(d->ptr, i);
            if (!json_is_object(e) || !json_object_get(e, "card")) {
                sk_jdec_bad(d, "a pool entry is {\"card\", \"count\"}");
                sk_jptr_pop(d->ptr);
                continue;
            }
            sk_jdec_check_keys(d, e, pool_entry_keys);
            (void)sk_jdec_get_int(d, e, "count", 1, BATTLE_DECK_MAX, &count);
            sk_jptr_push_key(d->ptr, "card");
            idx = probe_card(d, params, cat, job, cap, json_object_get(e, "card"));
            sk_jptr_pop(d->ptr);
            sk_jptr_pop(d->ptr);
            if (idx == -2) {
                err = SK_ENOMEM;
                break;
            }
            if (idx >= 0) {
                int owned = job->cards[idx].type == BATTLE_COMMANDER ? 1 : (int)count;
                if (job->cards[idx].owned < owned)
                    job->cards[idx].owned = owned;
            }
        }
    }
    sk_jptr_pop(d->ptr);
    return err;
}

/* ===== The fund ===== */

static int own_cmp(const void *a, const void *b)
{
    int x = ((const struct opt_own *)a)->id, y = ((const struct opt_own *)b)->id;
    return (x > y) - (x < y);
}

/* Links each of the game's cards of the table to the same unit's nearest levels above and
 * below it that the table holds (opt_card.up, .down): the moves take a card in at the
 * highest level the fund pays for (battle_opt_moves.c). SK_OK or SK_ENOMEM. */
static enum sk_err link_levels(const struct battle_catalog *cat, struct opt_job *job)
{
    struct opt_own *by_id = sk_calloc((size_t)job->n_cards + 1, sizeof(*by_id));
    int n = 0;

    if (!by_id)
        return SK_ENOMEM;
    for (int c = 0; c < job->n_cards; c++) /* (id, table index) pairs */
        if (job->cards[c].id > 0)
            by_id[n++] = (struct opt_own){job->cards[c].id, c};
    qsort(by_id, (size_t)n, sizeof(*by_id), own_cmp);
    for (int c = 0; c < job->n_cards; c++) {
        const struct battle_card_spec *s =
            job->cards[c].id > 0 ? battle_catalog_find_id(cat, job->cards[c].id) : NULL;
        for (int l = 1; s && l <= s->n_levels && l <= BATTLE_LEVELS_MAX; l++) {
            struct opt_own key = {s->level_ids[l - 1], 0};
            const struct opt_own *o =
                l == s->level ? NULL : bsearch(&key, by_id, (size_t)n, sizeof(key), own_cmp);
            if (o && l < s->level)
                job->cards[c].down = o->count + 1; /* the last below is the nearest */
            else if (o && !job->cards[c].up)
                job->cards[c].up = o->count + 1; /* the first above is the nearest */
        }
    }
    sk_free(by_id);
    return SK_OK;
}

/* "fund": SP to level up and fuse owned cards (battle_opt_fund.h). Absent or 0 is no fund.
 * With one, the catalog must hold the costs (the game's cards and fusion recipes): without
 * them a fund could buy nothing, and the job says so rather than searching as if it had
 * none. The owned cards become the inventory, and the cards the fund can make, one copy
 * alone, join the table (no copies owned) when a search may use them: not a fortress, of a
 * set players are given (or allow_unobtainable), simulated by the engine. SK_OK (problems
 * in `d`) or SK_ENOMEM. */
static enum sk_err decode_fund(struct sk_jdec *d, const struct battle_catalog *cat,
                               struct opt_job *job, int *cap)
{
    int *ids = NULL, n_ids = 0;
    enum sk_err err;

    if (job->fund == 0)
        return SK_OK;
    if (!cat || !battle_catalog_has_costs(cat)) {
        sk_jdec_bad_at(d, "fund",
                       "'fund' needs the game's cards and fusion recipes to count upgrade costs "
                       "(a folder of the game's files with fusion_recipes_cj2.xml, "
                       "SKIRMISH_CARDS_DIR), and catalog \"%s\" has none",
                       cat ? battle_catalog_source(cat) : "none");
        return SK_OK;
    }
    if (d->n_err) /* the pool's cards are not all known: nothing to build from yet */
        return SK_OK;
    job->fund_cat = cat;
    job->own = sk_calloc((size_t)job->n_cards + 1, sizeof(*job->own));
    if (!job->own)
        return SK_ENOMEM;
    for (int c = 0; c < job->n_cards; c++)
        if (job->cards[c].id > 0 && job->cards[c].owned > 0)
            job->own[job->n_own++] = (struct opt_own){job->cards[c].id, job->cards[c].owned};
    qsort(job->own, (size_t)job->n_own, sizeof(*job->own), own_cmp);
    err = battle_opt_fund_makeable(job, &ids, &n_ids);
    for (int i = 0; !err && i < n_ids; i++) {
        const struct battle_card_spec *c = battle_catalog_find_id(cat, ids[i]);
        char why[160];
        if (!c || c->type == BATTLE_FORTRESS || (c->hidden_set && !job->allow_unobtainable) ||
            battle_tu_unsupported(c, why, sizeof(why)))
            continue;
        if (table_add(job, cap, c) < 0)
            err = SK_ENOMEM;
    }
    sk_free(ids);
    if (!err)
        err = link_levels(cat, job);
    return err;
}

/* The table index of kept card `v` (a name as a deck names it), or -1 after reporting. */
static int kept_card(struct sk_jdec *d, const struct battle_catalog *cat, const struct opt_job *job,
                     const json_t *v)
{
    const char *name = json_string_value(v);
    const struct battle_card_spec *c;

    if (!name) {
        sk_jdec_bad(d, "a kept card must be a card name");
        return -1;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < job->n_cards; i++)
            if (strcmp(job->cards[i].name, name) == 0 && job->cards[i].type != BATTLE_COMMANDER)
                return i;
        /* the second pass looks for the card the name means as players write it */
        c = cat ? battle_catalog_find_loose(cat, name) : NULL;
        if (!c)
            break;
        name = c->name;
    }
    sk_jdec_bad(d, "card \"%s\" is not in the starting deck", json_string_value(v));
    return -1;
}

/* deck_size {min, max}: defaults 1 (0 for an empty start) and max(10, the start's size). */
static void decode_size(struct sk_jdec *d, const json_t *c, struct opt_job *job)
{
    const json_t *size = json_object_get(c, "deck_size");
    long long n;

    if (!size || json_is_null(size))
        return;
    sk_jptr_push_key(d->ptr, "deck_size");
    if (!json_is_object(size)) {
        sk_jdec_bad(d, "'deck_size' must be an object {\"min\", \"max\"}");
    } else {
        sk_jdec_check_keys(d, size, size_keys);
        if (sk_jdec_get_int(d, size, "min", 0, BATTLE_DECK_MAX, &n) > 0)
            job->size_min = (int)n;
        if (sk_jdec_get_int(d, size, "max", 1, BATTLE_DECK_MAX, &n) > 0)
            job->size_max = (int)n;
        if (job->size_min > job->size_max)
            sk_jdec_bad_at(d, "min", "'min' (%d) is above 'max' (%d)", job->size_min,
                           job->size_max);
        else if (job->start.n < job->size_min || job->start.n > job->size_max)
            sk_jdec_bad(d, "the starting deck has %d cards, outside %d .. %d", job->start.n,
                        job->size_min, job->size_max);
    }
    sk_jptr_pop(d->ptr);
}

/* keep: cards the deck must keep, one entry per copy; each within the start's copies. */
static void decode_keep(struct sk_jdec *d, const json_t *c, const struct battle_catalog *cat,
                        struct opt_job *job)
{
    const json_t *keep = json_object_get(c, "keep");
    size_t i;
    json_t *e;

    if (!keep || json_is_null(keep))
        return;
    sk_jptr_push_key(d->ptr, "keep");
    if (!json_is_array(keep) || json_array_size(keep) > BATTLE_DECK_MAX) {
        sk_jdec_bad(d, "'keep' must be a list of at most %d card names", BATTLE_DECK_MAX);
        sk_jptr_pop(d->ptr);
        return;
    }
    json_array_foreach(keep, i, e)
    {
        int idx;
        sk_jptr_push_index(d->ptr, i);
        idx = kept_card(d, cat, job, e);
        if (idx >= 0 && ++job->cards[idx].keep > battle_opt_copies(&job->start, idx))
            sk_jdec_bad(d, "card \"%s\" is kept %d times but the starting deck has it %d times",
                        job->cards[idx].name, job->cards[idx].keep,
                        battle_opt_copies(&job->start, idx));
        sk_jptr_pop(d->ptr);
    }
    sk_jptr_pop(d->ptr);
}

/* factions: the names of the factions every deck card must belong to ("none" for the
 * project's own and inline cards, which have no faction), each once; the starting deck's
 * cards must already. The commander is not subject to it: the game's faction effects
 * (legion, coalition, allegiance, faction filters) count the assaults on the field. */
static void decode_factions(struct sk_jdec *d, const json_t *c, struct opt_job *job)
{
    const json_t *list = json_object_get(c, "factions");
    int errs_before = d->n_err;
    size_t i;
    json_t *e;

    if (!list || json_is_null(list))
        return;
    sk_jptr_push_key(d->ptr, "factions");
    if (!json_is_array(list) || json_array_size(list) < 1 ||
        json_array_size(list) > OPT_FACTIONS_MAX) {
        sk_jdec_bad(d, "'factions' must be a list of 1 to %d faction names", OPT_FACTIONS_MAX);
        sk_jptr_pop(d->ptr);
        return;
    }
    json_array_foreach(list, i, e)
    {
        const char *name = json_string_value(e);
        int f = -1;
        for (int k = 0; name && k < OPT_FACTIONS_MAX && f < 0; k++)
            if (strcmp(name, battle_tu_faction_name(k)) == 0)
                f = k;
        sk_jptr_push_index(d->ptr, i);
        if (f < 0)
            sk_jdec_bad(d, "a faction is one of none, imperial, raider, bloodthirsty, xeno, "
                           "righteous, progenitor");
        else if (job->factions & (1u << f))
            sk_jdec_bad(d, "faction \"%s\" is listed twice", name);
        else
            job->factions |= 1u << f;
        sk_jptr_pop(d->ptr);
    }
    for (int p = 0; d->n_err == errs_before && p < job->start.n; p++) {
        const struct opt_card *card = &job->cards[job->start.cards[p]];
        if (!battle_opt_faction_ok(job, job->start.cards[p])) {
            sk_jdec_bad(d,
                        "the starting deck's card at position %d, \"%s\", is of faction %s, "
                        "not one of 'factions'",
                        p, card->name, battle_tu_faction_name(card->faction));
            break;
        }
    }
    sk_jptr_pop(d->ptr);
}

/* The constraints, each checked against the starting deck. */
static void decode_constraints(struct sk_jdec *d, const json_t *params,
                               const struct battle_catalog *cat, struct opt_job *job)
{
    static const char *const commanders[] = {"fixed", "owned"};
    const json_t *c = json_object_get(params, "constraints");
    long long n;

    job->max_copies = BATTLE_DECK_MAX;
    job->size_min = job->start.n > 0 ? 1 : 0;
    job->size_max = job->start.n > 10 ? job->start.n : 10;
    if (!c || json_is_null(c))
        return;
    sk_jptr_push_key(d->ptr, "constraints");
    if (!json_is_object(c)) {
        sk_jdec_bad(d, "'constraints' must be an object");
        sk_jptr_pop(d->ptr);
        return;
    }
    sk_jdec_check_keys(d, c, constraint_keys);
    decode_size(d, c, job);
    if (sk_jdec_get_int(d, c, "freeze_first", 0, BATTLE_DECK_MAX, &n) > 0) {
        job->freeze_first = (int)n;
        if (job->freeze_first > job->start.n)
            sk_jdec_bad_at(d, "freeze_first",
                           "'freeze_first' (%d) is more than the starting deck's %d cards",
                           job->freeze_first, job->start.n);
        else if (job->freeze_first > job->size_max)
            sk_jdec_bad_at(d, "freeze_first", "'freeze_first' (%d) is above deck_size.max (%d)",
                           job->freeze_first, job->size_max);
    }
    if (sk_jdec_get_int(d, c, "max_copies", 1, BATTLE_DECK_MAX, &n) > 0) {
        job->max_copies = (int)n;
        for (int i = 0; i < job->n_cards; i++)
            if (battle_opt_copies(&job->start, i) > job->max_copies) {
                sk_jdec_bad_at(d, "max_copies",
                               "the starting deck has card \"%s\" %d times, above 'max_copies' %d",
                               job->cards[i].name, battle_opt_copies(&job->start, i),
                               job->max_copies);
                break;
            }
    }
    (void)sk_jdec_get_enum(d, c, "commander", commanders, 2, &job->commander_owned);
    decode_keep(d, c, cat, job);
    decode_factions(d, c, job);
    if (sk_jdec_get_int(d, c, "min_fusion_level", 0, OPT_FUSION_MAX, &n) > 0)
        job->min_fusion = (int)n;
    sk_jptr_pop(d->ptr);
}

/* A number field in (0, max]; absent keeps *out. */
static void get_positive(struct sk_jdec *d, const json_t *obj, const char *key, double max,
                         double *out)
{
    const json_t *v = json_object_get(obj, key);

    if (!v || json_is_null(v))
        return;
    if (!json_is_number(v) || !(json_number_value(v) > 0) || json_number_value(v) > max) {
        sk_jdec_bad_at(d, key, "'%s' must be a number above 0 and at most %g", key, max);
        return;
    }
    *out = json_number_value(v);
}

/* An optional object field: 1 when present and an object (its keys checked, the pointer
 * pushed: the caller pops), else 0 (absent, or reported). */
static int open_object(struct sk_jdec *d, const json_t *params, const char *key,
                       const char *const *keys)
{
    const json_t *v = json_object_get(params, key);

    if (!v || json_is_null(v))
        return 0;
    if (!json_is_object(v)) {
        sk_jdec_bad_at(d, key, "'%s' must be an object", key);
        return 0;
    }
    sk_jptr_push_key(d->ptr, key);
    sk_jdec_check_keys(d, v, keys);
    return 1;
}

/* objective, algorithm, budget, race, eval_games, temperature. */
static void decode_search(struct sk_jdec *d, const json_t *params, struct opt_job *job)
{
    static const char *const objectives[] = {"win", "win_stall", "points"};
    static const char *const algorithms[] = {"climb", "anneal", "reorder"};
    int v = 0;
    long long n;

    if (sk_jdec_get_enum(d, params, "objective", objectives, 3, &v) > 0)
        job->objective = (enum opt_objective)v;
    /* The battle codec reads the scoring's value; here only whether it means anything. */
    if (json_object_get(params, "scoring") && !json_is_null(json_object_get(params, "scoring")) &&
        job->objective != OPT_OBJ_POINTS)
        sk_jdec_bad_at(d, "scoring", "'scoring' counts only with \"objective\": \"points\"");
    v = 0;
    if (sk_jdec_get_enum(d, params, "algorithm", algorithms, 3, &v) > 0)
        job->algorithm = (enum opt_algorithm)v;
    job->budget_games = OPT_BUDGET_GAMES_DEF;
    if (open_object(d, params, "budget", budget_keys)) {
        const json_t *b = json_object_get(params, "budget");
        if (sk_jdec_get_int(d, b, "games", (long long)OPT_BUDGET_GAMES_MIN,
                            (long long)OPT_BUDGET_GAMES_MAX, &n) > 0)
            job->budget_games = (uint64_t)n;
        if (sk_jdec_get_int(d, b, "seconds", 1, OPT_BUDGET_SECONDS_MAX, &n) > 0)
            job->budget_seconds = (int)n;
        /* a score as the result reads it: a fraction of games, or points */
        job->target = -1;
        get_positive(d, b, "target", job->objective == OPT_OBJ_POINTS ? BATTLE_POINTS_MAX : 1.0,
                     &job->target);
        job->has_target = job->target > 0;
        job->target = job->has_target ? job->target * battle_opt_score_unit(job) : 0;
        sk_jptr_pop(d->ptr);
    }
    job->race_batch = OPT_RACE_BATCH_DEF;
    job->race_max = OPT_RACE_MAX_DEF;
    if (open_object(d, params, "race", race_keys)) {
        const json_t *r = json_object_get(params, "race");
        if (sk_jdec_get_int(d, r, "batch", OPT_RACE_BATCH_MIN, OPT_RACE_BATCH_MAX, &n) > 0)
            job->race_batch = (uint64_t)n;
        if (sk_jdec_get_int(d, r, "max_games", OPT_RACE_BATCH_MIN, OPT_RACE_MAX_MAX, &n) > 0)
            job->race_max = (uint64_t)n;
        if (job->race_max < job->race_batch)
            sk_jdec_bad_at(d, "max_games", "'max_games' (%llu) is below 'batch' (%llu)",
                           (unsigned long long)job->race_max, (unsigned long long)job->race_batch);
        sk_jptr_pop(d->ptr);
    }
    job->eval_games = OPT_EVAL_GAMES_DEF;
    if (sk_jdec_get_int(d, params, "eval_games", OPT_EVAL_GAMES_MIN, OPT_EVAL_GAMES_MAX, &n) > 0)
        job->eval_games = (uint64_t)n;
    job->temperature = OPT_TEMPERATURE_DEF;
    get_positive(d, params, "temperature", OPT_TEMPERATURE_MAX, &job->temperature);
    if (sk_jdec_get_int(d, params, "fund", 0, OPT_FUND_MAX, &n) > 0)
        job->fund = (int)n;
}

/* 1 when the factions constraint leaves the search no deck card at all, or no move where
 * the other constraints alone leave one: the constraint to blame is then the factions. */
static int factions_infeasible(struct opt_job *job)
{
    unsigned factions = job->factions;
    int any_card = 0, moves_without;

    if (!factions)
        return 0;
    for (int c = 0; c < job->n_cards && !any_card; c++)
        any_card = job->cards[c].type != BATTLE_COMMANDER && battle_opt_faction_ok(job, c);
    if (!any_card)
        return 1;
    if (battle_opt_any_move(job, &job->start))
        return 0;
    job->factions = 0;
    moves_without = battle_opt_any_move(job, &job->start);
    job->factions = factions;
    return moves_without;
}

/* The checks that need the whole job: the algorithm's play and a move to make. */
static void check_feasible(struct sk_jdec *d, struct opt_job *job)
{
    if (job->play == BATTLE_PLAY_FLEX) {
        /* Each flexible turn plays dozens of look-ahead games: a search would play every
         * candidate deck at a few hundredths of the speed it is sized for. */
        sk_jdec_bad_at(d, "attacker",
                       "an optimize job's deck plays \"random\", \"ordered\" or \"exact\"; "
                       "\"flexible\" is for battle jobs");
        return;
    }
    if (job->algorithm == OPT_ALG_REORDER && job->play == BATTLE_PLAY_RANDOM) {
        sk_jdec_bad_at(d, "algorithm",
                       "'reorder' needs a deck played in order (\"play\": \"ordered\" or "
                       "\"exact\"): a random deck's order does not matter");
        return;
    }
    if (job->min_fusion > 0) {
        int any = 0;
        for (int c = 0; c < job->n_cards && !any; c++)
            any = job->cards[c].type != BATTLE_COMMANDER && job->cards[c].fusion >= job->min_fusion;
        if (!any) {
            sk_jptr_push_key(d->ptr, "constraints");
            sk_jdec_bad_at(d, "min_fusion_level",
                           "no card of the pool or the starting deck is a fusion of level %d or "
                           "above (the game's <fusion_level>: 1 a dual, 2 a quad; the built-in and "
                           "inline cards are 0): the search could bring no card in",
                           job->min_fusion);
            sk_jptr_pop(d->ptr);
            return;
        }
    }
    if (factions_infeasible(job)) {
        sk_jptr_push_key(d->ptr, "constraints");
        sk_jdec_bad_at(d, "factions",
                       "the factions leave the search no move: no card of theirs in the pool or "
                       "the starting deck can be added, removed or swapped");
        sk_jptr_pop(d->ptr);
    } else if (!battle_opt_any_move(job, &job->start)) {
        sk_jdec_bad_at(d, "constraints",
                       "the constraints leave the search no move: no card of the pool can be "
                       "added, removed, swapped%s from the starting deck",
                       job->play != BATTLE_PLAY_RANDOM ? " or moved" : "");
    }
}

enum sk_err battle_opt_decode(const json_t *params, uint64_t seed,
                              const struct battle_catalog *catalog, struct sk_jptr *ptr,
                              struct sk_verr_list *errs, struct opt_job *out)
{
    struct sk_jdec d = {ptr, errs, 0};
    struct battle_mix mix;
    struct opt_job job;
    int cap = 0;
    enum sk_err err;
    const char *unlike = NULL; /* why the attacker is no deck a player holds */

    memset(&job, 0, sizeof(job));
    job.seed = seed;
    if (!json_is_object(params)) {
        sk_jdec_bad(&d, "'params' must be an object");
        return SK_EINVAL;
    }
    sk_jdec_check_keys(&d, params, opt_keys);
    job.base = battle_base(params);
    if (!job.base)
        return SK_ENOMEM;
    /* the battle's fields, with the battle's pointers and messages */
    err = battle_codec_decode_mix(job.base, seed, catalog, ptr, errs, &mix);
    if (err == SK_ENOMEM)
        goto out;
    if (err == SK_OK && (mix.specs[0].sides[0].n_pools || mix.specs[0].sides[0].upgrades)) {
        /* The optimiser changes the attacker's deck list: one drawn anew each game has none. */
        sk_jdec_bad_at(&d, "attacker",
                       "the deck to optimise is a list of cards, not a mission or raid that "
                       "draws its cards each game");
        battle_codec_mix_release(&mix); /* the job fails below: d.n_err counts the problem */
    } else if (err == SK_OK && (unlike = start_unlike_a_deck(&mix.specs[0])) != NULL) {
        sk_jdec_bad_at(&d, "attacker",
                       "the deck to optimise is a list of cards a player can hold, not a "
                       "mission or raid that %s",
                       unlike);
        battle_codec_mix_release(&mix);
    } else if (err == SK_OK) {
        job.scoring = mix.specs[0].scoring; /* one scoring for every defender deck */
        /* The starting deck's plans: a defender whose plan the engine refuses (a raid whose
         * Enhance makes too many variants) is a 422 now, not a search that fails. */
        err = battle_codec_check_plans(&mix, errs);
        if (err == SK_EINVAL) {
            d.n_err++;
            err = SK_OK;
        }
        if (!err)
            err = take_start(&job, &cap, &mix);
        battle_codec_mix_release(&mix);
        if (err)
            goto out;
    } else {
        d.n_err++;
    }
    decode_search(&d, params, &job);
    (void)sk_jdec_get_bool(&d, params, "allow_unobtainable", &job.allow_unobtainable);
    if (job.n_cards > 0) { /* the start decoded: the rest is checked against it */
        err = decode_pool(&d, params, catalog, &job, &cap);
        if (!err)
            err = decode_fund(&d, catalog, &job, &cap);
        if (err)
            goto out;
        decode_constraints(&d, params, catalog, &job);
        if (d.n_err == 0)
            check_feasible(&d, &job);
    }
    err = d.n_err ? SK_EINVAL : SK_OK;
    if (!err) {
        json_object_del(job.base, "attacker");
        *out = job;
        memset(&job, 0, sizeof(job));
    }
out:
    battle_opt_job_release(&job);
    return err;
}
