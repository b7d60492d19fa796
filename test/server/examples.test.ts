import assert from 'node:assert/strict';
import { nearestEnd } from '../../server/store/examplePages';
import type { RevRow } from '../../server/store/revisions';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect } from './helpers';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('examples: multipart create/update with attachments, reads, filters, deletes', () => {
  const srv = withLocalServer();

  it('createExamples (multipart POST) stores inputs, outputs, metadata, split and attachments', async () => {
    const c = client(srv());
    const d = await c.createDataset('ex-create');
    const id = crypto.randomUUID();
    const [ex] = await c.createExamples([
      {
        id, dataset_id: d.id, inputs: { q: 'hi' }, outputs: { a: 'hello' }, metadata: { lang: 'en' }, split: 'train',
        attachments: { image: ['image/png', bytes('\x89PNG-fake')], notes: { mimeType: 'text/plain', data: bytes('some notes') } },
      },
    ]);
    assert.equal(ex.id, id);
    assert.deepEqual(ex.inputs, { q: 'hi' });
    assert.deepEqual(ex.outputs, { a: 'hello' });
    assert.equal(ex.metadata?.lang, 'en');
    assert.deepEqual(ex.metadata?.dataset_split, ['train']);
    assert.deepEqual(Object.keys(ex.attachments ?? {}).sort(), ['image', 'notes']);
    assert.equal(ex.attachments!.notes.mime_type, 'text/plain');
    // The URL is served by this server and returns the bytes.
    const res = await fetch(ex.attachments!.notes.presigned_url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain');
    assert.equal(await res.text(), 'some notes');
    const img = Buffer.from(await (await fetch(ex.attachments!.image.presigned_url)).arrayBuffer());
    assert.deepEqual(img, Buffer.from(bytes('\x89PNG-fake')));
    await assert.rejects(c.createExamples([{ id, dataset_id: d.id, inputs: { q: 'dup' } }]), /409/);
  });

  it('createExample (single) and readExample; the multipart answer has count, ids and as_of', async () => {
    const c = client(srv());
    const d = await c.createDataset('ex-single');
    const ex = await c.createExample({ q: 'one' }, { a: 'uno' }, { datasetId: d.id, metadata: { n: 1 } });
    assert.equal((await c.readExample(ex.id)).inputs.q, 'one');
    const r = await c.uploadExamplesMultipart(d.id, [{ inputs: { q: 'two' } }, { inputs: { q: 'three' } }]);
    assert.equal(r.count, 2);
    assert.equal(r.example_ids.length, 2);
    assert.ok(!Number.isNaN(Date.parse((r as any).as_of)));
  });

  it('updateExample / updateExamples (multipart PATCH): fields, new attachments, rename and retain', async () => {
    const c = client(srv());
    const d = await c.createDataset('ex-update');
    const [ex] = await c.createExamples([
      { dataset_id: d.id, inputs: { q: 'v1' }, attachments: { a: ['text/plain', bytes('A')], b: ['text/plain', bytes('B')], gone: ['text/plain', bytes('X')] } },
    ]);
    await c.updateExample({
      id: ex.id, dataset_id: d.id, inputs: { q: 'v2' }, outputs: { r: 'out' }, metadata: { edited: true },
      attachments: { c: ['text/plain', bytes('C')] },
      attachments_operations: { rename: { a: 'a-renamed' }, retain: ['b'] },
    });
    const after = await c.readExample(ex.id);
    assert.deepEqual(after.inputs, { q: 'v2' });
    assert.deepEqual(after.outputs, { r: 'out' });
    assert.equal(after.metadata?.edited, true);
    assert.deepEqual(Object.keys(after.attachments ?? {}).sort(), ['a-renamed', 'b', 'c']);
    assert.equal(await (await fetch(after.attachments!['a-renamed'].presigned_url)).text(), 'A');
    await c.updateExamples([{ id: ex.id, dataset_id: d.id, split: 'holdout' }]);
    assert.deepEqual((await c.readExample(ex.id)).metadata?.dataset_split, ['holdout']);
    // Unknown example in the PATCH → 404 and nothing changed.
    await assert.rejects(c.updateExamples([{ id: ex.id, dataset_id: d.id, inputs: { q: 'v3' } }, { id: crypto.randomUUID(), dataset_id: d.id, inputs: {} }]), /404/);
    assert.deepEqual((await c.readExample(ex.id)).inputs, { q: 'v2' });
  });

  it('GET /examples: by ids, metadata, filter, limit/offset, as_of; select', async () => {
    const c = client(srv());
    const d = await c.createDataset('ex-list');
    const exs = await c.createExamples(
      Array.from({ length: 12 }, (_, i) => ({ dataset_id: d.id, inputs: { i }, metadata: { parity: i % 2 ? 'odd' : 'even', i } })),
    );
    const all = await collect(c.listExamples({ datasetId: d.id }));
    assert.equal(all.length, 12);
    const byIds = await collect(c.listExamples({ datasetId: d.id, exampleIds: [exs[3].id, exs[5].id] }));
    assert.deepEqual(byIds.map((e) => e.id).sort(), [exs[3].id, exs[5].id].sort());
    const odd = await collect(c.listExamples({ datasetId: d.id, metadata: { parity: 'odd' } }));
    assert.equal(odd.length, 6);
    const filtered = await collect(c.listExamples({ datasetId: d.id, filter: 'and(has(metadata, \'{"parity": "even"}\'), gt(metadata.i, 5))' } as any));
    assert.deepEqual(filtered.map((e) => e.inputs.i).sort((a, b) => a - b), [6, 8, 10]);
    const page = await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&limit=5&offset=10`);
    assert.equal(page.body.length, 2);
    const sel = await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&limit=1&select=metadata`);
    assert.ok('metadata' in sel.body[0] && !('outputs' in sel.body[0]));
    const badFilter = await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&filter=${encodeURIComponent('nope(')}`);
    assert.equal(badFilter.status, 400);
  });

  it('GET /examples pages: consecutive and out-of-order pages give the same rows as fresh offset reads, also across a change', async () => {
    const c = client(srv());
    const d = await c.createDataset('ex-paging');
    // Equal created_at for many examples: the order falls back to the example id.
    const createdAt = new Date('2026-01-01T00:00:00Z').toISOString();
    await c.createExamples(Array.from({ length: 250 }, (_, i) => ({ dataset_id: d.id, inputs: { i }, created_at: i < 120 ? createdAt : undefined })) as any);
    const page = async (offset: number, limit = 50, extra = '') =>
      ((await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&limit=${limit}&offset=${offset}${extra}`)).body as { id: string }[]).map((e) => e.id);
    // The reference: every page asked for on its own (no page ended where it starts before).
    const fresh: string[][] = [];
    for (let off = 200; off >= 0; off -= 50) fresh.unshift(await page(off));
    const sequential: string[][] = [];
    for (let off = 0; off < 250; off += 50) sequential.push(await page(off));
    assert.deepEqual(sequential, fresh);
    assert.equal(new Set(sequential.flat()).size, 250);
    // A change between pages: the next page reflects the new state, exactly as an offset read would.
    const [first] = await c.createExamples([{ dataset_id: d.id, inputs: { i: -1 }, created_at: '2020-01-01T00:00:00Z' } as any]);
    const after = await page(50);
    assert.equal(after[0], sequential[0]![49], 'the new first example shifts every later page by one');
    assert.notEqual(first!.id, after[0]);
    // Pages asked for before the page in front of them was answered (a client with several pages in flight)
    // start from the nearest earlier page end and step over the rest.
    const ahead170 = await page(170, 30);
    const ahead120 = await page(120, 20);
    const ahead230 = await page(230, 50);
    // Filters take part: a filtered listing is not mixed up with the plain one.
    const odd = ((await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&limit=20&offset=20&filter=${encodeURIComponent('eq(metadata.x, 1)')}`)).body as unknown[]);
    assert.deepEqual(odd, []);
    const full = (await collect(c.listExamples({ datasetId: d.id }))).map((e) => e.id);
    assert.equal(full.length, 251);
    assert.deepEqual(full.slice(1, 251), sequential.flat());
    assert.deepEqual(ahead170, full.slice(170, 200));
    assert.deepEqual(ahead120, full.slice(120, 140));
    assert.deepEqual(ahead230, full.slice(230));
  });

  it('GET /examples pages after a hard delete: no page continues from an end recorded before it', async () => {
    const c = client(srv());
    const d = await c.createDataset('ex-paging-hard-delete');
    const made = await c.createExamples(Array.from({ length: 30 }, (_, i) => ({ dataset_id: d.id, inputs: { i }, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() })) as any);
    const page = async (offset: number) =>
      ((await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&limit=10&offset=${offset}`)).body as { inputs: { i: number } }[]).map((e) => e.inputs.i);
    assert.deepEqual(await page(0), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(await page(10), [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const gone = made.find((e) => (e.inputs as { i: number }).i === 3)!;
    const del = await rawRequest(srv(), 'POST', '/v1/platform/datasets/examples/delete', { example_ids: [gone.id], hard_delete: true });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.deepEqual(await page(10), [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    assert.deepEqual(await page(20), [21, 22, 23, 24, 25, 26, 27, 28, 29]);
  });

  it('GET /examples writes each page exactly as JSON.stringify of the examples’ full shape', async () => {
    const c = client(srv());
    const d = await c.createDataset('ex-page-bytes');
    const run = crypto.randomUUID();
    await c.createExamples([
      { dataset_id: d.id, inputs: { q: 'say "hi"\n ✓ \u2028' }, outputs: { a: [1, 2, { b: null }] }, metadata: { lang: 'en' }, split: ['base', 'x'] },
      { dataset_id: d.id, inputs: {}, metadata: {} },
      { dataset_id: d.id, inputs: { n: 1.5e300 }, outputs: { ok: true }, source_run_id: run },
      { dataset_id: d.id, inputs: { f: 'with file' }, attachments: { 'my file.png': ['image/png', bytes('\x89PNG')], 'ü/?&=': ['text/plain', bytes('x')] } },
    ] as any);
    const stored = srv()
      .server.db.prepare('SELECT * FROM example_revisions WHERE dataset_id = ? AND valid_to IS NULL ORDER BY created_at, example_id')
      .all(d.id) as RevRow[];
    assert.equal(stored.length, 4);
    const page = async (offset: number, limit: number, extra = '') => {
      const res = await fetch(`${srv().url}/examples?dataset=${d.id}&offset=${offset}&limit=${limit}${extra}`, { headers: { 'x-api-key': srv().apiKey } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      return res.text();
    };
    // The shape a LangSmith client expects, built here independently of the server's composition.
    const shape = (r: RevRow, withUrls: boolean) => ({
      id: r.example_id, dataset_id: r.dataset_id, name: `#${r.example_id.slice(0, 4)}`, inputs: JSON.parse(r.inputs),
      outputs: r.outputs === null ? null : JSON.parse(r.outputs), metadata: r.metadata === null ? null : JSON.parse(r.metadata),
      source_run_id: r.source_run_id, created_at: r.created_at, modified_at: r.valid_from,
      ...(withUrls ? { attachment_urls: Object.fromEntries(Object.entries(JSON.parse(r.attachments ?? '{}') as Record<string, { hash: string; mime_type: string }>).map(([n, a]) => [
        `attachment.${n}`, { presigned_url: `${srv().url}/attachments/${a.hash}?type=${encodeURIComponent(a.mime_type)}&name=${encodeURIComponent(n)}`, mime_type: a.mime_type },
      ])) } : {}),
    });
    const expected = (rows: RevRow[], withUrls = false) => JSON.stringify(rows.map((r) => shape(r, withUrls)));
    // Without select, LangSmith's default: every field but attachment_urls.
    assert.equal(await page(0, 100), expected(stored));
    // Page by page: the later pages start from the recorded ends.
    assert.equal(await page(0, 2), expected(stored.slice(0, 2)));
    assert.equal(await page(2, 2), expected(stored.slice(2, 4)));
    assert.equal(await page(4, 2), '[]');
    assert.equal(await page(1, 2), expected(stored.slice(1, 3)));
    // The OpenAPI's default select (everything but attachment_urls) when asked for explicitly.
    const dflt = ['id', 'created_at', 'modified_at', 'name', 'dataset_id', 'source_run_id', 'metadata', 'inputs', 'outputs'];
    assert.equal(await page(0, 100, dflt.map((f) => `&select=${f}`).join('')), expected(stored));
    // Every field when select asks for them all.
    const all = ['id', 'created_at', 'modified_at', 'name', 'dataset_id', 'source_run_id', 'metadata', 'inputs', 'outputs', 'attachment_urls'];
    assert.equal(await page(0, 100, all.map((f) => `&select=${f}`).join('')), expected(stored, true));
    // A single read answers every field too, as the official client's readExample expects.
    assert.equal(JSON.stringify((await rawRequest(srv(), 'GET', `/examples/${stored[3]!.example_id}`)).body), JSON.stringify(shape(stored[3]!, true)));
  });

  it('a page starts from the recorded end at its offset, else from the nearest earlier one', () => {
    const end = (n: number) => ({ createdAt: `t${n}`, exampleId: `e${n}` });
    const ends = new Map([[300, end(300)], [100, end(100)], [200, end(200)]]);
    assert.deepEqual(nearestEnd(ends, 200), { offset: 200, end: end(200) });
    assert.deepEqual(nearestEnd(ends, 250), { offset: 200, end: end(200) });
    assert.deepEqual(nearestEnd(ends, 1000), { offset: 300, end: end(300) });
    assert.equal(nearestEnd(ends, 99), undefined);
  });

  it('DELETE /examples/{id} and DELETE /examples?example_ids=…; old versions still read them', async () => {
    const c = client(srv());
    const d = await c.createDataset('ex-delete');
    const exs = await c.createExamples([0, 1, 2].map((i) => ({ dataset_id: d.id, inputs: { i } })));
    const v = (await c.readDatasetVersion({ datasetId: d.id, asOf: new Date(Date.now() + 1000) })).as_of;
    await c.deleteExample(exs[0].id);
    await c.deleteExamples([exs[1].id]);
    assert.deepEqual((await collect(c.listExamples({ datasetId: d.id }))).map((e) => e.inputs.i), [2]);
    assert.equal((await collect(c.listExamples({ datasetId: d.id, asOf: v }))).length, 3);
    await assert.rejects(c.readExample(exs[0].id), /404/);
    assert.equal((await rawRequest(srv(), 'GET', `/examples/${exs[0].id}?as_of=${encodeURIComponent(v)}`)).status, 200);
    await c.deleteExamples([exs[2].id], { hardDelete: true });
    assert.equal((await rawRequest(srv(), 'GET', `/examples/${exs[2].id}?as_of=${encodeURIComponent(v)}`)).status, 404);
  });

  it('examples from a run: use_source_run_io copies inputs and outputs, use_source_run_attachments the named files', async () => {
    const c = client(srv());
    const runId = crypto.randomUUID();
    const start = new Date();
    const dotted = `${start.toISOString().replace(/[-:]/g, '').replace('.', '').slice(0, -1)}000Z${runId}`;
    await c.multipartIngestRuns({
      runCreates: [{
        id: runId, trace_id: runId, dotted_order: dotted, name: 'src', run_type: 'chain', inputs: { from: 'run' }, outputs: { out: 'put' },
        start_time: start.getTime(), end_time: start.getTime() + 5, project_name: 'ex-src',
        attachments: { keep: ['text/plain', bytes('kept')], skip: ['text/plain', bytes('skipped')] },
      } as any],
    });
    const d = await c.createDataset('ex-from-run');
    const [ex] = await c.createExamples([{ dataset_id: d.id, inputs: {}, source_run_id: runId, use_source_run_io: true, use_source_run_attachments: ['keep'] }]);
    assert.deepEqual(ex.inputs, { from: 'run' });
    assert.deepEqual(ex.outputs, { out: 'put' });
    assert.equal(ex.source_run_id, runId);
    assert.deepEqual(Object.keys(ex.attachments ?? {}), ['keep']);
    assert.equal(await (await fetch(ex.attachments!.keep.presigned_url)).text(), 'kept');
  });
});
