// What a review of the store layer found, each held by a request that showed it: a filter that could test another
// workspace's runs, a public read that gave more than a share shows, and input that made SQLite fail (a 500)
// instead of a clear 4xx.
import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';

const uuid = () => crypto.randomUUID();
const b64 = (s: string) => Buffer.from(s).toString('base64url');

describe('hardening: tenant scope of filters, public selects, bounded input', function () {
  this.timeout(60_000);
  const srv = withLocalServer();
  const asOther = (method: string, path: string, body?: unknown) => rawRequest(srv(), method, path, body, { apiKey: srv().otherApiKey });

  it("trace_filter and tree_filter never test another workspace's runs, even under a trace id it names", async () => {
    const root = uuid();
    const now = new Date().toISOString();
    assert.equal((await rawRequest(srv(), 'POST', '/runs', { id: root, name: 'secret-root', run_type: 'chain', inputs: { q: 'password=hunter2' }, start_time: now, session_name: 'a-private' })).status, 202);
    // The other workspace hangs a run of its own under that trace id (nothing stops it naming an id).
    const mine = uuid();
    assert.equal((await asOther('POST', '/runs', { id: mine, name: 'mine', run_type: 'chain', inputs: {}, start_time: now, trace_id: root, parent_run_id: root, session_name: 'b-project' })).status, 202);
    const found = async (body: Record<string, unknown>) => {
      const res = await asOther('POST', '/runs/query', body);
      assert.equal(res.status, 200, res.text);
      return (res.body.runs as Array<{ id: string }>).map((r) => r.id);
    };
    // Whatever the filter says about A's root, B learns nothing: the answer is the same as for a filter that fails.
    for (const filter of ['search("hunter2")', 'eq(name, "secret-root")', 'search("nothere")']) {
      assert.deepEqual(await found({ tree_filter: filter }), [], `tree_filter ${filter}`);
      assert.deepEqual(await found({ trace_filter: filter }), [], `trace_filter ${filter}`);
    }
    // B's own runs are still found by a filter on them.
    assert.deepEqual(await found({ tree_filter: 'eq(name, "mine")' }), [mine]);
  });

  it('a public v2 run read takes only the public fields, as the public query does', async () => {
    const root = uuid();
    await rawRequest(srv(), 'POST', '/runs', { id: root, name: 'shared', run_type: 'chain', inputs: { q: 'x' }, start_time: new Date().toISOString(), session_name: 'pub' });
    const token = (await rawRequest(srv(), 'PUT', `/runs/${root}/share`, { run_id: root, share_token: uuid() })).body.share_token as string;
    const read = (selects: string) => rawRequest(srv(), 'GET', `/api/v2/public/${token}/run/${root}?selects=${selects}`, undefined, { apiKey: null });
    assert.equal((await read('NAME')).status, 200);
    assert.equal((await read('NAME')).body.name, 'shared');
    for (const s of ['INPUTS', 'OUTPUTS', 'LAST_QUEUED_AT', 'APP_PATH', 'SHARE_URL']) assert.equal((await read(s)).status, 422, s);
  });

  it('filter names that are properties of every JavaScript object are unknown fields (400), not a 500', async () => {
    for (const filter of ['eq(constructor, "x")', 'exists(constructor)', 'search(__proto__, "x")', 'eq(constructor.x, 1)', 'and(constructor(feedback_key, "a"))', 'toString(name, "x")']) {
      const res = await rawRequest(srv(), 'POST', '/runs/query', { filter });
      assert.equal(res.status, 400, `${filter} → ${res.status} ${res.text}`);
      assert.match(res.body.detail, /^Invalid filter/);
    }
  });

  it('a thread id written as a number is found by eq(thread_id, …) like the thread routes find it', async () => {
    const id = uuid();
    await rawRequest(srv(), 'POST', '/runs', { id, name: 'numbered', run_type: 'chain', inputs: {}, start_time: new Date().toISOString(), session_name: 'threads-n', extra: { metadata: { thread_id: 4242 } } });
    const res = await rawRequest(srv(), 'POST', '/runs/query', { filter: 'eq(thread_id, "4242")' });
    assert.deepEqual((res.body.runs as Array<{ id: string }>).map((r) => r.id), [id]);
  });

  it('a child that came before its parent, without a dotted order, still names its parent on v2', async () => {
    const parent = uuid();
    const child = uuid();
    const start = new Date().toISOString();
    await rawRequest(srv(), 'POST', '/runs', { id: child, name: 'early-child', run_type: 'llm', inputs: {}, start_time: start, parent_run_id: parent, session_name: 'orphans' });
    const project = (await rawRequest(srv(), 'GET', '/sessions?name=orphans')).body[0].id as string;
    const res = await rawRequest(srv(), 'POST', '/api/v2/runs/query', { project_ids: [project], selects: ['ID', 'PARENT_RUN_IDS'] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.items.find((r: { id: string }) => r.id === child)?.parent_run_ids, [parent]);
  });

  it('a threads query reads filter and trace_filter as two conditions, as a runs query does', async () => {
    const root = uuid();
    await rawRequest(srv(), 'POST', '/runs', { id: root, name: 'turn', run_type: 'chain', inputs: {}, start_time: new Date().toISOString(), session_name: 'threads-f', extra: { metadata: { thread_id: 't-1' } } });
    for (const [key, score] of [['a', 0], ['b', 1]] as const) await rawRequest(srv(), 'POST', '/feedback', { run_id: root, key, score });
    const project = (await rawRequest(srv(), 'GET', '/sessions?name=threads-f')).body[0].id as string;
    const both = { filter: 'eq(feedback_key, "a")', trace_filter: 'gt(feedback_score, 0.5)' };
    const runs = await rawRequest(srv(), 'POST', '/api/v2/runs/query', { project_ids: [project], ...both });
    assert.deepEqual(runs.body.items.map((r: { id: string }) => r.id), [root], 'a feedback "a" and, separately, a score above 0.5');
    const threads = await rawRequest(srv(), 'POST', '/api/v2/threads/query', { project_id: project, ...both });
    assert.equal(threads.status, 200, threads.text);
    assert.deepEqual(threads.body.items.map((t: { thread_id: string }) => t.thread_id), ['t-1']);
  });

  it('v2 LAST_QUEUED_AT says when a run was last added to one of its workspace\'s queues', async () => {
    const run = uuid();
    await rawRequest(srv(), 'POST', '/runs', { id: run, name: 'queued', run_type: 'chain', inputs: {}, start_time: new Date().toISOString(), session_name: 'queued-p' });
    const project = (await rawRequest(srv(), 'GET', '/sessions?name=queued-p')).body[0].id as string;
    const read = async () => (await rawRequest(srv(), 'POST', '/api/v2/runs/query', { project_ids: [project], selects: ['ID', 'LAST_QUEUED_AT'] })).body.items[0];
    assert.equal((await read()).last_queued_at, undefined, 'never queued: left out');
    const queue = (await rawRequest(srv(), 'POST', '/annotation-queues', { name: 'queued-q' })).body.id as string;
    const [item] = (await rawRequest(srv(), 'POST', `/annotation-queues/${queue}/runs`, [run])).body as Array<{ added_at: string }>;
    assert.equal(new Date((await read()).last_queued_at).getTime(), new Date(item!.added_at).getTime());
  });

  it('bounds: huge cursors, indexes, id lists, metadata keys and token lifetimes are a 4xx or simply work', async () => {
    const huge = '99999999999999999999999';
    assert.equal((await rawRequest(srv(), 'POST', '/runs/query', { cursor: b64(`o:${huge}`) })).status, 422);
    assert.equal((await rawRequest(srv(), 'POST', '/api/v2/runs/query', { cursor: b64(`o:${huge}`) })).status, 422);
    const queue = (await rawRequest(srv(), 'POST', '/annotation-queues', { name: 'bounds-q' })).body.id as string;
    assert.equal((await rawRequest(srv(), 'GET', `/annotation-queues/${queue}/run/${huge}`)).status, 422);
    // Tens of thousands of ids in one body: one bound list, not a SQL variable each.
    const ids = Array.from({ length: 40_000 }, uuid);
    for (const [path, body] of [['/runs/query', { id: ids }], ['/api/v2/runs/query', { ids }]] as const) {
      const res = await rawRequest(srv(), 'POST', path, body);
      assert.equal(res.status, 200, `${path} → ${res.status} ${res.text.slice(0, 200)}`);
    }
    const del = await rawRequest(srv(), 'POST', `/v1/platform/annotation-queues/${queue}/items/delete`, { item_ids: ids });
    assert.ok(del.status < 300, `items/delete → ${del.status} ${del.text.slice(0, 200)}`);
    const ds = (await rawRequest(srv(), 'POST', '/datasets', { name: 'bounds-ds' })).body.id as string;
    const metadata = JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])));
    const many = await rawRequest(srv(), 'GET', `/examples?dataset=${ds}&metadata=${encodeURIComponent(metadata)}`);
    assert.equal(many.status, 422, many.text.slice(0, 200));
    assert.match(many.body.detail, /at most 100 keys/);
    const run = uuid();
    await rawRequest(srv(), 'POST', '/runs', { id: run, name: 'r', run_type: 'chain', inputs: {}, start_time: new Date().toISOString(), session_name: 'bounds' });
    const forever = await rawRequest(srv(), 'POST', '/feedback/tokens', { run_id: run, feedback_key: 'k', expires_in: { days: 1e12 } });
    assert.equal(forever.status, 422, forever.text);
    assert.match(forever.body.detail, /too far in the future/);
  });
});
