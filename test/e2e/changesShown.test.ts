// What a change made through the workbench shows at once, as a new user sees it: a push from the commit panel turns
// the prompt's row in the Prompts tree from N to N+1 commits (the tree open beside the file the whole time), and
// the diff of two dataset versions shows where a long value changed (text added at its end). Screenshots of each.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { LangSmithClient } from '../../src/client';
import type { LocalServer } from '../harness/localServer';
import { eventually, openFile, openLangSmithContainer, pickQuick, runCommand, screenshot, setViewOpen, sidebar, webviewFrame, withWorkbench, type Workbench } from './workbench';

describe('changes shown where they are made', function () {
  let wb: Workbench;
  let server: LocalServer;

  const demo = withWorkbench({ promptFile: true });
  before(() => ({ wb, server } = demo()));

  const commitsIn = (text: string): number | null => {
    const m = /(\d+) commits?\b/.exec(text);
    return m ? Number(m[1]) : null;
  };

  it('a push from the commit panel turns the prompt’s row from N to N+1 commits', async () => {
    const { page } = wb;
    await openLangSmithContainer(page);
    for (const view of ['Projects', 'Datasets', 'Annotation Queues']) await setViewOpen(page, view, false);
    const row = sidebar(page).getByRole('treeitem', { name: /^demo-summarizer/ }).first();
    await row.waitFor({ timeout: 30_000 });
    const before = await eventually(async () => commitsIn(await row.innerText()), 15_000);
    await screenshot(page, 'prompt-row-count-before-push');

    await openFile(page, 'demo-summarizer.prompt.yaml');
    const lens = page.locator('.codelens-decoration a', { hasText: 'Push as Commit' });
    await lens.first().waitFor({ timeout: 30_000 });
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+F');
    await page.keyboard.type('Keep product names.');
    await page.keyboard.press('Escape');
    await page.keyboard.type('Keep product names and prices.');
    await page.locator('.monaco-editor .view-lines', { hasText: 'and prices' }).first().waitFor();
    await lens.first().click();
    const frame = await webviewFrame(page);
    await frame.getByTestId('change').filter({ hasText: 'Message 1 (system)' }).waitFor({ timeout: 15_000 });
    await frame.getByTestId('commit-description').fill('Keep prices too');
    await frame.getByTestId('push').click();
    await frame.getByTestId('result').filter({ hasText: /Pushed commit [0-9a-f]{8}\./ }).waitFor({ timeout: 30_000 });

    // The same row, not refreshed by hand: its count follows the push.
    const after = await eventually(async () => {
      const n = commitsIn(await row.innerText());
      return n === before + 1 ? n : null;
    }, 15_000);
    assert.equal(after, before + 1);
    assert.match(await row.innerText(), new RegExp(`${before + 1} commits`));
    await screenshot(page, 'prompt-row-count-after-push');
  });

  it('the diff of a long value changed at its end shows the added words in place', async () => {
    const { page } = wb;
    const client = new LangSmithClient({ apiUrl: server.url, apiKey: server.apiKey });
    const name = `long-${randomUUID().slice(0, 6)}`;
    const dataset = await client.datasets.create({ name });
    const exampleId = randomUUID();
    const lines = Array.from({ length: 30 }, (_, i) => `Step ${i + 1}: check the invoice line ${i + 1} against the order and note any difference.`);
    const answer = lines.join('\n');
    const added = 'Finally, send the summary to the billing team.';
    const latest = async () => {
      for await (const v of client.datasets.listVersions({ datasetId: dataset.id, limit: 1 })) return v.as_of;
      throw new Error('the dataset has no version');
    };
    await client.examples.create({ datasetId: dataset.id, examples: [{ id: exampleId, inputs: { question: 'How do I check an invoice?' }, outputs: { answer } }] });
    await client.datasets.updateTag({ datasetId: dataset.id, asOf: await latest(), tag: 'draft' });
    await new Promise((r) => setTimeout(r, 20));
    await client.examples.update({ datasetId: dataset.id, updates: [{ id: exampleId, outputs: { answer: `${answer}\n${added}` } }] });
    await client.datasets.updateTag({ datasetId: dataset.id, asOf: await latest(), tag: 'final' });

    await runCommand(page, 'LangSmith: Compare Versions…');

    await pickQuick(page, name, /Compare versions of a dataset/);
    await pickQuick(page, 'draft', /\(1\/2\): from/);
    await pickQuick(page, 'final', /\(2\/2\)/);
    const diff = await eventually(async () => {
      const f = await webviewFrame(page).catch(() => null);
      return f && (await f.getByTestId('diff-list').count().catch(() => 0)) ? f : null;
    }, 30_000);
    const modified = diff.locator('[data-testid="diff-row"][data-kind="modified"]').first();
    await modified.waitFor({ timeout: 15_000 });
    assert.equal(await diff.locator('[data-testid="diff-row"]').count(), 1, 'one example changed');
    const change = modified.locator('[data-testid="field-change"]').first();
    // The + side shows the added words, marked; the − side ends where the value ended, with the same words before.
    const marked = change.locator('[data-testid="changed-words"]');
    await marked.first().waitFor();
    assert.match((await marked.allInnerTexts()).join(' '), /send the summary to the billing team/);
    const afterText = (await change.locator('[data-testid="after"]').first().innerText()).replace(/\s+/g, ' ');
    const beforeText = (await change.locator('[data-testid="before"]').first().innerText()).replace(/\s+/g, ' ');
    assert.match(afterText, /Finally, send the summary to the billing team\./, 'the added text is in sight');
    assert.ok(!beforeText.includes('billing team'), 'and not on the − side');
    assert.match(beforeText, /note any difference\.$/, 'the − side shows the end of the old value');
    await screenshot(page, 'dataset-diff-long-value-end');
  });
});
