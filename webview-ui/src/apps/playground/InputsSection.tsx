// A field per variable of the prompt, with the problem the host found in a value under its field, and Run (with
// what the run is doing) under the fields it runs with.
import type { ReactNode } from 'react';
import type { PromptPreview } from '../../../../src/protocol/playground';
import { isOneLine, own, rowsFor } from './model';

export interface InputsProps {
  variables: readonly string[];
  /** The prompt (the variables come from it); null when it could not be read. */
  prompt: PromptPreview | null;
  valueOf: (name: string) => string;
  /** The value last used with this prompt, as the host remembers it. */
  remembered: (name: string) => string | undefined;
  fieldErrors: Record<string, string>;
  onChange: (name: string, text: string) => void;
  /** Run and its status; absent while a conversation goes on (Send sits under the message then). */
  actions?: ReactNode;
}

export function InputsSection({ variables, prompt, valueOf, remembered, fieldErrors, onChange, actions }: InputsProps) {
  const placeholders = new Set((prompt?.messages ?? []).filter((m) => m.role === 'placeholder').map((m) => m.template.replace(/^\{|\}( \(optional\))?$/g, '')));
  return (
    <section className="pg-section" aria-labelledby="pg-inputs-h">
      <h3 id="pg-inputs-h">Inputs</h3>
      {!variables.length && <p className="lsw-muted">{prompt ? 'The prompt has no variables.' : 'The inputs show once the prompt can be read; what you typed is kept.'}</p>}
      {variables.map((name, i) => {
        const value = valueOf(name);
        const problem = own(fieldErrors, name);
        const common = {
          id: `pg-var-${i}`,
          value,
          maxLength: 1_000_000,
          'aria-invalid': problem ? true : undefined,
          'aria-describedby': problem ? `pg-var-${i}-error` : undefined,
        } as const;
        return (
          <div className="pg-field" key={name} data-testid="variable">
            <label htmlFor={`pg-var-${i}`} className="lsw-field-label lsw-mono pg-var-label">
              <bdi>{name}</bdi>
            </label>
            {!placeholders.has(name) && isOneLine(name, remembered(name), value) ? (
              <input {...common} className="lsw-input pg-one-line" spellCheck={false} onChange={(e) => onChange(name, e.target.value)} />
            ) : (
              <textarea {...common} className="lsw-input pg-textarea" rows={rowsFor(value, 1, 12)} onChange={(e) => onChange(name, e.target.value)} />
            )}
            {problem && (
              <p id={`pg-var-${i}-error`} className="lsw-error-text pg-field-error" role="alert" data-testid="field-error">
                {problem}
              </p>
            )}
          </div>
        );
      })}
      {actions}
    </section>
  );
}
