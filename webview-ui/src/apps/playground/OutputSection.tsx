// The answer (or, in chat mode, the conversation with its session), the run / send / stop button with what the
// run is doing, and what went wrong or happened out of sight.
import type { ReactNode } from 'react';
import type { SessionInfo } from '../../../../src/protocol/playground';
import { Banner, Button, ProgressRing, TextButton, ToggleButton } from '../../common/components';
import { rowsFor, shortId, type ActiveRun, type RunRecord } from './model';
import { OutcomeBadge, RunError, RunFacts, TraceLine } from './RunView';

export interface OutputProps {
  chat: boolean;
  onChat: (chat: boolean) => void;
  session: SessionInfo;
  onNewSession: () => void;
  resettingSession: boolean;
  /** The run in flight and its answer so far. */
  active: ActiveRun | null;
  live: string;
  /** The last run, while it applies to what is on screen. */
  shown: RunRecord | undefined;
  onReveal: (runId: string) => void;
  /** The next turn of a conversation is a message, not a run. */
  conversing: boolean;
  message: string;
  onMessage: (text: string) => void;
  /** Send or Stop with what the run is doing, under the message box (while conversing); else they sit with the inputs. */
  actions: ReactNode;
  error: string | undefined;
  notice: string | undefined;
}

/** Run (or Send, or Stop) and what the run is doing, or why it cannot start. */
export interface RunActionsProps {
  active: ActiveRun | null;
  /** The next turn of a conversation is a message, not a run. */
  conversing: boolean;
  message: string;
  canRun: boolean;
  /** Why Run is disabled, when it is. */
  why: string | undefined;
  onRun: () => void;
  onSend: () => void;
  onStop: () => void;
  stopping: boolean;
}

export function RunActions(p: RunActionsProps) {
  const { active, conversing, message } = p;
  return (
    <div className="pg-actions" data-testid="run-actions">
      {active ? (
        <Button key="stop" appearance="secondary" onClick={p.onStop} disabled={!active.runId || p.stopping} data-testid="stop">
          Stop
        </Button>
      ) : conversing ? (
        <Button key="send" onClick={p.onSend} disabled={!p.canRun || !message.trim()} data-testid="send" title="Send (Ctrl+Enter)">
          Send
        </Button>
      ) : (
        <Button key="run" onClick={p.onRun} disabled={!p.canRun} data-testid="run" title="Run (Ctrl+Enter)">
          Run
        </Button>
      )}
      {active && (
        <span className="pg-running" data-testid="running">
          <ProgressRing />
          <span className="lsw-muted">{active.runId ? 'Running…' : 'Starting…'}</span>
        </span>
      )}
      {p.why && !active && (
        <span className="lsw-muted" data-testid="why-disabled">
          {p.why}
        </span>
      )}
    </div>
  );
}

export function OutputSection(p: OutputProps) {
  const { chat, session, active, live, shown, conversing, message } = p;
  // A stopped or failed turn's partial answer, when the session did not keep it.
  const lastTurn = session.turns[session.turns.length - 1];
  const partial = chat && shown && shown.outcome !== 'done' && shown.answer && !(lastTurn?.role === 'ai' && lastTurn.content === shown.answer) ? shown : undefined;

  const outcomeLine = shown && (
    <div className="pg-outcome" data-testid="outcome-line">
      <OutcomeBadge outcome={shown.outcome} />
      <RunFacts run={shown} />
      <TraceLine trace={shown.trace} onReveal={() => p.onReveal(shown.runId)} />
    </div>
  );

  return (
    <section className="pg-section" aria-labelledby="pg-output-h">
      <div className="pg-output-head">
        <h3 id="pg-output-h">{chat ? 'Conversation' : 'Answer'}</h3>
        {chat && (
          <span className="lsw-muted pg-session" data-testid="session">
            session{' '}
            <span className="lsw-mono" title={session.id} data-testid="session-id">
              {shortId(session.id)}
            </span>{' '}
            <TextButton onClick={p.onNewSession} disabled={!!active || p.resettingSession} data-testid="new-session">
              New session
            </TextButton>
          </span>
        )}
        <ToggleButton
          pressed={chat}
          onToggle={(next) => !active && p.onChat(next)}
          title={active ? 'Stop the run to switch modes' : 'Chat: each run is a turn of the conversation'}
          data-testid="chat-toggle"
        >
          Chat
        </ToggleButton>
      </div>

      {chat && (
        <>
          <ol className="pg-turns" aria-live="polite" aria-label="Conversation" data-testid="conversation">
            {session.turns.map((t, i) => (
              <li key={i} className={`pg-turn pg-turn-${t.role}`} data-testid="turn" data-role={t.role}>
                <span className="pg-turn-role">{t.role === 'human' ? 'human' : 'ai'}</span>
                <div className="pg-turn-text">{t.content}</div>
              </li>
            ))}
            {partial && (
              <li key={session.turns.length} className="pg-turn pg-turn-ai pg-turn-partial" data-testid="partial-turn">
                <span className="pg-turn-role">ai · {partial.outcome}</span>
                <div className="pg-turn-text">{partial.answer}</div>
              </li>
            )}
            {active?.followUp != null && (
              <li key={session.turns.length} className="pg-turn pg-turn-human" data-testid="live-turn" data-role="human">
                <span className="pg-turn-role">human</span>
                <div className="pg-turn-text">{active.followUp}</div>
              </li>
            )}
            {active && (
              <li key={session.turns.length + (active.followUp != null ? 1 : 0)} className="pg-turn pg-turn-ai" data-testid="live-turn" data-role="ai">
                <span className="pg-turn-role">ai</span>
                <div className="pg-turn-text" data-testid="answer">
                  {live || <span className="lsw-muted">…</span>}
                </div>
              </li>
            )}
          </ol>
          {!session.turns.length && !active && !partial && (
            <p className="lsw-muted" data-testid="no-turns">
              Run the prompt to start the conversation, then send follow-up messages.
            </p>
          )}
          {outcomeLine}
          {shown && <RunError run={shown} />}
        </>
      )}

      {conversing ? (
        <div className="pg-composer">
          <label htmlFor="pg-message" className="lsw-field-label">
            Message
          </label>
          <textarea
            id="pg-message"
            className="lsw-input pg-textarea"
            rows={rowsFor(message, 2, 10)}
            value={message}
            maxLength={1_000_000}
            placeholder="A follow-up message (Ctrl+Enter sends)"
            onChange={(e) => p.onMessage(e.target.value)}
            data-testid="message-input"
          />
          {p.actions}
        </div>
      ) : null}

      {p.error && (
        <Banner tone="error" data-testid="error">
          {p.error}
        </Banner>
      )}
      {p.notice && (
        <Banner tone="info" data-testid="notice">
          {p.notice}
        </Banner>
      )}

      {!chat && (
        <pre className={`pg-text pg-answer ${active || shown?.answer ? '' : 'pg-answer-empty'}`} aria-live="polite" aria-label="Answer" data-testid="answer">
          {active ? live : (shown?.answer ?? '')}
        </pre>
      )}
      {!chat && !active && !shown && (
        <p className="lsw-muted" data-testid="no-answer">
          Run the prompt to see the model’s answer here.
        </p>
      )}
      {!chat && outcomeLine}
      {!chat && shown && <RunError run={shown} />}
    </section>
  );
}
