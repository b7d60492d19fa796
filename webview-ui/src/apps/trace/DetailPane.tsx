// The selected run, whole: its inputs and outputs rendered as what they are (or as JSON), its error, metadata,
// feedback (with a form to add some) and attachments. Details are read when a run is selected (the previous
// read is cancelled) and a few are kept, so going back is instant.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { AddFeedback, ReadRun, type FeedbackItem, type RunDetail, type RunRow } from '../../../../src/protocol/trace';
import { useRequest } from '../../common/app';
import { Banner, ProgressRing } from '../../common/components';
import { duration, formatCost, formatDuration, formatTime, RUN_TYPE_LABEL } from '../../common/run/format';
import { AttachmentsSection, ErrorSection, FeedbackList, MetadataSection, PayloadSection } from '../../common/run/sections';

const CACHE_SIZE = 30;

export function DetailPane({ run, version }: { run: RunRow | undefined; version: number }) {
  const read = useRequest(ReadRun);
  const cache = useRef(new Map<string, RunDetail>());
  const [detail, setDetail] = useState<RunDetail>();
  const [error, setError] = useState<string>();
  const runId = run?.id;
  const status = run?.status;

  useEffect(() => {
    if (runId === undefined) return;
    const cached = cache.current.get(runId);
    // A running run's detail changes: read it again on each refresh of the trace.
    if (cached && status !== 'pending') {
      setDetail(cached);
      setError(undefined);
      return;
    }
    if (!cached) setDetail(undefined);
    else setDetail(cached);
    setError(undefined);
    let live = true;
    void read.run({ runId }).then((result) => {
      if (!live) return;
      if (!result.ok) {
        if (result.error.code !== 'cancelled') setError(result.error.message);
        return;
      }
      remember(cache.current, result.value);
      setDetail(result.value);
    });
    return () => {
      live = false;
    };
    // `version` changes when a running trace is reloaded.
  }, [runId, status, version, read.run]);

  if (!run) return <section className="tv-detail tv-muted">Select a run.</section>;
  const shown = detail?.id === run.id ? detail : undefined;

  function addFeedback(item: FeedbackItem) {
    const d = cache.current.get(run!.id);
    if (!d) return;
    const next = { ...d, feedback: [...d.feedback, item] };
    remember(cache.current, next);
    setDetail((cur) => (cur?.id === next.id ? next : cur));
  }

  return (
    <section className="tv-detail" aria-label={`Run ${run.name}`} data-testid="detail">
      <h2 className="tv-detail-title">
        <span className="tv-detail-name" data-testid="detail-name">
          {run.name || '(no name)'}
        </span>
        <span className="tv-muted"> {RUN_TYPE_LABEL[run.runType.toLowerCase()] ?? run.runType}</span>
      </h2>
      <p className="tv-detail-facts tv-muted">
        {run.start !== null && <span>{formatTime(run.start)}</span>}
        {run.start !== null && run.end !== null && <span> · {formatDuration(duration(run.start, run.end))}</span>}
        {run.status === 'pending' && <span> · running</span>}
        {run.tokens.total !== null && <span> · {run.tokens.total.toLocaleString('en-US')} tokens</span>}
        {formatCost(run.cost) !== undefined && <span> · {formatCost(run.cost)}</span>}
      </p>
      {error !== undefined && (
        <Banner tone="error" data-testid="detail-error">
          {error}
        </Banner>
      )}
      {!shown && error === undefined && (
        <div className="tv-loading" aria-busy="true">
          <ProgressRing />
        </div>
      )}
      {/* Keyed by run: what one run's values showed (expanded, fetched whole) is not another's. */}
      {shown && <DetailBody key={shown.id} detail={shown} onFeedback={addFeedback} />}
    </section>
  );
}

function remember(cache: Map<string, RunDetail>, detail: RunDetail) {
  cache.delete(detail.id);
  cache.set(detail.id, detail);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
}

function DetailBody({ detail, onFeedback }: { detail: RunDetail; onFeedback(item: FeedbackItem): void }) {
  return (
    <>
      <PayloadSection title="Input" payload={detail.inputs} runId={detail.id} part="inputs" testId="inputs" />
      <PayloadSection title="Output" payload={detail.outputs} runId={detail.id} part="outputs" testId="outputs" />
      <ErrorSection error={detail.error} />
      <MetadataSection detail={detail} />
      <FeedbackSection runId={detail.id} items={detail.feedback} onAdded={onFeedback} />
      <AttachmentsSection detail={detail} />
    </>
  );
}

function FeedbackSection({ runId, items, onAdded }: { runId: string; items: FeedbackItem[]; onAdded(item: FeedbackItem): void }) {
  const add = useRequest(AddFeedback);
  const [key, setKey] = useState('');
  const [score, setScore] = useState('');
  const [value, setValue] = useState('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string>();
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!key.trim()) {
      setError('A key is needed.');
      return;
    }
    const n = score.trim() === '' ? null : Number(score);
    if (n !== null && !Number.isFinite(n)) {
      setError('The score must be a number.');
      return;
    }
    const result = await add.run({ runId, key: key.trim(), score: n, value: value === '' ? null : value, comment: comment === '' ? null : comment });
    if (!result.ok) {
      if (result.error.code !== 'cancelled') setError(result.error.message);
      return;
    }
    onAdded(result.value);
    setKey('');
    setScore('');
    setValue('');
    setComment('');
  }
  return (
    <section className="tv-section" data-testid="feedback">
      <h3>Feedback</h3>
      <FeedbackList items={items} />
      <form className="tv-feedback-form" onSubmit={(e) => void submit(e)} aria-label="Add feedback">
        <label>
          <span>Key</span>
          <input className="lsw-input" required value={key} onChange={(e) => setKey(e.target.value)} data-testid="fb-key" />
        </label>
        <label>
          <span>Score</span>
          <input className="lsw-input" type="number" step="any" value={score} onChange={(e) => setScore(e.target.value)} data-testid="fb-score" />
        </label>
        <label>
          <span>Value</span>
          <input className="lsw-input" value={value} onChange={(e) => setValue(e.target.value)} data-testid="fb-value" />
        </label>
        <label className="tv-wide">
          <span>Comment</span>
          <textarea className="lsw-input" rows={2} value={comment} onChange={(e) => setComment(e.target.value)} data-testid="fb-comment" />
        </label>
        <div className="tv-wide">
          <button type="submit" className="tv-button" disabled={add.pending} data-testid="fb-submit">
            Add feedback
          </button>
          {error !== undefined && (
            <span className="tv-error-text" role="alert" data-testid="fb-error">
              {' '}
              {error}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}
