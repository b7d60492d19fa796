// The trace viewer in the real workbench, as a new user meets it after `npm start`: click the demo agent run in
// the Projects view → its trace opens with its children and a timeline; select the llm run → its messages;
// `]` finds the errored step; add feedback → it is on the server; expand Threads → the demo conversation opens
// turn by turn. Screenshots in the dark and the light theme.
import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { getJson, okJson } from '../harness/http';
import type { LocalServer } from '../harness/localServer';
import { eventually, expandRow, openLangSmithContainer, screenshot, setTheme, sidebar, treeRow, webviewFrame, withWorkbench, type Workbench } from './workbench';

interface RunJson {
  id: string;
  name: string;
  parent_run_id: string | null;
}

describe('trace viewer in the workbench', function () {
  let wb: Workbench;
  let server: LocalServer;
  const demo = withWorkbench();
  before(() => ({ wb, server } = demo()));

  /** The page of the trace viewer once it shows `testId`. */
  async function traceFrame(page: Page, testId: string): Promise<Frame> {
    return eventually(async () => {
      const f = await webviewFrame(page).catch(() => null);
      return f && (await f.getByTestId(testId).count().catch(() => 0)) ? f : null;
    }, 30_000);
  }

  it('opens the demo agent run as its trace: tree, timeline, messages, the errored step, feedback', async () => {
    const { page } = wb;
    await openLangSmithContainer(page);
    await setTheme(page, 'dark');
    await expandRow(treeRow(page, /^demo-assistant/));
    const agent = sidebar(page).getByRole('treeitem', { name: /^TravelAgent/ }).first();
    await agent.waitFor({ timeout: 30_000 });
    await agent.click();

    const frame = await traceFrame(page, 'tree');
    await frame.getByTestId('trace-name').filter({ hasText: 'TravelAgent' }).waitFor({ timeout: 30_000 });
    const names = await frame.getByTestId('run-name').allTextContents();
    for (const name of ['TravelAgent', 'ChatOpenAI', 'get_weather', 'get_events', 'PackingGuideRetriever']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    // The waterfall: one bar per row, the root's spanning the trace.
    assert.equal(await frame.getByTestId('bar').count(), names.length);
    const rootBar = await frame.getByTestId('bar').first().evaluate((el) => (el as unknown as { style: { width: string } }).style.width);
    assert.equal(rootBar, '100%');

    // The first llm call: its messages, as a conversation with roles.
    await frame.getByTestId('run-row').filter({ hasText: 'ChatOpenAI' }).first().click();
    await frame.getByTestId('detail-name').filter({ hasText: 'ChatOpenAI' }).waitFor();
    await frame.getByTestId('message').first().waitFor({ timeout: 15_000 });
    const roles = await frame.getByTestId('inputs').getByTestId('message').evaluateAll((els) => els.map((e) => e.getAttribute('data-role')));
    assert.deepEqual(roles.slice(0, 2), ['system', 'human']);
    await frame.getByTestId('outputs').getByTestId('tool-call').first().waitFor();
    await screenshot(page, 'trace-workbench-dark');

    // `]`: the next errored run.
    await frame.getByTestId('tree').focus();
    await frame.locator('body').press(']');
    await frame.getByTestId('detail-name').filter({ hasText: 'get_events' }).waitFor({ timeout: 15_000 });
    await frame.getByTestId('error').waitFor();

    // The chart the tool rendered: its image, loaded from its link (not inlined).
    await frame.getByTestId('run-row').filter({ hasText: 'render_forecast_chart' }).first().click();
    const chart = frame.getByTestId('attachments').locator('img').first();
    await chart.waitFor({ timeout: 15_000 });
    assert.match((await chart.getAttribute('src')) ?? '', /^http:\/\/127\.0\.0\.1:\d+\/attachments\//);
    await eventually(async () => ((await chart.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) > 0 ? true : null));

    // Feedback on the llm run, in place; then on the server.
    await frame.getByTestId('run-row').filter({ hasText: 'ChatOpenAI' }).first().click();
    await frame.getByTestId('detail-name').filter({ hasText: 'ChatOpenAI' }).waitFor();
    await frame.getByTestId('fb-key').fill('correctness');
    await frame.getByTestId('fb-score').fill('1');
    await frame.getByTestId('fb-comment').fill('Right tools, right order.');
    await frame.getByTestId('fb-submit').click();
    await frame.getByTestId('feedback-item').filter({ hasText: 'correctness' }).waitFor({ timeout: 15_000 });
    const [project] = await getJson<{ id: string }[]>(server, '/sessions?name=demo-assistant');
    const runs = (await okJson<{ runs: RunJson[] }>(server, 'POST', '/runs/query', { session: [project!.id], limit: 100 })).runs;
    const root = runs.find((r) => r.name === 'TravelAgent' && !r.parent_run_id)!;
    const llm = runs.filter((r) => r.name === 'ChatOpenAI' && r.parent_run_id === root.id);
    const feedback = await eventually(async () => {
      const all = (await Promise.all(llm.map((r) => getJson<{ key: string; score: number; comment: string }[]>(server, `/feedback?run=${r.id}`)))).flat();
      return all.length ? all : null;
    });
    assert.deepEqual(feedback.map((f) => [f.key, f.score, f.comment]), [['correctness', 1, 'Right tools, right order.']]);

    await setTheme(page, 'light');
    await page.waitForTimeout(500);
    await screenshot(page, 'trace-workbench-light');
    await setTheme(page, 'dark');
  });

  it('lists the demo thread under Threads and opens it as the conversation', async () => {
    const { page } = wb;
    const threads = sidebar(page).getByRole('treeitem', { name: /^Threads/ }).first();
    await threads.waitFor({ timeout: 30_000 });
    await threads.click();
    const thread = sidebar(page).getByRole('treeitem', { name: /demo-thread-paris-trip/ });
    await thread.waitFor({ timeout: 30_000 });
    assert.match((await thread.textContent()) ?? '', /3 turns/);
    await thread.click();
    const frame = await traceFrame(page, 'turn');
    await eventually(async () => ((await frame.getByTestId('turn').count()) === 3 ? true : null));
    assert.equal(((await frame.getByTestId('turn-count').textContent()) ?? '').trim(), '3');
    // The turns took 2.1 to 2.7 s: the percentiles read in seconds.
    assert.match((await frame.locator('main').textContent()) ?? '', /p50 2\.\d+ s · p99 2\.\d+ s/);
    const first = (await frame.getByTestId('turn').first().textContent()) ?? '';
    assert.match(first, /Paris/);
    await screenshot(page, 'thread-workbench-dark');
  });
});
