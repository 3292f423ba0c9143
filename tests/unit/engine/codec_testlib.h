/* SPDX-License-Identifier: MIT */
/* Decoding a battle job's params written in a C string (' for ") against the built-in
 * catalog, for the tests of the codec's rules and errors; and two sides of the built-in
 * cards to write them with. No assertions about the codec. */
#ifndef CODEC_TESTLIB_H
#define CODEC_TESTLIB_H

#include <CUnit/CUnit.h>
#include <jansson.h>
#include <string.h>

#include "battle_catalog.h"
#include "battle_codec.h"

/* Two sides of the built-in cards. */
#define CT_SIDES                                                                                   \
    "'attacker':{'commander':'Test Commander','deck':[{'card':'Grunt','count':5}]},"               \
    "'defender':{'commander':'Test Commander','deck':[{'card':'Brute','count':4}]}"

/* Decodes params text `text` (' stands for ") against the built-in catalog into *spec,
 * problems into *errs (pointers under /params); returns the codec's result. */
static inline enum sk_err ct_decode(const char *text, struct battle_spec *spec,
                                    struct sk_verr_list *errs)
{
    char buf[2048];
    const struct battle_catalog *cat = NULL;
    struct sk_jptr ptr;
    json_t *doc;
    enum sk_err rc;
    size_t n = strlen(text);

    CU_ASSERT_FATAL(n < sizeof(buf));
    for (size_t i = 0; i <= n; i++)
        buf[i] = text[i] == '\'' ? '"' : text[i];
    doc = json_loads(buf, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_FATAL(battle_catalog_current(&cat, NULL, 0) == SK_OK);
    sk_jptr_init(&ptr);
    sk_jptr_push_key(&ptr, "params");
    rc = battle_codec_decode(doc, 1, cat, &ptr, errs, spec);
    json_decref(doc);
    return rc;
}

#endif
