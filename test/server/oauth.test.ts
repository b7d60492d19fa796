// OAuth logins (`langsmith login` profiles): the metadata document, the refresh_token grant, bearer access tokens
// next to API keys — and the official client 0.10.5 signing in through a profile file that holds only a login.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'langsmith';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';

interface Tokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

describe('server: OAuth logins', () => {
  const srv = withLocalServer();
  const issue = async (expiresIn?: number): Promise<Tokens> => {
    const res = await rawRequest(srv(), 'POST', '/__local/oauth/tokens', expiresIn === undefined ? {} : { expires_in: expiresIn });
    assert.equal(res.status, 200, res.text);
    return res.body as Tokens;
  };
  const bearer = (token: string) => ({ apiKey: null, headers: { authorization: `Bearer ${token}` } });
  const grant = (form: Record<string, string>) =>
    rawRequest(srv(), 'POST', '/oauth/token', undefined, { apiKey: null, headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody: new URLSearchParams(form).toString() });

  it('serves the authorization server metadata: issuer is the server, its endpoints on the same origin, no key needed', async () => {
    const res = await rawRequest(srv(), 'GET', '/.well-known/oauth-authorization-server', undefined, { apiKey: null });
    assert.equal(res.status, 200);
    assert.equal(res.body.issuer, srv().url);
    assert.equal(res.body.token_endpoint, `${srv().url}/oauth/token`);
    assert.equal(new URL(res.body.device_authorization_endpoint).origin, srv().url);
    assert.deepEqual(res.body.grant_types_supported, ['refresh_token']);
  });

  it('an issued access token acts as its user, in place of the API key', async () => {
    const t = await issue();
    assert.equal(t.token_type, 'Bearer');
    assert.equal(t.expires_in, 3600);
    const res = await rawRequest(srv(), 'GET', '/settings', undefined, bearer(t.access_token));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, srv().tenantId);
  });

  it('API keys work as before, in x-api-key and as a bearer', async () => {
    assert.equal((await rawRequest(srv(), 'GET', '/settings')).status, 200);
    assert.equal((await rawRequest(srv(), 'GET', '/settings', undefined, bearer(srv().apiKey))).status, 200);
    const wrong = await rawRequest(srv(), 'GET', '/settings', undefined, bearer('lsw_at_not-issued'));
    assert.deepEqual([wrong.status, wrong.body.detail], [401, 'Unauthorized: invalid API key']);
  });

  it('an expired access token is refused with a 401 saying so', async () => {
    const t = await issue(0);
    const res = await rawRequest(srv(), 'GET', '/settings', undefined, bearer(t.access_token));
    assert.deepEqual([res.status, res.body.detail], [401, 'Unauthorized: the access token has expired']);
    assert.match(res.headers.get('www-authenticate') ?? '', /invalid_token/);
  });

  it('the refresh_token grant gives a new pair and uses the refresh token up', async () => {
    const t = await issue(0);
    const res = await grant({ grant_type: 'refresh_token', client_id: 'langsmith-cli', refresh_token: t.refresh_token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const fresh = res.body as Tokens;
    assert.notEqual(fresh.access_token, t.access_token);
    assert.notEqual(fresh.refresh_token, t.refresh_token);
    assert.equal((await rawRequest(srv(), 'GET', '/settings', undefined, bearer(fresh.access_token))).status, 200);
    const again = await grant({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
    assert.equal(again.status, 400);
    assert.equal(again.body.error, 'invalid_grant');
    // JSON bodies are read too.
    const json = await rawRequest(srv(), 'POST', '/oauth/token', { grant_type: 'refresh_token', refresh_token: fresh.refresh_token }, { apiKey: null });
    assert.equal(json.status, 200, json.text);
  });

  it('token requests that cannot be granted get OAuth errors', async () => {
    assert.equal((await grant({})).body.error, 'invalid_request');
    assert.equal((await grant({ grant_type: 'password', username: 'x' })).body.error, 'unsupported_grant_type');
    assert.equal((await grant({ grant_type: 'refresh_token' })).body.error, 'invalid_request');
    const unknown = await grant({ grant_type: 'refresh_token', refresh_token: 'lsw_rt_unknown' });
    assert.deepEqual([unknown.status, unknown.body.error], [400, 'invalid_grant']);
    const device = await rawRequest(srv(), 'POST', '/oauth/device/code', undefined, { apiKey: null });
    assert.equal(device.status, 400);
  });

  it('issuing tokens needs an API key', async () => {
    const res = await rawRequest(srv(), 'POST', '/__local/oauth/tokens', {}, { apiKey: null });
    assert.equal(res.status, 401);
  });

  describe('the official client 0.10.5 with a profile that has only a login (LANGSMITH_CONFIG_FILE)', () => {
    let dir: string;
    const saved: Record<string, string | undefined> = {};
    const vars = ['LANGSMITH_CONFIG_FILE', 'LANGSMITH_PROFILE', 'LANGSMITH_API_KEY', 'LANGCHAIN_API_KEY', 'LANGSMITH_ENDPOINT', 'LANGCHAIN_ENDPOINT', 'LANGSMITH_WORKSPACE_ID'];
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-oauth-'));
      for (const v of vars) {
        saved[v] = process.env[v];
        delete process.env[v];
      }
    });
    after(() => {
      for (const v of vars) {
        if (saved[v] === undefined) delete process.env[v];
        else process.env[v] = saved[v];
      }
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('refreshes an expired access token at the token endpoint, writes it back and makes its calls', async () => {
      const t = await issue(0);
      const file = path.join(dir, 'config.json');
      const expired = new Date(Date.now() - 60_000).toISOString();
      fs.writeFileSync(file, JSON.stringify({ current_profile: 'dev', profiles: { dev: { api_url: srv().url, oauth: { access_token: t.access_token, refresh_token: t.refresh_token, expires_at: expired } } } }));
      process.env['LANGSMITH_CONFIG_FILE'] = file;
      const client = new Client({ autoBatchTracing: false, timeout_ms: 20_000 });
      const name = `oauth-official-${Date.now()}`;
      const dataset = await client.createDataset(name);
      assert.equal((await client.readDataset({ datasetName: name })).id, dataset.id);
      const written = JSON.parse(fs.readFileSync(file, 'utf8')).profiles.dev.oauth;
      assert.notEqual(written.access_token, t.access_token, 'the refreshed token is written back');
      assert.notEqual(written.refresh_token, t.refresh_token, 'the new refresh token is written back');
      assert.ok(Date.parse(written.expires_at) > Date.now() + 3_000_000, written.expires_at);
      // The written token is one this server accepts, for the profile's user.
      const res = await rawRequest(srv(), 'GET', '/settings', undefined, bearer(written.access_token));
      assert.equal(res.body.id, srv().tenantId);
    });
  });
});
