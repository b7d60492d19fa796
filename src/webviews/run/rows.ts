// Runs as the trace viewer's page receives them: a row per run for the tree, the trace's header from its root,
// a thread's turns. Plain functions over the client's run shape (v1's, which the v2 reads are turned into).
import type { Run } from '../../client';
import type { ThreadStats, ThreadTurn as ClientThreadTurn } from '../../client/resources/threads';
import type { Cost, ProjectRef, RunRow, RunStatus, ThreadTurn, Tokens, TraceHeader } from '../../protocol/trace';
import { cutPayload } from './payload';

const MAX_NAME = 2000;
const MAX_PREVIEW = 300;

/** Epoch milliseconds of an API time (ISO text without a zone is UTC, as LangSmith writes it), or null. */
export function epochMs(t: unknown): number | null {
  if (typeof t === 'number') return Number.isFinite(t) ? t : null;
  if (typeof t !== 'string' || !t) return null;
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(t) ? t : `${t}Z`);
  return Number.isNaN(ms) ? null : ms;
}

function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

function count(v: unknown): number | null {
  const n = num(v);
  return n === null || n < 0 ? null : Math.round(n);
}

function field(run: Run, name: string): unknown {
  return (run as Record<string, unknown>)[name];
}

export function statusOf(run: Run): RunStatus {
  const s = String(run.status ?? '').toLowerCase();
  if (run.error || s === 'error') return 'error';
  if (s === 'pending' || s === 'running' || (run.end_time == null && s !== 'success')) return 'pending';
  return 'success';
}

/** The run's `<part>_<what>` fields (prompt_tokens, completion_tokens, total_tokens; the same for cost). */
function parts<T>(run: Run, what: 'tokens' | 'cost', read: (v: unknown) => T): { prompt: T; completion: T; total: T } {
  const [prompt, completion, total] = (['prompt', 'completion', 'total'] as const).map((part) => read(field(run, `${part}_${what}`)));
  return { prompt: prompt!, completion: completion!, total: total! };
}

export function tokensOf(run: Run): Tokens {
  return parts(run, 'tokens', count);
}

/** The run's costs, or null when the server reports none. */
export function costOf(run: Run): Cost | null {
  const cost = parts(run, 'cost', num);
  return cost.prompt === null && cost.completion === null && cost.total === null ? null : cost;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The first line of an error, shortened. */
export function errorPreview(run: Run): string | null {
  const e = run.error ?? field(run, 'error_preview');
  if (typeof e !== 'string' || !e) return null;
  const line = e.split('\n').find((l) => l.trim()) ?? e;
  return clip(line.trim(), MAX_PREVIEW);
}

/** The parent: v1's parent_run_id, or the last of v2's ancestors. */
function parentOf(run: Run): string | null {
  if (typeof run.parent_run_id === 'string' && run.parent_run_id) return run.parent_run_id;
  const ancestors = field(run, 'parent_run_ids');
  if (Array.isArray(ancestors) && ancestors.length) {
    const last = ancestors[ancestors.length - 1];
    return typeof last === 'string' ? last : null;
  }
  return null;
}

export function toRow(run: Run): RunRow {
  return {
    id: run.id,
    parentId: parentOf(run),
    dottedOrder: typeof run.dotted_order === 'string' ? run.dotted_order.slice(0, 20_000) : '',
    name: clip(run.name ?? run.id, MAX_NAME),
    runType: clip(String(run.run_type ?? 'chain').toLowerCase(), 50),
    status: statusOf(run),
    start: epochMs(run.start_time),
    end: epochMs(run.end_time),
    firstToken: epochMs(field(run, 'first_token_time')),
    tokens: tokensOf(run),
    cost: costOf(run),
    errorPreview: errorPreview(run),
  };
}

/**
 * The rows as they go to the page: in tree order (by dotted order), each naming its parent, without the dotted
 * order itself. A dotted order holds every ancestor's time and id, so a deep trace's rows were mostly dotted
 * orders; the page orders siblings by start time and then by the order received, which is the same order.
 */
export function slimRows(rows: readonly RunRow[]): RunRow[] {
  const sorted = [...rows].sort((a, b) => (a.dottedOrder === b.dottedOrder ? 0 : !a.dottedOrder ? 1 : !b.dottedOrder ? -1 : a.dottedOrder < b.dottedOrder ? -1 : 1));
  return sorted.map((r) => (r.dottedOrder ? { ...r, dottedOrder: '' } : r));
}

/** The thread a run belongs to: its metadata's thread_id, session_id or conversation_id (LangSmith's order). */
export function threadIdOf(run: Run): string | null {
  const direct = field(run, 'thread_id');
  if (typeof direct === 'string' && direct) return direct;
  const meta = run.extra && typeof run.extra === 'object' ? (run.extra as { metadata?: unknown }).metadata : undefined;
  if (!meta || typeof meta !== 'object') return null;
  for (const key of ['thread_id', 'session_id', 'conversation_id']) {
    const v = (meta as Record<string, unknown>)[key];
    if (typeof v === 'string' && v) return v;
  }
  return null;
}

/**
 * The root of a trace's runs: the run whose id is the trace id, else the first without a parent among them,
 * else the earliest.
 */
export function rootOf(runs: readonly Run[], traceId: string): Run | undefined {
  const ids = new Set(runs.map((r) => r.id));
  return (
    runs.find((r) => r.id === traceId) ??
    runs.find((r) => !parentOf(r) || !ids.has(parentOf(r)!)) ??
    [...runs].sort((a, b) => (epochMs(a.start_time) ?? 0) - (epochMs(b.start_time) ?? 0))[0]
  );
}

/**
 * The trace's tokens and cost: the root's own figures when it has them (LangSmith rolls a trace's up into its
 * root), else the sums over its llm runs.
 */
function totals(root: Run, rows: readonly RunRow[]): { tokens: Tokens; cost: Cost | null } {
  const rootTokens = tokensOf(root);
  const rootCost = costOf(root);
  if (rootTokens.total !== null && rootTokens.total > 0) return { tokens: rootTokens, cost: rootCost };
  const add = (a: number | null, b: number | null) => (b === null ? a : (a ?? 0) + b);
  const tokens: Tokens = { prompt: null, completion: null, total: null };
  const cost: Cost = { prompt: null, completion: null, total: null };
  for (const r of rows) {
    if (r.runType !== 'llm') continue;
    tokens.prompt = add(tokens.prompt, r.tokens.prompt);
    tokens.completion = add(tokens.completion, r.tokens.completion);
    tokens.total = add(tokens.total, r.tokens.total);
    cost.prompt = add(cost.prompt, r.cost?.prompt ?? null);
    cost.completion = add(cost.completion, r.cost?.completion ?? null);
    cost.total = add(cost.total, r.cost?.total ?? null);
  }
  const anyCost = cost.prompt !== null || cost.completion !== null || cost.total !== null;
  return { tokens, cost: rootCost ?? (anyCost ? cost : null) };
}

export function headerOf(
  root: Run,
  rows: readonly RunRow[],
  o: { traceId: string; project: ProjectRef | null; shareUrl: string | null; readOnly: boolean },
): TraceHeader {
  const row = toRow(root);
  const anyPending = rows.some((r) => r.status === 'pending');
  const anyError = rows.some((r) => r.status === 'error');
  const t = totals(root, rows);
  return {
    traceId: o.traceId,
    rootRunId: root.id,
    name: row.name,
    runType: row.runType,
    // A trace is running while its root is; it failed when its root did.
    status: row.status === 'pending' || (anyPending && row.end === null) ? 'pending' : row.status === 'error' || (anyError && row.status !== 'success') ? 'error' : row.status,
    start: row.start,
    end: row.end,
    tokens: t.tokens,
    cost: t.cost,
    project: o.project,
    threadId: threadIdOf(root),
    shareUrl: o.shareUrl,
    readOnly: o.readOnly,
  };
}

/** A thread's turn (a trace, with its root run's payloads) as the page shows it. */
export function toTurn(t: ClientThreadTurn): ThreadTurn {
  const failed = t.status === 'error';
  return {
    traceId: t.trace_id,
    rootRunId: t.root_run_id,
    name: clip(t.name ?? t.trace_id, MAX_NAME),
    status: t.status,
    start: epochMs(t.start_time),
    end: epochMs(t.end_time),
    tokens: { prompt: count(t.prompt_tokens), completion: count(t.completion_tokens), total: count(t.total_tokens) },
    cost: t.prompt_cost === null && t.completion_cost === null && t.total_cost === null ? null : { prompt: t.prompt_cost, completion: t.completion_cost, total: t.total_cost },
    inputs: t.inputs == null ? null : cutPayload(t.inputs, { ...TURN_LIMITS }),
    outputs: t.outputs == null ? null : cutPayload(t.outputs, { ...TURN_LIMITS }),
    errorPreview: failed || t.error_preview ? clip((t.error_preview ?? '').split('\n').find((l) => l.trim())?.trim() ?? '', MAX_PREVIEW) || null : null,
  };
}

/** A thread's totals from its stats (the turns shown count errors when the server does not). */
export function threadTotals(stats: ThreadStats) {
  const cost = stats.prompt_cost === null && stats.completion_cost === null && stats.total_cost === null ? null : { prompt: stats.prompt_cost, completion: stats.completion_cost, total: stats.total_cost };
  return {
    turns: stats.turns,
    // The API says seconds; the page counts in milliseconds, as it does every time.
    latencyP50: stats.latency_p50 === null ? null : stats.latency_p50 * 1000,
    latencyP99: stats.latency_p99 === null ? null : stats.latency_p99 * 1000,
    tokens: { prompt: count(stats.prompt_tokens), completion: count(stats.completion_tokens), total: count(stats.total_tokens) },
    cost,
    erroredTurns: stats.errored_turns,
  };
}

/** A turn's payloads are a preview: a thread of many turns must stay small. */
const TURN_LIMITS = { string: 4_000, array: 50, object: 100, depth: 20, budget: 40_000, spentString: 200, spentItems: 10, cuts: 200 };
