// The review panel's shapes: the queue and its rubric as the page shows them (each key's feedback config), an
// item's row, the id of a feedback written by a review, and a load problem.
import * as crypto from 'node:crypto';
import type { AnnotationQueue, FeedbackConfigEntry, QueueItem, QueueItemSection, Run } from '../../client';
import type { FeedbackConfig, ItemSummary, QueueInfo, RubricField } from '../../protocol/review';
import { askedText } from '../../text/format';
import { epochMs } from '../run/rows';

/** A feedback config as the form uses it; a key without one is free text. */
export function configOf(entry: FeedbackConfigEntry | undefined): { config: FeedbackConfig; lowerIsBetter: boolean } {
  const c = entry?.feedback_config;
  const lowerIsBetter = entry?.is_lower_score_better === true;
  if (c?.type === 'continuous') return { config: { type: 'continuous', min: c.min ?? null, max: c.max ?? null }, lowerIsBetter };
  if (c?.type === 'categorical') {
    return { config: { type: 'categorical', categories: (c.categories ?? []).slice(0, 100).map((k) => ({ value: k.value, label: (k.label ?? String(k.value)).slice(0, 2000) })) }, lowerIsBetter };
  }
  return { config: { type: 'freeform' }, lowerIsBetter };
}

const descriptions = (r: Record<string, string> | null | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(r ?? {}).map(([k, v]) => [k, String(v).slice(0, 2000)]));

export function queueInfo(q: AnnotationQueue, configs: Map<string, FeedbackConfigEntry>, dataset: { id: string; name: string } | null): QueueInfo {
  const rubric: RubricField[] = (q.rubric_items ?? []).slice(0, 100).map((item) => ({
    key: item.feedback_key.slice(0, 200),
    description: item.description ?? null,
    required: item.is_required === true,
    ...configOf(configs.get(item.feedback_key)),
    scoreDescriptions: descriptions(item.score_descriptions),
    valueDescriptions: descriptions(item.value_descriptions),
  }));
  return {
    id: q.id,
    name: q.name.slice(0, 2000),
    description: q.description ?? null,
    instructions: q.rubric_instructions ?? null,
    rubric,
    defaultDataset: dataset,
    reviewersPerItem: q.num_reviewers_per_item ?? null,
    reservations: q.enable_reservations !== false,
    reservationMinutes: q.reservation_minutes ?? null,
  };
}

export function summaryOf(item: QueueItem, section: QueueItemSection, run: Pick<Run, 'name' | 'inputs'> | undefined, mine: 'viewed' | 'completed' | null): ItemSummary {
  const thread = item.item_type === 'THREAD' || (!item.run_id && !!item.thread_id);
  return {
    id: item.id,
    kind: thread ? 'thread' : 'run',
    runId: item.run_id ?? null,
    threadId: item.thread_id ? item.thread_id.slice(0, 2000) : null,
    projectId: item.project_id ?? null,
    name: (thread ? (item.thread_id ?? '') : (run?.name ?? '')).slice(0, 2000),
    preview: run ? askedText(run.inputs, 120) : '',
    section,
    myStatus: mine ?? (section === 'needs_my_review' ? (item.last_reviewed_time ? 'viewed' : null) : (item.completed_by?.length ?? 0) > 0 ? 'completed' : null),
    reservedByOther: section === 'needs_others_review' && (item.reserved_by?.length ?? 0) > 0 && !(item.completed_by?.length ?? 0),
    addedAt: epochMs(item.effective_added_at ?? item.added_at),
  };
}

/** A feedback id made from the review attempt and the key, so a repeated Done writes each entry once. */
export function feedbackId(attempt: string, key: string): string {
  const h = crypto.createHash('sha256').update(`${attempt}\u0000${key}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

