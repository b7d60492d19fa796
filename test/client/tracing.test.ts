import assert from 'node:assert/strict';
import { LangSmithClient, collect } from '../../src/client';
import { withLocalServer } from '../harness/localServer';
import { clientFor, setFaults, unique } from './_server';

describe('client ↔ local server: tracing and runs', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  before(() => {
    c = clientFor(srv());
  });

  async function projectRuns(client: LangSmithClient, projectName: string) {
    if (!(await client.projects.exists({ projectName }))) return [];
    return collect(client.runs.query({ projectName }));
  }

  it('manual flush: nothing is sent before flush(), everything after, with ids, trace ids and dotted orders', async () => {
    const projectName = unique('manual');
    const t = new LangSmithClient({ apiUrl: srv().url, apiKey: srv().apiKey, tracing: { manualFlush: true, projectName } });
    const roots = Array.from({ length: 30 }, (_, i) => t.tracing.startRun({ name: `root-${i}`, runType: 'chain', inputs: { i } }).post());
    const children = roots.map((r) => r.createChild({ name: 'llm', runType: 'llm', inputs: { prompt: 'p' } }).post());
    for (const ch of children) ch.end({ outputs: { text: 'ok' } }).patch();
    for (const r of roots) r.end({ outputs: { done: true } }).patch();
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(t.http.stats.requests, 0, 'no request before flush');
    assert.equal(t.tracing.pendingCount, 60);
    await t.tracing.flush();
    assert.equal(t.tracing.pendingCount, 0);
    const runs = await projectRuns(c, projectName);
    assert.equal(runs.length, 60);
    const byId = new Map(runs.map((r) => [r.id, r]));
    for (let i = 0; i < roots.length; i++) {
      const root = byId.get(roots[i]!.id)!;
      const child = byId.get(children[i]!.id)!;
      assert.equal(root.trace_id, roots[i]!.id);
      assert.equal(child.trace_id, roots[i]!.id);
      assert.equal(child.parent_run_id, roots[i]!.id);
      assert.equal(child.dotted_order, `${root.dotted_order}.${child.dotted_order!.split('.')[1]}`);
      assert.match(root.dotted_order!, /^\d{8}T\d{12}Z[0-9a-f-]{36}$/);
      assert.deepEqual(child.outputs, { text: 'ok' });
      assert.ok(root.end_time);
    }
  });

  it('a failed flush keeps every run for the next one: none lost under injected faults', async () => {
    const projectName = unique('faulty');
    const t = new LangSmithClient({
      apiUrl: srv().url,
      apiKey: srv().apiKey,
      maxRetries: 20,
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 10,
      tracing: { manualFlush: true, projectName, batchSizeLimit: 20 },
    });
    await t.serverInfo();
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = t.tracing.startRun({ name: `r${i}`, inputs: { i } }).post();
      r.end({ outputs: { i } }).patch();
      ids.push(r.id);
    }
    await setFaults(srv(), '503:1');
    try {
      await assert.rejects(t.tracing.flush(), { status: 503 });
    } finally {
      await setFaults(srv(), '');
    }
    assert.equal(t.tracing.pendingCount, 50);
    // A run queued after the failure travels with the kept ones.
    const late = t.tracing.startRun({ name: 'late' }).post();
    ids.push(late.id);
    await setFaults(srv(), '503:0.3,429:0.2');
    const flaky = new LangSmithClient({ apiUrl: srv().url, apiKey: srv().apiKey });
    try {
      // Retries ride out the random faults.
      await t.tracing.flush();
    } finally {
      await setFaults(srv(), '');
    }
    assert.equal(t.tracing.pendingCount, 0);
    const runs = await projectRuns(flaky, projectName);
    assert.deepEqual(runs.map((r) => r.id).sort(), [...ids].sort());
    assert.ok(runs.filter((r) => r.name !== 'late').every((r) => r.end_time && r.outputs));
  });

  it('automatic mode sends queued runs shortly after, without an explicit flush', async () => {
    const projectName = unique('auto');
    const t = new LangSmithClient({ apiUrl: srv().url, apiKey: srv().apiKey, tracing: { projectName, flushIntervalMs: 20 } });
    const r = t.tracing.startRun({ name: 'auto', inputs: { a: 1 } }).post();
    r.end({ outputs: { b: 2 } }).patch();
    // No flush() here: the run must reach the server on its own. Poll with a generous deadline (a loaded
    // machine may delay the timer), so only a run that never arrives fails the test.
    const deadline = Date.now() + 15_000;
    let outputs: unknown;
    while (Date.now() < deadline) {
      const found = await collect(c.runs.query({ projectName, runIds: [r.id] })).catch(() => []);
      outputs = found[0]?.outputs;
      if (outputs) break;
      await new Promise((res) => setTimeout(res, 25));
    }
    assert.deepEqual(outputs, { b: 2 }, 'the run was sent without an explicit flush');
    assert.equal(t.tracing.pendingCount, 0);
  });

  it('queries a project’s runs with filters and pages by cursor; reads one run', async () => {
    const projectName = unique('query');
    const t = new LangSmithClient({ apiUrl: srv().url, apiKey: srv().apiKey, tracing: { manualFlush: true, projectName } });
    for (let i = 0; i < 7; i++) {
      const root = t.tracing.startRun({ name: i % 2 ? 'odd' : 'even', runType: 'chain', inputs: { i } });
      root.createChild({ name: 'tool', runType: 'tool' }).end({ outputs: {} }).post();
      root.end(i === 3 ? { error: 'boom' } : { outputs: { i } }).post();
    }
    await t.tracing.flush();
    const project = await c.projects.read({ projectName });
    const before = c.http.stats.requests;
    const roots = await collect(c.runs.query({ projectId: project.id, isRoot: true, pageSize: 3 }));
    assert.equal(roots.length, 7);
    assert.ok(c.http.stats.requests - before >= 3, 'several pages');
    assert.equal((await collect(c.runs.query({ projectName, runType: 'tool' }))).length, 7);
    assert.equal((await collect(c.runs.query({ projectId: project.id, filter: 'eq(name, "odd")' }))).length, 3);
    assert.equal((await collect(c.runs.query({ projectId: project.id, error: true }))).length, 1);
    assert.equal((await collect(c.runs.query({ projectId: project.id, limit: 4, pageSize: 3 }))).length, 4);
    const tree = await collect(c.runs.query({ projectId: project.id, traceId: roots[0]!.id }));
    assert.equal(tree.length, 2);
    const one = await c.runs.read(roots[0]!.id);
    assert.equal(one.id, roots[0]!.id);
    assert.equal(one.session_id, project.id);
  });

  it('shares a run, reads its link and the public run, and unshares it', async () => {
    const projectName = unique('share');
    const t = new LangSmithClient({ apiUrl: srv().url, apiKey: srv().apiKey, tracing: { manualFlush: true, projectName } });
    const root = t.tracing.startRun({ name: 'shared', inputs: { q: 1 } });
    const child = root.createChild({ name: 'inner' }).end({ outputs: { x: 1 } }).post();
    root.end({ outputs: { a: 1 } }).post();
    await t.tracing.flush();
    assert.equal(await c.runs.readShareLink(root.id), undefined);
    assert.equal(await c.runs.isShared(root.id), false);
    const url = await c.runs.share(root.id);
    assert.match(url, new RegExp(`^${srv().url}/public/[0-9a-f-]{36}/r$`));
    assert.equal(await c.runs.readShareLink(root.id), url);
    const token = url.split('/').at(-2)!;
    const anonymous = clientFor(srv(), { apiKey: undefined });
    const shared = await anonymous.public.listRuns(token);
    assert.ok(shared.some((r) => r.id === root.id));
    const only = await anonymous.public.listRuns(token, { runIds: [child.id] });
    assert.deepEqual(only.map((r) => r.id), [child.id]);
    await c.runs.unshare(root.id);
    assert.equal(await c.runs.readShareLink(root.id), undefined);
  });
});
