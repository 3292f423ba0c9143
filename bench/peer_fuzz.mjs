// SPDX-License-Identifier: MIT
// Differential fuzzing against the peer simulator (issue 48, items 1 and 2): draws random
// legal matchups from the game's cards, plays each on both simulators, reports the rates
// that differ beyond 4 standard errors (Holm-corrected across the run) and shrinks each
// divergence to a small matchup, printed in the format of tests/data/peer/real_cards.json
// with the peer's figures.
//
//   SKIRMISH_PEER=/path/to/tuo node bench/peer_fuzz.mjs [--seed S] [--matchups N]
//     [--games G] [--jobs J] [--shrink K] [--shrink-games G2] [--shrink-runs R]
//     [--only I,J,...] [--balanced] [--list] [--cards DIR] [--skirmish BIN]
//
// --seed S (default 1): the run's seed. Matchup I of seed S is the same on every machine
//   (its own generator is seeded from S and I), and so are the seeds both simulators play
//   it with (`skirmish run --seed`, the peer's `seed`, with the peer at `-t 1`, which makes
//   its games reproducible too): a run is reproduced exactly by its command line.
// --matchups N (default 100): how many matchups to draw. --only I,J plays those indexes
//   of the seed's draw (to replay a row of an earlier run); --list prints the drawn
//   matchups as JSON and plays nothing (but --balanced's screening).
// --balanced: a drawn matchup that our side plays more than 98% one way (win, stall or
//   loss) over 1,000 games is drawn again, up to 4 times (the last draw is kept): a
//   matchup decided every game tests nothing. This makes the draw depend on our engine's
//   results (seeded, so still reproducible on one commit); without it the draw depends on
//   the seed and the card files only.
// --games G (default 20,000): games a matchup on each side. The test is of the rates'
//   difference, z = Δ / sqrt(p(1-p)(1/n + 1/n)) as in bench/peer_diff.mjs, for the win,
//   stall and loss rates of every matchup played; a rate diverges when Holm's step-down
//   procedure over all of the run's tests rejects it at the family-wise level of one
//   two-sided 4σ test (p = 6.3e-5). At 20,000 games a side that finds differences of about
//   2.5 points near 50% (less near 0% or 100%); 0.3 points at 50% takes about 1,500,000
//   games a side over a few hundred tests.
//   A matchup beyond 4σ that meets one of docs/rules/battle.md's deliberate divergences
//   (where the peer is wrong and the engine keeps the game's rule: today Evolve into
//   Revenge, by any unit, mission's or raid's unit or effect that carries it) is listed as
//   "documented", counted apart in the summary, not shrunk, and does not fail the run.
// --jobs J (default 2): 2 runs our side and the peer's of one matchup at the same time,
//   1 one after the other. Both simulators run on one thread each.
// --shrink K (default 3): how many divergent matchups to shrink (0: none), the most
//   significant first. Shrinking first plays the matchup again at --shrink-games
//   (default 5 × G) with fresh seeds (the divergence is confirmed when a rate is at
//   |z| ≥ 4 there), then tries, one at a time, to drop an effect, a fortress, half of a
//   deck, a card, to give a both-sides effect to one side, or to lower a card's level to
//   1 or by one; a change is kept when the rate of the largest |z| still differs in the
//   same direction at |z| ≥ 4 at --shrink-games (fresh seeds each play), until no change
//   is kept or --shrink-runs (default 80) plays of both are spent. The shrunk matchup is
//   printed as one line of JSON in real_cards.json's format, the peer's figures those of
//   its last play (at --shrink-games: rerun it at 1,000,000 games before committing it).
//
// What a matchup is: for each side a commander and 4 to 10 cards (assaults and
// structures), each at a random level of its unit (`Name-N`, the top level by its plain
// name), units drawn with weights that grow with their skills and skill options (y, n, c,
// all, trigger, s, card_id), so that skill-rich cards come up more; sometimes one or two
// fortresses or dominions (the object form, the peer's `yf`/`ef`, a dominion in its deck
// string: bench/real_cards.mjs peerArgs); sometimes ordered or
// exact play on a side (the peer's `ordered`/`exact-ordered`, `enemy:` for the defender);
// sometimes, for the defender, one of the game's missions or raids at a random level
// (`{"mission": ..., "level": N}`, the peer's "Name-N"; names unique in their file); fight
// or surge; and
// sometimes battleground effects for both sides, the attacker or the defender: an
// activation skill ("Weaken all 6"; since 2026-12-06 also Jam and Overload with a target
// count, Mimic, Enhance of a skill and Evolve of one skill into another: "Jam 2",
// "Enhance all Rally 3", "Evolve 2 Pierce Rupture"), one of the peer's passive effects
// ("Bloodlust 2") or a named line of bges.txt ("Inspired"); sometimes (since 2026-12-06) a
// weighted list of two or three decks for the defender (the peer's "deckA:2;deckB:1", a
// job's list of {deck, weight}: compared on the weighted rates, each side's sample taken as
// n / Σ ŵ² games, ŵ the normalised weights, n the games a deck); and with --decks FILE,
// half the attackers are decks given (an optimiser's accepted decks, say: issue 48 item 4),
// with their defenders where the file gives them (a JSON list of deck strings, of
// {"attacker", "defender"} or of optimize results' `best.deck`, or one deck a line). The
// skill effects beyond "Skill [all] X", the lists and the given decks come from generators
// of their own, but a skill effect is one of the richer ones 3 times in 10: the matchups
// of earlier runs' seeds that drew a skill effect or a list may differ since (replay those
// rows at their commit). Cards are those of the game's files whose names
// are unique in them (a name two units share is a documented deliberate divergence,
// docs/rules/battle.md), with health at the level drawn (the files' dialogue cards have
// none) and names the deck syntax can carry, and none with a card id a later file gives
// again (since 2026-12-08, as the catalog: every seed's draw differs from before). A matchup our side refuses (exit 2: a value
// or skill form the engine does not play) or the peer rejects (an error, a warning, a
// resolved deck that is not the one written, no result) is skipped and counted; but since
// 2026-12-07 two refusals of what the draw chose are made playable first and both sides
// play it again (counted as "made playable"; the draw's numbers are unchanged): ordered or
// exact play for a mission or raid that draws its cards anew each game (card pools,
// level-ups), which the codec refuses, becomes random play for both; and a named line of
// bges.txt that holds no playable skill ("Asphodel Nexus:", "Blitzkrieg: Rush" with no X)
// is left out.
//
// Our side's job documents are written by bench/gpu_jobs.py (`docs`), the one writer of
// them; the peer's arguments by bench/real_cards.mjs (peerArgs) with its `seed` added. The
// peer is a binary the user built (never built, fetched or shipped by this repository),
// named by SKIRMISH_PEER; it runs in a temporary folder whose data/ links to the game's
// files, with `no-db`. Exit status 0 when the run found no divergence, 1 when it did, 2
// for a usage error.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { peerArgs } from './real_cards.mjs';

const root = new URL('..', import.meta.url).pathname;

// ---------------------------------------------------------------- options

function usage(msg) {
  console.error(`peer_fuzz: ${msg}\nusage: SKIRMISH_PEER=tuo node bench/peer_fuzz.mjs [--seed S] ` +
                '[--matchups N] [--games G] [--jobs J] [--shrink K] [--shrink-games G2] ' +
                '[--shrink-runs R] [--only I,J] [--balanced] [--list] [--decks FILE] [--cards DIR] ' +
                '[--skirmish BIN]');
  process.exit(2);
}

const opt = { seed: 1, matchups: 100, games: 20000, jobs: 2, shrink: 3, 'shrink-games': 0,
              'shrink-runs': 80, only: null, list: false, balanced: false,
              cards: join(root, '../shared/data/tu'), skirmish: join(root, 'build/skirmish'), decks: null };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--list' || a === '--balanced') { opt[a.slice(2)] = true; continue; }
  if (!a.startsWith('--') || !(a.slice(2) in opt) || i + 1 >= process.argv.length) usage(`bad argument ${a}`);
  const k = a.slice(2);
  const v = process.argv[++i];
  if (k === 'cards' || k === 'skirmish' || k === 'decks') opt[k] = v;
  else if (k === 'only') {
    opt.only = v.split(',').map(Number);
    if (opt.only.some((x) => !Number.isInteger(x) || x < 0)) usage('--only takes indexes from 0');
  } else {
    opt[k] = Number(v);
    if (!Number.isInteger(opt[k]) || opt[k] < 0) usage(`--${k} takes a whole number, not ${v}`);
  }
}
if (!opt['shrink-games']) opt['shrink-games'] = 5 * opt.games;
if (opt.games < 100 || opt['shrink-games'] < 100) usage('--games and --shrink-games must be at least 100');
if (opt.jobs < 1) usage('--jobs must be 1 or more');
const peer = process.env.SKIRMISH_PEER;
if (!peer && !opt.list) usage('set SKIRMISH_PEER to the peer simulator binary (tuo)');
const cardsDir = resolve(opt.cards);

// ---------------------------------------------------------------- random numbers

// splitmix32-style mixing of 32-bit words, and mulberry32 as each matchup's generator.
function mix(...words) {
  let h = 0x9e3779b9;
  for (const w of words) {
    h = Math.imul(h ^ (w >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}
function rng32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const int = (rng, lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));
const pick = (rng, xs) => xs[Math.floor(rng() * xs.length)];
function pickWeighted(rng, pool) {
  let r = rng() * pool.total;
  let lo = 0;
  let hi = pool.cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pool.cum[mid] > r) hi = mid; else lo = mid + 1;
  }
  return pool.units[lo];
}

// ---------------------------------------------------------------- the game's cards

function decode(s) {
  return s.replace(/&apos;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&').trim();
}
const key = (name) => name.toLowerCase().replace(/[\s;:,"'!]/g, '');
const field = (block, tag) => block.match(new RegExp(`<${tag}>([^<]*)</${tag}>`))?.[1];
const num = (s) => (s === undefined ? undefined : Number.parseInt(s, 10) || 0);
function skillsOf(block) {
  const out = [];
  for (const m of block.matchAll(/<skill\s([^>]*?)\/?>/g)) {
    const attrs = {};
    for (const a of m[1].matchAll(/([a-zA-Z0-9_]+)\s*=\s*["']([^"']*)["']/g)) attrs[a[1]] = a[2];
    if (attrs.id) out.push(attrs);
  }
  return out;
}
// The peer's (and the engine's) type ranges of unit ids, docs/cards.md.
function typeOf(id, set) {
  if ((id >= 1000 && id <= 1999) || (id >= 25000 && id <= 29999)) return 'commander';
  if (id >= 50001 && id <= 55000) return 'dominion';
  if ((id >= 2000 && id <= 2999) || (id >= 8000 && id <= 9999) || (id >= 17000 && id <= 24999))
    return (id >= 2700 && id <= 2996) || set === 8000 ? 'fortress' : 'structure';
  return 'assault';
}
const skillName = (id) => ({ armored: 'armor', besiege: 'mortar' })[id] ?? id;

/** The units of the game's files: {name, type, levels: [{health, skills}]}, names unique. */
function loadUnits(dir) {
  const units = [];
  const count = new Map();
  for (const f of readdirSync(dir).filter((x) => /^cards_section_\d+\.xml$/.test(x))) {
    const text = readFileSync(join(dir, f), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
    for (const m of text.matchAll(/<unit>([\s\S]*?)<\/unit>/g)) {
      const body = m[1];
      const cut = body.indexOf('<upgrade>');
      const head = cut < 0 ? body : body.slice(0, cut);
      const id = num(field(head, 'id'));
      const rawName = field(head, 'name');
      if (!id || rawName === undefined) continue;
      const name = decode(rawName);
      count.set(key(name), (count.get(key(name)) ?? 0) + 1);
      let cur = { id, renamed: false, health: num(field(head, 'health')) ?? 0, skills: skillsOf(head) };
      const levels = [cur];
      for (const u of body.slice(cut < 0 ? body.length : cut).matchAll(/<upgrade>([\s\S]*?)<\/upgrade>/g)) {
        if (field(u[1], 'card_id') === undefined) break;
        const sk = skillsOf(u[1]);
        // A level with a <name> of its own goes by that name from there on ("Shard
        // Controller" is "Gilian Shardkeeper" from level 8): cardName writes its id.
        cur = { id: num(field(u[1], 'card_id')), renamed: cur.renamed || field(u[1], 'name') !== undefined,
                health: num(field(u[1], 'health')) ?? cur.health, skills: sk.length ? sk : cur.skills };
        levels.push(cur);
      }
      units.push({ name, id, type: typeOf(id, num(field(head, 'set'))), levels, section: num(f.match(/\d+/)[0]) });
    }
  }
  // A card id a later section gives again belongs to that card: the catalog leaves the
  // earlier card out (docs/cards.md: Test Dis Structure's ids are Observation Axis' levels).
  const lastSection = new Map();
  for (const u of units)
    for (const l of u.levels) lastSection.set(l.id, Math.max(lastSection.get(l.id) ?? 0, u.section));
  const redefined = (u) => u.levels.some((l) => lastSection.get(l.id) > u.section);
  // Names the deck syntax carries as they are, and that name one unit only, at every level
  // (the peer warns about "Quartermaster XKR-2": a unit's name and another's level 2).
  const levelTaken = (u) => u.levels.some((_, n) => count.has(key(`${u.name}-${n + 1}`)));
  return units.filter((u) => count.get(key(u.name)) === 1 && !levelTaken(u) && !redefined(u) && /^[A-Za-z0-9][A-Za-z0-9 '.&?-]*$/.test(u.name) &&
                       !/-\d+$/.test(u.name) && u.levels.length <= 10);
}

// A unit's weight: (1 + its top level's skills and options / 2)^2.
function weight(u) {
  let k = 0;
  for (const s of u.levels.at(-1).skills) {
    k += 1;
    for (const o of ['y', 'n', 'c', 'all', 'trigger', 's', 'card_id']) if (o in s) k += 0.5;
  }
  return (1 + k / 2) ** 2;
}
function pool(units) {
  const cum = [];
  let total = 0;
  for (const u of units) cum.push((total += weight(u)));
  return { units, cum, total };
}

// ---------------------------------------------------------------- battleground effects

// Activation skills as effects, in the simple form both sides read: "Skill [all] X".
const SKILL_EFFECTS = ['strike', 'siege', 'mortar', 'enfeeble', 'weaken', 'sunder', 'heal', 'rally',
                       'protect', 'enrage', 'entrap', 'rush'];
// The peer's passive effects, with the range of X drawn (null: none is written).
const PASSIVES = [['Bloodlust', 1, 5], ['Brigade'], ['Unity'], ['Counterflux', 1, 3], ['EnduringRage', 1, 3],
                  ['Fortification', 1, 2], ['Heroism'], ['Devour', 1, 5], ['CriticalReach'], ['Revenge', 1, 10],
                  ['TurningTides'], ['ZealotsPreservation'], ['IronWill'], ['Metamorphosis'], ['Megamorphosis'],
                  ['SuperHeroism', 1, 5], ['OathOfLoyalty'], ['Devotion', 10, 100], ['Divert'], ['Virulence'],
                  ['Furiosity'], ['ColdSleep'], ['TemporalBacklash'], ['Crackdown'], ['HaltedOrders'],
                  ['BloodVengeance']];
function bgeNames(dir) {
  let text = '';
  try { text = readFileSync(join(dir, 'bges.txt'), 'utf8'); } catch { return []; }
  const names = [];
  for (const line of text.split('\n')) {
    const m = line.match(/^\s*([^/:"][^:"]*?)\s*:/);
    if (m && !names.includes(m[1])) names.push(m[1]);
  }
  return names;
}

// Missions and raids the defender may be: names unique in their file that the deck syntax
// carries, with their number of levels (missions 10, the peer's default; raids their
// <levels>).
function records(dir) {
  const out = [];
  for (const [file, kind, tag] of [['missions.xml', 'mission', 'mission'], ['raids.xml', 'raid', 'raid']]) {
    let text = '';
    try { text = readFileSync(join(dir, file), 'utf8'); } catch { continue; }
    const seen = new Map();
    for (const r of text.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))) {
      const name = r[1].match(/<name>([^<]*)<\/name>/)?.[1]?.trim();
      if (!name || !/<deck>/.test(r[1])) continue;
      const levels = kind === 'raid' ? Number(r[1].match(/<levels>(\d+)<\/levels>/)?.[1] ?? 1) : 10;
      // its units' ids (commander, cards), for the documented divergences (DELIBERATE)
      const ids = [...r[1].matchAll(/<(?:commander|card)>\s*(\d+)\s*</g)].map((x) => Number(x[1]));
      seen.set(name, seen.has(name) ? null : { kind, name, levels, ids });
    }
    for (const rec of seen.values())
      if (rec && /^[A-Za-z0-9][A-Za-z0-9 '.&?-]*$/.test(rec.name) && !/-\d+$/.test(rec.name)) out.push(rec);
  }
  return out;
}

// The deliberate divergences of docs/rules/battle.md ("Deliberate divergences") that a
// drawn matchup can meet: a matchup beyond 4σ that meets one is listed as documented, not
// as diverging, and is not shrunk (the draw is not changed: a seed's matchups stay those
// recorded). `ids`: the game's unit ids (any name, any level) that carry the rule's skill.
function deliberate(dir) {
  const evolveRevenge = new Set();
  for (const f of readdirSync(dir).filter((x) => /^cards_section_\d+\.xml$/.test(x))) {
    const text = readFileSync(join(dir, f), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
    for (const m of text.matchAll(/<unit>([\s\S]*?)<\/unit>/g))
      if (skillsOf(m[1]).some((k) => k.id === 'evolve' && k.s === 'payback' && k.s2 === 'revenge'))
        evolveRevenge.add(num(field(m[1], 'id')));
  }
  return [{
    // the peer's Evolve into Revenge takes the enemy's assaults (its revenge_on_death
    // mark); the game's, and ours, the caster's own (bench/peer_fuzz.mjs seed 1207 #392)
    name: 'Evolve into Revenge', ids: evolveRevenge,
    effect: (e) => e.name === 'evolve' && e.s === 'payback' && e.s2 === 'revenge',
  }];
}
// The deliberate divergence matchup `m` meets (its name), or null.
function documented(m, rules) {
  const sides = [...m.sides, ...(m.sides[1].others ?? []).map((o) => o.side)];
  for (const rule of rules) {
    if (m.effects.some((e) => e.kind === 'skill' && rule.effect(e))) return rule.name;
    for (const s of sides) {
      if (s.record?.ids?.some((id) => rule.ids.has(id))) return rule.name;
      if (cardsOf(s).some((c) => rule.ids.has(c.unit.id))) return rule.name;
    }
  }
  return null;
}

// ---------------------------------------------------------------- matchups

// A matchup while drawn and shrunk: {mode, sides: [att, def], effects}, a side {commander,
// deck, fortresses, play} of {unit, level} entries (play 'random', 'ordered' or 'exact'),
// or for the defender a record side {record: {kind, name, levels, level}, play} (commander
// null, no cards), an effect {kind, side, ...}.
const cardName = (c) => (c.unit.levels[c.level - 1].renamed ? `[${c.unit.levels[c.level - 1].id}]`
  : c.level === c.unit.levels.length ? c.unit.name : `${c.unit.name}-${c.level}`);
// A side's cards: none for a record side (its cards are the file's).
const cardsOf = (s) => (s.record ? [] : [s.commander, ...s.deck, ...s.fortresses]);
const health = (c) => c.unit.levels[c.level - 1].health > 0;

function drawCard(rng, p) {
  for (let t = 0; t < 100; t++) {
    const unit = pickWeighted(rng, p);
    const c = { unit, level: int(rng, 1, unit.levels.length) };
    if (health(c)) return c;
  }
  throw new Error('no card with health in 100 draws');
}

// The skills whose effect text has more than "Skill [all] X" (drawn from a generator of
// their own, rng3, so that the effects of earlier runs' seeds are drawn as they were): Jam
// and Overload take a target count ("Jam 2", "Overload all"), Mimic an X, Enhance a skill
// ("Enhance all Rally 3"), Evolve two ("Evolve 2 Pierce Rupture": the pairs the game's own
// effects and cards evolve).
const ENHANCED = ['armor', 'berserk', 'counter', 'enfeeble', 'evade', 'heal', 'leech', 'pierce', 'poison',
                  'protect', 'rally', 'siege', 'strike', 'weaken'];
const EVOLVED = [['pierce', 'rupture'], ['poison', 'venom'], ['weaken', 'sunder']];
function drawRichSkill(rng3, side) {
  const name = pick(rng3, ['jam', 'overload', 'mimic', 'enhance', 'evolve']);
  const all = rng3() < 0.5;
  const n = all ? 1 : int(rng3, 1, 3);
  if (name === 'jam' || name === 'overload') return { kind: 'skill', side, name, all, n, x: 0 };
  if (name === 'mimic') return { kind: 'skill', side, name, all: false, n: 1, x: pick(rng3, [5, 10, 15, 20, 30]) };
  if (name === 'enhance') return { kind: 'skill', side, name, all, n, s: pick(rng3, ENHANCED), x: int(rng3, 1, 6) };
  const [s, s2] = pick(rng3, EVOLVED);
  return { kind: 'skill', side, name, all, n, s, s2, x: 0 };
}

function drawEffect(rng, names, rng3) {
  const r = rng();
  const side = pick(rng, ['both', 'both', 'attacker', 'defender']);
  if (r < 0.4) {
    const e = { kind: 'skill', side, name: pick(rng, SKILL_EFFECTS), all: rng() < 0.6,
                x: pick(rng, [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20]) };
    return rng3 && rng3() < 0.3 ? drawRichSkill(rng3, side) : e;
  }
  if (r < 0.8 || !names.length) {
    const [name, lo, hi] = pick(rng, PASSIVES);
    return { kind: 'passive', side, name, x: lo === undefined ? null : int(rng, lo, hi) };
  }
  return { kind: 'named', side, name: pick(rng, names) };
}

// Decks given with --decks: a JSON list whose items are deck strings ("Commander, Card-3,
// Card#2"), objects with `attacker` (or `deck`) and optionally `defender` deck strings, or
// optimize results (`best.deck`, the deck the optimiser accepted); or a text file of one
// deck string a line. Returns [{attacker, defender}] of sides; a deck naming a card the
// fuzzer does not draw (a name two units share, no health at that level) is left out, said
// on stderr.
function loadDecks(file, units) {
  const byKey = new Map(units.map((u) => [key(u.name), u]));
  const text = readFileSync(file, 'utf8');
  let items;
  try { items = JSON.parse(text); } catch { items = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')); }
  if (!Array.isArray(items)) items = [items];
  const parse = (str) => {
    const cards = [];
    for (const part of str.split(',').map((x) => x.trim()).filter(Boolean)) {
      const [, name, count] = part.match(/^(.*?)(?:#(\d+))?$/);
      let unit = byKey.get(key(name));
      let level;
      const lv = name.match(/^(.*)-(\d+)$/);
      if (!unit && lv) {
        unit = byKey.get(key(lv[1]));
        level = Number(lv[2]);
      }
      if (!unit) throw new Error(`unknown card "${name}"`);
      level ??= unit.levels.length;
      const c = { unit, level };
      if (level > unit.levels.length || !health(c)) throw new Error(`no card "${name}"`);
      for (let i = 0; i < Number(count ?? 1); i++) cards.push({ ...c });
    }
    const [commander, ...rest] = cards;
    if (!commander || commander.unit.type !== 'commander') throw new Error('no commander first');
    return { commander, fortresses: rest.filter((c) => c.unit.type === 'fortress' || c.unit.type === 'dominion'),
             deck: rest.filter((c) => c.unit.type === 'assault' || c.unit.type === 'structure'), play: 'random' };
  };
  const out = [];
  for (const it of items) {
    const a = typeof it === 'string' ? it : it.attacker ?? it.deck ?? it.best?.deck ?? it.result?.best?.deck;
    const d = typeof it === 'string' ? undefined : it.defender;
    try {
      if (typeof a !== 'string') throw new Error('no deck string');
      out.push({ attacker: parse(a), defender: typeof d === 'string' ? parse(d) : null });
    } catch (e) {
      console.error(`peer_fuzz: --decks: left out ${JSON.stringify(a ?? it).slice(0, 80)}: ${e.message}`);
    }
  }
  return out;
}

function draw(seed, index, pools, attempt = 0) {
  const rng = rng32(attempt ? mix(seed, index, 0x5eed, attempt) : mix(seed, index, 0x5eed));
  const side = (r = rng) => {
    const s = { commander: drawCard(r, pools.commanders), deck: [], fortresses: [], play: 'random' };
    const n = int(r, 4, 10);
    for (let i = 0; i < n; i++) s.deck.push(drawCard(r, pools.deck));
    if (r() < 0.2) {
      const k = r() < 0.7 ? 1 : 2;
      // one dominion a side, as the game and the codec have it (a second is left out)
      const dominion = (c) => c.unit.type === 'dominion';
      for (let i = 0; i < k; i++) {
        const c = drawCard(r, pools.fortresses);
        if (!(dominion(c) && s.fortresses.some(dominion))) s.fortresses.push(c);
      }
    }
    return s;
  };
  // Play and records from a generator of their own, so that the cards and effects of a
  // seed's matchups are those drawn before these were (seed 48's #30 is drawn again).
  const rng2 = rng32(mix(seed, index, 0x0dd5, attempt));
  const play = () => { const r = rng2(); return r < 0.12 ? 'ordered' : r < 0.18 ? 'exact' : 'random'; };
  const mode = rng() < 0.5 ? 'fight' : 'surge'; // drawn before the sides, as it always was
  const sides = [side(), side()];
  if (pools.records.length && rng2() < 0.15) {
    // a raid a third of the time: there are 47 raids to 1,200 missions
    const want = rng2() < 1 / 3 ? 'raid' : 'mission';
    const of = pools.records.filter((r) => r.kind === want);
    const rec = pick(rng2, of.length ? of : pools.records);
    sides[1] = { record: { ...rec, level: int(rng2, 1, rec.levels) }, commander: null, deck: [], fortresses: [] };
  }
  for (const s of sides) s.play = play();
  // Sometimes a weighted list of two or three decks for the defender (the peer's
  // "deckA:2;deckB:1"), from a generator of its own (rng4): the drawn deck and one or two
  // more, decks only (random play, no fortresses: the peer's `ef` would give them to all).
  const rng4 = rng32(mix(seed, index, 0x3e1d, attempt));
  if (!sides[1].record && rng4() < 0.1) {
    const d = sides[1];
    d.fortresses = [];
    d.play = 'random';
    d.weight = int(rng4, 1, 4);
    d.others = [];
    for (let k = rng4() < 0.7 ? 1 : 2; k > 0; k--) {
      const o = side(rng4);
      o.fortresses = [];
      d.others.push({ side: o, weight: int(rng4, 1, 4) });
    }
  }
  // With --decks, half the attackers are a given deck (its defender with it, if given), from
  // a generator of their own (rng5).
  const rng5 = rng32(mix(seed, index, 0x0dec, attempt));
  if (pools.decks.length && rng5() < 0.5) {
    const g = pick(rng5, pools.decks);
    sides[0] = cloneSide(g.attacker);
    if (g.defender) sides[1] = cloneSide(g.defender);
  }
  const m = { mode, sides, effects: [] };
  const e = rng();
  const rng3 = rng32(mix(seed, index, 0x3ff3, attempt));
  if (e < 0.45) m.effects.push(drawEffect(rng, pools.bges, rng3));
  if (e < 0.12) m.effects.push(drawEffect(rng, pools.bges, rng3));
  return m;
}

const cap = (s) => s[0].toUpperCase() + s.slice(1);
// A skill effect as the peer's text reads it: "Skill [all | N] [s [s2]] [X]" (no X for Jam,
// Overload and Evolve, a count N only when above 1).
function skillText(e) {
  const words = [cap(e.name)];
  if (e.all) words.push('all');
  else if ((e.n ?? 1) > 1) words.push(String(e.n));
  if (e.s) words.push(cap(e.s));
  if (e.s2) words.push(cap(e.s2));
  if (e.x) words.push(String(e.x));
  return words.join(' ');
}
const effectText = (e) => (e.kind === 'skill' ? skillText(e)
  : e.kind === 'passive' ? `${e.name}${e.x === null ? '' : ` ${e.x}`}` : e.name);
// The game's name of a skill argument (`armored` for Armor).
const gameSkill = (k) => ({ armor: 'armored' })[k] ?? k;
function skillDoc(e) {
  const k = { name: e.name };
  if (e.x) k.x = e.x;
  if (e.all) k.all = true;
  else if ((e.n ?? 1) > 1) k.n = e.n;
  if (e.s) k.s = gameSkill(e.s);
  if (e.s2) k.s2 = gameSkill(e.s2);
  return k;
}
function effectDoc(e) {
  const d = e.kind === 'skill' ? { skill: skillDoc(e) }
    : e.kind === 'passive' ? { passive: e.name, ...(e.x === null ? {} : { x: e.x }) } : { name: e.name };
  if (e.side !== 'both') d.side = e.side;
  return d;
}

/** The matchup in the format of tests/data/peer/real_cards.json (no peer figures). */
function toFile(m, name) {
  const play = (s) => (s.play && s.play !== 'random' ? { play: s.play } : {});
  const sideOf = (s) => (s.record
    ? { [s.record.kind]: s.record.name, ...(s.record.level < s.record.levels ? { level: s.record.level } : {}),
        ...play(s) }
    : s.fortresses.length || (s.play && s.play !== 'random')
      ? { commander: cardName(s.commander), ...(s.fortresses.length ? { fortresses: s.fortresses.map(cardName) } : {}),
          deck: s.deck.map((c) => ({ card: cardName(c) })), ...play(s) }
      : [s.commander, ...s.deck].map(cardName).join(', '));
  const d = m.sides[1];
  const f = { name, mode: m.mode, attacker: sideOf(m.sides[0]),
              defender: d.others?.length
                ? [{ deck: sideOf(d), weight: d.weight }, ...d.others.map((o) => ({ deck: sideOf(o.side), weight: o.weight }))]
                : sideOf(d) };
  if (m.effects.length) {
    // Both sides' effects first: the peer casts its `-e` effects before a side's `ye`/`ee`
    // ones whatever their order on its command line, and a job casts them in its list's
    // order (seed 48's #70: "Weaken all 20" for both and "Sunder all 2" for the defender
    // played 100% wins for the peer and 100% stalls for us in the other order).
    const effects = [...m.effects.filter((e) => e.side === 'both'), ...m.effects.filter((e) => e.side !== 'both')];
    f.effects = effects.map(effectDoc);
    f.peer_effect = effects.map((e) => `${{ both: '-e', attacker: 'ye', defender: 'ee' }[e.side]} "${effectText(e)}"`)
      .join(' ');
  }
  const skills = new Set();
  for (const s of [...m.sides, ...(m.sides[1].others ?? []).map((o) => o.side)])
    for (const c of cardsOf(s))
      for (const k of c.unit.levels[c.level - 1].skills) skills.add(skillName(k.id));
  f.skills = [...skills].sort();
  return f;
}

// A one-line description for the table.
function brief(m) {
  const side = (s) => (s.record ? `${s.record.kind} ${s.record.name}-${s.record.level}`
    : `${cardName(s.commander)} +${s.deck.length}${s.fortresses.length ? ` f${s.fortresses.length}` : ''}`) +
    (s.play && s.play !== 'random' ? ` (${s.play})` : '');
  const who = { both: '', attacker: 'A:', defender: 'D:' };
  const eff = m.effects.map((e) => `${who[e.side]}${effectText(e)}`).join('; ');
  const list = (m.sides[1].others ?? []).map((o) => `; ${side(o.side)} ×${o.weight}`).join('');
  const w = list ? ` ×${m.sides[1].weight}` : '';
  return `${side(m.sides[0])} vs ${side(m.sides[1])}${w}${list}${eff ? ` · ${eff}` : ''}`;
}

// ---------------------------------------------------------------- the two simulators

function jobDocs(files, games) {
  return JSON.parse(execFileSync('python3', ['-B', join(root, 'bench/gpu_jobs.py'), 'docs', String(games)],
                                 { input: JSON.stringify(files), encoding: 'utf8', maxBuffer: 1 << 26 }));
}

function spawnText(cmd, args, opts, input) {
  return new Promise((res, rej) => {
    const p = spawn(cmd, args, { ...opts, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('error', rej);
    p.on('close', (code, signal) => res({ code, signal, out, err }));
    p.stdin.end(input ?? '');
  });
}

// Our side: {games, wins, stalls, losses} or {refused: reason}.
async function ours(doc, seed) {
  const r = await spawnText(opt.skirmish, ['run', '--device', 'cpu', '--threads', '1', '--seed', String(seed), '-'],
                            { env: { ...process.env, SKIRMISH_CARDS_DIR: cardsDir } }, JSON.stringify(doc));
  if (r.code !== 0) {
    const lines = r.err.split('\n').filter((l) => l && !l.includes('event=cards_note'));
    const why = (lines.at(-1) ?? `exit ${r.code}`).slice(0, 120);
    if (r.code === 2) return { refused: why };
    throw new Error(`skirmish failed (exit ${r.code}): ${why}`);
  }
  const j = JSON.parse(r.out);
  if (j.defenders) return mixture(j.defenders.map((d) => d.weight), j.defenders[0].games,
                                  [j.win_rate, j.stall_rate, j.loss_rate]);
  return { games: j.games, wins: j.wins, stalls: j.stalls, losses: j.losses };
}

// A weighted list's rates (Σ wᵢ·rateᵢ over decks of n games each) as counts of the one
// sample that has their variance for the z-test: n / Σ ŵᵢ² games (ŵ the normalised
// weights), each count its rate times that (not integers; the test needs none).
function mixture(weights, n, rates) {
  const total = weights.reduce((a, b) => a + b, 0);
  const games = n / weights.reduce((a, w) => a + (w / total) ** 2, 0);
  const [wins, stalls, losses] = rates.map((x) => x * games);
  return { games, wins, stalls, losses };
}

// The peer: {games, wins, stalls, losses} or {refused: reason}. Besides an error or no
// result, a warning (the peer drops a card it does not know and plays on) or a resolved
// deck of another length than the one written rejects the matchup.
async function theirs(file, m, games, seed, dir) {
  const args = peerArgs(file, games, 1, isDominion);
  args.splice(args.length - 2, 0, 'seed', String(seed));
  const r = await spawnText(peer, args, { cwd: dir });
  const text = `${r.out}\n${r.err}`;
  const bad = text.split('\n').find((l) => /^\s*(warning|error|unrecognized|unknown)\b|\b(warning|error):/i.test(l));
  // A peer killed by a signal (it aborts or crashes on a few of the files' cards) says which.
  if (r.code !== 0 || bad) return { refused: (bad ?? (r.signal ? `killed by ${r.signal}` : `exit ${r.code}`)).trim().slice(0, 120) };
  const lines = r.out.split('\n');
  // Each deck's card count, as resolved (a weighted list's decks in any order).
  const resolved = (label) => lines.flatMap((l, i) => (l.startsWith(label) && i + 1 < lines.length
    ? [lines[i + 1].split(',').length] : [])).sort((a, b) => a - b).join(',');
  const written = (ss) => ss.map((s) => 1 + s.deck.length + s.fortresses.length).sort((a, b) => a - b).join(',');
  const list = [m.sides[1], ...(m.sides[1].others ?? []).map((o) => o.side)];
  for (const [label, ss] of [['Your Deck:', [m.sides[0]]], ["Enemy's Deck:", list]]) {
    const n = resolved(label);
    if (!ss[0].record && n !== written(ss)) return { refused: `${label} resolved to ${n} cards, not ${written(ss)}` };
    if (ss[0].record && !n) return { refused: `${label} resolved to no cards` };
  }
  // "win%: 49.7337 (9932 9991 / 20000)": the weighted rate, each deck's count, its games.
  const rate = (w) => r.out.match(new RegExp(`^${w}%: (\\S+) \\(([\\d ]+) / (\\d+)\\)`, 'm'));
  const [wn, st, ls] = ['win', 'stall', 'loss'].map(rate);
  if (!wn || !st || !ls) return { refused: 'no result printed' };
  if (list.length > 1)
    return mixture([m.sides[1].weight, ...m.sides[1].others.map((o) => o.weight)], Number(wn[3]),
                   [wn, st, ls].map((x) => Number(x[1]) / 100));
  return { games: Number(wn[3]), wins: Number(wn[2]), stalls: Number(st[2]), losses: Number(ls[2]) };
}

async function both(file, m, doc, games, seed, dir) {
  const a = () => ours(doc, seed);
  const b = () => theirs(file, m, games, seed, dir);
  if (opt.jobs >= 2) return Promise.all([a(), b()]);
  const x = await a();
  return [x, x.refused ? { refused: 'not run' } : await b()];
}

// ---------------------------------------------------------------- statistics

function z(k1, n1, k2, n2) {
  const p = (k1 + k2) / (n1 + n2);
  const se = Math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
  return se > 0 ? (k1 / n1 - k2 / n2) / se : 0;
}
// erfc with relative error under 1.2e-7 everywhere (Numerical Recipes' erfcc).
function erfc(x) {
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const y = t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 +
    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 +
    t * 0.17087277)))))))));
  return x >= 0 ? y : 2 - y;
}
const pTwoSided = (zz) => erfc(Math.abs(zz) / Math.SQRT2);
const ALPHA = pTwoSided(4);
const RATE = ['win', 'stall', 'loss'];
// z of ours against the peer's for win, stall and loss.
const maxAbs = (zz) => Math.max(...zz.map(Math.abs));
const zText = (zz) => zz.map((x) => x.toFixed(1)).join(' / ');
const counts = (x) => ({ games: x.games, wins: x.wins, stalls: x.stalls, losses: x.losses });
const zs = (o, p) => [z(o.wins, o.games, p.wins, p.games), z(o.stalls, o.games, p.stalls, p.games),
                      z(o.losses, o.games, p.losses, p.games)];

// ---------------------------------------------------------------- shrinking

function cloneSide(s) {
  const c = { commander: s.commander && { ...s.commander }, deck: s.deck.map((x) => ({ ...x })),
              fortresses: s.fortresses.map((x) => ({ ...x })), play: s.play, record: s.record && { ...s.record } };
  if (s.others) {
    c.weight = s.weight;
    c.others = s.others.map((o) => ({ side: cloneSide(o.side), weight: o.weight }));
  }
  return c;
}
function clone(m) {
  return { mode: m.mode, effects: m.effects.map((e) => ({ ...e })), sides: m.sides.map(cloneSide) };
}
const sideSig = (s) => [s.play, s.record, s.weight ?? null,
  ...[s.commander, ...s.deck, null, ...s.fortresses].map((c) => (c ? [c.unit.id, c.level] : null)),
  ...(s.others ?? []).map((o) => [o.weight, sideSig(o.side)])];
const sig = (m) => JSON.stringify([m.mode, m.effects, m.sides.map(sideSig)]);

// The simpler matchups one step from m, the largest steps first.
function* candidates(m) {
  // A weighted list less one deck (the listed first deck gives way to the next one).
  const others = m.sides[1].others ?? [];
  for (let i = -1; i < others.length; i++) {
    if (!others.length) break;
    const c = clone(m);
    const d = c.sides[1];
    if (i >= 0) d.others.splice(i, 1);
    else {
      const [next] = d.others.splice(0, 1);
      Object.assign(d, { ...next.side, weight: next.weight, others: d.others });
    }
    if (!d.others.length) {
      delete d.others;
      delete d.weight;
    }
    yield c;
  }
  for (let i = 0; i < m.effects.length; i++) {
    const c = clone(m);
    c.effects.splice(i, 1);
    yield c;
  }
  for (let s = 0; s < 2; s++)
    for (let i = 0; i < m.sides[s].fortresses.length; i++) {
      const c = clone(m);
      c.sides[s].fortresses.splice(i, 1);
      yield c;
    }
  for (let s = 0; s < 2; s++) {
    const n = m.sides[s].deck.length;
    if (n >= 4) {
      const h = n >> 1;
      for (const [from, len] of [[0, h], [h, n - h]]) {
        const c = clone(m);
        c.sides[s].deck.splice(from, len);
        yield c;
      }
    }
  }
  for (let s = 0; s < 2; s++)
    for (let i = 0; m.sides[s].deck.length > 1 && i < m.sides[s].deck.length; i++) {
      const c = clone(m);
      c.sides[s].deck.splice(i, 1);
      yield c;
    }
  for (let i = 0; i < m.effects.length; i++)
    if (m.effects[i].side === 'both')
      for (const side of ['attacker', 'defender']) {
        const c = clone(m);
        c.effects[i].side = side;
        yield c;
      }
  for (let s = 0; s < 2; s++)
    if (m.sides[s].play && m.sides[s].play !== 'random') {
      const c = clone(m);
      c.sides[s].play = 'random';
      yield c;
    }
  for (let s = 0; s < 2; s++) {
    const r = m.sides[s].record;
    for (const level of r && r.level > 2 ? [1, r.level - 1] : r && r.level > 1 ? [1] : []) {
      const c = clone(m);
      c.sides[s].record.level = level;
      yield c;
    }
  }
  for (let s = 0; s < 2; s++) {
    const all = cardsOf(m.sides[s]);
    for (let i = 0; i < all.length; i++)
      for (const level of all[i].level > 2 ? [1, all[i].level - 1] : all[i].level > 1 ? [1] : []) {
        const c = clone(m);
        const cs = cardsOf(c.sides[s]);
        cs[i].level = level;
        if (health(cs[i])) yield c;
      }
  }
}

// The divergence that shrinking keeps is the one found: the rate `j` of the largest |z| in
// the fuzz run, in the same direction (`sign`), still at |z| ≥ 4.
async function shrink(m, index, j, sign, dir) {
  const games = opt['shrink-games'];
  let runs = 0;
  const judge = async (c) => {
    runs++;
    const file = toFile(c, 'x');
    const [doc] = jobDocs([file], games);
    const seed = mix(opt.seed, index, 0x5a1, runs) & 0x7fffffff;
    const [o, p] = await both(file, c, doc, games, seed, dir);
    if (o.refused || p.refused) return null;
    const zz = zs(o, p);
    return { o, p, zz, holds: Math.sign(zz[j]) === sign && Math.abs(zz[j]) >= 4 };
  };
  const log = (s) => console.error(`peer_fuzz: shrinking #${index}: ${s}`);
  let best = await judge(m);
  if (!best?.holds) {
    log(`not confirmed at ${games} games (${RATE[j]} z ${best ? best.zz[j].toFixed(1) : 'refused'})`);
    return { confirmed: false, first: best };
  }
  log(`confirmed at ${games} games, ${RATE[j]} z ${best.zz[j].toFixed(1)}`);
  const first = best;
  let cur = m;
  const tried = new Set([sig(m)]);
  for (let changed = true; changed && runs < opt['shrink-runs'];) {
    changed = false;
    for (const c of candidates(cur)) {
      if (runs >= opt['shrink-runs']) break;
      const s = sig(c);
      if (tried.has(s)) continue;
      tried.add(s);
      const r = await judge(c);
      if (r?.holds) {
        cur = c;
        best = r;
        changed = true;
        log(`kept (${RATE[j]} z ${r.zz[j].toFixed(1)}): ${brief(c)}`);
        // the whole matchup too, so that a run stopped while shrinking keeps its progress
        console.error(JSON.stringify({ ...toFile(c, `fuzz-s${opt.seed}-${index}-shrunk`), peer: counts(r.p) }));
        break;
      }
    }
  }
  return { confirmed: true, first, m: cur, best, runs, done: runs < opt['shrink-runs'] };
}

// ---------------------------------------------------------------- the run

const units = loadUnits(cardsDir);
const rules = deliberate(cardsDir);
// A side's dominion goes to the peer in its deck string, not `yf`/`ef` (peerArgs).
const dominions = new Set(units.filter((u) => u.type === 'dominion').map((u) => key(u.name)));
const isDominion = (name) => dominions.has(key(name.replace(/-\d+$/, '')));
const pools = {
  commanders: pool(units.filter((u) => u.type === 'commander')),
  deck: pool(units.filter((u) => u.type === 'assault' || u.type === 'structure')),
  fortresses: pool(units.filter((u) => u.type === 'fortress' || u.type === 'dominion')),
  bges: bgeNames(cardsDir),
  records: records(cardsDir),
};
pools.decks = opt.decks ? loadDecks(opt.decks, units) : [];
if (opt.decks && !pools.decks.length) usage(`--decks ${opt.decks}: no deck the fuzzer can play`);
const indexes = opt.only ?? [...Array(opt.matchups).keys()];
let redrawn = 0;
// --balanced: a draw that our side plays at more than 98% one way over 1,000 games is
// drawn again (at most 4 times), as real_cards.json's matchups were chosen; --jobs draws
// at once.
async function drawOne(i) {
  let m = draw(opt.seed, i, pools);
  for (let a = 1; opt.balanced && a <= 4; a++) {
    const [doc] = jobDocs([toFile(m, 'x')], 1000);
    const r = await ours(doc, 1);
    if (!r.refused && Math.max(r.wins, r.stalls, r.losses) <= 0.98 * r.games) break;
    m = draw(opt.seed, i, pools, a);
    redrawn++;
  }
  return { i, m };
}
const drawn = [];
for (let k = 0; k < indexes.length; k += opt.jobs)
  drawn.push(...await Promise.all(indexes.slice(k, k + opt.jobs).map(drawOne)));
// (process.exit would cut a long listing short on a pipe: stdout is written asynchronously.)
if (opt.list) console.log(JSON.stringify(drawn.map(({ i, m }) => toFile(m, `fuzz-s${opt.seed}-${i}`)), null, 1));
else await fuzz();

// Makes drawn matchup `m` playable after our side refused it for `why` (fuzz, above): returns
// what was changed, or null when the refusal is not one of these.
function legalise(m, why) {
  if (/^\/params\/defender\/play: this (mission|raid) draws its cards anew/.test(why) &&
      m.sides[1].record && m.sides[1].play !== 'random') {
    const was = m.sides[1].play;
    m.sides[1].play = 'random';
    return `made playable: its ${m.sides[1].record.kind} draws its cards anew each game, played at random (was ${was})`;
  }
  const e = why.match(/^\/params\/effects\/\d+\/name: effect "([^"]+)" (names no skill|.*cannot be played)/);
  const at = e ? m.effects.findIndex((x) => x.kind === 'named' && x.name === e[1]) : -1;
  if (at < 0) return null;
  m.effects.splice(at, 1);
  return `made playable: the effect "${e[1]}" holds no playable skill, left out`;
}

async function fuzz() {
  const tmp = mkdtempSync(join(tmpdir(), 'skirmish-peer-fuzz-'));
  const peerDir = join(tmp, 'peer');
  mkdirSync(join(peerDir, 'data'), { recursive: true });
  for (const f of readdirSync(cardsDir)) symlinkSync(join(cardsDir, f), join(peerDir, 'data', f));
  process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

  const t0 = Date.now();
  const files = drawn.map(({ i, m }) => toFile(m, `fuzz-s${opt.seed}-${i}`));
  const docs = jobDocs(files, opt.games);
  const rows = [];
  let refusedOurs = 0;
  let refusedPeer = 0;
  let adjusted = 0;
  for (let k = 0; k < drawn.length; k++) {
    const { i, m } = drawn[k];
    const seed = mix(opt.seed, i, 0x9a3e) & 0x7fffffff;
    let [o, p] = await both(files[k], m, docs[k], opt.games, seed, peerDir);
    // A draw our side refuses for what the draw itself chose, not the cards, is made playable
    // and played again by both (the draw's numbers unchanged: the seed's other matchups stay
    // the same): a mission or raid that draws its cards anew each game plays at random (the
    // codec refuses another play for it), and a named effect of bges.txt that holds no
    // playable skill ("Asphodel Nexus:", "Blitzkrieg: Rush" without its X) is left out.
    const fix = o.refused && legalise(m, o.refused);
    if (fix) {
      files[k] = toFile(m, `fuzz-s${opt.seed}-${i}`);
      [docs[k]] = jobDocs([files[k]], opt.games);
      [o, p] = await both(files[k], m, docs[k], opt.games, seed, peerDir);
      adjusted++;
      console.error(`peer_fuzz: #${i} ${fix}`);
    }
    const row = { i, m, o, p };
    if (o.refused) refusedOurs++;
    else if (p.refused) refusedPeer++;
    else row.zz = zs(o, p);
    rows.push(row);
    // As it goes (the table waits for the run's end): skips and rates at |z| ≥ 3.
    if (!row.zz) console.error(`peer_fuzz: #${i} skipped: ${o.refused ? `ours: ${o.refused}` : `peer: ${p.refused}`}`);
    else if (maxAbs(row.zz) >= 3) console.error(`peer_fuzz: #${i} z ${zText(row.zz)}: ${brief(m)}`);
    if ((k + 1) % 10 === 0)
      console.error(`peer_fuzz: ${k + 1} of ${drawn.length} (${Math.round((Date.now() - t0) / 1000)} s)`);
  }

  // Holm's step-down procedure over every rate of every matchup played.
  const tests = [];
  for (const r of rows) if (r.zz) r.zz.forEach((zz, j) => tests.push({ r, j, zz, p: pTwoSided(zz) }));
  tests.sort((a, b) => a.p - b.p);
  for (let k = 0; k < tests.length && tests[k].p <= ALPHA / (tests.length - k); k++) {
    tests[k].r.diverges ??= [];
    tests[k].r.diverges.push(tests[k].j);
  }
  for (const r of rows) if (r.diverges) r.documented = documented(r.m, rules);

  const pct = (x, n) => (100 * x / n).toFixed(2);
  const wsl = (x) => `${pct(x.wins, x.games)} / ${pct(x.stalls, x.games)} / ${pct(x.losses, x.games)}`;
  console.log(`peer_fuzz --seed ${opt.seed} --games ${opt.games}: ${drawn.length} matchups; peer ${peer} -t 1; ` +
              `cards ${cardsDir}`);
  console.log('| # | mode | matchup (commander +cards, fortresses · effects) | peer win / stall / loss % | ours | ' +
              'z (win / stall / loss) | |');
  console.log('|---:|---|---|---|---|---|---|');
  for (const r of rows) {
    const head = `| ${r.i} | ${r.m.mode} | ${brief(r.m)} |`;
    if (r.o.refused) console.log(`${head} | | | skipped: ours refused: ${r.o.refused.replace(/\|/g, '/')} |`);
    else if (r.p.refused) console.log(`${head} | | | skipped: peer rejected: ${r.p.refused.replace(/\|/g, '/')} |`);
    else console.log(`${head} ${wsl(r.p)} | ${wsl(r.o)} | ${zText(r.zz)} | ` +
                     `${r.diverges ? `${r.documented ? `documented (${r.documented}):` : 'DIVERGES'} ` +
                                     `(${r.diverges.map((j) => RATE[j]).join(', ')})` : ''} |`);
  }
  const played = rows.filter((r) => r.zz);
  const divergent = played.filter((r) => r.diverges && !r.documented);
  const known = played.filter((r) => r.diverges && r.documented);
  const worst = played.reduce((a, r) => (!a || maxAbs(r.zz) > maxAbs(a.zz) ? r : a), null);
  const zHolm = tests.length ? Math.SQRT2 * inverseErfc(ALPHA / tests.length) : 4;
  console.log(`\nseed ${opt.seed}: ${drawn.length} drawn${opt.balanced ? ` (${redrawn} redrawn by --balanced)` : ''}, ` +
              `${played.length} played at ${opt.games} games a side, ` +
              `${refusedOurs + refusedPeer} skipped (ours refused ${refusedOurs}, peer rejected ${refusedPeer}), ` +
              `${adjusted} made playable; ` +
              `${divergent.length + known.length} beyond 4σ after Holm over ${tests.length} tests (the first needs |z| ≥ ` +
              `${zHolm.toFixed(2)}); largest |z| ${worst ? maxAbs(worst.zz).toFixed(1) : '—'}` +
              `${worst ? ` (#${worst.i})` : ''}; ${Math.round((Date.now() - t0) / 1000)} s` +
              `${known.length ? `; of those beyond, ${known.length} documented deliberate divergences (` +
                 `${known.map((r) => `#${r.i}: ${r.documented}`).join(', ')}), ${divergent.length} not` : ''}`);

  // erfc⁻¹ by bisection (for the summary's threshold only).
  function inverseErfc(p) {
    let lo = 0;
    let hi = 40;
    for (let k = 0; k < 200; k++) {
      const mid = (lo + hi) / 2;
      if (erfc(mid) > p) lo = mid; else hi = mid;
    }
    return (lo + hi) / 2;
  }

  // Shrinking, the most significant first.
  divergent.sort((a, b) => maxAbs(b.zz) - maxAbs(a.zz));
  for (const r of divergent) {
    const f = files[rows.indexOf(r)];
    console.log(`\n#${r.i} diverges: ${JSON.stringify({ ...f, peer: counts(r.p) })}`);
  }
  for (const r of divergent.slice(0, opt.shrink)) {
    const j = r.zz.reduce((a, x, k) => (Math.abs(x) > Math.abs(r.zz[a]) ? k : a), 0);
    const s = await shrink(r.m, r.i, j, Math.sign(r.zz[j]), peerDir);
    console.log(`\n#${r.i} (${brief(r.m)}):`);
    if (!s.confirmed) {
      console.log(`not confirmed at ${opt['shrink-games']} games a side with fresh seeds` +
                  `${s.first ? `: peer ${wsl(s.first.p)}, ours ${wsl(s.first.o)}, z ${zText(s.first.zz)}` : ''}`);
      continue;
    }
    const f = toFile(s.m, `fuzz-s${opt.seed}-${r.i}-shrunk`);
    f.peer = counts(s.best.p);
    console.log(`confirmed at ${opt['shrink-games']} games (z ${zText(s.first.zz)}); ` +
                `shrunk in ${s.runs} plays${s.done ? '' : ' (stopped by --shrink-runs)'} to ${brief(s.m)}: ` +
                `peer ${wsl(s.best.p)}, ours ${wsl(s.best.o)}, z ${zText(s.best.zz)}`);
    console.log(JSON.stringify(f));
  }
  process.exitCode = divergent.length ? 1 : 0;
}
