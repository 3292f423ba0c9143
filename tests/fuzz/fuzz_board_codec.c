/* SPDX-License-Identifier: MIT */
/* libFuzzer target: bytes -> JSON -> the board codec (board_codec_decode), the parser of a
 * board job's params. Any crash, sanitizer report or leak is a bug, and so is a broken
 * promise: a rejected document names at least one problem, every message and pointer is
 * valid UTF-8 (jansson would refuse the problem document otherwise), and a decoded state
 * encodes to a document that decodes again to the same state. Built only with -DSK_FUZZ=ON
 * and clang; tests/data/fuzz/board/ is its seed corpus, which test_engine replays through
 * this same function in every build (SK_FUZZ_ENTRY renames it there). */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board_codec.h"
#include "sk_mem.h"
#include "sk_utf8.h"
#include "sk_verr.h"

#include "sk_banned.h"

#ifndef SK_FUZZ_ENTRY
#define SK_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int SK_FUZZ_ENTRY(const uint8_t *data, size_t size);

/* Every pointer and message valid UTF-8, and the list renders as JSON. */
static void check_errors(const struct sk_verr_list *errs)
{
    json_t *arr;
    for (size_t i = 0; i < errs->n; i++) {
        const char *p = errs->items[i].pointer;
        const char *m = errs->items[i].message;
        if (!sk_utf8_valid(p, strlen(p)) || !sk_utf8_valid(m, strlen(m)) ||
            sk_utf8_needs_escape(m, strlen(m), 0))
            abort();
    }
    arr = sk_verr_list_to_json(errs);
    if (errs->n && !errs->oom && (!arr || json_array_size(arr) != errs->n))
        abort(); /* the problem document would come back with an empty errors[] */
    json_decref(arr);
}

/* The state of `in`, encoded, decoded again and encoded again, is unchanged. */
static void check_round_trip(const struct board_input *in)
{
    struct sk_jptr ptr;
    struct sk_verr_list errs;
    struct board_input *again = NULL;
    json_t *state = board_codec_encode_state(in->st);
    json_t *spells = board_codec_encode_inline(in);
    json_t *params = NULL;
    json_t *state2 = NULL;

    if (!state || !spells)
        goto out; /* out of memory */
    params = json_pack("{s:O, s:O, s:i}", "state", state, "spells", spells, "turns", in->turns);
    if (!params)
        goto out;
    sk_jptr_init(&ptr);
    sk_verr_list_init(&errs);
    if (board_codec_decode(params, &ptr, &errs, &again) != SK_OK) {
        if (!errs.oom)
            abort(); /* what the codec wrote, it must read */
    } else {
        state2 = board_codec_encode_state(again->st);
        if (state2 && !json_equal(state, state2))
            abort();
    }
    sk_verr_list_release(&errs);
    board_codec_free(again);
out:
    json_decref(state2);
    json_decref(params);
    json_decref(state);
    json_decref(spells);
}

int SK_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    static int initialised;
    json_error_t jerr;
    json_t *doc = NULL;
    struct sk_jptr ptr;
    struct sk_verr_list errs;
    struct board_input *in = NULL;
    enum sk_err rc;

    if (!initialised) {
        sk_mem_init_json();
        initialised = 1;
    }
    doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc)
        return 0;
    sk_jptr_init(&ptr);
    sk_verr_list_init(&errs);
    rc = board_codec_decode(doc, &ptr, &errs, &in);
    if (rc == SK_OK && (!in || errs.n != 0))
        abort();
    if (rc == SK_EINVAL && errs.n == 0 && !errs.oom)
        abort(); /* rejected without saying why */
    check_errors(&errs);
    if (rc == SK_OK)
        check_round_trip(in);
    board_codec_free(in);
    sk_verr_list_release(&errs);
    json_decref(doc);
    return 0;
}
