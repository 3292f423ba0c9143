-- SPDX-License-Identifier: MIT
-- Idempotency-Key of POST /v1/jobs (IETF draft): a key names the one job its first request
-- made. The API compares the hash of a repeated request's document with request_hash: the
-- same document gets the original job back, another one a 422. Rows older than
-- SKIRMISH_IDEMPOTENCY_TTL_S are ignored and pruned. The primary key makes concurrent
-- requests with one key serialize on the index, so they can never make two jobs.
CREATE TABLE idempotency_keys (
    key          text        PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 255),
    request_hash text        NOT NULL,
    job_id       uuid        NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
