// SPDX-License-Identifier: MIT
// Skirmish dashboard: polls the service tiles once a second (GET /v1/stats, /readyz),
// keeps a live table of jobs (filtered by status and kind, paged by cursor, searchable by
// id) with progress bars and cancel/retry buttons from the event stream of every job
// (GET /v1/events; GET /v1/jobs only to load a page, and every 5 s while that stream is
// down), shows each attempt's worker and error (the failed-jobs view), cancels the queued
// jobs of a filter in bulk, shows a job page (#/jobs/ID: status, attempts, errors, the
// submitted document, the result) that follows a running job through its event stream
// (GET /v1/jobs/{id}/events),
// draws the history of the last hour (GET /v1/stats/history) and the result of a finished
// battle job (rates with their Wilson intervals, turn histogram) as inline SVG, and submits
// battles built from the card catalog (GET /v1/cards: a commander picker over every
// commander, a card search by name that pages as the user types, or a deck string per
// side, whose did-you-mean errors show next to it). Plain browser JavaScript: no
// framework, no build step, nothing loaded from outside the API. An endpoint that answers
// 404 (an older API) shows "n/a" instead of breaking the page.
'use strict';

(() => {
  const POLL_MS = 1000;
  const HISTORY_MS = 5000;
  // The jobs table's poll while the event stream of every job is down (only then).
  const FALLBACK_MS = 5000;
  const LIST_LIMIT = 20;
  const FINAL = new Set(['succeeded', 'failed', 'canceled']);
  const SVG = 'http://www.w3.org/2000/svg';

  const state = {
    catalog: null, // the first page of GET /v1/cards (all of it when catalogWhole), or
                   // null when /v1/cards is unavailable
    catalogWhole: false, // the catalog fits in one page (the built-in cards)
    commanders: null, // every commander's name (GET /v1/cards?type=commander, every page)
    catalogSeq: 0, // the latest catalog read (a key change reads it again)
    selected: null, // id of the job shown in the result panel
    selectedJob: null, // last job resource read for it
    results: new Map(), // id -> result document (final results never change)
    rendered: null, // id whose final view is drawn (so it is not redrawn every second)
    submitting: false,
    filter: { status: '', kind: '' },
    cursor: null, // cursor of the page shown (null: the newest)
    older: [], // cursors of the pages before it, to go back
    next: null, // next_cursor of the page shown
    events: null, // the event stream following the selected job while it is not final
    key: '', // API key sent as Authorization: Bearer (see keyFromHash)
    history: 0, // time of the last history read (ms)
    feed: null, // EventSource of every job's changes (GET /v1/events)
    live: false, // the feed is open: the table needs no polling
    listAt: 0, // time of the last GET /v1/jobs (ms)
    listDirty: true, // the page shown must be read again (new job, filter left, reset)
    listTimer: null,
  };

  const $ = (sel, root = document) => root.querySelector(sel);

  function el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') e.textContent = v;
      else if (k === 'class') e.className = v;
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  function svg(tag, attrs = {}, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // ---- API key (docs/security.md) -----------------------------------------------------
  // The key comes from the address (#key=sk_..., as `make run` prints it) or from the
  // key field, and is kept in this browser's localStorage for this origin only. It is
  // taken out of the address at once, so it does not stay in the history or get copied
  // with a link. With SKIRMISH_AUTH off no key is needed and none is sent.
  const KEY_STORE = 'skirmish.key';

  function storedKey() {
    try { return localStorage.getItem(KEY_STORE) || ''; } catch { return ''; }
  }

  function storeKey(key) {
    try {
      if (key) localStorage.setItem(KEY_STORE, key); else localStorage.removeItem(KEY_STORE);
    } catch { /* storage off: the key lasts until the page is left */ }
    state.key = key;
  }

  function keyFromHash() {
    const m = /^#key=([A-Za-z0-9_]+)$/.exec(location.hash);
    if (!m) return;
    storeKey(m[1]);
    history.replaceState(null, '', location.pathname + location.search);
  }

  function authHeaders(extra = {}) {
    return state.key ? { ...extra, Authorization: `Bearer ${state.key}` } : extra;
  }

  // GET/POST returning {status, body}; status 0 when the API could not be reached. A 401
  // shows the key field's note.
  async function api(path, options = {}) {
    try {
      const r = await fetch(path, { cache: 'no-store', ...options,
                                    headers: authHeaders(options.headers || {}) });
      if (r.status === 401) keyNote('this API needs a key: paste one above (make run prints it)');
      const ct = r.headers.get('Content-Type') || '';
      let body = null;
      if (ct.includes('json')) body = await r.json().catch(() => null);
      else await r.text();
      return { status: r.status, body, headers: r.headers };
    } catch (e) {
      return { status: 0, body: null, headers: null };
    }
  }

  // The first defined value among several property paths ("a.b.c"): the page reads
  // documented shapes but tolerates a field that moved.
  function pick(obj, ...paths) {
    for (const p of paths) {
      let v = obj;
      for (const k of p.split('.')) v = v === null || v === undefined ? undefined : v[k];
      if (v !== undefined && v !== null) return v;
    }
    return undefined;
  }

  const fmtInt = (n) => (typeof n === 'number' ? Math.round(n).toLocaleString('en-US') : 'n/a');
  const pct = (x, digits = 2) => (typeof x === 'number' ? (100 * x).toFixed(digits) + '%' : 'n/a');

  function fmtTime(iso) {
    if (!iso) return '';
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString('en-GB');
  }

  function progressOf(job) {
    const done = pick(job, 'progress.done') ?? 0;
    const total = pick(job, 'progress.total') ?? 0;
    let p = total > 0 ? Math.floor((100 * done) / total) : 0;
    if (job.status === 'succeeded') p = 100;
    return { done, total, percent: Math.max(0, Math.min(100, p)) };
  }

  function progressBar(job) {
    const bar = el('div', { class: 'bar', role: 'progressbar', 'aria-valuemin': 0,
                            'aria-valuemax': 100 });
    bar.append(el('div', { class: 'fill' }), el('span', { class: 'bar-label' }));
    updateBar(bar, job);
    return bar;
  }

  function updateBar(bar, job) {
    const p = progressOf(job);
    bar.setAttribute('aria-valuenow', p.percent);
    bar.dataset.status = job.status;
    bar.querySelector('.fill').style.width = p.percent + '%';
    bar.querySelector('.bar-label').textContent =
        `${p.percent}% (${fmtInt(p.done)}/${fmtInt(p.total)})`;
  }

  // ---- service tiles and workers ------------------------------------------------------

  function renderStats(res) {
    const set = (id, text) => { $(id).textContent = text; };
    const wbody = $('#workers tbody');
    if (res.status !== 200 || !res.body) {
      for (const id of ['#stat-workers', '#stat-queue', '#stat-running', '#stat-throughput',
                        '#stat-status'])
        set(id, 'n/a');
      wbody.replaceChildren();
      $('#workers-note').textContent =
          res.status === 404 ? 'n/a: this API has no GET /v1/stats' : 'n/a: GET /v1/stats failed';
      return;
    }
    // Shape: openapi/openapi.json, components.schemas.Stats.
    const s = res.body;
    const list = Array.isArray(s.workers) ? s.workers : [];
    set('#stat-workers', fmtInt(list.length));
    set('#stat-queue', fmtInt(s.queue_depth));
    set('#stat-running', fmtInt(Array.isArray(s.running) ? s.running.length : s.jobs?.running));
    set('#stat-throughput', fmtInt(s.games_per_second));
    const by = s.jobs && typeof s.jobs === 'object' ? s.jobs : {};
    const parts = ['queued', 'running', 'succeeded', 'failed', 'canceled']
        .filter((k) => typeof by[k] === 'number')
        .map((k) => `${k} ${fmtInt(by[k])}`);
    set('#stat-status', parts.length ? parts.join(' · ') : 'n/a');
    // Card catalogs (docs/cards.md, "Catalogs pinned per job"): a worker runs jobs of the
    // catalogs it lists; one without the API's leaves new jobs to the others.
    const current = s.catalog?.current;
    const short = (h) => (typeof h === 'string' ? h.replace(/^fnv1a64:/, '').slice(0, 8) : '–');
    wbody.replaceChildren(...list.map((w) => {
      const cats = Array.isArray(w.catalogs) ? w.catalogs : [];
      const has = !current || cats.includes(current);
      return el('tr', {},
          el('td', { class: 'mono', text: w.name ?? '?' }),
          el('td', { text: w.device && w.device !== w.backend ? `${w.backend}: ${w.device}`
                                                            : w.backend || w.device || '–' }),
          el('td', { class: 'mono', title: w.job_id || '',
                     text: w.job_id ? String(w.job_id).slice(0, 8) : 'idle' }),
          el('td', { text: fmtInt(w.games) }),
          el('td', { class: has ? 'mono' : 'mono warn', title: cats.join('\n'),
                     text: short(cats[0]) + (has ? '' : ' (not the API\'s)') }),
          el('td', { text: fmtTime(w.seen_at) }));
    }));
    let note = list.length ? '' : 'no worker has reported';
    if (list.length && current && s.catalog.workers_with_it === 0)
      note = `no worker has the API's card catalog ${short(current)}: new jobs wait for one`;
    $('#workers-note').textContent = note;
  }

  // ---- recent jobs --------------------------------------------------------------------

  function jobRow(job) {
    const tr = el('tr', { 'data-job-id': job.id, tabindex: 0 });
    tr.append(el('td', { class: 'mono', title: job.id, text: job.id.slice(0, 8) }),
              el('td', { class: 'kind' }), el('td', { class: 'status' }),
              el('td', { class: 'prog' }, progressBar(job)), el('td', { class: 'attempts' }),
              el('td', { class: 'created' }), el('td', { class: 'error' }),
              el('td', { class: 'actions' }));
    tr.addEventListener('click', (e) => { if (!e.target.closest('button')) open(job.id); });
    tr.addEventListener('keydown', (e) => { if (e.key === 'Enter') open(job.id); });
    return tr;
  }

  // The buttons of a job: cancel while it is queued or running, retry once it is final.
  function actionButtons(job) {
    const out = [];
    if (!FINAL.has(job.status) && !job.cancel_requested)
      out.push(el('button', { type: 'button', class: 'cancel', text: 'cancel' }));
    if (FINAL.has(job.status)) out.push(el('button', { type: 'button', class: 'retry', text: 'retry' }));
    for (const b of out)
      b.addEventListener('click', () => (b.classList.contains('cancel') ? cancelJob : retryJob)(job.id));
    return out;
  }

  async function cancelJob(id) {
    const r = await api(`/v1/jobs/${encodeURIComponent(id)}:cancel`, { method: 'POST' });
    $('#jobs-action').textContent = r.status === 202 ? `cancel of ${id.slice(0, 8)} requested`
        : `cancel of ${id.slice(0, 8)}: ${r.body?.detail || r.status}`;
    state.rendered = null;
    if (id === state.selected) state.selectedJob = null;
    scheduleList(0);
  }

  async function retryJob(id) {
    const r = await api(`/v1/jobs/${encodeURIComponent(id)}:retry`, { method: 'POST' });
    if (r.status !== 202 || !r.body) {
      $('#jobs-action').textContent = `retry of ${id.slice(0, 8)}: ${r.body?.detail || r.status}`;
      return;
    }
    $('#jobs-action').textContent = `retried ${id.slice(0, 8)} as ${r.body.id.slice(0, 8)}`;
    open(r.body.id);
    scheduleList(0);
  }

  // The attempts of a job that ended in error, each with its worker: "#2 w-1: message".
  function attemptErrors(job) {
    const workers = Array.isArray(job.workers) ? job.workers : [];
    const errors = Array.isArray(job.errors) ? job.errors : [];
    const ol = el('ol', { class: 'attempt-errors' });
    errors.forEach((e, i) => {
      if (e === null || e === undefined) return;
      ol.append(el('li', { 'data-attempt': i + 1 },
                   el('span', { class: 'attempt-no', text: `#${i + 1} ` }),
                   el('span', { class: 'worker mono', text: workers[i] ?? '?' }), ': ',
                   el('span', { class: 'msg', text: e })));
    });
    return ol.children.length ? ol : null;
  }

  // Every attempt of a job for its page: number, worker, and how it ended.
  function attemptsTable(job) {
    const n = Math.max(job.attempts || 0, job.workers?.length || 0, job.errors?.length || 0);
    if (!n) return '–';
    const rows = [];
    for (let i = 0; i < n; i++) {
      const e = job.errors?.[i];
      const last = i === n - 1;
      const how = e ?? (last && !FINAL.has(job.status) ? 'running'
                        : last ? job.status : '–');
      rows.push(el('tr', { 'data-attempt': i + 1 }, el('td', { text: `#${i + 1}` }),
                   el('td', { class: 'worker mono', text: job.workers?.[i] ?? '?' }),
                   el('td', { class: e ? 'error' : 'muted', text: how })));
    }
    return el('table', { class: 'attempts' },
              el('thead', {}, el('tr', {}, el('th', { text: 'attempt' }),
                                 el('th', { text: 'worker' }), el('th', { text: 'error' }))),
              el('tbody', {}, ...rows));
  }

  function updateRow(tr, job) {
    // A page read before an event of the same job may answer after it: never go back.
    if (tr.dataset.updated && job.updated_at && job.updated_at < tr.dataset.updated) return;
    tr.dataset.updated = job.updated_at || '';
    tr.querySelector('.kind').textContent = job.kind;
    const st = tr.querySelector('.status');
    st.replaceChildren(el('span', { class: `badge ${job.status}`, text: job.status }));
    updateBar(tr.querySelector('.bar'), job);
    tr.querySelector('.attempts').textContent = job.attempts ?? '';
    tr.querySelector('.created').textContent = fmtTime(job.created_at);
    const err = tr.querySelector('.error');
    err.replaceChildren(el('div', { class: 'job-error', text: job.error || '' }),
                        attemptErrors(job) ?? '');
    err.title = job.error || '';
    tr.dataset.created = job.created_at || '';
    const key = `${job.status}/${job.cancel_requested}`;
    if (tr.dataset.actions !== key) { // rebuilt only when they change (keeps focus)
      tr.dataset.actions = key;
      tr.querySelector('.actions').replaceChildren(...actionButtons(job));
    }
    tr.classList.toggle('selected', job.id === state.selected);
  }

  // GET /v1/jobs with the filters and the page's cursor.
  function listPath() {
    const q = new URLSearchParams({ limit: String(LIST_LIMIT) });
    if (state.filter.status) q.set('status', state.filter.status);
    if (state.filter.kind) q.set('kind', state.filter.kind);
    if (state.cursor) q.set('cursor', state.cursor);
    return `/v1/jobs?${q}`;
  }

  function setPage(cursor, older) {
    state.cursor = cursor;
    state.older = older;
    $('#jobs tbody').replaceChildren();
    $('#jobs').classList.toggle('failed-view', state.filter.status === 'failed');
    scheduleList(0);
  }

  // Reads the page shown (GET /v1/jobs): when it was opened, filtered or paged, after an
  // action, when the feed says rows came or went, and every FALLBACK_MS while the feed is
  // down. One read at a time; a change meanwhile reads again after it.
  let listLoading = false;
  async function loadList() {
    if (listLoading) {
      state.listDirty = true;
      return;
    }
    listLoading = true;
    state.listDirty = false;
    try {
      const path = listPath();
      const res = await api(path);
      state.listAt = Date.now();
      if (path === listPath()) renderJobs(res);
      else state.listDirty = true; // the filter or page changed meanwhile
    } finally {
      listLoading = false;
      if (state.listDirty) scheduleList();
    }
  }

  // Reads the page soon; changes close together make one read.
  function scheduleList(ms = 150) {
    state.listDirty = true;
    if (state.listTimer) return;
    state.listTimer = setTimeout(() => {
      state.listTimer = null;
      loadList();
    }, ms);
  }

  const matchesFilter = (job) => (!state.filter.status || job.status === state.filter.status) &&
                                 (!state.filter.kind || job.kind === state.filter.kind);

  // One job changed (a `job` event of GET /v1/events): its row is updated in place; a job
  // that enters or leaves the page shown (new, or its status crossed the filter) makes the
  // page be read again.
  function onJobEvent(job) {
    const tr = [...$('#jobs tbody').children].find((r) => r.dataset.jobId === job.id);
    if (tr) {
      if (matchesFilter(job)) updateRow(tr, job);
      else scheduleList();
    } else if (matchesFilter(job)) {
      // Is it one of this page's rows? Pages are newest first: a page holds what is not
      // older than its last row (anything, on the last page) and not newer than its first
      // (anything, on page 1). Jobs of other pages change nothing here.
      const rows = $('#jobs tbody').children;
      const oldest = rows.length ? rows[rows.length - 1].dataset.created : '';
      const newest = rows.length ? rows[0].dataset.created : '';
      const afterOldest = !state.next || (oldest && job.created_at >= oldest);
      const beforeNewest = !state.cursor || (newest && job.created_at <= newest);
      if (afterOldest && beforeNewest) scheduleList();
    }
    if (job.id === state.selected && !state.events) {
      state.selectedJob = job;
      renderSelected();
    }
  }

  function setLive(live) {
    state.live = live;
    const pill = $('#jobs-live');
    pill.textContent = live ? 'live' : `polling every ${FALLBACK_MS / 1000} s`;
    pill.className = `pill ${live ? 'ok' : 'bad'}`;
    pill.title = live ? 'updated by the event stream of every job (GET /v1/events)'
                      : 'the event stream is down: GET /v1/jobs is polled until it is back';
  }

  // The event stream of every job. While it is open the table is never polled. When it
  // drops, the browser reconnects on its own (every 2 s, the stream's retry) and the table
  // is polled every FALLBACK_MS meanwhile; a stream that is refused (503: too many open) is
  // tried again after 10 s. Events have no ids: after a reconnect the page is read once.
  function openFeed() {
    if (typeof ReadableStream === 'undefined') return setLive(false);
    let opened = false;
    const es = readEvents('/v1/events', {
      open: () => {
        opened = true;
        if (state.feed !== es) return;
        if (!state.live && state.listAt) scheduleList(0); // what changed while it was down
        setLive(true);
      },
      event: (type, data) => {
        if (type === 'job') onJobEvent(JSON.parse(data));
        else if (type === 'reset') scheduleList(0);
      },
      end: () => {
        if (state.feed !== es) return;
        setLive(false);
        state.feed = null;
        // a stream that ended reconnects after 2 s (its retry); one refused after 10 s
        setTimeout(openFeed, opened ? 2000 : 10000);
      },
    });
    state.feed = es;
  }

  function renderJobs(res) {
    const tbody = $('#jobs tbody');
    if (res.status !== 200 || !res.body || !Array.isArray(res.body.items)) {
      $('#jobs-note').textContent = `n/a: GET /v1/jobs answered ${res.status || 'nothing'}`;
      return;
    }
    const items = res.body.items;
    const old = new Map([...tbody.children].map((tr) => [tr.dataset.jobId, tr]));
    const rows = items.map((job) => {
      const tr = old.get(job.id) || jobRow(job);
      updateRow(tr, job);
      return tr;
    });
    // Re-append in order: existing rows keep their identity (no flicker, stable focus).
    tbody.replaceChildren(...rows);
    const filtered = state.filter.status || state.filter.kind;
    $('#jobs-note').textContent = items.length ? '' : filtered ? 'no job matches' : 'no jobs yet';
    state.next = res.body.next_cursor || null;
    $('#jobs-older').disabled = !state.next;
    $('#jobs-newer').disabled = !state.cursor;
    $('#jobs-page').textContent = `page ${state.older.length + 1}`;
    const sel = items.find((j) => j.id === state.selected);
    if (sel) state.selectedJob = sel;
  }

  // ---- result panel -------------------------------------------------------------------

  // A job page has its own address (#/jobs/ID), so it can be linked and reloaded.
  function open(id) {
    if (location.hash !== `#/jobs/${id}`) location.hash = `#/jobs/${id}`;
    else select(id);
  }

  function fromHash() {
    // a key given in the address of an open page (a same-document navigation)
    if (/^#key=/.test(location.hash)) {
      keyFromHash();
      keyNote('key saved in this browser');
      loadCatalog();
      poll(true);
      return;
    }
    const m = /^#\/jobs\/([0-9a-fA-F-]{36})$/.exec(location.hash);
    if (m && m[1] !== state.selected) select(m[1]);
  }

  function select(id) {
    follow(null);
    state.selected = id;
    state.selectedJob = null;
    state.rendered = null;
    for (const tr of document.querySelectorAll('#jobs tbody tr'))
      tr.classList.toggle('selected', tr.dataset.jobId === id);
    $('#result-panel').hidden = false;
    $('#result-job').textContent = id;
    $('#result-job').href = `#/jobs/${id}`;
    $('#job-meta').replaceChildren();
    $('#job-actions').replaceChildren();
    $('#job-document-body').textContent = '';
    $('#result-body').replaceChildren(el('p', { class: 'muted', text: 'loading…' }));
    loadDocument(id);
    refreshSelected();
    $('#result-panel').scrollIntoView({ block: 'nearest' });
  }

  async function loadDocument(id) {
    const r = await api(`/v1/jobs/${encodeURIComponent(id)}/document`);
    if (id !== state.selected) return;
    $('#job-document-body').textContent = r.status === 200 && r.body
      ? JSON.stringify(r.body, null, 2) : `n/a (GET /v1/jobs/${id}/document answered ${r.status})`;
  }

  // Reads the server-sent events of `path` with fetch (EventSource cannot send the
  // Authorization header): h.open() once the answer is a 200 stream, h.event(type, data)
  // per event, h.end() when it ends, fails or is refused. Returns {close()}.
  function readEvents(path, h) {
    const ctrl = new AbortController();
    (async () => {
      try {
        const r = await fetch(path, { cache: 'no-store', headers: authHeaders(), signal: ctrl.signal });
        if (r.status === 401) keyNote('this API needs a key: paste one above (make run prints it)');
        if (!r.ok || !r.body) return;
        h.open?.();
        const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value;
          for (let i; (i = buf.indexOf('\n\n')) >= 0;) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            let type = 'message';
            const data = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) type = line.slice(6).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
            }
            if (data.length) h.event(type, data.join('\n'));
          }
        }
      } catch { /* closed here, or the connection broke */ }
      if (!ctrl.signal.aborted) h.end?.();
    })();
    return { close: () => ctrl.abort() };
  }

  // Follows job `id` through its event stream while it is not final: each status and
  // progress event updates the job page at once, without polling the job. null stops. When
  // the stream ends early, the next refresh of a job that is not final follows it again.
  function follow(id) {
    if (state.events && state.events.jobId === id) return;
    if (state.events) state.events.close();
    state.events = null;
    if (!id || typeof ReadableStream === 'undefined') return;
    const es = readEvents(`/v1/jobs/${encodeURIComponent(id)}/events`, {
      event: (type, data) => {
        if (state.selected !== id) return;
        if (type === 'status') {
          state.selectedJob = JSON.parse(data);
          renderSelected();
          if (FINAL.has(state.selectedJob.status)) follow(null);
        } else if (type === 'progress' && state.selectedJob) {
          state.selectedJob.progress = JSON.parse(data);
          renderSelected();
        }
      },
      end: () => { if (state.events === es) state.events = null; },
    });
    es.jobId = id;
    state.events = es;
  }

  function metaRow(name, value) {
    return el('tr', {}, el('th', { text: name }), el('td', {}, value));
  }

  // "0.84 CPU s estimated · 0.92 spent": the API's estimate at admission and the CPU the
  // workers charged (docs/security.md, "CPU cost").
  function costText(job) {
    const c = job.cost;
    if (!c) return '–';
    const est = c.estimate_cpu_s == null ? 'no estimate' : `${c.estimate_cpu_s.toFixed(2)} CPU s estimated`;
    return `${est} · ${c.cpu_s.toFixed(2)} spent`;
  }

  function renderMeta(job) {
    const retryOf = job.retry_of
      ? el('a', { href: `#/jobs/${job.retry_of}`, class: 'mono', text: job.retry_of }) : '–';
    $('#job-meta').replaceChildren(el('table', { class: 'meta' },
        metaRow('status', el('span', { class: `badge ${job.status}`, text: job.status })),
        metaRow('kind', job.kind), metaRow('seed', String(job.seed)),
        metaRow('progress', progressBar(job)),
        metaRow('attempts', attemptsTable(job)),
        metaRow('cost', el('span', { class: 'cost', text: costText(job) })),
        metaRow('error', job.error ? el('span', { class: 'error', text: job.error }) : '–'),
        metaRow('retry of', retryOf),
        metaRow('created', fmtTime(job.created_at)),
        metaRow('started', fmtTime(job.started_at) || '–'),
        metaRow('finished', fmtTime(job.finished_at) || '–')));
    updateBar($('#job-meta .bar'), job);
    $('#job-actions').replaceChildren(...actionButtons(job));
  }

  // Draws the job page from state.selectedJob (and its result once it succeeded).
  function renderSelected() {
    const job = state.selectedJob;
    if (!job) return;
    renderMeta(job);
    if (!FINAL.has(job.status)) {
      $('#result-body').replaceChildren(...pendingBody(job));
    } else if (state.rendered !== job.id) {
      refreshSelected();
    }
  }

  async function refreshSelected() {
    const id = state.selected;
    if (!id) return;
    let job = state.selectedJob;
    // A running job is followed through its event stream; it is read here only once.
    if (!job || (!FINAL.has(job.status) && !state.events)) {
      const r = await api(`/v1/jobs/${encodeURIComponent(id)}`);
      if (id !== state.selected) return;
      if (r.status !== 200 || !r.body) {
        $('#result-body').replaceChildren(
            el('p', { class: 'error', text: `GET /v1/jobs/${id} answered ${r.status}` }));
        return;
      }
      job = state.selectedJob = r.body;
      renderMeta(job);
      if (!FINAL.has(job.status)) follow(id);
    }
    if (!FINAL.has(job.status)) {
      $('#result-body').replaceChildren(...pendingBody(job));
      return;
    }
    if (state.rendered === id) return;
    renderMeta(job);
    // A canceled job may keep the counts of what it played: its result, marked partial.
    const partial = job.status === 'canceled' && job.progress && job.progress.done > 0;
    if (job.status !== 'succeeded' && !partial) {
      state.rendered = id;
      $('#result-body').replaceChildren(
          el('p', { class: job.status === 'failed' ? 'error' : 'muted',
                    text: `${job.status}${job.error ? ': ' + job.error : ''}` }));
      return;
    }
    let result = state.results.get(id);
    if (!result) {
      const r = await api(`/v1/jobs/${encodeURIComponent(id)}/result`);
      if (id !== state.selected) return;
      if (partial && r.status === 409) { // canceled before any result was kept
        state.rendered = id;
        $('#result-body').replaceChildren(el('p', { class: 'muted', text: 'canceled' }));
        return;
      }
      if (r.status !== 200 || !r.body) {
        $('#result-body').replaceChildren(
            el('p', { class: 'error', text: `GET /v1/jobs/${id}/result answered ${r.status}` }));
        return;
      }
      result = r.body;
      state.results.set(id, result);
    }
    state.rendered = id;
    $('#result-body').replaceChildren(
        job.kind === 'battle' ? battleResult(result)
          : job.kind === 'optimize' ? optimizeResult(result) : otherResult(result));
    if (result.partial)
      $('#result-body').prepend(el('p', { class: 'partial-note', text: job.kind === 'optimize'
        ? `partial result: the best deck when the search was canceled, after ` +
          `${fmtInt(result.games.search)} games (not evaluated)`
        : `partial result: the ${fmtInt(result.games)} games played before the cancel ` +
          `(of ${fmtInt(job.progress.total)})` }));
  }

  // What a job page shows while the job runs: its share done, and for an optimisation what
  // its worker reported (docs/optimize.md, "Progress"): the best deck so far, the races'
  // estimate, games and candidates, the last accepted move.
  function pendingBody(job) {
    const p = progressOf(job);
    const out = [el('p', { text: `${job.status}: ${p.percent}% of ${fmtInt(p.total)} units` })];
    const d = pick(job, 'progress.detail');
    if (job.kind !== 'optimize' || !d) return out;
    const rows = [
      ['phase', d.phase],
      ['best deck so far', el('span', { class: 'mono', id: 'opt-best', text: d.best })],
      ['estimated gain', `${signed(d.estimate)} (the races' sum; the final evaluation decides)`],
      ['games', fmtInt(d.games)],
      ['candidates / accepted', `${fmtInt(d.candidates)} / ${fmtInt(d.accepted)}`],
    ];
    if (d.last_move)
      rows.push(['last move', `${d.last_move.move}${d.last_move.card ? ' ' + d.last_move.card : ''}` +
                 ` ${signed(d.last_move.difference)} [${signed(d.last_move.difference_ci95[0])}, ` +
                 `${signed(d.last_move.difference_ci95[1])}]`]);
    if (d.evaluation)
      rows.push(['evaluation so far', `${fmtInt(d.evaluation.games)} games: best ` +
                 `${pct(d.evaluation.best.mean)}, start ${pct(d.evaluation.start.mean)}`]);
    out.push(el('table', { class: 'meta', id: 'opt-progress' },
                ...rows.map(([k, v]) => metaRow(k, v))));
    return out;
  }

  const signed = (x) => (typeof x === 'number' ? (x >= 0 ? '+' : '') + x.toFixed(3) : 'n/a');

  // An optimisation's result: the best deck against the start on the final evaluation,
  // the estimated score against games spent (the start's score plus each accepted move's
  // race difference, ending at the evaluated score), and the accepted moves in order.
  function optimizeResult(r) {
    const box = el('div', { class: 'opt-result' });
    const deckRow = (name, d) => el('tr', {}, el('th', { text: name }),
      el('td', { class: 'mono', text: d.deck }),
      el('td', { class: 'rate', text: d.score === null ? 'n/a' : pct(d.score) }),
      el('td', { class: 'ci', text: d.score_ci95 ? `${pct(d.score_ci95[0])} – ${pct(d.score_ci95[1])}` : 'n/a' }));
    box.append(el('table', { class: 'rates', id: 'opt-decks' },
      el('thead', {}, el('tr', {}, el('th', { text: '' }), el('th', { text: 'deck' }),
                         el('th', { text: 'score' }), el('th', { text: '95% interval' }))),
      el('tbody', {}, deckRow('best', r.best), deckRow('start', r.start))));
    if (typeof r.improvement === 'number')
      box.append(el('p', { id: 'opt-gain', text: `improvement ${signed(r.improvement)} ` +
        `[${signed(r.improvement_ci95[0])}, ${signed(r.improvement_ci95[1])}]` +
        (r.kept_start ? ' — the search found nothing better: the starting deck is kept' : '') }));
    box.append(scoreChart(r), movesTable(r));
    if (r.fund) box.append(...fundTable(r.fund));
    box.append(el('p', { class: 'muted', text: [`${fmtInt(r.games.search)} search games`,
      `${fmtInt(r.games.evaluation)} evaluation games`, `${fmtInt(r.candidates)} candidates`,
      `${fmtInt(r.moves_accepted)} accepted`, `stopped: ${r.stopped ?? 'canceled'}`,
      `${r.algorithm}, ${r.objective}`, `seed ${r.seed}`].join(' · ') }));
    return box;
  }

  function scoreChart(r) {
    const W = 460, H = 180, left = 44, right = 12, top = 10, bottom = 24;
    const base = typeof r.start.score === 'number' ? r.start.score : 0;
    const pts = [[0, base]];
    let y = base;
    for (const m of r.moves) { y += m.difference; pts.push([m.games_total, y]); }
    const xMax = Math.max(1, r.games.search);
    const vals = pts.map((p) => p[1]).concat(typeof r.best.score === 'number' ? [r.best.score] : []);
    // scores are in [0, 1]; an estimate past 1 (the races' sum is biased up) is drawn at 1
    const yLo = Math.max(0, Math.min(...vals) - 0.05), yHi = Math.min(1, Math.max(...vals) + 0.05);
    const X = (v) => left + (W - left - right) * (v / xMax);
    const Y = (v) => top + (H - top - bottom) *
        (1 - (Math.min(yHi, Math.max(yLo, v)) - yLo) / Math.max(1e-9, yHi - yLo));
    const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', id: 'opt-chart', role: 'img',
                           'aria-label': 'estimated score against games spent' });
    for (const t of [yLo, (yLo + yHi) / 2, yHi]) {
      s.append(svg('line', { x1: left, x2: W - right, y1: Y(t), y2: Y(t), class: 'grid' }));
      s.append(svg('text', { x: left - 4, y: Y(t) + 3, 'text-anchor': 'end', class: 'axis' }, pct(t, 0)));
    }
    s.append(svg('text', { x: W - right, y: H - 6, 'text-anchor': 'end', class: 'axis' },
                 `${fmtInt(xMax)} games`));
    let d = `M${X(0)},${Y(base)}`;
    for (const [gx, gy] of pts.slice(1)) d += ` H${X(gx)} V${Y(gy)}`;
    d += ` H${X(xMax)}`;
    s.append(svg('path', { d, class: 'opt-line' }));
    if (typeof r.best.score === 'number') {
      const [lo, hi] = r.best.score_ci95;
      s.append(svg('line', { x1: X(xMax) - 4, x2: X(xMax) - 4, y1: Y(lo), y2: Y(hi), class: 'ci' }));
      const dot = svg('circle', { cx: X(xMax) - 4, cy: Y(r.best.score), r: 3.5, class: 'opt-final' });
      dot.append(svg('title', {}, `evaluated ${pct(r.best.score)}`));
      s.append(dot);
    }
    return s;
  }

  function movesTable(r) {
    const tb = el('tbody');
    r.moves.forEach((m, i) => tb.append(el('tr', {}, el('td', { text: String(i + 1) }),
      el('td', { text: m.move }), el('td', { text: m.card ?? '' }),
      el('td', { text: m.replaced ?? '' }), el('td', { text: fmtInt(m.games) }),
      el('td', { text: `${signed(m.difference)} ± ${(1.96 * m.difference_se).toFixed(3)}` }))));
    return el('table', { class: 'rates', id: 'opt-moves' },
      el('thead', {}, el('tr', {}, ...['#', 'move', 'card in', 'card out', 'games', 'difference']
        .map((t) => el('th', { text: t })))), tb);
  }

  // With a fund: the SP spent on the best deck and each card made, materials first.
  function fundTable(f) {
    const tb = el('tbody');
    f.upgrades.forEach((u) => tb.append(el('tr', {}, el('td', { text: u.card }),
      el('td', { text: String(u.count) }), el('td', { text: u.action === 'fuse' ? 'fusion' : 'level-up' }),
      el('td', { text: u.from.map((m) => (m.count > 1 ? `${m.count} × ` : '') + m.card).join(', ') }),
      el('td', { text: fmtInt(u.sp_total) }))));
    return [el('p', { id: 'opt-fund', text: `fund: ${fmtInt(f.spent ?? 0)} of ${fmtInt(f.fund)} SP ` +
                       `spent on ${f.upgrades.length} upgrade${f.upgrades.length === 1 ? '' : 's'}` }),
            el('table', { class: 'rates', id: 'opt-upgrades' },
              el('thead', {}, el('tr', {}, ...['card made', 'copies', 'how', 'from', 'SP']
                .map((t) => el('th', { text: t })))), tb)];
  }

  function otherResult(result) {
    const pre = el('pre', { class: 'json' });
    pre.textContent = JSON.stringify(result, null, 2).slice(0, 20000);
    return pre;
  }

  function battleResult(r) {
    const box = el('div', { class: 'battle-result' });
    box.append(rateChart(r), turnChart(r));
    // Points of a scoring other than plain wins (brawl, raid, ...): the mean and its interval.
    if (r.scoring && r.scoring !== 'win' && typeof r.points === 'number') {
      const ci = r.points_ci95 || [r.points, r.points];
      box.append(el('p', { id: 'points', text: `${r.scoring} points ${r.points.toFixed(2)} ` +
                           `(95% interval ${ci[0].toFixed(2)} – ${ci[1].toFixed(2)})` }));
    }
    const meta = [`${fmtInt(r.games)} games`, `seed ${r.seed}`, `backend ${r.backend}`];
    if (r.device) meta.push(r.device);
    if (typeof r.elapsed_ms === 'number') meta.push(`${r.elapsed_ms.toFixed(1)} ms`);
    if (typeof r.games_per_second === 'number') meta.push(`${fmtInt(r.games_per_second)} games/s`);
    box.append(el('p', { class: 'muted', text: meta.join(' · ') }));
    return box;
  }

  // Win/stall/loss rates as horizontal bars on a 0..100% scale with the 95% Wilson
  // interval drawn as a whisker, plus a table with the exact numbers.
  function rateChart(r) {
    const rows = [['win', 'wins'], ['stall', 'stalls'], ['loss', 'losses']];
    const W = 460, rowH = 30, left = 50, right = 18, top = 8;
    const plotW = W - left - right;
    const H = top + rows.length * rowH + 22;
    const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', id: 'rate-chart',
                           role: 'img', 'aria-label': 'win, stall and loss rates' });
    const x = (v) => left + plotW * Math.max(0, Math.min(1, v));
    for (const t of [0, 0.25, 0.5, 0.75, 1]) {
      s.append(svg('line', { x1: x(t), x2: x(t), y1: top, y2: H - 18, class: 'grid' }));
      s.append(svg('text', { x: x(t), y: H - 5, 'text-anchor': 'middle', class: 'axis' },
                   `${t * 100}%`));
    }
    rows.forEach(([name], i) => {
      const rate = r[`${name}_rate`];
      const ci = r[`${name}_rate_ci95`] || [rate, rate];
      const y = top + i * rowH;
      s.append(svg('text', { x: left - 6, y: y + rowH / 2 + 4, 'text-anchor': 'end',
                             class: 'axis' }, name));
      const bar = svg('rect', { x: left, y: y + 6, width: Math.max(0, x(rate) - left),
                                height: rowH - 12, class: `rate ${name}` });
      bar.append(svg('title', {}, `${name} ${pct(rate)} (95% CI ${pct(ci[0])} – ${pct(ci[1])})`));
      s.append(bar);
      const cy = y + rowH / 2;
      s.append(svg('line', { x1: x(ci[0]), x2: x(ci[1]), y1: cy, y2: cy, class: 'ci' }));
      s.append(svg('line', { x1: x(ci[0]), x2: x(ci[0]), y1: cy - 6, y2: cy + 6, class: 'ci' }));
      s.append(svg('line', { x1: x(ci[1]), x2: x(ci[1]), y1: cy - 6, y2: cy + 6, class: 'ci' }));
    });
    const table = el('table', { class: 'rates', id: 'rates' },
                     el('thead', {}, el('tr', {}, el('th', { text: 'outcome' }),
                                      el('th', { text: 'games' }), el('th', { text: 'rate' }),
                                      el('th', { text: '95% interval (Wilson)' }))));
    const tb = el('tbody');
    for (const [name, count] of rows) {
      const ci = r[`${name}_rate_ci95`];
      tb.append(el('tr', { 'data-outcome': name }, el('td', { text: name }),
                   el('td', { text: fmtInt(r[count]) }),
                   el('td', { class: 'rate', text: pct(r[`${name}_rate`]) }),
                   el('td', { class: 'ci', text: ci ? `${pct(ci[0])} – ${pct(ci[1])}` : 'n/a' })));
    }
    table.append(tb);
    return el('div', { class: 'figure' }, el('h3', { text: 'outcome rates' }), s, table);
  }

  // Bar chart of turns.histogram: element t-1 = games that ended on turn t (stalls count on
  // the turn limit, the last bar; a game stopped by the work bound on the turn it stopped).
  function turnChart(r) {
    const hist = pick(r, 'turns.histogram') || [];
    const W = 460, H = 200, left = 46, right = 10, top = 10, bottom = 28;
    const plotW = W - left - right, plotH = H - top - bottom;
    const max = Math.max(1, ...hist);
    const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', id: 'turn-chart',
                           role: 'img', 'aria-label': 'games by the turn they ended on' });
    const bw = hist.length ? plotW / hist.length : plotW;
    for (const t of [0, 0.5, 1]) {
      const y = top + plotH * (1 - t);
      s.append(svg('line', { x1: left, x2: W - right, y1: y, y2: y, class: 'grid' }));
      s.append(svg('text', { x: left - 4, y: y + 4, 'text-anchor': 'end', class: 'axis' },
                   fmtInt(max * t)));
    }
    hist.forEach((n, i) => {
      const h = (plotH * n) / max;
      const bar = svg('rect', { x: left + i * bw + bw * 0.1, y: top + plotH - h,
                                width: Math.max(1, bw * 0.8), height: h,
                                class: i === hist.length - 1 ? 'turn last' : 'turn',
                                'data-turn': i + 1, 'data-games': n });
      bar.append(svg('title', {}, `turn ${i + 1}: ${fmtInt(n)} games`));
      s.append(bar);
    });
    const step = Math.max(1, Math.ceil(hist.length / 10));
    for (let t = 1; t <= hist.length; t += step)
      s.append(svg('text', { x: left + (t - 0.5) * bw, y: H - bottom + 14, 'text-anchor': 'middle',
                             class: 'axis' }, t));
    s.append(svg('text', { x: left + plotW / 2, y: H - 2, 'text-anchor': 'middle',
                           class: 'axis' }, 'turn the game ended on (last = turn limit)'));
    const mean = pick(r, 'turns.mean');
    return el('div', { class: 'figure' },
              el('h3', { text: `turns (mean ${typeof mean === 'number' ? mean.toFixed(2) : 'n/a'})` }),
              s);
  }

  // ---- the battle form ----------------------------------------------------------------
  // The catalog may be the built-in cards (67, one page of GET /v1/cards) or the game's
  // (about 54,000 cards, one per unit and level, in pages). The first page says which: a
  // catalog that fits in it is kept whole and the deck rows are lists of its cards; a
  // larger one is searched by name (GET /v1/cards?name=..., page by page), its deck rows are
  // text boxes filled from the search, and its commanders are read page by page for the
  // commander pickers. Either way a side can also be written as a deck string, as players
  // write decks ("Commander, Card#2, Card-6, ..."; docs/cards.md), which the API resolves.

  const PAGE_MAX = 1000; // GET /v1/cards's largest page
  const SEARCH_LIMIT = 25;
  const SEARCH_DELAY_MS = 250;
  const DECK_TYPES = ['assault', 'structure'];

  // The default decks per catalog: the first whose commanders (and, for a catalog read
  // whole, every card) are in the loaded catalog is used; else the catalog's own first
  // commander and cards (a catalog of one's own, SKIRMISH_CARDS_FILE).
  const PRESETS = [
    { catalog: 'built-in',
      attacker: { commander: 'Test Commander', deck: [['Grunt', 5], ['Brute', 5]] },
      defender: { commander: 'Test Commander', deck: [['Brute', 4], ['Grunt', 6]] } },
    { catalog: 'game', // the README's real decks (examples/tu/battle_real_decks.json)
      attacker: { commander: 'Octane-1',
                  deck: [['Bazooka Marine', 3], ['Rally Infantry', 3], ['Barrage Tank', 2],
                         ['Grunt', 2]] },
      defender: { commander: 'Malika-1',
                  deck: [['Dread Panzer', 2], ['Trap Setter', 1], ['Invasion Blockade', 1],
                         ['Combat Specialist', 3]] } },
  ];

  const whole = () => state.catalog !== null && state.catalogWhole;
  const cardsOf = (...types) =>
      (whole() ? state.catalog : []).filter((c) => types.includes(c.type)).map((c) => c.name);

  // A <select> of `names`, or a text input when there is no list (no catalog, or one too
  // large to list: its deck cards are found with the search).
  function cardField(names, value, pointer, label) {
    if (!names) {
      return el('input', { type: 'text', value: value || '', 'data-pointer': pointer,
                           'aria-label': label, class: 'card', spellcheck: 'false' });
    }
    const sel = el('select', { 'data-pointer': pointer, 'aria-label': label, class: 'card' });
    for (const n of names) sel.append(el('option', { value: n, text: n }));
    if (value && names.includes(value)) sel.value = value;
    return sel;
  }

  const deckNames = () => (whole() ? cardsOf(...DECK_TYPES) : null);

  function deckRow(side, card, count) {
    const row = el('div', { class: 'deck-row' });
    row.append(cardField(deckNames(), card, '', `${side} deck card`),
               el('input', { type: 'number', class: 'count', min: 1, max: 50, value: count,
                             'aria-label': `${side} deck count` }),
               el('button', { type: 'button', class: 'remove', title: 'remove',
                              'aria-label': 'remove card', text: '×' }));
    row.querySelector('.remove').addEventListener('click', () => {
      const deck = row.parentElement;
      row.remove();
      renumber(deck, side);
    });
    return row;
  }

  // Deck rows carry the JSON pointers of the document they produce, so a server error at
  // /params/attacker/deck/2/card lands next to the third row's card field.
  function renumber(deck, side) {
    [...deck.children].forEach((row, i) => {
      const base = `/params/${side}/deck/${i}`;
      row.dataset.pointer = base;
      row.querySelector('.card').dataset.pointer = `${base}/card`;
      row.querySelector('.count').dataset.pointer = `${base}/count`;
    });
  }

  // The default decks for the loaded catalog (see PRESETS).
  function defaults() {
    if (!state.catalog) return PRESETS[0]; // names are typed: the built-in ones
    const commanders = new Set(state.commanders);
    const names = new Set(whole() ? state.catalog.map((c) => c.name) : []);
    for (const p of PRESETS) {
      const sides = [p.attacker, p.defender];
      if (!sides.every((s) => commanders.has(s.commander))) continue;
      if (whole() && !sides.every((s) => s.deck.every(([c]) => names.has(c)))) continue;
      return p;
    }
    const first = state.commanders[0] || '';
    const cards = state.catalog.filter((c) => DECK_TYPES.includes(c.type))
                               .slice(0, 2).map((c) => [c.name, 5]);
    return { catalog: 'own', attacker: { commander: first, deck: cards },
             defender: { commander: first, deck: cards } };
  }

  // A side's fields (made again when the catalog is read again, e.g. after a new key).
  function buildSide(fs, preset) {
    const side = fs.dataset.side;
    fs.dataset.pointer = `/params/${side}`;
    fs.replaceChildren(el('legend', { text: side }),
                       $('#side-template').content.cloneNode(true));
    const def = preset[side];
    $('.slot', fs).replaceWith(cardField(state.catalog ? state.commanders : null, def.commander,
                                         `/params/${side}/commander`, `${side} commander`));
    $('[data-field=play]', fs).dataset.pointer = `/params/${side}/play`;
    const deck = $('.deck', fs);
    deck.dataset.pointer = `/params/${side}/deck`;
    for (const [card, count] of def.deck) deck.append(deckRow(side, card, count));
    renumber(deck, side);
    $('.add-card', fs).addEventListener('click', () => {
      deck.append(deckRow(side, (deckNames() || [''])[0] || '', 1));
      renumber(deck, side);
    });
    // A deck string replaces the commander and the cards: they are dimmed meanwhile, and
    // an error at /params/SIDE/deck then goes next to the string.
    const text = $('[data-field=deck-string]', fs);
    const sync = () => {
      const used = text.value.trim() !== '';
      text.dataset.pointer = used ? `/params/${side}/deck` : '';
      for (const e of fs.querySelectorAll('.by-cards'))
        if (used) e.setAttribute('data-inactive', ''); else e.removeAttribute('data-inactive');
    };
    text.addEventListener('input', sync);
    sync();
  }

  // Adds `card` to a side: a commander becomes its commander, a deck card a new deck row
  // (or one more copy of a row that has it). A side written as a deck string gets the
  // card appended to the string.
  function addToSide(side, card) {
    const fs = $(`fieldset[data-side=${side}]`);
    const text = $('[data-field=deck-string]', fs);
    if (text.value.trim() !== '') {
      text.value = `${text.value.trim().replace(/,$/, '')}, ${card.name}`;
      return;
    }
    if (card.type === 'commander') {
      const pick = $(`[data-pointer="/params/${side}/commander"]`, fs);
      pick.value = card.name;
      return;
    }
    const deck = $('.deck', fs);
    const same = [...deck.children].find((r) => $('.card', r).value === card.name);
    if (same) {
      const n = $('.count', same);
      n.value = String((Number(n.value) || 1) + 1);
      return;
    }
    deck.append(deckRow(side, card.name, 1));
    renumber(deck, side);
  }

  function numberOrRaw(input) {
    const v = input.value.trim();
    if (v === '') return undefined;
    const n = Number(v);
    return Number.isFinite(n) ? n : v; // the server reports a non-number precisely
  }

  function sideDoc(fs) {
    const play = $('[data-field=play]', fs).value;
    const text = $('[data-field=deck-string]', fs).value.trim();
    if (text !== '') return { deck: text, play };
    return {
      commander: $('[data-pointer$="/commander"]', fs).value,
      play,
      deck: [...$('.deck', fs).children].map((row) => {
        const entry = { card: $('.card', row).value.trim() };
        const count = numberOrRaw($('.count', row));
        if (count !== undefined) entry.count = count;
        return entry;
      }),
    };
  }

  function formDoc() {
    const params = { mode: $('#f-mode').value };
    const games = numberOrRaw($('#f-games'));
    if (games !== undefined) params.games = games;
    const limit = numberOrRaw($('#f-turn-limit'));
    if (limit !== undefined) params.turn_limit = limit;
    for (const fs of document.querySelectorAll('fieldset.side'))
      params[fs.dataset.side] = sideDoc(fs);
    const doc = { kind: 'battle', params };
    const seed = numberOrRaw($('#f-seed'));
    if (seed !== undefined) doc.seed = seed;
    return doc;
  }

  function clearErrors() {
    const box = $('#form-errors');
    box.hidden = true;
    box.replaceChildren();
    for (const e of document.querySelectorAll('#battle-form .field-error')) e.remove();
    for (const e of document.querySelectorAll('#battle-form [aria-invalid]'))
      e.removeAttribute('aria-invalid');
  }

  // The element whose data-pointer is the longest prefix of `pointer` (RFC 6901 segments),
  // leaving out the fields a side's deck string stands in for.
  function elementFor(pointer) {
    let best = null, bestLen = -1;
    for (const e of document.querySelectorAll('#battle-form [data-pointer]')) {
      const p = e.dataset.pointer;
      if (!p || e.closest('[data-inactive]')) continue;
      if ((pointer === p || pointer.startsWith(p + '/')) && p.length > bestLen) {
        best = e;
        bestLen = p.length;
      }
    }
    return best;
  }

  function showProblem(problem, status) {
    const box = $('#form-errors');
    const errors = Array.isArray(problem?.errors) ? problem.errors : [];
    box.append(el('p', { class: 'error-title',
                         text: `${status} ${problem?.title || 'error'}: ${problem?.detail || ''}` }));
    if (errors.length) {
      const ul = el('ul');
      for (const e of errors) {
        const msg = e.detail || e.message || '';
        ul.append(el('li', {}, el('code', { text: e.pointer || '' }), ': ' + msg));
        const target = e.pointer !== undefined ? elementFor(e.pointer) : null;
        if (target) {
          target.setAttribute('aria-invalid', 'true');
          const note = el('span', { class: 'field-error', 'data-for': e.pointer, text: msg });
          // A field's note goes after its label; a deck row (whole line), deck or side gets it inside.
          const anchor = target.closest('label') || target.closest('.deck-row') || target;
          if (anchor.matches('input, select, textarea, label')) anchor.after(note);
          else anchor.append(note);
        }
      }
      box.append(ul);
    }
    box.hidden = false;
  }

  function idempotencyKey() {
    if (window.crypto?.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16)); // randomUUID needs a secure context
    return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  }

  async function submit(ev) {
    ev.preventDefault();
    if (state.submitting) return;
    state.submitting = true;
    clearErrors();
    const status = $('#submit-status');
    status.textContent = 'submitting…';
    $('#f-submit').disabled = true;
    try {
      const r = await api('/v1/jobs', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey() },
        body: JSON.stringify(formDoc()),
      });
      // 202 = new job; 200 = the same Idempotency-Key was already used for this document
      if ((r.status === 202 || r.status === 200) && r.body?.id) {
        status.textContent = `submitted ${r.body.id}`;
        open(r.body.id);
        scheduleList(0);
      } else if (r.status === 0) {
        status.textContent = '';
        showProblem({ title: 'unreachable', detail: 'the API did not answer' }, 'network');
      } else {
        status.textContent = '';
        showProblem(r.body, r.status);
      }
    } finally {
      state.submitting = false;
      $('#f-submit').disabled = false;
    }
  }

  const cardsPath = (query) => `/v1/cards?${new URLSearchParams(query)}`;

  // Every commander of the catalog, page after page (GET /v1/cards?type=commander), or
  // null when a page fails.
  async function loadCommanders() {
    const names = [];
    let cursor = null;
    do {
      const r = await api(cardsPath({ type: 'commander', limit: PAGE_MAX,
                                      ...(cursor ? { cursor } : {}) }));
      if (r.status !== 200 || !Array.isArray(r.body?.items)) return null;
      for (const c of r.body.items) if (typeof c?.name === 'string') names.push(c.name);
      cursor = r.body.next_cursor;
    } while (cursor);
    return names;
  }

  async function loadCatalog() {
    state.catalogSeq = (state.catalogSeq || 0) + 1;
    const seq = state.catalogSeq;
    const r = await api('/v1/cards');
    const body = r.body;
    const list = Array.isArray(body) ? body : pick(body || {}, 'items', 'cards');
    let cards = null, commanders = null, wholeList = false;
    if (r.status === 200 && Array.isArray(list)) {
      cards = list.filter((c) => c && typeof c.name === 'string');
      wholeList = !body?.next_cursor;
      commanders = wholeList ? cards.filter((c) => c.type === 'commander').map((c) => c.name)
                             : await loadCommanders();
    }
    if (seq !== state.catalogSeq) return; // a newer read (another key) is under way
    state.catalog = commanders ? cards : null;
    state.commanders = commanders;
    state.catalogWhole = wholeList;
    if (state.catalog) {
      const total = typeof body?.total === 'number' ? body.total : state.catalog.length;
      $('#catalog-note').textContent = state.catalogWhole
        ? `${fmtInt(total)} catalog cards (GET /v1/cards)`
        : `${fmtInt(total)} catalog cards (GET /v1/cards), ${fmtInt(state.commanders.length)}` +
          ' commanders: find deck cards by name above';
    } else {
      $('#catalog-note').textContent =
          `card catalog n/a (GET /v1/cards answered ${r.status || 'nothing'}): type card names`;
    }
    $('#card-search').hidden = !state.catalog;
    const preset = defaults();
    for (const fs of document.querySelectorAll('fieldset.side')) buildSide(fs, preset);
  }

  // ---- the card search (GET /v1/cards?name=..., a page at a time) ----------------------

  const search = { timer: null, seq: 0, query: '', cursor: null };

  function skillText(c) {
    return (c.skills || []).map((s) => s.name + (s.all ? ' all' : '') +
                                       (s.x ? ' ' + s.x : '')).join(', ');
  }

  function resultRow(c) {
    const stats = c.type === 'commander' ? `${c.health} hp`
                                         : [c.attack ?? '–', c.health, c.delay ?? 0].join('/');
    const tr = el('tr', { 'data-card': c.name, title: skillText(c) },
                  el('td', { class: 'name', text: c.name }),
                  el('td', { class: 'muted', text: c.type }),
                  el('td', { class: 'muted', text: stats }));
    const td = el('td', { class: 'adds' });
    if (c.type === 'commander' || DECK_TYPES.includes(c.type)) {
      for (const side of ['attacker', 'defender']) {
        const b = el('button', { type: 'button', 'data-side': side, text: `+ ${side}`,
                                 title: c.type === 'commander' ? `${side}'s commander`
                                                               : `add to the ${side}'s deck` });
        b.addEventListener('click', () => addToSide(side, c));
        td.append(b);
      }
    } else {
      td.append(el('span', { class: 'muted', text: 'in a deck string',
                             title: 'fortresses and dominions: write them in a deck string' }));
    }
    tr.append(td);
    return tr;
  }

  // Reads the next page of the current search (the first when `fresh`).
  async function searchPage(fresh) {
    const seq = fresh ? ++search.seq : search.seq;
    const q = search.query;
    const body = $('#card-results tbody');
    const note = $('#card-search-note');
    if (fresh) {
      search.cursor = null;
      body.replaceChildren();
      $('#card-more').hidden = true;
      if (q === '') { note.textContent = ''; return; }
    }
    note.textContent = 'searching…';
    const r = await api(cardsPath({ name: q, limit: SEARCH_LIMIT,
                                    ...(search.cursor ? { cursor: search.cursor } : {}) }));
    if (seq !== search.seq) return; // the query changed meanwhile
    if (r.status !== 200 || !Array.isArray(r.body?.items)) {
      note.textContent = `search n/a (GET /v1/cards answered ${r.status || 'nothing'})`;
      return;
    }
    for (const c of r.body.items) body.append(resultRow(c));
    search.cursor = r.body.next_cursor || null;
    $('#card-more').hidden = !search.cursor;
    const total = r.body.total ?? body.children.length;
    note.textContent = total === 0 ? `no card's name has "${q}"`
                                   : `${fmtInt(body.children.length)} of ${fmtInt(total)} cards`;
  }

  function wireSearch() {
    const input = $('#card-q');
    input.addEventListener('input', () => {
      clearTimeout(search.timer);
      search.timer = setTimeout(() => {
        search.query = input.value.trim();
        searchPage(true);
      }, SEARCH_DELAY_MS);
    });
    // Enter searches at once and never submits the battle.
    input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      clearTimeout(search.timer);
      search.query = input.value.trim();
      searchPage(true);
    });
    $('#card-more').addEventListener('click', () => searchPage(false));
  }

  // ---- polling (the tiles; the jobs table only while its event stream is down) -------

  let timer = null;
  let polling = false;

  async function poll(now = false) {
    if (now && timer) clearTimeout(timer);
    if (polling) return;
    polling = true;
    try {
      const [ready, stats] = await Promise.all([api('/readyz'), api('/v1/stats')]);
      const pill = $('#ready');
      pill.textContent = ready.status === 200 ? 'ready' : ready.status === 0 ? 'unreachable'
                                                                            : 'not ready';
      pill.className = `pill ${ready.status === 200 ? 'ok' : 'bad'}`;
      renderStats(stats);
      if (!state.live && state.listAt && Date.now() - state.listAt >= FALLBACK_MS) await loadList();
      await refreshSelected();
      if (Date.now() - state.history > HISTORY_MS) {
        state.history = Date.now();
        renderHistory(await api('/v1/stats/history?minutes=60'));
      }
      $('#updated').textContent = `updated ${new Date().toLocaleTimeString('en-GB')}`;
    } finally {
      polling = false;
      timer = setTimeout(poll, POLL_MS);
    }
  }

  // ---- history ------------------------------------------------------------------------

  // Per-minute bars over the last hour: jobs stacked by final status, and games/s.
  function renderHistory(res) {
    if (res.status !== 200 || !res.body || !Array.isArray(res.body.points)) {
      $('#history-note').textContent = `n/a: GET /v1/stats/history answered ${res.status || 'nothing'}`;
      return;
    }
    const pts = res.body.points;
    const stack = ['succeeded', 'failed', 'canceled'];
    $('#history-jobs').replaceChildren(barChart('history-jobs-chart', 'jobs per minute', pts,
        (p) => stack.map((k) => ({ k, v: p[k] }))));
    $('#history-games').replaceChildren(barChart('history-games-chart', 'games per second', pts,
        (p) => [{ k: 'games', v: p.games / 60 }]));
    const total = (k) => pts.reduce((n, p) => n + p[k], 0);
    $('#history-note').textContent = `last ${pts.length} min: ` + stack.map(
        (k) => `${k} ${fmtInt(total(k))}`).join(' · ') + ` · games ${fmtInt(total('games'))}`;
  }

  function barChart(id, title, pts, parts) {
    const W = 560, H = 120, left = 44, bottom = 18, top = 16;
    const plotW = W - left - 6, plotH = H - top - bottom;
    const sums = pts.map((p) => parts(p).reduce((n, x) => n + x.v, 0));
    const max = Math.max(1, ...sums);
    const g = svg('svg', { id, viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img',
                           'aria-label': title });
    g.append(svg('text', { x: left, y: 11, class: 'axis' }, title));
    g.append(svg('text', { x: left - 4, y: top + 8, 'text-anchor': 'end', class: 'axis' },
                 max >= 100 ? fmtInt(max) : String(Math.round(max * 10) / 10)));
    g.append(svg('line', { x1: left, y1: top + plotH, x2: left + plotW, y2: top + plotH,
                           class: 'axis-line' }));
    const bw = plotW / Math.max(1, pts.length);
    pts.forEach((p, i) => {
      let y = top + plotH;
      for (const { k, v } of parts(p)) {
        if (!v) continue;
        const h = (plotH * v) / max;
        y -= h;
        g.append(svg('rect', { x: left + i * bw + 0.5, y, width: Math.max(1, bw - 1), height: h,
                               class: `hist ${k}`, 'data-minute': p.t, 'data-value': v },
                     ));
      }
    });
    if (pts.length) {
      g.append(svg('text', { x: left, y: H - 4, class: 'axis' }, fmtTime(pts[0].t)));
      g.append(svg('text', { x: left + plotW, y: H - 4, 'text-anchor': 'end', class: 'axis' },
                   fmtTime(pts[pts.length - 1].t)));
    }
    return g;
  }

  // ---- job list controls --------------------------------------------------------------

  function wireJobControls() {
    const refilter = () => {
      state.filter = { status: $('#jobs-status').value, kind: $('#jobs-kind').value };
      setPage(null, []); // status "failed": the failed-jobs view, every attempt's error
    };
    $('#jobs-status').addEventListener('change', refilter);
    $('#jobs-kind').addEventListener('change', refilter);
    $('#jobs-older').addEventListener('click', () => {
      if (state.next) setPage(state.next, [...state.older, state.cursor]);
    });
    $('#jobs-newer').addEventListener('click', () => {
      const older = [...state.older];
      setPage(older.pop() || null, older);
    });
    $('#jobs-search-form').addEventListener('submit', async (e) => {
      e.preventDefault();
      const id = $('#jobs-search').value.trim().toLowerCase();
      const r = await api(`/v1/jobs/${encodeURIComponent(id)}`);
      if (r.status === 200) {
        $('#jobs-action').textContent = '';
        open(r.body.id);
      } else {
        $('#jobs-action').textContent = `no job ${id}`;
      }
    });
    $('#jobs-cancel-queued').addEventListener('click', async () => {
      const kind = $('#jobs-kind').value;
      const what = `every queued${kind ? ' ' + kind : ''} job`;
      if (!window.confirm(`Cancel ${what}?`)) return;
      const q = new URLSearchParams({ status: 'queued' });
      if (kind) q.set('kind', kind);
      const r = await api(`/v1/jobs:cancel?${q}`, { method: 'POST' });
      $('#jobs-action').textContent = r.status === 200 && r.body
        ? `canceled ${r.body.canceled} queued job${r.body.canceled === 1 ? '' : 's'}`
        : `bulk cancel: ${r.body?.detail || r.status}`;
      scheduleList(0);
    });
  }

  function keyNote(text) {
    const n = $('#key-note');
    if (n) n.textContent = text;
  }

  function wireKey() {
    if (/^#key=/.test(location.hash)) keyFromHash();
    state.key = state.key || storedKey();
    $('#api-key').value = state.key;
    $('#key-form').addEventListener('submit', (e) => {
      e.preventDefault();
      storeKey($('#api-key').value.trim());
      keyNote(state.key ? 'key saved in this browser' : 'key removed');
      loadCatalog();
      poll(true);
    });
  }

  // The job kinds of the jobs table's filter, from the API's own OpenAPI document (public):
  // its Job.kind enum is held to the engine's table of kinds by a unit test
  // (tests/unit/engine/test_job_kinds.c), so a new kind shows here without an edit.
  async function loadKinds() {
    const r = await api('/openapi.json');
    const kinds = pick(r.body || {}, 'components.schemas.Job.properties.kind.enum');
    if (!Array.isArray(kinds)) return;
    const select = $('#jobs-kind');
    select.replaceChildren(el('option', { value: '', text: 'all' }),
                           ...kinds.map((k) => el('option', { value: k, text: k })));
    select.value = state.filter.kind;
  }

  document.addEventListener('DOMContentLoaded', async () => {
    wireKey();
    loadKinds();
    $('#battle-form').addEventListener('submit', submit);
    wireSearch();
    wireJobControls();
    window.addEventListener('hashchange', fromHash);
    fromHash();
    openFeed();
    scheduleList(0);
    await loadCatalog();
    poll();
  });
})();
