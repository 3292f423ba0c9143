/* SPDX-License-Identifier: MIT */
/* The rules' host-side facts, for every module above the rules code (the catalog, the
 * codecs, the plan): what the skill table (battle_skills.h) says of a skill, as data and by
 * name; the largest X a card's plan data holds for it; and the marks a card of a plan
 * carries for the rules code (battle_sim.h), which depend on nothing but the card and the
 * plan's flags. The one place these facts are read from the table on the host; the kernels
 * read the table through battle_sim.h. Plain functions of static data: thread-safe. */
#ifndef BATTLE_RULES_H
#define BATTLE_RULES_H

#include <stddef.h>

#include "battle_skills.h"

struct battle_card_data; /* battle_sim.h */
struct battle_plan_data; /* battle_sim.h */

/* What a skill may carry and which cards may have it: one row of the skill table. */
struct battle_rules_skill_row {
    const char *name;       /* as documents write it ("armor") */
    int kind;               /* enum battle_skill_kind */
    unsigned opts;          /* BATTLE_OPT_* */
    unsigned types;         /* BATTLE_T_* */
    const char *types_text; /* the card types that may have it, for error messages; NULL = any */
};

/** Skill `skill`'s row (static), or NULL when `skill` is no skill. */
const struct battle_rules_skill_row *battle_rules_skill(enum battle_skill skill);
/** Returns the lowercase name of `skill` ("armor"), or "unknown" (static string). */
const char *battle_rules_skill_name(enum battle_skill skill);
/** Returns the skill named `name`, or -1. `name` is borrowed. */
int battle_rules_skill_parse(const char *name);
/** Returns the BATTLE_OPT_* bits skill `skill` takes (the skill table's OPTS), 0 when
 * unknown. */
unsigned battle_rules_skill_opts(enum battle_skill skill);
/** Returns the skill's kind (enum battle_skill_kind), BATTLE_SK_PASSIVE when unknown. */
int battle_rules_skill_kind(enum battle_skill skill);

/**
 * The largest X skill `id` can have on a card: BATTLE_STAT_MAX where the plan holds it in
 * 16 bits (the activation skills and the passive values, which reach 300 to 999 on the
 * game's cards or past 255 through an Enhance), else BATTLE_SKILL_X_MAX (an 8-bit field:
 * the flags, and Evade, Inhibit, Tribute, Payback, Revenge, Sabotage and Flurry, whose
 * counts or values a unit keeps in a byte). The codecs and the card files' checks read it.
 */
int battle_rules_skill_x_max(enum battle_skill id);

/** Makes card `c` of plan data `d` as the plan's table holds it: the marks battle_plan puts
 * on every card once the plan's flags are known (which of its allied skills a target may
 * refuse under Inhibit, whether it casts Enhance at its turn start, whether it has any
 * other turn-start skill, which of its skills Mimic can take). */
void battle_rules_mark_card(const struct battle_plan_data *d, struct battle_card_data *c);

/* Room for battle_rules_features' text. */
#define BATTLE_RULES_FEATURES_LEN 256

/**
 * The compile-time constants of a kernel specialised for plan data `d` (battle_sim_state.h,
 * BATTLE_K_*: its plan-wide flags, the activation skills of every card of its table, its
 * passive battleground effects, whether its units need the rarer skills' state, the entries
 * a side and the units a row of its games can hold) as OpenCL -D options,
 * written into buf (`len` at least BATTLE_RULES_FEATURES_LEN). Plans that reach the same rules get
 * the same text, so it names the program (docs/kernels.md, "A program per plan"). `d` must not make
 * its variants during play (battle_plan_lazy): those cards are not in its table yet.
 */
void battle_rules_features(const struct battle_plan_data *d, char *buf, size_t len);

/** Takes battle_rules_mark_card's marks off card `c`: the card as built. */
void battle_rules_unmark_card(struct battle_card_data *c);

#endif
