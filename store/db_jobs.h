/* SPDX-License-Identifier: MIT */
/* The job SQL: every statement that reads or changes a row of `jobs`. The API inserts,
 * reads, lists and cancels; the worker claims with a lease, reports progress, and ends
 * the job with writes that only the current lease holder can make (the lease owner is a
 * token unique to one claim, so a worker that lost its lease can never overwrite the
 * job; those writes answer SK_ELEASE, which no database error shares). Reads return rows as
 * structs (struct db_job); rendering them is the API's business (api_render). Errors as
 * db_exec. */
#ifndef DB_JOBS_H
#define DB_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "sk_err.h"

/* Length of a job id in text form (UUID) plus the NUL. */
#define DB_JOBS_ID_LEN 37

/* Length of a timestamp in text form ("2026-01-02T03:04:05.678901Z") plus the NUL. */
#define DB_JOBS_TS_LEN 32

/* One row of jobs: the fields of the job resource. */
struct db_job {
    char id[DB_JOBS_ID_LEN];
    char kind[16];
    char status[16];
    long long seed;
    int attempts;
    long long done, total;  /* progress */
    long long resumed_from; /* the unit the latest attempt started at (its checkpoint's) */
    int shards;             /* shards the job was split into; 0 = not split (0008) */
    int cancel_requested;
    /* UTC, RFC 3339 with microseconds; "" for SQL NULL (not started or not finished) */
    char created_at[DB_JOBS_TS_LEN], started_at[DB_JOBS_TS_LEN];
    char finished_at[DB_JOBS_TS_LEN], updated_at[DB_JOBS_TS_LEN];
    char *error;                   /* owned; NULL = none */
    char retry_of[DB_JOBS_ID_LEN]; /* the job this one retries (POST :retry); "" = none */
    char **workers;   /* owned (one allocation): the worker of attempt i+1 at [i]; NULL if none */
    size_t n_workers; /* entries of workers: attempts, or fewer for rows older than 0006 */
    /* owned (one allocation): what ended attempt i+1 at [i], NULL while it runs and for an
     * attempt that succeeded or was canceled; NULL if none */
    char **errors;
    size_t n_errors; /* entries of errors: attempts */
    char tenant[64]; /* the tenant of the key that submitted it (docs/security.md) */
    char *detail;    /* owned: the progress detail (JSON object text, 0011); NULL = none */
    long long cost_estimate_ms; /* the API's CPU estimate at admission (0013); -1 = none */
    long long cpu_ms;           /* CPU workers spent on it, its shards' and units' included */
};

/* The tenant of jobs submitted with SKIRMISH_AUTH off, and of rows older than 0009. */
#define DB_JOBS_TENANT "default"

/** Frees the strings of `j` (not `j` itself); NULL-safe and idempotent. */
void db_job_release(struct db_job *j);
/** Releases `n` rows and frees the array; NULL-safe. */
void db_jobs_free(struct db_job *jobs, size_t n);

/** 1 when `s` is a UUID in its canonical text form (36 hex digits and dashes). */
int db_jobs_is_id(const char *s);

/**
 * Inserts a queued job of `tenant` (NULL = DB_JOBS_TENANT) and commits it. `request` is the
 * JSON text stored (with the seed filled in), `cost_ms` the API's estimate of its CPU
 * milliseconds (-1 = none). On SK_OK *out is the new row (release with
 * db_job_release).
 */
enum sk_err db_jobs_insert(struct db *db, const char *tenant, const char *kind, const char *request,
                           uint64_t seed, uint64_t total, long long cost_ms, struct db_job *out);

/** Writes a new random (version 4) UUID into `id`. Never fails. */
void db_jobs_new_id(char id[DB_JOBS_ID_LEN]);

/* One row of db_jobs_insert_many. */
struct db_jobs_new {
    const char *tenant;  /* borrowed; NULL = DB_JOBS_TENANT */
    const char *kind;    /* borrowed */
    const char *request; /* borrowed JSON text */
    uint64_t seed, total;
    long long cost_ms;       /* the CPU estimate in milliseconds; -1 = none */
    char id[DB_JOBS_ID_LEN]; /* set by the caller (db_jobs_new_id) */
    int got;                 /* OUT: 1 when job is set */
    struct db_job job;       /* OUT: the new row (db_job_release), set on SK_OK only */
};

/**
 * Inserts `n` queued jobs in one statement and one commit (group commit by the
 * application: one WAL flush for the whole batch). The rows' got must be 0 on entry. On
 * SK_OK every row's job is set; on failure no row is inserted and no job is set.
 */
enum sk_err db_jobs_insert_many(struct db *db, struct db_jobs_new *rows, size_t n);

/** The row of job `id` in *out (release with db_job_release). SK_ENOTFOUND if none. */
enum sk_err db_jobs_get(struct db *db, const char *id, struct db_job *out);

/** 1 when `status` is final (succeeded, failed, canceled): the row never changes again. */
int db_jobs_is_final(const char *status);

/**
 * The result document of `id` in *json (new string). SK_ENOTFOUND if no such job;
 * SK_ECONFLICT if it has not succeeded, with its status copied into `status` (16 bytes).
 */
enum sk_err db_jobs_result(struct db *db, const char *id, char **json, char status[16]);

/**
 * One page of at most `limit` jobs, newest first, in *items (a new array of *n_items rows,
 * free with db_jobs_free); *more is 1 when more jobs follow the last. `status` and `kind`
 * filter when non-NULL, and so does `tenant` (NULL: every tenant's). `after_ts`/`after_id` (both or
 * neither) continue after the job with that created_at and id (a row's created_at text reads back
 * exactly). SK_EINVAL when they are not a timestamp and a UUID.
 */
enum sk_err db_jobs_list(struct db *db, const char *tenant, const char *status, const char *kind,
                         int limit, const char *after_ts, const char *after_id,
                         struct db_job **items, size_t *n_items, int *more);

/**
 * Requests cancellation: a queued job becomes canceled at once; a running one is flagged
 * and the worker stops it at the next chunk. *out is the row after the change (release with
 * db_job_release). SK_ENOTFOUND; SK_ECONFLICT when the job is already final.
 */
enum sk_err db_jobs_cancel(struct db *db, const char *id, struct db_job *out);

/* The error of an attempt whose worker stopped renewing its lease (killed, host lost). */
#define DB_JOBS_LEASE_EXPIRED "the worker running it stopped (lease expired)"

/* What a claim did. */
enum db_claim_state {
    DB_CLAIM_RUNNING = 0, /* the caller holds the lease and must run the job */
    DB_CLAIM_SKIPPED,     /* not claimable now: final, leased by a live worker, or delayed */
    DB_CLAIM_ENDED,       /* the claim ended the job: canceled (flagged) or out of attempts */
};

struct db_claim {
    enum db_claim_state state;
    int attempts; /* attempts including this one */
    char kind[16];
    char *request; /* owned JSON text when RUNNING; free with db_jobs_claim_release */
    /* The checkpoint an earlier attempt stored (db_jobs_progress), owned; NULL = none:
     * the run starts from zero. checkpoint_done is its units. */
    unsigned char *checkpoint;
    size_t checkpoint_len;
    uint64_t checkpoint_done;
    /* A shard (db_jobs_split): the job it belongs to, "" for a job of its own; it covers
     * the units [first, first + units) of that job's document. Set in every state. */
    char parent[DB_JOBS_ID_LEN];
    uint64_t first, units;
    /* A unit (migration 0012, db_units.h): 1 in every state; its bytes (owned) when
     * RUNNING, for job_unit_run with the job's document (`request`, its parent's). */
    int unit;
    unsigned char *unit_spec;
    size_t unit_spec_len;
    long long age_s; /* seconds since the job (or its parent's unit, shard) was created */
};

/**
 * Claims job `id` for worker `worker` (its consumer name, recorded as the worker of this
 * attempt) and `owner` (a token unique to this claim) with a lease of `lease_ms`:
 * a queued job whose retry delay has passed, or a running one whose lease has expired
 * (DB_JOBS_LEASE_EXPIRED becomes the error of that attempt and of the job).
 * A flagged cancel ends the job as canceled; a job that already used `max_attempts` ends
 * as failed with its last error kept. Result in *out (release with db_jobs_claim_release).
 */
enum sk_err db_jobs_claim(struct db *db, const char *id, const char *worker, const char *owner,
                          long lease_ms, long max_attempts, struct db_claim *out);
/** Frees the strings of a claim; NULL-safe. */
void db_jobs_claim_release(struct db_claim *c);

/* What a progress report stores besides the units done. */
struct db_progress {
    uint64_t from; /* the unit this attempt started at (the checkpoint it resumed), or 0 */
    /* The run's checkpoint after `done` units (borrowed bytes, job_run_save), stored with
     * them; NULL keeps the stored one (and its units): it stays a valid place to resume. */
    const void *checkpoint;
    size_t checkpoint_len;
    /* What watchers see besides the units (JSON object text, job_run_progress; borrowed);
     * NULL keeps the stored one. */
    const char *detail;
};

/**
 * Records `done` units and what `p` holds (NULL: nothing more) and renews the lease for
 * `lease_ms`, in one statement only the lease holder can make. *cancel is set to 1 when a
 * cancel was requested. SK_ELEASE when `owner` no longer holds the lease.
 */
enum sk_err db_jobs_progress(struct db *db, const char *id, const char *owner, uint64_t done,
                             const struct db_progress *p, long lease_ms, int *cancel);

/*
 * The three ends below also delete the job's unit rows left behind (db_units.h), in the
 * same fenced statement.
 */
/** Ends the job as succeeded with `result` (JSON text). SK_ELEASE if the lease is lost. */
enum sk_err db_jobs_succeed(struct db *db, const char *id, const char *owner, const char *result);
/** Ends the job as canceled. SK_ELEASE if the lease is lost. */
/* `partial` (JSON text, or NULL) is the result of the units done before the cancel. */
enum sk_err db_jobs_cancelled(struct db *db, const char *id, const char *owner,
                              const char *partial);
/**
 * Ends the job as failed with `error` (the job's), recording `attempt_error` as the error of
 * this attempt. SK_ELEASE if the lease is lost.
 */
enum sk_err db_jobs_fail(struct db *db, const char *id, const char *owner, const char *error,
                         const char *attempt_error);
/**
 * Puts the job back to queued after a transient failure, runnable again in `delay_ms`,
 * keeping `error` as the job's and this attempt's error, and the checkpoint (the next
 * attempt resumes it). SK_ELEASE if the lease is lost.
 */
enum sk_err db_jobs_retry(struct db *db, const char *id, const char *owner, long delay_ms,
                          const char *error);
/**
 * Gives the job back (graceful shutdown): queued, runnable at once, and the attempt is not
 * counted; the checkpoint stays for the next attempt. SK_ELEASE if the lease is lost.
 */
enum sk_err db_jobs_release(struct db *db, const char *id, const char *owner);
/**
 * Leaves the job to another worker (this one lacks its card catalog): as db_jobs_release,
 * runnable again in `delay_ms` (the reconciler enqueues it then), and, where this was its
 * first attempt, not started either. SK_ELEASE if the lease is lost.
 */
enum sk_err db_jobs_defer(struct db *db, const char *id, const char *owner, long delay_ms);

typedef void db_jobs_id_fn(const char *id, int attempts, void *arg);

/**
 * Calls `fn` for up to `limit` jobs that should be in the stream: queued ones older than
 * `age_ms` (or whose retry delay has passed) and running ones whose lease expired more
 * than `age_ms` ago. Oldest first.
 */
enum sk_err db_jobs_dispatchable(struct db *db, long age_ms, int limit, db_jobs_id_fn *fn,
                                 void *arg);

/* ===== Shards: a big job split into ranges of its units (docs/operations.md) ===== */

/**
 * Splits job `id`, held by `owner`, into `n` shards of `shard_units` units (the last takes
 * what is left): queued rows of the same document, seed and cancel flag, each with its
 * range, in one fenced statement; the job itself stays running with no lease and is never
 * claimed again. *ids is a NULL-terminated array of the shards' ids in unit order (free
 * with db_jobs_free_ids), for the caller to enqueue. SK_ELEASE if the lease is lost.
 */
enum sk_err db_jobs_split(struct db *db, const char *id, const char *owner, uint64_t shard_units,
                          int n, char ***ids);

/**
 * Sets the progress of split job `parent` to the sum of its shards' and returns it
 * (*done, *total). SK_ECONFLICT when the job has ended.
 */
enum sk_err db_jobs_parent_progress(struct db *db, const char *parent, uint64_t *done,
                                    uint64_t *total);

/**
 * Ends shard `id` as succeeded with its final checkpoint (`len` bytes, borrowed: the
 * counts its job merges; a shard has no result document). SK_ELEASE if the lease is lost.
 */
enum sk_err db_jobs_shard_succeed(struct db *db, const char *id, const char *owner,
                                  const void *checkpoint, size_t len);

/* One shard of a split job, as db_jobs_shards reads it. */
struct db_shard {
    char status[16];
    uint64_t first, units;
    unsigned char *checkpoint; /* owned; NULL = none (no chunk done) */
    size_t checkpoint_len;
    char *error; /* owned; NULL = none */
};

/** The shards of `parent` in unit order in *out (*n rows; db_jobs_shards_free). */
enum sk_err db_jobs_shards(struct db *db, const char *parent, struct db_shard **out, int *n);
/** Frees `n` shards read by db_jobs_shards and the array; NULL-safe. */
void db_jobs_shards_free(struct db_shard *shards, int n);

/**
 * Ends split job `parent` (still running) as `status` ("succeeded", "failed", "canceled")
 * with `result` (JSON text or NULL) and `error` (or NULL); shards still queued or running
 * are flagged to stop as a cancel stops them. *ended is 1 when this call ended it, 0 when
 * it had ended already (another worker did; the same end, computed from the same rows).
 */
enum sk_err db_jobs_parent_end(struct db *db, const char *parent, const char *status,
                               const char *result, const char *error, int *ended);

/**
 * Calls `fn` for up to `limit` split jobs still running whose shards have all ended: the
 * worker that ended the last one died before it ended the job (the reconciler ends them).
 */
enum sk_err db_jobs_parents_ready(struct db *db, int limit, db_jobs_id_fn *fn, void *arg);

/* What db_jobs_insert_keyed did. */
enum db_keyed {
    DB_KEYED_NEW = 0,  /* the key was new (or expired): a job was made */
    DB_KEYED_REPLAY,   /* the key names a job made from the same document: that job */
    DB_KEYED_MISMATCH, /* the key names a job made from another document */
};

/**
 * Inserts a queued job of `tenant` (NULL = DB_JOBS_TENANT) under that tenant's
 * Idempotency-Key `key`, atomically: when the key is new (or
 * older than `ttl_s` seconds) the key and the job are made together; otherwise nothing is
 * made and the key's job is returned (`cost_ms` as db_jobs_insert). `canonical` is the
 * request document in a canonical
 * text form (its SHA-256 is what is compared). On SK_OK *out (the key's job, release with
 * db_job_release) and *outcome are written. SK_ECONFLICT when the key vanished between the
 * two statements (pruned): call again.
 */
enum sk_err db_jobs_insert_keyed(struct db *db, const char *tenant, const char *key,
                                 const char *canonical, long ttl_s, const char *kind,
                                 const char *request, uint64_t seed, uint64_t total,
                                 long long cost_ms, struct db_job *out, enum db_keyed *outcome);

/** Deletes the idempotency keys older than `ttl_s` seconds; *deleted (may be NULL) counts them.
 */
enum sk_err db_jobs_prune_keys(struct db *db, long ttl_s, long *deleted);

#define DB_JOBS_N_STATUS 5
/* The statuses from this index on are final: the row never changes again. */
#define DB_JOBS_FIRST_FINAL 2
/** The statuses in the order db_jobs_counts uses: queued, running, succeeded, failed, canceled.
 */
extern const char *const db_jobs_statuses[DB_JOBS_N_STATUS];

/** Number of jobs in each status (order of db_jobs_statuses). */
enum sk_err db_jobs_counts(struct db *db, long long counts[DB_JOBS_N_STATUS]);

/** The running jobs, oldest first, at most `limit`, in *out (*n rows, db_jobs_free). */
enum sk_err db_jobs_running(struct db *db, int limit, struct db_job **out, size_t *n);

/* ===== Operator actions ===== */

/** The document job `id` was submitted with (with its seed), as JSON text in *json (caller
 *  frees). SK_ENOTFOUND for an unknown or malformed id. */
enum sk_err db_jobs_document(struct db *db, const char *id, char **json);

/**
 * A new queued job from final job `id`'s stored document (same kind, seed and size), its
 * `retry_of` set to `id`, in *out (release with db_job_release). SK_ENOTFOUND unknown id;
 * SK_ECONFLICT the job is not final. The new job keeps the original's tenant. The caller
 * enqueues it.
 */
enum sk_err db_jobs_resubmit(struct db *db, const char *id, struct db_job *out);

/**
 * Charges `cpu_ms` milliseconds of CPU a worker spent on job `id` to that job, or to its
 * job when `id` is a shard or a unit (docs/security.md, "CPU cost"), whoever holds the
 * lease. The job's tenant goes into `tenant` (`tenant_len` bytes; "" on failure), for the
 * tenant's day counter. SK_ENOTFOUND when the job is gone (deleted by retention).
 */
enum sk_err db_jobs_charge(struct db *db, const char *id, long long cpu_ms, char *tenant,
                           size_t tenant_len);

/**
 * Cancels at most `limit` queued jobs, oldest first, of `kind` (NULL: any kind) and
 * `tenant` (NULL: any tenant). Returns
 * their ids in *ids, a NULL-terminated array (caller frees with db_jobs_free_ids), and
 * their number in *n. Running jobs are left alone.
 */
enum sk_err db_jobs_cancel_queued(struct db *db, const char *tenant, const char *kind, long limit,
                                  char ***ids, size_t *n);

/** Frees an id array of db_jobs_cancel_queued; NULL-safe. */
void db_jobs_free_ids(char **ids);

/**
 * The last `minutes` minutes as JSON text (caller frees): {"minutes", "points": [{"t",
 * "succeeded", "failed", "canceled", "games"}]}, one point per minute, oldest first, kept
 * in the jobs table itself (finished_at, status, progress_done).
 */
enum sk_err db_jobs_history(struct db *db, int minutes, char **json);

#endif
