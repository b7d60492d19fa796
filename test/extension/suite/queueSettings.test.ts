// Annotation queues in the tree (a queue's three sections with their counts, paged items that are runs), the
// feedback config commands (with the messages bad answers get), and the queue settings panel's host side: it
// opens through Edit Queue, answers its state, and a save writes the rubric and the feedback configs.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { LangSmithClient } from '../../../src/client';
import type { WorkbenchApi } from '../../../src/extension';
import type { ConfigEntry, QueueForm, QueueSettingsState } from '../../../src/protocol/queueSettings';
import type { TreeNode } from '../../../src/views/treeNode';
import { Panels } from '../../../src/webviews/descriptors';
import { ScriptedPrompter, type Answer } from './scriptedPrompter';
import { activateWorkbench, hostCall, hostOk, http, runScripted } from './support';

type AnyNode = TreeNode & Record<string, any>;

const tag = randomUUID().slice(0, 8);

/** Also records what each input box showed first (Edit prefills them). */
class RecordingPrompter extends ScriptedPrompter {
  readonly prefilled: (string | undefined)[] = [];
  override input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    this.prefilled.push(options.value);
    return super.input(options);
  }
}

describe('annotation queues, feedback configs and queue settings', function () {
  this.timeout(60_000);
  let workbench: WorkbenchApi;
  let client: LangSmithClient;
  const cleanup: Array<() => Promise<unknown>> = [];
  const kids = async (node?: TreeNode) => (await workbench.views.queues.provider.getChildren(node)) as AnyNode[];
  const label = (node: TreeNode) => {
    const l = node.treeItem().label;
    return typeof l === 'string' ? l : (l?.label ?? '');
  };
  const run = async (command: string, answers: Answer[], ...args: unknown[]) => runScripted(workbench, command, new RecordingPrompter(answers), ...args);

  /** Runs in a project of their own, made for this suite. */
  async function makeRuns(count: number): Promise<string[]> {
    const project = `ext-queue-items-${tag}`;
    const t0 = Date.now() - 60_000;
    const post = Array.from({ length: count }, (_, i) => {
      const id = randomUUID();
      const start = new Date(t0 + i * 10).toISOString();
      const dotted = `${start.replace(/[-:.]/g, '').replace('Z', '')}000Z${id}`;
      return { id, trace_id: id, dotted_order: dotted, name: `step-${i}`, run_type: 'chain', session_name: project, start_time: start, end_time: start, inputs: { question: `question number ${i}` }, outputs: { answer: 'ok' } };
    });
    await http('POST', '/runs/batch', { post });
    return post.map((r) => r.id);
  }

  async function queueRow(queueId: string): Promise<AnyNode> {
    workbench.views.queues.refresh();
    const node = (await kids()).find((n) => n.id === `queue/${queueId}`);
    assert.ok(node, 'the queue is in the tree');
    return node;
  }

  before(async () => {
    workbench = await activateWorkbench();
    client = await workbench.clients.client();
  });

  after(async () => {
    for (const undo of cleanup.reverse()) await undo().catch(() => undefined);
  });

  describe('the tree', () => {
    let queueId: string;
    let runIds: string[];

    before(async () => {
      runIds = await makeRuns(53);
      const queue = await client.annotationQueues.create({ name: `ext-sections-${tag}`, rubricInstructions: 'Is it right?' });
      queueId = queue.id;
      cleanup.push(() => client.annotationQueues.delete(queueId));
      const items = await client.annotationQueues.items.addRuns(queueId, runIds.map((runId) => ({ runId })));
      assert.equal(items.length, 53);
      await client.annotationQueues.items.setStatus(items.find((i) => i.run_id === runIds[0])!.id, 'completed');
    });

    it('shows a queue’s three sections with their counts, and the counts on the queue’s row', async () => {
      const queue = await queueRow(queueId);
      assert.equal(queue.treeItem().contextValue, 'queue');
      assert.equal(queue.treeItem().description, '53 runs', 'before it opens, the size the listing gave');
      const counts = await client.annotationQueues.items.counts(queueId);
      const opened = await kids(queue);
      // Below the sections, the rubric: what reviewers are asked, a click away from the settings.
      const rubric = opened.at(-1)!;
      assert.equal(label(rubric), 'Rubric: Is it right?');
      assert.equal(rubric.treeItem().contextValue, 'queueRubric');
      assert.deepEqual(rubric.treeItem().command?.arguments, [{ queueId }]);
      assert.equal(rubric.treeItem().command?.command, 'langsmith.editQueue');
      const sections = opened.slice(0, -1);
      assert.deepEqual(sections.map(label), [
        `Needs my review (${counts.needs_my_review})`,
        `Needs others’ review (${counts.needs_others_review})`,
        `Completed (${counts.archived})`,
      ]);
      assert.deepEqual([counts.needs_my_review, counts.archived], [52, 1]);
      assert.deepEqual(sections.map((s) => s.treeItem().contextValue), ['queueSection', 'queueSection', 'queueSection']);
      assert.equal(queue.treeItem().description, '52 to review · 1 done');
      assert.match(String((queue.treeItem().tooltip as vscode.MarkdownString).value), /Rubric: Is it right\?/);
    });

    it('pages a section’s items as runs: 50, then Load more', async () => {
      const [mine] = await kids(await queueRow(queueId));
      let rows = await kids(mine);
      assert.equal(rows.length, 51, '50 items and Load more');
      const more = rows[50]!;
      assert.equal(more.treeItem().contextValue, 'loadMore');
      await vscode.commands.executeCommand('langsmith.loadMore', more);
      rows = await kids(mine);
      assert.equal(rows.length, 52);
      assert.ok(rows.every((r) => r.treeItem().contextValue === 'queueRun'));
      const first = rows[0]!;
      assert.match(label(first), /^1\. step-\d+$/);
      assert.match(label(rows[1]!), /^2\. /);
      assert.match(String(first.treeItem().description), /^“question number \d+” · added /);
      assert.equal(first.queueId, queueId);
      assert.equal(first.runId, first.run.id);
      assert.ok(runIds.includes(first.runId));
      assert.equal(first.item.run_id, first.runId);
      assert.equal(typeof first.itemId, 'string');
      assert.equal(first.section, 'needs_my_review');
      const click = first.treeItem().command!;
      assert.equal(click.command, 'langsmith.reviewQueue');
      assert.equal(click.arguments?.[0], first, 'the review gets the row');

      const done = await kids((await kids(await queueRow(queueId)))[2]);
      assert.equal(done.length, 1);
      assert.equal(done[0]!.runId, runIds[0]);
      assert.match(String(done[0]!.treeItem().description), / · done$/);
    });

    it('an item row opens its trace and is removed from the queue by its item id', async () => {
      const [mine] = await kids(await queueRow(queueId));
      const row = (await kids(mine))[0]!;
      await vscode.commands.executeCommand('langsmith.openTrace', row);
      const panel = workbench.panels.panelsOf<{ kind: string; traceId?: string }>(Panels.trace).find((p) => p.key.kind === 'trace' && p.key.traceId === row.run.trace_id);
      assert.ok(panel, 'the trace of the item’s run is open');
      panel.host.dispose();

      const before = await client.annotationQueues.items.count(queueId, 'all');
      const declined = await run('langsmith.removeRunFromQueue', [{ confirm: false }], row);
      assert.deepEqual(declined.errors, []);
      assert.equal(await client.annotationQueues.items.count(queueId, 'all'), before, 'declining removes nothing');
      await run('langsmith.removeRunFromQueue', [{ confirm: true }], row);
      assert.equal(await client.annotationQueues.items.count(queueId, 'all'), before - 1);
      const left: string[] = [];
      for await (const it of client.annotationQueues.items.list(queueId, { section: 'needs_my_review' })) left.push(it.id);
      assert.ok(!left.includes(row.itemId));
    });
  });

  describe('feedback configs', () => {
    const key = `ext-fc-${tag}`;

    async function group(): Promise<AnyNode> {
      const top = await kids();
      const last = top[top.length - 1]!;
      assert.equal(last.treeItem().contextValue, 'feedbackConfigs', 'the Feedback Configs group comes last');
      assert.equal(label(last), 'Feedback Configs');
      return last;
    }

    async function configRow(): Promise<AnyNode | undefined> {
      return (await kids(await group())).find((n) => label(n) === key);
    }

    after(() => client.feedbackConfigs.delete(key).catch(() => undefined));

    it('refuses a maximum not above the minimum and categories that are not score=label', async () => {
      const range = await run('langsmith.createFeedbackConfig', [{ input: key }, { pick: 'Continuous' }, { input: '1' }, { input: '0.5' }]);
      assert.deepEqual(range.script.rejected, ['The highest score must be above the lowest (1).']);
      const notNumber = await run('langsmith.createFeedbackConfig', [{ input: key }, { pick: 'Continuous' }, { input: 'low' }]);
      assert.deepEqual(notNumber.script.rejected, ['“low” is not a number.']);
      const cases: Array<[string, string]> = [
        ['0=incorrect, correct', '“correct” is not score=label (e.g. 1=correct).'],
        ['0=incorrect, 0=correct', 'The score 0 is used twice.'],
        ['0=same, 1=same', 'The label “same” is used twice.'],
        ['x=incorrect, 1=correct', 'The score of “x=incorrect” is not a number.'],
        ['1=only', 'A categorical key needs at least two categories.'],
        ['0=, 1=correct', 'The score 0 needs a label.'],
      ];
      for (const [typed, message] of cases) {
        const { script } = await run('langsmith.createFeedbackConfig', [{ input: key }, { pick: 'Categorical' }, { input: typed }]);
        assert.deepEqual(script.rejected, [message], typed);
      }
      assert.equal((await client.feedbackConfigs.read([key])).size, 0, 'nothing was created');
    });

    it('creates, edits (prefilled) and deletes a config; the group row shows each', async () => {
      const created = await run('langsmith.createFeedbackConfig', [{ input: key }, { pick: 'Continuous' }, { input: '0' }, { input: '10' }, { pick: 'Lower is better' }]);
      assert.deepEqual(created.errors, []);
      let server = (await client.feedbackConfigs.read([key])).get(key)!;
      assert.deepEqual([server.feedback_config.type, server.feedback_config.min, server.feedback_config.max, server.is_lower_score_better], ['continuous', 0, 10, true]);
      let row = await configRow();
      assert.ok(row, 'the new config is listed');
      assert.equal(row.treeItem().contextValue, 'feedbackConfig');
      assert.equal(row.treeItem().description, 'continuous 0–10 · lower is better');

      const again = await run('langsmith.createFeedbackConfig', [{ input: key }]);
      assert.match(again.errors.join(), /already has a config/);

      const edited = await run('langsmith.editFeedbackConfig', [{ pick: 'Continuous' }, { input: '0' }, { input: '5' }, { pick: 'Lower is better' }], row);
      assert.deepEqual(edited.script.prefilled, ['0', '10']);
      assert.equal(edited.script.offered[0]![0], 'Continuous', 'the current type comes first');
      assert.equal(edited.script.offered[1]![0], 'Lower is better', 'the current direction comes first');
      server = (await client.feedbackConfigs.read([key])).get(key)!;
      assert.equal(server.feedback_config.max, 5);

      row = (await configRow())!;
      await run('langsmith.editFeedbackConfig', [{ pick: 'Categorical' }, { input: '0=incorrect, 1=correct' }, { pick: 'Higher is better' }], row);
      server = (await client.feedbackConfigs.read([key])).get(key)!;
      assert.equal(server.feedback_config.type, 'categorical');
      assert.deepEqual(server.feedback_config.categories?.map((c) => [c.value, c.label]), [[0, 'incorrect'], [1, 'correct']]);
      row = (await configRow())!;
      assert.equal(row.treeItem().description, 'categorical · incorrect / correct');
      const prefilled = await run('langsmith.editFeedbackConfig', [{ pick: 'Categorical' }, { dismiss: true }], row);
      assert.deepEqual(prefilled.script.prefilled, ['0=incorrect, 1=correct']);

      await run('langsmith.deleteFeedbackConfig', [{ confirm: false }], row);
      assert.equal((await client.feedbackConfigs.read([key])).size, 1, 'declining deletes nothing');
      await run('langsmith.deleteFeedbackConfig', [{ confirm: true }], row);
      assert.equal((await client.feedbackConfigs.read([key])).size, 0);
      assert.equal(await configRow(), undefined, 'the group row no longer lists it');

      // A config made elsewhere shows after Refresh on the group row.
      await client.feedbackConfigs.create({ key, config: { type: 'freeform' } });
      await vscode.commands.executeCommand('langsmith.refreshItem', await group());
      assert.equal((await configRow())?.treeItem().description, 'freeform');
    });
  });

  describe('the queue settings panel', () => {
    let queueId: string;
    const categorical = `ext-qs-correct-${tag}`;
    const continuous = `ext-qs-helpful-${tag}`;

    before(async () => {
      const queue = await client.annotationQueues.create({ name: `ext-settings-${tag}`, description: 'before' });
      queueId = queue.id;
      cleanup.push(() => client.annotationQueues.delete(queueId));
      cleanup.push(() => client.feedbackConfigs.delete(categorical));
      cleanup.push(() => client.feedbackConfigs.delete(continuous));
    });

    const panel = () => {
      const found = workbench.panels.panelsOf<{ queueId: string | null }>(Panels.queueSettings).find((p) => p.key.queueId === queueId);
      assert.ok(found, 'the settings panel of the queue is open');
      return found.host;
    };

    it('opens for a queue made with New Annotation Queue, after its name', async () => {
      const name = `ext-new-settings-${tag}`;
      const made = await run('langsmith.createQueue', [{ input: name }, { input: '' }, { input: '' }]);
      assert.deepEqual(made.errors, []);
      const [queue] = (await http<Array<{ id: string; name: string }>>('GET', `/annotation-queues?name=${name}`)).filter((q) => q.name === name);
      assert.ok(queue, 'the queue was created');
      cleanup.push(() => client.annotationQueues.delete(queue.id));
      const opened = workbench.panels.panelsOf<{ queueId: string | null }>(Panels.queueSettings).find((p) => p.key.queueId === queue.id);
      assert.ok(opened, 'its settings panel is open');
      opened.host.dispose();
    });

    it('opens through Edit Queue and answers the queue as a form', async () => {
      await vscode.commands.executeCommand('langsmith.editQueue', await queueRow(queueId));
      const ready = await hostOk<{ state: QueueSettingsState }>(panel(), 'queueSettings/ready', {});
      assert.equal(ready.state.kind, 'settings');
      if (ready.state.kind !== 'settings') return;
      assert.equal(ready.state.queueId, queueId);
      assert.equal(ready.state.form.name, `ext-settings-${tag}`);
      assert.equal(ready.state.form.description, 'before');
      assert.deepEqual(ready.state.form.rubric, []);
    });

    it('saves the rubric and the configs it names; the server has them', async () => {
      const dataset = (await client.datasets.list({ limit: 1 }).next()).value!;
      const form: QueueForm = {
        name: `ext-settings-${tag}-saved`,
        description: 'after',
        instructions: 'Judge the answer.',
        rubric: [
          { key: categorical, description: 'Is it right?', required: true, scoreDescriptions: {}, valueDescriptions: { correct: 'matches the reference' } },
          { key: continuous, description: '', required: false, scoreDescriptions: { '0': 'useless', '1': 'perfect' }, valueDescriptions: {} },
        ],
        defaultDataset: { id: dataset.id, name: dataset.name },
        reviewersPerItem: 2,
        reservations: true,
        reservationMinutes: 15,
      };
      const configs: ConfigEntry[] = [
        { key: categorical, config: { type: 'categorical', categories: [{ value: 0, label: 'incorrect' }, { value: 1, label: 'correct' }] }, lowerIsBetter: false },
        { key: continuous, config: { type: 'continuous', min: 0, max: 1 }, lowerIsBetter: true },
      ];
      const saved = await hostOk<{ state: QueueSettingsState; message: string }>(panel(), 'queueSettings/save', { form, configs });
      assert.match(saved.message, /Saved/);
      assert.equal(saved.state.kind, 'settings');
      if (saved.state.kind !== 'settings') return;
      assert.deepEqual(saved.state.form, form, 'the form as the server now has it');
      assert.deepEqual(
        saved.state.configs.filter((c) => c.key === categorical || c.key === continuous).sort((a, b) => a.key.localeCompare(b.key)),
        [...configs].sort((a, b) => a.key.localeCompare(b.key)),
      );

      const queue = await client.annotationQueues.read(queueId);
      assert.equal(queue.name, form.name);
      assert.deepEqual(queue.rubric_items?.map((r) => [r.feedback_key, r.is_required]), [[categorical, true], [continuous, false]]);
      assert.equal(queue.default_dataset, dataset.id);
      assert.deepEqual([queue.num_reviewers_per_item, queue.enable_reservations, queue.reservation_minutes], [2, true, 15]);
      const server = await client.feedbackConfigs.read([categorical, continuous]);
      assert.equal(server.get(categorical)?.feedback_config.type, 'categorical');
      assert.deepEqual([server.get(continuous)?.feedback_config.max, server.get(continuous)?.is_lower_score_better], [1, true]);
      assert.equal(label(await queueRow(queueId)), form.name, 'the tree shows the new name');
    });

    it('refuses a form checkForm refuses, and clears the default dataset through the picker', async () => {
      const ready = await hostOk<{ state: QueueSettingsState }>(panel(), 'queueSettings/ready', {});
      assert.equal(ready.state.kind, 'settings');
      if (ready.state.kind !== 'settings') return;
      const bad = await hostCall(panel(), 'queueSettings/save', { form: { ...ready.state.form, name: ' ' }, configs: [] });
      assert.ok(!bad.ok);
      assert.deepEqual(bad.error, { code: 'invalidParams', message: 'A queue needs a name.' });
      const badConfig = await hostCall(panel(), 'queueSettings/save', { form: ready.state.form, configs: [{ key: continuous, config: { type: 'continuous', min: 1, max: 1 }, lowerIsBetter: false }] });
      assert.ok(!badConfig.ok);
      assert.match(badConfig.error.message, /minimum must be below the maximum/);
      assert.equal((await client.feedbackConfigs.read([continuous])).get(continuous)?.feedback_config.max, 1, 'nothing was written');

      const restore = workbench.setPrompter(new ScriptedPrompter([{ pick: 'No default dataset' }]));
      try {
        assert.deepEqual(await hostOk(panel(), 'queueSettings/pickDataset', {}), { dataset: null, clear: true });
      } finally {
        restore();
      }
      panel().dispose();
    });
  });
});
