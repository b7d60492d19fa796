// The rows of one query (kinds + search), asked of the host a page at a time as they scroll into view. One
// request is in flight at a time: a request for rows that are no longer in view is cancelled by the next one
// (useRequest's single slot), and unmounting (a new query) cancels it too.
import { useCallback, useReducer, useRef, useState } from 'react';
import { DiffPage, PAGE_LIMIT_MAX, type DiffQuery, type DiffRow } from '../../../../src/protocol/datasetDiff';
import { useRequest } from '../app';

/** Requests start and end on multiples of this, so neighbouring windows ask for the same pages. */
export const PAGE = 50;

export interface PagedRows {
  /** Rows matching the query; undefined until the host has said (a search). */
  total: number | undefined;
  row(index: number): DiffRow | undefined;
  /** Asks for the rows of [first, last] that are not loaded yet. */
  ensure(first: number, last: number): void;
  loading: boolean;
  error: string | undefined;
  retry(): void;
  /** Changes whenever rows arrive. */
  version: number;
}

export function usePagedRows(query: DiffQuery, knownTotal: number | undefined): PagedRows {
  const page = useRequest(DiffPage);
  const rows = useRef<(DiffRow | undefined)[]>([]);
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
      const limit = Math.min(Math.ceil((b + 1) / PAGE) * PAGE, offset + PAGE_LIMIT_MAX) - offset;
      const mine = { start: offset, end: offset + limit - 1 };
      inFlight.current = mine;
      void run({ ...query, offset, limit }).then((result) => {
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
    [error, total, run, query],
  );

  const row = useCallback((index: number) => rows.current[index], []);
  const retry = useCallback(() => setError(undefined), []);
  return { total, row, ensure, loading: page.pending, error, retry, version };
}
