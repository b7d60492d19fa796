// The review status of annotation queue items: each caller's sections, reservations, statuses, counts and pages.
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
import type { Ctx, User } from '../context';
import { SqlWhere } from '../sql';
import { nowIso } from '../time';
import { EFFECTIVE, FROM, ITEM_COLUMNS, ORDER, findItem, type QueueItem, type QueueRow, type QueueRunRow } from './queueRows';

export type Section = 'all' | 'needs_my_review' | 'needs_others_review' | 'archived' | 'completed';
export type ReviewStatus = 'viewed' | 'completed';

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
