// Experiments in the real workbench, as a new user meets them after `npm start`: the demo prompt file and the
// demo dataset's evaluators file in the workspace; right-click the prompt → Run Prompt over Dataset… →
// demo-support-qa, all examples, the latest version, the playground's model, two of the three evaluators, the
// default concurrency → the experiment runs on the local model, and the server has one run per example with a
// score per chosen evaluator; Compare in the closing notification opens the comparison with the newest demo
// experiment as the baseline → filter to regressions → a row's diff opens in VS Code's diff editor.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { getJson, okJson } from '../harness/http';
import type { LocalServer } from '../harness/localServer';
import { contextMenu, eventually, openLangSmithContainer, ROOT, screenshot, setTheme, webviewFrame, withWorkbench, type Workbench } from './workbench';

interface Session {
  id: string;
  name: string;
  start_time?: string;
  extra?: { metadata?: Record<string, unknown> } | null;
}

describe('experiments in the workbench', function () {
  let wb: Workbench;
  let server: LocalServer;
  const demo = withWorkbench();
  before(() => {
    ({ wb, server } = demo());
    for (const name of ['support-answer.prompt.yaml', 'demo-support-qa.evaluators.yaml']) {
      fs.copyFileSync(path.join(ROOT, 'scripts/demo', name), path.join(wb.server.workspace, name));
    }
  });

  /** The comparison page once it shows `testId`. */
  async function compareFrame(page: Page, testId: string): Promise<Frame> {
    return eventually(async () => {
      const f = await webviewFrame(page).catch(() => null);
      return f && (await f.getByTestId(testId).count().catch(() => 0)) ? f : null;
    }, 30_000);
  }

  /** Chooses the quick pick's row with this text (typed to filter it first). */
  async function pick(page: Page, text: string): Promise<void> {
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().waitFor({ timeout: 30_000 });
    await input.fill(text);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().waitFor();
    await input.press('Enter');
  }

  it('runs the demo prompt over the demo dataset, compares with the demo experiments, filters to regressions and opens a diff', async () => {
    const { page } = wb;
    const [dataset] = await getJson<{ id: string; example_count: number }[]>(server, '/datasets?name=demo-support-qa');
    assert.ok(dataset, 'the demo dataset exists');
    const demoExperiments = await getJson<Session[]>(server, `/sessions?reference_dataset=${dataset.id}`);
    assert.ok(demoExperiments.length >= 2, 'the demo has experiments on demo-support-qa');

    await openLangSmithContainer(page);
    await setTheme(page, 'dark');
    await page.keyboard.press('Control+Shift+E');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'support-answer.prompt.yaml' }).first();
    await row.waitFor({ timeout: 30_000 });
    await contextMenu(page, row, 'Run Prompt over Dataset…', { shot: 'experiments-explorer-menu' });

    await pick(page, 'demo-support-qa');
    await pick(page, 'All examples');
    await pick(page, 'Latest');
    // The playground's model on the local server: its first (only) entry.
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'local-echo' }).first().waitFor({ timeout: 30_000 });
    await page.locator('.quick-input-widget input').press('Enter');
    // Two evaluators of three: helpfulness (the judge) unchecked.
    const judge = page.locator('.quick-input-list .monaco-list-row', { hasText: 'helpfulness' }).first();
    await judge.waitFor({ timeout: 30_000 });
    await judge.locator('input[type="checkbox"], .monaco-checkbox, .quick-input-list-checkbox').first().click();
    await screenshot(page, 'experiments-evaluators');
    await page.locator('.quick-input-widget input').press('Enter');
    // Concurrency: the default. The box is the same widget as the picker before it: wait for its own title, or the
    // Enter can land while the picker is still closing.
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Concurrency' }).waitFor({ timeout: 30_000 });
    await page.locator('.quick-input-widget input').press('Enter');

    const done = page.locator('.notifications-toasts .notification-toast', { hasText: /Experiment “support-answer-.*” done/ }).first();
    await done.waitFor({ timeout: 90_000 });
    await screenshot(page, 'experiments-run-done');
    const made = await eventually(async () => {
      const list = await getJson<Session[]>(server, `/sessions?reference_dataset=${dataset.id}`);
      return list.find((s) => !demoExperiments.some((d) => d.id === s.id)) ?? null;
    });
    assert.equal(made.extra?.metadata?.['prompt'], 'support-answer');
    const { runs } = await okJson<{ runs: { id: string; reference_example_id: string }[] }>(server, 'POST', '/runs/query', { session: [made.id], is_root: true, limit: 100 });
    assert.equal(new Set(runs.map((r) => r.reference_example_id)).size, dataset.example_count, 'one run per example');
    const feedback = await getJson<{ key: string }[]>(server, `/feedback?${runs.map((r) => `run=${r.id}`).join('&')}&limit=100`);
    assert.deepEqual([...new Set(feedback.map((f) => f.key))].sort(), ['contains', 'similarity'], 'the two evaluators chosen');
    assert.equal(feedback.length, runs.length * 2);

    await done.locator('.monaco-button', { hasText: /^Compare$/ }).click();
    const frame = await compareFrame(page, 'row');
    await frame.getByTestId('summary').waitFor();
    const names = await frame.getByTestId('experiment-name').allTextContents();
    assert.ok(names.some((n) => n.includes(made.name)), `the new experiment is compared: ${names.join(', ')}`);
    await screenshot(page, 'experiments-compare');

    await frame.getByTestId('filter-regressions').click();
    await frame.getByTestId('shown').waitFor();
    const shown = await frame.getByTestId('row').count();
    assert.ok(shown > 0, 'some examples got worse than the baseline');
    await screenshot(page, 'experiments-regressions');

    // A row's diff: the new output against the baseline's, in VS Code's diff editor.
    const first = frame.getByTestId('row').first();
    await first.click();
    // The new experiment's cell (the last column): its output against the baseline's.
    await first.getByTestId('diff').last().click({ force: true });
    const tab = page.locator('.tabs-container .tab', { hasText: `↔ ${made.name}` }).first();
    await tab.waitFor({ timeout: 15_000 });
    await page.locator('.monaco-diff-editor .view-line', { hasText: /\S/ }).first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'experiments-diff');
  });
});
