/* SPDX-License-Identifier: MIT */
/* The Sanctum board model (see board_model.h): state lifetime, geometry, player
 * sequences, hostility, bookkeeping of spells, groups and the graveyard, the event log. */
#include "board_model.h"

#include <string.h>

#include "sk_buf.h"
#include "sk_mem.h"

#include "sk_banned.h"

static const char *const terrain_names[BOARD_TERRAIN__COUNT] = {
    "plains", "forest", "water", "mountain", "desert", "swamp", "barren"};
static const char *const player_names[BOARD_PLAYER__COUNT] = {"red", "blue", "neutral"};
static const char *const class_names[BOARD_CLASS__COUNT] = {"swordsman", "archer", "bard", "hero",
                                                            "monster"};
static const char *const nation_names[BOARD_NATION__COUNT] = {
    "none", "imp",   "cyclops", "keeper", "shadow", "vision", "gargoyle",
    "elf",  "dwarf", "djinn",   "satyr",  "misfit", "human"};
static const char *const structure_names[] = {"none", "sanctum", "town", "colony"};
static const char *const target_names[BOARD_T__COUNT] = {
    "individual", "group", "square", "structure", "terrain", "globe", "player"};
static const char *const event_names[BOARD_EV__COUNT] = {
    "turn",   "cast",  "squander",    "effect",   "order",   "overstack", "bounce",
    "vote",   "join",  "move",        "moonwalk", "removal", "combat",    "attack",
    "damage", "death", "group_death", "expire",   "leave"};
static const char *const result_names[] = {"bounced", "damaged", "killed"};
static const char *const reason_names[BOARD_R__COUNT] = {
    "none",     "stationary", "initiative",  "larger",      "sequence",   "cannot_enter",
    "occupied", "hostile",    "cannot_join", "cannot_move", "cannot_exit"};

static int parse(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

const char *board_model_terrain_name(int t)
{
    return terrain_names[t];
}
int board_model_terrain_parse(const char *s)
{
    return parse(terrain_names, BOARD_TERRAIN__COUNT, s);
}
const char *board_model_player_name(int p)
{
    return player_names[p];
}
int board_model_player_parse(const char *s)
{
    return parse(player_names, BOARD_PLAYER__COUNT, s);
}
const char *board_model_class_name(int c)
{
    return class_names[c];
}
int board_model_class_parse(const char *s)
{
    return parse(class_names, BOARD_CLASS__COUNT, s);
}
const char *board_model_nation_name(int n)
{
    return nation_names[n];
}
int board_model_nation_parse(const char *s)
{
    return parse(nation_names, BOARD_NATION__COUNT, s);
}
const char *board_model_structure_name(int s)
{
    return structure_names[s];
}
int board_model_structure_parse(const char *s)
{
    return parse(structure_names, 4, s);
}
const char *board_model_target_name(int k)
{
    return target_names[k];
}
int board_model_target_parse(const char *s)
{
    return parse(target_names, BOARD_T__COUNT, s);
}
const char *board_model_event_name(int t)
{
    return event_names[t];
}
const char *board_model_result_name(int r)
{
    return result_names[r];
}
const char *board_model_reason_name(int r)
{
    return reason_names[r];
}

void board_model_set_id(char dst[BOARD_ID_MAX], const char *src)
{
    size_t n = strlen(src);
    if (n >= BOARD_ID_MAX)
        n = BOARD_ID_MAX - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

struct board_state *board_state_new(int rows, int cols)
{
    struct board_state *st = sk_calloc(1, sizeof(*st));
    size_t n = (size_t)rows * (size_t)cols;

    if (!st)
        return NULL;
    st->rows = rows;
    st->cols = cols;
    st->offmap = sk_calloc(n, 1);
    st->terrain = sk_calloc(n, 1);
    st->structure = sk_calloc(n, 1);
    st->sowner = sk_calloc(n, 1);
    st->sqspells = sk_calloc(n, sizeof(*st->sqspells));
    st->spells_dirty = 1;
    st->turn = 1;
    st->initiative = BOARD_RED;
    st->log_enabled = 1;
    if (!st->offmap || !st->terrain || !st->structure || !st->sowner || !st->sqspells) {
        board_state_free(st);
        return NULL;
    }
    return st;
}

void board_state_free(struct board_state *st)
{
    if (!st)
        return;
    sk_free(st->offmap);
    sk_free(st->terrain);
    sk_free(st->structure);
    sk_free(st->sowner);
    sk_free(st->sqspells);
    sk_free(st->groups);
    sk_free(st->spells);
    sk_free(st->dead);
    sk_free(st->log);
    sk_free(st);
}

static void *dup(const void *p, size_t n)
{
    void *q;
    if (!p || n == 0)
        return NULL;
    q = sk_malloc(n);
    if (q)
        memcpy(q, p, n);
    return q;
}

struct board_state *board_state_clone(const struct board_state *st)
{
    struct board_state *c = sk_malloc(sizeof(*c));
    size_t n = (size_t)st->rows * (size_t)st->cols;

    if (!c)
        return NULL;
    *c = *st;
    c->offmap = dup(st->offmap, n);
    c->terrain = dup(st->terrain, n);
    c->structure = dup(st->structure, n);
    c->sowner = dup(st->sowner, n);
    c->sqspells = dup(st->sqspells, n * sizeof(*st->sqspells));
    c->groups = dup(st->groups, (size_t)st->gcap * sizeof(*st->groups));
    c->spells = dup(st->spells, (size_t)st->scap * sizeof(*st->spells));
    c->dead = dup(st->dead, (size_t)st->dcap * sizeof(*st->dead));
    c->log = dup(st->log, st->logcap * sizeof(*st->log));
    if (!c->offmap || !c->terrain || !c->structure || !c->sowner || !c->sqspells ||
        (st->gcap && !c->groups) || (st->scap && !c->spells) || (st->dcap && !c->dead) ||
        (st->logcap && !c->log)) {
        board_state_free(c);
        return NULL;
    }
    return c;
}

enum sk_err board_state_save(const struct board_state *st, struct sk_buf *out)
{
    struct board_state h = *st;
    size_t n = (size_t)st->rows * (size_t)st->cols;

    /* the fixed fields, the pointers cleared: they mean nothing in another process */
    h.offmap = h.terrain = h.structure = h.sowner = NULL;
    h.groups = NULL;
    h.spells = NULL;
    h.dead = NULL;
    h.sqspells = NULL;
    h.defs = NULL;
    h.log = NULL;
    (void)sk_buf_add(out, &h, sizeof(h));
    (void)sk_buf_add(out, st->offmap, n);
    (void)sk_buf_add(out, st->terrain, n);
    (void)sk_buf_add(out, st->structure, n);
    (void)sk_buf_add(out, st->sowner, n);
    (void)sk_buf_add(out, st->sqspells, n * sizeof(*st->sqspells));
    (void)sk_buf_add(out, st->groups, (size_t)st->ngroups * sizeof(*st->groups));
    (void)sk_buf_add(out, st->spells, (size_t)st->nspells * sizeof(*st->spells));
    (void)sk_buf_add(out, st->dead, (size_t)st->ndead * sizeof(*st->dead));
    (void)sk_buf_add(out, st->log, st->nlog * sizeof(*st->log));
    return out->err;
}

/* Copies `size` bytes at *p into a new allocation of at least one byte (*dst), advancing
 * *p; 1 on failure (memory). */
static int take(void **dst, const unsigned char **p, size_t size)
{
    *dst = sk_malloc(size ? size : 1);
    if (!*dst)
        return 1;
    memcpy(*dst, *p, size);
    *p += size;
    return 0;
}

enum sk_err board_state_load(const unsigned char *p, size_t len, const struct board_state *like,
                             struct board_state **out)
{
    struct board_state h;
    struct board_state *st = NULL;
    size_t n = (size_t)like->rows * (size_t)like->cols;
    size_t want;
    void *a[9] = {0};

    if (len < sizeof(h))
        return SK_EINVAL;
    memcpy(&h, p, sizeof(h));
    p += sizeof(h);
    if (h.rows != like->rows || h.cols != like->cols || h.ngroups < 0 ||
        h.ngroups > BOARD_MAX_GROUPS * 2 || h.nspells < 0 || h.nspells > BOARD_MAX_SPELLS ||
        h.ndead < 0 || h.ndead > BOARD_MAX_GRAVEYARD * 2 || h.nlog > BOARD_MAX_EVENTS)
        return SK_EINVAL;
    want = sizeof(h) + n * (4 + sizeof(*h.sqspells)) + (size_t)h.ngroups * sizeof(*h.groups) +
           (size_t)h.nspells * sizeof(*h.spells) + (size_t)h.ndead * sizeof(*h.dead) +
           h.nlog * sizeof(*h.log);
    if (len != want)
        return SK_EINVAL;
    st = sk_malloc(sizeof(*st));
    if (!st)
        return SK_ENOMEM;
    *st = h;
    if (take(&a[0], &p, n) || take(&a[1], &p, n) || take(&a[2], &p, n) || take(&a[3], &p, n) ||
        take(&a[4], &p, n * sizeof(*h.sqspells)) ||
        take(&a[5], &p, (size_t)h.ngroups * sizeof(*h.groups)) ||
        take(&a[6], &p, (size_t)h.nspells * sizeof(*h.spells)) ||
        take(&a[7], &p, (size_t)h.ndead * sizeof(*h.dead)) ||
        take(&a[8], &p, h.nlog * sizeof(*h.log))) {
        for (int i = 0; i < 9; i++)
            sk_free(a[i]);
        sk_free(st);
        return SK_ENOMEM;
    }
    st->offmap = a[0];
    st->terrain = a[1];
    st->structure = a[2];
    st->sowner = a[3];
    st->sqspells = a[4];
    st->groups = a[5];
    st->spells = a[6];
    st->dead = a[7];
    st->log = a[8];
    /* each array holds what is used; the growers (reserve, add) make room from there */
    st->gcap = h.ngroups;
    st->scap = h.nspells;
    st->dcap = h.ndead;
    st->logcap = h.nlog;
    st->defs = like->defs;
    st->ndefs = like->ndefs;
    st->oom = SK_OK;
    *out = st;
    return SK_OK;
}

/* The classic mask (rules/board.md): row+col <= 5, row+col >= 17, and eight more. */
static int classic_off(int r, int c)
{
    static const int extra[8][2] = {{0, 11}, {11, 0}, {0, 6},  {6, 0},
                                    {3, 3},  {11, 5}, {5, 11}, {8, 8}};
    if (r + c <= 5 || r + c >= 17)
        return 1;
    for (int i = 0; i < 8; i++)
        if (extra[i][0] == r && extra[i][1] == c)
            return 1;
    return 0;
}

void board_model_classic_mask(struct board_state *st, int with_sancta)
{
    for (int r = 0; r < st->rows; r++)
        for (int c = 0; c < st->cols; c++)
            st->offmap[board_sq(st, r, c)] = (uint8_t)classic_off(r, c);
    st->classic = 1;
    if (with_sancta) {
        st->structure[board_sq(st, 10, 1)] = BOARD_SANCTUM;
        st->sowner[board_sq(st, 10, 1)] = BOARD_RED;
        st->structure[board_sq(st, 1, 10)] = BOARD_SANCTUM;
        st->sowner[board_sq(st, 1, 10)] = BOARD_BLUE;
    }
}

int board_model_is_classic(const struct board_state *st)
{
    if (st->rows != 12 || st->cols != 12)
        return 0;
    for (int r = 0; r < 12; r++)
        for (int c = 0; c < 12; c++)
            if (st->offmap[board_sq(st, r, c)] != classic_off(r, c))
                return 0;
    return 1;
}

int board_model_playable(const struct board_state *st, int r, int c)
{
    return r >= 0 && c >= 0 && r < st->rows && c < st->cols && !st->offmap[board_sq(st, r, c)];
}

int board_model_std_rank(const struct board_state *st, enum board_player p)
{
    if (p == BOARD_NEUTRAL)
        return 2;
    return p == st->initiative ? 0 : 1;
}

int board_model_exc_rank(const struct board_state *st, enum board_player p)
{
    if (p == BOARD_NEUTRAL)
        return 1;
    return p == st->initiative ? 0 : 2;
}

enum board_player board_model_std_player(const struct board_state *st, int i)
{
    enum board_player other = st->initiative == BOARD_RED ? BOARD_BLUE : BOARD_RED;
    return i == 0 ? st->initiative : i == 1 ? other : BOARD_NEUTRAL;
}

enum board_player board_model_event_player(const struct board_state *st, int i)
{
    enum board_player other = st->initiative == BOARD_RED ? BOARD_BLUE : BOARD_RED;
    return i == 0 ? BOARD_NEUTRAL : i == 1 ? st->initiative : other;
}

int board_model_hostile(enum board_player a, enum board_player b)
{
    return a != b || a == BOARD_NEUTRAL;
}

int board_model_alive(const struct board_group *g)
{
    int n = 0;
    for (int i = 0; i < g->n; i++)
        n += g->m[i].alive;
    return n;
}

int board_model_recruit_group(const struct board_group *g)
{
    for (int i = 0; i < g->n; i++)
        if (g->m[i].alive && g->m[i].cls == BOARD_MONSTER)
            return 0;
    return 1;
}

int board_model_find_minion(const struct board_state *st, const char *id, int *mi)
{
    for (int gi = 0; gi < st->ngroups; gi++) {
        const struct board_group *g = &st->groups[gi];
        if (g->gone)
            continue;
        for (int i = 0; i < g->n; i++)
            if (g->m[i].alive && strcmp(g->m[i].id, id) == 0) {
                *mi = i;
                return gi;
            }
    }
    return -1;
}

int board_model_find_group(const struct board_state *st, const char *id)
{
    for (int gi = 0; gi < st->ngroups; gi++)
        if (!st->groups[gi].gone && strcmp(st->groups[gi].id, id) == 0)
            return gi;
    return -1;
}

unsigned board_model_walks(const struct board_minion *m)
{
    unsigned w = m->walks;
    if (m->nation == BOARD_SHADOW || m->nation == BOARD_DWARF)
        w |= BOARD_WALK_MOUNTAIN;
    if (m->nation == BOARD_VISION || m->nation == BOARD_DJINN)
        w |= BOARD_WALK_WATER;
    return w;
}

int board_model_shooter(const struct board_minion *m)
{
    return m->attacks > 0 && (m->cls == BOARD_ARCHER || m->missile > 0);
}

enum sk_err board_model_reserve_groups(struct board_state *st, int more)
{
    struct board_group *g;
    int want = st->ngroups + more;

    if (want <= st->gcap)
        return SK_OK;
    g = sk_realloc(st->groups, (size_t)want * sizeof(*g));
    if (!g)
        return SK_ENOMEM;
    st->groups = g;
    st->gcap = want;
    return SK_OK;
}

enum sk_err board_model_add_spell(struct board_state *st, const struct board_spell *sp)
{
    if (st->nspells >= BOARD_MAX_SPELLS)
        return SK_ERANGE;
    if (st->nspells == st->scap) {
        int cap = st->scap ? st->scap * 2 : 16;
        struct board_spell *s = sk_realloc(st->spells, (size_t)cap * sizeof(*s));
        if (!s)
            return SK_ENOMEM;
        st->spells = s;
        st->scap = cap;
    }
    st->spells[st->nspells] = *sp;
    st->spells[st->nspells].age = st->next_age++;
    st->spells[st->nspells].gone = 0;
    st->nspells++;
    st->spells_dirty = 1;
    return SK_OK;
}

void board_model_index_spells(struct board_state *st)
{
    if (!st->spells_dirty)
        return;
    memset(st->sqspells, 0, (size_t)st->rows * (size_t)st->cols * sizeof(*st->sqspells));
    st->nglobe = 0;
    for (int gi = 0; gi < st->ngroups; gi++) {
        struct board_group *g = &st->groups[gi];
        g->spelled = 0;
        for (int i = 0; i < g->n; i++)
            g->m[i].spelled = 0;
    }
    for (int s = 0; s < st->nspells; s++) {
        const struct board_spell *sp = &st->spells[s];
        if (sp->gone)
            continue;
        switch (sp->kind) {
        case BOARD_T_SQUARE:
        case BOARD_T_STRUCTURE:
        case BOARD_T_TERRAIN:
            st->sqspells[board_sq(st, sp->row, sp->col)]++;
            break;
        case BOARD_T_GLOBE:
            st->nglobe++;
            break;
        case BOARD_T_GROUP:
        case BOARD_T_INDIVIDUAL:
            st->spells[s].rg = st->spells[s].rm = -1;
            for (int gi = 0; gi < st->ngroups; gi++) {
                struct board_group *g = &st->groups[gi];
                if (g->gone)
                    continue;
                if (sp->kind == BOARD_T_GROUP) {
                    if (strcmp(g->id, sp->target) == 0) {
                        g->spelled = 1;
                        st->spells[s].rg = gi;
                    }
                    continue;
                }
                for (int i = 0; i < g->n; i++)
                    if (g->m[i].alive && strcmp(g->m[i].id, sp->target) == 0) {
                        g->m[i].spelled = 1;
                        st->spells[s].rg = gi;
                        st->spells[s].rm = i;
                    }
            }
            break;
        default:
            break;
        }
    }
    st->spells_dirty = 0;
}

void board_model_compact(struct board_state *st)
{
    int n = 0;
    for (int i = 0; i < st->nspells; i++)
        if (!st->spells[i].gone)
            st->spells[n++] = st->spells[i];
    st->nspells = n;
    n = 0;
    for (int gi = 0; gi < st->ngroups; gi++) {
        struct board_group *g = &st->groups[gi];
        int k = 0;
        if (g->gone)
            continue;
        for (int i = 0; i < g->n; i++)
            if (g->m[i].alive)
                g->m[k++] = g->m[i];
        g->n = k;
        if (k == 0)
            continue;
        if (n != gi)
            st->groups[n] = *g;
        n++;
    }
    st->ngroups = n;
    st->spells_dirty = 1; /* group and minion indices moved */
}

void board_model_bury(struct board_state *st, int gi, int mi)
{
    struct board_minion *m = &st->groups[gi].m[mi];

    m->alive = 0;
    if (st->ndead >= BOARD_MAX_GRAVEYARD)
        return; /* the graveyard list is a record only; the rules never read it back */
    if (st->ndead == st->dcap) {
        int cap = st->dcap ? st->dcap * 2 : 16;
        struct board_dead *d = sk_realloc(st->dead, (size_t)cap * sizeof(*d));
        if (!d) {
            st->oom = SK_ENOMEM;
            return;
        }
        st->dead = d;
        st->dcap = cap;
    }
    board_model_set_id(st->dead[st->ndead].id, m->id);
    st->dead[st->ndead].owner = st->groups[gi].owner;
    st->ndead++;
}

void board_model_dispel_minion(struct board_state *st, const char *id)
{
    for (int i = 0; i < st->nspells; i++)
        if (!st->spells[i].gone && st->spells[i].kind == BOARD_T_INDIVIDUAL &&
            strcmp(st->spells[i].target, id) == 0)
            st->spells[i].gone = 1;
}

void board_model_dispel_group(struct board_state *st, const char *id)
{
    for (int i = 0; i < st->nspells; i++)
        if (!st->spells[i].gone && st->spells[i].kind == BOARD_T_GROUP &&
            strcmp(st->spells[i].target, id) == 0)
            st->spells[i].gone = 1;
}

struct board_event board_model_event(enum board_ev_type type)
{
    struct board_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.type = (uint8_t)type;
    ev.spell = -1;
    ev.r1 = ev.c1 = ev.r2 = ev.c2 = -1;
    return ev;
}

void board_model_log(struct board_state *st, const struct board_event *ev)
{
    if (!st->log_enabled)
        return;
    if (st->nlog >= BOARD_MAX_EVENTS) {
        st->log_truncated = 1;
        return;
    }
    if (st->nlog == st->logcap) {
        size_t cap = st->logcap ? st->logcap * 2 : 64;
        struct board_event *l = sk_realloc(st->log, cap * sizeof(*l));
        if (!l) {
            st->oom = SK_ENOMEM;
            return;
        }
        st->log = l;
        st->logcap = cap;
    }
    st->log[st->nlog] = *ev;
    st->log[st->nlog].turn = st->turn;
    st->nlog++;
}
