// The runs page: the project's header (which runs, Monitor, LangSmith), the query bar, the actions on the
// selected runs, a quiet bar when new runs arrived, and the table. A new query is read before the table changes:
// when the server refuses it, its message shows at the filter and the table keeps its last good rows.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  ActOnRuns,
  CountNewer,
  MAX_SELECTED,
  OpenMonitor,
  NEW_RUNS_EVERY_MS,
  QueryRuns,
  RunsChanged,
  SaveFilters,
  SaveLayout,
  ShowQuery,
  type Layout,
  type RunAction,
  type RunsQuery,
  type RunsRow,
  type RunsState,
  type SavedFilter,
} from '../../../../src/protocol/runs';
import { useAppState, useNotification, useRequest } from '../../common/app';
import { Banner, TextButton } from '../../common/components';
import { useCursorRows, type CursorPage } from '../../common/hooks/useCursorRows';
import { useStoredState } from '../../common/hooks/useStoredState';
import type { Result } from '../../common/rpc';
import { columnOf, FIXED_IDS, type Column } from './columns';
import { FilterBar } from './FilterBar';
import { RunsTable, type LocalSort, type RunsTableHandle } from './RunsTable';

type Ready = Extract<RunsState, { kind: 'ready' }>;


const SCOPES: { scope: RunsQuery['scope']; label: string }[] = [
  { scope: 'root', label: 'Root runs' },
  { scope: 'all', label: 'All runs' },
  { scope: 'llm', label: 'LLM calls' },
];

/** One shown query: a generation (a new list), and its first page when it was read before the switch. */
interface Shown {
  query: RunsQuery;
  generation: number;
  first?: CursorPage<RunsRow>;
}

export function RunsPage({ state }: { state: Ready }) {
  const [, setState] = useAppState<RunsState>();
  const [query, setQuery] = useStoredState<RunsQuery>('query', state.query);
  // The first screen paints from the ready answer when it holds the stored query's first page.
  const [shown, setShown] = useState<Shown>(() => ({ query, generation: 0, ...(state.first && JSON.stringify(query) === JSON.stringify(state.query) ? { first: state.first } : {}) }));
  const [refused, setRefused] = useState<string>();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [localSort, setLocalSort] = useState<LocalSort>();
  const [layout, setLayout] = useState<Layout>(state.layout);
  const [actionError, setActionError] = useState<string>();
  const [picker, setPicker] = useState(false);
  const probe = useRequest(QueryRuns);
  const act = useRequest(ActOnRuns);
  const saveLayout = useRequest(SaveLayout);
  const saveFilters = useRequest(SaveFilters);
  const table = useRef<RunsTableHandle>(null);
  const rowsById = useRef(new Map<string, RunsRow>());

  /** Shows a query: its first page is read first, so a refused filter leaves the table as it was. */
  const apply = useCallback(
    async (next: RunsQuery) => {
      setQuery(next);
      setLocalSort(undefined);
      const result = await probe.run({ query: next, cursor: null });
      if (!result.ok) {
        if (result.error.code !== 'cancelled') setRefused(result.error.message);
        return;
      }
      setRefused(undefined);
      setSelected(new Set());
      setShown((s) => ({ query: next, generation: s.generation + 1, first: { rows: result.value.rows, cursor: result.value.cursor } }));
    },
    [probe, setQuery],
  );
  useNotification(ShowQuery, (q) => void apply(q));
  useNotification(RunsChanged, () => void apply(shown.query));

  const list = useRequest(QueryRuns);
  const { run } = list;
  const firstUsed = useRef<number>();
  const page = useCallback(
    async (cursor: string | null): Promise<Result<CursorPage<RunsRow>>> => {
      if (cursor === null && shown.first && firstUsed.current !== shown.generation) {
        firstUsed.current = shown.generation;
        return { ok: true, value: shown.first };
      }
      const r = await run({ query: shown.query, cursor });
      return r.ok ? { ok: true, value: { rows: r.value.rows, cursor: r.value.cursor } } : r;
    },
    [run, shown],
  );
  // A new generation is a new list (the key below remounts the source).
  return (
    <main className="rn-page">
      <Header state={state} query={query} onScope={(scope) => void apply({ ...query, scope })} />
      <FilterBar
        query={query}
        refused={refused}
        seen={state.seen}
        saved={state.saved}
        now={Date.now}
        onApply={(q) => void apply(q)}
        onSave={(saved: SavedFilter[]) => {
          setState((s) => (s.kind === 'ready' ? { ...s, saved } : s));
          void saveFilters.run({ saved });
        }}
      />
      <Table
        key={shown.generation}
        shown={shown}
        page={page}
        pending={list.pending}
        layout={layout}
        seen={state.seen}
        picker={picker}
        setPicker={setPicker}
        onLayout={(next, done) => {
          setLayout(next);
          if (done) void saveLayout.run(next);
        }}
        selected={selected}
        setSelected={setSelected}
        localSort={localSort}
        setLocalSort={setLocalSort}
        tableRef={table}
        rowsById={rowsById.current}
        onOrder={(order) => void apply({ ...query, order })}
        onClear={() => void apply({ ...query, filter: '', traceFilter: '', treeFilter: '', startTime: null, endTime: null })}
        onAct={async (action, ids) => {
          setActionError(undefined);
          const runs = ids
            .map((id) => rowsById.current.get(id))
            .filter((r): r is RunsRow => !!r)
            .slice(0, MAX_SELECTED)
            .map((r) => ({ id: r.id, traceId: r.traceId, start: r.start }));
          if (!runs.length) return;
          const r = await act.run({ action, runs });
          if (!r.ok && r.error.code !== 'cancelled') setActionError(r.error.message);
        }}
        onReload={() => void apply(shown.query)}
        actionError={actionError}
      />
    </main>
  );
}

function Header({ state, query, onScope }: { state: Ready; query: RunsQuery; onScope(scope: RunsQuery['scope']): void }) {
  const monitor = useRequest(OpenMonitor);
  return (
    <header className="rn-header">
      <h1 className="rn-title" dir="auto" title={state.project.name}>
        {state.project.name}
      </h1>
      <div className="rn-scopes" role="radiogroup" aria-label="Which runs">
        {SCOPES.map((s) => (
          <button key={s.scope} type="button" role="radio" aria-checked={query.scope === s.scope} className="rn-scope" onClick={() => onScope(s.scope)} data-testid={`scope-${s.scope}`}>
            {s.label}
          </button>
        ))}
      </div>
      <span className="rn-spacer" />
      <TextButton onClick={() => void monitor.run({})} title="Charts of the project over time" data-testid="open-monitor">
        Monitor
      </TextButton>
    </header>
  );
}

interface TableProps {
  shown: Shown;
  page(cursor: string | null): Promise<Result<CursorPage<RunsRow>>>;
  pending: boolean;
  layout: Layout;
  seen: Ready['seen'];
  picker: boolean;
  setPicker(open: boolean): void;
  onLayout(layout: Layout, done: boolean): void;
  selected: Set<string>;
  setSelected(ids: Set<string>): void;
  localSort: LocalSort | undefined;
  setLocalSort(sort: LocalSort | undefined): void;
  tableRef: React.RefObject<RunsTableHandle>;
  rowsById: Map<string, RunsRow>;
  onOrder(order: 'asc' | 'desc'): void;
  onClear(): void;
  onAct(action: RunAction, ids: string[]): Promise<void>;
  onReload(): void;
  actionError: string | undefined;
}

function Table(props: TableProps) {
  const { shown, layout, selected, rowsById } = props;
  const source = useCursorRows<RunsRow>({ run: props.page, pending: props.pending });
  // Rows by id, for acting on a selection (only loaded rows can be selected).
  for (let i = rowsById.size ? 0 : 0; i < source.loaded; i++) {
    const r = source.row(i);
    if (r) rowsById.set(r.id, r);
  }
  const feedbackKeys = useMemo(() => {
    const keys = new Set(props.seen.feedbackKeys);
    for (let i = 0; i < Math.min(source.loaded, 500); i++) for (const k of Object.keys(source.row(i)?.feedback ?? {})) keys.add(k);
    return [...keys];
  }, [props.seen.feedbackKeys, source.version]);
  const metadataKeys = useMemo(() => {
    const keys = new Set(props.seen.metadataKeys);
    for (let i = 0; i < Math.min(source.loaded, 200); i++) for (const k of Object.keys(source.row(i)?.metadata ?? {})) keys.add(k);
    return [...keys];
  }, [props.seen.metadataKeys, source.version]);
  // Feedback keys present in the rows show as columns unless the user chose the columns.
  const chosen = layout.columns;
  const columns: Column[] = chosen.map(columnOf).filter((c): c is Column => !!c);
  for (const k of feedbackKeys) if (!chosen.includes(`feedback:${k}`) && !chosen.includes(`-feedback:${k}`)) columns.push(columnOf(`feedback:${k}`)!);

  const newest = source.loaded ? (source.row(0)?.start ?? null) : null;
  const newer = useNewRuns(shown.query, newest);
  const ids = [...selected];
  const filtered = shown.query.filter || shown.query.traceFilter || shown.query.treeFilter || shown.query.startTime !== null || shown.query.endTime !== null;

  return (
    <>
      <div className="rn-toolbar" role="toolbar" aria-label="Runs">
        {ids.length > 0 ? (
          <>
            <span className="rn-count" data-testid="selected-count">
              {ids.length} selected
            </span>
            <TextButton onClick={() => void props.onAct('addToQueue', ids)} data-testid="action-queue">
              Add to Annotation Queue…
            </TextButton>
            <TextButton onClick={() => void props.onAct('addToDataset', ids)} data-testid="action-dataset">
              Add to Dataset…
            </TextButton>
            {ids.length === 1 && (
              <>
                <TextButton onClick={() => void props.onAct('addFeedback', ids)}>Add Feedback…</TextButton>
                <TextButton onClick={() => void props.onAct('pinTrace', ids)} data-testid="action-trace">
                  Open Trace
                </TextButton>
                <TextButton onClick={() => void props.onAct('openJson', ids)}>Open JSON</TextButton>
              </>
            )}
            {ids.length === 2 && (
              <TextButton onClick={() => void props.onAct('compare', ids)} data-testid="action-compare">
                Compare
              </TextButton>
            )}
            <TextButton onClick={() => void props.onAct('copyIds', ids)} data-testid="action-copy">
              Copy IDs
            </TextButton>
            <TextButton onClick={() => void props.onAct('openInLangSmith', ids.slice(0, 1))}>Open in LangSmith</TextButton>
            <TextButton onClick={() => props.setSelected(new Set())}>Clear selection</TextButton>
          </>
        ) : (
          <span className="rn-muted" data-testid="loaded-count">
            {source.loaded.toLocaleString('en-US')}
            {source.more ? '+' : ''} runs{props.localSort ? ` — sorted among the ${source.loaded.toLocaleString('en-US')} loaded (LangSmith sorts runs by start time)` : ''}
          </span>
        )}
        <span className="rn-spacer" />
        <TextButton onClick={() => props.setPicker(!props.picker)} aria-expanded={props.picker} data-testid="columns-button">
          Columns…
        </TextButton>
      </div>
      {props.picker && (
        <ColumnPicker
          layout={layout}
          feedbackKeys={feedbackKeys}
          metadataKeys={metadataKeys}
          onChange={(columns) => props.onLayout({ ...layout, columns }, true)}
          onClose={() => props.setPicker(false)}
        />
      )}
      {props.actionError && <Banner tone="error">{props.actionError}</Banner>}
      {newer.count > 0 && (
        <div className="rn-new" role="status" data-testid="new-runs">
          {newer.more ? `${newer.count}+` : newer.count} new {newer.count === 1 ? 'run' : 'runs'} <TextButton onClick={props.onReload}>Show</TextButton>
        </div>
      )}
      <RunsTable
        ref={props.tableRef}
        source={source}
        columns={columns}
        widths={layout.widths}
        order={shown.query.order}
        localSort={props.localSort}
        selected={selected}
        onSelect={props.setSelected}
        onOrder={props.onOrder}
        onLocalSort={props.setLocalSort}
        onResize={(column, width, done) => props.onLayout({ ...layout, widths: { ...layout.widths, [column]: width } }, done)}
        onOpen={(row, pin) => void props.onAct(pin ? 'pinTrace' : 'openTrace', [row.id])}
        empty={
          <div className="rn-empty" data-testid="runs-empty">
            {filtered ? (
              <>
                <p>
                  No runs match {describe(shown.query)}.
                </p>
                <TextButton onClick={props.onClear} data-testid="empty-clear">
                  Clear the filters
                </TextButton>
              </>
            ) : (
              <p>No runs in this project yet.</p>
            )}
          </div>
        }
      />
      {source.error !== undefined && (
        <p className="rn-field-error" role="alert" data-testid="page-error">
          {source.error} <TextButton onClick={source.retry}>Retry</TextButton>
        </p>
      )}
    </>
  );
}

/** The parts of a query that narrow it, as a sentence's end. */
function describe(q: RunsQuery): string {
  const parts: string[] = [];
  if (q.filter) parts.push(`the filter ${q.filter}`);
  if (q.traceFilter) parts.push(`the trace filter ${q.traceFilter}`);
  if (q.treeFilter) parts.push(`the tree filter ${q.treeFilter}`);
  if (q.startTime !== null || q.endTime !== null) parts.push('the time window');
  return parts.join(', ');
}

/** Whether runs of the query started after the newest row (asked while the page is visible, newest first only). */
function useNewRuns(query: RunsQuery, newest: number | null): { count: number; more: boolean } {
  const count = useRequest(CountNewer);
  const { run } = count;
  const [newer, setNewer] = useState({ count: 0, more: false });
  useEffect(() => {
    if (newest === null || query.order !== 'desc' || query.endTime !== null) return;
    const tick = async () => {
      if (document.visibilityState !== 'visible') return;
      const r = await run({ query, since: newest });
      if (r.ok) setNewer(r.value);
    };
    const timer = setInterval(() => void tick(), NEW_RUNS_EVERY_MS);
    return () => clearInterval(timer);
  }, [query, newest, run]);
  return newer;
}

function ColumnPicker({ layout, feedbackKeys, metadataKeys, onChange, onClose }: { layout: Layout; feedbackKeys: string[]; metadataKeys: string[]; onChange(columns: string[]): void; onClose(): void }) {
  const all = [...FIXED_IDS, ...feedbackKeys.map((k) => `feedback:${k}`), ...metadataKeys.map((k) => `metadata:${k}`)];
  const isShown = (id: string) => layout.columns.includes(id) || (id.startsWith('feedback:') && !layout.columns.includes(`-${id}`));
  const toggle = (id: string) => {
    const rest = layout.columns.filter((c) => c !== id && c !== `-${id}`);
    // A feedback column shows by itself; hiding one is remembered as `-feedback:<key>`.
    if (isShown(id)) onChange(id.startsWith('feedback:') ? [...rest, `-${id}`] : rest);
    else onChange([...rest, id]);
  };
  return (
    <div
      className="rn-picker"
      role="group"
      aria-label="Columns"
      data-testid="column-picker"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      {all.map((id) => {
        const c = columnOf(id)!;
        return (
          <label key={id} className="rn-picker-item">
            <input type="checkbox" checked={isShown(id)} onChange={() => toggle(id)} data-testid={`column-${id}`} />
            {id.startsWith('feedback:') ? `Feedback: ${c.label}` : id.startsWith('metadata:') ? `Metadata: ${c.label}` : c.label}
          </label>
        );
      })}
      <TextButton onClick={onClose}>Done</TextButton>
    </div>
  );
}
