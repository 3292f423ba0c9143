-- SPDX-License-Identifier: MIT
-- Resume from the last chunk, and big jobs split into shards (docs/operations.md).
--
-- Resume: with each progress report the lease holder stores its run's checkpoint, the
-- engine's state after checkpoint_done units (job_run_save), so the attempt after a crash
-- or a retry starts there instead of from zero. resumed_from is the unit the latest
-- attempt started at (0: from the start). A final job keeps no checkpoint, except a shard,
-- whose last one holds the counts its job merges.
ALTER TABLE jobs ADD COLUMN checkpoint bytea;
ALTER TABLE jobs ADD COLUMN checkpoint_done bigint NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN resumed_from bigint NOT NULL DEFAULT 0;

-- Shards: a job bigger than SKIRMISH_SHARD_UNITS is split by the worker that claims it
-- into `shards` rows of this same table, each the units [unit_first, unit_first +
-- progress_total) of its parent_id's job, claimed, leased, retried and resumed like any
-- job. The parent is never claimed again: it is running while its shards are, its progress
-- is their sum, and it ends when they all have (their counts merged into its result). A
-- shard is not listed as a job of its own; its result stays empty (its checkpoint has the
-- counts).
ALTER TABLE jobs ADD COLUMN parent_id uuid REFERENCES jobs (id) ON DELETE CASCADE;
ALTER TABLE jobs ADD COLUMN unit_first bigint NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN shards integer NOT NULL DEFAULT 0;
CREATE INDEX jobs_parent ON jobs (parent_id, unit_first) WHERE parent_id IS NOT NULL;
ALTER TABLE jobs DROP CONSTRAINT jobs_result_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_result_check
    CHECK ((status = 'succeeded' AND (result IS NOT NULL OR parent_id IS NOT NULL)) OR
           (status <> 'succeeded' AND (result IS NULL OR status = 'canceled')));
