// `npm start` (the README's first command), run the way a new user runs it: in a fresh clone of the project's
// committed HEAD, so it installs its own npm packages and builds from nothing. It must print a URL where VS Code
// runs the extension connected to the local server's demo data. (The tools folder is whatever LSW_TOOLS_DIR
// names: in CI one made empty for the run, which `npm test` has just filled.)
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../scripts/lib/vscode.mjs';
import { openLangSmithContainer, ROOT, runCommand, screenshot, setViewOpen, webviewFrame } from './workbench';

/**
 * The environment of a user's shell: without the npm_* variables that `npm test` set for itself. They would
 * make the inner npm act for this project instead of the clone (npm_config_local_prefix) and describe the
 * outer npm process.
 */
function shellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== 'NODE' && k !== 'INIT_CWD') env[k] = v;
  return { ...env, ...extra };
}

interface NpmStart {
  child: ChildProcess;
  state: string;
  vscodeUrl: string;
  serverUrl: string;
  /** Everything npm start printed so far. */
  output(): string;
}

/**
 * Clones HEAD and runs `npm start` in the clone until it prints its two URLs. npm ci and a production build in
 * the clone take minutes, so this starts when the e2e layer starts (see the root hook below) and the other suites
 * run meanwhile; the suite below waits for it. Started once.
 */
let npmStart: Promise<NpmStart> | undefined;
let startedChild: ChildProcess | undefined;
let startedState: string | undefined;
function beginNpmStart(): Promise<NpmStart> {
  npmStart ??= (async () => {
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-start-'));
    startedState = state;
    const clone = path.join(state, 'clone');
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone]);
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim();
    if (dirty) console.log('      (npm start runs in a clone of the committed HEAD; uncommitted changes are not in it)');
    // As the README writes it, with options only for free ports, a throwaway database and state folder.
    const child = spawn('npm', ['start', '--', '--port', '0', '--server-port', '0', '--db', ':memory:', '--state', path.join(state, 'vscode')], {
      cwd: clone,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: shellEnv({ LANGSMITH_API_KEY: '', LANGSMITH_ENDPOINT: '', LANGSMITH_WORKSPACE_ID: '' }),
    });
    startedChild = child;
    let output = '';
    child.stderr!.on('data', (d) => (output += d));
    const [vscodeUrl, serverUrl] = await new Promise<[string, string]>((resolve, reject) => {
      let vs: string | undefined;
      readline.createInterface({ input: child.stdout! }).on('line', (line) => {
        output += `${line}\n`;
        vs ??= /Open VS Code:\s+(\S+)/.exec(line)?.[1];
        const api = /Local LangSmith API:\s+(\S+)/.exec(line)?.[1];
        if (vs && api) resolve([vs, api]);
      });
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    return { child, state, vscodeUrl, serverUrl, output: () => output };
  })();
  return npmStart;
}

/** Stops npm start (the whole process group, as Ctrl-C does) if it still runs, and removes the clone. */
async function endNpmStart(): Promise<void> {
  const child = startedChild;
  if (child && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid!, 'SIGINT');
      await new Promise((r) => child.once('exit', r));
    } catch {
      /* already gone */
    }
  }
  if (startedState) fs.rmSync(startedState, { recursive: true, force: true });
  startedState = undefined;
}

// Root hooks: npm start begins with the layer, unless a --grep (or --fgrep) narrows the run, which may leave this
// suite out; then it begins in the suite's own before hook. Whatever happens to the suite, it is stopped at the end.
before(() => {
  if (!process.argv.some((a) => /^(--grep|-g|--fgrep|-f)(=|$)/.test(a))) beginNpmStart().catch(() => undefined);
});
after(async function () {
  this.timeout(180_000); // removing the clone (its node_modules) takes a while on a busy machine
  await endNpmStart();
});

describe('npm start', function () {
  let child: ChildProcess;
  let output: () => string;
  let vscodeUrl: string;
  let serverUrl: string;
  let browser: Browser;
  let page: Page;

  before(async function () {
    // npm ci and a production build in the clone: minutes, not seconds.
    this.timeout(15 * 60_000);
    ({ child, vscodeUrl, serverUrl, output } = await beginNpmStart());
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  });

  after(async function () {
    this.timeout(180_000);
    await browser?.close();
    await endNpmStart();
  });

  it('prints a VS Code URL and a local API URL', () => {
    assert.match(vscodeUrl, /^http:\/\/127\.0\.0\.1:\d+\/\?folder=/);
    assert.match(serverUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves the demo data on the local API', async () => {
    const res = await fetch(`${serverUrl}/sessions?limit=100`, { headers: { 'x-api-key': 'local-dev-key' } });
    assert.equal(res.status, 200);
    const projects = (await res.json()) as { name: string }[];
    assert.ok(projects.length >= 1, 'the demo seed made no projects');
  });

  it('opens VS Code with the demo data in the sidebar', async () => {
    await page.goto(vscodeUrl);
    await openLangSmithContainer(page);
    await setViewOpen(page, 'Datasets', true);
    await page.locator('.part.sidebar [role="treeitem"][aria-label^="demo-support-qa"]').waitFor({ timeout: 30_000 });
    await page.locator('.part.sidebar [role="treeitem"]', { hasText: 'demo-chat-transcripts' }).waitFor();
  });

  it('puts the demo prompt file in the workspace, matching the demo prompt', async () => {
    const folder = decodeURIComponent(new URL(vscodeUrl).searchParams.get('folder') ?? '');
    const file = path.join(folder, 'prompts', 'demo-summarizer.prompt.yaml');
    assert.ok(fs.existsSync(file), `${file} is missing`);
    assert.match(fs.readFileSync(file, 'utf8'), /^prompt: demo-summarizer$/m);
    await page.locator('.part.activitybar a.action-label[aria-label^="Explorer"]').click();
    await page.locator('.part.sidebar [role="treeitem"]', { hasText: 'prompts' }).first().waitFor({ timeout: 30_000 });
  });

  it('connects the extension to the local server through the environment', async () => {
    await runCommand(page, 'LangSmith: Open Connection Check');
    const frame = await webviewFrame(page);
    await frame.getByTestId('endpoint').waitFor();
    assert.equal(await frame.getByTestId('endpoint').textContent(), serverUrl);
    assert.equal(await frame.getByTestId('signed-in').textContent(), 'signed in (environment)');
    // Signed in, so the sign-in welcome gives way to the (empty for now) views.
    assert.equal(await page.locator('.part.sidebar .welcome-view-content a.monaco-button', { hasText: 'Sign In' }).count(), 0);
    await screenshot(page, 'start');
  });

  it('stops both processes on Ctrl-C', async () => {
    // Ctrl-C in a terminal reaches the whole process group: npm and the start script under it.
    process.kill(-child.pid!, 'SIGINT');
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.once('exit', (c, s) => r([c, s])));
    // The start script stops cleanly (exit 0); npm itself ends as Ctrl-C ends it, by the signal.
    assert.ok(code === 0 || signal === 'SIGINT', `npm start ended with code ${code}, signal ${signal}:\n${output().slice(-2000)}`);
    assert.doesNotMatch(output(), /\[start\] .*(failed|stopped \(code)/);
    for (const url of [`${serverUrl}/info`, new URL(vscodeUrl).origin]) {
      const res = await fetch(url).catch((e: Error) => e);
      assert.ok(res instanceof Error, `${url} still answers after npm start stopped`);
    }
  });
});
