// SPDX-License-Identifier: MIT
// Every job document a user is handed runs to success on the catalog it is written for,
// through a live skirmish-api and skirmish-worker (the PostgreSQL and Redis of
// scripts/test.sh): examples/*.json on the built-in cards, examples/tu/*.json (the twins of
// the battle and optimize examples, and the README's real decks and missions) and the board
// examples, which name no card, on the game's cards (SKIRMISH_CARDS_DIR, the snapshot in
// ../shared/data/tu), and the example `make run` prints (scripts/run.sh --example) on each,
// run with bash as printed. Every battle and optimize example must have its twin of the
// game's cards. Jobs are cut to a few thousand games (params.games; an optimisation's
// budget.games and eval_games), as a user trying them would, so the test takes seconds.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { gameCards, harness, root, Stack, stopClean } from '../browser/stack.mjs';

const h = harness();
const EXAMPLES = path.join(root, 'examples');
const TU = path.join(EXAMPLES, 'tu');
const FINAL = ['succeeded', 'failed', 'canceled'];
const MAX_GAMES = 2000;

const jsonFiles = (dir) => readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
                                           .map((f) => path.join(dir, f));
const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
const rel = (file) => path.relative(root, file);

/** `doc` with at most MAX_GAMES games a side (battle) or a small search (optimize). */
function small(doc) {
  const d = structuredClone(doc);
  if (d.kind === 'battle') d.params.games = Math.min(d.params.games ?? 10000, MAX_GAMES);
  if (d.kind === 'optimize') {
    d.params.budget = { ...d.params.budget, games: Math.min(d.params.budget?.games ?? 100000, 4000) };
    d.params.eval_games = Math.min(d.params.eval_games ?? 10000, 500);
  }
  return d;
}

class Api {
  constructor(stack) { this.stack = stack; }

  async req(method, p, body) {
    const headers = { Authorization: `Bearer ${this.stack.adminKey}` };
    if (body) headers['Content-Type'] = 'application/json';
    const r = await fetch(`${this.stack.url}${p}`, { method, headers,
                                                     body: body && JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
  }

  /** Waits (long polls) until job `id` is final; returns the job. */
  async final(id) {
    for (;;) {
      const { status, body } = await this.req('GET', `/v1/jobs/${id}?wait=30`);
      assert.equal(status, 200);
      if (FINAL.includes(body.status)) return body;
    }
  }

  /** Submits every document (name -> doc) at once, then checks that each succeeded with a
   *  result; returns name -> result. */
  async runAll(docs, catalogName) {
    const ids = {};
    for (const [name, doc] of Object.entries(docs)) {
      const r = await this.req('POST', '/v1/jobs', doc);
      assert.equal(r.status, 202, `${name}: ${JSON.stringify(r.body)}`);
      ids[name] = r.body.id;
    }
    const results = {};
    for (const [name, id] of Object.entries(ids)) {
      const job = await this.final(id);
      assert.equal(job.status, 'succeeded', `${name}: ${JSON.stringify(job.error)}\n${this.stack.logs()}`);
      const r = await this.req('GET', `/v1/jobs/${id}/result`);
      assert.equal(r.status, 200, name);
      assert.ok(r.body && typeof r.body === 'object', `${name}: no result`);
      assert.equal(r.body.kind, docs[name].kind, name);
      if (r.body.kind === 'battle' || r.body.kind === 'optimize')
        assert.equal(r.body.catalog?.name, catalogName, `${name}: the cards of ${catalogName}`);
      results[name] = r.body;
    }
    return results;
  }
}

/** The example `make run` prints for `env` (scripts/run.sh --example), run with bash as a
 *  user pastes it; returns the id of the job it made. */
function runPrintedExample(stack, env) {
  const base = { ...process.env, SKIRMISH_HTTP_PORT: String(stack.port), SKIRMISH_AUTH: 'on' };
  delete base.SKIRMISH_CARDS_DIR;
  delete base.SKIRMISH_CARDS_FILE;
  const out = spawnSync('bash', [path.join(root, 'scripts/run.sh'), '--example'],
                        { env: { ...base, ...env }, encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const lines = out.stdout.split('\n');
  const start = lines.findIndex((l) => /^ {2}curl -s -X POST /.test(l));
  const end = lines.findIndex((l, i) => i >= start && /'$/.test(l) && i > start);
  assert.ok(start >= 0 && end > start, out.stdout);
  const cmd = lines.slice(start, end + 1).join('\n');
  const r = spawnSync('bash', ['-c', cmd], { encoding: 'utf8',
                                             env: { ...process.env, SKIRMISH_KEY: stack.adminKey } });
  assert.equal(r.status, 0, r.stderr);
  const job = JSON.parse(r.stdout);
  assert.equal(job.status, 'queued', r.stdout);
  return { id: job.id, text: out.stdout };
}

test('every battle and optimize example has a twin of the game cards in examples/tu/', () => {
  const kinds = {};
  for (const f of jsonFiles(EXAMPLES)) {
    const doc = read(f);
    kinds[doc.kind] = (kinds[doc.kind] || 0) + 1;
    if (doc.kind === 'board') continue; // a board game names no card
    const twin = path.join(TU, path.basename(f));
    assert.ok(existsSync(twin), `${rel(f)} has no twin ${rel(twin)}`);
    const t = read(twin);
    assert.equal(t.kind, doc.kind, rel(twin));
    // the twin keeps what the example shows: the same fields, inline cards, play, mode, state
    assert.deepEqual(Object.keys(t.params).sort(), Object.keys(doc.params).sort(), rel(twin));
  }
  assert.ok(kinds.battle >= 5 && kinds.optimize >= 1 && kinds.board >= 1, JSON.stringify(kinds));
});

for (const cat of [
  { name: 'built-in', env: {}, files: () => jsonFiles(EXAMPLES) },
  { name: gameCards, env: { SKIRMISH_CARDS_DIR: gameCards },
    files: () => [...jsonFiles(TU), ...jsonFiles(EXAMPLES).filter((f) => read(f).kind === 'board')] },
]) {
  describe(`on the ${cat.name === 'built-in' ? 'built-in' : "game's"} cards`, () => {
    let stack, api;

    before(async () => {
      stack = new Stack(h, cat.name === 'built-in' ? 'ex_builtin' : 'ex_game',
                        { SKIRMISH_AUTH: 'on', ...cat.env });
      await stack.start({ workers: 1, workerEnv: { SKIRMISH_DEVICE: 'cpu' } });
      api = new Api(stack);
    });

    after(async () => {
      await stopClean(stack);
    });

    test('every example job succeeds', async () => {
      const docs = Object.fromEntries(cat.files().map((f) => [rel(f), small(read(f))]));
      assert.ok(Object.keys(docs).length >= 8);
      const results = await api.runAll(docs, cat.name);
      for (const [name, res] of Object.entries(results)) {
        if (res.kind === 'battle') assert.ok(res.games > 0 && res.games <= 3 * MAX_GAMES, name);
        if (res.kind === 'optimize') assert.ok(res.best?.deck && res.start?.deck, name);
      }
    });

    test('the example make run prints succeeds', async () => {
      const { id, text } = runPrintedExample(stack, cat.env);
      if (cat.env.SKIRMISH_CARDS_DIR) assert.match(text, /the game's cards/);
      else assert.match(text, /the built-in cards/);
      assert.equal((await api.final(id)).status, 'succeeded');
      const r = await api.req('GET', `/v1/jobs/${id}/result`);
      assert.equal(r.body.catalog.name, cat.name);
      assert.equal(r.body.games, 1000);
    });
  });
}
