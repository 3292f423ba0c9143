/* SPDX-License-Identifier: MIT */
/* The long-lived engine (see engine.h): one state per job kind, opened in table order. */
#include "engine.h"

#include <stdio.h>
#include <string.h>

#include "engine_int.h"
#include "sk_mem.h"

#include "sk_banned.h"

struct engine {
    size_t n;
    void **state; /* state[k]: kind k's, from its open; freed by its close */
};

void *engine_state(const struct engine *eng, size_t k)
{
    return eng->state[k];
}

enum sk_err engine_new(const struct engine_opts *opts, struct engine **out, char *err,
                       size_t errlen)
{
    static const struct engine_opts defaults = {0};
    struct engine *eng = NULL;
    char why[1024] = "";
    enum sk_err rc = SK_ENOMEM;

    if (!opts)
        opts = &defaults;
    eng = sk_calloc(1, sizeof(*eng));
    if (!eng || !(eng->state = sk_calloc(job_kinds_n, sizeof(*eng->state))))
        goto out;
    for (size_t k = 0; k < job_kinds_n; k++) {
        rc = job_kinds[k]->open(opts, &eng->state[k], why, sizeof(why));
        eng->n = k + (rc == SK_OK);
        if (rc) {
            /* the kinds' messages name what failed (a file, a device) */
            (void)snprintf(err, errlen, "%s", why[0] ? why : sk_err_str(rc));
            goto out;
        }
    }
    *out = eng;
    eng = NULL;
    rc = SK_OK;
out:
    if (rc == SK_ENOMEM && !why[0])
        (void)snprintf(err, errlen, "out of memory");
    engine_free(eng);
    return rc;
}

void engine_free(struct engine *eng)
{
    if (!eng)
        return;
    for (size_t k = eng->n; k-- > 0;)
        if (job_kinds[k]->close)
            job_kinds[k]->close(eng->state[k]);
    sk_free(eng->state);
    sk_free(eng);
}

void engine_describe(const struct engine *eng, struct engine_info *info)
{
    memset(info, 0, sizeof(*info));
    (void)snprintf(info->backend, sizeof(info->backend), "cpu");
    (void)snprintf(info->device, sizeof(info->device), "cpu");
    for (size_t k = 0; k < eng->n; k++)
        if (job_kinds[k]->describe)
            job_kinds[k]->describe(eng->state[k], info);
}
