// The run reads go to LangSmith's v2 run API (/api/v2/runs/…) when /info reports 0.16.0 or later, and to v1
// otherwise, with the same runs coming back. Two real servers hold the same traces: one reporting the current
// version, one reporting 0.10.0. Every read runs against both; the server's own request log shows which API
// answered, and the results must be equal (apart from each server's own project id).
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { LangSmithClient, LangSmithNotFoundError, LangSmithValidationError, collect, type Run } from '../../src/client';
import type { RunWire } from '../../src/client/tracing';
import { rawRequest } from '../harness/http';
import { RUNS_V2_MIN_VERSION, v2Path } from '../../src/client/resources/runs';
import { ClientContext, serverVersionAtLeast } from '../../src/client/context';
import { uuid4 } from '../../src/client/ids';
import { withLocalServer, type LocalServer } from '../harness/localServer';
import { clientFor, unique } from './_server';

/** One server with its client, what it was asked (method and path, in order) and the project it holds. */
interface Side {
  label: string;
  srv: LocalServer;
  c: LangSmithClient;
  seen: string[];
  projectId: string;
  projectName: string;
}

const ROOTS = 7;
const CHILDREN = ['tool', 'llm', 'tool'] as const;
/** Three days back: older than the one day v2 looks back by default, so the client has to widen the window. */
const BASE = Date.now() - 3 * 24 * 3600 * 1000;

/** The same traces (same ids, times, contents) for both servers. */
const traces = Array.from({ length: ROOTS }, (_, i) => ({
  id: uuid4(),
  name: i % 2 ? 'odd' : 'even',
  start: BASE + i * 1000,
  // Root 3 fails; root 5 never ends (pending).
  error: i === 3 ? 'boom' : undefined,
  open: i === 5,
  children: CHILDREN.map((runType, j) => ({ id: uuid4(), runType, name: `${runType}-${j}`, start: BASE + i * 1000 + (j + 1) * 10 })),
}));

/** The event each llm child streamed. */
const tokenEvent = (ms: number) => ({ name: 'new_token', time: new Date(ms + 1).toISOString(), kwargs: { token: 'hi' } });

/** The fields a caller of the run reads relies on, compared across the two APIs. */
const COMPARED = [
  'id', 'name', 'run_type', 'status', 'start_time', 'end_time', 'inputs', 'outputs', 'error', 'extra', 'events', 'tags',
  'trace_id', 'dotted_order', 'parent_run_id', 'reference_example_id', 'total_tokens', 'prompt_tokens', 'completion_tokens',
] as const;

function view(side: Side, r: Run): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of COMPARED) if (k in r) out[k] = (r as Record<string, unknown>)[k];
  // Each server made its own project: compare "the side's project" rather than the id.
  if ('session_id' in r) out['session_id'] = r.session_id === side.projectId ? 'PROJECT' : r.session_id;
  return out;
}

/**
 * The traces as they go on the wire, built once so that both servers receive the very same runs (dotted orders
 * included: the tracer stamps them from a clock of its own).
 */
function traceWires(): RunWire[] {
  const t = new LangSmithClient({ apiUrl: 'http://127.0.0.1:9', apiKey: 'unused', tracing: { manualFlush: true, projectName: 'unused' } });
  const wires: RunWire[] = [];
  traces.forEach((tr, i) => {
    const root = t.tracing.startRun({ id: tr.id, name: tr.name, runType: 'chain', inputs: { i }, startTime: tr.start, metadata: { i }, tags: ['root'] });
    for (const ch of tr.children) {
      const child = root.createChild({ id: ch.id, name: ch.name, runType: ch.runType, inputs: { q: ch.name }, startTime: ch.start });
      if (ch.runType === 'llm') child.events.push(tokenEvent(ch.start));
      wires.push(child.end({ outputs: { a: ch.name }, endTime: ch.start + 5 }).toWire());
    }
    if (!tr.open) root.end(tr.error ? { error: tr.error, endTime: tr.start + 900 } : { outputs: { i }, endTime: tr.start + 900 });
    wires.unshift(root.toWire());
  });
  return wires;
}

async function sideOn(label: string, srv: LocalServer, wires: RunWire[]): Promise<Side> {
  const seen: string[] = [];
  // The server's own view of each request (before routing), so the test sees which path was asked for.
  srv.server.app.server.on('request', (req: IncomingMessage) => seen.push(`${req.method} ${(req.url ?? '').split('?')[0]}`));
  const projectName = unique('runs-v2');
  const posted = await rawRequest(srv, 'POST', '/runs/batch', { post: wires.map((w) => ({ ...w, session_name: projectName })) });
  assert.equal(posted.status, 202, posted.text);
  const c = clientFor(srv);
  const projectId = (await c.projects.read({ projectName })).id;
  return { label, srv, c, seen, projectId, projectName };
}

/** Requests made by `fn` on this side, as the server saw them. */
async function logged<T>(side: Side, fn: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const from = side.seen.length;
  const result = await fn();
  return { result, requests: side.seen.slice(from) };
}

describe('client ↔ local server: run reads on v2 where the server has it, v1 otherwise', function () {
  this.timeout(60_000);
  const current = withLocalServer();
  const older = withLocalServer({ version: '0.10.0' });
  let v2: Side;
  let v1: Side;
  before(async () => {
    const wires = traceWires();
    v2 = await sideOn('current version', current(), wires);
    v1 = await sideOn('0.10.0', older(), wires);
  });

  it('decides by the version /info reports, read once per client', async () => {
    assert.equal(RUNS_V2_MIN_VERSION, '0.16.0');
    assert.equal(serverVersionAtLeast({ version: '0.16.0' }, RUNS_V2_MIN_VERSION), true);
    assert.equal(serverVersionAtLeast({ version: '0.15.9' }, RUNS_V2_MIN_VERSION), false);
    assert.equal(serverVersionAtLeast({ version: null }, RUNS_V2_MIN_VERSION), false, 'no version: the older API');
    assert.equal(await new ClientContext(v2.c.http, v2.srv.url).versionAtLeast(RUNS_V2_MIN_VERSION), true);
    assert.equal(await new ClientContext(v1.c.http, v1.srv.url).versionAtLeast(RUNS_V2_MIN_VERSION), false);
    const fresh = clientFor(v2.srv);
    const { requests } = await logged(v2, async () => {
      await collect(fresh.runs.query({ projectId: v2.projectId, isRoot: true }));
      await collect(fresh.runs.query({ projectId: v2.projectId, isRoot: true }));
    });
    assert.deepEqual(requests, ['GET /info', 'POST /api/v2/runs/query', 'POST /api/v2/runs/query']);
  });

  it('a server whose /info cannot be read is read on v1', async () => {
    // /info answers 404 (an old proxy in front of LangSmith, say): no version, so the API every version serves.
    const noInfo = ((input: string | URL | Request, init?: RequestInit) =>
      new URL(String(input)).pathname === '/info' ? Promise.resolve(new Response('{"detail":"Not Found"}', { status: 404 })) : fetch(input, init)) as typeof fetch;
    const c = clientFor(v2.srv, { fetch: noInfo });
    const { result, requests } = await logged(v2, () => collect(c.runs.query({ projectId: v2.projectId, isRoot: true, order: 'asc' })));
    assert.deepEqual(requests, ['POST /runs/query']);
    assert.deepEqual(result.map((r) => r.id), traces.map((t) => t.id));
  });

  it('v2 paths follow the API URL as the official client derives them', () => {
    assert.equal(v2Path('https://api.smith.langchain.com', 'runs/query'), '/api/v2/runs/query');
    assert.equal(v2Path('https://host/api/v1', 'runs/query'), '/../v2/runs/query');
    assert.equal(v2Path('https://host/api', '/runs/query'), '/v2/runs/query');
    assert.equal(new URL(`https://host/api/v1${v2Path('https://host/api/v1', 'runs/x')}`).pathname, '/api/v2/runs/x');
  });

  /** Runs `read` on both servers: the v2 side must ask `v2Route`, the v1 side `v1Route`; the runs must match. */
  async function both(read: (s: Side) => Promise<Run[]>, v2Route: string, v1Route: string): Promise<{ v2: Run[]; v1: Run[]; v2Requests: string[] }> {
    // The first read of a client also asks /info (once): that is the version check, not the read.
    const a = await logged(v2, () => read(v2));
    const b = await logged(v1, () => read(v1));
    for (const x of [a, b]) x.requests = x.requests.filter((r) => r !== 'GET /info');
    assert.ok(a.requests.length > 0 && a.requests.every((r) => r === v2Route), `${v2.label} asked ${a.requests.join(', ')}`);
    assert.ok(b.requests.length > 0 && b.requests.every((r) => r === v1Route), `${v1.label} asked ${b.requests.join(', ')}`);
    compared.push({ v2: a.result, v1: b.result });
    return { v2: a.result, v1: b.result, v2Requests: a.requests };
  }
  /** Results of both() in the running test, compared at its end (after the checks of actual values). */
  let compared: { v2: Run[]; v1: Run[] }[] = [];
  beforeEach(() => {
    compared = [];
  });
  function sameOnBoth() {
    for (const { v2: a, v1: b } of compared) {
      assert.deepEqual(a.map((r) => view(v2, r)), b.map((r) => view(v1, r)), 'same runs from v2 and v1');
    }
  }
  const Q2 = 'POST /api/v2/runs/query';
  const Q1 = 'POST /runs/query';

  it('pages the roots by cursor over several pages, in order, with every field in the v1 shape', async () => {
    const { v2: runs, v2Requests } = await both((s) => collect(s.c.runs.query({ projectId: s.projectId, isRoot: true, order: 'asc', pageSize: 3 })), Q2, Q1);
    assert.deepEqual(runs.map((r) => r.id), traces.map((t) => t.id));
    assert.equal(v2Requests.length, 3, 'three pages of 3, 3 and 1');
    const [r0, r3, r5] = [runs[0]!, runs[3]!, runs[5]!];
    assert.equal(r0.run_type, 'chain');
    assert.equal(r0.status, 'success');
    assert.equal(r0.session_id, v2.projectId);
    assert.equal(r0.parent_run_id, null);
    assert.equal(r0.trace_id, r0.id);
    assert.deepEqual(r0.inputs, { i: 0 });
    assert.deepEqual(r0.outputs, { i: 0 });
    assert.deepEqual((r0.extra as { metadata?: unknown }).metadata, { i: 0 });
    assert.deepEqual(r0.tags, ['root']);
    assert.equal(r0.start_time && new Date(r0.start_time).getTime(), traces[0]!.start);
    assert.equal(r3.status, 'error');
    assert.equal(r3.error, 'boom');
    assert.equal(r5.status, 'pending');
    assert.equal(r5.end_time, null);
    assert.equal(r5.error, null);
    for (const k of ['project_id', 'is_in_dataset', 'metadata']) assert.ok(!(k in r0), `no v2 name ${k}`);
    sameOnBoth();
  });

  it('filters: filter expression, run type, error, trace, ids, time window', async () => {
    const odd = (await both((s) => collect(s.c.runs.query({ projectId: s.projectId, filter: 'eq(name, "odd")', order: 'asc' })), Q2, Q1)).v2;
    assert.deepEqual(odd.map((r) => r.id), [1, 3, 5].map((i) => traces[i]!.id));
    const tools = (await both((s) => collect(s.c.runs.query({ projectId: s.projectId, runType: 'tool' })), Q2, Q1)).v2;
    assert.equal(tools.length, ROOTS * 2);
    assert.ok(tools.every((r) => r.run_type === 'tool'));
    const failed = (await both((s) => collect(s.c.runs.query({ projectId: s.projectId, error: true })), Q2, Q1)).v2;
    assert.deepEqual(failed.map((r) => r.id), [traces[3]!.id]);
    const tree = (await both((s) => collect(s.c.runs.query({ projectId: s.projectId, traceId: traces[2]!.id, order: 'asc' })), Q2, Q1)).v2;
    assert.deepEqual(tree.map((r) => r.id), [traces[2]!.id, ...traces[2]!.children.map((ch) => ch.id)]);
    const some = [traces[0]!.children[1]!.id, traces[6]!.id];
    const byId = (await both((s) => collect(s.c.runs.query({ projectId: s.projectId, runIds: some, order: 'asc' })), Q2, Q1)).v2;
    assert.deepEqual(byId.map((r) => r.id), some);
    const window = (await both(
      (s) => collect(s.c.runs.query({ projectId: s.projectId, isRoot: true, startTime: new Date(traces[2]!.start), endTime: new Date(traces[4]!.start), order: 'asc' })),
      Q2,
      Q1,
    )).v2;
    assert.deepEqual(window.map((r) => r.id), [2, 3, 4].map((i) => traces[i]!.id));
    // By project name: the project is looked up first (GET /sessions on both), then the query.
    const a = await logged(v2, () => collect(v2.c.runs.query({ projectName: v2.projectName, isRoot: true, filter: 'eq(name, "even")' })));
    assert.deepEqual(a.requests, ['GET /sessions', Q2]);
    assert.deepEqual(a.result.map((r) => r.id), [6, 4, 2, 0].map((i) => traces[i]!.id), 'newest first by default');
    // Without any project v2 cannot be asked (it needs project_ids): v1 answers.
    const b = await logged(v2, () => collect(v2.c.runs.query({ runIds: [traces[1]!.id] })));
    assert.deepEqual(b.requests, [Q1]);
    assert.deepEqual(b.result.map((r) => r.id), [traces[1]!.id]);
    sameOnBoth();
  });

  it('stops at the limit across pages, and answers only the selected fields', async () => {
    const limited = (await both((s) => collect(s.c.runs.query({ projectId: s.projectId, limit: 4, pageSize: 3 })), Q2, Q1)).v2;
    assert.equal(limited.length, 4);
    const selected = (await both((s) => collect(s.c.runs.query({ projectId: s.projectId, isRoot: true, select: ['name', 'end_time'], order: 'asc' })), Q2, Q1)).v2;
    assert.deepEqual(Object.keys(selected[0]!).sort(), ['end_time', 'id', 'name']);
    assert.equal(selected[0]!.name, 'even');
    assert.equal(selected[5]!.end_time, null);
    sameOnBoth();
  });

  it('lists the children of a run in the order they ran', async () => {
    const root = traces[4]!;
    const kids = (await both((s) => collect(s.c.runs.query({ projectId: s.projectId, parentRunId: root.id, order: 'asc' })), Q2, Q1)).v2;
    assert.deepEqual(kids.map((r) => r.id), root.children.map((ch) => ch.id));
    for (const [j, k] of kids.entries()) {
      assert.equal(k.parent_run_id, root.id);
      assert.equal(k.trace_id, root.id);
      assert.equal(k.run_type, CHILDREN[j]);
      assert.deepEqual(k.outputs, { a: `${CHILDREN[j]}-${j}` });
      assert.deepEqual(k.events, CHILDREN[j] === 'llm' ? [tokenEvent(root.children[j]!.start)] : [], `events of ${k.name}`);
    }
    // Children combined with a filter of the caller's.
    const llm = (await both((s) => collect(s.c.runs.query({ projectId: s.projectId, parentRunId: root.id, filter: 'eq(run_type, "llm")' })), Q2, Q1)).v2;
    assert.deepEqual(llm.map((r) => r.id), [root.children[1]!.id]);
    sameOnBoth();
  });

  it('reads one run by its project on v2, and without a project on v1 everywhere', async () => {
    const run = traces[5]!;
    const R2 = `GET /api/v2/runs/${run.id}`;
    const R1 = `GET /runs/${run.id}`;
    const [one] = (await both(async (s) => [await s.c.runs.read(run.id, { projectId: s.projectId, startTime: new Date(run.start) })], R2, R1)).v2;
    assert.equal(one!.id, run.id);
    assert.equal(one!.status, 'pending');
    assert.equal(one!.end_time, null);
    assert.equal(one!.session_id, v2.projectId);
    assert.deepEqual((one!.extra as { metadata?: unknown }).metadata, { i: 5 });
    // Without the project v2 cannot address the run: v1 on both servers, and the same run.
    await both(async (s) => [await s.c.runs.read(run.id)], R1, R1);
    // Through a self-hosted style API URL (…/api/v1), v2 is one level up.
    const selfHosted = clientFor(v2.srv, { apiUrl: `${v2.srv.url}/api/v1` });
    const via = await logged(v2, () => selfHosted.runs.read(run.children[0]!.id, { projectId: v2.projectId }));
    assert.deepEqual(via.requests, ['GET /api/v1/info', `GET /api/v2/runs/${run.children[0]!.id}`]);
    assert.equal(via.result.parent_run_id, run.id);
    sameOnBoth();
  });

  it('says which runs are shared, with the same token on both APIs (the tree offers Stop Sharing by it)', async () => {
    const root = traces[1]!;
    const tokens = new Map<Side, string>();
    for (const side of [v2, v1]) tokens.set(side, await side.c.runs.share(root.id, { shareId: uuid4() }));
    try {
      const { v2: a, v1: b } = await both((s) => collect(s.c.runs.query({ projectId: s.projectId, isRoot: true, order: 'asc' })), Q2, Q1);
      for (const [side, runs] of [[v2, a], [v1, b]] as const) {
        const token = /\/public\/([0-9a-f-]{36})\/r$/.exec(tokens.get(side)!)?.[1];
        assert.ok(token, `${side.label}: a public link ${tokens.get(side)}`);
        const shared = runs.filter((r) => (r as { share_token?: unknown }).share_token);
        assert.deepEqual(shared.map((r) => r.id), [root.id], `${side.label}: only the shared root`);
        assert.equal((shared[0] as { share_token?: unknown }).share_token, token, `${side.label}: its token`);
        assert.ok(!('share_url' in runs[0]!), 'no v2 name share_url');
      }
    } finally {
      for (const side of [v2, v1]) await side.c.runs.unshare(root.id);
    }
  });

  it('a missing run is a not-found error naming the action, on both APIs', async () => {
    const missing = uuid4();
    const errors: LangSmithNotFoundError[] = [];
    for (const side of [v2, v1]) {
      const { requests } = await logged(side, async () => {
        const e = await side.c.runs.read(missing, { projectId: side.projectId }).then(
          () => assert.fail('read a missing run'),
          (err: unknown) => err,
        );
        assert.ok(e instanceof LangSmithNotFoundError, String(e));
        errors.push(e);
      });
      assert.deepEqual(requests, [side === v2 ? `GET /api/v2/runs/${missing}` : `GET /runs/${missing}`]);
    }
    for (const e of errors) {
      assert.equal(e.status, 404);
      assert.equal(e.message.split('\n')[0], 'Failed to read run: 404 Not Found');
      assert.match(e.detail ?? '', new RegExp(missing));
    }
    // A run asked for in another project than its own is not found either (v2 addresses runs by project).
    const other = await v2.c.projects.create({ name: unique('elsewhere') });
    await assert.rejects(v2.c.runs.read(traces[0]!.id, { projectId: other.id }), LangSmithNotFoundError);
    // Ids are checked before any request, whichever API would answer.
    for (const side of [v2, v1]) {
      const { requests } = await logged(side, async () => {
        await assert.rejects(side.c.runs.read('nope', { projectId: side.projectId }), LangSmithValidationError);
        await assert.rejects(side.c.runs.read(traces[0]!.id, { projectId: 'nope' }), LangSmithValidationError);
        assert.throws(() => side.c.runs.query({ projectId: side.projectId, parentRunId: 'nope' }), LangSmithValidationError);
      });
      assert.deepEqual(requests, []);
    }
  });
});
