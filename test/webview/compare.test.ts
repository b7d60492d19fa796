// The experiment comparison page against a fake host: marks and counts against the baseline (expectations worked
// out here from the fixture), the direction of each key, the filters, the sort, a count clicked, export (the ids
// sent, in order, and the answer's message), row actions and keys, hostile text, 10,000 virtualised rows asked
// for as they scroll, the state kept across a reload, the problem view's Retry, a narrow panel and both themes.
import assert from 'node:assert/strict';
import type { CompareState, Experiment, FeedbackKey, IndexRow, RowContent } from '../../src/protocol/compare';
import { HostError, screenshot, withWebviewApps, type OpenApp } from './harness';

type Comparison = Extract<CompareState, { kind: 'compare' }>;

const uid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const EXP = [uid(0xa1), uid(0xb2), uid(0xc3)];
const CORRECT: FeedbackKey = { key: 'correctness', lowerIsBetter: false };
const VERBOSE: FeedbackKey = { key: 'verbosity', lowerIsBetter: true };

function experiment(i: number, over: Partial<Experiment> = {}): Experiment {
  return {
    id: EXP[i]!,
    name: ['gpt-baseline', 'gpt-new-prompt', 'small-model'][i]!,
    createdAt: Date.UTC(2026, 0, 10 + i),
    runCount: 40,
    errorRate: [0, 0.05, 0.1][i]!,
    latencyP50: 0.8 + i / 10,
    latencyP99: 2.5 + i,
    totalTokens: 12000 + 1000 * i,
    totalCost: 0.012 * (i + 1),
    feedback: { correctness: { n: 40, avg: [0.6, 0.7, 0.5][i]! }, verbosity: { n: 40, avg: [2, 1.8, 2.4][i]! } },
    source: `prompt support-answer:${['1a2b3c', '4d5e6f', '4d5e6f'][i]} · model ${['gpt-4o', 'gpt-4o', 'gpt-4o-mini'][i]}`,
    url: `https://smith.langchain.com/o/x/datasets/d/compare?selectedSessions=${EXP[i]}`,
    ...over,
  };
}

/** A score that depends on the example, the experiment and the key, with gaps (null, no run, errors). */
function score(r: number, e: number, k: number): number | null {
  const v = (r * 7 + e * 13 + k * 5 + ((r * e) % 5)) % 11;
  if (v === 10) return null;
  return k === 0 ? [0, 0.5, 1][v % 3]! : 1 + (v % 3);
}

function indexRow(r: number, experiments = 3): IndexRow {
  const cells: IndexRow['cells'] = {};
  for (let e = 0; e < experiments; e++) {
    if (r % 17 === 5 && e === 2) {
      cells[EXP[e]!] = null; // no run
      continue;
    }
    const scores: Record<string, number | null> = {};
    for (const [k, key] of [CORRECT, VERBOSE].entries()) {
      const s = score(r, e, k);
      if (s !== null) scores[key.key] = s;
    }
    cells[EXP[e]!] = { runId: uid(0x10000 + r * 16 + e), error: (r + e) % 13 === 3, scores };
  }
  return { exampleId: uid(0x100000 + r), cells };
}

function rowContent(row: IndexRow, r: number): RowContent {
  const cells: RowContent['cells'] = {};
  for (const [id, cell] of Object.entries(row.cells)) {
    cells[id] = cell && {
      runId: cell.runId,
      output: `Answer ${r} from ${id.slice(-2)}: reset it under Settings.`,
      truncated: false,
      error: cell.error ? `RateLimitError on example ${r}` : null,
      latencyMs: 900 + r,
      totalTokens: 300 + r,
      feedback: Object.fromEntries(Object.entries(cell.scores).map(([k, s]) => [k, { score: s, value: null, comment: `judge says ${k} ${s}` }])),
    };
  }
  return { exampleId: row.exampleId, inputs: JSON.stringify({ question: `How do I reset my password? (${r})` }), reference: JSON.stringify({ answer: `Settings → Security (${r})` }), cells };
}

interface Fixture {
  state: Comparison;
  contents: Map<string, RowContent>;
}

function fixture(n = 40, over: Partial<Comparison> = {}): Fixture {
  const index = Array.from({ length: n }, (_, r) => indexRow(r));
  const contents = new Map(index.map((row, r) => [row.exampleId, rowContent(row, r)]));
  const state: Comparison = {
    kind: 'compare',
    dataset: { id: uid(0xd0), name: 'support-qa', url: 'https://smith.langchain.com/o/x/datasets/d' },
    experiments: [0, 1, 2].map((i) => experiment(i)),
    keys: [CORRECT, VERBOSE],
    baselineId: EXP[0]!,
    index,
    indexTruncated: false,
    rows: index.slice(0, 30).map((row) => contents.get(row.exampleId)!),
    mac: false,
    ...over,
  };
  return { state, contents };
}

function host(f: Fixture, extra: Record<string, (p: unknown) => unknown> = {}) {
  return {
    'compare/ready': () => ({ restore: { datasetId: f.state.kind === 'compare' ? f.state.dataset.id : '', experimentIds: EXP }, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state: f.state }),
    'compare/rows': (p: unknown) => ({ rows: (p as { exampleIds: string[] }).exampleIds.flatMap((id) => (f.contents.has(id) ? [f.contents.get(id)!] : [])) }),
    'compare/setBaseline': () => ({}),
    'compare/act': () => ({ message: 'Opened beside.' }),
    'compare/export': (p: unknown) => ({ path: '/tmp/out.csv', rows: (p as { exampleIds: string[] }).exampleIds.length, message: `Saved ${(p as { exampleIds: string[] }).exampleIds.length} rows to out.csv.` }),
    ...extra,
  };
}

// ---- the expectations, worked out from the fixture on their own

type M = 'better' | 'worse' | 'same' | null;
function expectMark(s: number | null | undefined, b: number | null | undefined, lowerIsBetter: boolean): M {
  if (typeof s !== 'number' || typeof b !== 'number') return null;
  if (s === b) return 'same';
  return (lowerIsBetter ? s < b : s > b) ? 'better' : 'worse';
}

function marksOf(state: Comparison, r: number, e: number, baseline: number): M[] {
  const row = state.index[r]!;
  const cell = row.cells[EXP[e]!];
  const base = row.cells[EXP[baseline]!];
  if (e === baseline || !cell || !base) return state.keys.map(() => null);
  return state.keys.map((k) => expectMark(cell.scores[k.key], base.scores[k.key], k.lowerIsBetter));
}

/** Rows (index positions) where experiment e (any, when undefined) has a mark of `mark` on key k (any, when undefined). */
function rowsWith(state: Comparison, baseline: number, mark: 'better' | 'worse', e?: number, k?: number): number[] {
  return state.index
    .map((_, r) => r)
    .filter((r) => (e === undefined ? [0, 1, 2] : [e]).some((x) => marksOf(state, r, x, baseline).some((m, ki) => m === mark && (k === undefined || k === ki))));
}

function erroredRows(state: Comparison, e?: number): number[] {
  return state.index.map((_, r) => r).filter((r) => (e === undefined ? [0, 1, 2] : [e]).some((x) => state.index[r]!.cells[EXP[x]!]?.error === true));
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

async function ready(app: OpenApp): Promise<void> {
  await app.page.getByTestId('grid').waitFor();
  await app.page.getByTestId('row').first().waitFor();
}

/** The index positions of the rows in the DOM, top to bottom. */
async function domRows(app: OpenApp): Promise<number[]> {
  return app.page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="row"]')]
      .map((el) => ({ r: Number(el.dataset['row']), top: el.parentElement!.getBoundingClientRect().top }))
      .sort((a, b) => a.top - b.top)
      .map((x) => x.r),
  );
}

const n = (app: OpenApp, testId: string, i: number) => app.page.getByTestId(testId).nth(i).getAttribute('data-n').then(Number);

describe('webview: experiment comparison', function () {
  this.timeout(60_000);
  const open = withWebviewApps();

  it('marks each score against the baseline and counts regressions and improvements per column and key', async () => {
    const f = fixture();
    const app = await open('compare', { handlers: host(f) });
    await ready(app);
    const p = app.page;
    assert.equal(await p.getByTestId('dataset-name').textContent(), 'support-qa');
    assert.deepEqual(await p.getByTestId('experiment-name').allTextContents(), ['gpt-baseline', 'gpt-new-prompt', 'small-model']);
    assert.equal(await p.getByTestId('experiment-source').nth(1).textContent(), 'prompt support-answer:4d5e6f · model gpt-4o');
    // Column counts (B and C; A is the baseline) and per key, against the expectations.
    for (const [i, e] of [1, 2].entries()) {
      assert.equal(await n(app, 'column-regressions', i), rowsWith(f.state, 0, 'worse', e).length, `regressions of ${e}`);
      assert.equal(await n(app, 'column-improvements', i), rowsWith(f.state, 0, 'better', e).length, `improvements of ${e}`);
      for (const k of [0, 1]) {
        assert.equal(await n(app, 'key-regressions', i * 2 + k), rowsWith(f.state, 0, 'worse', e, k).length, `regressions of ${e} on key ${k}`);
        assert.equal(await n(app, 'key-improvements', i * 2 + k), rowsWith(f.state, 0, 'better', e, k).length, `improvements of ${e} on key ${k}`);
      }
    }
    assert.ok(rowsWith(f.state, 0, 'worse').length > 0 && rowsWith(f.state, 0, 'better').length > 0, 'the fixture has both');
    // The totals on the filters.
    assert.match((await p.getByTestId('filter-regressions').textContent()) ?? '', new RegExp(`${rowsWith(f.state, 0, 'worse').length}$`));
    assert.match((await p.getByTestId('filter-improvements').textContent()) ?? '', new RegExp(`${rowsWith(f.state, 0, 'better').length}$`));
    assert.match((await p.getByTestId('filter-errors').textContent()) ?? '', new RegExp(`${erroredRows(f.state).length}$`));
    // Every score cell in the DOM carries its mark in data and in words.
    const cells = await p.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid="row"]')].flatMap((row) =>
        [...row.querySelectorAll<HTMLElement>('[data-testid="cell"]')].flatMap((cell) =>
          [...cell.querySelectorAll<HTMLElement>('[data-testid="score"]')].map((s) => ({ r: Number(row.dataset['row']), e: Number(cell.dataset['experiment']), key: s.dataset['key']!, mark: s.dataset['mark']!, text: s.textContent ?? '' })),
        ),
      ),
    );
    assert.ok(cells.length > 20, `${cells.length} scores in view`);
    for (const c of cells) {
      const k = c.key === 'correctness' ? 0 : 1;
      const expected = marksOf(f.state, c.r, c.e, 0)[k];
      assert.equal(c.mark, expected ?? (c.e === 0 ? 'baseline' : 'none'), `row ${c.r} experiment ${c.e} ${c.key}`);
      if (expected) assert.ok(c.text.includes(expected), `the mark is said in words: ${c.text}`);
    }
    // The summary: averages and the change vs the baseline, with the direction in words.
    const deltas = await p.getByTestId('delta').evaluateAll((els) => els.map((el) => [el.getAttribute('data-mark'), el.textContent]));
    // B: correctness 0.7 vs 0.6 (better), verbosity 1.8 vs 2 (lower is better: better); C: 0.5 (worse), 2.4 (worse).
    assert.deepEqual(deltas.map(([m]) => m), ['better', 'better', 'worse', 'worse']);
    assert.match(deltas[0]![1]!, /\+0\.1 better/);
    assert.match(deltas[3]![1]!, /\+0\.4 worse/);

    // Another baseline: marks and counts follow, and the host is told.
    await p.getByTestId('baseline-radio').nth(2).check();
    await eventually(() => assert.deepEqual(app.requests('compare/setBaseline'), [{ experimentId: EXP[2] }]));
    assert.equal(await p.getByTestId('column-head').nth(2).textContent(), 'small-modelBaseline');
    assert.equal(await n(app, 'column-regressions', 0), rowsWith(f.state, 2, 'worse', 0).length);
    assert.equal(await n(app, 'column-improvements', 1), rowsWith(f.state, 2, 'better', 1).length);
  });

  it('takes each key’s direction: lower is better flips the marks and the counts', async () => {
    const f = fixture();
    const flipped = fixture(40, { keys: [CORRECT, { key: 'verbosity', lowerIsBetter: false }] });
    const a = await open('compare', { handlers: host(f) });
    await ready(a);
    const b = await open('compare', { handlers: host(flipped) });
    await ready(b);
    // verbosity is the second key: its regressions under one direction are its improvements under the other.
    const lower = { reg: await n(a, 'key-regressions', 1), imp: await n(a, 'key-improvements', 1) };
    const higher = { reg: await n(b, 'key-regressions', 1), imp: await n(b, 'key-improvements', 1) };
    assert.deepEqual(lower, { reg: rowsWith(f.state, 0, 'worse', 1, 1).length, imp: rowsWith(f.state, 0, 'better', 1, 1).length });
    assert.deepEqual(higher, { reg: lower.imp, imp: lower.reg });
    assert.ok(lower.reg !== lower.imp, 'the fixture tells the directions apart');
    // correctness is the same in both.
    assert.equal(await n(a, 'key-regressions', 0), await n(b, 'key-regressions', 0));
    // A cell: the same verbosity score is better in one and worse in the other.
    const r = f.state.index.findIndex((_, i) => marksOf(f.state, i, 1, 0)[1] === 'better');
    const mark = (app: OpenApp) => app.page.locator(`[data-testid="row"][data-row="${r}"] [data-testid="cell"][data-experiment="1"] [data-key="verbosity"]`).getAttribute('data-mark');
    assert.equal(await mark(a), 'better');
    assert.equal(await mark(b), 'worse');
    assert.match((await a.page.getByTestId('summary-key').nth(2 * 1 + 1).textContent()) ?? '', /lower is better|better/);
  });

  it('filters to all, regressions, improvements and errors, and a clicked count to its rows', async () => {
    const f = fixture();
    const app = await open('compare', { handlers: host(f) });
    await ready(app);
    const p = app.page;
    const check = async (expected: number[], what: string) => {
      await eventually(async () => assert.match((await p.getByTestId('shown').textContent()) ?? '', new RegExp(`^${expected.length} rows?`), what));
      // The rows fit in view (40 rows at most): every one is in the DOM after scrolling, in order.
      const seen = new Set<number>();
      for (let more = true; more; ) {
        for (const r of await domRows(app)) seen.add(r);
        more = await p.getByTestId('grid').evaluate((el) => {
          const at = el.scrollTop;
          el.scrollTop += el.clientHeight / 2;
          return el.scrollTop > at;
        });
        await p.waitForTimeout(30);
      }
      assert.deepEqual([...seen].sort((x, y) => x - y), expected, what);
      await p.getByTestId('grid').evaluate((el) => (el.scrollTop = 0));
    };
    await p.getByTestId('filter-regressions').click();
    await check(rowsWith(f.state, 0, 'worse'), 'regressions');
    await p.getByTestId('filter-improvements').click();
    await check(rowsWith(f.state, 0, 'better'), 'improvements');
    await p.getByTestId('filter-errors').click();
    await check(erroredRows(f.state), 'errors');
    assert.ok((await p.getByTestId('cell-error').count()) > 0, 'errors show in their cells');
    await p.getByTestId('filter-all').click();
    await check(f.state.index.map((_, r) => r), 'all');
    // Counts clicked: a column's regressions, a key's improvements, an experiment's errors.
    await p.getByTestId('column-regressions').nth(1).click();
    await check(rowsWith(f.state, 0, 'worse', 2), 'regressions of small-model');
    assert.match((await p.getByTestId('shown').textContent()) ?? '', /small-model regressed/);
    await p.getByTestId('key-improvements').nth(1).click();
    await check(rowsWith(f.state, 0, 'better', 1, 1), 'improvements of gpt-new-prompt on verbosity');
    assert.match((await p.getByTestId('shown').textContent()) ?? '', /gpt-new-prompt improved on verbosity/);
    await p.getByTestId('summary-errors').nth(1).click();
    await check(erroredRows(f.state, 1), 'errors of gpt-new-prompt');
    assert.match((await p.getByTestId('shown').textContent()) ?? '', /gpt-new-prompt errored/);
    await p.getByTestId('clear-filter').click();
    await check(f.state.index.map((_, r) => r), 'all again');
  });

  it('sorts by a key’s score and by its change vs the baseline; exports the rows shown in that order', async () => {
    const f = fixture();
    const app = await open('compare', { handlers: host(f) });
    await ready(app);
    const p = app.page;
    const all = f.state.index.map((_, r) => r);
    const scoreOf = (r: number, e: number, key: string) => f.state.index[r]!.cells[EXP[e]!]?.scores[key];
    const sorted = (value: (r: number) => number | null | undefined, descending: boolean) => {
      const has = all.filter((r) => typeof value(r) === 'number');
      const not = all.filter((r) => typeof value(r) !== 'number');
      return [...has.sort((x, y) => (value(x)! === value(y)! ? x - y : (value(x)! - value(y)!) * (descending ? -1 : 1))), ...not];
    };
    // B's correctness, highest first.
    await p.getByTestId('sort').selectOption(JSON.stringify(['score', 1, 0]));
    const byScore = sorted((r) => scoreOf(r, 1, 'correctness'), true);
    await eventually(async () => assert.deepEqual((await domRows(app)).slice(0, 4), byScore.slice(0, 4)));
    // C's verbosity change vs the baseline (lower is better), worst first.
    await p.getByTestId('sort').selectOption(JSON.stringify(['change', 2, 1]));
    const change = (r: number) => {
      const s = scoreOf(r, 2, 'verbosity');
      const b = scoreOf(r, 0, 'verbosity');
      return typeof s === 'number' && typeof b === 'number' ? b - s : null;
    };
    const byChange = sorted(change, false);
    await eventually(async () => assert.deepEqual((await domRows(app)).slice(0, 4), byChange.slice(0, 4)));
    assert.ok(change(byChange[0]!)! < 0, 'the first row got worse');
    // Reversed.
    await p.getByTestId('sort-descending').click();
    const reversed = sorted(change, true);
    await eventually(async () => assert.deepEqual((await domRows(app)).slice(0, 4), reversed.slice(0, 4)));
    // Export: the ids of the rows as filtered and sorted, and the answer's message.
    await p.getByTestId('filter-regressions').click();
    const regressions = new Set(rowsWith(f.state, 0, 'worse'));
    const expected = reversed.filter((r) => regressions.has(r)).map((r) => f.state.index[r]!.exampleId);
    await p.getByTestId('export-csv').click();
    await p.getByTestId('status').getByText(`Saved ${expected.length} rows to out.csv.`).waitFor();
    assert.deepEqual(app.requests('compare/export'), [{ format: 'csv', exampleIds: expected, baselineId: EXP[0] }]);
    await p.getByTestId('export-jsonl').click();
    await eventually(() => assert.equal(app.requests('compare/export').length, 2));
    assert.equal((app.requests('compare/export')[1] as { format: string }).format, 'jsonl');
  });

  it('opens a diff against the baseline, the example and a trace; keys move, b sets the baseline, ? shows help', async () => {
    const f = fixture();
    const app = await open('compare', { handlers: host(f) });
    await ready(app);
    const p = app.page;
    // A row's buttons are there while it is selected (the first, at the start) or under the mouse.
    const buttons = (r: number) => p.locator(`[data-testid="row"][data-row="${r}"]`).locator('[data-testid="diff"], [data-testid="trace"], [data-testid="open-example"], [data-testid="expand"]');
    assert.equal(await buttons(0).count(), 2 + 3 + 2, 'the selected row: Example, More, Trace in each cell, Diff in the two beside the baseline');
    assert.equal(await buttons(2).count(), 0, 'a row neither selected nor hovered has no buttons');
    // Row 2 is at the grid's lower edge: brought into view first, so that clicking its buttons does not scroll
    // another row under the mouse.
    await p.locator('[data-testid="row"][data-row="2"]').scrollIntoViewIfNeeded();
    await p.locator('[data-testid="row"][data-row="2"] [data-testid="inputs"]').hover();
    await buttons(2).first().waitFor();
    assert.equal(await buttons(2).count(), 7);
    await p.locator('[data-testid="row"][data-row="2"] [data-testid="cell"][data-experiment="1"] [data-testid="diff"]').click();
    await p.getByTestId('status').getByText('Opened beside.').waitFor();
    const row2 = f.state.index[2]!;
    assert.deepEqual(app.requests('compare/act')[0], { action: 'diff', exampleId: row2.exampleId, experimentId: EXP[0], otherId: EXP[1] });
    await p.locator('[data-testid="row"][data-row="2"] [data-testid="cell"][data-experiment="2"] [data-testid="trace"]').click();
    await eventually(() => assert.deepEqual(app.requests('compare/act')[1], { action: 'openTrace', exampleId: row2.exampleId, experimentId: EXP[2], runId: row2.cells[EXP[2]!]!.runId }));
    await p.locator('[data-testid="row"][data-row="2"] [data-testid="open-example"]').click();
    await eventually(() => assert.deepEqual(app.requests('compare/act')[2], { action: 'openExample', exampleId: row2.exampleId }));
    await p.getByTestId('open-experiment').nth(1).click();
    await eventually(() => assert.deepEqual(app.requests('compare/act')[3], { action: 'openExperiment', experimentId: EXP[1] }));
    // The keyboard: the grid focused, ↓ twice from row 2, → to C, Enter diffs C against the baseline.
    await p.getByTestId('grid').focus();
    await p.keyboard.press('ArrowDown');
    await p.keyboard.press('ArrowDown');
    await p.keyboard.press('ArrowRight');
    assert.equal(await p.locator('.cmp-cell-selected').getAttribute('id'), 'cmp-cell-4-2');
    assert.equal(await p.getByTestId('grid').getAttribute('aria-activedescendant'), 'cmp-cell-4-2');
    // The selected cell has its buttons (and its output's tooltip), whichever row the mouse is on.
    await p.mouse.move(0, 0);
    assert.equal(await p.locator('#cmp-cell-4-2 [data-testid="trace"]').count(), 1);
    assert.equal(await p.locator('[data-testid="row"][data-row="4"] [data-testid="output"]').nth(2).getAttribute('title'), f.contents.get(f.state.index[4]!.exampleId)!.cells[EXP[2]!]!.output);
    assert.equal(await buttons(2).count(), 0, 'the row left behind has none');
    await p.keyboard.press('Enter');
    await eventually(() => assert.deepEqual(app.requests('compare/act')[4], { action: 'diff', exampleId: f.state.index[4]!.exampleId, experimentId: EXP[0], otherId: EXP[2] }));
    await p.keyboard.press('o');
    await eventually(() => assert.deepEqual(app.requests('compare/act')[5], { action: 'openExample', exampleId: f.state.index[4]!.exampleId }));
    await p.keyboard.press('t');
    await eventually(() => assert.equal((app.requests('compare/act')[6] as { action: string }).action, 'openTrace'));
    await p.keyboard.press('b');
    await eventually(() => assert.deepEqual(app.requests('compare/setBaseline'), [{ experimentId: EXP[2] }]));
    assert.ok(await p.getByTestId('baseline-radio').nth(2).isChecked());
    // Enter on the baseline's own column says why nothing opens.
    await p.keyboard.press('Enter');
    await p.getByTestId('status').getByText(/This is the baseline/).waitFor();
    assert.equal(app.requests('compare/act').length, 7);
    await p.keyboard.press('?');
    await p.getByTestId('keys-help').waitFor();
    assert.match((await p.getByTestId('keys-help').textContent()) ?? '', /Make the selected experiment the baseline/);
    await p.keyboard.press('Escape');
    assert.equal(await p.getByTestId('keys-help').count(), 0);
  });

  it('shows markup in inputs, outputs and names as text', async () => {
    const f = fixture(10);
    const evil = '<img src=x onerror="window.__pwned=1"><b>bold</b><script>window.__pwned=2</script>';
    f.state.experiments[1] = { ...f.state.experiments[1]!, name: evil, source: evil };
    f.state.keys = [{ key: `<i>${'k'}</i>`, lowerIsBetter: false }, ...f.state.keys];
    for (const c of f.contents.values()) {
      c.inputs = evil;
      c.reference = evil;
      for (const cell of Object.values(c.cells)) {
        if (!cell) continue;
        cell.output = evil;
        cell.error = evil;
      }
    }
    f.state.rows = [...f.contents.values()];
    const app = await open('compare', { handlers: host(f) });
    await ready(app);
    const p = app.page;
    await p.getByTestId('inputs').first().waitFor();
    assert.equal(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.equal(await p.locator('main img, main script, main b, main i').count(), 0);
    assert.equal(await p.getByTestId('inputs').first().textContent(), evil);
    assert.equal(await p.getByTestId('output').first().textContent(), evil);
    assert.equal(await p.getByTestId('experiment-name').nth(1).textContent(), evil);
    assert.ok(((await p.getByTestId('cell-error').first().textContent()) ?? '').includes('<script>'));
    assert.equal(await p.getByTestId('inputs').first().getAttribute('title'), evil);
  });

  it('virtualises 10,000 rows: few in the DOM, the rows of a new range asked for in batches, stale asks cancelled', async () => {
    const f = fixture(10_000);
    let delay = 30;
    const app = await open('compare', {
      handlers: host(f, {
        'compare/rows': async (p: unknown) => {
          const ids = (p as { exampleIds: string[] }).exampleIds;
          await new Promise((r) => setTimeout(r, delay));
          return { rows: ids.map((id) => f.contents.get(id)!) };
        },
      }),
    });
    await ready(app);
    const p = app.page;
    assert.equal(await p.getByTestId('grid').getAttribute('aria-rowcount'), '10001');
    const inDom = await p.getByTestId('row').count();
    assert.ok(inDom > 3 && inDom < 30, `${inDom} rows in the DOM`);
    // The first screen comes with the state: nothing asked.
    await p.waitForTimeout(300);
    assert.equal(app.requests('compare/rows').length, 0, 'the first rows came with the state');
    assert.equal(await p.getByTestId('inputs-pending').count(), 0);
    // To the middle: placeholders, then one ask for the rows in view and around them.
    await p.getByTestId('grid').evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await p.getByTestId('inputs-pending').first().waitFor();
    await eventually(async () => assert.equal(await p.getByTestId('inputs-pending').count(), 0));
    const shown = await domRows(app);
    assert.ok(shown[0]! > 4000 && shown[0]! < 6000, `rows ${shown[0]}…`);
    const asked = app.requests('compare/rows') as { exampleIds: string[] }[];
    assert.ok(asked.length >= 1 && asked.length <= 2, `${asked.length} asks`);
    const ids = new Set(asked.flatMap((a) => a.exampleIds));
    for (const r of shown) assert.ok(ids.has(f.state.index[r]!.exampleId), `row ${r} was asked for`);
    for (const a of asked) assert.ok(a.exampleIds.length <= 200);
    assert.ok((await p.getByTestId('row').count()) < 30);
    // A slow host and a jump while it works: the ask whose rows left the view is cancelled, the new range asked.
    delay = 1500;
    const asks = app.requests('compare/rows').length;
    await p.getByTestId('grid').evaluate((el) => (el.scrollTop = el.scrollHeight * 0.2));
    await eventually(() => assert.equal(app.requests('compare/rows').length, asks + 1));
    await p.getByTestId('grid').evaluate((el) => (el.scrollTop = el.scrollHeight * 0.9));
    await eventually(() => assert.equal(app.requests('compare/rows').length, asks + 2));
    assert.equal(app.requests('webview/cancel').length, 1, 'the stale ask was cancelled');
    await eventually(async () => assert.equal(await p.getByTestId('inputs-pending').count(), 0));
    const end = await domRows(app);
    assert.ok(end[0]! > 8500, `rows ${end[0]}…`);
  });

  it('keeps the baseline, filter, sort and selected row across a reload', async () => {
    const f = fixture();
    const app = await open('compare', { handlers: host(f) });
    await ready(app);
    const p = app.page;
    await p.getByTestId('baseline-radio').nth(1).check();
    await p.getByTestId('filter-improvements').click();
    await p.getByTestId('sort').selectOption(JSON.stringify(['change', 2, 0]));
    await p.locator('[data-testid="row"]').nth(1).click();
    const before = await domRows(app);
    const selected = await p.locator('.cmp-row.cmp-selected').getAttribute('data-row');
    const saved = JSON.stringify(await app.savedState());
    assert.ok(!saved.includes('Answer 1'), 'row contents are not kept in the webview state');
    await app.reload();
    await ready(app);
    assert.ok(await p.getByTestId('baseline-radio').nth(1).isChecked());
    assert.equal(await p.getByTestId('filter-improvements').getAttribute('aria-pressed'), 'true');
    assert.equal(await p.getByTestId('sort').inputValue(), JSON.stringify(['change', 2, 0]));
    assert.deepEqual(await domRows(app), before);
    assert.equal(await p.locator('.cmp-row.cmp-selected').getAttribute('data-row'), selected);
    assert.equal(await n(app, 'column-regressions', 0), rowsWith(f.state, 1, 'worse', 0).length);
  });

  it('shows why it could not load, with Retry; a failed row request says so, with Retry', async () => {
    const f = fixture(600);
    let tries = 0;
    let failRows = true;
    const app = await open('compare', {
      handlers: host(f, {
        'compare/ready': () => ({ restore: {}, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state: { kind: 'problem', problem: { code: 'failed', message: 'The experiments could not be read: HTTP 502.' } } }),
        'compare/reload': () => {
          tries++;
          return f.state;
        },
        'compare/rows': (p: unknown) => {
          if (failRows) throw new HostError('requestFailed', 'Rows could not be read: HTTP 500.');
          return { rows: (p as { exampleIds: string[] }).exampleIds.map((id) => f.contents.get(id)!) };
        },
      }),
    });
    const p = app.page;
    await p.getByTestId('problem').getByText('The experiments could not be read: HTTP 502.').waitFor();
    await p.getByTestId('retry').click();
    await ready(app);
    assert.equal(tries, 1);
    await p.getByTestId('grid').evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await p.getByTestId('rows-error').getByText('Rows could not be read: HTTP 500.').waitFor();
    failRows = false;
    await p.getByTestId('rows-retry').click();
    await eventually(async () => assert.equal(await p.getByTestId('inputs-pending').count(), 0));
    assert.equal(await p.getByTestId('rows-error').count(), 0);
  });

  it('fits a narrow panel (the columns scroll sideways) and takes screenshots in both themes', async () => {
    for (const theme of ['dark', 'light'] as const) {
      const f = fixture();
      const app = await open('compare', { theme, width: 420, height: 760, handlers: host(f) });
      await ready(app);
      const p = app.page;
      const page = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      const widest = await p.evaluate(() => [...document.querySelectorAll('main *')].filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth && !el.closest('.cmp-grid, .cmp-summary-scroll')).slice(0, 5).map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`));
      assert.ok(page <= 0, `the page overflows by ${page}px: ${widest.join(', ')}`);
      const grid = await p.getByTestId('grid').evaluate((el) => el.scrollWidth - el.clientWidth);
      assert.ok(grid > 0, 'the grid scrolls sideways');
      await screenshot(p, `compare-${theme}-420`);
      await app.close();
      const wide = await open('compare', { theme, width: 1400, height: 900, handlers: host(fixture()) });
      await ready(wide);
      await wide.page.getByTestId('filter-regressions').click();
      await screenshot(wide.page, `compare-${theme}`);
    }
  });
});
