import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type * as z from 'zod/mini';
import {
  ConfigureModel,
  FlushTraces,
  OpenSource,
  PlaygroundChanged,
  ResetSession,
  RevealTrace,
  RunDelta,
  RunFinished,
  RunPrompt,
  StopRun,
  type ModelSettings,
  type PlaygroundState,
} from '../../../../src/protocol/playground';
import { useAppState, useDraft, useNotification, useRequest } from '../../common/app';
import { Badge, Banner, Button, ProgressRing, TextButton, ToggleButton } from '../../common/components';
import {
  checkMaxTokens,
  checkModel,
  checkTemperature,
  KEPT_ANSWER,
  MAX_RUNS,
  modelTexts,
  NO_MODEL_EDITS,
  rowsFor,
  shortId,
  variableOf,
  type ActiveRun,
  type ModelEdits,
  type RunRecord,
} from './model';
import { PromptView } from './PromptView';
import { OutcomeBadge, RunError, RunFacts, RunsList, TraceLine } from './RunView';
import { useStoredState } from '../../common/hooks/useStoredState';

type Finished = z.infer<typeof RunFinished.params>;
type Early = { deltas: Map<string, string>; finished: Map<string, Finished> };
const noEarly = (): Early => ({ deltas: new Map(), finished: new Map() });
/** Ctrl+Enter, or Cmd+Enter on a Mac. */
const isRunKey = (e: KeyboardEvent) => e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/**
 * A record's own entry: variable names come from the prompt, and one named `constructor` or `__proto__` must not
 * find what every object inherits.
 */
const own = <T,>(record: Record<string, T>, name: string): T | undefined => (Object.hasOwn(record, name) ? record[name] : undefined);

export function App() {
  const [state, setState] = useAppState<PlaygroundState>();
  const { prompt, endpoint, session } = state;
  const variables = prompt?.variables ?? [];

  // What the user owns: values, model fields, the mode, the message being written, the runs so far.
  const [values, setValues] = useDraft<Record<string, string>>('values', {});
  const [edits, setEdits] = useDraft<ModelEdits>('model', NO_MODEL_EDITS);
  const [chat, setChat] = useDraft<boolean>('chat', false);
  const [message, setMessage] = useDraft<string>('message', '');
  const [runs, setRuns] = useStoredState<RunRecord[]>('runs', []);
  // A run still waiting for its id when the page went away is gone: only one with an id can still be stopped.
  const [active, setActiveState] = useStoredState<ActiveRun | null>('active', null, (a) => (a?.runId ? a : null));
  // The run in flight as the notification handlers must see it: at once, not at the next render.
  const activeRef = useRef(active);
  const setActive = (a: ActiveRun | null) => {
    activeRef.current = a;
    setActiveState(a);
  };
  /** The answer so far of the run in flight. */
  const [live, setLive] = useState('');
  /** Pieces that arrived before the host told us the run's id. */
  const early = useRef<Early>(noEarly());
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const runPrompt = useRequest(RunPrompt);
  const stopRun = useRequest(StopRun);
  const resetSession = useRequest(ResetSession);
  const revealTrace = useRequest(RevealTrace);
  const configureModel = useRequest(ConfigureModel);
  const flushTraces = useRequest(FlushTraces);
  const openSource = useRequest(OpenSource);

  const valueOf = (name: string) => own(values, name) ?? own(state.values, name) ?? '';
  const texts = modelTexts(edits, state.model);
  const modelCheck = checkModel(texts.model);
  const temperatureCheck = checkTemperature(texts.temperature);
  const maxTokensCheck = checkMaxTokens(texts.maxTokens);
  const settings: ModelSettings | null =
    modelCheck.ok && temperatureCheck.ok && maxTokensCheck.ok ? { model: modelCheck.value, temperature: temperatureCheck.value, maxTokens: maxTokensCheck.value } : null;

  const conversing = chat && session.turns.length > 0;
  const why = !prompt
    ? undefined // the problem is shown above
    : !endpoint.url
      ? 'Configure a model endpoint to run the prompt.'
      : !settings
        ? 'Fix the model settings first.'
        : undefined;
  const canRun = !!prompt && !!endpoint.url && !!settings && !active;

  // Shown again after being hidden (or after a reload): the run this page was showing may have ended meanwhile,
  // when no notification could reach it. The host's state says how it ended, or that it is still going.
  useEffect(() => {
    const a = activeRef.current;
    if (!a?.runId) return;
    const ended = state.finished.find((f) => f.runId === a.runId);
    if (ended) finish(a, ended);
    else if (!state.running.includes(a.runId)) {
      setActive(null);
      setLive('');
      setNotice('The run ended while this panel was closed.');
    }
    // Only the state the page starts with: later states come from notifications, which the handlers below follow.
  }, []);

  useNotification(PlaygroundChanged, (next) => {
    // What the fields show stays theirs, even where the host's remembered values change under them.
    const missing = variables.filter((v) => own(values, v) === undefined && own(state.values, v) !== undefined && own(next.values, v) !== own(state.values, v));
    if (missing.length) setValues({ ...values, ...Object.fromEntries(missing.map((v) => [v, own(state.values, v)!])) });
    setState(() => next);
  });

  useNotification(RunDelta, ({ runId, text }) => {
    const a = activeRef.current;
    if (!a) return;
    if (a.runId === null) {
      early.current.deltas.set(runId, (early.current.deltas.get(runId) ?? '') + text);
      return;
    }
    if (runId === a.runId) setLive((prev) => prev + text);
  });

  useNotification(RunFinished, (f) => {
    const a = activeRef.current;
    if (!a) return;
    if (a.runId === null) {
      early.current.finished.set(f.runId, f);
      return;
    }
    if (f.runId === a.runId) finish(a, f);
  });

  function finish(a: ActiveRun, f: Finished) {
    setActive(null);
    setLive('');
    setState((prev) => ({ ...prev, session: f.session, pendingTraces: f.trace.pending }));
    const record: RunRecord = {
      runId: f.runId,
      outcome: f.outcome,
      answer: f.answer.slice(0, KEPT_ANSWER),
      truncated: f.answer.length > KEPT_ANSWER,
      usage: f.usage,
      latencyMs: f.latencyMs,
      trace: f.trace,
      error: f.error,
      hint: f.hint,
      at: Date.now(),
      chat: a.chat,
      sessionId: f.session.id,
      followUp: a.followUp,
    };
    setRuns((prev) => [record, ...prev.filter((r) => r.runId !== f.runId)].slice(0, MAX_RUNS));
    // A follow-up that did not become a turn of the conversation goes back in its box: nothing typed is lost.
    if (a.followUp !== null && f.outcome !== 'done' && !message && !f.session.turns.some((t) => t.role === 'human' && t.content === a.followUp)) {
      setMessage(a.followUp);
    }
  }

  /** A request failed: at the field it names, else in the error area. */
  function runFailed(text: string) {
    const field = variableOf(text, variables);
    if (field === undefined) {
      setError(text);
      return;
    }
    setFieldErrors({ [field]: text });
    const index = variables.indexOf(field);
    requestAnimationFrame(() => document.getElementById(`pg-var-${index}`)?.focus());
  }

  async function start(followUp: string | null) {
    if (activeRef.current || !canRun || !settings) return;
    setError(undefined);
    setNotice(undefined);
    setFieldErrors({});
    const mine: ActiveRun = { runId: null, chat, followUp };
    early.current = noEarly();
    setActive(mine);
    setLive('');
    const r = await runPrompt.run({ values: Object.fromEntries(variables.map((v) => [v, valueOf(v)])), model: settings, chat, followUp: chat ? followUp : null });
    // Read again after the wait (TypeScript would keep the narrowing from before it).
    if ((activeRef.current as ActiveRun | null) !== mine) return;
    if (!r.ok) {
      setActive(null);
      if (r.error.code !== 'cancelled') runFailed(r.error.message);
      return;
    }
    const started: ActiveRun = { ...mine, runId: r.value.runId };
    setActive(started);
    if (followUp !== null) setMessage('');
    const { deltas, finished } = early.current;
    early.current = noEarly();
    const text = deltas.get(started.runId!);
    if (text) setLive(text);
    const f = finished.get(started.runId!);
    if (f) finish(started, f);
  }

  const send = () => {
    if (message.trim()) void start(message);
  };
  /** What Ctrl/Cmd+Enter does: the next turn of the conversation, or a run. */
  const primary = () => (conversing ? send() : void start(null));

  async function stop() {
    const a = activeRef.current;
    if (!a?.runId) return;
    const r = await stopRun.run({ runId: a.runId });
    if (!r.ok) {
      if (r.error.code !== 'cancelled') setError(`Could not stop the run: ${r.error.message}`);
      return;
    }
    // The host no longer knows the run: it ended while this panel could not hear it (hidden or reloaded).
    if (!r.value.stopped && activeRef.current?.runId === a.runId) {
      setActive(null);
      setLive('');
      setNotice('That run had already ended; its answer did not reach this panel. Its trace has it.');
    }
  }

  /** Runs a request whose only answer that matters is a failure. */
  async function act<T>(p: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>, then?: (value: T) => void) {
    const r = await p;
    if (r.ok) then?.(r.value);
    else if (r.error.code !== 'cancelled') setError(r.error.message);
  }

  const reveal = (runId: string) => void act(revealTrace.run({ runId }));
  const newSession = () => {
    setError(undefined);
    void act(resetSession.run({}), (s) => setState((prev) => ({ ...prev, session: s })));
  };
  const flush = () => {
    setNotice(undefined);
    void act(flushTraces.run({}, { timeoutMs: 120_000 }), ({ pending }) => {
      setState((prev) => ({ ...prev, pendingTraces: pending }));
      setNotice(pending === 0 ? 'The waiting traces were sent.' : `${plural(pending, 'trace')} still waiting: the next run tries again.`);
    });
  };

  const setValue = (name: string, text: string) => {
    setValues({ ...values, [name]: text });
    if (own(fieldErrors, name)) setFieldErrors({});
  };
  const setEdit = (patch: Partial<ModelEdits>) => setEdits({ ...edits, ...patch });
  const onKeyDown = (e: KeyboardEvent) => {
    if (!isRunKey(e)) return;
    const target = e.target as HTMLElement;
    if (target.tagName !== 'TEXTAREA' && target.tagName !== 'INPUT') return;
    e.preventDefault();
    primary();
  };

  // The last run, shown as the answer (or the conversation's status) while it applies to what is on screen.
  const last = runs[0];
  const shown = !active && last && last.chat === chat && (!chat || last.sessionId === session.id) ? last : undefined;
  const earlier = runs.filter((r) => r !== shown);
  // A stopped or failed turn's partial answer, when the session did not keep it.
  const lastTurn = session.turns[session.turns.length - 1];
  const partial = chat && shown && shown.outcome !== 'done' && shown.answer && !(lastTurn?.role === 'ai' && lastTurn.content === shown.answer) ? shown : undefined;

  const runButton = active ? (
    <Button key="stop" appearance="secondary" onClick={() => void stop()} disabled={!active.runId || stopRun.pending} data-testid="stop">
      Stop
    </Button>
  ) : conversing ? (
    <Button key="send" onClick={send} disabled={!canRun || !message.trim()} data-testid="send" title="Send (Ctrl+Enter)">
      Send
    </Button>
  ) : (
    <Button key="run" onClick={() => void start(null)} disabled={!canRun} data-testid="run" title="Run (Ctrl+Enter)">
      Run
    </Button>
  );

  const status = (
    <>
      {active && (
        <span className="pg-running" data-testid="running">
          <ProgressRing />
          <span className="lsw-muted">{active.runId ? 'Running…' : 'Starting…'}</span>
        </span>
      )}
      {why && !active && (
        <span className="lsw-muted" data-testid="why-disabled">
          {why}
        </span>
      )}
    </>
  );

  const outcomeLine = shown && (
    <div className="pg-outcome" data-testid="outcome-line">
      <OutcomeBadge outcome={shown.outcome} />
      <RunFacts run={shown} />
      <TraceLine trace={shown.trace} onReveal={() => reveal(shown.runId)} />
    </div>
  );

  return (
    <main className="lsw-page pg" data-testid="playground" onKeyDown={onKeyDown}>
      <header className="pg-header">
        <div className="pg-title-row">
          <h2 className="pg-title" data-testid="title">
            <bdi>{state.title}</bdi>
          </h2>
          <Badge data-testid="source">{state.source}</Badge>
          {state.source === 'file' && (
            <TextButton onClick={() => void act(openSource.run({}))} data-testid="open-file">
              Open file
            </TextButton>
          )}
        </div>
        {prompt && (
          <p className="lsw-muted pg-summary" data-testid="summary">
            {prompt.kind === 'chat' ? 'Chat' : 'String'} prompt · {prompt.templateFormat} · {plural(prompt.variables.length, 'variable')}
          </p>
        )}
      </header>

      {!prompt && (
        <Banner tone="error" data-testid="problem">
          {state.problem ?? 'The prompt cannot be read.'}
        </Banner>
      )}

      {prompt && (
        <section className="pg-section" aria-labelledby="pg-prompt-h">
          <h3 id="pg-prompt-h">Prompt</h3>
          <PromptView prompt={prompt} />
        </section>
      )}

      <section className="pg-section" aria-labelledby="pg-inputs-h">
        <h3 id="pg-inputs-h">Inputs</h3>
        {!variables.length && <p className="lsw-muted">{prompt ? 'The prompt has no variables.' : 'The inputs show once the prompt can be read; what you typed is kept.'}</p>}
        {variables.map((name, i) => {
          const value = valueOf(name);
          const problem = own(fieldErrors, name);
          return (
            <div className="pg-field" key={name} data-testid="variable">
              <label htmlFor={`pg-var-${i}`} className="lsw-field-label lsw-mono pg-var-label">
                <bdi>{name}</bdi>
              </label>
              <textarea
                id={`pg-var-${i}`}
                className="lsw-input pg-textarea"
                rows={rowsFor(value, 1, 12)}
                value={value}
                maxLength={1_000_000}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `pg-var-${i}-error` : undefined}
                onChange={(e) => setValue(name, e.target.value)}
              />
              {problem && (
                <p id={`pg-var-${i}-error`} className="lsw-error-text pg-field-error" role="alert" data-testid="field-error">
                  {problem}
                </p>
              )}
            </div>
          );
        })}
      </section>

      <section className="pg-section" aria-labelledby="pg-model-h">
        <h3 id="pg-model-h">Settings</h3>
        <div className="pg-model-row">
          <div className="pg-model-name">
            <label htmlFor="pg-model" className="lsw-field-label">
              Model
              {state.promptModel && (
                <span className="lsw-field-hint" data-testid="prompt-model">
                  {' '}
                  the prompt names <bdi className="lsw-mono">{state.promptModel}</bdi>
                </span>
              )}
            </label>
            <input
              id="pg-model"
              className="lsw-input pg-wide"
              value={texts.model}
              placeholder="the endpoint’s default"
              spellCheck={false}
              aria-invalid={!modelCheck.ok || undefined}
              aria-describedby={!modelCheck.ok ? 'pg-model-error' : undefined}
              onChange={(e) => setEdit({ model: e.target.value })}
            />
          </div>
          <NumberSetting id="pg-temperature" label="Temperature" inputMode="decimal" value={texts.temperature} check={temperatureCheck} onChange={(v) => setEdit({ temperature: v })} />
          <NumberSetting id="pg-max-tokens" label="Max tokens" inputMode="numeric" value={texts.maxTokens} check={maxTokensCheck} onChange={(v) => setEdit({ maxTokens: v })} />
        </div>
        <FieldError id="pg-model-error" testId="model-error" check={modelCheck} />
        <FieldError id="pg-temperature-error" testId="temperature-error" check={temperatureCheck} />
        <FieldError id="pg-max-tokens-error" testId="max-tokens-error" check={maxTokensCheck} />

        {endpoint.url ? (
          <p className="pg-fact" data-testid="endpoint">
            <span className="lsw-muted">Endpoint </span>
            <bdi className="lsw-mono pg-url">{endpoint.url}</bdi>
            {endpoint.source === 'localServer' && <span className="lsw-muted"> · local server’s model</span>}
            {endpoint.source === 'setting' && <span className="lsw-muted"> · from settings</span>}
            <span className="lsw-muted" data-testid="key"> · {endpoint.hasKey ? 'key set' : 'no key'}</span>{' '}
            <TextButton onClick={() => void act(configureModel.run({}, { timeoutMs: 600_000 }))} data-testid="configure">
              Configure…
            </TextButton>
          </p>
        ) : (
          <Banner tone="warning" data-testid="no-endpoint">
            No model endpoint: set one to run the prompt.{' '}
            <TextButton onClick={() => void act(configureModel.run({}, { timeoutMs: 600_000 }))} data-testid="configure">
              Configure…
            </TextButton>
          </Banner>
        )}
        <p className="pg-fact" data-testid="tracing">
          {state.tracing ? (
            <>
              <span className="lsw-muted">Traced to project </span>
              <bdi className="lsw-mono">{state.project}</bdi>
            </>
          ) : (
            <span className="lsw-muted">Not traced (sign in to LangSmith)</span>
          )}
        </p>
        {state.pendingTraces > 0 && (
          <Banner tone="warning" data-testid="pending-traces">
            {plural(state.pendingTraces, 'trace')} waiting to be sent to LangSmith.{' '}
            <TextButton onClick={flush} disabled={flushTraces.pending} data-testid="send-now">
              {flushTraces.pending ? 'Sending…' : 'Send now'}
            </TextButton>
          </Banner>
        )}
      </section>

      <section className="pg-section" aria-labelledby="pg-output-h">
        <div className="pg-output-head">
          <h3 id="pg-output-h">{chat ? 'Conversation' : 'Answer'}</h3>
          {chat && (
            <span className="lsw-muted pg-session" data-testid="session">
              session{' '}
              <span className="lsw-mono" title={session.id} data-testid="session-id">
                {shortId(session.id)}
              </span>{' '}
              <TextButton onClick={newSession} disabled={!!active || resetSession.pending} data-testid="new-session">
                New session
              </TextButton>
            </span>
          )}
          <ToggleButton
            pressed={chat}
            onToggle={(next) => !active && setChat(next)}
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
              onChange={(e) => setMessage(e.target.value)}
              data-testid="message-input"
            />
            <div className="pg-actions">
              {runButton}
              {status}
            </div>
          </div>
        ) : (
          <div className="pg-actions">
            {runButton}
            {status}
          </div>
        )}

        {error && (
          <Banner tone="error" data-testid="error">
            {error}
          </Banner>
        )}
        {notice && (
          <Banner tone="info" data-testid="notice">
            {notice}
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

      {earlier.length > 0 && (
        <section className="pg-section" aria-labelledby="pg-runs-h">
          <h3 id="pg-runs-h">Earlier runs</h3>
          <RunsList runs={earlier} onReveal={reveal} />
        </section>
      )}
    </main>
  );
}

type Check = { ok: true } | { ok: false; error: string };

/** A number of the model settings (empty: the endpoint's default), its problem described by `<id>-error`. */
function NumberSetting(p: { id: string; label: string; inputMode: 'decimal' | 'numeric'; value: string; check: Check; onChange: (value: string) => void }) {
  return (
    <div className="pg-model-number">
      <label htmlFor={p.id} className="lsw-field-label">
        {p.label}
      </label>
      <input
        id={p.id}
        className="lsw-input pg-wide"
        inputMode={p.inputMode}
        value={p.value}
        placeholder="default"
        aria-invalid={!p.check.ok || undefined}
        aria-describedby={!p.check.ok ? `${p.id}-error` : undefined}
        onChange={(e) => p.onChange(e.target.value)}
      />
    </div>
  );
}

/** A model setting's problem, under the fields. */
function FieldError({ id, testId, check }: { id: string; testId: string; check: Check }) {
  if (check.ok) return null;
  return (
    <p id={id} className="lsw-error-text pg-field-error" role="alert" data-testid={testId}>
      {check.error}
    </p>
  );
}
