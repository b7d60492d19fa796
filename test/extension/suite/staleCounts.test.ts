// Counts that follow a change made through the extension: a queue's row after runs are added to it (from run rows
// or from a panel's run ids), after an item is removed in the tree, and after an item is done or removed in the
// review panel; the Projects view after Run Prompt over Dataset made an experiment (a new project with runs).
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/views/treeNode';
import { Panels } from '../../../src/webviews/descriptors';
import { ScriptedPrompter, type Answer } from './scriptedPrompter';
import { activateWorkbench, hostOk, http, runScripted } from './support';

type AnyNode = TreeNode & Record<string, any>;
type View = 'projects' | 'queues';

const tag = randomUUID().slice(0, 6);

describe('counts after a change made through the extension', function () {
  this.timeout(60_000);
  let workbench: WorkbenchApi;
  const kids = async (view: View, node?: TreeNode) => (await workbench.views[view].provider.getChildren(node)) as AnyNode[];
  const text = (node: TreeNode) => String(node.treeItem().description ?? '');
  const run = (command: string, answers: Answer[], ...args: unknown[]) => runScripted(workbench, command, new ScriptedPrompter(answers), ...args);

  before(async () => {
    workbench = await activateWorkbench();
  });

  /** Polls a row's description (read through `find`, so a reloaded view's new node counts) until it matches. */
  async function eventually(find: () => Promise<AnyNode>, expected: string, why: string): Promise<void> {
    let last = '';
    for (const end = Date.now() + 10_000; Date.now() < end; ) {
      last = text(await find());
      if (last === expected) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(last, expected, why);
  }

  describe('a queue’s row', () => {
    const project = `sc-${tag}`;
    const queueName = `sc-q-${tag}`;
    let runIds: string[];
    let queueId: string;

    const queueRow = async () => {
      const node = (await kids('queues')).find((n) => n.id === `queue/${queueId}`);
      assert.ok(node, 'the queue is in the tree');
      return node;
    };

    before(async () => {
      const t0 = Date.now() - 60_000;
      const post = [0, 1, 2, 3, 4].map((i) => {
        const id = randomUUID();
        const start = new Date(t0 + i * 1000).toISOString();
        return { id, trace_id: id, dotted_order: `${start.replace(/[-:.]/g, '').replace('Z', '')}000Z${id}`, name: `sc-${i}`, run_type: 'chain', session_name: project, start_time: start, end_time: start, inputs: { q: `q${i}` }, outputs: { a: 'ok' } };
      });
      await http('POST', '/runs/batch', { post });
      runIds = post.map((r) => r.id);
      queueId = (await http<{ id: string }>('POST', '/annotation-queues', { name: queueName })).id;
    });

    after(async () => {
      for (const p of workbench.panels.panelsOf(Panels.review)) p.host.panel.dispose();
      await http('DELETE', `/annotation-queues/${queueId}`).catch(() => undefined);
    });

    it('says the new size after Add to Annotation Queue from a run row, and the new counts once opened', async () => {
      workbench.views.queues.refresh();
      const row = await queueRow();
      assert.equal(text(row), '0 runs');
      workbench.views.projects.refresh();
      const projectNode = (await kids('projects')).find((n) => n.project?.name === project);
      assert.ok(projectNode, 'the project is listed');
      const runRow = (await kids('projects', projectNode)).find((n) => n.id === `run/${runIds[0]}`);
      assert.ok(runRow, 'its run is listed');
      const added = await run('langsmith.addRunsToQueue', [{ pick: queueName }], runRow);
      assert.deepEqual(added.errors, []);
      await workbench.views.rowReload;
      assert.equal(text(row), '1 run', 'the same row, read again');

      // Opened, the row shows its sections' counts; runs added by id (as the trace viewer passes them) count too.
      await kids('queues', row);
      assert.equal(text(row), '1 to review · 0 done');
      await run('langsmith.addRunsToQueue', [{ pick: queueName }], { runIds: runIds.slice(1, 4) });
      await workbench.views.rowReload;
      assert.equal(text(row), '4 to review · 0 done');
      const [mine] = await kids('queues', row);
      assert.equal((await kids('queues', mine)).length, 4, 'and the section lists them');
    });

    it('counts one less after Remove from Queue in the tree', async () => {
      const row = await queueRow();
      const [mine] = await kids('queues', row);
      const item = (await kids('queues', mine))[0]!;
      await run('langsmith.removeRunFromQueue', [{ confirm: true }], item);
      await workbench.views.rowReload;
      assert.equal(text(row), '3 to review · 0 done');
      assert.match(String((await kids('queues', row))[0]!.treeItem().label), /\(3\)$/);
    });

    it('follows Done and Remove in the review panel', async () => {
      const row = await queueRow();
      await kids('queues', row);
      assert.equal(text(row), '3 to review · 0 done');
      await vscode.commands.executeCommand('langsmith.reviewQueue', { queueId });
      const host = workbench.panels.panelsOf<{ queueId: string }>(Panels.review).find((p) => p.key.queueId === queueId)!.host;
      const state = (await hostOk<{ state: { current: { item: { id: string } } } }>(host, 'review/ready', {})).state;
      await hostOk(host, 'review/done', { itemId: state.current.item.id, review: { fields: [], comment: 'fine', correction: null } });
      // The row the tree shows now (the same one reloaded, or the view's new one), opened as before.
      const shown = async () => {
        const node = await queueRow();
        await kids('queues', node);
        return node;
      };
      await eventually(shown, '2 to review · 1 done', 'Done in the review panel moves one to done');

      const items = await hostOk<{ items: { id: string }[] }>(host, 'review/items', { section: 'needs_my_review', cursor: null });
      const restore = workbench.setPrompter(new ScriptedPrompter([{ confirm: true }]));
      try {
        const removed = await hostOk<{ removed: boolean }>(host, 'review/remove', { itemId: items.items[0]!.id });
        assert.equal(removed.removed, true);
      } finally {
        restore();
      }
      await eventually(shown, '1 to review · 1 done', 'Remove in the review panel counts one less');
    });
  });

  describe('the Projects view', () => {
    const promptName = `sc-exp-${tag}`;
    const datasetName = `sc-ds-${tag}`;
    let dir: string;
    let datasetId: string;

    before(async () => {
      datasetId = (await http<{ id: string }>('POST', '/datasets', { name: datasetName })).id;
      const client = await workbench.clients.client();
      await client.examples.create({ datasetId, examples: [0, 1].map((i) => ({ inputs: { question: `q${i}` }, outputs: { answer: `a${i}` } })) });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-sc-'));
    });

    after(async () => {
      const root = workbench.views.projects.root;
      root.filters.nameContains = undefined;
      workbench.views.projects.refresh();
      fs.rmSync(dir, { recursive: true, force: true });
      await http('DELETE', `/datasets/${datasetId}`).catch(() => undefined);
    });

    it('lists the experiment Run Prompt over Dataset made, without a Refresh', async () => {
      const root = workbench.views.projects.root;
      // The view shows only this test's projects (its name filter), loaded before the run: none yet.
      root.filters.nameContains = promptName;
      workbench.views.projects.refresh();
      const names = async () => (await kids('projects')).map((n) => String(n.project?.name ?? n.treeItem().label));
      assert.deepEqual(await names(), [`No project name contains “${promptName}”`]);
      const file = path.join(dir, `${promptName}.prompt.yaml`);
      fs.writeFileSync(file, [`prompt: ${promptName}`, 'template_format: f-string', 'input_variables: [question]', 'messages:', '  - role: human', "    template: '{question}'", ''].join('\n'));
      const ran = await run('langsmith.runPromptOverDataset', [{ pick: datasetName }, { pick: 'All examples' }, { pick: 'local-echo' }, { input: '2' }], vscode.Uri.file(file));
      assert.deepEqual(ran.errors, []);
      assert.match(ran.infos[0] ?? '', /done: 2 of 2/);
      let listed: string[] = [];
      for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
        listed = await names();
        if (listed.some((n) => n.startsWith(`${promptName}-`))) break;
      }
      assert.equal(listed.length, 1, `the experiment is listed: ${listed.join(', ')}`);
      assert.match(listed[0]!, new RegExp(`^${promptName}-\\d{8}-\\d{6}$`));
      const row = (await kids('projects'))[0]!;
      // An experiment row names its dataset and its figures; its label puts the time it ran first.
      assert.match(text(row), new RegExp(`^on ${datasetName} · 2 runs`));
      assert.match(String(row.treeItem().label), new RegExp(`^\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} · ${promptName}$`));
      assert.equal((await kids('projects', row)).filter((n) => n.id.startsWith('run/')).length, 2, 'with its two runs');
    });
  });
});
