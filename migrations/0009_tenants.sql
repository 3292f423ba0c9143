-- SPDX-License-Identifier: MIT
-- API keys and tenants (docs/security.md). A key is shown once, when made; only the
-- SHA-256 of its secret part is kept, looked up by the key's public id and compared in
-- constant time. Every job belongs to the tenant of the key that submitted it; rows made
-- before this migration (or with SKIRMISH_AUTH off) belong to the tenant 'default'.
CREATE TABLE api_keys (
    id         text        PRIMARY KEY CHECK (id ~ '^[0-9a-f]{16}$'),
    hash       bytea       NOT NULL CHECK (length(hash) = 32),
    tenant     text        NOT NULL CHECK (tenant ~ '^[a-z0-9][a-z0-9_.-]{0,62}$'),
    admin      boolean     NOT NULL DEFAULT false,
    name       text        NOT NULL DEFAULT '' CHECK (length(name) <= 200),
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);

ALTER TABLE jobs ADD COLUMN tenant text NOT NULL DEFAULT 'default';
-- A tenant's list pages newest first; its quota counts its open jobs.
CREATE INDEX jobs_tenant_created ON jobs (tenant, created_at DESC, id DESC);
CREATE INDEX jobs_tenant_open ON jobs (tenant, status) WHERE status IN ('queued', 'running');

-- An Idempotency-Key names a job within its tenant: another tenant's key of the same
-- text is another key (and can never reveal the first tenant's job).
ALTER TABLE idempotency_keys ADD COLUMN tenant text NOT NULL DEFAULT 'default';
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (tenant, key);
