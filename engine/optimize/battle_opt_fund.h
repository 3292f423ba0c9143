/* SPDX-License-Identifier: MIT */
/* The optimiser's fund (docs/optimize.md, "Fund"): SP a player may spend to level up and
 * fuse the cards they own, as the peer simulator's `fund` counts it (tyrant_optimize.cpp,
 * get_required_cards_before_upgrade). A deck is built from the owned cards: a card the
 * deck holds more copies of than are owned is made from its recipe (the level below it,
 * for an SP cost that depends on the level, twice for a commander; or its fusion recipe's
 * cards, for no SP), and so on down to owned cards. This module computes that, lists the
 * cards a fund can make, and writes the upgrades of a deck as JSON; it knows nothing of the
 * search, and a job without a fund never calls it. Pure functions of the job: thread-safe. */
#ifndef BATTLE_OPT_FUND_H
#define BATTLE_OPT_FUND_H

#include <jansson.h>
#include <stdint.h>

#include "battle_opt_job.h"
#include "sk_err.h"

/* The SP of a level-up from level L to L + 1 is OPT_FUND_LEVEL_SP[L] (doubled for a
 * commander): the peer's table (tyrant.cpp, upgrade_cost). The game's data holds no cost
 * for a level-up from level 6 or above (some event cards have 10 levels): such a level is
 * never made. */
#define OPT_FUND_LEVEL_SP_INIT                                                                     \
    {                                                                                              \
        0, 5, 15, 30, 75, 150                                                                      \
    }
#define OPT_FUND_LEVELS 6
/* The most different cards one deck's making may involve (the deck's own and every card
 * made on the way): a deck past it counts as one the owned cards cannot build. */
#define OPT_FUND_NODES_MAX 512
/* The most cards a fund adds to the cards a search may use. */
#define OPT_FUND_MADE_MAX 4096

/**
 * The SP deck `d` of `job` costs to build from the job's owned cards (job->own), into
 * *sp. Returns 0 when it can be built and costs at most `limit` (then *sp is its cost);
 * 1 when it costs more than `limit` (*sp is then some amount above it: the walk stops
 * there); -1 when the owned cards cannot build it at any cost (a card neither owned nor
 * made from owned ones: a level-1 card with no fusion recipe, say). Needs job->fund > 0.
 */
int battle_opt_fund_cost(const struct opt_job *job, const struct opt_deck *d, int64_t limit,
                         int64_t *sp);

/** 1 when deck `d` can be built from the owned cards within the job's fund; always 1 for a
 * job without a fund (its decks hold owned copies only: battle_opt_limit). */
int battle_opt_fund_fits(const struct opt_job *job, const struct opt_deck *d);

/**
 * The game's cards (ids) one copy of which the fund can make from the job's owned cards,
 * alone, for at most job->fund SP, that are not owned: a new array (caller frees with
 * sk_free) of *n ids in increasing order, at most OPT_FUND_MADE_MAX (the lowest ids).
 * Whether the search may use each (its set, the engine's support) is the caller's to
 * check. SK_OK or SK_ENOMEM.
 */
enum sk_err battle_opt_fund_makeable(const struct opt_job *job, int **out, int *n);

/**
 * {"fund", "spent", "upgrades": [...]} for deck `d` (docs/optimize.md, "Fund"): what its
 * building costs and each card made on the way, materials first: a new reference, or NULL
 * on allocation failure.
 */
json_t *battle_opt_fund_json(const struct opt_job *job, const struct opt_deck *d);

#endif
