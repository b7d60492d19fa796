// CLI: npm run server -- [--port 1984] [--host 127.0.0.1 [--allow-remote]] [--db FILE|:memory:] [--seed demo] [--seed-production] [--reset]
//                         [--tenant HANDLE[/USER]=KEY]… [--faults SPEC] [--no-multipart-examples] [--chat-delay-ms N]
//                         [--quiet] [--help]
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_TENANTS, isLoopbackHost, makeTenants, remoteRefusal, startServer, type ServerOptions, type TenantKey } from './index';
import { parseFaults } from './faults';

const HELP = `LangSmith Workbench local server — a LangSmith-compatible API on SQLite.

Usage: npm run server -- [options]

  --port N                 port to listen on (default 1984; 0 = any free port)
  --host HOST              interface to bind (default 127.0.0.1); anything but a loopback address
                           (127.x, ::1, localhost) is refused unless --allow-remote is given too
  --allow-remote           allow a --host reachable from the network (e.g. 0.0.0.0); prints a warning:
                           no TLS, well-known demo keys, pages readable without a key
  --db FILE|:memory:       database file (default ${defaultDbPath()})
  --reset                  empty the database first
  --seed demo              load demo data (only into an empty database)
  --seed-production        also load demo-production, 100,000 runs over the last 30 days (unless it is there)
  --tenant HANDLE[/USER]=KEY
                           a workspace and an API key of one of its users; repeatable; replaces the
                           defaults. A handle given again adds another user (another reviewer of its
                           queues) to that workspace; users are named "you", "reviewer", "reviewer-3", …
                           unless /USER names them. Defaults: local/you=local-dev-key,
                           local/reviewer=local-reviewer-key, other/you=local-other-key
  --faults SPEC            inject faults, e.g. 429:0.1,503:0.05,reset:0.02,resetAfter:0.02,latency:20-200ms
                           (STATUS:P answers that status; reset:P drops the connection before the work,
                           resetAfter:P does the work, then drops the connection instead of answering;
                           retryAfter:SECONDS sets the Retry-After of injected 429/503, default 1;
                           change at run time: PUT /__local/faults with the same syntax)
  --no-multipart-examples  report dataset_examples_multipart_enabled: false in /info
  --chat-delay-ms N        pause N ms (0–10000, default 0) before each piece of a streamed answer of the
                           OpenAI-compatible chat endpoint (/v1/chat/completions), to watch it stream
  --quiet                  print only the startup lines
  -h, --help               this help

Point a client at it:  LANGSMITH_ENDPOINT=http://127.0.0.1:1984  LANGSMITH_API_KEY=local-dev-key
An OpenAI client:       base URL http://127.0.0.1:1984/v1, API key local-dev-key, model local-echo
`;

export function defaultDbPath(): string {
  const base = process.env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'langsmith-workbench', 'local.db');
}

export function parseArgs(argv: string[]): ServerOptions & { help?: boolean } {
  const opts: ServerOptions & { help?: boolean } = { port: 1984, host: '127.0.0.1', db: defaultDbPath() };
  const tenants: TenantKey[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '-h':
      case '--help':
        opts.help = true;
        break;
      case '--port': {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) > 65535) throw new Error(`--port: "${v}" is not a port number`);
        opts.port = Number(v);
        break;
      }
      case '--host':
        opts.host = value();
        break;
      case '--allow-remote':
        opts.allowRemote = true;
        break;
      case '--db':
        opts.db = value();
        break;
      case '--reset':
        opts.reset = true;
        break;
      case '--seed': {
        const v = value();
        if (v !== 'demo') throw new Error(`--seed: unknown seed "${v}" (only "demo")`);
        opts.seed = 'demo';
        break;
      }
      case '--seed-production':
        opts.seedProduction = true;
        break;
      case '--tenant': {
        const v = value();
        const eq = v.indexOf('=');
        if (eq <= 0 || eq === v.length - 1) throw new Error(`--tenant: expected HANDLE=KEY or HANDLE/USER=KEY, got "${v}"`);
        const [handle, user, ...rest] = v.slice(0, eq).split('/');
        if (rest.length || user === '') throw new Error(`--tenant: expected HANDLE=KEY or HANDLE/USER=KEY, got "${v}"`);
        tenants.push({ handle: handle!, apiKey: v.slice(eq + 1), ...(user ? { user } : {}) });
        break;
      }
      case '--faults': {
        const v = value();
        parseFaults(v); // fail early with a clear message
        opts.faults = v;
        break;
      }
      case '--chat-delay-ms': {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) > 10_000) throw new Error(`--chat-delay-ms: "${v}" is not a whole number of milliseconds from 0 to 10000`);
        opts.chatDelayMs = Number(v);
        break;
      }
      case '--no-multipart-examples':
        opts.multipartExamples = false;
        break;
      case '--quiet':
        opts.quiet = true;
        break;
      default:
        throw new Error(`unknown option ${arg} (see --help)`);
    }
  }
  if (tenants.length) {
    makeTenants(tenants); // fail early: a bad handle or user name, a key given twice
    opts.tenants = tenants;
  }
  if (!isLoopbackHost(opts.host!) && !opts.allowRemote) throw new Error(remoteRefusal(opts.host!, '--allow-remote'));
  return opts;
}

/** What a thrown value says: its message when it has one, else the value itself. */
function messageOf(e: unknown): string {
  return typeof e === 'object' && e !== null && 'message' in e && e.message != null ? String(e.message) : String(e);
}

async function main() {
  let opts: ReturnType<typeof parseArgs>;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`error: ${messageOf(e)}`);
    process.exit(2);
  }
  if (opts.help) {
    process.stdout.write(HELP);
    return;
  }
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(opts);
  } catch (e) {
    const code = typeof e === 'object' && e !== null && 'code' in e ? e.code : undefined;
    if (code === 'EADDRINUSE') console.error(`error: port ${opts.port} on ${opts.host} is already in use. Stop the other process or pick another port with --port (0 = any free port).`);
    else if (code === 'EACCES') console.error(`error: not allowed to listen on ${opts.host}:${opts.port} (try a port above 1024).`);
    else console.error(`error: ${messageOf(e)}`);
    process.exit(1);
  }
  const { users } = makeTenants(opts.tenants ?? DEFAULT_TENANTS);
  console.log(`LangSmith-compatible server listening on ${server.url}`);
  console.log(`  database: ${opts.db === ':memory:' ? 'in memory (nothing is kept)' : opts.db}${opts.seed ? ' (demo data)' : ''}${opts.seedProduction ? ' (demo-production)' : ''}`);
  users.forEach((u, i) => console.log(`  ${i ? '        ' : 'API key:'}  ${u.apiKey}  (workspace "${u.tenant.handle}", user "${u.name}")`));
  console.log(`  openai:   base URL ${server.url}/v1, model local-echo${opts.chatDelayMs ? ` (streams with ${opts.chatDelayMs} ms pauses)` : ''}`);
  console.log(`  use:      LANGSMITH_ENDPOINT=${server.url} LANGSMITH_API_KEY=${users[0]!.apiKey}`);
  if (opts.faults) console.log(`  faults:   ${opts.faults}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!opts.quiet) console.log(`\n${signal}: shutting down…`);
    try {
      await server.close();
      process.exit(0);
    } catch (e) {
      console.error(`error while shutting down: ${messageOf(e)}`);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

void main();
