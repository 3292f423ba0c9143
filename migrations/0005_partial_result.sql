-- SPDX-License-Identifier: MIT
-- A canceled battle job keeps the counts of the games it played, as a result marked
-- "partial": true. A result now belongs to a succeeded job (always) or a canceled one
-- (when it got that far); a queued, running or failed job has none.
ALTER TABLE jobs DROP CONSTRAINT jobs_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_result_check
    CHECK ((status = 'succeeded' AND result IS NOT NULL) OR
           (status <> 'succeeded' AND (result IS NULL OR status = 'canceled')));
