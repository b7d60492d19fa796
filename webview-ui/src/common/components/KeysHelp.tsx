import type { ReactNode } from 'react';
import './keys.css';
import { TextButton } from './TextButton';

/** The keys of a page, each with what it does; opened by `?` (common/keys: useKeysHelp). */
export function KeysHelp({ keys, note, onClose }: { keys: readonly (readonly [string, string])[]; note?: ReactNode; onClose(): void }) {
  return (
    <section className="lsw-keys" aria-label="Keyboard shortcuts" data-testid="keys-help">
      {note !== undefined && <p className="lsw-muted lsw-keys-note">{note}</p>}
      <dl>
        {keys.map(([k, what]) => (
          <div key={k} className="lsw-key-row">
            <dt>
              <kbd>{k}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <TextButton onClick={onClose}>Close</TextButton>
    </section>
  );
}
