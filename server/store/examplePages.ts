// Pages of examples: the orders a listing may ask for, its conditions, and the page-end seeks that keep deep
// pages as cheap as the first.
import type { Ctx, Tenant } from '../context';
import { compileExampleFilter } from '../filter';
import { exampleJsonSql, originParam, registerExampleSql, type ExampleField } from './exampleJson';
import type { RevRow } from './revisions';
import { stateWhere } from './versions';

export function exampleFilterSql(text: string) {
  return compileExampleFilter(text);
}

/** LangSmith's `ExampleListOrder`. */
export const EXAMPLE_ORDERS = ['recent', 'random', 'recently_created', 'id'] as const;
export type ExampleOrder = (typeof EXAMPLE_ORDERS)[number];

export interface ExampleQuery {
  datasetId: string;
  asOf: string | null;
  ids?: string[];
  splits?: string[];
  metadata?: Record<string, unknown>;
  filter?: string;
  /** Texts every example must contain somewhere in its inputs or outputs (case-blind for ASCII letters). */
  fullTextContains?: string[];
  /** Default `recent`. */
  order?: ExampleOrder;
  /** Overrides the order's own direction (not for `random`). */
  descending?: boolean;
  /** The seed of `order=random`; without one each call shuffles anew. */
  randomSeed?: number;
  limit: number;
  offset: number;
}

/**
 * How each order sorts. `recent` is the order this server has always listed in (oldest first, by creation
 * time then id): the official client pages with offsets, and a stable total order keeps pages from
 * overlapping while examples are added. `recently_created` is the same key newest first; `id` the example
 * id. `descending` turns either direction. `random` ranks by a hash of the seed and the id.
 */
interface OrderPlan {
  /** ORDER BY columns (over `e.`), with the direction. */
  orderBy: string;
  /** The key a page end is recorded by, and how a later page seeks past it; none for random. */
  seek?: { columns: string[]; op: '>' | '<'; lastExpr: string };
  extraParams: unknown[];
}

function orderPlan(q: ExampleQuery): OrderPlan {
  const order = q.order ?? 'recent';
  if (order === 'random') {
    const seed = q.randomSeed ?? Math.random();
    const dir = q.descending ? 'DESC' : 'ASC';
    return { orderBy: `ls_seeded_rank(?, e.example_id) ${dir}, e.example_id ${dir}`, extraParams: [String(seed)] };
  }
  const desc = q.descending ?? order === 'recently_created';
  const dir = desc ? 'DESC' : 'ASC';
  const agg = desc ? 'min' : 'max';
  if (order === 'id') return { orderBy: `e.example_id ${dir}`, seek: { columns: ['e.example_id'], op: desc ? '<' : '>', lastExpr: `${agg}(example_id)` }, extraParams: [] };
  // A space sorts below every character of a timestamp or an id, so the text order of
  // `created_at || ' ' || example_id` is the order of the pair.
  return {
    orderBy: `e.created_at ${dir}, e.example_id ${dir}`,
    seek: { columns: ['e.created_at', 'e.example_id'], op: desc ? '<' : '>', lastExpr: `${agg}(created_at || ' ' || example_id)` },
    extraParams: [],
  };
}

/** The SQL of one page of examples (`SELECT <columns> … LIMIT ? OFFSET ?`) and where to record its end. */
interface PagePlan {
  sql: string;
  params: unknown[];
  ends?: Map<number, string[]>;
  lastExpr?: string;
}

function whereOf(q: ExampleQuery): { sql: string; params: unknown[] } {
  const st = stateWhere(q.asOf);
  const where = [st.sql];
  const params: unknown[] = st.params(q.datasetId);
  if (q.ids?.length) {
    where.push(`e.example_id IN (${q.ids.map(() => '?').join(',')})`);
    params.push(...q.ids);
  }
  if (q.splits?.length) {
    where.push(`EXISTS (SELECT 1 FROM json_each(e.metadata, '$.dataset_split') j WHERE j.value IN (${q.splits.map(() => '?').join(',')}))`);
    params.push(...q.splits);
  }
  for (const [k, v] of Object.entries(q.metadata ?? {})) {
    where.push(`json_extract(e.metadata, ?) = json_extract(?, '$')`);
    params.push(`$.${JSON.stringify(k)}`, JSON.stringify(v));
  }
  if (q.filter) {
    const f = exampleFilterSql(q.filter);
    where.push(f.sql);
    params.push(...f.params);
  }
  // LangSmith's full-text search: each term is in some text value of the inputs or outputs (a substring,
  // case-blind for ASCII letters; `%` and `_` in a term are plain characters).
  for (const term of q.fullTextContains ?? []) {
    where.push(`EXISTS (SELECT 1 FROM json_tree(e.inputs) t WHERE t.type = 'text' AND t.atom LIKE ? ESCAPE '\\'
      UNION ALL SELECT 1 FROM json_tree(ifnull(e.outputs, 'null')) t WHERE t.type = 'text' AND t.atom LIKE ? ESCAPE '\\')`);
    const pattern = `%${term.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    params.push(pattern, pattern);
  }
  return { sql: where.join(' AND '), params };
}

function planPage(ctx: Ctx, q: ExampleQuery, columns = 'e.*'): PagePlan {
  const where = whereOf(q);
  const order = orderPlan(q);
  const index = q.asOf === null ? 'INDEXED BY exrev_current' : '';
  const base = `SELECT ${columns} FROM example_revisions e ${index} WHERE ${where.sql}`;
  const plain = {
    sql: `${base} ORDER BY ${order.orderBy} LIMIT ? OFFSET ?`,
    params: [...where.params, ...order.extraParams, q.limit, q.offset],
  };
  if (!order.seek) return plain;
  // Paging by offset steps over `offset` index entries on every page, so deep pages of a large dataset
  // cost more and more. The order's key orders the examples totally, so a page can start from where an
  // earlier page of the same query ended and step over only the rest: remember where pages end and seek
  // to the nearest end at or before `offset`. Clients that keep several pages in flight ask for a page
  // before the one in front of it has been answered, so the exact end is not always known yet. The
  // dataset's latest version is part of the query's key, so any change starts afresh.
  const latest = ctx.st.one<{ v: string | null }>('SELECT MAX(as_of) AS v FROM dataset_versions WHERE dataset_id = ?', q.datasetId)?.v ?? '';
  const ends = pageEndsOf(ctx, `${latest}|${order.orderBy}|${where.sql}|${JSON.stringify(where.params)}`);
  const from = q.offset > 0 ? nearestEnd(ends, q.offset) : undefined;
  if (!from) return { ...plain, ends, lastExpr: order.seek.lastExpr };
  const cols = order.seek.columns;
  return {
    sql: `${base} AND (${cols.join(', ')}) ${order.seek.op} (${cols.map(() => '?').join(', ')}) ORDER BY ${order.orderBy} LIMIT ? OFFSET ?`,
    params: [...where.params, ...from.end, q.limit, q.offset - from.offset],
    ends,
    lastExpr: order.seek.lastExpr,
  };
}

/** Remembers where a full page ended, for the pages after it. */
function recordEnd(plan: PagePlan, q: ExampleQuery, count: number, last: string | null): void {
  if (!plan.ends || count !== q.limit || !last) return;
  const at = q.offset + count;
  plan.ends.delete(at);
  plan.ends.set(at, last.split(' '));
  if (plan.ends.size > PAGE_ENDS_KEPT) plan.ends.delete(plan.ends.keys().next().value!);
}

/** One page of revisions, as rows (for exports that read the stored JSON themselves). */
export function listExamples(ctx: Ctx, q: ExampleQuery): RevRow[] {
  registerExampleSql(ctx);
  const plan = planPage(ctx, q);
  const rows = ctx.st.all<RevRow>(plan.sql, ...plan.params);
  const l = rows[rows.length - 1];
  recordEnd(plan, q, rows.length, l ? (plan.lastExpr?.includes('created_at') ? `${l.created_at} ${l.example_id}` : l.example_id) : null);
  return rows;
}

/**
 * A page of examples as JSON bytes, composed by SQLite from the stored JSON text (`exampleJsonSql`),
 * without making a JavaScript object or string per example. The page's query picks only the revisions'
 * row ids (walking the index, stepping over any offset there); each picked revision is then read once, by
 * id, and written straight into the page: a subquery of whole rows would copy every column of every row
 * through the co-routine first, a third of the page's cost. The examples are joined in the order the
 * page's query gives them: SQLite aggregates the subquery's rows as they come (CROSS JOIN keeps the
 * subquery as the outer loop; an ORDER BY inside group_concat would sort the composed text again and
 * double the cost); the tests compare whole pages, so a change of that would show. The page's last key
 * comes from the order's own aggregate of its key. Every `select` is composed the same way.
 */
export function listExamplesJson(ctx: Ctx, q: ExampleQuery, origin: string, fields: readonly ExampleField[]): Buffer {
  registerExampleSql(ctx);
  const plan = planPage(ctx, q, 'e.rev AS page_rev');
  const page = ctx.st.get(
    `SELECT CAST('[' || ifnull(group_concat(${exampleJsonSql(fields)}, ','), '') || ']' AS BLOB) AS json,
      count(*) AS n, ${plan.lastExpr ?? 'NULL'} AS last
     FROM (${plan.sql}) page CROSS JOIN example_revisions ON example_revisions.rev = page.page_rev`,
  );
  const r = page.get(...originParam(fields, origin), ...plan.params) as { json: Buffer; n: number; last: string | null };
  recordEnd(plan, q, r.n, r.last);
  return r.json;
}

/** The caller's current examples with these ids, across their datasets (`GET /examples?id=…` without a dataset). */
export function examplesByIdsJson(ctx: Ctx, tenant: Tenant, ids: string[], q: Pick<ExampleQuery, 'order' | 'descending' | 'randomSeed' | 'limit' | 'offset'>, origin: string, fields: readonly ExampleField[]): Buffer {
  registerExampleSql(ctx);
  const order = orderPlan({ ...q, datasetId: '', asOf: null });
  const inner = `SELECT e.rev AS page_rev FROM example_revisions e JOIN datasets d ON d.id = e.dataset_id
    WHERE d.tenant_id = ? AND e.valid_to IS NULL AND e.example_id IN (${ids.map(() => '?').join(',')})
    ORDER BY ${order.orderBy} LIMIT ? OFFSET ?`;
  const r = ctx.st.one<{ json: Buffer }>(
    `SELECT CAST('[' || ifnull(group_concat(${exampleJsonSql(fields)}, ','), '') || ']' AS BLOB) AS json
     FROM (${inner}) page CROSS JOIN example_revisions ON example_revisions.rev = page.page_rev`,
    ...originParam(fields, origin), tenant.id, ...ids, ...order.extraParams, q.limit, q.offset,
  )!;
  return r.json;
}

/** Where recent example pages ended, per server and query; the oldest queries and ends are forgotten first. */
const pageEnds = new WeakMap<Ctx, Map<string, Map<number, string[]>>>();
const PAGE_END_QUERIES_KEPT = 64;
const PAGE_ENDS_KEPT = 1000;

function pageEndsOf(ctx: Ctx, query: string): Map<number, string[]> {
  let queries = pageEnds.get(ctx);
  if (!queries) pageEnds.set(ctx, (queries = new Map()));
  let ends = queries.get(query);
  if (ends) {
    queries.delete(query); // most recently used last
  } else {
    ends = new Map();
    if (queries.size >= PAGE_END_QUERIES_KEPT) queries.delete(queries.keys().next().value!);
  }
  queries.set(query, ends);
  return ends;
}

/** Forgets every recorded page end (after a change that opens no new version: a hard delete). */
export function forgetPageEnds(ctx: Ctx): void {
  pageEnds.delete(ctx);
}

/** The recorded page end at `offset`, or the nearest one before it. */
export function nearestEnd<E>(ends: Map<number, E>, offset: number): { offset: number; end: E } | undefined {
  const exact = ends.get(offset);
  if (exact) return { offset, end: exact };
  let best: { offset: number; end: E } | undefined;
  for (const [at, end] of ends) if (at < offset && (!best || at > best.offset)) best = { offset: at, end };
  return best;
}
