// Runs: their rows, ingestion (create, update, batch, multipart), queries, feedback stats and sharing. The SQL
// and the transactions live here; the route files parse input and shape answers.
import type { Ctx, Tenant } from '../context';
import { compileRunFilter, threadIdSql } from '../filter';
import { HttpError, notFound } from '../errors';
import { isUuid, newId } from '../ids';
import { jsonOrNull } from '../json';
import { nowIso, parseTime } from '../time';
import { getSession, sessionByName } from './sessions';

export interface RunRow {
  id: string;
  tenant_id: string;
  session_id: string;
  trace_id: string | null;
  parent_run_id: string | null;
  dotted_order: string | null;
  name: string | null;
  run_type: string | null;
  start_time: string | null;
  end_time: string | null;
  inputs: string | null;
  outputs: string | null;
  error: string | null;
  extra: string | null;
  events: string | null;
  serialized: string | null;
  tags: string | null;
  reference_example_id: string | null;
  attachments: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  share_token: string | null;
  is_stub: number;
  received_at: string;
  /** Worked out from the columns above when the run is written (db.ts RUN_DERIVED). */
  status: string | null;
  latency: number | null;
  first_token: number | null;
  total_cost: number | null;
  prompt_cost: number | null;
  completion_cost: number | null;
}

/**
 * A run create or update as SDKs send it. The fields this server reads are typed (the route schemas check them);
 * SDKs send many more, which are kept out of the store but never refused.
 */
export interface RunPayload {
  id?: string | null;
  name?: string | null;
  run_type?: string | null;
  start_time?: string | number | null;
  end_time?: string | number | null;
  inputs?: object | null;
  outputs?: object | null;
  extra?: object | null;
  serialized?: object | null;
  events?: unknown[] | null;
  tags?: string[] | null;
  error?: unknown;
  trace_id?: string | null;
  parent_run_id?: string | null;
  dotted_order?: string | null;
  session_id?: string | null;
  session_name?: string | null;
  reference_example_id?: string | null;
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  total_tokens?: unknown;
  [other: string]: unknown;
}

/** An attachment of a run: the blob's hash, its type and size, under the attachment's name. */
export interface AttachmentRef {
  hash: string;
  mime_type: string;
  size?: number;
}

export function runStatus(r: Pick<RunRow, 'error' | 'end_time'>): string {
  if (r.error) return 'error';
  if (r.end_time) return 'success';
  return 'pending';
}

/** The ids of a run's ancestors, root first, read from its dotted order. */
export function ancestorsFromDotted(dotted: string | null): string[] {
  if (!dotted) return [];
  return dotted.split('.').map((seg) => seg.slice(seg.indexOf('Z') + 1)).slice(0, -1);
}

/**
 * The conversation a run belongs to. LangSmith groups runs into threads by any of these metadata keys (the
 * first one present wins), so SDKs and frameworks that name the key differently land in the same view.
 */
export const THREAD_ID_SQL = threadIdSql('extra');

export function threadIdOf(r: Pick<RunRow, 'extra'>): string | null {
  const md = (jsonOrNull(r.extra) as { metadata?: Record<string, unknown> } | null)?.metadata;
  const v = md?.thread_id ?? md?.session_id ?? md?.conversation_id;
  return v == null ? null : String(v);
}

/** What a run reports of its cost in USD, read from its `usage_metadata` (see {@link runCosts}). */
export interface RunCosts {
  prompt: number | null;
  completion: number | null;
  total: number | null;
}

const costOf = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The costs a run reports, as LangSmith takes custom costs: `input_cost`, `output_cost` and `total_cost` in the
 * `usage_metadata` of its outputs or metadata (the total is their sum when not given). This server keeps no price
 * table, so a run without them has none. Takes the parsed outputs and extra.
 */
export function runCosts(outputs: unknown, extra: unknown): RunCosts | null {
  const usage = dig(outputs, 'usage_metadata') ?? dig(extra, 'metadata', 'usage_metadata');
  const prompt = costOf(dig(usage, 'input_cost'));
  const completion = costOf(dig(usage, 'output_cost'));
  const total = costOf(dig(usage, 'total_cost')) ?? (prompt !== null || completion !== null ? (prompt ?? 0) + (completion ?? 0) : null);
  return prompt === null && completion === null && total === null ? null : { prompt, completion, total };
}

/** When a streamed run's first token came: the time of its first `new_token` event (as LangSmith derives it). */
export function firstTokenTime(events: unknown): string | null {
  if (!Array.isArray(events)) return null;
  for (const e of events) {
    if (e && typeof e === 'object' && (e as { name?: unknown }).name === 'new_token') {
      const t = parseTime((e as { time?: unknown }).time as string | number | undefined);
      if (t) return t;
    }
  }
  return null;
}

const compactTime = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1000Z');

/** A nested field of a JSON object, or undefined. */
function dig(v: unknown, ...keys: string[]): unknown {
  for (const k of keys) {
    if (!v || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** Token counts from the fields or from the usage that LLM integrations put into outputs or metadata. */
function tokenCounts(p: RunPayload): [number | null, number | null, number | null] {
  const usage = dig(p.outputs, 'llm_output', 'token_usage') ?? dig(p.outputs, 'usage_metadata') ?? dig(p.extra, 'metadata', 'usage_metadata');
  const pt = p.prompt_tokens ?? dig(usage, 'prompt_tokens') ?? dig(usage, 'input_tokens') ?? null;
  const ct = p.completion_tokens ?? dig(usage, 'completion_tokens') ?? dig(usage, 'output_tokens') ?? null;
  const tt =
    p.total_tokens ?? dig(usage, 'total_tokens') ?? (pt != null || ct != null ? (typeof pt === 'number' ? pt : 0) + (typeof ct === 'number' ? ct : 0) : null);
  return [typeof pt === 'number' ? pt : null, typeof ct === 'number' ? ct : null, typeof tt === 'number' ? tt : null];
}

const errorText = (e: unknown) => (e == null ? null : typeof e === 'string' ? e : JSON.stringify(e));
const js = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/** Insert or merge a run create. A create that meets an existing row fills only what is still empty. */
export function ingestCreate(ctx: Ctx, tenant: Tenant, p: RunPayload, attachments?: Record<string, AttachmentRef>) {
  const id: string = (p.id ?? newId()).toLowerCase();
  const existing = ctx.st.one<RunRow>('SELECT * FROM runs WHERE id = ?', id);
  if (existing && existing.tenant_id !== tenant.id) throw new HttpError(409, `Run ${id} already exists`);
  let sessionId: string;
  if (p.session_id) sessionId = getSession(ctx, tenant, p.session_id.toLowerCase()).id;
  else sessionId = sessionByName(ctx, tenant, p.session_name || 'default').id;
  const start = parseTime(p.start_time) ?? nowIso();
  const parent = p.parent_run_id ? String(p.parent_run_id).toLowerCase() : null;
  let trace: string | null = p.trace_id ? String(p.trace_id).toLowerCase() : null;
  let dotted: string | null = p.dotted_order ?? null;
  if (!trace || !dotted) {
    // Only the caller's own runs: another workspace's run is a parent not seen (yet), never a source of its trace.
    const parentRow = parent ? ctx.st.one<RunRow>('SELECT trace_id, dotted_order FROM runs WHERE id = ? AND tenant_id = ?', parent, tenant.id) : undefined;
    trace ??= parentRow?.trace_id ?? (parent ? null : id);
    dotted ??= parentRow?.dotted_order ? `${parentRow.dotted_order}.${compactTime(start)}${id}` : parent ? null : `${compactTime(start)}${id}`;
  }
  const [pt, ct, tt] = tokenCounts(p);
  const row = {
    id, tenant_id: tenant.id, session_id: sessionId, trace_id: trace, parent_run_id: parent, dotted_order: dotted,
    name: p.name ?? null, run_type: p.run_type ?? null, start_time: start, end_time: parseTime(p.end_time),
    inputs: js(p.inputs), outputs: js(p.outputs), error: errorText(p.error), extra: js(p.extra), events: js(p.events),
    serialized: js(p.serialized), tags: js(p.tags), reference_example_id: p.reference_example_id ?? null,
    attachments: attachments && Object.keys(attachments).length ? JSON.stringify(attachments) : null,
    prompt_tokens: pt, completion_tokens: ct, total_tokens: tt, received_at: nowIso(),
  };
  if (!existing) {
    // Feedback that arrived before the run gets its project and trace now.
    ctx.st.run(
      'UPDATE feedback SET session_id = COALESCE(session_id, ?), trace_id = COALESCE(trace_id, ?) WHERE run_id = ? AND tenant_id = ?',
      sessionId, trace, id, tenant.id,
    );
    ctx.st.run(
      `INSERT INTO runs (id, tenant_id, session_id, trace_id, parent_run_id, dotted_order, name, run_type, start_time, end_time,
         inputs, outputs, error, extra, events, serialized, tags, reference_example_id, attachments, prompt_tokens,
         completion_tokens, total_tokens, received_at)
       VALUES (@id, @tenant_id, @session_id, @trace_id, @parent_run_id, @dotted_order, @name, @run_type, @start_time, @end_time,
         @inputs, @outputs, @error, @extra, @events, @serialized, @tags, @reference_example_id, @attachments, @prompt_tokens,
         @completion_tokens, @total_tokens, @received_at)`,
      row,
    );
    return;
  }
  // A retried create must not undo a later update; a stub left by an early update takes the create's identity.
  const ident = (col: string) => `${col} = CASE WHEN is_stub = 1 THEN COALESCE(@${col}, ${col}) ELSE COALESCE(${col}, @${col}) END`;
  ctx.st.run(
    `UPDATE runs SET
       session_id = CASE WHEN is_stub = 1 THEN @session_id ELSE session_id END,
       ${['trace_id', 'parent_run_id', 'dotted_order', 'name', 'run_type', 'start_time', 'inputs', 'serialized', 'reference_example_id'].map(ident).join(', ')},
       end_time = COALESCE(end_time, @end_time), outputs = COALESCE(outputs, @outputs), error = COALESCE(error, @error),
       extra = COALESCE(extra, @extra), events = COALESCE(events, @events), tags = COALESCE(tags, @tags),
       attachments = COALESCE(attachments, @attachments), prompt_tokens = COALESCE(prompt_tokens, @prompt_tokens),
       completion_tokens = COALESCE(completion_tokens, @completion_tokens), total_tokens = COALESCE(total_tokens, @total_tokens),
       is_stub = 0
     WHERE id = @id`,
    row,
  );
}

/** Apply a run update. An update for a run not seen yet is kept as a stub the create will complete. */
export function ingestUpdate(ctx: Ctx, tenant: Tenant, id: string, p: RunPayload) {
  id = id.toLowerCase();
  const existing = ctx.st.one<RunRow>('SELECT * FROM runs WHERE id = ?', id);
  if (existing && existing.tenant_id !== tenant.id) throw notFound(`Run ${id}`);
  if (!existing) {
    ingestCreate(ctx, tenant, { ...p, id, start_time: p.start_time ?? p.end_time });
    ctx.st.run('UPDATE runs SET is_stub = 1 WHERE id = ?', id);
    return;
  }
  const [pt, ct, tt] = tokenCounts(p);
  const mergedExtra = p.extra != null ? JSON.stringify({ ...(jsonOrNull(existing.extra) ?? {}), ...p.extra }) : null;
  ctx.st.run(
    `UPDATE runs SET end_time = COALESCE(@end_time, end_time), outputs = COALESCE(@outputs, outputs),
       error = COALESCE(@error, error), extra = COALESCE(@extra, extra), events = COALESCE(@events, events),
       tags = COALESCE(@tags, tags), inputs = COALESCE(@inputs, inputs), name = COALESCE(@name, name),
       trace_id = COALESCE(trace_id, @trace_id), dotted_order = COALESCE(dotted_order, @dotted_order),
       parent_run_id = COALESCE(parent_run_id, @parent_run_id),
       reference_example_id = COALESCE(@reference_example_id, reference_example_id),
       prompt_tokens = COALESCE(@pt, prompt_tokens), completion_tokens = COALESCE(@ct, completion_tokens),
       total_tokens = COALESCE(@tt, total_tokens)
     WHERE id = @id`,
    {
      id, end_time: parseTime(p.end_time), outputs: js(p.outputs), error: errorText(p.error), extra: mergedExtra,
      events: js(p.events), tags: js(p.tags), inputs: js(p.inputs), name: p.name ?? null, trace_id: p.trace_id ?? null,
      dotted_order: p.dotted_order ?? null, parent_run_id: p.parent_run_id ?? null,
      reference_example_id: p.reference_example_id ?? null, pt, ct, tt,
    },
  );
}

/** Creates then updates, all or nothing (a batch, or one create or update). */
export function ingestRuns(ctx: Ctx, tenant: Tenant, creates: RunPayload[], updates: RunPayload[]): void {
  ctx.st.tx(() => {
    for (const p of creates) ingestCreate(ctx, tenant, p);
    for (const p of updates) ingestUpdate(ctx, tenant, p.id!, p);
  });
}

/** One operation of a multipart ingest: the run's fields assembled from its parts, and its attachments. */
export interface MultipartOp {
  method: 'post' | 'patch';
  body: RunPayload & { id: string };
  attachments: Record<string, AttachmentRef>;
}

/** A multipart ingest, all or nothing: the attachment bytes, then every create, then every update. */
export function ingestMultipart(ctx: Ctx, tenant: Tenant, blobs: Array<[string, Buffer]>, ops: Iterable<MultipartOp>): void {
  const list = [...ops];
  ctx.st.tx(() => {
    for (const [hash, data] of blobs) ctx.st.run('INSERT OR IGNORE INTO blobs (hash, data) VALUES (?, ?)', hash, data);
    for (const op of list) if (op.method === 'post') ingestCreate(ctx, tenant, op.body, op.attachments);
    for (const op of list) if (op.method === 'patch') ingestUpdate(ctx, tenant, op.body.id, op.body);
  });
}

export function getRun(ctx: Ctx, tenant: Tenant, id: string): RunRow {
  const r = ctx.st.one<RunRow>('SELECT * FROM runs WHERE id = ? AND tenant_id = ?', id, tenant.id);
  if (!r) throw notFound(`Run ${id}`);
  return r;
}

// ---- the filter language over runs -----------------------------------------------------------------------

export function runFilterSql(text: string) {
  return compileRunFilter(text);
}

/** Feedback stats per run ({key: {n, avg}}) for a page of runs, in one query. */
export function runFeedbackStats(ctx: Ctx, ids: string[]): Map<string, Record<string, { n: number; avg: number | null }>> {
  const out = new Map<string, Record<string, { n: number; avg: number | null }>>();
  if (!ids.length) return out;
  for (const r of ctx.st.all<{ run_id: string; key: string; n: number; avg: number | null }>(
    // Feedback of the run's own workspace (another workspace may have sent feedback for the id before the run existed).
    `SELECT f.run_id, f.key, COUNT(*) AS n, AVG(f.score) AS avg FROM feedback f JOIN runs r ON r.id = f.run_id AND r.tenant_id = f.tenant_id
      WHERE f.run_id IN (SELECT value FROM json_each(?)) GROUP BY f.run_id, f.key`,
    JSON.stringify(ids),
  )) {
    if (!out.has(r.run_id)) out.set(r.run_id, {});
    out.get(r.run_id)![r.key] = { n: r.n, avg: r.avg };
  }
  return out;
}

// ---- queries -------------------------------------------------------------------------------------------------

/** Which runs a query asks for. A list that is given but empty matches nothing; one not given matches all. */
export interface RunQuery {
  sessions?: string[] | null;
  ids?: string[] | null;
  traces?: string[] | null;
  parents?: string[] | null;
  referenceExamples?: string[] | null;
  isRoot?: boolean | null;
  runType?: string | null;
  error?: boolean | null;
  /** Inclusive lower bound on start_time (ISO UTC). */
  minStart?: string | null;
  /** Upper bound on start_time (ISO UTC), inclusive unless `maxStartExclusive`. */
  maxStart?: string | null;
  maxStartExclusive?: boolean;
  filter?: string | null;
  traceFilter?: string | null;
  treeFilter?: string | null;
  /** Text searched in name, inputs and outputs. */
  search?: string | null;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** Where a query may look: the workspace, and for shared traces one trace of it. */
export interface RunScope {
  tenantId: string;
  traceId?: string;
}

/** The WHERE clause of a run query. */
export function runWhere(scope: RunScope, q: Omit<RunQuery, 'order' | 'limit' | 'offset'>): { sql: string; params: unknown[] } {
  const where: string[] = ['tenant_id = ?'];
  const params: unknown[] = [scope.tenantId];
  if (scope.traceId) {
    where.push('trace_id = ?');
    params.push(scope.traceId);
  }
  const inList = (col: string, vals: string[] | null | undefined) => {
    if (!vals) return;
    if (!vals.length) {
      where.push('0');
      return;
    }
    if (vals.length === 1) {
      // One value (a project's runs, the most common query): an equality the planner matches to an index's
      // leading column, such as a project's root runs by start time or by status.
      where.push(`${col} = ?`);
      params.push(vals[0]);
      return;
    }
    // One bound JSON list, not a `?` per id: a body may carry tens of thousands of ids.
    where.push(`${col} IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(vals));
  };
  inList('session_id', q.sessions);
  inList('id', q.ids);
  inList('trace_id', q.traces);
  inList('parent_run_id', q.parents);
  inList('reference_example_id', q.referenceExamples);
  if (q.isRoot === true) where.push('parent_run_id IS NULL');
  if (q.isRoot === false) where.push('parent_run_id IS NOT NULL');
  if (q.runType != null) {
    where.push('run_type = ?');
    params.push(q.runType);
  }
  if (q.error === true) where.push('error IS NOT NULL');
  if (q.error === false) where.push('error IS NULL');
  if (q.minStart) {
    where.push('start_time >= ?');
    params.push(q.minStart);
  }
  if (q.maxStart) {
    where.push(q.maxStartExclusive ? 'start_time < ?' : 'start_time <= ?');
    params.push(q.maxStart);
  }
  if (q.filter) {
    const c = runFilterSql(q.filter);
    where.push(c.sql);
    params.push(...c.params);
  }
  // The roots (trace_filter) or any runs (tree_filter) these filters test are the workspace's own, and of the
  // shared trace when reading one: another workspace may have sent runs naming this one's trace ids, and a
  // filter must not learn anything about their content.
  const own = scope.traceId ? 'runs.tenant_id = ? AND runs.trace_id = ?' : 'runs.tenant_id = ?';
  const ownParams = scope.traceId ? [scope.tenantId, scope.traceId] : [scope.tenantId];
  if (q.traceFilter) {
    const c = runFilterSql(q.traceFilter);
    where.push(`trace_id IN (SELECT runs.id FROM runs WHERE ${own} AND runs.parent_run_id IS NULL AND ${c.sql})`);
    params.push(...ownParams, ...c.params);
  }
  if (q.treeFilter) {
    const c = runFilterSql(q.treeFilter);
    where.push(`trace_id IN (SELECT runs.trace_id FROM runs WHERE ${own} AND ${c.sql})`);
    params.push(...ownParams, ...c.params);
  }
  if (q.search) {
    // A plain substring: % and _ in the text are not wildcards.
    const term = `%${q.search.replace(/[\\%_]/g, (ch) => '\\' + ch)}%`;
    where.push("(name LIKE ? ESCAPE '\\' OR inputs LIKE ? ESCAPE '\\' OR outputs LIKE ? ESCAPE '\\')");
    params.push(term, term, term);
  }
  return { sql: where.join(' AND '), params };
}

/** One page of runs (newest or oldest first), and whether more follow. */
export function queryRunRows(ctx: Ctx, scope: RunScope, q: RunQuery): { rows: RunRow[]; more: boolean } {
  const { sql, params } = runWhere(scope, q);
  const order = q.order === 'asc' ? 'ASC' : 'DESC';
  // Runs of one parent start within the same millisecond often: their dotted orders (microseconds) keep them in
  // the order they ran, however the parent was named (v1's parent_run or a filter on parent_run_id, as v2 reads
  // ask). For roots of one start time it orders by id, as before; SQLite sorts only within equal start times.
  const tieBreak = `dotted_order ${order}, `;
  const rows = ctx.st.all<RunRow>(
    `SELECT * FROM runs WHERE ${sql} ORDER BY start_time ${order}, ${tieBreak}id ${order} LIMIT ? OFFSET ?`,
    ...params, q.limit + 1, q.offset,
  );
  const more = rows.length > q.limit;
  return { rows: more ? rows.slice(0, q.limit) : rows, more };
}

/** Every run of a trace in tree order (dotted order), optionally narrowed. */
export function traceRuns(ctx: Ctx, tenantId: string, traceId: string, q: Omit<RunQuery, 'order' | 'limit' | 'offset'> = {}): RunRow[] {
  const { sql, params } = runWhere({ tenantId, traceId }, q);
  return ctx.st.all<RunRow>(`SELECT * FROM runs WHERE ${sql} ORDER BY dotted_order, start_time, id`, ...params);
}

export function traceExists(ctx: Ctx, tenantId: string, traceId: string): boolean {
  return !!ctx.st.one('SELECT 1 FROM runs WHERE trace_id = ? AND tenant_id = ? LIMIT 1', traceId, tenantId);
}

/** Datasets' experiments: the projects whose runs were made against a dataset. */
export function sessionsOfDataset(ctx: Ctx, tenant: Tenant, datasetId: string): { ids: string[]; earliest: string | null } {
  const rows = ctx.st.all<{ id: string; start_time: string }>(
    'SELECT id, start_time FROM sessions WHERE tenant_id = ? AND reference_dataset_id = ? ORDER BY start_time',
    tenant.id, datasetId,
  );
  return { ids: rows.map((r) => r.id), earliest: rows[0]?.start_time ?? null };
}

// ---- sharing -------------------------------------------------------------------------------------------------

/** Shares a run's trace: its token (the existing one when already shared; `wanted` when free). */
export function shareRun(ctx: Ctx, tenant: Tenant, id: string, wanted?: string | null): string {
  return ctx.st.tx(() => {
    const run = getRun(ctx, tenant, id);
    if (run.share_token) return run.share_token;
    let token = wanted && isUuid(wanted) ? wanted.toLowerCase() : newId();
    if (ctx.st.one('SELECT 1 FROM runs WHERE share_token = ? UNION SELECT 1 FROM datasets WHERE share_token = ?', token, token)) token = newId();
    ctx.st.run('UPDATE runs SET share_token = ? WHERE id = ?', token, id);
    return token;
  });
}

export function unshareRun(ctx: Ctx, tenant: Tenant, id: string): void {
  getRun(ctx, tenant, id);
  ctx.st.run('UPDATE runs SET share_token = NULL WHERE id = ?', id);
}

/** The run a share token names; a 404 for any token that names none. */
export function sharedRun(ctx: Ctx, token: string): RunRow {
  if (!isUuid(token)) throw notFound('Shared run');
  const r = ctx.st.one<RunRow>('SELECT * FROM runs WHERE share_token = ?', token.toLowerCase());
  if (!r) throw notFound('Shared run');
  return r;
}

/** A run inside the shared trace, or a 404 (also for a run of the same id in another trace or workspace). */
export function sharedTraceRun(ctx: Ctx, root: RunRow, id: string): RunRow {
  const r = ctx.st.one<RunRow>('SELECT * FROM runs WHERE id = ? AND trace_id = ? AND tenant_id = ?', id, root.trace_id ?? root.id, root.tenant_id);
  if (!r) throw notFound(`Run ${id}`);
  return r;
}

/** The shared trace's runs in tree order: all of them, or those of the given ids. */
export function sharedTraceRuns(ctx: Ctx, root: RunRow, ids: string[]): RunRow[] {
  const trace = root.trace_id ?? root.id;
  return ids.length
    ? ctx.st.all<RunRow>(
        'SELECT * FROM runs WHERE trace_id = ? AND tenant_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY dotted_order',
        trace, root.tenant_id, JSON.stringify(ids),
      )
    : ctx.st.all<RunRow>('SELECT * FROM runs WHERE trace_id = ? AND tenant_id = ? ORDER BY dotted_order', trace, root.tenant_id);
}

/** Which of these traces of the workspace have runs besides their root (one index probe each). */
export function tracesWithChildren(ctx: Ctx, tenantId: string, traceIds: string[]): string[] {
  if (!traceIds.length) return [];
  return ctx.st
    .all<{ id: string }>(
      `SELECT DISTINCT t.value AS id FROM json_each(?) t
        WHERE EXISTS (SELECT 1 FROM runs WHERE runs.trace_id = t.value AND runs.parent_run_id IS NOT NULL AND +runs.tenant_id = ?)`,
      JSON.stringify(traceIds), tenantId,
    )
    .map((r) => r.id);
}

/** Tokens summed over every run of each trace. */
export function traceTokenTotals(ctx: Ctx, tenantId: string, traceIds: string[]): Map<string, number> {
  if (!traceIds.length) return new Map();
  return new Map(
    ctx.st
      .all<{ trace_id: string; total: number }>(
        `SELECT trace_id, COALESCE(SUM(total_tokens), 0) AS total FROM runs
          WHERE trace_id IN (SELECT value FROM json_each(?)) AND tenant_id = ? GROUP BY trace_id`,
        JSON.stringify(traceIds), tenantId,
      )
      .map((r) => [r.trace_id, r.total]),
  );
}
