/* SPDX-License-Identifier: MIT */
/* The battle card catalog (see battle_catalog.h): parsing and validation through the
 * codec's card decoder, a name-sorted table for binary search, and the process-wide copy
 * loaded from $SKIRMISH_CARDS_FILE or the built-in data/cards.json. */
#include "battle_catalog.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battle_cards.h"
#include "sk_mem.h"

#include "sk_banned.h"

/* data/cards.json, NUL-terminated, compiled into sk_engine by sk_embed (cmake/SkEmbed.cmake)
 * so that no binary depends on its working directory. */
extern const char battle_catalog_data_json[];

/* A cards file larger than this is refused before it is read into memory. */
#define CATALOG_FILE_MAX (16u << 20) /* 16 MiB */

struct battle_catalog {
    size_t n;
    struct battle_card_spec *cards; /* owned; sorted by name (strcmp) */
};

static int card_cmp(const void *a, const void *b)
{
    return strcmp(((const struct battle_card_spec *)a)->name,
                  ((const struct battle_card_spec *)b)->name);
}

enum sk_err battle_catalog_new(const char *text, size_t len, struct battle_catalog **out,
                               struct sk_verr_list *errs)
{
    struct battle_catalog *cat = NULL;
    json_t *doc = NULL;
    json_error_t jerr;
    struct sk_jptr ptr;
    size_t i;
    json_t *v;
    int bad = 0;
    enum sk_err err = SK_OK;

    doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc) {
        /* jansson reports allocation failure as a syntax error too; tell them apart. */
        if (json_error_code(&jerr) == json_error_out_of_memory) {
            err = SK_ENOMEM;
            goto out;
        }
        sk_verr_add(errs, "", "invalid JSON at line %d column %d: %s", jerr.line, jerr.column,
                    jerr.text);
        err = SK_EINVAL;
        goto out;
    }
    if (!json_is_array(doc)) {
        err = sk_verr_add(errs, "", "the catalog must be a JSON array of cards");
        goto out;
    }
    if (json_array_size(doc) > BATTLE_CATALOG_MAX) {
        err = sk_verr_add(errs, "", "a catalog holds at most %d cards, not %zu", BATTLE_CATALOG_MAX,
                          json_array_size(doc));
        goto out;
    }
    cat = sk_calloc(1, sizeof(*cat));
    if (cat)
        cat->cards = sk_calloc(json_array_size(doc), sizeof(*cat->cards));
    if (!cat || !cat->cards) {
        err = SK_ENOMEM;
        goto out;
    }
    sk_jptr_init(&ptr);
    json_array_foreach(doc, i, v)
    {
        sk_jptr_push_index(&ptr, i);
        if (battle_cards_decode(v, &ptr, errs, &cat->cards[cat->n]) == SK_OK) {
            for (size_t k = 0; k < cat->n; k++) {
                if (strcmp(cat->cards[k].name, cat->cards[cat->n].name) == 0) {
                    sk_jptr_push_key(&ptr, "name");
                    sk_verr_add(errs, sk_jptr_str(&ptr), "card \"%s\" is defined twice",
                                cat->cards[k].name);
                    sk_jptr_pop(&ptr);
                    bad = 1;
                    break;
                }
            }
            cat->n++;
        } else {
            bad = 1;
        }
        sk_jptr_pop(&ptr);
    }
    if (bad) {
        err = SK_EINVAL;
        goto out;
    }
    qsort(cat->cards, cat->n, sizeof(*cat->cards), card_cmp);
    *out = cat;
    cat = NULL;
out:
    battle_catalog_free(cat);
    json_decref(doc);
    return err;
}

void battle_catalog_free(struct battle_catalog *cat)
{
    if (!cat)
        return;
    sk_free(cat->cards);
    sk_free(cat);
}

size_t battle_catalog_count(const struct battle_catalog *cat)
{
    return cat->n;
}

const struct battle_card_spec *battle_catalog_at(const struct battle_catalog *cat, size_t i)
{
    return i < cat->n ? &cat->cards[i] : NULL;
}

const struct battle_card_spec *battle_catalog_find(const struct battle_catalog *cat,
                                                   const char *name)
{
    struct battle_card_spec key;
    size_t len = strlen(name);

    if (len > BATTLE_NAME_MAX)
        return NULL;
    memcpy(key.name, name, len + 1);
    return bsearch(&key, cat->cards, cat->n, sizeof(*cat->cards), card_cmp);
}

json_t *battle_catalog_to_json(const struct battle_catalog *cat)
{
    json_t *arr = json_array();

    if (!arr)
        return NULL;
    for (size_t i = 0; i < cat->n; i++) {
        if (json_array_append_new(arr, battle_cards_to_json(&cat->cards[i]))) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

/* ===== Loading: the environment's file or the built-in copy ===== */

/* Reads the whole file `path` into a new NUL-terminated buffer. */
static enum sk_err read_file(const char *path, char **out, size_t *out_len, char *err,
                             size_t errlen)
{
    FILE *f = NULL;
    char *buf = NULL;
    size_t len = 0;
    size_t cap = 0;
    enum sk_err rc = SK_OK;

    f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open cards file '%s': %s", path, strerror(errno));
        return SK_EIO;
    }
    for (;;) {
        size_t got;
        if (len + 1 >= cap) {
            char *nb;
            if (cap >= CATALOG_FILE_MAX) {
                snprintf(err, errlen, "cards file '%s' is larger than %u bytes", path,
                         CATALOG_FILE_MAX);
                rc = SK_EINVAL;
                goto out;
            }
            cap = cap ? cap * 2 : 65536;
            nb = sk_realloc(buf, cap + 1);
            if (!nb) {
                snprintf(err, errlen, "out of memory reading cards file '%s'", path);
                rc = SK_ENOMEM;
                goto out;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        snprintf(err, errlen, "cannot read cards file '%s'", path);
        rc = SK_EIO;
        goto out;
    }
    buf[len] = '\0';
    *out = buf;
    *out_len = len;
    buf = NULL;
out:
    sk_free(buf);
    fclose(f);
    return rc;
}

enum sk_err battle_catalog_load(struct battle_catalog **out, char *err, size_t errlen)
{
    const char *path = getenv(BATTLE_CATALOG_ENV);
    const char *source = "built-in cards";
    char *text = NULL;
    size_t len = 0;
    struct sk_verr_list errs;
    enum sk_err rc;

    sk_verr_list_init(&errs);
    if (path && *path) {
        rc = read_file(path, &text, &len, err, errlen);
        if (rc)
            goto out;
        source = path;
        rc = battle_catalog_new(text, len, out, &errs);
    } else {
        rc = battle_catalog_new(battle_catalog_data_json, strlen(battle_catalog_data_json), out,
                                &errs);
    }
    if (rc == SK_EINVAL) {
        /* The first problem is enough to find the spot; the rest follow from fixing it. */
        snprintf(err, errlen, "%s: %zu problem(s), first %s: %s", source, errs.n,
                 errs.n ? errs.items[0].pointer : "", errs.n ? errs.items[0].message : "");
    } else if (rc == SK_ENOMEM) {
        snprintf(err, errlen, "out of memory loading %s", source);
    }
out:
    sk_verr_list_release(&errs);
    sk_free(text);
    return rc;
}

/* Guards `shared`: set once, never freed (it lives as long as the process). */
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static struct battle_catalog *shared;

enum sk_err battle_catalog_shared(const struct battle_catalog **out, char *err, size_t errlen)
{
    char scratch[8];
    enum sk_err rc = SK_OK;

    if (!err) {
        err = scratch;
        errlen = sizeof(scratch);
    }
    pthread_mutex_lock(&shared_lock);
    if (!shared)
        rc = battle_catalog_load(&shared, err, errlen);
    if (!rc)
        *out = shared;
    pthread_mutex_unlock(&shared_lock);
    return rc;
}
