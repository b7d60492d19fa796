// Test helper: the local LangSmith-compatible server on a free loopback port with an in-memory database.
//
// Stable contract (used by test/server and by the API client's tests):
//
//   import { startTestServer, withLocalServer } from '../harness/localServer';
//
//   const srv = await startTestServer();        // options as startServer's, minus port/host/db
//                                               // (tenants: the first two become apiKey/otherApiKey)
//   srv.url          // 'http://127.0.0.1:PORT' (also serves /api/v1/…)
//   srv.apiKey       // key of tenant 'local'  ('local-dev-key')
//   srv.otherApiKey  // key of tenant 'other'  ('local-other-key')
//   srv.tenantId / srv.otherTenantId   // the two workspace ids (for x-tenant-id)
//   await srv.close();
//
//   // or in a mocha suite: before/after hooks managed for you
//   describe('x', () => { const srv = withLocalServer(); it('…', () => srv().url); });
import { DEFAULT_TENANTS, startServer, type RunningServer, type ServerOptions } from '../../server/index';
import { stableUuid } from '../../server/util';

export interface TestServer {
  url: string;
  apiKey: string;
  otherApiKey: string;
  tenantId: string;
  otherTenantId: string;
  /** The running server (database handle, app) for tests that look inside. */
  server: RunningServer;
  close(): Promise<void>;
}

export type TestServerOptions = Omit<ServerOptions, 'port' | 'host' | 'db'>;

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const server = await startServer({ ...opts, port: 0, host: '127.0.0.1', db: ':memory:', quiet: opts.quiet ?? true });
  const tenants = opts.tenants?.length ? opts.tenants : DEFAULT_TENANTS;
  const second = tenants[1] ?? tenants[0];
  return {
    url: server.url,
    apiKey: tenants[0].apiKey,
    otherApiKey: second.apiKey,
    tenantId: stableUuid(`tenant:${tenants[0].handle}`),
    otherTenantId: stableUuid(`tenant:${second.handle}`),
    server,
    close: () => server.close(),
  };
}

/** Starts one server for the enclosing mocha suite; call the returned function inside tests. */
export function withLocalServer(opts: TestServerOptions = {}): () => TestServer {
  let srv: TestServer | undefined;
  before(async () => {
    srv = await startTestServer(opts);
  });
  after(async () => {
    await srv?.close();
    srv = undefined;
  });
  return () => {
    if (!srv) throw new Error('withLocalServer(): the server is only available inside tests and hooks');
    return srv;
  };
}
