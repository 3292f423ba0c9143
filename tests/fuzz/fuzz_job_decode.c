/* SPDX-License-Identifier: MIT */
/* libFuzzer target: bytes -> JSON -> job_decode (envelope and battle/board params), the
 * path every API request takes. Any crash, sanitizer report or leak is a bug; a valid job
 * must also satisfy the decoder's promises (a positive amount of work; a rejected document
 * names its problems, each pointer and message valid UTF-8, so that the problem document can
 * hold them: a message cut inside a character once emptied errors[]). Built only with
 * -DSK_FUZZ=ON and clang; tests/data/fuzz/job/ is its seed corpus, replayed by
 * test_engine's battle_job suite in every build. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "sk_mem.h"
#include "sk_utf8.h"

#include "sk_banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int initialised;
    json_error_t jerr;
    json_t *doc = NULL;
    struct sk_verr_list errs;
    struct job *job = NULL;
    enum sk_err rc;

    if (!initialised) {
        sk_mem_init_json();
        initialised = 1;
    }
    doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc)
        return 0;
    sk_verr_list_init(&errs);
    rc = job_decode(doc, &job, &errs);
    if (rc == SK_OK && (job == NULL || job_total(job) == 0 || errs.n != 0))
        abort();
    if (rc == SK_EINVAL && errs.n == 0 && !errs.oom)
        abort(); /* rejected without saying why */
    for (size_t i = 0; i < errs.n; i++) {
        const char *p = errs.items[i].pointer;
        const char *m = errs.items[i].message;
        if (!sk_utf8_valid(p, strlen(p)) || !sk_utf8_valid(m, strlen(m)) ||
            sk_utf8_needs_escape(m, strlen(m), 0))
            abort();
    }
    if (errs.n && !errs.oom) {
        json_t *arr = sk_verr_list_to_json(&errs);
        if (!arr || json_array_size(arr) != errs.n)
            abort(); /* the 422 would come back with an empty errors[] */
        json_decref(arr);
    }
    job_free(job);
    sk_verr_list_release(&errs);
    json_decref(doc);
    return 0;
}
