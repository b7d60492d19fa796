// The query bar: LangSmith's filter language typed with completion (functions, fields, values seen in the project)
// and checked as it is typed (the message says where it stops making sense); the top-level conditions as chips
// with a remove button; quick conditions that write the same language; the trace and tree filters; the time
// window; named filters kept per project. A filter applies on Enter (or Apply) once it reads well.
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  checkRunFilter,
  completeFilter,
  quote,
  topConditions,
  withCondition,
  withoutCondition,
  type Completion,
  type FilterProblem,
  type SeenValues,
} from '../../../../src/protocol/filterLanguage';
import type { RunsQuery, SavedFilter } from '../../../../src/protocol/runs';
import { TextButton } from '../../common/components';

const WINDOWS: { label: string; ms: number | null }[] = [
  { label: 'Any time', ms: null },
  { label: 'Last hour', ms: 3_600_000 },
  { label: 'Last 24 hours', ms: 86_400_000 },
  { label: 'Last 7 days', ms: 7 * 86_400_000 },
  { label: 'Last 30 days', ms: 30 * 86_400_000 },
];

export interface FilterBarProps {
  query: RunsQuery;
  /** The server's refusal of the last query, shown under the field it names. */
  refused: string | undefined;
  seen: SeenValues;
  saved: readonly SavedFilter[];
  onApply(query: RunsQuery): void;
  onSave(saved: SavedFilter[]): void;
  now(): number;
}

export function FilterBar({ query, refused, seen, saved, onApply, onSave, now }: FilterBarProps) {
  const [text, setText] = useState(query.filter);
  const [traceText, setTraceText] = useState(query.traceFilter);
  const [treeText, setTreeText] = useState(query.treeFilter);
  const [more, setMore] = useState(query.traceFilter !== '' || query.treeFilter !== '');
  const [shownFor, setShownFor] = useState(query);
  // Another query from outside (a saved filter, a chart, Clear): the fields show it.
  if (shownFor !== query) {
    setShownFor(query);
    setText(query.filter);
    setTraceText(query.traceFilter);
    setTreeText(query.treeFilter);
  }
  const problems = { filter: checkRunFilter(text), traceFilter: checkRunFilter(traceText), treeFilter: checkRunFilter(treeText) };
  const apply = (patch: Partial<RunsQuery> = {}) => {
    const next = { ...query, filter: text.trim(), traceFilter: traceText.trim(), treeFilter: treeText.trim(), ...patch };
    if (checkRunFilter(next.filter) || checkRunFilter(next.traceFilter) || checkRunFilter(next.treeFilter)) return;
    onApply(next);
  };
  const add = (condition: string) => {
    const next = withCondition(text, condition);
    setText(next);
    if (!checkRunFilter(next)) onApply({ ...query, filter: next, traceFilter: traceText.trim(), treeFilter: treeText.trim() });
  };
  const chips = problems.filter ? [] : topConditions(text);
  const windowLabel = WINDOWS.find((w) => w.ms !== null && query.endTime === null && query.startTime !== null && Math.abs(now() - w.ms - query.startTime) < 60_000)?.label;

  return (
    <section className="rn-filters" aria-label="Filters">
      <FilterField
        label="Filter"
        value={text}
        onChange={setText}
        onEnter={() => apply()}
        problem={problems.filter}
        refused={refused}
        seen={seen}
        testId="filter"
        placeholder='e.g. and(eq(status, "error"), gt(latency, "5s"))'
      />
      <div className="rn-filter-actions">
        <TextButton onClick={() => apply()} disabled={!!problems.filter} data-testid="apply-filter">
          Apply
        </TextButton>
        {(text || query.filter) && (
          <TextButton
            onClick={() => {
              setText('');
              onApply({ ...query, filter: '' });
            }}
            data-testid="clear-filter"
          >
            Clear
          </TextButton>
        )}
        <TextButton onClick={() => setMore((m) => !m)} aria-expanded={more}>
          {more ? 'Fewer filters' : 'Trace and tree filters'}
        </TextButton>
      </div>
      {chips.length > 0 && (
        <ul className="rn-chips" aria-label="Conditions">
          {chips.map((c, i) => (
            <li key={`${i}:${c.text}`} className="rn-chip" data-testid="chip">
              <code dir="auto">{c.text}</code>
              <button
                type="button"
                className="rn-chip-remove"
                aria-label={`Remove ${c.text}`}
                onClick={() => {
                  const next = withoutCondition(text, i);
                  setText(next);
                  onApply({ ...query, filter: next });
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <QuickConditions seen={seen} onAdd={add} />
      {more && (
        <>
          <FilterField label="Trace filter" value={traceText} onChange={setTraceText} onEnter={() => apply()} problem={problems.traceFilter} seen={seen} testId="trace-filter" placeholder="applies to the root run of each trace" />
          <FilterField label="Tree filter" value={treeText} onChange={setTreeText} onEnter={() => apply()} problem={problems.treeFilter} seen={seen} testId="tree-filter" placeholder='any run of the trace, e.g. and(eq(run_type, "tool"), eq(status, "error"))' />
        </>
      )}
      <div className="rn-filter-row">
        <label className="rn-inline">
          <span>Time</span>
          <select
            value={windowLabel ?? (query.startTime === null && query.endTime === null ? 'Any time' : 'custom')}
            onChange={(e) => {
              const w = WINDOWS.find((x) => x.label === e.target.value);
              if (w) apply({ startTime: w.ms === null ? null : now() - w.ms, endTime: null });
            }}
            data-testid="time-window"
          >
            {WINDOWS.map((w) => (
              <option key={w.label} value={w.label}>
                {w.label}
              </option>
            ))}
            {!windowLabel && (query.startTime !== null || query.endTime !== null) && <option value="custom">{windowText(query)}</option>}
          </select>
        </label>
        <SavedFilters query={query} saved={saved} onSave={onSave} onApply={onApply} />
      </div>
    </section>
  );
}

function windowText(q: RunsQuery): string {
  const f = (ms: number) => new Date(ms).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  return `${q.startTime !== null ? f(q.startTime) : '…'} – ${q.endTime !== null ? f(q.endTime) : 'now'}`;
}

/** A filter field with completion and its problem under it. */
function FilterField(props: {
  label: string;
  value: string;
  onChange(v: string): void;
  onEnter(): void;
  problem: FilterProblem | undefined;
  refused?: string;
  seen: SeenValues;
  testId: string;
  placeholder: string;
}) {
  const { value, onChange, problem, refused, seen } = props;
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const messageId = useId();
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(true);
  const completion = useMemo(() => (caret === null ? undefined : completeFilter(value, caret, seen)), [value, caret, seen]);
  const items: Completion[] = dismissed || !completion ? [] : completion.items.slice(0, 12);
  const accept = (item: Completion) => {
    if (!completion) return;
    const next = value.slice(0, completion.from) + item.insert + value.slice(completion.to);
    onChange(next);
    const at = completion.from + item.insert.length;
    setCaret(at);
    setDismissed(!item.insert.endsWith('('));
    requestAnimationFrame(() => input.current?.setSelectionRange(at, at));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (items.length && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
    } else if (items.length && (e.key === 'Tab' || (e.key === 'Enter' && !e.ctrlKey))) {
      e.preventDefault();
      accept(items[Math.min(active, items.length - 1)]!);
    } else if (e.key === 'Escape' && items.length) {
      e.preventDefault();
      e.stopPropagation();
      setDismissed(true);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      props.onEnter();
    } else if (e.key === ' ' && e.ctrlKey) {
      e.preventDefault();
      setDismissed(false);
    }
  };
  const message = problem ? problem.message : refused;
  return (
    <div className="rn-field">
      <label className="rn-field-label" htmlFor={`${listId}-input`}>
        {props.label}
      </label>
      <div className="rn-field-box">
        <input
          id={`${listId}-input`}
          ref={input}
          className={`rn-input${message ? ' rn-input-invalid' : ''}`}
          value={value}
          placeholder={props.placeholder}
          spellCheck={false}
          autoComplete="off"
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={items.length ? `${listId}-${Math.min(active, items.length - 1)}` : undefined}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? messageId : undefined}
          onChange={(e) => {
            onChange(e.target.value);
            setCaret(e.target.selectionStart);
            setActive(0);
            setDismissed(false);
          }}
          onSelect={(e) => setCaret((e.target as HTMLInputElement).selectionStart)}
          onBlur={() => setDismissed(true)}
          onKeyDown={onKeyDown}
          data-testid={props.testId}
        />
        {items.length > 0 && (
          <ul id={listId} role="listbox" className="rn-complete" aria-label="Suggestions" data-testid={`${props.testId}-suggestions`}>
            {items.map((item, i) => (
              <li
                key={item.label}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className="rn-complete-item"
                onMouseDown={(e) => {
                  e.preventDefault();
                  accept(item);
                }}
              >
                <span className="rn-complete-label">{item.label}</span>
                <span className="rn-muted">{item.detail}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {message && (
        <p id={messageId} className="rn-field-error" role="alert" data-testid={`${props.testId}-problem`}>
          {problem && <ProblemPointer text={value} problem={problem} />}
          {message}
        </p>
      )}
    </div>
  );
}

/** The filter with the part the problem names marked, so the place is seen as well as said. */
function ProblemPointer({ text, problem }: { text: string; problem: FilterProblem }) {
  const from = Math.max(0, problem.start - 30);
  const to = Math.min(text.length, problem.end + 30);
  return (
    <code className="rn-pointer" dir="ltr">
      {from > 0 && '…'}
      {text.slice(from, problem.start)}
      <mark>{text.slice(problem.start, problem.end) || ' '}</mark>
      {text.slice(problem.end, to)}
      {to < text.length && '…'}
      {' — '}
    </code>
  );
}

/** Buttons that add a common condition, written in the filter language. */
function QuickConditions({ seen, onAdd }: { seen: SeenValues; onAdd(condition: string): void }) {
  const [open, setOpen] = useState<string>();
  const [value, setValue] = useState('');
  const [second, setSecond] = useState('');
  const pick = (kind: string) => {
    setOpen(open === kind ? undefined : kind);
    setValue('');
    setSecond('');
  };
  const done = (condition: string) => {
    onAdd(condition);
    setOpen(undefined);
  };
  const listFor = (kind: string) => (kind === 'name' ? seen.names : kind === 'tag' ? seen.tags : kind === 'metadata' ? seen.metadataKeys : kind === 'feedback' ? seen.feedbackKeys : undefined) ?? [];
  const dataListId = useId();
  return (
    <div className="rn-quick" aria-label="Add a condition" role="group">
      <span className="rn-muted">Add:</span>
      <TextButton onClick={() => done('eq(status, "error")')} data-testid="quick-errors">
        Errors
      </TextButton>
      <TextButton onClick={() => done('eq(status, "success")')}>Successes</TextButton>
      <TextButton onClick={() => done('eq(run_type, "llm")')}>LLM calls</TextButton>
      {(['name', 'tag', 'metadata', 'feedback', 'latency'] as const).map((k) => (
        <TextButton key={k} onClick={() => pick(k)} aria-expanded={open === k} data-testid={`quick-${k}`}>
          {k === 'latency' ? 'Slower than…' : `${k[0]!.toUpperCase()}${k.slice(1)}…`}
        </TextButton>
      ))}
      {open && (
        <form
          className="rn-quick-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!value.trim()) return;
            if (open === 'name') done(`eq(name, ${quote(value)})`);
            else if (open === 'tag') done(`has(tags, ${quote(value)})`);
            else if (open === 'metadata') done(`and(eq(metadata_key, ${quote(value)}), eq(metadata_value, ${quote(second)}))`);
            else if (open === 'feedback') done(second.trim() === '' ? `eq(feedback_key, ${quote(value)})` : `and(eq(feedback_key, ${quote(value)}), eq(feedback_score, ${Number.isFinite(Number(second)) ? Number(second) : quote(second)}))`);
            else done(`gt(latency, ${quote(/^\d+(\.\d+)?$/.test(value.trim()) ? `${value.trim()}s` : value.trim())})`);
          }}
        >
          <input
            className="rn-input rn-input-small"
            autoFocus
            value={value}
            onChange={(e) => setValue(e.target.value)}
            list={dataListId}
            aria-label={open === 'metadata' ? 'Metadata key' : open === 'feedback' ? 'Feedback key' : open === 'latency' ? 'Seconds' : open === 'tag' ? 'Tag' : 'Name'}
            placeholder={open === 'latency' ? 'seconds, e.g. 5' : open === 'metadata' || open === 'feedback' ? 'key' : open}
            data-testid="quick-value"
          />
          <datalist id={dataListId}>
            {listFor(open).map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
          {(open === 'metadata' || open === 'feedback') && (
            <input className="rn-input rn-input-small" value={second} onChange={(e) => setSecond(e.target.value)} aria-label={open === 'metadata' ? 'Metadata value' : 'Score (optional)'} placeholder={open === 'metadata' ? 'value' : 'score (optional)'} />
          )}
          <button type="submit" className="rn-small-button">
            Add
          </button>
        </form>
      )}
    </div>
  );
}

/** Named filters of the project: pick one to apply it, save the current one under a name, delete one. */
function SavedFilters({ query, saved, onSave, onApply }: { query: RunsQuery; saved: readonly SavedFilter[]; onSave(saved: SavedFilter[]): void; onApply(q: RunsQuery): void }) {
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const current = saved.find((s) => JSON.stringify(s.query) === JSON.stringify(query));
  return (
    <div className="rn-inline" role="group" aria-label="Saved filters">
      <label className="rn-inline">
        <span>Saved</span>
        <select
          value={current?.name ?? ''}
          onChange={(e) => {
            const s = saved.find((x) => x.name === e.target.value);
            if (s) onApply(s.query);
          }}
          data-testid="saved-filters"
        >
          <option value="">{saved.length ? '—' : 'none yet'}</option>
          {saved.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      {current ? (
        <TextButton onClick={() => onSave(saved.filter((s) => s !== current))} data-testid="delete-saved">
          Delete “{current.name}”
        </TextButton>
      ) : naming ? (
        <form
          className="rn-inline"
          onSubmit={(e) => {
            e.preventDefault();
            const n = name.trim();
            if (!n) return;
            onSave([...saved.filter((s) => s.name !== n), { name: n.slice(0, 100), query }]);
            setNaming(false);
            setName('');
          }}
        >
          <input className="rn-input rn-input-small" autoFocus value={name} maxLength={100} onChange={(e) => setName(e.target.value)} aria-label="Name of the filter" placeholder="name" data-testid="saved-name" />
          <button type="submit" className="rn-small-button" data-testid="saved-save">
            Save
          </button>
        </form>
      ) : (
        <TextButton onClick={() => setNaming(true)} data-testid="save-filter">
          Save filter…
        </TextButton>
      )}
    </div>
  );
}
