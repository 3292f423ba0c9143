// SPDX-License-Identifier: MIT
// Every request body and every response of openapi/openapi.json that has content carries
// an example (`example` or `examples`), and every JSON example is valid against its own
// schema (ajv, JSON Schema 2020-12), so the examples on /docs and in generated clients
// cannot drift from the schemas.
//   node examples.mjs openapi/openapi.json
//   node examples.mjs --self-test openapi/openapi.json   proves a missing or invalid
//                                                        example is reported
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Returns the problems of `doc`'s examples. */
export function checkExamples(doc) {
  // ajv's discriminator keyword refuses `mapping` (which JobDocument has, for generators);
  // oneOf alone decides validity, so the keyword is left to the generators.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const problems = [];
  let n = 0;
  const deref = (obj, pointer) => {
    if (!obj.$ref) return [obj, pointer];
    const o = obj.$ref.split('/').slice(1)
      .reduce((x, k) => x[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return [o, obj.$ref];
  };
  const checkContent = (holder, pointer, where) => {
    for (const [mt, media] of Object.entries(holder.content || {})) {
      const values = media.examples
        ? Object.entries(media.examples).map(([k, e]) => [k, e.value])
        : 'example' in media ? [['example', media.example]] : [];
      if (values.length === 0) {
        problems.push(`${where} ${mt}: no example`);
        continue;
      }
      if (!mt.split(';')[0].trim().endsWith('json')) continue;
      const validate = ajv.compile({ $ref: `openapi.json${pointer}/content/${esc(mt)}/schema` });
      for (const [name, v] of values) {
        n++;
        if (!validate(v)) problems.push(`${where} ${mt} example '${name}': ${ajv.errorsText(validate.errors)}`);
      }
    }
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      const base = `#/paths/${esc(path)}/${m}`;
      if (op.requestBody) {
        const [rb, ptr] = deref(op.requestBody, `${base}/requestBody`);
        checkContent(rb, ptr, `${m.toUpperCase()} ${path} request`);
      }
      for (const [status, resp] of Object.entries(op.responses)) {
        const [r, ptr] = deref(resp, `${base}/responses/${status}`);
        checkContent(r, ptr, `${m.toUpperCase()} ${path} ${status}`);
      }
    }
  }
  return { problems, n };
}

const args = process.argv.slice(2);
if (args[0] === '--self-test') {
  const doc = JSON.parse(readFileSync(args[1], 'utf8'));
  const post = doc.paths['/v1/jobs'].post;
  delete post.responses['202'].content['application/json'].example;
  post.responses['200'].content['application/json'].example = { id: 42 };
  const { problems } = checkExamples(doc);
  if (!problems.some((p) => /POST \/v1\/jobs 202 .*no example/.test(p)) ||
      !problems.some((p) => /POST \/v1\/jobs 200 .*example 'example'/.test(p))) {
    console.error(`examples.mjs self-test: not reported: ${JSON.stringify(problems)}`);
    process.exit(1);
  }
  console.log('examples.mjs self-test: ok');
} else {
  const { problems, n } = checkExamples(JSON.parse(readFileSync(args[0], 'utf8')));
  for (const p of problems) console.error(`openapi examples: ${p}`);
  if (problems.length) process.exit(1);
  console.log(`openapi examples: every request and response has one; ${n} JSON examples match their schemas`);
}
