// One keyboard layer for every app: whether a key is typed into a field (then it is the field's), the page's keys
// (one document listener that always calls the latest handler), and the keys help that `?` opens and `?` or
// Escape closes (drawn by components/KeysHelp).
import { useCallback, useEffect, useRef, useState } from 'react';

const NOT_TEXT = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file']);

/** Whether keys pressed on this element type into it: a text input, a textarea, a select, editable content. */
export function isTyping(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  return tag === 'INPUT' && !NOT_TEXT.has((el as HTMLInputElement).type);
}

/** The page's keys: `onKey` gets every keydown of the document (the latest `onKey`, however often it changes). */
export function usePageKeys(onKey: (e: KeyboardEvent) => void): void {
  const latest = useRef(onKey);
  latest.current = onKey;
  useEffect(() => {
    const listener = (e: KeyboardEvent) => latest.current(e);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);
}

export interface KeysHelpState {
  open: boolean;
  toggle(): void;
  close(): void;
  /** `?` (not typing, no Ctrl, Alt or Cmd) toggles the help, Escape closes it: true when the key was the help's. */
  handle(e: KeyboardEvent): boolean;
}

export function useKeysHelp(): KeysHelpState {
  const [open, setOpen] = useState(false);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  const close = useCallback(() => setOpen(false), []);
  const handle = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.isComposing) return false;
    if (e.key === 'Escape' && open) {
      setOpen(false);
      return true;
    }
    if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return false;
    e.preventDefault();
    toggle();
    return true;
  };
  return { open, toggle, close, handle };
}
