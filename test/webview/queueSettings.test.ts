// The queue settings panel in real Chromium with a fake host: the form as the host gives it, rubric items with
// their keys' feedback configs, what Save sends (the form, and only the configs that are new or changed), the
// problems checkForm finds shown at their fields with nothing sent, a failed save, the dataset picker, drafts
// across reloads, a new queue, a problem state, hostile server text, a 400 px panel and the keyboard.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { QueueSettingsState, type ConfigEntry, type QueueForm } from '../../src/protocol/queueSettings';
import { HostError, screenshot, withWebviewApps, type OpenApp } from './harness';

const QUEUE = '00000000-0000-4000-8000-00000000a001';
const DATASET = { id: '00000000-0000-4000-8000-00000000d001', name: 'support-golden' };

const CONFIGS: ConfigEntry[] = [
  { key: 'correctness', config: { type: 'categorical', categories: [{ value: 0, label: 'wrong' }, { value: 1, label: 'right' }] }, lowerIsBetter: false },
  { key: 'helpfulness', config: { type: 'continuous', min: 0, max: 10 }, lowerIsBetter: false },
  { key: 'latency_pain', config: { type: 'continuous', min: 0, max: 1 }, lowerIsBetter: true },
  { key: 'notes', config: { type: 'freeform' }, lowerIsBetter: false },
];

const FORM: QueueForm = {
  name: 'Support triage review',
  description: 'Answers of the support bot, sampled daily.',
  instructions: 'Read the whole thread first.\nScore the last answer only.',
  rubric: [
    { key: 'correctness', description: 'Are the facts right?', required: true, scoreDescriptions: {}, valueDescriptions: { right: 'Every fact checks out' } },
    { key: 'helpfulness', description: '', required: false, scoreDescriptions: { '0': 'No help', '10': 'Solved it' }, valueDescriptions: {} },
  ],
  defaultDataset: DATASET,
  reviewersPerItem: 2,
  reservations: true,
  reservationMinutes: 30,
};

function settings(over: { queueId?: string | null; form?: Partial<QueueForm>; configs?: ConfigEntry[] } = {}): QueueSettingsState {
  return QueueSettingsState.parse({
    kind: 'settings',
    queueId: over.queueId === undefined ? QUEUE : over.queueId,
    form: { ...FORM, ...over.form },
    configs: over.configs ?? CONFIGS,
  });
}

const ready = (s: QueueSettingsState) => () => ({ restore: { queueId: QUEUE }, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state: s });

interface SaveParams {
  form: QueueForm;
  configs: ConfigEntry[];
}
const saves = (app: OpenApp) => app.requests('queueSettings/save') as SaveParams[];

/** A host whose save answers with the state the server would now have. */
function savingHost(start: QueueSettingsState, message = 'Saved the queue.') {
  let now = start;
  return {
    'queueSettings/ready': () => ready(now)(),
    'queueSettings/save': (params: unknown) => {
      const p = params as SaveParams;
      const configs = [...CONFIGS.filter((c) => !p.configs.some((n) => n.key === c.key)), ...p.configs];
      now = settings({ queueId: QUEUE, form: p.form, configs });
      return { state: now, message };
    },
  };
}

/** Whether a toolkit button is disabled, once it has reflected its state (a tick later). */
async function disabled(page: Page, testId: string): Promise<boolean> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r))));
  return (await page.getByTestId(testId).getAttribute('disabled')) !== null;
}

async function sent(app: OpenApp, method: string, count = 1) {
  for (let i = 0; i < 100 && app.requests(method).length < count; i++) await app.page.waitForTimeout(20);
  assert.equal(app.requests(method).length, count, `${method} sent ${app.requests(method).length} times, not ${count}`);
}

const item = (page: Page, key: string) => page.locator(`[data-testid="rubric-item"][data-key="${key}"]`);
const errors = (page: Page) => page.getByTestId('field-error').allTextContents();

describe('webview: queue settings', () => {
  const open = withWebviewApps();
  let app: OpenApp;

  it('shows the queue’s fields and its rubric with each key’s config; screenshots in both themes', async () => {
    for (const theme of ['dark', 'light'] as const) {
      app = await open('queueSettings', { theme, width: 900, height: 1500, handlers: { 'queueSettings/ready': ready(settings()) } });
      const page = app.page;
      await page.getByTestId('queue-settings').waitFor();
      assert.equal(await page.getByRole('heading', { level: 2 }).textContent(), 'Annotation queue settings');
      assert.equal(await page.getByTestId('qs-name').inputValue(), 'Support triage review');
      assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'Support triage review', 'the name has its label');
      assert.equal(await page.getByTestId('qs-description').inputValue(), FORM.description);
      assert.equal(await page.getByTestId('qs-instructions').inputValue(), FORM.instructions);
      assert.equal(await page.getByTestId('qs-dataset').textContent(), 'support-golden');
      assert.equal(await page.getByTestId('qs-reviewers').inputValue(), '2');
      assert.equal(await page.getByTestId('qs-reservations').isChecked(), true);
      assert.equal(await page.getByTestId('qs-reservation-minutes').inputValue(), '30');
      assert.deepEqual(await page.getByTestId('rubric-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), ['correctness', 'helpfulness']);

      const correctness = item(page, 'correctness');
      assert.equal(await correctness.getByTestId('rubric-description').inputValue(), 'Are the facts right?');
      assert.equal(await correctness.getByTestId('rubric-required').isChecked(), true);
      assert.equal(await correctness.getByTestId('config-type').inputValue(), 'categorical');
      assert.deepEqual(await correctness.getByTestId('category-label').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)), ['wrong', 'right']);
      assert.deepEqual(await correctness.getByTestId('category-value').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)), ['0', '1']);
      assert.deepEqual(await correctness.getByTestId('category-description').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)), ['', 'Every fact checks out']);
      assert.match((await correctness.getByTestId('config-shared-note').textContent())!, /workspace’s: a change applies to every queue that uses “correctness”/);

      const helpfulness = item(page, 'helpfulness');
      assert.equal(await helpfulness.getByTestId('config-type').inputValue(), 'continuous');
      assert.equal(await helpfulness.getByTestId('config-min').inputValue(), '0');
      assert.equal(await helpfulness.getByTestId('config-max').inputValue(), '10');
      assert.equal(await helpfulness.getByTestId('config-lower-better').isChecked(), false);
      assert.deepEqual(await helpfulness.getByTestId('score-description').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)), ['No help', 'Solved it']);

      assert.equal(await page.getByTestId('qs-unsaved').count(), 0);
      assert.equal(await disabled(page, 'qs-save'), true, 'nothing to save yet');
      assert.equal(await disabled(page, 'qs-open-review'), false);
      await screenshot(page, `queue-settings-${theme}`);
      await app.close();
    }
  });

  it('adds an item with a new key (a yes/no category) and saves the form with exactly that new config', async () => {
    app = await open('queueSettings', { width: 900, height: 1500, handlers: savingHost(settings()) });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    await page.getByTestId('add-rubric-item').click();
    const added = page.getByTestId('rubric-item').nth(2);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'rubric-key', 'the new item’s key has focus');
    assert.deepEqual(await page.locator('datalist option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value)), ['correctness', 'helpfulness', 'latency_pain', 'notes']);
    await page.keyboard.type('tone');
    assert.equal(await added.getAttribute('data-key'), 'tone');
    assert.match((await added.getByTestId('config-new-note').textContent())!, /“tone” is a new feedback key: its config is created on Save \(it starts as categories 0 = no, 1 = yes\)/);
    assert.equal(await added.getByTestId('config-type').inputValue(), 'categorical');
    assert.deepEqual(await added.getByTestId('category-label').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)), ['no', 'yes']);
    await added.getByTestId('rubric-description').fill('Is the tone friendly?');
    await added.getByTestId('rubric-required').check();
    await added.getByTestId('category-description').nth(1).fill('Warm and polite');
    assert.equal(await page.getByTestId('qs-unsaved').textContent(), '● Unsaved changes');
    await screenshot(page, 'queue-settings-new-key');

    await page.getByTestId('qs-save').click();
    await page.getByText('Saved the queue.').waitFor();
    assert.equal(saves(app).length, 1);
    const { form, configs } = saves(app)[0]!;
    assert.deepEqual(configs, [{ key: 'tone', config: { type: 'categorical', categories: [{ value: 0, label: 'no' }, { value: 1, label: 'yes' }] }, lowerIsBetter: false }]);
    assert.deepEqual(form, {
      ...FORM,
      rubric: [...FORM.rubric, { key: 'tone', description: 'Is the tone friendly?', required: true, scoreDescriptions: {}, valueDescriptions: { yes: 'Warm and polite' } }],
    });
    assert.equal(await page.getByTestId('qs-status').textContent(), 'Saved the queue.');
    assert.equal(await page.getByTestId('qs-status').getAttribute('aria-live'), 'polite');
    assert.equal(await page.getByTestId('qs-unsaved').count(), 0, 'the answer’s state is the new baseline');
    assert.match((await item(page, 'tone').getByTestId('config-shared-note').textContent())!, /workspace’s/, 'the key is the workspace’s now');
    assert.equal(await disabled(page, 'qs-save'), true);
  });

  it('sends only the changed config when an existing key’s max changes, with its score descriptions', async () => {
    app = await open('queueSettings', { handlers: savingHost(settings()) });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    const helpfulness = item(page, 'helpfulness');
    await helpfulness.getByTestId('config-max').fill('5');
    assert.match((await helpfulness.getByTestId('config-shared-note').textContent())!, /Changed here; written on Save\./);
    await helpfulness.getByTestId('score-description').nth(1).fill('Solved it fully');
    await helpfulness.getByTestId('score-value').nth(1).fill('5');
    await page.getByTestId('qs-save').click();
    await sent(app, 'queueSettings/save');
    const { form, configs } = saves(app)[0]!;
    assert.deepEqual(configs, [{ key: 'helpfulness', config: { type: 'continuous', min: 0, max: 5 }, lowerIsBetter: false }]);
    assert.deepEqual(form.rubric[1]!.scoreDescriptions, { '0': 'No help', '5': 'Solved it fully' });
    assert.deepEqual(form.rubric[0], FORM.rubric[0]);
  });

  it('a config set up while a new key is still being typed goes with the finished key', async () => {
    app = await open('queueSettings', { handlers: savingHost(settings()) });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    await page.getByTestId('add-rubric-item').click();
    const added = page.getByTestId('rubric-item').nth(2);
    await added.getByTestId('rubric-key').fill('ton');
    await added.getByTestId('config-type').selectOption('continuous');
    await added.getByTestId('config-max').fill('5');
    await added.getByTestId('config-lower-better').check();
    await added.getByTestId('rubric-key').fill('tone_score');
    assert.equal(await added.getByTestId('config-type').inputValue(), 'continuous');
    assert.equal(await added.getByTestId('config-max').inputValue(), '5');
    await page.getByTestId('qs-save').click();
    await sent(app, 'queueSettings/save');
    assert.deepEqual(saves(app)[0]!.configs, [{ key: 'tone_score', config: { type: 'continuous', min: 0, max: 5 }, lowerIsBetter: true }]);
  });

  it('changing the lower-is-better of a key, or its type, sends that config; changing it back sends none', async () => {
    app = await open('queueSettings', { handlers: savingHost(settings()) });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    const correctness = item(page, 'correctness');
    await correctness.getByTestId('config-type').selectOption('freeform');
    await correctness.getByTestId('config-type').selectOption('categorical');
    await page.getByTestId('qs-name').fill('Support triage review (v2)');
    await page.getByTestId('qs-save').click();
    await sent(app, 'queueSettings/save');
    assert.deepEqual(saves(app)[0]!.configs, [], 'a config switched away and back is unchanged');
    assert.equal(saves(app)[0]!.form.name, 'Support triage review (v2)');
    await correctness.getByTestId('config-lower-better').check();
    await page.getByTestId('qs-save').click();
    await sent(app, 'queueSettings/save', 2);
    assert.deepEqual(saves(app)[1]!.configs, [{ ...CONFIGS[0]!, lowerIsBetter: true }]);
  });

  it('renaming a category carries what it means; removing one drops it; a new category is added', async () => {
    app = await open('queueSettings', { handlers: savingHost(settings()) });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    const correctness = item(page, 'correctness');
    await correctness.getByTestId('category-label').nth(1).fill('correct');
    assert.equal(await correctness.getByTestId('category-description').nth(1).inputValue(), 'Every fact checks out');
    await correctness.getByTestId('add-category').click();
    assert.deepEqual(await correctness.getByTestId('category-value').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)), ['0', '1', '2']);
    await correctness.getByTestId('category-label').nth(2).fill('unsure');
    await correctness.getByTestId('category-description').nth(2).fill('Cannot tell from the thread');
    await correctness.getByRole('button', { name: 'Remove category 1 (wrong)' }).click();
    assert.equal(await correctness.getByTestId('category-row').count(), 2);
    await page.getByTestId('qs-save').click();
    await sent(app, 'queueSettings/save');
    const { form, configs } = saves(app)[0]!;
    assert.deepEqual(configs, [{ key: 'correctness', config: { type: 'categorical', categories: [{ value: 1, label: 'correct' }, { value: 2, label: 'unsure' }] }, lowerIsBetter: false }]);
    assert.deepEqual(form.rubric[0]!.valueDescriptions, { correct: 'Every fact checks out', unsure: 'Cannot tell from the thread' });
  });

  it('shows checkForm’s problems at their fields and sends nothing: empty name, duplicate key, min ≥ max, duplicate label', async () => {
    app = await open('queueSettings', { width: 900, height: 1600, handlers: savingHost(settings()) });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    await page.getByTestId('qs-name').fill('   ');
    await page.getByTestId('add-rubric-item').click();
    await page.getByTestId('rubric-key').nth(2).fill('correctness');
    const helpfulness = item(page, 'helpfulness');
    await helpfulness.getByTestId('config-min').fill('10');
    const first = page.getByTestId('rubric-item').first();
    await first.getByTestId('category-label').nth(0).fill('right');
    await page.getByTestId('qs-save').click();
    await page.getByTestId('qs-problems').waitFor();
    assert.deepEqual((await errors(page)).sort(), [
      '"correctness" is already in the rubric.',
      'A queue needs a name.',
      'correctness: the label "right" is used twice.',
      'correctness: the label "right" is used twice.',
      'helpfulness: the minimum must be below the maximum.',
    ].sort(), 'the duplicate label shows in both items of the key');
    assert.equal(await page.getByTestId('qs-problems').textContent(), 'Not saved: fix the 4 problems marked below.');
    assert.equal(await page.getByTestId('qs-name').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'qs-name', 'focus goes to the first problem');
    const describedBy = await page.getByTestId('qs-name').getAttribute('aria-describedby');
    assert.equal(await page.locator(`[id="${describedBy}"]`).textContent(), 'A queue needs a name.');
    assert.match((await page.getByTestId('rubric-item').nth(2).getByTestId('field-error').first().textContent())!, /already in the rubric/);
    assert.equal(await helpfulness.getByTestId('field-error').textContent(), 'helpfulness: the minimum must be below the maximum.');
    await screenshot(page, 'queue-settings-problems');
    await page.keyboard.press('Control+s');
    await page.waitForTimeout(100);
    assert.deepEqual(saves(app), [], 'nothing is sent while a problem stands');

    // The marks follow the fixes.
    await page.getByTestId('qs-name').fill('Fixed');
    assert.equal(await page.getByTestId('qs-name').getAttribute('aria-invalid'), 'false');
    await page.getByTestId('remove-rubric-item').nth(2).click();
    await helpfulness.getByTestId('config-min').fill('0');
    await first.getByTestId('category-label').nth(0).fill('wrong');
    assert.deepEqual(await errors(page), []);
    await page.getByTestId('qs-save').click();
    await sent(app, 'queueSettings/save');
    assert.deepEqual(saves(app)[0]!.configs, []);
    assert.equal(saves(app)[0]!.form.name, 'Fixed');
    assert.deepEqual(saves(app)[0]!.form.rubric, FORM.rubric, 'a label typed over and back keeps what each category means');
  });

  it('refuses numbers that are not numbers: reviewers, minutes, a category without a score', async () => {
    app = await open('queueSettings', { handlers: savingHost(settings()) });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    await page.getByTestId('qs-reviewers').fill('0');
    await page.getByTestId('qs-reservation-minutes').fill('');
    await item(page, 'correctness').getByTestId('add-category').click();
    await item(page, 'correctness').getByTestId('category-value').nth(2).fill('');
    await item(page, 'correctness').getByTestId('category-label').nth(2).fill('partly');
    await page.getByTestId('qs-save').click();
    await page.getByTestId('qs-problems').waitFor();
    assert.deepEqual(await errors(page), [
      'Reviewers per item: a whole number from 1 to 100.',
      'Reservation minutes: a whole number from 1 to 100000.',
      'correctness: category 3 needs a score (a number).',
    ]);
    assert.deepEqual(saves(app), []);
    // Minutes do not matter while reservations are off: the saved value is kept.
    await page.getByTestId('qs-reservations').uncheck();
    await page.getByTestId('qs-reviewers').fill('3');
    await item(page, 'correctness').getByTestId('category-value').nth(2).fill('0.5');
    assert.deepEqual(await errors(page), []);
    await page.getByTestId('qs-save').click();
    await sent(app, 'queueSettings/save');
    const { form, configs } = saves(app)[0]!;
    assert.deepEqual([form.reviewersPerItem, form.reservations, form.reservationMinutes], [3, false, 30]);
    assert.deepEqual(configs, [{ key: 'correctness', config: { type: 'categorical', categories: [{ value: 0, label: 'wrong' }, { value: 1, label: 'right' }, { value: 0.5, label: 'partly' }] }, lowerIsBetter: false }]);
  });

  it('keeps everything typed when the save fails, and shows the error', async () => {
    app = await open('queueSettings', {
      handlers: {
        'queueSettings/ready': ready(settings()),
        'queueSettings/save': () => {
          throw new HostError('requestFailed', 'LangSmith refused the feedback config: 409 Conflict.');
        },
      },
    });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    await page.getByTestId('qs-description').fill('Typed before the failure');
    await item(page, 'helpfulness').getByTestId('config-max').fill('4');
    await page.getByTestId('qs-save').click();
    await page.getByTestId('qs-error').waitFor();
    assert.equal(await page.getByTestId('qs-error').textContent(), 'Not saved: LangSmith refused the feedback config: 409 Conflict. Your changes are kept.');
    assert.equal(await page.getByTestId('qs-error').getAttribute('role'), 'alert');
    assert.equal(await page.getByTestId('qs-description').inputValue(), 'Typed before the failure');
    assert.equal(await item(page, 'helpfulness').getByTestId('config-max').inputValue(), '4');
    assert.equal(await page.getByTestId('qs-unsaved').count(), 1);
    assert.equal(await page.getByTestId('qs-status').textContent(), '');
    assert.equal(await disabled(page, 'qs-save'), false, 'the save can be tried again');
    await screenshot(page, 'queue-settings-error');
  });

  it('picks the default dataset with the host’s picker, clears it, and ignores a cancel', async () => {
    const answers: unknown[] = [
      { dataset: { id: '00000000-0000-4000-8000-00000000d002', name: 'triage-regressions' }, clear: false },
      { dataset: null, clear: false },
      { dataset: null, clear: true },
    ];
    app = await open('queueSettings', { handlers: { ...savingHost(settings()), 'queueSettings/pickDataset': () => answers.shift() } });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    await page.getByTestId('qs-dataset-choose').click();
    await page.getByTestId('qs-dataset').getByText('triage-regressions').waitFor();
    await page.getByTestId('qs-dataset-choose').click();
    await sent(app, 'queueSettings/pickDataset', 2);
    await page.waitForTimeout(50);
    assert.equal(await page.getByTestId('qs-dataset').textContent(), 'triage-regressions', 'a cancel changes nothing');
    await page.getByTestId('qs-save').click();
    await sent(app, 'queueSettings/save');
    assert.deepEqual(saves(app)[0]!.form.defaultDataset, { id: '00000000-0000-4000-8000-00000000d002', name: 'triage-regressions' });
    await page.getByTestId('qs-dataset-choose').click();
    await page.getByTestId('qs-dataset').getByText('None').waitFor();
    await page.getByTestId('qs-save').click();
    await sent(app, 'queueSettings/save', 2);
    assert.equal(saves(app)[1]!.form.defaultDataset, null);
  });

  it('keeps unsaved edits across a reload, and asks for the state again', async () => {
    app = await open('queueSettings', { handlers: savingHost(settings()) });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    await page.getByTestId('qs-name').fill('Renamed before the reload');
    await page.getByTestId('add-rubric-item').click();
    await page.getByTestId('rubric-key').nth(2).fill('empathy');
    await item(page, 'empathy').getByTestId('config-type').selectOption('continuous');
    await item(page, 'empathy').getByTestId('config-max').fill('5');
    await page.getByTestId('rubric-item').nth(1).getByRole('button', { name: 'Move “helpfulness” up' }).click();
    await app.reload();
    await page.getByTestId('queue-settings').waitFor();
    assert.equal(app.requests('queueSettings/ready').length, 2);
    assert.equal(await page.getByTestId('qs-name').inputValue(), 'Renamed before the reload');
    assert.deepEqual(await page.getByTestId('rubric-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), ['helpfulness', 'correctness', 'empathy']);
    assert.equal(await item(page, 'empathy').getByTestId('config-max').inputValue(), '5');
    assert.equal(await page.getByTestId('qs-unsaved').count(), 1);
    await page.getByTestId('qs-save').click();
    await sent(app, 'queueSettings/save');
    assert.deepEqual(saves(app)[0]!.configs, [{ key: 'empathy', config: { type: 'continuous', min: 0, max: 5 }, lowerIsBetter: false }]);
    assert.deepEqual(saves(app)[0]!.form.rubric.map((r) => r.key), ['helpfulness', 'correctness', 'empathy']);
    // Saved: a reload shows the server's state, with nothing unsaved.
    await app.reload();
    await page.getByTestId('queue-settings').waitFor();
    assert.equal(await page.getByTestId('qs-unsaved').count(), 0);
  });

  it('after a reload with other server data: a saved draft follows the server, an edited one is kept and told', async () => {
    let now = settings();
    const edited = () => settings({ form: { description: 'Edited in another window.' } });
    app = await open('queueSettings', {
      handlers: {
        'queueSettings/ready': () => ready(now)(),
        'queueSettings/save': (params) => {
          now = settings({ form: (params as SaveParams).form });
          return { state: now, message: 'Saved the queue.' };
        },
      },
    });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    await page.getByTestId('qs-reviewers').fill('3');
    await page.getByTestId('qs-save').click();
    await page.getByText('Saved the queue.').waitFor();
    now = edited();
    await app.reload();
    await page.getByTestId('queue-settings').waitFor();
    assert.equal(await page.getByTestId('qs-description').inputValue(), 'Edited in another window.');
    assert.equal(await page.getByTestId('qs-reviewers').inputValue(), '2', 'the server’s value, not the old draft’s');
    assert.equal(await page.getByTestId('qs-changed-on-server').count(), 0);
    assert.equal(await page.getByTestId('qs-unsaved').count(), 0);
    // Ctrl+S with nothing changed sends nothing.
    await page.getByTestId('qs-name').focus();
    await page.keyboard.press('Control+s');
    await page.waitForTimeout(100);
    assert.equal(saves(app).length, 1);

    await page.getByTestId('qs-name').fill('Typed here');
    now = settings({ form: { description: 'Edited again elsewhere.' } });
    await app.reload();
    await page.getByTestId('qs-changed-on-server').waitFor();
    assert.equal(await page.getByTestId('qs-name').inputValue(), 'Typed here');
    assert.equal(await page.getByTestId('qs-description').inputValue(), 'Edited in another window.', 'the draft is kept whole');
    assert.equal(await page.getByTestId('qs-unsaved').count(), 1);
  });

  it('creates a new queue: its title, Create, then Open Review once it exists', async () => {
    const blankForm: QueueForm = { name: '', description: '', instructions: '', rubric: [], defaultDataset: null, reviewersPerItem: 1, reservations: false, reservationMinutes: 60 };
    const blank = settings({ queueId: null, form: blankForm });
    app = await open('queueSettings', { handlers: { ...savingHost(blank, 'Created the queue “Tone checks”.'), 'queueSettings/openReview': () => ({}) } });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    assert.equal(await page.getByRole('heading', { level: 2 }).textContent(), 'New annotation queue');
    assert.equal(await disabled(page, 'qs-open-review'), true);
    assert.equal(await page.getByTestId('qs-save').textContent(), 'Create Queue');
    assert.equal(await page.getByTestId('qs-reservation-minutes').isDisabled(), true);
    await screenshot(page, 'queue-settings-new-queue');
    await page.getByTestId('qs-save').click();
    assert.deepEqual(await errors(page), ['A queue needs a name.']);
    await page.getByTestId('qs-name').fill('Tone checks');
    await page.getByTestId('qs-save').click();
    await page.getByText('Created the queue “Tone checks”.').waitFor();
    assert.equal(saves(app).length, 1);
    assert.deepEqual(saves(app)[0]!.form, { ...blankForm, name: 'Tone checks' });
    assert.equal(await page.getByRole('heading', { level: 2 }).textContent(), 'Annotation queue settings');
    assert.equal(await disabled(page, 'qs-open-review'), false);
    await page.getByTestId('qs-open-review').click();
    await sent(app, 'queueSettings/openReview');
  });

  it('shows a problem state with its message and a Retry', async () => {
    const states: unknown[] = [
      { kind: 'problem', problem: { code: 'notFound', message: 'The queue “x” was deleted.' } },
      settings(),
    ];
    app = await open('queueSettings', { handlers: { 'queueSettings/ready': () => ({ restore: null, connection: { signedIn: true, endpoint: 'e' }, state: states.shift() }) } });
    const page = app.page;
    await page.getByTestId('qs-problem').waitFor();
    assert.equal(await page.getByRole('alert').textContent(), 'The queue “x” was deleted.');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('queue-settings').waitFor();
  });

  it('renders server text as text: script tags, markup and very long names', async () => {
    const img = '<img src=x onerror="window.__pwned=1">';
    const script = '<script>window.__pwned=2</script>';
    const long = `${'very-long-name-'.repeat(30)}end`;
    const hostileConfigs: ConfigEntry[] = [
      ...CONFIGS,
      { key: `${script}k`, config: { type: 'categorical', categories: [{ value: 0, label: img }, { value: 1, label: long }] }, lowerIsBetter: false },
    ];
    app = await open('queueSettings', {
      width: 400,
      height: 900,
      handlers: {
        'queueSettings/ready': ready(
          settings({
            configs: hostileConfigs,
            form: {
              name: `${script}${long}`,
              description: img,
              instructions: script,
              defaultDataset: { id: DATASET.id, name: `${img}${long}` },
              rubric: [{ key: `${script}k`, description: img, required: false, scoreDescriptions: {}, valueDescriptions: { [img]: script } }],
            },
          }),
        ),
      },
    });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.locator('#root script').count(), 0);
    assert.equal(await page.locator('.qs-subtitle').textContent(), `${script}${long}`);
    assert.equal(await page.getByTestId('qs-dataset').textContent(), `${img}${long}`);
    assert.equal(await page.getByTestId('rubric-item').getAttribute('data-key'), `${script}k`);
    assert.deepEqual(await page.getByTestId('category-label').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)), [img, long]);
    assert.equal(await page.getByTestId('category-description').first().inputValue(), script);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
    await page.waitForTimeout(100);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    await screenshot(page, 'queue-settings-hostile-400');
  });

  it('fits a 400 px panel without sideways scrolling, in both themes', async () => {
    for (const theme of ['dark', 'light'] as const) {
      app = await open('queueSettings', { theme, width: 400, height: 1400, handlers: savingHost(settings()) });
      const page = app.page;
      await page.getByTestId('queue-settings').waitFor();
      await item(page, 'helpfulness').getByTestId('config-max').fill('5');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('input, textarea, select, vscode-button')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth).map((e) => e.getAttribute('data-testid') ?? e.tagName),
      );
      assert.deepEqual(wide, [], 'every control is within the panel');
      await screenshot(page, `queue-settings-400-${theme}`);
      await app.close();
    }
  });

  it('is usable from the keyboard: labelled controls, moving items keeps focus, Ctrl+S saves', async () => {
    app = await open('queueSettings', { handlers: savingHost(settings()) });
    const page = app.page;
    await page.getByTestId('queue-settings').waitFor();
    // Every control has a name.
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('input, textarea, select')]
        .filter((e) => {
          const el = e as HTMLInputElement;
          return !el.getAttribute('aria-label') && !(el.labels && el.labels.length) && !el.getAttribute('aria-labelledby');
        })
        .map((e) => e.outerHTML.slice(0, 80)),
    );
    assert.deepEqual(unnamed, []);
    await page.getByTestId('qs-name').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'qs-description');
    const focusVisible = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(focusVisible, 'none', 'focus is visible');
    // Move "correctness" down with the keyboard: focus stays on its button, now at its new place.
    await page.getByRole('button', { name: 'Move “correctness” down' }).focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await page.getByTestId('rubric-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), ['helpfulness', 'correctness']);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Move “correctness” up', 'at the bottom, focus moves to its Up');
    await page.keyboard.press('Space');
    assert.deepEqual(await page.getByTestId('rubric-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), ['correctness', 'helpfulness']);
    assert.equal(await page.getByTestId('qs-unsaved').count(), 0, 'back in the saved order');
    await page.getByTestId('qs-instructions').focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Be kind.');
    await page.keyboard.press('Control+s');
    await sent(app, 'queueSettings/save');
    assert.equal(saves(app)[0]!.form.instructions, `${FORM.instructions} Be kind.`);
  });
});
