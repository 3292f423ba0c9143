/* SPDX-License-Identifier: MIT */
/* Error codes shared by every Skirmish module (docs/style.md, rule 6). A function that can fail
 * returns enum sk_err and writes its results through out-params only on SK_OK.
 * This module only names errors; it does not log or format them. */
#ifndef SK_ERR_H
#define SK_ERR_H

enum sk_err {
    SK_OK = 0,
    SK_ENOMEM,    /* an allocation failed */
    SK_EINVAL,    /* client input is invalid (validation errors say why) */
    SK_ERANGE,    /* a number is out of its allowed range */
    SK_ENOTFOUND, /* the named thing does not exist */
    SK_ECONFLICT, /* the thing is in a state that forbids the operation */
    SK_ERETRY,    /* a concurrent transaction won (deadlock, serialization failure): retry */
    SK_ELEASE,    /* the caller no longer holds the job's lease: another worker may run it */
    SK_ECANCELED, /* the operation was canceled on request */
    SK_EUNAVAIL,  /* a dependency (database, queue, device) is unreachable: transient */
    SK_ETIMEOUT,  /* a deadline passed: transient */
    SK_EIO,       /* an I/O or device operation failed */
    SK_EINTERNAL, /* a bug or corrupted state: never caused by client input */
    SK_ERR__COUNT
};

/** Returns a static, lowercase name for `err` ("enomem"); never NULL. */
const char *sk_err_str(enum sk_err err);

/** True for the errors worth retrying later (SK_ERETRY, SK_EUNAVAIL, SK_ETIMEOUT, SK_EIO). */
int sk_err_transient(enum sk_err err);

#endif
