// The table of runs: one VirtualList over the query's pages (read by cursor as it scrolls), a sticky head whose
// columns are resized by dragging and sorted by a click (start time by LangSmith; the other figures among the rows
// loaded, as LangSmith sorts runs by start time only), and a selection made with the mouse (click, Ctrl/Cmd-click,
// Shift-click) or the keyboard (Space, Shift+arrows, Ctrl+A, Escape).
import { forwardRef, useCallback, useImperativeHandle, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import type { RunsRow } from '../../../../src/protocol/runs';
import type { CursorRows } from '../../common/hooks/useCursorRows';
import { useMemoryRows, type RowSource } from '../../common/list/rowSource';
import { VirtualList, type VirtualListHandle } from '../../common/list/VirtualList';
import { sortRows, type Column } from './columns';

const ROW_HEIGHT = 26;

export interface LocalSort {
  column: string;
  dir: 'asc' | 'desc';
}

export interface RunsTableHandle {
  focus(): void;
}

export interface RunsTableProps {
  source: CursorRows<RunsRow>;
  columns: Column[];
  widths: Record<string, number>;
  order: 'desc' | 'asc';
  localSort: LocalSort | undefined;
  selected: ReadonlySet<string>;
  onSelect(ids: Set<string>): void;
  onOrder(order: 'desc' | 'asc'): void;
  onLocalSort(sort: LocalSort | undefined): void;
  onResize(column: string, width: number, done: boolean): void;
  onOpen(row: RunsRow, pin: boolean): void;
  empty: React.ReactNode;
}

export const RunsTable = forwardRef<RunsTableHandle, RunsTableProps>(function RunsTable(props, ref) {
  const { source, columns, widths, selected, onSelect, localSort } = props;
  const list = useRef<VirtualListHandle>(null);
  const [active, setActive] = useState(0);
  const anchor = useRef(0);
  useImperativeHandle(ref, () => ({ focus: () => list.current?.focus() }), []);

  // Sorted by a figure: the rows loaded so far, in memory (paging waits until the sort is cleared).
  const loadedRows = useCallback(() => {
    const rows: RunsRow[] = [];
    for (let i = 0; i < source.loaded; i++) rows.push(source.row(i)!);
    return rows;
  }, [source.loaded, source.version]);
  const sortColumn = localSort ? columns.find((c) => c.id === localSort.column) : undefined;
  const sortedRows = useMemoSorted(sortColumn && localSort ? () => sortRows(loadedRows(), sortColumn, localSort.dir) : undefined, [sortColumn, localSort, loadedRows]);
  const memory = useMemoryRows(sortedRows ?? EMPTY);
  const shown: RowSource<RunsRow> = sortedRows ? memory : source;
  const rowAt = (i: number) => shown.row(i);
  const total = sortedRows ? sortedRows.length : source.loaded;

  const template = columns.map((c) => `${widths[c.id] ?? c.width}px`).join(' ');

  const selectRange = (from: number, to: number, add: boolean) => {
    const next = add ? new Set(selected) : new Set<string>();
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
      const r = rowAt(i);
      if (r) next.add(r.id);
    }
    onSelect(next);
  };
  const click = (index: number, row: RunsRow, e: MouseEvent) => {
    setActive(index);
    if (e.shiftKey) selectRange(anchor.current, index, e.ctrlKey || e.metaKey);
    else if (e.ctrlKey || e.metaKey) {
      const next = new Set(selected);
      if (next.has(row.id)) next.delete(row.id);
      else next.add(row.id);
      anchor.current = index;
      onSelect(next);
    } else {
      anchor.current = index;
      onSelect(new Set([row.id]));
      // A plain click previews the run's trace beside (VS Code's preview tab: the next click replaces it).
      if (e.detail <= 1) props.onOpen(row, false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const row = rowAt(active);
    if (e.key === ' ' && row) {
      e.preventDefault();
      const next = new Set(selected);
      if (next.has(row.id)) next.delete(row.id);
      else next.add(row.id);
      anchor.current = active;
      onSelect(next);
    } else if (e.shiftKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      const to = Math.max(0, Math.min(total - 1, active + (e.key === 'ArrowDown' ? 1 : -1)));
      setActive(to);
      list.current?.scrollTo(to);
      selectRange(anchor.current, to, false);
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      selectRange(0, total - 1, false);
    } else if (e.key === 'Escape' && selected.size) {
      e.preventDefault();
      onSelect(new Set());
    }
  };

  return (
    <VirtualList<RunsRow>
      handle={list}
      source={shown}
      estimatedRow={ROW_HEIGHT}
      measured={() => false}
      role="grid"
      active={active}
      onActiveChange={(i) => {
        setActive(i);
        anchor.current = i;
      }}
      onKeyDown={onKeyDown}
      onEnter={(row, e) => {
        e.preventDefault();
        props.onOpen(row, e.ctrlKey || e.metaKey);
      }}
      renderHead={(headRef) => <Head headRef={headRef} {...props} template={template} />}
      renderRow={(row, ctx) => (
        <div
          className={`rn-row${selected.has(row.id) ? ' rn-selected' : ''}${ctx.active ? ' rn-active' : ''}`}
          style={{ gridTemplateColumns: template }}
          role="row"
          aria-selected={selected.has(row.id)}
          aria-rowindex={ctx.index + 2}
          onClick={(e) => click(ctx.index, row, e)}
          onDoubleClick={() => props.onOpen(row, true)}
          data-testid="run-row"
          data-run-id={row.id}
          data-status={row.status}
        >
          {columns.map((c) => (
            <Cell key={c.id} column={c} row={row} />
          ))}
        </div>
      )}
      renderPending={() => (
        <div className="rn-row rn-pending" role="row">
          <span role="gridcell" className="rn-muted">
            Loading…
          </span>
        </div>
      )}
      empty={props.empty}
      idPrefix="rn-row-"
      className="rn-table"
      innerClassName="rn-table-inner"
      slotClassName="rn-slot"
      slotRole="presentation"
      innerAttributes={{ role: 'rowgroup' }}
      attributes={{ 'data-loaded': source.loaded, 'aria-rowcount': source.more ? -1 : total + 1, 'aria-colcount': columns.length, 'aria-multiselectable': 'true' }}
      aria-label="Runs"
      data-testid="runs-table"
    />
  );
});

const EMPTY: RunsRow[] = [];

function useMemoSorted(make: (() => RunsRow[]) | undefined, deps: unknown[]): RunsRow[] | undefined {
  const cache = useRef<{ deps: unknown[]; rows: RunsRow[] | undefined }>();
  if (!cache.current || cache.current.deps.length !== deps.length || cache.current.deps.some((d, i) => d !== deps[i])) {
    cache.current = { deps, rows: make?.() };
  }
  return cache.current.rows;
}

function Cell({ column, row }: { column: Column; row: RunsRow }) {
  const text = column.text(row);
  if (column.id === 'status') {
    return (
      <span role="gridcell" className={`rn-cell rn-status rn-status-${row.status}`} title={row.error ?? undefined}>
        <span className="rn-dot" aria-hidden="true" />
        {text}
      </span>
    );
  }
  if (column.id === 'name') {
    return (
      <span role="gridcell" className="rn-cell" title={`${row.name} (${row.runType})`}>
        <span className="rn-type">{row.runType}</span> <span dir="auto">{text}</span>
      </span>
    );
  }
  return (
    <span role="gridcell" className={`rn-cell${column.numeric ? ' rn-num' : ''}${column.id === 'output' && row.status === 'error' && !row.output ? ' rn-error-text' : ''}`} title={text.length > 30 ? text : undefined} dir="auto">
      {text}
    </span>
  );
}

function Head(props: RunsTableProps & { headRef: (el: HTMLElement | null) => void; template: string }) {
  const { columns, order, localSort, onOrder, onLocalSort, onResize, widths } = props;
  const drag = useRef<{ column: string; x: number; width: number; last: number }>();
  const sortState = (c: Column): 'ascending' | 'descending' | undefined =>
    c.id === 'start' && !localSort ? (order === 'asc' ? 'ascending' : 'descending') : localSort?.column === c.id ? (localSort.dir === 'asc' ? 'ascending' : 'descending') : undefined;
  const sort = (c: Column) => {
    if (c.id === 'start') {
      onLocalSort(undefined);
      onOrder(localSort ? order : order === 'desc' ? 'asc' : 'desc');
    } else if (c.sortValue) {
      if (localSort?.column !== c.id) onLocalSort({ column: c.id, dir: 'desc' });
      else if (localSort.dir === 'desc') onLocalSort({ column: c.id, dir: 'asc' });
      else onLocalSort(undefined);
    }
  };
  const down = (c: Column, e: PointerEvent<HTMLSpanElement>) => {
    e.preventDefault();
    e.stopPropagation();
    (e.target as HTMLElement).setPointerCapture(e.pointerId);
    const width = widths[c.id] ?? c.width;
    drag.current = { column: c.id, x: e.clientX, width, last: width };
  };
  const move = (e: PointerEvent<HTMLSpanElement>) => {
    const d = drag.current;
    if (!d) return;
    d.last = Math.max(40, Math.min(2000, Math.round(d.width + e.clientX - d.x)));
    onResize(d.column, d.last, false);
  };
  const up = () => {
    const d = drag.current;
    drag.current = undefined;
    if (d) onResize(d.column, d.last, true);
  };
  return (
    <div ref={props.headRef} className="rn-head" role="row" aria-rowindex={1} style={{ gridTemplateColumns: props.template }}>
      {columns.map((c) => (
        <span key={c.id} role="columnheader" className={`rn-head-cell${c.numeric ? ' rn-num' : ''}`} aria-sort={sortState(c)}>
          {c.sortValue ? (
            <button type="button" className="rn-head-button" onClick={() => sort(c)} data-testid={`sort-${c.id}`} title={c.id === 'start' ? 'Sort by start time' : `Sort the loaded runs by ${c.label}`}>
              {c.label}
              {sortState(c) === 'ascending' ? ' ↑' : sortState(c) === 'descending' ? ' ↓' : ''}
            </button>
          ) : (
            <span className="rn-head-label">{c.label}</span>
          )}
          <span
            className="rn-resize"
            role="separator"
            aria-orientation="vertical"
            aria-label={`Resize ${c.label}`}
            onPointerDown={(e) => down(c, e)}
            onPointerMove={move}
            onPointerUp={up}
            data-testid={`resize-${c.id}`}
          />
        </span>
      ))}
    </div>
  );
}
