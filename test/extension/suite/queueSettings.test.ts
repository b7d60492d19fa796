// Annotation queues in the tree: a queue's three sections with their counts, paged items that are runs.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { LangSmithClient } from '../../../src/client';
import type { WorkbenchApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/views/treeNode';
import { Panels } from '../../../src/webviews/descriptors';
import { ScriptedPrompter, type Answer } from './scriptedPrompter';
import { activateWorkbench, http, runScripted } from './support';

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
      const sections = await kids(queue);
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
});
