// SPDX-License-Identifier: MIT
// Games per second on one CPU core, Skirmish against the peer simulator, side by side on
// the real-card matchups of tests/data/peer/real_cards.json. The peer is a binary the user
// built (never built, fetched or shipped by this repository), named by SKIRMISH_PEER; it
// runs with its data folder linked to the game's files and its result database off. Both run single-threaded
// (`skirmish run --device cpu --threads 1`, `tuo ... -t 1`); each is timed on a short and a
// long run and the difference is used, so loading the cards (about 0.3 s and 0.5–0.9 s)
// does not count. Where that difference is under SKIRMISH_BENCH_MIN_SECONDS (default 1) the
// program plays more games, its own count, until it is not (at most 64 times GAMES): at
// 100,000 games a fast matchup's games took 0.05 s against a load of 0.3 s, and its row said
// anything from 1.1× to 7.9× from one run to the next. Each matchup times Skirmish, then the
// peer, one after the other, so that a noisy spell of the machine weighs on neighbours.
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
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { peerWorkdir, summary } from './peer_lib.mjs';
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
// The peer reads data/ below its working folder and keeps a result database there
// (data/database.yml): its data/ is a folder of links to the game's files, so nothing is
// written next to them, and `no-db` keeps it from answering from earlier runs.
const { tmp, peerDir } = peerWorkdir(cardsDir, 'skirmish-peer-speed-');

// The CPU time (user + system) a command took, through bash's `time`: on a shared machine
// the wall clock also counts the time other processes held the cores, the CPU time does
// not. SKIRMISH_BENCH_WALL=1 times the wall clock instead.
const wall = process.env.SKIRMISH_BENCH_WALL === '1';
// A setting that is not a number would make every measurement fail or run to its cap.
function setting(name, dflt, ok) {
  const v = Number(process.env[name] ?? dflt);
  if (!ok(v)) {
    console.error(`peer_speed: ${name} must be ${ok.what}, not '${process.env[name]}'`);
    process.exit(2);
  }
  return v;
}
const positiveInt = Object.assign((v) => Number.isInteger(v) && v >= 1, { what: 'an integer of at least 1' });
const positive = Object.assign((v) => Number.isFinite(v) && v > 0, { what: 'a number of seconds above 0' });
const reps = setting('SKIRMISH_BENCH_REPS', 1, positiveInt);
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
  return seconds(peer, peerArgs(m, n, 1), { cwd: peerDir });
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

// One program's seconds a game (the least of `reps` measurements) and the games it played:
// `run(games)` plays and times one run. A count whose games take less than minSeconds is
// scaled up from what it measured, at most 16 times a step (a difference that noise made
// tiny would otherwise ask for far too many games) and 64 times the first count in all, so
// that the timer's resolution and the load's jitter are small next to the games' time.
const minSeconds = setting('SKIRMISH_BENCH_MIN_SECONDS', 1, positive);
function measure(run, n0) {
  let n = n0;
  for (;;) {
    const short = Math.max(1, Math.round(n / 10));
    let best = Infinity;
    for (let r = 0; r < reps; r++) best = Math.min(best, perGame(() => run(n), () => run(short), n - short));
    const took = best * (n - short);
    if (took >= minSeconds || n >= 64 * n0) return { perGame: best, games: n };
    n = Math.min(64 * n0, 16 * n, Math.ceil((n * 1.2 * minSeconds) / took / 1000) * 1000);
  }
}

const rows = [];
const ratios = [];
const flexible = (m) => [m.attacker, m.defender].some((s) => typeof s === 'object' && s.play === 'flexible');
for (const m of ref.matchups.slice(0, count).filter((x) => !only || only.test(x.name))) {
  const n = flexible(m) ? Math.max(10, Math.round(games / 100)) : games;
  let a;
  let b;
  try {
    a = measure((k) => ours(m, k), n);
    b = measure((k) => theirs(m, k), n);
  } catch (e) {
    // One matchup that a program refuses costs its row, not the whole run.
    rows.push(`| ${m.name} | ${m.mode} | — | — | — | — | failed: ${String(e.message).split('\n')[0].slice(0, 80)} |`);
    continue;
  }
  const ratio = b.perGame / a.perGame;
  ratios.push(ratio);
  rows.push(`| ${m.name} | ${m.mode}${m.scoring ? ` ${m.scoring}` : ''} | ` +
            `${a.games.toLocaleString('en')} | ${b.games.toLocaleString('en')} | ` +
            `${Math.round(1 / a.perGame).toLocaleString('en')} | ` +
            `${Math.round(1 / b.perGame).toLocaleString('en')} | ${ratio.toFixed(1)}× |`);
}
rmSync(tmp, { recursive: true, force: true });
console.log(`games/s on one core (${wall ? 'wall clock' : 'CPU time, user + system'}), ${games} games ` +
            `a matchup or more, each program until its games take ${minSeconds} s (less a run of a ` +
            `tenth of them); peer: ${peer}`);
console.log('| matchup | mode | skirmish games | peer games | skirmish | peer | ratio |');
console.log('|---|---|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
// Over the matchups measured (a failed row counts in neither).
if (ratios.length) {
  const { median, geo } = summary(ratios);
  console.log(`\n${ratios.length} matchups: median ratio ${median.toFixed(2)}×, geometric mean ` +
              `${geo.toFixed(2)}×, ${ratios.filter((r) => r < 4).length} under 4×`);
}
