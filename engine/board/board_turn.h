/* SPDX-License-Identifier: MIT */
/* One turn of Sanctum: start of turn (player-applied events), orders, spell execution,
 * movement (forced orders, the computer's orders last, the two passes), combat and end
 * of turn (temporary spells expire). Decoding and encoding are board_codec's. */
#ifndef BOARD_TURN_H
#define BOARD_TURN_H

#include <stdint.h>

#include "board_model.h"

/* A movement order as issued (phase 2). */
struct board_order {
    char group[BOARD_ID_MAX];
    int dir;  /* 0 up, 1 right, 2 down, 3 left */
    int turn; /* absolute turn number */
    int seq;  /* issue sequence (position in the job's list) */
};

/* A cast as issued (phase 2), executed in phase 3. */
struct board_cast {
    enum board_player player;
    int def; /* spell definition index */
    enum board_target_kind kind;
    char target[BOARD_ID_MAX]; /* minion or group id */
    int row, col;              /* square, structure, terrain */
    enum board_player tplayer; /* player target */
    int turn;
};

/* Everything a job issues, for all its turns. Arrays borrowed. */
struct board_plan {
    const struct board_order *orders;
    int norders;
    const struct board_cast *casts;
    int ncasts;
    uint64_t seed;
};

/** Resolves turn st->turn (both borrowed) with the plan's orders and casts for it; then st->turn++.
 */
enum sk_err board_turn_run(struct board_state *st, const struct board_plan *plan);

#endif
