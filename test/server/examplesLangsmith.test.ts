// LangSmith's behaviour on examples and dataset versions: attachment operations checked before anything is
// written, GET /examples limits, select defaults and orders, and the versions list with its filters.
import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect } from './helpers';

const bytes = (s: string) => new TextEncoder().encode(s);
/** The client quotes the answer's JSON in its message: its quotes come escaped. */
const unescape = (m: string) => m.replace(/\\"/g, '"');

describe('examples and versions as LangSmith has them', () => {
  const srv = withLocalServer();

  it('attachments_operations naming an attachment the example lacks, or one both retained and renamed, is refused and changes nothing', async () => {
    const c = client(srv());
    const d = await c.createDataset('ops-refused');
    const [a, b] = await c.createExamples([
      { dataset_id: d.id, inputs: { q: 'a' }, attachments: { x: ['text/plain', bytes('X')], y: ['text/plain', bytes('Y')] } },
      { dataset_id: d.id, inputs: { q: 'b' } },
    ]);
    const versions = async () => (await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions`)).body.length;
    const before = await versions();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ rename: { nope: 'z' } }, new RegExp(`Example ${a!.id}: attachments_operations renames attachment "nope", which the example does not have`)],
      [{ retain: ['nope'] }, new RegExp(`Example ${a!.id}: attachments_operations retains attachment "nope", which the example does not have`)],
      [{ retain: ['x'], rename: { x: 'x2' } }, new RegExp(`Example ${a!.id}: attachments_operations both retains and renames attachment "x"`)],
    ];
    for (const [ops, detail] of cases) {
      // The other example of the same request is valid: it must not be written either.
      await assert.rejects(
        c.updateExamplesMultipart(d.id, [
          { id: b!.id, inputs: { q: 'b changed' } },
          { id: a!.id, inputs: { q: 'a changed' }, attachments_operations: ops },
        ] as any),
        (e: Error) => /422/.test(e.message) && detail.test(unescape(e.message)),
      );
      await assert.rejects(
        c.updateExample({ id: a!.id, dataset_id: d.id, inputs: { q: 'a changed' }, attachments_operations: ops } as any),
        (e: Error) => detail.test(unescape(e.message)),
      );
    }
    assert.equal(await versions(), before, 'no new version');
    assert.deepEqual((await c.readExample(b!.id)).inputs, { q: 'b' });
    const after = await c.readExample(a!.id);
    assert.deepEqual(after.inputs, { q: 'a' });
    assert.deepEqual(Object.keys(after.attachments ?? {}).sort(), ['x', 'y']);
    // A valid operation still works: rename one, retain the other.
    await c.updateExamplesMultipart(d.id, [{ id: a!.id, attachments_operations: { rename: { x: 'x2' }, retain: ['y'] } } as any]);
    assert.deepEqual(Object.keys((await c.readExample(a!.id)).attachments ?? {}).sort(), ['x2', 'y']);
    assert.equal(await versions(), before + 1);
  });

  it('an update uploading attachments with no attachment operations leaves exactly the uploaded ones', async () => {
    const c = client(srv());
    const d = await c.createDataset('uploads-replace');
    const [ex] = await c.createExamples([
      { dataset_id: d.id, inputs: { q: 'v1' }, attachments: { old1: ['text/plain', bytes('O1')], old2: ['text/plain', bytes('O2')] } },
    ]);
    const names = async () => Object.keys((await c.readExample(ex!.id)).attachments ?? {}).sort();
    const text = async (name: string) => (await fetch((await c.readExample(ex!.id)).attachments![name]!.presigned_url)).text();
    // Uploads only (updateExamplesMultipart and updateExample): the earlier attachments are dropped.
    await c.updateExamplesMultipart(d.id, [{ id: ex!.id, metadata: { step: 1 }, attachments: { new1: ['text/plain', bytes('N1')] } }]);
    assert.deepEqual(await names(), ['new1']);
    assert.equal(await text('new1'), 'N1');
    await c.updateExample({ id: ex!.id, dataset_id: d.id, split: ['a', 'b'], attachments: { new2: ['text/plain', bytes('N2')], old1: ['text/plain', bytes('O1b')] } });
    assert.deepEqual(await names(), ['new2', 'old1']);
    assert.equal(await text('old1'), 'O1b');
    // Neither uploads nor operations: the attachments stay as they are.
    await c.updateExample({ id: ex!.id, dataset_id: d.id, inputs: { q: 'v2' } });
    const read = await c.readExample(ex!.id);
    assert.deepEqual(read.inputs, { q: 'v2' });
    assert.deepEqual(await names(), ['new2', 'old1']);
    // Uploads with operations: the retained and renamed ones are kept beside the uploads; an upload wins on a name.
    await c.updateExamplesMultipart(d.id, [
      { id: ex!.id, attachments: { added: ['text/plain', bytes('AD')], kept: ['text/plain', bytes('K2')] }, attachments_operations: { retain: ['new2'], rename: { old1: 'kept' } } },
    ]);
    assert.deepEqual(await names(), ['added', 'kept', 'new2']);
    assert.equal(await text('kept'), 'K2');
    assert.equal(await text('new2'), 'N2');
  });

  it('GET /examples: limit at most 100 (default 100); select picks fields, unknown ones refused', async () => {
    const c = client(srv());
    const d = await c.createDataset('ex-limits');
    await c.createExamples(Array.from({ length: 130 }, (_, i) => ({ dataset_id: d.id, inputs: { i }, attachments: i === 0 ? { f: ['text/plain', bytes('F')] } : undefined })) as any);
    assert.equal((await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}`)).body.length, 100);
    assert.equal((await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&limit=100`)).body.length, 100);
    const over = await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&limit=101`);
    assert.equal(over.status, 422);
    assert.match(over.body.detail, /query\.limit/);
    assert.equal((await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&select=nope`)).status, 422);
    // The official client pages through all of them 100 at a time.
    assert.equal((await collect(c.listExamples({ datasetId: d.id }))).length, 130);
    const picked = (await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&limit=1&select=metadata&select=name`)).body[0];
    assert.deepEqual(Object.keys(picked).sort(), ['created_at', 'dataset_id', 'id', 'inputs', 'metadata', 'name']);
    const withFiles = (await collect(c.listExamples({ datasetId: d.id, includeAttachments: true }))).filter((e) => e.attachments && Object.keys(e.attachments).length);
    assert.deepEqual(withFiles.map((e) => [e.inputs.i, Object.keys(e.attachments!)]), [[0, ['f']]]);
  });

  it('GET /examples order: recent, recently_created, id, random with random_seed; descending', async () => {
    const c = client(srv());
    const d = await c.createDataset('ex-order');
    const made = await c.createExamples(
      Array.from({ length: 30 }, (_, i) => ({ dataset_id: d.id, inputs: { i }, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() })) as any,
    );
    const byCreation = made.map((e) => e.id);
    const list = async (q: string) => {
      const r = await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&select=id${q}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return (r.body as { id: string }[]).map((e) => e.id);
    };
    // Paged in 7s so the page-end seek is used in every direction.
    const paged = async (q: string) => {
      const out: string[] = [];
      for (let off = 0; off < 30; off += 7) out.push(...(await list(`&limit=7&offset=${off}${q}`)));
      return out;
    };
    assert.deepEqual(await list(''), byCreation);
    assert.deepEqual(await paged('&order=recent'), byCreation);
    assert.deepEqual(await paged('&order=recent&descending=true'), [...byCreation].reverse());
    assert.deepEqual(await paged('&order=recently_created'), [...byCreation].reverse());
    assert.deepEqual(await paged('&order=recently_created&descending=false'), byCreation);
    assert.deepEqual(await paged('&order=id'), [...byCreation].sort());
    assert.deepEqual(await paged('&order=id&descending=true'), [...byCreation].sort().reverse());
    const r1 = await paged('&order=random&random_seed=42');
    assert.deepEqual(await paged('&order=random&random_seed=42'), r1, 'the same seed gives the same order');
    assert.deepEqual([...r1].sort(), [...byCreation].sort(), 'every example once');
    assert.notDeepEqual(r1, byCreation);
    assert.notDeepEqual(await paged('&order=random&random_seed=7'), r1);
    assert.equal((await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&order=sideways`)).status, 422);
    assert.equal((await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}&order=random&random_seed=abc`)).status, 422);
  });

  it('GET /examples full_text_contains: every term in some text value of the inputs or outputs', async () => {
    const c = client(srv());
    const d = await c.createDataset('full-text');
    const made = await c.createExamples([
      { dataset_id: d.id, inputs: { question: 'What is the Capital of France?' }, outputs: { answer: 'Paris' } },
      { dataset_id: d.id, inputs: { question: 'Largest planet?' }, outputs: { answer: 'Jupiter, 100% gas' } },
      { dataset_id: d.id, inputs: { nested: { deep: ['a capital idea'] } } },
      { dataset_id: d.id, inputs: { n: 42 }, outputs: { note: 'question' } },
    ]);
    const ids = (i: number[]) => i.map((k) => made[k]!.id).sort();
    const find = async (...terms: string[]) => {
      const q = terms.map((t) => `&full_text_contains=${encodeURIComponent(t)}`).join('');
      const res = await rawRequest(srv(), 'GET', `/examples?dataset=${d.id}${q}`);
      assert.equal(res.status, 200, res.text);
      return (res.body as Array<{ id: string }>).map((e) => e.id).sort();
    };
    assert.deepEqual(await find('capital'), ids([0, 2]), 'case-blind, nested values too');
    assert.deepEqual(await find('capital', 'france'), ids([0]), 'every term');
    assert.deepEqual(await find('paris'), ids([0]), 'outputs too');
    assert.deepEqual(await find('question'), ids([3]), 'values, not keys');
    assert.deepEqual(await find('100%'), ids([1]), '% is a plain character');
    assert.deepEqual(await find('42'), [], 'numbers are not text');
    assert.deepEqual(await find(), ids([0, 1, 2, 3]));
  });

  it('GET /datasets/{id}/versions: newest first with tags; search (tag text), example, limit and offset', async () => {
    const c = client(srv());
    const d = await c.createDataset('versions-list');
    const [e1] = await c.createExamples([{ dataset_id: d.id, inputs: { n: 1 } }]);
    const [e2] = await c.createExamples([{ dataset_id: d.id, inputs: { n: 2 } }]);
    await c.updateExample({ id: e1!.id, dataset_id: d.id, inputs: { n: 10 } } as any);
    await c.deleteExample(e2!.id);
    const all = (await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions`)).body as { as_of: string; tags: string[] }[];
    assert.equal(all.length, 4);
    assert.deepEqual(all.map((v) => v.as_of), [...all.map((v) => v.as_of)].sort().reverse());
    await c.updateDatasetTag({ datasetId: d.id, asOf: all[3]!.as_of, tag: 'Prod-Release' });
    await c.updateDatasetTag({ datasetId: d.id, asOf: all[1]!.as_of, tag: 'staging' });
    const tagged = (await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions?search=prod`)).body;
    assert.deepEqual(tagged, [{ as_of: all[3]!.as_of, tags: ['Prod-Release'] }]);
    assert.deepEqual((await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions?search=nothing`)).body, []);
    // e1 was made in the first version and changed in the third; e2 made in the second, deleted in the fourth.
    assert.deepEqual((await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions?example=${e1!.id}`)).body.map((v: { as_of: string }) => v.as_of), [all[1]!.as_of, all[3]!.as_of]);
    assert.deepEqual((await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions?example=${e2!.id}`)).body.map((v: { as_of: string }) => v.as_of), [all[0]!.as_of, all[2]!.as_of]);
    const page = (await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions?limit=2&offset=1`)).body;
    assert.deepEqual(page, [{ as_of: all[1]!.as_of, tags: ['staging'] }, { as_of: all[2]!.as_of, tags: [] }]);
    assert.equal((await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions?limit=101`)).status, 422);
    assert.equal((await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions?example=nope`)).status, 422);
  });
});
