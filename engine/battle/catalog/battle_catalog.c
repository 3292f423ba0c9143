/* SPDX-License-Identifier: MIT */
/* The battle card catalog (see battle_catalog.h): parsing and validation through the
 * codec's card decoder, a name-sorted table for binary search, and the process-wide copy
 * loaded from $SKIRMISH_CARDS_FILE or the built-in data/cards.json. */
#include "battle_catalog.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battle.h"
#include "battle_bge.h"
#include "battle_cards.h"
#include "battle_rules.h"
#include "battle_store.h"
#include "sk_buf.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_parse.h"
#include "sk_suggest.h"

#include "sk_banned.h"

/* data/cards.json, NUL-terminated, compiled into sk_engine by sk_embed (cmake/SkEmbed.cmake)
 * so that no binary depends on its working directory. */
extern const char battle_catalog_data_json[];

/* A cards file larger than this is refused before it is read into memory. */
#define CATALOG_FILE_MAX (16u << 20) /* 16 MiB */

/* A card's name as the peer compares names: lowercase, without spaces and ;:,"'! */
struct loose_key {
    char key[BATTLE_NAME_MAX + 1];
    size_t i; /* index into cards */
};

/* A mission's or raid's name as the peer compares names, and its place in the files. */
struct enemy_key {
    char key[BATTLE_NAME_MAX + 1];
    int kind;
    size_t order; /* file order: of two records of one name the later wins */
    size_t i;     /* index into enemies */
};

/* Where a catalog's missions and raids stand. READY is 0, what sk_calloc gives: a catalog
 * not of the game's folder has none to parse. */
enum enemies_state { ENEMIES_READY = 0, ENEMIES_PENDING, ENEMIES_FAILED };

/* Held while a catalog's missions and raids are parsed: one lock for all catalogs, as a
 * parse happens at most once per catalog. */
static pthread_mutex_t enemies_lock = PTHREAD_MUTEX_INITIALIZER;

struct battle_catalog {
    size_t n;
    struct battle_card_spec *cards; /* owned; sorted by name (strcmp) */
    size_t *by_id;                  /* owned; indices of the game's cards, sorted by id */
    size_t n_ids;
    struct loose_key *by_key;         /* owned; n entries sorted by key, then index */
    struct battle_tu_recipe *recipes; /* owned; sorted by card id */
    size_t n_recipes;
    int has_recipes; /* the game's fusion_recipes_cj2.xml was read */
    char source[256];
    char hash[32];
    /* The missions and raids: a catalog of the game's folder reads (and hashes) their files
     * at load and parses them on first use (enemies_ready), as few jobs name one and the
     * parse was about a quarter of the load's CPU. Until enemies_state is ENEMIES_READY,
     * only enemies_ready, under enemies_lock, touches the fields below. */
    atomic_int enemies_state;                 /* enum enemies_state */
    struct battle_missions_files enemy_files; /* owned; ENEMIES_PENDING: still to parse */
    char enemies_err[300];                    /* ENEMIES_FAILED: why */
    struct battle_enemy *enemies;             /* owned; sorted by kind, then id */
    size_t n_enemies;
    struct enemy_key *enemy_keys; /* owned; n_enemies entries sorted by kind, key, order */
    struct battle_bges bges;      /* owned; the folder's named battleground effects */
    struct battle_named named;    /* owned; the folder's named decks and abbreviations */
    atomic_int refs; /* references of the process's catalogs (battle_catalog_current) */
};

static int card_cmp(const void *a, const void *b)
{
    return strcmp(((const struct battle_card_spec *)a)->name,
                  ((const struct battle_card_spec *)b)->name);
}

static int key_cmp(const void *a, const void *b)
{
    const struct loose_key *x = a, *y = b;
    int d = strcmp(x->key, y->key);
    return d ? d : (x->i > y->i) - (x->i < y->i);
}

/* Context-free comparators for qsort and bsearch over by_id need the cards: by_id holds
 * indices, so it is built sorted by (id) through a temporary array of pairs. */
struct id_pair {
    int id;
    size_t i;
};

static int id_pair_cmp(const void *a, const void *b)
{
    const struct id_pair *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* Builds by_id and by_key for the sorted cards. */
static enum sk_err build_indexes(struct battle_catalog *cat)
{
    struct id_pair *pairs = NULL;
    size_t n = 0;

    cat->by_key = sk_calloc(cat->n ? cat->n : 1, sizeof(*cat->by_key));
    pairs = sk_calloc(cat->n ? cat->n : 1, sizeof(*pairs));
    cat->by_id = sk_calloc(cat->n ? cat->n : 1, sizeof(*cat->by_id));
    if (!cat->by_key || !pairs || !cat->by_id) {
        sk_free(pairs);
        return SK_ENOMEM;
    }
    for (size_t i = 0; i < cat->n; i++) {
        battle_tu_simplify(cat->cards[i].name, cat->by_key[i].key);
        cat->by_key[i].i = i;
        if (cat->cards[i].id > 0)
            pairs[n++] = (struct id_pair){cat->cards[i].id, i};
    }
    qsort(cat->by_key, cat->n, sizeof(*cat->by_key), key_cmp);
    qsort(pairs, n, sizeof(*pairs), id_pair_cmp);
    for (size_t k = 0; k < n; k++)
        cat->by_id[k] = pairs[k].i;
    cat->n_ids = n;
    sk_free(pairs);
    return SK_OK;
}

static void set_hash(struct battle_catalog *cat, uint64_t h)
{
    snprintf(cat->hash, sizeof(cat->hash), "fnv1a64:%016llx", (unsigned long long)h);
}

enum sk_err battle_catalog_new(const char *text, size_t len, struct battle_catalog **out,
                               struct sk_verr_list *errs)
{
    struct battle_catalog *cat = NULL;
    json_t *doc = NULL;
    json_error_t jerr;
    struct sk_jptr ptr;
    size_t i;
    json_t *v;
    int bad = 0;
    enum sk_err err = SK_OK;

    doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc) {
        /* jansson reports allocation failure as a syntax error too; tell them apart. */
        if (json_error_code(&jerr) == json_error_out_of_memory) {
            err = SK_ENOMEM;
            goto out;
        }
        sk_verr_add(errs, "", "invalid JSON at line %d column %d: %s", jerr.line, jerr.column,
                    jerr.text);
        err = SK_EINVAL;
        goto out;
    }
    if (!json_is_array(doc)) {
        err = sk_verr_add(errs, "", "the catalog must be a JSON array of cards");
        goto out;
    }
    if (json_array_size(doc) > BATTLE_CATALOG_MAX) {
        err = sk_verr_add(errs, "", "a catalog holds at most %d cards, not %zu", BATTLE_CATALOG_MAX,
                          json_array_size(doc));
        goto out;
    }
    cat = sk_calloc(1, sizeof(*cat));
    if (cat)
        cat->cards = sk_calloc(json_array_size(doc), sizeof(*cat->cards));
    if (!cat || !cat->cards) {
        err = SK_ENOMEM;
        goto out;
    }
    sk_jptr_init(&ptr);
    json_array_foreach(doc, i, v)
    {
        sk_jptr_push_index(&ptr, i);
        if (battle_cards_decode(v, &ptr, errs, &cat->cards[cat->n]) == SK_OK) {
            for (size_t k = 0; k < cat->n; k++) {
                if (strcmp(cat->cards[k].name, cat->cards[cat->n].name) == 0) {
                    sk_jptr_push_key(&ptr, "name");
                    sk_verr_add(errs, sk_jptr_str(&ptr), "card \"%s\" is defined twice",
                                cat->cards[k].name);
                    sk_jptr_pop(&ptr);
                    bad = 1;
                    break;
                }
            }
            cat->n++;
        } else {
            bad = 1;
        }
        sk_jptr_pop(&ptr);
    }
    if (bad) {
        err = SK_EINVAL;
        goto out;
    }
    qsort(cat->cards, cat->n, sizeof(*cat->cards), card_cmp);
    err = build_indexes(cat);
    if (err)
        goto out;
    snprintf(cat->source, sizeof(cat->source), "json");
    set_hash(cat, battle_tu_fnv1a(BATTLE_TU_FNV_SEED, text, len));
    *out = cat;
    cat = NULL;
out:
    battle_catalog_free(cat);
    json_decref(doc);
    return err;
}

/* A card's place in the name order: the first 8 bytes of its name as a big-endian number
 * (compared as strcmp compares them, a name's end as 0) decide most comparisons without
 * reading the card, which is what the sort's time went to: 54k cards of 544 bytes are
 * 30 MB, and each strcmp read two of them. */
struct name_order {
    uint64_t prefix;
    struct battle_card_spec *card; /* NULL once moved (sort_cards) */
};

static uint64_t name_prefix(const char *name)
{
    uint64_t v = 0;

    for (int i = 0; i < 8; i++) {
        unsigned char c = (unsigned char)*name;
        v = v << 8 | c;
        name += c != 0; /* past the end, zeros */
    }
    return v;
}

/* By name (strcmp), then by place in the array: the order a stable sort of the names
 * gives, whatever the C library's qsort (cards of one name are renamed in that order). */
static int name_order_cmp(const void *a, const void *b)
{
    const struct name_order *x = a, *y = b;
    int d;

    if (x->prefix != y->prefix)
        return x->prefix < y->prefix ? -1 : 1;
    d = (x->prefix & 0xff) ? strcmp(x->card->name + 8, y->card->name + 8) : 0;
    return d ? d : (x->card > y->card) - (x->card < y->card);
}

/* Sorts the cards by name. A card is about 500 bytes: qsort would move each many times, so
 * their places are sorted, then the cards are moved once each, in place, cycle by cycle of
 * the permutation. In place because a second array of the game's 54k cards (30 MB) cost
 * more than the sort: on a VM every first touch of a page is a costly fault, and the
 * copy's faults were a third of a catalog's load (bench/RESULTS.md, "Card loading"). */
static enum sk_err sort_cards(struct battle_catalog *cat)
{
    struct name_order *order = sk_malloc((cat->n ? cat->n : 1) * sizeof(*order));
    struct battle_card_spec *cards = cat->cards, tmp;

    if (!order)
        return SK_ENOMEM;
    for (size_t i = 0; i < cat->n; i++)
        order[i] = (struct name_order){name_prefix(cards[i].name), &cards[i]};
    qsort(order, cat->n, sizeof(*order), name_order_cmp);
    /* order[i].card goes to place i */
    for (size_t i = 0; i < cat->n; i++) {
        size_t j = i;
        if (!order[i].card || order[i].card == &cards[i])
            continue;
        tmp = cards[i];
        while (order[j].card != &cards[i]) {
            size_t from = (size_t)(order[j].card - cards);
            cards[j] = *order[j].card;
            order[j].card = NULL;
            j = from;
        }
        cards[j] = tmp;
        order[j].card = NULL;
    }
    sk_free(order);
    return SK_OK;
}

enum sk_err battle_catalog_from_tu(struct battle_tu_data *data, const char *source,
                                   struct battle_catalog **out)
{
    struct battle_catalog *cat = sk_calloc(1, sizeof(*cat));
    enum sk_err err = SK_OK;
    int renamed = 0;

    if (!cat) {
        battle_tu_data_release(data);
        return SK_ENOMEM;
    }
    cat->cards = data->cards;
    cat->n = data->n_cards;
    cat->recipes = data->recipes;
    cat->n_recipes = data->n_recipes;
    cat->has_recipes = data->has_recipes;
    set_hash(cat, data->hash);
    snprintf(cat->source, sizeof(cat->source), "%s", source);
    memset(data, 0, sizeof(*data));
    err = sort_cards(cat);
    if (err) {
        battle_catalog_free(cat);
        return err;
    }
    /* battle_tu names units apart; an upgrade that renames its level could still meet
     * another card's name: the later id then carries its id, as duplicates do. */
    for (size_t i = 1; i < cat->n; i++) {
        if (strcmp(cat->cards[i - 1].name, cat->cards[i].name) == 0) {
            char name[BATTLE_NAME_MAX + 1];
            memcpy(name, cat->cards[i].name, sizeof(name));
            snprintf(cat->cards[i].name, sizeof(cat->cards[i].name), "%.48s [%d]", name,
                     cat->cards[i].id);
            renamed = 1;
        }
    }
    if (renamed)
        err = sort_cards(cat);
    if (!err)
        err = build_indexes(cat);
    if (err) {
        battle_catalog_free(cat);
        return err;
    }
    *out = cat;
    return SK_OK;
}

void battle_catalog_free(struct battle_catalog *cat)
{
    if (!cat)
        return;
    sk_free(cat->cards);
    sk_free(cat->by_id);
    sk_free(cat->by_key);
    sk_free(cat->recipes);
    battle_missions_files_release(&cat->enemy_files);
    sk_free(cat->enemies);
    sk_free(cat->enemy_keys);
    battle_bge_release(&cat->bges);
    battle_named_release(&cat->named);
    sk_free(cat);
}

size_t battle_catalog_count(const struct battle_catalog *cat)
{
    return cat->n;
}

const struct battle_card_spec *battle_catalog_at(const struct battle_catalog *cat, size_t i)
{
    return i < cat->n ? &cat->cards[i] : NULL;
}

const struct battle_card_spec *battle_catalog_find(const struct battle_catalog *cat,
                                                   const char *name)
{
    struct battle_card_spec key;
    size_t len = strlen(name);

    if (len > BATTLE_NAME_MAX)
        return NULL;
    memcpy(key.name, name, len + 1);
    return bsearch(&key, cat->cards, cat->n, sizeof(*cat->cards), card_cmp);
}

const struct battle_card_spec *battle_catalog_find_id(const struct battle_catalog *cat, int id)
{
    size_t lo = 0, hi = cat->n_ids;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int have = cat->cards[cat->by_id[mid]].id;
        if (have == id)
            return &cat->cards[cat->by_id[mid]];
        if (have < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The first card whose loose key is `key`, or NULL. */
static const struct battle_card_spec *find_key(const struct battle_catalog *cat, const char *key)
{
    size_t lo = 0, hi = cat->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(cat->by_key[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < cat->n && strcmp(cat->by_key[lo].key, key) == 0 ? &cat->cards[cat->by_key[lo].i]
                                                                : NULL;
}

/* The length of `name` without a "-N" level suffix, with *level = N (1..BATTLE_LEVELS_MAX);
 * the whole length and *level = 0 when it has none; -1 when its number is out of range. */
static long split_level(const char *name, int *level)
{
    const char *dash = strrchr(name, '-');
    int64_t n = 0;

    *level = 0;
    if (!dash || !dash[1] || strspn(dash + 1, "0123456789") != strlen(dash + 1))
        return (long)strlen(name);
    if (sk_parse_i64(dash + 1, 1, BATTLE_LEVELS_MAX, &n) != SK_OK)
        return -1;
    *level = (int)n;
    return (long)(dash - name);
}

/* "Name-N" with N the top level: the top level is written without its number. */
static const struct battle_card_spec *find_level(const struct battle_catalog *cat, const char *name)
{
    const struct battle_card_spec *c;
    char base[BATTLE_NAME_MAX + 1], key[BATTLE_NAME_MAX + 1];
    int level = 0;
    long len = split_level(name, &level);

    if (len < 0 || !level)
        return NULL;
    snprintf(base, sizeof(base), "%.*s", (int)len, name);
    battle_tu_simplify(base, key);
    c = find_key(cat, key);
    if (c && c->n_levels > 0 && c->level == c->n_levels && level == c->level)
        return c;
    return NULL;
}

int battle_catalog_id_ref(const char *name, int *id)
{
    size_t len = strlen(name);
    char digits[BATTLE_NAME_MAX + 1];
    int64_t v = 0;

    *id = 0;
    if (len < 2 || name[0] != '[' || name[len - 1] != ']')
        return 0;
    if (len - 2 <= BATTLE_NAME_MAX && len > 2) {
        snprintf(digits, sizeof(digits), "%.*s", (int)(len - 2), name + 1);
        if (strspn(digits, "0123456789") == len - 2 &&
            sk_parse_i64(digits, 1, BATTLE_CATALOG_ID_MAX, &v) == SK_OK)
            *id = (int)v;
    }
    return 1;
}

const struct battle_card_spec *battle_catalog_find_loose(const struct battle_catalog *cat,
                                                         const char *name)
{
    const struct battle_card_spec *c = battle_catalog_find(cat, name);
    char key[BATTLE_NAME_MAX + 1];
    size_t len = strlen(name);
    int id = 0;

    if (c || len > BATTLE_NAME_MAX)
        return c;
    /* "[12345]": the card by id, in every place a card is named (docs/cards.md). */
    if (battle_catalog_id_ref(name, &id))
        return id ? battle_catalog_find_id(cat, id) : NULL;
    battle_tu_simplify(name, key);
    c = find_key(cat, key);
    if (c)
        return c;
    c = find_level(cat, name);
    if (c)
        return c;
    /* an abbreviation (cardabbrs.txt) of a card's name, as the peer reads them */
    {
        const struct battle_named_entry *a = battle_named_find(&cat->named.abbrs, name);
        if (a && strlen(a->text) <= BATTLE_NAME_MAX) {
            c = battle_catalog_find(cat, a->text);
            if (!c) {
                battle_tu_simplify(a->text, key);
                c = find_key(cat, key);
            }
            if (!c)
                c = find_level(cat, a->text);
        }
    }
    return c;
}

/* Edit distance between a and b, or a value above `max` once it must exceed it. */
static size_t distance(const char *a, const char *b, size_t max)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t row[BATTLE_NAME_MAX + 2];

    if ((la > lb ? la - lb : lb - la) > max)
        return max + 1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0], best;
        row[0] = i;
        best = row[0];
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t v = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < v)
                v = up + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            row[j] = v;
            diag = up;
            if (v < best)
                best = v;
        }
        if (best > max)
            return max + 1;
    }
    return row[lb];
}

/* "Name-N" or a plain "Name" whose unit names its level N (or, plain, its top level) with
 * another name: the game's files rename some levels (level 8 of Shard Controller is "Gilian
 * Shardkeeper-8", its top level "Gilian Shardkeeper"), and a player who counts levels from
 * the first one's name writes what no card is called. The card at that level, found from
 * "Name-1", or NULL. */
static const struct battle_card_spec *renamed_level(const struct battle_catalog *cat,
                                                    const char *name)
{
    const struct battle_card_spec *first;
    char base[BATTLE_NAME_MAX + 1], key[BATTLE_NAME_MAX + 1];
    int level = 0;
    long len = split_level(name, &level);

    if (len < 0 || len + 2 > BATTLE_NAME_MAX)
        return NULL;
    snprintf(base, sizeof(base), "%.*s-1", (int)len, name);
    battle_tu_simplify(base, key);
    first = find_key(cat, key);
    if (!first || first->n_levels < 2 || level > first->n_levels)
        return NULL;
    return battle_catalog_find_id(cat, first->level_ids[(level ? level : first->n_levels) - 1]);
}

void battle_catalog_suggest(const struct battle_catalog *cat, const char *name, char *out,
                            size_t outlen)
{
    char key[BATTLE_NAME_MAX + 1];
    size_t best = (size_t)-1, max;
    const struct battle_card_spec *pick = NULL;

    if (outlen)
        out[0] = '\0';
    if (strlen(name) > BATTLE_NAME_MAX || !outlen)
        return;
    pick = renamed_level(cat, name);
    if (pick) {
        snprintf(out, outlen, "%s", pick->name);
        return;
    }
    battle_tu_simplify(name, key);
    /* A typo, not another word: at most a quarter of the letters, and at least 1. */
    max = strlen(key) / 4 > 0 ? strlen(key) / 4 : 1;
    for (size_t i = 0; i < cat->n; i++) {
        size_t d = distance(key, cat->by_key[i].key, best < max ? best : max);
        if (d <= max && d < best) {
            best = d;
            pick = &cat->cards[cat->by_key[i].i];
        }
    }
    if (pick)
        snprintf(out, outlen, "%s", pick->name);
}

const char *battle_catalog_source(const struct battle_catalog *cat)
{
    return cat->source;
}

const char *battle_catalog_hash(const struct battle_catalog *cat)
{
    return cat->hash;
}

const struct battle_named *battle_catalog_named(const struct battle_catalog *cat)
{
    return &cat->named;
}

const struct battle_bges *battle_catalog_bges(const struct battle_catalog *cat)
{
    return &cat->bges;
}

static int recipe_id_cmp(const void *a, const void *b)
{
    int x = ((const struct battle_tu_recipe *)a)->card_id;
    int y = ((const struct battle_tu_recipe *)b)->card_id;
    return (x > y) - (x < y);
}

static const struct battle_tu_recipe *find_recipe(const struct battle_catalog *cat, int id)
{
    struct battle_tu_recipe key;
    key.card_id = id;
    return bsearch(&key, cat->recipes, cat->n_recipes, sizeof(key), recipe_id_cmp);
}

const struct battle_tu_recipe *battle_catalog_recipe(const struct battle_catalog *cat, int id)
{
    return find_recipe(cat, id);
}

int battle_catalog_has_costs(const struct battle_catalog *cat)
{
    return cat->n_ids > 0 && cat->has_recipes;
}

/* Adds the game's facts of card `c` to its JSON object `obj`: levels and fusion recipe. */
static int put_game_facts(const struct battle_catalog *cat, const struct battle_card_spec *c,
                          json_t *obj)
{
    const struct battle_tu_recipe *r = find_recipe(cat, c->id);
    json_t *levels = json_array();
    json_t *fusion = NULL;

    if (!levels || json_object_set_new(obj, "levels", levels))
        return 1;
    for (int l = 0; l < c->n_levels; l++) {
        const struct battle_card_spec *lc = battle_catalog_find_id(cat, c->level_ids[l]);
        if (json_array_append_new(levels, json_pack("{s:i, s:i, s:s}", "level", l + 1, "id",
                                                    c->level_ids[l], "name", lc ? lc->name : "")))
            return 1;
    }
    if (!r)
        return 0;
    fusion = json_array();
    if (!fusion || json_object_set_new(obj, "fusion", fusion))
        return 1;
    for (int k = 0; k < r->n; k++) {
        const struct battle_card_spec *rc = battle_catalog_find_id(cat, r->res_id[k]);
        if (json_array_append_new(fusion, json_pack("{s:i, s:s, s:i}", "id", r->res_id[k], "name",
                                                    rc ? rc->name : "", "count", r->res_count[k])))
            return 1;
    }
    return 0;
}

json_t *battle_catalog_card_json(const struct battle_catalog *cat, size_t i)
{
    json_t *card = i < cat->n ? battle_cards_to_json(&cat->cards[i]) : NULL;

    if (card && cat->cards[i].id > 0 && put_game_facts(cat, &cat->cards[i], card)) {
        json_decref(card);
        return NULL;
    }
    return card;
}

json_t *battle_catalog_to_json(const struct battle_catalog *cat)
{
    json_t *arr = json_array();

    if (!arr)
        return NULL;
    for (size_t i = 0; i < cat->n; i++) {
        if (json_array_append_new(arr, battle_catalog_card_json(cat, i))) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

/* ===== Loading: the environment's file or the built-in copy ===== */

/* Reads the whole file `path` into a new NUL-terminated buffer. */
static enum sk_err read_file(const char *path, char **out, size_t *out_len, char *err,
                             size_t errlen)
{
    FILE *f = NULL;
    char chunk[16384];
    struct sk_buf buf;
    size_t got;
    enum sk_err rc = SK_OK;

    f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open cards file '%s': %s", path, strerror(errno));
        return SK_EIO;
    }
    sk_buf_init(&buf, CATALOG_FILE_MAX);
    while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0 && !sk_buf_add(&buf, chunk, got))
        ;
    if (buf.err == SK_ERANGE) {
        snprintf(err, errlen, "cards file '%s' is larger than %u bytes", path, CATALOG_FILE_MAX);
        rc = SK_EINVAL;
    } else if (buf.err) {
        snprintf(err, errlen, "out of memory reading cards file '%s'", path);
        rc = SK_ENOMEM;
    } else if (ferror(f)) {
        snprintf(err, errlen, "cannot read cards file '%s'", path);
        rc = SK_EIO;
    } else {
        size_t n = buf.len;
        char *text = sk_buf_take(&buf);
        if (text) {
            *out = text;
            *out_len = n;
        } else {
            snprintf(err, errlen, "out of memory reading cards file '%s'", path);
            rc = SK_ENOMEM;
        }
    }
    sk_buf_release(&buf);
    (void)fclose(f); /* read only: nothing is lost if closing fails */
    return rc;
}

/* Logs the importer's notes, one line each. */
static void log_notes(const char *dir, const struct sk_verr_list *notes)
{
    for (size_t i = 0; i < notes->n; i++) {
        char q[700];
        sk_log_warn("event=cards_note dir=%s at=%s note=%s", dir, notes->items[i].pointer,
                    sk_log_quote(q, sizeof(q), notes->items[i].message));
    }
    if (notes->truncated)
        sk_log_warn("event=cards_note dir=%s note=\"more notes than %d: the rest not shown\"", dir,
                    SK_VERR_MAX);
}

/* battle_named_drop_abbrs: an abbreviation may not hide a card's name. */
static int is_card(const void *arg, const char *name)
{
    const struct battle_catalog *cat = arg;
    char key[BATTLE_NAME_MAX + 1];
    if (battle_catalog_find(cat, name))
        return 1;
    if (strlen(name) > BATTLE_NAME_MAX)
        return 0;
    battle_tu_simplify(name, key);
    return find_key(cat, key) != NULL;
}

/* Loads the game's files in the folder `dir`: its cards, then its missions and raids (read
 * and hashed, parsed on first use: enemies_ready), named effects and decks (their notes in a
 * list of their own, so that the cards' cannot crowd them out); the notes go to the log. */
static enum sk_err load_files(const char *dir, struct battle_catalog **out, char *err,
                              size_t errlen)
{
    struct battle_tu_data data;
    struct battle_missions_files enemies;
    struct battle_bges bges;
    struct battle_named named;
    struct sk_verr_list notes, enemy_notes;
    enum sk_err rc;

    memset(&named, 0, sizeof(named));
    memset(&data, 0, sizeof(data));
    memset(&enemies, 0, sizeof(enemies));
    memset(&bges, 0, sizeof(bges));
    sk_verr_list_init(&notes);
    sk_verr_list_init(&enemy_notes);
    rc = battle_tu_load(dir, &data, &notes, err, errlen);
    /* The catalog's hash covers the enemy files and the named battleground effects too: a
     * job naming a mission or an effect reads them. The enemy files are only read here, and
     * kept: enemies_ready parses these bytes, the ones hashed, when a job first needs them. */
    if (!rc)
        rc = battle_missions_read(dir, &enemies, &data.hash, err, errlen);
    if (!rc)
        rc = battle_bge_load(dir, &bges, &data.hash, &enemy_notes, err, errlen);
    /* named decks and abbreviations change what a job's names mean: in the hash too */
    if (!rc)
        rc = battle_named_load(dir, &named, &data.hash, &enemy_notes, err, errlen);
    log_notes(dir, &notes);
    log_notes(dir, &enemy_notes);
    sk_verr_list_release(&notes);
    sk_verr_list_release(&enemy_notes);
    if (rc) {
        battle_tu_data_release(&data);
        battle_missions_files_release(&enemies);
        return rc;
    }
    rc = battle_catalog_from_tu(&data, dir, out);
    if (!rc) {
        struct sk_verr_list abbr_notes;
        /* not shared yet: the thread that hands the catalog out publishes these too */
        (*out)->enemy_files = enemies;
        memset(&enemies, 0, sizeof(enemies));
        atomic_store_explicit(&(*out)->enemies_state, ENEMIES_PENDING, memory_order_relaxed);
        (*out)->bges = bges;
        memset(&bges, 0, sizeof(bges));
        (*out)->named = named;
        memset(&named, 0, sizeof(named));
        sk_verr_list_init(&abbr_notes);
        battle_named_drop_abbrs(&(*out)->named, is_card, *out, &abbr_notes);
        log_notes(dir, &abbr_notes);
        sk_verr_list_release(&abbr_notes);
    }
    battle_missions_files_release(&enemies);
    battle_bge_release(&bges);
    battle_named_release(&named);
    if (rc == SK_ENOMEM)
        snprintf(err, errlen, "out of memory loading the cards folder '%s'", dir);
    return rc;
}

enum sk_err battle_catalog_load_dir(const char *dir, struct battle_catalog **out, char *err,
                                    size_t errlen)
{
    char files[PATH_MAX];
    enum sk_err rc = battle_store_current(dir, files, sizeof(files), err, errlen);

    if (rc == SK_ERANGE)
        snprintf(err, errlen, "%s: path too long", dir);
    if (rc)
        return rc == SK_ERANGE ? SK_EIO : rc;
    return load_files(files, out, err, errlen);
}

enum sk_err battle_catalog_load(struct battle_catalog **out, char *err, size_t errlen)
{
    const char *path = getenv(BATTLE_CATALOG_ENV);
    const char *dir = getenv(BATTLE_TU_ENV_DIR);
    const char *source = "built-in cards";
    char *text = NULL;
    size_t len = 0;
    struct sk_verr_list errs;
    enum sk_err rc;

    if (dir && *dir && path && *path) {
        snprintf(err, errlen, "%s and %s are both set: name one source of cards", BATTLE_TU_ENV_DIR,
                 BATTLE_CATALOG_ENV);
        return SK_EINVAL;
    }
    if (dir && *dir)
        return battle_catalog_load_dir(dir, out, err, errlen);
    sk_verr_list_init(&errs);
    if (path && *path) {
        rc = read_file(path, &text, &len, err, errlen);
        if (rc)
            goto out;
        source = path;
        rc = battle_catalog_new(text, len, out, &errs);
    } else {
        rc = battle_catalog_new(battle_catalog_data_json, strlen(battle_catalog_data_json), out,
                                &errs);
    }
    if (rc == SK_OK)
        snprintf((*out)->source, sizeof((*out)->source), "%s", path && *path ? path : "built-in");
    if (rc == SK_EINVAL) {
        /* The first problem is enough to find the spot; the rest follow from fixing it. */
        snprintf(err, errlen, "%s: %zu problem(s), first %s: %s", source, errs.n,
                 errs.n ? errs.items[0].pointer : "", errs.n ? errs.items[0].message : "");
    } else if (rc == SK_ENOMEM) {
        snprintf(err, errlen, "out of memory loading %s", source);
    }
out:
    sk_verr_list_release(&errs);
    sk_free(text);
    return rc;
}

/* ===== The process's catalogs =====
 *
 * `current` is the catalog new jobs are pinned to; `kept` holds others that jobs pinned to
 * them loaded (and former currents), least recently used first out once there are more
 * than keep_max and no job holds them. Each entry holds one reference; a caller holds its
 * own from battle_catalog_current or _get until battle_catalog_put. Loading (up to a
 * second for the game's folder) happens outside the lock. */
#define KEEP_DEFAULT 4
#define KEEP_LIMIT   64

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct battle_catalog *current;
static struct battle_catalog *kept[KEEP_LIMIT + 1];
static size_t n_kept;

static struct battle_catalog *take(const struct battle_catalog *cat)
{
    struct battle_catalog *c = (struct battle_catalog *)cat;
    atomic_fetch_add(&c->refs, 1);
    return c;
}

void battle_catalog_put(const struct battle_catalog *cat)
{
    struct battle_catalog *c = (struct battle_catalog *)cat;
    if (c && atomic_fetch_sub(&c->refs, 1) == 1)
        battle_catalog_free(c);
}

static size_t keep_max(void)
{
    const char *text = getenv(BATTLE_CATALOG_ENV_KEEP);
    uint64_t v;
    if (!text || sk_parse_u64(text, 1, KEEP_LIMIT, &v) != SK_OK)
        return KEEP_DEFAULT;
    return (size_t)v;
}

/* Adds `cat` (its reference moves to the list) as the most recently used; drops the least
 * recently used entries nobody else holds while there are too many. Under reg_lock. */
/* Takes entry i out of the list (its reference stays with the caller). Under reg_lock. */
static struct battle_catalog *kept_take(size_t i)
{
    struct battle_catalog *c = kept[i];
    for (; i + 1 < n_kept; i++)
        kept[i] = kept[i + 1];
    n_kept--;
    return c;
}

static void keep(struct battle_catalog *cat)
{
    size_t max = keep_max();
    if (n_kept == KEEP_LIMIT + 1) /* every entry held by jobs: the oldest goes anyway */
        battle_catalog_put(kept_take(0));
    kept[n_kept++] = cat;
    for (size_t i = 0; i < n_kept && n_kept > max;) {
        if (atomic_load(&kept[i]->refs) == 1)
            battle_catalog_put(kept_take(i));
        else
            i++;
    }
}

/* The kept entry with `hash`, moved to most recently used, or NULL. Under reg_lock. */
static struct battle_catalog *kept_find(const char *hash)
{
    for (size_t i = 0; i < n_kept; i++) {
        struct battle_catalog *c;
        if (strcmp(kept[i]->hash, hash) != 0)
            continue;
        c = kept_take(i);
        kept[n_kept++] = c;
        return c;
    }
    return NULL;
}

/* Loads the catalog of this process's settings with one reference. */
static enum sk_err load_current(struct battle_catalog **out, char *err, size_t errlen)
{
    enum sk_err rc = battle_catalog_load(out, err, errlen);
    if (!rc)
        atomic_store(&(*out)->refs, 1);
    return rc;
}

enum sk_err battle_catalog_current(const struct battle_catalog **out, char *err, size_t errlen)
{
    char scratch[8];
    enum sk_err rc = SK_OK;

    if (!err) {
        err = scratch;
        errlen = sizeof(scratch);
    }
    pthread_mutex_lock(&reg_lock);
    /* The first load is under the lock, so that a process loads its catalog once. */
    if (!current)
        rc = load_current(&current, err, errlen);
    if (!rc)
        *out = take(current);
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

/* The hash the built-in catalog has, without building it. */
static void builtin_hash(char out[32])
{
    const char *t = battle_catalog_data_json;
    snprintf(out, 32, "fnv1a64:%016llx",
             (unsigned long long)battle_tu_fnv1a(BATTLE_TU_FNV_SEED, t, strlen(t)));
}

/* Loads the catalog `hash` from where this process can find it: the built-in cards (every
 * process has them) or the catalog store of SKIRMISH_CARDS_DIR. SK_ENOTFOUND otherwise. */
static enum sk_err load_pinned(const char *hash, struct battle_catalog **out, char *err,
                               size_t errlen)
{
    const char *dir = getenv(BATTLE_TU_ENV_DIR);
    char path[PATH_MAX], builtin[32];
    struct sk_verr_list errs;
    enum sk_err rc;

    builtin_hash(builtin);
    if (strcmp(hash, builtin) == 0) {
        sk_verr_list_init(&errs);
        rc = battle_catalog_new(battle_catalog_data_json, strlen(battle_catalog_data_json), out,
                                &errs);
        sk_verr_list_release(&errs);
        if (!rc)
            snprintf((*out)->source, sizeof((*out)->source), "built-in");
    } else if (dir && *dir && battle_store_find(dir, hash, path, sizeof(path)) == SK_OK) {
        rc = load_files(path, out, err, errlen);
    } else {
        snprintf(err, errlen, "no catalog with hash %s here", hash);
        return SK_ENOTFOUND;
    }
    if (!rc && strcmp((*out)->hash, hash) != 0) {
        /* the store's folders are never changed: one that was is not the catalog asked for */
        snprintf(err, errlen, "the catalog store's folder for %s holds %s", hash, (*out)->hash);
        battle_catalog_free(*out);
        *out = NULL;
        return SK_ENOTFOUND;
    }
    if (!rc)
        atomic_store(&(*out)->refs, 1);
    return rc;
}

enum sk_err battle_catalog_get(const char *hash, const struct battle_catalog **out, char *err,
                               size_t errlen)
{
    struct battle_catalog *cat = NULL, *found;
    char scratch[8];
    enum sk_err rc;

    if (!hash)
        return battle_catalog_current(out, err, errlen);
    if (!err) {
        err = scratch;
        errlen = sizeof(scratch);
    }
    rc = battle_catalog_current(out, err, errlen); /* loads the first one if need be */
    if (rc)
        return rc;
    if (strcmp((*out)->hash, hash) == 0)
        return SK_OK;
    battle_catalog_put(*out);
    *out = NULL;
    pthread_mutex_lock(&reg_lock);
    found = kept_find(hash);
    if (found)
        *out = take(found);
    pthread_mutex_unlock(&reg_lock);
    if (found)
        return SK_OK;
    rc = load_pinned(hash, &cat, err, errlen);
    if (rc)
        return rc;
    pthread_mutex_lock(&reg_lock);
    found = kept_find(hash); /* another thread may have loaded it meanwhile */
    if (found) {
        battle_catalog_put(cat);
    } else {
        keep(cat);
        found = cat;
    }
    *out = take(found);
    pthread_mutex_unlock(&reg_lock);
    return SK_OK;
}

enum sk_err battle_catalog_for_job(const char *hash, const struct battle_catalog **out)
{
    char why[512], q[600];
    enum sk_err rc = battle_catalog_get(hash, out, why, sizeof(why));

    if (rc == SK_OK || rc == SK_ENOTFOUND || rc == SK_ENOMEM)
        return rc;
    sk_log_error("event=catalog_failed hash=%s err=%s", hash ? hash : "current",
                 sk_log_quote(q, sizeof(q), why));
    return SK_EINTERNAL;
}

int battle_catalog_refresh(int force, char *err, size_t errlen)
{
    const char *dir = getenv(BATTLE_TU_ENV_DIR);
    const struct battle_catalog *now = NULL;
    struct battle_catalog *fresh = NULL;
    char path[PATH_MAX];
    int changed = 0;

    if (battle_catalog_current(&now, err, errlen))
        return -1;
    /* A store says which folder is current: nothing to read while it names the same one.
     * Other sources are read again only when asked to (SIGHUP). */
    if (!force) {
        int same = !dir || !*dir || !battle_store_is_store(dir) ||
                   (battle_store_current(dir, path, sizeof(path), err, errlen) == SK_OK &&
                    strcmp(path, now->source) == 0);
        if (same) {
            battle_catalog_put(now);
            return 0;
        }
    }
    if (load_current(&fresh, err, errlen)) {
        battle_catalog_put(now);
        return -1;
    }
    pthread_mutex_lock(&reg_lock);
    if (strcmp(fresh->hash, current->hash) != 0) {
        struct battle_catalog *old = current, *again = kept_find(fresh->hash);
        if (again) { /* back to a kept one: that copy (kept_find put it last) is the one
                      * jobs hold, and it leaves the list to be the current */
            n_kept--;
            battle_catalog_put(fresh);
            fresh = again;
        }
        current = fresh;
        keep(old);
        changed = 1;
    } else {
        battle_catalog_put(fresh);
    }
    pthread_mutex_unlock(&reg_lock);
    battle_catalog_put(now);
    return changed;
}

json_t *battle_catalog_hashes(void)
{
    json_t *arr = json_array();
    const char *dir = getenv(BATTLE_TU_ENV_DIR);
    char builtin[32];
    int bad = !arr;

    pthread_mutex_lock(&reg_lock);
    if (current)
        bad |= json_array_append_new(arr, json_string(current->hash));
    for (size_t i = n_kept; i-- > 0;)
        bad |= json_array_append_new(arr, json_string(kept[i]->hash));
    pthread_mutex_unlock(&reg_lock);
    builtin_hash(builtin);
    bad |= json_array_append_new(arr, json_string(builtin));
    /* the store's other catalogs: this process loads any of them when a job asks */
    if (!bad && dir && *dir && battle_store_is_store(dir)) {
        char cats[PATH_MAX];
        DIR *d;
        struct dirent *e;
        snprintf(cats, sizeof(cats), "%s/%s", dir, BATTLE_STORE_CATALOGS);
        d = opendir(cats);
        while (d && !bad && (e = readdir(d))) {
            char hash[64];
            if (strlen(e->d_name) != 16)
                continue;
            snprintf(hash, sizeof(hash), "%s%.16s", BATTLE_STORE_HASH_PREFIX, e->d_name);
            bad |= json_array_append_new(arr, json_string(hash));
        }
        if (d)
            (void)closedir(d); /* read only */
    }
    if (bad) {
        json_decref(arr);
        return NULL;
    }
    /* unique, first place kept: the current first */
    for (size_t i = 1; i < json_array_size(arr);) {
        const char *h = json_string_value(json_array_get(arr, i));
        int dup = 0;
        for (size_t j = 0; j < i && !dup; j++)
            dup = strcmp(h, json_string_value(json_array_get(arr, j))) == 0;
        if (dup)
            json_array_remove(arr, i);
        else
            i++;
    }
    return arr;
}

/* ===== The game's missions and raids ===== */

/* Sorts records by kind, then id; ties keep file order (each file holds one kind). */
static int enemy_cmp(const void *a, const void *b)
{
    const struct battle_enemy *x = a, *y = b;
    if (x->kind != y->kind)
        return (x->kind > y->kind) - (x->kind < y->kind);
    if (x->id != y->id)
        return (x->id > y->id) - (x->id < y->id);
    return (x->line > y->line) - (x->line < y->line);
}

static int enemy_key_cmp(const void *a, const void *b)
{
    const struct enemy_key *x = a, *y = b;
    int d;
    if (x->kind != y->kind)
        return (x->kind > y->kind) - (x->kind < y->kind);
    d = strcmp(x->key, y->key);
    return d ? d : (x->order > y->order) - (x->order < y->order);
}

/* Indexes the records of `data` into `cat` (the array is taken over and `data` zeroed, also
 * on failure), replacing any it had. SK_OK or SK_ENOMEM. */
static enum sk_err install_enemies(struct battle_catalog *cat, struct battle_missions_data *data)
{
    struct enemy_key *keys = NULL;
    size_t n = data->n;

    keys = sk_calloc(n ? n : 1, sizeof(*keys));
    if (!keys) {
        battle_missions_release(data);
        return SK_ENOMEM;
    }
    qsort(data->items, n, sizeof(*data->items), enemy_cmp);
    for (size_t i = 0; i < n; i++) {
        struct battle_enemy *e = &data->items[i];
        /* Each file holds one kind, so within a kind the line is the file order, which
         * decides between two records of one name. */
        keys[i].order = (size_t)e->line;
        battle_tu_simplify(e->name, keys[i].key);
        keys[i].kind = e->kind;
        keys[i].i = i;
    }
    qsort(keys, n, sizeof(*keys), enemy_key_cmp);
    sk_free(cat->enemies);
    sk_free(cat->enemy_keys);
    cat->enemies = data->items;
    cat->n_enemies = n;
    cat->enemy_keys = keys;
    memset(data, 0, sizeof(*data));
    return SK_OK;
}

enum sk_err battle_catalog_set_enemies(struct battle_catalog *cat,
                                       struct battle_missions_data *data)
{
    enum sk_err rc = install_enemies(cat, data);

    /* what the folder held, were it still to parse, is replaced */
    battle_missions_files_release(&cat->enemy_files);
    cat->enemies_err[0] = '\0';
    atomic_store_explicit(&cat->enemies_state, ENEMIES_READY, memory_order_release);
    return rc;
}

/* Parses the missions and raids of `cat` the first time they are asked for (the files' bytes
 * were read and hashed with the catalog, so what is parsed is what its hash names), and logs
 * the parse's notes as the load logs the others. Returns ENEMIES_READY or ENEMIES_FAILED
 * (enemies_err says why; nothing is left to parse: the bytes will not change), or
 * ENEMIES_PENDING after running out of memory (tried again by the next caller). */
static int enemies_ready(const struct battle_catalog *ccat)
{
    /* A catalog is const to those it is handed to; its missions and raids are filled in once,
     * under enemies_lock, and seen by others only through enemies_state (release, acquire). */
    struct battle_catalog *cat = (struct battle_catalog *)ccat;
    struct battle_missions_data data;
    struct sk_verr_list notes;
    char err[sizeof(cat->enemies_err)] = "";
    enum sk_err rc;
    int state = atomic_load_explicit(&cat->enemies_state, memory_order_acquire);

    if (state != ENEMIES_PENDING)
        return state;
    pthread_mutex_lock(&enemies_lock);
    state = atomic_load_explicit(&cat->enemies_state, memory_order_acquire);
    if (state != ENEMIES_PENDING)
        goto out;
    sk_verr_list_init(&notes);
    rc = battle_missions_parse(cat->source, &cat->enemy_files, &data, &notes, err, sizeof(err));
    log_notes(cat->source, &notes);
    sk_verr_list_release(&notes);
    if (!rc)
        rc = install_enemies(cat, &data);
    if (rc == SK_ENOMEM) {
        sk_log_warn("event=missions_failed dir=%s err=\"out of memory\"", cat->source);
        goto out;
    }
    battle_missions_files_release(&cat->enemy_files);
    state = rc ? ENEMIES_FAILED : ENEMIES_READY;
    if (rc) {
        char q[400];
        /* a warning, as the notes are: whoever asked gets the reason itself (a job's 422,
         * the listing's 500, `skirmish cards update` refusing the files) */
        snprintf(cat->enemies_err, sizeof(cat->enemies_err), "%s", err);
        sk_log_warn("event=missions_failed dir=%s err=%s", cat->source,
                    sk_log_quote(q, sizeof(q), err));
    }
    atomic_store_explicit(&cat->enemies_state, state, memory_order_release);
out:
    pthread_mutex_unlock(&enemies_lock);
    return state;
}

enum sk_err battle_catalog_enemies_load(const struct battle_catalog *cat, char *err, size_t errlen)
{
    switch (enemies_ready(cat)) {
    case ENEMIES_READY:
        return SK_OK;
    case ENEMIES_FAILED:
        snprintf(err, errlen, "%s", cat->enemies_err);
        return SK_EINVAL;
    default:
        snprintf(err, errlen, "out of memory reading the missions and raids of '%s'", cat->source);
        return SK_ENOMEM;
    }
}

size_t battle_catalog_enemy_count(const struct battle_catalog *cat)
{
    return enemies_ready(cat) == ENEMIES_READY ? cat->n_enemies : 0;
}

const struct battle_enemy *battle_catalog_enemy_at(const struct battle_catalog *cat, size_t i)
{
    return enemies_ready(cat) == ENEMIES_READY && i < cat->n_enemies ? &cat->enemies[i] : NULL;
}

const struct battle_enemy *battle_catalog_find_enemy_id(const struct battle_catalog *cat,
                                                        enum battle_enemy_kind kind, int id)
{
    if (enemies_ready(cat) != ENEMIES_READY)
        return NULL;
    for (size_t lo = 0, hi = cat->n_enemies; lo < hi;) {
        size_t mid = lo + (hi - lo) / 2;
        const struct battle_enemy *e = &cat->enemies[mid];
        int d = e->kind != kind ? (e->kind > kind) - (e->kind < kind) : (e->id > id) - (e->id < id);
        if (d == 0)
            return e;
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The last record (in file order) of `kind` whose key is `key`, or NULL. */
static const struct battle_enemy *find_enemy_key(const struct battle_catalog *cat,
                                                 enum battle_enemy_kind kind, const char *key)
{
    size_t lo = 0, hi = cat->n_enemies;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct enemy_key *k = &cat->enemy_keys[mid];
        int d = k->kind != (int)kind ? (k->kind > (int)kind) - (k->kind < (int)kind)
                                     : strcmp(k->key, key);
        if (d <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* lo is past the last key <= (kind, key). */
    if (lo > 0 && cat->enemy_keys[lo - 1].kind == (int)kind &&
        strcmp(cat->enemy_keys[lo - 1].key, key) == 0)
        return &cat->enemies[cat->enemy_keys[lo - 1].i];
    return NULL;
}

const struct battle_enemy *battle_catalog_find_enemy(const struct battle_catalog *cat,
                                                     enum battle_enemy_kind kind, const char *name,
                                                     int *level)
{
    char key[BATTLE_NAME_MAX + 1];
    const struct battle_enemy *e;
    const char *dash;
    size_t len = strlen(name);
    int64_t lv = 0;

    *level = 0;
    if (len > BATTLE_NAME_MAX || enemies_ready(cat) != ENEMIES_READY)
        return NULL;
    battle_tu_simplify(name, key);
    e = find_enemy_key(cat, kind, key);
    if (e)
        return e;
    /* "Name-N": level N. Names may end in a number of their own ("GDR-5000"), so the whole
     * name was tried first. */
    dash = strrchr(name, '-');
    if (!dash || !dash[1] || strspn(dash + 1, "0123456789") != strlen(dash + 1) ||
        sk_parse_i64(dash + 1, 1, BATTLE_ENEMY_LEVELS_MAX, &lv) != SK_OK)
        return NULL;
    {
        char base[BATTLE_NAME_MAX + 1];
        memcpy(base, name, (size_t)(dash - name));
        base[dash - name] = '\0';
        battle_tu_simplify(base, key);
    }
    e = find_enemy_key(cat, kind, key);
    if (e)
        *level = (int)lv;
    return e;
}

void battle_catalog_suggest_enemy(const struct battle_catalog *cat, enum battle_enemy_kind kind,
                                  const char *name, char *out, size_t outlen)
{
    struct sk_suggest s;

    if (outlen)
        out[0] = '\0';
    if (enemies_ready(cat) != ENEMIES_READY)
        return;
    sk_suggest_init(&s, name);
    for (size_t i = 0; i < cat->n_enemies; i++)
        if (cat->enemies[i].kind == kind)
            sk_suggest_add(&s, cat->enemies[i].name);
    if (sk_suggest_best(&s) && outlen)
        snprintf(out, outlen, "%s", sk_suggest_best(&s));
}

/* The card `c` becomes at level `target` of its unit (not below its own level), or NULL
 * when the unit's level is missing. */
static const struct battle_card_spec *upgraded(const struct battle_catalog *cat,
                                               const struct battle_card_spec *c, int target)
{
    if (target > c->n_levels)
        target = c->n_levels;
    if (target <= c->level)
        return c;
    return battle_catalog_find_id(cat, c->level_ids[target - 1]);
}

int battle_catalog_enemy_cards(const struct battle_catalog *cat, const struct battle_enemy *e,
                               int level, const struct battle_card_spec **commander,
                               const struct battle_card_spec **cards, int max, int *n, int *n_forts)
{
    /* The peer plays a record at its top level with every card at its top level and the
     * commander up to <commander_max_level> (xml.cpp read_deck); below it as listed, with
     * the level-ups of battle_catalog_enemy_upgrades. */
    int top = level > 1 && level >= e->levels;
    const struct battle_card_spec *c = battle_catalog_find_id(cat, e->commander);

    *n = 0;
    *n_forts = 0;
    if (!c)
        return 0;
    *commander = top ? upgraded(cat, c, e->commander_max ? e->commander_max : c->n_levels) : c;
    if (!*commander)
        return 0;
    for (int k = 0; k < e->n_forts + e->n_cards && *n < max; k++) {
        int id = k < e->n_forts ? e->forts[k] : e->cards[k - e->n_forts];
        c = battle_catalog_enemy_card(cat, e, level, id);
        if (!c)
            return 0;
        cards[(*n)++] = c;
        if (k < e->n_forts)
            (*n_forts)++;
    }
    return 1;
}

const struct battle_card_spec *battle_catalog_enemy_card(const struct battle_catalog *cat,
                                                         const struct battle_enemy *e, int level,
                                                         int id)
{
    const struct battle_card_spec *c = battle_catalog_find_id(cat, id);
    return c && level > 1 && level >= e->levels ? upgraded(cat, c, c->n_levels) : c;
}

/* The level-ups card `id` can take (its top level less its own), or -1 when it is missing. */
static int room(const struct battle_catalog *cat, int id)
{
    const struct battle_card_spec *c = battle_catalog_find_id(cat, id);
    return c ? c->n_levels - c->level : -1;
}

int battle_catalog_enemy_upgrades(const struct battle_catalog *cat, const struct battle_enemy *e,
                                  int level)
{
    const struct battle_card_spec *cmd = battle_catalog_find_id(cat, e->commander);
    long opps;

    if (level <= 1 || level >= e->levels || !cmd)
        return 0;
    /* xml.cpp read_deck: the upgrade opportunities, then ceil(opps (level - 1) / (levels -
     * 1)) of them at `level`. A pool counts its cards' opportunities times its entries
     * over its size, rounded down. */
    opps = (e->commander_max ? e->commander_max : cmd->n_levels) - cmd->level;
    for (int k = 0; k < e->n_forts + e->n_cards; k++) {
        int r = room(cat, k < e->n_forts ? e->forts[k] : e->cards[k - e->n_forts]);
        opps += r > 0 ? r : 0;
    }
    for (int k = 0; k < e->n_pools && k < BATTLE_ENEMY_POOLS_MAX; k++) {
        const struct battle_enemy_pool *pl = &e->pools[k];
        long pts = 0;
        for (int i = 0; i < pl->n; i++) {
            int r = room(cat, pl->cards[i]);
            pts += r > 0 ? r : 0;
        }
        opps += pl->n ? pts * pl->amount * pl->replicates / pl->n : 0;
    }
    if (opps < 0)
        opps = 0;
    return (int)((opps * (level - 1) + e->levels - 2) / (e->levels - 1));
}

int battle_catalog_enemy_effect(const struct battle_enemy_effect *f, int level,
                                struct battle_skill_spec *out, char *why, size_t whylen)
{
    int g = battle_tu_skill_parse(f->skill);
    double x = ceil(f->x * level); /* the peer's rounding, in the same double arithmetic */
    const char *args;

    memset(out, 0, sizeof(*out));
    out->id = g >= 0 ? battle_tu_skill_engine(g) : BATTLE_SKILL__COUNT;
    if (out->id >= BATTLE_SKILL__COUNT ||
        battle_rules_skill_kind(out->id) != BATTLE_SK_ACTIVATION || f->c) {
        snprintf(why, whylen,
                 "battleground effect '%s' is not an activation skill the engine casts as an "
                 "effect",
                 f->skill);
        return 0;
    }
    if (x > BATTLE_SKILL_X_MAX) {
        snprintf(why, whylen, "battleground effect '%s' has X %.0f at level %d, above %d", f->skill,
                 x, level, BATTLE_SKILL_X_MAX);
        return 0;
    }
    out->x = (int)x;
    out->all = f->all;
    out->y = f->y;
    out->n = f->n;
    out->s = f->s[0] ? battle_tu_skill_parse(f->s) + 1 : 0;
    out->s2 = f->s2[0] ? battle_tu_skill_parse(f->s2) + 1 : 0;
    args = battle_tu_skill_args(out->id, out->s, out->s2);
    if (args) {
        snprintf(why, whylen, "battleground effect '%s' %s", f->skill, args);
        return 0;
    }
    return 1;
}

/* Why card `c` (the commander when `commander`, else a deck card or fortress of record e)
 * cannot be played at `level`, into `why`: a type its place does not take or what
 * battle_tu_unsupported says, of the card and, when `ups` (the record gives level-ups),
 * each of its levels above. 0 when it can. */
static int card_unsupported(const struct battle_catalog *cat, const struct battle_card_spec *c,
                            unsigned want, int ups, char *why, size_t whylen)
{
    for (int lv = c->level; c && lv <= (ups ? c->n_levels : c->level); lv++) {
        const struct battle_card_spec *v = lv == c->level ? c : upgraded(cat, c, lv);
        char cw[200];
        if (!v) {
            snprintf(why, whylen, "card \"%s\": its level %d is missing from the card files",
                     c->name, lv);
            return 1;
        }
        if (!(want & (1u << v->type))) {
            snprintf(why, whylen, "card \"%s\" is %s card in a place for %s", v->name,
                     battle_cards_a_type(v->type),
                     want == (1u << BATTLE_COMMANDER) ? "a commander"
                     : want & (1u << BATTLE_FORTRESS) ? "a fortress or structure"
                                                      : "an assault or structure");
            return 1;
        }
        if (battle_tu_unsupported(v, cw, sizeof(cw))) {
            snprintf(why, whylen, "card \"%s\": %s", v->name, cw);
            return 1;
        }
    }
    return 0;
}

/* Why record `e` at `level` holds more than a side can (pools, cards, fortresses,
 * level-ups) or has a battleground effect the engine cannot cast, into `why`: 1; else 0,
 * with the level-ups a game gives its cards in *ups. */
static int limits_unsupported(const struct battle_catalog *cat, const struct battle_enemy *e,
                              int level, int *ups, char *why, size_t whylen)
{
    int forts = e->forts_total, cards = e->cards_total;

    if (e->n_pools > BATTLE_POOLS_MAX) {
        snprintf(why, whylen, "it has %d card and fortress pools and a side draws from at most %d",
                 e->n_pools, BATTLE_POOLS_MAX);
        return 1;
    }
    for (int k = 0; k < e->n_pools; k++) {
        const struct battle_enemy_pool *pl = &e->pools[k];
        if (pl->total > BATTLE_POOL_CARDS) {
            snprintf(why, whylen, "its pool %d has %d cards and a pool holds at most %d", k + 1,
                     pl->total, BATTLE_POOL_CARDS);
            return 1;
        }
        if (pl->fort)
            forts += pl->amount * pl->replicates;
        else
            cards += pl->amount * pl->replicates;
    }
    for (int k = 0; k < e->n_effects; k++) {
        struct battle_skill_spec sk;
        if (!battle_catalog_enemy_effect(&e->effects[k], level, &sk, why, whylen))
            return 1;
    }
    if (cards > BATTLE_DECK_MAX) {
        snprintf(why, whylen, "its deck has %d cards and a deck holds at most %d", cards,
                 BATTLE_DECK_MAX);
        return 1;
    }
    if (forts > BATTLE_FORTRESS_MAX) {
        snprintf(why, whylen, "it has %d fortresses and a side holds at most %d", forts,
                 BATTLE_FORTRESS_MAX);
        return 1;
    }
    *ups = battle_catalog_enemy_upgrades(cat, e, level);
    if (*ups > BATTLE_UPGRADES_MAX) {
        snprintf(why, whylen, "level %d gives its cards %d level-ups a game, at most %d", level,
                 *ups, BATTLE_UPGRADES_MAX);
        return 1;
    }
    return 0;
}

int battle_catalog_enemy_unsupported(const struct battle_catalog *cat, const struct battle_enemy *e,
                                     int level, char *why, size_t whylen)
{
    /* A commander card in a deck (THE BIG ORBO's Zorbo the One, Cruel Choice's Octane) is
     * drawn and not played, as the peer plays it (battle_sim_play_card). */
    const unsigned deck =
        (1u << BATTLE_ASSAULT) | (1u << BATTLE_STRUCTURE) | (1u << BATTLE_COMMANDER);
    int ups = 0;
    const struct battle_card_spec *cmd;

    if (level < 1 || level > e->levels) {
        snprintf(why, whylen, "it has levels 1 to %d, not %d", e->levels, level);
        return 1;
    }
    if (limits_unsupported(cat, e, level, &ups, why, whylen))
        return 1;
    cmd = battle_catalog_find_id(cat, e->commander);
    if (!cmd) {
        snprintf(why, whylen, "no card has id %d (its commander)", e->commander);
        return 1;
    }
    cmd = level > 1 && level >= e->levels
              ? upgraded(cat, cmd, e->commander_max ? e->commander_max : cmd->n_levels)
              : cmd;
    if (!cmd) {
        snprintf(why, whylen, "its commander's top level is missing from the card files");
        return 1;
    }
    if (card_unsupported(cat, cmd, 1u << BATTLE_COMMANDER, ups > 0, why, whylen))
        return 1;
    /* The fortresses, the deck, then each pool's cards, as this level plays them. */
    for (int k = 0, p = 0, i = 0; k < e->n_forts + e->n_cards || p < e->n_pools;) {
        int pool = k >= e->n_forts + e->n_cards;
        int id = !pool ? (k < e->n_forts ? e->forts[k] : e->cards[k - e->n_forts])
                       : e->pools[p].cards[i];
        /* A structure card may stand where a fortress goes: it is in play from the start. */
        unsigned want = (!pool ? k < e->n_forts : e->pools[p].fort)
                            ? (1u << BATTLE_FORTRESS) | (1u << BATTLE_STRUCTURE)
                            : deck;
        const struct battle_card_spec *c = battle_catalog_enemy_card(cat, e, level, id);
        if (!c) {
            if (battle_catalog_find_id(cat, id))
                snprintf(why, whylen, "card id %d: its top level is missing from the card files",
                         id);
            else if (pool)
                snprintf(why, whylen, "no card has id %d (card %d of its pool %d)", id, i + 1,
                         p + 1);
            else
                snprintf(why, whylen, "no card has id %d (%s %d)", id,
                         k < e->n_forts ? "its fortress" : "its deck card",
                         k < e->n_forts ? k + 1 : k - e->n_forts + 1);
            return 1;
        }
        if (card_unsupported(cat, c, want, ups > 0, why, whylen))
            return 1;
        if (!pool)
            k++;
        else if (++i == e->pools[p].n) {
            i = 0;
            p++;
        }
    }
    return 0;
}

/* Appends {"id", "name"} of card `id` to `arr`. */
static int put_card_ref(const struct battle_catalog *cat, json_t *arr, int id)
{
    const struct battle_card_spec *c = battle_catalog_find_id(cat, id);
    return json_array_append_new(arr,
                                 json_pack("{s:i, s:s?}", "id", id, "name", c ? c->name : NULL));
}

json_t *battle_catalog_enemy_json(const struct battle_catalog *cat, const struct battle_enemy *e)
{
    json_t *obj = NULL, *cards = json_array(), *forts = json_array(), *fx = json_array();
    json_t *levels = json_array();
    const struct battle_card_spec *cmd = battle_catalog_find_id(cat, e->commander);
    char why[300];
    int bad = !cards || !forts || !fx || !levels;

    for (int k = 0; !bad && k < e->n_cards; k++)
        bad = put_card_ref(cat, cards, e->cards[k]);
    for (int k = 0; !bad && k < e->n_forts; k++)
        bad = put_card_ref(cat, forts, e->forts[k]);
    for (int k = 0; !bad && k < e->n_effects; k++)
        bad = json_array_append_new(fx, json_string(e->effects[k].skill));
    /* The levels a job can use. */
    for (int lv = 1; !bad && lv <= e->levels; lv++)
        if (!battle_catalog_enemy_unsupported(cat, e, lv, why, sizeof(why)))
            bad = json_array_append_new(levels, json_integer(lv));
    if (!bad) {
        int no = battle_catalog_enemy_unsupported(cat, e, e->levels, why, sizeof(why));
        obj = json_pack(
            "{s:s, s:i, s:s, s:{s:i, s:s?}, s:i, s:O, s:O, s:i, s:i, s:O, s:b, s:s?, s:O}", "kind",
            battle_enemy_kind_name(e->kind), "id", e->id, "name", e->name, "commander", "id",
            e->commander, "name", cmd ? cmd->name : NULL, "levels", e->levels, "cards", cards,
            "fortresses", forts, "card_pools", e->n_card_pools, "fortress_pools", e->n_fort_pools,
            "effects", fx, "playable", !no, "why", no ? why : NULL, "playable_levels", levels);
    }
    json_decref(cards);
    json_decref(forts);
    json_decref(fx);
    json_decref(levels);
    return obj;
}

/* ===== Folder summaries for `skirmish cards` (battle.h) ===== */

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

enum sk_err battle_folder_read(const char *dir, struct battle_folder *out, char *err, size_t errlen)
{
    struct battle_catalog *cat = NULL;
    enum sk_err rc;

    memset(out, 0, sizeof(*out));
    rc = battle_catalog_load_dir(dir, &cat, err, errlen);
    if (rc)
        return rc;
    out->names = sk_calloc(cat->n ? cat->n : 1, sizeof(*out->names));
    if (!out->names) {
        rc = SK_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < cat->n; i++) {
        const struct battle_card_spec *c = &cat->cards[i];
        /* a unit once, by its top level's name: what players call the card */
        if (c->id && c->level != c->n_levels)
            continue;
        out->names[out->n_names] = sk_strdup(c->name);
        if (!out->names[out->n_names]) {
            rc = SK_ENOMEM;
            goto out;
        }
        out->n_names++;
    }
    qsort(out->names, out->n_names, sizeof(*out->names), name_cmp);
    snprintf(out->hash, sizeof(out->hash), "%s", cat->hash);
    out->n_cards = cat->n;
    /* a folder `skirmish cards update` accepts is one whose missions a job can name */
    rc = battle_catalog_enemies_load(cat, err, errlen);
    if (rc)
        goto out;
    out->n_enemies = cat->n_enemies;
out:
    if (rc == SK_ENOMEM)
        snprintf(err, errlen, "out of memory reading the cards folder '%s'", dir);
    if (rc)
        battle_folder_release(out);
    battle_catalog_free(cat);
    return rc;
}

void battle_folder_release(struct battle_folder *f)
{
    if (!f)
        return;
    /* names is NULL when its allocation failed (n_names is 0 then too) */
    for (size_t i = 0; f->names && i < f->n_names; i++)
        sk_free(f->names[i]);
    sk_free(f->names);
    memset(f, 0, sizeof(*f));
}
