// SPDX-License-Identifier: MIT
// The API's CPU estimate of a job (docs/security.md, "CPU cost") against the CPU the job
// really takes, on the differential set (every matchup of tests/data/peer/real_cards.json,
// which nothing here was tuned on): for each matchup, `skirmish run --cost --device cpu
// --threads 1` estimates the job exactly as the API does at admission (a sample of its
// first games on one core, SKIRMISH_COST_PROBE_MS of CPU) and then runs it whole on one
// core, measuring the process's CPU time of the run (card loading excluded, as a
// worker's catalog is loaded once). Prints a table (estimate ÷ measured per matchup) and
// the summary: how many are within a factor of 2, the geometric mean, the extremes.
//   node bench/cost_estimate.mjs [GAMES=50000] [CARDS_DIR=../shared/data/tu] [SKIRMISH=build/skirmish] [REGEX]
// A matchup's own `games` (flexible play) caps GAMES. Exit status 0 always: a report.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRealCards, ourJob } from './real_cards.mjs';

const root = new URL('..', import.meta.url).pathname;
const games = Number(process.argv[2] || 50000);
const cardsDir = process.argv[3] || join(root, '../shared/data/tu');
const bin = process.argv[4] || join(root, 'build/skirmish');
const only = process.argv[5] ? new RegExp(process.argv[5]) : null;
const ref = loadRealCards();
const tmp = mkdtempSync(join(tmpdir(), 'skirmish-cost-'));
const rows = [];
const ratios = [];

for (const m of ref.matchups) {
  if (only && !only.test(m.name)) continue;
  const n = Math.min(games, m.games || games);
  const file = join(tmp, 'job.json');
  writeFileSync(file, JSON.stringify(ourJob(ref, m, n)));
  let cost;
  try {
    const out = execFileSync(bin, ['run', '--cost', '--device', 'cpu', '--threads', '1', file], {
      env: { ...process.env, SKIRMISH_CARDS_DIR: cardsDir }, stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 1 << 26 });
    cost = JSON.parse(out).cost;
  } catch (e) {
    rows.push(`| ${m.name} | ${n} | — | — | — | failed |`);
    continue;
  }
  const r = cost.estimate_cpu_s / cost.cpu_s;
  ratios.push(r);
  rows.push(`| ${m.name} | ${n} | ${cost.sampled} | ${cost.estimate_cpu_s.toFixed(3)} | ` +
    `${cost.cpu_s.toFixed(3)} | ${r.toFixed(2)} |`);
}
rmSync(tmp, { recursive: true, force: true });
console.log(`cost estimate vs measured CPU, ${ratios.length} matchups, ${cpus()[0].model}`);
console.log('| matchup | games | sampled | estimate (CPU s) | measured (CPU s) | ratio |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
if (ratios.length) {
  const within = ratios.filter((r) => r >= 0.5 && r <= 2).length;
  const gm = Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length);
  console.log(`\nwithin a factor of 2: ${within} of ${ratios.length}; geometric mean ratio ` +
    `${gm.toFixed(3)}; least ${Math.min(...ratios).toFixed(3)}, most ${Math.max(...ratios).toFixed(3)}`);
}
