// SPDX-License-Identifier: MIT
// A tenant under attack (issue 46's load test): how long a well-behaved tenant's job GETs
// take while another tenant and keyless clients do their worst within the API's limits.
// Starts its own stack with keys on (a fresh database and Redis prefix on the PostgreSQL
// and Redis named by SKIRMISH_DATABASE_URL and SKIRMISH_REDIS_URL, the programs of
// SKIRMISH_BIN_DIR; one worker runs the victim's first job and stops) and runs four phases
// of SECONDS each:
//   baseline   the victim alone;
//   tenant     another tenant from 8 client addresses (127.0.0.10-17): 64 connections
//              submitting small jobs, reading its jobs and the list, and every long poll
//              and event stream it may hold;
//   keyless    clients without a valid key from 8 other addresses (127.0.0.20-27): refused
//              keys as fast as they are answered, 1 MiB bodies sent slowly, and connections
//              that never finish their header (a slowloris), each up to the per-address caps;
//   both       the two at once.
// The victim (127.0.0.1) reads one queued and one finished job of its own in turn, one
// request at a time over one keep-alive connection, 40 a second (its key's rate is 50), and the table shows its latency
// percentiles and any answer that was not 200 per phase. Prints a table; asserts nothing.
//   SKIRMISH_DATABASE_URL=... SKIRMISH_REDIS_URL=... SKIRMISH_BIN_DIR=build \
//     node bench/attack.mjs [SECONDS=10]
import http from 'node:http';
import net from 'node:net';
import { cpus } from 'node:os';
import { harness, Stack } from '../tests/browser/stack.mjs';

const seconds = Number(process.argv[2] || 10);
const h = harness();
const stack = new Stack(h, 'attack', { SKIRMISH_AUTH: 'on', SKIRMISH_LOG_LEVEL: 'warn',
                                       SKIRMISH_ACCESS_LOG: '0', SKIRMISH_ENGINE_THREADS: '1' });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function battle(games, seed) {
  return JSON.stringify({ kind: 'battle', seed, params: { games,
    attacker: { commander: 'Test Commander', deck: [{ card: 'Grunt', count: 5 }] },
    defender: { commander: 'Test Commander', deck: [{ card: 'Brute', count: 4 }] } } });
}

// One HTTP exchange from local address `from` with `agent`: {status, ms, body}.
function request(agent, from, method, path, key, body) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const headers = {};
    if (key) headers.Authorization = `Bearer ${key}`;
    if (body) { headers['Content-Type'] = 'application/json'; headers['Content-Length'] = Buffer.byteLength(body); }
    const req = http.request({ host: '127.0.0.1', port: stack.port, method, path, headers, agent,
                               localAddress: from }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t0,
                                    body: Buffer.concat(parts).toString() }));
      res.on('error', () => resolve({ status: 0, ms: performance.now() - t0, body: '' }));
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t0, body: '' }));
    req.setTimeout(60000, () => req.destroy());
    if (body) req.write(body);
    req.end();
  });
}

// Runs `fn` in a loop until `until()` says stop, `n` at once.
async function loop(n, until, fn) {
  await Promise.all(Array.from({ length: n }, async (_, i) => {
    while (!until()) await fn(i);
  }));
}

function pct(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
}

// The other tenant: submissions, reads and every waiter it may hold, from 8 addresses.
function tenantAttack(key, until) {
  const addrs = Array.from({ length: 8 }, (_, i) => `127.0.0.${10 + i}`);
  const agents = addrs.map(() => new http.Agent({ keepAlive: true, maxSockets: 16 }));
  const ids = [];
  let seed = 1000;
  const work = loop(64, until, async (i) => {
    const a = i % 8;
    const r = i % 4 === 0
      ? await request(agents[a], addrs[a], 'POST', '/v1/jobs', key, battle(10, seed++))
      : await request(agents[a], addrs[a], 'GET', ids.length && i % 2 ? `/v1/jobs/${ids[i % ids.length]}`
        : '/v1/jobs?limit=100', key);
    if (r.status === 202 && ids.length < 1000) ids.push(JSON.parse(r.body).id);
    if (r.status === 429) await sleep(20);
  });
  // long polls on its own jobs and streams of every job, as many as it is let hold
  const waiters = loop(96, until, async (i) => {
    const a = i % 8;
    const path = i % 2 ? '/v1/events' : `/v1/jobs/${ids[0] || '00000000-0000-4000-8000-000000000000'}?wait=30`;
    const r = await request(new http.Agent({ keepAlive: false }), addrs[a], 'GET', path, key);
    if (r.status !== 200) await sleep(200);
  });
  return Promise.all([work, waiters]).then(() => agents.forEach((g) => g.destroy()));
}

// Raw connections from `from` that send `head` and then a byte every `every` ms until stop.
function slow(from, head, every, until) {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port: stack.port, localAddress: from });
    let timer = null;
    const done = () => { clearInterval(timer); s.destroy(); resolve(); };
    s.on('error', done);
    s.on('close', done);
    s.on('connect', () => {
      s.write(head);
      timer = setInterval(() => { if (until()) done(); else s.write('x'); }, every);
    });
  });
}

// Keyless clients: refused keys, slow bodies and unfinished headers, from 8 addresses.
function keylessAttack(until) {
  const addrs = Array.from({ length: 8 }, (_, i) => `127.0.0.${20 + i}`);
  const agents = addrs.map(() => new http.Agent({ keepAlive: true, maxSockets: 8 }));
  const bad = 'sk_0123456789abcdef_not-a-real-secret-not-a-real-secret';
  const refused = loop(32, until, async (i) => {
    const r = await request(agents[i % 8], addrs[i % 8], 'GET', '/v1/jobs', bad);
    if (r.status === 0) await sleep(50);
  });
  const bodies = loop(64, until, (i) => slow(addrs[i % 8],
    'POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
    'Content-Length: 1048575\r\n\r\n' + ' '.repeat(60000), 200, until));
  const headers = loop(320, until, (i) => slow(addrs[i % 8], 'GET /healthz HTTP/1.1\r\nHost: x\r\n',
                                                 500, until));
  return Promise.all([refused, bodies, headers]).then(() => agents.forEach((g) => g.destroy()));
}

async function phase(name, victimKey, ids, attacks) {
  let stop = false;
  const until = () => stop;
  const running = attacks.map((a) => a(until));
  await sleep(attacks.length ? 1000 : 0); // the attack at full strength first
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const lat = [];
  const other = {};
  const end = Date.now() + seconds * 1000;
  for (let i = 0; Date.now() < end; i++) {
    const t0 = Date.now();
    const r = await request(agent, '127.0.0.1', 'GET', `/v1/jobs/${ids[i % 2]}`, victimKey);
    if (r.status === 200) lat.push(r.ms);
    else other[r.status] = (other[r.status] || 0) + 1;
    await sleep(Math.max(0, 25 - (Date.now() - t0))); // 40 a second: within its rate limit
  }
  stop = true;
  agent.destroy();
  await Promise.race([Promise.all(running), sleep(15000)]);
  lat.sort((a, b) => a - b);
  const f = (v) => v.toFixed(2);
  console.log(`| ${name} | ${lat.length} | ${f(pct(lat, 0.5))} | ${f(pct(lat, 0.99))} | ` +
              `${f(lat.at(-1) ?? NaN)} | ${JSON.stringify(other)} |`);
}

await stack.start({ workers: 1 });
try {
  const victim = stack.key({ tenant: 'victim' });
  const mallory = stack.key({ tenant: 'mallory' });
  // the victim's two jobs: one that finishes, and one left queued
  const g = new http.Agent({ keepAlive: true });
  const done = JSON.parse((await request(g, '127.0.0.1', 'POST', '/v1/jobs', victim, battle(1000, 1))).body).id;
  for (let t = 0; t < 300; t++) {
    const r = JSON.parse((await request(g, '127.0.0.1', 'GET', `/v1/jobs/${done}`, victim)).body);
    if (r.status === 'succeeded') break;
    await sleep(100);
  }
  // then the worker stops: workers run on machines of their own, and here it would take the
  // cores the API needs (PoCL runs a job on every core), measuring the machine, not the API
  const worker = stack.procs[1];
  worker.kill('SIGTERM');
  await worker.exited;
  const queued = JSON.parse((await request(g, '127.0.0.1', 'POST', '/v1/jobs', victim, battle(1000, 3))).body).id;
  g.destroy();
  console.log(`victim job GETs (ms) under attack, ${seconds} s a phase, ${cpus().length} × ${cpus()[0].model}`);
  console.log('| phase | requests | p50 | p99 | max | other answers |');
  console.log('|---|---:|---:|---:|---:|---|');
  const ids = [queued, done];
  await phase('baseline', victim, ids, []);
  await phase('tenant', victim, ids, [(u) => tenantAttack(mallory, u)]);
  await phase('keyless', victim, ids, [(u) => keylessAttack(u)]);
  await phase('both', victim, ids, [(u) => tenantAttack(mallory, u), (u) => keylessAttack(u)]);
} finally {
  await stack.stop();
}
