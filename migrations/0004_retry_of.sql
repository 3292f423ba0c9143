-- SPDX-License-Identifier: MIT
-- POST /v1/jobs/{id}:retry makes a new job from a final job's stored document; retry_of
-- links the new job to the one it retries (shown as `retry_of` in the job resource).
ALTER TABLE jobs ADD COLUMN retry_of uuid REFERENCES jobs (id) ON DELETE SET NULL;
