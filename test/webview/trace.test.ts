// The trace viewer against a fake host: the run tree built from dotted orders (orphans, shuffled rows, cycles,
// duplicate ids), the waterfall, payloads rendered as what they are (OpenAI and LangChain messages, documents,
// JSON, long and cut strings), find, the keyboard, 5,000 runs virtualised, hostile text, 400 px, feedback, a
// thread, the problem view's Retry, and screenshots in both themes.
import assert from 'node:assert/strict';
import type { FeedbackItem, Payload, RunDetail, RunRow, ThreadData, ThreadTurn, TraceData, TraceState } from '../../src/protocol/trace';
import { screenshot, withWebviewApps, type OpenApp } from './harness';

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
const row = (app: OpenApp, id: string) => app.page.locator(`[data-testid="run-row"][data-run-id="${id}"]`);

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
});
