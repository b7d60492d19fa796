/** The in-place check of example pages agrees with the zod schema, and rejects malformed pages clearly. */
import assert from 'node:assert/strict';
import { z } from 'zod';
import { LangSmithClient, collect } from '../../../src/client';
import { ExampleSchema, checkExamplePage } from '../../../src/client/schemas';

const ID = '8a2d3a0e-5a3b-4c1e-9f7e-2b1d2c3e4f50';
const DS = '1b2d3a0e-5a3b-4c1e-9f7e-2b1d2c3e4f51';

function answering(pages: unknown[]) {
  let n = 0;
  const f = (async () => new Response(JSON.stringify(pages[n++] ?? []), { status: 200 })) as unknown as typeof fetch;
  return new LangSmithClient({ apiUrl: 'http://rec', apiKey: 'k', fetch: f, maxRetries: 0 });
}

describe('example page check', () => {
  const good = () => [
    { id: ID, dataset_id: DS },
    { id: ID, dataset_id: DS, inputs: null, outputs: null, metadata: { a: 1 }, split: ['x', 'y'], extra_field: 1 },
    {
      id: ID,
      dataset_id: DS,
      inputs: { q: 1 },
      outputs: { a: 2 },
      split: 'base',
      created_at: 'now',
      use_source_run_io: false,
      use_source_run_attachments: ['f'],
      attachment_urls: { 'attachment.file': { presigned_url: 'http://x/f', mime_type: 'text/plain' }, 'attachment.b': { presigned_url: 'u' } },
    },
  ];

  it('gives the same examples as the zod schema', () => {
    const checked = checkExamplePage(good());
    assert.ok(checked.success);
    assert.deepEqual(checked.data, z.array(ExampleSchema).parse(good()));
    assert.deepEqual(checked.data[0]!.inputs, {});
    assert.deepEqual(checked.data[2]!.attachments, { file: { presigned_url: 'http://x/f', mime_type: 'text/plain' }, b: { presigned_url: 'u' } });
  });

  it('rejects what the zod schema rejects, naming where', () => {
    const bad: unknown[] = [
      5,
      { dataset_id: DS },
      { id: ID, dataset_id: 7 },
      { id: ID, dataset_id: DS, inputs: [1] },
      { id: ID, dataset_id: DS, outputs: 'x' },
      { id: ID, dataset_id: DS, split: 3 },
      { id: ID, dataset_id: DS, split: ['a', 1] },
      { id: ID, dataset_id: DS, created_at: 1 },
      { id: ID, dataset_id: DS, use_source_run_io: 'yes' },
      { id: ID, dataset_id: DS, use_source_run_attachments: [1] },
      { id: ID, dataset_id: DS, attachment_urls: [] },
      { id: ID, dataset_id: DS, attachment_urls: { 'attachment.f': {} } },
      { id: ID, dataset_id: DS, attachment_urls: { 'attachment.f': { presigned_url: 'u', mime_type: 3 } } },
    ];
    for (const item of bad) {
      assert.equal(z.array(ExampleSchema).safeParse([item]).success, false, JSON.stringify(item));
      const checked = checkExamplePage([item]);
      assert.equal(checked.success, false, JSON.stringify(item));
    }
    const r = checkExamplePage({ examples: [] });
    assert.ok(!r.success);
    assert.deepEqual(r.issues, [{ path: [], message: 'Invalid input: expected array, received object' }]);
    const r2 = checkExamplePage([{ id: ID, dataset_id: DS }, { id: 5, dataset_id: DS }]);
    assert.ok(!r2.success);
    assert.deepEqual(r2.issues, [{ path: [1, 'id'], message: 'Invalid input: expected string, received number' }]);
  });

  it('a malformed page fails the listing with a clear error', async () => {
    const client = answering([[{ id: ID, dataset_id: DS, inputs: 'oops' }]]);
    await assert.rejects(collect(client.examples.list({ datasetId: DS })), /Failed to list examples: unexpected answer from the server\n0\.inputs: expected an object/);
    const client2 = answering([{ detail: 'not a list' }]);
    await assert.rejects(collect(client2.examples.list({ datasetId: DS })), /Failed to list examples: unexpected answer from the server\n\(root\): Invalid input: expected array, received object/);
  });
});
