/* SPDX-License-Identifier: MIT */
/* The worker's table of store functions (see worker_io.h). */
#include "worker_io.h"

#include "queue_limit.h"
#include "queue_notify.h"
#include "queue_telemetry.h"

#include "sk_banned.h"

const struct worker_io worker_io_stores = {
    .claim = db_jobs_claim,
    .progress = db_jobs_progress,
    .succeed = db_jobs_succeed,
    .cancelled = db_jobs_cancelled,
    .fail = db_jobs_fail,
    .retry = db_jobs_retry,
    .release = db_jobs_release,
    .defer = db_jobs_defer,
    .get = db_jobs_get,
    .dispatchable = db_jobs_dispatchable,
    .db_error = db_error,
    .split = db_jobs_split,
    .parent_progress = db_jobs_parent_progress,
    .shard_succeed = db_jobs_shard_succeed,
    .shards = db_jobs_shards,
    .parent_end = db_jobs_parent_end,
    .parents_ready = db_jobs_parents_ready,
    .document = db_jobs_document,
    .units_add = db_units_add,
    .units_get = db_units_get,
    .units_drop = db_units_drop,
    .units_claim = db_units_claim,
    .units_done = db_units_done,
    .charge = db_jobs_charge,
    .read = queue_read,
    .done = queue_done,
    .add = queue_add,
    .renew = queue_renew,
    .autoclaim = queue_autoclaim,
    .prune_consumers = queue_prune_consumers,
    .scan = queue_scan,
    .lock = queue_lock,
    .queue_error = queue_error,
    .job_progress = queue_progress,
    .publish = queue_publish,
    .heartbeat = queue_heartbeat,
    .heartbeat_drop = queue_heartbeat_drop,
    .workers = queue_workers,
    .games_add = queue_games_add,
    .cpu_charge = queue_limit_cpu_charge,
    .hist_observe = queue_hist_observe,
};
