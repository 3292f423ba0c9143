/* SPDX-License-Identifier: MIT */
/* The optimiser's fund (see battle_opt_fund.h). A deck's cost is the peer's: every card
 * the deck needs more copies of than are owned is broken into its recipe, the missing
 * copies times the recipe's SP are spent, and its cards are needed in turn, down to cards
 * that are owned or have no recipe. The cost is linear in the copies made, so the order in
 * which cards are broken changes nothing (the peer takes them in pointer order). */
#include "battle_opt_fund.h"

#include <stdlib.h>
#include <string.h>

#include "battle_catalog.h"
#include "battle_tu.h"
#include "sk_mem.h"

#include "sk_banned.h"

static const int level_sp[OPT_FUND_LEVELS] = OPT_FUND_LEVEL_SP_INIT;

/* The peer's special cards (tyrant_optimize.cpp): the basic alpha dominion and the
 * dominion shards are never broken into a recipe. */
#define ID_BASIC_DOMINION 50002
#define ID_SHARD_A        43451
#define ID_SHARD_B        43452

/* How a card is made: from `n` kinds of cards, `count` of each per copy, for `sp` SP. */
struct recipe {
    int fuse; /* 1: a fusion recipe; 0: a level-up from the level below */
    int sp;
    int n;
    int id[BATTLE_TU_RECIPE_MAX];
    int count[BATTLE_TU_RECIPE_MAX];
};

/* The recipe card `c` is made by, as the peer reads the files (xml.cpp): its fusion recipe
 * when it has one (no SP for a level-1 card; an upgrade that has one keeps its level-up's
 * SP), else the level below it, for the level-up's SP (twice for a commander). 0 when it
 * has none: a level-1 card without a fusion recipe, or a level-up the data has no cost for. */
static int recipe_of(const struct battle_catalog *cat, const struct battle_card_spec *c,
                     struct recipe *out)
{
    const struct battle_tu_recipe *r = battle_catalog_recipe(cat, c->id);
    int from = c->level - 1; /* the level the card is upgraded from */
    int sp = -1;

    memset(out, 0, sizeof(*out));
    if (from >= 1 && from < OPT_FUND_LEVELS && c->level <= c->n_levels)
        sp = level_sp[from] * (c->type == BATTLE_COMMANDER ? 2 : 1);
    if (r) {
        if (from >= 1 && sp < 0)
            return 0;
        out->fuse = 1;
        out->sp = from >= 1 ? sp : 0;
        out->n = r->n;
        for (int k = 0; k < r->n; k++) {
            out->id[k] = r->res_id[k];
            out->count[k] = r->res_count[k];
        }
        return out->n > 0;
    }
    if (sp < 0)
        return 0;
    out->sp = sp;
    out->n = 1;
    out->id[0] = c->level_ids[c->level - 2];
    out->count[0] = 1;
    return 1;
}

/* 1 for a card the peer never breaks: a level-1 common or rare of the standard set (1000),
 * of which it assumes players have any number, and the dominion materials. */
static int kept_whole(const struct battle_catalog *cat, const struct battle_card_spec *c)
{
    int low = c->level == 1 || battle_catalog_recipe(cat, c->id) != NULL;
    return (c->set == 1000 && c->rarity <= 2 && low) || c->id == ID_BASIC_DOMINION ||
           c->id == ID_SHARD_A || c->id == ID_SHARD_B;
}

/* 1 when the peer counts SP for making `c` (its "normal" cards: not a fortress, a dominion
 * or a dominion material). */
static int counts_sp(const struct battle_card_spec *c)
{
    return c->type != BATTLE_FORTRESS && !c->dominion && c->set != 8000 && c->id != ID_SHARD_A &&
           c->id != ID_SHARD_B;
}

static int own_cmp(const void *a, const void *b)
{
    int x = ((const struct opt_own *)a)->id, y = ((const struct opt_own *)b)->id;
    return (x > y) - (x < y);
}

static int owned_copies(const struct opt_job *job, int id)
{
    struct opt_own key = {id, 0};
    const struct opt_own *o = bsearch(&key, job->own, (size_t)job->n_own, sizeof(key), own_cmp);
    return o ? o->count : 0;
}

/* ===== The walk: a deck broken down to owned cards ===== */

struct node {
    int id;
    int64_t need;    /* copies still needed from the owned ones */
    int64_t made;    /* copies made by the recipe */
    int owned;       /* copies owned */
    int queued;      /* on the stack */
    int depth;       /* for the upgrades' order (battle_opt_fund_json) */
    struct recipe r; /* valid when made > 0 */
};

struct walk {
    int n, n_stack;
    int64_t sp;
    struct node nodes[OPT_FUND_NODES_MAX];
    int stack[OPT_FUND_NODES_MAX];
};

/* The node of card `id`, added (needing none) on first use; -1 when the walk is full. */
static int node_of(const struct opt_job *job, struct walk *w, int id)
{
    for (int i = 0; i < w->n; i++)
        if (w->nodes[i].id == id)
            return i;
    if (w->n == OPT_FUND_NODES_MAX)
        return -1;
    memset(&w->nodes[w->n], 0, sizeof(w->nodes[0]));
    w->nodes[w->n].id = id;
    w->nodes[w->n].owned = owned_copies(job, id);
    return w->n++;
}

/* Adds `count` needed copies of card `id`; -1 when the walk is full. */
static int need(const struct opt_job *job, struct walk *w, int id, int64_t count)
{
    int i = node_of(job, w, id);

    if (i < 0)
        return -1;
    w->nodes[i].need += count;
    if (!w->nodes[i].queued && w->nodes[i].need > w->nodes[i].owned) {
        w->nodes[i].queued = 1;
        w->stack[w->n_stack++] = i;
    }
    return 0;
}

/* Breaks what the walk needs beyond the owned copies into recipes (see
 * battle_opt_fund_cost for the returns). */
static int walk_run(const struct opt_job *job, struct walk *w, int64_t limit)
{
    const struct battle_catalog *cat = job->fund_cat;

    while (w->n_stack > 0) {
        int i = w->stack[--w->n_stack];
        struct node *nd = &w->nodes[i];
        const struct battle_card_spec *c = battle_catalog_find_id(cat, nd->id);
        struct recipe r;
        int64_t under;

        nd->queued = 0;
        if (nd->need <= nd->owned || !c || kept_whole(cat, c) || !recipe_of(cat, c, &r))
            continue;
        under = nd->need - nd->owned;
        nd->need = nd->owned;
        nd->made += under;
        nd->r = r;
        if (counts_sp(c))
            w->sp += under * r.sp;
        if (w->sp > limit)
            return 1;
        for (int k = 0; k < r.n; k++)
            if (need(job, w, r.id[k], under * r.count[k]))
                return -1;
    }
    for (int i = 0; i < w->n; i++)
        if (w->nodes[i].need > w->nodes[i].owned)
            return -1;
    return 0;
}

/* Starts a walk with deck `d`'s cards; -1 when an inline card (no game id) is held beyond
 * its owned copies, or the walk is full. */
static int walk_deck(const struct opt_job *job, const struct opt_deck *d, struct walk *w)
{
    w->n = w->n_stack = 0;
    w->sp = 0;
    for (int i = -1; i < d->n; i++) {
        int c = i < 0 ? d->commander : d->cards[i];
        if (job->cards[c].id <= 0) {
            if (i >= 0 && battle_opt_copies(d, c) > job->cards[c].owned)
                return -1;
            continue;
        }
        if (need(job, w, job->cards[c].id, 1))
            return -1;
    }
    return 0;
}

int battle_opt_fund_cost(const struct opt_job *job, const struct opt_deck *d, int64_t limit,
                         int64_t *sp)
{
    struct walk *w = sk_malloc(sizeof(*w));
    int rc;

    if (!w)
        return -1; /* out of memory: not a deck the search may take */
    rc = walk_deck(job, d, w);
    if (!rc)
        rc = walk_run(job, w, limit);
    *sp = w->sp;
    sk_free(w);
    return rc;
}

int battle_opt_fund_fits(const struct opt_job *job, const struct opt_deck *d)
{
    int64_t sp;

    return job->fund <= 0 || battle_opt_fund_cost(job, d, job->fund, &sp) == 0;
}

/* ===== Cards a fund can make ===== */

enum sk_err battle_opt_fund_makeable(const struct opt_job *job, int **out, int *n)
{
    const struct battle_catalog *cat = job->fund_cat;
    size_t count = battle_catalog_count(cat);
    int max_id = 0, n_ids = 0, changed = 1;
    unsigned char *reach = NULL;
    int *ids = NULL;
    struct walk *w = NULL;
    enum sk_err rc = SK_OK;

    for (size_t i = 0; i < count; i++)
        if (battle_catalog_at(cat, i)->id > max_id)
            max_id = battle_catalog_at(cat, i)->id;
    reach = sk_calloc((size_t)max_id + 1, 1);
    ids = sk_malloc(OPT_FUND_MADE_MAX * sizeof(*ids));
    w = sk_malloc(sizeof(*w));
    if (!reach || !ids || !w) {
        rc = SK_ENOMEM;
        goto out;
    }
    /* The cards reachable from the owned ones by level-ups and fusions, at any cost: until
     * no card is added (each pass follows a level or a fusion further). */
    for (int i = 0; i < job->n_own; i++)
        if (job->own[i].id > 0 && job->own[i].id <= max_id)
            reach[job->own[i].id] = 1;
    while (changed) {
        changed = 0;
        for (size_t i = 0; i < count; i++) {
            const struct battle_card_spec *c = battle_catalog_at(cat, i);
            struct recipe r;
            int all = 1;
            if (c->id <= 0 || reach[c->id] || !recipe_of(cat, c, &r))
                continue;
            for (int k = 0; k < r.n && all; k++)
                all = r.id[k] > 0 && r.id[k] <= max_id && reach[r.id[k]];
            if (all) {
                reach[c->id] = 1;
                changed = 1;
            }
        }
    }
    /* Those one copy of which the fund pays for, alone, in id order. */
    for (int id = 1; id <= max_id && n_ids < OPT_FUND_MADE_MAX; id++) {
        if (!reach[id] || owned_copies(job, id) > 0)
            continue;
        w->n = w->n_stack = 0;
        w->sp = 0;
        if (need(job, w, id, 1) == 0 && walk_run(job, w, job->fund) == 0)
            ids[n_ids++] = id;
    }
    *out = ids;
    *n = n_ids;
    ids = NULL;
out:
    sk_free(reach);
    sk_free(ids);
    sk_free(w);
    return rc;
}

/* ===== The upgrades of a deck ===== */

/* The name of card `id` (the catalog's; "" for one it lacks, which no walk makes). */
static const char *name_of(const struct opt_job *job, int id)
{
    const struct battle_card_spec *c = battle_catalog_find_id(job->fund_cat, id);
    return c ? c->name : "";
}

/* Depths of the made cards: a card made from no made card is 0, else one more than the
 * deepest made card of its recipe; the upgrades list them by depth, so each comes after
 * what it is made of. */
static void set_depths(struct walk *w)
{
    for (int changed = 1, pass = 0; changed && pass <= w->n; pass++) {
        changed = 0;
        for (int i = 0; i < w->n; i++) {
            struct node *nd = &w->nodes[i];
            int d = 0;
            if (!nd->made)
                continue;
            for (int k = 0; k < nd->r.n; k++)
                for (int j = 0; j < w->n; j++)
                    if (w->nodes[j].id == nd->r.id[k] && w->nodes[j].made &&
                        w->nodes[j].depth + 1 > d)
                        d = w->nodes[j].depth + 1;
            if (d != nd->depth) {
                nd->depth = d;
                changed = 1;
            }
        }
    }
}

/* One made card: {"card", "count", "action", "from": [{"card", "count"}], "sp", "sp_total"}.
 * NULL on allocation failure. */
static json_t *upgrade_json(const struct opt_job *job, const struct node *nd)
{
    const struct battle_card_spec *c = battle_catalog_find_id(job->fund_cat, nd->id);
    int64_t each = c && counts_sp(c) ? nd->r.sp : 0;
    json_t *from = json_array();
    json_t *o;

    for (int k = 0; from && k < nd->r.n; k++)
        if (json_array_append_new(from, json_pack("{s:s, s:i}", "card", name_of(job, nd->r.id[k]),
                                                  "count", nd->r.count[k]))) {
            json_decref(from);
            from = NULL;
        }
    if (!from)
        return NULL;
    o = json_pack("{s:s, s:I, s:s, s:o, s:I, s:I}", "card", name_of(job, nd->id), "count",
                  (json_int_t)nd->made, "action", nd->r.fuse ? "fuse" : "level_up", "from", from,
                  "sp", (json_int_t)each, "sp_total", (json_int_t)each * (json_int_t)nd->made);
    return o;
}

json_t *battle_opt_fund_json(const struct opt_job *job, const struct opt_deck *d)
{
    struct walk *w = sk_malloc(sizeof(*w));
    json_t *ups = json_array(), *res = NULL;
    int rc = -1, max_depth = 0, bad = 0;

    if (!w || !ups)
        goto out;
    rc = walk_deck(job, d, w);
    if (!rc)
        rc = walk_run(job, w, INT64_MAX);
    if (rc) {
        /* the search only holds decks the fund builds: a bug if not */
        res = json_pack("{s:i, s:n, s:[]}", "fund", job->fund, "spent", "upgrades");
        goto out;
    }
    set_depths(w);
    for (int i = 0; i < w->n; i++)
        if (w->nodes[i].made && w->nodes[i].depth > max_depth)
            max_depth = w->nodes[i].depth;
    /* materials first; among equals, by name, so the list reads the same on every run */
    for (int depth = 0; depth <= max_depth && !bad; depth++) {
        int done_n = 0;
        for (int i = 0; i < w->n; i++)
            done_n += w->nodes[i].made && w->nodes[i].depth == depth;
        for (int k = 0; k < done_n && !bad; k++) {
            int pick = -1;
            for (int i = 0; i < w->n; i++) {
                const struct node *nd = &w->nodes[i];
                if (!nd->made || nd->depth != depth || nd->queued)
                    continue;
                if (pick < 0 || strcmp(name_of(job, nd->id), name_of(job, w->nodes[pick].id)) < 0)
                    pick = i;
            }
            w->nodes[pick].queued = 1; /* listed */
            bad = json_array_append_new(ups, upgrade_json(job, &w->nodes[pick])) != 0;
        }
    }
    if (!bad)
        res = json_pack("{s:i, s:I, s:O}", "fund", job->fund, "spent", (json_int_t)w->sp,
                        "upgrades", ups);
out:
    json_decref(ups);
    sk_free(w);
    return res;
}
