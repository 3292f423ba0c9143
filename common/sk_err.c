/* SPDX-License-Identifier: MIT */
/* Names of the error codes (see sk_err.h). */
#include "sk_err.h"

#include "sk_banned.h"

const char *sk_err_str(enum sk_err err)
{
    static const char *const names[SK_ERR__COUNT] = {
        [SK_OK] = "ok",
        [SK_ENOMEM] = "enomem",
        [SK_EINVAL] = "einval",
        [SK_ERANGE] = "erange",
        [SK_ENOTFOUND] = "enotfound",
        [SK_ECONFLICT] = "econflict",
        [SK_ERETRY] = "eretry",
        [SK_ELEASE] = "elease",
        [SK_ECANCELED] = "ecanceled",
        [SK_EUNAVAIL] = "eunavail",
        [SK_ETIMEOUT] = "etimeout",
        [SK_EIO] = "eio",
        [SK_EINTERNAL] = "einternal",
    };
    if ((unsigned)err >= SK_ERR__COUNT)
        return "unknown";
    return names[err];
}

int sk_err_transient(enum sk_err err)
{
    return err == SK_ERETRY || err == SK_EUNAVAIL || err == SK_ETIMEOUT || err == SK_EIO;
}
