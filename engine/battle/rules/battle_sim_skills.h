/* SPDX-License-Identifier: MIT */
/* Part of the rules of one battle game (battle_sim.h, which includes the parts in order:
 * state, play, target, skills, turn). What each skill does: applying an activation skill,
 * the passive ones, Summon, Mimic, Enhance and Evolve, triggers, deaths. */
#ifndef BATTLE_SIM_SKILLS_H
#define BATTLE_SIM_SKILLS_H

#include "battle_sim_target.h"

/* ---------------------------------------------------------------------------------------
 * Activation skills
 * ------------------------------------------------------------------------------------- */

CLC_INLINE void battle_sim_apply(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_game *g, int ts, clc_u32 id, clc_i32 x,
                                 CLC_PRIVATE struct battle_unit *u)
{
    clc_i32 d;
    switch (id) {
    case BATTLE_SKILL_STRIKE:
    case BATTLE_SKILL_SIEGE:
        battle_sim_strike(p, g, ts, u, x);
        break;
    case BATTLE_SKILL_MORTAR:
        /* X on a structure; on an assault (no structure to aim at) half, rounded up. */
        battle_sim_strike(p, g, ts, u, p->cards[u->card].type == BATTLE_ASSAULT ? (x + 1) / 2 : x);
        break;
    case BATTLE_SKILL_MEND:
        battle_sim_heal(u, x);
        break;
    case BATTLE_SKILL_FORTIFY:
        battle_sim_gain_hp(u, x);
        break;
    case BATTLE_SKILL_ENFEEBLE:
        u->enfeeble = battle_sim_sat((clc_i32)u->enfeeble + x);
        break;
    case BATTLE_SKILL_SUNDER: /* Weaken X besides */
    case BATTLE_SKILL_WEAKEN:
        if (id == BATTLE_SKILL_SUNDER)
            u->flags = (clc_u8)(u->flags | BATTLE_SIM_SUNDERED);
        /* As tuo: it takes at most the current power, so a later Rally still counts. */
        d = battle_sim_power(u);
        u->weaken = battle_sim_sat((clc_i32)u->weaken + (x < d ? x : d));
        break;
    case BATTLE_SKILL_JAM:
        u->flags = (clc_u8)(u->flags | BATTLE_SIM_JAMMED);
        break;
    case BATTLE_SKILL_HEAL:
        battle_sim_heal(u, x);
        break;
    case BATTLE_SKILL_RALLY:
        u->rally = battle_sim_sat((clc_i32)u->rally + x);
        break;
    case BATTLE_SKILL_PROTECT:
        u->protect = battle_sim_sat((clc_i32)u->protect + x);
        break;
    case BATTLE_SKILL_ENRAGE:
        if (!BATTLE_SIM_UR) /* Enrage and Entrap are among the rarer skills */
            break;
        BATTLE_SIM_R(u)->enraged = battle_sim_sat((clc_i32)BATTLE_SIM_R(u)->enraged + x);
        /* Furiosity (the passive effect of the side whose turn it is): it heals X too. */
        if (battle_sim_has(p, BATTLE_SIM_PV(FURIOSITY)) &&
            battle_sim_passive(p, battle_sim_active(p->mode, g->turn), BATTLE_PASSIVE_FURIOSITY))
            battle_sim_heal_hurt(u, x);
        break;
    case BATTLE_SKILL_ENTRAP:
        if (!BATTLE_SIM_UR)
            break;
        BATTLE_SIM_R(u)->entrapped = battle_sim_sat((clc_i32)BATTLE_SIM_R(u)->entrapped + x);
        break;
    case BATTLE_SKILL_OVERLOAD:
        u->state = (clc_u8)(u->state | BATTLE_SIM_OVERLOADED);
        break;
    case BATTLE_SKILL_ENHANCE: /* the unit plays the variant of its card (battle_mods) */
    case BATTLE_SKILL_EVOLVE:
        if (x >= 0 && x < (clc_i32)p->n_mods && p->mod_to[u->card][x] != BATTLE_SIM_CARD_NONE) {
            clc_u16 to = p->mod_to[u->card][x];
#ifndef __OPENCL_VERSION__
            /* A plan made during play exists on the CPU backend only (battle_plan_data.lazy). */
            if (to == BATTLE_SIM_CARD_LAZY)
                to = battle_mods_lazy(p, &g->work, u->card, x);
#endif
            u->card = to;
        }
        break;
    case BATTLE_SKILL_RUSH: /* a delay reaching 0 sets off what the turn start's would: */
        u->delay = (clc_u8)(x < u->delay ? u->delay - x : 0);
        if (u->delay == 0 && (p->cards[u->card].valor || p->cards[u->card].summon_act))
            u->state = (clc_u8)(u->state | BATTLE_SIM_RUSH_DUE); /* battle_sim_rush */
        break;
    default:
        break;
    }
}

/* Mend's or Fortify's (`id`) candidates with Critical Reach (a passive battleground effect
 * of the side whose turn it is): the valid units of faction `y` (0: any) among the two
 * lanes on each side of `lane` in `row` (nrow units), in lane order, into `cand`; returns
 * how many. */
CLC_NOINLINE clc_u32 battle_sim_reach(CLC_GLOBAL const struct battle_plan_data *p,
                                      CLC_PRIVATE const struct battle_game *g, clc_u32 id,
                                      CLC_PRIVATE const struct battle_unit *row, clc_u32 nrow,
                                      clc_i32 lane, clc_u32 y, int active, CLC_PRIVATE clc_u8 *cand)
{
    clc_u32 nc = 0;
    for (clc_i32 i = lane - 2; i <= lane + 2 && i < (clc_i32)nrow; i++) {
        CLC_PRIVATE const struct battle_unit *u = &row[i < 0 ? 0 : i];
        clc_u32 f;
        if (i < 0 || i == lane || !battle_sim_alive(u))
            continue;
        f = p->cards[u->card].faction;
        if (y && !battle_sim_faction_ok(f, y) && !battle_sim_morph(p, g))
            continue;
        if (battle_sim_valid_on(p, id, u, active, g->act))
            cand[nc++] = (clc_u8)i;
    }
    return nc;
}

/* Iron Will (a passive battleground effect of the side whose turn it is): Jam and Weaken do
 * not take units with Armor. Drops those from the nc candidates `cand` (lanes of `row`),
 * keeping the order; returns how many are left. */
CLC_NOINLINE clc_u32 battle_sim_iron(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE const struct battle_unit *row,
                                     CLC_PRIVATE clc_u8 *cand, clc_u32 nc)
{
    clc_u32 n = 0;
    for (clc_u32 i = 0; i < nc; i++)
        if (!p->cards[row[cand[i]].card].armor)
            cand[n++] = cand[i];
    return n;
}

/* Zealot's Preservation (a passive battleground effect of side `tap`, whose turn it is): a
 * Heal X that an assault casts also gives its target (X + 1) / 2 Protect. */
CLC_NOINLINE void battle_sim_zealot(CLC_GLOBAL const struct battle_plan_data *p, int tap,
                                    CLC_GLOBAL const struct battle_card_data *c, clc_i32 x,
                                    CLC_PRIVATE struct battle_unit *u)
{
    if (c->type == BATTLE_ASSAULT && battle_sim_passive(p, tap, BATTLE_PASSIVE_ZEALOTSPRESERVATION))
        u->protect = battle_sim_sat((clc_i32)u->protect + (x + 1) / 2);
}

/* Divert (a passive battleground effect of the side whose turn it is): each of the `n`
 * applications of allied skill `id` X that Inhibit refused goes instead to the side whose
 * turn it is not (tuo's perform_targetted_allied_fast selects it as from that side's
 * commander, whoever cast it): to one unit drawn among those the skill could take there, of
 * any faction; Mend and Fortify take every such unit next to lane 0 (two lanes with
 * Critical Reach), as around a commander. A unit there that refuses allied skills uses up
 * one of its count instead. `c`: the caster's card (Zealot's Preservation adds to a Heal
 * an assault casts), NULL for a commander. */
CLC_NOINLINE void battle_sim_divert(CLC_GLOBAL const struct battle_plan_data *p,
                                    CLC_PRIVATE struct battle_game *g, clc_u32 id, clc_i32 x,
                                    CLC_GLOBAL const struct battle_card_data *c, clc_u32 n)
{
    int tap = battle_sim_active(p->mode, g->turn);
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - tap];
    int adjacent = id == BATTLE_SKILL_MEND || id == BATTLE_SKILL_FORTIFY;
    clc_u8 cand[BATTLE_SIM_LANES];
    if (!battle_sim_passive(p, tap, BATTLE_PASSIVE_DIVERT))
        return;
    for (clc_u32 k = 0; k < n; k++) {
        clc_u32 nc = 0;
        if (adjacent && battle_sim_passive(p, tap, BATTLE_PASSIVE_CRITICALREACH)) {
            nc = battle_sim_reach(p, g, id, en->assaults, en->n_assaults, 0, 0, 0, cand);
        } else {
            for (clc_u32 i = adjacent ? 1 : 0; i < en->n_assaults && (!adjacent || i < 2); i++)
                if (battle_sim_valid_on(p, id, &en->assaults[i], 0, g->act) &&
                    (battle_sim_when(id) != BATTLE_WHEN_MOD ||
                     battle_sim_mod_ok(p, &en->assaults[i], x)))
                    cand[nc++] = (clc_u8)i;
        }
        if (!adjacent && nc > 1) {
            cand[0] = cand[rng_below(&g->rng, nc)];
            nc = 1;
        }
        for (clc_u32 i = 0; i < nc; i++) {
            CLC_PRIVATE struct battle_unit *u = &en->assaults[cand[i]];
            if ((BATTLE_SIM_FX(p) & BATTLE_SIM_FX_INHIBIT) && u->inhibited) {
                u->inhibited--;
                continue;
            }
            battle_sim_apply(p, g, 1 - tap, id, x, u);
            if (id == BATTLE_SKILL_HEAL && c)
                battle_sim_zealot(p, tap, c, x, u);
        }
    }
}

/* Turning Tides (a passive battleground effect of the side whose turn it is): after Weaken
 * of side `s` took at most X attack from one target, side `s`'s commander casts Rally X on
 * one of its assaults that will still attack this turn, drawn at random, or on every one
 * when the Weaken was `all` (Inhibit refuses it, as any allied skill). */
CLC_NOINLINE void battle_sim_tides(CLC_GLOBAL const struct battle_plan_data *p,
                                   CLC_PRIVATE struct battle_game *g, int s, clc_i32 x, clc_u32 all)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    int tap = battle_sim_active(p->mode, g->turn);
    clc_u8 cand[BATTLE_SIM_LANES];
    clc_u32 nc = 0, refused = 0;
    if (!battle_sim_passive(p, tap, BATTLE_PASSIVE_TURNINGTIDES))
        return;
    for (clc_u32 i = 0; i < me->n_assaults; i++)
        if (battle_sim_valid_on(p, BATTLE_SKILL_RALLY, &me->assaults[i], s == tap, g->act))
            cand[nc++] = (clc_u8)i;
    if (!nc)
        return;
    if (!all) {
        cand[0] = cand[nc > 1 ? rng_below(&g->rng, nc) : 0];
        nc = 1;
    }
    for (clc_u32 i = 0; i < nc; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->assaults[cand[i]];
        if ((BATTLE_SIM_FX(p) & BATTLE_SIM_FX_INHIBIT) && u->inhibited) {
            u->inhibited--;
            refused++;
            continue;
        }
        u->rally = battle_sim_sat((clc_i32)u->rally + x);
    }
    if (refused)
        battle_sim_divert(p, g, BATTLE_SKILL_RALLY, x, 0, refused);
}

/* Tribute X of unit `u` of side `s`, just given allied skill `id` X by the own assault at
 * `lane` (card `c`): the skill is cast on the caster too, at most X times between the ends
 * of u's own turns, when the caster is another unit and could take it (tuo's
 * check_and_perform_skill: Heal and Mend a damaged caster, Rally one not sundered, Overload
 * one that is active, has not attacked and is not overloaded yet, its skill_check; Rush,
 * Enhance and Evolve are never given back). A caster that could not take it leaves the
 * count as it was: an Overload that an overloaded caster casts on it keeps its Tribute for
 * a later skill (bench/peer_fuzz.mjs seed 1222, #692). Only the copies with the rarer rules
 * (pv) call it. */
CLC_NOINLINE void battle_sim_tribute(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                     clc_u32 id, clc_i32 x,
                                     CLC_GLOBAL const struct battle_card_data *c,
                                     CLC_PRIVATE struct battle_unit *u)
{
    CLC_PRIVATE struct battle_unit *a;
    if (!BATTLE_SIM_UR || lane < 0 || c->type != BATTLE_ASSAULT || id == BATTLE_SKILL_RUSH ||
        battle_sim_when(id) == BATTLE_WHEN_MOD)
        return;
    a = &g->sides[s].assaults[lane];
    if (a == u || BATTLE_SIM_R(u)->tributed >= p->cards[u->card].tribute || !battle_sim_alive(a))
        return;
    if ((id == BATTLE_SKILL_HEAL || id == BATTLE_SKILL_MEND) && a->hp >= battle_sim_max_hp(a))
        return;
    if (id == BATTLE_SKILL_RALLY && (a->flags & BATTLE_SIM_SUNDERED))
        return;
    if (id == BATTLE_SKILL_OVERLOAD &&
        (a->delay || (a->flags & (BATTLE_SIM_JAMMED | BATTLE_SIM_ATTACKED)) ||
         (a->state & BATTLE_SIM_OVERLOADED)))
        return;
    BATTLE_SIM_R(u)->tributed++;
    battle_sim_apply(p, g, s, id, x, a);
    if (id == BATTLE_SKILL_HEAL)
        battle_sim_zealot(p, battle_sim_active(p->mode, g->turn), c, x, a);
}

/* Hostile skill `id` X of an overloaded caster on unit `u` of side `ts`: battle_sim_apply
 * with u's Protect (Stasis included) counting for nothing (tuo's `src->m_overloaded ? 0 :
 * protected_value()` in Strike's, Siege's and Mortar's damage). Out of line: rare. */
CLC_NOINLINE void battle_sim_apply_overloaded(CLC_GLOBAL const struct battle_plan_data *p,
                                              CLC_PRIVATE struct battle_game *g, int ts, clc_u32 id,
                                              clc_i32 x, CLC_PRIVATE struct battle_unit *u)
{
    clc_i16 pr = u->protect;
    u->protect = 0;
    battle_sim_apply(p, g, ts, id, x, u);
    u->protect = pr;
}

/* Whether a living assault of `side` is inhibited (Overload's allied case). */
CLC_FN int battle_sim_any_inhibited(CLC_PRIVATE const struct battle_side *side)
{
    for (clc_u32 i = 0; i < side->n_assaults; i++)
        if (side->assaults[i].inhibited && battle_sim_alive(&side->assaults[i]))
            return 1;
    return 0;
}

/* A skill cast with other values than its card's action: Mimic's (battle_sim_mimic), and
 * the on-death skills of a unit Payback killed, which aim at its own side (`flip`). */
struct battle_sim_ov {
    clc_i32 x;
    clc_u32 y, all, n, flip;
};

/* What the death of unit `lane` of side `s` (row `assault` or structures) sets off besides
 * its on-death skills: every living unit with Scavenge X gains X max health; when an
 * assault died, every other living own assault with Avenge X gains X attack and X max
 * health (half, rounded up, beyond the next lane). */
CLC_FN void battle_sim_death_fx(CLC_GLOBAL const struct battle_plan_data *p,
                                CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane, int assault)
{
    /* Each scan only in the plans with its skill: a death scans every row for Scavenge. */
    if (BATTLE_SIM_DEATHS(p) & BATTLE_SIM_DEATH_SCAVENGE)
        for (int k = 0; k < 2; k++)
            for (clc_u32 r = 0; r < 2; r++) {
                CLC_PRIVATE struct battle_side *side = &g->sides[k];
                CLC_PRIVATE struct battle_unit *row = r ? side->assaults : side->structures;
                clc_u32 n = r ? side->n_assaults : side->n_structures;
                for (clc_u32 i = 0; i < n; i++)
                    if (p->cards[row[i].card].scavenge && battle_sim_alive(&row[i]))
                        battle_sim_gain_hp(&row[i], p->cards[row[i].card].scavenge);
            }
    if (!assault || !(BATTLE_SIM_DEATHS(p) & BATTLE_SIM_DEATH_AVENGE))
        return;
    for (clc_u32 i = 0; i < g->sides[s].n_assaults; i++) {
        CLC_PRIVATE struct battle_unit *a = &g->sides[s].assaults[i];
        clc_i32 x = p->cards[a->card].avenge;
        if (!x || i == lane || !battle_sim_alive(a))
            continue;
        if (i + 1 < lane || i > lane + 1)
            x = (x + 1) / 2;
        if (!(a->flags & BATTLE_SIM_SUNDERED))
            battle_sim_gain_attack(a, x);
        battle_sim_gain_hp(a, x);
    }
}

/* The death effects (Scavenge, Avenge) of the units a hostile skill has just killed, before
 * any of its targets casts it back: tuo applies them as soon as the skill has hit all its
 * targets (prepend_on_death, then Payback and Revenge), so a unit with Scavenge that a
 * Revenge hits has already gained from the deaths the skill caused, and may live. Marked
 * BATTLE_SIM_FX_DONE so that battle_sim_triggers does not apply them again; their on-death
 * skills come there, after the cast back, as tuo queues them (and Virulence, whose run of
 * neighbours is one pass's, is left there: a poisoned unit killed by a cast-back skill
 * under Virulence is rare). While the side to move casts its battleground effects no
 * death has these effects (battle_sim_bge_trigger). */
CLC_NOINLINE void battle_sim_death_fx_now(CLC_GLOBAL const struct battle_plan_data *p,
                                          CLC_PRIVATE struct battle_game *g)
{
    if (g->bge || !(BATTLE_SIM_DEATHS(p) & (BATTLE_SIM_DEATH_SCAVENGE | BATTLE_SIM_DEATH_AVENGE)))
        return;
    for (int s = 0; s < 2; s++) {
        CLC_PRIVATE struct battle_side *side = &g->sides[s];
        for (clc_u32 r = 0; r < 2 && side->pending; r++) {
            CLC_PRIVATE struct battle_unit *row = r ? side->assaults : side->structures;
            for (clc_u32 i = 0; i < (r ? side->n_assaults : side->n_structures); i++) {
                CLC_PRIVATE struct battle_unit *u = &row[i];
                if (!(u->flags & BATTLE_SIM_DYING) || (u->state & BATTLE_SIM_FX_DONE))
                    continue;
                u->state = (clc_u8)(u->state | BATTLE_SIM_FX_DONE);
                battle_sim_death_fx(p, g, s, i, (int)r);
            }
        }
    }
}

/* Payback X and Revenge X (tuo's perform_targetted_hostile_fast, after the targets): hostile
 * skill `id` X, cast by the own assault at `lane` of side `s`, took effect on the assaults
 * `pb` (npb lanes of side ts's row) that have either and have not used them up this enemy
 * turn. In that order, each casts the skill back: Payback on the caster, Revenge on the
 * caster and its living neighbours; each needs its target alive and valid for the skill
 * as a target on its own side (tuo's skill_predicate from the target itself: Weaken and
 * Jam take a unit that acts next turn), and Evade does not negate it. One use each, when
 * it took effect anywhere. First the death effects of the units the skill killed
 * (battle_sim_death_fx_now). Units it kills are marked (BATTLE_SIM_PB_DEATH). A unit killed
 * by the skill itself still casts it back (the peer checks no life). Mimic is never cast
 * back, Mimic's skills are. Turning Tides answers a Weaken cast back as any. */
CLC_NOINLINE void battle_sim_payback(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                     clc_u32 id, clc_i32 x, int ts, CLC_PRIVATE const clc_u8 *pb,
                                     clc_u32 npb)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    int tap = battle_sim_active(p->mode, g->turn);
    int iron = (id == BATTLE_SKILL_JAM || id == BATTLE_SKILL_WEAKEN || id == BATTLE_SKILL_SUNDER) &&
               battle_sim_passive(p, tap, BATTLE_PASSIVE_IRONWILL);
    if (BATTLE_SIM_DEATHS(p))
        battle_sim_death_fx_now(p, g);
    for (clc_u32 k = 0; k < npb; k++) {
        CLC_PRIVATE struct battle_unit *u = &g->sides[ts].assaults[pb[k]];
        int revenge = p->cards[u->card].revenge != 0;
        clc_i32 tides = 0, done = 0;
        for (clc_i32 i = revenge ? lane - 1 : lane; i <= (revenge ? lane + 1 : lane); i++) {
            CLC_PRIVATE struct battle_unit *t = &me->assaults[i < 0 ? 0 : i];
            clc_i32 before;
            if (i < 0 || i >= (clc_i32)me->n_assaults || !battle_sim_alive(t) ||
                !battle_sim_valid_on(p, id, t, s != tap, g->act) ||
                (iron && p->cards[t->card].armor))
                continue;
            before = battle_sim_power(t);
            battle_sim_apply(p, g, s, id, x, t);
            if (!battle_sim_alive(t))
                t->state = (clc_u8)(t->state | BATTLE_SIM_PB_DEATH);
            tides = before - battle_sim_power(t) > tides ? before - battle_sim_power(t) : tides;
            done = 1;
        }
        if (done && BATTLE_SIM_UR) {
            CLC_PRIVATE struct battle_unit_rare *r = BATTLE_SIM_R(u);
            r->paybacked = (clc_u8)(r->paybacked < 255 ? r->paybacked + 1 : 255);
        }
        if (tides > 0 && (id == BATTLE_SKILL_WEAKEN || id == BATTLE_SKILL_SUNDER))
            battle_sim_tides(p, g, ts, tides, 0);
    }
}

/* Whether unit `u` casts back hostile skill `id` an enemy assault (card `c`) cast on it:
 * it has Payback or Revenge not used up this enemy turn (battle_sim_payback). */
CLC_FN int battle_sim_pays(CLC_GLOBAL const struct battle_plan_data *p, clc_u32 id,
                           CLC_GLOBAL const struct battle_card_data *c,
                           CLC_PRIVATE const struct battle_unit *u)
{
    CLC_GLOBAL const struct battle_card_data *t = &p->cards[u->card];
    return BATTLE_SIM_UR && (t->payback || t->revenge) && c->type == BATTLE_ASSAULT &&
           id != BATTLE_SKILL_MIMIC &&
           BATTLE_SIM_R(u)->paybacked < (clc_i32)t->payback + t->revenge;
}

/* The card unit card `card` is a variant of (battle_plan_data.card_base), or itself: the
 * card as printed, whose skills Mimic reads (tuo's dst->m_card, which Enhance and Evolve
 * never change). */
CLC_FN CLC_GLOBAL const struct battle_card_data *
battle_sim_printed(CLC_GLOBAL const struct battle_plan_data *p, clc_u32 card)
{
    clc_u32 b = p->card_base[card];
    return &p->cards[b < p->n_cards ? b : card];
}

/* Action k's X, card `c`'s, as a caster with Sabotage `sab` casts it (tuo's resolve_skill:
 * Sabotage takes from the skill's own X, at most all of it, and what Enhance gave is added
 * after, so an enhanced skill keeps its gain). `c` may be a variant (battle_mods): its own X
 * is its base card's, the rest is Enhance's. 0 or less: the skill is not cast. */
CLC_FN clc_i32 battle_sim_sabotaged(CLC_GLOBAL const struct battle_plan_data *p,
                                    CLC_GLOBAL const struct battle_card_data *c, clc_u32 k,
                                    clc_i32 sab)
{
    CLC_GLOBAL const struct battle_card_data *base = battle_sim_printed(p, (clc_u32)(c - p->cards));
    clc_i32 x = c->act_x[k];
    clc_i32 own = base->act_x[k] < x ? base->act_x[k] : x;
    return (own > sab ? own - sab : 0) + (x - own);
}

/* What Enhance gave skill `id` on card `c` (tuo's CardStatus::enhanced): a variant's X past
 * its base card's, at the first action with the skill; 0 on a card no Enhance changed. */
CLC_FN clc_i32 battle_sim_gain(CLC_GLOBAL const struct battle_plan_data *p,
                               CLC_GLOBAL const struct battle_card_data *c, clc_u32 id)
{
    CLC_GLOBAL const struct battle_card_data *base = battle_sim_printed(p, (clc_u32)(c - p->cards));
    if (base == c)
        return 0;
    for (clc_u32 j = 0; j < c->n_act; j++)
        if ((c->act_id[j] & ~BATTLE_SIM_ACT_REFUSABLE) == id)
            return c->act_x[j] > base->act_x[j] ? c->act_x[j] - base->act_x[j] : 0;
    return 0;
}

/* Side `s` casts action `k` of card `c`, skill `id`, X on the row the skill table names:
 * the enemy's for a hostile skill, where Evade can negate each application, else its own
 * (where, when `refusable`, a unit's Inhibit count refuses it: BATTLE_SIM_ACT_REFUSABLE).
 * The candidates are the valid units of faction `y` (or progenitor; any when 0) in lane
 * order; `all` takes every one, else `n` (0 counts as 1) are drawn without repetition and
 * applied in lane order. `lane`: the caster's assault lane, -1 for other rows. `ov`, when
 * not 0, gives X, y, all and n instead of the action (Mimic). Returns whether any
 * application took effect (a cooldown starts only then, as in tuo). */
/* One body on purpose: each skill's inlined copy folds the table's facts into it, and
 * helpers split out of it cost the hottest loop instructions (callgrind, 2026-11-23). */
/* NOLINTNEXTLINE(readability-function-size) */
CLC_INLINE int battle_sim_skill_as(CLC_GLOBAL const struct battle_plan_data *p,
                                   CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                   clc_u32 id, int refusable,
                                   CLC_GLOBAL const struct battle_card_data *c, clc_u32 k,
                                   const int pv, CLC_PRIVATE const struct battle_sim_ov *ov)
{
    int hostile = battle_sim_hostile(id);
    int ts = hostile && !(ov && ov->flip) ? 1 - s : s;
    int structures = battle_sim_row(id) == BATTLE_ROW_STRUCTURES;
    int active = ts == battle_sim_active(p->mode, g->turn);
    clc_u32 y = ov ? ov->y : c->act_y[k];
    clc_i32 x = ov ? ov->x : c->act_x[k];
    /* An overloaded caster's skills ignore Evade, Protect and Inhibit (copies with `pv`). */
    int ol = (pv & BATTLE_SIM_PV_RARE) && lane >= 0 &&
             (g->sides[s].assaults[lane].state & BATTLE_SIM_OVERLOADED);
    /* Sabotage on an assault caster takes from its skills' X; a skill left with none is not
     * cast (copies with `pv`; Mimic's cast took it from Mimic's X). */
    if ((pv & BATTLE_SIM_PV_RARE) && !ov && lane >= 0 &&
        BATTLE_SIM_R(&g->sides[s].assaults[lane])->sabotaged &&
        (battle_sim_opts(id) & BATTLE_OPT_X) && battle_sim_when(id) != BATTLE_WHEN_MOD) {
        x = battle_sim_sabotaged(p, c, k, BATTLE_SIM_R(&g->sides[s].assaults[lane])->sabotaged);
        if (x <= 0)
            return 0;
    }
    CLC_PRIVATE struct battle_side *tside = &g->sides[ts];
    CLC_PRIVATE struct battle_unit *row = tside->assaults;
    CLC_PRIVATE struct battle_unit *u;
    clc_u8 cand[(BATTLE_SIM_LANES + 7) / 8 * 8]; /* filled eight at a time below */
    clc_u32 nrow, nc = 0, refused = 0, npb = 0;
    int done = 0, whole = 0;
    clc_i32 tides = 0; /* Turning Tides: the most attack Weaken took (copies with `pv`) */
    /* Mortar aims at structures; with none to aim at, at assaults (as Strike). Mend and
     * Fortify act on the caster's two neighbours only, both of them. */
    int adjacent = id == BATTLE_SKILL_MEND || id == BATTLE_SKILL_FORTIFY;
    /* Passive battleground effects of the side whose turn it is, as tuo reads them, in the
     * copies for plans with them (`pv`): Critical Reach takes Mend and Fortify two lanes
     * out, Metamorphosis and Megamorphosis drop faction filters, Zealot's Preservation adds
     * to Heal, Iron Will keeps Jam and Weaken off units with Armor. */
    clc_i32 reach = (pv & BATTLE_SIM_PV_EFFECTS) && adjacent &&
                            battle_sim_passive(p, battle_sim_active(p->mode, g->turn),
                                               BATTLE_PASSIVE_CRITICALREACH)
                        ? 2
                        : 1;
    /* Every unit is a candidate when the skill takes any living unit, with no faction
     * filter, on a side where no unit died this turn (dead units keep their slot until
     * the turn ends): the usual case of Strike, Siege, Enfeeble and Protect. */
    int every = battle_sim_when(id) == BATTLE_WHEN_ALIVE && !adjacent && !y && !tside->died;
    for (int pass = 0; pass < 2; pass++) {
        if (pass) {
            if (nc || id != BATTLE_SKILL_MORTAR)
                break;
            structures = 0;
        }
        row = structures ? tside->structures : tside->assaults;
        nrow = structures ? tside->n_structures : tside->n_assaults;
        if (every) {
            nc = nrow;
            continue;
        }
        if (adjacent && reach > 1) {
            nc = battle_sim_reach(p, g, id, row, nrow, lane, y, active, cand);
            continue;
        }
        /* The usual skills: every unit of the row tested, and appended without a branch
         * (the outcomes are a predictor's worst case: see battle_sim_valid_on). */
        if (!adjacent && id != BATTLE_SKILL_RUSH && id != BATTLE_SKILL_OVERLOAD &&
            battle_sim_when(id) != BATTLE_WHEN_MOD) {
            if (!y || ((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_morph(p, g))) {
                for (clc_u32 i = 0; i < nrow; i++) {
                    cand[nc] = (clc_u8)i;
                    nc += (clc_u32)battle_sim_valid_on(p, id, &row[i], active, g->act);
                }
                continue;
            }
            for (clc_u32 i = 0; i < nrow; i++) {
                clc_u32 f = p->cards[row[i].card].faction;
                cand[nc] = (clc_u8)i;
                nc += (clc_u32)battle_sim_valid_on(p, id, &row[i], active, g->act) &
                      battle_sim_faction_ok(f, y);
            }
            continue;
        }
        /* Enhance and Evolve: every living unit (of faction y) whose card has a variant for
         * change x and that takes it now (battle_sim_mod_ok), appended as above. The rarer
         * skills' copies (battle_sim_rare) have the skill a constant too since 2026-11-28. */
        if (battle_sim_when(id) == BATTLE_WHEN_MOD) {
            if (x < 0 || x >= (clc_i32)p->n_mods)
                continue;
            clc_u32 always = (p->mod_flags[x] & BATTLE_SIM_MOD_ALWAYS) != 0;
            clc_u32 anyf = !y || ((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_morph(p, g));
            for (clc_u32 i = 0; i < nrow; i++) {
                clc_u32 f = p->cards[row[i].card].faction;
                cand[nc] = (clc_u8)i;
                nc += ((row[i].flags & BATTLE_SIM_ALIVE) != 0) &
                      (anyf | battle_sim_faction_ok(f, y)) &
                      battle_sim_mod_takes(p, &row[i], x, always);
            }
            continue;
        }
        /* Mend and Fortify (the caster's neighbours), Rush, Overload. */
        for (clc_i32 i = adjacent ? lane - 1 : 0; i < (clc_i32)nrow; i += adjacent ? 2 : 1) {
            if (i < 0 || (adjacent && i > lane + 1))
                continue;
            u = &row[i];
            if (!(u->flags & BATTLE_SIM_ALIVE))
                continue;
            if (y) {
                clc_u32 f = p->cards[u->card].faction;
                if (!battle_sim_faction_ok(f, y) &&
                    !((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_morph(p, g)))
                    continue;
            }
            if (!battle_sim_valid_on(p, id, u, active, g->act))
                continue;
            /* Rush from an assault: a unit left of it ended its turn in the row, so a delay
             * of 1 would reach 0 at its next turn start anyway (tuo's skill_predicate). */
            if (id == BATTLE_SKILL_RUSH && lane >= 0 && i < lane && u->delay < 2)
                continue;
            /* Overload helps allied skills only where some own assault is inhibited. */
            if (id == BATTLE_SKILL_OVERLOAD && battle_sim_ol_kind(p, u) == 1 &&
                !battle_sim_any_inhibited(tside))
                continue;
            cand[nc++] = (clc_u8)i;
        }
    }
    if ((pv & BATTLE_SIM_PV_EFFECTS) &&
        (id == BATTLE_SKILL_JAM || id == BATTLE_SKILL_WEAKEN || id == BATTLE_SKILL_SUNDER) && nc &&
        battle_sim_passive(p, battle_sim_active(p->mode, g->turn), BATTLE_PASSIVE_IRONWILL))
        nc = battle_sim_iron(p, row, cand, nc);
    if (nc == 0)
        return 0;
    if (every) {
        /* One target drawn among the whole row needs no list. */
        if (!(ov ? ov->all : c->act_all[k]) && (ov ? ov->n : c->act_n[k]) <= 1) {
            u = &row[nc > 1 ? rng_below(&g->rng, nc) : 0];
            if (hostile && (BATTLE_SIM_FX(p) & BATTLE_SIM_FX_EVADE) && !ol &&
                battle_sim_evades(p, u))
                return 0;
            /* Inhibit: an allied skill is refused, using up one of the count (tuo's
             * perform_targetted_allied_fast); 0 on every unit of a game without it. */
            if (refusable && !ol && u->inhibited) {
                u->inhibited--;
                if (pv & BATTLE_SIM_PV_EFFECTS)
                    battle_sim_divert(p, g, id, x, c, 1);
                return 0;
            }
            if (ol && hostile)
                battle_sim_apply_overloaded(p, g, ts, id, x, u);
            else
                battle_sim_apply(p, g, ts, id, x, u);
            if (id == BATTLE_SKILL_HEAL && (pv & BATTLE_SIM_PV_EFFECTS))
                battle_sim_zealot(p, battle_sim_active(p->mode, g->turn), c, x, u);
            if ((pv & BATTLE_SIM_PV_RARE) && !hostile && p->cards[u->card].tribute)
                battle_sim_tribute(p, g, s, lane, id, x, c, u);
            if ((pv & BATTLE_SIM_PV_RARE) && hostile && row == tside->assaults && lane >= 0 &&
                battle_sim_pays(p, id, c, u)) {
                cand[0] = (clc_u8)(u - row);
                battle_sim_payback(p, g, s, lane, id, x, ts, cand, 1);
            }
            return 1;
        }
        /* Every unit of the row, in lane order, needs no list either (`whole`); a draw of
         * some of them gets the row's lanes, eight at a time, so that the loop's count is
         * the same for all rows of up to 8 units (the usual rows). */
        if ((ov ? ov->all : c->act_all[k]) || (ov ? ov->n : c->act_n[k]) >= nc)
            whole = 1;
        else
            for (clc_u32 i = 0; i < nc; i += 8u)
                for (clc_u32 j = 0; j < 8u; j++)
                    cand[i + j] = (clc_u8)(i + j);
    }
    if (!whole)
        nc = battle_sim_draw(
            g, cand, nc,
            adjacent || (ov ? ov->all : c->act_all[k]) ? nc : (ov ? ov->n : c->act_n[k]));
    for (clc_u32 i = 0; i < nc; i++) {
        clc_u32 at = whole ? i : cand[i];
        u = &row[at];
        if (hostile && (BATTLE_SIM_FX(p) & BATTLE_SIM_FX_EVADE) && !ol && battle_sim_evades(p, u))
            continue;
        if (refusable && !ol && u->inhibited) {
            u->inhibited--;
            refused++;
            continue;
        }
        /* Turning Tides keeps the most attack Weaken took from one target (Weaken is never
         * cast through the single-draw path above: it is not a skill on any living unit). */
        if ((pv & BATTLE_SIM_PV_EFFECTS) &&
            (id == BATTLE_SKILL_WEAKEN || id == BATTLE_SKILL_SUNDER)) {
            clc_i32 before = battle_sim_power(u);
            battle_sim_apply(p, g, ts, id, x, u);
            tides = before - battle_sim_power(u) > tides ? before - battle_sim_power(u) : tides;
        } else if (ol && hostile) {
            battle_sim_apply_overloaded(p, g, ts, id, x, u);
        } else {
            battle_sim_apply(p, g, ts, id, x, u);
        }
        if (id == BATTLE_SKILL_HEAL && (pv & BATTLE_SIM_PV_EFFECTS))
            battle_sim_zealot(p, battle_sim_active(p->mode, g->turn), c, x, u);
        if ((pv & BATTLE_SIM_PV_RARE) && !hostile && p->cards[u->card].tribute)
            battle_sim_tribute(p, g, s, lane, id, x, c, u);
        /* Payback's units, kept in place in cand (i >= npb): cast back after all targets. */
        if ((pv & BATTLE_SIM_PV_RARE) && hostile && row == tside->assaults && lane >= 0 &&
            battle_sim_pays(p, id, c, u))
            cand[npb++] = (clc_u8)at;
        done = 1;
    }
    /* Turning Tides before the cast back, as tuo: a Weaken cast back on a caster its Rally
     * raised takes more (a Weaken takes no more than the unit's attack). */
    if ((pv & BATTLE_SIM_PV_EFFECTS) && (id == BATTLE_SKILL_WEAKEN || id == BATTLE_SKILL_SUNDER) &&
        tides > 0)
        battle_sim_tides(p, g, s, tides, ov ? ov->all : c->act_all[k]);
    if ((pv & BATTLE_SIM_PV_RARE) && npb)
        battle_sim_payback(p, g, s, lane, id, x, ts, cand, npb);
    if ((pv & BATTLE_SIM_PV_EFFECTS) && refused)
        battle_sim_divert(p, g, id, x, c, refused);
    return done;
}

/* Valor or Bravery X of assault `lane` of side `s`: + X permanent attack when the enemy
 * assault opposite lives and is stronger. Returns whether it did. */
CLC_FN int battle_sim_brave(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane, clc_i32 x)
{
    CLC_PRIVATE struct battle_unit *u = &g->sides[s].assaults[lane];
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - s];
    if (!x || (u->flags & BATTLE_SIM_SUNDERED) || lane >= en->n_assaults ||
        !battle_sim_alive(&en->assaults[lane]) ||
        battle_sim_power(&en->assaults[lane]) <= battle_sim_power(u))
        return 0;
    battle_sim_gain_attack(u, x);
    return 1;
}

/* Super Heroism X (a passive battleground effect of side `s`, whose turn it is): assault
 * `lane`, whose Bravery B has just taken effect, heals every damaged own assault by B * X
 * (tuo's Heal all from the unit: Inhibit refuses it, Zealot's Preservation adds to it). */
CLC_NOINLINE void battle_sim_superheroism(CLC_GLOBAL const struct battle_plan_data *p,
                                          CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane,
                                          clc_i32 b)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[me->assaults[lane].card];
    clc_i32 x = b * battle_sim_passive(p, s, BATTLE_PASSIVE_SUPERHEROISM);
    clc_u32 refused = 0;
    if (x <= 0)
        return;
    x = x < BATTLE_SIM_STAT_CAP ? x : BATTLE_SIM_STAT_CAP;
    for (clc_u32 i = 0; i < me->n_assaults; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->assaults[i];
        if (!battle_sim_alive(u) || u->hp >= battle_sim_max_hp(u))
            continue;
        if ((BATTLE_SIM_FX(p) & BATTLE_SIM_FX_INHIBIT) && u->inhibited) {
            u->inhibited--;
            refused++;
            continue;
        }
        battle_sim_heal(u, x);
        battle_sim_zealot(p, s, c, x, u);
    }
    if (refused)
        battle_sim_divert(p, g, BATTLE_SKILL_HEAL, x, c, refused);
}

/* Bravery X of assault `lane` of side `s` (battle_sim_brave), with Super Heroism. */
CLC_FN void battle_sim_bravery(CLC_GLOBAL const struct battle_plan_data *p,
                               CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane, clc_i32 x)
{
    if (battle_sim_brave(p, g, s, lane, x) && BATTLE_SIM_PASSIVE(p))
        battle_sim_superheroism(p, g, s, lane, x);
}

/* The passive battleground effects of side `s` on unit `u` entering its row, in tuo's
 * order. Oath of Loyalty: a unit with Allegiance X gains X attack and max health for each
 * other living assault and each structure (fortresses and the dominion aside, living or
 * not) of its faction on its side (any faction with Megamorphosis). Devotion X: a card played (not
 * summoned) of the commander's faction enters with X% more health (rounded up), as a permanent
 * gain. */
CLC_NOINLINE void battle_sim_passive_enter(CLC_GLOBAL const struct battle_plan_data *p,
                                           CLC_PRIVATE struct battle_game *g, int s,
                                           CLC_PRIVATE struct battle_unit *u, int summoned)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
    clc_i32 x = c->allegiance ? battle_sim_passive(p, s, BATTLE_PASSIVE_OATHOFLOYALTY) : 0;
    if (x) {
        int mega = battle_sim_passive(p, s, BATTLE_PASSIVE_MEGAMORPHOSIS) != 0;
        clc_i32 n = 0;
        for (clc_u32 i = 0; i < me->n_assaults; i++)
            n += &me->assaults[i] != u && battle_sim_alive(&me->assaults[i]) &&
                 (mega || p->cards[me->assaults[i].card].faction == c->faction);
        for (clc_u32 i = 0; i < me->n_structures; i++) {
            clc_u32 card = me->structures[i].card;
            n += p->cards[card].type == BATTLE_STRUCTURE && card + 1u != p->sides[s].dominion &&
                 (mega || p->cards[card].faction == c->faction);
        }
        if (n) {
            battle_sim_gain_attack(u, n * c->allegiance);
            battle_sim_gain_hp(u, n * c->allegiance);
        }
    }
    x = summoned ? 0 : battle_sim_passive(p, s, BATTLE_PASSIVE_DEVOTION);
    if (x && c->faction == p->cards[g->sides[s].commander].faction)
        battle_sim_gain_hp(u, (c->health * x + 99) / 100);
}

/* Stasis, as unit `u` (card `c`) enters side `s`'s row (tuo's PlayCard): with Cold Sleep
 * (the side's passive effect), each other living own assault under Stasis heals half its
 * Stasis, rounded up, when hurt; then an assault whose card has a delay is protected by the
 * Stasis of its side's living units of its faction (any with Megamorphosis), its own
 * included, and of its commander's when the commander's faction is its, plus (Counter + 1)
 * / 2 for each such assault with Counter under Temporal Backlash (the side's). The
 * protection is part of `protect` that the turn's end leaves (`stasis` says how much) and
 * the unit loses when it acts (battle_sim_turn). Out of line: rare. */
CLC_NOINLINE void battle_sim_stasis(CLC_GLOBAL const struct battle_plan_data *p,
                                    CLC_PRIVATE struct battle_game *g, int s,
                                    CLC_PRIVATE struct battle_unit *u)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
    CLC_GLOBAL const struct battle_card_data *cc = &p->cards[me->commander];
    if (!BATTLE_SIM_UR) /* no Stasis, no Temporal Backlash (battle_rules_features) */
        return;
    int mega = battle_sim_passive(p, s, BATTLE_PASSIVE_MEGAMORPHOSIS) != 0;
    int backlash = battle_sim_passive(p, s, BATTLE_PASSIVE_TEMPORALBACKLASH) != 0;
    clc_i32 x = 0;
    if (battle_sim_passive(p, s, BATTLE_PASSIVE_COLDSLEEP))
        for (clc_u32 i = 0; i < me->n_assaults; i++) {
            CLC_PRIVATE struct battle_unit *a = &me->assaults[i];
            if (a != u && BATTLE_SIM_R(a)->stasis && battle_sim_alive(a))
                battle_sim_heal_hurt(a, (BATTLE_SIM_R(a)->stasis + 1) / 2);
        }
    if (c->type != BATTLE_ASSAULT || !c->delay)
        return;
    if (mega || cc->faction == c->faction)
        x += cc->stasis;
    /* Each unit's share added times whether it counts: no branch on who lives (see
     * battle_sim_valid_on). */
    for (clc_u32 i = 0; i < me->n_structures; i++) {
        CLC_GLOBAL const struct battle_card_data *t = &p->cards[me->structures[i].card];
        x += (clc_i32)t->stasis *
             (battle_sim_alive(&me->structures[i]) & (mega | (t->faction == c->faction)));
    }
    for (clc_u32 i = 0; i < me->n_assaults; i++) {
        CLC_GLOBAL const struct battle_card_data *t = &p->cards[me->assaults[i].card];
        x += ((clc_i32)t->stasis + backlash * (((clc_i32)t->counter + 1) / 2)) *
             (battle_sim_alive(&me->assaults[i]) & (mega | (t->faction == c->faction)));
    }
    BATTLE_SIM_R(u)->stasis = battle_sim_sat(x);
    u->protect = battle_sim_sat((clc_i32)u->protect + x);
}

/* Whether a card of type `type` stands in the structure row: a structure, or a fortress
 * (or dominion) card, which only Summon brings into play mid-game (Medical Center's
 * Medical Drones: bench/peer_fuzz.mjs seed 1207, #92); the peer has both as structures. */
CLC_FN int battle_sim_structure_row(clc_u32 type)
{
    return type == BATTLE_STRUCTURE || type == BATTLE_FORTRESS;
}

/* Card `card` enters side `s`'s row, at its right-hand end: fresh, with Barrier's Protect,
 * Bravery and Valor when it is active at once, and (unless `summoned`) the Allegiance of
 * the own assaults of its faction. Returns its lane, or -1 when the row is full (only
 * summons can fill one): then nothing enters. `tower`: summoned by a structure's
 * activation Summon, it starts one turn nearer to acting, as in the game. The caller casts
 * its on-play skills. */
CLC_INLINE clc_i32 battle_sim_enter(CLC_GLOBAL const struct battle_plan_data *p,
                                    CLC_PRIVATE struct battle_game *g, int s, clc_u32 card,
                                    int summoned, int tower)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[card];
    int structure = battle_sim_structure_row(c->type);
    clc_u32 lane = structure ? me->n_structures : me->n_assaults;
    CLC_PRIVATE struct battle_unit *u;
    /* The rule's full row; a program's bound on its lanes is never reached (the second
     * test only keeps a wrong bound from writing past the state). */
    if (lane >= BATTLE_SIM_ROW || lane >= (structure ? BATTLE_SIM_SLANES : BATTLE_SIM_LANES))
        return -1;
    u = structure ? &me->structures[lane] : &me->assaults[lane];
    if (structure)
        me->n_structures++;
    else
        me->n_assaults++;
    battle_sim_fresh(p, u, card);
    if (summoned)
        u->flags = (clc_u8)(u->flags | BATTLE_SIM_SUMMONED);
    if (tower && u->delay)
        u->delay--;
    if (c->barrier)
        u->protect = c->barrier;
    if (!structure && !u->delay) {
        battle_sim_bravery(p, g, s, lane, c->bravery);
        battle_sim_brave(p, g, s, lane, c->valor);
    }
    if (!summoned && (BATTLE_SIM_FX(p) & BATTLE_SIM_FX_ALLY)) {
        /* Megamorphosis (the side's passive effect): every faction counts. */
        int mega = battle_sim_passive(p, s, BATTLE_PASSIVE_MEGAMORPHOSIS) != 0;
        for (clc_u32 i = 0; i < me->n_assaults; i++) {
            CLC_PRIVATE struct battle_unit *a = &me->assaults[i];
            clc_i32 x = p->cards[a->card].allegiance;
            if (x && a != u && battle_sim_alive(a) &&
                (mega || p->cards[a->card].faction == c->faction)) {
                if (!(a->flags & BATTLE_SIM_SUNDERED))
                    battle_sim_gain_attack(a, x);
                battle_sim_gain_hp(a, x);
            }
        }
    }
    if (BATTLE_SIM_PASSIVE(p) &&
        battle_sim_has(p, BATTLE_SIM_PV(OATHOFLOYALTY) | BATTLE_SIM_PV(DEVOTION)))
        battle_sim_passive_enter(p, g, s, u, summoned);
    if (BATTLE_SIM_RARES(p) & BATTLE_SIM_RARE_STASIS)
        battle_sim_stasis(p, g, s, u);
    return (clc_i32)lane;
}

/* Side `s` puts card `card` into play for free (Summon); its on-play skills are cast at the
 * next resolution of triggers (battle_sim_triggers). */
CLC_FN void battle_sim_summon(CLC_GLOBAL const struct battle_plan_data *p,
                              CLC_PRIVATE struct battle_game *g, int s, clc_u32 card, int tower)
{
    clc_i32 lane = battle_sim_enter(p, g, s, card, 1, tower);
    CLC_PRIVATE struct battle_unit *u;
    if (lane < 0)
        return;
    g->summoned[s] = (clc_u8)(g->summoned[s] + (g->summoned[s] < 255));
    if (!(p->cards[card].trig & (1u << BATTLE_SIM_TRIG_PLAY)))
        return;
    u = battle_sim_structure_row(p->cards[card].type) ? &g->sides[s].structures[lane]
                                                      : &g->sides[s].assaults[lane];
    u->flags = (clc_u8)(u->flags | BATTLE_SIM_FRESH);
    battle_sim_pend(g, s, 1);
}

/* Side `s` casts Rush, action `k` of card `c` (or Mimic's copy of it, `ov`), out of line
 * as a rare skill. An assault casts it once in its life, whether it found a target or not
 * (tuo's m_rush_attempted); a commander each time. Then each unit whose delay it brought
 * to 0 (on either side: Divert) gets Valor and its activation Summon, as at a turn start
 * (battle_sim_apply cannot: Summon leads back to it through Bravery and Divert). */
CLC_NOINLINE int battle_sim_rush(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                 int refusable, CLC_GLOBAL const struct battle_card_data *c,
                                 clc_u32 k, CLC_PRIVATE const struct battle_sim_ov *ov)
{
    int done;
    if (lane >= 0) {
        CLC_PRIVATE struct battle_unit *u = &g->sides[s].assaults[lane];
        if (u->state & BATTLE_SIM_RUSHED)
            return 0;
        u->state = (clc_u8)(u->state | BATTLE_SIM_RUSHED);
    }
    done = battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_RUSH, refusable, c, k, BATTLE_SIM_PV_ALL,
                               ov);
    for (int side = 0; side < 2; side++)
        for (clc_u32 i = 0; i < g->sides[side].n_assaults; i++) {
            CLC_PRIVATE struct battle_unit *u = &g->sides[side].assaults[i];
            CLC_GLOBAL const struct battle_card_data *t = &p->cards[u->card];
            if (!(u->state & BATTLE_SIM_RUSH_DUE))
                continue;
            u->state = (clc_u8)(u->state & ~BATTLE_SIM_RUSH_DUE);
            if (t->valor)
                battle_sim_brave(p, g, side, i, t->valor);
            if (t->summon_act)
                battle_sim_summon(p, g, side, t->summon_act - 1u, 0);
        }
    return done;
}

/* Sunder's copy of battle_sim_skill_as, out of line: a rare skill, whose copy inlined among
 * the others' cost every plan's skill loop instructions (callgrind, 2026-11-26: +2.8% in
 * a unit's skills on real-05). Its plans run the copies with the rarer rules (pv). */
CLC_NOINLINE int battle_sim_sunder(CLC_GLOBAL const struct battle_plan_data *p,
                                   CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                   CLC_GLOBAL const struct battle_card_data *c, clc_u32 k)
{
    return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_SUNDER, 0, c, k, BATTLE_SIM_PV_ALL, 0);
}

/* The copy of battle_sim_skill_as for the rarer allied skills (Enrage, Entrap, Overload,
 * Enhance, Evolve), out of
 * line for the reason Sunder's is, with the skill a value rather than a constant: their plans run
 * the copies with the rarer rules (pv), where their Berserk and Counter count. */
CLC_NOINLINE int battle_sim_rare(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane, clc_u32 id,
                                 int refusable, CLC_GLOBAL const struct battle_card_data *c,
                                 clc_u32 k)
{
    /* The skill a constant in each call, as in battle_sim_skill: each gets its own target
     * loop, with its condition folded in instead of switched on for every unit. */
    switch (id) {
    case BATTLE_SKILL_ENRAGE:
        return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_ENRAGE, refusable, c, k,
                                   BATTLE_SIM_PV_ALL, 0);
    case BATTLE_SKILL_ENTRAP:
        return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_ENTRAP, refusable, c, k,
                                   BATTLE_SIM_PV_ALL, 0);
    case BATTLE_SKILL_OVERLOAD:
        return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_OVERLOAD, refusable, c, k,
                                   BATTLE_SIM_PV_ALL, 0);
    case BATTLE_SKILL_ENHANCE:
        return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_ENHANCE, refusable, c, k,
                                   BATTLE_SIM_PV_ALL, 0);
    case BATTLE_SKILL_EVOLVE:
        return battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_EVOLVE, refusable, c, k,
                                   BATTLE_SIM_PV_ALL, 0);
    default:
        return battle_sim_skill_as(p, g, s, lane, id, refusable, c, k, BATTLE_SIM_PV_ALL, 0);
    }
}

/* Whether Mimic can take activation skill `id`: not Summon, Mimic or Enhance (not among
 * tuo's activation skills). The one place for that list: battle_sim_mimicable marks the
 * cards' skills with it and battle_sim_mimic_cast keeps a cast only for these. */
CLC_FN int battle_sim_mimic_takes(clc_u32 id)
{
    return id != BATTLE_SKILL_SUMMON && id != BATTLE_SKILL_MIMIC && id != BATTLE_SKILL_ENHANCE;
}

/* Whether action `k` of card `t` is one that Mimic can take from it, for a caster that is
 * an assault or not (`assault`): an activation skill cast in the unit's turn or when it is
 * attacked (tuo's m_skills and m_skills_on_attacked) that Mimic takes
 * (battle_sim_mimic_takes), and Mend and Fortify for an assault only. */
CLC_FN int battle_sim_mimicable(CLC_GLOBAL const struct battle_card_data *t, clc_u32 k, int assault)
{
    clc_u32 id = t->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE;
    if (t->act_trig[k] != BATTLE_SIM_TRIG_ACTIVATE && t->act_trig[k] != BATTLE_SIM_TRIG_ATTACKED)
        return 0;
    if (!battle_sim_mimic_takes(id))
        return 0;
    return assault || (id != BATTLE_SKILL_MEND && id != BATTLE_SKILL_FORTIFY);
}

/* The actions of card `t` that Mimic can take, a bit each (battle_sim_mimicable): the card's
 * mark, less Mend and Fortify for a caster that is not an assault. */
CLC_FN clc_u32 battle_sim_mimic_mask(CLC_GLOBAL const struct battle_card_data *t, int assault)
{
    clc_u32 mask = t->mimic;
    for (clc_u32 j = 0; !assault && j < t->n_act; j++) {
        clc_u32 id = t->act_id[j] & ~BATTLE_SIM_ACT_REFUSABLE;
        if (id == BATTLE_SKILL_MEND || id == BATTLE_SKILL_FORTIFY)
            mask &= ~(1u << j);
    }
    return mask;
}

/* Mimic's cast of skill `id` with the values `ov` (battle_sim_mimic; Rush apart). On the
 * host, battle_sim_skill_as with the skill a constant in each case, as battle_sim_skill
 * has: the copy for any skill tested the skill's facts for every unit, about 500
 * instructions a cast (callgrind, real-s26, 2026-11-28). A kernel keeps that one copy, so
 * the GPU build stays its size. */
CLC_NOINLINE int battle_sim_mimic_cast(CLC_GLOBAL const struct battle_plan_data *p,
                                       CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                       clc_u32 id, int refusable,
                                       CLC_GLOBAL const struct battle_card_data *c, clc_u32 k,
                                       int pv, CLC_PRIVATE const struct battle_sim_ov *ov)
{
#ifndef __OPENCL_VERSION__
    switch (id) {
/* Not the skills Mimic never casts (battle_sim_mimic_takes) nor Rush (battle_sim_rush). */
#define BATTLE_SIM_MC_TAKES(ID) (battle_sim_mimic_takes(ID) && (ID) != BATTLE_SKILL_RUSH)
#define BATTLE_SIM_MC_PASSIVE(ID)
#define BATTLE_SIM_MC_ACTIVATION(ID)                                                               \
    case BATTLE_SKILL_##ID:                                                                        \
        return BATTLE_SIM_MC_TAKES(BATTLE_SKILL_##ID)                                              \
                   ? battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_##ID, refusable, c, k, pv,    \
                                         ov)                                                       \
                   : 0;
#define BATTLE_SIM_MC_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)         \
    BATTLE_SIM_MC_##KIND(ID)
        BATTLE_SKILL_TABLE(BATTLE_SIM_MC_)
#undef BATTLE_SIM_MC_
#undef BATTLE_SIM_MC_ACTIVATION
#undef BATTLE_SIM_MC_PASSIVE
#undef BATTLE_SIM_MC_TAKES
    default:
        return 0;
    }
#else
    return battle_sim_skill_as(p, g, s, lane, id, refusable, c, k, pv, ov);
#endif
}

/* Side `s` casts Mimic X, action `k` of card `c` (tuo's perform_skill<mimic>): its targets
 * are the living enemy assaults (of faction y) with a skill it can take
 * (battle_sim_mimicable), drawn as any hostile skill's but never evaded; from each, one such
 * skill is drawn (those cast in the unit's turn first, then those cast when attacked, in
 * card order) and the caster casts it as its own with X, of any faction, with the skill's
 * own `all` and `n`. Out of line: a rare skill, and its cast is a copy of
 * battle_sim_skill_as for any skill. Returns whether it took a skill. */
CLC_NOINLINE int battle_sim_mimic(CLC_GLOBAL const struct battle_plan_data *p,
                                  CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                  CLC_GLOBAL const struct battle_card_data *c, clc_u32 k)
{
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - s];
    int assault = c->type == BATTLE_ASSAULT;
    clc_u32 y = c->act_y[k];
    clc_i32 x =
        BATTLE_SIM_UR && lane >= 0 && BATTLE_SIM_R(&g->sides[s].assaults[lane])->sabotaged
            ? battle_sim_sabotaged(p, c, k, BATTLE_SIM_R(&g->sides[s].assaults[lane])->sabotaged)
            : c->act_x[k];
    clc_u8 cand[BATTLE_SIM_LANES];
    clc_u32 nc = 0;
    if (x <= 0) /* Sabotage took all of Mimic's X */
        return 0;
    for (clc_u32 i = 0; i < en->n_assaults; i++) {
        CLC_GLOBAL const struct battle_card_data *t = battle_sim_printed(p, en->assaults[i].card);
        if (!battle_sim_alive(&en->assaults[i]))
            continue;
        if (y && !battle_sim_faction_ok(t->faction, y) && !battle_sim_morph(p, g))
            continue;
        if (battle_sim_mimic_mask(t, assault))
            cand[nc++] = (clc_u8)i;
    }
    if (!nc)
        return 0;
    nc = battle_sim_draw(g, cand, nc, c->act_all[k] ? nc : c->act_n[k]);
    for (clc_u32 i = 0; i < nc; i++) {
        CLC_GLOBAL const struct battle_card_data *t =
            battle_sim_printed(p, en->assaults[cand[i]].card);
        struct battle_sim_ov ov;
        clc_u32 mask = battle_sim_mimic_mask(t, assault), m = 0, pick, id;
        for (clc_u32 j = 0; j < t->n_act; j++)
            m += mask >> j & 1u;
        pick = m > 1 ? rng_below(&g->rng, m) : 0;
        /* The pick-th skill, those cast in the unit's turn first. */
        for (clc_u32 pass = 0; pass < 2; pass++)
            for (clc_u32 j = 0; j < t->n_act; j++) {
                if (!(mask >> j & 1u) ||
                    (t->act_trig[j] == BATTLE_SIM_TRIG_ATTACKED) != (pass == 1))
                    continue;
                if (pick-- == 0) {
                    id = t->act_id[j] & ~BATTLE_SIM_ACT_REFUSABLE;
                    /* Evolve's X is its change, the mimicked unit's (battle_mods); any
                     * other skill's is Mimic's X plus what Enhance gave the caster's own
                     * skill of that kind (tuo's perform_skill<mimic>). */
                    ov.x = id == BATTLE_SKILL_EVOLVE ? (clc_i32)t->act_x[j]
                                                     : x + battle_sim_gain(p, c, id);
                    ov.y = 0;
                    ov.all = t->act_all[j];
                    ov.n = t->act_n[j];
                    ov.flip = 0;
                    if (id == BATTLE_SKILL_RUSH)
                        battle_sim_rush(p, g, s, lane,
                                        (BATTLE_SIM_FX(p) & BATTLE_SIM_FX_INHIBIT) != 0, c, k, &ov);
                    else
                        battle_sim_mimic_cast(
                            p, g, s, lane, id,
                            !battle_sim_hostile(id) && (BATTLE_SIM_FX(p) & BATTLE_SIM_FX_INHIBIT),
                            c, k, BATTLE_SIM_PASSIVE(p) ? BATTLE_SIM_PV_ANY : 0, &ov);
                }
            }
    }
    return 1;
}

/* The allied skills cast through battle_sim_rare. */
#define BATTLE_SIM_RARE(ID)                                                                        \
    ((ID) == BATTLE_SKILL_ENRAGE || (ID) == BATTLE_SKILL_ENTRAP ||                                 \
     (ID) == BATTLE_SKILL_OVERLOAD || (ID) == BATTLE_SKILL_ENHANCE || (ID) == BATTLE_SKILL_EVOLVE)

/* Side `s` casts action `k` of card `c`: battle_sim_skill_as with the skill a constant in
 * each case, so each skill gets its own copy of the loop with the table's facts (hostile,
 * row, target condition, Mortar's fallback, Mend's neighbours) folded in instead of tested
 * per unit: the candidate loop is the engine's hottest code. `pv`: p->passive, a constant
 * in each copy (battle_sim_skills_plain, battle_sim_skills_passive). */
CLC_INLINE int battle_sim_skill(CLC_GLOBAL const struct battle_plan_data *p,
                                CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                CLC_GLOBAL const struct battle_card_data *c, clc_u32 k,
                                const int pv)
{
    switch (c->act_id[k]) {
#define BATTLE_SIM_CASE_PASSIVE(ID, HOSTILE)
#define BATTLE_SIM_CASE_ACTIVATION(ID, HOSTILE)                                                    \
    case BATTLE_SKILL_##ID:                                                                        \
        return !BATTLE_SIM_ACT_ON(BATTLE_SKILL_##ID)      ? 0                                      \
               : BATTLE_SKILL_##ID == BATTLE_SKILL_SUNDER ? battle_sim_sunder(p, g, s, lane, c, k) \
               : BATTLE_SKILL_##ID == BATTLE_SKILL_MIMIC  ? battle_sim_mimic(p, g, s, lane, c, k)  \
               : BATTLE_SKILL_##ID == BATTLE_SKILL_RUSH                                            \
                   ? battle_sim_rush(p, g, s, lane, 0, c, k, 0)                                    \
               : BATTLE_SIM_RARE(BATTLE_SKILL_##ID)                                                \
                   ? battle_sim_rare(p, g, s, lane, BATTLE_SKILL_##ID, 0, c, k)                    \
                   : battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_##ID, 0, c, k, pv, 0);        \
        BATTLE_SIM_CASE_REFUSABLE_##HOSTILE(ID)
/* An allied skill's copy whose targets may refuse it (Inhibit). */
#define BATTLE_SIM_CASE_REFUSABLE_0(ID)                                                            \
    case BATTLE_SKILL_##ID | BATTLE_SIM_ACT_REFUSABLE:                                             \
        return !BATTLE_SIM_ACT_ON(BATTLE_SKILL_##ID) ? 0                                           \
               : BATTLE_SKILL_##ID == BATTLE_SKILL_RUSH                                            \
                   ? battle_sim_rush(p, g, s, lane, 1, c, k, 0)                                    \
               : BATTLE_SIM_RARE(BATTLE_SKILL_##ID)                                                \
                   ? battle_sim_rare(p, g, s, lane, BATTLE_SKILL_##ID, 1, c, k)                    \
                   : battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_##ID, 1, c, k, pv, 0);
#define BATTLE_SIM_CASE_REFUSABLE_1(ID)
#define BATTLE_SIM_CASE_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)       \
    BATTLE_SIM_CASE_##KIND(ID, HOSTILE)
        BATTLE_SKILL_TABLE(BATTLE_SIM_CASE_)
#undef BATTLE_SIM_CASE_
#undef BATTLE_SIM_CASE_REFUSABLE_1
#undef BATTLE_SIM_CASE_REFUSABLE_0
#undef BATTLE_SIM_CASE_ACTIVATION
#undef BATTLE_SIM_CASE_PASSIVE
    default:
        return 0;
    }
}

/* battle_sim_skill out of line, for the triggered skills (on play, attacked, death). */
CLC_NOINLINE int battle_sim_skill_once(CLC_GLOBAL const struct battle_plan_data *p,
                                       CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                       CLC_GLOBAL const struct battle_card_data *c, clc_u32 k)
{
    if (BATTLE_SIM_PASSIVE(p))
        return battle_sim_skill(p, g, s, lane, c, k, BATTLE_SIM_PV_ANY);
    return battle_sim_skill(p, g, s, lane, c, k, 0);
}

/* Side `s` casts the skills of card `c` that have trigger `trig` (on play, on attacked, on
 * death), in card order; the caster (at assault lane `lane`, -1 for other rows) may be dead
 * (on death) or jammed. */
CLC_FN void battle_sim_cast(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                            CLC_GLOBAL const struct battle_card_data *c, clc_u32 trig)
{
    if (!(c->trig & (1u << trig)))
        return;
    for (clc_u32 k = 0; k < c->n_act; k++) {
        if (c->act_trig[k] != trig || !battle_sim_act_cast(c, k))
            continue;
        if (c->act_id[k] == BATTLE_SKILL_SUMMON)
            battle_sim_summon(p, g, s, c->act_x[k], 0);
        else
            battle_sim_skill_once(p, g, s, lane, c, k);
    }
}

/* The on-death skills of card `c`, whose unit (assault lane `lane` of side `s`) Payback or
 * Revenge killed: as battle_sim_cast, but its hostile skills but Mimic aim at its own side
 * (the peer's default revenge_on_death rule: their targets are drawn as the enemy
 * commander would draw them). Out of line: rare. */
CLC_NOINLINE void battle_sim_cast_back(CLC_GLOBAL const struct battle_plan_data *p,
                                       CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                       CLC_GLOBAL const struct battle_card_data *c)
{
    if (!BATTLE_SIM_UR) /* only Payback and Revenge kill so */
        return;
    for (clc_u32 k = 0; k < c->n_act; k++) {
        clc_u32 id = c->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE;
        struct battle_sim_ov ov;
        if (c->act_trig[k] != BATTLE_SIM_TRIG_DEATH || !battle_sim_act_cast(c, k))
            continue;
        if (id == BATTLE_SKILL_SUMMON) {
            battle_sim_summon(p, g, s, c->act_x[k], 0);
            continue;
        }
        if (!battle_sim_hostile(id) || id == BATTLE_SKILL_MIMIC) {
            battle_sim_skill_once(p, g, s, lane, c, k);
            continue;
        }
        ov.x = c->act_x[k];
        if ((battle_sim_opts(id) & BATTLE_OPT_X) && lane >= 0) {
            ov.x =
                battle_sim_sabotaged(p, c, k, BATTLE_SIM_R(&g->sides[s].assaults[lane])->sabotaged);
            if (ov.x <= 0)
                continue;
        }
        ov.y = c->act_y[k];
        ov.all = c->act_all[k];
        ov.n = c->act_n[k];
        ov.flip = 1;
        battle_sim_skill_as(p, g, s, lane, id, 0, c, k, BATTLE_SIM_PV_ALL, &ov);
    }
}

/* Revenge X (a passive battleground effect of the side whose turn it is): when a unit of
 * side `s` dies, side `s`'s commander casts Heal all X, then Rally all X (as tuo queues
 * them: before the unit's on-death skills; Inhibit refuses them). A plan with Revenge sends
 * every death through battle_sim_triggers (battle_plan_data.death_fx). */
CLC_NOINLINE void battle_sim_revenge(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    int tap = battle_sim_active(p->mode, g->turn);
    clc_i32 x = battle_sim_passive(p, tap, BATTLE_PASSIVE_REVENGE);
    if (!x)
        return;
    for (int rally = 0; rally < 2; rally++) {
        clc_u32 id = rally ? BATTLE_SKILL_RALLY : BATTLE_SKILL_HEAL, refused = 0;
        for (clc_u32 i = 0; i < me->n_assaults; i++) {
            CLC_PRIVATE struct battle_unit *u = &me->assaults[i];
            if (!battle_sim_valid_on(p, id, u, s == tap, g->act))
                continue;
            if ((BATTLE_SIM_FX(p) & BATTLE_SIM_FX_INHIBIT) && u->inhibited) {
                u->inhibited--;
                refused++;
                continue;
            }
            if (rally)
                u->rally = battle_sim_sat((clc_i32)u->rally + x);
            else
                battle_sim_heal(u, x);
        }
        if (refused)
            battle_sim_divert(p, g, id, x, 0, refused);
    }
}

/* Virulence (a passive battleground effect of the side whose turn it is): assault `lane` of
 * side `s`, which has just died, passes its poison to the living assault on its left, and
 * its poison and that of the assaults that died with it in the lanes just before it to the
 * living assault on its right (tuo's prepend_on_death, which takes the deaths it handles at
 * once in lane order: a death in the lane after the last one continues a run, whose left
 * neighbour is the one before the run's first lane). `run` holds the walk's state: [0] the
 * last dead lane + 1 (0: none yet), [1] the run's left neighbour + 1 (0: none), [2] the
 * poison stacked in the run. A dead unit's poison of -1 marks a death already handled
 * (battle_sim_virulence_hit), which ends a run. */
CLC_NOINLINE void battle_sim_virulence(CLC_GLOBAL const struct battle_plan_data *p,
                                       CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane,
                                       CLC_PRIVATE clc_i32 *run)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    clc_i32 x = me->assaults[lane].poison;
    if (!battle_sim_passive(p, battle_sim_active(p->mode, g->turn), BATTLE_PASSIVE_VIRULENCE))
        return;
    if (x < 0) {
        run[0] = run[1] = run[2] = 0;
        return;
    }
    if (run[0] != (clc_i32)lane) {
        run[1] = lane > 0 && battle_sim_alive(&me->assaults[lane - 1]) ? (clc_i32)lane : 0;
        run[2] = 0;
    }
    if (x > 0) {
        if (run[1])
            me->assaults[run[1] - 1].poison =
                battle_sim_sat((clc_i32)me->assaults[run[1] - 1].poison + x);
        run[2] = battle_sim_sat(run[2] + x);
    }
    if (lane + 1 < me->n_assaults && battle_sim_alive(&me->assaults[lane + 1]))
        me->assaults[lane + 1].poison =
            battle_sim_sat((clc_i32)me->assaults[lane + 1].poison + run[2]);
    run[0] = (clc_i32)lane + 1;
}

/* Virulence for assault `lane` of side `s`, which an attack has just killed: tuo handles
 * the death of an attack's target on its own, at once, before Venom adds to its poison and
 * before Swipe or Drain kill its neighbours; then marks it handled (poison -1: no Venom is
 * added to it, and the walk of battle_sim_triggers passes over it). */
CLC_NOINLINE void battle_sim_virulence_hit(CLC_GLOBAL const struct battle_plan_data *p,
                                           CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane)
{
    clc_i32 run[3] = {0, 0, 0};
    if (!battle_sim_passive(p, battle_sim_active(p->mode, g->turn), BATTLE_PASSIVE_VIRULENCE))
        return;
    battle_sim_virulence(p, g, s, lane, run);
    g->sides[s].assaults[lane].poison = -1;
}

/* A death or a summon (flags `f` of a unit of side `s` with card `c`) while the side to
 * move casts its battleground effects (battle_game.bge), as tuo's Fix::death_from_bge (on
 * by default) has it: a unit that dies sets off the passive Revenge effect and its
 * on-death Summon, nothing else (no Scavenge, Avenge, Virulence or other on-death skill);
 * a unit summoned casts no on-play skill. Out of line: rare. */
CLC_NOINLINE void battle_sim_bge_trigger(CLC_GLOBAL const struct battle_plan_data *p,
                                         CLC_PRIVATE struct battle_game *g, int s,
                                         CLC_GLOBAL const struct battle_card_data *c, clc_u32 f)
{
    if (!(f & BATTLE_SIM_DYING))
        return;
    if (BATTLE_SIM_PASSIVE(p) && battle_sim_has(p, BATTLE_SIM_PV(REVENGE)))
        battle_sim_revenge(p, g, s);
    if (!(c->trig & (1u << BATTLE_SIM_TRIG_DEATH)))
        return;
    for (clc_u32 k = 0; k < c->n_act; k++)
        if (c->act_trig[k] == BATTLE_SIM_TRIG_DEATH && c->act_id[k] == BATTLE_SKILL_SUMMON)
            battle_sim_summon(p, g, s, c->act_x[k], 0);
}

/* Resolves what is pending: the effects and on-death skills of units that died and the
 * on-play skills of units summoned since the last call, and those of the units these kill
 * or summon, until none is left. Each unit dies once and a full row summons nothing, so it
 * ends. Order: the side whose turn it is first, its structures then assaults, lane order
 * (tuo keeps a queue in the order of the events; the two differ only in which of several
 * such events draws its random targets first). */
CLC_FN void battle_sim_triggers(CLC_GLOBAL const struct battle_plan_data *p,
                                CLC_PRIVATE struct battle_game *g)
{
    int first = battle_sim_active(p->mode, g->turn);
    while (g->pending) {
        for (int k = 0; k < 2; k++) {
            int s = k ? 1 - first : first;
            CLC_PRIVATE struct battle_side *side = &g->sides[s];
            /* The scan of a side ends where no flag of its own is left (a unit flagged
             * behind the scan raises the count too, and waits for the next pass as before):
             * the usual pass has a death or two, and the rows' ends are a predictor's guess. */
            for (clc_u32 r = 0; r < 2 && side->pending; r++) {
                CLC_PRIVATE struct battle_unit *row = r ? side->assaults : side->structures;
                clc_i32 run[3] = {0, 0, 0}; /* battle_sim_virulence's */
                /* The row may grow while we walk it (summons): read its size each time. */
                for (clc_u32 i = 0;
                     i < (r ? side->n_assaults : side->n_structures) && side->pending; i++) {
                    CLC_PRIVATE struct battle_unit *u = &row[i];
                    clc_u8 f = u->flags;
                    if (!(f & (BATTLE_SIM_DYING | BATTLE_SIM_FRESH)))
                        continue;
                    u->flags = (clc_u8)(f & ~(BATTLE_SIM_DYING | BATTLE_SIM_FRESH));
                    /* A unit summoned and killed before its on-play skills were cast has
                     * both flags, each counted once in pending, and casts its on-death
                     * skills only. */
                    battle_sim_pend(g, s,
                                    -((f & BATTLE_SIM_DYING) != 0) - ((f & BATTLE_SIM_FRESH) != 0));
                    g->work++;
                    if (g->bge) {
                        battle_sim_bge_trigger(p, g, s, &p->cards[u->card], f);
                    } else if (f & BATTLE_SIM_DYING) {
                        if (BATTLE_SIM_DEATHS(p) && !(u->state & BATTLE_SIM_FX_DONE))
                            battle_sim_death_fx(p, g, s, i, (int)r);
                        if (BATTLE_SIM_PASSIVE(p) && r &&
                            battle_sim_has(p, BATTLE_SIM_PV(VIRULENCE)))
                            battle_sim_virulence(p, g, s, i, run);
                        if (BATTLE_SIM_PASSIVE(p) && battle_sim_has(p, BATTLE_SIM_PV(REVENGE)))
                            battle_sim_revenge(p, g, s);
                        if (u->state & BATTLE_SIM_PB_DEATH)
                            battle_sim_cast_back(p, g, s, (clc_i32)i, &p->cards[u->card]);
                        else
                            battle_sim_cast(p, g, s, r ? (clc_i32)i : -1, &p->cards[u->card],
                                            BATTLE_SIM_TRIG_DEATH);
                    } else {
                        battle_sim_cast(p, g, s, r ? (clc_i32)i : -1, &p->cards[u->card],
                                        BATTLE_SIM_TRIG_PLAY);
                    }
                }
            }
        }
        /* A pass is work too, so that no pass count can run past the bound. At the bound
         * the game stops resolving (what is pending stays so) and ends with the turn. */
        if (++g->work >= p->work_limit) {
            g->last = 0;
            return;
        }
    }
}

/* The end of an action (a unit's round of skills and attack, the play of a card, the turn
 * start): every living unit with Barrier X that took damage N times during it gains N * X
 * Protect (the game's Barrier besides its Protect each turn); `apply` 0 drops the count
 * (damage at the end of a turn does not count). */
CLC_FN void battle_sim_action_end(CLC_GLOBAL const struct battle_plan_data *p,
                                  CLC_PRIVATE struct battle_game *g, int apply)
{
    if (!g->hit)
        return;
    g->hit = 0;
    for (int k = 0; k < 2; k++)
        for (clc_u32 r = 0; r < 2; r++) {
            CLC_PRIVATE struct battle_side *side = &g->sides[k];
            CLC_PRIVATE struct battle_unit *row = r ? side->assaults : side->structures;
            clc_u32 n = r ? side->n_assaults : side->n_structures;
            for (clc_u32 i = 0; i < n; i++) {
                CLC_PRIVATE struct battle_unit *u = &row[i];
                if (!u->hits)
                    continue;
                if (apply && battle_sim_alive(u))
                    u->protect = battle_sim_sat((clc_i32)u->protect +
                                                (clc_i32)u->hits * p->cards[u->card].barrier);
                u->hits = 0;
            }
        }
}

/* A unit's (or, with `cd` of the commander, the commander's) activation skills, in card
 * order, each resolved with the triggers it sets off; a skill still cooling down is
 * skipped, and one that took effect starts its cooldown. `lane`: the unit's assault lane,
 * -1 for other rows. */
/* `pv`: p->passive, a constant in each copy. */
CLC_INLINE void battle_sim_skills_pv(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                     CLC_GLOBAL const struct battle_card_data *c,
                                     CLC_PRIVATE clc_u32 *cd, const int pv)
{
    /* `c` stays the card the unit had when the action began: an assault that evolves one of
     * its own activation skills casts the old one until its next action (tuo: the new one
     * from the next skill; docs/rules/battle.md). Reading the card again after each skill
     * cost plain games 2-4% of their instructions. */
    /* Summon waits for the delay; triggered skills their event. The copies with the rarer
     * rules or the passive effects (`pv`) visit the set bits of the mask only, lowest first:
     * their test per slot was a branch on the card's layout (callgrind, 2026-12-06: -1% to
     * -1.6% instructions a game on such plans). The plain copy keeps the walk slot by slot,
     * which GCC compiles to fewer instructions there and which ran faster on plain games. */
    for (clc_u32 m = c->act_turn, k = 0; m; pv ? (void)(m &= m - 1u) : (void)(k++, m >>= 1)) {
        if (pv)
            k = battle_sim_low_bit(m);
        else if (!(m & 1u))
            continue;
        if (*cd && battle_sim_cd(*cd, k))
            continue;
        if (battle_sim_skill(p, g, s, lane, c, k, pv) && c->act_c[k])
            *cd = battle_sim_cd_set(*cd, k, c->act_c[k]);
        /* A unit that a skill cast back (Payback, Revenge: copies with `pv`) or a death's
         * skill killed or jammed casts nothing more (tuo's resolve_skill checks each
         * skill). */
        if (g->pending)
            battle_sim_triggers(p, g);
        else if (!pv)
            continue;
        if (lane >= 0 && (g->sides[s].assaults[lane].flags &
                          (BATTLE_SIM_ALIVE | BATTLE_SIM_JAMMED)) != BATTLE_SIM_ALIVE)
            break;
    }
}

/* The copies, out of line: one call per unit and turn, with each skill's loop inlined. The
 * copies for plans with the rarer skills, the passive battleground effects or both
 * (p->passive's bits) sit beside the plain one, so that games without them run the code they
 * ran before and each plan pays for its own kind of rules only. */
CLC_NOCLONE void battle_sim_skills_plain(CLC_GLOBAL const struct battle_plan_data *p,
                                         CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                         CLC_GLOBAL const struct battle_card_data *c,
                                         CLC_PRIVATE clc_u32 *cd)
{
    battle_sim_skills_pv(p, g, s, lane, c, cd, 0);
}

CLC_NOCLONE void battle_sim_skills_passive(CLC_GLOBAL const struct battle_plan_data *p,
                                           CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                           CLC_GLOBAL const struct battle_card_data *c,
                                           CLC_PRIVATE clc_u32 *cd)
{
    battle_sim_skills_pv(p, g, s, lane, c, cd, BATTLE_SIM_PV_ANY);
}

#ifndef __OPENCL_VERSION__
CLC_NOCLONE void battle_sim_skills_rare(CLC_GLOBAL const struct battle_plan_data *p,
                                        CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                        CLC_GLOBAL const struct battle_card_data *c,
                                        CLC_PRIVATE clc_u32 *cd)
{
    battle_sim_skills_pv(p, g, s, lane, c, cd, BATTLE_SIM_PV_RARE);
}

CLC_NOCLONE void battle_sim_skills_effects(CLC_GLOBAL const struct battle_plan_data *p,
                                           CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                           CLC_GLOBAL const struct battle_card_data *c,
                                           CLC_PRIVATE clc_u32 *cd)
{
    battle_sim_skills_pv(p, g, s, lane, c, cd, BATTLE_SIM_PV_EFFECTS);
}
#endif

/* The unit's or commander's skills in the copy `pv` says (p->passive's bits: a constant in
 * each copy of the turn on the host, battle_sim_turn_pv; a kernel keeps two copies, the
 * plain one and the one with every rule, as its build was). */
CLC_INLINE void battle_sim_skills_as(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                     CLC_GLOBAL const struct battle_card_data *c,
                                     CLC_PRIVATE clc_u32 *cd, const int pv)
{
#ifndef __OPENCL_VERSION__
    if (pv == BATTLE_SIM_PV_RARE) {
        battle_sim_skills_rare(p, g, s, lane, c, cd);
        return;
    }
    if (pv == BATTLE_SIM_PV_EFFECTS) {
        battle_sim_skills_effects(p, g, s, lane, c, cd);
        return;
    }
#endif
    if (pv)
        battle_sim_skills_passive(p, g, s, lane, c, cd);
    else
        battle_sim_skills_plain(p, g, s, lane, c, cd);
}

/* After an action: Flurry X, off cooldown and while the unit can act, grants X more
 * actions and starts its cooldown. Returns the number of actions now due. */
CLC_FN clc_u32 battle_sim_flurry(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_game *g,
                                 CLC_GLOBAL const struct battle_card_data *c,
                                 CLC_PRIVATE clc_u32 *cd, clc_u32 due)
{
    if (c->flurry && !battle_sim_cd(*cd, BATTLE_SIM_CD_FLURRY)) {
        *cd = battle_sim_cd_set(*cd, BATTLE_SIM_CD_FLURRY, c->flurry_c);
        /* Extra actions are work; at the bound none is granted and the turn ends. */
        g->work += c->flurry;
        if (g->work >= p->work_limit) {
            g->last = 0;
            return due;
        }
        return due + c->flurry;
    }
    return due;
}

#endif
