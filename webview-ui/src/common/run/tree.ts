// The run tree of a trace, built from the flat rows the host sends (no React here). A run's parent is the run
// named by the second-to-last segment of its dotted order, else its `parentId`; a run whose parent is not among
// the rows is shown at the top level, marked "parent missing". Siblings are ordered by dotted order (else start
// time). Nothing here recurses: a chain 5,000 runs deep, a cycle (a → b → a), duplicate ids and rows in any order
// all end in a tree.
import type { RunRow } from '../../../../src/protocol/trace';

export interface TraceTree {
  /** The runs, first occurrence of each id, in the order received. */
  runs: RunRow[];
  index: Map<string, number>;
  /** Index of each run's parent, -1 at the top level. */
  parent: Int32Array;
  children: number[][];
  /** Top-level runs: the root(s) first, then those whose parent is missing. */
  roots: number[];
  /** Whether the run names a parent that is not among the rows (or that a cycle made unreachable). */
  orphan: boolean[];
  depth: Int32Array;
  /** Every run, depth first (what an all-expanded tree shows). */
  order: number[];
  /** Where each run is in `order`. */
  position: Int32Array;
}

/** The run id in one dotted-order segment (`<YYYYMMDDTHHMMSSffffffZ><uuid>`). */
export function segmentId(segment: string): string {
  const z = segment.indexOf('Z');
  if (z >= 0 && z < segment.length - 1) return segment.slice(z + 1);
  return segment.length > 36 ? segment.slice(-36) : segment;
}

/** The parent the dotted order names, if it has one. */
export function dottedParent(dottedOrder: string): string | undefined {
  if (!dottedOrder) return undefined;
  const segments = dottedOrder.split('.');
  if (segments.length < 2) return undefined;
  return segmentId(segments[segments.length - 2]!) || undefined;
}

function compareRuns(a: RunRow, b: RunRow, ai: number, bi: number): number {
  if (a.dottedOrder && b.dottedOrder && a.dottedOrder !== b.dottedOrder) return a.dottedOrder < b.dottedOrder ? -1 : 1;
  const as = a.start ?? Number.POSITIVE_INFINITY;
  const bs = b.start ?? Number.POSITIVE_INFINITY;
  if (as !== bs) return as < bs ? -1 : 1;
  return ai - bi;
}

export function buildTree(rows: readonly RunRow[]): TraceTree {
  const runs: RunRow[] = [];
  const index = new Map<string, number>();
  for (const row of rows) {
    if (index.has(row.id)) continue; // duplicate ids: the first one wins
    index.set(row.id, runs.length);
    runs.push(row);
  }
  const n = runs.length;
  const parent = new Int32Array(n).fill(-1);
  const orphan: boolean[] = new Array<boolean>(n).fill(false);
  for (let i = 0; i < n; i++) {
    const run = runs[i]!;
    const fromDotted = dottedParent(run.dottedOrder);
    const named = [fromDotted, run.parentId ?? undefined].filter((p): p is string => p !== undefined && p !== '');
    const found = named.map((p) => index.get(p)).find((p) => p !== undefined && p !== i);
    if (found !== undefined) parent[i] = found;
    else if (named.some((p) => p !== run.id)) orphan[i] = true;
  }
  // Break cycles: walk up from each run; meeting a run of the current walk again means a cycle, cut there.
  const state = new Uint8Array(n); // 0 unseen, 1 on the current walk, 2 done
  const walk: number[] = [];
  for (let i = 0; i < n; i++) {
    let cur = i;
    walk.length = 0;
    while (cur !== -1 && state[cur] === 0) {
      state[cur] = 1;
      walk.push(cur);
      cur = parent[cur]!;
    }
    if (cur !== -1 && state[cur] === 1) {
      parent[cur] = -1;
      orphan[cur] = true;
    }
    for (const w of walk) state[w] = 2;
  }
  const children: number[][] = Array.from({ length: n }, () => []);
  const top: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    if (p === -1) top.push(i);
    else children[p]!.push(i);
  }
  const cmp = (a: number, b: number) => compareRuns(runs[a]!, runs[b]!, a, b);
  for (const list of children) if (list.length > 1) list.sort(cmp);
  top.sort((a, b) => Number(orphan[a]) - Number(orphan[b]) || cmp(a, b));

  const depth = new Int32Array(n);
  const order: number[] = [];
  const stack: number[] = [];
  for (let r = top.length - 1; r >= 0; r--) stack.push(top[r]!);
  while (stack.length) {
    const i = stack.pop()!;
    order.push(i);
    const kids = children[i]!;
    for (let k = kids.length - 1; k >= 0; k--) {
      depth[kids[k]!] = depth[i]! + 1;
      stack.push(kids[k]!);
    }
  }
  const position = new Int32Array(n);
  order.forEach((i, at) => (position[i] = at));
  return { runs, index, parent, children, roots: top, orphan, depth, order, position };
}

/** The runs shown when the runs in `collapsed` (ids) have their children hidden, depth first. */
export function visibleRows(tree: TraceTree, collapsed: ReadonlySet<string>): number[] {
  if (collapsed.size === 0) return tree.order;
  const out: number[] = [];
  const stack: number[] = [];
  for (let r = tree.roots.length - 1; r >= 0; r--) stack.push(tree.roots[r]!);
  while (stack.length) {
    const i = stack.pop()!;
    out.push(i);
    if (collapsed.has(tree.runs[i]!.id)) continue;
    const kids = tree.children[i]!;
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
  }
  return out;
}

/** The ids of a run's ancestors, nearest first. */
export function ancestorIds(tree: TraceTree, id: string): string[] {
  const out: string[] = [];
  let cur = tree.index.get(id);
  if (cur === undefined) return out;
  cur = tree.parent[cur]!;
  while (cur !== -1 && out.length <= tree.runs.length) {
    out.push(tree.runs[cur]!.id);
    cur = tree.parent[cur]!;
  }
  return out;
}

/** `collapsed` without the ancestors of `id` (so that it is shown); the same set when nothing changes. */
export function expandTo(tree: TraceTree, collapsed: ReadonlySet<string>, id: string): ReadonlySet<string> {
  if (collapsed.size === 0) return collapsed;
  const hidden = ancestorIds(tree, id).filter((a) => collapsed.has(a));
  if (!hidden.length) return collapsed;
  const next = new Set(collapsed);
  for (const a of hidden) next.delete(a);
  return next;
}

/** The trace's time span for the waterfall: first start to last end (a running run reaches `now`). */
export function timeSpan(runs: readonly RunRow[], now: number): { start: number; end: number } | undefined {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  let pending = false;
  for (const r of runs) {
    if (r.start !== null) {
      if (r.start < start) start = r.start;
      if (r.start > end) end = r.start;
    }
    if (r.end !== null && r.end > end) end = r.end;
    if (r.status === 'pending' && r.end === null) pending = true;
  }
  if (!Number.isFinite(start)) return undefined;
  if (pending && now > end) end = now;
  return { start, end: Math.max(end, start) };
}

/** Where a run's bar sits in the waterfall, in percent of the span. */
export function barGeometry(run: RunRow, span: { start: number; end: number }, traceEnd: number): { left: number; width: number } | undefined {
  if (run.start === null) return undefined;
  const total = span.end - span.start;
  const end = run.end ?? (run.status === 'pending' ? traceEnd : run.start);
  if (total <= 0) return { left: 0, width: 100 };
  const left = ((run.start - span.start) / total) * 100;
  const width = ((Math.max(end, run.start) - run.start) / total) * 100;
  return { left: Math.min(100, Math.max(0, left)), width: Math.min(100 - Math.min(100, Math.max(0, left)), width) };
}
