/* SPDX-License-Identifier: MIT */
/* Tyrant Unleashed's vocabulary and card files (see battle_tu.h). The files are parsed by
 * libxml2 into a tree (a section is under 1 MB, so a tree costs little and gives every
 * element its line); the walk below follows the game's format as the peer simulator reads
 * it: an <upgrade> is a card of its own that inherits every field of the level before it
 * and replaces the skill list when it has any <skill>. */
#include "battle_tu.h"

#include <errno.h>
#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "battle_rules.h"
#include "battle_xml.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

/* ===== Vocabulary ===== */

/* The game's skills (BATTLE_SKILL_GAME_TABLE): the row each is, and the id the card files
 * write when it is not the row's name. The order is the peer's (tyrant.h), so a list in its
 * order reads the same here. */
static const struct {
    enum battle_skill id;
    const char *file; /* NULL: the files write the row's name */
} tu_skills[] = {
#define TU_SKILL_(ID, FILE) {BATTLE_SKILL_##ID, FILE},
    BATTLE_SKILL_GAME_TABLE(TU_SKILL_)
#undef TU_SKILL_
};
_Static_assert(sizeof(tu_skills) / sizeof(tu_skills[0]) == BATTLE_TU_SKILL__COUNT,
               "one entry per game skill");

static const char *const faction_names[] = {"none", "imperial",  "raider",    "bloodthirsty",
                                            "xeno", "righteous", "progenitor"};
static const char *const rarity_names[] = {"none",      "common",     "rare",  "epic",
                                           "legendary", "vindicator", "mythic"};
static const char *const trigger_names[] = {"activate", "play", "attacked", "death"};
#define N_FACTIONS 6
#define N_RARITIES 6
#define N_TRIGGERS 4

const char *battle_tu_skill_args(enum battle_skill id, int s, int s2)
{
    enum battle_skill es = s ? battle_tu_skill_engine(s - 1) : BATTLE_SKILL__COUNT;
    enum battle_skill es2 = s2 ? battle_tu_skill_engine(s2 - 1) : BATTLE_SKILL__COUNT;

    if (!(battle_rules_skill_opts(id) & BATTLE_OPT_SKILL))
        return s || s2 ? "takes no skill arguments ('s', 's2')" : NULL;
    if (!s)
        return "needs the skill it changes, 's'";
    if (es >= BATTLE_SKILL__COUNT || (s2 && es2 >= BATTLE_SKILL__COUNT))
        return "names a skill the engine does not simulate in 's' or 's2'";
    if (id != BATTLE_SKILL_EVOLVE)
        return s2 ? "takes no 's2'" : NULL;
    if (!s2)
        return "needs the skill 's' becomes, 's2'";
    if (es == es2)
        return "needs 's2' other than 's'";
    /* What no card of the game does, and the variants could not play as tuo would. */
    if (es == BATTLE_SKILL_SUMMON || es == BATTLE_SKILL_EVOLVE || es == BATTLE_SKILL_FLURRY ||
        es2 == BATTLE_SKILL_SUMMON || es2 == BATTLE_SKILL_EVOLVE || es2 == BATTLE_SKILL_FLURRY ||
        es2 == BATTLE_SKILL_ENHANCE)
        return "of or into Summon, Evolve or Flurry, or into Enhance, is not simulated";
    if (es != BATTLE_SKILL_ENHANCE && battle_rules_skill_kind(es) == BATTLE_SK_ACTIVATION &&
        battle_rules_skill_kind(es2) == BATTLE_SK_PASSIVE)
        return "of an activation skill into a passive one is not simulated";
    return NULL;
}

const char *battle_tu_skill_name(int skill)
{
    return skill >= 0 && skill < BATTLE_TU_SKILL__COUNT
               ? battle_rules_skill_name(tu_skills[skill].id)
               : "unknown";
}

/* Every name a skill is written by (players' and the files'), sorted: built once, since a
 * load looks up about 100,000 skills. */
struct skill_key {
    const char *name;
    int skill;
};
static struct skill_key skill_keys[BATTLE_TU_SKILL__COUNT * 2];
static int n_skill_keys;
static pthread_once_t skill_once = PTHREAD_ONCE_INIT;

static int skill_key_cmp(const void *a, const void *b)
{
    return strcmp(((const struct skill_key *)a)->name, ((const struct skill_key *)b)->name);
}

static void build_skill_keys(void)
{
    for (int i = 0; i < BATTLE_TU_SKILL__COUNT; i++) {
        skill_keys[n_skill_keys++] =
            (struct skill_key){battle_rules_skill_name(tu_skills[i].id), i};
        if (tu_skills[i].file)
            skill_keys[n_skill_keys++] = (struct skill_key){tu_skills[i].file, i};
    }
    qsort(skill_keys, (size_t)n_skill_keys, sizeof(skill_keys[0]), skill_key_cmp);
}

int battle_tu_skill_parse(const char *name)
{
    struct skill_key key = {name, 0};
    const struct skill_key *k;

    pthread_once(&skill_once, build_skill_keys);
    k = bsearch(&key, skill_keys, (size_t)n_skill_keys, sizeof(key), skill_key_cmp);
    return k ? k->skill : -1;
}

enum battle_skill battle_tu_skill_engine(int skill)
{
    return skill >= 0 && skill < BATTLE_TU_SKILL__COUNT ? tu_skills[skill].id : BATTLE_SKILL__COUNT;
}

int battle_tu_skill_of_engine(enum battle_skill skill)
{
    for (int i = 0; i < BATTLE_TU_SKILL__COUNT; i++)
        if (tu_skills[i].id == skill)
            return i;
    return -1;
}

const char *battle_tu_faction_name(int faction)
{
    return faction >= 0 && faction <= N_FACTIONS ? faction_names[faction] : "none";
}

const char *battle_tu_rarity_name(int rarity)
{
    return rarity >= 0 && rarity <= N_RARITIES ? rarity_names[rarity] : "none";
}

const char *battle_tu_trigger_name(int trigger)
{
    return trigger >= 0 && trigger < N_TRIGGERS ? trigger_names[trigger] : "activate";
}

/* ===== What the engine simulates ===== */

int battle_tu_unsupported(const struct battle_card_spec *c, char *why, size_t whylen)
{
    /* The files have cards without health (the game's dialogue commanders): nothing to
     * play, and the engine's plan refuses them, so the job is refused at its field. */
    if (c->health < 1 || c->health > BATTLE_STAT_MAX || c->attack < 0 ||
        c->attack > BATTLE_STAT_MAX) {
        snprintf(why, whylen,
                 "health %d, attack %d: the engine plays health 1 to %d and attack 0 to %d",
                 c->health, c->attack, BATTLE_STAT_MAX, BATTLE_STAT_MAX);
        return 1;
    }
    if (c->delay < 0 || c->delay > BATTLE_DELAY_MAX) {
        snprintf(why, whylen, "delay %d: the engine plays delays 0 to %d", c->delay,
                 BATTLE_DELAY_MAX);
        return 1;
    }
    for (int i = 0; i < c->n_skills; i++) {
        const struct battle_skill_spec *s = &c->skills[i];
        const char *name = s->id < BATTLE_SKILL__COUNT ? battle_rules_skill_name(s->id)
                                                       : battle_tu_skill_name(s->game);
        unsigned opts;
        const char *opt, *arg;
        if (s->id >= BATTLE_SKILL__COUNT) {
            snprintf(why, whylen, "skill '%s' is not simulated yet", name);
            return 1;
        }
        opts = battle_rules_skill_opts(s->id);
        opt = s->y && !(opts & BATTLE_OPT_Y)            ? "y"
              : s->n && !(opts & BATTLE_OPT_N)          ? "n"
              : s->c && !(opts & BATTLE_OPT_C)          ? "c"
              : s->card_id && !(opts & BATTLE_OPT_CARD) ? "card_id"
                                                        : NULL;
        if (s->trigger && !(opts & BATTLE_OPT_TRIGGER)) {
            snprintf(why, whylen, "skill '%s' on %s is not simulated yet", name,
                     battle_tu_trigger_name(s->trigger));
            return 1;
        }
        if (opt) {
            snprintf(why, whylen, "option '%s' of skill '%s' is not simulated yet", opt, name);
            return 1;
        }
        if ((arg = battle_tu_skill_args(s->id, s->s, s->s2)) != NULL) {
            snprintf(why, whylen, "skill '%s' %s", name, arg);
            return 1;
        }
        if ((opts & BATTLE_OPT_CARD) && !s->card_id) {
            snprintf(why, whylen, "skill '%s' names no card_id", name);
            return 1;
        }
        if (s->n > BATTLE_SKILL_N_MAX || s->c > BATTLE_SKILL_C_MAX) {
            snprintf(why, whylen, "skill '%s' n=%d c=%d: the engine plays n up to %d, c up to %d",
                     name, s->n, s->c, BATTLE_SKILL_N_MAX, BATTLE_SKILL_C_MAX);
            return 1;
        }
        if (s->x > battle_rules_skill_x_max(s->id)) {
            snprintf(why, whylen, "skill '%s' %d: values above %d are not simulated yet", name,
                     s->x, battle_rules_skill_x_max(s->id));
            return 1;
        }
    }
    return 0;
}

/* ===== Reading files ===== */

struct tu_load {
    const char *dir;
    struct battle_xml_notes notes; /* `file` is the file being walked (its name within dir) */
    char *err;
    size_t errlen;
    uint64_t hash;
    /* card sets shown to players (skills_set.xml); all of them when the file is absent */
    int *visible_sets;
    size_t n_visible;
    int *hidden_sets; /* the sets it lists with <visible>0</visible> */
    size_t n_hidden;
    int have_sets;
    /* skill ids skills_set.xml defines (game skill indices), when present */
    unsigned char game_defines[BATTLE_TU_SKILL__COUNT];
    int have_skill_types;
    /* cards read so far */
    struct battle_card_spec *cards;
    size_t n, cap;
    /* per unit: its first card, levels, load order (for names) */
    struct tu_unit *units;
    size_t n_units, cap_units;
    struct battle_tu_recipe *recipes;
    size_t n_recipes, cap_recipes;
    /* cards[] index of each section's first card (cards_section_1.xml is [1]) */
    size_t section_first[BATTLE_TU_SECTIONS_MAX + 2];
};

struct tu_unit {
    char name[BATTLE_NAME_MAX + 1]; /* level 1's name */
    size_t first;                   /* index of its level 1 in cards */
    int n;                          /* levels */
    int visible;                    /* its set is shown to players */
    size_t order;                   /* load order */
};

/* A growing array of at least this many bytes asks for huge pages (sk_mem_advise_huge). */
#define GROW_HUGE ((size_t)8 << 20)

/* Makes room for one more element in the growing array *arr of *cap elements of `size`
 * bytes holding `n` (starting at `first` elements). Returns SK_OK or SK_ENOMEM. */
static enum sk_err grow(void *arr, size_t *cap, size_t n, size_t size, size_t first)
{
    void **p = arr;
    void *nb;
    size_t want;

    if (n < *cap)
        return SK_OK;
    want = *cap ? *cap * 2 : first;
    nb = sk_realloc(*p, want * size);
    if (!nb)
        return SK_ENOMEM;
    /* The cards of the game's catalog fill about 30 MB: in 4 KiB pages their first touches
     * were a fifth of a load's CPU on a VM, where a page fault is dear. */
    if (want * size >= GROW_HUGE)
        sk_mem_advise_huge(nb, want * size);
    *p = nb;
    *cap = want;
    return SK_OK;
}

void battle_tu_simplify(const char *name, char out[BATTLE_NAME_MAX + 1])
{
    size_t n = 0;
    for (; *name && n < BATTLE_NAME_MAX; name++) {
        unsigned char c = (unsigned char)*name;
        if (!strchr(";:,\"'! ", c))
            out[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    out[n] = '\0';
}

uint64_t battle_tu_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

enum sk_err battle_tu_read(const char *dir, const char *name, uint64_t *hash, char **out,
                           size_t *len, int *missing, char *err, size_t errlen)
{
    char path[4096];
    struct stat st;
    FILE *f = NULL;
    char *buf = NULL;
    enum sk_err rc = SK_OK;

    *missing = 0;
    if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
        snprintf(err, errlen, "cards folder path '%s' is too long", dir);
        return SK_EINVAL;
    }
    f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) {
            *missing = 1;
            return SK_EIO;
        }
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return SK_EIO;
    }
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > BATTLE_TU_FILE_MAX) {
        snprintf(err, errlen, "'%s' is not a regular file of at most %u bytes", path,
                 BATTLE_TU_FILE_MAX);
        rc = SK_EINVAL;
        goto out;
    }
    buf = sk_malloc((size_t)st.st_size + 1);
    if (!buf) {
        rc = SK_ENOMEM;
        goto out;
    }
    if (fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
        snprintf(err, errlen, "cannot read '%s'", path);
        rc = SK_EIO;
        goto out;
    }
    buf[st.st_size] = '\0';
    *hash = battle_tu_fnv1a(*hash, name, strlen(name) + 1);
    *hash = battle_tu_fnv1a(*hash, buf, (size_t)st.st_size);
    *out = buf;
    *len = (size_t)st.st_size;
    buf = NULL;
out:
    sk_free(buf);
    (void)fclose(f); /* read only: nothing is lost if closing fails */
    return rc;
}

static enum sk_err slurp(struct tu_load *L, const char *name, char **out, size_t *len, int *missing)
{
    return battle_tu_read(L->dir, name, &L->hash, out, len, missing, L->err, L->errlen);
}

/* The first error libxml2 reports while parsing a file: later ones mostly follow from it
 * (an unclosed tag is reported again at the end of the file). */
struct first_error {
    int seen;
    int line;
    char msg[200];
};

static void keep_first(void *data, xmlErrorPtr e)
{
    struct first_error *fe = data;
    if (fe->seen || !e || e->level < XML_ERR_ERROR)
        return;
    fe->seen = 1;
    fe->line = e->line;
    battle_xml_error_text(e, fe->msg, sizeof(fe->msg));
}

/* Parses `len` bytes of `name` into a tree; on a syntax error fills `err` with its line. */
static enum sk_err parse_xml(struct tu_load *L, const char *name, const char *text, size_t len,
                             xmlDocPtr *out)
{
    struct first_error fe = {0, 0, "not well-formed XML"};
    xmlDocPtr doc;

    /* The handler is libxml2's per-thread state: set for this parse only. */
    xmlSetStructuredErrorFunc(&fe, keep_first);
    /* NONET: a card file never fetches anything; BIG_LINES: line numbers past 65535;
     * NOBLANKS: no text nodes for the blanks between elements, which no reader here looks
     * at (an element's own text, blank or not, stays), so fewer nodes to allocate. */
    doc = xmlReadMemory(text, (int)len, name, NULL,
                        XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOBLANKS);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (!doc || fe.seen) {
        snprintf(L->err, L->errlen, "%s/%s:%d: %s", L->dir, name, fe.line, fe.msg);
        xmlFreeDoc(doc);
        return doc || fe.seen ? SK_EINVAL : SK_ENOMEM;
    }
    *out = doc;
    return SK_OK;
}

/* The line of a tree node, for notes. */
#define LINE(n) ((n) ? xmlGetLineNo(n) : 0L)

/* The integer text of element `n` (or attribute value `s` when n is NULL), or 0 with a
 * note: the game's own client reads a bad number as 0, so the value is kept as 0. */
static int to_int(struct tu_load *L, long line, const char *what, const char *s)
{
    int64_t v = 0;
    if (!s || sk_parse_i64(s, -1000000000LL, 1000000000LL, &v) != SK_OK) {
        battle_xml_note(&L->notes, line, "%s '%s' is not an integer: read as 0", what, s ? s : "");
        return 0;
    }
    return (int)v;
}

static int elem_int(struct tu_load *L, const xmlNode *n)
{
    xmlChar *t = xmlNodeGetContent(n);
    int v = to_int(L, LINE(n), (const char *)n->name, (const char *)t);
    xmlFree(t);
    return v;
}

/* ===== skills_set.xml ===== */

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static enum sk_err read_skills_set(struct tu_load *L, xmlDocPtr doc)
{
    xmlNode *root = xmlDocGetRootElement(doc);
    size_t cap = 0, cap_hidden = 0;

    for (xmlNode *n = root ? root->children : NULL; n; n = n->next) {
        int id = 0, visible = 0, have_id = 0;
        if (battle_xml_is(n, "skillType")) {
            for (xmlNode *c = n->children; c; c = c->next) {
                if (battle_xml_is(c, "id")) {
                    xmlChar *t = xmlNodeGetContent(c);
                    int s = battle_tu_skill_parse((const char *)t);
                    if (s >= 0)
                        L->game_defines[s] = 1;
                    xmlFree(t);
                }
            }
            L->have_skill_types = 1;
            continue;
        }
        if (!battle_xml_is(n, "cardSet"))
            continue;
        for (xmlNode *c = n->children; c; c = c->next) {
            if (battle_xml_is(c, "id")) {
                id = elem_int(L, c);
                have_id = 1;
            } else if (battle_xml_is(c, "visible")) {
                visible = elem_int(L, c);
            }
        }
        if (!have_id)
            continue;
        if (!visible) {
            if (grow(&L->hidden_sets, &cap_hidden, L->n_hidden, sizeof(int), 64))
                return SK_ENOMEM;
            L->hidden_sets[L->n_hidden++] = id;
            continue;
        }
        if (grow(&L->visible_sets, &cap, L->n_visible, sizeof(int), 64))
            return SK_ENOMEM;
        L->visible_sets[L->n_visible++] = id;
    }
    if (L->n_visible) /* qsort wants an array, even of nothing */
        qsort(L->visible_sets, L->n_visible, sizeof(int), int_cmp);
    if (L->n_hidden)
        qsort(L->hidden_sets, L->n_hidden, sizeof(int), int_cmp);
    L->have_sets = 1;
    return SK_OK;
}

static int set_visible(const struct tu_load *L, int set)
{
    return !L->have_sets || bsearch(&set, L->visible_sets, L->n_visible, sizeof(int), int_cmp);
}

/* 1 when no player can own a card of `set`: a set skills_set.xml lists as not shown to
 * players (<visible>0</visible>: rewards kept hidden, event missions' cards, fortresses,
 * summoned units, waitlisted cards), or, with no skills_set.xml, one of the sets it hid
 * when the project was written (the sets the peer ignores in owned cards). A card of no
 * set, or of a set the file does not list, is not hidden: the peer owns those too. */
static int set_hidden(const struct tu_load *L, int set)
{
    static const int hidden[] = {5000, 6000, 8000, 9500, 9999};

    if (L->have_sets)
        return L->n_hidden &&
               bsearch(&set, L->hidden_sets, L->n_hidden, sizeof(int), int_cmp) != NULL;
    for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++)
        if (set == hidden[i])
            return 1;
    return 0;
}

/* ===== Cards ===== */

/* Card type from the id, as the game numbers its cards (the peer's ranges); set 8000 and
 * ids 2700..2996 are fortresses, 50001..55000 alpha dominions. */
static void derive_type(struct battle_card_spec *c)
{
    int id = c->id;
    c->type = BATTLE_ASSAULT;
    c->dominion = 0;
    if (id >= 1000 && id < 2000)
        c->type = BATTLE_COMMANDER;
    else if (id >= 2000 && id < 3000)
        c->type = id >= 2700 && id < 2997 ? BATTLE_FORTRESS : BATTLE_STRUCTURE;
    else if (id >= 8000 && id < 10000)
        c->type = BATTLE_STRUCTURE;
    else if (id >= 17000 && id < 25000)
        c->type = BATTLE_STRUCTURE;
    else if (id >= 25000 && id < 30000)
        c->type = BATTLE_COMMANDER;
    else if (id >= 50001 && id < 55001) {
        c->type = BATTLE_FORTRESS;
        c->dominion = 1;
    }
    if (c->set == 8000 && c->type == BATTLE_STRUCTURE)
        c->type = BATTLE_FORTRESS;
}

/* ===== Card sections, read as a stream =====
 *
 * The sections are read with libxml2's SAX2 interface rather than as trees: building a
 * tree of every element took about as long again as the parse itself, and the 300 ms
 * budget of a load would not hold (bench/history/2026-11-23.md). A <unit> is gathered as
 * written (its own fields and each <upgrade>'s) and built into cards at its end tag, so the
 * order of its elements does not matter. */

static const char *const skill_attrs[] = {"id", "x",  "y",       "n",       "c", "all",
                                          "s",  "s2", "trigger", "card_id", NULL};

enum { A_ID, A_X, A_Y, A_N, A_C, A_ALL, A_S, A_S2, A_TRIGGER, A_CARD_ID, A__COUNT };

/* Reads the attributes keys[i] = vals[i] (i < n) of a <skill> at `line` into *s; kinds[i]
 * is the attribute's index in skill_attrs, or -1. Returns 0 after a note when the skill
 * cannot be kept at all. */
static int read_skill(struct tu_load *L, long line, const char *const *keys, const int *kinds,
                      const char *const *vals, int n, struct battle_skill_spec *s)
{
    const char *id = NULL;
    int g;

    memset(s, 0, sizeof(*s));
    for (int i = 0; i < n; i++)
        if (kinds[i] == A_ID)
            id = vals[i];
    if (!id) {
        battle_xml_note(&L->notes, line, "a skill without 'id': left out of the card");
        return 0;
    }
    g = battle_tu_skill_parse(id);
    if (g < 0) {
        /* Kept as a skill the engine does not simulate, so a job with the card is refused
         * instead of played without it. */
        battle_xml_note(&L->notes, line, "unknown skill '%s': kept as a skill no job may use", id);
    } else if (L->have_skill_types && !L->game_defines[g]) {
        battle_xml_note(&L->notes, line,
                        "skill '%s' is not among the skill types of skills_set.xml", id);
    }
    s->game = g;
    s->id = battle_tu_skill_engine(g);
    for (int i = 0; i < n; i++) {
        const char *k = keys[i], *v = vals[i];
        if (kinds[i] < 0) {
            battle_xml_note(&L->notes, line, "unknown skill attribute '%s' (value '%s'): ignored",
                            k, v);
        } else if (kinds[i] == A_X) {
            s->x = to_int(L, line, "x", v);
        } else if (kinds[i] == A_Y) {
            s->y = to_int(L, line, "y", v);
            if (s->y < 0 || s->y > N_FACTIONS) {
                battle_xml_note(&L->notes, line,
                                "faction y='%s' is not one of the game's 1..6: read as any", v);
                s->y = 0;
            }
        } else if (kinds[i] == A_N) {
            s->n = to_int(L, line, "n", v);
        } else if (kinds[i] == A_C) {
            s->c = to_int(L, line, "c", v);
        } else if (kinds[i] == A_ALL) {
            s->all = to_int(L, line, "all", v) != 0;
        } else if (kinds[i] == A_CARD_ID) {
            s->card_id = to_int(L, line, "card_id", v);
        } else if (kinds[i] == A_S || kinds[i] == A_S2) {
            int t = battle_tu_skill_parse(v);
            if (t < 0)
                battle_xml_note(&L->notes, line, "unknown skill argument %s='%s': left out", k, v);
            else if (kinds[i] == A_S2)
                s->s2 = t + 1;
            else
                s->s = t + 1;
        } else if (kinds[i] == A_TRIGGER) {
            int t = 0;
            while (t < N_TRIGGERS && strcmp(v, trigger_names[t]) != 0)
                t++;
            if (t == N_TRIGGERS) {
                battle_xml_note(&L->notes, line,
                                "unknown trigger '%s': kept as a skill no job may use", v);
                s->id = BATTLE_SKILL__COUNT;
                t = 0;
            }
            s->trigger = t;
        }
    }
    return 1;
}

/* Takes the skill just read (c->skills[c->n_skills]) into the card as the game does: a
 * passive skill without x is worth 1 (or its n: the game's value of a skill is x, else n,
 * else 1; Flurry without x gives one extra action), and a skill the card already has
 * replaces the earlier one, which leaves (the game keeps one skill of each kind). */
static void keep_skill(struct tu_load *L, int line, struct battle_card_spec *c)
{
    struct battle_skill_spec s = c->skills[c->n_skills];
    int i;

    if (s.id < BATTLE_SKILL__COUNT && !s.x && (battle_rules_skill_opts(s.id) & BATTLE_OPT_X) &&
        battle_rules_skill_kind(s.id) == BATTLE_SK_PASSIVE)
        s.x = s.n ? s.n : 1;
    for (i = 0; i < c->n_skills && c->skills[i].game != s.game; i++)
        ;
    if (i < c->n_skills) {
        battle_xml_note(&L->notes, line,
                        "skill '%s' a second time on one card: it replaces the first",
                        battle_tu_skill_name(s.game));
        memmove(&c->skills[i], &c->skills[i + 1],
                (size_t)(c->n_skills - i - 1) * sizeof(c->skills[0]));
        c->n_skills--;
    }
    c->skills[c->n_skills++] = s;
}

/* Elements of a <unit> or <upgrade> the game uses for its shop, art or economy; known and
 * not needed to play a card. */
static const char *const ignored_elems[] = {"picture",   "asset_bundle",  "base_commander_id",
                                            "card_type", "cap_exclude",   "base_dominion_card",
                                            "gp_cost",   "fortress_type", "no_salvage",
                                            NULL};

/* The fields of a record, as bits of struct tu_rec.have. */
enum tu_field {
    F_ID,
    F_NAME,
    F_ATTACK,
    F_HEALTH,
    F_COST,
    F_RARITY,
    F_TYPE,
    F_SET,
    F_LEVEL,
    F_FUSION,
    F__COUNT,
    F_SKIP = -1
};

static const char *const field_names[F__COUNT] = {
    "id", "name", "attack", "health", "cost", "rarity", "type", "set", "level", "fusion_level"};

/* One <unit> or <upgrade> as written: the fields it has and its own skills. */
struct tu_rec {
    struct battle_card_spec c;
    unsigned have; /* 1u << enum tu_field */
    int skills;    /* it lists skills (which replace the level before's) */
    long line;
};

static enum sk_err push_card(struct tu_load *L, const struct battle_card_spec *c)
{
    if (grow(&L->cards, &L->cap, L->n, sizeof(*L->cards), 65536))
        return SK_ENOMEM;
    L->cards[L->n] = *c;
    L->cards[L->n++].hidden_set = set_hidden(L, c->set);
    return SK_OK;
}

/* Applies record `r` to *c (which holds the level before it, or zeros). Returns 0 after a
 * note when the record cannot be a card. */
static int apply(struct tu_load *L, const struct tu_rec *r, struct battle_card_spec *c, int is_unit)
{
    const struct battle_card_spec *w = &r->c;
    int have_name = (r->have >> F_NAME) & 1;

    if ((r->have >> F_ID) & 1)
        c->id = w->id;
    if (have_name)
        memcpy(c->name, w->name, sizeof(c->name));
    if ((r->have >> F_ATTACK) & 1)
        c->attack = w->attack;
    if ((r->have >> F_HEALTH) & 1)
        c->health = w->health;
    if ((r->have >> F_COST) & 1)
        c->delay = w->delay;
    if ((r->have >> F_RARITY) & 1)
        c->rarity = w->rarity;
    if ((r->have >> F_TYPE) & 1)
        c->faction = w->faction;
    if ((r->have >> F_SET) & 1)
        c->set = w->set;
    if ((r->have >> F_FUSION) & 1) /* an upgrade keeps its unit's, as the peer reads it */
        c->fusion_level = w->fusion_level;
    c->level = (r->have >> F_LEVEL) & 1 ? w->level : 0;
    if (r->skills) {
        /* A level with skills lists all of them: the ones before are replaced. */
        c->n_skills = w->n_skills;
        memcpy(c->skills, w->skills, sizeof(c->skills));
    }
    if (!((r->have >> F_ID) & 1) || w->id <= 0 || (is_unit && !have_name) ||
        (have_name && (!c->name[0] || strlen(c->name) > BATTLE_NAME_MAX - 16))) {
        battle_xml_note(&L->notes, r->line, "%s without %s: left out%s",
                        is_unit ? "a unit" : "an upgrade",
                        !((r->have >> F_ID) & 1) || w->id <= 0
                            ? (is_unit ? "a positive <id>" : "a positive <card_id>")
                            : "a name of 1 to 48 bytes",
                        is_unit ? " with its upgrades" : " with the levels after it");
        return 0;
    }
    return 1;
}

/* Builds the cards of a unit from its records: recs[0] the unit, then its upgrades. */
static enum sk_err build_unit(struct tu_load *L, const struct tu_rec *recs, int n)
{
    struct battle_card_spec c;
    struct tu_unit u;
    int level = 1;
    enum sk_err rc;

    memset(&c, 0, sizeof(c));
    if (!apply(L, &recs[0], &c, 1))
        return SK_OK;
    derive_type(&c);
    c.level = 1;
    memcpy(u.name, c.name, sizeof(u.name));
    u.first = L->n;
    u.visible = set_visible(L, c.set);
    u.order = L->n_units;
    rc = push_card(L, &c);
    for (int k = 1; k < n && !rc; k++) {
        struct battle_card_spec up = L->cards[L->n - 1];
        if (!apply(L, &recs[k], &up, 0))
            break;
        if (up.level != level + 1)
            battle_xml_note(&L->notes, recs[k].line,
                            "upgrade <level> %d where %d was due: numbered by its place", up.level,
                            level + 1);
        up.level = ++level;
        rc = push_card(L, &up);
    }
    if (rc)
        return rc;
    u.n = level;
    if (grow(&L->units, &L->cap_units, L->n_units, sizeof(*L->units), 16384))
        return SK_ENOMEM;
    L->units[L->n_units++] = u;
    return SK_OK;
}

/* What the stream reader knows between callbacks. Depths: the root element is 1, a <unit>
 * 2, its fields and <upgrade>s 3, an upgrade's fields 4. */
struct tu_sax {
    struct tu_load *L;
    xmlParserCtxtPtr ctx;
    int depth;
    int rec_depth; /* depth of the open record (2 unit, 3 upgrade); 0 outside a unit */
    struct tu_rec recs[BATTLE_LEVELS_MAX];
    int n_recs;
    int dropped_levels; /* upgrades past BATTLE_LEVELS_MAX, noted once */
    int field;          /* the field whose text is being read, F_SKIP, or -2 for none */
    char text[256];
    size_t text_len;
    enum sk_err rc;
    /* The names Skirmish knows, interned in the parser's dictionary: libxml2 hands element
     * and attribute names over from that dictionary, so they compare as pointers (string
     * compares were a fifth of the load). */
    const xmlChar *unit, *upgrade, *skill, *id, *card_id;
    const xmlChar *fields[F__COUNT];
    const xmlChar *ignored[16];
    const xmlChar *attrs[A__COUNT];
};

/* Interns the known names in the parser's dictionary; 0 when out of memory. */
static int intern_names(struct tu_sax *x)
{
    xmlDictPtr d = x->ctx->dict;
    int ok;

#define INTERN(s) xmlDictLookup(d, (const xmlChar *)(s), -1)
    x->unit = INTERN("unit");
    x->upgrade = INTERN("upgrade");
    x->skill = INTERN("skill");
    x->id = INTERN("id");
    x->card_id = INTERN("card_id");
    ok = x->unit && x->upgrade && x->skill && x->id && x->card_id;
    for (int f = 0; f < F__COUNT; f++)
        ok &= (x->fields[f] = INTERN(field_names[f])) != NULL;
    for (int i = 0; ignored_elems[i]; i++)
        ok &= (x->ignored[i] = INTERN(ignored_elems[i])) != NULL;
    for (int a = 0; a < A__COUNT; a++)
        ok &= (x->attrs[a] = INTERN(skill_attrs[a])) != NULL;
#undef INTERN
    return ok;
}

static long sax_line(const struct tu_sax *x)
{
    return (long)xmlSAX2GetLineNumber(x->ctx);
}

/* A field of the open record named `name`, or F_SKIP for a known one Skirmish does not
 * read, or -2 after noting an unknown one. */
static int field_of(struct tu_sax *x, const xmlChar *name)
{
    if (name == (x->rec_depth == 2 ? x->id : x->card_id))
        return F_ID;
    for (int f = F_NAME; f < F__COUNT; f++)
        if (name == x->fields[f])
            return f;
    for (int i = 0; ignored_elems[i]; i++)
        if (name == x->ignored[i])
            return F_SKIP;
    battle_xml_note(&x->L->notes, sax_line(x), "unknown element <%s>: ignored", (const char *)name);
    return -2;
}

static void sax_start(void *data, const xmlChar *localname, const xmlChar *prefix,
                      const xmlChar *uri, int n_ns, const xmlChar **ns, int n_attrs,
                      int n_defaulted, const xmlChar **attrs)
{
    struct tu_sax *x = data;
    const char *name = (const char *)localname;
    struct tu_rec *r;

    (void)prefix;
    (void)uri;
    (void)n_ns;
    (void)ns;
    (void)n_defaulted;
    x->depth++;
    x->field = -2;
    if (x->rc)
        return;
    if (x->depth == 2) {
        if (localname != x->unit) {
            battle_xml_note(&x->L->notes, sax_line(x), "unknown element <%s>: ignored", name);
            return;
        }
        memset(&x->recs[0], 0, sizeof(x->recs[0]));
        x->recs[0].line = sax_line(x);
        x->n_recs = 1;
        x->dropped_levels = 0;
        x->rec_depth = 2;
        return;
    }
    if (!x->rec_depth || x->depth != x->rec_depth + 1)
        return; /* outside a unit, or inside a field */
    if (x->rec_depth == 2 && localname == x->upgrade) {
        if (x->n_recs == BATTLE_LEVELS_MAX) {
            if (!x->dropped_levels++)
                battle_xml_note(&x->L->notes, sax_line(x),
                                "more than %d levels: the ones after it are left out",
                                BATTLE_LEVELS_MAX);
            x->rec_depth = -1; /* skip this upgrade's contents */
            return;
        }
        r = &x->recs[x->n_recs++];
        memset(r, 0, sizeof(*r));
        r->line = sax_line(x);
        x->rec_depth = 3;
        return;
    }
    r = &x->recs[x->n_recs - 1];
    if (localname == x->skill) {
        const char *keys[16], *vals[16];
        int kinds[16];
        char buf[16][128];
        int n = 0;
        for (int i = 0; i < n_attrs && n < 16; i++, n++) {
            const xmlChar *const *a =
                attrs + (size_t)5 * (size_t)i; /* localname, prefix, URI, value, end */
            size_t len = (size_t)(a[4] - a[3]);
            if (len >= sizeof(buf[n]))
                len = sizeof(buf[n]) - 1;
            memcpy(buf[n], a[3], len);
            buf[n][len] = '\0';
            keys[n] = (const char *)a[0];
            vals[n] = buf[n];
            kinds[n] = -1;
            for (int k = 0; k < A__COUNT && kinds[n] < 0; k++)
                if (a[0] == x->attrs[k])
                    kinds[n] = k;
        }
        r->skills = 1;
        if (r->c.n_skills == BATTLE_CARD_SKILLS_MAX)
            battle_xml_note(&x->L->notes, sax_line(x),
                            "more than %d skills on one card: this one is left out",
                            BATTLE_CARD_SKILLS_MAX);
        else if (read_skill(x->L, sax_line(x), keys, kinds, vals, n, &r->c.skills[r->c.n_skills]))
            keep_skill(x->L, sax_line(x), &r->c);
        return;
    }
    x->field = field_of(x, localname);
    x->text_len = 0;
}

static void sax_text(void *data, const xmlChar *s, int len)
{
    struct tu_sax *x = data;
    size_t room;

    if (x->field < 0)
        return;
    room = sizeof(x->text) - 1 - x->text_len;
    if ((size_t)len > room)
        len = (int)room;
    memcpy(x->text + x->text_len, s, (size_t)len);
    x->text_len += (size_t)len;
}

/* Stores the text of field `f` in record `r`. */
static void set_field(struct tu_sax *x, struct tu_rec *r, int f)
{
    long line = sax_line(x);
    int *ints[F__COUNT] = {
        [F_ID] = &r->c.id,      [F_ATTACK] = &r->c.attack, [F_HEALTH] = &r->c.health,
        [F_COST] = &r->c.delay, [F_RARITY] = &r->c.rarity, [F_TYPE] = &r->c.faction,
        [F_SET] = &r->c.set,    [F_LEVEL] = &r->c.level,   [F_FUSION] = &r->c.fusion_level};

    x->text[x->text_len] = '\0';
    r->have |= 1u << f;
    if (f == F_NAME) {
        size_t len = 0;
        /* The peer drops ';', ':' and ',' from names: they separate deck strings. */
        for (const char *p = x->text; *p && len < BATTLE_NAME_MAX; p++)
            if (!strchr(";:,", *p))
                r->c.name[len++] = *p;
        r->c.name[len] = '\0';
        if (!len || len > BATTLE_NAME_MAX - 16)
            battle_xml_note(&x->L->notes, line, "card name '%s' is empty or longer than %d bytes",
                            x->text, BATTLE_NAME_MAX - 16);
        return;
    }
    *ints[f] = to_int(x->L, line, field_names[f], x->text);
}

static void sax_end(void *data, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri)
{
    struct tu_sax *x = data;

    (void)localname;
    (void)prefix;
    (void)uri;
    if (!x->rc && x->rec_depth > 0 && x->field >= 0 && x->depth == x->rec_depth + 1)
        set_field(x, &x->recs[x->n_recs - 1], x->field);
    x->field = -2;
    if (x->rec_depth == -1 && x->depth == 3) {
        x->rec_depth = 2; /* end of a skipped upgrade */
    } else if (x->rec_depth == 3 && x->depth == 3) {
        x->rec_depth = 2;
    } else if (x->rec_depth == 2 && x->depth == 2) {
        if (!x->rc)
            x->rc = build_unit(x->L, x->recs, x->n_recs);
        x->rec_depth = 0;
    }
    x->depth--;
}

/* Reads the card section `name` (text, len bytes) as a stream. */
static enum sk_err read_section(struct tu_load *L, const char *name, const char *text, size_t len)
{
    struct first_error fe = {0, 0, "not well-formed XML"};
    xmlSAXHandler h;
    struct tu_sax *x = sk_calloc(1, sizeof(*x));
    enum sk_err rc;

    if (!x)
        return SK_ENOMEM;
    memset(&h, 0, sizeof(h));
    h.initialized = XML_SAX2_MAGIC;
    h.startElementNs = sax_start;
    h.endElementNs = sax_end;
    h.characters = sax_text;
    x->L = L;
    x->field = -2;
    x->ctx = xmlCreatePushParserCtxt(&h, x, NULL, 0, name);
    if (!x->ctx || !intern_names(x)) {
        xmlFreeParserCtxt(x->ctx);
        sk_free(x);
        return SK_ENOMEM;
    }
    /* The handler is libxml2's per-thread state: set for this parse only. */
    xmlSetStructuredErrorFunc(&fe, keep_first);
    xmlCtxtUseOptions(x->ctx, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
    xmlParseChunk(x->ctx, text, (int)len, 1);
    xmlSetStructuredErrorFunc(NULL, NULL);
    rc = x->rc;
    if (!rc && (fe.seen || !x->ctx->wellFormed)) {
        snprintf(L->err, L->errlen, "%s/%s:%d: %s", L->dir, name, fe.line, fe.msg);
        rc = SK_EINVAL;
    }
    xmlFreeParserCtxt(x->ctx);
    sk_free(x);
    return rc;
}

/* ===== Names ===== */

static int unit_cmp(const void *pa, const void *pb)
{
    const struct tu_unit *a = pa, *b = pb;
    int d = strcmp(a->name, b->name);
    if (d)
        return d;
    if (a->visible != b->visible)
        return b->visible - a->visible;
    return (a->order > b->order) - (a->order < b->order);
}

/*
 * Gives every card its name as players write it: the top level is the plain name, a lower
 * level is "Name-L". Several units may share a name; the peer then means the one whose set
 * is shown to players, else the first read, and so does Skirmish: the others get their card
 * id appended ("Name-3 [1234]"), so that a name means one card.
 */
static void name_levels(struct tu_load *L)
{
    qsort(L->units, L->n_units, sizeof(*L->units), unit_cmp);
    for (size_t i = 0; i < L->n_units; i++) {
        const struct tu_unit *u = &L->units[i];
        int dup = i > 0 && strcmp(L->units[i - 1].name, u->name) == 0;
        int ids[BATTLE_LEVELS_MAX];

        for (int l = 0; l < u->n; l++)
            ids[l] = L->cards[u->first + (size_t)l].id;
        for (int l = 0; l < u->n; l++) {
            struct battle_card_spec *c = &L->cards[u->first + (size_t)l];
            char own[BATTLE_NAME_MAX + 1];
            char lv[16] = "", id[24] = "";
            /* An upgrade may rename its level; the level suffix follows its own name. */
            memcpy(own, c->name, sizeof(own));
            if (l + 1 < u->n)
                snprintf(lv, sizeof(lv), "-%d", l + 1);
            if (dup)
                snprintf(id, sizeof(id), " [%d]", c->id);
            /* the suffixes tell the levels and duplicates apart: a long name gives way */
            int room = (int)(sizeof(c->name) - 1 - strlen(lv) - strlen(id));
            if (snprintf(c->name, sizeof(c->name), "%.*s%s%s", room, own, lv, id) < 0)
                c->name[0] = '\0';
            c->n_levels = u->n;
            memcpy(c->level_ids, ids, sizeof(ids));
        }
    }
}

/* ===== Ids defined twice ===== */

/* The section (cards_section_N.xml) card `i` was read from. */
static int section_of(const struct tu_load *L, int sections, size_t i)
{
    int k = sections;
    while (k > 1 && L->section_first[k] > i)
        k--;
    return k;
}

struct id_at {
    int id;
    size_t i; /* index in cards[], the read order */
};

static int id_at_cmp(const void *pa, const void *pb)
{
    const struct id_at *a = pa, *b = pb;
    if (a->id != b->id)
        return (a->id > b->id) - (a->id < b->id);
    return (a->i > b->i) - (a->i < b->i);
}

/*
 * A card id defined twice (the files give 19998 and 19999 to Test Dis Structure in section 8
 * and to Observation Axis' levels 3 and 4 in section 21): the card read last keeps the id, as
 * the game and tuo (its cards_by_id) read the files, and the earlier one is dropped with a
 * note. tuo still finds the earlier one by its name, then plays the card its id holds (a deck
 * goes by ids): "Test Dis Structure-1" plays there as Observation Axis-3. Here the name is
 * unknown, a 422 rather than another card than the one named.
 */
static enum sk_err drop_redefined(struct tu_load *L, int sections)
{
    struct id_at *ids = sk_malloc((L->n ? L->n : 1) * sizeof(*ids));
    unsigned char *drop = sk_calloc(L->n ? L->n : 1, 1);
    size_t kept = 0;
    enum sk_err rc = SK_ENOMEM;

    if (!ids || !drop)
        goto out;
    for (size_t i = 0; i < L->n; i++) {
        ids[i].id = L->cards[i].id;
        ids[i].i = i;
    }
    qsort(ids, L->n, sizeof(*ids), id_at_cmp);
    for (size_t k = 0; k + 1 < L->n; k++) {
        const struct battle_card_spec *a = &L->cards[ids[k].i], *b = &L->cards[ids[k + 1].i];
        char where[64];
        if (ids[k].id != ids[k + 1].id)
            continue;
        drop[ids[k].i] = 1;
        snprintf(where, sizeof(where), "cards_section_%d.xml", section_of(L, sections, ids[k].i));
        sk_verr_add(L->notes.list, where,
                    "card id %d (\"%s\") is defined again in cards_section_%d.xml (\"%s\"): "
                    "the later one keeps the id, as the game and tuo read the files; \"%s\" is "
                    "left out",
                    a->id, a->name, section_of(L, sections, ids[k + 1].i), b->name, a->name);
    }
    for (size_t i = 0; i < L->n; i++)
        if (!drop[i])
            L->cards[kept++] = L->cards[i];
    L->n = kept;
    rc = SK_OK;
out:
    sk_free(ids);
    sk_free(drop);
    return rc;
}

/* ===== Fusion recipes ===== */

static int recipe_cmp(const void *a, const void *b)
{
    return int_cmp(&((const struct battle_tu_recipe *)a)->card_id,
                   &((const struct battle_tu_recipe *)b)->card_id);
}

static enum sk_err read_recipes(struct tu_load *L, xmlDocPtr doc)
{
    xmlNode *root = xmlDocGetRootElement(doc);

    for (xmlNode *n = root ? root->children : NULL; n; n = n->next) {
        struct battle_tu_recipe r;
        if (!battle_xml_is(n, "fusion_recipe"))
            continue;
        memset(&r, 0, sizeof(r));
        for (xmlNode *c = n->children; c; c = c->next) {
            if (battle_xml_is(c, "card_id")) {
                r.card_id = elem_int(L, c);
            } else if (battle_xml_is(c, "resource")) {
                xmlChar *id = xmlGetProp(c, (const xmlChar *)"card_id");
                xmlChar *num = xmlGetProp(c, (const xmlChar *)"number");
                if (r.n == BATTLE_TU_RECIPE_MAX) {
                    battle_xml_note(&L->notes, LINE(c),
                                    "more than %d resources in a recipe: this one is left out",
                                    BATTLE_TU_RECIPE_MAX);
                } else {
                    r.res_id[r.n] = to_int(L, LINE(c), "resource card_id", (const char *)id);
                    r.res_count[r.n] = num ? to_int(L, LINE(c), "number", (const char *)num) : 1;
                    r.n++;
                }
                xmlFree(id);
                xmlFree(num);
            }
        }
        if (r.card_id <= 0 || r.n == 0) {
            battle_xml_note(&L->notes, LINE(n),
                            "a fusion recipe without a card id or resources: left out");
            continue;
        }
        if (grow(&L->recipes, &L->cap_recipes, L->n_recipes, sizeof(*L->recipes), 8192))
            return SK_ENOMEM;
        L->recipes[L->n_recipes++] = r;
    }
    qsort(L->recipes, L->n_recipes, sizeof(*L->recipes), recipe_cmp);
    return SK_OK;
}

/* ===== The folder ===== */

/* Reads, parses and walks one file with `walk`; `optional` files may be missing (a note
 * says so when `why` is set). */
static enum sk_err read_one(struct tu_load *L, const char *name, int optional, const char *why,
                            enum sk_err (*walk)(struct tu_load *, xmlDocPtr), int *missing)
{
    char *text = NULL;
    size_t len = 0;
    xmlDocPtr doc = NULL;
    enum sk_err rc;

    rc = slurp(L, name, &text, &len, missing);
    if (rc && *missing) {
        if (optional) {
            if (why)
                sk_verr_add(L->notes.list, name, "%s", why);
            return SK_OK;
        }
        snprintf(L->err, L->errlen, "%s/%s: no such file", L->dir, name);
        return SK_EIO;
    }
    if (rc)
        return rc;
    L->notes.file = name;
    if (!walk) {
        rc = read_section(L, name, text, len);
        sk_free(text);
        return rc;
    }
    rc = parse_xml(L, name, text, len, &doc);
    if (!rc)
        rc = walk(L, doc);
    xmlFreeDoc(doc);
    sk_free(text);
    return rc;
}

/* levels.xml holds upgrade costs Skirmish does not use; a copy that is not the game's (the
 * test snapshot holds an HTTP error page under this name) is noted, not fatal. */
static void check_levels(struct tu_load *L)
{
    char *text = NULL;
    size_t len = 0;
    int missing = 0;
    xmlDocPtr doc = NULL;
    char saved[512];

    if (slurp(L, "levels.xml", &text, &len, &missing) != SK_OK) {
        if (!missing)
            sk_verr_add(L->notes.list, "levels.xml", "cannot be read: ignored (%s)", L->err);
        L->err[0] = '\0';
        return;
    }
    snprintf(saved, sizeof(saved), "%s", L->err);
    if (parse_xml(L, "levels.xml", text, len, &doc) != SK_OK) {
        sk_verr_add(L->notes.list, "levels.xml",
                    "not the game's levels file (%s): ignored; Skirmish reads no upgrade costs",
                    L->err);
    } else if (!xmlDocGetRootElement(doc) ||
               strcmp((const char *)xmlDocGetRootElement(doc)->name, "root") != 0) {
        sk_verr_add(L->notes.list, "levels.xml:1",
                    "not the game's levels file (root element <%s>, not <root>): ignored; "
                    "Skirmish reads no upgrade costs",
                    xmlDocGetRootElement(doc) ? (const char *)xmlDocGetRootElement(doc)->name
                                              : "none");
    }
    snprintf(L->err, L->errlen, "%s", saved);
    xmlFreeDoc(doc);
    sk_free(text);
}

/* NOLINTNEXTLINE(readability-function-size): the game's files, one after the other */
enum sk_err battle_tu_load(const char *dir, struct battle_tu_data *out, struct sk_verr_list *notes,
                           char *err, size_t errlen)
{
    struct tu_load L;
    struct stat st;
    int *ids = NULL;
    enum sk_err rc = SK_OK;
    int missing = 0;
    int sections = 0;
    int has_recipes = 0;

    memset(&L, 0, sizeof(L));
    L.dir = dir;
    L.notes.list = notes;
    L.err = err;
    L.errlen = errlen;
    L.hash = BATTLE_TU_FNV_SEED;
    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "cards folder '%s': %s", dir, strerror(errno));
        return SK_EIO;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "cards folder '%s': not a folder", dir);
        return SK_EIO;
    }
    xmlInitParser();
    rc = read_one(&L, "skills_set.xml", 1,
                  "no skills_set.xml: every card set counts as shown to players", read_skills_set,
                  &missing);
    for (int i = 1; !rc && i <= BATTLE_TU_SECTIONS_MAX; i++) {
        char name[64];
        snprintf(name, sizeof(name), "cards_section_%d.xml", i);
        L.section_first[i] = L.n;
        rc = read_one(&L, name, i > 1, NULL, NULL, &missing);
        if (missing)
            break;
        if (!rc)
            sections++;
    }
    /* The sections are read from 1 up to the first missing one, as the game numbers them;
     * a later one past a gap (a download that lost a file) is not read, and says so. */
    for (int i = sections + 2; !rc && i <= BATTLE_TU_SECTIONS_MAX; i++) {
        char name[64], path[4096];
        snprintf(name, sizeof(name), "cards_section_%d.xml", i);
        snprintf(path, sizeof(path), "%s/%s", dir, name);
        if (stat(path, &st) == 0)
            sk_verr_add(notes, name,
                        "not read: cards_section_%d.xml is missing, and the sections are read "
                        "from 1 up to the first missing one",
                        sections + 1);
    }
    if (!rc)
        rc = read_one(&L, "fusion_recipes_cj2.xml", 1,
                      "no fusion_recipes_cj2.xml: cards have no fusion recipes", read_recipes,
                      &missing);
    if (rc)
        goto out;
    has_recipes = !missing;
    check_levels(&L);
    if (L.n == 0) {
        snprintf(err, errlen, "cards folder '%s': the card files hold no <unit>", dir);
        rc = SK_EINVAL;
        goto out;
    }
    name_levels(&L);
    rc = drop_redefined(&L, sections);
    if (rc)
        goto out;
    /* Recipes that name cards the files do not have are noted: they would list nothing. */
    ids = sk_malloc(L.n * sizeof(*ids));
    if (!ids) {
        rc = SK_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < L.n; i++)
        ids[i] = L.cards[i].id;
    qsort(ids, L.n, sizeof(*ids), int_cmp);
    for (size_t i = 0; i < L.n_recipes; i++) {
        if (!bsearch(&L.recipes[i].card_id, ids, L.n, sizeof(*ids), int_cmp)) {
            char what[32];
            snprintf(what, sizeof(what), "%d", L.recipes[i].card_id);
            sk_verr_add(notes, "fusion_recipes_cj2.xml",
                        "a recipe for card id %s, which no card file has", what);
        }
    }
    out->cards = L.cards;
    out->n_cards = L.n;
    out->recipes = L.recipes;
    out->n_recipes = L.n_recipes;
    out->has_recipes = has_recipes;
    out->hash = L.hash;
    out->n_sections = sections;
    L.cards = NULL;
    L.recipes = NULL;
out:
    sk_free(ids);
    sk_free(L.cards);
    sk_free(L.recipes);
    sk_free(L.units);
    sk_free(L.visible_sets);
    sk_free(L.hidden_sets);
    return rc;
}

void battle_tu_data_release(struct battle_tu_data *data)
{
    if (!data)
        return;
    sk_free(data->cards);
    sk_free(data->recipes);
    memset(data, 0, sizeof(*data));
}
