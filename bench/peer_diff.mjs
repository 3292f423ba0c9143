// SPDX-License-Identifier: MIT
// Skirmish against the peer simulator's figures on real cards: plays every matchup of
// tests/data/peer/real_cards.json (the peer's win/stall/loss counts at 1,000,000 games)
// with `skirmish run` on the game's files, and prints a table with each rate's difference
// in units of its standard error (z = Δ / sqrt(p(1-p)/n_peer + p(1-p)/n_ours)); |z| ≤ 3
// is agreement within Monte-Carlo error. The peer itself is never run here.
//   node bench/peer_diff.mjs [GAMES=1000000] [CARDS_DIR=../shared/data/tu] [SKIRMISH=build/skirmish]
//                            [FILTER]
// FILTER (a regular expression) keeps only the matchups whose name it matches, e.g. `real-s`
// or `inhibit|absorb`; an empty argument keeps the default of its position.
// A matchup with a side {"deck", "play": "flexible"} has the peer's figures at fewer games
// and its own `games`, which caps ours.
// Exit status 0 always: this is a report, not a test.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const games = Number(process.argv[2] || 1000000);
const cardsDir = process.argv[3] || join(root, '../shared/data/tu');
const bin = process.argv[4] || join(root, 'build/skirmish');
const filter = new RegExp(process.argv[5] || '');
const ref = JSON.parse(readFileSync(join(root, 'tests/data/peer/real_cards.json'), 'utf8'));
const matchups = ref.matchups.filter((m) => filter.test(m.name));
const tmp = mkdtempSync(join(tmpdir(), 'skirmish-peer-'));

function z(k1, n1, k2, n2) {
  const p = (k1 + k2) / (n1 + n2);
  const se = Math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
  return se > 0 ? (k1 / n1 - k2 / n2) / se : 0;
}

const rows = [];
let agree = 0;
for (const m of matchups) {
  // A matchup's own `games` caps ours: flexible play costs hundreds of plain games each.
  const n = Math.min(games, m.games || games);
  const doc = { kind: 'battle', seed: 1, params: { games: n, mode: m.mode, turn_limit: ref.turn_limit,
                                                     attacker: m.attacker, defender: m.defender } };
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
  const zs = [z(res.wins, res.games, p.wins, p.games), z(res.stalls, res.games, p.stalls, p.games),
              z(res.losses, res.games, p.losses, p.games)];
  const worst = Math.max(...zs.map(Math.abs));
  if (worst <= 3) agree++;
  const pct = (k, n) => (100 * k / n).toFixed(2);
  rows.push(`| ${m.name} | ${m.mode} | ${pct(p.wins, p.games)} / ${pct(p.stalls, p.games)} / ${pct(p.losses, p.games)} ` +
            `| ${pct(res.wins, res.games)} / ${pct(res.stalls, res.games)} / ${pct(res.losses, res.games)} ` +
            `| ${zs.map((x) => x.toFixed(1)).join(' / ')} | ${worst <= 3 ? 'agrees' : 'DIFFERS'} |`);
}
rmSync(tmp, { recursive: true, force: true });
console.log(`${matchups.length} matchups, ${games} games each on our side (or a matchup's own games); peer: ` +
            `${ref.peer.repository}@${ref.peer.commit}`);
console.log('| matchup | mode | peer win/stall/loss % | ours | z (win/stall/loss) | |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`\n${agree} of ${matchups.length} agree within 3 standard errors`);
