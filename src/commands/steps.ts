// A bulk action as steps (one request or a few per item), which says how far it got when one fails.
import * as vscode from 'vscode';
import { UserCancelled } from '../common/cancelled';
import { PartlyDone } from './partlyDone';
import { withProgress } from './ui';

export interface Steps<T> {
  /** The progress notification's title. */
  title: string;
  /** One request (or a few) for one item. */
  step(item: T, signal: AbortSignal): Promise<void>;
  /** What was done so far, e.g. "Deleted 3 of 10 examples". */
  progressed(done: number, total: number): string;
  /** Runs after each attempt, whatever its outcome (the views show what was done). */
  after?(): void;
}

/**
 * Does each item's step in order, in one cancellable progress notification. When a step fails after at least
 * one was done, throws PartlyDone: "<progressed>; <n> not done: <reason>", whose Retry starts at the failed item.
 * A failure of the very first step is thrown as it is (nothing was done).
 */
export async function inSteps<T>(items: readonly T[], o: Steps<T>, doneBefore = 0, total = items.length): Promise<void> {
  let i = 0;
  try {
    await withProgress(o.title, async (signal, progress) => {
      // A retry's notification starts where the first one stopped.
      if (doneBefore > 0) progress.report({ increment: (100 * doneBefore) / total, message: o.progressed(doneBefore, total) });
      for (; i < items.length; i++) {
        await o.step(items[i]!, signal);
        progress.report({ increment: 100 / total, message: o.progressed(doneBefore + i + 1, total) });
      }
    });
  } catch (err) {
    const done = doneBefore + i;
    if (err instanceof UserCancelled || done === 0) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    const rest = items.slice(i);
    throw new PartlyDone(vscode.l10n.t('{0}; {1} not done: {2}', o.progressed(done, total), rest.length, reason), () => inSteps(rest, o, done, total), { cause: err });
  } finally {
    o.after?.();
  }
}
