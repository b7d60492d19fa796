// A prompt file through the real workbench, as a new user tries it after `npm start`: open the demo prompt
// file, change a message, push it from the commit panel tagged production, see the new commit (with the right
// parent and the tag) in the Prompts tree and on the server, then compare the file with an older commit in
// VS Code's diff editor. Screenshots of each step.
import assert from 'node:assert/strict';
import { getJson } from '../harness/http';
import type { LocalServer } from '../harness/localServer';
import { eventually, openFile, openLangSmithContainer, screenshot, setViewOpen, sidebar, webviewFrame, withWorkbench, type Workbench } from './workbench';

interface CommitJson {
  commit_hash: string;
  parent_commit_hash: string | null;
}

describe('prompt files in the workbench', function () {
  let wb: Workbench;
  let server: LocalServer;
  const api = <T>(path: string): Promise<T> => getJson<T>(server, path);
  const commits = async () => (await api<{ commits: CommitJson[] }>('/commits/-/demo-summarizer/?limit=100')).commits;

  // The demo prompt file `npm start` puts in its workspace.
  const demo = withWorkbench({ promptFile: true });
  before(() => ({ wb, server } = demo()));

  it('pushes a changed message of the demo prompt file as a commit tagged production', async () => {
    const { page } = wb;
    const before = await commits();
    await openFile(page, 'demo-summarizer.prompt.yaml');
    // The CodeLens at the top offers the push once the format is loaded.
    const lens = page.locator('.codelens-decoration a', { hasText: 'Push as Commit' });
    await lens.first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'prompt-file-codelens');

    // Change the system message: select the sentence with Find, then type over it.
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+F');
    await page.keyboard.type('Keep product names.');
    await page.keyboard.press('Escape');
    await page.keyboard.type('Keep product names and version numbers.');
    await page.locator('.monaco-editor .view-lines', { hasText: 'version numbers' }).first().waitFor();

    await lens.first().click();
    const frame = await webviewFrame(page);
    await frame.getByTestId('repo-name').filter({ hasText: 'demo-summarizer' }).waitFor({ timeout: 30_000 });
    const change = frame.getByTestId('change').filter({ hasText: 'Message 1 (system)' });
    await change.waitFor({ timeout: 15_000 });
    assert.match(await change.innerText(), /version numbers/);
    assert.equal(await frame.getByTestId('change').count(), 1, 'only the changed message is listed');
    await frame.getByTestId('commit-description').fill('Keep version numbers too');
    await frame.getByTestId('env-production').click();
    await screenshot(page, 'prompt-commit-workbench');
    await frame.getByTestId('push').click();
    const result = frame.getByTestId('result');
    await result.filter({ hasText: /Pushed commit [0-9a-f]{8}\./ }).waitFor({ timeout: 30_000 });
    assert.match(await result.innerText(), /Tagged production/);
    await screenshot(page, 'prompt-commit-workbench-pushed');

    const after = await commits();
    assert.equal(after.length, before.length + 1);
    assert.equal(after[0]!.parent_commit_hash, before[0]!.commit_hash, 'the new commit sits on the latest one');
    const pulled = await api<{ manifest: { kwargs: { messages: { kwargs: { prompt: { kwargs: { template: string } } } }[] } } }>('/commits/-/demo-summarizer/production');
    assert.equal(pulled.manifest.kwargs.messages[0]!.kwargs.prompt.kwargs.template, 'You summarize support tickets in {max_words} words. Keep product names and version numbers.');

    // The Prompts tree shows the new commit first, with its tag.
    await openLangSmithContainer(page);
    for (const view of ['Projects', 'Datasets', 'Annotation Queues']) await setViewOpen(page, view, false);
    const prompt = sidebar(page).getByRole('treeitem', { name: /^demo-summarizer/ }).first();
    await prompt.waitFor({ timeout: 30_000 });
    const newRow = sidebar(page).getByRole('treeitem', { name: new RegExp(`^${after[0]!.commit_hash.slice(0, 8)}`) }).first();
    await eventually(async () => {
      if (await newRow.isVisible()) return true;
      if ((await prompt.getAttribute('aria-expanded')) !== 'true') await prompt.click();
      return newRow.waitFor({ timeout: 3_000 }).then(() => true, () => null);
    }, 30_000);
    assert.match((await newRow.getAttribute('aria-label')) ?? (await newRow.innerText()), /production/);
    await screenshot(page, 'prompt-tree-new-commit');
  });

  it('compares the file with an older commit in the diff editor, rendered as a prompt file', async () => {
    const { page } = wb;
    const first = (await commits()).at(-1)!;
    await openFile(page, 'demo-summarizer.prompt.yaml');
    // The CodeLens above the first line (also in the editor title and the palette).
    await page.locator('.codelens-decoration a', { hasText: 'Compare with Remote' }).first().click();
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title, .quick-input-header', { hasText: /Compare demo-summarizer/ }).first().waitFor({ timeout: 15_000 });
    const input = widget.locator('input').first();
    await input.fill(first.commit_hash.slice(0, 8));
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: first.commit_hash.slice(0, 8) }).first().waitFor();
    await input.press('Enter');
    const diff = page.locator('.monaco-diff-editor');
    await diff.first().waitFor({ timeout: 30_000 });
    // The left side is the first commit, as a prompt file: its system message without a word limit.
    await page.locator('.monaco-diff-editor .editor.original .view-lines', { hasText: 'You summarize support tickets.' }).first().waitFor({ timeout: 15_000 });
    await page.locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: 'version numbers' }).first().waitFor();
    assert.ok(await page.locator('.tab.active', { hasText: /demo-summarizer @ [0-9a-f]{8} ↔ demo-summarizer\.prompt\.yaml/ }).count(), 'the diff tab says what is compared');
    await screenshot(page, 'prompt-file-diff');
  });
});
