// SPDX-License-Identifier: MIT
// Runs the README's quick-start walkthrough (the ```sh block after "## Quick start") with
// bash, curl and jq against a fresh skirmish-api and one skirmish-worker (the PostgreSQL and
// Redis of scripts/test.sh), from the repository root, and checks that every command
// followed by `#  → ...` lines printed exactly those lines (`…` matches anything), so the
// walkthrough shows what its comments promise. Then the same for the "Real decks" block,
// against an API and a worker that loaded the game's cards (SKIRMISH_CARDS_DIR, the
// snapshot in ../shared/data/tu), as a user runs it after `make run` with that folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { gameCards, harness, Stack, stopClean } from '../browser/stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// A command goes on past a line that ends in a backslash or leaves a single quote open (a
// JSON document written over several lines).
const open = (cmd) => cmd.endsWith('\\') || (cmd.split("'").length - 1) % 2 === 1;

/** The first ```sh block after `marker` as steps: {command (continuation lines joined),
 *  expect: [lines]}. */
export function steps(readme, marker = '## Quick start') {
  const at = readme.indexOf(marker);
  assert.ok(at >= 0, `no ${marker} in the README`);
  const start = readme.indexOf('```sh\n', at);
  const body = readme.slice(start + 6, readme.indexOf('\n```', start));
  const out = [];
  let cmd = null;
  for (const line of body.split('\n')) {
    const m = /^#  → (.*)$/.exec(line);
    if (m && cmd === null) {
      assert.ok(out.length, `an expectation before any command: ${line}`);
      out.at(-1).expect.push(m[1]);
    } else if (cmd !== null) {
      cmd += '\n' + line;
      if (!open(cmd)) { out.push({ command: cmd, expect: [] }); cmd = null; }
    } else if (line.startsWith('#') || line.trim() === '') {
      continue;
    } else if (open(line)) {
      cmd = line;
    } else {
      out.push({ command: line, expect: [] });
    }
  }
  assert.equal(cmd, null, `a command left open at the end of the block: ${cmd}`);
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

/** Runs `all` (the block's steps) in one bash process against `s`, from the repository root,
 * so variables carry from step to step, and checks each step's `#  →` lines. A step that
 * sets API points at `s`; the key is its admin key. */
function runSteps(all, s) {
  // A marker line before each step's output splits what it printed.
  const script = ['set -o pipefail',
                  ...all.map((st, i) => `echo "@@step ${i}"\n${
                    /^API=/.test(st.command) ? `API=${s.url}` : st.command}`)].join('\n');
  const r = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8', timeout: 240000,
                                                env: { ...process.env, SKIRMISH_KEY: s.adminKey } });
  assert.equal(r.status, 0, `the walkthrough failed:\n${r.stdout}\n${r.stderr}`);
  const outputs = r.stdout.split(/^@@step \d+\n/m).slice(1);
  assert.equal(outputs.length, all.length);
  all.forEach((st, i) => {
    if (!st.expect.length) return;
    const got = outputs[i].replace(/\n$/, '').split('\n');
    assert.equal(got.length, st.expect.length, `${st.command}\nprinted:\n${outputs[i]}`);
    st.expect.forEach((want, k) =>
      assert.match(got[k], pattern(want), `${st.command}\nprinted: ${got[k]}\npromised: ${want}`));
  });
  return outputs;
}

test('the README walkthrough prints what its comments say', () => {
  const all = steps(readFileSync(path.join(root, 'README.md'), 'utf8'));
  assert.ok(all.length >= 10 && all[0].command.startsWith('API='));
  assert.ok(all.filter((s) => s.expect.length).length >= 10);
  runSteps(all, stack);
});

test("the README's real-deck block runs on the game's cards as its comments say", async () => {
  const all = steps(readFileSync(path.join(root, 'README.md'), 'utf8'), '**Real decks.**');
  // its first line starts the stack (`make run` with SKIRMISH_CARDS_DIR): here a stack of
  // the test's own with the same folder
  assert.match(all[0].command, /^SKIRMISH_CARDS_DIR=\S+\/shared\/data\/tu make run/);
  assert.ok(all.some((st) => /^API=/.test(st.command)));
  // every job it submits is waited for to its end and its result read
  const submits = all.filter((st) => /-X POST \$API\/v1\/jobs/.test(st.command));
  const results = all.filter((st) => /\/v1\/jobs\/\$ID\/result/.test(st.command));
  assert.ok(submits.length >= 3);
  assert.equal(results.length, submits.length);
  for (const st of submits) assert.match(st.command, /^ID=\$\(/, 'each submission keeps its id');
  for (const st of [...submits, ...results]) assert.match(st.command, /-H "\$AUTH"/);
  const real = new Stack(h, 'readme_real', { SKIRMISH_AUTH: 'on', SKIRMISH_CARDS_DIR: gameCards });
  try {
    await real.start({ workers: 1 });
    const outputs = runSteps(all.slice(1), real);
    // the results are not null: each printed an object with numbers in it
    all.slice(1).forEach((st, i) => {
      if (results.includes(st)) assert.match(outputs[i], /^\{"[a-z_]+":("[a-z]+"|[0-9])/, st.command);
    });
  } finally {
    await stopClean(real);
  }
});
