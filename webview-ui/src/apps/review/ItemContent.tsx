// What is being reviewed: the item's run as the trace viewer shows it (name, status, inputs and outputs as
// messages, its error and feedback) with its child runs one click away, or a thread item's conversation.
import { useEffect, useMemo, useRef, useState } from 'react';
import { ReadRun, type ItemView } from '../../../../src/protocol/review';
import type { RunDetail, RunRow } from '../../../../src/protocol/trace';
import { useRequest } from '../../common/app';
import { Banner, ProgressRing, TextButton } from '../../common/components';
import { duration, formatDuration, formatTime, RUN_TYPE_GLYPH, RUN_TYPE_LABEL } from '../../common/run/format';
import { ErrorSection, FeedbackList, MetadataSection, PayloadSection } from '../../common/run/sections';
import { buildTree } from '../../common/run/tree';
import { ThreadTurns } from '../../common/run/turns';

/** The most child runs listed; the trace shows the rest. */
const CHILDREN_SHOWN = 300;

export function ItemContent({ view, onAct }: { view: ItemView; onAct(action: 'openTrace' | 'openThread', runId?: string): void }) {
  if (view.item.kind === 'thread' || view.thread) {
    return (
      <section className="rv-item" aria-label="Thread" data-testid="item">
        <h2 className="rv-run-title">
          <span className="tv-muted">Thread </span>
          <span className="rv-run-name tv-mono" data-testid="run-name" dir="auto">
            {view.thread?.threadId ?? view.item.threadId ?? view.item.name}
          </span>
          <TextButton onClick={() => onAct('openThread')} data-testid="open-thread">
            Open Thread
          </TextButton>
        </h2>
        {view.problem && <ProblemBanner view={view} />}
        {view.thread && (
          <>
            {view.thread.moreTurns > 0 && <p className="tv-note">{view.thread.moreTurns.toLocaleString('en-US')} earlier turns not shown.</p>}
            <ThreadTurns turns={view.thread.turns} onOpen={(turn) => onAct('openTrace', turn.rootRunId)} />
          </>
        )}
      </section>
    );
  }
  return <RunItem view={view} onAct={onAct} />;
}

function ProblemBanner({ view }: { view: ItemView }) {
  return (
    <Banner tone="warning" data-testid="item-problem">
      {view.problem!.message} You can still review or remove this item.
    </Banner>
  );
}

function RunItem({ view, onAct }: { view: ItemView; onAct(action: 'openTrace', runId?: string): void }) {
  const runId = view.run?.id ?? view.item.runId ?? undefined;
  const tree = useMemo(() => (view.trace ? buildTree(view.trace.runs) : undefined), [view.trace]);
  const row = runId !== undefined && tree ? tree.runs[tree.index.get(runId) ?? -1] : undefined;
  const children = useMemo(() => {
    if (!tree || runId === undefined) return [];
    const at = tree.index.get(runId);
    if (at === undefined) return [];
    const out: { run: RunRow; depth: number }[] = [];
    const base = tree.depth[at]!;
    for (let p = tree.position[at]! + 1; p < tree.order.length; p++) {
      const i = tree.order[p]!;
      if (tree.depth[i]! <= base) break;
      out.push({ run: tree.runs[i]!, depth: tree.depth[i]! - base - 1 });
    }
    return out;
  }, [tree, runId]);
  const [child, setChild] = useState<RunRow>();
  const details = useRef(new Map<string, RunDetail>());
  const name = row?.name || view.item.name || '(no name)';
  const status = row?.status ?? view.trace?.header.status;
  return (
    <section className="rv-item" aria-label={`Run ${name}`} data-testid="item">
      <h2 className="rv-run-title">
        <span className="rv-run-name" data-testid="run-name" dir="auto">
          {name}
        </span>
        {row && <span className="tv-muted">{RUN_TYPE_LABEL[row.runType.toLowerCase()] ?? row.runType}</span>}
        {status && (
          <span className={`rv-run-status rv-run-status-${status}`} data-testid="run-status">
            {status === 'success' ? 'Success' : status === 'error' ? 'Error' : 'Running'}
          </span>
        )}
        {runId !== undefined && (
          <TextButton onClick={() => onAct('openTrace', runId)} data-testid="open-trace">
            Open Trace
          </TextButton>
        )}
      </h2>
      {row && (
        <p className="tv-muted rv-run-facts">
          {formatTime(row.start)}
          {row.start !== null && row.end !== null && ` · ${formatDuration(duration(row.start, row.end))}`}
          {row.tokens.total !== null && ` · ${row.tokens.total.toLocaleString('en-US')} tokens`}
        </p>
      )}
      {view.problem && <ProblemBanner view={view} />}
      {view.run && <RunBody key={view.run.id} detail={view.run} />}
      {children.length > 0 && (
        <section className="tv-section rv-children" aria-label="Child runs">
          <h3>
            Child runs <span className="tv-muted">({children.length.toLocaleString('en-US')})</span>
          </h3>
          <ul className="rv-child-list">
            {children.slice(0, CHILDREN_SHOWN).map(({ run, depth }) => {
              const type = run.runType.toLowerCase();
              const known = Object.hasOwn(RUN_TYPE_GLYPH, type);
              return (
                <li key={run.id} className={`rv-child rv-depth-${Math.min(depth, 8)}`}>
                  <button
                    type="button"
                    className={`rv-child-button${child?.id === run.id ? ' rv-child-selected' : ''}`}
                    aria-pressed={child?.id === run.id}
                    onClick={() => setChild(child?.id === run.id ? undefined : run)}
                    data-testid="child-run"
                    data-run-id={run.id}
                  >
                    <span className={`tv-type tv-type-${known ? type : 'other'}`} aria-label={RUN_TYPE_LABEL[type] ?? run.runType}>
                      {known ? RUN_TYPE_GLYPH[type] : run.runType.slice(0, 2) || '?'}
                    </span>
                    <span className="rv-child-name" dir="auto">
                      {run.name || '(no name)'}
                    </span>
                    {run.status === 'error' && (
                      <span className="rv-error-mark" aria-label="Error">
                        ✕
                      </span>
                    )}
                    <span className="tv-muted rv-child-duration">{formatDuration(duration(run.start, run.end))}</span>
                  </button>
                </li>
              );
            })}
          </ul>
          {children.length > CHILDREN_SHOWN && <p className="tv-note">{(children.length - CHILDREN_SHOWN).toLocaleString('en-US')} more: Open Trace to see them all.</p>}
          {child && <ChildDetail key={child.id} run={child} cache={details.current} onClose={() => setChild(undefined)} onOpen={() => onAct('openTrace', child.id)} />}
        </section>
      )}
    </section>
  );
}

function RunBody({ detail }: { detail: RunDetail }) {
  return (
    <>
      <PayloadSection title="Input" payload={detail.inputs} runId={detail.id} part="inputs" testId="inputs" />
      <PayloadSection title="Output" payload={detail.outputs} runId={detail.id} part="outputs" testId="outputs" />
      <ErrorSection error={detail.error} />
      {detail.feedback.length > 0 && (
        <section className="tv-section" data-testid="feedback">
          <h3>Feedback</h3>
          <FeedbackList items={detail.feedback} />
        </section>
      )}
      <details className="rv-more">
        <summary>Metadata</summary>
        <MetadataSection detail={detail} />
      </details>
    </>
  );
}

/** A child run's inputs and outputs, read when it is clicked (kept while the item is shown). */
function ChildDetail({ run, cache, onClose, onOpen }: { run: RunRow; cache: Map<string, RunDetail>; onClose(): void; onOpen(): void }) {
  const read = useRequest(ReadRun);
  const [detail, setDetail] = useState<RunDetail | undefined>(() => cache.get(run.id));
  const [error, setError] = useState<string>();
  const runId = run.id;
  const readRun = read.run;
  useEffect(() => {
    if (cache.has(runId)) return;
    void readRun({ runId }).then((result) => {
      if (!result.ok) {
        if (result.error.code !== 'cancelled') setError(result.error.message);
        return;
      }
      cache.set(runId, result.value);
      setDetail(result.value);
    });
  }, [cache, runId, readRun]);
  return (
    <section className="rv-child-detail" aria-label={`Child run ${run.name}`} data-testid="child-detail">
      <div className="rv-child-detail-head">
        <h3 className="rv-child-detail-title" dir="auto">
          {run.name || '(no name)'}
        </h3>
        <TextButton onClick={onOpen} data-testid="child-open-trace">
          Open Trace
        </TextButton>
        <TextButton onClick={onClose} data-testid="child-close">
          Close
        </TextButton>
      </div>
      {error !== undefined && (
        <Banner tone="error" data-testid="child-error">
          {error}
        </Banner>
      )}
      {!detail && error === undefined && (
        <div className="tv-loading" aria-busy="true">
          <ProgressRing />
        </div>
      )}
      {detail && (
        <>
          <PayloadSection title="Input" payload={detail.inputs} runId={detail.id} part="inputs" testId="child-inputs" />
          <PayloadSection title="Output" payload={detail.outputs} runId={detail.id} part="outputs" testId="child-outputs" />
          <ErrorSection error={detail.error} />
        </>
      )}
    </section>
  );
}
