// The runs table's columns: what each is called, how wide it starts, what a cell shows and how it sorts.
import type { RunsRow } from '../../../../src/protocol/runs';

export interface Column {
  id: string;
  label: string;
  width: number;
  /** The cell's text (also what a screen reader hears). */
  text(row: RunsRow): string;
  /** A number to sort the loaded rows by; undefined: the column does not sort. */
  sortValue?(row: RunsRow): number | null;
  numeric?: boolean;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.floor(ms / 60_000)} m ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatCost(cost: number | null): string {
  if (cost === null) return '';
  if (cost === 0) return '$0';
  return cost < 0.01 ? `$${cost.toPrecision(2)}` : `$${cost.toFixed(cost < 1 ? 4 : 2)}`;
}

export function formatStart(ms: number | null): string {
  if (ms === null) return '';
  return new Date(ms).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

function feedbackText(row: RunsRow, key: string): string {
  const f = row.feedback[key];
  if (!f) return '';
  if (f.score !== null) return Number.isInteger(f.score) ? String(f.score) : f.score.toFixed(2);
  return f.value ?? '';
}

const FIXED: Record<string, Column> = {
  name: { id: 'name', label: 'Name', width: 180, text: (r) => r.name },
  input: { id: 'input', label: 'Input', width: 260, text: (r) => r.input },
  output: { id: 'output', label: 'Output', width: 260, text: (r) => (r.status === 'error' && !r.output ? (r.error ?? '') : r.output) },
  status: { id: 'status', label: 'Status', width: 80, text: (r) => r.status },
  start: { id: 'start', label: 'Start time', width: 150, text: (r) => formatStart(r.start), sortValue: (r) => r.start, numeric: true },
  latency: { id: 'latency', label: 'Latency', width: 90, text: (r) => formatMs(r.latency), sortValue: (r) => r.latency, numeric: true },
  firstToken: { id: 'firstToken', label: 'First token', width: 90, text: (r) => formatMs(r.firstToken), sortValue: (r) => r.firstToken, numeric: true },
  tokens: { id: 'tokens', label: 'Tokens', width: 80, text: (r) => (r.tokens === null ? '' : r.tokens.toLocaleString('en-US')), sortValue: (r) => r.tokens, numeric: true },
  cost: { id: 'cost', label: 'Cost', width: 80, text: (r) => formatCost(r.cost), sortValue: (r) => r.cost, numeric: true },
  tags: { id: 'tags', label: 'Tags', width: 140, text: (r) => r.tags.join(', ') },
};

export const FIXED_IDS = Object.keys(FIXED);

/** The column of an id: a fixed one, `feedback:<key>` or `metadata:<key>`; undefined for an unknown id. */
export function columnOf(id: string): Column | undefined {
  if (Object.hasOwn(FIXED, id)) return FIXED[id];
  if (id.startsWith('feedback:')) {
    const key = id.slice('feedback:'.length);
    return {
      id,
      label: key,
      width: 100,
      text: (r) => feedbackText(r, key),
      sortValue: (r) => r.feedback[key]?.score ?? null,
      numeric: true,
    };
  }
  if (id.startsWith('metadata:')) {
    const key = id.slice('metadata:'.length);
    return { id, label: key, width: 120, text: (r) => r.metadata[key] ?? '' };
  }
  return undefined;
}

/** Loaded rows in a column's order (nulls last), for the columns LangSmith does not sort by. */
export function sortRows(rows: readonly RunsRow[], column: Column, dir: 'asc' | 'desc'): RunsRow[] {
  const value = column.sortValue!;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null && y === null) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return dir === 'asc' ? x - y : y - x;
  });
}
