/* SPDX-License-Identifier: MIT */
/* Playing an optimisation's games, here or as units (see battle_opt_play.h). */
#include "battle_opt_play.h"

#include <stdio.h>
#include <string.h>

#include "battle_catalog.h"
#include "battle_codec.h"
#include "battle_cpu.h"
#include "battle_device.h"
#include "battle_plan.h"
#include "battle_pool.h"
#include "battle_sim.h"
#include "job_kind.h"
#include "sk_buf.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* A unit's bytes: "SKU2", the job's seed (u64), its cards and defender decks (u32 each),
 * the pieces (u32), then per piece its deck (commander and card count as i32, the cards'
 * indices as i32) and games (first and count, u64): all little-endian. A result's: "SKR2",
 * its items (u64: games times defender decks), then each item's code (u32, game_code),
 * game by game, defender deck by defender deck. (Version 1 results held the score alone, as
 * u16: a build of either version refuses the other's bytes, and computes the unit itself.) */
static const unsigned char unit_magic[4] = {'S', 'K', 'U', '2'};
static const unsigned char result_magic[4] = {'S', 'K', 'R', '2'};
#define RESULT_HEAD 12

void battle_opt_plans_free(struct battle_plan **plans)
{
    for (int k = 0; k < BATTLE_DEFENDERS_MAX; k++) {
        battle_plan_free(plans[k]);
        plans[k] = NULL;
    }
}

enum sk_err battle_opt_plans(const struct opt_job *job, const struct opt_deck *d,
                             struct battle_plan **plans, char *err, size_t errlen)
{
    const struct battle_catalog *cat = job->cat;
    json_t *params = json_copy(job->base);
    json_t *side = battle_opt_side_json(job, d);
    struct sk_verr_list errs;
    struct sk_jptr ptr;
    struct battle_mix mix;
    enum sk_err rc;

    memset(&mix, 0, sizeof(mix));
    sk_verr_list_init(&errs);
    sk_jptr_init(&ptr);
    rc = !params || !side || json_object_set_new(params, "attacker", side) ? SK_ENOMEM : SK_OK;
    side = NULL;
    if (!rc && !cat) {
        snprintf(err, errlen, "the optimisation has no catalog");
        rc = SK_EINTERNAL;
    }
    if (!rc)
        rc = battle_codec_decode_mix(params, job->seed, cat, &ptr, &errs, &mix);
    if (rc == SK_EINVAL)
        snprintf(err, errlen, "%s: %s", errs.n ? errs.items[0].pointer : "",
                 errs.n ? errs.items[0].message : "invalid deck");
    for (int k = 0; !rc && k < mix.n; k++)
        rc = battle_plan_new(&mix.specs[k], &plans[k], err, errlen);
    battle_codec_mix_release(&mix);
    if (rc)
        battle_opt_plans_free(plans);
    json_decref(params);
    sk_verr_list_release(&errs);
    return rc;
}

int battle_opt_deck_fits(const struct opt_job *job, const struct opt_deck *d)
{
    if (d->commander < 0 || d->commander >= job->n_cards ||
        job->cards[d->commander].type != BATTLE_COMMANDER || d->n < 0 || d->n > BATTLE_DECK_MAX)
        return 0;
    for (int i = 0; i < d->n; i++)
        if (d->cards[i] < 0 || d->cards[i] >= job->n_cards ||
            job->cards[d->cards[i]].type == BATTLE_COMMANDER)
            return 0;
    return 1;
}

/* A game's tie-break (OPT_TIE_WEIGHT), 0 .. TIE_MAX: a loss in [0, TIE_LOSS_TOP] (later
 * better), a stall TIE_STALL, a win in [TIE_WIN_LOW, TIE_MAX] (sooner better). */
#define TIE_MAX      65535U
#define TIE_LOSS_TOP 21845U
#define TIE_STALL    32768U
#define TIE_WIN_LOW  43690U

static uint32_t game_tie(const struct battle_game_result *r)
{
    uint32_t turn = r->turn; /* at most 255 */

    if (r->outcome == BATTLE_SIM_WIN)
        return TIE_WIN_LOW + (TIE_MAX - TIE_WIN_LOW) * (255U - turn) / 255U;
    if (r->outcome == BATTLE_SIM_STALL)
        return TIE_STALL;
    return TIE_LOSS_TOP * turn / 255U;
}

/* What game `r` scores, as a code: under the job's objective, in units of
 * battle_opt_score_unit (1 or 0 for a win, or stall; the points of the battle's scoring) in
 * the high 16 bits, its tie-break in the low 16. */
static uint32_t game_code(const struct opt_job *job, const struct battle_game_result *r)
{
    uint32_t score;

    if (job->objective == OPT_OBJ_POINTS)
        score = r->points;
    else
        score = r->outcome == BATTLE_SIM_WIN ||
                (job->objective == OPT_OBJ_WIN_STALL && r->outcome == BATTLE_SIM_STALL);
    return score << 16 | game_tie(r);
}

/* ===== Playing pieces of games here ===== */

/* Games [first, first + n) of one prepared deck; its items (game, defender deck) start
 * at item `at` of the call. */
struct piece {
    struct battle_plan *const *plans;
    uint64_t first, n;
    uint64_t at;
};

/* One pool task: the items of `np` pieces from item `base` on, in piece order. */
struct play_task {
    const struct opt_job *job;
    const struct piece *pieces;
    int np;
    uint64_t base;
    uint32_t *s; /* per item of the task (game_code) */
};

static void play_item(void *ctx, uint64_t item)
{
    const struct play_task *t = ctx;
    int nd = t->job->n_defenders;
    uint64_t rest = item / (uint64_t)nd;
    int k = (int)(item % (uint64_t)nd);
    int i = 0;
    struct battle_game_result r;

    while (rest >= t->pieces[i].n)
        rest -= t->pieces[i++].n;
    battle_cpu_play_one(t->pieces[i].plans[k], t->pieces[i].first + rest, &r);
    t->s[item] = game_code(t->job, &r);
}

/* Plays the pieces on the process's OpenCL device (battle_device.h), one launch per piece
 * and defender deck, scores into s[]. 1 when it did; 0 when there is no device or it
 * failed (the caller plays them on the CPU: the same scores). */
static int play_on_device(const struct opt_job *job, const struct piece *pieces, int np,
                          uint32_t *s)
{
    int nd = job->n_defenders;
    struct battle_game_result *r = NULL;
    uint64_t most = 0;
    char why[256];
    enum sk_err rc = SK_OK;

    for (int i = 0; i < np; i++)
        most = pieces[i].n > most ? pieces[i].n : most;
    if (most > UINT32_MAX || !(r = sk_malloc(most * sizeof(*r))))
        return 0;
    for (int i = 0; i < np && !rc; i++)
        for (int k = 0; k < nd && !rc; k++) {
            if (!battle_device_each(pieces[i].plans[k], pieces[i].first, (uint32_t)pieces[i].n, r,
                                    &rc, why, sizeof(why))) {
                sk_free(r);
                return 0;
            }
            for (uint64_t g = 0; !rc && g < pieces[i].n; g++)
                s[pieces[i].at - pieces[0].at + g * (uint64_t)nd + (uint64_t)k] =
                    game_code(job, &r[g]);
        }
    sk_free(r);
    return rc == SK_OK;
}

/* Plays `np` pieces, their items' scores into s[] in piece order: on the OpenCL device when
 * the process has one and they are OPT_DEVICE_ITEMS or more (a launch costs what thousands
 * of games do on a GPU), else on `pool`. Returns 1 when the device played them. */
static int play_pieces(const struct opt_job *job, struct battle_pool *pool,
                       const struct piece *pieces, int np, uint32_t *s)
{
    uint64_t items = 0;
    struct play_task t = {job, pieces, np, 0, s};

    for (int i = 0; i < np; i++)
        items += pieces[i].n * (uint64_t)job->n_defenders;
    if (items >= OPT_DEVICE_ITEMS && play_on_device(job, pieces, np, s))
        return 1;
    if (items)
        battle_pool_run(pool, items, play_item, &t);
    return 0;
}

/* ===== Units' bytes ===== */

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void add_le(struct sk_buf *b, uint64_t v, int bytes)
{
    unsigned char p[8];
    put_le(p, v, bytes);
    (void)sk_buf_add(b, p, (size_t)bytes);
}

/* A result of `items` scores s[] into `out`. */
static enum sk_err result_encode(const uint32_t *s, uint64_t items, struct sk_buf *out)
{
    unsigned char chunk[512];
    size_t n = 0;

    (void)sk_buf_add(out, result_magic, 4);
    add_le(out, items, 8);
    for (uint64_t i = 0; i < items; i++) {
        put_le(chunk + n, s[i], 4);
        n += 4;
        if (n == sizeof(chunk) || i + 1 == items) {
            (void)sk_buf_add(out, chunk, n);
            n = 0;
        }
    }
    return out->err;
}

/* Reads a result of exactly `items` scores into s[]; 0 when the bytes are not one. */
static int result_decode(const struct sk_buf *b, uint64_t items, uint32_t *s)
{
    const unsigned char *p = (const unsigned char *)b->p;

    if (b->err || !p || b->len != RESULT_HEAD + 4 * items || memcmp(p, result_magic, 4) != 0 ||
        get_le(p + 4, 8) != items)
        return 0;
    for (uint64_t i = 0; i < items; i++)
        s[i] = (uint32_t)get_le(p + RESULT_HEAD + 4 * i, 4);
    return 1;
}

/* The bytes of a unit of `np` pieces whose decks are decks[]. */
static enum sk_err unit_encode(const struct opt_job *job, const struct opt_deck *const *decks,
                               const struct piece *pieces, int np, struct sk_buf *out)
{
    (void)sk_buf_add(out, unit_magic, 4);
    add_le(out, job->seed, 8);
    add_le(out, (uint64_t)job->n_cards, 4);
    add_le(out, (uint64_t)job->n_defenders, 4);
    add_le(out, (uint64_t)np, 4);
    for (int i = 0; i < np; i++) {
        add_le(out, (uint64_t)(uint32_t)decks[i]->commander, 4);
        add_le(out, (uint64_t)(uint32_t)decks[i]->n, 4);
        for (int c = 0; c < decks[i]->n; c++)
            add_le(out, (uint64_t)(uint32_t)decks[i]->cards[c], 4);
        add_le(out, pieces[i].first, 8);
        add_le(out, pieces[i].n, 8);
    }
    return out->err;
}

/* A reader of a unit's bytes: every read checks the length left. */
struct reader {
    const unsigned char *p;
    size_t left;
    int bad;
};

static uint64_t rd(struct reader *r, int bytes)
{
    uint64_t v;
    if (r->bad || r->left < (size_t)bytes) {
        r->bad = 1;
        return 0;
    }
    v = get_le(r->p, bytes);
    r->p += bytes;
    r->left -= (size_t)bytes;
    return v;
}

/* Reads one piece's deck and games into *d and *pc; 0 when they are not a deck of the
 * job's cards and a range of its games. */
static int read_piece(struct reader *r, const struct opt_job *job, struct opt_deck *d,
                      struct piece *pc)
{
    d->commander = (int32_t)(uint32_t)rd(r, 4);
    d->n = (int32_t)(uint32_t)rd(r, 4);
    if (r->bad || d->n < 0 || d->n > BATTLE_DECK_MAX)
        return 0;
    for (int c = 0; c < d->n; c++)
        d->cards[c] = (int32_t)(uint32_t)rd(r, 4);
    pc->first = rd(r, 8);
    pc->n = rd(r, 8);
    return !r->bad && battle_opt_deck_fits(job, d) && pc->n > 0 && pc->n <= OPT_UNIT_ITEMS_MAX &&
           pc->first <= UINT64_MAX - pc->n;
}

/* ===== Units computed here (battle_opt_unit_run) ===== */

/* A unit read back: its pieces, and each piece's deck prepared (a deck repeated in a row
 * shares the plans of its first piece). */
struct unit_read {
    int np;
    uint64_t items;
    struct opt_deck *decks;
    struct piece *pieces;
    struct battle_plan *(*plans)[BATTLE_DEFENDERS_MAX];
};

static void unit_read_free(struct unit_read *u)
{
    for (int i = 0; u->plans && i < u->np; i++)
        battle_opt_plans_free(u->plans[i]);
    sk_free(u->decks);
    sk_free(u->pieces);
    sk_free(u->plans);
}

static enum sk_err unit_decode(const struct opt_job *job, const void *spec, size_t len,
                               struct unit_read *u, char *err, size_t errlen)
{
    struct reader r = {spec, len, 0};
    unsigned char magic[4] = {0};
    uint64_t np;

    if (len >= 4)
        memcpy(magic, spec, 4);
    r.p += 4;
    r.left = len >= 4 ? len - 4 : 0;
    if (memcmp(magic, unit_magic, 4) != 0 || rd(&r, 8) != job->seed ||
        rd(&r, 4) != (uint64_t)job->n_cards || rd(&r, 4) != (uint64_t)job->n_defenders) {
        snprintf(err, errlen, "the unit is not one of this job's");
        return SK_EINVAL;
    }
    np = rd(&r, 4);
    if (r.bad || np == 0 || np > OPT_SEGMENTS_MAX) {
        snprintf(err, errlen, "the unit's piece count is out of bounds");
        return SK_EINVAL;
    }
    u->decks = sk_calloc(np, sizeof(*u->decks));
    u->pieces = sk_calloc(np, sizeof(*u->pieces));
    u->plans = sk_calloc(np, sizeof(*u->plans));
    if (!u->decks || !u->pieces || !u->plans)
        return SK_ENOMEM;
    u->np = (int)np;
    for (int i = 0; i < u->np; i++) {
        if (!read_piece(&r, job, &u->decks[i], &u->pieces[i])) {
            snprintf(err, errlen, "piece %d of the unit is not a deck and games of this job", i);
            return SK_EINVAL;
        }
        u->pieces[i].at = u->items;
        u->items += u->pieces[i].n * (uint64_t)job->n_defenders;
        if (u->items > OPT_UNIT_ITEMS_MAX) {
            snprintf(err, errlen, "the unit has more than %llu games",
                     (unsigned long long)OPT_UNIT_ITEMS_MAX);
            return SK_EINVAL;
        }
    }
    if (r.left) {
        snprintf(err, errlen, "the unit has %zu bytes past its last piece", r.left);
        return SK_EINVAL;
    }
    return SK_OK;
}

enum sk_err battle_opt_unit_run(const struct opt_job *job, struct battle_pool *pool,
                                const void *spec, size_t len, struct sk_buf *out, char *err,
                                size_t errlen)
{
    struct unit_read u;
    uint32_t *s = NULL;
    enum sk_err rc;

    memset(&u, 0, sizeof(u));
    rc = unit_decode(job, spec, len, &u, err, errlen);
    for (int i = 0; !rc && i < u.np; i++) {
        if (i > 0 && memcmp(&u.decks[i], &u.decks[i - 1], sizeof(u.decks[i])) == 0) {
            u.pieces[i].plans = u.pieces[i - 1].plans;
            continue;
        }
        rc = battle_opt_plans(job, &u.decks[i], u.plans[i], err, errlen);
        u.pieces[i].plans = u.plans[i];
    }
    if (!rc && !(s = sk_malloc(u.items * sizeof(*s))))
        rc = SK_ENOMEM;
    if (!rc) {
        play_pieces(job, pool, u.pieces, u.np, s);
        rc = result_encode(s, u.items, out);
    }
    sk_free(s);
    unit_read_free(&u);
    return rc;
}

/* ===== Playing a call's segments, here or as units ===== */

/* A call cut into units: pieces in segment order, unit u being pieces [from[u], from[u+1]). */
struct spread_call {
    const struct opt_player *p;
    struct piece *pieces;
    const struct opt_deck **decks; /* per piece */
    int np;
    int *from; /* n_units + 1 */
    int n_units;
    uint32_t *s; /* every item of the call */
};

/* job_unit_fn: unit `i` played here, on the run's prepared decks. */
static enum sk_err local_unit(void *ctx, size_t i, struct sk_buf *out)
{
    struct spread_call *c = ctx;
    const struct piece *first = &c->pieces[c->from[i]];
    int np = c->from[i + 1] - c->from[i];
    uint64_t items = 0;

    for (int k = 0; k < np; k++)
        items += first[k].n * (uint64_t)c->p->job->n_defenders;
    if (play_pieces(c->p->job, c->p->pool, first, np, c->s + first->at) && c->p->device)
        *c->p->device = 1;
    return result_encode(c->s + first->at, items, out);
}

/* Cuts the segments into pieces of units of about `per` games each (the last smaller). */
static enum sk_err cut(struct spread_call *c, const struct opt_segment *segs, int nseg,
                       uint64_t per)
{
    uint64_t games = 0, in_unit = 0, at = 0;
    int cap;

    for (int i = 0; i < nseg; i++)
        games += segs[i].n;
    cap = (int)((games + per - 1) / per) + nseg;
    c->pieces = sk_calloc((size_t)cap, sizeof(*c->pieces));
    c->decks = sk_calloc((size_t)cap, sizeof(const struct opt_deck *));
    c->from = sk_calloc((size_t)cap + 1, sizeof(*c->from));
    if (!c->pieces || !c->decks || !c->from)
        return SK_ENOMEM;
    for (int i = 0; i < nseg; i++)
        for (uint64_t g = 0; g < segs[i].n;) {
            uint64_t n = segs[i].n - g < per - in_unit ? segs[i].n - g : per - in_unit;
            if (in_unit == 0)
                c->from[c->n_units++] = c->np;
            c->pieces[c->np] = (struct piece){segs[i].plans, segs[i].first + g, n, at};
            c->decks[c->np++] = segs[i].deck;
            at += n * (uint64_t)c->p->job->n_defenders;
            g += n;
            in_unit = in_unit + n == per ? 0 : in_unit + n;
        }
    c->from[c->n_units] = c->np;
    return SK_OK;
}

/* The segments' items played as units through the player's spread, into s[]. */
static enum sk_err play_spread(const struct opt_player *p, const struct opt_segment *segs, int nseg,
                               uint64_t items, uint32_t *s, char *err, size_t errlen)
{
    const struct job_spread *sp = p->spread;
    uint64_t nd = (uint64_t)p->job->n_defenders;
    uint64_t per = sp->unit_games / nd ? sp->unit_games / nd : 1;
    struct spread_call c = {p, NULL, NULL, 0, NULL, 0, s};
    struct sk_buf *specs = NULL, *res = NULL;
    uint64_t *games = NULL;
    enum sk_err rc;

    if (items / nd > per * OPT_UNITS_MAX)
        per = (items / nd + OPT_UNITS_MAX - 1) / OPT_UNITS_MAX;
    if (per * nd > OPT_UNIT_ITEMS_MAX)
        per = OPT_UNIT_ITEMS_MAX / nd;
    rc = cut(&c, segs, nseg, per);
    if (!rc) {
        specs = sk_calloc((size_t)c.n_units, sizeof(*specs));
        res = sk_calloc((size_t)c.n_units, sizeof(*res));
        games = sk_calloc((size_t)c.n_units, sizeof(*games));
        if (!specs || !res || !games)
            rc = SK_ENOMEM;
    }
    for (int u = 0; specs && res && u < c.n_units; u++) {
        sk_buf_init(&specs[u], 0);
        sk_buf_init(&res[u], 0);
        if (!rc)
            rc = unit_encode(p->job, c.decks + c.from[u], c.pieces + c.from[u],
                             c.from[u + 1] - c.from[u], &specs[u]);
        if (!rc)
            games[u] =
                (u + 1 < c.n_units ? c.pieces[c.from[u + 1]].at : items) - c.pieces[c.from[u]].at;
    }
    if (!rc)
        rc = sp->units(sp->arg, specs, games, (size_t)c.n_units, res, local_unit, &c, err, errlen);
    /* A result that does not read back (another build's, damaged in the store) is
     * computed here: a unit's scores are the same wherever they are computed. */
    for (int u = 0; !rc && u < c.n_units; u++) {
        const struct piece *first = &c.pieces[c.from[u]];
        if (!result_decode(&res[u], games[u], s + first->at)) {
            sk_buf_release(&res[u]);
            rc = local_unit(&c, (size_t)u, &res[u]);
        }
    }
    for (int u = 0; specs && res && u < c.n_units; u++) {
        sk_buf_release(&specs[u]);
        sk_buf_release(&res[u]);
    }
    sk_free(specs);
    sk_free(res);
    sk_free(games);
    sk_free(c.pieces);
    sk_free(c.decks);
    sk_free(c.from);
    return rc;
}

enum sk_err battle_opt_play(const struct opt_player *p, const struct opt_segment *segs, int nseg,
                            char *err, size_t errlen)
{
    const struct opt_job *job = p->job;
    int nd = job->n_defenders;
    uint64_t items = 0;
    uint32_t *s;
    enum sk_err rc = SK_OK;

    for (int i = 0; i < nseg; i++)
        items += segs[i].n * (uint64_t)nd;
    if (items == 0)
        return SK_OK;
    s = sk_malloc(items * sizeof(*s));
    if (!s)
        return SK_ENOMEM;
    if (p->spread && p->spread->unit_games && items >= 2 * p->spread->unit_games) {
        rc = play_spread(p, segs, nseg, items, s, err, errlen);
    } else {
        struct piece pieces[OPT_SEGMENTS_MAX];
        uint64_t at = 0;
        for (int i = 0; i < nseg; i++) {
            pieces[i] = (struct piece){segs[i].plans, segs[i].first, segs[i].n, at};
            at += segs[i].n * (uint64_t)nd;
        }
        if (play_pieces(job, p->pool, pieces, nseg, s) && p->device)
            *p->device = 1;
    }
    for (uint64_t i = 0, at = 0; !rc && i < (uint64_t)nseg; i++)
        for (uint64_t g = 0; g < segs[i].n; g++) {
            double v = 0, o = 0;
            for (int k = 0; k < nd; k++, at++) {
                double x = (double)(s[at] >> 16) * battle_opt_score_unit(job);
                o += job->weights[k] * x;
                if (segs[i].tie)
                    x += OPT_TIE_WEIGHT * (double)(s[at] & 0xffff) / TIE_MAX;
                v += job->weights[k] * x;
            }
            segs[i].out[g] = v;
            if (segs[i].obj)
                segs[i].obj[g] = o;
        }
    sk_free(s);
    return rc;
}
