// The rows of one query, asked of the host a page at a time by cursor as the list nears the end of what it has
// read: for any list whose host answers "these rows, and the cursor of the next page (null at the end)" (a review
// queue's items today; runs next). The list shows one pending place after the rows while there are more. One
// request is in flight at a time; unmounting (a new query: key the list by it) cancels it (give it useRequest's
// single slot).
import { useCallback, useReducer, useRef, useState } from 'react';
import type { RowSource } from '../list/rowSource';
import type { Result } from '../rpc';

/** How close to the end of what is loaded the next page is asked for. */
export const AHEAD = 15;

/** One answer of the host: the rows of a page and the cursor of the next, null when this was the last. */
export interface CursorPage<Row> {
  rows: readonly Row[];
  cursor: string | null;
}

/** How the list asks for a page: `run` from a cursor (null: the first page), `pending` while it runs. */
export interface CursorRequest<Row> {
  run(cursor: string | null): Promise<Result<CursorPage<Row>>>;
  pending: boolean;
}

export interface CursorRows<Row> extends RowSource<Row> {
  count: number;
  /** Rows read so far. */
  loaded: number;
  /** Whether the host has more (true until the first page says). */
  more: boolean;
}

export function useCursorRows<Row>(page: CursorRequest<Row>, ahead = AHEAD): CursorRows<Row> {
  const rows = useRef<Row[]>([]);
  const next = useRef<{ cursor: string | null; more: boolean }>({ cursor: null, more: true });
  const inFlight = useRef(false);
  const [error, setError] = useState<string>();
  const [version, bump] = useReducer((n: number) => n + 1, 0);
  const { run } = page;

  const ensure = useCallback(
    (_first: number, last: number) => {
      if (error !== undefined || inFlight.current || !next.current.more) return;
      if (rows.current.length > 0 && last < rows.current.length - ahead) return;
      inFlight.current = true;
      void run(next.current.cursor).then((result) => {
        inFlight.current = false;
        if (!result.ok) {
          if (result.error.code !== 'cancelled') setError(result.error.message);
          return;
        }
        rows.current = [...rows.current, ...result.value.rows];
        next.current = { cursor: result.value.cursor, more: result.value.cursor !== null };
        bump();
      });
    },
    [error, run, ahead],
  );

  const row = useCallback((index: number) => rows.current[index], []);
  const retry = useCallback(() => setError(undefined), []);
  const loaded = rows.current.length;
  const more = next.current.more;
  return { count: loaded + (more ? 1 : 0), loaded, more, row, ensure, loading: page.pending, error, retry, version };
}
