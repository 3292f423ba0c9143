// SPDX-License-Identifier: MIT
// POST→result latency of small battle jobs through a live stack (`make run`): for N jobs
// in turn, POST the job (examples/battle_reference_1.json with `games` set and a fresh
// seed), long-poll GET /v1/jobs/{id}?wait=30 until it is final, then GET its result. The
// table shows the client's view (POST sent → result read) next to what the job resource
// and the result say about each step, so the gap between request and result can be read
// step by step:
//   queued    created_at → started_at   (enqueue, a worker's XREADGROUP wake-up, claim)
//   engine    the result's elapsed_ms    (decode, plan, device, games)
//   run       started_at → finished_at  (claim → result stored, engine included)
//   client    POST sent → result read    (everything, HTTP included)
// Usage: node bench/latency.mjs [API=http://127.0.0.1:8080] [N=30] [GAMES=100000]
// API may be several stacks, comma-separated (e.g. a build before and after a change,
// each under its own `make run` on other ports): their jobs then alternate, one at a time,
// so a noisy machine weighs on each alike, and each gets its own table.
// Jobs run one at a time on otherwise idle stacks. Prints tables; never asserts timings.
import { readFileSync } from 'node:fs';

// A stack with keys on (`make run`): SKIRMISH_KEY goes with every request.
if (process.env.SKIRMISH_KEY) {
  const plain = globalThis.fetch;
  globalThis.fetch = (url, init = {}) => plain(url, { ...init, headers: { ...init.headers,
    Authorization: `Bearer ${process.env.SKIRMISH_KEY}` } });
}

const bases = (process.argv[2] || 'http://127.0.0.1:8080').split(',');
const n = Number(process.argv[3] || 30);
const games = Number(process.argv[4] || 100000);
const example = JSON.parse(readFileSync(new URL('../examples/battle_reference_1.json', import.meta.url)));

async function json(res) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text}`);
  return JSON.parse(text);
}

async function one(base, seed) {
  const doc = { ...example, seed, params: { ...example.params, games } };
  const t0 = performance.now();
  const sub = await json(await fetch(`${base}/v1/jobs`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(doc),
  }));
  let job = sub;
  while (!['succeeded', 'failed', 'canceled'].includes(job.status)) {
    const r = await fetch(`${base}/v1/jobs/${sub.id}?wait=30`);
    job = await json(r);
  }
  if (job.status !== 'succeeded') throw new Error(`job ${sub.id} ${job.status}`);
  const result = await json(await fetch(`${base}/v1/jobs/${sub.id}/result`));
  const t1 = performance.now();
  const ms = (a, b) => (a && b ? Date.parse(b) - Date.parse(a) : NaN);
  return {
    client: t1 - t0,
    queued: ms(job.created_at, job.started_at),
    run: ms(job.started_at, job.finished_at),
    engine: result.elapsed_ms,
    backend: result.backend + (result.device ? ` (${result.device})` : ''),
  };
}

const q = (xs, p) => {
  const s = [...xs].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};

for (const base of bases) await one(base, 1); // warm-up: first connections, first job
const rows = bases.map(() => []);
for (let i = 0; i < n; i++)
  for (let b = 0; b < bases.length; b++) rows[b].push(await one(bases[b], 1000 + i));
const cols = ['client', 'queued', 'run', 'engine'];
for (let b = 0; b < bases.length; b++) {
  console.log(`\n${n} jobs of ${games} games, one at a time, against ${bases[b]}; backend: ${rows[b][0].backend}`);
  console.log('| step | p10 ms | median ms | p90 ms |');
  console.log('|---|---:|---:|---:|');
  for (const c of cols) {
    const xs = rows[b].map((r) => r[c]);
    console.log(`| ${c} | ${q(xs, 0.1).toFixed(1)} | ${q(xs, 0.5).toFixed(1)} | ${q(xs, 0.9).toFixed(1)} |`);
  }
}
