/* SPDX-License-Identifier: MIT */
/* Tests of the worker loop against fake stores (struct worker_io): one stream entry is
 * claimed, run through the real engine (CPU backend) and ended, while the fakes script
 * what PostgreSQL answers and count what the loop writes and acknowledges. No servers. */
#include <CUnit/CUnit.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "sk_config.h"
#include "sk_mem.h"
#include "sk_time.h"
#include "worker.h"
#include "worker_loop.h"

#include "sk_banned.h"

#define GOOD_JOB                                                                                   \
    "{\"kind\":\"battle\",\"seed\":3,\"params\":{\"games\":200,"                                   \
    "\"attacker\":{\"commander\":\"Test Commander\",\"deck\":[{\"card\":\"Grunt\",\"count\":5}]}," \
    "\"defender\":{\"commander\":\"Test "                                                          \
    "Commander\",\"deck\":[{\"card\":\"Brute\",\"count\":4}]}}}"

/* What the fakes answer and what they saw. */
static struct {
    const char *request;       /* the stored request the claim returns */
    enum sk_err succeed_rc[4]; /* answers of successive result writes; then SK_OK */
    int cancel_at_progress;    /* progress reports a cancel request */
    int claims, progress, succeeds, fails, retries, releases, cancels, acks, defers;
    long long age_s;  /* the claimed job's age */
    const char *beat; /* the one live heartbeat queue_workers lists; NULL = none */
    long defer_ms;
    char worker[128];
    char error[512];
    char attempt_error[512]; /* the attempt's own error of the last fail */
    char *result;
    /* checkpoints: the one the claim hands out (owned copy), the first one stored, and the
     * first progress report's units and starting unit */
    unsigned char *give;
    size_t give_len;
    unsigned char *kept;
    size_t kept_len;
    uint64_t kept_done, first_done, from;
    /* an optimisation's units: calls (inserts), and the deletes of their rows, the first
     * drop_conflicts of which meet a deadlock */
    int unit_calls, drops, drops_ok, drop_conflicts;
} fake;

static unsigned char *copy(const void *p, size_t n)
{
    unsigned char *c = sk_malloc(n ? n : 1);
    if (c)
        memcpy(c, p, n);
    return c;
}

static enum sk_err f_claim(struct db *db, const char *id, const char *worker, const char *owner,
                           long lease_ms, long max_attempts, struct db_claim *out)
{
    (void)db, (void)id, (void)owner, (void)lease_ms, (void)max_attempts;
    fake.claims++;
    snprintf(fake.worker, sizeof(fake.worker), "%s", worker);
    memset(out, 0, sizeof(*out));
    out->state = DB_CLAIM_RUNNING;
    out->attempts = 1;
    out->age_s = fake.age_s;
    snprintf(out->kind, sizeof(out->kind), "%s",
             strstr(fake.request, "\"kind\":\"optimize\"") ? "optimize" : "battle");
    out->request = sk_strdup(fake.request);
    if (out->request && fake.give) {
        out->checkpoint = copy(fake.give, fake.give_len);
        out->checkpoint_len = fake.give_len;
        if (!out->checkpoint) {
            db_jobs_claim_release(out);
            return SK_ENOMEM;
        }
    }
    return out->request ? SK_OK : SK_ENOMEM;
}

static enum sk_err f_progress(struct db *db, const char *id, const char *owner, uint64_t done,
                              const struct db_progress *p, long lease_ms, int *cancel)
{
    (void)db, (void)id, (void)owner, (void)lease_ms;
    if (!fake.progress++) {
        fake.first_done = done;
        fake.from = p->from;
    }
    if (p->checkpoint && !fake.kept) {
        fake.kept = copy(p->checkpoint, p->checkpoint_len);
        fake.kept_len = p->checkpoint_len;
        fake.kept_done = done;
    }
    *cancel = fake.cancel_at_progress;
    return SK_OK;
}

static enum sk_err f_succeed(struct db *db, const char *id, const char *owner, const char *result)
{
    enum sk_err rc = fake.succeeds < 4 ? fake.succeed_rc[fake.succeeds] : SK_OK;
    (void)db, (void)id, (void)owner;
    fake.succeeds++;
    if (rc == SK_OK) {
        sk_free(fake.result);
        fake.result = sk_strdup(result);
    }
    return rc;
}

static enum sk_err f_cancelled(struct db *db, const char *id, const char *owner,
                               const char *partial)
{
    (void)db, (void)id, (void)owner, (void)partial;
    fake.cancels++;
    return SK_OK;
}

static enum sk_err f_fail(struct db *db, const char *id, const char *owner, const char *error,
                          const char *attempt_error)
{
    (void)db, (void)id, (void)owner;
    fake.fails++;
    snprintf(fake.error, sizeof(fake.error), "%s", error);
    snprintf(fake.attempt_error, sizeof(fake.attempt_error), "%s", attempt_error);
    return SK_OK;
}

static enum sk_err f_retry(struct db *db, const char *id, const char *owner, long delay_ms,
                           const char *error)
{
    (void)db, (void)id, (void)owner, (void)delay_ms;
    fake.retries++;
    snprintf(fake.error, sizeof(fake.error), "%s", error);
    return SK_OK;
}

static enum sk_err f_release(struct db *db, const char *id, const char *owner)
{
    (void)db, (void)id, (void)owner;
    fake.releases++;
    return SK_OK;
}

static enum sk_err f_defer(struct db *db, const char *id, const char *owner, long delay_ms)
{
    (void)db, (void)id, (void)owner;
    fake.defers++;
    fake.defer_ms = delay_ms;
    return SK_OK;
}

static enum sk_err f_workers(struct queue *q, queue_text_fn *fn, void *arg)
{
    (void)q;
    if (fake.beat)
        fn(fake.beat, arg);
    return SK_OK;
}

static enum sk_err f_get(struct db *db, const char *id, struct db_job *out)
{
    (void)db;
    memset(out, 0, sizeof(*out));
    snprintf(out->id, sizeof(out->id), "%s", id);
    snprintf(out->status, sizeof(out->status), "%s", fake.result ? "succeeded" : "running");
    return SK_OK;
}

static const char *f_db_error(const struct db *db)
{
    (void)db;
    return "deadlock detected";
}

static enum sk_err f_done(struct queue *q, const char *entry_id)
{
    (void)q, (void)entry_id;
    fake.acks++;
    return SK_OK;
}

static enum sk_err f_renew(struct queue *q, const char *consumer, const char *entry_id, int *owned)
{
    (void)q, (void)consumer, (void)entry_id;
    *owned = 1;
    return SK_OK;
}

/* Redis writes that only inform (progress hash, notifications, heartbeats, counters). */
static enum sk_err f_add(struct queue *q, const char *job_id, int attempt)
{
    (void)q, (void)job_id, (void)attempt;
    return SK_OK;
}

static enum sk_err f_job_progress(struct queue *q, const char *job_id, uint64_t done,
                                  uint64_t total)
{
    (void)q, (void)job_id, (void)done, (void)total;
    return SK_OK;
}

static enum sk_err f_publish(struct queue *q, const char *job_id, const char *what)
{
    (void)q, (void)job_id, (void)what;
    return SK_OK;
}

static enum sk_err f_heartbeat(struct queue *q, const char *name, const char *json, long ttl_ms)
{
    (void)q, (void)name, (void)json, (void)ttl_ms;
    return SK_OK;
}

static enum sk_err f_games_add(struct queue *q, uint64_t games, long long now_s)
{
    (void)q, (void)games, (void)now_s;
    return SK_OK;
}

static enum sk_err f_hist_observe(struct queue *q, const char *name, const double *bounds,
                                  size_t n_bounds, double value)
{
    (void)q, (void)name, (void)bounds, (void)n_bounds, (void)value;
    return SK_OK;
}

/* CPU charged to jobs, in milliseconds, by every run of this suite. */
static long long charged_ms;

static enum sk_err f_charge(struct db *db, const char *id, long long cpu_ms, char *tenant,
                            size_t tenant_len)
{
    (void)db, (void)id;
    charged_ms += cpu_ms;
    snprintf(tenant, tenant_len, "t1");
    return SK_OK;
}

static enum sk_err f_cpu_charge(struct queue *q, const char *tenant, long long ms)
{
    (void)q;
    CU_ASSERT_STRING_EQUAL(tenant, "t1");
    CU_ASSERT(ms > 0);
    return SK_OK;
}

/* An optimisation's units (worker_units): every call's rows inserted, none held by another
 * worker (no row read back: the coordinator computes each unit itself). */
static enum sk_err f_units_add(struct db *db, const char *parent, const char *owner,
                               const struct db_unit_new *u, size_t n, char ***ids)
{
    (void)db, (void)parent, (void)owner, (void)u, (void)n;
    fake.unit_calls++;
    *ids = sk_calloc(1, sizeof(**ids)); /* nothing new to enqueue */
    return *ids ? SK_OK : SK_ENOMEM;
}

static enum sk_err f_units_get(struct db *db, const char *parent, const char *const *keys, size_t n,
                               struct db_unit *out)
{
    (void)db, (void)parent, (void)keys;
    memset(out, 0, n * sizeof(*out));
    return SK_OK;
}

static enum sk_err f_units_drop(struct db *db, const char *parent, const char *const *keys,
                                size_t n)
{
    (void)db, (void)parent, (void)keys, (void)n;
    if (fake.drops++ < fake.drop_conflicts)
        return SK_ERETRY;
    fake.drops_ok++;
    return SK_OK;
}

/* Entry points the tests never reach are left NULL: a call would crash the test. */
static const struct worker_io fakes = {
    .claim = f_claim,
    .progress = f_progress,
    .succeed = f_succeed,
    .cancelled = f_cancelled,
    .fail = f_fail,
    .retry = f_retry,
    .release = f_release,
    .defer = f_defer,
    .get = f_get,
    .db_error = f_db_error,
    .done = f_done,
    .add = f_add,
    .renew = f_renew,
    .job_progress = f_job_progress,
    .publish = f_publish,
    .heartbeat = f_heartbeat,
    .workers = f_workers,
    .games_add = f_games_add,
    .hist_observe = f_hist_observe,
    .charge = f_charge,
    .cpu_charge = f_cpu_charge,
};

static struct sk_config cfg;
static struct engine *eng;
static volatile sig_atomic_t stop;

static int setup(void)
{
    struct engine_opts eo = {.device = "cpu"};
    char err[256];
    sk_mem_init_json();
    memset(&cfg, 0, sizeof(cfg));
    cfg.lease_ms = 30000;
    cfg.max_attempts = 5;
    cfg.retry_base_ms = 1000;
    cfg.retry_max_ms = 60000;
    cfg.chunk_units = 100;
    cfg.chunk_ms = 250;
    cfg.heartbeat_ms = 2000;
    cfg.engine_threads = 1;
    cfg.catalog_wait_s = 300;
    return engine_new(&eo, &eng, err, sizeof(err)) != SK_OK;
}

static int teardown(void)
{
    engine_free(eng);
    return 0;
}

/* Clears what the fakes saw; the claim will return `request`. */
static void reset(const char *request)
{
    sk_free(fake.result);
    sk_free(fake.give);
    sk_free(fake.kept);
    memset(&fake, 0, sizeof(fake));
    fake.request = request;
}

/* Runs one stream entry through the loop with the stores `io`. */
static void run_entry_with(const struct worker_io *io)
{
    struct worker w;
    struct queue_entry e = {.id = "1-0", .job_id = "0b6f7c1e-54d6-4b51-9d0e-7e0f5b3b1c11"};

    memset(&w, 0, sizeof(w));
    w.cfg = &cfg;
    w.io = io;
    w.engine = eng;
    w.stop = &stop;
    snprintf(w.name, sizeof(w.name), "test-worker");
    worker_loop_entry(&w, &e);
}

/* Runs one stream entry through the loop with the fakes as scripted. */
static void run_entry(void)
{
    run_entry_with(&fakes);
}

#define OPT_JOB                                                                                    \
    "{\"kind\":\"optimize\",\"seed\":4,\"params\":{"                                               \
    "\"attacker\":\"Test Commander, Grunt#3, Plated Grunt#3, Barricade#2\","                       \
    "\"defender\":\"Iron Warden, Grunt#6, Brute#2\","                                              \
    "\"pool\":[{\"card\":\"Chainslicer\",\"count\":3},{\"card\":\"Bloodfang\",\"count\":3}],"      \
    "\"budget\":{\"games\":1000},\"eval_games\":4000}}"

/* An optimisation's units: a call whose rows' delete meets a deadlock (a cancel flagging
 * the same rows) deletes them on a later try; the job ends as without the conflicts. */
static void test_units_drop_conflict_is_retried(void)
{
    struct worker_io io = fakes;
    long saved = cfg.opt_unit_games;

    io.units_add = f_units_add;
    io.units_get = f_units_get;
    io.units_drop = f_units_drop;
    cfg.opt_unit_games = 100;
    reset(OPT_JOB);
    fake.drop_conflicts = 2;
    run_entry_with(&io);
    cfg.opt_unit_games = saved;
    CU_ASSERT(fake.unit_calls >= 2);
    CU_ASSERT_EQUAL(fake.drop_conflicts, 2);
    CU_ASSERT_EQUAL(fake.drops, fake.unit_calls + 2);
    CU_ASSERT_EQUAL(fake.drops_ok, fake.unit_calls); /* every call's rows, in the end */
    CU_ASSERT_EQUAL(fake.succeeds, 1);
    CU_ASSERT_EQUAL(fake.acks, 1);
    CU_ASSERT_EQUAL(fake.fails + fake.retries + fake.releases, 0);
    reset(NULL);
}

static void test_runs_and_acknowledges(void)
{
    reset(GOOD_JOB);
    run_entry();
    CU_ASSERT_EQUAL(fake.claims, 1);
    CU_ASSERT_STRING_EQUAL(fake.worker, "test-worker"); /* the attempt names its worker */
    CU_ASSERT(fake.progress >= 1);
    CU_ASSERT_EQUAL(fake.succeeds, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fake.result);
    CU_ASSERT_PTR_NOT_NULL(strstr(fake.result, "\"games\":200"));
    CU_ASSERT_EQUAL(fake.acks, 1);
    CU_ASSERT_EQUAL(fake.fails + fake.retries + fake.releases, 0);
}

/* Fault 1: a deadlock while the result is written is a conflict to run again, not a lost
 * lease: the result is stored and the entry acknowledged. */
static void test_deadlock_at_result_is_retried(void)
{
    reset(GOOD_JOB);
    fake.succeed_rc[0] = SK_ERETRY;
    fake.succeed_rc[1] = SK_ERETRY;
    run_entry();
    CU_ASSERT_EQUAL(fake.succeeds, 3);
    CU_ASSERT_PTR_NOT_NULL(fake.result);
    CU_ASSERT_EQUAL(fake.acks, 1);
    CU_ASSERT_EQUAL(fake.fails + fake.retries + fake.releases, 0);
}

/* Only a lost lease leaves the entry to the worker that holds the job now. */
static void test_lost_lease_leaves_the_entry(void)
{
    reset(GOOD_JOB);
    fake.succeed_rc[0] = SK_ELEASE;
    run_entry();
    CU_ASSERT_EQUAL(fake.succeeds, 1);
    CU_ASSERT_PTR_NULL(fake.result);
    CU_ASSERT_EQUAL(fake.acks, 0);
}

static void test_invalid_request_fails_once(void)
{
    reset("{\"kind\":\"battle\",\"params\":{\"games\":0}}");
    run_entry();
    CU_ASSERT_EQUAL(fake.fails, 1);
    CU_ASSERT_EQUAL(fake.retries, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(fake.error, "failed permanently after 1 attempt"));
    /* the attempt keeps its own error, without the job's summary around it */
    CU_ASSERT_PTR_NOT_NULL(strstr(fake.error, fake.attempt_error));
    CU_ASSERT_EQUAL(strncmp(fake.attempt_error, "the stored request is no longer valid", 37), 0);
    CU_ASSERT_EQUAL(fake.acks, 1);
}

static void test_cancel_seen_at_progress(void)
{
    reset(GOOD_JOB);
    fake.cancel_at_progress = 1;
    run_entry();
    CU_ASSERT_EQUAL(fake.cancels, 1);
    CU_ASSERT_EQUAL(fake.succeeds, 0);
    CU_ASSERT_EQUAL(fake.acks, 1);
    reset(NULL); /* frees the last result */
}

/* Slow games (flexible play, both sides healing and armoured, up to 200 turns: tens of
 * milliseconds a game under the sanitizers). */
#define SLOW_JOB                                                                                   \
    "{\"kind\":\"battle\",\"seed\":5,\"params\":{\"games\":2000,\"turn_limit\":200,"               \
    "\"attacker\":{\"commander\":\"Iron Warden\",\"play\":\"flexible\",\"deck\":["                 \
    "{\"card\":\"Anvil\",\"count\":4},{\"card\":\"Medic Drone\",\"count\":3},"                     \
    "{\"card\":\"Bulwark Knight\",\"count\":3}]},"                                                 \
    "\"defender\":{\"commander\":\"Iron Warden\",\"deck\":[{\"card\":\"Anvil\",\"count\":4},"      \
    "{\"card\":\"Medic Drone\",\"count\":3},{\"card\":\"Mending Spire\",\"count\":3}]}}}"

/* Chunks end after SKIRMISH_CHUNK_MS whatever their units: with a first chunk of a million
 * units (the whole job, a minute of slow games), the first progress report, which reads
 * the cancel, still comes after about 250 ms, and the job ends canceled with the games
 * played so far. */
static void test_cancel_seen_within_chunk_ms(void)
{
    long saved = cfg.chunk_units;
    long long t0;

    reset(SLOW_JOB);
    fake.cancel_at_progress = 1;
    cfg.chunk_units = 1000000;
    t0 = sk_time_mono_ms();
    run_entry();
    cfg.chunk_units = saved;
    CU_ASSERT(sk_time_mono_ms() - t0 < 2000);
    CU_ASSERT_EQUAL(fake.progress, 1);
    CU_ASSERT(fake.first_done >= 1 && fake.first_done < 2000);
    CU_ASSERT_EQUAL(fake.cancels, 1);
    CU_ASSERT_EQUAL(fake.succeeds, 0);
    CU_ASSERT_EQUAL(fake.acks, 1);
    reset(NULL);
}

/* Fault 3: running out of memory while a valid job is set up is this worker's trouble,
 * never the job's: at every point where an allocation fails, the job is given back or
 * retried, never failed permanently. */
static void test_memory_failure_never_fails_the_job(void)
{
    int hit_release = 0;
    for (long n = 0; n < 400; n++) {
        reset(GOOD_JOB);
        sk_mem_fail_after(n);
        run_entry();
        sk_mem_fail_after(-1);
        CU_ASSERT_EQUAL(fake.fails, 0);
        if (fake.fails)
            fprintf(stderr, "allocation %ld: %s\n", n, fake.error);
        hit_release |= fake.releases > 0;
    }
    CU_ASSERT_TRUE(hit_release);
    reset(NULL);
}

/* The result document without the fields that measure the machine. */
static json_t *outcome(const char *text)
{
    json_t *r = json_loads(text, 0, NULL);
    json_object_del(r, "elapsed_ms");
    json_object_del(r, "games_per_second");
    return r;
}

/* Resume: the first run stores a checkpoint with its first progress report (100 of 200
 * games); a second attempt handed that checkpoint plays only the 100 games left, and its
 * result is the first run's. A checkpoint this build cannot read is set aside: the attempt
 * starts from zero and still succeeds. */
static void test_resumes_from_checkpoint(void)
{
    json_t *want, *got;
    unsigned char *ckpt;
    size_t len;

    reset(GOOD_JOB);
    run_entry();
    CU_ASSERT_PTR_NOT_NULL_FATAL(fake.result);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fake.kept);
    CU_ASSERT_EQUAL(fake.kept_done, 100);
    CU_ASSERT_EQUAL(fake.from, 0);
    want = outcome(fake.result);
    ckpt = fake.kept;
    len = fake.kept_len;
    fake.kept = NULL;

    reset(GOOD_JOB);
    fake.give = copy(ckpt, len);
    fake.give_len = len;
    run_entry();
    CU_ASSERT_EQUAL(fake.succeeds, 1);
    CU_ASSERT_EQUAL(fake.from, 100);
    CU_ASSERT_EQUAL(fake.first_done, 200); /* one chunk of 100 after the checkpoint */
    CU_ASSERT_PTR_NOT_NULL_FATAL(fake.result);
    got = outcome(fake.result);
    CU_ASSERT_TRUE(json_equal(want, got));
    json_decref(got);

    reset(GOOD_JOB);
    fake.give = copy(ckpt, len);
    fake.give_len = len;
    fake.give[0] ^= 1; /* not a checkpoint any more */
    run_entry();
    CU_ASSERT_EQUAL(fake.from, 0);
    CU_ASSERT_EQUAL(fake.first_done, 100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fake.result);
    got = outcome(fake.result);
    CU_ASSERT_TRUE(json_equal(want, got));
    json_decref(got);
    json_decref(want);
    sk_free(ckpt);
    reset(NULL);
}

/* A job pinned to a card catalog this worker does not have (docs/cards.md): left to the
 * workers that have it, uncounted, while one of them lives or the job is young; failed,
 * naming the catalog, once none has it and it waited SKIRMISH_CATALOG_WAIT_S. */
#define PINNED_JOB                                                                                 \
    "{\"kind\":\"battle\",\"seed\":3,\"catalog\":\"fnv1a64:00000000000000aa\","                    \
    "\"params\":{\"games\":200,\"attacker\":{\"commander\":\"Test Commander\",\"deck\":"           \
    "[{\"card\":\"Grunt\",\"count\":5}]},\"defender\":{\"commander\":\"Test "                      \
    "Commander\",\"deck\":[{\"card\":\"Brute\",\"count\":4}]}}}"

static void test_missing_catalog_is_left_to_others(void)
{
    /* young, nobody has it yet: wait for a worker with it to start */
    reset(PINNED_JOB);
    fake.age_s = 10;
    run_entry();
    CU_ASSERT_EQUAL(fake.defers, 1);
    CU_ASSERT(fake.defer_ms > 0);
    CU_ASSERT_EQUAL(fake.fails + fake.retries + fake.releases + fake.succeeds, 0);
    CU_ASSERT_EQUAL(fake.acks, 1); /* the reconciler enqueues it again when it is due */

    /* old, but a live worker lists it: still theirs to run */
    reset(PINNED_JOB);
    fake.age_s = 100000;
    fake.beat = "{\"name\":\"other\",\"catalogs\":[\"fnv1a64:1111111111111111\","
                "\"fnv1a64:00000000000000aa\"]}";
    run_entry();
    CU_ASSERT_EQUAL(fake.defers, 1);
    CU_ASSERT_EQUAL(fake.fails, 0);

    /* its own heartbeat does not count */
    reset(PINNED_JOB);
    fake.age_s = 100000;
    fake.beat = "{\"name\":\"test-worker\",\"catalogs\":[\"fnv1a64:00000000000000aa\"]}";
    run_entry();
    CU_ASSERT_EQUAL(fake.defers, 0);
    CU_ASSERT_EQUAL(fake.fails, 1);

    /* old and nobody has it: failed for good, the message names the catalog */
    reset(PINNED_JOB);
    fake.age_s = 100000;
    run_entry();
    CU_ASSERT_EQUAL(fake.defers, 0);
    CU_ASSERT_EQUAL(fake.fails, 1);
    CU_ASSERT_EQUAL(fake.retries, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(fake.error, "failed permanently"));
    CU_ASSERT_PTR_NOT_NULL(strstr(fake.error, "fnv1a64:00000000000000aa"));
    CU_ASSERT_EQUAL(fake.acks, 1);
    reset(NULL);
}

static CU_TestInfo loop_tests[] = {
    {"a job whose card catalog this worker lacks is left to others, then failed",
     test_missing_catalog_is_left_to_others},
    {"a job resumes from the checkpoint of an earlier attempt", test_resumes_from_checkpoint},
    {"a job runs, its result is stored, the entry acknowledged", test_runs_and_acknowledges},
    {"an optimisation's unit rows whose delete meets a deadlock are deleted on a later try",
     test_units_drop_conflict_is_retried},
    {"a deadlock at the result write is retried, not a lost lease",
     test_deadlock_at_result_is_retried},
    {"a lost lease leaves the entry alone", test_lost_lease_leaves_the_entry},
    {"an invalid stored request fails at once, without retry", test_invalid_request_fails_once},
    {"a cancel request seen at progress ends the job", test_cancel_seen_at_progress},
    {"a cancel is seen after SKIRMISH_CHUNK_MS however many units a chunk asks",
     test_cancel_seen_within_chunk_ms},
    {"running out of memory never fails a valid job", test_memory_failure_never_fails_the_job},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_worker_loop_suites[] = {
    {"worker_loop", setup, teardown, NULL, NULL, loop_tests},
    CU_SUITE_INFO_NULL,
};
