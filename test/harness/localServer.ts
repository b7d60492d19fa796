// Test helper: the local LangSmith-compatible server on a free loopback port with an in-memory database.
//
// Stable contract (used by test/server, test/client and test/e2e):
//
//   import { startLocalServer, withLocalServer } from '../harness/localServer';
//
//   // in a mocha suite: started in before, closed in after; call srv() inside hooks and tests
//   describe('x', () => { const srv = withLocalServer({ faults: '503:0.1' }); it('…', () => srv().url); });
//
//   // by hand, where a suite cannot use the fixture (its own lifetime, a server per call)
//   const srv = await startLocalServer();       // options as startServer's, minus port/host/db
//                                               // (tenants: the first two become apiKey/otherApiKey)
//   srv.url          // 'http://127.0.0.1:PORT' (also serves /api/v1/…)
//   srv.apiKey       // key of tenant 'local'  ('local-dev-key')
//   srv.otherApiKey  // key of tenant 'other'  ('local-other-key')
//   srv.tenantId / srv.otherTenantId   // the two workspace ids (for x-tenant-id)
//   await srv.close();
import { DEFAULT_TENANTS, startServer, type RunningServer, type ServerOptions } from '../../server/index';
import { stableUuid } from '../../server/ids';

export interface LocalServer {
  url: string;
  apiKey: string;
  otherApiKey: string;
  tenantId: string;
  otherTenantId: string;
  /** The running server (database handle, app) for tests that look inside. */
  server: RunningServer;
  close(): Promise<void>;
}

export type LocalServerOptions = Omit<ServerOptions, 'port' | 'host' | 'db'>;

export async function startLocalServer(opts: LocalServerOptions = {}): Promise<LocalServer> {
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
export function withLocalServer(opts: LocalServerOptions = {}): () => LocalServer {
  let srv: LocalServer | undefined;
  before(async () => {
    srv = await startLocalServer(opts);
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
