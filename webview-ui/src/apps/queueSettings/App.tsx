import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { OpenReview, PickDataset, Save, type QueueSettingsState } from '../../../../src/protocol/queueSettings';
import { useAppState, useDraft, useRequest } from '../../common/app';
import { Banner, Button, ProgressRing, TextButton } from '../../common/components';
import { build, configFor, isDraft, pristineDraft, snapshot, stateConfig, type ConfigDraft, type Draft, type ItemDraft } from './model';
import { FieldErrors, invalid, RubricItem } from './RubricItem';

type Settings = Extract<QueueSettingsState, { kind: 'settings' }>;

export function App() {
  const [state, , reload] = useAppState<QueueSettingsState>();
  if (state.kind === 'problem') {
    return (
      <main className="lsw-page qs-page" data-testid="qs-problem">
        <h2>Annotation queue settings</h2>
        <Banner tone="error">{state.problem.message}</Banner>
        <Button onClick={() => void reload()}>Retry</Button>
      </main>
    );
  }
  return <SettingsForm />;
}

/** Where focus goes after the list of items changed under it. */
type FocusTarget = { id: string; action: 'up' | 'down' | 'key' } | { add: true };

function SettingsForm() {
  const [appState, setState] = useAppState<QueueSettingsState>();
  const state = appState as Settings;
  const pristine = useMemo(() => pristineDraft(state.form, state.configs), [state.form, state.configs]);
  const [stored, setDraft, clearDraft] = useDraft<Draft>('queueSettings', pristine);
  const draft = isDraft(stored) ? stored : pristine;
  const latest = useRef(draft);
  latest.current = draft;
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();
  /** Save was pressed: the problems are shown (and follow the edits) until a save goes through. */
  const [checked, setChecked] = useState(false);
  const [changedOnServer, setChangedOnServer] = useState(false);
  const [focusInvalid, setFocusInvalid] = useState(0);
  const focusTarget = useRef<FocusTarget>();
  const save = useRequest(Save);
  const pick = useRequest(PickDataset);
  const openReview = useRequest(OpenReview);
  const id = useId();
  const suggestions = `${id}-keys`;

  const current = snapshot(draft, state.configs);
  const dirty = current !== pristine.base;
  const built = useMemo(() => build(draft, state.configs, state.form), [draft, state.configs, state.form]);
  const problems = checked ? built.problems : [];
  const at = (field: string) => problems.filter((p) => p.field === field).map((p) => p.message);

  // A reload brought other server data: a draft without edits follows it; one with edits is kept, and told.
  useEffect(() => {
    if (draft.base === pristine.base) return;
    if (snapshot(draft, state.configs) === draft.base) setDraft(pristine);
    else setChangedOnServer(true);
  }, [pristine.base]); // only when the server data changes

  useEffect(() => {
    const target = focusTarget.current;
    if (!target) return;
    focusTarget.current = undefined;
    const root = document.querySelector('main');
    if ('add' in target) {
      root?.querySelector<HTMLElement>('[data-testid="add-rubric-item"]')?.focus();
      return;
    }
    const item = root?.querySelector(`[data-item-id="${target.id}"]`);
    if (target.action === 'key') return item?.querySelector<HTMLElement>('[data-testid="rubric-key"]')?.focus();
    const other = target.action === 'up' ? 'down' : 'up';
    const button = item?.querySelector<HTMLButtonElement>(`[data-action="${target.action}"]`);
    (button && !button.disabled ? button : item?.querySelector<HTMLElement>(`[data-action="${other}"]`))?.focus();
  });

  useEffect(() => {
    if (focusInvalid) document.querySelector<HTMLElement>('main [aria-invalid="true"]')?.focus();
  }, [focusInvalid]);

  function update(patch: Partial<Draft>) {
    setStatus(undefined);
    setError(undefined);
    setDraft({ ...latest.current, ...patch });
  }

  const setItem = (i: number, item: ItemDraft) => update({ items: draft.items.map((x, j) => (j === i ? item : x)) });
  const setConfig = (c: ConfigDraft, items = draft.items) => update({ items, configs: [...draft.configs.filter((x) => x.key !== c.key), c] });

  function setKey(i: number, text: string) {
    const before = draft.items[i]!.key.trim();
    const after = text.trim();
    const items = draft.items.map((x, j) => (j === i ? { ...x, key: text } : x));
    // A config written for a new key before its name was finished goes with the name.
    const edited = draft.configs.find((c) => c.key === before);
    const carry =
      edited && before !== after && !stateConfig(state.configs, before) && !stateConfig(state.configs, after) && !draft.configs.some((c) => c.key === after) && !items.some((x) => x.key.trim() === before);
    update({ items, configs: carry ? draft.configs.map((c) => (c === edited ? { ...c, key: after } : c)) : draft.configs });
  }

  function setLabel(i: number, category: number, label: string) {
    const key = draft.items[i]!.key.trim();
    const config = configFor(draft, state.configs, key);
    const old = config.categories[category]!.label;
    const categories = config.categories.map((c, j) => (j === category ? { ...c, label } : c));
    const oldStays = categories.some((c) => c.label === old);
    const newTaken = config.categories.some((c) => c.label === label);
    // What a category means follows its label, in every item of the key; a label another category has keeps its own.
    const follow = (values: ItemDraft['values']) =>
      newTaken ? values.filter((v) => v.label !== old) : values.filter((v) => v.label !== label).map((v) => (v.label === old ? { ...v, label } : v));
    const items = oldStays ? draft.items : draft.items.map((x) => (x.key.trim() === key ? { ...x, values: follow(x.values) } : x));
    setConfig({ ...config, categories }, items);
  }

  function move(i: number, by: -1 | 1) {
    const items = [...draft.items];
    const [item] = items.splice(i, 1);
    items.splice(i + by, 0, item!);
    focusTarget.current = { id: item!.id, action: by < 0 ? 'up' : 'down' };
    update({ items });
  }

  function remove(i: number) {
    const items = draft.items.filter((_, j) => j !== i);
    const next = items[i] ?? items[i - 1];
    focusTarget.current = next ? { id: next.id, action: 'up' } : { add: true };
    update({ items });
  }

  function add() {
    const item: ItemDraft = { id: `n${draft.nextId}`, key: '', description: '', required: false, scores: [], values: [] };
    focusTarget.current = { id: item.id, action: 'key' };
    update({ items: [...draft.items, item], nextId: draft.nextId + 1 });
  }

  async function doSave() {
    // Ctrl+S with nothing to save sends nothing (a new queue is always created on Save).
    if (save.pending || (state.queueId !== null && snapshot(latest.current, state.configs) === pristine.base)) return;
    setStatus(undefined);
    setError(undefined);
    setChecked(true);
    const now = build(latest.current, state.configs, state.form);
    if (now.problems.length) {
      setFocusInvalid((n) => n + 1);
      return;
    }
    const r = await save.run({ form: now.form, configs: now.configs }, { timeoutMs: 120_000 });
    if (!r.ok) {
      if (r.error.code !== 'cancelled') setError(`Not saved: ${r.error.message} Your changes are kept.`);
      return;
    }
    const next = r.value.state;
    setState(() => next);
    clearDraft();
    if (next.kind === 'settings') setDraft(pristineDraft(next.form, next.configs));
    setChecked(false);
    setChangedOnServer(false);
    setStatus(r.value.message);
  }

  async function chooseDataset() {
    // The host waits on its picker: give the user time.
    const r = await pick.run({}, { timeoutMs: 10 * 60_000 });
    if (!r.ok) {
      if (r.error.code !== 'cancelled') setError(r.error.message);
    } else if (r.value.clear) update({ dataset: null });
    else if (r.value.dataset) update({ dataset: r.value.dataset });
  }

  async function doOpenReview() {
    const r = await openReview.run({});
    if (!r.ok && r.error.code !== 'cancelled') setError(r.error.message);
  }

  const isNew = state.queueId === null;
  const nameErrors = at('name');
  const reviewerErrors = at('reviewersPerItem');
  const minuteErrors = at('reservationMinutes');

  return (
    <main
      className="lsw-page qs-page"
      data-testid="queue-settings"
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
          e.preventDefault();
          void doSave();
        }
      }}
    >
      <header className="qs-header">
        <h2>
          {isNew ? 'New annotation queue' : 'Annotation queue settings'}
          {dirty && (
            <span className="qs-unsaved" data-testid="qs-unsaved">
              <span aria-hidden="true">●</span> Unsaved changes
            </span>
          )}
        </h2>
        {!isNew && <p className="lsw-muted qs-subtitle">{state.form.name}</p>}
      </header>

      {changedOnServer && (
        <Banner tone="warning" data-testid="qs-changed-on-server">
          This queue changed on the server since you started editing. Your changes are kept; Save writes them over it.
        </Banner>
      )}
      {error && (
        <Banner tone="error" data-testid="qs-error">
          {error}
        </Banner>
      )}
      {problems.length > 0 && (
        <Banner tone="error" data-testid="qs-problems">
          Not saved: fix {problems.length === 1 ? 'the problem' : `the ${problems.length} problems`} marked below.
        </Banner>
      )}

      <section className="qs-section" aria-labelledby={`${id}-queue`}>
        <h3 id={`${id}-queue`}>Queue</h3>
        <div className="lsw-field">
          <label className="lsw-field-label" htmlFor={`${id}-name`}>
            Name
          </label>
          <input
            id={`${id}-name`}
            className="lsw-input qs-wide"
            maxLength={500}
            value={draft.name}
            data-testid="qs-name"
            onChange={(e) => update({ name: e.target.value })}
            {...invalid(`${id}-name-errors`, nameErrors)}
          />
          <FieldErrors id={`${id}-name-errors`} messages={nameErrors} />
        </div>
        <div className="lsw-field">
          <label className="lsw-field-label" htmlFor={`${id}-description`}>
            Description <span className="lsw-muted">(optional)</span>
          </label>
          <textarea
            id={`${id}-description`}
            className="lsw-input qs-wide qs-textarea"
            rows={2}
            maxLength={10_000}
            value={draft.description}
            data-testid="qs-description"
            onChange={(e) => update({ description: e.target.value })}
          />
        </div>
        <div className="lsw-field">
          <label className="lsw-field-label" htmlFor={`${id}-instructions`}>
            Rubric instructions <span className="lsw-muted">(shown to reviewers above the rubric)</span>
          </label>
          <textarea
            id={`${id}-instructions`}
            className="lsw-input qs-wide qs-textarea"
            rows={5}
            maxLength={100_000}
            value={draft.instructions}
            data-testid="qs-instructions"
            onChange={(e) => update({ instructions: e.target.value })}
          />
        </div>
        <div className="lsw-field" role="group" aria-labelledby={`${id}-dataset-label`}>
          <span id={`${id}-dataset-label`} className="lsw-field-label">
            Default dataset <span className="lsw-muted">(where reviewed runs are added)</span>
          </span>
          <div className="qs-inline">
            <span className="qs-dataset" data-testid="qs-dataset">
              {draft.dataset ? draft.dataset.name : <span className="lsw-muted">None</span>}
            </span>
            <Button appearance="secondary" data-testid="qs-dataset-choose" aria-label="Choose the default dataset" disabled={pick.pending} onClick={() => void chooseDataset()}>
              Choose…
            </Button>
            {draft.dataset && (
              <TextButton data-testid="qs-dataset-clear" aria-label="Remove the default dataset" onClick={() => update({ dataset: null })}>
                Remove
              </TextButton>
            )}
          </div>
        </div>
      </section>

      <section className="qs-section" aria-labelledby={`${id}-review`}>
        <h3 id={`${id}-review`}>Reviewing</h3>
        <div className="qs-inline lsw-field">
          <label htmlFor={`${id}-reviewers`}>Reviewers per item</label>
          <input
            id={`${id}-reviewers`}
            className="lsw-input qs-number"
            type="number"
            min={1}
            max={100}
            step={1}
            value={draft.reviewers}
            data-testid="qs-reviewers"
            onChange={(e) => update({ reviewers: e.target.value })}
            {...invalid(`${id}-reviewers-errors`, reviewerErrors)}
          />
          <span className="lsw-muted">how many must complete an item before it is done</span>
        </div>
        <FieldErrors id={`${id}-reviewers-errors`} messages={reviewerErrors} />
        <div className="qs-inline lsw-field">
          <label className="qs-check">
            <input type="checkbox" checked={draft.reservations} data-testid="qs-reservations" onChange={(e) => update({ reservations: e.target.checked })} /> Reserve an item for
            the reviewer who opens it, for
          </label>
          <input
            className="lsw-input qs-number"
            type="number"
            min={1}
            step={1}
            aria-label="Reservation minutes"
            disabled={!draft.reservations}
            value={draft.minutes}
            data-testid="qs-reservation-minutes"
            onChange={(e) => update({ minutes: e.target.value })}
            {...invalid(`${id}-minutes-errors`, minuteErrors)}
          />
          <span>minutes</span>
        </div>
        <FieldErrors id={`${id}-minutes-errors`} messages={minuteErrors} />
      </section>

      <section className="qs-section" aria-labelledby={`${id}-rubric`}>
        <h3 id={`${id}-rubric`}>Rubric</h3>
        <p className="lsw-muted">What reviewers score, in this order. Each item is a feedback key of the workspace.</p>
        <datalist id={suggestions}>
          {state.configs.map((c) => (
            <option key={c.key} value={c.key} />
          ))}
        </datalist>
        {draft.items.length === 0 && <p className="lsw-muted">No rubric items yet: reviewers can only comment.</p>}
        <ol className="qs-items">
          {draft.items.map((item, i) => {
            const key = item.key.trim();
            const known = !!stateConfig(state.configs, key);
            return (
              <RubricItem
                key={item.id}
                item={item}
                index={i}
                count={draft.items.length}
                config={configFor(draft, state.configs, key)}
                known={known}
                configChanged={known && built.configs.some((c) => c.key === key)}
                errors={{ key: at(`rubric.${i}.key`), scores: at(`rubric.${i}.scores`), config: key ? at(`config.${key}`) : [] }}
                suggestions={suggestions}
                onItem={(next) => setItem(i, next)}
                onKey={(text) => setKey(i, text)}
                onConfig={(c) => setConfig(c)}
                onLabel={(category, label) => setLabel(i, category, label)}
                onMove={(by) => move(i, by)}
                onRemove={() => remove(i)}
              />
            );
          })}
        </ol>
        <Button appearance="secondary" data-testid="add-rubric-item" onClick={add}>
          Add Rubric Item
        </Button>
      </section>

      <footer className="qs-footer">
        <Button data-testid="qs-save" disabled={save.pending || (!dirty && !isNew)} onClick={() => void doSave()}>
          {isNew ? 'Create Queue' : 'Save'}
        </Button>
        <Button
          appearance="secondary"
          data-testid="qs-open-review"
          disabled={isNew}
          title={isNew ? 'Save the queue first' : undefined}
          onClick={() => void doOpenReview()}
        >
          Open Review
        </Button>
        {save.pending && <ProgressRing />}
        <span className="lsw-muted" role="status" aria-live="polite" data-testid="qs-status">
          {status ?? ''}
        </span>
      </footer>
    </main>
  );
}
