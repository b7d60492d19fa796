import assert from 'node:assert/strict';
import { Client, RunTree } from 'langsmith';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect, dottedSegment } from './helpers';

function runPair(project: string, name: string, t0: Date) {
  const rootId = crypto.randomUUID();
  const childId = crypto.randomUUID();
  const rootDotted = dottedSegment(t0, rootId);
  const t1 = new Date(t0.getTime() + 5);
  return {
    rootId,
    childId,
    creates: [
      { id: rootId, name, run_type: 'chain', inputs: { question: name }, start_time: t0.getTime(), session_name: project, trace_id: rootId, dotted_order: rootDotted },
      {
        id: childId, name: `${name}-llm`, run_type: 'llm', inputs: { prompt: name }, start_time: t1.getTime(), session_name: project,
        trace_id: rootId, parent_run_id: rootId, dotted_order: `${rootDotted}.${dottedSegment(t1, childId)}`,
      },
    ],
    updates: [
      { id: childId, trace_id: rootId, dotted_order: `${rootDotted}.${dottedSegment(t1, childId)}`, parent_run_id: rootId, outputs: { text: 'hi' }, end_time: t1.getTime() + 10 },
      { id: rootId, trace_id: rootId, dotted_order: rootDotted, outputs: { answer: 42 }, end_time: t0.getTime() + 30 },
    ],
  };
}

describe('runs: ingestion, query, read, sharing, public reads', () => {
  const srv = withLocalServer();

  it('POST /runs + PATCH /runs/{id} (createRun/updateRun), then GET /runs/{id}', async () => {
    const c = client(srv());
    const id = crypto.randomUUID();
    await c.createRun({ id, name: 'single', run_type: 'chain', inputs: { x: 1 }, project_name: 'runs-single' });
    await c.updateRun(id, { outputs: { y: 2 }, end_time: Date.now(), error: undefined });
    const run = await c.readRun(id);
    assert.equal(run.name, 'single');
    assert.deepEqual(run.inputs, { x: 1 });
    assert.deepEqual(run.outputs, { y: 2 });
    assert.equal(run.status, 'success');
    assert.equal(run.trace_id, id);
    const project = await c.readProject({ projectName: 'runs-single' });
    assert.equal(run.session_id, project.id);
  });

  it('POST /runs/batch (batchIngestRuns) stores creates and merges updates', async () => {
    const c = client(srv());
    const { rootId, childId, creates, updates } = runPair('runs-batch', 'batch', new Date());
    await c.batchIngestRuns({ runCreates: creates as any, runUpdates: updates as any });
    const root = await c.readRun(rootId, { loadChildRuns: true });
    assert.deepEqual(root.outputs, { answer: 42 });
    assert.equal(root.child_runs?.length, 1);
    assert.equal(root.child_runs?.[0].id, childId);
    assert.deepEqual(root.child_runs?.[0].outputs, { text: 'hi' });
    assert.deepEqual((await c.readRun(childId)).parent_run_ids, [rootId]);
  });

  it('POST /runs/multipart (multipartIngestRuns) with separate parts, updates and an attachment', async () => {
    const c = client(srv());
    const { rootId, childId, creates, updates } = runPair('runs-multipart', 'mp', new Date());
    (creates[0] as any).attachments = { note: ['text/plain', new TextEncoder().encode('attached')] };
    await c.multipartIngestRuns({ runCreates: creates as any });
    const before = await c.readRun(rootId);
    assert.equal(before.status, 'pending');
    await c.multipartIngestRuns({ runUpdates: updates as any });
    const after = await c.readRun(rootId);
    assert.deepEqual(after.outputs, { answer: 42 });
    assert.equal((await c.readRun(childId)).status, 'success');
    const urls = (after as any).s3_urls;
    assert.equal(urls['attachment.note'].mime_type, 'text/plain');
    const res = await fetch(urls['attachment.note'].presigned_url);
    assert.equal(await res.text(), 'attached');
  });

  it('an update that arrives before its create is kept; a retried create does not undo an update', async () => {
    const c = client(srv());
    const { rootId, childId, creates, updates } = runPair('runs-order', 'order', new Date());
    await c.batchIngestRuns({ runUpdates: updates as any });
    await c.batchIngestRuns({ runCreates: creates as any });
    const child = await c.readRun(childId);
    assert.deepEqual(child.outputs, { text: 'hi' });
    assert.equal(child.parent_run_id, rootId);
    assert.equal(child.trace_id, rootId);
    assert.equal(child.name, 'order-llm');
    assert.equal(new Date(child.start_time as any).getTime(), (creates[1] as any).start_time);
    const project = await c.readProject({ projectName: 'runs-order' });
    assert.equal(child.session_id, project.id);
    await c.batchIngestRuns({ runCreates: creates as any }); // a retry of the creates
    assert.deepEqual((await c.readRun(rootId)).outputs, { answer: 42 });
  });

  it('traces from RunTree in manual-flush mode are sent only on flush()', async () => {
    const c = new Client({ apiUrl: srv().url, apiKey: srv().apiKey, manualFlushMode: true } as any);
    const tree = new RunTree({ name: 'flushed', run_type: 'chain', inputs: { a: 1 }, project_name: 'runs-flush', client: c });
    await tree.postRun();
    const child = tree.createChild({ name: 'child', run_type: 'tool', inputs: { b: 2 } });
    await child.postRun();
    await child.end({ ok: true });
    await child.patchRun();
    await tree.end({ done: true });
    await tree.patchRun();
    const pending = await rawRequest(srv(), 'GET', `/runs/${tree.id}`);
    assert.equal(pending.status, 404, 'nothing is sent before flush');
    await c.flush();
    const run = await client(srv()).readRun(tree.id, { loadChildRuns: true });
    assert.deepEqual(run.outputs, { done: true });
    assert.equal(run.child_runs?.[0].name, 'child');
  });

  it('POST /runs/query filters and pages with cursors (listRuns)', async () => {
    const c = client(srv());
    const project = await c.createProject({ projectName: 'runs-query' });
    const t0 = Date.now() - 1_000_000;
    const creates = Array.from({ length: 130 }, (_, i) => ({
      id: crypto.randomUUID(), name: i % 2 ? 'odd' : 'even', run_type: i % 3 ? 'chain' : 'llm', inputs: { i },
      start_time: t0 + i * 1000, end_time: t0 + i * 1000 + (i % 10) * 100, session_id: project.id,
      error: i % 13 === 0 ? 'boom' : undefined, tags: i % 5 === 0 ? ['five'] : [],
    }));
    await c.batchIngestRuns({ runCreates: creates as any });
    const all = await collect(c.listRuns({ projectId: project.id }));
    assert.equal(all.length, 130, 'more than one page (100) comes back through the cursor');
    assert.equal(new Set(all.map((r) => r.id)).size, 130);
    assert.deepEqual(all.slice(0, 3).map((r) => r.inputs.i), [129, 128, 127], 'newest first');
    const llm = await collect(c.listRuns({ projectId: project.id, runType: 'llm' }));
    assert.equal(llm.length, creates.filter((r) => r.run_type === 'llm').length);
    const errors = await collect(c.listRuns({ projectId: project.id, error: true }));
    assert.equal(errors.length, creates.filter((r) => r.error).length);
    const filtered = await collect(c.listRuns({ projectId: project.id, filter: 'and(eq(name, "odd"), has(tags, "five"))' }));
    assert.equal(filtered.length, creates.filter((r) => r.name === 'odd' && r.tags.includes('five')).length);
    const slow = await collect(c.listRuns({ projectId: project.id, filter: 'gte(latency, 0.8)' }));
    assert.equal(slow.length, creates.filter((r) => r.end_time - r.start_time >= 800).length);
    const limited = await collect(c.listRuns({ projectId: project.id, limit: 7 }));
    assert.equal(limited.length, 7);
    const bad = await rawRequest(srv(), 'POST', '/runs/query', { session: [project.id], filter: 'eq(name' });
    assert.equal(bad.status, 400);
  });

  it('v2 run query and read over the same runs (client.runs.query / retrieve)', async () => {
    const c = client(srv());
    const project = await c.readProject({ projectName: 'runs-query' });
    const page = await c.runs.query({ project_ids: [project.id], page_size: 50, is_root: true, selects: ['ID', 'PROJECT_ID'] });
    assert.equal(page.items.length, 50);
    assert.ok(page.hasNextPage());
    const next = await page.getNextPage();
    assert.equal(next.items.length, 50);
    assert.equal((await next.getNextPage()).items.length, 30);
    const one = await c.runs.retrieve(page.items[0].id!, { project_id: project.id, selects: ['PROJECT_ID', 'INPUTS'] });
    assert.deepEqual(one, { project_id: project.id, inputs: { i: 129 } });
  });

  it('v1 reads carry thread_id: listThreads and readThread (deprecated, on /runs/query) group and filter by it', async () => {
    const c = client(srv());
    const project = await c.createProject({ projectName: 'runs-threads' });
    const t0 = Date.now() - 60_000;
    // LangSmith groups by any of three metadata keys.
    const keys = ['thread_id', 'session_id', 'conversation_id', 'thread_id'];
    const creates = keys.map((key, i) => ({
      id: crypto.randomUUID(), name: `turn-${i}`, run_type: 'chain', inputs: { i }, start_time: t0 + i * 1000, session_id: project.id,
      extra: { metadata: { [key]: i < 3 ? 'conv-1' : 'conv-2' } },
    }));
    await c.batchIngestRuns({ runCreates: creates as any });
    const threads = await c.listThreads({ projectId: project.id });
    assert.deepEqual(threads.map((t) => [t.thread_id, t.count]), [['conv-2', 1], ['conv-1', 3]]);
    const turns = await collect(c.readThread({ threadId: 'conv-1', projectId: project.id }));
    assert.deepEqual(turns.map((r) => r.name), ['turn-0', 'turn-1', 'turn-2']);
    assert.equal(((await c.readRun(creates[1].id)) as { thread_id?: string }).thread_id, 'conv-1');
  });

  it('POST /runs/query takes the fields of LangSmith\'s query and no others', async () => {
    const c = client(srv());
    const project = await c.readProject({ projectName: 'runs-query' });
    const unknown = await rawRequest(srv(), 'POST', '/runs/query', { session: [project.id], sesion: [project.id] });
    assert.equal(unknown.status, 422);
    assert.match(unknown.body.detail, /body: unknown field "sesion"/);
    const order = await rawRequest(srv(), 'POST', '/runs/query', { session: [project.id], order: 'newest' });
    assert.equal(order.status, 422);
    assert.match(order.body.detail, /body\.order/);
    // Fields LangSmith's schema has but this server has no use for are accepted.
    const known = await rawRequest(srv(), 'POST', '/runs/query', { session: [project.id], limit: 2, execution_order: 1, data_source_type: 'current', skip_prev_cursor: true });
    assert.equal(known.status, 200);
    assert.equal(known.body.runs.length, 2);
    const batch = await rawRequest(srv(), 'POST', '/runs/batch', { post: [], patch: [], extra: 1 });
    assert.equal(batch.status, 422);
    const empty = await rawRequest(srv(), 'POST', '/runs', undefined, { rawBody: 'null', headers: { 'content-type': 'application/json' } });
    assert.equal(empty.status, 422, 'a create without a body is refused, not made into an empty run');
  });

  it('share a run: token, public reads of its trace, web page; unshare makes them 404', async () => {
    const c = client(srv());
    const { rootId, childId, creates, updates } = runPair('runs-share', 'shared', new Date());
    await c.batchIngestRuns({ runCreates: creates as any, runUpdates: updates as any });
    assert.equal(await c.readRunSharedLink(rootId), undefined);
    const url = await c.shareRun(rootId);
    const token = url.split('/public/')[1].split('/')[0];
    assert.equal(await c.readRunSharedLink(rootId), url);
    assert.equal(await c.shareRun(rootId), url, 'sharing again keeps the token');
    const shared = await c.listSharedRuns(token);
    assert.deepEqual(shared.map((r) => r.id).sort(), [rootId, childId].sort());
    const onlyChild = await c.listSharedRuns(token, { runIds: [childId] });
    assert.deepEqual(onlyChild.map((r) => r.id), [childId]);
    const pub = await rawRequest(srv(), 'GET', `/public/${token}/run`, undefined, { apiKey: null });
    assert.equal(pub.status, 200);
    assert.equal(pub.body.id, rootId);
    const q = await rawRequest(srv(), 'POST', `/api/v1/public/${token}/runs/query`, {}, { apiKey: null });
    assert.equal(q.body.runs.length, 2);
    await c.createFeedback(childId, 'public-fb', { score: 1, sessionId: (await c.readRun(childId)).session_id } as any);
    const fb = await rawRequest(srv(), 'GET', `/public/${token}/feedbacks`, undefined, { apiKey: null });
    assert.deepEqual(fb.body.map((f: any) => [f.key, f.run_id]), [['public-fb', childId]]);
    const page = await fetch(`${srv().url}/public/${token}/r`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /shared/);
    await c.unshareRun(rootId);
    assert.equal((await rawRequest(srv(), 'GET', `/public/${token}/run`, undefined, { apiKey: null })).status, 404);
    assert.equal((await fetch(`${srv().url}/public/${token}/r`)).status, 404);
    assert.equal(await c.readRunSharedLink(rootId), undefined);
  });

  it("another tenant cannot read or share a tenant's runs", async () => {
    const c = client(srv());
    const id = crypto.randomUUID();
    await c.createRun({ id, name: 'private', run_type: 'chain', inputs: {}, project_name: 'runs-private' });
    const other = client(srv(), { apiKey: srv().otherApiKey });
    await assert.rejects(other.readRun(id), /404/);
    await assert.rejects(other.shareRun(id), /404/);
  });
});
