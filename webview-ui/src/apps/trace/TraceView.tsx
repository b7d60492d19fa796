// One trace: the header, the find box, the run tree (left, or above when narrow) and the selected run's detail.
// Selection, collapsed runs and the find box are the page's own; a running trace is read again every
// RUNNING_REFRESH_MS while the panel is shown, keeping all of them (and the tree's scroll).
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FindInTrace, Reload, RUNNING_REFRESH_MS, SelectRun, type TraceData, type TraceState } from '../../../../src/protocol/trace';
import { useAppState, useDraft, useNotification, useRequest } from '../../common/app';
import { TextButton } from '../../common/components';
import { KeysHelp } from '../../common/components/KeysHelp';
import { isTyping, useKeysHelp, usePageKeys } from '../../common/keys';
import { DetailPane } from './DetailPane';
import { Header } from './Header';
import { TreePane, type TreePaneHandle } from './TreePane';
import { ancestorIds, buildTree, expandTo, timeSpan, visibleRows } from '../../common/run/tree';

const FIND_DELAY_MS = 250;
const SPLIT_MIN = 20;
const SPLIT_MAX = 80;
const clampSplit = (n: number) => Math.round(Math.max(SPLIT_MIN, Math.min(SPLIT_MAX, n)));

type TraceStateOf = Extract<TraceState, { kind: 'trace' }>;

const TRACE_KEYS: [string, string][] = [
  ['↑ / ↓', 'Previous / next run (Page Up / Down, Home, End)'],
  ['← / →', 'Collapse / expand the run, or go to its parent / first child'],
  ['[ / ]', 'Previous / next run that failed'],
  ['/', 'Find in the trace (Enter / Shift+Enter: next / previous result, Escape: clear)'],
  ['?', 'Show or hide these keys'],
];

export function TraceView({ trace, initialRunId }: { trace: TraceData; initialRunId: string | null }) {
  const [, setState] = useAppState<TraceState>();
  const tree = useMemo(() => buildTree(trace.runs), [trace.runs]);
  const now = useMemo(() => Date.now(), [trace]);
  const span = useMemo(() => timeSpan(trace.runs, now), [trace.runs, now]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const [selectedId, setSelectedId] = useState<string | undefined>(() =>
    initialRunId !== null && tree.index.has(initialRunId) ? initialRunId : tree.index.has(trace.header.rootRunId) ? trace.header.rootRunId : tree.runs[tree.roots[0] ?? -1]?.id,
  );
  const visible = useMemo(() => visibleRows(tree, collapsed), [tree, collapsed]);
  const treeRef = useRef<TreePaneHandle>(null);
  const findRef = useRef<HTMLInputElement>(null);
  const [version, setVersion] = useState(0);
  const [split, setSplit] = useDraft('split', 55);
  const mainRef = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);

  const select = useCallback(
    (id: string) => {
      if (!tree.index.has(id)) return;
      setSelectedId(id);
      setCollapsed((c) => expandTo(tree, c, id));
    },
    [tree],
  );
  const toggle = useCallback(
    (id: string) => {
      const collapsing = !collapsed.has(id);
      setCollapsed((c) => {
        const next = new Set(c);
        if (!next.delete(id)) next.add(id);
        return next;
      });
      // Collapsing the selected run's ancestor selects that ancestor (the selection stays in view).
      if (collapsing && selectedId !== undefined && ancestorIds(tree, selectedId).includes(id)) setSelectedId(id);
    },
    [collapsed, selectedId, tree],
  );

  useNotification(SelectRun, ({ runId }) => select(runId));

  // ---- find
  const find = useRequest(FindInTrace);
  const [text, setText] = useState('');
  const [found, setFound] = useState<{ text: string; ids: string[] }>();
  const [at, setAt] = useState(-1);
  const needle = text.trim();
  const current = found && found.text === needle ? found : undefined;
  const local = useMemo(() => {
    if (!needle || current) return undefined;
    const lower = needle.toLowerCase();
    return tree.runs.filter((r) => r.name.toLowerCase().includes(lower)).map((r) => r.id);
  }, [needle, current, tree]);
  const marked = useMemo<ReadonlySet<string>>(() => new Set(current?.ids ?? local ?? []), [current, local]);

  const search = useCallback(
    async (value: string, selectFirst: boolean) => {
      const result = await find.run({ text: value }, { timeoutMs: 60_000 });
      if (!result.ok) return;
      const ids = result.value.runIds.filter((id) => tree.index.has(id));
      setFound({ text: value, ids });
      setAt(-1);
      if (selectFirst && ids[0] !== undefined) {
        setAt(0);
        select(ids[0]);
      }
    },
    [find.run, select, tree],
  );
  useEffect(() => {
    if (!needle || found?.text === needle) return undefined;
    const timer = setTimeout(() => void search(needle, false), FIND_DELAY_MS);
    return () => clearTimeout(timer);
  }, [needle, found, search]);

  function step(delta: number) {
    if (!current?.ids.length) return;
    const n = current.ids.length;
    const next = at < 0 ? (delta > 0 ? 0 : n - 1) : (at + delta + n) % n;
    setAt(next);
    select(current.ids[next]!);
  }

  function onFindKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') {
      e.preventDefault();
      if (!needle) return;
      if (current) step(e.shiftKey ? -1 : 1);
      else void search(needle, true);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      clearFind();
      treeRef.current?.focus();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      treeRef.current?.focus();
    }
  }
  function clearFind() {
    find.cancel();
    setText('');
    setFound(undefined);
    setAt(-1);
  }

  // ---- errors, keyboard
  const jumpToError = useCallback(
    (delta: 1 | -1) => {
      const order = tree.order;
      const n = order.length;
      if (!n) return;
      const from = selectedId !== undefined && tree.index.has(selectedId) ? tree.position[tree.index.get(selectedId)!]! : delta > 0 ? -1 : n;
      for (let k = 1; k <= n; k++) {
        const pos = (((from + delta * k) % n) + n) % n;
        const run = tree.runs[order[pos]!]!;
        if (run.status === 'error') {
          select(run.id);
          return;
        }
      }
    },
    [tree, selectedId, select],
  );

  const help = useKeysHelp();
  usePageKeys((e) => {
    if (help.handle(e) || isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === '/') {
      e.preventDefault();
      findRef.current?.focus();
      findRef.current?.select();
    } else if (e.key === '[' || e.key === ']') {
      e.preventDefault();
      jumpToError(e.key === ']' ? 1 : -1);
    }
  });

  function onTreeKey(e: KeyboardEvent<HTMLDivElement>) {
    const i = selectedId === undefined ? undefined : tree.index.get(selectedId);
    const pos = i === undefined ? -1 : visible.indexOf(i);
    const go = (p: number) => {
      const target = visible[Math.max(0, Math.min(visible.length - 1, p))];
      if (target !== undefined) select(tree.runs[target]!.id);
    };
    switch (e.key) {
      case 'ArrowDown':
        go(pos + 1);
        break;
      case 'ArrowUp':
        go(pos < 0 ? 0 : pos - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(visible.length - 1);
        break;
      case 'PageDown':
        go(pos + 10);
        break;
      case 'PageUp':
        go(pos - 10);
        break;
      case 'ArrowLeft': {
        if (i === undefined) return go(0);
        const id = tree.runs[i]!.id;
        if (tree.children[i]!.length && !collapsed.has(id)) toggle(id);
        else if (tree.parent[i]! >= 0) select(tree.runs[tree.parent[i]!]!.id);
        break;
      }
      case 'ArrowRight': {
        if (i === undefined) return go(0);
        const id = tree.runs[i]!.id;
        if (!tree.children[i]!.length) return;
        if (collapsed.has(id)) toggle(id);
        else select(tree.runs[tree.children[i]![0]!]!.id);
        break;
      }
      default:
        return;
    }
    e.preventDefault();
  }

  // ---- a running trace is read again while shown
  const reload = useRequest(Reload);
  const running = trace.header.status === 'pending';
  useEffect(() => {
    if (!running) return undefined;
    let timer: ReturnType<typeof setInterval> | undefined;
    let busy = false;
    const tick = async () => {
      if (busy || document.visibilityState !== 'visible') return;
      busy = true;
      const result = await reload.run({});
      busy = false;
      if (result.ok && result.value.kind === 'trace') {
        const next = result.value;
        setState((prev) => (prev.kind === 'trace' ? { ...next, selectedRunId: prev.selectedRunId } : prev));
        setVersion((v) => v + 1);
      }
    };
    const start = () => {
      if (timer === undefined && document.visibilityState === 'visible') timer = setInterval(() => void tick(), RUNNING_REFRESH_MS);
    };
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => (document.visibilityState === 'visible' ? start() : stop());
    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [running]);

  const setShareUrl = useCallback(
    (url: string | null) => setState((prev) => (prev.kind === 'trace' ? ({ ...prev, trace: { ...prev.trace, header: { ...prev.trace.header, shareUrl: url } } } satisfies TraceStateOf) : prev)),
    [setState],
  );

  const selected = selectedId === undefined ? undefined : tree.runs[tree.index.get(selectedId) ?? -1];
  const count = current?.ids.length ?? 0;
  return (
    <main className="tv-page">
      <Header header={trace.header} selected={selected} onShareUrl={setShareUrl} />
      {help.open && <KeysHelp keys={TRACE_KEYS} onClose={help.close} />}
      {/* The split's position is geometry the person sets: the only inline style of the layout. */}
      <div className="tv-main" ref={mainRef} style={{ gridTemplateColumns: `minmax(0, ${split}%) 6px minmax(0, 1fr)` }}>
        <div className="tv-tree-pane">
          <div className="tv-find" role="search">
            <input
              ref={findRef}
              className="lsw-input tv-find-input"
              type="search"
              placeholder="Find in trace ( / )"
              aria-label="Find in trace"
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={onFindKey}
              data-testid="find"
            />
            <span className="tv-find-count" aria-live="polite" data-testid="find-count">
              {needle ? (current ? (count ? `${at >= 0 ? at + 1 : 0} of ${count}` : 'No results') : find.pending ? 'Finding…' : '') : ''}
            </span>
            <TextButton aria-label="Previous result" title="Previous result (Shift+Enter)" disabled={!count} onClick={() => step(-1)}>
              ↑
            </TextButton>
            <TextButton aria-label="Next result" title="Next result (Enter)" disabled={!count} onClick={() => step(1)}>
              ↓
            </TextButton>
          </div>
          <div className="tv-tree-head tv-muted">
            <span className="tv-name" data-testid="run-count">
              {tree.runs.length.toLocaleString('en-US')} run{tree.runs.length === 1 ? '' : 's'}
              {running && ' · running, refreshed while shown'}
            </span>
            <span className="tv-duration" aria-hidden="true">
              Time
            </span>
            <span className="tv-tokens" aria-hidden="true">
              Tokens
            </span>
            <span className="tv-timeline-label" aria-hidden="true">
              Timeline
            </span>
          </div>
          {tree.runs.length === 0 && <p className="tv-muted tv-empty">This trace has no runs yet.</p>}
          <TreePane
            ref={treeRef}
            tree={tree}
            visible={visible}
            selectedId={selectedId}
            collapsed={collapsed}
            marked={marked}
            span={span}
            now={now}
            onSelect={select}
            onToggle={toggle}
            onKeyDown={onTreeKey}
          />
        </div>
        <div
          className="tv-splitter"
          role="separator"
          aria-orientation="vertical"
          aria-label="Resize the tree and the detail"
          aria-valuenow={Math.round(split)}
          aria-valuemin={SPLIT_MIN}
          aria-valuemax={SPLIT_MAX}
          tabIndex={0}
          data-testid="splitter"
          onPointerDown={(e) => {
            e.currentTarget.setPointerCapture(e.pointerId);
            dragging.current = true;
          }}
          onPointerMove={(e) => {
            const box = mainRef.current?.getBoundingClientRect();
            if (!dragging.current || !box || box.width <= 0) return;
            setSplit(clampSplit(((e.clientX - box.left) / box.width) * 100));
          }}
          onPointerUp={() => (dragging.current = false)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
              e.preventDefault();
              setSplit(clampSplit(split + (e.key === 'ArrowLeft' ? -5 : 5)));
            }
          }}
        />
        <DetailPane run={selected} version={version} />
      </div>
    </main>
  );
}
