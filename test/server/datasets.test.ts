import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect, sleep } from './helpers';

describe('datasets: CRUD, upload, sharing, versions, splits, export, search, comparative', () => {
  const srv = withLocalServer();

  it('POST/GET/PATCH/DELETE /datasets and the list filters', async () => {
    const c = client(srv());
    const d = await c.createDataset('ds-crud', { description: 'about', dataType: 'kv', metadata: { owner: 'me' }, inputsSchema: { type: 'object' } });
    assert.equal(d.data_type, 'kv');
    assert.deepEqual(d.inputs_schema_definition, { type: 'object' });
    await assert.rejects(c.createDataset('ds-crud'), /409/);
    assert.equal((await c.readDataset({ datasetName: 'ds-crud' })).id, d.id);
    await c.createDataset('ds-crud-2', { metadata: { owner: 'you' } });
    const contains = await collect(c.listDatasets({ datasetNameContains: 'ds-crud' }));
    assert.deepEqual(contains.map((x) => x.name).sort(), ['ds-crud', 'ds-crud-2']);
    const byMeta = await collect(c.listDatasets({ metadata: { owner: 'me' } }));
    assert.deepEqual(byMeta.map((x) => x.id), [d.id]);
    const byId = await collect(c.listDatasets({ datasetIds: [d.id] }));
    assert.equal(byId.length, 1);
    const u = await c.updateDataset({ datasetId: d.id, name: 'ds-crud-renamed', description: 'new' });
    assert.equal(u.name, 'ds-crud-renamed');
    assert.equal(await c.hasDataset({ datasetName: 'ds-crud' }), false);
    await c.deleteDataset({ datasetId: d.id });
    await assert.rejects(c.readDataset({ datasetId: d.id }), /404/);
    await assert.rejects(c.readDataset({ datasetName: 'ds-crud-renamed' }), /not found/);
  });

  it('another tenant sees none of it', async () => {
    const c = client(srv());
    const d = await c.createDataset('ds-private');
    const other = client(srv(), { apiKey: srv().otherApiKey });
    await assert.rejects(other.readDataset({ datasetId: d.id }), /404/);
    assert.equal((await collect(other.listDatasets({ datasetNameContains: 'ds-private' }))).length, 0);
    // Same name is fine in another workspace.
    await other.createDataset('ds-private');
  });

  it('POST /datasets/upload (uploadCsv) makes a dataset from a CSV', async () => {
    const c = client(srv());
    const csv = 'question,answer,extra\n"What is 2+2?",4,x\n"Capital of France?",Paris,y\n';
    const d = await c.uploadCsv({ csvFile: new Blob([csv]), fileName: 'qa.csv', inputKeys: ['question'], outputKeys: ['answer'], name: 'ds-csv', description: 'from csv', dataType: 'kv' });
    assert.equal(d.name, 'ds-csv');
    const ex = await collect(c.listExamples({ datasetId: d.id }));
    assert.deepEqual(ex.map((e) => e.inputs.question).sort(), ['Capital of France?', 'What is 2+2?']);
    assert.deepEqual(ex.map((e) => e.outputs?.answer).sort(), ['4', 'Paris']);
    await assert.rejects(
      c.uploadCsv({ csvFile: new Blob([csv]), fileName: 'qa.csv', inputKeys: ['nope'], outputKeys: [], name: 'ds-csv-bad' }),
      /422/,
    );
    assert.equal(await c.hasDataset({ datasetName: 'ds-csv-bad' }), false);
  });

  it('GET /datasets/{id}/openai_ft exports JSON lines of messages', async () => {
    const c = client(srv());
    const d = await c.createDataset('ds-ft', { dataType: 'chat' });
    await c.createExamples([
      { dataset_id: d.id, inputs: { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }] }, outputs: { output: { role: 'assistant', content: 'Hello' } } },
    ]);
    const lines = await c.readDatasetOpenaiFinetuning({ datasetId: d.id });
    assert.deepEqual(lines, [{ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }] }]);
  });

  it('share a dataset: token, public dataset and examples, web page; unshare → 404', async () => {
    const c = client(srv());
    const d = await c.createDataset('ds-share');
    const [e1, e2] = await c.createExamples([
      { dataset_id: d.id, inputs: { q: 'one <script>' } },
      { dataset_id: d.id, inputs: { q: 'two' } },
    ]);
    const share = await c.shareDataset(d.id);
    assert.equal(share.dataset_id, d.id);
    const token = share.share_token;
    assert.equal((await c.readDatasetSharedSchema(d.id)).share_token, token);
    const pub = await c.readSharedDataset(token);
    assert.equal(pub.name, 'ds-share');
    const all = await c.listSharedExamples(token);
    assert.equal(all.length, 2);
    const one = await c.listSharedExamples(token, { exampleIds: [e2.id] });
    assert.deepEqual(one.map((e) => e.id), [e2.id]);
    const page = await fetch(`${srv().url}/public/${token}/d`);
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.ok(html.includes('one &lt;script&gt;') && !html.includes('<script>'), 'example text is escaped');
    // Another workspace clones it from the public link.
    const other = client(srv(), { apiKey: srv().otherApiKey });
    await other.clonePublicDataset(`${srv().url}/public/${token}/d`, { datasetName: 'ds-share-clone' });
    const cloned = await collect(other.listExamples({ datasetName: 'ds-share-clone' }));
    assert.deepEqual(cloned.map((e) => e.inputs.q).sort(), ['one <script>', 'two']);
    await c.unshareDataset(d.id);
    await assert.rejects(c.readSharedDataset(token), /404/);
    assert.equal((await fetch(`${srv().url}/public/${token}/d`)).status, 404);
    const none = await rawRequest(srv(), 'GET', `/datasets/${d.id}/share`);
    assert.equal(none.body, null);
    void e1;
  });

  it('versions: each change is a version; as_of reads; tags move; versions list; diff', async () => {
    const c = client(srv());
    const d = await c.createDataset('ds-versions');
    const [a, b] = await c.createExamples([
      { dataset_id: d.id, inputs: { q: 'a' }, outputs: { r: 1 } },
      { dataset_id: d.id, inputs: { q: 'b' }, outputs: { r: 2 } },
    ]);
    const v1 = (await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions`)).body[0].as_of;
    await sleep(3);
    await c.updateExample(a.id, { inputs: { q: 'a2' }, dataset_id: d.id });
    await sleep(3);
    const [cEx] = await c.createExamples([{ dataset_id: d.id, inputs: { q: 'c' } }]);
    await sleep(3);
    await c.deleteExample(b.id);
    const versions = (await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions`)).body;
    assert.equal(versions.length, 4, 'create, update, create, delete');
    const v2 = versions[2].as_of;

    // Reads at a version
    const atV1 = await collect(c.listExamples({ datasetId: d.id, asOf: v1 }));
    assert.deepEqual(atV1.map((e) => e.inputs.q).sort(), ['a', 'b']);
    const atV2 = await collect(c.listExamples({ datasetId: d.id, asOf: v2 }));
    assert.deepEqual(atV2.map((e) => e.inputs.q).sort(), ['a2', 'b']);
    const now = await collect(c.listExamples({ datasetId: d.id }));
    assert.deepEqual(now.map((e) => e.inputs.q).sort(), ['a2', 'c']);

    // Tags, and moving one
    await c.updateDatasetTag({ datasetId: d.id, asOf: v1, tag: 'prod' });
    assert.deepEqual(await c.readDatasetVersion({ datasetId: d.id, tag: 'prod' }), { as_of: v1, tags: ['prod'] });
    const atProd = await collect(c.listExamples({ datasetId: d.id, asOf: 'prod' }));
    assert.deepEqual(atProd.map((e) => e.inputs.q).sort(), ['a', 'b']);
    await c.updateDatasetTag({ datasetId: d.id, asOf: v2, tag: 'prod' });
    assert.equal((await c.readDatasetVersion({ datasetId: d.id, tag: 'prod' })).as_of, v2);
    const listed = (await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions`)).body;
    assert.deepEqual(listed.find((v: any) => v.as_of === v2).tags, ['prod']);
    assert.deepEqual(listed.find((v: any) => v.as_of === v1).tags, []);
    // A time between versions resolves to the version before it.
    const between = new Date(new Date(v2).getTime() + 1).toISOString();
    assert.equal((await c.readDatasetVersion({ datasetId: d.id, asOf: between })).as_of, v2);
    await assert.rejects(c.readDatasetVersion({ datasetId: d.id }), /Exactly one of asOf and tag/);
    assert.equal((await rawRequest(srv(), 'GET', `/datasets/${d.id}/version`)).status, 422);

    // Diff
    const diff = await c.diffDatasetVersions({ datasetId: d.id, fromVersion: v1, toVersion: 'latest' });
    assert.deepEqual(diff.examples_added, [cEx.id]);
    assert.deepEqual(diff.examples_modified, [a.id]);
    assert.deepEqual(diff.examples_removed, [b.id]);
    const back = await c.diffDatasetVersions({ datasetId: d.id, fromVersion: 'latest', toVersion: 'prod' });
    assert.deepEqual(back.examples_added, [b.id]);
    assert.deepEqual(back.examples_removed, [cEx.id]);
    assert.deepEqual(back.examples_modified, []);
    const unknown = await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions/diff?from_version=nope&to_version=latest`);
    assert.equal(unknown.status, 404);
  }).timeout(10_000);

  it('splits: list at a version, add and remove (each change a version)', async () => {
    const c = client(srv());
    const d = await c.createDataset('ds-splits');
    const exs = await c.createExamples([
      { dataset_id: d.id, inputs: { i: 0 }, split: 'train' },
      { dataset_id: d.id, inputs: { i: 1 }, split: ['train', 'dev'] },
      { dataset_id: d.id, inputs: { i: 2 } },
    ]);
    const v0 = (await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions`)).body[0].as_of;
    assert.deepEqual(await c.listDatasetSplits({ datasetId: d.id }), ['base', 'dev', 'train']);
    await c.updateDatasetSplits({ datasetId: d.id, splitName: 'test', exampleIds: [exs[2].id] });
    await c.updateDatasetSplits({ datasetId: d.id, splitName: 'dev', exampleIds: [exs[1].id], remove: true });
    assert.deepEqual(await c.listDatasetSplits({ datasetId: d.id }), ['base', 'test', 'train']);
    assert.deepEqual(await c.listDatasetSplits({ datasetId: d.id, asOf: v0 }), ['base', 'dev', 'train']);
    const train = await collect(c.listExamples({ datasetId: d.id, splits: ['train'] }));
    assert.deepEqual(train.map((e) => e.inputs.i).sort(), [0, 1]);
    const test = await collect(c.listExamples({ datasetId: d.id, splits: ['test'] }));
    assert.deepEqual(test.map((e) => e.inputs.i), [2]);
    assert.equal((await rawRequest(srv(), 'GET', `/datasets/${d.id}/versions`)).body.length, 3);
  });

  it('index + search: bm25 ranking over input text, honouring limit and filter', async () => {
    const c = client(srv());
    const d = await c.createDataset('ds-search');
    await c.createExamples([
      { dataset_id: d.id, inputs: { q: 'How do I bake sourdough bread at home?' }, metadata: { topic: 'baking' } },
      { dataset_id: d.id, inputs: { q: 'Best bread flour for sourdough starters' }, metadata: { topic: 'baking' } },
      { dataset_id: d.id, inputs: { q: 'How to change a bicycle tire' }, metadata: { topic: 'bikes' } },
      { dataset_id: d.id, inputs: { q: 'Sourdough sourdough sourdough bread recipe' }, metadata: { topic: 'recipes' } },
    ]);
    const before = await rawRequest(srv(), 'POST', `/datasets/${d.id}/search`, { inputs: { q: 'sourdough' } });
    assert.equal(before.status, 400, 'search needs an index first');
    assert.equal((await rawRequest(srv(), 'POST', `/datasets/${d.id}/index`, { tag: 'latest' })).status, 200);
    const r = await rawRequest(srv(), 'POST', `/datasets/${d.id}/search`, { inputs: { q: 'sourdough bread' }, limit: 10 });
    assert.equal(r.status, 200);
    const qs = r.body.examples.map((e: any) => e.inputs.q);
    assert.equal(qs.length, 3, 'the bicycle example does not match');
    assert.equal(qs[0], 'Sourdough sourdough sourdough bread recipe', 'most matching terms ranks first');
    const limited = await rawRequest(srv(), 'POST', `/datasets/${d.id}/search`, { inputs: { q: 'sourdough bread' }, limit: 1 });
    assert.equal(limited.body.examples.length, 1);
    const filtered = await rawRequest(srv(), 'POST', `/datasets/${d.id}/search`, { inputs: { q: 'sourdough' }, limit: 10, filter: 'has(metadata, \'{"topic": "baking"}\')' });
    assert.deepEqual(filtered.body.examples.map((e: any) => e.metadata.topic), ['baking', 'baking']);
    // New examples are searchable without re-indexing.
    await c.createExamples([{ dataset_id: d.id, inputs: { q: 'bicycle chain grease' } }]);
    const fresh = await rawRequest(srv(), 'POST', `/datasets/${d.id}/search`, { inputs: { q: 'grease' } });
    assert.equal(fresh.body.examples.length, 1);
  });

  it('POST /datasets/comparative creates a comparative experiment; validation of experiments', async () => {
    const c = client(srv());
    const d = await c.createDataset('ds-comparative');
    const e1 = await c.createProject({ projectName: 'cmp-exp-1', referenceDatasetId: d.id });
    const e2 = await c.createProject({ projectName: 'cmp-exp-2', referenceDatasetId: d.id });
    const cmp = await c.createComparativeExperiment({ name: 'A vs B', experimentIds: [e1.id, e2.id], referenceDatasetId: d.id, description: 'cmp', metadata: { k: 1 } });
    assert.equal(cmp.reference_dataset_id, d.id);
    assert.deepEqual(cmp.experiments_info!.map((e: any) => e.name), ['cmp-exp-1', 'cmp-exp-2']);
    // The reference dataset is found from the first experiment when not given.
    const implied = await c.createComparativeExperiment({ name: 'implied', experimentIds: [e1.id] } as any);
    assert.equal(implied.reference_dataset_id, d.id);
    await assert.rejects(c.createComparativeExperiment({ name: 'none', experimentIds: [] }), /At least one experiment/);
    const bad = await rawRequest(srv(), 'POST', '/datasets/comparative', { name: 'x', experiment_ids: [crypto.randomUUID()], reference_dataset_id: d.id });
    assert.equal(bad.status, 404);
    const list = await rawRequest(srv(), 'GET', `/datasets/${d.id}/comparative`);
    assert.deepEqual(list.body.map((x: any) => x.name).sort(), ['A vs B', 'implied']);
    const newestFirst = [...list.body].sort((a: any, b: any) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id));
    assert.deepEqual(list.body.map((x: any) => x.id), newestFirst.map((x: any) => x.id), 'newest first by default');
    // The listing's filters and order, as LangSmith's: id, name, name_contains, sort_by(_desc), limit ≤ 100.
    const byId = await rawRequest(srv(), 'GET', `/datasets/${d.id}/comparative?id=${cmp.id}`);
    assert.deepEqual(byId.body.map((x: any) => x.id), [cmp.id]);
    assert.deepEqual((await rawRequest(srv(), 'GET', `/datasets/${d.id}/comparative?name=implied`)).body.map((x: any) => x.id), [implied.id]);
    assert.deepEqual((await rawRequest(srv(), 'GET', `/datasets/${d.id}/comparative?name_contains=vs`)).body.map((x: any) => x.id), [cmp.id]);
    const byName = await rawRequest(srv(), 'GET', `/datasets/${d.id}/comparative?sort_by=name&sort_by_desc=false`);
    assert.deepEqual(byName.body.map((x: any) => x.name), ['A vs B', 'implied']);
    assert.deepEqual((await rawRequest(srv(), 'GET', `/datasets/${d.id}/comparative?limit=1&offset=1`)).body.map((x: any) => x.id), [list.body[1].id]);
    assert.equal((await rawRequest(srv(), 'GET', `/datasets/${d.id}/comparative?limit=101`)).status, 422);
    assert.equal((await rawRequest(srv(), 'GET', `/datasets/${d.id}/comparative?sort_by=size`)).status, 422);
  });
});
