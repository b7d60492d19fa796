// Requests made with the OAuth login of a LangSmith CLI profile (`langsmith login`), against the local server over
// HTTP: the bearer token read from the profiles file, renewed before it expires or after a 401, the renewed pair
// written back to the file (shared with the CLI), one renewal at a time, and clear errors that name no token.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LangSmithAuthError, LangSmithClient, ProfileLoginAuth } from '../../src/client';
import { rawRequest } from '../harness/http';
import { withLocalServer } from '../harness/localServer';

interface Tokens {
  access_token: string;
  refresh_token: string;
}

describe('client ↔ local server: sign-in with a CLI profile login', () => {
  const srv = withLocalServer();
  let dir: string;
  let file: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-profile-login-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  beforeEach(function () {
    file = path.join(dir, `${this.currentTest!.title.replace(/\W+/g, '-').slice(0, 40)}.json`);
  });

  const issue = async (expiresIn: number): Promise<Tokens> => (await rawRequest(srv(), 'POST', '/__local/oauth/tokens', { expires_in: expiresIn })).body as Tokens;
  const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
  const writeProfile = (oauth: Record<string, string>, extra: Record<string, unknown> = {}) =>
    fs.writeFileSync(file, JSON.stringify({ current_profile: 'other', profiles: { dev: { api_url: `${srv().url}/api/v1`, oauth }, other: { api_key: 'kept-as-is' } }, ...extra }, null, 2));
  const onFile = () => JSON.parse(fs.readFileSync(file, 'utf8')) as { current_profile: string; profiles: Record<string, { oauth?: Record<string, string>; api_key?: string; api_url?: string }> };

  /** A client on the profile's login, recording each request's path and auth headers. */
  function clientOn(auth: ProfileLoginAuth) {
    const seen: { path: string; authorization: string | null; apiKey: string | null }[] = [];
    const recording = ((input: string | URL | Request, init?: RequestInit) => {
      const h = new Headers(init?.headers);
      seen.push({ path: new URL(String(input)).pathname, authorization: h.get('authorization'), apiKey: h.get('x-api-key') });
      return fetch(input, init);
    }) as typeof fetch;
    const client = new LangSmithClient({ apiUrl: `${srv().url}/api/v1`, auth, fetch: recording, retryBaseDelayMs: 5 });
    return { client, seen };
  }

  it('an expired access token is renewed through the discovered token endpoint, written back, and the call succeeds', async () => {
    const t = await issue(0);
    writeProfile({ access_token: t.access_token, refresh_token: t.refresh_token, expires_at: inSeconds(-60) });
    const auth = new ProfileLoginAuth({ file, profile: 'dev' });
    const { client, seen } = clientOn(auth);
    assert.equal((await client.settings()).id, srv().tenantId);
    assert.equal(auth.renewals, 1);
    assert.deepEqual(
      seen.map((s) => s.path),
      ['/.well-known/oauth-authorization-server', '/oauth/token', '/api/v1/settings'],
    );
    // The token request carries no credentials but the refresh token; the call carries the bearer, no key.
    assert.deepEqual([seen[1]!.authorization, seen[1]!.apiKey], [null, null]);
    const written = onFile();
    const oauth = written.profiles['dev']!.oauth!;
    assert.equal(seen[2]!.authorization, `Bearer ${oauth['access_token']}`);
    assert.equal(seen[2]!.apiKey, null);
    assert.notEqual(oauth['access_token'], t.access_token);
    assert.notEqual(oauth['refresh_token'], t.refresh_token, 'the new refresh token is kept (the old one is used up)');
    assert.ok(Date.parse(oauth['expires_at']!) > Date.now() + 3_500_000);
    // The rest of the file is as it was.
    assert.equal(written.current_profile, 'other');
    assert.equal(written.profiles['other']!.api_key, 'kept-as-is');
    assert.equal(written.profiles['dev']!.api_url, `${srv().url}/api/v1`);
    if (process.platform !== 'win32') assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.includes('lock') || f.endsWith('.tmp')), [], 'no lock or temporary file left');
    // A further call uses the renewed token as it is.
    await client.datasets.list({ limit: 1 }).next();
    assert.equal(auth.renewals, 1);
  });

  it('a token that is still good is used as it is; one within a minute of expiring is renewed first', async () => {
    const good = await issue(3600);
    writeProfile({ access_token: good.access_token, refresh_token: good.refresh_token, expires_at: inSeconds(3600) });
    const auth = new ProfileLoginAuth({ file, profile: 'dev' });
    assert.equal((await clientOn(auth).client.settings()).id, srv().tenantId);
    assert.equal(auth.renewals, 0);
    assert.equal(onFile().profiles['dev']!.oauth!['access_token'], good.access_token, 'the file is not written');

    const soon = await issue(30);
    writeProfile({ access_token: soon.access_token, refresh_token: soon.refresh_token, expires_at: inSeconds(30) });
    const auth2 = new ProfileLoginAuth({ file, profile: 'dev' });
    await clientOn(auth2).client.settings();
    assert.equal(auth2.renewals, 1);
  });

  it('a profile with only a refresh token gets its access token first', async () => {
    const t = await issue(3600);
    writeProfile({ refresh_token: t.refresh_token });
    const auth = new ProfileLoginAuth({ file, profile: 'dev' });
    assert.equal((await clientOn(auth).client.settings()).id, srv().tenantId);
    assert.ok(onFile().profiles['dev']!.oauth!['access_token']);
  });

  it('a refused refresh token is a clear auth error naming the profile and the file, not a token; the file is left alone', async () => {
    writeProfile({ access_token: 'lsw_at_gone', refresh_token: 'lsw_rt_revoked', expires_at: inSeconds(-10) });
    const before = fs.readFileSync(file, 'utf8');
    const auth = new ProfileLoginAuth({ file, profile: 'dev' });
    const err = await clientOn(auth).client.settings().then(
      () => assert.fail('expected an error'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof LangSmithAuthError, String(err));
    assert.equal(err.status, 401);
    assert.equal(err.message, `LangSmith refused to renew the login of profile "dev" in ${file} (400 invalid_grant). Run \`langsmith login\` again, or sign in with an API key.`);
    assert.ok(!/lsw_(at|rt)_/.test(err.message));
    assert.equal(fs.readFileSync(file, 'utf8'), before);
  });

  it('two concurrent calls renew once', async () => {
    const t = await issue(0);
    writeProfile({ access_token: t.access_token, refresh_token: t.refresh_token, expires_at: inSeconds(-5) });
    const auth = new ProfileLoginAuth({ file, profile: 'dev' });
    const { client, seen } = clientOn(auth);
    const [a, b] = await Promise.all([client.settings(), client.datasets.list({ limit: 1 }).next()]);
    assert.equal(a.id, srv().tenantId);
    assert.ok(b);
    assert.equal(auth.renewals, 1);
    assert.equal(seen.filter((s) => s.path === '/oauth/token').length, 1);
  });

  it('two programs sharing the file (two clients here) renew once: the second takes up the token the first wrote', async () => {
    const t = await issue(0);
    writeProfile({ access_token: t.access_token, refresh_token: t.refresh_token, expires_at: inSeconds(-5) });
    const one = new ProfileLoginAuth({ file, profile: 'dev' });
    const two = new ProfileLoginAuth({ file, profile: 'dev' });
    const [a, b] = await Promise.all([clientOn(one).client.settings(), clientOn(two).client.settings()]);
    assert.deepEqual([a.id, b.id], [srv().tenantId, srv().tenantId]);
    assert.equal(one.renewals + two.renewals, 1);
  });

  it('a 401 to a token the file calls valid: renewed once and the call made again', async () => {
    // The server has let this token expire; the file still says it is good for an hour.
    const t = await issue(0);
    writeProfile({ access_token: t.access_token, refresh_token: t.refresh_token, expires_at: inSeconds(3600) });
    const auth = new ProfileLoginAuth({ file, profile: 'dev' });
    const { client, seen } = clientOn(auth);
    const created = await client.datasets.create({ name: `after-401-${Date.now()}` });
    assert.ok(created.id);
    assert.equal(auth.renewals, 1);
    assert.deepEqual(
      seen.map((s) => s.path),
      ['/api/v1/datasets', '/.well-known/oauth-authorization-server', '/oauth/token', '/api/v1/datasets'],
    );
  });

  it('a 401 with no refresh token to renew with: an auth error naming the login, not the token', async () => {
    writeProfile({ access_token: 'lsw_at_never_issued', expires_at: inSeconds(3600) });
    const auth = new ProfileLoginAuth({ file, profile: 'dev' });
    const err = await clientOn(auth).client.settings().then(
      () => assert.fail('expected an error'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof LangSmithAuthError);
    assert.match(err.message, /^LangSmith refused the login of profile "dev" in .*: it has no refresh token\. Run `langsmith login` again/);
    assert.ok(!err.message.includes('lsw_at_never_issued'));
  });

  it('a refusal by the server names the login it refused (here a workspace the login is not in)', async () => {
    const t = await issue(3600);
    writeProfile({ access_token: t.access_token, refresh_token: t.refresh_token, expires_at: inSeconds(3600) });
    const auth = new ProfileLoginAuth({ file, profile: 'dev' });
    const client = new LangSmithClient({ apiUrl: srv().url, auth, workspaceId: srv().otherTenantId });
    const err = await client.settings().catch((e: unknown) => e);
    assert.ok(err instanceof LangSmithAuthError);
    assert.equal(err.status, 403);
    assert.match(err.message, new RegExp(`does not belong to workspace .*\\n\\(with the login of profile "dev" in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`));
    assert.equal(auth.renewals, 0, 'a 403 is not mended by a renewal');
  });

  it('a profile removed from the file, or a file gone: an error naming both', async () => {
    writeProfile({ access_token: 'x' });
    const err = await clientOn(new ProfileLoginAuth({ file, profile: 'nope' })).client.settings().catch((e: unknown) => e);
    assert.ok(err instanceof LangSmithAuthError);
    assert.equal(err.message, `Cannot use the login of profile "nope" in ${file}: has no profile "nope"`);
    fs.rmSync(file);
    const gone = await clientOn(new ProfileLoginAuth({ file, profile: 'dev' })).client.settings().catch((e: unknown) => e);
    assert.equal((gone as Error).message, `Cannot use the login of profile "dev" in ${file}: no longer exists`);
  });

  it('a lock left behind by a program that stopped is broken after ten seconds; a fresh one is waited for', async () => {
    const t = await issue(0);
    writeProfile({ access_token: t.access_token, refresh_token: t.refresh_token, expires_at: inSeconds(-5) });
    const lock = `${file}.oauth.lock.lock`;
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'created_at'), `${new Date(Date.now() - 60_000).toISOString()}\nsomeone-else\n`);
    const auth = new ProfileLoginAuth({ file, profile: 'dev' });
    assert.equal((await clientOn(auth).client.settings()).id, srv().tenantId);
    assert.equal(fs.existsSync(lock), false);

    // A live lock: the renewal waits until it is released.
    const t2 = await issue(0);
    writeProfile({ access_token: t2.access_token, refresh_token: t2.refresh_token, expires_at: inSeconds(-5) });
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'created_at'), `${new Date().toISOString()}\nsomeone-else\n`);
    const started = Date.now();
    setTimeout(() => fs.rmSync(lock, { recursive: true, force: true }), 300);
    await clientOn(new ProfileLoginAuth({ file, profile: 'dev' })).client.settings();
    assert.ok(Date.now() - started >= 280, `waited ${Date.now() - started} ms`);
  });

  it('without a metadata document the token endpoint is <api root>/oauth/token', async () => {
    const t = await issue(0);
    writeProfile({ access_token: t.access_token, refresh_token: t.refresh_token, expires_at: inSeconds(-5) });
    // A fetch that hides the metadata document (as a deployment without one would).
    const seen: string[] = [];
    const hiding = ((input: string | URL | Request, init?: RequestInit) => {
      const u = new URL(String(input));
      seen.push(u.pathname);
      if (u.pathname.startsWith('/.well-known/') || u.pathname.startsWith('/api/.well-known/')) return Promise.resolve(new Response('<html>app</html>', { status: 200 }));
      return fetch(input, init);
    }) as typeof fetch;
    const auth = new ProfileLoginAuth({ file, profile: 'dev' });
    const client = new LangSmithClient({ apiUrl: `${srv().url}/api/v1`, auth, fetch: hiding });
    assert.equal((await client.settings()).id, srv().tenantId);
    assert.deepEqual(seen, [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-authorization-server/api',
      '/api/.well-known/oauth-authorization-server',
      '/oauth/token',
      '/api/v1/settings',
    ]);
  });

  it('an API key and a login cannot be given together', () => {
    assert.throws(() => new LangSmithClient({ apiKey: 'k', auth: new ProfileLoginAuth({ file, profile: 'dev' }) }), /either apiKey or auth/);
  });
});
