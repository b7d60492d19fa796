// The heavy part of the rows (inputs, reference, outputs), asked of the host by id as rows scroll into view. The
// state's first rows are there at once; the rest come in batches of at most MAX_ROWS_PER_REQUEST, asked a moment
// after the rows in view change (a fling asks once, where it stops), a screen ahead and behind. One request is
// in flight: one whose rows are all out of view by the next ask is cancelled (on the host too).
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { MAX_ROWS_PER_REQUEST, Rows, type RowContent } from '../../../../src/protocol/compare';
import { useRequest } from '../../common/app';

/** How long the rows in view rest before they are asked for; at most MAX_WAIT_MS while they keep moving. */
const DEBOUNCE_MS = 60;
const MAX_WAIT_MS = 250;

export interface RowContents {
  /** The row's contents; null when the host had none for it (left out of its answer); undefined until asked. */
  get(exampleId: string): RowContent | null | undefined;
  /** The ids in view (in order) and those around them worth having too. */
  want(inView: readonly string[], around: readonly string[]): void;
  loading: boolean;
  error: string | undefined;
  retry(): void;
  /** Changes whenever rows arrive. */
  version: number;
}

export function useRowContents(first: readonly RowContent[]): RowContents {
  const cache = useRef(new Map<string, RowContent | null>());
  const seeded = useRef<readonly RowContent[]>();
  if (seeded.current !== first) {
    // A new state (a reload): what was read before may have changed.
    seeded.current = first;
    cache.current = new Map(first.map((r) => [r.exampleId, r] as const));
  }
  const request = useRequest(Rows);
  const { run } = request;
  const inFlight = useRef<Set<string>>();
  const wanted = useRef<{ inView: readonly string[]; around: readonly string[] }>({ inView: [], around: [] });
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const since = useRef(0);
  const [error, setError] = useState<string>();
  const [version, bump] = useReducer((n: number) => n + 1, 0);

  const ask = useCallback(() => {
    timer.current = undefined;
    since.current = 0;
    const have = cache.current;
    const { inView, around } = wanted.current;
    const missing = inView.filter((id) => !have.has(id));
    if (!missing.length) return;
    // A request still bringing rows in view lands first; this runs again when it does.
    const pending = inFlight.current;
    if (pending && missing.some((id) => pending.has(id))) return;
    const ids = [...new Set([...missing, ...around.filter((id) => !have.has(id))])].slice(0, MAX_ROWS_PER_REQUEST);
    const mine = new Set(ids);
    inFlight.current = mine;
    void run({ exampleIds: ids }).then((result) => {
      if (inFlight.current === mine) inFlight.current = undefined;
      if (!result.ok) {
        if (result.error.code !== 'cancelled') setError(result.error.message);
        return;
      }
      for (const row of result.value.rows) if (mine.has(row.exampleId)) have.set(row.exampleId, row);
      // Unknown to the host: not asked again.
      for (const id of mine) if (!have.has(id)) have.set(id, null);
      bump();
    });
  }, [run]);

  const want = useCallback(
    (inView: readonly string[], around: readonly string[]) => {
      wanted.current = { inView, around };
      if (error !== undefined) return;
      if (!inView.some((id) => !cache.current.has(id))) return;
      const now = Date.now();
      if (!since.current) since.current = now;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(ask, now - since.current >= MAX_WAIT_MS ? 0 : DEBOUNCE_MS);
    },
    [ask, error],
  );

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const get = useCallback((id: string) => cache.current.get(id), []);
  const retry = useCallback(() => {
    setError(undefined);
    bump();
  }, []);
  return { get, want, loading: request.pending, error, retry, version };
}
