/* SPDX-License-Identifier: MIT */
/* The rules' host-side facts (see battle_rules.h): the skill table's rows as data, the
 * largest X a plan field holds, and the marks the rules code reads on a card. */
#include "battle_rules.h"

#include <stdio.h>
#include <string.h>

#include "battle_sim.h"
#include "battle_spec.h"

#include "sk_banned.h"

static const struct battle_rules_skill_row skill_rules[BATTLE_SKILL__COUNT] = {
#define RULE_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)                  \
    [BATTLE_SKILL_##ID] = {NAME, BATTLE_SK_##KIND, OPTS, TYPES, TEXT},
    BATTLE_SKILL_TABLE(RULE_)
#undef RULE_
};

const struct battle_rules_skill_row *battle_rules_skill(enum battle_skill skill)
{
    return (unsigned)skill < BATTLE_SKILL__COUNT ? &skill_rules[skill] : NULL;
}

const char *battle_rules_skill_name(enum battle_skill skill)
{
    if ((unsigned)skill >= BATTLE_SKILL__COUNT)
        return "unknown";
    return skill_rules[skill].name;
}

int battle_rules_skill_parse(const char *name)
{
    for (int s = 0; s < BATTLE_SKILL__COUNT; s++)
        if (strcmp(name, skill_rules[s].name) == 0)
            return s;
    return -1;
}

unsigned battle_rules_skill_opts(enum battle_skill skill)
{
    return (unsigned)skill < BATTLE_SKILL__COUNT ? skill_rules[skill].opts : 0;
}

int battle_rules_skill_kind(enum battle_skill skill)
{
    return (unsigned)skill < BATTLE_SKILL__COUNT ? skill_rules[skill].kind : BATTLE_SK_PASSIVE;
}

int battle_rules_skill_x_max(enum battle_skill id)
{
    /* The plan field a skill folds into says how large its X can be: an activation
     * skill's is act_x, 16 bits. */
    _Static_assert(sizeof(((struct battle_card_data *)0)->act_x[0]) == 2, "16-bit act_x");
    switch (id) {
#define XM_ADD(field)                                                                              \
    return sizeof(((struct battle_card_data *)0)->field) > 1 ? BATTLE_STAT_MAX : BATTLE_SKILL_X_MAX;
#define XM_FLAG(field) return BATTLE_SKILL_X_MAX;
#define XM_ACT(field)  return BATTLE_STAT_MAX;
#define XM_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)                    \
    case BATTLE_SKILL_##ID:                                                                        \
        XM_##FOLD(FIELD)
        BATTLE_SKILL_TABLE(XM_)
#undef XM_
#undef XM_ACT
#undef XM_FLAG
#undef XM_ADD
    default:
        return BATTLE_SKILL_X_MAX;
    }
}

/* In a plan with Inhibit: marks the card's allied targeted actions (Summon aims at no one)
 * BATTLE_SIM_ACT_REFUSABLE, so that they run the copy of their loop that lets a target
 * refuse them; the plans without Inhibit keep the copy without the check. */
static void mark_refusable(struct battle_card_data *c)
{
    for (int k = 0; k < c->n_act; k++)
        if (!battle_sim_hostile(c->act_id[k]) && c->act_id[k] != BATTLE_SKILL_SUMMON)
            c->act_id[k] = (clc_u8)(c->act_id[k] | BATTLE_SIM_ACT_REFUSABLE);
}

/* Marks a card that casts Enhance at its turn start (battle_sim_enhance's test, on the final
 * table: an Enhance's X is its change's index by now). */
static void mark_enhancer(const struct battle_plan_data *d, struct battle_card_data *c)
{
    for (int k = 0; k < c->n_act; k++)
        if ((c->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE) == BATTLE_SKILL_ENHANCE &&
            c->act_trig[k] == BATTLE_SIM_TRIG_ACTIVATE && c->act_x[k] < d->n_mods)
            c->trig = (clc_u8)(c->trig | BATTLE_SIM_CARD_ENHANCES);
}

void battle_rules_mark_card(const struct battle_plan_data *d, struct battle_card_data *c)
{
    mark_enhancer(d, c);
    /* The turn start's tick reads a card's turn-start skills only where this says so. */
    c->trig = (clc_u8)(c->trig & ~BATTLE_SIM_CARD_TICKS);
    if (c->barrier || c->absorb || c->bravery || c->valor || c->summon_act)
        c->trig = (clc_u8)(c->trig | BATTLE_SIM_CARD_TICKS);
    /* Mimic scans every enemy assault's skills at each cast: one byte per card instead */
    c->mimic = 0;
    for (int k = 0; k < c->n_act; k++)
        if (battle_sim_mimicable(c, (clc_u32)k, 1))
            c->mimic = (clc_u8)(c->mimic | 1u << k);
    if (d->fx & BATTLE_SIM_FX_INHIBIT)
        mark_refusable(c);
}

void battle_rules_unmark_card(struct battle_card_data *c)
{
    for (int k = 0; k < c->n_act; k++)
        c->act_id[k] = (clc_u8)(c->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE);
    c->trig = (clc_u8)(c->trig & ~(BATTLE_SIM_CARD_ENHANCES | BATTLE_SIM_CARD_TICKS));
    c->mimic = 0;
}

/* BATTLE_K_ACTS holds a bit per skill id. */
_Static_assert(BATTLE_SKILL__COUNT <= 64, "BATTLE_K_ACTS is 64 bits");

/* The most units a row of a game of plan `d` can hold: a row grows only when a card is
 * played or summoned (battle_sim_enter), so without Summon on any card of the table and
 * without a side that draws its cards (whose entries are not the plan's), a row holds at
 * most its starting units and its side's entries of its kind; else the rule's row. Whole
 * eights, at most the rule's row. `structures_only`: the structure rows' bound alone. */
static int lanes_of(const struct battle_plan_data *d, int summons, int structures_only)
{
    int lanes = 1;

    if (summons)
        return BATTLE_SIM_ROW;
    for (int s = 0; s < 2; s++) {
        const struct battle_side_data *sd = &d->sides[s];
        int str = sd->n_structures, asl = sd->n_assaults;
        if (sd->draw)
            return BATTLE_SIM_ROW;
        for (int e = 0; e < sd->n_seq; e++) {
            const struct battle_card_data *c = &d->cards[sd->seq_card[e]];
            if (c->type == BATTLE_COMMANDER)
                continue;
            if (battle_sim_structure_row(c->type))
                str++;
            else
                asl++;
        }
        lanes = str > lanes ? str : lanes;
        lanes = asl > lanes && !structures_only ? asl : lanes;
    }
    /* Whole eights: plans of nearly the same decks share a program. */
    lanes = (lanes + 7) / 8 * 8;
    return lanes < BATTLE_SIM_ROW ? lanes : BATTLE_SIM_ROW;
}

/* Whether the games of plan `d` need their units' rarer skills' state (battle_unit.r,
 * BATTLE_K_UNIT_RARE): a card with one of those skills (p->passive's BATTLE_SIM_PV_RARE),
 * Sabotage, Disease, Stasis or Temporal Backlash (p->rare), or a starting unit that carries
 * some of it, which the games would start from. */
static int unit_rare_of(const struct battle_plan_data *d)
{
    static const struct battle_unit_rare none;

    if ((d->passive & BATTLE_SIM_PV_RARE) ||
        (d->rare & (BATTLE_SIM_RARE_SABOTAGE | BATTLE_SIM_RARE_STASIS)))
        return 1;
    for (int s = 0; s < 2; s++) {
        const struct battle_side_data *sd = &d->sides[s];
        for (int i = 0; i < sd->n_structures; i++)
            if (memcmp(&sd->structures[i].r, &none, sizeof(none)) != 0)
                return 1;
        for (int i = 0; i < sd->n_assaults; i++)
            if (memcmp(&sd->assaults[i].r, &none, sizeof(none)) != 0)
                return 1;
    }
    return 0;
}

/* The most entries a side of plan `d` holds in its games: BATTLE_SIM_SEQ when a side draws
 * its cards (battle_sim_deal fills its entries each game), else the most entries a side has
 * (n_seq: a game never adds one). Whole eights, as lanes_of, at most the rule's. */
static int entries_of(const struct battle_plan_data *d)
{
    int n = 1;

    for (int s = 0; s < 2; s++) {
        if (d->sides[s].draw)
            return BATTLE_SIM_SEQ;
        n = d->sides[s].n_seq > n ? d->sides[s].n_seq : n;
    }
    n = (n + 7) / 8 * 8;
    return n < BATTLE_SIM_SEQ ? n : BATTLE_SIM_SEQ;
}

void battle_rules_features(const struct battle_plan_data *d, char *buf, size_t len)
{
    unsigned long long acts = 0;
    int summons = 0;

    /* Every skill a game can cast comes from a card of the table: the decks', the
     * commanders', Summon's, the battleground effects' cards, Enhance's and Evolve's
     * variants. */
    for (int i = 0; i < d->n_cards; i++) {
        for (int k = 0; k < d->cards[i].n_act; k++)
            acts |= 1ull << (d->cards[i].act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE);
        summons |= d->cards[i].summon_act != 0;
    }
    summons |= (acts >> BATTLE_SKILL_SUMMON) & 1u;
    snprintf(buf, len,
             "-DBATTLE_K_FX=0x%02xu -DBATTLE_K_PV=0x%xu -DBATTLE_K_RARE=0x%xu "
             "-DBATTLE_K_DEATH=0x%xu -DBATTLE_K_EFFECTS=0x%xu -DBATTLE_K_ACTS=0x%llxul "
             "-DBATTLE_K_UNIT_RARE=%d -DBATTLE_K_SEQ=%d -DBATTLE_K_SLANES=%d -DBATTLE_K_LANES=%d",
             (unsigned)d->fx, (unsigned)d->passive, (unsigned)d->rare, (unsigned)d->death_fx,
             (unsigned)d->passive_on, acts, unit_rare_of(d), entries_of(d), lanes_of(d, summons, 1),
             lanes_of(d, summons, 0));
}
