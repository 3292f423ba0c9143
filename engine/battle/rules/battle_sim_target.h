/* SPDX-License-Identifier: MIT */
/* Part of the rules of one battle game (battle_sim.h, which includes the parts in order:
 * state, play, target, skills, turn). Whom a skill may aim at: the skill table's facts
 * (hostile, row, options, when), the validity of a target, the draw among the valid ones,
 * faction filters. */
#ifndef BATTLE_SIM_TARGET_H
#define BATTLE_SIM_TARGET_H

#include "battle_sim_play.h"

/* ---------------------------------------------------------------------------------------
 * Targeting: whom a skill may aim at, and the draw among them
 * ------------------------------------------------------------------------------------- */

/* True when a hostile skill aimed at `u` is negated by its Evade (and counts the use). */
CLC_INLINE int battle_sim_evades(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_unit *u)
{
    if (u->evaded < p->cards[u->card].evade) {
        u->evaded++;
        return 1;
    }
    return 0;
}

/* Facts of skill `id` from the skill table (battle_skills.h). */
CLC_FN int battle_sim_hostile(clc_u32 id)
{
    switch (id) {
#define BATTLE_SIM_HOSTILE_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)    \
    case BATTLE_SKILL_##ID:                                                                        \
        return HOSTILE;
        BATTLE_SKILL_TABLE(BATTLE_SIM_HOSTILE_)
#undef BATTLE_SIM_HOSTILE_
    default:
        return 0;
    }
}

CLC_FN int battle_sim_row(clc_u32 id)
{
    switch (id) {
#define BATTLE_SIM_ROW_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)        \
    case BATTLE_SKILL_##ID:                                                                        \
        return BATTLE_ROW_##ROW;
        BATTLE_SKILL_TABLE(BATTLE_SIM_ROW_)
#undef BATTLE_SIM_ROW_
    default:
        return BATTLE_ROW_NONE;
    }
}

CLC_FN clc_u32 battle_sim_opts(clc_u32 id)
{
    switch (id) {
#define BATTLE_SIM_OPTS_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)       \
    case BATTLE_SKILL_##ID:                                                                        \
        return OPTS;
        BATTLE_SKILL_TABLE(BATTLE_SIM_OPTS_)
#undef BATTLE_SIM_OPTS_
    default:
        return 0;
    }
}

/* Whether action `k` of card `c` is cast at all: a skill that takes an X and has none is
 * not (tuo's resolve_skill drops it), though it stays on the card, where Mimic can take it
 * (with Mimic's X), Enhance can raise it (and then it is cast) and Evolve can change it. The
 * game's files give Rush to ten cards and Besiege to one without an X. Enhance's X says
 * which change it makes, not how much. */
CLC_FN int battle_sim_act_cast(CLC_GLOBAL const struct battle_card_data *c, clc_u32 k)
{
    clc_u32 id = c->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE;
    return c->act_x[k] != 0 || !(battle_sim_opts(id) & BATTLE_OPT_X) || id == BATTLE_SKILL_ENHANCE;
}

CLC_FN int battle_sim_when(clc_u32 id)
{
    switch (id) {
#define BATTLE_SIM_WHEN_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)       \
    case BATTLE_SKILL_##ID:                                                                        \
        return BATTLE_WHEN_##WHEN;
        BATTLE_SKILL_TABLE(BATTLE_SIM_WHEN_)
#undef BATTLE_SIM_WHEN_
    default:
        return BATTLE_WHEN_ALIVE;
    }
}

/* Whether unit `u`, on the side whose turn it is (`active`) or the other, acts later in
 * this turn: at delay 0, not jammed, its turn in the row not over, and not acting now
 * unless Flurry leaves it actions (tuo's will_activate_this_turn). `act` is the acting
 * unit's current action index. */
CLC_INLINE int battle_sim_acts_later(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE const struct battle_unit *u, clc_u32 act)
{
    /* One expression without branches (see battle_sim_valid_on). */
    return (u->delay == 0) & ((u->flags & (BATTLE_SIM_JAMMED | BATTLE_SIM_ATTACKED)) == 0) &
           (((u->flags & BATTLE_SIM_ACTING) == 0) | (act < p->cards[u->card].flurry));
}

/* What Overload would help in unit `u` (tuo's skill_predicate<overload>): 2 when it has a
 * hostile activation skill off cooldown (Evade and Protect), 1 when it has only allied ones
 * (Mend, Fortify, Summon and Enhance aside: Inhibit), else 0. */
CLC_FN int battle_sim_ol_kind(CLC_GLOBAL const struct battle_plan_data *p,
                              CLC_PRIVATE const struct battle_unit *u)
{
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
    int kind = 0;
    for (clc_u32 k = 0; k < c->n_act; k++) {
        clc_u32 id = c->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE;
        if (c->act_trig[k] != BATTLE_SIM_TRIG_ACTIVATE || (u->cd && battle_sim_cd(u->cd, k)))
            continue;
        if (battle_sim_hostile(id))
            return 2;
        /* Enhance is none of tuo's activation skills: it is cast at turn start. */
        if (id != BATTLE_SKILL_MEND && id != BATTLE_SKILL_FORTIFY && id != BATTLE_SKILL_SUMMON &&
            id != BATTLE_SKILL_ENHANCE)
            kind = 1;
    }
    return kind;
}

/* Whether unit `u` is a valid target of skill `id` by the skill's target condition. The
 * conditions that look ahead depend on whose turn it is: a skill cast on the side whose
 * turn it is (`active`: Weaken or Jam cast on an attacker by a triggered skill of the
 * defender, Rally cast on the attacker's own units) looks at this turn, one cast on the
 * other side at that side's next turn. `act`: see battle_sim_acts_later. */
CLC_INLINE int battle_sim_valid_on(CLC_GLOBAL const struct battle_plan_data *p, clc_u32 id,
                                   CLC_PRIVATE const struct battle_unit *u, int active, clc_u32 act)
{
    /* Each condition but Overload's is one expression without branches: the target loops
     * test every unit of a row, and the outcomes (a unit's health, delay, Jam) are what a
     * branch predictor cannot learn (bench/history/2026-11-28.md, "Branches a predictor
     * cannot learn": faster on the CPU for a few percent more instructions). */
    clc_u32 f = u->flags, d = u->delay;
    int alive = (f & BATTLE_SIM_ALIVE) != 0;
    /* it acts at the other side's next turn (as tuo: a jammed unit will not act) */
    int next = (d <= 1u) & ((f & BATTLE_SIM_JAMMED) == 0);
    switch (battle_sim_when(id)) {
    case BATTLE_WHEN_HITS:
    case BATTLE_WHEN_ACTS: {
        int ok = alive;
        if (battle_sim_when(id) == BATTLE_WHEN_HITS)
            ok &= battle_sim_power(u) != 0;
        if (!active)
            return ok & next;
        return ok & battle_sim_acts_later(p, u, act);
    }
    case BATTLE_WHEN_DAMAGED:
        return alive & (u->hp < battle_sim_max_hp(u));
    case BATTLE_WHEN_FIGHTS: /* Enrage: not the unit acting now (tuo's m_step) */
        if (!active)
            return alive & (battle_sim_power(u) != 0) & next;
        return alive & (battle_sim_power(u) != 0) & (d == 0u) &
               ((f & (BATTLE_SIM_JAMMED | BATTLE_SIM_ATTACKED | BATTLE_SIM_ACTING)) == 0);
    case BATTLE_WHEN_DELAYED:
        return alive & (d >= 1u);
    case BATTLE_WHEN_OVERLOAD: /* on either side (tuo's skill_check<overload>) */
        return alive && d == 0u && !(f & (BATTLE_SIM_JAMMED | BATTLE_SIM_ATTACKED)) &&
               !(u->state & BATTLE_SIM_OVERLOADED) && battle_sim_ol_kind(p, u);
    case BATTLE_WHEN_READY: /* Rally: a sundered unit takes none (tuo's skill_check) */
        if (!active)
            return alive & (d <= 1u) & ((f & (BATTLE_SIM_JAMMED | BATTLE_SIM_SUNDERED)) == 0);
        return alive & (d == 0u) &
               ((f & (BATTLE_SIM_JAMMED | BATTLE_SIM_ATTACKED | BATTLE_SIM_SUNDERED)) == 0);
    default:
        return alive;
    }
}

/* The usual case: hostile skills aimed at the side whose turn it is not, allied ones at
 * the side whose turn it is. */
CLC_FN int battle_sim_valid(CLC_GLOBAL const struct battle_plan_data *p, clc_u32 id,
                            CLC_PRIVATE const struct battle_unit *u)
{
    return battle_sim_valid_on(p, id, u, !battle_sim_hostile(id), 0);
}

/* What battle_sim_mod_ok (below) tests for a change `m` of the plan, `always` its
 * BATTLE_SIM_MOD_ALWAYS: one expression without branches, as the target loop of Enhance
 * and Evolve tests every unit of a row (see battle_sim_valid_on). */
CLC_FN clc_u32 battle_sim_mod_takes(CLC_GLOBAL const struct battle_plan_data *p,
                                    CLC_PRIVATE const struct battle_unit *u, clc_i32 m,
                                    clc_u32 always)
{
    return (clc_u32)(p->mod_to[u->card][m] != BATTLE_SIM_CARD_NONE) &
           (always | ((u->delay == 0) & ((u->flags & BATTLE_SIM_JAMMED) == 0)));
}

/* Whether Enhance or Evolve change `m` (the action's X) applies to unit `u` now (tuo's
 * skill_predicate<enhance> and <evolve>): its card has a variant for it (it has the skill,
 * and for Evolve not the new one), and it acts this turn (delay 0, not jammed) unless the
 * change works without acting (BATTLE_SIM_MOD_ALWAYS). An Enhance that Evolve took away has
 * change BATTLE_SIM_NONE: it applies to no one. */
CLC_FN int battle_sim_mod_ok(CLC_GLOBAL const struct battle_plan_data *p,
                             CLC_PRIVATE const struct battle_unit *u, clc_i32 m)
{
    if (m < 0 || m >= (clc_i32)p->n_mods)
        return 0;
    return (int)battle_sim_mod_takes(p, u, m, (p->mod_flags[m] & BATTLE_SIM_MOD_ALWAYS) != 0);
}

/* Keeps `n` (at least 1) of the `nc` candidates `cand` (lanes, ascending), drawn without
 * repetition from the game's stream, in lane order; all of them when n >= nc. One
 * candidate draws nothing; n = 1 draws one rng_below(nc), as before options existed.
 * Returns how many are kept. */
CLC_INLINE clc_u32 battle_sim_draw(CLC_PRIVATE struct battle_game *g, CLC_PRIVATE clc_u8 *cand,
                                   clc_u32 nc, clc_u32 n)
{
    if (n < 1)
        n = 1;
    if (n >= nc)
        return nc;
    if (n == 1) {
        cand[0] = cand[rng_below(&g->rng, nc)];
        return 1;
    }
    /* A partial Fisher-Yates draw, then lane order. */
    for (clc_u32 i = 0; i < n; i++) {
        clc_u32 j = i + rng_below(&g->rng, nc - i);
        clc_u8 t = cand[i];
        cand[i] = cand[j];
        cand[j] = t;
    }
    for (clc_u32 i = 1; i < n; i++)
        for (clc_u32 j = i; j > 0 && cand[j - 1] > cand[j]; j--) {
            clc_u8 t = cand[j];
            cand[j] = cand[j - 1];
            cand[j - 1] = t;
        }
    return n;
}

/* Whether a unit of faction `f` passes a skill's faction filter `y` (not 0): its faction,
 * or the Progenitor faction, which every filter takes. One expression without branches: the
 * target loops add it to their count. */
CLC_FN clc_u32 battle_sim_faction_ok(clc_u32 f, clc_u32 y)
{
    return (clc_u32)((f == y) | (f == BATTLE_SIM_PROGENITOR));
}

/* Metamorphosis or Megamorphosis (passive battleground effects of the side whose turn it
 * is): faction filters (y) take every unit. */
CLC_FN int battle_sim_morph(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE const struct battle_game *g)
{
    int tap = battle_sim_active(p->mode, g->turn);
    return battle_sim_passive(p, tap, BATTLE_PASSIVE_METAMORPHOSIS) ||
           battle_sim_passive(p, tap, BATTLE_PASSIVE_MEGAMORPHOSIS);
}

#endif
