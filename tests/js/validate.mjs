// SPDX-License-Identifier: MIT
// Validates the HTTP exchanges the integration tests recorded (JSONL files of
// {method, path, status, content_type, body}) against openapi/openapi.json: the path must
// match a documented path template, the method an operation, the status a documented
// response, the content type one of its media types (or no body when it has none), and a
// JSON body its schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses). Any mismatch fails.
//   node validate.mjs openapi/openapi.json FILE.jsonl...
//   node validate.mjs --self-test openapi/openapi.json
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export function makeValidator(doc) {
  // ajv's discriminator keyword refuses `mapping`, which generators need (without it
  // OpenAPI takes the schema names as the values); oneOf alone decides validity.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const templates = Object.keys(doc.paths).map((t) => ({
    t,
    re: new RegExp('^' + t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/:]+') + '$'),
  }));
  const compiled = new Map();
  const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

  return function check(rec) {
    const path = rec.path.split('?')[0];
    const hit = templates.find((x) => x.re.test(path));
    if (!hit) return rec.status === 404 ? null : `${rec.method} ${path}: no documented path`;
    // The CORS preflight is described once (x-cors-preflight), not per path.
    if (rec.method === 'OPTIONS') {
      const pf = doc['x-cors-preflight'];
      if (!pf || !pf.responses[String(rec.status)]) return `OPTIONS ${hit.t}: status ${rec.status} not in x-cors-preflight`;
      return rec.status === 204 && rec.body ? `OPTIONS ${hit.t}: a body in a 204` : null;
    }
    const method = (rec.method === 'HEAD' ? 'get' : rec.method).toLowerCase();
    const op = doc.paths[hit.t][method];
    if (!op) return rec.status === 405 ? null : `${rec.method} ${hit.t}: method not documented`;
    const resp = op.responses[String(rec.status)] || op.responses.default;
    if (!resp) return `${rec.method} ${hit.t}: status ${rec.status} not documented`;
    let r = resp;
    let pointer = `#/paths/${esc(hit.t)}/${method}/responses/${rec.status}`;
    if (r.$ref) {
      pointer = r.$ref;
      r = r.$ref.split('/').slice(1).reduce((o, k) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    }
    if (!r.content) {
      return rec.body && rec.method !== 'HEAD'
        ? `${rec.method} ${hit.t} ${rec.status}: a body where none is documented`
        : null;
    }
    if (rec.method === 'HEAD') return null;
    const base = (rec.content_type || '').split(';')[0].trim();
    const mt = Object.keys(r.content).find((k) => k.split(';')[0].trim() === base);
    if (!mt) return `${rec.method} ${hit.t} ${rec.status}: content type '${rec.content_type}' not documented`;
    if (!base.endsWith('json')) return null;
    let body;
    try {
      body = JSON.parse(rec.body);
    } catch (e) {
      return `${rec.method} ${hit.t} ${rec.status}: body is not JSON`;
    }
    const ref = `openapi.json${pointer}/content/${esc(mt)}/schema`;
    let v = compiled.get(ref);
    if (!v) {
      v = ajv.compile({ $ref: ref });
      compiled.set(ref, v);
    }
    if (!v(body)) return `${rec.method} ${rec.path} ${rec.status}: ${ajv.errorsText(v.errors)}`;
    return null;
  };
}

function selfTest(doc) {
  const check = makeValidator(doc);
  const job = {
    id: '4fdf2267-cff0-4d57-8c57-363ea2dd98c3', kind: 'battle', status: 'queued', tenant: 'acme', seed: 1, attempts: 0,
    progress: { done: 0, total: 10, resumed_from: 0 }, cost: { estimate_cpu_s: 0.002, cpu_s: 0 },
    shards: 0, cancel_requested: false,
    created_at: '2026-01-01T00:00:00.000000Z',
    started_at: null, finished_at: null, updated_at: '2026-01-01T00:00:00.000000Z', error: null, workers: [], errors: [],
    retry_of: null,
    links: { self: '/v1/jobs/x', result: '/v1/jobs/x/result', cancel: '/v1/jobs/x:cancel',
             retry: '/v1/jobs/x:retry', document: '/v1/jobs/x/document' },
  };
  const ok = { method: 'GET', path: `/v1/jobs/${job.id}?wait=1`, status: 200, content_type: 'application/json', body: JSON.stringify(job) };
  const bad = [
    { ...ok, body: JSON.stringify({ ...job, status: 'done' }) },
    { ...ok, body: JSON.stringify({ ...job, extra: 1 }) },
    { ...ok, status: 418 },
    { ...ok, path: '/v1/nowhere/x' },
    { ...ok, content_type: 'text/html' },
    { ...ok, status: 304 },
    { ...ok, status: 400, content_type: 'application/problem+json', body: '{"type":"x"}' },
  ];
  let failed = 0;
  if (check(ok) !== null) {
    console.error('self-test: a valid job was rejected: ' + check(ok));
    failed++;
  }
  for (const b of bad) {
    if (check(b) === null) {
      console.error('self-test: a bad response was accepted: ' + JSON.stringify(b).slice(0, 200));
      failed++;
    }
  }
  if (failed) process.exit(1);
  console.log('validate.mjs self-test: ok');
}

// Run as a program (not when imported, as clients/typescript/test does for makeValidator).
const args = process.argv.slice(2);
const main = import.meta.url === pathToFileURL(process.argv[1] || '').href;
if (!main) {
  // imported
} else if (args[0] === '--self-test') {
  selfTest(JSON.parse(readFileSync(args[1], 'utf8')));
} else {
  const doc = JSON.parse(readFileSync(args[0], 'utf8'));
  const check = makeValidator(doc);
  let n = 0;
  const problems = [];
  for (const f of args.slice(1)) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      n++;
      const p = check(JSON.parse(line));
      if (p) problems.push(p);
    }
  }
  for (const p of [...new Set(problems)]) console.error(`response validation: ${p}`);
  if (problems.length || n === 0) {
    console.error(`response validation: ${problems.length} of ${n} responses deviate`);
    process.exit(1);
  }
  console.log(`response validation: ${n} responses match openapi/openapi.json`);
}
