// The run tree: the visible runs, in memory, in the shared virtualised list (only the rows in view are in the
// DOM), each with its indentation and twisty, type icon, name, status, duration, tokens and its bar in the
// trace's waterfall.
import { forwardRef, memo, useCallback, useEffect, useImperativeHandle, useRef, type KeyboardEvent } from 'react';
import type { RunRow } from '../../../../src/protocol/trace';
import { duration, formatDuration, formatTokens, RUN_TYPE_GLYPH, RUN_TYPE_LABEL } from '../../common/run/format';
import { useMemoryRows } from '../../common/list/rowSource';
import { VirtualList, type VirtualListHandle } from '../../common/list/VirtualList';
import { barGeometry, type TraceTree } from '../../common/run/tree';

export const ROW_HEIGHT = 24;
const INDENT_PX = 12;
/** Deeper than this, rows stop moving right (a 5,000-deep chain still fits), and say their depth. */
const MAX_INDENT = 24;

export interface TreePaneProps {
  tree: TraceTree;
  visible: number[];
  selectedId: string | undefined;
  collapsed: ReadonlySet<string>;
  marked: ReadonlySet<string>;
  span: { start: number; end: number } | undefined;
  now: number;
  onSelect(id: string): void;
  onToggle(id: string): void;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
}

const never = () => false;

export interface TreePaneHandle {
  focus(): void;
}

export const TreePane = forwardRef<TreePaneHandle, TreePaneProps>(function TreePane(props, ref) {
  const { tree, visible, selectedId, onSelect, onToggle } = props;
  const list = useRef<VirtualListHandle>(null);
  useImperativeHandle(ref, () => ({ focus: () => list.current?.focus() }), []);
  const source = useMemoryRows(visible);
  const selectedIndex = selectedId === undefined ? -1 : tree.index.get(selectedId);
  const at = selectedIndex === undefined || selectedIndex < 0 ? -1 : visible.indexOf(selectedIndex);
  useEffect(() => {
    if (at >= 0) list.current?.scrollTo(at);
  }, [at]);
  const onRowSelect = useCallback(
    (id: string) => {
      onSelect(id);
      list.current?.focus();
    },
    [onSelect],
  );
  const rowKey = useCallback((index: number) => tree.runs[visible[index]!]!.id, [tree, visible]);
  return (
    <VirtualList
      source={source}
      role="tree"
      handle={list}
      estimatedRow={ROW_HEIGHT}
      overscan={8}
      active={at}
      rowKey={rowKey}
      // Every row is ROW_HEIGHT tall: none is measured.
      measured={never}
      onKeyDown={props.onKeyDown}
      renderRow={(i, { id }) => {
        const run = tree.runs[i]!;
        return (
          <TreeRow
            run={run}
            domId={id}
            depth={tree.depth[i]!}
            hasChildren={tree.children[i]!.length > 0}
            orphan={tree.orphan[i]!}
            expanded={!props.collapsed.has(run.id)}
            selected={run.id === selectedId}
            marked={props.marked.has(run.id)}
            span={props.span}
            now={props.now}
            onSelect={onRowSelect}
            onToggle={onToggle}
          />
        );
      }}
      idPrefix="tv-run-"
      className="tv-tree"
      innerClassName="tv-tree-inner"
      slotClassName="tv-tree-slot"
      aria-label="Runs of the trace"
      data-testid="tree"
    />
  );
});

interface TreeRowProps {
  run: RunRow;
  domId: string;
  depth: number;
  hasChildren: boolean;
  orphan: boolean;
  expanded: boolean;
  selected: boolean;
  marked: boolean;
  span: { start: number; end: number } | undefined;
  now: number;
  onSelect(id: string): void;
  onToggle(id: string): void;
}

const TreeRow = memo(function TreeRow(p: TreeRowProps) {
  const { run } = p;
  const type = run.runType.toLowerCase();
  const known = Object.hasOwn(RUN_TYPE_GLYPH, type);
  const ms = duration(run.start, run.end ?? (run.status === 'pending' ? p.now : null));
  const bar = p.span ? barGeometry(run, p.span, p.span.end) : undefined;
  const tokens = formatTokens(run.tokens);
  const classes = ['tv-row'];
  if (p.selected) classes.push('tv-row-selected');
  if (p.marked) classes.push('tv-row-marked');
  if (run.status === 'error') classes.push('tv-row-error');
  if (run.status === 'pending') classes.push('tv-row-pending');
  return (
    <div
      id={p.domId}
      className={classes.join(' ')}
      role="treeitem"
      aria-level={p.depth + 1}
      aria-selected={p.selected}
      aria-expanded={p.hasChildren ? p.expanded : undefined}
      data-run-id={run.id}
      data-testid="run-row"
      title={run.errorPreview ?? undefined}
      onClick={() => p.onSelect(run.id)}
    >
      {/* Indentation is geometry computed from the depth, like the waterfall bar. */}
      <span className="tv-indent" style={{ width: Math.min(p.depth, MAX_INDENT) * INDENT_PX }} />
      {p.hasChildren ? (
        <button
          type="button"
          tabIndex={-1}
          className="tv-twisty"
          aria-label={p.expanded ? 'Collapse' : 'Expand'}
          onClick={(e) => {
            e.stopPropagation();
            p.onToggle(run.id);
          }}
        >
          {p.expanded ? '▾' : '▸'}
        </button>
      ) : (
        <span className="tv-twisty" aria-hidden="true" />
      )}
      <span className={`tv-type tv-type-${known ? type : 'other'}`} title={RUN_TYPE_LABEL[type] ?? run.runType} aria-label={RUN_TYPE_LABEL[type] ?? run.runType}>
        {known ? RUN_TYPE_GLYPH[type] : (run.runType.slice(0, 2) || '?')}
      </span>
      {p.depth > MAX_INDENT && <span className="tv-depth">{p.depth}</span>}
      <span className="tv-name" data-testid="run-name">
        {run.name || '(no name)'}
      </span>
      {p.orphan && (
        <span className="tv-orphan" data-testid="orphan" title="Its parent run is not in the trace">
          parent missing
        </span>
      )}
      {run.status === 'error' && (
        <span className="tv-status tv-status-error" aria-label="Error" data-testid="error-mark">
          ✕
        </span>
      )}
      {run.status === 'pending' && (
        <span className="tv-status tv-status-pending" aria-label="Running">
          ◌
        </span>
      )}
      <span className="tv-duration">{formatDuration(ms)}</span>
      <span className="tv-tokens" title={!run.tokens.total ? undefined : `${run.tokens.prompt ?? '–'} prompt / ${run.tokens.completion ?? '–'} completion`}>
        {tokens}
      </span>
      <span className="tv-timeline" aria-hidden="true">
        {bar && (
          // The waterfall bar's geometry is computed: its only inline style.
          <span className={`tv-bar tv-bar-${run.status}`} data-testid="bar" style={{ left: `${bar.left}%`, width: `${bar.width}%` }} />
        )}
      </span>
    </div>
  );
});
