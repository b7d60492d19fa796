// The playground panel in real Chromium with a fake host: the prompt as written, one field per variable, the model
// settings (checked in the page), the endpoint and tracing lines, runs streamed from deltas to their finish (usage,
// latency, trace), Stop, errors at the field they name, chat mode with its session, live updates, drafts and runs
// across reloads, waiting traces, and hostile text rendered as text.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type * as z from 'zod/mini';
import { PlaygroundState, RunFinished, RunPrompt } from '../../src/protocol/playground';
import { HostError, screenshot, withWebviewApps, type OpenApp } from './harness';

type RunParams = z.infer<typeof RunPrompt.params>;
type Finished = z.infer<typeof RunFinished.params>;

const SESSION = '5b0c7f3e-9a41-4d2e-8c61-2f7e0a9b1c3d';
const NEXT_SESSION = 'e17a2c90-3b5d-4f68-9e01-7c4b2a8d6f35';
const SYSTEM = 'You answer support questions for {customer}.\nBe brief and kind, and never promise a refund.';

/** A chat prompt file with two variables; every fixture is checked against the protocol. */
function state(over: Partial<PlaygroundState> = {}): PlaygroundState {
  return PlaygroundState.parse({
    title: 'support-reply.prompt.yaml',
    source: 'file',
    prompt: {
      kind: 'chat',
      templateFormat: 'f-string',
      variables: ['customer', 'question'],
      messages: [
        { role: 'system', template: SYSTEM },
        { role: 'human', template: 'Customer question: {question}' },
      ],
    },
    problem: null,
    values: { customer: 'Acme Corp', question: 'How do I reset my password?' },
    model: { model: 'gpt-4o-mini', temperature: 0.2, maxTokens: null },
    promptModel: 'gpt-4o',
    endpoint: { url: 'http://127.0.0.1:1984/v1', source: 'localServer', hasKey: false },
    project: 'playground',
    tracing: true,
    session: { id: SESSION, turns: [] },
    pendingTraces: 0,
    running: [],
    finished: [],
    ...over,
  });
}

const ready = (s: PlaygroundState) => () => ({ restore: { kind: 'file', uri: 'file:///work/support-reply.prompt.yaml' }, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state: s });

function finished(runId: string, over: Partial<Finished> = {}): Finished {
  return RunFinished.params.parse({
    runId,
    outcome: 'done',
    answer: 'Open Settings, then Security, and choose “Reset password”.',
    usage: { input: 12, output: 30, total: 42 },
    error: null,
    hint: null,
    trace: { status: 'sent', message: null, pending: 0 },
    session: { id: SESSION, turns: [] },
    latencyMs: 850,
    ...over,
  });
}

/** A host whose runs answer run-1, run-2, … */
function host(s: PlaygroundState, extra: Record<string, (params: unknown) => unknown> = {}) {
  let n = 0;
  return { 'playground/ready': ready(s), 'playground/run': () => ({ runId: `run-${++n}` }), ...extra };
}

const runs = (app: OpenApp) => app.requests('playground/run') as RunParams[];

/** Whether a toolkit button is disabled, once the element has reflected its state (a tick later). */
async function disabled(page: Page, testId: string): Promise<boolean> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r))));
  return (await page.getByTestId(testId).getAttribute('disabled')) !== null;
}

/** Waits until the host has seen `count` requests of `method`. */
async function sent(app: OpenApp, method: string, count = 1) {
  for (let i = 0; i < 100 && app.requests(method).length < count; i++) await app.page.waitForTimeout(20);
  assert.equal(app.requests(method).length, count, `${method} sent ${app.requests(method).length} times, not ${count}`);
}

/** Waits until the page knows the run's id (Stop can be pressed). */
async function started(app: OpenApp) {
  await app.page.getByText('Running…').waitFor();
}

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
const flag = (page: Page) => page.evaluate(() => (window as unknown as { __x?: unknown }).__x);

describe('webview: playground', () => {
  const open = withWebviewApps();
  let app: OpenApp;

  it('shows the prompt as written, one field per variable with the remembered values, the model and where runs go; screenshots in both themes', async () => {
    for (const theme of ['dark', 'light'] as const) {
      app = await open('playground', { theme, width: 900, height: 1250, handlers: host(state(), { 'playground/openSource': () => ({}) }) });
      const page = app.page;
      await page.getByTestId('playground').waitFor();
      assert.equal(await page.getByRole('heading', { level: 2 }).textContent(), 'support-reply.prompt.yaml');
      assert.equal(await page.getByTestId('source').textContent(), 'file');
      assert.equal(await text(page, 'summary'), 'Chat prompt · f-string · 2 variables');
      // The messages: role and template, the variables marked.
      assert.deepEqual(await page.getByTestId('message-role').allTextContents(), ['system', 'human']);
      assert.deepEqual(await page.getByTestId('message-template').allTextContents(), [SYSTEM, 'Customer question: {question}']);
      assert.deepEqual(await page.locator('.pg-var').allTextContents(), ['{customer}', '{question}']);
      assert.equal(await page.getByTestId('message-template').first().evaluate((el) => getComputedStyle(el).fontFamily), 'monospace');
      assert.equal(await page.getByRole('button', { name: /Show all/ }).count(), 0, 'short templates are not collapsed');
      // One field per variable, prefilled with the values last used.
      assert.equal(await page.getByTestId('variable').count(), 2);
      assert.equal(await page.getByLabel('customer', { exact: true }).inputValue(), 'Acme Corp');
      assert.equal(await page.getByLabel('question', { exact: true }).inputValue(), 'How do I reset my password?');
      // The model settings, the model the prompt names, the endpoint (no key shown, ever) and tracing.
      assert.equal(await page.getByRole('textbox', { name: /^Model/ }).inputValue(), 'gpt-4o-mini');
      assert.equal(await page.getByLabel('Temperature').inputValue(), '0.2');
      assert.equal(await page.getByLabel('Max tokens').inputValue(), '');
      assert.equal(await text(page, 'prompt-model'), 'the prompt names gpt-4o');
      assert.equal(await text(page, 'endpoint'), 'Endpoint http://127.0.0.1:1984/v1 · local server’s model · no key Configure…');
      assert.equal(await text(page, 'tracing'), 'Traced to project playground');
      assert.equal(await page.getByTestId('pending-traces').count(), 0);
      assert.equal(await page.getByTestId('no-endpoint').count(), 0);
      assert.equal(await disabled(page, 'run'), false);
      assert.equal(await page.getByTestId('chat-toggle').getAttribute('aria-pressed'), 'false');
      assert.equal(await text(page, 'no-answer'), 'Run the prompt to see the model’s answer here.');
      // A run, streamed and finished, for the screenshot.
      await page.getByTestId('run').click();
      await started(app);
      await app.notify('playground/delta', { runId: 'run-1', text: 'Open Settings, then Security, ' });
      await app.notify('playground/finished', finished('run-1'));
      await page.getByTestId('outcome-line').waitFor();
      await screenshot(page, `playground-${theme}`);
      await page.getByTestId('open-file').click();
      await sent(app, 'playground/openSource');
      assert.deepEqual(app.problems, [], 'console errors or CSP violations');
      if (theme === 'dark') await app.close();
    }
  });

  it('reads well at 400 px: nothing wider than the panel, long templates collapsed with "Show all"', async () => {
    const long = Array.from({ length: 14 }, (_, i) => `Rule ${i + 1}: answer in the customer’s language and keep to the facts of {question}.`).join('\n');
    const s = state({
      prompt: { kind: 'chat', templateFormat: 'f-string', variables: ['customer', 'question'], messages: [{ role: 'system', template: long }, { role: 'human', template: '{question}' }] },
      endpoint: { url: 'https://models.example.com/openai/deployments/support-assistant-large/v1', source: 'setting', hasKey: true },
      pendingTraces: 2,
    });
    app = await open('playground', { width: 400, height: 1500, handlers: host(s) });
    const page = app.page;
    await page.getByTestId('playground').waitFor();
    await page.getByTestId('run').click();
    await started(app);
    await app.notify('playground/finished', finished('run-1', { answer: 'A long answer that wraps over several lines at this width, because the panel is narrow and the text is not.' }));
    await page.getByTestId('outcome-line').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 400px`);
    assert.equal(await text(page, 'endpoint'), 'Endpoint https://models.example.com/openai/deployments/support-assistant-large/v1 · from settings · key set Configure…');
    // The long template shows a few lines, then all of it on request.
    const template = page.getByTestId('message-template').first();
    const more = page.getByRole('button', { name: 'Show all of the system message' });
    await more.waitFor();
    const collapsed = await template.evaluate((el) => el.clientHeight);
    assert.ok(collapsed < (await template.evaluate((el) => el.scrollHeight)), 'the collapsed template hides its end');
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    await screenshot(page, 'playground-400px');
    await more.click();
    const less = page.getByRole('button', { name: 'Show less of the system message' });
    assert.equal(await less.getAttribute('aria-expanded'), 'true');
    assert.ok((await template.evaluate((el) => el.clientHeight)) > collapsed * 1.5, 'expanded, the template shows every line');
    assert.equal(await template.textContent(), long);
    await less.click();
    assert.equal(await template.evaluate((el) => el.clientHeight), collapsed);
  });

  it('runs with the values, the model settings as numbers, not as chat; Ctrl+Enter in a field runs too', async () => {
    app = await open('playground', { handlers: host(state()) });
    const page = app.page;
    await page.getByTestId('run').waitFor();
    const question = page.getByLabel('question', { exact: true });
    const oneLine = (await question.boundingBox())!.height;
    await question.fill('Where is my invoice?\nI need it today.');
    assert.ok((await question.boundingBox())!.height > oneLine * 1.4, 'the field grows with its lines');
    await page.getByRole('textbox', { name: /^Model/ }).fill('gpt-4.1-mini');
    await page.getByLabel('Temperature').fill('0.7');
    await page.getByLabel('Max tokens').fill(' 256 ');
    await page.getByTestId('run').click();
    await sent(app, 'playground/run');
    assert.deepEqual(runs(app)[0], {
      values: { customer: 'Acme Corp', question: 'Where is my invoice?\nI need it today.' },
      model: { model: 'gpt-4.1-mini', temperature: 0.7, maxTokens: 256 },
      chat: false,
      followUp: null,
    });
    await started(app);
    assert.equal(await page.getByTestId('run').count(), 0, 'Run becomes Stop while running');
    await app.notify('playground/finished', finished('run-1'));
    await page.getByTestId('run').waitFor();
    // Empty numbers are the model's defaults (null); Ctrl+Enter in a field runs.
    await page.getByLabel('Temperature').fill('');
    await page.getByLabel('Max tokens').fill('');
    await page.getByLabel('customer', { exact: true }).focus();
    await page.keyboard.press('Control+Enter');
    await sent(app, 'playground/run', 2);
    assert.deepEqual(runs(app)[1]!.model, { model: 'gpt-4.1-mini', temperature: null, maxTokens: null });
    assert.equal(await page.getByLabel('customer', { exact: true }).inputValue(), 'Acme Corp', 'Ctrl+Enter adds no new line');
  });

  it('streams deltas of its run into the answer, ignores other runs, and shows usage, latency and the trace', async () => {
    app = await open('playground', { handlers: host(state(), { 'playground/revealTrace': () => ({}) }) });
    const page = app.page;
    await page.getByTestId('run').click();
    await started(app);
    const answer = page.getByTestId('answer');
    assert.equal(await answer.getAttribute('aria-live'), 'polite');
    await app.notify('playground/delta', { runId: 'run-1', text: 'Open Settings, ' });
    await app.notify('playground/delta', { runId: 'other-run', text: 'NOT MINE ' });
    await app.notify('playground/delta', { runId: 'run-1', text: 'then Security.' });
    await page.getByText('Open Settings, then Security.').waitFor();
    assert.equal(await answer.textContent(), 'Open Settings, then Security.');
    await app.notify('playground/finished', finished('other-run', { answer: 'NOT MINE' }));
    await page.waitForTimeout(100);
    assert.equal(await page.getByTestId('stop').count(), 1, 'another run’s finish does not end this one');
    await app.notify('playground/finished', finished('run-1', { answer: 'Open Settings, then Security, and choose “Reset password”.' }));
    await page.getByTestId('outcome-line').waitFor();
    assert.equal(await answer.textContent(), 'Open Settings, then Security, and choose “Reset password”.', 'the whole answer from the finish');
    assert.equal(await text(page, 'outcome'), 'done');
    assert.equal(await text(page, 'usage'), '12 in · 30 out · 42 tokens');
    assert.equal(await text(page, 'latency'), '850 ms');
    assert.equal(await page.getByTestId('run-error').count(), 0);
    await page.getByTestId('outcome-line').getByRole('button', { name: 'Show trace' }).click();
    await sent(app, 'playground/revealTrace');
    assert.deepEqual(app.requests('playground/revealTrace'), [{ runId: 'run-1' }]);
    // A second run: the first goes to the list of earlier runs, with its own Show trace.
    await page.getByTestId('run').click();
    await started(app);
    assert.equal(await answer.textContent(), '', 'a new run starts a new answer');
    await app.notify('playground/finished', finished('run-2', { answer: 'Second answer.', latencyMs: 2345, usage: null, trace: { status: 'off', message: null, pending: 0 } }));
    await page.getByText('Second answer.').waitFor();
    assert.equal(await text(page, 'latency'), '2.3 s');
    assert.equal(await page.getByTestId('outcome-line').getByTestId('usage').count(), 0);
    assert.equal(await text(page, 'trace-off'), 'not traced');
    const listed = page.getByTestId('past-run');
    assert.equal(await listed.count(), 1);
    assert.equal(await listed.getByTestId('run-answer').textContent(), 'Open Settings, then Security, and choose “Reset password”.');
    assert.equal(await listed.getByTestId('outcome').textContent(), 'done');
    assert.equal(await listed.getByTestId('usage').textContent(), '12 in · 30 out · 42 tokens');
    assert.equal(await listed.getByTestId('latency').textContent(), '850 ms');
    await listed.getByRole('button', { name: 'Show trace' }).click();
    await sent(app, 'playground/revealTrace', 2);
    assert.deepEqual(app.requests('playground/revealTrace')[1], { runId: 'run-1' });
  });

  it('keeps deltas that arrive before the host answered with the run’s id', async () => {
    const handlers = host(state(), {
      'playground/run': async () => {
        await app.notify('playground/delta', { runId: 'run-9', text: 'Early ' });
        await app.notify('playground/delta', { runId: 'run-x', text: 'stranger ' });
        return { runId: 'run-9' };
      },
    });
    app = await open('playground', { handlers });
    const page = app.page;
    await page.getByTestId('run').click();
    await started(app);
    await app.notify('playground/delta', { runId: 'run-9', text: 'and late.' });
    await page.getByText('Early and late.').waitFor();
    assert.equal(await page.getByTestId('answer').textContent(), 'Early and late.');
  });

  it('Stop stops the run in flight; a stopped run keeps its partial answer', async () => {
    app = await open('playground', { handlers: host(state(), { 'playground/stop': () => ({ stopped: true }) }) });
    const page = app.page;
    await page.getByTestId('run').click();
    await started(app);
    await app.notify('playground/delta', { runId: 'run-1', text: 'Open Settings, then' });
    await page.getByText('Open Settings, then').waitFor();
    assert.equal(await disabled(page, 'stop'), false);
    await page.getByTestId('stop').click();
    await sent(app, 'playground/stop');
    assert.deepEqual(app.requests('playground/stop'), [{ runId: 'run-1' }]);
    await app.notify('playground/finished', finished('run-1', { outcome: 'stopped', answer: 'Open Settings, then', usage: null, latencyMs: 1200 }));
    await page.getByTestId('outcome-line').waitFor();
    assert.equal(await text(page, 'outcome'), 'stopped');
    assert.equal(await page.getByTestId('answer').textContent(), 'Open Settings, then');
    assert.equal(await text(page, 'latency'), '1.2 s');
    assert.equal(await disabled(page, 'run'), false);
  });

  it('a Stop the host no longer knows ends the wait (the run ended while the panel was away)', async () => {
    app = await open('playground', { handlers: host(state({ running: ['run-1'] }), { 'playground/stop': () => ({ stopped: false }) }) });
    const page = app.page;
    await page.getByTestId('run').click();
    await started(app);
    await app.reload();
    // After the reload the run is still shown as in flight, and can still be stopped.
    await started(app);
    await page.getByTestId('stop').click();
    await page.getByTestId('notice').waitFor();
    assert.match(await text(page, 'notice'), /already ended/);
    assert.equal(await disabled(page, 'run'), false);
    assert.deepEqual(app.requests('playground/stop'), [{ runId: 'run-1' }]);
  });

  it('shown again after its run ended unseen: the host’s state brings the answer, or says the run is gone', async () => {
    let current = state({ running: ['run-1'] });
    app = await open('playground', { handlers: { ...host(current), 'playground/ready': () => ready(current)() } });
    const page = app.page;
    await page.getByTestId('run').click();
    await started(app);
    await app.notify('playground/delta', { runId: 'run-1', text: 'Open Set' });
    // The page goes away; the run ends meanwhile (its notification reaches nobody).
    current = state({ running: [], finished: [finished('run-1', { answer: 'Open Settings, then Security.', latencyMs: 900 })] });
    await app.reload();
    await page.getByTestId('outcome-line').waitFor();
    assert.equal(await text(page, 'outcome'), 'done');
    assert.equal(await page.getByTestId('answer').textContent(), 'Open Settings, then Security.');
    assert.equal(await disabled(page, 'run'), false);
    // A run the host has no record of (the window was reloaded): not shown as running forever.
    await page.getByTestId('run').click();
    await started(app);
    current = state({ running: [], finished: [] });
    await app.reload();
    await page.getByTestId('notice').waitFor();
    assert.match(await text(page, 'notice'), /ended while this panel was closed/);
    assert.equal(await disabled(page, 'run'), false);
  });

  it('shows a failed run’s error and hint, and keeps what was typed', async () => {
    app = await open('playground', { handlers: host(state()) });
    const page = app.page;
    await page.getByLabel('question', { exact: true }).fill('My typed question');
    await page.getByLabel('Temperature').fill('1.1');
    await page.getByTestId('run').click();
    await started(app);
    await app.notify(
      'playground/finished',
      finished('run-1', {
        outcome: 'error',
        answer: '',
        usage: null,
        error: 'The model endpoint refused the key (401 Unauthorized).',
        hint: 'Run “LangSmith: Configure Playground Model” and enter a valid key.',
        trace: { status: 'failed', message: 'LangSmith did not answer (ECONNREFUSED).', pending: 3 },
        latencyMs: 95,
      }),
    );
    await page.getByTestId('run-error').waitFor();
    const banner = page.getByTestId('run-error');
    assert.equal(await banner.getAttribute('role'), 'alert');
    assert.equal(await text(page, 'run-error-message'), 'The model endpoint refused the key (401 Unauthorized).');
    assert.equal(await text(page, 'run-error-hint'), 'Run “LangSmith: Configure Playground Model” and enter a valid key.');
    assert.equal(await text(page, 'outcome'), 'failed');
    assert.equal(await text(page, 'trace-failed'), 'Trace not sent: LangSmith did not answer (ECONNREFUSED). (3 waiting)');
    assert.match(await text(page, 'pending-traces'), /^3 traces waiting to be sent to LangSmith\. Send now$/, 'the finish updates the waiting count');
    assert.equal(await page.getByLabel('question', { exact: true }).inputValue(), 'My typed question');
    assert.equal(await page.getByLabel('Temperature').inputValue(), '1.1');
    assert.equal(await disabled(page, 'run'), false);
    await screenshot(page, 'playground-error');
  });

  it('shows a request error at the variable it names, and other request errors in the error area', async () => {
    let calls = 0;
    app = await open('playground', {
      handlers: host(state({ values: {} }), {
        'playground/run': () => {
          calls++;
          if (calls === 1) throw new HostError('requestFailed', '(f-string) Missing value for input question');
          throw new HostError('requestFailed', 'The model endpoint is not reachable.');
        },
      }),
    });
    const page = app.page;
    const question = page.getByLabel('question', { exact: true });
    await page.getByLabel('customer', { exact: true }).fill('Globex');
    assert.equal(await question.inputValue(), '');
    await page.getByTestId('run').click();
    await page.getByTestId('field-error').waitFor();
    assert.equal(await text(page, 'field-error'), '(f-string) Missing value for input question');
    assert.equal(await page.getByTestId('variable').nth(1).getByTestId('field-error').count(), 1, 'under the question field');
    assert.equal(await question.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByTestId('error').count(), 0);
    await page.waitForFunction(() => document.activeElement?.id === 'pg-var-1');
    assert.equal(await page.getByLabel('customer', { exact: true }).inputValue(), 'Globex', 'nothing typed is lost');
    assert.equal(await disabled(page, 'run'), false);
    // Typing in the field clears its error.
    await question.fill('Where is my parcel?');
    assert.equal(await page.getByTestId('field-error').count(), 0);
    assert.equal(await question.getAttribute('aria-invalid'), null);
    await page.getByTestId('run').click();
    await page.getByTestId('error').waitFor();
    assert.equal(await text(page, 'error'), 'The model endpoint is not reachable.');
    assert.equal(await page.getByTestId('field-error').count(), 0);
    assert.equal(await question.inputValue(), 'Where is my parcel?');
  });

  it('a number variable is one line, Run sits with the inputs, and the number settings say what a run uses', async () => {
    const summarizer = state({
      title: 'demo-summarizer.prompt.yaml',
      prompt: {
        kind: 'chat',
        templateFormat: 'f-string',
        variables: ['max_words', 'ticket', 'tone'],
        messages: [
          { role: 'system', template: 'You summarize support tickets in {max_words} words, in a {tone} tone.' },
          { role: 'human', template: 'Ticket:\n{ticket}' },
        ],
      },
      values: { max_words: '', ticket: 'The export button does nothing.\nSince Monday.', tone: 'friendly' },
      model: { model: 'gpt-4o-mini', temperature: null, maxTokens: null },
      promptModel: null,
      promptSettings: { temperature: 0.2, maxTokens: null },
    });
    app = await open('playground', { width: 900, height: 1000, handlers: host(summarizer) });
    const page = app.page;
    await page.getByTestId('run').waitFor();
    // max_words (a count, by its name) is a one-line field that does not resize; the ticket keeps its lines.
    const words = page.getByLabel('max_words', { exact: true });
    assert.equal(await words.evaluate((el) => el.tagName), 'INPUT');
    assert.equal(await words.evaluate((el) => getComputedStyle(el).resize), 'none');
    await words.fill('50');
    const ticket = page.getByLabel('ticket', { exact: true });
    assert.equal(await ticket.evaluate((el) => el.tagName), 'TEXTAREA');
    assert.equal(await ticket.inputValue(), 'The export button does nothing.\nSince Monday.');
    assert.equal(await page.getByLabel('tone', { exact: true }).evaluate((el) => el.tagName), 'TEXTAREA', 'text stays a text box');
    // Run is in the Inputs section, under the last field and above the answer.
    const inputs = page.getByRole('region', { name: 'Inputs' });
    assert.equal(await inputs.getByTestId('run').count(), 1);
    const runBox = (await page.getByTestId('run').boundingBox())!;
    const toneBox = (await page.getByLabel('tone', { exact: true }).boundingBox())!;
    const answerBox = (await page.getByRole('heading', { name: 'Answer' }).boundingBox())!;
    assert.ok(runBox.y > toneBox.y && runBox.y < answerBox.y, `Run at ${runBox.y}, last field at ${toneBox.y}, Answer at ${answerBox.y}`);
    // The settings say the value a run will use: the prompt's own, or the model's default, said as such.
    assert.equal(await page.getByLabel('Temperature').getAttribute('placeholder'), '0.2 (prompt)');
    assert.equal(await text(page, 'temperature-used'), 'Uses 0.2, the prompt’s setting');
    assert.equal(await page.getByLabel('Max tokens').getAttribute('placeholder'), 'model default');
    assert.equal(await text(page, 'max-tokens-used'), 'Uses the model’s default (not sent)');
    await screenshot(page, 'playground-inputs-and-settings');
    await page.getByLabel('Temperature').fill('0.9');
    assert.equal(await text(page, 'temperature-used'), 'Uses 0.9, set here (the prompt says 0.2)');
    await page.getByLabel('Max tokens').fill('300');
    assert.equal(await text(page, 'max-tokens-used'), 'Uses 300, set here');
    await page.getByTestId('run').click();
    await sent(app, 'playground/run');
    assert.deepEqual(runs(app)[0], { values: { max_words: '50', ticket: 'The export button does nothing.\nSince Monday.', tone: 'friendly' }, model: { model: 'gpt-4o-mini', temperature: 0.9, maxTokens: 300 }, chat: false, followUp: null });
    await app.notify('playground/finished', finished('run-1'));
    // Emptied again: the run uses the prompt's temperature and the model's own max tokens.
    await page.getByLabel('Temperature').fill('');
    await page.getByLabel('Max tokens').fill('');
    await page.getByTestId('run').click();
    await sent(app, 'playground/run', 2);
    assert.deepEqual(runs(app)[1]!.model, { model: 'gpt-4o-mini', temperature: 0.2, maxTokens: null });
  });

  it('checks the model settings in the page: a clear message at the field, Run disabled until fixed', async () => {
    app = await open('playground', { handlers: host(state()) });
    const page = app.page;
    const temperature = page.getByLabel('Temperature');
    await temperature.fill('3');
    assert.equal(await text(page, 'temperature-error'), 'Temperature is a number from 0 to 2 (leave it empty for the model’s default).');
    assert.equal(await temperature.getAttribute('aria-invalid'), 'true');
    assert.equal(await temperature.getAttribute('aria-describedby'), 'pg-temperature-error');
    assert.equal(await disabled(page, 'run'), true);
    assert.equal(await text(page, 'why-disabled'), 'Fix the model settings first.');
    await page.getByTestId('run').click({ force: true });
    await page.getByLabel('question', { exact: true }).focus();
    await page.keyboard.press('Control+Enter');
    await temperature.fill('warm');
    assert.equal(await page.getByTestId('temperature-error').count(), 1);
    await temperature.fill('1.5');
    assert.equal(await page.getByTestId('temperature-error').count(), 0);
    const maxTokens = page.getByLabel('Max tokens');
    for (const bad of ['1.5', '0', '2000000', '-3', '1e3']) {
      await maxTokens.fill(bad);
      assert.equal(await text(page, 'max-tokens-error'), 'Max tokens is a whole number from 1 to 1,000,000 (leave it empty for the model’s default).', `max tokens ${bad}`);
      assert.equal(await disabled(page, 'run'), true);
    }
    await screenshot(page, 'playground-invalid');
    await maxTokens.fill('1000000');
    assert.equal(await page.getByTestId('max-tokens-error').count(), 0);
    await page.getByRole('textbox', { name: /^Model/ }).fill('m'.repeat(201));
    assert.equal(await text(page, 'model-error'), 'The model name is at most 200 characters.');
    assert.equal(await disabled(page, 'run'), true);
    await page.getByRole('textbox', { name: /^Model/ }).fill('gpt-4o');
    assert.equal(await disabled(page, 'run'), false);
    assert.equal(await page.getByTestId('why-disabled').count(), 0);
    assert.deepEqual(runs(app), [], 'nothing ran while the settings were invalid');
    await page.getByTestId('run').click();
    await sent(app, 'playground/run');
    assert.deepEqual(runs(app)[0]!.model, { model: 'gpt-4o', temperature: 1.5, maxTokens: 1_000_000 });
  });

  it('chat mode: the first run starts the conversation, follow-ups are turns of it, New session forgets it', async () => {
    const firstAnswer = 'Hello! Open Settings, then Security.';
    const turns1 = [{ role: 'ai' as const, content: firstAnswer }];
    const turns2 = [...turns1, { role: 'human' as const, content: 'And on mobile?' }, { role: 'ai' as const, content: 'Tap your avatar, then Security.' }];
    app = await open('playground', { height: 1100, handlers: host(state(), { 'playground/resetSession': () => ({ id: NEXT_SESSION, turns: [] }) }) });
    const page = app.page;
    await page.getByTestId('chat-toggle').click();
    assert.equal(await page.getByTestId('chat-toggle').getAttribute('aria-pressed'), 'true');
    assert.equal(await page.getByTestId('session-id').textContent(), SESSION.slice(0, 8));
    assert.equal(await page.getByTestId('session-id').getAttribute('title'), SESSION);
    assert.equal(await page.getByTestId('message-input').count(), 0, 'no follow-up before the first run');
    await page.getByTestId('run').click();
    await sent(app, 'playground/run');
    assert.equal(runs(app)[0]!.chat, true);
    assert.equal(runs(app)[0]!.followUp, null);
    await started(app);
    assert.equal(await page.getByTestId('conversation').getAttribute('aria-live'), 'polite');
    await app.notify('playground/delta', { runId: 'run-1', text: 'Hello! ' });
    await page.getByTestId('live-turn').getByText('Hello!').waitFor();
    await app.notify('playground/finished', finished('run-1', { answer: firstAnswer, session: { id: SESSION, turns: turns1 } }));
    await page.getByTestId('message-input').waitFor();
    assert.deepEqual(await page.getByTestId('turn').locator('.pg-turn-text').allTextContents(), [firstAnswer]);
    // A follow-up: chat true with its text; shown at once, the box emptied.
    await page.getByTestId('message-input').fill('And on mobile?');
    await page.keyboard.press('Control+Enter');
    await sent(app, 'playground/run', 2);
    assert.deepEqual(runs(app)[1], { values: { customer: 'Acme Corp', question: 'How do I reset my password?' }, model: { model: 'gpt-4o-mini', temperature: 0.2, maxTokens: null }, chat: true, followUp: 'And on mobile?' });
    await started(app);
    assert.equal(await page.getByTestId('message-input').inputValue(), '');
    assert.deepEqual(await page.locator('[data-testid="live-turn"][data-role="human"] .pg-turn-text').allTextContents(), ['And on mobile?']);
    await app.notify('playground/delta', { runId: 'run-2', text: 'Tap your avatar' });
    await page.getByText('Tap your avatar').waitFor();
    await app.notify('playground/finished', finished('run-2', { answer: 'Tap your avatar, then Security.', session: { id: SESSION, turns: turns2 } }));
    await page.getByTestId('turn').nth(2).waitFor();
    const turns = page.getByTestId('turn');
    assert.deepEqual(await turns.evaluateAll((els) => els.map((e) => e.getAttribute('data-role'))), ['ai', 'human', 'ai']);
    assert.deepEqual(await turns.locator('.pg-turn-text').allTextContents(), turns2.map((t) => t.content));
    assert.equal(await page.getByTestId('live-turn').count(), 0);
    // Human turns on the right, the model's on the left.
    const [ai, human] = await Promise.all([turns.nth(0).boundingBox(), turns.nth(1).boundingBox()]);
    assert.ok(human!.x + human!.width > ai!.x + ai!.width, 'the human turn sits to the right');
    assert.equal(await text(page, 'usage'), '12 in · 30 out · 42 tokens');
    // Send is for a message: empty, it is disabled.
    assert.equal(await disabled(page, 'send'), true);
    await page.getByTestId('message-input').fill('Thanks');
    assert.equal(await disabled(page, 'send'), false);
    await screenshot(page, 'playground-chat');
    await page.getByTestId('new-session').click();
    await page.getByTestId('no-turns').waitFor();
    assert.equal(await page.getByTestId('turn').count(), 0);
    assert.equal(await page.getByTestId('session-id').textContent(), NEXT_SESSION.slice(0, 8));
    assert.equal(await page.getByTestId('message-input').count(), 0);
    assert.equal(await page.getByTestId('outcome-line').count(), 0, 'the last turn’s facts belong to the old session');
    assert.equal(await page.getByTestId('run').count(), 1);
    assert.equal(app.requests('playground/resetSession').length, 1);
    // Chat off: independent runs again.
    await page.getByTestId('chat-toggle').click();
    await page.getByTestId('run').click();
    await sent(app, 'playground/run', 3);
    assert.equal(runs(app)[2]!.chat, false);
    assert.equal(runs(app)[2]!.followUp, null);
  });

  it('a failed follow-up goes back into the message box', async () => {
    const turns1 = [{ role: 'ai' as const, content: 'First answer.' }];
    app = await open('playground', { handlers: host(state({ session: { id: SESSION, turns: turns1 } })) });
    const page = app.page;
    await page.getByTestId('chat-toggle').click();
    await page.getByTestId('message-input').fill('Why not?');
    await page.getByTestId('send').click();
    await started(app);
    assert.equal(await page.getByTestId('message-input').inputValue(), '');
    await app.notify('playground/finished', finished('run-1', { outcome: 'error', answer: '', usage: null, error: 'Rate limited.', hint: 'Wait a minute.', session: { id: SESSION, turns: turns1 } }));
    await page.getByTestId('run-error').waitFor();
    assert.equal(await page.getByTestId('message-input').inputValue(), 'Why not?');
    assert.equal(await page.getByTestId('turn').count(), 1);
  });

  it('follows the host’s new state without losing typed values, changed model fields or the runs', async () => {
    app = await open('playground', { handlers: host(state()) });
    const page = app.page;
    await page.getByLabel('question', { exact: true }).fill('Typed question');
    await page.getByLabel('Temperature').fill('0.9');
    await page.getByTestId('run').click();
    await started(app);
    await app.notify('playground/finished', finished('run-1', { answer: 'Kept answer.' }));
    await page.getByTestId('outcome-line').waitFor();
    // The file gains a variable; the host's remembered values and model change.
    const edited = state({
      title: 'support-reply.prompt.yaml',
      prompt: { kind: 'chat', templateFormat: 'f-string', variables: ['customer', 'question', 'tone'], messages: [{ role: 'system', template: 'Answer in a {tone} tone for {customer}.' }, { role: 'human', template: '{question}' }] },
      values: { tone: 'friendly' },
      model: { model: 'gpt-4.1', temperature: 0.5, maxTokens: 512 },
      promptModel: null,
    });
    await app.notify('playground/changed', edited);
    await page.getByLabel('tone', { exact: true }).waitFor();
    assert.equal(await page.getByTestId('variable').count(), 3);
    assert.equal(await page.getByLabel('customer', { exact: true }).inputValue(), 'Acme Corp', 'a value shown stays, even if the host forgot it');
    assert.equal(await page.getByLabel('question', { exact: true }).inputValue(), 'Typed question');
    assert.equal(await page.getByLabel('tone', { exact: true }).inputValue(), 'friendly');
    assert.equal(await page.getByRole('textbox', { name: /^Model/ }).inputValue(), 'gpt-4.1', 'a field the user left follows the host');
    assert.equal(await page.getByLabel('Temperature').inputValue(), '0.9', 'a field the user changed stays');
    assert.equal(await page.getByLabel('Max tokens').inputValue(), '512');
    assert.equal(await page.getByTestId('prompt-model').count(), 0);
    assert.deepEqual(await page.getByTestId('message-template').allTextContents(), ['Answer in a {tone} tone for {customer}.', '{question}']);
    assert.equal(await page.getByTestId('answer').textContent(), 'Kept answer.');
    // A variable that goes away and comes back keeps its value; a prompt that cannot be read disables Run.
    await app.notify('playground/changed', state({ ...edited, prompt: null, problem: 'Line 3: a template has an unclosed “{”.' }));
    await page.getByTestId('problem').waitFor();
    assert.equal(await text(page, 'problem'), 'Line 3: a template has an unclosed “{”.');
    assert.equal(await page.getByTestId('problem').getAttribute('role'), 'alert');
    assert.equal(await page.getByTestId('variable').count(), 0);
    assert.equal(await disabled(page, 'run'), true);
    await app.notify('playground/changed', edited);
    await page.getByLabel('question', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('question', { exact: true }).inputValue(), 'Typed question');
    await page.getByTestId('run').click();
    await sent(app, 'playground/run', 2);
    assert.deepEqual(runs(app)[1], {
      values: { customer: 'Acme Corp', question: 'Typed question', tone: 'friendly' },
      model: { model: 'gpt-4.1', temperature: 0.9, maxTokens: 512 },
      chat: false,
      followUp: null,
    });
  });

  it('keeps typed values, model fields, the mode and the runs across a reload', async () => {
    app = await open('playground', { handlers: host(state()) });
    const page = app.page;
    await page.getByLabel('question', { exact: true }).fill('Typed before the reload');
    await page.getByLabel('Max tokens').fill('64');
    await page.getByTestId('run').click();
    await started(app);
    await app.notify('playground/finished', finished('run-1', { answer: 'Answer before the reload.' }));
    await page.getByTestId('outcome-line').waitFor();
    await app.reload();
    await page.getByTestId('playground').waitFor();
    assert.equal(await page.getByLabel('question', { exact: true }).inputValue(), 'Typed before the reload');
    assert.equal(await page.getByLabel('Max tokens').inputValue(), '64');
    assert.equal(await page.getByTestId('answer').textContent(), 'Answer before the reload.');
    assert.equal(await text(page, 'usage'), '12 in · 30 out · 42 tokens');
    assert.equal(app.requests('playground/ready').length, 2);
    // The list caps at 20 runs, newest first.
    for (let i = 2; i <= 23; i++) {
      await page.getByTestId('run').click();
      await started(app);
      await app.notify('playground/finished', finished(`run-${i}`, { answer: `Answer ${i}` }));
      await page.getByTestId('answer').getByText(`Answer ${i}`, { exact: true }).waitFor();
    }
    await page.getByTestId('chat-toggle').click();
    await app.reload();
    await page.getByTestId('playground').waitFor();
    assert.equal(await page.getByTestId('chat-toggle').getAttribute('aria-pressed'), 'true');
    const listed = await page.getByTestId('run-answer').allTextContents();
    assert.equal(listed.length, 20, 'the panel keeps its last 20 runs');
    assert.equal(listed[0], 'Answer 23');
    assert.equal(listed[19], 'Answer 4');
  });

  it('offers to send waiting traces now, and says when tracing is off', async () => {
    app = await open('playground', { handlers: host(state({ pendingTraces: 2 }), { 'playground/flushTraces': () => ({ pending: 0 }) }) });
    const page = app.page;
    const pending = page.getByTestId('pending-traces');
    await pending.waitFor();
    assert.equal(await pending.getAttribute('role'), 'alert');
    assert.equal(await text(page, 'pending-traces'), '2 traces waiting to be sent to LangSmith. Send now');
    await pending.getByRole('button', { name: 'Send now' }).click();
    await sent(app, 'playground/flushTraces');
    await page.getByTestId('notice').waitFor();
    assert.equal(await text(page, 'notice'), 'The waiting traces were sent.');
    assert.equal(await pending.count(), 0);
    await app.close();

    app = await open('playground', { handlers: host(state({ tracing: false })) });
    await app.page.getByTestId('tracing').waitFor();
    assert.equal(await text(app.page, 'tracing'), 'Not traced (sign in to LangSmith)');
    await app.page.getByTestId('run').click();
    await started(app);
    await app.notify('playground/finished', finished('run-1', { trace: { status: 'off', message: null, pending: 0 } }));
    await app.page.getByTestId('trace-off').waitFor();
    assert.equal(await app.page.getByRole('button', { name: 'Show trace' }).count(), 0);
  });

  it('without a model endpoint: a warning, Run disabled, Configure asks the host', async () => {
    app = await open('playground', { handlers: host(state({ endpoint: { url: null, source: 'none', hasKey: false } }), { 'playground/configureModel': () => ({}) }) });
    const page = app.page;
    const warning = page.getByTestId('no-endpoint');
    await warning.waitFor();
    assert.equal(await text(page, 'no-endpoint'), 'No model endpoint: set one to run the prompt. Configure…');
    assert.equal(await page.getByTestId('endpoint').count(), 0);
    assert.equal(await disabled(page, 'run'), true);
    assert.equal(await text(page, 'why-disabled'), 'Configure a model endpoint to run the prompt.');
    await screenshot(page, 'playground-no-endpoint');
    await warning.getByRole('button', { name: 'Configure…' }).click();
    await sent(app, 'playground/configureModel');
    // The host answers with the new state.
    await app.notify('playground/changed', state({ endpoint: { url: 'https://api.openai.com/v1', source: 'setting', hasKey: true } }));
    await page.getByTestId('endpoint').waitFor();
    assert.equal(await warning.count(), 0);
    assert.match(await text(page, 'endpoint'), /key set/);
    assert.equal(await disabled(page, 'run'), false);
  });

  it('renders hostile text from the file, the model and the server as text', async () => {
    const img = '<img src=x onerror=window.__x=1>';
    const script = '<script>window.__x=2</script>';
    const link = '<a href="javascript:window.__x=3">click me</a>';
    const rtl = 'invoice\u202Etxt.exe\u202C';
    const long = 'W'.repeat(1500);
    const s = state({
      title: `${img}${rtl}`,
      source: 'commit',
      prompt: {
        kind: 'string',
        templateFormat: 'mustache',
        variables: [img, 'body'],
        messages: [{ role: script, template: `${script}\n${link}\n{{${img}}} {{body}}\n${long}` }],
      },
      values: { [img]: script, body: link },
      model: { model: link, temperature: null, maxTokens: null },
      promptModel: img,
      endpoint: { url: 'javascript:window.__x=4', source: 'setting', hasKey: true },
      project: link,
    });
    app = await open('playground', { width: 400, height: 1400, handlers: host(s, { 'playground/run': () => ({ runId: 'run-1' }) }) });
    const page = app.page;
    await page.getByTestId('playground').waitFor();
    assert.equal(await page.getByTestId('title').textContent(), `${img}${rtl}`);
    assert.equal(await page.getByTestId('title').locator('bdi').count(), 1, 'the title is isolated from the text around it');
    assert.equal(await page.getByTestId('open-file').count(), 0, 'a commit has no file to open');
    assert.equal(await page.getByTestId('source').textContent(), 'commit');
    assert.equal(await page.getByTestId('message-role').textContent(), script);
    assert.equal(await page.getByTestId('message-template').textContent(), `${script}\n${link}\n{{${img}}} {{body}}\n${long}`);
    assert.deepEqual(await page.locator('.pg-var').allTextContents(), [`{{${img}}}`, '{{body}}'], 'mustache variables marked, as text');
    assert.equal(await page.getByLabel(img, { exact: true }).inputValue(), script);
    assert.equal(await page.getByLabel('body', { exact: true }).inputValue(), link);
    assert.equal(await page.getByRole('textbox', { name: /^Model/ }).inputValue(), link);
    assert.match(await text(page, 'tracing'), /click me<\/a>$/);
    await page.getByTestId('run').click();
    await started(app);
    await app.notify('playground/delta', { runId: 'run-1', text: `${img}${script}` });
    await app.notify('playground/delta', { runId: 'run-1', text: `${link}${rtl}${long}` });
    await app.notify('playground/finished', finished('run-1', { outcome: 'error', answer: `${img}${script}${link}${rtl}${long}`, error: `${img}\n${script}`, hint: link }));
    await page.getByTestId('run-error').waitFor();
    assert.equal(await page.getByTestId('answer').textContent(), `${img}${script}${link}${rtl}${long}`);
    assert.equal(await text(page, 'run-error-message'), `${img} ${script}`);
    assert.equal(await text(page, 'run-error-hint'), link);
    await screenshot(page, 'playground-hostile');
    assert.equal(await page.locator('#root img, #root script, #root a, #root iframe').count(), 0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `long text widens the page by ${overflow}px`);
    await page.waitForTimeout(100);
    assert.equal(await flag(page), undefined);
    assert.deepEqual(app.problems, []);
  });

  it('is operable from the keyboard: labels for every field, names for every button', async () => {
    app = await open('playground', { handlers: host(state({ pendingTraces: 1 })) });
    const page = app.page;
    await page.getByTestId('run').waitFor();
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input, textarea')].filter((el) => !(el as HTMLInputElement).labels?.length).map((el) => el.id || el.tagName),
    );
    assert.deepEqual(unlabelled, []);
    const nameless = await page.evaluate(() => [...document.querySelectorAll('button, vscode-button')].filter((el) => !(el.getAttribute('aria-label') || el.textContent?.trim())).length);
    assert.equal(nameless, 0);
    // Tab goes from the last variable to Run, and through the model fields in order.
    await page.getByLabel('question', { exact: true }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'run');
    await page.getByRole('textbox', { name: /^Model/ }).focus();
    const order: string[] = [];
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.id ?? ''));
    }
    assert.deepEqual(order, ['pg-temperature', 'pg-max-tokens']);
    // Focus is visible.
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(outline, 'none');
    await page.getByTestId('chat-toggle').focus();
    await page.keyboard.press('Space');
    assert.equal(await page.getByTestId('chat-toggle').getAttribute('aria-pressed'), 'true');
  });
});
