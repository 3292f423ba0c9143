/* SPDX-License-Identifier: MIT */
/* Tyrant Unleashed's vocabulary and card files (see battle_tu.h). The files are parsed by
 * libxml2 into a tree (a section is under 1 MB, so a tree costs little and gives every
 * element its line); the walk below follows the game's format as the peer simulator reads
 * it: an <upgrade> is a card of its own that inherits every field of the level before it
 * and replaces the skill list when it has any <skill>. */
#include "battle_tu.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "battle_cards.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

/* ===== Vocabulary ===== */

/* The game's skills: (name players write, name in the card files when it differs). The
 * order is the peer's (tyrant.h), so a list in its order reads the same here. */
static const struct {
    const char *name;
    const char *xml;
} tu_skills[BATTLE_TU_SKILL__COUNT] = {
    {"enfeeble", NULL},   {"jam", NULL},       {"mortar", "besiege"}, {"siege", NULL},
    {"strike", NULL},     {"sunder", NULL},    {"weaken", NULL},      {"evolve", NULL},
    {"heal", NULL},       {"mend", NULL},      {"overload", NULL},    {"protect", NULL},
    {"rally", NULL},      {"fortify", NULL},   {"enrage", NULL},      {"entrap", NULL},
    {"rush", NULL},       {"mimic", NULL},     {"armor", "armored"},  {"avenge", NULL},
    {"scavenge", NULL},   {"corrosive", NULL}, {"counter", NULL},     {"evade", NULL},
    {"subdue", NULL},     {"absorb", NULL},    {"flying", NULL},      {"payback", NULL},
    {"revenge", NULL},    {"tribute", NULL},   {"refresh", NULL},     {"wall", NULL},
    {"barrier", NULL},    {"coalition", NULL}, {"legion", NULL},      {"pierce", NULL},
    {"rupture", NULL},    {"swipe", NULL},     {"drain", NULL},       {"venom", NULL},
    {"hunt", NULL},       {"mark", NULL},      {"berserk", NULL},     {"leech", NULL},
    {"poison", NULL},     {"inhibit", NULL},   {"sabotage", NULL},    {"disease", NULL},
    {"allegiance", NULL}, {"flurry", NULL},    {"valor", NULL},       {"stasis", NULL},
    {"summon", NULL},     {"bravery", NULL},   {"enhance", NULL},
};

static const char *const faction_names[] = {"none", "imperial",  "raider",    "bloodthirsty",
                                            "xeno", "righteous", "progenitor"};
static const char *const rarity_names[] = {"none",      "common",     "rare",  "epic",
                                           "legendary", "vindicator", "mythic"};
static const char *const trigger_names[] = {"activate", "play", "attacked", "death"};
#define N_FACTIONS 6
#define N_RARITIES 6
#define N_TRIGGERS 4

const char *battle_tu_skill_name(int skill)
{
    return skill >= 0 && skill < BATTLE_TU_SKILL__COUNT ? tu_skills[skill].name : "unknown";
}

int battle_tu_skill_parse(const char *name)
{
    for (int i = 0; i < BATTLE_TU_SKILL__COUNT; i++)
        if (strcmp(name, tu_skills[i].name) == 0 ||
            (tu_skills[i].xml && strcmp(name, tu_skills[i].xml) == 0))
            return i;
    return -1;
}

enum battle_skill battle_tu_skill_engine(int skill)
{
    int id = skill >= 0 && skill < BATTLE_TU_SKILL__COUNT
                 ? battle_cards_skill_parse(tu_skills[skill].name)
                 : -1;
    return id < 0 ? BATTLE_SKILL__COUNT : (enum battle_skill)id;
}

int battle_tu_skill_of_engine(enum battle_skill skill)
{
    return battle_tu_skill_parse(battle_cards_skill_name(skill));
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
    if (c->health > BATTLE_STAT_MAX || c->attack > BATTLE_STAT_MAX) {
        snprintf(why, whylen, "attack and health above %d are not simulated yet", BATTLE_STAT_MAX);
        return 1;
    }
    if (c->delay > BATTLE_DELAY_MAX) {
        snprintf(why, whylen, "a delay above %d is not simulated yet", BATTLE_DELAY_MAX);
        return 1;
    }
    for (int i = 0; i < c->n_skills; i++) {
        const struct battle_skill_spec *s = &c->skills[i];
        const char *name = s->id < BATTLE_SKILL__COUNT ? battle_cards_skill_name(s->id)
                                                       : battle_tu_skill_name(s->game);
        const char *opt = s->y ? "y" : s->n ? "n" : s->c ? "c" : s->s || s->s2 ? "s" : NULL;
        if (s->id >= BATTLE_SKILL__COUNT) {
            snprintf(why, whylen, "skill '%s' is not simulated yet", name);
            return 1;
        }
        if (s->trigger) {
            snprintf(why, whylen, "skill '%s' on %s is not simulated yet (only activation)", name,
                     battle_tu_trigger_name(s->trigger));
            return 1;
        }
        if (opt || s->card_id) {
            snprintf(why, whylen, "option '%s' of skill '%s' is not simulated yet",
                     opt ? opt : "card_id", name);
            return 1;
        }
        if (s->x > BATTLE_SKILL_X_MAX) {
            snprintf(why, whylen, "skill '%s' %d: values above %d are not simulated yet", name,
                     s->x, BATTLE_SKILL_X_MAX);
            return 1;
        }
    }
    return 0;
}

/* ===== Reading files ===== */

/* A file of the folder larger than this is refused (the largest section is under 1 MB). */
#define TU_FILE_MAX (64u << 20)

struct tu_load {
    const char *dir;
    struct sk_verr_list *notes;
    char *err;
    size_t errlen;
    uint64_t hash;
    /* card sets shown to players (skills_set.xml); all of them when the file is absent */
    int *visible_sets;
    size_t n_visible;
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
    const char *file; /* the file being walked (its name within dir) */
};

struct tu_unit {
    char name[BATTLE_NAME_MAX + 1]; /* level 1's name */
    size_t first;                   /* index of its level 1 in cards */
    int n;                          /* levels */
    int visible;                    /* its set is shown to players */
    size_t order;                   /* load order */
};

uint64_t battle_tu_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Reads dir/name into a new buffer. Returns SK_OK, SK_ENOENT-like SK_EIO with *missing = 1
 * when the file does not exist, or an error with `err` filled. */
static enum sk_err slurp(struct tu_load *L, const char *name, char **out, size_t *len, int *missing)
{
    char path[4096];
    struct stat st;
    FILE *f = NULL;
    char *buf = NULL;
    enum sk_err rc = SK_OK;

    *missing = 0;
    if (snprintf(path, sizeof(path), "%s/%s", L->dir, name) >= (int)sizeof(path)) {
        snprintf(L->err, L->errlen, "cards folder path '%s' is too long", L->dir);
        return SK_EINVAL;
    }
    f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) {
            *missing = 1;
            return SK_EIO;
        }
        snprintf(L->err, L->errlen, "cannot open '%s': %s", path, strerror(errno));
        return SK_EIO;
    }
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > TU_FILE_MAX) {
        snprintf(L->err, L->errlen, "'%s' is not a regular file of at most %u bytes", path,
                 TU_FILE_MAX);
        rc = SK_EINVAL;
        goto out;
    }
    buf = sk_malloc((size_t)st.st_size + 1);
    if (!buf) {
        rc = SK_ENOMEM;
        goto out;
    }
    if (fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
        snprintf(L->err, L->errlen, "cannot read '%s'", path);
        rc = SK_EIO;
        goto out;
    }
    buf[st.st_size] = '\0';
    L->hash = battle_tu_fnv1a(L->hash, name, strlen(name) + 1);
    L->hash = battle_tu_fnv1a(L->hash, buf, (size_t)st.st_size);
    *out = buf;
    *len = (size_t)st.st_size;
    buf = NULL;
out:
    sk_free(buf);
    fclose(f);
    return rc;
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
    snprintf(fe->msg, sizeof(fe->msg), "%s", e->message ? e->message : "not well-formed XML");
    fe->msg[strcspn(fe->msg, "\n")] = '\0';
}

/* Parses `len` bytes of `name` into a tree; on a syntax error fills `err` with its line. */
static enum sk_err parse_xml(struct tu_load *L, const char *name, const char *text, size_t len,
                             xmlDocPtr *out)
{
    struct first_error fe = {0, 0, "not well-formed XML"};
    xmlDocPtr doc;

    /* The handler is libxml2's per-thread state: set for this parse only. */
    xmlSetStructuredErrorFunc(&fe, keep_first);
    /* NONET: a card file never fetches anything; BIG_LINES: line numbers past 65535. */
    doc = xmlReadMemory(text, (int)len, name, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (!doc || fe.seen) {
        snprintf(L->err, L->errlen, "%s/%s:%d: %s", L->dir, name, fe.line, fe.msg);
        xmlFreeDoc(doc);
        return doc || fe.seen ? SK_EINVAL : SK_ENOMEM;
    }
    *out = doc;
    return SK_OK;
}

/* Adds a note at FILE:LINE of node `n`. */
static void note(struct tu_load *L, const xmlNode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note(struct tu_load *L, const xmlNode *n, const char *fmt, ...)
{
    char where[300], msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(where, sizeof(where), "%s:%ld", L->file, n ? xmlGetLineNo(n) : 0L);
    sk_verr_add(L->notes, where, "%s", msg);
}

/* A possibly NULL libxml2 string, for messages. */
static const char *str(const xmlChar *s)
{
    return s ? (const char *)s : "";
}

static int is(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The integer text of element `n` (or attribute value `s` when n is NULL), or 0 with a
 * note: the game's own client reads a bad number as 0, so the value is kept as 0. */
static int to_int(struct tu_load *L, const xmlNode *at, const char *what, const char *s)
{
    int64_t v = 0;
    if (!s || sk_parse_i64(s, -1000000000LL, 1000000000LL, &v) != SK_OK) {
        note(L, at, "%s '%s' is not an integer: read as 0", what, s ? s : "");
        return 0;
    }
    return (int)v;
}

static int elem_int(struct tu_load *L, const xmlNode *n)
{
    xmlChar *t = xmlNodeGetContent(n);
    int v = to_int(L, n, (const char *)n->name, (const char *)t);
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
    size_t cap = 0;

    for (xmlNode *n = root ? root->children : NULL; n; n = n->next) {
        int id = 0, visible = 0, have_id = 0;
        if (is(n, "skillType")) {
            for (xmlNode *c = n->children; c; c = c->next) {
                if (is(c, "id")) {
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
        if (!is(n, "cardSet"))
            continue;
        for (xmlNode *c = n->children; c; c = c->next) {
            if (is(c, "id")) {
                id = elem_int(L, c);
                have_id = 1;
            } else if (is(c, "visible")) {
                visible = elem_int(L, c);
            }
        }
        if (!have_id || !visible)
            continue;
        if (L->n_visible == cap) {
            int *nb = sk_realloc(L->visible_sets, (cap ? cap * 2 : 64) * sizeof(int));
            if (!nb)
                return SK_ENOMEM;
            L->visible_sets = nb;
            cap = cap ? cap * 2 : 64;
        }
        L->visible_sets[L->n_visible++] = id;
    }
    qsort(L->visible_sets, L->n_visible, sizeof(int), int_cmp);
    L->have_sets = 1;
    return SK_OK;
}

static int set_visible(const struct tu_load *L, int set)
{
    return !L->have_sets || bsearch(&set, L->visible_sets, L->n_visible, sizeof(int), int_cmp);
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

static const char *const skill_attrs[] = {"id", "x",  "y",       "n",       "c", "all",
                                          "s",  "s2", "trigger", "card_id", NULL};

/* Reads one <skill> into *s; returns 0 after a note when it cannot be kept at all. */
static int read_skill(struct tu_load *L, const xmlNode *n, struct battle_skill_spec *s)
{
    xmlChar *id = xmlGetProp(n, (const xmlChar *)"id");
    int g;

    memset(s, 0, sizeof(*s));
    if (!id) {
        note(L, n, "a skill without 'id': left out of the card");
        return 0;
    }
    g = battle_tu_skill_parse((const char *)id);
    if (g < 0) {
        /* Kept as a skill the engine does not simulate, so a job with the card is refused
         * instead of played without it. */
        note(L, n, "unknown skill '%s': kept as a skill no job may use", str(id));
        g = -1;
    } else if (L->have_skill_types && !L->game_defines[g]) {
        note(L, n, "skill '%s' is not among the skill types of skills_set.xml", str(id));
    }
    xmlFree(id);
    s->game = g;
    s->id = battle_tu_skill_engine(g);
    for (const xmlAttr *a = n->properties; a; a = a->next) {
        const char *k = (const char *)a->name;
        xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);
        const char *vs = (const char *)v;
        int known = 0;
        for (int i = 0; skill_attrs[i]; i++)
            known |= strcmp(k, skill_attrs[i]) == 0;
        if (!known) {
            note(L, n, "unknown skill attribute '%s' (value '%s'): ignored", k, str(v));
        } else if (strcmp(k, "x") == 0) {
            s->x = to_int(L, n, "x", vs);
        } else if (strcmp(k, "y") == 0) {
            s->y = to_int(L, n, "y", vs);
            if (s->y < 0 || s->y > N_FACTIONS) {
                note(L, n, "faction y='%s' is not one of the game's 1..6: read as any", str(v));
                s->y = 0;
            }
        } else if (strcmp(k, "n") == 0) {
            s->n = to_int(L, n, "n", vs);
        } else if (strcmp(k, "c") == 0) {
            s->c = to_int(L, n, "c", vs);
        } else if (strcmp(k, "all") == 0) {
            s->all = to_int(L, n, "all", vs) != 0;
        } else if (strcmp(k, "card_id") == 0) {
            s->card_id = to_int(L, n, "card_id", vs);
        } else if (strcmp(k, "s") == 0 || strcmp(k, "s2") == 0) {
            int t = battle_tu_skill_parse(vs ? vs : "");
            if (t < 0)
                note(L, n, "unknown skill argument %s='%s': left out", k, str(v));
            else if (k[1] == '2')
                s->s2 = t + 1;
            else
                s->s = t + 1;
        } else if (strcmp(k, "trigger") == 0) {
            int t = 0;
            while (t < N_TRIGGERS && strcmp(vs ? vs : "", trigger_names[t]) != 0)
                t++;
            if (t == N_TRIGGERS) {
                note(L, n, "unknown trigger '%s': kept as a skill no job may use", str(v));
                s->id = BATTLE_SKILL__COUNT;
                t = 0;
            }
            s->trigger = t;
        }
        xmlFree(v);
    }
    return 1;
}

/* Elements of a <unit> or <upgrade> the game uses for its shop, art or economy; known and
 * not needed to play a card. */
static const char *const ignored_elems[] = {
    "picture",     "asset_bundle",       "fusion_level", "base_commander_id", "card_type",
    "cap_exclude", "base_dominion_card", "gp_cost",      "fortress_type",     "no_salvage",
    NULL};

static int ignored(const xmlNode *n)
{
    for (int i = 0; ignored_elems[i]; i++)
        if (is(n, ignored_elems[i]))
            return 1;
    return 0;
}

static enum sk_err push_card(struct tu_load *L, const struct battle_card_spec *c)
{
    if (L->n == L->cap) {
        size_t cap = L->cap ? L->cap * 2 : 65536;
        struct battle_card_spec *nb = sk_realloc(L->cards, cap * sizeof(*nb));
        if (!nb)
            return SK_ENOMEM;
        L->cards = nb;
        L->cap = cap;
    }
    L->cards[L->n++] = *c;
    return SK_OK;
}

/* Applies the fields of <unit> or <upgrade> `node` to *c (which holds the level before it,
 * or zeros). Returns 0 after a note when the record cannot be a card. */
static int read_fields(struct tu_load *L, const xmlNode *node, struct battle_card_spec *c,
                       int is_unit)
{
    int have_id = 0, have_name = !is_unit, skills = 0;

    for (const xmlNode *n = node->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE || is(n, "upgrade") || ignored(n))
            continue;
        if ((is_unit && is(n, "id")) || (!is_unit && is(n, "card_id"))) {
            c->id = elem_int(L, n);
            have_id = c->id > 0;
        } else if (is(n, "name")) {
            xmlChar *t = xmlNodeGetContent(n);
            size_t len = 0;
            /* The peer drops ';', ':' and ',' from names: they separate deck strings. */
            for (const char *p = (const char *)t; p && *p && len < BATTLE_NAME_MAX; p++)
                if (!strchr(";:,", *p))
                    c->name[len++] = *p;
            c->name[len] = '\0';
            have_name = len > 0 && len <= BATTLE_NAME_MAX - 16;
            if (!have_name)
                note(L, n, "card name '%s' is empty or longer than %d bytes", str(t),
                     BATTLE_NAME_MAX - 16);
            xmlFree(t);
        } else if (is(n, "attack")) {
            c->attack = elem_int(L, n);
        } else if (is(n, "health")) {
            c->health = elem_int(L, n);
        } else if (is(n, "cost")) {
            c->delay = elem_int(L, n);
        } else if (is(n, "rarity")) {
            c->rarity = elem_int(L, n);
        } else if (is(n, "type")) {
            c->faction = elem_int(L, n);
        } else if (is(n, "set")) {
            c->set = elem_int(L, n);
        } else if (is(n, "level")) {
            c->level = elem_int(L, n);
        } else if (is(n, "skill")) {
            if (!skills) {
                /* A level with skills lists all of them: the ones before are replaced. */
                c->n_skills = 0;
                skills = 1;
            }
            if (c->n_skills == BATTLE_CARD_SKILLS_MAX)
                note(L, n, "more than %d skills on one card: this one is left out",
                     BATTLE_CARD_SKILLS_MAX);
            else if (read_skill(L, n, &c->skills[c->n_skills]))
                c->n_skills++;
        } else {
            note(L, n, "unknown element <%s>: ignored", (const char *)n->name);
        }
    }
    if (!have_id || !have_name) {
        note(L, node, "%s without %s: left out%s", is_unit ? "a unit" : "an upgrade",
             have_id ? "a name" : "a positive id",
             is_unit ? " with its upgrades" : " with the levels after it");
        return 0;
    }
    return 1;
}

static enum sk_err read_unit(struct tu_load *L, const xmlNode *node)
{
    struct battle_card_spec c;
    struct tu_unit u;
    int level = 1;
    enum sk_err rc;

    memset(&c, 0, sizeof(c));
    if (!read_fields(L, node, &c, 1))
        return SK_OK;
    derive_type(&c);
    c.level = 1;
    memcpy(u.name, c.name, sizeof(u.name));
    u.first = L->n;
    u.visible = set_visible(L, c.set);
    u.order = L->n_units;
    rc = push_card(L, &c);
    for (const xmlNode *n = node->children; n && !rc; n = n->next) {
        struct battle_card_spec up;
        if (!is(n, "upgrade"))
            continue;
        if (level == BATTLE_LEVELS_MAX) {
            note(L, n, "more than %d levels: the ones after it are left out", BATTLE_LEVELS_MAX);
            break;
        }
        up = L->cards[L->n - 1];
        up.level = 0;
        if (!read_fields(L, n, &up, 0))
            break;
        if (up.level != level + 1)
            note(L, n, "upgrade <level> %d where %d was due: numbered by its place", up.level,
                 level + 1);
        up.level = ++level;
        rc = push_card(L, &up);
    }
    if (rc)
        return rc;
    u.n = level;
    if (L->n_units == L->cap_units) {
        size_t cap = L->cap_units ? L->cap_units * 2 : 16384;
        struct tu_unit *nb = sk_realloc(L->units, cap * sizeof(*nb));
        if (!nb)
            return SK_ENOMEM;
        L->units = nb;
        L->cap_units = cap;
    }
    L->units[L->n_units++] = u;
    return SK_OK;
}

static enum sk_err read_section(struct tu_load *L, xmlDocPtr doc)
{
    xmlNode *root = xmlDocGetRootElement(doc);
    enum sk_err rc = SK_OK;

    for (xmlNode *n = root ? root->children : NULL; n && !rc; n = n->next) {
        if (is(n, "unit"))
            rc = read_unit(L, n);
        else if (n->type == XML_ELEMENT_NODE)
            note(L, n, "unknown element <%s>: ignored", (const char *)n->name);
    }
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
            snprintf(c->name, sizeof(c->name), "%s%s%s", own, lv, id);
            c->n_levels = u->n;
            memcpy(c->level_ids, ids, sizeof(ids));
        }
    }
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
        if (!is(n, "fusion_recipe"))
            continue;
        memset(&r, 0, sizeof(r));
        for (xmlNode *c = n->children; c; c = c->next) {
            if (is(c, "card_id")) {
                r.card_id = elem_int(L, c);
            } else if (is(c, "resource")) {
                xmlChar *id = xmlGetProp(c, (const xmlChar *)"card_id");
                xmlChar *num = xmlGetProp(c, (const xmlChar *)"number");
                if (r.n == BATTLE_TU_RECIPE_MAX) {
                    note(L, c, "more than %d resources in a recipe: this one is left out",
                         BATTLE_TU_RECIPE_MAX);
                } else {
                    r.res_id[r.n] = to_int(L, c, "resource card_id", (const char *)id);
                    r.res_count[r.n] = num ? to_int(L, c, "number", (const char *)num) : 1;
                    r.n++;
                }
                xmlFree(id);
                xmlFree(num);
            }
        }
        if (r.card_id <= 0 || r.n == 0) {
            note(L, n, "a fusion recipe without a card id or resources: left out");
            continue;
        }
        if (L->n_recipes == L->cap_recipes) {
            size_t cap = L->cap_recipes ? L->cap_recipes * 2 : 8192;
            struct battle_tu_recipe *nb = sk_realloc(L->recipes, cap * sizeof(*nb));
            if (!nb)
                return SK_ENOMEM;
            L->recipes = nb;
            L->cap_recipes = cap;
        }
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
                sk_verr_add(L->notes, name, "%s", why);
            return SK_OK;
        }
        snprintf(L->err, L->errlen, "%s/%s: no such file", L->dir, name);
        return SK_EIO;
    }
    if (rc)
        return rc;
    L->file = name;
    rc = parse_xml(L, name, text, len, &doc);
    if (!rc && walk)
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
            sk_verr_add(L->notes, "levels.xml", "cannot be read: ignored (%s)", L->err);
        L->err[0] = '\0';
        return;
    }
    snprintf(saved, sizeof(saved), "%s", L->err);
    if (parse_xml(L, "levels.xml", text, len, &doc) != SK_OK) {
        sk_verr_add(L->notes, "levels.xml",
                    "not the game's levels file (%s): ignored; Skirmish reads no upgrade costs",
                    L->err);
    } else if (!xmlDocGetRootElement(doc) ||
               strcmp((const char *)xmlDocGetRootElement(doc)->name, "root") != 0) {
        sk_verr_add(L->notes, "levels.xml:1",
                    "not the game's levels file (root element <%s>, not <root>): ignored; "
                    "Skirmish reads no upgrade costs",
                    xmlDocGetRootElement(doc) ? (const char *)xmlDocGetRootElement(doc)->name
                                              : "none");
    }
    snprintf(L->err, L->errlen, "%s", saved);
    xmlFreeDoc(doc);
    sk_free(text);
}

static int card_id_cmp(const void *a, const void *b)
{
    return int_cmp(a, &((const struct battle_card_spec *)b)->id);
}

static int card_id_cmp_sort(const void *a, const void *b)
{
    return int_cmp(&((const struct battle_card_spec *)a)->id,
                   &((const struct battle_card_spec *)b)->id);
}

enum sk_err battle_tu_load(const char *dir, struct battle_tu_data *out, struct sk_verr_list *notes,
                           char *err, size_t errlen)
{
    struct tu_load L;
    struct stat st;
    struct battle_card_spec *by_id = NULL;
    enum sk_err rc = SK_OK;
    int missing = 0;
    int sections = 0;

    memset(&L, 0, sizeof(L));
    L.dir = dir;
    L.notes = notes;
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
        rc = read_one(&L, name, i > 1, NULL, read_section, &missing);
        if (missing)
            break;
        if (!rc)
            sections++;
    }
    if (!rc)
        rc = read_one(&L, "fusion_recipes_cj2.xml", 1,
                      "no fusion_recipes_cj2.xml: cards have no fusion recipes", read_recipes,
                      &missing);
    if (rc)
        goto out;
    check_levels(&L);
    if (L.n == 0) {
        snprintf(err, errlen, "cards folder '%s': the card files hold no <unit>", dir);
        rc = SK_EINVAL;
        goto out;
    }
    name_levels(&L);
    /* Recipes that name cards the files do not have are noted: they would list nothing. */
    by_id = sk_malloc(L.n * sizeof(*by_id));
    if (!by_id) {
        rc = SK_ENOMEM;
        goto out;
    }
    memcpy(by_id, L.cards, L.n * sizeof(*by_id));
    qsort(by_id, L.n, sizeof(*by_id), card_id_cmp_sort);
    for (size_t i = 0; i < L.n_recipes; i++) {
        if (!bsearch(&L.recipes[i].card_id, by_id, L.n, sizeof(*by_id), card_id_cmp)) {
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
    out->hash = L.hash;
    out->n_sections = sections;
    L.cards = NULL;
    L.recipes = NULL;
out:
    sk_free(by_id);
    sk_free(L.cards);
    sk_free(L.recipes);
    sk_free(L.units);
    sk_free(L.visible_sets);
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
