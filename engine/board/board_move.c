/* SPDX-License-Identifier: MIT */
/* The movement pipeline (see board_move.h). The voting schedule is the one of
 * rules/board.md: rounds, one pairwise vote per overstacked square per round, squares in
 * the order they first became overstacked. */
#include "board_move.h"

#include <string.h>

#include "board_events.h"
#include "board_spells.h"
#include "sk_mem.h"

#include "sk_banned.h"

const int board_move_dir[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};

static void log_order(struct board_state *st, int gi, int def)
{
    struct board_event ev = board_model_event(BOARD_EV_ORDER);
    const struct board_group *g = &st->groups[gi];
    board_model_set_id(ev.a, g->id);
    ev.spell = (int16_t)def;
    ev.r1 = g->row;
    ev.c1 = g->col;
    if (g->has_order) {
        ev.r2 = g->orow;
        ev.c2 = g->ocol;
    }
    board_model_log(st, &ev);
}

void board_move_force(struct board_state *st, int gi, int r, int c, int def, int *forced_seq)
{
    struct board_group *g = &st->groups[gi];
    if (g->order_seq < 0)
        g->order_seq = (*forced_seq)++;
    g->has_order = 1;
    g->orow = r;
    g->ocol = c;
    log_order(st, gi, def);
}

void board_move_random_direction(struct board_state *st, int gi, int def, int *forced_seq)
{
    struct board_group *g = &st->groups[gi];
    int legal[4], n = 0;

    for (int d = 0; d < 4; d++) {
        int r = g->row + board_move_dir[d][0], c = g->col + board_move_dir[d][1];
        if (board_events_can_enter(st, gi, r, c))
            legal[n++] = d;
    }
    if (n == 0) {
        g->has_order = 0;
        log_order(st, gi, def);
        return;
    }
    {
        int d = legal[rng_below(&st->rng, (clc_u32)n)];
        board_move_force(st, gi, g->row + board_move_dir[d][0], g->col + board_move_dir[d][1], def,
                         forced_seq);
    }
}

static int occupied(const struct board_state *st, int r, int c, int except)
{
    for (int i = 0; i < st->ngroups; i++)
        if (i != except && !st->groups[i].gone && st->groups[i].row == r && st->groups[i].col == c)
            return 1;
    return 0;
}

/* On-exit (from), on-move, on-enter (to) for a group going from one square to another.
 * Returns 1 if it survives. */
static int walk_effects(struct board_state *st, int gi, int fr, int fc, int tr, int tc)
{
    board_events_group(st, BOARD_P_ON_EXIT, gi, fr, fc);
    if (!st->groups[gi].gone)
        board_events_group(st, BOARD_P_ON_MOVE, gi, -1, -1);
    if (!st->groups[gi].gone)
        board_events_group(st, BOARD_P_ON_ENTER, gi, tr, tc);
    return !st->groups[gi].gone;
}

static void remove_group(struct board_state *st, int gi)
{
    struct board_group *g = &st->groups[gi];
    struct board_event ev = board_model_event(BOARD_EV_REMOVAL);

    board_model_set_id(ev.a, g->id);
    ev.r1 = g->row;
    ev.c1 = g->col;
    board_model_log(st, &ev);
    /* Removed from the game: no death, no graveyard; every spell on it goes. */
    for (int i = 0; i < g->n; i++) {
        if (g->m[i].alive)
            board_model_dispel_minion(st, g->m[i].id);
        g->m[i].alive = 0;
    }
    board_model_dispel_group(st, g->id);
    g->gone = 1;
}

int board_move_place(struct board_state *st, int gi, int effects)
{
    struct board_group *g = &st->groups[gi];
    int best_r = -1, best_c = -1, best_d = 0;
    struct board_event ev;

    for (int r = 0; r < st->rows; r++) {
        for (int c = 0; c < st->cols; c++) {
            int dr = r - g->row, dc = c - g->col, d = dr * dr + dc * dc;
            if (best_r >= 0 && d >= best_d)
                continue; /* row-major scan: an equal distance later loses the tie */
            if (st->structure[board_sq(st, r, c)] != BOARD_NO_STRUCTURE)
                continue;
            if (occupied(st, r, c, -1) || !board_events_can_enter(st, gi, r, c))
                continue;
            best_r = r;
            best_c = c;
            best_d = d;
        }
    }
    if (best_r < 0) {
        remove_group(st, gi);
        return 0;
    }
    ev = board_model_event(BOARD_EV_MOONWALK);
    board_model_set_id(ev.a, g->id);
    ev.r1 = g->row;
    ev.c1 = g->col;
    ev.r2 = best_r;
    ev.c2 = best_c;
    board_model_log(st, &ev);
    {
        int fr = g->row, fc = g->col;
        g->row = best_r;
        g->col = best_c;
        if (effects && !walk_effects(st, gi, fr, fc, best_r, best_c))
            return 1; /* it landed and died there: the square is free again */
    }
    return 1;
}

/* ---- pass I ---- */

static int cmp_seq(const struct board_state *st, int a, int b)
{
    return st->groups[a].order_seq - st->groups[b].order_seq;
}

/* Pass I processing order (rules/board.md "Pass I order"). Writes group indices. */
static int pass1_order(const struct board_state *st, int *out)
{
    int n = 0;
    for (int p = 0; p < 3; p++) {
        enum board_player pl = board_model_std_player(st, p);
        for (int cc = 0; cc < 2; cc++) {
            int start = n;
            if (pl == BOARD_NEUTRAL && !cc)
                continue; /* bot stop: neutral player-controlled groups stay */
            for (int i = 0; i < st->ngroups; i++) {
                const struct board_group *g = &st->groups[i];
                if (g->gone || g->owner != pl || g->computer != cc || !g->has_order)
                    continue;
                out[n++] = i;
            }
            /* insertion sort by movement-order sequence (small n, stable) */
            for (int i = start + 1; i < n; i++) {
                int x = out[i], j = i;
                while (j > start && cmp_seq(st, out[j - 1], x) > 0) {
                    out[j] = out[j - 1];
                    j--;
                }
                out[j] = x;
            }
        }
    }
    return n;
}

static void log_bounce(struct board_state *st, int gi, int reason, int r, int c)
{
    struct board_event ev = board_model_event(BOARD_EV_BOUNCE);
    board_model_set_id(ev.a, st->groups[gi].id);
    ev.aux = (uint8_t)reason;
    ev.r1 = r; /* where it bounced from (pass I: its destination) */
    ev.c1 = c;
    ev.r2 = st->groups[gi].srow;
    ev.c2 = st->groups[gi].scol;
    board_model_log(st, &ev);
}

/* ---- pass II ---- */

struct vote_state {
    int *holder; /* per square: group index or -1 */
    int *ovs;    /* per square: order it first became overstacked, -1 never */
    int *pend;   /* per group: square it waits at, -1 none */
    int next_ovs;
};

static int stationary(const struct board_group *g)
{
    return !g->moved && g->row == g->srow && g->col == g->scol;
}

static int rank_seq(const struct board_state *st, int gi)
{
    const struct board_group *g = &st->groups[gi];
    if (g->owner == BOARD_NEUTRAL || g->order_seq < 0)
        return 2 * BOARD_FORCED_SEQ + gi; /* the group sequence */
    return g->order_seq;
}

/* Compares two groups by the II.c tie-breaks. Negative: a wins. *reason: the deciding one. */
static int compare(const struct board_state *st, int a, int b, int *reason)
{
    const struct board_group *ga = &st->groups[a], *gb = &st->groups[b];
    int x;

    if ((x = stationary(gb) - stationary(ga)) != 0) {
        *reason = BOARD_R_STATIONARY;
        return x;
    }
    if ((x = board_model_exc_rank(st, ga->owner) - board_model_exc_rank(st, gb->owner)) != 0) {
        *reason = BOARD_R_INITIATIVE;
        return x;
    }
    if ((x = board_model_alive(gb) - board_model_alive(ga)) != 0) {
        *reason = BOARD_R_LARGER;
        return x;
    }
    *reason = BOARD_R_SEQUENCE;
    return rank_seq(st, a) - rank_seq(st, b);
}

static int best_pending(const struct board_state *st, const struct vote_state *vs, int sq)
{
    int best = -1, reason;
    for (int i = 0; i < st->ngroups; i++) {
        if (vs->pend[i] != sq || st->groups[i].gone)
            continue;
        if (best < 0 || compare(st, i, best, &reason) < 0)
            best = i;
    }
    return best;
}

static void take_square(struct board_state *st, struct vote_state *vs, int gi, int sq)
{
    struct board_group *g = &st->groups[gi];
    vs->holder[sq] = gi;
    vs->pend[gi] = -1;
    if (g->row != g->srow || g->col != g->scol) {
        /* A moving winner also walks in: exit, move, enter. */
        struct board_event ev = board_model_event(BOARD_EV_MOVE);
        board_model_set_id(ev.a, g->id);
        ev.r1 = g->srow;
        ev.c1 = g->scol;
        ev.r2 = g->row;
        ev.c2 = g->col;
        board_model_log(st, &ev);
        if (!walk_effects(st, gi, g->srow, g->scol, g->row, g->col))
            vs->holder[sq] = -1;
    }
}

static void join(struct board_state *st, int loser, int winner)
{
    struct board_group *l = &st->groups[loser], *w = &st->groups[winner];
    struct board_event ev = board_model_event(BOARD_EV_JOIN);

    board_model_set_id(ev.a, l->id);
    board_model_set_id(ev.b, w->id);
    ev.r1 = w->row;
    ev.c1 = w->col;
    for (int i = 0; i < l->n; i++) {
        if (!l->m[i].alive)
            continue;
        w->m[w->n++] = l->m[i];
    }
    l->n = 0;
    l->gone = 1;
    st->spells_dirty = 1; /* the joined minions have new indices */
    /* The joining group ceases to exist, so its group spells go (rules/board.md). */
    board_model_dispel_group(st, l->id);
    ev.v1 = board_model_alive(w);
    board_model_log(st, &ev);
}

static void resolve_loser(struct board_state *st, struct vote_state *vs, int loser, int winner,
                          int sq)
{
    struct board_group *l = &st->groups[loser];
    int at_start = l->row == l->srow && l->col == l->scol;
    int ssq;

    if (!board_model_hostile(l->owner, st->groups[winner].owner) &&
        board_events_can_join(st, loser, winner)) {
        if (!at_start && !walk_effects(st, loser, l->srow, l->scol, l->row, l->col))
            return; /* it did not survive the walk in */
        join(st, loser, winner);
        return;
    }
    if (at_start) {
        /* II.e: it lost its own start square and cannot join: moonwalk (or removal). */
        if (board_move_place(st, loser, 1) && !l->gone)
            vs->holder[board_sq(st, l->row, l->col)] = loser;
        return;
    }
    log_bounce(st, loser,
               board_model_hostile(l->owner, st->groups[winner].owner) ? BOARD_R_HOSTILE
                                                                       : BOARD_R_CANNOT_JOIN,
               l->row, l->col);
    (void)sq;
    l->row = l->srow;
    l->col = l->scol;
    ssq = board_sq(st, l->row, l->col);
    if (vs->holder[ssq] >= 0 && st->groups[vs->holder[ssq]].gone)
        vs->holder[ssq] = -1;
    if (vs->holder[ssq] < 0 && best_pending(st, vs, ssq) < 0) {
        vs->holder[ssq] = loser; /* its square is free: it simply returns */
        return;
    }
    vs->pend[loser] = ssq; /* a new overstack in its start square (II.e) */
    if (vs->ovs[ssq] < 0)
        vs->ovs[ssq] = vs->next_ovs++;
}

static void vote(struct board_state *st, struct vote_state *vs, int sq, int challenger)
{
    int holder = vs->holder[sq], reason = 0, winner, loser;
    struct board_event ev = board_model_event(BOARD_EV_VOTE);

    vs->pend[challenger] = -1;
    if (compare(st, holder, challenger, &reason) < 0) {
        winner = holder;
        loser = challenger;
    } else {
        winner = challenger;
        loser = holder;
    }
    board_model_set_id(ev.a, st->groups[winner].id);
    board_model_set_id(ev.b, st->groups[loser].id);
    ev.aux = (uint8_t)reason;
    ev.r1 = st->groups[winner].row;
    ev.c1 = st->groups[winner].col;
    board_model_log(st, &ev);
    if (winner != holder) {
        vs->holder[sq] = -1;
        take_square(st, vs, winner, sq);
        if (vs->holder[sq] < 0)
            return; /* the new winner died walking in; the old one still lost nothing */
    }
    resolve_loser(st, vs, loser, winner, sq);
}

static enum sk_err pass2(struct board_state *st, struct vote_state *vs, int *sqlist)
{
    int nsq = st->rows * st->cols;

    /* Lone groups win their squares at once, in pass I order of arrival (square order). */
    for (int sq = 0; sq < nsq; sq++) {
        int n = 0, only = -1;
        if (vs->ovs[sq] >= 0)
            continue;
        for (int i = 0; i < st->ngroups; i++)
            if (vs->pend[i] == sq) {
                n++;
                only = i;
            }
        if (n == 1)
            take_square(st, vs, only, sq);
    }
    for (;;) {
        int n = 0;
        for (int sq = 0; sq < nsq; sq++)
            if (vs->ovs[sq] >= 0 && best_pending(st, vs, sq) >= 0)
                sqlist[n++] = sq;
        if (n == 0)
            break;
        for (int i = 1; i < n; i++) { /* by time of first overstack */
            int x = sqlist[i], j = i;
            while (j > 0 && vs->ovs[sqlist[j - 1]] > vs->ovs[x]) {
                sqlist[j] = sqlist[j - 1];
                j--;
            }
            sqlist[j] = x;
        }
        for (int k = 0; k < n; k++) {
            int sq = sqlist[k], c;
            if (vs->holder[sq] >= 0 && st->groups[vs->holder[sq]].gone)
                vs->holder[sq] = -1;
            if (vs->holder[sq] < 0) {
                c = best_pending(st, vs, sq);
                if (c < 0)
                    continue;
                take_square(st, vs, c, sq);
                if (vs->holder[sq] < 0)
                    continue;
            }
            c = best_pending(st, vs, sq);
            if (c >= 0)
                vote(st, vs, sq, c);
        }
    }
    return st->oom;
}

/* Pass I over the groups in `order`: checks (I.a), then overstacking (I.b). Records in
 * ovs the order in which squares first become overstacked. */
static void pass1(struct board_state *st, const int *order, int n, struct vote_state *vs)
{
    for (int k = 0; k < n; k++) {
        struct board_group *g = &st->groups[order[k]];
        int r = g->orow, c = g->ocol, hostile = 0, others = 0;
        struct board_event ev;

        /* Pass I.a queries: "can move" (the group's spells) and "can exit" (its square's). */
        if (board_events_group_forbids(st, BOARD_P_CAN_MOVE, order[k], -1, -1)) {
            log_bounce(st, order[k], BOARD_R_CANNOT_MOVE, r, c);
            continue;
        }
        if (board_events_group_forbids(st, BOARD_P_CAN_EXIT, order[k], g->row, g->col)) {
            log_bounce(st, order[k], BOARD_R_CANNOT_EXIT, r, c);
            continue;
        }
        if (!board_events_can_enter(st, order[k], r, c)) {
            log_bounce(st, order[k], BOARD_R_CANNOT_ENTER, r, c);
            continue;
        }
        for (int i = 0; i < st->ngroups; i++) {
            const struct board_group *o = &st->groups[i];
            if (i == order[k] || o->gone || o->row != r || o->col != c)
                continue;
            others++;
            hostile |= board_model_hostile(o->owner, g->owner);
        }
        if (hostile) {
            log_bounce(st, order[k], BOARD_R_OCCUPIED, r, c);
            continue;
        }
        ev = board_model_event(BOARD_EV_OVERSTACK);
        board_model_set_id(ev.a, g->id);
        ev.r1 = g->row;
        ev.c1 = g->col;
        ev.r2 = r;
        ev.c2 = c;
        ev.v1 = others + 1;
        board_model_log(st, &ev);
        g->row = r;
        g->col = c;
        g->moved = 1;
        if (others > 0 && vs->ovs[board_sq(st, r, c)] < 0)
            vs->ovs[board_sq(st, r, c)] = vs->next_ovs++;
    }
}

enum sk_err board_move_run(struct board_state *st)
{
    size_t nsq = (size_t)st->rows * (size_t)st->cols;
    size_t ng = (size_t)st->ngroups + 1;
    int *order = sk_malloc(sizeof(int) * ng);
    int *holder = sk_malloc(sizeof(int) * nsq);
    int *ovs = sk_malloc(sizeof(int) * nsq);
    int *pend = sk_malloc(sizeof(int) * ng);
    int *sqlist = sk_malloc(sizeof(int) * nsq);
    struct vote_state vs;
    enum sk_err err = SK_OK;

    if (!order || !holder || !ovs || !pend || !sqlist) {
        err = SK_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < nsq; i++) {
        holder[i] = -1;
        ovs[i] = -1;
    }
    vs.holder = holder;
    vs.ovs = ovs;
    vs.pend = pend;
    vs.next_ovs = 0;
    /* Start squares: where each group stands when movement begins (after spells). */
    for (int i = 0; i < st->ngroups; i++) {
        st->groups[i].srow = st->groups[i].row;
        st->groups[i].scol = st->groups[i].col;
        st->groups[i].moved = 0;
    }
    pass1(st, order, pass1_order(st, order), &vs);
    /* Pass II: every group waits at its square; lone ones win at once. */
    for (int i = 0; i < st->ngroups; i++)
        pend[i] = st->groups[i].gone ? -1 : board_sq(st, st->groups[i].row, st->groups[i].col);
    err = pass2(st, &vs, sqlist);
out:
    sk_free(order);
    sk_free(holder);
    sk_free(ovs);
    sk_free(pend);
    sk_free(sqlist);
    return err;
}
