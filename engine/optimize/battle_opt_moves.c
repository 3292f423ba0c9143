/* SPDX-License-Identifier: MIT */
/* The optimiser's moves (see battle_opt_moves.h): which apply to a deck under the job's
 * constraints, drawing one at random, and applying it. */
#include "battle_opt_moves.h"

#include <string.h>

#include "battle_opt_fund.h"

#include "sk_banned.h"

const char *battle_opt_move_name(enum opt_move_type t)
{
    static const char *const names[OPT_MOVE__COUNT] = {"swap", "add", "remove", "commander",
                                                       "reorder"};
    return names[t];
}

/* 1 when the card at `pos` may leave the deck: past the frozen positions, and a kept card
 * only while the deck holds more copies than it must keep. */
static int removable(const struct opt_job *job, const struct opt_deck *d, int pos)
{
    int c = d->cards[pos];
    return pos >= job->freeze_first && battle_opt_copies(d, c) - 1 >= job->cards[c].keep;
}

/* 1 when one more copy of deck card `c` may join `d`. */
static int addable(const struct opt_job *job, const struct opt_deck *d, int c)
{
    return job->cards[c].type != BATTLE_COMMANDER &&
           battle_opt_copies(d, c) < battle_opt_limit(job, c);
}

/* 1 when the deck `d` becomes after swapping position `pos` for card `c` (pos < 0: adding
 * `c`; c < 0 with pos < 0: no deck card, the commander `cmd` instead) is one the job's fund
 * builds from the owned cards; always 1 without a fund. Removing and moving cards never
 * costs more, so only the moves that bring a card in ask. */
static int fund_after(const struct opt_job *job, const struct opt_deck *d, int pos, int c, int cmd)
{
    struct opt_deck next;

    if (job->fund <= 0)
        return 1;
    next = *d;
    if (cmd >= 0)
        next.commander = cmd;
    else if (pos >= 0)
        next.cards[pos] = c;
    else if (next.n < BATTLE_DECK_MAX)
        next.cards[next.n++] = c;
    else
        return 0;
    return battle_opt_fund_fits(job, &next);
}

/* With a fund, the card a move brings in for the drawn card `c` (the peer's adjust_deck):
 * its unit's highest level the table holds, taken down a level at a time while the deck
 * the move makes (fund_after's arguments) is not built within the fund. So the search tries
 * each card at the best level it can pay for, as the peer does; without a fund, `c`. */
static int lift(const struct opt_job *job, const struct opt_deck *d, int pos, int c, int commander)
{
    if (job->fund <= 0 || c < 0 || job->cards[c].id <= 0)
        return c;
    while (job->cards[c].up)
        c = job->cards[c].up - 1;
    while (job->cards[c].down && !fund_after(job, d, pos, commander ? -1 : c, commander ? c : -1))
        c = job->cards[c].down - 1;
    return c;
}

/* The move types the job's algorithm and play allow, into types[]; returns how many. */
static int move_types(const struct opt_job *job, enum opt_move_type types[OPT_MOVE__COUNT])
{
    int n = 0;

    if (job->algorithm != OPT_ALG_REORDER) {
        types[n++] = OPT_MOVE_SWAP;
        types[n++] = OPT_MOVE_ADD;
        types[n++] = OPT_MOVE_REMOVE;
        if (job->commander_owned)
            types[n++] = OPT_MOVE_COMMANDER;
    }
    if (job->play != BATTLE_PLAY_RANDOM)
        types[n++] = OPT_MOVE_REORDER;
    return n;
}

/* 1 when move type `t` has an instance for `d` (an exhaustive check). */
static int type_applies(const struct opt_job *job, const struct opt_deck *d, enum opt_move_type t)
{
    int any_add = 0, any_remove = 0;

    for (int c = 0; c < job->n_cards && !any_add; c++)
        any_add = addable(job, d, c) && fund_after(job, d, -1, c, -1);
    for (int p = 0; p < d->n && !any_remove; p++)
        any_remove = removable(job, d, p);
    switch (t) {
    case OPT_MOVE_SWAP:
        /* a card out and another in: the one going out is not counted against the limit */
        for (int p = 0; p < d->n; p++)
            for (int c = 0; removable(job, d, p) && c < job->n_cards; c++)
                if (c != d->cards[p] && addable(job, d, c) && fund_after(job, d, p, c, -1))
                    return 1;
        return 0;
    case OPT_MOVE_ADD:
        return d->n < job->size_max && any_add;
    case OPT_MOVE_REMOVE:
        return d->n > job->size_min && any_remove;
    case OPT_MOVE_COMMANDER:
        for (int c = 0; c < job->n_cards; c++)
            if (c != d->commander && job->cards[c].type == BATTLE_COMMANDER &&
                fund_after(job, d, -1, -1, c))
                return 1;
        return 0;
    case OPT_MOVE_REORDER:
        for (int p = job->freeze_first; p < d->n; p++)
            for (int q = job->freeze_first; q < d->n; q++)
                if (d->cards[p] != d->cards[q])
                    return 1;
        return 0;
    default:
        return 0;
    }
}

int battle_opt_any_move(const struct opt_job *job, const struct opt_deck *d)
{
    enum opt_move_type types[OPT_MOVE__COUNT];
    int n = move_types(job, types);

    for (int i = 0; i < n; i++)
        if (type_applies(job, d, types[i]))
            return 1;
    return 0;
}

void battle_opt_apply(const struct opt_deck *d, const struct opt_move *m, struct opt_deck *out)
{
    int c;

    *out = *d;
    switch (m->type) {
    case OPT_MOVE_SWAP:
        out->cards[m->pos] = m->card;
        break;
    case OPT_MOVE_ADD:
        memmove(&out->cards[m->pos + 1], &out->cards[m->pos],
                (size_t)(out->n - m->pos) * sizeof(out->cards[0]));
        out->cards[m->pos] = m->card;
        out->n++;
        break;
    case OPT_MOVE_REMOVE:
        memmove(&out->cards[m->pos], &out->cards[m->pos + 1],
                (size_t)(out->n - m->pos - 1) * sizeof(out->cards[0]));
        out->n--;
        break;
    case OPT_MOVE_COMMANDER:
        out->commander = m->card;
        break;
    case OPT_MOVE_REORDER:
        c = out->cards[m->pos];
        memmove(&out->cards[m->pos], &out->cards[m->pos + 1],
                (size_t)(out->n - m->pos - 1) * sizeof(out->cards[0]));
        memmove(&out->cards[m->to + 1], &out->cards[m->to],
                (size_t)(out->n - 1 - m->to) * sizeof(out->cards[0]));
        out->cards[m->to] = c;
        break;
    default:
        break;
    }
}

/* ===== Sweeps ===== */

/* 1 when drawn card `c` is the one number of its card in a sweep: with a fund a move takes
 * a card at the highest level the fund pays for (lift), so every level of a unit names the
 * same move, and only the top one counts; without a fund every card counts. */
static int level_named(const struct opt_job *job, int c)
{
    return job->fund <= 0 || job->cards[c].id <= 0 || !job->cards[c].up;
}

/* 1 when position `pos` of a deck played at random holds a card an earlier free position
 * holds too: the deck a swap or removal there makes, the earlier one makes already. */
static int copy_before(const struct opt_job *job, const struct opt_deck *d, int pos)
{
    if (job->play != BATTLE_PLAY_RANDOM)
        return 0;
    for (int q = job->freeze_first; q < pos; q++)
        if (d->cards[q] == d->cards[pos])
            return 1;
    return 0;
}

/* The move numbers of `d`, by type: swaps (free positions x cards), adds (places x cards:
 * the end alone for a deck played at random), removes (free positions), commanders (cards),
 * reorders (free positions x free positions); a type the job's algorithm and play do not
 * have, none. */
static void layout_of(const struct opt_job *job, const struct opt_deck *d,
                      uint64_t len[OPT_MOVE__COUNT])
{
    enum opt_move_type types[OPT_MOVE__COUNT];
    int nt = move_types(job, types);
    uint64_t free_n = d->n > job->freeze_first ? (uint64_t)(d->n - job->freeze_first) : 0;
    uint64_t cards = (uint64_t)job->n_cards;
    uint64_t places = job->play == BATTLE_PLAY_RANDOM ? 1 : free_n + 1;

    memset(len, 0, OPT_MOVE__COUNT * sizeof(len[0]));
    for (int i = 0; i < nt; i++)
        switch (types[i]) {
        case OPT_MOVE_SWAP:
            len[OPT_MOVE_SWAP] = free_n * cards;
            break;
        case OPT_MOVE_ADD:
            len[OPT_MOVE_ADD] = places * cards;
            break;
        case OPT_MOVE_REMOVE:
            len[OPT_MOVE_REMOVE] = free_n;
            break;
        case OPT_MOVE_COMMANDER:
            len[OPT_MOVE_COMMANDER] = cards;
            break;
        case OPT_MOVE_REORDER:
            len[OPT_MOVE_REORDER] = free_n * free_n;
            break;
        default:
            break;
        }
}

static uint64_t layout_total(const uint64_t len[OPT_MOVE__COUNT])
{
    uint64_t n = 0;

    for (int t = 0; t < OPT_MOVE__COUNT; t++)
        n += len[t];
    return n;
}

/* Fills `m` with the move numbered `x` (< the layout's total) of `d`; 1 when it is a move
 * the constraints allow and the first number of its deck (level_named, copy_before). */
static int move_at(const struct opt_job *job, const struct opt_deck *d,
                   const uint64_t len[OPT_MOVE__COUNT], uint64_t x, struct opt_move *m)
{
    uint64_t cards = (uint64_t)job->n_cards, free_n = (uint64_t)(d->n - job->freeze_first);
    int t = 0;

    while (x >= len[t])
        x -= len[t++];
    memset(m, 0, sizeof(*m));
    m->type = t;
    switch (t) {
    case OPT_MOVE_SWAP:
        m->pos = job->freeze_first + (int)(x / cards);
        m->old = d->cards[m->pos];
        if (!level_named(job, (int)(x % cards)) || copy_before(job, d, m->pos))
            return 0;
        m->card = lift(job, d, m->pos, (int)(x % cards), 0);
        return m->card != m->old && removable(job, d, m->pos) && addable(job, d, m->card) &&
               fund_after(job, d, m->pos, m->card, -1);
    case OPT_MOVE_ADD:
        if (d->n >= job->size_max || !level_named(job, (int)(x % cards)))
            return 0;
        m->pos = job->play == BATTLE_PLAY_RANDOM ? d->n : job->freeze_first + (int)(x / cards);
        m->card = lift(job, d, -1, (int)(x % cards), 0);
        m->old = -1;
        return addable(job, d, m->card) && fund_after(job, d, -1, m->card, -1);
    case OPT_MOVE_REMOVE:
        m->pos = job->freeze_first + (int)x;
        m->old = d->cards[m->pos];
        m->card = -1;
        return d->n > job->size_min && !copy_before(job, d, m->pos) && removable(job, d, m->pos);
    case OPT_MOVE_COMMANDER:
        m->old = d->commander;
        if (!level_named(job, (int)x))
            return 0;
        m->card = lift(job, d, -1, (int)x, 1);
        return m->card != d->commander && job->cards[m->card].type == BATTLE_COMMANDER &&
               fund_after(job, d, -1, -1, m->card);
    case OPT_MOVE_REORDER:
        m->pos = job->freeze_first + (int)(x / free_n);
        m->to = job->freeze_first + (int)(x % free_n);
        m->card = d->cards[m->pos];
        m->old = d->cards[m->to];
        /* moving a card past copies of itself only leaves the deck as it was */
        return m->pos != m->to && m->card != m->old;
    default:
        return 0;
    }
}

/* A 32-bit mixing function (a round of the network). */
static uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* The sweep's permutation of 0 .. 2^bits - 1: four Feistel rounds on two halves of
 * bits / 2 bits each (a bijection whatever the round function). */
static uint64_t permute(const struct opt_sweep *s, uint64_t x)
{
    int h = s->bits / 2;
    uint64_t mask = (1ULL << h) - 1, l = x >> h, r = x & mask;

    for (int i = 0; i < 4; i++) {
        uint64_t t = l ^ ((uint64_t)mix32((uint32_t)r ^ s->key[i]) & mask);
        l = r;
        r = t;
    }
    return (l << h) | r;
}

void battle_opt_sweep_start(const struct opt_job *job, const struct opt_deck *d, struct rng *r,
                            struct opt_sweep *s)
{
    uint64_t len[OPT_MOVE__COUNT];

    layout_of(job, d, len);
    memset(s, 0, sizeof(*s));
    s->n = layout_total(len);
    s->bits = 2;
    while (s->bits < 62 && (1ULL << s->bits) < s->n)
        s->bits += 2;
    for (int i = 0; i < 4; i++)
        s->key[i] = rng_next(r);
    s->live = s->n > 0;
}

int battle_opt_sweep_next(const struct opt_job *job, const struct opt_deck *d, struct opt_sweep *s,
                          struct opt_move *m)
{
    uint64_t len[OPT_MOVE__COUNT];

    layout_of(job, d, len);
    if (layout_total(len) != s->n) /* not the deck the sweep was started on */
        s->live = 0;
    while (s->live && s->next < (1ULL << s->bits)) {
        uint64_t x = permute(s, s->next++);
        if (x < s->n && move_at(job, d, len, x, m)) {
            s->found++;
            return 1;
        }
    }
    s->live = 0;
    return 0;
}
