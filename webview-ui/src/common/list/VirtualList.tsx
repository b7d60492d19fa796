// A virtualised list over any row source (list/rowSource: offset pages, cursor pages, rows in memory): only the
// rows in view (and a few around) are in the DOM, each measured as it renders (or only those `measured` says), and
// the source is told which rows are in view so it can ask for them. A focusable list (a `role`) is one tab stop:
// arrows, Page Up/Down, Home and End move the active row (aria-activedescendant); Enter goes to `onEnter`; an
// app's own `onKeyDown` runs first and keeps a key by calling preventDefault. The active row is the list's own
// (from `position`) or the app's (`active` with `onActiveChange`). Where it was (first row in view, active row) is
// reported after it rests and restored on mount, so a tab shown again opens there. What a row looks like is the
// app's: `renderRow`, and `renderPending` for a row still loading; `renderHead` puts a sticky head inside the
// scroll area, above the rows.
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type HTMLAttributes,
  type Key,
  type KeyboardEvent,
  type MutableRefObject,
  type ReactNode,
  type Ref,
} from 'react';
import type { RowSource } from './rowSource';
import { useWindow } from './useWindow';

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

/** What an app can do to its list from outside. */
export interface VirtualListHandle {
  focus(): void;
  /** Brings a row into view (no scroll when it is in view already). */
  scrollTo(index: number): void;
  /** Forgets measured heights (a row went back to its own height). */
  measure(): void;
}

const OVERSCAN = 6;
/** How long the list rests before its position is kept. */
const KEEP_POSITION_MS = 300;
const START: ListPosition = { top: 0, active: 0 };

/** Attributes for the list's elements, `data-*` ones included. */
type Attributes = HTMLAttributes<HTMLDivElement> & { [data: `data-${string}`]: string | number | undefined };

export interface VirtualListProps<Row> {
  source: RowSource<Row>;
  /** A row's height before it is measured (also what Page Up/Down counts in). */
  estimatedRow: number;
  renderRow: (row: Row, context: RowContext) => ReactNode;
  renderPending?: (index: number) => ReactNode;
  /** Shown instead of the list when the source has no rows. */
  empty?: ReactNode;
  /** The list's role; with one the list is a tab stop and its keys move the active row. */
  role?: 'listbox' | 'tree' | 'grid';
  /** Enter (or Shift+Enter…) on the active row, once it has loaded; call preventDefault if it is handled. */
  onEnter?: (row: Row, e: KeyboardEvent<HTMLDivElement>) => void;
  /** Runs before the list's own keys; a key it handles (preventDefault) is not the list's. */
  onKeyDown?: (e: KeyboardEvent<HTMLDivElement>) => void;
  /** The active row when the app keeps it; the list reports moves through onActiveChange. */
  active?: number;
  onActiveChange?: (index: number) => void;
  /** Where to start, and where to report it as it changes. */
  position?: ListPosition;
  onPosition?: (position: ListPosition) => void;
  /** Row ids are `${idPrefix}${index}`. */
  idPrefix: string;
  /** What aria-activedescendant names when the active row is shown (default: the active row's id). */
  activeDescendant?: (index: number) => string;
  /** A row's key (default: its place). */
  rowKey?: (index: number) => Key;
  /** Whether a row is measured as it renders (default: every row); the rest are `estimatedRow` tall. */
  measured?: (index: number) => boolean;
  overscan?: number;
  /** A head drawn inside the scroll area above the rows (sticky by its stylesheet); its height is kept clear. */
  renderHead?: (ref: (el: HTMLElement | null) => void) => ReactNode;
  /** The list element, for a search box to move focus to. */
  listRef?: MutableRefObject<HTMLDivElement | null>;
  handle?: Ref<VirtualListHandle>;
  className: string;
  innerClassName: string;
  slotClassName: string;
  /** More attributes of the scroll area, of the element holding the rows, and the role of each row's slot. */
  attributes?: Attributes;
  innerAttributes?: Attributes;
  slotRole?: string;
  'aria-label': string;
  'aria-describedby'?: string;
  'data-testid'?: string;
}

export function VirtualList<Row>(props: VirtualListProps<Row>) {
  const { source, estimatedRow, renderRow, renderPending, onEnter, listRef, idPrefix, measured, renderHead } = props;
  const position = props.position ?? START;
  const onPosition = props.onPosition;
  const scroller = useRef<HTMLDivElement | null>(null);
  const setScroller = useCallback(
    (el: HTMLDivElement | null) => {
      scroller.current = el;
      if (listRef) listRef.current = el;
    },
    [listRef],
  );
  const count = source.count ?? 0;
  const [ownActive, setOwnActive] = useState(position.active);
  const active = props.active ?? ownActive;
  const { onActiveChange } = props;
  const setActive = useCallback(
    (i: number) => {
      setOwnActive(i);
      onActiveChange?.(i);
    },
    [onActiveChange],
  );

  // The head's height: the rows start below it, and a row brought into view is not hidden under it.
  const [headHeight, setHeadHeight] = useState(0);
  const observer = useRef<ResizeObserver>();
  const setHead = useCallback((el: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = undefined;
    if (!el) return;
    const o = new ResizeObserver(() => setHeadHeight(el.offsetHeight));
    o.observe(el);
    observer.current = o;
    setHeadHeight(el.offsetHeight);
  }, []);
  useLayoutEffect(() => () => observer.current?.disconnect(), []);

  const win = useWindow({ count, estimate: estimatedRow, overscan: props.overscan ?? OVERSCAN, margin: headHeight, rowKey: props.rowKey, scroller });
  const { items, scrollToIndex } = win;
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  const { ensure, version } = source;

  useEffect(() => {
    ensure(first, last);
  }, [ensure, first, last, version]);

  // Back where it was once the rows are counted (a search's count comes with its first page).
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || count === 0) return;
    restored.current = true;
    if (position.top > 0) scrollToIndex(Math.min(position.top, count - 1), 'start');
  }, [count, position.top, scrollToIndex]);

  const top = win.shown;
  useEffect(() => {
    if (!restored.current || !onPosition) return undefined;
    const timer = setTimeout(() => onPosition({ top, active }), KEEP_POSITION_MS);
    return () => clearTimeout(timer);
  }, [top, active, onPosition]);

  useImperativeHandle(
    props.handle,
    () => ({
      focus: () => scroller.current?.focus({ preventScroll: true }),
      scrollTo: (index: number) => scrollToIndex(index),
      measure: win.measure,
    }),
    [scrollToIndex, win.measure],
  );

  const moveTo = useCallback(
    (index: number) => {
      if (!count) return;
      const i = Math.max(0, Math.min(count - 1, index));
      setActive(i);
      scrollToIndex(i);
    },
    [count, scrollToIndex, setActive],
  );

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    props.onKeyDown?.(e);
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const perPage = Math.max(1, Math.floor(((scroller.current?.clientHeight ?? 0) - headHeight) / estimatedRow));
    const steps: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + perPage, PageUp: active - perPage, Home: 0, End: count - 1 };
    if (Object.hasOwn(steps, e.key)) {
      e.preventDefault();
      moveTo(steps[e.key]!);
      return;
    }
    if (e.key === 'Enter') {
      const row = source.row(active);
      if (row !== undefined) onEnter?.(row, e);
    }
  }

  const activate = useCallback(
    (index: number) => {
      setActive(index);
      scroller.current?.focus({ preventScroll: true });
    },
    [setActive],
  );

  if (source.count === 0 && props.empty !== undefined) return <>{props.empty}</>;
  const focusable = props.role !== undefined;
  const activeShown = focusable && items.some((v) => v.index === active) && source.row(active) !== undefined;
  return (
    <div
      {...props.attributes}
      ref={setScroller}
      className={props.className}
      data-testid={props['data-testid']}
      role={props.role}
      tabIndex={focusable ? 0 : undefined}
      aria-label={props['aria-label']}
      aria-describedby={props['aria-describedby']}
      aria-busy={source.loading}
      aria-activedescendant={activeShown ? (props.activeDescendant?.(active) ?? `${idPrefix}${active}`) : undefined}
      onKeyDown={focusable ? onKeyDown : undefined}
    >
      {renderHead?.(setHead)}
      {/* Virtualisation's positions are the only inline styles: the list's full height and each row's offset. */}
      <div {...props.innerAttributes} className={props.innerClassName} style={{ height: win.total }}>
        {items.map((item) => {
          const row = source.row(item.index);
          return (
            <div
              key={item.key}
              className={props.slotClassName}
              role={props.slotRole}
              data-index={item.index}
              ref={!measured || measured(item.index) ? win.measureElement : undefined}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {row !== undefined
                ? renderRow(row, { index: item.index, total: count, active: item.index === active, onActivate: activate, id: `${idPrefix}${item.index}` })
                : renderPending?.(item.index)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
