// SPDX-License-Identifier: MIT
// How fast waiting clients hear about a change: for N queued jobs, a long poll
// (GET /v1/jobs/{id}?wait=30 with If-None-Match) or an event stream (GET .../events) is
// opened, then the job is canceled; the table shows the time from sending the cancel to
// the waiter's answer (long poll) or to reading the `canceled` status event (SSE). Run it
// against an API with NO worker (jobs must stay queued), e.g. a `bench/api.sh`-style stack:
//   node bench/api_wait.mjs http://127.0.0.1:8080 [N=20]
// Prints a table; never asserts timings.

// A stack with keys on (`make run`): SKIRMISH_KEY goes with every request.
if (process.env.SKIRMISH_KEY) {
  const plain = globalThis.fetch;
  globalThis.fetch = (url, init = {}) => plain(url, { ...init, headers: { ...init.headers,
    Authorization: `Bearer ${process.env.SKIRMISH_KEY}` } });
}

const base = process.argv[2] || 'http://127.0.0.1:8080';
const n = Number(process.argv[3] || 20);
const doc = JSON.stringify({
  kind: 'battle',
  params: {
    games: 10,
    attacker: { commander: 'Test Commander', deck: [] },
    defender: { commander: 'Test Commander', deck: [] },
  },
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function submit() {
  const r = await fetch(`${base}/v1/jobs`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: doc });
  return { id: (await r.json()).id, etag: r.headers.get('etag') };
}

async function cancelAfter(id, ms) {
  await sleep(ms);
  const t = performance.now();
  await (await fetch(`${base}/v1/jobs/${id}:cancel`, { method: 'POST' })).text();
  return t;
}

async function longPoll() {
  const { id, etag } = await submit();
  const done = fetch(`${base}/v1/jobs/${id}?wait=30`, { headers: { 'If-None-Match': etag } })
    .then((r) => r.text())
    .then(() => performance.now());
  const sent = await cancelAfter(id, 200);
  return (await done) - sent;
}

async function sse() {
  const { id } = await submit();
  const r = await fetch(`${base}/v1/jobs/${id}/events`);
  const reader = r.body.getReader();
  const done = (async () => {
    let text = '';
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      text += new TextDecoder().decode(value);
      if (text.includes('"canceled"')) break;
    }
    reader.cancel().catch(() => {});
    return performance.now();
  })();
  const sent = await cancelAfter(id, 200);
  return (await done) - sent;
}

function row(name, xs) {
  xs.sort((a, b) => a - b);
  const q = (p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(2);
  console.log(`| ${name} | ${xs.length} | ${q(0.5)} | ${q(0.9)} | ${xs[xs.length - 1].toFixed(2)} |`);
}

const lp = [];
const ev = [];
for (let i = 0; i < n; i++) lp.push(await longPoll());
for (let i = 0; i < n; i++) ev.push(await sse());
console.log('| waiter | runs | p50 ms | p90 ms | max ms |\n|---|---:|---:|---:|---:|');
row('long poll (`?wait=30`, If-None-Match)', lp);
row('event stream (`/events`)', ev);
