-- SPDX-License-Identifier: MIT
-- Units: an optimisation's games handed out to every worker (docs/optimize.md, "Spread
-- across workers"). The worker holding the job's lease (the coordinator) inserts a unit as
-- a row of this table under the job (parent_id, as a shard is), with unit_spec the unit's
-- bytes (its decks and game ranges: job_unit_run computes its result from them and the
-- job's document alone) and unit_key a hash of those bytes, unique per job, so a unit
-- inserted again (by a coordinator that resumed after a crash) is the same row and its
-- result, if one was stored, is used again. A unit is claimed, leased, retried and reaped
-- like any job, and ends succeeded with its result as its checkpoint; the coordinator
-- deletes a call's units once it has their results. Units are not jobs of their own:
-- they are never listed, and their job's progress does not count them.
ALTER TABLE jobs ADD COLUMN unit_key text;
ALTER TABLE jobs ADD COLUMN unit_spec bytea;
CREATE UNIQUE INDEX jobs_unit_key ON jobs (parent_id, unit_key) WHERE unit_key IS NOT NULL;
