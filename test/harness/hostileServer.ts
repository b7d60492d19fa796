// Servers that misbehave, for the client's reliability tests (loopback only).
//
//   const hostile = await startHostileServer();     // node:http; answers what the test says
//   hostile.on('GET /datasets', (req, res) => sendRaw(res, 200, { 'content-type': 'text/html' }, '<html>…'));
//   hostile.url; hostile.requests (method, path, headers of each request); await hostile.close();
//
//   const silent = await startSilentServer();        // accepts connections and never answers
//   const stalling = await startSilentServer({ stallAfterHeaders: true });   // answers 200 headers, then stalls the body
import http from 'node:http';
import net from 'node:net';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface HostileServer {
  url: string;
  requests: SeenRequest[];
  /** The answer to `METHOD /path` (query string ignored); anything not set is a JSON 404. */
  on(route: string, handler: Handler): void;
  /** Forget every handler and recorded request. */
  reset(): void;
  close(): Promise<void>;
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  sendRaw(res, status, { 'content-type': 'application/json' }, JSON.stringify(body));
}

export function sendRaw(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

/** Keeps every socket, so close() can end connections a test left hanging. */
function trackSockets(server: net.Server): () => void {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return () => {
    for (const s of sockets) s.destroy();
  };
}

function listen(server: net.Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`));
  });
}

export async function startHostileServer(): Promise<HostileServer> {
  const handlers = new Map<string, Handler>();
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '') || '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const handler = handlers.get(`${req.method} ${path}`);
      if (handler) handler(req, res, Buffer.concat(chunks).toString('utf8'));
      else sendJson(res, 404, { detail: `Not Found: ${req.method} ${path}` });
    });
  });
  const destroyAll = trackSockets(server);
  const url = await listen(server);
  return {
    url,
    requests,
    on: (route, handler) => handlers.set(route.replace(/\/+$/, ''), handler),
    reset: () => {
      handlers.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        destroyAll();
        server.close(() => resolve());
      }),
  };
}

export interface SilentServer {
  url: string;
  /** Connections accepted so far (each attempt of a client opens or reuses one). */
  connections: number;
  /** Requests whose headers arrived (stallAfterHeaders only). */
  requests: number;
  close(): Promise<void>;
}

/**
 * A server that accepts connections and never answers; with `stallAfterHeaders` it reads the request,
 * sends a 200 with JSON headers and the first bytes of a body it never finishes.
 */
export async function startSilentServer(o: { stallAfterHeaders?: boolean } = {}): Promise<SilentServer> {
  let connections = 0;
  let requests = 0;
  const server = o.stallAfterHeaders
    ? http.createServer((_req, res) => {
        requests++;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
        res.write('[{"id": "');
        // …and nothing more.
      })
    : net.createServer(() => {
        /* accepted; never a byte back */
      });
  server.on('connection', () => connections++);
  const destroyAll = trackSockets(server);
  const url = await listen(server);
  return {
    url,
    get connections() {
      return connections;
    },
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
