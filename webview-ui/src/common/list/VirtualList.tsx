// A virtualised list over paged rows (usePagedRows): only the rows in view (and a few around) are in the DOM,
// each measured as it renders, and the rows are asked for as they scroll in. The list is one tab stop: arrows,
// Page Up/Down, Home and End move the active row (aria-activedescendant); Enter goes to `onEnter`. Where it was
// (first row in view, active row) is reported after it rests and restored on mount, so a tab shown again opens
// there. What a row looks like is the app's: `renderRow`, and `renderPending` for a row still loading.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MutableRefObject, type ReactNode } from 'react';
import type { PagedRows } from '../hooks/usePagedRows';

/** Where the list was: the first row in view and the active row. */
export interface ListPosition {
  top: number;
  active: number;
}

/** What a row is told: its place, whether it is active, and how to make it so (a click). */
export interface RowContext {
  index: number;
  total: number;
  active: boolean;
  onActivate: (index: number) => void;
  /** The row's element id, which aria-activedescendant names. */
  id: string;
}

const OVERSCAN = 6;
/** How long the list rests before its position is kept. */
const KEEP_POSITION_MS = 300;

export interface VirtualListProps<Row> {
  paged: PagedRows<Row>;
  /** A row's height before it is measured (also what Page Up/Down counts in). */
  estimatedRow: number;
  renderRow: (row: Row, context: RowContext) => ReactNode;
  renderPending: () => ReactNode;
  /** Enter (or Shift+Enter…) on the active row, once it has loaded; call preventDefault if it is handled. */
  onEnter?: (row: Row, e: KeyboardEvent<HTMLDivElement>) => void;
  /** Shown instead of the list when the query has no rows. */
  empty: ReactNode;
  /** The list element, for a search box to move focus to. */
  listRef?: MutableRefObject<HTMLDivElement | null>;
  /** Where to start, and where to report it as it changes. */
  position: ListPosition;
  onPosition: (position: ListPosition) => void;
  /** Row ids are `${idPrefix}${index}`. */
  idPrefix: string;
  className: string;
  innerClassName: string;
  slotClassName: string;
  'aria-label': string;
  'aria-describedby'?: string;
  'data-testid'?: string;
}

export function VirtualList<Row>(props: VirtualListProps<Row>) {
  const { paged, estimatedRow, renderRow, renderPending, onEnter, listRef, position, onPosition, idPrefix } = props;
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
    estimateSize: () => estimatedRow,
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
    const perPage = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 0) / estimatedRow));
    const steps: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + perPage, PageUp: active - perPage, Home: 0, End: count - 1 };
    if (Object.hasOwn(steps, e.key)) {
      e.preventDefault();
      moveTo(steps[e.key]!);
      return;
    }
    if (e.key === 'Enter') {
      const row = paged.row(active);
      if (row) onEnter?.(row, e);
    }
  }

  const activate = useCallback((index: number) => {
    setActive(index);
    scroller.current?.focus({ preventScroll: true });
  }, []);

  if (paged.total === 0) return <>{props.empty}</>;
  const activeShown = items.some((v) => v.index === active) && paged.row(active) !== undefined;
  return (
    <div
      ref={setScroller}
      className={props.className}
      data-testid={props['data-testid']}
      role="listbox"
      tabIndex={0}
      aria-label={props['aria-label']}
      aria-describedby={props['aria-describedby']}
      aria-busy={paged.loading}
      aria-activedescendant={activeShown ? `${idPrefix}${active}` : undefined}
      onKeyDown={onKeyDown}
    >
      {/* Virtualisation's positions are the only inline styles: the list's full height and each row's offset. */}
      <div className={props.innerClassName} style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = paged.row(item.index);
          return (
            <div key={item.key} className={props.slotClassName} data-index={item.index} ref={virtualizer.measureElement} style={{ transform: `translateY(${item.start}px)` }}>
              {row
                ? renderRow(row, { index: item.index, total: count, active: item.index === active, onActivate: activate, id: `${idPrefix}${item.index}` })
                : renderPending()}
            </div>
          );
        })}
      </div>
    </div>
  );
}
