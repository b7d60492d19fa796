import assert from 'node:assert/strict';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { client } from './helpers';

describe('server core: info, settings, auth, prefixes, errors', () => {
  const srv = withLocalServer();

  it('GET /info reports multipart examples and batch ingest config', async () => {
    const r = await rawRequest(srv(), 'GET', '/info', undefined, { apiKey: null });
    assert.equal(r.status, 200);
    assert.equal(r.body.instance_flags.dataset_examples_multipart_enabled, true);
    assert.equal(r.body.batch_ingest_config.use_multipart_endpoint, true);
    assert.ok(r.body.batch_ingest_config.size_limit_bytes > 0);
  });

  it('GET /settings gives the tenant handle and id, per API key', async () => {
    const a = await rawRequest(srv(), 'GET', '/settings');
    const b = await rawRequest(srv(), 'GET', '/settings', undefined, { apiKey: srv().otherApiKey });
    assert.equal(a.body.tenant_handle, 'local');
    assert.equal(a.body.id, srv().tenantId);
    assert.equal(b.body.tenant_handle, 'other');
    assert.equal(b.body.id, srv().otherTenantId);
  });

  it('401 without a key or with a wrong one, in the {"detail"} shape', async () => {
    const missing = await rawRequest(srv(), 'GET', '/sessions', undefined, { apiKey: null });
    const wrong = await rawRequest(srv(), 'GET', '/sessions', undefined, { apiKey: 'nope' });
    assert.equal(missing.status, 401);
    assert.equal(wrong.status, 401);
    assert.equal(typeof missing.body.detail, 'string');
    // The official client surfaces it as an error naming the action and status.
    await assert.rejects(client(srv(), { apiKey: 'nope' }).readProject({ projectName: 'x' }), /401/);
  });

  it("403 for an x-tenant-id the key doesn't belong to; its own id is fine", async () => {
    const other = await rawRequest(srv(), 'GET', '/sessions', undefined, { headers: { 'x-tenant-id': srv().otherTenantId } });
    assert.equal(other.status, 403);
    const own = await rawRequest(srv(), 'GET', '/sessions', undefined, { headers: { 'x-tenant-id': srv().tenantId } });
    assert.equal(own.status, 200);
    const c = client(srv(), { workspaceId: srv().otherTenantId });
    await assert.rejects(c.createDataset('forbidden-ds'), /403/);
  });

  it('serves the API at the root and under /api/v1, the same data', async () => {
    const c1 = client(srv());
    const c2 = client(srv(), { prefix: '/api/v1' });
    const ds = await c1.createDataset('prefix-check');
    const read = await c2.readDataset({ datasetId: ds.id });
    assert.equal(read.name, 'prefix-check');
    // Multipart examples through /api/v1 go to /api/v1/platform/…
    const [ex] = await c2.createExamples([{ dataset_id: ds.id, inputs: { a: 1 } }]);
    assert.deepEqual(ex.inputs, { a: 1 });
  });

  it('malformed JSON → 400 with a detail, never 500', async () => {
    const r = await rawRequest(srv(), 'POST', '/datasets', undefined, { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /JSON/i);
  });

  it('unknown fields and wrong types → 422 naming the field; nothing is written', async () => {
    const unknown = await rawRequest(srv(), 'POST', '/datasets', { name: 'strict-1', colour: 'red' });
    assert.equal(unknown.status, 422);
    assert.match(unknown.body.detail, /colour/);
    const wrongType = await rawRequest(srv(), 'POST', '/datasets', { name: 42 });
    assert.equal(wrongType.status, 422);
    assert.match(wrongType.body.detail, /name/);
    const list = await rawRequest(srv(), 'GET', '/datasets?name=strict-1');
    assert.deepEqual(list.body, []);
  });

  it('bad ids → 422, unknown ids → 404', async () => {
    assert.equal((await rawRequest(srv(), 'GET', '/datasets/not-a-uuid')).status, 422);
    assert.equal((await rawRequest(srv(), 'GET', '/runs/123')).status, 422);
    assert.equal((await rawRequest(srv(), 'GET', '/datasets/00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await rawRequest(srv(), 'GET', '/no/such/path')).status, 404);
  });

  it('malformed multipart → 4xx and no half-written examples', async () => {
    const ds = await client(srv()).createDataset('multipart-bad');
    const boundary = 'XBOUNDARY';
    const good = crypto.randomUUID();
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="${good}"\r\nContent-Type: application/json\r\n\r\n{}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="${good}.inputs"\r\nContent-Type: application/json\r\n\r\n{"q":1}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="not-an-id.inputs"\r\nContent-Type: application/json\r\n\r\n{"q":2}\r\n--${boundary}--\r\n`;
    const r = await rawRequest(srv(), 'POST', `/v1/platform/datasets/${ds.id}/examples`, undefined, {
      rawBody: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.equal(r.status, 422);
    const truncated = await rawRequest(srv(), 'POST', `/v1/platform/datasets/${ds.id}/examples`, undefined, {
      rawBody: `--${boundary}\r\nContent-Disposition: form-data; name="${good}.inputs"\r\n\r\n{"q"`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.ok(truncated.status >= 400 && truncated.status < 500, `status ${truncated.status}`);
    const list = await rawRequest(srv(), 'GET', `/examples?dataset=${ds.id}`);
    assert.deepEqual(list.body, []);
  });
});

describe('server core: --no-multipart-examples', () => {
  const srv = withLocalServer({ multipartExamples: false });
  it("makes /info say so, and the official client refuses to create examples", async () => {
    const info = await rawRequest(srv(), 'GET', '/info');
    assert.equal(info.body.instance_flags.dataset_examples_multipart_enabled, false);
    const c = client(srv());
    const ds = await c.createDataset('old-deployment');
    await assert.rejects(
      c.createExamples([{ dataset_id: ds.id, inputs: { a: 1 } }]),
      /does not allow using the multipart examples endpoint/,
    );
  });
});

describe('server core: custom tenants through the test harness', () => {
  const srv = withLocalServer({ tenants: [{ handle: 'acme', apiKey: 'acme-key' }, { handle: 'beta', apiKey: 'beta-key' }] });
  it('uses the first two tenants as apiKey/otherApiKey, with matching ids; default keys are refused', async () => {
    assert.equal(srv().apiKey, 'acme-key');
    const a = await rawRequest(srv(), 'GET', '/settings');
    const b = await rawRequest(srv(), 'GET', '/settings', undefined, { apiKey: srv().otherApiKey });
    assert.deepEqual([a.body.tenant_handle, a.body.id], ['acme', srv().tenantId]);
    assert.deepEqual([b.body.tenant_handle, b.body.id], ['beta', srv().otherTenantId]);
    assert.equal((await rawRequest(srv(), 'GET', '/settings', undefined, { apiKey: 'local-dev-key' })).status, 401);
  });
});
