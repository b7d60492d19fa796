// The local LangSmith-compatible server: app factory and startServer().
//
//   const srv = await startServer({ port: 0, db: ':memory:' });
//   // srv.url → 'http://127.0.0.1:PORT', API key 'local-dev-key' (tenant 'local', user "you"), 'local-reviewer-key'
//   // (tenant 'local', user "reviewer") or 'local-other-key' (tenant 'other')
//   // OpenAI-compatible chat completions (model local-echo) at srv.url + '/v1'
//   await srv.close();
import type { IncomingMessage, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { KeyRing, type Ctx, type Tenant, type User } from './context';
import { Checkpointer, type DB, Statements, isEmpty, openDatabase } from './db';
import { NO_FAULTS, applyFaults, dropAfterWork, faultsActive, parseFaults } from './faults';
import { registerChat } from './routes/chat';
import { isOpenAiPath, openAiErrorBody } from './routes/chatRequest';
import { registerDatasets, registerPublicDatasets } from './routes/datasets';
import { registerExamples } from './routes/examples';
import { registerPlatformExamples } from './routes/examplesPlatform';
import { registerFeedback } from './routes/feedback';
import { registerPages } from './routes/pages';
import { registerPrompts } from './routes/prompts';
import { registerQueues } from './routes/queues';
import { registerQueueItems } from './routes/queuesItems';
import { registerRuns } from './routes/runs';
import { registerRunsStats } from './routes/runsStats';
import { registerRunsMultipart } from './routes/runsMultipart';
import { registerPublicRuns } from './routes/runsPublic';
import { useBufferedMultipart } from './multipartBuffer';
import { registerSessions } from './routes/sessions';
import { registerDashboard } from './routes/dashboard';
import { registerLocal } from './routes/local';
import { registerOAuth } from './routes/oauth';
import { OAuthTokens } from './oauth';
import { registerWorkspace } from './routes/workspace';
import { registerV2 } from './routes/v2';
import { seedDemo } from './seed';
import { seedProduction } from './seed/production';
import { migrateLegacyStatuses } from './store/queueReview';
import { HttpError } from './errors';
import { stableUuid } from './ids';
import { MonotonicClock, nowIso } from './time';

export interface ServerOptions {
  /** 0 = a free port. The CLI defaults to 1984; startServer defaults to 0. */
  port?: number;
  /** Interface to bind (default 127.0.0.1). Anything but a loopback address needs `allowRemote`. */
  host?: string;
  /**
   * Allow a `host` that is not loopback (127.x, ::1, localhost). Without it startServer refuses such a host;
   * with it, a warning goes to stderr: no TLS, known demo keys, reachable from the network.
   */
  allowRemote?: boolean;
  /** A file path or ':memory:' (default ':memory:' for startServer; the CLI uses the user data folder). */
  db?: string;
  seed?: 'demo';
  /**
   * Also write the monitoring demo `demo-production` (100,000 runs over the last 30 days, `seed/production.ts`)
   * when the workspace has no project of that name. Off by default: it adds about a second to a start.
   */
  seedProduction?: boolean;
  reset?: boolean;
  /**
   * Workspaces and their API keys. An entry whose handle came before adds another user (another key) to that
   * workspace; `user` names the user (default: "you" for a workspace's first key, then "reviewer", "reviewer-3", …).
   */
  tenants?: TenantKey[];
  /** Fault spec, e.g. '429:0.1,503:0.05,reset:0.02,latency:20-200ms'. */
  faults?: string;
  /** Report dataset_examples_multipart_enabled in /info (default true). */
  multipartExamples?: boolean;
  /** Pause in ms before each piece of a streamed chat completion (`/v1/chat/completions`), to watch it stream. Default 0. */
  chatDelayMs?: number;
  /**
   * The version `/info` reports (default {@link SERVER_VERSION}). Clients choose APIs by it (the v2 run reads
   * need 0.16.0 or later), so a test can stand in for an older LangSmith with, e.g., '0.10.0'.
   */
  version?: string;
  quiet?: boolean;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
  db: DB;
  /** The underlying app, for tests that want to inject requests. */
  app: FastifyInstance;
  /** Counters since start: requests answered, genuine 500s, injected faults. */
  stats(): { requests: number; internalErrors: number; faultsInjected: number };
}

/** One API key of a workspace, and the user it belongs to. */
export interface TenantKey {
  handle: string;
  apiKey: string;
  user?: string;
}

/** Workspace `local` has two users (two reviewers of its queues); workspace `other` one. */
export const DEFAULT_TENANTS: TenantKey[] = [
  { handle: 'local', apiKey: 'local-dev-key', user: 'you' },
  { handle: 'local', apiKey: 'local-reviewer-key', user: 'reviewer' },
  { handle: 'other', apiKey: 'local-other-key', user: 'you' },
];

export const SERVER_VERSION = '0.16.14';

/** The default name of a workspace's n-th user (0-based). */
const defaultUserName = (n: number) => (n === 0 ? 'you' : n === 1 ? 'reviewer' : `reviewer-${n + 1}`);

/** Workspaces in the order their handles first appear, and their users (one per key) with stable ids. */
export function makeTenants(list: readonly TenantKey[]): { tenants: Tenant[]; users: User[] } {
  const byHandle = new Map<string, Tenant>();
  const keys = new Set<string>();
  const names = new Set<string>();
  const users: User[] = [];
  for (const { handle, apiKey, user } of list) {
    if (!/^[a-z0-9][a-z0-9_-]*$/i.test(handle)) throw new Error(`tenant handle "${handle}": use letters, digits, - and _`);
    if (!apiKey) throw new Error(`tenant ${handle}: empty API key`);
    if (keys.has(apiKey)) throw new Error(`API key for "${handle}" is already used by another tenant or user`);
    keys.add(apiKey);
    let tenant = byHandle.get(handle);
    if (!tenant) {
      tenant = { id: stableUuid(`tenant:${handle}`), handle, apiKey, displayName: handle };
      byHandle.set(handle, tenant);
    }
    const name = user ?? defaultUserName(users.filter((u) => u.tenant === tenant).length);
    if (!/^[a-z0-9][a-z0-9_.-]*$/i.test(name)) throw new Error(`user "${name}" of tenant ${handle}: use letters, digits, ., - and _`);
    if (names.has(`${handle}/${name}`)) throw new Error(`user "${name}" of tenant ${handle} given twice`);
    names.add(`${handle}/${name}`);
    // Derived like tenant ids: the same handle and name give the same id on every start.
    users.push({ id: stableUuid(`user:${handle}:${name}`), tenant, name, apiKey });
  }
  return { tenants: [...byHandle.values()], users };
}

/** The largest request body taken (an example with its attachments, a batch of runs): larger ones get a 413. */
const BODY_LIMIT = 100 * 1024 * 1024;

const API_PREFIXES = ['', '/api/v1'];
const PLATFORM_PREFIXES = ['/v1/platform', '/api/v1/platform'];
const V2_PREFIXES = ['/v2', '/api/v2'];

export function buildApp(db: DB, opts: ServerOptions): { app: FastifyInstance; ctx: Ctx } {
  const chatDelayMs = opts.chatDelayMs ?? 0;
  if (!Number.isInteger(chatDelayMs) || chatDelayMs < 0) throw new Error(`chatDelayMs: expected a whole number of milliseconds ≥ 0, got ${opts.chatDelayMs}`);
  const { tenants, users } = makeTenants(opts.tenants?.length ? opts.tenants : DEFAULT_TENANTS);
  const ctx: Ctx = {
    db,
    st: new Statements(db),
    tenants,
    users,
    userById: new Map(users.map((u) => [u.id, u])),
    keys: new KeyRing(users),
    oauth: new OAuthTokens(),
    tenantByHandle: new Map(tenants.map((t) => [t.handle, t])),
    tenantById: new Map(tenants.map((t) => [t.id, t])),
    clock: new MonotonicClock(),
    faults: opts.faults ? parseFaults(opts.faults) : { ...NO_FAULTS },
    multipartExamples: opts.multipartExamples ?? true,
    startedAt: nowIso(),
    stats: { requests: 0, internalErrors: 0, faultsInjected: 0 },
  };
  // Review statuses of a database written before they were kept per reviewer.
  migrateLegacyStatuses(ctx);

  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2000 },
    // On close: drop idle keep-alive sockets, let requests in flight finish.
    forceCloseConnections: 'idle',
  });

  app.decorateRequest('tenant', null as unknown as Tenant);
  app.decorateRequest('user', null as unknown as User);

  app.register(multipart, {
    limits: { fileSize: 100 * 1024 * 1024, fieldSize: 50 * 1024 * 1024, parts: 100_000, files: 100_000, fields: 100_000 },
    // Every part is read as bytes, so binary attachments survive whether or not they carry a filename.
    isPartAFile: () => true,
  });

  // Bodies the official client sends without a JSON content type (e.g. share PUTs) arrive as text;
  // routes parse them. Anything else unknown is read as text rather than refused.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  // Errors are LangSmith's `{"detail": …}`, except on the OpenAI-compatible routes (/v1/chat/…, /v1/models),
  // whose clients expect OpenAI's `{"error": {message, type, param, code}}`.
  // Whatever a handler or fastify throws: an Error, with fastify's status and code when it set them.
  app.setErrorHandler((err: Error & { statusCode?: unknown; code?: unknown }, req, reply) => {
    const openAi = isOpenAiPath(req.url);
    if (err instanceof HttpError) {
      reply.code(err.statusCode).headers(err.headers).send(openAi ? openAiErrorBody(err.statusCode, err.message, err) : { detail: err.detail });
      return;
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      ctx.stats.internalErrors++;
      if (!opts.quiet) console.error(`[server] ${req.method} ${req.url}:`, err);
    }
    let detail = err.message || 'Internal server error';
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) detail = `Malformed JSON body: ${err.message}`;
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') detail = `Request body is too large: this server takes at most ${BODY_LIMIT / 1024 / 1024} MB per request`;
    if (status === 500) detail = `Internal server error: ${detail}`;
    reply.code(status).send(openAi ? openAiErrorBody(status, detail) : { detail });
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    if (isOpenAiPath(req.url)) reply.code(404).send(openAiErrorBody(404, `Invalid URL (${req.method} ${path})`));
    else reply.code(404).send({ detail: `Not Found: ${req.method} ${path}` });
  });

  // The hooks below run on every request, so they are written in callback style: no promise per hook
  // and request unless a fault is being injected.
  app.addHook('onResponse', (_req, _reply, done) => {
    ctx.stats.requests++;
    done();
  });

  // Once closing, every answer still going out ends its connection: a keep-alive socket that becomes idle
  // after close() began would otherwise hold the server open until its keep-alive timeout.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    // A `resetAfter` fault: the work is done (committed); the answer is lost with the connection.
    if (dropAfterWork(req)) ctx.stats.faultsInjected++;
    done(null, payload);
  });

  /** Who is asking: the user of the API key, its tenant (and the workspace it names, if any). */
  const authenticate = (req: FastifyRequest, isPublic: boolean): void => {
    if (isPublic) return;
    const key = req.headers['x-api-key'];
    const auth = req.headers.authorization;
    const bearer = typeof key === 'string' && key ? undefined : typeof auth === 'string' && /^Bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
    const apiKey = typeof key === 'string' && key ? key : bearer;
    if (!apiKey) throw new HttpError(401, 'Unauthorized: missing API key (x-api-key header)');
    // A bearer is an API key first (as before), else an OAuth access token this server issued.
    let user = ctx.keys.userOf(apiKey);
    if (!user && bearer) {
      const found = ctx.oauth.userOf(bearer);
      if (found === 'expired') throw new HttpError(401, 'Unauthorized: the access token has expired', { 'www-authenticate': 'Bearer error="invalid_token"' });
      user = found;
    }
    if (!user) throw new HttpError(401, 'Unauthorized: invalid API key');
    const tenant = user.tenant;
    const wanted = req.headers['x-tenant-id'];
    if (typeof wanted === 'string' && wanted && wanted.toLowerCase() !== tenant.id)
      throw new HttpError(403, `Forbidden: this API key does not belong to workspace ${wanted}`);
    req.tenant = tenant;
    req.user = user;
  };

  app.addHook('onRequest', (req, reply, done) => {
    const config = req.routeOptions.config ?? {};
    if (!req.routeOptions.url) {
      done(); // unknown route → the 404 handler
      return;
    }
    const proceed = () => {
      try {
        authenticate(req, !!config.public);
      } catch (e) {
        done(e as Error);
        return;
      }
      done();
    };
    if (!config.noFaults && !req.url.startsWith('/__local/') && faultsActive(ctx.faults)) {
      applyFaults(ctx.faults, req, reply).then(
        (dropped) => {
          if (dropped) ctx.stats.faultsInjected++; // the connection is gone; nothing more to do
          else proceed();
        },
        (e: Error) => {
          ctx.stats.faultsInjected++;
          done(e);
        },
      );
      return;
    }
    proceed();
  });

  const info = () => ({
    version: opts.version ?? SERVER_VERSION,
    license_expiration_time: null,
    tenant_handle: null,
    batch_ingest_config: {
      use_multipart_endpoint: true,
      scale_up_qsize_trigger: 1000,
      scale_up_nthreads_limit: 16,
      scale_down_nempty_trigger: 4,
      size_limit: 100,
      size_limit_bytes: 20_971_520,
    },
    instance_flags: {
      dataset_examples_multipart_enabled: ctx.multipartExamples,
      examples_multipart_enabled: ctx.multipartExamples,
      gzip_body_enabled: false,
      zstd_compression_enabled: false,
      generate_ai_query_enabled: false,
      org_creation_disabled: true,
      personal_orgs_disabled: true,
      show_ttl_ui: false,
      search_enabled: true,
      workspace_scope_org_invites_enabled: false,
      s3_storage_enabled: false,
    },
    customer_info: null,
  });

  for (const prefix of API_PREFIXES) {
    app.register(
      async (api) => {
        registerWorkspace(api, ctx, info);
        registerSessions(api, ctx);
        registerDashboard(api, ctx);
        registerRuns(api, ctx);
        registerRunsStats(api, ctx);
        registerPublicRuns(api, ctx);
        registerDatasets(api, ctx);
        registerPublicDatasets(api, ctx);
        registerExamples(api, ctx);
        registerFeedback(api, ctx);
        registerQueues(api, ctx);
        registerPrompts(api, ctx);
        api.register(async (bulk) => {
          useBufferedMultipart(bulk);
          registerRunsMultipart(bulk, ctx);
        });
      },
      { prefix },
    );
  }
  for (const prefix of PLATFORM_PREFIXES) {
    app.register(
      async (api) => {
        useBufferedMultipart(api);
        registerPlatformExamples(api, ctx);
        registerQueueItems(api, ctx);
      },
      { prefix },
    );
  }
  for (const prefix of V2_PREFIXES) app.register(async (api) => registerV2(api, ctx), { prefix });
  app.register(async (pages) => registerPages(pages, ctx));
  // OpenAI-compatible, outside the LangSmith prefixes: the OpenAI base URL is <server>/v1.
  app.register(async (chat) => registerChat(chat, ctx, { delayMs: chatDelayMs }));

  registerLocal(app, ctx);
  registerOAuth(app, ctx);

  return { app, ctx };
}

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.x.x.x, ::1 (in any spelling, also IPv4-mapped 127.x) and `localhost`: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (/^localhost\.?$/i.test(h)) return true;
  const family = net.isIP(h);
  return family !== 0 && LOOPBACK.check(h, family === 6 ? 'ipv6' : 'ipv4');
}

/** Why a non-loopback host is refused, and how to ask for it anyway (`how`: the flag or option to name). */
export function remoteRefusal(host: string, how = 'allowRemote: true'): string {
  return `refusing to listen on ${host}: it is not a loopback address (127.x, ::1, localhost), so the server would be reachable ` +
    `from the network without TLS and with well-known API keys. Keep the default 127.0.0.1, or add ${how} if that is really what you want.`;
}

/** The warning printed when the server listens on a non-loopback host. */
export function remoteWarning(host: string, port: number, tenants: ReadonlyArray<{ apiKey: string }>): string {
  const demo = tenants.filter((t) => DEFAULT_TENANTS.some((d) => d.apiKey === t.apiKey)).map((t) => t.apiKey);
  return [
    `WARNING: listening on ${host}:${port}, which is reachable from the network, not only from this machine.`,
    '  - no TLS: API keys and data travel in clear text;',
    demo.length
      ? `  - the API keys are the well-known demo keys (${demo.join(', ')}): anyone who can reach the port can read and change the data;`
      : '  - anyone who learns a key (sent in clear text) can read and change the data;',
    '  - the web pages (/o/…, /prompts/…, /public/…) and attachments are served without a key.',
    '  Use it only on a network you trust; --host 127.0.0.1 keeps it on this machine.',
    '',
  ].join('\n');
}

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  // Checked before anything is opened: a program that forgot allowRemote gets an error, not a listening server.
  if (opts.host !== undefined && !isLoopbackHost(opts.host) && !opts.allowRemote) throw new Error(remoteRefusal(opts.host));
  const dbPath = opts.db ?? ':memory:';
  const db = openDatabase(dbPath, opts.reset ?? false);
  let app: FastifyInstance;
  let ctx: Ctx;
  try {
    const built = buildApp(db, opts);
    app = built.app;
    ctx = built.ctx;
    if (opts.seed === 'demo' && isEmpty(db)) seedDemo(built.ctx);
    if (opts.seedProduction) seedProduction(built.ctx, built.ctx.tenants[0]!, Date.now());
    await app.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  } catch (e) {
    db.close();
    throw e;
  }
  const checkpointer = dbPath === ':memory:' ? null : new Checkpointer(dbPath);
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port ?? 0;
  const host = opts.host ?? '127.0.0.1';
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  if (!isLoopbackHost(host)) process.stderr.write(remoteWarning(host, port, opts.tenants?.length ? opts.tenants : DEFAULT_TENANTS));
  // Connections and the requests each is serving, so close() can end connections that sit idle — including
  // ones that became idle, or never carried a request, after closing began — instead of waiting for
  // their keep-alive or header timeouts, while requests in flight still finish.
  const busy = new Map<Socket, number>();
  app.server.on('connection', (socket: Socket) => {
    busy.set(socket, 0);
    socket.on('close', () => busy.delete(socket));
  });
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.on('close', () => {
      if (busy.has(socket)) busy.set(socket, Math.max(0, busy.get(socket)! - 1));
    });
  });
  const endIdle = () => {
    for (const [socket, n] of busy) if (n === 0) socket.destroy();
  };
  let closed = false;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    db,
    app,
    stats: () => ({ ...ctx.stats }),
    async close() {
      if (closed) return;
      closed = true;
      const done = app.close();
      endIdle();
      const sweep = setInterval(endIdle, 50);
      try {
        await done;
      } finally {
        clearInterval(sweep);
      }
      await checkpointer?.stop();
      if (dbPath !== ':memory:') db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}
