// SPDX-License-Identifier: MIT
// Skirmish against the peer simulator's figures on real cards: plays every matchup of
// tests/data/peer/real_cards.json (the peer's win/stall/loss counts at 1,000,000 games)
// with `skirmish run` on the game's files, and prints a table with each rate's difference
// in units of its standard error (z = Δ / sqrt(p(1-p)/n_peer + p(1-p)/n_ours)); |z| ≤ 3
// is agreement within Monte-Carlo error. The peer itself is never run here.
//   node bench/peer_diff.mjs [GAMES=1000000] [CARDS_DIR=../shared/data/tu] [SKIRMISH=build/skirmish]
// A matchup with a side {"deck", "play": "flexible"} has the peer's figures at fewer games
// and its own `games`, which caps ours. A matchup with a `scoring` (real-mNN-*) also
// compares the mean points a game: z = Δ / (s * sqrt(1/n_peer + 1/n_ours)), s our games'
// standard deviation (from our interval); the peer prints the points' sum, not their spread.
// Under brawl-defense the peer counts stalls among its wins, and so does the comparison.
// A fifth argument, a regular expression, plays only the matchups whose names match.
// Exit status 0 always: this is a report, not a test.
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRealCards, ourJob } from './real_cards.mjs';

const root = new URL('..', import.meta.url).pathname;
const games = Number(process.argv[2] || 1000000);
const cardsDir = process.argv[3] || join(root, '../shared/data/tu');
const bin = process.argv[4] || join(root, 'build/skirmish');
const ref = loadRealCards();
const only = process.argv[5] ? new RegExp(process.argv[5]) : null;
if (only) ref.matchups = ref.matchups.filter((m) => only.test(m.name));
const tmp = mkdtempSync(join(tmpdir(), 'skirmish-peer-'));

function z(k1, n1, k2, n2) {
  const p = (k1 + k2) / (n1 + n2);
  const se = Math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
  return se > 0 ? (k1 / n1 - k2 / n2) / se : 0;
}

const rows = [];
let agree = 0;
for (const m of ref.matchups) {
  // A matchup's own `games` caps ours: flexible play costs hundreds of plain games each.
  const n = Math.min(games, m.games || games);
  const doc = ourJob(ref, m, n);
  const file = join(tmp, 'job.json');
  writeFileSync(file, JSON.stringify(doc));
  let res;
  try {
    res = JSON.parse(execFileSync(bin, ['run', file], {
      env: { ...process.env, SKIRMISH_CARDS_DIR: cardsDir }, stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch (e) {
    rows.push(`| ${m.name} | ${m.mode} | — | — | — | refused or failed: ${String(e.stdout || e.message).slice(0, 60)} |`);
    continue;
  }
  const p = m.peer;
  // the peer's brawl-defense counts a stall as a win
  const ours = m.scoring === 'brawl-defense' ? { ...res, wins: res.wins + res.stalls, stalls: 0 } : res;
  const zs = [z(ours.wins, res.games, p.wins, p.games), z(ours.stalls, res.games, p.stalls, p.games),
              z(res.losses, res.games, p.losses, p.games)];
  if (m.scoring) {
    const sd = (res.points_ci95[1] - res.points_ci95[0]) / (2 * 1.959963984540054) * Math.sqrt(res.games);
    const se = sd * Math.sqrt(1 / res.games + 1 / p.games);
    const pm = p.points_sum / p.games;
    zs.push(se > 0 ? (res.points - pm) / se : (res.points === pm ? 0 : Infinity));
  }
  const worst = Math.max(...zs.map(Math.abs));
  if (worst <= 3) agree++;
  const pct = (k, n) => (100 * k / n).toFixed(2);
  const pts = m.scoring ? ` · ${m.scoring} ${(p.points_sum / p.games).toFixed(3)}` : '';
  const ptsOurs = m.scoring ? ` · ${res.points.toFixed(3)}` : '';
  rows.push(`| ${m.name} | ${m.mode} | ${pct(p.wins, p.games)} / ${pct(p.stalls, p.games)} / ${pct(p.losses, p.games)}${pts} ` +
            `| ${pct(ours.wins, res.games)} / ${pct(ours.stalls, res.games)} / ${pct(res.losses, res.games)}${ptsOurs} ` +
            `| ${zs.map((x) => x.toFixed(1)).join(' / ')} | ${worst <= 3 ? 'agrees' : 'DIFFERS'} |`);
}
rmSync(tmp, { recursive: true, force: true });
console.log(`${ref.matchups.length} matchups, ${games} games each on our side (or a matchup's own games); peer: ` +
            `${ref.peer.repository}@${ref.peer.commit}`);
console.log('| matchup | mode | peer win/stall/loss % (· scoring, mean points) | ours | z (win/stall/loss/points) | |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`\n${agree} of ${ref.matchups.length} agree within 3 standard errors`);
