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

/** Replaces a JSON field's text the way a person does (select all, type); inputs and outputs are shown as JSON first. */
async function type(page: Page, field: string, text: string) {
  const view = page.getByTestId(`${field}-view`);
  if ((await view.count()) && (await view.textContent()) === 'Edit as JSON') await view.click();
  const area = page.getByTestId(field).locator('textarea');
  await area.fill(text);
}

/** The textarea of one top-level field of inputs or outputs. */
const fieldOf = (page: Page, group: string, key: string) => page.getByTestId(group).locator(`[data-key="${key}"] textarea`);

const errorsOf = (page: Page, field: string) => page.getByTestId(field).locator('.lsw-field-errors li').allTextContents();

describe('webview: example editor', () => {
  const open = withWebviewApps();
  let app: OpenApp;

  it('shows the example field by field, splits, attachments; screenshots in both themes', async () => {
    for (const theme of ['dark', 'light'] as const) {
      app = await open('exampleEditor', { theme, width: 900, height: 1100, handlers: { 'exampleEditor/ready': ready() } });
      await app.page.getByTestId('inputs').waitFor();
      assert.equal(await fieldOf(app.page, 'inputs', 'invoice_text').inputValue(), example.inputs.invoice_text);
      assert.equal(await fieldOf(app.page, 'inputs', 'currency').inputValue(), 'USD');
      assert.equal(await fieldOf(app.page, 'outputs', 'vendor').inputValue(), example.outputs.vendor);
      assert.equal(await fieldOf(app.page, 'outputs', 'total').inputValue(), '1240.5');
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
    // A text wrapped at this width shows whole: its box grows with it.
    const hidden = await fieldOf(app.page, 'inputs', 'invoice_text').evaluate((el) => el.scrollHeight - el.clientHeight);
    assert.ok(hidden <= 0, `the invoice text hides ${hidden}px behind a scroll`);
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

  it('shows a schema error about one field under that field', async () => {
    app = await open('exampleEditor', { handlers: { 'exampleEditor/ready': ready(), 'exampleEditor/save': () => assert.fail('sent an invalid draft') } });
    await app.page.getByTestId('inputs').waitFor();
    await fieldOf(app.page, 'inputs', 'currency').fill('YEN');
    await fieldOf(app.page, 'outputs', 'total').fill('"lots"');
    const under = (group: string, key: string) => app.page.getByTestId(group).locator(`[data-key="${key}"] .lsw-field-errors li`).allTextContents();
    const currency = await under('inputs', 'currency');
    assert.ok(currency.length > 0 && currency.every((e) => e.startsWith('inputs.currency:')), currency.join(' | '));
    assert.equal(await fieldOf(app.page, 'inputs', 'currency').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await under('inputs', 'invoice_text'), []);
    const total = await under('outputs', 'total');
    assert.ok(total.length > 0 && total.every((e) => e.startsWith('outputs.total:')), total.join(' | '));
    await app.page.getByTestId('save').click();
    await app.page.getByTestId('save-error').waitFor();
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
    assert.equal(await fieldOf(app.page, 'outputs', 'total').inputValue(), '1240.55');
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

  // Text as it is: line breaks, trailing spaces, tabs, Unicode, a leading line break, Windows line breaks.
  const text = {
    id: EXAMPLE,
    inputs: {
      question: 'Line one\nLine two with trailing spaces   \n\tindented — ünïcødé 🙂 e\u0301\n',
      transcript: 'user: hi\r\nassistant: hello\r\n',
      mixed: 'a\r\nb\nc',
      bell: 'ring\u0007',
      n: 3,
      tags: ['a', 'b'],
    },
    outputs: { answer: '\nStarts with a line break.\n\nTwo paragraphs.' },
    metadata: null,
    splits: [],
    attachments: [],
    modifiedAt: '2026-11-20T10:00:00.000000+00:00',
  };
  const textState = () => state({ dataset: { ...state().dataset, inputsSchema: null, outputsSchema: null }, example: text });

  it('edits each string of inputs and outputs as text with real line breaks, and gives it back exactly', async () => {
    app = await open('exampleEditor', {
      width: 700,
      height: 1000,
      handlers: { 'exampleEditor/ready': ready(textState()), 'exampleEditor/save': () => ({ status: 'saved', example: text }) },
    });
    await app.page.getByTestId('inputs').waitFor();
    assert.equal(await fieldOf(app.page, 'inputs', 'question').inputValue(), text.inputs.question);
    assert.equal(await fieldOf(app.page, 'outputs', 'answer').inputValue(), text.outputs.answer, 'a leading line break is kept');
    // Windows line breaks show as line breaks and are said to be kept.
    assert.equal(await fieldOf(app.page, 'inputs', 'transcript').inputValue(), 'user: hi\nassistant: hello\n');
    assert.match((await app.page.getByTestId('inputs').locator('[data-key="transcript"] label').textContent())!, /CRLF/);
    // What a text field cannot give back unchanged is edited as a JSON string.
    assert.equal(await fieldOf(app.page, 'inputs', 'mixed').inputValue(), JSON.stringify(text.inputs.mixed));
    assert.equal(await fieldOf(app.page, 'inputs', 'bell').inputValue(), JSON.stringify(text.inputs.bell));
    assert.deepEqual(JSON.parse(await fieldOf(app.page, 'inputs', 'tags').inputValue()), ['a', 'b']);
    assert.equal(await app.page.getByTestId('status').textContent(), 'No changes');
    assert.equal(await app.page.getByTestId('save').getAttribute('disabled'), '');
    await screenshot(app.page, 'example-editor-text-fields');

    // Showing them as JSON and back changes nothing; the JSON has the escapes.
    await app.page.getByTestId('inputs-view').click();
    assert.deepEqual(JSON.parse(await app.page.getByTestId('inputs').locator('textarea').inputValue()), text.inputs);
    assert.equal(await app.page.getByTestId('status').textContent(), 'No changes');
    await app.page.getByTestId('inputs-view').click();
    assert.equal(await fieldOf(app.page, 'inputs', 'question').inputValue(), text.inputs.question);

    // One line typed at the end of the transcript: its line break is a Windows one like the others; the rest is untouched.
    const transcript = fieldOf(app.page, 'inputs', 'transcript');
    await transcript.focus();
    await app.page.keyboard.press('Control+End');
    await app.page.keyboard.type('user: bye');
    await app.page.keyboard.press('Enter');
    await fieldOf(app.page, 'outputs', 'answer').fill(`${text.outputs.answer}\n  `);
    await app.page.getByTestId('save').click();
    await app.page.getByText(/^Saved at /).waitFor();
    const [params] = app.requests('exampleEditor/save') as { draft: { inputs: unknown; outputs: unknown } }[];
    assert.deepEqual(params!.draft.inputs, { ...text.inputs, transcript: 'user: hi\r\nassistant: hello\r\nuser: bye\r\n' });
    assert.deepEqual(params!.draft.outputs, { answer: `${text.outputs.answer}\n  ` });
    assert.deepEqual(Object.keys(params!.draft.inputs as object), Object.keys(text.inputs), 'the keys keep their order');
  });

  it('marks a field that is not valid JSON at itself, saves nothing, and keeps what was typed across a reload', async () => {
    app = await open('exampleEditor', { handlers: { 'exampleEditor/ready': ready(textState()), 'exampleEditor/save': () => assert.fail('sent an invalid draft') } });
    await app.page.getByTestId('inputs').waitFor();
    await fieldOf(app.page, 'inputs', 'question').fill('Edited question\nsecond line');
    await fieldOf(app.page, 'inputs', 'n').fill('three');
    const error = app.page.getByTestId('inputs').locator('[data-key="n"] .lsw-field-errors');
    assert.match((await error.textContent())!, /^inputs\.n is not valid JSON: /);
    assert.equal(await fieldOf(app.page, 'inputs', 'n').getAttribute('aria-invalid'), 'true');
    assert.equal(await app.page.getByTestId('inputs').locator('[data-key="question"] .lsw-field-errors').count(), 0);
    // It cannot be shown as one JSON text until it is valid: the button says why.
    assert.equal(await app.page.getByTestId('inputs-view').isDisabled(), true);
    assert.match((await app.page.getByTestId('inputs-view').getAttribute('title'))!, /Fix the fields marked below/);
    await app.page.getByTestId('save').click();
    await app.page.getByTestId('save-error').waitFor();
    assert.deepEqual(app.requests('exampleEditor/save'), []);
    await app.page.waitForTimeout(400); // the dirty notice is debounced
    const notices = app.requests('exampleEditor/draftState') as { draft: { inputsFields: { key: string; text: string }[] } | null }[];
    assert.equal(notices.at(-1)!.draft!.inputsFields.find((f) => f.key === 'n')!.text, 'three', 'the host holds the fields as typed');

    await app.reload();
    await app.page.getByTestId('inputs').waitFor();
    assert.equal(await fieldOf(app.page, 'inputs', 'n').inputValue(), 'three');
    assert.equal(await fieldOf(app.page, 'inputs', 'question').inputValue(), 'Edited question\nsecond line');
    assert.match((await error.textContent())!, /^inputs\.n is not valid JSON: /);
    await fieldOf(app.page, 'inputs', 'n').fill('4');
    assert.equal(await error.count(), 0);
    await app.page.getByTestId('inputs-view').click();
    assert.deepEqual(JSON.parse(await app.page.getByTestId('inputs').locator('textarea').inputValue()), { ...text.inputs, question: 'Edited question\nsecond line', n: 4 });
  });

  it('opens a draft recovered from a closed tab as it was typed, fields or JSON', async () => {
    const fields = [{ key: 'question', kind: 'text', text: 'Recovered\ntext' }];
    app = await open('exampleEditor', {
      handlers: { 'exampleEditor/ready': ready(state({ recoveredDraft: { inputs: '{}', outputs: '{"vendor": "half', metadata: '', splits: [], inputsFields: fields } })) },
    });
    await app.page.getByTestId('inputs').waitFor();
    assert.equal(await fieldOf(app.page, 'inputs', 'question').inputValue(), 'Recovered\ntext');
    assert.equal(await app.page.getByTestId('outputs').locator('textarea').inputValue(), '{"vendor": "half');
    assert.equal(await app.page.getByTestId('outputs-view').textContent(), 'Edit as Fields');
    assert.equal(await app.page.getByTestId('outputs-view').isDisabled(), true);
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
