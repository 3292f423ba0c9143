/* SPDX-License-Identifier: MIT */
/* Combat (see board_combat.h). */
#include "board_combat.h"

#include <string.h>

#include "board_events.h"
#include "board_move.h"
#include "sk_mem.h"

#include "sk_banned.h"

static int is_basher(const struct board_minion *m)
{
    return m->attacks > 0 && !board_model_shooter(m);
}

/* Wise targeting: a victim this hit can kill, else the lowest current health; non-
 * combatants last; ties by group order. The estimate uses the A2 base quantity and the
 * victim's current armor (spell effects are not foreseen). */
static int wise(const struct board_state *st, const struct board_minion *a, int eg, int round)
{
    const struct board_group *e = &st->groups[eg];
    int best = -1, bkey[3] = {0, 0, 0};
    int q = board_events_attack_base(a, round);

    for (int i = 0; i < e->n; i++) {
        const struct board_minion *v = &e->m[i];
        int key[3];
        if (!v->alive)
            continue;
        key[0] = v->attacks == 0;
        key[1] = !(q - v->cur_armor >= v->health);
        key[2] = v->health;
        if (best < 0 || key[0] < bkey[0] ||
            (key[0] == bkey[0] && (key[1] < bkey[1] || (key[1] == bkey[1] && key[2] < bkey[2])))) {
            best = i;
            memcpy(bkey, key, sizeof(key));
        }
    }
    return best;
}

static int random_enemy(struct board_state *st, int eg)
{
    const struct board_group *e = &st->groups[eg];
    int n = board_model_alive(e), k;
    if (n == 0)
        return -1;
    k = (int)rng_below(&st->rng, (clc_u32)n);
    for (int i = 0; i < e->n; i++)
        if (e->m[i].alive && k-- == 0)
            return i;
    return -1;
}

/* The victim of minion (g, i)'s next attack against group eg, or -1 to forfeit. */
static int choose(struct board_state *st, int g, int i, int eg, int round, const int *paired)
{
    struct board_minion *m = &st->groups[g].m[i];
    const struct board_group *e = &st->groups[eg];
    int nth = m->attacks - m->attacks_left + 1;

    if (nth >= 2)
        return random_enemy(st, eg); /* a multi-attacker's later attacks */
    if (is_basher(m) && paired[i]) {
        if (m->victim >= 0 && e->m[m->victim].alive)
            return m->victim;
        /* idle: retaliate against the last enemy that attacked it, else forfeit */
        if (m->last_attacker >= 0 && e->m[m->last_attacker].alive)
            return m->last_attacker;
        return -1;
    }
    return wise(st, m, eg, round);
}

static int can_attack(const struct board_group *g)
{
    for (int i = 0; i < g->n; i++)
        if (g->m[i].alive && g->m[i].attacks > 0)
            return 1;
    return 0;
}

/* Round start: armor and attacks reset; bashers pair with enemy bashers by group order. */
static void round_start(struct board_state *st, const int side[2],
                        int paired[2][BOARD_GROUP_MINIONS])
{
    struct board_group *g0 = &st->groups[side[0]], *g1 = &st->groups[side[1]];
    int i = 0, j = 0;

    for (int s = 0; s < 2; s++) {
        struct board_group *g = &st->groups[side[s]];
        for (int k = 0; k < g->n; k++) {
            struct board_minion *m = &g->m[k];
            paired[s][k] = 0;
            if (!m->alive)
                continue;
            m->cur_armor = board_events_max_armor(st, side[s], k);
            m->attacks_left = m->attacks;
            m->victim = -1;
            m->last_attacker = -1;
        }
    }
    for (;;) {
        while (i < g0->n && !(g0->m[i].alive && is_basher(&g0->m[i])))
            i++;
        while (j < g1->n && !(g1->m[j].alive && is_basher(&g1->m[j])))
            j++;
        if (i >= g0->n || j >= g1->n)
            break;
        g0->m[i].victim = j;
        g1->m[j].victim = i;
        paired[0][i] = paired[1][j] = 1;
        i++;
        j++;
    }
}

/* The attacks of one round: each side in turn, precedence side first, one attack per able
 * minion in group order, until nobody has attacks left. */
static void round_attacks(struct board_state *st, const int side[2],
                          int paired[2][BOARD_GROUP_MINIONS], int round)
{
    int progress = 1;

    while (progress) {
        progress = 0;
        for (int s = 0; s < 2; s++) {
            int me = side[s], en = side[1 - s];
            for (int i = 0; i < st->groups[me].n; i++) {
                struct board_minion *m = &st->groups[me].m[i];
                int v;
                if (!m->alive || m->attacks_left <= 0)
                    continue;
                if (st->groups[en].gone || !board_model_alive(&st->groups[en]))
                    break;
                if (round == 1 && is_basher(m)) {
                    m->attacks_left = 0; /* bashers are still rushing in */
                    continue;
                }
                v = choose(st, me, i, en, round, paired[s]);
                if (v < 0) {
                    m->attacks_left = 0; /* forfeits the round */
                    continue;
                }
                m->attacks_left--;
                board_events_attack(st, me, i, en, v, round);
                progress = 1;
            }
        }
    }
}

int board_combat_fight(struct board_state *st, int a, int b)
{
    int side[2];
    int paired[2][BOARD_GROUP_MINIONS] = {{0}};
    int round = 0;
    size_t logi = st->nlog;
    struct board_event ev = board_model_event(BOARD_EV_COMBAT);

    /* Precedence: exceptional sequence; same owner: the older group (lower sequence). */
    {
        int ra = board_model_exc_rank(st, st->groups[a].owner);
        int rb = board_model_exc_rank(st, st->groups[b].owner);
        int first = (ra < rb || (ra == rb && a < b)) ? a : b;
        side[0] = first;
        side[1] = first == a ? b : a;
    }
    board_model_set_id(ev.a, st->groups[side[0]].id);
    board_model_set_id(ev.b, st->groups[side[1]].id);
    ev.r1 = st->groups[side[0]].row;
    ev.c1 = st->groups[side[0]].col;
    ev.r2 = st->groups[side[1]].row;
    ev.c2 = st->groups[side[1]].col;
    board_model_log(st, &ev);

    while (round < BOARD_COMBAT_ROUNDS) {
        struct board_group *g0 = &st->groups[side[0]], *g1 = &st->groups[side[1]];
        if (g0->gone || g1->gone || !board_model_alive(g0) || !board_model_alive(g1))
            break;
        if (!can_attack(g0) && !can_attack(g1))
            break;
        round++;
        round_start(st, side, paired);
        round_attacks(st, side, paired, round);
    }
    if (logi < st->nlog)
        st->log[logi].v1 = round; /* the combat event records the rounds fought */
    return round;
}

enum sk_err board_combat_run(struct board_state *st)
{
    int nsq = st->rows * st->cols;
    int *occ = sk_malloc(sizeof(int) * (size_t)nsq);
    int *pairs = sk_malloc(sizeof(int) * 2 * (size_t)(4 * st->ngroups + 1));
    int npairs = 0;
    enum sk_err err = SK_OK;

    if (!occ || !pairs) {
        err = SK_ENOMEM;
        goto out;
    }
    for (int i = 0; i < nsq; i++)
        occ[i] = -1;
    for (int i = 0; i < st->ngroups; i++)
        if (!st->groups[i].gone)
            occ[board_sq(st, st->groups[i].row, st->groups[i].col)] = i;
    /* Standard player order; each player's groups by group sequence; up, right, down, left. */
    for (int p = 0; p < 3; p++) {
        enum board_player pl = board_model_std_player(st, p);
        for (int gi = 0; gi < st->ngroups; gi++) {
            if (st->groups[gi].owner != pl)
                continue;
            for (int d = 0; d < 4; d++) {
                const struct board_group *g = &st->groups[gi];
                int r = g->row + board_move_dir[d][0], c = g->col + board_move_dir[d][1];
                int o, seen = 0;
                if (g->gone)
                    break;
                if (!board_model_playable(st, r, c) || (o = occ[board_sq(st, r, c)]) < 0)
                    continue;
                if (st->groups[o].gone || !board_model_hostile(g->owner, st->groups[o].owner))
                    continue;
                for (size_t k = 0; k < (size_t)npairs && !seen; k++)
                    seen = (pairs[2 * k] == gi && pairs[2 * k + 1] == o) ||
                           (pairs[2 * k] == o && pairs[2 * k + 1] == gi);
                if (seen)
                    continue;
                pairs[2 * (size_t)npairs] = gi;
                pairs[2 * (size_t)npairs + 1] = o;
                npairs++;
                board_combat_fight(st, gi, o);
            }
        }
    }
    err = st->oom;
out:
    sk_free(occ);
    sk_free(pairs);
    return err;
}
