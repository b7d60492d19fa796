// Small helpers every command uses: the selection a context-menu command acts on, questions, progress.
import * as vscode from 'vscode';
import { prompter, type PickOptions } from '../common/prompter';
import { UserCancelled } from './registerCommand';

/** A context-menu command gets the clicked node and, with multi-select, all selected nodes. */
export function selection<T>(clicked: unknown, selected: unknown, isWanted: (n: unknown) => n is T): T[] {
  const all = Array.isArray(selected) && selected.length > 0 ? selected : clicked !== undefined ? [clicked] : [];
  return all.filter(isWanted);
}

/** A modal confirmation for destructive actions; resolves only when the user agrees. */
export async function confirm(message: string, detail: string, action: string): Promise<void> {
  if (!(await prompter().confirm(message, detail, action))) throw new UserCancelled();
}

/** Long work in a cancellable notification; cancelling aborts the requests. */
export function withProgress<T>(title: string, work: (signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      return await work(abort.signal, progress);
    } catch (err) {
      if (token.isCancellationRequested) throw new UserCancelled();
      throw err;
    } finally {
      sub.dispose();
    }
  });
}

/** An input box that resolves with the trimmed value or throws UserCancelled. */
export async function ask(options: vscode.InputBoxOptions): Promise<string> {
  const value = await prompter().input(options);
  if (value === undefined) throw new UserCancelled();
  return value.trim();
}

/** One choice from a list, or UserCancelled. */
export async function choose<T extends vscode.QuickPickItem>(items: T[] | Promise<T[]>, options: PickOptions): Promise<T> {
  const picked = await prompter().pick(items, options);
  if (picked === undefined) throw new UserCancelled();
  return picked;
}

export { validateName, validatePromptName } from '../common/validation';
