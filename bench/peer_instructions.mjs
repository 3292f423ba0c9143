// SPDX-License-Identifier: MIT
// Instructions a game, Skirmish against the peer simulator, on the real-card matchups of
// tests/data/peer/real_cards.json, counted by valgrind's callgrind: the measure of speed
// that a noisy machine does not move (peer_speed.mjs's times of one row moved from 0.45× to
// 2.28× of themselves between two runs on the sessions' VMs; a count is the same on any
// machine). Skirmish: its instructions inside `battle_cpu_run*` (callgrind's
// --toggle-collect), `skirmish run --device cpu --threads 1`, divided by the games. The
// peer (a binary the user built, named by SKIRMISH_PEER, as for peer_speed.mjs): its whole
// process at GAMES + GAMES / 10 games less its whole process at GAMES / 10, divided by
// GAMES, so that its loading of the cards drops out; it seeds its games from the clock, so
// its count moves by about 1% from one run to the next. A matchup with a flexible side plays
// GAMES / 100 games in both programs, as in peer_speed.mjs. Ratio: the peer's count over
// Skirmish's. Time ratios follow it on some machines and not on others (bench/RESULTS.md,
// "Speed against the peer simulator"), so it is a measure of the work, not of the time.
//   SKIRMISH_PEER=/path/to/tuo node bench/peer_instructions.mjs [MATCHUPS=all] [GAMES=3000]
//   [CARDS_DIR=../shared/data/tu] [SKIRMISH=build/skirmish] [NAME_REGEX]
// MATCHUPS: how many of the file's matchups, in its order, or `all`; SKIRMISH_BENCH_EVERY=K
// keeps every K-th of those (the first of each K). Needs valgrind. About 3 s a matchup for
// Skirmish and 20 to 60 s for the peer at 3,000 games. Prints a table and the median and
// geometric mean of the ratios; asserts nothing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadRealCards, ourJob, peerArgs } from './real_cards.mjs';

const root = new URL('..', import.meta.url).pathname;
const peer = process.env.SKIRMISH_PEER;
if (!peer) {
  console.error('peer_instructions: set SKIRMISH_PEER to the peer simulator binary (tuo)');
  process.exit(2);
}
const count = !process.argv[2] || process.argv[2] === 'all' ? Infinity : Number(process.argv[2]);
const games = Number(process.argv[3] || 3000);
const every = Number(process.env.SKIRMISH_BENCH_EVERY || 1);
for (const [what, v] of [['MATCHUPS', count], ['GAMES', games], ['SKIRMISH_BENCH_EVERY', every]]) {
  if (!(v === Infinity || (Number.isInteger(v) && v >= 1))) {
    console.error(`peer_instructions: ${what} must be an integer of at least 1`);
    process.exit(2);
  }
}
const cardsDir = resolve(process.argv[4] || join(root, '../shared/data/tu'));
const bin = resolve(process.argv[5] || join(root, 'build/skirmish'));
const only = process.argv[6] ? new RegExp(process.argv[6]) : null;
const ref = loadRealCards();
const flexible = (m) => [m.attacker, m.defender].some((s) => typeof s === 'object' && s.play === 'flexible');
const chosen = ref.matchups.slice(0, count).filter((x) => !only || only.test(x.name)).filter((_, i) => i % every === 0);
if (!chosen.length) {
  console.error('peer_instructions: no matchup chosen (MATCHUPS, NAME_REGEX, SKIRMISH_BENCH_EVERY)');
  process.exit(2);
}
const tmp = mkdtempSync(join(tmpdir(), 'skirmish-peer-instr-'));
// The peer's data/ is a folder of links to the game's files (peer_speed.mjs says why).
mkdirSync(join(tmp, 'peer', 'data'), { recursive: true });
for (const f of readdirSync(cardsDir)) symlinkSync(join(cardsDir, f), join(tmp, 'peer', 'data', f));

// The instructions callgrind counted in one run of `cmd args` (the collected part only when
// `toggle` names a function).
function instructions(cmd, args, opts, toggle) {
  const out = join(tmp, 'callgrind.out');
  const vg = ['--tool=callgrind', `--callgrind-out-file=${out}`];
  if (toggle) vg.push(`--toggle-collect=${toggle}`);
  const r = spawnSync('valgrind', [...vg, cmd, ...args], { ...opts, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.error) throw new Error(`valgrind: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} exited ${r.status}: ${r.stderr.trim().split('\n').pop()}`);
  const m = /^totals: (\d+)$/m.exec(readFileSync(out, 'utf8'));
  rmSync(out, { force: true });
  if (!m) throw new Error('no totals line in the callgrind output');
  return Number(m[1]);
}

function ours(m, n) {
  const file = join(tmp, 'job.json');
  writeFileSync(file, JSON.stringify(ourJob(ref, m, n)));
  return instructions(bin, ['run', '--device', 'cpu', '--threads', '1', file],
                      { env: { ...process.env, SKIRMISH_CARDS_DIR: cardsDir, SKIRMISH_LOG_LEVEL: 'error' } },
                      'battle_cpu_run*') / n;
}

function theirs(m, n) {
  const short = Math.max(1, Math.round(n / 10));
  const opts = { cwd: join(tmp, 'peer') };
  return (instructions(peer, peerArgs(m, n + short, 1), opts) - instructions(peer, peerArgs(m, short, 1), opts)) / n;
}

const rows = [];
const ratios = [];
for (const m of chosen) {
  const n = flexible(m) ? Math.max(10, Math.round(games / 100)) : games;
  try {
    const a = ours(m, n);
    const b = theirs(m, n);
    ratios.push(b / a);
    rows.push(`| ${m.name} | ${m.mode}${m.scoring ? ` ${m.scoring}` : ''} | ${n.toLocaleString('en')} | ` +
              `${Math.round(a).toLocaleString('en')} | ${Math.round(b).toLocaleString('en')} | ${(b / a).toFixed(2)} |`);
  } catch (e) {
    // One matchup that a program refuses costs its row, not the whole run.
    rows.push(`| ${m.name} | ${m.mode} | — | — | — | failed: ${String(e.message).split('\n')[0].slice(0, 80)} |`);
  }
}
rmSync(tmp, { recursive: true, force: true });
console.log(`instructions a game (callgrind): Skirmish inside battle_cpu_run*, ${bin}; the peer's ` +
            `whole process less a run of a tenth of the games, ${peer}`);
console.log('| matchup | mode | games | skirmish | peer | ratio |');
console.log('|---|---|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
if (ratios.length) {
  const sorted = [...ratios].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const geo = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
  console.log(`\n${ratios.length} matchups: median ratio ${median.toFixed(2)}, geometric mean ` +
              `${geo.toFixed(2)}, ${ratios.filter((r) => r < 4).length} under 4`);
}
