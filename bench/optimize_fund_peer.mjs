// SPDX-License-Identifier: MIT
// Deck optimisation with a fund against the peer simulator's `fund <SP> climb` (issue 47,
// row 4), on real cards: for each of the first PROBLEMS matchups of
// tests/data/peer/real_cards.json, the attacker's deck is the starting deck and the owned
// cards are the starting deck's cards as it holds them plus the attacker decks of the next
// two matchups at level 1 (the cards a fund can level up and fuse), less what Skirmish
// refuses in a pool (cards of sets the game gives no player, names that do not resolve), so
// both simulators own the same cards. For each FUND, the peer climbs (`tuo START ENEMY [-s]
// -o=owned.txt -L 8 10 -t 1 no-db fund FUND climb ITER`) and Skirmish optimises with the
// same owned cards, deck size, fund and the peer's simulations as its games budget
// (`skirmish run --threads 1`, commander from the owned ones, as the peer's climb). Every
// final deck (and the start) is then evaluated by both simulators on EVAL games each
// (Skirmish: a battle job, seed 99; the peer: `sim EVAL -t 1`), and the SP each spent is
// printed (the peer's "$SP", Skirmish's result.fund.spent), with the peer's count of
// Skirmish's deck (its first line when it climbs from that deck) as a cross-check of the
// cost. The peer is a binary the user built (never built, fetched or shipped by this
// repository), named by SKIRMISH_PEER; its data folder is linked to the game's files.
//   SKIRMISH_PEER=/path/to/tuo node bench/optimize_fund_peer.mjs [PROBLEMS=3] [ITER=1000]
//   [EVAL=20000] [FUNDS=500,3000] [CARDS_DIR=../shared/data/tu] [SKIRMISH=build/skirmish]
// With SK_SEEDS=1,2,3 Skirmish optimises each problem once per seed (the peer's climb is
// seeded from the clock: one run); its columns are then the mean over the seeds, each
// seed's figures listed below the table.
// Prints a table; asserts nothing.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { names, peerWorkdir } from './peer_lib.mjs';

const root = new URL('..', import.meta.url).pathname;
const peer = process.env.SKIRMISH_PEER;
if (!peer) {
  console.error('optimize_fund_peer: set SKIRMISH_PEER to the peer simulator binary (tuo)');
  process.exit(2);
}
const count = Number(process.argv[2] || 3);
const iter = Number(process.argv[3] || 1000);
const evalGames = Number(process.argv[4] || 20000);
const funds = (process.argv[5] || '500,3000').split(',').map(Number);
const cardsDir = resolve(process.argv[6] || join(root, '../shared/data/tu'));
const bin = process.argv[7] || join(root, 'build/skirmish');
const ref = JSON.parse(readFileSync(join(root, 'tests/data/peer/real_cards.json'), 'utf8'));
const { tmp, peerDir } = peerWorkdir(cardsDir, 'skirmish-fund-peer-');
const env = { ...process.env, SKIRMISH_CARDS_DIR: cardsDir };

// A card's level-1 name, as both simulators read it ("Name-N" or "Name" → "Name-1").
const level1 = (name) => name.replace(/-\d+$/, '') + '-1';

// {name: copies} of a list of names.
function tally(list) {
  const t = new Map();
  for (const n of list) t.set(n, (t.get(n) || 0) + 1);
  return t;
}

function skirmish(doc, allowFail = false) {
  const f = join(tmp, 'doc.json');
  writeFileSync(f, JSON.stringify(doc));
  try {
    return JSON.parse(execFileSync(bin, ['run', '--device', 'cpu', '--threads', '1', f],
                                   { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 }));
  } catch (e) {
    if (allowFail) return { error: String(e.stdout) + String(e.stderr) };
    throw e;
  }
}

function tuo(args) {
  return execFileSync(peer, args, { cwd: peerDir, stdio: ['ignore', 'pipe', 'ignore'],
                                    maxBuffer: 64 << 20 }).toString();
}

// The owned cards less those a Skirmish pool refuses (a probe job lists them).
function poolOf(m, owned) {
  const pool = [...owned].map(([card, n]) => ({ card, count: n }));
  const r = skirmish({ kind: 'optimize', seed: 1, params: {
    mode: m.mode, attacker: m.attacker, defender: m.defender, pool,
    budget: { games: 1000 }, eval_games: 100 } }, true);
  if (!r.error) return pool;
  const bad = new Set([...r.error.matchAll(/\/params\/pool\/(\d+)\/card: /g)].map((x) => Number(x[1])));
  return pool.filter((_, i) => !bad.has(i));
}

const winSkirmish = (deck, m) => skirmish({ kind: 'battle', seed: 99, params: {
  games: evalGames, mode: m.mode, turn_limit: ref.turn_limit || 50, attacker: deck,
  defender: m.defender } }).win_rate;

function winPeer(deck, m) {
  const out = tuo([deck, m.defender, ...(m.mode === 'surge' ? ['-s'] : []), '-t', '1', 'no-db',
                   'sim', String(evalGames)]);
  const w = /win%: ([\d.]+)/.exec(out);
  return w ? Number(w[1]) / 100 : NaN;
}

// The peer's SP for deck `deck` built from owned.txt: the first line of a climb from it.
function peerCost(deck, m, fund) {
  const out = tuo([deck, m.defender, ...(m.mode === 'surge' ? ['-s'] : []), '-o=owned.txt',
                   '-t', '1', 'no-db', 'fund', String(fund), 'climb', '10']);
  const c = /units: \$(\d+)/.exec(out);
  return c ? Number(c[1]) : NaN;
}

const seeds = (process.env.SK_SEEDS || '1').split(',').map(Number);
const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
const ms = ref.matchups.filter((m) => !m.state).slice(0, count + 2);
const pc = (x) => (100 * x).toFixed(2) + '%';
console.log(`machine: ${cpus().length} cores (${cpus()[0].model}), load ` +
            `${loadavg().map((x) => x.toFixed(2)).join(' ')}; ${new Date().toISOString()}`);
console.log(`peer: ${peer}; climb ${iter}; every deck evaluated on ${evalGames} games by each ` +
            'simulator; one thread each\n');
console.log(`Skirmish seeds: ${seeds.join(', ')}\n`);
console.log('| problem | fund | start (sk / peer) | peer SP | peer deck (sk / peer) | skirmish SP ' +
            '(peer\'s count) | skirmish deck (sk / peer) | games |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
const decks = [];
for (let i = 0; i < count && i + 2 < ms.length; i++) {
  const m = ms[i];
  const owned = tally(names(m.attacker));
  for (const [n, c] of tally([...names(ms[i + 1].attacker), ...names(ms[i + 2].attacker)]
    .map(level1))) owned.set(n, Math.max(owned.get(n) || 0, c));
  const pool = poolOf(m, owned);
  writeFileSync(join(peerDir, 'owned.txt'), pool.map((p) => `${p.card}(${p.count})`).join('\n') + '\n');
  const start = [winSkirmish(m.attacker, m), winPeer(m.attacker, m)];
  for (const fund of funds) {
    const out = tuo([m.attacker, m.defender, ...(m.mode === 'surge' ? ['-s'] : []), '-o=owned.txt',
                     '-L', '8', '10', '-t', '1', 'no-db', 'fund', String(fund), 'climb', String(iter)]);
    const sims = Number(/Evaluated \d+ decks \((\d+) \+/.exec(out)[1]);
    const od = /Optimized Deck: \d+ units: (?:\$(\d+) )?[^:]*: (.*)$/m.exec(out);
    const peerSp = Number(od[1] || 0);
    const peerDeck = od[2].trim();
    const runs = seeds.map((seed) => {
      const res = skirmish({ kind: 'optimize', seed, params: {
        mode: m.mode, attacker: m.attacker, defender: m.defender, pool,
        constraints: { deck_size: { min: 8, max: 10 }, commander: 'owned' }, fund,
        budget: { games: Math.max(1000, sims) }, eval_games: 1000 } });
      return { seed, deck: res.best.deck, sp: res.fund.spent, check: peerCost(res.best.deck, m, fund),
               upgrades: res.fund.upgrades.length,
               win: [winSkirmish(res.best.deck, m), winPeer(res.best.deck, m)] };
    });
    const p = [winSkirmish(peerDeck, m), winPeer(peerDeck, m)];
    decks.push({ problem: m.name, fund, peerDeck, peerSp, p, runs });
    const sp = runs.length > 1 ? `${mean(runs.map((r) => r.sp)).toFixed(0)}` : `${runs[0].sp}`;
    const check = runs.every((r) => r.check === r.sp) ? 'same' : runs.map((r) => r.check).join('/');
    console.log(`| ${m.name} | ${fund} | ${pc(start[0])} / ${pc(start[1])} | ${peerSp} | ` +
                `${pc(p[0])} / ${pc(p[1])} | ${sp} (${check}) | ` +
                `${pc(mean(runs.map((r) => r.win[0])))} / ${pc(mean(runs.map((r) => r.win[1])))} | ${sims} |`);
  }
}
const all = (f) => decks.filter((d) => d.fund === f);
for (const f of funds) {
  console.log(`\nfund ${f}: mean win rate (Skirmish's evaluation) peer ${pc(mean(all(f).map((d) => d.p[0])))}, ` +
              `skirmish ${pc(mean(all(f).flatMap((d) => d.runs.map((r) => r.win[0]))))}`);
}
console.log('\nfinal decks:');
for (const d of decks) {
  console.log(`- ${d.problem}, fund ${d.fund}: peer "${d.peerDeck}" ($${d.peerSp}, ${pc(d.p[0])} / ${pc(d.p[1])})`);
  for (const r of d.runs) {
    console.log(`  - skirmish seed ${r.seed}: "${r.deck}" ($${r.sp}, the peer counts $${r.check}; ` +
                `${r.upgrades} upgrade steps; ${pc(r.win[0])} / ${pc(r.win[1])})`);
  }
}
rmSync(tmp, { recursive: true, force: true });
