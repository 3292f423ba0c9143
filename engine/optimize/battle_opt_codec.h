/* SPDX-License-Identifier: MIT */
/* Decoding and validation of an optimize job's params into its decoded job
 * (battle_opt_job.h), against the catalog of the job. */
#ifndef BATTLE_OPT_CODEC_H
#define BATTLE_OPT_CODEC_H

#include <jansson.h>
#include <stdint.h>

#include "battle_opt_job.h"
#include "sk_err.h"
#include "sk_verr.h"

struct battle_catalog;

/**
 * Decodes the "params" of an optimize job (borrowed) against `catalog` (borrowed). `ptr`
 * points at "/params" on entry and is restored; every problem goes to `errs` with its
 * pointer. SK_OK with *out filled (release with battle_opt_job_release), SK_EINVAL, or
 * SK_ENOMEM.
 */
enum sk_err battle_opt_decode(const json_t *params, uint64_t seed,
                              const struct battle_catalog *catalog, struct sk_jptr *ptr,
                              struct sk_verr_list *errs, struct opt_job *out);

#endif
