// SPDX-License-Identifier: MIT
// Route coverage: the route table of skirmish-api (`skirmish-api routes`) and the paths and
// methods of openapi/openapi.json must be the same set, both ways. Every documented path
// also documents OPTIONS (the CORS preflight the router answers on every path).
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
      if (m === 'options') continue;
      documented.add(`${m.toUpperCase()} ${path}`);
    }
    if (!item.options) problems.push(`OPTIONS ${path}: the preflight is not documented`);
  }
  for (const r of code) if (!documented.has(r)) problems.push(`${r}: in the code, not in the document`);
  for (const r of documented) if (!code.has(r)) problems.push(`${r}: in the document, not in the code`);
  return problems;
}

function selfTest() {
  const doc = {
    paths: {
      '/a': { get: {}, options: {} },
      '/b/{id}': { post: {}, options: {} },
      '/c': { get: {} },
    },
  };
  const cases = [
    [['GET /a', 'POST /b/{id}', 'GET /c'], 1], // /c lacks options
    [['GET /a', 'POST /b/{id}', 'GET /c', 'GET /d'], 2], // /d not documented
    [['GET /a', 'GET /c'], 2], // POST /b/{id} not in the code
  ];
  let failed = 0;
  for (const [routes, want] of cases) {
    const got = compare(routes, doc).length;
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
