import assert from 'node:assert/strict';
import { Client } from 'langsmith';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client, collect } from './helpers';

describe('projects (sessions)', () => {
  const srv = withLocalServer();

  it('POST /sessions creates; a duplicate name is 409; ?upsert=true returns the existing one updated', async () => {
    const c = client(srv());
    const p = await c.createProject({ projectName: 'proj-a', description: 'first', metadata: { team: 'x' } });
    assert.equal(p.name, 'proj-a');
    assert.equal(p.tenant_id, srv().tenantId);
    await assert.rejects(c.createProject({ projectName: 'proj-a' }), /409/);
    const again = await c.createProject({ projectName: 'proj-a', upsert: true, description: 'second' });
    assert.equal(again.id, p.id);
    assert.equal(again.description, 'second');
    assert.deepEqual(again.extra?.metadata, { team: 'x' });
  });

  it('GET /sessions/{id}, GET /sessions?name=, hasProject, and the not-found message', async () => {
    const c = client(srv());
    const p = await c.createProject({ projectName: 'proj-read' });
    assert.equal((await c.readProject({ projectId: p.id })).name, 'proj-read');
    assert.equal((await c.readProject({ projectName: 'proj-read' })).id, p.id);
    assert.equal(await c.hasProject({ projectName: 'proj-read' }), true);
    assert.equal(await c.hasProject({ projectName: 'proj-nope' }), false);
    await assert.rejects(c.readProject({ projectName: 'proj-nope' }), /not found/);
  });

  it('GET /sessions filters: name_contains, reference_dataset, reference_free, metadata, include_stats', async () => {
    const c = client(srv());
    const ds = await c.createDataset('proj-ref-ds');
    const exp = await c.createProject({ projectName: 'proj-filter-exp', referenceDatasetId: ds.id, metadata: { kind: 'exp' } });
    const plain = await c.createProject({ projectName: 'proj-filter-plain', metadata: { kind: 'plain' } });
    const contains = await collect(c.listProjects({ nameContains: 'proj-filter' }));
    assert.deepEqual(contains.map((p) => p.name).sort(), ['proj-filter-exp', 'proj-filter-plain']);
    const byRef = await collect(c.listProjects({ referenceDatasetId: ds.id }));
    assert.deepEqual(byRef.map((p) => p.id), [exp.id]);
    const free = await collect(c.listProjects({ nameContains: 'proj-filter', referenceFree: true }));
    assert.deepEqual(free.map((p) => p.id), [plain.id]);
    const meta = await collect(c.listProjects({ metadata: { kind: 'plain' } }));
    assert.deepEqual(meta.map((p) => p.id), [plain.id]);
    await c.createRun({ id: crypto.randomUUID(), name: 'r', run_type: 'chain', inputs: {}, project_name: 'proj-filter-plain' });
    await c.createRun({ id: crypto.randomUUID(), name: 'r', run_type: 'chain', inputs: {}, project_name: 'proj-filter-plain', error: 'bad' } as any);
    const stats = await collect(c.listProjects({ name: 'proj-filter-plain', includeStats: true }));
    assert.equal(stats[0].run_count, 2);
    assert.equal((stats[0] as any).error_rate, 0.5);
  });

  it('PATCH /sessions/{id} renames and ends; rename onto another name is 409', async () => {
    const c = client(srv());
    const p = await c.createProject({ projectName: 'proj-patch' });
    await c.createProject({ projectName: 'proj-taken' });
    const end = new Date();
    const u = await c.updateProject(p.id, { name: 'proj-patched', endTime: end.toISOString(), description: 'd' });
    assert.equal(u.name, 'proj-patched');
    assert.equal(new Date(u.end_time!).getTime(), end.getTime());
    await assert.rejects(c.updateProject(p.id, { name: 'proj-taken' }), /409/);
  });

  it('DELETE /sessions/{id} removes the project and its runs', async () => {
    const c = client(srv());
    const p = await c.createProject({ projectName: 'proj-del' });
    const runId = crypto.randomUUID();
    await c.createRun({ id: runId, name: 'r', run_type: 'chain', inputs: {}, project_name: 'proj-del' });
    await c.deleteProject({ projectId: p.id });
    await assert.rejects(c.readProject({ projectId: p.id }), /404/);
    assert.equal((await rawRequest(srv(), 'GET', `/runs/${runId}`)).status, 404);
  });

  it('project and dataset page links resolve on the server (getProjectUrl/getDatasetUrl)', async () => {
    // The official client maps a localhost API to :3000; our pages live on the server itself.
    const c = new Client({ apiUrl: srv().url, apiKey: srv().apiKey, webUrl: srv().url });
    const p = await c.readProject({ projectName: 'proj-read' });
    const url = await c.getProjectUrl({ projectId: p.id });
    assert.equal(url, `${srv().url}/o/${srv().tenantId}/projects/p/${p.id}`);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /proj-read/);
    const ds = await c.createDataset('proj-page-ds <b>&</b>');
    const durl = await c.getDatasetUrl({ datasetId: ds.id });
    const dres = await fetch(durl);
    const html = await dres.text();
    assert.equal(dres.status, 200);
    assert.ok(html.includes('proj-page-ds &lt;b&gt;&amp;&lt;/b&gt;'), 'text is escaped');
    assert.equal((await fetch(`${srv().url}/o/${srv().otherTenantId}/projects/p/${p.id}`)).status, 404, 'not under another tenant');
  });
});
