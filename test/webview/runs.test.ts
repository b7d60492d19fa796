// The runs panel in real Chromium with a fake host: the table's columns and rows, pages read by cursor as it
// scrolls, the filter checked as it is typed (the message at the place) and completed, a filter the server refuses
// (the table keeps its rows), an empty result with one action to clear it, quick conditions and chips, saved
// filters, selection with the mouse and the keyboard and the actions it sends, the column picker and widths,
// sorting, the "new runs" bar on Playwright's clock, and screenshots in both themes and at 450 px.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { EMPTY_QUERY, NEW_RUNS_EVERY_MS, RunsState, type RunsQuery, type RunsRow } from '../../src/protocol/runs';
import { HostError, screenshot, withWebviewApps, type OpenApp } from './harness';

const PROJECT = '00000000-0000-4000-8000-00000000aa01';
const T0 = Date.UTC(2026, 10, 29, 9, 0, 0);
const MODELS = ['gpt-4o', 'claude-sonnet', 'llama-3'];

/** 250 runs, newest first: every 7th failed, latency growing with the index modulo 13. */
function makeRows(n = 250): RunsRow[] {
  return Array.from({ length: n }, (_, i) => {
    const error = i % 7 === 3;
    return {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      traceId: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
      name: i % 2 ? 'SupportPipeline' : 'RefundAgent',
      runType: 'chain',
      status: error ? 'error' : 'success',
      start: T0 - i * 60_000,
      latency: 400 + (i % 13) * 900,
      firstToken: 120 + (i % 5) * 10,
      tokens: 500 + i,
      cost: 0.0012 * (1 + (i % 4)),
      input: `How do I get a refund for order #${1000 + i}?`,
      output: error ? '' : `You can ask for a refund within 30 days (answer ${i}).`,
      error: error ? 'RateLimitError: too many requests' : null,
      feedback: (i % 3 === 0 ? { correctness: { score: i % 2, value: null, n: 1 } } : {}) as RunsRow['feedback'],
      tags: i % 4 === 0 ? ['prod'] : [],
      metadata: { ls_model_name: MODELS[i % 3]! },
    } as RunsRow;
  });
}

const ROWS = makeRows();

function state(over: Partial<Extract<RunsState, { kind: 'ready' }>> = {}): RunsState {
  return RunsState.parse({
    kind: 'ready',
    project: { id: PROJECT, name: 'demo-production', url: 'https://smith.langchain.com/o/x/projects/p/y' },
    query: EMPTY_QUERY,
    layout: { columns: ['name', 'input', 'output', 'status', 'start', 'latency', 'tokens', 'cost'], widths: {} },
    saved: [],
    seen: { names: ['SupportPipeline', 'RefundAgent'], tags: ['prod'], metadataKeys: ['ls_model_name'], feedbackKeys: ['correctness'] },
    first: null,
    ...over,
  });
}

interface QueryParams {
  query: RunsQuery;
  cursor: string | null;
}

/** A host that pages ROWS by cursor, 100 at a time, filtering errors when the filter asks for them. */
function host(over: Record<string, (p: unknown) => unknown> = {}, s: RunsState = state()) {
  return {
    'runs/ready': () => ({ restore: { projectId: PROJECT }, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state: s }),
    'runs/query': (params: unknown) => {
      const { query, cursor } = params as QueryParams;
      if (query.filter.includes('nosuchfield')) throw new HostError('requestFailed', 'Invalid filter "eq(nosuchfield, 1)": unknown field nosuchfield at position 3');
      let rows = query.filter.includes('"error"') ? ROWS.filter((r) => r.status === 'error') : ROWS;
      if (query.filter.includes('"nothing"')) rows = [];
      if (query.order === 'asc') rows = [...rows].reverse();
      const from = cursor === null ? 0 : Number(cursor);
      const page = rows.slice(from, from + 100);
      return { rows: page, cursor: from + 100 < rows.length ? String(from + 100) : null };
    },
    'runs/act': () => ({ done: true }),
    'runs/saveLayout': () => ({}),
    'runs/saveFilters': () => ({}),
    'runs/countNewer': () => ({ count: 0, more: false }),
    'runs/openMonitor': () => ({}),
    ...over,
  };
}

const queries = (app: OpenApp) => app.requests('runs/query') as QueryParams[];
const acts = (app: OpenApp) => app.requests('runs/act') as { action: string; runs: { id: string; traceId: string }[] }[];
const rows = (page: Page) => page.getByTestId('run-row');

async function until(app: OpenApp, what: () => boolean | Promise<boolean>, message: string) {
  for (let i = 0; i < 200; i++) {
    if (await what()) return;
    await app.page.waitForTimeout(20);
  }
  assert.fail(message);
}

describe('webview: runs', () => {
  const open = withWebviewApps();

  it('shows the runs as a table with their columns and a feedback column; screenshots in both themes', async () => {
    for (const theme of ['dark', 'light'] as const) {
      const app = await open('runs', { theme, width: 1300, height: 800, handlers: host() });
      const page = app.page;
      await rows(page).first().waitFor();
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'demo-production');
      const heads = await page.getByRole('columnheader').allTextContents();
      assert.deepEqual(
        heads.map((h) => h.replace(/ [↑↓]$/, '')),
        ['Name', 'Input', 'Output', 'Status', 'Start time', 'Latency', 'Tokens', 'Cost', 'correctness'],
      );
      const first = await rows(page).first().getByRole('gridcell').allTextContents();
      assert.match(first[0]!, /RefundAgent/);
      assert.equal(first[1], 'How do I get a refund for order #1000?');
      assert.match(first[2]!, /refund within 30 days/);
      assert.equal(first[3], 'success');
      assert.equal(first[5], '400 ms');
      assert.equal(first[6], '500');
      assert.equal(first[7], '$0.0012');
      assert.equal(first[8], '0', 'the feedback score');
      const failed = rows(page).nth(3);
      assert.equal(await failed.getAttribute('data-status'), 'error');
      assert.equal((await failed.getByRole('gridcell').allTextContents())[2], 'RateLimitError: too many requests', 'a failed run shows its error where the output would be');
      assert.deepEqual(app.problems, []);
      await screenshot(page, `runs-${theme}`);
      await page.getByTestId('open-monitor').click();
      await until(app, () => app.requests('runs/openMonitor').length === 1, 'Monitor was not asked for');
      await app.close();
    }
  });

  it('paints the first page from the ready answer, asking only for the next', async () => {
    const app = await open('runs', { handlers: host({}, state({ first: { rows: ROWS.slice(0, 100), cursor: '100' } })), height: 700 });
    const page = app.page;
    await rows(page).first().waitFor();
    assert.equal(await rows(page).first().getAttribute('data-run-id'), ROWS[0]!.id);
    assert.equal(queries(app).length, 0, 'no request for the first page');
    await page.getByTestId('runs-table').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await until(app, () => queries(app).length === 1, 'the second page was never asked for');
    assert.equal(queries(app)[0]!.cursor, '100');
  });

  it('reads further pages by cursor as the table scrolls, one request per 100 rows', async () => {
    const app = await open('runs', { handlers: host(), height: 700 });
    const page = app.page;
    await rows(page).first().waitFor();
    assert.equal(queries(app).length, 1);
    await page.getByTestId('runs-table').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await until(app, () => queries(app).length >= 2, 'the second page was never asked for');
    assert.equal(queries(app)[1]!.cursor, '100');
    await until(app, async () => (await page.getByTestId('runs-table').getAttribute('data-loaded')) === '200', 'the second page never arrived');
    await page.getByTestId('runs-table').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await until(app, async () => (await page.getByTestId('runs-table').getAttribute('data-loaded')) === '250', 'the last page never arrived');
    assert.equal(queries(app).length, 3, 'one request per page');
    assert.match((await page.getByTestId('loaded-count').textContent())!, /^250 runs/);
  });

  it('checks the filter as it is typed, marks the place of the problem, and sends nothing until it reads well', async () => {
    const app = await open('runs', { handlers: host() });
    const page = app.page;
    await rows(page).first().waitFor();
    const field = page.getByTestId('filter');
    await field.fill('and(eq(status, "eror"), gt(latency, "5s"))');
    assert.match((await page.getByTestId('filter-problem').textContent())!, /status is one of "success", "error", "pending"/);
    assert.equal(await page.getByTestId('filter-problem').locator('mark').textContent(), '"eror"');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    await field.press('Enter');
    await field.fill('and(eq(status, "error")');
    assert.match((await page.getByTestId('filter-problem').textContent())!, /and\( has no closing \)/);
    await field.fill('eq(nme, "x")');
    assert.match((await page.getByTestId('filter-problem').textContent())!, /“nme” is not a run field/);
    assert.equal(queries(app).length, 1, 'no query was sent for a filter with a problem');
    await field.fill('and(eq(status, "error"), gt(latency, "5s"))');
    assert.equal(await page.getByTestId('filter-problem').count(), 0);
    await field.press('Enter');
    await until(app, () => queries(app).length === 2, 'the filter was not applied');
    assert.equal(queries(app)[1]!.query.filter, 'and(eq(status, "error"), gt(latency, "5s"))');
    assert.deepEqual(await page.getByTestId('chip').locator('code').allTextContents(), ['eq(status, "error")', 'gt(latency, "5s")']);
    await until(app, async () => (await rows(page).first().getAttribute('data-status')) === 'error', 'the failed runs are not shown');
  });

  it('completes functions, fields and values seen in the project', async () => {
    const app = await open('runs', { handlers: host() });
    const page = app.page;
    await rows(page).first().waitFor();
    const field = page.getByTestId('filter');
    await field.click();
    await field.pressSequentially('an');
    assert.deepEqual(await page.getByTestId('filter-suggestions').getByRole('option').locator('.rn-complete-label').allTextContents(), ['and']);
    await field.press('Tab');
    assert.equal(await field.inputValue(), 'and(');
    await field.pressSequentially('has(');
    const fields = await page.getByTestId('filter-suggestions').getByRole('option').locator('.rn-complete-label').allTextContents();
    assert.deepEqual(fields, ['tags'], 'has() looks in lists');
    await field.press('Enter');
    await field.pressSequentially(', "p');
    assert.deepEqual(await page.getByTestId('filter-suggestions').getByRole('option').locator('.rn-complete-label').allTextContents(), ['prod']);
    await field.press('Enter');
    assert.equal(await field.inputValue(), 'and(has(tags, "prod"');
    await field.pressSequentially(')');
    await field.pressSequentially(', eq(status, ');
    assert.deepEqual(await page.getByTestId('filter-suggestions').getByRole('option').locator('.rn-complete-label').allTextContents(), ['success', 'error', 'pending']);
    await field.press('ArrowDown');
    await field.press('Enter');
    await field.pressSequentially('))');
    assert.equal(await field.inputValue(), 'and(has(tags, "prod"), eq(status, "error"))');
    assert.equal(await page.getByTestId('filter-problem').count(), 0);
  });

  it('shows the server’s refusal at the filter and keeps the last good rows', async () => {
    const app = await open('runs', { handlers: host() });
    const page = app.page;
    await rows(page).first().waitFor();
    const before = await rows(page).first().getAttribute('data-run-id');
    // The editor's grammar refuses an unknown field itself; a metadata path passes it and reaches the server.
    await page.getByTestId('filter').fill('eq(metadata.nosuchfield, 1)');
    await page.getByTestId('apply-filter').click();
    await until(app, async () => (await page.getByTestId('filter-problem').count()) === 1, 'the refusal was not shown');
    assert.match((await page.getByTestId('filter-problem').textContent())!, /unknown field nosuchfield at position 3/);
    assert.equal(await rows(page).first().getAttribute('data-run-id'), before, 'the table kept its rows');
    assert.equal(await page.getByTestId('filter').inputValue(), 'eq(metadata.nosuchfield, 1)', 'what the user typed stays');
  });

  it('says which filter emptied the table, with one action to clear it', async () => {
    const app = await open('runs', { handlers: host() });
    const page = app.page;
    await rows(page).first().waitFor();
    await page.getByTestId('filter').fill('eq(name, "nothing")');
    await page.getByTestId('filter').press('Enter');
    await page.getByTestId('runs-empty').waitFor();
    assert.match((await page.getByTestId('runs-empty').textContent())!, /No runs match the filter eq\(name, "nothing"\)/);
    await page.getByTestId('empty-clear').click();
    await rows(page).first().waitFor();
    assert.equal(queries(app).at(-1)!.query.filter, '');
    assert.equal(await page.getByTestId('filter').inputValue(), '');
  });

  it('adds quick conditions in the filter language, removes one by its chip, and keeps named filters', async () => {
    const app = await open('runs', { handlers: host() });
    const page = app.page;
    await rows(page).first().waitFor();
    await page.getByTestId('quick-errors').click();
    await until(app, () => queries(app).length === 2, 'the errors condition was not applied');
    assert.equal(queries(app)[1]!.query.filter, 'eq(status, "error")');
    await page.getByTestId('quick-latency').click();
    await page.getByTestId('quick-value').fill('5');
    await page.getByTestId('quick-value').press('Enter');
    await until(app, () => queries(app).length === 3, 'the latency condition was not applied');
    assert.equal(queries(app)[2]!.query.filter, 'and(eq(status, "error"), gt(latency, "5s"))');
    await page.getByTestId('quick-metadata').click();
    await page.getByTestId('quick-value').fill('ls_model_name');
    await page.getByLabel('Metadata value').fill('gpt-4o');
    await page.getByLabel('Metadata value').press('Enter');
    await until(app, () => queries(app).length === 4, 'the metadata condition was not applied');
    assert.equal(queries(app)[3]!.query.filter, 'and(eq(status, "error"), gt(latency, "5s"), and(eq(metadata_key, "ls_model_name"), eq(metadata_value, "gpt-4o")))');
    await page.getByRole('button', { name: 'Remove gt(latency, "5s")' }).click();
    await until(app, () => queries(app).length === 5, 'removing a chip did not apply');
    assert.equal(queries(app)[4]!.query.filter, 'and(eq(status, "error"), and(eq(metadata_key, "ls_model_name"), eq(metadata_value, "gpt-4o")))');

    await page.getByTestId('save-filter').click();
    await page.getByTestId('saved-name').fill('gpt-4o failures');
    await page.getByTestId('saved-save').click();
    await until(app, () => app.requests('runs/saveFilters').length === 1, 'the named filter was not saved');
    const saved = (app.requests('runs/saveFilters')[0] as { saved: { name: string; query: RunsQuery }[] }).saved;
    assert.deepEqual(saved.map((s) => [s.name, s.query.filter]), [['gpt-4o failures', queries(app)[4]!.query.filter]]);
    await page.getByTestId('clear-filter').click();
    await until(app, () => queries(app).length === 6, 'Clear did not apply');
    await page.getByTestId('saved-filters').selectOption('gpt-4o failures');
    await until(app, () => queries(app).length === 7, 'the saved filter did not apply');
    assert.equal(queries(app)[6]!.query.filter, saved[0]!.query.filter);
  });

  it('selects with the mouse and the keyboard and acts on the selected runs', async () => {
    const app = await open('runs', { handlers: host() });
    const page = app.page;
    await rows(page).first().waitFor();
    await rows(page).nth(0).click();
    await rows(page).nth(2).click({ modifiers: ['Control'] });
    await rows(page).nth(4).click({ modifiers: ['Shift'] });
    assert.equal(await page.getByTestId('selected-count').textContent(), '3 selected');
    assert.deepEqual(await page.locator('[data-testid="run-row"][aria-selected="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')!.slice(-2))), ['02', '03', '04'], 'Shift-click selects from the last clicked row');
    // The plain click previewed the first run's trace; the modified clicks only selected.
    assert.deepEqual(acts(app).map((a) => `${a.action}:${a.runs[0]!.id.slice(-2)}`), ['openTrace:00']);
    await page.getByTestId('action-queue').click();
    await until(app, () => acts(app).length === 2, 'no action was sent');
    const sent = acts(app)[1]!;
    assert.equal(sent.action, 'addToQueue');
    assert.deepEqual(sent.runs.map((r) => r.id.slice(-2)), ['02', '03', '04']);
    assert.equal(sent.runs[0]!.traceId, ROWS[2]!.traceId);

    // The keyboard: Escape clears, Space picks the active row, Shift+↓ extends, Ctrl+A takes every loaded row.
    await page.getByTestId('runs-table').focus();
    await page.keyboard.press('Escape');
    assert.equal(await page.getByTestId('selected-count').count(), 0);
    await page.keyboard.press('Home');
    await page.keyboard.press('Space');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    assert.equal(await page.getByTestId('selected-count').textContent(), '3 selected');
    await page.getByTestId('action-copy').click();
    await until(app, () => acts(app).length === 3, 'Copy IDs was not sent');
    assert.deepEqual(acts(app)[2]!.runs.map((r) => r.id.slice(-2)), ['00', '01', '02']);
    await page.getByTestId('runs-table').focus();
    await page.keyboard.press('Control+a');
    assert.equal(await page.getByTestId('selected-count').textContent(), '100 selected');

    // Two runs: Compare; Enter on a row opens its trace, a double click pins it.
    await rows(page).nth(5).click();
    await rows(page).nth(6).click({ modifiers: ['Control'] });
    await page.getByTestId('action-compare').click();
    await until(app, () => acts(app).at(-1)!.action === 'compare', 'Compare was not sent');
    await page.getByTestId('runs-table').focus();
    const before = acts(app).length;
    await page.keyboard.press('Enter');
    await until(app, () => acts(app).length === before + 1, 'Enter did not open the trace');
    assert.equal(acts(app).at(-1)!.action, 'openTrace');
    await rows(page).nth(1).dblclick();
    await until(app, () => acts(app).at(-1)!.action === 'pinTrace', 'a double click did not pin the trace');
    assert.deepEqual(acts(app).slice(before + 1).map((a) => a.action), ['openTrace', 'pinTrace'], 'the double click’s first click previewed, its second pinned');
  });

  it('picks columns, remembers widths, and sorts by start time on the server and by a figure among the loaded rows', async () => {
    const app = await open('runs', { handlers: host(), width: 1400 });
    const page = app.page;
    await rows(page).first().waitFor();
    await page.getByTestId('columns-button').click();
    await page.getByTestId('column-metadata:ls_model_name').check();
    await page.getByTestId('column-feedback:correctness').uncheck();
    await page.getByTestId('column-input').uncheck();
    const layouts = app.requests('runs/saveLayout') as { columns: string[] }[];
    assert.deepEqual(layouts.at(-1)!.columns, ['name', 'output', 'status', 'start', 'latency', 'tokens', 'cost', 'metadata:ls_model_name', '-feedback:correctness']);
    const heads = (await page.getByRole('columnheader').allTextContents()).map((h) => h.replace(/ [↑↓]$/, ''));
    assert.deepEqual(heads, ['Name', 'Output', 'Status', 'Start time', 'Latency', 'Tokens', 'Cost', 'ls_model_name']);

    const handle = page.getByTestId('resize-name');
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + 2, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 102, box.y + 5, { steps: 4 });
    await page.mouse.up();
    const widths = (app.requests('runs/saveLayout') as { widths: Record<string, number> }[]).at(-1)!.widths;
    assert.ok(Math.abs(widths['name']! - 280) <= 2, `the name column is ${widths['name']} px`);

    await page.getByTestId('sort-latency').click();
    const latencies = await rows(page).evaluateAll((els) => els.slice(0, 5).map((e) => e.querySelectorAll('[role="gridcell"]')[4]!.textContent));
    assert.deepEqual(latencies, Array(5).fill('11.20 s'), 'slowest first');
    assert.match((await page.getByTestId('loaded-count').textContent())!, /sorted among the 100 loaded/);
    assert.equal(queries(app).length, 1, 'a figure sorts what is loaded');
    await page.getByTestId('sort-start').click();
    await until(app, () => queries(app).length === 2, 'start time did not sort on the server');
    assert.equal(queries(app)[1]!.query.order, 'desc', 'back to the server’s order first');
    await page.getByTestId('sort-start').click();
    await until(app, () => queries(app).length === 3, 'start time did not sort on the server');
    assert.equal(queries(app)[2]!.query.order, 'asc');
  });

  it('shows a quiet bar when new runs arrive, and reads them when asked', async () => {
    let newer = 0;
    const app = await open('runs', { clock: true, handlers: host({ 'runs/countNewer': () => ({ count: newer, more: false }) }) });
    const page = app.page;
    await rows(page).first().waitFor();
    await app.page.clock.runFor(NEW_RUNS_EVERY_MS);
    await until(app, () => app.requests('runs/countNewer').length >= 1, 'new runs were not asked for');
    assert.equal((app.requests('runs/countNewer')[0] as { since: number }).since, T0, 'since the newest row');
    assert.equal(await page.getByTestId('new-runs').count(), 0);
    newer = 3;
    await app.page.clock.runFor(NEW_RUNS_EVERY_MS);
    await page.getByTestId('new-runs').waitFor();
    assert.match((await page.getByTestId('new-runs').textContent())!, /^3 new runs/);
    assert.equal(await rows(page).first().getAttribute('data-run-id'), ROWS[0]!.id, 'the table did not jump');
    await page.getByTestId('new-runs').getByRole('button', { name: 'Show' }).click();
    await until(app, () => queries(app).length === 2, 'Show did not read the runs again');
  });

  it('reads at 450 px', async () => {
    const app = await open('runs', { width: 450, height: 700, handlers: host() });
    const page = app.page;
    await rows(page).first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow} px (only the table should)`);
    await screenshot(page, 'runs-450px');
  });

  it('shows a problem with Retry', async () => {
    const app = await open('runs', {
      handlers: {
        ...host(),
        'runs/ready': () => ({ restore: { projectId: PROJECT }, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state: { kind: 'problem', problem: { code: 'notFound', message: 'The project was not found.' } } }),
        'runs/reload': () => state(),
      },
    });
    await app.page.getByTestId('problem').waitFor();
    await app.page.getByTestId('retry').click();
    await rows(app.page).first().waitFor();
  });
});
