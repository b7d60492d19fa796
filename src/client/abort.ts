// Waiting on shared work for one caller: the caller's signal ends its wait, not the work (which others may share).

/**
 * Resolves or rejects with `promise`, or rejects as soon as `signal` aborts, with `reason(signal)` (by default the
 * signal's own reason). The work behind `promise` goes on.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, reason: (signal: AbortSignal) => unknown = (s) => s.reason): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(reason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
