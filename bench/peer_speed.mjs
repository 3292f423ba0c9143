// SPDX-License-Identifier: MIT
// Games per second on one CPU core, Skirmish against the peer simulator, side by side on
// the real-card matchups of tests/data/peer/real_cards.json. The peer is a binary the user
// built (never built, fetched or shipped by this repository), named by SKIRMISH_PEER; it
// runs with its data folder linked to the game's files and its result database off. Both run single-threaded
// (`skirmish run --device cpu --threads 1`, `tuo ... -t 1`); each is timed on a short and a
// long run and the difference is used, so loading the cards (about 0.2 s and 0.5–0.9 s)
// does not count. Rounds alternate between the two, so a noisy machine weighs on both.
// Times are CPU times (user + system) of each process, the least of SKIRMISH_BENCH_REPS runs
// (default 1); SKIRMISH_BENCH_WALL=1 takes wall-clock times instead. Measure the build that
// is installed (Release, -O3: `cmake --preset release`, or `make test`'s first build).
//   SKIRMISH_PEER=/path/to/tuo node bench/peer_speed.mjs [MATCHUPS=10] [GAMES=200000]
//   [CARDS_DIR=../shared/data/tu] [SKIRMISH=build/skirmish] [NAME_REGEX]
// MATCHUPS is how many of the file's matchups to time, in its order, or `all` (the whole
// differential set: scorings, battleground effects and flexible play included, each run as
// bench/real_cards.mjs writes it for both programs); a sixth argument, a regular
// expression, keeps only the matchups whose names match. A flexible game costs a few
// hundred plain games, so a matchup with a flexible side plays GAMES / 100 games.
// Prints a table and the median and geometric mean of the ratios; asserts nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadRealCards, ourJob, peerArgs } from './real_cards.mjs';

const root = new URL('..', import.meta.url).pathname;
const peer = process.env.SKIRMISH_PEER;
if (!peer) {
  console.error('peer_speed: set SKIRMISH_PEER to the peer simulator binary (tuo)');
  process.exit(2);
}
const count = process.argv[2] === 'all' ? Infinity : Number(process.argv[2] || 10);
const games = Number(process.argv[3] || 200000);
const cardsDir = resolve(process.argv[4] || join(root, '../shared/data/tu'));
const bin = process.argv[5] || join(root, 'build/skirmish');
const ref = loadRealCards();
const only = process.argv[6] ? new RegExp(process.argv[6]) : null;
const tmp = mkdtempSync(join(tmpdir(), 'skirmish-peer-speed-'));
// The peer reads data/ below its working folder and keeps a result database there
// (data/database.yml): its data/ is a folder of links to the game's files, so nothing is
// written next to them, and `no-db` keeps it from answering from earlier runs.
mkdirSync(join(tmp, 'peer', 'data'), { recursive: true });
for (const f of readdirSync(cardsDir)) symlinkSync(join(cardsDir, f), join(tmp, 'peer', 'data', f));

// The CPU time (user + system) a command took, through bash's `time`: on a shared machine
// the wall clock also counts the time other processes held the cores, the CPU time does
// not. SKIRMISH_BENCH_WALL=1 times the wall clock instead.
const wall = process.env.SKIRMISH_BENCH_WALL === '1';
const reps = Math.max(1, Number(process.env.SKIRMISH_BENCH_REPS || 1));
function seconds(cmd, args, opts) {
  if (wall) {
    const t0 = process.hrtime.bigint();
    execFileSync(cmd, args, { ...opts, stdio: 'ignore' });
    return Number(process.hrtime.bigint() - t0) / 1e9;
  }
  const r = spawnSync('bash', ['-c', 'TIMEFORMAT="%3U %3S"; time "$@" >/dev/null 2>/dev/null', 'bash',
                               cmd, ...args], { ...opts, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  const [user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return user + sys;
}

function ours(m, n) {
  const file = join(tmp, 'job.json');
  writeFileSync(file, JSON.stringify(ourJob(ref, m, n)));
  return seconds(bin, ['run', '--device', 'cpu', '--threads', '1', file], {
    env: { ...process.env, SKIRMISH_CARDS_DIR: cardsDir } });
}

function theirs(m, n) {
  return seconds(peer, peerArgs(m, n, 1), { cwd: join(tmp, 'peer') });
}

// Seconds a game: the long run less the short one. On a noisy machine the short run can
// take as long as the long one (seen once in 213 matchups: a negative rate in the table),
// so a difference that is not positive is measured again, up to three times in all.
function perGame(long, short, games) {
  for (let t = 0; t < 3; t++) {
    const d = (long() - short()) / games;
    if (d > 0) return d;
  }
  throw new Error('the long run never took longer than the short one');
}

const rows = [];
let logSum = 0;
const ratios = [];
const flexible = (m) => [m.attacker, m.defender].some((s) => typeof s === 'object' && s.play === 'flexible');
for (const m of ref.matchups.slice(0, count).filter((x) => !only || only.test(x.name))) {
  const n = flexible(m) ? Math.max(10, Math.round(games / 100)) : games;
  const short = Math.max(1, Math.round(n / 10));
  let a = Infinity;
  let b = Infinity;
  try {
    for (let r = 0; r < reps; r++) {
      a = Math.min(a, perGame(() => ours(m, n), () => ours(m, short), n - short));
      b = Math.min(b, perGame(() => theirs(m, n), () => theirs(m, short), n - short));
    }
  } catch (e) {
    // One matchup that a program refuses costs its row, not the whole run.
    rows.push(`| ${m.name} | ${m.mode} | ${n.toLocaleString('en')} | — | — | failed: ${String(e.message).split('\n')[0].slice(0, 80)} |`);
    continue;
  }
  const ratio = b / a;
  logSum += Math.log(ratio);
  ratios.push(ratio);
  rows.push(`| ${m.name} | ${m.mode}${m.scoring ? ` ${m.scoring}` : ''} | ${n.toLocaleString('en')} | ` +
            `${Math.round(1 / a).toLocaleString('en')} | ` +
            `${Math.round(1 / b).toLocaleString('en')} | ${ratio.toFixed(1)}× |`);
}
rmSync(tmp, { recursive: true, force: true });
console.log(`games/s on one core (${wall ? 'wall clock' : 'CPU time, user + system'}), ${games} games ` +
            `a matchup (less a run of a tenth of them); peer: ${peer}`);
console.log('| matchup | mode | games | skirmish | peer | ratio |');
console.log('|---|---|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
ratios.sort((x, y) => x - y);
const mid = ratios.length >> 1;
const median = ratios.length % 2 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
console.log(`\n${rows.length} matchups: median ratio ${median.toFixed(2)}×, geometric mean ` +
            `${Math.exp(logSum / rows.length).toFixed(2)}×, ${ratios.filter((r) => r < 4).length} under 4×`);
