// SPDX-License-Identifier: MIT
// The dashboard's operator actions in headless Chromium against a real stack with a
// backlog: one worker busy with a long job, 30 small jobs queued behind it, one of them
// failed. Paging through every job, filters by status and kind, search by id, the failed
// jobs with their error, the job page (#/jobs/ID) with the submitted document and result,
// retry, cancel, bulk cancel of the queued jobs, a running job followed through its event
// stream, and the history charts. Screenshots: dashboard-backlog.png, dashboard-failed.png,
// dashboard-job.png, dashboard-history.png.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { harness, launchBrowser, Stack, stopClean } from './stack.mjs';

const h = harness();
let stack, browser, page;
const problems = [];
let long; // the running job
let failed; // the job made failed
const queued = []; // the small jobs, oldest first

const battle = (games, seed) => ({
  kind: 'battle', seed,
  params: { games,
            attacker: { commander: 'Barracus', deck: [{ card: 'Chainslicer', count: 5 }] },
            defender: { commander: 'Iron Warden', deck: [{ card: 'Iron Maiden', count: 4 }] } },
});

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
  stack = new Stack(h, 'oper', { SKIRMISH_CHUNK_UNITS: '20000' });
  await stack.start({ workers: 1, workerEnv: { SKIRMISH_DEVICE: 'cpu', SKIRMISH_ENGINE_THREADS: '1' } });
  // Long enough to stay running through the whole test in either build; canceled at the end.
  long = await submit(battle(500_000_000, 1));
  await until('the long job to run', async () => (await getJob(long.id)).status === 'running');
  for (let i = 0; i < 30; i++) queued.push((await submit(battle(1000, 100 + i))).id);
  // A failed job, as the worker leaves one after its last attempt (the error is kept).
  failed = queued[3];
  const r = spawnSync('psql', [stack.dbUrl, '-qAtc',
    `UPDATE jobs SET status = 'failed', attempts = 5, finished_at = now(), updated_at = now(),
       error = 'failed after 5 attempts: opencl: CL_OUT_OF_RESOURCES' WHERE id = '${failed}'`],
    { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  browser = await launchBrowser(h);
  page = await browser.newPage({ viewport: { width: 1500, height: 1100 } });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) problems.push(m.text());
  });
  page.on('dialog', (d) => d.accept());
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
                                      (await rowIds()).length === 11);
    const second = await rowIds();
    assert.deepEqual(second, [...[...queued].reverse().slice(20), long.id]); // ... paging finds it
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

  test('the failed jobs, each with its error and attempts; its page, document and retry', async () => {
    await page.selectOption('#jobs-status', 'failed');
    await until('the failed job', async () => JSON.stringify(await rowIds()) === JSON.stringify([failed]));
    const row = page.locator(`#jobs tr[data-job-id="${failed}"]`);
    assert.match(await row.locator('td.error').textContent(), /CL_OUT_OF_RESOURCES/);
    assert.equal(await row.locator('td.attempts').textContent(), '5');
    await shot('dashboard-failed.png');
    await row.locator('td').first().click();
    await until('its page', async () => page.url().endsWith(`#/jobs/${failed}`));
    await page.waitForFunction(() => /CL_OUT_OF_RESOURCES/.test(document.querySelector('#job-meta').textContent));
    await page.click('#job-document summary');
    const docText = await page.textContent('#job-document-body');
    assert.deepEqual(JSON.parse(docText), battle(1000, 103));
    // Retry: a new job from the same document, linked to this one; its page opens.
    await page.click('#job-actions button.retry');
    await until('the new job page', async () => !page.url().endsWith(`#/jobs/${failed}`));
    const newId = page.url().split('#/jobs/')[1];
    const job = await getJob(newId);
    assert.equal(job.retry_of, failed);
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
    assert.ok(n >= 27, `canceled ${n}`); // 30 - failed - canceled one + the retry
    const list = await (await fetch(`${stack.url}/v1/jobs?status=queued`)).json();
    assert.equal(list.items.length, 0);
    assert.equal((await getJob(long.id)).status, 'running'); // running jobs are not touched
    await page.selectOption('#jobs-kind', '');
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
