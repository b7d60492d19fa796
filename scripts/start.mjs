// `npm start`: the extension in a real VS Code against the local LangSmith-compatible server with demo data.
// Installs what is missing (npm packages, Chromium/code-server tools), builds and packages the extension,
// starts the server (seeding an empty database with demo data) and code-server with the extension installed,
// and prints the URL to open. Ctrl-C stops both.
//
// Options (also as environment variables):
//   --port N          VS Code's port (LSW_PORT, default 8080; 0 = any free port)
//   --host HOST       interface for VS Code (LSW_HOST, default 127.0.0.1); anything but a loopback address
//                     (127.x, ::1, localhost) needs --allow-remote too
//   --allow-remote    let --host be reachable from the network (LSW_ALLOW_REMOTE=1); prints a warning: VS Code
//                     runs without a password (anyone who reaches it gets its terminal). The local server stays
//                     on 127.0.0.1 whatever --host says: the extension talks to it from the same machine.
//   --server-port N   the local server's port (LSW_SERVER_PORT, default 1984; 0 = any free port)
//   --db FILE         the local server's database (default: its own, in the user data folder)
//   --state DIR       where VS Code keeps its settings and UI state (default ~/.cache/langsmith-workbench/start)
//   --skip-install    do not check npm packages and tools (they must be there)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

function parseArgs(argv) {
  const opts = {
    port: process.env.LSW_PORT ?? '8080',
    host: process.env.LSW_HOST ?? '127.0.0.1',
    serverPort: process.env.LSW_SERVER_PORT ?? '1984',
    db: undefined,
    state: path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'langsmith-workbench', 'start'),
    skipInstall: false,
    allowRemote: /^(1|true|yes)$/i.test(process.env.LSW_ALLOW_REMOTE ?? ''),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) fail(`${arg} needs a value`);
      return v;
    };
    if (arg === '--port') opts.port = value();
    else if (arg === '--host') opts.host = value();
    else if (arg === '--server-port') opts.serverPort = value();
    else if (arg === '--db') opts.db = value();
    else if (arg === '--state') opts.state = value();
    else if (arg === '--skip-install') opts.skipInstall = true;
    else if (arg === '--allow-remote') opts.allowRemote = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n'));
      process.exit(0);
    } else fail(`Unknown option ${arg} (see npm start -- --help)`);
  }
  for (const key of ['port', 'serverPort']) {
    if (!/^\d+$/.test(opts[key]) || Number(opts[key]) > 65535) fail(`--${key === 'port' ? 'port' : 'server-port'} must be a port number, got ${opts[key]}`);
  }
  // The same rule as the local server's --host: loopback unless asked otherwise, and then a warning.
  if (!isLoopbackHost(opts.host) && !opts.allowRemote)
    fail(`--host ${opts.host} is not a loopback address (127.x, ::1, localhost): VS Code would be reachable from the network without a password. Add --allow-remote if that is really what you want.`);
  return opts;
}

function isLoopbackHost(host) {
  const h = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (/^localhost\.?$/i.test(h)) return true;
  const loopback = new net.BlockList();
  loopback.addSubnet('127.0.0.0', 8, 'ipv4');
  loopback.addAddress('::1', 'ipv6');
  const family = net.isIP(h);
  return family !== 0 && loopback.check(h, family === 6 ? 'ipv6' : 'ipv4');
}

function fail(message) {
  console.error(`npm start: ${message}`);
  process.exit(2);
}

function step(message) {
  console.log(`[start] ${message}`);
}

function runOrExit(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`[start] \`${cmd} ${args.join(' ')}\` failed`);
    process.exit(1);
  }
}

const opts = parseArgs(process.argv.slice(2));
if (!isLoopbackHost(opts.host)) {
  console.error(`[start] WARNING: VS Code will listen on ${opts.host}, reachable from the network, with no password and no TLS:
[start]   anyone who reaches it can use its terminal and files. The local LangSmith server stays on 127.0.0.1.`);
}

if (!opts.skipInstall) {
  const stamp = path.join(root, 'node_modules/.package-lock.json');
  if (!fs.existsSync(stamp) || fs.statSync(stamp).mtimeMs < fs.statSync(path.join(root, 'package-lock.json')).mtimeMs) {
    step('installing npm packages');
    runOrExit('npm', ['ci', '--no-audit', '--no-fund']);
  }
  runOrExit('bash', ['scripts/setup-tools.sh']);
}

step('building the extension and the local server');
runOrExit('npm', ['run', '--silent', 'package']);
runOrExit('node', ['esbuild.mjs', '--only=server']);

const { startCodeServer } = await import('./lib/vscode.mjs');

// The local server: a child process whose banner tells us where it listens.
// Streamed chat answers (the prompt playground's local model) arrive piece by piece at a visible pace.
// Always on loopback, whatever --host gives VS Code: the extension host runs next to it.
const serverArgs = ['dist/server.js', '--host', '127.0.0.1', '--port', opts.serverPort, '--seed', 'demo', '--seed-production', '--chat-delay-ms', '25'];
if (opts.db) serverArgs.push('--db', opts.db);
const server = spawn(process.execPath, serverArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
const serverUrl = await new Promise((resolve, reject) => {
  const lines = readline.createInterface({ input: server.stdout });
  lines.on('line', (line) => {
    console.log(`[server] ${line}`);
    const m = /(http:\/\/[^\s]+)/.exec(line);
    if (m) resolve(m[1].replace(/\/$/, ''));
  });
  server.once('exit', (code) => reject(new Error(`the local server exited (code ${code}) before it was ready`)));
}).catch((err) => {
  console.error(`[start] ${err.message}`);
  process.exit(1);
});

const apiKey = 'local-dev-key';
step(`local LangSmith server at ${serverUrl} (API key ${apiKey})`);

let vscode;
try {
  fs.mkdirSync(opts.state, { recursive: true });
  // The demo workspace holds a prompt file of a demo prompt, to edit and push at once. An existing copy is the
  // user's: it is never overwritten.
  const demoPrompts = path.join(opts.state, 'workspace', 'prompts');
  fs.mkdirSync(demoPrompts, { recursive: true });
  for (const name of fs.readdirSync(path.join(root, 'scripts/demo'))) {
    const target = path.join(demoPrompts, name);
    if (!fs.existsSync(target)) fs.copyFileSync(path.join(root, 'scripts/demo', name), target);
  }
  vscode = await startCodeServer({
    port: Number(opts.port) || undefined,
    host: opts.host,
    vsix: path.join(root, 'dist/langsmith-workbench.vsix'),
    stateDir: opts.state,
    workspace: path.join(opts.state, 'workspace'),
    // Chat and agent mode stay available (the tests turn them off): an agent there can use the LangSmith tools.
    defaults: { 'chat.disableAIFeatures': false },
    // The extension reads these when no key is stored: the demo needs no sign-in.
    env: { LANGSMITH_ENDPOINT: serverUrl, LANGSMITH_API_KEY: apiKey, LANGSMITH_WORKSPACE_ID: '' },
    log: (line) => step(line),
  });
} catch (err) {
  console.error(`[start] VS Code did not start: ${err.message}`);
  server.kill('SIGTERM');
  process.exit(1);
}

console.log(`
  LangSmith Workbench is running.

    Open VS Code:        ${vscode.url}/?folder=${encodeURIComponent(vscode.workspace)}
    Local LangSmith API: ${serverUrl}   (API key: ${apiKey})

  Click the LangSmith icon in the activity bar. Ctrl-C stops everything.
`);

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  step('stopping');
  await vscode.stop();
  server.kill('SIGTERM');
  await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
server.once('exit', (code) => {
  if (!stopping) {
    console.error(`[start] the local server stopped (code ${code})`);
    void stop(1);
  }
});
vscode.child.once('exit', (code) => {
  if (!stopping) {
    console.error(`[start] VS Code stopped (code ${code}); see ${vscode.logFile}`);
    void stop(1);
  }
});
