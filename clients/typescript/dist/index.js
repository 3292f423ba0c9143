/** The statuses after which a job never changes. */
export const FINAL_STATUSES = ['succeeded', 'failed', 'canceled'];
export function isFinal(job) {
    return FINAL_STATUSES.includes(job.status);
}
/** An answer other than the one expected: the HTTP status and, for API errors, the
 *  problem document (RFC 9457) with its `type`, `detail` and `errors`. */
export class SkirmishError extends Error {
    status;
    problem;
    constructor(status, problem, message) {
        super(message ?? problem?.detail ?? `HTTP ${status}`);
        this.name = 'SkirmishError';
        this.status = status;
        this.problem = problem;
    }
}
/** A new random Idempotency-Key. */
export function newIdempotencyKey() {
    return globalThis.crypto.randomUUID();
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export class SkirmishClient {
    base;
    fetchFn;
    submitRetries;
    constructor(opts) {
        this.base = opts.baseUrl.replace(/\/+$/, '');
        const base = opts.fetch ?? globalThis.fetch.bind(globalThis);
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
    url(path, query) {
        const u = new URL(this.base + path);
        for (const [k, v] of Object.entries(query ?? {}))
            if (v !== undefined && v !== '')
                u.searchParams.set(k, String(v));
        return u.toString();
    }
    async json(r, ok) {
        if (ok.includes(r.status))
            return (await r.json());
        throw await errorOf(r);
    }
    /**
     * POST /v1/jobs. A network error (the answer was lost) is retried with the same
     * Idempotency-Key, so it never makes a second job; a 4xx/5xx answer throws SkirmishError.
     */
    async submit(doc, opts = {}) {
        const key = opts.idempotencyKey ?? newIdempotencyKey();
        for (let attempt = 0;; attempt++) {
            let r;
            try {
                r = await this.fetchFn(this.url('/v1/jobs'), {
                    method: 'POST',
                    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
                    body: JSON.stringify(doc),
                    signal: opts.signal,
                });
            }
            catch (e) {
                if (opts.signal?.aborted || attempt >= this.submitRetries)
                    throw e;
                await sleep(200 * 2 ** attempt);
                continue;
            }
            const job = await this.json(r, [200, 202]);
            return { job, created: r.status === 202, idempotencyKey: key };
        }
    }
    /** GET /v1/jobs/{id}. */
    async get(id, signal) {
        return this.json(await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}`), { signal }), [200]);
    }
    /**
     * Waits until the job is final with long polls (GET /v1/jobs/{id}?wait=S with the last
     * ETag as If-None-Match: each answer comes as soon as the job changed). Returns the final
     * job, whatever its status; onUpdate sees every change on the way.
     */
    async wait(id, opts = {}) {
        const seconds = opts.pollSeconds ?? 30;
        let etag = null;
        let job = null;
        for (;;) {
            const headers = {};
            if (etag)
                headers['If-None-Match'] = etag;
            const r = await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}`, { wait: job ? seconds : undefined }), { headers, signal: opts.signal });
            if (r.status === 304 && job)
                continue;
            job = await this.json(r, [200]);
            etag = r.headers.get('ETag');
            opts.onUpdate?.(job);
            if (isFinal(job))
                return job;
        }
    }
    /**
     * GET /v1/jobs/{id}/events as an async iterator: the job's status first, then progress and
     * status events as they happen; it ends after the final status. Reads the stream with
     * fetch, so it works where EventSource does not (Node) and carries no cookies.
     */
    async *events(id, opts = {}) {
        const headers = { Accept: 'text/event-stream' };
        if (opts.lastEventId)
            headers['Last-Event-ID'] = opts.lastEventId;
        const r = await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}/events`), { headers, signal: opts.signal });
        if (r.status !== 200 || !r.body)
            throw await errorOf(r);
        const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        try {
            for (;;) {
                const { value, done } = await reader.read();
                if (done)
                    return;
                buf += value;
                let end;
                while ((end = buf.indexOf('\n\n')) >= 0) {
                    const block = buf.slice(0, end);
                    buf = buf.slice(end + 2);
                    const ev = parseEvent(block);
                    if (ev)
                        yield ev;
                }
            }
        }
        finally {
            reader.releaseLock();
            await r.body.cancel().catch(() => undefined);
        }
    }
    /** GET /v1/jobs/{id}/result: the result of a succeeded job (409 SkirmishError otherwise;
     *  its problem's job_status says where the job is). */
    async result(id, signal) {
        return this.json(await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}/result`), { signal }), [200]);
    }
    /** POST /v1/jobs/{id}:cancel: at once when queued, at the next chunk when running;
     *  409 SkirmishError (type /problems/job-final) when already final. */
    async cancel(id, signal) {
        return this.json(await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}:cancel`), { method: 'POST', signal }), [202]);
    }
    /** POST /v1/jobs/{id}:retry: a new queued job from a final job's document (same seed),
     *  its retry_of naming the original; 409 SkirmishError (/problems/job-not-final) for a
     *  queued or running job. */
    async retry(id, signal) {
        return this.json(await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}:retry`), { method: 'POST', signal }), [202]);
    }
    /** DELETE /v1/jobs/{id}: deletes a final job (with its result); 409 SkirmishError
     *  (/problems/job-not-final) for a queued or running job, 404 for an unknown one. */
    async delete(id, signal) {
        const r = await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}`), { method: 'DELETE', signal });
        if (r.status !== 204)
            throw await errorOf(r);
    }
    /** GET /v1/jobs/{id}/document: the document the job was submitted with, its seed included. */
    async document(id, signal) {
        return this.json(await this.fetchFn(this.url(`/v1/jobs/${encodeURIComponent(id)}/document`), { signal }), [200]);
    }
    /** POST /v1/jobs:cancel?status=queued: cancels the queued jobs matching the filter. */
    async cancelQueued(query = {}, signal) {
        return this.json(await this.fetchFn(this.url('/v1/jobs:cancel', { status: 'queued', ...query }), { method: 'POST', signal }), [200]);
    }
    /** GET /v1/stats/history: jobs and games per minute. */
    async history(minutes, signal) {
        return this.json(await this.fetchFn(this.url('/v1/stats/history', { minutes }), { signal }), [200]);
    }
    /** GET /v1/jobs: one page, newest first. */
    async list(query = {}, signal) {
        return this.json(await this.fetchFn(this.url('/v1/jobs', query), { signal }), [200]);
    }
    /** Every job matching `query`, page after page (`limit` is the page size). */
    async *listAll(query = {}, signal) {
        let cursor = query.cursor;
        do {
            const page = await this.list({ ...query, cursor }, signal);
            yield* page.items;
            cursor = page.next_cursor ?? undefined;
        } while (cursor);
    }
    /** GET /v1/cards: the battle card catalog, filtered. */
    async cards(query = {}, signal) {
        return this.json(await this.fetchFn(this.url('/v1/cards', query), { signal }), [200]);
    }
    /** GET /v1/missions: the game's missions and raids, filtered. */
    async missions(query = {}, signal) {
        return this.json(await this.fetchFn(this.url('/v1/missions', query), { signal }), [200]);
    }
    /** GET /v1/stats. */
    async stats(signal) {
        return this.json(await this.fetchFn(this.url('/v1/stats'), { signal }), [200]);
    }
}
async function errorOf(r) {
    const type = r.headers.get('Content-Type') ?? '';
    if (type.startsWith('application/problem+json')) {
        const problem = (await r.json());
        return new SkirmishError(r.status, problem);
    }
    return new SkirmishError(r.status, undefined, `HTTP ${r.status} ${r.statusText}`.trim());
}
function parseEvent(block) {
    let event = 'message';
    let id;
    const data = [];
    for (const line of block.split('\n')) {
        if (line.startsWith(':'))
            continue; // comment (heartbeat)
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event')
            event = value;
        else if (field === 'data')
            data.push(value);
        else if (field === 'id')
            id = value;
    }
    if (data.length === 0)
        return null;
    const payload = JSON.parse(data.join('\n'));
    if (event === 'status')
        return { event, id, job: payload };
    if (event === 'progress')
        return { event, id, progress: payload };
    return null;
}
