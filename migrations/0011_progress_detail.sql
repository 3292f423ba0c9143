-- SPDX-License-Identifier: MIT
-- What a job's watchers see besides its units (docs/optimize.md, "Progress"): the worker
-- stores the kind's progress detail with every progress report (an optimisation's best
-- deck so far, its games, candidates and estimates); NULL for kinds that show none.
ALTER TABLE jobs ADD COLUMN progress_detail jsonb;
