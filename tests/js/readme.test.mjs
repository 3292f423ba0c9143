// SPDX-License-Identifier: MIT
// Runs the README's quick-start walkthrough (the ```sh block after "## Quick start") with
// bash, curl and jq against a fresh skirmish-api and one skirmish-worker (the PostgreSQL and
// Redis of scripts/test.sh), from the repository root, and checks that every command
// followed by `#  → ...` lines printed exactly those lines (`…` matches anything), so the
// walkthrough shows what its comments promise.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { harness, Stack, stopClean } from '../browser/stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The walkthrough as steps: {command (continuation lines joined), expect: [lines]}. */
export function steps(readme) {
  const start = readme.indexOf('```sh\n', readme.indexOf('## Quick start'));
  const body = readme.slice(start + 6, readme.indexOf('\n```', start));
  const out = [];
  let cmd = null;
  for (const line of body.split('\n')) {
    const m = /^#  → (.*)$/.exec(line);
    if (m) {
      assert.ok(out.length, `an expectation before any command: ${line}`);
      out.at(-1).expect.push(m[1]);
    } else if (cmd !== null) {
      cmd += '\n' + line;
      if (!line.endsWith('\\')) { out.push({ command: cmd, expect: [] }); cmd = null; }
    } else if (line.startsWith('#') || line.trim() === '') {
      continue;
    } else if (line.endsWith('\\')) {
      cmd = line;
    } else {
      out.push({ command: line, expect: [] });
    }
  }
  return out;
}

const pattern = (want) =>
  new RegExp('^' + want.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');

const h = harness();
let stack;

before(async () => {
  // keys on, as `make run` has them: the walkthrough uses the admin key in $SKIRMISH_KEY
  stack = new Stack(h, 'readme', { SKIRMISH_AUTH: 'on' });
  await stack.start({ workers: 1 });
});

after(async () => {
  await stopClean(stack);
});

test('the README walkthrough prints what its comments say', () => {
  const all = steps(readFileSync(path.join(root, 'README.md'), 'utf8'));
  assert.ok(all.length >= 10 && all[0].command.startsWith('API='));
  assert.ok(all.filter((s) => s.expect.length).length >= 10);
  // One bash process, so variables carry from step to step; a marker line before each
  // step's output splits what it printed.
  const script = ['set -o pipefail', `API=${stack.url}`,
                  ...all.slice(1).map((s, i) => `echo "@@step ${i + 1}"\n${s.command}`)].join('\n');
  const r = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8', timeout: 240000,
                                                env: { ...process.env, SKIRMISH_KEY: stack.adminKey } });
  assert.equal(r.status, 0, `the walkthrough failed:\n${r.stdout}\n${r.stderr}`);
  const outputs = r.stdout.split(/^@@step \d+\n/m).slice(1);
  assert.equal(outputs.length, all.length - 1);
  all.slice(1).forEach((s, i) => {
    if (!s.expect.length) return;
    const got = outputs[i].replace(/\n$/, '').split('\n');
    assert.equal(got.length, s.expect.length, `${s.command}\nprinted:\n${outputs[i]}`);
    s.expect.forEach((want, k) =>
      assert.match(got[k], pattern(want), `${s.command}\nprinted: ${got[k]}\npromised: ${want}`));
  });
});
