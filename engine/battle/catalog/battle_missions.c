/* SPDX-License-Identifier: MIT */
/* The game's missions and raids (see battle_missions.h). Each file is parsed by libxml2
 * into a tree (1.4 MB at most in the snapshot, so a tree costs little and gives every
 * element its line) in recovery mode: the game's raids.xml is not well-formed XML (a
 * comment holds "--"), and the game and the peer read it anyway, so a recoverable error
 * is a note, not a failed load. The walk follows the format as the peer reads it. */
#include "battle_missions.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battle_tu.h"
#include "battle_xml.h"
#include "sk_mem.h"
#include "sk_parse.h"

#include "sk_banned.h"

/* A file larger than this is refused (missions.xml is 1.4 MB). */
/* XML errors noted per file; the rest are counted in one more note. */
#define MISSIONS_XML_NOTES_MAX 5

static const char *const kind_names[] = {"mission", "raid"};

const char *battle_enemy_kind_name(int kind)
{
    return kind >= 0 && kind < BATTLE_ENEMY__COUNT ? kind_names[kind] : "unknown";
}

struct ms_load {
    const char *dir;
    struct battle_xml_notes notes; /* `file` is the file being parsed */
    char *err;
    size_t errlen;
    struct battle_enemy *items;
    size_t n, cap;
    int xml_errors; /* in the file being parsed */
};

/* libxml2's errors while it recovers a file: the first few are notes with their line. */
static void xml_note(void *data, xmlErrorPtr e)
{
    struct ms_load *L = data;
    char msg[200];

    if (!e || e->level < XML_ERR_ERROR)
        return;
    if (++L->xml_errors > MISSIONS_XML_NOTES_MAX)
        return;
    battle_xml_error_text(e, msg, sizeof(msg));
    battle_xml_note(&L->notes, e->line, "not well-formed XML (%s): read on as libxml2 recovers it",
                    msg);
}

/* The integer in `s` (spaces around it allowed) within [min, max]; 0 when it is not one. */
static int parse_int(const char *s, int min, int max, int *out)
{
    char buf[32];
    size_t len;
    int64_t v = 0;

    if (!s)
        return 0;
    s += strspn(s, " \t\r\n");
    len = strlen(s);
    while (len && strchr(" \t\r\n", s[len - 1]))
        len--;
    if (len == 0 || len >= sizeof(buf))
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (sk_parse_i64(buf, min, max, &v) != SK_OK)
        return 0;
    *out = (int)v;
    return 1;
}

/* The integer text of element `n` within [min, max]; 0 with a note naming `what` when the
 * text is not one (the record is then left out by the caller). */
static int elem_int(struct ms_load *L, const xmlNode *n, int min, int max, int *out)
{
    xmlChar *t = xmlNodeGetContent(n);
    int ok = parse_int((const char *)t, min, max, out);
    if (!ok)
        battle_xml_note(&L->notes, xmlGetLineNo(n), "<%s> '%s' is not an integer from %d to %d",
                        (const char *)n->name, t ? (const char *)t : "", min, max);
    xmlFree(t);
    return ok;
}

/* The integer attribute `attr` of `n` within [min, max]; `def` when absent; 0 with a note
 * when present and not one. */
static int attr_int(struct ms_load *L, const xmlNode *n, const char *attr, int min, int max,
                    int def, int *out)
{
    xmlChar *t = xmlGetProp(n, (const xmlChar *)attr);
    int ok = 1;
    if (!t) {
        *out = def;
        return 1;
    }
    ok = parse_int((const char *)t, min, max, out);
    if (!ok)
        battle_xml_note(&L->notes, xmlGetLineNo(n), "<%s %s='%s'> is not an integer from %d to %d",
                        (const char *)n->name, attr, (const char *)t, min, max);
    xmlFree(t);
    return ok;
}

/* Largest card id the game uses is under 100,000; anything beyond is a typo. */
#define CARD_ID_MAX 1000000

/* Adds card `n` (<card replicates=N>ID</card>) to the record's deck. Returns 0 after a
 * note when it cannot be read. */
static int add_deck_card(struct ms_load *L, const xmlNode *n, struct battle_enemy *e)
{
    int id = 0, reps = 1;
    if (!elem_int(L, n, 1, CARD_ID_MAX, &id) ||
        !attr_int(L, n, "replicates", 1, BATTLE_DECK_MAX, 1, &reps))
        return 0;
    for (int r = 0; r < reps; r++, e->cards_total++)
        if (e->n_cards < BATTLE_ENEMY_CARDS_MAX)
            e->cards[e->n_cards++] = id;
    return 1;
}

/* A pool (<card_pool amount=N replicates=R>, <fortress_pool ...>, each <card
 * replicates=M>ID</card> M times in its list), which a game draws from at random: kept in
 * e->pools (counted past BATTLE_ENEMY_POOLS_MAX). An amount above the list is left out. */
static int read_pool(struct ms_load *L, const xmlNode *n, int fort, struct battle_enemy *e)
{
    struct battle_enemy_pool pool;
    xmlChar *t = xmlGetProp(n, (const xmlChar *)"amount");

    memset(&pool, 0, sizeof(pool));
    pool.fort = fort;
    if (!t) {
        battle_xml_note(&L->notes, xmlGetLineNo(n), "<%s> without 'amount'", (const char *)n->name);
        return 0;
    }
    xmlFree(t);
    if (!attr_int(L, n, "amount", 1, BATTLE_DECK_MAX, 0, &pool.amount) ||
        !attr_int(L, n, "replicates", 1, BATTLE_DECK_MAX, 1, &pool.replicates))
        return 0;
    for (const xmlNode *c = n->children; c; c = c->next) {
        int id = 0, reps = 1;
        if (!battle_xml_is(c, "card"))
            continue;
        if (!elem_int(L, c, 1, CARD_ID_MAX, &id) ||
            !attr_int(L, c, "replicates", 1, BATTLE_DECK_MAX, 1, &reps))
            return 0;
        for (int r = 0; r < reps; r++, pool.total++)
            if (pool.n < BATTLE_ENEMY_POOL_CARDS_MAX)
                pool.cards[pool.n++] = id;
    }
    if (pool.amount > pool.total) {
        battle_xml_note(&L->notes, xmlGetLineNo(n), "<%s amount='%d'> draws more than its %d cards",
                        (const char *)n->name, pool.amount, pool.total);
        return 0;
    }
    if (e->n_pools < BATTLE_ENEMY_POOLS_MAX)
        e->pools[e->n_pools] = pool;
    e->n_pools++;
    if (fort)
        e->n_fort_pools++;
    else
        e->n_card_pools++;
    return 1;
}

static int read_deck(struct ms_load *L, const xmlNode *deck, struct battle_enemy *e)
{
    for (const xmlNode *c = deck->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (battle_xml_is(c, "card")) {
            if (!add_deck_card(L, c, e))
                return 0;
        } else if (battle_xml_is(c, "always_include")) {
            for (const xmlNode *k = c->children; k; k = k->next)
                if (battle_xml_is(k, "card") && !add_deck_card(L, k, e))
                    return 0;
        } else if (battle_xml_is(c, "card_pool")) {
            if (!read_pool(L, c, 0, e))
                return 0;
        } else {
            battle_xml_note(&L->notes, xmlGetLineNo(c), "unknown element <%s> in a <deck>: ignored",
                            (const char *)c->name);
        }
    }
    return 1;
}

/* The text attribute `attr` of `n` into out[0 .. outlen) ("" when absent); 0 with a note
 * when it is empty or longer. */
static int attr_text(struct ms_load *L, const xmlNode *n, const char *attr, char *out,
                     size_t outlen)
{
    xmlChar *t = xmlGetProp(n, (const xmlChar *)attr);
    int ok = !t || (t[0] && strlen((const char *)t) < outlen);
    out[0] = '\0';
    if (!ok)
        battle_xml_note(&L->notes, xmlGetLineNo(n), "<%s %s='%s'>: empty or longer than %zu bytes",
                        (const char *)n->name, attr, (const char *)t, outlen - 1);
    else if (t)
        snprintf(out, outlen, "%s", (const char *)t);
    xmlFree(t);
    return ok;
}

/* An effect's X: a decimal multiplier of the level (".6"), 0 to BATTLE_SKILL_X_MAX. */
static int attr_mult(struct ms_load *L, const xmlNode *n, double *out)
{
    xmlChar *t = xmlGetProp(n, (const xmlChar *)"x");
    char *end = NULL;
    int ok = 1;
    *out = 0;
    if (t) {
        *out = strtod((const char *)t, &end);
        ok = end != (char *)t && *end == '\0' && *out >= 0 && *out <= BATTLE_SKILL_X_MAX;
        if (!ok)
            battle_xml_note(&L->notes, xmlGetLineNo(n),
                            "<skill x='%s'> is not a number from 0 to %d", (const char *)t,
                            BATTLE_SKILL_X_MAX);
    }
    xmlFree(t);
    return ok;
}

static int read_effects(struct ms_load *L, const xmlNode *fx, struct battle_enemy *e)
{
    for (const xmlNode *c = fx->children; c; c = c->next) {
        struct battle_enemy_effect f;
        if (!battle_xml_is(c, "skill"))
            continue;
        memset(&f, 0, sizeof(f));
        if (!attr_text(L, c, "id", f.skill, sizeof(f.skill)) || !attr_mult(L, c, &f.x) ||
            !attr_int(L, c, "all", 0, 1, 0, &f.all) || !attr_int(L, c, "y", 0, 6, 0, &f.y) ||
            !attr_int(L, c, "n", 0, BATTLE_SKILL_N_MAX, 0, &f.n) ||
            !attr_int(L, c, "c", 0, BATTLE_SKILL_C_MAX, 0, &f.c) ||
            !attr_text(L, c, "s", f.s, sizeof(f.s)) || !attr_text(L, c, "s2", f.s2, sizeof(f.s2)))
            return 0;
        if (!f.skill[0]) {
            battle_xml_note(&L->notes, xmlGetLineNo(c), "an effect <skill> without 'id'");
            return 0;
        }
        if (e->n_effects < BATTLE_ENEMY_EFFECTS_MAX)
            e->effects[e->n_effects] = f;
        e->n_effects++;
    }
    if (e->n_effects > BATTLE_ENEMY_EFFECTS_MAX) {
        battle_xml_note(&L->notes, xmlGetLineNo(fx), "%d effects: the first %d are kept",
                        e->n_effects, BATTLE_ENEMY_EFFECTS_MAX);
        e->n_effects = BATTLE_ENEMY_EFFECTS_MAX;
    }
    return 1;
}

/* Elements of a record that are the game's presentation, rewards and progression: a
 * simulation does not need them, so they are skipped without a note. */
static const char *const skipped[] = {
    "picture",      "location_id", "combatBG",       "energy",       "x",           "y",
    "desc",         "speech",      "rewards",        "req",          "mission_req", "splash",
    "mission_type", "monster",     "start_time",     "end_time",     "event_req",   "phase_id",
    "is_mutant",    "map",         "mapBG",          "asset_bundle", "sp",          "elo",
    "ai_rival",     "portal",      "destination_id", "star_type",    NULL};

static int is_skipped(const xmlNode *n)
{
    for (int i = 0; skipped[i]; i++)
        if (strcmp((const char *)n->name, skipped[i]) == 0)
            return 1;
    return 0;
}

static int read_name(struct ms_load *L, const xmlNode *n, struct battle_enemy *e)
{
    xmlChar *t = xmlNodeGetContent(n);
    const char *s = t ? (const char *)t : "";
    size_t len;
    int ok = 0;

    s += strspn(s, " \t\r\n");
    len = strlen(s);
    while (len && strchr(" \t\r\n", s[len - 1]))
        len--;
    if (e->name[0]) {
        battle_xml_note(&L->notes, xmlGetLineNo(n), "a second <name> '%.*s': the first one is kept",
                        (int)len, s);
        ok = 1;
    } else if (len == 0 || len > BATTLE_NAME_MAX) {
        battle_xml_note(&L->notes, xmlGetLineNo(n), "a name that is empty or longer than %d bytes",
                        BATTLE_NAME_MAX);
    } else {
        memcpy(e->name, s, len);
        e->name[len] = '\0';
        ok = 1;
    }
    xmlFree(t);
    return ok;
}

/* Reads one <mission> or <raid> into *e. Returns 0 after a note when it is left out. */
static int read_record(struct ms_load *L, const xmlNode *r, enum battle_enemy_kind kind,
                       struct battle_enemy *e)
{
    int ok = 1, have_deck = 0;

    memset(e, 0, sizeof(*e));
    e->kind = kind;
    e->line = xmlGetLineNo(r);
    e->levels = BATTLE_ENEMY_LEVELS_DEF;
    for (const xmlNode *c = r->children; c && ok; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (battle_xml_is(c, "id")) {
            ok = elem_int(L, c, 1, 1000000000, &e->id);
        } else if (battle_xml_is(c, "name")) {
            ok = read_name(L, c, e);
        } else if (battle_xml_is(c, "commander")) {
            ok = elem_int(L, c, 1, CARD_ID_MAX, &e->commander);
        } else if (battle_xml_is(c, "commander_max_level")) {
            ok = elem_int(L, c, 1, BATTLE_LEVELS_MAX, &e->commander_max);
        } else if (battle_xml_is(c, "levels")) {
            ok = elem_int(L, c, 1, BATTLE_ENEMY_LEVELS_MAX, &e->levels);
        } else if (battle_xml_is(c, "deck")) {
            ok = read_deck(L, c, e);
            have_deck = 1;
        } else if (battle_xml_is(c, "fortress_card")) {
            int id = 0;
            ok = attr_int(L, c, "id", 1, CARD_ID_MAX, 0, &id);
            if (ok && id == 0) {
                battle_xml_note(&L->notes, xmlGetLineNo(c), "<fortress_card> without 'id'");
                ok = 0;
            }
            if (ok && e->n_forts < BATTLE_ENEMY_FORTS_MAX)
                e->forts[e->n_forts++] = id;
            e->forts_total++;
        } else if (battle_xml_is(c, "fortress_pool")) {
            ok = read_pool(L, c, 1, e);
        } else if (battle_xml_is(c, "effects")) {
            ok = read_effects(L, c, e);
        } else if (!is_skipped(c)) {
            battle_xml_note(&L->notes, xmlGetLineNo(c), "unknown element <%s> of a %s: ignored",
                            (const char *)c->name, kind_names[kind]);
        }
    }
    if (ok && (!e->id || !e->name[0] || !e->commander || !have_deck)) {
        battle_xml_note(&L->notes, e->line, "a %s without %s", kind_names[kind],
                        !e->id          ? "<id>"
                        : !e->name[0]   ? "<name>"
                        : !e->commander ? "<commander>"
                                        : "<deck>");
        ok = 0;
    }
    if (!ok)
        battle_xml_note(&L->notes, e->line, "%s%s%s left out", kind_names[kind],
                        e->name[0] ? " " : "", e->name[0] ? e->name : "");
    return ok;
}

/* Parses file `name` (its bytes `text`, `len` of them; NULL: the file is missing) for its
 * records of `kind`, appended to L->items. */
static enum sk_err parse_file(struct ms_load *L, const char *name, const char *text, size_t len,
                              enum battle_enemy_kind kind)
{
    int campaigns = 0;
    xmlDocPtr doc = NULL;
    const xmlNode *root;
    enum sk_err rc = SK_OK;

    if (!text) {
        sk_verr_add(L->notes.list, name, "no %s: no %s can be named", name, kind_names[kind]);
        return SK_OK;
    }
    L->notes.file = name;
    L->xml_errors = 0;
    /* The handler is libxml2's per-thread state: set for this parse only. RECOVER: the
     * game's own files are not always well-formed (see the top of this file). NOBLANKS: no
     * text nodes for the blanks between elements, which read_record skips anyway: fewer nodes
     * to allocate and free, where the tree was most of this file's time (an element's own
     * text, blank or not, stays). */
    xmlSetStructuredErrorFunc(L, xml_note);
    doc = xmlReadMemory(text, (int)len, name, NULL,
                        XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_RECOVER |
                            XML_PARSE_NOBLANKS);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (L->xml_errors > MISSIONS_XML_NOTES_MAX)
        sk_verr_add(L->notes.list, name, "%d more XML errors not shown",
                    L->xml_errors - MISSIONS_XML_NOTES_MAX);
    root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (!root) {
        snprintf(L->err, L->errlen, "%s/%s: not XML libxml2 can read (no root element)", L->dir,
                 name);
        rc = SK_EINVAL;
        goto out;
    }
    for (const xmlNode *c = root->children; c; c = c->next) {
        if (battle_xml_is(c, kind_names[kind])) {
            if (L->n == L->cap) {
                struct battle_enemy *nb;
                size_t cap = L->cap ? L->cap * 2 : 1024;
                nb = sk_realloc(L->items, cap * sizeof(*nb));
                if (!nb) {
                    rc = SK_ENOMEM;
                    goto out;
                }
                L->items = nb;
                L->cap = cap;
            }
            if (read_record(L, c, kind, &L->items[L->n]))
                L->n++;
        } else if (battle_xml_is(c, "campaign")) {
            campaigns++;
        }
    }
    if (campaigns)
        sk_verr_add(L->notes.list, name,
                    "%d <campaign> records: campaigns are not read (missions and raids are)",
                    campaigns);
out:
    xmlFreeDoc(doc);
    return rc;
}

/* The files of each kind, in the order they are read, hashed and parsed. */
static const char *const file_names[] = {"missions.xml", "raids.xml"};

enum sk_err battle_missions_read(const char *dir, struct battle_missions_files *out, uint64_t *hash,
                                 char *err, size_t errlen)
{
    enum sk_err rc = SK_OK;

    memset(out, 0, sizeof(*out));
    for (int k = 0; k < BATTLE_ENEMY__COUNT && !rc; k++) {
        int missing = 0;
        rc = battle_tu_read(dir, file_names[k], hash, &out->text[k], &out->len[k], &missing, err,
                            errlen);
        if (rc && missing) {
            /* noted by battle_missions_parse, where the file's records would be */
            out->text[k] = NULL;
            rc = SK_OK;
        }
    }
    if (rc)
        battle_missions_files_release(out);
    return rc;
}

enum sk_err battle_missions_parse(const char *dir, const struct battle_missions_files *files,
                                  struct battle_missions_data *out, struct sk_verr_list *notes,
                                  char *err, size_t errlen)
{
    struct ms_load L;
    size_t missions = 0;
    enum sk_err rc = SK_OK;

    memset(&L, 0, sizeof(L));
    memset(out, 0, sizeof(*out));
    L.dir = dir;
    L.notes.list = notes;
    L.err = err;
    L.errlen = errlen;
    xmlInitParser();
    for (int k = 0; k < BATTLE_ENEMY__COUNT && !rc; k++) {
        rc =
            parse_file(&L, file_names[k], files->text[k], files->len[k], (enum battle_enemy_kind)k);
        if (k == BATTLE_ENEMY_MISSION)
            missions = L.n;
    }
    if (rc) {
        sk_free(L.items);
        return rc;
    }
    out->items = L.items;
    out->n = L.n;
    out->n_missions = missions;
    out->n_raids = L.n - missions;
    return SK_OK;
}

void battle_missions_files_release(struct battle_missions_files *files)
{
    if (!files)
        return;
    for (int k = 0; k < BATTLE_ENEMY__COUNT; k++)
        sk_free(files->text[k]);
    memset(files, 0, sizeof(*files));
}

enum sk_err battle_missions_load(const char *dir, struct battle_missions_data *out, uint64_t *hash,
                                 struct sk_verr_list *notes, char *err, size_t errlen)
{
    struct battle_missions_files files;
    enum sk_err rc;

    memset(out, 0, sizeof(*out));
    rc = battle_missions_read(dir, &files, hash, err, errlen);
    if (!rc)
        rc = battle_missions_parse(dir, &files, out, notes, err, errlen);
    battle_missions_files_release(&files);
    return rc;
}

void battle_missions_release(struct battle_missions_data *data)
{
    if (!data)
        return;
    sk_free(data->items);
    memset(data, 0, sizeof(*data));
}
