// A thread's turns, oldest first: each the human's input and the AI's answer (rendered as messages where they
// are), with its latency, tokens, error and a way to open its trace. Shared by the trace viewer's thread and the
// review page's thread items.
import type { ThreadTurn } from '../../../../src/protocol/trace';
import { TextButton } from '../components';
import { aiAnswer, humanInput, type Message, type Path } from './classify';
import { duration, formatDuration, formatTime } from './format';
import { LongText, MessageView, WithPayload } from './payload';

export function ThreadTurns({ turns, onOpen }: { turns: ThreadTurn[]; onOpen(turn: ThreadTurn): void }) {
  return (
    <ol className="tv-turns">
      {turns.map((turn) => (
        <Turn key={turn.rootRunId} turn={turn} onOpen={() => onOpen(turn)} />
      ))}
    </ol>
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
