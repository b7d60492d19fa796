// Runs: ingestion (single, batch, multipart), reads, /runs/query with cursors, sharing and public reads.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Ctx, Tenant } from '../context';
import { compileFilter } from '../filter';
import {
  HttpError, badRequest, isUuid, jsonOrNull, newId, notFound, nowIso, originOf, parseTime, queryList, sha256,
  uuidParam,
} from '../util';
import { getSession, sessionByName } from '../store/sessions';
import { splitMultipart } from '../multipartBuffer';

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
}

export function runStatus(r: RunRow): string {
  if (r.error) return 'error';
  if (r.end_time) return 'success';
  return 'pending';
}

function ancestorsFromDotted(dotted: string | null): string[] {
  if (!dotted) return [];
  return dotted.split('.').map((seg) => seg.slice(seg.indexOf('Z') + 1)).slice(0, -1);
}

/** Run attachments as LangSmith lists them: s3_urls["attachment.<name>"] with a URL this server answers. */
function runAttachmentUrls(r: RunRow, origin: string): Record<string, unknown> | null {
  const a = jsonOrNull(r.attachments) as Record<string, { hash: string; mime_type: string }> | null;
  if (!a || !Object.keys(a).length) return null;
  const out: Record<string, unknown> = {};
  for (const [name, ref] of Object.entries(a)) {
    const url = `${origin}/attachments/${ref.hash}?type=${encodeURIComponent(ref.mime_type)}&name=${encodeURIComponent(name)}`;
    out[`attachment.${name}`] = { presigned_url: url, s3_url: url, mime_type: ref.mime_type };
  }
  return out;
}

export function runOut(r: RunRow, select?: Set<string> | null, origin?: string, feedbackStats?: Record<string, unknown> | null) {
  const full: Record<string, unknown> = {
    id: r.id,
    name: r.name ?? '',
    run_type: r.run_type ?? 'chain',
    start_time: r.start_time,
    end_time: r.end_time,
    inputs: jsonOrNull(r.inputs) ?? {},
    outputs: jsonOrNull(r.outputs),
    error: r.error,
    extra: jsonOrNull(r.extra) ?? {},
    events: jsonOrNull(r.events) ?? [],
    serialized: jsonOrNull(r.serialized),
    tags: jsonOrNull(r.tags) ?? [],
    session_id: r.session_id,
    trace_id: r.trace_id ?? r.id,
    dotted_order: r.dotted_order,
    parent_run_id: r.parent_run_id,
    parent_run_ids: ancestorsFromDotted(r.dotted_order),
    reference_example_id: r.reference_example_id,
    status: runStatus(r),
    prompt_tokens: r.prompt_tokens ?? 0,
    completion_tokens: r.completion_tokens ?? 0,
    total_tokens: r.total_tokens ?? 0,
    prompt_cost: null,
    completion_cost: null,
    total_cost: null,
    first_token_time: null,
    feedback_stats: feedbackStats ?? null,
    child_run_ids: null,
    app_path: `/o/${r.tenant_id}/projects/p/${r.session_id}/r/${r.id}?trace_id=${r.trace_id ?? r.id}&start_time=${r.start_time ?? ''}`,
    share_token: r.share_token,
    in_dataset: false,
    s3_urls: origin ? runAttachmentUrls(r, origin) : null,
  };
  if (!select || !select.size) return full;
  const out: Record<string, unknown> = { id: r.id };
  for (const k of select) if (k in full) out[k] = full[k];
  return out;
}

/** A run create/update as the API accepts it; open-ended like LangSmith's, but typed where it matters. */
function checkRunPayload(p: any, where: string, requireId: boolean): void {
  if (!p || typeof p !== 'object' || Array.isArray(p)) throw new HttpError(422, `${where}: expected a JSON object`);
  if (requireId || p.id !== undefined) {
    if (!isUuid(p.id)) throw new HttpError(422, `${where}.id: "${String(p.id)}" is not a valid UUID`);
  }
  for (const k of ['trace_id', 'parent_run_id', 'session_id', 'reference_example_id']) {
    if (p[k] != null && !isUuid(p[k])) throw new HttpError(422, `${where}.${k}: "${String(p[k])}" is not a valid UUID`);
  }
  for (const k of ['start_time', 'end_time']) {
    if (p[k] != null && !parseTime(p[k])) throw new HttpError(422, `${where}.${k}: "${String(p[k])}" is not a valid timestamp`);
  }
  for (const k of ['inputs', 'outputs', 'extra', 'serialized']) {
    if (p[k] != null && (typeof p[k] !== 'object' || Array.isArray(p[k]))) throw new HttpError(422, `${where}.${k}: expected an object`);
  }
  if (p.events != null && !Array.isArray(p.events)) throw new HttpError(422, `${where}.events: expected an array`);
  if (p.tags != null && (!Array.isArray(p.tags) || p.tags.some((t: unknown) => typeof t !== 'string')))
    throw new HttpError(422, `${where}.tags: expected an array of strings`);
  for (const k of ['name', 'run_type', 'session_name', 'dotted_order']) {
    if (p[k] != null && typeof p[k] !== 'string') throw new HttpError(422, `${where}.${k}: expected a string`);
  }
  if (p.error != null && typeof p.error !== 'string' && typeof p.error !== 'object')
    throw new HttpError(422, `${where}.error: expected a string`);
  if (p.dotted_order != null && !/^\d{8}T\d{6,12}Z[0-9a-f-]{36}(\.\d{8}T\d{6,12}Z[0-9a-f-]{36})*$/i.test(p.dotted_order))
    throw new HttpError(422, `${where}.dotted_order: "${p.dotted_order}" is not a valid dotted order`);
}

const compactTime = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1000Z');

function tokenCounts(p: any): [number | null, number | null, number | null] {
  const usage = p.outputs?.llm_output?.token_usage ?? p.outputs?.usage_metadata ?? p.extra?.metadata?.usage_metadata;
  const pt = p.prompt_tokens ?? usage?.prompt_tokens ?? usage?.input_tokens ?? null;
  const ct = p.completion_tokens ?? usage?.completion_tokens ?? usage?.output_tokens ?? null;
  const tt = p.total_tokens ?? usage?.total_tokens ?? (pt != null || ct != null ? (pt ?? 0) + (ct ?? 0) : null);
  return [typeof pt === 'number' ? pt : null, typeof ct === 'number' ? ct : null, typeof tt === 'number' ? tt : null];
}

const errorText = (e: unknown) => (e == null ? null : typeof e === 'string' ? e : JSON.stringify(e));
const js = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/** Insert or merge a run create. A create that meets an existing row fills only what is still empty. */
export function ingestCreate(ctx: Ctx, tenant: Tenant, p: any, attachments?: Record<string, unknown>) {
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
export function ingestUpdate(ctx: Ctx, tenant: Tenant, id: string, p: any) {
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

export function getRun(ctx: Ctx, tenant: Tenant, id: string): RunRow {
  const r = ctx.st.one<RunRow>('SELECT * FROM runs WHERE id = ? AND tenant_id = ?', id, tenant.id);
  if (!r) throw notFound(`Run ${id}`);
  return r;
}

const RUN_FIELDS: Record<string, string> = {
  id: 'id', name: 'name', run_type: 'run_type', start_time: 'start_time', end_time: 'end_time', trace_id: 'trace_id',
  parent_run_id: 'parent_run_id', session_id: 'session_id', reference_example_id: 'reference_example_id',
  total_tokens: 'total_tokens', prompt_tokens: 'prompt_tokens', completion_tokens: 'completion_tokens', error: 'error',
  status: "(CASE WHEN error IS NOT NULL THEN 'error' WHEN end_time IS NOT NULL THEN 'success' ELSE 'pending' END)",
  latency: 'ROUND((julianday(end_time) - julianday(start_time)) * 86400.0, 3)',
  is_root: '(parent_run_id IS NULL)',
};

export function runFilterSql(text: string) {
  return compileFilter(text, {
    field: (n) => RUN_FIELDS[n],
    special(fn, args, lit, params) {
      if (fn === 'has' && args.length === 2 && args[0].kind === 'ident' && args[0].name === 'tags') {
        params.push(lit(args[1]));
        return 'EXISTS (SELECT 1 FROM json_each(runs.tags) WHERE value = ?)';
      }
      if (fn === 'search' && args.length === 1) {
        const term = `%${String(lit(args[0]))}%`;
        params.push(term, term, term);
        return '(name LIKE ? OR inputs LIKE ? OR outputs LIKE ?)';
      }
      if ((fn === 'eq' || fn === 'neq') && args.length === 2 && args[0].kind === 'ident' && args[0].name.startsWith('metadata.')) {
        params.push(`$.metadata.${args[0].name.slice('metadata.'.length)}`, lit(args[1]));
        return `json_extract(extra, ?) ${fn === 'eq' ? '=' : '!='} ?`;
      }
      return undefined;
    },
  });
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

/** Cursor = base64 of the offset into a stable ordering. */
const encodeCursor = (n: number) => Buffer.from(`o:${n}`).toString('base64url');
function decodeCursor(c: unknown): number {
  if (c == null || c === '') return 0;
  const s = Buffer.from(String(c), 'base64url').toString();
  const m = /^o:(\d+)$/.exec(s);
  if (!m) throw new HttpError(422, 'cursor: not a valid cursor');
  return Number(m[1]);
}

export function queryRuns(ctx: Ctx, scope: { tenantId: string; traceId?: string; origin?: string }, body: any) {
  if (body === null || body === undefined) body = {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new HttpError(422, 'body: expected a JSON object');
  const where: string[] = ['tenant_id = ?'];
  const params: unknown[] = [scope.tenantId];
  if (scope.traceId) {
    where.push('trace_id = ?');
    params.push(scope.traceId);
  }
  const list = (k: string): string[] | null => {
    const v = body[k];
    if (v == null) return null;
    const arr = Array.isArray(v) ? v : [v];
    for (const x of arr) if (!isUuid(x)) throw new HttpError(422, `body.${k}: "${String(x)}" is not a valid UUID`);
    return arr.map((x: string) => x.toLowerCase());
  };
  const inList = (col: string, vals: string[] | null) => {
    if (!vals) return;
    if (!vals.length) {
      where.push('0');
      return;
    }
    where.push(`${col} IN (${vals.map(() => '?').join(',')})`);
    params.push(...vals);
  };
  inList('session_id', list('session'));
  inList('id', list('id'));
  inList('trace_id', list('trace'));
  inList('parent_run_id', list('parent_run'));
  inList('reference_example_id', list('reference_example'));
  if (body.is_root === true) where.push('parent_run_id IS NULL');
  if (body.is_root === false) where.push('parent_run_id IS NOT NULL');
  if (body.run_type != null) {
    where.push('run_type = ?');
    params.push(String(body.run_type));
  }
  if (body.error === true) where.push('error IS NOT NULL');
  if (body.error === false) where.push('error IS NULL');
  if (body.start_time != null) {
    const t = parseTime(body.start_time);
    if (!t) throw new HttpError(422, 'body.start_time: not a valid timestamp');
    where.push('start_time >= ?');
    params.push(t);
  }
  if (body.end_time != null) {
    const t = parseTime(body.end_time);
    if (!t) throw new HttpError(422, 'body.end_time: not a valid timestamp');
    where.push('start_time <= ?');
    params.push(t);
  }
  for (const key of ['filter', 'trace_filter', 'tree_filter']) {
    const f = body[key];
    if (f == null || f === '') continue;
    if (typeof f !== 'string') throw new HttpError(422, `body.${key}: expected a string`);
    const c = runFilterSql(f);
    if (key === 'filter') {
      where.push(c.sql);
      params.push(...c.params);
    } else if (key === 'trace_filter') {
      where.push(`trace_id IN (SELECT runs.id FROM runs WHERE parent_run_id IS NULL AND ${c.sql})`);
      params.push(...c.params);
    } else {
      where.push(`trace_id IN (SELECT runs.trace_id FROM runs WHERE ${c.sql})`);
      params.push(...c.params);
    }
  }
  if (body.query != null && body.query !== '') {
    const term = `%${String(body.query)}%`;
    where.push('(name LIKE ? OR inputs LIKE ? OR outputs LIKE ?)');
    params.push(term, term, term);
  }
  const limitRaw = body.limit ?? 100;
  if (!Number.isInteger(limitRaw) || limitRaw < 1) throw new HttpError(422, 'body.limit: expected a positive integer');
  const limit = Math.min(limitRaw, 100);
  const offset = decodeCursor(body.cursor);
  const order = body.order === 'asc' ? 'ASC' : 'DESC';
  const select = Array.isArray(body.select) ? new Set<string>(body.select.map((s: unknown) => String(s).toLowerCase())) : null;
  // Runs of one parent start within the same millisecond often: their dotted orders (microseconds) keep them in
  // the order they ran. (Root listings keep the index's order: start time, then id.)
  const tieBreak = list('parent_run')?.length ? `dotted_order ${order}, ` : '';
  const rows = ctx.st.all<RunRow>(
    `SELECT * FROM runs WHERE ${where.join(' AND ')} ORDER BY start_time ${order}, ${tieBreak}id ${order} LIMIT ? OFFSET ?`,
    ...params, limit + 1, offset,
  );
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const wantStats = !select || select.has('feedback_stats');
  const stats = wantStats ? runFeedbackStats(ctx, page.map((r) => r.id)) : new Map();
  return {
    runs: page.map((r) => runOut(r, select, scope.origin, stats.get(r.id) ?? (wantStats ? {} : null))),
    cursors: { next: more ? encodeCursor(offset + limit) : null, prev: offset > 0 ? encodeCursor(Math.max(0, offset - limit)) : null },
  };
}

export function parseMaybeJson(body: unknown): unknown {
  if (typeof body === 'string') {
    const t = body.trim();
    if (!t) return undefined;
    try {
      return JSON.parse(t);
    } catch {
      throw badRequest('Request body is not valid JSON');
    }
  }
  return body;
}

/** Reads every part of a multipart body into memory: name → {data, contentType}. */
export interface Part {
  name: string;
  data: Buffer;
  contentType: string;
  filename?: string;
}

export async function readParts(req: FastifyRequest): Promise<Part[]> {
  if (Buffer.isBuffer(req.body)) return splitMultipart(req.body, String(req.headers['content-type'] ?? ''));
  if (!req.isMultipart()) throw new HttpError(422, 'Expected a multipart/form-data body');
  const out: Part[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') out.push({ name: part.fieldname, data: await part.toBuffer(), contentType: part.mimetype, filename: part.filename });
      else out.push({ name: part.fieldname, data: Buffer.from(String(part.value)), contentType: part.mimetype });
    }
  } catch (e: any) {
    if (e instanceof HttpError) throw e;
    throw new HttpError(e?.statusCode && e.statusCode < 500 ? e.statusCode : 400, `Malformed multipart body: ${e?.message ?? e}`);
  }
  return out;
}

function parsePartJson(part: { name: string; data: Buffer }): any {
  try {
    return JSON.parse(part.data.toString('utf8'));
  } catch {
    throw new HttpError(422, `Part ${part.name}: not valid JSON`);
  }
}

const mimeOf = (ct: string) => ct.split(';')[0].trim() || 'application/octet-stream';

export function registerRuns(app: FastifyInstance, ctx: Ctx) {
  app.post('/runs', async (req, reply) => {
    const p = parseMaybeJson(req.body);
    checkRunPayload(p, 'body', false);
    ctx.st.tx(() => ingestCreate(ctx, req.tenant, p));
    reply.code(202);
    return { message: 'Run created' };
  });

  app.patch('/runs/:id', async (req, reply) => {
    const id = uuidParam((req.params as any).id, 'run_id');
    const p = parseMaybeJson(req.body) ?? {};
    checkRunPayload(p, 'body', false);
    ctx.st.tx(() => ingestUpdate(ctx, req.tenant, id, p));
    reply.code(202);
    return { message: 'Run updated' };
  });

  app.post('/runs/batch', async (req, reply) => {
    const b: any = parseMaybeJson(req.body);
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw new HttpError(422, 'body: expected {post: [...], patch: [...]}');
    const post = b.post ?? [];
    const patch = b.patch ?? [];
    if (!Array.isArray(post) || !Array.isArray(patch)) throw new HttpError(422, 'body.post and body.patch must be arrays');
    post.forEach((p: any, i: number) => checkRunPayload(p, `body.post.${i}`, true));
    patch.forEach((p: any, i: number) => checkRunPayload(p, `body.patch.${i}`, true));
    ctx.st.tx(() => {
      for (const p of post) ingestCreate(ctx, req.tenant, p);
      for (const p of patch) ingestUpdate(ctx, req.tenant, p.id, p);
    });
    reply.code(202);
    return { message: 'Runs batch ingested' };
  });

  app.post('/runs/query', async (req) => queryRuns(ctx, { tenantId: req.tenant.id, origin: originOf(req) }, parseMaybeJson(req.body)));

  app.get('/runs/:id', async (req) => {
    const id = uuidParam((req.params as any).id, 'run_id');
    return runOut(getRun(ctx, req.tenant, id), null, originOf(req), runFeedbackStats(ctx, [id]).get(id) ?? {});
  });

  // Sharing: a token shares the run's whole trace.
  app.put('/runs/:id/share', async (req) => {
    const id = uuidParam((req.params as any).id, 'run_id');
    const b: any = parseMaybeJson(req.body) ?? {};
    return ctx.st.tx(() => {
      const run = getRun(ctx, req.tenant, id);
      if (run.share_token) return { run_id: id, share_token: run.share_token };
      let token = isUuid(b.share_token) ? b.share_token.toLowerCase() : newId();
      if (ctx.st.one('SELECT 1 FROM runs WHERE share_token = ? UNION SELECT 1 FROM datasets WHERE share_token = ?', token, token))
        token = newId();
      ctx.st.run('UPDATE runs SET share_token = ? WHERE id = ?', token, id);
      return { run_id: id, share_token: token };
    });
  });
  app.get('/runs/:id/share', async (req) => {
    const id = uuidParam((req.params as any).id, 'run_id');
    const run = getRun(ctx, req.tenant, id);
    return run.share_token ? { run_id: id, share_token: run.share_token } : null;
  });
  app.delete('/runs/:id/share', async (req) => {
    const id = uuidParam((req.params as any).id, 'run_id');
    getRun(ctx, req.tenant, id);
    ctx.st.run('UPDATE runs SET share_token = NULL WHERE id = ?', id);
    return {};
  });
}

export function sharedRun(ctx: Ctx, token: string): RunRow {
  if (!isUuid(token)) throw notFound('Shared run');
  const r = ctx.st.one<RunRow>('SELECT * FROM runs WHERE share_token = ?', token.toLowerCase());
  if (!r) throw notFound('Shared run');
  return r;
}

/** Multipart run ingestion; registered in a scope where multipart bodies arrive buffered. */
export function registerRunsMultipart(app: FastifyInstance, ctx: Ctx) {
  app.post('/runs/multipart', async (req, reply) => {
    const parts = await readParts(req);
    const ops = new Map<string, { method: 'post' | 'patch'; body: any; attachments: Record<string, unknown> }>();
    const blobs: Array<[string, Buffer]> = [];
    const opFor = (method: 'post' | 'patch', id: string) => {
      const key = `${method}.${id}`;
      if (!ops.has(key)) ops.set(key, { method, body: { id }, attachments: {} });
      return ops.get(key)!;
    };
    for (const part of parts) {
      const segs = part.name.split('.');
      if (segs[0] === 'post' || segs[0] === 'patch') {
        const id = segs[1];
        if (!isUuid(id)) throw new HttpError(422, `Part ${part.name}: "${id}" is not a valid run id`);
        const op = opFor(segs[0], id);
        const value = parsePartJson(part);
        if (segs.length === 2) {
          if (!value || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(422, `Part ${part.name}: expected an object`);
          Object.assign(op.body, value, { id });
        } else if (segs.length === 3 && ['inputs', 'outputs', 'events', 'extra', 'error', 'serialized'].includes(segs[2])) {
          op.body[segs[2]] = value;
        } else throw new HttpError(422, `Part ${part.name}: unknown run field`);
      } else if (segs[0] === 'attachment' && segs.length >= 3) {
        const id = segs[1];
        if (!isUuid(id)) throw new HttpError(422, `Part ${part.name}: "${id}" is not a valid run id`);
        const name = segs.slice(2).join('.');
        const hash = sha256(part.data);
        blobs.push([hash, part.data]);
        const op = ops.get(`post.${id}`) ?? opFor('post', id);
        op.attachments[name] = { hash, mime_type: mimeOf(part.contentType), size: part.data.length };
      } else throw new HttpError(422, `Part ${part.name}: unknown part (expected post.<id>, patch.<id> or attachment.<id>.<name>)`);
    }
    for (const [key, op] of ops) checkRunPayload(op.body, key, true);
    ctx.st.tx(() => {
      for (const [hash, data] of blobs) ctx.st.run('INSERT OR IGNORE INTO blobs (hash, data) VALUES (?, ?)', hash, data);
      for (const op of ops.values()) if (op.method === 'post') ingestCreate(ctx, req.tenant, op.body, op.attachments);
      for (const op of ops.values()) if (op.method === 'patch') ingestUpdate(ctx, req.tenant, op.body.id, op.body);
    });
    reply.code(202);
    return { message: 'Runs ingested' };
  });

}

/** Public reads by share token: no API key. */
export function registerPublicRuns(app: FastifyInstance, ctx: Ctx) {
  const pub = { config: { public: true } };
  app.get('/public/:token/run', pub, async (req) => runOut(sharedRun(ctx, (req.params as any).token)));
  app.get('/public/:token/run/:id', pub, async (req) => {
    const root = sharedRun(ctx, (req.params as any).token);
    const id = uuidParam((req.params as any).id, 'id');
    const r = ctx.st.one<RunRow>('SELECT * FROM runs WHERE id = ? AND trace_id = ? AND tenant_id = ?', id, root.trace_id ?? root.id, root.tenant_id);
    if (!r) throw notFound(`Run ${id}`);
    return runOut(r);
  });
  app.post('/public/:token/runs/query', pub, async (req) => {
    const root = sharedRun(ctx, (req.params as any).token);
    return queryRuns(ctx, { tenantId: root.tenant_id, traceId: root.trace_id ?? root.id }, parseMaybeJson(req.body));
  });
  const listShared = (token: string, ids: string[]) => {
    const root = sharedRun(ctx, token);
    ids.forEach((i) => uuidParam(i, 'id'));
    const rows = ids.length
      ? ctx.st.all<RunRow>(
          `SELECT * FROM runs WHERE trace_id = ? AND tenant_id = ? AND id IN (${ids.map(() => '?').join(',')}) ORDER BY dotted_order`,
          root.trace_id ?? root.id, root.tenant_id, ...ids.map((i) => i.toLowerCase()),
        )
      : ctx.st.all<RunRow>('SELECT * FROM runs WHERE trace_id = ? AND tenant_id = ? ORDER BY dotted_order', root.trace_id ?? root.id, root.tenant_id);
    return rows.map((r) => runOut(r));
  };
  app.get('/public/:token/runs', pub, async (req) => listShared((req.params as any).token, queryList(req.query as any, 'id')));
  // The official JS client appends its query string to `/runs` without a `?`; accept that spelling too.
  app.get('/public/:token/:tail', pub, async (req) => {
    const tail: string = (req.params as any).tail;
    if (!tail.startsWith('runs')) throw notFound('Not Found');
    const qs = new URLSearchParams(tail.slice('runs'.length));
    const token = qs.get('share_token') ?? (req.params as any).token;
    if (token !== (req.params as any).token) throw notFound('Shared run');
    return listShared(token, qs.getAll('id'));
  });
}
