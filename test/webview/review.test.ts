// The annotation review page against a fake host: the form built from each feedback config, required fields,
// the keyboard, the next item from Done's answer, drafts (to the host, from the host, across a reload), a failed
// Done, the correction editor, hostile text, the item list's paging, 400 px, and screenshots in both themes.
import assert from 'node:assert/strict';
import type { Counts, Draft, ItemSummary, ItemView, Moved, QueueInfo, ReviewState, RubricField } from '../../src/protocol/review';
import type { Payload, RunDetail, RunRow, ThreadData, TraceData } from '../../src/protocol/trace';
import { HostError, screenshot, withWebviewApps, type OpenApp } from './harness';

const T0 = Date.UTC(2026, 0, 15, 9, 30, 0);
const uid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const payload = (value: unknown, cuts: Payload['cuts'] = []): Payload => ({ value, cuts, bytes: JSON.stringify(value)?.length ?? 0 });

const CORRECTNESS: RubricField = {
  key: 'correctness',
  description: 'Is the answer right?',
  required: true,
  config: { type: 'continuous', min: 0, max: 1 },
  lowerIsBetter: false,
  scoreDescriptions: { '0': 'Wrong', '1': 'Right' },
  valueDescriptions: {},
};
const TONE: RubricField = {
  key: 'tone',
  description: null,
  required: false,
  config: { type: 'categorical', categories: [{ value: 0, label: 'rude' }, { value: 1, label: 'neutral' }, { value: 2, label: 'kind' }] },
  lowerIsBetter: false,
  scoreDescriptions: {},
  valueDescriptions: { kind: 'Warm and helpful' },
};
const NOTES: RubricField = { key: 'notes', description: 'Anything else', required: false, config: { type: 'freeform' }, lowerIsBetter: false, scoreDescriptions: {}, valueDescriptions: {} };
const LATENCY: RubricField = {
  key: 'latency',
  description: null,
  required: false,
  config: { type: 'continuous', min: 0, max: 50 },
  lowerIsBetter: true,
  scoreDescriptions: {},
  valueDescriptions: {},
};

function queueOf(over: Partial<QueueInfo> = {}): QueueInfo {
  return {
    id: uid(7000),
    name: 'Support answers',
    description: null,
    instructions: 'Read the question and the answer. Score correctness first.',
    rubric: [CORRECTNESS, TONE, NOTES],
    defaultDataset: { id: uid(8000), name: 'golden' },
    reviewersPerItem: null,
    reservations: false,
    reservationMinutes: null,
    ...over,
  };
}

function summary(n: number, over: Partial<ItemSummary> = {}): ItemSummary {
  return {
    id: uid(100 + n),
    kind: 'run',
    runId: uid(1000 + n),
    threadId: null,
    projectId: uid(9000),
    name: `answer ${n}`,
    preview: `question ${n}`,
    section: 'needs_my_review',
    myStatus: null,
    reservedByOther: false,
    addedAt: T0,
    ...over,
  };
}

function runRow(id: string, name: string, parentId: string | null, runType = 'chain', over: Partial<RunRow> = {}): RunRow {
  return {
    id,
    parentId,
    dottedOrder: '',
    name,
    runType,
    status: 'success',
    start: T0,
    end: T0 + 1200,
    firstToken: null,
    tokens: { prompt: null, completion: null, total: null },
    cost: null,
    errorPreview: null,
    ...over,
  };
}

function viewOf(n: number, over: Partial<ItemView> = {}, item: Partial<ItemSummary> = {}): ItemView {
  const s = summary(n, item);
  const runId = s.runId!;
  const root = runRow(runId, s.name, null);
  const llm = runRow(uid(2000 + n), 'ChatOpenAI', runId, 'llm');
  const tool = runRow(uid(3000 + n), 'search_tool', runId, 'tool', { status: 'error' });
  const trace: TraceData = {
    header: {
      traceId: runId,
      rootRunId: runId,
      name: s.name,
      runType: 'chain',
      status: 'success',
      start: T0,
      end: T0 + 1200,
      tokens: { prompt: null, completion: null, total: null },
      cost: null,
      project: { id: uid(9000), name: 'support-bot' },
      threadId: null,
      shareUrl: null,
      readOnly: false,
    },
    runs: [root, llm, tool],
    source: 'v2',
    requests: 1,
  };
  const run: RunDetail = {
    id: runId,
    inputs: payload({ messages: [{ role: 'user', content: `How do I reset my password? (${n})` }] }),
    outputs: payload({ role: 'assistant', content: `Use the reset link. (${n})` }),
    error: null,
    tags: [],
    metadata: null,
    model: null,
    invocationParams: null,
    attachments: [],
    feedback: [],
    inDataset: false,
  };
  return { item: s, position: n, trace, run, thread: null, problem: null, draft: null, ...over };
}

const COUNTS: Counts = { needs_my_review: 5, needs_others_review: 2, archived: 7 };

function readyOf(state: ReviewState) {
  return { restore: { queueId: uid(7000) }, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state };
}

interface HostOptions {
  queue?: QueueInfo;
  current?: ItemView | null;
  counts?: Counts;
  mac?: boolean;
  extra?: Record<string, (params: unknown) => unknown>;
}

/** A queue of items 1…5 needing my review; Done, Requeue and Remove move to the item after. */
function reviewHost(options: HostOptions = {}) {
  const current = options.current === undefined ? viewOf(1) : options.current;
  const counts = options.counts ?? COUNTS;
  const moved = (p: unknown): Moved => {
    const id = (p as { itemId: string }).itemId;
    const n = Number.parseInt(id.slice(-12), 16) - 100;
    return { next: n < 5 ? viewOf(n + 1) : null, counts: { ...counts, needs_my_review: counts.needs_my_review - 1 }, feedback: [], message: `Done · ${4 - n + 1} left` };
  };
  return {
    'review/ready': () => readyOf({ kind: 'review', queue: options.queue ?? queueOf(), counts, current, mac: options.mac ?? false }),
    'review/open': (p: unknown) => {
      const id = (p as { itemId: string }).itemId;
      return viewOf(Number.parseInt(id.slice(-12), 16) - 100);
    },
    'review/neighbour': (p: unknown) => {
      const { itemId, direction } = p as { itemId: string; direction: 'next' | 'previous' };
      const n = Number.parseInt(itemId.slice(-12), 16) - 100 + (direction === 'next' ? 1 : -1);
      return { item: n >= 1 && n <= 5 ? summary(n) : null };
    },
    'review/saveDraft': () => ({}),
    'review/done': moved,
    'review/requeue': moved,
    'review/remove': (p: unknown) => ({ removed: true, moved: moved(p) }),
    'review/readRun': (p: unknown) => {
      const runId = (p as { runId: string }).runId;
      return { ...viewOf(1).run!, id: runId, inputs: payload({ query: `input of ${runId.slice(-4)}` }), outputs: payload({ result: 'child output' }) };
    },
    'review/act': () => ({ message: 'Opened.' }),
    'review/items': (p: unknown) => {
      const section = (p as { section: string }).section;
      return { items: section === 'needs_my_review' ? [1, 2, 3, 4, 5].map((n) => summary(n, { myStatus: n === 1 ? 'viewed' : null })) : [], cursor: null, counts };
    },
    'review/addToDataset': () => ({ example: { id: uid(8100), datasetId: uid(8000), datasetName: 'golden' }, message: null }),
    ...options.extra,
  };
}

const field = (app: OpenApp, key: string) => app.page.locator(`[data-testid="field"][data-key="${key}"]`);
const choice = (app: OpenApp, key: string, value: number) => app.page.locator(`[data-testid="choice"][data-key="${key}"][data-value="${value}"]`);

async function eventually(check: () => Promise<void> | void, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

async function ready(app: OpenApp): Promise<void> {
  await app.page.getByTestId('review-queue-name').waitFor();
}

describe('webview: annotation review', () => {
  const open = withWebviewApps();

  it('builds the form from each feedback config: a slider and number within min/max, categories, freeform', async () => {
    const app = await open('review', { handlers: reviewHost({ queue: queueOf({ rubric: [CORRECTNESS, TONE, NOTES, LATENCY] }) }) });
    await ready(app);
    const p = app.page;
    assert.equal(await p.getByTestId('review-queue-name').textContent(), 'Support answers');
    assert.equal(await p.getByTestId('progress').textContent(), '1 of 5');
    assert.equal(await p.getByTestId('count-mine').textContent(), '5');
    assert.equal(await p.getByTestId('count-others').textContent(), '2');
    assert.equal(await p.getByTestId('count-archived').textContent(), '7');
    assert.match((await p.getByTestId('instructions').textContent()) ?? '', /Score correctness first\./);
    assert.equal(await p.getByTestId('field').count(), 4);
    // continuous 0…1: step 0.1
    const slider = field(app, 'correctness').getByTestId('score-slider');
    assert.deepEqual(await slider.evaluate((el: HTMLInputElement) => [el.min, el.max, el.step]), ['0', '1', '0.1']);
    const input = field(app, 'correctness').getByTestId('score-input');
    assert.deepEqual(await input.evaluate((el: HTMLInputElement) => [el.min, el.max, el.step]), ['0', '1', '0.1']);
    assert.equal(await field(app, 'correctness').getByTestId('field-required').count(), 1);
    assert.equal(await field(app, 'correctness').getByText('Right', { exact: true }).count(), 1);
    // continuous 0…50: step 5, lower is better
    assert.equal(await field(app, 'latency').getByTestId('score-slider').getAttribute('step'), '5');
    assert.equal(await field(app, 'latency').getByText('lower is better').count(), 1);
    assert.equal(await field(app, 'tone').getByTestId('field-required').count(), 0);
    // categorical: a choice per category, its label, value and meaning
    assert.equal(await field(app, 'tone').getByTestId('choice').count(), 3);
    assert.match((await choice(app, 'tone', 2).textContent()) ?? '', /kind.*2.*Warm and helpful/);
    await choice(app, 'tone', 1).click();
    assert.equal(await choice(app, 'tone', 1).getAttribute('aria-pressed'), 'true');
    assert.equal(await choice(app, 'tone', 2).getAttribute('aria-pressed'), 'false');
    // freeform
    assert.equal(await field(app, 'notes').getByTestId('freeform').count(), 1);
    // typing out of range is refused at the field
    await input.fill('1.5');
    await field(app, 'correctness').getByTestId('score-error').waitFor();
    assert.equal(await p.getByTestId('done').getAttribute('aria-disabled'), 'true');
    await input.fill('0.8');
    assert.equal(await field(app, 'correctness').getByTestId('score-error').count(), 0);
    assert.equal(await slider.inputValue(), '0.8');
    // the run: its name, status, inputs and outputs as messages, its children one click away
    assert.equal(await p.getByTestId('run-name').textContent(), 'answer 1');
    await p.getByTestId('inputs').getByTestId('message').getByText('How do I reset my password? (1)').waitFor();
    await p.getByTestId('outputs').getByTestId('message').getByText('Use the reset link. (1)').waitFor();
    assert.equal(await p.getByTestId('child-run').count(), 2);
    await p.getByTestId('child-run').filter({ hasText: 'search_tool' }).click();
    await p.getByTestId('child-inputs').getByText(`input of ${uid(3001).slice(-4)}`, { exact: false }).waitFor();
    assert.deepEqual(app.requests('review/readRun'), [{ runId: uid(3001) }]);
    await p.getByTestId('child-open-trace').click();
    await eventually(() => assert.deepEqual(app.requests('review/act'), [{ action: 'openTrace', runId: uid(3001) }]));
    await p.getByTestId('status').getByText('Opened.').waitFor();
  });

  it('keeps Done back until the required fields are filled, and says which at the field', async () => {
    const app = await open('review', { handlers: reviewHost() });
    await ready(app);
    const p = app.page;
    const done = p.getByTestId('done');
    assert.equal(await done.getAttribute('aria-disabled'), 'true');
    assert.match((await p.getByTestId('done-reason').textContent()) ?? '', /correctness/);
    // Still clickable (aria-disabled, not disabled): a click says what is missing, at the field.
    await done.click({ force: true });
    await field(app, 'correctness').getByTestId('field-missing').waitFor();
    await p.getByTestId('action-error').waitFor();
    assert.deepEqual(app.requests('review/done'), []);
    // Ctrl+Enter tries too, and is refused the same way
    await p.keyboard.press('Control+Enter');
    assert.deepEqual(app.requests('review/done'), []);
    await field(app, 'correctness').getByTestId('score-input').fill('1');
    assert.equal(await field(app, 'correctness').getByTestId('field-missing').count(), 0);
    assert.equal(await done.getAttribute('aria-disabled'), 'false');
    await done.click();
    await eventually(() => assert.equal(app.requests('review/done').length, 1));
    assert.deepEqual(app.requests('review/done')[0], { itemId: uid(101), review: { fields: [{ key: 'correctness', score: 1, value: null }], comment: null, correction: null } });
  });

  it('drives the form by keyboard: ↑/↓ between fields, 1–9 picks, Ctrl+Enter is Done, the next item shows from its answer', async () => {
    const app = await open('review', { handlers: reviewHost() });
    await ready(app);
    const p = app.page;
    // An item starts at its first rubric field.
    await eventually(async () => assert.equal(await p.evaluate(() => document.activeElement?.getAttribute('data-key')), 'correctness'));
    await p.keyboard.press('ArrowDown');
    assert.equal(await p.evaluate(() => document.activeElement?.getAttribute('data-key')), 'tone');
    await p.keyboard.press('3');
    await eventually(async () => assert.equal(await choice(app, 'tone', 2).getAttribute('aria-pressed'), 'true'));
    await p.keyboard.press('1');
    await eventually(async () => assert.equal(await choice(app, 'tone', 0).getAttribute('aria-pressed'), 'true'));
    await p.keyboard.press('ArrowUp');
    assert.equal(await p.evaluate(() => document.activeElement?.getAttribute('data-key')), 'correctness');
    await p.keyboard.press('7');
    // The page renders the pick after the key event: wait for it rather than read in the same turn.
    await eventually(async () => assert.equal(await field(app, 'correctness').getByTestId('score-input').inputValue(), '0.7'));
    // Typing in a text field types; Ctrl+Enter from there is still Done.
    await field(app, 'notes').getByTestId('freeform').fill('Short and 2 the point');
    await p.getByTestId('comment').click();
    await p.keyboard.type('ok 3');
    assert.equal(await p.getByTestId('comment').inputValue(), 'ok 3');
    assert.equal(await choice(app, 'tone', 0).getAttribute('aria-pressed'), 'true');
    await p.keyboard.press('Control+Enter');
    await eventually(() => assert.equal(app.requests('review/done').length, 1));
    assert.deepEqual(app.requests('review/done')[0], {
      itemId: uid(101),
      review: {
        fields: [
          { key: 'correctness', score: 0.7, value: null },
          { key: 'tone', score: 0, value: 'rude' },
          { key: 'notes', score: null, value: 'Short and 2 the point' },
        ],
        comment: 'ok 3',
        correction: null,
      },
    });
    // The next item shows from Done's answer, without another request; its form is empty.
    await p.getByTestId('run-name').getByText('answer 2').waitFor();
    assert.deepEqual(app.requests('review/open'), []);
    assert.equal(await p.getByTestId('progress').textContent(), '2 of 4');
    assert.equal(await p.getByTestId('status').textContent(), 'Done · 4 left');
    assert.equal(await p.getByTestId('comment').inputValue(), '');
    assert.equal(await choice(app, 'tone', 0).getAttribute('aria-pressed'), 'false');
  });

  it('Ctrl+Shift+Enter requeues, ←/→ open the neighbours, ? shows the keys; Cmd on a Mac', async () => {
    const app = await open('review', { handlers: reviewHost({ current: viewOf(2) }) });
    await ready(app);
    const p = app.page;
    await p.keyboard.press('ArrowRight');
    await p.getByTestId('run-name').getByText('answer 3').waitFor();
    assert.deepEqual(app.requests('review/neighbour'), [{ itemId: uid(102), direction: 'next' }]);
    assert.deepEqual(app.requests('review/open'), [{ itemId: uid(103) }]);
    await p.keyboard.press('ArrowLeft');
    await p.getByTestId('run-name').getByText('answer 2').waitFor();
    assert.deepEqual(app.requests('review/neighbour')[1], { itemId: uid(103), direction: 'previous' });
    await p.keyboard.press('ArrowLeft');
    await p.getByTestId('run-name').getByText('answer 1').waitFor();
    await p.keyboard.press('ArrowLeft');
    await p.getByTestId('status').getByText('first item', { exact: false }).waitFor();
    await p.getByTestId('skip').click();
    await p.getByTestId('run-name').getByText('answer 2').waitFor();
    await p.keyboard.press('Control+Shift+Enter');
    await eventually(() => assert.deepEqual(app.requests('review/requeue'), [{ itemId: uid(102) }]));
    await p.getByTestId('run-name').getByText('answer 3').waitFor();
    assert.equal(await p.getByTestId('keys-help').count(), 0);
    await p.keyboard.press('?');
    await p.getByTestId('keys-help').getByText('Ctrl+Shift+Enter').waitFor();
    await p.keyboard.press('?');
    assert.equal(await p.getByTestId('keys-help').count(), 0);
    await p.keyboard.press('?');
    await p.keyboard.press('Escape');
    assert.equal(await p.getByTestId('keys-help').count(), 0);
    assert.deepEqual(app.requests('review/done'), []);

    const mac = await open('review', { handlers: reviewHost({ mac: true }) });
    await ready(mac);
    await field(mac, 'correctness').getByTestId('score-input').fill('0');
    await mac.page.keyboard.press('Control+Enter');
    await mac.page.keyboard.press('Meta+Enter');
    await eventually(() => assert.equal(mac.requests('review/done').length, 1));
    // ? in a text field types it; Escape leaves the field, and then ? is a key. (The next item took the focus to
    // its first field: back into a text field first.)
    await mac.page.getByTestId('comment').click();
    await mac.page.keyboard.press('?');
    assert.equal(await mac.page.getByTestId('keys-help').count(), 0);
    await mac.page.keyboard.press('Escape');
    await mac.page.keyboard.press('?');
    await mac.page.getByTestId('keys-help').getByText('⌘+Enter').waitFor();
  });

  it('sends the draft as the form changes, restores it from the item and across a reload', async () => {
    const hostDraft: Draft = { fields: { tone: { score: 2, value: 'kind' }, correctness: { score: 0.4, value: null } }, comment: 'from the host', correction: '', savedAt: T0 };
    const app = await open('review', { handlers: reviewHost({ current: viewOf(1, { draft: hostDraft }) }) });
    await ready(app);
    const p = app.page;
    assert.equal(await p.getByTestId('comment').inputValue(), 'from the host');
    assert.equal(await choice(app, 'tone', 2).getAttribute('aria-pressed'), 'true');
    assert.equal(await field(app, 'correctness').getByTestId('score-input').inputValue(), '0.4');
    assert.deepEqual(app.requests('review/saveDraft'), [], 'restoring sends nothing');
    await p.getByTestId('comment').fill('typed here');
    await eventually(() => assert.equal(app.requests('review/saveDraft').length, 1));
    const sent = app.requests('review/saveDraft')[0] as { itemId: string; draft: Draft };
    assert.equal(sent.itemId, uid(101));
    assert.equal(sent.draft.comment, 'typed here');
    assert.deepEqual(sent.draft.fields.tone, { score: 2, value: 'kind' });
    // One save for a burst of typing.
    await p.getByTestId('comment').pressSequentially(' and more');
    await eventually(() => assert.equal(app.requests('review/saveDraft').length, 2));
    await p.waitForTimeout(500);
    assert.equal(app.requests('review/saveDraft').length, 2);
    // A reload (the host still has its older draft) shows the form as it was at once.
    await choice(app, 'tone', 0).click();
    await app.reload();
    await ready(app);
    assert.equal(await p.getByTestId('comment').inputValue(), 'typed here and more');
    assert.equal(await choice(app, 'tone', 0).getAttribute('aria-pressed'), 'true');
    // Opening another item sends what waits at once; Clear sends no draft.
    await p.getByTestId('comment').fill('last words');
    await p.keyboard.press('Escape');
    await p.keyboard.press('ArrowRight');
    await p.getByTestId('run-name').getByText('answer 2').waitFor();
    const flushed = app.requests('review/saveDraft').at(-1) as { itemId: string; draft: Draft };
    assert.equal(flushed.itemId, uid(101));
    assert.equal(flushed.draft.comment, 'last words');
    await p.getByTestId('comment').fill('x');
    await p.getByTestId('clear-form').click();
    await eventually(() => assert.deepEqual(app.requests('review/saveDraft').at(-1), { itemId: uid(102), draft: null }));
    assert.equal(await p.getByTestId('comment').inputValue(), '');
  });

  it('keeps the form and shows the error when Done fails', async () => {
    const app = await open('review', {
      handlers: reviewHost({
        extra: {
          'review/done': () => {
            throw new HostError('requestFailed', 'LangSmith refused the feedback: 409 conflict');
          },
        },
      }),
    });
    await ready(app);
    const p = app.page;
    await field(app, 'correctness').getByTestId('score-input').fill('0.3');
    await choice(app, 'tone', 1).click();
    await p.getByTestId('comment').fill('keep me');
    await p.getByTestId('done').click();
    await p.getByTestId('action-error').getByText('409 conflict', { exact: false }).waitFor();
    assert.equal(await p.getByTestId('run-name').textContent(), 'answer 1');
    assert.equal(await p.getByTestId('comment').inputValue(), 'keep me');
    assert.equal(await field(app, 'correctness').getByTestId('score-input').inputValue(), '0.3');
    assert.equal(await choice(app, 'tone', 1).getAttribute('aria-pressed'), 'true');
  });

  it('corrects the outputs as JSON: prefilled on demand, checked as typed, sent parsed', async () => {
    const app = await open('review', { handlers: reviewHost() });
    await ready(app);
    const p = app.page;
    assert.equal(await p.getByTestId('correction').count(), 0);
    await p.getByTestId('correct-outputs').click();
    const editor = p.getByTestId('correction');
    await editor.waitFor();
    assert.deepEqual(JSON.parse(await editor.inputValue()), { role: 'assistant', content: 'Use the reset link. (1)' });
    await editor.fill('{"role": "assistant", "content": ');
    await p.getByTestId('correction-error').getByText('Not valid JSON', { exact: false }).waitFor();
    assert.equal(await editor.getAttribute('aria-invalid'), 'true');
    await editor.fill('[1, 2]');
    await p.getByTestId('correction-error').getByText('must be a JSON object', { exact: false }).waitFor();
    await field(app, 'correctness').getByTestId('score-input').fill('0');
    assert.equal(await p.getByTestId('done').getAttribute('aria-disabled'), 'true');
    await p.getByTestId('add-to-dataset').click();
    await p.getByTestId('action-error').waitFor();
    assert.deepEqual(app.requests('review/addToDataset'), []);
    await editor.fill('{"role": "assistant", "content": "Open Settings, then Reset."}');
    assert.equal(await p.getByTestId('correction-error').count(), 0);
    await p.getByTestId('add-to-dataset-choose').click();
    await eventually(() => assert.equal(app.requests('review/addToDataset').length, 1));
    assert.deepEqual(app.requests('review/addToDataset')[0], { itemId: uid(101), outputs: { role: 'assistant', content: 'Open Settings, then Reset.' }, choose: true });
    await p.getByTestId('status').getByText('Added to golden.').waitFor();
    await p.getByTestId('done').click();
    await eventually(() => assert.equal(app.requests('review/done').length, 1));
    const review = (app.requests('review/done')[0] as { review: { correction: unknown } }).review;
    assert.deepEqual(review.correction, { role: 'assistant', content: 'Open Settings, then Reset.' });
  });

  it('reads a cut value whole through review/showAll, and corrects the outputs from the whole value', async () => {
    const whole = 'The full answer. '.repeat(400);
    const item = viewOf(1);
    item.run!.outputs = payload({ answer: whole.slice(0, 100) }, [{ path: ['answer'], kind: 'string', length: whole.length }]);
    const app = await open('review', {
      handlers: reviewHost({
        current: item,
        extra: {
          'review/showAll': (params: unknown) => {
            const { path } = params as { path: unknown[] };
            return { text: path.length ? whole : JSON.stringify({ answer: whole }), opened: false };
          },
        },
      }),
    });
    await ready(app);
    const p = app.page;
    await p.getByTestId('outputs').getByTestId('show-all-cut').click();
    await eventually(() => assert.deepEqual(app.requests('review/showAll'), [{ runId: uid(1001), part: 'outputs', path: ['answer'] }]));
    await p.getByTestId('outputs').getByText('characters more', { exact: false }).waitFor({ state: 'detached' });
    await p.getByTestId('correct-outputs').click();
    await p.getByTestId('correction').waitFor();
    assert.deepEqual(app.requests('review/showAll')[1], { runId: uid(1001), part: 'outputs', path: [] });
    assert.deepEqual(JSON.parse(await p.getByTestId('correction').inputValue()), { answer: whole });
  });

  it('renders hostile text as text: markup, long strings, right-to-left', async () => {
    const evil = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
    const long = 'W'.repeat(6000);
    const rtl = 'هذا نص عربي طويل \u202E reversed';
    const queue = queueOf({
      name: `${evil} ${long}`,
      instructions: `${evil}\n${rtl}`,
      rubric: [
        { ...TONE, key: `<b>${rtl}</b>`, description: evil, config: { type: 'categorical', categories: [{ value: 1, label: evil }, { value: 2, label: long }] }, valueDescriptions: { [evil]: rtl } },
        { ...NOTES, key: '__proto__', description: long },
      ],
    });
    const item = viewOf(1, {}, { name: evil });
    item.trace!.runs[0]!.name = evil;
    item.trace!.runs[1]!.name = long;
    const app = await open('review', { width: 400, handlers: reviewHost({ queue, current: item }) });
    await ready(app);
    const p = app.page;
    assert.equal(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.equal(await p.locator('main img, main script, main b').count(), 0);
    assert.ok(((await p.getByTestId('instructions').textContent()) ?? '').includes('<script>'));
    assert.ok(((await p.getByTestId('run-name').textContent()) ?? '').includes('<img src=x'));
    assert.equal(await p.getByTestId('choice').count(), 2);
    await p.getByTestId('choice').first().click();
    await field(app, '__proto__').getByTestId('freeform').fill('still a field');
    // Nothing wider than the panel.
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `overflows by ${overflow}px`);
    await p.getByTestId('instructions').scrollIntoViewIfNeeded();
    await screenshot(p, 'review-hostile-dark-400');
    await p.getByTestId('done').click();
    await eventually(() => assert.equal(app.requests('review/done').length, 1));
    const fields = (app.requests('review/done')[0] as { review: { fields: unknown[] } }).review.fields;
    assert.deepEqual(fields, [
      { key: `<b>${rtl}</b>`, score: 1, value: evil },
      { key: '__proto__', score: null, value: 'still a field' },
    ]);
  });

  it('lists the items by section, reading 200 items in two pages as it scrolls, and opens one', async () => {
    const items = Array.from({ length: 200 }, (_, i) => summary(i + 1, { name: `item ${i + 1}`, myStatus: i % 3 === 0 ? 'viewed' : null }));
    const counts = { needs_my_review: 200, needs_others_review: 1, archived: 0 };
    const app = await open('review', {
      theme: 'light',
      handlers: reviewHost({
        counts,
        extra: {
          'review/items': (params: unknown) => {
            const { section, cursor } = params as { section: string; cursor: string | null };
            if (section === 'needs_others_review') return { items: [summary(300, { name: 'waiting', section: 'needs_others_review', myStatus: 'completed' })], cursor: null, counts };
            if (section === 'archived') return { items: [], cursor: null, counts };
            return cursor === null ? { items: items.slice(0, 100), cursor: 'page-2', counts } : { items: items.slice(100), cursor: null, counts };
          },
          'review/open': (params: unknown) => viewOf(1, { position: 150 }, { id: (params as { itemId: string }).itemId, name: 'item 150' }),
        },
      }),
    });
    await ready(app);
    const p = app.page;
    await p.getByTestId('toggle-items').click();
    const list = p.getByTestId('item-list');
    await list.getByTestId('item-row').first().waitFor();
    assert.equal(app.requests('review/items').length, 1);
    assert.ok((await list.getByTestId('item-row').count()) < 60, 'only the rows in view are in the DOM');
    for (let i = 0; i < 40 && (await list.getByText('item 200', { exact: true }).count()) === 0; i++) {
      await list.evaluate((el) => el.scrollBy(0, 2000));
      await p.waitForTimeout(50);
    }
    await list.getByText('item 200', { exact: true }).waitFor();
    assert.deepEqual(app.requests('review/items'), [
      { section: 'needs_my_review', cursor: null },
      { section: 'needs_my_review', cursor: 'page-2' },
    ]);
    assert.equal(await list.locator('[data-testid="item-row"][data-section="needs_my_review"]').count(), await list.getByTestId('item-row').count());
    await list.evaluate((el) => (el.scrollTop = 149 * 44 - 100));
    await list.getByText('item 150', { exact: true }).click();
    await eventually(() => assert.deepEqual(app.requests('review/open'), [{ itemId: uid(250) }]));
    await p.getByTestId('progress').getByText('150 of 200').waitFor();
    await p.getByTestId('tab-needs_others_review').click();
    await p.locator('[data-testid="item-row"][data-section="needs_others_review"]').getByText('waiting').waitFor();
    await screenshot(p, 'review-list-light');
  });

  it('reads items by cursor as the list nears their end: a pending row while more come, a failed page retried from its cursor', async () => {
    const items = Array.from({ length: 150 }, (_, i) => summary(i + 1, { name: `item ${i + 1}` }));
    const counts = { needs_my_review: 150, needs_others_review: 0, archived: 0 };
    let failOnce = true;
    let release: (() => void) | undefined;
    const app = await open('review', {
      handlers: reviewHost({
        counts,
        extra: {
          'review/items': async (params: unknown) => {
            const { section, cursor } = params as { section: string; cursor: string | null };
            if (section !== 'needs_my_review') return { items: [], cursor: null, counts };
            if (cursor === null) return { items: items.slice(0, 50), cursor: 'after-50', counts };
            if (cursor === 'after-50') {
              if (failOnce) {
                failOnce = false;
                throw new HostError('requestFailed', 'LangSmith did not answer (503).');
              }
              // Held until the test has seen the pending row.
              await new Promise<void>((resolve) => (release = resolve));
              return { items: items.slice(50, 100), cursor: 'after-100', counts };
            }
            return { items: items.slice(100), cursor: null, counts };
          },
        },
      }),
    });
    await ready(app);
    const p = app.page;
    await p.getByTestId('toggle-items').click();
    const list = p.getByTestId('item-list');
    await list.getByText('item 1', { exact: true }).waitFor();
    assert.equal(await list.getAttribute('data-loaded'), '50');
    // Near the end of the first page: the next is asked for, fails, and nothing more is asked until Retry.
    for (let i = 0; i < 10 && (await p.getByRole('alert').count()) === 0; i++) {
      await list.evaluate((el) => el.scrollBy(0, 1000));
      await p.waitForTimeout(50);
    }
    await p.getByRole('alert').getByText('LangSmith did not answer (503).').waitFor();
    await list.evaluate((el) => el.scrollBy(0, 1000));
    await p.waitForTimeout(200);
    assert.deepEqual(
      app.requests('review/items').map((r) => (r as { cursor: string | null }).cursor),
      [null, 'after-50'],
    );
    await p.getByRole('alert').getByText('Retry').click();
    // The page asked again from its cursor: a pending row shows after the 50 loaded until it lands.
    await eventually(() => assert.equal(app.requests('review/items').length, 3));
    await list.getByText('Loading…').waitFor();
    assert.equal(await p.getByRole('alert').count(), 0);
    release?.();
    for (let i = 0; i < 40 && (await list.getByText('item 150', { exact: true }).count()) === 0; i++) {
      await list.evaluate((el) => el.scrollBy(0, 2000));
      await p.waitForTimeout(50);
    }
    await list.getByText('item 150', { exact: true }).waitFor();
    assert.equal(await list.getAttribute('data-loaded'), '150');
    assert.equal(await list.getByText('Loading…').count(), 0, 'no pending row after the last page');
    assert.deepEqual(
      app.requests('review/items').map((r) => (r as { cursor: string | null }).cursor),
      [null, 'after-50', 'after-50', 'after-100'],
    );
    assert.ok((await list.getByTestId('item-row').count()) < 60, 'only the rows in view are in the DOM');
    // A section without items says so.
    await p.getByTestId('tab-archived').click();
    await p.getByTestId('item-list').getByText('No items here.').waitFor();
  });

  it('updates the rubric and counts on QueueChanged without losing the form', async () => {
    const app = await open('review', { handlers: reviewHost() });
    await ready(app);
    const p = app.page;
    await p.getByTestId('comment').fill('half written');
    await choice(app, 'tone', 2).click();
    await app.notify('review/queueChanged', { queue: queueOf({ name: 'Support answers v2', rubric: [TONE, LATENCY] }), counts: { needs_my_review: 9, needs_others_review: 0, archived: 1 } });
    await p.getByTestId('review-queue-name').getByText('Support answers v2').waitFor();
    assert.equal(await p.getByTestId('count-mine').textContent(), '9');
    assert.equal(await p.getByTestId('field').count(), 2);
    assert.equal(await p.getByTestId('comment').inputValue(), 'half written');
    assert.equal(await choice(app, 'tone', 2).getAttribute('aria-pressed'), 'true');
    // correctness is gone from the rubric: Done is allowed now.
    assert.equal(await p.getByTestId('done').getAttribute('aria-disabled'), 'false');
  });

  it('Remove asks the host (no: nothing happens), a thread item shows its conversation, and the last Done says All done', async () => {
    let answer = false;
    const thread: ThreadData = {
      threadId: 'thread-42',
      project: { id: uid(9000), name: 'support-bot' },
      turns: [
        {
          traceId: uid(4001),
          rootRunId: uid(4001),
          name: 'turn',
          status: 'success',
          start: T0,
          end: T0 + 900,
          tokens: { prompt: null, completion: null, total: null },
          cost: null,
          inputs: payload({ messages: [{ role: 'user', content: 'Hi there' }] }),
          outputs: payload({ messages: [{ role: 'assistant', content: 'Hello! How can I help?' }] }),
          errorPreview: null,
        },
      ],
      moreTurns: 0,
      totals: { turns: 1, latencyP50: 900, latencyP99: 900, tokens: { prompt: null, completion: null, total: null }, cost: null, erroredTurns: 0 },
    };
    const threadItem = viewOf(5, { trace: null, run: null, thread, problem: { code: 'notFound', message: 'One turn was deleted.' } }, { kind: 'thread', runId: null, threadId: 'thread-42', name: 'thread-42' });
    const app = await open('review', {
      theme: 'light',
      handlers: reviewHost({
        current: threadItem,
        extra: { 'review/remove': () => (answer ? { removed: true, moved: { next: null, counts: { needs_my_review: 0, needs_others_review: 2, archived: 8 }, feedback: [], message: null } } : { removed: false, moved: null }) },
      }),
    });
    await ready(app);
    const p = app.page;
    await p.getByTestId('message').getByText('Hello! How can I help?').waitFor();
    await p.getByTestId('item-problem').getByText('One turn was deleted.', { exact: false }).waitFor();
    await p.getByTestId('open-trace').click();
    await eventually(() => assert.deepEqual(app.requests('review/act'), [{ action: 'openTrace', runId: uid(4001) }]));
    await p.getByTestId('remove').click();
    await eventually(() => assert.equal(app.requests('review/remove').length, 1));
    await p.waitForTimeout(100);
    assert.equal(await p.getByTestId('run-name').textContent(), 'thread-42');
    answer = true;
    await p.getByTestId('remove').click();
    await p.getByTestId('all-done').waitFor();
    assert.equal(await p.getByTestId('count-archived').textContent(), '8');
    await p.getByTestId('edit-queue').click();
    await eventually(() => assert.deepEqual(app.requests('review/act').at(-1), { action: 'editQueue' }));
    await screenshot(p, 'review-all-done-light');
  });

  it('fits 400 px and takes screenshots in both themes', async () => {
    for (const theme of ['dark', 'light'] as const) {
      for (const width of [1280, 400]) {
        const app = await open('review', { theme, width, height: 900, handlers: reviewHost({ queue: queueOf({ rubric: [CORRECTNESS, TONE, NOTES, LATENCY] }) }) });
        await ready(app);
        const p = app.page;
        await field(app, 'correctness').getByTestId('score-input').fill('0.6');
        await choice(app, 'tone', 2).click();
        if (width > 400) await p.getByTestId('toggle-items').click();
        else await p.getByTestId('child-run').first().click();
        const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `${theme} ${width}: overflows by ${overflow}px`);
        await screenshot(p, `review-${theme}-${width}`);
        if (width === 400) {
          await field(app, 'tone').scrollIntoViewIfNeeded();
          await screenshot(p, `review-${theme}-400-form`);
        }
        await app.close();
      }
    }
  });
});
