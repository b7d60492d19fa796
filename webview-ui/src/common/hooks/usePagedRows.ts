// The rows of one query, asked of the host a page at a time as they scroll into view: for any list whose host
// answers "rows [offset, offset + limit) of N" (the dataset diff today), as a row source for list/VirtualList.
// One request is in flight at a time: a request for rows that are no longer in view is cancelled by the next one
// (give it useRequest's single slot), and unmounting (a new query: key the list by it) cancels it too.
import { useCallback, useReducer, useRef, useState } from 'react';
import type { RowSource } from '../list/rowSource';
import type { Result } from '../rpc';

/** Requests start and end on multiples of this, so neighbouring windows ask for the same pages. */
export const PAGE = 50;

/** One answer of the host: some rows from `offset`, and how many the query has in all. */
export interface Page<Row> {
  offset: number;
  total: number;
  rows: readonly Row[];
}

/** How the list asks for rows: `run` starts a request (cancelling the one before), `pending` while it runs. */
export interface PageRequest<Row> {
  run(offset: number, limit: number): Promise<Result<Page<Row>>>;
  pending: boolean;
}

export interface PagedRows<Row> extends RowSource<Row> {
  /** Rows matching the query (the list's count); undefined until the host has said (a search). */
  total: number | undefined;
}

/**
 * `knownTotal`: the number of rows when the caller knows it already, else the first page tells it. `limitMax`:
 * the most rows the host gives in one answer.
 */
export function usePagedRows<Row>(page: PageRequest<Row>, knownTotal: number | undefined, limitMax: number): PagedRows<Row> {
  const rows = useRef<(Row | undefined)[]>([]);
  const inFlight = useRef<{ start: number; end: number }>();
  const [total, setTotal] = useState(knownTotal);
  const [error, setError] = useState<string>();
  const [version, bump] = useReducer((n: number) => n + 1, 0);
  const { run } = page;

  const ensure = useCallback(
    (first: number, last: number) => {
      if (error !== undefined) return;
      // Until the total is known, the first page tells it.
      const end = total === undefined ? first + PAGE - 1 : Math.min(last, total - 1);
      let a = Math.max(0, first);
      while (a <= end && rows.current[a]) a++;
      if (a > end) return;
      let b = end;
      while (b > a && rows.current[b]) b--;
      // A request still bringing some of the missing rows lands first (then this runs again for the rest); one
      // whose rows have all scrolled away is superseded, and cancelled by the next.
      const wanted = inFlight.current;
      if (wanted && wanted.start <= b && wanted.end >= a) return;
      const offset = Math.floor(a / PAGE) * PAGE;
      const limit = Math.min(Math.ceil((b + 1) / PAGE) * PAGE, offset + limitMax) - offset;
      const mine = { start: offset, end: offset + limit - 1 };
      inFlight.current = mine;
      void run(offset, limit).then((result) => {
        if (inFlight.current === mine) inFlight.current = undefined;
        if (!result.ok) {
          if (result.error.code !== 'cancelled') setError(result.error.message);
          return;
        }
        const answer = result.value;
        answer.rows.forEach((r, i) => (rows.current[answer.offset + i] = r));
        setTotal(answer.total);
        bump();
      });
    },
    [error, total, run, limitMax],
  );

  const row = useCallback((index: number) => rows.current[index], []);
  const retry = useCallback(() => setError(undefined), []);
  return { total, count: total, row, ensure, loading: page.pending, error, retry, version };
}
