// What the reviewer does to an item: Done (the review written as feedback, one per rubric key, then my status),
// Requeue, Remove, add its run to a dataset, and the links out (its trace, its thread, the queue's settings,
// LangSmith).
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { prompter } from '../../common/prompter';
import { Commands } from '../../constants';
import type { Moved, Review } from '../../protocol/review';
import { RequestError } from '../../protocol/router';
import { feedbackItem } from '../run/traceSession';
import type { ReviewSession } from './session';
import { feedbackId } from './shapes';

/** The actions of an open review panel, over its session. */
export class ReviewActions {
  constructor(private readonly s: ReviewSession) {}

  /** Done: one feedback per filled rubric key (the comment and correction with the first), then completed for me. */
  async done(itemId: string, review: Review, signal: AbortSignal): Promise<Moved> {
    const info = this.s.info ?? (await this.s.readQueue(signal));
    const filled = new Map(review.fields.filter((f) => f.score !== null || (f.value !== null && f.value.trim() !== '')).map((f) => [f.key, f]));
    const missing = info.rubric.filter((r) => r.required && !filled.has(r.key)).map((r) => r.key);
    if (missing.length) throw new RequestError('invalidParams', vscode.l10n.t('Fill in the required {0} before Done.', missing.join(', ')));
    for (const f of filled.values()) {
      const field = info.rubric.find((r) => r.key === f.key);
      if (field?.config.type === 'continuous' && f.score !== null) {
        const { min, max } = field.config;
        if ((min !== null && f.score < min) || (max !== null && f.score > max))
          throw new RequestError('invalidParams', vscode.l10n.t('{0} must be between {1} and {2}.', f.key, String(min ?? '−∞'), String(max ?? '∞')));
      }
    }
    const correction = review.correction;
    if (correction !== null && (typeof correction !== 'object' || Array.isArray(correction)))
      throw new RequestError('invalidParams', vscode.l10n.t('The corrected outputs must be a JSON object, like the run’s outputs.'));
    const known = this.s.known.get(itemId);
    const runId = known?.item.run_id;
    if (!runId) throw new RequestError('requestFailed', vscode.l10n.t('This item has no run to write feedback on.'));
    const comment = review.comment?.trim() ? review.comment : null;
    const entries = [...filled.values()];
    if (!entries.length && (comment || correction !== null)) entries.push({ key: 'note', score: null, value: null });
    const attempt = this.s.attempts.get(itemId) ?? crypto.randomUUID();
    this.s.attempts.set(itemId, attempt);
    const source = { annotation_queue_id: this.s.queueId, queue_item_id: itemId };
    const written = await Promise.all(
      entries.map((f, i) =>
        this.s.clients.call((c) =>
          c.feedback.create({
            runId,
            key: f.key,
            ...(f.score !== null ? { score: f.score } : {}),
            ...(f.value !== null && f.value !== '' ? { value: f.value } : {}),
            ...(i === 0 && comment ? { comment } : {}),
            ...(i === 0 && correction !== null ? { correction } : {}),
            feedbackSourceType: 'app',
            sourceInfo: source,
            feedbackId: feedbackId(attempt, f.key),
            signal,
          }),
        ),
      ),
    );
    const status = await this.s.clients.call((c) => c.annotationQueues.items.setStatus(itemId, 'completed', { signal }));
    this.s.mine.set(itemId, 'completed');
    this.s.attempts.delete(itemId);
    await this.s.drafts.set(itemId, null);
    // The queue's row in the tree counts it as done.
    this.s.services.changes.publish({ kind: 'queue', queueId: this.s.queueId, items: true });
    const counts = this.s.countsAfter(known?.section, status.is_archived ? 'archived' : 'needs_others_review');
    if (known) known.section = status.is_archived ? 'archived' : 'needs_others_review';
    return this.s.moveOn(itemId, counts, written.map(feedbackItem), (left) => (left === 1 ? vscode.l10n.t('Done · 1 left') : vscode.l10n.t('Done · {0} left', left)), signal);
  }

  /** Requeue: to the end of my order; the next item shows. */
  async requeue(itemId: string, signal: AbortSignal): Promise<Moved> {
    await this.s.clients.call((c) => c.annotationQueues.items.requeue(itemId, { signal }));
    this.s.mine.set(itemId, 'viewed');
    // Still mine to review, at the end: the counts are as they were.
    const counts = this.s.known.get(itemId)?.section === 'needs_my_review' && this.s.lastCounts ? { ...this.s.lastCounts } : null;
    return this.s.moveOn(itemId, counts, [], () => vscode.l10n.t('Sent to the end of your queue'), signal);
  }

  async remove(itemId: string, signal: AbortSignal): Promise<{ removed: boolean; moved: Moved | null }> {
    const name = this.s.known.get(itemId)?.run?.name ?? itemId;
    const ok = await prompter().confirm(
      vscode.l10n.t('Remove “{0}” from the queue “{1}”?', name, this.s.info?.name ?? ''),
      vscode.l10n.t('The run stays in its project; its feedback is kept.'),
      vscode.l10n.t('Remove'),
    );
    if (!ok) return { removed: false, moved: null };
    // What follows it must be known before it is gone.
    if (!this.s.ahead.has(itemId)) this.s.ahead.set(itemId, this.s.neighbourId(itemId, 'next', signal).catch(() => null));
    await this.s.ahead.get(itemId);
    await this.s.clients.call((c) => c.annotationQueues.items.delete(this.s.queueId, [itemId], { signal }));
    await this.s.drafts.set(itemId, null);
    this.s.services.changes.publish({ kind: 'queue', queueId: this.s.queueId, items: true });
    const counts = this.s.countsAfter(this.s.known.get(itemId)?.section, null);
    this.s.known.delete(itemId);
    return { removed: true, moved: await this.s.moveOn(itemId, counts, [], () => vscode.l10n.t('Removed from the queue'), signal) };
  }

  async addToDataset(itemId: string, outputs: unknown, choose: boolean, signal: AbortSignal) {
    const known = this.s.known.get(itemId);
    const runId = known?.item.run_id;
    if (!runId) throw new RequestError('requestFailed', vscode.l10n.t('This item has no run to add to a dataset.'));
    if (outputs !== null && (typeof outputs !== 'object' || Array.isArray(outputs)))
      throw new RequestError('invalidParams', vscode.l10n.t('The corrected outputs must be a JSON object, like the run’s outputs.'));
    const run = known.run?.inputs !== undefined && known.run.outputs !== undefined ? known.run : await this.s.clients.call((c) => c.runs.read(runId, { signal }));
    let dataset = choose ? null : (this.s.info?.defaultDataset ?? null);
    if (!dataset) {
      dataset = await this.pickDataset(run.name ?? runId);
      if (!dataset) return { example: null, message: null };
    }
    const target = dataset;
    const example = await this.s.clients.call((c) =>
      c.examples.createOne({
        datasetId: target.id,
        inputs: (run.inputs ?? {}) as Record<string, unknown>,
        outputs: ((outputs ?? run.outputs) ?? undefined) as Record<string, unknown> | undefined,
        sourceRunId: runId,
        signal,
      }),
    );
    this.s.services.changes.publish({ kind: 'dataset', datasetId: target.id });
    return { example: { id: example.id, datasetId: target.id, datasetName: target.name }, message: vscode.l10n.t('Added to “{0}” as an example.', target.name).slice(0, 2000) };
  }

  private async pickDataset(runName: string): Promise<{ id: string; name: string } | null> {
    type Item = vscode.QuickPickItem & { dataset: { id: string; name: string } };
    const items = this.s.clients.call(async (c) => {
      const list: Item[] = [];
      for await (const d of c.datasets.list({ limit: 500 })) list.push({ label: d.name, description: d.description ?? undefined, dataset: { id: d.id, name: d.name.slice(0, 2000) } });
      return list;
    });
    const picked = await prompter().pick(items, { title: vscode.l10n.t('Add “{0}” to a dataset', runName), placeholder: vscode.l10n.t('Choose a dataset') });
    return picked?.dataset ?? null;
  }

  async act(action: 'openTrace' | 'openThread' | 'editQueue' | 'openInLangSmith', runId: string | undefined, signal: AbortSignal) {
    switch (action) {
      case 'openTrace': {
        if (!runId) throw new RequestError('invalidParams', vscode.l10n.t('Which run’s trace?'));
        const run = [...this.s.known.values()].find((k) => k.run?.id === runId)?.run;
        await vscode.commands.executeCommand(Commands.openTrace, { runId, projectId: run?.session_id ?? undefined });
        return { message: null };
      }
      case 'openThread': {
        // The item shown (the page does not name the thread).
        const k = this.s.shown ? this.s.known.get(this.s.shown) : undefined;
        if (!k?.item.thread_id || !k.item.project_id) throw new RequestError('requestFailed', vscode.l10n.t('This item is not a thread.'));
        await vscode.commands.executeCommand(Commands.openThread, { threadId: k.item.thread_id, projectId: k.item.project_id });
        return { message: null };
      }
      case 'editQueue':
        await vscode.commands.executeCommand(Commands.editQueue, { queueId: this.s.queueId });
        return { message: null };
      case 'openInLangSmith': {
        if (!runId) throw new RequestError('invalidParams', vscode.l10n.t('Which run?'));
        const run = [...this.s.known.values()].find((k) => k.run?.id === runId)?.run ?? (await this.s.clients.call((c) => c.runs.read(runId, { signal })));
        const projectId = run.session_id;
        if (!projectId) throw new RequestError('requestFailed', vscode.l10n.t('This run does not name its project, so it has no page link.'));
        const url = await this.s.clients.call(async (c) => `${await c.links.project({ projectId, signal })}?peek=${encodeURIComponent(runId)}`);
        await vscode.env.openExternal(vscode.Uri.parse(url));
        return { message: null };
      }
    }
  }
}
