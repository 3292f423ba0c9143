/* SPDX-License-Identifier: MIT */
/* The rules entry points of battle_testlib.h, compiled once for every battle test. */
#include "battle_testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battle_rules.h"

#include "sk_banned.h"

/* The sum of f over the units of a side's rows, structures then assaults. */
static unsigned side_sum(const struct battle_side *side, unsigned (*f)(const struct battle_unit *))
{
    unsigned n = 0;
    for (unsigned i = 0; i < side->n_structures; i++)
        n += f(&side->structures[i]);
    for (unsigned i = 0; i < side->n_assaults; i++)
        n += f(&side->assaults[i]);
    return n;
}

static unsigned pending_flags(const struct battle_unit *u)
{
    return ((u->flags & BATTLE_SIM_DYING) != 0) + ((u->flags & BATTLE_SIM_FRESH) != 0);
}

/* Whether each side's count of pending flags (battle_side.pending, which lets
 * battle_sim_triggers skip a side) is the number of DYING and FRESH flags in its rows, and
 * the game's count their sum. */
static int pending_counts_ok(const struct battle_game *g)
{
    unsigned sum = 0;
    for (int s = 0; s < 2; s++) {
        unsigned n = side_sum(&g->sides[s], pending_flags);
        if (n != g->sides[s].pending)
            return 0;
        sum += n;
    }
    return sum == g->pending;
}

static unsigned rare_state(const struct battle_unit *u)
{
    return u->r.enraged || u->r.sabotaged || u->r.tributed || u->r.entrapped || u->r.paybacked ||
           (u->state & BATTLE_SIM_OVERLOADED);
}

/* Whether, in a plan without the rarer skills (BATTLE_SIM_PV_RARE not in p->passive), no unit
 * carries their state: the copies of the turn without them do not clear it at the turn's
 * end (Enrage, Sabotage, Tribute, Overload, Entrap, Payback). */
static int rare_fields_ok(const struct battle_plan_data *p, const struct battle_game *g)
{
    return (p->passive & BATTLE_SIM_PV_RARE) ||
           side_sum(&g->sides[0], rare_state) + side_sum(&g->sides[1], rare_state) == 0;
}

/* Constant `name` (-D`name`=) of the program specialised for `p` (battle_rules_features);
 * `general`, the general program's value, for a plan that makes its variants during play,
 * which has no such program. 0 when the text lacks it (a check below then fails). */
static unsigned plan_feature(const struct battle_plan_data *p, const char *name, unsigned general)
{
    char features[BATTLE_RULES_FEATURES_LEN], key[64];
    const char *at;

    if (p->lazy)
        return general;
    battle_rules_features(p, features, sizeof(features));
    snprintf(key, sizeof(key), "-D%s=", name);
    at = strstr(features, key);
    return at ? (unsigned)strtoul(at + strlen(key), NULL, 10) : 0;
}

/* Whether unit `u` carries none of the rarer skills' state. */
static int rare_none(const struct battle_unit *u)
{
    static const struct battle_unit_rare none;
    return memcmp(&u->r, &none, sizeof(none)) == 0;
}

/* Whether the game fits the bounds the plan's program is built with, so every scenario test
 * checks them: no row holds more units than its bound (a row the bound missed would be cut
 * short on the device, battle_sim_enter), no side more entries than its bound, and where
 * the program's units leave out the rarer skills' state, no unit carries any (the program
 * would lose it). */
static int lanes_ok(const struct tb_run *x)
{
    for (int s = 0; s < 2; s++) {
        const struct battle_side *side = &x->g.sides[s];
        if (side->n_structures > x->slanes || side->n_assaults > x->lanes ||
            side->n_seq > x->entries)
            return 0;
        for (unsigned i = 0; !x->unit_rare && i < side->n_structures; i++)
            if (!rare_none(&side->structures[i]))
                return 0;
        for (unsigned i = 0; !x->unit_rare && i < side->n_assaults; i++)
            if (!rare_none(&side->assaults[i]))
                return 0;
    }
    return 1;
}

void tb_run_start(struct tb_run *x, struct tb *b)
{
    memset(x, 0, sizeof(*x));
    x->plan = tb_plan(b);
    x->d = battle_plan_data(x->plan);
    x->lanes = plan_feature(x->d, "BATTLE_K_LANES", BATTLE_SIM_ROW);
    x->slanes = plan_feature(x->d, "BATTLE_K_SLANES", BATTLE_SIM_ROW);
    x->entries = plan_feature(x->d, "BATTLE_K_SEQ", BATTLE_SIM_SEQ);
    x->unit_rare = plan_feature(x->d, "BATTLE_K_UNIT_RARE", 1);
    battle_sim_start(x->d, &x->g, b->spec.seed, 0);
    CU_ASSERT(pending_counts_ok(&x->g));
    CU_ASSERT(lanes_ok(x));
}

int tb_run_turns(struct tb_run *x, int n)
{
    for (int i = 0; i < n && !x->over; i++) {
        x->over = (x->d->fx & BATTLE_SIM_FX_FLEX)
                      ? battle_sim_turn_flex(x->d, &x->g, &x->scratch, &x->r)
                      : battle_sim_turn(x->d, &x->g, &x->r);
        CU_ASSERT(x->over || pending_counts_ok(&x->g));
        CU_ASSERT(rare_fields_ok(x->d, &x->g));
        CU_ASSERT(lanes_ok(x));
    }
    return x->over;
}

void tb_sim_play(const struct battle_plan_data *p, uint64_t seed, uint64_t game,
                 struct battle_game_result *out)
{
    battle_sim_play(p, seed, game, out);
}

void tb_sim_start(const struct battle_plan_data *p, struct battle_game *g, uint64_t seed,
                  uint64_t game)
{
    battle_sim_start(p, g, seed, game);
}

void tb_sim_init(const struct battle_plan_data *p, struct battle_game *g, uint64_t seed,
                 uint64_t game)
{
    battle_sim_init(p, g, seed, game);
}

void tb_sim_setup(const struct battle_plan_data *p, struct battle_game *g, uint64_t seed,
                  uint64_t game)
{
    battle_sim_setup(p, g, seed, game);
}

int tb_sim_mimic_cast(const struct battle_plan_data *p, struct battle_game *g, int s, int lane,
                      unsigned id, int refusable, const struct battle_card_data *c, unsigned k,
                      int pv, const struct battle_sim_ov *ov)
{
    return battle_sim_mimic_cast(p, g, s, lane, id, refusable, c, k, pv, ov);
}

int tb_sim_skill_any(const struct battle_plan_data *p, struct battle_game *g, int s, int lane,
                     unsigned id, int refusable, const struct battle_card_data *c, unsigned k,
                     int pv, const struct battle_sim_ov *ov)
{
    /* id and pv are not constants here: the copy for any skill, a kernel's. */
    return battle_sim_skill_as(p, g, s, lane, id, refusable, c, k, pv, ov);
}
