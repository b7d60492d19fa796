// LangSmith's v2 reads, driven through the official client's new resources (client.runs.query/retrieve,
// client.traces.*, client.threads.*, client.runs.share.*, client.public.runs.*): fields by `selects`,
// cursor pages, filters, time windows, and the other workspace seeing nothing.
import assert from 'node:assert/strict';
import type { Client } from 'langsmith';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect, dottedSegment } from './helpers';

interface TraceSpec {
  name: string;
  start: number;
  /** Metadata of every run of the trace (the thread keys). */
  metadata?: Record<string, unknown>;
  error?: string;
  /** Tokens of the trace's llm child. */
  tokens?: number;
  open?: boolean;
}

/** A trace of a chain root with an llm and a tool child; ids and run payloads for batchIngestRuns. */
function trace(projectId: string, t: TraceSpec) {
  const root = crypto.randomUUID();
  const llm = crypto.randomUUID();
  const tool = crypto.randomUUID();
  const rootDotted = dottedSegment(new Date(t.start), root);
  const extra = t.metadata ? { metadata: t.metadata } : {};
  const child = (id: string, name: string, run_type: string, offset: number, more: object = {}) => ({
    id, name, run_type, session_id: projectId, trace_id: root, parent_run_id: root, extra,
    start_time: t.start + offset, end_time: t.start + offset + 100, inputs: { step: name }, outputs: { ok: true },
    dotted_order: `${rootDotted}.${dottedSegment(new Date(t.start + offset), id)}`, ...more,
  });
  return {
    root, llm, tool,
    runs: [
      {
        id: root, name: t.name, run_type: 'chain', session_id: projectId, trace_id: root, dotted_order: rootDotted, extra,
        start_time: t.start, end_time: t.open ? undefined : t.start + 1000, inputs: { question: `${t.name}?` },
        outputs: t.open ? undefined : { answer: `${t.name}!` }, error: t.error, tags: ['v2'],
      },
      child(llm, `${t.name}-llm`, 'llm', 10, t.tokens ? { prompt_tokens: t.tokens - 1, completion_tokens: 1, total_tokens: t.tokens } : {}),
      child(tool, `${t.name}-tool`, 'tool', 20),
    ],
  };
}

const status = (e: unknown) => (e as { status?: number }).status;

describe('v2 reads through the official client: runs, traces, threads, public', function () {
  this.timeout(60_000);
  const srv = withLocalServer();
  let c: Client;
  let other: Client;
  let projectId: string;
  const now = Date.now();
  const traces: Array<ReturnType<typeof trace>> = [];
  /** A trace from two days ago: outside v2's default window of one day. */
  let old: ReturnType<typeof trace>;

  before(async () => {
    c = client(srv());
    other = client(srv(), { apiKey: srv().otherApiKey });
    projectId = (await c.createProject({ projectName: 'v2-reads' })).id;
    for (let i = 0; i < 12; i++) {
      // Three conversations, each named by one of the keys LangSmith groups threads by; traces 9-11 in none.
      const metadata = i < 4 ? { thread_id: 'thread-a' } : i < 7 ? { session_id: 'thread-b' } : i < 9 ? { conversation_id: 'thread-c' } : undefined;
      traces.push(trace(projectId, { name: `t${i}`, start: now - 3_600_000 + i * 60_000, metadata, error: i === 5 ? 'boom' : undefined, tokens: 10 + i, open: i === 11 }));
    }
    old = trace(projectId, { name: 'old', start: now - 2 * 24 * 3_600_000 });
    await c.batchIngestRuns({ runCreates: [...traces, old].flatMap((t) => t.runs) as never });
  });

  it('runs.query pages through every run by cursor, newest first, with only the selected fields', async () => {
    const pages: number[] = [];
    let page = await c.runs.query({ project_ids: [projectId], page_size: 7, selects: ['ID', 'NAME', 'RUN_TYPE', 'STATUS', 'PROJECT_ID', 'PARENT_RUN_IDS'] });
    const runs = [...page.items];
    pages.push(page.items.length);
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      pages.push(page.items.length);
      runs.push(...page.items);
    }
    assert.deepEqual(pages, [7, 7, 7, 7, 7, 1], '36 runs of the last day in pages of 7');
    assert.equal(new Set(runs.map((r) => r.id)).size, 36);
    assert.ok(!runs.some((r) => r.id === old.root), 'the two-day-old trace is outside the default window');
    const root = runs.find((r) => r.id === traces[11].root)!;
    assert.deepEqual(root, { id: traces[11].root, name: 't11', run_type: 'CHAIN', status: 'PENDING', project_id: projectId, parent_run_ids: [] });
    assert.equal(runs[0].id, traces[11].tool, 'newest first');
    const failed = runs.find((r) => r.id === traces[5].root)!;
    assert.equal(failed.status, 'ERROR');
    assert.deepEqual(runs.find((r) => r.id === traces[0].llm), {
      id: traces[0].llm, name: 't0-llm', run_type: 'LLM', status: 'SUCCESS', project_id: projectId, parent_run_ids: [traces[0].root],
    });
    // Without selects, the id alone; the iterator follows the cursor on its own.
    const ids = await collect(c.runs.query({ project_ids: [projectId], page_size: 10 }));
    assert.equal(ids.length, 36);
    assert.deepEqual(Object.keys(ids[0]), ['id']);
  });

  it('runs.query filters: roots, run type, errors, filter language, trace, ids, window, order', async () => {
    // sort_order is in LangSmith's schema though not (yet) in the client's parameter type.
    const q = (p: Parameters<Client['runs']['query']>[0] & { sort_order?: 'ASC' | 'DESC' }) => collect(c.runs.query({ project_ids: [projectId], ...p }));
    assert.equal((await q({ is_root: true })).length, 12);
    assert.deepEqual((await q({ run_type: 'LLM', selects: ['NAME'] })).map((r) => r.name).sort(), traces.map((_, i) => `t${i}-llm`).sort());
    assert.deepEqual((await q({ has_error: true })).map((r) => r.id), [traces[5].root]);
    assert.deepEqual((await q({ filter: 'and(eq(name, "t3-tool"), eq(run_type, "tool"))' })).map((r) => r.id), [traces[3].tool]);
    assert.deepEqual((await q({ trace_filter: 'eq(name, "t2")', is_root: false })).map((r) => r.id).sort(), [traces[2].llm, traces[2].tool].sort());
    assert.deepEqual((await q({ tree_filter: 'eq(error, "boom")', run_type: 'TOOL' })).map((r) => r.id), [traces[5].tool]);
    assert.deepEqual((await q({ trace_id: traces[1].root, sort_order: 'ASC' })).map((r) => r.id), [traces[1].root, traces[1].llm, traces[1].tool]);
    assert.deepEqual((await q({ ids: [traces[4].llm, old.llm] })).map((r) => r.id), [traces[4].llm]);
    const wide = await q({ ids: [old.llm], min_start_time: new Date(now - 3 * 24 * 3_600_000).toISOString() });
    assert.deepEqual(wide.map((r) => r.id), [old.llm], 'an explicit window reaches older runs');
    const asc = await q({ is_root: true, sort_order: 'ASC', selects: ['ID', 'START_TIME'] });
    assert.deepEqual(asc.map((r) => r.id), traces.map((t) => t.root));
    assert.deepEqual(Object.keys(asc[0]), ['id', 'start_time'], 'the id only when selected');
    // The other workspace: nothing, whatever it names.
    assert.deepEqual(await collect(other.runs.query({ project_ids: [projectId] })), []);
    assert.deepEqual(await collect(other.runs.query({ ids: [traces[0].root] })), []);
    // Wrong values are a 422 with the field named.
    const bad = await rawRequest(srv(), 'POST', '/api/v2/runs/query', { project_ids: [projectId], run_type: 'llm' });
    assert.equal(bad.status, 422);
    assert.match(bad.body.detail, /body\.run_type/);
    assert.equal((await rawRequest(srv(), 'POST', '/api/v2/runs/query', { project_ids: [projectId], selects: ['NOPE'] })).status, 422);
    assert.equal((await rawRequest(srv(), 'POST', '/api/v2/runs/query', { project_ids: [projectId], page: 2 })).status, 422);
  });

  it('runs.retrieve answers one run of the project with its selected fields; 404 elsewhere', async () => {
    const t = traces[2];
    const run = await c.runs.retrieve(t.llm, {
      project_id: projectId,
      selects: ['NAME', 'INPUTS', 'OUTPUTS', 'TOTAL_TOKENS', 'PROMPT_TOKENS', 'TRACE_ID', 'IS_ROOT', 'LATENCY_SECONDS', 'END_TIME', 'ERROR', 'METADATA'],
    });
    assert.deepEqual(run, {
      name: 't2-llm', inputs: { step: 't2-llm' }, outputs: { ok: true }, total_tokens: 12, prompt_tokens: 11, trace_id: t.root,
      is_root: false, latency_seconds: 0.1, end_time: new Date(now - 3_600_000 + 2 * 60_000 + 110).toISOString(), metadata: { thread_id: 'thread-a' },
    });
    const pending = await c.runs.retrieve(traces[11].root, { project_id: projectId, selects: ['END_TIME', 'OUTPUTS', 'STATUS'] });
    assert.deepEqual(pending, { end_time: null, status: 'PENDING' }, 'a pending run: end_time null, no outputs');
    const otherProject = (await c.createProject({ projectName: 'v2-elsewhere' })).id;
    await assert.rejects(c.runs.retrieve(t.llm, { project_id: otherProject }), (e) => status(e) === 404);
    await assert.rejects(other.runs.retrieve(t.llm, { project_id: projectId }), (e) => status(e) === 404);
    const noProject = await rawRequest(srv(), 'GET', `/api/v2/runs/${t.llm}`);
    assert.equal(noProject.status, 422);
    assert.match(noProject.body.detail, /project_id/);
  });

  it('traces.listRuns reads a whole trace in tree order; traces.query pages roots with trace aggregates', async () => {
    const t = traces[3];
    const tree = await c.traces.listRuns(t.root, { project_id: projectId, selects: ['NAME', 'DOTTED_ORDER'] });
    assert.deepEqual(tree.items?.map((r) => r.name), ['t3', 't3-llm', 't3-tool']);
    const llms = await c.traces.listRuns(t.root, { project_id: projectId, filter: 'eq(run_type, "llm")' });
    assert.deepEqual(llms.items, [{ id: t.llm }]);
    await assert.rejects(other.traces.listRuns(t.root, { project_id: projectId }), (e) => status(e) === 404);

    const items = await collect(c.traces.query({ project_id: projectId, page_size: 5, selects: ['NAME', 'TOTAL_TOKENS'] }));
    assert.equal(items.length, 12);
    assert.deepEqual(items[0], { root_run: { name: 't11' }, trace_aggregates: { total_tokens: 21 } });
    assert.deepEqual(items.map((i) => i.root_run?.name), traces.map((_, i) => `t${11 - i}`));
    const failing = await collect(c.traces.query({ project_id: projectId, tree_filter: 'eq(error, "boom")' }));
    assert.deepEqual(failing, [{ root_run: { id: traces[5].root } }], 'no aggregate selected: none given');
    const some = await collect(c.traces.query({ project_id: projectId, trace_ids: [traces[1].root, old.root], selects: ['ID'] }));
    assert.deepEqual(some.map((i) => i.root_run?.id), [traces[1].root]);
    assert.deepEqual(await collect(other.traces.query({ project_id: projectId })), []);
  });

  it('threads.query groups traces by thread_id, session_id or conversation_id and pages them', async () => {
    const first = await c.threads.query({ project_id: projectId, page_size: 2 });
    assert.equal(first.items.length, 2);
    assert.ok(first.hasNextPage());
    const all = await collect(c.threads.query({ project_id: projectId, page_size: 2 }));
    assert.deepEqual(all.map((t) => [t.thread_id, t.count]), [['thread-c', 2], ['thread-b', 3], ['thread-a', 4]], 'most recently active first');
    const b = all[1];
    assert.equal(b.first_trace_id, traces[4].root);
    assert.equal(b.last_trace_id, traces[6].root);
    assert.equal(b.num_errored_turns, 1);
    assert.equal(b.last_error, 'boom');
    assert.equal(b.first_inputs, 't4?');
    assert.equal(b.last_outputs, 't6!');
    assert.equal(b.total_tokens, 14 + 15 + 16);
    assert.equal(b.latency_p50, 1);
    assert.equal(b.min_start_time, new Date(now - 3_600_000 + 4 * 60_000).toISOString());
    assert.ok(!('last_error' in all[0]), 'a thread without errors has no last_error');
    const filtered = await collect(c.threads.query({ project_id: projectId, filter: 'eq(name, "t0")' }));
    assert.deepEqual(filtered.map((t) => t.thread_id), ['thread-a']);
    const late = await collect(c.threads.query({ project_id: projectId, min_start_time: new Date(now - 3_600_000 + 6 * 60_000).toISOString() }));
    assert.deepEqual(late.map((t) => [t.thread_id, t.count]), [['thread-c', 2], ['thread-b', 1]]);
    // LangSmith 0.16 (the version this server reports) has no thread_filter: 501, which the client would retry.
    await assert.rejects(c.threads.query({ project_id: projectId, thread_filter: 'gt(count, 1)' }, { maxRetries: 0 }), (e) => status(e) === 501);
    assert.deepEqual(await collect(other.threads.query({ project_id: projectId })), []);
  });

  it('threads.listTraces pages a thread’s turns oldest first; threads.stats sums them', async () => {
    const turns = await collect(c.threads.listTraces('thread-a', { project_id: projectId, page_size: 3, selects: ['NAME', 'OP', 'TOTAL_TOKENS', 'LATENCY', 'INPUTS_PREVIEW'] }));
    assert.deepEqual(turns, [0, 1, 2, 3].map((i) => ({ trace_id: traces[i].root, name: `t${i}`, op: 1, total_tokens: 0, latency: 1, inputs_preview: `t${i}?` })));
    const idsOnly = await collect(c.threads.listTraces('thread-b', { project_id: projectId }));
    assert.deepEqual(idsOnly, [4, 5, 6].map((i) => ({ trace_id: traces[i].root })));
    const stats = await c.threads.stats('thread-a', { session_id: projectId, selects: ['TURNS', 'TOTAL_TOKENS', 'PROMPT_TOKENS', 'LATENCY_P50', 'FIRST_START_TIME', 'LAST_END_TIME', 'TOTAL_COST'] });
    assert.deepEqual(stats, {
      turns: 4, total_tokens: 10 + 11 + 12 + 13, prompt_tokens: 9 + 10 + 11 + 12, latency_p50_seconds: 1,
      first_start_time: new Date(now - 3_600_000).toISOString(), last_end_time: new Date(now - 3_600_000 + 3 * 60_000 + 1000).toISOString(),
    });
    const filtered = await c.threads.stats('thread-a', { session_id: projectId, selects: ['TURNS'], filter: 'neq(name, "t0")' });
    assert.deepEqual(filtered, { turns: 3 });
    await assert.rejects(c.threads.listTraces('no-such-thread', { project_id: projectId }), (e) => status(e) === 404);
    await assert.rejects(other.threads.listTraces('thread-a', { project_id: projectId }), (e) => status(e) === 404);
    await assert.rejects(other.threads.stats('thread-a', { session_id: projectId, selects: ['TURNS'] }), (e) => status(e) === 404);
    assert.equal((await rawRequest(srv(), 'GET', `/api/v2/threads/thread-a/stats?session_id=${projectId}`)).status, 422, 'selects are required');
  });

  it('runs.share shares the trace; public.runs reads it without a key; unknown tokens and unshared traces are 404', async () => {
    const t = traces[7];
    const { share_token: token } = await c.runs.share.create(t.llm, {});
    assert.ok(token);
    assert.equal((await c.runs.share.create(t.root, {})).share_token, token, 'a child shares its trace: the same token');
    const url = await c.runs.retrieve(t.tool, { project_id: projectId, selects: ['SHARE_URL'] });
    assert.equal(url.share_url, `${srv().url}/public/${token}/r`);
    const q = await c.public.runs.query(token!, { selects: ['NAME', 'RUN_TYPE', 'INPUTS_PREVIEW'] });
    assert.deepEqual(q.items, [
      { name: 't7', run_type: 'CHAIN', inputs_preview: 't7?' },
      { name: 't7-llm', run_type: 'LLM', inputs_preview: 't7-llm' },
      { name: 't7-tool', run_type: 'TOOL', inputs_preview: 't7-tool' },
    ]);
    const one = await c.public.runs.retrieve(t.tool, { share_token: token!, selects: ['NAME', 'TRACE_ID'], start_time: new Date(now).toISOString() });
    assert.deepEqual(one, { name: 't7-tool', trace_id: t.root });
    // No key needed; nothing outside the trace.
    const open = await rawRequest(srv(), 'POST', `/api/v2/public/${token}/runs/query`, { selects: ['ID'] }, { apiKey: null });
    assert.equal(open.status, 200);
    assert.equal(open.body.items.length, 3);
    await assert.rejects(c.public.runs.retrieve(traces[8].root, { share_token: token!, selects: ['ID'], start_time: new Date(now).toISOString() }), (e) => status(e) === 404);
    await assert.rejects(c.public.runs.query(crypto.randomUUID(), {}), (e) => status(e) === 404);
    assert.equal((await rawRequest(srv(), 'POST', '/api/v2/public/not-a-token/runs/query', {}, { apiKey: null })).status, 404);
    await assert.rejects(other.runs.share.create(t.root, {}), (e) => status(e) === 404);
    await assert.rejects(other.runs.share.delete(t.root, {}), (e) => status(e) === 404);
    await c.runs.share.delete(t.root, {});
    await assert.rejects(c.public.runs.query(token!, {}), (e) => status(e) === 404);
    await c.runs.share.delete(t.root, {}); // again: still fine
  });

  it('bad bodies, ids and parameters on every v2 route are a 4xx with a detail, never a 500', async () => {
    const t = traces[0];
    const posts = ['/api/v2/runs/query', '/api/v2/traces/query', '/api/v2/threads/query', `/api/v2/runs/${t.root}/share`, `/api/v2/public/${crypto.randomUUID()}/runs/query`];
    const bodies = ['{"unterminated": ', '[]', '"a string"', '12', '{"project_id": "nope", "page_size": 0, "selects": [1]}', '{"cursor": "!!", "project_id": "' + projectId + '"}', 'plain text'];
    const failures: string[] = [];
    for (const path of posts) {
      for (const raw of bodies) {
        const r = await rawRequest(srv(), 'POST', path, undefined, { rawBody: raw, headers: { 'content-type': raw === 'plain text' ? 'text/plain' : 'application/json' } });
        if (r.status < 400 || r.status >= 500 || typeof r.body?.detail !== 'string') failures.push(`POST ${path} ${raw} → ${r.status} ${r.text.slice(0, 100)}`);
      }
    }
    const gets = [
      '/api/v2/runs/not-a-uuid?project_id=' + projectId,
      `/api/v2/runs/${t.root}?project_id=${projectId}&selects=NOPE`,
      `/api/v2/traces/${t.root}/runs?project_id=${projectId}&min_start_time=yesterday&max_start_time=today`,
      `/api/v2/traces/${t.root}/runs?project_id=${projectId}&min_start_time=${new Date(now - 1e7).toISOString()}`,
      `/api/v2/threads/thread-a/traces?project_id=${projectId}&page_size=500`,
      `/api/v2/threads/thread-a/traces?project_id=not-a-uuid`,
      `/api/v2/threads/thread-a/stats?session_id=${projectId}&selects=TURNS&filter=eq(`,
      `/api/v2/public/${crypto.randomUUID()}/run/not-a-uuid?selects=ID`,
    ];
    for (const path of gets) {
      const r = await rawRequest(srv(), 'GET', path);
      if (r.status < 400 || r.status >= 500 || typeof r.body?.detail !== 'string') failures.push(`GET ${path} → ${r.status} ${r.text.slice(0, 100)}`);
    }
    assert.deepEqual(failures, []);
  });
  it('answers the costs a run reports and its first token time, on v2 and v1 alike', async () => {
    const id = crypto.randomUUID();
    const start = now - 5000;
    const tokenAt = new Date(start + 120).toISOString();
    const posted = await rawRequest(srv(), 'POST', '/runs', {
      id, name: 'priced', run_type: 'llm', session_id: projectId, start_time: start, end_time: start + 900, inputs: { q: 1 },
      outputs: { text: 'hi', usage_metadata: { input_tokens: 100, output_tokens: 20, total_tokens: 120, input_cost: 0.0003, output_cost: 0.0006 } },
      events: [{ name: 'start', time: new Date(start).toISOString() }, { name: 'new_token', time: tokenAt, kwargs: { token: 'h' } }],
    });
    assert.equal(posted.status, 202, posted.text);
    const selects = ['PROMPT_COST', 'COMPLETION_COST', 'TOTAL_COST', 'FIRST_TOKEN_TIME', 'TOTAL_TOKENS'].map((s) => `selects=${s}`).join('&');
    const v2 = await rawRequest(srv(), 'GET', `/api/v2/traces/${id}/runs?project_id=${projectId}&${selects}`);
    assert.equal(v2.status, 200, v2.text);
    assert.deepEqual(v2.body.items, [{ prompt_cost: 0.0003, completion_cost: 0.0006, total_cost: 0.0003 + 0.0006, first_token_time: tokenAt, total_tokens: 120 }]);
    const v1 = await rawRequest(srv(), 'GET', `/runs/${id}`);
    assert.deepEqual(
      [v1.body.prompt_cost, v1.body.completion_cost, v1.body.total_cost, v1.body.first_token_time],
      [0.0003, 0.0006, 0.0003 + 0.0006, tokenAt],
    );
    // A run that reports none has none (this server keeps no price table), on either API.
    const plain = traces[0].llm;
    const none = await rawRequest(srv(), 'GET', `/api/v2/runs/${plain}?project_id=${projectId}&${selects}`);
    assert.deepEqual(Object.keys(none.body).sort(), ['total_tokens']);
    const noneV1 = await rawRequest(srv(), 'GET', `/runs/${plain}`);
    assert.deepEqual([noneV1.body.total_cost, noneV1.body.first_token_time], [null, null]);
  });
  it('sums the costs the runs of a thread report into its stats and its summary', async () => {
    const start = now - 20_000;
    const root = crypto.randomUUID();
    const llm = crypto.randomUUID();
    const metadata = { thread_id: 'thread-costs' };
    const rootDotted = dottedSegment(new Date(start), root);
    const posted = await rawRequest(srv(), 'POST', '/runs/batch', {
      post: [
        { id: root, name: 'turn', run_type: 'chain', session_id: projectId, trace_id: root, dotted_order: rootDotted, start_time: start, end_time: start + 500, inputs: { q: 1 }, outputs: { a: 1 }, extra: { metadata } },
        {
          id: llm, name: 'model', run_type: 'llm', session_id: projectId, trace_id: root, parent_run_id: root, dotted_order: `${rootDotted}.${dottedSegment(new Date(start + 10), llm)}`,
          start_time: start + 10, end_time: start + 400, inputs: { q: 1 }, outputs: { a: 1 },
          extra: { metadata: { ...metadata, usage_metadata: { input_tokens: 10, output_tokens: 2, total_tokens: 12, input_cost: 0.25, output_cost: 0.5 } } },
        },
      ],
    });
    assert.equal(posted.status, 202, posted.text);
    const stats = await c.threads.stats('thread-costs', { session_id: projectId, selects: ['TURNS', 'TOTAL_TOKENS', 'PROMPT_COST', 'COMPLETION_COST', 'TOTAL_COST'] });
    assert.deepEqual(stats, { turns: 1, total_tokens: 12, prompt_cost: 0.25, completion_cost: 0.5, total_cost: 0.75 });
    const summary = (await collect(c.threads.query({ project_id: projectId }))).find((t) => t.thread_id === 'thread-costs');
    assert.equal(summary?.total_cost, 0.75);
    const plain = await c.threads.stats('thread-a', { session_id: projectId, selects: ['TURNS', 'TOTAL_COST'] });
    assert.deepEqual(plain, { turns: 4 }, 'no run reports a cost: none is given');
  });
});
