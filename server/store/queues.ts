// Annotation queues and their items (queue runs): rows, lookups, writes, review status. SQL lives here; the
// route files (routes/queues*.ts) parse input and shape answers.
//
// Review status, as LangSmith keeps it: per reviewer (a user of the workspace, one per API key) and item, in
// queue_item_status: 'viewed' or 'completed' (the reviewer's "Done"), and where a 'viewed' moved the item in
// that reviewer's order (override_added_at: Requeue moves it to the end of the caller's order only). An item
// is archived once `num_reviewers_per_item` (default 1) distinct reviewers completed it. Each caller sees:
//
//   needs_my_review      not archived, not completed by me, not reserved by someone else (and, in a queue
//                        whose reviewer_access_mode is 'assigned', only when I am one of its reviewers)
//   needs_others_review  not archived, and completed by me, or reserved by someone else (or not mine to review)
//   archived             completed by enough reviewers
//
// ordered by my effective added_at (my override, else the item's added_at), then insertion. Reservations: in
// a queue with enable_reservations, a 'viewed' status reserves the item for its reviewer until now +
// reservation_minutes (unless someone else holds it); a 'completed' (or null) status by the holder releases
// it. Expiry is checked when read: no timers. The item row keeps what every section needs without a subquery
// (how many completed it, the holder and until when), worked out again on every status change.
import type { Ctx, Tenant, User } from '../context';
import { HttpError, conflict, notFound } from '../errors';
import { newId } from '../ids';
import { toJson } from '../json';
import { SqlWhere } from '../sql';
import { nowIso } from '../time';
import { threadExists } from './threads';

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

// ---- items ----

/** Who is looking at a queue, and what of the queue decides what they see (see the file's head). */
export interface Scope {
  q: QueueRow;
  userId: string;
  /** Read once per request: reservations are live until this time. */
  now: string;
  /** False in a queue for assigned reviewers only, when the caller is not one. */
  canReview: boolean;
  /** How many reviewers must complete an item before it is archived. */
  needed: number;
  reservations: boolean;
}

export function scopeOf(ctx: Ctx, q: QueueRow, user: User): Scope {
  const canReview = q.reviewer_access_mode !== 'assigned' || !!ctx.st.one('SELECT 1 FROM queue_reviewers WHERE queue_id = ? AND user_id = ?', q.id, user.id);
  return { q, userId: user.id, now: nowIso(), canReview, needed: Math.max(1, Math.trunc(Number(q.num_reviewers_per_item ?? 1))), reservations: q.enable_reservations === 1 };
}

// Every item query joins the caller's status (`me`); its user id is the first parameter.
const ITEM_COLUMNS = `qr.seq, qr.id, qr.queue_id, qr.run_id, qr.added_at, qr.last_reviewed_time, qr.source_proposed_example_id,
  qr.completed_count, qr.last_completed_at, qr.reserved_by, qr.reserved_until, qr.item_type, qr.thread_id, qr.project_id,
  me.status AS status, me.status_at AS status_at, me.override_added_at AS override_added_at`;
const FROM = 'queue_runs qr LEFT JOIN queue_item_status me ON me.item_id = qr.id AND me.user_id = ?';
const ITEM_SELECT = `SELECT ${ITEM_COLUMNS}, COALESCE(r.session_id, qr.project_id) AS session_id, r.start_time AS run_start_time
  FROM ${FROM} LEFT JOIN runs r ON r.id = qr.run_id`;
/** The caller's order: by their effective time added (their 'viewed' may move an item back), then insertion. */
const EFFECTIVE = 'COALESCE(me.override_added_at, qr.added_at)';
const ORDER = `ORDER BY ${EFFECTIVE}, qr.seq`;

/** The SQL condition of a review section for the caller, and its parameters. */
function sectionSql(s: Scope, section: Section): { sql: string; params: unknown[] } {
  const archived = `qr.completed_count >= ${s.needed}`;
  // `IS`, not `=`: an item without a status must count as not completed (never as NULL, which NOT keeps NULL).
  const mine = "me.status IS 'completed'";
  const held = s.reservations ? '(qr.reserved_by IS NOT NULL AND qr.reserved_by <> ? AND qr.reserved_until > ?)' : '0';
  const heldParams = s.reservations ? [s.userId, s.now] : [];
  switch (section) {
    case 'all':
      return { sql: '1', params: [] };
    case 'needs_my_review':
      return s.canReview ? { sql: `NOT (${archived}) AND NOT ${mine} AND NOT ${held}`, params: heldParams } : { sql: '0', params: [] };
    case 'needs_others_review':
      return { sql: `NOT (${archived}) AND (${mine} OR ${held} OR ${s.canReview ? 0 : 1})`, params: heldParams };
    case 'archived':
      return { sql: archived, params: [] };
    case 'completed':
      return { sql: mine, params: [] };
  }
}

export const isArchived = (s: Scope, item: QueueRunRow): boolean => item.completed_count >= s.needed;

/** Who holds an item now (a live reservation), if anyone. */
export const holderOf = (s: Scope, item: Pick<QueueRunRow, 'reserved_by' | 'reserved_until'>): string | null =>
  s.reservations && item.reserved_by && item.reserved_until && item.reserved_until > s.now ? item.reserved_by : null;

/** The section an item is in now for the caller (for deep links); the same rules as sectionSql. */
export function sectionOf(s: Scope, item: QueueRunRow): 'needs_my_review' | 'needs_others_review' | 'archived' {
  if (isArchived(s, item)) return 'archived';
  const holder = holderOf(s, item);
  const heldByOther = !!holder && holder !== s.userId;
  return s.canReview && item.status !== 'completed' && !heldByOther ? 'needs_my_review' : 'needs_others_review';
}

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

/** The users who completed each of these items, in the order they did. */
export function completersOf(ctx: Ctx, itemIds: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!itemIds.length) return out;
  const rows = ctx.st.all<{ item_id: string; user_id: string }>(
    `SELECT item_id, user_id FROM queue_item_status WHERE item_id IN (SELECT value FROM json_each(?)) AND status = 'completed' ORDER BY status_at, user_id`,
    JSON.stringify(itemIds),
  );
  for (const r of rows) out.set(r.item_id, [...(out.get(r.item_id) ?? []), r.user_id]);
  return out;
}

export interface NewItem {
  run_id?: string;
  /** A THREAD item: the thread's id, in the project `session_id` (required then). */
  thread_id?: string;
  /** When given, the run must be in this project (what LangSmith's by-key adds check). */
  session_id?: string;
  source_proposed_example_id?: string | null;
}

/**
 * Adds runs to a queue in order; a run already there keeps its one item (and is answered with it). The items
 * come back without anyone's status (the add answers carry none).
 */
export function addItems(ctx: Ctx, tenant: Tenant, queueId: string, items: NewItem[]): QueueItem[] {
  const nobody = '';
  return ctx.st.tx(() => {
    getQueue(ctx, tenant, queueId);
    const out: QueueItem[] = [];
    for (const [i, it] of items.entries()) {
      if (it.thread_id !== undefined) {
        out.push(addThread(ctx, tenant, queueId, it.thread_id, it.session_id ?? '', i));
        continue;
      }
      const runId = it.run_id!.toLowerCase();
      const run = ctx.st.one<{ session_id: string }>('SELECT session_id FROM runs WHERE id = ? AND tenant_id = ?', runId, tenant.id);
      if (!run) throw notFound(`Run ${runId}`);
      if (it.session_id && run.session_id !== it.session_id.toLowerCase())
        throw new HttpError(422, `body.${i}.session_id: run ${runId} is not in session ${it.session_id}`);
      const existing = ctx.st.one<QueueItem>(`${ITEM_SELECT} WHERE qr.queue_id = ? AND qr.run_id = ?`, nobody, queueId, runId);
      if (existing) {
        out.push(existing);
        continue;
      }
      const id = newId();
      ctx.st.run(
        'INSERT INTO queue_runs (id, queue_id, run_id, added_at, source_proposed_example_id) VALUES (?, ?, ?, ?, ?)',
        id, queueId, runId, nowIso(), it.source_proposed_example_id?.toLowerCase() ?? null,
      );
      out.push(findItem(ctx, nobody, queueId, id, false)!);
    }
    ctx.st.run('UPDATE annotation_queues SET updated_at = ? WHERE id = ?', nowIso(), queueId);
    return out;
  });
}

/** Adds a thread (the runs sharing a thread id in a project) as one THREAD item, or answers the one there. */
function addThread(ctx: Ctx, tenant: Tenant, queueId: string, threadId: string, projectId: string, i: number): QueueItem {
  const project = projectId.toLowerCase();
  if (!project) throw new HttpError(422, `body.items.${i}.project_id: required for a THREAD item`);
  if (!threadExists(ctx, tenant.id, threadId, project)) throw notFound(`Thread ${threadId} in project ${projectId}`);
  const key = `thread:${project}:${threadId}`;
  const nobody = '';
  const existing = ctx.st.one<QueueItem>(`${ITEM_SELECT} WHERE qr.queue_id = ? AND qr.run_id = ?`, nobody, queueId, key);
  if (existing) return existing;
  const id = newId();
  ctx.st.run(
    "INSERT INTO queue_runs (id, queue_id, run_id, added_at, item_type, thread_id, project_id) VALUES (?, ?, ?, ?, 'THREAD', ?, ?)",
    id, queueId, key, nowIso(), threadId, project,
  );
  return findItem(ctx, nobody, queueId, id, false)!;
}

/** What the legacy run listings add to a run's row. */
export interface QueueRunInfo {
  queue_run_id: string;
  added_at: string;
  last_reviewed_time: string | null;
  source_proposed_example_id: string | null;
  effective_added_at: string;
  review_status: string | null;
  item_reserved_by: string | null;
  item_reserved_until: string | null;
}

const RUN_WITH_ITEM = `SELECT r.*, qr.id AS queue_run_id, qr.added_at AS added_at, qr.last_reviewed_time AS last_reviewed_time,
    qr.source_proposed_example_id AS source_proposed_example_id, ${EFFECTIVE} AS effective_added_at, me.status AS review_status,
    qr.reserved_by AS item_reserved_by, qr.reserved_until AS item_reserved_until
  FROM ${FROM} JOIN runs r ON r.id = qr.run_id`;

/** A queue's items with their runs (the legacy run listings), in the caller's order, by offset. */
export function listQueueRuns<R>(ctx: Ctx, s: Scope, section: Section, archived: boolean | undefined, limit: number, offset: number) {
  const sec = sectionSql(s, section);
  let cond = sec.sql;
  const params = [...sec.params];
  if (archived !== undefined) {
    const a = sectionSql(s, 'archived');
    cond += ` AND ${archived ? '' : 'NOT '}(${a.sql})`;
    params.push(...a.params);
  }
  return ctx.st.all<R & QueueRunInfo>(`${RUN_WITH_ITEM} WHERE qr.queue_id = ? AND ${cond} ${ORDER} LIMIT ? OFFSET ?`, s.userId, s.q.id, ...params, limit, offset);
}

/** How many items are in a section for the caller; archived ones optionally only those archived within (start, end). */
export function countItems(ctx: Ctx, s: Scope, section: Section, start?: string, end?: string): number {
  const sec = sectionSql(s, section);
  const where = new SqlWhere('qr.queue_id = ?', s.q.id).where(sec.sql);
  where.params.push(...sec.params);
  // The bounds are exclusive, as LangSmith's count endpoints describe them; an item is archived by its last completion.
  if (start) where.where('qr.last_completed_at > ?').params.push(start);
  if (end) where.where('qr.last_completed_at < ?').params.push(end);
  // Only 'all' and 'archived' read nothing of the caller: those skip the join.
  const from = section === 'all' || section === 'archived' ? 'queue_runs qr' : FROM;
  const userParam = from === FROM ? [s.userId] : [];
  return ctx.st.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${from} WHERE ${where.sql}`, ...userParam, ...where.params)!.n;
}

/** The sort key of an item in the caller's order, which the item list's cursors carry. */
export type ItemKey = [effectiveAddedAt: string, seq: number];
export const itemKey = (it: QueueRunRow): ItemKey => [it.override_added_at ?? it.added_at, it.seq];

/**
 * One page of a section. Forward: from `cursor` (inclusive) on, and the key of the item after the page.
 * Backward: the page just before `cursor`, still in queue order, and the key of its first item when more
 * come before it.
 */
export function pageItems(
  ctx: Ctx, s: Scope, section: Section, cursor: ItemKey | undefined, backward: boolean, pageSize: number, itemType?: 'RUN' | 'THREAD',
): { items: QueueItem[]; next: ItemKey | null } {
  const sec = sectionSql(s, section);
  const params: unknown[] = [s.userId, s.q.id, ...sec.params];
  let cond = `qr.queue_id = ? AND ${sec.sql}`;
  if (itemType) {
    cond += " AND COALESCE(qr.item_type, 'RUN') = ?";
    params.push(itemType);
  }
  if (cursor) {
    cond += ` AND (${EFFECTIVE}, qr.seq) ${backward ? '<' : '>='} (?, ?)`;
    params.push(cursor[0], cursor[1]);
  }
  const dir = backward ? 'DESC' : '';
  // The page is picked and sorted first; only its rows are joined to their runs (a section may hold thousands).
  const rows = ctx.st.all<QueueItem>(
    `SELECT x.*, COALESCE(r.session_id, x.project_id) AS session_id, r.start_time AS run_start_time
       FROM (SELECT ${ITEM_COLUMNS}, ${EFFECTIVE} AS eff FROM ${FROM} WHERE ${cond} ORDER BY eff ${dir}, qr.seq ${dir} LIMIT ?) x
       LEFT JOIN runs r ON r.id = x.run_id ORDER BY x.eff ${dir}, x.seq ${dir}`,
    ...params, pageSize + 1,
  );
  const more = rows.length > pageSize;
  if (backward) {
    const items = rows.slice(0, pageSize).reverse();
    return { items, next: more && items.length ? itemKey(items[0]!) : null };
  }
  return { items: rows.slice(0, pageSize), next: more ? itemKey(rows[pageSize]!) : null };
}

/** Where an item stands for the caller: its section and how many items of that section come before it. */
export function placement(ctx: Ctx, s: Scope, item: QueueRunRow) {
  const section = sectionOf(s, item);
  const sec = sectionSql(s, section);
  const [eff, seq] = itemKey(item);
  const position = ctx.st.one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM ${FROM} WHERE qr.queue_id = ? AND ${sec.sql} AND (${EFFECTIVE}, qr.seq) < (?, ?)`,
    s.userId, s.q.id, ...sec.params, eff, seq,
  )!.n;
  return { section, position, key: itemKey(item) };
}

/** Changes an item's times; undefined or null leaves a time as it is. */
export function updateItemTimes(ctx: Ctx, userId: string, item: QueueRunRow, t: { added_at?: string | null; last_reviewed_time?: string | null }): QueueItem {
  ctx.st.run(
    'UPDATE queue_runs SET added_at = COALESCE(?, added_at), last_reviewed_time = COALESCE(?, last_reviewed_time) WHERE id = ?',
    t.added_at ?? null, t.last_reviewed_time ?? null, item.id,
  );
  return findItem(ctx, userId, item.queue_id, item.id, false)!;
}

/** Works out an item's completion count and time again from its reviewers' statuses. */
function recount(ctx: Ctx, itemId: string): void {
  ctx.st.run(
    `UPDATE queue_runs SET
       completed_count = (SELECT COUNT(*) FROM queue_item_status WHERE item_id = ? AND status = 'completed'),
       last_completed_at = (SELECT MAX(status_at) FROM queue_item_status WHERE item_id = ? AND status = 'completed')
     WHERE id = ?`,
    itemId, itemId, itemId,
  );
}

/**
 * Logs the caller's status. 'completed' is the caller's "Done": the item leaves their "needs my review",
 * counts as reviewed now, and their reservation (if they hold it) ends. 'viewed' keeps it there, moved to
 * `override_added_at` in the caller's order when given (Requeue), and reserves it for the caller where the
 * queue has reservations and nobody else holds it. null re-shows the item to the caller (un-archiving it if
 * theirs was a completion it needed) and ends their reservation.
 */
export function setItemStatus(ctx: Ctx, s: Scope, item: QueueRunRow, status: ReviewStatus | null, overrideAddedAt: string | null): QueueItem {
  return ctx.st.tx(() => {
    const now = nowIso();
    if (status === null && overrideAddedAt === null) ctx.st.run('DELETE FROM queue_item_status WHERE item_id = ? AND user_id = ?', item.id, s.userId);
    else
      ctx.st.run(
        `INSERT INTO queue_item_status (item_id, user_id, queue_id, status, status_at, override_added_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (item_id, user_id) DO UPDATE SET status = excluded.status, status_at = excluded.status_at, override_added_at = excluded.override_added_at`,
        item.id, s.userId, item.queue_id, status, status ? now : null, overrideAddedAt,
      );
    if (status === 'completed') ctx.st.run('UPDATE queue_runs SET last_reviewed_time = ? WHERE id = ?', now, item.id);
    const holder = holderOf(s, item);
    if (status === 'viewed' && s.reservations && (!holder || holder === s.userId)) {
      const until = new Date(Date.parse(now) + Math.max(0, Number(s.q.reservation_minutes ?? 1)) * 60_000).toISOString();
      ctx.st.run('UPDATE queue_runs SET reserved_by = ?, reserved_until = ? WHERE id = ?', s.userId, until, item.id);
    } else if (status !== 'viewed' && item.reserved_by === s.userId) {
      ctx.st.run('UPDATE queue_runs SET reserved_by = NULL, reserved_until = NULL WHERE id = ?', item.id);
    }
    recount(ctx, item.id);
    return findItem(ctx, s.userId, item.queue_id, item.id, false)!;
  });
}

/** Drops the statuses of items no longer in the queue. */
const dropOrphanStatuses = (ctx: Ctx, queueId: string) =>
  ctx.st.run('DELETE FROM queue_item_status WHERE queue_id = ? AND item_id NOT IN (SELECT id FROM queue_runs WHERE queue_id = ?)', queueId, queueId);

/** Removes items by id (or, with `alsoRunId`, by run id); answers how many went. */
export function deleteItems(ctx: Ctx, queueId: string, ids: string[], alsoRunId: boolean): number {
  if (!ids.length) return 0;
  // One bound JSON list, not a `?` per id: a request body may name tens of thousands.
  const list = 'SELECT value FROM json_each(?)';
  const cond = alsoRunId ? `(id IN (${list}) OR run_id IN (${list}))` : `id IN (${list})`;
  const json = JSON.stringify(ids);
  return ctx.st.tx(() => {
    const n = Number(ctx.st.run(`DELETE FROM queue_runs WHERE queue_id = ? AND ${cond}`, queueId, json, ...(alsoRunId ? [json] : [])).changes);
    dropOrphanStatuses(ctx, queueId);
    return n;
  });
}

/** Removes every item but those of the given runs. */
export function deleteAllItemsExcept(ctx: Ctx, queueId: string, keepRunIds: string[]): number {
  const where = new SqlWhere('queue_id = ?', queueId);
  if (keepRunIds.length) where.where('run_id NOT IN (SELECT value FROM json_each(?))').params.push(JSON.stringify(keepRunIds));
  return ctx.st.tx(() => {
    const n = Number(ctx.st.run(`DELETE FROM queue_runs WHERE ${where.sql}`, ...where.params).changes);
    dropOrphanStatuses(ctx, queueId);
    return n;
  });
}

/**
 * Statuses kept on the item itself, from before they were kept per reviewer, become the status of their
 * workspace's first user (the one reviewer there was). Run when the server starts; a no-op once done.
 */
export function migrateLegacyStatuses(ctx: Ctx): void {
  const legacy = ctx.st.all<{ id: string; queue_id: string; status: string | null; status_at: string | null; override_added_at: string | null; tenant_id: string }>(
    `SELECT qr.id, qr.queue_id, qr.status, qr.status_at, qr.override_added_at, q.tenant_id FROM queue_runs qr
      JOIN annotation_queues q ON q.id = qr.queue_id WHERE qr.status IS NOT NULL OR qr.override_added_at IS NOT NULL`,
  );
  if (!legacy.length) return;
  ctx.st.tx(() => {
    for (const r of legacy) {
      const user = ctx.users.find((u) => u.tenant.id === r.tenant_id);
      if (!user) continue; // a workspace this start has no key for: left as it is
      ctx.st.run(
        'INSERT OR IGNORE INTO queue_item_status (item_id, user_id, queue_id, status, status_at, override_added_at) VALUES (?, ?, ?, ?, ?, ?)',
        r.id, user.id, r.queue_id, r.status, r.status_at, r.override_added_at,
      );
      ctx.st.run('UPDATE queue_runs SET status = NULL, status_at = NULL, override_added_at = NULL WHERE id = ?', r.id);
      recount(ctx, r.id);
    }
  });
}
