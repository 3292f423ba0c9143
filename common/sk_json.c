/* SPDX-License-Identifier: MIT */
/* JSON writing (see sk_json.h). */
#include "sk_json.h"

#include "sk_banned.h"

char *sk_json_text(const json_t *doc)
{
    /* jansson allocates through sk_malloc (sk_mem_init_json), so sk_free releases it */
    return json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(SK_JSON_REAL_DIGITS));
}

int sk_json_print(const json_t *doc, FILE *f)
{
    if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(SK_JSON_REAL_DIGITS)))
        return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}
