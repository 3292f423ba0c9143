// SPDX-License-Identifier: MIT
// The dashboard's operator actions in headless Chromium against a real stack with a
// backlog: a job failed for real (its first worker killed with SIGKILL, its second unable to
// run it), one worker busy with a long job, 30 small jobs queued behind it. Paging through
// every job, filters by status and kind, search by id, the failed-jobs view with each
// attempt's worker and error, the job page (#/jobs/ID) with the submitted document and
// result, retry, cancel, bulk cancel of the queued jobs, the table kept live by the event
// stream of every job (no polling of GET /v1/jobs while it is open, a slow poll while it is
// down), a running job followed through its event stream, and the history charts.
// Screenshots: dashboard-backlog.png, dashboard-failed.png, dashboard-job.png,
// dashboard-history.png.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { harness, launchBrowser, Stack, stopClean } from './stack.mjs';

const h = harness();
let stack, browser, page;
const problems = [];
let long; // the running job
let failed; // the job that failed
let failedDoc; // its document
const queued = []; // the small jobs, oldest first
// the job list requests the page made (GET /v1/jobs), to tell live updates from polling
const listGets = [];

const battle = (games, seed, card = 'Chainslicer') => ({
  kind: 'battle', seed,
  params: { games,
            attacker: { commander: 'Barracus', deck: [{ card, count: 5 }] },
            defender: { commander: 'Iron Warden', deck: [{ card: 'Iron Maiden', count: 4 }] } },
});

// The API and the first worker read a card catalog of their own (a copy of the built-in
// cards: another hash); the worker that takes over the job reads another, cannot load the
// job's, sees no live worker that can and is told to wait no longer: the job fails there,
// naming the catalog (docs/cards.md, "Catalogs pinned per job").
let fullCards; // that catalog's file

async function submit(doc) {
  const r = await fetch(`${stack.url}/v1/jobs`, { method: 'POST', body: JSON.stringify(doc),
                                                   headers: { 'Content-Type': 'application/json' } });
  assert.equal(r.status, 202);
  return r.json();
}

const getJob = async (id) => (await fetch(`${stack.url}/v1/jobs/${id}`)).json();

async function until(what, fn, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${stack.logs()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const shot = (name) => page.screenshot({ path: path.join(h.artifacts, name), fullPage: true });
const rowIds = () => page.locator('#jobs tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.jobId));

before(async () => {
  const cards = JSON.parse(readFileSync(new URL('../../data/cards.json', import.meta.url), 'utf8'));
  fullCards = path.join(h.artifacts, 'oper-cards.json');
  writeFileSync(fullCards, JSON.stringify(cards));
  stack = new Stack(h, 'oper', { SKIRMISH_CHUNK_UNITS: '20000', SKIRMISH_CARDS_FILE: fullCards });
  await stack.start({ workers: 0 });
  const cpu = { SKIRMISH_DEVICE: 'cpu', SKIRMISH_ENGINE_THREADS: '1', SKIRMISH_LEASE_MS: '3000',
                SKIRMISH_RECONCILE_MS: '300' };
  // A job that fails for real, in two attempts on two workers: the first worker is killed
  // (SIGKILL) while it runs the job; the second takes it over once the lease expired and
  // cannot run it (it has not the job's catalog, and no live worker has), a permanent failure.
  failedDoc = battle(200_000_000, 7);
  failed = (await submit(failedDoc)).id;
  const doomed = stack.spawn('skirmish-worker', 'doomed', cpu);
  await until('the job to run on the first worker', async () => {
    const j = await getJob(failed);
    return j.status === 'running' && j.progress.done > 0;
  });
  doomed.kill('SIGKILL');
  await doomed.exited;
  stack.procs = stack.procs.filter((p) => p !== doomed); // not a clean stop, on purpose
  const partial = path.join(h.artifacts, 'oper-cards-without-lead-dozer.json');
  writeFileSync(partial, JSON.stringify(cards.filter((c) => c.name !== 'Lead Dozer')));
  const worker0 = stack.spawn('skirmish-worker', 'worker0',
                              { ...cpu, SKIRMISH_CARDS_FILE: partial, SKIRMISH_CATALOG_WAIT_S: '0' });
  // (the killed worker's heartbeat, which lists the catalog, expires first: about 10 s)
  await until('the job to fail on the second worker', async () => (await getJob(failed)).status === 'failed',
              60000);
  // the rest of the backlog runs on a worker with the API's catalog
  worker0.kill('SIGTERM');
  await worker0.exited;
  stack.procs = stack.procs.filter((p) => p !== worker0);
  stack.spawn('skirmish-worker', 'worker1', cpu);
  // Long enough to stay running through the whole test in either build; canceled at the end.
  long = await submit(battle(500_000_000, 1));
  await until('the long job to run', async () => (await getJob(long.id)).status === 'running');
  for (let i = 0; i < 30; i++) queued.push((await submit(battle(1000, 100 + i))).id);
  browser = await launchBrowser(h);
  page = await browser.newPage({ viewport: { width: 1500, height: 1100 } });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) problems.push(m.text());
  });
  page.on('dialog', (d) => d.accept());
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (r.method() === 'GET' && u.pathname === '/v1/jobs') listGets.push(Date.now());
  });
  await page.goto(`${stack.url}/`);
  await page.waitForSelector('#jobs tbody tr');
});

after(async () => {
  await browser?.close();
  await stopClean(stack);
  assert.deepEqual(problems, []);
});

describe('operator actions', () => {
  test('a backlog: pages through every job, the running one included', async () => {
    await until('a full first page', async () => (await rowIds()).length === 20);
    const first = await rowIds();
    assert.deepEqual(first, [...queued].reverse().slice(0, 20)); // newest first
    assert.ok(!first.includes(long.id)); // the backlog hides the running job ...
    await shot('dashboard-backlog.png');
    await page.click('#jobs-older');
    await until('page 2', async () => (await page.textContent('#jobs-page')) === 'page 2' &&
                                      (await rowIds()).length === 12);
    const second = await rowIds();
    assert.deepEqual(second, [...[...queued].reverse().slice(20), long.id, failed]); // ... paging finds it
    assert.ok(await page.locator('#jobs-older').isDisabled());
    await page.click('#jobs-newer');
    await until('page 1 again', async () => (await page.textContent('#jobs-page')) === 'page 1' &&
                                           (await rowIds())[0] === queued[29]);
  });

  test('filters by status and kind, and search by id', async () => {
    await page.selectOption('#jobs-status', 'running');
    await until('the running job alone', async () => JSON.stringify(await rowIds()) === JSON.stringify([long.id]));
    await page.selectOption('#jobs-status', '');
    await page.selectOption('#jobs-kind', 'board');
    await until('no board job', async () => (await rowIds()).length === 0 &&
                /no job matches/.test(await page.textContent('#jobs-note')));
    await page.selectOption('#jobs-kind', 'battle');
    await until('battle jobs', async () => (await rowIds()).length === 20);
    await page.selectOption('#jobs-kind', '');
    await page.fill('#jobs-search', queued[10].toUpperCase());
    await page.click('#jobs-search-form button');
    await until('the job page', async () => page.url().endsWith(`#/jobs/${queued[10]}`));
    await page.waitForFunction((id) => document.querySelector('#result-job').textContent === id,
                               queued[10]);
    await page.fill('#jobs-search', '00000000-0000-4000-8000-000000000000');
    await page.click('#jobs-search-form button');
    await page.waitForFunction(() => /no job 0000/.test(document.querySelector('#jobs-action').textContent));
  });

  test('the failed-jobs view: each attempt with its worker and error; its page, document and retry', async () => {
    // The API first: the job's errors, next to the workers that ran each attempt.
    const job = await getJob(failed);
    assert.equal(job.attempts, 2);
    assert.deepEqual(job.workers, ['doomed', 'worker0']);
    assert.equal(job.errors[0], 'the worker running it stopped (lease expired)');
    assert.match(job.errors[1], /^the job's card catalog fnv1a64:[0-9a-f]{16} is not loaded by any live worker/);
    assert.equal(job.error, `failed permanently after 2 attempts: ${job.errors[1]}`);
    await page.selectOption('#jobs-status', 'failed');
    await until('the failed job', async () => JSON.stringify(await rowIds()) === JSON.stringify([failed]));
    const row = page.locator(`#jobs tr[data-job-id="${failed}"]`);
    assert.match(await row.locator('td.error .job-error').textContent(), /failed permanently after 2 attempts/);
    assert.equal(await row.locator('td.attempts').textContent(), '2');
    // the failed-jobs view lists every attempt that ended in error, with its worker
    const items = row.locator('.attempt-errors li');
    await items.first().waitFor({ state: 'visible' });
    assert.deepEqual(await items.evaluateAll((lis) => lis.map((li) => [
      li.dataset.attempt, li.querySelector('.worker').textContent, li.querySelector('.msg').textContent])),
    [['1', 'doomed', job.errors[0]], ['2', 'worker0', job.errors[1]]]);
    await shot('dashboard-failed.png');
    await page.selectOption('#jobs-status', '');
    assert.ok(!(await page.locator('#jobs .attempt-errors').first().isVisible())); // compact elsewhere
    await page.selectOption('#jobs-status', 'failed');
    await until('the failed job again', async () => JSON.stringify(await rowIds()) === JSON.stringify([failed]));
    await row.locator('td').first().click();
    await until('its page', async () => page.url().endsWith(`#/jobs/${failed}`));
    await page.waitForFunction(() => /card catalog fnv1a64:/.test(document.querySelector('#job-meta').textContent));
    // the page's attempts table: both attempts, each worker and error
    assert.deepEqual(await page.locator('#job-meta table.attempts tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [...tr.cells].map((td) => td.textContent))),
    [['#1', 'doomed', job.errors[0]], ['#2', 'worker0', job.errors[1]]]);
    await page.click('#job-document summary');
    const docText = await page.textContent('#job-document-body');
    // as submitted, with the card catalog the API pinned it to
    const stored = JSON.parse(docText);
    assert.match(stored.catalog, /^fnv1a64:[0-9a-f]{16}$/);
    delete stored.catalog;
    assert.deepEqual(stored, failedDoc);
    // Retry: a new job from the same document, linked to this one; its page opens.
    await page.click('#job-actions button.retry');
    await until('the new job page', async () => !page.url().endsWith(`#/jobs/${failed}`));
    const newId = page.url().split('#/jobs/')[1];
    assert.equal((await getJob(newId)).retry_of, failed);
    await page.waitForFunction((id) => document.querySelector('#job-meta').textContent.includes(id), failed);
    await page.selectOption('#jobs-status', '');
  });

  test('cancel a queued job from its row', async () => {
    const id = queued[28];
    const row = page.locator(`#jobs tr[data-job-id="${id}"]`);
    await row.locator('button.cancel').click();
    await row.locator('.badge.canceled').waitFor();
    assert.equal((await getJob(id)).status, 'canceled');
    assert.equal(await row.locator('button.retry').count(), 1); // final: retry instead
  });

  test('bulk cancel of the queued jobs of a kind', async () => {
    await page.selectOption('#jobs-kind', 'battle');
    await page.click('#jobs-cancel-queued');
    await page.waitForFunction(() => /^canceled \d+ queued jobs?$/.test(
      document.querySelector('#jobs-action').textContent));
    const n = Number((await page.textContent('#jobs-action')).split(' ')[1]);
    assert.ok(n >= 29, `canceled ${n}`); // 30 - the canceled one + the retry
    const list = await (await fetch(`${stack.url}/v1/jobs?status=queued`)).json();
    assert.equal(list.items.length, 0);
    assert.equal((await getJob(long.id)).status, 'running'); // running jobs are not touched
    await page.selectOption('#jobs-kind', '');
  });

  test('the table is live from the event stream of every job, polled only while it is down', async () => {
    await page.selectOption('#jobs-status', 'running');
    await until('the running job alone', async () => JSON.stringify(await rowIds()) === JSON.stringify([long.id]));
    await page.waitForFunction(() => document.querySelector('#jobs-live').textContent === 'live');
    const label = () => page.textContent(`#jobs tr[data-job-id="${long.id}"] .bar-label`);
    // Four seconds in which the running job's row changes, and the page asks for no list.
    const from = Date.now();
    const seen = new Set([await label()]);
    while (Date.now() - from < 4000) {
      seen.add(await label());
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(seen.size >= 3, `the row changed ${seen.size - 1} times`);
    assert.deepEqual(listGets.filter((t) => t >= from), [], 'GET /v1/jobs while the stream is open');
    // A job made elsewhere, then canceled elsewhere: its row comes and goes with one read of
    // the page for each (the set of rows changed), no more.
    await page.selectOption('#jobs-status', '');
    await until('page 1', async () => (await rowIds()).length === 20);
    const t0 = Date.now();
    const fresh = await submit(battle(1000, 999));
    await until('the new job at the top', async () => (await rowIds())[0] === fresh.id);
    const r = await fetch(`${stack.url}/v1/jobs/${fresh.id}:cancel`, { method: 'POST' });
    assert.equal(r.status, 202);
    await page.locator(`#jobs tr[data-job-id="${fresh.id}"] .badge.canceled`).waitFor();
    await new Promise((res) => setTimeout(res, 2000));
    const reads = listGets.filter((t) => t >= t0).length;
    assert.ok(reads >= 1 && reads <= 2, `${reads} list reads`);
    // The stream drops (refused here): the table falls back to a poll every 5 s and says so.
    await page.route('**/v1/events', (route) => route.abort());
    await page.reload();
    await page.waitForFunction(() => /polling every 5 s/.test(document.querySelector('#jobs-live').textContent));
    const t1 = Date.now();
    await until('two polls', async () => listGets.filter((t) => t >= t1).length >= 2, 15000);
    await page.unroute('**/v1/events');
    await page.reload();
    await page.waitForFunction(() => document.querySelector('#jobs-live').textContent === 'live');
  });

  test('a running job followed through its event stream, then canceled from its page', async () => {
    const streams = [];
    page.on('request', (r) => { if (r.url().endsWith(`/v1/jobs/${long.id}/events`)) streams.push(r.url()); });
    await page.goto(`${stack.url}/#/jobs/${long.id}`);
    await page.waitForFunction((id) => document.querySelector('#result-job').textContent === id, long.id);
    await until('the event stream', async () => streams.length === 1);
    const label = () => page.textContent('#job-meta .bar-label');
    const a = await label();
    await until('progress pushed by the stream', async () => (await label()) !== a);
    await shot('dashboard-job.png');
    await page.click('#job-actions button.cancel');
    await page.locator('#job-meta .badge.canceled').waitFor({ timeout: 30000 });
    const final = await getJob(long.id);
    assert.equal(final.status, 'canceled');
    // It keeps the games it played as a partial result, drawn like a full one.
    const res = await (await fetch(`${stack.url}/v1/jobs/${long.id}/result`)).json();
    assert.equal(res.partial, true);
    assert.equal(res.games, final.progress.done);
    await page.waitForSelector('#result-body .partial-note');
    assert.match(await page.textContent('#result-body .partial-note'),
                 new RegExp(`the ${final.progress.done.toLocaleString('en-US')} games played`));
    assert.equal(await page.locator('#rate-chart rect.rate').count(), 3);
  });

  test('history: jobs per minute by status and games per second', async () => {
    // An hour of history, as a service that has been running would have: every third
    // minute some jobs succeeded (2,000,000 games each), every seventh one failed.
    const hist = spawnSync('psql', [stack.dbUrl, '-qAtc',
      `INSERT INTO jobs (id, kind, request, seed, progress_total, progress_done, status, attempts,
                         created_at, started_at, finished_at, updated_at, result, error)
       SELECT gen_random_uuid(), 'battle', '{"kind":"battle"}', 1, 2000000, 2000000,
              CASE WHEN m % 7 = 0 THEN 'failed' ELSE 'succeeded' END, 1,
              now() - m * interval '1 minute' - interval '5 s',
              now() - m * interval '1 minute' - interval '4 s', now() - m * interval '1 minute',
              now() - m * interval '1 minute',
              CASE WHEN m % 7 = 0 THEN NULL ELSE '{"kind":"battle"}'::json END,
              CASE WHEN m % 7 = 0 THEN 'failed after 5 attempts: worker lost' END
       FROM generate_series(2, 58) AS m, generate_series(1, 3) AS k WHERE m % 3 = 0 OR m % 7 = 0`],
      { encoding: 'utf8' });
    assert.equal(hist.status, 0, hist.stderr);
    await page.reload();
    await page.waitForSelector('#history-jobs-chart rect.hist.canceled');
    assert.ok(await page.locator('#history-jobs-chart rect.hist.failed').count() >= 1);
    assert.ok(await page.locator('#history-games-chart rect.hist.games').count() >= 1);
    const note = await page.textContent('#history-note');
    // 17 minutes with 3 succeeded each (m % 3 == 0, not % 7), 8 with 3 failed, plus the
    // failed job of the backlog; the canceled ones are this test's.
    assert.match(note, /succeeded 51 · failed 25 · canceled \d+/);
    const minutes = await page.locator('#history-jobs-chart rect.hist.succeeded').count();
    assert.equal(minutes, 17);
    await page.locator('#history-panel').scrollIntoViewIfNeeded();
    await shot('dashboard-history.png');
  });
});
