// SPDX-License-Identifier: MIT
// Deck optimisation on ten problems of the built-in catalog (docs/optimize.md): each is run
// with `skirmish run` twice on the same games budget, once racing candidates (the default:
// batches of 64 games, at most 2048 per candidate) and once giving every candidate a fixed
// 1000 games with one verdict at their end, and the table shows what each found: the final
// evaluation's improvement over the starting deck with its 95% interval, moves accepted,
// candidates tried, and wall time.
//   node bench/optimize.mjs [build dir] [budget games]    (default: build, 100000)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.resolve(root, process.argv[2] || 'build', 'skirmish');
const budget = Number(process.argv[3] || 100000);

const weak = 'Test Commander, Grunt#3, Plated Grunt#3, Barricade#2';
const problems = [
  { name: 'vs Hex Mistress grunts', attacker: weak, defender: 'Hex Mistress, Grunt#4' },
  {
    name: 'vs Barracus fortress',
    attacker: weak,
    defender: 'Barracus, Lightning Cannon, Chainslicer#3, Anvil#2, Iron Maiden#2, Tempest Keep',
  },
  { name: 'vs Iron Warden brutes', attacker: weak, defender: 'Iron Warden, Grunt#6, Brute#2' },
  {
    name: 'vs Vanguard rush',
    attacker: weak,
    defender: 'Vanguard Prime, Bloodfang#3, Warcaller#2, Venom Stalker#2',
  },
  {
    name: 'weighted field of three',
    attacker: weak,
    defender: [
      { deck: 'Hex Mistress, Grunt#4', weight: 2 },
      { deck: 'Iron Warden, Grunt#6, Brute#2', weight: 1 },
      { deck: 'Vanguard Prime, Bloodfang#3, Warcaller#2, Venom Stalker#2', weight: 1 },
    ],
  },
  {
    name: 'hex deck vs walls',
    attacker: 'Hex Mistress, Shock Trooper#3, Medic Drone#2, Hex Obelisk',
    defender: 'Iron Warden, Bulwark Knight#3, Shield Pylon#2, Anvil#2',
  },
  { name: 'surge vs Hex Mistress', attacker: weak, defender: 'Hex Mistress, Grunt#4', mode: 'surge' },
  {
    name: 'defence (win or stall) vs Barracus',
    attacker: weak,
    defender: 'Barracus, Lightning Cannon, Chainslicer#3, Anvil#2, Iron Maiden#2, Tempest Keep',
    objective: 'win_stall',
  },
  {
    name: 'ordered deck vs Iron Warden',
    attacker: { deck: 'Test Commander, Barricade#2, Grunt#3, Lead Dozer#2', play: 'ordered' },
    defender: 'Iron Warden, Grunt#6, Brute#2',
  },
  {
    name: 'reorder only vs Iron Warden',
    attacker: { deck: 'Test Commander, Barricade#2, Grunt#3, Lead Dozer#2', play: 'ordered' },
    defender: 'Iron Warden, Grunt#6, Brute#2',
    algorithm: 'reorder',
  },
];

function run(p, race) {
  const params = {
    attacker: p.attacker,
    defender: p.defender,
    pool: p.algorithm === 'reorder' ? [] : 'catalog',
    constraints: { deck_size: { min: 4, max: 10 }, commander: 'owned', max_copies: 3 },
    objective: p.objective || 'win',
    algorithm: p.algorithm || 'climb',
    budget: { games: budget },
    race,
    eval_games: 20000,
  };
  if (p.mode) params.mode = p.mode;
  const doc = JSON.stringify({ kind: 'optimize', seed: 7, params });
  const t0 = process.hrtime.bigint();
  const out = execFileSync(bin, ['run', '--threads', '1', '-'], { input: doc, maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { r: JSON.parse(out), ms };
}

const f = (x) => (x >= 0 ? '+' : '') + x.toFixed(3);
console.log(`budget ${budget} games per run, evaluation 20,000 games per deck, 1 thread\n`);
console.log('| problem | start score | racing: gain [95%] | moves / candidates | s | fixed 1000: gain [95%] | moves / candidates | s |');
console.log('|---|---:|---|---:|---:|---|---:|---:|');
for (const p of problems) {
  const a = run(p, { batch: 64, max_games: 2048 });
  const b = run(p, { batch: 1000, max_games: 1000 });
  const cell = ({ r, ms }) =>
    `${f(r.improvement)} [${f(r.improvement_ci95[0])}, ${f(r.improvement_ci95[1])}] | ` +
    `${r.moves_accepted} / ${r.candidates} | ${(ms / 1000).toFixed(1)}`;
  console.log(`| ${p.name} | ${a.r.start.score.toFixed(3)} | ${cell(a)} | ${cell(b)} |`);
}
