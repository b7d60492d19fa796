// Drives the real VS Code workbench (code-server in headless Chromium) with the packaged .vsix installed.
//
//   const demo = withWorkbench({ promptFile: true });   // in a mocha suite: a local server with the demo data and
//   const { wb, server } = demo();                      //   the workbench signed in to it; call demo() in hooks/tests
//   const wb = await startWorkbench();                  // by hand, no server, signed out: await wb.close() yourself
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { EXTENSION_ID, launchBrowser, startCodeServer, workbenchUrl, type CodeServer } from '../../scripts/lib/vscode.mjs';
import { startLocalServer, type LocalServer, type LocalServerOptions } from '../harness/localServer';

export const ROOT = path.resolve(__dirname, '../..');
export const VSIX = path.join(ROOT, 'dist/langsmith-workbench.vsix');
/** Screenshots of every UI run land here (named in the README). */
export const SCREENSHOTS = path.join(ROOT, '.test-output/screenshots');

export interface Workbench {
  server: CodeServer;
  browser: Browser;
  page: Page;
  /** Console messages of the page and all its frames (webviews included). */
  console: string[];
  close(): Promise<void>;
}

export async function startWorkbench(env: Record<string, string> = {}): Promise<Workbench> {
  if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing: run \`npm run package\` first.`);
  // Nothing from the developer's own environment may sign the extension in by accident.
  const clean = { LANGSMITH_API_KEY: '', LANGCHAIN_API_KEY: '', LANGSMITH_ENDPOINT: '', LANGCHAIN_ENDPOINT: '', LANGSMITH_WORKSPACE_ID: '' };
  const server = await startCodeServer({ vsix: VSIX, env: { ...clean, ...env } });
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const messages: string[] = [];
  page.on('console', (m) => messages.push(`${m.text()} (${m.location().url.split('/').pop()}:${m.location().lineNumber})`));
  await page.goto(workbenchUrl(server));
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  return {
    server,
    browser,
    page,
    console: messages,
    async close() {
      await browser.close();
      await server.stop();
      fs.rmSync(server.runDir, { recursive: true, force: true });
    },
  };
}

/**
 * One code-server with the packaged extension and a browser, for suites that open many windows on it
 * (`openWindow`). The caller stops both with close().
 */
export async function startWindowServer(env: Record<string, string> = {}): Promise<{ server: CodeServer; browser: Browser; close(): Promise<void> }> {
  if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing: run \`npm run package\` first.`);
  const clean = { LANGSMITH_API_KEY: '', LANGCHAIN_API_KEY: '', LANGSMITH_ENDPOINT: '', LANGCHAIN_ENDPOINT: '', LANGSMITH_WORKSPACE_ID: '' };
  const server = await startCodeServer({ vsix: VSIX, env: { ...clean, ...env } });
  const browser = await launchBrowser();
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.stop();
      fs.rmSync(server.runDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new window on a running code-server, as fresh as a first start: a new browser context has empty browser
 * storage (the web workbench keeps its global and workspace state there, and its secret storage in memory), and
 * code-server starts a new extension host for each window, so the extension activates anew. Resolves once the
 * workbench is up (its DOM and the LangSmith entry of the activity bar, i.e. the extension's contributions).
 */
export async function openWindow(server: CodeServer, browser: Browser): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(workbenchUrl(server));
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.part.activitybar a.action-label[aria-label^="LangSmith"]').waitFor({ timeout: 60_000 });
  return { page, close: () => context.close() };
}

/**
 * What the command palette offers for a filter (the labels of its rows), read once the list has settled: the
 * rows, or the palette's "no matching commands" message. The palette is left open.
 */
export async function paletteEntries(page: Page, filter: string): Promise<string[]> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input').first();
  if (!(await input.isVisible())) {
    await widget.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    await page.keyboard.press('F1');
  }
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${filter}`);
  const rows = widget.locator('.quick-input-list .monaco-list-row');
  const none = widget.locator('.quick-input-message, .quick-input-list .monaco-list-row', { hasText: /No matching commands|No commands matching/i });
  await Promise.race([rows.first().waitFor({ timeout: 5_000 }), none.first().waitFor({ timeout: 5_000 })]).catch(() => undefined);
  // The list is filled in one go; one more frame lets a late row land.
  await page.waitForTimeout(150);
  return (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''))).map((l) => l.trim());
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Answers the open quick pick whose title matches: types to filter, waits for the entry, takes it. */
export async function pickQuick(page: Page, text: string, title: RegExp): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title, .quick-input-header', { hasText: title }).first().waitFor({ timeout: 15_000 });
  const input = widget.locator('input').first();
  await input.fill(text);
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().waitFor();
  await input.press('Enter');
}

/**
 * Runs a command from the palette by its "Category: Title" label. The palette can open before the extension
 * host has registered the contributions, so an absent entry is retried for a while.
 */
export async function runCommand(page: Page, label: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  for (;;) {
    await page.keyboard.press('F1');
    await input.waitFor();
    await input.fill(`>${label}`);
    try {
      await row.waitFor({ timeout: 3_000 });
      await input.press('Enter');
      return;
    } catch (err) {
      await page.keyboard.press('Escape');
      if (Date.now() > deadline) throw err;
    }
  }
}

export async function openLangSmithContainer(page: Page): Promise<void> {
  const item = page.locator('.part.activitybar a.action-label[aria-label^="LangSmith"]');
  await item.waitFor({ timeout: 60_000 });
  await item.click();
  await page.locator('.part.sidebar .pane-header', { hasText: 'Projects' }).waitFor();
}

/** The DOM of our visible webview: outer iframe (VS Code's host page) → inner active frame (our app). */
export async function webviewFrame(page: Page): Promise<Frame> {
  const outer = page.locator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]:visible`);
  await outer.waitFor({ timeout: 30_000 });
  const outerFrame = await (await outer.elementHandle())!.contentFrame();
  const inner = outerFrame!.locator('iframe#active-frame');
  await inner.waitFor({ timeout: 30_000 });
  const frame = await (await inner.elementHandle())!.contentFrame();
  if (!frame) throw new Error('webview frame not found');
  await frame.locator('#root').waitFor({ timeout: 30_000 });
  return frame;
}

/**
 * Right-clicks a tree row and chooses a context-menu entry. The tree may redraw under the pointer while it
 * loads, so a menu without the entry is closed and the right-click retried.
 */
export async function contextMenu(
  page: Page,
  row: Locator,
  entry: string,
  options: { shot?: string; attempts?: number; prepare?: () => Promise<void> } = {},
): Promise<void> {
  const attempts = options.attempts ?? 4;
  const item = page.locator('.monaco-menu .action-label', { hasText: entry });
  const menu = page.locator('.monaco-menu');
  for (let i = 1; ; i++) {
    // `prepare` (re)establishes what the menu acts on, such as a multi-selection, before every attempt.
    await options.prepare?.();
    await row.click({ button: 'right' });
    try {
      await item.first().waitFor({ timeout: 5_000 });
      await item.first().hover();
      if (options.shot) await screenshot(page, options.shot);
      await item.first().click();
      // A click that lands while the menu is still opening is ignored by the workbench: the hovered entry
      // is focused, so Enter chooses it then.
      if (!(await menu.first().waitFor({ state: 'hidden', timeout: 2_000 }).then(() => true, () => false))) {
        await page.keyboard.press('Enter');
        await menu.first().waitFor({ state: 'hidden', timeout: 5_000 });
      }
      return;
    } catch (err) {
      // Escape closes a menu left open; with no menu open it would clear the tree's selection instead.
      if (await menu.first().isVisible()) await page.keyboard.press('Escape');
      if (i >= attempts) {
        await screenshot(page, `failed-context-menu-${entry.replace(/\W+/g, '-')}`);
        throw err;
      }
    }
  }
}

/** Polls until the probe returns something (the UI acts asynchronously); fails after the deadline. */
export async function eventually<T>(probe: () => Promise<T | null | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value != null) return value;
    if (Date.now() > deadline) throw new Error('the expected change did not happen in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Switches the workbench to a light or dark theme (and waits until it shows). */
export async function setTheme(page: Page, kind: 'light' | 'dark'): Promise<void> {
  const isDark = async () => ((await page.locator('.monaco-workbench').getAttribute('class')) ?? '').includes('vs-dark');
  if ((await isDark()) === (kind === 'dark')) return;
  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  await eventually(async () => ((await isDark()) === (kind === 'dark') ? true : null));
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** The primary sidebar (the LangSmith container once opened). */
export function sidebar(page: Page): Locator {
  return page.locator('.part.sidebar');
}

/** A row of a sidebar tree by its accessible name. */
/**
 * Opens or closes one of the sidebar's views by clicking its title. Not the header's middle: while the pointer is
 * over a header its action buttons show, and a click there can land on one (Filter Projects…) instead.
 */
export async function setViewOpen(page: Page, view: string, open: boolean): Promise<void> {
  const header = sidebar(page).locator('.pane-header', { hasText: view });
  if (((await header.getAttribute('aria-expanded')) === 'true') !== open) await header.locator('.title').first().click();
}

export function treeRow(page: Page, name: string | RegExp): Locator {
  return sidebar(page).getByRole('treeitem', { name }).first();
}

/** Opens a workspace file by name with Quick Open, waiting until the palette knows the file. */
/** Unfolds a tree row by its twistie (a click on a row with its own action, such as a project, opens that instead). */
export async function expandRow(row: Locator): Promise<void> {
  if ((await row.getAttribute('aria-expanded')) === 'true') return;
  await row.locator('.monaco-tl-twistie').click();
  await eventually(async () => (await row.getAttribute('aria-expanded')) === 'true' || null);
}

export async function openFile(page: Page, name: string): Promise<void> {
  await eventually(async () => {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.fill(name);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
    if (!(await row.waitFor({ timeout: 3_000 }).then(() => true, () => false))) {
      await page.keyboard.press('Escape');
      return null;
    }
    await input.press('Enter');
    return true;
  }, 30_000);
  await page.locator('.tab.active', { hasText: name }).first().waitFor({ timeout: 15_000 });
}

export interface WorkbenchOptions {
  /** Options of the local server (seeded with the demo data; `seedProduction` adds demo-production's 100,000 runs). */
  server?: Omit<LocalServerOptions, 'seed'>;
  /** Signed in through LANGSMITH_* (default), or left to sign in through the UI. */
  signedIn?: boolean;
  /** Puts the demo prompt file in the workspace, as `npm start` does. */
  promptFile?: boolean;
}

/**
 * The setting of most UI suites, for the enclosing describe: a local server with the demo data and the workbench
 * with the packaged extension (signed in to it unless asked not to), both stopped after the suite. Call the
 * returned function inside hooks and tests.
 */
export function withWorkbench(o: WorkbenchOptions = {}): () => { wb: Workbench; server: LocalServer } {
  let wb: Workbench | undefined;
  let server: LocalServer | undefined;
  before(async () => {
    server = await startLocalServer({ seed: 'demo', ...(o.server ?? {}) });
    wb = await startWorkbench(o.signedIn === false ? {} : { LANGSMITH_ENDPOINT: server.url, LANGSMITH_API_KEY: server.apiKey });
    if (o.promptFile) {
      const dir = path.join(wb.server.workspace, 'prompts');
      fs.mkdirSync(dir, { recursive: true });
      fs.copyFileSync(path.join(ROOT, 'scripts/demo/demo-summarizer.prompt.yaml'), path.join(dir, 'demo-summarizer.prompt.yaml'));
    }
  });
  after(async () => {
    await wb?.close();
    await server?.close();
  });
  return () => {
    if (!wb || !server) throw new Error('withWorkbench(): only available inside hooks and tests');
    return { wb, server };
  };
}
