// The grid: one row per example (as filtered and sorted), its inputs and reference, then each experiment's output
// and scores, each score marked against the baseline. Virtualised (common/list/VirtualList): only the rows in view
// (and a few around) are in the DOM; their contents are asked for as they scroll in, shown as placeholders until they come. One scroll
// area for both directions (a narrow panel scrolls the columns sideways), its column headers sticky on top.
// The grid is one tab stop: ↑ ↓ move the selected row, ← → the selected experiment (aria-activedescendant).
//
// Cheap to scroll: a row is a memoised component that subscribes to its own contents; its action buttons and
// tooltips are rendered only while it is active (selected, hovered or expanded: the keys reach every action of
// the selected row, the mouse those of the row under it); a score is a line of text and one mark; the rows have
// a fixed height and are contained, so one coming into view lays out on its own.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type MutableRefObject, type ReactElement } from 'react';
import type { Experiment, FeedbackKey, IndexCell, IndexRow, RowContent } from '../../../../src/protocol/compare';
import { TextButton } from '../../common/components';
import type { RowSource } from '../../common/list/rowSource';
import { VirtualList, type VirtualListHandle } from '../../common/list/VirtualList';
import { formatInt, formatScore, markAt, MARK_TEXT, own, type Analysis, type Filter } from './model';
import { CountButton } from './Summary';
import { useRowContent, useRowsStatus, type RowContents } from './useRowContents';

/** A row's height before it is measured (what the stylesheet gives a row that is not expanded). */
const ESTIMATED_ROW = 140;
const OVERSCAN = 2;
/** Scores listed in a cell before "+N more" (the row's More shows them all). */
const SCORES_SHOWN = 3;
/**
 * Text beyond this is not put in the DOM of a row that is not active or expanded: the stylesheet shows a few lines
 * of it, and laying out the rest (up to CELL_TEXT_LIMIT) would cost every row that scrolls in.
 */
const TEXT_SHOWN = 1000;

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
  const list = useRef<VirtualListHandle>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  /** The row under the mouse (its place in the index), -1 for none. */
  const [hovered, setHovered] = useState(-1);
  const status = useRowsStatus(contents);

  // The rows in view, and a screen before and after them, are asked for (the store asks again for what is still
  // missing when a request lands). A row is its place in the index.
  const { want } = contents;
  const source = useMemo<RowSource<number>>(
    () => ({
      count: order.length,
      row: (i) => order[i],
      ensure: (first, last) => {
        if (last < first) return;
        const span = last - first + 1;
        const ids = (a: number, b: number) => order.slice(Math.max(0, a), Math.max(0, b)).map((r) => analysis.rows[r]!.exampleId);
        want(ids(first, last + 1), [...ids(last + 1, last + 1 + span), ...ids(first - span, first)]);
      },
      loading: status.loading,
      error: undefined,
      retry: () => undefined,
      version: 0,
    }),
    [order, analysis, want, status.loading],
  );

  useEffect(() => {
    if (scrollRequest > 0 && selection.row < order.length) list.current?.scrollTo(selection.row);
    // Only when asked (a key), not when a click selects a row in view.
  }, [scrollRequest]);

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
  // One listener for the rows: the row under the mouse (read from the DOM's data, no layout).
  const onMouseOver = useCallback((e: MouseEvent<HTMLDivElement>) => {
    const row = (e.target as Element).closest?.('[data-row]');
    setHovered(row instanceof HTMLElement ? Number(row.dataset['row']) : -1);
  }, []);
  const onMouseLeave = useCallback(() => setHovered(-1), []);
  // A row put back to its own height forgets the height it was measured at.
  const shownExpanded = useRef(expanded);
  useLayoutEffect(() => {
    if (shownExpanded.current === expanded) return;
    if ([...shownExpanded.current].some((r) => !expanded.has(r))) list.current?.measure();
    shownExpanded.current = expanded;
  }, [expanded]);
  const rowKey = useCallback((i: number) => order[i] ?? i, [order]);
  // Rows are as tall as the stylesheet makes them (ESTIMATED_ROW): only an expanded one is measured.
  const measured = useCallback((i: number) => expanded.has(order[i]!), [expanded, order]);

  return (
    <VirtualList
      source={source}
      role="grid"
      handle={list}
      listRef={gridRef}
      estimatedRow={ESTIMATED_ROW}
      overscan={OVERSCAN}
      rowKey={rowKey}
      measured={measured}
      active={selection.row}
      activeDescendant={(i) => `cmp-cell-${i}-${selection.experiment}`}
      onKeyDown={props.onKeyDown}
      renderHead={(ref) => <GridHead headRef={ref} experiments={experiments} analysis={analysis} onFilter={onFilter} />}
      renderRow={(r, { index }) => {
        const isExpanded = expanded.has(r);
        const selected = index === selection.row ? selection.experiment : -1;
        return (
          <RowView
            row={analysis.rows[r]!}
            r={r}
            position={index}
            contents={contents}
            experiments={experiments}
            keys={keys}
            analysis={analysis}
            selected={selected}
            active={selected >= 0 || isExpanded || r === hovered}
            expanded={isExpanded}
            onToggle={toggle}
            onSelect={onSelect}
            onAct={onAct}
          />
        );
      }}
      idPrefix="cmp-row-"
      className={`cmp-grid cmp-exps-${experiments.length}`}
      innerClassName="cmp-body"
      slotClassName="cmp-slot"
      attributes={{ 'aria-rowcount': order.length + 1, 'aria-colcount': experiments.length + 3 }}
      innerAttributes={{ role: 'rowgroup', onMouseOver, onMouseLeave }}
      aria-label="Examples and experiments"
      aria-describedby="cmp-keys-hint"
      data-testid="grid"
    />
  );
}

/** The column headers: each experiment's name, and its regressions and improvements (each a filter). */
const GridHead = memo(function GridHead({
  headRef,
  experiments,
  analysis,
  onFilter,
}: {
  headRef: (el: HTMLElement | null) => void;
  experiments: readonly Experiment[];
  analysis: Analysis;
  onFilter(filter: Filter): void;
}) {
  return (
    <div ref={headRef} className="cmp-head" role="row" aria-rowindex={1}>
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
  );
});

interface RowProps {
  row: IndexRow;
  /** Its place in the index (the dataset's order) and in the grid. */
  r: number;
  position: number;
  contents: RowContents;
  experiments: readonly Experiment[];
  keys: readonly FeedbackKey[];
  analysis: Analysis;
  /** The selected experiment's column when this row is selected, else -1. */
  selected: number;
  /** Selected, hovered or expanded: its buttons and tooltips are shown. */
  active: boolean;
  expanded: boolean;
  onToggle(r: number): void;
  onSelect(selection: Selection): void;
  onAct(action: CellAction, row: number, experiment: number): void;
}

const RowView = memo(function RowView({ row, r, position, contents, experiments, keys, analysis, selected, active, expanded, onToggle, onSelect, onAct }: RowProps) {
  const content = useRowContent(contents, row.exampleId);
  const loading = content === undefined;
  const gone = content === null;
  const full = active || expanded;
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
        <span className="cmp-pos">{formatInt(r + 1)}</span>
        {active && (
          <>
            <TextButton tabIndex={-1} onClick={act('openExample', selected >= 0 ? selected : 0)} title="Open the example (o)" data-testid="open-example">
              Example
            </TextButton>
            <TextButton tabIndex={-1} onClick={(e) => (e.stopPropagation(), onToggle(r))} aria-expanded={expanded} data-testid="expand">
              {expanded ? 'Less' : 'More'}
            </TextButton>
          </>
        )}
      </div>
      <div role="gridcell" className="cmp-c-text">
        <Text value={loading ? undefined : gone ? null : content.inputs} full={full} testId="inputs" />
      </div>
      <div role="gridcell" className="cmp-c-text">
        <Text value={loading ? undefined : gone ? null : content.reference ?? ''} full={full} testId="reference" empty="No reference output" />
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
                analysis={analysis}
                r={r}
                e={e}
                expanded={expanded}
                active={active}
                isBase={e === analysis.baseline}
                onDiff={active ? act('diff', e) : undefined}
                onTrace={active ? act('openTrace', e) : undefined}
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
  analysis,
  r,
  e,
  expanded,
  active,
  isBase,
  onDiff,
  onTrace,
}: {
  cell: IndexCell;
  detail: RowContent['cells'][string] | undefined;
  keys: readonly FeedbackKey[];
  analysis: Analysis;
  r: number;
  e: number;
  expanded: boolean;
  active: boolean;
  isBase: boolean;
  /** The buttons, when the row is active. */
  onDiff: ((e: { stopPropagation(): void }) => void) | undefined;
  onTrace: ((e: { stopPropagation(): void }) => void) | undefined;
}) {
  const scores: ReactElement[] = [];
  let scored = 0;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const score = own(cell.scores, k.key);
    if (score === undefined) continue;
    scored++;
    if (!expanded && scores.length >= SCORES_SHOWN) continue;
    const mark = markAt(analysis, r, e, i);
    let tip: string | undefined;
    if (active) {
      const fb = detail ? own(detail.feedback, k.key) : undefined;
      tip = [fb?.value ? `Value: ${fb.value}` : '', fb?.comment ? `Comment: ${fb.comment}` : ''].filter(Boolean).join('\n') || undefined;
    }
    // The key, the score and the mark in words (its ▲ ▼ = drawn by the stylesheet, not read out).
    scores.push(
      <li key={i} className={mark ? `cmp-score cmp-${mark}` : 'cmp-score'} data-testid="score" data-key={k.key} data-mark={mark ?? (isBase ? 'baseline' : 'none')} title={tip}>
        <span className="cmp-score-key" dir="auto">
          {k.key}
        </span>
        {` ${formatScore(score)}`}
        {mark && <span className="cmp-mark">{` ${MARK_TEXT[mark]}`}</span>}
      </li>,
    );
  }
  const hidden = scored - scores.length;
  const usage = detail ? [detail.latencyMs !== null ? `${(detail.latencyMs / 1000).toFixed(2)} s` : '', detail.totalTokens !== null ? `${formatInt(detail.totalTokens)} tokens` : ''].filter(Boolean).join(' · ') : '';
  return (
    <>
      {detail === undefined ? (
        <Text value={undefined} testId="output" full={false} />
      ) : detail === null ? (
        <span className="lsw-muted">No output read</span>
      ) : (
        <Text value={detail.output} truncated={detail.truncated} full={active || expanded} testId="output" empty="(empty output)" />
      )}
      {(cell.error || detail?.error) && (
        <div className="cmp-error" data-testid="cell-error" title={active ? detail?.error ?? 'This run errored.' : undefined}>
          {detail?.error ?? 'Errored'}
        </div>
      )}
      <ul className="cmp-scores" aria-label="Scores">
        {scores}
        {hidden > 0 && <li className="lsw-muted">+{hidden} more</li>}
      </ul>
      {(usage || onDiff || onTrace) && (
        <div className="cmp-cell-foot">
          {usage && <span className="lsw-muted">{usage}</span>}
          {(onDiff || onTrace) && (
            <span className="cmp-cell-actions">
              {!isBase && onDiff && (
                <TextButton tabIndex={-1} onClick={onDiff} title="Diff this output against the baseline's (Enter)" data-testid="diff">
                  Diff
                </TextButton>
              )}
              {onTrace && (
                <TextButton tabIndex={-1} onClick={onTrace} title="Open this run's trace (t)" data-testid="trace">
                  Trace
                </TextButton>
              )}
            </span>
          )}
        </div>
      )}
    </>
  );
}

/**
 * Server text as text, clamped by the stylesheet; in full in the tooltip and in the DOM when `full` (the row is
 * active or expanded), else cut at TEXT_SHOWN (beyond what the clamp shows).
 */
function Text({ value, truncated, full, testId, empty }: { value: string | null | undefined; truncated?: boolean; full: boolean; testId: string; empty?: string }) {
  // One element: the stylesheet draws the two bars.
  if (value === undefined) return <div className="cmp-text cmp-placeholder" data-testid={`${testId}-pending`} aria-label="Loading" />;
  if (value === null) return <div className="cmp-text lsw-muted">Not found</div>;
  if (value === '') return <div className="cmp-text lsw-muted">{empty ?? '(empty)'}</div>;
  const cut = !full && value.length > TEXT_SHOWN;
  return (
    <div className="cmp-text" dir="auto" title={full ? (truncated ? `${value}…\n(shortened: the diff and the export have it whole)` : value) : undefined} data-testid={testId}>
      {cut ? value.slice(0, TEXT_SHOWN) : value}
      {(truncated || cut) && <span className="lsw-muted">…</span>}
    </div>
  );
}
