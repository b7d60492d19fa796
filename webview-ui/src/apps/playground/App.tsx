// The playground page: it composes the sections and holds what the user owns (values, model fields, the mode,
// the message being written); a run's life is in useRun.
import { useState, type KeyboardEvent } from 'react';
import { ConfigureModel, FlushTraces, OpenSource, PlaygroundChanged, ResetSession, RevealTrace, type ModelSettings, type PlaygroundState } from '../../../../src/protocol/playground';
import { useAppState, useDraft, useNotification, useRequest } from '../../common/app';
import { Banner } from '../../common/components';
import { Header } from './Header';
import { InputsSection } from './InputsSection';
import { checkMaxTokens, checkModel, checkTemperature, modelTexts, NO_MODEL_EDITS, own, plural, variableOf, type ModelEdits } from './model';
import { OutputSection, RunActions, type RunActionsProps } from './OutputSection';
import { PromptView } from './PromptView';
import { RunsList } from './RunView';
import { SettingsSection } from './SettingsSection';
import { useRun } from './useRun';

/** Ctrl+Enter, or Cmd+Enter on a Mac. */
const isRunKey = (e: KeyboardEvent) => e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;

export function App() {
  const [state, setState] = useAppState<PlaygroundState>();
  const { prompt, endpoint, session } = state;
  const variables = prompt?.variables ?? [];

  // What the user owns: values, model fields, the mode, the message being written.
  const [values, setValues] = useDraft<Record<string, string>>('values', {});
  const [edits, setEdits] = useDraft<ModelEdits>('model', NO_MODEL_EDITS);
  const [chat, setChat] = useDraft<boolean>('chat', false);
  const [message, setMessage] = useDraft<string>('message', '');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const resetSession = useRequest(ResetSession);
  const revealTrace = useRequest(RevealTrace);
  const configureModel = useRequest(ConfigureModel);
  const flushTraces = useRequest(FlushTraces);
  const openSource = useRequest(OpenSource);

  /** A run the host refused: at the field it names, else in the error area. */
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

  const run = useRun({ state, setState, message, setMessage, onRefused: runFailed, onError: setError, onNotice: setNotice });
  const { runs, active } = run;

  const valueOf = (name: string) => own(values, name) ?? own(state.values, name) ?? '';
  const texts = modelTexts(edits, state.model);
  const modelCheck = checkModel(texts.model);
  const temperatureCheck = checkTemperature(texts.temperature);
  const maxTokensCheck = checkMaxTokens(texts.maxTokens);
  // An empty number field uses the prompt's own setting, else the model's default (not sent).
  const promptSettings = state.promptSettings ?? { temperature: null, maxTokens: null };
  const settings: ModelSettings | null =
    modelCheck.ok && temperatureCheck.ok && maxTokensCheck.ok
      ? { model: modelCheck.value, temperature: temperatureCheck.value ?? promptSettings.temperature, maxTokens: maxTokensCheck.value ?? promptSettings.maxTokens }
      : null;

  const conversing = chat && session.turns.length > 0;
  const why = !prompt
    ? undefined // the problem is shown above
    : !endpoint.url
      ? 'Configure a model endpoint to run the prompt.'
      : !settings
        ? 'Fix the model settings first.'
        : undefined;
  const canRun = !!prompt && !!endpoint.url && !!settings && !active;

  useNotification(PlaygroundChanged, (next) => {
    // What the fields show stays theirs, even where the host's remembered values change under them.
    const missing = variables.filter((v) => own(values, v) === undefined && own(state.values, v) !== undefined && own(next.values, v) !== own(state.values, v));
    if (missing.length) setValues({ ...values, ...Object.fromEntries(missing.map((v) => [v, own(state.values, v)!])) });
    setState(() => next);
  });

  function start(followUp: string | null) {
    if (run.isRunning() || !canRun || !settings) return;
    setError(undefined);
    setNotice(undefined);
    setFieldErrors({});
    void run.start({ values: Object.fromEntries(variables.map((v) => [v, valueOf(v)])), model: settings, chat, followUp: chat ? followUp : null }, followUp);
  }

  const send = () => {
    if (message.trim()) start(message);
  };
  /** What Ctrl/Cmd+Enter does: the next turn of the conversation, or a run. */
  const primary = () => (conversing ? send() : start(null));

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

  const runProps: RunActionsProps = {
    active,
    conversing,
    message,
    canRun,
    why,
    onRun: () => start(null),
    onSend: send,
    onStop: () => void run.stop(),
    stopping: run.stopping,
  };

  return (
    <main className="lsw-page pg" data-testid="playground" onKeyDown={onKeyDown}>
      <Header state={state} onOpenFile={() => void act(openSource.run({}))} />

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

      <SettingsSection
        state={state}
        texts={texts}
        checks={{ model: modelCheck, temperature: temperatureCheck, maxTokens: maxTokensCheck }}
        onEdit={(patch) => setEdits({ ...edits, ...patch })}
        onConfigure={() => void act(configureModel.run({}, { timeoutMs: 600_000 }))}
        onFlush={flush}
        flushing={flushTraces.pending}
      />

      <InputsSection
        variables={variables}
        prompt={prompt}
        valueOf={valueOf}
        remembered={(name) => own(state.values, name)}
        fieldErrors={fieldErrors}
        onChange={setValue}
        actions={conversing ? undefined : <RunActions {...runProps} />}
      />

      <OutputSection
        chat={chat}
        onChat={setChat}
        session={session}
        onNewSession={newSession}
        resettingSession={resetSession.pending}
        active={active}
        live={run.live}
        shown={shown}
        onReveal={reveal}
        conversing={conversing}
        message={message}
        onMessage={setMessage}
        actions={conversing ? <RunActions {...runProps} /> : undefined}
        error={error}
        notice={notice}
      />

      {earlier.length > 0 && (
        <section className="pg-section" aria-labelledby="pg-runs-h">
          <h3 id="pg-runs-h">Earlier runs</h3>
          <RunsList runs={earlier} onReveal={reveal} />
        </section>
      )}
    </main>
  );
}
