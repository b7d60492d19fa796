// The runs table in the real workbench, as a LangSmith user meets it: click `demo-production` in the Projects
// view → its runs as a table → type a filter for the failures slower than 5 s → select three runs → Add to
// Annotation Queue → the queue holds them; a click on a run previews its trace beside the table. Screenshots.
import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { getJson } from '../harness/http';
import type { LocalServer } from '../harness/localServer';
import { eventually, openLangSmithContainer, pickQuick, screenshot, setViewOpen, treeRow, withWorkbench, type Workbench } from './workbench';

/** The frame of the visible webview whose page shows `testId` (the runs table and a trace may be side by side). */
export async function appFrame(page: Page, testId: string, timeoutMs = 30_000): Promise<Frame> {
  return eventually(async () => {
    for (const outer of await page.locator('iframe.webview').elementHandles()) {
      const outerFrame = await outer.contentFrame();
      const inner = await outerFrame?.$('iframe#active-frame');
      const frame = await inner?.contentFrame();
      if (frame && (await frame.getByTestId(testId).count().catch(() => 0))) return frame;
    }
    return null;
  }, timeoutMs);
}

describe('runs table in the workbench', function () {
  let wb: Workbench;
  let server: LocalServer;
  const demo = withWorkbench({ server: { seedProduction: true } });
  before(() => ({ wb, server } = demo()));

  it('filters demo-production to its slow failures, queues three of them, previews a trace', async () => {
    const { page } = wb;
    await openLangSmithContainer(page);
    for (const view of ['Datasets', 'Prompts']) await setViewOpen(page, view, false);
    const project = treeRow(page, /^demo-production/);
    await project.waitFor({ timeout: 30_000 });
    // The row's figures: runs, error rate, p50, last activity.
    assert.match((await project.getAttribute('aria-label')) ?? (await project.innerText()), /demo-production/);
    await project.click();

    const frame = await appFrame(page, 'runs-table');
    await frame.getByTestId('run-row').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'runs-workbench');

    const filter = frame.getByTestId('filter');
    await filter.click();
    await filter.pressSequentially('and(eq(status, "error"), gt(latency, "5s"))');
    await filter.press('Escape');
    await filter.press('Enter');
    await eventually(async () => ((await frame.getByTestId('chip').count()) === 2 ? true : null));
    await eventually(async () => {
      const statuses = await frame.getByTestId('run-row').evaluateAll((rows) => rows.slice(0, 10).map((r) => r.getAttribute('data-status')));
      return statuses.length > 0 && statuses.every((s) => s === 'error') ? true : null;
    }, 30_000);
    await screenshot(page, 'runs-workbench-filtered');

    const rows = frame.getByTestId('run-row');
    const ids = await rows.evaluateAll((els) => els.slice(0, 3).map((e) => e.getAttribute('data-run-id')!));
    await rows.nth(0).click({ modifiers: ['Control'] });
    await rows.nth(1).click({ modifiers: ['Control'] });
    await rows.nth(2).click({ modifiers: ['Control'] });
    assert.equal(await frame.getByTestId('selected-count').textContent(), '3 selected');
    await frame.getByTestId('action-queue').click();
    await pickQuick(page, 'demo-review', /Add 3 runs to an annotation queue/);
    const queues = await getJson<{ id: string; name: string }[]>(server, '/annotation-queues');
    const queue = queues.find((q) => q.name === 'demo-review')!;
    await eventually(async () => {
      const items = await getJson<{ items: { run_id: string }[] }>(server, `/v1/platform/annotation-queues/${queue.id}/items?status=needs_my_review&page_size=100`);
      const queued = new Set(items.items.map((i) => i.run_id));
      return ids.every((id) => queued.has(id)) ? true : null;
    }, 30_000);
    await screenshot(page, 'runs-workbench-queued');

    // A plain click previews the run's trace beside the table.
    await rows.nth(3).click();
    const trace = await appFrame(page, 'tree');
    await trace.getByTestId('run-row').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'runs-workbench-trace');
  });
});
