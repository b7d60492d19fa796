// Annotation queues and their items as stored: the row shapes, the lookup of a queue, and the reads of one item
// with the caller's status. The writes are in queues.ts (queues, reviewers), queueItems.ts (adding and
// removing items) and queueReview.ts (review status, sections, reservations).
import type { Ctx, Tenant, User } from '../context';
import { notFound } from '../errors';

export interface QueueRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  rubric_instructions: string | null;
  rubric_items: string | null;
  created_at: string;
  updated_at: string;
  default_dataset: string | null;
  num_reviewers_per_item: number | null;
  enable_reservations: number | null;
  reservation_minutes: number | null;
  metadata: string | null;
  reviewer_access_mode: string | null;
  queue_type: string | null;
}

export interface QueueRunRow {
  seq: number;
  id: string;
  queue_id: string;
  run_id: string;
  added_at: string;
  last_reviewed_time: string | null;
  source_proposed_example_id: string | null;
  /** How many reviewers completed it, and when the last did. */
  completed_count: number;
  last_completed_at: string | null;
  /** Who holds it (a reservation) and until when; a past time means nobody. */
  reserved_by: string | null;
  reserved_until: string | null;
  /** 'THREAD' for a conversation thread (thread_id in project_id); null or 'RUN' for a run. */
  item_type: string | null;
  thread_id: string | null;
  project_id: string | null;
  /** The caller's status: 'viewed', 'completed' or null (not looked at, or re-shown). */
  status: string | null;
  status_at: string | null;
  /** Where the caller's 'viewed' status moved the item in the caller's order (LangSmith's effective_added_at). */
  override_added_at: string | null;
}

/** A queue item with what the answers need of its run: its project and start time. */
export interface QueueItem extends QueueRunRow {
  session_id: string;
  run_start_time: string | null;
}

export function getQueue(ctx: Ctx, tenant: Tenant, id: string): QueueRow {
  const q = ctx.st.one<QueueRow>('SELECT * FROM annotation_queues WHERE id = ? AND tenant_id = ?', id, tenant.id);
  if (!q) throw notFound(`Annotation queue ${id}`);
  return q;
}

// Every item query joins the caller's status (`me`); its user id is the first parameter.
export const ITEM_COLUMNS = `qr.seq, qr.id, qr.queue_id, qr.run_id, qr.added_at, qr.last_reviewed_time, qr.source_proposed_example_id,
  qr.completed_count, qr.last_completed_at, qr.reserved_by, qr.reserved_until, qr.item_type, qr.thread_id, qr.project_id,
  me.status AS status, me.status_at AS status_at, me.override_added_at AS override_added_at`;
export const FROM = 'queue_runs qr LEFT JOIN queue_item_status me ON me.item_id = qr.id AND me.user_id = ?';
export const ITEM_SELECT = `SELECT ${ITEM_COLUMNS}, COALESCE(r.session_id, qr.project_id) AS session_id, r.start_time AS run_start_time
  FROM ${FROM} LEFT JOIN runs r ON r.id = qr.run_id`;
/** The caller's order: by their effective time added (their 'viewed' may move an item back), then insertion. */
export const EFFECTIVE = 'COALESCE(me.override_added_at, qr.added_at)';
export const ORDER = `ORDER BY ${EFFECTIVE}, qr.seq`;

/** The item of a queue with this id, or (as a convenience of the legacy routes) the item of this run. */
export function findItem(ctx: Ctx, userId: string, queueId: string, itemOrRunId: string, alsoRunId: boolean): QueueItem | undefined {
  return alsoRunId
    ? ctx.st.one<QueueItem>(`${ITEM_SELECT} WHERE qr.queue_id = ? AND (qr.id = ? OR qr.run_id = ?)`, userId, queueId, itemOrRunId, itemOrRunId)
    : ctx.st.one<QueueItem>(`${ITEM_SELECT} WHERE qr.queue_id = ? AND qr.id = ?`, userId, queueId, itemOrRunId);
}

export function getItem(ctx: Ctx, user: User, queueId: string, itemId: string, alsoRunId = false): { queue: QueueRow; item: QueueItem } {
  const queue = getQueue(ctx, user.tenant, queueId);
  const item = findItem(ctx, user.id, queueId, itemId, alsoRunId);
  if (!item) throw notFound(`Item ${itemId} in annotation queue ${queueId}`);
  return { queue, item };
}

/** An item found by its id alone (the status routes name no queue), in one of the workspace's queues. */
export function getItemAnywhere(ctx: Ctx, user: User, itemId: string): { queue: QueueRow; item: QueueItem } {
  const item = ctx.st.one<QueueItem>(
    `${ITEM_SELECT} JOIN annotation_queues q ON q.id = qr.queue_id WHERE qr.id = ? AND q.tenant_id = ?`, user.id, itemId, user.tenant.id,
  );
  if (!item) throw notFound(`Annotation queue item ${itemId}`);
  return { queue: getQueue(ctx, user.tenant, item.queue_id), item };
}
