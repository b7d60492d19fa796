// Stored UI state for any app: a value changed from notifications (runs, sessions, live progress) that must come
// back after a reload or a hidden tab, kept in the webview's state through the frame's drafts (common/app.tsx,
// over common/vscode.ts).
import { useEffect, useRef, useState } from 'react';
import { useDraft } from '../app';

/**
 * State the page changes from notifications (functional updates, several per tick) and keeps across reloads:
 * a draft underneath, written after each change. `revive` checks what a reload brought back.
 */
export function useStoredState<T>(name: string, initial: T, revive: (stored: T) => T = (s) => s) {
  const [stored, store] = useDraft<T>(name, initial);
  const [value, setValue] = useState<T>(() => revive(stored));
  const written = useRef<T>(stored);
  useEffect(() => {
    if (written.current === value) return;
    written.current = value;
    store(value);
  }, [value, store]);
  return [value, setValue] as const;
}
