// The queue's items by section (needing my review, needing others', archived), read a page at a time by cursor
// as the list scrolls (common/hooks/useCursorRows under common/list/VirtualList). A row opens its item.
import { useCallback, useState } from 'react';
import { ListItems, type Counts, type ItemSummary, type Section } from '../../../../src/protocol/review';
import { useRequest } from '../../common/app';
import { TextButton } from '../../common/components';
import { useCursorRows, type CursorPage } from '../../common/hooks/useCursorRows';
import { VirtualList } from '../../common/list/VirtualList';
import type { Result } from '../../common/rpc';

export const SECTIONS: { section: Section; label: string; testId: string }[] = [
  { section: 'needs_my_review', label: 'Needs my review', testId: 'count-mine' },
  { section: 'needs_others_review', label: 'Needs others’ review', testId: 'count-others' },
  { section: 'archived', label: 'Archived', testId: 'count-archived' },
];

const ROW_HEIGHT = 44;

export function ItemList({ counts, currentId, onOpen }: { counts: Counts; currentId: string | undefined; onOpen(item: ItemSummary): void }) {
  const [section, setSection] = useState<Section>('needs_my_review');
  return (
    <nav className="rv-list-pane" aria-label="Items of the queue">
      <div className="rv-tabs" role="group" aria-label="Sections">
        {SECTIONS.map((s) => (
          <button
            key={s.section}
            type="button"
            className="rv-tab"
            aria-pressed={section === s.section}
            aria-controls="rv-item-list"
            onClick={() => setSection(s.section)}
            data-testid={`tab-${s.section}`}
          >
            {s.label} <span className="tv-muted">{counts[s.section].toLocaleString('en-US')}</span>
          </button>
        ))}
      </div>
      {/* A new section (or counts after a move) starts the list afresh. */}
      <Pages key={`${section}:${counts.needs_my_review}:${counts.needs_others_review}:${counts.archived}`} section={section} currentId={currentId} onOpen={onOpen} />
    </nav>
  );
}

function Pages({ section, currentId, onOpen }: { section: Section; currentId: string | undefined; onOpen(item: ItemSummary): void }) {
  const list = useRequest(ListItems);
  const { run } = list;
  const page = useCallback(
    (cursor: string | null) => run({ section, cursor }).then((r): Result<CursorPage<ItemSummary>> => (r.ok ? { ok: true, value: { rows: r.value.items, cursor: r.value.cursor } } : r)),
    [run, section],
  );
  const source = useCursorRows<ItemSummary>({ run: page, pending: list.pending });
  return (
    <>
      <VirtualList
        source={source}
        estimatedRow={ROW_HEIGHT}
        renderRow={(item) => <Row item={item} current={item.id === currentId} onOpen={onOpen} />}
        renderPending={() => <span className="tv-muted rv-row-pending">Loading…</span>}
        empty={
          <p className="tv-muted rv-list-empty" data-testid="item-list">
            No items here.
          </p>
        }
        idPrefix="rv-item-"
        className="rv-list"
        innerClassName="rv-list-inner"
        slotClassName="rv-list-slot"
        attributes={{ id: 'rv-item-list', 'data-loaded': source.loaded }}
        innerAttributes={{ role: 'list' }}
        slotRole="listitem"
        aria-label="Items"
        data-testid="item-list"
      />
      {source.error !== undefined && (
        <p className="rv-field-error" role="alert">
          {source.error} <TextButton onClick={source.retry}>Retry</TextButton>
        </p>
      )}
    </>
  );
}

function Row({ item, current, onOpen }: { item: ItemSummary; current: boolean; onOpen(item: ItemSummary): void }) {
  const title = item.name || item.threadId || item.runId || item.id;
  return (
    <button type="button" className="rv-row" aria-current={current ? 'true' : undefined} onClick={() => onOpen(item)} data-testid="item-row" data-section={item.section} data-item-id={item.id}>
      <span className="rv-row-line">
        <span className="rv-row-name" dir="auto">
          {title}
        </span>
        {item.kind === 'thread' && <span className="rv-tag">thread</span>}
        {item.myStatus === 'completed' && <span className="rv-tag">done</span>}
        {item.myStatus === 'viewed' && <span className="rv-tag">viewed</span>}
        {item.reservedByOther && <span className="rv-tag">held by another reviewer</span>}
      </span>
      <span className="rv-row-preview tv-muted" dir="auto">
        {item.preview}
      </span>
    </button>
  );
}
