-- SPDX-License-Identifier: MIT
-- The jobs table: PostgreSQL is the system of record for every job (docs/operations.md).
-- Released migrations are never edited: the runner stores a checksum of each file and
-- refuses to start when an applied file has changed. Add a new numbered file instead.
CREATE TABLE jobs (
    id               uuid        PRIMARY KEY,
    kind             text        NOT NULL,
    status           text        NOT NULL DEFAULT 'queued'
                     CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'canceled')),
    request          jsonb       NOT NULL,
    seed             bigint      NOT NULL,
    attempts         integer     NOT NULL DEFAULT 0,
    lease_owner      text,
    lease_expires_at timestamptz,
    progress_done    bigint      NOT NULL DEFAULT 0,
    progress_total   bigint      NOT NULL,
    cancel_requested boolean     NOT NULL DEFAULT false,
    -- a retried job waits until run_after before the reconciler dispatches it again
    run_after        timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    started_at       timestamptz,
    finished_at      timestamptz,
    updated_at       timestamptz NOT NULL DEFAULT now(),
    error            text,
    result           jsonb,
    -- at most one stored result, and only on a succeeded job
    CHECK ((status = 'succeeded') = (result IS NOT NULL)),
    CHECK ((status IN ('succeeded', 'failed', 'canceled')) = (finished_at IS NOT NULL))
);

-- GET /v1/jobs pages newest first by (created_at, id), optionally by status or kind.
CREATE INDEX jobs_created ON jobs (created_at DESC, id DESC);
CREATE INDEX jobs_status_created ON jobs (status, created_at DESC, id DESC);
CREATE INDEX jobs_kind_created ON jobs (kind, created_at DESC, id DESC);
-- The reconciler scans only the jobs that are not final.
CREATE INDEX jobs_open ON jobs (status, created_at) WHERE status IN ('queued', 'running');
