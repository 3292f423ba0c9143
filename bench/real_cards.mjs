// SPDX-License-Identifier: MIT
// The real-card matchups of tests/data/peer/real_cards.json as the two programs take them:
// our job document (written by bench/gpu_jobs.py, the one writer of them, which bench/gpu.sh
// uses on a GPU machine) and the peer simulator's command-line arguments, for the scripts
// that run them (peer_diff.mjs compares results, peer_speed.mjs times both). The
// peer's words are those its figures were made with (the file's `about`): `-s` for surge;
// a matchup's `peer_effect` (`-e`, `ye` or `ee` and the effect's text) or scoring name (gw
// for war, gw-defense for war-defense) followed by the mode's word; a side's play as
// `flexible`, `ordered` or `exact-ordered`, with `enemy:` for the defender.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** The parsed file: {about, peer, turn_limit, matchups}. */
export function loadRealCards() {
  return JSON.parse(readFileSync(join(root, 'tests/data/peer/real_cards.json'), 'utf8'));
}

const jobsByGames = new Map();

/** Our job document for matchup `m` of the file `ref` (loadRealCards), `games` games, seed 1:
 * bench/gpu_jobs.py's (`jobs GAMES`, run once per number of games). */
export function ourJob(ref, m, games) {
  if (!jobsByGames.has(games))
    jobsByGames.set(games, JSON.parse(execFileSync(
      'python3', ['-B', join(root, 'bench/gpu_jobs.py'), 'jobs', String(games)], { encoding: 'utf8' })));
  const doc = jobsByGames.get(games)[m.name];
  if (!doc || doc.params.turn_limit !== ref.turn_limit)
    throw new Error(`bench/gpu_jobs.py wrote no job for ${m.name} of this file`);
  return doc;
}

const peerScoring = { war: 'gw', 'war-defense': 'gw-defense' };

// Splits `-e "Enfeeble all 2"` into ['-e', 'Enfeeble all 2'], and `ye "A" ye "B"` into
// ['ye', 'A', 'ye', 'B'] (real-p25 gives the attacker two effects).
function effectArgs(text) {
  const args = [];
  const re = /\s*(\S+)\s+"([^"]*)"/y;
  let at = 0;
  for (let m; (m = re.exec(text)); at = re.lastIndex) args.push(m[1], m[2]);
  if (!args.length || at !== text.length) throw new Error(`peer_effect not understood: ${text}`);
  return args;
}

/** The peer's arguments for matchup `m` with `threads` threads and `games` games.
 * `isDominion(name)`, where given, says which of a side's `fortresses` is a dominion: the
 * peer plays a dominion first only from its deck string (its alpha dominion) and shuffles
 * one given with `yf`/`ef` among the fortresses, where Skirmish puts a side's dominion
 * first (docs/jobs.md, `fortresses`), so a dominion goes after the commander in the deck
 * string (bench/peer_fuzz.mjs seed 1208 #257: Bloodthirsty Nexus with `yf` played second
 * half of the games, peer 41.14% wins against ours 46.73%; from the deck string 47.63%). */
export function peerArgs(m, games, threads, isDominion = () => false) {
  // A mission or raid by name: the peer's "Name-N" for level N, the plain name for the top.
  const record = (side) => side.mission ?? side.raid;
  // The object form: its commander and deck as a deck string, its fortresses as the peer's
  // `yf`/`ef` (which take any card, a structure too, as Skirmish's `fortresses` do).
  const listed = (side) => [side.commander, ...(side.fortresses ?? []).filter(isDominion),
    ...side.deck.map((e) => ((e.count ?? 1) > 1 ? `${e.card}#${e.count}` : e.card))].join(', ');
  // A weighted list: the peer's "deckA:2;deckB:1".
  const deck = (side) => (typeof side === 'string' ? side
    : Array.isArray(side) ? side.map((d) => `${deck(d.deck)}:${d.weight}`).join(';')
    : Array.isArray(side.deck) ? listed(side)
      : side.deck ?? (side.level ? `${record(side)}-${side.level}` : record(side)));
  const args = [deck(m.attacker), deck(m.defender), '-t', String(threads), 'no-db'];
  for (const [side, flag] of [[m.attacker, 'yf'], [m.defender, 'ef']]) {
    const forts = (side.fortresses ?? []).filter((f) => !isDominion(f));
    if (forts.length) args.push(flag, forts.join(', '));
  }
  if (m.peer_effect) args.push(...effectArgs(m.peer_effect));
  if (m.scoring && m.scoring !== 'win') args.push(peerScoring[m.scoring] || m.scoring, m.mode);
  else if (m.peer_effect) args.push(m.mode);
  else if (m.mode === 'surge') args.push('-s');
  // A side's play: the peer's words (`ordered` is its `-r`; our `exact` its `exact-ordered`).
  const playWord = { flexible: 'flexible', ordered: 'ordered', exact: 'exact-ordered' };
  for (const [side, prefix] of [[m.attacker, ''], [m.defender, 'enemy:']])
    if (typeof side === 'object' && playWord[side.play]) args.push(prefix + playWord[side.play]);
  args.push('sim', String(games));
  return args;
}
