/* SPDX-License-Identifier: MIT */
/* Board job codec (see board_codec.h). Decoding reports every problem it finds, each
 * with an RFC 6901 pointer, and never stops at the first. */
#include "board_codec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "board_events.h"
#include "sk_jdec.h"
#include "sk_mem.h"
#include "sk_suggest.h"

#include "sk_banned.h"

/* ---- small validated readers ---- */

/* The board's readers are the shared kit (sk_jdec.h), so its problems read as the battle
 * codecs' do; these two keep the board's int fields and required flags. */

/* Integer member in [lo, hi]; *out keeps its default when absent or invalid. */
static int get_int(struct sk_jdec *d, const json_t *obj, const char *key, int required, int lo,
                   int hi, int *out)
{
    long long v;
    int r = required ? sk_jdec_need_int(d, obj, key, lo, hi, &v)
                     : sk_jdec_get_int(d, obj, key, lo, hi, &v);
    if (r != 1)
        return 0;
    *out = (int)v;
    return 1;
}

/* Enumerated string member: *out gets parse(value) or stays. */
static int get_enum(struct sk_jdec *d, const json_t *obj, const char *key, int required,
                    int (*parse)(const char *), const char *what, int *out)
{
    return sk_jdec_get_word(d, obj, key, required, parse, what, out) == 1;
}

static int get_id(struct sk_jdec *d, const json_t *obj, const char *key, char out[BOARD_ID_MAX])
{
    const json_t *v = json_object_get(obj, key);
    if (!v) {
        sk_jdec_bad_at(d, key, "'%s' is required", key);
        return 0;
    }
    if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= BOARD_ID_MAX) {
        sk_jdec_bad_at(d, key, "'%s' must be a string of 1 to 23 bytes", key);
        return 0;
    }
    board_model_set_id(out, json_string_value(v));
    return 1;
}

/* A square [row, col] on the grid; playable unless any_square. */
static int get_square(struct sk_jdec *d, const json_t *obj, const char *key,
                      const struct board_state *st, int playable, int *r, int *c)
{
    const json_t *v = json_object_get(obj, key);
    int ok;
    if (!v) {
        sk_jdec_bad_at(d, key, "'%s' is required", key);
        return 0;
    }
    ok = json_is_array(v) && json_array_size(v) == 2 && json_is_integer(json_array_get(v, 0)) &&
         json_is_integer(json_array_get(v, 1));
    if (!ok) {
        sk_jdec_bad_at(d, key, "'%s' must be [row, column]", key);
        return 0;
    }
    {
        json_int_t rr = json_integer_value(json_array_get(v, 0));
        json_int_t cc = json_integer_value(json_array_get(v, 1));
        if (rr < 0 || cc < 0 || rr >= st->rows || cc >= st->cols) {
            sk_jdec_bad_at(d, key, "'%s' is outside the board", key);
            return 0;
        }
        if (playable && st->offmap[board_sq(st, (int)rr, (int)cc)]) {
            sk_jdec_bad_at(d, key, "'%s' is off the map", key);
            return 0;
        }
        *r = (int)rr;
        *c = (int)cc;
    }
    return 1;
}

/* ---- board ---- */

/* "off_map": "classic" (12x12 only, the default there) or a list of squares. Returns 1
 * when the classic mask applies. */
static int decode_off_map(struct sk_jdec *d, const json_t *v, struct board_state *st)
{
    size_t n = (size_t)st->rows * (size_t)st->cols, i;
    int twelve = st->rows == 12 && st->cols == 12;
    json_t *e;

    if (!v)
        return twelve;
    if (json_is_string(v) && strcmp(json_string_value(v), "classic") == 0) {
        if (!twelve)
            sk_jdec_bad_at(d, "off_map", "the %s mask needs a 12x12 board", "\"classic\"");
        return twelve;
    }
    if (!json_is_array(v)) {
        sk_jdec_bad_at(d, "off_map", "'%s' must be \"classic\" or an array of squares", "off_map");
        return 0;
    }
    if (json_array_size(v) > n) {
        sk_jdec_bad_at(d, "off_map", "'%s' lists more squares than the board has", "off_map");
        return 0;
    }
    sk_jptr_push_key(d->ptr, "off_map");
    json_array_foreach(v, i, e)
    {
        json_t *wrap = json_pack("{sO}", "at", e);
        int r, c;
        sk_jptr_push_index(d->ptr, i);
        if (wrap && get_square(d, wrap, "at", st, 0, &r, &c))
            st->offmap[board_sq(st, r, c)] = 1;
        json_decref(wrap);
        sk_jptr_pop(d->ptr);
    }
    sk_jptr_pop(d->ptr);
    return 0;
}

static void decode_squares(struct sk_jdec *d, const json_t *v, struct board_state *st)
{
    size_t i;
    json_t *e;

    sk_jptr_push_key(d->ptr, "squares");
    if (!json_is_array(v) || json_array_size(v) > (size_t)st->rows * (size_t)st->cols) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr),
                    "'squares' must be an array of at most one entry per square");
        sk_jptr_pop(d->ptr);
        return;
    }
    json_array_foreach(v, i, e)
    {
        static const char *const sk[] = {"at", "terrain", NULL};
        int r, c, t = -1;
        sk_jptr_push_index(d->ptr, i);
        if (!json_is_object(e)) {
            sk_verr_add(d->errs, sk_jptr_str(d->ptr), "a square must be an object");
        } else {
            sk_jdec_check_keys(d, e, sk);
            get_enum(d, e, "terrain", 1, board_model_terrain_parse, "terrain", &t);
            if (get_square(d, e, "at", st, 1, &r, &c) && t >= 0)
                st->terrain[board_sq(st, r, c)] = (uint8_t)t;
        }
        sk_jptr_pop(d->ptr);
    }
    sk_jptr_pop(d->ptr);
}

static void decode_structure(struct sk_jdec *d, const json_t *e, struct board_state *st)
{
    static const char *const sk[] = {"at", "type", "owner", NULL};
    int r, c, t = -1, o = BOARD_NEUTRAL;

    if (!json_is_object(e)) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "a structure must be an object");
        return;
    }
    sk_jdec_check_keys(d, e, sk);
    get_enum(d, e, "type", 1, board_model_structure_parse, "structure", &t);
    if (t == BOARD_NO_STRUCTURE) {
        sk_jdec_bad_at(d, "type", "unknown structure \"%s\"", "none");
        t = -1;
    }
    get_enum(d, e, "owner", t == BOARD_SANCTUM, board_model_player_parse, "player", &o);
    if (t == BOARD_SANCTUM && o == BOARD_NEUTRAL)
        sk_jdec_bad_at(d, "owner", "a sanctum is never %s", "neutral");
    if (get_square(d, e, "at", st, 1, &r, &c) && t > 0) {
        if (st->structure[board_sq(st, r, c)])
            sk_jdec_bad_at(d, "at", "two structures on one square%s", "");
        st->structure[board_sq(st, r, c)] = (uint8_t)t;
        st->sowner[board_sq(st, r, c)] = (uint8_t)o;
        /* a square holding a structure is always plains (SQ) */
        st->terrain[board_sq(st, r, c)] = BOARD_PLAINS;
    }
}

static void decode_structures(struct sk_jdec *d, const json_t *v, struct board_state *st)
{
    size_t i;
    json_t *e;

    sk_jptr_push_key(d->ptr, "structures");
    if (!json_is_array(v) || json_array_size(v) > (size_t)st->rows * (size_t)st->cols) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr),
                    "'structures' must be an array of at most one entry per square");
        sk_jptr_pop(d->ptr);
        return;
    }
    json_array_foreach(v, i, e)
    {
        sk_jptr_push_index(d->ptr, i);
        decode_structure(d, e, st);
        sk_jptr_pop(d->ptr);
    }
    sk_jptr_pop(d->ptr);
}

static void decode_board(struct sk_jdec *d, const json_t *b, struct board_state **out)
{
    static const char *const keys[] = {"rows",    "cols",       "off_map", "terrain",
                                       "squares", "structures", NULL};
    struct board_state *st = NULL;
    int rows = 12, cols = 12, base = BOARD_PLAINS;
    const json_t *v;

    sk_jptr_push_key(d->ptr, "board");
    if (!json_is_object(b)) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "'board' must be an object");
        goto out;
    }
    sk_jdec_check_keys(d, b, keys);
    get_int(d, b, "rows", 0, BOARD_MIN_SIDE, BOARD_MAX_SIDE, &rows);
    get_int(d, b, "cols", 0, BOARD_MIN_SIDE, BOARD_MAX_SIDE, &cols);
    get_enum(d, b, "terrain", 0, board_model_terrain_parse, "terrain", &base);
    st = board_state_new(rows, cols);
    if (!st) {
        d->errs->oom = 1;
        goto out;
    }
    st->base_terrain = (enum board_terrain)base;
    memset(st->terrain, base, (size_t)rows * (size_t)cols);
    if (decode_off_map(d, json_object_get(b, "off_map"), st))
        board_model_classic_mask(st, !json_object_get(b, "structures"));
    if ((v = json_object_get(b, "squares")))
        decode_squares(d, v, st);
    if ((v = json_object_get(b, "structures")))
        decode_structures(d, v, st);
    *out = st;
    st = NULL;
out:
    board_state_free(st);
    sk_jptr_pop(d->ptr);
}

/* ---- groups ---- */

static void class_defaults(struct board_minion *m)
{
    m->max_health = 7;
    if (m->nation == BOARD_CYCLOPS || m->nation == BOARD_GARGOYLE || m->nation == BOARD_MISFIT)
        m->max_health = 9;
    m->armor = m->hand = m->missile = 0;
    m->attacks = 1;
    switch (m->cls) {
    case BOARD_ARCHER:
        m->missile = 2;
        break;
    case BOARD_BARD:
        m->armor = 3;
        m->attacks = 0;
        break;
    default:
        m->armor = 1;
        m->hand = 2;
        break;
    }
}

static void decode_minion(struct sk_jdec *d, const json_t *e, struct board_minion *m)
{
    static const char *const keys[] = {"id",         "class", "nation", "health",
                                       "max_health", "armor", "hand",   "missile",
                                       "attacks",    "walks", "level",  NULL};
    int cls = BOARD_SWORDSMAN, nation = BOARD_NO_NATION;
    const json_t *w;

    memset(m, 0, sizeof(*m));
    m->alive = 1;
    m->victim = m->last_attacker = -1;
    if (!json_is_object(e)) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "a minion must be an object");
        return;
    }
    sk_jdec_check_keys(d, e, keys);
    get_id(d, e, "id", m->id);
    get_enum(d, e, "class", 1, board_model_class_parse, "class", &cls);
    get_enum(d, e, "nation", 0, board_model_nation_parse, "nation", &nation);
    m->cls = (enum board_class)cls;
    m->nation = (enum board_nation)nation;
    if (cls == BOARD_MONSTER && nation != BOARD_NO_NATION)
        sk_jdec_bad_at(d, "nation", "a monster has no nation%s", "");
    class_defaults(m);
    get_int(d, e, "max_health", 0, 1, 999, &m->max_health);
    m->health = m->max_health;
    if (get_int(d, e, "health", 0, 1, 999, &m->health) && m->health > m->max_health)
        sk_jdec_bad_at(d, "health", "'%s' exceeds 'max_health'", "health");
    get_int(d, e, "armor", 0, 0, 99, &m->armor);
    get_int(d, e, "hand", 0, 0, 99, &m->hand);
    get_int(d, e, "missile", 0, 0, 99, &m->missile);
    get_int(d, e, "attacks", 0, 0, 8, &m->attacks);
    get_int(d, e, "level", 0, 0, 9, &m->level);
    w = json_object_get(e, "walks");
    if (w) {
        size_t i;
        json_t *x;
        sk_jptr_push_key(d->ptr, "walks");
        if (!json_is_array(w) || json_array_size(w) > 3) {
            sk_verr_add(d->errs, sk_jptr_str(d->ptr),
                        "'walks' must be an array of \"mountain\", \"water\", \"flight\"");
        } else {
            json_array_foreach(w, i, x)
            {
                const char *s = json_is_string(x) ? json_string_value(x) : "";
                sk_jptr_push_index(d->ptr, i);
                if (strcmp(s, "mountain") == 0)
                    m->walks |= BOARD_WALK_MOUNTAIN;
                else if (strcmp(s, "water") == 0)
                    m->walks |= BOARD_WALK_WATER;
                else if (strcmp(s, "flight") == 0)
                    m->walks |= BOARD_WALK_FLIGHT;
                else
                    sk_verr_add(d->errs, sk_jptr_str(d->ptr), "unknown terrainwalk");
                sk_jptr_pop(d->ptr);
            }
        }
        sk_jptr_pop(d->ptr);
    }
}

static void decode_groups(struct sk_jdec *d, const json_t *v, struct board_state *st)
{
    size_t i;
    json_t *e;

    sk_jptr_push_key(d->ptr, "groups");
    if (!json_is_array(v) || json_array_size(v) > BOARD_MAX_GROUPS) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "'groups' must be an array of at most %d groups",
                    BOARD_MAX_GROUPS);
        goto out;
    }
    if (board_model_reserve_groups(st, (int)json_array_size(v))) {
        d->errs->oom = 1;
        goto out;
    }
    json_array_foreach(v, i, e)
    {
        static const char *const keys[] = {"id", "owner", "control", "at", "minions", NULL};
        struct board_group *g = &st->groups[st->ngroups];
        const json_t *ms;
        int owner = BOARD_RED, monsters = 0, recruits = 0;

        memset(g, 0, sizeof(*g));
        sk_jptr_push_index(d->ptr, i);
        if (!json_is_object(e)) {
            sk_verr_add(d->errs, sk_jptr_str(d->ptr), "a group must be an object");
            sk_jptr_pop(d->ptr);
            continue;
        }
        sk_jdec_check_keys(d, e, keys);
        get_id(d, e, "id", g->id);
        get_enum(d, e, "owner", 1, board_model_player_parse, "player", &owner);
        g->owner = (enum board_player)owner;
        {
            const json_t *c = json_object_get(e, "control");
            if (c && (!json_is_string(c) || (strcmp(json_string_value(c), "player") != 0 &&
                                             strcmp(json_string_value(c), "computer") != 0)))
                sk_jdec_bad_at(d, "control", "'%s' must be \"player\" or \"computer\"", "control");
            else if (c)
                g->computer = strcmp(json_string_value(c), "computer") == 0;
        }
        if (get_square(d, e, "at", st, 1, &g->row, &g->col)) {
            for (int k = 0; k < st->ngroups; k++)
                if (st->groups[k].row == g->row && st->groups[k].col == g->col)
                    sk_jdec_bad_at(d, "at", "another group already stands on this square%s", "");
        } else {
            g->row = g->col = -1;
        }
        ms = json_object_get(e, "minions");
        sk_jptr_push_key(d->ptr, "minions");
        if (!ms || !json_is_array(ms) || json_array_size(ms) < 1 ||
            json_array_size(ms) > BOARD_GROUP_MINIONS) {
            sk_verr_add(d->errs, sk_jptr_str(d->ptr),
                        "'minions' must be an array of 1 to %d minions", BOARD_GROUP_MINIONS);
        } else {
            size_t j;
            json_t *x;
            json_array_foreach(ms, j, x)
            {
                sk_jptr_push_index(d->ptr, j);
                decode_minion(d, x, &g->m[j]);
                if (g->m[j].cls == BOARD_MONSTER)
                    monsters++;
                else
                    recruits++;
                sk_jptr_pop(d->ptr);
            }
            g->n = (int)json_array_size(ms);
            if (monsters && recruits)
                sk_verr_add(d->errs, sk_jptr_str(d->ptr),
                            "recruits and monsters never share a group");
        }
        sk_jptr_pop(d->ptr);
        sk_jptr_pop(d->ptr);
        st->ngroups++;
    }
out:
    sk_jptr_pop(d->ptr);
}

/* Group ids are distinct among groups and minion ids among minions (targets name the
 * namespace: {"group": ...} or {"minion": ...}). */
static void check_ids(struct sk_jdec *d, const struct board_state *st)
{
    for (int a = 0; a < st->ngroups; a++) {
        const struct board_group *g = &st->groups[a];
        int dup = 0;
        for (int b = 0; b < a && !dup; b++)
            dup = g->id[0] && strcmp(st->groups[b].id, g->id) == 0;
        if (dup) {
            sk_jptr_push_key(d->ptr, "groups");
            sk_jptr_push_index(d->ptr, (size_t)a);
            sk_jdec_bad_at(d, "id", "duplicate group id \"%s\"", g->id);
            sk_jptr_pop(d->ptr);
            sk_jptr_pop(d->ptr);
        }
        for (int x = 0; x < g->n; x++) {
            const char *id = g->m[x].id;
            dup = 0;
            for (int b = 0; b <= a && !dup; b++) {
                const struct board_group *h = &st->groups[b];
                int lim = b < a ? h->n : x;
                for (int y = 0; y < lim && !dup; y++)
                    dup = id[0] && strcmp(h->m[y].id, id) == 0;
            }
            if (dup) {
                sk_jptr_push_key(d->ptr, "groups");
                sk_jptr_push_index(d->ptr, (size_t)a);
                sk_jptr_push_key(d->ptr, "minions");
                sk_jptr_push_index(d->ptr, (size_t)x);
                sk_jdec_bad_at(d, "id", "duplicate minion id \"%s\"", id);
                sk_jptr_pop(d->ptr);
                sk_jptr_pop(d->ptr);
                sk_jptr_pop(d->ptr);
                sk_jptr_pop(d->ptr);
            }
        }
    }
}

/* ---- spell targets ---- */

/* Decodes a target object for spell kind `kind` into the fields of a cast. `st` is the
 * initial state; `later` relaxes existence checks for ids (turns after the first). */
static void decode_target(struct sk_jdec *d, const json_t *t, enum board_target_kind kind,
                          const struct board_state *st, struct board_cast *c)
{
    static const char *const keys[] = {"minion", "group", "square", "globe", "player", NULL};
    const char *need;

    sk_jptr_push_key(d->ptr, "target");
    if (!t || !json_is_object(t)) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "'target' must be an object");
        goto out;
    }
    sk_jdec_check_keys(d, t, keys);
    need = kind == BOARD_T_INDIVIDUAL ? "minion"
           : kind == BOARD_T_GROUP    ? "group"
           : kind == BOARD_T_GLOBE    ? "globe"
           : kind == BOARD_T_PLAYER   ? "player"
                                      : "square";
    if (json_object_size(t) != 1 || !json_object_get(t, need)) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "a %s spell needs exactly {\"%s\": ...}",
                    board_model_target_name(kind), need);
        goto out;
    }
    switch (kind) {
    case BOARD_T_INDIVIDUAL: {
        int mi;
        if (get_id(d, t, "minion", c->target) && board_model_find_minion(st, c->target, &mi) < 0)
            sk_jdec_bad_at(d, "minion", "unknown minion \"%s\"", c->target);
        break;
    }
    case BOARD_T_GROUP:
        if (get_id(d, t, "group", c->target) && board_model_find_group(st, c->target) < 0) {
            int mi; /* a group created when a minion leaves its group takes the minion's id */
            if (board_model_find_minion(st, c->target, &mi) < 0)
                sk_jdec_bad_at(d, "group", "unknown group \"%s\"", c->target);
        }
        break;
    case BOARD_T_GLOBE:
        if (!json_is_true(json_object_get(t, "globe")))
            sk_jdec_bad_at(d, "globe", "'%s' must be true", "globe");
        break;
    case BOARD_T_PLAYER: {
        int p = 0;
        get_enum(d, t, "player", 1, board_model_player_parse, "player", &p);
        c->tplayer = (enum board_player)p;
        break;
    }
    default:
        get_square(d, t, "square", st, 1, &c->row, &c->col);
        break;
    }
out:
    sk_jptr_pop(d->ptr);
}

static int find_def(struct sk_jdec *d, const json_t *obj, const struct board_input *in)
{
    const json_t *v = json_object_get(obj, "spell");
    int k;
    if (!v) {
        sk_jdec_bad_at(d, "spell", "'%s' is required", "spell");
        return -1;
    }
    if (!json_is_string(v)) {
        sk_jdec_bad_at(d, "spell", "'%s' must be a spell name", "spell");
        return -1;
    }
    k = board_spells_find(in->defs, in->ndefs, json_string_value(v));
    if (k < 0) {
        /* A misspelt name gets the closest spell of the catalog as a suggestion. */
        struct sk_suggest s;
        sk_suggest_init(&s, json_string_value(v));
        for (int i = 0; i < in->ndefs; i++)
            sk_suggest_add(&s, in->defs[i].name);
        if (sk_suggest_best(&s))
            sk_jdec_bad_at(d, "spell", "unknown spell \"%s\"; did you mean \"%s\"?",
                           json_string_value(v), sk_suggest_best(&s));
        else
            sk_jdec_bad_at(d, "spell", "unknown spell \"%s\"", json_string_value(v));
    }
    return k;
}

static void decode_in_play(struct sk_jdec *d, const json_t *v, struct board_input *in)
{
    struct board_state *st = in->st;
    size_t i;
    json_t *e;

    sk_jptr_push_key(d->ptr, "spells");
    if (!json_is_array(v) || json_array_size(v) > BOARD_MAX_SPELLS) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "'spells' must be an array of at most %d",
                    BOARD_MAX_SPELLS);
        goto out;
    }
    json_array_foreach(v, i, e)
    {
        static const char *const keys[] = {"spell", "caster", "target", "turns_left", "bind", NULL};
        struct board_cast c;
        struct board_spell sp;
        int k, caster = 0, bind = -1;

        memset(&c, 0, sizeof(c));
        sk_jptr_push_index(d->ptr, i);
        if (!json_is_object(e)) {
            sk_verr_add(d->errs, sk_jptr_str(d->ptr), "a spell in play must be an object");
            sk_jptr_pop(d->ptr);
            continue;
        }
        sk_jdec_check_keys(d, e, keys);
        k = find_def(d, e, in);
        get_enum(d, e, "caster", 1, board_model_player_parse, "player", &caster);
        memset(&sp, 0, sizeof(sp));
        sp.turns_left = -1;
        sp.bind = -1;
        if (k >= 0) {
            const struct board_spell_def *def = &in->defs[k];
            decode_target(d, json_object_get(e, "target"), def->target, st, &c);
            if (def->duration == BOARD_D_INSTANT)
                sk_jdec_bad_at(d, "spell", "\"%s\" is instant and never stays in play", def->name);
            if (def->duration == BOARD_D_TEMPORARY) {
                sp.turns_left = def->turns;
                get_int(d, e, "turns_left", 0, 1, BOARD_MAX_TURNS, &sp.turns_left);
            } else if (json_object_get(e, "turns_left") &&
                       !json_is_null(json_object_get(e, "turns_left"))) {
                sk_jdec_bad_at(d, "turns_left", "'%s' is only for temporary spells", "turns_left");
            }
            for (int x = 0; x < def->neffects; x++)
                if (def->effects[x].action == BOARD_A_TERRAIN_BIND) {
                    int gi = board_model_find_group(st, c.target);
                    if (gi >= 0)
                        bind = st->terrain[board_sq(st, st->groups[gi].row, st->groups[gi].col)];
                    get_enum(d, e, "bind", 0, board_model_terrain_parse, "terrain", &bind);
                }
        }
        sp.def = k;
        sp.caster = (enum board_player)caster;
        sp.kind = k >= 0 ? in->defs[k].target : BOARD_T_GLOBE;
        memcpy(sp.target, c.target, sizeof(sp.target));
        sp.row = c.row;
        sp.col = c.col;
        sp.player = c.tplayer;
        sp.bind = bind;
        if (k >= 0 && board_model_add_spell(st, &sp) == SK_ENOMEM)
            d->errs->oom = 1;
        sk_jptr_pop(d->ptr);
    }
out:
    sk_jptr_pop(d->ptr);
}

static void decode_graveyard(struct sk_jdec *d, const json_t *v, struct board_state *st)
{
    size_t i;
    json_t *e;
    sk_jptr_push_key(d->ptr, "graveyard");
    if (!json_is_array(v) || json_array_size(v) > BOARD_MAX_GRAVEYARD) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "'graveyard' must be an array of at most %d",
                    BOARD_MAX_GRAVEYARD);
        goto out;
    }
    st->dead = sk_calloc(json_array_size(v) + 1, sizeof(*st->dead));
    if (!st->dead) {
        d->errs->oom = 1;
        goto out;
    }
    st->dcap = (int)json_array_size(v) + 1;
    json_array_foreach(v, i, e)
    {
        static const char *const keys[] = {"id", "owner", NULL};
        int o = 0;
        sk_jptr_push_index(d->ptr, i);
        if (!json_is_object(e)) {
            sk_verr_add(d->errs, sk_jptr_str(d->ptr), "a graveyard entry must be an object");
        } else {
            sk_jdec_check_keys(d, e, keys);
            get_id(d, e, "id", st->dead[st->ndead].id);
            get_enum(d, e, "owner", 1, board_model_player_parse, "player", &o);
            st->dead[st->ndead++].owner = (enum board_player)o;
        }
        sk_jptr_pop(d->ptr);
    }
out:
    sk_jptr_pop(d->ptr);
}

static void decode_state(struct sk_jdec *d, const json_t *s, struct board_input *in)
{
    static const char *const keys[] = {"board",  "initiative", "turn", "groups",
                                       "spells", "graveyard",  NULL};
    int ini = BOARD_RED, turn = 1;
    const json_t *v;

    sk_jptr_push_key(d->ptr, "state");
    if (!json_is_object(s)) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "'state' must be an object");
        goto out;
    }
    sk_jdec_check_keys(d, s, keys);
    v = json_object_get(s, "board");
    if (!v) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "'board' is required");
        goto out;
    }
    decode_board(d, v, &in->st);
    if (!in->st)
        goto out;
    in->st->defs = in->defs;
    in->st->ndefs = in->ndefs;
    if (get_enum(d, s, "initiative", 0, board_model_player_parse, "player", &ini) &&
        ini == BOARD_NEUTRAL)
        sk_jdec_bad_at(d, "initiative", "'%s' is \"red\" or \"blue\"", "initiative");
    else
        in->st->initiative = (enum board_player)ini;
    get_int(d, s, "turn", 0, 1, 100000, &turn);
    in->st->turn = turn;
    v = json_object_get(s, "groups");
    if (v)
        decode_groups(d, v, in->st);
    check_ids(d, in->st);
    v = json_object_get(s, "spells");
    if (v)
        decode_in_play(d, v, in);
    v = json_object_get(s, "graveyard");
    if (v)
        decode_graveyard(d, v, in->st);
out:
    sk_jptr_pop(d->ptr);
}

/* ---- orders and casts ---- */

static int dir_parse(const char *s)
{
    static const char *const dirs[] = {"up", "right", "down", "left"};
    for (int i = 0; i < 4; i++)
        if (strcmp(dirs[i], s) == 0)
            return i;
    return -1;
}

static void decode_orders(struct sk_jdec *d, const json_t *v, struct board_input *in)
{
    size_t i;
    json_t *e;
    const struct board_state *st = in->st;

    sk_jptr_push_key(d->ptr, "orders");
    if (!json_is_array(v) || json_array_size(v) > BOARD_MAX_ORDERS) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "'orders' must be an array of at most %d",
                    BOARD_MAX_ORDERS);
        goto out;
    }
    in->orders = sk_calloc(json_array_size(v) + 1, sizeof(*in->orders));
    if (!in->orders) {
        d->errs->oom = 1;
        goto out;
    }
    json_array_foreach(v, i, e)
    {
        static const char *const keys[] = {"group", "move", "turn", NULL};
        struct board_order *o = &in->orders[in->norders];
        int dir = 0, gi;
        sk_jptr_push_index(d->ptr, i);
        if (!json_is_object(e)) {
            sk_verr_add(d->errs, sk_jptr_str(d->ptr), "an order must be an object");
            sk_jptr_pop(d->ptr);
            continue;
        }
        sk_jdec_check_keys(d, e, keys);
        o->turn = st->turn;
        get_int(d, e, "turn", 0, st->turn, st->turn + in->turns - 1, &o->turn);
        get_enum(d, e, "move", 1, dir_parse, "direction", &dir);
        o->dir = dir;
        o->seq = (int)i;
        if (get_id(d, e, "group", o->group)) {
            gi = board_model_find_group(st, o->group);
            if (gi < 0) {
                int mi;
                if (board_model_find_minion(st, o->group, &mi) < 0)
                    sk_jdec_bad_at(d, "group", "unknown group \"%s\"", o->group);
            } else if (st->groups[gi].owner == BOARD_NEUTRAL && !st->groups[gi].computer) {
                sk_jdec_bad_at(d, "group",
                               "group \"%s\" is neutral and player-controlled: it never moves",
                               o->group);
            }
            for (int k = 0; k < in->norders; k++)
                if (in->orders[k].turn == o->turn && strcmp(in->orders[k].group, o->group) == 0)
                    sk_jdec_bad_at(d, "group", "group \"%s\" already has an order this turn",
                                   o->group);
        }
        in->norders++;
        sk_jptr_pop(d->ptr);
    }
out:
    sk_jptr_pop(d->ptr);
}

static void decode_casts(struct sk_jdec *d, const json_t *v, struct board_input *in)
{
    size_t i;
    json_t *e;

    sk_jptr_push_key(d->ptr, "casts");
    if (!json_is_array(v) || json_array_size(v) > BOARD_MAX_CASTS) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "'casts' must be an array of at most %d",
                    BOARD_MAX_CASTS);
        goto out;
    }
    in->casts = sk_calloc(json_array_size(v) + 1, sizeof(*in->casts));
    if (!in->casts) {
        d->errs->oom = 1;
        goto out;
    }
    json_array_foreach(v, i, e)
    {
        static const char *const keys[] = {"player", "spell", "target", "turn", NULL};
        struct board_cast *c = &in->casts[in->ncasts];
        int p = 0, k;
        sk_jptr_push_index(d->ptr, i);
        if (!json_is_object(e)) {
            sk_verr_add(d->errs, sk_jptr_str(d->ptr), "a cast must be an object");
            sk_jptr_pop(d->ptr);
            continue;
        }
        sk_jdec_check_keys(d, e, keys);
        if (get_enum(d, e, "player", 1, board_model_player_parse, "player", &p) &&
            p == BOARD_NEUTRAL)
            sk_jdec_bad_at(d, "player", "the %s player never casts", "neutral");
        c->player = (enum board_player)p;
        c->turn = in->st->turn;
        get_int(d, e, "turn", 0, in->st->turn, in->st->turn + in->turns - 1, &c->turn);
        k = find_def(d, e, in);
        if (k >= 0) {
            c->def = k;
            c->kind = in->defs[k].target;
            decode_target(d, json_object_get(e, "target"), c->kind, in->st, c);
        }
        in->ncasts++;
        sk_jptr_pop(d->ptr);
    }
out:
    sk_jptr_pop(d->ptr);
}

static void decode_inline(struct sk_jdec *d, const json_t *v, struct board_input *in)
{
    size_t i;
    json_t *e;

    sk_jptr_push_key(d->ptr, "spells");
    if (!json_is_array(v) || json_array_size(v) > BOARD_MAX_INLINE_DEFS ||
        in->ndefs + (int)json_array_size(v) > BOARD_MAX_DEFS) {
        sk_verr_add(d->errs, sk_jptr_str(d->ptr), "'spells' must be an array of at most %d",
                    BOARD_MAX_INLINE_DEFS);
        goto out;
    }
    json_array_foreach(v, i, e)
    {
        struct board_spell_def def;
        sk_jptr_push_index(d->ptr, i);
        if (board_spells_decode(e, d->ptr, d->errs, &def) == SK_OK) {
            if (board_spells_find(in->defs, in->ndefs, def.name) >= 0)
                sk_jdec_bad_at(d, "name", "spell \"%s\" is already defined", def.name);
            else
                in->defs[in->ndefs++] = def;
        }
        sk_jptr_pop(d->ptr);
    }
out:
    sk_jptr_pop(d->ptr);
}

enum sk_err board_codec_decode(const json_t *params, struct sk_jptr *ptr, struct sk_verr_list *errs,
                               struct board_input **out)
{
    static const char *const keys[] = {"state", "spells", "orders", "casts", "turns", NULL};
    struct board_input *in = NULL;
    struct sk_jdec d = {ptr, errs, 0};
    size_t before = errs->n;
    char msg[256];
    enum sk_err err;
    const json_t *v;

    in = sk_calloc(1, sizeof(*in));
    if (!in)
        return SK_ENOMEM;
    in->defs = sk_calloc(BOARD_MAX_DEFS, sizeof(*in->defs));
    if (!in->defs) {
        err = SK_ENOMEM;
        goto out;
    }
    msg[0] = '\0';
    err = board_spells_catalog(in->defs, BOARD_MAX_DEFS - BOARD_MAX_INLINE_DEFS, &in->ndefs, msg,
                               sizeof(msg));
    if (err) {
        sk_verr_add(errs, sk_jptr_str(ptr), "the spell catalog cannot be loaded: %s", msg);
        goto out;
    }
    in->ncatalog = in->ndefs;
    sk_jdec_check_keys(&d, params, keys);
    in->turns = 1;
    get_int(&d, params, "turns", 0, 1, BOARD_MAX_TURNS, &in->turns);
    v = json_object_get(params, "spells");
    if (v)
        decode_inline(&d, v, in);
    v = json_object_get(params, "state");
    if (!v) {
        sk_jdec_bad_at(&d, "state", "'%s' is required", "state");
    } else {
        decode_state(&d, v, in);
    }
    if (in->st) {
        in->st->defs = in->defs;
        in->st->ndefs = in->ndefs;
        v = json_object_get(params, "orders");
        if (v)
            decode_orders(&d, v, in);
        v = json_object_get(params, "casts");
        if (v)
            decode_casts(&d, v, in);
    }
    if (errs->oom) {
        err = SK_ENOMEM;
        goto out;
    }
    if (errs->n > before || !in->st) {
        err = SK_EINVAL;
        goto out;
    }
    *out = in;
    in = NULL;
out:
    board_codec_free(in);
    return err;
}

void board_codec_free(struct board_input *in)
{
    if (!in)
        return;
    board_state_free(in->st);
    sk_free(in->defs);
    sk_free(in->orders);
    sk_free(in->casts);
    sk_free(in);
}

/* ---- encoding ---- */

static json_t *sq(int r, int c)
{
    return json_pack("[ii]", r, c);
}

static json_t *encode_minion(const struct board_minion *m)
{
    json_t *o =
        json_pack("{ss ss ss si si si si si si si}", "id", m->id, "class",
                  board_model_class_name(m->cls), "nation", board_model_nation_name(m->nation),
                  "health", m->health, "max_health", m->max_health, "armor", m->armor, "hand",
                  m->hand, "missile", m->missile, "attacks", m->attacks, "level", m->level);
    if (o && m->walks) {
        json_t *w = json_array();
        if (m->walks & BOARD_WALK_MOUNTAIN)
            json_array_append_new(w, json_string("mountain"));
        if (m->walks & BOARD_WALK_WATER)
            json_array_append_new(w, json_string("water"));
        if (m->walks & BOARD_WALK_FLIGHT)
            json_array_append_new(w, json_string("flight"));
        json_object_set_new(o, "walks", w);
    }
    return o;
}

static json_t *encode_board(const struct board_state *st)
{
    json_t *b = json_pack("{si si ss}", "rows", st->rows, "cols", st->cols, "terrain",
                          board_model_terrain_name(st->base_terrain));
    json_t *sqs = json_array(), *strs = json_array();

    if (!b || !sqs || !strs)
        goto fail;
    if (board_model_is_classic(st)) {
        json_object_set_new(b, "off_map", json_string("classic"));
    } else {
        json_t *off = json_array();
        for (int r = 0; r < st->rows; r++)
            for (int c = 0; c < st->cols; c++)
                if (st->offmap[board_sq(st, r, c)])
                    json_array_append_new(off, sq(r, c));
        json_object_set_new(b, "off_map", off);
    }
    for (int r = 0; r < st->rows; r++) {
        for (int c = 0; c < st->cols; c++) {
            int k = board_sq(st, r, c);
            if (!st->offmap[k] && st->terrain[k] != st->base_terrain && !st->structure[k])
                json_array_append_new(sqs, json_pack("{so ss}", "at", sq(r, c), "terrain",
                                                     board_model_terrain_name(st->terrain[k])));
            if (st->structure[k])
                json_array_append_new(strs,
                                      json_pack("{so ss ss}", "at", sq(r, c), "type",
                                                board_model_structure_name(st->structure[k]),
                                                "owner", board_model_player_name(st->sowner[k])));
        }
    }
    json_object_set_new(b, "squares", sqs);
    json_object_set_new(b, "structures", strs);
    return b;
fail:
    json_decref(b);
    json_decref(sqs);
    json_decref(strs);
    return NULL;
}

static json_t *encode_target(const struct board_spell *sp)
{
    switch (sp->kind) {
    case BOARD_T_INDIVIDUAL:
        return json_pack("{ss}", "minion", sp->target);
    case BOARD_T_GROUP:
        return json_pack("{ss}", "group", sp->target);
    case BOARD_T_GLOBE:
        return json_pack("{sb}", "globe", 1);
    case BOARD_T_PLAYER:
        return json_pack("{ss}", "player", board_model_player_name(sp->player));
    default:
        return json_pack("{so}", "square", sq(sp->row, sp->col));
    }
}

json_t *board_codec_encode_state(const struct board_state *st)
{
    json_t *s = json_object(), *groups = json_array(), *spells = json_array(), *dead = json_array();

    if (!s || !groups || !spells || !dead) {
        json_decref(s);
        json_decref(groups);
        json_decref(spells);
        json_decref(dead);
        return NULL;
    }
    json_object_set_new(s, "board", encode_board(st));
    json_object_set_new(s, "initiative", json_string(board_model_player_name(st->initiative)));
    json_object_set_new(s, "turn", json_integer(st->turn));
    for (int gi = 0; gi < st->ngroups; gi++) {
        const struct board_group *g = &st->groups[gi];
        json_t *ms, *o;
        if (g->gone)
            continue;
        ms = json_array();
        for (int i = 0; i < g->n; i++)
            if (g->m[i].alive)
                json_array_append_new(ms, encode_minion(&g->m[i]));
        o = json_pack("{ss ss ss so so}", "id", g->id, "owner", board_model_player_name(g->owner),
                      "control", g->computer ? "computer" : "player", "at", sq(g->row, g->col),
                      "minions", ms);
        json_array_append_new(groups, o);
    }
    json_object_set_new(s, "groups", groups);
    for (int i = 0; i < st->nspells; i++) {
        const struct board_spell *sp = &st->spells[i];
        json_t *o;
        if (sp->gone)
            continue;
        o = json_pack("{ss ss so}", "spell", st->defs[sp->def].name, "caster",
                      board_model_player_name(sp->caster), "target", encode_target(sp));
        if (o && sp->turns_left >= 0)
            json_object_set_new(o, "turns_left", json_integer(sp->turns_left));
        if (o && sp->bind >= 0)
            json_object_set_new(o, "bind", json_string(board_model_terrain_name(sp->bind)));
        json_array_append_new(spells, o);
    }
    json_object_set_new(s, "spells", spells);
    for (int i = 0; i < st->ndead; i++)
        json_array_append_new(dead, json_pack("{ss ss}", "id", st->dead[i].id, "owner",
                                              board_model_player_name(st->dead[i].owner)));
    json_object_set_new(s, "graveyard", dead);
    return s;
}

json_t *board_codec_encode_inline(const struct board_input *in)
{
    json_t *a = json_array();
    if (!a)
        return NULL;
    for (int i = in->ncatalog; i < in->ndefs; i++)
        json_array_append_new(a, board_spells_encode(&in->defs[i]));
    return a;
}

static json_t *opt_id(const char *s)
{
    return *s ? json_string(s) : json_null();
}

/* Fields of the combat and death events; returns 0 for other types. */
static int encode_fight(json_t *o, const struct board_event *e)
{
    switch (e->type) {
    case BOARD_EV_COMBAT:
        json_object_set_new(o, "first", json_string(e->a));
        json_object_set_new(o, "second", json_string(e->b));
        json_object_set_new(o, "rounds", json_integer(e->v1));
        break;
    case BOARD_EV_ATTACK:
        json_object_set_new(o, "attacker", json_string(e->a));
        json_object_set_new(o, "victim", json_string(e->b));
        json_object_set_new(o, "round", json_integer(e->v2));
        json_object_set_new(o, "mode", json_string(e->aux ? "missile" : "hand"));
        json_object_set_new(o, "quantity", json_integer(e->v1));
        break;
    case BOARD_EV_DAMAGE:
        json_object_set_new(o, "victim", json_string(e->a));
        json_object_set_new(o, "attacker", opt_id(e->b));
        json_object_set_new(o, "result", json_string(board_model_result_name(e->aux)));
        json_object_set_new(o, "quantity", json_integer(e->r1));
        json_object_set_new(o, "lost", json_integer(e->v1));
        json_object_set_new(o, "health", json_integer(e->v2));
        break;
    case BOARD_EV_DEATH:
        json_object_set_new(o, "minion", json_string(e->a));
        json_object_set_new(o, "kind", json_string(e->aux ? "kills" : "dies"));
        json_object_set_new(o, "killer", opt_id(e->b));
        break;
    default:
        return 0;
    }
    return 1;
}

static json_t *encode_event(const struct board_state *st, const struct board_event *e)
{
    json_t *o = json_pack("{si ss}", "turn", e->turn, "type", board_model_event_name(e->type));
    const char *spell = e->spell >= 0 ? st->defs[e->spell].name : NULL;

    if (!o)
        return NULL;
    if (spell)
        json_object_set_new(o, "spell", json_string(spell));
    if (encode_fight(o, e))
        return o;
    switch (e->type) {
    case BOARD_EV_TURN:
        json_object_set_new(o, "initiative", json_string(board_model_player_name(e->aux)));
        break;
    case BOARD_EV_CAST:
    case BOARD_EV_SQUANDER:
        json_object_set_new(o, "player", json_string(board_model_player_name(e->aux)));
        if (e->r1 >= 0)
            json_object_set_new(o, "square", sq(e->r1, e->c1));
        else if (e->a[0])
            json_object_set_new(o, "target", json_string(e->a));
        break;
    case BOARD_EV_EFFECT:
        json_object_set_new(o, "action", json_string(board_spells_action_name(e->aux)));
        json_object_set_new(o, "caster", json_string(e->b));
        if (e->r1 >= 0)
            json_object_set_new(o, "square", sq(e->r1, e->c1));
        else
            json_object_set_new(o, "at", json_string(e->a));
        if (e->aux == BOARD_A_SET_TERRAIN)
            json_object_set_new(o, "terrain", json_string(board_model_terrain_name(e->v1)));
        else
            json_object_set_new(o, "value", json_integer(e->v1));
        break;
    case BOARD_EV_ORDER:
        json_object_set_new(o, "group", json_string(e->a));
        json_object_set_new(o, "from", sq(e->r1, e->c1));
        json_object_set_new(o, "to", e->r2 >= 0 ? sq(e->r2, e->c2) : json_null());
        break;
    case BOARD_EV_OVERSTACK:
        json_object_set_new(o, "group", json_string(e->a));
        json_object_set_new(o, "from", sq(e->r1, e->c1));
        json_object_set_new(o, "to", sq(e->r2, e->c2));
        json_object_set_new(o, "groups", json_integer(e->v1));
        break;
    case BOARD_EV_BOUNCE:
        json_object_set_new(o, "group", json_string(e->a));
        json_object_set_new(o, "reason", json_string(board_model_reason_name(e->aux)));
        json_object_set_new(o, "from", sq(e->r1, e->c1));
        json_object_set_new(o, "to", sq(e->r2, e->c2));
        break;
    case BOARD_EV_VOTE:
        json_object_set_new(o, "square", sq(e->r1, e->c1));
        json_object_set_new(o, "winner", json_string(e->a));
        json_object_set_new(o, "loser", json_string(e->b));
        json_object_set_new(o, "reason", json_string(board_model_reason_name(e->aux)));
        break;
    case BOARD_EV_JOIN:
        json_object_set_new(o, "group", json_string(e->a));
        json_object_set_new(o, "into", json_string(e->b));
        json_object_set_new(o, "square", sq(e->r1, e->c1));
        json_object_set_new(o, "size", json_integer(e->v1));
        break;
    case BOARD_EV_MOVE:
    case BOARD_EV_MOONWALK:
        json_object_set_new(o, "group", json_string(e->a));
        json_object_set_new(o, "from", sq(e->r1, e->c1));
        json_object_set_new(o, "to", sq(e->r2, e->c2));
        break;
    case BOARD_EV_REMOVAL:
    case BOARD_EV_GROUP_DEATH:
        json_object_set_new(o, "group", json_string(e->a));
        json_object_set_new(o, "square", sq(e->r1, e->c1));
        break;
    case BOARD_EV_EXPIRE:
        if (e->r1 >= 0)
            json_object_set_new(o, "square", sq(e->r1, e->c1));
        else
            json_object_set_new(o, "target", opt_id(e->a));
        break;
    case BOARD_EV_LEAVE:
        json_object_set_new(o, "minion", json_string(e->a));
        json_object_set_new(o, "group", json_string(e->b));
        json_object_set_new(o, "square", sq(e->r1, e->c1));
        break;
    default:
        break;
    }
    return o;
}

json_t *board_codec_encode_events(const struct board_state *st)
{
    json_t *a = json_array();
    if (!a)
        return NULL;
    for (size_t i = 0; i < st->nlog; i++) {
        if (json_array_append_new(a, encode_event(st, &st->log[i]))) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}
