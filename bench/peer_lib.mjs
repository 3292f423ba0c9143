// SPDX-License-Identifier: MIT
// What the optimiser's comparisons with the peer (bench/optimize_peer.mjs,
// bench/optimize_fund_peer.mjs) share: the peer's working folder and deck strings' names.
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
