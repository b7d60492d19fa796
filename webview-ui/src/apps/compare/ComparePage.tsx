// Two or more experiments of a dataset side by side: the summary, the filters and the sort, the grid, export, and
// the keyboard. The host sends an index of every example's scores; the page marks, counts, filters and sorts it
// itself, and asks for row contents as they scroll in. Baseline, filter, sort and the selected row are kept in
// the webview's state (they survive a reload); the baseline is sent to the host too, for the next time.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { Act, Changed, Export, Reload, SetBaseline, type CompareState } from '../../../../src/protocol/compare';
import { useAppState, useDraft, useNotification, useRequest } from '../../common/app';
import { Banner, TextButton, ToggleButton } from '../../common/components';
import { KeysHelp } from '../../common/components/KeysHelp';
import { isTyping, useKeysHelp, usePageKeys } from '../../common/keys';
import { Grid, type CellAction, type Selection } from './Grid';
import { ALL, analyse, formatInt, own, DATASET_ORDER, reviveFilter, reviveSort, visibleRows, type Filter, type Sort } from './model';
import { Summary } from './Summary';
import { RowFetcher, useRowContents, useRowsStatus, type RowContents } from './useRowContents';

type Comparison = Extract<CompareState, { kind: 'compare' }>;

/** How long a status line stays. */
const STATUS_MS = 8000;

const FILTERS: { kind: Filter['kind']; label: string }[] = [
  { kind: 'all', label: 'All' },
  { kind: 'regressions', label: 'Regressions' },
  { kind: 'improvements', label: 'Improvements' },
  { kind: 'errors', label: 'Errors' },
];

/** The selected row, kept by example (its place changes with the filter and the sort). */
interface Kept {
  exampleId: string | null;
  experiment: number;
}

export function ComparePage({ state }: { state: Comparison }) {
  const [, setState] = useAppState<CompareState>();
  const { experiments, keys, index, dataset } = state;
  const experimentIds = useMemo(() => experiments.map((x) => x.id), [experiments]);

  // ---- what the webview's state keeps
  const [storedBaseline, setStoredBaseline] = useDraft<string | null>('baseline', null);
  const baselineId = storedBaseline !== null && experimentIds.includes(storedBaseline) ? storedBaseline : state.baselineId;
  const [storedFilter, setFilter] = useDraft<Filter>('filter', ALL);
  const [storedSort, setSort] = useDraft<Sort>('sort', DATASET_ORDER);
  const filter = reviveFilter(storedFilter, experimentIds, keys);
  const sort = reviveSort(storedSort, experimentIds, keys);
  const [kept, setKept] = useDraft<Kept>('selected', { exampleId: null, experiment: -1 });

  const analysis = useMemo(() => analyse(index, experimentIds, keys, baselineId), [index, experimentIds, keys, baselineId]);
  const order = useMemo(() => visibleRows(analysis, filter, sort), [analysis, filter.kind, filter.experimentId, filter.key, sort.by, sort.experimentId, sort.key, sort.descending]);
  const contents = useRowContents(state.rows);

  // ---- selection
  const defaultColumn = analysis.baseline === 0 && experiments.length > 1 ? 1 : 0;
  const column = kept.experiment >= 0 && kept.experiment < experiments.length ? kept.experiment : defaultColumn;
  const keptRow = useMemo(() => (kept.exampleId === null ? -1 : order.findIndex((r) => index[r]!.exampleId === kept.exampleId)), [order, index, kept.exampleId]);
  const selection: Selection = { row: keptRow >= 0 ? keptRow : 0, experiment: column };
  const [scrollRequest, setScrollRequest] = useState(() => (keptRow > 0 ? 1 : 0));
  const latest = useRef({ order, index, selection });
  latest.current = { order, index, selection };
  const select = useCallback(
    (s: Selection, scroll = false) => {
      const r = latest.current.order[s.row];
      setKept({ exampleId: r === undefined ? null : latest.current.index[r]!.exampleId, experiment: s.experiment });
      if (scroll) setScrollRequest((n) => n + 1);
    },
    [setKept],
  );
  const onSelect = useCallback((s: Selection) => select(s), [select]);

  // ---- status and errors
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (status === undefined) return undefined;
    const t = setTimeout(() => setStatus(undefined), STATUS_MS);
    return () => clearTimeout(t);
  }, [status]);
  const failed = (result: { ok: false; error: { code: string; message: string } }) => {
    if (result.error.code !== 'cancelled') setError(result.error.message);
  };

  // ---- the host
  const reload = useRequest(Reload);
  const act = useRequest(Act);
  const exporter = useRequest(Export);
  const baselineRequest = useRequest(SetBaseline);
  async function refresh() {
    setError(undefined);
    const result = await reload.run({}, { timeoutMs: 120_000 });
    if (!result.ok) return failed(result);
    setState(() => result.value);
  }
  useNotification(Changed, () => void refresh());

  function chooseBaseline(id: string) {
    if (id === baselineId) return;
    setStoredBaseline(id);
    // A filter or sort about the new baseline's own changes means nothing any more.
    if (filter.experimentId === id) setFilter(ALL);
    if (sort.by === 'change' && sort.experimentId === id) setSort(DATASET_ORDER);
    const name = experiments.find((x) => x.id === id)?.name ?? '';
    setStatus(`Baseline: ${name}.`);
    void baselineRequest.run({ experimentId: id }).then((r) => (r.ok ? undefined : failed(r)));
  }

  const doAct = useCallback(
    async (action: CellAction | 'openExperiment' | 'openDataset', row: number | null, experiment: number | null) => {
      setError(undefined);
      const { order: o, index: ix } = latest.current;
      const r = row === null ? undefined : o[row];
      const indexRow = r === undefined ? undefined : ix[r];
      const x = experiment === null ? undefined : experiments[experiment];
      const base = experiments[analysis.baseline];
      const cell = (id: string | undefined) => (indexRow && id !== undefined ? own(indexRow.cells, id) ?? null : null);
      let params: Parameters<typeof act.run>[0];
      if (action === 'diff') {
        if (!indexRow || !x || !base) return;
        if (x.id === base.id) return setStatus('This is the baseline: choose another experiment’s output to compare with it.');
        if (!cell(x.id) || !cell(base.id)) return setStatus('Both experiments need a run for this example to compare their outputs.');
        params = { action, exampleId: indexRow.exampleId, experimentId: base.id, otherId: x.id };
      } else if (action === 'openExample') {
        if (!indexRow) return;
        params = { action, exampleId: indexRow.exampleId };
      } else if (action === 'openTrace') {
        const c = cell(x?.id);
        if (!indexRow || !x) return;
        if (!c) return setStatus('This experiment has no run for this example.');
        params = { action, exampleId: indexRow.exampleId, experimentId: x.id, runId: c.runId };
      } else if (action === 'openExperiment') {
        if (!x) return;
        params = { action, experimentId: x.id };
      } else params = { action };
      const result = await act.run(params, { timeoutMs: 120_000 });
      if (!result.ok) return failed(result);
      if (result.value.message !== null) setStatus(result.value.message);
    },
    // `act.run` is stable; the rest is read when called.
    [experiments, analysis.baseline],
  );
  const onAct = useCallback((action: CellAction, row: number, experiment: number) => void doAct(action, row, experiment), [doAct]);

  async function doExport(format: 'csv' | 'jsonl') {
    setError(undefined);
    const exampleIds = order.map((r) => index[r]!.exampleId);
    // The host asks where to save: give the person time.
    const result = await exporter.run({ format, exampleIds, baselineId }, { timeoutMs: 600_000 });
    if (!result.ok) return failed(result);
    const { message, path, rows } = result.value;
    setStatus(message ?? (path === null ? 'Export cancelled.' : `Exported ${formatInt(rows)} ${rows === 1 ? 'row' : 'rows'}.`));
  }

  function applyFilter(f: Filter) {
    setFilter(f);
    select({ row: 0, experiment: f.experimentId !== null ? Math.max(0, experimentIds.indexOf(f.experimentId)) : selection.experiment }, true);
  }

  // ---- the keyboard
  const help = useKeysHelp();
  const grid = useRef<HTMLDivElement | null>(null);
  function onGridKey(e: ReactKeyboardEvent<HTMLDivElement> | KeyboardEvent) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const n = order.length;
    const perPage = Math.max(1, Math.floor((grid.current?.clientHeight ?? 0) / 140) - 1);
    const rows: Record<string, number> = { ArrowDown: selection.row + 1, ArrowUp: selection.row - 1, PageDown: selection.row + perPage, PageUp: selection.row - perPage, Home: 0, End: n - 1 };
    if (Object.hasOwn(rows, e.key)) {
      e.preventDefault();
      if (n) select({ row: Math.max(0, Math.min(n - 1, rows[e.key]!)), experiment: selection.experiment }, true);
      return;
    }
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      const next = Math.max(0, Math.min(experiments.length - 1, selection.experiment + (e.key === 'ArrowRight' ? 1 : -1)));
      select({ row: selection.row, experiment: next }, true);
      return;
    }
    if (!n) return;
    const key = e.key.toLowerCase();
    if (e.key === 'Enter') {
      e.preventDefault();
      void doAct('diff', selection.row, selection.experiment);
    } else if (key === 'b' && !e.shiftKey) {
      e.preventDefault();
      const x = experiments[selection.experiment];
      if (x) chooseBaseline(x.id);
    } else if (key === 'o' && !e.shiftKey) {
      e.preventDefault();
      void doAct('openExample', selection.row, selection.experiment);
    } else if (key === 't' && !e.shiftKey) {
      e.preventDefault();
      void doAct('openTrace', selection.row, selection.experiment);
    }
  }
  usePageKeys((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.isComposing || help.handle(e) || isTyping(e.target)) return;
    // Nothing focused (the page just opened, a button went away): the grid's keys work from anywhere.
    if (e.target === document.body || e.target === document.documentElement) onGridKey(e);
  });

  // ---- the sort menu: dataset order, a key's score in an experiment, a key's change vs the baseline
  const sortValue = sort.by === 'dataset' ? 'dataset' : JSON.stringify([sort.by, experimentIds.indexOf(sort.experimentId!), keys.findIndex((k) => k.key === sort.key)]);
  function chooseSort(value: string) {
    if (value === 'dataset') return setSort({ ...DATASET_ORDER, descending: false });
    const [by, e, k] = JSON.parse(value) as ['score' | 'change', number, number];
    // Worst changes first; highest scores first (lowest when lower is better).
    setSort({ by, experimentId: experimentIds[e]!, key: keys[k]!.key, descending: by === 'score' ? !keys[k]!.lowerIsBetter : false });
  }

  const base = experiments[analysis.baseline];
  const filterText = describeFilter(filter, experiments, order.length);

  return (
    <main className="cmp-page">
      <header className="cmp-header">
        <div className="cmp-title-row">
          <h1 className="cmp-title">
            Compare experiments on{' '}
            <span dir="auto" data-testid="dataset-name">
              {dataset.name}
            </span>
          </h1>
          <span className="cmp-header-actions">
            {dataset.url !== null && (
              <TextButton onClick={() => void doAct('openDataset', null, null)} data-testid="open-dataset">
                Open in LangSmith
              </TextButton>
            )}
            <TextButton onClick={() => void refresh()} disabled={reload.pending} data-testid="refresh">
              {reload.pending ? 'Refreshing…' : 'Refresh'}
            </TextButton>
            <TextButton aria-expanded={help.open} onClick={help.toggle} data-testid="keys-toggle" title="Keyboard shortcuts (?)">
              Keys ?
            </TextButton>
          </span>
        </div>
        {state.indexTruncated && (
          <Banner tone="warning" data-testid="truncated">
            The dataset has more examples than a comparison holds: compared on its first {formatInt(index.length)}.
          </Banner>
        )}
        {help.open && <KeysHelp keys={COMPARE_KEYS} note="Click a count of regressions or improvements to show only those rows." onClose={help.close} />}
      </header>
      <Summary
        experiments={experiments}
        keys={keys}
        analysis={analysis}
        baselineId={baselineId}
        onBaseline={chooseBaseline}
        onFilter={applyFilter}
        onOpen={(id) => void doAct('openExperiment', null, experimentIds.indexOf(id))}
      />
      <div className="cmp-toolbar">
        <div className="lsw-chips" role="group" aria-label="Rows shown">
          {FILTERS.map((f) => {
            const n = f.kind === 'all' ? index.length : analysis.totals[f.kind];
            const pressed = filter.kind === f.kind && filter.experimentId === null;
            return (
              <ToggleButton key={f.kind} pressed={pressed} onToggle={() => applyFilter({ kind: f.kind, experimentId: null, key: null })} data-testid={`filter-${f.kind}`}>
                {f.label} <span className="lsw-muted">{formatInt(n)}</span>
              </ToggleButton>
            );
          })}
        </div>
        <label className="cmp-sort">
          Sort{' '}
          <select className="lsw-input" value={sortValue} onChange={(e) => chooseSort(e.target.value)} data-testid="sort">
            <option value="dataset">Dataset order</option>
            {experiments.map((x, e) => (
              <optgroup key={e} label={x.name}>
                {keys.map((k, ki) => (
                  <option key={`s${ki}`} value={JSON.stringify(['score', e, ki])}>
                    {k.key}: score
                  </option>
                ))}
                {e !== analysis.baseline &&
                  keys.map((k, ki) => (
                    <option key={`c${ki}`} value={JSON.stringify(['change', e, ki])}>
                      {k.key}: change vs baseline
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </label>
        <ToggleButton pressed={sort.descending} onToggle={(d) => setSort({ ...sort, descending: d })} data-testid="sort-descending" title="Reverse the order">
          {sort.descending ? 'Descending' : 'Ascending'}
        </ToggleButton>
        <span className="cmp-export">
          <TextButton onClick={() => void doExport('csv')} disabled={exporter.pending || order.length === 0} data-testid="export-csv">
            Export CSV
          </TextButton>
          <TextButton onClick={() => void doExport('jsonl')} disabled={exporter.pending || order.length === 0} data-testid="export-jsonl">
            Export JSONL
          </TextButton>
        </span>
      </div>
      <div className="cmp-status-row">
        <span data-testid="shown">{filterText}</span>
        {filter.experimentId !== null && (
          <TextButton onClick={() => applyFilter(ALL)} data-testid="clear-filter">
            Show all
          </TextButton>
        )}
        {base && (
          <span className="lsw-muted">
            {' · '}against <span dir="auto">{base.name}</span>
          </span>
        )}
        <span className="cmp-status" role="status" aria-live="polite" data-testid="status">
          {status ?? ''}
        </span>
      </div>
      {error !== undefined && (
        <Banner tone="error" data-testid="action-error">
          {error}
        </Banner>
      )}
      <RowFetcher store={contents} />
      <RowsError contents={contents} />
      {order.length === 0 ? (
        <p className="cmp-empty" data-testid="empty">
          {index.length === 0 ? 'The dataset has no examples.' : 'No rows match this filter.'}
        </p>
      ) : (
        <Grid
          experiments={experiments}
          keys={keys}
          analysis={analysis}
          order={order}
          contents={contents}
          selection={selection}
          onSelect={onSelect}
          onAct={onAct}
          onFilter={applyFilter}
          onKeyDown={onGridKey}
          gridRef={grid}
          scrollRequest={scrollRequest}
        />
      )}
      <p id="cmp-keys-hint" className="cmp-hint">
        ↑ ↓ row · ← → experiment · Enter diff vs baseline · b baseline · o example · t trace · ? keys
      </p>
    </main>
  );
}

/** A row request that failed, with Retry (subscribed to the rows' status: the page does not re-render for it). */
function RowsError({ contents }: { contents: RowContents }) {
  const { error } = useRowsStatus(contents);
  if (error === undefined) return null;
  return (
    <div className="cmp-rows-error">
      <Banner tone="error" data-testid="rows-error">
        {error}
      </Banner>
      <TextButton onClick={contents.retry} data-testid="rows-retry">
        Retry
      </TextButton>
    </div>
  );
}

function describeFilter(f: Filter, experiments: readonly { id: string; name: string }[], n: number): string {
  const rows = `${formatInt(n)} ${n === 1 ? 'row' : 'rows'}`;
  if (f.kind === 'all') return rows;
  const name = f.experimentId === null ? null : experiments.find((x) => x.id === f.experimentId)?.name ?? '';
  const what = { regressions: 'regressed', improvements: 'improved', errors: 'errored' }[f.kind];
  if (name === null) return `${rows}: ${f.kind === 'errors' ? 'some run errored' : `some experiment ${what}`}`;
  return `${rows}: ${name} ${what}${f.key !== null ? ` on ${f.key}` : ''}`;
}

const COMPARE_KEYS: [string, string][] = [
  ['↑ / ↓', 'Previous / next row (Page Up / Down, Home, End)'],
  ['← / →', 'Previous / next experiment of the row'],
  ['Enter', 'Diff the selected experiment’s output against the baseline’s (double-click too)'],
  ['b', 'Make the selected experiment the baseline'],
  ['o', 'Open the row’s example'],
  ['t', 'Open the selected run’s trace'],
  ['?', 'Show or hide these keys'],
];
