// One pending timer per key (a document's URI): scheduling a key again replaces its pending run, so work that
// follows typing (diagnostics of a prompt file, an evaluators file, a source file's prompt references) runs once
// after the typing pauses.
export class KeyedDebounce {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  /** Runs `run` after `delay` ms unless the key is scheduled again or cancelled first. */
  schedule(key: string, delay: number, run: () => void): void {
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        run();
      }, delay),
    );
  }

  cancel(key: string): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
