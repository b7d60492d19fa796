import assert from 'node:assert/strict';
import { LangSmithClient, LangSmithError } from '../../src/client';
import { withLocalServer } from '../harness/localServer';
import { clientFor, unique } from './_server';

describe('client ↔ local server: links', () => {
  const srv = withLocalServer();
  const empty = withLocalServer({ tenants: [{ handle: 'empty', apiKey: 'empty-key' }] });

  it('raises No projects found to resolve tenant. when the tenant has no project', async () => {
    const c = new LangSmithClient({ apiUrl: empty().url, apiKey: 'empty-key' });
    await assert.rejects(c.links.tenantId(), (e: unknown) => {
      assert.ok(e instanceof LangSmithError);
      assert.equal(e.message, 'No projects found to resolve tenant.');
      return true;
    });
  });

  it('builds project and dataset page links with the tenant id from the projects listing; the pages exist', async () => {
    const c = clientFor(srv());
    const p = await c.projects.create({ name: unique('page') });
    const ds = await c.datasets.create({ name: unique('page') });
    const tenant = p.tenant_id!;
    assert.equal(await c.links.tenantId(), tenant);
    const projectLink = await c.links.project({ projectName: p.name });
    assert.equal(projectLink, `${srv().url}/o/${tenant}/projects/p/${p.id}`);
    assert.equal(await c.links.project({ projectId: p.id }), projectLink);
    const datasetLink = await c.links.dataset({ datasetName: ds.name });
    assert.equal(datasetLink, `${srv().url}/o/${tenant}/datasets/${ds.id}`);
    for (const link of [projectLink, datasetLink]) {
      const res = await fetch(link, { headers: { 'x-api-key': srv().apiKey } });
      assert.ok(res.status < 400, `${link} answered ${res.status}`);
    }
  });

  it('accepts an …/api/v1 endpoint and keeps the host for links; webUrl overrides', async () => {
    const c = clientFor(srv(), { apiUrl: `${srv().url}/api/v1` });
    assert.equal(c.webUrl, srv().url);
    const p = await c.projects.create({ name: unique('v1') });
    assert.equal(await c.links.project({ projectId: p.id }), `${srv().url}/o/${p.tenant_id}/projects/p/${p.id}`);
    const ds = await c.datasets.create({ name: unique('v1') });
    const made = await c.examples.create({ datasetId: ds.id, examples: [{ inputs: { a: 1 } }] });
    assert.equal(made.count, 1);
    const share = await c.datasets.share({ datasetId: ds.id });
    assert.equal(share.url, `${srv().url}/public/${share.share_token}/d`);
    const custom = clientFor(srv(), { webUrl: 'https://ui.example.com' });
    assert.equal((await custom.datasets.share({ datasetId: ds.id })).url, `https://ui.example.com/public/${share.share_token}/d`);
  });
});
