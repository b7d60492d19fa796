// The sections of a run's detail, as the trace viewer and the review page show them: its inputs and outputs (as
// what they are, or as JSON), its error, metadata, feedback and attachments. What reads the run is the app's.
import { useState } from 'react';
import type { FeedbackItem, Payload, RunDetail } from '../../../../src/protocol/trace';
import { ToggleButton } from '../components';
import { formatTime } from './format';
import { LongText, PayloadView, rendersAs, type PartName } from './payload';

export function PayloadSection({ title, payload, runId, part, testId }: { title: string; payload: Payload | null; runId: string; part: PartName; testId: string }) {
  const [asJson, setAsJson] = useState(false);
  const kind = payload ? rendersAs(payload) : 'json';
  return (
    <section className="tv-section" data-testid={testId}>
      <div className="tv-section-head">
        <h3>{title}</h3>
        {payload && kind !== 'json' && (
          <ToggleButton pressed={asJson} onToggle={setAsJson} data-testid={`${testId}-json`}>
            {asJson ? 'Show rendered' : 'Show JSON'}
          </ToggleButton>
        )}
      </div>
      {payload === null ? <p className="tv-muted">None.</p> : <PayloadView payload={payload} runId={runId} part={part} asJson={asJson} />}
    </section>
  );
}

export function ErrorSection({ error }: { error: string | null }) {
  if (error === null) return null;
  return (
    <section className="tv-section tv-section-error" data-testid="error">
      <h3>Error</h3>
      <LongText text={error} path={[]} className="tv-error-text" />
    </section>
  );
}

export function MetadataSection({ detail }: { detail: RunDetail }) {
  return (
    <section className="tv-section" data-testid="metadata">
      <h3>Metadata</h3>
      {detail.tags.length > 0 && (
        <ul className="tv-tags" aria-label="Tags">
          {detail.tags.map((t, i) => (
            <li key={i} className="tv-tag">
              {t}
            </li>
          ))}
        </ul>
      )}
      {detail.model !== null && (
        <p>
          <span className="tv-muted">Model </span>
          <span className="tv-mono">{detail.model}</span>
        </p>
      )}
      {detail.invocationParams && (
        <>
          <h4>Invocation parameters</h4>
          <PayloadView payload={detail.invocationParams} runId={detail.id} part="invocationParams" asJson />
        </>
      )}
      {detail.metadata && (
        <>
          <h4>Run metadata</h4>
          <PayloadView payload={detail.metadata} runId={detail.id} part="metadata" asJson />
        </>
      )}
      {detail.inDataset && <p className="tv-muted">An example of a dataset came from this run.</p>}
      {!detail.tags.length && detail.model === null && !detail.invocationParams && !detail.metadata && <p className="tv-muted">None.</p>}
    </section>
  );
}

/** The feedback already on a run. */
export function FeedbackList({ items }: { items: FeedbackItem[] }) {
  if (items.length === 0) return <p className="tv-muted">No feedback yet.</p>;
  return (
    <ul className="tv-feedback-list">
      {items.map((f) => (
        <li key={f.id} className="tv-feedback" data-testid="feedback-item">
          <span className="tv-feedback-key">{f.key}</span>
          {f.score !== null && <span className="tv-feedback-score"> {f.score}</span>}
          {f.value !== null && f.value !== undefined && <span className="tv-feedback-value"> {typeof f.value === 'string' ? f.value : JSON.stringify(f.value)}</span>}
          {f.comment !== null && <div className="tv-feedback-comment">{f.comment}</div>}
          <div className="tv-muted">
            {f.source ?? ''}
            {f.source !== null && f.createdAt !== null && ' · '}
            {formatTime(f.createdAt)}
          </div>
        </li>
      ))}
    </ul>
  );
}

export function AttachmentsSection({ detail }: { detail: RunDetail }) {
  if (detail.attachments.length === 0) return null;
  return (
    <section className="tv-section" data-testid="attachments">
      <h3>Attachments</h3>
      <ul className="tv-attachments">
        {detail.attachments.map((a, i) => (
          <li key={i} className="tv-attachment">
            {a.mimeType?.startsWith('image/') && /^https?:\/\//i.test(a.url) ? (
              <figure>
                <img className="tv-image" loading="lazy" src={a.url} alt={a.name} />
                <figcaption>{a.name}</figcaption>
              </figure>
            ) : (
              <button type="button" className="tv-attachment-file">
                <span>{a.name}</span> <span className="tv-muted">{a.mimeType ?? 'unknown type'}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
