/* SPDX-License-Identifier: MIT */
/* Part of the rules of one battle game (battle_sim.h, which includes the parts in order:
 * state, play, target, skills, turn). The attack, one turn, a whole game and its
 * score. */
#ifndef BATTLE_SIM_TURN_H
#define BATTLE_SIM_TURN_H

#include "battle_sim_skills.h"

/* ---------------------------------------------------------------------------------------
 * The attack
 * ------------------------------------------------------------------------------------- */

CLC_FN clc_u32 battle_sim_bits(clc_u32 v)
{
    clc_u32 n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* Side `s`'s living assaults as Legion and Coalition of its assault `u` count them: returns
 * the others of its faction, and sets *factions to the bit set of their factions. */
CLC_FN clc_u32 battle_sim_kin(CLC_GLOBAL const struct battle_plan_data *p,
                              CLC_PRIVATE struct battle_game *g, int s,
                              CLC_PRIVATE const struct battle_unit *u,
                              CLC_PRIVATE clc_u32 *factions)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    clc_u32 faction = p->cards[u->card].faction, same = 0, f = 0;
    for (clc_u32 i = 0; i < me->n_assaults; i++) {
        CLC_PRIVATE const struct battle_unit *a = &me->assaults[i];
        if (!battle_sim_alive(a))
            continue;
        f |= 1u << p->cards[a->card].faction;
        if (a != u && p->cards[a->card].faction == faction)
            same++;
    }
    *factions = f;
    return same;
}

/* What the attack of `u` (side `s`) adds to its power: Legion X per other living own
 * assault of its faction, Coalition X per faction among own living assaults, Rupture X,
 * Venom X on a poisoned target `t` (0: the commander). */
CLC_FN clc_i32 battle_sim_bonus(CLC_GLOBAL const struct battle_plan_data *p,
                                CLC_PRIVATE struct battle_game *g, int s,
                                CLC_PRIVATE const struct battle_unit *u,
                                CLC_PRIVATE const struct battle_unit *t)
{
    CLC_GLOBAL const struct battle_card_data *ac = &p->cards[u->card];
    clc_i32 b = ac->rupture;
    if (ac->legion || ac->coalition) {
        clc_u32 factions;
        clc_u32 same = battle_sim_kin(p, g, s, u, &factions);
        b += (clc_i32)(ac->legion * same);
        if (ac->coalition)
            b += (clc_i32)(ac->coalition * battle_sim_bits(factions));
    }
    if (ac->venom && t && t->poison > 0)
        b += ac->venom;
    return b;
}

/* What the passive battleground effects of side `s` (the attacker's) add to the attack
 * damage of its assault `u` before the target's defences, as tuo's modify_attack_damage
 * ends: Bloodlust's damage so far this phase; Brigade and Unity heal the attacker by what
 * Legion and Coalition added. */
CLC_NOINLINE clc_i32 battle_sim_passive_damage(CLC_GLOBAL const struct battle_plan_data *p,
                                               CLC_PRIVATE struct battle_game *g, int s,
                                               CLC_PRIVATE struct battle_unit *u)
{
    CLC_GLOBAL const struct battle_card_data *ac = &p->cards[u->card];
    clc_i32 brigade = ac->legion ? battle_sim_passive(p, s, BATTLE_PASSIVE_BRIGADE) : 0;
    clc_i32 unity = ac->coalition ? battle_sim_passive(p, s, BATTLE_PASSIVE_UNITY) : 0;
    if (brigade || unity) {
        clc_u32 factions;
        clc_u32 same = battle_sim_kin(p, g, s, u, &factions);
        if (brigade && same && battle_sim_alive(u))
            battle_sim_heal_hurt(u, (clc_i32)(ac->legion * same));
        if (unity && battle_sim_alive(u))
            battle_sim_heal_hurt(u, (clc_i32)(ac->coalition * battle_sim_bits(factions)));
    }
    return g->bloodlust;
}

/* The largest Armor among the living assaults of side `s` within Fortification X (a passive
 * battleground effect of the attacker, side 1 - s) lanes of the one at `lane`, its own
 * included: what the attack on it reduces by. */
CLC_NOINLINE clc_i32 battle_sim_fortified(CLC_GLOBAL const struct battle_plan_data *p,
                                          CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane,
                                          clc_i32 armor)
{
    CLC_PRIVATE struct battle_side *side = &g->sides[s];
    clc_i32 x = battle_sim_passive(p, 1 - s, BATTLE_PASSIVE_FORTIFICATION);
    clc_i32 lo = (clc_i32)lane - x, hi = (clc_i32)lane + x;
    if (!x)
        return armor;
    for (clc_i32 i = lo > 0 ? lo : 0; i <= hi && i < (clc_i32)side->n_assaults; i++) {
        CLC_PRIVATE const struct battle_unit *a = &side->assaults[i];
        if (battle_sim_alive(a) && p->cards[a->card].armor > armor)
            armor = p->cards[a->card].armor;
    }
    return armor;
}

/* A passive effect's denominator (Counterflux, Devour, Enduring Rage): its value X gives
 * (v - 1) / X + 1 of a skill's v. */
CLC_FN clc_i32 battle_sim_part(clc_i32 v, clc_i32 x)
{
    return (v - 1) / x + 1;
}

/* After an attack of assault `u` of side `s` on assault `t` that did damage (tuo's order:
 * after Poison, before Hunt), the attacker's passive battleground effects: Heroism, when
 * `t` died, adds the attacker's Valor + Bravery to its attack; Devour X adds part of its
 * Leech + Refresh to its attack and max health. */
CLC_NOINLINE void battle_sim_passive_hit(CLC_GLOBAL const struct battle_plan_data *p, int s,
                                         CLC_PRIVATE struct battle_unit *u,
                                         CLC_PRIVATE const struct battle_unit *t)
{
    CLC_GLOBAL const struct battle_card_data *ac = &p->cards[u->card];
    clc_i32 v = (clc_i32)ac->valor + ac->bravery;
    clc_i32 x;
    int sundered = (u->flags & BATTLE_SIM_SUNDERED) != 0;
    if (v && !sundered && !battle_sim_alive(t) && battle_sim_passive(p, s, BATTLE_PASSIVE_HEROISM))
        battle_sim_gain_attack(u, v);
    v = (clc_i32)ac->leech + ac->refresh;
    x = battle_sim_passive(p, s, BATTLE_PASSIVE_DEVOUR);
    if (v && x) {
        v = battle_sim_part(v, x);
        if (!sundered)
            battle_sim_gain_attack(u, v);
        battle_sim_gain_hp(u, v);
    }
}

/* Assault `lane` of side `s` attacks (nothing when its power is 0). Sets g->over when a
 * commander falls. `pv`: pv, a constant in each copy (battle_sim_attack). */
/* NOLINTNEXTLINE(readability-function-size): the attack's steps in the game's order */
CLC_INLINE void battle_sim_attack_pv(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane,
                                     const int pv)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - s];
    CLC_PRIVATE struct battle_unit *u = &me->assaults[lane];
    CLC_GLOBAL const struct battle_card_data *ac = &p->cards[u->card];
    CLC_GLOBAL const struct battle_card_data *dc;
    CLC_PRIVATE struct battle_unit *t = 0;
    clc_i32 power = battle_sim_power(u);
    clc_i32 dmg, red, counter, berserk;
    int on_assault, sundered;
    if (power == 0)
        return;
    /* Target: the living assault opposite, else the first living Wall, else the
     * commander. */
    if (lane < en->n_assaults && battle_sim_alive(&en->assaults[lane])) {
        t = &en->assaults[lane];
    } else {
        for (clc_u32 i = 0; i < en->n_structures; i++) {
            CLC_PRIVATE struct battle_unit *w = &en->structures[i];
            if (battle_sim_alive(w) && p->cards[w->card].wall) {
                t = w;
                break;
            }
        }
    }
    dc = t ? &p->cards[t->card] : &p->cards[g->sides[1 - s].commander];
    on_assault = t && dc->type == BATTLE_ASSAULT;
    /* Flying dodges with probability 1/2 (a draw only when the target has it). */
    if (dc->flying && rng_below(&g->rng, 2) == 0)
        return;
    /* Subdue, before the damage: an attacker left with no power does not attack. */
    if ((pv & BATTLE_SIM_PV_RARE) && dc->subdue) {
        battle_sim_subdue(ac, u, dc->subdue);
        power = battle_sim_power(u);
        if (power == 0)
            return;
    }
    /* A sundered attacker adds nothing to its power: no Legion, Coalition, Rupture, Venom,
     * passive effect, Mark or Enfeeble on the target (tuo's modify_attack_damage). */
    sundered = (pv & BATTLE_SIM_PV_RARE) && (u->flags & BATTLE_SIM_SUNDERED);
    dmg = power;
    if (!sundered) {
        dmg += battle_sim_bonus(p, g, s, u, t);
        if ((pv & BATTLE_SIM_PV_RARE) && t)
            dmg += BATTLE_SIM_R(t)->marked;
        if ((pv & BATTLE_SIM_PV_EFFECTS) &&
            battle_sim_has(p, BATTLE_SIM_PV(BLOODLUST) | BATTLE_SIM_PV(BRIGADE) |
                                  BATTLE_SIM_PV(UNITY)))
            dmg += battle_sim_passive_damage(p, g, s, u);
    }
    if (t) {
        red = on_assault ? dc->armor : 0;
        if (on_assault && (pv & BATTLE_SIM_PV_EFFECTS) &&
            battle_sim_has(p, BATTLE_SIM_PV(FORTIFICATION)))
            red = battle_sim_fortified(p, g, 1 - s, lane, red);
        red += t->protect - ac->pierce - ac->rupture;
        /* A corroded target's reduction is less by its corrosion's X (copies with `pv`). */
        if ((pv & BATTLE_SIM_PV_RARE) && red > 0)
            red -= BATTLE_SIM_R(t)->corrode;
        dmg += (sundered ? 0 : t->enfeeble) - (red > 0 ? red : 0);
        if (dmg < 0)
            dmg = 0;
        battle_sim_hurt(p, g, 1 - s, t, dmg);
        if ((pv & BATTLE_SIM_PV_EFFECTS) && on_assault && !battle_sim_alive(t) &&
            battle_sim_has(p, BATTLE_SIM_PV(VIRULENCE)))
            battle_sim_virulence_hit(p, g, 1 - s, lane);
        /* Venom poisons an assault it hit (one Virulence has handled is left so). */
        if (dmg > 0 && on_assault && ac->venom && (!(pv & BATTLE_SIM_PV_EFFECTS) || t->poison >= 0))
            t->poison = battle_sim_sat((clc_i32)t->poison + ac->venom);
    } else {
        clc_i32 hp = (clc_i32)en->commander_hp - dmg;
        en->commander_hp = (clc_i16)(hp > 0 ? hp : 0);
        if (hp <= 0) {
            g->over = (clc_u8)(2 - s);
            return;
        }
    }
    /* The target's death, then its on-attacked skills (even at 0 damage, even when it
     * died), each with what they set off. */
    if (g->pending)
        battle_sim_triggers(p, g);
    battle_sim_cast(p, g, 1 - s, on_assault ? (clc_i32)lane : -1, dc, BATTLE_SIM_TRIG_ATTACKED);
    if (g->pending)
        battle_sim_triggers(p, g);
    /* Counter fires even when the hit did 0; Entrap adds to it (copies with `pv`). */
    counter = dc->counter + ((pv & BATTLE_SIM_PV_RARE) && t ? BATTLE_SIM_R(t)->entrapped : 0);
    if (counter && battle_sim_alive(u)) {
        battle_sim_strike(p, g, s, u, counter);
        if (g->pending)
            battle_sim_triggers(p, g);
        /* Counterflux (the attacker's passive effect): a living assault that countered
         * heals and gains attack by part of its Counter. */
        if (on_assault && (pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_alive(t) &&
            battle_sim_passive(p, s, BATTLE_PASSIVE_COUNTERFLUX)) {
            clc_i32 v =
                battle_sim_part(counter, battle_sim_passive(p, s, BATTLE_PASSIVE_COUNTERFLUX));
            battle_sim_heal(t, v);
            if (!(t->flags & BATTLE_SIM_SUNDERED))
                battle_sim_gain_attack(t, v);
        }
    }
    /* Corrosive: the attacker is corroded by the target's X when that is more than it was
     * (even at 0 damage; a commander's or a Wall's too). */
    if ((pv & BATTLE_SIM_PV_RARE) && dc->corrosive > BATTLE_SIM_R(u)->corrode &&
        battle_sim_alive(u))
        BATTLE_SIM_R(u)->corrode = dc->corrosive;
    /* Leech, on a hit that did damage to an assault only: it raises max health by what it
     * heals, so the unit gains min(X, damage) health whatever it had. */
    if (dmg > 0 && ac->leech && on_assault && battle_sim_alive(u))
        battle_sim_gain_hp(u, ac->leech < dmg ? ac->leech : dmg);
    /* Swipe and Drain hit the target's neighbours (an assault target only, even at 0
     * damage, even when the attacker died); Drain heals what the attack and they did. */
    if ((ac->swipe || ac->drain) && on_assault) {
        clc_i32 total = dmg;
        /* Critical Reach (the attacker's passive effect): two lanes on each side. */
        clc_u32 r =
            (pv & BATTLE_SIM_PV_EFFECTS) && p->sides[s].passive[BATTLE_PASSIVE_CRITICALREACH] ? 2u
                                                                                              : 1u;
        for (clc_u32 i = lane > r ? lane - r : 0; i <= lane + r && i < en->n_assaults; i++) {
            CLC_PRIVATE struct battle_unit *a = &en->assaults[i];
            if (i != lane && battle_sim_alive(a))
                total += battle_sim_strike(p, g, 1 - s, a, ac->swipe + ac->drain);
        }
        if (ac->drain && battle_sim_alive(u))
            battle_sim_heal_hurt(u, total);
        if (g->pending)
            battle_sim_triggers(p, g);
    }
    /* Berserk, with what Enrage added (copies with `pv`). */
    berserk = ac->berserk + ((pv & BATTLE_SIM_PV_RARE) ? BATTLE_SIM_R(u)->enraged : 0);
    if (!pv) {
        /* No branch on whether the hit did damage, which a predictor cannot learn (attack
         * never exceeds the cap, so adding 0 changes nothing). */
        u->attack =
            battle_sim_sat((clc_i32)u->attack + (((dmg > 0) & battle_sim_alive(u)) ? berserk : 0));
    } else if (dmg > 0 && berserk && !sundered && battle_sim_alive(u)) {
        battle_sim_gain_attack(u, berserk); /* Subdue's debt */
        /* Enduring Rage (the attacker's passive effect): heals and protects the unit by
         * part of its Berserk. */
        if ((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_passive(p, s, BATTLE_PASSIVE_ENDURINGRAGE)) {
            clc_i32 v =
                battle_sim_part(berserk, battle_sim_passive(p, s, BATTLE_PASSIVE_ENDURINGRAGE));
            battle_sim_heal(u, v);
            u->protect = battle_sim_sat((clc_i32)u->protect + v);
        }
    }
    /* Poison poisons whoever attacks it, even when the hit was fully blocked. */
    if (dc->poison && battle_sim_alive(u))
        u->poison = battle_sim_sat((clc_i32)u->poison + dc->poison);
    /* Mark: X marks on the assault the hit damaged (not a commander or a Wall), for good. */
    if ((pv & BATTLE_SIM_PV_RARE) && dmg > 0 && ac->mark && on_assault && battle_sim_alive(u))
        BATTLE_SIM_R(t)->marked = battle_sim_sat((clc_i32)BATTLE_SIM_R(t)->marked + ac->mark);
    if ((pv & BATTLE_SIM_PV_EFFECTS) && dmg > 0 && on_assault && battle_sim_alive(u) &&
        battle_sim_has(p, BATTLE_SIM_PV(HEROISM) | BATTLE_SIM_PV(DEVOUR)))
        battle_sim_passive_hit(p, s, u, t);
    /* Hunt: X to the first living enemy assault, whatever became of the attacker. */
    if (ac->hunt) {
        for (clc_u32 i = 0; i < en->n_assaults; i++)
            if (battle_sim_alive(&en->assaults[i])) {
                battle_sim_strike(p, g, 1 - s, &en->assaults[i], ac->hunt);
                break;
            }
        if (g->pending)
            battle_sim_triggers(p, g);
    }
    /* Bloodlust X (the attacker's passive effect): the first attack of each assault's turn
     * that did damage adds X to the damage of the phase's later attacks. */
    if ((pv & BATTLE_SIM_PV_EFFECTS) && dmg > 0 && !g->lusted &&
        battle_sim_passive(p, s, BATTLE_PASSIVE_BLOODLUST)) {
        g->bloodlust = battle_sim_sat((clc_i32)g->bloodlust +
                                      battle_sim_passive(p, s, BATTLE_PASSIVE_BLOODLUST));
        g->lusted = 1;
    }
}

/* Corrosion of assault `u` after its action's attack step (tuo's apply_corrosion and
 * remove_corrosion): when it attacked (`attacked`: it had attack power), it loses attack by
 * the X it was corroded by, at most its attack power and its attack with the gains Subdue
 * took (tuo's card attack plus permanent gains, which Subdue does not lower), for as long
 * as it stays corroded; when it did not, its corrosion ends and its attack comes back. So
 * after Subdue `attack` may fall below 0: Rally then only makes up for it, and once the
 * unit has no attack power left its corrosion ends (bench/peer_fuzz.mjs seed 48, #30). */
CLC_FN void battle_sim_corrosion(CLC_PRIVATE struct battle_unit *u, int attacked)
{
    CLC_PRIVATE struct battle_unit_rare *r = BATTLE_SIM_R(u);
    if (!BATTLE_SIM_UR) /* Corrosive is one of the rarer skills */
        return;
    if (attacked) {
        clc_i32 v = r->corrode < battle_sim_power(u) ? r->corrode : battle_sim_power(u);
        clc_i32 cap = (clc_i32)u->attack + r->subdued;
        v = v < cap ? v : cap;
        u->attack = (clc_i16)(u->attack - v);
        r->corroded = (clc_i16)(r->corroded + v);
    } else {
        u->attack = battle_sim_sat((clc_i32)u->attack + r->corroded);
        r->corrode = 0;
        r->corroded = 0;
    }
}

/* The attack; `pv` (p->passive, a constant in each copy of the turn, battle_sim_turn_pv)
 * adds the passive battleground effects' and the rarer skills' steps, Corrosive's last:
 * games without them play the copy that has none. */
CLC_INLINE void battle_sim_attack(CLC_GLOBAL const struct battle_plan_data *p,
                                  CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane,
                                  const int pv)
{
    CLC_PRIVATE struct battle_unit *u = &g->sides[s].assaults[lane];
    int attacked;
    if (!(pv & BATTLE_SIM_PV_RARE)) {
        battle_sim_attack_pv(p, g, s, lane, pv);
        return;
    }
    attacked = battle_sim_power(u) > 0;
    battle_sim_attack_pv(p, g, s, lane, pv);
    if (BATTLE_SIM_R(u)->corrode && !g->over)
        battle_sim_corrosion(u, attacked);
}

/* ---------------------------------------------------------------------------------------
 * One turn
 * ------------------------------------------------------------------------------------- */

/* Removes dead units from both rows of a side, survivors keeping their order. */
CLC_FN void battle_sim_compress(CLC_PRIVATE struct battle_side *side)
{
    /* The counts are read once: the units' copies could alias them for the compiler. */
    clc_u32 ns = side->n_structures, na = side->n_assaults;
    clc_u32 n = 0;
    for (clc_u32 i = 0; i < ns; i++)
        if (battle_sim_alive(&side->structures[i])) {
            if (n != i)
                side->structures[n] = side->structures[i];
            n++;
        }
    side->n_structures = (clc_u8)n;
    n = 0;
    for (clc_u32 i = 0; i < na; i++)
        if (battle_sim_alive(&side->assaults[i])) {
            if (n != i)
                side->assaults[n] = side->assaults[i];
            n++;
        }
    side->n_assaults = (clc_u8)n;
    side->died = 0;
}

/* Plays the card side `s` draws this turn into its row (right-hand end) and casts its
 * on-play skills. A row already full (only summons can fill one) takes nothing. */
CLC_INLINE void battle_sim_play_card(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    clc_u32 e = battle_sim_select(p, g, s);
    CLC_GLOBAL const struct battle_card_data *c;
    clc_u32 card;
    clc_i32 lane;
    me->last_played = (clc_u8)e;
    if (e == BATTLE_SIM_NONE)
        return;
    card = me->card[e];
    c = &p->cards[card];
    /* A commander card drawn from a deck (two missions have one) is not played, as the peer
     * skips it; like a card drawn into a full row, it never entered play. */
    lane = c->type == BATTLE_COMMANDER ? -1 : battle_sim_enter(p, g, s, card, 0, 0);
    if (lane < 0) {
        g->refused[s] = (clc_u8)(g->refused[s] + (g->refused[s] < 255));
        return;
    }
    battle_sim_cast(p, g, s, c->type == BATTLE_STRUCTURE ? -1 : lane, c, BATTLE_SIM_TRIG_PLAY);
    if (g->pending)
        battle_sim_triggers(p, g);
}

/* After side `s` played its card, the instant debuffs of each of its living assaults on the
 * living enemy assault opposite (tuo's phase of check_and_perform_inhibit, _sabotage and
 * _disease; delay and Jam do not matter):
 * - Inhibit X: it refuses the next X allied skills aimed at it, unless it already refuses
 *   as many (the count is not added to), until the end of its own next turn;
 * - Sabotage X: it casts with X less on its skills' X until its own turn ends, unless it
 *   already had as much or more (values are not added up);
 * - Disease X: it is diseased by X more (they add up, and only health gains pay them off:
 *   battle_sim_cure). */
CLC_FN void battle_sim_debuffs(CLC_GLOBAL const struct battle_plan_data *p,
                               CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - s];
    /* No unit joins a row here: the counts are read once (the stores below could alias
     * them for the compiler). */
    clc_u32 n = me->n_assaults < en->n_assaults ? me->n_assaults : en->n_assaults;
    for (clc_u32 i = 0; i < n; i++) {
        CLC_PRIVATE struct battle_unit *t = &en->assaults[i];
        CLC_GLOBAL const struct battle_card_data *c = &p->cards[me->assaults[i].card];
        if (!battle_sim_alive(&me->assaults[i]) || !battle_sim_alive(t))
            continue;
        if (c->inhibit > t->inhibited)
            t->inhibited = c->inhibit;
        if (!BATTLE_SIM_UR) /* no Sabotage or Disease (battle_rules_features) */
            continue;
        if (c->sabotage > BATTLE_SIM_R(t)->sabotaged)
            BATTLE_SIM_R(t)->sabotaged = c->sabotage;
        if (c->disease)
            BATTLE_SIM_R(t)->diseased =
                battle_sim_sat((clc_i32)BATTLE_SIM_R(t)->diseased + (clc_i32)c->disease);
    }
}

/* Heroism (a passive battleground effect of side `s`, whose turn it is), after the card
 * played and Inhibit (tuo's phase of Inhibit, Sabotage and Disease): each living own
 * assault with Valor or Bravery gains (Valor + Bravery + 1) / 2 Protect, cast by the
 * commander (Inhibit refuses it). */
CLC_NOINLINE void battle_sim_heroism(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    if (!battle_sim_passive(p, s, BATTLE_PASSIVE_HEROISM))
        return;
    for (clc_u32 i = 0; i < me->n_assaults; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->assaults[i];
        clc_i32 v = (clc_i32)p->cards[u->card].valor + p->cards[u->card].bravery;
        if (!v)
            continue;
        if ((BATTLE_SIM_FX(p) & BATTLE_SIM_FX_INHIBIT) && u->inhibited) {
            u->inhibited--;
            battle_sim_divert(p, g, BATTLE_SKILL_PROTECT, (v + 1) / 2, 0, 1);
            continue;
        }
        if (battle_sim_alive(u))
            u->protect = battle_sim_sat((clc_i32)u->protect + (v + 1) / 2);
    }
}

/* The end of Enhance's and Evolve's changes on side `en`: its assaults play their own cards
 * again. Out of line: only plans with them call it. */
CLC_NOINLINE void battle_sim_unmod(CLC_GLOBAL const struct battle_plan_data *p,
                                   CLC_PRIVATE struct battle_side *en)
{
    for (clc_u32 i = 0; i < en->n_assaults; i++)
        en->assaults[i].card = p->card_base[en->assaults[i].card];
}

/* Side `s`'s unit with card `c` (an assault at `lane`; -1 for the commander and structures),
 * acting this turn, casts its Enhance skills at its turn start (tuo's
 * check_and_perform_enhance with its default enhance_early): those of Allegiance, Absorb,
 * Stasis and Bravery first, then the others, each in card order; Inhibit may refuse them.
 * Out of line: only plans with Enhance call it. */
CLC_NOINLINE void battle_sim_enhance(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s, clc_i32 lane,
                                     CLC_GLOBAL const struct battle_card_data *c)
{
    /* One scan of the card sorts its Enhance skills into the two rounds, a bit each (the
     * card is the plan's: casting changes the unit's card, not this one). A scan per round
     * cost real-s39 1.3% and real-r17 1.0% more instructions (callgrind, 2026-11-28). */
    clc_u32 round[2] = {0, 0};
    for (clc_u32 k = 0; k < c->n_act; k++) {
        clc_u32 m = c->act_x[k];
        if ((c->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE) == BATTLE_SKILL_ENHANCE &&
            c->act_trig[k] == BATTLE_SIM_TRIG_ACTIVATE && m < p->n_mods)
            round[(p->mod_flags[m] & BATTLE_SIM_MOD_EARLY) == 0] |= 1u << k;
    }
    for (clc_u32 r = 0; r < 2; r++)
        for (clc_u32 k = 0, m = round[r]; m; k++, m >>= 1)
            if (m & 1u)
                battle_sim_skill_as(p, g, s, lane, BATTLE_SKILL_ENHANCE,
                                    (c->act_id[k] & BATTLE_SIM_ACT_REFUSABLE) != 0, c, k,
                                    BATTLE_SIM_PV_ALL, 0);
}

/* A turn start's tick of a row's `n` living units in a plan where no card does anything at
 * its turn start (no BATTLE_SIM_FX_TICK): delay and cooldowns only, so nothing joins the row
 * meanwhile and `n` is read once (the stores below could alias it for the compiler). No
 * branches: whether a unit still waits is what a predictor cannot learn. A unit that waits
 * has no cooldowns (it enters with none, and only its own actions, at delay 0, start one; no
 * delay grows), and battle_sim_cd_tick of none is none, so both tick unconditionally. */
CLC_FN void battle_sim_tick_plain(CLC_PRIVATE struct battle_unit *row, clc_u32 n)
{
    for (clc_u32 i = 0; i < n; i++) {
        CLC_PRIVATE struct battle_unit *u = &row[i];
        clc_u32 d = u->delay;
        if (!battle_sim_alive(u))
            continue;
        u->delay = (clc_u8)(d - (d != 0u));
        u->cd = battle_sim_cd_tick(u->cd);
    }
}

/* Turn start for unit `lane` of a row of the active side: Enhance (`mods`: the plan has it), then
 * Barrier adds its Protect, Absorb is renewed to X and Bravery checks the enemy opposite; then a
 * delay above 0 goes down by 1 (reaching 0 sets off Valor and its activation Summon, a structure's
 * starting the summoned card one turn nearer); at delay 0 its cooldowns tick instead. */
CLC_FN void battle_sim_tick(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE struct battle_game *g, int s, clc_u32 lane, int assault,
                            int mods)
{
    CLC_PRIVATE struct battle_unit *u =
        assault ? &g->sides[s].assaults[lane] : &g->sides[s].structures[lane];
    CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
    if (!battle_sim_alive(u))
        return;
    /* A card with nothing to do at its turn start (most of them): the delay's or the
     * cooldowns' tick alone, without a branch on which (a predictor's guess, as in
     * battle_sim_tick_plain), instead of a test per turn-start skill. */
    if (!(c->trig & (BATTLE_SIM_CARD_TICKS | BATTLE_SIM_CARD_ENHANCES))) {
        clc_u32 d = u->delay, w = d != 0u;
        clc_u32 cd = u->cd;
        u->delay = (clc_u8)(d - w);
        u->cd = w ? cd : battle_sim_cd_tick(cd);
        return;
    }
    if (mods && (c->trig & BATTLE_SIM_CARD_ENHANCES) && !u->delay &&
        !(u->flags & BATTLE_SIM_JAMMED)) {
        battle_sim_enhance(p, g, s, assault ? (clc_i32)lane : -1, c);
        c = &p->cards[u->card]; /* it may have enhanced itself */
    }
    if (c->barrier)
        u->protect = battle_sim_sat((clc_i32)u->protect + c->barrier);
    if (c->absorb)
        u->absorb = c->absorb;
    if (assault && c->bravery)
        battle_sim_bravery(p, g, s, lane, c->bravery);
    if (u->delay) {
        u->delay--;
        if (!u->delay && assault && c->valor)
            battle_sim_brave(p, g, s, lane, c->valor);
        if (!u->delay && c->summon_act)
            battle_sim_summon(p, g, s, c->summon_act - 1u, battle_sim_structure_row(c->type));
    } else if (u->cd) {
        u->cd = battle_sim_cd_tick(u->cd);
    }
}

/* ---------------------------------------------------------------------------------------
 * Scoring
 * ------------------------------------------------------------------------------------- */

/**
 * The units of side `s` destroyed so far, those Summon brought included only with `all`
 * (the peer's total_cards_destroyed and total_nonsummon_cards_destroyed): those that
 * entered play (the starting rows, the cards played, the summoned) less those standing.
 * Only a finished game of a scoring that counts units needs it, so that no turn pays for
 * counting deaths. A dead unit of a mid-game state's rows counts as destroyed.
 */
CLC_NOINLINE clc_u32 battle_sim_lost(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE const struct battle_game *g, int s, int all)
{
    CLC_PRIVATE const struct battle_side *sd = &g->sides[s];
    clc_u32 in = (clc_u32)p->sides[s].n_structures + p->sides[s].pool_forts +
                 p->sides[s].n_assaults + sd->head - g->refused[s] + (all ? g->summoned[s] : 0u);
    clc_u32 standing = 0;
    for (clc_u32 i = 0; i < sd->n_structures; i++)
        standing += battle_sim_alive(&sd->structures[i]) &&
                    (all || !(sd->structures[i].flags & BATTLE_SIM_SUMMONED));
    for (clc_u32 i = 0; i < sd->n_assaults; i++)
        standing += battle_sim_alive(&sd->assaults[i]) &&
                    (all || !(sd->assaults[i].flags & BATTLE_SIM_SUMMONED));
    return in > standing ? in - standing : 0u;
}

/* Brawl points of side `s` for a game it won: 55, plus the enemy units destroyed, plus its
 * cards not played yet, less one a started 8 turns (the peer's evaluate_brawl_score). */
CLC_FN clc_u32 battle_sim_brawl(CLC_GLOBAL const struct battle_plan_data *p,
                                CLC_PRIVATE const struct battle_game *g, int s)
{
    clc_u32 left = (clc_u32)g->sides[s].n_seq - g->sides[s].head;
    return 55u + battle_sim_lost(p, g, 1 - s, 1) + left - ((clc_u32)g->turn + 7u) / 8u;
}

/* Guild-war points of a game won on turn `turn`: 208, less 4 a full round, at least 0. */
CLC_FN clc_u32 battle_sim_war(clc_u32 turn)
{
    clc_u32 w = turn / 2u * 4u;
    return w < 208u ? 208u - w : 0u;
}

/**
 * The points of a finished game with outcome `outcome` under the plan's scoring, from the
 * attacker's view, as the peer's evaluate_sim_result counts them (docs/rules/battle.md,
 * "Scoring"; where the peer's unsigned sums wrap, they stop at 0 here). The defending
 * forms score the attacker as the defender of a brawl or war: the event's best score less
 * what the enemy earned, and the best less the worst on a win or stall.
 */
CLC_FN clc_u32 battle_sim_points(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE const struct battle_game *g, clc_u32 outcome)
{
    const int win = outcome == BATTLE_SIM_WIN, loss = outcome == BATTLE_SIM_LOSS;
    switch (p->scoring) {
    case BATTLE_SCORING_DEFENSE:
        return loss ? 0u : 100u;
    case BATTLE_SCORING_RAID: {
        /* 15, plus the deck cards of the boss's side destroyed, less a tenth of the boss's
         * health a tenth it keeps (rounded down); a win scores 100. */
        clc_i32 max = p->cards[g->sides[1].commander].health;
        clc_i32 hp = g->sides[1].commander_hp;
        clc_u32 kept = max > 0 && hp > 0 ? (clc_u32)(10 * (hp < max ? hp : max) / max) : 0u;
        return win ? 100u : 15u + battle_sim_lost(p, g, 1, 0) - kept;
    }
    case BATTLE_SCORING_BRAWL:
        return win ? battle_sim_brawl(p, g, 0) : 5u;
    case BATTLE_SCORING_BRAWL_DEFENSE: {
        clc_u32 enemy = loss ? battle_sim_brawl(p, g, 1) : 5u;
        return enemy < 100u ? 100u - enemy : 0u;
    }
    case BATTLE_SCORING_WAR:
        return win ? battle_sim_war(g->turn) : 20u;
    case BATTLE_SCORING_WAR_DEFENSE:
        return 208u - (loss ? battle_sim_war(g->turn) : 20u);
    case BATTLE_SCORING_CAMPAIGN: {
        /* 100, less 10 a deck card of the attacker's destroyed; its dominion's loss does
         * not count. A dominion destroyed in the last turn still holds its slot, and the
         * peer counts it as standing then too. */
        clc_u32 lost, dom = p->sides[0].dominion;
        if (!win)
            return 0u;
        lost = battle_sim_lost(p, g, 0, 0);
        if (dom) {
            clc_u32 standing = 0;
            for (clc_u32 i = 0; i < g->sides[0].n_structures; i++)
                standing |= g->sides[0].structures[i].card == dom - 1u;
            lost -= lost > 0 && !standing;
        }
        return lost < 10u ? 100u - 10u * lost : 0u;
    }
    default:
        return win ? 100u : 0u;
    }
}

/* Ends the game with `outcome` (`bounded`: a stall at the work bound): its result. */
CLC_NOINLINE void battle_sim_end(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE const struct battle_game *g,
                                 CLC_PRIVATE struct battle_game_result *out, clc_u32 outcome,
                                 int bounded)
{
    clc_u32 pts = battle_sim_points(p, g, outcome);
    out->outcome = (clc_u8)outcome;
    out->turn = g->turn;
    out->bounded = (clc_u8)bounded;
    out->pad = 0;
    out->points = (clc_u16)(pts < BATTLE_SIM_POINTS_MAX ? pts : BATTLE_SIM_POINTS_MAX);
}

/** Plays turn g->turn (whichever side's it is) and advances to the next turn. Returns 0
 * while the game goes on; once it is over, 1 and *out holds the outcome. A flexible side
 * with a choice to make stops the turn before its card and returns 2: the caller sets
 * g->choice (battle_sim_turn_flex does) and calls again, and the turn goes on from there.
 * `pv`: p->passive's bits (BATTLE_SIM_PV_*), a constant in each of the host's four copies
 * (battle_sim_run_plain, _rare, _effects, _passive), so that a plan with the rarer skills or
 * the passive battleground effects calls its copies of the skills and inlines its attack
 * without asking the plan at every unit, and runs no step of the kind it lacks. */
/* One function on purpose: the turn reads as the rules do. */
/* NOLINTNEXTLINE(readability-function-size) */
CLC_INLINE int battle_sim_turn_pv(CLC_GLOBAL const struct battle_plan_data *p,
                                  CLC_PRIVATE struct battle_game *g,
                                  CLC_PRIVATE struct battle_game_result *out, const int pv)
{
    int s = battle_sim_active(p->mode, g->turn);
    CLC_PRIVATE struct battle_side *me = &g->sides[s];
    CLC_PRIVATE struct battle_side *en = &g->sides[1 - s];
    clc_u32 n;
    int stasis;

    /* 1. Start: the commander's cooldowns tick; units in play before this turn tick
     * their delay down (or their cooldowns). Structures summoned meanwhile tick too (the
     * row is read as it grows, as in tuo); assaults summoned do not. */
    if (!g->resume) {
        /* Read once: the rows' byte stores may alias the plan for the compiler. */
        int mods = (BATTLE_SIM_RARES(p) & BATTLE_SIM_RARE_MOD) != 0;
        me->commander_cd = battle_sim_cd_tick(me->commander_cd);
        if (mods && (p->cards[me->commander].trig & BATTLE_SIM_CARD_ENHANCES))
            battle_sim_enhance(p, g, s, -1, &p->cards[me->commander]);
        n = me->n_assaults;
        if (!(BATTLE_SIM_FX(p) & BATTLE_SIM_FX_TICK)) {
            battle_sim_tick_plain(me->structures, me->n_structures);
            battle_sim_tick_plain(me->assaults, n);
        } else {
            for (clc_u32 i = 0; i < me->n_structures; i++)
                battle_sim_tick(p, g, s, i, 0, mods);
            for (clc_u32 i = 0; i < n; i++)
                battle_sim_tick(p, g, s, i, 1, mods);
        }
        if (g->pending)
            battle_sim_triggers(p, g);
        battle_sim_action_end(p, g, 1);
        /* A flexible side's choice (never in a look-ahead game: both sides play random). */
        if (p->sides[s].play == BATTLE_PLAY_FLEX && !g->ahead) {
            if (battle_sim_flex_due(p, g, s)) {
                g->resume = 1;
                return 2;
            }
            g->choice = 0;
        }
    } else {
        g->resume = 0;
    }

    /* 2. Play one card; then Inhibit, Sabotage and Disease. */
    battle_sim_play_card(p, g, s);
    battle_sim_action_end(p, g, 1);
    if ((BATTLE_SIM_FX(p) & BATTLE_SIM_FX_INHIBIT) ||
        (BATTLE_SIM_RARES(p) & BATTLE_SIM_RARE_SABOTAGE))
        battle_sim_debuffs(p, g, s);
    if ((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_has(p, BATTLE_SIM_PV(HEROISM)))
        battle_sim_heroism(p, g, s);

    /* 2b. Battleground effects: the commander casts them, as tuo's bg_skills; what they
     * kill sets off less (battle_game.bge). */
    if (p->sides[s].effects) {
        clc_u32 none = 0; /* effects have no cooldowns */
        g->bge = 1;
        battle_sim_skills_as(p, g, s, -1, &p->cards[p->sides[s].effects - 1u], &none, pv);
        battle_sim_action_end(p, g, 1);
        g->bge = 0;
    }

    /* 3. Commander: its skills, then Flurry's extra rounds. */
    {
        CLC_GLOBAL const struct battle_card_data *c = &p->cards[me->commander];
        clc_u32 due = 1;
        for (clc_u32 a = 0; a < due; a++) {
            if (c->act_turn)
                battle_sim_skills_as(p, g, s, -1, c, &me->commander_cd, pv);
            battle_sim_action_end(p, g, 1);
            due = battle_sim_flurry(p, g, c, &me->commander_cd, due);
        }
    }

    /* 4. Structures: skills only; structures never attack. Rows are read as they grow. */
    for (clc_u32 i = 0; i < me->n_structures; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->structures[i];
        CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
        clc_u32 due = 1;
        if (!battle_sim_alive(u) || u->delay || (u->flags & BATTLE_SIM_JAMMED) || !c->act_turn)
            continue;
        for (clc_u32 a = 0; a < due && battle_sim_alive(u); a++) {
            battle_sim_skills_as(p, g, s, -1, c, &u->cd, pv);
            battle_sim_action_end(p, g, 1);
            due = battle_sim_flurry(p, g, c, &u->cd, due);
        }
    }

    /* 5. Assaults: skills in card order, then the attack; Flurry adds whole actions. A
     * unit counts as having attacked (for Rally) once its turn in the row is over,
     * whether it attacked or not (with 0 power, say), as in the game: a later Rally is
     * never spent on it. Bloodlust's damage starts at 0 each phase. */
    stasis = (BATTLE_SIM_RARES(p) & BATTLE_SIM_RARE_STASIS) != 0;
    g->bloodlust = 0;
    for (clc_u32 i = 0; i < me->n_assaults; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->assaults[i];
        CLC_GLOBAL const struct battle_card_data *c = &p->cards[u->card];
        clc_u32 due = 1;
        if (!battle_sim_alive(u) || u->delay || (u->flags & BATTLE_SIM_JAMMED)) {
            u->flags = (clc_u8)(u->flags | BATTLE_SIM_ATTACKED);
            continue;
        }
        /* Stasis protects until the unit acts. */
        if (stasis && BATTLE_SIM_R(u)->stasis) {
            u->protect = (clc_i16)(u->protect > BATTLE_SIM_R(u)->stasis
                                       ? u->protect - BATTLE_SIM_R(u)->stasis
                                       : 0);
            BATTLE_SIM_R(u)->stasis = 0;
        }
        u->flags = (clc_u8)(u->flags | BATTLE_SIM_ACTING);
        g->lusted = 0;
        for (clc_u32 a = 0; a < due && battle_sim_alive(u); a++) {
            g->act = (clc_u8)a;
            if (c->act_turn)
                battle_sim_skills_as(p, g, s, (clc_i32)i, c, &u->cd, pv);
            if (battle_sim_alive(u) && !(u->flags & BATTLE_SIM_JAMMED))
                battle_sim_attack(p, g, s, i, pv);
            else if (BATTLE_SIM_UR && BATTLE_SIM_R(u)->corrode) /* it could not attack: its
                                                                   corrosion ends */
                battle_sim_corrosion(u, 0);
            if (g->over) {
                /* A game past its bound is a stall whatever happened after. */
                int bounded = g->work >= p->work_limit;
                battle_sim_end(p, g, out,
                               bounded        ? BATTLE_SIM_STALL
                               : g->over == 2 ? BATTLE_SIM_WIN
                                              : BATTLE_SIM_LOSS,
                               bounded);
                return 1;
            }
            battle_sim_action_end(p, g, 1);
            if (!battle_sim_alive(u) || (u->flags & BATTLE_SIM_JAMMED))
                break;
            due = battle_sim_flurry(p, g, c, &u->cd, due);
        }
        g->act = 0;
        u->flags = (clc_u8)((u->flags & ~BATTLE_SIM_ACTING) | BATTLE_SIM_ATTACKED);
    }

    /* 6. End, in tuo's order (its turn_end_phase): first the enemy assaults' modifiers of
     * this turn end (Payback's count too; Stasis outlasts Protect), and Enhance's and
     * Evolve's changes on them; the enemy structures lose Barrier's Protect and their Evade
     * count. Then each own assault is refreshed, takes its poison, and loses its modifiers
     * of its turn (Inhibit's count, Tribute's and Overload's states too). Only then are the
     * deaths' skills cast: a Strike all on the death of a poisoned unit finds the enemy
     * without its Protect and Enfeeble of this turn (bench/peer_fuzz.mjs seed 1211, #936:
     * Falconer's Barrier 30 saved it before). The rarer skills' fields (Enrage, Sabotage,
     * Tribute, Overload, Entrap, Payback) are cleared in the copies with them only (`pv`, a
     * constant): a plan without the rarer skills (BATTLE_SIM_PV_RARE) never sets them. No
     * unit joins a row in these passes (poison's deaths wait for the triggers): each count is
     * read once (the byte stores could alias it for the compiler). */
    n = en->n_assaults;
    for (clc_u32 i = 0; i < n; i++) {
        CLC_PRIVATE struct battle_unit *u = &en->assaults[i];
        u->enfeeble = 0;
        u->protect = BATTLE_SIM_UR ? BATTLE_SIM_R(u)->stasis : 0;
        u->evaded = 0;
        if (pv & BATTLE_SIM_PV_RARE) {
            BATTLE_SIM_R(u)->entrapped = 0;
            BATTLE_SIM_R(u)->paybacked = 0;
        }
    }
    /* Enhance's and Evolve's changes end with the enemy turn after they were made. */
    if (BATTLE_SIM_RARES(p) & BATTLE_SIM_RARE_MOD)
        battle_sim_unmod(p, en);
    /* Only Barrier protects a structure and only Evade counts on one. */
    n = en->n_structures;
    if (BATTLE_SIM_FX(p) & (BATTLE_SIM_FX_EVADE | BATTLE_SIM_FX_BARRIER))
        for (clc_u32 i = 0; i < n; i++) {
            en->structures[i].protect = 0;
            en->structures[i].evaded = 0;
        }
    n = me->n_assaults;
    for (clc_u32 i = 0; i < n; i++) {
        CLC_PRIVATE struct battle_unit *u = &me->assaults[i];
        if (battle_sim_alive(u)) {
            if (BATTLE_SIM_FX(p) & BATTLE_SIM_FX_REFRESH) {
                /* Crackdown (the side's passive effect): Subdue X refreshes (X + 1) / 2 too. */
                clc_i32 r = p->cards[u->card].refresh;
                if ((pv & BATTLE_SIM_PV_EFFECTS) && battle_sim_has(p, BATTLE_SIM_PV(CRACKDOWN)) &&
                    battle_sim_passive(p, s, BATTLE_PASSIVE_CRACKDOWN))
                    r += (p->cards[u->card].subdue + 1) / 2;
                if (r)
                    battle_sim_heal_hurt(u, r);
            }
            if (u->poison) {
                battle_sim_hurt(p, g, s, u, u->poison);
                u->poison = (clc_i16)(u->poison >> 1);
            }
        }
        u->rally = 0;
        u->weaken = 0;
        u->inhibited = 0;
        u->flags =
            (clc_u8)(u->flags & ~(BATTLE_SIM_JAMMED | BATTLE_SIM_ATTACKED | BATTLE_SIM_SUNDERED));
        if (pv & BATTLE_SIM_PV_RARE) {
            BATTLE_SIM_R(u)->enraged = 0;
            BATTLE_SIM_R(u)->sabotaged = 0;
            BATTLE_SIM_R(u)->tributed = 0;
            u->state = (clc_u8)(u->state & ~BATTLE_SIM_OVERLOADED);
        }
    }
    if (g->pending)
        battle_sim_triggers(p, g);
    battle_sim_action_end(p, g, 0);
    if (me->died)
        battle_sim_compress(me);
    if (en->died)
        battle_sim_compress(en);

    /* The turn limit, or the end of the turn that reached the work bound (g->last 0). */
    if (g->turn >= g->last) {
        battle_sim_end(p, g, out, BATTLE_SIM_STALL, g->work >= p->work_limit);
        return 1;
    }
    g->turn++;
    return 0;
}

/* battle_sim_turn_pv in the copy the plan needs (the turns of flexible play, the tests, a
 * kernel): the plain one, or the one with every rule's steps (the steps a plan lacks read
 * zeros there). */
CLC_FN int battle_sim_turn(CLC_GLOBAL const struct battle_plan_data *p,
                           CLC_PRIVATE struct battle_game *g,
                           CLC_PRIVATE struct battle_game_result *out)
{
    return battle_sim_turn_pv(p, g, out, BATTLE_SIM_PASSIVE(p) ? (int)BATTLE_SIM_PV_ANY : 0);
}

#ifndef __OPENCL_VERSION__
/* A whole game's turns, one copy of the turn for each value of p->passive (host only: a
 * kernel keeps one turn, whose calls ask the plan, so that its build stays as it was). The
 * copy with every rule's steps (_passive) serves plans with both kinds. */
CLC_NOCLONE void battle_sim_run_plain(CLC_GLOBAL const struct battle_plan_data *p,
                                      CLC_PRIVATE struct battle_game *g,
                                      CLC_PRIVATE struct battle_game_result *out)
{
    while (battle_sim_turn_pv(p, g, out, 0) != 1)
        ;
}

CLC_NOCLONE void battle_sim_run_rare(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g,
                                     CLC_PRIVATE struct battle_game_result *out)
{
    while (battle_sim_turn_pv(p, g, out, BATTLE_SIM_PV_RARE) != 1)
        ;
}

CLC_NOCLONE void battle_sim_run_effects(CLC_GLOBAL const struct battle_plan_data *p,
                                        CLC_PRIVATE struct battle_game *g,
                                        CLC_PRIVATE struct battle_game_result *out)
{
    while (battle_sim_turn_pv(p, g, out, BATTLE_SIM_PV_EFFECTS) != 1)
        ;
}

CLC_NOCLONE void battle_sim_run_passive(CLC_GLOBAL const struct battle_plan_data *p,
                                        CLC_PRIVATE struct battle_game *g,
                                        CLC_PRIVATE struct battle_game_result *out)
{
    while (battle_sim_turn_pv(p, g, out, BATTLE_SIM_PV_ALL) != 1)
        ;
}
#endif

/* Copies n bytes; byte access may alias any object, in C and in OpenCL C alike. */
CLC_FN void battle_sim_copy_bytes(CLC_PRIVATE clc_u8 *to, CLC_PRIVATE const clc_u8 *from, clc_u32 n)
{
    for (clc_u32 i = 0; i < n; i++)
        to[i] = from[i];
}

/* *r = *g with each row's units in play only: a row's slots past its count are never read
 * before a play or a summon writes them whole (battle_sim_fresh), as a fresh game's are
 * never written at all. Flexible play copies the game for each of its look-ahead games,
 * where the four rows of 60 units are 12.5 of the game's 12.7 KB. */
CLC_FN void battle_sim_copy(CLC_PRIVATE struct battle_game *r,
                            CLC_PRIVATE const struct battle_game *g)
{
    battle_sim_copy_bytes((CLC_PRIVATE clc_u8 *)r, (CLC_PRIVATE const clc_u8 *)g,
                          (clc_u32) __builtin_offsetof(struct battle_game, sides));
    for (int s = 0; s < 2; s++) {
        CLC_PRIVATE struct battle_side *to = &r->sides[s];
        CLC_PRIVATE const struct battle_side *from = &g->sides[s];
        battle_sim_copy_bytes((CLC_PRIVATE clc_u8 *)to, (CLC_PRIVATE const clc_u8 *)from,
                              (clc_u32) __builtin_offsetof(struct battle_side, structures));
        for (clc_u32 i = 0; i < from->n_structures; i++)
            to->structures[i] = from->structures[i];
        for (clc_u32 i = 0; i < from->n_assaults; i++)
            to->assaults[i] = from->assaults[i];
    }
}

/* Starts look-ahead game *r from *g stopped before side s's card: candidate j first, the
 * rest of side s's entries and all the other side's entries shuffled (from *g's stream). */
CLC_FN void battle_sim_flex_start(CLC_PRIVATE const struct battle_game *g,
                                  CLC_PRIVATE struct battle_game *r, int s, clc_u32 j)
{
    CLC_PRIVATE struct battle_side *me = &r->sides[s];
    CLC_PRIVATE struct battle_side *en = &r->sides[1 - s];
    clc_u32 head = g->sides[s].head;
    clc_u8 t;
    battle_sim_copy(r, g);
    t = me->seq[head];
    me->seq[head] = me->seq[head + j];
    me->seq[head + j] = t;
    for (clc_u32 i = me->n_seq; i > head + 2; i--) {
        clc_u32 x = head + 1 + rng_below(&r->rng, i - head - 1);
        t = me->seq[i - 1];
        me->seq[i - 1] = me->seq[x];
        me->seq[x] = t;
    }
    for (clc_u32 i = en->n_seq; i > (clc_u32)en->head + 1; i--) {
        clc_u32 x = en->head + rng_below(&r->rng, i - en->head);
        t = en->seq[i - 1];
        en->seq[i - 1] = en->seq[x];
        en->seq[x] = t;
    }
    r->ahead = 1;
    r->choice = 0;
}

/**
 * battle_sim_turn for a game where a side plays flexible (tuo's Deck::next for
 * DeckStrategy::flexible); *r is scratch space for the look-ahead games. When the turn
 * stops before a flexible side's card, each card of its hand plays BATTLE_SIM_FLEX_GAMES
 * look-ahead games from there (battle_sim_flex_start), both sides then playing their front
 * entry to the end. The attacker takes the card with the most wins, the defender the one
 * with the fewest, the first in hand on ties; copies of one card share one count. The
 * look-ahead games draw from the game's own stream one after another, so the game stays
 * reproducible on every backend. One loop plays the game's turn and every look-ahead game,
 * so that the turn's code is here once.
 */
CLC_NOINLINE int battle_sim_turn_flex(CLC_GLOBAL const struct battle_plan_data *p,
                                      CLC_PRIVATE struct battle_game *g,
                                      CLC_PRIVATE struct battle_game *r,
                                      CLC_PRIVATE struct battle_game_result *out)
{
    CLC_PRIVATE struct battle_game *cur = g;
    clc_u32 wins[BATTLE_SIM_FLEX_HAND];
    clc_u32 j = 0, k = 0, it = 0;
    int s = battle_sim_active(p->mode, g->turn);
    for (;;) {
        struct battle_game_result res;
        int rc = battle_sim_turn(p, cur, cur == g ? out : &res);
        if (cur == g) {
            clc_u32 left = (clc_u32)g->sides[s].n_seq - g->sides[s].head;
            if (rc != 2)
                return rc;
            k = left < p->sides[s].window ? left : p->sides[s].window;
            j = 0;
            it = 0;
            wins[0] = 0;
            battle_sim_flex_start(g, r, s, 0);
            cur = r;
            continue;
        }
        if (!rc)
            continue;
        wins[j] += res.outcome == BATTLE_SIM_WIN;
        g->rng = r->rng;
        if (++it < BATTLE_SIM_FLEX_GAMES) {
            battle_sim_flex_start(g, r, s, j);
            continue;
        }
        /* The next candidate whose card has not been counted yet. */
        for (it = 0, j++; j < k; j++) {
            CLC_PRIVATE const clc_u16 *sc = g->sides[s].card;
            CLC_PRIVATE const clc_u8 *seq = g->sides[s].seq + g->sides[s].head;
            clc_u32 m = 0;
            while (m < j && sc[seq[m]] != sc[seq[j]])
                m++;
            if (m == j)
                break;
            wins[j] = wins[m];
        }
        if (j < k) {
            wins[j] = 0;
            battle_sim_flex_start(g, r, s, j);
            continue;
        }
        g->choice = 0;
        for (clc_u32 i = 1; i < k; i++)
            if (s == 0 ? wins[i] > wins[g->choice] : wins[i] < wins[g->choice])
                g->choice = (clc_u8)i;
        cur = g;
    }
}

/**
 * Starts game `game` in *g as it is before turn 1: battle_sim_init, then the on-play skills
 * of the fortresses (and of what they summon), the first mover's first, as tuo plays each
 * side's fortresses and resolves their skills before the first turn: a unit one summons
 * ticks its delay on its side's first turn.
 */
CLC_FN void battle_sim_start(CLC_GLOBAL const struct battle_plan_data *p,
                             CLC_PRIVATE struct battle_game *g, clc_u64 seed, clc_u64 game)
{
    battle_sim_init(p, g, seed, game);
    if (g->pending) {
        battle_sim_triggers(p, g);
        battle_sim_action_end(p, g, 1);
    }
}

/**
 * One turn of game *g (with the look-ahead games of a flexible side's choice, played in
 * *look, when the plan has flexible play): 1 when the game is over, its outcome in *out;
 * 0 otherwise. A kernel that plays several games a work-item steps each of its games turn
 * by turn (kernels/battle.cl, "Several games a work-item").
 */
CLC_FN int battle_sim_step(CLC_GLOBAL const struct battle_plan_data *p,
                           CLC_PRIVATE struct battle_game *g, CLC_PRIVATE struct battle_game *look,
                           CLC_PRIVATE struct battle_game_result *out)
{
    /* Only 1 says the game is over (2, a stop before a flexible side's card, never comes
     * from battle_sim_turn here: a game without flexible play). */
    if (BATTLE_SIM_FX(p) & BATTLE_SIM_FX_FLEX)
        return battle_sim_turn_flex(p, g, look, out);
    return battle_sim_turn(p, g, out);
}

#ifndef __OPENCL_VERSION__
/**
 * Plays game `game` of the job seeded with `seed` from start to end and writes its outcome
 * to *out: the CPU backend's entry point (a kernel steps its games with battle_sim_step).
 * Its state lives on the caller's stack (a game with flexible play needs a second one).
 */
CLC_FN void battle_sim_play(CLC_GLOBAL const struct battle_plan_data *p, clc_u64 seed, clc_u64 game,
                            CLC_PRIVATE struct battle_game_result *out)
{
    struct battle_game g;
    battle_sim_start(p, &g, seed, game);
    if (BATTLE_SIM_FX(p) & BATTLE_SIM_FX_FLEX) {
        struct battle_game r;
        while (battle_sim_step(p, &g, &r, out) != 1)
            ;
        return;
    }
    if (BATTLE_SIM_PASSIVE(p) == BATTLE_SIM_PV_RARE)
        battle_sim_run_rare(p, &g, out);
    else if (BATTLE_SIM_PASSIVE(p) == BATTLE_SIM_PV_EFFECTS)
        battle_sim_run_effects(p, &g, out);
    else if (BATTLE_SIM_PASSIVE(p))
        battle_sim_run_passive(p, &g, out);
    else
        battle_sim_run_plain(p, &g, out);
}
#endif

#endif
