// The heavy part of the rows (inputs, reference, outputs), asked of the host by id as rows scroll into view. The
// state's first rows are there at once; the rest come in batches of at most MAX_ROWS_PER_REQUEST, asked a moment
// after the rows in view change (a fling asks once, where it stops), a screen ahead and behind. One request is
// in flight: one whose rows are all out of view by the next ask is cancelled (on the host too).
//
// A store outside React: each row subscribes to its own contents (useRowContent), so rows arriving re-render
// those rows only, not the page nor the grid; the grid and the page subscribe to the status (loading, error).
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { MAX_ROWS_PER_REQUEST, Rows, type RowContent } from '../../../../src/protocol/compare';
import type { ParamsOf, ResultOf } from '../../../../src/protocol/messages';
import { useRequest } from '../../common/app';
import type { Result } from '../../common/rpc';

/** How long the rows in view rest before they are asked for; at most MAX_WAIT_MS while they keep moving. */
const DEBOUNCE_MS = 60;
const MAX_WAIT_MS = 250;

type Ask = (params: ParamsOf<typeof Rows>) => Promise<Result<ResultOf<typeof Rows>>>;

export interface RowsStatus {
  loading: boolean;
  error: string | undefined;
}

export class RowContents {
  private readonly cache: Map<string, RowContent | null>;
  private readonly listeners = new Set<() => void>();
  private wanted: { inView: readonly string[]; around: readonly string[] } = { inView: [], around: [] };
  private inFlight: Set<string> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private since = 0;
  private run: Ask | undefined;
  private disposed = false;
  /** Replaced (never changed) when it changes: a snapshot for useSyncExternalStore. */
  status: RowsStatus = { loading: false, error: undefined };

  constructor(first: readonly RowContent[]) {
    this.cache = new Map(first.map((r) => [r.exampleId, r] as const));
  }

  /** The row's contents; null when the host had none for it (left out of its answer); undefined until asked. */
  readonly get = (exampleId: string): RowContent | null | undefined => this.cache.get(exampleId);

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getStatus = (): RowsStatus => this.status;

  /** The ids in view (in order) and those around them worth having too. */
  readonly want = (inView: readonly string[], around: readonly string[]): void => {
    this.wanted = { inView, around };
    if (this.status.error !== undefined || this.disposed) return;
    if (!inView.some((id) => !this.cache.has(id))) return;
    const now = Date.now();
    if (!this.since) this.since = now;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.ask, now - this.since >= MAX_WAIT_MS ? 0 : DEBOUNCE_MS);
  };

  readonly retry = (): void => {
    this.setStatus({ error: undefined });
    this.want(this.wanted.inView, this.wanted.around);
  };

  /** The request function (from the component that holds the request); asks what waited for it. */
  connect(run: Ask): () => void {
    this.run = run;
    this.want(this.wanted.inView, this.wanted.around);
    return () => {
      if (this.run === run) this.run = undefined;
    };
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
  }

  private setStatus(patch: Partial<RowsStatus>): void {
    const next = { ...this.status, ...patch };
    if (next.loading === this.status.loading && next.error === this.status.error) return;
    this.status = next;
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private readonly ask = (): void => {
    this.timer = undefined;
    this.since = 0;
    const run = this.run;
    if (!run || this.disposed) return;
    const have = this.cache;
    const { inView, around } = this.wanted;
    const missing = inView.filter((id) => !have.has(id));
    if (!missing.length) return;
    // A request still bringing rows in view lands first; this runs again when it does.
    const pending = this.inFlight;
    if (pending && missing.some((id) => pending.has(id))) return;
    const ids = [...new Set([...missing, ...around.filter((id) => !have.has(id))])].slice(0, MAX_ROWS_PER_REQUEST);
    const mine = new Set(ids);
    this.inFlight = mine;
    this.setStatus({ loading: true });
    void run({ exampleIds: ids }).then((result) => {
      if (this.disposed) return;
      const last = this.inFlight === mine;
      if (last) this.inFlight = undefined;
      if (!result.ok) {
        if (result.error.code !== 'cancelled') this.setStatus({ loading: false, error: result.error.message });
        else if (last) this.setStatus({ loading: false });
        return;
      }
      for (const row of result.value.rows) if (mine.has(row.exampleId)) have.set(row.exampleId, row);
      // Unknown to the host: not asked again.
      for (const id of mine) if (!have.has(id)) have.set(id, null);
      if (last) this.status = { ...this.status, loading: false };
      this.notify();
      // Rows still missing in view (they came into view while this was in flight) are asked for now.
      this.want(this.wanted.inView, this.wanted.around);
    });
  };
}

/** The rows' store for this state (a new one when the host sends a new state: what was read may have changed). */
export function useRowContents(first: readonly RowContent[]): RowContents {
  const store = useMemo(() => new RowContents(first), [first]);
  useEffect(() => () => store.dispose(), [store]);
  return store;
}

/** The component that holds the rows' request (its pending state re-renders it alone). */
export function RowFetcher({ store }: { store: RowContents }) {
  const { run } = useRequest(Rows);
  useEffect(() => store.connect(run), [store, run]);
  return null;
}

export function useRowsStatus(store: RowContents): RowsStatus {
  return useSyncExternalStore(store.subscribe, store.getStatus);
}

/** One row's contents, re-rendering its component when they arrive. */
export function useRowContent(store: RowContents, exampleId: string): RowContent | null | undefined {
  const get = useCallback(() => store.get(exampleId), [store, exampleId]);
  return useSyncExternalStore(store.subscribe, get);
}
