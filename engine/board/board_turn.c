/* SPDX-License-Identifier: MIT */
/* Turn resolution (see board_turn.h). */
#include "board_turn.h"

#include <stdio.h>
#include <string.h>

#include "board_combat.h"
#include "board_events.h"
#include "board_move.h"
#include "board_spells.h"

#include "sk_banned.h"

/* The group a square spell's effect reaches: the live group on it, or -1. */
static int group_at(const struct board_state *st, int r, int c)
{
    for (int i = 0; i < st->ngroups; i++)
        if (!st->groups[i].gone && st->groups[i].row == r && st->groups[i].col == c)
            return i;
    return -1;
}

/* Applies Apply Damage of `amount` to every minion a spell reaches. */
static void damage_targets(struct board_state *st, const struct board_spell *sp, int amount)
{
    for (int gi = 0; gi < st->ngroups; gi++) {
        struct board_group *g = &st->groups[gi];
        int whole;
        if (g->gone)
            continue;
        switch (sp->kind) {
        case BOARD_T_GROUP:
            whole = strcmp(g->id, sp->target) == 0;
            break;
        case BOARD_T_SQUARE:
        case BOARD_T_STRUCTURE:
        case BOARD_T_TERRAIN:
            whole = g->row == sp->row && g->col == sp->col;
            break;
        case BOARD_T_GLOBE:
            whole = 1;
            break;
        case BOARD_T_PLAYER:
            whole = g->owner == sp->player;
            break;
        default:
            whole = 0;
            break;
        }
        for (int i = 0; i < g->n; i++) {
            if (!g->m[i].alive || g->gone)
                continue;
            if (!whole && !(sp->kind == BOARD_T_INDIVIDUAL && strcmp(g->m[i].id, sp->target) == 0))
                continue;
            board_events_log_effect(st, sp, BOARD_A_DAMAGE, g->m[i].id, amount);
            board_events_apply_damage(st, gi, i, amount, sp->def);
        }
    }
}

/* Attract: every group hostile to the caster beside square (r, c) is ordered into it. */
static void attract(struct board_state *st, const struct board_spell *sp, int r, int c,
                    int *forced_seq)
{
    for (int d = 0; d < 4; d++) {
        int gi = group_at(st, r - board_move_dir[d][0], c - board_move_dir[d][1]);
        if (gi < 0 || !board_model_hostile(st->groups[gi].owner, sp->caster))
            continue;
        board_move_force(st, gi, r, c, sp->def, forced_seq);
    }
}

/* Player-applied events: neutral, initiative, non-initiative (seed 002), each player's
 * spells oldest to youngest. */
static void player_event(struct board_state *st, enum board_point point, int *forced_seq)
{
    for (int p = 0; p < 3; p++) {
        enum board_player pl = board_model_event_player(st, p);
        int n = st->nspells; /* spells cast by these effects would wait for the next event */
        for (int i = 0; i < n; i++) {
            struct board_spell sp = st->spells[i];
            const struct board_spell_def *d = &st->defs[sp.def];
            if (sp.gone || sp.caster != pl)
                continue;
            for (int k = 0; k < d->neffects; k++) {
                const struct board_effect *e = &d->effects[k];
                int gi;
                if (e->point != point || st->spells[i].gone)
                    continue;
                switch (e->action) {
                case BOARD_A_DAMAGE:
                    damage_targets(st, &sp, e->amount);
                    break;
                case BOARD_A_RANDOM_DIRECTION:
                    gi = board_model_find_group(st, sp.target);
                    if (gi >= 0)
                        board_move_random_direction(st, gi, sp.def, forced_seq);
                    break;
                case BOARD_A_ATTRACT:
                    if (sp.kind == BOARD_T_GROUP) {
                        gi = board_model_find_group(st, sp.target);
                        if (gi >= 0)
                            attract(st, &sp, st->groups[gi].row, st->groups[gi].col, forced_seq);
                    } else {
                        attract(st, &sp, sp.row, sp.col, forced_seq);
                    }
                    break;
                default:
                    break;
                }
            }
        }
    }
}

static void log_cast(struct board_state *st, enum board_ev_type type, const struct board_cast *c)
{
    struct board_event ev = board_model_event(type);
    ev.spell = (int16_t)c->def;
    ev.aux = (uint8_t)c->player;
    board_model_set_id(ev.a, c->target);
    if (c->kind == BOARD_T_SQUARE || c->kind == BOARD_T_STRUCTURE || c->kind == BOARD_T_TERRAIN) {
        ev.r1 = c->row;
        ev.c1 = c->col;
    }
    if (c->kind == BOARD_T_PLAYER)
        board_model_set_id(ev.a, board_model_player_name(c->tplayer));
    board_model_log(st, &ev);
}

/* A minion leaves its group (LEAVE): a new group of its own, moved to the nearest free
 * square. Its individual spells stay (they name the minion); the group's stay behind. */
static void leave_group(struct board_state *st, const struct board_spell *sp, int gi, int mi)
{
    struct board_group *old = &st->groups[gi];
    struct board_group *ng;
    struct board_event ev;
    char id[BOARD_ID_MAX];

    if (board_model_alive(old) < 2)
        return; /* a lone minion has no group to leave */
    if (st->ngroups >= st->gcap)
        return; /* reserved per cast before the phase; cannot happen */
    /* The new group is named after the minion, with "~2", "~3"... if a group has that name. */
    board_model_set_id(id, old->m[mi].id);
    for (int k = 2; board_model_find_group(st, id) >= 0 && k < 1000; k++) {
        char name[BOARD_ID_MAX + 8];
        size_t len = strlen(old->m[mi].id);
        if (len > BOARD_ID_MAX - 5)
            len = BOARD_ID_MAX - 5;
        snprintf(name, sizeof(name), "%.*s~%d", (int)len, old->m[mi].id, k);
        board_model_set_id(id, name);
    }
    ng = &st->groups[st->ngroups++];
    memset(ng, 0, sizeof(*ng));
    board_model_set_id(ng->id, id);
    ng->owner = old->owner;
    ng->computer = old->computer;
    ng->row = ng->srow = old->row;
    ng->col = ng->scol = old->col;
    ng->order_seq = -1;
    ng->n = 1;
    ng->m[0] = old->m[mi];
    st->spells_dirty = 1;
    old->m[mi].alive = 0; /* it is in the new group now; compaction drops this slot */
    ev = board_model_event(BOARD_EV_LEAVE);
    board_model_set_id(ev.a, ng->m[0].id);
    board_model_set_id(ev.b, old->id);
    ev.spell = (int16_t)sp->def;
    ev.r1 = old->row;
    ev.c1 = old->col;
    board_model_log(st, &ev);
    board_move_place(st, st->ngroups - 1, 0);
}

static void cast_effects(struct board_state *st, const struct board_spell *sp, int *forced_seq)
{
    const struct board_spell_def *d = &st->defs[sp->def];
    for (int k = 0; k < d->neffects; k++) {
        const struct board_effect *e = &d->effects[k];
        int gi, mi = 0;
        if (e->point != BOARD_P_CAST)
            continue;
        switch (e->action) {
        case BOARD_A_CANCEL_ORDER:
            if ((gi = board_model_find_group(st, sp->target)) >= 0) {
                st->groups[gi].has_order = 0;
                {
                    struct board_event ev = board_model_event(BOARD_EV_ORDER);
                    board_model_set_id(ev.a, st->groups[gi].id);
                    ev.spell = (int16_t)sp->def;
                    ev.r1 = st->groups[gi].row;
                    ev.c1 = st->groups[gi].col;
                    board_model_log(st, &ev);
                }
            }
            break;
        case BOARD_A_RANDOM_DIRECTION:
            if ((gi = board_model_find_group(st, sp->target)) >= 0)
                board_move_random_direction(st, gi, sp->def, forced_seq);
            break;
        case BOARD_A_SET_TERRAIN:
            st->terrain[board_sq(st, sp->row, sp->col)] = (uint8_t)e->terrain;
            {
                struct board_event ev = board_model_event(BOARD_EV_EFFECT);
                ev.spell = (int16_t)sp->def;
                ev.aux = (uint8_t)e->action;
                board_model_set_id(ev.b, board_model_player_name(sp->caster));
                ev.r1 = sp->row;
                ev.c1 = sp->col;
                ev.v1 = e->terrain;
                board_model_log(st, &ev);
            }
            break;
        case BOARD_A_KILL:
            for (gi = 0; gi < st->ngroups; gi++) {
                struct board_group *g = &st->groups[gi];
                if (g->gone)
                    continue;
                for (int i = 0; i < g->n; i++) {
                    int hit = sp->kind == BOARD_T_GROUP ? strcmp(g->id, sp->target) == 0
                                                        : strcmp(g->m[i].id, sp->target) == 0;
                    if (!hit || !g->m[i].alive)
                        continue;
                    board_events_log_effect(st, sp, e->action, g->m[i].id, 0);
                    board_events_death(st, gi, i, -1, -1);
                }
            }
            break;
        case BOARD_A_DAMAGE:
            damage_targets(st, sp, e->amount);
            break;
        case BOARD_A_LEAVE_GROUP:
            if ((gi = board_model_find_minion(st, sp->target, &mi)) >= 0)
                leave_group(st, sp, gi, mi);
            break;
        default:
            break;
        }
    }
}

/* Phase 3: one cast. A target already dead or gone squanders (DEATH). */
static enum sk_err execute(struct board_state *st, const struct board_cast *c, int *forced_seq)
{
    const struct board_spell_def *d = &st->defs[c->def];
    struct board_spell sp;
    int gi = -1, mi = 0, ok = 1;
    enum sk_err err;

    memset(&sp, 0, sizeof(sp));
    sp.def = c->def;
    sp.caster = c->player;
    sp.kind = c->kind;
    board_model_set_id(sp.target, c->target);
    sp.row = c->row;
    sp.col = c->col;
    sp.player = c->tplayer;
    sp.turns_left = d->duration == BOARD_D_TEMPORARY ? d->turns : -1;
    sp.bind = -1;
    switch (c->kind) {
    case BOARD_T_INDIVIDUAL:
        ok = (gi = board_model_find_minion(st, c->target, &mi)) >= 0;
        break;
    case BOARD_T_GROUP:
        ok = (gi = board_model_find_group(st, c->target)) >= 0;
        break;
    case BOARD_T_STRUCTURE:
        ok = st->structure[board_sq(st, c->row, c->col)] == BOARD_TOWN ||
             st->structure[board_sq(st, c->row, c->col)] == BOARD_COLONY;
        break;
    case BOARD_T_TERRAIN:
        ok = st->structure[board_sq(st, c->row, c->col)] == BOARD_NO_STRUCTURE;
        break;
    default:
        break;
    }
    if (!ok) {
        log_cast(st, BOARD_EV_SQUANDER, c);
        return SK_OK;
    }
    log_cast(st, BOARD_EV_CAST, c);
    for (int k = 0; k < d->neffects; k++)
        if (d->effects[k].action == BOARD_A_TERRAIN_BIND && gi >= 0)
            sp.bind = st->terrain[board_sq(st, st->groups[gi].row, st->groups[gi].col)];
    if (d->duration != BOARD_D_INSTANT) {
        err = board_model_add_spell(st, &sp);
        if (err == SK_ERANGE) {
            log_cast(st, BOARD_EV_SQUANDER, c); /* the board holds no more spells */
            return SK_OK;
        }
        if (err)
            return err;
        sp.age = st->spells[st->nspells - 1].age;
    }
    cast_effects(st, &sp, forced_seq);
    return st->oom;
}

static void end_of_turn(struct board_state *st)
{
    for (int i = 0; i < st->nspells; i++) {
        struct board_spell *sp = &st->spells[i];
        if (sp->gone || sp->turns_left < 0)
            continue;
        if (--sp->turns_left <= 0) {
            struct board_event ev = board_model_event(BOARD_EV_EXPIRE);
            ev.spell = (int16_t)sp->def;
            board_model_set_id(ev.a, sp->target);
            if (sp->kind == BOARD_T_SQUARE || sp->kind == BOARD_T_STRUCTURE ||
                sp->kind == BOARD_T_TERRAIN) {
                ev.r1 = sp->row;
                ev.c1 = sp->col;
            }
            board_model_log(st, &ev);
            sp->gone = 1;
        }
    }
}

/* Writes the job's orders of this turn: phase 2 for player-controlled, non-neutral groups
 * (computer = 0), or phase 4's last step for computer-controlled groups (computer = 1),
 * whose order stands in for their movement AI and overwrites any forced movement. */
static void give_orders(struct board_state *st, const struct board_plan *plan, int computer)
{
    if (computer)
        for (int i = 0; i < st->ngroups; i++)
            if (st->groups[i].computer)
                st->groups[i].has_order = 0;
    for (int i = 0; i < plan->norders; i++) {
        const struct board_order *o = &plan->orders[i];
        struct board_group *g;
        int gi;
        if (o->turn != st->turn || (gi = board_model_find_group(st, o->group)) < 0)
            continue;
        g = &st->groups[gi];
        if (g->computer != computer || (!computer && g->owner == BOARD_NEUTRAL))
            continue;
        g->has_order = 1;
        g->orow = g->row + board_move_dir[o->dir][0];
        g->ocol = g->col + board_move_dir[o->dir][1];
        g->order_seq = o->seq;
    }
}

enum sk_err board_turn_run(struct board_state *st, const struct board_plan *plan)
{
    struct board_event ev = board_model_event(BOARD_EV_TURN);
    int forced_seq = BOARD_FORCED_SEQ;
    int ncasts = 0;
    enum sk_err err;

    rng_init(&st->rng, plan->seed, (clc_u64)st->turn);
    ev.aux = (uint8_t)st->initiative;
    board_model_log(st, &ev);
    for (int i = 0; i < plan->ncasts; i++)
        ncasts += plan->casts[i].turn == st->turn;
    err = board_model_reserve_groups(st, ncasts);
    if (err)
        return err;
    for (int i = 0; i < st->ngroups; i++) {
        st->groups[i].has_order = 0;
        st->groups[i].order_seq = -1;
    }

    /* Phase 1: start of turn. Phase 2: the players' movement orders. */
    player_event(st, BOARD_P_START_OF_TURN, &forced_seq);
    give_orders(st, plan, 0);

    /* Phase 3: spell execution, players in standard order, casts in issue order. */
    for (int p = 0; p < 3; p++) {
        enum board_player pl = board_model_std_player(st, p);
        for (int i = 0; i < plan->ncasts; i++) {
            if (plan->casts[i].turn != st->turn || plan->casts[i].player != pl)
                continue;
            err = execute(st, &plan->casts[i], &forced_seq);
            if (err)
                return err;
        }
    }

    /* Phase 4: before-movement effects, then each computer-controlled group's own order,
     * then the two passes. */
    player_event(st, BOARD_P_BEFORE_MOVEMENT, &forced_seq);
    give_orders(st, plan, 1);
    err = board_move_run(st);
    if (err)
        return err;

    /* Combat, then end of turn. */
    err = board_combat_run(st);
    if (err)
        return err;
    end_of_turn(st);
    board_model_compact(st);
    st->turn++;
    return st->oom;
}
