-- SPDX-License-Identifier: MIT
-- What a job costs (docs/security.md, "CPU cost"): the API's estimate at admission in CPU
-- milliseconds (NULL: none was made, as for rows older than this and for shards and units,
-- whose job holds it), and the CPU milliseconds workers really spent on it, charged by each
-- worker after every step (a shard's and a unit's go to their job's row).
ALTER TABLE jobs ADD COLUMN cost_estimate_ms bigint;
ALTER TABLE jobs ADD COLUMN cpu_ms bigint NOT NULL DEFAULT 0;
