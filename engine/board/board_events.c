/* SPDX-License-Identifier: MIT */
/* Events, effect actions, and the damage and death pipelines (see board_events.h). Step
 * names (D1-D4, A1-A7, ...) follow seed 003. */
#include "board_events.h"

#include <string.h>

#include "sk_banned.h"

/* ===== Events (seed 002) ===== */

struct board_ctx board_events_ctx(const struct board_state *st, enum board_point point, int vg,
                                  int vm)
{
    struct board_ctx c;
    memset(&c, 0, sizeof(c));
    c.point = point;
    c.vg = vg;
    c.vm = vm;
    c.ag = c.am = -1;
    c.row = vg >= 0 ? st->groups[vg].row : -1;
    c.col = vg >= 0 ? st->groups[vg].col : -1;
    return c;
}

void board_events_log_effect(struct board_state *st, const struct board_spell *sp, int action,
                             const char *at, int value)
{
    struct board_event ev = board_model_event(BOARD_EV_EFFECT);
    ev.spell = (int16_t)sp->def;
    ev.aux = (uint8_t)action;
    board_model_set_id(ev.a, at ? at : "");
    board_model_set_id(ev.b, board_model_player_name(sp->caster));
    ev.v1 = value;
    board_model_log(st, &ev);
}

int board_events_enchanted(const struct board_state *st, int gi, int mi)
{
    const struct board_group *g = &st->groups[gi];
    const struct board_minion *m = &g->m[mi];

    if (!m->alive)
        return 0; /* buried minions have no enchantments (seed 003, Fred the Bard) */
    for (int i = 0; i < st->nspells; i++) {
        const struct board_spell *sp = &st->spells[i];
        if (sp->gone)
            continue;
        if ((sp->kind == BOARD_T_INDIVIDUAL && strcmp(sp->target, m->id) == 0) ||
            (sp->kind == BOARD_T_GROUP && strcmp(sp->target, g->id) == 0))
            return 1;
    }
    return 0;
}

static int host_is_attacker(enum board_point p)
{
    return p == BOARD_P_ATTACKING || p == BOARD_P_HITS || p == BOARD_P_DAMAGES;
}

static int cond_holds(const struct board_state *st, const struct board_spell *sp,
                      const struct board_cond *c, const struct board_ctx *ctx)
{
    const struct board_minion *a = NULL;
    int needs_attacker = c->attacker_nation >= 0 || c->attacker_class >= 0 ||
                         c->attacker_recruit >= 0 || c->attacker_enchanted >= 0 ||
                         c->attacker_caster >= 0;

    if (c->magical >= 0 && c->magical != ctx->magical)
        return 0;
    if (!needs_attacker)
        return 1;
    if (ctx->ag < 0)
        return 0;
    a = &st->groups[ctx->ag].m[ctx->am];
    if (c->attacker_nation >= 0 && (int)a->nation != c->attacker_nation)
        return 0;
    if (c->attacker_class >= 0 && (int)a->cls != c->attacker_class)
        return 0;
    if (c->attacker_recruit >= 0 && (a->cls != BOARD_MONSTER) != c->attacker_recruit)
        return 0;
    if (c->attacker_enchanted >= 0 &&
        board_events_enchanted(st, ctx->ag, ctx->am) != c->attacker_enchanted)
        return 0;
    if (c->attacker_caster >= 0 && (st->groups[ctx->ag].owner == sp->caster) != c->attacker_caster)
        return 0;
    return 1;
}

/* Runs one effect's action in ctx. Host (hg, hm) is the minion the event is at. */
static void act(struct board_state *st, struct board_spell *sp, const struct board_effect *e,
                struct board_ctx *ctx, int hg, int hm)
{
    struct board_minion *host = &st->groups[hg].m[hm];

    switch (e->action) {
    case BOARD_A_ADD_MAX_ARMOR:
        ctx->armor_add += e->amount;
        return; /* a query: not logged */
    case BOARD_A_FORBID_JOIN:
    case BOARD_A_FORBID_MOVE:
    case BOARD_A_FORBID_EXIT:
        ctx->forbid = 1;
        return;
    case BOARD_A_CANCEL_DEATH:
        host->health = host->max_health;
        sp->gone = 1; /* it answers once */
        ctx->cancelled = 1;
        board_events_log_effect(st, sp, e->action, host->id, host->health);
        return;
    case BOARD_A_DAMAGE_KILLER:
        if (ctx->ag < 0 || !st->groups[ctx->ag].m[ctx->am].alive)
            return;
        board_events_log_effect(st, sp, e->action, st->groups[ctx->ag].m[ctx->am].id, e->amount);
        board_events_apply_damage(st, ctx->ag, ctx->am, e->amount, sp->def);
        return;
    case BOARD_A_TERRAIN_BIND:
        if (ctx->row >= 0 && sp->bind >= 0 &&
            st->terrain[board_sq(st, ctx->row, ctx->col)] != sp->bind)
            ctx->forbid = 1;
        return;
    case BOARD_A_IGNORES_ARMOR:
        ctx->ignores_armor = 1;
        break;
    case BOARD_A_DEAL_NO_DAMAGE:
        ctx->quantity = 0;
        break;
    case BOARD_A_ADD_DAMAGE:
        ctx->quantity += e->amount;
        break;
    case BOARD_A_ADD_TWICE_MAX_ARMOR:
        ctx->quantity += 2 * board_events_max_armor(st, hg, hm);
        break;
    case BOARD_A_DEFLECT:
        if (ctx->ag < 0 || !st->groups[ctx->ag].m[ctx->am].alive)
            return;
        board_events_log_effect(st, sp, e->action, host->id, ctx->quantity);
        board_events_apply_damage(st, ctx->ag, ctx->am, ctx->quantity, sp->def);
        return;
    case BOARD_A_RECEIVE_NO_DAMAGE:
        ctx->cancelled = 1;
        break;
    case BOARD_A_KILL_VICTIM:
        if (ctx->vg < 0 || !st->groups[ctx->vg].m[ctx->vm].alive)
            return;
        board_events_log_effect(st, sp, e->action, st->groups[ctx->vg].m[ctx->vm].id, 0);
        board_events_death(st, ctx->vg, ctx->vm, ctx->ag, ctx->am);
        return;
    case BOARD_A_LOWER_VICTIM_ARMOR: {
        struct board_minion *v;
        if (ctx->vg < 0)
            return;
        v = &st->groups[ctx->vg].m[ctx->vm];
        v->armor = v->armor > e->amount ? v->armor - e->amount : 0;
        board_events_log_effect(st, sp, e->action, v->id, v->armor);
        return;
    }
    case BOARD_A_GAIN_MAX_ARMOR:
        /* max only: current armor waits for the next round; capped at the input limit */
        host->armor = host->armor + e->amount > 99 ? 99 : host->armor + e->amount;
        board_events_log_effect(st, sp, e->action, host->id, host->armor);
        return;
    case BOARD_A_DAMAGE:
        board_events_log_effect(st, sp, e->action, host->id, e->amount);
        board_events_apply_damage(st, hg, hm, e->amount, sp->def);
        return;
    default:
        return; /* cast-time and player-applied actions are board_turn's */
    }
    board_events_log_effect(st, sp, e->action, host->id, ctx->quantity);
}

/* Uses the resolved indices of board_model_index_spells (fresh at the event's start;
 * spells gone since are skipped by the caller). */
static int on_minion(const struct board_spell *sp, int gi, int mi)
{
    return (sp->kind == BOARD_T_GROUP && sp->rg == gi) ||
           (sp->kind == BOARD_T_INDIVIDUAL && sp->rg == gi && sp->rm == mi);
}

static int on_square(const struct board_spell *sp, int r, int c)
{
    return (sp->kind == BOARD_T_SQUARE || sp->kind == BOARD_T_STRUCTURE ||
            sp->kind == BOARD_T_TERRAIN) &&
           sp->row == r && sp->col == c;
}

void board_events_minion(struct board_state *st, struct board_ctx *ctx)
{
    int hg = host_is_attacker(ctx->point) ? ctx->ag : ctx->vg;
    int hm = host_is_attacker(ctx->point) ? ctx->am : ctx->vm;

    if (hg < 0)
        return;
    board_model_index_spells(st);
    /* Levels: the minion (group and individual spells), its square, the globe. Each level
     * is checked oldest to youngest; the spells array is kept in casting order. */
    for (int level = 0; level < 3; level++) {
        const struct board_group *hgrp = &st->groups[hg];
        if (level == 0 && !hgrp->spelled && !hgrp->m[hm].spelled)
            continue;
        if (level == 1 && (ctx->row < 0 || !st->sqspells[board_sq(st, ctx->row, ctx->col)]))
            continue;
        if (level == 2 && !st->nglobe)
            continue;
        for (int i = 0; i < st->nspells; i++) {
            struct board_spell *sp = &st->spells[i];
            const struct board_spell_def *d;
            const struct board_group *g = &st->groups[hg];
            int match;

            if (sp->gone)
                continue;
            if (!g->m[hm].alive)
                return; /* a buried host has no spells and is on no square */
            match = level == 0   ? on_minion(sp, hg, hm)
                    : level == 1 ? on_square(sp, ctx->row, ctx->col)
                                 : sp->kind == BOARD_T_GLOBE;
            if (!match)
                continue;
            d = &st->defs[sp->def];
            for (int k = 0; k < d->neffects; k++) {
                const struct board_effect *e = &d->effects[k];
                if (e->point != ctx->point || !cond_holds(st, sp, &e->cond, ctx))
                    continue;
                act(st, sp, e, ctx, hg, hm);
                if (ctx->cancelled)
                    return;
            }
        }
    }
}

/* Applies `point` to each living minion of group gi in order, bubbling to (row, col).
 * Returns 1 as soon as a minion's answer forbids it when `stop_at_forbid` is set (later
 * minions are not asked); otherwise asks every minion and returns 0. */
static int each_minion(struct board_state *st, enum board_point point, int gi, int row, int col,
                       int stop_at_forbid)
{
    struct board_group *g = &st->groups[gi];
    for (int i = 0; i < g->n; i++) {
        struct board_ctx c;
        if (!g->m[i].alive)
            continue;
        c = board_events_ctx(st, point, gi, i);
        c.row = row;
        c.col = col;
        board_events_minion(st, &c);
        if (stop_at_forbid && c.forbid)
            return 1;
    }
    return 0;
}

void board_events_group(struct board_state *st, enum board_point point, int gi, int row, int col)
{
    (void)each_minion(st, point, gi, row, col, 0);
}

int board_events_group_forbids(struct board_state *st, enum board_point point, int gi, int row,
                               int col)
{
    return each_minion(st, point, gi, row, col, 1);
}

int board_events_max_armor(struct board_state *st, int gi, int mi)
{
    struct board_ctx c = board_events_ctx(st, BOARD_P_STATS, gi, mi);
    board_events_minion(st, &c);
    return st->groups[gi].m[mi].armor + c.armor_add;
}

static int terrain_ok(const struct board_minion *m, int t)
{
    unsigned w = board_model_walks(m);
    if (w & BOARD_WALK_FLIGHT)
        return 1;
    if (t == BOARD_MOUNTAIN)
        return (w & BOARD_WALK_MOUNTAIN) != 0;
    if (t == BOARD_WATER)
        return (w & BOARD_WALK_WATER) != 0;
    return 1;
}

int board_events_can_enter(struct board_state *st, int gi, int r, int c)
{
    struct board_group *g = &st->groups[gi];
    int t;

    if (!board_model_playable(st, r, c))
        return 0;
    t = st->terrain[board_sq(st, r, c)];
    for (int i = 0; i < g->n; i++) {
        struct board_ctx x;
        if (!g->m[i].alive)
            continue;
        if (!terrain_ok(&g->m[i], t))
            return 0;
        x = board_events_ctx(st, BOARD_P_CAN_ENTER, gi, i);
        x.row = r;
        x.col = c;
        board_events_minion(st, &x);
        if (x.forbid)
            return 0;
    }
    return 1;
}

int board_events_can_join(struct board_state *st, int a, int b)
{
    const struct board_group *ga = &st->groups[a];
    const struct board_group *gb = &st->groups[b];

    if (ga->owner != gb->owner || ga->owner == BOARD_NEUTRAL)
        return 0;
    if (ga->computer || gb->computer)
        return 0;
    if (!board_model_recruit_group(ga) || !board_model_recruit_group(gb))
        return 0;
    if (board_model_alive(ga) + board_model_alive(gb) > BOARD_GROUP_MINIONS)
        return 0;
    return !board_events_group_forbids(st, BOARD_P_CAN_JOIN, a, ga->row, ga->col) &&
           !board_events_group_forbids(st, BOARD_P_CAN_JOIN, b, gb->row, gb->col);
}

/* ===== Damage and death (seed 003) ===== */

static void log_damage(struct board_state *st, int vg, int vm, int ag, int am, int lost, int result,
                       int quantity)
{
    struct board_event ev = board_model_event(BOARD_EV_DAMAGE);
    const struct board_minion *v = &st->groups[vg].m[vm];
    board_model_set_id(ev.a, v->id);
    if (ag >= 0)
        board_model_set_id(ev.b, st->groups[ag].m[am].id);
    ev.aux = (uint8_t)result;
    ev.v1 = lost;
    ev.v2 = v->health;
    ev.r1 = quantity; /* the quantity that reached D4 (or the bounce point) */
    board_model_log(st, &ev);
}

int board_events_take_damage(struct board_state *st, int vg, int vm, int ag, int am, int quantity,
                             int ignores_armor, int magical)
{
    struct board_minion *v = &st->groups[vg].m[vm];
    struct board_ctx ctx = board_events_ctx(st, BOARD_P_BEFORE_ARMOR, vg, vm);
    int lost;

    ctx.ag = ag;
    ctx.am = am;
    ctx.quantity = quantity;
    ctx.magical = magical;
    ctx.ignores_armor = ignores_armor || magical;
    /* D1: before checking armor (also "is hit by"). */
    board_events_minion(st, &ctx);
    if (ctx.quantity < 0)
        ctx.quantity = 0;
    if (!v->alive) {
        log_damage(st, vg, vm, ag, am, 0, BOARD_KILLED, ctx.quantity);
        return BOARD_KILLED;
    }
    /* D2: armor soak, unless the damage ignores armor or is magical. */
    if (!ctx.ignores_armor) {
        int soak = ctx.quantity < v->cur_armor ? ctx.quantity : v->cur_armor;
        ctx.quantity -= soak;
        v->cur_armor -= soak;
        if (ctx.quantity == 0) {
            log_damage(st, vg, vm, ag, am, 0, BOARD_BOUNCED, 0);
            return BOARD_BOUNCED;
        }
    }
    /* D3: after checking armor. The cap at current health is applied in D4, not before
     * these effects: seed 003's own Fred examples deflect the uncapped 10 and 14
     * (rules/board.md, "Damage cap"). */
    ctx.point = BOARD_P_AFTER_ARMOR;
    board_events_minion(st, &ctx);
    if (ctx.cancelled) {
        log_damage(st, vg, vm, ag, am, 0, BOARD_BOUNCED, ctx.quantity);
        return BOARD_BOUNCED;
    }
    if (!v->alive) {
        log_damage(st, vg, vm, ag, am, 0, BOARD_KILLED, ctx.quantity);
        return BOARD_KILLED;
    }
    /* D4: apply, at most the victim's health. */
    lost = ctx.quantity < v->health ? ctx.quantity : v->health;
    v->health -= lost;
    log_damage(st, vg, vm, ag, am, lost, v->health > 0 ? BOARD_DAMAGED : BOARD_KILLED,
               ctx.quantity);
    return v->health > 0 ? BOARD_DAMAGED : BOARD_KILLED;
}

int board_events_apply_damage(struct board_state *st, int gi, int mi, int quantity, int def)
{
    int r;
    (void)def; /* the spell is named by the caller's effect event */
    /* G1: sanity. */
    if (st->groups[gi].gone || !st->groups[gi].m[mi].alive)
        return -1;
    /* G2: magical, no attacker. */
    r = board_events_take_damage(st, gi, mi, -1, -1, quantity, 1, 1);
    /* G3: a "dies" death. */
    if (r == BOARD_KILLED)
        board_events_death(st, gi, mi, -1, -1);
    return r;
}

void board_events_death(struct board_state *st, int gi, int mi, int kg, int km)
{
    struct board_group *g = &st->groups[gi];
    struct board_minion *m = &g->m[mi];
    struct board_event ev;

    if (!m->alive)
        return;
    /* E1: "when dying" effects; one may cancel the dying. */
    {
        struct board_ctx c = board_events_ctx(st, BOARD_P_DYING, gi, mi);
        c.ag = kg;
        c.am = km;
        board_events_minion(st, &c);
        if (c.cancelled && m->alive)
            return;
        if (!m->alive)
            return; /* an effect already buried it */
    }
    /* E2: for a "kills" death, "if killed" / "when killed" effects. */
    if (kg >= 0) {
        struct board_ctx c = board_events_ctx(st, BOARD_P_KILLED, gi, mi);
        c.ag = kg;
        c.am = km;
        board_events_minion(st, &c);
        if (!m->alive)
            return;
    }
    ev = board_model_event(BOARD_EV_DEATH);
    board_model_set_id(ev.a, m->id);
    board_model_set_id(ev.b, kg >= 0 ? st->groups[kg].m[km].id : "");
    ev.aux = kg >= 0; /* 1: a "kills" death, 0: a "dies" death */
    ev.r1 = g->row;
    ev.c1 = g->col;
    board_model_log(st, &ev);
    /* E3: burial. Individual spells are dispelled; leaving the group takes its group
     * spells away (they stay on the group); the minion goes to the graveyard. */
    board_model_dispel_minion(st, m->id);
    if (m->health < 0)
        m->health = 0;
    board_model_bury(st, gi, mi);
    /* E4: a group left empty is removed with its group spells. */
    if (board_model_alive(g) == 0) {
        g->gone = 1;
        board_model_dispel_group(st, g->id);
        ev = board_model_event(BOARD_EV_GROUP_DEATH);
        board_model_set_id(ev.a, g->id);
        ev.r1 = g->row;
        ev.c1 = g->col;
        board_model_log(st, &ev);
    }
}

int board_events_attack_base(const struct board_minion *m, int round)
{
    int q;
    if (board_model_shooter(m)) {
        q = m->missile;
        if (round == 1) {
            q -= 1; /* opening volley penalty */
            if (m->nation == BOARD_ELF || m->nation == BOARD_SATYR)
                q += 1;
        }
    } else {
        q = m->hand;
        if (round == 2 &&
            (m->nation == BOARD_IMP || m->nation == BOARD_KEEPER || m->nation == BOARD_HUMAN))
            q += 1;
    }
    return q < 0 ? 0 : q;
}

/* Applies `point` ("when ... hits" or "damages") of the attack `ctx` to its attacker, which
 * bubbles to the attacker's square. */
static void attacker_event(struct board_state *st, const struct board_ctx *ctx,
                           enum board_point point, int ag)
{
    struct board_ctx h = *ctx;
    h.point = point;
    h.row = st->groups[ag].row;
    h.col = st->groups[ag].col;
    h.cancelled = 0;
    board_events_minion(st, &h);
}

int board_events_attack(struct board_state *st, int ag, int am, int vg, int vm, int round)
{
    struct board_minion *a = &st->groups[ag].m[am];
    struct board_minion *v = &st->groups[vg].m[vm];
    struct board_ctx ctx;
    struct board_event ev;
    int r;

    /* A1: both alive. */
    if (!a->alive || !v->alive)
        return -1;
    /* A2: the quantity: round and nation modifiers, then the attacker's and the victim's
     * effects ("ignores armor", "deals no damage"). */
    ctx = board_events_ctx(st, BOARD_P_ATTACKING, vg, vm);
    ctx.ag = ag;
    ctx.am = am;
    ctx.quantity = board_events_attack_base(a, round);
    ctx.row = st->groups[ag].row;
    ctx.col = st->groups[ag].col;
    board_events_minion(st, &ctx);
    ctx.point = BOARD_P_ATTACKED;
    ctx.row = st->groups[vg].row;
    ctx.col = st->groups[vg].col;
    board_events_minion(st, &ctx);
    if (ctx.quantity < 0)
        ctx.quantity = 0;
    ev = board_model_event(BOARD_EV_ATTACK);
    board_model_set_id(ev.a, a->id);
    board_model_set_id(ev.b, v->id);
    ev.v1 = ctx.quantity;
    ev.v2 = round;
    ev.aux = (uint8_t)board_model_shooter(a);
    board_model_log(st, &ev);
    v->last_attacker = am;
    /* A3: Takes Damage with this attacker. */
    r = board_events_take_damage(st, vg, vm, ag, am, ctx.quantity, ctx.ignores_armor, 0);
    /* A4: "when ... hits", whatever A3 returned. */
    if (a->alive)
        attacker_event(st, &ctx, BOARD_P_HITS, ag);
    /* A5: "when ... damages", only on a damaged result (0 points count). */
    if (r == BOARD_DAMAGED && a->alive)
        attacker_event(st, &ctx, BOARD_P_DAMAGES, ag);
    /* A6: a killed victim goes through Minion Death as a "kills" death. */
    if (r == BOARD_KILLED)
        board_events_death(st, vg, vm, ag, am);
    /* A7: halt. */
    return r;
}
