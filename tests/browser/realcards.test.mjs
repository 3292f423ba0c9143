// SPDX-License-Identifier: MIT
// The dashboard and examples/deckbuilder.html in headless Chromium against a stack that
// loaded the game's own catalog (SKIRMISH_CARDS_DIR=../shared/data/tu: about 54,000 cards,
// 2,486 commanders, far more than one page of GET /v1/cards). In each page a real deck is
// built from scratch: a card found by the name search (paged as the user types, "more"
// following next_cursor), added, a commander picked from every commander, the battle
// submitted and its result shown; the page's defaults run as they are; a deck string with a
// typo shows the API's did-you-mean next to the box and makes no job. Screenshots:
// dashboard-real-search.png, dashboard-real-result.png, dashboard-real-typo.png,
// deckbuilder-real-result.png, deckbuilder-real-typo.png. An optimisation with a fund shows
// the SP spent and each card made (dashboard-real-fund.png).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { gameCards, harness, launchBrowser, root, serveExample, Stack, stopClean } from './stack.mjs';

const h = harness();
let stack, browser, example, key, commanders, cardTotal;
const auth = () => ({ headers: { Authorization: `Bearer ${stack.adminKey}` } });
const GAMES = 2000;

async function get(p) {
  const r = await fetch(`${stack.url}${p}`, auth());
  assert.equal(r.status, 200, `GET ${p}`);
  return r.json();
}

// Every commander's name, page after page, as the pages should read them.
async function allCommanders() {
  const names = [];
  let cursor = null;
  do {
    const page = await get(`/v1/cards?type=commander&limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
    names.push(...page.items.map((c) => c.name));
    cursor = page.next_cursor;
  } while (cursor);
  return names;
}

async function jobCount() {
  return (await get('/v1/jobs?limit=100')).items.length;
}

async function waitFinal(id) {
  for (;;) {
    const job = await get(`/v1/jobs/${id}?wait=30`);
    if (['succeeded', 'failed', 'canceled'].includes(job.status)) return job;
  }
}

before(async () => {
  example = await serveExample();
  stack = new Stack(h, 'real', { SKIRMISH_CARDS_DIR: gameCards, SKIRMISH_AUTH: 'on',
                                 SKIRMISH_CORS_ORIGINS: example.origin });
  await stack.start({ workers: 1,
                      workerEnv: { SKIRMISH_DEVICE: 'cpu', SKIRMISH_ENGINE_THREADS: '1' } });
  key = stack.key({ tenant: 'deckbuilder' });
  commanders = await allCommanders();
  cardTotal = (await get('/v1/cards?limit=1')).total;
  assert.ok(commanders.length > 1000 && cardTotal > 50000, `${commanders.length} ${cardTotal}`);
  browser = await launchBrowser(h);
});

after(async () => {
  await browser?.close();
  example?.server.close();
  await stopClean(stack);
});

async function newPage(viewport = { width: 1400, height: 1000 }) {
  const page = await browser.newPage({ viewport });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // the 422s the tests provoke are logged by Chromium as "Failed to load resource"
  page.on('console', (m) => {
    if (m.type() === 'error' && !/^Failed to load resource/.test(m.text()))
      problems.push(`console: ${m.text()}`);
  });
  page.problems = problems;
  return page;
}

const shot = (page, name) =>
  page.screenshot({ path: path.join(h.artifacts, name), fullPage: true });

describe('the dashboard on the game catalog', () => {
  test('builds a real deck from scratch: search, add, commander, submit, result', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/#key=${stack.adminKey}`);
    const pick = page.locator('select[data-pointer="/params/attacker/commander"]');
    await page.waitForFunction((n) => document.querySelectorAll(
        'select[data-pointer="/params/attacker/commander"] option').length === n, commanders.length);
    // every commander, in the API's order, in both pickers; the game's default decks
    assert.deepEqual(await pick.locator('option').evaluateAll((os) => os.map((o) => o.value)),
                     commanders);
    assert.equal(await page.locator('select[data-pointer="/params/defender/commander"] option').count(),
                 commanders.length);
    assert.equal(await pick.inputValue(), 'Octane-1');
    assert.match(await page.textContent('#catalog-note'),
                 new RegExp(`^${cardTotal.toLocaleString('en-US')} catalog cards`));

    // from scratch: no deck card left
    const att = page.locator('fieldset[data-side=attacker]');
    const rows = att.locator('.deck-row');
    while (await rows.count()) await rows.first().locator('button.remove').click();

    // the search pages: "marine" matches more than a page; "more" reads the next one
    const marine = await get('/v1/cards?name=marine&limit=1');
    assert.ok(marine.total > 25, `${marine.total}`);
    await page.fill('#card-q', 'marine');
    await page.waitForFunction(() => document.querySelectorAll('#card-results tr').length === 25);
    assert.equal(await page.textContent('#card-search-note'), `25 of ${marine.total} cards`);
    await page.click('#card-more');
    const second = Math.min(50, marine.total);
    await page.waitForFunction((n) => document.querySelectorAll('#card-results tr').length === n,
                               second);
    const names = await page.locator('#card-results tr').evaluateAll(
        (trs) => trs.map((tr) => tr.dataset.card));
    assert.equal(new Set(names).size, second, 'no card twice');
    assert.ok(names.every((n) => /marine/i.test(n)));

    // typing goes to the API once it pauses (debounced): only the last query is shown
    await page.fill('#card-q', 'bazoo');
    await page.fill('#card-q', 'bazooka');
    const card = (name) => page.locator(`#card-results tr[data-card="${name}"]`);
    // the results of `q` are shown: every row has it
    const shown = (q) => page.waitForFunction((w) => {
      const rs = [...document.querySelectorAll('#card-results tr')];
      return rs.length > 0 && rs.every((r) => r.dataset.card.toLowerCase().includes(w));
    }, q);
    await shown('bazooka');
    assert.equal(await page.textContent('#card-search-note'), '3 of 3 cards');
    await shot(page, 'dashboard-real-search.png');
    for (let i = 0; i < 3; i++) await card('Bazooka Marine').locator('button[data-side=attacker]').click();
    await page.fill('#card-q', 'rally infantry');
    await shown('rally infantry');
    for (let i = 0; i < 2; i++) await card('Rally Infantry').locator('button[data-side=attacker]').click();
    // a commander from the search, then another from the picker
    await page.fill('#card-q', 'octane-2');
    await shown('octane-2');
    await card('Octane-2').locator('button[data-side=attacker]').click();
    assert.equal(await pick.inputValue(), 'Octane-2');
    await pick.selectOption('Octane-3');
    assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => [
      r.querySelector('.card').value, r.querySelector('.count').value])),
                     [['Bazooka Marine', '3'], ['Rally Infantry', '2']]);

    await page.fill('#f-games', String(GAMES));
    await page.fill('#f-seed', '7');
    await page.click('#f-submit');
    await page.waitForFunction(() => /^submitted /.test(
        document.querySelector('#submit-status').textContent));
    const id = (await page.textContent('#submit-status')).replace('submitted ', '');
    const doc = await get(`/v1/jobs/${id}/document`);
    assert.deepEqual(doc.params.attacker, {
      commander: 'Octane-3', play: 'random',
      deck: [{ card: 'Bazooka Marine', count: 3 }, { card: 'Rally Infantry', count: 2 }] });
    // the defender is the page's default deck for the game's cards
    assert.equal(doc.params.defender.commander, 'Malika-1');
    await page.waitForSelector('#rates', { timeout: 60000 });
    const res = await get(`/v1/jobs/${id}/result`);
    assert.equal(res.games, GAMES);
    assert.equal(res.catalog.name, gameCards);
    const win = await page.locator('#rates tr[data-outcome=win] td').allTextContents();
    assert.equal(win[2], `${(100 * res.win_rate).toFixed(2)}%`);
    await shot(page, 'dashboard-real-result.png');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a deck string with a typo shows the did-you-mean next to it, then runs', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/#key=${stack.adminKey}`);
    await page.waitForFunction(() => document.querySelectorAll(
        'select[data-pointer="/params/attacker/commander"] option').length > 1000);
    const before = await jobCount();
    const att = page.locator('fieldset[data-side=attacker]');
    const box = att.locator('textarea[data-field=deck-string]');
    await page.fill('#f-games', String(GAMES));
    await box.fill('Octane-1, Bazoka Marine#3, Rally Infantry#2, Grunt');
    // the commander and the cards the string stands in for are dimmed
    assert.equal(await att.locator('.deck').getAttribute('data-inactive'), '');
    await page.click('#f-submit');
    const note = att.locator('.field-error[data-for="/params/attacker/deck"]');
    await note.waitFor();
    assert.equal(await note.textContent(),
                 'entry 2: unknown card "Bazoka Marine" (did you mean "Bazooka Marine"?)');
    // right under the box, which is marked invalid; no job was made
    assert.ok(await note.evaluate((n) => n.previousElementSibling.matches('label.deck-string')));
    assert.equal(await box.getAttribute('aria-invalid'), 'true');
    assert.match(await page.textContent('#form-errors'), /\/params\/attacker\/deck: entry 2/);
    assert.equal(await att.locator('.deck .field-error').count(), 0);
    await shot(page, 'dashboard-real-typo.png');
    assert.equal(await jobCount(), before);

    await box.fill('Octane-1, Bazooka Marine#3, Rally Infantry#2, Grunt');
    await page.click('#f-submit');
    await page.waitForFunction(() => /^submitted /.test(
        document.querySelector('#submit-status').textContent));
    assert.equal(await page.locator('#battle-form .field-error').count(), 0);
    const id = (await page.textContent('#submit-status')).replace('submitted ', '');
    assert.deepEqual((await get(`/v1/jobs/${id}/document`)).params.attacker,
                     { deck: 'Octane-1, Bazooka Marine#3, Rally Infantry#2, Grunt', play: 'random' });
    assert.equal((await waitFinal(id)).status, 'succeeded');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the default decks run on the game cards as they are', async () => {
    const page = await newPage();
    await page.goto(`${stack.url}/#key=${stack.adminKey}`);
    await page.waitForFunction(() => document.querySelectorAll(
        'select[data-pointer="/params/defender/commander"] option').length > 1000);
    await page.fill('#f-games', String(GAMES));
    await page.click('#f-submit');
    await page.waitForFunction(() => /^submitted /.test(
        document.querySelector('#submit-status').textContent));
    const id = (await page.textContent('#submit-status')).replace('submitted ', '');
    assert.equal((await waitFinal(id)).status, 'succeeded');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('an optimisation with a fund: the SP spent and each card made', async () => {
    const doc = JSON.parse(readFileSync(path.join(root, 'examples/tu/optimize_fund.json'), 'utf8'));
    doc.params.budget = { games: 5000 };
    doc.params.eval_games = 500;
    const r = await fetch(`${stack.url}/v1/jobs`, {
      method: 'POST', body: JSON.stringify(doc),
      headers: { ...auth().headers, 'Content-Type': 'application/json' },
    });
    assert.equal(r.status, 202);
    const { id } = await r.json();
    assert.equal((await waitFinal(id)).status, 'succeeded');
    const res = await get(`/v1/jobs/${id}/result`);
    assert.ok(res.fund.spent > 0 && res.fund.spent <= 600, JSON.stringify(res.fund));
    const page = await newPage();
    await page.goto(`${stack.url}/#key=${stack.adminKey}`);
    await page.waitForSelector('#jobs tbody tr');
    await page.goto(`${stack.url}/#/jobs/${id}`);
    await page.waitForSelector('#opt-upgrades', { timeout: 60000 });
    const n = res.fund.upgrades.length;
    assert.equal(await page.textContent('#opt-fund'),
                 `fund: ${res.fund.spent} of 600 SP spent on ${n} upgrade${n === 1 ? '' : 's'}`);
    const made = await page.locator('#opt-upgrades tbody tr').evaluateAll(
        (rows) => rows.map((tr) => tr.querySelectorAll('td')[0].textContent));
    assert.deepEqual(made, res.fund.upgrades.map((u) => u.card));
    await shot(page, 'dashboard-real-fund.png');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

describe('the deckbuilder example on the game catalog', () => {
  const open = async () => {
    const p = await newPage({ width: 1200, height: 900 });
    await p.goto(`${example.origin}/examples/deckbuilder.html?api=${encodeURIComponent(stack.url)}#key=${key}`);
    await p.waitForFunction((n) => document.querySelector('#load-status').textContent === `${n} cards`,
                            cardTotal);
    return p;
  };
  const row = (p, name) => p.locator('#catalog tbody tr').filter({
    has: p.locator('td:first-child', { hasText: new RegExp(`^${name}$`) }) });

  test('builds a real deck: search, add, commander, a mission as opponent, result', async () => {
    const p = await open();
    assert.deepEqual(await p.locator('#commander option').evaluateAll((os) => os.map((o) => o.value)),
                     commanders);
    // the opponents offered are the game's (the built-in cards' need Test Commander)
    assert.deepEqual(await p.locator('#opponent option').evaluateAll((os) => os.map((o) => o.value)),
                     ['malika', 'spirefall']);
    // the first page lists the catalog's first 100 cards; "more cards" the next 100
    assert.equal(await p.locator('#catalog tbody tr').count(), 100);
    await p.click('#more');
    await p.waitForFunction(() => document.querySelectorAll('#catalog tbody tr').length === 200);
    assert.equal(await p.textContent('#search-status'), `200 of ${cardTotal} cards`);

    await p.fill('#search', 'bazooka');
    await p.waitForFunction(() => document.querySelector('#search-status').textContent ===
                                  '3 of 3 cards with "bazooka"');
    for (let i = 0; i < 3; i++) await row(p, 'Bazooka Marine').locator('button').click();
    await p.fill('#search', 'barrage tank');
    await row(p, 'Barrage Tank').waitFor();
    for (let i = 0; i < 2; i++) await row(p, 'Barrage Tank').locator('button').click();
    await p.selectOption('#commander', 'Octane-2');
    assert.equal(await p.textContent('#deck-size'), '5 cards (at most 50)');
    await p.selectOption('#opponent', 'spirefall');
    await p.fill('#games', String(GAMES));
    const before = await jobCount();
    await p.click('#simulate');
    await p.waitForSelector('#result table', { timeout: 60000 });
    const list = await get('/v1/jobs?limit=100');
    assert.equal(list.items.length, before + 1);
    const doc = await get(`/v1/jobs/${list.items[0].id}/document`);
    assert.deepEqual(doc.params.attacker, {
      commander: 'Octane-2',
      deck: [{ card: 'Bazooka Marine', count: 3 }, { card: 'Barrage Tank', count: 2 }] });
    assert.deepEqual(doc.params.defender, { mission: '1. Spirefall', level: 1 });
    const res = await get(`/v1/jobs/${list.items[0].id}/result`);
    const win = await p.locator('#result tr').nth(1).locator('td').allTextContents();
    assert.equal(win[1], `${(100 * res.win_rate).toFixed(2)}%`);
    assert.match(await p.textContent('#status'), new RegExp(`^${GAMES} games, `));
    await p.screenshot({ path: path.join(h.artifacts, 'deckbuilder-real-result.png'),
                         fullPage: true });
    assert.deepEqual(p.problems, []);
    await p.close();
  });

  test('a deck string with a typo shows the did-you-mean next to the box', async () => {
    const p = await open();
    const before = await jobCount();
    await p.fill('#deck-string', 'Octane-1, Bazooka Marine#3, Barage Tank#2');
    assert.match(await p.getAttribute('#by-cards', 'class'), /unused/);
    await p.fill('#opponent-string', 'Malika-1, Dread Panzr#2');
    await p.fill('#games', String(GAMES));
    await p.click('#simulate');
    await p.waitForFunction(() => document.querySelector('#deck-string-error').textContent !== '');
    assert.equal(await p.textContent('#deck-string-error'),
                 'entry 3: unknown card "Barage Tank" (did you mean "Barrage Tank"?)');
    assert.equal(await p.getAttribute('#deck-string', 'aria-invalid'), 'true');
    // the opponent's, under its own box
    assert.equal(await p.textContent('#opponent-string-error'),
                 'entry 2: unknown card "Dread Panzr" (did you mean "Dread Panzer"?)');
    assert.equal(await p.getAttribute('#opponent-string', 'aria-invalid'), 'true');
    // the page's top (the catalog's first 100 cards run far below)
    await p.screenshot({ path: path.join(h.artifacts, 'deckbuilder-real-typo.png') });
    assert.equal(await jobCount(), before);
    // fixed, it runs against the default opponent (the README's Malika deck)
    await p.fill('#deck-string', 'Octane-1, Bazooka Marine#3, Barrage Tank#2');
    await p.fill('#opponent-string', '');
    await p.click('#simulate');
    await p.waitForSelector('#result table', { timeout: 60000 });
    assert.equal(await p.textContent('#deck-string-error'), '');
    assert.equal(await p.textContent('#opponent-string-error'), '');
    const list = await get('/v1/jobs?limit=100');
    const doc = await get(`/v1/jobs/${list.items[0].id}/document`);
    assert.deepEqual(doc.params.attacker, { deck: 'Octane-1, Bazooka Marine#3, Barrage Tank#2' });
    assert.equal(doc.params.defender.play, 'ordered');
    assert.deepEqual(p.problems, []);
    await p.close();
  });
});
