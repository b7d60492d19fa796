// `npm start` (the README's first command) gives a URL where the extension runs against the local server.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../scripts/lib/vscode.mjs';
import { openLangSmithContainer, ROOT, runCommand, screenshot, webviewFrame } from './workbench';

describe('npm start', function () {
  let child: ChildProcess;
  let output = '';
  let vscodeUrl: string;
  let serverUrl: string;
  let browser: Browser;
  let page: Page;
  let state: string;

  before(async () => {
    state = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-start-'));
    child = spawn(process.execPath, ['scripts/start.mjs', '--skip-install', '--port', '0', '--server-port', '0', '--db', ':memory:', '--state', state], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LANGSMITH_API_KEY: '', LANGSMITH_ENDPOINT: '' },
    });
    child.stderr!.on('data', (d) => (output += d));
    [vscodeUrl, serverUrl] = await new Promise<[string, string]>((resolve, reject) => {
      let vs: string | undefined;
      readline.createInterface({ input: child.stdout! }).on('line', (line) => {
        output += `${line}\n`;
        vs ??= /Open VS Code:\s+(\S+)/.exec(line)?.[1];
        const api = /Local LangSmith API:\s+(\S+)/.exec(line)?.[1];
        if (vs && api) resolve([vs, api]);
      });
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  });

  after(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      child.kill('SIGINT');
      await new Promise((r) => child.once('exit', r));
    }
    fs.rmSync(state, { recursive: true, force: true });
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

  it('opens VS Code with the extension connected to the local server through the environment', async () => {
    await page.goto(vscodeUrl);
    await openLangSmithContainer(page);
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
    child.kill('SIGINT');
    const code = await new Promise((r) => child.once('exit', r));
    assert.equal(code, 0);
    const res = await fetch(`${serverUrl}/info`).catch((e: Error) => e);
    assert.ok(res instanceof Error, 'the local server still answers after npm start stopped');
  });
});
