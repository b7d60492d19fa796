// A thread: its totals, then its turns oldest first, each the human's input and the AI's answer (rendered as
// messages where they are), with its latency, tokens, error and a way to open its trace.
import type { ThreadData } from '../../../../src/protocol/trace';
import { formatCost, formatCount, formatDuration } from '../../common/run/format';
import { ActResult, useAct } from './Header';
import { ThreadTurns } from '../../common/run/turns';

export function ThreadView({ thread }: { thread: ThreadData }) {
  const act = useAct();
  const t = thread.totals;
  const cost = formatCost(t.cost);
  return (
    <main className="tv-page tv-thread-page">
      <header className="tv-header">
        <h1 className="tv-title">
          <span className="tv-muted">Thread </span>
          <span className="tv-title-name tv-mono" data-testid="thread-id">
            {thread.threadId}
          </span>
        </h1>
        <dl className="tv-facts">
          <div className="tv-fact">
            <dt>Project</dt>
            <dd>{thread.project.name}</dd>
          </div>
          <div className="tv-fact">
            <dt>Turns</dt>
            <dd data-testid="turn-count">{t.turns.toLocaleString('en-US')}</dd>
          </div>
          <div className="tv-fact">
            <dt>Latency</dt>
            <dd>
              p50 {formatDuration(t.latencyP50) || '–'} · p99 {formatDuration(t.latencyP99) || '–'}
            </dd>
          </div>
          <div className="tv-fact">
            <dt>Tokens</dt>
            <dd>{formatCount(t.tokens.total)}</dd>
          </div>
          {cost !== undefined && (
            <div className="tv-fact">
              <dt>Cost</dt>
              <dd>{cost}</dd>
            </div>
          )}
          <div className="tv-fact">
            <dt>Errored turns</dt>
            <dd className={t.erroredTurns ? 'tv-error-text' : undefined}>{t.erroredTurns.toLocaleString('en-US')}</dd>
          </div>
        </dl>
        <ActResult message={act.message} error={act.error} />
      </header>
      {thread.moreTurns > 0 && (
        <p className="tv-note" data-testid="more-turns">
          {thread.moreTurns.toLocaleString('en-US')} earlier turn{thread.moreTurns === 1 ? '' : 's'} not shown.
        </p>
      )}
      {thread.turns.length === 0 && <p className="tv-muted">This thread has no turns.</p>}
      <ThreadTurns turns={thread.turns} onOpen={(turn) => void act.run('openTrace', turn.rootRunId)} />
    </main>
  );
}
