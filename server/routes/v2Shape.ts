// The run as LangSmith's v2 API answers it: only the fields named in `selects` (the id alone when none are),
// upper-case run types and statuses, `project_id` for the project. A selected field that has no value is left
// out, as v2 does, except `end_time`, which v2 documents as JSON null while a run is pending.
import { z } from 'zod';
import type { Ctx } from '../context';
import { qList } from '../route';
import { ancestorsFromDotted, firstTokenTime, runCosts, runFeedbackStats, runStatus, threadIdOf, type RunRow } from '../store/runs';
import { HttpError } from '../errors';
import { jsonOrNull } from '../json';
import { runAttachmentUrls } from './runsShape';

export const RUN_SELECTS = [
  'ID', 'NAME', 'RUN_TYPE', 'STATUS', 'START_TIME', 'END_TIME', 'LATENCY_SECONDS', 'FIRST_TOKEN_TIME', 'ERROR', 'ERROR_PREVIEW',
  'EXTRA', 'METADATA', 'EVENTS', 'INPUTS', 'INPUTS_PREVIEW', 'OUTPUTS', 'OUTPUTS_PREVIEW', 'MANIFEST', 'PARENT_RUN_ID',
  'PARENT_RUN_IDS', 'PROJECT_ID', 'TRACE_ID', 'THREAD_ID', 'DOTTED_ORDER', 'IS_ROOT', 'REFERENCE_EXAMPLE_ID', 'REFERENCE_DATASET_ID',
  'TOTAL_TOKENS', 'PROMPT_TOKENS', 'COMPLETION_TOKENS', 'TOTAL_COST', 'PROMPT_COST', 'COMPLETION_COST', 'PROMPT_TOKEN_DETAILS',
  'COMPLETION_TOKEN_DETAILS', 'PROMPT_COST_DETAILS', 'COMPLETION_COST_DETAILS', 'PRICE_MODEL_ID', 'TAGS', 'APP_PATH', 'ATTACHMENTS',
  'THREAD_EVALUATION_TIME', 'IS_IN_DATASET', 'LAST_QUEUED_AT', 'SHARE_URL', 'FEEDBACK_STATS',
] as const;
export type RunSelect = (typeof RUN_SELECTS)[number];

/** `selects` in a JSON body. */
export const bodySelects = () => z.array(z.enum(RUN_SELECTS)).nullish();
/** `selects` as a repeated query parameter. */
export const querySelects = () => qList().pipe(z.array(z.enum(RUN_SELECTS)));

/** How far back v2 reads look when the caller gives no start: one day, as LangSmith's. */
export const DEFAULT_WINDOW_MS = 24 * 3600 * 1000;

export const RUN_TYPES = ['TOOL', 'CHAIN', 'LLM', 'RETRIEVER', 'EMBEDDING', 'PROMPT', 'PARSER'] as const;

/** Seconds from start to end, or null while the run is pending. */
export function latencySeconds(r: Pick<RunRow, 'start_time' | 'end_time'>): number | null {
  if (!r.start_time || !r.end_time) return null;
  return Math.round(Date.parse(r.end_time) - Date.parse(r.start_time)) / 1000;
}

const PREVIEW_CHARS = 150;

/**
 * A short plain-text preview of a JSON payload: its first text value when it has one (a question, a prompt, an
 * answer is what a reader looks for), else the JSON itself; cut to PREVIEW_CHARS.
 */
export function preview(json: string | null): string | null {
  if (json == null) return null;
  const v = jsonOrNull(json) as unknown;
  let text: string;
  if (typeof v === 'string') text = v;
  else if (v && typeof v === 'object' && !Array.isArray(v)) {
    const first = Object.values(v).find((x) => typeof x === 'string') as string | undefined;
    text = first ?? JSON.stringify(v);
  } else text = JSON.stringify(v);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

/** What some selected fields need besides the row, read once for a page of runs. */
export interface RunExtras {
  origin?: string;
  feedback?: Map<string, Record<string, { n: number; avg: number | null }>>;
  /** The share token of each shared trace (trace id → token). */
  shares?: Map<string, string>;
  /** The dataset of each reference example (example id → dataset id). */
  datasets?: Map<string, string>;
  /** When each run was last added to an annotation queue. */
  queued?: Map<string, string>;
}

/** Reads what the selected fields of a page of runs need, in one query each. */
export function runExtras(ctx: Ctx, rows: RunRow[], selects: ReadonlySet<RunSelect>, origin?: string): RunExtras {
  const out: RunExtras = { origin };
  if (!rows.length) return out;
  const ids = JSON.stringify(rows.map((r) => r.id));
  if (selects.has('FEEDBACK_STATS')) out.feedback = runFeedbackStats(ctx, rows.map((r) => r.id));
  if (selects.has('SHARE_URL')) {
    const traces = JSON.stringify([...new Set(rows.map((r) => r.trace_id ?? r.id))]);
    out.shares = new Map(
      ctx.st
        .all<{ id: string; share_token: string }>(
          'SELECT id, share_token FROM runs WHERE id IN (SELECT value FROM json_each(?)) AND tenant_id = ? AND share_token IS NOT NULL',
          traces, rows[0].tenant_id,
        )
        .map((r) => [r.id, r.share_token]),
    );
  }
  if (selects.has('REFERENCE_DATASET_ID')) {
    const examples = JSON.stringify([...new Set(rows.map((r) => r.reference_example_id).filter(Boolean))]);
    out.datasets = new Map(
      ctx.st
        .all<{ example_id: string; dataset_id: string }>(
          `SELECT DISTINCT e.example_id, e.dataset_id FROM example_revisions e JOIN datasets d ON d.id = e.dataset_id
            WHERE e.example_id IN (SELECT value FROM json_each(?)) AND d.tenant_id = ?`,
          examples, rows[0].tenant_id,
        )
        .map((r) => [r.example_id, r.dataset_id]),
    );
  }
  if (selects.has('LAST_QUEUED_AT')) {
    out.queued = new Map(
      ctx.st
        .all<{ run_id: string; at: string }>(
          // Queues of the runs' own workspace only (items are checked when added; this holds regardless).
          `SELECT qr.run_id, MAX(qr.added_at) AS at FROM queue_runs qr JOIN annotation_queues q ON q.id = qr.queue_id
            WHERE qr.run_id IN (SELECT value FROM json_each(?)) AND q.tenant_id = ? GROUP BY qr.run_id`,
          ids, rows[0].tenant_id,
        )
        .map((r) => [r.run_id, r.at]),
    );
  }
  return out;
}

/** The value of one selected field of a run; undefined when the run has none (the field is then left out). */
function field(r: RunRow, s: RunSelect, x: RunExtras): unknown {
  switch (s) {
    case 'ID': return r.id;
    case 'NAME': return r.name ?? '';
    case 'RUN_TYPE': return (r.run_type ?? 'chain').toUpperCase();
    case 'STATUS': return runStatus(r).toUpperCase();
    case 'START_TIME': return r.start_time;
    case 'END_TIME': return r.end_time ?? null;
    case 'LATENCY_SECONDS': return latencySeconds(r);
    case 'ERROR': return r.error;
    case 'ERROR_PREVIEW': return r.error == null ? null : r.error.length > PREVIEW_CHARS ? `${r.error.slice(0, PREVIEW_CHARS)}…` : r.error;
    case 'EXTRA': return jsonOrNull(r.extra) ?? {};
    case 'METADATA': return (jsonOrNull(r.extra) as { metadata?: unknown } | null)?.metadata ?? {};
    case 'EVENTS': return jsonOrNull(r.events) ?? [];
    case 'INPUTS': return jsonOrNull(r.inputs) ?? {};
    case 'INPUTS_PREVIEW': return preview(r.inputs);
    case 'OUTPUTS': return jsonOrNull(r.outputs);
    case 'OUTPUTS_PREVIEW': return preview(r.outputs);
    case 'MANIFEST': return jsonOrNull(r.serialized);
    case 'PARENT_RUN_ID': return r.parent_run_id;
    // A run that came without a dotted order (its parent named, not yet seen) still has its parent.
    case 'PARENT_RUN_IDS': return r.dotted_order ? ancestorsFromDotted(r.dotted_order) : r.parent_run_id ? [r.parent_run_id] : [];
    case 'PROJECT_ID': return r.session_id;
    case 'TRACE_ID': return r.trace_id ?? r.id;
    case 'THREAD_ID': return threadIdOf(r);
    case 'DOTTED_ORDER': return r.dotted_order;
    case 'IS_ROOT': return r.parent_run_id == null;
    case 'REFERENCE_EXAMPLE_ID': return r.reference_example_id;
    case 'REFERENCE_DATASET_ID': return r.reference_example_id ? x.datasets?.get(r.reference_example_id) : null;
    case 'TOTAL_TOKENS': return r.total_tokens ?? 0;
    case 'PROMPT_TOKENS': return r.prompt_tokens ?? 0;
    case 'COMPLETION_TOKENS': return r.completion_tokens ?? 0;
    case 'PROMPT_COST': return runCosts(jsonOrNull(r.outputs), jsonOrNull(r.extra))?.prompt ?? undefined;
    case 'COMPLETION_COST': return runCosts(jsonOrNull(r.outputs), jsonOrNull(r.extra))?.completion ?? undefined;
    case 'TOTAL_COST': return runCosts(jsonOrNull(r.outputs), jsonOrNull(r.extra))?.total ?? undefined;
    case 'FIRST_TOKEN_TIME': return firstTokenTime(jsonOrNull(r.events)) ?? undefined;
    case 'TAGS': return jsonOrNull(r.tags) ?? [];
    case 'APP_PATH': return `/o/${r.tenant_id}/projects/p/${r.session_id}/r/${r.id}?trace_id=${r.trace_id ?? r.id}&start_time=${r.start_time ?? ''}`;
    case 'ATTACHMENTS': {
      const urls = x.origin ? runAttachmentUrls(r, x.origin) : null;
      return urls ? Object.fromEntries(Object.entries(urls).map(([k, v]) => [k.slice('attachment.'.length), v.presigned_url])) : {};
    }
    case 'IS_IN_DATASET': return false;
    case 'LAST_QUEUED_AT': return x.queued?.get(r.id);
    case 'SHARE_URL': {
      const token = x.shares?.get(r.trace_id ?? r.id);
      return token && x.origin ? `${x.origin}/public/${token}/r` : undefined;
    }
    case 'FEEDBACK_STATS': return x.feedback?.get(r.id) ?? {};
    // This server keeps no price table (costs are those runs report), token breakdowns nor thread evaluations.
    default: return undefined;
  }
}

/** A run in the v2 shape with the selected fields (the id alone when none are selected). */
export function v2Run(r: RunRow, selects: ReadonlySet<RunSelect>, x: RunExtras = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of selects.size ? selects : ['ID' as const]) {
    const v = field(r, s, x);
    if (v !== undefined && (v !== null || s === 'END_TIME')) out[s.toLowerCase()] = v;
  }
  return out;
}

/** A page of runs in the v2 shape, with what their selected fields need read in one go. */
export function v2Runs(ctx: Ctx, rows: RunRow[], selects: readonly RunSelect[] | null | undefined, origin?: string) {
  const set = new Set(selects ?? []);
  const x = runExtras(ctx, rows, set, origin);
  return rows.map((r) => v2Run(r, set, x));
}

/** A required parameter that was left out: checked after the ids, so another workspace's id is a 404 first. */
export function required<T>(value: T | undefined | null, where: string): T {
  if (value === undefined || value === null) throw new HttpError(422, `${where}: Field required`);
  return value;
}
