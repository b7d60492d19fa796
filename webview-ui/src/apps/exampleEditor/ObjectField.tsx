import { useId } from 'react';
import { TextButton } from '../../common/components';
import { rowsFor, type FieldText } from './fields';

/**
 * Inputs or outputs: one field per top-level key (a string as text with real line breaks, any other value as JSON),
 * or the whole object as JSON. The texts are the user's; the caller parses and checks them.
 */
export function ObjectField({
  label,
  hint,
  json,
  fields,
  errors,
  fieldErrors,
  canEditAsFields,
  onJson,
  onFields,
  onEditAsJson,
  onEditAsFields,
  ...rest
}: {
  label: string;
  hint?: string;
  /** The object as JSON text (shown when there are no fields). */
  json: string;
  fields: FieldText[] | null;
  /** Errors of the whole object: its JSON, the dataset's schema (those about one field shown under it). */
  errors: string[];
  /** Errors of single fields, by key. */
  fieldErrors: Map<string, string>;
  /** Why the object cannot be shown field by field, or null when it can. */
  canEditAsFields: string | null;
  onJson: (text: string) => void;
  onFields: (fields: FieldText[]) => void;
  onEditAsJson: () => void;
  onEditAsFields: () => void;
  'data-testid': string;
}) {
  const id = useId();
  const testid = rest['data-testid'];
  // Shown field by field, a schema error about one field ("inputs.currency: …") goes under that field.
  const prefix = `${label.toLowerCase()}.`;
  const keyed = new Map<string, string[]>();
  const general: string[] = [];
  for (const e of errors) {
    const key = fields?.map((f) => f.key).find((k) => e.startsWith(`${prefix}${k}:`) || e.startsWith(`${prefix}${k}.`));
    if (key === undefined) general.push(e);
    else keyed.set(key, [...(keyed.get(key) ?? []), e]);
  }
  const switchError = fields && fieldErrors.size ? 'Fix the fields marked below to edit as JSON.' : !fields ? canEditAsFields : null;
  return (
    <section className="lsw-field lsw-object" aria-labelledby={`${id}-label`} data-testid={testid}>
      <div className="lsw-object-head">
        {fields ? (
          <h3 id={`${id}-label`} className="lsw-field-label">
            {label}
            {hint && <span className="lsw-field-hint"> {hint}</span>}
          </h3>
        ) : (
          <label id={`${id}-label`} htmlFor={`${id}-json`} className="lsw-field-label">
            {label}
            {hint && <span className="lsw-field-hint"> {hint}</span>}
          </label>
        )}
        <TextButton data-testid={`${testid}-view`} disabled={switchError !== null} title={switchError ?? undefined} onClick={fields ? onEditAsJson : onEditAsFields}>
          {fields ? 'Edit as JSON' : 'Edit as Fields'}
        </TextButton>
      </div>
      {fields ? (
        fields.map((field, i) => {
          const own = fieldErrors.get(field.key);
          const fieldErrorList = [...(own !== undefined ? [own] : []), ...(keyed.get(field.key) ?? [])];
          const fieldId = `${id}-${i}`;
          return (
            <div key={field.key} className="lsw-subfield" data-testid={`${testid}-field`} data-key={field.key}>
              <label htmlFor={fieldId} className="lsw-subfield-label">
                <span className="lsw-subfield-key">{field.key}</span>
                <span className="lsw-muted"> {field.kind === 'text' ? (field.crlf ? 'text · CRLF line breaks' : 'text') : 'JSON'}</span>
              </label>
              <textarea
                id={fieldId}
                className={field.kind === 'text' ? 'lsw-json lsw-text' : 'lsw-json'}
                value={field.text}
                rows={rowsFor(field.text)}
                spellCheck={false}
                aria-invalid={fieldErrorList.length > 0}
                aria-describedby={fieldErrorList.length ? `${fieldId}-error` : undefined}
                onChange={(e) => onFields(fields.map((f, j) => (j === i ? { ...f, text: e.target.value } : f)))}
              />
              {fieldErrorList.length > 0 && (
                <ul id={`${fieldId}-error`} className="lsw-field-errors" role="alert">
                  {fieldErrorList.map((e) => (
                    <li key={e}>{e}</li>
                  ))}
                </ul>
              )}
            </div>
          );
        })
      ) : (
        <textarea
          id={`${id}-json`}
          className="lsw-json"
          value={json}
          rows={8}
          spellCheck={false}
          aria-invalid={general.length > 0}
          aria-describedby={general.length ? `${id}-errors` : undefined}
          onChange={(e) => onJson(e.target.value)}
        />
      )}
      {general.length > 0 && (
        <ul id={`${id}-errors`} className="lsw-field-errors" role="alert">
          {general.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
