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
