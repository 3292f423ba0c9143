-- SPDX-License-Identifier: MIT
-- Retention (SKIRMISH_RETENTION_S, docs/operations.md): final jobs are deleted in small
-- batches, oldest finished first, and DELETE /v1/jobs/{id} deletes one. The sweep walks
-- finished_at; deleting a job sets the retry_of of its retries to NULL and deletes its
-- idempotency keys, which without these indexes would scan both tables once per row.
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE finished_at IS NOT NULL AND parent_id IS NULL;
CREATE INDEX jobs_retry_of ON jobs (retry_of) WHERE retry_of IS NOT NULL;
CREATE INDEX idempotency_keys_job ON idempotency_keys (job_id);
