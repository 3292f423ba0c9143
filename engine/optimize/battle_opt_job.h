/* SPDX-License-Identifier: MIT */
/* The `optimize` job kind's decoded job (docs/optimize.md): the starting deck, the cards
 * the search may use, the constraints, the enemy (kept as the battle params every
 * candidate is played with), objective, algorithm and budget. battle_opt_codec fills it
 * and checks every field, limit and that the constraints leave the search a move;
 * battle_opt runs the search; this module holds the job's types and what every part of the
 * search asks of a job (copies, limits, factions, the score's unit, a deck as JSON). Every limit of
 * an optimisation is defined here, once. */
#ifndef BATTLE_OPT_JOB_H
#define BATTLE_OPT_JOB_H

#include <jansson.h>
#include <stdint.h>

#include "battle_codec.h"
#include "battle_spec.h"
#include "sk_err.h"
#include "sk_verr.h"

struct battle_catalog;

/* Limits of an optimize job (the codec rejects anything beyond them). */
#define OPT_POOL_MAX           1000    /* entries of a listed "pool" */
#define OPT_BUDGET_GAMES_MIN   1000ULL /* games the search may play */
#define OPT_BUDGET_GAMES_MAX   1000000000ULL
#define OPT_BUDGET_GAMES_DEF   100000ULL
#define OPT_BUDGET_SECONDS_MAX 86400 /* wall seconds of search; absent = no time limit */
#define OPT_EVAL_GAMES_MIN     100   /* games per defender deck of the final evaluation */
#define OPT_EVAL_GAMES_MAX     1000000
#define OPT_EVAL_GAMES_DEF     10000
#define OPT_RACE_BATCH_MIN     8 /* games per defender deck between two racing verdicts */
#define OPT_RACE_BATCH_MAX     1000
#define OPT_RACE_BATCH_DEF     64
#define OPT_RACE_MAX_MAX       100000 /* games per defender deck one candidate may race */
#define OPT_RACE_MAX_DEF       2048
/* A search that has raced every move of its deck (a sweep, battle_opt_moves.h) without
 * accepting one doubles the games a candidate may race on (up to OPT_WIDEN_MAX doublings of
 * `max_games`, never past OPT_RACE_MAX_MAX): the moves left are too close to tell on fewer
 * games. */
#define OPT_WIDEN_MAX       3
#define OPT_TEMPERATURE_DEF 0.02 /* anneal: the starting temperature, in score units */
#define OPT_TEMPERATURE_MAX 1.0
#define OPT_MOVES_LOG_MAX   1000    /* accepted moves kept for the result (the rest counted) */
#define OPT_FACTIONS_MAX    7       /* constraints.factions: "none" and the game's 6 factions */
#define OPT_FUND_MAX        1000000 /* "fund": SP to level up and fuse owned cards */

/* What a game scores in the search: a win (1), a win or a stall (1), or the points of the
 * job's battle `scoring` (docs/rules/battle.md, "Scoring"), played as points / 100 so that
 * races and anneal's temperature see the scale of a win rate, and reported as points. */
enum opt_objective { OPT_OBJ_WIN = 0, OPT_OBJ_WIN_STALL = 1, OPT_OBJ_POINTS = 2 };
enum opt_algorithm { OPT_ALG_CLIMB = 0, OPT_ALG_ANNEAL = 1, OPT_ALG_REORDER = 2 };

/* A card the search may put in the deck (or, for a commander, command it). */
struct opt_card {
    char name[BATTLE_NAME_MAX + 1]; /* the name that resolves to it (exact) */
    enum battle_card_type type;
    int faction; /* 0 (none: the project's and inline cards) or the game's 1..6 */
    int owned;   /* copies available (1 for a commander); 0 for a card only a fund makes */
    int keep;    /* copies the deck must keep (constraints.keep) */
    int id;      /* the game's card id; 0 for the project's and inline cards */
    int fusion;  /* the game's fusion level: 0 base (the project's and inline cards), 1, 2 */
    /* With a fund: 1 + the table index of the same unit's card at the nearest level above
     * (up) and below (down) this one that the table holds; 0 for none. */
    int up, down;
};

/* Owned copies of one of the game's cards, by id (the fund's inventory). */
struct opt_own {
    int id;
    int count;
};

/* A deck as the search moves it: indices into opt_job.cards. Fortresses stay the starting
 * deck's. */
struct opt_deck {
    int commander;
    int n;
    int cards[BATTLE_DECK_MAX];
};

struct opt_job {
    uint64_t seed;
    /* A reference (battle_catalog_put in battle_opt_job_release), or NULL: the catalog the
     * job's cards are of, set by the kind's decode. */
    const struct battle_catalog *cat;
    /* The battle params every deck is played with: mode, scoring, turn_limit, cards, defender;
     * "attacker" is set per deck (owned). */
    json_t *base;
    int n_defenders;
    double weights[BATTLE_DEFENDERS_MAX]; /* normalised to sum 1 */
    enum battle_play play;                /* the attacker's play */
    int n_fortresses;
    char fortresses[BATTLE_FORTRESS_MAX][BATTLE_NAME_MAX + 1];
    struct opt_card *cards; /* owned; n_cards entries: the start deck's, then the pool's */
    int n_cards;
    struct opt_deck start;
    /* constraints */
    int size_min, size_max;
    int freeze_first;
    int max_copies;
    int commander_owned;    /* 1: the commander may change to an owned one */
    unsigned factions;      /* bit f: deck cards of faction f (0..6) allowed; 0 = any faction */
    int min_fusion;         /* constraints.min_fusion_level: no card below it comes in */
    int allow_unobtainable; /* 1: the pool may hold cards of sets no player owns */
    enum opt_objective objective;
    enum battle_scoring scoring; /* the battle's scoring: what OPT_OBJ_POINTS counts */
    enum opt_algorithm algorithm;
    uint64_t budget_games;
    int budget_seconds; /* 0 = none */
    int has_target;     /* budget.target given: stop once the incumbent scores it */
    double target;      /* in search units (battle_opt_score_unit) */
    uint64_t eval_games;
    uint64_t race_batch;
    uint64_t race_max;
    double temperature;
    /* The fund (battle_opt_fund.h): 0 = none, the decks hold owned copies only. */
    int fund;
    struct opt_own *own; /* owned; n_own entries sorted by id: the owned cards' copies */
    int n_own;
    const struct battle_catalog *fund_cat; /* borrowed: the catalog the job was decoded
                                              against (job->cat's, while the job lives) */
};

/** Frees what battle_opt_decode filled and zeroes it; NULL-safe. */
void battle_opt_job_release(struct opt_job *job);

/** Copies of card `c` in `d`. */
int battle_opt_copies(const struct opt_deck *d, int c);

#define OPT_FUSION_MAX 2 /* the game's fusion levels: 0 base, 1 dual, 2 quad */

/** 1 when deck card `c` belongs to a faction constraints.factions allows (or no such
 * constraint); the commander is not subject to it. */
int battle_opt_faction_ok(const struct opt_job *job, int c);

/** The most copies of card `c` a deck may hold: its owned copies within max_copies, 0 for
 * a card outside constraints.factions or below constraints.min_fusion_level (the starting
 * deck's copies of one stay until a move takes them out). With a fund, a card of the game's may
 * hold max_copies: whether the owned cards and the fund build them is battle_opt_fund_fits'. */
int battle_opt_limit(const struct opt_job *job, int c);

/**
 * The battle side object of deck `d` ({"commander", "fortresses", "deck", "play"}, names
 * from the job's cards): a new reference, NULL on allocation failure.
 */
json_t *battle_opt_side_json(const struct opt_job *job, const struct opt_deck *d);

/** The search's score of one unit of a game's score: points count as hundredths, so that
 * races and anneal's temperature see the scale of a win rate. */
double battle_opt_score_unit(const struct opt_job *job);

#endif
