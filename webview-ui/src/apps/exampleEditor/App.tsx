import { useEffect, useMemo, useRef, useState } from 'react';
import {
  DraftState,
  ExampleChanged,
  OpenAttachment,
  PickAttachment,
  SaveExample,
  ShowConflictDiff,
  type DraftText,
  type ExampleEditorState,
  type ExampleSnapshot,
} from '../../../../src/protocol/exampleEditor';
import { notifyHost, useAppState, useDraft, useNotification, useRequest } from '../../common/app';
import { Badge, Banner, Button, JsonField, ProgressRing } from '../../common/components';
import { editsAsFields, fromFields, toFields, type FieldText } from './fields';
import { ObjectField } from './ObjectField';
import { parseObject, schemaErrors, type Parsed } from './validation';

interface AddedFile {
  token: string;
  name: string;
  mimeType: string;
  size: number;
}

/** Everything the user changed, kept in the webview's state: text as typed, so nothing is lost on reload. */
interface Draft extends DraftText {
  /** The server version (modified_at) this draft started from; null for a new example. */
  base: string | null;
  added: AddedFile[];
  rename: Record<string, string>;
  remove: string[];
}

const pretty = (v: Record<string, unknown> | null) => (v ? JSON.stringify(v, null, 2) : '');

function fromServer(example: ExampleSnapshot | null, split: string | null): Draft {
  return {
    base: example?.modifiedAt ?? null,
    inputs: example ? pretty(example.inputs) : '{\n  \n}',
    outputs: pretty(example?.outputs ?? null),
    metadata: pretty(example?.metadata ?? null),
    splits: example ? example.splits : split ? [split] : [],
    inputsFields: example && editsAsFields(example.inputs) ? toFields(example.inputs) : null,
    outputsFields: editsAsFields(example?.outputs ?? null) ? toFields(example!.outputs!) : null,
    added: [],
    rename: {},
    remove: [],
  };
}

/** Inputs or outputs as the draft has them: the object when it parses, with the errors of the fields that do not. */
interface ObjectDraft {
  parsed: Parsed;
  fieldErrors: Map<string, string>;
}

function readObject(fields: FieldText[] | null | undefined, text: string, label: string, optional: boolean): ObjectDraft {
  if (!fields) return { parsed: parseObject(text, label, optional), fieldErrors: new Map() };
  const r = fromFields(fields, label.toLowerCase());
  return r.ok ? { parsed: { ok: true, value: r.value }, fieldErrors: new Map() } : { parsed: { ok: false, error: `Fix the fields of ${label} marked below.` }, fieldErrors: r.errors };
}

/**
 * What a draft holds, for telling whether it changed: inputs and outputs by value when they parse (showing them as
 * fields or as JSON changes nothing), as typed when they do not; the rest as it is.
 */
function contentOf(d: Draft): string {
  const object = (fields: FieldText[] | null | undefined, text: string, optional: boolean) => {
    const { parsed } = readObject(fields, text, 'x', optional);
    return parsed.ok ? { value: parsed.value } : { fields: fields ?? null, text };
  };
  const { base, metadata, splits, added, rename, remove } = d;
  return JSON.stringify([base, object(d.inputsFields, d.inputs, false), object(d.outputsFields, d.outputs, true), metadata, splits, added, rename, remove]);
}

const sameDraft = (a: Draft, b: Draft) => contentOf(a) === contentOf(b);

const formatSize = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/** The new name of an attachment, if it is renamed: own keys only (attachments named `constructor` or `__proto__`). */
const renamedTo = (rename: Record<string, string>, name: string): string | undefined => (Object.hasOwn(rename, name) ? rename[name] : undefined);

export function App() {
  const [state, setState] = useAppState<ExampleEditorState>();
  const { dataset, example } = state;
  const pristine = useMemo(() => fromServer(example, state.split), [example, state.split]);
  const [draft, setDraftValue, clearDraft] = useDraft<Draft>('example', () =>
    // A recovered draft without fields was written as JSON.
    state.recoveredDraft ? { ...pristine, inputsFields: null, outputsFields: null, ...state.recoveredDraft } : pristine,
  );
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();
  const [conflict, setConflict] = useState<{ server: ExampleSnapshot | null }>();
  const [changedOnServer, setChangedOnServer] = useState(false);
  const [newSplit, setNewSplit] = useState('');
  const [renaming, setRenaming] = useState<{ from: string; to: string }>();
  const save = useRequest(SaveExample);
  const diff = useRequest(ShowConflictDiff);
  const pick = useRequest(PickAttachment);
  const openAttachment = useRequest(OpenAttachment);
  const dirty = !sameDraft(draft, pristine);

  const setDraft = (patch: Partial<Draft>) => {
    setStatus(undefined);
    setDraftValue({ ...draft, ...patch });
  };

  // A reload brought a newer server version: a clean draft follows it; a dirty one is told.
  useEffect(() => {
    if (draft.base === (example?.modifiedAt ?? null)) return;
    if (!dirty || sameDraft({ ...draft, base: pristine.base }, pristine)) setDraftValue(pristine);
    else setChangedOnServer(true);
  }, [example?.modifiedAt]); // only when the server version changes

  useNotification(ExampleChanged, ({ example: now }) => {
    if (!dirty) {
      setState((s) => ({ ...s, example: now }));
      return;
    }
    setChangedOnServer(true);
  });

  // The host learns of unsaved changes (the tab title, the question when the tab is closed).
  const reported = useRef<string>();
  useEffect(() => {
    const message = {
      dirty,
      draft: dirty
        ? { inputs: draft.inputs, outputs: draft.outputs, metadata: draft.metadata, splits: draft.splits, inputsFields: draft.inputsFields ?? null, outputsFields: draft.outputsFields ?? null }
        : null,
    };
    const key = JSON.stringify(message);
    if (reported.current === key) return;
    const timer = setTimeout(() => {
      reported.current = key;
      notifyHost(DraftState, message);
    }, 250);
    return () => clearTimeout(timer);
  }, [dirty, draft]);

  const inputsDraft = readObject(draft.inputsFields, draft.inputs, 'Inputs', false);
  const outputsDraft = readObject(draft.outputsFields, draft.outputs, 'Outputs', true);
  const inputs = inputsDraft.parsed;
  const outputs = outputsDraft.parsed;
  const metadata = parseObject(draft.metadata, 'Metadata', true);
  // Fields that are not valid JSON are marked at themselves; the schema is checked once they all are.
  const errorsOf = (o: ObjectDraft, schema: Record<string, unknown> | null, field: string) =>
    o.fieldErrors.size ? [] : o.parsed.ok ? schemaErrors(schema, field === 'outputs' && o.parsed.value === null ? null : o.parsed.value, field) : [o.parsed.error];
  const inputErrors = errorsOf(inputsDraft, dataset.inputsSchema, 'inputs');
  const outputErrors = outputs.ok && outputs.value === null && !dataset.outputsSchema ? [] : errorsOf(outputsDraft, dataset.outputsSchema, 'outputs');
  const metadataErrors = metadata.ok ? [] : [metadata.error];
  const renameTargets = Object.values(draft.rename);
  const names = [...(example?.attachments ?? []).filter((a) => !draft.remove.includes(a.name)).map((a) => renamedTo(draft.rename, a.name) ?? a.name), ...draft.added.map((a) => a.name)];
  const attachmentError = names.length !== new Set(names).size ? 'Two attachments would have the same name: rename one of them.' : undefined;
  const valid = inputs.ok && outputs.ok && inputErrors.length === 0 && outputErrors.length === 0 && metadataErrors.length === 0 && !attachmentError && renameTargets.every((n) => n.trim());

  async function doSave(force = false) {
    if (!valid || !inputs.ok || !outputs.ok || !metadata.ok) {
      setError('Fix the fields marked below first; nothing was saved.');
      return;
    }
    setError(undefined);
    setStatus(undefined);
    const result = await save.run({
      base: draft.base,
      draft: { inputs: inputs.value ?? {}, outputs: outputs.value, metadata: metadata.value, splits: draft.splits },
      attachments: { add: draft.added.map(({ token, name }) => ({ token, name })), rename: draft.rename, remove: draft.remove },
      force,
    });
    if (!result.ok) {
      if (result.error.code !== 'cancelled') setError(`Not saved: ${result.error.message} Your changes are kept.`);
      return;
    }
    if (result.value.status === 'conflict') {
      setConflict({ server: result.value.server });
      return;
    }
    const saved = result.value.example;
    setConflict(undefined);
    setChangedOnServer(false);
    setState((s) => ({ ...s, example: saved, recoveredDraft: null }));
    clearDraft();
    setDraftValue(fromServer(saved, null));
    setStatus(`Saved at ${new Date().toLocaleTimeString()}.`);
  }

  async function showDiff() {
    if (!inputs.ok || !outputs.ok || !metadata.ok) {
      setError('The diff needs valid JSON in every field: fix the fields marked below first.');
      return;
    }
    const r = await diff.run({ draft: { inputs: inputs.value ?? {}, outputs: outputs.value, metadata: metadata.value, splits: draft.splits } });
    if (!r.ok && r.error.code !== 'cancelled') setError(r.error.message);
  }

  function takeServer(server: ExampleSnapshot | null) {
    setConflict(undefined);
    setChangedOnServer(false);
    setState((s) => ({ ...s, example: server }));
    setDraftValue(fromServer(server, state.split));
  }

  async function attach() {
    // The host waits for the file dialog: give the user time.
    const r = await pick.run({}, { timeoutMs: 10 * 60_000 });
    if (!r.ok) {
      if (r.error.code !== 'cancelled') setError(r.error.message);
    }
    else if (r.value) setDraft({ added: [...draft.added, r.value] });
  }

  async function open(name: string) {
    const r = await openAttachment.run({ name });
    if (!r.ok && r.error.code !== 'cancelled') setError(r.error.message);
  }

  /** Shows inputs or outputs as one JSON text (the fields must all be valid) or field by field (the JSON must be an object with keys). */
  function editAsJson(which: 'inputs' | 'outputs') {
    const parsed = which === 'inputs' ? inputs : outputs;
    if (!parsed.ok) return;
    setDraft({ [which]: pretty(parsed.value), [`${which}Fields`]: null });
  }

  function editAsFields(which: 'inputs' | 'outputs') {
    const parsed = parseObject(draft[which], which, which === 'outputs');
    if (!parsed.ok || !editsAsFields(parsed.value)) return;
    setDraft({ [`${which}Fields`]: toFields(parsed.value) });
  }

  const fieldsRefusal = (which: 'inputs' | 'outputs') => {
    const parsed = parseObject(draft[which], which === 'inputs' ? 'Inputs' : 'Outputs', which === 'outputs');
    if (!parsed.ok) return 'Fix the JSON first to edit field by field.';
    return editsAsFields(parsed.value) ? null : 'An object with no fields is edited as JSON.';
  };

  function addSplit() {
    const name = newSplit.trim();
    if (!name || draft.splits.includes(name)) return;
    setDraft({ splits: [...draft.splits, name] });
    setNewSplit('');
  }

  const title = example ? 'Example' : 'New example';
  return (
    <main
      className="lsw-page lsw-example"
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
          e.preventDefault();
          void doSave();
        }
      }}
    >
      <header className="lsw-example-header">
        <h2>
          {title} <span className="lsw-muted">in {dataset.name}</span>
        </h2>
        <p className="lsw-muted lsw-mono" data-testid="example-id">
          {state.exampleId}
        </p>
      </header>

      {conflict && (
        <Banner tone="warning" data-testid="conflict">
          {conflict.server ? 'Someone changed this example on the server since you started editing.' : 'This example was deleted on the server since you started editing.'} Nothing was
          saved; your changes are kept.
          <span className="lsw-actions">
            <Button appearance="secondary" onClick={() => void showDiff()}>
              Show Diff
            </Button>
            <Button appearance="secondary" onClick={() => void doSave(true)}>
              {conflict.server ? 'Overwrite with Mine' : 'Save Mine Again'}
            </Button>
            <Button appearance="secondary" onClick={() => takeServer(conflict.server)}>
              Discard Mine
            </Button>
          </span>
        </Banner>
      )}
      {changedOnServer && !conflict && (
        <Banner tone="warning" data-testid="changed-on-server">
          This example changed on the server while you were editing. Saving will ask before overwriting it.
          <span className="lsw-actions">
            <Button appearance="secondary" onClick={() => void showDiff()}>
              Show Diff
            </Button>
          </span>
        </Banner>
      )}
      {error && (
        <Banner tone="error" data-testid="save-error">
          {error}
        </Banner>
      )}

      <ObjectField
        label="Inputs"
        hint={dataset.inputsSchema ? '(checked against the dataset’s inputs schema)' : undefined}
        json={draft.inputs}
        fields={draft.inputsFields ?? null}
        errors={inputErrors}
        fieldErrors={inputsDraft.fieldErrors}
        canEditAsFields={draft.inputsFields ? null : fieldsRefusal('inputs')}
        onJson={(t) => setDraft({ inputs: t })}
        onFields={(f) => setDraft({ inputsFields: f })}
        onEditAsJson={() => editAsJson('inputs')}
        onEditAsFields={() => editAsFields('inputs')}
        data-testid="inputs"
      />
      <ObjectField
        label="Outputs"
        hint={dataset.outputsSchema ? '(checked against the dataset’s outputs schema)' : '(optional: the reference answer)'}
        json={draft.outputs}
        fields={draft.outputsFields ?? null}
        errors={outputErrors}
        fieldErrors={outputsDraft.fieldErrors}
        canEditAsFields={draft.outputsFields ? null : fieldsRefusal('outputs')}
        onJson={(t) => setDraft({ outputs: t })}
        onFields={(f) => setDraft({ outputsFields: f })}
        onEditAsJson={() => editAsJson('outputs')}
        onEditAsFields={() => editAsFields('outputs')}
        data-testid="outputs"
      />
      <JsonField label="Metadata" hint="(optional)" value={draft.metadata} onChange={(t) => setDraft({ metadata: t })} errors={metadataErrors} rows={4} data-testid="metadata" />

      <section className="lsw-field" aria-labelledby="splits-label" data-testid="splits">
        <h3 id="splits-label" className="lsw-field-label">
          Splits
        </h3>
        <div className="lsw-chips">
          {draft.splits.length === 0 && <span className="lsw-muted">None (the default split)</span>}
          {draft.splits.map((s) => (
            <Badge key={s}>
              {s}{' '}
              <button type="button" className="lsw-chip-remove" aria-label={`Remove split ${s}`} onClick={() => setDraft({ splits: draft.splits.filter((x) => x !== s) })}>
                ×
              </button>
            </Badge>
          ))}
        </div>
        <div className="lsw-row">
          <input
            className="lsw-input lsw-grow"
            list="dataset-splits"
            aria-label="Add a split"
            placeholder="Add a split (e.g. test)"
            value={newSplit}
            maxLength={200}
            onChange={(e) => setNewSplit(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addSplit();
              }
            }}
          />
          <datalist id="dataset-splits">
            {dataset.splits.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <Button appearance="secondary" disabled={!newSplit.trim()} onClick={addSplit}>
            Add Split
          </Button>
        </div>
      </section>

      <section className="lsw-field" aria-labelledby="attachments-label" data-testid="attachments">
        <h3 id="attachments-label" className="lsw-field-label">
          Attachments
        </h3>
        <ul className="lsw-attachments">
          {(example?.attachments ?? []).map((a) => {
            const removed = draft.remove.includes(a.name);
            const shown = renamedTo(draft.rename, a.name) ?? a.name;
            return (
              <li key={a.name} className={removed ? 'lsw-removed' : undefined}>
                {renaming?.from === a.name ? (
                  <input
                    className="lsw-input"
                    aria-label={`New name for ${a.name}`}
                    value={renaming.to}
                    maxLength={200}
                    autoFocus
                    onChange={(e) => setRenaming({ from: a.name, to: e.target.value })}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' && renaming.to.trim()) {
                        // Built with own keys only: an attachment may be named __proto__.
                        const rename = Object.fromEntries(Object.entries(draft.rename).filter(([from]) => from !== a.name));
                        if (renaming.to.trim() !== a.name) Object.defineProperty(rename, a.name, { value: renaming.to.trim(), enumerable: true, configurable: true, writable: true });
                        setDraft({ rename });
                        setRenaming(undefined);
                      } else if (e.key === 'Escape') setRenaming(undefined);
                    }}
                  />
                ) : (
                  <span className="lsw-attachment-name">{shown}</span>
                )}
                <span className="lsw-muted">{a.mimeType}</span>
                {shown !== a.name && <span className="lsw-muted">(was {a.name})</span>}
                <span className="lsw-actions">
                  {!removed && (
                    <Button appearance="secondary" aria-label={`Open ${a.name}`} title="Open" onClick={() => void open(a.name)}>
                      Open
                    </Button>
                  )}
                  {!removed && (
                    <Button appearance="secondary" aria-label={`Rename ${a.name}`} title="Rename" onClick={() => setRenaming({ from: a.name, to: shown })}>
                      Rename
                    </Button>
                  )}
                  <Button
                    appearance="secondary"
                    aria-label={removed ? `Keep ${a.name}` : `Remove ${a.name}`}
                    onClick={() => setDraft({ remove: removed ? draft.remove.filter((n) => n !== a.name) : [...draft.remove, a.name] })}
                  >
                    {removed ? 'Undo' : 'Remove'}
                  </Button>
                </span>
              </li>
            );
          })}
          {draft.added.map((a) => (
            <li key={a.token}>
              <span className="lsw-attachment-name">{a.name}</span>
              <span className="lsw-muted">
                {a.mimeType} · {formatSize(a.size)} · new
              </span>
              <span className="lsw-actions">
                <Button appearance="secondary" aria-label={`Remove ${a.name}`} onClick={() => setDraft({ added: draft.added.filter((x) => x.token !== a.token) })}>
                  Remove
                </Button>
              </span>
            </li>
          ))}
          {!example?.attachments.length && !draft.added.length && <li className="lsw-muted">No attachments.</li>}
        </ul>
        {attachmentError && <p className="lsw-error-text" role="alert">{attachmentError}</p>}
        <Button appearance="secondary" onClick={() => void attach()}>
          Add File…
        </Button>
      </section>

      <footer className="lsw-row lsw-example-footer">
        <Button data-testid="save" disabled={save.pending || (!dirty && example !== null)} onClick={() => void doSave()}>
          {example ? 'Save' : 'Create Example'}
        </Button>
        <Button appearance="secondary" data-testid="revert" disabled={!dirty || save.pending} onClick={() => takeServer(example)}>
          Revert
        </Button>
        {save.pending && <ProgressRing />}
        <span className="lsw-muted" role="status" data-testid="status">
          {status ?? (dirty ? 'Unsaved changes' : example ? 'No changes' : '')}
        </span>
      </footer>
    </main>
  );
}
