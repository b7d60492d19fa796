// The example editor app in real Chromium with a fake host: rendering, validation at the field (JSON and the
// dataset's schema), drafts across reloads, saving, the conflict path, a refused save, attachments.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { HostError, screenshot, withWebviewApps, type OpenApp } from './harness';

const DATASET = '11111111-1111-4111-8111-111111111111';
const EXAMPLE = '22222222-2222-4222-8222-222222222222';

const example = {
  id: EXAMPLE,
  inputs: { invoice_text: 'ACME Hosting Inc. — total due USD 1,240.50', currency: 'USD' },
  outputs: { vendor: 'ACME Hosting Inc.', total: 1240.5 },
  metadata: { source: 'email' },
  splits: ['train'],
  attachments: [
    { name: 'invoice.pdf', mimeType: 'application/pdf' },
    { name: 'invoice.txt', mimeType: 'text/plain' },
  ],
  modifiedAt: '2026-11-20T10:00:00.000000+00:00',
};

const state = (over: Record<string, unknown> = {}) => ({
  dataset: {
    id: DATASET,
    name: 'demo-invoices',
    inputsSchema: { type: 'object', required: ['invoice_text'], properties: { invoice_text: { type: 'string' }, currency: { enum: ['USD', 'EUR', 'GBP'] } } },
    outputsSchema: { type: 'object', required: ['vendor', 'total'], properties: { vendor: { type: 'string' }, total: { type: 'number' } } },
    splits: ['train', 'test'],
  },
  example,
  exampleId: EXAMPLE,
  split: null,
  recoveredDraft: null,
  ...over,
});

const ready = (s = state()) => () => ({ restore: { datasetId: DATASET, exampleId: EXAMPLE, isNew: false }, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state: s });

/** Replaces a JSON field's text the way a person does (select all, type). */
async function type(page: Page, field: string, text: string) {
  const area = page.getByTestId(field).locator('textarea');
  await area.fill(text);
}

const errorsOf = (page: Page, field: string) => page.getByTestId(field).locator('.lsw-field-errors li').allTextContents();

describe('webview: example editor', () => {
  const open = withWebviewApps();
  let app: OpenApp;

  it('shows the example: JSON fields, splits, attachments; screenshots in both themes', async () => {
    for (const theme of ['dark', 'light'] as const) {
      app = await open('exampleEditor', { theme, width: 900, height: 1100, handlers: { 'exampleEditor/ready': ready() } });
      await app.page.getByTestId('inputs').waitFor();
      assert.deepEqual(JSON.parse(await app.page.getByTestId('inputs').locator('textarea').inputValue()), example.inputs);
      assert.deepEqual(JSON.parse(await app.page.getByTestId('outputs').locator('textarea').inputValue()), example.outputs);
      assert.match((await app.page.getByTestId('splits').textContent()) ?? '', /train/);
      assert.deepEqual(await app.page.locator('.lsw-attachment-name').allTextContents(), ['invoice.pdf', 'invoice.txt']);
      assert.equal(await app.page.getByTestId('status').textContent(), 'No changes');
      await screenshot(app.page, `example-editor-${theme}`);
      if (theme === 'dark') await app.close();
    }
  });

  it('reads well at 400 px: nothing wider than the panel', async () => {
    app = await open('exampleEditor', { width: 400, height: 900, handlers: { 'exampleEditor/ready': ready() } });
    await app.page.getByTestId('inputs').waitFor();
    const overflow = await app.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 400px`);
    await screenshot(app.page, 'example-editor-400px');
  });

  it('marks bad JSON and schema violations at the field and does not send them', async () => {
    app = await open('exampleEditor', { handlers: { 'exampleEditor/ready': ready(), 'exampleEditor/save': () => assert.fail('sent an invalid draft') } });
    await app.page.getByTestId('inputs').waitFor();
    await type(app.page, 'inputs', '{"invoice_text": "x",');
    const [jsonError] = await errorsOf(app.page, 'inputs');
    assert.match(jsonError!, /^Inputs is not valid JSON: /);
    await type(app.page, 'inputs', '["a list"]');
    assert.deepEqual(await errorsOf(app.page, 'inputs'), ['Inputs must be a JSON object ({…}), not an array.']);
    await type(app.page, 'inputs', '{"currency": "YEN"}');
    const schema = await errorsOf(app.page, 'inputs');
    assert.ok(schema.some((e) => e.startsWith('inputs:') && e.includes('invoice_text')), schema.join(' | '));
    assert.ok(schema.some((e) => e.startsWith('inputs.currency:')), schema.join(' | '));
    await type(app.page, 'outputs', '{"vendor": "ACME", "total": "lots"}');
    assert.ok((await errorsOf(app.page, 'outputs')).some((e) => e.startsWith('outputs.total:')));
    assert.equal(await app.page.getByTestId('inputs').locator('textarea').getAttribute('aria-invalid'), 'true');
    await app.page.getByTestId('save').click();
    await app.page.getByTestId('save-error').waitFor();
    assert.match((await app.page.getByTestId('save-error').textContent())!, /Fix the fields marked below first/);
    assert.deepEqual(app.requests('exampleEditor/save'), []);
  });

  it('keeps the draft across a reload, tells the host it is dirty, and asks for the state again', async () => {
    app = await open('exampleEditor', { handlers: { 'exampleEditor/ready': ready() } });
    await app.page.getByTestId('inputs').waitFor();
    await type(app.page, 'outputs', '{"vendor": "ACME Hosting Inc.", "total": 1240.55}');
    await app.page.waitForFunction(() => true);
    await app.page.waitForTimeout(400); // the dirty notice is debounced
    const notices = app.requests('exampleEditor/draftState') as { dirty: boolean; draft: { outputs: string } | null }[];
    assert.equal(notices.at(-1)?.dirty, true);
    assert.match(notices.at(-1)!.draft!.outputs, /1240\.55/);
    await app.reload();
    await app.page.getByTestId('outputs').waitFor();
    assert.match(await app.page.getByTestId('outputs').locator('textarea').inputValue(), /1240\.55/);
    assert.equal(await app.page.getByTestId('status').textContent(), 'Unsaved changes');
    assert.equal(app.requests('exampleEditor/ready').length, 2);
  });

  it('saves what was written, attachments included, and says so', async () => {
    const saved = { ...example, outputs: { vendor: 'ACME Hosting Inc.', total: 1240.55 }, splits: ['train', 'test'], modifiedAt: '2026-11-21T09:00:00.000000+00:00' };
    app = await open('exampleEditor', {
      handlers: {
        'exampleEditor/ready': ready(),
        'exampleEditor/pickAttachment': () => ({ token: 'tok-1', name: 'scan.png', mimeType: 'image/png', size: 2048 }),
        'exampleEditor/save': () => ({ status: 'saved', example: saved }),
      },
    });
    await app.page.getByTestId('inputs').waitFor();
    await type(app.page, 'outputs', '{"vendor": "ACME Hosting Inc.", "total": 1240.55}');
    await app.page.getByLabel('Add a split').fill('test');
    await app.page.getByLabel('Add a split').press('Enter');
    await app.page.getByRole('button', { name: 'Rename invoice.txt' }).click();
    const rename = app.page.getByRole('textbox', { name: 'New name for invoice.txt' });
    await rename.fill('invoice-text.txt');
    await rename.press('Enter');
    await app.page.getByRole('button', { name: 'Remove invoice.pdf' }).click();
    await app.page.getByRole('button', { name: 'Add File…' }).click();
    await app.page.getByText('scan.png').waitFor();
    await app.page.keyboard.press('Control+s');
    await app.page.getByText(/^Saved at /).waitFor();
    const [params] = app.requests('exampleEditor/save') as Record<string, unknown>[];
    assert.deepEqual(params, {
      base: example.modifiedAt,
      draft: { inputs: example.inputs, outputs: { vendor: 'ACME Hosting Inc.', total: 1240.55 }, metadata: example.metadata, splits: ['train', 'test'] },
      attachments: { add: [{ token: 'tok-1', name: 'scan.png' }], rename: { 'invoice.txt': 'invoice-text.txt' }, remove: ['invoice.pdf'] },
      force: false,
    });
    // Saved: the draft is the server's again.
    assert.match(await app.page.getByTestId('outputs').locator('textarea').inputValue(), /1240\.55/);
    assert.equal(await app.page.getByRole('button', { name: 'Revert' }).getAttribute('disabled'), '');
  });

  it('on a conflict saves nothing, offers the diff, and overwrites only when asked', async () => {
    const theirs = { ...example, outputs: { vendor: 'ACME Hosting', total: 1000 }, modifiedAt: '2026-11-22T08:00:00.000000+00:00' };
    let saves = 0;
    app = await open('exampleEditor', {
      handlers: {
        'exampleEditor/ready': ready(),
        'exampleEditor/showDiff': () => ({}),
        'exampleEditor/save': (p) => ((p as { force: boolean }).force ? { status: 'saved', example: { ...theirs, outputs: { vendor: 'Mine', total: 1 }, modifiedAt: 'later' } } : (saves++, { status: 'conflict', server: theirs })),
      },
    });
    await app.page.getByTestId('inputs').waitFor();
    await type(app.page, 'outputs', '{"vendor": "Mine", "total": 1}');
    await app.page.getByTestId('save').click();
    await app.page.getByTestId('conflict').waitFor();
    assert.equal(saves, 1);
    assert.match(await app.page.getByTestId('outputs').locator('textarea').inputValue(), /"Mine"/, 'the draft is kept');
    await screenshot(app.page, 'example-editor-conflict');
    await app.page.getByRole('button', { name: 'Show Diff' }).click();
    await app.page.waitForFunction(() => true);
    assert.deepEqual((app.requests('exampleEditor/showDiff') as { draft: { outputs: unknown } }[]).map((r) => r.draft.outputs), [{ vendor: 'Mine', total: 1 }]);
    await app.page.getByRole('button', { name: 'Overwrite with Mine' }).click();
    await app.page.getByText(/^Saved at /).waitFor();
    assert.deepEqual((app.requests('exampleEditor/save') as { force: boolean }[]).map((r) => r.force), [false, true]);
    assert.equal(await app.page.getByTestId('conflict').count(), 0);
  });

  it('shows a server refusal at the top and keeps the draft', async () => {
    app = await open('exampleEditor', {
      handlers: {
        'exampleEditor/ready': ready(),
        'exampleEditor/save': () => {
          throw new HostError('requestFailed', 'update examples failed: 422 Unprocessable Entity: outputs do not match the dataset schema');
        },
      },
    });
    await app.page.getByTestId('inputs').waitFor();
    await type(app.page, 'metadata', '{"source": "scan"}');
    await app.page.getByTestId('save').click();
    await app.page.getByTestId('save-error').waitFor();
    assert.equal(
      await app.page.getByTestId('save-error').textContent(),
      'Not saved: update examples failed: 422 Unprocessable Entity: outputs do not match the dataset schema Your changes are kept.',
    );
    assert.match(await app.page.getByTestId('metadata').locator('textarea').inputValue(), /scan/);
  });

  it('writes a new example into the split it was opened on', async () => {
    app = await open('exampleEditor', {
      handlers: {
        'exampleEditor/ready': ready(state({ example: null, split: 'test' })),
        'exampleEditor/save': () => ({ status: 'saved', example: { ...example, splits: ['test'] } }),
      },
    });
    await app.page.getByTestId('inputs').waitFor();
    assert.match((await app.page.getByTestId('splits').textContent()) ?? '', /test/);
    await type(app.page, 'inputs', '{"invoice_text": "Initech, EUR 10"}');
    await type(app.page, 'outputs', '{"vendor": "Initech", "total": 10}');
    await app.page.getByRole('button', { name: 'Create Example' }).click();
    await app.page.getByText(/^Saved at /).waitFor();
    const [params] = app.requests('exampleEditor/save') as { base: unknown; draft: { splits: string[] } }[];
    assert.equal(params!.base, null);
    assert.deepEqual(params!.draft.splits, ['test']);
  });

  it('renders server text as text', async () => {
    const hostile = '<img src=x onerror="document.title=\'pwned\'">';
    app = await open('exampleEditor', {
      handlers: { 'exampleEditor/ready': ready(state({ dataset: { ...state().dataset, name: hostile }, example: { ...example, attachments: [{ name: hostile, mimeType: 'text/html' }] } })) },
    });
    await app.page.getByTestId('inputs').waitFor();
    assert.equal(await app.page.locator('img').count(), 0);
    assert.notEqual(await app.page.title(), 'pwned');
    assert.ok((await app.page.locator('.lsw-attachment-name').allTextContents()).includes(hostile));
  });
});
