// One changed example: its kind, a preview of its inputs, the values that changed (before and after, shortened
// by the stylesheet to a few lines each) and its actions. Server text is rendered as text, never as HTML.
import { diffWordsWithSpace } from 'diff';
import { memo, type MouseEvent } from 'react';
import type { DiffKind, DiffRow, FieldChange, OpenHow } from '../../../../src/protocol/datasetDiff';
import { TextButton } from '../../common/components';

export const KIND_LABEL: Record<DiffKind, string> = { added: 'Added', removed: 'Removed', modified: 'Modified' };

interface Props {
  row: DiffRow;
  index: number;
  total: number;
  active: boolean;
  onActivate: (index: number) => void;
  onOpen: (row: DiffRow, how: OpenHow) => void;
}

export const DiffRowView = memo(function DiffRowView({ row, index, total, active, onActivate, onOpen }: Props) {
  const action = (how: OpenHow) => (e: MouseEvent) => {
    e.stopPropagation();
    onActivate(index);
    onOpen(row, how);
  };
  const changed = row.changes.length + row.moreChanges;
  return (
    <div
      id={`dd-row-${index}`}
      role="option"
      aria-selected={active}
      aria-posinset={index + 1}
      aria-setsize={total}
      aria-label={`${KIND_LABEL[row.kind]}: ${row.summary || row.id}, ${changed} changed ${changed === 1 ? 'value' : 'values'}`}
      className={`dd-row${active ? ' dd-active' : ''}`}
      data-testid="diff-row"
      data-kind={row.kind}
      data-id={row.id}
      onClick={() => onActivate(index)}
      onDoubleClick={() => onOpen(row, 'diff')}
    >
      <div className="dd-row-head">
        <span className={`dd-kind lsw-kind-${row.kind}`}>{KIND_LABEL[row.kind]}</span>
        <span className="dd-summary">{row.summary || '(no inputs)'}</span>
        <span className="dd-actions">
          <TextButton tabIndex={-1} onClick={action('diff')} title="Compare the two versions' JSON in the diff editor (Enter)" data-testid="compare">
            Compare
          </TextButton>
          {row.kind !== 'removed' && (
            <TextButton tabIndex={-1} onClick={action('edit')} title="Open the example in the editor (Shift+Enter)" data-testid="edit">
              Edit
            </TextButton>
          )}
        </span>
      </div>
      {row.changes.length > 0 ? (
        <dl className="dd-changes">
          {row.changes.map((c, i) => (
            // Paths come from the server and may repeat (a key and its escaped twin): the position keeps them apart.
            <Change key={`${i}:${c.path}`} change={c} />
          ))}
        </dl>
      ) : (
        <p className="dd-nochange">No change to inputs, outputs, metadata, split or attachment names.</p>
      )}
      <div className="dd-row-foot">
        <span className="dd-id">{row.id}</span>
        {row.moreChanges > 0 && <span> · {row.moreChanges} more changed {row.moreChanges === 1 ? 'value' : 'values'}: Compare shows all</span>}
      </div>
    </div>
  );
});

function Change({ change }: { change: FieldChange }) {
  const a = change.op === 'changed' ? change.around : undefined;
  return (
    <div className={`dd-change dd-change-${change.op}`} data-testid="field-change" data-path={change.path} data-op={change.op}>
      <dt className="dd-path">{change.path}</dt>
      <dd className="dd-values">
        {a ? (
          <Around around={a} />
        ) : (
          <>
            {change.before !== null && (
              <span className="dd-before" data-testid="before">
                {change.before}
              </span>
            )}
            {change.after !== null && (
              <span className="dd-after" data-testid="after">
                {change.after}
              </span>
            )}
          </>
        )}
      </dd>
    </div>
  );
}

/**
 * A changed value around where it changes: the − and + lines start shortly before the first difference (… for what
 * is the same before it) and mark the words removed and added, so a change deep in a long value is in sight.
 */
function Around({ around: a }: { around: NonNullable<FieldChange['around']> }) {
  const parts = diffWordsWithSpace(a.before, a.after);
  const where = a.offset > 0 ? `the first ${a.offset} characters are the same` : undefined;
  const side = (which: 'before' | 'after') => (
    <span className={`dd-${which} dd-around`} data-testid={which} title={where}>
      {a.offset > 0 && (
        <span className="dd-elided" aria-label={`${where}: `}>
          …
        </span>
      )}
      {parts
        .filter((p) => (which === 'before' ? !p.added : !p.removed))
        .map((p, i) =>
          p.added || p.removed ? (
            <mark key={i} className={p.added ? 'dd-word-added' : 'dd-word-removed'} data-testid="changed-words">
              {p.value}
            </mark>
          ) : (
            <span key={i}>{p.value}</span>
          ),
        )}
      {a.more && <span className="dd-elided">…</span>}
    </span>
  );
  return (
    <>
      {side('before')}
      {side('after')}
    </>
  );
}

export function PendingRow() {
  return (
    <div className="dd-row dd-pending" data-testid="diff-row-pending" aria-hidden="true">
      Loading…
    </div>
  );
}
