// The first five minutes of a new user, in the real workbench with the packaged extension against the demo
// data: the status bar shows the connection before the LangSmith sidebar is ever opened; at a 300 px sidebar
// the rows tell themselves apart; a shared run's menu offers Stop Sharing and not Share; the Get Started
// walkthrough opens and its first step's button runs its command.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { LocalServer } from '../harness/localServer';
import { contextMenu, eventually, expandRow, openLangSmithContainer, runCommand, screenshot, setViewOpen, sidebar, treeRow, withWorkbench, type Workbench } from './workbench';

describe('the first five minutes', function () {
  let wb: Workbench;
  let server: LocalServer;
  const row = treeRow;

  const demo = withWorkbench();
  before(() => ({ wb, server } = demo()));

  /** Drags the sidebar's edge so that it is `width` pixels wide. */
  async function sidebarWidth(page: Page, width: number): Promise<number> {
    const box = (await sidebar(page).boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width - 1, y);
    await page.mouse.down();
    await page.mouse.move(box.x + width, y, { steps: 8 });
    await page.mouse.up();
    return Math.round((await sidebar(page).boundingBox())!.width);
  }

  it('shows the connection in the status bar before the LangSmith sidebar is opened', async () => {
    const { page } = wb;
    const item = page.locator('.part.statusbar [aria-label^="LangSmith: "]');
    await item.first().waitFor({ timeout: 60_000 });
    // The connection check runs shortly after activation and says "connected".
    await eventually(async () => ((await item.first().getAttribute('aria-label')) ?? '').startsWith('LangSmith: connected') || null, 30_000);
    assert.match((await item.first().innerText()).trim(), new RegExp(`LangSmith: ${new URL(server.url).host.replace(/\./g, '\\.')}`));
    assert.equal(await page.locator('.part.sidebar .pane-header', { hasText: 'Projects' }).count(), 0, 'the LangSmith sidebar was never opened');
    await screenshot(page, 'status-bar-at-startup');
  });

  it('reads well at a 300 px sidebar: runs by when, queue items by number and question, versions by tag', async () => {
    const { page } = wb;
    await openLangSmithContainer(page);
    const width = await sidebarWidth(page, 300);
    assert.ok(Math.abs(width - 300) <= 12, `sidebar is ${width} px`);
    // The Projects view alone, so that the runs below a project further down the list are in view.
    for (const view of ['Datasets', 'Prompts', 'Annotation Queues']) await setViewOpen(page, view, false);
    await expandRow(row(page, /demo-support-chatbot/));
    const runs = sidebar(page).getByRole('treeitem', { name: /SupportPipeline/ });
    await runs.nth(2).waitFor({ timeout: 30_000 });
    // What is visible of each row (the description cut at the sidebar's edge) differs between neighbours.
    const visible = await runs.evaluateAll((rows) =>
      rows.slice(0, 6).map((r) => {
        const edge = r.closest('.monaco-list')!.getBoundingClientRect().right;
        const description = r.querySelector('.label-description');
        const shown = description && description.getBoundingClientRect().left < edge - 20 ? (description.textContent ?? '').slice(0, 12) : '';
        return `${r.querySelector('.label-name')?.textContent ?? ''}|${shown}`;
      }),
    );
    assert.ok(visible.every((v) => v.split('|')[1]!.length > 0), `the time of each run shows at 300 px: ${visible.join(' / ')}`);
    await screenshot(page, 'tree-300px-runs');

    await setViewOpen(page, 'Projects', false);
    await setViewOpen(page, 'Annotation Queues', true);
    await row(page, /demo-review/).click();
    await row(page, /^Needs my review/).click();
    await row(page, /^1\. /).waitFor({ timeout: 30_000 });
    await row(page, /^2\. /).waitFor();
    // Each item shows the start of what its run was asked, which differs between neighbours.
    const shown = await sidebar(page).getByRole('treeitem', { name: /^\d+\. / }).evaluateAll((rows) => rows.slice(0, 6).map((r) => (r.querySelector('.label-description')?.textContent ?? '').slice(0, 14)));
    assert.ok(shown.every((s) => s.startsWith('“')), shown.join(' / '));
    assert.ok(new Set(shown).size >= 3, `neighbours differ: ${shown.join(' / ')}`);
    await screenshot(page, 'tree-300px-queue');
  });

  it('offers Stop Sharing and not Share on a shared run', async () => {
    const { page } = wb;
    await setViewOpen(page, 'Annotation Queues', false);
    await setViewOpen(page, 'Projects', true);
    const run = sidebar(page).getByRole('treeitem', { name: /SupportPipeline/ }).nth(1);
    await run.waitFor({ timeout: 30_000 });
    await contextMenu(page, run, 'Share Run (Public Link)');
    await page.locator('.notifications-toasts', { hasText: 'The link is on the clipboard' }).first().waitFor({ timeout: 15_000 });
    await run.click({ button: 'right' });
    const menu = page.locator('.monaco-menu');
    await menu.locator('.action-label', { hasText: 'Stop Sharing Run' }).first().waitFor({ timeout: 10_000 });
    const entries = await menu.locator('.action-label').allInnerTexts();
    assert.ok(!entries.some((e) => e.trim() === 'Share Run (Public Link)'), `menu: ${entries.join(', ')}`);
    await screenshot(page, 'shared-run-menu');
    await page.keyboard.press('Escape');
  });

  it('opens the Get Started walkthrough, whose first step signs in', async () => {
    const { page } = wb;
    await runCommand(page, 'Welcome: Open Walkthrough...');
    const widget = page.locator('.quick-input-widget');
    const input = widget.locator('input').first();
    await input.fill('Get Started with LangSmith');
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with LangSmith' }).first().waitFor({ timeout: 15_000 });
    await input.press('Enter');
    const steps = page.locator('.gettingStartedContainer');
    await steps.locator('h2, .category-title', { hasText: 'Get Started with LangSmith' }).first().waitFor({ timeout: 30_000 });
    await steps.getByText('Connect to LangSmith').first().click();
    await screenshot(page, 'walkthrough');
    await steps.getByRole('button', { name: 'Sign In' }).first().click();
    // The sign-in flow starts: it asks which LangSmith to use.
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Other URL…' }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
  });
});
