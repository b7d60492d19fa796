// The shapes of the annotation queue routes (queues.ts, queuesItems.ts): their answers, and the schemas
// their bodies are checked with.
import { z } from 'zod';
import type { User } from '../context';
import { bodyTime, qBool, qEnum, uuid } from '../route';
import type { NewItem } from '../store/queueItems';
import { holderOf, isArchived, type QueueRunInfo, type Scope } from '../store/queueReview';
import type { QueueItem, QueueRow } from '../store/queueRows';
import { jsonOrNull } from '../json';
import type { RunRow } from '../store/runs';
import { runOut } from './runsShape';

// ---- answers ----

/** A queue as LangSmith's AnnotationQueueSchema has it: every field present, null when unset. */
export function queueOut(q: QueueRow, totalRuns?: number, reviewers: User[] = []) {
  return {
    id: q.id,
    name: q.name,
    description: q.description,
    // LangSmith answers the rubric only on reads of one queue; this server has always sent it on every
    // answer, and the extension's queue list shows it, so it stays.
    rubric_instructions: q.rubric_instructions,
    rubric_items: jsonOrNull(q.rubric_items) ?? [],
    tenant_id: q.tenant_id,
    created_at: q.created_at,
    updated_at: q.updated_at,
    queue_type: q.queue_type ?? 'single',
    default_dataset: q.default_dataset,
    num_reviewers_per_item: q.num_reviewers_per_item,
    enable_reservations: q.enable_reservations == null ? null : q.enable_reservations === 1,
    reservation_minutes: q.reservation_minutes,
    reviewer_access_mode: q.reviewer_access_mode ?? 'any',
    metadata: jsonOrNull(q.metadata),
    source_rule_id: null,
    run_rule_id: null,
    // AssignedReviewerSchema: the workspace's users assigned with POST …/annotation-queues/{id}/reviewers.
    assigned_reviewers: reviewers.map((u) => ({ id: u.id, name: u.name, email: null })),
    ...(totalRuns !== undefined ? { total_runs: totalRuns } : {}),
  };
}

/** A queue item as the add-runs routes answer it (AnnotationQueueRunSchema). */
export const queueRunOut = (r: QueueItem) => ({
  id: r.id,
  run_id: r.run_id,
  queue_id: r.queue_id,
  added_at: r.added_at,
  last_reviewed_time: r.last_reviewed_time,
  source_proposed_example_id: r.source_proposed_example_id,
});

/** What the reviewer-status routes answer: the caller's status, and whether the item is archived now. */
export function statusOut(s: Scope, item: QueueItem) {
  return {
    queue_item_id: item.id,
    ...(item.status ? { status: item.status } : {}),
    is_archived: isArchived(s, item),
    ...(item.override_added_at ? { override_added_at: item.override_added_at } : {}),
  };
}

// ---- inputs ----

/** One rubric item (AnnotationQueueRubricItemSchema): a feedback key reviewers score, with how to score it. */
export const RubricItem = z.strictObject({
  feedback_key: z.string().min(1),
  description: z.string().nullish(),
  value_descriptions: z.record(z.string(), z.string()).nullish(),
  score_descriptions: z.record(z.string(), z.string()).nullish(),
  is_required: z.boolean().nullish(),
  is_assertion: z.boolean().nullish(),
  regex_validator: z.string().nullish(),
});

/** Rubric items, each stored with every field LangSmith answers (null when not given); a key only once. */
export const RubricItems = z
  .array(RubricItem)
  .superRefine((items, c) => {
    const seen = new Set<string>();
    items.forEach((it, i) => {
      if (seen.has(it.feedback_key)) c.addIssue({ code: 'custom', path: [i, 'feedback_key'], message: `"${it.feedback_key}" is already in the rubric` });
      seen.add(it.feedback_key);
    });
  })
  .transform((items) =>
    items.map((it) => ({
      feedback_key: it.feedback_key,
      description: it.description ?? null,
      value_descriptions: it.value_descriptions ?? null,
      score_descriptions: it.score_descriptions ?? null,
      is_required: it.is_required ?? null,
      is_assertion: it.is_assertion ?? null,
      ...(it.regex_validator != null ? { regex_validator: it.regex_validator } : {}),
    })),
  );

export const QueueSettings = {
  description: z.string().nullish(),
  rubric_instructions: z.string().nullish(),
  rubric_items: RubricItems.nullish(),
  default_dataset: z.uuid().nullish(),
  num_reviewers_per_item: z.int().min(1).nullish(),
  enable_reservations: z.boolean().nullish(),
  reservation_minutes: z.int().min(1).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
};

export const CreateQueue = z.strictObject({
  id: z.uuid().nullish(),
  name: z.string().min(1),
  ...QueueSettings,
  reviewer_access_mode: z.string().nullish(),
  queue_type: z.enum(['single', 'pairwise']).nullish(),
  session_ids: z.array(z.uuid()).nullish(),
  // Sent by some clients; the server sets these.
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
});

/** An edit: a name, when given, still not empty; the type of a queue stays. */
export const UpdateQueue = z.strictObject({
  name: z.string().min(1).nullish(),
  ...QueueSettings,
  reviewer_access_mode: z.enum(['any', 'assigned']).nullish(),
});

/** Runs to add: ids, or objects with a run id (and a proposal it came from, or the run's old lookup key). */
export const AddRuns = z.union([
  z.array(uuid()),
  z.array(
    z.strictObject({
      run_id: z.uuid(),
      source_proposed_example_id: z.uuid().nullish(),
      session_id: z.uuid().nullish(),
      parent_run_id: z.uuid().nullish(),
      start_time: z.string().nullish(),
      trace_id: z.uuid().nullish(),
      trace_tier: z.enum(['longlived', 'shortlived']).nullish(),
    }),
  ),
]);
export const RunKeys = z.array(
  z.strictObject({
    run_id: z.uuid(),
    session_id: z.uuid(),
    start_time: z.string(),
    source_proposed_example_id: z.uuid().nullish(),
  }),
);

export const toNewItems = (body: z.infer<typeof AddRuns>): NewItem[] =>
  body.map((r) =>
    typeof r === 'string' ? { run_id: r } : { run_id: r.run_id, session_id: r.session_id ?? undefined, source_proposed_example_id: r.source_proposed_example_id },
  );

/** The legacy routes' review filters (`completed`: done by this reviewer, archived or not). */
export const LEGACY_STATUSES = ['needs_my_review', 'needs_others_review', 'completed'] as const;
export const LegacyStatus = qEnum([...LEGACY_STATUSES]).transform((s) => s as (typeof LEGACY_STATUSES)[number] | undefined);
export const RetentionQuery = z.object({ extend_trace_retention: qBool() });
export const QueueRunParams = z.object({ id: uuid(), queueRunId: uuid() });

/** A reviewer status: viewed, completed, or null to re-show the item. */
export const StatusBody = z.strictObject({
  status: z.enum(['viewed', 'completed']).nullish(),
  override_added_at: bodyTime().nullish(),
});

/** A queued run as the legacy run routes answer it (RunSchemaWithAnnotationQueueInfo). */
export function runWithQueueInfo(r: RunRow & QueueRunInfo, s: Scope, completedBy: string[]) {
  const holder = holderOf(s, { reserved_by: r.item_reserved_by, reserved_until: r.item_reserved_until });
  return {
    ...runOut(r),
    queue_run_id: r.queue_run_id,
    added_at: r.added_at,
    last_reviewed_time: r.last_reviewed_time,
    effective_added_at: r.effective_added_at,
    source_proposed_example_id: r.source_proposed_example_id,
    // User ids: who completed it, and who holds it now (see store/queues.ts).
    completed_by: completedBy,
    reserved_by: holder ? [holder] : [],
  };
}
