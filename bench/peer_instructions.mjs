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
// Skirmish and 20 to 60 s for the peer at 3,000 games: the whole set (219 matchups) is
// about 2.5 hours on one core. SKIRMISH_BENCH_JOBS=N (default 1) measures N matchups at
// once: a count does not depend on the machine's load, so N can be its cores. Prints a
// table (in the file's order, whatever N; each row also goes to stderr as it comes), the
// median and geometric mean of the ratios, and the same a group of matchups (the name's
// prefix: real-NN, real-f, real-m, ...; flexible play apart); asserts nothing.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { summary, peerWorkdir } from './peer_lib.mjs';
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
const jobs = Number(process.env.SKIRMISH_BENCH_JOBS || 1);
for (const [what, v] of [['MATCHUPS', count], ['GAMES', games], ['SKIRMISH_BENCH_EVERY', every],
                         ['SKIRMISH_BENCH_JOBS', jobs]]) {
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
// The peer's data/ is a folder of links to the game's files (peer_speed.mjs says why).
const { tmp, peerDir } = peerWorkdir(cardsDir, 'skirmish-peer-instr-');

// The instructions callgrind counted in one run of `cmd args` (the collected part only when
// `toggle` names a function); `tag` names its output file, apart from the other runs at once.
function instructions(cmd, args, opts, toggle, tag) {
  const out = join(tmp, `callgrind.${tag}.out`);
  const vg = ['--tool=callgrind', `--callgrind-out-file=${out}`];
  if (toggle) vg.push(`--toggle-collect=${toggle}`);
  return new Promise((done, fail) => {
    const p = spawn('valgrind', [...vg, cmd, ...args], { ...opts, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => { err = (err + d).slice(-4096); });
    p.on('error', (e) => fail(new Error(`valgrind: ${e.message}`)));
    p.on('close', (status) => {
      if (status !== 0) return fail(new Error(`${cmd} exited ${status}: ${err.trim().split('\n').pop()}`));
      const m = /^totals: (\d+)$/m.exec(readFileSync(out, 'utf8'));
      rmSync(out, { force: true });
      if (!m) return fail(new Error('no totals line in the callgrind output'));
      done(Number(m[1]));
    });
  });
}

async function ours(m, n, tag) {
  const file = join(tmp, `job.${tag}.json`);
  writeFileSync(file, JSON.stringify(ourJob(ref, m, n)));
  return (await instructions(bin, ['run', '--device', 'cpu', '--threads', '1', file],
                             { env: { ...process.env, SKIRMISH_CARDS_DIR: cardsDir, SKIRMISH_LOG_LEVEL: 'error' } },
                             'battle_cpu_run*', tag)) / n;
}

async function theirs(m, n, tag) {
  const short = Math.max(1, Math.round(n / 10));
  const opts = { cwd: peerDir };
  return ((await instructions(peer, peerArgs(m, n + short, 1), opts, null, `${tag}.long`)) -
          (await instructions(peer, peerArgs(m, short, 1), opts, null, `${tag}.short`))) / n;
}

// A matchup's group: its name's prefix (real-NN for the numbered ones), flexible play apart.
function group(m) {
  if (flexible(m)) return 'flexible';
  const g = /^real-([a-z]*)\d/.exec(m.name);
  return g && g[1] ? `real-${g[1]}` : 'real-NN';
}

// One matchup's row and ratio (null when a program refused it: that costs its row only).
async function measure(m, tag) {
  const n = flexible(m) ? Math.max(10, Math.round(games / 100)) : games;
  try {
    const a = await ours(m, n, tag);
    const b = await theirs(m, n, tag);
    return { ratio: b / a, row: `| ${m.name} | ${m.mode}${m.scoring ? ` ${m.scoring}` : ''} | ${n.toLocaleString('en')} | ` +
             `${Math.round(a).toLocaleString('en')} | ${Math.round(b).toLocaleString('en')} | ${(b / a).toFixed(2)} |` };
  } catch (e) {
    return { ratio: null, row: `| ${m.name} | ${m.mode} | — | — | — | failed: ${String(e.message).split('\n')[0].slice(0, 80)} |` };
  }
}

// SKIRMISH_BENCH_JOBS workers take the matchups in order; results land at their index.
const results = new Array(chosen.length);
let next = 0;
await Promise.all(Array.from({ length: Math.min(jobs, chosen.length) }, async () => {
  while (next < chosen.length) {
    const i = next++;
    results[i] = await measure(chosen[i], i);
    // Progress, as the rows come (the table on stdout keeps the file's order).
    console.error(`peer_instructions: ${results.filter(Boolean).length}/${chosen.length} ${results[i].row}`);
  }
}));
rmSync(tmp, { recursive: true, force: true });
console.log(`instructions a game (callgrind): Skirmish inside battle_cpu_run*, ${bin}; the peer's ` +
            `whole process less a run of a tenth of the games, ${peer}`);
console.log('| matchup | mode | games | skirmish | peer | ratio |');
console.log('|---|---|---:|---:|---:|---:|');
for (const r of results) console.log(r.row);

const ratios = results.filter((r) => r.ratio !== null).map((r) => r.ratio);
if (ratios.length) {
  const { median, geo } = summary(ratios);
  console.log(`\n${ratios.length} matchups: median ratio ${median.toFixed(2)}, geometric mean ` +
              `${geo.toFixed(2)}, ${ratios.filter((r) => r < 4).length} under 4`);
  const groups = new Map();
  chosen.forEach((m, i) => {
    if (results[i].ratio === null) return;
    if (!groups.has(group(m))) groups.set(group(m), []);
    groups.get(group(m)).push(results[i].ratio);
  });
  console.log('\n| group | matchups | median | geometric mean | least | most |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [g, rs] of groups) {
    const { median: md, geo: gm } = summary(rs);
    console.log(`| ${g} | ${rs.length} | ${md.toFixed(2)} | ${gm.toFixed(2)} | ${Math.min(...rs).toFixed(2)} | ` +
                `${Math.max(...rs).toFixed(2)} |`);
  }
}
