// SPDX-License-Identifier: MIT
// The two writers of the real-card matchups' job documents agree: bench/real_cards.mjs
// (ourJob: peer_diff.mjs and peer_speed.mjs run these) and bench/gpu_jobs.py (job_of:
// bench/gpu.sh's steps, on a GPU machine that has python3 but no node). Both read
// tests/data/peer/real_cards.json; each matchup's two documents must be equal, so that a
// GPU figure and a peer figure of one matchup are of the same job. No card files needed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadRealCards, ourJob } from '../../bench/real_cards.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GAMES = 12345;

test('gpu_jobs.py writes the job real_cards.mjs writes, for every matchup', () => {
  const ref = loadRealCards();
  const work = mkdtempSync(path.join(tmpdir(), 'skirmish-bench-jobs-'));
  try {
    const py = spawnSync('python3', ['-B', '-c', `
import sys
sys.path.insert(0, sys.argv[1])
import gpu_jobs as gj
ref = gj.load(sys.argv[2])
for m in ref["matchups"]:
    gj.job_of(ref, m, int(sys.argv[3]), sys.argv[4])
`, path.join(root, 'bench'), path.join(root, 'tests/data/peer/real_cards.json'), String(GAMES),
      work], { encoding: 'utf8' });
    assert.equal(py.status, 0, `python3 failed: ${py.stderr}`);
    assert.ok(ref.matchups.length >= 100, 'the differential set has its matchups');
    for (const m of ref.matchups) {
      const theirs = JSON.parse(readFileSync(path.join(work, `${m.name}.json`), 'utf8'));
      assert.deepStrictEqual(theirs, ourJob(ref, m, GAMES), m.name);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
