// The list of changed examples: its status line, paging errors and keys hint around the shared virtualised list
// (common/list), whose rows are DiffRowViews. The rows come from the host a page at a time as they scroll in.
// Enter compares the active row, Shift+Enter edits it.
import { useCallback, type KeyboardEvent, type MutableRefObject } from 'react';
import { DiffPage, PAGE_LIMIT_MAX, type DiffQuery, type DiffRow, type OpenHow } from '../../../../src/protocol/datasetDiff';
import { useRequest } from '../../common/app';
import { Banner, Button, ProgressRing } from '../../common/components';
import { usePagedRows } from '../../common/hooks/usePagedRows';
import { VirtualList, type ListPosition } from '../../common/list/VirtualList';
import { DiffRowView, PendingRow } from './DiffRowView';

/** A row's height before it is measured (a pending row's height: see .dd-pending). */
const ESTIMATED_ROW = 96;

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
  const page = useRequest(DiffPage);
  const { run } = page;
  const fetchPage = useCallback((offset: number, limit: number) => run({ ...query, offset, limit }), [run, query]);
  const paged = usePagedRows<DiffRow>({ run: fetchPage, pending: page.pending }, knownTotal, PAGE_LIMIT_MAX);

  function onEnter(row: DiffRow, e: KeyboardEvent<HTMLDivElement>) {
    e.preventDefault();
    if (!e.shiftKey) onOpen(row, 'diff');
    else if (row.kind !== 'removed') onOpen(row, 'edit');
  }

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
      <VirtualList
        source={paged}
        role="listbox"
        estimatedRow={ESTIMATED_ROW}
        renderRow={(row, { index, total, active, onActivate }) => <DiffRowView row={row} index={index} total={total} active={active} onActivate={onActivate} onOpen={onOpen} />}
        renderPending={() => <PendingRow />}
        onEnter={onEnter}
        empty={
          <p className="dd-empty" data-testid="empty">
            {emptyText}
          </p>
        }
        listRef={listRef}
        position={position}
        onPosition={onPosition}
        idPrefix="dd-row-"
        className="dd-list"
        innerClassName="dd-list-inner"
        slotClassName="dd-slot"
        data-testid="diff-list"
        aria-label="Changed examples"
        aria-describedby="dd-keys"
      />
      <p id="dd-keys" className="dd-hint">
        ↑ ↓ move · Enter compares the two versions · Shift+Enter edits the example
      </p>
    </>
  );
}
