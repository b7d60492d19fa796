import assert from 'node:assert/strict';
import { LangSmithNotFoundError, LangSmithValidationError, collect, type LangSmithClient } from '../../src/client';
import { withLocalServer } from '../harness/localServer';
import { clientFor, otherClientFor, recordingFetch, unique } from './_server';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('client ↔ local server: datasets', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  before(() => {
    c = clientFor(srv());
  });

  it('creates a kv dataset by default with schemas and metadata, reads it by id and by name', async () => {
    const name = unique('ds');
    const ds = await c.datasets.create({
      name,
      description: 'desc',
      metadata: { owner: 'me' },
      inputsSchema: { type: 'object', properties: { q: { type: 'string' } } },
    });
    assert.equal(ds.data_type, 'kv');
    assert.equal(ds.description, 'desc');
    assert.deepEqual(ds.inputs_schema_definition, { type: 'object', properties: { q: { type: 'string' } } });
    assert.equal((await c.datasets.read({ datasetId: ds.id })).name, name);
    assert.equal((await c.datasets.read({ datasetName: name })).id, ds.id);
    assert.equal(await c.datasets.exists({ datasetName: name }), true);
    const chat = await c.datasets.create({ name: unique('chat'), dataType: 'chat' });
    assert.equal(chat.data_type, 'chat');
  });

  it('raises Dataset[...] not found, and exists() says false', async () => {
    await assert.rejects(c.datasets.read({ datasetName: 'missing-ds' }), (e: unknown) => {
      assert.ok(e instanceof LangSmithNotFoundError);
      assert.equal(e.message, 'Dataset[id=undefined, name=missing-ds] not found');
      return true;
    });
    const id = '00000000-0000-4000-8000-0000000000aa';
    await assert.rejects(c.datasets.read({ datasetId: id }), { message: `Dataset[id=${id}, name=undefined] not found` });
    assert.equal(await c.datasets.exists({ datasetId: id }), false);
  });

  it('validates before calling: id xor name', async () => {
    await assert.rejects(c.datasets.read({}), { message: 'Must provide either datasetName or datasetId' });
    await assert.rejects(c.datasets.delete({ datasetId: '00000000-0000-4000-8000-0000000000aa', datasetName: 'x' }), {
      message: 'Must provide either datasetName or datasetId, not both',
    });
    await assert.rejects(c.datasets.read({ datasetId: 'x' }), { message: 'Invalid UUID for datasetId: x' });
  });

  it('lists with the defaults (limit 100, offset 0) and over several pages', async () => {
    const prefix = unique('list');
    for (let i = 0; i < 5; i++) await c.datasets.create({ name: `${prefix}-${i}` });
    const paged = await collect(c.datasets.list({ nameContains: prefix, pageSize: 2 }));
    assert.equal(paged.length, 5);
    const wire = recordingFetch();
    const all = await collect(clientFor(srv(), { fetch: wire.fetch }).datasets.list({ nameContains: prefix }));
    assert.equal(all.length, 5);
    const asked = wire.seen.filter((r) => r.url.pathname === '/datasets');
    assert.deepEqual(asked.map((r) => [r.url.searchParams.get('limit'), r.url.searchParams.get('offset')]), [['100', '0']], 'one page: limit 100, offset 0');
    const offset = await collect(c.datasets.list({ nameContains: prefix, offset: 3 }));
    assert.equal(offset.length, 2);
    assert.equal((await collect(c.datasets.list({ name: `${prefix}-1` }))).length, 1);
  });

  it('updates and deletes', async () => {
    const ds = await c.datasets.create({ name: unique('upd') });
    const u = await c.datasets.update(ds.id, { description: 'changed', name: `${ds.name}-x` });
    assert.equal(u.description, 'changed');
    await c.datasets.delete({ datasetName: u.name });
    assert.equal(await c.datasets.exists({ datasetId: ds.id }), false);
  });

  it('shares and unshares; public reads by token and by link', async () => {
    const ds = await c.datasets.create({ name: unique('shared') });
    const made = await c.examples.create({ datasetId: ds.id, examples: [{ inputs: { a: 1 }, outputs: { b: 2 } }, { inputs: { a: 3 } }] });
    assert.equal(await c.datasets.readShare({ datasetId: ds.id }), null);
    const share = await c.datasets.share({ datasetId: ds.id });
    assert.equal(share.url, `${srv().url}/public/${share.share_token}/d`);
    assert.equal((await c.datasets.readShare({ datasetId: ds.id }))?.share_token, share.share_token);
    const anonymous = clientFor(srv(), { apiKey: undefined });
    assert.equal((await anonymous.public.readDataset(share.share_token)).id, ds.id);
    assert.equal((await anonymous.public.readDataset(share.url)).name, ds.name);
    const examples = await anonymous.public.listExamples(share.url);
    assert.equal(examples.length, 2);
    const one = await c.public.listExamples(share.share_token, { exampleIds: [made.example_ids[0]!] });
    assert.deepEqual(one.map((e) => e.id), [made.example_ids[0]]);
    await assert.rejects(c.public.readDataset('garbage'), { message: 'Invalid public dataset URL or token: garbage' });
    await c.datasets.unshare({ datasetId: ds.id });
    assert.equal(await c.datasets.readShare({ datasetId: ds.id }), null);
    await assert.rejects(anonymous.public.readDataset(share.share_token), LangSmithNotFoundError);
  });

  it('uploads a CSV as a dataset', async () => {
    const name = unique('csv');
    const ds = await c.datasets.uploadCsv({
      csv: 'question,answer\nWhat is 2+2?,4\nCapital of France?,Paris\n',
      inputKeys: ['question'],
      outputKeys: ['answer'],
      name,
      description: 'from csv',
    });
    assert.equal(ds.name, name);
    const rows = await collect(c.examples.list({ datasetId: ds.id }));
    assert.equal(rows.length, 2);
    assert.deepEqual(rows.map((r) => r.inputs['question']).sort(), ['Capital of France?', 'What is 2+2?']);
  });

  it('addresses versions by asOf or tag, tags them, lists and diffs them', async () => {
    const ds = await c.datasets.create({ name: unique('ver') });
    const v1 = await c.examples.create({ datasetId: ds.id, examples: [{ inputs: { n: 1 } }] });
    await sleep(5);
    const v2 = await c.examples.create({ datasetId: ds.id, examples: [{ inputs: { n: 2 } }] });
    assert.ok(v1.as_of && v2.as_of);
    await c.datasets.updateTag({ datasetId: ds.id, asOf: v1.as_of!, tag: 'v1' });
    const byTag = await c.datasets.readVersion({ datasetId: ds.id, tag: 'v1' });
    assert.equal(new Date(byTag.as_of).getTime(), new Date(v1.as_of!).getTime());
    assert.ok(byTag.tags?.includes('v1'));
    const byTime = await c.datasets.readVersion({ datasetId: ds.id, asOf: v2.as_of! });
    assert.equal(new Date(byTime.as_of).getTime(), new Date(v2.as_of!).getTime());
    await assert.rejects(c.datasets.readVersion({ datasetId: ds.id }), (e: unknown) => {
      assert.ok(e instanceof LangSmithValidationError);
      assert.equal(e.message, 'Exactly one of asOf and tag must be specified.');
      return true;
    });
    await assert.rejects(c.datasets.readVersion({ datasetId: ds.id, tag: 'v1', asOf: v1.as_of! }), {
      message: 'Exactly one of asOf and tag must be specified.',
    });
    const versions = await collect(c.datasets.listVersions({ datasetId: ds.id }));
    assert.ok(versions.length >= 2);
    const diff = await c.datasets.diff({ datasetId: ds.id, fromVersion: 'v1', toVersion: 'latest' });
    assert.deepEqual(diff.examples_added, [v2.example_ids[0]]);
    assert.deepEqual(diff.examples_removed, []);
    const old = await collect(c.examples.list({ datasetId: ds.id, asOf: 'v1' }));
    assert.deepEqual(old.map((e) => e.id), v1.example_ids);
  });

  it('lists and updates splits', async () => {
    const ds = await c.datasets.create({ name: unique('splits') });
    const made = await c.examples.create({
      datasetId: ds.id,
      examples: [{ inputs: { a: 1 }, split: 'train' }, { inputs: { a: 2 }, split: 'test' }, { inputs: { a: 3 } }],
    });
    assert.deepEqual((await c.datasets.listSplits({ datasetId: ds.id })).sort(), ['base', 'test', 'train']);
    await c.datasets.updateSplits({ datasetId: ds.id, splitName: 'train', exampleIds: [made.example_ids[2]!] });
    const train = await collect(c.examples.list({ datasetId: ds.id, splits: ['train'] }));
    assert.deepEqual(train.map((e) => e.id).sort(), [made.example_ids[0]!, made.example_ids[2]!].sort());
    await c.datasets.updateSplits({ datasetId: ds.id, splitName: 'train', exampleIds: [made.example_ids[0]!], remove: true });
    const after = await collect(c.examples.list({ datasetId: ds.id, splits: ['train'] }));
    assert.deepEqual(after.map((e) => e.id), [made.example_ids[2]]);
  });

  it('indexes a dataset and finds similar examples', async () => {
    const ds = await c.datasets.create({ name: unique('search') });
    await c.examples.create({
      datasetId: ds.id,
      examples: [{ inputs: { q: 'how do I bake bread' } }, { inputs: { q: 'weather in paris' } }, { inputs: { q: 'bread recipe with yeast' } }],
    });
    await c.datasets.index({ datasetId: ds.id });
    const similar = await c.datasets.similarExamples({ datasetId: ds.id, inputs: { q: 'bread' }, limit: 2 });
    assert.equal(similar.length, 2);
    assert.ok(similar.every((e) => String(e.inputs['q']).includes('bread')));
    assert.equal((await c.datasets.similarExamples({ datasetId: ds.id, inputs: { q: 'bread' }, limit: 1 })).length, 1, 'limit honoured');
  });

  it('indexes at a tag and filters similar examples by metadata', async () => {
    const ds = await c.datasets.create({ name: unique('search-tag') });
    const first = await c.examples.create({
      datasetId: ds.id,
      examples: [
        { inputs: { q: 'sourdough bread starter' }, metadata: { lang: 'en' } },
        { inputs: { q: 'bread and butter' }, metadata: { lang: 'fr' } },
      ],
    });
    await c.datasets.updateTag({ datasetId: ds.id, asOf: first.as_of!, tag: 'indexed' });
    await c.datasets.index({ datasetId: ds.id, tag: 'indexed' });
    const en = await c.datasets.similarExamples({ datasetId: ds.id, inputs: { q: 'bread' }, limit: 10, filter: 'eq(metadata.lang, "en")' });
    assert.deepEqual(en.map((e) => e.inputs['q']), ['sourdough bread starter']);
    const both = await c.datasets.similarExamples({ datasetId: ds.id, inputs: { q: 'bread' }, limit: 10 });
    assert.equal(both.length, 2);
  });

  it('reads the OpenAI fine-tuning export as JSON lines', async () => {
    const ds = await c.datasets.create({ name: unique('ft'), dataType: 'chat' });
    await c.examples.create({
      datasetId: ds.id,
      examples: [
        {
          inputs: { messages: [{ role: 'user', content: 'hi' }] },
          outputs: { message: { role: 'assistant', content: 'hello' } },
        },
      ],
    });
    const lines = await c.datasets.readOpenAiFineTuning({ datasetId: ds.id });
    assert.equal(lines.length, 1);
    assert.ok(JSON.stringify(lines[0]).includes('hello'));
  });

  it('creates comparative experiments; requires experiments and a reference dataset', async () => {
    const ds = await c.datasets.create({ name: unique('ref') });
    const e1 = await c.projects.create({ name: unique('exp'), referenceDatasetId: ds.id });
    const e2 = await c.projects.create({ name: unique('exp'), referenceDatasetId: ds.id });
    const cmp = await c.comparativeExperiments.create({ name: unique('cmp'), experimentIds: [e1.id, e2.id], metadata: { k: 1 } });
    assert.equal(cmp.reference_dataset_id, ds.id);
    assert.deepEqual([...(cmp.experiments_info?.map((e) => e.id) ?? cmp.experiment_ids ?? [])].sort(), [e1.id, e2.id].sort());
    const explicit = await c.comparativeExperiments.create({ name: unique('cmp'), experimentIds: [e1.id], referenceDatasetId: ds.id, description: 'x' });
    assert.equal(explicit.reference_dataset_id, ds.id);
    await assert.rejects(c.comparativeExperiments.create({ name: 'x', experimentIds: [] }), { message: 'At least one experiment is required' });
    const loose = await c.projects.create({ name: unique('noref') });
    await assert.rejects(c.comparativeExperiments.create({ name: 'x', experimentIds: [loose.id] }), { message: 'A reference dataset is required' });
  });

  it('keeps tenants apart', async () => {
    const ds = await c.datasets.create({ name: unique('private') });
    assert.equal(await otherClientFor(srv()).datasets.exists({ datasetId: ds.id }), false);
  });
});
