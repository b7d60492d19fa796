// A field per variable of the prompt, with the problem the host found in a value under its field.
import { own, rowsFor } from './model';

export interface InputsProps {
  variables: readonly string[];
  /** Whether the prompt could be read (the variables come from it). */
  hasPrompt: boolean;
  valueOf: (name: string) => string;
  fieldErrors: Record<string, string>;
  onChange: (name: string, text: string) => void;
}

export function InputsSection({ variables, hasPrompt, valueOf, fieldErrors, onChange }: InputsProps) {
  return (
    <section className="pg-section" aria-labelledby="pg-inputs-h">
      <h3 id="pg-inputs-h">Inputs</h3>
      {!variables.length && <p className="lsw-muted">{hasPrompt ? 'The prompt has no variables.' : 'The inputs show once the prompt can be read; what you typed is kept.'}</p>}
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
              onChange={(e) => onChange(name, e.target.value)}
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
  );
}
