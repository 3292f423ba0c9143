/* SPDX-License-Identifier: MIT */
/* Enhance and Evolve as card variants (see battle_mods.h). */
#include "battle_mods.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "battle_rules.h"
#include "battle_sim.h"
#include "battle_tu.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* The most times one change stacks on a card between two resets (a row's units). */
#define MODS_STACK_MAX BATTLE_ROW_MAX

/* One change: Enhance X of skill s, or Evolve of skill s into s2. */
struct mod {
    enum battle_skill kind; /* BATTLE_SKILL_ENHANCE or BATTLE_SKILL_EVOLVE */
    enum battle_skill s, s2;
    int x;
};

/* The levels of a card's chain (a card of no chain is a chain of one): a chain and its
 * count are one card at a time, each at one of its levels. */
#define MODS_LEVELS (BATTLE_LEVELS_MAX + 1)

/* A budget of steps for one cover check (mods_cover): past it, the check gives the bound
 * of K_m alone. The raids' chains take a few hundred at most. */
#define MODS_COVER_STEPS 20000

/* One chain of levels whose cards carry changes: how many of it a game holds at once, and
 * the changes each of its levels carries (bit m: change m), a level whose changes another
 * level's include left out (a unit of the chain at that level casts no fewer). */
struct mods_chain {
    int inst;
    int n_masks;
    uint64_t masks[MODS_LEVELS];
    uint64_t any; /* the union of the masks */
};

/* mods_cover's answers kept (mods_work.memo): slots of open addressing, filled to 3/4. */
#define MODS_MEMO 4096
/* variant's index of the table by content (mods_work.vslot): a power of 2 above the table. */
#define MODS_VSLOTS 2048
_Static_assert(MODS_VSLOTS > BATTLE_SIM_CARDS, "variant slots: the whole table and free ones");
_Static_assert(MODS_STACK_MAX < 255, "a cover check's need fits a byte");

/* The host's bookkeeping of the table while it grows: each card's base and the times each
 * change made it (0 for the job's cards). */
struct mods_work {
    struct mod mods[BATTLE_SIM_MODS];
    int n_mods;
    int stack[BATTLE_SIM_MODS]; /* K_m: battle_mods.h */
    clc_u8 count[BATTLE_SIM_CARDS][BATTLE_SIM_MODS];
    uint64_t carry[BATTLE_CARDS_MAX]; /* bit m: a job card's own Enhance or Evolve is m */
    clc_u8 on[BATTLE_CARDS_MAX];      /* bit s: the job card can be on side s (card_sides) */
    clc_u8 reach[BATTLE_SIM_MODS];    /* bit s: change m can reach side s's units (reach) */
    /* The carriers' chains (mods_cover), and for each chain i the most casts of change m
     * chains i.. can make at once: suf[i][m]. */
    struct mods_chain chains[BATTLE_CARDS_MAX];
    int n_chains;
    int suf[BATTLE_CARDS_MAX + 1][BATTLE_SIM_MODS];
    uint64_t free_mods; /* changes the cover check leaves to K_m (Evolve where Mimic is) */
    long steps;         /* left of MODS_COVER_STEPS in the current check */
    /* The cover checks made (mods_cover): slot j is memo[j * (n_mods + 1)..], the need of
     * each change, then 1 + the answer (0: a free slot). Variants of different cards with
     * the same counts ask the same checks, which were most of a plan's build. NULL when
     * not allocated: every check is made anew. Owned; mods_cover allocates it. */
    clc_u8 *memo;
    int n_memo;
    /* The table's variants by content (variant): 1 + their index, 0 for a free slot. */
    clc_u16 vslot[MODS_VSLOTS];
};

/* FNV-1a over n bytes, continuing from h. */
static uint32_t mods_hash(uint32_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

/* The offset in a card of the plan field a passive skill folds into; 0 for an activation
 * skill (no passive field is the card's first, `attack`). */
static size_t passive_offset(enum battle_skill id)
{
    switch (id) {
#define PF_ADD(field)  return offsetof(struct battle_card_data, field);
#define PF_FLAG(field) return offsetof(struct battle_card_data, field);
#define PF_ACT(field)  return 0;
#define PF_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)                    \
    case BATTLE_SKILL_##ID:                                                                        \
        PF_##FOLD(FIELD)
        BATTLE_SKILL_TABLE(PF_)
#undef PF_
#undef PF_ACT
#undef PF_FLAG
#undef PF_ADD
    default:
        return 0;
    }
}

/* The value of passive skill `s` on card `c` (its field at offset `off`): 16 bits, or 8
 * where the plan holds less (battle_rules_skill_x_max: Evade, Inhibit, Sabotage...). */
static int passive_get(const struct battle_card_data *c, enum battle_skill s, size_t off)
{
    clc_u16 v16;
    if (battle_rules_skill_x_max(s) <= BATTLE_SKILL_X_MAX)
        return ((const clc_u8 *)c)[off];
    memcpy(&v16, (const clc_u8 *)c + off, sizeof(v16));
    return v16;
}

static void passive_set(struct battle_card_data *c, enum battle_skill s, size_t off, int v)
{
    clc_u16 v16 = (clc_u16)v;
    if (battle_rules_skill_x_max(s) <= BATTLE_SKILL_X_MAX)
        ((clc_u8 *)c)[off] = (clc_u8)v;
    else
        memcpy((clc_u8 *)c + off, &v16, sizeof(v16));
}

static int has_skill(const struct battle_card_data *c, enum battle_skill s)
{
    size_t off = passive_offset(s);
    if (off)
        return passive_get(c, s, off) != 0;
    for (int k = 0; k < c->n_act; k++)
        if (c->act_id[k] == (clc_u8)s)
            return 1;
    return 0;
}

void battle_mods_turn_bit(struct battle_card_data *c, int k)
{
    unsigned id = c->act_id[k] & ~BATTLE_SIM_ACT_REFUSABLE;
    if (c->act_trig[k] || id == BATTLE_SKILL_ENHANCE || id == BATTLE_SKILL_SUMMON)
        return;
    if (battle_sim_act_cast(c, (clc_u32)k))
        c->act_turn = (clc_u8)(c->act_turn | (1u << k));
    else
        c->act_turn = (clc_u8)(c->act_turn & ~(1u << k));
}

/* a + b, or -1 when it would pass `max`, the most the skill's field holds (the peer's
 * values have no bound: a job that can get there is refused, never played with a capped
 * value). */
static int add_x(int a, int b, int max)
{
    return a + b > max ? -1 : a + b;
}

/* Makes change `m` to card `c`. Returns -1 when it does not apply (the card lacks s, or has
 * s2 already), 0 when it applies and changes nothing (Enhance of Absorb, of a flag such as
 * Wall: below), 1 when it changed the card, -2 when an Enhance would take a value past
 * what its field holds (battle_rules_skill_x_max) or an Evolve would give s2 a value past
 * its field's. The codec
 * refuses the changes this does not know (battle_tu_skill_args). */
static int apply(struct battle_card_data *c, const struct mod *m)
{
    size_t f = passive_offset(m->s), f2;
    int k;

    if (!has_skill(c, m->s))
        return -1;
    if (m->kind == BATTLE_SKILL_ENHANCE) {
        /* Absorb and Flurry count the card's value in tuo (skill_base_value); Wall and Flying
         * are flags; Summon's, Enhance's and Evolve's X say what, not how much. */
        if (m->s == BATTLE_SKILL_ABSORB || m->s == BATTLE_SKILL_FLURRY ||
            m->s == BATTLE_SKILL_WALL || m->s == BATTLE_SKILL_FLYING ||
            m->s == BATTLE_SKILL_SUMMON || m->s == BATTLE_SKILL_ENHANCE ||
            m->s == BATTLE_SKILL_EVOLVE)
            return 0;
        if (f) {
            int v = add_x(passive_get(c, m->s, f), m->x, battle_rules_skill_x_max(m->s));
            if (v < 0)
                return -2;
            passive_set(c, m->s, f, v);
            return 1;
        }
        for (k = 0; k < c->n_act; k++) {
            int v;
            if (c->act_id[k] != (clc_u8)m->s)
                continue;
            v = add_x(c->act_x[k], m->x, battle_rules_skill_x_max(m->s));
            if (v < 0)
                return -2;
            c->act_x[k] = (clc_u16)v;
            battle_mods_turn_bit(c, k);
        }
        return 1;
    }
    if (has_skill(c, m->s2))
        return -1;
    f2 = passive_offset(m->s2);
    if (f) {
        /* A passive becomes a passive with its value; one that becomes an activation skill
         * is lost (tuo casts only the card's activation skills: the new one never is). A 16-bit
         * value above BATTLE_SKILL_X_MAX cannot become an 8-bit skill's (Evade, Inhibit...):
         * -2, as an Enhance past it. */
        int v = passive_get(c, m->s, f);
        if (f2 && v > battle_rules_skill_x_max(m->s2))
            return -2;
        if (f2)
            passive_set(c, m->s2, f2, v);
        passive_set(c, m->s, f, 0);
        return 1;
    }
    for (k = 0; k < c->n_act; k++) {
        if (c->act_id[k] != (clc_u8)m->s)
            continue;
        /* An Enhance that evolves is lost the same way (tuo never casts Enhance as an
         * activation skill): its change becomes none (battle_sim_mod_ok). */
        if (m->s == BATTLE_SKILL_ENHANCE) {
            c->act_x[k] = BATTLE_SIM_NONE;
        } else {
            c->act_id[k] = (clc_u8)m->s2;
            battle_mods_turn_bit(c, k);
        }
    }
    return 1;
}

/* tuo's skill_predicate<enhance> and <evolve>: a unit takes the change even when it will not
 * act this turn if the skill works without acting: defensive skills, the instant debuffs,
 * the triggered ones but Valor (Enhance); a defensive new skill (Evolve). "Defensive" is
 * tuo's is_defensive_skill, which leaves Barrier out: an Enhance or Evolve of Barrier takes
 * only a unit that acts this turn (bench/peer_fuzz.mjs seed 1208 #385, Rhuthok Raid). */
static int works_idle(enum battle_skill s)
{
    switch (s) {
    case BATTLE_SKILL_ARMOR:
    case BATTLE_SKILL_AVENGE:
    case BATTLE_SKILL_SCAVENGE:
    case BATTLE_SKILL_CORROSIVE:
    case BATTLE_SKILL_COUNTER:
    case BATTLE_SKILL_EVADE:
    case BATTLE_SKILL_SUBDUE:
    case BATTLE_SKILL_ABSORB:
    case BATTLE_SKILL_FLYING:
    case BATTLE_SKILL_PAYBACK:
    case BATTLE_SKILL_REVENGE:
    case BATTLE_SKILL_TRIBUTE:
    case BATTLE_SKILL_REFRESH:
    case BATTLE_SKILL_WALL:
        return 1; /* defensive */
    default:
        return 0;
    }
}

static clc_u8 mod_flags(const struct mod *m)
{
    unsigned f = 0;
    if (m->kind == BATTLE_SKILL_EVOLVE)
        return (clc_u8)(works_idle(m->s2) ? BATTLE_SIM_MOD_ALWAYS : 0);
    switch (m->s) {
    case BATTLE_SKILL_INHIBIT:
    case BATTLE_SKILL_SABOTAGE:
    case BATTLE_SKILL_DISEASE: /* instant debuffs */
    case BATTLE_SKILL_FLURRY:
    case BATTLE_SKILL_SUMMON: /* triggered (tuo's is_triggered_skill, which has no Enhance),
                                 as Allegiance, Stasis and Bravery below */
        f |= BATTLE_SIM_MOD_ALWAYS;
        break;
    case BATTLE_SKILL_ALLEGIANCE:
    case BATTLE_SKILL_STASIS:
    case BATTLE_SKILL_BRAVERY:
        f |= BATTLE_SIM_MOD_ALWAYS | BATTLE_SIM_MOD_EARLY;
        break;
    case BATTLE_SKILL_ABSORB:
        f |= BATTLE_SIM_MOD_EARLY;
        break;
    default:
        break;
    }
    if (works_idle(m->s))
        f |= BATTLE_SIM_MOD_ALWAYS;
    return (clc_u8)f;
}

/* The change of skill `ss` of a card (an Enhance or Evolve), found or added. Returns its
 * index, or -1 when the table is full. */
static int mod_of(struct mods_work *w, const struct battle_skill_spec *ss)
{
    struct mod m;
    memset(&m, 0, sizeof(m));
    m.kind = ss->id;
    m.s = battle_tu_skill_engine(ss->s - 1);
    m.s2 = ss->id == BATTLE_SKILL_EVOLVE ? battle_tu_skill_engine(ss->s2 - 1) : BATTLE_SKILL__COUNT;
    m.x = ss->id == BATTLE_SKILL_ENHANCE ? ss->x : 0;
    for (int i = 0; i < w->n_mods; i++)
        if (w->mods[i].kind == m.kind && w->mods[i].s == m.s && w->mods[i].s2 == m.s2 &&
            w->mods[i].x == m.x)
            return i;
    if (w->n_mods == BATTLE_SIM_MODS)
        return -1;
    w->mods[w->n_mods] = m;
    return w->n_mods++;
}

/* One more of card `c` in `inst`; an index out of the table is left to battle_plan's checks
 * of the sides, which come after. */
static void count_one(int *inst, int n_cards, int c)
{
    if (c >= 0 && c < n_cards)
        inst[c]++;
}

/* The instances side `ss`'s pools can hold: a card listed m times is drawn at most
 * min(m, amount) times, each replicated. */
static void count_pools(int *inst, int n, const struct battle_side_spec *ss)
{
    for (int k = 0; k < ss->n_pools && k < BATTLE_POOLS_MAX; k++) {
        const struct battle_pool_spec *ps = &ss->pools[k];
        for (int i = 0; i < ps->n && i < BATTLE_POOL_CARDS; i++) {
            int before = 0;
            for (int h = 0; h < i; h++)
                before += ps->cards[h] == ps->cards[i];
            for (int r = 0; before < ps->amount && r < ps->replicates && r < BATTLE_DECK_MAX; r++)
                count_one(inst, n, ps->cards[i]);
        }
    }
}

/* A drawing side's level-ups: a card may become any of its next levels (spec->up), so
 * each of them may be as many more as the card is; `base` is scratch. */
static void count_levels(const struct battle_spec *spec, int *inst, int *base)
{
    int n = spec->n_cards;

    memcpy(base, inst, sizeof(int) * (size_t)n);
    for (int c = 0; c < n; c++)
        for (int k = c, steps = 0;
             base[c] && steps < BATTLE_LEVELS_MAX && spec->up[k] > 0 && spec->up[k] <= n; steps++) {
            k = spec->up[k] - 1;
            inst[k] = inst[k] + base[c] > MODS_STACK_MAX ? MODS_STACK_MAX : inst[k] + base[c];
        }
}

/* How many of each card the job can hold at once, an upper bound: battle_mods.h. */
static void count_cards(const struct battle_spec *spec, int *inst)
{
    int delta[BATTLE_CARDS_MAX], next[BATTLE_CARDS_MAX];
    int n = spec->n_cards;

    memset(inst, 0, sizeof(int) * (size_t)n);
    for (int s = 0; s < 2; s++) {
        const struct battle_side_spec *ss = &spec->sides[s];
        const struct battle_side_state *st = &spec->state.sides[s];
        count_one(inst, n, ss->commander);
        count_one(inst, n, ss->effects - 1);
        if (spec->has_state) {
            for (int i = 0; i < st->n_structures && i < BATTLE_ROW_MAX; i++)
                count_one(inst, n, st->structures[i].card);
            for (int i = 0; i < st->n_assaults && i < BATTLE_ROW_MAX; i++)
                count_one(inst, n, st->assaults[i].card);
            for (int i = 0; i < st->n_hand && i < BATTLE_HAND_MAX; i++)
                count_one(inst, n, st->hand[i]);
            for (int i = 0; i < st->n_deck && i < BATTLE_DECK_MAX; i++)
                count_one(inst, n, st->deck[i]);
        } else {
            for (int i = 0; i < ss->n_fortresses && i < BATTLE_FORTRESS_MAX; i++)
                count_one(inst, n, ss->fortresses[i]);
            for (int i = 0; i < ss->n_deck && i < BATTLE_DECK_MAX; i++)
                count_one(inst, n, ss->deck[i]);
            count_pools(inst, n, ss);
        }
    }
    count_levels(spec, inst, delta);
    /* Summon: one more of the card it brings per carrier, through chains of summons. */
    memcpy(delta, inst, sizeof(int) * (size_t)spec->n_cards);
    for (int round = 0; round < 4; round++) {
        memset(next, 0, sizeof(int) * (size_t)spec->n_cards);
        for (int c = 0; c < spec->n_cards; c++)
            for (int k = 0; delta[c] && k < spec->cards[c].n_skills; k++) {
                const struct battle_skill_spec *ss = &spec->cards[c].skills[k];
                if (ss->id == BATTLE_SKILL_SUMMON && ss->card >= 0 && ss->card < spec->n_cards)
                    next[ss->card] += delta[c];
            }
        for (int c = 0; c < spec->n_cards; c++) {
            inst[c] = inst[c] + next[c] > MODS_STACK_MAX ? MODS_STACK_MAX : inst[c] + next[c];
            delta[c] = next[c];
        }
    }
}

/* Adds the sides `bits` to card `c` of `on`; an index out of the table is left to
 * battle_plan's checks, as count_one's. Returns whether `on` grew. */
static int side_add(clc_u8 *on, int n_cards, int c, unsigned bits)
{
    if (c < 0 || c >= n_cards || (on[c] | bits) == on[c])
        return 0;
    on[c] = (clc_u8)(on[c] | bits);
    return 1;
}

/* The sides each job card can ever be on (bit s: side s), a superset: what count_cards
 * walks, a side's lists and its state both, then the next levels and the cards Summon brings
 * of a card on a side, until nothing grows. A unit never changes sides. */
static void card_sides(const struct battle_spec *spec, clc_u8 *on)
{
    int n = spec->n_cards, grew;

    memset(on, 0, (size_t)n);
    for (int s = 0; s < 2; s++) {
        const struct battle_side_spec *ss = &spec->sides[s];
        const struct battle_side_state *st = &spec->state.sides[s];
        unsigned bit = 1u << s;
        side_add(on, n, ss->commander, bit);
        side_add(on, n, ss->effects - 1, bit);
        for (int i = 0; i < ss->n_fortresses && i < BATTLE_FORTRESS_MAX; i++)
            side_add(on, n, ss->fortresses[i], bit);
        for (int i = 0; i < ss->n_deck && i < BATTLE_DECK_MAX; i++)
            side_add(on, n, ss->deck[i], bit);
        for (int k = 0; k < ss->n_pools && k < BATTLE_POOLS_MAX; k++)
            for (int i = 0; i < ss->pools[k].n && i < BATTLE_POOL_CARDS; i++)
                side_add(on, n, ss->pools[k].cards[i], bit);
        if (!spec->has_state)
            continue;
        for (int i = 0; i < st->n_structures && i < BATTLE_ROW_MAX; i++)
            side_add(on, n, st->structures[i].card, bit);
        for (int i = 0; i < st->n_assaults && i < BATTLE_ROW_MAX; i++)
            side_add(on, n, st->assaults[i].card, bit);
        for (int i = 0; i < st->n_hand && i < BATTLE_HAND_MAX; i++)
            side_add(on, n, st->hand[i], bit);
        for (int i = 0; i < st->n_deck && i < BATTLE_DECK_MAX; i++)
            side_add(on, n, st->deck[i], bit);
    }
    do {
        grew = 0;
        for (int c = 0; c < n; c++) {
            if (!on[c])
                continue;
            if (spec->up[c] > 0)
                grew |= side_add(on, n, spec->up[c] - 1, on[c]);
            for (int k = 0; k < spec->cards[c].n_skills; k++)
                if (spec->cards[c].skills[k].id == BATTLE_SKILL_SUMMON)
                    grew |= side_add(on, n, spec->cards[c].skills[k].card, on[c]);
        }
    } while (grew);
}

/* The other side of the sides `bits`. */
static unsigned side_swap(unsigned bits)
{
    return ((bits & 1u) << 1) | ((bits >> 1) & 1u);
}

/* The sides whose units each change can reach, a superset. Enhance and Evolve aim at the
 * caster's own assaults (they are not hostile: Payback, Revenge and a death Payback caused
 * never turn them), so a change reaches the sides of its carriers, and besides:
 * - Mimic: a side with a Mimic card casts the Evolve of an enemy assault, its change
 *   included (battle_sim_mimic); Enhance is not mimicable (battle_sim_mimicable). A card
 *   gets Mimic too from an Evolve into Mimic that reaches its side, hence the loop.
 * - Divert: a side's allied skill that Inhibit refused in its own turn goes to the other
 *   side (battle_sim_divert; cast in the other's turn, it lands on the caster's side). */
static void reach(const struct battle_spec *spec, struct mods_work *w)
{
    unsigned carriers[BATTLE_SIM_MODS], mimic = 0, divert = 0, grew;

    memset(carriers, 0, sizeof(carriers));
    for (int c = 0; c < spec->n_cards; c++) {
        for (int m = 0; m < w->n_mods; m++)
            if (w->carry[c] & (1ull << m))
                carriers[m] |= w->on[c];
        for (int k = 0; k < spec->cards[c].n_skills; k++)
            if (spec->cards[c].skills[k].id == BATTLE_SKILL_MIMIC)
                mimic |= w->on[c];
    }
    for (int s = 0; s < 2; s++)
        if (spec->sides[s].passive[BATTLE_PASSIVE_DIVERT])
            divert |= 1u << s;
    do {
        grew = 0;
        for (int m = 0; m < w->n_mods; m++) {
            unsigned cast = carriers[m], r;
            if (w->mods[m].kind == BATTLE_SKILL_EVOLVE)
                cast |= mimic & side_swap(carriers[m]);
            r = cast | side_swap(cast & divert);
            if (w->mods[m].kind == BATTLE_SKILL_EVOLVE && w->mods[m].s2 == BATTLE_SKILL_MIMIC &&
                (mimic | r) != mimic) {
                mimic |= r;
                grew = 1;
            }
            w->reach[m] = (clc_u8)r;
        }
    } while (grew);
}

/* Adds the chain whose levels carry the changes `level[0 .. n)`, `count` of it at once, to
 * the cover check's chains; a chain that carries none is left out. */
static void add_chain(struct mods_work *w, const uint64_t *level, int n, int count)
{
    struct mods_chain *ch;

    if (w->n_chains >= BATTLE_CARDS_MAX) /* a chain per job card at most: never */
        return;
    ch = &w->chains[w->n_chains];
    memset(ch, 0, sizeof(*ch));
    for (int a = 0; a < n; a++) {
        int covered = level[a] == 0;
        /* A level whose changes another level's include (the first of equal ones kept). */
        for (int b = 0; b < n && !covered; b++)
            covered =
                b != a && (level[a] & level[b]) == level[a] && (level[a] != level[b] || b < a);
        if (covered)
            continue;
        ch->masks[ch->n_masks++] = level[a];
        ch->any |= level[a];
    }
    if (ch->n_masks == 0)
        return;
    ch->inst = count;
    w->n_chains++;
}

/* Whether a card of the job has Mimic, which casts an enemy's Evolve besides its carriers. */
static int any_mimic(const struct battle_spec *spec)
{
    for (int c = 0; c < spec->n_cards; c++)
        for (int k = 0; k < spec->cards[c].n_skills; k++)
            if (spec->cards[c].skills[k].id == BATTLE_SKILL_MIMIC)
                return 1;
    return 0;
}

/* The chains of levels of the job's cards that carry changes (mods_cover), each change's
 * K_m, and the changes left to K_m alone. `inst`: count_cards. */
static void collect_chains(const struct battle_spec *spec, struct mods_work *w, const int *inst)
{
    int succ[BATTLE_CARDS_MAX], mimic;
    const uint64_t *carry = w->carry;

    /* A drawing side's card and its next levels (spec->up) are one card at a time: each
     * chain of levels counts its instances once (those of its top level, which count_cards
     * gave every level's), for each change some level of it carries. A card of no chain is
     * a chain of one. */
    memset(succ, 0, sizeof(int) * (size_t)spec->n_cards);
    for (int c = 0; c < spec->n_cards; c++)
        if (spec->up[c] > 0 && spec->up[c] <= spec->n_cards)
            succ[spec->up[c] - 1] = 1;
    for (int r = 0; r < spec->n_cards; r++) {
        uint64_t level[MODS_LEVELS];
        int top = r, n = 0, count;
        if (succ[r])
            continue;
        for (int steps = 0; steps <= BATTLE_LEVELS_MAX; steps++) {
            level[n++] = carry[top];
            if (spec->up[top] <= 0 || spec->up[top] > spec->n_cards)
                break;
            top = spec->up[top] - 1;
        }
        /* At least once: a carrier only Summon's chains bring past their count. */
        count = inst[top] > 0 ? inst[top] : 1;
        if (count > MODS_STACK_MAX)
            count = MODS_STACK_MAX;
        add_chain(w, level, n, count);
    }
    /* Mimic casts an enemy's Evolve besides the Evolve's carriers: where a unit can have
     * Mimic (a card's, or an Evolve into it), Evolve is left to K_m (it stacks once: an
     * evolved skill is gone). */
    mimic = any_mimic(spec);
    for (int m = 0; m < w->n_mods; m++)
        mimic |= w->mods[m].kind == BATTLE_SKILL_EVOLVE && w->mods[m].s2 == BATTLE_SKILL_MIMIC;
    for (int m = 0; mimic && m < w->n_mods; m++)
        if (w->mods[m].kind == BATTLE_SKILL_EVOLVE)
            w->free_mods |= 1ull << m;
    /* Divert sends each target Inhibit refused a cast of its own to the enemy row: one
     * carrier's Enhance all may land there more than once. */
    if (spec->sides[0].passive[BATTLE_PASSIVE_DIVERT] ||
        spec->sides[1].passive[BATTLE_PASSIVE_DIVERT])
        w->free_mods = ~0u;
    for (int i = w->n_chains - 1; i >= 0; i--)
        for (int m = 0; m < BATTLE_SIM_MODS; m++)
            w->suf[i][m] =
                w->suf[i + 1][m] + (w->chains[i].any & (1ull << m) ? w->chains[i].inst : 0);
    /* K_m: each chain's count once for each change some level of it carries. */
    for (int m = 0; m < BATTLE_SIM_MODS; m++)
        w->stack[m] = w->suf[0][m] < MODS_STACK_MAX ? w->suf[0][m] : MODS_STACK_MAX;
}

/* Gives each Enhance and Evolve action of the job's cards its change (its X held the
 * index of its skill in the card's spec), counts how far each change stacks, and finds the
 * sides each card can be on and each change can reach. */
static enum sk_err collect(const struct battle_spec *spec, struct battle_plan_data *d,
                           struct mods_work *w, char *err, size_t errlen)
{
    int inst[BATTLE_CARDS_MAX];
    uint64_t *carry = w->carry;

    count_cards(spec, inst);
    for (int c = 0; c < spec->n_cards; c++) {
        struct battle_card_data *cd = &d->cards[c];
        carry[c] = 0;
        for (int k = 0; k < cd->n_act; k++) {
            const struct battle_skill_spec *ss;
            int m;
            if (cd->act_id[k] != BATTLE_SKILL_ENHANCE && cd->act_id[k] != BATTLE_SKILL_EVOLVE)
                continue;
            ss = &spec->cards[c].skills[cd->act_x[k]];
            m = mod_of(w, ss);
            if (m < 0) {
                snprintf(err, errlen,
                         "the job's cards hold more than %d distinct Enhance and Evolve skills",
                         BATTLE_SIM_MODS);
                return SK_EINVAL;
            }
            cd->act_x[k] = (clc_u16)m;
            carry[c] |= 1ull << m;
        }
    }
    collect_chains(spec, w, inst);
    card_sides(spec, w->on);
    reach(spec, w);
    return SK_OK;
}

/* Whether the changes `need` (need[m] casts of change m) can all be made at once by the
 * units chains i.. can hold: `left` units of chain i still to place, each at a level of
 * masks[from..] (units of one chain are alike, so their levels are taken in order). A
 * unit's changes last until the end of the next enemy turn and its carriers cast each
 * once a turn (at the turn start, or with the battleground effects), so a unit holds at
 * most one cast of each change from each carrier on the board. */
static int cover(struct mods_work *w, int i, int left, int from, const int *need)
{
    const struct mods_chain *ch;
    int next[BATTLE_SIM_MODS], any = 0;

    for (int m = 0; m < w->n_mods; m++)
        any |= need[m] > 0;
    if (!any)
        return 1;
    if (i >= w->n_chains)
        return 0;
    if (--w->steps < 0)
        return 1; /* too long a search: K_m alone bounds it */
    ch = &w->chains[i];
    for (int m = 0; m < w->n_mods; m++)
        if (need[m] > (ch->any & (1ull << m) ? left : 0) + w->suf[i + 1][m])
            return 0;
    if (left == 0)
        return cover(w, i + 1, i + 1 < w->n_chains ? w->chains[i + 1].inst : 0, 0, need);
    for (int k = from; k < ch->n_masks; k++) {
        /* One mask: every unit of the chain at it, in one step. */
        int take = ch->n_masks == 1 ? left : 1;
        for (int m = 0; m < BATTLE_SIM_MODS; m++)
            next[m] = need[m] - (ch->masks[k] & (1ull << m) ? take : 0);
        if (cover(w, i, left - take, k, next))
            return 1;
    }
    return 0;
}

/* Whether a unit can hold the changes of count `count` and one more of change m at once
 * (cover); the changes of free_mods are left to K_m. */
static int mods_cover(struct mods_work *w, const clc_u8 *count, int m)
{
    int need[BATTLE_SIM_MODS], n = w->n_mods, answer;
    clc_u8 key[BATTLE_SIM_MODS];
    clc_u8 *slot = NULL;

    for (int k = 0; k < BATTLE_SIM_MODS; k++)
        need[k] = w->free_mods & (1ull << k) ? 0 : count[k] + (k == m);
    if (w->n_chains == 0)
        return 1;
    /* cover reads the need of the plan's n changes only: they are the check's key. */
    for (int k = 0; k < n; k++)
        key[k] = (clc_u8)need[k];
    if (!w->memo)
        w->memo = sk_calloc(MODS_MEMO, (size_t)n + 1);
    if (w->memo) {
        uint32_t j = mods_hash(2166136261u, key, (size_t)n) & (MODS_MEMO - 1);
        for (;; j = (j + 1) & (MODS_MEMO - 1)) {
            slot = &w->memo[j * ((size_t)n + 1)];
            if (!slot[n] || memcmp(slot, key, (size_t)n) == 0)
                break;
        }
        if (slot[n])
            return slot[n] - 1;
    }
    w->steps = MODS_COVER_STEPS;
    answer = cover(w, 0, w->chains[0].inst, 0, need);
    if (slot && w->n_memo < MODS_MEMO / 4 * 3) {
        memcpy(slot, key, (size_t)n);
        slot[n] = (clc_u8)(1 + answer);
        w->n_memo++;
    }
    return answer;
}

/* battle_mods_test_limit's: places for variants beside the job's cards; 0 = the table's. */
static int test_limit;

void battle_mods_test_limit(int n)
{
    test_limit = n > 0 ? n : 0;
}

/* The card that change m makes of card v: an existing one with the same content, base
 * and counts, or a new variant. Returns its index, or -1 when the table is full. */
static int variant(struct battle_plan_data *d, struct mods_work *w, int n_job, int v, int m,
                   const struct battle_card_data *made)
{
    clc_u8 count[BATTLE_SIM_MODS];
    clc_u16 base = d->card_base[v];
    uint32_t j;
    int u;

    memcpy(count, w->count[v], sizeof(count));
    count[m]++;
    /* Every card of the table comes from build_card's zeroed struct or is a copy of one, so
     * their padding bytes are equal too, and hash and compare alike. */
    j = mods_hash(mods_hash(mods_hash(2166136261u, made, sizeof(*made)), &base, sizeof(base)),
                  count, sizeof(count)) &
        (MODS_VSLOTS - 1);
    for (; w->vslot[j]; j = (j + 1) & (MODS_VSLOTS - 1)) {
        u = w->vslot[j] - 1;
        /* NOLINTNEXTLINE(bugprone-suspicious-memory-comparison) */
        if (memcmp(&d->cards[u], made, sizeof(*made)) == 0 && d->card_base[u] == base &&
            memcmp(w->count[u], count, sizeof(count)) == 0)
            return u;
    }
    if (d->n_cards >= BATTLE_SIM_CARDS || (test_limit && d->n_cards >= n_job + test_limit))
        return -1;
    u = d->n_cards++;
    d->cards[u] = *made;
    d->card_base[u] = base;
    memcpy(w->count[u], count, sizeof(count));
    w->vslot[j] = (clc_u16)(u + 1);
    return u;
}

/* Whether one of the job's cards has an Enhance or Evolve action. */
static int any_mod(const struct battle_plan_data *d, int n_job)
{
    for (int c = 0; c < n_job; c++)
        for (int k = 0; k < d->cards[c].n_act; k++)
            if (d->cards[c].act_id[k] == BATTLE_SKILL_ENHANCE ||
                d->cards[c].act_id[k] == BATTLE_SKILL_EVOLVE)
                return 1;
    return 0;
}

/* Makes the variants of plan `d`'s assault cards (battle_mods_build). Returns SK_OK,
 * SK_ERANGE when they do not fit in the table, or SK_EINVAL with the reason in `err`. */
static enum sk_err build_variants(const struct battle_spec *spec, struct battle_plan_data *d,
                                  struct mods_work *w, char *err, size_t errlen)
{
    int n_job = spec->n_cards;

    /* Every assault card, then every variant made, takes every change that can reach a
     * side its base can be on (the table grows while it is read). Enhance and Evolve aim
     * at assaults only. A change that cannot reach the card stays BATTLE_SIM_CARD_NONE: no
     * game's unit holding the card is ever its candidate, so no game reads it. */
    for (int v = 0; v < d->n_cards; v++) {
        if (d->cards[v].type != BATTLE_ASSAULT)
            continue;
        for (int m = 0; m < w->n_mods; m++) {
            struct battle_card_data made = d->cards[v];
            int r, u;
            if (!(w->on[d->card_base[v]] & w->reach[m]))
                continue;
            r = apply(&made, &w->mods[m]);
            if (r == -2 && (w->count[v][m] >= w->stack[m] || !mods_cover(w, w->count[v], m))) {
                d->mod_to[v][m] = (clc_u16)v; /* no game gets there */
                continue;
            }
            if (r == -2 && w->mods[m].kind == BATTLE_SKILL_EVOLVE) {
                snprintf(err, errlen,
                         "the job's Evolve of '%s' into '%s' can give card \"%s\" '%s' above "
                         "%d, the most the engine holds",
                         battle_rules_skill_name(w->mods[m].s),
                         battle_rules_skill_name(w->mods[m].s2), spec->cards[d->card_base[v]].name,
                         battle_rules_skill_name(w->mods[m].s2),
                         battle_rules_skill_x_max(w->mods[m].s2));
                return SK_EINVAL;
            }
            if (r == -2) {
                snprintf(err, errlen,
                         "the job's Enhance of '%s' by %d can raise card \"%s\"'s past %d, the "
                         "most the engine holds",
                         battle_rules_skill_name(w->mods[m].s), w->mods[m].x,
                         spec->cards[d->card_base[v]].name, battle_rules_skill_x_max(w->mods[m].s));
                return SK_EINVAL;
            }
            if (r < 0)
                continue;
            if (r == 0 || w->count[v][m] >= w->stack[m] || !mods_cover(w, w->count[v], m)) {
                d->mod_to[v][m] = (clc_u16)v;
                continue;
            }
            u = variant(d, w, n_job, v, m, &made);
            if (u < 0)
                return SK_ERANGE; /* made during play instead: lazy_setup */
            d->mod_to[v][m] = (clc_u16)u;
        }
    }
    return SK_OK;
}

/* Change m of plan `d` as battle_mods_lazy reads it back. */
static struct mod plan_mod(const struct battle_plan_data *d, int m)
{
    struct mod md = {.kind = (enum battle_skill)d->mod_kind[m],
                     .s = (enum battle_skill)d->mod_s[m],
                     .s2 = (enum battle_skill)d->mod_s2[m],
                     .x = d->mod_x[m]};
    return md;
}

/* What change m makes of a card whose content is `plain` (unmarked: battle_rules_mark_card)
 * and whose base can take it (`reach`): BATTLE_SIM_CARD_NONE when it does not apply,
 * `self` when it applies and changes nothing (or would pass a field's most: the unit keeps
 * its card, as past K_m), BATTLE_SIM_CARD_LAZY when it makes a variant. */
static clc_u16 lazy_entry(const struct battle_card_data *plain, const struct mod *md, int reach,
                          clc_u16 self)
{
    struct battle_card_data made;
    int r;
    if (!reach)
        return BATTLE_SIM_CARD_NONE;
    memcpy(&made, plain, sizeof(made));
    r = apply(&made, md);
    if (r == -1)
        return BATTLE_SIM_CARD_NONE;
    return r == 1 ? BATTLE_SIM_CARD_LAZY : self;
}

/* Turns plan `d`, whose variants do not fit in the table, into one whose variants are made
 * during play (battle_plan_data.lazy): the table keeps the job's cards only, each change is
 * kept with the job cards it can reach, and each job assault card's row of mod_to says
 * which changes apply (BATTLE_SIM_CARD_LAZY: made at the first game that needs it). Stacks
 * are not bounded by K_m there: a unit takes a change as often as it is cast. */
static void lazy_setup(struct battle_plan_data *d, const struct mods_work *w, int n_job)
{
    for (int c = 0; c < BATTLE_SIM_CARDS; c++) {
        for (int m = 0; m < BATTLE_SIM_MODS; m++)
            d->mod_to[c][m] = BATTLE_SIM_CARD_NONE;
        if (c >= n_job) {
            memset(&d->cards[c], 0, sizeof(d->cards[c]));
            d->card_base[c] = BATTLE_SIM_CARD_NONE;
        }
    }
    d->n_cards = (clc_u16)n_job;
    d->lazy = 1;
    for (int m = 0; m < w->n_mods; m++) {
        d->mod_kind[m] = (clc_u8)w->mods[m].kind;
        d->mod_s[m] = (clc_u8)w->mods[m].s;
        d->mod_s2[m] = (clc_u8)w->mods[m].s2;
        d->mod_x[m] = (clc_u16)w->mods[m].x;
    }
    for (int c = 0; c < n_job; c++) {
        d->mod_reach[c] = 0;
        for (int m = 0; m < w->n_mods; m++)
            if (w->on[c] & w->reach[m])
                d->mod_reach[c] |= 1ull << m;
        if (d->cards[c].type != BATTLE_ASSAULT)
            continue;
        for (int m = 0; m < w->n_mods; m++) {
            struct mod md = w->mods[m];
            d->mod_to[c][m] =
                lazy_entry(&d->cards[c], &md, (int)(d->mod_reach[c] >> m & 1u), (clc_u16)c);
        }
    }
}

clc_u16 battle_mods_lazy(const struct battle_plan_data *p, clc_u32 *work, clc_u16 card, clc_i32 m)
{
    /* The thread's own copy (battle_plan_game_data), allocated writable: the plan is const
     * to the rules only. */
    struct battle_plan_data *d = (struct battle_plan_data *)(uintptr_t)p;
    struct battle_card_data plain;
    struct mod md = plan_mod(d, m);
    clc_u16 base = d->card_base[card], u;
    int r;

    memcpy(&plain, &d->cards[card], sizeof(plain));
    battle_rules_unmark_card(&plain);
    r = apply(&plain, &md);
    if (r != 1) { /* lazy_entry said it would change the card: no game gets here */
        d->mod_to[card][m] = card;
        return card;
    }
    {
        struct battle_card_data marked;
        memcpy(&marked, &plain, sizeof(marked));
        battle_rules_mark_card(d, &marked);
        /* The same card reached another way (Enhance then Evolve, or the other way round)
         * is the same variant. Cards come from zeroed structs and are copied whole, so
         * their padding compares equal too. */
        for (u = 0; u < d->n_cards; u++)
            /* NOLINTNEXTLINE(bugprone-suspicious-memory-comparison) */
            if (d->card_base[u] == base && memcmp(&d->cards[u], &marked, sizeof(marked)) == 0)
                break;
        if (u == d->n_cards) {
            if (d->n_cards >= BATTLE_SIM_CARDS || (test_limit && d->n_cards >= test_limit)) {
                /* The game ends with the turn; the copy is marked full, and the CPU backend
                 * plays the game again on a fresh one (battle_cpu.c, play_game). */
                *work = d->work_limit;
                d->lazy = 2;
                return card;
            }
            d->n_cards++;
            memcpy(&d->cards[u], &marked, sizeof(marked));
            d->card_base[u] = base;
            d->card_up[u] = BATTLE_SIM_CARD_NONE;
            for (int k = 0; k < d->n_mods; k++) {
                struct mod mk = plan_mod(d, k);
                d->mod_to[u][k] = lazy_entry(&plain, &mk, (int)(d->mod_reach[base] >> k & 1u), u);
            }
        }
    }
    d->mod_to[card][m] = u;
    return u;
}

struct battle_card_data battle_mods_skill_card(enum battle_skill s)
{
    struct battle_card_data c;
    size_t off = passive_offset(s);
    memset(&c, 0, sizeof(c));
    c.type = BATTLE_ASSAULT;
    if (off) {
        passive_set(&c, s, off, 1);
    } else {
        c.act_id[0] = (clc_u8)s;
        c.act_x[0] = 1;
        c.n_act = 1;
    }
    return c;
}

enum sk_err battle_mods_build(const struct battle_spec *spec, struct battle_plan_data *d, char *err,
                              size_t errlen)
{
    struct mods_work *w = NULL;
    int n_job = spec->n_cards;
    enum sk_err rc = SK_OK;

    for (int c = 0; c < BATTLE_SIM_CARDS; c++) {
        for (int m = 0; m < BATTLE_SIM_MODS; m++)
            d->mod_to[c][m] = BATTLE_SIM_CARD_NONE;
        d->card_base[c] = (clc_u16)(c < n_job ? (unsigned)c : BATTLE_SIM_CARD_NONE);
    }
    if (!any_mod(d, n_job))
        goto out; /* most jobs: nothing to build */
    w = sk_calloc(1, sizeof(*w));
    if (!w) {
        rc = SK_ENOMEM;
        goto out;
    }
    rc = collect(spec, d, w, err, errlen);
    if (rc || w->n_mods == 0)
        goto out;
    d->n_mods = (clc_u8)w->n_mods;
    d->rare = (clc_u8)(d->rare | BATTLE_SIM_RARE_MOD);
    for (int m = 0; m < w->n_mods; m++)
        d->mod_flags[m] = mod_flags(&w->mods[m]);
    /* A side's battleground effects cast their Enhance with the other effects, after the
     * card played (tuo's bg_skills), not at turn start as a unit does. */
    for (int s = 0; s < 2; s++) {
        struct battle_card_data *e;
        if (!spec->sides[s].effects)
            continue;
        e = &d->cards[spec->sides[s].effects - 1];
        for (int k = 0; k < e->n_act; k++)
            if (e->act_id[k] == BATTLE_SKILL_ENHANCE && !e->act_trig[k])
                e->act_turn = (clc_u8)(e->act_turn | (1u << k));
    }
    rc = build_variants(spec, d, w, err, errlen);
    if (rc == SK_ERANGE) {
        lazy_setup(d, w, n_job);
        rc = SK_OK;
    }
out:
    if (w)
        sk_free(w->memo);
    sk_free(w);
    return rc;
}
