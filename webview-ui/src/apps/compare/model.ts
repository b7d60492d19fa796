// What the comparison page works out on its own from the host's index: each score marked better / worse / same
// against the baseline (per key, in the key's direction), the regressions and improvements per experiment (per key
// and in all), the rows a filter keeps and the order a sort gives. Pure functions, no React.
//
// Records from the server are read through `own` only: an experiment or feedback key named `__proto__` or
// `constructor` must find nothing rather than a prototype's property.
import type { FeedbackKey, FilterKind, IndexRow } from '../../../../src/protocol/compare';

export type Mark = 'better' | 'worse' | 'same';

/**
 * A record's own value for a key (never an inherited one). `__proto__` finds nothing: the protocol's records drop
 * such a key when they are checked, so whatever came under it was never checked.
 */
export function own<V>(record: Record<string, V> | undefined | null, key: string): V | undefined {
  return record && key !== '__proto__' && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Scores closer than this are the same (averages and floats from JSON). */
const EPSILON = 1e-9;

/** How `score` compares with the baseline's score for a key of this direction; null when either is missing. */
export function markOf(score: number | null | undefined, base: number | null | undefined, lowerIsBetter: boolean): Mark | null {
  if (typeof score !== 'number' || typeof base !== 'number' || !Number.isFinite(score) || !Number.isFinite(base)) return null;
  const d = score - base;
  if (Math.abs(d) <= EPSILON) return 'same';
  return d > 0 !== lowerIsBetter ? 'better' : 'worse';
}

/** The change in the better direction (positive: better than the baseline); null when either score is missing. */
export function changeOf(score: number | null | undefined, base: number | null | undefined, lowerIsBetter: boolean): number | null {
  if (typeof score !== 'number' || typeof base !== 'number' || !Number.isFinite(score) || !Number.isFinite(base)) return null;
  return lowerIsBetter ? base - score : score - base;
}

const NONE = 0;
const BETTER = 1;
const WORSE = 2;
const SAME = 3;
const MARKS: (Mark | null)[] = [null, 'better', 'worse', 'same'];

export interface ColumnCounts {
  /** Rows with at least one key worse / better than the baseline. */
  regressions: number;
  improvements: number;
  /** Rows whose run errored. */
  errors: number;
  /** Per key (in the order of the keys). */
  perKey: { regressions: number; improvements: number }[];
}

/** The index against one baseline: marks per row, experiment and key, and the counts. */
export interface Analysis {
  experimentIds: readonly string[];
  baseline: number;
  keys: readonly FeedbackKey[];
  rows: readonly IndexRow[];
  /** marks[(row * experiments + experiment) * keys + key] */
  marks: Uint8Array;
  /** worse[row * experiments + experiment]: some key is worse; better likewise; errored: the run errored. */
  worse: Uint8Array;
  better: Uint8Array;
  errored: Uint8Array;
  counts: ColumnCounts[];
  /** Rows with a regression in any experiment, an improvement in any, an error in any. */
  totals: { regressions: number; improvements: number; errors: number };
}

export function analyse(rows: readonly IndexRow[], experimentIds: readonly string[], keys: readonly FeedbackKey[], baselineId: string): Analysis {
  const E = experimentIds.length;
  const K = keys.length;
  const baseline = Math.max(0, experimentIds.indexOf(baselineId));
  const marks = new Uint8Array(rows.length * E * K);
  const worse = new Uint8Array(rows.length * E);
  const better = new Uint8Array(rows.length * E);
  const errored = new Uint8Array(rows.length * E);
  const counts: ColumnCounts[] = experimentIds.map(() => ({ regressions: 0, improvements: 0, errors: 0, perKey: keys.map(() => ({ regressions: 0, improvements: 0 })) }));
  const totals = { regressions: 0, improvements: 0, errors: 0 };
  rows.forEach((row, r) => {
    const baseCell = own(row.cells, experimentIds[baseline]!) ?? null;
    let anyWorse = false;
    let anyBetter = false;
    let anyError = false;
    for (let e = 0; e < E; e++) {
      const cell = own(row.cells, experimentIds[e]!) ?? null;
      if (cell?.error) {
        errored[r * E + e] = 1;
        counts[e]!.errors++;
        anyError = true;
      }
      if (e === baseline || !cell || !baseCell) continue;
      let w = false;
      let b = false;
      for (let k = 0; k < K; k++) {
        const key = keys[k]!;
        const m = markOf(own(cell.scores, key.key), own(baseCell.scores, key.key), key.lowerIsBetter);
        const code = m === 'better' ? BETTER : m === 'worse' ? WORSE : m === 'same' ? SAME : NONE;
        marks[(r * E + e) * K + k] = code;
        if (code === WORSE) {
          w = true;
          counts[e]!.perKey[k]!.regressions++;
        } else if (code === BETTER) {
          b = true;
          counts[e]!.perKey[k]!.improvements++;
        }
      }
      if (w) {
        worse[r * E + e] = 1;
        counts[e]!.regressions++;
        anyWorse = true;
      }
      if (b) {
        better[r * E + e] = 1;
        counts[e]!.improvements++;
        anyBetter = true;
      }
    }
    if (anyWorse) totals.regressions++;
    if (anyBetter) totals.improvements++;
    if (anyError) totals.errors++;
  });
  return { experimentIds, baseline, keys, rows, marks, worse, better, errored, counts, totals };
}

export function markAt(a: Analysis, row: number, experiment: number, key: number): Mark | null {
  return MARKS[a.marks[(row * a.experimentIds.length + experiment) * a.keys.length + key]!] ?? null;
}

/** A filter: a kind, narrowed to one experiment (and for regressions and improvements, to one key) by a count. */
export interface Filter {
  kind: FilterKind;
  experimentId: string | null;
  key: string | null;
}

export const ALL: Filter = { kind: 'all', experimentId: null, key: null };

/** Whether a row passes the filter. */
function keeps(a: Analysis, r: number, f: Filter, experiment: number, key: number): boolean {
  const E = a.experimentIds.length;
  if (f.kind === 'all') return true;
  const columns = experiment >= 0 ? [experiment] : a.experimentIds.map((_, e) => e);
  for (const e of columns) {
    if (f.kind === 'errors') {
      if (a.errored[r * E + e]) return true;
      continue;
    }
    if (key >= 0) {
      const m = a.marks[(r * E + e) * a.keys.length + key];
      if (m === (f.kind === 'regressions' ? WORSE : BETTER)) return true;
    } else if ((f.kind === 'regressions' ? a.worse : a.better)[r * E + e]) return true;
  }
  return false;
}

/** How the rows are ordered. `change`: by the change vs the baseline in the key's better direction. */
export interface Sort {
  by: 'dataset' | 'score' | 'change';
  experimentId: string | null;
  key: string | null;
  descending: boolean;
}

export const DATASET_ORDER: Sort = { by: 'dataset', experimentId: null, key: null, descending: false };

/** The positions (in the index) of the rows shown, filtered and sorted. Rows without the sort's value go last. */
export function visibleRows(a: Analysis, filter: Filter, sort: Sort): number[] {
  const fe = filter.experimentId === null ? -1 : a.experimentIds.indexOf(filter.experimentId);
  const fk = filter.key === null ? -1 : a.keys.findIndex((k) => k.key === filter.key);
  // A filter narrowed to an experiment or key the comparison no longer has shows nothing rather than everything.
  const lost = (filter.experimentId !== null && fe < 0) || (filter.key !== null && fk < 0);
  const out: number[] = [];
  if (!lost) for (let r = 0; r < a.rows.length; r++) if (keeps(a, r, filter, fe, fk)) out.push(r);
  if (sort.by === 'dataset') {
    if (sort.descending) out.reverse();
    return out;
  }
  const e = sort.experimentId === null ? -1 : a.experimentIds.indexOf(sort.experimentId);
  const k = sort.key === null ? -1 : a.keys.findIndex((x) => x.key === sort.key);
  if (e < 0 || k < 0) return out;
  const key = a.keys[k]!;
  const value = (r: number): number | null => {
    const row = a.rows[r]!;
    const cell = own(row.cells, a.experimentIds[e]!);
    const score = cell ? own(cell.scores, key.key) : undefined;
    if (sort.by === 'score') return typeof score === 'number' && Number.isFinite(score) ? score : null;
    const base = own(row.cells, a.experimentIds[a.baseline]!);
    return changeOf(score, base ? own(base.scores, key.key) : undefined, key.lowerIsBetter);
  };
  const values = new Map(out.map((r) => [r, value(r)]));
  const sign = sort.descending ? -1 : 1;
  return out.sort((x, y) => {
    const vx = values.get(x)!;
    const vy = values.get(y)!;
    if (vx === null || vy === null) return vx === vy ? x - y : vx === null ? 1 : -1;
    return vx === vy ? x - y : (vx - vy) * sign;
  });
}

/** Checks a filter and a sort that a reload brought back against the comparison as it is now. */
export function reviveFilter(f: Filter | undefined, experimentIds: readonly string[], keys: readonly FeedbackKey[]): Filter {
  if (!f || !['all', 'regressions', 'improvements', 'errors'].includes(f.kind)) return ALL;
  if (f.experimentId !== null && !experimentIds.includes(f.experimentId)) return ALL;
  if (f.key !== null && !keys.some((k) => k.key === f.key)) return ALL;
  return f;
}

export function reviveSort(s: Sort | undefined, experimentIds: readonly string[], keys: readonly FeedbackKey[]): Sort {
  if (!s || !['dataset', 'score', 'change'].includes(s.by)) return DATASET_ORDER;
  if (s.by === 'dataset') return { ...DATASET_ORDER, descending: s.descending === true };
  if (s.experimentId === null || !experimentIds.includes(s.experimentId) || s.key === null || !keys.some((k) => k.key === s.key)) return DATASET_ORDER;
  return s;
}

// ---- numbers as the page shows them

/** One formatter for every whole number (toLocaleString makes a new one on each call: slow in a grid's rows). */
const INTEGER = new Intl.NumberFormat('en-US');

export function formatInt(x: number): string {
  return INTEGER.format(x);
}

export function formatScore(x: number | null | undefined): string {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '–';
  return Number.isInteger(x) ? String(x) : x.toFixed(Math.abs(x) >= 100 ? 1 : 3).replace(/\.?0+$/, '');
}

export function formatDelta(x: number): string {
  const s = formatScore(Math.abs(x));
  return x > 0 ? `+${s}` : x < 0 ? `−${s}` : '±0';
}

export function formatSeconds(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return '–';
  return x < 1 ? `${Math.round(x * 1000)} ms` : `${x.toFixed(2)} s`;
}

export function formatPercent(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return '–';
  return `${(x * 100).toFixed(x > 0 && x < 0.01 ? 1 : 0)}%`;
}

export function formatCost(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return '–';
  return `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;
}

export function formatCount(x: number | null): string {
  return x === null || !Number.isFinite(x) ? '–' : formatInt(Math.round(x));
}

export const MARK_TEXT: Record<Mark, string> = { better: 'better', worse: 'worse', same: 'same' };
export const MARK_GLYPH: Record<Mark, string> = { better: '▲', worse: '▼', same: '=' };
