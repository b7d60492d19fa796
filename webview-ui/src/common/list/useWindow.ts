// Which rows of a long list are in view, and where each one sits: the arithmetic under VirtualList. Rows are
// `estimate` tall until they are measured (a ResizeObserver on the rows the list hands to `measureElement`);
// measured heights are kept by row key. The rows sit in an element `margin` pixels below the top of the scroll area
// (a sticky head above them), and a row brought into view is not left under that head. A row above the view that
// changes height moves the scroll position by as much, so what is in view stays put; a row scrolled to is scrolled
// to again while the heights around it settle.
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, type Key } from 'react';

export interface WindowItem {
  index: number;
  key: Key;
  /** Offset from the top of the rows' element. */
  start: number;
}

export interface WindowOptions {
  count: number;
  estimate: number;
  overscan: number;
  /** Pixels above the rows' element inside the scroll area (a sticky head). */
  margin: number;
  rowKey?: (index: number) => Key;
  scroller: { current: HTMLElement | null };
}

export type Align = 'auto' | 'start';

/** How many times a scroll to a row is redone as measured heights move it. */
const SETTLE_TRIES = 10;

const byIndex = (i: number): Key => i;

export function useWindow({ count, estimate, overscan, margin, rowKey = byIndex, scroller }: WindowOptions) {
  const sizes = useRef(new Map<Key, number>());
  const [version, bump] = useReducer((n: number) => n + 1, 0);
  const view = useRef({ top: 0, height: 0 });

  // Where each row starts: starts[i], and the rows' full height at starts[count].
  const starts = useMemo(() => {
    const s = new Float64Array(count + 1);
    for (let i = 0; i < count; i++) s[i + 1] = s[i]! + (sizes.current.get(rowKey(i)) ?? estimate);
    return s;
    // `version` is when measured heights changed.
  }, [count, estimate, rowKey, version]);
  const latest = useRef({ starts, rowKey, margin, count });
  latest.current = { starts, rowKey, margin, count };

  /** The first row whose bottom is below `y` (in the rows' coordinates). */
  const rowAt = (s: Float64Array, n: number, y: number) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid + 1]! <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const rangeOf = useCallback((s: Float64Array, n: number, m: number) => {
    const { top, height } = view.current;
    if (n === 0 || height <= 0) return { first: 0, last: -1, shown: 0 };
    const y = Math.max(0, top - m);
    const shown = Math.min(n - 1, rowAt(s, n, y));
    const end = Math.min(n - 1, rowAt(s, n, top - m + height - 1));
    return { first: Math.max(0, shown - overscan), last: Math.min(n - 1, end + overscan), shown };
  }, [overscan]);

  // The view: scrolling re-renders only when the rows to draw change.
  const drawn = useRef({ first: 0, last: -1, shown: 0 });
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const check = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    view.current = { top: el.scrollTop, height: el.clientHeight };
    const { starts: s, count: n, margin: m } = latest.current;
    const r = rangeOf(s, n, m);
    const d = drawn.current;
    if (r.first !== d.first || r.last !== d.last || r.shown !== d.shown) redraw();
  }, [scroller, rangeOf]);
  const checkNow = useRef(check);
  checkNow.current = check;
  // Listens to the scroll area it was given (the list may render it only once it has rows).
  const attached = useRef<{ el: HTMLElement; off(): void }>();
  useLayoutEffect(() => {
    const el = scroller.current;
    if (attached.current?.el === el) return;
    attached.current?.off();
    attached.current = undefined;
    if (!el) return;
    const listener = () => checkNow.current();
    el.addEventListener('scroll', listener, { passive: true });
    const resize = new ResizeObserver(listener);
    resize.observe(el);
    attached.current = {
      el,
      off: () => {
        el.removeEventListener('scroll', listener);
        resize.disconnect();
      },
    };
    listener();
  });
  useEffect(() => () => attached.current?.off(), []);

  // A scroll to a row, redone while measured heights move it.
  const target = useRef<{ index: number; align: Align; tries: number }>();
  const place = useCallback(
    (index: number, align: Align): boolean => {
      const el = scroller.current;
      const { starts: s, count: n, margin: m } = latest.current;
      if (!el || index < 0 || index >= n) return true;
      const top = m + s[index]!;
      const bottom = m + s[index + 1]!;
      let to = el.scrollTop;
      if (align === 'start' || top < el.scrollTop + m) to = top - m;
      else if (bottom > el.scrollTop + el.clientHeight) to = bottom - el.clientHeight;
      to = Math.max(0, to);
      if (Math.abs(to - el.scrollTop) < 1) return true;
      el.scrollTop = to;
      check();
      return false;
    },
    [scroller, check],
  );
  const scrollToIndex = useCallback(
    (index: number, align: Align = 'auto') => {
      target.current = place(index, align) ? undefined : { index, align, tries: 0 };
    },
    [place],
  );
  useLayoutEffect(() => {
    const t = target.current;
    if (!t) return;
    if (++t.tries > SETTLE_TRIES || place(t.index, t.align)) target.current = undefined;
  }, [version, place]);

  // Rows handed to measureElement are measured now and whenever they change size.
  const observer = useRef<ResizeObserver>();
  const observed = useRef(new Set<HTMLElement>());
  const measured = useCallback((entries: ResizeObserverEntry[]) => {
    const { starts: s, rowKey: key, count: n, margin: m } = latest.current;
    const el = scroller.current;
    let changed = false;
    let shift = 0;
    for (const entry of entries) {
      const row = entry.target as HTMLElement;
      if (!row.isConnected) {
        observer.current?.unobserve(row);
        observed.current.delete(row);
        continue;
      }
      const index = Number(row.dataset['index']);
      if (!(index >= 0 && index < n)) continue;
      const k = key(index);
      const size = entry.borderBoxSize?.[0]?.blockSize ?? row.offsetHeight;
      const before = sizes.current.get(k) ?? s[index + 1]! - s[index]!;
      if (Math.abs(size - before) < 0.5 && sizes.current.has(k)) continue;
      sizes.current.set(k, size);
      changed = true;
      if (el && !target.current && m + s[index]! < el.scrollTop) shift += size - before;
    }
    if (!changed) return;
    if (el && shift) el.scrollTop += shift;
    bump();
  }, [scroller]);
  const measureElement = useCallback(
    (row: HTMLElement | null) => {
      if (!row) return;
      observer.current ??= new ResizeObserver(measured);
      observer.current.observe(row);
      observed.current.add(row);
    },
    [measured],
  );
  useEffect(() => () => observer.current?.disconnect(), []);
  /** Forgets the measured heights (a row went back to its own) and measures the rows in the DOM again. */
  const measure = useCallback(() => {
    sizes.current.clear();
    const { rowKey: key, count: n } = latest.current;
    for (const row of observed.current) {
      const index = Number(row.dataset['index']);
      if (!row.isConnected || !(index >= 0 && index < n)) {
        observer.current?.unobserve(row);
        observed.current.delete(row);
      } else sizes.current.set(key(index), row.offsetHeight);
    }
    bump();
  }, []);

  const range = rangeOf(starts, count, margin);
  drawn.current = range;
  const items: WindowItem[] = [];
  for (let i = range.first; i <= range.last; i++) items.push({ index: i, key: rowKey(i), start: starts[i]! });
  return { items, total: starts[count]!, shown: range.shown, scrollToIndex, measureElement, measure };
}
