/* SPDX-License-Identifier: MIT */
/* The rules entry points of battle_testlib.h, compiled once for every battle test. */
#include "battle_testlib.h"

#include "sk_banned.h"

void tb_run_start(struct tb_run *x, struct tb *b)
{
    memset(x, 0, sizeof(*x));
    x->plan = tb_plan(b);
    x->d = battle_plan_data(x->plan);
    battle_sim_start(x->d, &x->g, b->spec.seed, 0);
}

int tb_run_turns(struct tb_run *x, int n)
{
    for (int i = 0; i < n && !x->over; i++)
        x->over = (x->d->fx & BATTLE_SIM_FX_FLEX)
                      ? battle_sim_turn_flex(x->d, &x->g, &x->scratch, &x->r)
                      : battle_sim_turn(x->d, &x->g, &x->r);
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
