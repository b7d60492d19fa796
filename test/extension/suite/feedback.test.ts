// Feedback on runs, comparisons of experiments, editing annotation queues and renaming projects: each command
// runs with scripted answers inside the extension host and is checked through the local server's HTTP API;
// bad answers get the input box's message (or a refusal) and change nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/views/treeNode';
import { Panels } from '../../../src/webviews/descriptors';
import { ScriptedPrompter, type Answer } from './scriptedPrompter';
import { activateWorkbench, get, hostOk, http, runScripted, raw } from './support';


interface FeedbackRow {
  id: string;
  key: string;
  score: number | null;
  value: unknown;
  comment: string | null;
  correction: unknown;
}
interface Session {
  id: string;
  name: string;
  description: string | null;
  reference_dataset_id: string | null;
}
interface Queue {
  id: string;
  name: string;
  description: string | null;
  rubric_instructions: string | null;
}

/** A scripted prompter that also records the text each input box starts with. */
class RecordingPrompter extends ScriptedPrompter {
  readonly prefilled: (string | undefined)[] = [];
  override input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    this.prefilled.push(options.value);
    return super.input(options);
  }
}

describe('feedback, experiments, queue and project edits', function () {
  let workbench: WorkbenchApi;
  let runNode: TreeNode;
  let runId: string;
  const cleanup: (() => Promise<unknown>)[] = [];

  before(async () => {
    workbench = await activateWorkbench();
    const project = await projectNode('demo-research-agent');
    runNode = (await workbench.views.projects.provider.getChildren(project)).find((n) => n.id.startsWith('run/'))!;
    assert.ok(runNode, 'the demo project has runs');
    runId = (runNode as unknown as { run: { id: string } }).run.id;
  });

  after(async () => {
    for (const undo of cleanup.reverse()) await undo().catch(() => undefined);
    workbench.views.projects.refresh();
    workbench.views.queues.refresh();
  });

  async function projectNode(name: string): Promise<TreeNode> {
    const node = (await workbench.views.projects.provider.getChildren()).find((n) => (n as unknown as { project?: { name: string } }).project?.name === name);
    assert.ok(node, `the project ${name} is in the tree`);
    return node;
  }

  /** Runs a command with scripted answers; all of them must be used. Returns the script and the notifications. */
  const run = (command: string, answers: Answer[], ...args: unknown[]) => runScripted(workbench, command, new RecordingPrompter(answers), ...args);

  const feedbackOf = (key: string) => get<FeedbackRow[]>(`/feedback?run=${runId}&key=${key}`);

  describe('feedback on a run', () => {
    it('adds feedback with a score, a comment and a JSON correction', async () => {
      const { errors, infos } = await run(
        'langsmith.addFeedback',
        [{ input: ' ext_quality ' }, { input: '0.75' }, { input: 'mostly right' }, { input: '{"answer": "Paris"}' }],
        runNode,
      );
      assert.deepEqual(errors, []);
      assert.deepEqual(infos, [`Added “ext_quality” feedback to “${(runNode as unknown as { run: { name: string } }).run.name}”.`]);
      const [f, ...more] = await feedbackOf('ext_quality');
      assert.equal(more.length, 0);
      assert.equal(f.score, 0.75);
      assert.equal(f.comment, 'mostly right');
      assert.deepEqual(f.correction, { answer: 'Paris' });
    });

    it('asks for a text value only when no score is given; a correction may be plain text', async () => {
      const { script } = await run(
        'langsmith.addFeedback',
        [{ input: 'ext_label' }, { input: '' }, { input: 'helpful' }, { input: '' }, { input: 'Say “Paris”.' }],
        runNode,
      );
      assert.match(script.asked[2], /^Value/);
      const [f] = await feedbackOf('ext_label');
      assert.equal(f.score, null);
      assert.equal(f.value, 'helpful');
      assert.equal(f.comment, null);
      assert.equal(f.correction, 'Say “Paris”.');
    });

    it('adds feedback to a run in an annotation queue, as a reviewer would', async () => {
      const queue = (await workbench.views.queues.provider.getChildren()).find((n) => n.treeItem().label === 'demo-review');
      assert.ok(queue, 'the demo queue is in the tree');
      const [mine] = await workbench.views.queues.provider.getChildren(queue);
      const [queued] = await workbench.views.queues.provider.getChildren(mine);
      const queuedRunId = (queued as unknown as { run: { id: string } }).run.id;
      await run('langsmith.addFeedback', [{ input: 'ext_review' }, { input: '1' }, { input: 'grounded' }, { input: '' }], queued);
      const [f, ...more] = await get<FeedbackRow[]>(`/feedback?run=${queuedRunId}&key=ext_review`);
      assert.equal(more.length, 0);
      assert.equal(f.score, 1);
      assert.equal(f.comment, 'grounded');
      assert.equal(f.correction, null);
    });

    for (const [bad, message] of [
      ['', 'Enter a feedback key, e.g. correctness.'],
      ['user score', 'A feedback key has no spaces: use _ or -, e.g. user_score.'],
      ['k'.repeat(101), 'Keep the feedback key to 100 characters or fewer.'],
    ] as const) {
      it(`refuses the feedback key “${bad.slice(0, 12)}” with a clear message and adds nothing`, async () => {
        const before = await get<FeedbackRow[]>(`/feedback?run=${runId}`);
        const { script } = await run('langsmith.addFeedback', [{ input: bad }], runNode);
        assert.deepEqual(script.rejected, [message]);
        assert.deepEqual(await get<FeedbackRow[]>(`/feedback?run=${runId}`), before);
      });
    }

    it('refuses a score that is not a number and adds nothing', async () => {
      const { script } = await run('langsmith.addFeedback', [{ input: 'ext_bad_score' }, { input: 'good' }], runNode);
      assert.deepEqual(script.rejected, ['The score is a number such as 1, 0 or 0.75; leave it empty to give a text value instead.']);
      assert.deepEqual(await feedbackOf('ext_bad_score'), []);
    });

    it('refuses a correction that starts like JSON but does not parse, and adds nothing', async () => {
      const { script } = await run(
        'langsmith.addFeedback',
        [{ input: 'ext_bad_correction' }, { input: '1' }, { input: '' }, { input: '{"answer": ' }],
        runNode,
      );
      assert.equal(script.rejected.length, 1);
      assert.match(script.rejected[0], /^The correction starts like JSON but does not parse \(.+\); fix it or write plain text\.$/);
      assert.deepEqual(await feedbackOf('ext_bad_correction'), []);
    });

    it('lists the run’s feedback and deletes the picked entry only after confirmation', async () => {
      const [label] = await feedbackOf('ext_label');
      const declined = await run('langsmith.showFeedback', [{ pick: 'ext_label' }, { confirm: false }], runNode);
      assert.ok(declined.script.offered[0].includes('ext_quality'), `offered: ${declined.script.offered[0].join(', ')}`);
      assert.ok(declined.script.offered[0].includes('ext_label'));
      assert.equal((await feedbackOf('ext_label')).length, 1, 'declining keeps it');

      const closed = await run('langsmith.showFeedback', [{ dismiss: true }], runNode);
      assert.deepEqual(closed.errors, []);
      assert.equal((await feedbackOf('ext_label')).length, 1, 'closing the list keeps it');

      const { script } = await run('langsmith.showFeedback', [{ pick: 'ext_label' }, { confirm: true }], runNode);
      assert.match(script.asked[1], /^Delete the “ext_label” feedback on /);
      assert.deepEqual(await feedbackOf('ext_label'), []);
      assert.equal((await raw('GET', `/feedback/${label.id}`)).status, 404);
      assert.equal((await feedbackOf('ext_quality')).length, 1, 'other feedback stays');
    });

    it('says so when a run has no feedback, without asking anything', async () => {
      const project = await projectNode('demo-research-agent');
      let bare: { run: { id: string; name: string } } | undefined;
      for (const n of await workbench.views.projects.provider.getChildren(project)) {
        const candidate = n as unknown as { run?: { id: string; name: string } };
        if (candidate.run && (await get<unknown[]>(`/feedback?run=${candidate.run.id}`)).length === 0) {
          bare = candidate as { run: { id: string; name: string } };
          break;
        }
      }
      assert.ok(bare, 'the demo has a run without feedback');
      const { script, infos } = await run('langsmith.showFeedback', [], bare);
      assert.deepEqual(script.asked, []);
      assert.deepEqual(infos, [`“${bare.run.name}” has no feedback yet.`]);
    });

    it('copies a presigned feedback link (3 hours unless told otherwise) that accepts feedback without a key', async () => {
      await vscode.env.clipboard.writeText('');
      const started = Date.now();
      const { script } = await run('langsmith.copyFeedbackLink', [{ input: 'ext_link_score' }, { input: '3' }], runNode);
      assert.equal(script.prefilled[1], '3', 'the expiry box starts at 3 hours');
      const url = await vscode.env.clipboard.readText();
      const tokens = await get<{ url: string; expires_at: string; feedback_key: string }[]>(`/feedback/tokens?run_id=${runId}`);
      const token = tokens.find((t) => t.url === url);
      assert.ok(token, `the clipboard holds the token's link: ${url}`);
      assert.equal(token.feedback_key, 'ext_link_score');
      const expires = new Date(token.expires_at).getTime() - started;
      assert.ok(Math.abs(expires - 3 * 3600_000) < 5 * 60_000, `expires in ${expires} ms`);

      const submitted = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ score: 1, comment: 'via the link' }) });
      assert.ok(submitted.ok, `posting to the link: ${submitted.status}`);
      const [f] = await feedbackOf('ext_link_score');
      assert.equal(f.score, 1);
      assert.equal(f.comment, 'via the link');
    });

    it('copies a link valid for the hours given', async () => {
      const started = Date.now();
      await run('langsmith.copyFeedbackLink', [{ input: 'ext_link_day' }, { input: '24' }], runNode);
      const url = await vscode.env.clipboard.readText();
      const token = (await get<{ url: string; expires_at: string }[]>(`/feedback/tokens?run_id=${runId}`)).find((t) => t.url === url);
      assert.ok(token);
      const expires = new Date(token.expires_at).getTime() - started;
      assert.ok(Math.abs(expires - 24 * 3600_000) < 5 * 60_000, `expires in ${expires} ms`);
    });

    for (const bad of ['0', '721', '1.5', '']) {
      it(`refuses an expiry of “${bad}” hours and creates no link`, async () => {
        const before = await get<unknown[]>(`/feedback/tokens?run_id=${runId}`);
        const { script } = await run('langsmith.copyFeedbackLink', [{ input: 'ext_link_bad' }, { input: bad }], runNode);
        assert.deepEqual(script.rejected, ['Enter a whole number of hours from 1 to 720 (30 days).']);
        assert.equal((await get<unknown[]>(`/feedback/tokens?run_id=${runId}`)).length, before.length);
      });
    }

    it('refuses a feedback link key with a space and creates no link', async () => {
      const before = await get<unknown[]>(`/feedback/tokens?run_id=${runId}`);
      const { script } = await run('langsmith.copyFeedbackLink', [{ input: 'link key' }], runNode);
      assert.deepEqual(script.rejected, ['A feedback key has no spaces: use _ or -, e.g. user_score.']);
      assert.equal((await get<unknown[]>(`/feedback/tokens?run_id=${runId}`)).length, before.length);
    });
  });

  describe('comparative experiments', () => {
    let first: Session;
    let second: Session;
    let otherDataset: Session;

    before(async () => {
      [first] = await get<Session[]>('/sessions?name=demo-qa-experiment-1');
      assert.ok(first.reference_dataset_id, 'the demo experiment has a reference dataset');
      second = await http<Session>('POST', '/sessions', { name: 'ext-test-experiment-2', reference_dataset_id: first.reference_dataset_id });
      const [chat] = await get<{ id: string }[]>('/datasets?name=demo-chat-transcripts');
      otherDataset = await http<Session>('POST', '/sessions', { name: 'ext-test-experiment-chat', reference_dataset_id: chat.id });
      cleanup.push(
        () => http('DELETE', `/sessions/${second.id}`),
        () => http('DELETE', `/sessions/${otherDataset.id}`),
      );
      workbench.views.projects.refresh();
    });

    const comparisons = () => get<{ name: string; description: string | null; experiments_info: { id: string }[] }[]>(`/datasets/${first.reference_dataset_id}/comparative`);

    async function refused(nodes: TreeNode[], message: string): Promise<void> {
      const before = await comparisons();
      const client = await workbench.clients.client();
      const requests = client.http.stats.requests;
      const { script, errors } = await run('langsmith.compareExperiments', [], nodes[0], nodes);
      assert.deepEqual(errors, [message]);
      assert.deepEqual(script.asked, [], 'nothing is asked');
      assert.equal(client.http.stats.requests, requests, 'no request is made');
      assert.deepEqual(await comparisons(), before);
    }

    it('refuses a single experiment', async () => {
      await refused([await projectNode('demo-qa-experiment-1')], 'Select two or more experiment projects (Ctrl/Cmd-click) to compare them.');
    });

    it('refuses experiments of different datasets', async () => {
      await refused(
        [await projectNode('demo-qa-experiment-1'), await projectNode('ext-test-experiment-chat')],
        'The selected experiments were run on different datasets; only experiments of the same dataset can be compared.',
      );
    });

    it('refuses a project that is not an experiment', async () => {
      await refused(
        [await projectNode('demo-qa-experiment-1'), await projectNode('demo-research-agent')],
        '“demo-research-agent” is not an experiment (it has no reference dataset); select experiment projects only.',
      );
    });

    it('refuses an empty comparison name and creates nothing', async () => {
      const nodes = [await projectNode('demo-qa-experiment-1'), await projectNode('ext-test-experiment-2')];
      const before = await comparisons();
      const { script } = await run('langsmith.saveComparison', [{ input: '  ' }], nodes[0], nodes);
      assert.deepEqual(script.rejected, ['Give the comparison a name.']);
      assert.deepEqual(await comparisons(), before);
    });

    it('compares two experiments of the same dataset, named after them by default', async () => {
      const nodes = [await projectNode('demo-qa-experiment-1'), await projectNode('ext-test-experiment-2')];
      const { script, errors } = await run(
        'langsmith.saveComparison',
        [{ input: 'demo-qa-experiment-1 vs ext-test-experiment-2' }, { input: 'made by a test' }],
        nodes[0],
        nodes,
      );
      assert.deepEqual(errors, []);
      assert.equal(script.prefilled[0], 'demo-qa-experiment-1 vs ext-test-experiment-2');
      const found = (await comparisons()).filter((c) => c.name === 'demo-qa-experiment-1 vs ext-test-experiment-2');
      assert.equal(found.length, 1);
      assert.equal(found[0].description, 'made by a test');
      assert.deepEqual(found[0].experiments_info.map((e) => e.id).sort(), [first.id, second.id].sort());
    });
  });

  describe('annotation queue and project edits', () => {
    let queue: Queue;

    before(async () => {
      queue = await http<Queue>('POST', '/annotation-queues', { name: 'ext-edit-queue', description: 'before', rubric_instructions: 'old rubric' });
      cleanup.push(() => http('DELETE', `/annotation-queues/${queue.id}`));
      workbench.views.queues.refresh();
    });

    async function queueNode(): Promise<TreeNode> {
      const node = (await workbench.views.queues.provider.getChildren()).find((n) => n.id === `queue/${queue.id}`);
      assert.ok(node, 'the queue is in the tree');
      return node;
    }

    it('Edit Queue opens the queue’s settings panel, which starts from the current name, description and rubric', async () => {
      await vscode.commands.executeCommand('langsmith.editQueue', await queueNode());
      const panel = workbench.panels.panelsOf<{ queueId: string | null }>(Panels.queueSettings).find((p) => p.key.queueId === queue.id);
      assert.ok(panel, 'the settings panel of the queue is open');
      const { state } = await hostOk<{ state: { kind: string; form?: { name: string; description: string; instructions: string } } }>(panel.host, 'queueSettings/ready', {});
      assert.deepEqual([state.form?.name, state.form?.description, state.form?.instructions], ['ext-edit-queue', 'before', 'old rubric']);
      panel.host.dispose();
    });

    it('renames a project, refusing an empty name first', async () => {
      const project = await http<Session>('POST', '/sessions', { name: 'ext-rename-me' });
      cleanup.push(() => http('DELETE', `/sessions/${project.id}`));
      workbench.views.projects.refresh();

      const { script } = await run('langsmith.renameProject', [{ input: '   ' }], await projectNode('ext-rename-me'));
      assert.deepEqual(script.rejected, ['Give the project a name.']);
      assert.equal((await get<Session>(`/sessions/${project.id}`)).name, 'ext-rename-me');

      const renamed = await run('langsmith.renameProject', [{ input: 'ext-renamed' }], await projectNode('ext-rename-me'));
      assert.deepEqual(renamed.script.prefilled, ['ext-rename-me']);
      assert.equal((await get<Session>(`/sessions/${project.id}`)).name, 'ext-renamed');
      await projectNode('ext-renamed');
    });
  });
});
