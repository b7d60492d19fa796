// The playground through the real workbench, as a new user tries it after `npm start`: open the demo prompt file,
// click Run above its first line, fill in the variables, run, watch the answer come from the local server's
// local-echo model, then switch to Chat and send a follow-up that carries the conversation; both runs are traced
// to the playground project, and Show trace opens the run's trace (with its children) in the trace viewer.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { getJson, okJson } from '../harness/http';
import type { LocalServer } from '../harness/localServer';
import { eventually, openFile, screenshot, webviewFrame, withWorkbench, type Workbench } from './workbench';

interface RunJson {
  id: string;
  name: string;
  run_type: string;
  parent_run_id: string | null;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
}

describe('playground in the workbench', function () {
  let wb: Workbench;
  let server: LocalServer;

  // Paced like `npm start`, so the answer is seen streaming; the demo prompt file in the workspace.
  const demo = withWorkbench({ server: { chatDelayMs: 25 }, promptFile: true });
  before(() => ({ wb, server } = demo()));

  async function playgroundRuns(): Promise<RunJson[]> {
    const projects = await getJson<{ id: string }[]>(server, '/sessions?name=playground');
    if (!projects[0]) return [];
    return (await okJson<{ runs: RunJson[] }>(server, 'POST', '/runs/query', { session: [projects[0].id], limit: 100 })).runs;
  }

  async function finished(frame: Frame): Promise<string> {
    await frame.getByTestId('outcome-line').waitFor({ timeout: 30_000 });
    return ((await frame.getByTestId('outcome').first().textContent()) ?? '').trim();
  }

  it('runs the demo prompt with inputs, then a follow-up in chat mode; both traced, Show trace opens its trace', async () => {
    const { page } = wb;
    await openFile(page, 'demo-summarizer.prompt.yaml');
    const lens = page.locator('.codelens-decoration a', { hasText: 'Run' });
    await lens.first().waitFor({ timeout: 30_000 });
    await lens.first().click();

    const frame = await webviewFrame(page);
    await frame.getByTestId('title').filter({ hasText: 'demo-summarizer.prompt.yaml' }).waitFor({ timeout: 30_000 });
    assert.match((await frame.getByTestId('endpoint').textContent()) ?? '', /local server/);
    await frame.getByLabel('max_words', { exact: true }).fill('12');
    await frame.getByLabel('ticket', { exact: true }).fill('The export button does nothing on Firefox 128.');
    await frame.getByTestId('run').click();

    // The answer streams: a part of it shows before the run ends.
    await frame.getByTestId('running').waitFor({ timeout: 15_000 });
    await eventually(async () => (((await frame.getByTestId('answer').textContent()) ?? '').length > 0 ? true : null), 15_000);
    assert.equal(await finished(frame), 'done');
    const answer = (await frame.getByTestId('answer').textContent()) ?? '';
    assert.equal(answer, 'local-echo heard 2 messages: system, user.\nLast user message: Ticket:\nThe export button does nothing on Firefox 128.');
    assert.match((await frame.getByTestId('usage').textContent()) ?? '', /\d+ in · \d+ out · \d+ tokens/);
    await screenshot(page, 'playground-workbench-run');

    // Chat: the first turn is the prompt itself, the follow-up comes after its answer.
    await frame.getByTestId('chat-toggle').click();
    await frame.getByTestId('run').click();
    assert.equal(await finished(frame), 'done');
    await frame.getByTestId('message-input').fill('Make it shorter, please.');
    await frame.getByTestId('send').click();
    await eventually(async () => ((await frame.getByTestId('turn').count()) >= 3 ? true : null), 30_000);
    const turns = (await frame.getByTestId('turn').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.match(turns.at(-1)!, /local-echo heard 4 messages: system, user, assistant, user\. Last user message: Make it shorter, please\./);
    await screenshot(page, 'playground-workbench-chat');

    // On the server: three traces (chain → prompt → llm → parser); the follow-up's llm run
    // was sent the conversation.
    const runs = await eventually(async () => {
      const all = await playgroundRuns();
      return all.filter((r) => !r.parent_run_id).length >= 3 ? all : null;
    }, 15_000);
    const roots = runs.filter((r) => !r.parent_run_id);
    assert.equal(roots.length, 3);
    // A single run: Playground → prompt, llm, parser. A chat turn: Playground (the history wrapper) → the chain →
    // prompt, llm, parser.
    assert.equal(runs.length, 4 + 5 + 5);
    const below = (id: string): RunJson[] => runs.filter((r) => r.parent_run_id === id).flatMap((r) => [r, ...below(r.id)]);
    for (const root of roots) {
      assert.equal(root.name, 'Playground');
      assert.deepEqual(below(root.id).map((r) => r.run_type).filter((t) => t !== 'chain').sort(), ['llm', 'parser', 'prompt']);
    }
    const llmRuns = await Promise.all(runs.filter((r) => r.run_type === 'llm').map((r) => getJson<RunJson>(server, `/runs/${r.id}`)));
    const followUp = llmRuns.find((r) => JSON.stringify(r.inputs).includes('Make it shorter'));
    assert.ok(followUp, `the follow-up’s llm run among ${JSON.stringify(llmRuns.map((r) => r.inputs))}`);
    assert.deepEqual(
      (followUp.inputs['messages'] as { role: string }[]).map((m) => m.role),
      ['system', 'user', 'assistant', 'user'],
    );

    // Show trace: the run's trace opens in the trace viewer, its children in the tree.
    await frame.getByTestId('show-trace').first().click();
    const trace = await eventually(async () => {
      const f = await webviewFrame(page).catch(() => null);
      return f && (await f.getByTestId('tree').count().catch(() => 0)) ? f : null;
    }, 30_000);
    await trace.getByTestId('trace-name').filter({ hasText: 'Playground' }).waitFor({ timeout: 30_000 });
    await trace.getByTestId('run-name').filter({ hasText: 'ChatOpenAI' }).first().waitFor({ timeout: 15_000 });
    await trace.getByTestId('run-name').filter({ hasText: 'ChatPromptTemplate' }).first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'playground-trace');
  });
});
