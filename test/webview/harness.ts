// Component tests of the webview apps: the built bundle (dist/webviews/<app>.js) in real Chromium, with a fake
// host that speaks the app's protocol. The page is served under the same CSP the extension sets, and gets a
// fake `acquireVsCodeApi` whose state survives page reloads (as VS Code keeps a webview's state), so a test can
// reload and see the draft come back.
//
//   const open = withWebviewApps();               in a mocha suite: one Chromium, each app closed after its test
//   const app = await open('exampleEditor', { theme: 'dark', handlers: { 'exampleEditor/ready': () => state } });
//   (openApp(browser, app, options) does the same by hand, in a browser of your own)
//   await app.page.getByRole('button', { name: 'Save' }).click();
//   app.requests('exampleEditor/save')            params of every save so far
//   await app.notify('exampleEditor/changed', {…})
//   await app.reload();                           same state, new page (a hidden tab shown again, a window reload)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fakeWebview, StubUri } from '../harness/vscodeStub';
import { renderWebviewHtml } from '../../src/webviews/html';

const ROOT = path.resolve(__dirname, '../..');
const ORIGIN = 'http://webview.test';

type Handler = (params: unknown) => unknown;
/** Throw this from a handler to answer with an error value. */
export class HostError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface AppOptions {
  theme?: 'dark' | 'light';
  /** Answers by method; an answer may be a promise (to hold a request open). */
  handlers: Record<string, Handler>;
  width?: number;
  height?: number;
  /**
   * Installs Playwright's clock in the page before it loads. Time flows as usual until the test moves the page's
   * timers on itself (`app.page.clock.runFor(ms)`) instead of waiting for them in real time.
   */
  clock?: boolean;
}

export interface OpenApp {
  page: Page;
  /** Params of every request and notification the app sent with this method, in order. */
  requests(method: string): unknown[];
  notify(method: string, params: unknown): Promise<void>;
  reload(): Promise<void>;
  /** Console errors and CSP violations of the page. */
  problems: string[];
  /** The CSP violations alone (directive and what was blocked), also counted in `problems`. */
  cspViolations: string[];
  /** The webview's saved state (what VS Code would keep). */
  savedState(): Promise<unknown>;
  close(): Promise<void>;
}

/** The --vscode-* variables the apps use, with values from VS Code's default dark and light themes. */
const THEMES: Record<'dark' | 'light', Record<string, string>> = {
  dark: {
    'font-family': 'system-ui, sans-serif', 'font-size': '13px', 'editor-font-family': 'monospace', 'editor-font-size': '13px',
    foreground: '#cccccc', 'editor-background': '#1f1f1f', 'editor-foreground': '#cccccc', descriptionForeground: '#9d9d9d', errorForeground: '#f85149',
    focusBorder: '#0078d4', 'input-background': '#313131', 'input-foreground': '#cccccc', 'input-border': '#3c3c3c', 'input-placeholderForeground': '#989898',
    'inputValidation-errorBackground': '#5a1d1d', 'inputValidation-errorBorder': '#be1100', 'button-background': '#0078d4', 'button-foreground': '#ffffff',
    'button-hoverBackground': '#026ec1', 'button-secondaryBackground': '#313131', 'button-secondaryForeground': '#cccccc', 'badge-background': '#616161',
    'badge-foreground': '#f8f8f8', 'textBlockQuote-background': '#2b2b2b', 'textLink-foreground': '#4daafc', 'list-hoverBackground': '#2a2d2e',
    'list-activeSelectionBackground': '#04395e', 'list-activeSelectionForeground': '#ffffff', 'panel-border': '#2b2b2b', 'widget-border': '#313131',
    'editorWarning-foreground': '#cca700', 'testing-iconPassed': '#73c991', 'gitDecoration-addedResourceForeground': '#81b88b',
    'gitDecoration-deletedResourceForeground': '#c74e39', 'gitDecoration-modifiedResourceForeground': '#e2c08d', 'diffEditor-insertedTextBackground': '#9ccc2c33',
    'diffEditor-removedTextBackground': '#ff000033', 'checkbox-background': '#313131', 'checkbox-border': '#3c3c3c', 'dropdown-background': '#313131',
    'dropdown-border': '#3c3c3c', 'dropdown-foreground': '#cccccc', 'scrollbarSlider-background': '#79797966', 'textPreformat-foreground': '#d0d0d0',
    'textCodeBlock-background': '#2b2b2b', 'sideBar-background': '#181818',
    'charts-foreground': '#cccccc', 'charts-lines': '#cccccc80', 'charts-red': '#f14c4c', 'charts-blue': '#3794ff', 'charts-yellow': '#cca700',
    'charts-orange': '#d18616', 'charts-green': '#89d185', 'charts-purple': '#b180d7', 'editorWidget-border': '#454545',
    'editorHoverWidget-background': '#202020', 'editorHoverWidget-foreground': '#cccccc', 'editorHoverWidget-border': '#454545', 'widget-shadow': '#0000005c',
  },
  light: {
    'font-family': 'system-ui, sans-serif', 'font-size': '13px', 'editor-font-family': 'monospace', 'editor-font-size': '13px',
    foreground: '#3b3b3b', 'editor-background': '#ffffff', 'editor-foreground': '#3b3b3b', descriptionForeground: '#717171', errorForeground: '#f85149',
    focusBorder: '#005fb8', 'input-background': '#ffffff', 'input-foreground': '#3b3b3b', 'input-border': '#cecece', 'input-placeholderForeground': '#767676',
    'inputValidation-errorBackground': '#f2dede', 'inputValidation-errorBorder': '#be1100', 'button-background': '#005fb8', 'button-foreground': '#ffffff',
    'button-hoverBackground': '#0258a8', 'button-secondaryBackground': '#e5e5e5', 'button-secondaryForeground': '#3b3b3b', 'badge-background': '#cccccc',
    'badge-foreground': '#3b3b3b', 'textBlockQuote-background': '#f8f8f8', 'textLink-foreground': '#005fb8', 'list-hoverBackground': '#f2f2f2',
    'list-activeSelectionBackground': '#e8e8e8', 'list-activeSelectionForeground': '#000000', 'panel-border': '#e5e5e5', 'widget-border': '#e5e5e5',
    'editorWarning-foreground': '#bf8803', 'testing-iconPassed': '#388a34', 'gitDecoration-addedResourceForeground': '#587c0c',
    'gitDecoration-deletedResourceForeground': '#ad0707', 'gitDecoration-modifiedResourceForeground': '#895503', 'diffEditor-insertedTextBackground': '#9ccc2c40',
    'diffEditor-removedTextBackground': '#ff000033', 'checkbox-background': '#f8f8f8', 'checkbox-border': '#cecece', 'dropdown-background': '#ffffff',
    'dropdown-border': '#cecece', 'dropdown-foreground': '#3b3b3b', 'scrollbarSlider-background': '#64646466', 'textPreformat-foreground': '#3b3b3b',
    'textCodeBlock-background': '#f8f8f8', 'sideBar-background': '#f8f8f8',
    'charts-foreground': '#616161', 'charts-lines': '#61616180', 'charts-red': '#e51400', 'charts-blue': '#1a85ff', 'charts-yellow': '#bf8803',
    'charts-orange': '#d18616', 'charts-green': '#388a34', 'charts-purple': '#652d90', 'editorWidget-border': '#c8c8c8',
    'editorHoverWidget-background': '#f8f8f8', 'editorHoverWidget-foreground': '#3b3b3b', 'editorHoverWidget-border': '#c8c8c8', 'widget-shadow': '#00000029',
  },
};

/**
 * The page the extension would give the app (src/webviews/html.ts: its CSP, a fresh nonce, the bundle), with this
 * origin standing for the webview's resource origin, plus what VS Code's own webview host page adds: the theme's
 * variables on <html>, the theme class on <body> and the editor's background and font.
 */
function page(app: string, theme: 'dark' | 'light', hasCss: boolean): string {
  const vars = Object.entries(THEMES[theme]).map(([k, v]) => `--vscode-${k.replace(/\./g, '-')}: ${v};`).join(' ');
  const html = renderWebviewHtml(fakeWebview(ORIGIN) as never, StubUri.file(ROOT) as never, app, app, hasCss);
  const nonce = /<meta property="csp-nonce" content="([^"]+)">/.exec(html)?.[1];
  if (!nonce) throw new Error('the webview page has no csp-nonce meta tag');
  const hostStyle = `<style nonce="${nonce}">/* What VS Code's webview host page gives every webview: the editor's background and font. */
html { background: var(--vscode-editor-background); }
body { margin: 0; padding: 0 20px; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }</style>`;
  return html.replace('<html lang="en">', `<html lang="en" style="${vars}">`).replace('</title>', `</title>\n${hostStyle}`).replace('<body>', `<body class="vscode-${theme}">`);
}

export async function openApp(browser: Browser, app: string, options: AppOptions): Promise<OpenApp> {
  const dist = path.join(ROOT, 'dist/webviews');
  const bundle = path.join(dist, `${app}.js`);
  if (!fs.existsSync(bundle)) throw new Error(`${bundle} is missing: build the webviews first (node esbuild.mjs --only=webviews).`);
  const hasCss = fs.existsSync(path.join(dist, `${app}.css`));
  const context: BrowserContext = await browser.newContext({ viewport: { width: options.width ?? 900, height: options.height ?? 800 } });
  if (options.clock) await context.clock.install();
  const p = await context.newPage();
  const log: { method: string; params: unknown }[] = [];
  const problems: string[] = [];
  const cspViolations: string[] = [];
  p.on('console', (m) => {
    if (m.type() !== 'error') return;
    problems.push(m.text());
    if (m.text().startsWith('CSP violation: ')) cspViolations.push(m.text().slice('CSP violation: '.length));
  });
  p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await p.route(`${ORIGIN}/**`, (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    if (name === '' || name === 'index.html') return route.fulfill({ contentType: 'text/html', body: page(app, options.theme ?? 'dark', hasCss) });
    const file = path.join(dist, path.basename(name));
    if (!fs.existsSync(file)) return route.fulfill({ status: 404, body: '' });
    return route.fulfill({ contentType: name.endsWith('.css') ? 'text/css' : 'text/javascript', body: fs.readFileSync(file) });
  });
  await p.exposeFunction('__lswToHost', async (message: { kind: string; id?: number; method: string; params: unknown }) => {
    log.push({ method: message.method, params: message.params });
    if (message.kind !== 'request') return;
    const handler = options.handlers[message.method];
    let reply: unknown;
    if (!handler) reply = { kind: 'response', id: message.id, ok: false, error: { code: 'unknownMethod', message: `Unknown request ${message.method}.` } };
    else {
      try {
        reply = { kind: 'response', id: message.id, ok: true, result: await handler(message.params) };
      } catch (err) {
        const e = err as HostError;
        reply = { kind: 'response', id: message.id, ok: false, error: { code: e.code ?? 'requestFailed', message: e.message } };
      }
    }
    // As text: Playwright's own serializer takes seconds over a megabyte-sized object, VS Code's postMessage does not.
    await p.evaluate((json) => window.postMessage(JSON.parse(json), '*'), JSON.stringify(reply)).catch(() => undefined);
  });
  // VS Code keeps a webview's state across reloads of its page: sessionStorage does the same for this tab.
  // (A string, not a function: the test runner's transpiler would add helpers the page does not have.)
  await p.addInitScript(`
    document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));
    let acquired = false;
    window.acquireVsCodeApi = () => {
      if (acquired) throw new Error('acquireVsCodeApi called twice');
      acquired = true;
      return {
        postMessage: (m) => void window.__lswToHost(JSON.parse(JSON.stringify(m))),
        getState: () => {
          const s = sessionStorage.getItem('vscodeState');
          return s ? JSON.parse(s) : undefined;
        },
        setState: (s) => sessionStorage.setItem('vscodeState', JSON.stringify(s)),
      };
    };
  `);
  await p.goto(`${ORIGIN}/index.html`);
  return {
    page: p,
    problems,
    cspViolations,
    requests: (method) => log.filter((l) => l.method === method).map((l) => l.params),
    notify: (method, params) => p.evaluate((m) => window.postMessage(m, '*'), { kind: 'notification', method, params }),
    reload: async () => {
      await p.reload();
    },
    savedState: () => p.evaluate(() => JSON.parse(sessionStorage.getItem('vscodeState') ?? 'null')),
    close: () => context.close(),
  };
}

export { launchBrowser } from '../../scripts/lib/vscode.mjs';
import { launchBrowser } from '../../scripts/lib/vscode.mjs';

/**
 * One Chromium for a mocha suite. Each test opens its app with the function returned; the app is closed after
 * the test, and a test that passed fails if the page logged an error or broke the CSP.
 */
export function withWebviewApps(): (app: string, options: AppOptions) => Promise<OpenApp> {
  let browser: Browser | undefined;
  const opened: OpenApp[] = [];
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => browser?.close());
  afterEach(async function () {
    const problems = opened.flatMap((a) => a.problems);
    await Promise.all(opened.splice(0).map((a) => a.close()));
    if (this.currentTest?.state === 'passed') assert.deepEqual(problems, [], 'console errors or CSP violations in the page');
  });
  return async (app, options) => {
    const open = await openApp(browser!, app, options);
    opened.push(open);
    return open;
  };
}

/** Where component-test screenshots go (looked at by people, named in the README). */
export async function screenshot(p: Page, name: string): Promise<void> {
  const dir = path.join(ROOT, '.test-output/screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await p.screenshot({ path: path.join(dir, `${name}.png`) });
}
