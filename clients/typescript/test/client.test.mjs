// SPDX-License-Identifier: MIT
// The TypeScript client against a live skirmish-api and skirmish-worker (the PostgreSQL
// and Redis of scripts/test.sh, a fresh database, as the browser tests do): submit with an
// Idempotency-Key (a repeat returns the same job), wait by long poll and by server-sent
// events, result, cancel (and its 409 problem), list with paging. Also: src/schema.ts is
// what openapi-typescript makes of openapi/openapi.json today, with every path in it
// (`:cancel` included); dist/ (built by `npm run build:client`, which scripts/test.sh --gate
// runs first; not committed) is what tsc makes of src/; test/typecheck.ts compiles.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { harness, Stack, stopClean } from '../../../tests/browser/stack.mjs';
import { makeValidator } from '../../../tests/js/validate.mjs';
import { SkirmishClient, SkirmishError, isFinal } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..');
const root = path.resolve(pkg, '../..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);

const battle = (games, seed = 3) => ({
  kind: 'battle', seed,
  params: { games,
            attacker: { commander: 'Barracus', deck: [{ card: 'Chainslicer', count: 5 },
                                                       { card: 'Iron Maiden', count: 3 }] },
            defender: { commander: 'Iron Warden', deck: [{ card: 'Iron Maiden', count: 4 },
                                                          { card: 'Anvil', count: 3 }] } },
});

describe('generated code', () => {
  test('src/schema.ts is openapi-typescript of openapi/openapi.json, with every path', () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'sk-ts-'));
    try {
      const out = path.join(tmp, 'schema.ts');
      // The arguments of `npm run gen:client` (root package.json). Fields with a default
      // stay optional in requests (--default-non-nullable false).
      execFileSync(bin('openapi-typescript'), [path.join(root, 'openapi/openapi.json'),
                                               '--default-non-nullable', 'false', '--output', out],
                   { stdio: 'pipe' });
      const fresh = readFileSync(out, 'utf8');
      assert.equal(readFileSync(path.join(pkg, 'src/schema.ts'), 'utf8'), fresh,
                   'clients/typescript/src/schema.ts is stale: run `npm run gen:client`');
      const doc = JSON.parse(readFileSync(path.join(root, 'openapi/openapi.json'), 'utf8'));
      for (const p of Object.keys(doc.paths))
        assert.ok(fresh.includes(`    "${p}": {`), `the generator dropped ${p}`);
      assert.ok(fresh.includes('"/v1/jobs/{id}:cancel"'));
      // No CORS pseudo-operations: the preflight is not an operation of any path.
      assert.ok(!/options: operations\[/.test(fresh));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('dist/ is tsc of src/, and the typings serve a caller (test/typecheck.ts)', () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'sk-tsc-'));
    try {
      execFileSync(bin('tsc'), ['-p', pkg, '--outDir', tmp], { stdio: 'pipe' });
      for (const f of readdirSync(tmp))
        assert.equal(readFileSync(path.join(pkg, 'dist', f), 'utf8'), readFileSync(path.join(tmp, f), 'utf8'),
                     `clients/typescript/dist/${f} is stale: run \`npm run build:client\``);
      assert.deepEqual(readdirSync(path.join(pkg, 'dist')).sort(), readdirSync(tmp).sort());
      execFileSync(bin('tsc'), ['--noEmit', '--strict', '--target', 'ES2022', '--module', 'ES2022',
                                '--moduleResolution', 'bundler', '--lib', 'ES2022,DOM,DOM.Iterable',
                                path.join(pkg, 'test/typecheck.ts')], { stdio: 'pipe' });
    } catch (e) {
      throw new Error(`${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('client against a live stack', () => {
  const h = harness();
  let stack, client, checkedFetch;
  const deviations = [];

  before(async () => {
    // keys on, as `make run` has them: the client sends the admin key
    stack = new Stack(h, 'tsclient', { SKIRMISH_CHUNK_UNITS: '20000', SKIRMISH_AUTH: 'on' });
    await stack.start({ workers: 1, workerEnv: { SKIRMISH_DEVICE: 'cpu', SKIRMISH_ENGINE_THREADS: '1' } });
    // Every answer the client gets is also checked against the OpenAPI document.
    const check = makeValidator(JSON.parse(readFileSync(path.join(root, 'openapi/openapi.json'), 'utf8')));
    const checked = async (url, init = {}) => {
      const r = await fetch(url, init);
      const type = r.headers.get('content-type') || '';
      if (type.includes('event-stream')) return r;
      const body = await r.clone().text();
      const u = new URL(url);
      const problem = check({ method: init.method || 'GET', path: u.pathname + u.search,
                              status: r.status, content_type: type, body });
      if (problem) deviations.push(problem);
      return r;
    };
    checkedFetch = checked;
    client = new SkirmishClient({ baseUrl: stack.url, fetch: checked, apiKey: stack.adminKey });
  });

  after(async () => {
    assert.deepEqual(deviations, [], 'answers that deviate from openapi/openapi.json');
    await stopClean(stack);
  });

  test('submit with an Idempotency-Key, wait by long poll, result', async () => {
    // Large enough to be seen running (tens of chunks) in either build.
    const a = await client.submit(battle(300000), { idempotencyKey: 'ts-client-1' });
    assert.equal(a.created, true);
    assert.equal(a.job.status, 'queued');
    const again = await client.submit(battle(300000), { idempotencyKey: 'ts-client-1' });
    assert.equal(again.created, false);
    assert.equal(again.job.id, a.job.id);
    const seen = [];
    const done = await client.wait(a.job.id, { onUpdate: (j) => seen.push(j.progress.done) });
    assert.equal(done.status, 'succeeded');
    assert.ok(seen.length >= 2 && seen.at(-1) === 300000, JSON.stringify(seen));
    const r = await client.result(a.job.id);
    assert.equal(r.kind, 'battle');
    assert.equal(r.games, 300000);
    assert.equal(r.wins + r.stalls + r.losses, 300000);
  });

  test('follow by server-sent events until the final status', async () => {
    const { job } = await client.submit(battle(300000, 4));
    const events = [];
    for await (const ev of client.events(job.id)) events.push(ev);
    assert.equal(events[0].event, 'status');
    const last = events.at(-1);
    assert.equal(last.event, 'status');
    assert.equal(last.job.status, 'succeeded');
    assert.ok(isFinal(last.job));
    const progress = events.filter((e) => e.event === 'progress').map((e) => e.progress.done);
    assert.ok(progress.length >= 1, JSON.stringify(events.map((e) => e.event)));
    assert.ok(progress.every((d, i) => i === 0 || d >= progress[i - 1]), JSON.stringify(progress));
  });

  test('cancel a queued job; a final one is a 409 problem', async () => {
    // The worker is busy with a long job, so the second stays queued. Long enough (minutes on
    // one engine thread) never to end before the cancel below, however loaded the machine:
    // 2,000,000 games once did under the gate (the cancel got a 409); canceled, it costs nothing.
    const long = await client.submit(battle(50_000_000, 5));
    const queued = await client.submit(battle(1000, 6));
    const c = await client.cancel(queued.job.id);
    assert.equal(c.cancel_requested, true);
    const final = await client.wait(queued.job.id);
    assert.equal(final.status, 'canceled');
    await assert.rejects(client.cancel(queued.job.id), (e) => e instanceof SkirmishError &&
      e.status === 409 && e.problem.type === '/problems/job-final');
    await assert.rejects(client.result(queued.job.id), (e) => e instanceof SkirmishError &&
      e.status === 409 && e.problem.job_status === 'canceled');
    await client.cancel(long.job.id);
    const canceled = await client.wait(long.job.id);
    assert.equal(canceled.status, 'canceled');
    // A battle canceled while running keeps the games it played as a partial result.
    if (canceled.progress.done > 0) {
      const partial = await client.result(long.job.id);
      assert.equal(partial.kind, 'battle');
      assert.equal(partial.partial, true);
      assert.equal(partial.games, canceled.progress.done);
      assert.equal(partial.wins + partial.stalls + partial.losses, partial.games);
    }
  });

  test('retry a canceled job from its document; bulk cancel of queued jobs', async () => {
    const { job } = await client.submit(battle(300000, 8));
    // A job still queued or running is not retried.
    await assert.rejects(client.retry(job.id), (e) => e instanceof SkirmishError &&
      e.status === 409 && e.problem.type === '/problems/job-not-final');
    const doc = await client.document(job.id);
    assert.equal(doc.kind, 'battle');
    assert.equal(doc.seed, 8);
    const done = await client.wait(job.id);
    assert.equal(done.status, 'succeeded');
    const again = await client.retry(job.id);
    assert.equal(again.retry_of, job.id);
    assert.notEqual(again.id, job.id);
    assert.deepEqual(await client.document(again.id), doc);
    const first = await client.result(job.id);
    await client.wait(again.id);
    const second = await client.result(again.id);
    assert.equal(second.wins, first.wins); // the same seed plays the same games
    // Bulk cancel: a long job keeps the worker busy, three more wait in the queue.
    const long = await client.submit(battle(50_000_000, 9)); // never done before its cancel
    const queued = [];
    for (let i = 0; i < 3; i++) queued.push((await client.submit(battle(1000, 10 + i))).job.id);
    const res = await client.cancelQueued({ kind: 'battle' });
    for (const id of queued) assert.ok(res.ids.includes(id), JSON.stringify(res));
    assert.equal(res.canceled, res.ids.length);
    for (const id of queued) assert.equal((await client.get(id)).status, 'canceled');
    await client.cancel(long.job.id);
    await client.wait(long.job.id);
    const h = await client.history(5);
    assert.equal(h.points.length, 5);
    assert.ok(h.points.reduce((n, p) => n + p.succeeded, 0) >= 3);
    assert.ok(h.points.reduce((n, p) => n + p.canceled, 0) >= 5);
  });

  test('list: filters and every page', async () => {
    const page = await client.list({ status: 'canceled', limit: 1 });
    assert.equal(page.items.length, 1);
    assert.ok(page.next_cursor);
    const all = [];
    for await (const j of client.listAll({ limit: 2 })) all.push(j);
    assert.equal(all.length, 10);
    assert.equal(new Set(all.map((j) => j.id)).size, 10);
    await assert.rejects(client.list({ status: 'done' }), (e) => e.status === 400 &&
      e.problem.errors[0].parameter === 'status');
  });

  test('events: a key revoked while its stream is open ends it with a 401 SkirmishError', async () => {
    const token = stack.key({ tenant: 'zeta' });
    const zeta = new SkirmishClient({ baseUrl: stack.url, fetch: checkedFetch, apiKey: token });
    const { job } = await zeta.submit(battle(300000, 11));
    const events = [];
    const follow = (async () => {
      for await (const ev of zeta.events(job.id)) {
        events.push(ev);
        if (events.length === 1) {
          const r = await fetch(`${stack.url}/v1/keys/${token.slice(3, 19)}`, {
            method: 'DELETE', headers: { Authorization: `Bearer ${stack.adminKey}` } });
          assert.equal(r.status, 204);
        }
      }
    })();
    await assert.rejects(follow, (e) => e.status === 401 && e.problem.type === '/problems/unauthorized');
    assert.equal(events[0].event, 'status');
    await client.cancel(job.id).catch(() => undefined);
  });

  test('apiKey: a tenant sees its own jobs only; no key is a 401; delete a final job', async () => {
    const acme = new SkirmishClient({ baseUrl: stack.url, fetch: checkedFetch,
                                      apiKey: stack.key({ tenant: 'acme' }) });
    const anonymous = new SkirmishClient({ baseUrl: stack.url, fetch: checkedFetch });
    const { job } = await acme.submit(battle(1000, 9));
    assert.equal(job.tenant, 'acme');
    assert.equal((await acme.wait(job.id)).status, 'succeeded');
    assert.deepEqual((await acme.list()).items.map((j) => j.id), [job.id]);
    await assert.rejects(acme.stats(), (e) => e.status === 403 && e.problem.type === '/problems/forbidden');
    await assert.rejects(anonymous.get(job.id), (e) => e.status === 401);
    const admins = (await client.list({ limit: 100 })).items;
    await assert.rejects(acme.get(admins.find((j) => j.tenant === 'dev').id), (e) => e.status === 404);
    await acme.delete(job.id);
    await assert.rejects(acme.get(job.id), (e) => e.status === 404);
  });
});
