/* SPDX-License-Identifier: MIT */
/* Host-side preparation of a battle job: turns a decoded battle_spec into the flat plan
 * data of battle_sim.h (compact card table, starting rows, the entries each game shuffles
 * and the window it plays from, the ordered-play priority groups). It does not parse
 * JSON (battle_codec) and plays no games (battle_sim.h, battle_cpu). */
#include "battle_plan.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "battle_mods.h"
#include "battle_rules.h"
#include "battle_sim.h"
#include "battle_tu.h"
#include "sk_mem.h"

#include "sk_banned.h"

_Static_assert(BATTLE_CARDS_MAX < BATTLE_SIM_CARDS, "card table: the job's cards and variants");
_Static_assert(BATTLE_SKILL__COUNT < BATTLE_SIM_ACT_REFUSABLE, "skill ids below the refusable bit");
_Static_assert(BATTLE_SIM_ACTS == BATTLE_CARD_SKILLS_MAX, "skills per card");
_Static_assert(BATTLE_SIM_LIST == BATTLE_DECK_MAX, "deck list size");
_Static_assert(BATTLE_SIM_SEQ == BATTLE_DECK_MAX + BATTLE_HAND_MAX, "hand + deck size");
_Static_assert(BATTLE_SIM_ROW == BATTLE_ROW_MAX, "row size");
_Static_assert(BATTLE_SIM_FLEX_HAND == BATTLE_HAND_MAX, "flexible play's hand");
/* Brawl's most: 55, the enemy's units destroyed (its starting rows and cards played, at most
 * two full rows, and up to 255 summoned), the cards not played. */
_Static_assert(BATTLE_SIM_POINTS_MAX == BATTLE_POINTS_MAX &&
                   55 + 2 * BATTLE_ROW_MAX + 255 + BATTLE_SIM_SEQ <= BATTLE_POINTS_MAX,
               "points of one game");
_Static_assert(BATTLE_TURN_LIMIT_MAX < 255, "turns fit in 8 bits");
_Static_assert(BATTLE_PASSIVE__COUNT <= 32, "passive_on has a bit per passive effect");
_Static_assert(BATTLE_STAT_MAX <= BATTLE_SIM_STAT_CAP, "stats fit in 16 bits");
_Static_assert(BATTLE_SKILL_X_MAX <= 255 && BATTLE_DELAY_MAX <= 255, "8-bit skill fields");
/* The game state lives in a work-item's private memory: 4 KiB until the skills' states
 * (Mark, 2026-11-26) needed more, 8 KiB until rows of 60 units (decks of 50, 10 fortresses,
 * 2026-11-27); docs/kernels.md says what the bound is for. */
_Static_assert(sizeof(struct battle_game) <= 16384, "game state above 16 KiB");

struct battle_plan {
    struct battle_plan_data data;
    uint64_t seed;
    uint64_t games;
    /* Names this plan's data for the threads' copies of lazy plans (battle_plan_game_data):
     * unique in the process, renewed when the data changes (battle_plan_set_work_limit). */
    uint64_t id;
};

_Static_assert(BATTLE_CARDS_MAX <= BATTLE_SIM_LAZY_BASES, "mod_reach holds every job card");

/* battle_plan.id's source. */
static _Atomic uint64_t plan_ids;

/* A thread's copies of lazy plans (battle_plan_game_data): a few, so that a thread that
 * plays several plans game by game (the optimiser's pieces) does not copy at every game. */
#define LAZY_COPIES 4
/* A copy with fewer free places in its table than this is renewed before the next game, so
 * that a game seldom fills it (one that does is played again on a fresh copy: battle_cpu.c). */
#define LAZY_MARGIN 128
struct lazy_copies {
    uint64_t id[LAZY_COPIES];
    unsigned next; /* the copy to replace next */
    struct battle_plan_data data[LAZY_COPIES];
};
static pthread_once_t lazy_once = PTHREAD_ONCE_INIT;
static pthread_key_t lazy_key;
static int lazy_key_ok;

static void lazy_key_make(void)
{
    lazy_key_ok = pthread_key_create(&lazy_key, sk_free) == 0;
}

/* Every row of the skill table folds the way its kind says: passives into a field,
 * activations into the action list. */
#define FOLD_CHECK_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)            \
    _Static_assert((BATTLE_SK_##KIND == BATTLE_SK_ACTIVATION) == (FOLD_IS_##FOLD),                 \
                   "skill " NAME ": an activation skill folds as ACT, a passive as ADD or FLAG");
#define FOLD_IS_ACT  1
#define FOLD_IS_ADD  0
#define FOLD_IS_FLAG 0
BATTLE_SKILL_TABLE(FOLD_CHECK_)
#undef FOLD_CHECK_

static clc_u8 add_u8(clc_u8 a, int b)
{
    int v = a + b;
    return (clc_u8)(v > 255 ? 255 : v);
}

/* A 16-bit passive field (the values: Armor, Venom, Absorb...) adds up to BATTLE_STAT_MAX,
 * which the unit's 16-bit state holds. */
static clc_u16 add_u16(clc_u16 a, int b)
{
    int v = a + b;
    return (clc_u16)(v > BATTLE_STAT_MAX ? BATTLE_STAT_MAX : v);
}

/* An activation skill joins the card's actions with its options; Summon's X is the card it
 * brings, and an activation Summon (cast when the unit's delay reaches 0) is also noted
 * apart. Enhance's and Evolve's X is, until battle_mods_build gives them their change, the
 * index `spec_k` of their skill in the card's spec; Enhance is cast at the unit's turn start
 * (battle_sim_enhance), not among its actions. Triggered skills mark the card so the game
 * looks for them only where they are. */
static void fold_act(struct battle_card_data *cd, const struct battle_skill_spec *ss, int spec_k)
{
    int k = cd->n_act++;
    cd->act_id[k] = (clc_u8)ss->id;
    cd->act_x[k] =
        (clc_u16)(ss->id == BATTLE_SKILL_SUMMON                                     ? ss->card
                  : ss->id == BATTLE_SKILL_ENHANCE || ss->id == BATTLE_SKILL_EVOLVE ? spec_k
                                                                                    : ss->x);
    cd->act_all[k] = (clc_u8)(ss->all != 0);
    cd->act_y[k] = (clc_u8)ss->y;
    cd->act_n[k] = (clc_u8)ss->n;
    cd->act_c[k] = (clc_u8)ss->c;
    cd->act_trig[k] = (clc_u8)ss->trigger;
    if (ss->trigger)
        cd->trig = (clc_u8)(cd->trig | (1u << ss->trigger));
    else if (ss->id == BATTLE_SKILL_SUMMON)
        cd->summon_act = (clc_u16)(ss->card + 1);
    else
        battle_mods_turn_bit(cd, k);
}

/* NOLINTNEXTLINE(readability-function-size): one card, field by field, as the rules list them */
static enum sk_err build_card(const struct battle_card_spec *cs, int idx, int n_cards,
                              struct battle_card_data *cd, char *err, size_t errlen)
{
    memset(cd, 0, sizeof(*cd));
    if (cs->type < 0 || cs->type >= BATTLE_CARD_TYPE__COUNT || cs->health < 1 ||
        cs->health > BATTLE_STAT_MAX || cs->attack < 0 || cs->attack > BATTLE_STAT_MAX ||
        cs->delay < 0 || cs->delay > BATTLE_DELAY_MAX || cs->n_skills < 0 ||
        cs->n_skills > BATTLE_CARD_SKILLS_MAX) {
        snprintf(err, errlen, "card %d \"%s\": stats out of range", idx, cs->name);
        return SK_EINVAL;
    }
    cd->attack = (clc_i16)(cs->type == BATTLE_ASSAULT ? cs->attack : 0);
    cd->health = (clc_i16)cs->health;
    cd->type = (clc_u8)cs->type;
    /* Fortresses and dominions are structures in play from the start: they too wait their
     * delay (the game's cost, 4 for most) before they act. */
    cd->delay = (clc_u8)(cs->type != BATTLE_COMMANDER ? cs->delay : 0);
    cd->faction = (clc_u8)(cs->faction >= 0 && cs->faction <= 6 ? cs->faction : 0);
    cd->flurry_c = 1;
    for (int k = 0; k < cs->n_skills; k++) {
        const struct battle_skill_spec *ss = &cs->skills[k];
        if (ss->id < 0 || ss->id >= BATTLE_SKILL__COUNT || ss->x < 0 ||
            ss->x > battle_rules_skill_x_max(ss->id) || ss->y < 0 || ss->y > 6 || ss->n < 0 ||
            ss->n > BATTLE_SKILL_N_MAX || ss->c < 0 || ss->c > BATTLE_SKILL_C_MAX ||
            ss->trigger < 0 || ss->trigger > BATTLE_SIM_TRIG_DEATH ||
            (ss->id == BATTLE_SKILL_SUMMON && (ss->card < 0 || ss->card >= n_cards)) ||
            battle_tu_skill_args(ss->id, ss->s, ss->s2)) {
            snprintf(err, errlen, "card %d \"%s\": skill %d out of range", idx, cs->name, k);
            return SK_EINVAL;
        }
        /* An Enhance without X (none in the game's files) would enhance by nothing and is
         * left out. Other activation skills that take an X and have none stay on the card,
         * never cast (battle_sim_act_cast): Mimic, Enhance and Evolve see them. */
        if (!ss->x && ss->id == BATTLE_SKILL_ENHANCE)
            continue;
        /* Repeated passives add up; activation skills keep card order. */
        switch (ss->id) {
#define FOLD_ADD(field)                                                                            \
    cd->field = _Generic(cd->field, clc_u16 : add_u16, default : add_u8)(cd->field, ss->x)
#define FOLD_FLAG(field) cd->field = 1
#define FOLD_ACT(field)  fold_act(cd, ss, k)
#define FOLD_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)                  \
    case BATTLE_SKILL_##ID:                                                                        \
        FOLD_##FOLD(FIELD);                                                                        \
        break;
            BATTLE_SKILL_TABLE(FOLD_)
#undef FOLD_
#undef FOLD_ACT
#undef FOLD_FLAG
#undef FOLD_ADD
        default:
            break;
        }
        if (ss->id == BATTLE_SKILL_FLURRY && ss->c)
            cd->flurry_c = (clc_u8)ss->c;
    }
    return SK_OK;
}

static int card_ok(const struct battle_spec *spec, int card, int type_a, int type_b)
{
    return card >= 0 && card < spec->n_cards &&
           ((int)spec->cards[card].type == type_a || (int)spec->cards[card].type == type_b);
}

/* Whether `card` may be a deck entry: an assault or structure card, or a commander card,
 * which a mission's or raid's deck (or deck pool) may hold and which is drawn and not
 * played, as the peer plays it (the codec refuses one in a job's own deck). */
static int deck_card_ok(const struct battle_spec *spec, int card)
{
    return card_ok(spec, card, BATTLE_ASSAULT, BATTLE_STRUCTURE) ||
           card_ok(spec, card, BATTLE_COMMANDER, BATTLE_COMMANDER);
}

static void fresh_unit(const struct battle_plan_data *d, int card, struct battle_unit *u)
{
    memset(u, 0, sizeof(*u));
    u->card = (clc_u16)card;
    u->delay = d->cards[card].delay;
    u->flags = BATTLE_SIM_ALIVE;
    u->hp = d->cards[card].health;
    u->attack = d->cards[card].attack;
    u->max_hp = d->cards[card].health;
    u->absorb = d->cards[card].absorb;
}

static enum sk_err state_unit(const struct battle_spec *spec, const struct battle_plan_data *d,
                              const struct battle_unit_spec *us, int row_type, int s,
                              struct battle_unit *u, char *err, size_t errlen)
{
    int alt = row_type == BATTLE_STRUCTURE ? BATTLE_FORTRESS : BATTLE_ASSAULT;
    if (!card_ok(spec, us->card, row_type, alt)) {
        snprintf(err, errlen, "side %d: a unit in play has a card of the wrong type", s);
        return SK_EINVAL;
    }
    fresh_unit(d, us->card, u);
    if (us->delay < 0 || us->delay > d->cards[us->card].delay) {
        snprintf(err, errlen, "side %d: unit \"%s\" has delay %d", s, spec->cards[us->card].name,
                 us->delay);
        return SK_EINVAL;
    }
    u->delay = (clc_u8)us->delay;
    if (!us->alive) {
        u->hp = 0;
        u->flags = 0;
        return SK_OK;
    }
    if (us->health < 1 || us->health > d->cards[us->card].health) {
        snprintf(err, errlen, "side %d: unit \"%s\" has health %d", s, spec->cards[us->card].name,
                 us->health);
        return SK_EINVAL;
    }
    u->hp = (clc_i16)us->health;
    return SK_OK;
}

/* Priority groups: one per distinct card among the entries. A group's positions are the
 * list positions of its card, minus the earliest ones consumed by copies already on the
 * field; each copy played consumes the earliest remaining one. */
static void build_groups(const struct battle_side_spec *ss, const struct battle_side_state *st,
                         const struct battle_spec *spec, struct battle_side_data *sd)
{
    int group_card[BATTLE_SIM_SEQ];
    int n_pos = 0;
    sd->n_groups = 0;
    for (int e = 0; e < sd->n_seq; e++) {
        int card = sd->seq_card[e], g;
        for (g = 0; g < sd->n_groups; g++)
            if (group_card[g] == card)
                break;
        if (g == sd->n_groups) {
            int consumed = 0;
            group_card[g] = card;
            sd->n_groups++;
            if (st) {
                for (int i = 0; i < st->n_structures; i++)
                    consumed +=
                        st->structures[i].card == card && spec->cards[card].type != BATTLE_FORTRESS;
                for (int i = 0; i < st->n_assaults; i++)
                    consumed += st->assaults[i].card == card;
            }
            sd->group_start[g] = (clc_u8)n_pos;
            sd->group_count[g] = 0;
            for (int k = 0; k < ss->n_deck; k++) {
                if (ss->deck[k] != card)
                    continue;
                if (consumed > 0) {
                    consumed--;
                    continue;
                }
                sd->group_pos[n_pos++] = (clc_u8)k;
                sd->group_count[g]++;
            }
        }
        sd->seq_group[e] = (clc_u8)g;
    }
}

/* A side that draws its cards each game (battle_sim_deal): its pools after the fixed
 * fortresses and deck entries. A pool entry's seq_card is the pool's first card until a
 * game draws it (the plan's checks below count what any card of the pool could be). */
static enum sk_err draw_side(const struct battle_spec *spec, int s, struct battle_plan_data *d,
                             char *err, size_t errlen)
{
    const struct battle_side_spec *ss = &spec->sides[s];
    struct battle_side_data *sd = &d->sides[s];
    int n_forts = ss->n_fortresses, first = 0;

    if (ss->n_pools < 0 || ss->n_pools > BATTLE_POOLS_MAX || ss->upgrades < 0 ||
        ss->upgrades > BATTLE_UPGRADES_MAX) {
        snprintf(err, errlen, "side %d: pools or level-ups out of range", s);
        return SK_EINVAL;
    }
    if (ss->play != BATTLE_PLAY_RANDOM) {
        snprintf(err, errlen, "side %d: a deck drawn each game plays at random", s);
        return SK_EINVAL;
    }
    sd->draw = 1;
    sd->n_fixed = (clc_u8)ss->n_deck;
    sd->n_pools = (clc_u8)ss->n_pools;
    sd->upgrades = (clc_u16)ss->upgrades;
    for (int k = 0; k < ss->n_pools; k++) {
        const struct battle_pool_spec *ps = &ss->pools[k];
        int entries = ps->amount * ps->replicates;
        if (ps->n < 1 || ps->n > BATTLE_POOL_CARDS || ps->amount < 1 || ps->amount > ps->n ||
            ps->replicates < 1 || first + ps->n > BATTLE_SIM_POOL_CARDS ||
            entries > (ps->fort ? BATTLE_FORTRESS_MAX - n_forts : BATTLE_DECK_MAX - sd->n_seq)) {
            snprintf(err, errlen, "side %d: pool %d's size, amount or replicates out of range", s,
                     k);
            return SK_EINVAL;
        }
        for (int i = 0; i < ps->n; i++) {
            /* A fortress pool may hold structure cards, as a fortress slot may. */
            int ok = ps->fort ? card_ok(spec, ps->cards[i], BATTLE_FORTRESS, BATTLE_STRUCTURE)
                              : deck_card_ok(spec, ps->cards[i]);
            if (!ok || (ps->fort && spec->cards[ps->cards[i]].dominion)) {
                snprintf(err, errlen, "side %d: pool %d's card %d is not a %s", s, k, i,
                         ps->fort ? "fortress" : "deck card");
                return SK_EINVAL;
            }
            sd->pool_card[first + i] = (clc_u16)ps->cards[i];
        }
        sd->pool_fort[k] = (clc_u8) !!ps->fort;
        sd->pool_amount[k] = (clc_u8)ps->amount;
        sd->pool_reps[k] = (clc_u8)ps->replicates;
        sd->pool_n[k] = (clc_u8)ps->n;
        sd->pool_first[k] = (clc_u8)first;
        first += ps->n;
        if (ps->fort) {
            n_forts += entries;
            sd->pool_forts = (clc_u8)(sd->pool_forts + entries);
        } else
            for (int i = 0; i < entries; i++)
                sd->seq_card[sd->n_seq++] = (clc_u16)ps->cards[0];
    }
    sd->shuf_hi = sd->n_seq;
    return SK_OK;
}

/* A fresh game: the fortresses start as the structures, the whole deck is the sequence. */
static enum sk_err fresh_side(const struct battle_spec *spec, int s, struct battle_plan_data *d,
                              char *err, size_t errlen)
{
    const struct battle_side_spec *ss = &spec->sides[s];
    struct battle_side_data *sd = &d->sides[s];
    int order[BATTLE_FORTRESS_MAX], n = 0, dom = -1;

    /* build_side checked the count. The game plays a dominion before the fortresses, wherever the
     * job lists it. */
    for (int k = 0; k < ss->n_fortresses && dom < 0; k++)
        if (ss->fortresses[k] >= 0 && ss->fortresses[k] < spec->n_cards &&
            spec->cards[ss->fortresses[k]].dominion)
            dom = k;
    if (dom >= 0)
        order[n++] = dom;
    for (int k = 0; k < ss->n_fortresses; k++)
        if (k != dom)
            order[n++] = k;
    for (int i = 0; i < n; i++) {
        int card = ss->fortresses[order[i]];
        /* A mission or raid may start with a structure card where a fortress goes: it is
         * in play from the start as one (the codec lets only those through). */
        if (!card_ok(spec, card, BATTLE_FORTRESS, BATTLE_STRUCTURE)) {
            snprintf(err, errlen, "side %d: fortress %d is not a fortress or structure card", s,
                     order[i]);
            return SK_EINVAL;
        }
        fresh_unit(d, card, &sd->structures[i]);
        /* Barrier's Protect, as a card entering play gets it (battle_sim_enter). */
        sd->structures[i].protect = d->cards[card].barrier;
        /* Its on-play skills are cast before the first turn (battle_sim_start). */
        if (d->cards[card].trig & (1u << BATTLE_SIM_TRIG_PLAY))
            sd->structures[i].flags |= BATTLE_SIM_FRESH;
    }
    sd->n_structures = (clc_u8)ss->n_fortresses;
    /* The fortresses' order is drawn each game but with exact play; the dominion stays
     * first. */
    sd->fort_first = ss->play == BATTLE_PLAY_EXACT ? BATTLE_SIM_NONE : dom >= 0 ? 1 : 0;
    sd->n_assaults = 0;
    sd->n_seq = (clc_u8)ss->n_deck;
    for (int k = 0; k < ss->n_deck; k++)
        sd->seq_card[k] = (clc_u16)ss->deck[k];
    sd->shuf_lo = 0;
    sd->shuf_hi = ss->play == BATTLE_PLAY_EXACT ? 0 : sd->n_seq;
    sd->window =
        ss->play == BATTLE_PLAY_ORDERED || ss->play == BATTLE_PLAY_FLEX ? BATTLE_HAND_MAX : 1;
    return ss->n_pools || ss->upgrades ? draw_side(spec, s, d, err, errlen) : SK_OK;
}

/* A mid-game state: its units, then the hand and deck as the sequence. */
static enum sk_err state_side(const struct battle_spec *spec, int s, struct battle_plan_data *d,
                              char *err, size_t errlen)
{
    const struct battle_side_spec *ss = &spec->sides[s];
    const struct battle_side_state *st = &spec->state.sides[s];
    struct battle_side_data *sd = &d->sides[s];
    enum sk_err rc;

    if (st->commander_health < 1 || st->commander_health > d->cards[ss->commander].health ||
        st->n_structures < 0 || st->n_structures > BATTLE_ROW_MAX || st->n_assaults < 0 ||
        st->n_assaults > BATTLE_ROW_MAX || st->n_hand < 0 || st->n_hand > BATTLE_HAND_MAX ||
        st->n_deck < 0 || st->n_deck > BATTLE_DECK_MAX) {
        snprintf(err, errlen, "side %d: state commander health or counts out of range", s);
        return SK_EINVAL;
    }
    sd->commander_hp = (clc_i16)st->commander_health;
    for (int i = 0; i < st->n_structures; i++) {
        rc = state_unit(spec, d, &st->structures[i], BATTLE_STRUCTURE, s, &sd->structures[i], err,
                        errlen);
        if (rc)
            return rc;
        sd->init_died |= !st->structures[i].alive;
    }
    for (int i = 0; i < st->n_assaults; i++) {
        rc =
            state_unit(spec, d, &st->assaults[i], BATTLE_ASSAULT, s, &sd->assaults[i], err, errlen);
        if (rc)
            return rc;
        sd->init_died |= !st->assaults[i].alive;
    }
    sd->n_structures = (clc_u8)st->n_structures;
    sd->fort_first = BATTLE_SIM_NONE; /* the state's rows are as given */
    sd->n_assaults = (clc_u8)st->n_assaults;
    sd->n_seq = (clc_u8)(st->n_hand + st->n_deck);
    for (int k = 0; k < st->n_hand + st->n_deck; k++) {
        int card = k < st->n_hand ? st->hand[k] : st->deck[k - st->n_hand];
        if (!deck_card_ok(spec, card)) {
            snprintf(err, errlen, "side %d: hand or deck card %d is not a deck card", s, k);
            return SK_EINVAL;
        }
        sd->seq_card[k] = (clc_u16)card;
    }
    /* The hand is known; only the deck behind it is shuffled per game. */
    sd->shuf_lo = (clc_u8)st->n_hand;
    sd->shuf_hi = ss->play == BATTLE_PLAY_EXACT ? sd->shuf_lo : sd->n_seq;
    sd->window = ss->play == BATTLE_PLAY_EXACT                      ? 1
                 : ss->play != BATTLE_PLAY_RANDOM || st->n_hand > 0 ? BATTLE_HAND_MAX
                                                                    : 1;
    return SK_OK;
}

/* Level-ups (the drawing sides'): each job card's next level, in d->card_up (variants have
 * none). A chain of levels is a line: a card of the same type, at most one card before
 * each, no loop, at most BATTLE_LEVELS_MAX levels. */
static enum sk_err check_levels(const struct battle_spec *spec, struct battle_plan_data *d,
                                char *err, size_t errlen)
{
    int before[BATTLE_CARDS_MAX] = {0};

    for (int i = 0; i < BATTLE_SIM_CARDS; i++)
        d->card_up[i] = BATTLE_SIM_CARD_NONE;
    for (int i = 0; i < spec->n_cards; i++) {
        int up = spec->up[i], steps = 0;
        if (up < 0 || up > spec->n_cards || up == i + 1 ||
            (up && (spec->cards[up - 1].type != spec->cards[i].type || before[up - 1]++))) {
            snprintf(err, errlen, "card %d: its next level is out of range", i);
            return SK_EINVAL;
        }
        for (int k = i; spec->up[k] > 0 && spec->up[k] <= spec->n_cards; k = spec->up[k] - 1)
            if (++steps >= BATTLE_LEVELS_MAX) {
                snprintf(err, errlen, "card %d: its levels loop or pass %d", i, BATTLE_LEVELS_MAX);
                return SK_EINVAL;
            }
        if (up)
            d->card_up[i] = (clc_u16)(up - 1);
    }
    return SK_OK;
}

/* Checks one side and fills d->sides[s] for a fresh game or for the mid-game state. */
static enum sk_err build_side(const struct battle_spec *spec, int s, struct battle_plan_data *d,
                              char *err, size_t errlen)
{
    const struct battle_side_spec *ss = &spec->sides[s];
    const struct battle_side_state *st = spec->has_state ? &spec->state.sides[s] : NULL;
    struct battle_side_data *sd = &d->sides[s];
    int n_str, n_asl;
    enum sk_err rc;

    if (!card_ok(spec, ss->commander, BATTLE_COMMANDER, BATTLE_COMMANDER) || ss->n_fortresses < 0 ||
        ss->n_fortresses > BATTLE_FORTRESS_MAX || ss->n_deck < 0 || ss->n_deck > BATTLE_DECK_MAX ||
        (int)ss->play < 0 || ss->play > BATTLE_PLAY_FLEX || ss->effects < 0 ||
        ss->effects > spec->n_cards) {
        snprintf(err, errlen, "side %d: commander, fortresses, deck, play or effects invalid", s);
        return SK_EINVAL;
    }
    for (int k = 0; k < ss->n_deck; k++)
        if (!deck_card_ok(spec, ss->deck[k])) {
            snprintf(err, errlen, "side %d: deck card %d is not a deck card", s, k);
            return SK_EINVAL;
        }
    sd->commander = (clc_u16)ss->commander;
    sd->play = (clc_u8)ss->play;
    sd->commander_hp = d->cards[ss->commander].health;

    if (st && (ss->n_pools || ss->upgrades)) {
        snprintf(err, errlen, "side %d: a deck drawn each game cannot start from a state", s);
        return SK_EINVAL;
    }
    rc = st ? state_side(spec, s, d, err, errlen) : fresh_side(spec, s, d, err, errlen);
    if (rc)
        return rc;
    /* Every card still to play must fit in its row (a drawing side's pool entries count in
     * both rows: a game may draw either). */
    n_str = sd->n_structures;
    n_asl = sd->n_assaults;
    for (int k = 0; k < ss->n_pools && !st; k++)
        n_str += ss->pools[k].fort ? ss->pools[k].amount * ss->pools[k].replicates : 0;
    for (int e = 0; e < sd->n_seq; e++) {
        int pool = sd->draw && e >= sd->n_fixed;
        if (pool || d->cards[sd->seq_card[e]].type == BATTLE_STRUCTURE)
            n_str++;
        if (pool || d->cards[sd->seq_card[e]].type != BATTLE_STRUCTURE)
            n_asl++;
    }
    if (n_str > BATTLE_SIM_ROW || n_asl > BATTLE_SIM_ROW) {
        snprintf(err, errlen, "side %d: more than %d units could end up in one row", s,
                 BATTLE_SIM_ROW);
        return SK_EINVAL;
    }
    build_groups(ss, st, spec, sd);
    return SK_OK;
}

/* Whether the card has Mark, Corrosive, Sabotage, Tribute, Payback, Revenge or Subdue, or
 * Sunder, Enrage, Entrap or Overload among its actions: a plan with them runs the attack's and the
 * skills' copies with the rarer rules (battle_plan_data.passive), where marks add to the
 * damage, Corrosive corrodes the attacker, Sabotage takes from a caster's X, Tribute gives
 * allied skills back, Payback and Revenge hostile ones, Subdue takes gains away, Overload
 * lifts Evade, Protect and Inhibit, a
 * sundered attacker adds nothing to its power and Enrage and Entrap add to Berserk and
 * Counter, so that the plans without them keep their code as it was. */
static int card_rare(const struct battle_card_data *c)
{
    if (c->mark || c->corrosive || c->sabotage || c->tribute || c->payback || c->revenge ||
        c->subdue)
        return 1;
    for (int k = 0; k < c->n_act; k++) {
        unsigned id = c->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE;
        if (id == BATTLE_SKILL_SUNDER || id == BATTLE_SKILL_ENRAGE || id == BATTLE_SKILL_ENTRAP ||
            id == BATTLE_SKILL_OVERLOAD)
            return 1;
    }
    return 0;
}

/* The BATTLE_SIM_FX_* bits of one card. */
static clc_u8 card_fx(const struct battle_card_data *c)
{
    unsigned fx = 0;
    if (c->evade)
        fx |= BATTLE_SIM_FX_EVADE;
    if (c->barrier || c->bravery || c->valor || c->absorb || c->summon_act)
        fx |= BATTLE_SIM_FX_TICK;
    if (c->refresh)
        fx |= BATTLE_SIM_FX_REFRESH;
    if (c->barrier)
        fx |= BATTLE_SIM_FX_BARRIER;
    if (c->allegiance)
        fx |= BATTLE_SIM_FX_ALLY;
    if (c->inhibit)
        fx |= BATTLE_SIM_FX_INHIBIT;
    if (c->absorb)
        fx |= BATTLE_SIM_FX_ABSORB;
    for (int k = 0; k < c->n_act; k++)
        if (c->act_id[k] == BATTLE_SKILL_ENHANCE && !c->act_trig[k])
            fx |= BATTLE_SIM_FX_TICK; /* cast at turn start (battle_sim_tick) */
    return (clc_u8)fx;
}

/* Folds what card `c` needs of the plan-wide flags into `d`: its BATTLE_SIM_FX_* bits,
 * death_fx for Scavenge and Avenge, passive for the rarer skills (card_rare), rare's bits. */
static void fold_card_flags(struct battle_plan_data *d, const struct battle_card_data *c)
{
    d->fx = (clc_u8)(d->fx | card_fx(c));
    if (c->scavenge)
        d->death_fx = (clc_u8)(d->death_fx | BATTLE_SIM_DEATH_SCAVENGE);
    if (c->avenge)
        d->death_fx = (clc_u8)(d->death_fx | BATTLE_SIM_DEATH_AVENGE);
    if (card_rare(c))
        d->passive = (clc_u8)(d->passive | BATTLE_SIM_PV_RARE);
    if (c->sabotage || c->disease)
        d->rare = (clc_u8)(d->rare | BATTLE_SIM_RARE_SABOTAGE);
    if (c->stasis)
        d->rare = (clc_u8)(d->rare | BATTLE_SIM_RARE_STASIS);
}

/* The plan-wide flags of every card of the table (in a plan that makes its variants during
 * play, of every skill an Evolve can give too: the variants it will make), then the marks. */
static void fold_table(struct battle_plan_data *d)
{
    for (int i = 0; i < d->n_cards; i++)
        fold_card_flags(d, &d->cards[i]);
    for (int m = 0; d->lazy && m < d->n_mods; m++)
        if (d->mod_kind[m] == BATTLE_SKILL_EVOLVE) {
            struct battle_card_data c = battle_mods_skill_card((enum battle_skill)d->mod_s2[m]);
            fold_card_flags(d, &c);
        }
    for (int i = 0; i < d->n_cards; i++)
        battle_rules_mark_card(d, &d->cards[i]);
}

/* Folds what passive battleground effect `k`, set on a side, needs of the plan-wide flags
 * into `d`. */
static void fold_passive_flags(struct battle_plan_data *d, int k)
{
    d->passive = (clc_u8)(d->passive | BATTLE_SIM_PV_EFFECTS);
    d->passive_on |= 1u << k;
    /* Revenge and Virulence act on every death (battle_sim_revenge, _virulence). */
    if (k == BATTLE_PASSIVE_REVENGE || k == BATTLE_PASSIVE_VIRULENCE)
        d->death_fx = (clc_u8)(d->death_fx | BATTLE_SIM_DEATH_PASSIVE);
    /* Temporal Backlash gives Stasis to Counter (battle_sim_stasis). */
    if (k == BATTLE_PASSIVE_TEMPORALBACKLASH)
        d->rare = (clc_u8)(d->rare | BATTLE_SIM_RARE_STASIS);
    /* Crackdown refreshes through Subdue at the turn's end (battle_sim_turn). */
    if (k == BATTLE_PASSIVE_CRACKDOWN)
        d->fx = (clc_u8)(d->fx | BATTLE_SIM_FX_REFRESH);
}

enum sk_err battle_plan_new(const struct battle_spec *spec, struct battle_plan **out, char *err,
                            size_t errlen)
{
    struct battle_plan *plan = NULL;
    enum sk_err rc = SK_OK;

    if (spec->n_cards < 1 || spec->n_cards > BATTLE_CARDS_MAX || !spec->cards ||
        spec->turn_limit < 1 || spec->turn_limit > BATTLE_TURN_LIMIT_MAX ||
        ((int)spec->mode != BATTLE_MODE_FIGHT && (int)spec->mode != BATTLE_MODE_SURGE) ||
        (int)spec->scoring < 0 || (int)spec->scoring >= BATTLE_SCORING__COUNT ||
        (spec->has_state && (spec->state.turn < 1 || spec->state.turn > spec->turn_limit))) {
        snprintf(err, errlen, "cards, turn limit, mode, scoring or state turn out of range");
        rc = SK_EINVAL;
        goto out;
    }
    plan = sk_calloc(1, sizeof(*plan));
    if (!plan) {
        rc = SK_ENOMEM;
        goto out;
    }
    plan->seed = spec->seed;
    plan->games = spec->games;
    plan->id = atomic_fetch_add(&plan_ids, 1) + 1;
    plan->data.mode = (clc_u8)spec->mode;
    plan->data.scoring = (clc_u8)spec->scoring;
    plan->data.turn_limit = (clc_u8)spec->turn_limit;
    plan->data.first_turn = (clc_u8)(spec->has_state ? spec->state.turn : 1);
    plan->data.n_cards = (clc_u16)spec->n_cards;
    plan->data.work_limit = BATTLE_SIM_WORK_LIMIT;
    for (int i = 0; i < spec->n_cards; i++) {
        rc = build_card(&spec->cards[i], i, spec->n_cards, &plan->data.cards[i], err, errlen);
        if (rc)
            goto out;
    }
    rc = check_levels(spec, &plan->data, err, errlen);
    if (rc)
        goto out;
    /* The variants Enhance and Evolve make join the table; the flags cover them too. */
    rc = battle_mods_build(spec, &plan->data, err, errlen);
    if (rc)
        goto out;
    fold_table(&plan->data);
    for (int s = 0; s < 2; s++) {
        rc = build_side(spec, s, &plan->data, err, errlen);
        if (rc)
            goto out;
        if (spec->sides[s].play == BATTLE_PLAY_FLEX)
            plan->data.fx = (clc_u8)(plan->data.fx | BATTLE_SIM_FX_FLEX);
        plan->data.sides[s].effects = (clc_u16)spec->sides[s].effects;
        for (int k = 0; k < BATTLE_PASSIVE__COUNT; k++) {
            int v = spec->sides[s].passive[k];
            if (v < 0 || v > BATTLE_PASSIVE_X_MAX) {
                snprintf(err, errlen, "side %d: passive battleground effect %d value %d invalid", s,
                         k, v);
                rc = SK_EINVAL;
                goto out;
            }
            plan->data.sides[s].passive[k] = (clc_i16)v;
            if (v)
                fold_passive_flags(&plan->data, k);
        }
        /* Campaign scoring does not count a lost dominion (battle_sim_points). */
        for (int i = 0; i < plan->data.sides[s].n_structures; i++) {
            int card = plan->data.sides[s].structures[i].card;
            if (spec->cards[card].dominion)
                plan->data.sides[s].dominion = (clc_u16)(card + 1);
        }
    }
    *out = plan;
    plan = NULL;
out:
    battle_plan_free(plan);
    return rc;
}

void battle_plan_free(struct battle_plan *plan)
{
    sk_free(plan);
}

void battle_plan_set_work_limit(struct battle_plan *plan, uint32_t limit)
{
    plan->data.work_limit = limit > 0 ? limit : 1;
    plan->id = atomic_fetch_add(&plan_ids, 1) + 1; /* the threads' copies are stale */
}

int battle_plan_lazy(const struct battle_plan *plan)
{
    return plan->data.lazy;
}

const struct battle_plan_data *battle_plan_game_data(const struct battle_plan *plan)
{
    struct lazy_copies *lc;
    unsigned i;

    if (!plan->data.lazy)
        return &plan->data;
    pthread_once(&lazy_once, lazy_key_make);
    if (!lazy_key_ok)
        return NULL;
    lc = pthread_getspecific(lazy_key);
    if (!lc) {
        lc = sk_calloc(1, sizeof(*lc));
        if (!lc || pthread_setspecific(lazy_key, lc) != 0) {
            sk_free(lc);
            return NULL;
        }
    }
    for (i = 0; i < LAZY_COPIES && lc->id[i] != plan->id; i++)
        ;
    if (i == LAZY_COPIES) {
        i = lc->next;
        lc->next = (lc->next + 1) % LAZY_COPIES;
    } else if (lc->data[i].lazy == 1 && lc->data[i].n_cards <= BATTLE_SIM_CARDS - LAZY_MARGIN) {
        return &lc->data[i];
    }
    /* A fresh copy: the variants are remade as games need them, the same whatever the
     * copy's history, so the games' results do not depend on it. */
    memcpy(&lc->data[i], &plan->data, sizeof(plan->data));
    lc->id[i] = plan->id;
    return &lc->data[i];
}

const struct battle_plan_data *battle_plan_data(const struct battle_plan *plan)
{
    return &plan->data;
}

size_t battle_plan_data_size(void)
{
    return sizeof(struct battle_plan_data);
}

uint64_t battle_plan_seed(const struct battle_plan *plan)
{
    return plan->seed;
}

uint64_t battle_plan_games(const struct battle_plan *plan)
{
    return plan->games;
}

void battle_counts_add(struct battle_counts *acc, const struct battle_counts *c)
{
    acc->games += c->games;
    acc->wins += c->wins;
    acc->stalls += c->stalls;
    acc->losses += c->losses;
    acc->bounded += c->bounded;
    acc->turns_sum += c->turns_sum;
    acc->points_sum += c->points_sum;
    acc->points_sq += c->points_sq;
    for (int t = 0; t <= BATTLE_TURN_LIMIT_MAX; t++)
        acc->turns[t] += c->turns[t];
}
