// What a virtualised list (VirtualList) reads its rows from: a row by its place, how many places there are, and a
// call that says which places are in view so a source that pages can ask the host for them. Three kinds so far:
// offset pages (hooks/usePagedRows: "rows [offset, offset + limit) of N"), cursor pages (hooks/useCursorRows:
// "these rows, and the cursor of the next page") and rows already in memory (useMemoryRows: an array, such as a
// tree flattened to its visible rows).
import { useMemo } from 'react';

export interface RowSource<Row> {
  /**
   * Places in the list: loaded rows, rows still to load, and one pending place at the end while a cursor source
   * has more. Undefined until the host has said (an offset source's search before its first page).
   */
  count: number | undefined;
  /** The row at a place, undefined while it is loading. */
  row(index: number): Row | undefined;
  /** The places [first, last] are in view (last < first when none are): load what is missing. */
  ensure(first: number, last: number): void;
  loading: boolean;
  /** Why the last page failed; nothing more is asked until `retry`. */
  error: string | undefined;
  retry(): void;
  /** Changes whenever rows arrive. */
  version: number;
}

const nothing = () => undefined;

/** Rows already in memory (a list the host sent whole, a tree flattened to its visible rows). */
export function useMemoryRows<Row>(rows: readonly Row[]): RowSource<Row> {
  return useMemo(() => ({ count: rows.length, row: (i: number) => rows[i], ensure: nothing, loading: false, error: undefined, retry: nothing, version: 0 }), [rows]);
}
