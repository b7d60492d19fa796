// A queue's review: the header (queue, progress, counts, actions), the item beside the form, the items by
// section, and the keyboard. The host owns the items and the writes; this page owns the form, kept in the
// webview's state at every change (a reload shows it at once) and sent to the host as a draft.
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  Act,
  AddToDataset,
  Done,
  Neighbour,
  OpenItem,
  QueueChanged,
  ShowItem,
  Remove,
  Requeue,
  ShowAll,
  type ItemSummary,
  type Moved,
  type ReviewState,
} from '../../../../src/protocol/review';
import { useAppState, useDraft, useNotification, useRequest } from '../../common/app';
import { Banner } from '../../common/components';
import { KeysHelp } from '../../common/components/KeysHelp';
import { isTyping, useKeysHelp, usePageKeys } from '../../common/keys';
import { EMPTY_FORM, fromDraft, missing, parseCorrection, scoreForKey, toDraft, toReview, valueOf, withValue, type Form } from './form';
import { ItemContent } from './ItemContent';
import { ItemList, SECTIONS } from './ItemList';
import { RubricForm, type RubricFormHandle } from './RubricForm';
import { useDraftSaver } from './useDraftSaver';

type Review = Extract<ReviewState, { kind: 'review' }>;

/** The form as the webview's state keeps it: for one item, and when it last changed. */
interface Stored {
  itemId: string | null;
  form: Form;
  savedAt: number;
}

/** How long a status line stays. */
const STATUS_MS = 6000;

export function ReviewPage({ state }: { state: Review }) {
  const [, setState] = useAppState<ReviewState>();
  const { queue, counts, current, mac } = state;
  const itemId = current?.item.id;
  const update = useCallback((patch: Partial<Review>) => setState((prev) => (prev.kind === 'review' ? { ...prev, ...patch } : prev)), [setState]);

  // ---- the form
  const [stored, setStored] = useDraft<Stored>('review', { itemId: null, form: EMPTY_FORM, savedAt: 0 });
  const hostDraft = current?.draft ?? null;
  const mine = stored.itemId === itemId && itemId !== undefined && !(hostDraft && hostDraft.savedAt > stored.savedAt);
  const form = mine ? stored.form : fromDraft(hostDraft);
  const saver = useDraftSaver();
  const [flagged, setFlagged] = useState<ReadonlySet<string>>(new Set());
  const [invalid, setInvalid] = useState<ReadonlySet<string>>(new Set());
  const [correctionNote, setCorrectionNote] = useState<string>();
  const formRef = useRef<RubricFormHandle>(null);
  // Each item starts at the first rubric field: the number keys score it, ↓ goes on.
  useEffect(() => {
    if (itemId !== undefined) formRef.current?.focusField(0);
  }, [itemId]);

  // Another item: its own form (the webview's copy when it is this item's, else the host's draft), nothing flagged.
  const shownItem = useRef(itemId);
  useEffect(() => {
    if (shownItem.current === itemId) return;
    shownItem.current = itemId;
    setFlagged(new Set());
    setInvalid(new Set());
    setCorrectionNote(undefined);
  }, [itemId]);

  function setForm(next: Form) {
    if (itemId === undefined) return;
    const now = Date.now();
    setStored({ itemId, form: next, savedAt: now });
    saver.schedule(itemId, toDraft(next, now));
    if (flagged.size) setFlagged(new Set([...flagged].filter((k) => missing(queue.rubric, next).some((f) => f.key === k))));
  }
  function clearForm() {
    if (itemId === undefined) return;
    setStored({ itemId, form: EMPTY_FORM, savedAt: Date.now() });
    saver.schedule(itemId, null);
    setFlagged(new Set());
  }
  const onInvalid = useCallback((key: string, bad: boolean) => {
    setInvalid((prev) => {
      if (prev.has(key) === bad) return prev;
      const next = new Set(prev);
      if (bad) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);

  // ---- status and errors
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (status === undefined) return undefined;
    const t = setTimeout(() => setStatus(undefined), STATUS_MS);
    return () => clearTimeout(t);
  }, [status]);
  function failed(result: { ok: false; error: { code: string; message: string } }) {
    if (result.error.code !== 'cancelled') setError(result.error.message);
  }

  useNotification(QueueChanged, ({ queue: q, counts: c }) => update({ queue: q, counts: c }));

  // ---- moving between items
  const open = useRequest(OpenItem);
  const neighbour = useRequest(Neighbour);
  const done = useRequest(Done);
  const requeue = useRequest(Requeue);
  const remove = useRequest(Remove);
  const addToDataset = useRequest(AddToDataset);
  const act = useRequest(Act);
  const showAll = useRequest(ShowAll);
  const busy = done.pending || requeue.pending || remove.pending || open.pending;

  /** Done, Requeue and Remove: the next item shows at once (the host read it ahead). */
  function moved(m: Moved, dropDraft: boolean) {
    if (dropDraft) {
      // The host dropped the item's draft: so does the page.
      saver.drop();
      setStored({ itemId: null, form: EMPTY_FORM, savedAt: 0 });
    }
    update({ current: m.next, counts: m.counts });
    setStatus(m.message ?? (m.next ? 'Next item.' : 'All done.'));
  }

  async function openItem(id: string) {
    saver.flush();
    setError(undefined);
    const result = await open.run({ itemId: id });
    if (!result.ok) return failed(result);
    update({ current: result.value });
  }

  // An item clicked in the tree while this queue's panel is open.
  useNotification(ShowItem, ({ itemId: id }) => void openItem(id));

  async function go(direction: 'next' | 'previous') {
    if (itemId === undefined) return;
    setError(undefined);
    const result = await neighbour.run({ itemId, direction });
    if (!result.ok) return failed(result);
    if (!result.value.item) {
      setStatus(direction === 'next' ? 'This is the last item needing your review.' : 'This is the first item needing your review.');
      return;
    }
    await openItem(result.value.item.id);
  }

  const correction = parseCorrection(form.correction);
  const missingFields = missing(queue.rubric, form);
  const blockers: string[] = [];
  if (missingFields.length) blockers.push(`Fill in ${missingFields.map((f) => f.key).join(', ')}.`);
  if (invalid.size) blockers.push('A score is out of its range.');
  if (!correction.ok) blockers.push('The corrected outputs are not a JSON object.');

  async function submit() {
    if (!current || busy) return;
    setError(undefined);
    if (blockers.length) {
      setFlagged(new Set(missingFields.map((f) => f.key)));
      const first = queue.rubric.findIndex((f) => missingFields.includes(f) || invalid.has(f.key));
      if (first >= 0) formRef.current?.focusField(first);
      setError(`Not done yet: ${blockers.join(' ')}`);
      return;
    }
    const review = toReview(queue.rubric, form, current.run?.outputs?.value);
    const result = await done.run({ itemId: current.item.id, review }, { timeoutMs: 120_000 });
    // A failed write keeps the form as it is.
    if (!result.ok) return failed(result);
    moved(result.value, true);
  }

  async function doRequeue() {
    if (!current || busy) return;
    setError(undefined);
    saver.flush();
    const result = await requeue.run({ itemId: current.item.id });
    if (!result.ok) return failed(result);
    moved(result.value, false);
  }

  async function doRemove() {
    if (!current || busy) return;
    setError(undefined);
    const result = await remove.run({ itemId: current.item.id }, { timeoutMs: 300_000 });
    if (!result.ok) return failed(result);
    if (result.value.removed && result.value.moved) moved(result.value.moved, true);
  }

  async function doAddToDataset(choose: boolean) {
    if (!current) return;
    setError(undefined);
    if (!correction.ok) {
      setError('The corrected outputs are not a JSON object: fix them first.');
      return;
    }
    // The host may ask which dataset: give the person time.
    const result = await addToDataset.run({ itemId: current.item.id, outputs: correction.value, choose }, { timeoutMs: 300_000 });
    if (!result.ok) return failed(result);
    const { example, message } = result.value;
    if (message !== null) setStatus(message);
    else if (example) setStatus(`Added to ${example.datasetName}.`);
  }

  async function doAct(action: 'openTrace' | 'openThread' | 'editQueue', runId?: string) {
    setError(undefined);
    const result = await act.run(runId === undefined ? { action } : { action, runId }, { timeoutMs: 120_000 });
    if (!result.ok) return failed(result);
    if (result.value.message !== null) setStatus(result.value.message);
  }

  async function openCorrection() {
    const run = current?.run;
    if (!run) return;
    setCorrectionNote(undefined);
    const outputs = run.outputs;
    let text = outputs ? JSON.stringify(outputs.value, null, 2) ?? '{}' : '{}';
    if (outputs && outputs.cuts.length > 0) {
      // The page holds the outputs shortened: read them whole first.
      const result = await showAll.run({ runId: run.id, part: 'outputs', path: [] }, { timeoutMs: 120_000 });
      if (!result.ok) return failed(result);
      if (result.value.text === null) {
        setCorrectionNote('The outputs are too large to correct here' + (result.value.opened ? '; they opened in an editor.' : '.'));
        return;
      }
      try {
        text = JSON.stringify(JSON.parse(result.value.text), null, 2);
      } catch {
        text = result.value.text;
      }
    }
    setForm({ ...form, correction: text === '' ? '{}' : text });
  }

  // ---- the keyboard
  const help = useKeysHelp();
  usePageKeys((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.isComposing || help.handle(e)) return;
    const mod = mac ? e.metaKey : e.ctrlKey;
    const typing = isTyping(e.target);
    if (e.key === 'Escape') {
      if (typing) {
        const group = (e.target as HTMLElement).closest<HTMLElement>('.rv-field[role="group"]');
        (e.target as HTMLElement).blur();
        group?.focus();
      }
      return;
    }
    if (mod && e.key === 'Enter') {
      e.preventDefault();
      if (e.shiftKey) void doRequeue();
      else void submit();
      return;
    }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    if (!current) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      void go(e.key === 'ArrowRight' ? 'next' : 'previous');
      return;
    }
    const n = queue.rubric.length;
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && n > 0) {
      e.preventDefault();
      const at = formRef.current?.activeField() ?? 0;
      const inForm = document.activeElement instanceof HTMLElement && document.activeElement.closest('.rv-field[role="group"]') !== null;
      const next = !inForm ? (e.key === 'ArrowDown' ? 0 : n - 1) : Math.max(0, Math.min(n - 1, at + (e.key === 'ArrowDown' ? 1 : -1)));
      formRef.current?.focusField(next);
      return;
    }
    if (/^[0-9]$/.test(e.key) && n > 0) {
      const field = queue.rubric[formRef.current?.activeField() ?? 0];
      if (!field) return;
      const k = Number(e.key);
      if (field.config.type === 'categorical') {
        const c = field.config.categories[k - 1];
        if (k === 0 || !c) return;
        e.preventDefault();
        setForm(withValue(form, field.key, { score: c.value, value: c.label }));
      } else if (field.config.type === 'continuous') {
        e.preventDefault();
        setForm(withValue(form, field.key, { score: scoreForKey(field.config, k), value: null }));
      }
    }
  });

  const [listOpen, setListOpen] = useDraft<boolean>('review-list-open', false);
  const modKey = mac ? '⌘' : 'Ctrl';
  const reason = blockers.join(' ');
  const filled = queue.rubric.filter((f) => valueOf(form, f.key).score !== null || (valueOf(form, f.key).value ?? '') !== '').length;

  return (
    <main className={`rv-page${listOpen ? ' rv-with-list' : ''}`}>
      <header className="rv-header">
        <div className="rv-title-row">
          <h1 className="rv-title" data-testid="review-queue-name" dir="auto">
            {queue.name}
          </h1>
          {current && (
            <span className="rv-progress" data-testid="progress" aria-label="Position among the items needing my review">
              {current.position !== null ? current.position.toLocaleString('en-US') : '–'} of {counts.needs_my_review.toLocaleString('en-US')}
            </span>
          )}
        </div>
        <p className="rv-counts">
          {SECTIONS.map((s, i) => (
            <span key={s.section} className="rv-count">
              {i > 0 && <span aria-hidden="true"> · </span>}
              {s.label} <strong data-testid={s.testId}>{counts[s.section].toLocaleString('en-US')}</strong>
            </span>
          ))}
        </p>
        <div className="rv-toolbar" role="toolbar" aria-label="Queue">
          <button type="button" className="rv-button rv-secondary" aria-expanded={listOpen} aria-controls="rv-list-pane" onClick={() => setListOpen(!listOpen)} data-testid="toggle-items">
            Items
          </button>
          <button type="button" className="rv-button rv-secondary" onClick={() => void doAct('editQueue')} data-testid="edit-queue">
            Edit Queue
          </button>
          <button type="button" className="rv-button rv-secondary" aria-expanded={help.open} onClick={help.toggle} data-testid="keys-toggle" title="Keyboard shortcuts (?)">
            Keys
          </button>
        </div>
        <div className="rv-status" role="status" aria-live="polite" data-testid="status">
          {status ?? ''}
        </div>
        {error !== undefined && (
          <Banner tone="error" data-testid="action-error">
            {error}
          </Banner>
        )}
        {help.open && <KeysHelp keys={reviewKeys(modKey)} onClose={help.close} />}
      </header>
      <div className="rv-body">
        {listOpen && (
          <div id="rv-list-pane" className="rv-list-column">
            <ItemList counts={counts} currentId={itemId} onOpen={(item: ItemSummary) => void openItem(item.id)} />
          </div>
        )}
        {!current ? (
          <section className="rv-all-done" data-testid="all-done" aria-label="All done">
            <h2>All done</h2>
            <p>No item needs your review in this queue.</p>
            <p className="tv-muted">
              {counts.needs_others_review.toLocaleString('en-US')} waiting for other reviewers · {counts.archived.toLocaleString('en-US')} archived
            </p>
            {!listOpen && (
              <button type="button" className="rv-button rv-secondary" onClick={() => setListOpen(true)}>
                Show the items
              </button>
            )}
          </section>
        ) : (
          <>
            <div className="rv-item-column" key={current.item.id}>
              <ItemContent view={current} onAct={(action, runId) => void doAct(action, runId)} />
            </div>
            <div className="rv-form-column">
              <div className="rv-actions" role="toolbar" aria-label="Review actions">
                <button
                  type="button"
                  className="rv-button"
                  aria-disabled={blockers.length > 0 || busy}
                  aria-describedby={blockers.length ? 'rv-done-reason' : undefined}
                  onClick={() => void submit()}
                  data-testid="done"
                  title={`Done (${modKey}+Enter)`}
                >
                  {done.pending ? 'Saving…' : 'Done'}
                </button>
                <button type="button" className="rv-button rv-secondary" disabled={busy} onClick={() => void doRequeue()} data-testid="requeue" title={`Requeue (${modKey}+Shift+Enter)`}>
                  Requeue
                </button>
                <button type="button" className="rv-button rv-secondary" disabled={busy || neighbour.pending} onClick={() => void go('next')} data-testid="skip" title="Skip (→)">
                  Skip
                </button>
                <button type="button" className="rv-button rv-secondary" disabled={busy} onClick={() => void doRemove()} data-testid="remove">
                  Remove from Queue
                </button>
                <button
                  type="button"
                  className="rv-button rv-secondary"
                  disabled={addToDataset.pending || current.item.kind !== 'run'}
                  onClick={() => void doAddToDataset(false)}
                  data-testid="add-to-dataset"
                  title={queue.defaultDataset ? `Add to ${queue.defaultDataset.name}` : 'Add to a dataset'}
                >
                  Add to Dataset
                </button>
                <button
                  type="button"
                  className="rv-button rv-secondary"
                  disabled={addToDataset.pending || current.item.kind !== 'run'}
                  onClick={() => void doAddToDataset(true)}
                  data-testid="add-to-dataset-choose"
                >
                  Choose Dataset…
                </button>
              </div>
              {blockers.length > 0 && (
                <p id="rv-done-reason" className="rv-reason" data-testid="done-reason">
                  {reason}
                </p>
              )}
              <RubricForm
                ref={formRef}
                rubric={queue.rubric}
                instructions={queue.instructions}
                form={form}
                onChange={setForm}
                flagged={flagged}
                onInvalid={onInvalid}
                onOpenCorrection={() => void openCorrection()}
                correctionNote={correctionNote}
                canCorrect={current.run !== null && !showAll.pending}
              />
              <p className="rv-form-foot">
                <span className="tv-muted">
                  {filled} of {queue.rubric.length} filled
                </span>
                <button type="button" className="lsw-text-button" onClick={clearForm} data-testid="clear-form">
                  Clear the form
                </button>
              </p>
            </div>
          </>
        )}
      </div>
    </main>
  );
}

function reviewKeys(modKey: string): [string, string][] {
  return [
    ['← / →', 'Previous / next item'],
    ['↑ / ↓', 'Previous / next rubric field'],
    ['1 – 9', 'Pick category N of the field (a continuous field: N steps above its minimum; 0 its minimum)'],
    [`${modKey}+Enter`, 'Done'],
    [`${modKey}+Shift+Enter`, 'Requeue'],
    ['Escape', 'Leave a text field (then the keys above work)'],
    ['?', 'Show or hide these keys'],
  ];
}
