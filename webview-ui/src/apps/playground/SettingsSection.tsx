// The model and its settings (checked as typed), the endpoint a run goes to, and where its trace goes.
import type { PlaygroundState } from '../../../../src/protocol/playground';
import { Banner, TextButton } from '../../common/components';
import { plural, type ModelEdits } from './model';

type Check = { ok: true } | { ok: false; error: string };

export interface SettingsProps {
  state: PlaygroundState;
  texts: { model: string; temperature: string; maxTokens: string };
  checks: { model: Check; temperature: Check; maxTokens: Check };
  onEdit: (patch: Partial<ModelEdits>) => void;
  onConfigure: () => void;
  onFlush: () => void;
  flushing: boolean;
}

export function SettingsSection({ state, texts, checks, onEdit, onConfigure, onFlush, flushing }: SettingsProps) {
  const { endpoint } = state;
  const promptSettings = state.promptSettings ?? { temperature: null, maxTokens: null };
  return (
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
            aria-invalid={!checks.model.ok || undefined}
            aria-describedby={!checks.model.ok ? 'pg-model-error' : undefined}
            onChange={(e) => onEdit({ model: e.target.value })}
          />
        </div>
        <NumberSetting id="pg-temperature" testId="temperature" label="Temperature" inputMode="decimal" value={texts.temperature} promptValue={promptSettings.temperature} check={checks.temperature} onChange={(v) => onEdit({ temperature: v })} />
        <NumberSetting id="pg-max-tokens" testId="max-tokens" label="Max tokens" inputMode="numeric" value={texts.maxTokens} promptValue={promptSettings.maxTokens} check={checks.maxTokens} onChange={(v) => onEdit({ maxTokens: v })} />
      </div>
      <FieldError id="pg-model-error" testId="model-error" check={checks.model} />
      <FieldError id="pg-temperature-error" testId="temperature-error" check={checks.temperature} />
      <FieldError id="pg-max-tokens-error" testId="max-tokens-error" check={checks.maxTokens} />

      {endpoint.url ? (
        <p className="pg-fact" data-testid="endpoint">
          <span className="lsw-muted">Endpoint </span>
          <bdi className="lsw-mono pg-url">{endpoint.url}</bdi>
          {endpoint.source === 'localServer' && <span className="lsw-muted"> · local server’s model</span>}
          {endpoint.source === 'setting' && <span className="lsw-muted"> · from settings</span>}
          <span className="lsw-muted" data-testid="key"> · {endpoint.hasKey ? 'key set' : 'no key'}</span>{' '}
          <TextButton onClick={onConfigure} data-testid="configure">
            Configure…
          </TextButton>
        </p>
      ) : (
        <Banner tone="warning" data-testid="no-endpoint">
          No model endpoint: set one to run the prompt.{' '}
          <TextButton onClick={onConfigure} data-testid="configure">
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
          <TextButton onClick={onFlush} disabled={flushing} data-testid="send-now">
            {flushing ? 'Sending…' : 'Send now'}
          </TextButton>
        </Banner>
      )}
    </section>
  );
}

/** What a number setting will be: the value typed, else the prompt's own setting, else the model's default. */
export function usedSetting(text: string, promptValue: number | null): string {
  const t = text.trim();
  if (t) {
    if (promptValue !== null && Number(t) === promptValue) return `Uses ${t}, the prompt’s setting`;
    return promptValue !== null ? `Uses ${t}, set here (the prompt says ${promptValue})` : `Uses ${t}, set here`;
  }
  return promptValue !== null ? `Uses ${promptValue}, the prompt’s setting` : 'Uses the model’s default (not sent)';
}

/**
 * A number of the model settings, with what a run will use under it (empty: the prompt's setting, else the
 * model's default), its problem described by `<id>-error`.
 */
function NumberSetting(p: { id: string; testId: string; label: string; inputMode: 'decimal' | 'numeric'; value: string; promptValue: number | null; check: Check; onChange: (value: string) => void }) {
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
        placeholder={p.promptValue !== null ? `${p.promptValue} (prompt)` : 'model default'}
        aria-invalid={!p.check.ok || undefined}
        aria-describedby={p.check.ok ? `${p.id}-used` : `${p.id}-error`}
        onChange={(e) => p.onChange(e.target.value)}
      />
      {p.check.ok && (
        <p id={`${p.id}-used`} className="lsw-muted pg-used" data-testid={`${p.testId}-used`}>
          {usedSetting(p.value, p.promptValue)}
        </p>
      )}
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
