/* SPDX-License-Identifier: MIT */
/* Part of the rules of one battle game (battle_sim.h, which includes the parts in order:
 * state, play, target, skills, turn). The unit helpers every rule uses (health, attack,
 * cooldowns, damage), and a game's setup, shuffle and card play. */
#ifndef BATTLE_SIM_PLAY_H
#define BATTLE_SIM_PLAY_H

#include "battle_sim_state.h"

/* ---------------------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------------------- */

CLC_FN clc_i16 battle_sim_sat(clc_i32 v)
{
    return (clc_i16)(v > BATTLE_SIM_STAT_CAP ? BATTLE_SIM_STAT_CAP : v);
}

/* Side s's value of passive battleground effect k (enum battle_passive); 0 when it is off. */
CLC_FN clc_i32 battle_sim_passive(CLC_GLOBAL const struct battle_plan_data *p, int s, clc_u32 k)
{
    /* passive_on says whether either side has it: most plans that read it have none. */
    return (BATTLE_SIM_EFFECTS(p) & (1u << k)) ? (clc_i32)p->sides[s].passive[k] : 0;
}

/* Whether a side has one of the passive battleground effects `bits` (BATTLE_SIM_PV bits):
 * tested inline before an effect's helper is called, so that a plan pays for the effects
 * it has, not for all of them (bench/history/2026-11-26.md: 6.5% of a Divert plan's
 * instructions went to helpers that returned at once). */
#define BATTLE_SIM_PV(ID) (1u << BATTLE_PASSIVE_##ID)
CLC_FN int battle_sim_has(CLC_GLOBAL const struct battle_plan_data *p, clc_u32 bits)
{
    return (BATTLE_SIM_EFFECTS(p) & bits) != 0;
}

/* The side whose turn `turn` is: side 0 takes the odd turns in fight, side 1 in surge. */
CLC_FN int battle_sim_active(clc_u32 mode, clc_u32 turn)
{
    return (int)(((turn - 1u) & 1u) ^ (mode & 1u));
}

CLC_FN int battle_sim_alive(CLC_PRIVATE const struct battle_unit *u)
{
    return (u->flags & BATTLE_SIM_ALIVE) != 0;
}

/* Attack power: the card's attack + permanent gains + Rally - Weaken, at least 0. */
CLC_FN clc_i32 battle_sim_power(CLC_PRIVATE const struct battle_unit *u)
{
    clc_i32 v = (clc_i32)u->attack + u->rally - u->weaken;
    return v > 0 ? v : 0;
}

/* The index of the lowest set bit of m (not 0). */
CLC_FN clc_u32 battle_sim_low_bit(clc_u32 m)
{
#ifdef __OPENCL_VERSION__
    return 31u - clz(m & (0u - m));
#else
    return (clc_u32)__builtin_ctz(m);
#endif
}

/* Cooldown of action slot k, set, and one own turn passing for all slots. */
CLC_FN clc_u32 battle_sim_cd(clc_u32 cd, clc_u32 k)
{
    return (cd >> (4u * k)) & 15u;
}

CLC_FN clc_u32 battle_sim_cd_set(clc_u32 cd, clc_u32 k, clc_u32 v)
{
    return (cd & ~(15u << (4u * k))) | ((v > 15u ? 15u : v) << (4u * k));
}

CLC_FN clc_u32 battle_sim_cd_tick(clc_u32 cd)
{
    /* A 1 in the low bit of every nonzero 4-bit slot: subtracting it borrows from no
     * neighbour. A slot's low three bits plus 7 carry into its high bit (and never out of
     * the slot) when any is set; or'd with the high bit itself, that bit says nonzero. */
    clc_u32 m = ((((cd & 0x77777777u) + 0x77777777u) | cd) & 0x88888888u) >> 3;
    return cd - m;
}

/* Side `s` has `n` more flags pending (fewer, negative): the game's count, which says
 * whether there is anything to resolve, and the side's, which says where to look, move
 * together, here only. */
CLC_FN void battle_sim_pend(CLC_PRIVATE struct battle_game *g, int s, clc_i32 n)
{
    g->pending = (clc_u16)(g->pending + n);
    g->sides[s].pending = (clc_u8)(g->sides[s].pending + n);
}

/* Takes `dmg` (>= 0) health from a unit of side `s`; at 0 it dies but keeps its slot until
 * the end of the turn, and its on-death skills wait for battle_sim_triggers. */
CLC_FN void battle_sim_hurt(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE struct battle_game *g, int s,
                            CLC_PRIVATE struct battle_unit *u, clc_i32 dmg)
{
    clc_i32 hp = (clc_i32)u->hp - dmg;
    if (dmg > 0 && (BATTLE_SIM_FX(p) & BATTLE_SIM_FX_BARRIER) && p->cards[u->card].barrier) {
        u->hits = (clc_u8)(u->hits < 255 ? u->hits + 1 : 255);
        g->hit = 1;
    }
    if (hp <= 0) {
        u->hp = 0;
        u->flags = (clc_u8)(u->flags & ~BATTLE_SIM_ALIVE);
        g->sides[s].died = 1;
        if (BATTLE_SIM_DEATHS(p) || (p->cards[u->card].trig & (1u << BATTLE_SIM_TRIG_DEATH))) {
            u->flags = (clc_u8)(u->flags | BATTLE_SIM_DYING);
            battle_sim_pend(g, s, 1);
        }
    } else {
        u->hp = (clc_i16)hp;
    }
}

/* A unit of card `card` as it enters play: full health, the card's delay, nothing else. */
CLC_FN void battle_sim_fresh(CLC_GLOBAL const struct battle_plan_data *p,
                             CLC_PRIVATE struct battle_unit *u, clc_u32 card)
{
    u->card = (clc_u16)card;
    u->delay = p->cards[card].delay;
    u->flags = BATTLE_SIM_ALIVE;
    u->evaded = 0;
    u->hp = p->cards[card].health;
    u->attack = p->cards[card].attack;
    u->rally = 0;
    u->weaken = 0;
    u->enfeeble = 0;
    u->protect = 0;
    u->poison = 0;
    u->max_hp = p->cards[card].health;
    u->cd = 0;
    u->hits = 0;
    u->inhibited = 0;
    u->absorb = p->cards[card].absorb;
    u->state = 0;
    if (BATTLE_SIM_UR) {
        CLC_PRIVATE struct battle_unit_rare *r = BATTLE_SIM_R(u);
        r->marked = 0;
        r->enraged = 0;
        r->entrapped = 0;
        r->corrode = 0;
        r->corroded = 0;
        r->sabotaged = 0;
        r->diseased = 0;
        r->tributed = 0;
        r->paybacked = 0;
        r->owed_att = 0;
        r->owed_hp = 0;
        r->stasis = 0;
        r->subdued = 0;
    }
}

/* Max health: the card's plus permanent gains. */
CLC_FN clc_i32 battle_sim_max_hp(CLC_PRIVATE const struct battle_unit *u)
{
    return u->max_hp;
}

/* Disease: a health gain of X first pays off what the unit is diseased by (tuo's
 * remove_disease); what is left of X. */
CLC_FN clc_i32 battle_sim_cure(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    CLC_PRIVATE struct battle_unit_rare *r = BATTLE_SIM_R(u);
    clc_i32 d = r->diseased < x ? r->diseased : x;
    r->diseased = (clc_i16)(r->diseased - d);
    return x - d;
}

CLC_FN void battle_sim_heal(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    if (BATTLE_SIM_UR && BATTLE_SIM_R(u)->diseased)
        x = battle_sim_cure(u, x);
    clc_i32 max = battle_sim_max_hp(u);
    clc_i32 hp = (clc_i32)u->hp + x;
    u->hp = (clc_i16)(hp < max ? hp : max);
}

/* A heal that takes place only when the unit is hurt (tuo's can_be_healed checks: Refresh,
 * Drain, Brigade, Unity, Furiosity): at full health it does not pay off Disease either. */
CLC_FN void battle_sim_heal_hurt(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    if (u->hp < battle_sim_max_hp(u))
        battle_sim_heal(u, x);
}

/* battle_sim_gain_hp where Subdue took more than the unit's gains so far: the gain pays that
 * off first, and health stays within the max. Out of line, so that the many inlined gains
 * stay small. */
CLC_NOINLINE void battle_sim_gain_owed(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    CLC_PRIVATE struct battle_unit_rare *r = BATTLE_SIM_R(u);
    clc_i32 d = r->owed_hp < x ? r->owed_hp : x;
    clc_i32 hp = (clc_i32)u->hp + x;
    r->owed_hp = (clc_i16)(r->owed_hp - d);
    u->max_hp = battle_sim_sat((clc_i32)u->max_hp + x - d);
    u->hp = battle_sim_sat(hp < u->max_hp ? hp : u->max_hp);
}

/* A permanent gain of X max health, and as much health (Leech, Fortify, Allegiance,
 * Avenge, Scavenge: the game's ext_hp). */
CLC_FN void battle_sim_gain_hp(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    if (BATTLE_SIM_UR && BATTLE_SIM_R(u)->diseased)
        x = battle_sim_cure(u, x);
    if (BATTLE_SIM_UR && BATTLE_SIM_R(u)->owed_hp) {
        battle_sim_gain_owed(u, x);
        return;
    }
    u->max_hp = battle_sim_sat((clc_i32)u->max_hp + x);
    u->hp = battle_sim_sat((clc_i32)u->hp + x);
}

/* Subdue took `d` more of the unit's attack gains (battle_unit.subdued). */
CLC_FN void battle_sim_subdued(CLC_PRIVATE struct battle_unit *u, clc_i32 d)
{
    clc_i32 v = (clc_i32)BATTLE_SIM_R(u)->subdued + d;
    BATTLE_SIM_R(u)->subdued = (clc_u8)(v < 255 ? v : 255);
}

/* A permanent attack gain of X (Berserk, Valor, Bravery, Avenge, Allegiance, the passive
 * effects'): what Subdue still has owed is paid off first. */
CLC_FN void battle_sim_gain_attack(CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    if (BATTLE_SIM_UR && BATTLE_SIM_R(u)->owed_att) {
        CLC_PRIVATE struct battle_unit_rare *r = BATTLE_SIM_R(u);
        clc_i32 d = r->owed_att < x ? r->owed_att : x;
        r->owed_att = (clc_i16)(r->owed_att - d);
        battle_sim_subdued(u, d);
        x -= d;
    }
    u->attack = battle_sim_sat((clc_i32)u->attack + x);
}

/* Subdue X of the unit an assault `u` (card `c`) attacks, before its damage (tuo's
 * perform_subdue with the subdue_before_attack rule): the attacker is subdued by X more, for
 * good; its permanent gains of attack and of max health count X less, never below none
 * (its card's values stay): what is left of X is owed by later gains. Health above the
 * new max is lost. Out of line: rare, in the attack's copy with the rarer rules. */
CLC_NOINLINE void battle_sim_subdue(CLC_GLOBAL const struct battle_card_data *c,
                                    CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    CLC_PRIVATE struct battle_unit_rare *r = BATTLE_SIM_R(u);
    clc_i32 gain, t;
    if (!BATTLE_SIM_UR) /* Subdue is one of the rarer skills */
        return;
    /* The attack holds the gains less what corrosion took (battle_sim_corrosion). */
    gain = (clc_i32)u->attack + r->corroded - c->attack;
    t = gain > 0 ? (gain < x ? gain : x) : 0;
    u->attack = (clc_i16)(u->attack - t);
    battle_sim_subdued(u, t);
    r->owed_att = battle_sim_sat((clc_i32)r->owed_att + x - t);
    gain = (clc_i32)u->max_hp - c->health;
    t = gain > 0 ? (gain < x ? gain : x) : 0;
    u->max_hp = (clc_i16)(u->max_hp - t);
    r->owed_hp = battle_sim_sat((clc_i32)r->owed_hp + x - t);
    if (u->hp > u->max_hp)
        u->hp = u->max_hp;
}

/* Damage X + Enfeeble - Protect, at least 0, to a unit of side `s` (Strike's formula, also
 * Siege, Mortar, Swipe, Drain, Hunt and Counter); Absorb takes its part of X + Enfeeble
 * first, whatever Protect would leave (as tuo's remove_absorption). Returns the damage. */
CLC_INLINE clc_i32 battle_sim_strike(CLC_GLOBAL const struct battle_plan_data *p,
                                     CLC_PRIVATE struct battle_game *g, int s,
                                     CLC_PRIVATE struct battle_unit *u, clc_i32 x)
{
    clc_i32 d = x + u->enfeeble;
    if (u->absorb) { /* 0 on every unit of a game without Absorb */
        clc_i32 a = u->absorb < d ? u->absorb : d;
        u->absorb = (clc_i16)(u->absorb - a);
        d -= a;
    }
    d -= u->protect;
    if (d <= 0)
        return 0;
    battle_sim_hurt(p, g, s, u, d);
    return d;
}

/* ---------------------------------------------------------------------------------------
 * Setup and card play
 * ------------------------------------------------------------------------------------- */

/* A game's unit from a starting row's unit of the plan: the whole unit, or, where the
 * game's units have no rarer skills' state (BATTLE_SIM_UR 0: the plan's starting units have
 * none either, battle_rules_features), the fields before it, byte for byte (byte access
 * may alias any object, in C and in OpenCL C alike). */
CLC_FN void battle_sim_start_unit(CLC_PRIVATE struct battle_unit *u,
                                  CLC_GLOBAL const BATTLE_SIM_START_UNIT *from)
{
#if BATTLE_SIM_UR
    *u = *from;
#else
    CLC_PRIVATE clc_u8 *to = (CLC_PRIVATE clc_u8 *)u;
    CLC_GLOBAL const clc_u8 *b = (CLC_GLOBAL const clc_u8 *)from;
    for (clc_u32 i = 0; i < sizeof(*from) - sizeof(struct battle_unit_rare); i++)
        to[i] = b[i];
#endif
}

/**
 * Starts game `game` of the job seeded with `seed` in *g from the plan, without shuffling:
 * each side's entries and fortresses are in plan order (tests inject a shuffle here; a game
 * also needs its fortresses' on-play skills cast, as battle_sim_start does, before it is
 * played).
 */
CLC_FN void battle_sim_setup(CLC_GLOBAL const struct battle_plan_data *p,
                             CLC_PRIVATE struct battle_game *g, clc_u64 seed, clc_u64 game)
{
    rng_init(&g->rng, seed, game);
    g->turn = p->first_turn;
    g->over = 0;
    g->pending = 0;
    g->last = p->turn_limit;
    g->work = 0;
    g->act = 0;
    g->hit = 0;
    g->ahead = 0;
    g->choice = 0;
    g->resume = 0;
    g->summoned[0] = 0;
    g->summoned[1] = 0;
    g->refused[0] = 0;
    g->refused[1] = 0;
    g->bloodlust = 0;
    g->lusted = 0;
    g->bge = 0;
    for (int s = 0; s < 2; s++) {
        CLC_GLOBAL const struct battle_side_data *sd = &p->sides[s];
        CLC_PRIVATE struct battle_side *side = &g->sides[s];
        side->commander_hp = sd->commander_hp;
        side->commander = sd->commander;
        side->n_structures = sd->n_structures;
        side->n_assaults = sd->n_assaults;
        side->head = 0;
        side->n_seq = sd->n_seq;
        side->died = sd->init_died;
        side->last_played = BATTLE_SIM_NONE;
        side->pending = 0;
        side->commander_cd = 0;
        /* The whole arrays, whose lengths the compiler knows: a few vector stores, not a loop
         * per entry (entries past n_seq and n_groups are never read). */
        for (int e = 0; e < BATTLE_SIM_ENTRIES + 1; e++) {
            side->seq[e] = (clc_u8)e;
            side->used[e] = 0;
        }
        for (int e = 0; e < BATTLE_SIM_ENTRIES; e++)
            side->card[e] = sd->seq_card[e];
        /* A fresh game's fortresses come flagged FRESH when they have on-play skills:
         * battle_sim_start casts them before the first turn, the first mover's first. */
        for (int i = 0; i < sd->n_structures; i++) {
            battle_sim_start_unit(&side->structures[i], &sd->structures[i]);
            if (sd->structures[i].flags & BATTLE_SIM_FRESH)
                battle_sim_pend(g, s, 1);
        }
        for (int i = 0; i < sd->n_assaults; i++)
            battle_sim_start_unit(&side->assaults[i], &sd->assaults[i]);
    }
}

/* Side `s`'s fortresses [fort_first, n_structures) in a random order, Fisher-Yates as below:
 * a side with fewer than two draws nothing. Out of line: a few sides have two or more. */
CLC_NOINLINE void battle_sim_shuffle_forts(CLC_GLOBAL const struct battle_plan_data *p,
                                           CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_PRIVATE struct battle_side *side = &g->sides[s];
    int lo = p->sides[s].fort_first;
    for (int i = side->n_structures - 1; i > lo; i--) {
        int j = lo + (int)rng_below(&g->rng, (clc_u32)(i - lo + 1));
        struct battle_unit t = side->structures[i];
        side->structures[i] = side->structures[j];
        side->structures[j] = t;
    }
}

/**
 * Each side, side 0 first, shuffles its fortresses (battle_sim_shuffle_forts, when the plan
 * says so and it has two or more), then its entries [shuf_lo, shuf_hi) with Fisher-Yates
 * from the game's stream: for i from hi - 1 down to lo + 1, j = lo + rng_below(i - lo + 1).
 */
CLC_FN void battle_sim_shuffle(CLC_GLOBAL const struct battle_plan_data *p,
                               CLC_PRIVATE struct battle_game *g)
{
    for (int s = 0; s < 2; s++) {
        CLC_PRIVATE clc_u8 *seq = g->sides[s].seq;
        int lo = p->sides[s].shuf_lo;
        if (p->sides[s].fort_first != BATTLE_SIM_NONE &&
            g->sides[s].n_structures > p->sides[s].fort_first + 1)
            battle_sim_shuffle_forts(p, g, s);
        for (int i = p->sides[s].shuf_hi - 1; i > lo; i--) {
            int j = lo + (int)rng_below(&g->rng, (clc_u32)(i - lo + 1));
            clc_u8 t = seq[i];
            seq[i] = seq[j];
            seq[j] = t;
        }
    }
}

/* Side `s`'s cards pointed at by slot `k` of battle_sim_deal's level-ups: 0 the commander,
 * 1 .. nf the fortresses (fort[]), then the deck entries (the side's card[]). */
CLC_INLINE CLC_PRIVATE clc_u16 *battle_sim_slot(CLC_PRIVATE struct battle_side *side,
                                                CLC_PRIVATE clc_u16 *fort, clc_u32 nf, clc_u32 k)
{
    return k == 0 ? &side->commander : k <= nf ? &fort[k - 1] : &side->card[k - 1 - nf];
}

/* Side `s` draws its cards for this game (battle_side_data.draw), from the game's stream, as
 * tuo's Deck::shuffle does before it shuffles: each pool in order takes pool_amount[k]
 * distinct entries of its list (a partial Fisher-Yates: for i from 0, j = i +
 * rng_below(n - i)), pool_reps[k] times over, as fortresses after the fixed ones or deck
 * entries after the fixed ones; then each of the `upgrades` level-ups picks one of the
 * side's cards (commander, fortresses, deck entries) uniformly, and a card at its top
 * level leaves the draw without using the level-up. The fortresses enter fresh, their
 * on-play skills due on the first turn as the plan's fixed ones are. Out of line: rare. */
CLC_NOINLINE void battle_sim_deal(CLC_GLOBAL const struct battle_plan_data *p,
                                  CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_GLOBAL const struct battle_side_data *sd = &p->sides[s];
    CLC_PRIVATE struct battle_side *side = &g->sides[s];
    clc_u16 fort[BATTLE_SIM_ROW];
    clc_u8 slot[1 + BATTLE_SIM_ROW + BATTLE_SIM_SEQ];
    clc_u32 nf = 0, ne = sd->n_fixed, n = 0, points = sd->upgrades;
    for (clc_u32 i = 0; i < side->n_structures; i++) {
        if (side->structures[i].flags & BATTLE_SIM_FRESH)
            battle_sim_pend(g, s, -1);
        fort[nf++] = side->structures[i].card;
    }
    for (clc_u32 k = 0; k < sd->n_pools; k++) {
        clc_u16 list[BATTLE_SIM_POOL_CARDS];
        clc_u32 m = sd->pool_n[k];
        clc_u32 a = sd->pool_amount[k] < m ? sd->pool_amount[k] : m; /* the plan's bound */
        for (clc_u32 i = 0; i < m; i++)
            list[i] = sd->pool_card[sd->pool_first[k] + i];
        for (clc_u32 i = 0; i < a; i++) {
            clc_u32 j = i + rng_below(&g->rng, m - i);
            clc_u16 t = list[i];
            list[i] = list[j];
            list[j] = t;
        }
        for (clc_u32 r = 0; r < sd->pool_reps[k]; r++)
            for (clc_u32 i = 0; i < a; i++) {
                if (sd->pool_fort[k])
                    fort[nf++] = list[i];
                else
                    side->card[ne++] = list[i];
            }
    }
    for (clc_u32 k = 0; k < 1 + nf + ne; k++)
        slot[n++] = (clc_u8)k;
    while (points && n) {
        clc_u32 i = rng_below(&g->rng, n);
        CLC_PRIVATE clc_u16 *c = battle_sim_slot(side, fort, nf, slot[i]);
        if (p->card_up[*c] == BATTLE_SIM_CARD_NONE) {
            for (; i + 1 < n; i++)
                slot[i] = slot[i + 1];
            n--;
            continue;
        }
        *c = p->card_up[*c];
        points--;
    }
    side->commander_hp = p->cards[side->commander].health;
    side->n_structures = (clc_u8)nf;
    for (clc_u32 i = 0; i < nf; i++) {
        battle_sim_fresh(p, &side->structures[i], fort[i]);
        side->structures[i].protect = p->cards[fort[i]].barrier;
        if (p->cards[fort[i]].trig & (1u << BATTLE_SIM_TRIG_PLAY)) {
            side->structures[i].flags |= BATTLE_SIM_FRESH;
            battle_sim_pend(g, s, 1);
        }
    }
}

/** Starts game `game` in *g: battle_sim_setup, each side that draws its cards draws them
 * (battle_sim_deal, side 0 first), then battle_sim_shuffle. */
CLC_FN void battle_sim_init(CLC_GLOBAL const struct battle_plan_data *p,
                            CLC_PRIVATE struct battle_game *g, clc_u64 seed, clc_u64 game)
{
    battle_sim_setup(p, g, seed, game);
    for (int s = 0; s < 2; s++)
        if (p->sides[s].draw)
            battle_sim_deal(p, g, s);
    battle_sim_shuffle(p, g);
}

/** The current ordered-play priority of entry e: the earliest list position of its card
 * that no copy has consumed yet. */
CLC_FN clc_u32 battle_sim_priority(CLC_GLOBAL const struct battle_side_data *sd,
                                   CLC_PRIVATE const struct battle_side *side, clc_u32 e)
{
    clc_u32 grp = sd->seq_group[e];
    clc_u32 k = side->used[grp];
    if (k >= sd->group_count[grp])
        return BATTLE_SIM_PRIO_NONE;
    return sd->group_pos[sd->group_start[grp] + k];
}

/* Whether flexible side `s` has a choice to look ahead for this turn: up to turn
 * BATTLE_SIM_FLEX_TURNS, a hand of at least two cards that are not all the same card. */
CLC_FN int battle_sim_flex_due(CLC_GLOBAL const struct battle_plan_data *p,
                               CLC_PRIVATE const struct battle_game *g, int s)
{
    CLC_GLOBAL const struct battle_side_data *sd = &p->sides[s];
    CLC_PRIVATE const struct battle_side *side = &g->sides[s];
    clc_u32 head = side->head;
    clc_u32 left = (clc_u32)side->n_seq - head;
    clc_u32 k = left < sd->window ? left : sd->window;
    if (k < 2 || g->turn > BATTLE_SIM_FLEX_TURNS)
        return 0;
    for (clc_u32 j = 1; j < k; j++)
        if (side->card[side->seq[head + j]] != side->card[side->seq[head]])
            return 1;
    return 0;
}

/** Takes the entry side `s` plays this turn out of its remaining entries and returns it,
 * or BATTLE_SIM_NONE when none remain. random: uniform within the window (the front entry
 * for a fresh game); ordered: best priority within the hand of three, first on ties;
 * exact: the front entry; flexible: g->choice, which trades places with the front entry
 * (as tuo swaps them). In a look-ahead game every side takes the front entry (ordered play
 * included: tuo plays both decks random there; random and flexible entries are shuffled). */
CLC_FN clc_u32 battle_sim_select(CLC_GLOBAL const struct battle_plan_data *p,
                                 CLC_PRIVATE struct battle_game *g, int s)
{
    CLC_GLOBAL const struct battle_side_data *sd = &p->sides[s];
    CLC_PRIVATE struct battle_side *side = &g->sides[s];
    clc_u32 head = side->head;
    clc_u32 left = (clc_u32)side->n_seq - head;
    clc_u32 k = left < sd->window ? left : sd->window;
    clc_u32 pick = 0;
    clc_u32 e;
    if (left == 0)
        return BATTLE_SIM_NONE;
    if (sd->play == BATTLE_PLAY_ORDERED && !g->ahead) {
        clc_u32 best = battle_sim_priority(sd, side, side->seq[head]);
        for (clc_u32 i = 1; i < k; i++) {
            clc_u32 pr = battle_sim_priority(sd, side, side->seq[head + i]);
            if (pr < best) {
                best = pr;
                pick = i;
            }
        }
    } else if (sd->play == BATTLE_PLAY_RANDOM && k > 1) {
        pick = rng_below(&g->rng, k);
    } else if (sd->play == BATTLE_PLAY_FLEX && k > 1) {
        clc_u8 t = side->seq[head + g->choice];
        side->seq[head + g->choice] = side->seq[head];
        side->seq[head] = t;
    }
    e = side->seq[head + pick];
    /* Close the gap from the front: the entries before the pick move one place back. */
    for (clc_u32 i = pick; i > 0; i--)
        side->seq[head + i] = side->seq[head + i - 1];
    side->head = (clc_u8)(head + 1);
    side->used[sd->seq_group[e]]++;
    return e;
}

#endif
