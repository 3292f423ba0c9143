-- SPDX-License-Identifier: MIT
-- The worker of each attempt (GET /v1/jobs/{id} "workers"): element i is the consumer name
-- of the worker that claimed attempt i. A claim writes its own element; an attempt given
-- back uncounted (worker stopping) is overwritten by the next claim, so the array is read
-- only up to `attempts`.
ALTER TABLE jobs ADD COLUMN attempt_workers text[] NOT NULL DEFAULT '{}';
