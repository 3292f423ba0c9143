/* SPDX-License-Identifier: MIT */
/* Damage and death pipelines (see board_damage.h). Step names follow seed 003. */
#include "board_damage.h"

#include <string.h>

#include "board_events.h"

#include "sk_banned.h"

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

int board_damage_take(struct board_state *st, int vg, int vm, int ag, int am, int quantity,
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

int board_damage_apply(struct board_state *st, int gi, int mi, int quantity, int def)
{
    int r;
    (void)def; /* the spell is named by the caller's effect event */
    /* G1: sanity. */
    if (st->groups[gi].gone || !st->groups[gi].m[mi].alive)
        return -1;
    /* G2: magical, no attacker. */
    r = board_damage_take(st, gi, mi, -1, -1, quantity, 1, 1);
    /* G3: a "dies" death. */
    if (r == BOARD_KILLED)
        board_damage_death(st, gi, mi, -1, -1);
    return r;
}

void board_damage_death(struct board_state *st, int gi, int mi, int kg, int km)
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

int board_damage_base(const struct board_minion *m, int round)
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

int board_damage_attack(struct board_state *st, int ag, int am, int vg, int vm, int round)
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
    ctx.quantity = board_damage_base(a, round);
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
    r = board_damage_take(st, vg, vm, ag, am, ctx.quantity, ctx.ignores_armor, 0);
    /* A4: "when ... hits", whatever A3 returned. */
    if (a->alive)
        attacker_event(st, &ctx, BOARD_P_HITS, ag);
    /* A5: "when ... damages", only on a damaged result (0 points count). */
    if (r == BOARD_DAMAGED && a->alive)
        attacker_event(st, &ctx, BOARD_P_DAMAGES, ag);
    /* A6: a killed victim goes through Minion Death as a "kills" death. */
    if (r == BOARD_KILLED)
        board_damage_death(st, vg, vm, ag, am);
    /* A7: halt. */
    return r;
}
