// SPDX-License-Identifier: MIT
// What the scripts that compare with the peer share: the peer's working folder, deck
// strings' names (bench/optimize_peer.mjs, bench/optimize_fund_peer.mjs), and the summary
// of a set of ratios (bench/peer_speed.mjs, bench/peer_instructions.mjs).
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new temporary folder (`prefix` names it) holding `peer/data/`, links to the game's
 * files of `cardsDir`, where the peer runs: {tmp, peerDir}. The caller removes `tmp`. */
export function peerWorkdir(cardsDir, prefix) {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const peerDir = join(tmp, 'peer');
  mkdirSync(join(peerDir, 'data'), { recursive: true });
  for (const f of readdirSync(cardsDir)) symlinkSync(join(cardsDir, f), join(peerDir, 'data', f));
  return { tmp, peerDir };
}

/** The names of a deck string, counts expanded ("Card#2" twice). */
export function names(deck) {
  const out = [];
  for (const raw of deck.split(',')) {
    const m = /^\s*(.*?)\s*(?:#(\d+))?\s*$/.exec(raw);
    for (let i = 0; i < Number(m[2] || 1); i++) out.push(m[1]);
  }
  return out;
}

/** The median and geometric mean of the numbers `rs` (at least one): {median, geo}. */
export function summary(rs) {
  const sorted = [...rs].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return {
    median: sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2,
    geo: Math.exp(rs.reduce((s, r) => s + Math.log(r), 0) / rs.length),
  };
}
