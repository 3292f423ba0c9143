/* SPDX-License-Identifier: MIT */
/* The rules entry points of battle_testlib.h, compiled once for every battle test. */
#include "battle_testlib.h"

#include <stdlib.h>

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

/* The units a row of a game of `p` can hold by the bound a program specialised for it is
 * built with (battle_rules_features' BATTLE_K_LANES; the rule's row for a plan that makes
 * its variants during play, which has no such program). */
static unsigned plan_lanes(const struct battle_plan_data *p)
{
    char features[BATTLE_RULES_FEATURES_LEN];
    const char *at;

    if (p->lazy)
        return BATTLE_SIM_ROW;
    battle_rules_features(p, features, sizeof(features));
    at = strstr(features, "-DBATTLE_K_LANES=");
    return at ? (unsigned)strtoul(at + strlen("-DBATTLE_K_LANES="), NULL, 10) : 0;
}

/* Whether every row of the game holds no more units than that bound: a row the bound missed
 * would be cut short on the device (battle_sim_enter), so every scenario test checks it. */
static int lanes_ok(const struct tb_run *x)
{
    for (int s = 0; s < 2; s++)
        if (x->g.sides[s].n_structures > x->lanes || x->g.sides[s].n_assaults > x->lanes)
            return 0;
    return 1;
}

void tb_run_start(struct tb_run *x, struct tb *b)
{
    memset(x, 0, sizeof(*x));
    x->plan = tb_plan(b);
    x->d = battle_plan_data(x->plan);
    x->lanes = plan_lanes(x->d);
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
