// The trace's header: the root run, its totals, links to its project and thread, and what can be done with the
// trace and the selected run (each an `Act` request; the host asks what else it needs with its own pickers).
import { useEffect, useState } from 'react';
import { Act, type RunRow, type TraceAction, type TraceHeader } from '../../../../src/protocol/trace';
import { useRequest } from '../../common/app';
import { Banner, TextButton } from '../../common/components';
import { duration, formatCost, formatCount, formatDuration, formatTime } from '../../common/run/format';

const STATUS_LABEL = { success: 'Success', error: 'Error', pending: 'Running' } as const;
const MESSAGE_MS = 4000;
const ACT_TIMEOUT_MS = 10 * 60_000;

/** Acts on a run and shows what came of it: a brief message, or the error. */
export function useAct(onShareUrl?: (url: string | null) => void) {
  const act = useRequest(Act);
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (message === undefined) return undefined;
    const timer = setTimeout(() => setMessage(undefined), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [message]);
  async function run(action: TraceAction, runId: string) {
    setError(undefined);
    setMessage(undefined);
    // The host may ask with its own pickers (a queue, a dataset): give the person time.
    const result = await act.run({ action, runId }, { timeoutMs: ACT_TIMEOUT_MS });
    if (!result.ok) {
      if (result.error.code !== 'cancelled') setError(result.error.message);
      return;
    }
    if (result.value.shareUrl !== undefined) onShareUrl?.(result.value.shareUrl);
    if (result.value.message) setMessage(result.value.message);
  }
  return { run, message, error, pending: act.pending };
}

export function Header({ header, selected, onShareUrl }: { header: TraceHeader; selected: RunRow | undefined; onShareUrl(url: string | null): void }) {
  const act = useAct(onShareUrl);
  const root = header.rootRunId;
  const runId = selected?.id ?? root;
  const cost = formatCost(header.cost);
  const t = header.tokens;
  const [more, setMore] = useState(false);
  /** Secondary actions fold behind "More…" on a narrow panel (the stylesheet decides). */
  const button = (action: TraceAction, label: string, id = runId, secondary = false) => (
    <TextButton
      key={action}
      className={secondary ? 'tv-action tv-action-secondary' : 'tv-action'}
      onClick={() => void act.run(action, id)}
      disabled={act.pending}
      data-testid={`act-${action}`}
    >
      {label}
    </TextButton>
  );
  const actions = header.readOnly
    ? [button('copyId', 'Copy ID'), header.shareUrl !== null || header.readOnly ? button('copyPublicLink', 'Copy Public Link', root) : null]
    : [
        header.shareUrl === null ? button('share', 'Share', root) : [button('copyPublicLink', 'Copy Public Link', root), button('unshare', 'Stop Sharing', root)],
        button('openInLangSmith', 'Open in LangSmith'),
        selected?.runType.toLowerCase() === 'llm' ? button('openInPlayground', 'Open in Playground') : null,
        button('addToQueue', 'Add to Annotation Queue…', runId, true),
        button('addToDataset', 'Add to Dataset…', runId, true),
        button('copyId', 'Copy ID', runId, true),
        button('openRawJson', 'Open Raw JSON', runId, true),
        <TextButton key="more" className="tv-more" aria-expanded={more} onClick={() => setMore(!more)} data-testid="more-actions">
          {more ? 'Fewer' : 'More…'}
        </TextButton>,
      ];
  return (
    <header className="tv-header">
      <h1 className="tv-title">
        <span className="tv-title-name" data-testid="trace-name">
          {header.name || '(no name)'}
        </span>
        <span className={`tv-badge tv-badge-${header.status}`} data-testid="trace-status">
          {STATUS_LABEL[header.status]}
        </span>
      </h1>
      <dl className="tv-facts">
        {header.start !== null && <Fact label="Started" value={formatTime(header.start)} />}
        <Fact label="Latency" value={formatDuration(duration(header.start, header.end)) || (header.status === 'pending' ? 'running' : '–')} testId="latency" />
        <Fact label="Tokens" value={`${formatCount(t.prompt)} prompt / ${formatCount(t.completion)} completion / ${formatCount(t.total)} total`} testId="tokens" />
        {cost !== undefined && <Fact label="Cost" value={cost} testId="cost" />}
        {/* A shared trace is read by its token: its project and thread are not the workspace's to open. */}
        {header.project && (
          <div className="tv-fact">
            <dt>Project</dt>
            <dd>
              {header.readOnly ? (
                header.project.name
              ) : (
                <TextButton onClick={() => void act.run('openProject', root)} data-testid="project-link">
                  {header.project.name}
                </TextButton>
              )}
            </dd>
          </div>
        )}
        {header.threadId !== null && (
          <div className="tv-fact">
            <dt>Thread</dt>
            <dd>
              {header.readOnly ? (
                header.threadId
              ) : (
                <TextButton onClick={() => void act.run('openThread', root)} data-testid="thread-link">
                  {header.threadId}
                </TextButton>
              )}
            </dd>
          </div>
        )}
      </dl>
      <div className={more ? 'tv-actions tv-actions-open' : 'tv-actions'} role="toolbar" aria-label="Trace actions">
        {actions}
      </div>
      <ActResult message={act.message} error={act.error} />
    </header>
  );
}

export function ActResult({ message, error }: { message: string | undefined; error: string | undefined }) {
  return (
    <>
      <div className="tv-status-line" role="status" data-testid="act-message">
        {message ?? ''}
      </div>
      {error !== undefined && (
        <Banner tone="error" data-testid="act-error">
          {error}
        </Banner>
      )}
    </>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="tv-fact">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
