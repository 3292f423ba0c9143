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
// A matchup's own `games` (flexible play) caps GAMES. SKIRMISH_COST_PROBES, a list of
// probe budgets in CPU milliseconds ("10,20"), runs each matchup once per budget, one after
// the other, so that budgets are compared on the same matchups at the same moment: a column
// and a summary line per budget (unset: the setting's own value, one column).
// Exit status 0 always: a report.
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
// The budgets to compare; '' runs with the setting as the environment has it.
const probes = (process.env.SKIRMISH_COST_PROBES || '').split(',').map((v) => v.trim())
  .filter((v) => v !== '');
for (const v of probes)
  if (!/^[0-9]+$/.test(v) || Number(v) < 1 || Number(v) > 10000) {
    console.error(`cost_estimate: SKIRMISH_COST_PROBES takes budgets of 1..10000 ms, not '${v}'`);
    process.exit(2);
  }
const budgets = probes.length ? probes : [''];
const rows = [];
const ratios = budgets.map(() => []);

// One run of matchup file `file` with probe budget `b`: its cost, or null if it failed.
function cost(file, b) {
  const env = { ...process.env, SKIRMISH_CARDS_DIR: cardsDir };
  if (b !== '') env.SKIRMISH_COST_PROBE_MS = b;
  try {
    const out = execFileSync(bin, ['run', '--cost', '--device', 'cpu', '--threads', '1', file], {
      env, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 });
    return JSON.parse(out).cost;
  } catch (e) {
    return null;
  }
}

for (const m of ref.matchups) {
  if (only && !only.test(m.name)) continue;
  const n = Math.min(games, m.games || games);
  const file = join(tmp, 'job.json');
  writeFileSync(file, JSON.stringify(ourJob(ref, m, n)));
  const cells = budgets.map((b, i) => {
    const c = cost(file, b);
    if (!c) return '— | — | — | failed';
    const r = c.estimate_cpu_s / c.cpu_s;
    ratios[i].push(r);
    return `${c.sampled} | ${c.estimate_cpu_s.toFixed(3)} | ${c.cpu_s.toFixed(3)} | ${r.toFixed(2)}`;
  });
  rows.push(`| ${m.name} | ${n} | ${cells.join(' | ')} |`);
}
rmSync(tmp, { recursive: true, force: true });
const name = (b) => (b === '' ? 'the setting' : `${b} ms`);
console.log(`cost estimate vs measured CPU, ${rows.length} matchups, ${cpus()[0].model}`);
console.log(`| matchup | games | ${budgets.map((b) => `sampled (${name(b)}) | estimate (CPU s) | ` +
  'measured (CPU s) | ratio').join(' | ')} |`);
console.log(`|---|---:|${budgets.map(() => '---:|---:|---:|---:').join('|')}|`);
for (const r of rows) console.log(r);
console.log('');
budgets.forEach((b, i) => {
  const rs = ratios[i];
  if (!rs.length) return;
  const within = rs.filter((r) => r >= 0.5 && r <= 2).length;
  const gm = Math.exp(rs.reduce((a, r) => a + Math.log(r), 0) / rs.length);
  const spread = Math.exp(Math.sqrt(rs.reduce((a, r) => a + (Math.log(r) - Math.log(gm)) ** 2, 0) /
    rs.length));
  console.log(`probe ${name(b)}: within a factor of 2: ${within} of ${rs.length}; geometric mean ` +
    `ratio ${gm.toFixed(3)} (geometric spread ×${spread.toFixed(3)}); least ` +
    `${Math.min(...rs).toFixed(3)}, most ${Math.max(...rs).toFixed(3)}`);
});
