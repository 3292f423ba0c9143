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
export type CancelQueuedResult = paths['/v1/jobs:cancel']['post']['responses'][200]['content']['application/json'];
export type CardQuery = NonNullable<paths['/v1/cards']['get']['parameters']['query']>;
export type MissionList = components['schemas']['MissionList'];
export type MissionQuery = NonNullable<paths['/v1/missions']['get']['parameters']['query']>;
/** The statuses after which a job never changes. */
export declare const FINAL_STATUSES: readonly JobStatus[];
export declare function isFinal(job: Job): boolean;
/** An answer other than the one expected: the HTTP status and, for API errors, the
 *  problem document (RFC 9457) with its `type`, `detail` and `errors`. */
export declare class SkirmishError extends Error {
    readonly status: number;
    readonly problem?: Problem;
    constructor(status: number, problem?: Problem, message?: string);
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
export type JobEvent = {
    event: 'status';
    id?: string;
    job: Job;
} | {
    event: 'progress';
    id?: string;
    progress: Progress;
};
/** A new random Idempotency-Key. */
export declare function newIdempotencyKey(): string;
export declare class SkirmishClient {
    private readonly base;
    private readonly fetchFn;
    private readonly submitRetries;
    constructor(opts: ClientOptions);
    private url;
    private json;
    /**
     * POST /v1/jobs. A network error (the answer was lost) is retried with the same
     * Idempotency-Key, so it never makes a second job; a 4xx/5xx answer throws SkirmishError.
     */
    submit(doc: JobDocument, opts?: SubmitOptions): Promise<Submitted>;
    /** GET /v1/jobs/{id}. */
    get(id: string, signal?: AbortSignal): Promise<Job>;
    /**
     * Waits until the job is final with long polls (GET /v1/jobs/{id}?wait=S with the last
     * ETag as If-None-Match: each answer comes as soon as the job changed). Returns the final
     * job, whatever its status; onUpdate sees every change on the way.
     */
    wait(id: string, opts?: WaitOptions): Promise<Job>;
    /**
     * GET /v1/jobs/{id}/events as an async iterator: the job's status first, then progress and
     * status events as they happen; it ends after the final status. Reads the stream with
     * fetch, so it works where EventSource does not (Node) and carries no cookies.
     */
    events(id: string, opts?: {
        lastEventId?: string;
        signal?: AbortSignal;
    }): AsyncGenerator<JobEvent>;
    /** GET /v1/jobs/{id}/result: the result of a succeeded job (409 SkirmishError otherwise;
     *  its problem's job_status says where the job is). */
    result(id: string, signal?: AbortSignal): Promise<Result>;
    /** POST /v1/jobs/{id}:cancel: at once when queued, at the next chunk when running;
     *  409 SkirmishError (type /problems/job-final) when already final. */
    cancel(id: string, signal?: AbortSignal): Promise<Job>;
    /** POST /v1/jobs/{id}:retry: a new queued job from a final job's document (same seed),
     *  its retry_of naming the original; 409 SkirmishError (/problems/job-not-final) for a
     *  queued or running job. */
    retry(id: string, signal?: AbortSignal): Promise<Job>;
    /** DELETE /v1/jobs/{id}: deletes a final job (with its result); 409 SkirmishError
     *  (/problems/job-not-final) for a queued or running job, 404 for an unknown one. */
    delete(id: string, signal?: AbortSignal): Promise<void>;
    /** GET /v1/jobs/{id}/document: the document the job was submitted with, its seed included. */
    document(id: string, signal?: AbortSignal): Promise<JobDocument>;
    /** POST /v1/jobs:cancel?status=queued: cancels the queued jobs matching the filter. */
    cancelQueued(query?: Omit<CancelQueuedQuery, 'status'>, signal?: AbortSignal): Promise<CancelQueuedResult>;
    /** GET /v1/stats/history: jobs and games per minute. */
    history(minutes?: number, signal?: AbortSignal): Promise<History>;
    /** GET /v1/jobs: one page, newest first. */
    list(query?: ListQuery, signal?: AbortSignal): Promise<JobList>;
    /** Every job matching `query`, page after page (`limit` is the page size). */
    listAll(query?: ListQuery, signal?: AbortSignal): AsyncGenerator<Job>;
    /** GET /v1/cards: the battle card catalog, filtered. */
    cards(query?: CardQuery, signal?: AbortSignal): Promise<CardList>;
    /** GET /v1/missions: the game's missions and raids, filtered. */
    missions(query?: MissionQuery, signal?: AbortSignal): Promise<MissionList>;
    /** GET /v1/stats. */
    stats(signal?: AbortSignal): Promise<Stats>;
}
