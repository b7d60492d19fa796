// Annotation queues: their settings (create, list, update, delete), the runs a queue made from projects holds,
// and the reviewers assigned to a queue. SQL lives here; the route files (routes/queues*.ts) parse input and
// shape answers. A queue's items are in queueItems.ts, their review status in queueReview.ts.
import type { Ctx, Tenant, User } from '../context';
import { conflict, notFound } from '../errors';
import { toJson } from '../json';
import { SqlWhere } from '../sql';
import { nowIso } from '../time';
import { addItems } from './queueItems';
import { getQueue, type QueueRow } from './queueRows';

const nameTaken = (ctx: Ctx, tenant: Tenant, name: string) =>
  !!ctx.st.one('SELECT 1 FROM annotation_queues WHERE tenant_id = ? AND name = ?', tenant.id, name);

/** A dataset a queue names as its default must be the workspace's own. */
function checkDataset(ctx: Ctx, tenant: Tenant, id: string | null | undefined) {
  if (id && !ctx.st.one('SELECT 1 FROM datasets WHERE id = ? AND tenant_id = ?', id, tenant.id)) throw notFound(`Dataset ${id}`);
}

/** A queue's settings as stored; undefined leaves a setting as it is (on create: its default). */
export interface QueueFields {
  name?: string;
  description?: string | null;
  rubric_instructions?: string | null;
  rubric_items?: unknown[] | null;
  default_dataset?: string | null;
  num_reviewers_per_item?: number | null;
  enable_reservations?: boolean | null;
  reservation_minutes?: number | null;
  metadata?: Record<string, unknown> | null;
  reviewer_access_mode?: string | null;
  queue_type?: string | null;
}

const bool = (b: boolean | null | undefined) => (b == null ? null : b ? 1 : 0);

/** Creates a queue holding the given runs (all or nothing). */
export function createQueue(ctx: Ctx, tenant: Tenant, id: string, f: QueueFields & { name: string }, runIds: string[] = []): QueueRow {
  checkDataset(ctx, tenant, f.default_dataset);
  return ctx.st.tx(() => {
    if (ctx.st.one('SELECT 1 FROM annotation_queues WHERE id = ?', id)) throw conflict(`Annotation queue ${id} already exists`);
    if (nameTaken(ctx, tenant, f.name)) throw conflict(`Annotation queue with name ${f.name} already exists`);
    const now = nowIso();
    // Unset settings get LangSmith's defaults (AnnotationQueueCreateSchema); an explicit null stays null.
    ctx.st.run(
      `INSERT INTO annotation_queues (id, tenant_id, name, description, rubric_instructions, rubric_items, created_at, updated_at,
         default_dataset, num_reviewers_per_item, enable_reservations, reservation_minutes, metadata, reviewer_access_mode, queue_type)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id, tenant.id, f.name, f.description ?? null, f.rubric_instructions ?? null, toJson(f.rubric_items), now, now,
      f.default_dataset ?? null,
      f.num_reviewers_per_item === undefined ? 1 : f.num_reviewers_per_item,
      f.enable_reservations === undefined ? 1 : bool(f.enable_reservations),
      f.reservation_minutes === undefined ? 1 : f.reservation_minutes,
      toJson(f.metadata), f.reviewer_access_mode ?? 'any', f.queue_type ?? 'single',
    );
    if (runIds.length) addItems(ctx, tenant, id, runIds.map((run_id) => ({ run_id })));
    return getQueue(ctx, tenant, id);
  });
}

export interface QueueFilter {
  ids: string[];
  name?: string;
  nameContains?: string;
  queueType?: string;
  datasetId?: string;
  /** Only queues this user is assigned to review. */
  assignedTo?: string;
  limit: number;
  offset: number;
}

/** Queues newest first, each with its number of items. */
export function listQueues(ctx: Ctx, tenant: Tenant, f: QueueFilter): Array<QueueRow & { total_runs: number }> {
  const where = new SqlWhere('q.tenant_id = ?', tenant.id)
    .in('q.id', f.ids)
    .eq('q.name', f.name)
    .contains('q.name', f.nameContains)
    .eq("COALESCE(q.queue_type, 'single')", f.queueType)
    .eq('q.default_dataset', f.datasetId);
  if (f.assignedTo) where.where('q.id IN (SELECT queue_id FROM queue_reviewers WHERE user_id = ?)').params.push(f.assignedTo);
  return ctx.st.all(
    `SELECT q.*, (SELECT COUNT(*) FROM queue_runs r WHERE r.queue_id = q.id) AS total_runs FROM annotation_queues q
      WHERE ${where.sql} ORDER BY q.created_at DESC, q.id LIMIT ? OFFSET ?`,
    ...where.params, f.limit, f.offset,
  );
}

/** The workspace's queues that hold one of its runs. */
export function queuesOfRun(ctx: Ctx, tenant: Tenant, runId: string): QueueRow[] {
  if (!ctx.st.one('SELECT 1 FROM runs WHERE id = ? AND tenant_id = ?', runId, tenant.id)) throw notFound(`Run ${runId}`);
  return ctx.st.all<QueueRow>(
    `SELECT q.* FROM annotation_queues q WHERE q.tenant_id = ? AND q.id IN (SELECT queue_id FROM queue_runs WHERE run_id = ?)
      ORDER BY q.created_at DESC, q.id`,
    tenant.id, runId,
  );
}

/** Changes the given settings; null clears a setting, except the name and the reservations switch (which keep theirs). */
export function updateQueue(ctx: Ctx, tenant: Tenant, id: string, f: QueueFields): QueueRow {
  checkDataset(ctx, tenant, f.default_dataset);
  return ctx.st.tx(() => {
    const q = getQueue(ctx, tenant, id);
    if (f.name && f.name !== q.name && nameTaken(ctx, tenant, f.name)) throw conflict(`Annotation queue with name ${f.name} already exists`);
    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (f.name) set('name', f.name);
    // Before this change an explicit null left these three alone; it still does, so older callers see no change.
    if (f.description != null) set('description', f.description);
    if (f.rubric_instructions != null) set('rubric_instructions', f.rubric_instructions);
    if (f.rubric_items != null) set('rubric_items', toJson(f.rubric_items));
    if (f.default_dataset !== undefined) set('default_dataset', f.default_dataset);
    if (f.num_reviewers_per_item !== undefined) set('num_reviewers_per_item', f.num_reviewers_per_item);
    if (f.enable_reservations != null) set('enable_reservations', bool(f.enable_reservations));
    if (f.reservation_minutes !== undefined) set('reservation_minutes', f.reservation_minutes);
    if (f.metadata !== undefined) set('metadata', toJson(f.metadata));
    if (f.reviewer_access_mode != null) set('reviewer_access_mode', f.reviewer_access_mode);
    set('updated_at', nowIso());
    ctx.st.run(`UPDATE annotation_queues SET ${sets.join(', ')} WHERE id = ?`, ...params, id);
    return getQueue(ctx, tenant, id);
  });
}

/** Deletes queues with their items; every id must be one of the workspace's queues (else nothing is deleted). */
export function deleteQueues(ctx: Ctx, tenant: Tenant, ids: string[]): void {
  ctx.st.tx(() => {
    for (const id of ids) {
      getQueue(ctx, tenant, id);
      ctx.st.run('DELETE FROM queue_item_status WHERE queue_id = ?', id);
      ctx.st.run('DELETE FROM queue_reviewers WHERE queue_id = ?', id);
      ctx.st.run('DELETE FROM queue_runs WHERE queue_id = ?', id);
      ctx.st.run('DELETE FROM annotation_queues WHERE id = ?', id);
    }
  });
}

/** The root runs of the workspace's projects, each project's oldest first (what a queue made from projects holds). */
export function rootRunIds(ctx: Ctx, tenant: Tenant, sessionIds: string[]): string[] {
  const runs: string[] = [];
  for (const s of sessionIds) {
    if (!ctx.st.one('SELECT 1 FROM sessions WHERE id = ? AND tenant_id = ?', s, tenant.id)) throw notFound(`Session ${s}`);
    for (const r of ctx.st.all<{ id: string }>('SELECT id FROM runs WHERE session_id = ? AND parent_run_id IS NULL ORDER BY start_time, id', s)) runs.push(r.id);
  }
  return runs;
}

// ---- reviewers ----

/** The users assigned to review a queue, in the order they were assigned. */
export function reviewersOf(ctx: Ctx, queueId: string): User[] {
  return ctx.st
    .all<{ user_id: string }>('SELECT user_id FROM queue_reviewers WHERE queue_id = ? ORDER BY added_at, user_id', queueId)
    .map((r) => ctx.userById.get(r.user_id))
    .filter((u): u is User => !!u);
}

/** A user of the queue's workspace, by id (an identity id in LangSmith's words). */
function memberOf(ctx: Ctx, tenant: Tenant, userId: string): User {
  const u = ctx.userById.get(userId.toLowerCase());
  if (!u || u.tenant !== tenant) throw notFound(`User ${userId} in this workspace`);
  return u;
}

export function addReviewer(ctx: Ctx, tenant: Tenant, queueId: string, userId: string): User {
  getQueue(ctx, tenant, queueId);
  const u = memberOf(ctx, tenant, userId);
  ctx.st.run('INSERT OR IGNORE INTO queue_reviewers (queue_id, user_id, added_at) VALUES (?, ?, ?)', queueId, u.id, nowIso());
  return u;
}

export function removeReviewer(ctx: Ctx, tenant: Tenant, queueId: string, userId: string): void {
  getQueue(ctx, tenant, queueId);
  const u = memberOf(ctx, tenant, userId);
  if (!ctx.st.run('DELETE FROM queue_reviewers WHERE queue_id = ? AND user_id = ?', queueId, u.id).changes) throw notFound(`Reviewer ${userId} of annotation queue ${queueId}`);
}
