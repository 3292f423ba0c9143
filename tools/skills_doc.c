/* SPDX-License-Identifier: MIT */
/* What the skill table writes: the OpenAPI document's skill lists and layout, and the skill
 * table of docs/jobs.md (see skills_doc.h). */
#include "skills_doc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battle_rules.h"
#include "battle_tu.h"

#include "sk_banned.h"

/* ===== The lists ===== */

/* The list that "x-skills": `which` ("engine" or "game") names, as a new array (NULL when
 * out of memory). */
static json_t *skill_list(const char *which)
{
    int engine = strcmp(which, "engine") == 0;
    int n = engine ? BATTLE_SKILL__COUNT : BATTLE_TU_SKILL__COUNT;
    json_t *list = json_array();

    for (int i = 0; list && i < n; i++) {
        const char *name =
            engine ? battle_rules_skill_name((enum battle_skill)i) : battle_tu_skill_name(i);
        if (json_array_append_new(list, json_string(name))) {
            json_decref(list);
            list = NULL;
        }
    }
    return list;
}

/* 1 when `e` is an array with a string that names a skill (the table's or the game's). */
static int names_a_skill(const json_t *e)
{
    size_t i;
    const json_t *v;

    if (!json_is_array(e))
        return 0;
    json_array_foreach(e, i, v)
    {
        if (json_is_string(v) && (battle_rules_skill_parse(json_string_value(v)) >= 0 ||
                                  battle_tu_skill_parse(json_string_value(v)) >= 0))
            return 1;
    }
    return 0;
}

struct walk {
    char ptr[1024]; /* the JSON pointer of the value walked, for messages */
    size_t len;
    int marked, changed;
    char *err;
    size_t errlen;
};

/* Appends one reference token to w->ptr (RFC 6901: '~' as ~0, '/' as ~1), truncating a
 * pointer too long for the buffer: it only names the place in a message. */
static void push(struct walk *w, const char *token)
{
    if (w->len < sizeof(w->ptr) - 1)
        w->ptr[w->len++] = '/';
    for (; *token && w->len < sizeof(w->ptr) - 2; token++) {
        if (*token == '~' || *token == '/') {
            w->ptr[w->len++] = '~';
            w->ptr[w->len++] = *token == '~' ? '0' : '1';
        } else {
            w->ptr[w->len++] = *token;
        }
    }
    w->ptr[w->len] = '\0';
}

/* A schema with "x-skills": its enum becomes the list named. */
static enum sk_err mark(struct walk *w, json_t *obj, const json_t *which)
{
    const char *name = json_is_string(which) ? json_string_value(which) : "";
    json_t *list;

    if (strcmp(name, "engine") != 0 && strcmp(name, "game") != 0) {
        snprintf(w->err, w->errlen, "%s: 'x-skills' must be \"engine\" or \"game\"", w->ptr);
        return SK_EINVAL;
    }
    list = skill_list(name);
    if (!list)
        return SK_ENOMEM;
    w->marked++;
    if (json_equal(json_object_get(obj, "enum"), list)) {
        json_decref(list);
        return SK_OK;
    }
    w->changed++;
    /* An existing "enum" keeps its place among the schema's keys. */
    return json_object_set_new(obj, "enum", list) ? SK_ENOMEM : SK_OK;
}

static enum sk_err walk_value(struct walk *w, json_t *v)
{
    size_t len = w->len;
    enum sk_err rc = SK_OK;

    if (json_is_object(v)) {
        const json_t *which = json_object_get(v, "x-skills");
        const char *key;
        json_t *child;
        if (which)
            rc = mark(w, v, which);
        else if (names_a_skill(json_object_get(v, "enum"))) {
            snprintf(w->err, w->errlen,
                     "%s: an enum of skills without \"x-skills\": \"engine\" or \"game\"", w->ptr);
            rc = SK_EINVAL;
        }
        json_object_foreach(v, key, child)
        {
            if (rc)
                break;
            push(w, key);
            rc = walk_value(w, child);
            w->len = len;
            w->ptr[len] = '\0';
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *child;
        json_array_foreach(v, i, child)
        {
            char token[24];
            if (rc)
                break;
            snprintf(token, sizeof(token), "%zu", i);
            push(w, token);
            rc = walk_value(w, child);
            w->len = len;
            w->ptr[len] = '\0';
        }
    }
    return rc;
}

enum sk_err skills_doc_update(json_t *doc, int *n_marked, int *n_changed, char *err, size_t errlen)
{
    struct walk w = {.err = err, .errlen = errlen};
    enum sk_err rc;

    rc = walk_value(&w, doc);
    if (rc)
        return rc;
    *n_marked = w.marked;
    *n_changed = w.changed;
    return SK_OK;
}

/* ===== The table of docs/jobs.md ===== */

/* The card types a row allows, for people (the table's TYPES_TEXT; NULL: any type). */
static const char *const types_text[BATTLE_SKILL__COUNT] = {
#define TEXT_(ID, NAME, KIND, FOLD, FIELD, HOSTILE, ROW, WHEN, OPTS, TYPES, TEXT)                  \
    [BATTLE_SKILL_##ID] = (TEXT),
    BATTLE_SKILL_TABLE(TEXT_)
#undef TEXT_
};

/* Appends ", " before every option but the first. */
static void option(struct sk_buf *out, int *n, const char *text)
{
    sk_buf_printf(out, "%s%s", (*n)++ ? ", " : "", text);
}

enum sk_err skills_doc_table(struct sk_buf *out)
{
    sk_buf_adds(out, "| skill | kind | `x` | `all` | other options | allowed on |\n"
                     "|---|---|---|---|---|---|\n");
    for (int i = 0; i < BATTLE_SKILL__COUNT; i++) {
        enum battle_skill id = (enum battle_skill)i;
        unsigned opts = battle_rules_skill_opts(id);
        int n = 0;

        sk_buf_printf(out, "| `%s` | %s | ", battle_rules_skill_name(id),
                      battle_rules_skill_kind(id) == BATTLE_SK_ACTIVATION ? "activation"
                                                                          : "passive");
        if (opts & BATTLE_OPT_X)
            sk_buf_printf(out, "1 .. %d, required", battle_rules_skill_x_max(id));
        else
            sk_buf_adds(out, "not allowed");
        sk_buf_printf(out, " | %s | ", (opts & BATTLE_OPT_ALL) ? "yes" : "no");
        /* Evolve is the one skill that also takes s2 (battle_cards_skill_args). */
        if (opts & BATTLE_OPT_SKILL)
            option(out, &n, id == BATTLE_SKILL_EVOLVE ? "s and s2 (required)" : "s (required)");
        if (opts & BATTLE_OPT_CARD)
            option(out, &n, "card_id (required)");
        if (opts & BATTLE_OPT_Y)
            option(out, &n, "y");
        if (opts & BATTLE_OPT_N)
            option(out, &n, "n");
        if (opts & BATTLE_OPT_C)
            option(out, &n, "c");
        if (opts & BATTLE_OPT_TRIGGER)
            option(out, &n, "trigger");
        if (!n)
            sk_buf_adds(out, "—");
        /* A skill that brings a card brings one of the game's, by its id. */
        sk_buf_printf(out, " | %s%s |\n", types_text[i] ? types_text[i] : "any",
                      (opts & BATTLE_OPT_CARD) ? ", the game's cards only" : "");
    }
    return out->err;
}

/* The offset of the line of `md` that is exactly `line`, from `from` on; -1 when none. */
static long find_line(const char *md, size_t from, const char *line)
{
    size_t n = strlen(line);

    for (const char *p = md + from; (p = strstr(p, line)) != NULL; p += n) {
        if ((p == md || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
            return (long)(p - md);
    }
    return -1;
}

enum sk_err skills_doc_markdown(const char *md, struct sk_buf *out)
{
    long begin = find_line(md, 0, SKILLS_DOC_TABLE_BEGIN), end;
    size_t body;

    if (begin < 0)
        return SK_EINVAL;
    body = (size_t)begin + strlen(SKILLS_DOC_TABLE_BEGIN);
    end = find_line(md, body, SKILLS_DOC_TABLE_END);
    if (end < 0 || md[body] != '\n' || find_line(md, (size_t)end + 1, SKILLS_DOC_TABLE_BEGIN) >= 0)
        return SK_EINVAL;
    /* Blank lines around the table: nothing in Markdown then reads it as part of the
     * comments' HTML blocks. */
    sk_buf_add(out, md, body + 1);
    sk_buf_adds(out, "\n");
    skills_doc_table(out);
    sk_buf_adds(out, "\n");
    sk_buf_adds(out, md + end);
    return out->err;
}

/* ===== The layout ===== */

/* A string as Python's json module writes it with ensure_ascii (its default): the short
 * escapes, every other byte outside ' '..'~' as \uXXXX of its code point (lower-case hex,
 * surrogate pairs past U+FFFF). jansson holds only valid UTF-8. */
static void dump_string(struct sk_buf *out, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;

    sk_buf_adds(out, "\"");
    while (p < end) {
        unsigned c = *p++;
        int more = 0;
        if (c == '"' || c == '\\') {
            sk_buf_printf(out, "\\%c", (char)c);
            continue;
        }
        if (c >= 0x20 && c < 0x7f) {
            sk_buf_add(out, &p[-1], 1);
            continue;
        }
        switch (c) {
        case '\n':
            sk_buf_adds(out, "\\n");
            continue;
        case '\r':
            sk_buf_adds(out, "\\r");
            continue;
        case '\t':
            sk_buf_adds(out, "\\t");
            continue;
        case '\b':
            sk_buf_adds(out, "\\b");
            continue;
        case '\f':
            sk_buf_adds(out, "\\f");
            continue;
        default:
            break;
        }
        if (c >= 0xf0) {
            c &= 0x07;
            more = 3;
        } else if (c >= 0xe0) {
            c &= 0x0f;
            more = 2;
        } else if (c >= 0xc0) {
            c &= 0x1f;
            more = 1;
        }
        for (; more > 0 && p < end; more--)
            c = (c << 6) | (*p++ & 0x3fu);
        if (c >= 0x10000) {
            c -= 0x10000;
            sk_buf_printf(out, "\\u%04x\\u%04x", 0xd800 + (c >> 10), 0xdc00 + (c & 0x3ffu));
        } else {
            sk_buf_printf(out, "\\u%04x", c);
        }
    }
    sk_buf_adds(out, "\"");
}

static void zeros(struct sk_buf *out, int n)
{
    for (; n > 0; n--)
        sk_buf_adds(out, "0");
}

/* A real as Python's repr writes it: the fewest significant digits that read back as the
 * same double, in positional form for exponents -4 to 15 (with ".0" when whole), else as
 * d.ddde+XX. */
static void dump_real(struct sk_buf *out, double v)
{
    char sci[40], digits[24];
    int exp10 = 0, nd = 0;

    if (v == 0) {
        sk_buf_adds(out, signbit(v) ? "-0.0" : "0.0");
        return;
    }
    if (v < 0) {
        sk_buf_adds(out, "-");
        v = -v;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(sci, sizeof(sci), "%.*e", prec - 1, v);
        if (strtod(sci, NULL) == v)
            break;
    }
    /* sci is "d[.ddd]e±XX": the digits, then the exponent. */
    for (const char *p = sci; *p && *p != 'e'; p++)
        if (*p != '.')
            digits[nd++] = *p;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    digits[nd] = '\0';
    exp10 = (int)strtol(strchr(sci, 'e') + 1, NULL, 10);
    if (exp10 < -4 || exp10 >= 16) {
        sk_buf_printf(out, "%c", digits[0]);
        if (nd > 1)
            sk_buf_printf(out, ".%s", digits + 1);
        sk_buf_printf(out, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
    } else if (exp10 < 0) {
        sk_buf_adds(out, "0.");
        zeros(out, -exp10 - 1);
        sk_buf_adds(out, digits);
    } else if (nd <= exp10 + 1) {
        sk_buf_adds(out, digits);
        zeros(out, exp10 + 1 - nd);
        sk_buf_adds(out, ".0");
    } else {
        sk_buf_printf(out, "%.*s.%s", exp10 + 1, digits, digits + exp10 + 1);
    }
}

static void indent(struct sk_buf *out, int depth)
{
    sk_buf_adds(out, "\n");
    for (int i = 0; i < depth; i++)
        sk_buf_adds(out, " ");
}

static void dump_value(struct sk_buf *out, const json_t *v, int depth)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *key;
        const json_t *child;
        int first = 1;
        if (json_object_size(v) == 0) {
            sk_buf_adds(out, "{}");
            break;
        }
        sk_buf_adds(out, "{");
        json_object_foreach((json_t *)v, key, child)
        {
            if (!first)
                sk_buf_adds(out, ",");
            first = 0;
            indent(out, depth + 1);
            dump_string(out, key, strlen(key));
            sk_buf_adds(out, ": ");
            dump_value(out, child, depth + 1);
        }
        indent(out, depth);
        sk_buf_adds(out, "}");
        break;
    }
    case JSON_ARRAY: {
        size_t i;
        const json_t *child;
        if (json_array_size(v) == 0) {
            sk_buf_adds(out, "[]");
            break;
        }
        sk_buf_adds(out, "[");
        json_array_foreach(v, i, child)
        {
            if (i)
                sk_buf_adds(out, ",");
            indent(out, depth + 1);
            dump_value(out, child, depth + 1);
        }
        indent(out, depth);
        sk_buf_adds(out, "]");
        break;
    }
    case JSON_STRING:
        dump_string(out, json_string_value(v), json_string_length(v));
        break;
    case JSON_INTEGER:
        sk_buf_printf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        break;
    case JSON_REAL:
        dump_real(out, json_real_value(v));
        break;
    case JSON_TRUE:
        sk_buf_adds(out, "true");
        break;
    case JSON_FALSE:
        sk_buf_adds(out, "false");
        break;
    case JSON_NULL:
        sk_buf_adds(out, "null");
        break;
    }
}

enum sk_err skills_doc_dump(const json_t *doc, struct sk_buf *out)
{
    dump_value(out, doc, 0);
    sk_buf_adds(out, "\n");
    return out->err;
}
