import type { TraceStatus } from '../../../../src/protocol/playground';
import { Badge, Banner, TextButton } from '../../common/components';
import { CollapsibleText } from './CollapsibleText';
import { formatLatency, formatUsage, type RunRecord } from './model';

export function OutcomeBadge({ outcome }: { outcome: RunRecord['outcome'] }) {
  if (outcome === 'done') return <Badge tone="ok" data-testid="outcome">done</Badge>;
  return (
    <Badge tone="warning" data-testid="outcome">
      {outcome === 'error' ? 'failed' : 'stopped'}
    </Badge>
  );
}

/** Usage and latency, as one muted line: "12 in · 30 out · 42 tokens · 850 ms". */
export function RunFacts({ run }: { run: RunRecord }) {
  return (
    <span className="lsw-muted" data-testid="run-facts">
      {run.usage && <span data-testid="usage">{formatUsage(run.usage)}</span>}
      {run.usage && ' · '}
      <span data-testid="latency">{formatLatency(run.latencyMs)}</span>
    </span>
  );
}

/** Where the run's trace went: a button to it, why it is waiting, or that it was not traced. */
export function TraceLine({ trace, onReveal }: { trace: TraceStatus; onReveal: () => void }) {
  if (trace.status === 'sent') {
    return (
      <TextButton onClick={onReveal} data-testid="show-trace">
        Show trace
      </TextButton>
    );
  }
  if (trace.status === 'off') return <span className="lsw-muted" data-testid="trace-off">not traced</span>;
  return (
    <span className="pg-warning-text" data-testid="trace-failed">
      Trace not sent{trace.message ? <>: <bdi>{trace.message}</bdi></> : ''} ({trace.pending} waiting)
    </span>
  );
}

/** A finished run's error and what to do about it. */
export function RunError({ run }: { run: RunRecord }) {
  if (run.outcome !== 'error') return null;
  return (
    <Banner tone="error" data-testid="run-error">
      <span data-testid="run-error-message">{run.error ?? 'The run failed.'}</span>
      {run.hint && (
        <span className="pg-hint" data-testid="run-error-hint">
          {run.hint}
        </span>
      )}
    </Banner>
  );
}

/** The panel's earlier runs, newest first. */
export function RunsList({ runs, onReveal }: { runs: RunRecord[]; onReveal: (runId: string) => void }) {
  return (
    <ol className="pg-runs" data-testid="runs">
      {runs.map((run) => (
        <li key={run.runId} className="pg-run" data-testid="past-run">
          <div className="pg-run-head">
            <OutcomeBadge outcome={run.outcome} />
            <span className="lsw-muted">{new Date(run.at).toLocaleTimeString()}</span>
            {run.chat && <span className="lsw-muted">chat</span>}
            <RunFacts run={run} />
            <TraceLine trace={run.trace} onReveal={() => onReveal(run.runId)} />
          </div>
          {run.followUp !== null && (
            <p className="pg-run-followup">
              <span className="lsw-muted">You: </span>
              <bdi>{run.followUp.length > 200 ? `${run.followUp.slice(0, 200)}…` : run.followUp}</bdi>
            </p>
          )}
          {run.answer ? (
            <CollapsibleText lines={2} label="this answer" data-testid="run-answer">
              {run.truncated ? `${run.answer}…` : run.answer}
            </CollapsibleText>
          ) : (
            <p className="lsw-muted pg-run-empty">{run.outcome === 'error' ? run.error ?? 'No answer.' : 'No answer.'}</p>
          )}
        </li>
      ))}
    </ol>
  );
}
