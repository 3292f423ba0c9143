/* SPDX-License-Identifier: MIT */
/* Enhance and Evolve as card variants. Both skills change a skill of a unit until the end
 * of the next enemy turn (Enhance X s: s is worth X more; Evolve s s2: s becomes s2). Every
 * rule of the game reads a unit's skills from its card, so instead of a per-unit state
 * that each of those reads would have to add in, a changed unit plays a variant of its card
 * with the change made: the plan holds the variants the job's changes can make of its
 * assault cards, and for every card and change the card it becomes
 * (battle_plan_data.mod_to, card_base). Plain games pay nothing; the rules code reads the
 * unit's card as before (docs/kernels.md, "Enhance and Evolve").
 *
 * How far a unit's changes can stack between two resets is bounded: each change m is
 * applied at most K_m times to one card, K_m being the count of cards that carry m in the
 * job (a side's commander, fortresses, deck entries, mid-game units and hand, its
 * battleground effects, and one per carrier of a Summon that brings such a card). A unit
 * that takes m again past K_m keeps its card (docs/rules/battle.md says when a game can get
 * there). A card and its next levels (a drawing side's level-ups) are one unit at one level
 * for the whole game, so they count once, and a variant is made only for changes the job's
 * units can cast on one unit together, each chain's units placed at some of its levels
 * (two levels of one card in play once never meet).
 *
 * Both skills aim at the caster's own side, so a card takes only the changes that can reach
 * a side it can be on (its carriers' sides; a side with Mimic takes the enemy's Evolve, one
 * with Divert sends its own to the enemy): for the others mod_to holds BATTLE_SIM_CARD_NONE (the
 * change does not apply), an entry no game reads, and the table holds no variant for them. */
#ifndef BATTLE_MODS_H
#define BATTLE_MODS_H

#include <stddef.h>

#include "battle_spec.h"
#include "sk_err.h"

struct battle_plan_data;
struct battle_card_data;

/**
 * Builds the changes and variants of plan `d`, whose first spec->n_cards cards are built
 * (an Enhance or Evolve action's X holds the index of its skill in the card's spec until
 * then): rewrites those actions' X to their change, fills n_mods, mod_flags, card_base and
 * mod_to, appends the variants (d->n_cards grows) and sets BATTLE_SIM_RARE_MOD when there
 * is a change. A side's battleground effects cast their Enhance in the effects phase, so
 * their actions are marked as cast in the turn. Returns SK_OK, or SK_EINVAL with a message
 * in `err` when the job holds more distinct changes than BATTLE_SIM_MODS or a change can take
 * a value past its field. When the variants do not fit in the table, the plan makes them
 * during play instead (battle_plan_data.lazy, battle_mods_lazy in battle_sim.h). Borrows
 * both for the call.
 */
enum sk_err battle_mods_build(const struct battle_spec *spec, struct battle_plan_data *d, char *err,
                              size_t errlen);

/**
 * Tests only: limits the table's places for variants to `n` (0: the whole table, the
 * default), so that a job whose variants fit makes them during play instead, to be compared
 * with its plan as built; and a plan made during play to `n` cards in all, so that its games
 * fill the table. Process-wide and not thread-safe: set it around plan builds and runs.
 */
void battle_mods_test_limit(int n);

/**
 * A card holding skill `s` alone (value 1): what battle_plan folds into a plan's flags for
 * each skill an Evolve can give, in a plan whose variants are made during play
 * (battle_plan_data.lazy), so that the flags cover every variant it can make.
 */
struct battle_card_data battle_mods_skill_card(enum battle_skill s);

/**
 * Sets or clears bit `k` of c->act_turn: whether action `k` is cast among the unit's actions
 * in its turn. The one place for that rule, used when a card is built (battle_plan) and after
 * a change to the action (an Enhance or Evolve variant): an action cast in the turn is cast
 * only when battle_sim_act_cast says so, so an Enhance that gives X to a skill that had none
 * makes it cast, and an Evolve of a skill without X into one without X (Rush into Jam) too,
 * as in tuo, where the X is judged at each cast. Triggered actions, Enhance (cast at turn
 * start, battle_sim_enhance) and Summon (its own field) are left as they are. Borrows `c`.
 */
void battle_mods_turn_bit(struct battle_card_data *c, int k);

#endif
