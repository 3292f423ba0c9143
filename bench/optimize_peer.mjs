// SPDX-License-Identifier: MIT
// Deck optimisation against the peer simulator's `climb` (issue 13's acceptance), on real
// cards: for each of the first PROBLEMS matchups of tests/data/peer/real_cards.json, the
// attacker's deck is the starting deck, the defender the enemy, and the owned cards are the
// starting deck's plus the attacker decks of the next two matchups (one copy each), less the
// cards of sets the game gives no player (the peer ignores them in owned cards, Skirmish
// refuses them in a pool: docs/optimize.md, "allow_unobtainable"). The
// peer climbs (`tuo START ENEMY [-s] -o=owned.txt -L 8 10 -t 1 no-db climb ITER`) and
// reports the simulations it spent; Skirmish then optimises the same problem with that many
// games as its budget (`skirmish run --device cpu --threads 1`, pool and deck size the
// same, commander from the owned ones as the peer's climb does). Both sides run each seed
// of SK_SEEDS (a comma list, default 1: the peer's `seed S`, Skirmish's job seed S). Both
// final decks are then re-evaluated by Skirmish on EVAL fresh games each (seed 99, the same
// games for both), and with SK_PEER_EVAL=1 by the peer too (`sim EVAL`, one thread), and
// the CPU times (user + system, both single-threaded, card loading included) compared:
// "time ratio" is Skirmish's whole process over the peer's. Both load the game's cards
// (a few tenths of a second of CPU each) before they optimise anything, so the searches
// are also compared with each side's start-up taken out: "net ratio" is (Skirmish's CPU -
// its start-up) / (the peer's CPU - its start-up), a side's start-up being the median CPU
// of three of its smallest runs of the same problem: the peer's `climb 1` (one game),
// Skirmish's job with budget.games 1,000 and eval_games 100, the least it takes (about
// 1,200 games, some 4 ms at its speed, which its net time then leaves out as well). The
// peer is a binary the user built (never built, fetched or shipped by this repository),
// named by SKIRMISH_PEER; it runs with its data folder linked to the game's files and its
// result database off (as bench/peer_speed.mjs).
//   SKIRMISH_PEER=/path/to/tuo node bench/optimize_peer.mjs [PROBLEMS=10] [ITER=1000]
//   [EVAL=1000000] [CARDS_DIR=../shared/data/tu] [SKIRMISH=build/skirmish]
// With SK_BENCH_WALL=1 it compares wall times with every core busy instead (the issue's
// "wall time on this machine"): the peer climbs with `-t CORES`; Skirmish runs as the
// service (a throw-away PostgreSQL, Redis, skirmish-api and one skirmish-worker with
// SKIRMISH_ENGINE_THREADS=CORES, started once, its cards loaded once as a deployed worker's
// are) and each optimisation is timed from its POST to its final status; each side runs
// SK_BENCH_RUNS times (3) and its least wall time counts (the machine is shared: the least
// is the run least disturbed by others), the peer's deck and games being those of that run.
// The net ratio is of CPU time only (SK_BENCH_WALL's service has loaded its cards before).
// Prints a row per problem and seed, then per problem the mean over the seeds of both sides'
// decks (a problem where the peer's mean is ahead by more than 0.2 point is marked), the
// runs each side won (by more than 0.1 point; closer is a tie) and the means; asserts
// nothing.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { names, peerWorkdir } from './peer_lib.mjs';

const root = new URL('..', import.meta.url).pathname;
const peer = process.env.SKIRMISH_PEER;
if (!peer) {
  console.error('optimize_peer: set SKIRMISH_PEER to the peer simulator binary (tuo)');
  process.exit(2);
}
const count = Number(process.argv[2] || 10);
const iter = Number(process.argv[3] || 1000);
const evalGames = Number(process.argv[4] || 1000000);
const cardsDir = resolve(process.argv[5] || join(root, '../shared/data/tu'));
const bin = process.argv[6] || join(root, 'build/skirmish');
const ref = JSON.parse(readFileSync(join(root, 'tests/data/peer/real_cards.json'), 'utf8'));
const { tmp } = peerWorkdir(cardsDir, 'skirmish-optimize-peer-');
const env = { ...process.env, SKIRMISH_CARDS_DIR: cardsDir };

// Runs `cmd args` in `cwd` and returns [its stdout, its CPU time (user + system) in s]:
// on a shared machine the wall clock also counts the time other processes held the cores,
// the CPU time does not (both runs are single-threaded).
function timed(cmd, args, cwd) {
  const out = join(tmp, 'out.txt');
  const t = join(tmp, 'time.txt');
  execFileSync('bash', ['-c', 'TIMEFORMAT="%3U %3S"; { time "$@" >"$OUT" 2>/dev/null; } 2>"$T"',
                        'bash', cmd, ...args], { cwd, env: { ...env, OUT: out, T: t } });
  const [u, s] = readFileSync(t, 'utf8').trim().split(/\s+/).map(Number);
  return [readFileSync(out, 'utf8'), u + s];
}

// A Skirmish job document's result, and the CPU time of `skirmish run` on one thread.
function skirmishTimed(doc) {
  const f = join(tmp, 'doc.json');
  writeFileSync(f, JSON.stringify(doc));
  const [out, s] = timed(bin, ['run', '--device', 'cpu', '--threads', '1', f], root);
  return [JSON.parse(out), s];
}

const skirmish = (doc) => skirmishTimed(doc)[0];

// `owned` less the cards Skirmish refuses as of sets the game gives no player: a small
// optimisation of matchup `m` with them as its pool, whose refusals `skirmish run` prints
// as "/params/pool/N/card: ... which the game gives no player ..." (exit status 2).
function obtainable(m, owned) {
  const f = join(tmp, 'probe.json');
  writeFileSync(f, JSON.stringify({ kind: 'optimize', seed: 1, params: {
    mode: m.mode, attacker: m.attacker, defender: m.defender,
    pool: owned.map((card) => ({ card })), budget: { games: 1000 }, eval_games: 100 } }));
  try {
    execFileSync(bin, ['run', '--device', 'cpu', '--threads', '1', f],
                 { env, stdio: ['ignore', 'pipe', 'pipe'] });
    return owned;
  } catch (e) {
    const out = String(e.stdout) + String(e.stderr);
    const bad = new Set([...out.matchAll(/\/params\/pool\/(\d+)\/card: [^\n]*gives no player/g)]
      .map((x) => Number(x[1])));
    return owned.filter((_, i) => !bad.has(i));
  }
}

const wall = process.env.SK_BENCH_WALL === '1';
const cores = cpus().length;
const svc = { procs: [] };

// Runs `cmd args` in `cwd` and returns [its stdout, its wall time in s].
function walled(cmd, args, cwd) {
  const t0 = process.hrtime.bigint();
  const out = execFileSync(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'ignore'],
                                        maxBuffer: 64 << 20 }).toString();
  return [out, Number(process.hrtime.bigint() - t0) / 1e9];
}

// Starts the throw-away stack (wall mode): stores, the API, one worker on every core.
async function serviceStart() {
  const sh = (...a) => execFileSync(join(root, 'scripts/services.sh'), a).toString().trim();
  const [pg, redis, http] = [sh('free-port'), sh('free-port'), sh('free-port')];
  svc.dir = join(tmp, 'svc');
  mkdirSync(svc.dir, { mode: 0o755 });
  execFileSync('chmod', ['755', tmp, svc.dir]);
  sh('pg-start', svc.dir, pg);
  sh('redis-start', svc.dir, redis);
  svc.stop = () => {
    for (const p of svc.procs) p.kill('SIGTERM');
    try { sh('redis-stop', svc.dir); } catch { /* gone already */ }
    try { sh('pg-stop', svc.dir); } catch { /* gone already */ }
  };
  const senv = { ...env, SKIRMISH_DATABASE_URL: `postgresql://postgres@127.0.0.1:${pg}/skirmish`,
                 SKIRMISH_REDIS_URL: `redis://127.0.0.1:${redis}`, SKIRMISH_HTTP_PORT: http,
                 SKIRMISH_ENGINE_THREADS: String(cores), SKIRMISH_DEVICE: 'cpu' };
  const log = openSync(join(svc.dir, 'stack.log'), 'a');
  const dir = join(bin, '..');
  svc.procs.push(spawn(join(dir, 'skirmish-api'), [], { env: senv, stdio: ['ignore', log, log] }));
  svc.url = `http://127.0.0.1:${http}`;
  for (let i = 0; i < 300; i++) {
    try { if ((await fetch(`${svc.url}/readyz`)).ok) break; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  svc.procs.push(spawn(join(dir, 'skirmish-worker'), [], { env: senv, stdio: ['ignore', log, log] }));
}

// fetch(), tried again when the connection drops (a kept-alive connection the API closed);
// POSTs carry an Idempotency-Key, so a second try is the same job.
async function fetchJson(url, opts) {
  for (let i = 0; ; i++) {
    try {
      return await (await fetch(url, opts)).json();
    } catch (e) {
      if (i >= 5) throw e;
    }
  }
}

let posts = 0;
// Posts `doc` and waits for its end: [its result, the wall time from the POST in s].
async function serviceRun(doc) {
  const t0 = process.hrtime.bigint();
  const { id } = await fetchJson(`${svc.url}/v1/jobs`, { method: 'POST', body: JSON.stringify(doc),
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `bench-${process.pid}-${posts++}` } });
  let job;
  do {
    job = await fetchJson(`${svc.url}/v1/jobs/${id}?wait=30`);
  } while (job.status === 'queued' || job.status === 'running');
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (job.status !== 'succeeded') throw new Error(`optimize job ${id}: ${job.status} ${job.error}`);
  return [await fetchJson(`${svc.url}/v1/jobs/${id}/result`), s];
}

const pc = (x) => (100 * x).toFixed(2) + '%';

// The win rate of `deck` against the problem's enemy by the peer's own simulation.
function winPeer(deck, m) {
  const out = execFileSync(peer, [deck, m.defender, ...(m.mode === 'surge' ? ['-s'] : []), '-t', '1',
                                  'no-db', 'sim', String(evalGames)],
                           { cwd: join(tmp, 'peer'), env, maxBuffer: 64 << 20 }).toString();
  const w = /win%: ([\d.]+)/.exec(out);
  return w ? Number(w[1]) / 100 : NaN;
}

function winRate(deck, m) {
  const r = skirmish({ kind: 'battle', seed: 99, params: {
    games: evalGames, mode: m.mode, turn_limit: ref.turn_limit || 50,
    attacker: deck, defender: m.defender } });
  return r.win_rate;
}

// SK_PROBLEMS_FROM (default 0) skips that many matchups first: another set of problems than
// the one a change was tuned on.
const from = Number(process.env.SK_PROBLEMS_FROM || 0);
const ms = ref.matchups.filter((m) => !m.state).slice(from, from + count + 2);
const rows = [];
const unit = wall ? 'wall' : 'CPU';
const runs = wall ? Number(process.env.SK_BENCH_RUNS || 3) : 1;
process.on('exit', () => svc.stop && svc.stop());
if (wall) {
  await serviceStart();
  // one small optimisation first: the worker has loaded its cards and reads the stream
  await serviceRun({ kind: 'optimize', seed: 1, params: { attacker: ms[0].attacker,
    defender: ms[0].defender,
    pool: obtainable(ms[0], [...new Set(names(ms[1].attacker))]).map((card) => ({ card })),
    budget: { games: 1000 }, eval_games: 100 } });
  console.log(`machine: ${cores} cores (${cpus()[0].model}), load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
}
console.log(`peer: ${peer}; climb ${iter}; re-evaluation ${evalGames} games per deck; ` +
            (wall ? `${cores} threads (peer), one worker of ${cores} threads (Skirmish), wall time\n`
                  : '1 thread each\n'));
const seeds = (process.env.SK_SEEDS || '1').split(',').map(Number);
const peerEval = process.env.SK_PEER_EVAL === '1';
console.log(`| problem | seed | start | peer: games | peer deck | peer ${unit} s | skirmish deck | skirmish ${unit} s | time ratio |` +
            (wall ? '' : ' peer start s | skirmish start s | net ratio |') +
            (peerEval ? ' peer deck (peer\'s sim) | skirmish deck (peer\'s sim) |' : ''));
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|' + (wall ? '' : '---:|---:|---:|') +
            (peerEval ? '---:|---:|' : ''));
for (let i = 0; i < count && i + 2 < ms.length; i++) for (const seed of seeds) {
  const m = ms[i];
  const owned = obtainable(m, [...new Set([...names(m.attacker), ...names(ms[i + 1].attacker),
                                         ...names(ms[i + 2].attacker)])]);
  writeFileSync(join(tmp, 'peer', 'owned.txt'), owned.join('\n') + '\n');
  const args = [m.attacker, m.defender, ...(m.mode === 'surge' ? ['-s'] : []), '-o=owned.txt',
                '-L', '8', '10', '-t', String(wall ? cores : 1), 'seed', String(seed), 'no-db',
                'climb', String(iter)];
  let [out, peerS] = [null, Infinity];
  for (let r = 0; r < runs; r++) {
    const [o, t] = wall ? walled(peer, args, join(tmp, 'peer')) : timed(peer, args, join(tmp, 'peer'));
    if (t < peerS) [out, peerS] = [o, t];
  }
  const sims = Number(/Evaluated \d+ decks \((\d+) \+/.exec(out)[1]);
  const peerDeck = /Optimized Deck: .*?units: [^:]*: (.*)$/m.exec(out)[1].trim();
  const doc = { kind: 'optimize', seed, params: {
    mode: m.mode, attacker: m.attacker, defender: m.defender,
    pool: owned.map((card) => ({ card })),
    constraints: { deck_size: { min: 8, max: 10 }, commander: 'owned' },
    budget: { games: Math.max(1000, sims) }, eval_games: 1000 } };
  let [res, skS] = [null, Infinity];
  for (let r = 0; r < runs; r++) {
    const [o, t] = await (wall ? serviceRun : skirmishTimed)(doc);
    if (t < skS) [res, skS] = [o, t];
  }
  // each side's start-up: the median of three smallest runs of this problem (see the top
  // of this file; one run's noise on this shared machine was as large as a small search)
  let [peerUp, skUp] = [0, 0];
  if (!wall && seed !== seeds[0]) {
    ({ peerUp, skUp } = rows[rows.length - 1]);
  } else if (!wall) {
    const median3 = (f) => [f(), f(), f()].sort((a, b) => a - b)[1];
    peerUp = median3(() => timed(peer, [...args.slice(0, -1), '1'], join(tmp, 'peer'))[1]);
    skUp = median3(() => skirmishTimed({ ...doc, params: { ...doc.params,
                                          budget: { games: 1000 }, eval_games: 100 } })[1]);
  }
  const start = winRate(m.attacker, m);
  const p = winRate(peerDeck, m);
  const s = winRate(res.best.deck, m);
  const [pp, sp] = peerEval ? [winPeer(peerDeck, m), winPeer(res.best.deck, m)] : [NaN, NaN];
  const net = (skS - skUp) / (peerS - peerUp);
  rows.push({ name: m.name, start, p, s, pp, sp, peerS, skS, peerUp, skUp, net });
  console.log(`| ${m.name} | ${seed} | ${pc(start)} | ${sims} | ${pc(p)} | ${peerS.toFixed(2)} | ${pc(s)} | ` +
              `${skS.toFixed(2)} | ${(skS / peerS).toFixed(3)} |` +
              (wall ? '' : ` ${peerUp.toFixed(2)} | ${skUp.toFixed(2)} | ${net.toFixed(3)} |`) +
              (peerEval ? ` ${pc(pp)} | ${pc(sp)} |` : ''));
}
const mean = (k, rs = rows) => rs.reduce((a, r) => a + r[k], 0) / rs.length;
const won = [0, 0, 0];
for (const r of rows) won[Math.abs(r.s - r.p) <= 0.001 ? 2 : r.s > r.p ? 1 : 0]++;
console.log(`\nper problem, mean of seeds ${seeds.join(', ')} (re-evaluated by Skirmish` +
            (peerEval ? '; and by the peer' : '') + '):\n');
console.log('| problem | peer deck | skirmish deck | difference |' + (peerEval ? ' peer deck (peer\'s sim) | skirmish deck (peer\'s sim) | difference |' : ''));
console.log('|---|---:|---:|---:|' + (peerEval ? '---:|---:|---:|' : ''));
let behind = 0;
for (const name of [...new Set(rows.map((r) => r.name))]) {
  const rs = rows.filter((r) => r.name === name);
  const d = mean('s', rs) - mean('p', rs);
  const dp = mean('sp', rs) - mean('pp', rs);
  const far = d < -0.002 || dp < -0.002;
  behind += far;
  console.log(`| ${name} | ${pc(mean('p', rs))} | ${pc(mean('s', rs))} | ${(100 * d).toFixed(2)}${far ? ' **peer ahead by more than 0.2**' : ''} |` +
              (peerEval ? ` ${pc(mean('pp', rs))} | ${pc(mean('sp', rs))} | ${(100 * dp).toFixed(2)} |` : ''));
}
console.log(`\nruns won peer / skirmish / tie (within 0.1 point): ${won.join(' / ')}; problems where the peer is ahead by more than 0.2 point: ${behind}`);
console.log(`mean win rate: start ${(100 * mean('start')).toFixed(2)}%, peer ${(100 * mean('p')).toFixed(2)}%, ` +
            `skirmish ${(100 * mean('s')).toFixed(2)}%` +
            (peerEval ? ` (by the peer's sim: peer ${(100 * mean('pp')).toFixed(2)}%, skirmish ${(100 * mean('sp')).toFixed(2)}%)` : '') +
            `; ${unit} time: peer ${mean('peerS').toFixed(2)} s, ` +
            `skirmish ${mean('skS').toFixed(2)} s; mean ratio ` +
            `${(rows.reduce((a, r) => a + r.skS / r.peerS, 0) / rows.length).toFixed(3)}` +
            (wall ? '' : `; start-up: peer ${mean('peerUp').toFixed(2)} s, skirmish ` +
                         `${mean('skUp').toFixed(2)} s; mean net ratio ${mean('net').toFixed(3)}`));
if (wall) svc.stop();
svc.stop = null;
rmSync(tmp, { recursive: true, force: true });
