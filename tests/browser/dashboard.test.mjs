// SPDX-License-Identifier: MIT
// End-to-end test of the dashboard (served by skirmish-api at /) in headless Chromium
// against a real stack (API + one worker + PostgreSQL + Redis from scripts/test.sh):
// validation errors from the API appear next to the form's fields; a battle built from
// catalog cards in the form is submitted, its progress bar is seen between 0 and 100% and
// then at 100%, and the result drawn (rates, intervals, turn histogram) is exactly what the
// engine computes in-process for the same document. Also: the page degrades to "n/a" when
// /v1/stats and /v1/cards answer 404, starts from a catalog's own cards when no preset deck
// fits it, and the embedded files' HTTP headers. An optimize
// job's page shows its best deck while it runs, then both decks, the score chart and the
// accepted moves of its result. Screenshots go
// to $SKIRMISH_TEST_ARTIFACTS/browser (default $SKIRMISH_BIN_DIR/test-artifacts/browser).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { harness, launchBrowser, runCli, runCliAsync, Stack, stopClean } from './stack.mjs';

// The document the test builds in the form, step by step (see fillBattle).
const TURN_LIMIT = 50;
function battleDoc(games) {
  return {
    kind: 'battle', seed: 7,
    params: {
      games, mode: 'fight', turn_limit: TURN_LIMIT,
      attacker: { commander: 'Barracus', play: 'random',
                  deck: [{ card: 'Chainslicer', count: 5 }, { card: 'Iron Maiden', count: 3 },
                         { card: 'Missile Silo', count: 2 }] },
      defender: { commander: 'Iron Warden', play: 'random',
                  deck: [{ card: 'Iron Maiden', count: 4 }, { card: 'Anvil', count: 3 },
                         { card: 'Spiked Wall', count: 2 }] },
    },
  };
}

const pct = (x) => `${(100 * x).toFixed(2)}%`;
const int = (n) => n.toLocaleString('en-US');

const h = harness();
let stack, browser, job;

// Games for a job of about `ms` ms on one engine thread of this build (ASan is slower),
// from the time a short in-process run spent playing (its elapsed_ms), chunked so the
// progress bar moves about 20 times.
function sizeJob(ms) {
  const probe = 20000;
  const { result } = runCli(h, battleDoc(probe));
  const rate = probe / Math.max(result.elapsed_ms, 1);
  const games = Math.max(4000, Math.min(5_000_000, Math.round(rate * ms)));
  return { games, chunk: Math.max(1, Math.ceil(games / 20)) };
}

before(async () => {
  job = sizeJob(4000);
  // keys on, as `make run` has them: pages open with the admin key in the address
  stack = new Stack(h, 'dash', { SKIRMISH_CHUNK_UNITS: String(job.chunk), SKIRMISH_AUTH: 'on' });
  await stack.start({ workers: 1,
                      workerEnv: { SKIRMISH_DEVICE: 'cpu', SKIRMISH_ENGINE_THREADS: '1' } });
  browser = await launchBrowser(h);
});

after(async () => {
  await browser?.close();
  await stopClean(stack);
});

const auth = () => ({ headers: { Authorization: `Bearer ${stack.adminKey}` } });

async function newPage() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // Chromium logs every non-2xx fetch as "Failed to load resource"; the 422 and 404 answers
  // the tests provoke are expected, so only other console errors count.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/^Failed to load resource/.test(m.text()))
      problems.push(`console: ${m.text()}`);
  });
  page.problems = problems;
  return page;
}

const shot = (page, name) =>
  page.screenshot({ path: path.join(h.artifacts, name), fullPage: true });

// Sets the form to battleDoc(games) by using it as a person would.
async function fillBattle(page, games) {
  await page.fill('#f-games', String(games));
  await page.fill('#f-seed', '7');
  await page.selectOption('#f-mode', 'fight');
  await page.fill('#f-turn-limit', String(TURN_LIMIT));
  const att = page.locator('fieldset[data-side=attacker]');
  await att.locator('select[data-pointer="/params/attacker/commander"]').selectOption('Barracus');
  const rows = att.locator('.deck-row');
  await rows.nth(0).locator('select.card').selectOption('Chainslicer');
  await rows.nth(0).locator('input.count').fill('5');
  await rows.nth(1).locator('select.card').selectOption('Iron Maiden');
  await rows.nth(1).locator('input.count').fill('3');
  await att.locator('button.add-card').click();
  await att.locator('button.add-card').click();
  await rows.nth(3).locator('select.card').selectOption('Missile Silo');
  await rows.nth(3).locator('input.count').fill('2');
  await rows.nth(2).locator('button.remove').click(); // the rows after it move up
  assert.equal(await rows.count(), 3);
  assert.equal(await rows.nth(2).locator('input.count').getAttribute('data-pointer'),
               '/params/attacker/deck/2/count');
  const def = page.locator('fieldset[data-side=defender]');
  await def.locator('select[data-pointer="/params/defender/commander"]').selectOption('Iron Warden');
  const drows = def.locator('.deck-row');
  await drows.nth(0).locator('select.card').selectOption('Iron Maiden');
  await drows.nth(0).locator('input.count').fill('4');
  await drows.nth(1).locator('select.card').selectOption('Anvil');
  await drows.nth(1).locator('input.count').fill('3');
  await def.locator('button.add-card').click();
  await drows.nth(2).locator('select.card').selectOption('Spiked Wall');
  await drows.nth(2).locator('input.count').fill('2');
}

describe('dashboard', () => {
  test('serves its embedded files with types and ETags, and nothing else', async () => {
    const r = await fetch(`${stack.url}/`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(r.headers.get('cache-control'), 'no-cache');
    assert.match(r.headers.get('content-security-policy'), /default-src 'none'/);
    const etag = r.headers.get('etag');
    assert.match(etag, /^"[0-9a-f]{16}"$/);
    assert.match(await r.text(), /<title>Skirmish dashboard<\/title>/);
    const again = await fetch(`${stack.url}/`, { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    const js = await fetch(`${stack.url}/dashboard/app.js`);
    assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
    for (const p of ['/dashboard/nope.js', '/dashboard/%2e%2e/api/main.c', '/dashboard/app.js/']) {
      const nf = await fetch(`${stack.url}${p}`);
      assert.equal(nf.status, 404, p);
      assert.equal(nf.headers.get('content-type'), 'application/problem+json');
    }
  });

  test('shows validation errors next to the fields and creates no job', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/#key=${stack.adminKey}`);
    await page.waitForSelector('select[data-pointer="/params/attacker/commander"]');
    await page.fill('#f-games', '0');
    await page.locator('fieldset[data-side=attacker] .deck-row').nth(1).locator('input.count')
        .fill('51');
    await page.click('#f-submit');
    await page.waitForSelector('#form-errors:not([hidden])');
    const summary = await page.textContent('#form-errors');
    assert.match(summary, /422/);
    assert.match(summary, /\/params\/games: 'games' must be between 1 and 1000000000, not 0/);
    assert.match(summary, /\/params\/attacker\/deck\/1\/count: /);
    // each message sits next to its own field
    const games = page.locator('.field-error[data-for="/params/games"]');
    assert.equal(await games.textContent(), "'games' must be between 1 and 1000000000, not 0");
    assert.equal(await page.getAttribute('#f-games', 'aria-invalid'), 'true');
    const row = page.locator('fieldset[data-side=attacker] .deck-row').nth(1);
    assert.equal(await row.locator('.field-error').count(), 1);
    assert.match(await row.locator('.field-error').textContent(), /count/);
    assert.equal(await row.locator('input.count').getAttribute('aria-invalid'), 'true');
    await shot(page, 'dashboard-validation.png');
    const list = await (await fetch(`${stack.url}/v1/jobs`, auth())).json();
    assert.equal(list.items.length, 0);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('submits a battle from catalog cards, shows progress to 100% and the result',
       async () => {
    const doc = battleDoc(job.games);
    const page = await newPage();
    await page.goto(`${stack.url}/#key=${stack.adminKey}`);
    await page.waitForSelector('select[data-pointer="/params/attacker/commander"]');
    const cards = await (await fetch(`${stack.url}/v1/cards`, auth())).json();
    assert.equal(await page.textContent('#catalog-note'),
                 `${cards.items.length} catalog cards (GET /v1/cards)`);
    await page.waitForFunction(() => document.querySelector('#stat-workers').textContent === '1');
    await shot(page, 'dashboard-start.png');

    await fillBattle(page, job.games);
    await page.click('#f-submit');
    await page.waitForFunction(() => /^submitted /.test(
        document.querySelector('#submit-status').textContent));
    const id = (await page.textContent('#submit-status')).replace('submitted ', '');
    const bar = page.locator(`#jobs tr[data-job-id="${id}"] [role=progressbar]`);
    await bar.waitFor();

    // Watch the bar: every value it shows, a screenshot at the first partial one.
    const seen = [];
    let shotTaken = false;
    const end = Date.now() + 120000;
    for (;;) {
      const v = Number(await bar.getAttribute('aria-valuenow'));
      if (seen[seen.length - 1] !== v) seen.push(v);
      if (v > 0 && v < 100 && !shotTaken) {
        await shot(page, 'dashboard-running.png');
        shotTaken = true;
      }
      if (v === 100) break;
      assert.ok(Date.now() < end, `progress stuck at ${v}%: ${stack.logs()}`);
      await sleep(100);
    }
    assert.ok(seen.some((v) => v > 0 && v < 100), `no partial progress seen: ${seen}`);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] > seen[i - 1], `${seen}`);
    const row = page.locator(`#jobs tr[data-job-id="${id}"]`);
    await row.locator('.badge.succeeded').waitFor();
    assert.equal(await bar.locator('.bar-label').textContent(),
                 `100% (${int(job.games)}/${int(job.games)})`);
    // its cost: the API's estimate and the CPU its worker charged, as the job resource says
    const res = await (await fetch(`${stack.url}/v1/jobs/${id}`, auth())).json();
    assert.ok(res.cost.estimate_cpu_s > 0 && res.cost.cpu_s > 0, JSON.stringify(res.cost));
    await page.waitForFunction((want) => document.querySelector('#job-meta .cost')?.textContent === want,
      `${res.cost.estimate_cpu_s.toFixed(2)} CPU s estimated · ${res.cost.cpu_s.toFixed(2)} spent`);

    // The result panel (the submitted job is selected): rates, intervals and histogram
    // exactly as the engine computes them for the same document.
    await page.waitForSelector('#turn-chart');
    // (computed after the job, so the job has the machine's second core while it runs)
    const want = await runCliAsync(h, doc);
    for (const [name, count] of [['win', 'wins'], ['stall', 'stalls'], ['loss', 'losses']]) {
      const tr = page.locator(`#rates tr[data-outcome=${name}]`);
      const cells = await tr.locator('td').allTextContents();
      const ci = want[`${name}_rate_ci95`];
      assert.deepEqual(cells, [name, int(want[count]), pct(want[`${name}_rate`]),
                               `${pct(ci[0])} – ${pct(ci[1])}`]);
    }
    const bars = page.locator('#turn-chart rect.turn');
    assert.equal(await bars.count(), TURN_LIMIT);
    const heights = await bars.evaluateAll((rs) => rs.map((r) => Number(r.dataset.games)));
    assert.deepEqual(heights, want.turns.histogram);
    assert.equal(await page.locator('#rate-chart rect.rate').count(), 3);
    assert.ok((await page.textContent('#result-panel'))
                  .includes(`turns (mean ${want.turns.mean.toFixed(2)})`));
    await shot(page, 'dashboard-result.png');

    // The tiles: one worker, an empty queue, one succeeded job, games/s over the minute.
    await page.waitForFunction(() => /succeeded 1/.test(
        document.querySelector('#stat-status').textContent));
    assert.equal(await page.textContent('#stat-queue'), '0');
    assert.match(await page.textContent('#stat-throughput'), /^[0-9,]+$/);
    assert.match(await page.textContent('#workers tbody'), /worker0/);
    // the worker's card catalog: the API's, so no warning
    assert.match(await page.textContent('#workers tbody'), /[0-9a-f]{8}/);
    assert.doesNotMatch(await page.textContent('#workers tbody'), /not the API's/);
    // The jobs table's kind filter lists every kind, read from the API's OpenAPI document.
    await page.waitForFunction(() => document.querySelectorAll('#jobs-kind option').length > 1);
    assert.deepEqual(await page.locator('#jobs-kind option').evaluateAll(
        (os) => os.map((o) => o.value)), ['', 'battle', 'board', 'optimize']);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('takes the key from the address or its field, and keeps it out of the address', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/`);
    await page.waitForFunction(() => /needs a key/.test(document.querySelector('#key-note').textContent));
    await page.fill('#api-key', stack.adminKey);
    await page.click('#key-form button');
    await page.waitForFunction(() => document.querySelector('#stat-queue').textContent === '0');
    assert.equal(await page.evaluate(() => localStorage.getItem('skirmish.key')), stack.adminKey);
    await page.goto(`${stack.url}/#key=${stack.adminKey}`);
    await page.waitForFunction(() => location.hash === '');
    await page.waitForFunction(() => document.querySelector('#stat-queue').textContent === '0');
    // a tenant key: the service-wide tiles are for admin keys (403), so they show n/a
    const other = stack.key({ tenant: 'dash-other' });
    await page.fill('#api-key', other);
    await page.click('#key-form button');
    await page.waitForFunction(() => document.querySelector('#stat-queue').textContent === 'n/a');
    await page.close();
  });

  test('degrades to n/a when /v1/stats and /v1/cards answer 404', async () => {
    const page = await newPage();
    const notFound = (route) => route.fulfill({
      status: 404, contentType: 'application/problem+json',
      body: '{"type":"about:blank","title":"Not Found","status":404,"detail":"no such resource"}',
    });
    await page.route('**/v1/stats', notFound);
    await page.route('**/v1/cards', notFound);
    await page.goto(`${stack.url}/#key=${stack.adminKey}`);
    await page.waitForFunction(() => document.querySelector('#stat-queue').textContent === 'n/a');
    for (const id of ['#stat-workers', '#stat-queue', '#stat-running', '#stat-throughput'])
      assert.equal(await page.textContent(id), 'n/a');
    assert.match(await page.textContent('#workers-note'), /n\/a: this API has no GET \/v1\/stats/);
    assert.match(await page.textContent('#catalog-note'), /card catalog n\/a/);
    // without the catalog, card names are typed; the jobs table still fills
    const commander = page.locator('input[data-pointer="/params/attacker/commander"]');
    assert.equal(await commander.inputValue(), 'Test Commander');
    await page.waitForSelector('#jobs tbody tr');
    await shot(page, 'dashboard-degraded.png');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test("a catalog of one's own (no preset fits) starts from its first commander and cards",
       async () => {
    const page = await newPage();
    const own = [
      { name: 'Own Assault', type: 'assault', attack: 2, health: 9, delay: 1, skills: [] },
      { name: 'Own Boss', type: 'commander', health: 30, skills: [] },
      { name: 'Own Tower', type: 'structure', health: 12, delay: 2, skills: [] },
    ];
    await page.route('**/v1/cards', (route) => route.fulfill({
      status: 200, contentType: 'application/json',
      body: JSON.stringify({ items: own, count: 3, total: 3, next_cursor: null }) }));
    await page.goto(`${stack.url}/#key=${stack.adminKey}`);
    await page.waitForSelector('select[data-pointer="/params/defender/commander"]');
    assert.equal(await page.textContent('#catalog-note'), '3 catalog cards (GET /v1/cards)');
    for (const side of ['attacker', 'defender']) {
      const fs = page.locator(`fieldset[data-side=${side}]`);
      assert.equal(await fs.locator(`select[data-pointer="/params/${side}/commander"]`).inputValue(),
                   'Own Boss');
      assert.deepEqual(await fs.locator('.deck-row select.card').evaluateAll(
          (ss) => ss.map((x) => x.value)), ['Own Assault', 'Own Tower']);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('an optimisation: its best deck while it runs, then both decks, the score chart and the moves',
       async () => {
    const doc = {
      kind: 'optimize', seed: 11,
      params: {
        attacker: 'Test Commander, Grunt#3, Plated Grunt#3, Barricade#2',
        defender: [{ deck: 'Hex Mistress, Grunt#4', weight: 2 },
                   { deck: 'Iron Warden, Grunt#6, Brute#2', weight: 1 }],
        pool: [{ card: 'Chainslicer', count: 3 }, { card: 'Lead Dozer', count: 2 },
               { card: 'Bloodfang', count: 3 }, { card: 'Iron Warden' }],
        constraints: { deck_size: { min: 6, max: 10 }, commander: 'owned' },
        // three times the games of the 4-second battle: the search runs about 10 s here
        budget: { games: Math.max(1000, 3 * job.games) }, eval_games: 1000,
      },
    };
    // The job is submitted while the worker stands still and the page opens it queued: a
    // search of a few seconds was over before a loaded machine opened the page (CI,
    // 2026-12-06), and a finished job shows no progress.
    stack.pauseWorkers();
    let id;
    try {
      const r = await fetch(`${stack.url}/v1/jobs`, {
        method: 'POST', body: JSON.stringify(doc),
        headers: { ...auth().headers, 'Content-Type': 'application/json' },
      });
      assert.equal(r.status, 202);
      id = (await r.json()).id;
    } catch (e) {
      stack.pauseWorkers(false);
      throw e;
    }
    const page = await newPage();
    try {
      await page.goto(`${stack.url}/#key=${stack.adminKey}`);
      await page.waitForSelector('#jobs tbody tr');
      await page.goto(`${stack.url}/#/jobs/${id}`);
      await page.waitForFunction(() => /^queued: /.test(
          document.querySelector('#result-body')?.textContent || ''));
    } finally {
      stack.pauseWorkers(false);
    }
    // while it runs: what the worker reported (the detail of its progress)
    await page.waitForSelector('#opt-progress', { timeout: 60000 });
    // led by a commander of the job: with "commander": "owned" the search may already have
    // taken the pool's Iron Warden (it wins the same games sooner: the races' tie-break)
    assert.match(await page.textContent('#opt-best'), /^(Test Commander|Iron Warden), /);
    await shot(page, 'dashboard-optimize-running.png');
    await page.waitForSelector('#opt-chart', { timeout: 120000 });
    const res = await (await fetch(`${stack.url}/v1/jobs/${id}/result`, auth())).json();
    const decks = await page.locator('#opt-decks tbody tr').evaluateAll(
        (rows) => rows.map((tr) => tr.querySelectorAll('td')[0].textContent));
    assert.deepEqual(decks, [res.best.deck, res.start.deck]);
    assert.equal(await page.locator('#opt-moves tbody tr').count(), res.moves.length);
    assert.ok(res.moves.length >= 1);
    assert.equal(await page.locator('#opt-chart path.opt-line').count(), 1);
    assert.match(await page.textContent('#opt-gain'), /^improvement [+-]/);
    await shot(page, 'dashboard-optimize-result.png');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
