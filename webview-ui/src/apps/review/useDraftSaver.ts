// Sends the form to the host as it changes, DRAFT_DEBOUNCE_MS after the last change; `flush` sends what waits
// at once (before another item shows), `drop` forgets it (Done and Remove: the host drops the draft itself).
import { useCallback, useEffect, useRef } from 'react';
import { DRAFT_DEBOUNCE_MS, SaveDraft, type Draft } from '../../../../src/protocol/review';
import { useRequest } from '../../common/app';

export function useDraftSaver() {
  // Two slots: a flush for one item must not cancel the debounced save of the next one, nor the other way.
  const save = useRequest(SaveDraft).run;
  const flushNow = useRequest(SaveDraft).run;
  const waiting = useRef<{ itemId: string; draft: Draft | null }>();
  const timer = useRef<ReturnType<typeof setTimeout>>();

  const schedule = useCallback(
    (itemId: string, draft: Draft | null) => {
      if (waiting.current && waiting.current.itemId !== itemId) void flushNow(waiting.current);
      waiting.current = { itemId, draft };
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const w = waiting.current;
        waiting.current = undefined;
        if (w) void save(w);
      }, DRAFT_DEBOUNCE_MS);
    },
    [save, flushNow],
  );
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const w = waiting.current;
    waiting.current = undefined;
    if (w) void flushNow(w);
  }, [flushNow]);
  const drop = useCallback(() => {
    clearTimeout(timer.current);
    waiting.current = undefined;
  }, []);
  // A panel going away (hidden, reloaded) sends what waits.
  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, [flush]);
  return { schedule, flush, drop };
}
