// SPDX-License-Identifier: MIT
// A small client of the Skirmish API over fetch (browsers, Node 18+, Deno, Bun): submit a
// job with an Idempotency-Key, wait for it (long poll or server-sent events), read its
// result, cancel, retry and list jobs. Every type comes from ./schema.ts, which
// openapi-typescript generates from openapi/openapi.json (`npm run gen:client` at the
// repository root); nothing here restates a field of the API.
import type { components, paths } from './schema.js';

export type Job = components['schemas']['Job'];
export type JobStatus = components['schemas']['JobStatus'];
export type JobDocument = components['schemas']['JobDocument'];
export type JobList = components['schemas']['JobList'];
export type Result = components['schemas']['Result'];
export type BattleResult = components['schemas']['BattleResult'];
export type BoardResult = components['schemas']['BoardResult'];
export type Problem = components['schemas']['Problem'];
export type Progress = components['schemas']['Progress'];
export type CardList = components['schemas']['CardList'];
export type SpellList = components['schemas']['SpellList'];
export type Stats = components['schemas']['Stats'];
export type History = components['schemas']['History'];
export type ListQuery = NonNullable<paths['/v1/jobs']['get']['parameters']['query']>;
export type CancelQueuedQuery = paths['/v1/jobs:cancel']['post']['parameters']['query'];
export type CancelQueuedResult =
  paths['/v1/jobs:cancel']['post']['responses'][200]['content']['application/json'];
export type CardQuery = NonNullable<paths['/v1/cards']['get']['parameters']['query']>;
export type MissionList = components['schemas']['MissionList'];
export type MissionQuery = NonNullable<paths['/v1/missions']['get']['parameters']['query']>;

/** The statuses after which a job never changes. */
export const FINAL_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'canceled'];

export function isFinal(job: Job): boolean {
  return FINAL_STATUSES.includes(job.status);
}

/** An answer other than the one expected: the HTTP status and, for API errors, the
 *  problem document (RFC 9457) with its `type`, `detail` and `errors`. */
export class SkirmishError extends Error {
  readonly status: number;
  readonly problem?: Problem;

  constructor(status: number, problem?: Problem, message?: string) {
    super(message ?? problem?.detail ?? `HTTP ${status}`);
    this.name = 'SkirmishError';
    this.status = status;
    this.problem = problem;
  }
}

export interface ClientOptions {
  /** The API's base URL, e.g. "http://127.0.0.1:8080". */
  baseUrl: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** An API key (`sk_...`, from `skirmish-api keys create` or `make run`), sent as
   *  `Authorization: Bearer` with every request. Keep it out of pages served to others: a
   *  browser page that calls the API with a key shows that key to its user. */
  apiKey?: string;
  /** How often submit() repeats a POST whose answer was lost (network error); default 3. */
  submitRetries?: number;
}

export interface SubmitOptions {
  /** Sent as Idempotency-Key; default: a new random key. Submitting the same document
   *  with the same key again returns the same job instead of making a second one. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface Submitted {
  job: Job;
  /** true for 202 (a new job), false for 200 (this key's earlier job). */
  created: boolean;
  idempotencyKey: string;
}

export interface WaitOptions {
  /** Called with the job each time it changed (progress, status). */
  onUpdate?: (job: Job) => void;
  /** Seconds each long poll may wait on the server (1..60, default 30). */
  pollSeconds?: number;
  signal?: AbortSignal;
}

/** One server-sent event of GET /v1/jobs/{id}/events. */
export type JobEvent =
  | { event: 'status'; id?: string; job: Job }
  | { event: 'progress'; id?: string; progress: Progress };

/** A new random Idempotency-Key. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SkirmishClient {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;
  private readonly submitRetries: number;

  constructor(opts: ClientOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    const base: typeof fetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
    const key = opts.apiKey;
    this.fetchFn = key
      ? (input, init = {}) => {
          const headers = new Headers(init.headers);
          headers.set('Authorization', `Bearer ${key}`);
          return base(input, { ...init, headers });
        }
      : base;
    this.submitRetries = opts.submitRetries ?? 3;
  }

  private url(path: string, query?: Record<string, string | number | undefined>): string {
    const u = new URL(this.base + path);
    for (const [k, v] of Object.entries(query ?? {}))
      if (v !== undefined && v !== '') u.searchParams.set(k, String(v));
    return u.toString();
  }

  private async json<T>(r: Response, ok: number[]): Promise<T> {
    if (ok.includes(r.status)) return (await r.json()) as T;
    throw await errorOf(r);
  }

  /**
   * POST /v1/jobs. A network error (the answer was lost) is retried with the same
   * Idempotency-Key, so it never makes a second job; a 4xx/5xx answer throws SkirmishError.
   */
  async submit(doc: JobDocument, opts: SubmitOptions = {}): Promise<Submitted> {
    const key = opts.idempotencyKey ?? newIdempotencyKey();
    for (let attempt = 0; ; attempt++) {
      let r: Response;
      try {
        r = await this.fetchFn(this.url('/v1/jobs'), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body: JSON.stringify(doc),
          signal: opts.signal,
        });
      } catch (e) {
        if (opts.signal?.aborted || attempt >= this.submitRetries) throw e;
        await sleep(200 * 2 ** attempt);
        continue;
      }
      const job = await this.json<Job>(r, [200, 202]);
      return { job, created: r.status === 202, idempotencyKey: key };
    }
  }

  /** GET /v1/jobs/{id}. */
  async get(id: string, signal?: AbortSignal): Promise<Job> {
    return this.json<Job>(await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}`), { signal }), [200]);
  }

  /**
   * Waits until the job is final with long polls (GET /v1/jobs/{id}?wait=S with the last
   * ETag as If-None-Match: each answer comes as soon as the job changed). Returns the final
   * job, whatever its status; onUpdate sees every change on the way.
   */
  async wait(id: string, opts: WaitOptions = {}): Promise<Job> {
    const seconds = opts.pollSeconds ?? 30;
    let etag: string | null = null;
    let job: Job | null = null;
    for (;;) {
      const headers: Record<string, string> = {};
      if (etag) headers['If-None-Match'] = etag;
      const r: Response = await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}`, { wait: job ? seconds : undefined }),
                                   { headers, signal: opts.signal });
      if (r.status === 304 && job) continue;
      job = await this.json<Job>(r, [200]);
      etag = r.headers.get('ETag');
      opts.onUpdate?.(job);
      if (isFinal(job)) return job;
    }
  }

  /**
   * GET /v1/jobs/{id}/events as an async iterator: the job's status first, then progress and
   * status events as they happen; it ends after the final status. Reads the stream with
   * fetch, so it works where EventSource does not (Node) and carries no cookies. When the
   * key is revoked while the stream is open, the API ends it with a `revoked` event: the
   * iterator then throws a SkirmishError with status 401 and that problem.
   */
  async *events(id: string, opts: { lastEventId?: string; signal?: AbortSignal } = {}): AsyncGenerator<JobEvent> {
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (opts.lastEventId) headers['Last-Event-ID'] = opts.lastEventId;
    const r = await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}/events`), { headers, signal: opts.signal });
    if (r.status !== 200 || !r.body) throw await errorOf(r);
    const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += value;
        let end: number;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const ev = parseEvent(block);
          if (ev) yield ev;
        }
      }
    } finally {
      reader.releaseLock();
      await r.body.cancel().catch(() => undefined);
    }
  }

  /** GET /v1/jobs/{id}/result: the result of a succeeded job (409 SkirmishError otherwise;
   *  its problem's job_status says where the job is). */
  async result(id: string, signal?: AbortSignal): Promise<Result> {
    return this.json<Result>(await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}/result`), { signal }), [200]);
  }

  /** POST /v1/jobs/{id}:cancel: at once when queued, at the next chunk when running;
   *  409 SkirmishError (type /problems/job-final) when already final. */
  async cancel(id: string, signal?: AbortSignal): Promise<Job> {
    return this.json<Job>(await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}:cancel`), { method: 'POST', signal }), [202]);
  }

  /** POST /v1/jobs/{id}:retry: a new queued job from a final job's document (same seed),
   *  its retry_of naming the original; 409 SkirmishError (/problems/job-not-final) for a
   *  queued or running job. */
  async retry(id: string, signal?: AbortSignal): Promise<Job> {
    return this.json<Job>(await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}:retry`), { method: 'POST', signal }), [202]);
  }

  /** DELETE /v1/jobs/{id}: deletes a final job (with its result); 409 SkirmishError
   *  (/problems/job-not-final) for a queued or running job, 404 for an unknown one. */
  async delete(id: string, signal?: AbortSignal): Promise<void> {
    const r = await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}`), { method: 'DELETE', signal });
    if (r.status !== 204) throw await errorOf(r);
  }

  /** GET /v1/jobs/{id}/document: the document the job was submitted with, its seed included. */
  async document(id: string, signal?: AbortSignal): Promise<JobDocument> {
    return this.json<JobDocument>(await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}/document`), { signal }), [200]);
  }

  /** POST /v1/jobs:cancel?status=queued: cancels the queued jobs matching the filter. */
  async cancelQueued(query: Omit<CancelQueuedQuery, 'status'> = {}, signal?: AbortSignal): Promise<CancelQueuedResult> {
    return this.json<CancelQueuedResult>(
      await this.fetchFn(this.url('/v1/jobs:cancel', { status: 'queued', ...query }), { method: 'POST', signal }), [200]);
  }

  /** GET /v1/stats/history: jobs and games per minute. */
  async history(minutes?: number, signal?: AbortSignal): Promise<History> {
    return this.json<History>(await this.fetchFn(this.url('/v1/stats/history', { minutes }), { signal }), [200]);
  }

  /** GET /v1/jobs: one page, newest first. */
  async list(query: ListQuery = {}, signal?: AbortSignal): Promise<JobList> {
    return this.json<JobList>(await this.fetchFn(this.url('/v1/jobs', query), { signal }), [200]);
  }

  /** Every job matching `query`, page after page (`limit` is the page size). */
  async *listAll(query: ListQuery = {}, signal?: AbortSignal): AsyncGenerator<Job> {
    let cursor: string | undefined = query.cursor;
    do {
      const page = await this.list({ ...query, cursor }, signal);
      yield* page.items;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** GET /v1/cards: the battle card catalog, filtered. */
  async cards(query: CardQuery = {}, signal?: AbortSignal): Promise<CardList> {
    return this.json<CardList>(await this.fetchFn(this.url('/v1/cards', query), { signal }), [200]);
  }

  /** GET /v1/missions: the game's missions and raids, filtered. */
  async missions(query: MissionQuery = {}, signal?: AbortSignal): Promise<MissionList> {
    return this.json<MissionList>(
      await this.fetchFn(this.url('/v1/missions', query), { signal }),
      [200],
    );
  }

  /** GET /v1/stats. */
  async stats(signal?: AbortSignal): Promise<Stats> {
    return this.json<Stats>(await this.fetchFn(this.url('/v1/stats'), { signal }), [200]);
  }
}

async function errorOf(r: Response): Promise<SkirmishError> {
  const type = r.headers.get('Content-Type') ?? '';
  if (type.startsWith('application/problem+json')) {
    const problem = (await r.json()) as Problem;
    return new SkirmishError(r.status, problem);
  }
  return new SkirmishError(r.status, undefined, `HTTP ${r.status} ${r.statusText}`.trim());
}

function parseEvent(block: string): JobEvent | null {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue; // comment (heartbeat)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  if (data.length === 0) return null;
  const payload = JSON.parse(data.join('\n'));
  // the key was revoked: the API ends the stream after this event (its data a 401 problem)
  if (event === 'revoked') throw new SkirmishError(401, payload as Problem);
  if (event === 'status') return { event, id, job: payload as Job };
  if (event === 'progress') return { event, id, progress: payload as Progress };
  return null;
}
