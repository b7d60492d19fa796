import { useId } from 'react';

/**
 * A JSON text field: monospace, its error (or errors) under it and announced, tied to it for screen readers.
 * The text is the user's; the caller parses and checks it.
 */
export function JsonField({
  label,
  value,
  onChange,
  errors = [],
  hint,
  rows = 8,
  ...rest
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  errors?: string[];
  hint?: string;
  rows?: number;
  'data-testid'?: string;
}) {
  const id = useId();
  return (
    <div className="lsw-field" data-testid={rest['data-testid']}>
      <label htmlFor={id} className="lsw-field-label">
        {label}
        {hint && <span className="lsw-field-hint"> {hint}</span>}
      </label>
      <textarea
        id={id}
        className="lsw-json"
        value={value}
        rows={rows}
        spellCheck={false}
        aria-invalid={errors.length > 0}
        aria-describedby={errors.length ? `${id}-errors` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {errors.length > 0 && (
        <ul id={`${id}-errors`} className="lsw-field-errors" role="alert">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
