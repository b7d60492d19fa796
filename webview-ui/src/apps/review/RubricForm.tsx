// The review form: the queue's instructions, one control per rubric field (a slider and a number for a
// continuous score, a choice per category, a text area for freeform), a comment and a correction of the outputs.
// Every text from the server is rendered as text.
import { forwardRef, useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import type { RubricField } from '../../../../src/protocol/review';
import { TextButton } from '../../common/components';
import { parseCorrection, scale, scoreProblem, valueOf, withValue, type FieldValue, type Form } from './form';

export interface RubricFormHandle {
  /** Focuses field `i` (its group), for ↑/↓. */
  focusField(i: number): void;
  /** The field holding the focus, else the one focused last. */
  activeField(): number;
}

interface Props {
  rubric: RubricField[];
  instructions: string | null;
  form: Form;
  onChange(form: Form): void;
  /** Required fields to point at (Done was tried with them empty). */
  flagged: ReadonlySet<string>;
  onInvalid(key: string, invalid: boolean): void;
  /** Opens the correction prefilled with the run's outputs (the page reads them whole when they were cut). */
  onOpenCorrection(): void;
  correctionNote: string | undefined;
  canCorrect: boolean;
}

export const RubricForm = forwardRef<RubricFormHandle, Props>(function RubricForm(props, ref) {
  const { rubric, form, onChange } = props;
  const groups = useRef<(HTMLDivElement | null)[]>([]);
  const last = useRef(0);
  useImperativeHandle(
    ref,
    () => ({
      focusField(i) {
        const el = groups.current[i];
        if (!el) return;
        last.current = i;
        el.focus();
        el.scrollIntoView({ block: 'nearest' });
      },
      activeField() {
        const at = groups.current.findIndex((g) => g?.contains(document.activeElement));
        return at >= 0 ? at : last.current;
      },
    }),
    [],
  );
  const set = (key: string, v: FieldValue) => onChange(withValue(form, key, v));
  const parsed = parseCorrection(form.correction);
  const correcting = form.correction !== '';
  return (
    <section className="rv-form" aria-label="Review">
      {props.instructions !== null && props.instructions.trim() !== '' && (
        <div className="rv-instructions" data-testid="instructions">
          <h2 className="rv-heading">Instructions</h2>
          <p className="rv-text" dir="auto">
            {props.instructions}
          </p>
        </div>
      )}
      {rubric.length === 0 && <p className="tv-muted">This queue has no rubric: leave a comment or a correction, or press Done.</p>}
      {rubric.map((field, i) => (
        <div
          key={field.key}
          ref={(el) => (groups.current[i] = el)}
          className={`rv-field${props.flagged.has(field.key) ? ' rv-field-flagged' : ''}`}
          role="group"
          tabIndex={-1}
          aria-labelledby={`rv-field-${i}-label`}
          aria-describedby={field.description ? `rv-field-${i}-desc` : undefined}
          data-testid="field"
          data-key={field.key}
          onFocus={() => (last.current = i)}
        >
          <div className="rv-field-head">
            <span id={`rv-field-${i}-label`} className="rv-field-key" dir="auto">
              {field.key}
            </span>
            {field.required && (
              <span className="rv-required" data-testid="field-required" title="Required">
                required
              </span>
            )}
            {field.lowerIsBetter && <span className="rv-hint">lower is better</span>}
          </div>
          {field.description && (
            <p id={`rv-field-${i}-desc`} className="rv-description" dir="auto">
              {field.description}
            </p>
          )}
          <FieldControl field={field} index={i} value={valueOf(form, field.key)} onChange={(v) => set(field.key, v)} onInvalid={(bad) => props.onInvalid(field.key, bad)} />
          {props.flagged.has(field.key) && (
            <p className="rv-field-error" role="alert" data-testid="field-missing">
              This field is required.
            </p>
          )}
        </div>
      ))}
      <div className="rv-field">
        <label className="rv-field-key" htmlFor="rv-comment">
          Comment
        </label>
        <textarea id="rv-comment" className="lsw-input rv-textarea" rows={3} dir="auto" value={form.comment} onChange={(e) => onChange({ ...form, comment: e.target.value })} data-testid="comment" />
      </div>
      <div className="rv-field">
        {!correcting ? (
          <TextButton onClick={props.onOpenCorrection} disabled={!props.canCorrect} data-testid="correct-outputs">
            Correct the outputs
          </TextButton>
        ) : (
          <>
            <div className="rv-field-head">
              <label className="rv-field-key" htmlFor="rv-correction">
                Corrected outputs
              </label>
              <span className="rv-hint">a JSON object</span>
              <TextButton onClick={() => onChange({ ...form, correction: '' })} data-testid="discard-correction">
                Discard the correction
              </TextButton>
            </div>
            <textarea
              id="rv-correction"
              className="lsw-json rv-correction"
              rows={10}
              spellCheck={false}
              value={form.correction}
              aria-invalid={!parsed.ok}
              aria-describedby={!parsed.ok ? 'rv-correction-error' : undefined}
              onChange={(e) => onChange({ ...form, correction: e.target.value })}
              data-testid="correction"
            />
            {!parsed.ok && (
              <p id="rv-correction-error" className="rv-field-error" role="alert" data-testid="correction-error">
                {parsed.error}
              </p>
            )}
          </>
        )}
        {props.correctionNote !== undefined && <p className="tv-note">{props.correctionNote}</p>}
      </div>
    </section>
  );
});

function FieldControl({ field, index, value, onChange, onInvalid }: { field: RubricField; index: number; value: FieldValue; onChange(v: FieldValue): void; onInvalid(bad: boolean): void }) {
  const { config } = field;
  if (config.type === 'continuous') return <ContinuousControl field={field} config={config} index={index} value={value} onChange={onChange} onInvalid={onInvalid} />;
  if (config.type === 'categorical') {
    return (
      <div className="rv-choices" role="group" aria-labelledby={`rv-field-${index}-label`}>
        {config.categories.map((c, n) => {
          const chosen = value.score === c.value && value.value === c.label;
          const meaning = Object.hasOwn(field.valueDescriptions, c.label) ? field.valueDescriptions[c.label] : undefined;
          return (
            <button
              key={`${c.value}:${c.label}`}
              type="button"
              className="rv-choice"
              aria-pressed={chosen}
              title={c.label.length > 80 ? c.label : undefined}
              data-testid="choice"
              data-key={field.key}
              data-value={c.value}
              onClick={() => onChange(chosen ? { score: null, value: null } : { score: c.value, value: c.label })}
            >
              {n < 9 && (
                <span className="rv-choice-key" aria-hidden="true">
                  {n + 1}
                </span>
              )}
              <span className="rv-choice-label" dir="auto">
                {c.label}
              </span>
              <span className="rv-choice-value">{c.value}</span>
              {meaning !== undefined && (
                <span className="rv-choice-meaning" dir="auto">
                  {meaning}
                </span>
              )}
            </button>
          );
        })}
      </div>
    );
  }
  return (
    <textarea
      className="lsw-input rv-textarea"
      rows={3}
      dir="auto"
      aria-labelledby={`rv-field-${index}-label`}
      value={value.value ?? ''}
      onChange={(e) => onChange({ score: null, value: e.target.value === '' ? null : e.target.value })}
      data-testid="freeform"
    />
  );
}

function ContinuousControl({
  field,
  config,
  index,
  value,
  onChange,
  onInvalid,
}: {
  field: RubricField;
  config: Extract<RubricField['config'], { type: 'continuous' }>;
  index: number;
  value: FieldValue;
  onChange(v: FieldValue): void;
  onInvalid(bad: boolean): void;
}) {
  const { min, max, step } = scale(config);
  const [text, setText] = useState(value.score === null ? '' : String(value.score));
  // A score set elsewhere (a number key, a draft, the slider) shows in the field.
  useEffect(() => {
    setText((t) => (value.score === null ? (scoreProblem(config, t) ? t : '') : Number(t) === value.score && t.trim() !== '' ? t : String(value.score)));
  }, [value.score, config]);
  const problem = scoreProblem(config, text);
  useEffect(() => {
    onInvalid(problem !== undefined);
  }, [problem, onInvalid]);
  const errorId = useId();
  const descriptions = Object.entries(field.scoreDescriptions);
  function typed(t: string) {
    setText(t);
    const bad = scoreProblem(config, t);
    onChange({ score: t.trim() === '' || bad ? null : Number(t), value: null });
  }
  return (
    <div className="rv-score">
      <div className="rv-score-row">
        {min !== null && max !== null && (
          <input
            type="range"
            className={value.score === null ? 'rv-slider rv-slider-unset' : 'rv-slider'}
            min={min}
            max={max}
            step={step}
            value={value.score ?? min}
            aria-labelledby={`rv-field-${index}-label`}
            aria-valuetext={value.score === null ? 'not scored' : String(value.score)}
            onChange={(e) => typed(e.target.value)}
            data-testid="score-slider"
          />
        )}
        <input
          type="number"
          className="lsw-input rv-number"
          min={min ?? undefined}
          max={max ?? undefined}
          step={step}
          value={text}
          placeholder={min !== null && max !== null ? `${min}–${max}` : 'score'}
          aria-labelledby={`rv-field-${index}-label`}
          aria-invalid={problem !== undefined}
          aria-describedby={problem !== undefined ? errorId : undefined}
          onChange={(e) => typed(e.target.value)}
          data-testid="score-input"
        />
        {value.score !== null && (
          <TextButton onClick={() => typed('')} aria-label={`Clear the score of ${field.key}`}>
            Clear
          </TextButton>
        )}
      </div>
      {problem !== undefined && (
        <p id={errorId} className="rv-field-error" role="alert" data-testid="score-error">
          {problem}
        </p>
      )}
      {descriptions.length > 0 && (
        <dl className="rv-score-descriptions">
          {descriptions.map(([score, meaning]) => (
            <div key={score} className={`rv-score-description${value.score !== null && Number(score) === value.score ? ' rv-score-description-current' : ''}`}>
              <dt>{score}</dt>
              <dd dir="auto">{meaning}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
