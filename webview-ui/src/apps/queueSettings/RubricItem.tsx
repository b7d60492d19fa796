// One rubric item: its feedback key (typed, with the workspace's keys as suggestions), description, Required,
// the key's feedback config (the workspace's: shared by every queue using the key) and what each score or
// category means for this queue.
import { useId } from 'react';
import { Button, TextButton } from '../../common/components';
import type { ConfigDraft, ConfigType, ItemDraft } from './model';

export function FieldErrors({ id, messages }: { id: string; messages: string[] }) {
  if (!messages.length) return null;
  return (
    <ul id={id} className="lsw-field-errors">
      {messages.map((m, i) => (
        <li key={i} data-testid="field-error">
          {m}
        </li>
      ))}
    </ul>
  );
}

/** aria props of a control with (or without) errors under it. */
export const invalid = (errorsId: string, messages: string[]) => ({
  'aria-invalid': messages.length > 0,
  'aria-describedby': messages.length ? errorsId : undefined,
});

export interface ItemErrors {
  key: string[];
  scores: string[];
  config: string[];
}

export function RubricItem({
  item,
  index,
  count,
  config,
  known,
  configChanged,
  errors,
  suggestions,
  onItem,
  onKey,
  onConfig,
  onLabel,
  onMove,
  onRemove,
}: {
  item: ItemDraft;
  index: number;
  count: number;
  config: ConfigDraft;
  /** The workspace has a config for this key. */
  known: boolean;
  configChanged: boolean;
  errors: ItemErrors;
  suggestions: string;
  onItem: (next: ItemDraft) => void;
  onKey: (key: string) => void;
  onConfig: (next: ConfigDraft) => void;
  /** A category's label changed: its descriptions follow it. */
  onLabel: (categoryIndex: number, label: string) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const key = item.key.trim();
  const name = key ? `“${key}”` : `item ${index + 1}`;
  const set = (patch: Partial<ItemDraft>) => onItem({ ...item, ...patch });
  const setConfig = (patch: Partial<ConfigDraft>) => onConfig({ ...config, ...patch });
  const valueOf = (label: string) => item.values.find((v) => v.label === label)?.description ?? '';
  const setValue = (label: string, description: string) =>
    set({ values: [...item.values.filter((v) => v.label !== label), { label, description }] });

  return (
    <li className="qs-item" data-testid="rubric-item" data-key={key} data-item-id={item.id} aria-labelledby={`${id}-title`}>
      <div className="qs-item-head">
        <h4 id={`${id}-title`} className="qs-item-title">
          {index + 1}. <span className="lsw-mono">{key || 'New item'}</span>
        </h4>
        <span className="qs-item-actions">
          <TextButton data-action="up" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
            Up
          </TextButton>
          <TextButton data-action="down" aria-label={`Move ${name} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
            Down
          </TextButton>
          <TextButton data-action="remove" aria-label={`Remove ${name}`} data-testid="remove-rubric-item" onClick={onRemove}>
            Remove
          </TextButton>
        </span>
      </div>

      <div className="qs-grid">
        <label className="lsw-field-label" htmlFor={`${id}-key`}>
          Feedback key
        </label>
        <div>
          <input
            id={`${id}-key`}
            className="lsw-input qs-wide lsw-mono"
            list={suggestions}
            maxLength={180}
            value={item.key}
            placeholder="e.g. correctness"
            data-testid="rubric-key"
            onChange={(e) => onKey(e.target.value)}
            {...invalid(`${id}-key-errors`, errors.key)}
          />
          <FieldErrors id={`${id}-key-errors`} messages={errors.key} />
        </div>

        <label className="lsw-field-label" htmlFor={`${id}-description`}>
          Description <span className="lsw-muted">(optional)</span>
        </label>
        <textarea
          id={`${id}-description`}
          className="lsw-input qs-wide qs-textarea"
          rows={2}
          maxLength={10_000}
          value={item.description}
          data-testid="rubric-description"
          onChange={(e) => set({ description: e.target.value })}
        />
      </div>

      <label className="qs-check">
        <input type="checkbox" checked={item.required} data-testid="rubric-required" onChange={(e) => set({ required: e.target.checked })} /> Required (a review cannot be
        done without it)
      </label>

      {key && (
        <fieldset className="qs-config" aria-describedby={errors.config.length ? `${id}-config-errors` : undefined}>
          <legend>
            Feedback config of <span className="lsw-mono">{key}</span>
          </legend>
          <p className="lsw-muted qs-note" data-testid={known ? 'config-shared-note' : 'config-new-note'}>
            {known
              ? `This config is the workspace’s: a change applies to every queue that uses “${key}”.${configChanged ? ' Changed here; written on Save.' : ''}`
              : `“${key}” is a new feedback key: its config is created on Save (it starts as categories 0 = no, 1 = yes).`}
          </p>
          <div className="qs-inline">
            <label htmlFor={`${id}-type`}>Type</label>
            <select id={`${id}-type`} className="lsw-input" value={config.type} data-testid="config-type" onChange={(e) => setConfig({ type: e.target.value as ConfigType })}>
              <option value="continuous">Continuous (a score within a range)</option>
              <option value="categorical">Categorical (one of some categories)</option>
              <option value="freeform">Freeform (text)</option>
            </select>
            {config.type !== 'freeform' && (
              <label className="qs-check">
                <input type="checkbox" checked={config.lowerIsBetter} data-testid="config-lower-better" onChange={(e) => setConfig({ lowerIsBetter: e.target.checked })} /> Lower is
                better
              </label>
            )}
          </div>

          {config.type === 'continuous' && (
            <>
              <div className="qs-inline">
                <label htmlFor={`${id}-min`}>Minimum</label>
                <input id={`${id}-min`} className="lsw-input qs-number" type="number" step="any" value={config.min} data-testid="config-min" onChange={(e) => setConfig({ min: e.target.value })} />
                <label htmlFor={`${id}-max`}>Maximum</label>
                <input id={`${id}-max`} className="lsw-input qs-number" type="number" step="any" value={config.max} data-testid="config-max" onChange={(e) => setConfig({ max: e.target.value })} />
              </div>
              <FieldErrors id={`${id}-config-errors`} messages={errors.config} />
              <ScoreDescriptions id={id} item={item} errors={errors.scores} onChange={(scores) => set({ scores })} />
            </>
          )}

          {config.type === 'categorical' && (
            <>
              <p className="qs-subhead" id={`${id}-categories-label`}>
                Categories <span className="lsw-muted">(a score, its label, and what it means in this queue)</span>
              </p>
              <ul className="qs-rows" aria-labelledby={`${id}-categories-label`}>
                {config.categories.map((c, i) => (
                  <li key={i} className="qs-inline qs-category" data-testid="category-row">
                    <input
                      className="lsw-input qs-number"
                      type="number"
                      step="any"
                      aria-label={`Score of category ${i + 1}`}
                      value={c.value}
                      data-testid="category-value"
                      onChange={(e) => setConfig({ categories: config.categories.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)) })}
                    />
                    <input
                      className="lsw-input qs-label"
                      aria-label={`Label of category ${i + 1}`}
                      placeholder="Label"
                      maxLength={2000}
                      value={c.label}
                      data-testid="category-label"
                      onChange={(e) => onLabel(i, e.target.value)}
                    />
                    <input
                      className="lsw-input qs-label"
                      aria-label={`What “${c.label || `category ${i + 1}`}” means in this queue`}
                      maxLength={2000}
                      placeholder={c.label ? 'What it means here (optional)' : 'Give it a label first'}
                      disabled={!c.label}
                      value={valueOf(c.label)}
                      data-testid="category-description"
                      onChange={(e) => setValue(c.label, e.target.value)}
                    />
                    <TextButton aria-label={`Remove category ${i + 1}${c.label ? ` (${c.label})` : ''}`} onClick={() => setConfig({ categories: config.categories.filter((_, j) => j !== i) })}>
                      Remove
                    </TextButton>
                  </li>
                ))}
              </ul>
              <FieldErrors id={`${id}-config-errors`} messages={errors.config} />
              <Button
                appearance="secondary"
                data-testid="add-category"
                onClick={() => {
                  const values = config.categories.map((c) => Number(c.value)).filter(Number.isFinite);
                  const next = values.length ? Math.max(...values) + 1 : 0;
                  setConfig({ categories: [...config.categories, { value: String(next), label: '' }] });
                }}
              >
                Add Category
              </Button>
            </>
          )}

          {config.type === 'freeform' && (
            <>
              <p className="lsw-muted">Reviewers write text for this key.</p>
              <FieldErrors id={`${id}-config-errors`} messages={errors.config} />
            </>
          )}
        </fieldset>
      )}
    </li>
  );
}

function ScoreDescriptions({ id, item, errors, onChange }: { id: string; item: ItemDraft; errors: string[]; onChange: (scores: ItemDraft['scores']) => void }) {
  const rows = item.scores;
  const set = (i: number, patch: Partial<ItemDraft['scores'][number]>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="qs-scores" role="group" aria-labelledby={`${id}-scores-label`}>
      <p id={`${id}-scores-label`} className="qs-subhead">
        What scores mean in this queue <span className="lsw-muted">(optional)</span>
      </p>
      <ul className="qs-rows">
        {rows.map((r, i) => (
          <li key={i} className="qs-inline" data-testid="score-row">
            <input
              className="lsw-input qs-number"
              aria-label={`Score ${i + 1}`}
              placeholder="e.g. 0.5"
              maxLength={50}
              value={r.score}
              data-testid="score-value"
              onChange={(e) => set(i, { score: e.target.value })}
              {...invalid(`${id}-score-errors`, errors)}
            />
            <input
              className="lsw-input qs-label"
              aria-label={`What score ${r.score.trim() || i + 1} means`}
              placeholder="What it means here"
              maxLength={2000}
              value={r.description}
              data-testid="score-description"
              onChange={(e) => set(i, { description: e.target.value })}
            />
            <TextButton aria-label={`Remove the description of score ${r.score.trim() || i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              Remove
            </TextButton>
          </li>
        ))}
      </ul>
      <FieldErrors id={`${id}-score-errors`} messages={errors} />
      <TextButton data-testid="add-score" onClick={() => onChange([...rows, { score: '', description: '' }])}>
        Describe a score
      </TextButton>
    </div>
  );
}
