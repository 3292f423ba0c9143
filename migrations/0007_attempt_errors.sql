-- SPDX-License-Identifier: MIT
-- The error of each attempt (GET /v1/jobs/{id} "errors", parallel to "workers"): element i
-- is what ended attempt i: the error a worker wrote when the attempt failed or was retried,
-- the lease-expiry message when another worker took the job over from a dead one, NULL for
-- an attempt that is running, succeeded or was canceled. A claim appends the new attempt's
-- NULL, a fenced end-of-attempt write replaces it; like attempt_workers it is read only up
-- to `attempts`.
ALTER TABLE jobs ADD COLUMN attempt_errors text[] NOT NULL DEFAULT '{}';
-- Older rows: one NULL per attempt, the last error on the last attempt of a job that ended
-- it in error (queued for a retry, or failed).
UPDATE jobs SET attempt_errors = array_append(array_fill(NULL::text, ARRAY[attempts - 1]),
    CASE WHEN status IN ('queued', 'failed') THEN error END)
  WHERE attempts > 0;
