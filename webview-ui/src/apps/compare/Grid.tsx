// The grid: one row per example (as filtered and sorted), its inputs and reference, then each experiment's output
// and scores, each score marked against the baseline. Virtualised: only the rows in view (and a few around) are
// in the DOM; their contents are asked for as they scroll in, shown as placeholders until they come. One scroll
// area for both directions (a narrow panel scrolls the columns sideways), its column headers sticky on top.
// The grid is one tab stop: ↑ ↓ move the selected row, ← → the selected experiment (aria-activedescendant).
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type MutableRefObject } from 'react';
import type { Experiment, FeedbackKey, IndexCell, IndexRow, RowContent } from '../../../../src/protocol/compare';
import { TextButton } from '../../common/components';
import { formatScore, markAt, MARK_GLYPH, MARK_TEXT, own, type Analysis, type Filter } from './model';
import { CountButton } from './Summary';
import type { RowContents } from './useRowContents';

/** A row's height before it is measured (what the stylesheet gives a row that is not expanded). */
const ESTIMATED_ROW = 140;
const OVERSCAN = 2;
/** Scores listed in a cell before "+N more" (the row's More shows them all). */
const SCORES_SHOWN = 3;

export type CellAction = 'diff' | 'openTrace' | 'openExample';

export interface Selection {
  row: number;
  experiment: number;
}

interface Props {
  experiments: readonly Experiment[];
  keys: readonly FeedbackKey[];
  analysis: Analysis;
  /** Positions in the index of the rows shown, in order. */
  order: readonly number[];
  contents: RowContents;
  selection: Selection;
  onSelect(selection: Selection): void;
  onAct(action: CellAction, row: number, experiment: number): void;
  onFilter(filter: Filter): void;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  gridRef: MutableRefObject<HTMLDivElement | null>;
  /** Asked to bring the selected row into view (a key moved it). */
  scrollRequest: number;
}

export function Grid(props: Props) {
  const { experiments, keys, analysis, order, contents, selection, onSelect, onAct, onFilter, gridRef, scrollRequest } = props;
  const scroller = useRef<HTMLDivElement | null>(null);
  const head = useRef<HTMLDivElement | null>(null);
  const [headHeight, setHeadHeight] = useState(0);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  useLayoutEffect(() => {
    const el = head.current;
    if (!el) return undefined;
    const observer = new ResizeObserver(() => setHeadHeight(el.offsetHeight));
    observer.observe(el);
    setHeadHeight(el.offsetHeight);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW,
    overscan: OVERSCAN,
    scrollMargin: headHeight,
    scrollPaddingStart: headHeight,
    getItemKey: (i) => order[i] ?? i,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  // The rows in view, and a screen before and after them, are asked for.
  const { want, version } = contents;
  useEffect(() => {
    if (last < first) return;
    const span = last - first + 1;
    const ids = (a: number, b: number) => order.slice(Math.max(0, a), Math.max(0, b)).map((r) => analysis.rows[r]!.exampleId);
    want(ids(first, last + 1), [...ids(last + 1, last + 1 + span), ...ids(first - span, first)]);
  }, [want, first, last, order, analysis, version]);

  useEffect(() => {
    if (scrollRequest > 0 && selection.row < order.length) virtualizer.scrollToIndex(selection.row, { align: 'auto' });
    // Only when asked (a key), not when a click selects a row in view.
  }, [scrollRequest]);

  const setRef = (el: HTMLDivElement | null) => {
    scroller.current = el;
    gridRef.current = el;
  };
  const toggle = useCallback(
    (r: number) =>
      setExpanded((prev) => {
        const next = new Set(prev);
        if (next.has(r)) next.delete(r);
        else next.add(r);
        return next;
      }),
    [],
  );
  // A row put back to its own height forgets the height it was measured at.
  const shownExpanded = useRef(expanded);
  useLayoutEffect(() => {
    if (shownExpanded.current === expanded) return;
    if ([...shownExpanded.current].some((r) => !expanded.has(r))) virtualizer.measure();
    shownExpanded.current = expanded;
  }, [expanded, virtualizer]);
  const activeRow = order[selection.row];
  const activeShown = activeRow !== undefined && items.some((v) => v.index === selection.row);

  return (
    <div
      ref={setRef}
      className={`cmp-grid cmp-exps-${experiments.length}`}
      role="grid"
      tabIndex={0}
      aria-label="Examples and experiments"
      aria-rowcount={order.length + 1}
      aria-colcount={experiments.length + 3}
      aria-busy={contents.loading}
      aria-describedby="cmp-keys-hint"
      aria-activedescendant={activeShown ? `cmp-cell-${selection.row}-${selection.experiment}` : undefined}
      onKeyDown={props.onKeyDown}
      data-testid="grid"
    >
      <div ref={head} className="cmp-head" role="row" aria-rowindex={1}>
        <div role="columnheader" className="cmp-c-num">
          #
        </div>
        <div role="columnheader" className="cmp-c-text">
          Inputs
        </div>
        <div role="columnheader" className="cmp-c-text">
          Reference output
        </div>
        {experiments.map((x, e) => {
          const isBase = e === analysis.baseline;
          const counts = analysis.counts[e]!;
          return (
            <div role="columnheader" key={e} className={`cmp-c-exp${isBase ? ' cmp-base-col' : ''}`} data-testid="column-head">
              <span className="cmp-name" dir="auto" title={x.name}>
                {x.name}
              </span>
              {isBase ? (
                <span className="lsw-muted">Baseline</span>
              ) : (
                <span className="cmp-counts">
                  <CountButton kind="regressions" n={counts.regressions} onClick={() => onFilter({ kind: 'regressions', experimentId: x.id, key: null })} testId="column-regressions" />
                  <CountButton kind="improvements" n={counts.improvements} onClick={() => onFilter({ kind: 'improvements', experimentId: x.id, key: null })} testId="column-improvements" />
                </span>
              )}
            </div>
          );
        })}
      </div>
      {/* Virtualisation's positions are the only inline styles: the rows' full height and each row's offset. */}
      <div className="cmp-body" role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const r = order[item.index]!;
          const row = analysis.rows[r]!;
          return (
            // Rows are as tall as the stylesheet makes them (ESTIMATED_ROW): only an expanded one is measured.
            <div key={item.key} data-index={item.index} ref={expanded.has(r) ? virtualizer.measureElement : undefined} className="cmp-slot" style={{ transform: `translateY(${item.start - headHeight}px)` }}>
              <RowView
                row={row}
                r={r}
                position={item.index}
                content={contents.get(row.exampleId)}
                experiments={experiments}
                keys={keys}
                analysis={analysis}
                selected={item.index === selection.row ? selection.experiment : -1}
                expanded={expanded.has(r)}
                onToggle={toggle}
                onSelect={onSelect}
                onAct={onAct}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}

interface RowProps {
  row: IndexRow;
  /** Its place in the index (the dataset's order) and in the grid. */
  r: number;
  position: number;
  content: RowContent | null | undefined;
  experiments: readonly Experiment[];
  keys: readonly FeedbackKey[];
  analysis: Analysis;
  /** The selected experiment's column when this row is selected, else -1. */
  selected: number;
  expanded: boolean;
  onToggle(r: number): void;
  onSelect(selection: Selection): void;
  onAct(action: CellAction, row: number, experiment: number): void;
}

const RowView = memo(function RowView({ row, r, position, content, experiments, keys, analysis, selected, expanded, onToggle, onSelect, onAct }: RowProps) {
  const loading = content === undefined;
  const gone = content === null;
  const select = (experiment: number) => onSelect({ row: position, experiment });
  const act = (action: CellAction, e: number) => (ev: { stopPropagation(): void }) => {
    ev.stopPropagation();
    select(e);
    onAct(action, position, e);
  };
  return (
    <div
      role="row"
      aria-rowindex={position + 2}
      aria-selected={selected >= 0}
      className={`cmp-row${selected >= 0 ? ' cmp-selected' : ''}${expanded ? ' cmp-expanded' : ''}`}
      data-testid="row"
      data-example={row.exampleId}
      data-row={r}
      onClick={() => select(selected >= 0 ? selected : firstOther(analysis))}
      onDoubleClick={() => onAct('diff', position, selected >= 0 ? selected : firstOther(analysis))}
    >
      <div role="rowheader" className="cmp-c-num">
        <span className="cmp-pos">{(r + 1).toLocaleString('en-US')}</span>
        <TextButton tabIndex={-1} onClick={act('openExample', selected >= 0 ? selected : 0)} title="Open the example (o)" data-testid="open-example">
          Example
        </TextButton>
        <TextButton tabIndex={-1} onClick={(e) => (e.stopPropagation(), onToggle(r))} aria-expanded={expanded} data-testid="expand">
          {expanded ? 'Less' : 'More'}
        </TextButton>
      </div>
      <div role="gridcell" className="cmp-c-text">
        <Text value={loading ? undefined : gone ? null : content.inputs} testId="inputs" />
      </div>
      <div role="gridcell" className="cmp-c-text">
        <Text value={loading ? undefined : gone ? null : content.reference ?? ''} testId="reference" empty="No reference output" />
      </div>
      {experiments.map((x, e) => {
        const cell = own(row.cells, x.id) ?? null;
        const detail = content ? own(content.cells, x.id) ?? null : undefined;
        return (
          <div
            role="gridcell"
            key={e}
            id={`cmp-cell-${position}-${e}`}
            aria-selected={selected === e}
            className={`cmp-c-exp${e === analysis.baseline ? ' cmp-base-col' : ''}${selected === e ? ' cmp-cell-selected' : ''}`}
            data-testid="cell"
            data-experiment={e}
            onClick={(ev) => (ev.stopPropagation(), select(e))}
            onDoubleClick={(ev) => (ev.stopPropagation(), onAct('diff', position, e))}
          >
            {cell === null ? (
              <span className="lsw-muted">No run</span>
            ) : (
              <Cell
                cell={cell}
                detail={detail}
                keys={keys}
                marks={keys.map((_, k) => markAt(analysis, r, e, k))}
                expanded={expanded}
                isBase={e === analysis.baseline}
                onDiff={act('diff', e)}
                onTrace={act('openTrace', e)}
              />
            )}
          </div>
        );
      })}
    </div>
  );
});

function firstOther(a: Analysis): number {
  return a.baseline === 0 && a.experimentIds.length > 1 ? 1 : 0;
}

function Cell({
  cell,
  detail,
  keys,
  marks,
  expanded,
  isBase,
  onDiff,
  onTrace,
}: {
  cell: IndexCell;
  detail: RowContent['cells'][string] | undefined;
  keys: readonly FeedbackKey[];
  marks: (ReturnType<typeof markAt>)[];
  expanded: boolean;
  isBase: boolean;
  onDiff(e: { stopPropagation(): void }): void;
  onTrace(e: { stopPropagation(): void }): void;
}) {
  const scored = keys.map((k, i) => ({ k, i, score: own(cell.scores, k.key) })).filter((s) => s.score !== undefined);
  const shown = expanded ? scored : scored.slice(0, SCORES_SHOWN);
  const hidden = scored.length - shown.length;
  return (
    <>
      {detail === undefined ? (
        <Text value={undefined} testId="output" />
      ) : detail === null ? (
        <span className="lsw-muted">No output read</span>
      ) : (
        <Text value={detail.output} truncated={detail.truncated} testId="output" empty="(empty output)" />
      )}
      {(cell.error || detail?.error) && (
        <div className="cmp-error" data-testid="cell-error" title={detail?.error ?? 'This run errored.'}>
          <span aria-hidden="true">⚠ </span>
          {detail?.error ?? 'Errored'}
        </div>
      )}
      <ul className="cmp-scores" aria-label="Scores">
        {shown.map(({ k, i, score }) => {
          const mark = marks[i] ?? null;
          const fb = detail ? own(detail.feedback, k.key) : undefined;
          const tip = [fb?.value ? `Value: ${fb.value}` : '', fb?.comment ? `Comment: ${fb.comment}` : ''].filter(Boolean).join('\n');
          return (
            <li key={i} className={mark ? `cmp-score cmp-${mark}` : 'cmp-score'} data-testid="score" data-key={k.key} data-mark={mark ?? (isBase ? 'baseline' : 'none')} title={tip || undefined}>
              <span className="cmp-score-key" dir="auto">
                {k.key}
              </span>{' '}
              <span className="cmp-score-value">{formatScore(score)}</span>
              {mark && (
                <span className="cmp-mark">
                  {' '}
                  <span aria-hidden="true">{MARK_GLYPH[mark]}</span> {MARK_TEXT[mark]}
                </span>
              )}
            </li>
          );
        })}
        {hidden > 0 && <li className="lsw-muted">+{hidden} more</li>}
      </ul>
      <div className="cmp-cell-foot">
        {detail && (detail.latencyMs !== null || detail.totalTokens !== null) && (
          <span className="lsw-muted">
            {detail.latencyMs !== null ? `${(detail.latencyMs / 1000).toFixed(2)} s` : ''}
            {detail.latencyMs !== null && detail.totalTokens !== null ? ' · ' : ''}
            {detail.totalTokens !== null ? `${detail.totalTokens.toLocaleString('en-US')} tokens` : ''}
          </span>
        )}
        <span className="cmp-cell-actions">
          {!isBase && (
            <TextButton tabIndex={-1} onClick={onDiff} title="Diff this output against the baseline's (Enter)" data-testid="diff">
              Diff
            </TextButton>
          )}
          <TextButton tabIndex={-1} onClick={onTrace} title="Open this run's trace (t)" data-testid="trace">
            Trace
          </TextButton>
        </span>
      </div>
    </>
  );
}

/** Server text as text, clamped by the stylesheet, in full in the tooltip (and when the row is expanded). */
function Text({ value, truncated, testId, empty }: { value: string | null | undefined; truncated?: boolean; testId: string; empty?: string }) {
  if (value === undefined)
    return (
      <div className="cmp-text cmp-placeholder" data-testid={`${testId}-pending`} aria-label="Loading">
        <span className="cmp-bar" />
        <span className="cmp-bar cmp-bar-short" />
      </div>
    );
  if (value === null) return <div className="cmp-text lsw-muted">Not found</div>;
  if (value === '') return <div className="cmp-text lsw-muted">{empty ?? '(empty)'}</div>;
  return (
    <div className="cmp-text" dir="auto" title={truncated ? `${value}…\n(shortened: the diff and the export have it whole)` : value} data-testid={testId}>
      {value}
      {truncated && <span className="lsw-muted">…</span>}
    </div>
  );
}
