// SPDX-License-Identifier: MIT
// Route coverage: the route table of skirmish-api (`skirmish-api routes`) and the paths and
// methods of openapi/openapi.json must be the same set, both ways. The CORS preflight the
// router answers on every path is described once, in the document's `x-cors-preflight`,
// and never as an OPTIONS operation (a generated client would get a method per path).
//   node routes.mjs BUILD/skirmish-api openapi/openapi.json
//   node routes.mjs --self-test     checks that a difference either way is reported
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Returns the list of problems between code routes ("GET /p") and the document. */
export function compare(codeRoutes, doc) {
  const problems = [];
  const code = new Set(codeRoutes);
  const documented = new Set();
  for (const [path, item] of Object.entries(doc.paths || {})) {
    for (const m of METHODS) {
      if (!item[m]) continue;
      if (m === 'options') {
        problems.push(`OPTIONS ${path}: the preflight belongs in x-cors-preflight, not in paths`);
        continue;
      }
      documented.add(`${m.toUpperCase()} ${path}`);
    }
  }
  if (!doc['x-cors-preflight']) problems.push('x-cors-preflight: the preflight is not described');
  for (const r of code) if (!documented.has(r)) problems.push(`${r}: in the code, not in the document`);
  for (const r of documented) if (!code.has(r)) problems.push(`${r}: in the document, not in the code`);
  return problems;
}

function selfTest() {
  const doc = {
    'x-cors-preflight': {},
    paths: {
      '/a': { get: {} },
      '/b/{id}': { post: {} },
      '/c': { get: {}, options: {} },
    },
  };
  const noPreflight = { ...doc, 'x-cors-preflight': undefined };
  const cases = [
    [['GET /a', 'POST /b/{id}', 'GET /c'], 1, doc], // /c has an OPTIONS operation
    [['GET /a', 'POST /b/{id}', 'GET /c', 'GET /d'], 2, doc], // /d not documented
    [['GET /a', 'GET /c'], 2, doc], // POST /b/{id} not in the code
    [['GET /a', 'POST /b/{id}', 'GET /c'], 2, noPreflight], // and no x-cors-preflight
  ];
  let failed = 0;
  for (const [routes, want, d] of cases) {
    const got = compare(routes, d).length;
    if (got !== want) {
      console.error(`self-test: ${JSON.stringify(routes)}: ${got} problems, expected ${want}`);
      failed++;
    }
  }
  if (failed) process.exit(1);
  console.log('routes.mjs self-test: ok');
}

if (process.argv[2] === '--self-test') {
  selfTest();
} else {
  const [bin, docPath] = process.argv.slice(2);
  const routes = execFileSync(bin, ['routes'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.trim());
  const doc = JSON.parse(readFileSync(docPath, 'utf8'));
  const problems = compare(routes, doc);
  for (const p of problems) console.error(`route coverage: ${p}`);
  if (problems.length) process.exit(1);
  console.log(`route coverage: ${routes.length} routes, code and document agree`);
}
