// Keys and binding: the API key lookup does not leak by timing, and the server stays on loopback unless told.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { KeyRing, type Tenant, type User } from '../../server/context';
import { DEFAULT_TENANTS, isLoopbackHost, remoteWarning, startServer } from '../../server/index';
import { withLocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';

const tenant = (handle: string, apiKey: string): Tenant => ({ id: `id-${handle}`, handle, apiKey, displayName: handle });
const userOf = (t: Tenant, name = 'you', apiKey = t.apiKey): User => ({ id: `id-${t.handle}-${name}`, tenant: t, name, apiKey });

describe('API keys: constant-time lookup (KeyRing)', () => {
  const a = tenant('a', 'local-dev-key');
  const b = tenant('b', 'local-other-key');
  const ring = new KeyRing([userOf(a), userOf(b)]);

  it('finds the tenant of the right key', () => {
    assert.equal(ring.tenantOf('local-dev-key'), a);
    assert.equal(ring.tenantOf('local-other-key'), b);
  });

  it('finds the user of each key of a workspace with several', () => {
    const you = userOf(a);
    const reviewer = userOf(a, 'reviewer', 'local-reviewer-key');
    const r = new KeyRing([you, reviewer, userOf(b)]);
    assert.equal(r.userOf('local-dev-key'), you);
    assert.equal(r.userOf('local-reviewer-key'), reviewer);
    assert.equal(r.tenantOf('local-reviewer-key'), a);
    assert.equal(r.userOf('local-reviewer-ke'), undefined);
  });

  it('finds nothing for a wrong key of the same length, a prefix, a longer key, a case change', () => {
    for (const k of ['local-dev-kez', 'Local-dev-key', 'local-dev-ke', 'local-dev-key ', 'local-dev-keyy', 'local-other-ke', 'x'.repeat(10_000)]) {
      assert.equal(ring.tenantOf(k), undefined, JSON.stringify(k.slice(0, 20)));
    }
  });

  it('finds nothing for an empty key or a non-string', () => {
    assert.equal(ring.tenantOf(''), undefined);
    for (const k of [undefined, null, 0, ['local-dev-key'], { toString: () => 'local-dev-key' }]) assert.equal(ring.tenantOf(k), undefined);
  });

  it('compares unicode keys by their bytes', () => {
    const u = tenant('u', 'clé-😀');
    const r = new KeyRing([userOf(u)]);
    assert.equal(r.tenantOf('clé-😀'), u);
    assert.equal(r.tenantOf('cle\u0301-😀'), undefined, 'another normalization is another key');
  });

  it('compares 32-byte HMACs with every entry, whichever tenant (or none) matches', () => {
    const entries = (ring as unknown as { entries: Array<{ hash: Buffer }> }).entries;
    assert.equal(entries.length, 2);
    for (const e of entries) assert.equal(e.hash.length, 32);
    // Each lookup does the same work: count the timingSafeEqual calls (no Map on the key, no early exit).
    const original = crypto.timingSafeEqual;
    let calls = 0;
    crypto.timingSafeEqual = ((x: NodeJS.ArrayBufferView, y: NodeJS.ArrayBufferView) => {
      calls++;
      return original(x, y);
    }) as typeof crypto.timingSafeEqual;
    try {
      const counts = ['local-dev-key', 'local-other-key', 'wrong-key-xxxxx', 'short'].map((k) => {
        calls = 0;
        ring.tenantOf(k);
        return calls;
      });
      assert.deepEqual(counts, [2, 2, 2, 2]);
    } finally {
      crypto.timingSafeEqual = original;
    }
  });

  describe('through the server', () => {
    const srv = withLocalServer();
    it('right key → 200; wrong key of the same length, other length, empty, Bearer → as expected', async () => {
      assert.equal((await rawRequest(srv(), 'GET', '/settings')).status, 200);
      assert.equal((await rawRequest(srv(), 'GET', '/settings', undefined, { apiKey: 'local-dev-kez' })).status, 401);
      assert.equal((await rawRequest(srv(), 'GET', '/settings', undefined, { apiKey: 'local-dev-key-and-more' })).status, 401);
      assert.equal((await rawRequest(srv(), 'GET', '/settings', undefined, { apiKey: '' })).status, 401);
      const bearer = await rawRequest(srv(), 'GET', '/settings', undefined, { apiKey: null, headers: { authorization: 'Bearer local-other-key' } });
      assert.equal(bearer.status, 200);
      assert.equal(bearer.body.tenant_handle, 'other');
      const reviewer = await rawRequest(srv(), 'GET', '/settings', undefined, { apiKey: srv().reviewerApiKey });
      assert.equal(reviewer.body.tenant_handle, 'local', 'the second key of a workspace reaches the same workspace');
      assert.equal(srv().reviewerApiKey, 'local-reviewer-key');
    });

    it('lists the workspace members, one per key, with stable ids', async () => {
      const res = await rawRequest(srv(), 'GET', '/api/v1/workspaces/current/members', undefined, { apiKey: srv().reviewerApiKey });
      assert.equal(res.status, 200);
      assert.equal(res.body.tenant_id, srv().tenantId);
      assert.deepEqual(res.body.members.map((m: { id: string; full_name: string }) => [m.id, m.full_name]), [[srv().userId, 'you'], [srv().reviewerUserId, 'reviewer']]);
      assert.deepEqual(res.body.pending, []);
      const other = await rawRequest(srv(), 'GET', '/workspaces/current/members', undefined, { apiKey: srv().otherApiKey });
      assert.equal(other.body.members.length, 1);
    });
  });
});

describe('binding: loopback unless allowRemote', () => {
  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '[::1]', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST', 'localhost.']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', '::ffff:10.0.0.1', 'example.com', 'localhost.example.com', '128.0.0.1', '', '1.127.0.0']) assert.ok(!isLoopbackHost(h), h);
  });

  it('startServer refuses a non-loopback host without allowRemote, before opening anything', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com']) {
      await assert.rejects(startServer({ host, port: 0, quiet: true }), (e: Error) => {
        assert.match(e.message, new RegExp(`refusing to listen on ${host.replace(/\./g, '\\.')}: it is not a loopback address`));
        assert.match(e.message, /allowRemote/);
        return true;
      });
    }
  });

  it('startServer on loopback (default, localhost, 127.0.0.1) says nothing', async () => {
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      for (const host of [undefined, 'localhost', '127.0.0.1']) {
        const srv = await startServer({ host, port: 0, quiet: true });
        await srv.close();
      }
    } finally {
      process.stderr.write = write;
    }
    assert.deepEqual(written.filter((w) => /WARNING/.test(w)), []);
  });

  it('with allowRemote it listens and warns on stderr: no TLS, the demo keys, reachable from the network', async () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    let srv: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      srv = await startServer({ host: '0.0.0.0', allowRemote: true, port: 0, quiet: true });
    } finally {
      process.stderr.write = write;
    }
    try {
      const text = written.join('');
      assert.match(text, /WARNING: listening on 0\.0\.0\.0:\d+, which is reachable from the network/);
      assert.match(text, /no TLS/);
      assert.match(text, /well-known demo keys \(local-dev-key, local-reviewer-key, local-other-key\)/);
      // Still answers on loopback.
      assert.equal((await fetch(`${srv.url}/info`)).status, 200);
    } finally {
      await srv?.close();
    }
  });

  it('the warning names demo keys only when they are in use', () => {
    assert.match(remoteWarning('0.0.0.0', 1, DEFAULT_TENANTS), /demo keys/);
    const own = remoteWarning('0.0.0.0', 1, [{ apiKey: 'long-random-secret' }]);
    assert.doesNotMatch(own, /demo keys/);
    assert.doesNotMatch(own, /long-random-secret/);
    assert.match(own, /no TLS/);
  });
});
