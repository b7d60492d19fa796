// Examples read as what they hold, in the workbench with the packaged .vsix against a local server with the demo
// data: the chat transcripts' rows are their last human message (not `[{"role":"system",…`), and an invoice's
// multi-line text opens in the example editor as text with real line breaks; a line typed at its end is saved as
// exactly that text, the other fields untouched. Screenshots of both, looked at.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { getJson } from '../harness/http';
import { eventually, openLangSmithContainer, screenshot, setViewOpen, treeRow, webviewFrame, withWorkbench } from './workbench';

interface ExampleJson {
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('examples read as text in the workbench', function () {
  const demo = withWorkbench();
  const api = <T>(path: string): Promise<T> => getJson<T>(demo().server, path);

  /** Expands a dataset's row until the row `child` shows under it (the tree redraws while it loads). */
  async function expand(page: Page, dataset: RegExp, child: RegExp) {
    const row = treeRow(page, dataset);
    await row.waitFor({ timeout: 30_000 });
    const example = treeRow(page, child);
    await eventually(async () => {
      if (await example.isVisible()) return true;
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
      return await example.waitFor({ timeout: 3_000 }).then(() => true, () => null);
    }, 30_000).catch(async (err) => {
      await screenshot(page, 'failed-example-text-expand');
      throw err;
    });
  }

  it('labels each chat transcript by its last human message', async () => {
    const { page } = demo().wb;
    const [{ id }] = await api<{ id: string }[]>('/datasets?name=demo-chat-transcripts');
    const examples = await api<ExampleJson[]>(`/examples?dataset=${id}`);
    // What the seed wrote: a system prompt, then the user's question.
    const asked = examples.map((e) => {
      const messages = e.inputs['messages'] as { role: string; content: string }[];
      assert.equal(messages[0]!.role, 'system');
      return messages.filter((m) => m.role === 'user').at(-1)!.content;
    });
    await openLangSmithContainer(page);
    for (const view of ['Projects', 'Prompts', 'Annotation Queues']) await setViewOpen(page, view, false);
    await expand(page, /^demo-chat-transcripts/, new RegExp(`^${escape(asked[0]!.slice(0, 24))}`));
    const rows = page.locator('.part.sidebar [role="treeitem"][aria-level="2"]');
    const labels = await eventually(async () => {
      const texts = (await rows.locator('.label-name').allTextContents()).map((t) => t.trim());
      return asked.every((q) => texts.some((t) => t === (q.length > 60 ? `${q.slice(0, 59)}…` : q))) ? texts : null;
    }, 15_000).catch(async (err) => {
      await screenshot(page, 'failed-chat-labels');
      throw err;
    });
    assert.ok(!labels.some((t) => t.startsWith('[') || t.startsWith('{') || t.startsWith('messages')), labels.join(' | '));
    await screenshot(page, 'chat-examples-labelled');
  });

  it('edits an invoice’s multi-line text as text and saves exactly what was typed', async () => {
    const { page } = demo().wb;
    const [{ id }] = await api<{ id: string }[]>('/datasets?name=demo-invoices');
    const before = (await api<ExampleJson[]>(`/examples?dataset=${id}`)).find((e) => String(e.inputs['invoice_text']).startsWith('Bäckerei'))!;
    const text = before.inputs['invoice_text'] as string;
    assert.match(text, /\n/, 'the demo invoice is several lines');
    // The chat dataset stays open above: both fixes in one picture.
    await expand(page, /^demo-invoices/, /Bäckerei/);
    await treeRow(page, /Bäckerei/).click();
    const frame = await eventually(async () => {
      const f = await webviewFrame(page).catch(() => null);
      return f && (await f.getByTestId('inputs').count().catch(() => 0)) ? f : null;
    }, 30_000);
    const field = frame.getByTestId('inputs').locator('[data-key="invoice_text"] textarea');
    await field.waitFor();
    assert.equal(await field.inputValue(), text, 'the text with its real line breaks, no \\n escapes');
    assert.equal(await frame.getByTestId('status').textContent(), 'No changes');
    await field.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Zahlbar bis 30.04.  ');
    await frame.getByTestId('status').filter({ hasText: 'Unsaved changes' }).waitFor();
    await screenshot(page, 'example-editor-multiline-text');
    await frame.getByTestId('save').click();
    await frame.getByText(/^Saved at /).waitFor({ timeout: 15_000 });
    const [after] = await api<ExampleJson[]>(`/examples?id=${before.id}`);
    assert.deepEqual(after!.inputs, { ...before.inputs, invoice_text: `${text}\nZahlbar bis 30.04.  ` });
    assert.deepEqual(after!.outputs, before.outputs);
    // Saved: the field shows the server's text again, as text.
    assert.equal(await field.inputValue(), `${text}\nZahlbar bis 30.04.  `);
  });
});
