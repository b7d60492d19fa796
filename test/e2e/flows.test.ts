// The user flows of the extension, clicked in the real workbench with the packaged .vsix, against a local
// server with demo data: sign in, add two selected runs to an annotation queue, share a dataset.
import assert from 'node:assert/strict';
import { getJson } from '../harness/http';
import type { LocalServer } from '../harness/localServer';
import { contextMenu, eventually, expandRow, openLangSmithContainer, screenshot, sidebar, treeRow, withWorkbench, type Workbench } from './workbench';


describe('user flows', function () {
  let wb: Workbench;
  let server: LocalServer;
  const key = 'local-dev-key';
  const api = <T>(path: string): Promise<T> => getJson<T>(server, path);
  const row = treeRow;

  const demo = withWorkbench({ signedIn: false });
  before(() => ({ wb, server } = demo()));

  it('signs in through the UI: endpoint, a rejected key, then the right one', async () => {
    const { page } = wb;
    await openLangSmithContainer(page);
    await sidebar(page).locator('.welcome-view-content a.monaco-button', { hasText: 'Sign In' }).first().click();

    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Other URL…' }).click();
    // The endpoint input box replaces the list: type only once it is there.
    await page.locator('.quick-input-widget', { hasText: 'The API URL of your LangSmith' }).waitFor();
    await input.fill(server.url);
    await input.press('Enter');

    const password = page.locator('.quick-input-widget input[type="password"]');
    await password.waitFor();
    await password.fill('not-the-right-key');
    await password.press('Enter');
    const message = page.locator('.quick-input-widget .quick-input-message');
    await message.filter({ hasText: 'rejected this API key' }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'sign-in-rejected');

    await password.fill(key);
    await password.press('Enter');
    await row(page, /demo-support-chatbot/).waitFor({ timeout: 30_000 });
    await screenshot(page, 'signed-in');
  });

  it('adds two selected runs to an annotation queue from the context menu', async () => {
    const { page } = wb;
    const queues = await api<{ id: string; name: string }[]>('/annotation-queues');
    const queue = queues.find((q) => q.name === 'demo-review')!;
    const before = (await api<{ size: number }>(`/annotation-queues/${queue.id}/total_size`)).size;

    await expandRow(row(page, /demo-support-chatbot/));
    const runs = sidebar(page).getByRole('treeitem', { name: /SupportPipeline/ });
    await runs.nth(1).waitFor();
    // Both runs must be selected when the menu opens, or the command acts on the right-clicked one alone.
    const selectBoth = async () => {
      for (let attempt = 1; ; attempt++) {
        await runs.nth(0).click();
        await runs.nth(1).click({ modifiers: ['Control'] });
        const selected = await runs.evaluateAll((rows) => rows.filter((r) => r.getAttribute('aria-selected') === 'true').length);
        if (selected === 2) return;
        if (attempt >= 5) throw new Error(`expected 2 selected runs, found ${selected}`);
        await page.waitForTimeout(300);
      }
    };
    await contextMenu(page, runs.nth(1), 'Add to Annotation Queue…', { shot: 'run-context-menu', prepare: selectBoth });

    const choice = page.locator('.quick-input-list .monaco-list-row', { hasText: 'demo-review' });
    await choice.waitFor();
    await screenshot(page, 'add-to-queue');
    await choice.click();

    const after = await eventually(async () => {
      const { size } = await api<{ size: number }>(`/annotation-queues/${queue.id}/total_size`);
      return size > before ? size : null;
    });
    assert.equal(after, before + 2);
    await sidebar(page).getByRole('treeitem', { name: /demo-review/ }).filter({ hasText: `${before + 2} runs` }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'queue-after-add');
  });

  it('shares a dataset and its public link shows it', async () => {
    const { page } = wb;
    const datasets = await api<{ id: string; name: string }[]>('/datasets?name=demo-support-qa');
    await contextMenu(page, row(page, /^demo-support-qa/), 'Share Dataset (Public Link)');
    const share = await eventually(() => api<{ share_token: string } | null>(`/datasets/${datasets[0].id}/share`)).catch(async (err) => {
      await screenshot(page, 'failed-share-dataset');
      throw err;
    });
    await page.locator('.notifications-toasts', { hasText: 'Anyone with the link can now see the dataset' }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'dataset-shared');

    const publicPage = await wb.browser.newPage();
    const res = await publicPage.goto(`${server.url}/public/${share.share_token}/d`);
    assert.equal(res?.status(), 200);
    await publicPage.getByText('demo-support-qa').first().waitFor();
    await screenshot(publicPage, 'dataset-public-page');
    await publicPage.close();
  });
});
