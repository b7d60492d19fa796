// client.traces and client.threads against two real servers holding the same data: one reporting the current
// version (v2 trace and thread reads) and one reporting 0.10.0 (v1's run query). The server's own request log
// shows which API answered and how many requests a read took.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { LangSmithClient, LangSmithNotFoundError, LangSmithValidationError, collect, type TraceRun } from '../../src/client';
import type { RunWire } from '../../src/client/tracing';
import { searchFilter } from '../../src/client/resources/traces';
import { uuid4 } from '../../src/client/ids';
import { rawRequest } from '../harness/http';
import { withLocalServer, type LocalServer } from '../harness/localServer';
import { clientFor, unique } from './_server';

interface Side {
  label: string;
  srv: LocalServer;
  c: LangSmithClient;
  seen: string[];
  projectId: string;
}

/** Five days back: older than v2's default one-day window, so the client must widen it. */
const BASE = Date.now() - 5 * 24 * 3600 * 1000;
const NEEDLE = 'needle-in-outputs';
/** A run name with a quote and a backslash: the filter must carry both (payloads are searched as stored JSON text). */
const QUOTED = 'say "hi" \\ then go';
const CHAINS = 10;
const PER_CHAIN = 34;
/** Root, 10 chains, 34 runs under each (every fourth an llm with a nested tool): 351 runs. */
const TOTAL = 1 + CHAINS + CHAINS * PER_CHAIN;
const THREAD = 'conv-traces-test';

/** A tracer that only builds wires (never sends): the same ids, times and dotted orders go to both servers. */
const builder = () => new LangSmithClient({ apiUrl: 'http://127.0.0.1:9', apiKey: 'unused', tracing: { manualFlush: true, projectName: 'unused' } });

function bigTrace(): { rootId: string; wires: RunWire[]; needleIds: string[]; quotedIds: string[] } {
  const t = builder();
  const wires: RunWire[] = [];
  const needleIds: string[] = [];
  const quotedIds: string[] = [];
  const root = t.tracing.startRun({ name: 'agent', runType: 'chain', inputs: { q: 'big' }, startTime: BASE });
  for (let i = 0; i < CHAINS; i++) {
    const start = BASE + 1 + i * 1000;
    const chain = root.createChild({ name: `step-${i}`, runType: 'chain', inputs: { i }, startTime: start });
    let tool: ReturnType<typeof chain.createChild> | undefined;
    for (let j = 0; j < PER_CHAIN; j++) {
      const s = start + 1 + j * 10;
      // Every fourth run is an llm; the run after it is a tool nested under it (three levels below the root).
      const parent = j % 4 === 1 && tool ? tool : chain;
      const name = i === 7 && j === 3 ? QUOTED : j % 4 === 0 ? `llm-${i}-${j}` : `tool-${i}-${j}`;
      const run = parent.createChild({ name, runType: j % 4 === 0 ? 'llm' : 'tool', inputs: { j }, startTime: s });
      const outputs = i === 3 && j === 7 ? { text: NEEDLE } : { ok: j };
      const end = i === 5 && j === 2 ? { error: 'ValueError: bad city', endTime: s + 5 } : { outputs, endTime: s + 5 };
      if (i === 3 && j === 7) needleIds.push(run.id);
      if (name === QUOTED) quotedIds.push(run.id);
      wires.push(run.end(end).toWire());
      tool = j % 4 === 0 ? run : undefined;
    }
    wires.push(chain.end({ outputs: { i }, endTime: start + 900 }).toWire());
  }
  wires.push(root.end({ outputs: { a: 'done' }, endTime: BASE + 20_000 }).toWire());
  return { rootId: root.id, wires, needleIds, quotedIds };
}

/** Three turns of one conversation a minute apart (the second fails), and a trace of another thread. */
function threadTraces(): { wires: RunWire[]; turnIds: string[] } {
  const t = builder();
  const wires: RunWire[] = [];
  const turnIds: string[] = [];
  for (let k = 0; k < 3; k++) {
    const start = BASE + 3600_000 + k * 60_000;
    const root = t.tracing.startRun({ name: 'chat', runType: 'chain', inputs: { question: `q${k}` }, metadata: { thread_id: THREAD }, startTime: start });
    // The thread's id reaches the child as LangChain passes metadata down: LangSmith counts the tokens of such runs.
    const llm = root.createChild({ name: 'model', runType: 'llm', metadata: { thread_id: THREAD }, inputs: { messages: [{ role: 'user', content: `q${k}` }] }, startTime: start + 10 });
    wires.push(llm.end({ outputs: { answer: `a${k}`, usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } }, endTime: start + 500 }).toWire());
    wires.push(root.end(k === 1 ? { error: 'RuntimeError: turn failed', endTime: start + 800 } : { outputs: { answer: `a${k}` }, endTime: start + 800 }).toWire());
    turnIds.push(root.id);
  }
  const other = t.tracing.startRun({ name: 'chat', runType: 'chain', inputs: { question: 'x' }, metadata: { conversation_id: 'other-conv' }, startTime: BASE + 7200_000 });
  wires.push(other.end({ outputs: { answer: 'y' }, endTime: BASE + 7200_500 }).toWire());
  return { wires, turnIds };
}

const big = bigTrace();
const conv = threadTraces();

async function sideOn(label: string, srv: LocalServer): Promise<Side> {
  const seen: string[] = [];
  srv.server.app.server.on('request', (req: IncomingMessage) => seen.push(`${req.method} ${(req.url ?? '').split('?')[0]}`));
  const projectName = unique('traces');
  const all = [...big.wires, ...conv.wires].map((w) => ({ ...w, session_name: projectName }));
  const posted = await rawRequest(srv, 'POST', '/runs/batch', { post: all });
  assert.equal(posted.status, 202, posted.text);
  const c = clientFor(srv);
  const projectId = (await c.projects.read({ projectName })).id;
  return { label, srv, c, seen, projectId };
}

/** Requests made by `fn`, as the server saw them. */
async function logged<T>(side: Side, fn: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const from = side.seen.length;
  const result = await fn();
  return { result, requests: side.seen.slice(from) };
}

/** What the tree uses, with the side's own project id replaced. */
function treeView(side: Side, r: TraceRun): Record<string, unknown> {
  return { ...r, session_id: r.session_id === side.projectId ? 'PROJECT' : r.session_id };
}

describe('client ↔ local server: traces and threads (v2 where the server has it, v1 otherwise)', function () {
  this.timeout(60_000);
  const current = withLocalServer();
  const older = withLocalServer({ version: '0.10.0' });
  let v2: Side;
  let v1: Side;
  before(async () => {
    v2 = await sideOn('current version', current());
    v1 = await sideOn('0.10.0', older());
  });

  it('escapes quotes and backslashes in search()', () => {
    assert.equal(searchFilter('a"b\\c'), 'search("a\\"b\\\\c")');
  });

  it('reads a trace of 351 runs in one v2 request when the project is given', async () => {
    const c = clientFor(v2.srv);
    await c.serverInfo();
    const { result, requests } = await logged(v2, () => c.traces.runs(big.rootId, { projectId: v2.projectId }));
    assert.deepEqual(requests, [`GET /api/v2/traces/${big.rootId}/runs`]);
    assert.equal(result.source, 'v2');
    assert.equal(result.requests, 1);
    assert.equal(result.runs.length, TOTAL);
  });

  it('finds the project first with one small read when it is not given (v2)', async () => {
    const c = clientFor(v2.srv);
    await c.serverInfo();
    const { result, requests } = await logged(v2, () => c.traces.runs(big.rootId));
    assert.deepEqual(requests, ['POST /runs/query', `GET /api/v2/traces/${big.rootId}/runs`]);
    assert.equal(result.requests, 2);
    assert.equal(result.runs.length, TOTAL);
    assert.equal(result.runs[0]!.session_id, v2.projectId);
  });

  it('pages v1 by 100: ceil(n/100) requests', async () => {
    const c = clientFor(v1.srv);
    await c.serverInfo();
    const { result, requests } = await logged(v1, () => c.traces.runs(big.rootId, { projectId: v1.projectId }));
    assert.equal(result.source, 'v1');
    assert.equal(result.requests, Math.ceil(TOTAL / 100));
    assert.deepEqual(requests, Array(Math.ceil(TOTAL / 100)).fill('POST /runs/query'));
    assert.equal(result.runs.length, TOTAL);
  });

  it('gives the same tree rows from both APIs, parents and order right', async () => {
    const a = await v2.c.traces.runs(big.rootId, { projectId: v2.projectId });
    const b = await v1.c.traces.runs(big.rootId);
    assert.deepEqual(a.runs.map((r) => treeView(v2, r)), b.runs.map((r) => treeView(v1, r)));
    const byId = new Map(a.runs.map((r) => [r.id, r]));
    const byWire = new Map(big.wires.map((w) => [w.id, w]));
    for (const r of a.runs) {
      assert.equal(r.parent_run_id, byWire.get(r.id)!.parent_run_id ?? null, `parent of ${r.name}`);
      if (r.parent_run_id) assert.ok(r.dotted_order!.startsWith(`${byId.get(r.parent_run_id)!.dotted_order}.`), 'a child sorts under its parent');
      assert.equal(r.trace_id, big.rootId);
    }
    const sorted = [...a.runs].sort((x, y) => (x.dotted_order! < y.dotted_order! ? -1 : 1));
    assert.deepEqual(a.runs.map((r) => r.id), sorted.map((r) => r.id), 'tree order');
    assert.equal(a.runs[0]!.id, big.rootId);
    assert.equal(a.runs[0]!.parent_run_id, null);
    const failed = a.runs.filter((r) => r.status === 'error');
    assert.deepEqual(failed.map((r) => [r.name, r.error_preview]), [['tool-5-2', 'ValueError: bad city']]);
    assert.equal(new Set(a.runs.map((r) => r.run_type)).size, 3);
    assert.ok(a.runs.some((r) => r.parent_run_id && byId.get(r.parent_run_id)!.run_type === 'llm'), 'nested three deep');
  });

  it('names the thread of a run on v2 (v1 is not asked: older servers may not know the select)', async () => {
    const a = await v2.c.traces.runs(conv.turnIds[0]!, { projectId: v2.projectId });
    assert.deepEqual(a.runs.map((r) => r.thread_id), [THREAD, THREAD]);
    const b = await v1.c.traces.runs(conv.turnIds[0]!, { projectId: v1.projectId });
    assert.deepEqual(b.runs.map((r) => r.thread_id), [null, null]);
    assert.deepEqual(a.runs.map((r) => ({ ...treeView(v2, r), thread_id: null })), b.runs.map((r) => treeView(v1, r)));
    assert.deepEqual(a.runs.map((r) => r.total_tokens), [0, 15]);
  });

  it('a missing trace is a not-found error naming it, on both APIs', async () => {
    const missing = uuid4();
    for (const side of [v2, v1]) {
      for (const o of [{}, { projectId: side.projectId }]) {
        await assert.rejects(side.c.traces.runs(missing, o), (e: unknown) => {
          assert.ok(e instanceof LangSmithNotFoundError, `${side.label}: ${String(e)}`);
          assert.match(e.message, new RegExp(`Trace ${missing} not found`));
          return true;
        });
      }
    }
    // A trace of another project.
    const elsewhere = (await v2.c.projects.create({ name: unique('elsewhere') })).id;
    await assert.rejects(v2.c.traces.runs(big.rootId, { projectId: elsewhere }), LangSmithNotFoundError);
    await assert.rejects(v1.c.traces.runs(big.rootId, { projectId: elsewhere }), LangSmithNotFoundError);
  });

  it('checks ids before any request', async () => {
    const c = clientFor(v2.srv);
    const { requests } = await logged(v2, async () => {
      await assert.rejects(c.traces.runs('nope'), (e: unknown) => e instanceof LangSmithValidationError && e.message === 'Invalid UUID for traceId: nope');
      await assert.rejects(c.traces.runs(big.rootId, { projectId: 'x' }), /Invalid UUID for projectId: x/);
      await assert.rejects(c.traces.find('nope', 'x'), /Invalid UUID for traceId: nope/);
      await assert.rejects(c.threads.turns(THREAD, { projectId: 'x' }), /Invalid UUID for projectId: x/);
      await assert.rejects(c.threads.stats('', { projectId: v2.projectId }), (e: unknown) => e instanceof LangSmithValidationError && e.message === 'Invalid thread id: ');
    });
    assert.deepEqual(requests, []);
  });

  it('shows a running trace as pending, then finished after its update', async () => {
    const t = builder();
    const root = t.tracing.startRun({ name: 'live', runType: 'chain', inputs: { q: 1 }, startTime: Date.now() - 1000 });
    const child = root.createChild({ name: 'step', runType: 'tool', inputs: {}, startTime: Date.now() - 900 });
    const rootWire = root.toWire();
    const childWire = child.end({ outputs: { ok: true } }).toWire();
    for (const side of [v2, v1]) {
      const projectName = unique('live');
      const posted = await rawRequest(side.srv, 'POST', '/runs/batch', { post: [rootWire, childWire].map((w) => ({ ...w, session_name: projectName })) });
      assert.equal(posted.status, 202, posted.text);
      const first = await side.c.traces.runs(root.id);
      assert.equal(first.runs[0]!.status, 'pending', side.label);
      assert.equal(first.runs[0]!.end_time, null);
      assert.equal(first.runs[1]!.status, 'success');
      const patched = await rawRequest(side.srv, 'PATCH', `/runs/${root.id}`, { end_time: new Date().toISOString(), outputs: { a: 1 } });
      assert.equal(patched.status, 202, patched.text);
      const second = await side.c.traces.runs(root.id);
      assert.equal(second.runs[0]!.status, 'success', side.label);
      assert.ok(second.runs[0]!.end_time);
    }
  });

  it('finds runs by text in tree order on both APIs, quotes and backslashes included', async () => {
    for (const side of [v2, v1]) {
      assert.deepEqual(await side.c.traces.find(big.rootId, NEEDLE, { projectId: side.projectId }), big.needleIds, side.label);
      assert.deepEqual(await side.c.traces.find(big.rootId, QUOTED), big.quotedIds, side.label);
      assert.deepEqual(await side.c.traces.find(big.rootId, '"hi" \\'), big.quotedIds, side.label);
      const tools = await side.c.traces.find(big.rootId, 'tool-2-', { projectId: side.projectId });
      const all = (await side.c.traces.runs(big.rootId)).runs;
      assert.deepEqual(tools, all.filter((r) => r.name?.startsWith('tool-2-')).map((r) => r.id), side.label);
      assert.deepEqual(await side.c.traces.find(big.rootId, 'bad city'), all.filter((r) => r.status === 'error').map((r) => r.id));
      assert.deepEqual(await side.c.traces.find(big.rootId, 'no such text "\\'), []);
    }
  });

  it('lists the threads of a project, the last active first', async () => {
    for (const side of [v2, v1]) {
      const threads = await collect(side.c.threads.list({ projectId: side.projectId }));
      assert.deepEqual(threads.map((t) => [t.thread_id, t.turns]), [['other-conv', 1], [THREAD, 3]], side.label);
      const t = threads[1]!;
      assert.equal(t.first_trace_id, conv.turnIds[0]);
      assert.equal(t.last_trace_id, conv.turnIds[2]);
      assert.equal(Date.parse(t.last_start_time!), BASE + 3600_000 + 120_000);
      assert.equal(Date.parse(t.first_start_time!), BASE + 3600_000);
      assert.equal(t.errored_turns, 1, side.label);
      assert.ok(t.latency_p50 !== null && t.latency_p50 > 0);
      assert.deepEqual(await collect(side.c.threads.list({ projectId: side.projectId, limit: 1 })).then((l) => l.map((x) => x.thread_id)), ['other-conv']);
      const { result: none, requests } = await logged(side, () => collect(side.c.threads.list({ projectId: side.projectId, limit: 0 })));
      assert.deepEqual([none, requests], [[], []]);
    }
  });

  it('reads a thread\'s turns oldest first, with their inputs and outputs', async () => {
    for (const side of [v2, v1]) {
      const turns = await side.c.threads.turns(THREAD, { projectId: side.projectId });
      assert.deepEqual(turns.map((t) => t.trace_id), conv.turnIds, side.label);
      assert.deepEqual(turns.map((t) => t.root_run_id), conv.turnIds);
      assert.deepEqual(turns.map((t) => t.status), ['success', 'error', 'success'], side.label);
      assert.deepEqual(turns.map((t) => t.inputs), [{ question: 'q0' }, { question: 'q1' }, { question: 'q2' }], side.label);
      assert.deepEqual(turns.map((t) => t.outputs), [{ answer: 'a0' }, null, { answer: 'a2' }], side.label);
      assert.match(turns[1]!.error_preview!, /RuntimeError: turn failed/);
      assert.equal(turns[0]!.name, 'chat');
      assert.equal(turns[0]!.latency, 0.8);
      assert.deepEqual((await side.c.threads.turns(THREAD, { projectId: side.projectId, limit: 2 })).map((t) => t.trace_id), conv.turnIds.slice(0, 2));
    }
  });

  it('reads a page of turns and their root runs\' payloads in two v2 requests', async () => {
    const c = clientFor(v2.srv);
    await c.serverInfo();
    const { result, requests } = await logged(v2, () => c.threads.turns(THREAD, { projectId: v2.projectId }));
    assert.equal(result.length, 3);
    assert.deepEqual(requests, [`GET /api/v2/threads/${THREAD}/traces`, 'POST /api/v2/runs/query']);
  });

  it('reads a thread\'s figures', async () => {
    for (const side of [v2, v1]) {
      const s = await side.c.threads.stats(THREAD, { projectId: side.projectId });
      assert.equal(s.turns, 3, side.label);
      assert.equal(s.errored_turns, 1, side.label);
      assert.equal(s.latency_p50, 0.8);
      assert.equal(Date.parse(s.first_start_time!), BASE + 3600_000);
      assert.equal(Date.parse(s.last_start_time!), BASE + 3600_000 + 120_000);
      assert.equal(Date.parse(s.last_end_time!), BASE + 3600_000 + 120_800);
      if (side === v2) assert.equal(s.total_tokens, 45, 'tokens of the llm runs');
    }
  });

  it('a thread the project does not have is a not-found error', async () => {
    for (const side of [v2, v1]) {
      await assert.rejects(side.c.threads.turns('no-such-thread', { projectId: side.projectId }), (e: unknown) => {
        assert.ok(e instanceof LangSmithNotFoundError, `${side.label}: ${String(e)}`);
        assert.match(e.message, /Thread no-such-thread not found/);
        return true;
      });
      await assert.rejects(side.c.threads.stats('no-such-thread', { projectId: side.projectId }), LangSmithNotFoundError);
    }
  });
});
