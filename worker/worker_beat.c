/* SPDX-License-Identifier: MIT */
/* Heartbeats, notifications and shared counters (see worker_beat.h). */
#include "worker_beat.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "job.h"
#include "queue_notify.h"
#include "queue_telemetry.h"
#include "sk_log.h"
#include "sk_mem.h"
#include "sk_time.h"

#include "sk_banned.h"

static void iso_now(char out[32])
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    (void)strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void worker_beat_init(struct worker *w)
{
    struct engine_info info;

    gethostname(w->host, sizeof(w->host) - 1);
    iso_now(w->started_at);
    /* the device the engine really opened (a fallback to the CPU included) */
    engine_describe(w->engine, &info);
    snprintf(w->backend, sizeof(w->backend), "%s", info.backend);
    snprintf(w->device, sizeof(w->device), "%s", info.device);
    sk_log_info("event=device backend=%s device=\"%s\"%s", w->backend, w->device,
                info.building ? " building=yes" : "");
}

void worker_beat(struct worker *w, int force)
{
    long long now = sk_time_mono_ms();
    char seen[32];
    json_t *doc;
    char *text;

    if (!force && now < w->next_beat_ms)
        return;
    w->next_beat_ms = now + w->cfg->heartbeat_ms;
    iso_now(seen);
    doc = json_pack("{s:s, s:s, s:i, s:s, s:s, s:s?, s:I, s:s, s:s}", "name", w->name, "host",
                    w->host, "pid", (int)getpid(), "backend", w->backend, "device", w->device,
                    "job_id", w->job_id[0] ? w->job_id : NULL, "games", (json_int_t)w->games,
                    "started_at", w->started_at, "seen_at", seen);
    /* the card catalogs it runs jobs on, the current first: GET /v1/stats shows them, and a
     * worker without a job's catalog leaves the job to one that lists it */
    if (doc && json_object_set_new(doc, "catalogs", job_catalogs())) {
        json_decref(doc);
        doc = NULL;
    }
    text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    if (text && w->io->heartbeat(w->queue, w->name, text, w->cfg->heartbeat_ms * 5))
        sk_log_debug("event=heartbeat_failed");
    sk_free(text);
    json_decref(doc);
}

void worker_beat_drop(struct worker *w)
{
    (void)w->io->heartbeat_drop(w->queue, w->name);
}

void worker_beat_notify(struct worker *w, const char *job_id, const char *what)
{
    (void)w->io->publish(w->queue, job_id, what);
}

void worker_beat_units(struct worker *w, const char *kind, uint64_t units)
{
    /* the games-per-second figures count games, not a board's turns */
    if (!job_kind_units_are_games(kind) || units == 0)
        return;
    w->games += units;
    (void)w->io->games_add(w->queue, units, (long long)time(NULL));
}

void worker_beat_job_ended(struct worker *w, const char *kind, double seconds)
{
    char name[64];
    snprintf(name, sizeof(name), "job_seconds:%s", kind);
    (void)w->io->hist_observe(w->queue, name, queue_job_seconds_bounds, QUEUE_JOB_SECONDS_N,
                              seconds);
}
