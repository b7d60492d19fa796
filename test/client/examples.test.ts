import assert from 'node:assert/strict';
import { LangSmithError, collect, type LangSmithClient } from '../../src/client';
import { withLocalServer } from '../harness/localServer';
import { clientFor, unique } from './_server';

describe('client ↔ local server: examples', () => {
  const srv = withLocalServer();
  const noMultipart = withLocalServer({ multipartExamples: false });
  let c: LangSmithClient;
  before(() => {
    c = clientFor(srv());
  });

  it('creates 250 examples in one request and pages through them 100 at a time', async () => {
    const ds = await c.datasets.create({ name: unique('bulk') });
    const before = c.http.stats.requests;
    const made = await c.examples.create({
      datasetId: ds.id,
      examples: Array.from({ length: 250 }, (_, i) => ({ inputs: { i }, outputs: { double: i * 2 }, metadata: { even: i % 2 === 0 } })),
    });
    assert.equal(made.count, 250);
    assert.equal(made.example_ids.length, 250);
    assert.ok(c.http.stats.requests - before <= 2, `create took ${c.http.stats.requests - before} requests`);
    const pagesBefore = c.http.stats.requests;
    const all = await collect(c.examples.list({ datasetId: ds.id, prefetch: 0 }));
    assert.equal(all.length, 250);
    assert.equal(new Set(all.map((e) => e.id)).size, 250);
    assert.equal(c.http.stats.requests - pagesBefore, 3);
    const some = await collect(c.examples.list({ datasetName: ds.name, limit: 120 }));
    assert.equal(some.length, 120);
    const offset = await collect(c.examples.list({ datasetId: ds.id, offset: 240 }));
    assert.equal(offset.length, 10);
    const even = await collect(c.examples.list({ datasetId: ds.id, metadata: { even: true } }));
    assert.equal(even.length, 125);
    const byId = await collect(c.examples.list({ datasetId: ds.id, ids: made.example_ids.slice(0, 3) }));
    assert.deepEqual(byId.map((e) => e.id).sort(), made.example_ids.slice(0, 3).sort());
  });

  it('lists lazily: nothing is requested before iteration; a dataset name is resolved once', async () => {
    const ds = await c.datasets.create({ name: unique('lazy') });
    await c.examples.create({ datasetId: ds.id, examples: Array.from({ length: 150 }, (_, i) => ({ inputs: { i } })) });
    const paths: string[] = [];
    const counted = clientFor(srv(), {
      fetch: ((url: string, init?: RequestInit) => (paths.push(new URL(url).pathname), fetch(url, init))) as typeof fetch,
    });
    const it = counted.examples.list({ datasetName: ds.name, pageSize: 50, prefetch: 2 });
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(paths, [], 'no request before iteration');
    const rows = await collect(it);
    assert.equal(rows.length, 150);
    assert.deepEqual(paths.filter((p) => p === '/datasets'), ['/datasets'], 'the name is resolved once');
    // Pages 0, 50, 100 and the short one at 150, plus at most `prefetch` pages asked for ahead.
    const pages = paths.filter((p) => p === '/examples').length;
    assert.ok(pages >= 4 && pages <= 6, `${pages} page requests`);
    await assert.rejects(collect(c.examples.list({ datasetName: unique('missing') })), { message: /^Dataset\[id=undefined, name=missing-/ });
  });

  it('creates one example with attachments; the attachment names lose their prefix and the links serve the bytes', async () => {
    const ds = await c.datasets.create({ name: unique('att') });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const ex = await c.examples.createOne({
      datasetId: ds.id,
      inputs: { q: 'look' },
      outputs: { a: 'ok' },
      metadata: { src: 'test' },
      split: 'train',
      attachments: { 'image.png': { mimeType: 'image/png', data: png }, note: ['text/plain', 'hello'] },
    });
    assert.deepEqual(Object.keys(ex.attachments).sort(), ['image.png', 'note']);
    assert.equal(ex.attachments['image.png']!.mime_type, 'image/png');
    const bytes = new Uint8Array(await (await fetch(ex.attachments['image.png']!.presigned_url)).arrayBuffer());
    assert.deepEqual([...bytes], [...png]);
    assert.equal(await (await fetch(ex.attachments['note']!.presigned_url)).text(), 'hello');
    // A listing has them too: LangSmith leaves attachment_urls out unless selected, and the client selects them.
    const [listed] = await collect(c.examples.list({ datasetId: ds.id }));
    assert.deepEqual(Object.keys(listed!.attachments).sort(), ['image.png', 'note']);
    assert.equal(listed!.modified_at !== undefined && listed!.source_run_id === null, true, 'the other fields are there as well');
  });

  it('downloads an attachment through its own transport, without the API key; a dead link is a LangSmithError', async () => {
    const ds = await c.datasets.create({ name: unique('att-dl') });
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0, 1, 0xc3]);
    const ex = await c.examples.createOne({ datasetId: ds.id, inputs: { q: 'file' }, attachments: { 'blob.bin': { mimeType: 'application/octet-stream', data: bytes } } });
    const attachment = ex.attachments['blob.bin']!;
    // The client's own transport (undici), byte for byte (not read as text).
    assert.deepEqual([...(await c.examples.downloadAttachment(attachment))], [...bytes]);
    // Through a caller's fetch (an editor's proxy-aware one): the link goes there, with no key or workspace.
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const routed = clientFor(srv(), {
      workspaceId: '00000000-0000-4000-8000-000000000000',
      fetch: ((input: string | URL | Request, init?: RequestInit) => {
        seen.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
        return fetch(input, init);
      }) as typeof fetch,
    });
    assert.deepEqual([...(await routed.examples.downloadAttachment(attachment))], [...bytes]);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.url, attachment.presigned_url);
    assert.ok(!('x-api-key' in seen[0]!.headers) && !('x-tenant-id' in seen[0]!.headers), `headers sent: ${Object.keys(seen[0]!.headers).join(', ')}`);
    const dead = attachment.presigned_url.replace(/\/attachments\/[^?]+/, '/attachments/0000');
    await assert.rejects(c.examples.downloadAttachment({ presigned_url: dead }), (err: unknown) => err instanceof LangSmithError && err.status === 404);
    await assert.rejects(c.examples.downloadAttachment({ presigned_url: 'file:///etc/passwd' }), LangSmithError);
  });

  it('updates inputs, outputs, metadata, split and attachments (rename, retain, add)', async () => {
    const ds = await c.datasets.create({ name: unique('upd') });
    const ex = await c.examples.createOne({
      datasetId: ds.id,
      inputs: { q: 1 },
      attachments: { a: ['text/plain', 'A'], b: ['text/plain', 'B'] },
    });
    await c.examples.update({
      datasetId: ds.id,
      updates: [
        {
          id: ex.id,
          inputs: { q: 2 },
          outputs: { r: 3 },
          metadata: { m: true },
          split: 'test',
          attachments: { c: ['text/plain', 'C'] },
          attachmentsOperations: { rename: { a: 'a2' }, retain: ['b'] },
        },
      ],
    });
    const after = await c.examples.read(ex.id);
    assert.deepEqual(after.inputs, { q: 2 });
    assert.deepEqual(after.outputs, { r: 3 });
    assert.equal((after.metadata as { m: boolean }).m, true);
    assert.deepEqual(Object.keys(after.attachments).sort(), ['a2', 'b', 'c']);
    assert.equal(await (await fetch(after.attachments['a2']!.presigned_url)).text(), 'A');
  });

  it('reads and deletes an example', async () => {
    const ds = await c.datasets.create({ name: unique('del') });
    const ex = await c.examples.createOne({ datasetId: ds.id, inputs: { x: 1 } });
    assert.equal((await c.examples.read(ex.id)).dataset_id, ds.id);
    await c.examples.delete(ex.id);
    assert.equal((await collect(c.examples.list({ datasetId: ds.id }))).length, 0);
    await assert.rejects(c.examples.read('bad-id'), { message: 'Invalid UUID for exampleId: bad-id' });
  });

  it('validates before calling: dataset id xor name', async () => {
    await assert.rejects(c.examples.create({ examples: [{ inputs: {} }] }), { message: 'Must provide either datasetName or datasetId' });
    await assert.rejects(c.examples.create({ datasetId: '00000000-0000-4000-8000-000000000001', datasetName: 'x', examples: [] }), {
      message: 'Must provide either datasetName or datasetId, not both',
    });
  });

  it('refuses with the multipart message when the server does not allow multipart examples', async () => {
    const oc = clientFor(noMultipart());
    assert.equal(await oc.supportsMultipartExamples(), false);
    const ds = await oc.datasets.create({ name: unique('old') });
    const unsupported =
      'Your LangSmith deployment does not allow using the multipart examples endpoint, please upgrade your deployment to the latest version.';
    await assert.rejects(oc.examples.create({ datasetId: ds.id, examples: [{ inputs: { a: 1 } }] }), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.equal(e.message, unsupported);
      assert.equal(e.action, 'create examples');
      return true;
    });
    // Updates go through the same endpoint, so they are refused alike, naming their own action.
    await assert.rejects(oc.examples.update({ datasetId: ds.id, updates: [{ id: '00000000-0000-4000-8000-000000000002', inputs: { a: 2 } }] }), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.equal(e.message, unsupported);
      assert.equal(e.action, 'update examples');
      return true;
    });
  });

  it('reports the server version and multipart support from /info', async () => {
    const v = await c.serverVersion();
    assert.match(v ?? '', /^\d+\.\d+\.\d+/);
    assert.equal(await c.supportsMultipartExamples(), true);
  });

  it('creates an example from a source run (its inputs and outputs), filters and selects fields', async () => {
    const t = new (c.constructor as typeof import('../../src/client').LangSmithClient)({
      apiUrl: srv().url,
      apiKey: srv().apiKey,
      tracing: { manualFlush: true, projectName: unique('src') },
    });
    const run = t.tracing.startRun({ name: 'source', inputs: { question: 'q?' } }).end({ outputs: { answer: 'a!' } }).post();
    await t.tracing.flush();
    const ds = await c.datasets.create({ name: unique('fromrun') });
    const ex = await c.examples.createOne({ datasetId: ds.id, sourceRunId: run.id, useSourceRunIo: true, metadata: { kind: 'run' } });
    assert.equal(ex.source_run_id, run.id);
    assert.deepEqual(ex.inputs, { question: 'q?' });
    assert.deepEqual(ex.outputs, { answer: 'a!' });
    await c.examples.create({ datasetId: ds.id, examples: [{ inputs: { question: 'other' }, metadata: { kind: 'manual' } }] });
    const filtered = await collect(c.examples.list({ datasetId: ds.id, filter: 'has(metadata, \'{"kind": "manual"}\')' }));
    assert.deepEqual(filtered.map((e) => e.inputs['question']), ['other']);
    const selected = await collect(c.examples.list({ datasetId: ds.id, select: ['inputs'] }));
    assert.equal(selected.length, 2);
    assert.ok(selected.every((e) => e.outputs === undefined || e.outputs === null));
  });
});
