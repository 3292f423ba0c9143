// SPDX-License-Identifier: MIT
// The API reference at /docs and the problem type pages, in headless Chromium against a
// real API: /docs renders every operation of the OpenAPI document the API serves, with
// Redoc's bundle from the API itself (the committed copy is the one the root package-lock
// pins) and no request to any other origin; every problem `type` the API's sources use
// resolves to a page that explains it. Screenshots: docs.png, docs-problem.png.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { harness, launchBrowser, Stack, stopClean } from './stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const h = harness();
let stack, browser;

before(async () => {
  stack = new Stack(h, 'docs');
  await stack.start({ workers: 0 });
  browser = await launchBrowser(h);
});

after(async () => {
  await browser?.close();
  await stopClean(stack);
});

// Every slug the API's sources give api_http_problem.
function slugsInSources() {
  const dir = path.join(root, 'api');
  const slugs = new Set();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.c'))) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    for (const m of text.matchAll(/api_http_problem\(\s*[^,]+,\s*\d+,\s*"([a-z0-9-]+)"/g))
      slugs.add(m[1]);
    // api_jobs.c's answer_error(resp, err, id, req_id, "what", "slug", "detail")
    for (const m of text.matchAll(/answer_error\([^;]*?"[a-z_]+",\s*"([a-z0-9-]+)"/g))
      slugs.add(m[1]);
  }
  return [...slugs].sort();
}

describe('docs', () => {
  test('the Redoc bundle served is the pinned npm package, byte for byte', async () => {
    const pinned = readFileSync(path.join(root, 'node_modules/redoc/bundles/redoc.standalone.js'));
    const committed = readFileSync(path.join(root, 'dashboard/vendor/redoc.standalone.js'));
    assert.ok(pinned.equals(committed), 'dashboard/vendor/ is stale: run `npm run vendor:redoc`');
    const r = await fetch(`${stack.url}/dashboard/vendor/redoc.standalone.js`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /^text\/javascript/);
    assert.ok(Buffer.from(await r.arrayBuffer()).equals(committed));
    const d = await fetch(`${stack.url}/docs`);
    assert.equal(d.status, 200);
    assert.match(d.headers.get('content-security-policy'), /default-src 'none'/);
    assert.match(d.headers.get('content-security-policy'), /connect-src 'self'/);
  });

  test('/docs renders every operation, loading nothing from elsewhere', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems = [];
    const foreign = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    // Redoc always draws a "by Redocly" badge whose logo is an image on cdn.redoc.ly; the
    // page's Content-Security-Policy blocks it (img-src 'self' data:), which Chromium
    // reports as a console error. That block is the guarantee, so it is expected here.
    const badge = /^Loading the image 'https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg' violates/;
    let badgeBlocked = false;
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      if (badge.test(m.text())) badgeBlocked = true;
      else problems.push(`console: ${m.text()}`);
    });
    await page.route('**/*', (route) => {
      const u = route.request().url();
      if (u.startsWith(stack.url) || u.startsWith('blob:') || u.startsWith('data:')) return route.continue();
      foreign.push(u);
      return route.abort();
    });
    await page.goto(`${stack.url}/docs`);
    const doc = await (await fetch(`${stack.url}/openapi.json`)).json();
    const summaries = [];
    for (const item of Object.values(doc.paths))
      for (const op of Object.values(item)) if (op && op.summary) summaries.push(op.summary);
    assert.ok(summaries.length >= 10);
    await page.waitForFunction((s) => document.body.innerText.includes(s), summaries[0],
                               { timeout: 30000 });
    const text = await page.evaluate(() => document.body.innerText);
    for (const s of summaries) assert.ok(text.includes(s), `operation "${s}" is not on /docs`);
    assert.ok(text.includes(doc.info.title));
    await page.screenshot({ path: path.join(h.artifacts, 'docs.png') });
    assert.deepEqual(foreign, []);
    assert.deepEqual(problems, []);
    assert.ok(badgeBlocked, 'the CSP did not block the Redocly badge (did Redoc change?)');
    await page.close();
  });

  test('every problem type resolves to a page explaining it', async () => {
    const slugs = slugsInSources();
    assert.ok(slugs.length >= 14 && slugs.includes('job-final') && slugs.includes('job-not-final'),
              `slugs found: ${slugs}`);
    for (const slug of slugs) {
      const r = await fetch(`${stack.url}/problems/${slug}`);
      assert.equal(r.status, 200, `/problems/${slug}`);
      assert.match(r.headers.get('content-type'), /^text\/html/);
      const html = await r.text();
      assert.match(html, new RegExp(`<code>/problems/${slug}</code>`));
      assert.match(html, /What it means/);
    }
    const index = await (await fetch(`${stack.url}/problems`)).text();
    for (const slug of slugs) assert.ok(index.includes(`href="/problems/${slug}"`), slug);
    // A real problem's type, resolved against the URL that answered it.
    const nf = await fetch(`${stack.url}/v1/jobs/00000000-0000-4000-8000-000000000000`);
    assert.equal(nf.status, 404);
    const type = (await nf.json()).type;
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    const r = await page.goto(new URL(type, nf.url).href);
    assert.equal(r.status(), 200);
    assert.match(await page.textContent('h1'), /No such job/);
    await page.screenshot({ path: path.join(h.artifacts, 'docs-problem.png') });
    await page.close();
    assert.equal((await fetch(`${stack.url}/problems/no-such-problem`)).status, 404);
  });
});
