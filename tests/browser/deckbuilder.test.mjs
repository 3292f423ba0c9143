// SPDX-License-Identifier: MIT
// End-to-end test of examples/deckbuilder.html in headless Chromium: the page and the
// TypeScript client it imports are served from their own origin (a static server here), the
// API lists that origin in SKIRMISH_CORS_ORIGINS; the page loads the catalog, a deck is
// built by clicking, the battle is submitted through the client with an Idempotency-Key and
// followed by long polls (?wait=30), and the
// rates shown are the engine's for the same document and seed. Served from an origin the
// API does not list, the page cannot read the catalog.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { harness, launchBrowser, runCli, serveExample, Stack, stopClean } from './stack.mjs';

const h = harness();
let stack, browser, allowed, other, key;
const auth = () => ({ headers: { Authorization: `Bearer ${key}` } });
before(async () => {
  allowed = await serveExample();
  other = await serveExample();
  stack = new Stack(h, 'deck', { SKIRMISH_CORS_ORIGINS: allowed.origin, SKIRMISH_AUTH: 'on' });
  await stack.start({ workers: 1,
                      workerEnv: { SKIRMISH_DEVICE: 'cpu', SKIRMISH_ENGINE_THREADS: '1' } });
  // the page calls the API with a tenant key, as a deckbuilder site would
  key = stack.key({ tenant: 'deckbuilder' });
  browser = await launchBrowser(h);
});

after(async () => {
  await browser?.close();
  allowed?.server.close();
  other?.server.close();
  await stopClean(stack);
});

describe('deckbuilder example', () => {
  test('builds a deck, submits with an Idempotency-Key, long-polls, shows the result',
       async () => {
    const p = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors = [];
    p.on('pageerror', (e) => errors.push(e.message));
    const requests = [];
    p.on('request', (r) => requests.push({ method: r.method(), url: r.url(),
                                            headers: r.headers() }));
    await p.goto(`${allowed.origin}/examples/deckbuilder.html?api=${encodeURIComponent(stack.url)}#key=${key}`);
    const cards = await (await fetch(`${stack.url}/v1/cards`, auth())).json();
    await p.waitForFunction((n) => document.querySelector('#load-status').textContent ===
                                   `${n} cards`, cards.items.length);
    await p.selectOption('#commander', 'Barracus');
    const add = (name) => p.locator('#catalog tr', { hasText: name }).first()
                             .locator('button').click();
    for (let i = 0; i < 5; i++) await add('Chainslicer');
    for (let i = 0; i < 3; i++) await add('Iron Maiden');
    await add('Missile Silo');
    assert.equal(await p.textContent('#deck-size'), '9 cards (at most 50)');
    await p.selectOption('#opponent', 'grunts');
    await p.fill('#games', '20000');
    await p.click('#simulate');
    await p.waitForSelector('#result table', { timeout: 60000 });
    await p.screenshot({ path: path.join(h.artifacts, 'deckbuilder-result.png'),
                         fullPage: true });

    // exactly one job, made by one POST carrying an Idempotency-Key
    const list = await (await fetch(`${stack.url}/v1/jobs`, auth())).json();
    assert.equal(list.items.length, 1);
    const posts = requests.filter((r) => r.method === 'POST');
    assert.equal(posts.length, 1);
    assert.match(posts[0].headers['idempotency-key'], /^[0-9a-f-]{32,36}$/);
    assert.equal(posts[0].headers.authorization, `Bearer ${key}`);
    const polls = requests.filter((r) => r.method === 'GET' &&
                                        r.url.endsWith(`/v1/jobs/${list.items[0].id}?wait=30`));
    assert.ok(polls.length >= 1);

    // the rates are the engine's for the same document and the seed the API drew
    const job = list.items[0];
    const { result: want } = runCli(h, {
      kind: 'battle', seed: job.seed,
      params: { games: 20000,
                attacker: { commander: 'Barracus',
                            deck: [{ card: 'Chainslicer', count: 5 },
                                   { card: 'Iron Maiden', count: 3 },
                                   { card: 'Missile Silo', count: 1 }] },
                defender: { commander: 'Test Commander',
                            deck: [{ card: 'Brute', count: 4 }, { card: 'Grunt', count: 6 }] } },
    });
    const rows = await p.locator('#result tr').evaluateAll(
        (trs) => trs.slice(1).map((tr) => [...tr.cells].map((c) => c.textContent)));
    const pct = (x) => (100 * x).toFixed(2) + '%';
    assert.deepEqual(rows, ['win', 'stall', 'loss'].map((k) => [
      k, pct(want[`${k}_rate`]),
      `${pct(want[`${k}_rate_ci95`][0])} – ${pct(want[`${k}_rate_ci95`][1])}`]));
    assert.match(await p.textContent('#status'), new RegExp(`^20000 games, .* seed ${job.seed}$`));
    assert.deepEqual(errors, []);
    await p.close();
  });

  test('an origin the API does not list cannot read the catalog', async () => {
    const p = await browser.newPage();
    await p.goto(`${other.origin}/examples/deckbuilder.html?api=${encodeURIComponent(stack.url)}`);
    await p.waitForFunction(() => /could not load the catalog/.test(
        document.querySelector('#load-status').textContent));
    assert.equal(await p.locator('#catalog tbody tr').count(), 0);
    await p.close();
    // The page cannot tell why; the API's log names the origin it refused.
    const log = readFileSync(stack.procs[0].logFile, 'utf8');
    assert.match(log, new RegExp(`event=cors_refused .*origin="?${other.origin}"? `), stack.logs());
  });
});
