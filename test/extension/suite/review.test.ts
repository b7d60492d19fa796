// The review panel in the extension host against the local server: Review Queue opens a queue's panel at the
// first item needing my review, with the rubric built from the workspace's feedback configs; the panel's
// handlers (reached through its router, as the page reaches them) list items by section, move between them,
// keep drafts across a closed panel, refuse Done without the required keys, write one feedback per key with the
// queue as source and mark the item completed for me, requeue, remove after asking, and add the run with its
// corrected outputs to the queue's default dataset. The queue and its runs are made here over HTTP.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { Counts, ItemSummary, ItemView, Moved, ReviewKey, ReviewState } from '../../../src/protocol/review';
import type { TraceKey } from '../../../src/protocol/trace';
import { Panels } from '../../../src/webviews/descriptors';
import { ScriptedPrompter } from './scriptedPrompter';
import { activateWorkbench, get, hostCall, hostOk, http, runScripted } from './support';

/** Polls until `probe` gives a value (10 s at most). */
async function eventually<T>(probe: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await probe();
    if (v !== null) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('not within 10 s');
}

/** A payload as plain JSON (the cut values are objects without a prototype). */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

describe('annotation review', function () {
  this.timeout(60_000);
  let workbench: WorkbenchApi;
  const tag = randomUUID().slice(0, 8);
  const project = `review-${tag}`;
  const runIds = [0, 1, 2, 3].map(() => randomUUID());
  const childId = randomUUID();
  let queueId: string;
  let datasetId: string;
  const itemOf = new Map<string, string>();

  const reviewPanel = () => {
    const found = workbench.panels.panelsOf<ReviewKey>(Panels.review).find((p) => p.key.queueId === queueId);
    assert.ok(found, 'the review panel is open');
    return found.host;
  };
  const ready = async () => (await hostOk<{ state: ReviewState }>(reviewPanel(), 'review/ready', {})).state;

  before(async () => {
    workbench = await activateWorkbench();
    const t0 = Date.now() - 60_000;
    for (const [i, id] of runIds.entries()) {
      await http('POST', '/runs', {
        id, name: `Answer${i}`, run_type: 'chain', session_name: project, trace_id: id, dotted_order: `20250101T00000${i}000000Z${id}`,
        start_time: new Date(t0 + i * 1000).toISOString(), end_time: new Date(t0 + i * 1000 + 500).toISOString(),
        inputs: { question: `Question number ${i}?` }, outputs: { answer: `Answer ${i}.` },
      });
    }
    await http('POST', '/runs', {
      id: childId, name: 'ChatModel', run_type: 'llm', session_name: project, trace_id: runIds[0], parent_run_id: runIds[0],
      dotted_order: `20250101T000000000000Z${runIds[0]}.20250101T000000100000Z${childId}`,
      start_time: new Date(t0 + 100).toISOString(), end_time: new Date(t0 + 400).toISOString(),
      inputs: { messages: [{ role: 'user', content: 'Question number 0?' }] }, outputs: { content: 'Answer 0.' },
    });
    await http('POST', '/feedback-configs', { feedback_key: `verdict-${tag}`, feedback_config: { type: 'categorical', categories: [{ value: 0, label: 'wrong' }, { value: 1, label: 'right' }] } });
    await http('POST', '/feedback-configs', { feedback_key: `quality-${tag}`, feedback_config: { type: 'continuous', min: 0, max: 5 }, is_lower_score_better: false });
    datasetId = (await http<{ id: string }>('POST', '/datasets', { name: `review-ds-${tag}` })).id;
    queueId = (
      await http<{ id: string }>('POST', '/annotation-queues', {
        name: `review-${tag}`,
        rubric_instructions: 'Is the answer right? <b>bold</b>',
        rubric_items: [
          { feedback_key: `verdict-${tag}`, description: 'Right or wrong', is_required: true, value_descriptions: { right: 'matches the facts' } },
          { feedback_key: `quality-${tag}`, description: 'How good', score_descriptions: { '5': 'perfect' } },
          { feedback_key: `notes-${tag}` },
        ],
        default_dataset: datasetId,
      })
    ).id;
    const added = await http<{ items: { id: string; run_id: string }[] }>('POST', `/v1/platform/annotation-queues/${queueId}/items`, { items: runIds.map((run_id) => ({ run_id })) });
    for (const it of added.items) itemOf.set(it.run_id, it.id);
    // Settle: the traces were written over HTTP a moment ago.
    await vscode.commands.executeCommand('langsmith.reviewQueue', { queueId });
  });

  after(async () => {
    for (const p of workbench.panels.panelsOf(Panels.review)) p.host.panel.dispose();
  });

  it('opens at the first item with the rubric from the feedback configs, the run rendered and its children', async () => {
    const state = await ready();
    assert.equal(state.kind, 'review');
    if (state.kind !== 'review') return;
    assert.equal(state.queue.instructions, 'Is the answer right? <b>bold</b>', 'instructions as they are (the page renders text)');
    assert.deepEqual(state.queue.rubric.map((r) => [r.key, r.required, r.config.type]), [[`verdict-${tag}`, true, 'categorical'], [`quality-${tag}`, false, 'continuous'], [`notes-${tag}`, false, 'freeform']]);
    const verdict = state.queue.rubric[0]!;
    assert.deepEqual(verdict.config, { type: 'categorical', categories: [{ value: 0, label: 'wrong' }, { value: 1, label: 'right' }] });
    assert.deepEqual(verdict.valueDescriptions, { right: 'matches the facts' });
    assert.deepEqual(state.queue.rubric[1]!.config, { type: 'continuous', min: 0, max: 5 });
    assert.deepEqual(state.queue.defaultDataset, { id: datasetId, name: `review-ds-${tag}` });
    assert.deepEqual(state.counts, { needs_my_review: 4, needs_others_review: 0, archived: 0 });
    const cur = state.current!;
    assert.equal(cur.item.runId, runIds[0]);
    assert.equal(cur.position, 1);
    assert.equal(cur.item.name, 'Answer0');
    assert.deepEqual(plain(cur.run?.inputs?.value), { question: 'Question number 0?' });
    assert.deepEqual(cur.trace?.runs.map((r) => r.id).sort(), [runIds[0], childId].sort(), 'the run and the runs under it');
    const child = await hostOk<{ id: string; outputs: { value: unknown } | null }>(reviewPanel(), 'review/readRun', { runId: childId });
    assert.deepEqual(plain(child.outputs?.value), { content: 'Answer 0.' });
    assert.equal(cur.item.myStatus, 'viewed', 'opening marks it viewed for me');
  });

  it('lists the items by section, and finds the next and previous ones', async () => {
    const page = await hostOk<{ items: ItemSummary[]; cursor: string | null; counts: Counts }>(reviewPanel(), 'review/items', { section: 'needs_my_review', cursor: null });
    assert.deepEqual(page.items.map((i) => i.runId), runIds);
    assert.deepEqual(page.items.map((i) => i.preview), runIds.map((_r, i) => `Question number ${i}?`));
    const next = await hostOk<{ item: ItemSummary | null }>(reviewPanel(), 'review/neighbour', { itemId: itemOf.get(runIds[1]!), direction: 'next' });
    assert.equal(next.item?.runId, runIds[2]);
    const prev = await hostOk<{ item: ItemSummary | null }>(reviewPanel(), 'review/neighbour', { itemId: itemOf.get(runIds[1]!), direction: 'previous' });
    assert.equal(prev.item?.runId, runIds[0]);
    const none = await hostOk<{ item: ItemSummary | null }>(reviewPanel(), 'review/neighbour', { itemId: itemOf.get(runIds[3]!), direction: 'next' });
    assert.equal(none.item, null);
  });

  it('keeps a draft across a closed panel', async () => {
    const itemId = itemOf.get(runIds[0]!)!;
    const draft = { fields: { [`verdict-${tag}`]: { score: 1, value: 'right' } }, comment: 'half done', correction: '', savedAt: Date.now() };
    await hostOk(reviewPanel(), 'review/saveDraft', { itemId, draft });
    reviewPanel().panel.dispose();
    await vscode.commands.executeCommand('langsmith.reviewQueue', { queueId, itemId });
    const state = await ready();
    assert.ok(state.kind === 'review');
    assert.deepEqual(state.current?.draft, draft);
  });

  it('refuses Done without the required key or with a score out of range, and writes nothing', async () => {
    const itemId = itemOf.get(runIds[0]!)!;
    const missing = await hostCall(reviewPanel(), 'review/done', { itemId, review: { fields: [{ key: `quality-${tag}`, score: 3, value: null }], comment: null, correction: null } });
    assert.ok(!missing.ok && /required verdict-/.test(missing.error.message), JSON.stringify(missing));
    const range = await hostCall(reviewPanel(), 'review/done', { itemId, review: { fields: [{ key: `verdict-${tag}`, score: 1, value: 'right' }, { key: `quality-${tag}`, score: 9, value: null }], comment: null, correction: null } });
    assert.ok(!range.ok && /between 0 and 5/.test(range.error.message), JSON.stringify(range));
    const bad = await hostCall(reviewPanel(), 'review/done', { itemId, review: { fields: [{ key: `verdict-${tag}`, score: 1, value: 'right' }], comment: null, correction: [1, 2] } });
    assert.ok(!bad.ok && /JSON object/.test(bad.error.message));
    assert.equal((await get<unknown[]>(`/feedback?run=${runIds[0]}`)).length, 0);
  });

  it('Done writes one feedback per key with the queue as source, completes the item for me and shows the next', async () => {
    const itemId = itemOf.get(runIds[0]!)!;
    const moved = await hostOk<Moved>(reviewPanel(), 'review/done', {
      itemId,
      review: { fields: [{ key: `verdict-${tag}`, score: 1, value: 'right' }, { key: `quality-${tag}`, score: 4, value: null }, { key: `notes-${tag}`, score: null, value: '' }], comment: 'Good answer', correction: { answer: 'Answer 0, corrected.' } },
    });
    assert.equal(moved.next?.item.runId, runIds[1], 'the next item, read ahead');
    assert.equal(moved.next?.position, 1);
    assert.ok(moved.next?.run, 'with its run read');
    assert.deepEqual(moved.counts, { needs_my_review: 3, needs_others_review: 0, archived: 1 });
    assert.equal(moved.message, 'Done · 3 left');
    const fb = await get<{ key: string; score: number; value: unknown; comment: string | null; correction: unknown; feedback_source: { type: string; metadata: Record<string, unknown> } }[]>(`/feedback?run=${runIds[0]}`);
    assert.deepEqual(fb.map((f) => f.key).sort(), [`quality-${tag}`, `verdict-${tag}`], 'the empty free-text key is not written');
    const verdict = fb.find((f) => f.key === `verdict-${tag}`)!;
    assert.equal(verdict.score, 1);
    assert.equal(verdict.value, 'right');
    assert.equal(verdict.comment, 'Good answer');
    assert.deepEqual(verdict.correction, { answer: 'Answer 0, corrected.' });
    assert.equal(verdict.feedback_source.type, 'app');
    assert.equal(verdict.feedback_source.metadata['annotation_queue_id'], queueId);
    const state = await ready();
    assert.ok(state.kind === 'review');
    const archived = await hostOk<{ items: ItemSummary[] }>(reviewPanel(), 'review/items', { section: 'archived', cursor: null });
    assert.deepEqual(archived.items.map((i) => i.runId), [runIds[0]]);
  });

  it('Requeue sends the item to the end of my queue', async () => {
    const moved = await hostOk<Moved>(reviewPanel(), 'review/requeue', { itemId: itemOf.get(runIds[1]!) });
    assert.equal(moved.next?.item.runId, runIds[2]);
    const mine = await hostOk<{ items: ItemSummary[] }>(reviewPanel(), 'review/items', { section: 'needs_my_review', cursor: null });
    assert.deepEqual(mine.items.map((i) => i.runId), [runIds[2], runIds[3], runIds[1]]);
  });

  it('Remove asks first, and removes only after yes', async () => {
    const itemId = itemOf.get(runIds[3]!)!;
    const no = new ScriptedPrompter([{ confirm: false }]);
    const restore = workbench.setPrompter(no);
    try {
      const kept = await hostOk<{ removed: boolean }>(reviewPanel(), 'review/remove', { itemId });
      assert.equal(kept.removed, false);
    } finally {
      restore();
    }
    assert.match(no.asked[0]!, /Remove “Answer3” from the queue/);
    const yes = new ScriptedPrompter([{ confirm: true }]);
    const restore2 = workbench.setPrompter(yes);
    try {
      const gone = await hostOk<{ removed: boolean; moved: Moved }>(reviewPanel(), 'review/remove', { itemId });
      assert.equal(gone.removed, true);
      assert.equal(gone.moved.counts.needs_my_review, 2);
    } finally {
      restore2();
    }
    assert.equal((await get<{ count: number }>(`/v1/platform/annotation-queues/${queueId}/items/count?status=all`)).count, 3);
  });

  it('Add to Dataset puts the inputs with the corrected outputs in the default dataset, linked to the run', async () => {
    const itemId = itemOf.get(runIds[2]!)!;
    await hostOk<ItemView>(reviewPanel(), 'review/open', { itemId });
    const added = await hostOk<{ example: { id: string; datasetId: string } | null; message: string }>(reviewPanel(), 'review/addToDataset', { itemId, outputs: { answer: 'Better.' }, choose: false });
    assert.equal(added.example?.datasetId, datasetId);
    const ex = await get<{ inputs: unknown; outputs: unknown; source_run_id: string }>(`/examples/${added.example!.id}`);
    assert.deepEqual(ex.inputs, { question: 'Question number 2?' });
    assert.deepEqual(ex.outputs, { answer: 'Better.' });
    assert.equal(ex.source_run_id, runIds[2]);
  });

  it('Open Trace opens the run’s trace beside the review', async () => {
    await hostOk(reviewPanel(), 'review/act', { action: 'openTrace', runId: childId });
    const trace = workbench.panels.panelsOf<TraceKey>(Panels.trace).find((p) => p.key.kind === 'trace' && p.key.traceId === runIds[0]);
    assert.ok(trace, 'the trace panel is open on the item’s trace');
    trace.host.panel.dispose();
  });

  it('Review Queue from the palette asks for the queue', async () => {
    reviewPanel().panel.dispose();
    const script = new ScriptedPrompter([{ pick: `review-${tag}` }]);
    const { errors } = await runScripted(workbench, 'langsmith.reviewQueue', script);
    assert.deepEqual(errors, []);
    assert.ok(reviewPanel());
  });

  it('a rubric saved in the queue settings reaches the open review without a reload', async () => {
    const host = reviewPanel();
    const seen: { method: string; params: any }[] = [];
    const notify = host.notify.bind(host);
    host.notify = (async (type: { method: string }, params: unknown) => {
      seen.push({ method: type.method, params });
      return notify(type as never, params as never);
    }) as typeof host.notify;
    await vscode.commands.executeCommand('langsmith.editQueue', { queueId });
    const settings = workbench.panels.panelsOf<{ queueId: string | null }>(Panels.queueSettings).find((p) => p.key.queueId === queueId)!;
    const ready = (await hostOk<{ state: { kind: string; form: any; configs: unknown[] } }>(settings.host, 'queueSettings/ready', {})).state;
    assert.equal(ready.kind, 'settings');
    const form = { ...ready.form, rubric: [...ready.form.rubric, { key: `tone-${tag}`, description: 'Polite?', required: false, scoreDescriptions: {}, valueDescriptions: {} }] };
    await hostOk(settings.host, 'queueSettings/save', { form, configs: [{ key: `tone-${tag}`, config: { type: 'freeform' }, lowerIsBetter: false }] });
    const changed = await eventually(async () => seen.find((n) => n.method === 'review/queueChanged') ?? null);
    assert.ok(changed.params.queue.rubric.some((r: { key: string }) => r.key === `tone-${tag}`), 'the new rubric item is in the review');
    settings.host.panel.dispose();
  });

  it('a thread item opens as its conversation', async () => {
    const threadId = `thread-${tag}`;
    const t0 = Date.now() - 30_000;
    for (let i = 0; i < 2; i++) {
      const id = randomUUID();
      await http('POST', '/runs', {
        id, name: 'ChatTurn', run_type: 'chain', session_name: project, trace_id: id, dotted_order: `20250102T00000${i}000000Z${id}`,
        start_time: new Date(t0 + i * 1000).toISOString(), end_time: new Date(t0 + i * 1000 + 300).toISOString(),
        inputs: { question: `Turn ${i}?` }, outputs: { answer: `Reply ${i}.` }, extra: { metadata: { thread_id: threadId } },
      });
    }
    const projectId = (await get<{ id: string }[]>(`/sessions?name=${project}`))[0]!.id;
    const added = await http<{ items: { id: string }[] }>('POST', `/v1/platform/annotation-queues/${queueId}/items`, { items: [{ item_type: 'THREAD', thread_id: threadId, project_id: projectId }] });
    const view = await hostOk<ItemView>(reviewPanel(), 'review/open', { itemId: added.items[0]!.id });
    assert.equal(view.item.kind, 'thread');
    assert.equal(view.item.threadId, threadId);
    assert.equal(view.trace, null);
    assert.deepEqual(view.thread?.turns.map((t) => plain(t.inputs?.value)), [{ question: 'Turn 0?' }, { question: 'Turn 1?' }]);
  });

  it('a queue that is gone is a problem state, not an error', async () => {
    const gone = randomUUID();
    await vscode.commands.executeCommand('langsmith.reviewQueue', { queueId: gone });
    const panel = workbench.panels.panelsOf<ReviewKey>(Panels.review).find((p) => p.key.queueId === gone)!;
    const state = (await hostOk<{ state: ReviewState }>(panel.host, 'review/ready', {})).state;
    assert.equal(state.kind, 'problem');
    assert.ok(state.kind === 'problem' && state.problem.code === 'notFound');
    panel.host.panel.dispose();
  });
});
