// SPDX-License-Identifier: MIT
// Support of the browser tests: a skirmish-api and skirmish-worker from $SKIRMISH_BIN_DIR
// on a free loopback port, against the PostgreSQL and Redis that scripts/test.sh started
// ($SKIRMISH_DATABASE_URL, $SKIRMISH_REDIS_URL), with a fresh database and Redis key prefix
// per stack (as tests/integration/it_support.c does); headless Debian Chromium through
// playwright-core; the folder for screenshots. Never uses a server left running by hand.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync, closeSync, readFileSync, existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The game's card files the real-catalog tests load (SKIRMISH_CARDS_DIR; never copied
 *  into the repository). */
export const gameCards = path.resolve(root, '../shared/data/tu');

const NEED = ['SKIRMISH_DATABASE_URL', 'SKIRMISH_REDIS_URL', 'SKIRMISH_BIN_DIR'];

/** The harness's variables, or throws naming the missing one. */
export function harness() {
  for (const n of NEED)
    if (!process.env[n]) throw new Error(`browser tests need ${n}: run them through scripts/test.sh`);
  const bin = process.env.SKIRMISH_BIN_DIR;
  const artifacts = process.env.SKIRMISH_TEST_ARTIFACTS || path.join(bin, 'test-artifacts');
  const dir = path.join(artifacts, 'browser');
  mkdirSync(dir, { recursive: true });
  return { bin, artifacts: dir, dbUrl: process.env.SKIRMISH_DATABASE_URL,
           chromium: process.env.SKIRMISH_CHROMIUM || '/usr/bin/chromium' };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function psql(url, sql) {
  const r = spawnSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql ${sql}: ${r.stderr || r.error}`);
  return r.stdout.trim();
}

/** A stack: fresh database and key prefix named after `name`, API on a free port. */
export class Stack {
  constructor(h, name, env = {}) {
    this.h = h;
    this.name = `${name}_${process.pid}`;
    this.db = `sk_br_${this.name}`;
    const base = h.dbUrl;
    this.dbUrl = base.slice(0, base.lastIndexOf('/') + 1) + this.db;
    this.prefix = `br_${this.name}`;
    this.env = env;
    this.procs = [];
  }

  async start({ workers = 1, workerEnv = {} } = {}) {
    psql(this.h.dbUrl, `DROP DATABASE IF EXISTS ${this.db}`);
    psql(this.h.dbUrl, `CREATE DATABASE ${this.db}`);
    this.port = await freePort();
    this.url = `http://127.0.0.1:${this.port}`;
    // with keys on, an admin key made before the API starts (as `make run` does)
    if (this.env.SKIRMISH_AUTH === 'on') this.adminKey = this.key({ tenant: 'dev', admin: true });
    this.spawn('skirmish-api', 'api', {});
    await this.waitReady();
    for (let i = 0; i < workers; i++) this.spawn('skirmish-worker', `worker${i}`, workerEnv);
  }

  procEnv(logName, extra) {
    return { ...process.env, SKIRMISH_DATABASE_URL: this.dbUrl,
             SKIRMISH_QUEUE_PREFIX: this.prefix, SKIRMISH_HTTP_PORT: String(this.port),
             SKIRMISH_HTTP_ADDR: '127.0.0.1', SKIRMISH_HTTP_THREADS: '4',
             SKIRMISH_LOG_LEVEL: 'debug', SKIRMISH_WORKER_NAME: logName,
             // jobs are not split unless a test asks: the tests' big jobs stand for
             // one long job (a split job runs and ends as its shards do)
             SKIRMISH_SHARD_UNITS: '0', ...this.env, ...extra };
  }

  /** Makes an API key with `skirmish-api keys create` (which applies the migrations
   * first) and returns its text. */
  key({ tenant = 'dev', admin = false } = {}) {
    const args = ['keys', 'create', '--tenant', tenant, ...(admin ? ['--admin'] : [])];
    const r = spawnSync(path.join(this.h.bin, 'skirmish-api'), args,
                        { env: this.procEnv('keys', {}), encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`skirmish-api keys create: ${r.stderr}`);
    return r.stdout.trim();
  }

  spawn(prog, logName, extra) {
    const log = path.join(this.h.artifacts, `${this.name}-${logName}.log`);
    const fd = openSync(log, 'a');
    const env = this.procEnv(logName, extra);
    const p = spawn(path.join(this.h.bin, prog), [], { env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    p.logFile = log;
    p.logName = logName;
    p.exited = new Promise((resolve) => p.on('exit', (code, sig) => resolve({ code, sig })));
    this.procs.push(p);
    return p;
  }

  /** Stops (SIGSTOP) or resumes (SIGCONT) every worker process: a test that must see a job
   * before it runs submits it while its workers stand still, so however fast the machine
   * plays it the job is still queued when the page opens it. */
  pauseWorkers(paused = true) {
    for (const p of this.procs) {
      if (p.logName.startsWith('worker') && p.exitCode === null && p.signalCode === null)
        p.kill(paused ? 'SIGSTOP' : 'SIGCONT');
    }
  }

  async waitReady(ms = 30000) {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      try {
        const r = await fetch(`${this.url}/readyz`);
        if (r.status === 200) return;
      } catch { /* not listening yet */ }
      await sleep(50);
    }
    throw new Error(`skirmish-api did not become ready:\n${this.logs()}`);
  }

  /** The last lines of every process's log (for failure messages). */
  logs(lines = 30) {
    return this.procs.map((p) => {
      const text = existsSync(p.logFile) ? readFileSync(p.logFile, 'utf8') : '';
      return `--- ${p.logFile}\n${text.split('\n').slice(-lines).join('\n')}`;
    }).join('\n');
  }

  /** Stops every process (SIGTERM, then SIGKILL after 5 s) and drops the database. Returns
   * per process its exit code and signal, so a test can check a clean stop (ASan leak
   * reports make it non-zero), and `stray`: the log lines not in the log's key=value format
   * (a library printing on stderr, such as libpq's raw "NOTICE:" or libmicrohttpd's option
   * warnings), which a clean run has none of. */
  async stop() {
    const codes = [];
    for (const p of this.procs) {
      if (p.exitCode === null && p.signalCode === null) p.kill('SIGTERM');
      const t = setTimeout(() => p.kill('SIGKILL'), 5000);
      const c = await p.exited;
      clearTimeout(t);
      const text = existsSync(p.logFile) ? readFileSync(p.logFile, 'utf8') : '';
      c.stray = text.split('\n').filter((l) => l !== '' && !l.startsWith('ts='));
      codes.push(c);
    }
    this.procs = [];
    try {
      psql(this.h.dbUrl, `DROP DATABASE IF EXISTS ${this.db} WITH (FORCE)`);
    } catch { /* best effort: the harness's folder goes away anyway */ }
    return codes;
  }
}

/** Stops `stack` (when it was made) and fails unless every process exited 0 on SIGTERM
 *  with nothing but key=value lines in its log (see Stack.stop). */
export async function stopClean(stack) {
  if (!stack) return;
  const codes = await stack.stop();
  for (const c of codes) assert.deepEqual(c, { code: 0, sig: null, stray: [] }, stack.logs());
}

/** Headless Debian Chromium. The flags keep it off the network (this machine has none) and
 * allow running as root. */
export async function launchBrowser(h) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: h.chromium, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// What the deckbuilder example's origin serves, as `python3 -m http.server` from the
// repository root would: the page and the TypeScript client it imports
// (clients/typescript/dist).
const EXAMPLE_FILES = {
  '/examples/deckbuilder.html': 'text/html; charset=utf-8',
  '/clients/typescript/dist/index.js': 'text/javascript; charset=utf-8',
  '/clients/typescript/dist/schema.js': 'text/javascript; charset=utf-8',
};

/** Serves the deckbuilder example on a free loopback port, an origin of its own; returns
 *  {server, origin}. */
export async function serveExample() {
  const port = await freePort();
  const server = http.createServer((req, res) => {
    const p = req.url.split('?')[0];
    if (EXAMPLE_FILES[p]) {
      res.writeHead(200, { 'Content-Type': EXAMPLE_FILES[p] });
      res.end(readFileSync(path.join(root, p)));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** Runs `skirmish run` on `doc` in-process (CPU backend, one thread); returns the result
 * document and the wall time in ms. */
export function runCli(h, doc) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(path.join(h.bin, 'skirmish'), ['run', '--device', 'cpu', '--threads', '1', '-'],
                      { input: JSON.stringify(doc), encoding: 'utf8', maxBuffer: 1 << 24 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`skirmish run failed (${r.status}): ${r.stderr}`);
  return { result: JSON.parse(r.stdout), ms };
}

/** Same as runCli, without blocking the event loop (so the page keeps being watched). */
export function runCliAsync(h, doc) {
  return new Promise((resolve, reject) => {
    const p = spawn(path.join(h.bin, 'skirmish'), ['run', '--device', 'cpu', '--threads', '1', '-'],
                    { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '', err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out))
                                        : reject(new Error(`skirmish run: ${code} ${err}`))));
    p.stdin.end(JSON.stringify(doc));
  });
}
