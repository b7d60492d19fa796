// The virtualised list of changed examples: only the rows in view (and a few around) are in the DOM, each
// measured as it renders; the rows come from the host a page at a time as they scroll in. The list is one tab
// stop: arrows move the active row (aria-activedescendant), Enter compares it, Shift+Enter edits it.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MutableRefObject } from 'react';
import type { DiffQuery, DiffRow } from '../../../../src/protocol/datasetDiff';
import { Banner, Button, ProgressRing } from '../../common/components';
import { DiffRowView, PendingRow } from './DiffRowView';
import type { OpenHow } from './types';
import { usePagedRows } from '../../common/hooks/usePagedRows';

/** A row's height before it is measured (a pending row's height: see .dd-pending). */
const ESTIMATED_ROW = 96;
const OVERSCAN = 6;

/** Where the list was: the first row in view and the active row (kept so a tab shown again opens there). */
export interface ListPosition {
  top: number;
  active: number;
}

/** How long the list rests before its position is kept. */
const KEEP_POSITION_MS = 300;

export function DiffList({
  query,
  knownTotal,
  emptyText,
  onOpen,
  listRef,
  position,
  onPosition,
}: {
  query: DiffQuery;
  /** The number of rows when the host's counts tell it (no search); otherwise the first page does. */
  knownTotal: number | undefined;
  emptyText: string;
  onOpen: (row: DiffRow, how: OpenHow) => void;
  /** The list element, for the search box to move focus to. */
  listRef?: MutableRefObject<HTMLDivElement | null>;
  /** Where to start (the position kept for this query), and where to report it as it changes. */
  position: ListPosition;
  onPosition: (position: ListPosition) => void;
}) {
  const paged = usePagedRows(query, knownTotal);
  const scroller = useRef<HTMLDivElement | null>(null);
  const setScroller = useCallback(
    (el: HTMLDivElement | null) => {
      scroller.current = el;
      if (listRef) listRef.current = el;
    },
    [listRef],
  );
  const count = paged.total ?? 0;
  const [active, setActive] = useState(position.active);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW,
    overscan: OVERSCAN,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  const { ensure, version } = paged;

  useEffect(() => {
    ensure(first, last);
  }, [ensure, first, last, version]);

  // Back where it was once the rows are counted (a search's count comes with its first page).
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || count === 0) return;
    restored.current = true;
    if (position.top > 0) virtualizer.scrollToIndex(Math.min(position.top, count - 1), { align: 'start' });
  }, [count, position.top, virtualizer]);

  const top = virtualizer.range?.startIndex ?? 0;
  useEffect(() => {
    if (!restored.current) return undefined;
    const timer = setTimeout(() => onPosition({ top, active }), KEEP_POSITION_MS);
    return () => clearTimeout(timer);
  }, [top, active, onPosition]);

  const moveTo = useCallback(
    (index: number) => {
      if (!count) return;
      const i = Math.max(0, Math.min(count - 1, index));
      setActive(i);
      virtualizer.scrollToIndex(i, { align: 'auto' });
    },
    [count, virtualizer],
  );

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const perPage = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 0) / ESTIMATED_ROW));
    const steps: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + perPage, PageUp: active - perPage, Home: 0, End: count - 1 };
    if (Object.hasOwn(steps, e.key)) {
      e.preventDefault();
      moveTo(steps[e.key]!);
      return;
    }
    if (e.key === 'Enter') {
      const row = paged.row(active);
      if (!row) return;
      e.preventDefault();
      if (!e.shiftKey) onOpen(row, 'diff');
      else if (row.kind !== 'removed') onOpen(row, 'edit');
    }
  }

  const activate = useCallback((index: number) => {
    setActive(index);
    scroller.current?.focus({ preventScroll: true });
  }, []);

  const activeShown = items.some((v) => v.index === active) && paged.row(active) !== undefined;
  const status =
    paged.total === undefined
      ? 'Searching…'
      : query.search
        ? `${paged.total.toLocaleString()} ${paged.total === 1 ? 'change matches' : 'changes match'} “${query.search}”`
        : `${paged.total.toLocaleString()} ${paged.total === 1 ? 'change' : 'changes'}`;

  return (
    <>
      <div className="dd-status">
        <span role="status" data-testid="status">
          {status}
        </span>
        {paged.loading && <ProgressRing className="dd-spinner" aria-label="Loading rows" />}
      </div>
      {paged.error !== undefined && (
        <div className="dd-error">
          <Banner tone="error" data-testid="page-error">
            {paged.error}
          </Banner>
          <Button appearance="secondary" onClick={paged.retry}>
            Retry
          </Button>
        </div>
      )}
      {paged.total === 0 ? (
        <p className="dd-empty" data-testid="empty">
          {emptyText}
        </p>
      ) : (
        <div
          ref={setScroller}
          className="dd-list"
          data-testid="diff-list"
          role="listbox"
          tabIndex={0}
          aria-label="Changed examples"
          aria-describedby="dd-keys"
          aria-busy={paged.loading}
          aria-activedescendant={activeShown ? `dd-row-${active}` : undefined}
          onKeyDown={onKeyDown}
        >
          {/* Virtualisation's positions are the only inline styles: the list's full height and each row's offset. */}
          <div className="dd-list-inner" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = paged.row(item.index);
              return (
                <div key={item.key} className="dd-slot" data-index={item.index} ref={virtualizer.measureElement} style={{ transform: `translateY(${item.start}px)` }}>
                  {row ? (
                    <DiffRowView row={row} index={item.index} total={count} active={item.index === active} onActivate={activate} onOpen={onOpen} />
                  ) : (
                    <PendingRow />
                  )}
                </div>
              );
            })}
          </div>
        </div>
      )}
      <p id="dd-keys" className="dd-hint">
        ↑ ↓ move · Enter compares the two versions · Shift+Enter edits the example
      </p>
    </>
  );
}
