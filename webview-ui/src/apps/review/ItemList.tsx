// The queue's items by section (needing my review, needing others', archived), read a page at a time by cursor
// as the list scrolls; only the rows in view are in the DOM. A row opens its item.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ListItems, type Counts, type ItemSummary, type Section } from '../../../../src/protocol/review';
import { useRequest } from '../../common/app';
import { TextButton } from '../../common/components';

export const SECTIONS: { section: Section; label: string; testId: string }[] = [
  { section: 'needs_my_review', label: 'Needs my review', testId: 'count-mine' },
  { section: 'needs_others_review', label: 'Needs others’ review', testId: 'count-others' },
  { section: 'archived', label: 'Archived', testId: 'count-archived' },
];

const ROW_HEIGHT = 44;
/** How close to the end of what is loaded the next page is asked for. */
const AHEAD = 15;

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
  const [items, setItems] = useState<ItemSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [started, setStarted] = useState(false);
  const [error, setError] = useState<string>();
  const loading = useRef(false);
  const scroller = useRef<HTMLDivElement | null>(null);
  const more = started ? cursor !== null : true;

  const load = useCallback(
    async (from: string | null) => {
      if (loading.current) return;
      loading.current = true;
      setError(undefined);
      const result = await list.run({ section, cursor: from });
      loading.current = false;
      if (!result.ok) {
        if (result.error.code !== 'cancelled') setError(result.error.message);
        return;
      }
      setItems((prev) => [...prev, ...result.value.items]);
      setCursor(result.value.cursor);
      setStarted(true);
    },
    [list.run, section],
  );

  const count = items.length + (more ? 1 : 0);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 6 });
  const shown = virtualizer.getVirtualItems();
  const last = shown[shown.length - 1]?.index ?? -1;
  useEffect(() => {
    if (error !== undefined || !more) return;
    if (!started || last >= items.length - AHEAD) void load(cursor);
  }, [last, items.length, more, started, cursor, error, load]);

  if (started && items.length === 0)
    return (
      <p className="tv-muted rv-list-empty" data-testid="item-list">
        No items here.
      </p>
    );
  return (
    <>
      <div ref={scroller} id="rv-item-list" className="rv-list" aria-label="Items" aria-busy={list.pending} data-testid="item-list" data-loaded={items.length}>
        {/* Virtualisation's positions are the only inline styles: the list's full height and each row's offset. */}
        <ul className="rv-list-inner" style={{ height: virtualizer.getTotalSize() }}>
          {shown.map((v) => {
            const item = items[v.index];
            return (
              <li key={v.key} className="rv-list-slot" style={{ transform: `translateY(${v.start}px)` }}>
                {item ? <Row item={item} current={item.id === currentId} onOpen={onOpen} /> : <span className="tv-muted rv-row-pending">Loading…</span>}
              </li>
            );
          })}
        </ul>
      </div>
      {error !== undefined && (
        <p className="rv-field-error" role="alert">
          {error} <TextButton onClick={() => void load(cursor)}>Retry</TextButton>
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
