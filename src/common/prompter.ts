// Every question a command asks goes through the current Prompter: VS Code's own input boxes, pickers and
// dialogs normally, a scripted one in the extension's tests (so commands that ask are tested end to end in the
// extension host, including how they treat bad answers).
import * as vscode from 'vscode';

export interface PickOptions {
  title?: string;
  placeholder?: string;
  /** Shown while items load. */
  busyPlaceholder?: string;
}

export interface Prompter {
  /** An input box; undefined when dismissed. `validateInput` messages are shown as the user types. */
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
  /** A modal question with one affirmative action; true only when the user chose it. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  pick<T extends vscode.QuickPickItem>(items: T[] | Promise<T[]>, options: PickOptions): Promise<T | undefined>;
  pickMany<T extends vscode.QuickPickItem>(items: T[] | Promise<T[]>, options: PickOptions): Promise<T[] | undefined>;
  openFile(options: vscode.OpenDialogOptions): Promise<vscode.Uri | undefined>;
  /** An error notification with one action (Retry); true only when the user chose it. */
  offerRetry(message: string, action: string): Promise<boolean>;
  saveFile(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined>;
}

export const windowPrompter: Prompter = {
  async input(options) {
    return vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
  },
  async confirm(message, detail, action) {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
  },
  async pick(items, options) {
    return vscode.window.showQuickPick(items, { title: options.title, placeHolder: options.placeholder, ignoreFocusOut: true, matchOnDescription: true });
  },
  async pickMany(items, options) {
    return vscode.window.showQuickPick(items, { title: options.title, placeHolder: options.placeholder, ignoreFocusOut: true, canPickMany: true, matchOnDescription: true });
  },
  async openFile(options) {
    return (await vscode.window.showOpenDialog({ canSelectMany: false, ...options }))?.[0];
  },
  async saveFile(options) {
    return vscode.window.showSaveDialog(options);
  },
  async offerRetry(message, action) {
    return (await vscode.window.showErrorMessage(message, action)) === action;
  },
};

/** The prompter in use. */
let current: Prompter = windowPrompter;

export function prompter(): Prompter {
  return current;
}

/** Replaces the prompter (the extension's tests only); returns a function that restores the previous one. */
export function setPrompter(next: Prompter): () => void {
  const previous = current;
  current = next;
  return () => {
    current = previous;
  };
}
