// A run as a row of the runs table: short texts for its input and output (a chat's last human message, its
// answer, else the first text field), its figures (latency, time to first token, tokens, cost), its feedback per
// key, its tags and metadata as short texts. Plain functions over the client's run shape.
import type { Run } from '../../client';
import type { RunsQuery, RunsRow } from '../../protocol/runs';
import { CELL_TEXT } from '../../protocol/runs';
import { lastHumanMessage, lastMessage } from '../../text/chatText';
import { costOf, epochMs, errorPreview, statusOf, tokensOf } from '../run/rows';

const MAX_TAGS = 50;
const MAX_METADATA = 40;
const MAX_SHORT = 2000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Keys read first when a payload is not a chat: what apps usually call their question or answer. */
const LIKELY = ['input', 'question', 'query', 'text', 'prompt', 'output', 'answer', 'content', 'result', 'response'];

/** The first non-empty text in a value, looking at likely keys first, then depth first (bounded). */
export function firstText(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value.trim() ? value : undefined;
  if (depth > 6) return undefined;
  if (Array.isArray(value)) {
    for (const v of value.slice(0, 50)) {
      const t = firstText(v, depth + 1);
      if (t !== undefined) return t;
    }
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  for (const k of [...LIKELY.filter((l) => keys.includes(l)), ...keys.filter((k) => !LIKELY.includes(k)).slice(0, 50)]) {
    const t = firstText(value[k], depth + 1);
    if (t !== undefined) return t;
  }
  return undefined;
}

function shortJson(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (isRecord(value) && Object.keys(value).length === 0) return '';
  try {
    return JSON.stringify(value).slice(0, CELL_TEXT + 1);
  } catch {
    return '';
  }
}

/** An input as one line: a chat's last human message, else its first text, else its JSON. */
export function inputText(inputs: unknown): string {
  return clip(lastHumanMessage(inputs) ?? firstText(inputs) ?? shortJson(inputs), CELL_TEXT);
}

/** An output as one line: a chat's answer, else its first text, else its JSON. */
export function outputText(outputs: unknown): string {
  return clip(lastMessage(outputs) ?? firstText(outputs) ?? shortJson(outputs), CELL_TEXT);
}

function feedbackOf(run: Run): RunsRow['feedback'] {
  const out: RunsRow['feedback'] = {};
  const stats = (run as Record<string, unknown>)['feedback_stats'];
  if (!isRecord(stats)) return out;
  for (const [key, s] of Object.entries(stats).slice(0, 100)) {
    if (!isRecord(s)) continue;
    const n = typeof s['n'] === 'number' ? Math.round(s['n']) : 0;
    const avg = typeof s['avg'] === 'number' && Number.isFinite(s['avg']) ? s['avg'] : null;
    // A categorical key without a score: its most frequent value.
    let value: string | null = null;
    if (avg === null && isRecord(s['values'])) {
      const top = Object.entries(s['values']).sort((a, b) => Number(b[1]) - Number(a[1]))[0];
      if (top) value = clip(top[0], 200);
    }
    out[clip(key, 180)] = { score: avg, value, n };
  }
  return out;
}

function metadataOf(run: Run): Record<string, string> {
  const extra = (run as Record<string, unknown>)['extra'];
  const meta = isRecord(extra) && isRecord(extra['metadata']) ? extra['metadata'] : {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(meta).slice(0, MAX_METADATA)) {
    if (v === null || v === undefined) continue;
    out[clip(k, 180)] = clip(typeof v === 'string' ? v : JSON.stringify(v) ?? '', 200);
  }
  return out;
}

/** Milliseconds between two API times, or null. */
function between(a: unknown, b: unknown): number | null {
  const s = epochMs(a);
  const e = epochMs(b);
  return s === null || e === null || e < s ? null : e - s;
}

export function runsRow(run: Run): RunsRow {
  const record = run as Record<string, unknown>;
  const tags = Array.isArray(run.tags) ? run.tags.filter((t): t is string => typeof t === 'string').slice(0, MAX_TAGS).map((t) => clip(t, 200)) : [];
  return {
    id: run.id,
    traceId: run.trace_id ?? run.id,
    name: clip(run.name ?? run.id, MAX_SHORT),
    runType: clip(String(run.run_type ?? 'chain').toLowerCase(), 50),
    status: statusOf(run),
    start: epochMs(run.start_time),
    latency: between(run.start_time, run.end_time),
    firstToken: between(run.start_time, record['first_token_time']),
    tokens: tokensOf(run).total,
    cost: costOf(run)?.total ?? null,
    input: inputText(run.inputs),
    output: outputText(run.outputs),
    error: errorPreview(run),
    feedback: feedbackOf(run),
    tags,
    metadata: metadataOf(run),
  };
}

/** The client's query options for a table query. */
export function queryOptions(projectId: string, q: RunsQuery) {
  const blank = (s: string) => (s.trim() === '' ? undefined : s.trim());
  return {
    projectId,
    isRoot: q.scope === 'root' ? true : undefined,
    runType: q.scope === 'llm' ? 'llm' : undefined,
    filter: blank(q.filter),
    traceFilter: blank(q.traceFilter),
    treeFilter: blank(q.treeFilter),
    startTime: q.startTime === null ? undefined : new Date(q.startTime),
    endTime: q.endTime === null ? undefined : new Date(q.endTime),
    order: q.order,
  };
}

/** Values seen in some runs, for completing filters: names, tags, metadata keys, feedback keys (most frequent first). */
export function seenIn(rows: readonly RunsRow[]): { names: string[]; tags: string[]; metadataKeys: string[]; feedbackKeys: string[] } {
  const top = (values: Iterable<string>, max: number) => {
    const counts = new Map<string, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, max).map(([v]) => v);
  };
  return {
    names: top(rows.map((r) => r.name), 50),
    tags: top(rows.flatMap((r) => r.tags), 50),
    metadataKeys: top(rows.flatMap((r) => Object.keys(r.metadata)), 50),
    feedbackKeys: top(rows.flatMap((r) => Object.keys(r.feedback)), 50),
  };
}
