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
//                                               // (tenants: the first key of the first two workspaces become
//                                               // apiKey/otherApiKey; the first's second key reviewerApiKey)
//   srv.url          // 'http://127.0.0.1:PORT' (also serves /api/v1/…)
//   srv.apiKey       // key of tenant 'local'  ('local-dev-key', user "you")
//   srv.reviewerApiKey // second key of tenant 'local' ('local-reviewer-key', user "reviewer"); apiKey if it has one key
//   srv.otherApiKey  // key of tenant 'other'  ('local-other-key')
//   srv.tenantId / srv.otherTenantId   // the two workspace ids (for x-tenant-id)
//   srv.userId / srv.reviewerUserId    // the user ids of apiKey and reviewerApiKey (review statuses name them)
//   await srv.close();
import { DEFAULT_TENANTS, makeTenants, startServer, type RunningServer, type ServerOptions } from '../../server/index';

export interface LocalServer {
  url: string;
  apiKey: string;
  reviewerApiKey: string;
  otherApiKey: string;
  tenantId: string;
  otherTenantId: string;
  userId: string;
  reviewerUserId: string;
  /** The running server (database handle, app) for tests that look inside. */
  server: RunningServer;
  close(): Promise<void>;
}

export type LocalServerOptions = Omit<ServerOptions, 'port' | 'host' | 'db'>;

export async function startLocalServer(opts: LocalServerOptions = {}): Promise<LocalServer> {
  const server = await startServer({ ...opts, port: 0, host: '127.0.0.1', db: ':memory:', quiet: opts.quiet ?? true });
  const { tenants, users } = makeTenants(opts.tenants?.length ? opts.tenants : DEFAULT_TENANTS);
  const [first, second = first] = tenants as [(typeof tenants)[0], ...typeof tenants];
  const firstUsers = users.filter((u) => u.tenant === first);
  const you = firstUsers[0]!;
  const reviewer = firstUsers[1] ?? you;
  return {
    url: server.url,
    apiKey: you.apiKey,
    reviewerApiKey: reviewer.apiKey,
    otherApiKey: users.find((u) => u.tenant === second)!.apiKey,
    tenantId: first.id,
    otherTenantId: second.id,
    userId: you.id,
    reviewerUserId: reviewer.id,
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
