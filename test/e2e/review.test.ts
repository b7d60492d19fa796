// Annotation review in the real workbench, as a new user meets it after `npm start`: the demo queue in the
// Annotation Queues view with its sections; Review Queue from the palette; the first item reviewed with the
// keyboard only (a category with a number key, ↓ to the next field, a score step, Ctrl+Enter) → the next item
// shows and the server has the feedback with the queue as its source and the item completed; a correction of
// the outputs added to the queue's default dataset → the example exists, linked to its run; the rest of the
// queue reviewed to the end. Screenshots in the dark and the light theme.
import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { getJson } from '../harness/http';
import type { LocalServer } from '../harness/localServer';
import { eventually, openLangSmithContainer, runCommand, screenshot, setTheme, setViewOpen, sidebar, treeRow, webviewFrame, withWorkbench, type Workbench } from './workbench';

interface Queue {
  id: string;
  name: string;
  default_dataset: string | null;
}
interface Item {
  id: string;
  run_id: string;
}
interface FeedbackJson {
  key: string;
  score: number | null;
  value: unknown;
  feedback_source: { type: string; metadata: Record<string, unknown> };
}

describe('annotation review in the workbench', function () {
  let wb: Workbench;
  let server: LocalServer;
  const demo = withWorkbench();
  before(() => ({ wb, server } = demo()));

  /** The review page once it shows `testId`. */
  async function reviewFrame(page: Page, testId: string): Promise<Frame> {
    return eventually(async () => {
      const f = await webviewFrame(page).catch(() => null);
      return f && (await f.getByTestId(testId).count().catch(() => 0)) ? f : null;
    }, 30_000);
  }

  const items = (queueId: string, status: string) => getJson<{ items: Item[] }>(server, `/v1/platform/annotation-queues/${queueId}/items?status=${status}&page_size=100`);

  it('reviews the demo queue to the end with the keyboard; feedback, completion and a corrected example land', async () => {
    const { page } = wb;
    const queue = (await getJson<Queue[]>(server, '/annotation-queues')).find((q) => q.name === 'demo-review')!;
    assert.ok(queue, 'the demo queue exists');
    const todo = (await items(queue.id, 'needs_my_review')).items;
    assert.equal(todo.length, 4, 'four items need my review in the demo (one is done)');

    await openLangSmithContainer(page);
    await setTheme(page, 'dark');
    await setViewOpen(page, 'Annotation Queues', true);
    await treeRow(page, /^demo-review/).click();
    await sidebar(page).getByRole('treeitem', { name: /Needs my review \(4\)/ }).waitFor({ timeout: 30_000 });
    await sidebar(page).getByRole('treeitem', { name: /Completed \(1\)/ }).waitFor();
    await screenshot(page, 'review-queue-tree');

    // Keyboard only from here: the palette, the picker, the page's keys.
    await runCommand(page, 'LangSmith: Review Queue');
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'demo-review' }).first().waitFor({ timeout: 30_000 });
    await input.fill('demo-review');
    await input.press('Enter');

    const frame = await reviewFrame(page, 'run-name');
    await frame.getByTestId('progress').filter({ hasText: '1 of 4' }).waitFor({ timeout: 30_000 });
    await frame.getByTestId('instructions').waitFor();
    // The demo runs share a name: what they were asked tells them apart.
    const firstAsked = await frame.getByTestId('inputs').first().textContent();
    // The first field has the focus: `2` picks its second category (correctness: correct); ↓ goes to
    // helpfulness; `5` sets it five steps of 0.1 above its minimum.
    await page.keyboard.press('2');
    await frame.getByTestId('choice').and(frame.locator('[aria-checked="true"], [aria-pressed="true"]')).filter({ hasText: 'correct' }).first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('5');
    assert.equal(await frame.getByTestId('score-input').first().inputValue(), '0.5');
    await screenshot(page, 'review-workbench-dark');
    await page.keyboard.press('Control+Enter');

    await frame.getByTestId('progress').filter({ hasText: '1 of 3' }).waitFor({ timeout: 15_000 });
    assert.notEqual(await frame.getByTestId('inputs').first().textContent(), firstAsked, 'the next item shows');
    const first = todo[0]!;
    const fb = await eventually(async () => {
      const list = await getJson<FeedbackJson[]>(server, `/feedback?run=${first.run_id}`);
      return list.length >= 2 ? list : null;
    });
    const byKey = new Map(fb.map((f) => [f.key, f]));
    assert.equal(byKey.get('correctness')?.score, 1);
    assert.equal(byKey.get('correctness')?.value, 'correct');
    assert.equal(byKey.get('helpfulness')?.score, 0.5);
    assert.equal(byKey.get('correctness')?.feedback_source.type, 'app');
    assert.equal(byKey.get('correctness')?.feedback_source.metadata['annotation_queue_id'], queue.id);
    assert.ok((await items(queue.id, 'archived')).items.some((i) => i.id === first.id), 'the item is completed for me');

    // The second item: a correction of its outputs, added to the queue's default dataset.
    const second = todo[1]!;
    await frame.getByTestId('correct-outputs').click();
    const correction = frame.getByTestId('correction');
    await correction.fill('{"answer": "Use the reset link on the sign-in page."}');
    await frame.getByTestId('correction-error').waitFor({ state: 'detached' }).catch(() => undefined);
    await frame.getByTestId('add-to-dataset').click();
    await frame.getByTestId('status').filter({ hasText: 'Added to' }).waitFor({ timeout: 15_000 });
    const examples = await getJson<{ outputs: unknown; source_run_id: string | null }[]>(server, `/examples?dataset=${queue.default_dataset}&limit=100`);
    const made = examples.find((e) => e.source_run_id === second.run_id);
    assert.ok(made, 'the example is in the default dataset, linked to its run');
    assert.deepEqual(made.outputs, { answer: 'Use the reset link on the sign-in page.' });
    await screenshot(page, 'review-workbench-correction');

    // The rest, to the end: a category and Done each.
    await setTheme(page, 'light');
    for (const left of [3, 2, 1]) {
      await frame.getByTestId('progress').filter({ hasText: `1 of ${left}` }).waitFor({ timeout: 15_000 });
      await page.keyboard.press('1');
      if (left === 1) await screenshot(page, 'review-workbench-light');
      await page.keyboard.press('Control+Enter');
    }
    await frame.getByTestId('all-done').waitFor({ timeout: 15_000 });
    await screenshot(page, 'review-workbench-all-done');
    assert.equal((await items(queue.id, 'needs_my_review')).items.length, 0);
    assert.equal((await items(queue.id, 'archived')).items.length, 5);
    await setTheme(page, 'dark');
  });
});
