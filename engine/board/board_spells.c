/* SPDX-License-Identifier: MIT */
/* Spells as data (see board_spells.h): the definition schema, its validation, the catalog
 * (embedded or overridden by SKIRMISH_SPELLS_FILE) and its JSON form. */
#include "board_spells.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sk_mem.h"

#include "sk_banned.h"

/* Generated from data/spells.json by cmake/SkEmbed.cmake (NUL-terminated). */
extern const char board_spells_data[];

static const char *const point_names[BOARD_P__COUNT] = {
    "cast",     "start_of_turn", "before_movement", "stats",    "can_enter",
    "can_join", "on_exit",       "on_move",         "on_enter", "attacking",
    "attacked", "before_armor",  "after_armor",     "hits",     "damages",
    "can_move", "can_exit",      "dying",           "killed"};

static const char *const action_names[BOARD_A__COUNT] = {"cancel_order",   "random_direction",
                                                         "attract",        "set_terrain",
                                                         "kill",           "damage",
                                                         "leave_group",    "add_max_armor",
                                                         "forbid_join",    "terrain_bind",
                                                         "ignores_armor",  "deal_no_damage",
                                                         "add_damage",     "add_twice_max_armor",
                                                         "deflect",        "receive_no_damage",
                                                         "kill_victim",    "lower_victim_armor",
                                                         "gain_max_armor", "forbid_move",
                                                         "forbid_exit",    "cancel_death",
                                                         "damage_killer"};

static const char *const duration_names[BOARD_D__COUNT] = {"instant", "persistent", "temporary"};

#define P(x) (1u << BOARD_P_##x)
/* The event points at which each action may answer. */
static const unsigned action_points[BOARD_A__COUNT] = {
    [BOARD_A_CANCEL_ORDER] = P(CAST),
    [BOARD_A_RANDOM_DIRECTION] = P(CAST) | P(BEFORE_MOVEMENT),
    [BOARD_A_ATTRACT] = P(BEFORE_MOVEMENT),
    [BOARD_A_SET_TERRAIN] = P(CAST),
    [BOARD_A_KILL] = P(CAST),
    [BOARD_A_DAMAGE] = P(CAST) | P(START_OF_TURN) | P(ON_EXIT) | P(ON_MOVE) | P(ON_ENTER),
    [BOARD_A_LEAVE_GROUP] = P(CAST),
    [BOARD_A_ADD_MAX_ARMOR] = P(STATS),
    [BOARD_A_FORBID_JOIN] = P(CAN_JOIN),
    [BOARD_A_TERRAIN_BIND] = P(CAN_ENTER),
    [BOARD_A_IGNORES_ARMOR] = P(ATTACKING),
    [BOARD_A_DEAL_NO_DAMAGE] = P(ATTACKING) | P(ATTACKED),
    [BOARD_A_ADD_DAMAGE] = P(ATTACKING) | P(BEFORE_ARMOR),
    [BOARD_A_ADD_TWICE_MAX_ARMOR] = P(BEFORE_ARMOR),
    [BOARD_A_DEFLECT] = P(AFTER_ARMOR),
    [BOARD_A_RECEIVE_NO_DAMAGE] = P(AFTER_ARMOR),
    [BOARD_A_KILL_VICTIM] = P(HITS) | P(DAMAGES),
    [BOARD_A_LOWER_VICTIM_ARMOR] = P(HITS) | P(DAMAGES),
    [BOARD_A_GAIN_MAX_ARMOR] = P(BEFORE_ARMOR) | P(HITS),
    [BOARD_A_FORBID_MOVE] = P(CAN_MOVE),
    [BOARD_A_FORBID_EXIT] = P(CAN_EXIT),
    [BOARD_A_CANCEL_DEATH] = P(DYING),
    [BOARD_A_DAMAGE_KILLER] = P(KILLED),
};
#undef P

#define T(x)     (1u << BOARD_T_##x)
#define T_BUBBLE (T(INDIVIDUAL) | T(GROUP) | T(SQUARE) | T(STRUCTURE) | T(TERRAIN) | T(GLOBE))
/* The target kinds a spell with each action may have. */
static const unsigned action_targets[BOARD_A__COUNT] = {
    [BOARD_A_CANCEL_ORDER] = T(GROUP),
    [BOARD_A_RANDOM_DIRECTION] = T(GROUP),
    [BOARD_A_ATTRACT] = T(GROUP) | T(SQUARE),
    [BOARD_A_SET_TERRAIN] = T(SQUARE) | T(TERRAIN),
    [BOARD_A_KILL] = T(INDIVIDUAL) | T(GROUP),
    [BOARD_A_DAMAGE] = T_BUBBLE | T(PLAYER),
    [BOARD_A_LEAVE_GROUP] = T(INDIVIDUAL),
    [BOARD_A_ADD_MAX_ARMOR] = T(INDIVIDUAL) | T(GROUP),
    [BOARD_A_FORBID_JOIN] = T(GROUP),
    [BOARD_A_TERRAIN_BIND] = T(GROUP),
    [BOARD_A_IGNORES_ARMOR] = T_BUBBLE,
    [BOARD_A_DEAL_NO_DAMAGE] = T_BUBBLE,
    [BOARD_A_ADD_DAMAGE] = T_BUBBLE,
    [BOARD_A_ADD_TWICE_MAX_ARMOR] = T(INDIVIDUAL) | T(GROUP),
    [BOARD_A_DEFLECT] = T_BUBBLE,
    [BOARD_A_RECEIVE_NO_DAMAGE] = T_BUBBLE,
    [BOARD_A_KILL_VICTIM] = T_BUBBLE,
    [BOARD_A_LOWER_VICTIM_ARMOR] = T_BUBBLE,
    [BOARD_A_GAIN_MAX_ARMOR] = T(INDIVIDUAL) | T(GROUP),
    [BOARD_A_FORBID_MOVE] = T(GROUP),
    [BOARD_A_FORBID_EXIT] = T(SQUARE) | T(TERRAIN),
    [BOARD_A_CANCEL_DEATH] = T(INDIVIDUAL) | T(GROUP),
    [BOARD_A_DAMAGE_KILLER] = T_BUBBLE,
};
#undef T
#undef T_BUBBLE

const char *board_spells_point_name(int p)
{
    return point_names[p];
}

const char *board_spells_action_name(int a)
{
    return action_names[a];
}

const char *board_spells_duration_name(int d)
{
    return duration_names[d];
}

static int lookup(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

int board_spells_find(const struct board_spell_def *defs, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(defs[i].name, name) == 0)
            return i;
    return -1;
}

/* Reads member `key` of `obj` as a string of 1..max-1 bytes into dst; reports problems. */
static int get_str(const json_t *obj, const char *key, int required, char *dst, size_t max,
                   struct sk_jptr *ptr, struct sk_verr_list *errs)
{
    const json_t *v = json_object_get(obj, key);
    size_t len;

    if (!v) {
        if (required) {
            sk_jptr_push_key(ptr, key);
            sk_verr_add(errs, sk_jptr_str(ptr), "'%s' is required", key);
            sk_jptr_pop(ptr);
        }
        return 0;
    }
    sk_jptr_push_key(ptr, key);
    len = json_is_string(v) ? json_string_length(v) : 0;
    if (!json_is_string(v) || len == 0 || len >= max) {
        sk_verr_add(errs, sk_jptr_str(ptr), "'%s' must be a string of 1 to %zu bytes", key,
                    max - 1);
        sk_jptr_pop(ptr);
        return 0;
    }
    memcpy(dst, json_string_value(v), len + 1);
    sk_jptr_pop(ptr);
    return 1;
}

static void decode_cond(const json_t *c, struct sk_jptr *ptr, struct sk_verr_list *errs,
                        struct board_cond *out)
{
    static const char *const keys[] = {"attacker_nation",
                                       "attacker_class",
                                       "attacker_recruit",
                                       "attacker_enchanted",
                                       "attacker_caster",
                                       "magical",
                                       NULL};
    const json_t *v;

    out->attacker_nation = out->attacker_class = out->attacker_recruit = -1;
    out->attacker_enchanted = out->attacker_caster = out->magical = -1;
    if (!c)
        return;
    sk_jptr_push_key(ptr, "if");
    if (!json_is_object(c)) {
        sk_verr_add(errs, sk_jptr_str(ptr), "'if' must be an object");
        sk_jptr_pop(ptr);
        return;
    }
    (void)sk_verr_check_keys(errs, ptr, c, keys);
    if ((v = json_object_get(c, "attacker_nation"))) {
        sk_jptr_push_key(ptr, "attacker_nation");
        if (!json_is_string(v) ||
            (out->attacker_nation = board_model_nation_parse(json_string_value(v))) <= 0)
            sk_verr_add(errs, sk_jptr_str(ptr), "unknown nation");
        sk_jptr_pop(ptr);
    }
    if ((v = json_object_get(c, "attacker_class"))) {
        sk_jptr_push_key(ptr, "attacker_class");
        if (!json_is_string(v) ||
            (out->attacker_class = board_model_class_parse(json_string_value(v))) < 0)
            sk_verr_add(errs, sk_jptr_str(ptr), "unknown class");
        sk_jptr_pop(ptr);
    }
    {
        static const char *const bools[] = {"attacker_recruit", "attacker_enchanted",
                                            "attacker_caster", "magical"};
        int *dst[] = {&out->attacker_recruit, &out->attacker_enchanted, &out->attacker_caster,
                      &out->magical};
        for (int i = 0; i < 4; i++) {
            if (!(v = json_object_get(c, bools[i])))
                continue;
            sk_jptr_push_key(ptr, bools[i]);
            if (!json_is_boolean(v))
                sk_verr_add(errs, sk_jptr_str(ptr), "'%s' must be a boolean", bools[i]);
            else
                *dst[i] = json_is_true(v);
            sk_jptr_pop(ptr);
        }
    }
    sk_jptr_pop(ptr);
}

static void decode_effect(const json_t *e, enum board_target_kind target, struct sk_jptr *ptr,
                          struct sk_verr_list *errs, struct board_effect *out)
{
    static const char *const keys[] = {"event", "action", "amount", "terrain", "if", NULL};
    const json_t *v;
    int point = -1, action = -1;

    memset(out, 0, sizeof(*out));
    out->terrain = -1;
    if (!json_is_object(e)) {
        sk_verr_add(errs, sk_jptr_str(ptr), "an effect must be an object");
        return;
    }
    (void)sk_verr_check_keys(errs, ptr, e, keys);
    v = json_object_get(e, "event");
    sk_jptr_push_key(ptr, "event");
    if (!v)
        sk_verr_add(errs, sk_jptr_str(ptr), "'event' is required");
    else if (!json_is_string(v) ||
             (point = lookup(point_names, BOARD_P__COUNT, json_string_value(v))) < 0)
        sk_verr_add(errs, sk_jptr_str(ptr), "unknown event");
    sk_jptr_pop(ptr);
    v = json_object_get(e, "action");
    sk_jptr_push_key(ptr, "action");
    if (!v)
        sk_verr_add(errs, sk_jptr_str(ptr), "'action' is required");
    else if (!json_is_string(v) ||
             (action = lookup(action_names, BOARD_A__COUNT, json_string_value(v))) < 0)
        sk_verr_add(errs, sk_jptr_str(ptr), "unknown action");
    else if (point >= 0 && !(action_points[action] & (1u << point)))
        sk_verr_add(errs, sk_jptr_str(ptr), "action '%s' cannot answer event '%s'",
                    action_names[action], point_names[point]);
    else if (!(action_targets[action] & (1u << target)))
        sk_verr_add(errs, sk_jptr_str(ptr), "action '%s' needs another target kind than '%s'",
                    action_names[action], board_model_target_name(target));
    sk_jptr_pop(ptr);
    if ((v = json_object_get(e, "amount"))) {
        sk_jptr_push_key(ptr, "amount");
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > BOARD_MAX_AMOUNT)
            sk_verr_add(errs, sk_jptr_str(ptr), "'amount' must be an integer from 0 to %d",
                        BOARD_MAX_AMOUNT);
        else
            out->amount = (int)json_integer_value(v);
        sk_jptr_pop(ptr);
    }
    v = json_object_get(e, "terrain");
    sk_jptr_push_key(ptr, "terrain");
    if (v && (!json_is_string(v) ||
              (out->terrain = board_model_terrain_parse(json_string_value(v))) < 0))
        sk_verr_add(errs, sk_jptr_str(ptr), "unknown terrain");
    else if (!v && action == BOARD_A_SET_TERRAIN)
        sk_verr_add(errs, sk_jptr_str(ptr), "'terrain' is required by 'set_terrain'");
    sk_jptr_pop(ptr);
    decode_cond(json_object_get(e, "if"), ptr, errs, &out->cond);
    out->point = point < 0 ? BOARD_P_CAST : (enum board_point)point;
    out->action = action < 0 ? BOARD_A_DAMAGE : (enum board_action)action;
}

enum sk_err board_spells_decode(const json_t *doc, struct sk_jptr *ptr, struct sk_verr_list *errs,
                                struct board_spell_def *out)
{
    static const char *const keys[] = {"name",  "text",    "target", "duration",
                                       "turns", "effects", NULL};
    struct board_spell_def d;
    size_t before = errs->n;
    const json_t *v;
    char buf[32];
    int target = BOARD_T_GROUP;

    memset(&d, 0, sizeof(d));
    if (!json_is_object(doc))
        return sk_verr_add(errs, sk_jptr_str(ptr), "a spell definition must be an object");
    (void)sk_verr_check_keys(errs, ptr, doc, keys);
    get_str(doc, "name", 1, d.name, sizeof(d.name), ptr, errs);
    get_str(doc, "text", 1, d.text, sizeof(d.text), ptr, errs);
    if (get_str(doc, "target", 1, buf, sizeof(buf), ptr, errs)) {
        target = board_model_target_parse(buf);
        if (target < 0) {
            sk_jptr_push_key(ptr, "target");
            sk_verr_add(errs, sk_jptr_str(ptr), "unknown target kind \"%s\"", buf);
            sk_jptr_pop(ptr);
            target = BOARD_T_GROUP;
        }
    }
    d.target = (enum board_target_kind)target;
    if (get_str(doc, "duration", 1, buf, sizeof(buf), ptr, errs)) {
        int k = lookup(duration_names, BOARD_D__COUNT, buf);
        if (k < 0) {
            sk_jptr_push_key(ptr, "duration");
            sk_verr_add(errs, sk_jptr_str(ptr),
                        "'duration' must be \"instant\", \"persistent\" or \"temporary\"");
            sk_jptr_pop(ptr);
        } else {
            d.duration = (enum board_duration)k;
        }
    }
    v = json_object_get(doc, "turns");
    sk_jptr_push_key(ptr, "turns");
    if (d.duration == BOARD_D_TEMPORARY) {
        if (!v || !json_is_integer(v) || json_integer_value(v) < 1 ||
            json_integer_value(v) > BOARD_MAX_TURNS)
            sk_verr_add(errs, sk_jptr_str(ptr),
                        "a temporary spell needs 'turns', an integer from 1 to %d",
                        BOARD_MAX_TURNS);
        else
            d.turns = (int)json_integer_value(v);
    } else if (v) {
        sk_verr_add(errs, sk_jptr_str(ptr), "'turns' is only for temporary spells");
    }
    sk_jptr_pop(ptr);
    v = json_object_get(doc, "effects");
    sk_jptr_push_key(ptr, "effects");
    if (!v || !json_is_array(v) || json_array_size(v) < 1 ||
        json_array_size(v) > BOARD_SPELL_EFFECTS) {
        sk_verr_add(errs, sk_jptr_str(ptr), "'effects' must be an array of 1 to %d effects",
                    BOARD_SPELL_EFFECTS);
    } else {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e)
        {
            sk_jptr_push_index(ptr, i);
            decode_effect(e, d.target, ptr, errs, &d.effects[i]);
            if (d.duration == BOARD_D_INSTANT && d.effects[i].point != BOARD_P_CAST &&
                json_is_object(e) && json_object_get(e, "event")) {
                sk_jptr_push_key(ptr, "event");
                sk_verr_add(errs, sk_jptr_str(ptr), "an instant spell has only 'cast' effects");
                sk_jptr_pop(ptr);
            }
            sk_jptr_pop(ptr);
        }
        d.neffects = (int)json_array_size(v);
    }
    sk_jptr_pop(ptr);
    if (errs->n > before)
        return SK_EINVAL;
    *out = d;
    return SK_OK;
}

static json_t *encode_cond(const struct board_cond *c)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    if (c->attacker_nation >= 0)
        json_object_set_new(o, "attacker_nation",
                            json_string(board_model_nation_name(c->attacker_nation)));
    if (c->attacker_class >= 0)
        json_object_set_new(o, "attacker_class",
                            json_string(board_model_class_name(c->attacker_class)));
    if (c->attacker_recruit >= 0)
        json_object_set_new(o, "attacker_recruit", json_boolean(c->attacker_recruit));
    if (c->attacker_enchanted >= 0)
        json_object_set_new(o, "attacker_enchanted", json_boolean(c->attacker_enchanted));
    if (c->attacker_caster >= 0)
        json_object_set_new(o, "attacker_caster", json_boolean(c->attacker_caster));
    if (c->magical >= 0)
        json_object_set_new(o, "magical", json_boolean(c->magical));
    return o;
}

json_t *board_spells_encode(const struct board_spell_def *def)
{
    json_t *o = json_object();
    json_t *effs = json_array();

    if (!o || !effs) {
        json_decref(o);
        json_decref(effs);
        return NULL;
    }
    json_object_set_new(o, "name", json_string(def->name));
    json_object_set_new(o, "text", json_string(def->text));
    json_object_set_new(o, "target", json_string(board_model_target_name(def->target)));
    json_object_set_new(o, "duration", json_string(duration_names[def->duration]));
    if (def->duration == BOARD_D_TEMPORARY)
        json_object_set_new(o, "turns", json_integer(def->turns));
    for (int i = 0; i < def->neffects; i++) {
        const struct board_effect *e = &def->effects[i];
        json_t *c = encode_cond(&e->cond);
        json_t *x = json_object();
        if (!x) {
            json_decref(c);
            continue;
        }
        json_object_set_new(x, "event", json_string(point_names[e->point]));
        json_object_set_new(x, "action", json_string(action_names[e->action]));
        if (e->amount)
            json_object_set_new(x, "amount", json_integer(e->amount));
        if (e->terrain >= 0)
            json_object_set_new(x, "terrain", json_string(board_model_terrain_name(e->terrain)));
        if (c && json_object_size(c))
            json_object_set_new(x, "if", c);
        else
            json_decref(c);
        json_array_append_new(effs, x);
    }
    json_object_set_new(o, "effects", effs);
    return o;
}

static enum sk_err load_text(json_t **out, char *err, size_t errlen)
{
    const char *path = getenv("SKIRMISH_SPELLS_FILE");
    json_error_t je;
    json_t *doc;

    if (path && *path) {
        doc = json_load_file(path, 0, &je);
        if (!doc) {
            (void)snprintf(err, errlen, "%s: %s (line %d)", path, je.text, je.line);
            return SK_EIO;
        }
    } else {
        doc = json_loads(board_spells_data, 0, &je);
        if (!doc) {
            (void)snprintf(err, errlen, "embedded spells.json: %s (line %d)", je.text, je.line);
            return SK_EINTERNAL;
        }
    }
    *out = doc;
    return SK_OK;
}

enum sk_err board_spells_catalog(struct board_spell_def *defs, int cap, int *n, char *err,
                                 size_t errlen)
{
    json_t *doc = NULL;
    struct sk_verr_list errs;
    struct sk_jptr ptr;
    enum sk_err rc;
    size_t i;
    json_t *e;
    int count = 0;

    sk_verr_list_init(&errs);
    rc = load_text(&doc, err, errlen);
    if (rc)
        goto out;
    if (!json_is_array(doc) || json_array_size(doc) > (size_t)cap) {
        (void)snprintf(err, errlen, "the spell catalog must be an array of at most %d spells", cap);
        rc = SK_EINVAL;
        goto out;
    }
    sk_jptr_init(&ptr);
    json_array_foreach(doc, i, e)
    {
        sk_jptr_push_index(&ptr, i);
        if (board_spells_decode(e, &ptr, &errs, &defs[count]) == SK_OK) {
            if (board_spells_find(defs, count, defs[count].name) >= 0)
                sk_verr_add(&errs, sk_jptr_str(&ptr), "duplicate spell \"%s\"", defs[count].name);
            count++;
        }
        sk_jptr_pop(&ptr);
    }
    if (errs.n) {
        (void)snprintf(err, errlen, "spell catalog: %s: %s", errs.items[0].pointer,
                       errs.items[0].message);
        rc = SK_EINVAL;
        goto out;
    }
    *n = count;
out:
    sk_verr_list_release(&errs);
    json_decref(doc);
    return rc;
}

enum sk_err board_spells_catalog_json(json_t **out, char *err, size_t errlen)
{
    struct board_spell_def *defs = sk_calloc(BOARD_MAX_DEFS, sizeof(*defs));
    json_t *arr = NULL;
    int n = 0;
    enum sk_err rc;

    if (!defs)
        return SK_ENOMEM;
    rc = board_spells_catalog(defs, BOARD_MAX_DEFS, &n, err, errlen);
    if (rc)
        goto out;
    arr = json_array();
    if (!arr) {
        rc = SK_ENOMEM;
        goto out;
    }
    for (int i = 0; i < n; i++) {
        if (json_array_append_new(arr, board_spells_encode(&defs[i]))) {
            rc = SK_ENOMEM;
            goto out;
        }
    }
    *out = arr;
    arr = NULL;
out:
    json_decref(arr);
    sk_free(defs);
    return rc;
}
