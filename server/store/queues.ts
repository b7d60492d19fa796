// Annotation queues and their items (queue runs): rows, lookups, writes, review status. SQL lives here; the
// route files (routes/queues*.ts) parse input and shape answers.
//
// Review status. LangSmith keeps a status per reviewer and item ('viewed' or 'completed') and archives an
// item once `num_reviewers_per_item` reviewers completed it. Here a workspace's API key is its only
// reviewer, so the status lives on the item itself, and "archived" is worked out when read: completed, in
// a queue that wants one reviewer per item. A queue that wants more can never gather them, so its completed
// items wait in "needs others' review", as they would in LangSmith for a lone reviewer.
import type { Ctx, Tenant } from '../context';
import { HttpError, conflict, notFound } from '../errors';
import { newId } from '../ids';
import { toJson } from '../json';
import { SqlWhere } from '../sql';
import { nowIso } from '../time';

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
  /** The reviewer's status: 'viewed', 'completed' or null (not looked at, or re-shown). */
  status: string | null;
  status_at: string | null;
  /** Where a 'viewed' status moved the item in the queue's order (LangSmith's effective_added_at). */
  override_added_at: string | null;
}

/** A queue item with what the answers need of its run: its project and start time. */
export interface QueueItem extends QueueRunRow {
  session_id: string;
  run_start_time: string | null;
}

export type Section = 'all' | 'needs_my_review' | 'needs_others_review' | 'archived' | 'completed';
export type ReviewStatus = 'viewed' | 'completed';

// ---- queues ----

export function getQueue(ctx: Ctx, tenant: Tenant, id: string): QueueRow {
  const q = ctx.st.one<QueueRow>('SELECT * FROM annotation_queues WHERE id = ? AND tenant_id = ?', id, tenant.id);
  if (!q) throw notFound(`Annotation queue ${id}`);
  return q;
}

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

// ---- items ----

const ITEM_SELECT = `SELECT qr.*, r.session_id AS session_id, r.start_time AS run_start_time FROM queue_runs qr JOIN runs r ON r.id = qr.run_id`;
/** The order of a queue: by effective time added (a 'viewed' status may move an item back), then insertion. */
const EFFECTIVE = 'COALESCE(qr.override_added_at, qr.added_at)';
const ORDER = `ORDER BY ${EFFECTIVE}, qr.seq`;

/** How many reviewers an item needs before it is archived. */
const reviewersNeeded = (q: QueueRow) => q.num_reviewers_per_item ?? 1;

/** The SQL condition of a review section (see the file's head for why it can be worked out from one status). */
function sectionSql(q: QueueRow, section: Section): string {
  // `IS`, not `=`: an item without a status must count as not completed (never as NULL, which NOT keeps NULL).
  const done = "qr.status IS 'completed'";
  const archivable = reviewersNeeded(q) <= 1;
  switch (section) {
    case 'all':
      return '1';
    case 'needs_my_review':
      return `NOT ${done}`;
    case 'needs_others_review':
      return archivable ? '0' : done;
    case 'archived':
      return archivable ? done : '0';
    case 'completed':
      return done;
  }
}

export function isArchived(q: QueueRow, item: QueueRunRow): boolean {
  return item.status === 'completed' && reviewersNeeded(q) <= 1;
}

/** The section an item is in now (for deep links). */
export function sectionOf(q: QueueRow, item: QueueRunRow): 'needs_my_review' | 'needs_others_review' | 'archived' {
  if (item.status !== 'completed') return 'needs_my_review';
  return isArchived(q, item) ? 'archived' : 'needs_others_review';
}

/** The item of a queue with this id, or (as a convenience of the legacy routes) the item of this run. */
export function findItem(ctx: Ctx, queueId: string, itemOrRunId: string, alsoRunId: boolean): QueueItem | undefined {
  return alsoRunId
    ? ctx.st.one<QueueItem>(`${ITEM_SELECT} WHERE qr.queue_id = ? AND (qr.id = ? OR qr.run_id = ?)`, queueId, itemOrRunId, itemOrRunId)
    : ctx.st.one<QueueItem>(`${ITEM_SELECT} WHERE qr.queue_id = ? AND qr.id = ?`, queueId, itemOrRunId);
}

export function getItem(ctx: Ctx, tenant: Tenant, queueId: string, itemId: string, alsoRunId = false): { queue: QueueRow; item: QueueItem } {
  const queue = getQueue(ctx, tenant, queueId);
  const item = findItem(ctx, queueId, itemId, alsoRunId);
  if (!item) throw notFound(`Item ${itemId} in annotation queue ${queueId}`);
  return { queue, item };
}

/** An item found by its id alone (the status routes name no queue), in one of the workspace's queues. */
export function getItemAnywhere(ctx: Ctx, tenant: Tenant, itemId: string): { queue: QueueRow; item: QueueItem } {
  const item = ctx.st.one<QueueItem>(
    `${ITEM_SELECT} JOIN annotation_queues q ON q.id = qr.queue_id WHERE qr.id = ? AND q.tenant_id = ?`, itemId, tenant.id,
  );
  if (!item) throw notFound(`Annotation queue item ${itemId}`);
  return { queue: getQueue(ctx, tenant, item.queue_id), item };
}

export interface NewItem {
  run_id: string;
  /** When given, the run must be in this project (what LangSmith's by-key adds check). */
  session_id?: string;
  source_proposed_example_id?: string | null;
}

/** Adds runs to a queue in order; a run already there keeps its one item (and is answered with it). */
export function addItems(ctx: Ctx, tenant: Tenant, queueId: string, items: NewItem[]): QueueItem[] {
  return ctx.st.tx(() => {
    getQueue(ctx, tenant, queueId);
    const out: QueueItem[] = [];
    for (const [i, it] of items.entries()) {
      const runId = it.run_id.toLowerCase();
      const run = ctx.st.one<{ session_id: string }>('SELECT session_id FROM runs WHERE id = ? AND tenant_id = ?', runId, tenant.id);
      if (!run) throw notFound(`Run ${runId}`);
      if (it.session_id && run.session_id !== it.session_id.toLowerCase())
        throw new HttpError(422, `body.${i}.session_id: run ${runId} is not in session ${it.session_id}`);
      const existing = ctx.st.one<QueueItem>(`${ITEM_SELECT} WHERE qr.queue_id = ? AND qr.run_id = ?`, queueId, runId);
      if (existing) {
        out.push(existing);
        continue;
      }
      const id = newId();
      ctx.st.run(
        'INSERT INTO queue_runs (id, queue_id, run_id, added_at, source_proposed_example_id) VALUES (?, ?, ?, ?, ?)',
        id, queueId, runId, nowIso(), it.source_proposed_example_id?.toLowerCase() ?? null,
      );
      out.push(findItem(ctx, queueId, id, false)!);
    }
    ctx.st.run('UPDATE annotation_queues SET updated_at = ? WHERE id = ?', nowIso(), queueId);
    return out;
  });
}

/** What the legacy run listings add to a run's row. */
export interface QueueRunInfo {
  queue_run_id: string;
  added_at: string;
  last_reviewed_time: string | null;
  source_proposed_example_id: string | null;
  effective_added_at: string;
  review_status: string | null;
}

const RUN_WITH_ITEM = `SELECT r.*, qr.id AS queue_run_id, qr.added_at AS added_at, qr.last_reviewed_time AS last_reviewed_time,
    qr.source_proposed_example_id AS source_proposed_example_id, ${EFFECTIVE} AS effective_added_at, qr.status AS review_status
  FROM queue_runs qr JOIN runs r ON r.id = qr.run_id`;

/** A queue's items with their runs (the legacy run listings), in queue order, by offset. */
export function listQueueRuns<R>(ctx: Ctx, q: QueueRow, section: Section, archived: boolean | undefined, limit: number, offset: number) {
  let cond = sectionSql(q, section);
  if (archived !== undefined) cond += ` AND ${archived ? '' : 'NOT '}(${sectionSql(q, 'archived')})`;
  return ctx.st.all<R & QueueRunInfo>(`${RUN_WITH_ITEM} WHERE qr.queue_id = ? AND ${cond} ${ORDER} LIMIT ? OFFSET ?`, q.id, limit, offset);
}

/** How many items are in a section; archived ones optionally only those archived within (start, end). */
export function countItems(ctx: Ctx, q: QueueRow, section: Section, start?: string, end?: string): number {
  const where = new SqlWhere('qr.queue_id = ?', q.id).where(sectionSql(q, section));
  // The bounds are exclusive, as LangSmith's count endpoints describe them.
  if (start) where.where('qr.status_at > ?').params.push(start);
  if (end) where.where('qr.status_at < ?').params.push(end);
  return ctx.st.one<{ n: number }>(`SELECT COUNT(*) AS n FROM queue_runs qr WHERE ${where.sql}`, ...where.params)!.n;
}

/** The sort key of an item in its queue, which the item list's cursors carry. */
export type ItemKey = [effectiveAddedAt: string, seq: number];
export const itemKey = (it: QueueRunRow): ItemKey => [it.override_added_at ?? it.added_at, it.seq];

/**
 * One page of a section. Forward: from `cursor` (inclusive) on, and the key of the item after the page.
 * Backward: the page just before `cursor`, still in queue order, and the key of its first item when more
 * come before it.
 */
export function pageItems(
  ctx: Ctx, q: QueueRow, section: Section, cursor: ItemKey | undefined, backward: boolean, pageSize: number,
): { items: QueueItem[]; next: ItemKey | null } {
  const cond = `qr.queue_id = ? AND ${sectionSql(q, section)}`;
  if (backward) {
    const rows = ctx.st.all<QueueItem>(
      `${ITEM_SELECT} WHERE ${cond} AND (${EFFECTIVE}, qr.seq) < (?, ?) ORDER BY ${EFFECTIVE} DESC, qr.seq DESC LIMIT ?`,
      q.id, cursor![0], cursor![1], pageSize + 1,
    );
    const more = rows.length > pageSize;
    const items = rows.slice(0, pageSize).reverse();
    return { items, next: more && items.length ? itemKey(items[0]!) : null };
  }
  const rows = cursor
    ? ctx.st.all<QueueItem>(`${ITEM_SELECT} WHERE ${cond} AND (${EFFECTIVE}, qr.seq) >= (?, ?) ${ORDER} LIMIT ?`, q.id, cursor[0], cursor[1], pageSize + 1)
    : ctx.st.all<QueueItem>(`${ITEM_SELECT} WHERE ${cond} ${ORDER} LIMIT ?`, q.id, pageSize + 1);
  const more = rows.length > pageSize;
  return { items: rows.slice(0, pageSize), next: more ? itemKey(rows[pageSize]!) : null };
}

/** Where an item stands: its section and how many items of that section come before it. */
export function placement(ctx: Ctx, q: QueueRow, item: QueueRunRow) {
  const section = sectionOf(q, item);
  const [eff, seq] = itemKey(item);
  const position = ctx.st.one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM queue_runs qr WHERE qr.queue_id = ? AND ${sectionSql(q, section)} AND (${EFFECTIVE}, qr.seq) < (?, ?)`,
    q.id, eff, seq,
  )!.n;
  return { section, position, key: itemKey(item) };
}

/** Changes an item's times; undefined or null leaves a time as it is. */
export function updateItemTimes(ctx: Ctx, item: QueueRunRow, t: { added_at?: string | null; last_reviewed_time?: string | null }): QueueItem {
  ctx.st.run(
    'UPDATE queue_runs SET added_at = COALESCE(?, added_at), last_reviewed_time = COALESCE(?, last_reviewed_time) WHERE id = ?',
    t.added_at ?? null, t.last_reviewed_time ?? null, item.id,
  );
  return findItem(ctx, item.queue_id, item.id, false)!;
}

/**
 * Logs the reviewer's status. 'completed' is the reviewer's "Done": the item leaves "needs my review" and
 * counts as reviewed now. 'viewed' keeps it there, moved to `override_added_at` in the order when given.
 * null re-shows the item (un-archiving it: this reviewer's completion was the one that archived it).
 */
export function setItemStatus(ctx: Ctx, item: QueueRunRow, status: ReviewStatus | null, overrideAddedAt: string | null): QueueItem {
  const now = nowIso();
  ctx.st.run(
    `UPDATE queue_runs SET status = ?, status_at = ?, override_added_at = ?,
       last_reviewed_time = CASE WHEN ? = 'completed' THEN ? ELSE last_reviewed_time END WHERE id = ?`,
    status, status ? now : null, overrideAddedAt, status, now, item.id,
  );
  return findItem(ctx, item.queue_id, item.id, false)!;
}

/** Removes items by id (or, with `alsoRunId`, by run id); answers how many went. */
export function deleteItems(ctx: Ctx, queueId: string, ids: string[], alsoRunId: boolean): number {
  if (!ids.length) return 0;
  // One bound JSON list, not a `?` per id: a request body may name tens of thousands.
  const list = 'SELECT value FROM json_each(?)';
  const cond = alsoRunId ? `(id IN (${list}) OR run_id IN (${list}))` : `id IN (${list})`;
  const json = JSON.stringify(ids);
  return ctx.st.tx(() => Number(ctx.st.run(`DELETE FROM queue_runs WHERE queue_id = ? AND ${cond}`, queueId, json, ...(alsoRunId ? [json] : [])).changes));
}

/** Removes every item but those of the given runs. */
export function deleteAllItemsExcept(ctx: Ctx, queueId: string, keepRunIds: string[]): number {
  const where = new SqlWhere('queue_id = ?', queueId);
  if (keepRunIds.length) where.where('run_id NOT IN (SELECT value FROM json_each(?))').params.push(JSON.stringify(keepRunIds));
  return Number(ctx.st.run(`DELETE FROM queue_runs WHERE ${where.sql}`, ...where.params).changes);
}
