// The dataset version diff: which versions, a search box and kind filters over a virtualised list of the
// examples that changed. Filters and search are kept in the webview's state (they survive a reload); the rows
// are always asked of the host again.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { DIFF_KINDS, OpenExample, OpenInLangSmith, type DatasetDiffState, type DiffKind, type DiffRow, type OpenHow } from '../../../../src/protocol/datasetDiff';
import { useAppState, useDraft, useRequest } from '../../common/app';
import { Banner, TextButton, TextField, ToggleButton } from '../../common/components';
import type { ListPosition } from '../../common/list/VirtualList';
import { DiffList } from './DiffList';
import { KIND_LABEL } from './DiffRowView';
import { isTimestamp, readableVersion } from './versions';

const SEARCH_DELAY_MS = 250;

export function App() {
  const [state] = useAppState<DatasetDiffState>();
  const [search, setSearch] = useDraft('search', '');
  const [kinds, setKinds] = useDraft<DiffKind[]>('kinds', [...DIFF_KINDS]);
  const needle = useSettled(search.trim(), SEARCH_DELAY_MS);
  const open = useRequest(OpenExample);
  const openLink = useRequest(OpenInLangSmith);
  const [problem, setProblem] = useState<string>();
  const list = useRef<HTMLDivElement | null>(null);

  const shown = useMemo(() => DIFF_KINDS.filter((k) => kinds.includes(k)), [kinds]);
  const query = useMemo(() => ({ kinds: shown, search: needle }), [shown, needle]);
  const queryKey = JSON.stringify(query);
  // The list's position is kept with the query it belongs to: another query starts at the top.
  const [kept, setKept] = useDraft<{ query: string } & ListPosition>('position', { query: '', top: 0, active: 0 });
  const position = useMemo<ListPosition>(() => (kept.query === queryKey ? { top: kept.top, active: kept.active } : { top: 0, active: 0 }), [kept, queryKey]);
  const keepPosition = useCallback((p: ListPosition) => setKept({ query: queryKey, ...p }), [setKept, queryKey]);
  const all = state.counts.added + state.counts.removed + state.counts.modified;
  const knownTotal = needle ? undefined : shown.reduce((n, k) => n + state.counts[k], 0);
  const emptyText =
    all === 0
      ? `No differences: ${readableVersion(state.from.label)} and ${readableVersion(state.to.label)} have the same examples.`
      : shown.length === 0
        ? 'Choose a kind of change to show.'
        : needle
          ? `No changed example matches “${needle}”.`
          : 'No changes of the kinds shown.';

  async function openRow(row: DiffRow, how: OpenHow) {
    setProblem(undefined);
    const result = await open.run({ exampleId: row.id, how });
    if (!result.ok && result.error.code !== 'cancelled') setProblem(result.error.message);
  }

  async function openInLangSmith() {
    setProblem(undefined);
    const result = await openLink.run({});
    if (!result.ok && result.error.code !== 'cancelled') setProblem(result.error.message);
  }

  function onSearchKey(e: KeyboardEvent) {
    if (e.key === 'Escape' && search) {
      e.preventDefault();
      e.stopPropagation();
      setSearch('');
    } else if (e.key === 'ArrowDown' && list.current) {
      e.preventDefault();
      list.current.focus();
    }
  }

  const toggle = (kind: DiffKind, on: boolean) => setKinds(on ? [...kinds, kind] : kinds.filter((k) => k !== kind));

  return (
    <main className="dd-page">
      <header className="dd-header">
        <h1 className="dd-title" data-testid="dataset-name">
          {state.dataset.name}
        </h1>
        <p className="dd-versions">
          <span className="dd-version" data-testid="from" title={isTimestamp(state.from.label) ? state.from.label : undefined}>
            {readableVersion(state.from.label)}
          </span>
          <span aria-label="compared with"> → </span>
          <span className="dd-version" data-testid="to" title={isTimestamp(state.to.label) ? state.to.label : undefined}>
            {readableVersion(state.to.label)}
          </span>
          <TextButton className="dd-link" onClick={() => void openInLangSmith()}>
            Open in LangSmith
          </TextButton>
        </p>
      </header>
      <div className="dd-toolbar">
        <TextField
          className="dd-search"
          data-testid="search"
          placeholder="id, key or value"
          value={search}
          onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
          onKeyDown={onSearchKey}
        >
          Search
        </TextField>
        <div className="dd-kinds" role="group" aria-label="Kinds of change shown">
          {DIFF_KINDS.map((kind) => (
            <ToggleButton key={kind} pressed={kinds.includes(kind)} onToggle={(on) => toggle(kind, on)} data-testid={`kind-${kind}`}>
              <span className={`dd-dot lsw-kind-${kind}`} aria-hidden="true" />
              {KIND_LABEL[kind]}
              <span className="dd-count">{state.counts[kind].toLocaleString()}</span>
            </ToggleButton>
          ))}
        </div>
      </div>
      {problem !== undefined && (
        <Banner tone="error" data-testid="problem">
          {problem}
        </Banner>
      )}
      <DiffList
        key={queryKey}
        query={query}
        knownTotal={knownTotal}
        emptyText={emptyText}
        onOpen={(row, how) => void openRow(row, how)}
        listRef={list}
        position={position}
        onPosition={keepPosition}
      />
    </main>
  );
}

/** `value` once it has stopped changing for `ms` (at once when it becomes empty: Escape clears at once). */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (value === '') {
      setSettled('');
      return undefined;
    }
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
