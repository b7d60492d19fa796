// The trace viewer against a fake host: the run tree built from dotted orders (orphans, shuffled rows, cycles,
// duplicate ids), the waterfall, payloads rendered as what they are (OpenAI and LangChain messages, documents,
// JSON, long and cut strings), find, the keyboard, 5,000 runs virtualised, hostile text, 400 px, feedback, a
// thread, the problem view's Retry, and screenshots in both themes.
import assert from 'node:assert/strict';
import { RUNNING_REFRESH_MS, type FeedbackItem, type Payload, type RunDetail, type RunRow, type ThreadData, type ThreadTurn, type TraceData, type TraceState } from '../../src/protocol/trace';
import type { Locator } from 'playwright-core';
import { aiAnswer, classify, humanInput } from '../../webview-ui/src/common/run/classify';
import { ancestorIds, barGeometry, buildTree, dottedParent, expandTo, timeSpan, visibleRows } from '../../webview-ui/src/common/run/tree';
import { HostError, screenshot, withWebviewApps, type OpenApp } from './harness';

const T0 = Date.UTC(2026, 0, 15, 9, 30, 0);
const uid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** LangSmith's dotted-order segment for a run: its start time (microseconds) and id. */
function segment(start: number, id: string): string {
  const d = new Date(start);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}T${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}${p(d.getUTCMilliseconds(), 3)}000Z${id}`;
}

interface RunSpec {
  n: number;
  name?: string;
  parent?: RunRow;
  runType?: string;
  status?: RunRow['status'];
  /** Offsets from T0, in ms. */
  start?: number;
  end?: number | null;
  tokens?: number | null;
  errorPreview?: string | null;
}

function run(spec: RunSpec): RunRow {
  const id = uid(spec.n);
  const start = T0 + (spec.start ?? 0);
  return {
    id,
    parentId: spec.parent?.id ?? null,
    dottedOrder: spec.parent ? `${spec.parent.dottedOrder}.${segment(start, id)}` : segment(start, id),
    name: spec.name ?? `run ${spec.n}`,
    runType: spec.runType ?? 'chain',
    status: spec.status ?? 'success',
    start,
    end: spec.end === null ? null : T0 + (spec.end ?? (spec.start ?? 0) + 100),
    firstToken: null,
    tokens: { prompt: null, completion: null, total: spec.tokens ?? null },
    cost: null,
    errorPreview: spec.errorPreview ?? (spec.status === 'error' ? 'ValueError: something failed' : null),
  };
}

function traceOf(runs: RunRow[], over: Partial<TraceData['header']> = {}): TraceData {
  const root = runs.find((r) => r.parentId === null) ?? runs[0]!;
  return {
    header: {
      traceId: root.id,
      rootRunId: root.id,
      name: root.name,
      runType: root.runType,
      status: root.status,
      start: root.start,
      end: root.end,
      tokens: { prompt: 120, completion: 45, total: 165 },
      cost: { prompt: 0.001, completion: 0.0023, total: 0.0033 },
      project: { id: uid(9000), name: 'support-bot' },
      threadId: null,
      shareUrl: null,
      readOnly: false,
      ...over,
    },
    runs,
    source: 'v2',
    requests: 1,
  };
}

const payload = (value: unknown, cuts: Payload['cuts'] = []): Payload => ({ value, cuts, bytes: JSON.stringify(value)?.length ?? 0 });

function detailOf(r: RunRow, over: Partial<RunDetail> = {}): RunDetail {
  return {
    id: r.id,
    inputs: payload({ question: `input of ${r.name}` }),
    outputs: payload({ answer: `output of ${r.name}` }),
    error: r.status === 'error' ? 'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: something failed' : null,
    tags: ['prod'],
    metadata: payload({ ls_provider: 'openai', revision: 3 }),
    model: r.runType === 'llm' ? 'gpt-4o-mini' : null,
    invocationParams: r.runType === 'llm' ? payload({ temperature: 0.2 }) : null,
    attachments: [],
    feedback: [],
    inDataset: false,
    ...over,
  };
}

/** A small agent trace: root chain → prompt, llm (tool call), tool, retriever, llm (answer); one tool errored. */
function agent() {
  const root = run({ n: 1, name: 'AgentExecutor', start: 0, end: 4000 });
  const prompt = run({ n: 2, name: 'ChatPromptTemplate', parent: root, runType: 'prompt', start: 10, end: 20 });
  const llm1 = run({ n: 3, name: 'ChatOpenAI', parent: root, runType: 'llm', start: 30, end: 1200, tokens: 90 });
  const tool = run({ n: 4, name: 'search_tool', parent: root, runType: 'tool', start: 1250, end: 2000, status: 'error' });
  const retriever = run({ n: 5, name: 'VectorStoreRetriever', parent: root, runType: 'retriever', start: 2000, end: 2400 });
  const llm2 = run({ n: 6, name: 'ChatOpenAI', parent: root, runType: 'llm', start: 2400, end: 3900, tokens: 75 });
  const inner = run({ n: 7, name: 'inner_parser', parent: llm2, runType: 'parser', start: 3800, end: 3890, status: 'error' });
  return { root, prompt, llm1, tool, retriever, llm2, inner, all: [root, prompt, llm1, tool, retriever, llm2, inner] };
}

const READY = (state: TraceState) => ({ restore: { kind: 'trace' }, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state });

interface HostOptions {
  details?: Record<string, Partial<RunDetail>>;
  find?: (text: string) => string[];
  extra?: Record<string, (params: unknown) => unknown>;
}

function traceHost(runs: RunRow[], state: Partial<Extract<TraceState, { kind: 'trace' }>> = {}, options: HostOptions = {}) {
  const byId = new Map(runs.map((r) => [r.id, r]));
  const st: TraceState = { kind: 'trace', trace: traceOf(runs), selectedRunId: null, ...state };
  return {
    'trace/ready': () => READY(st),
    'trace/readRun': (p: unknown) => {
      const id = (p as { runId: string }).runId;
      return detailOf(byId.get(id) ?? runs[0]!, { id, ...options.details?.[id] });
    },
    'trace/find': (p: unknown) => ({ runIds: options.find?.((p as { text: string }).text) ?? [] }),
    'trace/act': () => ({ message: 'Done.' }),
    ...options.extra,
  };
}

const selectedName = (app: OpenApp) => app.page.locator('[data-testid="run-row"][aria-selected="true"] [data-testid="run-name"]').textContent();
const rowNames = (app: OpenApp) => app.page.locator('[data-testid="run-row"] [data-testid="run-name"]').allTextContents();
/** The JSON tree's entry for a key, and its toggle. */
const entry = (scope: Locator, key: string) => scope.locator('.tv-json-key').filter({ hasText: new RegExp(`^"${key}":$`) }).locator('xpath=..');
const toggleOf = (e: Locator) => e.locator(':scope > .tv-json > .tv-json-toggle');
const row = (app: OpenApp, id: string) => app.page.locator(`[data-testid="run-row"][data-run-id="${id}"]`);

/**
 * A round trip through the page's channel to the host: whatever the page sent before it (a reload its timer asked
 * for) has reached the host's handlers when this resolves.
 */
async function hostHeard(app: OpenApp): Promise<void> {
  await app.page.evaluate(`window.__lswToHost({ kind: 'notification', method: 'test/heard', params: null })`);
}

async function eventually(check: () => Promise<void> | void, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('webview: trace viewer', () => {
  const open = withWebviewApps();

  it('builds the tree from dotted orders: shuffled rows give the same order, orphans are marked', async () => {
    const a = agent();
    const orphan = run({ n: 50, name: 'lost child', start: 500, end: 600 });
    orphan.parentId = uid(999);
    orphan.dottedOrder = `${segment(T0, uid(999))}.${segment(T0 + 500, orphan.id)}`;
    const ordered = [...a.all, orphan];
    const shuffled = [a.inner, orphan, a.llm2, a.tool, a.root, a.retriever, a.prompt, a.llm1];
    const app1 = await open('trace', { handlers: traceHost(ordered) });
    await app1.page.getByTestId('run-row').first().waitFor();
    const expected = ['AgentExecutor', 'ChatPromptTemplate', 'ChatOpenAI', 'search_tool', 'VectorStoreRetriever', 'ChatOpenAI', 'inner_parser', 'lost child'];
    assert.deepEqual(await rowNames(app1), expected);
    const app2 = await open('trace', { handlers: traceHost(shuffled) });
    await app2.page.getByTestId('run-row').first().waitFor();
    assert.deepEqual(await rowNames(app2), expected);
    assert.equal(await row(app2, orphan.id).getByTestId('orphan').count(), 1);
    assert.equal(await row(app2, a.llm2.id).getByTestId('orphan').count(), 0);
    // Depth: the parser is under the second llm.
    assert.equal(await row(app2, a.inner.id).getAttribute('aria-level'), '3');
    // The root is selected first and its detail read.
    assert.equal(await selectedName(app2), 'AgentExecutor');
    await app2.page.getByTestId('outputs').getByText('output of AgentExecutor').waitFor();
  });

  it('survives cycles, duplicate ids, empty dotted orders and a parentId-only tree', async () => {
    const a = run({ n: 1, name: 'a', start: 0, end: 100 });
    const b = run({ n: 2, name: 'b', start: 10, end: 50 });
    const c = run({ n: 3, name: 'c', start: 20, end: 30 });
    // a → b → a (by parentId; no dotted orders), c's parent is c itself, and a duplicate of b.
    a.parentId = b.id;
    a.dottedOrder = '';
    b.parentId = a.id;
    b.dottedOrder = '';
    c.parentId = c.id;
    c.dottedOrder = `${segment(T0, c.id)}.${segment(T0, c.id)}`;
    const dup = { ...b, name: 'duplicate b' };
    const d = run({ n: 4, name: 'd', start: 40, end: 45 });
    d.parentId = b.id;
    d.dottedOrder = '';
    const app = await open('trace', { handlers: traceHost([a, b, c, dup, d]) });
    await app.page.getByTestId('run-row').first().waitFor();
    const names = await rowNames(app);
    assert.equal(names.length, 4);
    assert.ok(!names.includes('duplicate b'));
    assert.deepEqual([...names].sort(), ['a', 'b', 'c', 'd']);
    assert.ok(names.indexOf('d') > names.indexOf('b'), 'd sits under b');
  });

  it('places each run in the waterfall: a child starting at half the span starts at 50%', async () => {
    const root = run({ n: 1, name: 'root', start: 0, end: 1000 });
    const half = run({ n: 2, name: 'half', parent: root, start: 500, end: 750 });
    const app = await open('trace', { handlers: traceHost([root, half]) });
    const bar = row(app, half.id).getByTestId('bar');
    await bar.waitFor();
    const geo = await bar.evaluate((el) => {
      const track = el.parentElement!.getBoundingClientRect();
      const b = el.getBoundingClientRect();
      return { left: (b.left - track.left) / track.width, width: b.width / track.width };
    });
    assert.ok(Math.abs(geo.left - 0.5) < 0.02, `left ${geo.left}`);
    assert.ok(Math.abs(geo.width - 0.25) < 0.02, `width ${geo.width}`);
    const rootGeo = await row(app, root.id).getByTestId('bar').evaluate((el) => el.getBoundingClientRect().width / el.parentElement!.getBoundingClientRect().width);
    assert.ok(rootGeo > 0.98);
  });

  it('shows a run’s tokens, and nothing for a run that used none', async () => {
    const root = run({ n: 1, name: 'root', start: 0, end: 1000, tokens: 0 });
    const llm = run({ n: 2, name: 'llm', parent: root, runType: 'llm', start: 10, end: 900, tokens: 1234 });
    const app = await open('trace', { handlers: traceHost([root, llm]) });
    await row(app, llm.id).waitFor();
    assert.equal(((await row(app, llm.id).locator('.tv-tokens').textContent()) ?? '').trim(), '1,234');
    assert.equal(((await row(app, root.id).locator('.tv-tokens').textContent()) ?? '').trim(), '');
  });

  it('renders an OpenAI chat with tool calls and the tool result', async () => {
    const a = agent();
    const inputs = {
      messages: [
        { role: 'system', content: 'You are a helpful support bot.' },
        { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,' + 'A'.repeat(4096) } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"C"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '18 degrees and sunny' },
      ],
    };
    const outputs = { choices: [{ index: 0, message: { role: 'assistant', content: 'It is 18 °C and sunny in Paris.' } }] };
    const withImages = {
      inputs: payload({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: 'https://images.example.com/cat.png' } }] }] }),
      attachments: [
        { name: 'chart.png', url: 'https://images.example.com/chart.png', mimeType: 'image/png' },
        { name: 'notes.pdf', url: 'https://images.example.com/notes.pdf', mimeType: 'application/pdf' },
      ],
    };
    const app = await open('trace', {
      handlers: traceHost(a.all, { selectedRunId: a.llm1.id }, { details: { [a.llm1.id]: { inputs: payload(inputs), outputs: payload(outputs) }, [a.llm2.id]: withImages } }),
    });
    const input = app.page.getByTestId('inputs');
    await input.getByTestId('conversation').waitFor();
    const roles = await input.locator('[data-testid="message"] .tv-role').allTextContents();
    assert.deepEqual(roles, ['System', 'Human', 'AI', 'Tool']);
    const call = input.getByTestId('tool-call');
    assert.match((await call.textContent()) ?? '', /get_weather/);
    assert.match((await call.locator('pre').textContent()) ?? '', /"city": "Paris"/);
    assert.match((await input.locator('[data-role="tool"]').textContent()) ?? '', /call_1.*18 degrees and sunny/s);
    // A data: image is not inlined.
    assert.equal(await input.locator('img').count(), 0);
    await input.getByText(/\[image, \d+ KB inline\]/).waitFor();
    await app.page.getByTestId('outputs').getByText('It is 18 °C and sunny in Paris.').waitFor();
    // Images from http(s): lazy <img>; attachments: an image shown, another file named with its type.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await app.page.route('https://images.example.com/**', (route) => route.fulfill({ contentType: 'image/png', body: png }));
    await row(app, a.llm2.id).click();
    await app.page.getByTestId('attachments').waitFor();
    const shown = app.page.getByTestId('attachments').locator('img');
    assert.equal(await shown.getAttribute('alt'), 'chart.png');
    assert.equal(await shown.getAttribute('loading'), 'lazy');
    assert.match((await app.page.getByTestId('attachments').locator('button').textContent()) ?? '', /notes\.pdf.*application\/pdf/);
    const inMessage = app.page.getByTestId('inputs').locator('img');
    assert.equal(await inMessage.getAttribute('src'), 'https://images.example.com/cat.png');
    assert.equal(await inMessage.getAttribute('loading'), 'lazy');
    // The JSON toggle shows the same payload as JSON.
    await app.page.getByTestId('inputs-json').click();
    assert.equal(await input.getByTestId('conversation').count(), 0);
    await input.getByText('"messages":').waitFor();
  });

  it('renders LangChain serialized messages, generations and retriever documents', async () => {
    const a = agent();
    const lc = (cls: string, kwargs: unknown) => ({ lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', cls], kwargs });
    const llmInputs = { messages: [[lc('SystemMessage', { content: 'Be brief.' }), lc('HumanMessage', { content: 'Hi there' })]] };
    const llmOutputs = {
      generations: [[{ text: 'Hello!', message: lc('AIMessage', { content: 'Hello!', tool_calls: [{ name: 'lookup', args: { q: 'greeting' }, id: 'tc_9' }] }) }]],
    };
    const docs = {
      documents: [
        { page_content: 'Two-factor authentication is under Settings.', metadata: { source: 'docs/security.md' } },
        { page_content: 'Invoices are available on the annual plan.', metadata: { source: 'https://example.com/billing' } },
      ],
    };
    const app = await open('trace', {
      handlers: traceHost(a.all, { selectedRunId: a.llm2.id }, {
        details: {
          [a.llm2.id]: { inputs: payload(llmInputs), outputs: payload(llmOutputs) },
          [a.retriever.id]: { outputs: payload(docs) },
          [a.prompt.id]: { outputs: payload({ lc: 1, type: 'constructor', id: ['langchain', 'prompts', 'base', 'StringPromptValue'], kwargs: { text: 'Answer in French: hello' } }) },
          [a.root.id]: { outputs: payload({ output: { type: 'ai', content: 'Final answer from the agent' }, intermediate_steps: [] }) },
        },
      }),
    });
    const input = app.page.getByTestId('inputs');
    await input.getByTestId('conversation').waitFor();
    assert.deepEqual(await input.locator('[data-testid="message"] .tv-role').allTextContents(), ['System', 'Human']);
    const out = app.page.getByTestId('outputs');
    assert.deepEqual(await out.locator('[data-testid="message"] .tv-role').allTextContents(), ['AI']);
    assert.match((await out.getByTestId('tool-call').textContent()) ?? '', /lookup.*"q": "greeting"/s);
    await row(app, a.prompt.id).click();
    await app.page.getByTestId('detail-name').getByText('ChatPromptTemplate').waitFor();
    await app.page.getByTestId('outputs').getByText('Answer in French: hello').waitFor();
    assert.equal(await app.page.getByTestId('outputs').getByText('"kwargs":').count(), 0, 'a prompt value is shown as its text');
    await row(app, a.root.id).click();
    await app.page.getByTestId('outputs').getByTestId('message').getByText('Final answer from the agent').waitFor();
    await row(app, a.retriever.id).click();
    const documents = app.page.getByTestId('outputs').getByTestId('document');
    await documents.first().waitFor();
    assert.equal(await documents.count(), 2);
    assert.match((await documents.nth(0).textContent()) ?? '', /docs\/security\.md.*Two-factor/s);
    assert.match((await documents.nth(1).textContent()) ?? '', /https:\/\/example\.com\/billing/);
    // The source is text, not a link.
    assert.equal(await app.page.getByTestId('outputs').locator('a').count(), 0);
  });

  it('shows an unknown shape as a folded JSON tree, with long arrays a page at a time', async () => {
    const a = agent();
    const weird = { result: { nested: { deeper: 'hidden until opened' } }, items: Array.from({ length: 150 }, (_, i) => i), flag: true };
    const app = await open('trace', { handlers: traceHost(a.all, {}, { details: { [a.root.id]: { outputs: payload(weird) } } }) });
    const out = app.page.getByTestId('outputs');
    await out.getByText('"result":').waitFor();
    assert.equal(await out.getByText('hidden until opened').count(), 0, 'second level is folded');
    await toggleOf(entry(out, 'result')).click();
    await toggleOf(entry(out, 'nested')).click();
    await out.getByText('hidden until opened').waitFor();
    await toggleOf(entry(out, 'items')).click();
    await out.getByTestId('show-more-items').waitFor();
    assert.equal(await entry(out, 'items').locator('.tv-json-children .tv-json-entry').count(), 100);
    await out.getByTestId('show-more-items').click();
    assert.equal(await entry(out, 'items').locator('.tv-json-children .tv-json-entry').count(), 150);
  });

  it('collapses a long string, and asks for a cut one whole with its path', async () => {
    const a = agent();
    const long = 'line of text\n'.repeat(400);
    const cutText = 'x'.repeat(1500);
    const outputs = payload({ report: { body: cutText, summary: long, rows: [1, 2, 3] } }, [
      { path: ['report', 'body'], kind: 'string', length: 250_000 },
      { path: ['report', 'rows'], kind: 'array', length: 2_000_000 },
    ]);
    const showAll: unknown[] = [];
    const app = await open('trace', {
      handlers: traceHost(a.all, {}, {
        details: { [a.root.id]: { outputs } },
        extra: {
          'trace/showAll': (p) => {
            showAll.push(p);
            // Too big for the page: the host opens the array in an editor.
            if ((p as { path: unknown[] }).path.includes('rows')) return { text: null, opened: true };
            return { text: 'y'.repeat(250_000), opened: false };
          },
        },
      }),
    });
    const out = app.page.getByTestId('outputs');
    await out.getByText('"report":').waitFor();
    await toggleOf(entry(out, 'report')).click();
    // The long string shows its head and "Show all".
    const local = entry(out, 'summary').getByTestId('show-more-text');
    await local.waitFor();
    assert.match((await local.textContent()) ?? '', /Show all/);
    const summaryLen = await entry(out, 'summary').locator('pre').evaluate((el) => el.textContent!.length);
    assert.ok(summaryLen < long.length, 'collapsed');
    await local.click();
    assert.equal(await entry(out, 'summary').locator('pre').evaluate((el) => el.textContent!.length), long.length);
    // The cut string says how much is missing and asks the host with its path.
    const cut = entry(out, 'body');
    await cut.getByText(/248,500 characters more/).waitFor();
    await cut.getByTestId('show-all-cut').click();
    await eventually(() => assert.equal(showAll.length, 1));
    assert.deepEqual(showAll[0], { runId: a.root.id, part: 'outputs', path: ['report', 'body'] });
    // 250,000 characters came back: at most 100 KB of it is on the page.
    await eventually(async () => {
      const len = await cut.locator('pre').first().evaluate((el) => el.textContent!.length);
      assert.ok(len >= 100_000 && len <= 100_001, `shown ${len}`);
    });
    await cut.getByText(/Show 100,000 more characters/).waitFor();
    // A cut array: how many items are missing; Show all opens it in an editor.
    const rows = entry(out, 'rows');
    await toggleOf(rows).click();
    await rows.getByText(/1,999,997 items more/).waitFor();
    await rows.getByTestId('show-all-cut').click();
    await rows.getByText('Opened in an editor.').waitFor();
    assert.deepEqual(showAll[1], { runId: a.root.id, part: 'outputs', path: ['report', 'rows'] });
    // Another run's detail starts afresh (nothing fetched whole for this one is shown there).
    await row(app, a.prompt.id).click();
    await app.page.getByTestId('detail-name').getByText('ChatPromptTemplate').waitFor();
    assert.equal(await app.page.getByText(/Show 100,000 more characters/).count(), 0);
  });

  it('takes screenshots in both themes, wide and at 400 px', async () => {
    const a = agent();
    const llmInputs = { messages: [{ role: 'system', content: 'You are a helpful support bot.' }, { role: 'user', content: 'How do I enable two-factor authentication?' }] };
    const llmOutputs = { generations: [[{ text: 'Open Settings → Security → Two-factor.', message: { type: 'ai', data: { content: 'Open Settings → Security → Two-factor.' } } }]] };
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1000, 400]) {
        const app = await open('trace', {
          theme,
          width,
          height: 700,
          handlers: traceHost(a.all, { selectedRunId: a.llm1.id }, { details: { [a.llm1.id]: { inputs: payload(llmInputs), outputs: payload(llmOutputs) } } }),
        });
        await app.page.getByTestId('inputs').getByTestId('conversation').waitFor();
        if (width === 400) {
          // Secondary actions fold behind "More…" on a narrow panel.
          assert.equal(await app.page.getByTestId('act-copyId').isVisible(), false);
          await app.page.getByTestId('more-actions').click();
          assert.equal(await app.page.getByTestId('act-copyId').isVisible(), true);
          await app.page.getByTestId('more-actions').click();
        } else assert.equal(await app.page.getByTestId('more-actions').isVisible(), false);
        await screenshot(app.page, `trace-${theme}-${width}`);
        const overflow = await app.page.evaluate(() => ({ scroll: document.body.scrollWidth, client: document.body.clientWidth }));
        assert.ok(overflow.scroll <= overflow.client, `no horizontal overflow at ${width}: ${JSON.stringify(overflow)}`);
        await app.close();
      }
    }
  });

  it('finds in the trace: asks the host, marks the rows, Enter steps and selects', async () => {
    const a = agent();
    const app = await open('trace', { handlers: traceHost(a.all, {}, { find: (t) => (t === 'chat' ? [a.llm1.id, a.llm2.id] : []) }) });
    await app.page.getByTestId('run-row').first().waitFor();
    const find = app.page.getByTestId('find');
    await find.fill('chat');
    await eventually(() => assert.deepEqual(app.requests('trace/find'), [{ text: 'chat' }]));
    await eventually(async () => assert.equal(await app.page.locator('.tv-row-marked').count(), 2));
    assert.equal(await row(app, a.llm1.id).evaluate((el) => el.classList.contains('tv-row-marked')), true);
    await find.press('Enter');
    await eventually(async () => assert.equal(await row(app, a.llm1.id).getAttribute('aria-selected'), 'true'));
    assert.equal(await app.page.getByTestId('find-count').textContent(), '1 of 2');
    await find.press('Enter');
    await eventually(async () => assert.equal(await row(app, a.llm2.id).getAttribute('aria-selected'), 'true'));
    assert.equal(await app.page.getByTestId('find-count').textContent(), '2 of 2');
    await find.press('Shift+Enter');
    await eventually(async () => assert.equal(await row(app, a.llm1.id).getAttribute('aria-selected'), 'true'));
    // A found run inside a collapsed parent is shown (its ancestors expanded).
    await row(app, a.llm2.id).locator('.tv-twisty').click();
    assert.equal(await row(app, a.inner.id).count(), 0);
    await find.fill('parser');
    await eventually(() => assert.equal(app.requests('trace/find').length, 2));
    await find.press('Escape');
    assert.equal(await find.inputValue(), '');
    assert.equal(await app.page.locator('.tv-row-marked').count(), 0);
  });

  it('finds a run under a collapsed parent and expands to it', async () => {
    const a = agent();
    const app = await open('trace', { handlers: traceHost(a.all, {}, { find: () => [a.inner.id] }) });
    await row(app, a.llm2.id).locator('.tv-twisty').click();
    assert.equal(await row(app, a.inner.id).count(), 0);
    const find = app.page.getByTestId('find');
    await find.fill('inner');
    await find.press('Enter');
    await eventually(async () => assert.equal(await row(app, a.inner.id).getAttribute('aria-selected'), 'true'));
  });

  it('moves with the keyboard: arrows, collapse and expand, [ and ] to errors, / to find', async () => {
    const a = agent();
    const app = await open('trace', { handlers: traceHost(a.all) });
    await row(app, a.root.id).click();
    const kb = app.page.keyboard;
    await kb.press('ArrowDown');
    assert.equal(await selectedName(app), 'ChatPromptTemplate');
    await kb.press('ArrowUp');
    assert.equal(await selectedName(app), 'AgentExecutor');
    // ← collapses the root, → expands it, → again goes to its first child, ← on a leaf goes to the parent.
    await kb.press('ArrowLeft');
    assert.equal(await app.page.getByTestId('run-row').count(), 1);
    await kb.press('ArrowRight');
    assert.equal(await app.page.getByTestId('run-row').count(), 7);
    await kb.press('ArrowRight');
    assert.equal(await selectedName(app), 'ChatPromptTemplate');
    await kb.press('ArrowLeft');
    assert.equal(await selectedName(app), 'AgentExecutor');
    // ] goes to the next errored run, expanding its ancestors; [ goes back.
    await row(app, a.llm2.id).locator('.tv-twisty').click();
    await row(app, a.root.id).click();
    await kb.press(']');
    assert.equal(await selectedName(app), 'search_tool');
    await kb.press(']');
    assert.equal(await selectedName(app), 'inner_parser');
    await kb.press('[');
    assert.equal(await selectedName(app), 'search_tool');
    // The error is shown in the detail.
    await app.page.getByTestId('error').getByText(/ValueError: something failed/).waitFor();
    await app.page.getByTestId('find').fill('tool');
    await app.page.locator('.tv-row-marked').first().waitFor();
    await screenshot(app.page, 'trace-error-find-dark');
    await app.page.getByTestId('find').press('Escape');
    await row(app, a.tool.id).click();
    await kb.press('/');
    assert.equal(await app.page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'find');
    // ? in the find box types it; from the tree it opens the keys, and Escape closes them.
    await kb.press('?');
    assert.equal(await app.page.getByTestId('find').inputValue(), '?');
    assert.equal(await app.page.getByTestId('keys-help').count(), 0);
    await app.page.getByTestId('find').press('Escape');
    await row(app, a.tool.id).click();
    await kb.press('?');
    assert.match((await app.page.getByTestId('keys-help').textContent()) ?? '', /Previous \/ next run that failed/);
    await kb.press('Escape');
    assert.equal(await app.page.getByTestId('keys-help').count(), 0);
  });

  it('selects the run the host names (SelectRun), expanding its ancestors', async () => {
    const a = agent();
    const app = await open('trace', { handlers: traceHost(a.all, { selectedRunId: a.tool.id }) });
    await eventually(async () => assert.equal(await selectedName(app), 'search_tool'));
    await row(app, a.llm2.id).locator('.tv-twisty').click();
    await app.notify('trace/select', { runId: a.inner.id });
    await eventually(async () => assert.equal(await selectedName(app), 'inner_parser'));
    await app.page.getByTestId('detail-name').getByText('inner_parser').waitFor();
    // Collapsing the selected run's parent selects the parent.
    await row(app, a.llm2.id).locator('.tv-twisty').click();
    await eventually(async () => assert.equal(await row(app, a.llm2.id).getAttribute('aria-selected'), 'true'));
    // The split moves with the keyboard and is kept.
    const before = await app.page.getByTestId('tree').evaluate((el) => el.getBoundingClientRect().width);
    await app.page.getByTestId('splitter').focus();
    await app.page.keyboard.press('ArrowRight');
    await eventually(async () => assert.ok((await app.page.getByTestId('tree').evaluate((el) => el.getBoundingClientRect().width)) > before + 20));
  });

  it('virtualises 5,000 runs (a 5,000-deep chain too): a window in the DOM, the last run reached by scrolling', async function () {
    this.timeout(120_000);
    const root = run({ n: 1, name: 'root', start: 0, end: 60_000 });
    const flat = [root, ...Array.from({ length: 5000 }, (_, i) => run({ n: 10 + i, name: `step ${i}`, parent: root, start: i * 10, end: i * 10 + 9 }))];
    const app = await open('trace', { handlers: traceHost(flat) });
    await app.page.getByTestId('run-row').first().waitFor();
    assert.ok((await app.page.getByTestId('run-row').count()) < 200);
    await app.page.getByTestId('tree').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await app.page.getByText('step 4999', { exact: true }).waitFor();
    assert.ok((await app.page.getByTestId('run-row').count()) < 200);
    await app.close();

    // A chain 5,000 deep: no stack overflow, End reaches the deepest run.
    const chain: RunRow[] = [run({ n: 1, name: 'level 0', start: 0, end: 60_000 })];
    for (let i = 1; i < 5000; i++) {
      const parent = chain[i - 1]!;
      const r = run({ n: 1 + i, name: `level ${i}`, start: i, end: 60_000 - i });
      r.parentId = parent.id;
      r.dottedOrder = i % 2 ? '' : r.dottedOrder; // half without dotted order: parentId then
      chain.push(r);
    }
    const deep = await open('trace', { handlers: traceHost(chain.reverse()) });
    await deep.page.getByTestId('run-row').first().waitFor();
    await deep.page.getByTestId('tree').focus();
    await deep.page.keyboard.press('End');
    await eventually(async () => assert.equal(await selectedName(deep), 'level 4999'));
    assert.ok((await deep.page.getByTestId('run-row').count()) < 200);
  });

  it('shows hostile text as text: no markup, no links, no CSP violations', async () => {
    const evil = '<img src=x onerror="window.hacked=1"> <script>window.hacked=2</script>';
    const root = run({ n: 1, name: evil, start: 0, end: 1000 });
    const child = run({ n: 2, name: 'javascript:alert(1)', parent: root, runType: 'tool', start: 10, end: 20 });
    const rtl = run({ n: 3, name: 'file\u202Egnp.exe', parent: root, start: 30, end: 40 });
    const outputs = {
      messages: [{ role: 'assistant', content: [{ type: 'text', text: evil }, { type: 'image_url', image_url: { url: 'javascript:alert(1)' } }] }],
    };
    const app = await open('trace', {
      handlers: traceHost([root, child, rtl], {}, {
        details: {
          [root.id]: {
            outputs: payload(outputs),
            metadata: payload({ link: 'javascript:alert(1)', html: evil }),
            attachments: [{ name: evil, url: 'https://example.com/a.txt', mimeType: 'text/plain' }],
            feedback: [{ id: uid(77), key: evil, score: 1, value: 'javascript:alert(1)', comment: evil, source: 'api', createdAt: T0 }],
          },
        },
      }),
    });
    await app.page.getByTestId('outputs').getByTestId('message').waitFor();
    await app.page.getByTestId('attachments').waitFor();
    assert.equal(await app.page.getByTestId('trace-name').textContent(), evil);
    assert.equal(await app.page.locator('#root img, #root script, #root a, #root iframe').count(), 0);
    assert.equal(await app.page.evaluate(() => (window as unknown as { hacked?: number }).hacked), undefined);
    assert.ok(((await app.page.getByTestId('outputs').textContent()) ?? '').includes(evil));
    assert.equal(await row(app, rtl.id).getByTestId('run-name').textContent(), 'file\u202Egnp.exe');
    assert.deepEqual(app.cspViolations, []);
  });

  it('adds feedback: the form sends what was typed, the item appears, errors show', async () => {
    const a = agent();
    const added: unknown[] = [];
    let fail = true;
    const app = await open('trace', {
      handlers: traceHost(a.all, {}, {
        extra: {
          'trace/addFeedback': (p) => {
            added.push(p);
            if (fail) {
              fail = false;
              throw new HostError('requestFailed', 'LangSmith refused the feedback.');
            }
            const q = p as { key: string; score: number | null; value: string | null; comment: string | null };
            return { id: uid(500), key: q.key, score: q.score, value: q.value, comment: q.comment, source: 'app', createdAt: T0 } satisfies FeedbackItem;
          },
        },
      }),
    });
    const fb = app.page.getByTestId('feedback');
    await fb.waitFor();
    await fb.getByTestId('fb-key').fill('correctness');
    await fb.getByTestId('fb-score').fill('0.5');
    await fb.getByTestId('fb-value').fill('mostly right');
    await fb.getByTestId('fb-comment').fill('cites the wrong page');
    await fb.getByTestId('fb-submit').click();
    await fb.getByTestId('fb-error').getByText('LangSmith refused the feedback.').waitFor();
    await fb.getByTestId('fb-submit').click();
    await fb.getByTestId('feedback-item').waitFor();
    assert.deepEqual(added[1], { runId: a.root.id, key: 'correctness', score: 0.5, value: 'mostly right', comment: 'cites the wrong page' });
    assert.match((await fb.getByTestId('feedback-item').textContent()) ?? '', /correctness.*0\.5.*mostly right.*cites the wrong page/s);
    assert.equal(await fb.getByTestId('fb-key').inputValue(), '');
  });

  it('acts on the trace: share gives a public link, errors and messages show, a shared trace only copies', async () => {
    const a = agent();
    const acts: unknown[] = [];
    const app = await open('trace', {
      handlers: traceHost(a.all, { selectedRunId: a.llm1.id }, {
        extra: {
          'trace/act': (p) => {
            acts.push(p);
            const action = (p as { action: string }).action;
            if (action === 'share') return { message: 'Shared.', shareUrl: 'https://smith.langchain.com/public/abc/r' };
            if (action === 'addToQueue') throw new HostError('requestFailed', 'No annotation queues.');
            return { message: 'Done.' };
          },
        },
      }),
    });
    await app.page.getByTestId('act-share').click();
    await app.page.getByTestId('act-copyPublicLink').waitFor();
    await app.page.getByTestId('act-unshare').waitFor();
    assert.deepEqual(acts[0], { action: 'share', runId: a.root.id });
    await app.page.getByTestId('act-message').getByText('Shared.').waitFor();
    await app.page.getByTestId('act-openInPlayground').click();
    assert.deepEqual(acts[1], { action: 'openInPlayground', runId: a.llm1.id });
    await app.page.getByTestId('act-addToQueue').click();
    await app.page.getByTestId('act-error').getByText('No annotation queues.').waitFor();
    await app.close();

    const shared = await open('trace', { handlers: traceHost(a.all, { trace: traceOf(a.all, { readOnly: true, shareUrl: 'https://smith.langchain.com/public/abc/r', threadId: 'thread-1' }) }) });
    await shared.page.getByTestId('act-copyId').waitFor();
    const actions = await shared.page.locator('.tv-actions button').allTextContents();
    assert.deepEqual(actions, ['Copy ID', 'Copy Public Link']);
    assert.equal(await shared.page.getByTestId('project-link').count(), 0);
    assert.equal(await shared.page.getByTestId('thread-link').count(), 0);
    await shared.close();

    // Project and thread links act on the root run.
    const linked = await open('trace', {
      handlers: traceHost(a.all, { trace: traceOf(a.all, { threadId: 'thread-1' }), selectedRunId: a.tool.id }, { extra: { 'trace/act': (p) => (acts.push(p), { message: null }) } }),
    });
    await linked.page.getByTestId('thread-link').click();
    await linked.page.getByTestId('project-link').click();
    await eventually(() => assert.deepEqual(acts.slice(-2), [{ action: 'openThread', runId: a.root.id }, { action: 'openProject', runId: a.root.id }]));
  });

  it('reloads a running trace while shown, keeping the selection', async () => {
    const root = run({ n: 1, name: 'root', start: 0, end: null, status: 'pending' });
    const first = run({ n: 2, name: 'first', parent: root, start: 10, end: 20 });
    let reloads = 0;
    const app = await open('trace', {
      clock: true,
      handlers: {
        ...traceHost([root, first], { trace: traceOf([root, first], { status: 'pending', end: null }) }),
        'trace/reload': () => {
          reloads++;
          const later = run({ n: 3, name: 'second', parent: root, start: 30, end: 40 });
          const done = reloads >= 2;
          const r = { ...root, status: done ? 'success' : 'pending', end: done ? T0 + 100 : null } as RunRow;
          return { kind: 'trace', trace: traceOf([r, first, later], { status: r.status, end: r.end }), selectedRunId: null } satisfies TraceState;
        },
      },
    });
    await row(app, first.id).click();
    await app.page.getByText('second', { exact: true }).waitFor({ timeout: 10_000 });
    assert.equal(await selectedName(app), 'first');
    await eventually(async () => assert.equal(await app.page.getByTestId('trace-status').textContent(), 'Success'), 10_000);
    const count = reloads;
    // The page's timers moved on past two refresh periods: a refresh left running would have asked again.
    await app.page.clock.runFor(2 * RUNNING_REFRESH_MS);
    await hostHeard(app);
    assert.equal(reloads, count, 'no reloads once complete');
  });

  it('shows a thread: each turn its human input and AI answer; Open trace opens the turn', async () => {
    const turn = (n: number, human: unknown, ai: unknown, over: Partial<ThreadTurn> = {}): ThreadTurn => ({
      traceId: uid(n),
      rootRunId: uid(n),
      name: 'chat_turn',
      status: 'success',
      start: T0 + n * 60_000,
      end: T0 + n * 60_000 + 1500,
      tokens: { prompt: 10, completion: 20, total: 30 },
      cost: null,
      inputs: payload(human),
      outputs: payload(ai),
      errorPreview: null,
      ...over,
    });
    const thread: ThreadData = {
      threadId: 'thread-42',
      project: { id: uid(9000), name: 'support-bot' },
      turns: [
        turn(1, { messages: [{ role: 'system', content: 'Be nice.' }, { role: 'user', content: 'Hello, who are you?' }] }, { messages: [{ role: 'assistant', content: 'I am the support bot.' }] }),
        turn(2, { question: 'How do I reset my password?' }, { answer: 'Use the reset link.' }),
        turn(3, { question: 'And then?' }, null, { status: 'error', errorPreview: 'RateLimitError: slow down', outputs: null }),
      ],
      moreTurns: 5,
      totals: { turns: 8, latencyP50: 1500, latencyP99: 4000, tokens: { prompt: 30, completion: 60, total: 90 }, cost: { prompt: null, completion: null, total: 0.012 }, erroredTurns: 1 },
    };
    const acts: unknown[] = [];
    const app = await open('trace', {
      handlers: {
        'trace/ready': () => READY({ kind: 'thread', thread }),
        'trace/act': (p) => {
          acts.push(p);
          return { message: null };
        },
      },
    });
    const turns = app.page.getByTestId('turn');
    await turns.first().waitFor();
    assert.equal(await turns.count(), 3);
    const t1 = turns.nth(0);
    assert.deepEqual(await t1.locator('[data-testid="message"] .tv-role').allTextContents(), ['Human', 'AI']);
    assert.match((await t1.textContent()) ?? '', /Hello, who are you\?.*I am the support bot\./s);
    assert.doesNotMatch((await t1.textContent()) ?? '', /Be nice/);
    assert.match((await turns.nth(1).textContent()) ?? '', /How do I reset my password\?.*Use the reset link\./s);
    await turns.nth(2).getByTestId('turn-error').getByText(/RateLimitError/).waitFor();
    await app.page.getByTestId('more-turns').getByText('5 earlier turns not shown.').waitFor();
    await turns.nth(1).getByTestId('open-trace').click();
    await eventually(() => assert.deepEqual(acts, [{ action: 'openTrace', runId: uid(2) }]));
    await screenshot(app.page, 'trace-thread-dark');
    await app.close();
    const narrow = await open('trace', { theme: 'light', width: 400, handlers: { 'trace/ready': () => READY({ kind: 'thread', thread }) } });
    await narrow.page.getByTestId('turn').first().waitFor();
    await screenshot(narrow.page, 'trace-thread-light-400');
    const overflow = await narrow.page.evaluate('({ scroll: document.body.scrollWidth, client: document.body.clientWidth })') as { scroll: number; client: number };
    assert.ok(overflow.scroll <= overflow.client, JSON.stringify(overflow));
  });

  it('shows a problem with Retry, which reloads and shows the trace', async () => {
    const a = agent();
    const app = await open('trace', {
      theme: 'light',
      handlers: {
        ...traceHost(a.all),
        'trace/ready': () => READY({ kind: 'problem', problem: { code: 'failed', message: 'LangSmith did not answer (503).' } }),
        'trace/reload': () => ({ kind: 'trace', trace: traceOf(a.all), selectedRunId: null }) satisfies TraceState,
      },
    });
    await app.page.getByText('LangSmith did not answer (503).').waitFor();
    await screenshot(app.page, 'trace-problem-light');
    await app.page.getByTestId('retry').click();
    await app.page.getByTestId('trace-name').getByText('AgentExecutor').waitFor();
    assert.equal(app.requests('trace/reload').length, 1);
  });

  it('stops reloading a running trace while the panel is hidden, and resumes when shown', async function () {
    this.timeout(60_000);
    const root = run({ n: 1, name: 'root', start: 0, end: null, status: 'pending' });
    const pending = (): TraceState => ({ kind: 'trace', trace: traceOf([root], { status: 'pending', end: null }), selectedRunId: null });
    let reloads = 0;
    const app = await open('trace', {
      clock: true,
      handlers: {
        ...traceHost([root], { trace: traceOf([root], { status: 'pending', end: null }) }),
        'trace/reload': () => {
          reloads++;
          return pending();
        },
      },
    });
    // The page's timers moved on by one refresh period: the running trace is asked for again.
    await app.page.getByTestId('trace-status').waitFor();
    await app.page.clock.runFor(RUNNING_REFRESH_MS);
    await hostHeard(app);
    assert.ok(reloads >= 1, 'a reload after one refresh period');
    // A string, not a function: the test runner's transpiler would add helpers the page does not have.
    const setVisibility = (state: 'hidden' | 'visible') =>
      app.page.evaluate(`Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });
        document.dispatchEvent(new Event('visibilitychange'));`);
    await setVisibility('hidden');
    await new Promise((r) => setTimeout(r, 300));
    const whileHidden = reloads;
    await app.page.clock.runFor(2 * RUNNING_REFRESH_MS);
    await hostHeard(app);
    assert.equal(reloads, whileHidden, 'no reloads while hidden');
    await setVisibility('visible');
    await app.page.clock.runFor(RUNNING_REFRESH_MS);
    await hostHeard(app);
    assert.ok(reloads > whileHidden, 'reloads again once shown');
  });
});

// The page's pure modules, run in Node: no browser needed to know the tree and the shapes are right.
describe('webview: trace viewer modules', () => {
  it('builds a tree from dotted orders, parentIds, cycles and duplicates', () => {
    const a = agent();
    const tree = buildTree([a.inner, a.llm2, a.tool, a.root, a.retriever, a.prompt, a.llm1]);
    assert.deepEqual(
      tree.order.map((i) => tree.runs[i]!.name),
      ['AgentExecutor', 'ChatPromptTemplate', 'ChatOpenAI', 'search_tool', 'VectorStoreRetriever', 'ChatOpenAI', 'inner_parser'],
    );
    assert.equal(tree.depth[tree.index.get(a.inner.id)!], 2);
    assert.equal(dottedParent(a.inner.dottedOrder), a.llm2.id);
    assert.equal(dottedParent(a.root.dottedOrder), undefined);
    assert.equal(dottedParent(''), undefined);
    // a → b → a: one of them is cut loose (marked), both are shown once.
    const x = { ...run({ n: 1, name: 'x' }), dottedOrder: '', parentId: uid(2) };
    const y = { ...run({ n: 2, name: 'y' }), dottedOrder: '', parentId: uid(1) };
    const cyc = buildTree([x, y, { ...y, name: 'dup' }]);
    assert.equal(cyc.order.length, 2);
    assert.equal(cyc.roots.length, 1);
    assert.equal(cyc.orphan.filter(Boolean).length, 1);
    // Collapsing hides the descendants; expandTo opens the way to a run.
    const collapsed = new Set([a.root.id]);
    assert.deepEqual(visibleRows(tree, collapsed).length, 1);
    assert.equal(expandTo(tree, collapsed, a.inner.id).size, 0);
    assert.deepEqual(ancestorIds(tree, a.inner.id), [a.llm2.id, a.root.id]);
  });

  it('handles a chain 50,000 deep without recursion', () => {
    const rows: RunRow[] = [];
    for (let i = 0; i < 50_000; i++) rows.push({ ...run({ n: 1 + i, start: i }), dottedOrder: '', parentId: i ? uid(i) : null });
    const tree = buildTree(rows.reverse());
    assert.equal(tree.order.length, 50_000);
    assert.equal(tree.depth[tree.index.get(uid(50_000))!], 49_999);
    assert.equal(visibleRows(tree, new Set([uid(25_000)])).length, 25_000);
    assert.equal(ancestorIds(tree, uid(50_000)).length, 49_999);
  });

  it('places bars in the span; a running run reaches now', () => {
    const root = run({ n: 1, start: 0, end: 1000 });
    const half = run({ n: 2, parent: root, start: 500, end: 750 });
    const span = timeSpan([root, half], T0)!;
    assert.deepEqual(barGeometry(half, span, span.end), { left: 50, width: 25 });
    const live = run({ n: 3, parent: root, start: 1000, end: null, status: 'pending' });
    const liveSpan = timeSpan([root, live], T0 + 2000)!;
    assert.equal(liveSpan.end, T0 + 2000);
    assert.deepEqual(barGeometry(live, liveSpan, liveSpan.end), { left: 50, width: 50 });
  });

  it('classifies payloads by what they are', () => {
    assert.equal(classify({ messages: [{ role: 'user', content: 'hi' }] }).kind, 'messages');
    assert.equal(classify({ messages: [{ role: 'user', content: 'hi' }, { nope: 1 }] }).kind, 'json');
    assert.equal(classify({ messages: [[{ type: 'human', data: { content: 'hi' } }]] }).kind, 'messages');
    assert.equal(classify({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [] } }] }).kind, 'messages');
    assert.equal(classify({ documents: [{ page_content: 'x', metadata: {} }] }).kind, 'documents');
    assert.equal(classify({ output: 'plain answer' }).kind, 'text');
    assert.equal(classify('just a string').kind, 'text');
    assert.equal(classify({ a: 1, b: [2] }).kind, 'json');
    assert.equal(classify(null).kind, 'json');
    const view = classify({ messages: [{ role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: 'not json' } }] }] });
    assert.ok(view.kind === 'messages');
    assert.deepEqual(view.messages[0]!.toolCalls[0], { id: 'c', name: 'f', args: null, rawArgs: 'not json', path: ['messages', 0, 'tool_calls', 0, 'function', 'arguments'] });
    const lc = classify({ messages: [[{ lc: 1, type: 'constructor', id: ['x', 'ToolMessage'], kwargs: { content: 'r', tool_call_id: 't1' } }]] });
    assert.ok(lc.kind === 'messages');
    assert.equal(lc.messages[0]!.role, 'tool');
    assert.equal(lc.messages[0]!.toolCallId, 't1');
    assert.deepEqual(lc.messages[0]!.content[0], { type: 'text', text: 'r', path: ['messages', 0, 0, 'kwargs', 'content'] });
    const said = humanInput({ messages: [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'mid' }, { role: 'user', content: 'last' }] });
    assert.ok(said && 'message' in said && said.message.content[0]!.type === 'text');
    assert.deepEqual(aiAnswer({ answer: 'forty-two', extra: 1 }), { text: 'forty-two', path: ['answer'] });
  });
});
