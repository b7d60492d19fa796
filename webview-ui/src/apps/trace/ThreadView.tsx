// A thread: its totals, then its turns oldest first, each the human's input and the AI's answer (rendered as
// messages where they are), with its latency, tokens, error and a way to open its trace.
import { type ThreadData, type ThreadTurn } from '../../../../src/protocol/trace';
import { TextButton } from '../../common/components';
import { aiAnswer, humanInput, type Message, type Path } from '../../common/run/classify';
import { duration, formatCost, formatCount, formatDuration, formatTime } from '../../common/run/format';
import { ActResult, useAct } from './Header';
import { LongText, MessageView, WithPayload } from '../../common/run/payload';


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
      <ol className="tv-turns">
        {thread.turns.map((turn) => (
          <Turn key={turn.rootRunId} turn={turn} onOpen={() => void act.run('openTrace', turn.rootRunId)} />
        ))}
      </ol>
    </main>
  );
}

function Turn({ turn, onOpen }: { turn: ThreadTurn; onOpen(): void }) {
  const input = turn.inputs ? humanInput(turn.inputs.value) : undefined;
  const answer = turn.outputs ? aiAnswer(turn.outputs.value) : undefined;
  return (
    <li className={`tv-turn${turn.status === 'error' ? ' tv-turn-error' : ''}`} data-testid="turn">
      <div className="tv-turn-head">
        <span className="tv-turn-name">{turn.name}</span>
        <span className="tv-muted">{formatTime(turn.start)}</span>
        <span className="tv-muted">{formatDuration(duration(turn.start, turn.end)) || (turn.status === 'pending' ? 'running' : '')}</span>
        {!!turn.tokens.total && <span className="tv-muted">{turn.tokens.total.toLocaleString('en-US')} tokens</span>}
        <TextButton onClick={onOpen} data-testid="open-trace">
          Open trace
        </TextButton>
      </div>
      {turn.inputs && input && (
        <WithPayload payload={turn.inputs} runId={turn.rootRunId} part="inputs">
          <Said said={input} role="human" />
        </WithPayload>
      )}
      {turn.outputs && answer && (
        <WithPayload payload={turn.outputs} runId={turn.rootRunId} part="outputs">
          <Said said={answer} role="ai" />
        </WithPayload>
      )}
      {!input && !answer && <p className="tv-muted">No input or output.</p>}
      {turn.status === 'error' && (
        <p className="tv-error-text" data-testid="turn-error">
          <span aria-label="Error">✕ </span>
          {turn.errorPreview ?? 'This turn failed.'}
        </p>
      )}
    </li>
  );
}

function Said({ said, role }: { said: { message: Message } | { text: string; path: Path }; role: 'human' | 'ai' }) {
  if ('message' in said) return <MessageView message={said.message} />;
  return (
    <div className={`tv-message tv-role-${role}`} data-testid="message" data-role={role}>
      <div className="tv-message-head">
        <span className="tv-role">{role === 'human' ? 'Human' : 'AI'}</span>
      </div>
      <LongText text={said.text} path={said.path} />
    </div>
  );
}
